/* tl_scan, tl_argmax, tl_topk, tl_gather against a float64 reference that
 * dequantizes every element through the descriptor's offset function, on
 * seeded random tensors in every vendor layout (batch 3, odd C, every channel
 * block), with thresholds placed exactly on a code's value; every scan ISA. */
#include <math.h>

#include "kernels/scan/scan.h"
#include "tl_test.h"

/* Layouts: N=3, odd C (7 or 37), H=5, W=6 where the vendor allows (NV12: one
 * image of 3 planes). */
static const char *const k_specs[] = {
    "NCHW:i8:3x7x5x6",
    "NHWC:u8:3x5x6x7",
    "NCHW4c:i8:3x7x5x6",
    "NCHW8c:u8:3x37x5x6",
    "NCHW16c:i8:3x37x5x6",
    "NCHW32c:i8:3x37x5x6",
    "rknn.nc1hwc2:i8:3x37x5x6:c2=16",
    "rknn.nc1hwc2:i8:3x37x5x6:c2=8",
    "rknn.nc1hwc2:i8:3x3x5x6x16:c=37:wstride=8",
    "rknn.nhwc:i8:3x5x6x37:wstride=8",
    "rknn.nchw:u8:3x37x5x6:wstride=16",
    "trt.chw32:i8:3x37x5x6",
    "trt.chw4:i8:3x7x5x6",
    "trt.dla_hwc4:i8:3x3x5x6",
    "tidl:i8:3x7x5x6:pad=1,2,1,1",
    "tidl:u8:3x37x5x6:pad=0,1,2,0",
    "tidl:i16:3x7x5x6:pad=1,1,1,1",
    "larod.nhwc:u8:3x5x6x7:align=0,0,32,4",
    "larod.nchw:i8:3x7x5x6:align=0,0,0,16",
    "dml.nhwc:u8:3x7x5x6",
    "NCHW:i16:3x7x5x6",
    "NHWC:u16:3x5x6x7",
    "NCHW:u4:3x7x5x6",
    "NCHW:i4:3x7x5x6",
    "NCW:i8:3x37x41",
    "NHWC:i8:3x1x70x37",
    "larod.420sp:u8:3x5x7", /* two planes: the per-element offset path */
};
#define NSPECS (sizeof k_specs / sizeof k_specs[0])

/* ---- the reference: element by element through tl_desc_offset_bits --------------- */
typedef struct ref {
    const tl_desc *d;
    int dn, dc, dh, dw;
    int64_t N, C, H, W;
} ref;

