/* The kernel interface: what the engine hands the innermost loop of a plan.
 *
 * Kernels never see descriptors (docs/engine.md): only pointers, counts, byte
 * strides and a precomputed conversion (tl_cvt). Families, one folder each:
 *   convert/     contiguous row: copy, dtype conversion, (de)quantization
 *   transpose/   2-D tiled transpose of 1-, 2-, 4- and 8-byte elements
 *   interleave/  C = 2, 3, 4 interleave (planes -> packed, zero lanes allowed),
 *                de-interleave, and channel re-packing (RGB -> RGB0)
 *   block/       block pack/unpack for V = 4, 8, 16, 32 (NCHW <-> NCHWxc)
 *   fill/        padding fill (zero), with streaming stores for big buffers
 * Each family lists its kernels once in <family>/<family>.inc (an X-macro);
 * that list yields the prototypes and the registry, scalar last. Every ISA
 * file guards its body, so a kernel is listed only where it was compiled.
 * Kernels include only this header, their family's headers and the numerics
 * leaf (src/LAYERS): what a kernel needs to know (streaming, the CPU) it is
 * told by the engine. Not installed. */
#ifndef TL_KERNELS_H
#define TL_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "numerics/elem.h"

/* Small loops over register arrays, fully unrolled so that the indices are
 * constants and the arrays stay in registers. */
#if defined(__clang__)
#define TL_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define TL_UNROLL _Pragma("GCC unroll 16")
#else
#define TL_UNROLL
#endif

/* Hides a pointer's value from the optimiser. A register block reads (or
 * writes) rows at p, p + stride, ...: left alone, GCC precomputes every row
 * address of the block once per loop, keeps them on the stack and reloads
 * one per access (the AVX-512 byte blocks: 150 scalar uops per KiB; the
 * AVX2 32x16 byte transpose: 40 -> 78 GB/s in L1, Zen 3, with the block's
 * row pointer made opaque once per 4 rows). */
#if defined(__GNUC__)
#define TL_OPAQUE(p) __asm__("" : "+r"(p))
#else
#define TL_OPAQUE(p) ((void)0)
#endif

/* n bytes from p into L2 (a hint: nothing is read or faulted). */
/* Prefetches per store that bring a streamed block's next `lines` source
 * lines into the L2 while its `stores` lines go out: 1 or 2 where they
 * divide evenly, else 0 (none: the source holds more than the kernel
 * reads). The shifted transposes into planes off lines (x86_bytes512.h,
 * x86_strips512.h). */
static inline size_t tl_fetches_per_store(size_t lines, size_t stores)
{
    return stores && lines % stores == 0 && lines <= 2 * stores ? lines / stores : 0;
}

static inline void tl_prefetch_l2(const uint8_t *p, size_t n)
{
#if defined(__GNUC__)
    for (size_t k = 0; k < n; k += 64) {
        __builtin_prefetch(p + k, 0, 2);
        __asm__ volatile(""); /* GCC deletes a loop of nothing but prefetches whose trip count
                                 is not a constant (the line gathers lost theirs that way) */
    }
#else
    (void)p, (void)n;
#endif
}

/* Streaming loops read a page ahead: of a step's n bytes at s, with `left`
 * bytes from s to the end of what the loop reads, those a page on
 * (TL_AHEAD_BYTES) are asked into L2. Left to the hardware, on the Xeon of
 * docs/engine.md §3 the streamed row conversions, the 3-channel byte
 * de-interleaves and the 8-bit line gathers read and worked by turns
 * (docs/performance.md has the figures). */
enum { TL_AHEAD_BYTES = 4096 };
static inline void tl_prefetch_ahead(const uint8_t *s, size_t n, size_t left)
{
    if (left <= TL_AHEAD_BYTES) return;
    tl_prefetch_l2(s + TL_AHEAD_BYTES, n < left - TL_AHEAD_BYTES ? n : left - TL_AHEAD_BYTES);
}

