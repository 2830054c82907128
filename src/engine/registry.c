/* The kernel registry: every family's .inc list turned into prototypes and
 * one table per family (best ISA first, scalar last), and the lookups the
 * executors use (exec/, chosen by select.c). Each row names its kernel in
 * full; the table's name string is that same token (#fn). */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "kernels/block/block.inc"
#include "kernels/convert/convert.inc"
#include "kernels/fill/fill.inc"
#include "kernels/interleave/interleave.inc"
#include "kernels/transpose/transpose.inc"

/* ---- prototypes --------------------------------------------------------------- */
#define ROW_PROTO(fn, isa, ISA, S, D) void fn(const void *, ptrdiff_t, void *, ptrdiff_t, size_t, size_t, const tl_cvt *);
#define T2D_ARGS const uint8_t *, ptrdiff_t, uint8_t *, ptrdiff_t, size_t, size_t, int
#define TR_PROTO(fn, isa, ISA, E) void fn(T2D_ARGS);
#define IL_PROTO(fn, t2d_fn, isa, ISA, E, C) \
    void fn(const uint8_t *const *, uint8_t *, size_t, int); \
    void t2d_fn(T2D_ARGS);
#define DL_PROTO(fn, isa, ISA, E, C) void fn(T2D_ARGS);
#define RP_PROTO(fn, isa, ISA, E, CS, H, T) void fn(const uint8_t *, uint8_t *, size_t, int);
#define BL_PROTO(pack_fn, unpack_fn, isa, ISA, E, V) \
    void pack_fn(T2D_ARGS);                           \
    void unpack_fn(T2D_ARGS);
#define FILL_PROTO(fn, isa, ISA) void fn(void *, size_t, int);

TL_CONVERT_X86(ROW_PROTO)
TL_CONVERT_NEONFP16(ROW_PROTO)
TL_CONVERT_NEONFP16ARITH(ROW_PROTO)
TL_CONVERT_NEON(ROW_PROTO)
TL_CONVERT_SCALAR(ROW_PROTO)
TL_CONVERT_GROUP4_X86(ROW_PROTO)
TL_CONVERT_GROUP4_NEON(ROW_PROTO)
TL_TRANSPOSE_X86(TR_PROTO)
TL_TRANSPOSE_NEON(TR_PROTO)
TL_TRANSPOSE_SCALAR(TR_PROTO)
TL_INTERLEAVE_X86(IL_PROTO, DL_PROTO, RP_PROTO)
TL_INTERLEAVE_NEON(IL_PROTO, DL_PROTO, RP_PROTO)
TL_INTERLEAVE_SCALAR(IL_PROTO, DL_PROTO, RP_PROTO)
TL_BLOCK_X86(BL_PROTO)
TL_BLOCK_NEON(BL_PROTO)
TL_BLOCK_SCALAR(BL_PROTO)
TL_FILL_X86(FILL_PROTO)
TL_FILL_NEON(FILL_PROTO)
TL_FILL_SCALAR(FILL_PROTO)

/* ---- tables ------------------------------------------------------------------- */
/* The features a row needs beyond its ISA, from its ISA name. */
#define FEAT_scalar 0
#define FEAT_sse2 0
#define FEAT_avx2 0
#define FEAT_avx512 0
#define FEAT_avx512vbmi TL_FEAT_VBMI
#define FEAT_neon 0
#define FEAT_neonfp16 TL_FEAT_F16
#define FEAT_neonfp16arith TL_FEAT_F16

#define ROW_ENTRY(fn, isa, ISA, S, D) {#fn, ISA, S, D, fn, FEAT_##isa},
static const tl_row_kernel k_rows[] = {
    TL_CONVERT_X86(ROW_ENTRY) TL_CONVERT_NEONFP16(ROW_ENTRY) TL_CONVERT_NEONFP16ARITH(ROW_ENTRY)
    TL_CONVERT_NEON(ROW_ENTRY) TL_CONVERT_SCALAR(ROW_ENTRY)};
/* The 4-row form (kernels.h); no scalar entry: without one the engine
 * converts rows and moves bytes. */
#ifdef TL_CONVERT_HAVE_GROUP4
static const tl_row_kernel k_group4[] = {TL_CONVERT_GROUP4_X86(ROW_ENTRY) TL_CONVERT_GROUP4_NEON(ROW_ENTRY)};
#define GROUP4_FIRST k_group4
#define GROUP4_COUNT COUNT(k_group4)
#else
#define GROUP4_FIRST NULL
#define GROUP4_COUNT 0
#endif

