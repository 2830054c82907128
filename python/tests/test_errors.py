"""Every error type: the class per status, its group, and the library's message."""
import pytest

import tlayout

# (status, call): each raises that status through the public Python API.
CASES = [
    ("TL_ERR_DIM", lambda: tlayout.Desc("NCHW:u8:0x3x2x2")),
    ("TL_ERR_DTYPE", lambda: tlayout.Desc("NCHW:zz:1x2x2x2")),
    ("TL_ERR_DTYPE", lambda: tlayout.threshold("NCHW:f32:1x2x2x2", 0.5)),
    ("TL_ERR_COORD", lambda: tlayout.Desc("NCHW:u8:1x2x2x2").offset(0, 2, 0, 0)),
    ("TL_ERR_COORD", lambda: tlayout.Desc("NCHW:u8:1x2x2x2").offset(0, 0)),
    ("TL_ERR_SPEC_SYNTAX", lambda: tlayout.Desc("NCHW")),
    ("TL_ERR_SPEC_LAYOUT", lambda: tlayout.Desc("QQ:u8:1x2")),
    ("TL_ERR_SPEC_OPTION", lambda: tlayout.Desc("NCHW:u8:1x2x2x2:foo=1")),
    ("TL_ERR_SPEC_VALUE", lambda: tlayout.Desc("dml.nchw:f32:2x3x4x5:broadcast=1")),
    ("TL_ERR_MISMATCH", lambda: tlayout.convert(bytes(8), "NCHW:u8:1x2x2x2", "NCHW:u8:1x2x2x3")),
    ("TL_ERR_BUFFER_SMALL", lambda: tlayout.convert(bytes(7), "NCHW:u8:1x2x2x2", "NCHW:u8:1x2x2x2")),
    ("TL_ERR_READONLY", lambda: tlayout.convert(bytes(48), "NCHW:f32:1x3x2x2", "dml:f32:1x3x2x2:strides=0,1,0,3")),
    ("TL_ERR_VENDOR", lambda: tlayout.Desc("tidl:u8:1x3x4x4:pad=1,1,1,1:layout=nhwc")),
]


@pytest.mark.parametrize("status,call", CASES, ids=[c[0] + str(i) for i, c in enumerate(CASES)])
def test_status_classes_and_messages(status, call):
    with pytest.raises(tlayout.Error) as info:
        call()
    e = info.value
    assert e.status == status
    assert type(e).__name__ == "".join(w.capitalize() for w in status[7:].split("_")) + "Error"
    assert len(e.message) > 10 and str(e) == "%s: %s" % (status, e.message)
    assert isinstance(e, ValueError)
    group = {1: tlayout.DescriptorError, 2: tlayout.SpecError, 3: tlayout.ConversionError,
             4: tlayout.VendorError}[e.code // 100]
    assert isinstance(e, group)


@pytest.mark.parametrize("spec", ["NCHW:u8:0x3x2x2", "QQ:u8:1x2", "tidl:u8:1x3x4x4:pad=1,1,1,1:layout=nhwc"])
def test_message_is_the_librarys(spec, cli):
    """The CLI prints the same detail, after naming the spec."""
    with pytest.raises(tlayout.Error) as info:
        tlayout.Desc(spec)
    p = cli("describe", spec, check=False)
    assert p.returncode == 1
    assert info.value.status in p.stderr.decode() and info.value.message in p.stderr.decode()


def test_view_errors(np):
    with pytest.raises(tlayout.UnsupportedError, match="planes"):
        tlayout.view(bytearray(36), "yuv.nv12:u8:3x4x6")
    with pytest.raises(tlayout.UnsupportedError, match="bfloat16"):
        tlayout.view(bytearray(24), "NCHW:bf16:1x3x2x2")
    with pytest.raises(tlayout.UnsupportedError, match="4-bit"):
        tlayout.view(bytearray(6), "NCHW:u4:1x3x2x2")
    with pytest.raises(tlayout.BufferSmallError, match="size_bytes=48"):
        tlayout.view(bytearray(47), "NCHW:f32:1x3x2x2")


def test_every_status_has_a_class():
    codes = [100 + i for i in range(14)] + [200, 201, 202, 203, 300, 301, 302, 303, 304, 400, 401, 402, 500]
    names = {getattr(tlayout, n) for n in dir(tlayout) if n.endswith("Error")}
    assert len(names) == len(codes) + 4  # + Error and the 1xx, 2xx, 3xx groups
    assert issubclass(tlayout.NomemError, MemoryError) and issubclass(tlayout.IoError, OSError)
    assert issubclass(tlayout.VendorFileError, tlayout.VendorError)
    assert issubclass(tlayout.StrideError, tlayout.DescriptorError)
    for cls in names:
        assert issubclass(cls, tlayout.Error)


def test_type_errors():
    with pytest.raises(TypeError):
        tlayout.Desc(3)
    with pytest.raises(tlayout.SpecSyntaxError, match="NUL"):
        tlayout.Desc("NCHW:u8:1x2\0x2x2")
    with pytest.raises(TypeError):
        tlayout.threshold(3, 0.5)
