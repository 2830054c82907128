/* The engine: the normaliser as a pure function against tables, plan shapes,
 * and the differential suite — thousands of seeded random (src, dst) pairs,
 * every plan bit-exact against tl_convert_reference on every ISA path the
 * machine has (forced per plan, not only through TL_CPU), with odd sizes,
 * unaligned pointers, buffers ending at a page end and sentinels around the
 * destination. TL_TEST_QUICK=1 runs fewer pairs (sanitizers, qemu). */
#define _DEFAULT_SOURCE /* mmap MAP_ANONYMOUS, sysconf */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/exec/exec.h"
#include "tl_engine_test.h"
#include "tl_test.h"

/* ---- the normaliser's last steps, as a pure function ------------------------------ */
typedef struct norm_case {
    const char *name;
    int n, keep;
    tl_node in[6];
    int m;
    tl_node out[6];
} norm_case;

static const norm_case k_norm[] = {
    /* NCHW -> NHWC f32, C=3, 4x5, strides in bits: H and W merge, C stays innermost */
    {"nchw_nhwc", 4, 0, {{1, 1920, 1920}, {3, 640, 32}, {4, 160, 480}, {5, 32, 96}}, 2,
     {{20, 32, 96}, {3, 640, 32}}},
    /* a plain copy collapses to one node */
    {"copy", 3, 0, {{2, 480, 480}, {4, 120, 120}, {30, 4, 4}}, 1, {{240, 4, 4}}},
    /* count-1 nodes vanish; an empty nest is one count-1 node */
    {"ones", 2, 0, {{1, 8, 8}, {1, 0, 16}}, 1, {{1, 0, 0}}},
    /* ordered by destination stride, outermost first; no merge across a gap */
    {"order", 3, 0, {{4, 8, 8}, {3, 64, 256}, {2, 40, 40}}, 3, {{3, 64, 256}, {2, 40, 40}, {4, 8, 8}}},
    /* ... and merge where the gap closes on both sides */
    {"merge", 3, 0, {{4, 8, 8}, {3, 64, 256}, {2, 32, 32}}, 2, {{3, 64, 256}, {8, 8, 8}}},
    /* a pinned (fused) inner node stays last with its count, even when contiguous */
    {"pinned", 3, 1, {{5, 96, 128}, {1, 0, 0}, {3, 32, 32}}, 2, {{5, 96, 128}, {3, 32, 32}}},
    /* broadcast source (stride 0) merges only with broadcast */
    {"broadcast", 2, 0, {{4, 0, 64}, {2, 0, 32}}, 1, {{8, 0, 32}}},
    /* NCHW16c -> NCHW: the block and its lanes do not merge */
    {"unpack", 3, 0, {{2, 8192, 8192}, {16, 32, 512}, {16, 512, 32}}, 3,
     {{2, 8192, 8192}, {16, 32, 512}, {16, 512, 32}}},
};

TL_TEST(normalise_tables)
{
    for (size_t k = 0; k < sizeof k_norm / sizeof k_norm[0]; k++) {
        const norm_case *c = &k_norm[k];
        tl_node nodes[TL_MAX_NODES];
        memcpy(nodes, c->in, (size_t)c->n * sizeof nodes[0]);
        int m = tl_nodes_normalise(nodes, c->n, c->keep);
        if (m != c->m) {
            FAILF("%s: %d nodes, expected %d", c->name, m, c->m);
            continue;
        }
        for (int i = 0; i < m; i++)
            if (nodes[i].count != c->out[i].count || nodes[i].ss != c->out[i].ss || nodes[i].ds != c->out[i].ds)
                FAILF("%s: node %d = {%lld,%lld,%lld}, expected {%lld,%lld,%lld}", c->name, i,
                      (long long)nodes[i].count, (long long)nodes[i].ss, (long long)nodes[i].ds,
                      (long long)c->out[i].count, (long long)c->out[i].ss, (long long)c->out[i].ds);
    }
}

/* ---- plan shapes: what the normaliser makes of typical pairs ------------------------- */
static tl_plan *plan_of(const char *from, const char *to, unsigned flags)
{
    tl_desc s, d;
    tl_plan *p = NULL;
    if (tl_desc_parse(&s, from) != TL_OK || tl_desc_parse(&d, to) != TL_OK) return NULL;
    if (tl_plan_create_isa(&p, &s, &d, flags, TL_ISA_SCALAR) != TL_OK) return NULL;
    return p;
}

/* The normalised passes as structure, not text: for each pair, every pass's
 * executor, fused zeros and node nest (bytes, after the executors' own
 * transforms: byte strides, a source-contiguous node brought inward). */
typedef struct pass_shape {
    const tl_executor *ex;
    int64_t head, tail;
    int nnodes;
    tl_node nodes[3];
} pass_shape;

static void check_passes(const char *from, const char *to, int npasses, const pass_shape *want)
{
    tl_plan *p = plan_of(from, to, 0);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, npasses);
    for (int i = 0; i < npasses && i < p->npasses; i++) {
        const tl_pass *ps = &p->passes[i];
        const pass_shape *w = &want[i];
        if (ps->ex != w->ex) FAILF("%s -> %s pass %d: executor %s, expected %s", from, to, i, ps->ex->name, w->ex->name);
        CHECK_EQ_I64(ps->head, w->head);
        CHECK_EQ_I64(ps->tail, w->tail);
        CHECK_EQ_I64(ps->nnodes, w->nnodes);
        for (int k = 0; k < w->nnodes && k < ps->nnodes; k++)
            if (ps->nodes[k].count != w->nodes[k].count || ps->nodes[k].ss != w->nodes[k].ss ||
                ps->nodes[k].ds != w->nodes[k].ds)
                FAILF("%s -> %s pass %d node %d = {%lld,%lld,%lld}, expected {%lld,%lld,%lld}", from, to, i, k,
                      (long long)ps->nodes[k].count, (long long)ps->nodes[k].ss, (long long)ps->nodes[k].ds,
                      (long long)w->nodes[k].count, (long long)w->nodes[k].ss, (long long)w->nodes[k].ds);
    }
    tl_plan_destroy(p);
}

TL_TEST(normalised_structures)
{
    /* planes to pixels: one 2d node pair */
    static const pass_shape t2d[] = {{&tl_exec_2d, 0, 0, 2, {{72, 4, 12}, {3, 288, 4}}}};
    check_passes("NCHW:f32:1x3x8x9", "NHWC:f32:1x8x9x3", 1, t2d);
    /* NHWC into padded TIDL planes: C (source stride 1) brought above the inner
     * W node, W padding fused, top and bottom rows as fill passes */
    static const pass_shape tidl[] = {{&tl_exec_2d, 1, 1, 3, {{4, 18, 8}, {3, 1, 48}, {6, 3, 1}}},
                                      {&tl_exec_fill, 0, 0, 2, {{3, 0, 48}, {8, 0, 1}}},
                                      {&tl_exec_fill, 0, 0, 2, {{3, 0, 48}, {8, 0, 1}}}};
    check_passes("NHWC:u8:1x4x6x3", "tidl:u8:1x3x4x6:pad=1,1,1,1", 3, tidl);
    /* RGB into 16-byte RKNN pixels: pixel runs with 13 fused zero lanes */
    static const pass_shape px[] = {{&tl_exec_pixels, 0, 13, 2, {{20, 3, 16}, {3, 1, 1}}}};
    check_passes("NHWC:u8:1x4x5x3", "rknn.nc1hwc2:i8:1x1x4x5x16:c=3:zp=-128:scale=1", 1, px);
    /* 4-bit elements: bit strides, the generic walker */
    static const pass_shape u4[] = {{&tl_exec_walk, 0, 0, 2, {{24, 4, 12}, {3, 96, 4}}}};
    check_passes("NCHW:u4:1x3x4x6", "NHWC:u4:1x4x6x3", 1, u4);
    /* planar YUV 4:4:4 into NV12: the U and V passes (the chroma pair's even
     * and odd bytes) merged into one, an innermost node of the 2 planes */
    static const pass_shape nv12[] = {{&tl_exec_row, 0, 0, 1, {{24, 1, 1}}},
                                      {&tl_exec_strided_copy, 0, 0, 3, {{2, 12, 6}, {3, 2, 2}, {2, 24, 1}}}};
    check_passes("CHW:u8:3x4x6", "yuv.nv12:u8:3x4x6", 2, nv12);
}

/* The rows executors take the fill pass of each row's padding, on every
 * path: one pass where there were two, the gap in the pass; padding before
 * the rows stays a fill pass. AVX-512 runs the rows in one kernel call (the
 * rows kernels); the other paths a row at a time. */
TL_TEST(row_gaps)
{
    static const struct {
        const char *from, *to;
        const char *kernel;  /* the AVX-512 (VBMI) rows kernel */
        const char *slow;    /* ... where two-source byte permutes are slow and the image fits
                                the L2 (NULL: the same) */
        int npasses;
        int64_t gap;
    } cases[] = {
        {"NHWC:u8:1x295x296x3", "trt.dla_hwc4:i8:1x3x295x296", "tl_u8_i8_repack3_0_1_rows_ukernel__avx512", NULL, 1, 32},
        {"NHWC:u8:1x5x21x3", "NHWC:i8:1x5x21x3:pad=0,0,3,0,0,0,2,1", "tl_u8_i8_repack3_0_1_rows_ukernel__avx512", NULL, 2, 8},
        {"NHWC:u8:1x209x209x3", "trt.dla_hwc4:f16:1x3x209x209", "tl_u8_f16_spread_rows_ukernel__avx512vbmi",
         "tl_u8_f16_spread4_rows_ukernel__avx2", 1, 56},
    };
    const tl_machine m = *tl_machine_get();
    /* permutes fast; slow, the images in the L2 (under 512 KiB); slow, an L2
     * they do not fit */
    for (int v = 0; v < 3; v++) {
        int slow = v == 1;
        tl_machine f = m;
        f.slow_permute2 = v > 0;
        f.stream_bytes = SIZE_MAX; /* not streamed, whatever TL_STREAM_BYTES says */
        f.cache.l2.bytes = v == 2 ? (size_t)64 << 10 : (size_t)2 << 20;
        tl_machine_set(&f);
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            if (!tl_cpu_has(isa)) continue;
            for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
                tl_desc s, d;
                tl_plan *p = NULL;
                REQUIRE_STATUS(tl_desc_parse(&s, cases[k].from), TL_OK);
                REQUIRE_STATUS(tl_desc_parse(&d, cases[k].to), TL_OK);
                REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, isa), TL_OK);
                const char *text = tl_plan_describe(p);
                CHECK_EQ_I64(p->npasses, cases[k].npasses);
                if (!p->passes[0].ex->gaps)
                    FAILF("%s -> %s on %s: executor %s, not a rows executor", cases[k].from, cases[k].to,
                          tl_isa_name(isa), p->passes[0].ex->name);
                CHECK_EQ_I64(p->passes[0].gap, cases[k].gap);
                CHECK_STR_CONTAINS(text, "bytes of padding after each row");
                const char *kernel = slow && cases[k].slow ? cases[k].slow : cases[k].kernel;
                bool vbmi = m.feat & TL_FEAT_VBMI;
                if (isa == TL_ISA_AVX512 && (vbmi || !strstr(cases[k].kernel, "vbmi")))
                    CHECK_STR_CONTAINS(text, kernel);
                tl_plan_destroy(p);
            }
        }
    }
    tl_machine_set(NULL);
}

/* The saturating u8 <-> i8 gathers (kDLA_HWC4 i8 into RGB u8) run an
 * image's rows in one executor call in cache, with no row padding to fuse,
 * on the paths that have them (VBMI, AVX2). */
#if defined(__x86_64__) || defined(_M_X64)
TL_TEST(saturating_gather_rows)
{
    const tl_machine m = *tl_machine_get();
    tl_machine f = m;
    f.stream_bytes = SIZE_MAX; /* in cache, whatever TL_STREAM_BYTES says */
    tl_machine_set(&f);
    static const int isas[] = {TL_ISA_AVX2, TL_ISA_AVX512};
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        if (!tl_cpu_has(isas[i])) continue;
        tl_desc s, d;
        tl_plan *p = NULL;
        REQUIRE_STATUS(tl_desc_parse(&s, "trt.dla_hwc4:i8:1x3x40x41"), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:u8:1x40x41x3"), TL_OK);
        REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, isas[i]), TL_OK);
        CHECK_EQ_I64(p->npasses, 1);
        CHECK(p->passes[0].ex == &tl_exec_pixels_rows);
        CHECK_EQ_I64(p->passes[0].gap, 0);
        CHECK_STR_CONTAINS(tl_plan_describe(p), isas[i] == TL_ISA_AVX512 && (m.feat & TL_FEAT_VBMI)
                                                    ? "pixels rows tl_i8_u8_gather_ukernel__avx512vbmi"
                                                    : "pixels rows tl_gather_ukernel__avx2");
        tl_plan_destroy(p);
    }
    tl_machine_set(NULL);
}

