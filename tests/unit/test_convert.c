/* The scalar reference converter (src/core/convert.c): layouts built with the
 * public builders, each result checked against index arithmetic written out
 * here (never through tl_desc_offset), every bad input checked for its
 * status, its message and an untouched destination. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "numerics/elem.h"
#include "tl_test.h"

#define SENTINEL 0xA5

static float f32_at(const uint8_t *b, int64_t i) { float f; memcpy(&f, b + 4 * i, 4); return f; }
static uint16_t u16_at(const uint8_t *b, int64_t i) { uint16_t v; memcpy(&v, b + 2 * i, 2); return v; }
static void put_f32(uint8_t *b, int64_t i, float f) { memcpy(b + 4 * i, &f, 4); }


/* Random finite floats with some exact small integers among them. */
static void fill_f32(tl_rng *r, uint8_t *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        put_f32(b, i, i % 3 ? (float)((tl_rng_unit(r) - 0.5) * 200.0) : (float)tl_rng_range(r, -9, 9));
}

/* ---- layouts -------------------------------------------------------------------- */
/* NCHW f32 -> NHWC f32: dims matched by label (NHWC's dims are given N,H,W,C). */
TL_TEST(nchw_to_nhwc)
{
    enum { N = 2, C = 3, H = 4, W = 5 };
    tl_desc s, d;
    const int64_t sd[4] = {N, C, H, W}, dd[4] = {N, H, W, C};
    REQUIRE_STATUS(tl_desc_init(&s, "NCHW", TL_F32, sd, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "NHWC", TL_F32, dd, 4), TL_OK);
    uint8_t src[N * C * H * W * 4], dst[sizeof src];
    tl_rng r = tl_test_rng();
    fill_f32(&r, src, N * C * H * W);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    CHECK_STR_EQ(tl_last_error(), "");
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    float want = f32_at(src, ((n * C + c) * H + h) * W + w);
                    float got = f32_at(dst, ((n * H + h) * W + w) * C + c);
                    if (memcmp(&want, &got, 4)) FAILF("(%d,%d,%d,%d): %g != %g", n, c, h, w, got, want);
                }
}

/* NCHW f32 -> NCHW16c f16: blocked channels, channel padding zeroed. */
TL_TEST(nchw_to_nchw16c_f16)
{
    enum { N = 2, C = 20, H = 3, W = 2, CB = 16, C1 = 2 };
    tl_desc s, d;
    const int64_t dims[4] = {N, C, H, W};
    REQUIRE_STATUS(tl_desc_init(&s, "NCHW", TL_F32, dims, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "NCHW16c", TL_F16, dims, 4), TL_OK);
    REQUIRE_EQ_I64(d.size_bytes, N * C1 * H * W * CB * 2);
    uint8_t src[N * C * H * W * 4], dst[N * C1 * H * W * CB * 2];
    tl_rng r = tl_test_rng();
    fill_f32(&r, src, N * C * H * W);
    memset(dst, SENTINEL, sizeof dst);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C1 * CB; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    int64_t di = (((n * C1 + c / CB) * H + h) * W + w) * CB + c % CB;
                    uint16_t want = c < C ? tl_f32_to_f16(f32_at(src, ((n * C + c) * H + h) * W + w)) : 0;
                    if (u16_at(dst, di) != want)
                        FAILF("(%d,%d,%d,%d): 0x%04x != 0x%04x", n, c, h, w, u16_at(dst, di), want);
                }
}

