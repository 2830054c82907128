/* pixels: short runs (a pixel's channels) at a pixel stride of at most 64
 * bytes, through an L1 tile: one row call converts a tile, then one masked
 * 4- to 64-byte move per pixel (the move family's spread) puts each into
 * its whole destination pixel with its zero lanes (RGB into RKNN NC1HWC2,
 * kCHW32, DLA HWC4), or gathers pixels into a dense destination (and back). */
#include "engine/exec/exec.h"

/* x86: the name of the AVX2 rows kernels (the f16 spreads and gathers below) */
#if defined(__x86_64__) || defined(_M_X64)
#define TL_ROWS_NAME(base) base "avx2"
#endif

/* Arm: the kDLA_HWC4 f16 <-> RGB kernels of a pass (move.h): AArch64's, or
 * those for ARMv8.2's FP16 arithmetic where choose_shuffle found it; on
 * Armv7 those for the VFPv4 FPU (where tl_exec_neon_f16 says they run) */
#if defined(__ARM_NEON) && !defined(__x86_64__)
#define TL_ARM_F16_PX 1
typedef void (*arm_f16_fn)(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const struct tl_cvt *cv);
typedef struct arm_f16_px {
    const char *gather_name, *spread_name;
    arm_f16_fn gather, spread;
} arm_f16_px;

static arm_f16_px arm_f16_kernels(const tl_pass *ps)
{
#if defined(__aarch64__)
    if (ps->x.px.fp16arith)
        return (arm_f16_px){"tl_f16_x8_gather4_rows_ukernel__neonfp16arith", "tl_u8_f16_spread4_rows_ukernel__neonfp16arith",
                            tl_f16_x8_gather4_rows_ukernel__neonfp16arith, tl_u8_f16_spread4_rows_ukernel__neonfp16arith};
    return (arm_f16_px){"tl_f16_x8_gather4_rows_ukernel__neon", "tl_u8_f16_spread4_rows_ukernel__neon",
                        tl_f16_x8_gather4_rows_ukernel__neon, tl_u8_f16_spread4_rows_ukernel__neon};
#else
    (void)ps;
    return (arm_f16_px){"tl_f16_x8_gather4_rows_ukernel__neonfp16", "tl_u8_f16_spread4_rows_ukernel__neonfp16",
                        tl_f16_x8_gather4_rows_ukernel__neonfp16, tl_u8_f16_spread4_rows_ukernel__neonfp16};
#endif
}
#endif

/* The smallest word move (4 .. 64 bytes) that holds n bytes; 0 if none. */
static unsigned px_move(int64_t n)
{
    for (unsigned w = 4; w <= 64; w *= 2)
        if (n <= (int64_t)w) return w;
    return 0;
}

/* A gather of the 3 channels of f16 pixels of 4 halves (kDLA_HWC4 f16, ss =
 * 8 bytes, a run of rs = 6) into 8-bit codes: the rows kernels that convert
 * in the register take it (AVX2, AArch64, Armv7 with VFPv4). */
static inline bool f16_rgb_gather(const tl_cvt *cv, const tl_pass *ps, size_t ss, size_t rs)
{
    return ps->x.px.gather && cv->sdt == TL_F16 && (cv->ddt == TL_U8 || cv->ddt == TL_I8) && cv->fast && ss == 8 &&
           rs == 3 * 2;
}

#if defined(__x86_64__) || defined(_M_X64)
/* The kDLA_HWC4 f16 -> RGB gather that converts in the register: with VBMI
 * and the plain u8 rule (a DLA output as it is: nearest even, NaN 0) the
 * integer form without F16C (convert/avx512.c: 0.141 against 0.264 ns a
 * pixel), else the AVX2 kernel, which takes every rule. */
static bool f16_u8_plain_vbmi(const tl_plan *p)
{
    const tl_cvt *cv = &p->cv;
    return tl_exec_vbmi(p) && tl_cvt_plain_u8_even(cv);
}

static const char *f16_gather_name(const tl_plan *p)
{
    return f16_u8_plain_vbmi(p) ? "tl_f16_u8_gather4_rows_ukernel__avx512vbmi" : "tl_f16_x8_gather4_rows_ukernel__avx2";
}

static void f16_gather_rows(const tl_plan *p, const uint8_t *s, uint8_t *d, const tl_px_rows *g)
{
    if (f16_u8_plain_vbmi(p)) tl_f16_u8_gather4_rows_ukernel__avx512vbmi(s, d, g);
    else tl_f16_x8_gather4_rows_ukernel__avx2(s, d, g, &p->cv);
}
#endif