/* u8 <-> i8 of identity quantizations (TIDL's padded i8 without a scale)
 * has no table: the VBMI rows (de)interleaves compute the saturation, so
 * both ways are one converting pass of the rows kernel, as on AVX2 (on
 * AVX-512 a de-interleave and a conversion ran before). */
TL_TEST(saturating_interleave_rows)
{
    static const char *specs[2][2] = {{"NHWC:u8:1x40x70x3", "tidl:i8:1x3x40x70:pad=1,1,1,1"},
                                      {"tidl:i8:1x3x40x70:pad=1,1,1,1", "NHWC:u8:1x40x70x3"}};
    static const int isas[] = {TL_ISA_AVX2, TL_ISA_AVX512};
    for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
        const bool vbmi = isas[i] == TL_ISA_AVX512;
        if (!tl_cpu_has(isas[i]) || (vbmi && !(tl_machine_get()->feat & TL_FEAT_VBMI))) continue;
        for (int dir = 0; dir < 2; dir++) {
            tl_desc s, d;
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_desc_parse(&s, specs[dir][0]), TL_OK);
            REQUIRE_STATUS(tl_desc_parse(&d, specs[dir][1]), TL_OK);
            REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, isas[i]), TL_OK);
            const char *name = vbmi ? dir ? "tl_x8_lut_interleave3_rows_ukernel__avx512vbmi"
                                          : "tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi"
                               : dir ? "tl_x8_interleave3_rows_ukernel__avx2"
                                     : "tl_x8_deinterleave3_rows_ukernel__avx2";
            CHECK_STR_CONTAINS(tl_plan_describe(p), name);
            CHECK(strstr(tl_plan_describe(p), "pass 1: convert") == NULL); /* fills of the padded rows only */
            tl_plan_destroy(p);
        }
    }
}
#endif

TL_TEST(plan_shapes)
{
    tl_plan *p = plan_of("NCHW:f32:1x3x4x5", "NHWC:f32:1x4x5x3", 0);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, 1);
    CHECK_EQ_I64(p->passes[0].nnodes, 2);
    CHECK(p->passes[0].ex == &tl_exec_2d);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "{20, 4, 12} {3, 80, 4}");
    tl_plan_destroy(p);

    /* C=20 into NCHW16c: a full block and a tail block whose padding is fused */
    p = plan_of("NCHW:f32:1x20x2x3", "NCHW16c:f32:1x20x2x3", 0);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, 2);
    CHECK_EQ_I64(p->passes[1].tail, 12);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "fused zeros 0 before / 12 after");
    tl_plan_destroy(p);

    /* the same with TL_KEEP_PADDING: no fill, nothing fused */
    p = plan_of("NCHW:f32:1x20x2x3", "NCHW16c:f32:1x20x2x3", TL_KEEP_PADDING);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, 2);
    CHECK_EQ_I64(p->passes[1].tail, 0);
    tl_plan_destroy(p);

    /* row padding: rows of 5 in rows of 8, fused; top/bottom rows are a fill pass */
    p = plan_of("NCHW:u8:1x2x3x5", "NCHW:u8:1x2x3x5:pad=0,0,1,1,0,0,1,2", 0);
    REQUIRE(p != NULL);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "fused zeros 1 before / 2 after");
    CHECK_STR_CONTAINS(tl_plan_describe(p), "fill");
    tl_plan_destroy(p);

    /* RGB pixels into 16-byte NC1HWC2 pixels and back: whole pixels from an L1 tile */
    p = plan_of("NHWC:u8:1x4x5x3", "rknn.nc1hwc2:i8:1x1x4x5x16:c=3:zp=-128:scale=1", 0);
    REQUIRE(p != NULL);
    CHECK(p->passes[0].ex == &tl_exec_pixels);
    CHECK_EQ_I64(p->passes[0].x.px.bytes, 16);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "pixels");
    tl_plan_destroy(p);
    p = plan_of("trt.dla_hwc4:f16:1x3x4x5", "NHWC:u8:1x4x5x3", 0);
    REQUIRE(p != NULL);
    CHECK(p->passes[0].ex == &tl_exec_pixels);
    CHECK_EQ_I64(p->passes[0].x.px.gather, 1);
    CHECK_EQ_I64(p->passes[0].x.px.bytes, 8);
    tl_plan_destroy(p);

    /* 4:2:0 chroma to full resolution: each chroma row expanded once into its
     * two image rows, three nodes a call; the U and V planes one pass whose
     * plane node (source stride 1) runs inside the chroma rows, so each
     * chroma row makes both planes' rows in turn; an odd last row (one image
     * row) by the strided copy, two nodes a call. Every path has the
     * two-plane kernel: the plane node is the executor's own */
    p = plan_of("yuv.nv12:u8:3x6x10", "CHW:u8:3x6x10", 0);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, 2);
    CHECK(p->passes[1].ex == &tl_exec_chroma_planes);
    {
        const tl_pass *c = &p->passes[1];
        static const tl_node want[5] = {{3, 10, 20}, {2, 1, 60}, {2, 0, 10}, {5, 2, 2}, {2, 0, 1}};
        CHECK_EQ_I64(c->nnodes, 5);
        for (int i = 0; i < 5 && i < c->nnodes; i++)
            if (c->nodes[i].count != want[i].count || c->nodes[i].ss != want[i].ss || c->nodes[i].ds != want[i].ds)
                FAILF("NV12 chroma node %d = {%lld,%lld,%lld}, expected {%lld,%lld,%lld}", i,
                      (long long)c->nodes[i].count, (long long)c->nodes[i].ss, (long long)c->nodes[i].ds,
                      (long long)want[i].count, (long long)want[i].ss, (long long)want[i].ds);
    }
    tl_plan_destroy(p);
    for (int isa = 0; isa < TL_ISA_COUNT; isa++) { /* one call for both planes on every path */
        if (!tl_cpu_has(isa)) continue;
        tl_desc a, b;
        REQUIRE_STATUS(tl_desc_parse(&a, "yuv.nv12:u8:3x6x10"), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&b, "CHW:u8:3x6x10"), TL_OK);
        REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, isa), TL_OK);
        CHECK(p->passes[1].ex == &tl_exec_chroma_planes);
        CHECK_EQ_I64(p->passes[1].nnodes, 5);
        CHECK_EQ_I64(p->passes[1].nodes[1].ss, 1);
        tl_plan_destroy(p);
    }
    p = plan_of("yuv.nv12:u8:3x7x10", "CHW:u8:3x7x10", 0);
    REQUIRE(p != NULL);
    int chroma_rows = 0, strided = 0;
    for (int i = 0; i < p->npasses; i++) {
        chroma_rows += p->passes[i].ex == &tl_exec_chroma_rows;
        strided += p->passes[i].ex == &tl_exec_strided_copy;
    }
    CHECK_EQ_I64(chroma_rows, 2);
    CHECK_EQ_I64(strided, 2);
    tl_plan_destroy(p);

    /* a quantized 8-bit pair goes through the plan's table where a table is
     * the fast way (scalar, AVX-512 with VBMI), through the f32 pipeline
     * elsewhere; a plain saturation never does */
    p = plan_of("NHWC:u8:1x4x5x3", "NHWC:i8:1x4x5x3:scale=0.5", 0);
    REQUIRE(p != NULL);
    CHECK(p->cv.lut8);
    CHECK_STR_CONTAINS(tl_plan_describe(p), "tl_x8_lut_ukernel__scalar");
    tl_plan_destroy(p);
    {
        tl_desc a, b;
        REQUIRE_STATUS(tl_desc_parse(&a, "NHWC:u8:1x4x5x3"), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&b, "NHWC:i8:1x4x5x3:scale=0.5"), TL_OK);
        if (tl_cpu_has(TL_ISA_AVX512)) {
            REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, TL_ISA_AVX512), TL_OK);
            CHECK_STR_CONTAINS(tl_plan_describe(p), tl_cpu_avx512vbmi() ? "tl_x8_lut_ukernel__avx512vbmi"
                                                                        : "tl_u8_i8_convert_ukernel__avx512");
            tl_plan_destroy(p);
        }
        if (tl_cpu_has(TL_ISA_AVX2)) {
            REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, TL_ISA_AVX2), TL_OK);
            CHECK_STR_CONTAINS(tl_plan_describe(p), "tl_u8_i8_convert_ukernel__avx2");
            tl_plan_destroy(p);
        }
        REQUIRE_STATUS(tl_desc_parse(&b, "NHWC:i8:1x4x5x3"), TL_OK);
        REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, TL_ISA_SCALAR), TL_OK);
        CHECK(!p->cv.lut8);
        tl_plan_destroy(p);
        /* u8 into f16: the same kernels with two-byte answers */
        REQUIRE_STATUS(tl_desc_parse(&b, "NHWC:f16:1x4x5x3"), TL_OK);
        REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, TL_ISA_SCALAR), TL_OK);
        CHECK(p->cv.lut16);
        CHECK_STR_CONTAINS(tl_plan_describe(p), "tl_x8_lut_ukernel__scalar");
        tl_plan_destroy(p);
        if (tl_cpu_has(TL_ISA_AVX512)) {
            REQUIRE_STATUS(tl_plan_create_isa(&p, &a, &b, 0, TL_ISA_AVX512), TL_OK);
            CHECK_STR_CONTAINS(tl_plan_describe(p), tl_cpu_avx512vbmi() ? "tl_x8_lut_ukernel__avx512vbmi"
                                                                        : "tl_u8_f16_convert_ukernel__avx512");
            tl_plan_destroy(p);
        }
    }

    /* a plain copy is one contiguous row */
    p = plan_of("NCHW:i8:2x3x4x5", "NCHW:i8:2x3x4x5", 0);
    REQUIRE(p != NULL);
    CHECK_EQ_I64(p->npasses, 1);
    CHECK_EQ_I64(p->passes[0].nnodes, 1);
    CHECK_EQ_I64(p->passes[0].nodes[0].count, 120);
    CHECK(p->passes[0].ex == &tl_exec_row);
    tl_plan_destroy(p);
}

/* ---- buffers: sentinels, page ends, unaligned starts ----------------------------------- */
#define GUARD 32
#define SENT 0x5A

typedef struct buf {
    uint8_t *map;     /* mmap base */
    size_t maplen;
    uint8_t *p;       /* the buffer handed to the converter */
    size_t len;
} buf;

/* A buffer of len bytes: either ending right at a PROT_NONE page (an over-read
 * or over-write faults), or with GUARD sentinel bytes on each side, starting
 * `mis` bytes past an aligned address. */
static bool buf_make(buf *b, size_t len, bool page_end, unsigned mis)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = len + 2 * GUARD + 64;
    b->maplen = (body + pg - 1) / pg * pg + pg;
    b->map = mmap(NULL, b->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b->map == MAP_FAILED) return false;
    if (mprotect(b->map + b->maplen - pg, pg, PROT_NONE) != 0) return false;
    memset(b->map, SENT, b->maplen - pg);
    b->len = len;
    b->p = page_end ? b->map + b->maplen - pg - len : b->map + GUARD + mis;
    return true;
}

static void buf_free(buf *b) { munmap(b->map, b->maplen); }

/* ---- random descriptors ---------------------------------------------------------------- */
static const tl_dtype k_fast[] = {TL_U8, TL_I8, TL_I16, TL_F16, TL_BF16, TL_F32};
static const tl_dtype k_other[] = {TL_U16, TL_I32, TL_U32, TL_F64, TL_I64, TL_BOOL, TL_U4, TL_I4};

static tl_dtype rand_dtype(tl_rng *r)
{
    if (tl_rng_range(r, 0, 9) < 8) return k_fast[tl_rng_pick(r, 6)];
    return k_other[tl_rng_pick(r, 8)];
}

static bool is_int(tl_dtype t) { return t != TL_F16 && t != TL_BF16 && t != TL_F32 && t != TL_F64 && t != TL_BOOL; }

static void rand_quant(tl_rng *r, tl_desc *d)
{
    memset(&d->quant, 0, sizeof d->quant);
    if (!is_int((tl_dtype)d->dtype) || tl_rng_range(r, 0, 2) == 0) return;
    tl_quant *q = &d->quant;
    q->kind = (uint8_t)tl_rng_range(r, 1, 3);
    q->round = (uint8_t)tl_rng_range(r, 0, 2);
    if (q->kind == TL_Q_DFP) {
        q->fl = (int8_t)tl_rng_range(r, -6, 9);
    } else {
        q->zp = (int32_t)tl_rng_range(r, -130, 130);
        static const float scales[] = {0.0039215689f, 0.05f, 0.5f, 1.0f, 3.0f, 25.0f, 1e-3f, 7.25f};
        q->scale = scales[tl_rng_pick(r, 8)];
    }
}

