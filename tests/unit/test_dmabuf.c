/* Conversions into file descriptors (include/tlayout/dmabuf.h).
 *
 * - memfd_create buffers: a regular file, so the dma-buf sync ioctl does not
 *   apply: the fallback path (the bracket is kept, nothing reaches a kernel).
 * - A real dma-buf from /dev/dma_heap/system, else from /dev/udmabuf (a memfd
 *   turned into a dma-buf), when the machine has one: the full path with
 *   DMA_BUF_IOCTL_SYNC. Without either it says "skipped" and why.
 * - Every bad input the issue lists, each with its status and message and
 *   the fd's bytes unchanged: fds that are not regular files or dma-bufs,
 *   offsets past the end, sizes off by one, sync calls out of order, the TIDL
 *   "dense size for a padded model input" mistake, the RKNN size/offset mix-up.
 * Results are compared with tl_convert into ordinary memory. */
#define _GNU_SOURCE /* memfd_create, MFD_*, F_ADD_SEALS */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/eventfd.h>
#endif

#include "tl_test.h"

#define SENTINEL 0xC3

/* A memfd of n bytes, every byte SENTINEL. */
static int memfd_of(size_t n, unsigned flags)
{
    int fd = memfd_create("tl_dmabuf_test", flags);
    if (fd < 0) return -1;
    unsigned char buf[4096];
    memset(buf, SENTINEL, sizeof buf);
    for (size_t done = 0; done < n;) {
        size_t k = n - done < sizeof buf ? n - done : sizeof buf;
        if (write(fd, buf, k) != (ssize_t)k) {
            close(fd);
            return -1;
        }
        done += k;
    }
    return fd;
}

/* The fd's bytes [0, n) as a malloc'd copy (pread: the test reads, the library never does). */
static unsigned char *contents(int fd, size_t n)
{
    unsigned char *p = malloc(n ? n : 1);
    if (p && pread(fd, p, n, 0) != (ssize_t)n) {
        free(p);
        return NULL;
    }
    return p;
}

static int all_sentinel(int fd, size_t n)
{
    unsigned char *p = contents(fd, n);
    int ok = p != NULL;
    for (size_t i = 0; ok && i < n; i++) ok = p[i] == SENTINEL;
    free(p);
    return ok;
}

static void *pattern(size_t n, unsigned seed)
{
    unsigned char *p = malloc(n ? n : 1);
    for (size_t i = 0; p && i < n; i++) p[i] = (unsigned char)((i * 131u + seed) >> 1);
    return p;
}

typedef struct pair {
    tl_desc s, d;
    void *src, *ref;  /* source, and tl_convert's result in ordinary memory */
    size_t sl, dl;
} pair;

static int pair_init(pair *p, const char *from, const char *to)
{
    memset(p, 0, sizeof *p);
    if (tl_desc_parse(&p->s, from) != TL_OK || tl_desc_parse(&p->d, to) != TL_OK) return 0;
    p->sl = (size_t)p->s.size_bytes;
    p->dl = (size_t)p->d.size_bytes;
    p->src = pattern(p->sl, 5);
    p->ref = malloc(p->dl);
    return p->src && p->ref && tl_convert(&p->s, p->src, p->sl, &p->d, p->ref, p->dl) == TL_OK;
}

static void pair_free(pair *p) { free(p->src), free(p->ref); }

/* ---- the fallback path: memfd ------------------------------------------------------- */
TL_TEST(size_and_kind_of_memfd)
{
    int fd = memfd_of(12345, 0);
    REQUIRE(fd >= 0);
    uint64_t n = 0;
    tl_fd_kind k = TL_FD_NONE;
    CHECK_STATUS(tl_fd_size(fd, &n, &k), TL_OK);
    CHECK_EQ_I64(n, 12345);
    CHECK_EQ_I64(k, TL_FD_REGULAR);
    close(fd);
}

/* The fd's total bytes are want at [off, off + n) and SENTINEL elsewhere. */
static bool range_is(int fd, size_t total, size_t off, const void *want, size_t n)
{
    unsigned char *got = contents(fd, total);
    if (!got) return false;
    bool ok = memcmp(got + off, want, n) == 0;
    if (!ok) FAILF("bytes [%zu, %zu) differ from tl_convert's", off, off + n);
    for (size_t i = 0; ok && i < total; i++)
        if ((i < off || i >= off + n) && got[i] != SENTINEL) {
            FAILF("byte %zu outside the range was written", i);
            ok = false;
        }
    free(got);
    return ok;
}

