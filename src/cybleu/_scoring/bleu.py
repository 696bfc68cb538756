"""BLEU's float arithmetic on integer statistics: the one Python path both backends share.

Operation for operation what sacreBLEU 2.6.0's `BLEU.compute_bleu` does, so scores agree bit for
bit; in particular the builtin `sum` (whose float result changed in Python 3.12) and `(100 * c) / t`.
"""
from __future__ import annotations

import math
import numbers

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, List, Tuple, TypeVar

    _Number = TypeVar("_Number", int, float)

MAX_NGRAM_ORDER = 4
#: the largest n-gram order any cybleu function takes (BLEU's max_ngram_order, ids' max_order,
#: hf's max_order, the length of an nltk weight vector). Far below anything a size computation
#: could overflow, and far above any order in use; sacreBLEU itself has no limit but hangs long
#: before orders like 2**30.
MAX_ORDER_LIMIT = 256
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


def check_max_order(order: Any, name: str = "max_order") -> int:
    """`order` as an int in 1..MAX_ORDER_LIMIT, or a ValueError naming the argument."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral):
        raise ValueError(f"{name} must be an integer from 1 to {MAX_ORDER_LIMIT}, "
                         f"got {order!r}")
    order = int(order)
    if not 1 <= order <= MAX_ORDER_LIMIT:
        raise ValueError(f"{name} must be an integer from 1 to {MAX_ORDER_LIMIT}, got {order}")
    return order


def check_smoothing(smooth_method: str, smooth_value: Any) -> None:
    """A ValueError for a smoothing method sacreBLEU does not have, or a smooth_value that would
    make floor/add-k fail obscurely or return nan/inf (sacreBLEU takes any value there); a value
    the method ignores (none, exp) is not looked at, as in sacreBLEU."""
    if smooth_method not in SMOOTH_DEFAULTS:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of "
                         f"{', '.join(SMOOTH_DEFAULTS)}.")
    if smooth_value is None or SMOOTH_DEFAULTS[smooth_method] is None:
        return
    if isinstance(smooth_value, bool) or not isinstance(smooth_value, numbers.Real) \
            or not (math.isfinite(smooth_value) and smooth_value >= 0):
        raise ValueError(f"smooth_value for {smooth_method!r} must be a finite number >= 0 "
                         f"(or None for {SMOOTH_DEFAULTS[smooth_method]}), got {smooth_value!r}")


def my_log(num: float) -> float:
    """`log(num)`, with -9999999999 for 0 (sacreBLEU's `utils.my_log`, which BLEU's
    arithmetic uses).

    :param num: A non-negative number.
    :returns: Its natural logarithm, or -9999999999 for 0.
    :raises ValueError: A negative number (math's domain error).

    >>> from cybleu.utils import my_log
    >>> my_log(1.0), my_log(0.0)
    (0.0, -9999999999)
    """
    if num == 0.0:
        return -9999999999
    return math.log(num)


def bleu_from_stats(correct: Any, total: Any, sys_len: int, ref_len: int,
                    smooth_method: str = "none", smooth_value: Any = None,
                    effective_order: bool = False, max_ngram_order: int = MAX_NGRAM_ORDER
                    ) -> Tuple[float, Any, Any, List[float], float]:
    """(score, correct, total, precisions, bp) from BLEU's sufficient statistics.

    `correct` and `total` are modified in place by add-k smoothing, as in sacreBLEU, whose
    BLEUScore then reports the smoothed counts.
    """
    if smooth_value is None:
        smooth_value = SMOOTH_DEFAULTS[smooth_method]
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_ngram_order
    # no match at all: 0 whatever the smoothing (sacrebleu #141)
    if not any(correct):
        return 0.0, correct, total, precisions, bp
    smooth_mteval = 1.0
    eff_order = max_ngram_order
    for n in range(1, max_ngram_order + 1):
        if smooth_method == "add-k" and n > 1:
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        # effective order stops at the first order with no n-grams, not at the first zero match
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth_method == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth_method == "floor":
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    score = bp * math.exp(sum([my_log(p) for p in precisions[:eff_order]]) / eff_order)
    return score, correct, total, precisions, bp


def bp_curve(n_points: int = 121, lo: float = 0.5, hi: float = 1.1) -> list[list[float]]:
    """Points [c/r, BP] of the brevity penalty exp(1 - r/c) (1 when c >= r), c/r from lo to hi in
    n_points steps: the one curve the report and the notebook draw.

    >>> from cybleu._scoring.bleu import bp_curve
    >>> [[round(x, 3) for x in point] for point in bp_curve(3, 0.5, 1.0)]
    [[0.5, 0.368], [0.75, 0.717], [1.0, 1.0]]
    """
    out = []
    for k in range(n_points):
        ratio = lo + (hi - lo) * k / (n_points - 1)
        out.append([ratio, 1.0 if ratio >= 1.0 else math.exp(1 - 1 / ratio)])
    return out


def sum_of_lists(lists: Sequence[list[_Number]]) -> list[_Number]:
    """Element-wise sum of numeric lists, added up left to right (sacreBLEU's
    `utils.sum_of_lists`, the same floats); a single list is returned as is.

    :param lists: Lists of numbers of one length.
    :returns: The list of sums, of the type of the first list's first element.

    >>> from cybleu.utils import sum_of_lists
    >>> sum_of_lists([[1, 2, 3], [4, 5, 6]])
    [5, 7, 9]
    """
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    total = [type(lists[0][0])(0.0)] * size
    for row in lists:
        for i in range(size):
            total[i] += row[i]
    return total


def exact_mean(values: Sequence[float]) -> float:
    """statistics.mean(values) (the exact mean, rounded once), without importing statistics
    (which imports fractions, decimal and random: several ms of a command-line run). Finite
    floats only take the short way; anything else goes to statistics.mean itself."""
    if not values or not all(type(v) is float and math.isfinite(v) for v in values):
        from statistics import mean
        return mean(values)
    ratios = [v.as_integer_ratio() for v in values]  # denominators: powers of two
    denominator = max(d for _, d in ratios)
    numerator = sum(n * (denominator // d) for n, d in ratios)
    return numerator / (denominator * len(values))  # int / int rounds correctly