/* Layout word for a permutation of the letters, optionally one inner block. */
static void make_word(tl_rng *r, const char *letters, int rank, char *word, int64_t *block_out, int *bdim)
{
    int perm[TL_MAX_DIMS];
    for (int i = 0; i < rank; i++) perm[i] = i;
    for (int i = rank - 1; i > 0; i--) {
        int j = tl_rng_pick(r, i + 1), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int n = 0;
    for (int i = 0; i < rank; i++) word[n++] = letters[perm[i]];
    *bdim = -1;
    *block_out = 1;
    if (tl_rng_range(r, 0, 2) == 0) {
        static const int64_t blocks[] = {2, 4, 8, 16, 32};
        int64_t b = blocks[tl_rng_pick(r, 5)];
        int k = tl_rng_pick(r, rank);
        n += sprintf(word + n, "%d%c", (int)b, letters[k] + ('a' - 'A'));
        *block_out = b;
        *bdim = k;
    }
    word[n] = 0;
}

/* One side: layout word over the shared letters, dims in the word's order. */
static tl_status rand_side(tl_rng *r, tl_desc *d, const char *letters, const int64_t *size, int rank,
                           bool is_src)
{
    char word[64];
    int64_t blk;
    int bdim;
    make_word(r, letters, rank, word, &blk, &bdim);
    int64_t dims[TL_MAX_DIMS];
    int k = 0;
    for (int i = 0; word[i] && k < rank; i++)
        if (word[i] >= 'A' && word[i] <= 'Z') dims[k++] = size[word[i] - 'A'];
    tl_dtype dt = rand_dtype(r);
    TL_TRY(tl_desc_init(d, word, dt, dims, rank));
    if (tl_rng_range(r, 0, 2) == 0) { /* padding */
        int64_t lo[TL_MAX_DIMS], hi[TL_MAX_DIMS];
        for (int i = 0; i < rank; i++) {
            lo[i] = tl_rng_range(r, 0, 3) == 0 ? tl_rng_range(r, 1, 3) : 0;
            hi[i] = tl_rng_range(r, 0, 3) == 0 ? tl_rng_range(r, 1, 5) : 0;
        }
        TL_TRY(tl_desc_set_padding(d, lo, hi));
    }
    if (tl_rng_range(r, 0, 3) == 0) { /* aligned strides */
        int64_t al[TL_MAX_AXES] = {0};
        for (int a = 0; a < d->planes[0].naxes; a++)
            if (tl_rng_range(r, 0, 2) == 0) al[a] = (int64_t)1 << tl_rng_range(r, 1, 6);
        TL_TRY(tl_desc_restride(d, al));
    }
    if (tl_rng_range(r, 0, 4) == 0) { /* an offset, element aligned */
        int64_t eb = tl_dtype_bits(dt) < 8 ? 1 : tl_dtype_bits(dt) / 8;
        d->planes[0].offset_bytes = eb * tl_rng_range(r, 1, 9);
        TL_TRY(tl_desc_update_size(d));
    }
    if (is_src && tl_rng_range(r, 0, 9) == 0) { /* broadcast: one axis of stride 0 */
        int a = tl_rng_pick(r, d->planes[0].naxes);
        d->planes[0].axes[a].stride_bits = 0;
        d->flags |= TL_DESC_READONLY;
        TL_TRY(tl_desc_update_size(d));
    }
    rand_quant(r, d);
    return tl_desc_validate(d);
}

static const char *const k_specs[][2] = {
    {"yuv.nv12:u8:3x6x10", "CHW:u8:3x6x10"},
    {"yuv.nv12:u8:3x5x7", "HWC:u8:5x7x3"},
    {"yuv.i420:u8:3x6x8:pitch=10", "CHW:f32:3x6x8"},
    {"CHW:u8:3x7x9", "yuv.nv21:u8:3x7x9:pitch=12"},
    {"HWC:u8:4x9x3", "yuv.i420:u8:3x4x9"},
    {"NCHW:f32:1x24x4x5", "rknn.nc1hwc2:i8:1x2x4x5x16:c=24:zp=-3:scale=0.05"},
    {"rknn.nc1hwc2:i8:1x3x5x6x16:c=40", "NCHW:f32:1x40x5x6"},
    {"NHWC:u8:1x4x5x3", "trt.dla_hwc4:i8:1x3x4x5"},
    {"NCHW:f16:1x20x3x3", "trt.chw16:f16:1x20x3x3"},
    {"NCHW:i8:1x40x2x3", "trt.chw32:i8:1x40x2x3"},
    {"NCHW:f32:1x3x2x5", "trt.hwc8:f16:1x3x2x5"},
    {"NHWC:u8:1x4x10x3", "tidl:u8:1x3x4x10:pad=1,1,1,1:cp=72"},
    {"tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25", "NCHW:f32:1x3x4x10"},
    {"NHWC:u8:1x6x7x3", "larod.nchw:u8:1x3x6x7:align=0,0,0,16"},
    {"larod.nhwc:u8:1x5x6x3:align=0,0,32,4", "NCHW:f32:1x3x5x6"},
    {"NCHW:f32:1x3x4x4", "dml:f32:1x3x4x4"},
    {"dml:f32:1x3x4x4:strides=1,0,0,0", "NCHW:f32:1x3x4x4"},
    /* raw copies at byte strides (strided copy): chroma upsampling, broadcasts */
    {"yuv.nv12:u8:3x40x64", "CHW:u8:3x40x64"},
    {"yuv.nv21:u8:3x9x13", "HWC:u8:9x13x3"},
    {"dml:i16:1x3x4x4:strides=0,1,0,3", "NCHW:i16:1x3x4x4"},
    /* short pixel runs (pixels), more pixels than one L1 tile holds */
    {"NHWC:u8:1x80x80x3", "rknn.nc1hwc2:i8:1x1x80x80x16:c=3:zp=-128:scale=1"},
    {"rknn.nc1hwc2:i8:1x1x80x80x16:c=3:zp=-128:scale=1", "NHWC:u8:1x80x80x3"},
    {"NHWC:u8:1x70x90x3", "trt.chw32:i8:1x3x70x90:scale=2"},
    {"trt.chw32:i8:1x3x70x90:scale=2", "NHWC:u8:1x70x90x3"},
    {"NHWC:i8:1x9x11x3", "trt.chw32:i8:1x3x9x11"},
    {"trt.chw32:i8:1x3x9x11", "NHWC:i8:1x9x11x3"},
    {"NHWC:u8:1x80x81x3", "trt.dla_hwc4:f16:1x3x80x81"},
    {"trt.dla_hwc4:f16:1x3x80x81", "NHWC:u8:1x80x81x3"},
    /* padded source rows, destination rows adjoining or with a gap (the
     * line gathers' rows: streamed, read as bands of rows) */
    {"trt.dla_hwc4:i8:1x3x33x70", "NHWC:u8:1x33x70x3"},
    {"trt.dla_hwc4:i8:1x3x9x70", "NHWC:u8:1x9x70x3:pad=0,0,0,0,0,0,7,0"},
    {"trt.dla_hwc4:f16:1x3x9x70", "NHWC:u8:1x9x70x3:pad=0,0,0,0,0,0,7,0"},
    /* 3-byte pixels (NEON structure loads and stores): pixel counts around
     * their 16-pixel steps, pixels of 4 to 32 bytes, a move, saturating and
     * affine maps both ways (i8 into kDLA_HWC4 i8 with a scale is a re-pack
     * there: kept for the way back) */
    {"NHWC:u8:1x1x15x3", "rknn.nc1hwc2:i8:1x1x1x15x16:c=3:zp=-128:scale=1"},
    {"NHWC:u8:1x1x16x3", "rknn.nc1hwc2:i8:1x1x1x16x16:c=3:zp=-128:scale=1"},
    {"NHWC:u8:1x1x17x3", "rknn.nc1hwc2:i8:1x1x1x17x16:c=3:zp=-128:scale=1"},
    {"rknn.nc1hwc2:i8:1x1x1x16x16:c=3:zp=-128:scale=1", "NHWC:u8:1x1x16x3"},
    {"rknn.nc1hwc2:i8:1x1x1x17x16:c=3:zp=-128:scale=1", "NHWC:u8:1x1x17x3"},
    {"rknn.nc1hwc2:i8:1x1x1x18x16:c=3:zp=-128:scale=1", "NHWC:u8:1x1x18x3"},
    {"rknn.nc1hwc2:i8:1x1x3x11x16:c=3:zp=-128:scale=1", "NHWC:u8:1x3x11x3"},
    {"NHWC:u8:1x3x11x3", "trt.chw32:i8:1x3x3x11:scale=2"},
    {"trt.chw32:i8:1x3x3x11:scale=2", "NHWC:u8:1x3x11x3"},
    {"trt.chw32:i8:1x3x1x17:scale=0.25", "NHWC:u8:1x1x17x3"},
    {"NHWC:u8:1x5x7x3", "NHWC:u8:1x5x7x3:pad=0,0,0,0,0,0,0,5"},
    {"NHWC:u8:1x5x7x3:pad=0,0,0,0,0,0,0,5", "NHWC:u8:1x5x7x3"},
    {"NHWC:i8:1x5x7x3:pad=0,0,0,0,0,0,0,13", "NHWC:u8:1x5x7x3"},
    {"NHWC:u8:1x5x7x3", "NHWC:i8:1x5x7x3:pad=0,0,0,0,0,0,0,29"},
    {"NHWC:i8:1x5x7x3", "trt.dla_hwc4:i8:1x3x5x7:scale=0.5"},
    {"trt.dla_hwc4:i8:1x3x5x7:scale=0.5", "NHWC:u8:1x5x7x3"},
    {"NHWC:u8:1x1x17x3:scale=2", "NHWC:u8:1x1x17x3:pad=0,0,0,0,0,0,0,13"},
    {"NHWC:i8:1x1x19x3:scale=0.5", "trt.chw32:i8:1x3x1x19"},
    {"NHWC:u8:1x1x18x3:scale=2:pad=0,0,0,0,0,0,0,5", "NHWC:u8:1x1x18x3"},
    /* a partial channel block (raw copies): the whole block's pack from a
     * tile with zero rows (NEON's pack16 for 8 channels and 8 zero lanes) */
    {"NCHW:i8:1x24x9x37", "NCHW16c:i8:1x24x9x37"},
    {"NCHW:u8:1x12x5x70", "NCHW8c:u8:1x12x5x70"},
    {"NCHW:f32:1x40x3x5", "NCHW16c:f32:1x40x3x5"},
    {"NCHW:f16:1x20x7x9", "NCHW16c:f16:1x20x7x9"},
    {"NCHW:i8:1x24x1x3", "NCHW16c:i8:1x24x1x3"},
    /* pixels by byte permutes (AVX-512 VBMI): C = 1, 3, 4, odd widths, padded rows */
    {"NHWC:u8:1x7x13x1", "rknn.nc1hwc2:u8:1x1x7x13x16:c=1"},
    {"rknn.nc1hwc2:i8:1x1x7x13x16:c=4:zp=-128:scale=1", "NHWC:u8:1x7x13x4"},
    {"NHWC:u8:1x5x9x4", "trt.chw32:i8:1x4x5x9"},
    {"NHWC:u8:1x5x7x1", "trt.dla_hwc4:f16:1x1x5x7"},
    {"trt.dla_hwc4:f16:1x3x5x7", "NHWC:u8:1x5x7x3"},
    {"NHWC:u8:1x6x11x3", "NHWC:u8:1x6x11x3:pad=0,0,0,0,0,0,1,13"},
    {"NHWC:i8:1x6x11x4:pad=0,0,0,0,0,0,0,4", "NHWC:u8:1x6x11x4"},
    {"trt.dla_hwc4:i8:1x3x5x37", "NHWC:u8:1x5x37x3"},
    {"trt.dla_hwc4:i8:1x3x9x37", "NHWC:i8:1x9x37x3"},
    /* re-packs saturating u8 <-> i8 in the register (AVX-512) */
    {"NHWC:u8:1x9x37x3", "trt.dla_hwc4:i8:1x3x9x37"},
    {"NHWC:i8:1x5x23x3", "NHWC:u8:1x5x23x3:pad=0,0,0,0,0,0,0,1"},
    {"NHWC:i8:1x3x21x3", "NHWC:u8:1x3x21x3:pad=0,0,0,0,0,2,0,1"},
    /* gathers saturating u8 <-> i8 in the register (AVX-512 VBMI) */
    {"NHWC:u8:1x5x9x3:pad=0,0,0,0,0,0,0,1", "NHWC:i8:1x5x9x3"},
    {"NHWC:i8:1x7x19x5:pad=0,0,0,0,0,0,0,3", "NHWC:u8:1x7x19x5"},
    {"trt.dla_hwc4:i8:1x1x6x33", "NHWC:u8:1x6x33x1"},
    /* 4:2:0 chroma by 32 samples a register (AVX-512): odd sizes, rows over 64 bytes */
    {"CHW:u8:3x6x150", "yuv.nv12:u8:3x6x150"},
    {"CHW:u8:3x5x131", "yuv.nv21:u8:3x5x131:pitch=140"},
    {"yuv.nv12:u8:3x7x133", "CHW:u8:3x7x133"},
    {"yuv.nv21:u8:3x4x70:pitch=80", "HWC:u8:4x70x3"},
    /* pixels converting u8 <-> f16 in the register (AVX-512 VBMI): plain and
     * quantized codes, runs of 1 .. 4 values, rows around a register's worth */
    {"NHWC:u8:1x3x37x3", "trt.dla_hwc4:f16:1x3x3x37"},
    {"NHWC:u8:1x4x45x3:zp=7:scale=0.3", "trt.dla_hwc4:f16:1x3x4x45"},
    {"NHWC:u8:1x3x70x1", "trt.dla_hwc4:f16:1x1x3x70"},
    {"NHWC:u8:1x3x19x4:scale=3", "NHWC:f16:1x3x19x4:pad=0,0,0,0,0,0,0,4"},
    {"trt.dla_hwc4:f16:1x3x3x37", "NHWC:u8:1x3x37x3"},
    {"trt.dla_hwc4:f16:1x1x4x70", "NHWC:u8:1x4x70x1"},
    {"trt.dla_hwc4:f16:1x3x3x29", "NHWC:u8:1x3x29x3:zp=9:scale=0.25"},
    {"trt.dla_hwc4:f16:1x3x3x37", "NHWC:u8:1x3x37x3:zp=-5:scale=1"}, /* not plain codes: an addend, yet NaN code 0 */
    /* 3-channel byte (de)interleaves with the 8-bit table in the register
     * (AVX-512 VBMI): TIDL padded i8 both ways, rows shorter and longer than
     * a step, plane pitches off a line, i8 -> i8 requantization */
    {"NHWC:u8:1x6x150x3", "tidl:i8:1x3x6x150:pad=1,1,1,1:scale=0.5"},
    {"tidl:i8:1x3x5x131:pad=1,1,1,1:scale=0.5", "NHWC:u8:1x5x131x3"},
    {"NHWC:u8:1x3x37x3", "tidl:i8:1x3x3x37:pad=2,2,3,3:scale=0.25"},
    {"NCHW:i8:1x3x7x70:zp=3:scale=0.1", "NHWC:i8:1x7x70x3:zp=-2:scale=0.3"},
    {"NHWC:i8:1x4x65x3:scale=2", "NCHW:u8:1x3x4x65:zp=100:scale=1.5"},
    {"NHWC:u8:1x5x7x5", "NCHW64c:u8:1x5x5x7"},
    {"NCHW64c:f32:1x5x5x7", "NHWC:i8:1x5x7x5"},
    /* rows executors (AVX-512): an image's rows in one call, each row's
     * padding (gap) zeroed with it: rows ending inside a step, on a step,
     * shorter than one; gaps inside a line, of several lines; padding before
     * the rows too (a fill pass stays); batches; the u8 -> f16 spread */
    {"NHWC:u8:2x5x37x3", "trt.dla_hwc4:i8:2x3x5x37"},
    {"NHWC:u8:1x7x9x3", "trt.dla_hwc4:i8:1x3x7x9"},
    {"NHWC:u8:1x6x21x3", "trt.dla_hwc4:i8:1x3x6x21"},
    {"NHWC:i8:1x5x32x3", "NHWC:u8:1x5x32x3:pad=0,0,0,0,0,0,5,1"},
    {"NHWC:u8:1x4x45x3", "NHWC:u8:1x4x45x3:pad=0,0,0,0,0,0,40,1"},
    {"NHWC:u8:1x5x21x3", "NHWC:i8:1x5x21x3:pad=0,0,3,0,0,0,2,1"},
    {"NHWC:u8:2x9x17x3", "trt.dla_hwc4:f16:2x3x9x17"},
    {"NHWC:u8:1x9x2x3", "trt.dla_hwc4:f16:1x3x9x2"},
    {"NHWC:u8:1x6x33x3:zp=5:scale=0.7", "trt.dla_hwc4:f16:1x3x6x33"},
    {"NHWC:u8:1x5x19x3", "NHWC:f16:1x5x19x3:pad=0,0,0,0,0,0,13,1"},
    {"NHWC:u8:1x4x24x1", "NHWC:f16:1x4x24x1:pad=0,0,0,0,0,0,3,1"},
    /* a 16-channel block of 8-bit codes into 16 f32 planes in the registers
     * (NEON in cache, x86 streamed): steps of 16 pixels and an overlapping
     * last one, fewer than 16 through a stack block, every source stage */
    {"NCHW16c:i8:1x32x5x13:zp=-3:scale=0.1", "NCHW:f32:1x32x5x13"},
    {"NCHW16c:u8:1x16x3x3:zp=7:scale=0.25", "NCHW:f32:1x16x3x3"},
    {"NCHW16c:i8:1x16x4x9:q=dfp:fl=3", "NCHW:f32:1x16x4x9"},
    {"NCHW16c:u8:1x48x2x40:q=inv:scale=3", "NCHW:f32:1x48x2x40"},
    {"NCHW16c:i8:1x16x1x16", "NCHW:f32:1x16x1x16"},
    {"NCHW16c:u8:1x16x2x20:zp=-5:scale=0.5", "NCHW:f32:1x16x2x20"}, /* zero points outside */
    {"NCHW16c:i8:1x16x2x20:zp=200:scale=0.5", "NCHW:f32:1x16x2x20"}, /* the codes' type */
    /* 16-bit planes into 4-half pixels (SSE2 unpacks: 8 pixels a step), the
     * rows' padding in the same sweep (interleave rows) */
    {"NCHW:f16:1x3x5x13", "trt.dla_hwc4:f16:1x3x5x13"},
    {"NCHW:f32:2x3x6x21", "trt.dla_hwc4:f16:2x3x6x21"},
    {"NCHW:f16:1x2x4x9", "NHWC:f16:1x4x9x2:pad=0,0,0,0,0,0,0,2"},
    {"NCHW:i16:1x4x3x17", "NHWC:i16:1x3x17x4"},
    /* f32 planes quantized into 8-bit pixels 4 channels at a time (the 4-row
     * form, then a 32-bit transpose; AVX2 and AVX-512): 8 and 64 channels,
     * pixels past the last whole vector, 132 channels (tiles of 64 and a last
     * one of 4), fused zero channels around each pixel */
    {"NCHW:f32:1x8x3x37", "NHWC:i8:1x3x37x8:scale=0.05"},
    {"NCHW:f32:1x64x5x13", "NHWC:u8:1x5x13x64:zp=3:scale=0.5:round=away"},
    {"NCHW:f32:1x132x3x11", "NHWC:i8:1x3x11x132:q=dfp:fl=2"},
    {"NCHW:f32:1x16x4x9", "NHWC:u8:1x4x9x16:pad=0,0,0,4,0,0,0,8"},
    {"NCHW:f32:1x64x4x4", "NHWC:u8:1x4x4x64:zp=4:scale=0.3"},  /* 16 and 8 groups: NEON moves */
    {"NCHW:f32:1x32x2x16", "NHWC:i8:1x2x16x32:round=zero"},     /* them by its 32-bit packs */
};

typedef struct pair_stats {
    int run, skipped;
} pair_stats;

/* Run every path on one pair, compare with the reference. `aligned`: both
 * buffers 64-byte aligned (the kernels' non-temporal paths need aligned
 * destination lines; random offsets would rarely give them). */
static void check_pair_at(tl_rng *r, const tl_desc *s, const tl_desc *d, const char *what, bool aligned)
{
    unsigned flags = tl_rng_range(r, 0, 5) == 0 ? TL_KEEP_PADDING : 0;
    bool page_end = !aligned && tl_rng_range(r, 0, 3) == 0;
    unsigned al = (64 - GUARD % 64) % 64; /* mmap is page-aligned: GUARD + al is a multiple of 64 */
    unsigned smis = aligned ? al : (unsigned)tl_rng_range(r, 0, 7), dmis = aligned ? al : (unsigned)tl_rng_range(r, 0, 7);
    buf src, ref, out;
    size_t sl = (size_t)s->size_bytes, dl = (size_t)d->size_bytes;
    if (!buf_make(&src, sl, page_end, smis)) { FAILF("mmap"); return; }
    if (!buf_make(&ref, dl, false, 0)) { FAILF("mmap"); buf_free(&src); return; }
    if (!buf_make(&out, dl, page_end, dmis)) { FAILF("mmap"); buf_free(&src); buf_free(&ref); return; }
    tl_rng_bytes(r, src.p, sl);
    uint8_t *init = malloc(dl + 1);
    tl_rng_bytes(r, init, dl);
    memcpy(ref.p, init, dl);
    tl_status st = tl_convert_reference(s, src.p, sl, d, ref.p, dl, flags);
    if (st != TL_OK) {
        FAILF("%s: reference failed: %s", what, tl_last_error());
    } else {
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            if (!tl_cpu_has(isa)) continue;
            tl_plan *p = NULL;
            st = tl_plan_create_isa(&p, s, d, flags, isa);
            if (st != TL_OK) { FAILF("%s: plan (%s): %s", what, tl_isa_name(isa), tl_last_error()); break; }
            memcpy(out.p, init, dl);
            unsigned nparts = tl_rng_range(r, 0, 3) == 0 ? (unsigned)tl_rng_range(r, 2, 5) : 1;
            for (unsigned k = 0; k < nparts; k++) /* parts in a random order would do too */
                CHECK_STATUS(tl_plan_run_part(p, nparts - 1 - k, nparts, src.p, sl, out.p, dl), TL_OK);
            for (size_t i = 0; i < dl; i++)
                if (out.p[i] != ref.p[i]) {
                    FAILF("%s on %s (%u parts%s): byte %zu of %zu: 0x%02x != 0x%02x (reference)\n%s", what,
                          tl_isa_name(isa), nparts, flags ? ", keep padding" : "", i, dl, out.p[i], ref.p[i],
                          tl_plan_describe(p));
                    break;
                }
            if (!page_end) {
                for (int g = 1; g <= GUARD; g++)
                    if (out.p[-g] != SENT || out.p[dl + (size_t)g - 1] != SENT) {
                        FAILF("%s on %s: sentinel around the destination overwritten", what, tl_isa_name(isa));
                        break;
                    }
            }
            tl_plan_destroy(p);
            if (TL_TEST_FAILURES()) break;
        }
    }
    free(init);
    buf_free(&src);
    buf_free(&ref);
    buf_free(&out);
}

