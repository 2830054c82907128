/* Padding fill, NEON (AArch64): memset for cache-sized buffers; for
 * destinations larger than the cache ("stream"), whole 64-byte lines with
 * STNP, the non-temporal store pair, so the zeros do not evict the data the
 * conversion still reads (the x86 twin's movntdq). Armv7 has no such store:
 * there the scalar entry (memset) is the fill. AArch64 needs no fence after
 * STNP for the caller's ordering (barriers and the pool's joins order them). */
#if defined(__aarch64__)
#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/fill/fill.inc"

void tl_zero_fill_ukernel__neon(void *dst, size_t bytes, int stream);
void tl_zero_fill_ukernel__neon(void *dst, size_t bytes, int stream)
{
    uint8_t *d = (uint8_t *)dst;
    if (!stream || bytes < 1024) {
        memset(d, 0, bytes);
        return;
    }
    size_t head = (size_t)(-(uintptr_t)d & 63);
    memset(d, 0, head);
    d += head;
    bytes -= head;
    const uint8x16_t z = vdupq_n_u8(0);
    for (; bytes >= 64; bytes -= 64, d += 64)
        __asm__ volatile("stnp %q1, %q1, [%0]\n\tstnp %q1, %q1, [%0, #32]" : : "r"(d), "w"(z) : "memory");
    memset(d, 0, bytes);
}
#endif
