"""BLEU's float arithmetic on integer statistics: the one Python path both backends share.

Operation for operation what sacreBLEU 2.6.0's `BLEU.compute_bleu` does, so scores agree bit for
bit; in particular the builtin `sum` (whose float result changed in Python 3.12) and `(100 * c) / t`.
"""
import math
from typing import Any, List, Tuple

MAX_NGRAM_ORDER = 4
SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}


def my_log(num: float) -> float:
    """log(num), floored to -9999999999 for 0 (as sacreBLEU's utils.my_log)."""
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