static void check_pair(tl_rng *r, const tl_desc *s, const tl_desc *d, const char *what)
{
    check_pair_at(r, s, d, what, false);
}

static void describe_pair(const tl_desc *s, const tl_desc *d, char *what, size_t n)
{
    char a[512], b[512];
    if (tl_desc_format(s, a, sizeof a) != TL_OK) snprintf(a, sizeof a, "(unformattable src)");
    if (tl_desc_format(d, b, sizeof b) != TL_OK) snprintf(b, sizeof b, "(unformattable dst)");
    snprintf(what, n, "%s -> %s", a, b);
}

TL_TEST(differential_random)
{
    tl_rng r = tl_test_rng();
    int iters = quick() ? 300 : 3000, done = 0;
    static const char letters[] = "NCHWDABEFG";
    for (int it = 0; it < iters && TL_TEST_FAILURES() == 0; it++) {
        int rank = (int)tl_rng_range(&r, 1, 5);
        int64_t size[26] = {0};
        char lt[TL_MAX_DIMS + 1];
        int64_t total = 1;
        for (int i = 0; i < rank; i++) {
            lt[i] = letters[i];
            int64_t v = tl_rng_range(&r, 0, 4) == 0 ? tl_rng_range(&r, 9, 40) : tl_rng_range(&r, 1, 7);
            if (total * v > 4000) v = 1;
            size[lt[i] - 'A'] = v;
            total *= v;
        }
        lt[rank] = 0;
        tl_desc s, d;
        if (rand_side(&r, &s, lt, size, rank, true) != TL_OK) continue;
        if (rand_side(&r, &d, lt, size, rank, false) != TL_OK) continue;
        if (s.size_bytes > (1 << 20) || d.size_bytes > (1 << 20)) continue;
        char what[1100];
        describe_pair(&s, &d, what, sizeof what);
        check_pair(&r, &s, &d, what);
        done++;
    }
    CHECK(done > iters / 2);
}

