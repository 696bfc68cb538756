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
if TYPE_CHECKING:  # both cores have the interface of the compiled one's stub (_core.pyi)
    from . import _core as core
elif _choice == "python":
    from . import _core_py as core
    BACKEND = "python"
else:
    try:
        # import_module: a missing module says "No module named 'cybleu._core'" (a `from .
        # import` in a package being initialized blames a circular import instead)
        core = import_module("._core", __package__)
        if not core.__file__.endswith(".py"):
            # an extension module beats a .py of the same name on import
            raise ImportError(f"{core.__file__} is left over from a build before the compiled "
                              "core was split into modules and hides cybleu/_core.py; delete "
                              "it and rebuild")
        BACKEND = "cython"
    except ImportError as err:
        if _choice == "cython":
            raise
        from . import _core_py as core
        BACKEND = "python"
        import warnings
        warnings.warn(
            f"cybleu's compiled core is not available ({err}); running the pure-Python backend, "
            "which gives the same results much more slowly (about 70x). Reinstall cybleu from a "
            "wheel or with a C compiler, or set CYBLEU_IMPLEMENTATION=python to choose the "
            "pure-Python backend on purpose (which silences this warning).",
            RuntimeWarning, stacklevel=3)  # the line that imported cybleu


def module(name: str) -> ModuleType:
    """The compiled module `cybleu.<name>` (e.g. "_nltk_core") of the live backend, or its twin
    `cybleu.<name>_py`. A compiled core without one of its sibling modules is a broken install:
    that raises, rather than mixing backends silently."""
    if BACKEND == "python":
        return import_module(f"{__package__}.{name}_py")
    try:
        return import_module(f"{__package__}.{name}")
    except ImportError as err:
        raise ImportError(f"cybleu's compiled module {name} is missing from this install, though "
                          "the compiled core is there; reinstall cybleu, or set "
                          "CYBLEU_IMPLEMENTATION=python to use the pure-Python backend") from err


__all__ = ["core", "module", "BACKEND"]
