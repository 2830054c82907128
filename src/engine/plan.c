/* Plans: created once (validate, normalise, choose kernels), then immutable and
 * safe to run from many threads at once (docs/engine.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/exec/exec.h"

static void describe_pass(const tl_plan *p, const tl_pass *ps, int i, tl_strbuf *sb)
{
    static const char *const kinds[] = {"convert", "fill", "elements"};
    bool bytes = ps->kind != TL_PASS_ELEMENTS && ps->ex != &tl_exec_walk;
    tl_sb_printf(sb, "pass %d: %s planes src %d -> dst %d, %s", i, kinds[ps->kind], ps->sp, ps->dp,
                 ps->ex->name);
    if (ps->kernel_name) tl_sb_printf(sb, " %s", ps->kernel_name);
    if (ps->row && p->cv.path != TL_EP_COPY) {
        /* the byte-add spreads (AVX2, VBMI) map in the register; their row converts the last pixels only */
        bool tail_only = ps->ex == &tl_exec_pixels && (ps->x.px.shuffle == 5 || ps->x.px.vbmi == 4);
        tl_sb_printf(sb, tail_only ? " (the map in the register; %s for the last pixels)" : " + %s", ps->row->name);
    }
    if (ps->esize) tl_sb_printf(sb, " (%u-byte elements)", ps->esize);
    if (ps->head || ps->tail)
        tl_sb_printf(sb, ", fused zeros %lld before / %lld after each run", (long long)ps->head,
                     (long long)ps->tail);
    if (ps->gap) tl_sb_printf(sb, ", and the %lld bytes of padding after each row", (long long)ps->gap);
    if (ps->ex == &tl_exec_2d && ps->x.t2d.lanes) tl_sb_printf(sb, ", whole rows from a tile with zero lanes");
    if (ps->ex == &tl_exec_2d && (ps->x.t2d.alias & TL_T2D_SRC_ALIAS))
        tl_sb_printf(sb, ", source rows share L1 sets");
    if (ps->ex == &tl_exec_2d && (ps->x.t2d.alias & TL_T2D_DST_ALIAS))
        tl_sb_printf(sb, ", destination rows share L1 sets");
    if (ps->ex == &tl_exec_2d && (ps->x.t2d.alias & TL_T2D_L2_ALIAS))
        tl_sb_printf(sb, ", source rows share L2 sets");
    tl_sb_printf(sb, "\n");
    if (ps->kind == TL_PASS_ELEMENTS) {
        tl_sb_printf(sb, "  region lo [");
        tl_sb_i64_list(sb, ps->lo, p->dst.rank, ",");
        tl_sb_printf(sb, "] hi [");
        tl_sb_i64_list(sb, ps->hi, p->dst.rank, ",");
        tl_sb_printf(sb, "]\n");
        return;
    }
    tl_sb_printf(sb, "  start src %lld dst %lld %s; nodes {count, src stride, dst stride}:",
                 (long long)ps->src_bit, (long long)ps->dst_bit, bytes ? "bytes" : "bits");
    for (int k = 0; k < ps->nnodes; k++)
        tl_sb_printf(sb, " {%lld, %lld, %lld}", (long long)ps->nodes[k].count, (long long)ps->nodes[k].ss,
                     (long long)ps->nodes[k].ds);
    tl_sb_printf(sb, "\n");
}

/* The machine policy the plan was made with (tl_machine), and the cache
 * model it follows from. */
