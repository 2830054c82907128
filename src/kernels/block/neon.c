/* Block pack/unpack for V = 4 of 32-bit elements, NEON: a block of 4 planes
 * is a 4-channel interleave (vst4) and back (vld4). */
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void tl_x32_pack4_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                size_t n1);
void tl_x32_pack4_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                size_t n1)
{
    size_t i = 0;
    (void)n0;
    if (ds1 == 16)
        for (; i + 4 <= n1; i += 4) {
            uint32x4x4_t v = {{vld1q_u32((const uint32_t *)(src + 4 * i)), vld1q_u32((const uint32_t *)(src + ss0 + 4 * i)),
                               vld1q_u32((const uint32_t *)(src + 2 * ss0 + 4 * i)),
                               vld1q_u32((const uint32_t *)(src + 3 * ss0 + 4 * i))}};
            vst4q_u32((uint32_t *)(dst + 16 * i), v);
        }
    for (; i < n1; i++)
        for (int v = 0; v < 4; v++) memcpy(dst + (ptrdiff_t)i * ds1 + 4 * v, src + v * ss0 + 4 * (ptrdiff_t)i, 4);
}

void tl_x32_unpack4_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                  size_t n1);
void tl_x32_unpack4_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                  size_t n1)
{
    size_t i = 0;
    (void)n1;
    if (ss0 == 16)
        for (; i + 4 <= n0; i += 4) {
            uint32x4x4_t v = vld4q_u32((const uint32_t *)(src + 16 * i));
            for (int k = 0; k < 4; k++) vst1q_u32((uint32_t *)(dst + k * ds1 + 4 * (ptrdiff_t)i), v.val[k]);
        }
    for (; i < n0; i++)
        for (int v = 0; v < 4; v++) memcpy(dst + v * ds1 + 4 * (ptrdiff_t)i, src + (ptrdiff_t)i * ss0 + 4 * v, 4);
}
#endif
