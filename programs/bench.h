/* The throughput benchmark (programs/bench.c), one module linked by both
 * `tlayout bench` and bench/tl_bench (with oneDNN's column when that build
 * has TL_BENCH_HAVE_DNNL). Public API only. */
#ifndef TL_PROGRAMS_BENCH_H
#define TL_PROGRAMS_BENCH_H

/* The whole program: options in argv[1..], `prog` names it in messages.
 * Returns the exit status. */
int tl_bench_main(int argc, char **argv, const char *prog);

#endif
