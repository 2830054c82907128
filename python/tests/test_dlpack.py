"""DLPack: the views export their memory to any DLPack consumer (here numpy's own
from_dlpack). tlayout's own export is what view() uses when numpy is older than
1.22; it is tested directly through tlayout._with_dlpack."""
import sys

import pytest

import tlayout

np = pytest.importorskip("numpy")
if not hasattr(np, "from_dlpack"):
    pytest.skip("numpy %s has no from_dlpack to consume the capsule" % np.__version__, allow_module_level=True)


def test_tlayout_export_is_zero_copy():
    d = tlayout.Desc("tidl:i16:1x3x4x10:pad=1,1,1,1:scale=25")
    buf = bytearray(d.size_bytes)
    a = tlayout._with_dlpack(tlayout.view(buf, d))
    assert a.__dlpack_device__() == (1, 0)
    b = np.from_dlpack(a)
    assert np.shares_memory(b, np.frombuffer(buf, np.uint8)) and b.shape == a.shape and b.strides == a.strides
    a[0, 2, 3, 9] = 1234
    assert b[0, 2, 3, 9] == 1234


@pytest.mark.parametrize("dtype", ["u8", "i8", "u16", "i16", "i32", "u64", "f16", "f32", "f64"])
def test_dtypes(dtype):
    d = tlayout.Desc("NCHW16c:%s:1x20x2x3" % dtype)
    buf = bytearray(d.size_bytes)
    a = tlayout._with_dlpack(tlayout.view(buf, d))
    b = np.from_dlpack(a)
    assert b.dtype == a.dtype and b.shape == a.shape and np.shares_memory(a, b)


def test_read_only_and_stream_refused():
    a = tlayout._with_dlpack(tlayout.view(bytearray(24), "dml:f32:1x3x2x2:strides=0,1,0,3"))
    with pytest.raises(BufferError, match="read-only"):
        a.__dlpack__()
    w = tlayout._with_dlpack(tlayout.view(bytearray(4), "NCHW:u8:1x1x2x2"))
    with pytest.raises(BufferError):
        w.__dlpack__(stream=1)


def test_capsule_references_are_released():
    a = tlayout._with_dlpack(tlayout.view(bytearray(48), "NCHW:f32:1x3x2x2"))
    before = sys.getrefcount(a)
    for _ in range(1000):
        cap = a.__dlpack__()  # never consumed: its destructor drops the reference
        del cap
        b = np.from_dlpack(a)  # consumed: numpy's deleter drops it
        del b
    assert sys.getrefcount(a) == before


def test_view_returns_dlpack_capable_arrays():
    v = tlayout.view(bytearray(48), "NCHW:f32:1x3x2x2")
    assert hasattr(v, "__dlpack__") and hasattr(v, "__dlpack_device__")
    assert np.shares_memory(np.from_dlpack(v), v)
