/* File descriptors as conversion destinations: kind, size, mapping and the
 * dma-buf cache-sync bracket (include/tlayout/dmabuf.h). Linux has all of it;
 * other POSIX systems map regular files; elsewhere every call is
 * TL_ERR_UNSUPPORTED. The mapping itself is never read or written here: only
 * the writer callback touches it. */
#define _XOPEN_SOURCE 700 /* S_IFMT */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "tlayout/dmabuf.h"

#if defined(__unix__) || defined(__APPLE__)
#define TL_FD_POSIX 1
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#if defined(__linux__)
#include <sys/ioctl.h>
/* The dma-buf UAPI (include/uapi/linux/dma-buf.h), defined here so that a
 * toolchain without kernel headers builds the same code. */
typedef struct tl_dma_buf_sync {
    uint64_t flags;
} tl_dma_buf_sync;
#define TL_DMA_BUF_SYNC_READ (1u << 0)
#define TL_DMA_BUF_SYNC_WRITE (2u << 0)
#define TL_DMA_BUF_SYNC_START (0u << 2)
#define TL_DMA_BUF_SYNC_END (1u << 2)
#define TL_DMA_BUF_IOCTL_SYNC _IOW('b', 0, tl_dma_buf_sync)
#if defined(__has_include)
#if __has_include(<linux/dma-buf.h>)
#include <linux/dma-buf.h>
_Static_assert(TL_DMA_BUF_IOCTL_SYNC == DMA_BUF_IOCTL_SYNC, "DMA_BUF_IOCTL_SYNC");
_Static_assert(TL_DMA_BUF_SYNC_WRITE == DMA_BUF_SYNC_WRITE && TL_DMA_BUF_SYNC_END == DMA_BUF_SYNC_END,
               "DMA_BUF_SYNC_* flags");
#endif
#endif

/* One sync ioctl, retried on EINTR/EAGAIN (the kernel may wait for fences). */
static int dmabuf_sync(int fd, uint64_t flags)
{
    tl_dma_buf_sync s;
    s.flags = flags;
    int r;
    do r = ioctl(fd, TL_DMA_BUF_IOCTL_SYNC, &s);
    while (r == -1 && (errno == EINTR || errno == EAGAIN));
    return r;
}

/* A dma-buf has an inode without a file type, and answers a sync request with
 * invalid flags by EINVAL; other descriptors do not know the ioctl (ENOTTY). */
static int is_dmabuf(int fd)
{
    return dmabuf_sync(fd, ~(uint64_t)0) == -1 && errno == EINVAL;
}
#endif

#if defined(TL_FD_POSIX)
static const char *kind_name(mode_t mode)
{
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device (a terminal or a /dev node)";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISDIR(mode)) return "a directory";
    return "an anonymous file that is not a dma-buf (eventfd, timerfd, ...)";
}

static tl_status fd_kind(int fd, struct stat *st, tl_fd_kind *kind)
{
    if (fd < 0) return tl_fail(TL_ERR_IO, "fd=%d: not a file descriptor (negative)", fd);
    if (fstat(fd, st) != 0) return tl_fail(TL_ERR_IO, "fd=%d: fstat failed: %s (is it open?)", fd, strerror(errno));
    if (S_ISREG(st->st_mode)) {
        *kind = TL_FD_REGULAR;
        return TL_OK;
    }
#if defined(__linux__)
    if ((st->st_mode & S_IFMT) == 0 && is_dmabuf(fd)) {
        *kind = TL_FD_DMABUF;
        return TL_OK;
    }
#endif
    return tl_fail(TL_ERR_IO, "fd=%d is %s: only regular files, memfd and dma-bufs can be mapped", fd,
                   kind_name(st->st_mode));
}

static tl_status size_of(int fd, tl_fd_kind *kind, uint64_t *bytes)
{
    struct stat st;
    TL_TRY(fd_kind(fd, &st, kind));
    if (*kind == TL_FD_REGULAR) {
        *bytes = st.st_size > 0 ? (uint64_t)st.st_size : 0;
        return TL_OK;
    }
    off_t end = lseek(fd, 0, SEEK_END); /* the dma-buf way to ask its size */
    if (end < 0) return tl_fail(TL_ERR_IO, "fd=%d: lseek(SEEK_END) failed: %s", fd, strerror(errno));
    (void)lseek(fd, 0, SEEK_SET);
    *bytes = (uint64_t)end;
    return TL_OK;
}

