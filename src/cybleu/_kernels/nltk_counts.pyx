"""Compiled counting and float path of cybleu.nltk; the pure-Python twin `nltk_counts_py.py` is the
specification (same names and signatures, a test compares them).

Tokens (any hashable objects) are interned with one dict per call: each reference token gets the
next ID (dict.setdefault, one hash lookup), a hypothesis token is looked up only and, when no
reference holds it, gets OOV_ID, which never matches. The IDs go to the core's count_segment
(cimported from _core: the one n-gram table of the package), and nltk's sums or float formula
are taken from its integer statistics.
"""
from cpython.dict cimport PyDict_GetItemWithError, PyDict_SetDefault
from cpython.long cimport PyLong_AsSsize_t, PyLong_FromSsize_t
from cpython.mem cimport PyMem_RawFree, PyMem_RawRealloc
from cpython.ref cimport PyObject
from libc.math cimport exp, fabs, ldexp, log
from libc.stdint cimport int64_t, uint32_t, uint64_t

cdef extern from "Python.h":
    Py_ssize_t PyDict_GET_SIZE(object d)
    # a dict with room for n keys: no resizing while a sentence's tokens go in
    dict _PyDict_NewPresized(Py_ssize_t n)

from .ngrams cimport count_any_segment
from .defs cimport NgramTable, OOV_ID
from .._scoring.bleu import MAX_ORDER_LIMIT
from .._scoring.nltk import EMPTY_MIN_MESSAGE

__all__ = ["corpus_counts", "hf_counts", "sentence_score"]

cdef enum:
    MAX_WEIGHTS = 64
    # _nltk_math's mode numbers (nltk's method0 .. method4)
    NO_SMOOTHING = 0
    EPSILON = 1
    ADD_ONE = 2
    NIST = 3
    LOG_LENGTH = 4

# math.exp overflows above ~709.78; beyond this the caller takes nltk's own path (which raises)
cdef double EXP_LIMIT = 709.0
cdef double DBL_MIN_ = 2.2250738585072014e-308    # sys.float_info.min


cdef class _Scratch:
    """Buffers of one call: token IDs, reference offsets, the n-gram table, one row of stats."""
    cdef uint32_t* hyp
    cdef Py_ssize_t hyp_cap
    cdef uint32_t* ref
    cdef Py_ssize_t ref_cap
    cdef int64_t* ref_off
    cdef Py_ssize_t off_cap
    cdef int64_t* row
    cdef Py_ssize_t row_cap
    cdef NgramTable table
    cdef object next_id     # the ID the next new reference token gets (a Python int)

    def __dealloc__(self):
        PyMem_RawFree(self.hyp)
        PyMem_RawFree(self.ref)
        PyMem_RawFree(self.ref_off)
        PyMem_RawFree(self.row)
        PyMem_RawFree(self.table.slots)
        PyMem_RawFree(self.table.entries)
        PyMem_RawFree(self.table.touched)


cdef void* _grow(void* p, Py_ssize_t* cap, Py_ssize_t need, size_t item) except NULL:
    cdef Py_ssize_t n = cap[0] if cap[0] > 16 else 16
    cdef void* q
    if need <= cap[0] and p != NULL:
        return p
    while n < need:
        n *= 2
    q = PyMem_RawRealloc(p, <size_t>n * item)
    if q == NULL:
        raise MemoryError()
    cap[0] = n
    return q


_POOL = []


cdef _Scratch _acquire():
    # one scratch per call in flight: a token's __eq__/__hash__ may run Python code that lets
    # another thread call in, so buffers are never shared between calls
    if _POOL:
        return <_Scratch>_POOL.pop()
    return _Scratch()


cdef void _release(_Scratch ws):
    if len(_POOL) < 8:
        _POOL.append(ws)


cdef int _intern_refs(_Scratch ws, dict vocab, references, Py_ssize_t* nrefs) except -1:
    """Reference tokens -> ws.ref (new tokens get the next ID), offsets -> ws.ref_off."""
    cdef Py_ssize_t r = 0, k = 0, n, end
    cdef object seq, tok, value
    cdef PyObject* got
    ws.ref_off = <int64_t*>_grow(ws.ref_off, &ws.off_cap, len(references) + 1, sizeof(int64_t))
    ws.ref_off[0] = 0
    for ref in references:
        seq = ref if (type(ref) is list or type(ref) is tuple) else tuple(ref)
        n = len(seq)
        ws.ref = <uint32_t*>_grow(ws.ref, &ws.ref_cap, k + n, sizeof(uint32_t))
        end = k + n
        for tok in seq:
            # a token's __hash__ or __eq__ may grow the list being read: the buffer holds n
            if k == end:
                break
            got = PyDict_SetDefault(vocab, tok, ws.next_id)
            if got == NULL:
                raise MemoryError()
            if got == <PyObject*>ws.next_id:       # a new token took the ID
                ws.next_id = PyLong_FromSsize_t(PyDict_GET_SIZE(vocab))
            ws.ref[k] = <uint32_t>PyLong_AsSsize_t(<object>got)
            k += 1
        r += 1
        if r >= ws.off_cap:
            ws.ref_off = <int64_t*>_grow(ws.ref_off, &ws.off_cap, r + 1, sizeof(int64_t))
        ws.ref_off[r] = k
    nrefs[0] = r
    return 0