/* Specialised shapes before the tiled transpose of the same ISA. An
 * interleave row runs its tl_t2d_fn form under the planes kernel's name. */
#define IL_T2D_ENTRY(fn, t2d_fn, isa, ISA, E, C) {#fn, ISA, E, TL_T2D_ILV, C, t2d_fn, FEAT_##isa},
#define DL_ENTRY(fn, isa, ISA, E, C) {#fn, ISA, E, TL_T2D_DILV, C, fn, FEAT_##isa},
#define RP_NONE(fn, isa, ISA, E, CS, H, T)
#define BL_ENTRY(pack_fn, unpack_fn, isa, ISA, E, V)                   \
    {#pack_fn, ISA, E, TL_T2D_PACK, V, pack_fn, FEAT_##isa},           \
    {#unpack_fn, ISA, E, TL_T2D_UNPACK, V, unpack_fn, FEAT_##isa},
#define TR_ENTRY(fn, isa, ISA, E) {#fn, ISA, E, TL_T2D_ANY, 0, fn, FEAT_##isa},
static const tl_t2d_kernel k_t2d[] = {
    TL_INTERLEAVE_X86(IL_T2D_ENTRY, DL_ENTRY, RP_NONE) TL_BLOCK_X86(BL_ENTRY) TL_TRANSPOSE_X86(TR_ENTRY)
    TL_INTERLEAVE_NEON(IL_T2D_ENTRY, DL_ENTRY, RP_NONE) TL_BLOCK_NEON(BL_ENTRY) TL_TRANSPOSE_NEON(TR_ENTRY)
    TL_INTERLEAVE_SCALAR(IL_T2D_ENTRY, DL_ENTRY, RP_NONE) TL_BLOCK_SCALAR(BL_ENTRY)
    TL_TRANSPOSE_SCALAR(TR_ENTRY)};

#define IL_ENTRY(fn, t2d_fn, isa, ISA, E, C) {#fn, ISA, E, C, fn, FEAT_##isa},
#define DL_NONE(fn, isa, ISA, E, C)
#define IL_NONE(fn, t2d_fn, isa, ISA, E, C)
static const tl_ilv_kernel k_ilv[] = {
    TL_INTERLEAVE_X86(IL_ENTRY, DL_NONE, RP_NONE) TL_INTERLEAVE_NEON(IL_ENTRY, DL_NONE, RP_NONE)
    TL_INTERLEAVE_SCALAR(IL_ENTRY, DL_NONE, RP_NONE)};

#define RP_ENTRY(fn, isa, ISA, E, CS, H, T) {#fn, ISA, E, CS, H, T, fn},
static const tl_repack_kernel k_repack[] = {
    TL_INTERLEAVE_X86(IL_NONE, DL_NONE, RP_ENTRY) TL_INTERLEAVE_NEON(IL_NONE, DL_NONE, RP_ENTRY)
    TL_INTERLEAVE_SCALAR(IL_NONE, DL_NONE, RP_ENTRY)};

#define FILL_ENTRY(fn, isa, ISA) {#fn, ISA, fn},
static const tl_fill_kernel k_fill[] = {
    TL_FILL_X86(FILL_ENTRY) TL_FILL_NEON(FILL_ENTRY) TL_FILL_SCALAR(FILL_ENTRY)};

/* 8-bit sources by table lookup (cv->lut8, cv->lut16): where a byte shuffle
 * of 256 entries is cheap. NEON rows use the 8-bit table inside their own
 * kernels. */
void tl_x8_lut_ukernel__scalar(const void *, ptrdiff_t, void *, ptrdiff_t, size_t, size_t, const tl_cvt *);
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_lut_ukernel__avx512vbmi(const void *, ptrdiff_t, void *, ptrdiff_t, size_t, size_t, const tl_cvt *);
#endif
static const tl_row_kernel k_lut[] = {
#if defined(__x86_64__) || defined(_M_X64)
    {"tl_x8_lut_ukernel__avx512vbmi", TL_ISA_AVX512, TL_U8, TL_U8, tl_x8_lut_ukernel__avx512vbmi, TL_FEAT_VBMI},
#endif
    {"tl_x8_lut_ukernel__scalar", TL_ISA_SCALAR, TL_U8, TL_U8, tl_x8_lut_ukernel__scalar, 0}};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

void tl_registry_rows(const tl_row_kernel **k, size_t *n) { *k = k_rows; *n = COUNT(k_rows); }
void tl_registry_luts(const tl_row_kernel **k, size_t *n) { *k = k_lut; *n = COUNT(k_lut); }
void tl_registry_group4(const tl_row_kernel **k, size_t *n) { *k = GROUP4_FIRST; *n = GROUP4_COUNT; }
void tl_registry_t2d(const tl_t2d_kernel **k, size_t *n) { *k = k_t2d; *n = COUNT(k_t2d); }
void tl_registry_ilv(const tl_ilv_kernel **k, size_t *n) { *k = k_ilv; *n = COUNT(k_ilv); }
void tl_registry_repack(const tl_repack_kernel **k, size_t *n) { *k = k_repack; *n = COUNT(k_repack); }
void tl_registry_fill(const tl_fill_kernel **k, size_t *n) { *k = k_fill; *n = COUNT(k_fill); }

/* ---- lookups --------------------------------------------------------------------- */
/* A row runs on a plan's path when the path includes its ISA and the CPU
 * has the features it needs besides. */
static bool row_runs(int isa, int row_isa, unsigned row_feat)
{
    return tl_isa_includes(isa, row_isa) && tl_cpu_runs(row_isa, row_feat);
}

/* The first (best) kernel of a table for a pair of types on a path. */
static const tl_row_kernel *find_row_in(const tl_row_kernel *t, size_t n, int isa, tl_dtype s, tl_dtype d)
{
    for (size_t i = 0; i < n; i++)
        if (row_runs(isa, t[i].isa, t[i].feat) && t[i].sdt == s && t[i].ddt == d) return &t[i];
    return NULL;
}

const tl_row_kernel *tl_find_row(int isa, tl_dtype s, tl_dtype d)
{
    return find_row_in(k_rows, COUNT(k_rows), isa, s, d);
}

const tl_row_kernel *tl_find_group4(int isa, tl_dtype s, tl_dtype d)
{
    return find_row_in(GROUP4_FIRST, GROUP4_COUNT, isa, s, d);
}

/* The scalar path looks up its answers (one load each, against the scalar
 * f32 pipeline's dozen operations); vector paths only with a table shuffle. */
const tl_row_kernel *tl_find_lut(int isa)
{
    for (size_t i = 0; i < COUNT(k_lut); i++) {
        const tl_row_kernel *k = &k_lut[i];
        if (k->isa == TL_ISA_SCALAR) return isa == TL_ISA_SCALAR ? k : NULL;
        if (k->isa == isa && row_runs(isa, k->isa, k->feat)) return k;
    }
    return NULL;
}

static bool t2d_fits(const tl_t2d_kernel *k, unsigned esize, size_t n0, size_t n1)
{
    if (k->esize != esize) return false;
    switch (k->shape) {
    case TL_T2D_ILV:
    case TL_T2D_PACK: return n0 == k->param;
    case TL_T2D_DILV:
    case TL_T2D_UNPACK: return n1 == k->param;
    default: return true;
    }
}

/* The best ISA first; within the chosen ISA a specialised shape beats the
 * tiled transpose (tables list them first). */
const tl_t2d_kernel *tl_find_t2d(int isa, unsigned esize, size_t n0, size_t n1)
{
    for (size_t i = 0; i < COUNT(k_t2d); i++)
        if (row_runs(isa, k_t2d[i].isa, k_t2d[i].feat) && t2d_fits(&k_t2d[i], esize, n0, n1)) return &k_t2d[i];
    return NULL;
}

const tl_ilv_kernel *tl_find_ilv(int isa, unsigned esize, unsigned c)
{
    for (size_t i = 0; i < COUNT(k_ilv); i++)
        if (row_runs(isa, k_ilv[i].isa, k_ilv[i].feat) && k_ilv[i].esize == esize && k_ilv[i].c == c)
            return &k_ilv[i];
    return NULL;
}

const tl_repack_kernel *tl_find_repack(int isa, unsigned esize, unsigned cs, unsigned h, unsigned t)
{
    for (size_t i = 0; i < COUNT(k_repack); i++) {
        const tl_repack_kernel *k = &k_repack[i];
        if (tl_isa_includes(isa, k->isa) && k->esize == esize && k->cs == cs && k->h == h && k->t == t)
            return k;
    }
    return NULL;
}

const tl_fill_kernel *tl_find_fill(int isa)
{
    for (size_t i = 0; i < COUNT(k_fill); i++)
        if (tl_isa_includes(isa, k_fill[i].isa)) return &k_fill[i];
    return NULL;
}
