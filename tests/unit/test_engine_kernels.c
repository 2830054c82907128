/* Every kernel in the registry, on every ISA path this machine has, against
 * the element rule (elem.h) or index arithmetic written out here: convert rows
 * over every 8/16-bit pattern and f32 edge values (NaN payloads, infinities,
 * ties, denormals, clamp edges) under every quantization kind and rounding
 * mode; move kernels over sizes around their vector widths with sentinels. */
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/engine.h"
#include "kernels/interleave/interleave_lut.h"
#include "kernels/move/move.h"
#if defined(__ARM_NEON) && !defined(__x86_64__)
#include "kernels/convert/affine8_neon.h" /* tl_affine8_row__neon */
#endif
#include "tl_engine_test.h"
#include "tl_test.h"


/* The next float toward +infinity (finite f). */
static float next_up(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if (f == 0.0f) u = 1;
    else if (f > 0.0f) u++;
    else u--;
    memcpy(&f, &u, 4);
    return f;
}

/* Source patterns: every code of an 8/16-bit type (fewer than all: every
 * high part, with low bits that vary, so signs, infinities and NaNs are
 * there); f32 specials and randoms. */
static size_t make_source(tl_rng *r, int t, uint8_t *buf, size_t cap_elems)
{
    size_t n = 0;
    if (t != TL_F32) {
        size_t all = (size_t)1 << tl_dtype_bits((tl_dtype)t), step = 1;
        while (all / step > cap_elems) step *= 2;
        for (size_t i = 0; i < all / step; i++, n++) {
            size_t v = i * step + (i * 7 + 3) % step;
            memcpy(buf + n * bytes_of(t), &v, bytes_of(t));
        }
        return n;
    }
    static const uint32_t specials[] = {
        0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x7FBFFFFFu, 0xFFA00000u, 0x7F800000u, 0xFF800000u,
        0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
        0x477FEFFFu, 0x477FF000u, 0x33000000u, 0x387FC000u, 0x3F7F8000u, 0x3F808000u, 0x3F818000u,
    };
    for (size_t k = 0; k < sizeof specials / sizeof specials[0] && n < cap_elems; k++, n++)
        memcpy(buf + 4 * n, &specials[k], 4);
    for (int k = -300; k <= 300 && n + 2 <= cap_elems; k++) { /* ties and near-ties around integers */
        float f = (float)k * 0.5f;
        memcpy(buf + 4 * n++, &f, 4);
        f = next_up(f);
        memcpy(buf + 4 * n++, &f, 4);
    }
    while (n < cap_elems) {
        uint32_t u = (uint32_t)tl_rng_next(r);
        if (n % 3 == 0) { float f = (float)((tl_rng_unit(r) - 0.5) * 600.0); memcpy(&u, &f, 4); }
        memcpy(buf + 4 * n++, &u, 4);
    }
    return n;
}

static const tl_quant *quant_set(int i, tl_quant *q)
{
    switch (i) {
    case 0: return NULL;
    case 1: *q = tl_test_quant(TL_Q_AFFINE, 0, 1.0f, 0, TL_ROUND_EVEN); return q;
    case 2: *q = tl_test_quant(TL_Q_AFFINE, -128, 0.0039215689f, 0, TL_ROUND_AWAY); return q;
    case 3: *q = tl_test_quant(TL_Q_AFFINE, 3, 0.5f, 0, TL_ROUND_ZERO); return q;
    case 4: *q = tl_test_quant(TL_Q_INV, -7, 25.0f, 0, TL_ROUND_ZERO); return q;
    case 5: *q = tl_test_quant(TL_Q_INV, 100, 0.3f, 0, TL_ROUND_EVEN); return q;
    case 6: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, 5, TL_ROUND_AWAY); return q;
    case 7: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, -3, TL_ROUND_EVEN); return q;
    default: *q = tl_test_quant(TL_Q_DFP, 0, 0.0f, -128, TL_ROUND_ZERO); return q; /* ldexpf split */
    }
}
#define NQUANT 9


TL_TEST(convert_rows_exhaustive)
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
        if (!tl_cpu_runs(kr->isa, kr->feat)) continue;
        size_t n = make_source(&r, kr->sdt, src, quick() ? 4096 : CAP - 64);
        unsigned es = bytes_of(kr->sdt), ed = bytes_of(kr->ddt);
        for (int qs = 0; qs < NQUANT; qs++)
            for (int qd = 0; qd < NQUANT; qd++) {
                if ((qs && !is_intt(kr->sdt)) || (qd && !is_intt(kr->ddt))) continue;
                if (quick() && (qs + qd) % 3) continue;
                tl_quant sq, dq;
                tl_cvt cv;
                tl_cvt_init_dt(&cv, (tl_dtype)kr->sdt, quant_set(qs, &sq), (tl_dtype)kr->ddt, quant_set(qd, &dq));
                if (cv.path == TL_EP_COPY || !cv.fast) continue;
                size_t off = (size_t)tl_rng_range(&r, 0, 17), len = n - off; /* odd lengths, unaligned */
                memset(out, 0xA5, len * ed + 64);
                kr->fn(src + off * es, 0, out, 0, 1, len, &cv);
                for (size_t i = 0; i < len; i++) {
                    uint64_t raw = tl_load_raw(src + (off + i) * es, 0, es * 8);
                    tl_store_raw(want, (int64_t)i * ed * 8, ed * 8, tl_elem_convert_raw(&cv.op, raw));
                }
                for (int g = 0; g < 64; g++) want[len * ed + (size_t)g] = 0xA5;
                for (size_t i = 0; i < len * ed + 64; i++)
                    if (out[i] != want[i]) {
                        uint64_t raw = tl_load_raw(src + (off + i / ed) * es, 0, es * 8);
                        FAILF("%s quant %d->%d: element %zu (src raw 0x%llx): byte %zu 0x%02x != 0x%02x", kr->name,
                              qs, qd, i / ed, (unsigned long long)raw, i % ed, out[i], want[i]);
                        break;
                    }
                checked++;
            }
    }
    CHECK(checked > 100);
    free(src);
    free(out);
    free(want);
}

/* 8-bit tables that are an affine map in 16-bit fixed point (tl_cvt
 * affine8): found where the real map is (scales whose ratio is a power of
 * two, any zero points: RKNN's zp -128 with scale 1, TIDL's scale 0.5 both
 * ways, TensorRT's scale 2), and every row kernel of this CPU gives the
 * rule's answers, with the map or without it: all 256 codes, odd lengths,
 * unaligned starts, in place, nothing written past the row. */
