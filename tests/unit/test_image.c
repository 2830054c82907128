/* tl_image_plan: every destination layout against tl_convert of the NHWC f32
 * result (the element rule), row parts, pitched and offset sources, odd sizes
 * against a per-pixel oracle written here from the BT.601 definition, the
 * letterbox map, fast mode's bound, and every bad input (status, message,
 * destination untouched). Bit-exactness with OpenCV 4.6 is pinned by the CLI
 * case image_golden and tests/image/live_compare.py. */
#include <math.h>
#include <pthread.h>

#include "image/image.h"
#include "kernels/kernels.h"
#include "tl_test.h"

static tl_desc spec(const char *s)
{
    tl_desc d;
    if (tl_desc_parse(&d, s) != TL_OK) FAILF("spec %s: %s", s, tl_last_error());
    return d;
}

static uint8_t *random_frame(tl_rng *r, size_t n)
{
    uint8_t *f = malloc(n);
    for (size_t i = 0; i < n; i++) f[i] = (uint8_t)((i * 7 + (size_t)tl_rng_range(r, 0, 60)) & 255);
    return f;
}

/* Run an image plan; returns the malloc'd destination (0xAB where unwritten) or NULL. */
static uint8_t *run_image(const tl_desc *s, const uint8_t *src, const tl_desc *d, const tl_image_params *p,
                          unsigned nparts)
{
    tl_image_plan *plan;
    tl_status st = tl_image_plan_create(&plan, s, d, p);
    if (st != TL_OK) {
        FAILF("plan: %s %s", tl_status_str(st), tl_last_error());
        return NULL;
    }
    uint8_t *out = malloc((size_t)d->size_bytes);
    memset(out, 0xAB, (size_t)d->size_bytes);
    for (unsigned k = 0; k < nparts; k++)
        CHECK_STATUS(tl_image_plan_run_part(plan, k, nparts, src, (size_t)s->size_bytes, out, (size_t)d->size_bytes), TL_OK);
    tl_image_plan_destroy(plan);
    return out;
}

static tl_image_params letterbox_params(void)
{
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX;
    p.crop_x = 3, p.crop_y = 1, p.crop_w = 71, p.crop_h = 50;
    p.order = TL_IMAGE_BGR;
    p.pad[0] = 10, p.pad[1] = 120, p.pad[2] = 250;
    return p;
}

/* Every destination layout gets exactly what tl_convert makes of the NHWC
 * f32 result: the same element rule, padding zero. Three crops: one the
 * resize blends, one taken 1:1 (side borders) and a 3x shrink (top and
 * bottom borders), whose rows are source lines (planar destinations take
 * them a row per channel). */
TL_TEST(destinations_match_convert)
{
    static const char *const dsts[] = {
        "NCHW:u8:1x3x37x45",
        "NHWC:i8:1x37x45x3:q=affine:scale=0.5:zp=-3",
        "rknn.nc1hwc2:i8:1x1x37x45x16:c=3:zp=-128:scale=1",
        "rknn.nc1hwc2:u8:1x1x37x45x8:c=3",
        "tidl:i8:1x3x37x45:pad=1,2,3,4:scale=0.5",
        "tidl:u8:1x3x37x45:pad=1,1,1,1:cp=1900",
        "trt.dla_hwc4:f16:1x3x37x45",
        "trt.dla_hwc4:i8:1x3x37x45",
        "trt.chw16:f16:1x3x37x45",
        "trt.chw32:i8:1x3x37x45:scale=2",
        "larod.nhwc:u8:1x37x45x3:align=0,0,32,4",
        "larod.nchw:u8:1x3x37x45:align=0,0,0,16",
        "dml:f32:1x3x37x45",
        "NCHW:f16:1x3x37x45",
        "NHWC:u8:1x37x45x4",
        "NCHW:f32:1x1x37x45",
        "CHW:u8:3x37x45",
    };
    static const int64_t crops[][4] = {{3, 1, 71, 50}, {3, 1, 41, 37}, {1, 2, 135, 99}};
    tl_rng r = tl_test_rng();
    tl_desc s = spec("yuv.nv12:u8:3x120x150");
    uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
    tl_image_params p = letterbox_params();
    for (int c = 0; c < 4; c++) p.mean[c] = 20.f * (float)c + 3.5f, p.std[c] = 0.75f + (float)c;
    for (size_t i = 0; i < 3 * sizeof dsts / sizeof dsts[0]; i++) {
        const int64_t *crop = crops[i % 3];
        p.crop_x = crop[0], p.crop_y = crop[1], p.crop_w = crop[2], p.crop_h = crop[3];
        tl_desc d = spec(dsts[i / 3]);
        int64_t ch = d.dims[d.rank == 4 ? 1 : 0];
        if (d.labels[d.rank - 1] == 'C') ch = d.dims[d.rank - 1];
        char ref_spec[64];
        snprintf(ref_spec, sizeof ref_spec, d.rank == 4 ? "NHWC:f32:1x37x45x%lld" : "HWC:f32:37x45x%lld", (long long)ch);
        tl_desc f = spec(ref_spec);
        uint8_t *ref = run_image(&s, frame, &f, &p, 1);
        uint8_t *got = run_image(&s, frame, &d, &p, 3);
        uint8_t *want = malloc((size_t)d.size_bytes);
        memset(want, 0xAB, (size_t)d.size_bytes); /* bytes outside every element stay as they were */
        if (ref && got) {
            CHECK_STATUS(tl_convert(&f, ref, (size_t)f.size_bytes, &d, want, (size_t)d.size_bytes), TL_OK);
            if (memcmp(got, want, (size_t)d.size_bytes) != 0)
                FAILF("destination %s, crop %lldx%lld: differs from tl_convert", dsts[i / 3], (long long)crop[2], (long long)crop[3]);
        }
        free(ref), free(got), free(want);
    }
    free(frame);
}