/* The same pair for every dtype combination of the fast set, with and without
 * quantization: each kernel pair and rounding mode is reached. */
TL_TEST(differential_dtypes)
{
    tl_rng r = tl_test_rng();
    static const char *const layouts[][2] = {
        {"NCHW", "NHWC"}, {"NHWC", "NCHW"}, {"NCHW", "NCHW16c"}, {"NCHW8c", "NCHW"},
        {"NCHW", "NCHW"}, {"NCHW", "NCHW4c"}, {"NHWC", "NCHW32c"},
    };
    int reps = quick() ? 1 : 3;
    for (int rep = 0; rep < reps; rep++)
        for (int a = 0; a < 6; a++)
            for (int b = 0; b < 6 && TL_TEST_FAILURES() == 0; b++) {
                int li = tl_rng_pick(&r, 7);
                int64_t n = tl_rng_range(&r, 1, 2), c = tl_rng_range(&r, 1, 40), h = tl_rng_range(&r, 1, 9),
                        w = tl_rng_range(&r, 1, 37);
                int64_t dn[4] = {n, c, h, w}, dh[4] = {n, h, w, c};
                tl_desc s, d;
                bool s_hwc = strcmp(layouts[li][0], "NHWC") == 0, d_hwc = strcmp(layouts[li][1], "NHWC") == 0;
                if (tl_desc_init(&s, layouts[li][0], k_fast[a], s_hwc ? dh : dn, 4) != TL_OK) continue;
                if (tl_desc_init(&d, layouts[li][1], k_fast[b], d_hwc ? dh : dn, 4) != TL_OK) continue;
                rand_quant(&r, &s);
                rand_quant(&r, &d);
                char what[1100];
                describe_pair(&s, &d, what, sizeof what);
                check_pair(&r, &s, &d, what);
            }
}

TL_TEST(differential_vendor_specs)
{
    tl_rng r = tl_test_rng();
    int ran = 0;
    for (size_t k = 0; k < sizeof k_specs / sizeof k_specs[0]; k++) {
        tl_desc s, d;
        tl_status a = tl_desc_parse(&s, k_specs[k][0]), b = tl_desc_parse(&d, k_specs[k][1]);
        if (a == TL_ERR_UNSUPPORTED || b == TL_ERR_UNSUPPORTED) continue; /* vendor not built yet */
        if (a != TL_OK || b != TL_OK) {
            FAILF("spec %s -> %s does not parse: %s", k_specs[k][0], k_specs[k][1], tl_last_error());
            continue;
        }
        char what[600];
        snprintf(what, sizeof what, "%s -> %s", k_specs[k][0], k_specs[k][1]);
        for (int rep = 0; rep < 4; rep++) check_pair(&r, &s, &d, what);
        /* once more with the permute verdict flipped: where two-source byte
         * permutes are slow, some VBMI kernels give way to AVX2 ones in cache,
         * and either machine runs both choices */
        tl_machine f = *tl_machine_get();
        f.slow_permute2 = !f.slow_permute2;
        tl_machine_set(&f);
        check_pair(&r, &s, &d, what);
        tl_machine_set(NULL);
        ran++;
    }
    CHECK(ran >= 4);
}

/* Every f16 value in every channel into 8-bit codes, on every path, against
 * the reference: channel c's element i (of h x w) holds the half i * mul[c]
 * + add[c] (odd multipliers: all 65536 halves in each channel once h x w
 * reaches 65536). The kernels convert in the register, and AVX-512 without
 * F16C for plain u8 codes (an integer clamp and a rounding add), so ties,
 * 255.5, the infinities, NaNs, negatives and subnormals each need a check
 * that random bytes would rarely make (they hit 255.5 to 256, the first to
 * saturate, once in 16384 halves). kernel[k]: the plan's kernel for to[k]
 * on the AVX-512 path with VBMI, in cache. */
static void every_half(const char *from, int64_t h, int64_t w, const char *const *to, const char *const *kernel,
                       size_t nto, bool hwc)
{
    static const uint32_t mul[3] = {1, 40503, 7919}, add[3] = {0, 12345, 777};
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, from), TL_OK);
    size_t sl = (size_t)s.size_bytes;
    uint8_t *src = calloc(1, sl), *ref = NULL, *out = NULL;
    REQUIRE(src != NULL);
    for (int64_t i = 0; i < h * w; i++)
        for (int64_t c = 0; c < 3; c++) {
            const int64_t at[4] = {0, c, i / w, i % w};
            uint64_t o = 0;
            REQUIRE_STATUS(tl_desc_offset(&s, at, &o), TL_OK);
            uint16_t v = (uint16_t)((uint32_t)i * mul[c] + add[c]);
            memcpy(src + o, &v, 2);
        }
    for (size_t k = 0; k < nto && TL_TEST_FAILURES() == 0; k++) {
        REQUIRE_STATUS(tl_desc_parse(&d, to[k]), TL_OK);
        size_t dl = (size_t)d.size_bytes;
        ref = calloc(1, dl), out = malloc(dl);
        REQUIRE(ref != NULL && out != NULL);
        REQUIRE_STATUS(tl_convert_reference(&s, src, sl, &d, ref, dl, 0), TL_OK);
        for (int isa = 0; isa < TL_ISA_COUNT; isa++) {
            if (!tl_cpu_has(isa)) continue;
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, isa), TL_OK);
#if defined(__x86_64__)
            if (isa == TL_ISA_AVX512 && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI) && !p->cv.stream)
                CHECK_STR_CONTAINS(tl_plan_describe(p), kernel[k]);
#else
            (void)kernel;
#endif
            memset(out, 0xA5, dl);
            CHECK_STATUS(tl_plan_run(p, src, sl, out, dl), TL_OK);
            for (size_t b = 0; b < dl; b++)
                if (out[b] != ref[b]) {
                    int64_t i = hwc ? (int64_t)(b / 3) : (int64_t)b % (h * w);
                    int64_t c = hwc ? (int64_t)(b % 3) : (int64_t)b / (h * w);
                    uint16_t v = (uint16_t)((uint32_t)i * mul[c] + add[c]);
                    FAILF("%s -> %s on %s: half 0x%04x (element %lld, channel %lld) -> %u, reference %u\n%s", from,
                          to[k], tl_isa_name(isa), v, (long long)i, (long long)c, out[b], ref[b], tl_plan_describe(p));
                    break;
                }
            tl_plan_destroy(p);
        }
        free(ref), free(out);
    }
    free(src);
}

/* kDLA_HWC4 f16 pixels into RGB (AVX-512 VBMI: the integer form for plain
 * u8 codes, else AVX2's), and f16 planes into 8-bit planes (the row
 * kernels; the integer form inside AVX-512's and Armv7 NEON's), rows ending
 * inside a vector */
TL_TEST(f16_codes_every_half)
{
    static const char *const rgb[] = {"NHWC:u8:1x256x256x3", "NHWC:i8:1x256x256x3",
                                      "NHWC:u8:1x256x256x3:zp=3:scale=0.5", "NHWC:u8:1x256x256x3:round=zero"};
    static const char *const rgb_kernels[] = {
        "tl_f16_u8_gather4_rows_ukernel__avx512vbmi", "tl_f16_x8_gather4_rows_ukernel__avx2",
        "tl_f16_x8_gather4_rows_ukernel__avx2", "tl_f16_x8_gather4_rows_ukernel__avx2"};
    every_half("trt.dla_hwc4:f16:1x3x256x256", 256, 256, rgb, rgb_kernels, 4, true);
    /* (the u8 rows take the integer form inside the row kernel: the same
     * name, so only the output tells it; its mutants fail here, on Armv7
     * under qemu-arm) */
    static const char *const planes[] = {"NCHW:u8:1x3x263x251", "NCHW:i8:1x3x263x251",
                                         "NCHW:u8:1x3x263x251:round=zero"};
    static const char *const plane_kernels[] = {"tl_f16_u8_convert_ukernel__avx512", "tl_f16_i8_convert_ukernel__avx512",
                                                "tl_f16_u8_convert_ukernel__avx512"};
    every_half("NCHW:f16:1x3x263x251", 263, 251, planes, plane_kernels, 3, false);
}

/* Every ISA path on large-ish rows and tiles: vector bodies, tails of every
 * length, strides of every alignment. */
TL_TEST(differential_kernel_sizes)
{
    tl_rng r = tl_test_rng();
    static const char *const pairs[][2] = {
        {"NCHW", "NHWC"}, {"NHWC", "NCHW"}, {"NCHW", "NCHW16c"}, {"NCHW16c", "NCHW"}, {"NCHW", "NCHW8c"},
        {"NCHW32c", "NCHW"}, {"NCHW", "NCHW"}, {"NCHW4c", "NHWC"}, {"NHWC", "NCHW4c"},
    };
    int iters = quick() ? 40 : 250;
    for (int it = 0; it < iters && TL_TEST_FAILURES() == 0; it++) {
        int k = tl_rng_pick(&r, 9);
        int64_t c = tl_rng_range(&r, 0, 2) == 0 ? tl_rng_range(&r, 2, 4) : tl_rng_range(&r, 1, 70);
        int64_t h = tl_rng_range(&r, 1, 12), w = tl_rng_range(&r, 1, 140);
        int64_t dn[4] = {1, c, h, w}, dh[4] = {1, h, w, c};
        tl_desc s, d;
        tl_dtype st = k_fast[tl_rng_pick(&r, 6)], dt = tl_rng_range(&r, 0, 1) ? st : k_fast[tl_rng_pick(&r, 6)];
        if (tl_desc_init(&s, pairs[k][0], st, strcmp(pairs[k][0], "NHWC") ? dn : dh, 4) != TL_OK) continue;
        if (tl_desc_init(&d, pairs[k][1], dt, strcmp(pairs[k][1], "NHWC") ? dn : dh, 4) != TL_OK) continue;
        if (tl_rng_range(&r, 0, 2) == 0) rand_quant(&r, &s);
        if (tl_rng_range(&r, 0, 2) == 0) rand_quant(&r, &d);
        char what[1100];
        describe_pair(&s, &d, what, sizeof what);
        check_pair(&r, &s, &d, what);
    }
}

/* The maker's verdicts reach the kernels: narrow_512 as TL_T2D_NARROW512 in
 * a transpose pass's flags, and the de-interleaves' TL_T2D_SPLIT where
 * stores across lines are cheap, or where a byte table runs and two-source
 * permutes are slow. Both kernels' outputs are checked elsewhere; this is
 * the choice, which only speed would show. */
TL_TEST(maker_flags)
{
    const tl_machine m = *tl_machine_get();
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "NCHW:u8:1x64x64x64"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:u8:1x64x64x64"), TL_OK);
    for (int v = 0; v < 4; v++) {
        int narrow = v & 1, splits = v >> 1;
        tl_machine f = m;
        f.narrow_512 = narrow != 0;
        f.split_stores = splits != 0;
        tl_machine_set(&f);
        tl_plan *p = NULL;
        REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
        CHECK(p->npasses == 1 && p->passes[0].ex == &tl_exec_2d);
        if (p->npasses == 1 && p->passes[0].ex == &tl_exec_2d) {
            CHECK_EQ_I64((p->passes[0].x.t2d.alias & TL_T2D_NARROW512) != 0, narrow);
            CHECK_EQ_I64((p->passes[0].x.t2d.alias & TL_T2D_SPLIT) != 0, splits);
        }
        for (int split = 0; split < 2; split++)
            for (int slow = 0; slow < 2; slow++)
                for (int table = 0; table < 2; table++) {
                    p->machine.split_stores = split != 0;
                    p->machine.slow_permute2 = slow != 0;
                    int want = split || (table && slow) ? TL_T2D_SPLIT : 0;
                    CHECK_EQ_I64(tl_exec_dilv_flags(p, TL_T2D_STREAM, table != 0), TL_T2D_STREAM | want);
                }
        tl_plan_destroy(p);
    }
    tl_machine_set(NULL);
}

/* The test hook keeps a copy: the machine handed to it may go out of scope or
 * change afterwards (under ASan, a kept pointer is a stack-use-after-scope). */
TL_TEST(machine_set_copies)
{
    const tl_machine m = *tl_machine_get();
    {
        tl_machine f = m;
        f.stream_bytes = 12345;
        tl_machine_set(&f);
        f.stream_bytes = 1; /* a kept pointer would now read 1 */
        CHECK_EQ_I64(tl_machine_get()->stream_bytes, 12345);
    }
    CHECK_EQ_I64(tl_machine_get()->stream_bytes, 12345);
    CHECK_EQ_I64(tl_machine_get()->default_isa, m.default_isa);
    tl_machine_set(NULL);
    CHECK_EQ_I64(tl_machine_get()->stream_bytes, m.stream_bytes);
}

