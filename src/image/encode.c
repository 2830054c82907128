/* The vector encode of image rows (docs/image.md, "Kernels"): the u8 pixels
 * of a destination row become the destination's elements with vector
 * kernels instead of a table lookup per value, in two steps over a chunk
 * of the row held in L1:
 *   1. the real value ((float)v - mean[c]) / std[c] (kernels/image/encode.h),
 *      skipped when every channel has mean 0 and std 1 (the real value is
 *      then (float)v itself, so step 2 reads the u8 values);
 *   2. the element rule (dtype, quantization, rounding, saturation): the
 *      engine's convert row kernels, bit-exact to elem.c by their own tests.
 * write.c puts the elements where the destination wants them.
 *
 * The plan's table (plan.c lut_init) stays the definition and the scalar
 * path. Step 1's division is taken in the fastest form the kernel has that
 * gives the same f32 quotient for every u8 value of every channel (there are
 * only 256 per channel, so that is checked here, once per plan); no form is
 * left to chance, and when none matches (Armv7 without a divide) the plan
 * keeps its table.
 *
 * On AVX-512 with VBMI two destinations take one kernel from the row of
 * pixels straight to the destination row instead (measured faster,
 * docs/performance.md): 8-bit codes into pixels with pad lanes, looked up
 * in the plan's own tables, and f32 plane rows. Letterbox border rows are
 * written from their pad pattern (fill_init). */
#include <string.h>

#include "engine/engine.h"
#include "image/image.h"

static const tl_img_real_kernel k_real[] = {
#if defined(__x86_64__)
    {"tl_u8_real_ukernel__avx512", TL_ISA_AVX512, TL_REAL_MUL | TL_REAL_FMA | TL_REAL_DIV, tl_u8_real_ukernel__avx512},
    {"tl_u8_real_ukernel__avx2", TL_ISA_AVX2, TL_REAL_MUL | TL_REAL_DIV, tl_u8_real_ukernel__avx2},
    {"tl_u8_real_ukernel__sse2", TL_ISA_SSE2, TL_REAL_MUL | TL_REAL_DIV, tl_u8_real_ukernel__sse2},
#endif
#if defined(__aarch64__) || defined(__arm__)
    {"tl_u8_real_ukernel__neon", TL_ISA_NEON, TL_REAL_NEON_MODES, tl_u8_real_ukernel__neon},
#endif
    {"tl_u8_real_ukernel__scalar", TL_ISA_SCALAR, TL_REAL_MUL | TL_REAL_FMA | TL_REAL_DIV, tl_u8_real_ukernel__scalar}};

const tl_img_real_kernel *tl_img_real_kernel_for(int isa)
{
    for (size_t i = 0; i < sizeof k_real / sizeof k_real[0]; i++)
        if (tl_isa_includes(isa, k_real[i].isa) && tl_cpu_has(k_real[i].isa)) return &k_real[i];
    return &k_real[sizeof k_real / sizeof k_real[0] - 1];
}

/* Expanding packed pixels (pad lanes): the vector kernels where they take the shape. */
static void expand_kernel(tl_img_enc *e, int isa)
{
    e->expand = tl_x8_expand_ukernel__scalar, e->expand_name = "tl_x8_expand_ukernel__scalar";
    if (!tl_img_expand_vector(&e->ex)) return;
#if defined(__x86_64__)
    if (isa == TL_ISA_AVX512 && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI))
        e->expand = tl_x8_expand_ukernel__avx512vbmi, e->expand_name = "tl_x8_expand_ukernel__avx512vbmi";
    else if (tl_isa_includes(isa, TL_ISA_AVX2) && tl_cpu_has(TL_ISA_AVX2))
        e->expand = tl_x8_expand_ukernel__avx2, e->expand_name = "tl_x8_expand_ukernel__avx2";
#endif
#if defined(__aarch64__) || defined(__arm__)
    if (isa == TL_ISA_NEON && tl_cpu_has(TL_ISA_NEON))
        e->expand = tl_x8_expand_ukernel__neon, e->expand_name = "tl_x8_expand_ukernel__neon";
#endif
}

/* The definition (plan.c lut_init): numpy's (x.astype(float32) - mean) / std. */
static float real_value(float mean, float std, int v) { return ((float)v - mean) / std; }

static void real_params(tl_img_real *r, int mode, const float *mean, const float *std, int dc, int only)
{
    r->mode = mode;
    for (int k = 0; k < TL_REAL_PERIOD; k++) {
        int c = only >= 0 ? only : k % dc;
        r->mean[k] = mean[c], r->std[k] = std[c], r->rcp[k] = 1.0f / std[c];
    }
}

