"""No leak: reference counts and traced memory stay flat over 10^5 calls."""
import gc
import sys
import tracemalloc

import pytest

import tlayout

N = 100_000


def flat(fn, objects, n=N):
    """Call fn n times; the reference counts of objects and the traced memory must not grow."""
    for _ in range(1000):  # warm caches (imports, interned strings, free lists)
        fn()
    gc.collect()
    counts = [sys.getrefcount(o) for o in objects]
    tracemalloc.start()
    start = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        fn()
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    assert [sys.getrefcount(o) for o in objects] == counts
    assert grown < 64 * 1024, "%d bytes more after %d calls" % (grown, n)


def test_convert():
    src, out = bytes(64), bytearray(64)
    s, d = tlayout.Desc("NCHW:u8:1x4x4x4"), tlayout.Desc("NHWC:u8:1x4x4x4")
    flat(lambda: tlayout.convert(src, s, d, out), [src, out, s, d])
    flat(lambda: tlayout.convert(src, s, d), [src, s, d])
    flat(lambda: tlayout.convert(src, "NCHW:u8:1x4x4x4", d, out=out, keep_padding=True), [src, out, d])


def test_errors():
    src, out = bytes(64), bytearray(64)

    def failing():
        try:
            tlayout.convert(src, "NCHW:u8:1x4x4x4", "NCHW:u8:1x4x4x5", out)
        except tlayout.MismatchError:
            pass

    flat(failing, [src, out, tlayout.MismatchError])


def test_desc():
    spec = "rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=5:scale=0.1"
    d = tlayout.Desc(spec)
    flat(lambda: tlayout.Desc(spec), [spec])
    flat(lambda: (d.dims, d.spec, d.quant, d.offset(0, 1, 1, 1), d.size_bytes), [d])
    flat(lambda: tlayout.threshold(d, 0.55), [d])
    flat(lambda: d.json(), [d], n=N // 10)
    flat(lambda: d.explain(), [d], n=N // 10)


def test_view():
    np = pytest.importorskip("numpy")
    buf = bytearray(432)
    d = tlayout.Desc("tidl:i16:1x3x4x10:pad=1,1,1,1:scale=25")
    flat(lambda: tlayout.view(buf, d), [buf, d])
    a = tlayout._with_dlpack(tlayout.view(buf, d))
    flat(lambda: np.from_dlpack(a), [a, buf], n=N // 10)