/* Parts write disjoint rows that together make the whole run. */
TL_TEST(parts_equal_whole)
{
    tl_rng r = tl_test_rng();
    tl_desc s = spec("yuv.i420:u8:3x61x81"), d = spec("rknn.nc1hwc2:i8:1x1x33x29x16:c=3:zp=-128:scale=1");
    uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
    tl_image_params p = letterbox_params();
    uint8_t *whole = run_image(&s, frame, &d, &p, 1);
    for (unsigned n = 2; n <= 40; n += 7) {
        uint8_t *parts = run_image(&s, frame, &d, &p, n);
        if (whole && parts && memcmp(whole, parts, (size_t)d.size_bytes) != 0) FAILF("%u parts differ from one run", n);
        free(parts);
    }
    free(whole), free(frame);
}

typedef struct part_job {
    const tl_image_plan *plan;
    unsigned part, nparts;
    const uint8_t *src;
    size_t src_len, dst_len;
    uint8_t *dst;
    tl_status st;
} part_job;

static void *run_job(void *arg)
{
    part_job *j = arg;
    j->st = tl_image_plan_run_part(j->plan, j->part, j->nparts, j->src, j->src_len, j->dst, j->dst_len);
    return NULL;
}

/* One plan, four threads at once, one part each (the TSan stage runs this too). */
TL_TEST(threads_share_a_plan)
{
    tl_rng r = tl_test_rng();
    tl_desc s = spec("yuv.nv12:u8:3x90x120"), d = spec("tidl:i8:1x3x64x64:pad=2,2,2,2:scale=0.5");
    uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX;
    uint8_t *want = run_image(&s, frame, &d, &p, 1), *got = calloc(1, (size_t)d.size_bytes);
    tl_image_plan *plan;
    REQUIRE_STATUS(tl_image_plan_create(&plan, &s, &d, &p), TL_OK);
    part_job jobs[4];
    pthread_t th[4];
    for (unsigned k = 0; k < 4; k++) {
        jobs[k] = (part_job){plan, k, 4, frame, (size_t)s.size_bytes, (size_t)d.size_bytes, got, TL_ERR_NULL};
        REQUIRE(pthread_create(&th[k], NULL, run_job, &jobs[k]) == 0);
    }
    for (unsigned k = 0; k < 4; k++) {
        pthread_join(th[k], NULL);
        CHECK_STATUS(jobs[k].st, TL_OK);
    }
    if (want) CHECK_MEM_EQ(got, want, (size_t)d.size_bytes);
    tl_image_plan_destroy(plan);
    free(want), free(got), free(frame);
}

/* The same picture in pitched, offset and semi-planar/planar buffers gives
 * the same input: the source is addressed through its descriptor only. */
TL_TEST(pitched_sources_agree)
{
    static const char *const srcs[] = {
        "yuv.nv12:u8:3x30x42:pitch=64:chroma=2500",
        "larod.420sp:u8:3x30x42",
        "yuv.i420:u8:3x30x42:pitch=50",
        "yuv.i420:u8:3x30x42",
    };
    static const char *const rgbs[] = {"larod.nhwc:u8:1x30x42x3:align=0,0,64,4", "NCHW:u8:1x3x30x42", "NHWC:u8:1x30x42x4"};
    tl_rng r = tl_test_rng();
    tl_desc packed = spec("yuv.nv12:u8:3x30x42"), d = spec("NHWC:u8:1x16x20x3");
    uint8_t *frame = random_frame(&r, (size_t)packed.size_bytes);
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.crop_x = 1, p.crop_y = 3, p.crop_w = 40, p.crop_h = 25;
    uint8_t *want = run_image(&packed, frame, &d, &p, 1);
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        tl_desc s = spec(srcs[i]);
        uint8_t *buf = calloc(1, (size_t)s.size_bytes);
        CHECK_STATUS(tl_convert(&packed, frame, (size_t)packed.size_bytes, &s, buf, (size_t)s.size_bytes), TL_OK);
        uint8_t *got = run_image(&s, buf, &d, &p, 1);
        if (want && got && memcmp(want, got, (size_t)d.size_bytes) != 0) FAILF("source %s differs from packed NV12", srcs[i]);
        free(buf), free(got);
    }
    /* RGB sources: the packed NHWC RGB picture in other layouts. */
    tl_desc rgb = spec("NHWC:u8:1x30x42x3");
    uint8_t *pix = random_frame(&r, (size_t)rgb.size_bytes);
    uint8_t *want_rgb = run_image(&rgb, pix, &d, &p, 1);
    for (size_t i = 0; i < sizeof rgbs / sizeof rgbs[0]; i++) {
        tl_desc s = spec(rgbs[i]);
        uint8_t *buf = calloc(1, (size_t)s.size_bytes);
        if (s.dims[3] == 4) { /* RGBX: copy pixels, X = junk */
            for (int64_t k = 0; k < 30 * 42; k++) memcpy(buf + 4 * k, pix + 3 * k, 3), buf[4 * k + 3] = (uint8_t)k;
        } else {
            CHECK_STATUS(tl_convert(&rgb, pix, (size_t)rgb.size_bytes, &s, buf, (size_t)s.size_bytes), TL_OK);
        }
        uint8_t *got = run_image(&s, buf, &d, &p, 1);
        if (want_rgb && got && memcmp(want_rgb, got, (size_t)d.size_bytes) != 0) FAILF("source %s differs from NHWC", rgbs[i]);
        free(buf), free(got);
    }
    free(want), free(want_rgb), free(pix), free(frame);
}

/* BT.601 limited range by its OpenCV definition, one pixel. */
static void oracle_rgb(int y, int u, int v, int *rgb)
{
    int64_t yy = (int64_t)(y > 16 ? y - 16 : 0) * 1220542, uu = u - 128, vv = v - 128, h = 1 << 19;
    int64_t t[3] = {(yy + h + 1673527 * vv) >> 20, (yy + h - 852492 * vv - 409993 * uu) >> 20, (yy + h + 2116026 * uu) >> 20};
    for (int c = 0; c < 3; c++) rgb[c] = t[c] < 0 ? 0 : t[c] > 255 ? 255 : (int)t[c];
}

/* Odd sizes and odd crops without resizing: each output pixel is its frame
 * pixel's conversion, chroma from the 2x2 block holding it. */