/* A staged loop's steps (tl_stage_of): all the items once; a whole tile a
 * step unless the plan streams; streamed, the policy's stage a step, every
 * step ending on a line where a stage holds a line's worth of items and the
 * start lets items end on lines (the first step runs to the first such). */
TL_TEST(stage_steps)
{
    static const size_t sizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 48, 64, 100, 256};
    static const size_t stages[] = {64, 200, 512, 4096};
    tl_plan p;
    memset(&p, 0, sizeof p);
    _Alignas(64) static uint8_t buf[256];
    for (int stream = 0; stream < 2; stream++)
        for (size_t si = 0; si < sizeof stages / sizeof stages[0]; si++)
            for (size_t bi = 0; bi < sizeof sizes / sizeof sizes[0]; bi++)
                for (size_t off = 0; off < 64; off++) {
                    size_t bytes = sizes[bi], n = 5000, whole = stream ? stages[si] / bytes : 16384 / bytes;
                    size_t g = 1; /* gcd(bytes, 64): items end on lines iff the start is a multiple */
                    while (g < 64 && bytes % (2 * g) == 0) g *= 2;
                    bool lines = stream && off % g == 0 && whole >= 64 / g; /* a step can end on a line */
                    p.cv.stream = stream != 0;
                    p.machine.stage_bytes = stages[si];
                    uint8_t *d = buf + off;
                    tl_stage st = tl_stage_of(&p, d, bytes);
                    size_t b = 0, steps = 0, m;
                    for (; b < n; b += m, steps++) {
                        m = tl_stage_step(&st, n - b);
                        if (m == 0 || m > (whole ? whole : 1)) {
                            FAILF("bytes %zu, offset %zu, stage %zu: a step of %zu items", bytes, off, stages[si], m);
                            return;
                        }
                        bool on_line = ((uintptr_t)d + (b + m) * bytes) % 64 == 0;
                        if (lines && b + m < n && !on_line) {
                            FAILF("bytes %zu, offset %zu, stage %zu: step %zu ends off a line", bytes, off,
                                  stages[si], steps);
                            return;
                        }
                        if (!stream && b + m < n) CHECK_EQ_I64(m, whole);
                    }
                    CHECK_EQ_I64(b, n);
                }
}

/* The machine policy replaced by the test hook (tl_machine_set): streamed and
 * plain stores forced on small buffers, and VBMI on and off, each checked
 * against the reference on every path; the plan prints the policy it used. */
TL_TEST(machine_policy)
{
    tl_rng r = tl_test_rng();
    const tl_machine m = *tl_machine_get();
    static const char *const pairs[][2] = {
        {"NCHW:f32:1x3x40x70", "NCHW:f16:1x3x40x70"},                            /* row */
        {"dml.nhwc:f16:1x3x20x300", "NHWC:u8:1x20x300x3"}, /* row, narrowing: read in slices, tails */
        {"NCHW:u8:1x8x40x70", "NCHW:u8:1x8x40x70:pad=0,0,0,1,0,0,0,3"},          /* padded rows, fill */
        {"NCHW:f32:1x8x40x70", "NHWC:i8:1x40x70x8:scale=0.1"},                   /* 2d, narrowing */
        {"NCHW16c:i8:1x64x20x21:scale=0.05", "NCHW:f32:1x64x20x21"},             /* 2d, widening */
        {"NCHW:f32:1x24x30x31", "NCHW16c:f32:1x24x30x31"},                       /* zero lanes */
        {"NCHW:f32:1x3x50x70", "NHWC:u8:1x50x70x3"},                             /* interleave */
        {"NHWC:u8:1x60x61x3", "trt.dla_hwc4:i8:1x3x60x61"},                      /* repack */
        {"NHWC:u8:1x40x41x3", "rknn.nc1hwc2:i8:1x1x40x41x16:c=3:zp=-128:scale=1"}, /* pixels */
        {"trt.dla_hwc4:f16:1x3x40x41", "NHWC:f32:1x40x41x3"},                    /* pixels, gather */
        {"NHWC:u8:1x40x41x3", "trt.dla_hwc4:f16:1x3x40x41"},                    /* pixels rows, f16 spread */
        {"yuv.nv12:u8:3x40x150", "CHW:u8:3x40x150"},                             /* chroma x2, whole rows */
        {"NHWC:u8:1x40x41x3", "trt.dla_hwc4:i8:1x3x40x41"},                      /* saturating repack */
        {"trt.dla_hwc4:i8:1x3x40x41", "NHWC:u8:1x40x41x3"},                      /* saturating gather */
        {"trt.chw32:i8:1x3x50x70:scale=2", "NHWC:u8:1x50x70x3"},                 /* line gather, read in slices */
        {"rknn.nc1hwc2:i8:1x1x50x71x16:c=3:zp=-128:scale=1", "NHWC:u8:1x50x71x3"},
        {"trt.dla_hwc4:f16:1x3x50x70", "NHWC:u8:1x50x70x3"}, /* f16 line gather, read in slices */
        {"NHWC:u8:1x64x96x3", "NCHW:u8:1x3x64x96"},                              /* byte transpose */
        {"NHWC:u8:1x33x35x3", "NCHW:u8:1x3x33x35"},                  /* ... into planes off lines */
        {"NHWC:u8:1x4x300x3", "tidl:i8:1x3x4x300:pad=1,1,1,1:scale=0.5"}, /* ... padded rows */
        {"NCHW:u8:2x3x33x35", "NHWC:u8:2x33x35x3"},                  /* pixels off lines (image 2) */
        {"tidl:i8:1x3x4x300:pad=1,1,1,1:scale=0.5", "NHWC:u8:1x4x300x3"}, /* ... (rows 2-4) */
        {"NCHW:f32:1x16x32x64", "NHWC:f32:1x32x64x16"}, /* whole-line kernel stores: 64-byte rows */
        {"NHWC:u8:1x64x64x64", "NCHW:u8:1x64x64x64"},   /* ... and 4 KiB rows */
        /* planes off line boundaries, streamed: 16 planes a group, up to 64 a pass */
        {"NHWC:u8:1x65x67x64", "NCHW:u8:1x64x65x67"},
        {"NHWC:u8:1x65x67x48", "NCHW:u8:1x48x65x67"},
        {"NHWC:u8:1x65x67x80", "NCHW:u8:1x80x65x67"},
        {"NCHW16c:i8:1x24x65x67", "NCHW:i8:1x24x65x67"}, /* a partial block of 8 channels, off lines */
        {"NCHW16c:i8:1x8x64x65", "NCHW:i8:1x8x64x65"},   /* ... and on */
        {"NHWC:f32:1x33x35x64", "NCHW:f32:1x64x33x35"},
        {"NHWC:f32:1x33x35x48", "NCHW:f32:1x48x33x35"},
        {"NCHW16c:f32:1x80x33x35", "NCHW:f32:1x80x33x35"},
        {"NCHW16c:f32:1x24x33x35", "NCHW:f32:1x24x33x35"}, /* a partial block of 8 channels, off lines */
        /* planes 4096 bytes apart (64x64 images): rows sharing L1 sets, both ways */
        {"NCHW:u8:1x64x64x64", "NHWC:u8:1x64x64x64"},
        {"NCHW:u8:1x16x64x64", "NHWC:u8:1x64x64x16"},
        {"NHWC:u8:1x64x64x16", "NCHW:u8:1x16x64x64"},
        {"NCHW:i8:1x80x64x64", "NCHW16c:i8:1x80x64x64"},
        {"NCHW16c:i8:1x80x64x64", "NCHW:i8:1x80x64x64"},
        {"NCHW16c:f32:1x64x32x32", "NCHW:f32:1x64x32x32"},
        {"NCHW:f32:1x64x32x32", "NHWC:f32:1x32x32x64"},
        {"NHWC:f32:1x32x32x80", "NCHW:f32:1x80x32x32"},
        {"NCHW16c:i8:1x64x64x64:scale=0.05", "NCHW:f32:1x64x64x64"}, /* dequantize, aliasing planes */
        {"NCHW16c:i8:1x32x33x35:scale=0.05", "NCHW:f32:1x32x33x35"}, /* ... planes off lines */
        {"NCHW:f32:1x64x20x33", "NHWC:i8:1x20x33x64:scale=0.05"},    /* the 4-row form in cache only */
    };
    /* variants: plain / streamed stores, times the L1 set limits at their
     * extremes (no rows alias; every 2 rows in one set do), so both sides
     * of the transposes' TL_T2D_*_ALIAS choices run against the reference;
     * in cache with aliasing rows, as on a Zen 4 (narrow_512: the AVX2
     * kernels), else not; streamed with aliasing rows, whole rows stored
     * plainly (plain_rows, TL_PLAIN_ROWS=1), else staged and streamed out */
    for (int v = 0; v < 4; v++) {
        int streamed = v & 1, aliased = v >> 1;
        tl_machine f = m;
        f.alias_rows = f.alias_store_rows = aliased ? 1 : 1024;
        f.narrow_512 = v == 2;
        f.stream_bytes = streamed ? 1 : SIZE_MAX;
        f.stream_row_bytes = streamed ? 64 : m.stream_row_bytes;
        f.tile_bytes = streamed ? 4096 : m.tile_bytes; /* the smallest L1 tiles the policy makes */
        f.stage_bytes = aliased ? 64 : 200;          /* streamed steps of a line, or of a few items */
        f.row_stage_bytes = aliased ? 64 : 200;      /* whole lines a step, or not */
        f.read_streams = aliased ? 2 : 3;
        f.plain_rows = v == 3; /* streamed rows staged and streamed out, or stored plainly */
        /* an L2 of 4 KiB ways, where the 64 x 64 images' planes share its
         * sets (the streamed byte transposes prefetch them close), or none */
        f.cache.l2 = aliased ? (tl_cache_level){64 << 10, 16} : (tl_cache_level){0, 0};
        tl_machine_set(&f);
        for (size_t k = 0; k < sizeof pairs / sizeof pairs[0] && TL_TEST_FAILURES() == 0; k++) {
            tl_desc s, d;
            REQUIRE_STATUS(tl_desc_parse(&s, pairs[k][0]), TL_OK);
            REQUIRE_STATUS(tl_desc_parse(&d, pairs[k][1]), TL_OK);
            char what[200];
            snprintf(what, sizeof what, "%s -> %s (%s stores, rows %s L1 sets)", pairs[k][0], pairs[k][1],
                     streamed ? "streamed" : "plain", aliased ? "sharing" : "not sharing");
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
            CHECK_EQ_I64(p->cv.stream, streamed);
            CHECK_STR_CONTAINS(tl_plan_describe(p), streamed ? "streaming stores above 1 destination bytes"
                                                             : "policy: cpu ");
            CHECK((strstr(tl_plan_describe(p), "whole rows stored plainly") != NULL) == (v == 3));
            /* u8 C = 16 planes 4096 bytes apart: the policy's verdict, both ways */
            /* (the flags are for tiled transposes; NEON moves 16 channels by
             * its pack16/unpack16 kernels, which take none) */
            const char *text = tl_plan_describe(p);
            bool tiled = strstr(text, "_transpose_ukernel__") != NULL;
#if defined(__x86_64__) || defined(_M_X64)
            if (p->isa != TL_ISA_SCALAR && (strstr(pairs[k][0], "u8:1x64x64x16") || strstr(pairs[k][0], "u8:1x16x64x64")))
                CHECK(tiled);
#endif
#if defined(__x86_64__) || defined(_M_X64)
            if (strcmp(pairs[k][0], "NCHW:f32:1x64x20x33") == 0 && tl_isa_includes(p->isa, TL_ISA_AVX2))
                CHECK((strstr(text, "_group4_ukernel__") != NULL) == !streamed);
#endif
            if (tiled && strcmp(pairs[k][0], "NHWC:u8:1x64x64x16") == 0)
                CHECK((strstr(text, "destination rows share L1 sets") != NULL) == (aliased != 0));
            if (tiled && strcmp(pairs[k][0], "NCHW:u8:1x16x64x64") == 0)
                CHECK((strstr(text, "source rows share L1 sets") != NULL) == (aliased != 0));
            if (tiled && strcmp(pairs[k][0], "NCHW:u8:1x64x64x64") == 0)
                CHECK((strstr(text, "source rows share L2 sets") != NULL) == (aliased != 0));
            tl_plan_destroy(p);
            check_pair_at(&r, &s, &d, what, true);
            check_pair(&r, &s, &d, what);
        }
    }
    /* VBMI off and on (on only where the CPU has it): the byte transpose and the
     * 8-bit table of the AVX-512 path follow the mask */
    for (int vbmi = 0; vbmi < 2 && tl_cpu_has(TL_ISA_AVX512); vbmi++) {
        if (vbmi && !(m.feat & TL_FEAT_VBMI)) break;
        tl_machine f = m;
        f.feat = vbmi ? m.feat : m.feat & ~(unsigned)TL_FEAT_VBMI;
        tl_machine_set(&f);
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_parse(&s, "NHWC:u8:1x64x96x5:scale=0.5"), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:i8:1x5x64x96:scale=0.25"), TL_OK);
        tl_plan *p = NULL;
        REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, TL_ISA_AVX512), TL_OK);
        CHECK((strstr(tl_plan_describe(p), "ukernel__avx512vbmi") != NULL) == (vbmi != 0));
        tl_plan_destroy(p);
        check_pair_at(&r, &s, &d, vbmi ? "byte transpose, VBMI" : "byte transpose, no VBMI", true);
    }
    /* TL_CPU_DISABLE masks the features it names (ctest runs this test once
     * more with TL_CPU_DISABLE=vbmi,f16: test_engine_cpu_disable) */
    const char *off = getenv("TL_CPU_DISABLE");
    if (off && strstr(off, "vbmi")) CHECK(!(m.feat & TL_FEAT_VBMI));
    if (off && strstr(off, "f16")) CHECK(!(m.feat & TL_FEAT_F16));
    /* The f16 kernels beyond the Arm baseline off and on (on only where the
     * CPU has them; elsewhere no plan names them), the same bits either way:
     * Armv7's for the VFPv4 FPU (convert/neonfp16.c: every pair with f16, in
     * integer code when off) and AArch64's for ARMv8.2's FP16 arithmetic
     * (convert/neonfp16arith.c: f16 <-> 8- and 16-bit codes, one conversion
     * for plain codes and unquantized sources; int_side marks those pairs). */
    for (int f16 = 0; f16 < 2; f16++) {
        if (f16 && !(m.feat & TL_FEAT_F16)) break;
        tl_machine f = m;
        f.feat = f16 ? m.feat : m.feat & ~(unsigned)TL_FEAT_F16;
        tl_machine_set(&f);
        static const struct {
            const char *s, *d;
            bool int_side;
        } pairs[] = {
            {"trt.dla_hwc4:f16:1x3x9x37", "NHWC:u8:1x9x37x3", true},
            {"trt.dla_hwc4:f16:1x3x5x21", "NHWC:i8:1x5x21x3:q=affine:zp=3:scale=0.5", true},
            {"trt.dla_hwc4:f16:1x3x5x21", "NHWC:i8:1x5x21x3:scale=0.25", true}, /* zero point 0: scaled codes */
            {"trt.dla_hwc4:f16:1x3x6x19", "NHWC:u8:1x6x19x3:q=affine:zp=0:scale=1:round=away", true}, /* NaN -> 0, not 1 */
            {"trt.dla_hwc4:f16:1x3x7x23", "NHWC:i8:1x7x23x3:round=zero", true},
            {"trt.dla_hwc4:f16:1x3x7x23", "NHWC:i8:1x7x23x3:round=away", true},
            {"NHWC:u8:1x9x37x3", "trt.dla_hwc4:f16:1x3x9x37", true},
            {"NHWC:u8:1x9x37x3:q=affine:zp=5:scale=0.25", "trt.dla_hwc4:f16:1x3x9x37", true},
            {"NCHW:f32:1x5x7x33", "NCHW:f16:1x5x7x33", false},
            {"NCHW:f16:1x5x7x33", "NHWC:f32:1x7x33x5", false},
            {"NCHW:f16:1x4x7x35", "NHWC:i8:1x7x35x4:q=affine:zp=-2:scale=0.03", true},
            {"NCHW:f16:1x3x7x37", "NCHW:u8:1x3x7x37:round=away", true},
            {"NCHW:f16:1x3x7x37", "NCHW:i16:1x3x7x37", true},
            {"NCHW:f16:1x3x7x37", "NCHW:i16:1x3x7x37:round=zero", true},
            {"NCHW:f16:1x3x7x37", "NCHW:i16:1x3x7x37:round=away", true},
            {"NCHW:i16:1x3x7x37", "NCHW:f16:1x3x7x37", true},
            {"NCHW:i8:1x3x7x37", "NCHW:f16:1x3x7x37", true},
        };
        for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
            tl_desc s, d;
            REQUIRE_STATUS(tl_desc_parse(&s, pairs[k].s), TL_OK);
            REQUIRE_STATUS(tl_desc_parse(&d, pairs[k].d), TL_OK);
            char what[160];
            snprintf(what, sizeof what, "%s -> %s, f16 kernels %s", pairs[k].s, pairs[k].d, f16 ? "on" : "off");
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
#if defined(__aarch64__)
            const bool expect = f16 && pairs[k].int_side;
#else
            const bool expect = f16;
#endif
            const bool named = strstr(tl_plan_describe(p), "ukernel__neonfp16") != NULL; /* and neonfp16arith */
            if (named != expect)
                FAILF("%s: the plan %s the f16 kernels\n%s", what, named ? "names" : "lacks", tl_plan_describe(p));
            tl_plan_destroy(p);
            check_pair(&r, &s, &d, what);
        }
    }
    /* a 16-channel block of codes into f32 planes: dequantized in one kernel
     * in streaming plans (VBMI's where it runs, else AVX2's, on an AVX-512
     * path without VBMI too), the tile path in cache */
