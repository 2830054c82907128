/* The vector encode of image rows (src/image/encode.c): every path's
 * real-value kernel against its scalar twin in every form it has, and whole
 * plans on every path against the scalar path, whose table of 256 codes per
 * channel is the element rule itself (plan.c lut_init): random frames,
 * sizes, crops, letterboxes, odd widths, normalisations and destination
 * layouts (NC1HWC2, padded TIDL, DLA HWC4, NCHW, NHWC, chw16/32, pitched),
 * padding bytes included. */
#include "image/image.h"
#include "engine/engine.h"
#include "kernels/kernels.h"
#include "tl_test.h"

static tl_desc spec(const char *s)
{
    tl_desc d;
    if (tl_desc_parse(&d, s) != TL_OK) FAILF("spec %s: %s", s, tl_last_error());
    return d;
}

static float pick_std(tl_rng *r)
{
    static const float stds[] = {1.0f, 255.0f, 58.395f, 57.12f, 57.375f, 0.5f, 3.0f, 127.5f, 0.017f};
    if (tl_rng_pick(r, 2)) return stds[tl_rng_pick(r, (int)(sizeof stds / sizeof stds[0]))];
    return (float)tl_rng_range(r, 1, 100000) / 997.0f;
}

/* Each path's kernel in each of its forms equals the scalar twin bit for
 * bit, at every length (vector steps and tails) and lane phase. */
TL_TEST(real_kernels_match_scalar)
{
    tl_rng r = tl_test_rng();
    const tl_img_real_kernel *ref = tl_img_real_kernel_for(TL_ISA_SCALAR);
    uint8_t src[700];
    float want[700], got[701];
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
        if (!tl_cpu_has(isa)) continue;
        const tl_img_real_kernel *k = tl_img_real_kernel_for(isa);
        for (int trial = 0; trial < 200; trial++) {
            int mode = 1 << tl_rng_pick(&r, 3), dc = (int[]){1, 3, 4}[tl_rng_pick(&r, 3)];
            if (!(k->modes & mode)) continue;
            tl_img_real p;
            p.mode = mode;
            float mean[4], std[4];
            for (int c = 0; c < dc; c++) mean[c] = (float)tl_rng_range(&r, -3000, 300000) / 1000.0f, std[c] = pick_std(&r);
            for (int i = 0; i < TL_REAL_PERIOD; i++)
                p.mean[i] = mean[i % dc], p.std[i] = std[i % dc], p.rcp[i] = 1.0f / std[i % dc];
            size_t n = (size_t)tl_rng_range(&r, 0, 699);
            for (size_t i = 0; i < n; i++) src[i] = (uint8_t)tl_rng_range(&r, 0, 255);
            got[n] = 12345.0f; /* nothing past n is written */
            ref->fn(src, want, n, &p);
            k->fn(src, got, n, &p);
            if (memcmp(want, got, n * 4) != 0 || got[n] != 12345.0f) {
                FAILF("%s mode %d dc %d n %zu differs from %s", k->name, mode, dc, n, ref->name);
                break;
            }
        }
    }
}

/* The expand kernels against the definition: every shape the vector
 * kernels take (and some they hand to the scalar one), every count. */