/* On a CPU with AVX-512 VBMI (and a plan on that path), one byte permute
 * per 64 bytes moves the pixels: spread into pixels of w bytes whose run of
 * rd bytes starts h bytes in, or gather from pixels of w bytes (a power of 2
 * up to 64: whole pixels per register; a gather up to 16). */
#if defined(__x86_64__) || defined(_M_X64)
/* The line gather (move.h) for a gather of 2 to 4 destination bytes a pixel
 * from 8-bit pixels of 4 to 32 bytes, raw, saturated (u8 <-> i8) or through
 * the plan's table (cv->lut8), or from f16 pixels of 4 halves converted by
 * the f32 pipeline's steps (kDLA_HWC4 f16). */
static void choose_lines(const tl_plan *p, tl_pass *ps, int64_t ss, size_t rs)
{
    const tl_cvt *cv = &p->cv;
    int f16 = cv->sdt == TL_F16 && cv->ed == 1 && cv->fast && ss == 8;
    int bytes = cv->es == 1 && cv->ed == 1 && (cv->path == TL_EP_COPY || cv->path == TL_EP_INT || cv->lut8) &&
                ss >= 4 && ss <= 32;
    size_t out = f16 ? rs / 2 : rs;
    ps->x.px.lines = 0;
    /* 4-byte pixels without a table: one load is 16 whole pixels, and the
     * gather's one masked store a load measured faster in cache (kDLA_HWC4
     * i8 -> RGB u8, 256 KiB: 0.82 against 0.65x memcpy). Streamed, the line
     * gather reads several streams (kDLA_HWC4 i8 -> RGB u8, 6 images of
     * 3000 rows at 256 MiB, Xeon: 2500 wide 14.3 -> 18.2 GB/s, 2560 wide
     * 15.0 -> 22.7) */
    if (ss == 4 && !f16 && !cv->lut8 && !cv->stream) return;
    if (!(f16 || bytes) || out < 2 || out > 4) return;
    tl_px_lines_init(&ps->x.px.lt, (unsigned)ss, (unsigned)out, f16);
    ps->x.px.lines = f16 ? 2 : 1;
    ps->kernel_name = f16 ? "tl_f16_x8_gather_lines_ukernel__avx512vbmi" : "tl_x8_gather_lines_ukernel__avx512vbmi";
}

/* A spread of RGB u8 into pixels of 4 f16 halves (kDLA_HWC4 f16): the AVX2
 * kernel converts it in the register (F16C). rd: the run's destination bytes. */
static bool u8_f16_spread4(const tl_cvt *cv, const tl_pass *ps, size_t rd)
{
    return !ps->x.px.gather && cv->sdt == TL_U8 && cv->ddt == TL_F16 && cv->fast && ps->x.px.bytes == 8 &&
           !ps->head && rd == 3 * 2; /* 3 channels */
}
#endif

