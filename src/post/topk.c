/* tl_topk and tl_gather. */
#include <stdlib.h>

#include "post/post_internal.h"

/* Insert into the sorted top list (largest first; an equal value keeps the
 * earlier entry first, and candidates arrive in (n, h, w, c) order). */
static void insert(tl_hit *top, int64_t *len, int64_t k, tl_hit h)
{
    int64_t i = *len;
    if (i == k) {
        if (!(h.value > top[k - 1].value)) return;
        i = k - 1;
    } else {
        (*len)++;
    }
    while (i > 0 && h.value > top[i - 1].value) {
        top[i] = top[i - 1];
        i--;
    }
    top[i] = h;
}

tl_status tl_topk(const tl_desc *d, const void *buf, size_t len, int64_t k, unsigned flags, tl_hit *hits, size_t cap,
                  size_t *nhits)
{
    tl_pview v;
    if (!buf || !nhits || (!hits && cap > 0)) return tl_fail(TL_ERR_NULL, "buf, nhits or hits (with cap > 0) is NULL");
    if (flags & ~TL_TOPK_PER_ITEM) return tl_fail(TL_ERR_UNSUPPORTED, "flags=0x%x: only TL_TOPK_PER_ITEM is defined", flags);
    TL_TRY(tl_pview_init(&v, d, len, true));
    bool item = (flags & TL_TOPK_PER_ITEM) != 0;
    int64_t per = item ? v.C * v.H * v.W : v.C, groups = item ? v.N : v.N * v.H * v.W, need = 0;
    tl_status s = TL_OK;
    if (k < 1 || k > per)
        s = tl_fail(TL_ERR_COORD, "k=%lld: must be 1..%lld (the values per %s)", (long long)k, (long long)per,
                    item ? "batch item, C*H*W" : "position, C");
    else if (!tl_mul_ok(groups, k, &need))
        s = tl_fail(TL_ERR_OVERFLOW, "%lld groups x k=%lld overflows", (long long)groups, (long long)k);
    else if ((uint64_t)cap < (uint64_t)need) {
        *nhits = (size_t)need;
        s = tl_fail(TL_ERR_BUFFER_SMALL, "cap=%llu hits: %lld needed (%lld groups x k=%lld; nothing written)",
                    (unsigned long long)cap, (long long)need, (long long)groups, (long long)k);
    }
    if (s != TL_OK) {
        tl_pview_free(&v);
        return s;
    }
    const uint8_t *b = buf;
    int64_t out = 0, len_top = 0;
    for (int64_t n = 0; n < v.N; n++)
        for (int64_t h = 0; h < v.H; h++)
            for (int64_t w = 0; w < v.W; w++) {
                if (!item || (h == 0 && w == 0)) len_top = 0;
                for (int64_t c = 0; c < v.C; c++) {
                    int64_t code = tl_pview_load(&v, b, tl_pview_bit(&v, n, c, h, w));
                    insert(hits + out, &len_top, k, (tl_hit){n, h, w, (int32_t)c, (int32_t)code, tl_pview_value(&v, code)});
                }
                if (!item || (h == v.H - 1 && w == v.W - 1)) out += k;
            }
    *nhits = (size_t)need;
    tl_pview_free(&v);
    return TL_OK;
}

tl_status tl_gather(const tl_desc *d, const void *buf, size_t len, const int64_t *coords, size_t count, double *out)
{
    tl_pview v;
    if (!buf || (count && (!coords || !out))) return tl_fail(TL_ERR_NULL, "buf, coords or out is NULL");
    TL_TRY(tl_pview_init(&v, d, len, false));
    const int64_t size[4] = {v.N, v.C, v.H, v.W};
    for (size_t i = 0; i < count; i++)
        for (int k = 0; k < 4; k++)
            if (coords[4 * i + k] < 0 || coords[4 * i + k] >= size[k]) {
                tl_pview_free(&v);
                return tl_fail(TL_ERR_COORD, "coords[%zu].%c=%lld: must be in [0, %lld)", i, "nchw"[k],
                               (long long)coords[4 * i + k], (long long)size[k]);
            }
    const uint8_t *b = buf;
    for (size_t i = 0; i < count; i++) {
        const int64_t *x = coords + 4 * i;
        int64_t bit = tl_pview_bit(&v, x[0], x[1], x[2], x[3]);
        if (v.bits == 32) {
            float f;
            memcpy(&f, b + bit / 8, 4);
            out[i] = f;
        } else if (v.bits == 64) {
            memcpy(&out[i], b + bit / 8, 8);
        } else {
            out[i] = tl_pview_value(&v, tl_pview_load(&v, b, bit));
        }
    }
    tl_pview_free(&v);
    return TL_OK;
}
