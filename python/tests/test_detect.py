"""tlayout.detect_yolov8 / detect_yolov8_single / detect_yolov5 on fake native
heads: the same detections as `tlayout detect`, an (N, 6) float array, the
letterbox map of an ImagePlan, every error, GIL released."""
import pytest

import tlayout
from conftest import releases_gil

np = pytest.importorskip("numpy")

RNG = np.random.default_rng(11)
INPUT = (64, 64)
GRIDS = (8, 4, 2)  # strides 8, 16, 32 at a 64 x 64 input


def codes(spec):
    return RNG.integers(-128, 128, tlayout.Desc(spec).size_bytes, dtype=np.int8).view(np.uint8)


def v8_specs(g, rknn):
    if rknn:  # the RKNN model zoo's native output: NC1HWC2, c2 = 16
        return ("rknn.nc1hwc2:i8:1x4x%dx%dx16:c=64:zp=0:scale=0.1" % (g, g),
                "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=3:zp=-128:scale=0.0039" % (g, g),
                "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=1:zp=-128:scale=0.0117" % (g, g))
    return ("NCHW:i8:1x64x%dx%d:scale=0.1" % (g, g), "NCHW:i8:1x3x%dx%d:scale=0.0039:zp=-128" % (g, g),
            "NCHW:i8:1x1x%dx%d:scale=0.0117:zp=-128" % (g, g))


def v8_heads(rknn, with_sum):
    branches = []
    for g in GRIDS:
        specs = v8_specs(g, rknn)[:3 if with_sum else 2]
        branches.append(tuple((codes(s), s) for s in specs))
    return branches


def run_cli(cli, tmp_path, model, heads, *opts):
    args = []
    for i, (buf, spec) in enumerate(heads):
        path = tmp_path / ("h%d" % i)
        np.asarray(buf).tofile(path)
        args += ["--head", "%s:%s" % (spec, path)]
    rows = [line.split() for line in cli("detect", model, *args, "--input", "%dx%d" % INPUT, *opts)
            .decode().splitlines()]
    return [(float(r[2]), float(r[3]), float(r[4]), float(r[5]), np.float32(float(r[1])), int(r[0]))
            for r in rows]


def same(boxes, rows):
    assert boxes.shape == (len(rows), 6) and boxes.dtype == np.float64
    got = [("%.4f" % b[0], "%.4f" % b[1], "%.4f" % b[2], "%.4f" % b[3], np.float32(b[4]), int(b[5])) for b in boxes]
    assert got == [("%.4f" % r[0], "%.4f" % r[1], "%.4f" % r[2], "%.4f" % r[3], r[4], r[5]) for r in rows]


@pytest.mark.parametrize("rknn,with_sum", [(True, True), (False, False), (True, False)])
def test_yolov8_is_the_cli_detect(cli, tmp_path, rknn, with_sum):
    heads = v8_heads(rknn, with_sum)
    boxes = tlayout.detect_yolov8(heads, threshold=0.6, iou=0.45, input=INPUT)
    assert len(boxes) > 0
    flat = [h for branch in heads for h in branch]
    same(boxes, run_cli(cli, tmp_path, "yolov8", flat, "--threshold", "0.6", "--iou", "0.45"))


def test_map_of_an_image_plan_gives_frame_pixels(cli, tmp_path):
    plan = tlayout.ImagePlan("yuv.nv12:u8:3x48x80", "NHWC:u8:1x64x64x3", fit="letterbox")
    m = plan.map
    sx, sy = 1 / m["scale_x"], 1 / m["scale_y"]
    dx, dy = -m["offset_x"] * sx, -m["offset_y"] * sy
    heads = v8_heads(True, False)
    in_frame = tlayout.detect_yolov8(heads, 0.6, 0.45, input=INPUT, map=plan)
    assert np.allclose(tlayout.detect_yolov8(heads, 0.6, 0.45, input=INPUT, map=(sx, sy, dx, dy)), in_frame)
    flat = [h for branch in heads for h in branch]
    same(in_frame, run_cli(cli, tmp_path, "yolov8", flat, "--threshold", "0.6", "--iou", "0.45",
                           "--map", "%.17g,%.17g,%.17g,%.17g" % (sx, sy, dx, dy)))
    in_input = tlayout.detect_yolov8(heads, 0.6, 0.45, input=INPUT)
    assert np.allclose(in_frame[:, 0], in_input[:, 0] * m["scale_x"] + m["offset_x"])
    assert np.allclose(in_frame[:, 3], in_input[:, 3] * m["scale_y"] + m["offset_y"])