tl_status tl_fd_size(int fd, uint64_t *bytes, tl_fd_kind *kind)
{
    tl_fd_kind k;
    uint64_t n;
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL");
    TL_TRY(size_of(fd, &k, &n));
    *bytes = n;
    if (kind) *kind = k;
    tl_clear_error();
    return TL_OK;
}

/* The range [offset, offset + len) inside an fd of `size` bytes. */
static tl_status check_range(int fd, uint64_t size, uint64_t offset, uint64_t len)
{
    if (len == 0) return tl_fail(TL_ERR_SIZE, "len=0: nothing to map (fd=%d)", fd);
    if (offset >= size)
        return tl_fail(TL_ERR_SIZE, "offset=%llu is past the end of fd=%d (size %llu bytes)",
                       (unsigned long long)offset, fd, (unsigned long long)size);
    if (len > size - offset)
        return tl_fail(TL_ERR_BUFFER_SMALL,
                       "offset=%llu + len=%llu = %llu > %llu bytes in fd=%d (%llu bytes short): the buffer must "
                       "hold the whole destination after the offset",
                       (unsigned long long)offset, (unsigned long long)len,
                       (unsigned long long)(offset + len), (unsigned long long)size, fd,
                       (unsigned long long)(offset + len - size));
    return TL_OK;
}

static tl_status mmap_error(int fd, unsigned access, int err)
{
    if (err == EACCES)
        return tl_fail(TL_ERR_IO, "fd=%d: mmap refused (EACCES): a %s mapping needs the fd open %s", fd,
                       access & TL_FD_WRITE ? "shared writable" : "readable",
                       access & TL_FD_WRITE ? "O_RDWR" : "for reading");
    if (err == EPERM)
        return tl_fail(TL_ERR_IO, "fd=%d: mmap refused (EPERM): the file is sealed against writes (F_SEAL_WRITE) "
                       "or on a noexec/read-only mount", fd);
    return tl_fail(TL_ERR_IO, "fd=%d: mmap failed: %s", fd, strerror(err));
}

tl_status tl_fd_map_range(tl_fd_map *m, int fd, uint64_t offset, uint64_t len, unsigned access)
{
    tl_fd_kind kind;
    uint64_t size;
    if (!m) return tl_fail(TL_ERR_NULL, "m is NULL (the map to fill)");
    if (access == 0 || (access & ~(TL_FD_READ | TL_FD_WRITE)))
        return tl_fail(TL_ERR_UNSUPPORTED, "access=0x%x: use TL_FD_READ (1), TL_FD_WRITE (2) or both", access);
    TL_TRY(size_of(fd, &kind, &size));
    TL_TRY(check_range(fd, size, offset, len));
    long page = sysconf(_SC_PAGESIZE);
    uint64_t head = offset % (uint64_t)(page > 0 ? page : 4096), map_len = len + head;
    if (map_len < len || map_len > (uint64_t)SIZE_MAX || offset - head > (uint64_t)INT64_MAX)
        return tl_fail(TL_ERR_OVERFLOW, "offset=%llu len=%llu: the mapping does not fit the address space",
                       (unsigned long long)offset, (unsigned long long)len);
    int prot = (access & TL_FD_READ ? PROT_READ : 0) | (access & TL_FD_WRITE ? PROT_WRITE : 0);
    void *base = mmap(NULL, (size_t)map_len, prot, MAP_SHARED, fd, (off_t)(offset - head));
    if (base == MAP_FAILED) return mmap_error(fd, access, errno);
    memset(m, 0, sizeof *m);
    m->base_ = base;
    m->base_len_ = (size_t)map_len;
    m->ptr = (unsigned char *)base + head;
    m->len = (size_t)len;
    m->fd = fd;
    m->kind = kind;
    m->access = access;
    tl_clear_error();
    return TL_OK;
}

static tl_status sync_order(const tl_fd_map *m, const char *what)
{
    return tl_fail(TL_ERR_UNSUPPORTED, "sync order: %s (fd=%d); the order is map, tl_fd_sync_begin, CPU access, "
                   "tl_fd_sync_end, unmap", what, m->fd);
}

