/* The thread pool: made on first use, one job at a time, tiles from an atomic
 * counter. The caller's thread works on its own job too, so a job never waits
 * for a worker to wake up: late workers find the counter exhausted and go back
 * to sleep. The caller waits only for tiles that were handed out, never for a
 * worker that joined but was descheduled before taking one (on a loaded or
 * big.LITTLE machine that wait would cost a scheduler time slice): the counter
 * carries the job's number, so a late worker cannot take a tile of a later job,
 * and the job's data stay valid until its last tile is done. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, sigset_t under -std=c11 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"
#include "parallel/parallel.h"

#if defined(TL_HAVE_PTHREADS)
#include <pthread.h>
#include <signal.h>
#endif

void tl_par_split_tiles(uint64_t work_bytes, unsigned nthreads, unsigned per_thread, unsigned *threads,
                        unsigned *tiles)
{
    uint64_t by_work = work_bytes / TL_PAR_MIN_THREAD_BYTES;
    unsigned t = nthreads == 0 ? 1 : nthreads;
    if (by_work < t) t = by_work ? (unsigned)by_work : 1u;
    uint64_t n = (uint64_t)t * (per_thread ? per_thread : 1u), most = work_bytes / TL_PAR_MIN_TILE_BYTES;
    if (n > most) n = most;
    if (n < t) n = t;
    *threads = t;
    *tiles = t <= 1 ? 1u : (unsigned)n;
}

void tl_par_split(uint64_t work_bytes, unsigned nthreads, unsigned *threads, unsigned *tiles)
{
    tl_par_split_tiles(work_bytes, nthreads, TL_PAR_TILES_PER_THREAD, threads, tiles);
}

/* ---- this machine's cores ---------------------------------------------------- */
static tl_cpuset g_allowed, g_fast;
static unsigned g_nfast, g_nallowed;

static void machine_init(void)
{
    int source;
    tl_par_allowed_cpus(&g_allowed);
    g_nallowed = tl_cpuset_count(&g_allowed);
    if (g_nallowed == 0) g_nallowed = 1;
    g_nfast = tl_par_fast_cpus("/sys/devices/system/cpu", &g_allowed, &g_fast, &source);
    if (g_nfast == 0) g_nfast = 1;
}

static atomic_uint g_flags;     /* TL_PARALLEL_* */
static atomic_uint g_flags_gen; /* bumped on every change, so workers re-pin */

tl_status tl_parallel_set_flags(unsigned flags)
{
    if (flags & ~TL_PARALLEL_PIN)
        return tl_fail(TL_ERR_UNSUPPORTED, "flags=0x%x: unknown bits 0x%x (only TL_PARALLEL_PIN = 0x1 exists)",
                       flags, flags & ~TL_PARALLEL_PIN);
    atomic_store(&g_flags, flags);
    atomic_fetch_add(&g_flags_gen, 1u);
    tl_clear_error();
    return TL_OK;
}

/* ---- the job ------------------------------------------------------------------------ */
static tl_status check_threads(unsigned nthreads)
{
    if (nthreads > TL_PARALLEL_MAX_THREADS)
        return tl_fail(TL_ERR_UNSUPPORTED,
                       "nthreads=%u > %u (TL_PARALLEL_MAX_THREADS); pass 0 for the number of fast cores", nthreads,
                       TL_PARALLEL_MAX_THREADS);
    return TL_OK;
}

#if !defined(TL_HAVE_PTHREADS)
/* ---- no threads: everything on the caller's thread ------------------------------- */
const tl_cpuset *tl_par_machine_fast(unsigned *count)
{
    machine_init();
    *count = g_nfast;
    return &g_fast;
}

unsigned tl_parallel_default_threads(void) { return 1; }
unsigned tl_par_threads(unsigned nthreads)
{
    (void)nthreads;
    return 1;
}
void tl_parallel_shutdown(void) {}

tl_status tl_par_run_tiles(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads,
                           unsigned tiles_per_thread)
{
    (void)work_bytes, (void)tiles_per_thread;
    TL_TRY(check_threads(nthreads));
    return fn(ctx, 0, 1);
}
#else
/* ---- the pool ---------------------------------------------------------------------- */
static pthread_once_t g_machine_once = PTHREAD_ONCE_INIT;

const tl_cpuset *tl_par_machine_fast(unsigned *count)
{
    pthread_once(&g_machine_once, machine_init);
    *count = g_nfast;
    return &g_fast;
}

