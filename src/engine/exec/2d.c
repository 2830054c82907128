/* 2d: the innermost node contiguous in the destination and the node above
 * it contiguous in the source: a transpose-like move by the transpose,
 * interleave or block family (tl_t2d_fn), with a conversion through an L1
 * tile when the dtypes differ, fused zeros written per chunk of rows, and
 * a partial channel block as whole rows from a tile with zero lanes. A raw
 * copy whose inner run is contiguous on both sides is folded into a wider
 * element first (tl_pass_fold), when the two nodes above it then transpose. */
#include "engine/exec/exec.h"
#include "kernels/interleave/interleave_lut.h"

bool tl_exec_2d_shape(const tl_plan *p, const tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    int n = ps->nnodes;
    if (n < 2 || !tl_exec_kernels_apply(p) || tl_exec_inner_contiguous(p, ps)) return false;
    return ps->nodes[n - 1].ds == cv->ed && ps->nodes[n - 2].ss == cv->es;
}

/* Element bytes the move kernel sees: the narrow side of a conversion. */
unsigned tl_exec_2d_esize(const tl_plan *p, const tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    if (ps->esize) return ps->esize;
    return cv->path == TL_EP_COPY ? cv->es : (cv->es < cv->ed ? cv->es : cv->ed);
}

/* The machine policy's verdict on the rows a tiled transpose touches at
 * once (its register blocks read or write 16 rows): source rows (in) with
 * more lines in one L1 set than the policy's alias_rows are loaded ahead,
 * destination rows (out) with more than alias_store_rows get runs of lines
 * through L1 (the kernels' TL_T2D_*_ALIAS flags, docs/engine.md §3), and
 * 64 source rows with more lines in one L2 set than it has ways are
 * prefetched close when streamed (TL_T2D_L2_ALIAS); and the policy's
 * narrow_512 (TL_T2D_NARROW512) and split_stores (TL_T2D_SPLIT). */
static uint8_t alias_flags(const tl_plan *p, const tl_node *in, const tl_node *out)
{
    const tl_machine *m = &p->machine;
    size_t n0 = in->count < 16 ? (size_t)in->count : 16, n1 = out->count < 16 ? (size_t)out->count : 16;
    size_t band = in->count < 64 ? (size_t)in->count : 64;
    unsigned f = (tl_machine_rows_per_set(m, out->ds, n1) > m->alias_store_rows ? TL_T2D_DST_ALIAS : 0) |
                 (tl_machine_rows_alias(m, in->ss, n0) ? TL_T2D_SRC_ALIAS : 0) |
                 (tl_machine_rows_share_l2(m, in->ss, band) ? TL_T2D_L2_ALIAS : 0);
    return (uint8_t)(f | (m->narrow_512 ? TL_T2D_NARROW512 : 0) | (m->split_stores ? TL_T2D_SPLIT : 0));
}

/* An 8-bit table conversion around the AVX-512 3-channel byte (de)interleave
 * of packed pixels runs in its registers on a CPU with VBMI: one pass over
 * memory instead of a table pass over an L1 tile and a move (an NHWC u8
 * image into TIDL's padded i8 planes, and back); so does the quantization
 * of 3 f32 planes into packed 8-bit pixels (NCHW f32 -> NHWC i8, C = 3)
 * and of 16 f32 planes into a 16-channel block (NCHW f32 -> NCHW16c i8),
 * and the dequantization of a 16-channel block into 16 f32 planes (NCHW16c
 * i8 -> NCHW f32). The kernel that does it, or TL_IN_REG_NONE. */
