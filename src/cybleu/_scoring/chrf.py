"""chrF's float arithmetic on integer statistics: the one Python path every score goes through.

Operation for operation what sacreBLEU 2.6.0's `CHRF._compute_f_score` does, so scores agree bit
for bit, also on the float32 arrays its bootstrap passes. The compiled kernel has a C copy for
batch scores and for choosing the best of several references; a test holds the two equal.
"""
from typing import Any, Sequence

EPS = 1e-16


def f_score(statistics: Sequence[Any], order: int, beta: Any, eps_smoothing: bool) -> Any:
    """chrF (0-100) of a flat [hyp, ref, match] * order statistics vector.

    eps_smoothing: chrF++.py's epsilon smoothing (every order counts); otherwise sacreBLEU's
    effective order (orders where the hypothesis or the reference has no n-gram are left out)."""
    eps = EPS
    score = 0.0
    effective_order = 0
    factor = beta ** 2
    avg_prec, avg_rec = 0.0, 0.0
    for i in range(order):
        n_hyp, n_ref, n_match = statistics[3 * i: 3 * i + 3]
        prec = n_match / n_hyp if n_hyp > 0 else eps
        rec = n_match / n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += ((1 + factor) * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100 * score / order
    if effective_order == 0:
        avg_prec = avg_rec = 0.0
    else:
        avg_prec /= effective_order
        avg_rec /= effective_order
    if avg_prec + avg_rec:
        score = (1 + factor) * avg_prec * avg_rec
        score /= ((factor * avg_prec) + avg_rec)
        return 100 * score
    return 0.0
