/* What one thread of this machine can move to and from DRAM, the bounds a
 * 256 MiB conversion meets (not a test; docs/performance.md, "What bounds a
 * 256 MiB conversion"): reading only (one stream, three slices in turn, and
 * 64 planes in runs of 1 or 4 KiB), writing only (non-temporal stores of
 * lines of data and of zeros, plain stores of data), copying three ways (memcpy, a
 * non-temporal copy, `rep movsb`), and copying whole lines in a transpose's
 * order between 64 planes and 64-byte pixels. Each figure is the best of --samples runs
 * over a buffer of --mib MiB (default 256) and counts every byte read or
 * written; the buffers are in 2 MiB pages as tl_bench's are (--small-pages:
 * 4 KiB ones). Then, in cache, what bounds the benchmark's 256 KiB transposes
 * (in_cache, below). x86-64 only: elsewhere it says so and exits. */
#define _DEFAULT_SOURCE /* clock_gettime, posix_memalign, madvise */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef void ic_block(const unsigned char *s, ptrdiff_t ss, unsigned char *d, ptrdiff_t ds, int lines);

typedef struct job {
    unsigned char *a, *b; /* source, destination (in cache: planes, pixels) */
    size_t n;
    __m128i v; /* the value written by the write-only jobs */
    size_t d;  /* read_slices_apart's distance; read_planes' run */
    int ahead; /* read_planes: the next run prefetched */
    ptrdiff_t ps;    /* in cache: the plane stride, >= IC_BYTES / IC_PLANES */
    size_t e;        /* in cache: element bytes, 4 or 1 */
    ic_block *block; /* in cache: one block's copy or transpose */
} job;

static volatile unsigned long long g_sink; /* keeps the reads (unsigned: the sums wrap) */

/* The sum of a line's four 16-byte pieces: every byte read. */
static inline __m128i line_sum(const unsigned char *p)
{
    return _mm_add_epi64(_mm_add_epi64(_mm_load_si128((const __m128i *)p), _mm_load_si128((const __m128i *)(p + 16))),
                         _mm_add_epi64(_mm_load_si128((const __m128i *)(p + 32)), _mm_load_si128((const __m128i *)(p + 48))));
}

static void read_only(job *j)
{
    __m128i acc = _mm_setzero_si128();
    for (size_t i = 0; i < j->n; i += 64) acc = _mm_add_epi64(acc, line_sum(j->a + i));
    g_sink += (unsigned long long)_mm_cvtsi128_si64(acc);
}

/* 3 streams a fixed distance d apart, 2 KiB of each in turn, over windows
 * of 3 d bytes. One window of a third of the buffer each is the streamed
 * line gathers' order (tl_machine.read_streams: more reads in flight);
 * fixed distances show how the slices' speed depends on where they lie. On
 * the Zen 5 VM of docs/performance.md the same loads ran at 17 to 51 GB/s by d
 * alone (the DRAM's address map: no rule in d's low bits). */
static void read_slices_apart(job *j)
{
    __m128i acc = _mm_setzero_si128();
    size_t d = j->d;
    for (size_t w = 0; w + 3 * d <= j->n; w += 3 * d)
        for (size_t b = 0; b < d; b += 2048)
            for (size_t k = 0; k < 3; k++)
                for (size_t i = w + k * d + b; i < w + k * d + b + 2048; i += 64)
                    acc = _mm_add_epi64(acc, line_sum(j->a + i));
    g_sink += (unsigned long long)_mm_cvtsi128_si64(acc);
}

enum { PLANES = 64 };

/* 64 planes (n / 64 bytes apart) read d bytes of each in turn: the order
 * of a conversion of 64 far planes through an L1 tile (quantize NCHW f32 ->
 * NHWC i8, C = 64: a 16 KiB tile of codes holds 1 KiB of each f32 plane),
 * or, with ahead, each run read while the next plane's run (the next one
 * in this order) is prefetched into the L2. */
