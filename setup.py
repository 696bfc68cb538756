"""Only the extension list; metadata lives in pyproject.toml.

CYBLEU_REQUIRE_EXTENSION=1 (set for wheel builds) makes a failed compile an error instead of a
pure-Python install. CYBLEU_DEBUG=1 turns bounds checks and line tracing back on.
"""
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

REQUIRE = os.environ.get("CYBLEU_REQUIRE_EXTENSION", "") == "1" or "bdist_wheel" in sys.argv
DEBUG = os.environ.get("CYBLEU_DEBUG", "") == "1"


def extensions():
    from Cython.Build import cythonize
    from setuptools import Extension

    directives = {"language_level": 3, "boundscheck": DEBUG, "wraparound": DEBUG,
                  "cdivision": True, "embedsignature": True, "linetrace": DEBUG}
    # fp-contract=off: no fused multiply-add, so float results equal CPython's operation by operation
    args = ["-O3", "-ffp-contract=off"] if sys.platform != "win32" else []
    macros = [("CYTHON_TRACE_NOGIL", "1")] if DEBUG else []
    exts = [Extension(name, [source], extra_compile_args=args, define_macros=macros)
            for name, source in [("cybleu._core", "src/cybleu/_core.pyx"),
                                 ("cybleu._nltk_core", "src/cybleu/_nltk_core.pyx"),
                                 ("cybleu._chrf", "src/cybleu/_chrf.pyx"),
                                 ("cybleu._resample", "src/cybleu/_resample.pyx"),
                                 ("cybleu._ter", "src/cybleu/_ter.pyx")]]
    return cythonize(exts, compiler_directives=directives)


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            super().run()
        except Exception as err:
            if REQUIRE:
                raise
            print(f"WARNING: cybleu's compiled core failed to build ({err}); "
                  "installing the pure-Python backend, which is much slower.", file=sys.stderr)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as err:
            if REQUIRE:
                raise
            print(f"WARNING: building {ext.name} failed ({err}); "
                  "installing the pure-Python backend, which is much slower.", file=sys.stderr)


try:
    ext_modules = extensions()
except Exception as err:  # Cython missing, or the .pyx failed to translate
    if REQUIRE:
        raise
    print(f"WARNING: cybleu's compiled core is unavailable ({err}); "
          "installing the pure-Python backend, which is much slower.", file=sys.stderr)
    ext_modules = []

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