TL_TEST(convert_affine8)
{
    const tl_row_kernel *ks;
    size_t nk;
    tl_registry_rows(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const tl_dtype t8[] = {TL_U8, TL_I8};
    static const int zps[][2] = {{0, -128}, {-128, 0}, {5, -3}, {100, -100}, {0, 0}, {127, -128}};
    static const float scales[][2] = {{1.0f, 1.0f}, {0.5f, 1.0f}, {1.0f, 0.5f}, {2.0f, 1.0f}, {1.0f, 2.0f},
                                      {0.25f, 4.0f}, {0.0039215689f, 0.0039215689f}, {0.02f, 0.05f},
                                      {1.0f, 3.0f}};
    static const int dyadic = 6; /* scales[0..5]: the ratio is a power of two */
    static const tl_round rounds[] = {TL_ROUND_EVEN, TL_ROUND_AWAY, TL_ROUND_ZERO};
    uint8_t src[600], out[600 + 64], want[600];
    int found = 0, checked = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (size_t z = 0; z < sizeof zps / sizeof zps[0]; z++)
                for (int sc = 0; sc < (int)(sizeof scales / sizeof scales[0]); sc++)
                    for (int rd = 0; rd < 3; rd++) {
                        tl_quant sq = tl_test_quant(TL_Q_AFFINE, zps[z][0], scales[sc][0], 0, TL_ROUND_EVEN);
                        tl_quant dq = tl_test_quant(TL_Q_AFFINE, zps[z][1], scales[sc][1], 0, rounds[rd]);
                        tl_cvt cv;
                        tl_cvt_init_dt(&cv, t8[a], &sq, t8[b], &dq);
                        if (!cv.lut8) continue;
                        int constant = 1; /* every answer saturated: any map fits */
                        for (int c = 1; c < 256; c++) constant &= cv.lut[c] == cv.lut[0];
                        if (sc < dyadic && rounds[rd] == TL_ROUND_EVEN && !constant && !cv.affine8)
                            FAILF("no affine map: %d -> %d zp %d -> %d scale %g -> %g", a, b, zps[z][0], zps[z][1],
                                  scales[sc][0], scales[sc][1]);
                        found += cv.affine8;
                        for (size_t k = 0; k < nk; k++) {
                            const tl_row_kernel *kr = &ks[k];
                            if (kr->sdt != t8[a] || kr->ddt != t8[b] || !tl_cpu_runs(kr->isa, kr->feat)) continue;
                            for (int i = 0; i < 600; i++) src[i] = (uint8_t)(i < 256 ? i : tl_rng_range(&r, 0, 255));
                            size_t off = (size_t)tl_rng_range(&r, 0, 63), len = 600 - off - (size_t)tl_rng_range(&r, 0, 63);
                            for (size_t i = 0; i < len; i++) want[i] = (uint8_t)tl_elem_convert_raw(&cv.op, src[off + i]);
                            memset(out, 0xA5, sizeof out);
                            kr->fn(src + off, 0, out + 1, 0, 1, len, &cv);
                            if (memcmp(out + 1, want, len) != 0 || out[0] != 0xA5 || out[len + 1] != 0xA5)
                                FAILF("%s zp %d -> %d scale %g -> %g round %d: wrong row", kr->name, zps[z][0], zps[z][1],
                                      scales[sc][0], scales[sc][1], rd);
                            kr->fn(src + off, 0, src + off, 0, 1, len, &cv); /* in place */
                            if (memcmp(src + off, want, len) != 0)
                                FAILF("%s zp %d -> %d scale %g -> %g round %d: wrong in place", kr->name, zps[z][0],
                                      zps[z][1], scales[sc][0], scales[sc][1], rd);
                            checked++;
                        }
                    }
    CHECK(found >= 100);
    CHECK(checked > 300);
    /* TIDL's scale 0.5: into i8 twice the value (no shift), back half of it
     * rounded to even (a shift of 1) */
    tl_quant none = tl_test_quant(TL_Q_AFFINE, 0, 1.0f, 0, TL_ROUND_EVEN);
    tl_quant half = tl_test_quant(TL_Q_AFFINE, 0, 0.5f, 0, TL_ROUND_EVEN);
    tl_cvt cv;
    tl_cvt_init_dt(&cv, TL_U8, &none, TL_I8, &half);
    CHECK(cv.affine8 && cv.affine8_mul == 2 && cv.affine8_add == 0 && cv.affine8_shift == 0);
    tl_cvt_init_dt(&cv, TL_I8, &half, TL_U8, &none);
    CHECK(cv.affine8 && cv.affine8_mul == 1 && cv.affine8_shift == 1);
    CHECK(cv.lut[3] == 2 && cv.lut[5] == 2 && cv.lut[7] == 4); /* 1.5 -> 2, 2.5 -> 2, 3.5 -> 4 */
}

/* The table kernels against the element rule, for every quantization of
 * u8/i8 sources into u8/i8 (one-byte answers) and into f16, bf16 and i16
 * (two-byte answers): whole table, odd lengths (the masked last step ends
 * in either half of a vector's answers), unaligned starts, two rows (the
 * second row backward, bytes between rows kept), in place where the sizes
 * match, and nothing written past the rows. */
TL_TEST(convert_lut_kernels)
{
    const tl_row_kernel *ks;
    size_t nk;
    tl_registry_luts(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const tl_dtype t8[] = {TL_U8, TL_I8}, into[2][3] = {{TL_U8, TL_I8}, {TL_F16, TL_BF16, TL_I16}};
    enum { N = 600, GAP = 5, OUT = 2 * (2 * N + GAP) + 2 };
    uint8_t src[2 * N], out[OUT], want[OUT];
    int checked[2] = {0, 0};
    for (size_t k = 0; k < nk; k++) {
        const tl_row_kernel *kr = &ks[k];
        if (tl_find_lut(kr->isa) != kr) continue; /* not runnable here (no VBMI) */
        for (size_t ed = 1; ed <= 2; ed++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 3 && into[ed - 1][b]; b++)
                    for (int qs = 0; qs < NQUANT; qs++)
                        for (int qd = 0; qd < NQUANT; qd++) {
                            tl_quant sq, dq;
                            tl_cvt cv;
                            tl_dtype d = into[ed - 1][b];
                            if (qd && !is_intt(d)) continue;
                            tl_cvt_init_dt(&cv, t8[a], quant_set(qs, &sq), d, quant_set(qd, &dq));
                            if (!(ed == 1 ? cv.lut8 : cv.lut16)) continue;
                            for (int i = 0; i < 2 * N; i++) src[i] = (uint8_t)(i < 256 ? i : tl_rng_range(&r, 0, 255));
                            size_t off = (size_t)tl_rng_range(&r, 0, 63), len = N - off - (size_t)tl_rng_range(&r, 0, 63);
                            /* row 0 at out + 1 + ds, row 1 at out + 1 (ds < 0 from the first) */
                            const ptrdiff_t ds = (ptrdiff_t)(len * ed + GAP);
                            memset(want, 0xA5, sizeof want);
                            for (size_t row = 0; row < 2; row++)
                                for (size_t i = 0; i < len; i++)
                                    tl_store_raw(want + 1 + (1 - row) * (size_t)ds, (int64_t)(8 * ed * i), 8 * ed,
                                                 tl_elem_convert_raw(&cv.op, src[row * N + off + i]));
                            memset(out, 0xA5, sizeof out);
                            kr->fn(src + off, N, out + 1 + ds, -ds, 2, len, &cv);
                            if (memcmp(out, want, sizeof out) != 0)
                                FAILF("%s: %s -> %s quant %d -> %d, %zu codes: wrong", kr->name, tl_dtype_name(t8[a]),
                                      tl_dtype_name(d), qs, qd, len);
                            if (ed == 1) {
                                kr->fn(src + off, 0, src + off, 0, 1, len, &cv); /* in place */
                                CHECK(memcmp(src + off, want + 1 + ds, len) == 0);
                            }
                            checked[ed - 1]++;
                        }
    }
    CHECK(checked[0] > 100);
    CHECK(checked[1] > 10);
    /* a raw copy and a plain saturation take no table; nor does an 8-bit
     * code widened to i16 unquantized (a sign or zero extension) */
    tl_cvt cv;
    tl_cvt_init_dt(&cv, TL_U8, NULL, TL_I8, NULL);
    CHECK(!cv.lut8 && !cv.lut16);
    tl_cvt_init_dt(&cv, TL_U8, NULL, TL_U8, NULL);
    CHECK(!cv.lut8 && !cv.lut16);
    tl_cvt_init_dt(&cv, TL_I8, NULL, TL_I16, NULL);
    CHECK(!cv.lut16);
    tl_cvt_init_dt(&cv, TL_U8, NULL, TL_F16, NULL);
    CHECK(cv.lut16 && cv.lut[255] == 0xF8 && cv.lut_hi[255] == 0x5B); /* 255 = 0x5BF8 */
}

/* One call of a row kernel on `rows` rows (kernels.h tl_row_fn): every
 * kernel of this CPU, table ones too, and the paths its constants choose
 * (integer saturation, the 8-bit affine map, the f32 pipeline): rows of odd
 * length with elements skipped between source rows, bytes left between
 * destination rows, the destination going forward and backward, and in
 * place. Each row is the element rule's and no byte between rows changes. */
TL_TEST(convert_rows_strided)
{
    enum { ROWS = 5, N = 83, SKIP = 3, GAP = 7 }; /* N: 4 vectors of 16, one, a tail */
    enum { SRC = ROWS * (N + SKIP) * 4, DST = ROWS * (N * 4 + GAP) };
    const tl_row_kernel *sets[2];
    size_t counts[2];
    tl_registry_rows(&sets[0], &counts[0]);
    tl_registry_luts(&sets[1], &counts[1]);
    tl_rng r = tl_test_rng();
    uint8_t src[SRC], buf[SRC], out[DST], want[DST];
    int checked = 0;
    for (int set = 0; set < 2; set++)
        for (size_t k = 0; k < counts[set] && TL_TEST_FAILURES() == 0; k++) {
            const tl_row_kernel *kr = &sets[set][k];
            if (!tl_cpu_runs(kr->isa, kr->feat) || (set == 1 && tl_find_lut(kr->isa) != kr)) continue;
            size_t es = bytes_of(kr->sdt), ed = bytes_of(kr->ddt);
            ptrdiff_t ss = (ptrdiff_t)((N + SKIP) * es), ds = (ptrdiff_t)(N * ed + GAP);
            for (size_t i = 0; i < SRC; i++) src[i] = (uint8_t)tl_rng_next(&r);
            make_source(&r, kr->sdt, src, ROWS * (N + SKIP));
            for (int qs = 0; qs < NQUANT; qs++)
                for (int qd = 0; qd < NQUANT; qd++) {
                    if ((qs && !is_intt(kr->sdt)) || (qd && !is_intt(kr->ddt)) || (qs + qd) % 2) continue;
                    tl_quant sq, dq;
                    tl_cvt cv;
                    tl_cvt_init_dt(&cv, (tl_dtype)kr->sdt, quant_set(qs, &sq), (tl_dtype)kr->ddt, quant_set(qd, &dq));
                    if (cv.path == TL_EP_COPY || !cv.fast || (set == 1 && !cv.lut8 && !cv.lut16)) continue;
                    for (int back = 0; back < 2; back++) {
                        memset(want, 0xA5, sizeof want);
                        for (size_t row = 0; row < ROWS; row++) {
                            uint8_t *w = want + (back ? ROWS - 1 - row : row) * (size_t)ds;
                            for (size_t i = 0; i < N; i++)
                                tl_store_raw(w, (int64_t)(i * ed * 8), ed * 8,
                                             tl_elem_convert_raw(&cv.op, tl_load_raw(src + row * (size_t)ss + i * es, 0,
                                                                                     es * 8)));
                        }
                        memset(out, 0xA5, sizeof out);
                        kr->fn(src, ss, back ? out + (ROWS - 1) * ds : out, back ? -ds : ds, ROWS, N, &cv);
                        if (memcmp(out, want, sizeof out) != 0)
                            FAILF("%s quant %d->%d, %s rows: wrong", kr->name, qs, qd, back ? "backward" : "forward");
                    }
                    if (es == ed) { /* in place: the skipped elements stay */
                        memcpy(buf, src, sizeof buf);
                        kr->fn(buf, ss, buf, ss, ROWS, N, &cv);
                        for (size_t row = 0; row < ROWS; row++) {
                            const uint8_t *b = buf + row * (size_t)ss, *w = want + (ROWS - 1 - row) * (size_t)ds;
                            if (memcmp(b, w, N * ed) != 0 || memcmp(b + N * es, src + row * (size_t)ss + N * es,
                                                                    row + 1 < ROWS ? SKIP * es : 0) != 0)
                                FAILF("%s quant %d->%d: row %zu in place", kr->name, qs, qd, row);
                        }
                    }
                    checked++;
                }
        }
    CHECK(checked > 50);
}

/* The 4-row form (kernels.h): each group of 4 source rows into one row of
 * 4-byte groups, against the scalar rule per element; source rows with
 * skipped elements, destination rows with gaps, forward and backward, every
 * quantization of the 8-bit codes (NaN, infinities, ties, saturation). */
TL_TEST(convert_group4)
{
    enum { ROWS = 8, N = 83, SKIP = 3, GAP = 5 }; /* N: whole vectors of 8 and 16, and a tail */
    enum { SRC = ROWS * (N + SKIP) * 4, DST = ROWS / 4 * (N * 4 + GAP) };
    const tl_row_kernel *set;
    size_t count;
    tl_registry_group4(&set, &count);
    tl_rng r = tl_test_rng();
    uint8_t src[SRC], out[DST], want[DST];
    int checked = 0;
    const ptrdiff_t ss = (N + SKIP) * 4, ds = N * 4 + GAP;
    for (size_t k = 0; k < count && TL_TEST_FAILURES() == 0; k++) {
        const tl_row_kernel *kr = &set[k];
        if (!tl_cpu_runs(kr->isa, kr->feat)) continue;
        CHECK(kr->sdt == TL_F32 && bytes_of(kr->ddt) == 1);
        make_source(&r, kr->sdt, src, ROWS * (N + SKIP));
        for (int qd = 0; qd < NQUANT; qd++) {
            tl_quant dq;
            tl_cvt cv;
            tl_cvt_init_dt(&cv, TL_F32, NULL, (tl_dtype)kr->ddt, quant_set(qd, &dq));
            for (int back = 0; back < 2; back++) {
                memset(want, 0xA5, sizeof want);
                for (size_t row = 0; row < ROWS; row++) {
                    uint8_t *w = want + (back ? ROWS / 4 - 1 - row / 4 : row / 4) * (size_t)ds + row % 4;
                    for (size_t i = 0; i < N; i++)
                        w[4 * i] = (uint8_t)tl_elem_convert_raw(&cv.op, tl_load_raw(src + row * (size_t)ss + i * 4, 0, 32));
                }
                memset(out, 0xA5, sizeof out);
                kr->fn(src, ss, back ? out + (ROWS / 4 - 1) * ds : out, back ? -ds : ds, ROWS, N, &cv);
                if (memcmp(out, want, sizeof out) != 0)
                    FAILF("%s quant %d, %s groups: wrong", kr->name, qd, back ? "backward" : "forward");
            }
            checked++;
        }
    }
#if defined(__x86_64__) || defined(_M_X64)
    CHECK(checked > 0 || !tl_cpu_runs(TL_ISA_AVX2, 0));
#elif defined(__ARM_NEON)
    CHECK(checked > 0);
#endif
    (void)checked;
}

/* ---- move kernels ------------------------------------------------------------------ */
#define PAD 48

/* One call with plain stores (stream 0) or non-temporal ones allowed (1); the
 * destination starts `off` bytes past a 64-byte line (0: whole-line
 * streaming can run; else the kernel must see that it cannot). */
static void check_t2d_off(const tl_t2d_kernel *k, tl_rng *r, size_t n0, size_t n1, ptrdiff_t ss0, ptrdiff_t ds1,
                          int stream, size_t off)
{
    size_t e = k->esize;
    size_t sl = (size_t)ss0 * n0, dl = (size_t)ds1 * n1, cap = (dl + 2 * PAD + 16 + off + 63) / 64 * 64;
    uint8_t *src = malloc(sl + 1), *base = aligned_alloc(64, cap), *want = malloc(dl + 2 * PAD);
    uint8_t *out = base + 16 + off; /* out + PAD is off bytes past a line */
    tl_rng_bytes(r, src, sl);
    memset(out, 0xA5, dl + 2 * PAD);
    memset(want, 0xA5, dl + 2 * PAD);
    for (size_t i1 = 0; i1 < n1; i1++)
        for (size_t i0 = 0; i0 < n0; i0++)
            memcpy(want + PAD + (ptrdiff_t)i1 * ds1 + i0 * e, src + (ptrdiff_t)i0 * ss0 + i1 * e, e);
    k->fn(src, ss0, out + PAD, ds1, n0, n1, stream);
    for (size_t i = 0; i < dl + 2 * PAD; i++)
        if (out[i] != want[i]) {
            FAILF("%s n0=%zu n1=%zu ss0=%td ds1=%td stream=%d: byte %td: 0x%02x != 0x%02x", k->name, n0, n1, ss0,
                  ds1, stream, (ptrdiff_t)i - PAD, out[i], want[i]);
            break;
        }
    free(src);
    free(base);
    free(want);
}

static void check_t2d_once(const tl_t2d_kernel *k, tl_rng *r, size_t n0, size_t n1, ptrdiff_t ss0, ptrdiff_t ds1,
                           int stream)
{
    check_t2d_off(k, r, n0, n1, ss0, ds1, stream, 0);
}

/* Plain and streamed; a tiled transpose also with every combination of the
 * policy's flags (TL_T2D_DST_ALIAS, TL_T2D_SRC_ALIAS, TL_T2D_NARROW512
 * that sends the AVX-512 bytes to AVX2, and in cache TL_T2D_SPLIT that
 * stores rows off lines as they fall), whatever the strides, and streamed with runs of
 * 1 and 8 lines per far row (2 and 4 too without other flags): each flag
 * only reorders the kernel's loads and stores. */
static void check_t2d_at(const tl_t2d_kernel *k, tl_rng *r, size_t n0, size_t n1, ptrdiff_t ss0, ptrdiff_t ds1)
{
    bool tiled = k->shape == TL_T2D_ANY;
    int flags = tiled ? TL_T2D_STREAM | TL_T2D_DST_ALIAS | TL_T2D_SRC_ALIAS | TL_T2D_SPLIT | TL_T2D_NARROW512
                      : TL_T2D_STREAM;
    for (int stream = 0; stream <= flags; stream++) {
        if ((stream & ~flags) != 0) continue;
        if ((stream & TL_T2D_SPLIT) && (stream & TL_T2D_STREAM)) continue; /* (in cache only) */
        check_t2d_once(k, r, n0, n1, ss0, ds1, stream);
        if (!tiled || !(stream & TL_T2D_STREAM)) continue;
        for (int log2_run = stream == TL_T2D_STREAM ? 1 : 3; log2_run <= 3; log2_run++)
            check_t2d_once(k, r, n0, n1, ss0, ds1, stream | log2_run << TL_T2D_RUN_SHIFT);
    }
}

static void check_t2d(const tl_t2d_kernel *k, tl_rng *r, size_t n0, size_t n1)
{
    size_t e = k->esize;
    ptrdiff_t ss0 = (ptrdiff_t)((n1 + (size_t)tl_rng_range(r, 0, 3)) * e);
    ptrdiff_t ds1 = (ptrdiff_t)((n0 + (size_t)tl_rng_range(r, 0, 3)) * e);
    if (k->shape == TL_T2D_ILV && tl_rng_range(r, 0, 1)) ds1 = (ptrdiff_t)(n0 * e); /* packed */
    check_t2d_at(k, r, n0, n1, ss0, ds1);
}

/* Strides that select the kernels' other paths: rows a multiple of 512 or
 * 2048 bytes apart (L1 staging, 8-row strips), destination rows of exactly
 * 16 bytes (whole-register stores), rows off 64-byte lines, and long rows
 * off lines. */
TL_TEST(move_kernels_strides)
{
    const tl_t2d_kernel *ks;
    size_t nk;
    tl_registry_t2d(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const size_t sizes[][2] = {{64, 128}, {128, 64}, {72, 200}, {200, 72}, {16, 300}, {300, 16}, {8, 130}, {130, 8}, {600, 40}, {16, 40}, {70, 300}};
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        if (!tl_cpu_runs(ks[k].isa, ks[k].feat) || ks[k].shape != TL_T2D_ANY) continue;
        ptrdiff_t e = ks[k].esize;
        for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++) {
            size_t n0 = sizes[a][0], n1 = sizes[a][1];
            ptrdiff_t s_min = (ptrdiff_t)n1 * e, d_min = (ptrdiff_t)n0 * e;
            ptrdiff_t s_al = (s_min + 2047) / 2048 * 2048, d_al = (d_min + 2047) / 2048 * 2048;
            check_t2d_at(&ks[k], &r, n0, n1, s_al, d_min);         /* aliased source rows */
            check_t2d_at(&ks[k], &r, n0, n1, s_min, d_al);         /* aliased destination rows */
            check_t2d_at(&ks[k], &r, n0, n1, s_al, (d_min + 511) / 512 * 512);
            check_t2d_at(&ks[k], &r, n0, n1, s_min + 3 * e, d_min + 5 * e); /* off the lines */
            if (n0 * (size_t)e == 16) {
                check_t2d_at(&ks[k], &r, n0, n1, s_min, 16);
                /* dense 16-byte pixels from aliased planes, streamed from a line's middle */
                check_t2d_off(&ks[k], &r, n0, n1, s_al, 16, TL_T2D_STREAM | TL_T2D_SRC_ALIAS, 16);
            }
        }
        /* long destination rows (planes) off line boundaries, each row by
         * another amount: streamed, their lines are assembled across blocks */
        check_t2d_at(&ks[k], &r, 1100, 20, 20 * e, 1105 * e);
        check_t2d_at(&ks[k], &r, 4200, 20, 21 * e, (4200 * e + 63) / 64 * 64 + e);
        check_t2d_at(&ks[k], &r, 4200, 16, 16 * e, (4200 * e + 63) / 64 * 64 + 3 * e); /* dense pixels: prefetched */
    }
}

/* 64x64 feature maps: planes exactly 4 KiB apart (every plane's row in one L1
 * set), C = 16, 64 and 80, both directions, plain and streamed: the paths the
 * kernels take for aliasing planes. */
TL_TEST(move_kernels_planes)
{
    const tl_t2d_kernel *ks;
    size_t nk;
    tl_registry_t2d(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const size_t channels[] = {16, 64, 80};
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        if (!tl_cpu_runs(ks[k].isa, ks[k].feat) || ks[k].shape != TL_T2D_ANY) continue;
        ptrdiff_t e = ks[k].esize, plane = 4096;
        for (size_t a = 0; a < sizeof channels / sizeof channels[0]; a++) {
            size_t c = channels[a], hw = (size_t)plane / (size_t)e;
            check_t2d_at(&ks[k], &r, c, hw, plane, (ptrdiff_t)c * e); /* NCHW -> NHWC */
            check_t2d_at(&ks[k], &r, hw, c, (ptrdiff_t)c * e, plane); /* NHWC -> NCHW */
            check_t2d_at(&ks[k], &r, c, hw - 37, plane, (ptrdiff_t)c * e); /* rows ending off a block */
        }
    }
}

TL_TEST(move_kernels)
{
    const tl_t2d_kernel *ks;
    size_t nk;
    tl_registry_t2d(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 100, 130};
    const size_t ns = sizeof sizes / sizeof sizes[0];
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        if (!tl_cpu_runs(ks[k].isa, ks[k].feat)) continue;
        for (size_t a = 0; a < ns; a++)
            for (size_t b = 0; b < ns; b++) {
                if (quick() && (a + b) % 4) continue;
                size_t n0 = sizes[a], n1 = sizes[b];
                if (ks[k].shape == TL_T2D_ILV || ks[k].shape == TL_T2D_PACK) n0 = ks[k].param;
                if (ks[k].shape == TL_T2D_DILV || ks[k].shape == TL_T2D_UNPACK) n1 = ks[k].param;
                check_t2d(&ks[k], &r, n0, n1);
            }
    }
}