/* At an offset that is not page aligned: exactly [offset, offset + dl) changes. */
TL_TEST(convert_to_memfd_at_offset)
{
    pair p;
    REQUIRE(pair_init(&p, "NHWC:u8:1x37x53x3", "tidl:u8:1x3x37x53:pad=1,2,3,1"));
    const size_t off = 4096 + 17, total = off + p.dl + 100;
    int fd = memfd_of(total, 0);
    REQUIRE(fd >= 0);
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, off, 0), TL_OK);
    CHECK_STR_EQ(tl_last_error(), "");
    CHECK(range_is(fd, total, off, p.ref, p.dl));
    close(fd);
    pair_free(&p);
}

/* A 4-bit destination (two elements per byte) is staged in zeroed cached
 * memory and copied in: the same bytes as tl_convert into zeroed memory,
 * exactly [offset, offset + dl) written. The element count is odd: the last
 * byte's other nibble belongs to no element and comes out 0 (tl_convert
 * leaves it as the buffer had it). */
TL_TEST(convert_to_memfd_4bit_staged)
{
    pair p;
    REQUIRE(pair_init(&p, "NCHW:u8:1x3x7x9", "NCHW:u4:1x3x7x9"));
    memset(p.ref, 0, p.dl);
    CHECK_STATUS(tl_convert(&p.s, p.src, p.sl, &p.d, p.ref, p.dl), TL_OK);
    const size_t off = 333, total = off + p.dl + 50;
    int fd = memfd_of(total, 0);
    REQUIRE(fd >= 0);
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, off, 0), TL_OK);
    CHECK(range_is(fd, total, off, p.ref, p.dl));
    /* a source too small fails before the fd is touched */
    int fd2 = memfd_of(p.dl, 0);
    REQUIRE(fd2 >= 0);
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl - 1, &p.d, fd2, 0, 0), TL_ERR_BUFFER_SMALL);
    CHECK(all_sentinel(fd2, p.dl));
    close(fd2);
    close(fd);
    pair_free(&p);
}

TL_TEST(plan_to_memfd_parallel)
{
    pair p;
    REQUIRE(pair_init(&p, "NCHW:f32:1x3x480x640", "NHWC:i8:1x480x640x3:q=affine:zp=3:scale=0.02"));
    int fd = memfd_of(p.dl, 0);
    REQUIRE(fd >= 0);
    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_plan_create(&plan, &p.s, &p.d, 0), TL_OK);
    for (unsigned nt = 0; nt <= 3; nt++) {
        CHECK_STATUS(tl_plan_run_to_fd(plan, p.src, p.sl, fd, 0, p.dl, nt), TL_OK);
        unsigned char *got = contents(fd, p.dl);
        REQUIRE(got);
        CHECK_MEM_EQ(got, p.ref, p.dl);
        free(got);
    }
    tl_plan_destroy(plan);
    close(fd);
    pair_free(&p);
}

/* The bracket on a regular file: kept in order, never reaches a kernel. */
TL_TEST(explicit_bracket_on_memfd)
{
    int fd = memfd_of(10000, 0);
    REQUIRE(fd >= 0);
    tl_fd_map m;
    REQUIRE_STATUS(tl_fd_map_range(&m, fd, 5000, 100, TL_FD_READ | TL_FD_WRITE), TL_OK);
    CHECK_EQ_I64(m.kind, TL_FD_REGULAR);
    CHECK_EQ_I64(m.len, 100);
    CHECK_STATUS(tl_fd_sync_begin(&m, TL_FD_READ | TL_FD_WRITE), TL_OK);
    CHECK_EQ_I64(m.synced, 0); /* the fallback: no ioctl for a regular file */
    CHECK_EQ_I64(m.ptr[0], SENTINEL);
    m.ptr[0] = 1;
    m.ptr[99] = 2;
    CHECK_STATUS(tl_fd_sync_end(&m), TL_OK);
    CHECK_STATUS(tl_fd_unmap(&m), TL_OK);
    CHECK_EQ_I64(m.fd, -1);
    unsigned char *got = contents(fd, 10000);
    REQUIRE(got);
    CHECK(got[5000] == 1 && got[5099] == 2 && got[4999] == SENTINEL && got[5100] == SENTINEL);
    free(got);
    close(fd);
}