static void describe_policy(const tl_plan *p, tl_strbuf *sb)
{
    const tl_machine *m = &p->machine;
    const tl_caches *c = &m->cache;
    tl_sb_printf(sb,
                 "policy: cpu %s%s%s, streaming stores above %llu destination bytes (or source and destination bytes on average) in rows of %llu+ bytes "
                 "(staged %llu bytes at a time, rows %llu, mostly-read steps in %u streams, runs of %u lines into planes), L1 tiles of %llu bytes, "
                 "at most %u rows per L1 set (rows %llu bytes apart share one), %u stored%s%s%s%s\n",
                 tl_isa_name(m->best_isa), (m->feat & TL_FEAT_VBMI) ? "+vbmi" : "", (m->feat & TL_FEAT_F16) ? "+f16" : "",
                 (unsigned long long)m->stream_bytes, (unsigned long long)m->stream_row_bytes,
                 (unsigned long long)m->stage_bytes, (unsigned long long)m->row_stage_bytes, m->read_streams, m->stream_run_lines,
                 (unsigned long long)m->tile_bytes, m->alias_rows, (unsigned long long)m->way_bytes,
                 m->alias_store_rows, m->split_stores ? ", stores across lines" : "",
                 m->slow_permute2 ? ", two-source byte permutes slow" : "", m->plain_rows ? ", whole rows stored plainly" : "",
                 m->narrow_512 ? ", 512-bit operations in halves" : "");
    tl_sb_printf(sb, "caches (%s): L1d %llu bytes %u-way, L2 %llu bytes %u-way, LLC %llu bytes %u-way\n", c->source,
                 (unsigned long long)c->l1d.bytes, c->l1d.ways, (unsigned long long)c->l2.bytes, c->l2.ways,
                 (unsigned long long)c->llc.bytes, c->llc.ways);
}

/* What the conversion does to each element, in words: a byte map by its
 * name (tl_map8_of: what the byte kernels run), else the path */
static void describe_conversion(const tl_cvt *cv, tl_strbuf *sb)
{
    const int m = tl_map8_of(cv), op = m < 0 ? -1 : TL_MAP8_OP(m), add = cv->affine8 ? tl_map8_add(cv) : 0;
    if (cv->path == TL_EP_COPY) tl_sb_printf(sb, "raw copy");
    else if (op == TL_MAP8_SAT) tl_sb_printf(sb, "codes saturated (identity quantizations)");
    else if (op == TL_MAP8_ADD) tl_sb_printf(sb, "byte map: code %+d", add);
    else if (op == TL_MAP8_HALVE_DOWN || op == TL_MAP8_HALVE_UP)
        tl_sb_printf(sb, "byte map: code / 2 rounded %s", op == TL_MAP8_HALVE_UP ? "half up" : "down");
    else if (op == TL_MAP8_DOUBLE) tl_sb_printf(sb, "byte map: code * 2 saturated");
    else if (op == TL_MAP8_WIDE) { /* e.g. "(code * 3 + 5) / 4 rounded to even" */
        const unsigned sh = cv->affine8_shift;
        const bool paren = sh && (cv->affine8_mul != 1 || cv->affine8_add);
        tl_sb_printf(sb, "byte map: %scode", paren ? "(" : "");
        if (cv->affine8_mul != 1) tl_sb_printf(sb, " * %d", cv->affine8_mul);
        if (cv->affine8_add) tl_sb_printf(sb, " %c %d", cv->affine8_add < 0 ? '-' : '+', abs(cv->affine8_add));
        if (sh)
            tl_sb_printf(sb, "%s / %u rounded %s", paren ? ")" : "", 1u << sh,
                         cv->affine8_odd ? "to even" : cv->affine8_bias ? "half up" : "down");
        tl_sb_printf(sb, ", saturated");
    }
    else if (cv->lut8) tl_sb_printf(sb, "byte table of the rule's 256 answers");
    else if (cv->lut16) tl_sb_printf(sb, "table of the rule's 256 answers, two bytes each");
    else tl_sb_printf(sb, "%s", cv->fast ? "f32 pipeline" : "element rule");
}

static tl_status make_text(tl_plan *p)
{
    for (size_t cap = 1024;; cap *= 2) {
        char *buf = malloc(cap);
        if (!buf) return tl_fail(TL_ERR_NOMEM, "plan description: out of memory");
        tl_strbuf sb = {buf, cap, 0};
        tl_sb_printf(&sb, "plan: %s -> %s, %s path, ", tl_dtype_name((tl_dtype)p->src.dtype),
                     tl_dtype_name((tl_dtype)p->dst.dtype), tl_isa_name(p->isa));
        describe_conversion(&p->cv, &sb);
        tl_sb_printf(&sb, ", %d pass%s%s\n", p->npasses, p->npasses == 1 ? "" : "es",
                     p->cv.stream ? ", streaming stores" : "");
        describe_policy(p, &sb);
        for (int i = 0; i < p->npasses; i++) describe_pass(p, &p->passes[i], i, &sb);
        if (sb.len < cap) {
            p->text = buf;
            return TL_OK;
        }
        free(buf);
    }
}