static void choose_vbmi(const tl_plan *p, tl_pass *ps, int64_t w, size_t rd, size_t h)
{
    ps->x.px.vbmi = 0;
    ps->x.px.lines = 0;
#if defined(__x86_64__) || defined(_M_X64)
    if (!tl_exec_vbmi(p)) return;
    if (w < 1 || w > 64 || (w & (w - 1)) || rd + h > (size_t)w) return;
    /* in cache the rows kernels that convert in the register (choose_shuffle)
     * are faster than the line gather (kDLA_HWC4 f16 -> RGB u8, 256 KiB, Zen 4:
     * VBMI's plain u8 codes 0.55-0.56, AVX2's 0.34-0.36, the line gather 0.31x
     * memcpy); streamed, the line gather's whole-line stores win. There the
     * memory is the bound: the line gather with the plain codes' integer
     * form (twice its in-cache rate) ran at the same 28-30 GB/s */
    if (f16_rgb_gather(&p->cv, ps, (size_t)w, rd) && !p->cv.stream) return;
    /* where two-source byte permutes take two cycles, the AVX2 kernel's F16C
     * conversion beats the VBMI one's table lookups in the L2 (RGB u8 ->
     * kDLA_HWC4 f16, 256 KiB, Xeon: 42-44 against 39-41 GB/s); beyond it
     * the VBMI kernel's whole-line stores win (the demo's 640 x 480, 3.3
     * MB: 17.9-18.9 against 16.5-17.5; 256 MiB streamed: 23.4 against 19.6) */
    const tl_machine *m = &p->machine;
    if (m->slow_permute2 && !p->cv.stream && tl_machine_in_l2(m, (uint64_t)p->src.size_bytes, (uint64_t)p->dst.size_bytes) &&
        u8_f16_spread4(&p->cv, ps, rd))
        return;
    if (ps->x.px.gather) choose_lines(p, ps, w, rd);
    /* a gather of 2 pixels a step stores 64 bytes to advance 2 runs: the
     * scalar word moves are faster there (kCHW32: 0.64 against 0.82x memcpy) */
    if (ps->x.px.gather && w > 16) return;
    ps->x.px.vbmi = 1;
    if (ps->x.px.gather) {
        tl_px_perm_gather(ps->x.px.perm, (unsigned)w, (unsigned)rd);
        if (!ps->x.px.lines) ps->kernel_name = "tl_x8_gather_ukernel__avx512vbmi";
        const tl_cvt *cv = &p->cv;
        if (!ps->x.px.lines && cv->path == TL_EP_INT && cv->es == 1 && cv->ed == 1) { /* u8 <-> i8 in the register */
            ps->x.px.vbmi = 2;
            ps->kernel_name = cv->sdt == TL_U8 ? "tl_u8_i8_gather_ukernel__avx512vbmi"
                                               : "tl_i8_u8_gather_ukernel__avx512vbmi";
            ps->row = NULL; /* no row conversion runs */
        }
    } else {
        ps->x.px.keep = tl_px_perm_spread(ps->x.px.perm, (unsigned)w, (unsigned)rd, (unsigned)h);
        ps->kernel_name = "tl_x8_spread_ukernel__avx512vbmi";
        /* a byte add (or none) straight from the source in the register: no
         * row conversion into a tile but for the last pixels (NHWC u8 ->
         * NC1HWC2 i8, zero point -128, 256 KiB, Xeon: 29 -> 44 GB/s, as
         * the AVX2 spread does; a table's two-source permutes cost two
         * cycles each there) */
        if (tl_cvt_byte_add(&p->cv, &ps->x.px.add8)) ps->x.px.vbmi = 4;
        if (p->cv.lut16 && p->cv.sdt == TL_U8 && p->cv.ddt == TL_F16) { /* by the plan's table in the register */
            ps->x.px.vbmi = 3;
            ps->kernel_name = "tl_u8_f16_spread_ukernel__avx512vbmi";
            ps->row = NULL;
        }
    }
#else
    (void)p, (void)ps, (void)w, (void)rd, (void)h;
#endif
}

/* AVX2 (where no VBMI kernel took the pass) and NEON (spreads): the pixels
 * moved by one byte shuffle per 32 or 16 bytes where they fit its lanes
 * (move/avx2.c, move/neon.c), through the same tile and row conversion as
 * the scalar moves. ss, rs: the gather's source pixel stride and run; a
 * spread's run is rs. */
