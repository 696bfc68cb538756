"""The one place that picks the compiled core or its pure-Python twin.

CYBLEU_IMPLEMENTATION=auto (default) | cython | python. `auto` falls back to the twin quietly when
the extension is not built; a forced `cython` that cannot import raises instead of running slowly.
"""
import os

_choice = os.environ.get("CYBLEU_IMPLEMENTATION", "auto").strip().lower() or "auto"
if _choice not in ("auto", "cython", "python"):
    raise ImportError(f"CYBLEU_IMPLEMENTATION must be auto, cython or python, not {_choice!r}")

if _choice == "python":
    from . import _core_py as core
    BACKEND = "python"
else:
    try:
        from . import _core as core
        BACKEND = "cython"
    except ImportError:
        if _choice == "cython":
            raise
        from . import _core_py as core
        BACKEND = "python"

# TER's kernel (_ter.pyx) and its twin, chosen the same way
if _choice == "python":
    from . import _ter_py as ter
else:
    try:
        from . import _ter as ter
    except ImportError:
        if _choice == "cython":
            raise
        from . import _ter_py as ter

__all__ = ["core", "ter", "BACKEND"]