TL_TEST(odd_sizes_per_pixel)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 40; iter++) {
        int64_t h = tl_rng_range(&r, 1, 23), w = tl_rng_range(&r, 1, 23);
        int64_t cx = tl_rng_range(&r, 0, w - 1), cy = tl_rng_range(&r, 0, h - 1);
        int64_t cw = tl_rng_range(&r, 1, w - cx), ch = tl_rng_range(&r, 1, h - cy);
        const char *kind = tl_rng_pick(&r, 2) ? "nv21" : "i420";
        char ss[96], ds[64];
        snprintf(ss, sizeof ss, "yuv.%s:u8:3x%lldx%lld:pitch=%lld", kind, (long long)h, (long long)w, (long long)(w + 3));
        snprintf(ds, sizeof ds, "NHWC:u8:1x%lldx%lldx3", (long long)ch, (long long)cw);
        tl_desc s = spec(ss), d = spec(ds);
        uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
        tl_image_params p = TL_IMAGE_PARAMS_INIT;
        p.crop_x = cx, p.crop_y = cy, p.crop_w = cw, p.crop_h = ch;
        p.resize = tl_rng_pick(&r, 3);
        uint8_t *got = run_image(&s, frame, &d, &p, 1);
        for (int64_t y = 0; got && y < ch; y++)
            for (int64_t x = 0; x < cw; x++) {
                int v[3], rgb[3];
                for (int c = 0; c < 3; c++) {
                    int64_t co[3] = {c, cy + y, cx + x};
                    uint64_t off;
                    tl_desc_offset(&s, co, &off);
                    v[c] = frame[off];
                }
                oracle_rgb(v[0], v[1], v[2], rgb);
                for (int c = 0; c < 3; c++)
                    if (got[(y * cw + x) * 3 + c] != rgb[c]) {
                        FAILF("%s crop %lld,%lld,%lld,%lld pixel %lld,%lld c%d: %d, want %d", ss, (long long)cx,
                              (long long)cy, (long long)cw, (long long)ch, (long long)x, (long long)y, c,
                              got[(y * cw + x) * 3 + c], rgb[c]);
                        y = ch, x = cw, c = 3;
                    }
            }
        free(got), free(frame);
    }
}

TL_TEST(letterbox_map)
{
    tl_desc s = spec("yuv.nv12:u8:3x1080x1920"), d = spec("NHWC:u8:1x640x640x3");
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX;
    tl_image_plan *plan;
    REQUIRE_STATUS(tl_image_plan_create(&plan, &s, &d, &p), TL_OK);
    tl_image_map m;
    REQUIRE_STATUS(tl_image_plan_map(plan, &m), TL_OK);
    CHECK_EQ_I64(m.left, 0), CHECK_EQ_I64(m.top, 140), CHECK_EQ_I64(m.width, 640), CHECK_EQ_I64(m.height, 360);
    CHECK_NEAR(m.scale_x, 3.0, 0), CHECK_NEAR(m.scale_y, 3.0, 0);
    CHECK_NEAR(m.offset_x, 0.0, 0), CHECK_NEAR(m.offset_y, -420.0, 0);
    /* the image area's corners land on the frame's corners */
    CHECK_NEAR(640 * m.scale_x + m.offset_x, 1920.0, 1e-9);
    CHECK_NEAR(500 * m.scale_y + m.offset_y, 1080.0, 1e-9);
    tl_image_plan_destroy(plan);
    /* a crop and an odd slack: 101x50 into 64x64, r = 64/101 */
    p.crop_x = 10, p.crop_y = 20, p.crop_w = 101, p.crop_h = 50;
    d = spec("NHWC:u8:1x64x64x3");
    REQUIRE_STATUS(tl_image_plan_create(&plan, &s, &d, &p), TL_OK);
    REQUIRE_STATUS(tl_image_plan_map(plan, &m), TL_OK);
    CHECK_EQ_I64(m.width, 64), CHECK_EQ_I64(m.height, 32); /* round(50*64/101 = 31.68) */
    CHECK_EQ_I64(m.top, 16);                              /* dh = 16: round(15.9) */
    CHECK_NEAR(m.left * m.scale_x + m.offset_x, 10.0, 1e-9);
    CHECK_NEAR((m.top + m.height) * m.scale_y + m.offset_y, 70.0, 1e-9);
    tl_image_plan_destroy(plan);
}

/* Fast mode resizes Y and chroma, then converts: close to exact on a smooth frame. */
TL_TEST(fast_mode_close_to_exact)
{
    tl_desc s = spec("yuv.nv12:u8:3x120x160"), d = spec("NHWC:u8:1x64x64x3");
    uint8_t *frame = malloc((size_t)s.size_bytes);
    for (int64_t i = 0; i < 120 * 160; i++) frame[i] = (uint8_t)(30 + (i % 160) / 2 + (i / 160) / 2);
    for (int64_t i = 120 * 160; i < s.size_bytes; i += 2) { /* smooth chroma: U along x, V along y */
        int64_t k = (i - 120 * 160) / 2;
        frame[i] = (uint8_t)(100 + (k % 80) / 2), frame[i + 1] = (uint8_t)(160 - k / 80);
    }
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX;
    uint8_t *exact = run_image(&s, frame, &d, &p, 1);
    p.mode = TL_IMAGE_FAST;
    uint8_t *fast = run_image(&s, frame, &d, &p, 2);
    int maxd = 0;
    for (int64_t i = 0; exact && fast && i < d.size_bytes; i++) {
        int dd = abs(exact[i] - fast[i]);
        if (dd > maxd) maxd = dd;
    }
    if (maxd > 6) FAILF("fast mode differs from exact by %d on a smooth frame", maxd);
    CHECK(maxd > 0); /* it is a different computation */
    /* the same frame as NV21, I420 and pitched NV12: the same fast result */
    static const char *const others[] = {"yuv.nv21:u8:3x120x160", "yuv.i420:u8:3x120x160", "yuv.nv12:u8:3x120x160:pitch=176:chroma=22000"};
    for (size_t i = 0; fast && i < 3; i++) {
        tl_desc o = spec(others[i]);
        uint8_t *buf = calloc(1, (size_t)o.size_bytes);
        CHECK_STATUS(tl_convert(&s, frame, (size_t)s.size_bytes, &o, buf, (size_t)o.size_bytes), TL_OK);
        uint8_t *got = run_image(&o, buf, &d, &p, 1);
        if (got && memcmp(got, fast, (size_t)d.size_bytes) != 0) FAILF("fast mode from %s differs from NV12", others[i]);
        free(got), free(buf);
    }
    free(exact), free(fast), free(frame);
}

