/* Which cores count as "fast": sysfs capacity, else max frequency, else all.
 * On big.LITTLE boards (RK3588: 4 x A76 + 4 x A55) a thread on a LITTLE core
 * runs at a third of the speed; more threads than big cores make a job wait
 * for its slowest tiles, which is how "8 threads slower than 1" happens. */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity, CPU_* */
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

#include "parallel/parallel.h"

unsigned tl_cpuset_count(const tl_cpuset *s)
{
    unsigned n = 0;
    for (size_t i = 0; i < sizeof s->w / sizeof s->w[0]; i++)
        for (uint64_t w = s->w[i]; w; w &= w - 1) n++;
    return n;
}

/* One unsigned decimal from a small sysfs file; 0 when absent or malformed. */
static uint64_t read_number(const char *root, unsigned cpu, const char *leaf)
{
    char path[512];
    if (snprintf(path, sizeof path, "%s/cpu%u/%s", root, cpu, leaf) >= (int)sizeof path) return 0;
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1) v = 0;
    fclose(f);
    return (uint64_t)v;
}

/* The cores of `allowed` whose value is within 80% of the best; 0 when some
 * core has no value (a partial table would rank cores it cannot see). */
static unsigned by_value(const char *root, const char *leaf, const tl_cpuset *allowed, tl_cpuset *fast)
{
    uint64_t value[TL_PAR_MAX_CPUS]; /* 8 KiB of stack, read once per process */
    uint64_t best = 0;
    for (unsigned c = 0; c < TL_PAR_MAX_CPUS; c++) {
        if (!tl_cpuset_has(allowed, c)) continue;
        value[c] = read_number(root, c, leaf);
        if (value[c] == 0) return 0;
        if (value[c] > best) best = value[c];
    }
    memset(fast, 0, sizeof *fast);
    for (unsigned c = 0; c < TL_PAR_MAX_CPUS; c++)
        if (tl_cpuset_has(allowed, c) && value[c] * 5 >= best * 4) tl_cpuset_add(fast, c);
    return tl_cpuset_count(fast);
}

unsigned tl_par_fast_cpus(const char *root, const tl_cpuset *allowed, tl_cpuset *fast, int *source)
{
    unsigned n;
    if (tl_cpuset_count(allowed) == 0) {
        memset(fast, 0, sizeof *fast);
        *source = TL_PAR_SRC_ALL;
        return 0;
    }
    if ((n = by_value(root, "cpu_capacity", allowed, fast)) > 0) {
        *source = TL_PAR_SRC_CAPACITY;
        return n;
    }
    if ((n = by_value(root, "cpufreq/cpuinfo_max_freq", allowed, fast)) > 0) {
        *source = TL_PAR_SRC_MAXFREQ;
        return n;
    }
    *fast = *allowed;
    *source = TL_PAR_SRC_ALL;
    return tl_cpuset_count(fast);
}

void tl_par_allowed_cpus(tl_cpuset *allowed)
{
    memset(allowed, 0, sizeof *allowed);
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (unsigned c = 0; c < TL_PAR_MAX_CPUS && c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set)) tl_cpuset_add(allowed, c);
        if (tl_cpuset_count(allowed) > 0) return;
    }
#endif
    long n = 1;
#if defined(_SC_NPROCESSORS_ONLN)
    n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (n < 1) n = 1;
    for (long c = 0; c < n && c < TL_PAR_MAX_CPUS; c++) tl_cpuset_add(allowed, (unsigned)c);
}

void tl_par_pin_self(const tl_cpuset *cpus)
{
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    for (unsigned c = 0; c < TL_PAR_MAX_CPUS && c < CPU_SETSIZE; c++)
        if (tl_cpuset_has(cpus, c)) CPU_SET(c, &set);
    (void)sched_setaffinity(0, sizeof set, &set); /* best effort: a refused mask leaves the thread as it was */
#else
    (void)cpus;
#endif
}
