/* The memory map of a descriptor, for `tlayout draw`, `explain` and `demo`.
 *
 * A descriptor says where each element goes; a picture needs the opposite:
 * which element (if any) lives at a given byte. mm_map answers that for any
 * cell (a run of `unit_bits` bits: the gcd of the element size, the strides
 * and the plane offsets), and mm_stats counts how the buffer divides into
 * values, padding elements and slack (bytes no element uses).
 *
 * svg_draw renders the map as SVG (programs/svg_draw.c).
 */
#ifndef TLAYOUT_SVG_MAP_H
#define TLAYOUT_SVG_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "tlayout.h"

/* ---- a growing text buffer (the SVG is built in memory, written at once) -- */
typedef struct svg_buf {
    char *p;
    size_t len, cap;
    int oom; /* an allocation failed: the text is incomplete */
} svg_buf;

void svg_printf(svg_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void svg_buf_free(svg_buf *b);

/* ---- what one cell holds ------------------------------------------------- */
enum { MM_SLACK = 0, MM_VALUE = 1, MM_PAD = 2 };

typedef struct mm_cell {
    int kind;                 /* MM_SLACK, MM_VALUE (a logical element) or MM_PAD */
    int plane;                /* the plane that stores it */
    int part, parts;          /* this cell is part `part` of `parts` cells of the element */
    int64_t x[TL_MAX_DIMS];   /* logical coordinate; a padding element's lies outside [0, dim) */
    int64_t span[TL_MAX_DIMS];/* positions it stands for: 2 along a 4:2:0-subsampled dim, else 1 */
} mm_cell;

/* Per plane: its axes sorted by stride (outermost first, broadcast and
 * extent-1 axes dropped), and how to find the element at a bit offset. */
typedef struct mm_plane {
    int naxes;
    tl_axis axes[TL_MAX_AXES];
    int64_t begin_bits, end_bits; /* the bits its elements span */
    int nested;                   /* each stride covers everything inside it: divide greedily */
    int64_t *owner;               /* not nested: position index + 1 per cell of the span, 0 = none */
} mm_plane;

typedef struct mm_map {
    const tl_desc *d;
    int64_t unit_bits;  /* bits per cell */
    int64_t ebits;      /* bits per element */
    int64_t cells;      /* cells of the whole buffer (size_bytes) */
    int nplanes;
    mm_plane planes[TL_MAX_PLANES];
} mm_map;

/* Build the map of a valid descriptor. TL_ERR_UNSUPPORTED for a layout whose
 * strides overlap (not nested) and that is too large to enumerate. */
tl_status mm_init(mm_map *m, const tl_desc *d);
void mm_free(mm_map *m);
/* What cell `cell` (0 .. m->cells-1) holds. */
void mm_locate(const mm_map *m, int64_t cell, mm_cell *out);

/* The dim that picks an element's colour: 'C', else the plane dim, else -1. */
int mm_colour_dim(const tl_desc *d);
/* "c17", "h0-1", "d2:5": one coordinate of a cell, written into buf. */
const char *mm_coord_text(const tl_desc *d, const mm_cell *c, int dim, char *buf, size_t len);
/* Channel names of a YUV image ("Y", "Cb", "Cr") or NULL. */
const char *mm_channel_name(const tl_desc *d, int64_t c);

/* ---- how the buffer divides ---------------------------------------------- */
typedef struct mm_stats {
    int64_t size_bits;   /* size_bytes * 8 */
    int64_t value_bits;  /* stored logical elements */
    int64_t pad_bits;    /* stored padding elements */
    int64_t slack_bits;  /* no element: alignment and tails (0 when aliased) */
    int64_t values, pads;/* element counts */
    int aliased;         /* elements share bytes (broadcast, overlapping strides) */
} mm_stats;

tl_status mm_stats_of(const tl_desc *d, mm_stats *st);

/* ---- the SVG picture ------------------------------------------------------ */
typedef struct svg_opts {
    int max_lines;   /* memory lines drawn per plane before eliding (0 = 14) */
    int max_cells;   /* cells drawn per line before eliding (0 = 64) */
    const char *title; /* first line of the picture (0 = the canonical spec) */
} svg_opts;

/* Append a whole SVG document for d to out. */
tl_status svg_draw(const tl_desc *d, const svg_opts *o, svg_buf *out);
/* Render d and write it to path ("-" = stdout). */
tl_status svg_write(const tl_desc *d, const svg_opts *o, const char *path);

#endif
