/* RGB bytes from three registers of 16 channel values (SSSE3 byte shuffles),
 * shared by the AVX2 and AVX-512 image kernels. Included by x86 kernel files
 * compiled with at least SSSE3. */
#ifndef TL_KERNELS_IMAGE_X86_RGB_H
#define TL_KERNELS_IMAGE_X86_RGB_H

#include <immintrin.h>
#include <stdint.h>

static const int8_t rgb_shuffle[3][3][16] = { /* [channel][output block][byte]: source pixel or -128 */
    {{0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128, 5},
     {-128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10, -128},
     {-128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128, -128}},
    {{-128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128, -128},
     {5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128, 10},
     {-128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15, -128}},
    {{-128, -128, 0, -128, -128, 1, -128, -128, 2, -128, -128, 3, -128, -128, 4, -128},
     {-128, 5, -128, -128, 6, -128, -128, 7, -128, -128, 8, -128, -128, 9, -128, -128},
     {10, -128, -128, 11, -128, -128, 12, -128, -128, 13, -128, -128, 14, -128, -128, 15}},
};

static inline void store_rgb(uint8_t *out, __m128i r, __m128i g, __m128i b)
{
    for (int k = 0; k < 3; k++) {
        __m128i o = _mm_or_si128(_mm_shuffle_epi8(r, _mm_loadu_si128((const __m128i *)rgb_shuffle[0][k])),
                                 _mm_shuffle_epi8(g, _mm_loadu_si128((const __m128i *)rgb_shuffle[1][k])));
        o = _mm_or_si128(o, _mm_shuffle_epi8(b, _mm_loadu_si128((const __m128i *)rgb_shuffle[2][k])));
        _mm_storeu_si128((__m128i *)(out + 16 * k), o);
    }
}

#endif
