/* The convert rows' 8-bit affine maps on NEON (AArch64 and Armv7): a loop
 * per byte map, in a file of their own so that their twenty
 * instantiations do not change how the compiler inlines convert/neon.c's
 * row kernels (measured: with them there, GCC stopped inlining the Armv7
 * f16 rows' blocks and they cost 3 % more instructions under qemu). */
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/convert/affine8_neon.h"

/* 8-bit tables that are an affine map (tl_cvt affine8), as the byte map
 * tl_map8_of names it (one instantiation per map: the loop carries no
 * tests): in bytes where the map allows (one or two instructions per 16
 * codes), else 16 codes widened to 16 bits, times mul plus add (one
 * multiply-accumulate), shifted right with the map's rounding (bias and the
 * kept bit added first when the rounding is half to even), narrowed with
 * saturation; the last codes through the table. */
static inline __attribute__((always_inline)) void affine8_steps(const uint8_t *sp, uint8_t *dp, size_t n,
                                                                const tl_cvt *cv, const tl_aff8n *k, int map)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) vst1q_u8(dp + i, tl_map8_bytes(vld1q_u8(sp + i), k, map));
    for (; i < n; i++) dp[i] = cv->lut[sp[i]];
}

void tl_affine8_row__neon(const uint8_t *sp, uint8_t *dp, size_t n, const tl_cvt *cv, int map)
{
    const tl_aff8n k = tl_aff8n_init(cv);
#define TL_AFFINE8(M) affine8_steps(sp, dp, n, cv, &k, M)
    TL_MAP8_SWITCH(map, TL_AFFINE8)
#undef TL_AFFINE8
}

#endif
