/* Layout words and the builders of plain, blocked, strided and YUV descriptors.
 *
 * A layout word lists physical axes outermost first. TVM style: uppercase
 * letters are dims (in the order the dims are given), "16c" is an inner block
 * of C. oneDNN style (any lowercase primal letter): "nChw16c" / "aBcd16b",
 * an uppercase letter marks a blocked dim; dims are given in oneDNN's logical
 * order (a..l by letter, or N C D H W / O I for named tags). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct token {
    char letter;
    int64_t factor; /* 0: primal */
} token;

static tl_status tokenize(const char *w, token *tok, int *ntok)
{
    int n = 0;
    const char *p = w;
    if (!*p) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout is empty");
    while (*p) {
        int64_t f = 0;
        while (isdigit((unsigned char)*p)) {
            if (f > 100000000) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: block factor too large", w);
            f = f * 10 + (*p++ - '0');
        }
        if (!*p && f)
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: block size %lld at the end needs the blocked dim's "
                           "lowercase letter, e.g. %sc", w, (long long)f, w);
        if (!isalpha((unsigned char)*p))
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: expected a letter at '%s'", w, p);
        if (n == TL_MAX_AXES) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: more than %d axes", w, TL_MAX_AXES);
        if (f == 0 && p > w && isdigit((unsigned char)p[-1]))
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: block factor 0", w);
        if (f == 1) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: block factor 1 means no block", w);
        if (f && !islower((unsigned char)*p))
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: a block '%lld%c' needs a lowercase letter", w,
                           (long long)f, *p);
        tok[n].letter = *p++;
        tok[n++].factor = f;
    }
    *ntok = n;
    return TL_OK;
}

/* Logical position of a named oneDNN letter: N/O first, then C/I, D, H, W. */
static int named_rank(char c)
{
    switch (c) {
    case 'n': case 'o': return 0;
    case 'c': case 'i': return 1;
    case 'd': return 2;
    case 'h': return 3;
    case 'w': return 4;
    default: return -1;
    }
}

static bool is_onednn(const token *tok, int n)
{
    for (int i = 0; i < n; i++)
        if (!tok[i].factor && islower((unsigned char)tok[i].letter)) return true;
    return false;
}

/* Assign each primal letter its logical dim. */
static tl_status assign_dims(const char *w, const token *tok, int n, bool onednn, tl_layout *L, char *letters)
{
    bool named = false;
    for (int i = 0; onednn && i < n; i++) {
        char c = (char)tolower((unsigned char)tok[i].letter);
        if (!tok[i].factor && (c == 'n' || c == 'w' || c == 'o')) named = true;
    }
    L->positional = onednn && !named;
    int np = 0;
    for (int i = 0; i < n; i++) {
        if (tok[i].factor) continue;
        char c = (char)tolower((unsigned char)tok[i].letter);
        for (int j = 0; j < np; j++)
            if (letters[j] == c) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: letter %c appears twice", w, tok[i].letter);
        if (np == TL_MAX_DIMS) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: more than %d dims", w, TL_MAX_DIMS);
        if (L->positional && (c < 'a' || c > 'l'))
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: oneDNN letter %c is not one of a..l", w, tok[i].letter);
        if (onednn && named && named_rank(c) < 0)
            return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: letter %c is not a oneDNN dim name (n c d h w o i)", w, tok[i].letter);
        for (int j = 0; onednn && named && j < np; j++) /* n/o and c/i name the same dim */
            if (named_rank(letters[j]) == named_rank(c))
                return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: letters %c and %c name the same oneDNN dim", w, letters[j], c);
        letters[np++] = c;
    }
    L->rank = np;
    if (L->positional)
        for (int j = 0; j < np; j++)
            if (letters[j] - 'a' >= np)
                return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: letters must be a..%c without gaps", w, 'a' + np - 1);
    return TL_OK;
}

/* Logical index of primal letter c (already lowercased). */
static int dim_of(const tl_layout *L, bool onednn, const char *letters, char c)
{
    int np = L->rank, k = -1;
    for (int j = 0; j < np; j++)
        if (letters[j] == c) k = j;
    if (k < 0) return -1;
    if (!onednn) return k; /* TVM: order of appearance */
    if (L->positional) return c - 'a';
    int pos = 0; /* named: rank among the present letters */
    for (int j = 0; j < np; j++)
        if (named_rank(letters[j]) < named_rank(c)) pos++;
    return pos;
}

