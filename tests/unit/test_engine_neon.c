/* Edges that the NEON kernels handle apart, checked on every path the machine
 * has (so x86 paths see them too), against the element rule (elem.h):
 *   - quantizations whose f32 arithmetic meets denormals or infinities (tiny
 *     and huge scales, DFP fl near +-127, zero points near 2^30), which Armv7
 *     NEON would flush to zero;
 *   - 8-bit to 8-bit rows of 512 elements and more (the NEON table path);
 *   - f32 -> f16 around every f16 rounding boundary (ties, subnormals,
 *     overflow) and every f16/bf16 pattern back;
 *   - rows converted in place (src == dst) where the element sizes are equal;
 * and, on Arm, that plans really choose the NEON kernels (the registry names
 * in tl_plan_describe), for the convert, block, interleave and repack families.
 * TL_TEST_QUICK=1 runs a third of the quantization pairs (qemu). */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tl_engine_test.h"
#include "tl_test.h"


static float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t u_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Quantizations at the edges of f32 (index 0: none). */
static const tl_quant *edge_quant(int i, tl_quant *q)
{
    switch (i) {
    case 0: return NULL;
    case 1: *q = tl_test_quant(TL_Q_AFFINE, 0, 1e-38f, 0, TL_ROUND_EVEN); return q;       /* 1/scale 1e38 */
    case 2: *q = tl_test_quant(TL_Q_AFFINE, 5, 1e-40f, 0, TL_ROUND_AWAY); return q;       /* denormal scale */
    case 3: *q = tl_test_quant(TL_Q_AFFINE, -7, 3.0e38f, 0, TL_ROUND_ZERO); return q;     /* 1/scale denormal */
    case 4: *q = tl_test_quant(TL_Q_INV, 0, 3.0e38f, 0, TL_ROUND_AWAY); return q;         /* denormal reals */
    case 5: *q = tl_test_quant(TL_Q_INV, 3, 1e-39f, 0, TL_ROUND_EVEN); return q;          /* denormal multiplier */
    case 6: *q = tl_test_quant(TL_Q_INV, 1073741823, 0.5f, 0, TL_ROUND_EVEN); return q;   /* zp near 2^30 */
    case 7: *q = tl_test_quant(TL_Q_AFFINE, -1073741823, 2.0f, 0, TL_ROUND_AWAY); return q;
    case 8: *q = tl_test_quant(TL_Q_AFFINE, 16777217, 1.0f, 0, TL_ROUND_EVEN); return q;  /* (float)zp rounds */
    case 9: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, 127, TL_ROUND_AWAY); return q;          /* 2^-127, 2^127 */
    case 10: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, 126, TL_ROUND_ZERO); return q;
    case 11: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, -128, TL_ROUND_EVEN); return q;        /* ldexpf split */
    case 12: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, 100, TL_ROUND_EVEN); return q;
    case 13: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, -100, TL_ROUND_AWAY); return q;
    case 14: *q = tl_test_quant(TL_Q_AFFINE, -128, 0.0039215689f, 0, TL_ROUND_ZERO); return q;
    default: *q = tl_test_quant(TL_Q_INV, 100, 0.3f, 0, TL_ROUND_AWAY); return q;
    }
}
#define NEDGE 16

static void put_f(uint8_t *buf, size_t *n, float f) { memcpy(buf + 4 * (*n)++, &f, 4); }

/* f32 reals that land near the destination's rounding ties and clamp edges,
 * plus denormals, powers of two and specials. */
