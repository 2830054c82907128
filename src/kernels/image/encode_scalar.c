/* Scalar twin of the real-value kernel (kernels/image/encode.h): the
 * definitions one value at a time. */
#include <math.h>
#include <string.h>

#include "kernels/image/encode.h"

static inline float real_of(const tl_img_real *r, uint8_t v, size_t k)
{
    float a = (float)v - r->mean[k];
    switch (r->mode) {
    case TL_REAL_MUL: return a * r->rcp[k];
    case TL_REAL_FMA: {
        float q = a * r->rcp[k];
        return fmaf(fmaf(-q, r->std[k], a), r->rcp[k], q);
    }
    default: return a / r->std[k];
    }
}

void tl_u8_real_ukernel__scalar(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    for (size_t i = 0, k = 0; i < n; i++, k = k + 1 == TL_REAL_PERIOD ? 0 : k + 1) dst[i] = real_of(r, src[i], k);
}

/* The usual shapes (RGB into NC1HWC2 or HWC4 pixels) move 8 bytes a pixel,
 * masked, with stores of constant size; anything else byte by byte. */
void tl_x8_expand_ukernel__scalar(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out)
{
    const size_t bytes = (size_t)x->bytes, ps = (size_t)x->ps, at = (size_t)x->at;
    if (at == 0 && bytes < 8 && (ps == 8 || ps == 16 || ps == 32)) {
        const uint64_t mask = ((uint64_t)1 << (8 * bytes)) - 1;
#define TL_EXPAND_LOOP(PS)                                              \
        for (size_t i = 0; i < n; i++, in += bytes, out += (PS)) {      \
            uint64_t v[(PS) / 8] = {0};                                 \
            memcpy(&v[0], in, 8); /* the input has slack */             \
            v[0] &= mask;                                               \
            memcpy(out, v, (PS));                                       \
        }
        switch (ps) {
        case 8: TL_EXPAND_LOOP(8) break;
        case 16: TL_EXPAND_LOOP(16) break;
        default: TL_EXPAND_LOOP(32) break;
        }
#undef TL_EXPAND_LOOP
        return;
    }
    for (size_t i = 0; i < n; i++, in += bytes, out += ps)
        for (size_t b = 0; b < ps; b++) out[b] = b >= at && b < at + bytes ? in[b - at] : 0;
}

/* Each pixel: its zero bytes, then each channel's code. */
void tl_x8_code_pixels_ukernel__scalar(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out)
{
    const size_t dc = (size_t)k->dc, ps = (size_t)k->ps, at = (size_t)k->at;
    for (size_t i = 0; i < n; i++, px += dc, out += ps) {
        memset(out, 0, ps);
        for (size_t c = 0; c < dc; c++) out[at + c] = k->code[c][px[c]];
    }
}

void tl_u8_real_planes_ukernel__scalar(const uint8_t *px, size_t n, int dc, const tl_img_real *chan, uint8_t *const *out)
{
    for (size_t c = 0; c < (size_t)dc; c++)
        for (size_t x = 0; x < n; x++) {
            float v = real_of(&chan[c], px[x * (size_t)dc + c], 0);
            memcpy(out[c] + 4 * x, &v, 4); /* a plane row may sit at any byte */
        }
}

void tl_x8_fill_period_ukernel__scalar(uint8_t *dst, size_t n, const uint8_t *pat, size_t period)
{
    (void)period; /* 64 bytes of pattern are a whole number of periods */
    for (size_t i = 0; i < n; i += 64) memcpy(dst + i, pat, n - i < 64 ? n - i : 64);
}
