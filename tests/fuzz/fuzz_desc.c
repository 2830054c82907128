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
 *    nothing (offset result, padding fill, conversion destination);
 *  - valid, whatever its vendor fields say: the vendor entry points (format,
 *    JSON, explain, TIDL zero padding, the TIDL/larod/TensorRT/DirectML/RKNN
 *    exports and views) raise no sanitizer report, a formatted spec parses
 *    back to the descriptor, and a refusal writes nothing;
 *  - builders given the descriptor and input-drawn paddings/strides either
 *    succeed with a valid result or leave *d byte for byte as it was.
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

/* The vendor entry points on any valid descriptor, whatever its vendor
 * fields say (the input bytes set them): no sanitizer report, a message on
 * every refusal, nothing written on a refusal, and on success the properties
 * a caller relies on. */
static void check_vendor_entry_points(const tl_desc *d, fz_in *in)
{
    char text[4096], keep[4096];
    size_t need = 0;
    tl_status s = tl_desc_format(d, text, sizeof text);
    if (s == TL_OK) { /* the text is the descriptor */
        tl_desc back;
        FZ_ASSERT(tl_desc_parse(&back, text) == TL_OK && memcmp(&back, d, sizeof back) == 0,
                  "'%s' does not parse back to the descriptor", text);
    } else {
        FZ_ASSERT(tl_last_error()[0], "tl_desc_format: %s without a message", tl_status_str(s));
    }
    s = tl_desc_to_json(d, text, sizeof text, &need);
    FZ_ASSERT(s == TL_OK || s == TL_ERR_BUFFER_SMALL, "tl_desc_to_json: %s", tl_status_str(s));
    s = tl_desc_explain_vendor(d, text, sizeof text, &need);
    FZ_ASSERT(s == TL_OK || s == TL_ERR_BUFFER_SMALL, "tl_desc_explain_vendor: %s", tl_status_str(s));

    /* TIDL zero padding: only gaps of TIDL's layout, nothing on a refusal */
    size_t n = (size_t)d->size_bytes;
    if (d->size_bytes <= FZ_BUFFER_MAX) {
        uint8_t *a = malloc(n + 64), *b = malloc(n + 64);
        FZ_ASSERT(a && b, "out of memory");
        uint64_t seed = fz_u64(in);
        for (size_t i = 0; i < n + 64; i++) a[i] = (uint8_t)(fz_mix(&seed) | 1);
        memcpy(b, a, n + 64);
        s = tl_tidl_zero_padding(d, a, n);
        if (s != TL_OK) {
            FZ_ASSERT(tl_last_error()[0] && memcmp(a, b, n + 64) == 0,
                      "tl_tidl_zero_padding refused (%s) but wrote", tl_status_str(s));
        } else {
            FZ_ASSERT(memcmp(a + n, b + n, 64) == 0, "tl_tidl_zero_padding wrote past size_bytes");
            int64_t x[TL_MAX_DIMS] = {0};
            unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
            for (int64_t e = fz_elements(d) < FZ_BRUTE_MAX ? fz_elements(d) : 0; e > 0 && eb >= 8; e--) {
                uint64_t off = 0;
                tl_desc_offset(d, x, &off);
                FZ_ASSERT(memcmp(a + off, b + off, eb / 8) == 0, "tl_tidl_zero_padding zeroed an element");
                for (int i = d->rank - 1; i >= 0; i--) {
                    if (++x[i] < d->dims[i]) break;
                    x[i] = 0;
                }
            }
        }
        free(a);
        free(b);
    }

    /* exports: refusals leave the result as it was */
    tl_tidl_buf tb;
    memset(&tb, 0x5A, sizeof tb);
    memcpy(keep, &tb, sizeof tb);
    if (tl_tidl_from_desc(d, &tb) != TL_OK) FZ_ASSERT(memcmp(keep, &tb, sizeof tb) == 0, "tl_tidl_from_desc wrote");
    tl_larod_tensor_layout ll;
    tl_larod_tensor_data_type ldt;
    tl_larod_tensor_dims ld;
    tl_larod_tensor_pitches lp;
    (void)tl_larod_from_desc(d, &ll, &ldt, &ld, &lp);
    (void)tl_larod_pitches_from_desc(d, &lp);
    (void)tl_larod_check_fd_size(d, fz_u64(in), fz_u64(in));
    tl_trt_runtime rt;
    tl_trt_dims td;
    (void)tl_trt_runtime_info(d, &rt);
    (void)tl_trt_runtime_strides(d, &td);
    tl_dml_buffer_tensor_desc dm;
    uint32_t sizes[TL_MAX_DIMS], strides[TL_MAX_DIMS];
    (void)tl_dml_export(d, &dm, sizes, strides);
    tl_rknn_view v;
    int64_t offs[4];
    (void)tl_rknn_view_init(&v, d);
    (void)tl_rknn_channel_offsets(d, (int64_t)(fz_u8(in) % 8), 4, offs);
    int32_t th;
    (void)tl_rknn_threshold(d, (double)(int8_t)fz_u8(in) / 8.0, &th);
}

/* Builders on failure leave the descriptor byte for byte as it was; on
 * success set_padding gives a valid generic descriptor. */
static void check_builders(const tl_desc *d, fz_in *in)
{
    tl_desc t = *d, keep = *d;
    int64_t lo[TL_MAX_DIMS], hi[TL_MAX_DIMS];
    for (int i = 0; i < TL_MAX_DIMS; i++) {
        uint8_t c = fz_u8(in); /* mostly small, sometimes huge or negative */
        lo[i] = c < 240 ? c % 4 : (int64_t)(fz_u64(in) >> (c % 3));
        hi[i] = c < 200 ? c % 3 : -(int64_t)(c % 5) + (c % 2 ? INT64_MAX / 2 : 0);
    }
    tl_status s = tl_desc_set_padding(&t, lo, hi);
    if (s != TL_OK) {
        FZ_ASSERT(memcmp(&t, &keep, sizeof t) == 0, "tl_desc_set_padding failed (%s) but changed *d", tl_status_str(s));
    } else {
        FZ_ASSERT(tl_desc_validate(&t) == TL_OK && t.vendor == TL_VENDOR_NONE,
                  "tl_desc_set_padding gave an invalid or vendor-tagged descriptor");
    }
    int64_t strides[TL_MAX_DIMS];
    for (int i = 0; i < TL_MAX_DIMS; i++) strides[i] = (int64_t)fz_u64(in) >> (fz_u8(in) % 64);
    t = keep;
    if (tl_desc_init_strided(&t, (tl_dtype)d->dtype, d->dims, strides, d->rank) != TL_OK)
        FZ_ASSERT(memcmp(&t, &keep, sizeof t) == 0, "tl_desc_init_strided failed but changed *d");
    t = keep;
    if (tl_desc_init(&t, (const char *)"NCHW16c", (tl_dtype)d->dtype, d->dims, d->rank) != TL_OK)
        FZ_ASSERT(memcmp(&t, &keep, sizeof t) == 0, "tl_desc_init failed but changed *d");
    t = keep;
    if (tl_desc_init_yuv420(&t, (tl_yuv_kind)(fz_u8(in) % 5), d->dims[0], d->dims[d->rank - 1], strides[0], strides[1]) !=
        TL_OK)
        FZ_ASSERT(memcmp(&t, &keep, sizeof t) == 0, "tl_desc_init_yuv420 failed but changed *d");
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
    check_vendor_entry_points(&d, &in);
    check_builders(&d, &in);
    return 0;
}
