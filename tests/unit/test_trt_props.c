/* Random TensorRT tensors against an oracle written from NvInferRuntime.h's TensorFormat comments (the
 * array each format is equivalent to), with packed and padded runtime strides:
 * on every element, tl_desc_offset, the §5.2 array index and the trtexec
 * formula of §5.3 over the strides the library reports must agree. Also: the
 * size, the strides round trip, spec == runtime descriptor, format round trip,
 * and that every byte of the array that is not an element is padding. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test.h"

typedef struct oracle_fmt {
    const char *spec;
    int32_t format;
    char kind;          /* L linear, D dla_linear, M vector-major, m vector-minor, 4 dla_hwc4 */
    int V, cpos, min_rank;
    const char *types[10]; /* every dtype some TensorRT version allows */
} oracle_fmt;

static const oracle_fmt fmts[] = {
    {"linear", TL_TRT_LINEAR, 'L', 1, 0, 1, {"f32", "f16", "i8", "i32", "bool", "u8", "bf16", "i64", "i4"}},
    {"chw2", TL_TRT_CHW2, 'M', 2, 3, 3, {"f16", "bf16"}},
    {"hwc8", TL_TRT_HWC8, 'm', 8, 3, 3, {"f16", "bf16"}},
    {"chw4", TL_TRT_CHW4, 'M', 4, 3, 3, {"i8", "f16"}},
    {"chw16", TL_TRT_CHW16, 'M', 16, 3, 3, {"f16"}},
    {"chw32", TL_TRT_CHW32, 'M', 32, 3, 3, {"i8", "f32", "f16"}},
    {"dhwc8", TL_TRT_DHWC8, 'm', 8, 4, 4, {"f16", "bf16"}},
    {"cdhw32", TL_TRT_CDHW32, 'M', 32, 4, 4, {"f16", "i8"}},
    {"hwc", TL_TRT_HWC, 'm', 1, 3, 3, {"f32", "f16", "u8", "i64", "bf16"}},
    {"dla_linear", TL_TRT_DLA_LINEAR, 'D', 1, 3, 3, {"f16", "i8"}},
    {"dla_hwc4", TL_TRT_DLA_HWC4, '4', 0, 3, 3, {"f16", "i8"}},
    {"hwc16", TL_TRT_HWC16, 'm', 16, 3, 3, {"f16", "i8"}},
    {"dhwc", TL_TRT_DHWC, 'm', 1, 4, 4, {"f32"}},
};
#define NFMT ((int)(sizeof fmts / sizeof fmts[0]))

/* The §5.2 array: extents, which tensor dim each array position indexes
 * (-1: the lane position of a vector-major format), and its element size. */
typedef struct arr {
    int rank, m, c, v;
    int64_t V, ebits;
    int64_t dims[8];
    int pos_dim[9];
    int64_t ext[9];   /* as §5.2 writes it */
    int64_t aext[9];  /* possibly enlarged: the pitched array the strides describe */
} arr;

