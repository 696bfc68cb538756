"""ROUGE's float arithmetic on integer statistics: the one Python path every score goes through.

A ROUGE type reduces a (target, prediction) pair to three integers: the hits (overlapping n-grams,
the LCS length, or summary-level LCS hits), the prediction's total and the target's total (its
n-grams or tokens). Precision, recall and F are then what rouge-score 0.1.2 computes from them,
operation for operation: `hits / max(total, 1)` and `2 * p * r / (p + r)`. The LCS types give
rouge-score's integer zeros `(0, 0, 0)` when either side has no token. The compiled kernel has a C
copy for whole batches; a test holds the two equal bit for bit.
"""
from typing import Tuple, Union

Number = Union[int, float]

__all__ = ["fmeasure", "prf"]


def fmeasure(precision: Number, recall: Number) -> Number:
    """rouge-score's `scoring.fmeasure`: the harmonic mean, 0.0 when both are 0.

    :param precision: The precision.
    :param recall: The recall.
    :returns: `2 * precision * recall / (precision + recall)`, or 0.0.

    >>> from cybleu.rouge_score.scoring import fmeasure
    >>> fmeasure(1.0, 0.5)
    0.6666666666666666
    """
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0


def prf(lcs: bool, hits: int, prediction_total: int, target_total: int
        ) -> Tuple[Number, Number, Number]:
    """(precision, recall, F) of one type from its statistics.

    :param lcs: An LCS type (rougeL, rougeLsum): an empty side scores the integers (0, 0, 0).
    :param hits: Overlapping n-grams, or the (summary-level) LCS length.
    :param prediction_total: The prediction's n-grams or tokens.
    :param target_total: The target's n-grams or tokens.
    """
    if lcs and (prediction_total == 0 or target_total == 0):
        return 0, 0, 0
    precision = hits / max(prediction_total, 1)
    recall = hits / max(target_total, 1)
    return precision, recall, fmeasure(precision, recall)