/* The 16x16 byte network (per 128-bit lane) in two halves that each need
 * few registers, for 128- and 256-bit vectors V and their unpacks (lo8 ..
 * hi64); the x86 transposes and the conversions that transpose a channel
 * block in their registers use it. TL_X8_ROWS4 takes 4 rows a[0..3]
 * through the 8- and 16-bit unpacks (y[k]: columns 4k..4k+3 of the 4 rows,
 * a dword per column; y may be a: every read comes before the first
 * write); TL_X8_COLS4 takes y[0..3][k] of the 4 groups of rows through the
 * 32- and 64-bit ones (o[j]: column 4k + j, all 16 rows). Going stage by
 * stage over all 16 rows instead needed more registers than there are: the
 * AVX2 32x16 block ran at 40 GB/s in L1 on Zen 3 that way, 78 GB/s this
 * way (with TL_OPAQUE). */
#define TL_X8_ROWS4(V, a, y, lo8, hi8, lo16, hi16)                                                 \
    do {                                                                                        \
        V x0_ = lo8(a[0], a[1]), x1_ = hi8(a[0], a[1]);                          \
        V x2_ = lo8(a[2], a[3]), x3_ = hi8(a[2], a[3]);                          \
        y[0] = lo16(x0_, x2_), y[1] = hi16(x0_, x2_), y[2] = lo16(x1_, x3_), y[3] = hi16(x1_, x3_); \
    } while (0)
#define TL_X8_COLS4(V, y, k, o, lo32, hi32, lo64, hi64)                                            \
    do {                                                                                        \
        V z0_ = lo32(y[0][k], y[1][k]), z1_ = hi32(y[0][k], y[1][k]);            \
        V z2_ = lo32(y[2][k], y[3][k]), z3_ = hi32(y[2][k], y[3][k]);            \
        o[0] = lo64(z0_, z2_), o[1] = hi64(z0_, z2_), o[2] = lo64(z1_, z3_), o[3] = hi64(z1_, z3_); \
    } while (0)

/* A 64-byte register to d (AVX-512 kernels): non-temporal when nt (d on a
 * 64-byte line; the caller fences), else a plain store. A macro: it takes
 * the including function's target attributes. */
#define tl_store_line(d, v, nt)                                                                   \
    do {                                                                                          \
        if (nt) _mm512_stream_si512((void *)(d), (v));                                            \
        else _mm512_storeu_si512((void *)(d), (v));                                               \
    } while (0)

/* ---- instruction sets -------------------------------------------------- */
typedef enum tl_isa {
    TL_ISA_SCALAR = 0,
    TL_ISA_SSE2 = 1,
    TL_ISA_AVX2 = 2,   /* AVX2 + F16C */
    TL_ISA_AVX512 = 3, /* AVX-512 F + BW (+ F16C) */
    TL_ISA_NEON = 4,
    TL_ISA_COUNT
} tl_isa;

/* Features a kernel needs beyond its path's ISA (bits). A row of a kernel
 * list that needs one is skipped on a CPU without it. */
enum {
    TL_FEAT_VBMI = 1, /* AVX-512 VBMI (vpermb, vpermi2b) */
    TL_FEAT_F16 = 2   /* f16 beyond the baseline: Armv7's VFPv4 FPU, whose vcvt converts f16
                         (HWCAP_VFPv4); AArch64's ARMv8.2 FP16 arithmetic (HWCAP_ASIMDHP) */
};

/* x86 paths nest (an AVX2 machine can run SSE2 kernels); NEON stands alone. */
static inline int tl_isa_includes(int have, int want)
{
    if (want == TL_ISA_SCALAR || want == have) return 1;
    if (have == TL_ISA_NEON || want == TL_ISA_NEON) return 0;
    return want <= have;
}

/* ---- the conversion, decided once per plan ------------------------------ */
/* The f32 pipeline of the element rule (elem.c) for the fast dtypes u8 i8 i16
 * f16 bf16 f32: source raw -> f32 "real" -> destination raw. Every kernel
 * does exactly these f32 operations in this order (no FMA contraction). */
