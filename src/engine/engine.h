/* The engine: plans (normalised loop nests), CPU features, execution.
 * docs/engine.md. Not installed. */
#ifndef TL_ENGINE_H
#define TL_ENGINE_H

#include "core/internal.h"
#include "kernels/kernels.h"
#include "kernels/move/move.h" /* tl_px_lines */
#include "numerics/elem.h"

/* ---- the machine policy: decided once, overridable (machine.c) ---------------- */
/* One cache level as the policy sees it (0: unknown). */
typedef struct tl_cache_level {
    size_t bytes;
    unsigned ways;
} tl_cache_level;

/* The data caches: read from sysfs, else CPUID leaf 4 / 0x8000001D, else
 * defaults (32 KiB 8-way L1, 256 KiB 8-way L2, no LLC known); TL_CACHES
 * overrides ("l1d=32K/8,l2=1M/8,llc=32M/16", any subset). */
typedef struct tl_caches {
    tl_cache_level l1d, l2, llc; /* llc: the highest level (may be l2 itself) */
    const char *source;          /* "sysfs", "cpuid", "defaults", "TL_CACHES" */
} tl_caches;

/* The CPU's maker (CPUID's vendor string): a few costs the caches do not
 * show differ by it (tl_machine_derive). */
enum { TL_VENDOR_OTHER, TL_VENDOR_AMD, TL_VENDOR_INTEL };

typedef struct tl_machine {
    int vendor;              /* TL_VENDOR_* */
    int family;              /* CPUID's display family (base + extended); 0 off x86 */
    int best_isa;            /* the best path this build and CPU run */
    int default_isa;         /* what plans use: TL_CPU=scalar|sse2|avx2|avx512|neon, or the
                                best (a path the machine lacks falls to the best below it) */
    unsigned feat;           /* TL_FEAT_* the CPU has, less TL_CPU_DISABLE=vbmi,f16 */
    tl_caches cache;         /* the cache model every threshold below follows from */
    size_t stream_bytes;     /* a plan whose destination, or whose source and destination on
                                average, are larger streams its stores (tl_machine_streams): a
                                quarter of the LLC (source and destination both have to stay
                                in it, with room for everything else), 8 MiB when the LLC is
                                unknown (TL_STREAM_BYTES; 0 streams everything) */
    size_t stream_row_bytes; /* ... in rows of at least this many bytes (a short row's end
                                lines would mix plain and non-temporal stores) */
    size_t tile_bytes;       /* L1 tiles of the executors: half the L1, a power of 2 in
                                [4 KiB, TL_TILE_BYTES] (TL_TILE_BYTES env) */
    size_t stage_bytes;      /* a streaming plan's L1 staging between flushes: a few lines,
                                so reading the source and streaming the stores overlap
                                (exec.h, tl_stage_of; TL_STAGE_BYTES, 64 .. 4096) */
    size_t row_stage_bytes;  /* ... for a streamed row conversion (tl_copy_or_convert_row)
                                that writes at least what it reads, destination bytes a
                                step: a step costs its kernel call and stream copy, and
                                longer steps amortize them: 2048 (Zen 4, 256 MiB, RGB u8 ->
                                DirectML f16 0.69-0.72x the copy with 512, 0.93-0.97 with
                                2048); 512 on Intel (machine.c); TL_ROW_STAGE_BYTES, 64 ..
                                4096. A step that reads more takes stage_bytes (exec.h) */
    unsigned stream_run_lines; /* a streaming transpose into rows far apart (planes) writes
                                  this many consecutive lines per row in turn: 8, where
                                  the AVX-512 path runs 2, and 4 on Intel (measured best on
                                  a Zen 5, a Xeon and a Zen 3: docs/engine.md; the AVX-512
                                  transposes into exactly 16 rows too);
                                  TL_STREAM_RUN, 1, 2, 4 or 8 */
    unsigned read_streams;   /* a streamed gather that mostly reads (kCHW32, NC1HWC2, DLA f16 into RGB),
                                and a streamed row conversion reading more than it writes,
                                reads this many slices (or bands of rows) in turn: 3, 1 on
                                AMD, whose slices run at 17 to 51 GB/s by their distance in
                                DRAM (machine.c); TL_READ_STREAMS, 1 .. 16 */
    size_t way_bytes;        /* L1 bytes / ways: rows this far apart share an L1 set */
    unsigned alias_rows;     /* rows in one L1 set a kernel may load from at once: half
                                the ways, the rest for the other side and the stack; on
                                Intel 16, all of a block's (TL_ALIAS_ROWS) */
    unsigned alias_store_rows; /* ... and store to: the ways; past that the transposes
                                  write runs of lines per row through L1
                                  (TL_ALIAS_STORE_ROWS) */
    bool split_stores;       /* plain 64-byte stores that cross a line cost about what aligned
                                ones do: AMD (Zen 5 measured: the 3-channel byte de-interleave
                                into rows off a line 40% faster storing as is than realigning
                                in registers, which an Intel Xeon needed); TL_SPLIT_STORES=0|1 */
    bool slow_permute2;      /* two-source byte permutes (vpermi2b, vpermt2b) take two cycles
                                where vpermb takes one: Intel (Xeon family 6 model 207, a loop
                                of independent ones: 0.71 against 0.35 ns): in the L2 the AVX2
                                RGB -> kDLA_HWC4 f16 spread beats the VBMI one built on them,
                                and the byte de-interleaves with a table store rows off a line
                                as they are (tl_exec_dilv_flags); TL_SLOW_PERMUTE2=0|1 */
    bool plain_rows;         /* a streaming plan's conversions of whole rows (contiguous on
                                both sides: tl_copy_or_convert_row; raw copies still
                                stream), and the pixel spreads and re-packs of an image's
                                rows (tl_exec_streams_rows), store plainly, straight from
                                the kernel, instead of staging steps in L1 and streaming
                                them out, or streaming from the registers. Off unless
                                TL_PLAIN_ROWS=1: it won on one Zen 5 VM and lost on
                                another of the same model (docs/engine.md) */
    bool narrow_512;         /* 512-bit operations run as two 256-bit halves: AMD family 19h
                                (Zen 4), where in cache the byte transposes between rows that
                                share L1 sets and the 32-bit ones off line boundaries run
                                faster as AVX2 (TL_T2D_NARROW512); TL_NARROW_512=0|1 */
} tl_machine;

