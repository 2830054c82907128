/* How big, and where, a vendor's fd-backed tensor buffer must be: RKNN
 * (rknn_create_mem / rknn_create_mem_from_fd), TIDL-RT shared memory, larod
 * fd tensors. Every mistake users make with these gets its own message. */
#include <stdint.h>
#include <stdio.h>

#include "core/internal.h"
#include "tlayout/dmabuf.h"

/* ---- RKNN ---------------------------------------------------------------------- */
tl_status tl_rknn_check_fd_mem(const tl_desc *d, uint64_t fd_size, int64_t size, int64_t offset)
{
    TL_TRY(tl_desc_validate(d));
    int64_t need = d->size_bytes;
    if (size < 0 || (uint64_t)size > UINT32_MAX)
        return tl_fail(TL_ERR_VENDOR, "size=%lld does not fit rknn_create_mem_from_fd's uint32_t size (RKNN)",
                       (long long)size);
    if (offset < 0 || offset > INT32_MAX)
        return tl_fail(TL_ERR_VENDOR, "offset=%lld does not fit rknn_create_mem_from_fd's int32_t offset "
                       "(0 .. 2147483647) (RKNN)", (long long)offset);
    if (size < need && offset >= need)
        return tl_fail(TL_ERR_VENDOR, "size=%lld < %lld bytes the tensor needs, and offset=%lld >= %lld: size and "
                       "offset look swapped; rknn_create_mem_from_fd(ctx, fd, virt_addr, size, offset) takes "
                       "the size (size_with_stride) before the offset (RKNN)", (long long)size, (long long)need,
                       (long long)offset, (long long)need);
    if (size < need)
        return tl_fail(TL_ERR_VENDOR, "size=%lld < %lld bytes the tensor needs (size_with_stride, with the row "
                       "and channel padding of the native layout; not n_elems x element size) (RKNN)",
                       (long long)size, (long long)need);
    if (fd_size == 0 || (uint64_t)offset + (uint64_t)size <= fd_size) {
        tl_clear_error();
        return TL_OK;
    }
    uint64_t over = (uint64_t)offset + (uint64_t)size - fd_size;
    if ((uint64_t)size == fd_size && offset > 0)
        return tl_fail(TL_ERR_VENDOR, "size=%lld is the whole dma-buf's size; from offset=%lld it would end %llu "
                       "bytes past the fd: pass the tensor's size (%lld bytes), not the buffer's (RKNN)",
                       (long long)size, (long long)offset, (unsigned long long)over, (long long)need);
    return tl_fail(TL_ERR_VENDOR, "offset=%lld + size=%lld = %llu > fd size %llu by %llu bytes: the tensor must lie "
                   "inside the dma-buf (RKNN)", (long long)offset, (long long)size,
                   (unsigned long long)((uint64_t)offset + (uint64_t)size), (unsigned long long)fd_size,
                   (unsigned long long)over);
}

/* ---- TIDL-RT ----------------------------------------------------------------------- */
static tl_status tidl_only(const tl_desc *d)
{
    TL_TRY(tl_desc_validate(d));
    if (d->vendor != TL_VENDOR_TIDL)
        return tl_fail(TL_ERR_VENDOR, "not a TIDL descriptor (vendor=%d): build it with tl_desc_from_tidl or a "
                       "tidl: spec, so the size follows sTIDL_IOBufDesc_t (TIDL)", (int)d->vendor);
    return TL_OK;
}

tl_status tl_tidl_shared_size(const tl_desc *d, uint64_t *bytes)
{
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL");
    TL_TRY(tidl_only(d));
    *bytes = (uint64_t)d->size_bytes;
    tl_clear_error();
    return TL_OK;
}

/* Bytes of the valid elements alone, N*C*H*W*es: what code that ignores the
 * padding allocates. 0 on overflow (then it matches nothing). */
static uint64_t dense_bytes(const tl_desc *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->rank; i++)
        if (!tl_mul_ok(n, d->dims[i], &n)) return 0;
    if (!tl_mul_ok(n, (int64_t)tl_dtype_bits((tl_dtype)d->dtype), &n)) return 0;
    return (uint64_t)n / 8;
}

tl_status tl_tidl_check_shared(const tl_desc *d, uint64_t bytes)
{
    TL_TRY(tidl_only(d));
    uint64_t need = (uint64_t)d->size_bytes, dense = dense_bytes(d);
    const int64_t *v = d->vendor_params; /* PadL, PadT, PadR, PadB, PadCh, cp, BufSize */
    char from[160];
    if (v[6] > 0)
        snprintf(from, sizeof from, "inBufSize=%lld elements x %u bytes", (long long)v[6],
                 tl_dtype_bits((tl_dtype)d->dtype) / 8);
    else
        snprintf(from, sizeof from, "NumBatches x batch pitch (this io_1.bin version has no inBufSize)");
    if (bytes == need) {
        tl_clear_error();
        return TL_OK;
    }
    if (bytes == dense)
        return tl_fail(TL_ERR_VENDOR, "bufferSize=%llu is the dense N*C*H*W size of the valid elements, but the "
                       "model's buffer is padded (PadL=%lld PadT=%lld PadR=%lld PadB=%lld PadCh=%lld): it needs "
                       "%llu bytes (%s). Allocate exactly that with TIDLRT_allocSharedMem, convert into the padded "
                       "layout, and zero the padding once (tl_tidl_zero_padding) (TIDL)",
                       (unsigned long long)bytes, (long long)v[0], (long long)v[1], (long long)v[2],
                       (long long)v[3], (long long)v[4], (unsigned long long)need, from);
    if (bytes < need)
        return tl_fail(TL_ERR_VENDOR, "bufferSize=%llu < %llu bytes (%s): too small, TIDL-RT would read and "
                       "write past the buffer (TIDL)", (unsigned long long)bytes, (unsigned long long)need, from);
    return tl_fail(TL_ERR_VENDOR, "bufferSize=%llu > %llu bytes (%s): TIDL-RT uses a shared buffer in place only "
                   "when its size equals the I/O descriptor's exactly, and copies it on every call otherwise: "
                   "pass %llu (TIDL)", (unsigned long long)bytes, (unsigned long long)need, from,
                   (unsigned long long)need);
}

/* ---- larod ----------------------------------------------------------------------------- */
tl_status tl_larod_check_fd(const tl_desc *d, int fd, uint64_t offset)
{
    uint64_t size;
    TL_TRY(tl_desc_validate(d));
    TL_TRY(tl_fd_size(fd, &size, NULL));
    if (size == 0) /* tl_larod_check_fd_size reads 0 as "not checked"; a real fd of 0 bytes holds nothing */
        return tl_fail(TL_ERR_BUFFER_SMALL, "fd=%d has 0 bytes: it must hold fd offset %llu + pitches[0] %lld "
                       "(larod)", fd, (unsigned long long)offset, (long long)d->size_bytes);
    return tl_larod_check_fd_size(d, offset, size);
}
