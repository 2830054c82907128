/* tidl_pad_fill — fill a TIDL-RT padded input buffer from a camera image.
 *
 * TIDL-RT describes each network input in io_1.bin (sTIDL_IOBufDesc_t): its
 * size, a border of padding (PadL, PadT, PadR, PadB) that the first layer
 * reads, the channel pitch and the element type. The application must zero
 * that border and write the image planar (NCHW), PadT rows down and PadL
 * columns in. Here the fields are set as the import tool writes them for a
 * 3x224x224 u8 input with a 1-pixel border; a real program reads them with
 * tl_tidl_io_read_file + tl_tidl_io_parse + tl_tidl_io_get.
 *
 * The pattern: zero the padding once (tl_tidl_zero_padding), then per frame
 * convert the interleaved RGB camera image into the buffer with a plan made
 * with TL_KEEP_PADDING, so only the valid elements are written.
 *
 * Self-check: every element at TI's formula, the border still zero. Exit 0 if so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tlayout.h>

#define W 224
#define H 224

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "tidl_pad_fill: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

/* What the import tool writes for this input (inWidth[0], inPadL[0], ...). */
static void input_fields(tl_tidl_buf *b)
{
    memset(b, 0, sizeof *b);
    b->width = W, b->height = H, b->num_channels = 3;
    b->pad_l = b->pad_t = b->pad_r = b->pad_b = 1;
    b->num_batches = 1, b->dim1 = 1, b->dim2 = 1;
    b->element_type = TL_TIDL_UNSIGNED_CHAR;
    b->layout = TL_TIDL_LT_NCHW;
    b->tensor_scale = 1.0f; /* u8 image in, no scaling */
    b->index = -1;
}

/* TI's own geometry (docs/tidl.md): the first valid element is PadT*lp + PadL. */
static int check(const tl_tidl_buf *b, const unsigned char *buf, const unsigned char *rgb)
{
    long lp = b->width + b->pad_l + b->pad_r, rows = b->height + b->pad_t + b->pad_b, cp = lp * rows;
    for (long c = 0; c < 3; c++)
        for (long r = 0; r < rows; r++)
            for (long x = 0; x < lp; x++) {
                long h = r - b->pad_t, w = x - b->pad_l;
                int inside = h >= 0 && h < H && w >= 0 && w < W;
                int want = inside ? rgb[(h * W + w) * 3 + c] : 0;
                if (buf[c * cp + r * lp + x] != want) {
                    printf("MISMATCH at c=%ld row=%ld col=%ld: %d, expected %d\n", c, r, x, buf[c * cp + r * lp + x], want);
                    return 0;
                }
            }
    return 1;
}

int main(void)
{
    tl_tidl_buf b;
    tl_desc cam, in;
    tl_plan *plan = NULL;
    tl_status s;
    input_fields(&b);
    if ((s = tl_desc_from_tidl(&in, &b, 0)) != TL_OK) return fail("tl_desc_from_tidl", s);
    if ((s = tl_desc_parse(&cam, "NHWC:u8:1x224x224x3")) != TL_OK) return fail("camera spec", s);

    size_t size = (size_t)in.size_bytes, cam_size = (size_t)cam.size_bytes;
    unsigned char *buf = malloc(size), *rgb = malloc(cam_size);
    if (!buf || !rgb) return fail("malloc", TL_ERR_NOMEM);
    memset(buf, 0xee, size); /* as if the buffer held an old frame */

    /* Once: zero everything that is not a valid element (TI's requirement). */
    if ((s = tl_tidl_zero_padding(&in, buf, size)) != TL_OK) return fail("zero padding", s);
    /* Once: a plan that writes only the valid elements. */
    if ((s = tl_plan_create(&plan, &cam, &in, TL_KEEP_PADDING)) != TL_OK) return fail("plan", s);

    int ok = 1;
    for (int frame = 0; frame < 3 && ok; frame++) {
        for (size_t i = 0; i < cam_size; i++) rgb[i] = (unsigned char)(i * 7 + frame * 31); /* the camera */
        if ((s = tl_plan_run(plan, rgb, cam_size, buf, size)) != TL_OK) return fail("convert", s);
        ok = check(&b, buf, rgb);
    }
    char spec[256];
    tl_desc_format(&in, spec, sizeof spec);
    printf("TIDL input %s: %zu bytes, line pitch %d, channel pitch %d elements\n", spec, size,
           b.width + b.pad_l + b.pad_r, (b.width + b.pad_l + b.pad_r) * (b.height + b.pad_t + b.pad_b));
    printf("%s\n", ok ? "3 frames written; every element and the zero border checked" : "CHECK FAILED");
    tl_plan_destroy(plan);
    free(buf);
    free(rgb);
    return ok ? 0 : 1;
}
