"""Every ```python block of docs/python.md runs as written."""
import os
import re

import pytest

DOC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "python.md")


def blocks():
    if not os.path.exists(DOC):
        return []
    with open(DOC, encoding="utf-8") as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


@pytest.mark.parametrize("code", blocks(), ids=lambda c: c.splitlines()[-1][:40])
def test_block_runs(code):
    if "numpy" in code:
        pytest.importorskip("numpy")
    exec(compile(code, DOC, "exec"), {"__name__": "docs"})


def test_the_page_has_blocks():
    if not os.path.exists(DOC):
        pytest.skip("docs/python.md is not beside this copy of the tests")
    assert len(blocks()) >= 6
