"""tlayout.view: zero-copy numpy arrays with the descriptor's strides."""
import itertools

import pytest

import tlayout
from conftest import pattern

np = pytest.importorskip("numpy")


def address(a, index=None):
    base = a.__array_interface__["data"][0]
    if index is None:
        return base
    return base + sum(i * s for i, s in zip(index, a.strides))


def check_logical(spec, logical):
    """The view has the logical dims, shares buf's memory, every element sits at
    Desc.offset, and its values are what the C library converts it to."""
    d = tlayout.Desc(spec)
    buf = bytearray(pattern(d.size_bytes))
    a = tlayout.view(buf, d)
    raw = np.frombuffer(buf, np.uint8)
    assert a.shape == d.dims and np.shares_memory(a, raw)
    for idx in itertools.product(*[range(n) for n in d.dims]):
        assert address(a, idx) - address(raw) == d.offset(*idx)
    ref = np.frombuffer(tlayout.convert(buf, d, logical), a.dtype).reshape(d.dims)
    assert (a == ref).all()
    return d, buf, a


def test_dense():
    d, buf, a = check_logical("NCHW:f32:1x3x4x5", "NCHW:f32:1x3x4x5")
    assert a.flags.c_contiguous and a.flags.writeable and a.dtype == np.float32


def test_pitched_larod():
    d, buf, a = check_logical("larod.nhwc:u8:1x4x5x3:align=0,0,32,4", "NHWC:u8:1x4x5x3")
    assert a.strides == (128, 32, 4, 1)
    a[0, 1, 2, 0] = 99  # writes land in the buffer
    assert buf[32 + 8] == 99


def test_padded_tidl():
    d, buf, a = check_logical("tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25",
                              "NCHW:i16:1x3x4x10:q=inv:scale=25:round=zero")  # same codes
    assert a.strides == (432, 144, 24, 2) and a.dtype == np.int16
    full = tlayout.view(buf, d, physical=True)
    assert full.shape == (1, 3, 6, 12) and np.shares_memory(full, a)
    assert (full[:, :, 1:5, 1:11] == a).all()


def test_dml_broadcast_is_read_only():
    d, buf, a = check_logical("dml:f32:1x3x2x2:strides=0,1,0,3", "NCHW:f32:1x3x2x2")
    assert a.strides == (0, 4, 0, 12) and not a.flags.writeable
    with pytest.raises(ValueError):
        a[0, 0, 0, 0] = 1


def test_nc1hwc2_physical():
    d = tlayout.Desc("rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=5:scale=0.1")
    buf = bytearray(pattern(d.size_bytes))
    a = tlayout.view(buf, d)
    assert a.shape == (1, 2, 2, 3, 16) and a.strides == (192, 96, 48, 16, 1) and a.dtype == np.int8
    assert np.shares_memory(a, np.frombuffer(buf, np.uint8))
    codes = np.frombuffer(tlayout.convert(buf, d, "NCHW:i8:1x20x2x3:q=affine:zp=5:scale=0.1"), np.int8)
    codes = codes.reshape(1, 20, 2, 3)
    for c in range(20):
        assert (a[0, c // 16, :, :, c % 16] == codes[0, c]).all()


def test_blocked_nchw16c():
    d = tlayout.Desc("NCHW16c:f32:1x20x2x3")
    buf = bytearray(d.size_bytes)
    a = tlayout.view(buf, d)
    assert a.shape == (1, 2, 2, 3, 16) and a.strides == (768, 384, 192, 64, 4)
    assert a.shape == tuple(axis["extent"] for axis in d.json()["axes"])


def test_kchw32_with_one_block_is_logical():
    """C=3 fits one 32-lane vector: C is one strided axis, so the view is logical."""
    d, buf, a = check_logical("trt.chw32:i8:1x3x2x2:scale=0.5", "NCHW:i8:1x3x2x2:scale=0.5")
    assert a.strides == (128, 1, 64, 32)


def test_read_only_buffer_gives_read_only_array():
    src = bytes(range(12))
    a = tlayout.view(src, "NCHW:u8:1x3x2x2")
    assert not a.flags.writeable and a[0, 2, 1, 1] == 11


def test_memory_stays_alive_and_pinned():
    buf = bytearray(range(12))
    a = tlayout.view(buf, "NCHW:u8:1x3x2x2")
    with pytest.raises(BufferError):
        buf.extend(b"x")  # exported: cannot move while the view lives
    del buf
    assert a[0, 2, 1, 1] == 11  # the array keeps the memory
    b = bytearray(12)
    v = tlayout.view(b, "NCHW:u8:1x3x2x2")
    del v
    b.extend(b"x")  # released with the last view


def test_numpy_source_and_spec_or_desc():
    x = np.arange(60, dtype=np.uint8)
    a = tlayout.view(x, "NHWC:u8:1x4x5x3")
    b = tlayout.view(x, tlayout.Desc("NHWC:u8:1x4x5x3"))
    assert np.shares_memory(a, x) and (a == x.reshape(1, 4, 5, 3)).all() and (a == b).all()
