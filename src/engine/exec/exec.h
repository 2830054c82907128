/* Executors: how a pass runs its innermost one or two nodes. Each executor is
 * one file of this directory (applicable + run + its parameters) and one row
 * of the ordered candidate lists of select.c, which end in the generic
 * walkers (oneDNN's reorder implementation lists): planning never fails for
 * lack of a fast path. Adding an executor = one file + one list row.
 * docs/engine.md names each one as its `name` does here. Not installed. */
#ifndef TL_EXEC_H
#define TL_EXEC_H

#include "engine/engine.h"
#include "kernels/move/move.h"

struct tl_executor {
    const char *name;   /* as tl_plan_describe prints it and docs/engine.md names it */
    int nodes;          /* innermost nodes one run call takes (1, 2 or 3) */
    /* The pass (byte strides, normalised) can run here: sets the pass's
     * parameters (ps->x, kernels) and returns true; false leaves it as it was. */
    bool (*applicable)(const tl_plan *p, tl_pass *ps);
    /* Run the innermost nodes `in` (and `out` above it, for 2- and 3-node
     * executors; a 3-node one finds its third at out - 1) from byte
     * addresses s and d. */
    void (*run)(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out);
    /* A 3-node executor that also zeroes ps->gap bytes right after each row's
     * run (out->count * out->ds bytes from the row's start): select.c gives it
     * the fill pass of exactly those bytes, when there is one. */
    bool gaps;
    /* A 2-node executor's rows form (gaps), which select.c puts in its place
     * when it takes a fill pass: the rows one at a time by this run, or in
     * one kernel call where the rows form has one. NULL: none. */
    const tl_executor *rows;
};

/* The L1 tile of every executor that stages its work. */
#define TL_TILE_BYTES 16384

extern const tl_executor tl_exec_walk, tl_exec_row, tl_exec_2d, tl_exec_2d_rows, tl_exec_interleave,
    tl_exec_interleave_rows, tl_exec_repack, tl_exec_repack_rows, tl_exec_pixels, tl_exec_pixels_rows,
    tl_exec_chroma_rows, tl_exec_chroma_planes, tl_exec_strided_copy, tl_exec_strided, tl_exec_fill,
    tl_exec_fill_strided;

/* ---- what several executors share (exec_common.c) -------------------------------- */
/* The row kernel of a plan's conversion: the 8-bit table when it has one. */
const tl_row_kernel *tl_plan_row_kernel(const tl_plan *p);
/* The kernels can run this conversion (a raw copy of at most 8-byte
 * elements, or the f32 pipeline); else one element at a time. */
bool tl_exec_kernels_apply(const tl_plan *p);
/* The innermost node is contiguous on both sides. */
bool tl_exec_inner_contiguous(const tl_plan *p, const tl_pass *ps);

/* A contiguous destination range written in one step: in a streaming plan
 * the step writes an L1 tile instead (where_to) and flush streams the tile
 * out; otherwise the step writes the destination and flush does nothing. */
static inline uint8_t *tl_where_to(const tl_plan *p, uint8_t *d, uint8_t *tile)
{
    return p->cv.stream ? tile : d;
}
void tl_flush(const tl_plan *p, uint8_t *d, const uint8_t *tile, size_t n);
/* A rows executor (tl_executor.gaps): the geometry of its rows (true), to
 * run in one kernel call, when it has a rows kernel that takes them: any
 * rows (TL_ROWS_ANY), or, in a streaming plan, only rows that are each on
 * a line (TL_ROWS_ON_LINES: its streamed whole lines need that); else
 * (false) its 2-node run does the rows one at a time, each row's gap
 * zeroed by plain stores. */
typedef void (*tl_exec_run_fn)(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                               const tl_node *in, const tl_node *out);
enum { TL_ROWS_NONE, TL_ROWS_ON_LINES, TL_ROWS_ANY };
bool tl_rows_geometry(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                      const tl_node *out, tl_exec_run_fn run, int kernel, tl_px_rows *g);
/* The steps of a staged loop over items of `bytes` (<= TL_TILE_BYTES) into
 * a destination d: a whole tile at a time, or in a streaming plan a few
 * lines (the policy's stage_bytes), so that reading the source and
 * streaming the stores overlap. Streamed steps end on lines: a line that
 * one step ends with plain stores and the next finishes non-temporally
 * costs more than the rest of the step; so the first step runs to the
 * first line an item ends on. And the staged bytes stay in one page: the
 * stage tiles are page-aligned (TL_STAGE_ALIGN) and a stage is at most a
 * page. Zen 5, kDLA_HWC4 i8 -> RGB u8 (6 images of 3862 x 3862), 256 MiB:
 * steps of 16 KiB 24 GB/s; of 512 bytes 30-36, 7 when those crossed a page
 * (a tile 3904 bytes into one), 11 when they ended inside lines (341
 * pixels). */