TL_TEST(expand_kernels_match_definition)
{
    typedef struct { const char *name; int isa; unsigned feat; tl_img_expand_fn fn; } kernel;
    static const kernel ks[] = {
        {"scalar", TL_ISA_SCALAR, 0, tl_x8_expand_ukernel__scalar},
#if defined(__x86_64__)
        {"avx2", TL_ISA_AVX2, 0, tl_x8_expand_ukernel__avx2},
        {"avx512vbmi", TL_ISA_AVX512, TL_FEAT_VBMI, tl_x8_expand_ukernel__avx512vbmi},
#endif
#if defined(__aarch64__) || defined(__arm__)
        {"neon", TL_ISA_NEON, 0, tl_x8_expand_ukernel__neon},
#endif
    };
    static const int shapes[][3] = {{3, 16, 0}, {3, 32, 0}, {6, 8, 0}, {3, 4, 0}, {12, 16, 0}, {1, 4, 0},
                                    {4, 64, 0}, {2, 4, 0}, {7, 8, 0}, {16, 32, 0}, {3, 16, 2}, {6, 12, 0}};
    tl_rng r = tl_test_rng();
    uint8_t in[300 * 16 + 64], want[300 * 64], got[300 * 64 + 1];
    for (size_t i = 0; i < sizeof in; i++) in[i] = (uint8_t)tl_rng_range(&r, 1, 255);
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        if (!tl_cpu_runs(ks[k].isa, ks[k].feat)) continue;
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tl_img_expand x;
            tl_img_expand_init(&x, shapes[s][0], shapes[s][1], shapes[s][2]);
            if (k > 0 && !tl_img_expand_vector(&x)) continue; /* the plan gives those the scalar kernel */
            for (size_t n = 0; n < 300; n += (size_t)tl_rng_range(&r, 1, 19)) {
                size_t ps = (size_t)x.ps, bytes = (size_t)x.bytes, at = (size_t)x.at;
                for (size_t i = 0; i < n * ps; i++) want[i] = i % ps >= at && i % ps < at + bytes ? in[i / ps * bytes + i % ps - at] : 0;
                memset(got, 0xEE, n * ps + 1);
                ks[k].fn(in, n, &x, got);
                if (memcmp(want, got, n * ps) != 0 || got[n * ps] != 0xEE) {
                    FAILF("expand %s bytes %d ps %d at %d n %zu differs from the definition", ks[k].name, x.bytes, x.ps, x.at, n);
                    break;
                }
            }
        }
    }
}

/* The one-step kernels against their scalar twins (kernels/image/encode.h),
 * at every count (vector steps, masked heads and tails) and destination
 * alignment, with bytes around the output left alone. */
typedef struct {
    const char *name; int isa; unsigned feat; tl_img_pix8_fn pix8; tl_img_real_planes_fn planes; tl_img_fill_fn fill;
    size_t fill_max_period, fill_min_n;
} one_step;
static const one_step one_steps[] = {
#if defined(__x86_64__)
    {"avx512", TL_ISA_AVX512, TL_FEAT_VBMI, tl_x8_code_pixels_ukernel__avx512vbmi, tl_u8_real_planes_ukernel__avx512vbmi,
     tl_x8_fill_period_ukernel__avx512, 64, 0},
    {"avx2", TL_ISA_AVX2, 0, NULL, NULL, tl_x8_fill_period_ukernel__avx2, 32, 32},
#endif
    {"none", TL_ISA_SCALAR, 0, NULL, NULL, NULL, 0, 0}, /* keeps the table non-empty */
};