/* TIDL-like borders: padded H and W; padding zeroed, or kept with TL_KEEP_PADDING. */
TL_TEST(padded_destination)
{
    enum { C = 2, H = 3, W = 4, PT = 1, PB = 2, PL = 1, PR = 1, HP = H + PT + PB, WP = W + PL + PR };
    tl_desc s, d;
    const int64_t dims[3] = {C, H, W}, lo[3] = {0, PT, PL}, hi[3] = {0, PB, PR};
    REQUIRE_STATUS(tl_desc_init(&s, "CHW", TL_I16, dims, 3), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "CHW", TL_I16, dims, 3), TL_OK);
    REQUIRE_STATUS(tl_desc_set_padding(&d, lo, hi), TL_OK);
    REQUIRE_EQ_I64(d.size_bytes, C * HP * WP * 2);
    int16_t src[C * H * W], dst[C * HP * WP];
    for (int i = 0; i < C * H * W; i++) src[i] = (int16_t)(i * 37 - 300);
    for (unsigned keep = 0; keep < 2; keep++) {
        memset(dst, SENTINEL, sizeof dst);
        REQUIRE_STATUS(tl_convert_ex(&s, src, sizeof src, &d, dst, sizeof dst, keep ? TL_KEEP_PADDING : 0), TL_OK);
        for (int c = 0; c < C; c++)
            for (int h = 0; h < HP; h++)
                for (int w = 0; w < WP; w++) {
                    int16_t got = dst[(c * HP + h) * WP + w], want;
                    bool pad = h < PT || h >= PT + H || w < PL || w >= PL + W;
                    if (!pad) want = src[(c * H + h - PT) * W + w - PL];
                    else want = keep ? (int16_t)(SENTINEL * 0x101) : 0;
                    if (got != want) FAILF("keep=%u (%d,%d,%d): %d != %d", keep, c, h, w, got, want);
                }
    }
}

/* A padded source read into a dense destination: padding is never read. */
TL_TEST(padded_source)
{
    enum { H = 3, W = 5, WP = 8 };
    tl_desc s, d;
    const int64_t dims[2] = {H, W}, lo[2] = {0, 0}, hi[2] = {0, WP - W};
    REQUIRE_STATUS(tl_desc_init(&s, "HW", TL_U8, dims, 2), TL_OK);
    REQUIRE_STATUS(tl_desc_set_padding(&s, lo, hi), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "HW", TL_F32, dims, 2), TL_OK);
    uint8_t src[H * WP], dst[H * W * 4];
    for (int i = 0; i < H * WP; i++) src[i] = (uint8_t)(i % WP < W ? i : 0xEE);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++) CHECK(f32_at(dst, h * W + w) == (float)src[h * WP + w]);
}

/* Broadcast (stride 0, read-only) source into a dense destination. */
TL_TEST(broadcast_source)
{
    tl_desc s, d;
    const int64_t dims[3] = {2, 3, 4}, strides[3] = {0, 1, 0};
    REQUIRE_STATUS(tl_desc_init_strided(&s, TL_I32, dims, strides, 3), TL_OK);
    CHECK(s.flags & TL_DESC_READONLY);
    REQUIRE_STATUS(tl_desc_init(&d, "CHW", TL_F64, dims, 3), TL_OK);
    int32_t src[3] = {-7, 11, 1 << 30};
    double dst[24];
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 4; k++) CHECK(dst[(i * 3 + j) * 4 + k] == (double)src[j]);
}

/* A strided source (positional match: unlabelled) with a transposition. */
TL_TEST(strided_transpose_positional)
{
    enum { R = 3, K = 4 };
    tl_desc s, d;
    const int64_t dims[2] = {R, K}, st[2] = {1, R}; /* column-major source */
    REQUIRE_STATUS(tl_desc_init_strided(&s, TL_U16, dims, st, 2), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "HW", TL_U8, dims, 2), TL_OK);
    uint16_t src[R * K];
    uint8_t dst[R * K];
    for (int i = 0; i < R * K; i++) src[i] = (uint16_t)(i * 40);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int i = 0; i < R; i++)
        for (int j = 0; j < K; j++) {
            int v = src[j * R + i];
            CHECK_EQ_I64(dst[i * K + j], v > 255 ? 255 : v);
        }
}