static size_t f32_source(tl_rng *r, const tl_cvt *cv, uint8_t *buf, size_t cap)
{
    static const uint32_t specials[] = {0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x7FBFFFFFu, 0x7F800000u,
                                        0xFF800000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu,
                                        0x00800000u, 0x80800000u, 0x007FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu};
    size_t n = 0;
    for (size_t k = 0; k < sizeof specials / sizeof specials[0]; k++) put_f(buf, &n, f_of(specials[k]));
    for (int e = -149; e <= 127 && n + 2 < cap; e++) { /* powers of two, both signs */
        float p = e >= -126 ? f_of((uint32_t)(e + 127) << 23) : f_of(1u << (e + 149));
        put_f(buf, &n, p);
        put_f(buf, &n, -p);
    }
    for (int k = 0; k < 200 && n < cap; k++) /* denormals */
        put_f(buf, &n, f_of((uint32_t)tl_rng_next(r) & 0x807FFFFFu));
    float m = cv->d_mul, a = cv->d_add;
    for (int k = -260; k <= 260 && n + 3 < cap; k++) { /* (k + 0.5 - add) / mul and its neighbours */
        float t = ((float)k + 0.5f - a) / m;
        if (t != t) break;
        put_f(buf, &n, t);
        put_f(buf, &n, f_of(u_of(t) + 1));
        put_f(buf, &n, f_of(u_of(t) - 1));
    }
    while (n < cap) {
        uint32_t u = (uint32_t)tl_rng_next(r);
        if (n % 2) u = (u & 0x807FFFFFu) | ((uint32_t)tl_rng_range(r, 90, 160) << 23); /* moderate */
        put_f(buf, &n, f_of(u));
    }
    return n;
}

/* Source codes: f16/bf16 every pattern; i16 the codes around 0 and both
 * ends, then random ones; 8-bit every code, then random codes up to cap
 * (rows long enough for the table path). */
static size_t code_source(tl_rng *r, int t, uint8_t *buf, size_t cap)
{
    size_t n = 0;
    if (t == TL_F16 || t == TL_BF16) {
        for (uint32_t v = 0; v < 65536; v++, n++) memcpy(buf + 2 * n, &v, 2);
        return n;
    }
    if (t == TL_I16) {
        for (int v = -1024; v < 1024; v++, n++) memcpy(buf + 2 * n, &(int16_t){(int16_t)v}, 2);
        for (int v = 0; v < 256; v++, n += 2) {
            memcpy(buf + 2 * n, &(int16_t){(int16_t)(-32768 + v)}, 2);
            memcpy(buf + 2 * n + 2, &(int16_t){(int16_t)(32767 - v)}, 2);
        }
        tl_rng_bytes(r, buf + 2 * n, 2 * (cap - n));
        return cap;
    }
    for (size_t v = 0; v < 256; v++, n++) buf[n] = (uint8_t)v;
    tl_rng_bytes(r, buf + n, cap - n);
    return cap;
}

/* Run kernel k on len elements of src (offset off) and compare with the rule. */
static bool check_row(const tl_row_kernel *k, const tl_cvt *cv, const uint8_t *src, size_t off, size_t len,
                      uint8_t *out, uint8_t *want, const char *what)
{
    unsigned es = bytes_of(k->sdt), ed = bytes_of(k->ddt);
    memset(out, 0xA5, len * ed + 64);
    k->fn(src + off * es, 0, out, 0, 1, len, cv);
    for (size_t i = 0; i < len; i++) {
        uint64_t raw = tl_load_raw(src + (off + i) * es, 0, es * 8);
        tl_store_raw(want, (int64_t)i * ed * 8, ed * 8, tl_elem_convert_raw(&cv->op, raw));
    }
    memset(want + len * ed, 0xA5, 64);
    for (int inplace = 0; inplace < 2; inplace++) {
        if (inplace) { /* equal element sizes: src may be dst (kernels.h) */
            if (es != ed) break;
            memcpy(out, src + off * es, len * es);
            k->fn(out, 0, out, 0, 1, len, cv);
        }
        for (size_t i = 0; i < len * ed + 64; i++)
            if (out[i] != want[i]) {
                uint64_t raw = i / ed < len ? tl_load_raw(src + (off + i / ed) * es, 0, es * 8) : 0;
                FAILF("%s %s%s: len %zu element %zu (src raw 0x%llx): byte %zu 0x%02x != 0x%02x", k->name, what,
                      inplace ? " in place" : "", len, i / ed, (unsigned long long)raw, i % ed, out[i], want[i]);
                return false;
            }
    }
    return true;
}

