"""Shared pieces of the Python tests: the module under test, the CLI as the C
library's reference, and specs covering every vendor.

run.py puts the module's directory first on sys.path and names the CLI in
TLAYOUT_CLI; tests that compare with the CLI skip without it."""
import os
import subprocess

import pytest

import tlayout  # noqa: F401  (fails loudly here when the module is not on the path)

# One layout per vendor and a few generic ones: (spec, logical spec of the same dims).
SPECS = [
    ("NCHW:f32:1x3x4x5", "NCHW:f32:1x3x4x5"),
    ("NCHW16c:f32:1x20x2x3", "NCHW:f32:1x20x2x3"),
    ("larod.nhwc:u8:1x4x5x3:align=0,0,32,4", "NHWC:u8:1x4x5x3"),
    ("tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25", "NCHW:i16:1x3x4x10"),
    ("dml:f32:1x3x2x2:strides=0,1,0,3", "NCHW:f32:1x3x2x2"),
    ("rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=5:scale=0.1", "NCHW:i8:1x20x2x3"),
    ("trt.chw32:i8:1x3x2x2:scale=0.5", "NCHW:i8:1x3x2x2"),
    ("yuv.nv12:u8:3x4x6", "CHW:u8:3x4x6"),
]


@pytest.fixture
def cli():
    """Run the tlayout CLI: cli(*args, input=bytes) -> stdout bytes (raises on failure)."""
    exe = os.environ.get("TLAYOUT_CLI")
    if not exe or not os.path.exists(exe):
        pytest.skip("no tlayout CLI (TLAYOUT_CLI) to compare with")

    def run(*args, input=None, check=True):
        p = subprocess.run([exe, *args], input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and p.returncode != 0:
            raise AssertionError("tlayout %s failed: %s" % (" ".join(args), p.stderr.decode()))
        return p if not check else p.stdout

    return run


@pytest.fixture
def np():
    return pytest.importorskip("numpy")


def pattern(n, seed=1):
    """n reproducible pseudo-random bytes (no numpy needed)."""
    out = bytearray(n)
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = (x >> 16) & 0xFF
    return bytes(out)


def releases_gil(work):
    """True when work() lets another thread run before it is done. With a switch
    interval of 100 s the GIL changes hands only when released on purpose: the
    main thread, waiting for the GIL, wakes while the worker still runs (it sees
    `finished` False) only if work released the GIL (test_threads.py)."""
    import sys
    import threading

    started, state = threading.Event(), {"finished": False}

    def worker():
        started.set()
        work()
        state["finished"] = True

    old = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        t = threading.Thread(target=worker)
        t.start()
        started.wait()  # blocks, so the worker runs; we need the GIL back to continue
        seen_finished = state["finished"]
        t.join()
    finally:
        sys.setswitchinterval(old)
    return not seen_finished
