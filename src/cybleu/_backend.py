"""The one place that picks the compiled modules or their pure-Python twins.

CYBLEU_IMPLEMENTATION=auto (default) | cython | python. The choice is made once, for every module
together, on whether the compiled core imports: `auto` falls back to the twins quietly when the
extension is not built; a forced `cython` that cannot import raises instead of running slowly.
`module(name)` gives any other compiled module of the same build, or its twin.
"""
import os
from importlib import import_module

_choice = os.environ.get("CYBLEU_IMPLEMENTATION", "auto").strip().lower() or "auto"
if _choice not in ("auto", "cython", "python"):
    raise ImportError(f"CYBLEU_IMPLEMENTATION must be auto, cython or python, not {_choice!r}")

if _choice == "python":
    from . import _core_py as core
    BACKEND = "python"
else:
    try:
        from . import _core as core
        if not core.__file__.endswith(".py"):
            # an extension module beats a .py of the same name on import
            raise ImportError(f"{core.__file__} is left over from a build before the compiled "
                              "core was split into modules and hides cybleu/_core.py; delete "
                              "it and rebuild")
        BACKEND = "cython"
    except ImportError:
        if _choice == "cython":
            raise
        from . import _core_py as core
        BACKEND = "python"


def module(name):
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