/* The bracket's ioctl, without touching the error text on success. */
static tl_status sync_call(tl_fd_map *m, unsigned access, int end)
{
#if defined(__linux__)
    if (m->kind == TL_FD_DMABUF) {
        uint64_t flags = (access & TL_FD_READ ? TL_DMA_BUF_SYNC_READ : 0) |
                         (access & TL_FD_WRITE ? TL_DMA_BUF_SYNC_WRITE : 0) |
                         (end ? TL_DMA_BUF_SYNC_END : TL_DMA_BUF_SYNC_START);
        if (dmabuf_sync(m->fd, flags) != 0)
            return tl_fail(TL_ERR_IO, "fd=%d: DMA_BUF_IOCTL_SYNC %s failed: %s", m->fd,
                           end ? "END" : "START", strerror(errno));
        m->synced = !end;
        return TL_OK;
    }
#endif
    (void)access, (void)end;
    m->synced = 0; /* regular file: the page cache is the CPU's, nothing to sync */
    return TL_OK;
}

static tl_status begin(tl_fd_map *m, unsigned access)
{
    if (!m || !m->base_) return tl_fail(TL_ERR_NULL, "m is NULL or not mapped");
    if (m->sync) return sync_order(m, "a sync bracket is already open: end it before beginning another");
    if (access == 0 || (access & ~m->access))
        return tl_fail(TL_ERR_UNSUPPORTED, "access=0x%x is not within the mapping's access 0x%x (fd=%d)", access,
                       m->access, m->fd);
    TL_TRY(sync_call(m, access, 0));
    m->sync = access;
    return TL_OK;
}

static tl_status end(tl_fd_map *m)
{
    if (!m || !m->base_) return tl_fail(TL_ERR_NULL, "m is NULL or not mapped");
    if (!m->sync) return sync_order(m, "tl_fd_sync_end without an open bracket");
    unsigned access = m->sync;
    m->sync = 0; /* closed even when the ioctl fails: a retry would end twice */
    return sync_call(m, access, 1);
}

static tl_status unmap(tl_fd_map *m)
{
    if (!m || !m->base_) return tl_fail(TL_ERR_NULL, "m is NULL or not mapped");
    if (m->sync) return sync_order(m, "unmap with a sync bracket still open: call tl_fd_sync_end first");
    if (munmap(m->base_, m->base_len_) != 0)
        return tl_fail(TL_ERR_IO, "fd=%d: munmap failed: %s", m->fd, strerror(errno));
    memset(m, 0, sizeof *m);
    m->fd = -1;
    return TL_OK;
}

tl_status tl_fd_sync_begin(tl_fd_map *m, unsigned access)
{
    TL_TRY(begin(m, access));
    tl_clear_error();
    return TL_OK;
}

tl_status tl_fd_sync_end(tl_fd_map *m)
{
    TL_TRY(end(m));
    tl_clear_error();
    return TL_OK;
}

tl_status tl_fd_unmap(tl_fd_map *m)
{
    TL_TRY(unmap(m));
    tl_clear_error();
    return TL_OK;
}

tl_status tl_fd_write_with(int fd, uint64_t offset, uint64_t len, tl_fd_writer write, void *ctx)
{
    tl_fd_map m;
    if (!write) return tl_fail(TL_ERR_NULL, "write is NULL (the writer callback)");
    TL_TRY(tl_fd_map_range(&m, fd, offset, len, TL_FD_WRITE));
    tl_status s = begin(&m, TL_FD_WRITE);
    if (s != TL_OK) {
        (void)unmap(&m);
        return s;
    }
    tl_status ws = write(ctx, m.ptr, m.len);
    tl_status es = end(&m);     /* the device must see what was written, even after an error */
    tl_status us = unmap(&m);
    if (ws != TL_OK) return ws; /* its message is the one that matters */
    if (es != TL_OK) return es;
    if (us != TL_OK) return us;
    tl_clear_error();
    return TL_OK;
}
#else
/* ---- no POSIX mmap ------------------------------------------------------------------- */
static tl_status no_fds(void) { return tl_fail(TL_ERR_UNSUPPORTED, "file descriptors cannot be mapped on this OS"); }
tl_status tl_fd_size(int fd, uint64_t *bytes, tl_fd_kind *kind) { (void)fd, (void)bytes, (void)kind; return no_fds(); }
tl_status tl_fd_map_range(tl_fd_map *m, int fd, uint64_t offset, uint64_t len, unsigned access)
{
    (void)m, (void)fd, (void)offset, (void)len, (void)access;
    return no_fds();
}
tl_status tl_fd_unmap(tl_fd_map *m) { (void)m; return no_fds(); }
tl_status tl_fd_sync_begin(tl_fd_map *m, unsigned access) { (void)m, (void)access; return no_fds(); }
tl_status tl_fd_sync_end(tl_fd_map *m) { (void)m; return no_fds(); }
tl_status tl_fd_write_with(int fd, uint64_t offset, uint64_t len, tl_fd_writer write, void *ctx)
{
    (void)fd, (void)offset, (void)len, (void)write, (void)ctx;
    return no_fds();
}
#endif

