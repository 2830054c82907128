/* The end of a destination row for the AVX-512 kernels that run rows of
 * pixels (tl_px_rows): from byte `at` of the row, the lines v[0 .. nv)
 * (the last pixels, zero past them), then zeros up to byte `end` (the row's
 * pixels and its gap): whole 64-byte stores while they fit, streamed when nt
 * (d + at on a line), the last one masked. Not installed. */
#ifndef TL_ROW_END512_H
#define TL_ROW_END512_H
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#include "kernels/kernels.h"    /* tl_store_line */
#include "kernels/move/move.h"  /* tl_first_bits */

__attribute__((target("avx512f,avx512bw"), always_inline)) static inline void
tl_row_end512(uint8_t *d, size_t at, size_t end, const __m512i *v, size_t nv, int nt)
{
    for (size_t j = 0; at < end; j++, at += 64) {
        __m512i x = j < nv ? v[j] : _mm512_setzero_si512();
        if (at + 64 <= end) tl_store_line(d + at, x, nt);
        else _mm512_mask_storeu_epi8(d + at, tl_first_bits((ptrdiff_t)(end - at)), x);
    }
}
#endif
#endif