/* ---- the full path: a real dma-buf -------------------------------------------------- */
#if defined(__linux__)
/* linux/dma-heap.h and linux/udmabuf.h, defined here (headers may be missing). */
struct tl_heap_alloc {
    uint64_t len;
    uint32_t fd, fd_flags;
    uint64_t heap_flags;
};
#define TL_DMA_HEAP_IOCTL_ALLOC _IOWR('H', 0x0, struct tl_heap_alloc)
struct tl_udmabuf_create {
    uint32_t memfd, flags;
    uint64_t offset, size;
};
#define TL_UDMABUF_CREATE _IOW('u', 0x42, struct tl_udmabuf_create)

/* A dma-buf of n bytes (page multiple) and where it came from; -1 if none. */
static int real_dmabuf(size_t n, const char **how)
{
    int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC);
    if (heap >= 0) {
        struct tl_heap_alloc a = {n, 0, O_RDWR | O_CLOEXEC, 0};
        int r = ioctl(heap, TL_DMA_HEAP_IOCTL_ALLOC, &a);
        close(heap);
        if (r == 0) {
            *how = "/dev/dma_heap/system";
            return (int)a.fd;
        }
    }
    int dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
    if (dev >= 0) {
        int mfd = memfd_create("tl_udmabuf", MFD_ALLOW_SEALING);
        int fd = -1;
        if (mfd >= 0 && ftruncate(mfd, (off_t)n) == 0 && fcntl(mfd, F_ADD_SEALS, F_SEAL_SHRINK) == 0) {
            struct tl_udmabuf_create c = {(uint32_t)mfd, 0, 0, n};
            fd = ioctl(dev, TL_UDMABUF_CREATE, &c);
            if (fd >= 0) *how = "/dev/udmabuf";
        }
        if (mfd >= 0) close(mfd);
        close(dev);
        if (fd >= 0) return fd;
    }
    return -1;
}
#endif

TL_TEST(full_dmabuf_path)
{
#if defined(__linux__)
    pair p;
    REQUIRE(pair_init(&p, "NHWC:u8:1x64x64x3", "rknn.nc1hwc2:u8:1x1x64x64x16:c=3"));
    size_t n = (p.dl + 8191) / 4096 * 4096;
    const char *how = NULL;
    int fd = real_dmabuf(n, &how);
    if (fd < 0) {
        printf("full_dmabuf_path: skipped: no /dev/dma_heap/system or /dev/udmabuf on this machine; the dma-buf "
               "sync path was not run (the memfd fallback was)\n");
        pair_free(&p);
        return;
    }
    printf("full_dmabuf_path: dma-buf from %s\n", how);
    uint64_t size = 0;
    tl_fd_kind k = TL_FD_NONE;
    CHECK_STATUS(tl_fd_size(fd, &size, &k), TL_OK);
    CHECK_EQ_I64(k, TL_FD_DMABUF);
    CHECK_EQ_I64(size, n);
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 4096, 0), TL_OK);
    tl_fd_map m;
    REQUIRE_STATUS(tl_fd_map_range(&m, fd, 4096, p.dl, TL_FD_READ), TL_OK);
    CHECK_STATUS(tl_fd_sync_begin(&m, TL_FD_READ), TL_OK);
    CHECK_EQ_I64(m.synced, 1); /* the ioctl reached the kernel */
    CHECK_MEM_EQ(m.ptr, p.ref, p.dl);
    CHECK_STATUS(tl_fd_sync_end(&m), TL_OK);
    CHECK_STATUS(tl_fd_unmap(&m), TL_OK);
    close(fd);
    pair_free(&p);
#else
    printf("full_dmabuf_path: skipped: dma-bufs are Linux only\n");
#endif
}

/* ---- bad input: named errors, nothing written ---------------------------------------- */
static void expect_fd_error(int fd, tl_status want, const char *needle)
{
    pair p;
    REQUIRE(pair_init(&p, "NCHW:u8:1x2x8x8", "NHWC:u8:1x8x8x2"));
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 0, 0), want);
    CHECK_STR_CONTAINS(tl_last_error(), needle);
    pair_free(&p);
}

