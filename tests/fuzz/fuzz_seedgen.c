/* Seed generator for the fuzz corpora whose inputs are binary images of
 * structs: written at test time with the library's own writers, so the repo
 * stays light and the seeds follow the struct layouts when they change.
 *
 *   fuzz_seedgen OUTDIR SPEC_CORPUS_DIR
 *
 * writes
 *   OUTDIR/desc/       raw tl_desc bytes of every spec in SPEC_CORPUS_DIR that
 *                      parses (first line of each file), plus YUV and strided
 *                      descriptors, each followed by coordinate bytes;
 *   OUTDIR/tidl_io/    real-size io_1.bin images of the seven known variants
 *                      (37256 .. 378392 bytes), made by tl_tidl_io_write;
 *   OUTDIR/rknn_attr/  376-byte rknn_tensor_attr images (native, and native +
 *                      plain pairs for NC1HWC2), made by tl_rknn_attr_write.
 * Exit 0 when every seed was written.
 */
#define _POSIX_C_SOURCE 200809L
#define _FILE_OFFSET_BITS 64 /* 32-bit targets: stat/readdir of 64-bit inodes (qemu on a 64-bit host) */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tlayout.h"

static int failures;
static char outdir[1024];

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_seedgen: %s (%s)\n", what, tl_last_error());
    failures++;
}

static void make_dir(const char *sub)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", outdir, sub);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) fail(path);
}

static void write_seed(const char *sub, const char *name, const void *a, size_t na, const void *b,
                       size_t nb)
{
    char path[1400];
    snprintf(path, sizeof path, "%s/%s/%s", outdir, sub, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(a, 1, na, f) != na || (nb && fwrite(b, 1, nb, f) != nb)) fail(path);
    if (f && fclose(f) != 0) fail(path);
}

/* ---- desc: raw descriptors --------------------------------------------- */
static const uint8_t coords[32] = {3, 0, 0, 0, 0, 0, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0,
                                   255, 255, 255, 255, 255, 255, 255, 127, 2, 0, 0, 0, 0, 0, 0, 0};

static void desc_seed(const tl_desc *d, const char *name)
{
    write_seed("desc", name, d, sizeof *d, coords, sizeof coords);
}

static void desc_from_specs(const char *spec_dir)
{
    DIR *dp = opendir(spec_dir);
    if (!dp) {
        fail(spec_dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dp)) != NULL) {
        char path[1400], spec[1100] = "", name[300];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", spec_dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) continue;
        if (!fgets(spec, sizeof spec, f)) spec[0] = '\0';
        fclose(f);
        spec[strcspn(spec, "\n")] = '\0';
        tl_desc d;
        if (tl_desc_parse(&d, spec) != TL_OK) continue; /* bad specs are seeds of the spec target only */
        snprintf(name, sizeof name, "spec-%s", e->d_name);
        desc_seed(&d, name);
    }
    closedir(dp);
}

/* Vendor tags over layouts their vendor did not build, and forged vendor
 * fields (issue 15): the inputs of the vendor entry points fuzz_desc calls. */
