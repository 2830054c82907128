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


# ---- post-processing and detectors (python/src/post.c, detect.c) -------------
# The C functions return Python objects; these wrappers hand back numpy arrays
# when numpy is there. docs/postprocess.md defines every operation.


def _numpy():
    try:
        import numpy
    except ImportError:
        return None
    return numpy


#: The dtype of scan() and topk() results with numpy: one record per hit.
HIT_FIELDS = (("n", "i8"), ("c", "i4"), ("h", "i8"), ("w", "i8"), ("code", "i4"), ("value", "f8"))


def _hits(rows):
    np = _numpy()
    return rows if np is None else np.array(rows, dtype=list(HIT_FIELDS))


def scan(buf, desc, threshold, channels=None, best=False):
    """Every element of buf (laid out as desc) whose real value is >= threshold,
    in (n, h, w, c) order, compared on the codes with the exact quantized
    threshold. channels=(first, count) limits the search to those channels;
    best=True keeps per position only the best channel of the range, when it
    passes. Returns a numpy structured array with fields n c h w code value
    (HIT_FIELDS), or a list of such tuples without numpy."""
    first, count = (0, -1) if channels is None else channels
    return _hits(_core._scan(buf, desc, threshold, first, count, best))


def topk(buf, desc, k, per_item=False):
    """The k largest values over C per (n, h, w) position (per batch item over
    every (c, h, w) with per_item=True), largest first; as scan()."""
    return _hits(_core._topk(buf, desc, k, per_item))


_RESIZES = {None: 0, "none": 0, "nearest": 1, "bilinear": 2}


def argmax(buf, desc, size=None, resize="bilinear", u8=False, out=None):
    """The label map of buf: per (n, y, x) the channel with the largest real
    value (ties -> the lowest). size=(h, w) upsamples the logits first
    (resize "bilinear" or "nearest", as cv2). Labels are int32 (uint8 with
    u8=True). out: a writable buffer of N*H*W labels, filled in place; None
    gives a new numpy array (N, H, W) (a bytearray without numpy)."""
    if resize not in _RESIZES:
        raise ValueError("argmax: resize=%r is not one of 'bilinear', 'nearest', None" % (resize,))
    d = desc if isinstance(desc, Desc) else Desc(desc)
    if size is None:
        mode, (oh, ow) = 0, (0, 0)
    else:
        mode, (oh, ow) = _RESIZES[resize], size
    if out is None:
        n, h, w = _nhw(d, oh, ow)
        np = _numpy()
        out = (np.zeros((n, h, w), np.uint8 if u8 else np.int32) if np is not None
               else bytearray(n * h * w * (1 if u8 else 4)))
    return _core._argmax(buf, d, out, mode, oh, ow, u8)


def _nhw(d, oh, ow):
    """N, H, W of the label map of d (the (n, c, h, w) reading of docs/postprocess.md)."""
    labels, dims = d.labels, d.dims
    if labels.strip("?"):
        sizes = {l: v for l, v in zip(labels, dims) if l != "?"}
    else:
        sizes = dict(zip({1: "C", 2: "NC", 3: "NCW", 4: "NCHW"}.get(len(dims), ""), dims))
    return sizes.get("N", 1), oh or sizes.get("H", 1), ow or sizes.get("W", 1)


def gather(buf, desc, coords, out=None):
    """The real values of the listed elements: coords is a sequence of
    (n, c, h, w). Every coordinate is checked before anything is written.
    Returns out (or a new float64 numpy array; an array('d') without numpy)."""
    np = _numpy()
    if np is not None:
        c = np.ascontiguousarray(coords, dtype=np.int64).reshape(-1, 4)
        if out is None:
            out = np.zeros(len(c), np.float64)
    else:
        import array

        flat = [int(v) for quad in coords for v in quad]
        c = array.array("q", flat)
        if out is None:
            out = array.array("d", bytes(8 * (len(flat) // 4)))
    return _core._gather(buf, desc, c, out)


def _boxes(rows):
    np = _numpy()
    if np is None:
        return [r[:6] for r in rows]
    return np.array([r[:6] for r in rows], dtype=np.float64).reshape(-1, 6)


def _detect_args(input):
    w, h = input
    return {"input_w": int(w), "input_h": int(h)}


def detect_yolov8(heads, threshold=0.25, iou=0.45, input=(640, 640), batch=0, map=None):
    """YOLOv8 / YOLO11 split heads (RKNN model zoo): heads is one branch per
    stride, each ((box_buf, box_desc), (cls_buf, cls_desc)[, (sum_buf,
    sum_desc)]), read in place in any layout. Decode, then class-aware NMS.
    Returns an (N, 6) float64 array, best first: x1 y1 x2 y2 score class, in
    model-input pixels, or in frame pixels with map= an ImagePlan (its
    letterbox) or (sx, sy, dx, dy) with input = frame * s + d. A list of
    6-tuples without numpy."""
    return _boxes(_core._detect(0, heads, threshold, iou, batch=batch, map=map, **_detect_args(input)))


def detect_yolov8_single(buf, desc, threshold=0.25, iou=0.45, input=(640, 640), batch=0, map=None):
    """YOLOv8 single output [N, 4 + nc, anchors] (cx cy w h, class scores);
    as detect_yolov8."""
    return _boxes(_core._detect(1, (buf, desc), threshold, iou, batch=batch, map=map, **_detect_args(input)))


def detect_yolov5(heads, threshold=0.25, iou=0.45, input=(640, 640), batch=0, map=None, anchors=None):
    """YOLOv5 anchor heads, one (buf, desc) per stride, [N, na*(5+nc), H, W]
    after sigmoid. anchors: per branch a sequence of (w, h) in input pixels
    (None: the COCO anchors of strides 8, 16, 32). As detect_yolov8."""
    return _boxes(_core._detect(2, heads, threshold, iou, batch=batch, map=map, anchors=anchors,
                                **_detect_args(input)))


_PUBLIC = ["view", "scan", "topk", "argmax", "gather", "detect_yolov8", "detect_yolov8_single", "detect_yolov5",
           "HIT_FIELDS"]


__all__ = [name for name in dir(_core) if not name.startswith("_")] + _PUBLIC