tl_status tl_layout_parse(const char *w, tl_layout *L)
{
    token tok[TL_MAX_AXES];
    int n = 0;
    char letters[TL_MAX_DIMS];
    memset(L, 0, sizeof *L);
    TL_TRY(tokenize(w, tok, &n));
    bool onednn = is_onednn(tok, n);
    TL_TRY(assign_dims(w, tok, n, onednn, L, letters));
    bool blocked[TL_MAX_DIMS] = {false};
    for (int i = 0; i < n; i++) {
        char c = (char)tolower((unsigned char)tok[i].letter);
        int d = dim_of(L, onednn, letters, c);
        if (d < 0) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: block '%lld%c' has no dim %c", w,
                                  (long long)tok[i].factor, c, toupper((unsigned char)c));
        if (tok[i].factor) {
            if (blocked[d]) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: dim %c is blocked twice", w, toupper((unsigned char)c));
            blocked[d] = true;
        } else if (!L->positional) {
            L->labels[d] = (char)toupper((unsigned char)c);
        }
        L->axes[L->naxes].dim = d;
        L->axes[L->naxes++].inner = tok[i].factor;
    }
    if (onednn) /* an uppercase oneDNN letter is exactly a blocked dim */
        for (int i = 0; i < n; i++) {
            if (tok[i].factor) continue;
            int d = dim_of(L, true, letters, (char)tolower((unsigned char)tok[i].letter));
            if (!!isupper((unsigned char)tok[i].letter) != blocked[d])
                return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s: oneDNN letter %c must be %s", w, tok[i].letter,
                               blocked[d] ? "uppercase (it is blocked)" : "lowercase (it has no block)");
        }
    return TL_OK;
}

/* Inner block of dim i in plane 0 (the block of its outer axis), 1 if none. */
static int64_t dim_block(const tl_desc *d, int i)
{
    const tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && p->axes[a].block > 1) return p->axes[a].block;
    return 1;
}

/* Extents follow the padded dims: an outer block axis holds P/b blocks, an
 * inner block axis b positions, a plain axis P. */
static void set_extents(tl_desc *d)
{
    tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++) {
        tl_axis *x = &p->axes[a];
        int64_t b = dim_block(d, x->dim), P = tl_padded_dim(d, x->dim);
        if (x->block > 1) x->extent = P / x->block;
        else x->extent = b > 1 ? b : P;
    }
}

tl_status tl_desc_restride(tl_desc *d, const int64_t *align_bytes)
{
    tl_plane *p = &d->planes[0];
    int64_t acc = tl_dtype_bits((tl_dtype)d->dtype);
    for (int a = p->naxes - 1; a >= 0; a--) {
        p->axes[a].stride_bits = acc;
        int64_t al = align_bytes ? align_bytes[a] : 0, al_bits;
        if (!tl_mul_ok(acc, p->axes[a].extent, &acc) || !tl_mul_ok(al > 1 ? al : 1, 8, &al_bits) ||
            !tl_rup_ok(acc, al > 1 ? al_bits : 1, &acc))
            return tl_fail(TL_ERR_OVERFLOW, "layout size overflows int64 at axis %d (extent %lld)", a,
                           (long long)p->axes[a].extent);
    }
    int64_t bytes = acc / 8 + (acc % 8 != 0), off;
    if (!tl_add_ok(bytes, p->offset_bytes, &off))
        return tl_fail(TL_ERR_OVERFLOW, "layout size + offset overflows int64");
    d->size_bytes = off;
    return TL_OK;
}

static tl_status check_dims(tl_dtype dt, const int64_t *dims, int rank)
{
    if (tl_dtype_bits(dt) == 0) return tl_fail(TL_ERR_DTYPE, "dtype=%d: not a tl_dtype", (int)dt);
    if (!dims) return tl_fail(TL_ERR_NULL, "dims is NULL");
    if (rank < 1 || rank > TL_MAX_DIMS) return tl_fail(TL_ERR_RANK, "rank=%d: must be 1..%d", rank, TL_MAX_DIMS);
    for (int i = 0; i < rank; i++)
        if (dims[i] < 1) return tl_fail(TL_ERR_DIM, "dims[%d]=%lld: a dim must be >= 1", i, (long long)dims[i]);
    return TL_OK;
}

