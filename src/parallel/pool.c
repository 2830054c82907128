/* The thread pool: made on first use, one job at a time, tiles from an atomic
 * counter. The caller's thread works on its own job too, so a job never waits
 * for a worker to wake up: late workers find the counter exhausted and go back
 * to sleep, and the job costs only a broadcast more than an inline run. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, sigset_t under -std=c11 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "parallel/parallel.h"

#if defined(TL_HAVE_PTHREADS)
#include <pthread.h>
#include <signal.h>
#endif

void tl_par_split(uint64_t work_bytes, unsigned nthreads, unsigned *threads, unsigned *tiles)
{
    uint64_t by_work = work_bytes / TL_PAR_MIN_THREAD_BYTES;
    unsigned t = nthreads == 0 ? 1 : nthreads;
    if (by_work < t) t = by_work ? (unsigned)by_work : 1u;
    uint64_t n = (uint64_t)t * TL_PAR_TILES_PER_THREAD, most = work_bytes / TL_PAR_MIN_TILE_BYTES;
    if (n > most) n = most;
    if (n < t) n = t;
    *threads = t;
    *tiles = t <= 1 ? 1u : (unsigned)n;
}

/* ---- this machine's cores ---------------------------------------------------- */
static tl_cpuset g_allowed, g_fast;
static unsigned g_nfast;

static void machine_init(void)
{
    int source;
    tl_par_allowed_cpus(&g_allowed);
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

/* ---- a job ----------------------------------------------------------------------- */
typedef struct tl_job {
    tl_par_part_fn fn;
    void *ctx;
    unsigned ntiles;
    atomic_uint next;   /* the next tile to hand out; >= ntiles: none left */
    tl_status status;   /* first failure (under the pool mutex) */
    char msg[512];
} tl_job;

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
void tl_parallel_shutdown(void) {}

tl_status tl_par_run(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads)
{
    (void)work_bytes;
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

typedef struct tl_pool {
    pthread_mutex_t busy; /* held by the one caller whose job the pool runs */
    pthread_mutex_t mu;   /* everything below */
    pthread_cond_t work;  /* workers: a job was published, or stop */
    pthread_cond_t idle;  /* the caller: the last worker left the job */
    tl_job *job;
    unsigned gen;         /* job number: a worker joins each job at most once */
    unsigned slots;       /* workers that may still join the current job */
    unsigned active;      /* workers inside the current job */
    unsigned nworkers;
    int stop;
    pthread_t workers[TL_PARALLEL_MAX_THREADS];
} tl_pool;

static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static tl_pool *g_pool;
static pthread_once_t g_atfork_once = PTHREAD_ONCE_INIT;

/* A forked child has none of the workers, and the pool's mutexes may be held
 * by threads that do not exist there: it starts a new pool (the old one leaks). */
static void pool_forget_in_child(void) { g_pool = NULL; }
static void atfork_init(void) { pthread_atfork(NULL, NULL, pool_forget_in_child); }

static void job_fail(tl_pool *p, tl_job *j, tl_status s)
{
    pthread_mutex_lock(&p->mu);
    if (j->status == TL_OK) {
        j->status = s;
        snprintf(j->msg, sizeof j->msg, "%s", tl_last_error());
    }
    pthread_mutex_unlock(&p->mu);
    atomic_store(&j->next, j->ntiles); /* hand out no more tiles */
}

static void job_work(tl_pool *p, tl_job *j)
{
    for (;;) {
        unsigned t = atomic_fetch_add_explicit(&j->next, 1u, memory_order_relaxed);
        if (t >= j->ntiles) return;
        tl_status s = j->fn(j->ctx, t, j->ntiles);
        if (s != TL_OK) job_fail(p, j, s);
    }
}

static void *worker_main(void *arg)
{
    tl_pool *p = (tl_pool *)arg;
    unsigned pinned_gen = 0;
    pthread_mutex_lock(&p->mu);
    unsigned seen = p->gen;
    for (;;) {
        while (!p->stop && !(p->job && p->slots > 0 && seen != p->gen)) pthread_cond_wait(&p->work, &p->mu);
        if (p->stop) break;
        seen = p->gen;
        p->slots--;
        p->active++;
        tl_job *j = p->job;
        pthread_mutex_unlock(&p->mu);
        unsigned gen = atomic_load(&g_flags_gen);
        if (gen != pinned_gen) {
            unsigned n;
            const tl_cpuset *fast = tl_par_machine_fast(&n); /* also fills g_allowed */
            tl_par_pin_self(atomic_load(&g_flags) & TL_PARALLEL_PIN ? fast : &g_allowed);
            pinned_gen = gen;
        }
        job_work(p, j);
        pthread_mutex_lock(&p->mu);
        if (--p->active == 0) pthread_cond_signal(&p->idle);
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
            pthread_cond_init(&p->idle, NULL);
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
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->busy);
    free(p);
}

tl_status tl_par_run(tl_par_part_fn fn, void *ctx, uint64_t work_bytes, unsigned nthreads)
{
    unsigned threads, tiles;
    TL_TRY(check_threads(nthreads));
    tl_par_split(work_bytes, nthreads ? nthreads : tl_parallel_default_threads(), &threads, &tiles);
    tl_pool *p = threads > 1 ? pool_get() : NULL;
    if (!p || pthread_mutex_trylock(&p->busy) != 0) return fn(ctx, 0, 1); /* small, or the pool is busy */

    tl_job j;
    j.fn = fn;
    j.ctx = ctx;
    j.ntiles = tiles;
    atomic_init(&j.next, 0u);
    j.status = TL_OK;
    j.msg[0] = 0;
    pthread_mutex_lock(&p->mu);
    pool_grow(p, threads - 1);
    p->job = &j;
    p->gen++;
    p->slots = threads - 1 < p->nworkers ? threads - 1 : p->nworkers;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);

    job_work(p, &j);

    pthread_mutex_lock(&p->mu);
    p->slots = 0;
    while (p->active > 0) pthread_cond_wait(&p->idle, &p->mu);
    p->job = NULL;
    tl_status s = j.status;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->busy);
    if (s != TL_OK) return tl_fail(s, "%s", j.msg);
    tl_clear_error();
    return TL_OK;
}
#endif
