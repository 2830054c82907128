/* tl_bench: the throughput benchmark as its own program (bench_core.c). */
int tl_bench_main(int argc, char **argv, const char *prog);

int main(int argc, char **argv)
{
    return tl_bench_main(argc, argv, "tl_bench");
}
