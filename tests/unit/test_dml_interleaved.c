/* DirectML interleaved-channel (NHWC-style) strides for every rank 1..8, as
 * DirectMLX's TensorPolicy::InterleavedChannel computes them: hand-worked
 * vectors, then random sizes against the layout written another way: the
 * element (n, c, s2..s(k-1)) sits at c + C * (row-major index of the spatial
 * coordinates) + n * C * (product of the spatial sizes). */
#include <string.h>

#include "tl_test.h"

static void check(uint32_t n, const uint32_t *sizes, const uint32_t *want, const char *what)
{
    uint32_t got[8];
    REQUIRE_STATUS(tl_dml_calc_strides(TL_DML_LAYOUT_NHWC, n, sizes, 0, got), TL_OK);
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != want[i]) FAILF("%s: Strides[%u] = %u, want %u", what, i, got[i], want[i]);
}

TL_TEST(hand_vectors)
{
    check(1, (const uint32_t[]){7}, (const uint32_t[]){1}, "rank 1");
    check(2, (const uint32_t[]){4, 3}, (const uint32_t[]){3, 1}, "rank 2 (= packed)");
    check(6, (const uint32_t[]){2, 3, 2, 2, 2, 2}, (const uint32_t[]){48, 1, 24, 12, 6, 3}, "rank 6");
    check(7, (const uint32_t[]){1, 4, 2, 3, 1, 2, 5}, (const uint32_t[]){240, 1, 120, 40, 40, 20, 4}, "rank 7");
    check(8, (const uint32_t[]){2, 3, 2, 2, 2, 2, 2, 2}, (const uint32_t[]){192, 1, 96, 48, 24, 12, 6, 3}, "rank 8");
    /* broadcast: the dim counts as 1 and strides 0 */
    uint32_t got[8];
    REQUIRE_STATUS(tl_dml_calc_strides(TL_DML_LAYOUT_NHWC, 6, (const uint32_t[]){2, 3, 2, 2, 2, 2}, 1u << 3, got),
                   TL_OK);
    const uint32_t want[6] = {24, 1, 12, 0, 6, 3};
    CHECK_MEM_EQ(got, want, sizeof want);
}

TL_TEST(specs_and_sizes)
{
    tl_desc d;
    uint64_t off;
    REQUIRE_STATUS(tl_desc_parse(&d, "dml.nhwc:u8:2x3x2x2x2x2"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 96);
    /* (n 1, c 2, s 1,0,1,1) at 48 + 2 + 24 + 6 + 3 */
    REQUIRE_STATUS(tl_desc_offset(&d, (const int64_t[]){1, 2, 1, 0, 1, 1}, &off), TL_OK);
    CHECK_EQ_I64((int64_t)off, 48 + 2 + 24 + 6 + 3);
    REQUIRE_STATUS(tl_desc_parse(&d, "dml.nhwc:f16:5"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 12); /* 10 bytes rounded up to 4 */
    char buf[1024];
    REQUIRE_STATUS(tl_desc_explain_vendor(&d, buf, sizeof buf, NULL), TL_OK);
    CHECK_STR_CONTAINS(buf, "InterleavedChannel policy does for 1 dims");
}

TL_TEST(random_sizes_every_rank)
{
    tl_rng r = tl_test_rng();
    for (int k = 0; k < 400 && TL_TEST_FAILURES() == 0; k++) {
        uint32_t n = (uint32_t)tl_rng_range(&r, 1, 8), sizes[8], st[8];
        for (uint32_t i = 0; i < n; i++) sizes[i] = (uint32_t)tl_rng_range(&r, 1, 5);
        REQUIRE_STATUS(tl_dml_calc_strides(TL_DML_LAYOUT_NHWC, n, sizes, 0, st), TL_OK);
        uint32_t C = n >= 2 ? sizes[1] : 1, spatial = 1;
        for (uint32_t i = 2; i < n; i++) spatial *= sizes[i];
        for (int t = 0; t < 20; t++) {
            uint32_t x[8], lin = 0;
            uint64_t got = 0;
            for (uint32_t i = 0; i < n; i++) {
                x[i] = (uint32_t)tl_rng_range(&r, 0, sizes[i] - 1);
                got += (uint64_t)x[i] * st[i];
            }
            for (uint32_t i = 2; i < n; i++) lin = lin * sizes[i] + x[i];
            uint64_t want = (n >= 2 ? x[1] : 0) + (uint64_t)C * lin + (uint64_t)x[0] * C * spatial;
            if (got != want) {
                FAILF("rank %u: offset %llu, want %llu", n, (unsigned long long)got, (unsigned long long)want);
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(hand_vectors);
    TL_RUN(specs_and_sizes);
    TL_RUN(random_sizes_every_rank);
    return tl_test_finish();
}