tl_status tl_desc_from_layout(tl_desc *d, const tl_layout *L, tl_dtype dt, const int64_t *dims, int rank)
{
    TL_TRY(check_dims(dt, dims, rank));
    if (rank != L->rank)
        return tl_fail(TL_ERR_SPEC_VALUE, "layout has %d dims but %d dims were given", L->rank, rank);
    tl_desc_clear(d);
    d->rank = rank;
    d->dtype = dt;
    memcpy(d->labels, L->labels, sizeof d->labels);
    tl_plane *p = &d->planes[0];
    p->naxes = L->naxes;
    for (int a = 0; a < L->naxes; a++) {
        p->axes[a].dim = L->axes[a].dim;
        p->axes[a].block = 1;
    }
    for (int i = 0; i < rank; i++) d->dims[i] = dims[i];
    for (int a = 0; a < L->naxes; a++) {
        if (!L->axes[a].inner) continue;
        int i = L->axes[a].dim;
        for (int b = 0; b < L->naxes; b++) /* the primal axis carries the block */
            if (L->axes[b].dim == i && !L->axes[b].inner) p->axes[b].block = L->axes[a].inner;
        int64_t r;
        if (!tl_rup_ok(dims[i], L->axes[a].inner, &r))
            return tl_fail(TL_ERR_OVERFLOW, "dims[%d]=%lld rounded up to block %lld overflows", i,
                           (long long)dims[i], (long long)L->axes[a].inner);
        d->pad_hi[i] = r - dims[i];
    }
    set_extents(d);
    return tl_desc_restride(d, NULL);
}

/* The public builders build into a local and copy out only on success: a
 * failed call leaves *d as it was. */
static tl_status init_layout(tl_desc *d, const char *layout, tl_dtype dt, const int64_t *dims, int rank)
{
    tl_layout L;
    TL_TRY(tl_layout_parse(layout, &L));
    TL_TRY(tl_desc_from_layout(d, &L, dt, dims, rank));
    return tl_desc_validate(d);
}

tl_status tl_desc_init(tl_desc *d, const char *layout, tl_dtype dt, const int64_t *dims, int rank)
{
    tl_desc t;
    if (!d || !layout) return tl_fail(TL_ERR_NULL, "descriptor or layout is NULL");
    TL_TRY(init_layout(&t, layout, dt, dims, rank));
    *d = t;
    return TL_OK;
}

/* The dense strides re-derived here are no vendor's layout: the result is a
 * generic descriptor, whose spec string then describes it exactly. */
static tl_status set_padding(tl_desc *d, const int64_t *lo, const int64_t *hi)
{
    if (d->nplanes != 1) return tl_fail(TL_ERR_UNSUPPORTED, "padding of a multi-plane descriptor cannot be re-derived");
    d->vendor = TL_VENDOR_NONE;
    d->vendor_format = 0;
    memset(d->vendor_params, 0, sizeof d->vendor_params);
    for (int i = 0; i < d->rank; i++) {
        if (lo[i] < 0 || hi[i] < 0)
            return tl_fail(TL_ERR_PAD, "pad of dims[%d]=(%lld,%lld): padding must be >= 0", i, (long long)lo[i],
                           (long long)hi[i]);
        int64_t P, r;
        if (!tl_add_ok(lo[i], d->dims[i], &P) || !tl_add_ok(P, hi[i], &P) || !tl_rup_ok(P, dim_block(d, i), &r))
            return tl_fail(TL_ERR_OVERFLOW, "padded dims[%d] overflows int64", i);
        d->pad_lo[i] = lo[i];
        d->pad_hi[i] = r - lo[i] - d->dims[i]; /* blocked dims: pad on to a whole block */
    }
    set_extents(d);
    TL_TRY(tl_desc_restride(d, NULL));
    return tl_desc_validate(d);
}

tl_status tl_desc_set_padding(tl_desc *d, const int64_t *lo, const int64_t *hi)
{
    if (!d || !lo || !hi) return tl_fail(TL_ERR_NULL, "descriptor or padding is NULL");
    TL_TRY(tl_desc_validate(d));
    tl_desc t = *d;
    TL_TRY(set_padding(&t, lo, hi));
    *d = t;
    return TL_OK;
}

static tl_status init_strided(tl_desc *d, tl_dtype dt, const int64_t *dims, const int64_t *strides, int rank)
{
    TL_TRY(check_dims(dt, dims, rank));
    tl_desc_clear(d);
    d->rank = rank;
    d->dtype = dt;
    tl_plane *p = &d->planes[0];
    p->naxes = rank;
    for (int i = 0; i < rank; i++) {
        d->dims[i] = dims[i];
        if (strides[i] < 0)
            return tl_fail(TL_ERR_STRIDE, "strides[%d]=%lld: strides must be >= 0", i, (long long)strides[i]);
        if (!tl_mul_ok(strides[i], tl_dtype_bits(dt), &p->axes[i].stride_bits))
            return tl_fail(TL_ERR_OVERFLOW, "strides[%d]=%lld elements overflows int64 bits", i, (long long)strides[i]);
        p->axes[i] = (tl_axis){.dim = i, .block = 1, .extent = dims[i], .stride_bits = p->axes[i].stride_bits};
        if (strides[i] == 0 && dims[i] > 1) d->flags |= TL_DESC_READONLY;
    }
    TL_TRY(tl_desc_update_size(d));
    return tl_desc_validate(d);
}

