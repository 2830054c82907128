/* Internal helpers shared by core, vendors and engine. Not installed. */
#ifndef TL_INTERNAL_H
#define TL_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tlayout.h"

/* ---- errors ------------------------------------------------------------ */
/* Record a detail message for tl_last_error() and return `s`. printf format.
 * Messages name the field, the value and the rule: "dims[1]=0: a dim must be >= 1". */
tl_status tl_fail(tl_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tl_clear_error(void);
/* Add to the current detail: "PREFIX: detail" and "detail; MORE" (printf). For
 * naming the side of a conversion and for hints that say what to do. */
tl_status tl_fail_prefix(tl_status s, const char *prefix);
tl_status tl_fail_append(tl_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#define TL_TRY(expr)                            \
    do {                                        \
        tl_status tl_try_s_ = (expr);           \
        if (tl_try_s_ != TL_OK) return tl_try_s_; \
    } while (0)

/* ---- hints (hint.c) ------------------------------------------------------ */
/* "NHWC dims are N,H,W,C: did you mean NHWC:u8:1x480x640x3?" when d's image
 * dims look given in the other common order; false (out untouched) otherwise.
 * It formats d, which may overwrite tl_last_error(): call it before tl_fail. */
bool tl_dims_order_hint(const tl_desc *d, char *out, size_t cap);
/* A vendor parser refused the 4 dims of spec with status st: append to the
 * detail the order the format takes when the other common image order parses
 * (N,H,W,C <-> N,C,H,W); returns st. */
tl_status tl_hint_vendor_dims(tl_status st, const char *spec, const int64_t *dims, int ndims);
/* tl_desc_parse without that hint (what the hint itself tries). */
tl_status tl_desc_parse_unhinted(tl_desc *out, const char *spec);
/* The canonical dtype name closest to a mistyped one, or NULL (elem.c). */
const char *tl_dtype_closest_name(const char *s);

/* ---- overflow-checked 64-bit arithmetic ----------------------------- */
/* Each returns false on overflow and leaves *r unspecified. */
static inline bool tl_add_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_add_overflow(a, b, r); }
static inline bool tl_mul_ok(int64_t a, int64_t b, int64_t *r) { return !__builtin_mul_overflow(a, b, r); }
static inline int64_t tl_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; } /* a >= 0, b > 0, no overflow checks */
/* rup(a, b) = cdiv(a,b)*b with overflow check; b <= 1 returns a. */
bool tl_rup_ok(int64_t a, int64_t b, int64_t *r);