#define TL_STAGE_ALIGN 4096
typedef struct tl_stage {
    size_t items, next; /* a step's items; the coming step's */
} tl_stage;
static inline tl_stage tl_stage_in(const tl_plan *p, const uint8_t *d, size_t bytes, size_t stage)
{
    tl_stage st = {TL_TILE_BYTES / bytes, TL_TILE_BYTES / bytes};
    if (!p->cv.stream) return st;
    size_t line = 64, odd = bytes, n = stage / bytes;
    while (line > 1 && odd % 2 == 0) odd /= 2, line /= 2; /* items ending on lines: every 64 / gcd(bytes, 64) */
    st.items = st.next = n >= line ? n / line * line : n ? n : 1;
    if (n < line) return st; /* a stage ends on no line */
    size_t h = 0;
    while (h < line && ((uintptr_t)d + h * bytes) % 64) h++;
    if (h > 0 && h < line) st.next = h;
    return st;
}
static inline tl_stage tl_stage_of(const tl_plan *p, const uint8_t *d, size_t bytes)
{
    return tl_stage_in(p, d, bytes, p->machine.stage_bytes);
}
/* The next step's items, of `left` */
static inline size_t tl_stage_step(tl_stage *st, size_t left)
{
    size_t m = st->next < left ? st->next : left;
    st->next = st->items;
    return m;
}
/* Copy or convert n contiguous elements with plain stores (into an L1 tile,
 * or a destination that is not streamed). */
static inline void tl_row_plain(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, size_t n)
{
    const tl_cvt *cv = &p->cv;
    if (cv->path == TL_EP_COPY) memcpy(d, s, n * cv->es);
    else ps->row->fn(s, 0, d, 0, 1, n, cv);
}

/* Whether a kernel writing whole destination rows in address order (a row
 * conversion; the pixel spreads and re-packs of an image's rows, from their
 * registers) streams its stores: when the plan streams, unless the machine
 * stores whole rows plainly (plain_rows). */
static inline bool tl_exec_streams_rows(const tl_plan *p)
{
    return p->cv.stream && !p->machine.plain_rows;
}

/* Whether a destination row of n elements is streamed: long rows only, when
 * the plan streams; a conversion's rows only where the machine's policy
 * streams them (not plain_rows: staged in L1 and streamed out). A raw copy
 * streams from its source, no stage: YUV 4:4:4 -> NV12 at 256 MiB, its Y
 * plane copied, 1.04-1.09x the faster copy streamed, 0.95-0.97 by memcpy
 * (Zen 5). A short row's partial end lines, shared with the next row and
 * its zero padding, mix plain and non-temporal stores on one line (a padded
 * u8 copy with rows of 1214 bytes measured 5-10% slower streamed; 4 KiB
 * segments of dequantized planes faster). */
static inline bool tl_streams_row(const tl_plan *p, size_t n)
{
    bool streams = p->cv.path == TL_EP_COPY ? p->cv.stream : tl_exec_streams_rows(p);
    return streams && n * p->cv.ed >= p->machine.stream_row_bytes;
}

/* One stage of a streamed row conversion: m elements at element b of the
 * row's n, converted into buf and streamed out, the source a page ahead
 * asked for (tl_prefetch_ahead). */
static inline void tl_row_stage(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, uint8_t *buf,
                                size_t b, size_t m, size_t n)
{
    const tl_cvt *cv = &p->cv;
    tl_prefetch_ahead(s + b * cv->es, m * cv->es, (n - b) * cv->es);
    tl_row_plain(p, ps, s + b * cv->es, buf, m);
    p->stream_copy(d + b * cv->ed, buf, m * cv->ed);
}

/* The same into the destination, streamed when the plan streams. A
 * streamed conversion that reads more bytes than it writes reads the
 * policy's read_streams slices of the row in turn, a stage of each, after
 * the first stage (which brings d to a line): one stream of reads leaves
 * DRAM idle between the prefetches (DirectML f16 -> RGB u8 at 256 MiB,
 * Xeon: 0.59-0.60 -> 0.62-0.63x the faster copy; docs/engine.md). */
static inline void tl_copy_or_convert_row(const tl_plan *p, const tl_pass *ps, const uint8_t *s,
                                          uint8_t *d, size_t n)
{
    const tl_cvt *cv = &p->cv;
    if (tl_streams_row(p, n)) {
        if (cv->path == TL_EP_COPY) {
            p->stream_copy(d, s, n * cv->es);
            return;
        }
        /* a step that reads more than it writes stages as the gathers do
         * (stage_bytes): on a Zen 5, DirectML f16 -> RGB u8 at 256 MiB ran
         * at 0.62-0.66x the faster copy in steps of 2048 destination bytes,
         * 0.74-0.91 in steps of 512, while u8 -> f16 wants its 2048 */
        const bool reads_more = cv->es > cv->ed;
        _Alignas(TL_STAGE_ALIGN) uint8_t buf[TL_TILE_BYTES];
        tl_stage st = tl_stage_in(p, d, cv->ed, reads_more ? p->machine.stage_bytes : p->machine.row_stage_bytes);
        size_t b = tl_stage_step(&st, n), k = reads_more ? p->machine.read_streams : 1;
        tl_row_stage(p, ps, s, d, buf, 0, b, n);
        size_t per = k > 1 ? (n - b) / k / st.items * st.items : 0; /* a slice's elements, whole stages */
        for (size_t o = 0; o < per; o += st.items)
            for (size_t j = 0; j < k; j++) tl_row_stage(p, ps, s, d, buf, b + j * per + o, st.items, n);
        for (b += k * per; b < n; b += st.items) tl_row_stage(p, ps, s, d, buf, b, n - b < st.items ? n - b : st.items, n);
        return;
    }
    tl_row_plain(p, ps, s, d, n);
}