static void expect_error(const tl_desc *s, const tl_desc *d, const tl_image_params *p, tl_status want,
                         const char *needle)
{
    tl_image_plan *plan = (tl_image_plan *)(uintptr_t)1;
    CHECK_STATUS(tl_image_plan_create(&plan, s, d, p), want);
    CHECK(plan == NULL);
    CHECK_STR_CONTAINS(tl_last_error(), needle);
}

TL_TEST(bad_input)
{
    tl_desc s = spec("yuv.nv12:u8:3x48x64"), d = spec("NHWC:u8:1x32x32x3");
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.crop_x = 40, p.crop_w = 30;
    expect_error(&s, &d, &p, TL_ERR_COORD, "outside the 64x48 frame");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    p.crop_y = -1;
    expect_error(&s, &d, &p, TL_ERR_COORD, "must be >= 0");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    p.std[2] = 0.f;
    expect_error(&s, &d, &p, TL_ERR_UNSUPPORTED, "params.std[2]=0");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    p.mode = TL_IMAGE_FAST, p.crop_x = 1;
    expect_error(&s, &d, &p, TL_ERR_UNSUPPORTED, "multiples of 2");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    p.resize = 7;
    expect_error(&s, &d, &p, TL_ERR_UNSUPPORTED, "params.resize=7");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX, p.crop_w = 1;
    tl_desc wide = spec("NHWC:u8:1x8x64x3");
    expect_error(&s, &wide, &p, TL_ERR_UNSUPPORTED, "too narrow");
    p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
    tl_desc tiny = spec("NHWC:u8:1x1x1x3"), big = spec("yuv.nv12:u8:3x8192x8192");
    expect_error(&big, &tiny, &p, TL_ERR_UNSUPPORTED, "scale factor");
    tl_desc nc = spec("NC:u8:1x3");
    expect_error(&s, &nc, &p, TL_ERR_LABEL, "without labelled C, H and W");
    tl_desc c2 = spec("NHWC:u8:1x4x4x2");
    expect_error(&s, &c2, &p, TL_ERR_DIM, "C=2");
    tl_desc n2 = spec("NHWC:u8:2x4x4x3");
    expect_error(&s, &n2, &p, TL_ERR_DIM, "N=2");
    tl_desc f32src = spec("NHWC:f32:1x4x4x3");
    expect_error(&f32src, &d, &p, TL_ERR_DTYPE, "u8");
    tl_desc i4 = spec("NHWC:i4:1x4x4x3");
    expect_error(&s, &i4, &p, TL_ERR_DTYPE, "whole bytes");
    tl_image_plan *plan = NULL;
    CHECK_STATUS(tl_image_plan_create(&plan, NULL, &d, &p), TL_ERR_NULL);

    /* run: buffers too small, nothing written */
    REQUIRE_STATUS(tl_image_plan_create(&plan, &s, &d, &p), TL_OK);
    uint8_t *src = calloc(1, (size_t)s.size_bytes), *dst = malloc((size_t)d.size_bytes);
    memset(dst, 0xAB, (size_t)d.size_bytes);
    CHECK_STATUS(tl_image_plan_run(plan, src, (size_t)s.size_bytes - 1, dst, (size_t)d.size_bytes), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "source buffer");
    CHECK_STATUS(tl_image_plan_run(plan, src, (size_t)s.size_bytes, dst, (size_t)d.size_bytes - 1), TL_ERR_BUFFER_SMALL);
    CHECK_STATUS(tl_image_plan_run_part(plan, 3, 3, src, (size_t)s.size_bytes, dst, (size_t)d.size_bytes), TL_ERR_COORD);
    int untouched = 1;
    for (int64_t i = 0; i < d.size_bytes; i++) untouched &= dst[i] == 0xAB;
    CHECK(untouched);
    tl_image_plan_destroy(plan);
    free(src), free(dst);
}

/* Gray from YUV is the Y plane (cv2 COLOR_YUV2GRAY_*); a 4th channel is 255
 * inside the image and pad[3] in the border. */
TL_TEST(gray_and_alpha)
{
    tl_rng r = tl_test_rng();
    tl_desc s = spec("yuv.nv12:u8:3x10x14"), g = spec("NHWC:u8:1x10x14x1"), x4 = spec("NHWC:u8:1x20x14x4");
    uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    uint8_t *gray = run_image(&s, frame, &g, &p, 1);
    if (gray) CHECK_MEM_EQ(gray, frame, 140);
    p.fit = TL_IMAGE_LETTERBOX, p.pad[3] = 9;
    uint8_t *rgbx = run_image(&s, frame, &x4, &p, 1);
    if (rgbx) {
        CHECK_EQ_I64(rgbx[3], 9);                    /* row 0: border (top = 5) */
        CHECK_EQ_I64(rgbx[(5 * 14) * 4 + 3], 255);   /* row 5: image */
        CHECK_EQ_I64(rgbx[(19 * 14) * 4 + 3], 9);    /* row 19: border */
        CHECK_EQ_I64(rgbx[0], 114);
    }
    free(gray), free(rgbx), free(frame);
}

/* Every row kernel against its scalar twin, on every path this machine has:
 * all weights and extreme row values for the vertical step, every byte value
 * and every start parity and length for YUV -> RGB, NV12, NV21 and I420. */