TL_TEST(interleave_zero_lanes)
{
    const tl_ilv_kernel *ks;
    size_t nk;
    tl_registry_ilv(&ks, &nk);
    tl_rng r = tl_test_rng();
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        const tl_ilv_kernel *kl = &ks[k];
        if (!tl_cpu_runs(kl->isa, kl->feat)) continue;
        for (size_t n = 0; n < 200; n += (size_t)tl_rng_range(&r, 1, 9)) {
            size_t e = kl->esize, c = kl->c;
            uint8_t *pl[4] = {NULL, NULL, NULL, NULL}, *out = malloc(n * c * e + 2 * PAD);
            const uint8_t *cpl[4];
            unsigned mask = (unsigned)tl_rng_range(&r, 0, (1 << c) - 1); /* zero lanes */
            for (size_t i = 0; i < c; i++) {
                pl[i] = malloc(n * e + 1);
                tl_rng_bytes(&r, pl[i], n * e);
                cpl[i] = (mask >> i) & 1 ? NULL : pl[i];
            }
            memset(out, 0xA5, n * c * e + 2 * PAD);
            kl->fn(cpl, out + PAD, n, (int)(n & 1)); /* plain and streamed stores */
            for (size_t i = 0; i < n * c * e + 2 * PAD; i++) {
                uint8_t w = 0xA5;
                if (i >= PAD && i < PAD + n * c * e) {
                    size_t j = i - PAD, px = j / (c * e), ch = j / e % c;
                    w = cpl[ch] ? cpl[ch][px * e + j % e] : 0;
                }
                if (out[i] != w) {
                    FAILF("%s n=%zu zero-lane mask %u: byte %zu: 0x%02x != 0x%02x", kl->name, n, mask, i, out[i], w);
                    break;
                }
            }
            for (size_t i = 0; i < c; i++) free(pl[i]);
            free(out);
        }
    }
}

TL_TEST(repack_and_fill)
{
    const tl_repack_kernel *ks;
    size_t nk;
    tl_registry_repack(&ks, &nk);
    tl_rng r = tl_test_rng();
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        const tl_repack_kernel *kp = &ks[k];
        if (!tl_cpu_has(kp->isa)) continue;
        size_t e = kp->esize, lanes = (size_t)kp->h + kp->cs + kp->t;
        for (size_t n = 0; n < 300; n += (size_t)tl_rng_range(&r, 1, 13)) {
            /* out + PAD on a line: streamed (nt) and plain calls alike */
            size_t cap = (n * lanes * e + 2 * PAD + 16 + 63) / 64 * 64;
            uint8_t *src = malloc(n * kp->cs * e + 1), *base = aligned_alloc(64, cap), *out = base + 16;
            int nt = (int)(n % 2);
            tl_rng_bytes(&r, src, n * kp->cs * e);
            memset(out, 0xA5, n * lanes * e + 2 * PAD);
            kp->fn(src, out + PAD, n, nt);
            tl_store_fence();
            for (size_t i = 0; i < n * lanes * e + 2 * PAD; i++) {
                uint8_t w = 0xA5;
                if (i >= PAD && i < PAD + n * lanes * e) {
                    size_t j = i - PAD, px = j / (lanes * e), lane = j / e % lanes;
                    w = lane < kp->h || lane >= kp->h + kp->cs ? 0 : src[(px * kp->cs + lane - kp->h) * e + j % e];
                }
                if (out[i] != w) {
                    FAILF("%s n=%zu nt=%d: byte %zu: 0x%02x != 0x%02x", kp->name, n, nt, i, out[i], w);
                    break;
                }
            }
            free(src);
            free(base);
        }
    }
    const tl_fill_kernel *fk;
    tl_registry_fill(&fk, &nk);
    for (size_t k = 0; k < nk; k++) {
        if (!tl_cpu_has(fk[k].isa)) continue;
        for (int stream = 0; stream < 2; stream++)
            for (size_t n = 0; n < 5000; n += (size_t)tl_rng_range(&r, 1, 300)) {
                size_t mis = (size_t)tl_rng_range(&r, 0, 63);
                uint8_t *b = malloc(n + 2 * PAD + 64);
                memset(b, 0xA5, n + 2 * PAD + 64);
                fk[k].fn(b + PAD + mis, n, stream);
                for (size_t i = 0; i < n + 2 * PAD + 64; i++) {
                    uint8_t w = i >= PAD + mis && i < PAD + mis + n ? 0 : 0xA5;
                    if (b[i] != w) {
                        FAILF("%s n=%zu stream=%d: byte %zu", fk[k].name, n, stream, i);
                        break;
                    }
                }
                free(b);
            }
    }
}

/* len bytes that end where an unreadable page starts: a kernel that reads
 * past its source faults. guard_open fails only when mmap or mprotect do. */
typedef struct guarded {
    uint8_t *map, *at;
    size_t maplen;
} guarded;

static bool guard_open(guarded *g, size_t len)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    g->maplen = (len + pg - 1) / pg * pg + pg;
    g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED) return false;
    g->at = g->map + g->maplen - pg - len;
    return mprotect(g->map + g->maplen - pg, pg, PROT_NONE) == 0;
}

static void guard_close(guarded *g) { munmap(g->map, g->maplen); }

/* A tiled transpose whose source ends with its last row's last element at
 * an unreadable page: the kernels read rows whole past their n1 columns
 * where the bytes lie between rows (faster than masked loads), never past
 * the last row. Few columns (block B's partial widths), few rows (block
 * A's), pixel strides below and above 16 bytes, plain and streamed. */
static void check_t2d_source_end(const tl_t2d_kernel *k, tl_rng *r, size_t n0, size_t n1, ptrdiff_t ss0)
{
    size_t e = k->esize, len = (size_t)ss0 * (n0 - 1) + n1 * e;
    ptrdiff_t ds1 = (ptrdiff_t)((n0 * e + 63) / 64 * 64);
    guarded g;
    REQUIRE(guard_open(&g, len));
    uint8_t *out = aligned_alloc(64, (size_t)ds1 * n1), *want = malloc((size_t)ds1 * n1);
    REQUIRE(out && want);
    tl_rng_bytes(r, g.at, len);
    for (int stream = 0; stream <= 1; stream++) {
        memset(out, 0xA5, (size_t)ds1 * n1);
        memset(want, 0xA5, (size_t)ds1 * n1);
        for (size_t i1 = 0; i1 < n1; i1++)
            for (size_t i0 = 0; i0 < n0; i0++)
                memcpy(want + (ptrdiff_t)i1 * ds1 + i0 * e, g.at + (ptrdiff_t)i0 * ss0 + i1 * e, e);
        k->fn(g.at, ss0, out, ds1, n0, n1, stream);
        if (memcmp(out, want, (size_t)ds1 * n1) != 0)
            FAILF("%s n0=%zu n1=%zu ss0=%td stream=%d: wrong bytes", k->name, n0, n1, ss0, stream);
    }
    free(out);
    free(want);
    guard_close(&g);
}

TL_TEST(move_kernels_source_end)
{
    const tl_t2d_kernel *ks;
    size_t nk;
    tl_registry_t2d(&ks, &nk);
    tl_rng r = tl_test_rng();
    static const size_t shape[][2] = {{64, 8}, {128, 12}, {200, 15}, {130, 3}, {8, 200}, {12, 130}, {5, 64}};
    static const size_t extra[] = {0, 1, 8, 20};
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        if (!tl_cpu_runs(ks[k].isa, ks[k].feat) || ks[k].shape != TL_T2D_ANY) continue;
        for (size_t a = 0; a < sizeof shape / sizeof shape[0]; a++)
            for (size_t x = 0; x < sizeof extra / sizeof extra[0]; x++)
                check_t2d_source_end(&ks[k], &r, shape[a][0], shape[a][1],
                                     (ptrdiff_t)((shape[a][1] + extra[x]) * ks[k].esize));
    }
}

/* The AVX-512 VBMI pixel moves (kernels/move/avx512vbmi.c) against index
 * arithmetic: every pixel size, run length and head, pixel counts around a
 * register's worth, sentinels around the output, and a gather source that
 * ends exactly at the last run, at the end of a page (a read past it faults). */
static void check_spread_vbmi(tl_rng *r, unsigned w, unsigned rd, unsigned h, size_t m, int nt)
{
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t perm[64], add = (uint8_t)tl_rng_range(r, 0, 255);
    uint64_t keep = tl_px_perm_spread(perm, w, rd, h);
    size_t cap = (m * w + 2 * PAD + 16 + 63) / 64 * 64;
    uint8_t *t = malloc(m * rd + 64), *base = aligned_alloc(64, cap), *out = base + 16; /* out + PAD on a line */
    tl_rng_bytes(r, t, m * rd + 64);
    memset(out, 0xA5, m * w + 2 * PAD);
    tl_x8_spread_ukernel__avx512vbmi(t, rd, out + PAD, m, w, perm, keep, nt, add);
    tl_store_fence();
    for (size_t i = 0; i < m * w + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + m * w) {
            size_t j = i - PAD, px = j / w, lane = j % w;
            want = lane >= h && lane < h + rd ? (uint8_t)(t[px * rd + lane - h] + add) : 0;
        }
        if (out[i] != want) {
            FAILF("spread w=%u rd=%u h=%u m=%zu nt=%d add=%u: byte %zu: 0x%02x != 0x%02x", w, rd, h, m, nt, add, i,
                  out[i], want);
            break;
        }
    }
    free(t);
    free(base);
#else
    (void)r, (void)w, (void)rd, (void)h, (void)m, (void)nt;
#endif
}

/* The VBMI spread straight from a source that ends before an unreadable
 * page, for as many pixels as tl_x8_spread_direct__avx512vbmi allows, each
 * byte plus a random add; it must take all but the last few */
static void check_spread_vbmi_direct(tl_rng *r, unsigned w, unsigned rd, unsigned h, size_t m)
{
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t perm[64], add = (uint8_t)tl_rng_range(r, 0, 255);
    uint64_t keep = tl_px_perm_spread(perm, w, rd, h);
    guarded g;
    REQUIRE(guard_open(&g, m * rd));
    tl_rng_bytes(r, g.at, m * rd);
    size_t fast = tl_x8_spread_direct__avx512vbmi(rd, w, m, m * rd), per = 64 / w;
    uint8_t *out = malloc(m * w + 1);
    REQUIRE(out != NULL);
    memset(out, 0xA5, m * w + 1);
    tl_x8_spread_ukernel__avx512vbmi(g.at, rd, out, fast, w, perm, keep, 0, add);
    for (size_t i = 0; i <= fast * w; i++) {
        size_t lane = i % w;
        uint8_t want = i == fast * w ? 0xA5 : lane >= h && lane < h + rd ? (uint8_t)(g.at[i / w * rd + lane - h] + add) : 0;
        if (out[i] != want) {
            FAILF("vbmi direct spread w=%u rd=%u h=%u m=%zu (%zu taken): byte %zu: 0x%02x != 0x%02x", w, rd, h, m, fast,
                  i, out[i], want);
            break;
        }
    }
    if (fast > m || fast + 64 / rd + 2 * per < m)
        FAILF("vbmi direct spread w=%u rd=%u m=%zu: %zu pixels taken", w, rd, m, fast);
    free(out);
    guard_close(&g);
#else
    (void)r, (void)w, (void)rd, (void)h, (void)m;
#endif
}

/* The u8 -> f16 spread by table: k codes a pixel into w-byte pixels with
 * the f16 run h bytes in, a random table (every code's two bytes differ),
 * the source ending at a PROT_NONE page (a read past its m * k bytes
 * faults), sentinels around the output. */