static tl_t2d_in_reg convert_in_register(const tl_plan *p, const tl_t2d_kernel *k, const tl_node *in,
                                         const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    bool code_floats = cv->ddt == TL_F32 && (cv->sdt == TL_U8 || cv->sdt == TL_I8) && cv->fast;
    bool unblock16 = code_floats && k->esize == 1 && (k->shape == TL_T2D_ANY || k->shape == TL_T2D_UNPACK) &&
                     out->count == 16 && out->ss == 1 && in->ss == 16 && in->ds == 4;
    bool f32_codes = cv->sdt == TL_F32 && cv->ed == 1 && cv->fast && out->ss == 4;
    bool ilv3 = f32_codes && k->esize == 1 && k->shape == TL_T2D_ILV && k->param == 3 && out->ds == 3;
    bool block16 = f32_codes && k->esize == 1 && (k->shape == TL_T2D_ANY || k->shape == TL_T2D_PACK) &&
                   in->count == 16 && in->ds == 1 && out->ds == 16; /* 16 planes into one 16-channel block (NCHW16c) */
#if defined(__x86_64__) || defined(_M_X64)
    /* its 16 stores a step go to 16 planes: streamed only. In cache the
     * tiles' runs of lines per plane measured as fast or faster (256 KiB,
     * Zen 5: 64x64 planes, all 16 in one L1 set, 0.64 -> 0.30x memcpy;
     * 50x82 27 against 53 GB/s; 60x70 72 against 59; the AVX2 kernel on
     * Zen 3 likewise) */
    if (unblock16 && cv->stream && tl_isa_includes(p->isa, TL_ISA_AVX2))
        return tl_exec_vbmi(p) ? TL_IN_REG_DEQUANT16_VBMI : TL_IN_REG_DEQUANT16_AVX2; /* VBMI's 16 pixels a step, AVX2's 32 */
    if (block16 && k->isa == TL_ISA_AVX512 && tl_exec_vbmi(p)) return TL_IN_REG_QUANT16_VBMI;
    /* elsewhere AVX2's 8 pixels a step, streamed or not, in place of a
     * row conversion per plane and a byte transpose through L1 (C = 80,
     * Zen 5, one plan against a streaming copy: AVX2 path 1810 x 1810
     * 0.33-0.35 -> 0.92-0.94, 128 x 128 0.39 -> 0.66, 32 x 35 0.74 ->
     * 1.25; AVX-512 without VBMI 0.41 -> 0.95 and 0.59 -> 0.65) */
    if (block16 && tl_isa_includes(p->isa, TL_ISA_AVX2)) return TL_IN_REG_QUANT16_AVX2;
    /* 3 f32 planes into packed 8-bit pixels, the same way (AVX2 path,
     * Zen 5, one plan against a streaming copy: 2 x 2956 x 2956 0.29-0.37
     * -> 0.86-0.95; 128 x 128 1.01 -> 1.22, 40 x 41 0.53 -> 0.51) */
    if (ilv3 && !tl_exec_vbmi(p) && tl_isa_includes(p->isa, TL_ISA_AVX2)) return TL_IN_REG_QUANT3_AVX2;
    if (!tl_exec_vbmi(p)) return TL_IN_REG_NONE;
    if (k->isa != TL_ISA_AVX512 || k->esize != 1) return TL_IN_REG_NONE;
    if (k->param != 3) return TL_IN_REG_NONE;
    /* a table, or a map computed without one (u8 <-> i8 saturation has none) */
    bool map8 = cv->path != TL_EP_COPY && (cv->lut8 || tl_x8_vbmi_map(cv) != TL_MAP8_LUT);
    if (map8 && k->shape == TL_T2D_DILV) return in->ss == 3 ? TL_IN_REG_MAP3_DILV_VBMI : TL_IN_REG_NONE; /* packed source pixels */
    if (map8 && k->shape == TL_T2D_ILV) return out->ds == 3 ? TL_IN_REG_MAP3_ILV_VBMI : TL_IN_REG_NONE; /* packed destination pixels */
    if (ilv3) return TL_IN_REG_QUANT3_VBMI;
#elif defined(__ARM_NEON)
    /* in cache too, unless the 16 planes' lines meet in one L1 set past its
     * ways (the machine policy's verdict): the same whole-line stores to 16
     * planes in one set ran at half the tile path's speed on x86 (above),
     * and no Arm board here says otherwise. NCHW16c i8 -> NCHW f32, C = 64,
     * 63 x 64 planes (250 KiB): 0.47 -> 0.28 instructions per byte on
     * AArch64, 0.64 -> 0.46 on Armv7, against the unpack and a row
     * conversion (bench/icount_arm.sh --size 250K) */
    if (unblock16 && tl_isa_includes(p->isa, TL_ISA_NEON) && !(alias_flags(p, in, out) & TL_T2D_DST_ALIAS))
        return TL_IN_REG_DEQUANT16_NEON;
    /* 3 f32 planes into packed 8-bit pixels, 16 a step (vst3), in place of
     * a row conversion per plane into an L1 tile and the byte interleave */
    if (ilv3 && tl_isa_includes(p->isa, TL_ISA_NEON)) return TL_IN_REG_QUANT3_NEON;
    /* 16 f32 planes into a 16-channel block, 8 pixels a step (the 16 x 8
     * byte transpose in the registers), in place of the planes' f32
     * interleave into a tile and the 4-row form */
    if (block16 && tl_isa_includes(p->isa, TL_ISA_NEON)) return TL_IN_REG_QUANT16_NEON;
#else
    (void)p, (void)k, (void)in, (void)out, (void)unblock16, (void)ilv3, (void)block16;
#endif
    return TL_IN_REG_NONE;
}