/* Rows of n elements, ss and ds bytes apart: one kernel call for all of them
 * when they convert with plain stores (the kernel's set-up once), else row
 * by row. */
static inline void tl_copy_or_convert_rows(const tl_plan *p, const tl_pass *ps, const uint8_t *s, ptrdiff_t ss,
                                           uint8_t *d, ptrdiff_t ds, size_t rows, size_t n)
{
    if (p->cv.path != TL_EP_COPY && !tl_streams_row(p, n)) {
        ps->row->fn(s, ss, d, ds, rows, n, &p->cv);
        return;
    }
    for (size_t r = 0; r < rows; r++) tl_copy_or_convert_row(p, ps, s + (ptrdiff_t)r * ss, d + (ptrdiff_t)r * ds, n);
}

/* Whether the plan's path runs the AVX-512 VBMI kernels (an AVX-512 path on
 * a CPU with VBMI; TL_CPU may have chosen a narrower path). */
static inline bool tl_exec_vbmi(const tl_plan *p)
{
#if defined(__x86_64__) || defined(_M_X64)
    return tl_isa_includes(p->isa, TL_ISA_AVX512) && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI);
#else
    (void)p;
    return false;
#endif
}

/* Whether the plan's path runs the NEON kernels that convert f16 in the
 * register (kDLA_HWC4 f16 <-> RGB): AArch64, and Armv7 on a CPU with VFPv4
 * (without it Armv7 converts f16 in integer code, and these kernels did not
 * lower its instruction counts: 3.16 -> 3.25 and 3.75 -> 3.42 per byte at
 * 256 KiB, worse at 4 KiB). */
static inline bool tl_exec_neon_f16(const tl_plan *p)
{
#if defined(__aarch64__)
    return tl_isa_includes(p->isa, TL_ISA_NEON);
#elif defined(__arm__) && defined(__ARM_NEON)
    return tl_isa_includes(p->isa, TL_ISA_NEON) && tl_cpu_runs(TL_ISA_NEON, TL_FEAT_F16);
#else
    (void)p;
    return false;
#endif
}

/* A move kernel call streams its stores when the plan does: the plan's one
 * choice (tl_machine_streams of its source and destination), not the call's
 * bytes. A streaming plan's call writes its part of a destination that does
 * not fit the cache either way; testing each call against the threshold left
 * a 256 MiB NCHW -> NCHW16c f32 plan with C = 64 storing plainly (four calls
 * of 64 MiB under a 260 MiB LLC's 65 MiB: 11.3 against 23.7 GB/s, Xeon). */
static inline int tl_exec_streams(const tl_plan *p)
{
    return p->cv.stream ? TL_T2D_STREAM : 0;
}

/* The AVX-512 byte de-interleaves' flags: stream (0 or TL_T2D_STREAM) with
 * TL_T2D_SPLIT (rows off a line stored as they are) where the policy finds
 * stores across lines cheap, or where the kernel runs a byte table (`table`)
 * and two-source permutes are slow: the table's permutes then hold the
 * shuffle port that realigning needs too (NHWC u8 -> TIDL padded i8, 256
 * KiB, Xeon: 33 -> 42 GB/s stored as they are; without the table realigning
 * stays ahead, 71 against 41). */
static inline int tl_exec_dilv_flags(const tl_plan *p, int stream, bool table)
{
    const tl_machine *m = &p->machine;
    return stream | (m->split_stores || (table && m->slow_permute2) ? TL_T2D_SPLIT : 0);
}
/* n fused zero elements of the destination type. */
static inline void tl_zero_elems(const tl_cvt *cv, uint8_t *d, int64_t n)
{
    if (n > 0) tl_zero_bytes(d, (size_t)n * cv->ed);
}

/* The generic walkers (walk.c): a pass at bit strides, an element pass. */
void tl_walk_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst, const tl_node *nodes,
                  int64_t sbit, int64_t dbit);
void tl_elements_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst, unsigned part,
                      unsigned nparts);
/* Slice [b, e) of an outermost node of `count` for part `part` of `nparts`. */
void tl_part_range(int64_t count, unsigned part, unsigned nparts, int64_t *b, int64_t *e);

/* The 2d executors' shared preconditions and kernel choice (exec_2d.c). */
bool tl_exec_2d_shape(const tl_plan *p, const tl_pass *ps);
unsigned tl_exec_2d_esize(const tl_plan *p, const tl_pass *ps);

#endif