/* Packed i4 with an odd row: element k in byte k/2, low nibble first. */
TL_TEST(int4_rows)
{
    enum { H = 3, W = 5 };
    tl_desc s, d, back;
    const int64_t dims[2] = {H, W};
    REQUIRE_STATUS(tl_desc_init(&s, "HW", TL_I4, dims, 2), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "WH", TL_I8, (const int64_t[]){W, H}, 2), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&back, "HW", TL_I4, dims, 2), TL_OK);
    REQUIRE_EQ_I64(s.size_bytes, (H * W + 1) / 2);
    uint8_t src[(H * W + 1) / 2] = {0x21, 0xF3, 0x87, 0x0F, 0x5A, 0x96, 0x0C, 0x4B};
    int8_t dst[H * W];
    uint8_t rt[sizeof src];
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++) {
            int k = h * W + w, nib = (src[k / 2] >> (4 * (k % 2))) & 15;
            CHECK_EQ_I64(dst[w * H + h], nib >= 8 ? nib - 16 : nib);
        }
    memset(rt, 0, sizeof rt);
    REQUIRE_STATUS(tl_convert(&d, dst, sizeof dst, &back, rt, sizeof rt), TL_OK);
    CHECK_MEM_EQ(rt, src, sizeof rt - 1);
    CHECK_EQ_I64(rt[sizeof rt - 1] & 15, src[sizeof rt - 1] & 15); /* the last high nibble is slack */
}

/* f32 -> i8 affine with each rounding mode, ties included. */
TL_TEST(quantize_rounding_modes)
{
    enum { N = 12 };
    static const float x[N] = {0.25f, 0.75f, 1.25f, -0.25f, -0.75f, -1.25f, 100.0f, -100.0f, 0.1f, 0.0f, NAN, 3.0f};
    tl_desc s, d;
    const int64_t dims[1] = {N};
    REQUIRE_STATUS(tl_desc_init(&s, "W", TL_F32, dims, 1), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "W", TL_I8, dims, 1), TL_OK);
    for (int m = 0; m < 3; m++) {
        int8_t dst[N];
        d.quant = tl_test_quant(TL_Q_AFFINE, 3, 0.5f, 0, (int)m);
        REQUIRE_STATUS(tl_convert(&s, x, sizeof x, &d, dst, sizeof dst), TL_OK);
        for (int i = 0; i < N; i++) {
            double t = (double)(x[i] / 0.5f + 3.0f);
            double want = isnan(t) ? 3 : m == TL_ROUND_EVEN ? nearbyint(t) : m == TL_ROUND_AWAY ? round(t) : trunc(t);
            want = fmin(fmax(want, -128), 127);
            if (dst[i] != want) FAILF("mode %d: %g -> %d, expected %g", m, x[i], dst[i], want);
        }
    }
}

/* Make every NaN of a float buffer quiet: a conversion quiets signalling NaNs. */
static void quiet_nans(tl_dtype t, uint8_t *b, size_t n)
{
    if (t == TL_F32)
        for (size_t i = 0; i + 4 <= n; i += 4) {
            uint32_t v;
            memcpy(&v, b + i, 4);
            if ((v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu)) v |= 0x400000u;
            memcpy(b + i, &v, 4);
        }
    if (t == TL_F16 || t == TL_BF16)
        for (size_t i = 0; i + 2 <= n; i += 2) {
            uint16_t v, e = t == TL_F16 ? 0x7C00 : 0x7F80, q = t == TL_F16 ? 0x0200 : 0x0040;
            memcpy(&v, b + i, 2);
            if ((v & e) == e && (v & (e ^ 0x7FFF))) v |= q;
            memcpy(b + i, &v, 2);
        }
}

/* A -> B -> A is the identity for lossless pairs (random bits, NaNs quiet). */
static void roundtrip(const char *la, tl_dtype ta, const char *lb, tl_dtype tb, const int64_t *da,
                      const int64_t *db, int rank)
{
    tl_desc a, b;
    REQUIRE_STATUS(tl_desc_init(&a, la, ta, da, rank), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&b, lb, tb, db, rank), TL_OK);
    size_t na = (size_t)a.size_bytes, nb = (size_t)b.size_bytes;
    uint8_t *x = malloc(na), *y = malloc(nb), *z = malloc(na);
    REQUIRE(x && y && z);
    tl_rng r = tl_test_rng();
    tl_rng_bytes(&r, x, na);
    quiet_nans(ta, x, na);
    memset(z, SENTINEL, na);
    CHECK_STATUS(tl_convert(&a, x, na, &b, y, nb), TL_OK);
    CHECK_STATUS(tl_convert(&b, y, nb, &a, z, na), TL_OK);
    if (memcmp(z, x, na)) FAILF("%s %s -> %s %s -> back differs", la, tl_dtype_name(ta), lb, tl_dtype_name(tb));
    free(x);
    free(y);
    free(z);
}