static int find_label(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

static void ref_init(ref *r, const tl_desc *d)
{
    r->d = d;
    r->dn = find_label(d, 'N'), r->dc = find_label(d, 'C'), r->dh = find_label(d, 'H'), r->dw = find_label(d, 'W');
    r->N = r->dn >= 0 ? d->dims[r->dn] : 1, r->C = d->dims[r->dc];
    r->H = r->dh >= 0 ? d->dims[r->dh] : 1, r->W = r->dw >= 0 ? d->dims[r->dw] : 1;
}

static int64_t ref_code(const ref *r, const uint8_t *buf, int64_t n, int64_t c, int64_t h, int64_t w)
{
    int64_t x[TL_MAX_DIMS] = {0};
    uint64_t bit = 0;
    if (r->dn >= 0) x[r->dn] = n;
    x[r->dc] = c;
    if (r->dh >= 0) x[r->dh] = h;
    if (r->dw >= 0) x[r->dw] = w;
    tl_desc_offset_bits(r->d, x, &bit);
    const uint8_t *p = buf + bit / 8;
    switch ((tl_dtype)r->d->dtype) {
    case TL_I8: return (int8_t)*p;
    case TL_U8: return *p;
    case TL_I16: return (int16_t)(p[0] | p[1] << 8);
    case TL_U16: return p[0] | p[1] << 8;
    case TL_U4: return (bit & 4) ? *p >> 4 : *p & 15;
    default: { int v = (bit & 4) ? *p >> 4 : *p & 15; return v > 7 ? v - 16 : v; }
    }
}

static double ref_value(const ref *r, const uint8_t *buf, int64_t n, int64_t c, int64_t h, int64_t w)
{
    return tl_dequantize_value(&r->d->quant, ref_code(r, buf, n, c, h, w));
}

static size_t ref_scan(const ref *r, const uint8_t *buf, int64_t first, int64_t count, double t, int best,
                       tl_hit *out)
{
    size_t k = 0;
    for (int64_t n = 0; n < r->N; n++)
        for (int64_t h = 0; h < r->H; h++)
            for (int64_t w = 0; w < r->W; w++) {
                int64_t bc = -1;
                double bv = 0;
                for (int64_t c = first; c < first + count; c++) {
                    double v = ref_value(r, buf, n, c, h, w);
                    if (!(v >= t)) continue;
                    if (!best) out[k++] = (tl_hit){n, h, w, (int32_t)c, (int32_t)ref_code(r, buf, n, c, h, w), v};
                    else if (bc < 0 || v > bv) bc = c, bv = v;
                }
                if (best && bc >= 0)
                    out[k++] = (tl_hit){n, h, w, (int32_t)bc, (int32_t)ref_code(r, buf, n, bc, h, w), bv};
            }
    return k;
}

static int same_hit(const tl_hit *a, const tl_hit *b)
{
    return a->n == b->n && a->h == b->h && a->w == b->w && a->c == b->c && a->code == b->code &&
           memcmp(&a->value, &b->value, sizeof a->value) == 0;
}

/* A random quantization the dtype keeps ordered; scale sometimes a power of 2. */
static void random_quant(tl_rng *r, tl_desc *d)
{
    static const float scales[] = {0.00390625f, 0.1f, 0.0123f, 0.5f, 1.0f / 3.0f};
    float s = scales[tl_rng_pick(r, 5)];
    int kind = tl_rng_pick(r, 4);
    if (kind == 0) d->quant = tl_test_quant(TL_Q_AFFINE, (int32_t)tl_rng_range(r, -20, 20), s, 0, 0);
    else if (kind == 1) d->quant = tl_test_quant(TL_Q_INV, (int32_t)tl_rng_range(r, -3, 3), 1.0f / s, 0, 0);
    else if (kind == 2) d->quant = tl_test_quant(TL_Q_DFP, 0, 0, (int)tl_rng_range(r, -2, 6), 0);
    else d->quant = tl_test_quant(TL_Q_NONE, 0, 0, 0, 0);
}

static uint8_t *random_tensor(tl_rng *r, const tl_desc *d, size_t *len)
{
    *len = (size_t)d->size_bytes;
    uint8_t *b = malloc(*len + 1);
    tl_rng_bytes(r, b, *len);
    return b;
}

/* Scan every layout, both modes, several ranges and thresholds, every ISA. */
TL_TEST(scan_equals_reference)
{
    tl_rng r = tl_test_rng();
    for (size_t s = 0; s < NSPECS; s++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, k_specs[s]), TL_OK);
        ref rf;
        ref_init(&rf, &d);
        for (int trial = 0; trial < 6; trial++) {
            random_quant(&r, &d);
            size_t len;
            uint8_t *buf = random_tensor(&r, &d, &len);
            if (trial % 2 && tl_dtype_bits((tl_dtype)d.dtype) == 8) /* mostly background: whole rows skipped */
                for (size_t i = 0; i < len; i++)
                    if (tl_rng_pick(&r, 40)) buf[i] = (uint8_t)((d.dtype == TL_I8 ? 0x80 : 0) | (buf[i] & 15));
            int64_t first = tl_rng_range(&r, 0, rf.C - 1), count = tl_rng_range(&r, 1, rf.C - first);
            if (trial == 0) first = 0, count = rf.C;
            int64_t code_at = tl_rng_range(&r, -8, 7) * (trial % 3 == 0 ? 1 : 15);
            double t = tl_dequantize_value(&d.quant, code_at); /* exactly a code's value */
            if (trial == 4) t = nextafter(t, INFINITY);
            if (trial == 5) t = -1e30;
            size_t cap = (size_t)(rf.N * rf.H * rf.W * rf.C);
            tl_hit *want = malloc(cap * sizeof *want), *got = malloc(cap * sizeof *got);
            for (int best = 0; best < 2; best++) {
                size_t nw = ref_scan(&rf, buf, first, count, t, best, want);
                for (int isa = 0; isa < TL_SCAN_ISA_COUNT; isa++) {
                    if (!tl_scan_force_isa(isa)) continue;
                    size_t ng = 0;
                    CHECK_STATUS(tl_scan(&d, buf, len, first, count, t, best ? TL_SCAN_BEST : 0, got, cap, &ng),
                                 TL_OK);
                    int ok = ng == nw;
                    for (size_t i = 0; ok && i < nw; i++) ok = same_hit(&got[i], &want[i]);
                    if (!ok)
                        FAILF("%s q=%d range [%lld,+%lld) t=%.17g best=%d isa=%s: %zu hits, reference %zu",
                              k_specs[s], d.quant.kind, (long long)first, (long long)count, t, best,
                              tl_scan_isa_name(isa), ng, nw);
                }
                tl_scan_force_isa(-1);
            }
            free(want), free(got), free(buf);
        }
    }
}

