"""Without numpy the post-processing and detector functions give plain Python
objects (numpy hidden with monkeypatch; the values are those of the numpy path)."""
import array

import pytest

import tlayout

SPEC = "NCHW:i8:1x3x1x2:scale=0.5"
CODES = bytes([1, 7, 5, 2, 3, 0])  # c0: 1 7, c1: 5 2, c2: 3 0


@pytest.fixture
def no_numpy(monkeypatch):
    monkeypatch.setattr(tlayout, "_numpy", lambda: None)


def test_scan_and_topk_give_tuples(no_numpy):
    assert tlayout.scan(CODES, SPEC, 1.5) == [(0, 1, 0, 0, 5, 2.5), (0, 2, 0, 0, 3, 1.5), (0, 0, 0, 1, 7, 3.5)]
    assert tlayout.scan(CODES, SPEC, 0.0, channels=(1, 2), best=True) == [(0, 1, 0, 0, 5, 2.5),
                                                                           (0, 1, 0, 1, 2, 1.0)]
    assert tlayout.topk(CODES, SPEC, 1) == [(0, 1, 0, 0, 5, 2.5), (0, 0, 0, 1, 7, 3.5)]


def test_argmax_and_gather_give_buffers(no_numpy):
    labels = tlayout.argmax(CODES, SPEC)
    assert isinstance(labels, bytearray) and array.array("i", bytes(labels)).tolist() == [1, 0]
    assert tlayout.argmax(CODES, SPEC, u8=True) == bytearray([1, 0])
    values = tlayout.gather(CODES, SPEC, [(0, 2, 0, 0), (0, 0, 0, 1)])
    assert isinstance(values, array.array) and values.tolist() == [1.5, 3.5]


def test_detect_gives_a_list(no_numpy):
    box = tlayout.Desc("NCHW:i8:1x64x1x1:scale=1")
    codes = bytearray(64)
    for side in range(4):
        codes[side * 16 + 2] = 100  # every DFL distance at bin 2
    heads = [((bytes(codes), box), (bytes([0, 56]), "NCHW:i8:1x2x1x1:scale=0.01"))]
    got = tlayout.detect_yolov8(heads, threshold=0.5, iou=0.45, input=(32, 32))
    assert isinstance(got, list) and len(got) == 1
    # stride 32, cell centre 0.5, distances 2: (0.5 -+ 2) * 32; class 1, score 56 * 0.01
    assert [round(v, 6) for v in got[0]] == [-48.0, -48.0, 80.0, 80.0, 0.56, 1.0]
