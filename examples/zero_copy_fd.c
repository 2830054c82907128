/* zero_copy_fd — convert a camera frame straight into an NPU buffer behind a
 * file descriptor, on the fast cores, with the cache sync and no read-back.
 *
 * The NPU here is an RK3588 reading its native NC1HWC2 u8 input (C2 = 16:
 * the 3 channels of RGB padded to 16 lanes). On the board the buffer is the
 * dma-buf of rknn_create_mem (mem->fd, mem->offset); here a memfd stands in
 * for it, at an offset of 4096 bytes, as when one dma-buf holds several
 * tensors. tl_plan_run_to_fd checks the fd's size against offset + size,
 * maps the range write-only, brackets the conversion with DMA_BUF_IOCTL_SYNC
 * (a memfd needs none: the fallback path), converts on the big cores and
 * unmaps. Before that, tl_rknn_check_fd_mem checks the arguments that would go
 * to rknn_create_mem_from_fd(ctx, fd, virt_addr, size, offset) and names the
 * classic mistake of passing them swapped.
 *
 * Self-check: read the fd back (pread, never through the mapping) and compare
 * every element with the NC1HWC2 address formula; lanes 3..15 must be zero and
 * the bytes before the offset untouched. Exit 0 if so. Linux only (memfd).
 */
#define _GNU_SOURCE /* memfd_create */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <tlayout.h>

#define H 480
#define W 640
#define C2 16
#define OFFSET 4096

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "zero_copy_fd: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

int main(void)
{
    tl_desc rgb, npu;
    tl_status s;
    if ((s = tl_desc_parse(&rgb, "NHWC:u8:1x480x640x3")) != TL_OK) return fail("camera spec", s);
    /* what tl_rknn_desc_from_attrs gives for the native input attr */
    if ((s = tl_desc_parse(&npu, "rknn.nc1hwc2:u8:1x1x480x640x16:c=3")) != TL_OK) return fail("npu spec", s);

    uint32_t size;
    if ((s = tl_rknn_mem_size(NULL, &npu, &size)) != TL_OK) return fail("tl_rknn_mem_size", s);
    printf("RKNN input: size_with_stride %u bytes (the dense RGB frame is %d)\n", size, H * W * 3);

    int fd = memfd_create("npu-input", 0);
    if (fd < 0 || ftruncate(fd, OFFSET + (off_t)size) != 0) {
        perror("zero_copy_fd: memfd");
        return 1;
    }
    uint64_t fd_size = 0;
    if ((s = tl_fd_size(fd, &fd_size, NULL)) != TL_OK) return fail("tl_fd_size", s);
    if ((s = tl_rknn_check_fd_mem(&npu, fd_size, size, OFFSET)) != TL_OK) return fail("create_mem_from_fd args", s);
    if (tl_rknn_check_fd_mem(&npu, fd_size, OFFSET, size) == TL_OK) return fail("swapped args accepted", TL_OK);
    printf("swapped size/offset are caught: %s\n", tl_last_error());

    unsigned char *frame = malloc((size_t)rgb.size_bytes);
    if (!frame) return 1;
    for (size_t i = 0; i < (size_t)rgb.size_bytes; i++) frame[i] = (unsigned char)(i * 7 + i / 1920);

    tl_plan *plan;
    if ((s = tl_plan_create(&plan, &rgb, &npu, 0)) != TL_OK) return fail("tl_plan_create", s);
    s = tl_plan_run_to_fd(plan, frame, (size_t)rgb.size_bytes, fd, OFFSET, size, 0); /* 0 = fast cores */
    tl_plan_destroy(plan);
    if (s != TL_OK) return fail("tl_plan_run_to_fd", s);
    printf("converted on up to %u threads into fd %d at offset %d\n", tl_parallel_default_threads(), fd, OFFSET);

    unsigned char *got = malloc(OFFSET + (size_t)size);
    int bad = !got || pread(fd, got, OFFSET + (size_t)size, 0) != (ssize_t)(OFFSET + size);
    for (size_t i = 0; !bad && i < OFFSET; i++) bad = got[i] != 0;
    for (int h = 0; !bad && h < H; h++)
        for (int w = 0; !bad && w < W; w++)
            for (int c = 0; !bad && c < C2; c++) {
                unsigned char want = c < 3 ? frame[((size_t)h * W + w) * 3 + c] : 0;
                bad = got[OFFSET + ((size_t)h * W + w) * C2 + c] != want;
                if (bad) fprintf(stderr, "zero_copy_fd: element c=%d h=%d w=%d differs\n", c, h, w);
            }
    free(got), free(frame);
    close(fd);
    tl_parallel_shutdown();
    if (bad) return 1;
    puts("zero_copy_fd: ok");
    return 0;
}