/* Does the kernel in this mode give the definition's bits for every value
 * of every channel? One row whose pixel v has every channel = v. */
static bool real_exact(const tl_img_real_kernel *k, const tl_img_real *r, const float *mean, const float *std, int dc)
{
    uint8_t src[256 * 4] = {0};
    float got[256 * 4];
    for (int v = 0; v < 256; v++)
        for (int c = 0; c < dc; c++) src[v * dc + c] = (uint8_t)v;
    k->fn(src, got, (size_t)(256 * dc), r);
    for (int i = 0; i < 256 * dc; i++) {
        float want = real_value(mean[i % dc], std[i % dc], i / dc);
        if (memcmp(&got[i], &want, 4) != 0) return false;
    }
    return true;
}

static bool identity(const float *mean, const float *std, int dc)
{
    for (int c = 0; c < dc; c++)
        if (mean[c] != 0.0f || std[c] != 1.0f) return false;
    return true;
}

/* Border rows: the pad pixel (or each plane's pad element) repeated over the
 * image's width, by vector stores of the pattern where the period divides
 * the vector (64 bytes AVX-512, 32 AVX2) and the span holds the kernels'
 * 128 bytes of pattern; elsewhere copies of the encoded row. */
static void fill_init(tl_img_fill *f, const tl_img_dst *w, const tl_desc *d, int isa)
{
    f->fn = NULL;
    f->period = (size_t)(w->shape == TL_DST_PIXELS ? w->ps : w->eb);
    f->at = w->plo_w * (int64_t)f->period, f->len = d->dims[w->wdim] * (int64_t)f->period;
    if (w->shape == TL_DST_ELEMENTS || 64 % f->period != 0 || f->len < 128) return;
#if defined(__x86_64__)
    if (isa == TL_ISA_AVX512 && tl_cpu_has(TL_ISA_AVX512)) f->fn = tl_x8_fill_period_ukernel__avx512;
    else if (isa == TL_ISA_AVX2 && tl_cpu_has(TL_ISA_AVX2) && 32 % f->period == 0) f->fn = tl_x8_fill_period_ukernel__avx2;
#else
    (void)isa;
#endif
}

/* AVX-512 VBMI, 8-bit codes into pixels with pad lanes (NC1HWC2, HWC4 int8):
 * the plan's own tables in registers, one step from pixels to the row. */
static bool pix8_init(tl_img_enc *e, const tl_img_dst *w, const tl_img_codes *t, bool vbmi)
{
    if (!vbmi || w->shape != TL_DST_PIXELS || w->eb != 1 || w->ps == w->dc ||
        !tl_img_pix8_vector(w->dc, (int)w->ps, (int)w->plo_c))
        return false;
    uint8_t code[4][256];
    for (int c = 0; c < w->dc; c++)
        for (int v = 0; v < 256; v++) code[c][v] = (uint8_t)t->lut[c][v];
    tl_img_pix8_init(&e->pix8, w->dc, (int)w->ps, (int)w->plo_c, code);
#if defined(__x86_64__)
    e->pix8_fn = tl_x8_code_pixels_ukernel__avx512vbmi, e->elem_name = "tl_x8_code_pixels_ukernel__avx512vbmi";
#endif
    return e->pix8_fn != NULL;
}

/* Does the planes kernel in this form give the definition's bits for every
 * value of every channel? A row whose pixel v has every channel = v. */
static bool planes_exact(tl_img_real_planes_fn fn, const tl_img_real *chan, const float *mean, const float *std, int dc)
{
    uint8_t src[256 * 4] = {0};
    float got[4][256];
    uint8_t *out[4] = {(uint8_t *)got[0], (uint8_t *)got[1], (uint8_t *)got[2], (uint8_t *)got[3]};
    for (int v = 0; v < 256; v++)
        for (int c = 0; c < dc; c++) src[v * dc + c] = (uint8_t)v;
    fn(src, 256, dc, chan, out);
    for (int c = 0; c < dc; c++)
        for (int v = 0; v < 256; v++) {
            float want = real_value(mean[c], std[c], v);
            if (memcmp(&got[c][v], &want, 4) != 0) return false;
        }
    return true;
}

/* AVX-512 VBMI, f32 planes (NCHW, pitched f32 planes): every channel's real
 * values straight into its plane row, in the fastest exact form. */