static void choose_shuffle(const tl_plan *p, tl_pass *ps, size_t ss, size_t rs, const uint8_t *mask)
{
    ps->x.px.shuffle = 0;
#if defined(__x86_64__) || defined(_M_X64)
    const tl_cvt *cv = &p->cv;
    if (ps->x.px.vbmi || ps->x.px.lines || !tl_isa_includes(p->isa, TL_ISA_AVX2)) return;
    if (ps->x.px.gather ? !tl_gather_fits__avx2(ss, rs) : !tl_spread_fits16(ps->x.px.bytes, mask)) return;
    ps->x.px.shuffle = 1;
    ps->kernel_name = ps->x.px.gather ? "tl_gather_ukernel__avx2" : "tl_spread_ukernel__avx2";
    if (ps->x.px.gather) tl_gather_ctl__avx2(ps->x.px.perm, ss, rs); /* the shuffle's control, once */
    else tl_spread_ctl16(ps->x.px.perm, ps->x.px.bytes, rs, mask);
    if (ps->x.px.gather && cv->path == TL_EP_INT && cv->es == 1 && cv->ed == 1) { /* u8 <-> i8 in the register */
        ps->x.px.shuffle = 2;
        ps->row = NULL; /* no row conversion runs */
    }
    /* pixels of 4 f16 halves -> RGB u8 or i8, converted in the register */
    if (f16_rgb_gather(cv, ps, ss, rs)) {
        ps->x.px.shuffle = 4;
        ps->kernel_name = f16_gather_name(p);
        ps->row = NULL;
    }
    /* a spread whose conversion is a byte add (or none): straight from the
     * source with the add in the register, the L1 tile and the convert row
     * only for the last pixels (NHWC u8 -> NC1HWC2 i8, zero point -128) */
    uint8_t add;
    if (!ps->x.px.gather && !ps->head && tl_cvt_byte_add(cv, &add)) {
        ps->x.px.shuffle = 5;
        ps->x.px.add8 = add;
    }
    /* RGB u8 -> pixels of 4 f16 halves (kDLA_HWC4 f16), converted in the register */
    if (u8_f16_spread4(cv, ps, rs)) {
        ps->x.px.shuffle = 3;
        ps->kernel_name = "tl_u8_f16_spread4_ukernel__avx2";
        ps->row = NULL;
    }
#elif defined(__ARM_NEON)
    if (!tl_isa_includes(p->isa, TL_ISA_NEON)) return;
    const tl_cvt *cv = &p->cv;
    /* kDLA_HWC4 f16 <-> RGB, converted in the register (vld3/vst4, vld4/vst3) */
    const bool f16_in_register = tl_exec_neon_f16(p);
#if defined(__aarch64__)
    ps->x.px.fp16arith = tl_cpu_runs(TL_ISA_NEON, TL_FEAT_F16) != 0; /* the CPU has ARMv8.2's FP16 arithmetic */
#endif
    if (f16_in_register && f16_rgb_gather(cv, ps, ss, rs)) {
        ps->x.px.shuffle = 4;
        ps->kernel_name = arm_f16_kernels(ps).gather_name;
        ps->row = NULL;
        return;
    }
    if (f16_in_register && !ps->x.px.gather && cv->sdt == TL_U8 && cv->ddt == TL_F16 && cv->fast &&
        ps->x.px.bytes == 8 && !ps->head && rs == 3 * 2) {
        ps->x.px.shuffle = 3;
        ps->kernel_name = arm_f16_kernels(ps).spread_name;
        ps->row = NULL;
        return;
    }
    if (ps->x.px.gather || !tl_spread_fits16(ps->x.px.bytes, mask)) return;
    ps->x.px.shuffle = 1;
    ps->kernel_name = "tl_spread_ukernel__neon";
    tl_spread_ctl16(ps->x.px.perm, ps->x.px.bytes, rs, mask);
#else
    (void)p, (void)ps, (void)ss, (void)rs, (void)mask;
#endif
}

/* NEON: 3-byte pixels <-> pixels of 4 to 32 bytes holding them first (an
 * RGB image into RKNN NC1HWC2, kCHW32, kDLA_HWC4 8-bit, and back) by
 * structure loads and stores straight into the destination, the byte map
 * in the registers: no tile, no row conversion. neon3: 1 + the kernels'
 * map (move.h), 0 where the conversion is none of them. */
static void choose_neon(const tl_plan *p, tl_pass *ps, int64_t w, size_t run)
{
    ps->x.px.neon3 = 0;
#if defined(__ARM_NEON) && !defined(__x86_64__)
    const tl_cvt *cv = &p->cv;
    if (cv->es != 1 || cv->ed != 1 || run != 3 || ps->head || !(w == 4 || w == 8 || w == 16 || w == 32) ||
        !tl_isa_includes(p->isa, TL_ISA_NEON))
        return;
    int map = tl_map8_of(cv);
    if (map < 0) return;
    ps->x.px.neon3 = (uint8_t)(1 + map);
    ps->x.px.shuffle = 0;
    ps->kernel_name = ps->x.px.gather ? "tl_x8_gather3_ukernel__neon" : "tl_x8_spread3_ukernel__neon";
    ps->row = NULL;
#else
    (void)p, (void)ps, (void)w, (void)run;
#endif
}

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    if (!tl_exec_kernels_apply(p) || !tl_exec_inner_contiguous(p, ps)) return false;
    if (ps->nnodes < 2 || !(cv->path == TL_EP_COPY || ps->row)) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = &ps->nodes[ps->nnodes - 2];
    int64_t k = in->count, lanes = ps->head + k + ps->tail;
    if (k < 1 || out->count < 2) return false;
    if (out->ss == k * cv->es && out->ds == lanes * cv->ed && px_move(out->ds) == (unsigned)out->ds &&
        (ps->head || ps->tail || out->ds > k * cv->ed)) {
        ps->x.px.bytes = (uint8_t)out->ds;
        ps->x.px.gather = 0;
        ps->x.px.neon3 = 0;
        choose_vbmi(p, ps, out->ds, (size_t)k * cv->ed, (size_t)ps->head * cv->ed);
        uint8_t mask[64] = {0};
        memset(mask + ps->head * cv->ed, 0xFF, (size_t)k * cv->ed);
        choose_shuffle(p, ps, 0, (size_t)k * cv->ed, mask);
        choose_neon(p, ps, out->ds, (size_t)k * cv->ed);
        return true;
    }
    if (!ps->head && !ps->tail && out->ds == k * cv->ed && out->ss > k * cv->es && px_move(k * cv->es) &&
        (int64_t)px_move(k * cv->es) <= out->ss) {
        ps->x.px.bytes = (uint8_t)px_move(k * cv->es);
        ps->x.px.gather = 1;
        choose_vbmi(p, ps, out->ss, (size_t)k * cv->es, 0);
        choose_shuffle(p, ps, (size_t)out->ss, (size_t)k * cv->es, NULL);
        choose_neon(p, ps, out->ss, (size_t)k * cv->es);
        return true;
    }
    return false;
}

