"""tlayout: the tensor memory formats of edge-AI accelerators, from Python.

Describe a layout with a spec string (docs/spec.md), convert buffers between
layouts, and look at a vendor buffer through a zero-copy numpy array::

    import tlayout
    d = tlayout.Desc("rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039")
    nchw = tlayout.convert(native_buffer, d, "NCHW:f32:1x84x80x80")
    blocks = tlayout.view(native_buffer, d)      # numpy, N x C1 x H x W x C2

The work is done by the C library (libtlayout) compiled into tlayout._core;
numpy is needed only by view(). docs/python.md is the guide.
"""
from . import _core
from ._core import *  # noqa: F401,F403  Desc, Quant, convert, threshold, Error and its subclasses

__version__ = _core.library_version


def _numpy_exports_dlpack():
    try:
        import numpy
    except ImportError:
        return True  # view() will say numpy is missing
    return hasattr(numpy.ndarray, "__dlpack__")


class _DLPackMixin:
    """__dlpack__ / __dlpack_device__ for arrays of a numpy too old to have them."""

    def __dlpack__(self, stream=None):
        if stream is not None:
            raise BufferError("tlayout views live in CPU memory: stream must be None")
        return _core._dlpack_capsule(self)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0


_dlpack_array_class = None


def _with_dlpack(array):
    """The same array as an ndarray subclass with __dlpack__ (no copy)."""
    global _dlpack_array_class
    if _dlpack_array_class is None:
        import numpy

        _dlpack_array_class = type("DLPackArray", (_DLPackMixin, numpy.ndarray), {})
    return array.view(_dlpack_array_class)


_NUMPY_HAS_DLPACK = _numpy_exports_dlpack()


def view(buf, desc, *, physical=False):
    """A zero-copy numpy array over buf laid out as desc (a Desc or a spec string).

    The array has the tensor's logical dims and the descriptor's byte strides
    whenever each dim is one strided axis (dense, pitched larod, padded TIDL,
    DirectML strides; broadcast dims give a read-only array). Blocked layouts
    (NC1HWC2, NCHW16c, kCHW32, ...) come as their physical array, one dim per
    axis, padding included; physical=True asks for that form always.
    Quantized tensors show their stored codes. The array is read-only when buf
    or the layout is. Raises tlayout.UnsupportedError for what numpy cannot
    show (several planes, 4-bit and bf16 elements).
    """
    array = _core._view(buf, desc, physical=physical)
    return array if _NUMPY_HAS_DLPACK else _with_dlpack(array)


__all__ = [name for name in dir(_core) if not name.startswith("_")] + ["view"]
