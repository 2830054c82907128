"""tlayout.scan / topk / argmax / gather: the same results as `tlayout scan/topk/argmax`
and the library's dequantization, numpy in and out, every error."""
import pytest

import tlayout
from conftest import releases_gil

np = pytest.importorskip("numpy")

RKNN = "rknn.nc1hwc2:i8:1x2x3x4x16:c=20:zp=-5:scale=0.0625"  # logical N C H W = 1x20x3x4
NCHW = "NCHW:i8:1x8x2x3:scale=0.1:zp=3"
CODES = {spec: np.random.default_rng(5).integers(-128, 128, tlayout.Desc(spec).size_bytes, dtype=np.int8)
         for spec in (RKNN, NCHW)}


def cli_hits(text):
    rows = [line.split() for line in text.decode().splitlines()]
    return [tuple(int(v) for v in r[:5]) + (np.float32(float(r[5])),) for r in rows]


def py_hits(hits):
    return [(int(h["n"]), int(h["c"]), int(h["h"]), int(h["w"]), int(h["code"]), np.float32(h["value"]))
            for h in hits]


@pytest.mark.parametrize("spec", [RKNN, NCHW])
@pytest.mark.parametrize("t,channels,best", [(2.0, None, False), (0.5, (4, 3), False), (0.0, (1, 6), True)])
def test_scan_is_the_cli_scan(cli, tmp_path, spec, t, channels, best):
    path = tmp_path / "t.bin"
    CODES[spec].tofile(path)
    opts = ["--threshold", repr(t)] + (["--channels", "%d,%d" % channels] if channels else []) + \
        (["--best"] if best else [])
    hits = tlayout.scan(CODES[spec], spec, t, channels=channels, best=best)
    assert hits.dtype.names == ("n", "c", "h", "w", "code", "value")
    assert len(hits) > 0
    assert py_hits(hits) == cli_hits(cli("scan", spec, "-i", str(path), *opts))


@pytest.mark.parametrize("per_item", [False, True])
def test_topk_is_the_cli_topk(cli, tmp_path, per_item):
    path = tmp_path / "t.bin"
    CODES[RKNN].tofile(path)
    hits = tlayout.topk(CODES[RKNN].tobytes(), tlayout.Desc(RKNN), 3, per_item=per_item)
    want = cli("topk", RKNN, "-i", str(path), "--k", "3", *(["--per-item"] if per_item else []))
    assert py_hits(hits) == cli_hits(want)
    assert len(hits) == (3 if per_item else 3 * 12)


@pytest.mark.parametrize("size,resize,u8", [(None, "bilinear", False), ((7, 9), "bilinear", False),
                                            ((6, 8), "nearest", True)])
def test_argmax_is_the_cli_argmax(cli, tmp_path, size, resize, u8):
    path = tmp_path / "t.bin"
    CODES[RKNN].tofile(path)
    opts = (["--size", "%dx%d" % size, "--resize", resize] if size else []) + (["--u8"] if u8 else [])
    cli("argmax", RKNN, "-i", str(path), "-o", str(tmp_path / "labels"), *opts)
    labels = tlayout.argmax(CODES[RKNN], RKNN, size=size, resize=resize, u8=u8)
    assert labels.shape == (1,) + (size or (3, 4)) and labels.dtype == (np.uint8 if u8 else np.int32)
    assert labels.tobytes() == (tmp_path / "labels").read_bytes()


def test_argmax_is_numpy_argmax_of_the_real_values():
    real = (tlayout.convert(CODES[NCHW], NCHW, "NCHW:f32:1x8x2x3"))
    logits = np.frombuffer(real, np.float32).reshape(1, 8, 2, 3)
    assert (tlayout.argmax(CODES[NCHW], NCHW) == logits.argmax(axis=1)).all()


def test_gather_is_the_dequantized_value():
    d = tlayout.Desc(RKNN)
    real = np.frombuffer(tlayout.convert(CODES[RKNN], d, "NCHW:f32:1x20x3x4"), np.float32).reshape(1, 20, 3, 4)
    coords = [(0, 19, 2, 3), (0, 0, 0, 0), (0, 17, 1, 2)]
    got = tlayout.gather(CODES[RKNN], d, coords)
    assert got.dtype == np.float64
    assert got.astype(np.float32).tolist() == [real[c] for c in coords]


def test_outputs_are_written_in_place():
    both = np.full((2, 3, 4), -1, np.int32)
    labels = tlayout.argmax(CODES[RKNN], RKNN, out=both[:1])
    assert np.shares_memory(labels, both)
    assert (both[0] == tlayout.argmax(CODES[RKNN], RKNN)[0]).all() and (both[1] == -1).all()
    values = np.full(2, np.nan)
    got = tlayout.gather(CODES[RKNN], RKNN, np.array([[0, 1, 0, 0], [0, 2, 1, 1]]), out=values)
    assert got is values and not np.isnan(values).any()


def test_errors_write_nothing():
    with pytest.raises(tlayout.CoordError):
        tlayout.scan(CODES[NCHW], NCHW, 0.5, channels=(6, 3))
    with pytest.raises(tlayout.QuantError):
        tlayout.scan(CODES[NCHW], NCHW, float("nan"))
    with pytest.raises(tlayout.DtypeError):
        tlayout.scan(bytes(4 * 48), "NCHW:f32:1x8x2x3", 0.5)
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.scan(CODES[NCHW][:-1], NCHW, 0.5)
    with pytest.raises(tlayout.Error):
        tlayout.topk(CODES[NCHW], NCHW, 9)  # k > C
    labels = np.full((1, 2, 2), 7, np.int32)
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.argmax(CODES[NCHW], NCHW, out=labels)
    assert (labels == 7).all()
    with pytest.raises(ValueError):
        tlayout.argmax(CODES[NCHW], NCHW, size=(4, 4), resize="cubic")
    values = np.full(2, 7.0)
    with pytest.raises(tlayout.CoordError):
        tlayout.gather(CODES[NCHW], NCHW, [(0, 1, 0, 0), (0, 8, 0, 0)], out=values)
    assert (values == 7).all()
    with pytest.raises(tlayout.SizeError):
        tlayout.gather(CODES[NCHW], NCHW, [(0, 1, 0, 0)], out=np.zeros(0))
    with pytest.raises(tlayout.SpecError):
        tlayout.scan(CODES[NCHW], "NCHW:i8:zz", 0.5)


def test_post_processing_releases_the_gil():
    spec = "rknn.nc1hwc2:i8:1x6x160x160x16:c=84:zp=-128:scale=0.00390625"
    big = np.random.default_rng(9).integers(-128, 128, tlayout.Desc(spec).size_bytes, dtype=np.int8)
    labels = np.empty((1, 640, 640), np.int32)

    def work():
        for _ in range(5):
            tlayout.scan(big, spec, 0.99, best=True)
            tlayout.topk(big, spec, 1)
            tlayout.argmax(big, spec, size=(640, 640), out=labels)

    assert releases_gil(work), "the main thread could not run during scan/topk/argmax: GIL held"