typedef struct tl_cvt {
    tl_elem_op op;      /* the rule itself: scalar fallbacks call tl_elem_convert_raw */
    uint8_t path;       /* tl_elem_path */
    uint8_t sdt, ddt;   /* tl_dtype */
    uint8_t es, ed;     /* element bytes (0 for 4-bit) */
    uint8_t fast;       /* both dtypes in the f32 pipeline set and parameters in range */
    uint8_t stream;     /* destination larger than the cache: non-temporal stores allowed */
    /* source stage (a quantized integer source; floats and plain ints: none) */
    uint8_t s_q;        /* tl_qkind */
    int32_t s_zp;
    float s_scale;      /* AFFINE: (float)(c - zp) * scale, INV: / scale */
    float s_m1, s_m2;   /* DFP: ((float)c * m1) * m2 (ldexpf split; m2 = 1 unless split) */
    /* destination stage */
    uint8_t d_q;        /* tl_qkind of the destination (NONE for floats) */
    uint8_t round;      /* tl_round used when the destination is an integer */
    float d_scale;      /* AFFINE and INV: (x * d_scale) + zpf, no FMA; for AFFINE
                           this holds 1.0f / scale (the element rule, elem.h) */
    float d_zpf;        /* (float)zp */
    float d_m1;         /* DFP: x * m1 */
    float d_mul, d_add; /* every kind as one step: (x * d_mul) + d_add, no FMA, for
                           an integer destination: AFFINE 1/scale and zpf, INV scale
                           and zpf, DFP m1 and 0, NONE 1 and 0 (exact: a NaN product
                           must become +0 before the add, see x86_body.h) */
    float lo, hi;       /* integer destination range (clamp before rounding) */
    int32_t nan_code;   /* NaN -> this code (saturated zp, or 0) */
    /* 8-bit code -> 8-bit code through a quantization (TIDL, RKNN, TensorRT
     * int8 images): the rule has 256 answers, computed once by elem.c */
    uint8_t lut8;       /* lut[] is valid (both dtypes 8-bit, not a raw copy) */
    uint8_t lut16;      /* lut[] and lut_hi[] are valid: an 8-bit source into a
                           16-bit destination (f16, bf16, or i16 not on the integer
                           path), the rule's 256 answers as low and high bytes */
    uint8_t affine8;    /* and it is an affine map in 16-bit fixed point, saturated
                           to the destination range: with t = v * affine8_mul +
                           affine8_add (v the source code), q = (t + affine8_bias +
                           ((t >> affine8_shift) & affine8_odd)) >> affine8_shift
                           (arithmetic shifts: bias 2^(shift-1) - 1 and odd 1 round
                           half to even, bias 2^(shift-1) half up, 0 down). RKNN's
                           zp -128: v - 128; TIDL's scale 0.5: v / 2 rounded, or
                           2v. Checked at plan time against all 256 answers
                           (engine/cvt.c) */
    uint8_t affine8_shift, affine8_odd;
    int16_t affine8_mul, affine8_add, affine8_bias;
    uint8_t lut[256];   /* lut[source byte] = destination byte (lut16: its low byte) */
    uint8_t lut_hi[256]; /* lut16: the answer's high byte */
} tl_cvt;

/* A kernel's local copy of the conversion's constants, not its tables
 * (copying the 256-byte table per row was a tenth of a TIDL row's time).
 * Stores through the destination cannot alias a local, so the constants and
 * the mode tests are loaded once instead of after every store. */
static inline void tl_cvt_constants(tl_cvt *local, const tl_cvt *cv)
{
    memcpy(local, cv, offsetof(tl_cvt, lut));
}

/* Plain u8 codes: an unquantized u8 destination (x * 1 + 0) rounded to
 * nearest even or toward zero, a NaN to 0 (engine/cvt.c gives an addend of
 * 0 the NaN code 0; asked here all the same). The x86 steps for it drop the
 * multiply and the add (convert/x86_body.h), and f16 -> u8 has an integer
 * form for its nearest-even case (convert/avx512.c). */
static inline int tl_cvt_plain_u8(const tl_cvt *cv)
{
    return cv->ddt == TL_U8 && cv->d_mul == 1.0f && cv->d_add == 0.0f && cv->nan_code == 0 &&
           cv->round != TL_ROUND_AWAY;
}
/* ... rounded to nearest even: the rule of the integer f16 -> u8 steps
 * (convert/avx512.c f16_u8_sums, convert/neon_body.h on Armv7) */
