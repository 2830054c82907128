"""The OpenCV 4.6 chain `tlayout image` reproduces in exact mode, written the
way users write it (cvtColor, crop, resize, Ultralytics letterbox, BGR,
normalise in float32, element rule). Shared by gen_golden.py and
live_compare.py; needs Debian's /usr/bin/python3 (numpy, cv2)."""
import numpy as np
import cv2

YUV2RGB = {"nv12": cv2.COLOR_YUV2RGB_NV12, "nv21": cv2.COLOR_YUV2RGB_NV21, "i420": cv2.COLOR_YUV2RGB_I420,
           "yuyv": cv2.COLOR_YUV2RGB_YUYV, "uyvy": cv2.COLOR_YUV2RGB_UYVY}
YUV2GRAY = {"nv12": cv2.COLOR_YUV2GRAY_NV12, "nv21": cv2.COLOR_YUV2GRAY_NV21, "i420": cv2.COLOR_YUV2GRAY_I420,
            "yuyv": cv2.COLOR_YUV2GRAY_YUYV, "uyvy": cv2.COLOR_YUV2GRAY_UYVY}
PACKED422 = ("yuyv", "uyvy")


def frame_bytes(kind, h, w, c=3):
    """Bytes of a frame of this kind (even h, w for YUV)."""
    if kind in PACKED422:
        return h * w * 2
    return h * w * 3 // 2 if kind in YUV2RGB else h * w * c
INTER = {"bilinear": cv2.INTER_LINEAR, "nearest": cv2.INTER_NEAREST, "area": cv2.INTER_AREA}


def letterbox(img, new_shape, color, interp):
    """Ultralytics' LetterBox with auto=False, scaleup=True, center=True."""
    shape = img.shape[:2]
    r = min(new_shape[0] / shape[0], new_shape[1] / shape[1])
    new_unpad = int(round(shape[1] * r)), int(round(shape[0] * r))
    dw, dh = new_shape[1] - new_unpad[0], new_shape[0] - new_unpad[1]
    dw /= 2
    dh /= 2
    if shape[::-1] != new_unpad:
        img = cv2.resize(img, new_unpad, interpolation=interp)
    top, bottom = int(round(dh - 0.1)), int(round(dh + 0.1))
    left, right = int(round(dw - 0.1)), int(round(dw + 0.1))
    value = tuple(int(v) for v in color) if img.ndim == 3 else int(color[0])
    img = cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT, value=value)
    return img, (left, top, new_unpad[0], new_unpad[1])


def element_rule(x, dtype):
    """f32 -> dtype as tlayout's element rule: nearest-even, saturated."""
    if dtype == "f32":
        return x.astype(np.float32)
    if dtype == "f16":
        return x.astype(np.float16)
    info = np.iinfo({"u8": np.uint8, "i8": np.int8}[dtype])
    return np.clip(np.rint(x), info.min, info.max).astype(info.dtype)


def chain(frame, kind, h, w, dst_h, dst_w, dst_c, dtype="u8", crop=None, resize="bilinear",
          fit="stretch", pad=(114, 114, 114, 255), order="rgb", mean=(0, 0, 0, 0), std=(1, 1, 1, 1),
          src_c=3):
    """The expected NHWC (H, W, C) array for a frame given as bytes."""
    frame = np.frombuffer(frame, np.uint8)
    if kind in YUV2RGB:
        yuv = frame.reshape(h, w, 2) if kind in PACKED422 else frame.reshape(h * 3 // 2, w)
        img = cv2.cvtColor(yuv, YUV2GRAY[kind] if dst_c == 1 else YUV2RGB[kind])
    else:
        img = frame.reshape(h, w, src_c)
        if src_c >= 3:
            img = np.ascontiguousarray(img[:, :, :3] if kind == "rgb" else img[:, :, 2::-1])
            if dst_c == 1:
                img = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        elif dst_c != 1:
            img = np.ascontiguousarray(np.repeat(img, 3, axis=2))
        else:
            img = img[:, :, 0]
    if crop:
        x, y, cw, ch = crop
        img = np.ascontiguousarray(img[y:y + ch, x:x + cw])
    interp = INTER[resize]
    alpha_box = (0, 0, dst_w, dst_h)
    if fit == "letterbox":  # pad[] is in the destination's channel order
        border = pad[2::-1] if order == "bgr" and dst_c >= 3 else pad[:3]
        img, alpha_box = letterbox(img, (dst_h, dst_w), border, interp)
    else:
        img = cv2.resize(img, (dst_w, dst_h), interpolation=interp)
    if img.ndim == 2:
        img = img[:, :, None]
    if dst_c >= 3 and order == "bgr":
        img = img[:, :, ::-1]
    if dst_c == 4:
        l, t, iw, ih = alpha_box
        a = np.full((dst_h, dst_w, 1), pad[3], np.uint8)
        a[t:t + ih, l:l + iw] = 255
        img = np.concatenate([img, a], axis=2)
    x = (img.astype(np.float32) - np.array(mean[:dst_c], np.float32)) / np.array(std[:dst_c], np.float32)
    return element_rule(x, dtype)