#if defined(__x86_64__) || defined(_M_X64)
    for (int isa = TL_ISA_AVX2; isa <= TL_ISA_AVX512 && tl_cpu_has((tl_isa)isa); isa++) {
        tl_machine f = m;
        f.feat = m.feat & ~(unsigned)TL_FEAT_VBMI;
        f.stream_bytes = (size_t)8 << 20; /* 64 MiB of floats stream, 64 KiB do not (whatever TL_STREAM_BYTES says) */
        tl_machine_set(&f);
        static const char *const sizes[][2] = {{"NCHW16c:i8:1x16x32x32:scale=0.5", "NCHW:f32:1x16x32x32"},
                                               {"NCHW16c:i8:1x16x1024x1024:scale=0.5", "NCHW:f32:1x16x1024x1024"}};
        for (int big = 0; big < 2; big++) {
            tl_desc s, d;
            REQUIRE_STATUS(tl_desc_parse(&s, sizes[big][0]), TL_OK);
            REQUIRE_STATUS(tl_desc_parse(&d, sizes[big][1]), TL_OK);
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create_isa(&p, &s, &d, 0, (tl_isa)isa), TL_OK);
            CHECK((strstr(tl_plan_describe(p), "tl_x8_f32_unblock16_ukernel__avx2") != NULL) == (big != 0));
            tl_plan_destroy(p);
        }
    }
    tl_machine_set(&m);
#endif
    /* stores across lines as they are or realigned (split_stores), plain and
     * streamed: the AVX-512 byte de-interleaves, and TIDL's padded rows a
     * whole image a call both ways (2d rows: pads of a few bytes, pads of a
     * step and more, rows shorter than a step, two images) */
    static const char *const rows_pairs[][2] = {
        {"NHWC:u8:1x40x150x3", "tidl:i8:1x3x40x150:pad=1,1,1,1:scale=0.5"},
        {"tidl:i8:1x3x40x150:pad=1,1,1,1:scale=0.5", "NHWC:u8:1x40x150x3"},
        {"NHWC:u8:1x9x70x3", "tidl:u8:1x3x9x70:pad=70,2,65,1"},
        {"tidl:u8:1x3x9x70:pad=70,2,65,1", "NHWC:u8:1x9x70x3"},
        {"NHWC:u8:2x7x40x3", "tidl:i8:2x3x7x40:pad=2,1,3,2:scale=0.25"},
        {"NHWC:u8:1x33x101x3", "NCHW:u8:1x3x33x101"},
        {"tidl:i8:2x3x6x20:pad=1,1,1,1:scale=0.5", "NHWC:u8:2x6x20x3"},
        {"tidl:u8:1x3x5x45:pad=3,1,3,2", "NHWC:u8:1x5x45x3"},
        /* maps of other kinds than TIDL's i8 ones: u8 both ways, half to
         * even (the kept bit) both ways */
        {"NHWC:u8:1x7x50x3", "tidl:u8:1x3x7x50:pad=1,1,1,1:scale=0.5"},
        {"tidl:u8:1x3x7x50:pad=1,1,1,1:scale=0.5", "NHWC:u8:1x7x50x3"},
        {"NHWC:u8:1x9x40x3", "NCHW:i8:1x3x9x40:pad=0,0,0,0,1,1,2,2:scale=2"},
        {"NCHW:i8:1x3x9x40:pad=0,0,0,0,1,1,2,2:scale=0.25", "NHWC:u8:1x9x40x3"},
        /* identity quantizations: u8 <-> i8 saturated (NEON: in the rows kernels) */
        {"NHWC:u8:1x9x40x3", "tidl:i8:1x3x9x40:pad=1,1,1,1"},
        {"tidl:i8:1x3x9x40:pad=1,1,1,1", "NHWC:u8:1x9x40x3"},
        /* kDLA_HWC4 f16 from RGB in the register (AVX2): quantized source,
         * rows shorter than a step, rows of a whole number of steps */
        {"NHWC:u8:1x9x45x3:scale=0.37:zp=12", "trt.dla_hwc4:f16:1x3x9x45"},
        {"NHWC:u8:1x3x5x3", "trt.dla_hwc4:f16:1x3x3x5"},
        {"NHWC:u8:2x33x8x3", "trt.dla_hwc4:f16:2x3x33x8"},
        /* each kind of source stage: a scale without a zero point, TIDL's
         * division, RKNN's fixed point */
        {"NHWC:u8:1x4x19x3:scale=0.5", "trt.dla_hwc4:f16:1x3x4x19"},
        {"NHWC:u8:1x5x21x3:q=inv:scale=25", "trt.dla_hwc4:f16:1x3x5x21"},
        {"NHWC:u8:1x3x17x3:fl=3", "trt.dla_hwc4:f16:1x3x3x17"},
        /* and back: plain codes, quantized u8 (ties to even, away), i8 */
        {"trt.dla_hwc4:f16:2x3x33x8", "NHWC:u8:2x33x8x3"},
        {"trt.dla_hwc4:f16:1x3x9x45", "NHWC:u8:1x9x45x3:scale=0.37:zp=12"},
        {"trt.dla_hwc4:f16:1x3x7x9", "NHWC:u8:1x7x9x3:scale=0.5:round=away"},
        {"trt.dla_hwc4:f16:1x3x7x9", "NHWC:u8:1x7x9x3:round=zero"},
        {"trt.dla_hwc4:f16:1x3x3x5", "NHWC:i8:1x3x5x3:scale=0.5"},
        {"trt.dla_hwc4:f16:1x3x9x45", "NHWC:u8:1x9x45x3:pad=0,0,0,0,0,0,2,0"}, /* a padded row's gap */
        {"NHWC:f16:1x5x20x3:pad=0,0,0,1,0,0,0,0", "NHWC:u8:1x5x20x3"}, /* runs inside their pixels */
        /* rows of 10, 16, 17 pixels: the steps that write 4 bytes past
         * themselves stop 9 pixels before the row's end */
        {"trt.dla_hwc4:f16:1x3x3x10", "NHWC:u8:1x3x10x3"},
        {"trt.dla_hwc4:f16:1x3x2x16", "NHWC:i8:1x2x16x3:scale=0.5"},
        {"trt.dla_hwc4:f16:1x3x3x17", "NHWC:u8:1x3x17x3:pad=0,0,0,0,0,0,1,0"},
    };
    for (int v = 0; v < 4; v++) {
        int split = v & 1, streamed = v >> 1;
        tl_machine f = m;
        f.split_stores = split != 0;
        f.stream_bytes = streamed ? 1 : SIZE_MAX;
        tl_machine_set(&f);
        for (size_t k = 0; k < sizeof rows_pairs / sizeof rows_pairs[0] && TL_TEST_FAILURES() == 0; k++) {
            tl_desc s, d;
            REQUIRE_STATUS(tl_desc_parse(&s, rows_pairs[k][0]), TL_OK);
            REQUIRE_STATUS(tl_desc_parse(&d, rows_pairs[k][1]), TL_OK);
            char what[200];
            snprintf(what, sizeof what, "%s -> %s (%s stores, %s)", rows_pairs[k][0], rows_pairs[k][1],
                     streamed ? "streamed" : "plain", split ? "across lines" : "realigned");
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
            const char *text = tl_plan_describe(p);
            CHECK((strstr(text, ", stores across lines") != NULL) == (split != 0));
            /* VBMI, or AVX2 or NEON as the best path (TIDL's maps are byte
             * maps; the identity quantizations' saturation in rows on AVX2
             * and NEON, not in VBMI's table kernels) */
            bool saturated = strstr(text, "codes saturated") != NULL, avx2_neon = strstr(text, "avx2 path") || strstr(text, "neon path");
            if ((saturated ? avx2_neon : tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI) || avx2_neon) && strstr(what, "tidl"))
                CHECK_STR_CONTAINS(text, "pass 0: convert planes src 0 -> dst 0, 2d rows ");
#if defined(__aarch64__) || defined(__x86_64__)
            if ((strstr(text, "avx2 path") || strstr(text, "neon path")) && strstr(what, "dla_hwc4:f16"))
                CHECK_STR_CONTAINS(text, strstr(text, "plan: u8") ? "tl_u8_f16_spread4_" : "tl_f16_x8_gather4_");
#endif
            tl_plan_destroy(p);
            check_pair_at(&r, &s, &d, what, true);
            check_pair(&r, &s, &d, what);
        }
    }
    tl_machine_set(NULL);
}