/* The kernels of tl_t2d_in_reg by their shapes: 3 planes into packed
 * pixels, planes (plane_stride apart) into 16-byte pixels, 16-byte pixels
 * into planes, packed 3-byte pixels into planes; one entry each, its name
 * for tl_plan_describe. Only the kernels built here are listed:
 * convert_in_register chooses no other. */
typedef void (*in_reg_ilv3_fn)(const uint8_t *const *planes, uint8_t *d, size_t n, int stream, const tl_cvt *cv);
typedef void (*in_reg_pack_fn)(const uint8_t *planes, size_t plane_stride, uint8_t *d, size_t n, int stream,
                               const tl_cvt *cv);
typedef void (*in_reg_unpack_fn)(const uint8_t *s, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                 const tl_cvt *cv);
typedef void (*in_reg_dilv3_fn)(const uint8_t *s, uint8_t *planes, ptrdiff_t plane_stride, size_t n, int stream,
                                const tl_cvt *cv);
typedef struct in_reg_kernel {
    const char *name;
    in_reg_ilv3_fn ilv3;
    in_reg_pack_fn pack;
    in_reg_unpack_fn unpack;
    in_reg_dilv3_fn dilv3;
} in_reg_kernel;

#define TL_IN_REG(kind, SHAPE, fn) [kind] = {#fn, .SHAPE = fn}
static const in_reg_kernel in_reg_kernels[TL_IN_REG_KINDS] = {
#if defined(__x86_64__) || defined(_M_X64)
    TL_IN_REG(TL_IN_REG_MAP3_ILV_VBMI, ilv3, tl_x8_lut_interleave3_ukernel__avx512vbmi),
    TL_IN_REG(TL_IN_REG_QUANT3_VBMI, ilv3, tl_f32_x8_interleave3_ukernel__avx512vbmi),
    TL_IN_REG(TL_IN_REG_QUANT3_AVX2, ilv3, tl_f32_x8_interleave3_ukernel__avx2),
    TL_IN_REG(TL_IN_REG_QUANT16_VBMI, pack, tl_f32_x8_block16_ukernel__avx512vbmi),
    TL_IN_REG(TL_IN_REG_QUANT16_AVX2, pack, tl_f32_x8_block16_ukernel__avx2),
    TL_IN_REG(TL_IN_REG_MAP3_DILV_VBMI, dilv3, tl_x8_lut_deinterleave3_ukernel__avx512vbmi),
    TL_IN_REG(TL_IN_REG_DEQUANT16_VBMI, unpack, tl_x8_f32_unblock16_ukernel__avx512vbmi),
    TL_IN_REG(TL_IN_REG_DEQUANT16_AVX2, unpack, tl_x8_f32_unblock16_ukernel__avx2),
#elif defined(__ARM_NEON)
    TL_IN_REG(TL_IN_REG_QUANT3_NEON, ilv3, tl_f32_x8_interleave3_ukernel__neon),
    TL_IN_REG(TL_IN_REG_QUANT16_NEON, pack, tl_f32_x8_block16_ukernel__neon),
    TL_IN_REG(TL_IN_REG_DEQUANT16_NEON, unpack, tl_x8_f32_unblock16_ukernel__neon),
#endif
};
#undef TL_IN_REG

/* The move with its conversion in one kernel call (convert_in_register). */
static void t2d_in_reg(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out, int stream)
{
    const in_reg_kernel *e = &in_reg_kernels[ps->x.t2d.in_reg];
    if (e->ilv3) {
        const uint8_t *planes[3] = {s, s + in->ss, s + 2 * in->ss};
        e->ilv3(planes, d, (size_t)out->count, stream, &p->cv);
    } else if (e->pack) {
        e->pack(s, (size_t)in->ss, d, (size_t)out->count, stream, &p->cv);
    } else if (e->unpack) {
        e->unpack(s, d, (size_t)out->ds, (size_t)in->count, stream, &p->cv);
    } else if (e->dilv3) {
#if defined(__x86_64__) || defined(_M_X64) /* (the VBMI de-interleave's store flags) */
        stream = tl_exec_dilv_flags(p, stream, tl_x8_vbmi_map(&p->cv) == TL_MAP8_LUT);
#endif
        e->dilv3(s, d, out->ds, (size_t)in->count, stream, &p->cv);
    }
}

