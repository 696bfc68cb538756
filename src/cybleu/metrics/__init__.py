"""Metrics under sacreBLEU's module paths, and the one registry of metric names, read by the API
(`metrics=`, `metric=`), the command lines (`-m`) and the tests.

A name maps to a metric class and preset arguments: `bleu`, `chrf`, `chrf++` (chrF with
`word_order=2`), `ter`. A metric outside cybleu registers itself, and then every face takes its
name::

    import cybleu.metrics
    cybleu.metrics.register("mymetric", MyMetric)            # or "mypackage.module:MyMetric"

or, for the command line, as an entry point of its package (group `cybleu.metrics`)::

    [project.entry-points."cybleu.metrics"]
    mymetric = "mypackage.module:MyMetric"

Each metric's module loads when one of its names is first used (`get("BLEU")` imports only
cybleu.metrics.bleu), so the command line does not import chrF and TER to score BLEU; entry
points are only looked up for a name that is not registered.
"""
from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy sees the eager imports
    from typing import Dict

    from .base import Metric, Score, SegmentMeanMetric, Signature
    from .bleu import BLEU, BLEUScore, BLEUSignature
    from .chrf import CHRF, CHRFScore, CHRFSignature
    from .scores import ExternalScores
    from .rouge import ROUGE, ROUGEScore, ROUGESignature
    from .ter import TER, TERScore, TERSignature

    METRICS: Dict[str, type]
    NAMES: tuple

# registry: name (lower case) -> [class or "module:Class" (relative to this package), presets]
_REGISTRY = {}
# name (lower case) -> the name as registered (`rougeL`): what help and errors list
_SPELLING = {}
ENTRY_POINTS = "cybleu.metrics"
_entry_points_loaded = False

# every other public name -> its module
_LAZY = {
    **{name: "base" for name in ("Metric", "Score", "Signature", "SegmentMeanMetric")},
    **{f"{name}{suffix}": module for name, module in (("BLEU", "bleu"), ("CHRF", "chrf"),
                                                      ("TER", "ter"), ("ROUGE", "rouge"))
       for suffix in ("", "Score", "Signature")},
    "ExternalScores": "scores",
}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
           "TERScore", "TERSignature", "ROUGE", "ROUGEScore", "ROUGESignature", "Metric", "Score",
           "Signature", "SegmentMeanMetric", "ExternalScores", "METRICS", "NAMES", "get", "register", "unregister", "make", "names",
           "presets", "choices"]


def register(name, metric=None, *, replace=False, **presets):
    """Register a metric under a name that `-m`, `metrics=` and `metric=` then take.

    :param name: The name users type (case does not matter: stored lower case).
    :param metric: The metric class (a subclass of `cybleu.metrics.Metric`), or its path as
        "module:Class" (imported when first used). Omitted: a decorator for the class.
    :param replace: Replace a metric already registered under `name`.
    :param presets: Arguments the class is made with under this name (`chrf++` is CHRF with
        `word_order=2`).
    :returns: The metric (or the decorator).
    :raises ValueError: `name` is taken by another metric (and `replace` is False).
    :raises TypeError: `metric` is neither a class nor a "module:Class" string.

    >>> import cybleu.metrics
    >>> from cybleu.metrics import SegmentMeanMetric
    >>> class Length(SegmentMeanMetric):
    ...     def _preprocess_segment(self, sent): return sent
    ...     def _extract_reference_info(self, refs): return {}
    ...     def _compute_segment_statistics(self, hyp, info): return [len(hyp.split())]
    ...     def get_signature(self): return "length"
    >>> _ = cybleu.metrics.register("length", Length)
    >>> cybleu.metrics.make("length").corpus_score(["a b", "a b c d"], [["x", "y"]]).score
    3.0
    >>> _ = cybleu.metrics.unregister("length")
    """
    if metric is None:
        return lambda cls: register(name, cls, replace=replace, **presets)
    if not isinstance(name, str) or not name or name != name.strip():
        raise ValueError(f"a metric's name is a non-empty str without spaces, not {name!r}")
    if not (isinstance(metric, type) or (isinstance(metric, str) and ":" in metric)):
        raise TypeError(f"register {name!r}: give the metric class or its path as "
                        f"'module:Class', not {type(metric).__name__}")
    if isinstance(metric, type):
        from .base import Metric
        if not issubclass(metric, Metric):
            raise TypeError(f"register {name!r}: {metric.__name__} is not a cybleu.metrics.Metric "
                            "(subclass Metric, or SegmentMeanMetric for a mean of segment scores)")
    key = name.lower()
    old = _REGISTRY.get(key)
    if old is not None and not replace and (old[0] is not metric and old[0] != metric
                                            or old[1] != presets):
        raise ValueError(f"the metric name {name!r} is taken (by {_describe(old[0])}); pass "
                         "replace=True to replace it")
    _REGISTRY[key] = [metric, dict(presets)]
    _SPELLING[key] = name
    return metric


def unregister(name):
    """Remove a registered name.

    :param name: The name.
    :returns: Its class (or "module:Class" path).
    :raises KeyError: An unknown name.

    >>> import cybleu.metrics
    >>> _ = cybleu.metrics.register("bleu-intl", "cybleu.metrics.bleu:BLEU", tokenize="intl")
    >>> cybleu.metrics.unregister("bleu-intl")
    'cybleu.metrics.bleu:BLEU'
    """
    _SPELLING.pop(name.lower(), None)
    return _REGISTRY.pop(name.lower())[0]


def _describe(target):
    return target if isinstance(target, str) else f"{target.__module__}.{target.__qualname__}"


#: the metrics a report shows when none are named (sacreBLEU's three)
REPORT_METRICS = ("bleu", "chrf", "ter")