tl_status tl_desc_init_strided(tl_desc *d, tl_dtype dt, const int64_t *dims, const int64_t *strides, int rank)
{
    tl_desc t;
    if (!d || !strides) return tl_fail(TL_ERR_NULL, "descriptor or strides is NULL");
    TL_TRY(init_strided(&t, dt, dims, strides, rank));
    *d = t;
    return TL_OK;
}

/* ---- YUV 4:2:0: three planes Y, U, V over c in the plane dim ---------- */

static void yuv_plane(tl_plane *p, int64_t first, int64_t off, int64_t sub, int64_t h, int64_t w,
                      int64_t pitch, int64_t pixel_step)
{
    p->first = first;
    p->count = 1;
    p->offset_bytes = off;
    p->naxes = 2;
    p->axes[0] = (tl_axis){.dim = 1, .block = sub, .extent = tl_cdiv(h, sub), .stride_bits = pitch * 8};
    p->axes[1] = (tl_axis){.dim = 2, .block = sub, .extent = tl_cdiv(w, sub), .stride_bits = pixel_step * 8};
}

static tl_status init_yuv420(tl_desc *d, tl_yuv_kind kind, int64_t h, int64_t w, int64_t pitch, int64_t uvpitch,
                             int64_t co)
{
    if (kind < TL_YUV_NV12 || kind > TL_YUV_I420) return tl_fail(TL_ERR_SPEC_LAYOUT, "yuv kind=%d: unknown", (int)kind);
    const int64_t dims[3] = {3, h, w};
    TL_TRY(check_dims(TL_U8, dims, 3));
    if (h > INT64_MAX / 16 || w > INT64_MAX / 16 || pitch > INT64_MAX / 16 || uvpitch > INT64_MAX / 16 ||
        co > INT64_MAX / 16) /* bits, pairs: no wrap */
        return tl_fail(TL_ERR_OVERFLOW, "4:2:0 image H=%lld W=%lld pitch=%lld uvpitch=%lld chroma=%lld: over 2^59, bit offsets overflow int64", (long long)h, (long long)w, (long long)pitch, (long long)uvpitch, (long long)co);
    if (pitch < 0 || uvpitch < 0) return tl_fail(TL_ERR_STRIDE, "pitch=%lld uvpitch=%lld: pitches must be >= 0", (long long)pitch, (long long)uvpitch);
    int64_t chroma_row = kind == TL_YUV_I420 ? w : 2 * tl_cdiv(w, 2); /* U,V pairs */
    int64_t uv_row = kind == TL_YUV_I420 ? tl_cdiv(w, 2) : chroma_row; /* bytes of one chroma plane row */
    if (pitch == 0) pitch = uvpitch ? w : chroma_row;
    if (pitch < w) return tl_fail(TL_ERR_STRIDE, "row pitch=%lld < width %lld", (long long)pitch, (long long)w);
    if (uvpitch && uvpitch < uv_row)
        return tl_fail(TL_ERR_STRIDE, "uvpitch=%lld < %lld bytes of a chroma row (width %lld): use uvpitch=%lld or more",
                       (long long)uvpitch, (long long)uv_row, (long long)w, (long long)uv_row);
    if (!uvpitch && pitch < chroma_row)
        return tl_fail(TL_ERR_STRIDE, "row pitch=%lld < %lld bytes of an interleaved chroma row (odd width %lld): "
                       "use pitch=%lld or more, or uvpitch=%lld for a separate chroma pitch",
                       (long long)pitch, (long long)chroma_row, (long long)w, (long long)chroma_row,
                       (long long)chroma_row);
    int64_t yend, t;
    if (!tl_mul_ok(h, pitch, &yend)) return tl_fail(TL_ERR_OVERFLOW, "height x pitch overflows int64");
    if (co == 0) co = yend;
    if (co < yend) return tl_fail(TL_ERR_PLANE, "chroma offset=%lld < %lld bytes of the Y plane", (long long)co, (long long)yend);
    tl_desc_clear(d);
    d->rank = 3;
    d->dtype = TL_U8;
    memcpy(d->dims, dims, sizeof dims);
    d->labels[0] = 'C', d->labels[1] = 'H', d->labels[2] = 'W';
    d->vendor = TL_VENDOR_YUV;
    d->vendor_format = kind;
    d->plane_dim = 0;
    d->nplanes = 3;
    yuv_plane(&d->planes[0], 0, 0, 1, h, w, pitch, 1);
    if (!uvpitch) uvpitch = kind == TL_YUV_I420 ? tl_cdiv(pitch, 2) : pitch;
    if (kind == TL_YUV_I420) {
        int64_t cp = uvpitch;
        if (!tl_mul_ok(cp, tl_cdiv(h, 2), &t) || !tl_add_ok(co, t, &t))
            return tl_fail(TL_ERR_OVERFLOW, "I420 plane size overflows int64");
        yuv_plane(&d->planes[1], 1, co, 2, h, w, cp, 1);
        yuv_plane(&d->planes[2], 2, t, 2, h, w, cp, 1);
    } else { /* semi-planar: U and V interleaved, NV12 = U first */
        int64_t u = kind == TL_YUV_NV12 ? co : co + 1, v = kind == TL_YUV_NV12 ? co + 1 : co;
        yuv_plane(&d->planes[1], 1, u, 2, h, w, uvpitch, 2);
        yuv_plane(&d->planes[2], 2, v, 2, h, w, uvpitch, 2);
    }
    d->vendor_params[0] = pitch;
    d->vendor_params[1] = co;
    d->vendor_params[2] = uvpitch;
    TL_TRY(tl_desc_update_size(d));
    return tl_desc_validate(d);
}

