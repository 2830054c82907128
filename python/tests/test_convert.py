"""tlayout.convert against the CLI's conversions, on every kind of buffer."""
import array
import mmap
import os

import pytest

import tlayout
from conftest import SPECS, pattern

PAIRS = [(logical, vendor) for vendor, logical in SPECS if tlayout.Desc(vendor).writable] + [
    ("NCHW:u8:1x3x4x5", "NHWC:f32:1x4x5x3"),
    ("NCHW:f32:1x20x2x3", "rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=5:scale=0.1"),
    ("NHWC:u8:1x4x6x3", "tidl:i16:1x3x4x6:pad=2,1,2,1:scale=25"),
]


def source_for(spec):
    """Bytes for a source layout whose every element is a valid value (finite floats)."""
    d = tlayout.Desc(spec)
    codes = pattern(d.size_bytes)
    if d.dtype in ("f16", "f32", "f64"):  # random bytes may be NaN: go through u8
        u8 = spec.split(":")[0] + ":u8:" + ":".join(spec.split(":")[2:])
        return bytes(tlayout.convert(pattern(tlayout.Desc(u8).size_bytes), u8, spec))
    return codes


@pytest.mark.parametrize("src_spec,dst_spec", PAIRS + [(b, a) for a, b in PAIRS])
def test_matches_cli(src_spec, dst_spec, cli, tmp_path):
    src = source_for(src_spec)
    path = tmp_path / "in.bin"
    path.write_bytes(src)
    want = cli("convert", "--from", src_spec, "--to", dst_spec, "-i", str(path), "-o", "-")
    got = tlayout.convert(src, src_spec, dst_spec)
    assert isinstance(got, bytearray) and bytes(got) == want
    # Desc objects give the same bytes as spec strings.
    assert tlayout.convert(src, tlayout.Desc(src_spec), tlayout.Desc(dst_spec)) == got


def test_keep_padding_matches_cli(cli, tmp_path):
    src_spec, dst_spec = "NCHW:u8:1x3x4x4", "tidl:u8:1x3x4x4:pad=1,1,1,1"
    src = pattern(48)
    (tmp_path / "in.bin").write_bytes(src)
    before = bytes([0xAA]) * tlayout.Desc(dst_spec).size_bytes
    (tmp_path / "out.bin").write_bytes(before)
    cli("convert", "--from", src_spec, "--to", dst_spec, "-i", str(tmp_path / "in.bin"),
        "-o", str(tmp_path / "out.bin"), "--keep-padding")
    out = bytearray(before)
    assert tlayout.convert(src, src_spec, dst_spec, out, keep_padding=True) is out
    assert bytes(out) == (tmp_path / "out.bin").read_bytes()
    fresh = tlayout.convert(src, src_spec, dst_spec)
    assert out.count(0xAA) == fresh.count(0xAA) + 2 * (6 + 4) * 3  # the border (6+4 per row pair) was kept
    tlayout.convert(src, src_spec, dst_spec, out=out)
    assert out == fresh  # and zeroed without keep_padding


def test_every_buffer_kind(np, tmp_path):
    src = pattern(60)
    want = tlayout.convert(src, "NCHW:u8:1x3x4x5", "NHWC:u8:1x4x5x3")
    path = tmp_path / "m.bin"
    path.write_bytes(src)
    with open(path, "r+b") as f, mmap.mmap(f.fileno(), 60) as mm:
        sources = [src, bytearray(src), memoryview(src), mm, np.frombuffer(src, np.uint8).reshape(3, 20),
                   array.array("B", src)]
        for s in sources:
            outs = [bytearray(60), np.zeros(60, np.uint8), memoryview(bytearray(60)), array.array("B", bytes(60))]
            for out in outs:
                assert tlayout.convert(s, "NCHW:u8:1x3x4x5", "NHWC:u8:1x4x5x3", out) is out
                assert bytes(out) == bytes(want)
        out = bytearray(60)
        tlayout.convert(src, "NCHW:u8:1x3x4x5", "NHWC:u8:1x4x5x3", mm)  # an mmap as destination
        assert bytes(mm[:]) == bytes(want)


def test_agrees_with_numpy_transpose(np):
    a = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    out = np.empty((2, 4, 5, 3), np.float32)
    tlayout.convert(a, "NCHW:f32:2x3x4x5", "NHWC:f32:2x4x5x3", out)
    assert (out == a.transpose(0, 2, 3, 1)).all()


def test_new_destination_is_zeroed_and_sized():
    # larod rows are aligned to 32 bytes: the slack is never written, so it must come zeroed.
    d = tlayout.Desc("larod.nhwc:u8:1x4x5x3:align=0,0,32,4")
    out = tlayout.convert(bytes([0xFF]) * 60, "NHWC:u8:1x4x5x3", d)
    assert len(out) == d.size_bytes == 128
    assert out[20:32] == bytes(12) and out.count(0xFF) == 60


def test_nothing_written_on_error():
    out = bytearray([0x55]) * 64
    with pytest.raises(tlayout.MismatchError):
        tlayout.convert(bytes(12), "NCHW:u8:1x3x2x2", "NCHW:u8:1x3x2x3", out)
    with pytest.raises(tlayout.BufferSmallError):
        tlayout.convert(bytes(11), "NCHW:u8:1x3x2x2", "NCHW:u8:1x3x2x2", out)
    assert out == bytearray([0x55]) * 64


def test_argument_errors():
    with pytest.raises(TypeError):
        tlayout.convert(bytes(4), "NCHW:u8:1x1x2x2")
    with pytest.raises(TypeError):
        tlayout.convert(bytes(4), "NCHW:u8:1x1x2x2", 5)
    with pytest.raises(BufferError):
        tlayout.convert(bytes(4), "NCHW:u8:1x1x2x2", "NCHW:u8:1x1x2x2", bytes(4))  # read-only out
    with pytest.raises(TypeError):
        tlayout.convert(bytes(4), "NCHW:u8:1x1x2x2", "NCHW:u8:1x1x2x2", bogus=1)
    with pytest.raises(TypeError):
        tlayout.convert(bytes(4), "NCHW:u8:1x1x2x2", "NCHW:u8:1x1x2x2", bytearray(4), out=bytearray(4))
    with pytest.raises(TypeError):
        tlayout.convert(12, "NCHW:u8:1x1x2x2", "NCHW:u8:1x1x2x2")