TL_TEST(fds_that_cannot_be_mapped)
{
    expect_fd_error(-1, TL_ERR_IO, "fd=-1: not a file descriptor");
    int fd = memfd_of(1000, 0);
    REQUIRE(fd >= 0);
    close(fd);
    expect_fd_error(fd, TL_ERR_IO, "fstat failed"); /* closed */
    int pp[2];
    REQUIRE(pipe(pp) == 0);
    expect_fd_error(pp[1], TL_ERR_IO, "is a pipe (FIFO)");
    close(pp[0]), close(pp[1]);
    int sp[2];
    REQUIRE(socketpair(AF_UNIX, SOCK_STREAM, 0, sp) == 0);
    expect_fd_error(sp[0], TL_ERR_IO, "is a socket");
    close(sp[0]), close(sp[1]);
    int dn = open("/dev/null", O_RDWR);
    REQUIRE(dn >= 0);
    expect_fd_error(dn, TL_ERR_IO, "is a character device");
    close(dn);
    int dir = open("/", O_RDONLY);
    REQUIRE(dir >= 0);
    expect_fd_error(dir, TL_ERR_IO, "is a directory");
    close(dir);
#if defined(__linux__)
    int ev = eventfd(0, 0);
    REQUIRE(ev >= 0);
    expect_fd_error(ev, TL_ERR_IO, "not a dma-buf");
    close(ev);
#endif
    uint64_t n;
    CHECK_STATUS(tl_fd_size(-5, &n, NULL), TL_ERR_IO);
    CHECK_STATUS(tl_fd_size(0, NULL, NULL), TL_ERR_NULL);
}

TL_TEST(offsets_and_sizes)
{
    pair p;
    REQUIRE(pair_init(&p, "NCHW:u8:1x2x8x8", "NHWC:u8:1x8x8x2")); /* 128 bytes */
    int fd = memfd_of(1000, 0);
    REQUIRE(fd >= 0);
    /* past the end, and exactly at the end */
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 5000, 0), TL_ERR_SIZE);
    CHECK_STR_CONTAINS(tl_last_error(), "offset=5000 is past the end");
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 1000, 0), TL_ERR_SIZE);
    /* one byte too far: offset + 128 = 1001 */
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 873, 0), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "= 1001 > 1000 bytes in fd");
    CHECK_STR_CONTAINS(tl_last_error(), "(1 bytes short)");
    /* the last offset that fits works */
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 872, 0), TL_OK);
    close(fd);
    fd = memfd_of(1000, 0);
    REQUIRE(fd >= 0);
    /* destination length one byte short of the descriptor: the plan refuses */
    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_plan_create(&plan, &p.s, &p.d, 0), TL_OK);
    CHECK_STATUS(tl_plan_run_to_fd(plan, p.src, p.sl, fd, 0, p.dl - 1, 1), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "dst_len=127 < 128");
    /* source one byte short */
    CHECK_STATUS(tl_plan_run_to_fd(plan, p.src, p.sl - 1, fd, 0, p.dl, 2), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "src_len=127 < 128");
    CHECK_STATUS(tl_plan_run_to_fd(plan, NULL, p.sl, fd, 0, p.dl, 1), TL_ERR_NULL);
    CHECK_STATUS(tl_plan_run_to_fd(NULL, p.src, p.sl, fd, 0, p.dl, 1), TL_ERR_NULL);
    CHECK_STATUS(tl_plan_run_to_fd(plan, p.src, p.sl, fd, 0, 0, 1), TL_ERR_SIZE); /* len 0 */
    CHECK_STR_CONTAINS(tl_last_error(), "len=0");
    CHECK_STATUS(tl_fd_write_with(fd, 0, 10, NULL, NULL), TL_ERR_NULL);
    CHECK(all_sentinel(fd, 1000));
    tl_plan_destroy(plan);
    close(fd);
    pair_free(&p);
}

TL_TEST(fds_without_write_access)
{
    pair p;
    REQUIRE(pair_init(&p, "NCHW:u8:1x2x8x8", "NHWC:u8:1x8x8x2"));
    int fd = memfd_of(4096, MFD_ALLOW_SEALING);
    REQUIRE(fd >= 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    int ro = open(path, O_RDONLY);
    if (ro >= 0) { /* needs /proc */
        CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, ro, 0, 0), TL_ERR_IO);
        CHECK_STR_CONTAINS(tl_last_error(), "needs the fd open O_RDWR");
        close(ro);
    }
    REQUIRE(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE) == 0);
    CHECK_STATUS(tl_convert_to_fd(&p.s, p.src, p.sl, &p.d, fd, 0, 0), TL_ERR_IO);
    CHECK_STR_CONTAINS(tl_last_error(), "sealed against writes");
    CHECK(all_sentinel(fd, 4096));
    close(fd);
    pair_free(&p);
}