static void check_f16_spread(tl_rng *r, unsigned k, unsigned w, unsigned h, size_t m, int nt)
{
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t perm[64], lut[2][256];
    uint64_t keep = tl_px_perm_spread(perm, w, 2 * k, h);
    tl_rng_bytes(r, &lut[0][0], sizeof lut);
    guarded g;
    REQUIRE(guard_open(&g, m * k));
    tl_rng_bytes(r, g.at, m * k);
    size_t cap = (m * w + 2 * PAD + 16 + 63) / 64 * 64;
    uint8_t *base = aligned_alloc(64, cap), *out = base + 16; /* out + PAD on a line */
    REQUIRE(base);
    memset(out, 0xA5, m * w + 2 * PAD);
    tl_u8_f16_spread_ukernel__avx512vbmi(g.at, k, out + PAD, m, w, perm, keep, lut[0], lut[1], nt);
    tl_store_fence();
    for (size_t i = 0; i < m * w + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + m * w) {
            size_t j = i - PAD, px = j / w, lane = j % w;
            want = lane >= h && lane < h + 2 * k ? lut[(lane - h) % 2][g.at[px * k + (lane - h) / 2]] : 0;
        }
        if (out[i] != want) {
            FAILF("f16 spread k=%u w=%u h=%u m=%zu nt=%d: byte %zu: 0x%02x != 0x%02x", k, w, h, m, nt, i, out[i],
                  want);
            break;
        }
    }
    free(base);
    guard_close(&g);
#else
    (void)r, (void)k, (void)w, (void)h, (void)m, (void)nt;
#endif
}

/* sat: 0 the plain gather (may write 64 bytes of slack past the runs),
 * 1 / 2 the u8 -> i8 / i8 -> u8 ones (exact stores). */
static void check_gather_vbmi(tl_rng *r, unsigned ss, unsigned rs, size_t m, int sat)
{
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t perm[64];
    tl_px_perm_gather(perm, ss, rs);
    size_t len = m ? (m - 1) * ss + rs : 0;
    guarded g;
    REQUIRE(guard_open(&g, len));
    uint8_t *s = g.at, *out = malloc(m * rs + 64 + 2 * PAD);
    tl_rng_bytes(r, s, len);
    memset(out, 0xA5, m * rs + 64 + 2 * PAD);
    if (sat == 1) tl_u8_i8_gather_ukernel__avx512vbmi(s, ss, out + PAD, rs, m, perm);
    else if (sat == 2) tl_i8_u8_gather_ukernel__avx512vbmi(s, ss, out + PAD, rs, m, perm);
    else tl_x8_gather_ukernel__avx512vbmi(s, ss, out + PAD, rs, m, perm);
    size_t slack = sat ? 0 : 64; /* past the runs: the plain kernel's slack */
    for (size_t i = 0; i < PAD + m * rs + (sat ? PAD : 0); i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + m * rs) {
            uint8_t c = s[(i - PAD) / rs * ss + (i - PAD) % rs];
            want = sat == 1 ? (c > 127 ? 127 : c) : sat == 2 ? ((int8_t)c < 0 ? 0 : c) : c;
        }
        if (out[i] != want) {
            FAILF("gather ss=%u rs=%u m=%zu: byte %zu: 0x%02x != 0x%02x", ss, rs, m, i, out[i], want);
            break;
        }
    }
    for (size_t i = PAD + m * rs + slack; i < m * rs + 64 + 2 * PAD; i++)
        if (out[i] != 0xA5) {
            FAILF("gather ss=%u rs=%u m=%zu: byte %zu written, past the slack", ss, rs, m, i);
            break;
        }
    free(out);
    guard_close(&g);
#else
    (void)r, (void)ss, (void)rs, (void)m, (void)sat;
#endif
}

/* The AVX-512 chroma moves (kernels/move/avx512.c): the source ends at its
 * last sample at the end of a page, the destination has sentinels around it
 * and, for copy even, odd bytes that must stay as they were. */
TL_TEST(chroma_moves_avx512)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_cpu_has(TL_ISA_AVX512)) {
        printf("chroma_moves_avx512: skipped (no AVX-512 here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    for (size_t n = 1; n < 200 && TL_TEST_FAILURES() == 0; n += n < 70 ? 1 : (size_t)tl_rng_range(&r, 1, 20)) {
        size_t len = 2 * n - 1;
        guarded g;
        REQUIRE(guard_open(&g, len));
        uint8_t *src = g.at, *init = malloc(2 * n + 2 * PAD), *out = malloc(2 * n + 2 * PAD);
        tl_rng_bytes(&r, src, len);
        tl_rng_bytes(&r, init, 2 * n + 2 * PAD);
        for (int dup = 0; dup < 2; dup++) {
            memcpy(out, init, 2 * n + 2 * PAD);
            if (dup) tl_x8_dup_even_ukernel__avx512(src, out + PAD, n);
            else tl_x8_copy_even_ukernel__avx512(src, out + PAD, n);
            for (size_t i = 0; i < 2 * n + 2 * PAD; i++) {
                size_t j = i - PAD;
                uint8_t want = init[i];
                if (i >= PAD && j < 2 * n && (dup || j % 2 == 0)) want = src[j & ~(size_t)1];
                if (out[i] != want) {
                    FAILF("%s n=%zu: byte %zu: 0x%02x != 0x%02x", dup ? "dup even" : "copy even", n, i, out[i], want);
                    break;
                }
            }
        }
        free(init);
        free(out);
        guard_close(&g);
    }
#endif
}

/* The dup even kernels of every path this build has (one plane, and both
 * planes of an interleaved chroma row). */
#define DUP_ROW(fn, isa, feat) {#fn, fn, isa, feat}
static const struct {
    const char *name;
    tl_dup_even_rows_fn fn;
    int isa;
    unsigned feat;
} k_dup_rows[] = {
    DUP_ROW(tl_x8_dup_even_rows_ukernel__scalar, TL_ISA_SCALAR, 0),
#if defined(__x86_64__) || defined(_M_X64)
    DUP_ROW(tl_x8_dup_even_rows_ukernel__sse2, TL_ISA_SSE2, 0),
    DUP_ROW(tl_x8_dup_even_rows_ukernel__avx2, TL_ISA_AVX2, 0),
    DUP_ROW(tl_x8_dup_even_rows_ukernel__avx512, TL_ISA_AVX512, 0),
    DUP_ROW(tl_x8_dup_even_rows_streamed_ukernel__avx512vbmi, TL_ISA_AVX512, TL_FEAT_VBMI),
#elif defined(__ARM_NEON)
    DUP_ROW(tl_x8_dup_even_rows_ukernel__neon, TL_ISA_NEON, 0),
#endif
};
static const struct {
    const char *name;
    tl_dup_even_rows2_fn fn;
    int isa;
    unsigned feat;
} k_dup_rows2[] = {
    DUP_ROW(tl_x8_dup_even_rows2_ukernel__scalar, TL_ISA_SCALAR, 0),
#if defined(__x86_64__) || defined(_M_X64)
    DUP_ROW(tl_x8_dup_even_rows2_ukernel__sse2, TL_ISA_SSE2, 0),
    DUP_ROW(tl_x8_dup_even_rows2_ukernel__avx2, TL_ISA_AVX2, 0),
    DUP_ROW(tl_x8_dup_even_rows2_ukernel__avx512, TL_ISA_AVX512, 0),
#elif defined(__ARM_NEON)
    DUP_ROW(tl_x8_dup_even_rows2_ukernel__neon, TL_ISA_NEON, 0),
#endif
};

static int dup_kernel_runs(int isa, unsigned feat)
{
    return isa == TL_ISA_SCALAR || (feat ? tl_cpu_runs(isa, feat) : tl_cpu_has(isa));
}

/* dup even into several rows (4:2:0 chroma rows, the chroma rows executor):
 * every path's kernel against the definition, rows with gaps that must stay
 * untouched, the source ending at a PROT_NONE page. */
TL_TEST(chroma_dup_rows)
{
    tl_rng r = tl_test_rng();
    for (size_t n = 1; n < 200 && TL_TEST_FAILURES() == 0; n += n < 70 ? 1 : (size_t)tl_rng_range(&r, 1, 20)) {
        size_t len = 2 * n - 1;
        size_t rows = (size_t)tl_rng_range(&r, 1, 3), ds = 2 * n + (size_t)tl_rng_range(&r, 0, 40);
        size_t total = rows * ds + 2 * PAD;
        guarded g;
        REQUIRE(guard_open(&g, len));
        uint8_t *src = g.at, *out = malloc(total);
        tl_rng_bytes(&r, src, len);
        for (size_t k = 0; k < sizeof k_dup_rows / sizeof k_dup_rows[0]; k++) {
            if (!dup_kernel_runs(k_dup_rows[k].isa, k_dup_rows[k].feat)) continue;
            tl_dup_even_rows_fn fn = k_dup_rows[k].fn;
            memset(out, 0xA5, total);
            fn(src, out + PAD, n, rows, (ptrdiff_t)ds); /* (rows start at every phase of a line) */
            tl_store_fence();
            for (size_t i = 0; i < total; i++) {
                size_t j = i - PAD;
                uint8_t want = 0xA5;
                if (i >= PAD && j < rows * ds && j % ds < 2 * n) want = src[(j % ds) & ~(size_t)1];
                if (out[i] != want) {
                    FAILF("dup even rows (%s) n=%zu rows=%zu ds=%zu: byte %zu: 0x%02x != 0x%02x", k_dup_rows[k].name, n,
                          rows, ds, i, out[i], want);
                    break;
                }
            }
        }
        free(out);
        guard_close(&g);
    }
}

/* Both planes of an interleaved chroma row into rows of two planes (NV12's
 * U and V, the chroma planes executor), every path's kernel, against the
 * definition: every length to 200 samples, 1 to 3 rows with gaps and a gap
 * between the planes that must stay untouched, the row's 2n bytes ending at
 * an unreadable page. */
TL_TEST(chroma_dup_rows2)
{
    tl_rng r = tl_test_rng();
    for (size_t n = 1; n < 200 && TL_TEST_FAILURES() == 0; n += n < 70 ? 1 : (size_t)tl_rng_range(&r, 1, 20)) {
        size_t rows = (size_t)tl_rng_range(&r, 1, 3), ds = 2 * n + (size_t)tl_rng_range(&r, 0, 40);
        size_t pd = rows * ds + (size_t)tl_rng_range(&r, 0, 70), total = pd + rows * ds + 2 * PAD;
        guarded g;
        REQUIRE(guard_open(&g, 2 * n));
        uint8_t *src = g.at, *out = malloc(total);
        REQUIRE(out != NULL);
        tl_rng_bytes(&r, src, 2 * n);
        for (size_t k = 0; k < sizeof k_dup_rows2 / sizeof k_dup_rows2[0]; k++) {
            if (!dup_kernel_runs(k_dup_rows2[k].isa, k_dup_rows2[k].feat)) continue;
            memset(out, 0xA5, total);
            k_dup_rows2[k].fn(src, out + PAD, n, rows, (ptrdiff_t)ds, (ptrdiff_t)pd);
            for (size_t i = 0; i < total; i++) {
                size_t j = i - PAD, plane = i >= PAD && j >= pd, q = plane ? j - pd : j;
                uint8_t want = 0xA5;
                if (i >= PAD && q < rows * ds && q % ds < 2 * n) want = src[((q % ds) & ~(size_t)1) + plane];
                if (out[i] != want) {
                    FAILF("dup even rows2 (%s) n=%zu rows=%zu ds=%zu pd=%zu: byte %zu: 0x%02x != 0x%02x",
                          k_dup_rows2[k].name, n, rows, ds, pd, i, out[i], want);
                    break;
                }
            }
        }
        free(out);
        guard_close(&g);
    }
}

/* zip even (two planes into an interleaved chroma pair, the strided copy),
 * scalar and AVX-512, against the definition: rows starting at every phase
 * of a line, plain and streamed, sentinels, both sources ending before an
 * unreadable page. */
TL_TEST(chroma_zip_even)
{
    tl_rng r = tl_test_rng();
    for (size_t n = 0; n < 300 && TL_TEST_FAILURES() == 0; n += n < 70 ? 1 : (size_t)tl_rng_range(&r, 1, 20)) {
        size_t len = n ? 2 * n - 1 : 0;
        guarded gu, gv;
        REQUIRE(guard_open(&gu, len) && guard_open(&gv, len));
        uint8_t *u = gu.at, *v = gv.at;
        uint8_t *base = aligned_alloc(64, (2 * n + 2 * PAD + 64 + 63) / 64 * 64), *out = base + tl_rng_range(&r, 0, 63);
        tl_rng_bytes(&r, u, len);
        tl_rng_bytes(&r, v, len);
        for (int k = 0; k < 3; k++) { /* scalar, AVX-512 plain, AVX-512 streamed */
            memset(out, 0xA5, 2 * n + 2 * PAD);
#if defined(__x86_64__) || defined(_M_X64)
            if (k && !tl_cpu_has(TL_ISA_AVX512)) continue;
            if (k) tl_x8_zip_even_ukernel__avx512(u, v, out + PAD, n, k == 2);
            else
#else
            if (k) continue;
#endif
                tl_x8_zip_even_ukernel__scalar(u, v, out + PAD, n);
            tl_store_fence();
            for (size_t i = 0; i < 2 * n + 2 * PAD; i++) {
                size_t j = i - PAD;
                uint8_t want = i >= PAD && j < 2 * n ? (j % 2 ? v[j - 1] : u[j]) : 0xA5;
                if (out[i] != want) {
                    FAILF("zip even (%d) n=%zu at %zu: byte %zu: 0x%02x != 0x%02x", k, n,
                          (size_t)((uintptr_t)(out + PAD) % 64), i, out[i], want);
                    break;
                }
            }
        }
        free(base);
        guard_close(&gu);
        guard_close(&gv);
    }
}

/* The re-packs that saturate in the register (interleave/avx512.c and
 * avx2.c, taken by the repack executor, not in the registry) against the
 * definition. */