TL_TEST(lossless_roundtrips)
{
    const int64_t nchw[4] = {2, 3, 5, 7}, nhwc[4] = {2, 5, 7, 3};
    roundtrip("NCHW", TL_I8, "NHWC", TL_F32, nchw, nhwc, 4);
    roundtrip("NCHW", TL_U8, "NCHW8c", TL_I16, nchw, nchw, 4);
    roundtrip("NCHW", TL_I16, "NHWC", TL_I32, nchw, nhwc, 4);
    roundtrip("NCHW", TL_U16, "NCHW4c", TL_F32, nchw, nchw, 4);
    roundtrip("NCHW", TL_F16, "NHWC", TL_F32, nchw, nhwc, 4);
    roundtrip("NCHW", TL_F16, "NCHW16c", TL_F64, nchw, nchw, 4);
    roundtrip("NCHW", TL_BF16, "NCHW16c", TL_F32, nchw, nchw, 4);
    roundtrip("NCHW", TL_I32, "NHWC", TL_F64, nchw, nhwc, 4);
    roundtrip("NCHW", TL_U32, "NHWC", TL_I64, nchw, nhwc, 4);
    roundtrip("NCHW", TL_F32, "NHWC", TL_F64, nchw, nhwc, 4);
    roundtrip("NCHW", TL_U64, "NHWC", TL_U64, nchw, nhwc, 4);
    roundtrip("NCHW", TL_I4, "NHWC", TL_I8, nchw, nhwc, 4);
}

/* CHW u8 -> NV12 writes the chroma of the top-left pixel of each 2x2 block;
 * NV12 -> CHW replicates it. Odd H and W round the chroma up. */
TL_TEST(nv12_chroma_representatives)
{
    enum { H = 5, W = 7, PITCH = 8, CH = 3, CW = 4 };
    tl_desc p, y;
    const int64_t dims[3] = {3, H, W};
    REQUIRE_STATUS(tl_desc_init(&p, "CHW", TL_U8, dims, 3), TL_OK);
    REQUIRE_STATUS(tl_desc_init_yuv420(&y, TL_YUV_NV12, H, W, PITCH, 0), TL_OK);
    REQUIRE_EQ_I64(y.size_bytes, H * PITCH + (CH - 1) * PITCH + 2 * CW);
    uint8_t planar[3 * H * W], nv12[H * PITCH + CH * PITCH], back[3 * H * W];
    for (int i = 0; i < 3 * H * W; i++) planar[i] = (uint8_t)(i * 7 + 1);
    memset(nv12, SENTINEL, sizeof nv12);
    REQUIRE_STATUS(tl_convert(&p, planar, sizeof planar, &y, nv12, sizeof nv12), TL_OK);
    for (int h = 0; h < H; h++)
        for (int w = 0; w < W; w++) CHECK_EQ_I64(nv12[h * PITCH + w], planar[h * W + w]);
    for (int h = 0; h < CH; h++)
        for (int w = 0; w < CW; w++)
            for (int c = 1; c < 3; c++)
                CHECK_EQ_I64(nv12[H * PITCH + h * PITCH + 2 * w + c - 1], planar[(c * H + 2 * h) * W + 2 * w]);
    REQUIRE_STATUS(tl_convert(&y, nv12, sizeof nv12, &p, back, sizeof back), TL_OK);
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < H; h++)
            for (int w = 0; w < W; w++) {
                int sh = c ? h & ~1 : h, sw = c ? w & ~1 : w;
                CHECK_EQ_I64(back[(c * H + h) * W + w], planar[(c * H + sh) * W + sw]);
            }
}

/* ---- bad inputs: status, message naming the field, destination untouched ---------- */
typedef struct bad_case {
    const char *what;
    const tl_desc *sd;
    const void *src;
    size_t src_len;
    const tl_desc *dd;
    size_t dst_len;
    tl_status want;
    const char *needle;
} bad_case;

