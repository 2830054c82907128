/* The generic parallel entry and the core detection behind it (internal).
 *
 * Any "run part k of n" function becomes parallel with one small wrapper:
 *
 *   typedef struct { const tl_image_plan *p; const void *src; size_t sl; void *dst; size_t dl; } img_job;
 *   static tl_status img_part(void *ctx, unsigned part, unsigned nparts)
 *   {
 *       const img_job *j = ctx;
 *       return tl_image_plan_run_part(j->p, part, nparts, j->src, j->sl, j->dst, j->dl);
 *   }
 *   tl_status tl_image_plan_run_parallel(const tl_image_plan *p, const void *src, size_t sl,
 *                                        void *dst, size_t dl, unsigned nthreads)
 *   {
 *       img_job j = {p, src, sl, dst, dl};
 *       return tl_par_run(img_part, &j, tl_par_work(sl, dl), nthreads);
 *   }
 *
 * The part function must (1) write disjoint destination bytes for different
 * parts, parts 0..n-1 together doing the whole run, for ANY n; (2) check its
 * arguments identically in every part and write nothing when they fail, so a
 * bad call fails before any tile writes; (3) be callable from several threads
 * at once. tl_plan_run_part has all three (src/parallel/plan.c).
 */
#ifndef TL_PARALLEL_INTERNAL_H
#define TL_PARALLEL_INTERNAL_H

#include <stdint.h>

#include "tlayout.h"

/* Run part `part` of `nparts` of a job described by ctx. */
typedef tl_status (*tl_par_part_fn)(void *ctx, unsigned part, unsigned nparts);

/* Run parts of fn on up to nthreads threads (0 = tl_parallel_default_threads(),
 * never more than tl_par_threads allows) with tiles from an atomic counter.
 * work_bytes (bytes the whole job reads and writes) sets how many threads
 * and tiles pay off; 0 = run inline. The first failing part's status and
 * message are returned on the caller's thread. tiles_per_thread: balance
 * (more, smaller tiles) against what each tile costs besides its share of
 * the work (a part that recomputes rows at its edges wants fewer). */
tl_status tl_par_run_tiles(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads,
                           unsigned tiles_per_thread);
#define TL_PAR_TILES_PER_THREAD 32u /* tiles per thread: a tile's own cost is small beside 256 KiB */
static inline tl_status tl_par_run(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads)
{
    return tl_par_run_tiles(fn, ctx, work_bytes, nthreads, TL_PAR_TILES_PER_THREAD);
}

/* The threads a job asked to run on nthreads may use: nthreads (0 = the fast
 * cores), at most the cores this process may run on. */
unsigned tl_par_threads(unsigned nthreads);

/* Work estimate of a run over buffers of these lengths (saturating). */
static inline uint64_t tl_par_work(size_t src_len, size_t dst_len)
{
    uint64_t s = (uint64_t)src_len, d = (uint64_t)dst_len;
    return s > UINT64_MAX - d ? UINT64_MAX : s + d;
}

/* How tl_par_run cuts a job: threads used and tiles, from the threads it may
 * use and the work. Exposed for tests. */
void tl_par_split_tiles(uint64_t work_bytes, unsigned nthreads, unsigned per_thread, unsigned *threads,
                        unsigned *tiles);
void tl_par_split(uint64_t work_bytes, unsigned nthreads, unsigned *threads, unsigned *tiles);
#define TL_PAR_MIN_THREAD_BYTES ((uint64_t)2 << 20)   /* work per thread below which fewer threads run */
#define TL_PAR_MIN_TILE_BYTES ((uint64_t)256 << 10)   /* smallest tile worth a counter step */

/* ---- cores -------------------------------------------------------------- */
#define TL_PAR_MAX_CPUS 1024
typedef struct tl_cpuset {
    uint64_t w[TL_PAR_MAX_CPUS / 64];
} tl_cpuset;
static inline void tl_cpuset_add(tl_cpuset *s, unsigned cpu) { s->w[cpu / 64] |= UINT64_C(1) << (cpu % 64); }
static inline int tl_cpuset_has(const tl_cpuset *s, unsigned cpu)
{
    return (int)((s->w[cpu / 64] >> (cpu % 64)) & 1u);
}
unsigned tl_cpuset_count(const tl_cpuset *s);

/* Where the fastest cores came from. */
enum { TL_PAR_SRC_ALL = 0, TL_PAR_SRC_CAPACITY = 1, TL_PAR_SRC_MAXFREQ = 2 };
/* The fastest cores among `allowed`, read from sysfs under root (normally
 * "/sys/devices/system/cpu"): cores within 80% of the highest cpu_capacity,
 * else of the highest cpufreq/cpuinfo_max_freq (only when every allowed core
 * has the file), else all of `allowed`. Returns the count; *source tells which. */
unsigned tl_par_fast_cpus(const char *root, const tl_cpuset *allowed, tl_cpuset *fast, int *source);
/* The cores this process may run on (its affinity mask; else 0..online-1). */
void tl_par_allowed_cpus(tl_cpuset *allowed);
/* The fast set of this machine, computed once. */
const tl_cpuset *tl_par_machine_fast(unsigned *count);
/* Restrict the calling thread to `cpus` (Linux; a no-op elsewhere). */
void tl_par_pin_self(const tl_cpuset *cpus);

#endif