#if defined(__x86_64__) || defined(_M_X64)
void tl_u8_i8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_u8_i8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
static const struct {
    const char *name;
    int isa;
    tl_repack_fn to_i8, to_u8;
} k_sat_repacks[] = {
    {"avx512", TL_ISA_AVX512, tl_u8_i8_repack3_0_1_ukernel__avx512, tl_i8_u8_repack3_0_1_ukernel__avx512},
    {"avx2", TL_ISA_AVX2, tl_u8_i8_repack3_0_1_ukernel__avx2, tl_i8_u8_repack3_0_1_ukernel__avx2},
};
#endif
TL_TEST(saturating_repack)
{
#if defined(__x86_64__) || defined(_M_X64)
    tl_rng r = tl_test_rng();
    for (size_t k = 0; k < sizeof k_sat_repacks / sizeof k_sat_repacks[0]; k++) {
        if (!tl_cpu_has(k_sat_repacks[k].isa)) {
            printf("saturating_repack: %s skipped (not on this CPU)\n", k_sat_repacks[k].name);
            continue;
        }
        for (int to_u8 = 0; to_u8 < 2; to_u8++)
            for (size_t n = 0; n < 120 && TL_TEST_FAILURES() == 0; n++) {
                size_t cap = (4 * n + 2 * PAD + 16 + 63) / 64 * 64;
                uint8_t *src = malloc(3 * n + 1), *base = aligned_alloc(64, cap), *out = base + 16; /* out + PAD on a line */
                int nt = (int)(n % 2);
                tl_rng_bytes(&r, src, 3 * n + 1);
                memset(out, 0xA5, 4 * n + 2 * PAD);
                (to_u8 ? k_sat_repacks[k].to_u8 : k_sat_repacks[k].to_i8)(src, out + PAD, n, nt);
                tl_store_fence();
                for (size_t i = 0; i < 4 * n + 2 * PAD; i++) {
                    uint8_t want = 0xA5;
                    if (i >= PAD && i < PAD + 4 * n) {
                        size_t j = i - PAD, px = j / 4, lane = j % 4;
                        uint8_t c = lane == 3 ? 0 : src[3 * px + lane];
                        want = to_u8 ? ((int8_t)c < 0 ? 0 : c) : (c > 127 ? 127 : c);
                    }
                    if (out[i] != want) {
                        FAILF("%s %s n=%zu: byte %zu: 0x%02x != 0x%02x", k_sat_repacks[k].name,
                              to_u8 ? "i8 -> u8" : "u8 -> i8", n, i, out[i], want);
                        break;
                    }
                }
                free(src);
                free(base);
            }
    }
#endif
}

/* The line gathers (move.h: tl_px_lines) against the element rule: rows
 * of m pixels of ss bytes to rs bytes each, 8-bit raw, saturated or through
 * a table, or f16 pixels of 4 halves (every quantization of quant_set and
 * its rounding, into u8 and i8); source rows a few bytes apart or
 * adjoining, destination rows adjoining or with a gap that must come out
 * zero, the destination at every offset within a line, plain and streamed
 * (head and tail pixels through the masked step), read as 1 to 4 bands or
 * slices, sentinels on both sides, and a source that ends at the last run
 * before an unreadable page. mode: 0 raw, 1 to i8, 2 to u8 (saturating), 3
 * a table, 4 f16. */
static void check_gather_lines(tl_rng *r, unsigned ss, unsigned rs, size_t m, size_t rows, int mode, int qi, int nt,
                               size_t slices)
{
#if defined(__x86_64__) || defined(_M_X64)
    tl_px_lines L;
    int f16 = mode == 4;
    size_t srs = f16 ? 2 * rs : rs, row = m ? (m - 1) * ss + srs : 0;
    size_t sstride = m * ss + (tl_rng_range(r, 0, 1) ? (size_t)tl_rng_range(r, 1, 40) : 0);
    size_t gap = tl_rng_range(r, 0, 1) ? (size_t)tl_rng_range(r, 1, 70) : 0, dstride = m * rs + gap;
    size_t len = rows ? (rows - 1) * sstride + row : 0, all = rows * dstride;
    size_t off = slices > 1 && tl_rng_range(r, 0, 1) ? 0 : (size_t)tl_rng_range(r, 0, 63); /* slices: on a line */
    guarded g;
    REQUIRE(guard_open(&g, len));
    uint8_t *s = g.at, *base = aligned_alloc(64, (all + 2 * PAD + 64 + 63) / 64 * 64);
    uint8_t *out = base + (off + 64 - PAD % 64) % 64, lut[256]; /* out + PAD is off bytes into a line */
    tl_rng_bytes(r, s, len);
    tl_rng_bytes(r, lut, sizeof lut);
    memset(out, 0xA5, all + 2 * PAD);
    tl_px_lines_init(&L, ss, rs, f16);
    tl_cvt cv;
    tl_quant q;
    tl_cvt_init_dt(&cv, TL_F16, NULL, qi % 2 ? TL_I8 : TL_U8, quant_set(qi, &q));
    const tl_px_rows geo = {m, rows, (ptrdiff_t)sstride, (ptrdiff_t)dstride, gap};
    if (f16) tl_f16_x8_gather_lines_ukernel__avx512vbmi(s, out + PAD, rs, &geo, &L, &cv, nt, slices);
    else
        tl_x8_gather_lines_ukernel__avx512vbmi(s, ss, out + PAD, rs, &geo, &L, mode == 3 ? lut : NULL, mode % 3, nt,
                                               slices);
    tl_store_fence();
    for (size_t i = 0; i < all + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + all) {
            size_t y = (i - PAD) / dstride, x = (i - PAD) % dstride, px = x / rs, c = x % rs;
            const uint8_t *e = s + y * sstride + px * ss + (f16 ? 2 * c : c);
            want = x >= m * rs ? 0 /* the gap */
                 : mode == 1 ? (e[0] > 127 ? 127 : e[0]) : mode == 2 ? ((int8_t)e[0] < 0 ? 0 : e[0])
                 : mode == 3 ? lut[e[0]] : e[0];
            if (f16 && x < m * rs) want = (uint8_t)tl_elem_convert_raw(&cv.op, (uint64_t)e[0] | (uint64_t)e[1] << 8);
        }
        if (out[i] != want) {
            FAILF("line gather ss=%u rs=%u m=%zu rows=%zu (source %zu, destination %zu apart) mode=%d q=%d nt=%d "
                  "off=%zu slices=%zu: byte %zu: 0x%02x != 0x%02x",
                  ss, rs, m, rows, sstride, dstride, mode, qi, nt, off, slices, i, out[i], want);
            break;
        }
    }
    free(base);
    guard_close(&g);
#else
    (void)r, (void)ss, (void)rs, (void)m, (void)rows, (void)mode, (void)qi, (void)nt, (void)slices;
#endif
}

TL_TEST(line_gathers_vbmi)
{
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) {
        printf("line_gathers_vbmi: skipped (no AVX-512 VBMI here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    static const size_t counts[] = {0, 1, 2, 15, 63, 64, 65, 127, 128, 129, 181, 300, 1000};
    for (unsigned ss = 4; ss <= 32; ss *= 2)
        for (unsigned rs = 2; rs <= 4 && TL_TEST_FAILURES() == 0; rs++)
            for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
                for (int nt = 0; nt < 2; nt++) {
                    if (rs < ss)
                        for (int mode = 0; mode < 4; mode++)
                            for (size_t sl = 1; sl <= 4; sl++) /* slices read in turn: 1 (none) to 4 */
                                check_gather_lines(&r, ss, rs, counts[k], 1, mode, 0, nt, sl);
                    if (ss == 8)
                        for (int qi = 0; qi < NQUANT; qi++)
                            check_gather_lines(&r, ss, rs, counts[k], 1, 4, qi, nt, 1 + (size_t)qi % 3);
                }
    /* rows: as bands (at least as many rows as slices) and each sliced */
    static const size_t widths[] = {1, 64, 65, 130, 300, 700};
    static const size_t heights[] = {2, 3, 4, 5, 9};
    for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++)
        for (size_t h = 0; h < sizeof heights / sizeof heights[0] && TL_TEST_FAILURES() == 0; h++)
            for (int nt = 0; nt < 2; nt++)
                for (size_t sl = 1; sl <= 4; sl++) {
                    check_gather_lines(&r, 32, 3, widths[k], heights[h], 0, 0, nt, sl);
                    check_gather_lines(&r, 4, 3, widths[k], heights[h], 2, 0, nt, sl);
                    check_gather_lines(&r, 16, 2, widths[k], heights[h], 3, 0, nt, sl);
                    check_gather_lines(&r, 8, 3, widths[k], heights[h], 4, (int)sl, nt, sl);
                }
}

#if defined(__x86_64__) || defined(_M_X64) || defined(__ARM_NEON)
/* len bytes of f32 sources (make_source's specials, ties and randoms,
 * shuffled so specials land anywhere) in g, before its unreadable page. */
static void f32_before_guard(tl_rng *r, size_t len, guarded *g)
{
    size_t cap = len / 4 + 1300;
    uint8_t *src = malloc(4 * cap + 8);
    size_t got = make_source(r, TL_F32, src, cap);
    for (size_t i = got; i > 1; i--) {
        size_t j = (size_t)tl_rng_range(r, 0, (int64_t)i - 1);
        uint32_t a, b;
        memcpy(&a, src + 4 * (i - 1), 4), memcpy(&b, src + 4 * j, 4);
        memcpy(src + 4 * (i - 1), &b, 4), memcpy(src + 4 * j, &a, 4);
    }
    REQUIRE(guard_open(g, len));
    memcpy(g->at, src, len);
    free(src);
}
#endif

/* 3 f32 planes quantized into packed 8-bit pixels (convert/avx512.c, the 2d
 * executor's NCHW f32 -> NHWC i8 with C = 3) against the element rule:
 * f32 specials, ties and randoms (make_source) under every quantization
 * into u8 and i8, pixel counts around a step, the destination at every
 * offset in a line, plain and streamed, sentinels around it, planes evenly
 * apart or not, the source ending before an unreadable page. */
#if defined(__x86_64__) || defined(_M_X64) || defined(__ARM_NEON)
typedef void (*ilv3_fn)(const uint8_t *const *, uint8_t *, size_t, int, const struct tl_cvt *);

static void check_f32_ilv3(ilv3_fn fn, tl_rng *r, size_t n, int qi, int nt)
{
    uint8_t *base = aligned_alloc(64, (3 * n + 2 * PAD + 64 + 63) / 64 * 64), *out = base + tl_rng_range(r, 0, 63);
    guarded g;
    size_t gap = 4 * (size_t)tl_rng_range(r, 0, 3) * (tl_rng_range(r, 0, 1) == 0); /* planes unevenly apart */
    f32_before_guard(r, 12 * n + gap, &g);
    uint8_t *pl = g.at;
    const uint8_t *planes[3] = {pl, pl + 4 * n, pl + 8 * n + gap};
    tl_cvt cv;
    tl_quant q;
    tl_cvt_init_dt(&cv, TL_F32, NULL, qi % 2 ? TL_I8 : TL_U8, quant_set(qi, &q));
    memset(out, 0xA5, 3 * n + 2 * PAD);
    fn(planes, out + PAD, n, nt, &cv);
    tl_store_fence();
    for (size_t i = 0; i < 3 * n + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + 3 * n) {
            uint32_t u;
            memcpy(&u, planes[(i - PAD) % 3] + 4 * ((i - PAD) / 3), 4);
            want = (uint8_t)tl_elem_convert_raw(&cv.op, u);
        }
        if (out[i] != want) {
            FAILF("f32 -> 8-bit interleave3 n=%zu q=%d nt=%d gap=%zu: byte %zu: 0x%02x != 0x%02x", n, qi, nt, gap, i, out[i],
                  want);
            break;
        }
    }
    guard_close(&g);
    free(base);
}

/* 16 f32 planes quantized into one 16-channel block of 8-bit pixels (the
 * same file; NCHW f32 -> NCHW16c i8) against the element rule: planes a
 * random gap apart, the last ending before an unreadable page, pixel counts
 * around a step, the destination at every 16-byte offset in a line and off
 * it, plain and streamed, every quantization into u8 and i8. */
typedef void (*block16_fn)(const uint8_t *, size_t, uint8_t *, size_t, int, const struct tl_cvt *);

static void check_f32_block16(block16_fn fn, tl_rng *r, size_t n, int qi, int nt)
{
    size_t stride = 4 * (n + (size_t)tl_rng_range(r, 0, 9));
    size_t off = tl_rng_range(r, 0, 3) ? 16 * (size_t)tl_rng_range(r, 0, 3) : (size_t)tl_rng_range(r, 0, 63);
    uint8_t *base = aligned_alloc(64, (16 * n + 2 * PAD + 64 + 63) / 64 * 64), *out = base + off;
    guarded g;
    f32_before_guard(r, 15 * stride + 4 * n, &g);
    uint8_t *pl = g.at;
    tl_cvt cv;
    tl_quant q;
    tl_cvt_init_dt(&cv, TL_F32, NULL, qi % 2 ? TL_I8 : TL_U8, quant_set(qi, &q));
    memset(out, 0xA5, 16 * n + 2 * PAD);
    fn(pl, stride, out + PAD, n, nt, &cv);
    tl_store_fence();
    for (size_t i = 0; i < 16 * n + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + 16 * n) {
            uint32_t u;
            memcpy(&u, pl + (i - PAD) % 16 * stride + 4 * ((i - PAD) / 16), 4);
            want = (uint8_t)tl_elem_convert_raw(&cv.op, u);
        }
        if (out[i] != want) {
            FAILF("f32 -> 8-bit block16 n=%zu q=%d nt=%d off=%zu: byte %zu: 0x%02x != 0x%02x", n, qi, nt, off, i,
                  out[i], want);
            break;
        }
    }
    guard_close(&g);
    free(base);
}


/* The reverse: one 16-channel block of 8-bit codes into 16 f32 planes
 * (NCHW16c i8 -> NCHW f32) against the element rule: the block ending
 * before an unreadable page, planes a random gap apart with sentinels
 * around and between them, pixel counts around a step, the planes at every
 * 4-byte offset in a line, plain and streamed (in phase or, AVX2, through
 * rings where they are not), every quantization from u8 and i8. */
typedef void (*unblock16_fn)(const uint8_t *, uint8_t *, size_t, size_t, int, const struct tl_cvt *);

static void check_x8_unblock16(unblock16_fn fn, tl_rng *r, size_t n, int qi, int nt)
{
    size_t stride = 4 * (n + (size_t)tl_rng_range(r, 0, 20));
    if (tl_rng_range(r, 0, 2) == 0) stride = (stride + 63) / 64 * 64; /* planes in phase: streamed */
    if (stride == 0) stride = 64;
    size_t len = 16 * stride + 2 * PAD;
    size_t off = 4 * (size_t)tl_rng_range(r, 0, 15);
    uint8_t *base = aligned_alloc(64, (len + off + 63) / 64 * 64), *out = base + off;
    guarded g;
    REQUIRE(base && guard_open(&g, 16 * n));
    tl_rng_bytes(r, g.at, 16 * n);
    tl_cvt cv;
    tl_quant q;
    tl_dtype sdt = qi % 2 ? TL_I8 : TL_U8;
    tl_cvt_init_dt(&cv, sdt, quant_set(qi, &q), TL_F32, NULL);
    memset(out, 0xA5, len);
    fn(g.at, out + PAD, stride, n, nt, &cv);
    tl_store_fence();
    for (size_t i = 0; i < len; i++) {
        uint8_t want = 0xA5;
        size_t j = i - PAD, c = j / stride, x = j % stride / 4;
        if (i >= PAD && c < 16 && x < n) {
            uint32_t f = (uint32_t)tl_elem_convert_raw(&cv.op, g.at[16 * x + c]);
            want = (uint8_t)(f >> (8 * (j % 4)));
        }
        if (out[i] != want) {
            FAILF("8-bit block16 -> f32 n=%zu q=%d nt=%d off=%zu stride=%zu: byte %zu: 0x%02x != 0x%02x", n, qi, nt,
                  off, stride, i, out[i], want);
            break;
        }
    }
    guard_close(&g);
    free(base);
}
#endif