TL_TEST(code_pixels_kernels_match_scalar)
{
    static const int shapes[][3] = {{3, 16, 0}, {3, 32, 0}, {3, 4, 0}, {3, 8, 0}, {1, 16, 0}, {4, 16, 0},
                                    {4, 64, 0}, {1, 4, 0}, {3, 16, 2}, {4, 8, 4}, {3, 64, 61}, {1, 4, 3}};
    tl_rng r = tl_test_rng();
    static uint8_t px[300 * 4 + 64], want[300 * 64 + 128], got[300 * 64 + 128];
    static uint8_t code[4][256];
    for (size_t k = 0; k < sizeof one_steps / sizeof one_steps[0]; k++) {
        if (!one_steps[k].pix8 || !tl_cpu_runs(one_steps[k].isa, one_steps[k].feat)) continue;
        for (int trial = 0; trial < 300; trial++) {
            const int *sh = shapes[tl_rng_pick(&r, (int)(sizeof shapes / sizeof shapes[0]))];
            int kind = tl_rng_pick(&r, 3); /* the values themselves, one table, one per channel */
            for (int c = 0; c < 4; c++)
                for (int v = 0; v < 256; v++)
                    code[c][v] = kind == 0 ? (uint8_t)v : kind == 1 && c > 0 ? code[0][v] : (uint8_t)tl_rng_range(&r, 0, 255);
            tl_img_pix8 x;
            tl_img_pix8_init(&x, sh[0], sh[1], sh[2], code);
            if (x.tables != (kind == 0 ? 0 : kind == 1 || sh[0] == 1 ? 1 : sh[0])) FAILF("tables %d for kind %d", x.tables, kind);
            size_t n = (size_t)tl_rng_range(&r, 0, 299), ps = (size_t)sh[1], off = (size_t)tl_rng_range(&r, 0, 64);
            for (size_t i = 0; i < n * (size_t)sh[0]; i++) px[i] = (uint8_t)tl_rng_range(&r, 0, 255);
            memset(want, 0xEE, sizeof want), memset(got, 0xEE, sizeof got);
            tl_x8_code_pixels_ukernel__scalar(px, n, &x, want + off);
            one_steps[k].pix8(px, n, &x, got + off);
            if (memcmp(want, got, sizeof want) != 0) {
                FAILF("code pixels %s dc %d ps %d at %d tables %d n %zu offset %zu differs from scalar", one_steps[k].name,
                      sh[0], sh[1], sh[2], x.tables, n, off);
                break;
            }
            for (size_t i = 0; i < n * ps && kind == 0; i++) { /* the scalar twin against the definition */
                size_t l = i % ps - (size_t)sh[2];
                uint8_t d = i % ps >= (size_t)sh[2] && l < (size_t)sh[0] ? px[i / ps * (size_t)sh[0] + l] : 0;
                if (want[off + i] != d) { FAILF("scalar code pixels byte %zu", i); break; }
            }
        }
    }
}

TL_TEST(real_planes_kernels_match_scalar)
{
    tl_rng r = tl_test_rng();
    static uint8_t px[700 * 4];
    static uint8_t want[4][700 * 4 + 128], got[4][700 * 4 + 128];
    for (size_t k = 0; k < sizeof one_steps / sizeof one_steps[0]; k++) {
        if (!one_steps[k].planes || !tl_cpu_runs(one_steps[k].isa, one_steps[k].feat)) continue;
        for (int trial = 0; trial < 300; trial++) {
            int dc = (int[]){1, 3, 4}[tl_rng_pick(&r, 3)], mode = 1 << tl_rng_pick(&r, 3);
            tl_img_real p[4];
            uint8_t *wo[4], *go[4];
            for (int c = 0; c < dc; c++) {
                p[c].mode = mode;
                float mean = (float)tl_rng_range(&r, -3000, 300000) / 1000.0f, std = pick_std(&r);
                for (int i = 0; i < TL_REAL_PERIOD; i++) p[c].mean[i] = mean, p[c].std[i] = std, p[c].rcp[i] = 1.0f / std;
                size_t off = (size_t)tl_rng_range(&r, 0, 64); /* each plane row at its own alignment */
                wo[c] = want[c] + off, go[c] = got[c] + off;
            }
            size_t n = (size_t)tl_rng_range(&r, 0, 699);
            for (size_t i = 0; i < n * (size_t)dc; i++) px[i] = (uint8_t)tl_rng_range(&r, 0, 255);
            memset(want, 0xEE, sizeof want), memset(got, 0xEE, sizeof got);
            tl_u8_real_planes_ukernel__scalar(px, n, dc, p, wo);
            one_steps[k].planes(px, n, dc, p, go);
            if (memcmp(want, got, sizeof want) != 0) {
                FAILF("real planes %s mode %d dc %d n %zu differs from scalar", one_steps[k].name, mode, dc, n);
                break;
            }
            for (size_t i = 0; i < n * (size_t)dc; i++) { /* the scalar twin against the interleaved kernel's twin */
                float a, b;
                size_t c = i % (size_t)dc;
                tl_u8_real_ukernel__scalar(&px[i], &a, 1, &p[c]);
                memcpy(&b, wo[c] + 4 * (i / (size_t)dc), 4);
                if (memcmp(&a, &b, 4) != 0) { FAILF("scalar real planes value %zu", i); break; }
            }
        }
    }
}