TL_TEST(sync_order)
{
    int fd = memfd_of(8192, 0);
    REQUIRE(fd >= 0);
    tl_fd_map m;
    CHECK_STATUS(tl_fd_map_range(&m, fd, 0, 100, 0), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "access=0x0");
    CHECK_STATUS(tl_fd_map_range(&m, fd, 0, 100, 4), TL_ERR_UNSUPPORTED);
    REQUIRE_STATUS(tl_fd_map_range(&m, fd, 100, 200, TL_FD_WRITE), TL_OK);
    CHECK_STATUS(tl_fd_sync_end(&m), TL_ERR_UNSUPPORTED); /* end before begin */
    CHECK_STR_CONTAINS(tl_last_error(), "sync order: tl_fd_sync_end without an open bracket");
    CHECK_STATUS(tl_fd_sync_begin(&m, TL_FD_READ), TL_ERR_UNSUPPORTED); /* read on a write mapping */
    CHECK_STR_CONTAINS(tl_last_error(), "not within the mapping's access");
    REQUIRE_STATUS(tl_fd_sync_begin(&m, TL_FD_WRITE), TL_OK);
    CHECK_STATUS(tl_fd_sync_begin(&m, TL_FD_WRITE), TL_ERR_UNSUPPORTED); /* begin twice */
    CHECK_STR_CONTAINS(tl_last_error(), "already open");
    CHECK_STATUS(tl_fd_unmap(&m), TL_ERR_UNSUPPORTED); /* unmap inside the bracket */
    CHECK_STR_CONTAINS(tl_last_error(), "unmap with a sync bracket still open");
    m.ptr[0] = 7; /* still mapped */
    CHECK_STATUS(tl_fd_sync_end(&m), TL_OK);
    CHECK_STATUS(tl_fd_unmap(&m), TL_OK);
    CHECK_STATUS(tl_fd_unmap(&m), TL_ERR_NULL); /* twice */
    CHECK_STATUS(tl_fd_sync_begin(&m, TL_FD_WRITE), TL_ERR_NULL); /* after unmap */
    unsigned char b = 0;
    CHECK(pread(fd, &b, 1, 100) == 1 && b == 7);
    close(fd);
}

/* ---- vendor sizes --------------------------------------------------------------------- */
TL_TEST(rknn_sizes)
{
    tl_desc d;
    /* native NC1HWC2 of a 3-channel 64x64 u8 input on RK3588: C2 = 16 */
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:u8:1x1x64x64x16:c=3"), TL_OK);
    uint32_t bytes = 0;
    CHECK_STATUS(tl_rknn_mem_size(NULL, &d, &bytes), TL_OK);
    CHECK_EQ_I64(bytes, 64 * 64 * 16); /* not 64*64*3: the channel block is padded */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 1 << 20, 65536, 4096), TL_OK);
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 0, 65536, 0), TL_OK); /* fd size unknown */
    /* the mix-up: size and offset swapped */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 1 << 20, 4096, 65536), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "size and offset look swapped");
    /* the whole dma-buf's size given as the tensor's size, with an offset */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 1 << 20, 1 << 20, 4096), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "is the whole dma-buf's size");
    /* n_elems x element size instead of size_with_stride, and one byte short */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 1 << 20, 64 * 64 * 3, 0), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "size=12288 < 65536");
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 1 << 20, 65535, 0), TL_ERR_VENDOR);
    /* past the end by one */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 65536 + 99, 65536, 100), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "by 1 bytes");
    /* the vendor's integer types */
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 0, 65536, -1), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "int32_t offset");
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 0, 65536, (int64_t)1 << 31), TL_ERR_VENDOR);
    CHECK_STATUS(tl_rknn_check_fd_mem(&d, 0, (int64_t)1 << 32, 0), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "uint32_t size");
    /* 4 GiB does not fit rknn_create_mem */
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nhwc:u8:1x65536x65536x1"), TL_OK);
    CHECK_STATUS(tl_rknn_mem_size(NULL, &d, &bytes), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "rknn_create_mem2");
}