TL_TEST(f32_interleave3_vbmi)
{
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) {
        printf("f32_interleave3_vbmi: skipped (no AVX-512 VBMI here)\n");
        return;
    }
#if defined(__x86_64__) || defined(_M_X64)
    tl_rng r = tl_test_rng();
    static const size_t counts[] = {0, 1, 5, 63, 64, 65, 130, 300, 700};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0] && TL_TEST_FAILURES() == 0; k++)
        for (int qi = 0; qi < NQUANT; qi++)
            for (int nt = 0; nt < 2; nt++) {
                check_f32_ilv3(tl_f32_x8_interleave3_ukernel__avx512vbmi, &r, counts[k], qi, nt);
                check_f32_block16(tl_f32_x8_block16_ukernel__avx512vbmi, &r, counts[k], qi, nt);
                check_x8_unblock16(tl_x8_f32_unblock16_ukernel__avx512vbmi, &r, counts[k], qi, nt);
            }
#endif
}

/* The AVX2 block -> planes dequantization (32 pixels a step), planes ->
 * block quantization (8 pixels a step) and 3 planes -> pixels quantization
 * (32 pixels a step), the same checks */
TL_TEST(x8_block16_avx2)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_cpu_runs(TL_ISA_AVX2, 0)) {
        printf("x8_block16_avx2: skipped (no AVX2 here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    static const size_t counts[] = {0, 1, 5, 7, 8, 9, 31, 32, 33, 47, 63, 64, 65, 95, 96, 97, 130, 300, 700};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0] && TL_TEST_FAILURES() == 0; k++)
        for (int qi = 0; qi < NQUANT; qi++)
            for (int nt = 0; nt < 2; nt++) {
                check_x8_unblock16(tl_x8_f32_unblock16_ukernel__avx2, &r, counts[k], qi, nt);
                check_f32_block16(tl_f32_x8_block16_ukernel__avx2, &r, counts[k], qi, nt);
                check_f32_ilv3(tl_f32_x8_interleave3_ukernel__avx2, &r, counts[k], qi, nt);
            }
#endif
}

/* The NEON quantizations of 3 planes into pixels (vst3) and of 16 planes
 * into a block (the 16 x 16 byte transpose), and the block's dequantization
 * into planes, 16 pixels a step, the same checks (their stores are plain
 * whatever stream says) */
TL_TEST(in_register_neon)
{
#if defined(__ARM_NEON) && !defined(__x86_64__)
    tl_rng r = tl_test_rng();
    static const size_t counts[] = {0, 1, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 130, 300, 700};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0] && TL_TEST_FAILURES() == 0; k++)
        for (int qi = 0; qi < NQUANT; qi++)
            for (int nt = 0; nt < 2; nt++) {
                check_f32_ilv3(tl_f32_x8_interleave3_ukernel__neon, &r, counts[k], qi, nt);
                check_f32_block16(tl_f32_x8_block16_ukernel__neon, &r, counts[k], qi, nt);
                check_x8_unblock16(tl_x8_f32_unblock16_ukernel__neon, &r, counts[k], qi, nt);
            }
#else
    printf("in_register_neon: skipped (not an Arm build)\n");
#endif
}

TL_TEST(pixel_moves_vbmi)
{
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) {
        printf("pixel_moves_vbmi: skipped (no AVX-512 VBMI here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    for (unsigned w = 4; w <= 64; w *= 2)
        for (unsigned rd = 1; rd <= w && TL_TEST_FAILURES() == 0; rd += rd < 8 ? 1 : (unsigned)tl_rng_range(&r, 1, 9)) {
            unsigned h = rd == w ? 0 : (unsigned)tl_rng_range(&r, 0, (int64_t)(w - rd));
            for (size_t m = 0; m <= 3 * 64 / w + 3; m++) {
                check_spread_vbmi(&r, w, rd, h, m, (int)(m % 2)); /* plain and streamed */
                check_spread_vbmi(&r, w, rd, 0, m, (int)(m % 2 == 0));
                check_spread_vbmi_direct(&r, w, rd, h, m + (size_t)tl_rng_range(&r, 0, 200));
                for (int sat = 0; sat < 3; sat++) check_gather_vbmi(&r, w, rd, m, sat);
            }
        }
    /* u8 -> f16: every code count a pixel whose f16 run fits (2k <= w),
     * pixel counts up to and past a few registers (RGB into kDLA_HWC4: k 3,
     * w 8, 16 pixels a register) */
    for (unsigned w = 4; w <= 64; w *= 2)
        for (unsigned k = 1; 2 * k <= w && TL_TEST_FAILURES() == 0; k += k < 4 ? 1 : (unsigned)tl_rng_range(&r, 1, 5)) {
            unsigned h = 2 * k == w ? 0 : (unsigned)tl_rng_range(&r, 0, (int64_t)(w - 2 * k));
            for (size_t m = 0; m <= 4 * 64 / w + 5; m++) check_f16_spread(&r, k, w, h, m, (int)(m % 2));
        }
}

/* The shuffle pixel moves (kernels/move/avx2.c, neon.c) against index arithmetic:
 * every pixel size and run that fits a lane, heads, pixel counts around a
 * few steps, sentinels around the output; the spread's tile read through a
 * window ending 16 bytes past the last run (its margin), the gather's
 * source ending at the last pixel's run before an unreadable page, its
 * writes exactly the runs, plain and saturating u8 <-> i8. */
/* The ISA's shuffle spread (AVX2 or NEON), or 0 where this build has none. */
static int spread_shuffle(const uint8_t *t, size_t rd, uint8_t *d, size_t m, unsigned w, const uint8_t *mask,
                          int stream, uint8_t add)
{
    uint8_t ctl[16];
    if (!tl_spread_fits16(w, mask)) return 0;
    tl_spread_ctl16(ctl, w, rd, mask);
#if defined(__x86_64__) || defined(_M_X64)
    tl_spread_ukernel__avx2(t, rd, d, m, w, mask, ctl, stream, add);
    return 1;
#elif defined(__ARM_NEON)
    (void)stream, (void)add;
    tl_spread_ukernel__neon(t, rd, d, m, w, mask, ctl);
    return 1;
#else
    (void)t, (void)d, (void)m, (void)stream, (void)add;
    return 0;
#endif
}

/* lead: where the output starts in a 64-byte aligned buffer (64: the AVX2
 * spread's streamed steps start on 32 bytes; 48: they cannot, plain
 * stores); stream: the caller allows non-temporal stores */
static void check_spread_shuffle(tl_rng *r, unsigned w, unsigned rd, unsigned h, size_t m, size_t lead, int stream)
{
    uint8_t mask[64] = {0};
    memset(mask + h, 0xFF, rd);
    guarded g;
    REQUIRE(guard_open(&g, 64 + m * rd + 16));
    size_t len = m * w + 2 * lead;
    uint8_t *tile = g.at + 64, *out = aligned_alloc(64, (len + 63) / 64 * 64);
    REQUIRE(out != NULL);
    tl_rng_bytes(r, g.at, 64 + m * rd + 16);
    memset(out, 0xA5, len);
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t add = (uint8_t)tl_rng_range(r, 0, 255); /* a conversion that is a byte add */
#else
    uint8_t add = 0;
#endif
    if (spread_shuffle(tile - h, rd, out + lead, m, w, mask, stream, add))
        for (size_t i = 0; i < len; i++) {
            uint8_t want = 0xA5;
            if (i >= lead && i < lead + m * w) {
                size_t j = i - lead, px = j / w, lane = j % w;
                want = lane >= h && lane < h + rd ? (uint8_t)(tile[px * rd + lane - h] + add) : 0;
            }
            if (out[i] != want) {
                FAILF("shuffle spread w=%u rd=%u h=%u m=%zu lead=%zu stream=%d: byte %zu: 0x%02x != 0x%02x", w, rd,
                      h, m, lead, stream, i, out[i], want);
                break;
            }
        }
    free(out);
    guard_close(&g);
}

/* The AVX2 spread straight from a source that ends before an unreadable
 * page, for as many pixels as tl_spread_direct__avx2 allows (the pixels
 * packed from the start: no head) */
static void check_spread_direct(tl_rng *r, unsigned w, unsigned rd, size_t m)
{
#if defined(__x86_64__) || defined(_M_X64)
    uint8_t mask[64] = {0}, ctl[16];
    memset(mask, 0xFF, rd);
    if (!tl_spread_fits16(w, mask)) return;
    tl_spread_ctl16(ctl, w, rd, mask);
    guarded g;
    REQUIRE(guard_open(&g, m * rd));
    tl_rng_bytes(r, g.at, m * rd);
    size_t fast = tl_spread_direct__avx2(rd, w, m, m * rd);
    uint8_t *out = malloc(m * w + 1), add = (uint8_t)tl_rng_range(r, 0, 255);
    REQUIRE(out != NULL);
    memset(out, 0xA5, m * w + 1);
    tl_spread_ukernel__avx2(g.at, rd, out, fast, w, mask, ctl, 0, add);
    for (size_t i = 0; i <= fast * w; i++) {
        uint8_t want = i == fast * w ? 0xA5 : i % w < rd ? (uint8_t)(g.at[i / w * rd + i % w] + add) : 0;
        if (out[i] != want) {
            FAILF("direct spread w=%u rd=%u m=%zu (%zu taken): byte %zu: 0x%02x != 0x%02x", w, rd, m, fast, i, out[i],
                  want);
            break;
        }
    }
    if (m * rd >= 32 && fast + 32 / w < m / 2) FAILF("direct spread w=%u rd=%u m=%zu: only %zu pixels taken", w, rd, m, fast);
    free(out);
    guard_close(&g);
#else
    (void)r, (void)w, (void)rd, (void)m;
#endif
}

static void check_gather_avx2(tl_rng *r, unsigned ss, unsigned rs, size_t m, int sat)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_gather_fits__avx2(ss, rs)) return;
    size_t len = m ? (m - 1) * ss + rs : 0;
    guarded g;
    REQUIRE(guard_open(&g, len));
    uint8_t *out = malloc(m * rs + 2 * PAD);
    REQUIRE(out != NULL);
    tl_rng_bytes(r, g.at, len);
    memset(out, 0xA5, m * rs + 2 * PAD);
    uint8_t ctl[16];
    tl_gather_ctl__avx2(ctl, ss, rs);
    /* sat 1: u8 -> i8, 2: i8 -> u8, as the kernel's byte map */
    const int map = sat == 1 ? TL_MAP8(TL_MAP8_SAT, 0, 1) : sat == 2 ? TL_MAP8(TL_MAP8_SAT, 1, 0) : TL_MAP8_MOVE;
    tl_gather_ukernel__avx2(g.at, ss, out + PAD, rs, m, ctl, map);
    for (size_t i = 0; i < m * rs + 2 * PAD; i++) {
        uint8_t want = 0xA5;
        if (i >= PAD && i < PAD + m * rs) {
            uint8_t c = g.at[(i - PAD) / rs * ss + (i - PAD) % rs];
            want = sat == 1 ? (c > 127 ? 127 : c) : sat == 2 ? ((int8_t)c < 0 ? 0 : c) : c;
        }
        if (out[i] != want) {
            FAILF("avx2 gather ss=%u rs=%u m=%zu sat=%d: byte %zu: 0x%02x != 0x%02x", ss, rs, m, sat, i, out[i], want);
            break;
        }
    }
    free(out);
    guard_close(&g);
#else
    (void)r, (void)ss, (void)rs, (void)m, (void)sat;
#endif
}

/* ---- byte maps (tl_map8, kernels.h) ------------------------------------- */
/* An 8-bit conversion as the byte kernels see it, built from the affine
 * map's definition (tl_cvt affine8: t = v * mul + add, q = (t + bias + ((t
 * >> shift) & odd)) >> shift, saturated to the destination): its table is
 * the oracle. path: TL_EP_COPY (a move), TL_EP_INT (u8 <-> i8 saturation)
 * or TL_EP_REAL (the affine map). */
typedef struct map8_case {
    int code, path, s, d, mul, add, bias, shift, odd;
} map8_case;

static void map8_cvt(tl_cvt *cv, const map8_case *c)
{
    memset(cv, 0, sizeof *cv);
    cv->es = cv->ed = 1;
    cv->sdt = c->s ? TL_I8 : TL_U8;
    cv->ddt = c->d ? TL_I8 : TL_U8;
    cv->path = (uint8_t)c->path;
    cv->lut8 = cv->affine8 = c->path == TL_EP_REAL;
    cv->affine8_mul = (int16_t)c->mul, cv->affine8_add = (int16_t)c->add, cv->affine8_bias = (int16_t)c->bias;
    cv->affine8_shift = (uint8_t)c->shift, cv->affine8_odd = (uint8_t)c->odd;
    const int lo = c->d ? -128 : 0, hi = lo + 255;
    for (int x = 0; x < 256; x++) {
        int v = c->s ? (int)(int8_t)x : x, q = v;
        if (c->path == TL_EP_REAL) {
            int t = v * c->mul + c->add;
            q = (t + c->bias + ((t >> c->shift) & c->odd)) >> c->shift;
        }
        if (c->path != TL_EP_COPY) q = q < lo ? lo : q > hi ? hi : q;
        cv->lut[x] = (uint8_t)q;
    }
}

/* Every code tl_map8_of gives (20), with maps that name it: the right code
 * for each, and on Arm every NEON byte kernel that compiles one function
 * per code (3-byte pixel spread and gather at each pixel width, the rows
 * (de)interleaves, the convert rows' affine maps) gives the table's answer
 * for it, the last pixels and the zero lanes included. x86's byte-add test
 * (tl_cvt_byte_add) is checked on the same maps, and so are the AVX2 rows
 * (de)interleaves and, with VBMI, the AVX-512 ones. */
