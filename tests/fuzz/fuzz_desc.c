/* Fuzz target: descriptor validation and offsets on raw tl_desc bytes.
 *
 * Input: sizeof(tl_desc) bytes taken as a descriptor (short inputs are zero-
 * filled), then bytes used as coordinates. Validation must never overflow or
 * read out of bounds (UBSan/ASan), and must agree with everything that relies
 * on it:
 *  - valid: every coordinate's byte offset + element bytes <= size_bytes, no
 *    two elements of a writable descriptor share a bit, tl_fill_padding keeps
 *    the elements (fuzz_common.h), and a conversion to a dense copy and back
 *    reproduces every element;
 *  - invalid: every call that validates returns the same status, and writes
 *    nothing (offset result, padding fill, conversion destination).
 * Seeds are the raw bytes of descriptors parsed from spec strings, written by
 * fuzz_seedgen at test time (the struct layout belongs to the core).
 */
#include "fuzz_common.h"

static void check_invalid(const tl_desc *d, tl_status why, fz_in *in)
{
    uint8_t buf[64], keep[64], src[64] = {0};
    int64_t x[TL_MAX_DIMS];
    for (int i = 0; i < TL_MAX_DIMS; i++) x[i] = (int64_t)(fz_u8(in) % 4);
    uint64_t out = 777;
    tl_status s = tl_desc_offset(d, x, &out);
    FZ_ASSERT(s == why && out == 777, "invalid descriptor (%s): tl_desc_offset gave %s",
              tl_status_str(why), tl_status_str(s));
    memset(buf, 0x3C, sizeof buf);
    memcpy(keep, buf, sizeof buf);
    s = tl_fill_padding(d, buf, sizeof buf, 0);
    FZ_ASSERT(s == why && memcmp(buf, keep, sizeof buf) == 0,
              "invalid descriptor (%s): tl_fill_padding gave %s or wrote", tl_status_str(why),
              tl_status_str(s));
    tl_desc dense;
    int64_t one = 64;
    FZ_ASSERT(tl_desc_init(&dense, "W", TL_U8, &one, 1) == TL_OK, "W:u8:64");
    s = tl_convert(&dense, src, sizeof src, d, buf, sizeof buf);
    FZ_ASSERT(s != TL_OK && memcmp(buf, keep, sizeof buf) == 0,
              "invalid destination (%s): tl_convert gave %s or wrote", tl_status_str(why),
              tl_status_str(s));
    uint8_t dst[64];
    memset(dst, 0x3C, sizeof dst);
    s = tl_convert(d, buf, sizeof buf, &dense, dst, sizeof dst);
    FZ_ASSERT(s != TL_OK && memcmp(dst, keep, sizeof dst) == 0,
              "invalid source (%s): tl_convert gave %s or wrote", tl_status_str(why),
              tl_status_str(s));
}

/* The descriptor -> dense row-major copy -> the descriptor again keeps every
 * element (the reference converter, so the offset function is the oracle). */
static void check_dense_round_trip(const tl_desc *d, uint64_t seed)
{
    if (d->size_bytes > FZ_BUFFER_MAX || fz_elements(d) > FZ_BRUTE_MAX) return;
    if ((d->flags & TL_DESC_READONLY) || d->nplanes > 1) return;
    tl_desc dense;
    int64_t strides[TL_MAX_DIMS], acc = 1;
    for (int i = d->rank - 1; i >= 0; i--) {
        strides[i] = acc;
        acc *= d->dims[i]; /* <= FZ_BRUTE_MAX elements: no overflow */
    }
    if (tl_desc_init_strided(&dense, (tl_dtype)d->dtype, d->dims, strides, d->rank) != TL_OK) return;
    dense.quant = d->quant;
    memcpy(dense.labels, d->labels, sizeof dense.labels);
    size_t n = (size_t)d->size_bytes, m = (size_t)dense.size_bytes;
    uint8_t *a = malloc(n ? n : 1), *b = malloc(m ? m : 1), *c = malloc(n ? n : 1);
    FZ_ASSERT(a && b && c, "out of memory");
    for (size_t i = 0; i < n; i++) a[i] = (uint8_t)fz_mix(&seed);
    memcpy(c, a, n);
    tl_status s = tl_convert_reference(d, a, n, &dense, b, m, 0);
    if (s == TL_OK) {
        s = tl_convert_reference(&dense, b, m, d, c, n, TL_KEEP_PADDING);
        FZ_ASSERT(s == TL_OK, "dense copy back: %s", tl_status_str(s));
        int64_t x[TL_MAX_DIMS] = {0};
        unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
        for (int64_t e = fz_elements(d); e > 0 && eb >= 8; e--) {
            uint64_t off = 0;
            tl_desc_offset(d, x, &off);
            /* same dtype and quantization both ways: a raw copy, NaN payloads included */
            FZ_ASSERT(memcmp(a + off, c + off, eb / 8) == 0,
                      "element at byte %llu changed through a dense copy", (unsigned long long)off);
            for (int i = d->rank - 1; i >= 0; i--) {
                if (++x[i] < d->dims[i]) break;
                x[i] = 0;
            }
        }
    }
    free(a);
    free(b);
    free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    tl_desc d;
    fz_bytes(&in, &d, sizeof d);
    tl_status s = tl_desc_validate(&d);
    if (s != TL_OK) {
        FZ_ASSERT(tl_last_error()[0] != '\0', "validate returned %s without a message",
                  tl_status_str(s));
        check_invalid(&d, s, &in);
        return 0;
    }
    uint64_t seed = 0;
    fz_in coords = in;
    fz_check_valid_desc(&d, &coords);
    seed = fz_u64(&in);
    check_dense_round_trip(&d, seed);
    return 0;
}
