/* tl_image_to_fd: an image plan run into an fd range, one writer on the
 * generic tl_fd_write_with (src/dmabuf/fd.c). */
#include "core/internal.h"
#include "tlayout/dmabuf.h"

typedef struct image_write {
    const tl_image_plan *plan;
    const void *src;
    size_t src_len;
    unsigned nthreads;
} image_write;

static tl_status image_writer(void *ctx, void *dst, size_t dst_len)
{
    const image_write *w = (const image_write *)ctx;
    return tl_image_plan_run_parallel(w->plan, w->src, w->src_len, dst, dst_len, w->nthreads);
}

tl_status tl_image_to_fd(const tl_image_plan *plan, const void *src, size_t src_len, int fd, uint64_t offset,
                         uint64_t dst_len, unsigned nthreads)
{
    if (!plan) return tl_fail(TL_ERR_NULL, "plan is NULL (image plan)");
    if (!src) return tl_fail(TL_ERR_NULL, "src is NULL (frame buffer)");
    image_write w = {plan, src, src_len, nthreads};
    return tl_fd_write_with(fd, offset, dst_len, image_writer, &w);
}