static void spread_px(unsigned w, const uint8_t *t, size_t rd, uint8_t *d, ptrdiff_t ds, size_t m,
                      const uint8_t *mask)
{
    switch (w) {
    case 4: tl_spread4_ukernel__scalar(t, rd, d, ds, m, mask); break;
    case 8: tl_spread8_ukernel__scalar(t, rd, d, ds, m, mask); break;
    case 16: tl_spread16_ukernel__scalar(t, rd, d, ds, m, mask); break;
    case 32: tl_spread32_ukernel__scalar(t, rd, d, ds, m, mask); break;
    default: tl_spread64_ukernel__scalar(t, rd, d, ds, m, mask); break;
    }
}

static void gather_px(unsigned w, const uint8_t *s, ptrdiff_t ss, uint8_t *t, size_t rs, size_t m)
{
    switch (w) {
    case 4: tl_gather4_ukernel__scalar(s, ss, t, rs, m); break;
    case 8: tl_gather8_ukernel__scalar(s, ss, t, rs, m); break;
    case 16: tl_gather16_ukernel__scalar(s, ss, t, rs, m); break;
    case 32: tl_gather32_ukernel__scalar(s, ss, t, rs, m); break;
    default: tl_gather64_ukernel__scalar(s, ss, t, rs, m); break;
    }
}

/* Dense source pixels of k elements -> destination pixels of px_bytes at
 * stride out->ds: head zeros, the k converted elements, tail zeros. The
 * tile is read px_bytes at a time from `head` bytes before each pixel's
 * run, so it has a zeroed margin of 64 bytes on both sides. */