/* The move kernel for the pass as it stands; false (nothing set) if none. */
static bool choose(const tl_plan *p, tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = &ps->nodes[ps->nnodes - 2];
    bool copy = cv->path == TL_EP_COPY;
    unsigned esz = tl_exec_2d_esize(p, ps);
    const tl_t2d_kernel *k = tl_find_t2d(p->isa, esz, (size_t)in->count, (size_t)out->count);
    if (!k || !(copy || ps->row)) return false;
    ps->x.t2d.k = k;
    ps->x.t2d.convert_first = (uint8_t)(!copy && cv->ed <= cv->es);
    ps->kernel_name = k->name;
    ps->esize = (uint8_t)esz;
    ps->x.t2d.in_reg = TL_IN_REG_NONE, ps->x.t2d.alias = 0, ps->x.t2d.lanes = NULL, ps->x.t2d.group4 = 0;
    tl_t2d_in_reg in_reg = convert_in_register(p, k, in, out);
    if (in_reg != TL_IN_REG_NONE) {
        ps->x.t2d.in_reg = (uint8_t)in_reg;
        ps->kernel_name = in_reg_kernels[in_reg].name;
        ps->row = NULL; /* no row conversion runs */
        return true;
    }
    /* codes of channels 4 at a time (NCHW f32 -> NHWC i8 with C % 4 == 0),
     * in cache: the 4-row form converts 4 planes into 4-byte groups, which a
     * 32-bit transpose moves, instead of a byte transpose of every code (C =
     * 64, 256 KiB, AVX-512, Zen 4: 0.48 -> 0.57x memcpy). Streamed, the rows
     * one at a time, each after its prefetch, measured faster (256 MiB:
     * 0.72 against 0.64; prefetching the 4 rows of a group, then the call).
     * Not for one group (C = 4): the 4-plane interleave is faster (0.51
     * against 0.23 through a 32-bit transpose of one row); nor for rows
     * shorter than a vector, all tail (4 KiB, C = 80 into NCHW16c, 10
     * pixels: 1.44 -> 1.80 instructions per byte on AArch64) */
    const tl_row_kernel *g4 = ps->x.t2d.convert_first && !cv->stream && in->count % 4 == 0 && in->count > 4 &&
                                  out->count >= 16
                                  ? tl_find_group4(p->isa, (tl_dtype)cv->sdt, (tl_dtype)cv->ddt) : NULL;
    const tl_t2d_kernel *kw = g4 ? tl_find_t2d(p->isa, 4, (size_t)in->count / 4, (size_t)out->count) : NULL;
    if (kw) {
        ps->x.t2d.k = k = kw;
        ps->x.t2d.group4 = 1;
        ps->row = g4;
        ps->kernel_name = kw->name;
        ps->esize = 4;
    }
    /* a partial channel block (NCHW16c with C = 24: 8 channels and 8 zero
     * lanes): the tiled transpose writes whole destination rows from a tile
     * with zero rows, instead of short rows and a zero store per row */
    int64_t lanes = ps->head + in->count + ps->tail;
    const tl_t2d_kernel *kl = tl_find_t2d(p->isa, esz, (size_t)lanes, (size_t)out->count);
    ps->x.t2d.lanes = NULL;
    /* (a block pack of the whole lanes does it too: NEON's pack16 for
     * NCHW -> NCHW16c i8 with C = 24 had run pack8 and a zero store per
     * pixel, 0.78 instructions per byte under qemu-aarch64 against 0.23 for
     * C = 64) */
    bool any = k->shape == TL_T2D_ANY || (k->shape == TL_T2D_PACK && k->param == (unsigned)in->count);
    if (copy && (ps->head || ps->tail) && lanes * (int64_t)esz <= 256 && any && kl &&
        (kl->shape == TL_T2D_ANY || kl->shape == TL_T2D_PACK))
        ps->x.t2d.lanes = kl; /* it reads an L1 tile: no set flags */
    ps->x.t2d.alias = k->shape == TL_T2D_ANY && !ps->x.t2d.lanes ? alias_flags(p, in, out) : 0;
    return true;
}

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    if (tl_exec_kernels_apply(p) && tl_exec_inner_contiguous(p, ps)) /* a raw copy folded */
        return !ps->head && !ps->tail && p->cv.path == TL_EP_COPY && tl_pass_fold(ps, p->cv.es) && choose(p, ps);
    return tl_exec_2d_shape(p, ps) && choose(p, ps);
}