static void check_bad(const bad_case *b, uint8_t *dst, size_t cap, bool null_dst)
{
    uint8_t before[512];
    memset(dst, SENTINEL, cap);
    memcpy(before, dst, cap);
    tl_status st = tl_convert(b->sd, b->src, b->src_len, b->dd, null_dst ? NULL : dst, b->dst_len);
    if (st != b->want)
        FAILF("%s: %s, expected %s (%s)", b->what, tl_status_str(st), tl_status_str(b->want), tl_last_error());
    if (!strstr(tl_last_error(), b->needle))
        FAILF("%s: message \"%s\" does not mention \"%s\"", b->what, tl_last_error(), b->needle);
    if (memcmp(before, dst, cap)) FAILF("%s: destination written", b->what);
    st = tl_convert_reference(b->sd, b->src, b->src_len, b->dd, null_dst ? NULL : dst, b->dst_len, 0);
    if (st != b->want) FAILF("%s (reference): %s", b->what, tl_status_str(st));
}

/* f32 NCHW whose row pitch (H stride) is a byte, not an element, multiple:
 * rows of W*4 + 1 bytes, channels rounded back to whole elements. */
static tl_status byte_pitched(tl_desc *d, const int64_t *dims)
{
    TL_TRY(tl_desc_init(d, "NCHW", TL_F32, dims, 4));
    tl_plane *p = &d->planes[0];
    int64_t row = dims[3] * 4 + 1, chan = (row * dims[2] + 3) / 4 * 4;
    p->axes[2].stride_bits = row * 8;
    p->axes[1].stride_bits = chan * 8;
    p->axes[0].stride_bits = chan * dims[1] * 8;
    TL_TRY(tl_desc_update_size(d));
    return tl_desc_validate(d);
}

