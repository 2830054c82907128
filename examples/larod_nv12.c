/* larod_nv12 — copy a camera's NV12 frame into a larod 420SP model input.
 *
 * The camera (VDO) delivers NV12 640x360 with a 640-byte stride. The model's
 * input tensor is LAROD_TENSOR_LAYOUT_420SP, and its backend wants each row
 * aligned to 256 bytes and the Y plane to 4096 (larodGetTensorPitches would
 * report the pitches; here tl_larod_pitches_compute computes the same). The
 * layouts differ only in strides, so a plain memcpy of the frame is wrong:
 * every row of the input is 768 bytes, the CbCr plane starts at 278528.
 *
 * Self-check: Y, Cb and Cr of every pixel at larod's formula (docs/larod.md),
 * and the row slack left as it was (conversions never write slack). Exit 0 if so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tlayout.h>

#define W 640
#define H 360

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "larod_nv12: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

/* Y(h,w) = h*p2 + w; Cb(h,w) = p1 + (h/2)*p2 + (w/2)*2; Cr = Cb + 1. Camera: p2 = W, p1 = W*H. */
static int check(const unsigned char *cam, const unsigned char *in, const size_t *p)
{
    for (size_t h = 0; h < H; h++)
        for (size_t w = 0; w < W; w++) {
            size_t cy = h * W + w, cc = (size_t)W * H + (h / 2) * W + (w / 2) * 2;
            size_t y = h * p[2] + w, c = p[1] + (h / 2) * p[2] + (w / 2) * 2;
            if (in[y] != cam[cy] || in[c] != cam[cc] || in[c + 1] != cam[cc + 1]) {
                printf("MISMATCH at h=%zu w=%zu\n", h, w);
                return 0;
            }
        }
    for (size_t h = 0; h < H; h++) /* the 128 bytes of slack after each Y row */
        for (size_t x = W; x < p[2]; x++)
            if (in[h * p[2] + x] != 0xee) {
                printf("slack byte %zu was written\n", h * p[2] + x);
                return 0;
            }
    return 1;
}

int main(void)
{
    tl_desc cam, in;
    tl_status s;
    tl_larod_tensor_dims dims = {{3, H, W}, 3};
    tl_larod_tensor_pitches pitches;
    const size_t align[2] = {256, 4096}; /* row, Y plane */

    if ((s = tl_desc_init_yuv420(&cam, TL_YUV_NV12, H, W, W, 0)) != TL_OK) return fail("camera", s);
    s = tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, align, &pitches);
    if (s != TL_OK) return fail("pitches", s);
    s = tl_larod_desc_init(&in, TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, &pitches);
    if (s != TL_OK) return fail("larod input", s);

    size_t cam_size = (size_t)cam.size_bytes, in_size = (size_t)in.size_bytes;
    unsigned char *frame = malloc(cam_size), *buf = malloc(in_size);
    if (!frame || !buf) return fail("malloc", TL_ERR_NOMEM);
    for (size_t i = 0; i < cam_size; i++) frame[i] = (unsigned char)(i % 251); /* the camera's frame */
    memset(buf, 0xee, in_size);

    if ((s = tl_convert(&cam, frame, cam_size, &in, buf, in_size)) != TL_OK) return fail("convert", s);
    int ok = check(frame, buf, pitches.pitches);
    printf("camera NV12 %dx%d, %zu bytes -> larod 420SP pitches (%zu, %zu, %zu), %zu bytes\n", W, H, cam_size,
           pitches.pitches[0], pitches.pitches[1], pitches.pitches[2], in_size);
    printf("%s\n", ok ? "every Y, Cb and Cr checked at larod's offsets; row slack untouched" : "CHECK FAILED");
    free(frame);
    free(buf);
    return ok ? 0 : 1;
}