/* The tile of a conversion through an L1 buffer: the policy's, but for a
 * widening one no more than the L1 holds with the destination lines it
 * fills (ed / es times the tile), which stay in L1 until they are written
 * back (dequantize NCHW16c i8 -> NCHW f32, C = 64, 256 KiB, Xeon with 48
 * KiB of L1: 16 KiB tiles 40 GB/s, 8 KiB 44; at 80 x 80 32.5 -> 39.7) */
static size_t conversion_tile(const tl_plan *p)
{
    const tl_machine *m = &p->machine;
    size_t tile = m->tile_bytes, l1 = m->cache.l1d.bytes ? m->cache.l1d.bytes : 2 * tile;
    size_t wide = p->cv.ed > p->cv.es ? p->cv.ed / p->cv.es : 0;
    while (tile > 4096 && tile * (1 + wide) > l1) tile /= 2;
    return tile;
}

/* A 2-D tile through an L1 buffer when the dtypes differ: narrowing converts
 * source rows first and moves the narrow elements; widening moves the narrow
 * source elements first and converts destination rows. One pass over memory. */
static void t2d_tiles(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *in, const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    const tl_t2d_kernel *k = ps->x.t2d.k;
    _Alignas(64) uint8_t tmp[TL_TILE_BYTES], out_tile[TL_TILE_BYTES]; /* out_tile: streaming plans */
    size_t n0 = (size_t)in->count, n1 = (size_t)out->count;
    /* the tile holds narrow elements only (the wide side is read or written
     * in place); long rows keep the row kernels' start-up small, and a
     * multiple of 64 elements keeps the move kernels' blocks whole */
    size_t narrow = cv->es < cv->ed ? cv->es : cv->ed, t0, t1, tile = conversion_tile(p);
    /* source rows per tile row: 4 through the 4-row form (its rows then
     * hold 4-byte groups, moved as words), else 1 */
    const size_t g = ps->x.t2d.group4 ? 4 : 1;
    if (n0 <= 64) {
        t0 = n0;
        t1 = tile / (t0 * narrow);
        if (t1 > 64) t1 = t1 / 64 * 64;
    } else if (n1 <= 64) {
        t1 = n1;
        t0 = tile / (t1 * narrow);
        if (t0 > 64) t0 = t0 / 64 * 64;
    } else {
        t0 = t1 = 64;
    }
    t0 -= t0 % g; /* (n0 is a multiple of g) */
    for (size_t b1 = 0; b1 < n1; b1 += t1) {
        size_t m1 = n1 - b1 < t1 ? n1 - b1 : t1;
        /* 16 or more source rows in other pages (planes), streamed: each
         * row's tile after next into L2 while this one converts. Dozens of
         * concurrent rows of a few lines each are more streams than the
         * hardware prefetchers follow (quantize NCHW f32 -> NHWC i8 C = 64,
         * 256 MiB: 9.4 -> 14.6 GB/s with the next tile, 12.9 -> 16.9 the one
         * after; into NCHW16c, 16 rows a tile, C = 80: 11.3 -> 15.5); with 3
         * rows they follow, and the hints only cost (C = 3: 15 -> 12.5) */
        int ahead = cv->stream && in->ss >= 4096 && n0 >= 16 && b1 + 3 * t1 <= n1;
        for (size_t b0 = 0; b0 < n0; b0 += t0) {
            size_t m0 = n0 - b0 < t0 ? n0 - b0 : t0;
            const uint8_t *s = src + (ptrdiff_t)b0 * in->ss + b1 * cv->es;
            uint8_t *d = dst + (ptrdiff_t)b1 * out->ds + (b0 + ps->head) * cv->ed;
            /* a tile whose rows are adjacent on the converted side (pixels
             * of an NHWC image: rows of 3) converts in one call, not m rows */
            if (ps->x.t2d.convert_first) {
                const ptrdiff_t ts = (ptrdiff_t)(g * m1 * cv->ed); /* the tile's row stride */
                if (g == 1 && in->ss == (ptrdiff_t)(m1 * cv->es))
                    ps->row->fn(s, 0, tmp, 0, 1, m0 * m1, cv);
                else if (!ahead)
                    ps->row->fn(s, in->ss, tmp, ts, m0, m1, cv);
                else
                    for (size_t r = 0; r < m0; r += g) {
                        for (size_t j = r; j < r + g; j++)
                            tl_prefetch_l2(s + (ptrdiff_t)j * in->ss + 2 * m1 * cv->es, m1 * cv->es);
                        ps->row->fn(s + (ptrdiff_t)r * in->ss, in->ss, tmp + r / g * (size_t)ts, ts, g, m1, cv);
                    }
                if (cv->stream) { /* move into L1, then stream each row out */
                    size_t rb = m0 * cv->ed;
                    k->fn(tmp, ts, out_tile, (ptrdiff_t)rb, m0 / g, m1, 0);
                    if (out->ds == (ptrdiff_t)rb) p->stream_copy(d, out_tile, m1 * rb);
                    else
                        for (size_t r = 0; r < m1; r++) p->stream_copy(d + (ptrdiff_t)r * out->ds, out_tile + r * rb, rb);
                } else {
                    k->fn(tmp, ts, d, out->ds, m0 / g, m1,
                          ps->x.t2d.alias & (TL_T2D_DST_ALIAS | TL_T2D_NARROW512 | TL_T2D_SPLIT));
                }
            } else {
                k->fn(s, in->ss, tmp, (ptrdiff_t)(m0 * cv->es), m0, m1, ps->x.t2d.alias & (TL_T2D_SRC_ALIAS | TL_T2D_NARROW512));
                if (out->ds == (ptrdiff_t)(m0 * cv->ed))
                    tl_copy_or_convert_row(p, ps, tmp, d, m0 * m1);
                else
                    tl_copy_or_convert_rows(p, ps, tmp, (ptrdiff_t)(m0 * cv->es), d, out->ds, m1, m0);
            }
        }
    }
}