void tl_plan_destroy(tl_plan *plan)
{
    if (!plan) return;
    free(plan->passes);
    free(plan->text);
    free(plan);
}

tl_status tl_plan_create_isa(tl_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                             unsigned flags, int isa)
{
    int map[TL_MAX_DIMS];
    if (!plan) return tl_fail(TL_ERR_NULL, "plan is NULL (where to store the new plan)");
    *plan = NULL;
    TL_TRY(tl_convert_check_descs(src_d, dst_d, map));
    tl_plan *p = calloc(1, sizeof *p);
    if (!p) return tl_fail(TL_ERR_NOMEM, "plan: out of memory");
    p->src = *src_d;
    p->dst = *dst_d;
    memcpy(p->map, map, sizeof map);
    p->flags = flags;
    p->machine = *tl_machine_get();
    p->isa = isa >= 0 && isa < TL_ISA_COUNT ? isa : p->machine.default_isa;
    if (!tl_isa_includes(p->machine.best_isa, p->isa)) p->isa = p->machine.default_isa;
    tl_cvt_init(&p->cv, src_d, dst_d);
#if defined(__x86_64__) || defined(_M_X64)
    p->stream_copy = p->isa == TL_ISA_AVX512 ? tl_stream_copy_ukernel__avx512 : tl_stream_copy_ukernel__sse2;
#elif defined(__aarch64__)
    p->stream_copy = p->isa == TL_ISA_NEON ? tl_stream_copy_ukernel__neon : tl_stream_copy_ukernel__scalar;
#else
    p->stream_copy = tl_stream_copy_ukernel__scalar;
#endif
    p->cv.stream = (uint8_t)tl_machine_streams(&p->machine, (uint64_t)src_d->size_bytes, (uint64_t)dst_d->size_bytes);
    tl_status s = tl_plan_build_passes(p);
    if (s == TL_OK) {
        tl_plan_choose_kernels(p);
        s = make_text(p);
    }
    if (s != TL_OK) {
        tl_plan_destroy(p);
        return s;
    }
    *plan = p;
    tl_clear_error();
    return TL_OK;
}

tl_status tl_plan_create(tl_plan **plan, const tl_desc *src_d, const tl_desc *dst_d, unsigned flags)
{
    return tl_plan_create_isa(plan, src_d, dst_d, flags, TL_ISA_COUNT);
}

static tl_status check_run(const tl_plan *p, const void *src, size_t src_len, const void *dst,
                           size_t dst_len)
{
    if (!p) return tl_fail(TL_ERR_NULL, "plan is NULL");
    if (!src) return tl_fail(TL_ERR_NULL, "src is NULL (source buffer)");
    if (!dst) return tl_fail(TL_ERR_NULL, "dst is NULL (destination buffer)");
    TL_TRY(tl_check_buffer_len("src_len", src_len, &p->src, "source"));
    return tl_check_buffer_len("dst_len", dst_len, &p->dst, "destination");
}

tl_status tl_plan_run_part(const tl_plan *plan, unsigned part, unsigned nparts, const void *src,
                           size_t src_len, void *dst, size_t dst_len)
{
    TL_TRY(check_run(plan, src, src_len, dst, dst_len));
    if (nparts == 0 || part >= nparts)
        return tl_fail(TL_ERR_COORD, "part=%u of nparts=%u: need 0 <= part < nparts", part, nparts);
    for (int i = 0; i < plan->npasses; i++)
        tl_pass_run(plan, &plan->passes[i], (const uint8_t *)src, (uint8_t *)dst, part, nparts);
    tl_clear_error();
    return TL_OK;
}

tl_status tl_plan_run(const tl_plan *plan, const void *src, size_t src_len, void *dst, size_t dst_len)
{
    return tl_plan_run_part(plan, 0, 1, src, src_len, dst, dst_len);
}

const char *tl_plan_describe(const tl_plan *plan)
{
    return plan && plan->text ? plan->text : "";
}