/* ---- a growing string (for format / json); never fails, truncates ---- */
typedef struct tl_strbuf {
    char *buf;
    size_t cap, len;   /* len may exceed cap: the length that was needed */
} tl_strbuf;
void tl_sb_printf(tl_strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tl_sb_i64_list(tl_strbuf *sb, const int64_t *v, int n, const char *sep);
/* Shortest decimal that reads back to the same float. */
void tl_sb_float(tl_strbuf *sb, float f);

/* ---- spec strings: the pieces a vendor parser receives --------------- */
#define TL_SPEC_MAX_OPTS 24
typedef struct tl_spec_opt {
    char key[24];
    const char *value;  /* points into the parser's copy of the spec */
    bool used;          /* set by whoever consumes it; leftovers are errors */
} tl_spec_opt;

#define TL_SPEC_MAX_ASKED 32
typedef struct tl_spec {
    const char *layout;     /* e.g. "NCHW16c", "larod.nhwc", "tidl" */
    const char *vformat;    /* for "vendor.format": the part after '.', else "" */
    tl_dtype dtype;
    int ndims;
    int64_t dims[TL_MAX_DIMS + 4];
    int nopts;
    tl_spec_opt opts[TL_SPEC_MAX_OPTS];
    /* Every key a parser asked for, given or not: the keys valid for this
     * layout, listed when a key is not known. */
    int nasked;
    const char *asked[TL_SPEC_MAX_ASKED];
} tl_spec;

/* Find an option (marks it used) or NULL. */
tl_spec_opt *tl_spec_take(tl_spec *s, const char *key);
/* Parse a comma-separated list of integers; exact count `want` unless want < 0
 * (then up to `max`, count in *got). Messages name `key`. */
tl_status tl_parse_i64_list(const char *key, const char *value, int64_t *out, int want,
                            int max, int *got);
tl_status tl_parse_i64(const char *key, const char *value, int64_t *out);
tl_status tl_parse_f32(const char *key, const char *value, float *out);

/* A vendor plugs in here: a prefix in the table of src/core/vendor_table.c. */
typedef struct tl_vendor_ops {
    const char *prefix;     /* "larod" matches "larod" and "larod.xxx" */
    tl_vendor vendor;
    /* Build *out from the spec; consume the options it knows (tl_spec_take).
     * Common quantization options (q zp scale fl round) are applied by the core
     * afterwards unless the vendor consumed them. */
    tl_status (*parse)(tl_desc *out, tl_spec *spec);
    /* Append LAYOUT:DTYPE:DIMS[:vendor options] (no quant options: the core adds them). */
    tl_status (*format)(const tl_desc *d, tl_strbuf *sb);
    /* Append extra JSON members, each as ,"key":value (may be NULL). */
    void (*json_extra)(const tl_desc *d, tl_strbuf *sb);
    /* Append extra sentences for `tlayout explain` (may be NULL). */
    void (*explain)(const tl_desc *d, tl_strbuf *sb);
} tl_vendor_ops;

const tl_vendor_ops *tl_vendor_find_prefix(const char *layout);
const tl_vendor_ops *tl_vendor_find(tl_vendor v);

/* ---- descriptor internals --------------------------------------------- */
/* Zero a descriptor: rank 0, one empty plane, plane_dim -1. */
void tl_desc_clear(tl_desc *d);
/* Plane holding logical coordinate x (the plane dim decides). */
int tl_desc_plane_of(const tl_desc *d, const int64_t *x);
/* Bit offset of a logical (unpadded) coordinate, no checks beyond ranges. */
int64_t tl_desc_bit_offset_unchecked(const tl_desc *d, const int64_t *x);
/* The one offset function: bit offset in plane k of coordinate x, either
 * logical (padded false) or padded and plane-local along the plane dim
 * (padded true: fill boxes). */
int64_t tl_desc_plane_bits(const tl_desc *d, int k, const int64_t *x, bool padded);
/* Plane k stores position x (coordinates as tl_desc_plane_bits): a
 * subsampled dim (4:2:0 chroma) keeps one position per smallest block. */
bool tl_desc_stored(const tl_desc *d, int k, const int64_t *x, bool padded);
/* Padded extent of dim i. */
static inline int64_t tl_padded_dim(const tl_desc *d, int i) { return d->pad_lo[i] + d->dims[i] + d->pad_hi[i]; }

/* ---- layout words: "NCHW16c" (TVM), "nChw16c" / "aBcd16b" (oneDNN) ---- */
typedef struct tl_layout_axis {
    int dim;        /* logical dim */
    int64_t inner;  /* 0: the dim's primal axis; > 0: an inner block of that size */
} tl_layout_axis;
typedef struct tl_layout {
    int rank;
    bool positional;             /* oneDNN a..l letters: no labels */
    char labels[TL_MAX_DIMS];
    int naxes;
    tl_layout_axis axes[TL_MAX_AXES];
} tl_layout;
tl_status tl_layout_parse(const char *word, tl_layout *out);
/* Build a dense descriptor from a parsed layout. */
tl_status tl_desc_from_layout(tl_desc *d, const tl_layout *lay, tl_dtype dt, const int64_t *dims, int rank);
/* Write the layout word of a single-plane blocked/plain descriptor; *positional
 * is set when the word uses a..l letters (labels then need labels=). */
tl_status tl_layout_word(const tl_desc *d, char *buf, size_t n, bool *positional);
/* Re-derive dense (optionally aligned: align_bytes per axis, 0/1 none) strides
 * and the size of a single-plane descriptor. */
tl_status tl_desc_restride(tl_desc *d, const int64_t *align_bytes);

/* The spec string of d into buf (SPEC_MAX = 1024 bytes is always enough for a
 * parseable one), without validating d first: for tl_desc_format and the
 * vendor check of validation. TL_ERR_UNSUPPORTED if the text does not fit. */
tl_status tl_desc_format_unchecked(const tl_desc *d, char *buf, size_t len);
/* tl_desc_validate's last rule: vendor, vendor_format and vendor_params lie in
 * their vendor's domain (all zero without a vendor). src/core/vendor_check.c */
tl_status tl_vendor_check(const tl_desc *d);
/* TL_OK when spec (d's formatted text) parses back to exactly d, else
 * TL_ERR_VENDOR_EXPORT naming the first field that differs. */
tl_status tl_desc_check_round_trip(const tl_desc *d, const char *spec);
/* ---- conversion validation (the reference converter, and plans) -------- */
/* Descriptor-only checks: both valid, destination writable, dims matched
 * (map[i] = source dim of destination dim i), element-aligned strides. */
tl_status tl_convert_check_descs(const tl_desc *src_d, const tl_desc *dst_d,
                                 int map[TL_MAX_DIMS]);
/* A buffer of `len` bytes holds what d describes; else TL_ERR_BUFFER_SMALL
 * naming `name` ("src_len") and `which` ("source"). */
tl_status tl_check_buffer_len(const char *name, size_t len, const tl_desc *d, const char *which);

/* JSON / human description used by the CLI (src/core/describe.c). */
void tl_desc_json(const tl_desc *d, tl_strbuf *sb);

#endif
