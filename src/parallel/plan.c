/* tl_plan_run_parallel: the plan's public run_part through the generic pool.
 * This is the whole pattern for any plan with a run_part (parallel.h). */
#include "core/internal.h"
#include "parallel/parallel.h"

typedef struct plan_job {
    const tl_plan *plan;
    const void *src;
    size_t src_len;
    void *dst;
    size_t dst_len;
} plan_job;

static tl_status plan_part(void *ctx, unsigned part, unsigned nparts)
{
    const plan_job *j = (const plan_job *)ctx;
    return tl_plan_run_part(j->plan, part, nparts, j->src, j->src_len, j->dst, j->dst_len);
}

tl_status tl_plan_run_parallel(const tl_plan *plan, const void *src, size_t src_len, void *dst, size_t dst_len,
                               unsigned nthreads)
{
    plan_job j = {plan, src, src_len, dst, dst_len};
    return tl_par_run(plan_part, &j, tl_par_work(src_len, dst_len), nthreads);
}