static inline int tl_cvt_plain_u8_even(const tl_cvt *cv)
{
    return tl_cvt_plain_u8(cv) && cv->round == TL_ROUND_EVEN;
}

/* ---- an 8-bit conversion as a byte map ----------------------------------- */
/* What a conversion between 8-bit codes does to each byte, as the byte
 * kernels compile it: one constant per case, so their loops carry no tests.
 * A code is TL_MAP8(op, s_signed, d_signed): MOVE (no conversion), SAT (u8
 * <-> i8 of identity quantizations: a byte minimum or maximum) and the
 * affine map (tl_cvt affine8) by what it needs. Some affine maps stay in
 * bytes: ADD a multiplier 1 without shift or clamping (RKNN's zero point
 * -128), HALVE_DOWN / HALVE_UP v / 2 rounded down (TIDL's scale 0.5 into
 * i8, which truncates) or half up, DOUBLE 2v saturated (TIDL's way back);
 * WIDE is any affine map, widened to 16 bits (exact for the others too, so
 * a kernel may run an op it does not instantiate as WIDE). MOVE and ADD
 * are normalised to s = d = 0. */
enum { TL_MAP8_MOVE, TL_MAP8_SAT, TL_MAP8_ADD, TL_MAP8_HALVE_DOWN, TL_MAP8_HALVE_UP, TL_MAP8_DOUBLE, TL_MAP8_WIDE };
#define TL_MAP8(op, s, d) ((op) * 4 + (s) + 2 * (d))
#define TL_MAP8_OP(m) ((m) >> 2)
#define TL_MAP8_S(m) ((m) & 1)
#define TL_MAP8_D(m) (((m) >> 1) & 1)

/* the affine map's add, with the bias folded in where there is no kept bit
 * (the rounding is then the shift alone; the plan keeps it inside 16 bits) */
static inline int tl_map8_add(const tl_cvt *cv)
{
    return cv->affine8_add + (cv->affine8_odd ? 0 : cv->affine8_bias);
}

/* cv's byte map, or -1 where it is none (not 8-bit to 8-bit, or a table
 * that is no affine map) */
static inline int tl_map8_of(const tl_cvt *cv)
{
    if (cv->es != 1 || cv->ed != 1) return -1;
    if (cv->path == TL_EP_COPY) return TL_MAP8_MOVE;
    const int s = cv->sdt == TL_I8, d = cv->ddt == TL_I8;
    if (cv->path == TL_EP_INT) return TL_MAP8(TL_MAP8_SAT, s, d); /* u8 <-> i8 (engine/cvt.c) */
    if (!cv->affine8) return -1;
    const int mul = cv->affine8_mul, sh = cv->affine8_shift, add = tl_map8_add(cv), odd = cv->affine8_odd != 0;
    const int lo = s ? -128 : 0, dlo = d ? -128 : 0;
    if (mul == 1 && sh == 0 && !odd && lo + add >= dlo && lo + 255 + add <= dlo + 255) return TL_MAP8(TL_MAP8_ADD, 0, 0);
    if (mul == 1 && sh == 1 && !odd && (add == 0 || add == 1))
        return TL_MAP8(add ? TL_MAP8_HALVE_UP : TL_MAP8_HALVE_DOWN, s, d);
    if (mul == 2 && sh == 0 && !odd && add == 0) return TL_MAP8(TL_MAP8_DOUBLE, s, d);
    return TL_MAP8(TL_MAP8_WIDE, s, d);
}

/* one code through the byte map m (the affine ones by the plan's table;
 * cv unused, and may be NULL, for a move or a saturation): the kernels'
 * scalar tails */
static inline uint8_t tl_map8_code(uint8_t x, const tl_cvt *cv, int m)
{
    switch (TL_MAP8_OP(m)) {
    case TL_MAP8_MOVE: return x;
    case TL_MAP8_SAT: return TL_MAP8_D(m) ? (x > 127 ? 127 : x) : (x > 127 ? 0 : x);
    default: return cv->lut[x];
    }
}