static void run_spread(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    _Alignas(64) uint8_t buf[64 + TL_TILE_BYTES + 64], mask[64];
    uint8_t *t = buf + 64;
    _Alignas(TL_STAGE_ALIGN) uint8_t out_tile[TL_TILE_BYTES]; /* streaming plans */
    size_t k = (size_t)in->count, rd = k * cv->ed, h = (size_t)ps->head * cv->ed, n = (size_t)out->count;
    if (ps->x.px.vbmi != 3 && ps->x.px.shuffle != 3 && !ps->x.px.neon3) { /* the tile's and the mask's set-up (a call per image row: not for nothing) */
        memset(buf, 0, 64);
        memset(mask, 0, sizeof mask);
        memset(mask + h, 0xFF, rd);
    }
    /* the VBMI and AVX2 spreads stream whole steps themselves when the
     * destination starts on a line (no L1 tile and copy: NHWC u8 -> kCHW32
     * i8, 256 MiB, 23 -> 27 GB/s on AVX-512; NHWC u8 -> NC1HWC2 i8 on AVX2,
     * Zen 3, 13.4 -> 19-21 GB/s) */
#if defined(__x86_64__) || defined(_M_X64)
    int direct = cv->stream && (ps->x.px.vbmi || ps->x.px.shuffle) && (uintptr_t)d % 64 == 0;
#else
    int direct = 0; /* the NEON spread stores through the caches: staged */
#endif
    tl_stage st = tl_stage_of(p, d, cv->stream ? (size_t)out->ds : rd);
    if (direct) st.items = st.next = TL_TILE_BYTES / (size_t)out->ds; /* no staging */
    for (size_t b = 0, m; b < n; b += m) {
        m = tl_stage_step(&st, n - b);
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        uint8_t *to = direct ? db : tl_where_to(p, db, out_tile);
#if defined(__x86_64__) || defined(_M_X64)
        if (ps->x.px.shuffle == 3) { /* converts in the register: no tile */
            tl_u8_f16_spread4_ukernel__avx2(s + b * k, k, to, m, cv, direct);
            if (!direct) tl_flush(p, db, out_tile, m * (size_t)out->ds);
            continue;
        }
        if (ps->x.px.vbmi == 3) { /* converts in the register: no tile */
            tl_u8_f16_spread_ukernel__avx512vbmi(s + b * k, k, to, m, (size_t)out->ds, ps->x.px.perm, ps->x.px.keep,
                                                 p->cv.lut, p->cv.lut_hi, direct);
            if (!direct) tl_flush(p, db, out_tile, m * (size_t)out->ds);
            continue;
        }
#endif
#if defined(TL_ARM_F16_PX)
        if (ps->x.px.shuffle == 3) { /* converts in the register: no tile */
            arm_f16_kernels(ps).spread(s + b * k, to, &(tl_px_rows){m, 1, 0, 0, 0}, cv);
            tl_flush(p, db, out_tile, m * (size_t)out->ds);
            continue;
        }
#endif
#if defined(__ARM_NEON) && !defined(__x86_64__)
        if (ps->x.px.neon3) { /* maps in the register: no tile */
            tl_x8_spread3_ukernel__neon(s + b * k, to, m, (size_t)out->ds, cv, ps->x.px.neon3 - 1);
            tl_flush(p, db, out_tile, m * (size_t)out->ds);
            continue;
        }
#endif
        size_t fast = 0; /* pixels spread straight from the source */
#if defined(__x86_64__) || defined(_M_X64)
        if (ps->x.px.vbmi == 4) { /* a byte add (or a move) in the register: no tile but at the end */
            fast = tl_x8_spread_direct__avx512vbmi(rd, (size_t)out->ds, m, (n - b) * rd);
            tl_x8_spread_ukernel__avx512vbmi(s + b * k, rd, to, fast, (size_t)out->ds, ps->x.px.perm, ps->x.px.keep,
                                             direct, ps->x.px.add8);
        } else if (ps->x.px.shuffle == 5) { /* a byte add (or a move) in the register: no tile but at the end */
            fast = tl_spread_direct__avx2(rd, ps->x.px.bytes, m, (n - b) * rd);
            tl_spread_ukernel__avx2(s + b * k, rd, to, fast, ps->x.px.bytes, mask, ps->x.px.perm, direct, ps->x.px.add8);
        }
#endif
        uint8_t *tb = to + fast * (size_t)out->ds;
        size_t mb = m - fast;
        if (mb) {
            tl_row_plain(p, ps, s + (b + fast) * k * cv->es, t, mb * k);
            memset(t + mb * rd, 0, 64);
        }
#if defined(__x86_64__) || defined(_M_X64)
        if (!mb)
            ;
        else if (ps->x.px.vbmi)
            tl_x8_spread_ukernel__avx512vbmi(t, rd, tb, mb, (size_t)out->ds, ps->x.px.perm, ps->x.px.keep, direct, 0);
        else if (ps->x.px.shuffle)
            tl_spread_ukernel__avx2(t - h, rd, tb, mb, ps->x.px.bytes, mask, ps->x.px.perm, direct, 0);
        else
#elif defined(__ARM_NEON)
        if (ps->x.px.shuffle)
            tl_spread_ukernel__neon(t - h, rd, tb, mb, ps->x.px.bytes, mask, ps->x.px.perm);
        else
#endif
            spread_px(ps->x.px.bytes, t - h, rd, tb, out->ds, mb, mask);
        if (!direct) tl_flush(p, db, out_tile, m * (size_t)out->ds);
    }
}

/* The gather that saturates u8 <-> i8 in the register (VBMI or AVX2). */
static bool saturating(const tl_pass *ps)
{
#if defined(__x86_64__) || defined(_M_X64)
    return ps->x.px.vbmi == 2 || ps->x.px.shuffle == 2;
#else
    (void)ps;
    return false;
#endif
}

#if defined(__x86_64__) || defined(_M_X64)
/* m pixels gathered, saturated u8 <-> i8 in the register, exactly m * rs
 * bytes written: the VBMI kernel or the AVX2 one. */
static void gather_saturating(const tl_plan *p, const tl_pass *ps, const uint8_t *s, size_t ss, uint8_t *t, size_t rs,
                              size_t m)
{
    int to_i8 = p->cv.sdt == TL_U8;
    if (ps->x.px.vbmi == 2) {
        if (to_i8) tl_u8_i8_gather_ukernel__avx512vbmi(s, ss, t, rs, m, ps->x.px.perm);
        else tl_i8_u8_gather_ukernel__avx512vbmi(s, ss, t, rs, m, ps->x.px.perm);
    } else {
        tl_gather_ukernel__avx2(s, ss, t, rs, m, ps->x.px.perm, tl_map8_of(&p->cv)); /* the saturation */
    }
}

/* The gather that saturates u8 <-> i8 in the register, straight into the
 * destination (through an L1 tile in a streaming plan). */
