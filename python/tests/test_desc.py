"""tlayout.Desc against the CLI (describe --json, offset, explain, draw)."""
import json
import itertools

import pytest

import tlayout
from conftest import SPECS


@pytest.mark.parametrize("spec", [s for s, _ in SPECS])
def test_attributes_match_describe_json(spec, cli):
    d = tlayout.Desc(spec)
    ref = json.loads(cli("describe", "--json", spec))
    assert d.json() == ref
    assert d.spec == ref["spec"]
    assert d.dims == tuple(ref["dims"])
    assert d.rank == ref["rank"] == len(d.dims)
    assert d.dtype == ref["dtype"]
    assert d.size_bytes == ref["size_bytes"]
    assert d.pad_lo == tuple(ref["pad_lo"]) and d.pad_hi == tuple(ref["pad_hi"])
    assert d.writable == (not ref["readonly"])
    assert d.labels == (ref["labels"] or "?" * d.rank).replace(" ", "?")
    q = d.quant
    assert (q.kind, q.zero_point, q.rounding, q.fl) == (ref["quant"]["kind"], ref["quant"]["zp"],
                                                       ref["quant"]["round"], ref["quant"]["fl"])
    assert q.scale == pytest.approx(ref["quant"]["scale"], rel=1e-7)


@pytest.mark.parametrize("spec", [s for s, _ in SPECS] + ["NCHW:u4:1x3x2x3"])
def test_offsets_match_cli(spec, cli):
    d = tlayout.Desc(spec)
    coords = list(itertools.product(*[range(n) for n in d.dims]))[::3]
    text = cli("offset", spec, *[",".join(map(str, c)) for c in coords]).decode().split()
    for c, want in zip(coords, text):
        assert d.offset(*c) == int(float(want))
        assert d.offset(c) == d.offset(*c)  # one tuple works as well
        assert d.offset_bits(*c) == round(float(want) * 8)


def test_quant_kinds():
    tidl = tlayout.Desc("tidl:i16:1x3x4x10:pad=1,1,1,1:scale=25:zp=3").quant
    assert (tidl.kind, tidl.scale, tidl.zero_point, tidl.rounding) == ("inv", 25.0, 3, "zero")
    rknn = tlayout.Desc("rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=-128:scale=0.5").quant
    assert (rknn.kind, rknn.scale, rknn.zero_point, rknn.rounding) == ("affine", 0.5, -128, "away")
    dfp = tlayout.Desc("NCHW:i8:1x2x2x2:q=dfp:fl=3").quant
    assert (dfp.kind, dfp.fl) == ("dfp", 3)
    assert tlayout.Desc("NCHW:f32:1x2x2x2").quant.kind == "none"
    assert isinstance(rknn, tlayout.Quant) and tuple(rknn)[:2] == ("affine", 0.5)


def test_spec_is_canonical_and_round_trips():
    d = tlayout.Desc("rknn.nc1hwc2:i8:1x2x2x3x16:c=20:zp=5:scale=0.1")
    assert d.spec == "rknn.nc1hwc2:i8:1x2x2x3x16:c=20:q=affine:scale=0.1:zp=5:round=away"
    again = tlayout.Desc(d.spec)
    assert again == d and hash(again) == hash(d) and not (again != d)
    assert tlayout.Desc(d) == d  # a Desc is accepted too
    assert eval(repr(d), {"tlayout": tlayout}) == d
    assert d != tlayout.Desc("NCHW:i8:1x20x2x3")


@pytest.mark.parametrize("spec", [s for s, _ in SPECS])
def test_explain_is_the_cli_text(spec, cli):
    """Same words as `tlayout explain` (which wraps lines and prints the spec first)."""
    words = cli("explain", spec).decode().split()
    assert tlayout.Desc(spec).explain().split() == words[1:]


def test_explain_has_the_vendor_account():
    text = tlayout.Desc("tidl:i16:1x3x4x10:pad=1,1,1,1:scale=25").explain()
    assert "\nAs TI TIDL-RT describes it:\n" in text
    assert "As " not in tlayout.Desc("NCHW:f32:1x2x2x2").explain()


@pytest.mark.parametrize("spec", ["rknn.nc1hwc2:i8:1x2x2x3x16:c=20", "yuv.nv12:u8:3x4x6"])
def test_svg_is_the_cli_picture(spec, cli):
    d = tlayout.Desc(spec)
    assert d.svg() == cli("draw", spec, "-o", "-").decode()
    assert d.svg(max_lines=2, max_cells=8, title="T") == cli(
        "draw", spec, "-o", "-", "--lines", "2", "--cells", "8", "--title", "T").decode()
    assert d.svg().startswith("<?xml") and d.svg().rstrip().endswith("</svg>")


def test_fill_padding_touches_only_padding(np):
    d = tlayout.Desc("tidl:u8:1x2x3x4:pad=1,1,1,1")
    buf = bytearray(d.size_bytes)
    assert d.fill_padding(buf, 7) is buf
    full = tlayout.view(buf, d, physical=True)
    inner = tlayout.view(buf, d)
    assert (inner == 0).all()  # values untouched
    assert int(full.sum()) == 7 * (full.size - inner.size)  # every padding element is 7
