"""tlayout.image and tlayout.ImagePlan: the same bytes as `tlayout image`, OpenCV's
bits for an NV12 letterbox, zero-copy output, every error, GIL released."""
import pytest

import tlayout
from conftest import releases_gil

np = pytest.importorskip("numpy")

NV12 = "yuv.nv12:u8:3x48x64"
FRAME = np.random.default_rng(7).integers(0, 256, 48 * 64 * 3 // 2, dtype=np.uint8)

# (destination, keywords, the same as CLI options)
CASES = [
    ("NHWC:u8:1x32x32x3", {"fit": "letterbox"}, ["--fit", "letterbox"]),
    ("NCHW:f32:1x3x24x40", {"mean": (0, 10, 20), "std": 255, "order": "bgr"},
     ["--mean", "0,10,20", "--std", "255", "--order", "bgr"]),
    ("rknn.nc1hwc2:i8:1x1x16x16x16:c=3:zp=-128:scale=0.0039215", {"fit": "letterbox", "pad": 0,
                                                                  "resize": "area", "crop": (4, 2, 40, 30)},
     ["--fit", "letterbox", "--pad", "0", "--resize", "area", "--crop", "4,2,40,30"]),
    ("NHWC:u8:1x20x20x3", {"resize": "nearest", "color": "bt709-full", "mode": "fast"},
     ["--resize", "nearest", "--color", "bt709-full", "--mode", "fast"]),
]


@pytest.mark.parametrize("dst,kw,opts", CASES, ids=[c[0].split(":")[0] for c in CASES])
def test_same_bytes_as_the_cli(cli, tmp_path, dst, kw, opts):
    src = tmp_path / "frame.nv12"
    FRAME.tofile(src)
    cli("image", "--from", NV12, "--to", dst, *opts, "-i", str(src), "-o", str(tmp_path / "out"))
    want = (tmp_path / "out").read_bytes()
    assert bytes(tlayout.image(FRAME, NV12, dst, **kw)) == want
    plan = tlayout.ImagePlan(tlayout.Desc(NV12), dst, **kw)
    assert bytes(plan.run(FRAME.tobytes())) == want
    assert plan.size_bytes == len(want)
    assert "ImagePlan(" in repr(plan)


def test_map_is_the_cli_map(cli):
    plan = tlayout.ImagePlan(NV12, "NHWC:u8:1x32x32x3", fit="letterbox", crop=(4, 2, 40, 30))
    lines = cli("image", "--from", NV12, "--to", "NHWC:u8:1x32x32x3", "--fit", "letterbox",
                "--crop", "4,2,40,30", "--map").decode().splitlines()
    m = plan.map
    assert lines[0] == "frame_x = x * %.17g + %.17g" % (m["scale_x"], m["offset_x"])
    assert lines[1] == "frame_y = y * %.17g + %.17g" % (m["scale_y"], m["offset_y"])
    assert (m["left"], m["top"], m["width"], m["height"]) == (0, 4, 32, 24)


def test_nv12_letterbox_matches_opencv():
    cv2 = pytest.importorskip("cv2")
    h, w, size = 48, 64, 40
    rgb = cv2.cvtColor(FRAME.reshape(h * 3 // 2, w), cv2.COLOR_YUV2RGB_NV12)
    r = min(size / h, size / w)
    nw, nh = int(round(w * r)), int(round(h * r))
    dw, dh = (size - nw) / 2, (size - nh) / 2
    resized = cv2.resize(rgb, (nw, nh), interpolation=cv2.INTER_LINEAR)
    want = cv2.copyMakeBorder(resized, int(round(dh - 0.1)), int(round(dh + 0.1)), int(round(dw - 0.1)),
                              int(round(dw + 0.1)), cv2.BORDER_CONSTANT, value=(114, 114, 114))
    out = np.zeros((1, size, size, 3), np.uint8)
    tlayout.image(FRAME, NV12, "NHWC:u8:1x40x40x3", out, fit="letterbox")
    assert (out[0] == want).all()


def test_output_is_written_in_place():
    out = np.full((1, 3, 24, 40), -1, np.float32)
    got = tlayout.image(FRAME, NV12, "NCHW:f32:1x3x24x40", out=out)
    assert got is out and np.shares_memory(got, out)
    plan = tlayout.ImagePlan(NV12, "NCHW:f32:1x3x24x40")
    again = np.zeros_like(out)
    assert plan.run(FRAME, out=again) is again
    assert (again == out).all() and out.min() >= 0


def test_new_output_is_a_bytearray():
    got = tlayout.image(bytearray(FRAME.tobytes()), NV12, "NHWC:u8:1x8x8x3")
    assert isinstance(got, bytearray) and len(got) == 192


@pytest.mark.parametrize("kw,error", [
    ({"resize": "cubic"}, tlayout.SpecOptionError),
    ({"fit": 1}, tlayout.SpecOptionError),
    ({"pad": 300}, tlayout.SpecValueError),
    ({"pad": (1, 2, 3, 4, 5)}, tlayout.SpecValueError),
    ({"mean": float("nan")}, tlayout.UnsupportedError),
    ({"crop": (0, 0, 0, 4)}, tlayout.SpecValueError),
    ({"crop": (0, 0, 4)}, tlayout.SpecValueError),
    ({"crop": (0, 0, 100, 100)}, tlayout.Error),
    ({"std": 0}, tlayout.Error),
    ({"colour": "bt601"}, TypeError),
])
def test_bad_parameters(kw, error):
    out = np.full(192, 7, np.uint8)
    with pytest.raises(error) as e:
        tlayout.image(FRAME, NV12, "NHWC:u8:1x8x8x3", out, **kw)
    assert (out == 7).all()
    if isinstance(e.value, tlayout.Error):
        assert e.value.message
    if "resize" in kw:
        assert str(e.value) == ("TL_ERR_SPEC_OPTION: image resize='cubic': accepted values: 'bilinear' "
                                "'nearest' 'area'")
    with pytest.raises(error):
        tlayout.ImagePlan(NV12, "NHWC:u8:1x8x8x3", **kw)


def test_bad_descriptors_and_buffers():
    with pytest.raises(tlayout.SpecError):
        tlayout.image(FRAME, "yuv.nv12:u8:bad", "NHWC:u8:1x8x8x3")
    with pytest.raises(tlayout.Error):
        tlayout.image(FRAME, NV12, "NCHW:u8:1x5x8x8")  # C must be 1, 3 or 4
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.image(FRAME[:100], NV12, "NHWC:u8:1x8x8x3")
    out = np.full(191, 7, np.uint8)
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.image(FRAME, NV12, "NHWC:u8:1x8x8x3", out)
    assert (out == 7).all()
    with pytest.raises(BufferError):
        tlayout.image(FRAME, NV12, "NHWC:u8:1x8x8x3", bytes(192))  # not writable
    with pytest.raises(TypeError):
        tlayout.ImagePlan(NV12)
    with pytest.raises(TypeError):
        tlayout.ImagePlan(NV12, "NHWC:u8:1x8x8x3").run()


def test_runs_release_the_gil():
    big = np.random.default_rng(3).integers(0, 256, 1080 * 1920 * 3 // 2, dtype=np.uint8)
    plan = tlayout.ImagePlan("yuv.nv12:u8:3x1080x1920", "NCHW:f32:1x3x640x640", fit="letterbox")
    out = np.empty((1, 3, 640, 640), np.float32)

    def work():
        for _ in range(10):
            plan.run(big, out)
        tlayout.image(big, "yuv.nv12:u8:3x1080x1920", "NCHW:f32:1x3x640x640", out, fit="letterbox")

    assert releases_gil(work), "the main thread could not run during the image runs: GIL held"
    assert out[0, :, 0, 0].tolist() == [114.0, 114.0, 114.0]  # letterbox border