/* Every compiled kernel finds the same first index as the scalar one. */
TL_TEST(scan_kernels_agree)
{
    tl_rng r = tl_test_rng();
    static uint8_t p[700], mask[16384 + 64];
    for (int trial = 0; trial < 3000; trial++) {
        int64_t P = tl_rng_range(&r, 1, 100);
        size_t mlen = 64;
        while (mlen % (size_t)P) mlen += 64;
        for (size_t i = 0; i < mlen + 64; i++) mask[i] = (i % (size_t)P) % 3 == 0 ? 0xFF : 0;
        tl_rng_bytes(&r, p, sizeof p);
        for (size_t i = 0; i < sizeof p; i++)
            if (tl_rng_pick(&r, 50)) p[i] &= 0x3F; /* rare high codes */
        size_t n = (size_t)tl_rng_range(&r, 0, sizeof p), start = (size_t)tl_rng_range(&r, 0, (int64_t)n);
        uint8_t flip = tl_rng_pick(&r, 2) ? 0x80 : 0, tu = (uint8_t)tl_rng_range(&r, 1, 255);
        size_t want = tl_scan_next_scalar(p, start, n, mask, mlen, flip, tu);
        for (int isa = 1; isa < TL_SCAN_ISA_COUNT; isa++) {
            tl_scan_next_fn fn = tl_scan_kernel(isa);
            if (fn && fn(p, start, n, mask, mlen, flip, tu) != want)
                FAILF("%s: P=%lld n=%zu start=%zu tu=%u flip=%u: %zu, scalar %zu", tl_scan_isa_name(isa),
                      (long long)P, n, start, tu, flip, fn(p, start, n, mask, mlen, flip, tu), want);
        }
    }
}

/* Every compiled argmax row kernel equals the scalar one (ties keep the label). */
TL_TEST(argmax_kernels_agree)
{
    tl_rng r = tl_test_rng();
    int32_t a[300], z[300], b0[300], l0[300], b1[300], l1[300];
    for (int trial = 0; trial < 2000; trial++) {
        size_t n = (size_t)tl_rng_range(&r, 0, 300);
        int32_t w0 = (int32_t)tl_rng_range(&r, 0, 1026), w1 = (int32_t)tl_rng_range(&r, 0, 1026);
        for (size_t i = 0; i < n; i++) {
            a[i] = (int32_t)tl_rng_range(&r, -200000, 200000), z[i] = (int32_t)tl_rng_range(&r, -200000, 200000);
            b0[i] = tl_rng_pick(&r, 3) ? w0 * a[i] + w1 * z[i] : (int32_t)tl_rng_range(&r, -(1 << 30), 1 << 30);
            l0[i] = (int32_t)tl_rng_range(&r, 0, 20);
        }
        int32_t c = (int32_t)tl_rng_range(&r, 1, 40);
        memcpy(b1, b0, sizeof b0), memcpy(l1, l0, sizeof l0);
        tl_argmax_row_scalar(a, z, w0, w1, c, b0, l0, n);
        for (int isa = 1; isa < TL_SCAN_ISA_COUNT; isa++) {
            tl_argmax_row_fn fn = tl_argmax_row_kernel(isa);
            if (!fn) continue;
            int32_t b2[300], l2[300];
            memcpy(b2, b1, sizeof b1), memcpy(l2, l1, sizeof l1);
            fn(a, z, w0, w1, c, b2, l2, n);
            if (memcmp(b2, b0, n * 4) || memcmp(l2, l0, n * 4))
                FAILF("%s: n=%zu w0=%d w1=%d: differs from scalar", tl_scan_isa_name(isa), n, w0, w1);
        }
    }
}

