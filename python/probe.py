"""What the build needs to know about a Python interpreter (python/CMakeLists.txt
runs this with each candidate). Prints KEY=VALUE lines; never fails."""
import os
import sys
import sysconfig


def version_of(module):
    try:
        return __import__(module).__version__
    except Exception:  # missing or broken: both mean "not usable"
        return ""


include = sysconfig.get_paths().get("include") or ""
platlib = sysconfig.get_paths().get("platlib") or ""
relative = "lib/python%d.%d/site-packages" % sys.version_info[:2]
for base in (os.path.join(sys.prefix, "local"), sys.prefix):
    if platlib.startswith(base + os.sep):
        relative = platlib[len(base) + 1:]
        break
print("version=%d.%d.%d" % sys.version_info[:3])
print("include=" + include)
print("headers=%d" % os.path.isfile(os.path.join(include, "Python.h")))
print("ext_suffix=" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
print("site_dir=" + relative)
print("numpy=" + version_of("numpy"))
print("pytest=" + version_of("pytest"))
