/* Which image row kernels a path has (the image layer decides, kernels are told).
 * The path is the engine's choice
 * (tl_cpu_default_isa: the machine's best, or TL_CPU). */
#include <stddef.h>

#include "engine/engine.h"
#include "kernels/image/image.h"
#include "kernels/kernels.h"

#define TL_FAST_SCALAR tl_u8_pick_ukernel__scalar, tl_u8_hlinear_fast_ukernel__scalar, tl_u8_vlinear_fast_ukernel__scalar, \
                       tl_yuv_rgb_fast_ukernel__scalar
static const tl_image_kernels scalar = {"scalar", tl_u8_vlinear_ukernel__scalar, tl_u8_hlinear_ukernel__scalar,
                                       tl_yuv_rgb_ukernel__scalar, TL_FAST_SCALAR,
                                       NULL}; /* no fused row: its twin steps a shared chroma row twice (19 % slower here) */
#if defined(__x86_64__)
static const tl_image_kernels sse2 = {"sse2", tl_u8_vlinear_ukernel__sse2, tl_u8_hlinear_ukernel__scalar,
                                     tl_yuv_rgb_ukernel__sse2, tl_u8_pick_ukernel__scalar,
                                     tl_u8_hlinear_fast_ukernel__scalar, tl_u8_vlinear_fast_ukernel__sse2,
                                     tl_yuv_rgb_fast_ukernel__sse2, NULL};
static const tl_image_kernels avx2 = {"avx2", tl_u8_vlinear_ukernel__avx2, tl_u8_hlinear_ukernel__avx2,
                                     tl_yuv_rgb_ukernel__avx2, tl_u8_pick_ukernel__avx2,
                                     tl_u8_hlinear_fast_ukernel__avx2, tl_u8_vlinear_fast_ukernel__avx2,
                                     tl_yuv_rgb_fast_ukernel__avx2, NULL};
/* AVX-512 BW: its vertical steps and fast colour, AVX2's byte-gathering
 * kernels; with VBMI (vpermb) the fast mode's pick, horizontal step and RGB
 * interleave too. */
static const tl_image_kernels avx512 = {"avx512", tl_u8_vlinear_ukernel__avx512, tl_u8_hlinear_ukernel__avx2,
                                       tl_yuv_rgb_ukernel__avx2, tl_u8_pick_ukernel__avx2,
                                       tl_u8_hlinear_fast_ukernel__avx2, tl_u8_vlinear_fast_ukernel__avx512,
                                       tl_yuv_rgb_fast_ukernel__avx512, NULL};
static const tl_image_kernels avx512vbmi = {"avx512vbmi", tl_u8_vlinear_ukernel__avx512, tl_u8_hlinear_ukernel__avx2,
                                           tl_yuv_rgb_ukernel__avx2, tl_u8_pick_ukernel__avx512vbmi,
                                           tl_u8_hlinear_fast_ukernel__avx512vbmi, tl_u8_vlinear_fast_ukernel__avx512,
                                           tl_yuv_rgb_fast_ukernel__avx512vbmi, tl_yuv_rgb_fused_ukernel__avx512vbmi};
#endif
#if defined(__aarch64__)
#define TL_NEON_PICK tl_u8_pick_ukernel__neon, tl_u8_hlinear_fast_ukernel__neon /* fast_neon.c: 64-byte lookups */
#else
#define TL_NEON_PICK tl_u8_pick_ukernel__scalar, tl_u8_hlinear_fast_ukernel__scalar /* Armv7: 32-byte lookups only */
#endif
#if defined(__aarch64__) || defined(__arm__)
static const tl_image_kernels neon = {"neon", tl_u8_vlinear_ukernel__neon, tl_u8_hlinear_ukernel__neon,
                                     tl_yuv_rgb_ukernel__neon, TL_NEON_PICK, tl_u8_vlinear_fast_ukernel__neon,
                                     tl_yuv_rgb_fast_ukernel__neon, NULL};
#endif

const tl_image_kernels *tl_image_kernels_for(int isa)
{
    if (!tl_cpu_has(isa)) return NULL;
    switch (isa) {
    case TL_ISA_SCALAR: return &scalar;
#if defined(__x86_64__)
    case TL_ISA_SSE2: return &sse2;
    case TL_ISA_AVX2: return &avx2;
    case TL_ISA_AVX512: return tl_cpu_avx512vbmi() ? &avx512vbmi : &avx512;
#endif
#if defined(__aarch64__) || defined(__arm__)
    case TL_ISA_NEON: return &neon;
#endif
    default: return NULL;
    }
}

const tl_image_kernels *tl_image_kernels_best(void)
{
    const tl_image_kernels *k = tl_image_kernels_for(tl_cpu_default_isa());
    return k ? k : &scalar;
}