TL_TEST(convert_rows_edge_quant)
{
    const tl_row_kernel *ks;
    size_t nk;
    tl_registry_rows(&ks, &nk);
    tl_rng r = tl_test_rng();
    enum { CAP = 65536 + 64 };
    uint8_t *src = malloc(CAP * 4), *out = malloc(CAP * 4 + 64), *want = malloc(CAP * 4 + 64);
    REQUIRE(src && out && want);
    int checked = 0;
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        const tl_row_kernel *kr = &ks[k];
        if (!tl_cpu_has(kr->isa)) continue;
        for (int qs = 0; qs < NEDGE; qs++)
            for (int qd = 0; qd < NEDGE && TL_TEST_FAILURES() == 0; qd++) {
                if ((qs && !is_intt(kr->sdt)) || (qd && !is_intt(kr->ddt))) continue;
                if (quick() && (qs + 2 * qd) % 3) continue;
                tl_quant sq, dq;
                tl_cvt cv;
                tl_cvt_init_dt(&cv, (tl_dtype)kr->sdt, edge_quant(qs, &sq), (tl_dtype)kr->ddt, edge_quant(qd, &dq));
                if (cv.path == TL_EP_COPY || !cv.fast) continue;
                size_t n = kr->sdt == TL_F32 ? f32_source(&r, &cv, src, 3000) : code_source(&r, kr->sdt, src, 4096);
                char what[64];
                snprintf(what, sizeof what, "edge quant %d->%d", qs, qd);
                size_t off = (size_t)tl_rng_range(&r, 0, 17);
                check_row(kr, &cv, src, off, n - off, out, want, what);             /* body (and table) */
                check_row(kr, &cv, src, off, (size_t)tl_rng_range(&r, 1, 47), out, want, what); /* tails */
                checked++;
            }
    }
    CHECK(checked > 50);
    free(src);
    free(out);
    free(want);
}

/* 8-bit to 8-bit rows on both sides of the table threshold, ordinary
 * quantizations (u8 -> i8 zero-point shifts among them). */
TL_TEST(convert_rows_8bit_long)
{
    const tl_row_kernel *ks;
    size_t nk;
    tl_registry_rows(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const tl_quant qs8[] = {
        {TL_Q_AFFINE, TL_ROUND_EVEN, 0, 0, 128, 0.0039215689f}, {TL_Q_AFFINE, TL_ROUND_EVEN, 0, 0, 0, 0.0039215689f},
        {TL_Q_AFFINE, TL_ROUND_AWAY, 0, 0, -3, 0.05f},          {TL_Q_INV, TL_ROUND_ZERO, 0, 0, 0, 25.0f},
        {TL_Q_DFP, TL_ROUND_EVEN, 3, 0, 0, 0.0f},               {TL_Q_NONE, TL_ROUND_EVEN, 0, 0, 0, 0.0f},
    };
    const size_t nq = sizeof qs8 / sizeof qs8[0];
    static const size_t lens[] = {511, 512, 513, 1000, 4099};
    uint8_t *src = malloc(4200), *out = malloc(4200 + 64), *want = malloc(4200 + 64);
    REQUIRE(src && out && want);
    tl_rng_bytes(&r, src, 4200);
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        const tl_row_kernel *kr = &ks[k];
        if (!tl_cpu_has(kr->isa) || bytes_of(kr->sdt) != 1 || bytes_of(kr->ddt) != 1) continue;
        for (size_t a = 0; a < nq; a++)
            for (size_t b = 0; b < nq; b++) {
                tl_cvt cv;
                tl_cvt_init_dt(&cv, (tl_dtype)kr->sdt, &qs8[a], (tl_dtype)kr->ddt, &qs8[b]);
                if (cv.path == TL_EP_COPY) continue;
                char what[64];
                snprintf(what, sizeof what, "8-bit quant %zu->%zu", a, b);
                for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
                    if (!check_row(kr, &cv, src, (size_t)tl_rng_range(&r, 0, 7), lens[l], out, want, what)) break;
            }
    }
    free(src);
    free(out);
    free(want);
}