/* The cache model of a sysfs cache directory (/sys/devices/system/cpu/cpu0/cache:
 * index<N>/{level,type,size,ways_of_associativity}); false when it has no
 * data cache. Tests feed a fake directory. */
bool tl_caches_from_sysfs(const char *dir, tl_caches *c);
/* The cache model of AMD's CPUID leaves 0x80000005 and 0x80000006 (their
 * ECX: L1d KiB in bits 31:24 and ways in 23:16; L2 KiB in 31:16 and a ways
 * code in 15:12), for CPUs or VMs without leaf 0x8000001D. No LLC: the L3
 * field there is the whole host's on a VM (508 MiB on a Zen 5 VM,
 * whose core sees 32 MiB), and a quarter of that as the
 * streaming threshold would keep 100 MiB conversions out of streaming;
 * the default threshold stands. False (c unchanged) without an L1d size. */
bool tl_caches_from_amd_leaves(uint32_t ecx5, uint32_t ecx6, tl_caches *c);
/* "l1d=32K/8,l2=1M/8,llc=32M/16" (any subset, K/M/G suffixes, "/ways"
 * optional) over *c; false (c unchanged) on a malformed text. */
bool tl_caches_parse(const char *text, tl_caches *c);
/* The thresholds that follow from m->cache, then the environment's
 * overrides (TL_STREAM_BYTES, TL_TILE_BYTES, TL_STAGE_BYTES, TL_READ_STREAMS,
 * TL_ALIAS_ROWS, TL_ALIAS_STORE_ROWS, TL_SPLIT_STORES, TL_SLOW_PERMUTE2, TL_PLAIN_ROWS, TL_NARROW_512). */
void tl_machine_derive(tl_machine *m);
/* Rows `stride` bytes apart, `rows` at once: more of them in one L1 set than
 * the policy allows (m->alias_rows)? */
bool tl_machine_rows_alias(const tl_machine *m, int64_t stride, size_t rows);
/* Whether a plan that reads src and writes dst bytes streams its stores:
 * the destination, or the two on average, past m->stream_bytes. A narrowing
 * plan's large source evicts its destination from the cache before anyone
 * reads it, so plain stores only add the reads for ownership (quantize NCHW
 * f32 -> NHWC i8, 256 MiB of floats into 64 MiB under a 65 MiB threshold,
 * Xeon: 9.4 -> 13.6 GB/s with C = 64, 13.4 -> 15.5 with C = 3). */
bool tl_machine_streams(const tl_machine *m, uint64_t src, uint64_t dst);
/* Whether src and dst bytes fit the L2 together (false when its size is
 * unknown): there a kernel's instructions bound it rather than the
 * memory's lines. */