/* De-interleave and unpack kernels take exactly their n1. */
static bool fixed_n1(const tl_t2d_kernel *k)
{
    return k->shape == TL_T2D_DILV || k->shape == TL_T2D_UNPACK;
}

/* A raw-copy transpose with fused zero lanes, whole destination rows at a
 * time: chunks of source columns go to an L1 tile of head + count + tail
 * rows whose head and tail rows stay zero, and the move kernel transposes
 * the whole tile. One copy of the source in L1 instead of a short row and
 * a zero store per destination row. */
static void run_t2d_lanes(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                          const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    _Alignas(64) uint8_t tmp[TL_TILE_BYTES], out_tile[TL_TILE_BYTES]; /* each holds lanes x t1 elements */
    size_t es = cv->es, lanes = (size_t)(ps->head + in->count + ps->tail), n1 = (size_t)out->count;
    size_t t1 = TL_TILE_BYTES / (lanes * es) / 64 * 64; /* >= 64 columns: the whole stack tile */
    if (n1 < t1) t1 = (n1 + 63) / 64 * 64; /* (a small image: zero only the tile's part it uses) */
    size_t rs = t1 * es;
    if (cv->stream && out->ds == (ptrdiff_t)(lanes * es)) {
        /* whole pixels streamed: the source rows go straight into the
         * pixels of an output tile whose zero lanes are written once, then
         * out as one range (no copy of the source into L1 first: NCHW ->
         * NCHW16c f32 with 8 channels, 256 MiB, 10 -> 26 GB/s) */
        memset(out_tile, 0, t1 * lanes * es);
        for (size_t b1 = 0; b1 < n1; b1 += t1) {
            size_t m1 = n1 - b1 < t1 ? n1 - b1 : t1;
            ps->x.t2d.k->fn(s + b1 * es, in->ss, out_tile + (size_t)ps->head * es, (ptrdiff_t)(lanes * es),
                            (size_t)in->count, m1, 0);
            p->stream_copy(d + (ptrdiff_t)b1 * out->ds, out_tile, m1 * lanes * es);
        }
        return;
    }
    memset(tmp, 0, (size_t)ps->head * rs);
    memset(tmp + (size_t)(ps->head + in->count) * rs, 0, (size_t)ps->tail * rs);
    for (size_t b1 = 0; b1 < n1; b1 += t1) {
        size_t m1 = n1 - b1 < t1 ? n1 - b1 : t1;
        for (int64_t r = 0; r < in->count; r++)
            memcpy(tmp + (size_t)(ps->head + r) * rs, s + r * in->ss + b1 * es, m1 * es);
        ps->x.t2d.lanes->fn(tmp, (ptrdiff_t)rs, d + (ptrdiff_t)b1 * out->ds, out->ds, lanes, m1, 0);
    }
}

