/* Parallel runs on a pool of threads (included by tlayout.h; docs/deploy.md).
 *
 * One process-wide pool of worker threads, made on first use and reused by
 * every call. A run is cut into more tiles than threads; each thread (the
 * caller's own included) takes the next tile from an atomic counter until none
 * is left, so a slow core (a LITTLE core, a core busy with something else)
 * simply takes fewer tiles. The result is byte-identical to the single-thread
 * run: the tiles are the parts of tl_plan_run_part, which write disjoint
 * destination elements with the same element rule.
 *
 * Small runs are not worth a wake-up: below 2 MiB of work (source + destination
 * bytes) per thread, fewer threads are used, and small runs stay on the
 * caller's thread. The caller runs the last tile first: when it held no work
 * (a plan whose passes part 0 does whole), no thread is woken at all.
 * A second parallel call made while the pool is busy (another thread's call,
 * or a call from inside a tile) runs on its caller's thread alone. After
 * fork(), the child makes its own pool.
 *
 * Without POSIX threads (a build without pthreads) every call runs on the
 * caller's thread; the results are the same.
 */
#ifndef TLAYOUT_PARALLEL_H
#define TLAYOUT_PARALLEL_H
#include <stddef.h>

#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

#define TL_PARALLEL_MAX_THREADS 64u /* nthreads above this: TL_ERR_UNSUPPORTED */

/* tl_plan_run with up to nthreads threads (the caller's thread counts as one).
 * nthreads = 0: tl_parallel_default_threads(). Errors and messages as
 * tl_plan_run; nothing is written unless the whole call is valid. */
TL_API tl_status tl_plan_run_parallel(const tl_plan *plan, const void *src, size_t src_len,
                                      void *dst, size_t dst_len, unsigned nthreads);

/* What nthreads = 0 means on this machine: the number of the fastest cores
 * this process may run on. Read once, from
 *   /sys/devices/system/cpu/cpuN/cpu_capacity (Arm big.LITTLE: 1024 for the
 *     biggest cores), else
 *   /sys/devices/system/cpu/cpuN/cpufreq/cpuinfo_max_freq, else
 *   every online core,
 * counting the cores within 80% of the highest value (so the two A76 clusters
 * of an RK3588 binned at 2.256 and 2.4 GHz count as one class of 4; its A55s,
 * at 40%, do not) among the cores of the process's affinity mask. */
TL_API unsigned tl_parallel_default_threads(void);

/* Pool flags, process-wide (0 = defaults). */
#define TL_PARALLEL_PIN 1u /* workers may run only on the cores nthreads = 0 counts */
/* Set the pool flags; workers apply them at their next tile run. The caller's
 * own thread is never re-pinned. TL_ERR_UNSUPPORTED for an unknown flag. Pinning
 * is a no-op where the OS has no affinity call (not Linux). */
TL_API tl_status tl_parallel_set_flags(unsigned flags);

/* Stop and join the pool's workers and free the pool (a later call makes a new
 * one). For leak checkers and before unloading the library; must not run
 * while another thread is inside a parallel call. */
TL_API void tl_parallel_shutdown(void);

#ifdef __cplusplus
}
#endif
#endif
