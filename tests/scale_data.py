"""Shared by the scale-out tests: real data from ../shared/data, the sacreBLEU oracle's corpus
scores on it, Hypothesis strategies for partitionings, and the rule for missing engines."""
import functools
import importlib
import os

import pytest
from hypothesis import strategies as st

from conftest import data_path, read_lines

# WMT22 en-de: two human references; 8 systems
N_SEGMENTS = 240           # corpus-level checks: enough text for every n-gram order, fast enough
N_TER = 90                 # TER's shift search is slow in the pure-Python backend


def require_engine(module, extra):
    """Import an engine, or skip naming the extra; under CYBLEU_REQUIRE_ENGINES=1 (CI) a missing
    engine is a failure."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        message = f"{module} is not installed ({err}): pip install \"cybleu[{extra}]\""
        if os.environ.get("CYBLEU_REQUIRE_ENGINES") == "1":
            pytest.fail(f"CYBLEU_REQUIRE_ENGINES=1 but {message}")
        pytest.skip(message)


@functools.lru_cache(maxsize=None)
def wmt22(system="Online-B", n=None):
    """(hyps, [refs_a, refs_b]) of a WMT22 en-de system, the first n segments."""
    folder = data_path("wmt", "wmt22", "en-de")
    hyps = read_lines(folder / "sys" / f"{system}.txt")
    refs = [read_lines(folder / "ref.A.txt"), read_lines(folder / "ref.B.txt")]
    n = len(hyps) if n is None else n
    return hyps[:n], [r[:n] for r in refs]


def with_missing(refs):
    """The references with some of stream B missing (None), as a test set with partial second
    references has them."""
    a, b = refs
    return [a, [None if i % 7 == 3 else r for i, r in enumerate(b)]]


def third_stream(refs):
    """A third reference stream of other lengths, so that TER's average lengths are not
    multiples of 1/1024 (the ordered reduction)."""
    a, b = refs
    return [a, b, [r + " und so weiter" if i % 2 else r[: len(r) // 2] for i, r in enumerate(a)]]


METRICS = {
    "bleu": ({}, lambda: __import__("sacrebleu").metrics.BLEU()),
    "chrf": ({}, lambda: __import__("sacrebleu").metrics.CHRF()),
    "chrf++": ({"word_order": 2}, lambda: __import__("sacrebleu").metrics.CHRF(word_order=2)),
    "ter": ({}, lambda: __import__("sacrebleu").metrics.TER()),
}


def kind(name):
    return "chrf" if name.startswith("chrf") else name


def oracle(name, hyps, refs):
    """sacreBLEU 2.6.0's corpus score (the oracle, never cybleu's own output)."""
    return METRICS[name][1]().corpus_score(hyps, refs)


def cuts(n, max_parts=12):
    """Strategy: sorted cut points 0 = c0 <= c1 <= ... <= ck = n (empty partitions allowed)."""
    return st.lists(st.integers(0, n), min_size=0, max_size=max_parts - 1).map(
        lambda xs: [0] + sorted(xs) + [n])


def slices(seq, points):
    return [seq[a:b] for a, b in zip(points, points[1:])]