/* The move kernel's store flags for a raw copy: stream (0 or TL_T2D_STREAM)
 * with the policy's run of lines per far row, the policy's alias verdicts
 * (its L2 one read only when streaming), and for the AVX-512 byte
 * de-interleaves its split-store verdict (the only kernels that read that
 * flag). */
static int copy_flags(const tl_plan *p, const tl_pass *ps, int stream)
{
    const tl_t2d_kernel *k = ps->x.t2d.k;
    if (k->isa == TL_ISA_AVX512 && k->esize == 1 && k->shape == TL_T2D_DILV) return tl_exec_dilv_flags(p, stream, false);
    unsigned run = p->machine.stream_run_lines, log2_run = run >= 8 ? 3 : run >= 4 ? 2 : run >= 2 ? 1 : 0;
    return stream | ps->x.t2d.alias | (stream ? (int)log2_run << TL_T2D_RUN_SHIFT : 0);
}

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                    const tl_node *in, const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    const tl_t2d_kernel *k = ps->x.t2d.k;
    if (ps->x.t2d.lanes) { /* (head + count + tail) * es <= 256: a tile of >= 64 columns */
        run_t2d_lanes(p, ps, s, d, in, out);
        return;
    }
    if (!ps->head && !ps->tail) {
        if (cv->path == TL_EP_COPY)
            k->fn(s, in->ss, d, out->ds, (size_t)in->count, (size_t)out->count, copy_flags(p, ps, tl_exec_streams(p)));
        else if (ps->x.t2d.in_reg) t2d_in_reg(p, ps, s, d, in, out, tl_exec_streams(p));
        else t2d_tiles(p, ps, s, d, in, out);
        return;
    }
    /* fused padding: rows in chunks, each chunk's padding written while its
     * lines are still in cache (one pass over the destination, not two).
     * The kernels store plainly: the padding's plain stores go to the same
     * lines next (TIDL's padded rows one at a time measured slower
     * streamed, docs/engine.md) */
    tl_node part = *out;
    int64_t chunk = fixed_n1(k) ? out->count : 64;
    for (int64_t r0 = 0; r0 < out->count; r0 += chunk) {
        part.count = out->count - r0 < chunk ? out->count - r0 : chunk;
        const uint8_t *sr = s + r0 * cv->es;
        uint8_t *dr = d + r0 * out->ds;
        if (cv->path == TL_EP_COPY)
            k->fn(sr, in->ss, dr + ps->head * cv->ed, out->ds, (size_t)in->count, (size_t)part.count,
                  copy_flags(p, ps, 0));
        else if (ps->x.t2d.in_reg) t2d_in_reg(p, ps, sr, dr + ps->head * cv->ed, in, &part, 0);
        else t2d_tiles(p, ps, sr, dr, in, &part);
        for (int64_t r = 0; r < part.count; r++) {
            uint8_t *row = dr + r * out->ds;
            tl_zero_elems(cv, row, ps->head);
            tl_zero_elems(cv, row + (ps->head + in->count) * cv->ed, ps->tail);
        }
    }
}

const tl_executor tl_exec_2d = {"2d", 2, applicable, run, false, NULL};

/* 2d rows: the 3-channel byte (de)interleave of an image's rows in one
 * kernel call (VBMI; the 8-bit table or a plain move): the node above the
 * 2d pair is the image's rows, and a de-interleave's fused zeros are the
 * padding bytes around each planar row (TIDL's padded planes). The 2d
 * executor ran the kernel once per row. On AVX2 and NEON both ways as a move or
 * through a byte map (tl_map8_of: a u8 image into TIDL's u8 or i8 planes and
 * back, identity quantizations saturated). */
static bool rows_kernel(const tl_plan *p, const tl_pass *ps)
{
    const tl_t2d_kernel *k = ps->x.t2d.k;
    if (k->esize != 1 || k->param != 3) return false;
    const bool copy = p->cv.path == TL_EP_COPY;
    bool maps; /* the kernel does the plan's conversion in its registers */
    switch (k->isa) {
#if defined(__x86_64__) || defined(_M_X64)
    case TL_ISA_AVX512: /* VBMI: a move or the 8-bit table */
        maps = tl_exec_vbmi(p) && (copy ? !ps->x.t2d.in_reg && ps->esize == 1
                                        : ps->x.t2d.in_reg == TL_IN_REG_MAP3_ILV_VBMI ||
                                              ps->x.t2d.in_reg == TL_IN_REG_MAP3_DILV_VBMI);
        break;
    case TL_ISA_AVX2: /* AVX2 and NEON: a move or any byte map */
#elif defined(__ARM_NEON)
    case TL_ISA_NEON:
#endif
#if defined(__x86_64__) || defined(_M_X64) || defined(__ARM_NEON)
        maps = copy ? ps->esize == 1 : tl_map8_of(&p->cv) >= 0;
        break;
#endif
    default: maps = false; break;
    }
    if (!maps) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = &ps->nodes[ps->nnodes - 2];
    if (k->shape == TL_T2D_DILV) return in->ss == 3;
    return k->shape == TL_T2D_ILV && out->ds == 3 && !ps->head && !ps->tail;
}

