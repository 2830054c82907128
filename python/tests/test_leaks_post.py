"""No leak in the image, post-processing and detector bindings: reference
counts and traced memory stay flat over 10^4 calls, errors included."""
import pytest

import tlayout
from test_leaks import flat

np = pytest.importorskip("numpy")

N = 10_000
NV12, DST = "yuv.nv12:u8:3x8x8", "NCHW:f32:1x3x4x4"
SPEC = "NCHW:i8:1x4x2x2:scale=0.1"


def test_image():
    frame, out = bytes(96), np.zeros(48, np.float32)
    plan = tlayout.ImagePlan(NV12, DST, fit="letterbox", mean=(1, 2, 3))
    flat(lambda: tlayout.image(frame, NV12, DST, out, fit="letterbox", pad=(1, 2, 3)), [frame, out], N)
    flat(lambda: tlayout.image(frame, NV12, DST, out=out), [frame, out], N)
    flat(lambda: plan.run(frame, out), [frame, out, plan], N)
    flat(lambda: plan.map, [plan], N)
    flat(lambda: tlayout.ImagePlan(NV12, DST, resize="area"), [], N)


def test_image_errors():
    frame, out = bytes(96), np.zeros(48, np.float32)

    def bad(**kw):
        with pytest.raises((tlayout.Error, TypeError, BufferError)):
            tlayout.image(frame, NV12, DST, out, **kw)

    flat(lambda: bad(resize="cubic"), [frame, out], N)
    flat(lambda: bad(crop=(0, 0, 99, 99)), [frame, out], N)
    flat(lambda: bad(out=out), [frame, out], N)
    flat(lambda: bad(colour=1), [frame, out], N)


def test_post():
    buf = np.arange(16, dtype=np.int8)
    labels, values = np.zeros((1, 2, 2), np.int32), np.zeros(1)
    coords = np.array([[0, 1, 1, 1]])
    flat(lambda: tlayout._core._scan(buf, SPEC, 0.5), [buf], N)
    flat(lambda: tlayout._core._topk(buf, SPEC, 2), [buf], N)
    flat(lambda: tlayout._core._argmax(buf, SPEC, labels), [buf, labels], N)
    flat(lambda: tlayout._core._gather(buf, SPEC, coords, values), [buf, coords, values], N)

    def bad():
        with pytest.raises(tlayout.Error):
            tlayout._core._scan(buf, SPEC, 0.5, 3, 2)

    flat(bad, [buf], N)


def test_detect():
    heads = [((np.zeros(64 * 4, np.int8), "NCHW:i8:1x64x2x2:scale=0.1"),
              (np.full(2 * 4, 100, np.int8), "NCHW:i8:1x2x2x2:scale=0.01"))]
    flat(lambda: tlayout._core._detect(0, heads, 0.5, 0.45, 4, 4), [heads[0][0][0], heads[0][1][0]], N)
    bad_heads = [(heads[0][0], (heads[0][1][0], "NCHW:i8:1x2x1x2"))]

    def bad():
        with pytest.raises(tlayout.Error):
            tlayout._core._detect(0, bad_heads, 0.5, 0.45, 4, 4)

    flat(bad, [heads[0][0][0]], N)