static void read_planes(job *j)
{
    __m128i acc = _mm_setzero_si128();
    size_t ps = j->n / PLANES / j->d * j->d, d = j->d;
    for (size_t i = 0; i < ps; i += d)
        for (size_t c = 0; c < PLANES; c++) {
            const unsigned char *s = j->a + c * ps + i;
            const unsigned char *next = c + 1 < PLANES ? s + ps : i + d < ps ? j->a + i + d : NULL;
            for (size_t k = 0; k < d; k += 64) {
                if (j->ahead && next) _mm_prefetch((const char *)(next + k), _MM_HINT_T1);
                acc = _mm_add_epi64(acc, line_sum(s + k));
            }
        }
    g_sink += (unsigned long long)_mm_cvtsi128_si64(acc);
}

static void write_nt(job *j)
{
    for (size_t i = 0; i < j->n; i += 64)
        for (int k = 0; k < 64; k += 16) _mm_stream_si128((__m128i *)(j->b + i + k), j->v);
    _mm_sfence();
}

/* The same lines with plain stores (the machine policy's plain_rows, off
 * unless TL_PLAIN_ROWS=1: on one Zen 5 VM of docs/engine.md these ran at
 * 24-26 GB/s against write_nt's 16-17 at one time and level with it at
 * another; on a second VM of the same model at 24-29 against 34-39) */
static void write_plain(job *j)
{
    for (size_t i = 0; i < j->n; i += 64)
        for (int k = 0; k < 64; k += 16) _mm_store_si128((__m128i *)(j->b + i + k), j->v);
}

/* The line order of a transpose between 64 planes and 64-byte pixels
 * (NCHW <-> NHWC u8 with C = 64), without its byte shuffles: line i of each
 * of 64 planes (n / 64 bytes apart) in turn to 64 consecutive lines, or
 * back; non-temporal stores, and each read line's successor two steps on
 * prefetched into the L2 where it is one of the 64 far rows (as the byte
 * transposes do). */

static void planes_to_pixels(job *j)
{
    size_t ps = j->n / PLANES / 64 * 64;
    unsigned char *d = j->b;
    for (size_t i = 0; i < ps; i += 64)
        for (size_t c = 0; c < PLANES; c++, d += 64) {
            const unsigned char *s = j->a + c * ps + i;
            if (i + 128 < ps) _mm_prefetch((const char *)(s + 128), _MM_HINT_T1);
            for (int k = 0; k < 64; k += 16)
                _mm_stream_si128((__m128i *)(d + k), _mm_load_si128((const __m128i *)(s + k)));
        }
    _mm_sfence();
}

static void pixels_to_planes(job *j)
{
    size_t ps = j->n / PLANES / 64 * 64;
    const unsigned char *s = j->a;
    for (size_t i = 0; i < ps; i += 64)
        for (size_t c = 0; c < PLANES; c++, s += 64) {
            unsigned char *d = j->b + c * ps + i;
            for (int k = 0; k < 64; k += 16)
                _mm_stream_si128((__m128i *)(d + k), _mm_load_si128((const __m128i *)(s + k)));
        }
    _mm_sfence();
}

static void copy_memcpy(job *j) { memcpy(j->b, j->a, j->n); }

static void copy_nt(job *j)
{
    for (size_t i = 0; i < j->n; i += 64)
        for (int k = 0; k < 64; k += 16)
            _mm_stream_si128((__m128i *)(j->b + i + k), _mm_load_si128((const __m128i *)(j->a + i + k)));
    _mm_sfence();
}

