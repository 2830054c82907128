#!/usr/bin/python3
"""Live comparison of `tlayout image` (exact mode) with OpenCV 4.6 on random
cases: frame kinds, sizes, odd crops, every resize, stretch and letterbox,
channel orders, gray and RGBX, u8 and f32 with mean/std. 0 LSB difference.

usage: /usr/bin/python3 tests/image/live_compare.py path/to/tlayout [cases] [seed]
Exit 0 when every case is identical, 1 otherwise, 77 when cv2 is missing."""
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import cvchain
except ImportError as e:
    print(f"skipped: {e} (install python3-opencv and python3-numpy)")
    sys.exit(77)


def random_case(rng):
    kind = str(rng.choice(["nv12", "nv21", "i420", "yuyv", "uyvy", "rgb", "bgr"]))
    h, w = (int(v) * 2 for v in rng.integers(1, 120, 2))
    c = int(rng.choice([3, 4])) if kind in ("rgb", "bgr") else 3
    o = {}
    if rng.random() < 0.6:
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        o["crop"] = (x, y, int(rng.integers(1, w - x + 1)), int(rng.integers(1, h - y + 1)))
    o["resize"] = str(rng.choice(["bilinear", "nearest", "area"]))
    o["fit"] = str(rng.choice(["stretch", "letterbox"]))
    o["order"] = str(rng.choice(["rgb", "bgr"]))
    dc = int(rng.choice([1, 3, 3, 4]))
    dt = str(rng.choice(["u8", "u8", "f32"]))
    if rng.random() < 0.3:
        o["pad"] = tuple(int(v) for v in rng.integers(0, 256, 4))
    if dt == "f32":
        o["mean"] = tuple(float(np.float32(v)) for v in rng.uniform(0, 255, 4))
        o["std"] = tuple(float(np.float32(v)) for v in rng.uniform(1, 100, 4))
    dh, dw = (int(v) for v in rng.integers(1, 160, 2))
    return kind, h, w, c, (dh, dw, dc, dt), o


def args_of(kind, h, w, c, dst, o):
    dh, dw, dc, dt = dst
    src = f"yuv.{kind}:u8:3x{h}x{w}" if kind in cvchain.YUV2RGB else f"NHWC:u8:1x{h}x{w}x{c}"
    a = ["--from", src, "--to", f"NHWC:{dt}:1x{dh}x{dw}x{dc}"]
    if kind == "bgr":
        a += ["--from-order", "bgr"]
    if "crop" in o:
        a += ["--crop", ",".join(map(str, o["crop"]))]
    for k in ("resize", "fit", "order"):
        a += ["--" + k, o[k]]
    for k in ("pad", "mean", "std"):
        if k in o:
            a += ["--" + k, ",".join(repr(v) for v in o[k])]
    return a


def main():
    tool = sys.argv[1]
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = np.random.default_rng(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        fin, fout = os.path.join(tmp, "in"), os.path.join(tmp, "out")
        for i in range(cases):
            kind, h, w, c, dst, o = random_case(rng)
            n = cvchain.frame_bytes(kind, h, w, c)
            frame = rng.integers(0, 256, n, dtype=np.uint8).tobytes()
            with open(fin, "wb") as f:
                f.write(frame)
            a = args_of(kind, h, w, c, dst, o)
            r = subprocess.run([tool, "image"] + a + ["-i", fin, "-o", fout], capture_output=True, text=True)
            if r.returncode != 0:
                if "too narrow" in r.stderr:  # a letterbox with an empty image: rejected by design
                    continue
                print("FAILED to run:", " ".join(a), r.stderr.strip())
                bad += 1
                continue
            exp = cvchain.chain(frame, kind, h, w, dst[0], dst[1], dst[2], dst[3], src_c=c, **o)
            got = np.fromfile(fout, exp.dtype).reshape(exp.shape)
            if not np.array_equal(got.view(np.uint8), exp.view(np.uint8)):
                d = np.abs(got.astype(np.float64) - exp.astype(np.float64))
                print(f"DIFFERS (max {d.max()}, {int((d > 0).sum())} values):", " ".join(a))
                bad += 1
    print(f"{cases} random cases against OpenCV {cvchain.cv2.__version__}: {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