/* CALL(m) with m a constant, for each of the 20 codes tl_map8_of gives:
 * the kernels inline their loop once per map in one switch (names are not
 * pasted under src/kernels: .ci/stages/layers.sh) */
#define TL_MAP8_CASE(CALL, m)                                                                     \
    case m: CALL(m); break;
#define TL_MAP8_CASES4(CALL, op)                                                                  \
    TL_MAP8_CASE(CALL, TL_MAP8(op, 0, 0))                                                         \
    TL_MAP8_CASE(CALL, TL_MAP8(op, 1, 0))                                                         \
    TL_MAP8_CASE(CALL, TL_MAP8(op, 0, 1))                                                         \
    TL_MAP8_CASE(CALL, TL_MAP8(op, 1, 1))
#define TL_MAP8_SWITCH(m, CALL)                                                                   \
    switch (m) {                                                                                  \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_MOVE, 0, 0))                                           \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_SAT, 0, 1))                                            \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_SAT, 1, 0))                                            \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_ADD, 0, 0))                                            \
        TL_MAP8_CASES4(CALL, TL_MAP8_HALVE_DOWN)                                                  \
        TL_MAP8_CASES4(CALL, TL_MAP8_HALVE_UP)                                                    \
        TL_MAP8_CASES4(CALL, TL_MAP8_DOUBLE)                                                      \
        TL_MAP8_CASES4(CALL, TL_MAP8_WIDE)                                                        \
    default: break;                                                                               \
    }

/* ---- kernel signatures --------------------------------------------------- */
/* convert/: rows of n contiguous elements, src rows ss bytes apart, dst rows
 * ds bytes apart (one row: rows 1, strides unused); bytes between rows are
 * neither read nor written. With equal element sizes src may be dst (in
 * place, ss == ds): kernels read each block of elements before they write
 * the same block. A call sets its constants up once for all its rows. */
typedef void (*tl_row_fn)(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                          const tl_cvt *cv);
/* convert/, the 4-row form (the same signature; its own registry): `rows`
 * source rows (a multiple of 4) of n elements, ss bytes apart, into rows / 4
 * destination rows, ds bytes apart, of n groups of 4 converted elements:
 * element j of source row 4g + c lands at element c of group j of
 * destination row g. The groups of 8-bit codes are whole 4-byte words,
 * which a 32-bit transpose then moves as pixels' pieces (NCHW f32 planes
 * into NHWC 8-bit pixels: the codes never go through a byte transpose). */
/* transpose/ and block/: a pure move of elements of one size. src holds n0
 * rows (byte stride ss0) of n1 contiguous elements; dst holds n1 rows (byte
 * stride ds1) of n0 contiguous elements: dst[i1][i0] = src[i0][i1]. */
typedef void (*tl_t2d_fn)(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                          size_t n1, int stream);
/* `stream` (transpose, block and interleave kernels): the engine allows
 * non-temporal stores, because the call writes more than the cache holds
 * (the machine policy's stream_bytes); a kernel uses them only where its
 * stores are whole aligned lines, and fences before it returns. For the
 * tiled transposes (TL_T2D_ANY) it is a set of flags: TL_T2D_STREAM that
 * permission, TL_T2D_DST_ALIAS / TL_T2D_SRC_ALIAS the machine policy's
 * verdict that 16 destination / source rows at their stride put more lines
 * into one L1 set than it allows (tl_machine_rows_alias); the kernel then
 * orders its stores or loads to spread them over sets. */
enum {
    TL_T2D_STREAM = 1,
    TL_T2D_DST_ALIAS = 2,
    TL_T2D_SRC_ALIAS = 4,
    TL_T2D_SPLIT = 8,
    TL_T2D_NARROW512 = 64,
    TL_T2D_L2_ALIAS = 128
};
/* Bits TL_T2D_RUN_SHIFT.. (the tiled transposes, with TL_T2D_STREAM): log2
 * of the lines per destination row a streaming transpose writes in a run
 * when its rows are far apart (tl_machine.stream_run_lines); 0: one. */