bool tl_machine_in_l2(const tl_machine *m, uint64_t src, uint64_t dst);
/* How many of `rows` rows `stride` bytes apart fall into one L1 set (the
 * largest count over the sets; 1 when the L1 geometry is unknown). */
size_t tl_machine_rows_per_set(const tl_machine *m, int64_t stride, size_t rows);
/* Rows `stride` bytes apart, `rows` at once: more of them in one L2 set than
 * it has ways (false when its geometry is unknown)? Lines a streaming
 * transpose prefetches far ahead from such rows are evicted before it reads
 * them (TL_T2D_L2_ALIAS). */
bool tl_machine_rows_share_l2(const tl_machine *m, int64_t stride, size_t rows);

/* The policy in force: detected on the first call (thread-safe), or the
 * test hook's. */
const tl_machine *tl_machine_get(void);
/* Tests: use a copy of *m instead of the detected machine (NULL: back to
 * it); *m need not outlive the call. Not thread-safe against plans being
 * created. */
void tl_machine_set(const tl_machine *m);

/* Readers of tl_machine_get(): */
int tl_cpu_has(int isa);        /* this build has the ISA's kernels and this CPU runs them */
int tl_cpu_default_isa(void);
int tl_cpu_avx512vbmi(void);
/* This CPU runs a kernel row of ISA `isa` that needs TL_FEAT_* bits `feat`
 * (rows whose features the CPU lacks are skipped: the kernels never ask). */
int tl_cpu_runs(int isa, unsigned feat);
const char *tl_isa_name(int isa);
/* TL_ISA_COUNT when the name is unknown. */
int tl_isa_from_name(const char *name);

/* ---- the conversion of a plan (cvt.c) ------------------------------------------- */
void tl_cvt_init(tl_cvt *cv, const tl_desc *src, const tl_desc *dst);
/* Same from dtypes/quantizations (tests and the benchmark). */
void tl_cvt_init_dt(tl_cvt *cv, tl_dtype src, const tl_quant *sq, tl_dtype dst, const tl_quant *dq);
/* Whether the 8-bit conversion is a byte add of *add (mod 256): a move (0),
 * or the affine byte map with multiplier 1, no shift and no code clamped
 * (RKNN's zero point -128 with scale 1: u8 -> i8 is x + 128). */
bool tl_cvt_byte_add(const tl_cvt *cv, uint8_t *add);
/* Dtypes the f32 pipeline handles in kernels (tl_cvt.fast). */
static inline int tl_fast_dtype(int t)
{
    return t == TL_U8 || t == TL_I8 || t == TL_I16 || t == TL_F16 || t == TL_BF16 || t == TL_F32;
}


/* ---- the kernel lists (registry.c) ------------------------------------------------ */
/* The best kernel whose ISA the plan's path includes (and whose extra
 * features the CPU has), or NULL. */
const tl_row_kernel *tl_find_row(int isa, tl_dtype s, tl_dtype d);
/* The table-lookup row kernel for conversions with a table of the rule's
 * 256 answers (cv->lut8, cv->lut16) on this path, or NULL where the f32
 * pipeline is faster (SSE2, AVX2, AVX-512 without VBMI, NEON). */
const tl_row_kernel *tl_find_lut(int isa);
/* cv's table kernel on this path: NULL without a table or such a kernel */
static inline const tl_row_kernel *tl_find_table_row(int isa, const tl_cvt *cv)
{
    return cv->lut8 || cv->lut16 ? tl_find_lut(isa) : NULL;
}
void tl_registry_luts(const tl_row_kernel **k, size_t *n);
/* The 4-row form of a row kernel (kernels.h: 4 rows into 4-byte groups) on
 * this path, or NULL (not every ISA and pair has one). */
const tl_row_kernel *tl_find_group4(int isa, tl_dtype s, tl_dtype d);
void tl_registry_group4(const tl_row_kernel **k, size_t *n);
const tl_t2d_kernel *tl_find_t2d(int isa, unsigned esize, size_t n0, size_t n1);
const tl_ilv_kernel *tl_find_ilv(int isa, unsigned esize, unsigned c);
const tl_repack_kernel *tl_find_repack(int isa, unsigned esize, unsigned cs, unsigned h, unsigned t);
const tl_fill_kernel *tl_find_fill(int isa);