for _name, _path, _presets in (("bleu", ".bleu:BLEU", {}), ("chrf", ".chrf:CHRF", {}),
                               ("chrf++", ".chrf:CHRF", {"word_order": 2}),
                               ("ter", ".ter:TER", {}), ("rouge", ".rouge:ROUGE", {}),
                               *((t, ".rouge:ROUGE", {"rouge_types": (t,)}) for t in (
                                   *(f"rouge{n}" for n in range(1, 10)), "rougeL", "rougeLsum"))):
    register(_name, _path, **_presets)
del _name, _path, _presets


def _load_entry_points():
    """Register the metrics that installed packages declare (group `cybleu.metrics`), once."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from importlib.metadata import entry_points
    for entry in entry_points(group=ENTRY_POINTS):
        if entry.name.lower() not in _REGISTRY:
            register(entry.name, entry.value)


def _entry(name):
    """The registry entry of a name (any case), looking at entry points for an unknown one."""
    if not isinstance(name, str):
        raise KeyError(name)
    key = name.lower()
    if key not in _REGISTRY:
        _load_entry_points()
    return _REGISTRY[key]


def _resolve(target):
    """The class of a registry entry, importing its module."""
    if isinstance(target, str):
        module_name, _, class_name = target.partition(":")
        module = import_module(module_name, __name__) if module_name.startswith(".") \
            else import_module(module_name)
        return getattr(module, class_name)
    return target


def get(name):
    """The metric class registered as `name`, importing its module only.

    :param name: A registered name: sacreBLEU's `'BLEU'`, `'CHRF'`, `'TER'` (the keys of
        `METRICS`), any case, or another registered name (`'chrf++'` gives CHRF; its preset is
        applied by `make`).
    :returns: The metric class.
    :raises KeyError: An unknown name.

    >>> import cybleu.metrics
    >>> cybleu.metrics.get("CHRF")
    <class 'cybleu.metrics.chrf.CHRF'>
    """
    entry = _entry(name)
    cls = _resolve(entry[0])
    entry[0] = cls
    return cls


def presets(name):
    """The arguments a name presets.

    :param name: A registered name.
    :returns: A dict of the class's arguments.
    :raises KeyError: An unknown name.

    >>> import cybleu.metrics
    >>> cybleu.metrics.presets("chrf++")
    {'word_order': 2}
    """
    return dict(_entry(name)[1])


def names(plugins=False):
    """The registered names, in the order registered, spelled as registered (`rougeL`; any
    case selects them).

    :param plugins: Look up the entry points of installed packages first.
    :returns: A tuple of names.

    >>> import cybleu.metrics
    >>> cybleu.metrics.names()[:4]
    ('bleu', 'chrf', 'chrf++', 'ter')
    """
    if plugins:
        _load_entry_points()
    return tuple(_SPELLING[key] for key in _REGISTRY)


def make(spec, **kwargs):
    """A fresh metric object: from a registered name (its class, with the name's presets and
    `kwargs`), or a copy of a metric object's settings without its cached references.

    :param spec: A registered name (any case) or a metric object.
    :param kwargs: The class's arguments (a name only).
    :returns: A metric object.
    :raises ValueError: An unknown name (the message lists the known ones).
    :raises TypeError: `spec` is neither a name nor a metric object, or kwargs with an object.

    >>> import cybleu.metrics
    >>> cybleu.metrics.make("chrf++").word_order
    2
    """
    from .base import Metric
    if isinstance(spec, Metric):
        if kwargs:
            raise TypeError("give either a metric object or a name with arguments, not both")
        import copy
        metric = copy.copy(spec)
        metric._ref_cache = None
        return metric
    if not isinstance(spec, str):
        raise TypeError(f"a metric is a name ({', '.join(names())}) or a metric object, "
                        f"not {type(spec).__name__}")
    try:
        entry = _entry(spec)
    except KeyError:
        raise ValueError(f"unknown metric {spec!r}; choose from "
                         f"{', '.join(names(plugins=True))}") from None
    return get(spec)(**{**entry[1], **kwargs})


def _plain_names():
    """sacreBLEU's METRICS keys: the names without presets, upper case."""
    return tuple(key.upper() for key, (_, preset) in _REGISTRY.items() if not preset)


class _Choices(list):
    """Names for an argparse `choices=`: the registered names (what help and errors list); the
    membership test also finds a name that an installed package declares (entry points, looked
    up only then), so `-m mymetric` works without cybleu knowing the package."""

    def __init__(self, plain):
        self.plain = plain
        super().__init__(_SPELLING[key] for key in _REGISTRY
                         if not (plain and _REGISTRY[key][1]))

    def __contains__(self, name):
        if list.__contains__(self, name):
            return True
        try:
            entry = _entry(name)
        except KeyError:
            return False
        return not (self.plain and entry[1])


def choices(plain=False):
    """The names a command line's `-m` takes (a list of the names as registered; any case is
    accepted, and so is a name an installed package registers).

    :param plain: Only names without presets (sacreBLEU's command line: `bleu`, `chrf`, `ter`).
    :returns: A list of names.

    >>> import cybleu.metrics
    >>> list(cybleu.metrics.choices(plain=True))[:3], "chrf++" in cybleu.metrics.choices()
    (['bleu', 'chrf', 'ter'], True)
    """
    return _Choices(plain)


def __getattr__(name):
    if name == "METRICS":  # read again each time: a registration adds to it
        return {key: get(key) for key in _plain_names()}
    if name == "NAMES":
        # sacreBLEU's names, ('BLEU', 'CHRF', 'TER') and those registered since
        return _plain_names()
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'cybleu.metrics' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