TL_TEST(kernels_match_scalar)
{
    tl_rng r = tl_test_rng();
    const tl_image_kernels *ref = tl_image_kernels_for(TL_ISA_SCALAR);
    int32_t h0[301], h1[301];
    uint8_t want[301], got[301 + 16];
    uint8_t y[300], uv[300], u[150], v[150], rw[3 * 300], rg[3 * 300 + 16]; /* pairs of 300 pixels */
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
        const tl_image_kernels *k = tl_image_kernels_for(isa);
        if (!k) continue;
        for (int it = 0; it < 300; it++) {
            size_t n = (size_t)tl_rng_range(&r, 0, 300);
            int32_t b1 = (int32_t)tl_rng_range(&r, 0, 2048), b0 = 2048 - b1 + (int32_t)tl_rng_range(&r, -1, 1);
            if (b0 < 0) b0 = 0;
            for (size_t i = 0; i < n; i++) {
                h0[i] = it % 3 == 0 ? 255 * 2048 : (int32_t)tl_rng_range(&r, 0, 255 * 2048);
                h1[i] = it % 5 == 0 ? 0 : (int32_t)tl_rng_range(&r, 0, 255 * 2048);
            }
            memset(got, 0xEE, sizeof got);
            ref->vlinear(h0, h1, b0, b1, want, n);
            k->vlinear(h0, h1, b0, b1, got, n);
            if (memcmp(want, got, n) != 0 || got[n] != 0xEE) FAILF("%s vlinear n=%zu b=%d,%d", k->isa, n, b0, b1);
        }
        for (int it = 0; it < 300; it++) { /* horizontal step: random taps, weight 0 at the edge */
            uint8_t line[3 * 64 + 16];
            int32_t ofs[150], hw[150], hg[151];
            int16_t wt[300];
            int cn = 1 + it % 3;
            size_t n = (size_t)tl_rng_range(&r, 0, 150);
            tl_rng_bytes(&r, line, sizeof line);
            for (size_t q = 0; q < n; q++) {
                /* odd iterations: increasing taps a pixel or two apart (a resize's, the kernels' window path) */
                int32_t near = q ? ofs[q - 1] + (int32_t)tl_rng_range(&r, 0, it % 4 == 1 ? cn : 2 * cn) : (int32_t)tl_rng_range(&r, 0, cn - 1);
                ofs[q] = it % 2 && near <= 64 * cn - 1 ? near : (int32_t)tl_rng_range(&r, 0, 64 * cn - 1);
                wt[2 * q + 1] = (int16_t)tl_rng_range(&r, 0, 2048), wt[2 * q] = (int16_t)(2048 - wt[2 * q + 1]);
                if (ofs[q] >= 63 * cn) wt[2 * q + 1] = 0, wt[2 * q] = 2048;
            }
            hg[n] = 12345;
            ref->hlinear(line, ofs, wt, cn, hw, n);
            k->hlinear(line, ofs, wt, cn, hg, n);
            if (memcmp(hw, hg, n * sizeof(int32_t)) != 0 || hg[n] != 12345) FAILF("%s hlinear cn=%d n=%zu", k->isa, cn, n);
        }
        for (int it = 0; it < 300; it++) {
            tl_rng_bytes(&r, y, sizeof y), tl_rng_bytes(&r, uv, sizeof uv);
            tl_rng_bytes(&r, u, sizeof u), tl_rng_bytes(&r, v, sizeof v);
            int kind = it % 3;
            int cshift = it % 5 != 0; /* every 5th: a chroma sample per pixel (fast mode) */
            tl_yuv_rows rows = {y, kind == 2 ? u : uv + (kind == 1), kind == 2 ? v : uv + (kind == 0), cshift, kind == 2 ? 1 : 2,
                                16, 1220542, 1673527, -852492, -409993, 2116026};
            if (it % 4 == 1) rows.yoff = 0, rows.cy = 1 << 20; /* full range */
            int64_t x0 = tl_rng_range(&r, 0, 40), x1 = tl_rng_range(&r, x0, cshift ? 300 : (kind == 2 ? 150 : 149));
            memset(rg, 0xEE, sizeof rg);
            tl_rgb_out bw = tl_rgb_bytes(rw), bg = tl_rgb_bytes(rg);
            ref->yuv_rgb(&rows, x0, x1, &bw);
            k->yuv_rgb(&rows, x0, x1, &bg);
            size_t nb = (size_t)(3 * (x1 - x0));
            if (memcmp(rw, rg, nb) != 0 || rg[nb] != 0xEE) FAILF("%s yuv_rgb kind %d x %lld..%lld", k->isa, kind, (long long)x0, (long long)x1);
            /* one row per channel, in any order: the same values, nothing past the run */
            memset(rg, 0xEE, sizeof rg);
            size_t np = (size_t)(x1 - x0);
            int c0 = it % 3;
            tl_rgb_out pg = {{rg + 300 * c0, rg + 300 * ((c0 + 1) % 3), rg + 300 * ((c0 + 2) % 3)}, 1};
            k->yuv_rgb(&rows, x0, x1, &pg);
            for (size_t q = 0; q < 3 * np; q++)
                if (pg.ch[q % 3][q / 3] != rw[q]) FAILF("%s yuv_rgb rows kind %d x %lld..%lld", k->isa, kind, (long long)x0, (long long)x1);
            for (int c = 0; c < 3; c++)
                if (np < 300 && pg.ch[c][np] != 0xEE) FAILF("%s yuv_rgb rows wrote past the run", k->isa);
        }
    }
}

/* Fast mode's kernels against their scalar twins on every path: taps a few
 * bytes apart (the window paths) and anywhere (the gathers), all weights,
 * every length, both chroma orders, the four colour matrices' constants. */
