"""pip install ./python (from a clone): the tlayout module with the C library compiled in.

Needs only a C compiler and Python's headers (python3-dev): the library's
sources (../src), the CLI's presentation files the module reuses
(../programs) and the module (src/) are compiled into one extension.
Offline, with Debian's setuptools:

    python3 -m pip install --no-build-isolation --no-index ./python

From Python 3.11 on the extension uses the limited API (an abi3 binary).
"""
import glob
import os
import platform
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ABI3 = sys.version_info >= (3, 11)  # the buffer protocol is in the limited API from 3.11


def rel(path):
    # Absolute: objects then land under build/temp*/ with the whole path, while
    # "../src/x.c" would put them outside it.
    return os.path.abspath(path)


def library_sources():
    return sorted(rel(p) for p in glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True))


# Kernel files named after an instruction set get its flags, as CMakeLists.txt's
# tl_kernel_isa_flags does (each file guards its own body).
ISA_FLAGS = {
    "x86_64": [("sse2.c", ["-msse2"]), ("avx2.c", ["-mavx2"]), ("avx512.c", ["-mavx512f", "-mavx512bw"])],
    "arm": [("neon.c", ["-mfpu=neon"]), ("neonfp16.c", ["-mfpu=neon-vfpv4", "-mfp16-format=ieee"])],
    "aarch64": [("neonfp16arith.c", ["-march=armv8.2-a+fp16"])],
}


def arch():
    m = platform.machine().lower()
    if m in ("x86_64", "amd64", "x64"):
        return "x86_64"
    return "arm" if m.startswith("arm") else m


def isa_flags(source):
    if "kernels" not in source.split(os.sep):
        return []
    for suffix, flags in ISA_FLAGS.get(arch(), []):
        if source.endswith(suffix):
            return flags
    return []


class BuildExt(build_ext):
    """Compile the kernel files that need instruction-set flags on their own."""

    def build_extension(self, ext):
        special = [s for s in ext.sources if isa_flags(s)]
        objects = []
        for source in special:
            objects += self.compiler.compile(
                [source], output_dir=self.build_temp, macros=ext.define_macros, include_dirs=ext.include_dirs,
                extra_postargs=ext.extra_compile_args + isa_flags(source))
        ext.sources = [s for s in ext.sources if s not in special]
        ext.extra_objects = list(ext.extra_objects or []) + objects
        super().build_extension(ext)


PROGRAM_FILES = ["cli_util.c", "svg_map.c", "svg_draw.c", "explain.c"]  # Desc.explain, Desc.svg

extension = Extension(
    "tlayout._core",
    sources=sorted(rel(p) for p in glob.glob(os.path.join(HERE, "src", "*.c")))
    + [rel(os.path.join(ROOT, "programs", f)) for f in PROGRAM_FILES]
    + library_sources(),
    include_dirs=[rel(os.path.join(ROOT, d)) for d in ("include", "src", "programs")],
    define_macros=[("_FILE_OFFSET_BITS", "64")] + ([("Py_LIMITED_API", "0x030B0000")] if ABI3 else []),
    # Same bits in every code path (no fused multiply-add), as the CMake build.
    extra_compile_args=["-std=gnu11", "-ffp-contract=off", "-fvisibility=hidden"],
    libraries=["m"],
    extra_link_args=["-pthread"],  # the parallel helpers of the library use pthreads
    py_limited_api=ABI3,
)

setup(
    name="tlayout",
    version="0.1.0",
    description="Native tensor memory formats of edge-AI accelerators (RKNN, TIDL-RT, larod, TensorRT/DLA, "
    "DirectML): descriptors, conversion, zero-copy numpy views",
    packages=["tlayout"],
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExt},
    python_requires=">=3.8",
    options={"bdist_wheel": {"py_limited_api": "cp311"}} if ABI3 else {},
)