/* ---- argmax ------------------------------------------------------------------- */
static double ref_bilinear(const ref *r, const uint8_t *buf, int64_t n, int64_t c, int64_t y, int64_t x,
                           int64_t oh, int64_t ow)
{
    double sx = (x + 0.5) * (double)r->W / (double)ow - 0.5, sy = (y + 0.5) * (double)r->H / (double)oh - 0.5;
    sx = sx < 0 ? 0 : sx, sy = sy < 0 ? 0 : sy;
    int64_t x0 = (int64_t)floor(sx), y0 = (int64_t)floor(sy);
    double fx = sx - (double)x0, fy = sy - (double)y0;
    if (x0 >= r->W - 1) x0 = r->W - 1, fx = 0;
    if (y0 >= r->H - 1) y0 = r->H - 1, fy = 0;
    int64_t x1 = fx > 0 ? x0 + 1 : x0, y1 = fy > 0 ? y0 + 1 : y0;
    double top = (1 - fx) * ref_value(r, buf, n, c, y0, x0) + fx * ref_value(r, buf, n, c, y0, x1);
    double bot = (1 - fx) * ref_value(r, buf, n, c, y1, x0) + fx * ref_value(r, buf, n, c, y1, x1);
    return (1 - fy) * top + fy * bot;
}

static double ref_logit(const ref *r, const uint8_t *buf, tl_resize rs, int64_t n, int64_t c, int64_t y, int64_t x,
                        int64_t oh, int64_t ow)
{
    if (rs == TL_RESIZE_BILINEAR) return ref_bilinear(r, buf, n, c, y, x, oh, ow);
    if (rs == TL_RESIZE_NEAREST) return ref_value(r, buf, n, c, y * r->H / oh, x * r->W / ow);
    return ref_value(r, buf, n, c, y, x);
}

TL_TEST(argmax_equals_reference)
{
    tl_rng r = tl_test_rng();
    for (size_t s = 0; s < NSPECS; s++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, k_specs[s]), TL_OK);
        ref rf;
        ref_init(&rf, &d);
        for (int rs = 0; rs < 3; rs++) {
            random_quant(&r, &d);
            size_t len;
            uint8_t *buf = random_tensor(&r, &d, &len);
            int64_t oh = rs ? tl_rng_range(&r, 1, 23) : rf.H, ow = rs ? tl_rng_range(&r, 1, 29) : rf.W;
            size_t cells = (size_t)(rf.N * oh * ow);
            int32_t *lab = malloc(cells * 4);
            uint8_t *lab8 = malloc(cells);
            int isa = rs * 7 % TL_SCAN_ISA_COUNT; /* the kernels take turns */
            while (!tl_scan_force_isa(isa)) isa = (isa + 1) % TL_SCAN_ISA_COUNT;
            REQUIRE_STATUS(tl_argmax(&d, buf, len, (tl_resize)rs, rs ? oh : 0, rs ? ow : 0, TL_LABEL_I32, lab,
                                     cells * 4), TL_OK);
            tl_scan_force_isa(-1);
            if (rf.C <= 256)
                CHECK_STATUS(tl_argmax(&d, buf, len, (tl_resize)rs, oh, ow, TL_LABEL_U8, lab8, cells), TL_OK);
            size_t bad = 0;
            for (int64_t n = 0; n < rf.N; n++)
                for (int64_t y = 0; y < oh; y++)
                    for (int64_t x = 0; x < ow; x++) {
                        int64_t bc = 0;
                        double bv = 0;
                        for (int64_t c = 0; c < rf.C; c++) {
                            double v = ref_logit(&rf, buf, (tl_resize)rs, n, c, y, x, oh, ow);
                            if (c == 0 || v > bv) bc = c, bv = v;
                        }
                        size_t at = (size_t)((n * oh + y) * ow + x);
                        int64_t got = lab[at];
                        if (rf.C <= 256 && lab8[at] != got) bad++;
                        if (got == bc) continue;
                        /* only a tie that float64 cannot resolve may differ */
                        double gv = got >= 0 && got < rf.C ? ref_logit(&rf, buf, (tl_resize)rs, n, got, y, x, oh, ow)
                                                           : -INFINITY;
                        if (!(fabs(gv - bv) <= 1e-9 * fmax(1.0, fabs(bv)))) bad++;
                    }
            if (bad) FAILF("%s resize=%d %lldx%lld q=%d: %zu labels differ", k_specs[s], rs, (long long)oh,
                           (long long)ow, d.quant.kind, bad);
            free(lab), free(lab8), free(buf);
        }
    }
}

