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



def _pick(compiled, twin):
    """The compiled module or its twin, by the same rule as the core."""
    from importlib import import_module
    if _choice != "python":
        try:
            return import_module(f".{compiled}", __package__)
        except ImportError:
            if _choice == "cython":
                raise
    return import_module(f".{twin}", __package__)


def __getattr__(name):
    # The resampler for significance tests loads on first use (its twin imports numpy).
    if name == "resample":
        module = _pick("_resample", "_resample_py")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["core", "BACKEND", "resample"]