TL_TEST(fast_kernels_match_scalar)
{
    tl_rng r = tl_test_rng();
    const tl_image_kernels *ref = tl_image_kernels_for(TL_ISA_SCALAR);
    enum { N = 300, LINE = 3 * 600 + 128 };
    static uint8_t line[LINE], want[3 * N], got[3 * N + 16], y[N], uv[2 * N];
    static int32_t ofs[N];
    static int8_t wt[2 * N];
    static int32_t base[(N + 31) / 32];
    static uint8_t pair[64 * ((N + 31) / 32)], pick[32 * ((N + 31) / 32)], words[64 * ((N + 31) / 32)];
    static uint16_t h0[N], h1[N], hw[N], hg[N + 1];
    /* the fused row: chroma taps of 2 n values over two chroma lines */
    enum { CLINE = 2 * 3 * N + 4 + 128 };
    static uint8_t yp[N], uvp[2 * N], cl0[CLINE], cl1[CLINE];
    static uint16_t ch0[2 * N], ch1[2 * N];
    static int32_t cofs[2 * N], cbase[(2 * N + 31) / 32];
    static int8_t cwt[4 * N];
    static uint8_t cpair[64 * ((2 * N + 31) / 32)], cpick[32 * ((2 * N + 31) / 32)], cwords[64 * ((2 * N + 31) / 32)];
    static const int32_t yg[] = {18997, 16320, 18997, 16320}, cv[][4] = {{102, -52, -25, 129}, {101, -22, -46, 113},
                                                                         {115, -34, -14, 135}, {101, -30, -12, 119}};
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
        const tl_image_kernels *k = tl_image_kernels_for(isa);
        if (!k) continue;
        for (int it = 0; it < 400; it++) {
            int cn = 1 + it % 2;
            size_t n = (size_t)tl_rng_range(&r, 0, N);
            int step = 1 + it % 5; /* source samples per output, about: up to 5:1 (spreads past the windows) */
            tl_rng_bytes(&r, line, sizeof line);
            for (size_t q = 0; q < n; q++) {
                int32_t px = (int32_t)(q / cn) * step + (int32_t)tl_rng_range(&r, 0, it % 3 == 0 ? 0 : 1);
                ofs[q] = it % 7 == 6 ? (int32_t)tl_rng_range(&r, 0, 3 * 600 - 2) : px * cn + (int32_t)(q % cn);
                int w1 = (int)tl_rng_range(&r, 0, 63);
                wt[2 * q] = (int8_t)(64 - w1), wt[2 * q + 1] = (int8_t)w1;
                h0[q] = (uint16_t)(it % 8 == 3 ? 16320 : tl_rng_range(&r, 0, 16320));
                h1[q] = (uint16_t)(it % 4 == 0 ? 16320 : it % 8 == 3 ? 0 : tl_rng_range(&r, 0, 16320));
            }
            int span = tl_taps_blocks(ofs, cn, n, base, pair, pick, words);
            tl_taps taps = {ofs, wt, cn, base, pair, pick, words, span};
            memset(got, 0xEE, sizeof got);
            ref->pick(line, &taps, want, n);
            k->pick(line, &taps, got, n);
            if (memcmp(want, got, n) != 0 || got[n] != 0xEE) FAILF("%s pick n=%zu step %d", k->isa, n, step);
            hg[n] = 12345;
            ref->hlinear_fast(line, &taps, hw, n);
            k->hlinear_fast(line, &taps, hg, n);
            if (memcmp(hw, hg, n * sizeof *hw) != 0 || hg[n] != 12345) FAILF("%s hlinear_fast cn=%d n=%zu step %d", k->isa, cn, n, step);
            int32_t b1 = it % 9 == 0 ? 0 : (int32_t)tl_rng_range(&r, 1, 63);
            memset(got, 0xEE, sizeof got);
            ref->vlinear_fast(h0, h1, b1, want, n);
            k->vlinear_fast(h0, h1, b1, got, n);
            if (memcmp(want, got, n) != 0 || got[n] != 0xEE) FAILF("%s vlinear_fast n=%zu b1=%d", k->isa, n, b1);
            tl_rng_bytes(&r, y, sizeof y), tl_rng_bytes(&r, uv, sizeof uv);
            int m = it % 4;
            tl_yuv_fast f = {y, uv, it % 2, m % 2 ? 0 : 16, yg[m], cv[m][0], cv[m][1], cv[m][2], cv[m][3], NULL, NULL, NULL, NULL, NULL, 0};
            memset(got, 0xEE, sizeof got);
            ref->yuv_rgb_fast(&f, n, want);
            k->yuv_rgb_fast(&f, n, got);
            if (memcmp(want, got, 3 * n) != 0 || got[3 * n] != 0xEE) FAILF("%s yuv_rgb_fast n=%zu matrix %d", k->isa, n, m);
            /* the scalar twin (the SIMD kernels' tails) on the scalar path, which makes rows separately */
            tl_yuv_rgb_fused_fn fused_fn = isa == TL_ISA_SCALAR ? tl_yuv_rgb_fused_ukernel__scalar : k->yuv_rgb_fused;
            if (!fused_fn) continue;
            /* the fused row against the kernels in turn: Y picked (or given); chroma pairs up to 3:1
             * (a few steps 1 or 2 pairs apart, some taps anywhere), both rows stepped horizontally, then vertically */
            bool picked = it % 3 != 1;
            int cstep = 1 + it % 3;
            tl_rng_bytes(&r, cl0, sizeof cl0), tl_rng_bytes(&r, cl1, sizeof cl1);
            for (size_t q = 0; q < 2 * n; q++) {
                int32_t px = (int32_t)(q / 2) * cstep + (int32_t)tl_rng_range(&r, 0, 1);
                cofs[q] = it % 11 == 10 ? 2 * (int32_t)tl_rng_range(&r, 0, 3 * N) + (int32_t)(q % 2) : 2 * px + (int32_t)(q % 2);
                int w1 = (int)tl_rng_range(&r, 0, 63);
                cwt[2 * q] = (int8_t)(64 - w1), cwt[2 * q + 1] = (int8_t)w1;
            }
            int cspan = tl_taps_blocks(cofs, 2, 2 * n, cbase, cpair, cpick, cwords);
            tl_taps ctaps = {cofs, cwt, 2, cbase, cpair, cpick, cwords, cspan};
            if (picked) ref->pick(line, &taps, yp, n);
            ref->hlinear_fast(cl0, &ctaps, ch0, 2 * n);
            ref->hlinear_fast(cl1, &ctaps, ch1, 2 * n);
            ref->vlinear_fast(ch0, ch1, b1, uvp, 2 * n);
            tl_yuv_fast three = f;
            three.y = picked ? yp : y, three.uv = uvp;
            ref->yuv_rgb_fast(&three, n, want);
            tl_yuv_fast fused = f;
            fused.uv = NULL, fused.y_line = line, fused.y_taps = picked ? &taps : NULL;
            fused.uv_line0 = cl0, fused.uv_line1 = cl1, fused.uv_taps = &ctaps, fused.b1 = b1;
            memset(got, 0xEE, sizeof got);
            fused_fn(&fused, n, got);
            if (memcmp(want, got, 3 * n) != 0 || got[3 * n] != 0xEE)
                FAILF("%s yuv_rgb_fused n=%zu matrix %d %s step %d chroma step %d b1=%d", k->isa, n, m, picked ? "picked" : "given", step, cstep, b1);
        }
    }
}