/* 21 classes, 65x65 -> 513x513 with a power-of-two scale (the exact integer path):
 * equal to the reference label for label wherever the reference has no near-tie. */
TL_TEST(argmax_segmentation_size)
{
    tl_rng r = tl_test_rng();
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x21x65x65:c2=16:zp=-3:scale=0.125"), TL_OK);
    ref rf;
    ref_init(&rf, &d);
    size_t len;
    uint8_t *buf = random_tensor(&r, &d, &len);
    int32_t *lab = malloc(513 * 513 * 4);
    REQUIRE_STATUS(tl_argmax(&d, buf, len, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, lab, 513 * 513 * 4), TL_OK);
    size_t bad = 0;
    for (int64_t y = 0; y < 513; y += 7)
        for (int64_t x = 0; x < 513; x++) {
            int64_t bc = 0;
            double bv = 0;
            for (int64_t c = 0; c < 21; c++) {
                double v = ref_bilinear(&rf, buf, 0, c, y, x, 513, 513);
                if (c == 0 || v > bv) bc = c, bv = v;
            }
            int64_t got = lab[y * 513 + x];
            if (got != bc && !(fabs(ref_bilinear(&rf, buf, 0, got, y, x, 513, 513) - bv) <= 1e-9 * fmax(1, fabs(bv))))
                bad++;
        }
    CHECK_EQ_I64((int64_t)bad, 0);
    free(lab), free(buf);
}

/* ---- top-k ---------------------------------------------------------------------- */
TL_TEST(topk_equals_reference)
{
    tl_rng r = tl_test_rng();
    for (size_t s = 0; s < NSPECS; s++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, k_specs[s]), TL_OK);
        ref rf;
        ref_init(&rf, &d);
        random_quant(&r, &d);
        size_t len;
        uint8_t *buf = random_tensor(&r, &d, &len);
        for (int item = 0; item < 2; item++) {
            int64_t per = item ? rf.C * rf.H * rf.W : rf.C, groups = item ? rf.N : rf.N * rf.H * rf.W;
            int64_t k = tl_rng_range(&r, 1, per < 9 ? per : 9);
            tl_hit *got = malloc((size_t)(groups * k) * sizeof *got);
            size_t ng = 0;
            CHECK_STATUS(tl_topk(&d, buf, len, k, item ? TL_TOPK_PER_ITEM : 0, got, (size_t)(groups * k) - 1, &ng),
                         TL_ERR_BUFFER_SMALL);
            CHECK_EQ_I64((int64_t)ng, groups * k);
            REQUIRE_STATUS(tl_topk(&d, buf, len, k, item ? TL_TOPK_PER_ITEM : 0, got, (size_t)(groups * k), &ng),
                           TL_OK);
            /* reference: per group, repeatedly the largest unused value, earliest first */
            size_t bad = 0;
            for (int64_t g = 0; g < groups; g++) {
                int64_t n = item ? g : g / (rf.H * rf.W), hw = item ? 0 : g % (rf.H * rf.W);
                double last = INFINITY;
                int64_t last_i = -1;
                for (int64_t j = 0; j < k; j++) {
                    double bv = -INFINITY;
                    int64_t bi = -1;
                    for (int64_t i = 0; i < per; i++) { /* i in (h, w, c) order within the group */
                        int64_t c = i % rf.C, p = item ? i / rf.C : hw;
                        double v = ref_value(&rf, buf, n, c, p / rf.W, p % rf.W);
                        int after_last = v < last || (v == last && i > last_i);
                        if (after_last && (bi < 0 || v > bv)) bv = v, bi = i;
                    }
                    const tl_hit *h = &got[g * k + j];
                    int64_t c = bi % rf.C, p = item ? bi / rf.C : hw;
                    if (h->n != n || h->c != c || h->h != p / rf.W || h->w != p % rf.W || h->value != bv) bad++;
                    last = bv, last_i = bi;
                }
            }
            if (bad) FAILF("%s per_item=%d k=%lld: %zu entries differ", k_specs[s], item, (long long)k, bad);
            free(got);
        }
        free(buf);
    }
}

