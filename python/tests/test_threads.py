"""Threads: conversions release the GIL, run concurrently with correct results,
and each thread gets its own error message."""
import threading

import pytest

import tlayout
from conftest import releases_gil

np = pytest.importorskip("numpy")

BIG_SRC, BIG_DST = "NCHW:f32:1x32x256x256", "NHWC:f32:1x256x256x32"  # 8 MiB


def test_other_threads_run_during_a_conversion():
    src = np.random.default_rng(1).random((1, 32, 256, 256), dtype=np.float32)
    out = np.empty((1, 256, 256, 32), np.float32)

    def work():
        for _ in range(20):
            tlayout.convert(src, BIG_SRC, BIG_DST, out)

    assert releases_gil(work), "the main thread could not run while convert() worked: GIL held"
    assert (out == src.transpose(0, 2, 3, 1)).all()


def test_concurrent_conversions_are_correct():
    rng = np.random.default_rng(2)
    srcs = [rng.random((1, 32, 256, 256), dtype=np.float32) for _ in range(4)]
    outs = [np.empty((1, 256, 256, 32), np.float32) for _ in range(4)]
    threads = [threading.Thread(target=lambda i=i: [tlayout.convert(srcs[i], BIG_SRC, BIG_DST, outs[i])
                                                    for _ in range(3)]) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s, o in zip(srcs, outs):
        assert (o == s.transpose(0, 2, 3, 1)).all()


def test_error_messages_are_per_thread():
    results = {}

    def fail(i):
        for _ in range(200):
            try:
                tlayout.convert(bytes(8), "NCHW:u8:1x2x2x2", "NCHW:u8:1x2x2x%d" % (i + 3))
            except tlayout.MismatchError as e:
                if str(i + 3) not in e.message:
                    results[i] = e.message
                    return
        results[i] = None

    threads = [threading.Thread(target=fail, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {i: None for i in range(4)}
