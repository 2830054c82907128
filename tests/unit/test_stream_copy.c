/* The move family's streaming copies (kernels/move/move.h: SSE2 and AVX-512
 * on x86, STNP on AArch64, memcpy elsewhere) against memcpy: every length up to a few
 * lines and some long ones, every destination alignment within a line, odd
 * source offsets, with sentinels on both sides of the destination. */
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h" /* tl_cpu_runs */
#include "kernels/move/move.h"
#include "tl_test.h"

typedef struct stream_kernel {
    const char *name;
    tl_stream_fn fn;
    int isa; /* the path it needs */
} stream_kernel;

static const stream_kernel k_stream[] = {
#if defined(__x86_64__) || defined(_M_X64)
    {"tl_stream_copy_ukernel__sse2", tl_stream_copy_ukernel__sse2, TL_ISA_SSE2},
    {"tl_stream_copy_ukernel__avx512", tl_stream_copy_ukernel__avx512, TL_ISA_AVX512},
#endif
#if defined(__aarch64__)
    {"tl_stream_copy_ukernel__neon", tl_stream_copy_ukernel__neon, TL_ISA_NEON},
#endif
    {"tl_stream_copy_ukernel__scalar", tl_stream_copy_ukernel__scalar, TL_ISA_SCALAR},
};

enum { PAD = 80, MAXN = 4200 };

TL_TEST(stream_copy_matches_memcpy)
{
    tl_rng r = tl_test_rng();
    static uint8_t src[MAXN + 64], buf[MAXN + 2 * PAD + 64];
    tl_rng_bytes(&r, src, sizeof src);
    for (size_t k = 0; k < sizeof k_stream / sizeof k_stream[0]; k++)
        for (size_t n = 0; n <= MAXN && TL_TEST_FAILURES() == 0 && tl_cpu_runs(k_stream[k].isa, 0); n += n < 300 ? 1 : (size_t)tl_rng_range(&r, 1, 400)) {
            size_t dmis = (size_t)tl_rng_range(&r, 0, 63), smis = (size_t)tl_rng_range(&r, 0, 63);
            memset(buf, 0xA5, sizeof buf);
            k_stream[k].fn(buf + PAD + dmis, src + smis, n);
            tl_store_fence();
            for (size_t i = 0; i < sizeof buf; i++) {
                int inside = i >= PAD + dmis && i < PAD + dmis + n;
                uint8_t want = inside ? src[smis + i - PAD - dmis] : 0xA5;
                if (buf[i] != want) {
                    FAILF("%s n=%zu dst+%zu src+%zu: byte %zu", k_stream[k].name, n, dmis, smis, i);
                    break;
                }
            }
        }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(stream_copy_matches_memcpy);
    return tl_test_finish();
}