def test_yolov8_single_is_the_cli_detect(cli, tmp_path):
    a, nc = 40, 3
    t = np.empty((1, 4 + nc, a), np.int16)  # codes of 0.01
    t[0, 0:2] = RNG.integers(0, 6400, (2, a))
    t[0, 2:4] = RNG.integers(200, 3000, (2, a))
    t[0, 4:] = RNG.integers(0, 100, (nc, a))
    spec = "NCW:i16:1x%dx%d:scale=0.01" % (4 + nc, a)
    boxes = tlayout.detect_yolov8_single(t, spec, threshold=0.5, iou=0.5, input=INPUT)
    assert len(boxes) > 0
    same(boxes, run_cli(cli, tmp_path, "yolov8", [(t, spec)], "--threshold", "0.5", "--iou", "0.5"))


def test_yolov5_is_the_cli_detect(cli, tmp_path):
    heads = []
    for g in GRIDS:
        spec = "NCHW:u8:1x21x%dx%d:scale=0.00392156862745098" % (g, g)
        heads.append((RNG.integers(0, 256, 21 * g * g, dtype=np.uint8), spec))
    boxes = tlayout.detect_yolov5(heads, threshold=0.7, iou=0.45, input=INPUT)
    assert len(boxes) > 0
    same(boxes, run_cli(cli, tmp_path, "yolov5", heads, "--threshold", "0.7", "--iou", "0.45"))
    coco = [[(10, 13), (16, 30), (33, 23)], [(30, 61), (62, 45), (59, 119)], [(116, 90), (156, 198), (373, 326)]]
    assert (tlayout.detect_yolov5(heads, 0.7, 0.45, input=INPUT, anchors=coco) == boxes).all()
    other = tlayout.detect_yolov5(heads, 0.7, 0.45, input=INPUT, anchors=[[(1, 1)] * 3] * 3)
    assert not np.array_equal(other[:, :4], boxes[:, :4])


def test_nothing_found_is_an_empty_array():
    boxes = tlayout.detect_yolov8(v8_heads(False, False), threshold=1.5, iou=0.45, input=INPUT)
    assert boxes.shape == (0, 6)


def test_errors():
    heads = v8_heads(False, False)
    with pytest.raises(tlayout.MismatchError):
        tlayout.detect_yolov8([heads[0], (heads[1][0], heads[0][1])], 0.5, 0.45, input=INPUT)
    with pytest.raises(TypeError):
        tlayout.detect_yolov8([heads[0][0]], 0.5, 0.45)  # a head, not a branch
    with pytest.raises(TypeError):
        tlayout.detect_yolov8([], 0.5, 0.45)
    with pytest.raises(TypeError):
        tlayout.detect_yolov8(heads, 0.5, 0.45, map=(1, 2))
    with pytest.raises(tlayout.SpecError):
        tlayout.detect_yolov8([((heads[0][0][0], "NCHW:i8:1x64"), heads[0][1])], 0.5, 0.45)
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.detect_yolov8([((heads[0][0][0][:-1], heads[0][0][1]), heads[0][1])], 0.5, 0.45)
    with pytest.raises(tlayout.Error):
        tlayout.detect_yolov8(heads, float("nan"), 0.45)
    with pytest.raises(tlayout.SpecValueError):
        tlayout.detect_yolov5([(bytes(21 * 4), "NCHW:u8:1x21x2x2")] * 4, 0.5, 0.45)
    with pytest.raises(TypeError):
        tlayout.detect_yolov5([(bytes(21 * 4), "NCHW:u8:1x21x2x2")], 0.5, 0.45, anchors=[[(1, 2, 3)]])


def test_decoding_releases_the_gil():
    big = [tuple((codes(s), s) for s in v8_specs(g, True)[:2]) for g in (80, 40, 20)]

    def work():
        for _ in range(20):
            tlayout.detect_yolov8(big, 0.5, 0.45)

    assert releases_gil(work), "the main thread could not run during detect_yolov8: GIL held"
