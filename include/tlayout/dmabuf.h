/* Converting straight into accelerator buffers behind file descriptors
 * (included by tlayout.h; docs/deploy.md).
 *
 * NPU runtimes take their input and output tensors as Linux dma-bufs (RKNN
 * rknn_create_mem_from_fd, larod fd tensors, TIDL-RT shared memory from a
 * dma-buf heap), often mapped uncached or write-combined for the CPU. Three
 * rules make such a buffer fast and correct:
 *   1. size and offset right: the runtime's own sizing rule, checked before
 *      anything is written (the vendor helpers at the end);
 *   2. cache sync bracketing: DMA_BUF_IOCTL_SYNC START before the CPU touches a
 *      cached dma-buf, END after, so the device sees the data;
 *   3. never read the destination: a load from uncached memory costs a DRAM
 *      round trip per line (users report 0.75 -> 15 ms for rknn_inputs_set on
 *      an uncached dma-buf), while stores are combined into full-line writes.
 * The functions below do all three. The conversion engine only stores into
 * the destination, and test_dmabuf_audit checks that instruction by
 * instruction.
 *
 * Supported descriptors: regular files (memfd_create, tmpfs, disk files) and
 * dma-bufs. Anything else (pipe, socket, terminal, device node, directory) is
 * TL_ERR_IO naming what it is. On a regular file the sync ioctl does not apply
 * and is skipped (the page cache is coherent with the CPU): the fallback path.
 * Outside Linux, dma-bufs do not exist; regular files are mapped with mmap where
 * POSIX has it, and every call is TL_ERR_UNSUPPORTED where it does not.
 */
#ifndef TLAYOUT_DMABUF_H
#define TLAYOUT_DMABUF_H
#include <stddef.h>
#include <stdint.h>

#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum tl_fd_kind {
    TL_FD_NONE = 0,
    TL_FD_REGULAR = 1, /* regular file, memfd: plain shared memory, no cache sync */
    TL_FD_DMABUF = 2   /* a dma-buf: DMA_BUF_IOCTL_SYNC brackets CPU access */
} tl_fd_kind;

/* Access of a mapping and of a sync bracket (DMA_BUF_SYNC_READ / _WRITE). */
#define TL_FD_READ 1u
#define TL_FD_WRITE 2u

/* Bytes of the object behind fd and its kind (kind may be NULL). A dma-buf's
 * size is lseek(fd, 0, SEEK_END), as the kernel documents (its offset is left
 * at 0); a regular file's is fstat's st_size. TL_ERR_IO for a closed fd and for
 * kinds that cannot be mapped. */
TL_API tl_status tl_fd_size(int fd, uint64_t *bytes, tl_fd_kind *kind);

/* A mapped byte range [offset, offset + len) of an fd. Fields are read-only
 * for the caller; ptr is the first byte of the range. */
typedef struct tl_fd_map {
    unsigned char *ptr;
    size_t len;
    int fd;
    int kind;          /* tl_fd_kind */
    unsigned access;   /* TL_FD_READ | TL_FD_WRITE as mapped */
    unsigned sync;     /* access of the open sync bracket; 0 = none open */
    int synced;        /* 1 when the open bracket reached the kernel (dma-buf) */
    int reserved_;
    void *base_;       /* the page-aligned mapping */
    size_t base_len_;
} tl_fd_map;

/* Map a range. TL_ERR_IO (fd not open, not mappable, opened read-only for a
 * write mapping, mmap refused), TL_ERR_SIZE (len 0, offset past the end),
 * TL_ERR_BUFFER_SMALL (offset + len beyond the fd's size, with both numbers),
 * TL_ERR_OVERFLOW. *m is written only on success. */
TL_API tl_status tl_fd_map_range(tl_fd_map *m, int fd, uint64_t offset, uint64_t len, unsigned access);
/* Unmap. A sync bracket still open is an error (TL_ERR_UNSUPPORTED, "sync
 * order"), and the mapping stays: end the bracket first. */
TL_API tl_status tl_fd_unmap(tl_fd_map *m);
/* Open a cache-sync bracket for `access` (within the mapping's access):
 * DMA_BUF_IOCTL_SYNC with DMA_BUF_SYNC_START on a dma-buf, nothing on a regular
 * file. A bracket already open is TL_ERR_UNSUPPORTED ("sync order"). */
TL_API tl_status tl_fd_sync_begin(tl_fd_map *m, unsigned access);
/* Close the open bracket (DMA_BUF_SYNC_END, same access). No open bracket is
 * TL_ERR_UNSUPPORTED ("sync order"). */
TL_API tl_status tl_fd_sync_end(tl_fd_map *m);

/* ---- writing into an fd ---------------------------------------------------- */
/* Writes a destination of dst_len bytes at dst. It must only STORE into dst:
 * the memory may be uncached. */