/* ---- gather and errors --------------------------------------------------------- */
TL_TEST(gather_values)
{
    tl_rng r = tl_test_rng();
    for (size_t s = 0; s < NSPECS; s++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, k_specs[s]), TL_OK);
        ref rf;
        ref_init(&rf, &d);
        random_quant(&r, &d);
        size_t len;
        uint8_t *buf = random_tensor(&r, &d, &len);
        int64_t co[4 * 20];
        double out[20];
        for (int i = 0; i < 20; i++) {
            co[4 * i] = tl_rng_range(&r, 0, rf.N - 1), co[4 * i + 1] = tl_rng_range(&r, 0, rf.C - 1);
            co[4 * i + 2] = tl_rng_range(&r, 0, rf.H - 1), co[4 * i + 3] = tl_rng_range(&r, 0, rf.W - 1);
        }
        REQUIRE_STATUS(tl_gather(&d, buf, len, co, 20, out), TL_OK);
        for (int i = 0; i < 20; i++)
            CHECK(out[i] == ref_value(&rf, buf, co[4 * i], co[4 * i + 1], co[4 * i + 2], co[4 * i + 3]));
        free(buf);
    }
}

TL_TEST(bad_input_named)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x4x4x16:c=84:zp=-128:scale=0.00390625"), TL_OK);
    uint8_t buf[1536] = {0};
    tl_hit hits[4];
    size_t n = 99;
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 4, 0, 0.5, 0, hits, 4, &n), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "count=0");
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 80, 5, 0.5, 0, hits, 4, &n), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "[80, 85)");
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, -1, 5, 0.5, 0, hits, 4, &n), TL_ERR_COORD);
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 0, 84, NAN, 0, hits, 4, &n), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "threshold=nan");
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf - 1, 0, 84, 0.5, 0, hits, 4, &n), TL_ERR_BUFFER_SMALL);
    /* every code 0 = -128 -> 0.5 with t = 0.5 passes: 16 positions x 84 channels */
    d.quant.zp = 0, d.quant.scale = 1.0f / 256;
    n = 99;
    hits[0].c = 12345;
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 0, 84, 0.0, 0, hits, 4, &n), TL_ERR_BUFFER_SMALL);
    CHECK_EQ_I64((int64_t)n, 16 * 84);
    CHECK_EQ_I64(hits[0].c, 12345); /* nothing written */
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 0, 84, 0.0, TL_SCAN_BEST, NULL, 0, &n), TL_ERR_BUFFER_SMALL);
    CHECK_EQ_I64((int64_t)n, 16);
    d.quant.scale = -0.5f;
    CHECK_STATUS(tl_scan(&d, buf, sizeof buf, 0, 84, 0.5, 0, hits, 4, &n), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "scale=-0.5");
    CHECK_STATUS(tl_topk(&d, buf, sizeof buf, 3, 0, hits, 4, &n), TL_ERR_QUANT);
    d.quant.scale = 0.5f;
    CHECK_STATUS(tl_topk(&d, buf, sizeof buf, 85, 0, hits, 4, &n), TL_ERR_COORD);
    int32_t lab[16];
    CHECK_STATUS(tl_argmax(&d, buf, sizeof buf, TL_RESIZE_NONE, 0, 0, TL_LABEL_I32, lab, sizeof lab - 1),
                 TL_ERR_BUFFER_SMALL);
    CHECK_STATUS(tl_argmax(&d, buf, sizeof buf, TL_RESIZE_NONE, 3, 3, TL_LABEL_I32, lab, sizeof lab), TL_ERR_MISMATCH);
    int64_t co[4] = {0, 84, 0, 0};
    double v;
    CHECK_STATUS(tl_gather(&d, buf, sizeof buf, co, 1, &v), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "coords[0].c=84");
    tl_desc f;
    REQUIRE_STATUS(tl_desc_parse(&f, "NCHW:f32:1x3x2x2"), TL_OK);
    CHECK_STATUS(tl_scan(&f, buf, sizeof buf, 0, 3, 0.5, 0, hits, 4, &n), TL_ERR_DTYPE);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(scan_equals_reference);
    TL_RUN(scan_kernels_agree);
    TL_RUN(argmax_kernels_agree);
    TL_RUN(argmax_equals_reference);
    TL_RUN(argmax_segmentation_size);
    TL_RUN(topk_equals_reference);
    TL_RUN(gather_values);
    TL_RUN(bad_input_named);
    return tl_test_finish();
}
