/* Fuzz target: the RKNN rknn_tensor_attr image parser (include/tlayout/rknn.h).
 *
 * Input: a 376-byte attr image (the native attr), optionally a second one (the
 * plain attr, for the true channel count), then 8 bytes of channels and 8 of a
 * threshold (a double). Properties:
 *  - a rejected image leaves the attr untouched and says why; an accepted one
 *    writes back to the same bytes (padding bytes excepted) and reads again to
 *    the same attr;
 *  - a descriptor built from it is valid, its offsets stay inside its size, it
 *    formats and parses back identically, and the division-free view
 *    (tl_rknn_view_init + tl_rknn_channel_offsets) addresses every element
 *    exactly where tl_desc_offset does;
 *  - the quantized threshold T splits every code of the dtype exactly:
 *    dequantize(q) >= t  <=>  q >= T.
 */
#include "fuzz_common.h"

/* Bytes of the image that are struct padding (not fields). */
static int is_padding_byte(size_t i)
{
    return (i >= 349 && i < 352) || (i >= 369 && i < 372);
}

static int read_attr(const uint8_t *img, size_t len, tl_rknn_tensor_attr *a)
{
    tl_rknn_tensor_attr before;
    memset(a, 0x5A, sizeof *a);
    before = *a;
    tl_status s = tl_rknn_attr_read(a, img, len);
    if (s != TL_OK) {
        FZ_ASSERT(memcmp(a, &before, sizeof *a) == 0, "rejected attr image (%s) was written",
                  tl_status_str(s));
        FZ_ASSERT(tl_last_error()[0] != '\0', "attr image rejected without a message");
        return 0;
    }
    uint8_t out1[TL_RKNN_ATTR_SIZE], out2[TL_RKNN_ATTR_SIZE];
    tl_rknn_tensor_attr b;
    FZ_ASSERT(tl_rknn_attr_write(a, out1, sizeof out1) == TL_OK, "accepted attr does not write");
    for (size_t i = 0; i < TL_RKNN_ATTR_SIZE; i++)
        FZ_ASSERT(is_padding_byte(i) || out1[i] == img[i], "byte %zu of the image: read %02x, wrote %02x",
                  i, img[i], out1[i]);
    FZ_ASSERT(tl_rknn_attr_read(&b, out1, sizeof out1) == TL_OK, "written image does not read");
    FZ_ASSERT(tl_rknn_attr_write(&b, out2, sizeof out2) == TL_OK, "re-read attr does not write");
    FZ_ASSERT(memcmp(out1, out2, sizeof out1) == 0, "write(read(write(a))) != write(a)");
    return 1;
}

static int label_dim(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

/* The view addresses element (n,c,h,w) where tl_desc_offset does. */
static void check_view(const tl_desc *d)
{
    tl_rknn_view v;
    if (tl_rknn_view_init(&v, d) != TL_OK) return;
    if (fz_elements(d) > FZ_BRUTE_MAX) return;
    int64_t *choff = malloc(sizeof(int64_t) * (size_t)v.c);
    FZ_ASSERT(choff, "out of memory");
    FZ_ASSERT(tl_rknn_channel_offsets(d, 0, v.c, choff) == TL_OK, "channel offsets of a view");
    int in = label_dim(d, 'N'), ic = label_dim(d, 'C'), ih = label_dim(d, 'H'), iw = label_dim(d, 'W');
    FZ_ASSERT(in >= 0 && ic >= 0 && ih >= 0 && iw >= 0, "a view of a descriptor without N C H W");
    int64_t esize = tl_dtype_bits((tl_dtype)v.dtype) / 8, x[TL_MAX_DIMS] = {0};
    for (x[in] = 0; x[in] < v.n; x[in]++)
        for (x[ic] = 0; x[ic] < v.c; x[ic]++)
            for (x[ih] = 0; x[ih] < v.h; x[ih]++)
                for (x[iw] = 0; x[iw] < v.w; x[iw]++) {
                    uint64_t off = 0;
                    FZ_ASSERT(tl_desc_offset(d, x, &off) == TL_OK, "offset");
                    int64_t e = choff[x[ic]] + x[in] * v.batch_stride + x[ih] * v.row_stride +
                                x[iw] * v.pixel_stride;
                    FZ_ASSERT((uint64_t)(e * esize) == off, "view puts (%lld,%lld,%lld,%lld) at "
                              "byte %lld, tl_desc_offset at %llu", (long long)x[in], (long long)x[ic],
                              (long long)x[ih], (long long)x[iw], (long long)(e * esize),
                              (unsigned long long)off);
                }
    free(choff);
}

static void check_threshold(const tl_desc *d, double t)
{
    int32_t T = 0;
    if (tl_rknn_threshold(d, t, &T) != TL_OK) return;
    unsigned bits = tl_dtype_bits((tl_dtype)d->dtype);
    int is_signed = d->dtype == TL_I8 || d->dtype == TL_I16 || d->dtype == TL_I4;
    int64_t lo = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    for (int64_t q = lo; q <= hi; q++) {
        int pass = tl_dequantize_value(&d->quant, q) >= t;
        FZ_ASSERT(pass == (q >= T), "threshold %g -> T=%d, but code %lld dequantizes to %.9g", t, T,
                  (long long)q, tl_dequantize_value(&d->quant, q));
    }
}

static void check_desc(const tl_desc *d, double t)
{
    FZ_ASSERT(tl_desc_validate(d) == TL_OK, "an RKNN builder gave an invalid descriptor");
    fz_check_valid_desc(d, NULL);
    char text[1024];
    tl_desc d2;
    tl_status s = tl_desc_format(d, text, sizeof text);
    FZ_ASSERT(s == TL_OK, "an RKNN descriptor does not format: %s", tl_status_str(s));
    s = tl_desc_parse(&d2, text);
    FZ_ASSERT(s == TL_OK && memcmp(d, &d2, sizeof d2) == 0, "'%s' does not parse back (%s)", text,
              tl_status_str(s));
    check_view(d);
    check_threshold(d, t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tl_rknn_tensor_attr native, plain;
    if (!read_attr(data, size, &native)) return 0;
    fz_in in = {data + TL_RKNN_ATTR_SIZE, size - TL_RKNN_ATTR_SIZE};
    int have_plain = 0;
    if (in.n >= TL_RKNN_ATTR_SIZE) {
        have_plain = read_attr(in.p, in.n, &plain);
        in.p += TL_RKNN_ATTR_SIZE;
        in.n -= TL_RKNN_ATTR_SIZE;
    }
    int64_t channels = (int64_t)(fz_u64(&in) % 4096);
    double t;
    uint64_t tb = fz_u64(&in);
    memcpy(&t, &tb, sizeof t);

    tl_desc d, before;
    memset(&d, 0x5A, sizeof d);
    before = d;
    tl_status s = tl_rknn_desc_from_attr(&d, &native, channels);
    if (s == TL_OK) check_desc(&d, t);
    else FZ_ASSERT(memcmp(&d, &before, sizeof d) == 0, "tl_rknn_desc_from_attr failed but wrote");
    if (have_plain) {
        memset(&d, 0x5A, sizeof d);
        s = tl_rknn_desc_from_attrs(&d, &native, &plain);
        if (s == TL_OK) check_desc(&d, t);
        else FZ_ASSERT(memcmp(&d, &before, sizeof d) == 0, "tl_rknn_desc_from_attrs failed but wrote");
    }
    return 0;
}