/* The whole registry, for tests and the benchmark rows. */
void tl_registry_rows(const tl_row_kernel **k, size_t *n);
void tl_registry_t2d(const tl_t2d_kernel **k, size_t *n);
void tl_registry_ilv(const tl_ilv_kernel **k, size_t *n);
void tl_registry_repack(const tl_repack_kernel **k, size_t *n);
void tl_registry_fill(const tl_fill_kernel **k, size_t *n);

/* ---- loop nodes ---------------------------------------------------------------- */
/* One loop level: `count` iterations moving src_stride / dst_stride bits. */
typedef struct tl_node {
    int64_t count;
    int64_t ss, ds;
} tl_node;

#define TL_MAX_NODES 48

/* The normaliser's last steps as a pure function (tested against tables):
 * order by destination stride (largest first, ties by source stride), drop
 * count-1 nodes, merge nodes contiguous on both sides. `keep_inner` > 0 pins
 * the innermost node (it carries a fused fill and must stay the innermost one
 * with its own count). Returns the new count (>= 1; an empty nest becomes one
 * count-1 node). */
int tl_nodes_normalise(tl_node *nodes, int n, int keep_inner);

/* ---- passes -------------------------------------------------------------------- */
typedef enum tl_pass_kind {
    TL_PASS_CONVERT = 0, /* convert the elements of a box of the logical region */
    TL_PASS_FILL = 1,    /* zero the destination padding elements of a box */
    TL_PASS_ELEMENTS = 2 /* fallback: walk a region element by element (offset function) */
} tl_pass_kind;

/* How a pass runs its innermost node(s): one file each in exec/ (exec.h). */
typedef struct tl_executor tl_executor;

/* A 2d pass whose one kernel moves and converts in its registers (one pass
 * over memory, no L1 tile and row conversion): which kernel. */
typedef enum tl_t2d_in_reg {
    TL_IN_REG_NONE,
    TL_IN_REG_MAP3_ILV_VBMI,  /* 3 planes of bytes into packed pixels through an 8-bit map */
    TL_IN_REG_MAP3_DILV_VBMI, /* packed 3-byte pixels into planes through an 8-bit map */
    TL_IN_REG_QUANT3_VBMI,    /* 3 f32 planes quantized into packed 8-bit pixels */
    TL_IN_REG_QUANT3_AVX2,
    TL_IN_REG_QUANT3_NEON,
    TL_IN_REG_QUANT16_VBMI,   /* 16 f32 planes quantized into one 16-channel block (NCHW16c) */
    TL_IN_REG_QUANT16_AVX2,
    TL_IN_REG_QUANT16_NEON,
    TL_IN_REG_DEQUANT16_VBMI, /* one 16-channel block of codes into 16 f32 planes */
    TL_IN_REG_DEQUANT16_AVX2,
    TL_IN_REG_DEQUANT16_NEON,
    TL_IN_REG_KINDS
} tl_t2d_in_reg;

