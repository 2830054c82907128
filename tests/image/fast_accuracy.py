#!/usr/bin/python3
"""Fast mode against exact mode: max and mean absolute difference of the u8
RGB input (1920x1080 NV12 -> 640x640 letterbox, bilinear), on natural-looking
frames (ImageMagick's plasma fractal and its built-in rose photograph,
enlarged) and synthetic ones (noise, ramps with hard edges, colour bars).
Prints the table of docs/image.md. Needs /usr/bin/python3 with cv2 and
ImageMagick's `convert`.

usage: /usr/bin/python3 tests/image/fast_accuracy.py path/to/tlayout"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import cv2

W, H = 1920, 1080


def magick(*args):
    out = subprocess.run(["convert", *args, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    return np.frombuffer(out, np.uint8).reshape(H, W, 3)


def nv12_of(rgb):
    i420 = cv2.cvtColor(rgb, cv2.COLOR_RGB2YUV_I420)
    y, u, v = i420[:H], i420[H:H + H // 4].reshape(-1), i420[H + H // 4:].reshape(-1)
    uv = np.empty(u.size * 2, np.uint8)
    uv[0::2], uv[1::2] = u, v
    return np.concatenate([y.reshape(-1), uv]).tobytes()


def frames():
    yy, xx = np.mgrid[0:H, 0:W]
    rng = np.random.default_rng(1)
    bars = np.zeros((H, W, 3), np.uint8)
    colours = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0), (0, 0, 255)]
    for k, c in enumerate(colours):
        bars[:, k * W // 7:(k + 1) * W // 7] = c
    ramp = np.dstack([(xx * 255 // W), (yy * 255 // H), ((xx + yy) // 8 % 2) * 255]).astype(np.uint8)
    return [
        ("plasma fractal (natural texture)", magick("-size", f"{W}x{H}", "-seed", "7", "plasma:fractal")),
        ("rose photograph, enlarged", magick("rose:", "-resize", f"{W}x{H}!")),
        ("uniform noise", rng.integers(0, 256, (H, W, 3), dtype=np.uint8)),
        ("ramps and 8-pixel checks", ramp),
        ("colour bars", bars),
    ]


def run(tool, nv12, mode, tmp):
    fin, fout = os.path.join(tmp, "f.nv12"), os.path.join(tmp, "o.bin")
    with open(fin, "wb") as f:
        f.write(nv12)
    subprocess.run([tool, "image", "--from", f"yuv.nv12:u8:3x{H}x{W}", "--to", "NHWC:u8:1x640x640x3",
                    "--fit", "letterbox", "--mode", mode, "-i", fin, "-o", fout], check=True)
    # the image area of the letterbox (rows 140..499); the border is equal by construction
    return np.fromfile(fout, np.uint8).astype(np.int32).reshape(640, 640, 3)[140:500]


def main():
    tool = sys.argv[1]
    print("| frame | max difference | mean difference | values that differ |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, rgb in frames():
            nv12 = nv12_of(np.ascontiguousarray(rgb))
            d = np.abs(run(tool, nv12, "exact", tmp) - run(tool, nv12, "fast", tmp))
            print(f"| {name} | {d.max()} | {d.mean():.3f} | {100 * (d > 0).mean():.1f}% |")


if __name__ == "__main__":
    main()
