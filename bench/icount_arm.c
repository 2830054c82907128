/* icount_arm: the instruction counts behind docs/performance.md's Arm table,
 * for when no Arm board is at hand. For every case of tl_bench (the same
 * table, programs/bench.c) at each size it runs the plan once and memcpy of
 * the same bytes once (half the dense bytes, source to destination, as
 * tl_bench's baseline), calling tl_icount_mark() before, between and after.
 * Under qemu-user with bench/icount_plugin.c, which prints the instructions
 * executed between consecutive marks, that gives instructions per byte:
 * deterministic, unlike time under emulation. bench/icount_arm.sh builds
 * both for aarch64 and armv7 and joins the counts into the table; TL_CPU
 * picks the path (neon or scalar) as for any program.
 *
 * stdout: one line per case and size, "name<TAB>size<TAB>dense bytes<TAB>kernels",
 * in the order of the marks (three per line: before the run, after it, after
 * memcpy). Natively it runs the same (the marks do nothing). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The marker the plugin watches (by address, from nm). Not inlined, and the
 * asm keeps calls to it from being merged or dropped. */
__attribute__((noinline)) void tl_icount_mark(void);
__attribute__((noinline)) void tl_icount_mark(void)
{
    __asm__ volatile("" ::: "memory");
}

static volatile unsigned char g_sink; /* keeps the copies observable */

/* One case at one size: 0, or -1 when the case does not exist there. */
static int count_case(size_t i, size_t size)
{
    tl_desc s, d;
    case_shape sh;
    tl_plan *plan = NULL;
    if (tl_bench_case_tensors(i, size, &s, &d, &sh) != 0 || tl_plan_create(&plan, &s, &d, 0) != TL_OK) {
        fprintf(stderr, "icount_arm: case '%s' skipped: %s\n", tl_bench_case_name(i), tl_last_error());
        return -1;
    }
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes, half = (size_t)(sh.bytes / 2);
    size_t sn = sl > half ? sl : half, dn = dl > half ? dl : half;
    unsigned char *src = malloc(sn), *dst = calloc(1, dn);
    if (!src || !dst) {
        free(src), free(dst), tl_plan_destroy(plan);
        return -1;
    }
    /* bytes <= 0x3F: every f32 and f16 value is a finite normal number */
    for (size_t k = 0; k < sn; k++) src[k] = (unsigned char)((k * 37 + 11) & 0x3F);
    char kernels[160];
    tl_bench_plan_kernels(plan, kernels, sizeof kernels);
    tl_icount_mark();
    tl_status st = tl_plan_run(plan, src, sl, dst, dl);
    tl_icount_mark();
    memcpy(dst, src, half);
    tl_icount_mark();
    g_sink = dst[half / 2];
    printf("%s\t%zu\t%.0f\t%s\n", tl_bench_case_name(i), size, sh.bytes, st == TL_OK ? kernels : "(failed)");
    free(src), free(dst), tl_plan_destroy(plan);
    return 0;
}

int main(int argc, char **argv)
{
    size_t sizes[8] = {(size_t)4 << 10, (size_t)256 << 10};
    int nsizes = 2;
    const char *filter = NULL;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--case") == 0 && a + 1 < argc) {
            filter = argv[++a];
        } else if (strcmp(argv[a], "--size") == 0 && a + 1 < argc) {
            nsizes = 0;
            for (char *t = strtok(argv[++a], ","); t && nsizes < 8; t = strtok(NULL, ",")) {
                char *end;
                unsigned long v = strtoul(t, &end, 10);
                sizes[nsizes++] = (size_t)v << (*end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : 0);
            }
        } else {
            fprintf(stderr, "usage: icount_arm [--size N[K|M],...] [--case SUBSTRING]  (default sizes 4K,256K)\n");
            return 2;
        }
    }
    for (int z = 0; z < nsizes; z++)
        for (size_t i = 0; i < tl_bench_case_count(); i++)
            if (!filter || strstr(tl_bench_case_name(i), filter)) count_case(i, sizes[z]);
    return 0;
}