TL_TEST(fill_kernels_match_definition)
{
    tl_rng r = tl_test_rng();
    static uint8_t pat[128], want[2000 + 128], got[2000 + 128];
    static const size_t periods[] = {1, 2, 4, 8, 16, 32, 64};
    for (size_t k = 0; k < sizeof one_steps / sizeof one_steps[0]; k++) {
        tl_img_fill_fn fns[2] = {tl_x8_fill_period_ukernel__scalar, one_steps[k].fill};
        for (int f = 0; f < 2; f++) {
            if (!fns[f] || !tl_cpu_runs(one_steps[k].isa, one_steps[k].feat)) continue;
            for (int trial = 0; trial < 200; trial++) {
                size_t period = periods[tl_rng_pick(&r, 7)], n = (size_t)tl_rng_range(&r, 0, 2000);
                if (f && (period > one_steps[k].fill_max_period || n < one_steps[k].fill_min_n)) continue;
                size_t off = (size_t)tl_rng_range(&r, 0, 64);
                for (size_t i = 0; i < period; i++) pat[i] = (uint8_t)tl_rng_range(&r, 0, 255);
                for (size_t i = period; i < 128; i++) pat[i] = pat[i % period];
                memset(want, 0xEE, sizeof want), memset(got, 0xEE, sizeof got);
                for (size_t i = 0; i < n; i++) want[off + i] = pat[i % period];
                fns[f](got + off, n, pat, period);
                if (memcmp(want, got, sizeof want) != 0) {
                    FAILF("fill %s period %zu n %zu offset %zu differs from the definition", f ? one_steps[k].name : "scalar",
                          period, n, off);
                    break;
                }
            }
        }
    }
}

static uint8_t *frame_of(tl_rng *r, size_t n)
{
    uint8_t *f = malloc(n);
    for (size_t i = 0; i < n; i++) f[i] = (uint8_t)tl_rng_range(r, 0, 255);
    return f;
}

/* Whole plans: every path gives the scalar path's bytes (its table is the
 * definition), and the encoder is really on where it should be. */
