/* icount_arm: the instruction counts of docs/performance.md (Arm), for when no
 * Arm board is at hand. It runs one plan once; qemu-user counts the
 * instructions executed, and the same run with NORUN=1 (everything but the
 * tl_plan_run call) is subtracted. Not built by CMake (it uses the engine's
 * internal tl_plan_create_isa). From a cross build in build-aarch64:
 *
 *   aarch64-linux-gnu-gcc -O2 -Isrc -Iinclude bench/icount_arm.c build-aarch64/libtlayout.a -lm -o icount
 *   q="qemu-aarch64 -L /usr/aarch64-linux-gnu"
 *   $q ./icount                                  # the list of cases
 *   $q ./icount 3 4 2048 describe                # elements, and the plan on stderr
 *   n() { $q -singlestep -d exec,nochain -D /dev/stdout ./icount "$@" | grep -c '^Trace'; }
 *   echo $(( $(n 3 4 2048) - $(NORUN=1 n 3 4 2048) ))   # instructions of the run
 *
 * Arguments: CASE ISA W (ISA 0 = scalar, 4 = neon; W sets the size). With
 * -singlestep every executed instruction is one translated block, and
 * "-d exec,nochain" logs each block executed. Armv7: arm-linux-gnueabihf-gcc
 * -mfpu=neon and qemu-arm. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine.h"

typedef struct icase {
    const char *name, *from, *to; /* specs with %d for W */
} icase;

static const icase k_cases[] = {
    {"f32->i8 quantize (affine) row", "NCHW:f32:1x1x1x%d", "NCHW:i8:1x1x1x%d:scale=0.05:zp=-3"},
    {"f32->u8 quantize (inv, away) row", "NCHW:f32:1x1x1x%d", "NCHW:u8:1x1x1x%d:q=inv:scale=25:zp=3:round=away"},
    {"i8->f32 dequantize row", "NCHW:i8:1x1x1x%d:scale=0.1:zp=2", "NCHW:f32:1x1x1x%d"},
    {"u8->f32 row", "NCHW:u8:1x1x1x%d", "NCHW:f32:1x1x1x%d"},
    {"i16->f32 dequantize (inv) row", "NCHW:i16:1x1x1x%d:q=inv:scale=25", "NCHW:f32:1x1x1x%d"},
    {"f32->f16 row", "NCHW:f32:1x1x1x%d", "NCHW:f16:1x1x1x%d"},
    {"f16->f32 row", "NCHW:f16:1x1x1x%d", "NCHW:f32:1x1x1x%d"},
    {"f32->bf16 row", "NCHW:f32:1x1x1x%d", "NCHW:bf16:1x1x1x%d"},
    {"bf16->f32 row", "NCHW:bf16:1x1x1x%d", "NCHW:f32:1x1x1x%d"},
    {"u8->i8 zp shift (table) row", "NCHW:u8:1x1x1x%d:scale=0.02:zp=128", "NCHW:i8:1x1x1x%d:scale=0.02:zp=0"},
    {"u8->i8 saturate row", "NCHW:u8:1x1x1x%d", "NCHW:i8:1x1x1x%d"},
    {"f16->i8 quantize row", "NCHW:f16:1x1x1x%d", "NCHW:i8:1x1x1x%d:scale=0.05"},
    {"nchw->nhwc u8 C=3", "NCHW:u8:1x3x8x%d", "NHWC:u8:1x8x%dx3"},
    {"nhwc->nchw u8 C=3", "NHWC:u8:1x8x%dx3", "NCHW:u8:1x3x8x%d"},
    {"nchw->nhwc f32 C=16", "NCHW:f32:1x16x8x%d", "NHWC:f32:1x8x%dx16"},
    {"nchw->nchw16c i8 C=64", "NCHW:i8:1x64x1x%d", "NCHW16c:i8:1x64x1x%d"},
    {"nchw16c->nchw f32 C=64", "NCHW16c:f32:1x64x1x%d", "NCHW:f32:1x64x1x%d"},
    {"nchw->nchw16c f32 C=64", "NCHW:f32:1x64x1x%d", "NCHW16c:f32:1x64x1x%d"},
    {"quantize f32 nchw->i8 nhwc C=3", "NCHW:f32:1x3x8x%d", "NHWC:i8:1x8x%dx3:scale=0.05:zp=-3"},
    {"dequantize i8 nchw16c->f32 nchw C=64", "NCHW16c:i8:1x64x1x%d:scale=0.1", "NCHW:f32:1x64x1x%d"},
    {"u8 nhwc->trt.dla_hwc4 i8 C=3", "NHWC:u8:1x8x%dx3", "trt.dla_hwc4:i8:1x3x8x%d"},
    {"nhwc->nchw u8 C=4", "NHWC:u8:1x8x%dx4", "NCHW:u8:1x4x8x%d"},
    {"nchw->nchw8c f16 C=16", "NCHW:f16:1x16x1x%d", "NCHW8c:f16:1x16x1x%d"},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

int main(int argc, char **argv)
{
    if (argc < 4) {
        for (size_t i = 0; i < NCASES; i++) printf("%zu %s\n", i, k_cases[i].name);
        return 0;
    }
    size_t c = (size_t)atoi(argv[1]);
    int isa = atoi(argv[2]), w = atoi(argv[3]);
    if (c >= NCASES || w < 1) return 2;
    char a[200], b[200];
    snprintf(a, sizeof a, k_cases[c].from, w);
    snprintf(b, sizeof b, k_cases[c].to, w);
    tl_desc s, d;
    tl_plan *p = NULL;
    if (tl_desc_parse(&s, a) != TL_OK || tl_desc_parse(&d, b) != TL_OK ||
        tl_plan_create_isa(&p, &s, &d, 0, isa) != TL_OK) {
        fprintf(stderr, "%s -> %s: %s\n", a, b, tl_last_error());
        return 1;
    }
    unsigned char *src = calloc(1, (size_t)s.size_bytes), *dst = calloc(1, (size_t)d.size_bytes);
    if (!src || !dst) return 1;
    for (int64_t i = 0; i < s.size_bytes; i++) src[i] = (unsigned char)((i * 37 + 11) & 0x3F); /* finite floats */
    long long elems = 1;
    for (int i = 0; i < s.rank; i++) elems *= s.dims[i];
    if (argc > 4) fprintf(stderr, "%s\n", tl_plan_describe(p));
    if (!getenv("NORUN")) tl_plan_run(p, src, (size_t)s.size_bytes, dst, (size_t)d.size_bytes);
    printf("%lld\n", elems);
    tl_plan_destroy(p);
    free(src);
    free(dst);
    return 0;
}