/* A source row function for tl_rz_row: pixel (sy, column) from a hash, the
 * columns asked for written compacted as the contract says. */
static uint8_t rz_pixel(int32_t sy, int32_t x, int c) { return (uint8_t)((sy * 131 + x * 71 + c * 29) * 2654435761u >> 24); }

static void rz_source(const void *ctx, int32_t sy, const int32_t *cols, int32_t ncols, uint8_t *out)
{
    int cn = *(const int *)ctx;
    for (int32_t k = 0; k < ncols; k++)
        for (int c = 0; c < cn; c++) out[k * cn + c] = rz_pixel(sy, cols[k], c);
}

/* Bilinear rows against the plain fixed-point formulas over the whole source
 * row (both taps of every column and row read, clamped at the edges), at
 * integer factors (weights exactly one: the pick rows), fractional ones and
 * enlargements, on every path's kernels: skipping taps of weight 0 and
 * picking pixels changes no bit. */
TL_TEST(resize_rows_match_formula)
{
    static const int32_t sizes[][4] = {{1920, 1080, 640, 360}, {90, 60, 30, 20}, {64, 48, 32, 24}, {61, 47, 20, 15},
                                       {100, 80, 67, 53}, {20, 16, 62, 50}, {33, 9, 33, 3}, {7, 30, 7, 10}};
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
        const tl_image_kernels *k = tl_image_kernels_for(isa);
        if (!k) continue;
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int cn = 1; cn <= 3; cn += 2) {
                const int32_t sw = sizes[i][0], sh = sizes[i][1], dw = sizes[i][2], dh = sizes[i][3];
                tl_rz rz;
                REQUIRE_STATUS(tl_rz_init(&rz, TL_IMAGE_BILINEAR, cn, sw, sh, dw, dh), TL_OK);
                rz.vlinear = k->vlinear, rz.hlinear = k->hlinear;
                void *mem = malloc(tl_rz_work_bytes(&rz) + 64);
                uint8_t *got = malloc((size_t)dw * cn);
                tl_rz_work w;
                tl_rz_work_init(&w, &rz, mem);
                for (int32_t dy = 0; dy < dh; dy++) {
                    tl_rz_row(&rz, &w, dy, rz_source, &cn, got);
                    int32_t y0 = rz.yo[dy] < 0 ? 0 : rz.yo[dy] > sh - 1 ? sh - 1 : rz.yo[dy];
                    int32_t y1 = rz.yo[dy] + 1 < 0 ? 0 : rz.yo[dy] + 1 > sh - 1 ? sh - 1 : rz.yo[dy] + 1;
                    for (int32_t dx = 0; dx < dw; dx++)
                        for (int c = 0; c < cn; c++) {
                            int32_t x0 = rz.xo[dx], x1 = x0 + 1 < sw ? x0 + 1 : x0, h[2];
                            for (int j = 0; j < 2; j++) {
                                int32_t sy = j ? y1 : y0;
                                h[j] = rz_pixel(sy, x0, c) * rz.xa[2 * dx] + rz_pixel(sy, x1, c) * rz.xa[2 * dx + 1];
                            }
                            int v = ((((h[0] >> 4) * rz.yb[2 * dy]) >> 16) + (((h[1] >> 4) * rz.yb[2 * dy + 1]) >> 16) + 2) >> 2;
                            v = v < 0 ? 0 : v > 255 ? 255 : v;
                            if (got[dx * cn + c] != v) {
                                FAILF("%s %dx%d -> %dx%d cn=%d: (%d,%d,%d) %d want %d", k->isa, sw, sh, dw, dh, cn, dx, dy, c,
                                      got[dx * cn + c], v);
                                dy = dh, dx = dw;
                                break;
                            }
                        }
                }
                if (i == 0 && !rz.xdirect) FAILF("1920 -> 640: every weight is one, the line should be the output row");
                free(got), free(mem);
                tl_rz_free(&rz);
            }
    }
}

/* Whole plans on every path give the scalar path's bytes. */
TL_TEST(paths_agree)
{
    static const char *const cases[][2] = {
        {"yuv.nv12:u8:3x60x80", "NHWC:u8:1x37x45x3"},
        {"yuv.nv21:u8:3x61x83:pitch=96", "rknn.nc1hwc2:i8:1x1x40x40x16:c=3:zp=-128:scale=1"},
        {"yuv.i420:u8:3x50x70", "NCHW:f32:1x3x64x64"},
        {"larod.420sp:u8:3x48x64", "NHWC:u8:1x100x90x3"},
    };
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < 2 * sizeof cases / sizeof cases[0]; i++) {
        int fast = i % 2; /* exact and fast mode (even crops) */
        tl_desc s = spec(cases[i / 2][0]), d = spec(cases[i / 2][1]);
        uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
        tl_image_params p = letterbox_params();
        p.crop_x = fast ? 2 * (i / 2) : i / 2, p.crop_y = fast ? 2 : 1, p.crop_w = fast ? 40 : 0, p.crop_h = fast ? 30 : 0;
        p.resize = (int)(i / 2) % 3, p.mode = fast;
        uint8_t *want = NULL;
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            tl_image_plan *plan;
            if (tl_image_plan_create_isa(&plan, &s, &d, &p, isa) != TL_OK) continue;
            uint8_t *got = calloc(1, (size_t)d.size_bytes);
            CHECK_STATUS(tl_image_plan_run(plan, frame, (size_t)s.size_bytes, got, (size_t)d.size_bytes), TL_OK);
            if (!want) want = got;
            else if (memcmp(want, got, (size_t)d.size_bytes) != 0) FAILF("%s mode %d: path %d differs from scalar", cases[i / 2][0], fast, isa);
            if (got != want) free(got);
            tl_image_plan_destroy(plan);
        }
        free(want), free(frame);
    }
}

/* Rows that are source lines (a 1:1 crop, a 3x shrink) go into planar
 * destinations a row per channel on the vector paths; every path gives the
 * scalar path's bytes (which makes them as pixels), borders, BGR order,
 * odd crops and widths, every chroma layout included. */
