"""The one place that picks the compiled modules or their pure-Python twins.

CYBLEU_IMPLEMENTATION=auto (default) | cython | python. `python` chooses the twin on purpose (and,
at install time, skips building the core). `auto` uses the compiled core, and when it is missing or
cannot load runs the twin with one RuntimeWarning at import saying so; a forced `cython` that cannot
import raises instead of running slowly. The choice is made once, for every module together, on
whether the compiled core imports; `module(name)` gives any other compiled module of the same
build, or its twin.
"""
import os
from importlib import import_module
from types import ModuleType

TYPE_CHECKING = False  # as typing.TYPE_CHECKING (mypy reads the name), without importing typing

_choice = os.environ.get("CYBLEU_IMPLEMENTATION", "auto").strip().lower() or "auto"
if _choice not in ("auto", "cython", "python"):
    raise ImportError(f"CYBLEU_IMPLEMENTATION must be auto, cython or python, not {_choice!r}")

BACKEND: str
if TYPE_CHECKING:  # both faces have the interface of the compiled steps' stubs
    from ._kernels import core
elif _choice == "python":
    from ._kernels import core_py as core
    BACKEND = "python"
else:
    try:
        # import_module: a missing module says "No module named 'cybleu._kernels.corpus'" (a
        # `from . import` in a package being initialized blames a circular import instead)
        core = import_module("._kernels.core", __package__)
        BACKEND = "cython"
    except ImportError as err:
        if _choice == "cython":
            raise
        from ._kernels import core_py as core
        BACKEND = "python"
        import warnings
        warnings.warn(
            f"cybleu's compiled core is not available ({err}); running the pure-Python backend, "
            "which gives the same results much more slowly (about 70x). Reinstall cybleu from a "
            "wheel or with a C compiler, or set CYBLEU_IMPLEMENTATION=python to choose the "
            "pure-Python backend on purpose (which silences this warning).",
            RuntimeWarning, stacklevel=3)  # the line that imported cybleu


def module(name: str) -> ModuleType:
    """The compiled step `cybleu._kernels.<name>` (e.g. "chrf") of the live backend, or its twin
    `cybleu._kernels.<name>_py`. A compiled core without one of its sibling modules is a broken install:
    that raises, rather than mixing backends silently."""
    if BACKEND == "python":
        return import_module(f"{__package__}._kernels.{name}_py")
    try:
        return import_module(f"{__package__}._kernels.{name}")
    except ImportError as err:
        raise ImportError(f"cybleu's compiled module {name} is missing from this install, though "
                          "the compiled core is there; reinstall cybleu, or set "
                          "CYBLEU_IMPLEMENTATION=python to use the pure-Python backend") from err


__all__ = ["core", "module", "BACKEND"]