/* Two rows of m pixels <-> 3 planes of 2 rows, head zero bytes before and
 * tail after each planar row, through cv's byte map (code; NULL for a
 * move), against its table; nothing written past the planes or the rows. */
typedef void (*rows3_fn)(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv);

static void rows3_maps(const uint8_t *src, size_t m, size_t head, size_t tail, const tl_cvt *cv, int code, rows3_fn dilv,
                       rows3_fn ilv)
{
    static uint8_t out[1024], want[1024];
    const size_t prow = m + head + tail, plane = 2 * prow;
    REQUIRE(3 * plane < sizeof out && 6 * m < sizeof out);
    tl_rows3 g = {m, 2, (ptrdiff_t)(3 * m), (ptrdiff_t)prow, (ptrdiff_t)plane, head, tail};
    memset(out, 0xA5, sizeof out);
    dilv(src, out + head, &g, code == TL_MAP8_MOVE ? NULL : cv);
    memset(want, 0, 3 * plane);
    for (size_t row = 0; row < 2; row++)
        for (size_t p = 0; p < m; p++)
            for (size_t ch = 0; ch < 3; ch++) want[ch * plane + row * prow + head + p] = cv->lut[src[row * 3 * m + 3 * p + ch]];
    if (memcmp(out, want, 3 * plane) || out[3 * plane] != 0xA5)
        FAILF("deinterleave3 rows map %d m %zu head %zu tail %zu", code, m, head, tail);
    memset(out, 0xA5, sizeof out);
    ilv(src + head, out, &g, code == TL_MAP8_MOVE ? NULL : cv);
    for (size_t row = 0; row < 2; row++)
        for (size_t p = 0; p < m; p++)
            for (size_t ch = 0; ch < 3; ch++) want[row * 3 * m + 3 * p + ch] = cv->lut[src[ch * plane + row * prow + head + p]];
    if (memcmp(out, want, 6 * m) || out[6 * m] != 0xA5) FAILF("interleave3 rows map %d m %zu", code, m);
}

#if defined(__x86_64__)
static void dilv_rows_avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    tl_x8_deinterleave3_rows_ukernel__avx2(src, dst, g, 0, cv);
}

static void ilv_rows_avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    tl_x8_interleave3_rows_ukernel__avx2(src, dst, g, 0, cv);
}

static void dilv_rows_vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(src, dst, g, 0, cv);
}

static void ilv_rows_vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(src, dst, g, 0, cv);
}
#endif

/* An 8-bit conversion that is no byte map (u8 at scale 1 into i8 at 0.3):
 * a table and nothing else, which the kernel tests may fill with random
 * bytes. */
static tl_cvt table_only_cvt(void)
{
    tl_quant q03 = tl_test_quant(TL_Q_AFFINE, 0, 0.3f, 0, TL_ROUND_EVEN), q1 = tl_test_quant(TL_Q_AFFINE, 0, 1.0f, 0, TL_ROUND_EVEN);
    tl_cvt cv;
    tl_cvt_init_dt(&cv, TL_U8, &q1, TL_I8, &q03);
    CHECK(cv.lut8 && !cv.affine8);
    CHECK_EQ_I64(tl_map8_of(&cv), -1);
    return cv;
}

TL_TEST(byte_maps_every_code)
{
#define M8(op, s, d) TL_MAP8(TL_MAP8_##op, s, d)
    static const map8_case cases[] = {
        {M8(MOVE, 0, 0), TL_EP_COPY, 0, 0, 1, 0, 0, 0, 0},
        {M8(MOVE, 0, 0), TL_EP_COPY, 1, 1, 1, 0, 0, 0, 0},
        {M8(SAT, 0, 1), TL_EP_INT, 0, 1, 1, 0, 0, 0, 0},
        {M8(SAT, 1, 0), TL_EP_INT, 1, 0, 1, 0, 0, 0, 0},
        {M8(ADD, 0, 0), TL_EP_REAL, 0, 1, 1, -128, 0, 0, 0}, /* RKNN's zp -128 */
        {M8(ADD, 0, 0), TL_EP_REAL, 1, 0, 1, 128, 0, 0, 0},
        {M8(ADD, 0, 0), TL_EP_REAL, 0, 0, 1, 0, 0, 0, 0},
        {M8(ADD, 0, 0), TL_EP_REAL, 1, 1, 1, 0, 0, 0, 0},
        {M8(WIDE, 0, 0), TL_EP_REAL, 0, 0, 1, 7, 0, 0, 0},    /* an add that clamps */
        {M8(WIDE, 1, 1), TL_EP_REAL, 1, 1, 1, -3, 0, 0, 0},
        {M8(WIDE, 0, 1), TL_EP_REAL, 0, 1, 1, -100, 0, 0, 0},
        {M8(WIDE, 1, 0), TL_EP_REAL, 1, 0, 3, 5, 1, 2, 1},    /* half to even */
    };
    tl_rng r = tl_test_rng();
    map8_case all[64];
    size_t n = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) all[n++] = cases[i];
    /* the halvings and doublings, by signedness */
    for (int s = 0; s < 2; s++)
        for (int d = 0; d < 2; d++) {
            all[n++] = (map8_case){M8(HALVE_DOWN, s, d), TL_EP_REAL, s, d, 1, 0, 0, 1, 0}; /* TIDL 0.5 into i8 */
            all[n++] = (map8_case){M8(HALVE_UP, s, d), TL_EP_REAL, s, d, 1, 0, 1, 1, 0};
            all[n++] = (map8_case){M8(HALVE_UP, s, d), TL_EP_REAL, s, d, 1, 1, 0, 1, 0};   /* bias in add */
            all[n++] = (map8_case){M8(HALVE_DOWN, s, d), TL_EP_REAL, s, d, 1, 2, -2, 1, 0};
            all[n++] = (map8_case){M8(DOUBLE, s, d), TL_EP_REAL, s, d, 2, 0, 0, 0, 0};     /* TIDL's way back */
            all[n++] = (map8_case){M8(WIDE, s, d), TL_EP_REAL, s, d, 1, 0, 0, 1, 1};       /* halving to even */
            all[n++] = (map8_case){M8(WIDE, s, d), TL_EP_REAL, s, d, 2, 1, 0, 0, 0};       /* 2v + 1 */
            all[n++] = (map8_case){M8(WIDE, s, d), TL_EP_REAL, s, d, 5, -40, 3, 3, 0};
        }
#undef M8
    /* no byte map: a table that is no affine map, and wider elements */
    tl_cvt none = table_only_cvt();
    const tl_quant q03 = tl_test_quant(TL_Q_AFFINE, 0, 0.3f, 0, TL_ROUND_EVEN);
    tl_cvt_init_dt(&none, TL_F32, NULL, TL_I8, &q03);
    CHECK_EQ_I64(tl_map8_of(&none), -1);
    int seen[TL_MAP8(TL_MAP8_WIDE, 1, 1) + 1] = {0};
    for (size_t i = 0; i < n; i++) {
        const map8_case *c = &all[i];
        tl_cvt cv;
        map8_cvt(&cv, c);
        const int code = tl_map8_of(&cv);
        if (code != c->code) FAILF("map %zu (%d -> %d mul %d add %d): code %d, want %d", i, c->s, c->d, c->mul, c->add, code, c->code);
        seen[c->code]++;
        uint8_t add = 0;
        bool byte_add = tl_cvt_byte_add(&cv, &add);
        CHECK(byte_add == (c->code == TL_MAP8_MOVE || c->code == TL_MAP8(TL_MAP8_ADD, 0, 0)));
        for (int x = 0; byte_add && x < 256; x++) CHECK(cv.lut[x] == (uint8_t)(x + add));
#if defined(__ARM_NEON) && !defined(__x86_64__)
        static const size_t counts[] = {1, 7, 15, 16, 17, 33, 50};
        uint8_t src[50 * 32], out[50 * 32 + 1], want[50 * 32];
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            const size_t m = counts[k];
            for (unsigned w = 4; w <= 32; w *= 2) {
                for (size_t j = 0; j < sizeof src; j++) src[j] = (uint8_t)tl_rng_range(&r, 0, 255);
                memset(out, 0xA5, sizeof out);
                tl_x8_spread3_ukernel__neon(src, out, m, w, &cv, code);
                memset(want, 0, m * w);
                for (size_t p = 0; p < m; p++)
                    for (int ch = 0; ch < 3; ch++) want[p * w + (size_t)ch] = cv.lut[src[3 * p + (size_t)ch]];
                if (memcmp(out, want, m * w) || out[m * w] != 0xA5) FAILF("spread3 map %d w %u m %zu", code, w, m);
                memset(out, 0xA5, sizeof out);
                tl_x8_gather3_ukernel__neon(src, w, out, m, &cv, code);
                for (size_t p = 0; p < m; p++)
                    for (int ch = 0; ch < 3; ch++) want[3 * p + (size_t)ch] = cv.lut[src[p * w + (size_t)ch]];
                if (memcmp(out, want, 3 * m) || out[3 * m] != 0xA5) FAILF("gather3 map %d w %u m %zu", code, w, m);
            }
            rows3_maps(src, m, 2, 3, &cv, code, tl_x8_deinterleave3_rows_ukernel__neon, tl_x8_interleave3_rows_ukernel__neon);
            if (TL_MAP8_OP(code) >= TL_MAP8_ADD) {
                memset(out, 0xA5, sizeof out);
                tl_affine8_row__neon(src + 1, out, 16 * m + 1, &cv, code);
                for (size_t j = 0; j < 16 * m + 1; j++) want[j] = cv.lut[src[1 + j]];
                if (memcmp(out, want, 16 * m + 1) || out[16 * m + 1] != 0xA5) FAILF("affine8 row map %d n %zu", code, 16 * m + 1);
            }
        }
#else
        (void)r;
#endif
#if defined(__x86_64__)
        if (tl_cpu_runs(TL_ISA_AVX2, 0)) {
            /* rows shorter than a step of 32 pixels, one step, several and a
             * part; padding around the planar rows of none, a few bytes, up
             * to a register and more than one (the zeros stored first) */
            static const size_t counts[] = {1, 7, 31, 32, 33, 50, 65, 70};
            static const size_t pads[][2] = {{2, 3}, {0, 0}, {1, 32}, {32, 1}, {33, 40}};
            static uint8_t src[1024];
            for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++)
                for (size_t q = 0; q < sizeof pads / sizeof pads[0]; q++) {
                    for (size_t j = 0; j < sizeof src; j++) src[j] = (uint8_t)tl_rng_range(&r, 0, 255);
                    rows3_maps(src, counts[k], pads[q][0], pads[q][1], &cv, code, dilv_rows_avx2, ilv_rows_avx2);
                    /* VBMI: the maps in bytes computed, WIDE by the table */
                    if (tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI))
                        rows3_maps(src, counts[k], pads[q][0], pads[q][1], &cv, code, dilv_rows_vbmi, ilv_rows_vbmi);
                }
        }
#endif
    }
    for (int op = TL_MAP8_MOVE; op <= TL_MAP8_WIDE; op++)
        for (int s = 0; s < 2; s++)
            for (int d = 0; d < 2; d++) {
                const int code = TL_MAP8(op, s, d);
                const bool valid = op == TL_MAP8_MOVE || op == TL_MAP8_ADD ? !s && !d : op == TL_MAP8_SAT ? s != d : true;
                if (valid && !seen[code]) FAILF("no map with code %d", code);
            }
}

TL_TEST(pixel_moves_shuffle)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_cpu_has(TL_ISA_AVX2)) {
        printf("pixel_moves_shuffle: skipped (no AVX2 here)\n");
        return;
    }
#endif
    tl_rng r = tl_test_rng();
    for (unsigned w = 4; w <= 64; w *= 2)
        for (unsigned rd = 1; rd <= w && rd <= 16 && TL_TEST_FAILURES() == 0; rd++) {
            unsigned h = rd >= w || rd >= 16 ? 0 : (unsigned)tl_rng_range(&r, 0, (int64_t)((w < 16 ? w : 16) - rd));
            for (size_t m = 0; m <= 3 * 32 / (w < 32 ? w : 32) + 3; m++) {
                check_spread_shuffle(&r, w, rd, h, m, PAD, 0);
                check_spread_shuffle(&r, w, rd, 0, m, 64, 1);
                check_spread_shuffle(&r, w, rd, h, m, PAD, 1);
                check_spread_direct(&r, w, rd, m);
                for (int sat = 0; sat < 3; sat++) check_gather_avx2(&r, w, rd, m, sat);
            }
            /* the gathers of 8 pixels a step from 16 or 32 bytes: a few steps */
            for (size_t m = 3 * 32 / (w < 32 ? w : 32) + 4; w >= 16 && m <= 3 * 8 + 3; m++)
                for (int sat = 0; sat < 3; sat++) check_gather_avx2(&r, w, rd, m, sat);
        }
}

/* The 3-channel byte (de)interleaves with an 8-bit conversion in the
 * register (interleave/avx512vbmi.c, taken by the 2d executor, not in the
 * registry) against their definition, the scalar de-interleave plus a
 * lookup per byte: random tables (looked up) and the element rule's own
 * (u8 -> TIDL i8 at scale 0.5, computed in bytes), every length up to 4 steps and then some, destination rows at every
 * offset in a line and gaps between them that must stay untouched, the
 * source ending at a PROT_NONE page, streamed and plain stores, rows off a
 * line realigned or stored as they are (TL_T2D_SPLIT). */
#if defined(__x86_64__) || defined(_M_X64)
/* The conversions by what the VBMI kernels do with them: a random table
 * (refilled by vbmi_maps_refill); TIDL's i8 at scale 0.5 from u8 (halved:
 * the table) and back (doubled, computed); RKNN's zero point -128 (an
 * add); u8 <-> i8 saturated (computed: there is no table). want: the
 * element rule's answer for each code. */
enum { NMAPS = 6 };
typedef struct vbmi_maps {
    tl_cvt cv[NMAPS];
    uint8_t want[NMAPS][256];
} vbmi_maps;

