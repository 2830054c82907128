"""tlayout.threshold: the CLI's answer, and the definition checked on every code."""
import pytest

import tlayout

CASES = [
    ("rknn.nc1hwc2:i8:1x1x1x1x16:c=16:zp=5:scale=0.1", 0.55),
    ("rknn.nc1hwc2:i8:1x1x1x1x16:c=16:zp=-128:scale=0.00390625", 0.5),
    ("NCHW:u8:1x1x1x256:zp=128:scale=0.02", -1.0),
    ("NCHW:i8:1x1x1x256:q=dfp:fl=4", 2.03),
    ("tidl:i16:1x1x1x1:scale=25", 3.3),
    ("NCHW:i8:1x1x1x256:zp=0:scale=0.5", 1000.0),   # none passes: highest + 1
    ("NCHW:i8:1x1x1x256:zp=0:scale=0.5", -1000.0),  # all pass: the lowest code
]


@pytest.mark.parametrize("spec,t", CASES)
def test_matches_cli(spec, t, cli):
    assert tlayout.threshold(spec, t) == int(cli("threshold", spec, repr(t)))


@pytest.mark.parametrize("dtype,lo,hi", [("i8", -128, 127), ("u8", 0, 255)])
@pytest.mark.parametrize("t", [-3.0, 0.0, 0.55, 0.6, 7.7])
def test_definition_on_every_code(dtype, lo, hi, t, np):
    """q >= T exactly when the library's dequantized value of q is >= t."""
    spec = "NCHW:%s:1x1x1x%d:zp=3:scale=0.1" % (dtype, hi - lo + 1)
    T = tlayout.threshold(spec, t)
    codes = np.arange(lo, hi + 1).astype(dtype.replace("i", "int").replace("u", "uint"))
    real = np.frombuffer(tlayout.convert(codes, spec, "NCHW:f64:1x1x1x%d" % codes.size), np.float64)
    assert ((codes.astype(np.int32) >= T) == (real >= t)).all()
