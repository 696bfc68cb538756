"""BLEU's float path (floor 2) for batch scores: sacreBLEU's BLEU.compute_bleu, operation for
operation, on integer statistics. The one Python path (_scoring.bleu.bleu_from_stats) stays the
specification; the parity tests hold this to it bit for bit."""
import sys

from cpython.array cimport array, clone
from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport exp, log, fabs, isfinite
from libc.stdint cimport int64_t

from .defs cimport SMOOTH_NONE, SMOOTH_FLOOR, SMOOTH_ADDK, SMOOTH_EXP

__all__ = ["SMOOTH_MODES", "bleu_scores_from_stats"]

SMOOTH_MODES = {"none": SMOOTH_NONE, "floor": SMOOTH_FLOOR, "add-k": SMOOTH_ADDK, "exp": SMOOTH_EXP}
# Python 3.12 made sum() of floats compensated (Neumaier); sacrebleu's score depends on it.
cdef bint _NEUMAIER_SUM = sys.version_info >= (3, 12)
cdef Py_ssize_t SCORE_CHUNK = 1 << 16


cdef double builtin_sum(const double* x, int n) noexcept nogil:
    """sum(list_of_floats) as the running interpreter computes it."""
    cdef double s, t, c = 0.0
    cdef int i
    if n == 0:
        return 0.0
    s = x[0]
    if not _NEUMAIER_SUM:
        for i in range(1, n):
            s = s + x[i]
        return s
    for i in range(1, n):
        t = s + x[i]
        if fabs(s) >= fabs(x[i]):
            c += (s - t) + x[i]
        else:
            c += (x[i] - t) + s
        s = t
    if c != 0.0 and isfinite(c):
        s += c
    return s


cdef double bleu_from_stats(const int64_t* st, int max_order, int method, double smooth_value,
                            bint effective_order, double* logs) noexcept nogil:
    # Valid for finite smooth values in (0, 1e300] and max_order <= 256 (the caller checks): then a
    # zero precision (my_log = -9999999999) always drives the score to exactly 0.0.
    cdef int64_t sys_len = st[0], ref_len = st[1]
    cdef const int64_t* correct = st + 2
    cdef const int64_t* total = st + 2 + max_order
    cdef double bp = 1.0, smooth_mteval = 1.0, c, t, p
    cdef int n, eff_order = max_order, k
    cdef bint any_match = False, zero = False
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(max_order):
        if correct[n] != 0:
            any_match = True
            break
    if not any_match:
        return 0.0
    for n in range(1, max_order + 1):
        c = <double>correct[n - 1]
        t = <double>total[n - 1]
        if method == SMOOTH_ADDK and n > 1:
            c = c + smooth_value
            t = t + smooth_value
        if t == 0.0:
            # Orders from n on keep precision 0.0. They count unless effective order already
            # moved eff_order below n, which it cannot have done when n is the first order.
            for k in range(n, max_order + 1):
                logs[k - 1] = 0.0
            if not effective_order or n == 1:
                zero = True
            break
        if effective_order:
            eff_order = n
        p = 0.0
        if c == 0.0:
            if method == SMOOTH_EXP:
                smooth_mteval *= 2
                p = 100.0 / (smooth_mteval * t)
            elif method == SMOOTH_FLOOR:
                p = 100.0 * smooth_value / t
        else:
            p = 100.0 * c / t
        if p == 0.0:
            zero = True
        logs[n - 1] = log(p) if p != 0.0 else 0.0
    if zero:
        return bp * 0.0
    return bp * exp(builtin_sum(logs, eff_order) / eff_order)


def bleu_scores_from_stats(stats, int max_order, str smooth_method, smooth_value,
                           bint effective_order):
    """Sentence BLEU of every row of `stats` (a flat int64 sequence of rows
    [hyp_len, ref_len, correct_1..N, total_1..N]), as BLEU.compute_bleu(...).score would give."""
    cdef const int64_t[::1] st = stats
    cdef Py_ssize_t width, nseg, i, stop
    cdef array out
    cdef double* res
    cdef double sv = 0.0
    cdef double[256] logs
    cdef int method
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if smooth_method not in SMOOTH_MODES:
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
    method = SMOOTH_MODES[smooth_method]
    width = 2 + 2 * max_order
    nseg = st.shape[0] // width
    out = clone(array("d"), nseg, False)
    res = out.data.as_doubles
    if method == SMOOTH_FLOOR or method == SMOOTH_ADDK:
        if smooth_value is None:
            sv = 0.1 if method == SMOOTH_FLOOR else 1.0
        else:
            sv = smooth_value
            if not (isfinite(sv) and 0.0 < sv <= 1e300):
                raise ValueError("smooth_value must be finite and in (0, 1e300] for batch scoring")
    i = 0
    while i < nseg:
        # a bounded share at a time, so that Ctrl-C lands between shares
        stop = min(nseg, i + SCORE_CHUNK)
        with nogil:
            for i in range(i, stop):
                res[i] = bleu_from_stats(&st[i * width], max_order, method, sv, effective_order,
                                         logs)
        i = stop
        PyErr_CheckSignals()
    return out