static void copy_movsb(job *j)
{
    void *d = j->b;
    const void *s = j->a;
    size_t n = j->n;
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* ---- In cache: what bounds the benchmark's 256 KiB transposes ------------
 * NCHW <-> NHWC with C = 64 at 256 KiB (f32: 64 planes of 32 x 32, u8: of
 * 64 x 64; 4 KiB planes either way) taken apart, in blocks of 64 / E rows of
 * 64 / E elements (E bytes each), the destination written in address
 * order: each block's source lines copied whole to its destination lines
 * (the transpose's line order without its shuffles), and for f32 the same
 * blocks transposed in AVX-512 registers (16 loads, 64 shuffles, 16
 * stores); the planes 4 KiB apart (a block's lines all in one L1 set) and 4
 * KiB + 64 apart (spread over the sets). Plain stores; both buffers stay in
 * the L2. The library's kernels add their loop and edge work to these. */
enum { IC_PLANES = 64, IC_BYTES = 256 << 10, IC_REPS = 400 };

static void ic_lines(const unsigned char *s, ptrdiff_t ss, unsigned char *d, ptrdiff_t ds, int lines)
{
    for (int j = 0; j < lines; j++)
        for (int k = 0; k < 64; k += 16)
            _mm_storeu_si128((__m128i *)(d + j * ds + k), _mm_loadu_si128((const __m128i *)(s + j * ss + k)));
}

#define IC_AVX512 __attribute__((target("avx512f")))
/* whole-line loads and stores, as memcpy and the register blocks use them */
static IC_AVX512 void ic_lines512(const unsigned char *s, ptrdiff_t ss, unsigned char *d, ptrdiff_t ds, int lines)
{
    for (int j = 0; j < lines; j++) _mm512_storeu_si512((void *)(d + j * ds), _mm512_loadu_si512((const void *)(s + j * ss)));
}

/* 16 x 16 32-bit elements (lines is 16) */
static IC_AVX512 void ic_t16(const unsigned char *s, ptrdiff_t ss, unsigned char *d, ptrdiff_t ds, int lines)
{
    (void)lines;
    __m512 r[16], t[16];
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps((const float *)(s + i * ss));
    for (int i = 0; i < 16; i += 2) { /* element pairs, then quads, inside the 128-bit lanes */
        t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_shuffle_ps(t[i], t[i + 2], 0x44);
        r[i + 1] = _mm512_shuffle_ps(t[i], t[i + 2], 0xEE);
        r[i + 2] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0x44);
        r[i + 3] = _mm512_shuffle_ps(t[i + 1], t[i + 3], 0xEE);
    }
    for (int j = 0; j < 4; j++) { /* then the lanes across the four row groups */
        __m512 a = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88), b = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
        __m512 c = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xDD), e = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xDD);
        _mm512_storeu_ps((float *)(d + j * ds), _mm512_shuffle_f32x4(a, b, 0x88));
        _mm512_storeu_ps((float *)(d + (8 + j) * ds), _mm512_shuffle_f32x4(a, b, 0xDD));
        _mm512_storeu_ps((float *)(d + (4 + j) * ds), _mm512_shuffle_f32x4(c, e, 0x88));
        _mm512_storeu_ps((float *)(d + (12 + j) * ds), _mm512_shuffle_f32x4(c, e, 0xDD));
    }
}

static void ic_to_pixels(job *j)
{
    size_t n = 64 / j->e, pixel = IC_PLANES * j->e, pixels = IC_BYTES / pixel;
    for (int r = 0; r < IC_REPS; r++)
        for (size_t p = 0; p < pixels; p += n)
            for (size_t c = 0; c < IC_PLANES; c += n)
                j->block(j->a + c * (size_t)j->ps + p * j->e, j->ps, j->b + p * pixel + c * j->e,
                         (ptrdiff_t)pixel, (int)n);
}

static void ic_to_planes(job *j)
{
    size_t n = 64 / j->e, pixel = IC_PLANES * j->e, pixels = IC_BYTES / pixel;
    for (int r = 0; r < IC_REPS; r++)
        for (size_t c = 0; c < IC_PLANES; c += n)
            for (size_t p = 0; p < pixels; p += n)
                j->block(j->b + p * pixel + c * j->e, (ptrdiff_t)pixel, j->a + c * (size_t)j->ps + p * j->e,
                         j->ps, (int)n);
}

/* The same line copies with both sides in address order */
static void ic_in_order(job *j)
{
    for (int r = 0; r < IC_REPS; r++)
        for (size_t b = 0; b < IC_BYTES; b += 1024) j->block(j->a + b, 64, j->b + b, 64, 16);
}