typedef tl_status (*tl_fd_writer)(void *ctx, void *dst, size_t dst_len);

/* The generic zero-copy write, on which every *_to_fd function is built:
 * check the fd (kind, size, offset, len), map [offset, offset + len) for
 * writing, open a write sync bracket, call write(ctx, ptr, len), close the
 * bracket, unmap. On any failure before write() nothing is written; the
 * writer's own status is returned as is (and the bracket still closed). A new
 * destination kind (an image plan, post-processing output) needs one writer:
 *
 *   static tl_status image_writer(void *ctx, void *dst, size_t len)
 *   {
 *       const image_job *j = ctx;
 *       return tl_image_plan_run_parallel(j->plan, j->src, j->src_len, dst, len, j->nthreads);
 *   }
 *   ... tl_fd_write_with(fd, offset, dst_size, image_writer, &job);
 * (tl_image_to_fd below is exactly that.)
 */
TL_API tl_status tl_fd_write_with(int fd, uint64_t offset, uint64_t len, tl_fd_writer write, void *ctx);

/* Run a plan into [offset, offset + dst_len) of fd on up to nthreads threads
 * (tl_plan_run_parallel: 1 = the caller's thread only, 0 = the fast cores).
 * dst_len is the destination descriptor's size (tl_desc_size); the plan
 * rejects a shorter one (TL_ERR_BUFFER_SMALL) before it stores anything. */
TL_API tl_status tl_plan_run_to_fd(const tl_plan *plan, const void *src, size_t src_len, int fd, uint64_t offset,
                                   uint64_t dst_len, unsigned nthreads);
/* One call: plan, run on one thread into fd at offset, destroy. flags as
 * tl_convert_ex (TL_KEEP_PADDING leaves the destination's padding bytes as
 * they are: they are neither written nor read). A 4-bit destination (two
 * elements per byte) without TL_KEEP_PADDING is converted into zeroed cached
 * memory and copied in, so the mapping is only written. */
TL_API tl_status tl_convert_to_fd(const tl_desc *src_d, const void *src, size_t src_len, const tl_desc *dst_d,
                                  int fd, uint64_t offset, unsigned flags);

/* An image plan (tlayout/image.h) into [offset, offset + dst_len) of fd on up
 * to nthreads threads (tl_image_plan_run_parallel): a camera frame straight
 * into an NPU's input dma-buf. dst_len is the destination descriptor's size;
 * a shorter one is TL_ERR_BUFFER_SMALL before anything is stored. */
TL_API tl_status tl_image_to_fd(const tl_image_plan *plan, const void *src, size_t src_len, int fd,
                                uint64_t offset, uint64_t dst_len, unsigned nthreads);

/* ---- vendor buffer sizes ------------------------------------------------------ */
/* RKNN: the bytes to ask rknn_create_mem for are tl_rknn_mem_size (tlayout/rknn.h):
 * tl_rknn_mem_size(NULL, d, &bytes) for a descriptor alone. */
/* RKNN: check the size and offset arguments of
 *   rknn_create_mem_from_fd(ctx, fd, virt_addr, uint32_t size, int32_t offset)
 * for the tensor d in a dma-buf of fd_size bytes (0 = not checked): size >=
 * the descriptor's size, size < 2^32, 0 <= offset < 2^31, offset + size <=
 * fd_size. A swapped size and offset, and the whole fd's size given as the
 * tensor's size with an offset, are named as such. TL_ERR_VENDOR. */
TL_API tl_status tl_rknn_check_fd_mem(const tl_desc *d, uint64_t fd_size, int64_t size, int64_t offset);

/* TIDL-RT: the byte size of a shared buffer for the TIDL descriptor d
 * (tl_desc_from_tidl: inBufSize/outBufSize x element size, else NumBatches x
 * batch pitch): what to pass to TIDLRT_allocSharedMem and to
 * sTIDLRT_Tensor_t.bufferSize. TIDL-RT skips its copy only when the buffer is
 * shared memory AND bufferSize equals the I/O descriptor's BufSize exactly. */
TL_API tl_status tl_tidl_shared_size(const tl_desc *d, uint64_t *bytes);
/* TIDL-RT: TL_OK when a shared buffer of `bytes` bytes is exactly that size;
 * else TL_ERR_VENDOR saying which mistake it is: the dense N*C*H*W size of a
 * padded model input, too small (TIDL-RT reads past it), or larger (TIDL-RT
 * copies the input on every call). */
TL_API tl_status tl_tidl_check_shared(const tl_desc *d, uint64_t bytes);

/* larod: tl_larod_check_fd_size against the fd's real size (tl_fd_size):
 * offset + pitches[0] <= the fd's size, as larodSetTensorFdOffset and
 * larodSetTensorFdSize will be told. */
TL_API tl_status tl_larod_check_fd(const tl_desc *d, int fd, uint64_t offset);

#ifdef __cplusplus
}
#endif
#endif