static void run_gather_saturating(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                                  const tl_node *in, const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    size_t rs = (size_t)in->count, ss = (size_t)out->ss, n = (size_t)out->count;
    if (!cv->stream) {
        gather_saturating(p, ps, s, ss, d, rs, n);
        return;
    }
    _Alignas(TL_STAGE_ALIGN) uint8_t t[TL_TILE_BYTES];
    tl_stage st = tl_stage_of(p, d, rs);
    for (size_t b = 0, m; b < n; b += m) {
        m = tl_stage_step(&st, n - b);
        gather_saturating(p, ps, s + b * ss, ss, t, rs, m);
        tl_flush(p, d + b * rs, t, m * rs);
    }
}
#endif

#if defined(__x86_64__) || defined(_M_X64)
/* Pixels of 4 f16 halves -> RGB codes converted in the register:
 * straight into the destination, or through an L1 tile streamed out. */
static void run_gather_f16(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                           const tl_node *out)
{
    (void)ps;
    size_t rd = (size_t)in->count, n = (size_t)out->count;
    if (!p->cv.stream) {
        f16_gather_rows(p, s, d, &(tl_px_rows){n, 1, 0, 0, 0});
        return;
    }
    _Alignas(TL_STAGE_ALIGN) uint8_t t[TL_TILE_BYTES];
    tl_stage st = tl_stage_of(p, d, rd);
    for (size_t b = 0, m; b < n; b += m) {
        m = tl_stage_step(&st, n - b);
        f16_gather_rows(p, s + b * (size_t)out->ss, t, &(tl_px_rows){m, 1, 0, 0, 0});
        tl_flush(p, d + b * rd, t, m * rd);
    }
}
#endif

/* Source pixels at stride out->ss -> a dense destination: runs gathered
 * into the tile px_bytes at a time (within the pixel's stride), the last
 * pixel exactly (its stride may end past the buffer), then one row step. */
static void run_gather(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    _Alignas(64) uint8_t t[TL_TILE_BYTES + 64];
    size_t k = (size_t)in->count, rs = k * cv->es, n = (size_t)out->count;
    size_t chunk = TL_TILE_BYTES / (rs > k * cv->ed ? rs : k * cv->ed); /* (the last step may stream) */
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        const uint8_t *sb = s + (ptrdiff_t)b * out->ss;
        size_t fast = b + m == n ? m - 1 : m;
#if defined(__x86_64__) || defined(_M_X64)
        if (ps->x.px.vbmi)
            tl_x8_gather_ukernel__avx512vbmi(sb, (size_t)out->ss, t, rs, fast, ps->x.px.perm);
        else if (ps->x.px.shuffle)
            tl_gather_ukernel__avx2(sb, (size_t)out->ss, t, rs, fast, ps->x.px.perm, TL_MAP8_MOVE);
        else
#endif
            gather_px(ps->x.px.bytes, sb, out->ss, t, rs, fast);
        if (fast < m) memcpy(t + fast * rs, sb + (ptrdiff_t)fast * out->ss, rs);
        tl_copy_or_convert_row(p, ps, t, d + b * k * cv->ed, m * k);
    }
}

#if defined(__x86_64__) || defined(_M_X64)
/* The line gather: the rows g by one kernel call, straight into the
 * destination, whole lines streamed in a streaming plan, where the
 * gathers, which read most of what they move (a pixel of 8 to 32 bytes
 * for 3), read the policy's read_streams bands of rows (or slices of a
 * row) in turn. */
static void run_gather_lines(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                             const tl_node *out, const tl_px_rows *g)
{
    const tl_cvt *cv = &p->cv;
    size_t rd = (size_t)in->count * cv->ed, ss = (size_t)out->ss;
    size_t slices = cv->stream ? p->machine.read_streams : 1;
    if (ps->x.px.lines == 2) tl_f16_x8_gather_lines_ukernel__avx512vbmi(s, d, rd, g, &ps->x.px.lt, cv, cv->stream, slices);
    else
        tl_x8_gather_lines_ukernel__avx512vbmi(s, ss, d, rd, g, &ps->x.px.lt, cv->lut8 ? cv->lut : NULL,
                                               cv->path != TL_EP_INT ? 0 : cv->ddt == TL_I8 ? 1 : 2, cv->stream, slices);
}
#endif

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
#if defined(TL_ARM_F16_PX)
    if (ps->x.px.shuffle == 4) {
        arm_f16_kernels(ps).gather(s, d, &(tl_px_rows){(size_t)out->count, 1, 0, 0, 0}, &p->cv);
        return;
    }
#endif
#if defined(__ARM_NEON) && !defined(__x86_64__)
    if (ps->x.px.neon3 && ps->x.px.gather) {
        tl_x8_gather3_ukernel__neon(s, (size_t)out->ss, d, (size_t)out->count, &p->cv, ps->x.px.neon3 - 1);
        return;
    }
