"""Pure-Python twin of `bleu.pyx`: sentence BLEU of many rows of integer statistics at once, each
row scored by the one float path, `cybleu._scoring.bleu.bleu_from_stats`. Same public names as
`bleu.pyx`.
"""
import math
from array import array

from .._scoring.bleu import SMOOTH_DEFAULTS, bleu_from_stats

__all__ = ["SMOOTH_MODES", "bleu_scores_from_stats"]

# the names only: the compiled module maps them to its C constants
SMOOTH_MODES = tuple(SMOOTH_DEFAULTS)


def bleu_scores_from_stats(stats, max_order, smooth_method, smooth_value, effective_order):
    """Sentence BLEU of every row of `stats` (a flat int sequence of rows
    [hyp_len, ref_len, correct_1..N, total_1..N]), as BLEU.compute_bleu(...).score would give."""
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if smooth_method not in SMOOTH_MODES:
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
    if smooth_method in ("floor", "add-k") and smooth_value is not None:
        if not (math.isfinite(smooth_value) and 0.0 < smooth_value <= 1e300):
            raise ValueError("smooth_value must be finite and in (0, 1e300] for batch scoring")
    width = 2 + 2 * max_order
    out = array("d")
    for i in range(0, len(stats) // width * width, width):
        row = [int(v) for v in stats[i:i + width]]
        out.append(bleu_from_stats(row[2:2 + max_order], row[2 + max_order:], row[0], row[1],
                                   smooth_method, smooth_value, effective_order, max_order)[0])
    return out
