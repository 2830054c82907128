/* tlayout bench [--json] [--quick] [--size N,...] [--case S]: the throughput
 * benchmark of bench/ (the same code; without the oneDNN column, which only
 * the bench/tl_bench build links). */
#include "../bench/bench_core.c"

#include "cli.h"

int cmd_bench(int argc, char **argv)
{
    return tl_bench_main(argc, argv, "tlayout bench");
}