enum { TL_T2D_RUN_SHIFT = 4 };
/* TL_T2D_L2_ALIAS (the AVX-512 byte transposes, with TL_T2D_STREAM): the
 * policy's verdict that a block's 64 source rows put more lines into one
 * L2 set than it has ways (tl_machine_rows_share_l2), so lines prefetched
 * far ahead would be evicted before they are read: the kernel prefetches
 * them close. */
/* TL_T2D_SPLIT (the AVX-512 byte de-interleaves and tiled transposes): the
 * policy's verdict that plain 64-byte stores crossing a line cost about
 * what aligned ones do (tl_machine.split_stores), so rows off a line are
 * stored as they are instead of realigned in registers. */
/* TL_T2D_NARROW512 (the AVX-512 tiled transposes): the policy's verdict
 * that 512-bit operations run as two 256-bit halves (tl_machine.narrow_512,
 * Zen 4); in cache, byte rows that share L1 sets then take the AVX2
 * kernel's runs and L1 copy, and 32-bit rows off line boundaries its 8x8
 * blocks, instead of the AVX-512 ones. */
/* interleave/: C planes (NULL = a lane of zeros) -> n packed pixels of C
 * elements; C and the element size are fixed per kernel. */
typedef void (*tl_ilv_fn)(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream);
/* interleave/: channel re-pack of n pixels: cs elements in, h zeros + cs
 * elements + t zeros out (RGB -> RGB0); fixed cs/h/t per kernel. */
/* nt: the destination starts on a 64-byte line and may be streamed (the
 * AVX-512 re-packs store their whole 64-byte steps non-temporally; the
 * others ignore it); the caller fences. */
typedef void (*tl_repack_fn)(const uint8_t *src, uint8_t *dst, size_t n, int nt);
/* fill/: zero `bytes` bytes (stream: may use non-temporal stores). */
typedef void (*tl_fill_fn)(void *dst, size_t bytes, int stream);

/* ---- registries (one per family; scalar entries last) --------------------- */
typedef struct tl_row_kernel {
    const char *name;
    uint8_t isa, sdt, ddt;
    tl_row_fn fn;
    uint8_t feat;       /* TL_FEAT_* bits the row needs besides its ISA */
} tl_row_kernel;

typedef enum tl_t2d_shape {
    TL_T2D_ANY = 0,     /* any n0, n1 (tiled transpose) */
    TL_T2D_ILV = 1,     /* n0 == param: interleave planes (param 2, 3, 4) */
    TL_T2D_DILV = 2,    /* n1 == param: de-interleave */
    TL_T2D_PACK = 3,    /* n0 == param: block pack (4, 8, 16, 32) */
    TL_T2D_UNPACK = 4   /* n1 == param: block unpack */
} tl_t2d_shape;

typedef struct tl_t2d_kernel {
    const char *name;
    uint8_t isa, esize, shape, param;
    tl_t2d_fn fn;
    uint8_t feat;       /* TL_FEAT_* bits the row needs besides its ISA */
} tl_t2d_kernel;

typedef struct tl_ilv_kernel {
    const char *name;
    uint8_t isa, esize, c;
    tl_ilv_fn fn;
    uint8_t feat;       /* TL_FEAT_* bits the row needs besides its ISA */
} tl_ilv_kernel;

typedef struct tl_repack_kernel {
    const char *name;
    uint8_t isa, esize, cs, h, t;
    tl_repack_fn fn;
} tl_repack_kernel;

/* Rows of pixels, the three innermost nodes of a pass run by one call:
 * `rows` rows of n pixels, source rows ss bytes apart, destination rows ds
 * bytes apart, and `gap` zero bytes written right after each destination
 * row's pixels (its padding, which a fill pass would otherwise zero in a
 * second sweep; 0: none). */
typedef struct tl_px_rows {
    size_t n, rows;
    ptrdiff_t ss, ds;
    size_t gap;
} tl_px_rows;

typedef struct tl_fill_kernel {
    const char *name;
    uint8_t isa;
    tl_fill_fn fn;
} tl_fill_kernel;

#endif
