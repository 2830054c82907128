/* dla_hwc4_input — fill a DLA kDLA_HWC4 FP16 input from a normalized float image.
 *
 * A TensorRT engine built for the DLA with an image input reports
 * getTensorFormat = kDLA_HWC4 and getTensorDataType = kHALF: each pixel holds
 * 4 channel lanes (C=3 padded to 4, the 4th must be 0) and each row is
 * rounded up to 64 bytes on Orin. For a 300-pixel row: 300 x 4 x 2 = 2400
 * bytes, stored in 2432. The preprocessing produces NCHW float32; tl_convert
 * writes the HWC4 halves, the zero lanes and the zero row tail in one pass.
 *
 * Self-check: every element at the address TensorRT's strides give (vectors
 * of 4 components), equal to the float rounded to half; lane 4 and the row
 * tail zero. Exit 0 if so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tlayout.h>

#define C 3
#define H 300
#define W 300

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "dla_hwc4_input: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : ldexpf((float)(m + 1024), e - 25); /* no inf/NaN here */
    return (h & 0x8000) ? -v : v;
}

/* Scalar offset = V*(n*s0 + h*s2 + w*s3) + (c/V)*s1*V + c%V: strides s in vectors of V = 4. */
static int check(const tl_trt_runtime *rt, const uint16_t *buf, const float *img)
{
    const int64_t *s = rt->strides.d, V = rt->components_per_element;
    for (int64_t h = 0; h < H; h++)
        for (int64_t w = 0; w < W; w++)
            for (int64_t c = 0; c < V; c++) {
                int64_t at = V * (h * s[2] + w * s[3]) + (c / V) * s[1] * V + c % V;
                float got = half_to_float(buf[at]), want = c < C ? img[(c * H + h) * W + w] : 0.0f;
                if (fabsf(got - want) > fabsf(want) / 2048.0f + 1e-7f) { /* half: 11-bit significand */
                    printf("MISMATCH at c=%lld h=%lld w=%lld: %g, expected %g\n", (long long)c, (long long)h,
                           (long long)w, got, want);
                    return 0;
                }
            }
    return 1;
}

int main(void)
{
    tl_trt_dims dims = {4, {1, C, H, W}};
    tl_desc nchw, dla;
    tl_trt_runtime rt;
    tl_status s;
    if ((s = tl_trt_desc_from_runtime(&dla, TL_TRT_DLA_HWC4, TL_TRT_HALF, &dims, NULL)) != TL_OK)
        return fail("DLA input", s);
    if ((s = tl_trt_runtime_info(&dla, &rt)) != TL_OK) return fail("runtime strides", s);
    if ((s = tl_desc_parse(&nchw, "NCHW:f32:1x3x300x300")) != TL_OK) return fail("NCHW spec", s);

    size_t n = (size_t)C * H * W, size = (size_t)dla.size_bytes;
    float *img = malloc(n * sizeof *img);
    uint16_t *buf = malloc(size);
    if (!img || !buf) return fail("malloc", TL_ERR_NOMEM);
    static const float mean[C] = {0.485f, 0.456f, 0.406f}, stdev[C] = {0.229f, 0.224f, 0.225f};
    for (size_t i = 0; i < n; i++) /* an 8-bit image, normalized the ImageNet way */
        img[i] = ((float)((i * 37) % 256) / 255.0f - mean[i / ((size_t)H * W)]) / stdev[i / ((size_t)H * W)];
    memset(buf, 0xee, size); /* stale data: lanes and row tails must be overwritten with 0 */

    if ((s = tl_convert(&nchw, img, n * sizeof *img, &dla, buf, size)) != TL_OK) return fail("convert", s);
    int ok = check(&rt, buf, img);
    for (int64_t h = 0; ok && h < H; h++) /* the row tail: whole pixels of zero lanes */
        for (int64_t k = W * 4; k < rt.strides.d[2] * 4; k++)
            if (buf[h * rt.strides.d[2] * 4 + k] != 0) {
                printf("row %lld: tail lane %lld is not zero\n", (long long)h, (long long)k);
                ok = 0;
                break;
            }
    printf("kDLA_HWC4 kHALF 1x3x300x300: %zu bytes, row %lld bytes, strides [%lld, %lld, %lld, %lld] x %d\n", size,
           (long long)(rt.strides.d[2] * rt.components_per_element * rt.bytes_per_component),
           (long long)rt.strides.d[0], (long long)rt.strides.d[1], (long long)rt.strides.d[2],
           (long long)rt.strides.d[3], (int)rt.components_per_element);
    printf("%s\n", ok ? "every lane checked at TensorRT's strides; padding lanes and row tails zero" : "CHECK FAILED");
    free(img);
    free(buf);
    return ok ? 0 : 1;
}