tl_status tl_desc_init_yuv420_pitches(tl_desc *d, tl_yuv_kind kind, int64_t h, int64_t w, int64_t pitch,
                                      int64_t uvpitch, int64_t co)
{
    tl_desc t;
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(init_yuv420(&t, kind, h, w, pitch, uvpitch, co));
    *d = t;
    return TL_OK;
}

tl_status tl_desc_init_yuv420(tl_desc *d, tl_yuv_kind kind, int64_t h, int64_t w, int64_t pitch, int64_t co)
{
    return tl_desc_init_yuv420_pitches(d, kind, h, w, pitch, 0, co);
}

/* ---- layout word from a descriptor ------------------------------------- */

/* Check the plane is plain/blocked (per dim: one full axis, or an outer block
 * axis plus one inner axis of that size) and find each dim's primal order. */
static tl_status word_shape(const tl_desc *d, int *primal_order)
{
    const tl_plane *p = &d->planes[0];
    int seen = 0;
    if (d->nplanes != 1) return tl_fail(TL_ERR_UNSUPPORTED, "a multi-plane descriptor has no layout word");
    for (int i = 0; i < d->rank; i++) {
        int n = 0;
        for (int a = 0; a < p->naxes; a++) n += p->axes[a].dim == i;
        int64_t b = dim_block(d, i);
        if (n != (b > 1 ? 2 : 1))
            return tl_fail(TL_ERR_UNSUPPORTED, "dim %d has %d axes: not expressible as a layout word", i, n);
    }
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        bool inner = x->block == 1 && dim_block(d, x->dim) > 1;
        if (inner) {
            if (x->extent != dim_block(d, x->dim))
                return tl_fail(TL_ERR_UNSUPPORTED, "inner axis of dim %d: extent %lld != block", (int)x->dim,
                               (long long)x->extent);
        } else {
            primal_order[seen++] = x->dim;
        }
    }
    return TL_OK;
}

tl_status tl_layout_word(const tl_desc *d, char *buf, size_t n, bool *positional)
{
    int order[TL_MAX_AXES];
    TL_TRY(word_shape(d, order));
    bool tvm = true;
    for (int i = 0; i < d->rank; i++)
        if (!d->labels[i] || order[i] != i) tvm = false;
    *positional = !tvm;
    if (d->rank > 12 && !tvm) return tl_fail(TL_ERR_UNSUPPORTED, "rank %d has no oneDNN letters", (int)d->rank);
    tl_strbuf sb = {buf, n, 0};
    const tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        bool blocked = dim_block(d, x->dim) > 1, inner = blocked && x->block == 1;
        char up = tvm ? d->labels[x->dim] : (char)('A' + x->dim);
        char lo = (char)tolower((unsigned char)up);
        if (inner) tl_sb_printf(&sb, "%lld%c", (long long)x->extent, lo);
        else tl_sb_printf(&sb, "%c", tvm || blocked ? up : lo);
    }
    if (sb.len >= n) return tl_fail(TL_ERR_BUFFER_SMALL, "layout word needs %zu bytes", sb.len + 1);
    return TL_OK;
}