static void desc_forged_vendors(void)
{
    tl_desc d;
    if (tl_desc_parse(&d, "W:u8:8") != TL_OK) fail("W:u8:8");
    d.planes[0].axes[0].block = 2; /* subsampled, size 4, tagged TIDL */
    d.planes[0].axes[0].extent = 4;
    d.size_bytes = 4;
    d.vendor = TL_VENDOR_TIDL;
    desc_seed(&d, "regress-tidl-tag-subsampled");
    if (tl_desc_parse(&d, "tidl:u8:2x2x3x4:pad=1,1,1,1") != TL_OK) fail("tidl padded");
    d.planes[0].axes[0].stride_bits += 8 * 64; /* rows moved after building */
    tl_desc_update_size(&d);
    desc_seed(&d, "regress-tidl-edited");
    if (tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x1x4x4x16:c=16") != TL_OK) fail("rknn nc1hwc2");
    tl_desc r = d;
    r.vendor_params[0] = INT64_MAX / 3; /* C1 x C2 overflows */
    r.vendor_params[1] = INT64_MAX / 5;
    desc_seed(&r, "regress-rknn-c1c2");
    const int64_t lo[4] = {0, 0, 1, 1}, hi[4] = {0, 0, 2, 2};
    r = d;
    r.pad_lo[2] = r.pad_lo[3] = 1; /* padding by hand, tag kept */
    r.pad_hi[2] = r.pad_hi[3] = 2;
    if (tl_desc_set_padding(&d, lo, hi) != TL_OK) fail("rknn padding");
    memcpy(r.planes, d.planes, sizeof r.planes);
    r.size_bytes = d.size_bytes;
    desc_seed(&r, "regress-rknn-padded-tagged");
    if (tl_desc_init_yuv420(&d, TL_YUV_NV12, 4, 4, 0, 0) != TL_OK) fail("nv12");
    d.vendor_params[0] = INT64_MAX / 2; /* H x pitch overflows */
    desc_seed(&d, "regress-yuv-pitch");
}

static void desc_builders(void)
{
    tl_desc d;
    const tl_yuv_kind kinds[3] = {TL_YUV_NV12, TL_YUV_NV21, TL_YUV_I420};
    const char *names[3] = {"yuv-nv12", "yuv-nv21", "yuv-i420"};
    for (int k = 0; k < 3; k++) {
        if (tl_desc_init_yuv420(&d, kinds[k], 5, 7, 0, 0) != TL_OK) fail(names[k]);
        else desc_seed(&d, names[k]);
    }
    if (tl_desc_init_yuv420(&d, TL_YUV_NV12, 6, 8, 16, 112) != TL_OK) fail("nv12 pitched");
    else desc_seed(&d, "yuv-nv12-pitch");
    const int64_t dims[4] = {2, 3, 4, 5}, bcast[4] = {0, 1, 0, 3}, gaps[4] = {200, 60, 15, 3};
    if (tl_desc_init_strided(&d, TL_F32, dims, bcast, 4) != TL_OK) fail("broadcast");
    else desc_seed(&d, "strided-broadcast");
    if (tl_desc_init_strided(&d, TL_I16, dims, gaps, 4) != TL_OK) fail("gaps");
    else desc_seed(&d, "strided-gaps");
    const int64_t blk[4] = {1, 20, 2, 3};
    if (tl_desc_init(&d, "NCHW16c", TL_U4, blk, 4) != TL_OK) fail("u4 blocked");
    else desc_seed(&d, "blocked-u4");
    desc_forged_vendors();
}

/* ---- tidl_io: real-size images ------------------------------------------- */
static tl_tidl_buf tidl_buf(int32_t et, int32_t c, int32_t h, int32_t w, int32_t pad)
{
    tl_tidl_buf b;
    memset(&b, 0, sizeof b);
    b.element_type = et;
    b.num_channels = c;
    b.height = h;
    b.width = w;
    b.pad_l = b.pad_t = b.pad_r = b.pad_b = pad;
    b.num_batches = 1;
    b.tensor_scale = et == TL_TIDL_SINGLE_PREC_FLOAT ? 1.0f : 25.0f;
    b.index = -1;
    return b;
}

static void tidl_image(int version, int cores)
{
    static uint8_t image[TL_TIDL_IO_MAX_BYTES];
    tl_tidl_io io;
    tl_tidl_buf in[2], out[3];
    if (tl_tidl_io_init(&io, version, cores) != TL_OK) {
        fail("tl_tidl_io_init");
        return;
    }
    in[0] = tidl_buf(TL_TIDL_UNSIGNED_CHAR, 3, 8, 12, 1); /* an image input with a 1-pixel border */
    snprintf(in[0].name, sizeof in[0].name, "input.1");
    in[0].data_format = TL_TIDL_IN_DATA_FORMAT_RGB_PLANAR;
    in[1] = tidl_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10, 1); /* vector T1: cp = 72 */
    in[1].channel_pitch = 72;
    in[1].data_id = 1;
    snprintf(in[1].name, sizeof in[1].name, "t1");
    out[0] = tidl_buf(TL_TIDL_SIGNED_CHAR, 4, 5, 6, 0);
    out[0].pad_ch = 1;
    out[0].zero_point = -3;
    snprintf(out[0].name, sizeof out[0].name, "logits");
    out[1] = tidl_buf(TL_TIDL_SINGLE_PREC_FLOAT, 2, 3, 4, 0);
    out[1].layout = TL_TIDL_LT_NHWC;
    snprintf(out[1].name, sizeof out[1].name, "boxes");
    out[2] = tidl_buf(TL_TIDL_UNSIGNED_SHORT, 2, 2, 3, 2);
    snprintf(out[2].name, sizeof out[2].name, "mask");
    for (int k = 0; k < 2; k++) in[k].dim1 = in[k].dim2 = version >= 3 ? 1 : 0;
    for (int k = 0; k < 3; k++) out[k].dim1 = out[k].dim2 = version >= 3 ? 1 : 0;
    if (version >= 3) {
        io.num_cores = cores;
        io.num_virtual_cores = 1;
        io.num_super_batches = 1;
        out[2].dim1 = 2; /* a 6-D output: DIM1 = 2, DIM2 = 3 */
        out[2].dim2 = 3;
        for (int k = 0; k < 3; k++) out[k].num_valid_tensor_dims = k == 2 ? 6 : 4;
    }
    if (version >= 4) {
        in[0].buf_size = 3 * 10 * 14; /* exactly the padded layout, in elements */
        out[0].buf_size = 5 * 5 * 6 + 16;
    }
    io.num_input_buf = 2;
    io.num_output_buf = 3;
    if (tl_tidl_io_write(&io, in, out, image, sizeof image) != TL_OK) {
        fail("tl_tidl_io_write");
        return;
    }
    char name[64];
    snprintf(name, sizeof name, "io_1-v%d-%dcore.bin", version, cores);
    write_seed("tidl_io", name, image, (size_t)io.size_bytes, NULL, 0);
}