TL_TEST(plans_match_table)
{
    static const char *const dsts[] = {
        "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=3:zp=-128:scale=1",
        "rknn.nc1hwc2:u8:1x1x%dx%dx8:c=3",
        "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=1:zp=5:scale=0.25",
        "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=4:zp=-128:scale=1",
        "tidl:i8:1x3x%dx%d:pad=1,2,3,4:scale=0.5",
        "tidl:u8:1x3x%dx%d:pad=1,1,1,1",
        "trt.dla_hwc4:f16:1x3x%dx%d",
        "trt.dla_hwc4:i8:1x3x%dx%d",
        "trt.chw16:f16:1x3x%dx%d",
        "trt.chw32:i8:1x3x%dx%d:scale=2",
        "NCHW:f32:1x3x%dx%d",
        "NCHW:f16:1x3x%dx%d",
        "NHWC:f32:1x%dx%dx3",
        "NHWC:i8:1x%dx%dx3:q=affine:scale=0.5:zp=-3",
        "NHWC:f32:1x%dx%dx4",
        "NCHW:f32:1x1x%dx%d",
        "NCHW:f32:1x4x%dx%d",
        "larod.nchw:f32:1x3x%dx%d:align=0,0,0,16",
        "larod.nchw:u8:1x3x%dx%d:align=0,0,0,16",
        "dml:f32:1x3x%dx%d",
    };
    static const char *const srcs[] = {"yuv.nv12:u8:3x%dx%d", "yuv.i420:u8:3x%dx%d", "NHWC:u8:1x%dx%dx3"};
    tl_rng r = tl_test_rng();
    for (int trial = 0; trial < 3 * (int)(sizeof dsts / sizeof dsts[0]); trial++) {
        const char *dfmt = dsts[trial % (sizeof dsts / sizeof dsts[0])];
        char ss[64], ds[96];
        int sh = (int)tl_rng_range(&r, 2, 90), sw = (int)tl_rng_range(&r, 2, 300);
        int dh = (int)tl_rng_range(&r, 1, 70), dw = (int)tl_rng_range(&r, 1, 600); /* past a 256-pixel chunk */
        snprintf(ss, sizeof ss, srcs[tl_rng_pick(&r, 3)], sh, sw);
        snprintf(ds, sizeof ds, dfmt, dh, dw);
        tl_desc s = spec(ss), d = spec(ds);
        tl_image_params p = TL_IMAGE_PARAMS_INIT;
        p.fit = tl_rng_pick(&r, 2) ? TL_IMAGE_LETTERBOX : TL_IMAGE_STRETCH;
        p.resize = tl_rng_pick(&r, 3), p.order = tl_rng_pick(&r, 2);
        p.crop_x = tl_rng_range(&r, 0, sw - 1), p.crop_y = tl_rng_range(&r, 0, sh - 1);
        p.crop_w = tl_rng_range(&r, 1, sw - p.crop_x), p.crop_h = tl_rng_range(&r, 1, sh - p.crop_y);
        int norm = tl_rng_pick(&r, 3); /* none, 0..1, random */
        for (int c = 0; c < 4 && norm; c++)
            p.mean[c] = norm == 1 ? 0.0f : (float)tl_rng_range(&r, 0, 2550) / 10.0f, p.std[c] = norm == 1 ? 255.0f : pick_std(&r);
        uint8_t *frame = frame_of(&r, (size_t)s.size_bytes), *want = NULL;
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            tl_image_plan *plan;
            tl_status st = tl_image_plan_create_isa(&plan, &s, &d, &p, isa);
            if (st == TL_ERR_UNSUPPORTED) continue; /* path missing, or a letterbox too thin */
            if (st != TL_OK) { FAILF("%s -> %s: %s", ss, ds, tl_last_error()); break; }
            uint8_t *got = malloc((size_t)d.size_bytes);
            memset(got, 0xAB, (size_t)d.size_bytes);
            CHECK_STATUS(tl_image_plan_run(plan, frame, (size_t)s.size_bytes, got, (size_t)d.size_bytes), TL_OK);
            if (isa == TL_ISA_SCALAR) CHECK(tl_image_plan_encoder(plan) == NULL);
            if (!want) want = got;
            else if (memcmp(want, got, (size_t)d.size_bytes) != 0)
                FAILF("%s -> %s norm %d path %d (%s) differs from the scalar path", ss, ds, norm, isa, tl_image_plan_encoder(plan) ? tl_image_plan_encoder(plan) : "table");
            if (got != want) free(got);
            tl_image_plan_destroy(plan);
        }
        free(want), free(frame);
    }
}

/* The benchmark's four destinations take the encoder where it measured
 * faster than the tables (encode.c): every path but scalar and SSE2; NC1HWC2
 * i8 only with the byte-table step (AVX-512 VBMI); a normalisation needs a
 * divide form (not Armv7). */
