/* tl_image_plan_run_parallel: the image plan's run_part (bands of destination
 * rows) through the generic pool, the pattern of src/parallel/plan.c. */
#include "core/internal.h"
#include "parallel/parallel.h"

typedef struct image_job {
    const tl_image_plan *plan;
    const void *src;
    size_t src_len;
    void *dst;
    size_t dst_len;
} image_job;

static tl_status image_part(void *ctx, unsigned part, unsigned nparts)
{
    const image_job *j = (const image_job *)ctx;
    return tl_image_plan_run_part(j->plan, part, nparts, j->src, j->src_len, j->dst, j->dst_len);
}

tl_status tl_image_plan_run_parallel(const tl_image_plan *plan, const void *src, size_t src_len, void *dst,
                                     size_t dst_len, unsigned nthreads)
{
    image_job j = {plan, src, src_len, dst, dst_len};
    return tl_par_run(image_part, &j, tl_par_work(src_len, dst_len), nthreads);
}