/* ---- rknn_attr: attr images --------------------------------------------- */
static void rknn_seed(const char *name, const tl_rknn_tensor_attr *a, const tl_rknn_tensor_attr *plain,
                      int64_t channels, double t)
{
    uint8_t img[2 * TL_RKNN_ATTR_SIZE + 16];
    size_t n = TL_RKNN_ATTR_SIZE;
    if (tl_rknn_attr_write(a, img, TL_RKNN_ATTR_SIZE) != TL_OK) {
        fail(name);
        return;
    }
    if (plain) {
        if (tl_rknn_attr_write(plain, img + n, TL_RKNN_ATTR_SIZE) != TL_OK) {
            fail(name);
            return;
        }
        n += TL_RKNN_ATTR_SIZE;
    }
    uint64_t c = (uint64_t)channels, tb;
    memcpy(&tb, &t, sizeof tb);
    for (int i = 0; i < 8; i++) img[n + (size_t)i] = (uint8_t)(c >> (8 * i));
    for (int i = 0; i < 8; i++) img[n + 8 + (size_t)i] = (uint8_t)(tb >> (8 * i));
    write_seed("rknn_attr", name, img, n + 16, NULL, 0);
}

static void rknn_attrs(void)
{
    tl_rknn_tensor_attr a, plain;
    /* native NC1HWC2 outputs as RK3588 and RK3566 report them, quantized i8 */
    if (tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_I8, 1, 20, 5, 6) != TL_OK) fail("synth 3588");
    a.qnt_type = TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC;
    a.zp = -128;
    a.scale = 0.0039f;
    snprintf(a.name, sizeof a.name, "output0");
    memset(&plain, 0, sizeof plain);
    plain.n_dims = 4;
    plain.dims[0] = 1, plain.dims[1] = 20, plain.dims[2] = 5, plain.dims[3] = 6;
    plain.fmt = TL_RKNN_TENSOR_NCHW;
    plain.type = TL_RKNN_TENSOR_INT8;
    rknn_seed("nc1hwc2-rk3588-i8", &a, &plain, 20, 0.5);
    rknn_seed("nc1hwc2-rk3588-i8-native", &a, NULL, 20, -0.25);
    if (tl_rknn_native_attr_synth(&a, TL_RKNN_RK3566_RK3568, TL_F16, 1, 3, 4, 4) != TL_OK) fail("synth 3566");
    rknn_seed("nc1hwc2-rk3566-f16", &a, NULL, 3, 0.0);
    /* an NHWC input with a padded row (w_stride) */
    memset(&a, 0, sizeof a);
    a.n_dims = 4;
    a.dims[0] = 1, a.dims[1] = 4, a.dims[2] = 6, a.dims[3] = 3;
    a.n_elems = 72;
    a.size = 72;
    a.fmt = TL_RKNN_TENSOR_NHWC;
    a.type = TL_RKNN_TENSOR_UINT8;
    a.w_stride = 16;
    a.size_with_stride = 4 * 16 * 3;
    a.pass_through = 1;
    snprintf(a.name, sizeof a.name, "images");
    rknn_seed("nhwc-wstride-u8", &a, NULL, 0, 1.0);
    /* DFP quantized NCHW int16 with h_stride */
    a.fmt = TL_RKNN_TENSOR_NCHW;
    a.type = TL_RKNN_TENSOR_INT16;
    a.qnt_type = TL_RKNN_TENSOR_QNT_DFP;
    a.fl = 7;
    a.w_stride = 0;
    a.h_stride = 8;
    a.size = 144;
    a.size_with_stride = 1 * 4 * 8 * 3 * 2;
    a.pass_through = 0;
    a.dims[1] = 4, a.dims[2] = 6, a.dims[3] = 3;
    rknn_seed("nchw-hstride-i16-dfp", &a, NULL, 0, -3.5);
    /* undefined format, rank 2 */
    memset(&a, 0, sizeof a);
    a.n_dims = 2;
    a.dims[0] = 10, a.dims[1] = 7;
    a.fmt = TL_RKNN_TENSOR_UNDEFINED;
    a.type = TL_RKNN_TENSOR_FLOAT32;
    rknn_seed("undefined-f32", &a, NULL, 0, 0.0);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: fuzz_seedgen OUTDIR SPEC_CORPUS_DIR\n");
        return 2;
    }
    snprintf(outdir, sizeof outdir, "%s", argv[1]);
    if (mkdir(outdir, 0777) != 0 && errno != EEXIST) fail(outdir);
    make_dir("desc");
    make_dir("tidl_io");
    make_dir("rknn_attr");
    desc_from_specs(argv[2]);
    desc_builders();
    const int variants[][2] = {{2, 1}, {3, 1}, {3, 2}, {3, 4}, {4, 1}, {4, 2}, {4, 4}};
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
        tidl_image(variants[k][0], variants[k][1]);
    rknn_attrs();
    if (failures) return 1;
    printf("seeds written to %s\n", outdir);
    return 0;
}