static void ic_copy(job *j)
{
    for (int r = 0; r < IC_REPS; r++) {
        memcpy(j->b, j->a, IC_BYTES);
        __asm__ volatile("" : : "r"(j->b) : "memory");
    }
}

/* A buffer as tl_bench allocates its own: whole 2 MiB pages where the
 * kernel gives them (transparent huge pages on request); small_pages: 4
 * KiB ones. The two programs' figures compare only with the same pages: on
 * the Zen 5 VM of docs/performance.md, 4 KiB pages cost the DRAM rates a
 * quarter to nearly half (non-temporal writes 18.7 against 25.9-33.4 GB/s,
 * three slices read in turn 19.2 against 28.2-33.5). */
static unsigned char *buffer(size_t n, int small_pages)
{
    size_t huge = (size_t)2 << 20, m = (n + huge - 1) / huge * huge;
    void *p = NULL;
    if (posix_memalign(&p, small_pages ? 4096 : huge, m) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (!small_pages) (void)madvise(p, m, MADV_HUGEPAGE); /* a hint */
#endif
    return p;
}

/* GB/s of `bytes` per run, best of `samples` */
static double best(void (*fn)(job *), job *j, double bytes, unsigned long samples)
{
    double t_min = 1e30;
    for (unsigned long r = 0; r < samples; r++) {
        double t = now();
        fn(j);
        t = now() - t;
        if (t < t_min) t_min = t;
    }
    return bytes / t_min * 1e-9;
}

/* GB/s of bytes read + written, and each as a share of memcpy's, over
 * j's buffers (at least IC_BYTES + 64 * 64 bytes each). */
static void in_cache(job j, unsigned long samples)
{
    int avx512 = __builtin_cpu_supports("avx512f");
    ic_block *lines = avx512 ? ic_lines512 : ic_lines;
    const double bytes = 2.0 * IC_BYTES * IC_REPS;
    j.ps = 4096, j.e = 4, j.block = lines;
    double copy = best(ic_copy, &j, bytes, samples);
    double seq = best(ic_in_order, &j, bytes, samples);
    printf("\nin cache, 256 KiB each way: NCHW <-> NHWC with C = 64 (GB/s, x memcpy)\n");
    printf("copy: memcpy                                      %6.1f\n", copy);
    printf("copy: the blocks' line copies, in address order   %6.1f (%.2f)\n", seq, seq / copy);
    static const char *const dir[2] = {"planes -> pixels", "pixels -> planes"};
    static const size_t sizes[2] = {4, 1};
    for (int k = 0; k < 2; k++)
        for (int to_planes = 0; to_planes < 2; to_planes++)
            for (int shuffled = 0; shuffled < 2; shuffled++)
                for (ptrdiff_t ps = 4096 + 64; ps >= 4096; ps -= 64) {
                    size_t e = sizes[k];
                    if (shuffled && (e != 4 || !avx512)) continue;
                    j.ps = ps, j.e = e, j.block = shuffled ? ic_t16 : lines;
                    double g = best(to_planes ? ic_to_planes : ic_to_pixels, &j, bytes, samples);
                    printf("%s %s, %-19s planes %td B apart %6.1f (%.2f)\n", e == 4 ? "f32" : "u8 ", dir[to_planes],
                           shuffled ? "16x16 in registers," : "line copies,", ps, g, g / copy);
                }
    if (!avx512) puts("(the f32 register blocks need AVX-512F: not on this CPU)");
}

int main(int argc, char **argv)
{
    unsigned long mib = 256, samples = 7;
    int small_pages = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--small-pages") == 0) {
            small_pages = 1;
            continue;
        }
        unsigned long *v = strcmp(argv[i], "--mib") == 0 ? &mib : strcmp(argv[i], "--samples") == 0 ? &samples : NULL;
        char *end = NULL;
        if (v && i + 1 < argc) *v = strtoul(argv[++i], &end, 10);
        if (!v || !end || *end || end == argv[i]) {
            fprintf(stderr, "usage: bench_bounds [--mib N] [--samples N] [--small-pages]\n");
            return 2;
        }
    }
    /* two buffers of mib MiB: at most 64 GiB each, so no size overflows */
    if (mib < 1 || mib > (1ul << 16) || samples < 1 || samples > 1000) {
        fprintf(stderr, "bench_bounds: --mib %lu, --samples %lu: --mib must be 1 to 65536, --samples 1 to 1000\n",
                mib, samples);
        return 2;
    }
    job j = {NULL, NULL, (size_t)mib << 20, _mm_set1_epi8(0x5A), 0, 0, 0, 0, NULL};
    j.a = buffer(j.n, small_pages);
    j.b = buffer(j.n, small_pages);
    if (!j.a || !j.b) {
        fprintf(stderr, "bench_bounds: cannot allocate 2 x %lu MiB\n", mib);
        return 1;
    }
    for (size_t i = 0; i < j.n; i++) j.a[i] = (unsigned char)(i * 2654435761u >> 24);
    memset(j.b, 1, j.n);
    double n = (double)j.n;
    printf("one thread, %lu MiB buffers in %s pages, best of %lu (GB/s of bytes read + written)\n", mib,
           small_pages ? "4 KiB" : "2 MiB", samples);
    printf("read only                         %6.1f\n", best(read_only, &j, n, samples));
    j.d = j.n / 3 / 2048 * 2048;
    if (j.d) printf("read only, 3 slices in turn       %6.1f\n", best(read_slices_apart, &j, (double)(3 * j.d), samples));
    static const size_t apart[] = {(8u << 20) - 4096, 8u << 20, (8u << 20) + 4096, (16u << 20) + 4096};
    for (size_t a = 0; a < sizeof apart / sizeof apart[0]; a++) {
        j.d = apart[a];
        double bytes = (double)(j.n / (3 * j.d) * 3 * j.d); /* the whole windows */
        char label[64];
        snprintf(label, sizeof label, "read only, slices %zu KiB apart", j.d >> 10);
        if (bytes > 0) printf("%-34s%6.1f\n", label, best(read_slices_apart, &j, bytes, samples));
    }
    static const size_t runs[][2] = {{1024, 0}, {1024, 1}, {4096, 0}, {4096, 1}};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        j.d = runs[r][0], j.ahead = (int)runs[r][1];
        char label[64];
        snprintf(label, sizeof label, "read only, 64 planes x %zu KiB%s", j.d >> 10, j.ahead ? " +next" : "");
        double bytes = (double)(j.n / PLANES / j.d * j.d * PLANES);
        if (bytes > 0) printf("%-34s%6.1f\n", label, best(read_planes, &j, bytes, samples));
    }
    printf("write only, non-temporal, data    %6.1f\n", best(write_nt, &j, n, samples));
    printf("write only, plain stores, data    %6.1f\n", best(write_plain, &j, n, samples));
    j.v = _mm_setzero_si128();
    printf("write only, non-temporal, zeros   %6.1f\n", best(write_nt, &j, n, samples));
    printf("copy: memcpy                      %6.1f\n", best(copy_memcpy, &j, 2 * n, samples));
    printf("copy: non-temporal stores         %6.1f\n", best(copy_nt, &j, 2 * n, samples));
    printf("copy: rep movsb                   %6.1f\n", best(copy_movsb, &j, 2 * n, samples));
    double lines = (double)(j.n / PLANES / 64 * 64 * PLANES);
    printf("copy: 64 planes -> 64-byte pixels %6.1f\n", best(planes_to_pixels, &j, 2 * lines, samples));
    printf("copy: 64-byte pixels -> 64 planes %6.1f\n", best(pixels_to_planes, &j, 2 * lines, samples));
    in_cache(j, samples);
    free(j.a);
    free(j.b);
    return 0;
}
#else
int main(void)
{
    puts("bench_bounds: x86-64 only");
    return 0;
}
#endif