/* ---- plans into fds --------------------------------------------------------------------- */
typedef struct plan_write {
    const tl_plan *plan;
    const void *src;
    size_t src_len;
    unsigned nthreads;
} plan_write;

static tl_status plan_writer(void *ctx, void *dst, size_t dst_len)
{
    const plan_write *w = (const plan_write *)ctx;
    return tl_plan_run_parallel(w->plan, w->src, w->src_len, dst, dst_len, w->nthreads);
}

tl_status tl_plan_run_to_fd(const tl_plan *plan, const void *src, size_t src_len, int fd, uint64_t offset,
                            uint64_t dst_len, unsigned nthreads)
{
    if (!plan) return tl_fail(TL_ERR_NULL, "plan is NULL");
    if (!src) return tl_fail(TL_ERR_NULL, "src is NULL (source buffer)");
    plan_write w = {plan, src, src_len, nthreads};
    return tl_fd_write_with(fd, offset, dst_len, plan_writer, &w);
}

static tl_status copy_writer(void *ctx, void *dst, size_t dst_len)
{
    memcpy(dst, ctx, dst_len);
    return TL_OK;
}

/* A 4-bit destination holds two elements per byte, and the engine stores each
 * by a read-modify-write of its byte: such a run goes to cached memory first
 * and the mapping is only copied into, so it is never read. (With
 * TL_KEEP_PADDING the kept bytes are the mapping's own: that run stays in
 * place.) */
static tl_status staged_to_fd(const tl_plan *plan, const void *src, size_t src_len, int fd, uint64_t offset,
                              uint64_t dst_size)
{
    if (!src) return tl_fail(TL_ERR_NULL, "src is NULL (source buffer)");
    if (dst_size > SIZE_MAX) return tl_fail(TL_ERR_OVERFLOW, "destination of %llu bytes: more than this system can "
                                                             "address", (unsigned long long)dst_size);
    void *stage = calloc(dst_size ? (size_t)dst_size : 1, 1); /* a nibble no element owns is 0 */
    if (!stage) return tl_fail(TL_ERR_NOMEM, "a %llu-byte staging buffer for a 4-bit destination",
                               (unsigned long long)dst_size);
    tl_status s = tl_plan_run(plan, src, src_len, stage, (size_t)dst_size);
    if (s == TL_OK) s = tl_fd_write_with(fd, offset, dst_size, copy_writer, stage);
    free(stage);
    return s;
}

tl_status tl_convert_to_fd(const tl_desc *src_d, const void *src, size_t src_len, const tl_desc *dst_d, int fd,
                           uint64_t offset, unsigned flags)
{
    tl_plan *plan = NULL;
    uint64_t dst_size;
    TL_TRY(tl_plan_create(&plan, src_d, dst_d, flags));
    tl_status s = tl_desc_size(dst_d, &dst_size);
    bool packed = tl_dtype_bits((tl_dtype)dst_d->dtype) < 8 && !(flags & TL_KEEP_PADDING);
    if (s == TL_OK && packed) s = staged_to_fd(plan, src, src_len, fd, offset, dst_size);
    else if (s == TL_OK) s = tl_plan_run_to_fd(plan, src, src_len, fd, offset, dst_size, 1);
    tl_plan_destroy(plan);
    return s;
}