static void vbmi_maps_init(vbmi_maps *m)
{
    const tl_quant half = tl_test_quant(TL_Q_INV, 0, 0.5f, 0, TL_ROUND_EVEN); /* TIDL: real = code / scale */
    const tl_quant rknn = tl_test_quant(TL_Q_AFFINE, -128, 1.0f, 0, TL_ROUND_EVEN);
    static const int maps[NMAPS] = {TL_MAP8_LUT, TL_MAP8_LUT, TL_MAP8(TL_MAP8_DOUBLE, 1, 0), TL_MAP8(TL_MAP8_ADD, 0, 0),
                                    TL_MAP8(TL_MAP8_SAT, 0, 1), TL_MAP8(TL_MAP8_SAT, 1, 0)};
    m->cv[0] = table_only_cvt();
    tl_cvt_init_dt(&m->cv[1], TL_U8, NULL, TL_I8, &half);
    tl_cvt_init_dt(&m->cv[2], TL_I8, &half, TL_U8, NULL);
    tl_cvt_init_dt(&m->cv[3], TL_U8, NULL, TL_I8, &rknn);
    tl_cvt_init_dt(&m->cv[4], TL_U8, NULL, TL_I8, NULL);
    tl_cvt_init_dt(&m->cv[5], TL_I8, NULL, TL_U8, NULL);
    for (int k = 0; k < NMAPS; k++) {
        CHECK_EQ_I64(tl_x8_vbmi_map(&m->cv[k]), maps[k]);
        for (unsigned c = 0; k && c < 256; c++) m->want[k][c] = (uint8_t)tl_elem_convert_raw(&m->cv[k].op, c);
    }
}

static void vbmi_maps_refill(vbmi_maps *m, tl_rng *r)
{
    tl_rng_bytes(r, m->cv[0].lut, sizeof m->cv[0].lut);
    memcpy(m->want[0], m->cv[0].lut, 256);
}

static void check_lut_dilv(tl_rng *r, size_t n, const tl_cvt *cv, const uint8_t *lut)
{
    size_t len = 3 * n, gap = (size_t)tl_rng_range(r, 0, 70);
    size_t ds1 = n + gap, off = (size_t)tl_rng_range(r, 0, 63), total = off + 3 * ds1 + 2 * PAD;
    guarded g;
    REQUIRE(guard_open(&g, len));
    uint8_t *src = g.at, *raw = aligned_alloc(64, (total + 63) / 64 * 64);
    tl_rng_bytes(r, src, len);
    memset(raw, 0xA5, total);
    uint8_t *out = raw + PAD + off;
    static const int flags[4] = {0, TL_T2D_STREAM, TL_T2D_SPLIT, TL_T2D_STREAM | TL_T2D_SPLIT};
    tl_x8_lut_deinterleave3_ukernel__avx512vbmi(src, out, (ptrdiff_t)ds1, n, flags[tl_rng_pick(r, 4)], cv);
    for (size_t i = 0; i < total; i++) {
        uint8_t want = 0xA5;
        ptrdiff_t j = (ptrdiff_t)i - (ptrdiff_t)(PAD + off);
        if (j >= 0 && (size_t)j < 3 * ds1 && (size_t)j % ds1 < n) want = lut[src[3 * ((size_t)j % ds1) + (size_t)j / ds1]];
        if (raw[i] != want) {
            FAILF("lut de-interleave n=%zu ds1=%zu off=%zu: byte %td: 0x%02x != 0x%02x", n, ds1, off, j, raw[i], want);
            break;
        }
    }
    free(raw);
    guard_close(&g);
}

static void check_lut_ilv(tl_rng *r, size_t n, const tl_cvt *cv, const uint8_t *lut)
{
    size_t off = (size_t)tl_rng_range(r, 0, 63), total = off + 3 * n + 2 * PAD;
    guarded g;
    REQUIRE(guard_open(&g, n));
    uint8_t *p0 = malloc(n + 1), *p2 = malloc(n + 1), *raw = aligned_alloc(64, (total + 63) / 64 * 64);
    const uint8_t *planes[3] = {p0, g.at, p2};
    tl_rng_bytes(r, p0, n + 1);
    tl_rng_bytes(r, g.at, n);
    tl_rng_bytes(r, p2, n + 1);
    if (tl_rng_range(r, 0, 3) == 0) planes[2] = NULL; /* a lane of zeros */
    memset(raw, 0xA5, total);
    tl_x8_lut_interleave3_ukernel__avx512vbmi(planes, raw + PAD + off, n, (int)tl_rng_range(r, 0, 1), cv);
    for (size_t i = 0; i < total; i++) {
        uint8_t want = 0xA5;
        ptrdiff_t j = (ptrdiff_t)i - (ptrdiff_t)(PAD + off);
        if (j >= 0 && (size_t)j < 3 * n) {
            const uint8_t *pl = planes[j % 3];
            want = pl ? lut[pl[j / 3]] : 0;
        }
        if (raw[i] != want) {
            FAILF("lut interleave n=%zu off=%zu: byte %td: 0x%02x != 0x%02x", n, off, j, raw[i], want);
            break;
        }
    }
    free(p0);
    free(p2);
    free(raw);
    guard_close(&g);
}
#endif

TL_TEST(lut_interleave_vbmi)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) {
        printf("lut_interleave_vbmi: skipped (no AVX-512 VBMI here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    static vbmi_maps m;
    vbmi_maps_init(&m);
    for (size_t n = 0; n < 400 && TL_TEST_FAILURES() == 0; n += n < 200 ? 1 : (size_t)tl_rng_range(&r, 1, 40)) {
        vbmi_maps_refill(&m, &r);
        const int k = (int)(n % NMAPS);
        check_lut_dilv(&r, n, &m.cv[k], m.want[k]);
        check_lut_ilv(&r, n, &m.cv[k], m.want[k]);
    }
#endif
}

/* The rows forms (tl_rows3: TIDL's padded planes, a whole image a call)
 * against their definition: packed pixel (r, i) channel c is planar byte
 * c * plane + r * plane_row + i, through each kind of map (vbmi_maps) or
 * as it is; de-interleaving writes `head` zeros before each planar row and
 * `tail` after and nothing else (sentinels everywhere around). Rows shorter and longer
 * than a step; pads of 0 to 3 bytes and of 64 and more (a step then starts
 * inside a pad run, or is all padding); planar rows contiguous but for the
 * padding (the one-stream form) or with a gap, packed rows dense or with a
 * gap (the row-by-row form); every store flag. The source ends at a
 * PROT_NONE page; an interleave's source planes end with the last row's
 * last pixel, so no byte of padding after it may be read either. */
#if defined(__x86_64__) || defined(_M_X64)
typedef struct rows_case {
    tl_rows3 g;
    size_t planar_bytes, packed_bytes;
} rows_case;

static rows_case rows_pick(tl_rng *r, size_t n, size_t rows)
{
    rows_case k;
    static const size_t big[] = {64, 65, 70, 130};
    k.g.n = n;
    k.g.rows = rows;
    k.g.head = tl_rng_range(r, 0, 5) == 0 ? big[tl_rng_pick(r, 4)] : (size_t)tl_rng_range(r, 0, 3);
    k.g.tail = tl_rng_range(r, 0, 5) == 0 ? big[tl_rng_pick(r, 4)] : (size_t)tl_rng_range(r, 0, 3);
    bool packed_gap = tl_rng_range(r, 0, 4) == 0, planar_gap = tl_rng_range(r, 0, 4) == 0;
    k.g.packed_row = (ptrdiff_t)(3 * n + (packed_gap ? (size_t)tl_rng_range(r, 1, 9) : 0));
    k.g.plane_row = (ptrdiff_t)(n + k.g.head + k.g.tail + (planar_gap ? (size_t)tl_rng_range(r, 1, 9) : 0));
    size_t plane_bytes = (size_t)k.g.plane_row * rows;
    k.g.plane = (ptrdiff_t)(plane_bytes + (size_t)tl_rng_range(r, 0, 70));
    k.planar_bytes = 2 * (size_t)k.g.plane + plane_bytes;
    k.packed_bytes = (size_t)k.g.packed_row * (rows - 1) + 3 * n;
    return k;
}

static const int k_store_flags[4] = {0, TL_T2D_STREAM, TL_T2D_SPLIT, TL_T2D_STREAM | TL_T2D_SPLIT};

static void check_rows_dilv(tl_rng *r, size_t n, size_t rows, const tl_cvt *cv, const uint8_t *lut)
{
    rows_case k = rows_pick(r, n, rows);
    const tl_rows3 *g = &k.g;
    guarded gs;
    REQUIRE(guard_open(&gs, k.packed_bytes));
    tl_rng_bytes(r, gs.at, k.packed_bytes);
    size_t off = (size_t)tl_rng_range(r, 0, 63), lead = PAD + off + g->head, total = lead + k.planar_bytes + PAD;
    uint8_t *raw = aligned_alloc(64, (total + 63) / 64 * 64);
    REQUIRE(raw != NULL);
    memset(raw, 0xA5, total);
    int flags = k_store_flags[tl_rng_pick(r, 4)];
    tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(gs.at, raw + lead, g, flags, cv);
    for (size_t b = 0; b < total; b++) {
        uint8_t want = 0xA5;
        ptrdiff_t j = (ptrdiff_t)b - (ptrdiff_t)lead; /* from plane 0, row 0, pixel 0 */
        for (size_t c = 0; c < 3; c++) {
            ptrdiff_t at = j - (ptrdiff_t)c * g->plane + (ptrdiff_t)g->head; /* from the row's padding */
            if (at < 0 || at >= g->plane_row * (ptrdiff_t)rows) continue;
            size_t row = (size_t)(at / g->plane_row), x = (size_t)(at % g->plane_row);
            if (x < g->head || (x >= g->head + n && x < g->head + n + g->tail)) want = 0;
            else if (x < g->head + n) {
                uint8_t v = gs.at[(size_t)g->packed_row * row + 3 * (x - g->head) + c];
                want = lut ? lut[v] : v;
            }
        }
        if (raw[b] != want) {
            FAILF("rows de-interleave n=%zu rows=%zu head=%zu tail=%zu plane_row=%td packed_row=%td flags=%d "
                  "off=%zu: byte %td: 0x%02x != 0x%02x",
                  n, rows, g->head, g->tail, g->plane_row, g->packed_row, flags, off, (ptrdiff_t)b - (ptrdiff_t)lead,
                  raw[b], want);
            break;
        }
    }
    free(raw);
    guard_close(&gs);
}

static void check_rows_ilv(tl_rng *r, size_t n, size_t rows, const tl_cvt *cv, const uint8_t *lut)
{
    rows_case k = rows_pick(r, n, rows);
    const tl_rows3 *g = &k.g;
    /* the planes from row 0's first pixel to the last row's last: the last
     * plane's row padding after that is not there to read */
    size_t used = k.planar_bytes - g->head - g->tail - ((size_t)g->plane_row - n - g->head - g->tail);
    guarded gs;
    REQUIRE(guard_open(&gs, used));
    tl_rng_bytes(r, gs.at, used); /* the padding too: not zeros, not to be read into pixels */
    size_t off = (size_t)tl_rng_range(r, 0, 63), total = PAD + off + k.packed_bytes + PAD;
    uint8_t *raw = aligned_alloc(64, (total + 63) / 64 * 64);
    REQUIRE(raw != NULL);
    memset(raw, 0xA5, total);
    int flags = tl_rng_range(r, 0, 1) ? TL_T2D_STREAM : 0;
    tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(gs.at, raw + PAD + off, g, flags, cv);
    for (size_t b = 0; b < total; b++) {
        uint8_t want = 0xA5;
        ptrdiff_t j = (ptrdiff_t)b - (ptrdiff_t)(PAD + off);
        if (j >= 0 && (size_t)j < k.packed_bytes && (size_t)(j % g->packed_row) < 3 * n) {
            size_t row = (size_t)(j / g->packed_row), x = (size_t)(j % g->packed_row);
            uint8_t v = gs.at[(size_t)g->plane * (x % 3) + (size_t)g->plane_row * row + x / 3];
            want = lut ? lut[v] : v;
        }
        if (raw[b] != want) {
            FAILF("rows interleave n=%zu rows=%zu head=%zu tail=%zu plane_row=%td packed_row=%td flags=%d off=%zu: "
                  "byte %td: 0x%02x != 0x%02x",
                  n, rows, g->head, g->tail, g->plane_row, g->packed_row, flags, off, j, raw[b], want);
            break;
        }
    }
    free(raw);
    guard_close(&gs);
}
#endif

TL_TEST(rows_interleave_vbmi)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) {
        printf("rows_interleave_vbmi: skipped (no AVX-512 VBMI here)\n");
        return;
    }
    tl_rng r = tl_test_rng();
    static vbmi_maps m;
    vbmi_maps_init(&m);
    for (size_t n = 1; n < 330 && TL_TEST_FAILURES() == 0; n += n < 140 ? 1 : (size_t)tl_rng_range(&r, 1, 30))
        for (size_t rows = 1; rows <= 5 && TL_TEST_FAILURES() == 0; rows += 2) {
            vbmi_maps_refill(&m, &r);
            const size_t k = (n + rows) % (NMAPS + 1); /* NMAPS: a move (cv NULL) */
            const tl_cvt *c = k < NMAPS ? &m.cv[k] : NULL;
            check_rows_dilv(&r, n, rows, c, c ? m.want[k] : NULL);
            check_rows_ilv(&r, n, rows, c, c ? m.want[k] : NULL);
        }
#endif
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(convert_rows_exhaustive);
    TL_RUN(convert_lut_kernels);
    TL_RUN(convert_rows_strided);
    TL_RUN(convert_group4);
    TL_RUN(convert_affine8);
    TL_RUN(byte_maps_every_code);
    TL_RUN(move_kernels);
    TL_RUN(move_kernels_strides);
    TL_RUN(move_kernels_planes);
    TL_RUN(move_kernels_source_end);
    TL_RUN(interleave_zero_lanes);
    TL_RUN(repack_and_fill);
    TL_RUN(pixel_moves_vbmi);
    TL_RUN(pixel_moves_shuffle);
    TL_RUN(line_gathers_vbmi);
    TL_RUN(chroma_zip_even);
    TL_RUN(f32_interleave3_vbmi);
    TL_RUN(x8_block16_avx2);
    TL_RUN(in_register_neon);
    TL_RUN(chroma_moves_avx512);
    TL_RUN(chroma_dup_rows);
    TL_RUN(chroma_dup_rows2);
    TL_RUN(saturating_repack);
    TL_RUN(lut_interleave_vbmi);
    TL_RUN(rows_interleave_vbmi);
    return tl_test_finish();
}
