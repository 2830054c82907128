"""tlayout.tidl_io against `tlayout tidl-info --json` on the CLI's sample images."""
import json

import pytest

import tlayout


@pytest.mark.parametrize("version,cores", [(2, 1), (3, 1), (3, 4), (4, 1), (4, 2)])
def test_buffers_match_tidl_info(version, cores, cli, tmp_path):
    path = tmp_path / "io_1.bin"
    cli("tidl-info", "--write-sample", str(version), str(cores), str(path))
    ref = json.loads(cli("tidl-info", str(path), "--json"))
    got = tlayout.tidl_io(path.read_bytes())
    assert (got["version"], got["cores"]) == (ref["version"], ref["cores"])
    for kind in ("inputs", "outputs"):
        assert [(name, d.spec) for name, d in got[kind]] == [(b["name"], b["spec"]) for b in ref[kind]]


def test_not_an_image():
    with pytest.raises(tlayout.VendorFileError):
        tlayout.tidl_io(bytes(1000))
