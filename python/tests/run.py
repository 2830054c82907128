"""The ctest test `python`: run the pytest tests against the module in a build tree.

    python3 python/tests/run.py BUILD/python [PATH/TO/tlayout-cli]

Exit codes for ctest (SKIP_RETURN_CODE 77): 0 passed, 77 skipped (pytest or
numpy missing, or nothing collected: never a silent pass), anything else failed.
Without numpy the tests that do not need it still run, and a failure among
them still fails.
"""
import os
import sys

SKIP = 77


def main():
    if len(sys.argv) < 2:
        print("usage: run.py BUILD/python [tlayout-cli]", file=sys.stderr)
        return 2
    sys.path.insert(0, os.path.abspath(sys.argv[1]))
    if len(sys.argv) > 2:
        os.environ["TLAYOUT_CLI"] = os.path.abspath(sys.argv[2])
    try:
        import pytest
    except ImportError:
        print("skipped: pytest is missing for %s (install python3-pytest)" % sys.executable)
        return SKIP
    try:
        import numpy  # noqa: F401
        have_numpy = True
    except ImportError:
        have_numpy = False
    here = os.path.dirname(os.path.abspath(__file__))
    rc = pytest.main(["-q", "-p", "no:cacheprovider", "-rs", here])
    if rc == pytest.ExitCode.NO_TESTS_COLLECTED:
        print("skipped: pytest collected no tests")
        return SKIP
    if rc != 0:
        return int(rc)
    if not have_numpy:
        print("skipped: numpy is missing for %s (install python3-numpy): the tests that need it did not run"
              % sys.executable)
        return SKIP
    return 0


if __name__ == "__main__":
    sys.exit(main())
