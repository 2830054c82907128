/* The throughput benchmark (programs/bench.c), one module linked by both
 * `tlayout bench` and bench/tl_bench (with oneDNN's and XNNPACK's columns
 * when that build has TL_BENCH_HAVE_DNNL / TL_BENCH_HAVE_XNNPACK), and by
 * bench/icount_arm.c, which counts instructions over the same cases. Public
 * API only. */
#ifndef TL_PROGRAMS_BENCH_H
#define TL_PROGRAMS_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "tlayout.h"

/* The whole program: options in argv[1..], `prog` names it in messages.
 * Returns the exit status. */
int tl_bench_main(int argc, char **argv, const char *prog);

/* A case's tensors: nb images of c x h x w; bytes = the source's plus the
 * destination's buffer bytes (padding and subsampling included), the bytes
 * the GB/s figures count. */
typedef struct case_shape {
    int64_t nb, c, h, w;
    double bytes;
} case_shape;

/* The benchmark's cases, in table order. */
size_t tl_bench_case_count(void);
const char *tl_bench_case_name(size_t i); /* NULL past the end */
/* Case i's source and destination for `size` bytes of its larger dense side.
 * 0, or -1 (tl_last_error says why). */
int tl_bench_case_tensors(size_t i, size_t size, tl_desc *s, tl_desc *d, case_shape *sh);
/* The kernel names of a plan (tl_plan_describe), blank-separated, into out[n]. */
void tl_bench_plan_kernels(const tl_plan *p, char *out, size_t n);

#endif