TL_TEST(bad_inputs)
{
    tl_desc s, d, d4, rk, bc, pitched, hwcn, bad;
    const int64_t dims[4] = {1, 3, 2, 2}, dims4[4] = {1, 4, 2, 2}, nhwc4[4] = {1, 2, 2, 4};
    const int64_t st0[4] = {0, 1, 0, 0};
    REQUIRE_STATUS(tl_desc_init(&s, "NCHW", TL_F32, dims, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "NCHW", TL_U8, dims, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d4, "NCHW", TL_U8, dims4, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&hwcn, "NHWC", TL_U8, nhwc4, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&rk, "CHW", TL_U8, dims + 1, 3), TL_OK);
    REQUIRE_STATUS(tl_desc_init_strided(&bc, TL_U8, dims, st0, 4), TL_OK);
    REQUIRE_STATUS(byte_pitched(&pitched, dims), TL_OK);
    bad = d;
    bad.rank = 0;
    float src[64] = {0};
    uint8_t dst[256];
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    const bad_case cases[] = {
        {"NULL src_d", NULL, src, sl, &d, dl, TL_ERR_NULL, "src_d"},
        {"NULL dst_d", &s, src, sl, NULL, dl, TL_ERR_NULL, "dst_d"},
        {"NULL src", &s, NULL, sl, &d, dl, TL_ERR_NULL, "src"},
        {"C differs", &s, src, sl, &d4, 256, TL_ERR_MISMATCH, "src C=3, dst C=4"},
        {"C differs by label", &s, src, sl, &hwcn, 256, TL_ERR_MISMATCH, "dst C=4"},
        {"rank differs", &s, src, sl, &rk, 256, TL_ERR_MISMATCH, "rank"},
        {"short src", &s, src, sl - 1, &d, dl, TL_ERR_BUFFER_SMALL, "src_len=47 < 48"},
        {"short dst", &s, src, sl, &d, dl - 1, TL_ERR_BUFFER_SMALL, "dst_len=11 < 12"},
        {"broadcast dst", &s, src, sl, &bc, 256, TL_ERR_READONLY, "stride 0"},
        {"invalid dst", &s, src, sl, &bad, 256, TL_ERR_RANK, "rank"},
        {"byte-pitched src", &pitched, src, sizeof src, &d, dl, TL_ERR_UNSUPPORTED, "src planes[0].axes[2] (dim 2) stride_bits=72"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_bad(&cases[i], dst, sizeof dst, false);
    const bad_case null_dst = {"NULL dst", &s, src, sl, &d, dl, TL_ERR_NULL, "dst"};
    check_bad(&null_dst, dst, sizeof dst, true);
    /* a byte-pitched destination: also refused, and not written */
    tl_desc pf;
    REQUIRE_STATUS(byte_pitched(&pf, dims), TL_OK);
    const bad_case pd = {"byte-pitched dst", &s, src, sl, &pf, 256, TL_ERR_UNSUPPORTED, "dst planes[0].axes[2] (dim 2) stride_bits=72"};
    check_bad(&pd, dst, sizeof dst, false);
}

/* Positional fallback: labels that are not the same set match by position. */
TL_TEST(positional_when_labels_differ)
{
    tl_desc s, d;
    const int64_t dims[2] = {2, 3};
    REQUIRE_STATUS(tl_desc_init(&s, "HW", TL_U8, dims, 2), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "CW", TL_U8, dims, 2), TL_OK);
    uint8_t src[6] = {1, 2, 3, 4, 5, 6}, dst[6];
    REQUIRE_STATUS(tl_convert(&s, src, 6, &d, dst, 6), TL_OK);
    CHECK_MEM_EQ(dst, src, 6);
    d.labels[0] = 0; /* one side not fully labelled: by position too */
    REQUIRE_STATUS(tl_convert(&s, src, 6, &d, dst, 6), TL_OK);
    CHECK_MEM_EQ(dst, src, 6);
}

/* Random layouts among the blocked family, against index arithmetic. */
TL_TEST(random_blocked_f32_to_i16)
{
    static const char *words[] = {"NCHW", "NHWC", "NCHW4c", "NCHW8c", "NCHW16c"};
    tl_rng r = tl_test_rng();
    for (int it = 0; it < 40 && TL_TEST_FAILURES() == 0; it++) {
        int64_t N = tl_rng_range(&r, 1, 2), C = tl_rng_range(&r, 1, 19), H = tl_rng_range(&r, 1, 4),
                W = tl_rng_range(&r, 1, 5);
        int wi = tl_rng_pick(&r, 5);
        const int64_t nchw[4] = {N, C, H, W}, nhwc[4] = {N, H, W, C};
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_init(&s, "NCHW", TL_F32, nchw, 4), TL_OK);
        REQUIRE_STATUS(tl_desc_init(&d, words[wi], TL_I16, wi == 1 ? nhwc : nchw, 4), TL_OK);
        int64_t cb = wi < 2 ? 1 : (int64_t)4 << (wi - 2), c1 = (C + cb - 1) / cb;
        uint8_t *src = malloc((size_t)s.size_bytes), *dst = malloc((size_t)d.size_bytes);
        REQUIRE(src && dst);
        fill_f32(&r, src, N * C * H * W);
        CHECK_STATUS(tl_convert(&s, src, (size_t)s.size_bytes, &d, dst, (size_t)d.size_bytes), TL_OK);
        for (int64_t n = 0; n < N; n++)
            for (int64_t c = 0; c < c1 * cb; c++)
                for (int64_t h = 0; h < H; h++)
                    for (int64_t w = 0; w < W; w++) {
                        int64_t di = wi == 1 ? ((n * H + h) * W + w) * C + c
                                             : (((n * c1 + c / cb) * H + h) * W + w) * cb + c % cb;
                        if (wi == 1 && c >= C) continue;
                        int16_t got, want = 0;
                        memcpy(&got, dst + 2 * di, 2);
                        if (c < C) want = (int16_t)nearbyintf(f32_at(src, ((n * C + c) * H + h) * W + w));
                        if (got != want) FAILF("%s (%lld,%lld,%lld,%lld): %d != %d", words[wi], (long long)n,
                                               (long long)c, (long long)h, (long long)w, got, want);
                    }
        free(src);
        free(dst);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(nchw_to_nhwc);
    TL_RUN(nchw_to_nchw16c_f16);
    TL_RUN(padded_destination);
    TL_RUN(padded_source);
    TL_RUN(broadcast_source);
    TL_RUN(strided_transpose_positional);
    TL_RUN(int4_rows);
    TL_RUN(quantize_rounding_modes);
    TL_RUN(lossless_roundtrips);
    TL_RUN(nv12_chroma_representatives);
    TL_RUN(bad_inputs);
    TL_RUN(positional_when_labels_differ);
    TL_RUN(random_blocked_f32_to_i16);
    return tl_test_finish();
}