cdef Py_ssize_t _intern_hyp(_Scratch ws, dict vocab, hypothesis) except -1:
    """Hypothesis tokens -> ws.hyp (looked up only; OOV_ID when no reference has them); returns
    how many were read."""
    cdef object seq = hypothesis if (type(hypothesis) is list or type(hypothesis) is tuple) \
        else tuple(hypothesis)
    cdef Py_ssize_t n = len(seq), i = 0
    cdef PyObject* got
    ws.hyp = <uint32_t*>_grow(ws.hyp, &ws.hyp_cap, n, sizeof(uint32_t))
    for tok in seq:
        # a token's __hash__ or __eq__ may grow the list being read (or shrink it: then fewer
        # than n are read): the buffer holds n
        if i == n:
            break
        got = PyDict_GetItemWithError(vocab, tok)
        if got == NULL:
            ws.hyp[i] = OOV_ID
        else:
            ws.hyp[i] = <uint32_t>PyLong_AsSsize_t(<object>got)
        i += 1
    return i


cdef int _count(_Scratch ws, Py_ssize_t hyp_len, Py_ssize_t nrefs, int max_order) except -1:
    ws.row = <int64_t*>_grow(ws.row, &ws.row_cap, 2 + 2 * <Py_ssize_t>max_order, sizeof(int64_t))
    if count_any_segment(&ws.table, ws.hyp, hyp_len, ws.ref, ws.ref_off, 0, nrefs, max_order,
                         True, ws.row) < 0:
        raise MemoryError()
    return 0


cdef Py_ssize_t _sentence(_Scratch ws, references, hypothesis, int max_order) except -1:
    """Intern one sentence's tokens and count it: ws.row = [hyp_len, ref_len, correct_1..N,
    total_1..N]; returns the number of references (the caller has checked there is one)."""
    cdef Py_ssize_t nrefs, hyp_len
    # a small dict per sentence stays in cache; one for the corpus would not
    cdef dict vocab = _PyDict_NewPresized(2 * len(hypothesis) + 8)
    ws.next_id = 0
    _intern_refs(ws, vocab, references, &nrefs)
    hyp_len = _intern_hyp(ws, vocab, hypothesis)
    _count(ws, hyp_len, nrefs, max_order)
    return nrefs


def corpus_counts(list_of_references, hypotheses, max_order):
    """(hyp_lengths, ref_lengths, numerators, denominators) summed over the corpus as nltk's
    corpus_bleu sums them (see the twin's docstring)."""
    return _sums(list_of_references, hypotheses, max_order, True)


def hf_counts(reference_corpus, translation_corpus, max_order):
    """(translation_length, reference_length, matches_by_order, possible_matches_by_order) as
    tensorflow/nmt's compute_bleu sums them (see the twin's docstring)."""
    return _sums(reference_corpus, translation_corpus, max_order, False)


cdef tuple _sums(list_of_references, hypotheses, Py_ssize_t order, bint nltk):
    """The corpus sums of nltk (closest reference length, per-sentence denominators of at least
    1) or, nltk False, of nmt (shortest reference length, n-gram counts as they are)."""
    cdef Py_ssize_t k, n = order if order > 0 else 1     # order 0 still needs the reference lengths
    cdef Py_ssize_t hyp_len, nrefs, r, ref_len
    cdef int64_t hyp_lengths = 0, ref_lengths = 0, total
    cdef int64_t* sums = NULL
    cdef Py_ssize_t sums_cap = 0
    cdef _Scratch ws
    if order > MAX_ORDER_LIMIT:
        raise ValueError(f"the n-gram order must be at most {MAX_ORDER_LIMIT}, got {order}")
    ws = _acquire()
    try:
        sums = <int64_t*>_grow(NULL, &sums_cap, 2 * n, sizeof(int64_t))
        for k in range(2 * n):
            sums[k] = 0
        for references, hypothesis in zip(list_of_references, hypotheses):
            if not len(references):
                if nltk and order and len(hypothesis):
                    raise KeyError((tuple(hypothesis)[0],))
                raise ValueError(EMPTY_MIN_MESSAGE)
            nrefs = _sentence(ws, references, hypothesis, <int>n)
            hyp_len = ws.row[0]
            ref_len = ws.row[1]
            if not nltk:
                ref_len = ws.ref_off[1] - ws.ref_off[0]
                for r in range(1, nrefs):
                    if ws.ref_off[r + 1] - ws.ref_off[r] < ref_len:
                        ref_len = ws.ref_off[r + 1] - ws.ref_off[r]
            hyp_lengths += hyp_len
            ref_lengths += ref_len
            for k in range(n):
                sums[k] += ws.row[2 + k]
                total = ws.row[2 + n + k]
                sums[n + k] += total if (total > 1 or not nltk) else 1   # nltk: max(1, #n-grams)
        numerators = [sums[k] for k in range(order)]
        denominators = [sums[n + k] for k in range(order)]
    finally:
        PyMem_RawFree(sums)
        _release(ws)
    return hyp_lengths, ref_lengths, numerators, denominators


