"""Only the extension list; metadata lives in pyproject.toml.

One extension per `.pyx` file under src/ (the module name is its path: src/cybleu/_kernels/corpus.pyx is
`cybleu._kernels.corpus`); `.pxd` files are the declarations those modules cimport from each other. Adding a
module is adding its `.pyx`: nothing here lists them.

The rule for a failed compile: the build stops with an error that says what is missing. The
pure-Python backend (the same results, much slower) is installed only on request, with
CYBLEU_IMPLEMENTATION=python in the environment of the install (which also selects it at run time).
CYBLEU_DEBUG=1 turns bounds checks and line tracing back on, with debug info.
"""
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, ExecError, LinkError, PlatformError

HERE = Path(__file__).resolve().parent
PURE_PYTHON = os.environ.get("CYBLEU_IMPLEMENTATION", "").strip().lower() == "python"
DEBUG = os.environ.get("CYBLEU_DEBUG", "") == "1"

HOW_TO_CHOOSE_PYTHON = (
    "cybleu's compiled core needs a C compiler and the Python headers to build from source (a\n"
    "prebuilt wheel for your platform needs neither).\n"
    "Install a compiler (Debian/Ubuntu: apt install build-essential python3-dev; Fedora: dnf\n"
    "install gcc python3-devel; macOS: xcode-select --install; Windows: the Microsoft C++ Build\n"
    "Tools), or install the pure-Python backend on purpose (the same scores, about 70x slower):\n"
    "    CYBLEU_IMPLEMENTATION=python pip install cybleu\n"
    "and keep CYBLEU_IMPLEMENTATION=python set when you run it.")


def module_name(pyx):
    """src/cybleu/_kernels/corpus.pyx -> cybleu._kernels.corpus"""
    return ".".join(pyx.relative_to(HERE / "src").with_suffix("").parts)


def extensions():
    """One Extension per .pyx under src/, sorted by module name (paths relative, as setuptools
    wants them)."""
    # fp-contract=off: no fused multiply-add, so float results equal CPython's operation by
    # operation. -g0: no debug info (it made _core 2.7 MB); CYBLEU_DEBUG=1 keeps it.
    args = [] if sys.platform == "win32" else \
        ["-O3", "-ffp-contract=off"] + (["-g"] if DEBUG else ["-g0"])
    macros = [("CYTHON_TRACE_NOGIL", "1")] if DEBUG else []
    return [Extension(module_name(pyx), [pyx.relative_to(HERE).as_posix()],
                      extra_compile_args=args, define_macros=macros)
            for pyx in sorted((HERE / "src").rglob("*.pyx"), key=module_name)]


class CompileOrExplain(build_ext):
    """Cythonizes at build time (so an sdist ships only the .pyx and .pxd), compiles the modules in
    parallel, and turns a failed compile into an error that says what is missing and how to choose
    the pure-Python backend instead."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        if not self.extensions:
            return
        try:
            from Cython.Build import cythonize
        except ImportError as err:
            self._explain(f"Cython is not installed ({err}); it is a build requirement, which "
                          "pip installs in the build environment")
        directives = {"language_level": 3, "boundscheck": DEBUG, "wraparound": DEBUG,
                      "cdivision": True, "embedsignature": True, "linetrace": DEBUG}
        # cythonize makes new Extension objects; keep setuptools' own, with the C sources
        generated = {ext.name: ext for ext in cythonize(list(self.extensions),
                                                         compiler_directives=directives)}
        for ext in self.extensions:
            ext.sources = generated[ext.name].sources
        try:
            super().run()
        except (CompileError, LinkError, ExecError, PlatformError) as err:
            self._explain(f"{type(err).__name__}: {err}")

    @staticmethod
    def _explain(what):
        raise SystemExit(f"\nerror: building cybleu's compiled core failed: {what}\n\n"
                         f"{HOW_TO_CHOOSE_PYTHON}\n")


if PURE_PYTHON:
    print("cybleu: CYBLEU_IMPLEMENTATION=python: installing the pure-Python backend only, "
          "without the compiled core.", file=sys.stderr)
ext_modules = [] if PURE_PYTHON else extensions()
setup(ext_modules=ext_modules, cmdclass={"build_ext": CompileOrExplain})