TL_TEST(tidl_shared_sizes)
{
    tl_desc d;
    /* a 224x224 RGB input padded by 1 on each side: 3 x 226 x 226 bytes */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x224x224:pad=1,1,1,1"), TL_OK);
    uint64_t bytes = 0;
    CHECK_STATUS(tl_tidl_shared_size(&d, &bytes), TL_OK);
    CHECK_EQ_I64(bytes, 3 * 226 * 226);
    CHECK_STATUS(tl_tidl_check_shared(&d, 3 * 226 * 226), TL_OK);
    /* the common mistake: width x height x channels x element size */
    CHECK_STATUS(tl_tidl_check_shared(&d, 224 * 224 * 3), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "dense N*C*H*W size");
    CHECK_STR_CONTAINS(tl_last_error(), "PadL=1 PadT=1 PadR=1 PadB=1");
    CHECK_STATUS(tl_tidl_check_shared(&d, 3 * 226 * 226 + 1), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "copies it on every call");
    CHECK_STATUS(tl_tidl_check_shared(&d, 3 * 226 * 226 - 1), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "too small");
    /* with inBufSize (V4 io_1.bin) the size is inBufSize x element size */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x3x10x10:pad=1,1,1,1:bufsize=500"), TL_OK);
    CHECK_STATUS(tl_tidl_shared_size(&d, &bytes), TL_OK);
    CHECK_EQ_I64(bytes, 1000);
    CHECK_STATUS(tl_tidl_check_shared(&d, 600), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "inBufSize=500 elements x 2 bytes");
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x3x224x224"), TL_OK);
    CHECK_STATUS(tl_tidl_shared_size(&d, &bytes), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "not a TIDL descriptor");
}

TL_TEST(larod_fd_sizes)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x224x224x3"), TL_OK); /* pitches[0] = 150528 */
    int fd = memfd_of(150528 + 4096, 0);
    REQUIRE(fd >= 0);
    CHECK_STATUS(tl_larod_check_fd(&d, fd, 4096), TL_OK);
    CHECK_STATUS(tl_larod_check_fd(&d, fd, 4097), TL_ERR_BUFFER_SMALL); /* one byte too far */
    CHECK_STR_CONTAINS(tl_last_error(), "fd offset 4097 + pitches[0] 150528");
    close(fd);
    fd = memfd_of(0, 0);
    REQUIRE(fd >= 0);
    CHECK_STATUS(tl_larod_check_fd(&d, fd, 0), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "has 0 bytes");
    close(fd);
    int pp[2];
    REQUIRE(pipe(pp) == 0);
    CHECK_STATUS(tl_larod_check_fd(&d, pp[0], 0), TL_ERR_IO);
    close(pp[0]), close(pp[1]);
}

/* ---- image plans into fds ---------------------------------------------------------------- */
/* An NV12 frame letterboxed into an RKNN NC1HWC2 input, the image plan made
 * once; *ref is tl_image_plan_run's result in ordinary memory. */
static tl_image_plan *image_plan_ref(tl_desc *s, tl_desc *d, void **src, void **ref, int frame_w, int frame_h)
{
    char from[64];
    snprintf(from, sizeof from, "yuv.nv12:u8:3x%dx%d", frame_h, frame_w);
    tl_image_params prm;
    tl_image_params_init(&prm);
    prm.fit = TL_IMAGE_LETTERBOX;
    tl_image_plan *plan = NULL;
    if (tl_desc_parse(s, from) != TL_OK ||
        tl_desc_parse(d, "rknn.nc1hwc2:i8:1x1x320x320x16:c=3:zp=-128:scale=1") != TL_OK ||
        tl_image_plan_create(&plan, s, d, &prm) != TL_OK)
        return NULL;
    *src = pattern((size_t)s->size_bytes, 9);
    *ref = malloc((size_t)d->size_bytes);
    if (!*src || !*ref || tl_image_plan_run(plan, *src, (size_t)s->size_bytes, *ref, (size_t)d->size_bytes) != TL_OK) {
        tl_image_plan_destroy(plan);
        return NULL;
    }
    return plan;
}

/* At an offset that is not page aligned, on 1..3 threads: exactly
 * [offset, offset + size) changes and holds the in-memory result. */