cdef double _fsum(const double* x, int n) noexcept:
    """math.fsum of n finite doubles whose partial sums cannot overflow: CPython's algorithm
    (Shewchuk's exact partials, then the correction for round-half-even)."""
    cdef double[64] p
    cdef double xi, y, t, hi, yr, lo = 0.0
    cdef int i, j, k, m = 0
    for i in range(n):
        xi = x[i]
        k = 0
        for j in range(m):
            y = p[j]
            if fabs(xi) < fabs(y):
                t = xi
                xi = y
                y = t
            hi = xi + y
            yr = hi - xi
            lo = y - yr
            if lo != 0.0:
                p[k] = lo
                k += 1
            xi = hi
        m = k
        if xi != 0.0:
            p[m] = xi
            m += 1
    hi = 0.0
    if m > 0:
        m -= 1
        hi = p[m]
        while m > 0:
            xi = hi
            m -= 1
            y = p[m]
            hi = xi + y
            yr = hi - xi
            lo = y - yr
            if lo != 0.0:
                break
        if m > 0 and ((lo < 0.0 and p[m - 1] < 0.0) or (lo > 0.0 and p[m - 1] > 0.0)):
            y = lo * 2.0
            xi = hi + y
            yr = xi - hi
            if y == yr:
                hi = xi
    return hi


def sentence_score(references, hypothesis, weights, mode, param, reweigh):
    """nltk's sentence_bleu for a tuple of float weights and smoothing method<mode> (0-4): the
    float score, int 0, (score, zero-order mask) when method0 must warn, or None when the caller
    must take nltk's general path (see the twin's docstring)."""
    cdef int order = len(weights), used, k, incvnt = 1, nterms = 0, smoothing = mode
    cdef double c_param = param
    cdef double[64] w
    cdef double[64] terms
    cdef double p, s, bp, score
    cdef int64_t num, den, hyp_len, ref_len
    cdef uint64_t zero_mask = 0
    cdef Py_ssize_t nrefs
    cdef _Scratch ws
    if order < 1 or order > MAX_WEIGHTS or not len(references):
        return None
    for k in range(order):
        w[k] = weights[k]
    ws = _acquire()
    try:
        _sentence(ws, references, hypothesis, order)
        hyp_len = ws.row[0]
        ref_len = ws.row[1]
        if ws.row[2] == 0:
            return 0
        # nltk smooths every order, then zips the (possibly re-weighed) weights with them
        used = order
        if reweigh and hyp_len < 4:
            used = <int>hyp_len
            for k in range(used):
                w[k] = 1.0 / <double>hyp_len
        for k in range(order):
            num = ws.row[2 + k]
            den = ws.row[2 + order + k]
            if den < 1:
                den = 1
            if smoothing == ADD_ONE and k:
                p = <double>(num + 1) / <double>(den + 1)
            elif num:
                p = <double>num / <double>den
            elif smoothing == NO_SMOOTHING:
                p = DBL_MIN_
                zero_mask |= (<uint64_t>1) << k
            elif smoothing == EPSILON:
                p = (0.0 + c_param) / <double>den
            elif smoothing == NIST:
                p = 1.0 / ldexp(<double>den, incvnt)
                incvnt += 1
            elif smoothing == LOG_LENGTH and hyp_len > 1:
                p = 1.0 / (ldexp(c_param, incvnt) / log(<double>hyp_len)) / <double>den
                incvnt += 1
            else:
                p = 0.0
            if p > 0 and k < used:
                terms[nterms] = w[k] * log(p)
                nterms += 1
        s = _fsum(terms, nterms)
        if not (s <= EXP_LIMIT):
            return None
        bp = 1.0 if hyp_len > ref_len else exp(1.0 - <double>ref_len / <double>hyp_len)
        score = bp * exp(s)
    finally:
        _release(ws)
    if zero_mask:
        return score, zero_mask
    return score