TL_TEST(encoder_is_used)
{
    enum { ANY = 0, BYTE_TABLE = 1, DIVIDE = 2 };
    static const struct { const char *spec; int meanstd, needs; } dsts[] = {
        {"rknn.nc1hwc2:i8:1x1x64x64x16:c=3:zp=-128:scale=1", 0, BYTE_TABLE},
        {"tidl:i8:1x3x64x64:pad=1,1,1,1:scale=0.5", 0, ANY},
        {"trt.dla_hwc4:f16:1x3x64x64", 0, ANY},
        {"trt.dla_hwc4:i8:1x3x64x64", 0, ANY},
        {"NCHW:f32:1x3x64x64", 1, DIVIDE},
        {"NCHW:f32:1x3x64x64", 2, DIVIDE},
    };
    tl_desc s = spec("yuv.nv12:u8:3x108x192");
    for (size_t i = 0; i < sizeof dsts / sizeof dsts[0]; i++) {
        tl_desc d = spec(dsts[i].spec);
        tl_image_params p = TL_IMAGE_PARAMS_INIT;
        const float mean[3] = {123.675f, 116.28f, 103.53f}, std[3] = {58.395f, 57.12f, 57.375f};
        if (dsts[i].meanstd == 1) memcpy(p.mean, mean, sizeof mean), memcpy(p.std, std, sizeof std);
        if (dsts[i].meanstd == 2) p.std[0] = p.std[1] = p.std[2] = 255.0f;
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            tl_image_plan *plan;
            if (!tl_cpu_has(isa) || tl_image_plan_create_isa(&plan, &s, &d, &p, isa) != TL_OK) continue;
            bool expect = isa != TL_ISA_SCALAR && isa != TL_ISA_SSE2;
            if (dsts[i].needs == BYTE_TABLE) expect = expect && isa == TL_ISA_AVX512 && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI);
#if defined(__arm__)
            if (dsts[i].needs == DIVIDE) expect = false;
#endif
            if (expect != (tl_image_plan_encoder(plan) != NULL))
                FAILF("%s on path %d: the encoder is %s", dsts[i].spec, isa, expect ? "off" : "on");
            tl_image_plan_destroy(plan);
        }
    }
}

/* On AVX-512 with VBMI the benchmark's NC1HWC2 and NCHW f32 destinations
 * (with and without mean/std) take the one-step kernels; without VBMI the
 * staged steps or the tables. */
TL_TEST(one_step_kernels_are_used)
{
    static const struct { const char *spec, *kernel; } dsts[] = {
        {"rknn.nc1hwc2:i8:1x1x64x64x16:c=3:zp=-128:scale=1", "tl_x8_code_pixels_ukernel__avx512vbmi"},
        {"trt.dla_hwc4:i8:1x3x64x64", "tl_x8_code_pixels_ukernel__avx512vbmi"},
        {"NCHW:f32:1x3x64x64", "tl_u8_real_planes_ukernel__avx512vbmi"},
    };
    tl_desc s = spec("yuv.nv12:u8:3x108x192");
    const float mean[3] = {123.675f, 116.28f, 103.53f}, std[3] = {58.395f, 57.12f, 57.375f};
    for (size_t i = 0; i < 2 * sizeof dsts / sizeof dsts[0]; i++) {
        tl_desc d = spec(dsts[i / 2].spec);
        tl_image_params p = TL_IMAGE_PARAMS_INIT;
        if (i % 2) memcpy(p.mean, mean, sizeof mean), memcpy(p.std, std, sizeof std);
        tl_image_plan *plan;
        if (!tl_cpu_has(TL_ISA_AVX512) || tl_image_plan_create_isa(&plan, &s, &d, &p, TL_ISA_AVX512) != TL_OK) continue;
        const char *got = tl_image_plan_encoder(plan);
        bool vbmi = tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI);
        if (vbmi != (got && strcmp(got, dsts[i / 2].kernel) == 0))
            FAILF("%s mean/std %d: encoder %s, VBMI %d", dsts[i / 2].spec, (int)(i % 2), got ? got : "table", vbmi);
        tl_image_plan_destroy(plan);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(real_kernels_match_scalar);
    TL_RUN(expand_kernels_match_definition);
    TL_RUN(code_pixels_kernels_match_scalar);
    TL_RUN(real_planes_kernels_match_scalar);
    TL_RUN(fill_kernels_match_definition);
    TL_RUN(plans_match_table);
    TL_RUN(encoder_is_used);
    TL_RUN(one_step_kernels_are_used);
    return tl_test_finish();
}