TL_TEST(image_to_memfd_at_offset)
{
    tl_desc s, d;
    void *src = NULL, *ref = NULL;
    tl_image_plan *plan = image_plan_ref(&s, &d, &src, &ref, 1920, 1080);
    REQUIRE(plan);
    const size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes, off = 3 * 4096 + 40, total = off + dl + 77;
    for (unsigned nt = 0; nt <= 3; nt++) {
        int fd = memfd_of(total, 0);
        REQUIRE(fd >= 0);
        CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, off, dl, nt), TL_OK);
        CHECK_STR_EQ(tl_last_error(), "");
        unsigned char *got = contents(fd, total);
        REQUIRE(got);
        CHECK_MEM_EQ(got + off, ref, dl);
        for (size_t i = 0; i < total; i++)
            if ((i < off || i >= off + dl) && got[i] != SENTINEL) {
                FAILF("byte %zu outside the range was written (%u threads)", i, nt);
                break;
            }
        free(got);
        close(fd);
    }
    free(src), free(ref);
    tl_image_plan_destroy(plan);
}

/* Every bad offset, size and argument: its status, and the fd untouched. */
TL_TEST(image_to_fd_bad_input)
{
    tl_desc s, d;
    void *src = NULL, *ref = NULL;
    tl_image_plan *plan = image_plan_ref(&s, &d, &src, &ref, 640, 360);
    REQUIRE(plan);
    const size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes, total = dl + 100;
    int fd = memfd_of(total, 0);
    REQUIRE(fd >= 0);
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, total + 1, dl, 2), TL_ERR_SIZE); /* offset past the end */
    CHECK_STR_CONTAINS(tl_last_error(), "is past the end");
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, total, dl, 2), TL_ERR_SIZE); /* exactly at the end */
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, 101, dl, 2), TL_ERR_BUFFER_SMALL); /* one byte too far */
    CHECK_STR_CONTAINS(tl_last_error(), "(1 bytes short)");
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, 0, dl - 1, 2), TL_ERR_BUFFER_SMALL); /* size one short */
    CHECK_STR_CONTAINS(tl_last_error(), "destination buffer of");
    CHECK_STATUS(tl_image_to_fd(plan, src, sl - 1, fd, 0, dl, 2), TL_ERR_BUFFER_SMALL); /* frame one short */
    CHECK_STR_CONTAINS(tl_last_error(), "source buffer of");
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, 0, 0, 1), TL_ERR_SIZE);
    CHECK_STATUS(tl_image_to_fd(plan, NULL, sl, fd, 0, dl, 1), TL_ERR_NULL);
    CHECK_STR_CONTAINS(tl_last_error(), "src is NULL");
    CHECK_STATUS(tl_image_to_fd(NULL, src, sl, fd, 0, dl, 1), TL_ERR_NULL);
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, 0, dl, TL_PARALLEL_MAX_THREADS + 1), TL_ERR_UNSUPPORTED);
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, -1, 0, dl, 1), TL_ERR_IO);
    CHECK(all_sentinel(fd, total));
    /* the last offset that fits works */
    CHECK_STATUS(tl_image_to_fd(plan, src, sl, fd, 100, dl, 2), TL_OK);
    unsigned char *got = contents(fd, total);
    REQUIRE(got);
    CHECK_MEM_EQ(got + 100, ref, dl);
    free(got);
    close(fd);
    free(src), free(ref);
    tl_image_plan_destroy(plan);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(size_and_kind_of_memfd);
    TL_RUN(convert_to_memfd_at_offset);
    TL_RUN(convert_to_memfd_4bit_staged);
    TL_RUN(plan_to_memfd_parallel);
    TL_RUN(explicit_bracket_on_memfd);
    TL_RUN(full_dmabuf_path);
    TL_RUN(fds_that_cannot_be_mapped);
    TL_RUN(offsets_and_sizes);
    TL_RUN(fds_without_write_access);
    TL_RUN(sync_order);
    TL_RUN(rknn_sizes);
    TL_RUN(tidl_shared_sizes);
    TL_RUN(larod_fd_sizes);
    TL_RUN(image_to_memfd_at_offset);
    TL_RUN(image_to_fd_bad_input);
    int rc = tl_test_finish();
    tl_parallel_shutdown();
    return rc;
}