static int64_t rup(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

static void make_array(arr *a, const oracle_fmt *f, int align)
{
    int r = a->rank, k = 0;
    a->c = f->cpos ? r - f->cpos : -1;
    a->V = f->kind == '4' ? (a->dims[a->c] == 1 ? 1 : 4) : f->V;
    a->v = a->V > 1 ? a->c : -1;
    for (int i = 0; i < r; i++) {
        if ((f->kind == 'm' || f->kind == '4') && i == a->c) continue;
        a->pos_dim[k] = i;
        a->ext[k++] = f->kind == 'M' && i == a->c ? (a->dims[i] + a->V - 1) / a->V : a->dims[i];
    }
    if (f->kind == 'M') a->pos_dim[k] = -1, a->ext[k++] = a->V;
    if (f->kind == 'm' || f->kind == '4') a->pos_dim[k] = a->c, a->ext[k++] = rup(a->dims[a->c], a->V);
    if (f->kind == 'D') a->ext[k - 1] = rup(a->dims[r - 1], 64 / (a->ebits / 8));
    if (f->kind == '4') a->ext[k - 2] = rup(a->dims[r - 1], align / a->V / (a->ebits / 8));
    a->m = k;
    memcpy(a->aext, a->ext, sizeof a->ext);
}

/* Pitch the array: widen some sole-axis positions of extent >= 2 (never the
 * outermost, whose stride nothing uses), keeping the DLA row rules. */
static void enlarge(arr *a, const oracle_fmt *f, tl_rng *r, int align)
{
    for (int k = 1; k < a->m; k++) {
        int d = a->pos_dim[k];
        if (d < 0 || a->aext[k] < 2 || tl_rng_pick(r, 3)) continue;
        if (f->kind == 'M' && d == a->c) continue;          /* C(block V) is not a sole axis */
        if (f->kind == '4' && k == a->m - 1) continue;        /* a pixel is C' lanes exactly */
        int64_t unit = d == a->c && a->V > 1 ? a->V : 1;
        if (f->kind == 'D' && k == a->m - 1) unit = 64 / (a->ebits / 8);
        if (f->kind == '4' && k == a->m - 2) unit = align / a->V / (a->ebits / 8);
        a->aext[k] += unit * tl_rng_range(r, 1, 2);
    }
}

static int64_t scalar_stride(const arr *a, int k)
{
    int64_t s = 1;
    for (int j = k + 1; j < a->m; j++) s *= a->aext[j];
    return s;
}

/* Runtime strides (vector units) of the pitched array, per tensor dim. */
static void array_strides(const arr *a, int64_t *s)
{
    for (int k = 0; k < a->m; k++) {
        int d = a->pos_dim[k];
        if (d < 0) continue;
        s[d] = d == a->v && k == a->m - 1 ? 1 : scalar_stride(a, k) / a->V;
    }
}

/* Scalar offset of tensor coordinate x in the pitched array. */
static int64_t array_offset(const arr *a, const int64_t *x)
{
    int64_t off = 0;
    for (int k = 0; k < a->m; k++) {
        int d = a->pos_dim[k];
        int64_t i = d < 0 ? x[a->c] % a->V : (d == a->c && a->v >= 0 && k < a->m - 1) ? x[d] / a->V : x[d];
        off += i * scalar_stride(a, k);
    }
    return off;
}

/* NVIDIA trtexec's dataOffsetFromDims, in scalars. */
static int64_t trtexec_offset(const tl_trt_runtime *rt, const int64_t *x, int rank)
{
    int v = rt->vectorized_dim;
    int64_t V = v < 0 ? 1 : rt->components_per_element, off = 0;
    for (int i = 0; i < rank; i++)
        if (i != v) off += x[i] * rt->strides.d[i] * V;
    if (v >= 0) off += x[v] / V * rt->strides.d[v] * V + x[v] % V;
    return off;
}

static bool next_coord(int64_t *x, const int64_t *dims, int rank)
{
    for (int i = rank - 1; i >= 0; i--) {
        if (++x[i] < dims[i]) return true;
        x[i] = 0;
    }
    return false;
}

static void random_tensor(tl_rng *r, const oracle_fmt *f, arr *a, tl_dtype *dt)
{
    int ntypes = 0;
    while (ntypes < 10 && f->types[ntypes]) ntypes++;
    *dt = tl_dtype_from_name(f->types[tl_rng_pick(r, ntypes)]);
    memset(a, 0, sizeof *a);
    a->ebits = tl_dtype_bits(*dt);
    a->rank = (int)tl_rng_range(r, f->min_rank, f->kind == 'L' ? 5 : f->min_rank + 1);
    for (int i = 0; i < a->rank; i++) a->dims[i] = tl_rng_range(r, 1, 4);
    int c = f->cpos ? a->rank - f->cpos : -1;
    if (c >= 0) a->dims[c] = tl_rng_range(r, 1, f->kind == 'M' ? 40 : 20);
    if (f->kind == '4') a->dims[c] = tl_rng_pick(r, 2) ? 3 : tl_rng_pick(r, 2) ? 1 : 4;
    a->dims[a->rank - 1] = tl_rng_range(r, 1, f->kind == 'D' || f->kind == '4' ? 70 : 9);
}

static void spec_of(char *buf, size_t n, const oracle_fmt *f, tl_dtype dt, const arr *a, int xavier,
                    const int64_t *s, bool with_strides)
{
    int k = snprintf(buf, n, "trt.%s:%s:", f->spec, tl_dtype_name(dt));
    for (int i = 0; i < a->rank; i++) k += snprintf(buf + k, n - (size_t)k, "%s%lld", i ? "x" : "", (long long)a->dims[i]);
    if (xavier) k += snprintf(buf + k, n - (size_t)k, ":gen=xavier");
    if (!with_strides) return;
    k += snprintf(buf + k, n - (size_t)k, ":strides=");
    for (int i = 0; i < a->rank; i++) k += snprintf(buf + k, n - (size_t)k, "%s%lld", i ? "," : "", (long long)s[i]);
}

static void check_elements(const tl_desc *d, const arr *a, const tl_trt_runtime *rt, const char *spec)
{
    int64_t x[8] = {0};
    do {
        uint64_t bits;
        if (tl_desc_offset_bits(d, x, &bits) != TL_OK) { FAILF("%s: offset failed: %s", spec, tl_last_error()); return; }
        int64_t want = array_offset(a, x) * a->ebits, fx = trtexec_offset(rt, x, a->rank) * a->ebits;
        if ((int64_t)bits != want || fx != want) {
            FAILF("%s: element (%lld,%lld,%lld,...): desc %lld bits, array %lld, trtexec %lld", spec, (long long)x[0],
                  (long long)x[1], (long long)x[2], (long long)bits, (long long)want, (long long)fx);
            return;
        }
    } while (next_coord(x, a->dims, a->rank));
}

/* Every array position: an element stays 0, anything else is padding. */
static void check_padding(const tl_desc *d, const arr *a, const char *spec)
{
    size_t len = (size_t)d->size_bytes;
    uint8_t *buf = calloc(len ? len : 1, 1);
    if (!buf || tl_fill_padding(d, buf, len, 0xFF) != TL_OK) { FAILF("%s: fill_padding: %s", spec, tl_last_error()); free(buf); return; }
    int64_t total = 1, pos[9] = {0}, lane = a->V;
    for (int k = 0; k < a->m; k++) total *= a->aext[k];
    for (int64_t s = 0; s < total; s++) {
        int64_t rem = s, x[8] = {0};
        bool elem = true;
        for (int k = a->m - 1; k >= 0; k--) pos[k] = rem % a->aext[k], rem /= a->aext[k];
        for (int k = 0; k < a->m; k++) {
            int d2 = a->pos_dim[k];
            int64_t p = pos[k];
            if (d2 < 0) { x[a->c] += p; continue; }
            if (d2 == a->c && a->v >= 0 && k < a->m - 1) p *= lane;
            x[d2] += p;
        }
        for (int i = 0; i < a->rank; i++) elem &= x[i] < a->dims[i];
        int64_t bit = s * a->ebits;
        unsigned got = a->ebits < 8 ? (buf[bit / 8] >> (bit % 8)) & 15u : buf[bit / 8];
        unsigned want = elem ? 0u : a->ebits < 8 ? 15u : 0xFFu;
        if (got != want) {
            FAILF("%s: array position %lld: %s byte 0x%x", spec, (long long)s, elem ? "element" : "padding", got);
            break;
        }
    }
    free(buf);
}

static void one_case(tl_rng *r, const oracle_fmt *f, bool pitched)
{
    arr a;
    tl_dtype dt;
    random_tensor(r, f, &a, &dt);
    int xavier = f->kind == '4' && tl_rng_pick(r, 2), align = xavier ? 32 : 64;
    make_array(&a, f, align);
    if (pitched) enlarge(&a, f, r, align);
    int64_t s[8];
    array_strides(&a, s);
    char spec[512], packed_spec[512];
    spec_of(spec, sizeof spec, f, dt, &a, xavier, s, true);
    spec_of(packed_spec, sizeof packed_spec, f, dt, &a, xavier, s, false);
    tl_desc d, e;
    if (tl_desc_parse(&d, spec) != TL_OK) { FAILF("%s: %s", spec, tl_last_error()); return; }
    /* the same tensor through the runtime API */
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = f->format;
    t.type = tl_trt_datatype_of(dt);
    t.dims.nbDims = t.strides.nbDims = a.rank;
    memcpy(t.dims.d, a.dims, sizeof a.dims);
    memcpy(t.strides.d, s, sizeof s);
    t.dla_gen = xavier;
    if (tl_trt_desc_init(&e, &t) != TL_OK || memcmp(&d, &e, sizeof d)) FAILF("%s: runtime descriptor differs", spec);
    if (!pitched && (tl_desc_parse(&e, packed_spec) != TL_OK || memcmp(&d, &e, sizeof d)))
        FAILF("%s: packed strides differ from %s", spec, packed_spec);
    int64_t total = 1;
    for (int k = 0; k < a.m; k++) total *= a.aext[k];
    if (d.size_bytes != (total * a.ebits + 7) / 8)
        FAILF("%s: size %lld, the array holds %lld bits", spec, (long long)d.size_bytes, (long long)(total * a.ebits));
    tl_trt_runtime rt;
    if (tl_trt_runtime_info(&d, &rt) != TL_OK) { FAILF("%s: %s", spec, tl_last_error()); return; }
    if (memcmp(rt.strides.d, s, (size_t)a.rank * sizeof s[0])) FAILF("%s: reported strides differ", spec);
    if (rt.vectorized_dim != a.v || rt.components_per_element != (a.v < 0 ? -1 : a.V))
        FAILF("%s: v=%d V=%d, want v=%d V=%lld", spec, (int)rt.vectorized_dim, (int)rt.components_per_element, a.v, (long long)a.V);
    check_elements(&d, &a, &rt, spec);
    check_padding(&d, &a, spec);
    char out[512];
    if (tl_desc_format(&d, out, sizeof out) != TL_OK || tl_desc_parse(&e, out) != TL_OK || memcmp(&d, &e, sizeof d))
        FAILF("%s: format round trip (%s)", spec, out);
}

TL_TEST(packed_against_array_oracle)
{
    tl_rng r = tl_test_rng();
    for (int f = 0; f < NFMT; f++)
        for (int k = 0; k < 40 && TL_TEST_FAILURES() == 0; k++) one_case(&r, &fmts[f], false);
}

TL_TEST(pitched_against_array_oracle)
{
    tl_rng r = tl_test_rng();
    for (int f = 0; f < NFMT; f++)
        for (int k = 0; k < 60 && TL_TEST_FAILURES() == 0; k++) one_case(&r, &fmts[f], true);
}

/* Random, mostly invalid specs: never a crash, always a message; what is
 * accepted formats back to an identical descriptor, its runtime strides
 * rebuild it, and its last element lies inside the buffer. */
static void random_spec(tl_rng *r, char *buf, size_t n)
{
    static const char *const names[] = {"linear", "chw2", "hwc8", "chw4", "chw16", "chw32", "dhwc8", "cdhw32",
                                        "hwc", "dla_linear", "dla_hwc4", "hwc16", "dhwc", "kCHW32", "chw64", ""};
    static const char *const dts[] = {"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64", "f16", "bf16",
                                      "f32", "f64", "bool", "u4", "i4"};
    static const char *const opts[] = {":gen=orin", ":gen=xavier", ":gen=ampere", ":dla=input", ":dla=output",
                                       ":dla=any", ":scale=0.5", ":zp=0", ":zp=2", ":q=affine", ":round=away", ""};
    static const int64_t big[] = {0, 4095, 4096, 8192, 8193, (int64_t)1 << 31, (int64_t)1 << 62};
    int rank = (int)tl_rng_range(r, 1, 9), k;
    int64_t dims[9];
    if (tl_rng_pick(r, 2)) { /* half of them plausible: a format, one of its types, its rank */
        const oracle_fmt *f = &fmts[tl_rng_pick(r, NFMT)];
        int nt = 0;
        while (nt < 10 && f->types[nt]) nt++;
        rank = (int)tl_rng_range(r, f->min_rank, f->min_rank + 1);
        k = snprintf(buf, n, "trt.%s:%s:", f->spec, f->types[tl_rng_pick(r, nt)]);
    } else {
        k = snprintf(buf, n, "trt.%s:%s:", names[tl_rng_pick(r, 16)], dts[tl_rng_pick(r, 15)]);
    }
    for (int i = 0; i < rank; i++) {
        dims[i] = tl_rng_pick(r, 12) ? tl_rng_range(r, 1, 5) : big[tl_rng_pick(r, 7)];
        k += snprintf(buf + k, n - (size_t)k, "%s%lld", i ? "x" : "", (long long)dims[i]);
    }
    for (int j = (int)tl_rng_range(r, 0, 2); j > 0; j--) k += snprintf(buf + k, n - (size_t)k, "%s", opts[tl_rng_pick(r, 12)]);
    if (tl_rng_pick(r, 3)) return;
    k += snprintf(buf + k, n - (size_t)k, ":strides=");
    int ns = rank + (int)tl_rng_range(r, -1, 1) * !tl_rng_pick(r, 4);
    for (int i = 0; i < ns; i++)
        k += snprintf(buf + k, n - (size_t)k, "%s%lld", i ? "," : "",
                      (long long)(tl_rng_pick(r, 10) ? tl_rng_range(r, 0, 400) : big[tl_rng_pick(r, 7)]));
}

static void check_accepted(const tl_desc *d, const char *spec)
{
    char out[1024];
    tl_desc e;
    tl_trt_runtime rt;
    if (tl_desc_format(d, out, sizeof out) != TL_OK || tl_desc_parse(&e, out) != TL_OK || memcmp(d, &e, sizeof e))
        FAILF("%s: no round trip (%s): %s", spec, out, tl_last_error());
    if (tl_trt_runtime_info(d, &rt) != TL_OK) { FAILF("%s: runtime info: %s", spec, tl_last_error()); return; }
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = d->vendor_format;
    t.type = tl_trt_datatype_of((tl_dtype)d->dtype);
    t.dims.nbDims = d->rank;
    memcpy(t.dims.d, d->dims, (size_t)d->rank * sizeof d->dims[0]);
    t.strides = rt.strides;
    t.dla_role = (int32_t)d->vendor_params[1];
    t.dla_gen = (int32_t)d->vendor_params[0];
    t.scale = d->quant.scale;
    if (tl_trt_desc_init(&e, &t) != TL_OK || memcmp(d, &e, sizeof e)) FAILF("%s: runtime strides do not rebuild it", spec);
    int64_t last[8];
    uint64_t off;
    for (int i = 0; i < d->rank; i++) last[i] = d->dims[i] - 1;
    if (tl_desc_offset(d, last, &off) != TL_OK || (int64_t)off + (tl_dtype_bits((tl_dtype)d->dtype) + 7) / 8 > d->size_bytes)
        FAILF("%s: last element at %llu of %lld bytes", spec, (unsigned long long)off, (long long)d->size_bytes);
}

TL_TEST(random_specs)
{
    tl_rng r = tl_test_rng();
    int accepted = 0;
    for (int k = 0; k < 4000 && TL_TEST_FAILURES() == 0; k++) {
        char spec[512];
        tl_desc d;
        random_spec(&r, spec, sizeof spec);
        tl_status s = tl_desc_parse(&d, spec);
        if (s != TL_OK) {
            if (!*tl_last_error()) FAILF("%s: %s without a message", spec, tl_status_str(s));
            continue;
        }
        accepted++;
        check_accepted(&d, spec);
    }
    if (accepted < 200) FAILF("only %d of 4000 random specs were valid: the generator must reach valid tensors", accepted);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(packed_against_array_oracle);
    TL_RUN(pitched_against_array_oracle);
    TL_RUN(random_specs);
    return tl_test_finish();
}
