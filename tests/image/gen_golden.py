#!/usr/bin/python3
"""Write tests/image/golden/: frames, OpenCV 4.6 outputs and the manifest the
CLI case `image_golden` replays through `tlayout image` (no OpenCV needed
there). Run with Debian's interpreter: /usr/bin/python3 tests/image/gen_golden.py"""
import os
import numpy as np
import cvchain

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "golden")


def frame(kind, h, w, seed, c=3):
    """A gradient with noise: smooth areas and edges, every code reached."""
    rng = np.random.default_rng(seed)
    n = cvchain.frame_bytes(kind, h, w, c)
    ramp = (np.arange(n) * 7 % 256).astype(np.int32)
    return np.clip(ramp + rng.integers(-40, 40, n), 0, 255).astype(np.uint8).tobytes()


# name, frame kind, H, W, src C, dst (H, W, C, dtype), options
CASES = [
    ("nv12_stretch", "nv12", 48, 64, 3, (32, 32, 3, "u8"), {}),
    ("nv21_letterbox", "nv21", 48, 64, 3, (40, 40, 3, "u8"), {"fit": "letterbox"}),
    ("i420_letterbox_bgr", "i420", 36, 50, 3, (48, 48, 3, "u8"), {"fit": "letterbox", "order": "bgr"}),
    ("nv12_crop_odd", "nv12", 48, 64, 3, (24, 30, 3, "u8"), {"crop": (3, 5, 41, 37)}),
    ("nv12_nearest", "nv12", 48, 64, 3, (20, 50, 3, "u8"), {"resize": "nearest", "fit": "letterbox"}),
    ("nv12_area_shrink", "nv12", 48, 64, 3, (14, 19, 3, "u8"), {"resize": "area"}),
    ("nv12_area_int", "nv12", 48, 64, 3, (16, 16, 3, "u8"), {"resize": "area", "crop": (0, 0, 64, 48),
                                                               "fit": "stretch"}),
    ("nv12_area_grow", "nv12", 16, 20, 3, (40, 30, 3, "u8"), {"resize": "area"}),
    ("nv12_upscale", "nv12", 16, 20, 3, (50, 70, 3, "u8"), {"fit": "letterbox", "pad": (0, 128, 255, 255)}),
    ("nv12_same_size", "nv12", 32, 32, 3, (32, 32, 3, "u8"), {"fit": "letterbox"}),
    ("nv12_gray", "nv12", 48, 64, 3, (30, 30, 1, "u8"), {"fit": "letterbox"}),
    ("nv12_rgbx", "nv12", 48, 64, 3, (30, 30, 4, "u8"), {"fit": "letterbox", "pad": (114, 114, 114, 7)}),
    ("nv12_meanstd_f32", "nv12", 48, 64, 3, (24, 24, 3, "f32"),
     {"fit": "letterbox", "mean": (123.675, 116.28, 103.53, 0), "std": (58.395, 57.12, 57.375, 1)}),
    ("nv12_div255_f32", "nv12", 48, 64, 3, (20, 28, 3, "f32"), {"std": (255, 255, 255, 1), "order": "bgr"}),
    ("yuyv_letterbox", "yuyv", 30, 44, 3, (32, 32, 3, "u8"), {"fit": "letterbox", "crop": (1, 2, 39, 25)}),
    ("uyvy_nearest_bgr", "uyvy", 30, 44, 3, (20, 28, 3, "u8"), {"resize": "nearest", "order": "bgr"}),
    ("rgb_letterbox", "rgb", 30, 44, 3, (32, 32, 3, "u8"), {"fit": "letterbox"}),
    ("bgrx_to_rgb", "bgr", 30, 44, 4, (20, 24, 3, "u8"), {}),
    ("rgb_gray", "rgb", 30, 44, 3, (15, 22, 1, "u8"), {}),
]


def src_spec(kind, h, w, c):
    if kind in cvchain.YUV2RGB:
        return f"yuv.{kind}:u8:3x{h}x{w}"
    return f"NHWC:u8:1x{h}x{w}x{c}"


def cli_args(kind, h, w, c, dst, o):
    dh, dw, dc, dt = dst
    a = ["--from", src_spec(kind, h, w, c), "--to", f"NHWC:{dt}:1x{dh}x{dw}x{dc}"]
    if "crop" in o:
        a += ["--crop", ",".join(map(str, o["crop"]))]
    if kind == "bgr":
        a += ["--from-order", "bgr"]
    for k in ("resize", "fit", "order"):
        if k in o:
            a += ["--" + k, o[k]]
    for k in ("pad", "mean", "std"):
        if k in o:
            a += ["--" + k, ",".join(repr(float(v)) if k != "pad" else str(v) for v in o[k])]
    return a


def main():
    os.makedirs(OUT, exist_ok=True)
    lines = []
    for i, (name, kind, h, w, c, dst, o) in enumerate(CASES):
        fr = frame(kind, h, w, 100 + i, c)
        opts = dict(o)
        exp = cvchain.chain(fr, kind, h, w, dst[0], dst[1], dst[2], dst[3], src_c=c, **opts)
        with open(os.path.join(OUT, name + ".in"), "wb") as f:
            f.write(fr)
        with open(os.path.join(OUT, name + ".out"), "wb") as f:
            f.write(np.ascontiguousarray(exp).tobytes())
        lines.append(name + " " + " ".join(cli_args(kind, h, w, c, dst, o)))
    with open(os.path.join(OUT, "manifest"), "w") as f:
        f.write("# name then the arguments of tlayout image (-i NAME.in -o OUT); OUT must equal NAME.out\n")
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