unsigned tl_parallel_default_threads(void)
{
    unsigned n;
    tl_par_machine_fast(&n);
    return n < TL_PARALLEL_MAX_THREADS ? n : TL_PARALLEL_MAX_THREADS;
}

/* More threads than the cores the process may run on only take turns on
 * them: a thread descheduled in the middle of a tile makes the others wait
 * for a time slice (3, 4 or 8 threads on 2 cores ran slower than 1). */
unsigned tl_par_threads(unsigned nthreads)
{
    unsigned fast = tl_parallel_default_threads(); /* also counts g_nallowed */
    unsigned n = nthreads ? nthreads : fast;
    return n < g_nallowed ? n : g_nallowed;
}

typedef struct tl_pool {
    pthread_mutex_t busy;   /* held by the one caller whose job the pool runs */
    pthread_mutex_t mu;     /* the fields below, except the two atomics */
    pthread_cond_t work;    /* workers: a job was published, or stop */
    pthread_cond_t done_cv; /* the caller: the job's last tile is done */
    /* the current job: valid while a tile of it is handed out and not done */
    tl_par_part_fn fn;
    void *ctx;
    unsigned ntiles;        /* parts the job is cut into: 0 .. ntiles-1 */
    uint32_t gen;           /* job number */
    _Atomic uint64_t next;  /* gen << 32 | the next tile to hand out */
    atomic_uint done;       /* tiles of the current job finished */
    tl_status status;       /* first failing tile's status and message */
    char msg[512];
    unsigned slots;         /* workers that may still join the current job */
    unsigned nworkers;
    int stop;
    pthread_t workers[TL_PARALLEL_MAX_THREADS];
} tl_pool;

static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static tl_pool *g_pool;
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

/* A forked child has none of the workers, and the pool's mutexes may be held
 * by threads that do not exist there: it starts a new pool. The parent's
 * cannot be freed safely; it stays referenced (leak checkers see it reachable). */
static tl_pool *volatile g_parent_pool; /* volatile: written only, the store must stay */
static void pool_forget_in_child(void)
{
    pthread_mutex_init(&g_pool_lock, NULL);
    if (g_pool) g_parent_pool = g_pool;
    g_pool = NULL;
}
static void atfork_init(void) { pthread_atfork(NULL, NULL, pool_forget_in_child); }

/* Take the next tile of job `gen`; 0 when none is left or the job is over. */
static int claim(tl_pool *p, uint32_t gen, unsigned ntiles, unsigned *tile)
{
    uint64_t v = atomic_load_explicit(&p->next, memory_order_relaxed);
    for (;;) {
        if ((uint32_t)(v >> 32) != gen || (uint32_t)v >= ntiles) return 0;
        if (atomic_compare_exchange_weak(&p->next, &v, v + 1)) {
            *tile = (uint32_t)v;
            return 1;
        }
    }
}

/* Run one claimed tile; the last one wakes the caller. Every tile runs, even
 * after a failure: parts check their arguments identically, so either all
 * fail before writing or none does. */
static void run_tile(tl_pool *p, tl_par_part_fn fn, void *ctx, unsigned tile, unsigned ntiles)
{
    tl_status s = fn(ctx, tile, ntiles);
    if (s != TL_OK) {
        pthread_mutex_lock(&p->mu);
        if (p->status == TL_OK) {
            p->status = s;
            snprintf(p->msg, sizeof p->msg, "%s", tl_last_error());
        }
        pthread_mutex_unlock(&p->mu);
    }
    if (atomic_fetch_add(&p->done, 1u) + 1u == ntiles) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_signal(&p->done_cv);
        pthread_mutex_unlock(&p->mu);
    }
}

