"""The package itself: how it was built and how it adapts to the numpy it finds."""
import sys

import tlayout


def test_view_falls_back_to_its_own_dlpack(np, monkeypatch):
    """With a numpy that lacks ndarray.__dlpack__, view() returns the DLPack subclass."""
    monkeypatch.setattr(tlayout, "_NUMPY_HAS_DLPACK", False)
    v = tlayout.view(bytearray(48), "NCHW:f32:1x3x2x2")
    assert type(v).__name__ == "DLPackArray" and isinstance(v, np.ndarray)
    assert v.__dlpack_device__() == (1, 0)


def test_module_is_abi3_from_311():
    if sys.version_info >= (3, 11):
        assert tlayout._core.__file__.endswith(".abi3.so")
