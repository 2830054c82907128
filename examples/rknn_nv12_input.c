/* rknn_nv12_input — a camera's NV12 frame straight into an RKNN NC1HWC2 input,
 * letterboxed, and a detection box mapped back to the frame.
 *
 * The decoder delivers 1280x720 NV12 (stride 1280). The model is a YOLO at
 * 640x640 whose input was quantized with zp = -128, scale = 1 (real = q + 128,
 * the pixel value: Rockchip's toolkit folds mean/std into the model), in the
 * NPU's native layout NC1HWC2 with C2 = 16 (rknn_query's native input attr).
 * One tl_image_plan does colour conversion (BT.601 limited, as OpenCV's
 * COLOR_YUV2RGB_NV12), the Ultralytics letterbox (bilinear resize to 640x360,
 * border 114), the int8 codes and the 13 zero channels of each C2 block.
 *
 * Self-check: the NC1HWC2 codes equal the letterboxed NHWC u8 image minus 128
 * (made by a second plan), the border is 114 - 128, the pad lanes are zero,
 * and the image area maps back onto the frame's corners. Exit 0 if so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tlayout.h>

#define FW 1280
#define FH 720
#define S 640

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "rknn_nv12_input: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

/* A synthetic frame: luma ramps, chroma in quadrants. */
static void make_frame(unsigned char *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) f[y * FW + x] = (unsigned char)(16 + (x + y) * 219 / (FW + FH));
    for (int y = 0; y < FH / 2; y++)
        for (int x = 0; x < FW / 2; x++) {
            f[FW * FH + y * FW + 2 * x] = (unsigned char)(x < FW / 4 ? 90 : 170);     /* Cb */
            f[FW * FH + y * FW + 2 * x + 1] = (unsigned char)(y < FH / 4 ? 100 : 200); /* Cr */
        }
}

static tl_status convert(const char *dst_spec, const unsigned char *frame, size_t frame_len, unsigned char **out,
                         size_t *out_len, tl_image_map *map)
{
    tl_desc src, dst;
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX;
    tl_image_plan *plan;
    tl_status s;
    if ((s = tl_desc_init_yuv420(&src, TL_YUV_NV12, FH, FW, FW, 0)) != TL_OK) return s;
    if ((s = tl_desc_parse(&dst, dst_spec)) != TL_OK) return s;
    if ((s = tl_image_plan_create(&plan, &src, &dst, &p)) != TL_OK) return s;
    *out_len = (size_t)dst.size_bytes;
    *out = malloc(*out_len);
    s = *out ? tl_image_plan_run(plan, frame, frame_len, *out, *out_len) : TL_ERR_NOMEM;
    if (s == TL_OK && map) s = tl_image_plan_map(plan, map);
    tl_image_plan_destroy(plan);
    return s;
}

int main(void)
{
    size_t frame_len = (size_t)FW * FH * 3 / 2, npu_len, rgb_len;
    unsigned char *frame = malloc(frame_len), *npu = NULL, *rgb = NULL;
    tl_image_map m;
    tl_status s;
    make_frame(frame);
    if ((s = convert("rknn.nc1hwc2:i8:1x1x640x640x16:c=3:zp=-128:scale=1", frame, frame_len, &npu, &npu_len, &m)))
        return fail("NC1HWC2 input", s);
    if ((s = convert("NHWC:u8:1x640x640x3", frame, frame_len, &rgb, &rgb_len, NULL)))
        return fail("NHWC reference", s);

    int bad = 0;
    for (int i = 0; i < S * S; i++)
        for (int c = 0; c < 16; c++) {
            int want = c < 3 ? rgb[i * 3 + c] - 128 : 0;
            bad += (signed char)npu[i * 16 + c] != want;
        }
    bad += (signed char)npu[0] != 114 - 128;        /* top-left: letterbox border */
    printf("image area in the input: x %lld..%lld, y %lld..%lld (border 114 -> code %d)\n", (long long)m.left,
           (long long)(m.left + m.width), (long long)m.top, (long long)(m.top + m.height), (signed char)npu[0]);

    /* A detection in input pixels, (x0, y0, x1, y1), back to frame pixels. */
    double box[4] = {160, 200, 480, 440};
    double fx0 = box[0] * m.scale_x + m.offset_x, fy0 = box[1] * m.scale_y + m.offset_y;
    double fx1 = box[2] * m.scale_x + m.offset_x, fy1 = box[3] * m.scale_y + m.offset_y;
    printf("box (%.0f,%.0f)-(%.0f,%.0f) in the input is (%.1f,%.1f)-(%.1f,%.1f) in the frame\n", box[0], box[1],
           box[2], box[3], fx0, fy0, fx1, fy1);
    /* the image area's corners are the frame's corners */
    bad += m.left * m.scale_x + m.offset_x != 0 || m.top * m.scale_y + m.offset_y != 0;
    bad += (m.left + m.width) * m.scale_x + m.offset_x != FW || (m.top + m.height) * m.scale_y + m.offset_y != FH;
    printf("%s\n", bad ? "FAILED" : "ok: codes = letterboxed RGB - 128, pad lanes 0, box mapped");
    free(frame), free(npu), free(rgb);
    return bad != 0;
}
