/* Fuzz target: conversion plans against the scalar reference.
 *
 * Input: two spec lines (source, destination), then a control byte, a data
 * seed (8 bytes) and raw bytes that become the start of the source buffer (so
 * mutations reach special values: NaN payloads, -0, saturation edges); the
 * rest of the source comes from the seed. Properties, for descriptor pairs of
 * at most FZ_BUFFER_MAX bytes:
 *  - tl_convert_ex and tl_convert_reference return the same status; on
 *    success the destinations are bit-identical (padding and untouched bytes
 *    included: both start from the same sentinel);
 *  - a plan run whole, and in `nparts` parts run in reverse order, gives the
 *    same bytes again;
 *  - a destination one byte short fails with TL_ERR_BUFFER_SMALL and is not
 *    touched (the buffer is an exact heap block, so ASan sees any overrun).
 */
#include "fuzz_common.h"

#define SPEC_CAP 1024

typedef struct pair {
    tl_desc s, d;
    unsigned flags, nparts;
    uint8_t sentinel;
    size_t slen, dlen;
    uint8_t *src, *ref, *out;
} pair;

static void fill_source(pair *p, fz_in *in)
{
    uint64_t seed = fz_u64(in);
    size_t k = in->n < p->slen ? in->n : p->slen;
    memcpy(p->src, in->p, k);
    for (size_t i = k; i < p->slen; i++) p->src[i] = (uint8_t)fz_mix(&seed);
}

static void fresh(pair *p, uint8_t *buf)
{
    memset(buf, p->sentinel, p->dlen);
}

static void check_plan(pair *p)
{
    tl_plan *plan = NULL;
    tl_status s = tl_plan_create(&plan, &p->s, &p->d, p->flags);
    FZ_ASSERT(s == TL_OK, "tl_convert accepted the pair but tl_plan_create says %s", tl_status_str(s));
    FZ_ASSERT(tl_plan_describe(plan) != NULL, "tl_plan_describe returned NULL");
    fresh(p, p->out);
    s = tl_plan_run(plan, p->src, p->slen, p->out, p->dlen);
    FZ_ASSERT(s == TL_OK && memcmp(p->out, p->ref, p->dlen) == 0, "tl_plan_run differs from the "
              "reference (%s)\n  plan: %s", tl_status_str(s), tl_plan_describe(plan));
    fresh(p, p->out);
    for (unsigned part = p->nparts; part-- > 0;) {
        s = tl_plan_run_part(plan, part, p->nparts, p->src, p->slen, p->out, p->dlen);
        FZ_ASSERT(s == TL_OK, "part %u of %u: %s", part, p->nparts, tl_status_str(s));
    }
    FZ_ASSERT(memcmp(p->out, p->ref, p->dlen) == 0, "%u parts differ from the reference\n  plan: %s",
              p->nparts, tl_plan_describe(plan));
    tl_plan_destroy(plan);
}

static void check_short_destination(pair *p)
{
    if (p->dlen == 0) return;
    size_t n = p->dlen - 1;
    uint8_t *tight = malloc(n ? n : 1);
    FZ_ASSERT(tight, "out of memory");
    memset(tight, p->sentinel, n);
    tl_status s = tl_convert_ex(&p->s, p->src, p->slen, &p->d, tight, n, p->flags);
    FZ_ASSERT(s == TL_ERR_BUFFER_SMALL, "dst_len one short returned %s", tl_status_str(s));
    for (size_t i = 0; i < n; i++)
        FZ_ASSERT(tight[i] == p->sentinel, "a rejected conversion wrote byte %zu", i);
    free(tight);
}

static void run_pair(pair *p, fz_in *in)
{
    p->slen = (size_t)p->s.size_bytes;
    p->dlen = (size_t)p->d.size_bytes;
    p->src = malloc(p->slen ? p->slen : 1);
    p->ref = malloc(p->dlen ? p->dlen : 1);
    p->out = malloc(p->dlen ? p->dlen : 1);
    FZ_ASSERT(p->src && p->ref && p->out, "out of memory");
    fill_source(p, in);
    fresh(p, p->ref);
    fresh(p, p->out);
    tl_status r = tl_convert_reference(&p->s, p->src, p->slen, &p->d, p->ref, p->dlen, p->flags);
    tl_status e = tl_convert_ex(&p->s, p->src, p->slen, &p->d, p->out, p->dlen, p->flags);
    FZ_ASSERT(r == e, "tl_convert_ex says %s, the reference %s", tl_status_str(e), tl_status_str(r));
    if (r == TL_OK) {
        FZ_ASSERT(memcmp(p->out, p->ref, p->dlen) == 0, "tl_convert_ex differs from the reference");
        check_plan(p);
        check_short_destination(p);
    } else {
        tl_plan *plan = NULL;
        tl_status c = tl_plan_create(&plan, &p->s, &p->d, p->flags);
        FZ_ASSERT(c == r, "tl_convert says %s but tl_plan_create %s", tl_status_str(r),
                  tl_status_str(c));
        for (size_t i = 0; i < p->dlen; i++)
            FZ_ASSERT(p->out[i] == p->sentinel && p->ref[i] == p->sentinel,
                      "a rejected conversion (%s) wrote byte %zu", tl_status_str(r), i);
    }
    free(p->src);
    free(p->ref);
    free(p->out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    char a[SPEC_CAP], b[SPEC_CAP];
    pair p;
    fz_line(&in, a, sizeof a);
    fz_line(&in, b, sizeof b);
    if (tl_desc_parse(&p.s, a) != TL_OK || tl_desc_parse(&p.d, b) != TL_OK) return 0;
    if (p.s.size_bytes > FZ_BUFFER_MAX || p.d.size_bytes > FZ_BUFFER_MAX) return 0;
    if (fz_elements(&p.d) > FZ_BUFFER_MAX) return 0; /* the reference is one element at a time */
    uint8_t ctl = fz_u8(&in);
    p.flags = (ctl & 1) ? TL_KEEP_PADDING : 0u;
    p.nparts = 1u + (ctl >> 1) % 7u;
    p.sentinel = (uint8_t)(0x5A ^ (ctl & 0xF0));
    run_pair(&p, &in);
    return 0;
}