/* f32 -> f16: the two neighbours of every f16 midpoint and the midpoint
 * itself (ties to even), both signs, from the smallest subnormal to past
 * the overflow threshold; f16 and bf16 -> f32 over every pattern. */
TL_TEST(f16_rounding_boundaries)
{
    tl_cvt cv;
    const tl_row_kernel *fwd[TL_ISA_COUNT] = {0}, *back[TL_ISA_COUNT] = {0}, *bback[TL_ISA_COUNT] = {0};
    enum { N = 6 * 0x7C00 };
    uint8_t *src = malloc(N * 4), *out = malloc(N * 4 + 64), *want = malloc(N * 4 + 64);
    REQUIRE(src && out && want);
    size_t n = 0;
    for (uint32_t h = 0; h < 0x7C00; h++) {
        double lo = tl_f16_to_f64((uint16_t)h), hi = h == 0x7BFF ? 65536.0 : tl_f16_to_f64((uint16_t)(h + 1));
        float mid = (float)((lo + hi) / 2); /* exact in f32 */
        for (int s = 0; s < 2; s++) {
            float m = s ? -mid : mid;
            put_f(src, &n, m);
            put_f(src, &n, f_of(u_of(m) + 1));
            put_f(src, &n, f_of(u_of(m) - (u_of(m) << 1 ? 1 : 0)));
        }
    }
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
        if (!tl_cpu_has(isa)) continue;
        fwd[isa] = tl_find_row(isa, TL_F32, TL_F16);
        back[isa] = tl_find_row(isa, TL_F16, TL_F32);
        bback[isa] = tl_find_row(isa, TL_BF16, TL_F32);
    }
    for (int isa = 0; isa < TL_ISA_COUNT && TL_TEST_FAILURES() == 0; isa++) {
        if (!fwd[isa]) continue;
        tl_cvt_init_dt(&cv, TL_F32, NULL, TL_F16, NULL);
        check_row(fwd[isa], &cv, src, 0, n, out, want, "midpoints");
        tl_cvt_init_dt(&cv, TL_F16, NULL, TL_F32, NULL);
        uint8_t *codes = malloc(65536 * 2);
        REQUIRE(codes);
        for (uint32_t v = 0; v < 65536; v++) memcpy(codes + 2 * v, &v, 2);
        check_row(back[isa], &cv, codes, 0, 65536, out, want, "all f16");
        tl_cvt_init_dt(&cv, TL_BF16, NULL, TL_F32, NULL);
        check_row(bback[isa], &cv, codes, 0, 65536, out, want, "all bf16");
        free(codes);
    }
    free(src);
    free(out);
    free(want);
}

/* ---- on Arm: plans choose the NEON kernels ---------------------------------------------- */
typedef struct plan_case {
    const char *from, *to;
    const char *kernels[2]; /* substrings of tl_plan_describe */
} plan_case;

