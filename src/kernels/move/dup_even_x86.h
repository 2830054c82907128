/* dup even into rows, SSE2 and AVX2 (included by move/sse2.c and move/avx2.c
 * with DE_* naming one vector width): a 4:2:0 chroma row back to full
 * resolution, each even byte twice, for one plane or both planes of an
 * interleaved row (NV12's UVUV...), each expanded register stored into all
 * `rows` image rows it covers. Two shifts and an OR make a lane's pair
 * (the even byte: AND; the odd: shift right), so SSE2 needs no byte shuffle.
 * Only the readable bytes are read (one plane: up to its last sample, the
 * byte after it may be past the source); the last few samples of a row go
 * byte by byte from the source. The destination is only stored to. Each
 * ISA file writes out its two kernels around this body. */
/* One step: the 16 or 32 bytes of s from sample j, into every row */
static inline void dup_even_step(const uint8_t *s, uint8_t *d, size_t j, size_t rows, ptrdiff_t ds, int planes,
                                 ptrdiff_t pd)
{
    const DE_V lo = DE_SET1_16(0x00FF);
    DE_V x = DE_LOAD(s + 2 * j);
    for (int c = 0; c < planes; c++) {
        DE_V e = c ? DE_SRLI16(x, 8) : DE_AND(x, lo);
        DE_V v = DE_OR(e, DE_SLLI16(e, 8));
        for (size_t r = 0; r < rows; r++) DE_STORE(d + c * pd + (ptrdiff_t)r * ds + 2 * j, v);
    }
}

/* Whole steps from sample j; then, where the row holds a step, one more
 * ending at its last readable byte (overlapping the previous one: the same
 * bytes again); what is left (one plane: its last sample) byte by byte. */
static inline void dup_even_rows_from(const uint8_t *s, uint8_t *d, size_t j, size_t n, size_t rows, ptrdiff_t ds,
                                      int planes, ptrdiff_t pd)
{
    size_t got = n ? 2 * n - (planes == 1) : 0;
    for (; 2 * j + DE_W <= got; j += DE_W / 2) dup_even_step(s, d, j, rows, ds, planes, pd);
    if (j < n && j > 0) {
        j = (got - DE_W) / 2;
        dup_even_step(s, d, j, rows, ds, planes, pd);
        j += DE_W / 2;
    }
    tl_dup_even_rows_tail(s, d, j, n, rows, ds, planes, pd);
}

static inline void dup_even_rows(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, int planes,
                                 ptrdiff_t pd)
{
    dup_even_rows_from(s, d, 0, n, rows, ds, planes, pd);
}

/* Streamed: 64 samples a step expanded into each plane's L1 ring
 * (ring_x86.h), and every image row they cover streams its whole lines
 * from it, each row at its own phase (rows of 2 x 4180 bytes are rarely on
 * a line); the rest as above. Plain stores had read every chroma line of
 * the destination first (NV12 -> YUV 4:4:4, AVX2 path, Zen 5:
 * docs/performance.md). */
static inline void dup_even_rows_streamed(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                          int planes, ptrdiff_t pd)
{
    _Alignas(64) uint8_t ring[2][TL_RING_BYTES];
    const DE_V lo = DE_SET1_16(0x00FF);
    size_t got = n ? 2 * n - (planes == 1) : 0, j = 0;
    for (; 2 * j + 128 <= got; j += 64) {
        for (size_t k = 0; k < 128; k += DE_W) {
            DE_V x = DE_LOAD(s + 2 * j + k);
            for (int c = 0; c < planes; c++) {
                DE_V e = c ? DE_SRLI16(x, 8) : DE_AND(x, lo);
                DE_STORE(ring[c] + 64 + k, DE_OR(e, DE_SLLI16(e, 8)));
            }
        }
        for (int c = 0; c < planes; c++) {
            for (size_t r = 0; r < rows; r++) tl_ring_emit(d + c * pd + (ptrdiff_t)r * ds, 2 * j, ring[c]);
            tl_ring_carry(ring[c]);
        }
    }
    if (j)
        for (int c = 0; c < planes; c++)
            for (size_t r = 0; r < rows; r++) tl_ring_end(d + c * pd + (ptrdiff_t)r * ds, 2 * j, ring[c]);
    _mm_sfence();
    dup_even_rows_from(s, d, j, n, rows, ds, planes, pd);
}
