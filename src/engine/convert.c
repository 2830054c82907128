/* tl_convert: plan, run once, destroy. The plan validates the descriptors
 * (once: tl_convert_check_descs, the reference's own checks) and the run
 * the buffer lengths, in the reference's order, before anything is written. */
#include "engine.h"

tl_status tl_convert_ex(const tl_desc *src_d, const void *src, size_t src_len,
                        const tl_desc *dst_d, void *dst, size_t dst_len, unsigned flags)
{
    if (src_d == NULL) return tl_fail(TL_ERR_NULL, "src_d is NULL");
    if (dst_d == NULL) return tl_fail(TL_ERR_NULL, "dst_d is NULL");
    if (src == NULL) return tl_fail(TL_ERR_NULL, "src is NULL (source buffer)");
    if (dst == NULL) return tl_fail(TL_ERR_NULL, "dst is NULL (destination buffer)");
    tl_plan *plan;
    TL_TRY(tl_plan_create(&plan, src_d, dst_d, flags));
    tl_status s = tl_plan_run(plan, src, src_len, dst, dst_len);
    tl_plan_destroy(plan);
    return s;
}

tl_status tl_convert(const tl_desc *src_d, const void *src, size_t src_len,
                     const tl_desc *dst_d, void *dst, size_t dst_len)
{
    return tl_convert_ex(src_d, src, src_len, dst_d, dst, dst_len, 0);
}
