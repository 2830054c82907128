/* The move family's streaming copy, NEON (AArch64; move.h): whole 64-byte
 * destination lines with STNP, the non-temporal store pair, the partial
 * lines at the ends with memcpy. Armv7 has no non-temporal store: it keeps
 * the scalar entry (memcpy). No fence is needed after STNP on AArch64
 * (tl_store_fence stays empty there). */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/move/move.h"

void tl_stream_copy_ukernel__neon(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = tl_stream_head(d, s, n);
    for (; i + 64 <= n; i += 64) {
        uint8x16_t a = vld1q_u8(s + i), b = vld1q_u8(s + i + 16), c = vld1q_u8(s + i + 32), e = vld1q_u8(s + i + 48);
        __asm__ volatile("stnp %q1, %q2, [%0]\n\tstnp %q3, %q4, [%0, #32]"
                         :
                         : "r"(d + i), "w"(a), "w"(b), "w"(c), "w"(e)
                         : "memory");
    }
    memcpy(d + i, s + i, n - i);
}
#endif