static const plan_case k_plans[] = {
    /* TIDL's padded planes from RGB and back in one call, the byte map in the registers */
    {"NHWC:u8:1x24x40x3", "tidl:i8:1x3x24x40:scale=0.5:pad=1,1,1,1", {"tl_x8_deinterleave3_rows_ukernel__neon", NULL}},
    {"tidl:i8:1x3x24x40:scale=0.5:pad=1,1,1,1", "NHWC:u8:1x24x40x3", {"tl_x8_interleave3_rows_ukernel__neon", NULL}},
    {"NHWC:u8:1x24x40x3", "tidl:i8:1x3x24x40:pad=1,1,1,1", {"tl_x8_deinterleave3_rows_ukernel__neon", NULL}}, /* saturated */
    /* 3 f32 planes quantized into packed pixels in the registers */
    {"NCHW:f32:1x3x16x16", "NHWC:i8:1x16x16x3:scale=0.05:zp=-3", {"tl_f32_x8_interleave3_ukernel__neon", NULL}},
    {"NCHW:f32:1x3x7x9", "NHWC:u8:1x7x9x3:scale=0.0039215689", {"tl_f32_x8_interleave3_ukernel__neon", NULL}},
    /* 16 f32 planes quantized into each 16-channel block (C = 80: 5 blocks) in the registers */
    {"NCHW:f32:1x80x7x9", "NCHW16c:i8:1x80x7x9:scale=0.05:zp=2", {"tl_f32_x8_block16_ukernel__neon", NULL}},
    {"NCHW16c:i8:1x64x8x8:scale=0.1", "NCHW:f32:1x64x8x8", {"tl_x8_f32_unblock16_ukernel__neon", NULL}},
    /* (16 planes 16 KiB apart, in one L1 set: the tile path) */
    {"NCHW16c:i8:1x16x64x64:scale=0.1", "NCHW:f32:1x16x64x64",
     {"tl_x8_unpack16_ukernel__neon", "tl_i8_f32_convert_ukernel__neon"}},
    {"NCHW:u8:1x64x8x9", "NCHW32c:u8:1x64x8x9", {"tl_x8_pack32_ukernel__neon", NULL}},
    {"NCHW:u8:1x16x8x9", "NCHW8c:u8:1x16x8x9", {"tl_x8_pack8_ukernel__neon", NULL}},
    {"NCHW8c:u8:1x16x8x9", "NCHW:u8:1x16x8x9", {"tl_x8_unpack8_ukernel__neon", NULL}},
    {"NCHW:f16:1x16x5x9", "NCHW8c:f16:1x16x5x9", {"tl_x16_pack8_ukernel__neon", NULL}},
    {"NCHW:f32:1x32x5x9", "NCHW16c:f32:1x32x5x9", {"tl_x32_pack16_ukernel__neon", NULL}},
    {"NCHW32c:f32:1x64x5x9", "NCHW:f32:1x64x5x9", {"tl_x32_unpack32_ukernel__neon", NULL}},
    {"NHWC:u8:1x8x9x2", "NCHW:u8:1x2x8x9", {"tl_x8_deinterleave2_ukernel__neon", NULL}},
    {"NHWC:u8:1x8x9x4", "NCHW:u8:1x4x8x9", {"tl_x8_deinterleave4_ukernel__neon", NULL}},
    {"NHWC:f32:1x8x9x4", "NCHW:f32:1x4x8x9", {"tl_x32_deinterleave4_ukernel__neon", NULL}},
    {"NHWC:i16:1x8x9x2", "NCHW:i16:1x2x8x9", {"tl_x16_deinterleave2_ukernel__neon", NULL}},
    {"NCHW:f16:1x4x8x9", "NHWC:f16:1x8x9x4", {"tl_x16_interleave4_ukernel__neon", NULL}},
    {"NHWC:u8:1x4x5x3", "trt.dla_hwc4:i8:1x3x4x5", {"tl_u8_i8_repack3_0_1_ukernel__neon", NULL}}, /* saturating, one step */
    /* 3-byte pixels by structure loads and stores, the byte map in the register */
    {"NHWC:u8:1x4x5x3", "rknn.nc1hwc2:i8:1x1x4x5x16:c=3:zp=-128:scale=1", {"tl_x8_spread3_ukernel__neon", NULL}},
    {"rknn.nc1hwc2:i8:1x1x4x5x16:c=3:zp=-128:scale=1", "NHWC:u8:1x4x5x3", {"tl_x8_gather3_ukernel__neon", NULL}},
    {"NHWC:u8:1x4x5x3", "trt.chw32:i8:1x3x4x5:scale=2", {"tl_x8_spread3_ukernel__neon", NULL}},
    {"trt.chw32:i8:1x3x4x5:scale=2", "NHWC:u8:1x4x5x3", {"tl_x8_gather3_ukernel__neon", NULL}},
    {"trt.dla_hwc4:i8:1x3x4x5", "NHWC:u8:1x4x5x3", {"tl_x8_gather3_ukernel__neon", NULL}}, /* saturating */
    {"NHWC:u8:1x4x5x3", "NHWC:u8:1x4x5x3:pad=0,0,0,0,0,0,0,5", {"tl_x8_spread3_ukernel__neon", NULL}}, /* a move */
    {"NCHW:f32:1x3x8x8", "NCHW:f16:1x3x8x8", {"tl_f32_f16_convert_ukernel__neon", NULL}},
    {"NCHW:u8:1x3x8x8", "NCHW:i8:1x3x8x8:scale=0.5:zp=-128", {"tl_u8_i8_convert_ukernel__neon", NULL}},
    {"NCHW:bf16:1x3x8x8", "NCHW:i16:1x3x8x8:q=inv:scale=25:round=away", {"tl_bf16_i16_convert_ukernel__neon", NULL}},
};

