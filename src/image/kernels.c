/* Which image row kernels a path has (the image layer decides, kernels are told).
 * The path is the engine's choice
 * (tl_cpu_default_isa: the machine's best, or TL_CPU). */
#include <stddef.h>

#include "engine/engine.h"
#include "kernels/image/image.h"
#include "kernels/kernels.h"

static const tl_image_kernels scalar = {"scalar", tl_u8_vlinear_ukernel__scalar, tl_u8_hlinear_ukernel__scalar,
                                       tl_yuv_rgb_ukernel__scalar};
#if defined(__x86_64__)
static const tl_image_kernels sse2 = {"sse2", tl_u8_vlinear_ukernel__sse2, tl_u8_hlinear_ukernel__scalar,
                                     tl_yuv_rgb_ukernel__scalar};
static const tl_image_kernels avx2 = {"avx2", tl_u8_vlinear_ukernel__avx2, tl_u8_hlinear_ukernel__avx2,
                                     tl_yuv_rgb_ukernel__avx2};
#endif
#if defined(__aarch64__) || defined(__arm__)
static const tl_image_kernels neon = {"neon", tl_u8_vlinear_ukernel__neon, tl_u8_hlinear_ukernel__neon,
                                     tl_yuv_rgb_ukernel__neon};
#endif

const tl_image_kernels *tl_image_kernels_for(int isa)
{
    if (!tl_cpu_has(isa)) return NULL;
    switch (isa) {
    case TL_ISA_SCALAR: return &scalar;
#if defined(__x86_64__)
    case TL_ISA_SSE2: return &sse2;
    case TL_ISA_AVX2:
    case TL_ISA_AVX512: return &avx2; /* no AVX-512 forms: AVX2's */
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