TL_TEST(direct_rows_agree)
{
    static const char *const cases[][2] = {
        {"yuv.nv12:u8:3x100x125", "NCHW:f32:1x3x32x40"},
        {"yuv.nv21:u8:3x103x145", "tidl:i8:1x3x33x47:pad=1,2,3,4:scale=0.5"},
        {"yuv.i420:u8:3x64x95", "larod.nchw:u8:1x3x20x30:align=0,0,0,16"},
        {"yuv.nv12:u8:3x40x53", "NCHW:f16:1x3x33x47"},
        {"yuv.nv12:u8:3x40x53", "dml:f32:1x3x33x47"},
    };
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_desc s = spec(cases[i][0]), d = spec(cases[i][1]);
        uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
        tl_image_params p = letterbox_params();
        p.crop_x = 1 + (int64_t)i, p.crop_y = 1, p.crop_w = 0, p.crop_h = 0;
        if (i >= 3) p.crop_w = 47, p.crop_h = 30; /* 1:1 under a letterbox: top and bottom borders */
        else p.crop_w = 3 * d.dims[d.rank - 1], p.crop_h = 3 * d.dims[d.rank - 2], p.fit = TL_IMAGE_STRETCH;
        if (i % 2) p.order = TL_IMAGE_RGB;
        uint8_t *want = NULL;
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            tl_image_plan *plan;
            if (tl_image_plan_create_isa(&plan, &s, &d, &p, isa) != TL_OK) continue;
            uint8_t *got = malloc((size_t)d.size_bytes);
            memset(got, 0xAB, (size_t)d.size_bytes);
            CHECK_STATUS(tl_image_plan_run_part(plan, isa % 2, 2, frame, (size_t)s.size_bytes, got, (size_t)d.size_bytes), TL_OK);
            CHECK_STATUS(tl_image_plan_run_part(plan, 1 - isa % 2, 2, frame, (size_t)s.size_bytes, got, (size_t)d.size_bytes), TL_OK);
            if (!want) want = got;
            else if (memcmp(want, got, (size_t)d.size_bytes) != 0) FAILF("%s -> %s: path %d differs from scalar", cases[i][0], cases[i][1], isa);
            if (got != want) free(got);
            tl_image_plan_destroy(plan);
        }
        free(want), free(frame);
    }
}

/* Packed 4:2:2 descriptors: byte addresses, spec round trip, pitch rules,
 * and through the image plan the same input as the frame re-packed as I420's
 * 4:4:4-equivalent (every pixel's Y, U, V converted per pixel). */
TL_TEST(yuv422_descriptors)
{
    static const char *const specs[] = {"yuv.yuyv:u8:3x4x6", "yuv.uyvy:u8:3x3x5:pitch=16"};
    for (int k = 0; k < 2; k++) {
        tl_desc d = spec(specs[k]);
        char back[64];
        REQUIRE_STATUS(tl_desc_format(&d, back, sizeof back), TL_OK);
        CHECK_STR_EQ(back, specs[k]);
        int64_t pitch = k ? 16 : 12, yo = k ? 1 : 0, uo = k ? 0 : 1, vo = k ? 2 : 3;
        CHECK_EQ_I64(d.size_bytes, (d.dims[1] - 1) * pitch + (k ? 11 : 12)); /* UYVY W=5: the last V at byte 10 */
        for (int64_t h = 0; h < d.dims[1]; h++)
            for (int64_t w = 0; w < d.dims[2]; w++) {
                int64_t co[3][3] = {{0, h, w}, {1, h, w}, {2, h, w}};
                uint64_t off[3];
                for (int c = 0; c < 3; c++) tl_desc_offset(&d, co[c], &off[c]);
                CHECK_EQ_I64((int64_t)off[0], h * pitch + 2 * w + yo);
                CHECK_EQ_I64((int64_t)off[1], h * pitch + 4 * (w / 2) + uo);
                CHECK_EQ_I64((int64_t)off[2], h * pitch + 4 * (w / 2) + vo);
            }
    }
    tl_desc d;
    CHECK_STATUS(tl_desc_parse(&d, "yuv.yuyv:u8:3x4x6:pitch=11"), TL_ERR_STRIDE);
    CHECK_STR_CONTAINS(tl_last_error(), "even pitch >= 12");
    CHECK_STATUS(tl_desc_parse(&d, "yuv.yuyv:u8:3x4x6:pitch=10"), TL_ERR_STRIDE);
    CHECK_STATUS(tl_desc_parse(&d, "yuv.uyvy:u8:3x4x6:chroma=5"), TL_ERR_SPEC_OPTION);
    /* the image plan reads every pixel's own Y and its pair's U, V */
    tl_rng r = tl_test_rng();
    tl_desc s = spec("yuv.yuyv:u8:3x7x9:pitch=24"), o = spec("NHWC:u8:1x7x9x3");
    uint8_t *frame = random_frame(&r, (size_t)s.size_bytes);
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    uint8_t *got = run_image(&s, frame, &o, &p, 1);
    for (int64_t i = 0; got && i < 63; i++) {
        int64_t h = i / 9, w = i % 9, b = h * 24 + 4 * (w / 2);
        int rgb[3];
        oracle_rgb(frame[h * 24 + 2 * w], frame[b + 1], frame[b + 3], rgb);
        for (int c = 0; c < 3; c++)
            if (got[3 * i + c] != rgb[c]) { FAILF("yuyv pixel %lld,%lld c%d: %d want %d", (long long)w, (long long)h, c, got[3 * i + c], rgb[c]); i = 63; break; }
    }
    free(got), free(frame);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(destinations_match_convert);
    TL_RUN(parts_equal_whole);
    TL_RUN(pitched_sources_agree);
    TL_RUN(odd_sizes_per_pixel);
    TL_RUN(letterbox_map);
    TL_RUN(fast_mode_close_to_exact);
    TL_RUN(bad_input);
    TL_RUN(gray_and_alpha);
    TL_RUN(kernels_match_scalar);
    TL_RUN(fast_kernels_match_scalar);
    TL_RUN(resize_rows_match_formula);
    TL_RUN(paths_agree);
    TL_RUN(direct_rows_agree);
    TL_RUN(yuv422_descriptors);
    TL_RUN(threads_share_a_plan);
    return tl_test_finish();
}
