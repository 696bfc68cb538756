"""Metrics under sacreBLEU's module paths, and `METRICS`: the one registry of metric names (name ->
class), read by the API, the command line and the tests.

Each metric's module loads when one of its names is first used (`get("BLEU")` imports only
cybleu.metrics.bleu), so the command line does not import chrF and TER to score BLEU.
"""
from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy sees the eager imports
    from typing import Dict

    from .base import Metric, Score, Signature
    from .bleu import BLEU, BLEUScore, BLEUSignature
    from .chrf import CHRF, CHRFScore, CHRFSignature
    from .ter import TER, TERScore, TERSignature

    METRICS: Dict[str, type]

# metric name (upper case, as sacreBLEU's METRICS) -> its module under cybleu.metrics
MODULES = {"BLEU": "bleu", "CHRF": "chrf", "TER": "ter"}
#: The registered metric names, ``('BLEU', 'CHRF', 'TER')``; ``METRICS`` maps each to its class.
NAMES = tuple(MODULES)

# every other public name -> its module
_LAZY = {
    **{name: "base" for name in ("Metric", "Score", "Signature")},
    **{f"{name}{suffix}": module for name, module in MODULES.items()
       for suffix in ("", "Score", "Signature")},
}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
           "TERScore", "TERSignature", "Metric", "Score", "Signature", "METRICS", "NAMES", "get"]


def get(name):
    """The metric class registered as `name`, importing its module only.

    :param name: `'BLEU'`, `'CHRF'` or `'TER'` (the keys of `METRICS`).
    :returns: The metric class.
    :raises KeyError: An unknown name.

    >>> import cybleu.metrics
    >>> cybleu.metrics.get("CHRF")
    <class 'cybleu.metrics.chrf.CHRF'>
    """
    return getattr(import_module(f".{MODULES[name]}", __name__), name)


def __getattr__(name):
    if name == "METRICS":
        value = {key: get(key) for key in NAMES}
    elif name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    else:
        raise AttributeError(f"module 'cybleu.metrics' has no attribute {name!r}")
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
