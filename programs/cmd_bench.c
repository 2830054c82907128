/* tlayout bench [--json] [--quick] [--size N,...] [--case S]: the throughput
 * benchmark (programs/bench.c, also bench/tl_bench; only that build has the
 * oneDNN column). */
#include "bench.h"
#include "cli.h"

int cmd_bench(int argc, char **argv)
{
    return tl_bench_main(argc, argv, "tlayout bench");
}
