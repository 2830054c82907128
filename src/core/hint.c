/* Hints that say what to do: the closest name to a typo, and the dims order a
 * layout expects when the given dims look like another layout's order. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define NAME_MAX_LEN 32

/* Optimal string alignment distance (edits: insert, delete, replace, swap of
 * two neighbours), case-insensitive; words longer than NAME_MAX_LEN are far. */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > NAME_MAX_LEN || m > NAME_MAX_LEN) return NAME_MAX_LEN;
    int d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = d[i - 1][j - 1] + !same;
            if (d[i - 1][j] + 1 < best) best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best) best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *tl_closest_name(const char *word, const char *const *names, size_t count)
{
    if (!word || !names) return NULL;
    const char *best = NULL;
    int best_d = 3; /* at most 2 edits */
    for (size_t i = 0; i < count; i++) {
        if (!names[i]) continue;
        int e = edit_distance(word, names[i]);
        if (e < best_d && e < (int)strlen(word)) {
            best = names[i];
            best_d = e;
        }
    }
    return best;
}

/* ---- dims order ------------------------------------------------------------ */
/* A channel count as images have it: 1 (grey), 3 (RGB), 4 (RGBA). */
static bool channel_like(int64_t v) { return v == 1 || v == 3 || v == 4; }

static int label_at(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

/* The dims of d's image dims put in its own order, when they look given in the
 * other common order: C after H,W (NHWC) given as C,H,W values, or C before
 * H,W (NCHW, TensorRT) given as H,W,C values. False when they look right. */
static bool reordered_dims(const tl_desc *d, int64_t *dims)
{
    int c = label_at(d, 'C'), h = label_at(d, 'H'), w = label_at(d, 'W');
    if (c < 0 || h < 0 || w < 0 || h > w || channel_like(d->dims[c])) return false;
    memcpy(dims, d->dims, sizeof d->dims);
    if (c > w && channel_like(d->dims[h])) { /* (h,w,c) hold (C,H,W) */
        dims[h] = d->dims[w], dims[w] = d->dims[c], dims[c] = d->dims[h];
        return true;
    }
    if (c < h && channel_like(d->dims[w])) { /* (c,h,w) hold (H,W,C) */
        dims[c] = d->dims[w], dims[h] = d->dims[c], dims[w] = d->dims[h];
        return true;
    }
    return false;
}

bool tl_dims_order_hint(const tl_desc *d, char *out, size_t cap)
{
    int64_t dims[TL_MAX_DIMS];
    char spec[512], order[2 * TL_MAX_DIMS + 1] = "";
    if (!reordered_dims(d, dims) || tl_desc_format(d, spec, sizeof spec) != TL_OK) return false;
    /* LAYOUT:DTYPE:DIMS[:OPTS]: the same spec with the dims field replaced, when
     * the spec gives one value per logical dim. */
    char *dt = strchr(spec, ':'), *dv = dt ? strchr(dt + 1, ':') : NULL;
    if (!dv) return false;
    char *rest = strchr(dv + 1, ':');
    int values = 1;
    for (const char *p = dv + 1; *p && p != rest; p++) values += *p == 'x';
    if (values != d->rank) return false;
    for (int i = 0; i < d->rank; i++) {
        size_t n = strlen(order);
        snprintf(order + n, sizeof order - n, "%s%c", i ? "," : "", d->labels[i] ? d->labels[i] : '?');
    }
    char fixed[512];
    tl_strbuf sb = {fixed, sizeof fixed, 0};
    tl_sb_printf(&sb, "%.*s", (int)(dv + 1 - spec), spec);
    tl_sb_i64_list(&sb, dims, d->rank, "x");
    tl_sb_printf(&sb, "%s", rest ? rest : "");
    snprintf(out, cap, "%.*s dims are %s: did you mean %s?", (int)(dt - spec), spec, order, fixed);
    return true;
}

/* A vendor format refused 4 dims: when the same spec with them in the other
 * common image order (N,H,W,C <-> N,C,H,W) parses and then has a channel-like
 * C where the given dims had none, the message says which order the format
 * takes ("trt.dla_hwc4 dims are N,C,H,W: did you mean ...?"). */
tl_status tl_hint_vendor_dims(tl_status st, const char *spec, const int64_t *dims, int ndims)
{
    static const int orders[2][4] = {{0, 3, 1, 2}, {0, 2, 3, 1}}; /* NHWC->NCHW, NCHW->NHWC */
    const char *dt = strchr(spec, ':'), *dv = dt ? strchr(dt + 1, ':') : NULL;
    if (!dv || ndims != 4) return st;
    const char *rest = strchr(dv + 1, ':');
    char saved[1024]; /* the library's detail, kept while the other order is tried */
    snprintf(saved, sizeof saved, "%s", tl_last_error());
    for (int k = 0; k < 2; k++) {
        char cand[1024];
        tl_strbuf sb = {cand, sizeof cand, 0};
        tl_sb_printf(&sb, "%.*s", (int)(dv + 1 - spec), spec);
        for (int i = 0; i < 4; i++) tl_sb_printf(&sb, "%s%lld", i ? "x" : "", (long long)dims[orders[k][i]]);
        tl_sb_printf(&sb, "%s", rest ? rest : "");
        tl_desc d;
        if (sb.len >= sizeof cand || tl_desc_parse_unhinted(&d, cand) != TL_OK || d.rank != 4) continue;
        int c = -1;
        for (int i = 0; i < 4; i++) c = d.labels[i] == 'C' ? i : c;
        if (c < 0 || !channel_like(d.dims[c]) || channel_like(dims[c])) continue;
        char order[8] = {d.labels[0], ',', d.labels[1], ',', d.labels[2], ',', d.labels[3], '\0'};
        tl_fail(st, "%s", saved);
        return tl_fail_append(st, "; %.*s dims are %s: did you mean %s?", (int)(dt - spec), spec, order, cand);
    }
    return tl_fail(st, "%s", saved);
}