TL_TEST(neon_plans_use_neon_kernels)
{
    if (!tl_cpu_has(TL_ISA_NEON)) return; /* not an Arm machine */
    for (size_t k = 0; k < sizeof k_plans / sizeof k_plans[0]; k++) {
        const plan_case *c = &k_plans[k];
        tl_desc s, d;
        tl_status a = tl_desc_parse(&s, c->from), b = tl_desc_parse(&d, c->to);
        if (a == TL_ERR_UNSUPPORTED || b == TL_ERR_UNSUPPORTED) continue; /* vendor not built */
        if (a != TL_OK || b != TL_OK) {
            FAILF("%s -> %s does not parse: %s", c->from, c->to, tl_last_error());
            continue;
        }
        tl_plan *p = NULL;
        if (tl_plan_create_isa(&p, &s, &d, 0, TL_ISA_NEON) != TL_OK) {
            FAILF("%s -> %s: %s", c->from, c->to, tl_last_error());
            continue;
        }
        for (int i = 0; i < 2; i++)
            if (c->kernels[i]) CHECK_STR_CONTAINS(tl_plan_describe(p), c->kernels[i]);
        tl_plan_destroy(p);
    }
}

/* The registry lists a NEON kernel for every convert pair and every shape. */
TL_TEST(neon_registry_complete)
{
    if (!tl_cpu_has(TL_ISA_NEON)) return;
    static const tl_dtype fast[] = {TL_U8, TL_I8, TL_I16, TL_F16, TL_BF16, TL_F32};
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) {
            const tl_row_kernel *k = tl_find_row(TL_ISA_NEON, fast[a], fast[b]);
            CHECK(k && k->isa == TL_ISA_NEON);
        }
    for (unsigned e = 1; e <= 4; e *= 2) {
        for (unsigned c = 2; c <= 4; c++) {
            const tl_t2d_kernel *il = tl_find_t2d(TL_ISA_NEON, e, c, 100), *dl = tl_find_t2d(TL_ISA_NEON, e, 100, c);
            const tl_ilv_kernel *z = tl_find_ilv(TL_ISA_NEON, e, c);
            CHECK(il && il->isa == TL_ISA_NEON && il->shape == TL_T2D_ILV);
            CHECK(dl && dl->isa == TL_ISA_NEON && dl->shape == TL_T2D_DILV);
            CHECK(z && z->isa == TL_ISA_NEON);
        }
        for (unsigned v = 8; v <= 32; v *= 2) {
            const tl_t2d_kernel *pk = tl_find_t2d(TL_ISA_NEON, e, v, 100), *uk = tl_find_t2d(TL_ISA_NEON, e, 100, v);
            CHECK(pk && pk->isa == TL_ISA_NEON && pk->shape == TL_T2D_PACK);
            CHECK(uk && uk->isa == TL_ISA_NEON && uk->shape == TL_T2D_UNPACK);
        }
        const tl_repack_kernel *rp = tl_find_repack(TL_ISA_NEON, e, 3, 0, 1);
        CHECK(rp && rp->isa == TL_ISA_NEON);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(neon_registry_complete);
    TL_RUN(neon_plans_use_neon_kernels);
    TL_RUN(f16_rounding_boundaries);
    TL_RUN(convert_rows_8bit_long);
    TL_RUN(convert_rows_edge_quant);
    return tl_test_finish();
}