typedef struct tl_pass {
    uint8_t kind;
    const tl_executor *ex;       /* chosen by select.c */
    int nnodes;
    tl_node nodes[TL_MAX_NODES]; /* outermost first, bits (bytes once an executor takes it) */
    int64_t src_bit, dst_bit;    /* where the box starts */
    int64_t head, tail;          /* fused zero elements before / after each innermost run */
    int64_t gap;                 /* zero bytes after each row, written by a rows executor
                                    (tl_executor.gaps) that took the fill pass of them */
    const char *kernel_name;     /* the main kernel, for tl_plan_describe (NULL: none) */
    const tl_row_kernel *row;    /* the conversion's row kernel (dtypes differ) */
    uint8_t esize;               /* element bytes the move kernel sees (folded), 0: n/a */
    union {                      /* each executor's own parameters */
        struct {
            const tl_t2d_kernel *k;
            const tl_t2d_kernel *lanes; /* raw copy with fused zeros: the move kernel for head +
                                           count + tail source rows, fed from an L1 tile whose
                                           extra rows are zero (whole destination rows) */
            uint8_t convert_first;      /* with a conversion: narrow first, then move */
            uint8_t group4;             /* narrowing through the 4-row form (row is its kernel):
                                           4-byte groups of 4 source rows, moved as words */
            uint8_t alias;              /* a tiled transpose's flags from the policy:
                                           TL_T2D_DST_ALIAS / TL_T2D_SRC_ALIAS for rows that
                                           share L1 sets, TL_T2D_NARROW512, TL_T2D_SPLIT */
            uint8_t in_reg;             /* tl_t2d_in_reg: the kernel that does the move and the
                                           conversion in its registers (no tile), 0: none */
        } t2d;
        const tl_ilv_kernel *ilv;
        const tl_repack_kernel *repack;
        const tl_fill_kernel *fill;
        struct {
            uint8_t bytes;  /* bytes moved per pixel (4 .. 64, a power of 2) */
            uint8_t gather; /* 1 = source pixels to a dense destination */
            uint8_t vbmi;   /* the AVX-512 VBMI byte permute moves the pixels: 1, and
                               saturates u8 <-> i8 in the register: 2 (gathers),
                               converts u8 -> f16 by the rule's table (tl_cvt lut16) in
                               the register: 3 (spreads), spreads straight from the
                               source plus add8 in the register (a byte add or a move,
                               tl_cvt_byte_add): 4 */
            uint8_t perm[64]; /* its index table, and the lanes it keeps (spread) */
            uint64_t keep;
            uint8_t shuffle;  /* a 16-byte-lane byte shuffle moves the pixels (AVX2 vpshufb,
                                 NEON tbl; tl_spread_fits16,
                                 tl_gather_fits__avx2): 1, and saturates u8 <-> i8 in
                                 the register: 2 (AVX2 gathers); u8 -> 4 f16 halves a
                                 pixel converted in the register: 3 (AVX2 spreads);
                                 a spread straight from the source plus add8 in the
                                 register (a byte add or a move, tl_cvt_byte_add): 5 */
            uint8_t add8;
            uint8_t fp16arith; /* AArch64's kDLA_HWC4 f16 kernels (shuffle 3, 4) are those for
                                  ARMv8.2's FP16 arithmetic (TL_FEAT_F16) */
            uint8_t neon3;    /* 3-byte pixels spread or gathered by NEON structure loads
                                 and stores, mapped in the register: 1 + the map of
                                 tl_x8_spread3 / gather3_ukernel__neon; 0: not */
            uint8_t lines;    /* gathers: whole 64-pixel steps by the line gather, 8-bit
                                 pixels: 1, f16 pixels converted to 8 bits: 2 (AVX-512
                                 VBMI; the ends by the gather above) */
            tl_px_lines lt; /* the line gather's tables */
        } px;
    } x;
    /* TL_PASS_ELEMENTS: the region, plane-local padded starts per dst dim */
    int sp, dp;                  /* source and destination plane */
    int64_t lo[TL_MAX_DIMS], hi[TL_MAX_DIMS];
} tl_pass;

struct tl_plan {
    tl_desc src, dst;
    int map[TL_MAX_DIMS];        /* dst dim i is src dim map[i] */
    unsigned flags;
    int isa;
    tl_machine machine;          /* the policy the plan was made with */
    int byte_granular;           /* every pass has byte strides (dst >= 8-bit elements) */
    tl_cvt cv;
    void (*stream_copy)(uint8_t *d, const uint8_t *s, size_t n); /* the move family's streaming store */
    int npasses;
    tl_pass *passes;
    char *text;                  /* tl_plan_describe */
};

/* Create with a forced ISA (tests loop over every path the machine has;
 * TL_ISA_COUNT = the default path). */
tl_status tl_plan_create_isa(tl_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                             unsigned flags, int isa);

/* ---- building (normalise.c) ----------------------------------------------------- */
/* Append the passes of a checked descriptor pair to the plan (convert boxes,
 * padding fill boxes); NOMEM / OVERFLOW on failure. */
tl_status tl_plan_build_passes(tl_plan *p);
/* The node transforms the executors rely on (normalise.c), each a pure
 * function of the pass's nodes: */
/* Bit strides to byte strides when every stride is whole bytes (the source's
 * only for a conversion); false (nothing changed) otherwise. */
bool tl_pass_to_bytes(tl_pass *ps, bool convert);
/* A transpose needs the node just above the innermost one contiguous in the
 * source (es bytes): move the innermost such node of the others there. */
void tl_pass_bring_src_contiguous(tl_pass *ps, int64_t es);
/* Fold an inner run contiguous on both sides (es-byte elements) into one
 * wider element (2, 4, 8 bytes) when the two nodes above it then form a
 * transpose; sets ps->esize. False (nothing changed) otherwise. */
bool tl_pass_fold(tl_pass *ps, int64_t es);
/* Choose each pass's executor and kernels (select.c). */
void tl_plan_choose_kernels(tl_plan *p);

/* ---- running (run.c) ------------------------------------------------------------- */
/* Run part [part/nparts] of one pass. */
void tl_pass_run(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                 unsigned part, unsigned nparts);

#endif