#endif
#if defined(__x86_64__) || defined(_M_X64)
    if (ps->x.px.lines) {
        run_gather_lines(p, ps, s, d, in, out, &(tl_px_rows){(size_t)out->count, 1, 0, 0, 0});
        return;
    }
    if (saturating(ps)) {
        run_gather_saturating(p, ps, s, d, in, out);
        return;
    }
    if (ps->x.px.shuffle == 4) {
        run_gather_f16(p, ps, s, d, in, out);
        return;
    }
#endif
    if (ps->x.px.gather) run_gather(p, ps, s, d, in, out);
    else run_spread(p, ps, s, d, in, out);
}

const tl_executor tl_exec_pixels = {"pixels", 2, applicable, run, false, &tl_exec_pixels_rows};

/* pixels rows: the u8 -> f16 spread (AVX-512 VBMI, AVX2) of an image's rows in
 * one call, the node above the pixels being the rows, and the row padding
 * after each row's pixels (ps->gap, taken from the fill pass by select.c)
 * zeroed by the stores that end the row. NHWC u8 -> kDLA_HWC4 f16 at
 * 209 x 209 (Zen 5) spent half its time in a call per row and the fill
 * pass of the rows' ends. */
static bool applicable_rows(const tl_plan *p, tl_pass *ps)
{
    tl_pass was = *ps;
    if (ps->nnodes >= 3 && applicable(p, ps) &&
        (ps->x.px.lines || ps->x.px.vbmi == 3 || ps->x.px.shuffle == 3 || (ps->x.px.shuffle == 4 && !p->cv.stream) ||
         (saturating(ps) && !p->cv.stream))) {
        /* the kernel applicable() named (the line gathers take rows), or VBMI's rows form */
#if defined(TL_ROWS_NAME) /* (on Arm applicable() named the rows kernels) */
        if (ps->x.px.vbmi == 3) ps->kernel_name = "tl_u8_f16_spread_rows_ukernel__avx512vbmi";
        else if (ps->x.px.shuffle == 3) ps->kernel_name = TL_ROWS_NAME("tl_u8_f16_spread4_rows_ukernel__");
        else if (ps->x.px.shuffle == 4) ps->kernel_name = f16_gather_name(p);
#endif
        return true;
    }
    *ps = was;
    return false;
}

static void run_rows(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                     const tl_node *out)
{
    tl_px_rows g;
    const bool any = ps->x.px.lines || saturating(ps),
               kernel = ps->x.px.vbmi == 3 || ps->x.px.shuffle == 3 || ps->x.px.shuffle == 4;
    if (!tl_rows_geometry(p, ps, s, d, in, out, run, any ? TL_ROWS_ANY : kernel ? TL_ROWS_ON_LINES : TL_ROWS_NONE, &g))
        return;
#if defined(TL_ARM_F16_PX)
    const arm_f16_px k = arm_f16_kernels(ps);
    if (ps->x.px.shuffle == 4) k.gather(s, d, &g, &p->cv);
    else k.spread(s, d, &g, &p->cv);
    return;
#endif
#if defined(__x86_64__) || defined(_M_X64)
    if (ps->x.px.lines) {
        run_gather_lines(p, ps, s, d, in, out, &g);
        return;
    }
    if (saturating(ps)) { /* in cache: each row straight into the destination */
        for (size_t r = 0; r < g.rows; r++) {
            uint8_t *row = d + (ptrdiff_t)r * g.ds;
            gather_saturating(p, ps, s + (ptrdiff_t)r * g.ss, (size_t)out->ss, row, (size_t)in->count, g.n);
            tl_zero_bytes(row + g.n * (size_t)in->count, g.gap);
        }
        return;
    }
    if (ps->x.px.shuffle == 4) {
        f16_gather_rows(p, s, d, &g);
        return;
    }
    if (ps->x.px.shuffle == 3) {
        tl_u8_f16_spread4_rows_ukernel__avx2(s, (size_t)in->count, d, &g, &p->cv, tl_exec_streams_rows(p));
        return;
    }
    tl_u8_f16_spread_rows_ukernel__avx512vbmi(s, (size_t)in->count, d, &g, (size_t)out->ds, ps->x.px.perm, ps->x.px.keep,
                                              p->cv.lut, p->cv.lut_hi, tl_exec_streams_rows(p));
#endif
}

const tl_executor tl_exec_pixels_rows = {"pixels rows", 3, applicable_rows, run_rows, true, NULL};