static bool applicable_rows(const tl_plan *p, tl_pass *ps)
{
    if (ps->nnodes < 3) return false;
    tl_pass was = *ps;
    if (applicable(p, ps) && rows_kernel(p, ps)) {
        if (ps->x.t2d.k->isa == TL_ISA_AVX2) ps->row = NULL; /* the map runs in the kernel */
        bool dilv = ps->x.t2d.k->shape == TL_T2D_DILV;
        if (ps->x.t2d.k->isa == TL_ISA_NEON) {
            ps->row = NULL; /* the map runs in the kernel */
            ps->kernel_name = dilv ? "tl_x8_deinterleave3_rows_ukernel__neon" : "tl_x8_interleave3_rows_ukernel__neon";
        } else if (ps->x.t2d.k->isa == TL_ISA_AVX2)
            ps->kernel_name = dilv ? "tl_x8_deinterleave3_rows_ukernel__avx2" : "tl_x8_interleave3_rows_ukernel__avx2";
        else
            ps->kernel_name = dilv ? "tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi"
                                   : "tl_x8_lut_interleave3_rows_ukernel__avx512vbmi";
        return true;
    }
    *ps = was;
    return false;
}

static void run_rows(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                     const tl_node *out)
{
#if defined(__x86_64__) || defined(_M_X64)
    const tl_node *rows = out - 1;
    bool dilv = ps->x.t2d.k->shape == TL_T2D_DILV;
    tl_rows3 g = {(size_t)(dilv ? in->count : out->count), (size_t)rows->count, dilv ? rows->ss : rows->ds,
                  dilv ? rows->ds : rows->ss, dilv ? out->ds : in->ss, (size_t)ps->head, (size_t)ps->tail};
    /* interleaving, the bytes between planar rows are only skipped: the
     * kernel's one-stream form takes them as the pad run (TIDL's padding) */
    if (!dilv && g.plane_row >= (ptrdiff_t)g.n) g.tail = (size_t)g.plane_row - g.n;
    const tl_cvt *map = p->cv.path == TL_EP_COPY ? NULL : &p->cv;
    if (ps->x.t2d.k->isa == TL_ISA_AVX2 && dilv)
        tl_x8_deinterleave3_rows_ukernel__avx2(s, d + ps->head, &g, tl_exec_streams(p), map);
    else if (ps->x.t2d.k->isa == TL_ISA_AVX2) tl_x8_interleave3_rows_ukernel__avx2(s, d, &g, tl_exec_streams(p), map);
    else if (dilv) {
        const int flags = tl_exec_dilv_flags(p, tl_exec_streams(p), tl_x8_vbmi_map(map) == TL_MAP8_LUT);
        tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(s, d + ps->head, &g, flags, map);
    } else tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(s, d, &g, tl_exec_streams(p), map);
#elif defined(__ARM_NEON)
    const tl_node *rows = out - 1;
    bool dilv = ps->x.t2d.k->shape == TL_T2D_DILV;
    tl_rows3 g = {(size_t)(dilv ? in->count : out->count), (size_t)rows->count, dilv ? rows->ss : rows->ds,
                  dilv ? rows->ds : rows->ss, dilv ? out->ds : in->ss, (size_t)ps->head, (size_t)ps->tail};
    const tl_cvt *map = p->cv.path == TL_EP_COPY ? NULL : &p->cv;
    if (dilv) tl_x8_deinterleave3_rows_ukernel__neon(s, d + ps->head, &g, map);
    else tl_x8_interleave3_rows_ukernel__neon(s, d, &g, map);
#else
    (void)p, (void)ps, (void)s, (void)d, (void)in, (void)out;
#endif
}

const tl_executor tl_exec_2d_rows = {"2d rows", 3, applicable_rows, run_rows, false, NULL};
