"""What a Python call of tlayout.convert costs on top of the C library.

    PYTHONPATH=build/python /usr/bin/python3 python/bench_overhead.py [--smoke]

1. Per-call overhead on a 64-byte tensor (NCHW u8 -> NHWC u8, Desc objects,
   preallocated out): Python call time minus the C API's own time for the same
   conversion (tl_convert in a C loop, tlayout._core._time_convert). Target <= 5 us.
   Also shown: spec strings instead of Desc objects (parsed per call) and
   out=None (a new bytearray per call).
2. 1080p conversions: Python time / C time. Target within 5 %.

Best of several repeats each; run it on a quiet machine. --smoke runs a few
iterations only (checks that the script works; the numbers mean nothing).
Not a test: nothing here asserts a time.
"""
import os
import sys
import timeit

# This script sits beside the source package python/tlayout, which has no
# compiled _core: import the built or installed one (PYTHONPATH) instead.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
import tlayout  # noqa: E402


def best_per_call(fn, number, repeat):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def overhead(number, repeat):
    s_spec, d_spec = "NCHW:u8:1x4x4x4", "NHWC:u8:1x4x4x4"
    s, d = tlayout.Desc(s_spec), tlayout.Desc(d_spec)
    src, out = bytes(range(64)), bytearray(64)
    c = tlayout._core._time_convert(src, s, d, out, number, repeat)
    rows = [
        ("Desc objects, out given", best_per_call(lambda: tlayout.convert(src, s, d, out), number, repeat)),
        ("spec strings, out given", best_per_call(lambda: tlayout.convert(src, s_spec, d_spec, out), number, repeat)),
        ("Desc objects, out=None", best_per_call(lambda: tlayout.convert(src, s, d), number, repeat)),
    ]
    print("64-byte convert %s -> %s: C API %.3f us per call" % (s_spec, d_spec, c * 1e6))
    print("  %-26s %10s %14s" % ("python call", "us/call", "overhead us"))
    for name, t in rows:
        print("  %-26s %10.3f %14.3f" % (name, t * 1e6, (t - c) * 1e6))
    verdict = "meets" if rows[0][1] - c <= 5e-6 else "MISSES"
    print("  overhead (Desc objects, out given) %s the 5 us target" % verdict)


def large(number, repeat):
    cases = [
        ("NHWC:u8:1x1080x1920x3", "NCHW:f32:1x3x1080x1920"),
        ("NHWC:u8:1x1080x1920x3", "rknn.nc1hwc2:i8:1x1x1080x1920x16:c=3:zp=-128:scale=0.0039"),
        ("yuv.nv12:u8:3x1080x1920", "CHW:u8:3x1080x1920"),
    ]
    print("\n1080p conversions: Python vs C API (best per call)")
    print("  %-60s %9s %9s %7s" % ("conversion", "C ms", "Py ms", "ratio"))
    for s_spec, d_spec in cases:
        s, d = tlayout.Desc(s_spec), tlayout.Desc(d_spec)
        src, out = bytearray(s.size_bytes), bytearray(d.size_bytes)
        tlayout.convert(src, s, d, out)  # first touch of the pages: not part of either time
        c = tlayout._core._time_convert(src, s, d, out, number, repeat)
        py = best_per_call(lambda: tlayout.convert(src, s, d, out), number, repeat)
        name = "%s -> %s" % (s_spec.split(":")[0], d_spec.split(":")[0] + ":" + d_spec.split(":")[1])
        print("  %-60s %9.3f %9.3f %6.3fx%s" % (name, c * 1e3, py * 1e3, py / c,
                                                 "" if py <= c * 1.05 else "  (above 5%)"))


def main():
    smoke = "--smoke" in sys.argv
    print("tlayout %s, Python %s" % (tlayout.__version__, sys.version.split()[0]))
    overhead(number=1000 if smoke else 200_000, repeat=2 if smoke else 7)
    large(number=1 if smoke else 20, repeat=1 if smoke else 7)


if __name__ == "__main__":
    main()