static void *worker_main(void *arg)
{
    tl_pool *p = (tl_pool *)arg;
    unsigned pinned_gen = 0;
    pthread_mutex_lock(&p->mu);
    uint32_t seen = p->gen - 1u; /* made for the current job: join it while it wants workers */
    for (;;) {
        while (!p->stop && !(p->slots > 0 && seen != p->gen)) pthread_cond_wait(&p->work, &p->mu);
        if (p->stop) break;
        seen = p->gen;
        p->slots--;
        tl_par_part_fn fn = p->fn;
        void *ctx = p->ctx;
        unsigned ntiles = p->ntiles, tile;
        pthread_mutex_unlock(&p->mu);
        unsigned flags_gen = atomic_load(&g_flags_gen);
        if (flags_gen != pinned_gen) {
            unsigned n;
            const tl_cpuset *fast = tl_par_machine_fast(&n); /* also fills g_allowed */
            tl_par_pin_self(atomic_load(&g_flags) & TL_PARALLEL_PIN ? fast : &g_allowed);
            pinned_gen = flags_gen;
        }
        while (claim(p, seen, ntiles, &tile)) run_tile(p, fn, ctx, tile, ntiles);
        pthread_mutex_lock(&p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static tl_pool *pool_get(void)
{
    pthread_once(&g_atfork_once, atfork_init);
    pthread_mutex_lock(&g_pool_lock);
    if (!g_pool) {
        tl_pool *p = (tl_pool *)calloc(1, sizeof *p);
        if (p) {
            pthread_mutex_init(&p->busy, NULL);
            pthread_mutex_init(&p->mu, NULL);
            pthread_cond_init(&p->work, NULL);
            pthread_cond_init(&p->done_cv, NULL);
            atomic_init(&p->next, 0u);
            atomic_init(&p->done, 0u);
        }
        g_pool = p;
    }
    tl_pool *p = g_pool;
    pthread_mutex_unlock(&g_pool_lock);
    return p;
}

/* At least n workers (under p->mu). Workers block every signal: signals are
 * the application's, for its own threads. Fewer when the OS refuses. */
static void pool_grow(tl_pool *p, unsigned n)
{
    sigset_t all, old;
    if (p->nworkers >= n) return;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    while (p->nworkers < n && pthread_create(&p->workers[p->nworkers], NULL, worker_main, p) == 0) p->nworkers++;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void tl_parallel_shutdown(void)
{
    pthread_mutex_lock(&g_pool_lock);
    tl_pool *p = g_pool;
    g_pool = NULL;
    pthread_mutex_unlock(&g_pool_lock);
    if (!p) return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 0; i < p->nworkers; i++) pthread_join(p->workers[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done_cv);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->busy);
    free(p);
}

/* Spin-wait hint: the caller waits a little before it sleeps. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Wait until the job's `tiles` tiles are done. The workers finish their last
 * tile at about the time the caller runs out of tiles, so the caller spins
 * for up to one of its own tile times (at most 100 us) before it sleeps: a
 * sleeping caller pays a wake-up (10-50 us on a virtual machine) at the end
 * of every job. */
static void wait_done(tl_pool *p, unsigned tiles, double tile_seconds)
{
    double limit = tile_seconds < 100e-6 ? tile_seconds : 100e-6, t0 = seconds();
    while (atomic_load(&p->done) < tiles && seconds() - t0 < limit)
        for (int i = 0; i < 64; i++) cpu_relax();
    pthread_mutex_lock(&p->mu);
    p->slots = 0;
    while (atomic_load(&p->done) < tiles) pthread_cond_wait(&p->done_cv, &p->mu);
}

tl_status tl_par_run_tiles(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads,
                           unsigned tiles_per_thread)
{
    unsigned threads, tiles, tile;
    TL_TRY(check_threads(nthreads));
    tl_par_split_tiles(work_bytes, tl_par_threads(nthreads), tiles_per_thread, &threads, &tiles);
    tl_pool *p = threads > 1 ? pool_get() : NULL;
    if (!p || pthread_mutex_trylock(&p->busy) != 0) return fn(ctx, 0, 1); /* small, or the pool is busy */

    /* Publish tiles 1 .. tiles-1 and run tile 0 here while the workers wake
     * up: nothing runs before the wake-up. A job whose work cannot be split
     * (a plan pass that part 0 does whole) stays on this thread; the workers
     * find only empty tiles. */
    pthread_mutex_lock(&p->mu);
    pool_grow(p, threads - 1);
    p->fn = fn;
    p->ctx = ctx;
    p->ntiles = tiles;
    uint32_t gen = ++p->gen;
    atomic_store(&p->done, 0u);
    atomic_store(&p->next, (uint64_t)gen << 32 | 1u);
    p->status = TL_OK;
    p->slots = threads - 1 < p->nworkers ? threads - 1 : p->nworkers;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);

    double t0 = seconds();
    unsigned mine = 1;
    run_tile(p, fn, ctx, 0, tiles);
    while (claim(p, gen, tiles, &tile)) run_tile(p, fn, ctx, tile, tiles), mine++;
    wait_done(p, tiles, (seconds() - t0) / mine);
    tl_status s = p->status;
    char msg[sizeof p->msg];
    memcpy(msg, p->msg, sizeof msg);
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->busy);
    if (s != TL_OK) return tl_fail(s, "%s", msg);
    tl_clear_error();
    return TL_OK;
}
#endif
