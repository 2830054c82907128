/* Byte transpose, AVX-512 F/BW/VL + VBMI: x86_bytes512.h with the byte
 * shuffle and the dword permute of each register done by one vpermb (80
 * shuffles per KiB instead of 96). Listed before the F/BW/VL form under the
 * AVX-512 path; without VBMI it calls that form. The file is compiled without
 * ISA flags (its name is not an ISA's): its functions carry target
 * attributes. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernels.h"

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/transpose/sse2_micro.h"
#include "kernels/transpose/x86_tile.h"

#define TL_B512_VBMI 1
#include "kernels/transpose/x86_bytes512.h"
#endif
