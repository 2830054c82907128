// OpenCV 4.6's chain for bench_image (C++ because OpenCV 4 is; linked only
// into the benchmark): cvtColor NV12 -> RGB, resize INTER_LINEAR to the
// letterbox's image size, copyMakeBorder 114. One thread (cv::setNumThreads(0)).
#include <cstdint>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

extern "C" void tl_bench_opencv_init(void) { cv::setNumThreads(0); }

extern "C" void tl_bench_opencv_chain(const uint8_t *nv12, int w, int h, uint8_t *out, int side, int new_w,
                                      int new_h, int top, int left)
{
    cv::Mat frame(h * 3 / 2, w, CV_8UC1, const_cast<uint8_t *>(nv12));
    cv::Mat rgb, small;
    cv::cvtColor(frame, rgb, cv::COLOR_YUV2RGB_NV12);
    cv::resize(rgb, small, cv::Size(new_w, new_h), 0, 0, cv::INTER_LINEAR);
    cv::Mat dst(side, side, CV_8UC3, out);
    cv::copyMakeBorder(small, dst, top, side - new_h - top, left, side - new_w - left, cv::BORDER_CONSTANT,
                       cv::Scalar(114, 114, 114));
}
