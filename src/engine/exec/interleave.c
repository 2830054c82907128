/* interleave: a 2d pass whose destination pixels carry fused zero lanes
 * (C plus padding up to 4 lanes): the interleave family's planes kernel,
 * a NULL plane being a lane of zeros; a conversion goes through L1 first. */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    if (!tl_exec_2d_shape(p, ps) || (!ps->head && !ps->tail)) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = &ps->nodes[ps->nnodes - 2];
    bool copy = cv->path == TL_EP_COPY, convert_first = !copy && cv->ed <= cv->es;
    int64_t lanes = ps->head + in->count + ps->tail;
    if (lanes > 4 || !(copy || convert_first)) return false;
    unsigned esz = tl_exec_2d_esize(p, ps);
    const tl_ilv_kernel *k = tl_find_ilv(p->isa, esz, (unsigned)lanes);
    if (!k || out->ds != lanes * (copy ? cv->es : cv->ed)) return false;
    ps->x.ilv = k;
    ps->kernel_name = k->name;
    ps->esize = (uint8_t)esz;
    return true;
}

/* Interleave with zero lanes: the fused padding of a channel-last destination. */
static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                    const tl_node *in, const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    const tl_ilv_kernel *k = ps->x.ilv;
    const uint8_t *planes[4] = {NULL, NULL, NULL, NULL};
    size_t n = (size_t)out->count;
    if (cv->path == TL_EP_COPY) {
        for (int64_t c = 0; c < in->count; c++) planes[ps->head + c] = s + c * in->ss;
        k->fn(planes, d, n, tl_exec_streams(p));
        return;
    }
    _Alignas(64) uint8_t tmp[TL_TILE_BYTES];
    _Alignas(TL_STAGE_ALIGN) uint8_t out_tile[TL_TILE_BYTES]; /* streaming plans */
    tl_stage st = tl_stage_of(p, d, (size_t)out->ds);
    for (size_t b = 0, m; b < n; b += m) {
        m = tl_stage_step(&st, n - b);
        ps->row->fn(s + b * cv->es, in->ss, tmp, (ptrdiff_t)(m * cv->ed), (size_t)in->count, m, cv);
        for (int64_t c = 0; c < in->count; c++) planes[ps->head + c] = tmp + (size_t)c * m * cv->ed;
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        k->fn(planes, tl_where_to(p, db, out_tile), m, 0); /* out->ds is the pixel: one range */
        tl_flush(p, db, out_tile, m * (size_t)out->ds);
    }
}

const tl_executor tl_exec_interleave = {"interleave", 2, applicable, run, false, &tl_exec_interleave_rows};

/* interleave rows: the rows form (tl_executor.rows) that select.c puts in
 * place when it takes the fill pass of the rows' padding (f16 planes into
 * kDLA_HWC4): a row at a time, each row's gap zeroed in the same sweep.
 * Never chosen from the lists. */
static bool never(const tl_plan *p, tl_pass *ps)
{
    (void)p, (void)ps;
    return false;
}

static void run_rows(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                     const tl_node *out)
{
    tl_px_rows g;
    tl_rows_geometry(p, ps, s, d, in, out, run, TL_ROWS_NONE, &g);
}

const tl_executor tl_exec_interleave_rows = {"interleave rows", 3, never, run_rows, true, NULL};
