/* tl_bench: the throughput benchmark as its own program (programs/bench.c). */
#include "bench.h"

int main(int argc, char **argv)
{
    return tl_bench_main(argc, argv, "tl_bench");
}
