"""The one place that picks the compiled core or its pure-Python twin.

CYBLEU_IMPLEMENTATION=auto (default) | cython | python. `auto` falls back to the twin quietly when
the extension is not built; a forced `cython` that cannot import raises instead of running slowly.
"""
import os
from importlib import import_module
from types import ModuleType
from typing import Any, Tuple

_choice = os.environ.get("CYBLEU_IMPLEMENTATION", "auto").strip().lower() or "auto"
if _choice not in ("auto", "cython", "python"):
    raise ImportError(f"CYBLEU_IMPLEMENTATION must be auto, cython or python, not {_choice!r}")


def _pick(compiled: str, twin: str) -> Tuple[Any, str]:
    """(module, 'cython' | 'python') for one compiled module and its twin."""
    if _choice != "python":
        try:
            return import_module(f".{compiled}", __package__), "cython"
        except ImportError:
            if _choice == "cython":
                raise
    return import_module(f".{twin}", __package__), "python"


core, BACKEND = _pick("_core", "_core_py")
# chrF's character and word n-gram kernel (metrics/chrf.py)
chrf, CHRF_BACKEND = _pick("_chrf", "_chrf_py")
# TER's tokenizer, shift search and edit distance (metrics/ter.py)
ter, TER_BACKEND = _pick("_ter", "_ter_py")

__all__ = ["core", "chrf", "ter", "resample", "BACKEND", "CHRF_BACKEND", "TER_BACKEND"]


def __getattr__(name: str) -> Any:
    # The resampler for significance tests loads on first use (its twin imports numpy).
    if name == "resample":
        module, _ = _pick("_resample", "_resample_py")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