static bool planes_init(tl_img_enc *e, const tl_img_dst *w, const tl_desc *d, const float *mean, const float *std,
                        bool vbmi)
{
    if (!vbmi || w->shape != TL_DST_PLANES || d->dtype != TL_F32 || d->quant.kind != TL_Q_NONE || w->dc == 2) return false;
    tl_img_real_planes_fn fn = NULL;
#if defined(__x86_64__)
    fn = tl_u8_real_planes_ukernel__avx512vbmi;
#endif
    static const int order[] = {TL_REAL_MUL, TL_REAL_FMA, TL_REAL_DIV}; /* fastest first */
    for (int i = 0; i < 3 && fn; i++) {
        for (int c = 0; c < w->dc; c++) real_params(&e->chan[c], order[i], mean, std, w->dc, c);
        if (planes_exact(fn, e->chan, mean, std, w->dc)) {
            e->planes = fn, e->real_name = "tl_u8_real_planes_ukernel__avx512vbmi";
            return true;
        }
    }
    return false;
}

void tl_img_enc_init(tl_img_enc *e, const tl_img_dst *w, const tl_desc *d, const tl_img_codes *t, const float *mean,
                     const float *std, int isa)
{
    memset(e, 0, sizeof *e);
    if (isa < 0) isa = tl_cpu_default_isa();
    fill_init(&e->fill, w, d, isa);
    bool vbmi = isa == TL_ISA_AVX512 && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI);
    if (pix8_init(e, w, t, vbmi) || planes_init(e, w, d, mean, std, vbmi)) {
        e->on = true;
        return;
    }
    /* The tables stay where they measured faster (docs/performance.md): the
     * scalar path (one load per value), and SSE2 (no byte shuffle for the
     * pad lanes, no F16C: its f16 conversion is software, 5 x slower). */
    if (isa == TL_ISA_SCALAR || isa == TL_ISA_SSE2 || !tl_cpu_has(isa) || w->shape == TL_DST_ELEMENTS ||
        !tl_fast_dtype(d->dtype))
        return;
    const int dc = w->dc;
    e->identity = identity(mean, std, dc);
    tl_cvt_init_dt(&e->cv, e->identity ? TL_U8 : TL_F32, NULL, (tl_dtype)d->dtype, &d->quant);
    if (!e->cv.fast) return;
    if (e->cv.path != TL_EP_COPY) {
        const tl_row_kernel *k = tl_find_table_row(isa, &e->cv);
        if (!k) k = tl_find_row(isa, (tl_dtype)e->cv.sdt, (tl_dtype)e->cv.ddt);
        if (!k) return;
        e->elem = k->fn, e->elem_name = k->name;
    }
    /* 8-bit codes in pixels of 16 bytes or more (NC1HWC2, kCHW16/32 i8): the
     * table writer's one OR of dc words and two stores per pixel beat the
     * f32 pipeline plus a shuffle, unless step 2 is a byte copy or the byte
     * table shuffle (AVX-512 VBMI) */
    bool byte_step = e->identity && (e->cv.path == TL_EP_COPY || (e->cv.lut8 && tl_find_table_row(isa, &e->cv)));
    if (w->shape == TL_DST_PIXELS && w->eb == 1 && w->ps >= 16 && !byte_step) return;
    if (w->shape == TL_DST_PLANES && dc > 1) {
        const tl_t2d_kernel *t = tl_find_t2d(isa, 1, TL_IMG_ENC_CHUNK, (size_t)dc);
        if (!t) return;
        e->dilv = t->fn;
    }
    if (w->shape == TL_DST_PIXELS && w->ps != dc * w->eb) {
        tl_img_expand_init(&e->ex, (int)(dc * w->eb), (int)w->ps, (int)(w->plo_c * w->eb));
        expand_kernel(e, isa);
    }
    if (!e->identity) {
        const tl_img_real_kernel *k = tl_img_real_kernel_for(isa);
        static const int order[] = {TL_REAL_MUL, TL_REAL_FMA, TL_REAL_DIV}; /* fastest first */
        for (int i = 0; i < 3 && !e->real; i++) {
            if (!(k->modes & order[i])) continue;
            real_params(&e->all, order[i], mean, std, dc, -1);
            if (real_exact(k, &e->all, mean, std, dc)) e->real = k->fn, e->real_name = k->name;
        }
        if (!e->real) return; /* no form gives the definition's quotient */
        for (int c = 0; c < dc; c++) real_params(&e->chan[c], e->all.mode, mean, std, dc, c);
    }
    e->on = true;
}