/* Large destinations, 4 MiB and more; from FIRST_STREAMED more than 8 MiB,
 * the streaming threshold this test sets (the detected one follows the LLC),
 * so the plan and its big kernel calls stream: the non-temporal store paths
 * against the reference, on every path (the machine_policy test forces them
 * on small buffers too). */
#define FIRST_STREAMED 11
TL_TEST(differential_streaming)
{
    if (quick()) return;
    tl_rng r = tl_test_rng();
    tl_machine f = *tl_machine_get(); /* lives as long as the override */
    f.stream_bytes = (size_t)8 << 20;
    tl_machine_set(&f);
    static const char *const pairs[][2] = {
        {"NCHW:f32:1x16x256x272", "NHWC:f32:1x256x272x16"},
        {"NHWC:f32:1x256x272x16", "NCHW:f32:1x16x256x272"},
        {"NCHW:u8:1x3x1200x1210", "NHWC:u8:1x1200x1210x3"},
        {"NHWC:u8:1x1200x1210x3", "NCHW:u8:1x3x1200x1210"},
        {"NCHW:f32:1x3x640x600", "NHWC:f32:1x640x600x3"},
        {"NHWC:f32:1x640x600x3", "NCHW:f32:1x3x640x600"},
        {"NHWC:u8:1x256x272x64", "NCHW:u8:1x64x256x272"},
        {"NCHW:u8:1x16x512x520", "NHWC:u8:1x512x520x16"}, /* 16-byte rows, whole registers */
        {"NCHW:u8:1x64x256x272", "NHWC:u8:1x256x272x64"}, /* lines staged in L1 */
        {"NHWC:f32:1x641x599x3", "NCHW:f32:1x3x641x599"},  /* planes off 64-byte lines */
        {"NHWC:f32:1x121x144x64", "NCHW:f32:1x64x121x144"}, /* 8 lines per plane at a time, and a rest */
        /* from here (FIRST_STREAMED), destinations over 8 MiB: every executor stages
         * its output in L1 and streams it */
        {"NCHW:f32:1x3x1200x1210", "NCHW:f16:1x3x1200x1210"},                          /* row */
        {"NCHW:u8:1x8x1200x1210", "NCHW:u8:1x8x1200x1210:pad=0,0,0,1,0,0,0,3"},          /* padded rows */
        {"NCHW:f32:1x8x1200x1210", "NHWC:i8:1x1200x1210x8:scale=0.1"},                   /* 2d, narrowing */
        {"NCHW16c:i8:1x64x200x210:scale=0.05", "NCHW:f32:1x64x200x210"},                 /* 2d, widening */
        {"NCHW:f32:1x24x300x310", "NCHW16c:f32:1x24x300x310"},                           /* zero lanes */
        {"NCHW:f32:1x3x1800x1810", "NHWC:u8:1x1800x1810x3"},                             /* interleave */
        {"NCHW:f32:1x3x1100x1100", "trt.dla_hwc4:f16:1x3x1100x1100"},                    /* zero lane */
        {"NHWC:u8:1x1600x1600x3", "trt.dla_hwc4:i8:1x3x1600x1600"},                      /* repack, saturate */
        {"NHWC:u8:1x1600x1600x3", "trt.dla_hwc4:i8:1x3x1600x1600:scale=2"},              /* repack, table */
        {"NHWC:u8:1x800x800x3", "rknn.nc1hwc2:i8:1x1x800x800x16:c=3:zp=-128:scale=1"},   /* pixels */
        {"trt.dla_hwc4:f16:1x3x1100x1100", "NHWC:f32:1x1100x1100x3"},                    /* pixels, gather */
        {"NHWC:u8:1x1100x1100x3", "trt.dla_hwc4:f16:1x3x1100x1100"},                     /* f16 in the register */
        {"trt.dla_hwc4:f16:1x3x1700x1700", "NHWC:u8:1x1700x1700x3"},                     /* and back */
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_parse(&s, pairs[k][0]), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d, pairs[k][1]), TL_OK);
        char what[200];
        snprintf(what, sizeof what, "%s -> %s", pairs[k][0], pairs[k][1]);
        if (k >= FIRST_STREAMED) { /* the plan itself streams: its tile executors stage and stream */
            tl_plan *p = NULL;
            REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
            if (!p->cv.stream) FAILF("%s: the plan does not stream", what);
            tl_plan_destroy(p);
        }
        check_pair_at(&r, &s, &d, what, true);
        check_pair(&r, &s, &d, what);
    }
    tl_machine_set(NULL);
}

/* Bad inputs to the plan API: status, message, destination untouched. */
TL_TEST(plan_bad_inputs)
{
    tl_desc s, d, ro;
    const int64_t dims[4] = {1, 3, 2, 2};
    REQUIRE_STATUS(tl_desc_init(&s, "NCHW", TL_F32, dims, 4), TL_OK);
    REQUIRE_STATUS(tl_desc_init(&d, "NCHW", TL_U8, dims, 4), TL_OK);
    tl_plan *p = NULL;
    CHECK_STATUS(tl_plan_create(NULL, &s, &d, 0), TL_ERR_NULL);
    CHECK_STATUS(tl_plan_create(&p, NULL, &d, 0), TL_ERR_NULL);
    CHECK(p == NULL);
    const int64_t bstr[4] = {0, 1, 0, 0};
    REQUIRE_STATUS(tl_desc_init_strided(&ro, TL_U8, dims, bstr, 4), TL_OK);
    CHECK_STATUS(tl_plan_create(&p, &s, &ro, 0), TL_ERR_READONLY);
    CHECK_STR_CONTAINS(tl_last_error(), "broadcast");
    const int64_t other[4] = {1, 4, 2, 2};
    tl_desc m;
    REQUIRE_STATUS(tl_desc_init(&m, "NCHW", TL_U8, other, 4), TL_OK);
    CHECK_STATUS(tl_plan_create(&p, &s, &m, 0), TL_ERR_MISMATCH);
    CHECK_STR_CONTAINS(tl_last_error(), "C=3");
    REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
    float src[12] = {0};
    uint8_t dst[16];
    memset(dst, SENT, sizeof dst);
    CHECK_STATUS(tl_plan_run(p, src, sizeof src - 1, dst, 12), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "src_len=47");
    CHECK_STATUS(tl_plan_run(p, src, sizeof src, dst, 11), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "dst_len=11 < 12");
    CHECK_STATUS(tl_plan_run(p, NULL, sizeof src, dst, 12), TL_ERR_NULL);
    CHECK_STATUS(tl_plan_run(p, src, sizeof src, NULL, 12), TL_ERR_NULL);
    CHECK_STATUS(tl_plan_run_part(p, 2, 2, src, sizeof src, dst, 12), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "part=2 of nparts=2");
    CHECK_STATUS(tl_plan_run(NULL, src, sizeof src, dst, 12), TL_ERR_NULL);
    for (size_t i = 0; i < sizeof dst; i++) CHECK_EQ_I64(dst[i], SENT);
    CHECK_STATUS(tl_plan_run(p, src, sizeof src, dst, 12), TL_OK);
    CHECK_STR_EQ(tl_last_error(), "");
    CHECK_EQ_I64(dst[12], SENT);
    tl_plan_destroy(p);
    tl_plan_destroy(NULL);
}

/* The plan says in words what the conversion does to each element: a byte
 * map by its name (what the byte kernels run), else the path; and on AVX2
 * that the byte-add spread maps in the register (its row only for the
 * last pixels). */
TL_TEST(describe_conversion)
{
    static const struct {
        const char *from, *to, *says;
    } cases[] = {
        {"NHWC:u8:1x8x8x3", "NCHW:u8:1x3x8x8", "raw copy"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3", "codes saturated (identity quantizations)"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3:scale=1:zp=-128", "byte map: code -128,"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3:scale=0.5", "byte map: code * 2 saturated,"},
        {"NHWC:i8:1x8x8x3:scale=0.5", "NHWC:u8:1x8x8x3", "byte map: code / 2 rounded to even, saturated"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3:scale=2:round=zero", "byte map: code / 2 rounded down,"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3:scale=2:round=away", "byte map: code / 2 rounded half up,"},
        {"NHWC:i8:1x8x8x3:scale=0.25:zp=1", "NHWC:u8:1x8x8x3:scale=1:zp=5", "byte map: (code + 19) / 4 rounded to even"},
        {"NHWC:u8:1x8x8x3", "NHWC:i8:1x8x8x3:scale=0.3", "byte table of the rule's 256 answers"},
        {"NCHW:f32:1x3x4x4", "NCHW:i8:1x3x4x4:scale=0.1", "f32 pipeline"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_desc s, d;
        tl_plan *p = NULL;
        CHECK(tl_desc_parse(&s, cases[i].from) == TL_OK && tl_desc_parse(&d, cases[i].to) == TL_OK);
        if (tl_plan_create(&p, &s, &d, 0) != TL_OK) {
            FAILF("%s -> %s: %s", cases[i].from, cases[i].to, tl_last_error());
            continue;
        }
        CHECK_STR_CONTAINS(tl_plan_describe(p), cases[i].says);
        tl_plan_destroy(p);
    }
    if (!tl_cpu_has(TL_ISA_AVX2)) return;
    tl_desc s, d;
    tl_plan *p = NULL;
    CHECK(tl_desc_parse(&s, "NHWC:u8:1x16x16x3") == TL_OK &&
          tl_desc_parse(&d, "NHWC:i8:1x16x16x3:scale=1:zp=-128:pad=0,0,0,0,0,0,0,13") == TL_OK);
    CHECK(tl_plan_create_isa(&p, &s, &d, 0, TL_ISA_AVX2) == TL_OK);
    if (p) CHECK_STR_CONTAINS(tl_plan_describe(p), "tl_spread_ukernel__avx2 (the map in the register; tl_u8_i8_convert_ukernel__avx2 for the last pixels)");
    tl_plan_destroy(p);
    /* the VBMI spread too, into RKNN's NC1HWC2 pixels (a 16-byte stride) */
    if (!tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI)) return;
    p = NULL;
    CHECK(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x3x16x16:c2=16:zp=-128:scale=1") == TL_OK);
    CHECK(tl_plan_create_isa(&p, &s, &d, 0, TL_ISA_AVX512) == TL_OK);
    if (p) CHECK_STR_CONTAINS(tl_plan_describe(p), "tl_x8_spread_ukernel__avx512vbmi (the map in the register; tl_x8_lut_ukernel__avx512vbmi for the last pixels)");
    tl_plan_destroy(p);
}

/* The ISA names round-trip and the machine has at least the scalar path. */
TL_TEST(cpu_paths)
{
    CHECK(tl_cpu_has(TL_ISA_SCALAR));
    for (int i = 0; i < TL_ISA_COUNT; i++) CHECK_EQ_I64(tl_isa_from_name(tl_isa_name(i)), i);
    CHECK_EQ_I64(tl_isa_from_name("mmx"), TL_ISA_COUNT);
    CHECK(tl_cpu_has(tl_cpu_default_isa()));
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(normalise_tables);
    TL_RUN(plan_shapes);
    TL_RUN(row_gaps);
#if defined(__x86_64__) || defined(_M_X64)
    TL_RUN(saturating_gather_rows);
    TL_RUN(saturating_interleave_rows);
#endif
    TL_RUN(normalised_structures);
    TL_RUN(plan_bad_inputs);
    TL_RUN(cpu_paths);
    TL_RUN(differential_dtypes);
    TL_RUN(differential_kernel_sizes);
    TL_RUN(differential_vendor_specs);
    TL_RUN(f16_codes_every_half);
    TL_RUN(differential_random);
    TL_RUN(differential_streaming);
    TL_RUN(machine_set_copies);
    TL_RUN(stage_steps);
    TL_RUN(machine_policy);
    TL_RUN(maker_flags);
    TL_RUN(describe_conversion);
    return tl_test_finish();
}
