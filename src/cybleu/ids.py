"""BLEU on token IDs, for training loops: batched sentence BLEU (RL rewards), corpus BLEU without
detokenizing, pairwise matrices (MBR, Self-BLEU) and statistics that add up across workers.

Trimming: `pad_id` is removed at both edges of each row; a row ends at its first `eos_id` (it and
everything after it are dropped). IDs are exact uint32 values.

Every score equals sacreBLEU 2.6.0's on the IDs written as whitespace-joined strings with
`tokenize='none'`, bit for bit::

    from cybleu import ids
    rewards = ids.sentence_bleu(samples, refs, pad_id=0, eos_id=2)   # float64 array, one per row
    score = ids.corpus_bleu(samples, refs, pad_id=0)                 # BLEUScore

Batches: a list of ID sequences; a 2-D integer array (numpy, or anything exposing `__dlpack__`,
`__array__` or the buffer protocol, e.g. a CPU torch tensor), read without a copy when its dtype is
uint32 or non-negative int32 in the machine's byte order and nothing is trimmed; or
`Ragged(flat, offsets)`. References: one per hypothesis in any of those forms, a 3-D array
(batch, n_refs, length), a list holding a list of references per hypothesis, or
`Ragged(flat, offsets, groups)`.

Arrays of either byte order are read by value (a big-endian array is converted, not
reinterpreted). Numpy masked arrays are refused with a TypeError: a mask has no one meaning for
n-grams (masked entries inside a row would join their neighbours into n-grams that never
occurred, and a mask at the edges is padding), so say what it means with `x.filled(pad)` and
`pad_id=pad`, or pass `[row.compressed() for row in x]`. Large arrays are converted and trimmed
a block at a time, so Ctrl-C lands promptly.
"""
import math

import numpy as np

from ._scoring import bleu as bleu_math
from ._backend import core
from ._kernels.ragged import (Ragged, check_not_masked, check_threads, check_token_arg,
                              threads_for)
from ._kernels.ragged import describe as _describe
from .metrics.bleu import BLEU, _plain

__all__ = ["Ragged", "BLEUStats", "BLEUAccumulator", "sentence_bleu", "corpus_bleu",
           "segment_stats", "corpus_stats", "pairwise_bleu", "self_bleu", "self_bleu_stats",
           "rouge"]


# -- argument checks (one function per check; both backends see only checked values) ---------


def _check_args(max_order, smooth_method, smooth_value, pad_id, eos_id, n_threads):
    """Every scalar argument of the ids functions, checked once: (max_order, pad_id, eos_id,
    n_threads) as plain ints."""
    max_order = bleu_math.check_max_order(max_order)
    bleu_math.check_smoothing(smooth_method, smooth_value)
    return (max_order, check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id"),
            check_threads(n_threads))


# -- inputs -> flat uint32 IDs + int64 offsets ----------------------------------------------------
# The core reads batches (core.read_batch, core.read_references: lists of ints in compiled code, the
# rest as numpy reads it) and counts them (core.ids_batch_stats reads lists of rows on the threads
# that count them). It splits a batch across its threads itself and checks for Ctrl-C between
# bounded steps of every thread (_workspace.run_jobs), so a batch of any size is one call.

def _batch(x, what, pad_id, eos_id):
    """(flat, offsets, 0): the batch's trimmed uint32 IDs and int64 offsets."""
    return core.read_batch(x, what, pad_id, eos_id) + (0,)


def _threads_for(work, n_threads):
    """n_threads capped at the work available (_ragged.MIN_THREAD_WORK per thread, at least
    one); one thread for the pure-Python twin, where threads cannot run in parallel."""
    if core.__name__.endswith("_py"):
        return 1
    return threads_for(work, n_threads)


def _pair_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order, smooth_method,
                 smooth_value, effective_order, n_threads):
    """core.ids_pairwise_scores of the checked layouts."""
    nhyp, nref = hyp_offsets.size - 1, ref_offsets.size - 1
    # hypothesis n-gram entries scanned per reference (a lighter unit than a counted n-gram)
    work = (hyp_flat.size * max_order + nhyp) * nref // 2
    return core.ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order,
                                    smooth_method, smooth_value, effective_order,
                                    _threads_for(work, n_threads))


# -- statistics ---------------------------------------------------------------------------------

def segment_stats(hyps, refs, *, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """The segment statistics of every hypothesis: sacreBLEU's
    `[hyp_len, ref_len, correct_1..N, total_1..N]` of the whitespace-joined IDs, one row each.

    :param hyps: The hypotheses: a list of ID sequences (lists, tuples, 1-D arrays), a 2-D
        integer array or tensor (numpy, or anything with `__dlpack__`, `__array__` or the buffer
        protocol, e.g. a CPU torch tensor), or a :class:`Ragged`.
    :param refs: The references, one per hypothesis in any of those forms; or several per
        hypothesis: a 3-D array `(batch, n_refs, length)`, a list of lists of sequences, or a
        `Ragged` with `groups`.
    :param max_order: The largest n-gram order (default 4).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Count on this many threads (the result does not depend on it).
    :returns: An int64 array of shape `(batch, 2 + 2 * max_order)`.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> ids.segment_stats([[5, 17, 9, 42, 2, 0]], [[5, 17, 9, 42]], pad_id=0, eos_id=2).tolist()
    [[4, 4, 4, 3, 2, 1, 4, 3, 2, 1]]
    """
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, "exp", None, pad_id, eos_id,
                                                       n_threads)
    return core.ids_batch_stats(hyps, refs, max_order, pad_id, eos_id, n_threads)


def corpus_stats(hyps, refs, *, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """The batch's statistics summed, to add to other batches' (or other workers') and score.

    :param hyps: The hypotheses: a list of ID sequences (lists, tuples, 1-D arrays), a 2-D
        integer array or tensor (numpy, or anything with `__dlpack__`, `__array__` or the buffer
        protocol, e.g. a CPU torch tensor), or a :class:`Ragged`.
    :param refs: The references, one per hypothesis in any of those forms; or several per
        hypothesis: a 3-D array `(batch, n_refs, length)`, a list of lists of sequences, or a
        `Ragged` with `groups`.
    :param max_order: The largest n-gram order (default 4).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Count on this many threads.
    :returns: A :class:`BLEUStats`.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> stats = ids.corpus_stats([[5, 17, 9, 42], [5, 17, 8]], [[5, 17, 9, 42], [5, 17, 9]])
    >>> stats
    BLEUStats([7, 7, 6, 4, 2, 1, 7, 5, 3, 1])
    >>> print(stats.score())
    BLEU = 82.23 85.7/80.0/66.7/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """
    rows = segment_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                         n_threads=n_threads)
    return BLEUStats(rows.sum(axis=0, dtype=np.int64) if rows.shape[0]
                     else np.zeros(2 + 2 * max_order, dtype=np.int64))


_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1


def _stats_vector(vector):
    """BLEU statistics as a checked int64 vector [sys_len, ref_len, correct_1..N, total_1..N].

    Counts and lengths are whole, non-negative numbers and correct_n <= total_n. The reference
    length alone may be negative: sacreBLEU counts -1 for a segment with neither a reference nor
    a hypothesis token, and corpus statistics are sums of segment ones."""
    check_not_masked(vector, "BLEU statistics")
    vec = np.asarray(vector)
    if vec.ndim == 0:
        raise TypeError("BLEU statistics are a 1-D vector of 2 + 2 * max_order integers, got "
                        f"{_describe(vector)}")
    if vec.ndim != 1 or vec.size < 4 or vec.size % 2:
        raise ValueError("BLEU statistics are a 1-D vector of 2 + 2 * max_order integers, "
                         f"got shape {vec.shape}")
    bleu_math.check_max_order((vec.size - 2) // 2, "the statistics' max order")
    if vec.dtype.kind == "O" and all(type(v) is int for v in vec.tolist()):
        if any(not _INT64_MIN <= v <= _INT64_MAX for v in vec.tolist()):
            raise ValueError(f"BLEU statistics must fit in int64, got {vec.tolist()}")
        vec = vec.astype(np.int64)
    if vec.dtype.kind == "f":
        if not bool(np.isfinite(vec).all()) or not bool((vec == np.round(vec)).all()):
            raise TypeError(f"BLEU statistics must be whole numbers, got {vec.tolist()}")
        if bool((vec >= 2.0**63).any()) or bool((vec < -2.0**63).any()):
            raise ValueError(f"BLEU statistics must fit in int64, got {vec.tolist()}")
    elif vec.dtype.kind not in "iu":
        raise TypeError(f"BLEU statistics must be integers, got dtype {vec.dtype}")
    elif vec.dtype == np.uint64 and int(vec.max()) > _INT64_MAX:
        raise ValueError(f"BLEU statistics must fit in int64, got {vec.tolist()}")
    vec = vec.astype(np.int64)
    n = (vec.size - 2) // 2
    correct, total = vec[2:2 + n], vec[2 + n:]
    if vec[0] < 0 or bool((correct < 0).any()) or bool((total < 0).any()):
        raise ValueError("BLEU statistics [sys_len, ref_len, correct_1..N, total_1..N] must not "
                         f"be negative (only ref_len may be), got {vec.tolist()}")
    over = np.flatnonzero(correct > total)
    if over.size:
        k = int(over[0])
        raise ValueError(f"BLEU statistics have more correct {k + 1}-grams than "
                         f"{k + 1}-grams ({int(correct[k])} > {int(total[k])}): {vec.tolist()}")
    return vec


class BLEUStats:
    """BLEU's sufficient statistics `[sys_len, ref_len, correct_1..N, total_1..N]` of a corpus.

    Adds with `+` and `sum()`, pickles, and converts to and from an int64 vector (for an
    all-reduce across data-parallel workers); `score()` gives sacreBLEU's corpus BLEU.

    :param vector: The 2 + 2N integers (a list, tuple or integer/whole-float array).
    :raises TypeError: Values that are not whole numbers.
    :raises ValueError: A vector of the wrong shape, negative counts (only `ref_len` may be
        negative), more correct n-grams than n-grams, values beyond int64.

    >>> from cybleu import ids
    >>> a = ids.BLEUStats([4, 4, 4, 3, 2, 1, 4, 3, 2, 1])
    >>> b = ids.BLEUStats([3, 3, 2, 1, 0, 0, 3, 2, 1, 0])
    >>> a + b
    BLEUStats([7, 7, 6, 4, 2, 1, 7, 5, 3, 1])
    >>> ids.BLEUStats.from_numpy((a + b).to_numpy() * 2) == sum([a, b, a, b])
    True
    >>> print((a + b).score())
    BLEU = 82.23 85.7/80.0/66.7/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """

    def __init__(self, vector):
        self.vector = _stats_vector(vector)

    @classmethod
    def from_numpy(cls, vector):
        """Statistics from a vector (e.g. after an all-reduce).

        :param vector: The 2 + 2N integers.
        :returns: A :class:`BLEUStats`.
        """
        return cls(vector)

    def to_numpy(self):
        """The statistics as a new int64 numpy vector.

        :returns: An int64 array of 2 + 2N values.
        """
        return self.vector.copy()

    @property
    def max_order(self):
        """The largest n-gram order N."""
        return (self.vector.size - 2) // 2

    def __add__(self, other):
        if isinstance(other, int) and other == 0:
            return BLEUStats(self.vector)
        if not isinstance(other, BLEUStats):
            return NotImplemented
        if other.vector.size != self.vector.size:
            raise ValueError(f"cannot add statistics of max order {self.max_order} and "
                             f"{other.max_order}")
        total = self.vector + other.vector
        # int64 addition wraps silently: the sign flips only when both addends share one
        if bool((((self.vector ^ total) & (other.vector ^ total)) < 0).any()):
            raise ValueError("the sum of these BLEU statistics overflows int64")
        return BLEUStats(total)

    __radd__ = __add__

    def __eq__(self, other):
        return isinstance(other, BLEUStats) and np.array_equal(self.vector, other.vector)

    __hash__ = None

    def __repr__(self):
        return f"BLEUStats({self.vector.tolist()})"

    def score(self, smooth_method="exp", smooth_value=None, effective_order=False):
        """sacreBLEU's corpus BLEU of these statistics.

        :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
        :param smooth_value: The value of `'floor'` or `'add-k'`.
        :param effective_order: Stop at the first order with no n-grams.
        :returns: A :class:`~cybleu.metrics.BLEUScore`.
        :raises ValueError: An unknown smoothing method or a bad value.
        """
        bleu_math.check_smoothing(smooth_method, smooth_value)
        bleu = _bleu(self.max_order, smooth_method, smooth_value, effective_order)
        return bleu._compute_score_from_stats([int(v) for v in self.vector])


class BLEUAccumulator:
    """Corpus BLEU over an evaluation loop: `update(hyps, refs)` per batch, then `compute()`;
    `reset()` starts over.

    :param max_order: The largest n-gram order (default 4).
    :param smooth_method: As :func:`corpus_bleu` (default `'exp'`).
    :param smooth_value: As :func:`corpus_bleu`.
    :param effective_order: As :func:`corpus_bleu` (default False).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Count each batch on this many threads.
    :raises ValueError: Bad arguments (checked here, not at the first update).
    :raises TypeError: A non-integer `pad_id` or `eos_id`.

    >>> from cybleu import ids
    >>> bleu = ids.BLEUAccumulator(pad_id=0, eos_id=2)
    >>> _ = bleu.update([[5, 17, 9, 42, 2, 0]], [[5, 17, 9, 42]])
    >>> _ = bleu.update([[5, 17, 8, 2, 0, 0]], [[5, 17, 9]])
    >>> print(bleu.compute())
    BLEU = 82.23 85.7/80.0/66.7/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """

    def __init__(self, max_order=4, smooth_method="exp", smooth_value=None,
                 effective_order=False, pad_id=None, eos_id=None, n_threads=1):
        # fail here on bad arguments, not at the first update
        max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method,
                                                           smooth_value, pad_id, eos_id, n_threads)
        _bleu(max_order, smooth_method, smooth_value, effective_order)
        self.max_order, self.smooth_method, self.smooth_value = max_order, smooth_method, \
            smooth_value
        self.effective_order, self.pad_id, self.eos_id, self.n_threads = effective_order, \
            pad_id, eos_id, n_threads
        self.reset()

    def reset(self):
        """Forget every batch added so far."""
        self.stats = BLEUStats(np.zeros(2 + 2 * self.max_order, dtype=np.int64))

    def update(self, hyps, refs):
        """Add a batch.

        :param hyps: The batch's hypotheses, as for :func:`corpus_stats`.
        :param refs: Its references, as for :func:`corpus_stats`.
        :returns: The batch's own :class:`BLEUStats`.
        :raises TypeError: As :func:`corpus_stats`.
        :raises ValueError: As :func:`corpus_stats`.
        """
        batch = corpus_stats(hyps, refs, max_order=self.max_order, pad_id=self.pad_id,
                             eos_id=self.eos_id, n_threads=self.n_threads)
        self.stats = self.stats + batch
        return batch

    def compute(self):
        """Corpus BLEU of everything added since the last reset.

        :returns: A :class:`~cybleu.metrics.BLEUScore`.
        """
        return self.stats.score(self.smooth_method, self.smooth_value, self.effective_order)


# -- scores -------------------------------------------------------------------------------------

def _bleu(max_order, smooth_method, smooth_value, effective_order):
    bleu_math.check_max_order(max_order)
    bleu_math.check_smoothing(smooth_method, smooth_value)
    return BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                max_ngram_order=int(max_order), effective_order=effective_order)


def _batch_scorable(bleu):
    """The compiled batch float path reproduces this configuration exactly."""
    sv = bleu.smooth_value
    return bleu.smooth_method in ("none", "exp") or sv is None or _plain(sv)


def _scores(rows, bleu):
    """Sentence scores of statistics rows, as bleu.sentence_score(...).score gives them."""
    if not rows.shape[0]:
        return np.zeros(0, dtype=np.float64)
    if _batch_scorable(bleu):
        scores = core.bleu_scores_from_stats(np.ascontiguousarray(rows).reshape(-1),
                                             bleu.max_ngram_order, bleu.smooth_method,
                                             bleu.smooth_value, bleu.effective_order)
        return np.frombuffer(scores, dtype=np.float64).copy()
    return np.array([bleu._compute_score_from_stats(row.tolist()).score for row in rows],
                    dtype=np.float64)


def _check_weights(weights, max_order):
    """None for uniform weights (sacreBLEU's formula), else the weights as floats scaled by a
    power of two that brings the largest into [0.5, 1): exact, so the score's bits do not change,
    and their sum neither overflows nor loses the digits of subnormal weights."""
    if weights is None:
        return None
    check_not_masked(weights, "weights")
    if isinstance(weights, (str, bytes)):
        raise TypeError(f"weights must be a sequence of {max_order} numbers, got "
                        f"{_describe(weights)}")
    try:
        weights = [float(w) for w in weights]
    except (TypeError, ValueError):
        raise TypeError(f"weights must be a sequence of {max_order} numbers, got "
                        f"{_describe(weights)}") from None
    if len(weights) != max_order:
        raise ValueError(f"weights must have max_order ({max_order}) entries, got {len(weights)}")
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise ValueError(f"weights must be finite and positive, got {weights}")
    if len(set(weights)) == 1:
        return None
    exponent = math.frexp(max(weights))[1]
    return [math.ldexp(w, -exponent) for w in weights]


def _weighted_score(row, bleu, weights):
    """bp * exp(sum(w_n * log p_n) / sum(w_n)) over the orders sacreBLEU would use, with its
    precisions, smoothing, brevity penalty and effective order; 0 if any of them is 0."""
    N = bleu.max_ngram_order
    correct, total = list(row[2:2 + N]), list(row[2 + N:])
    score, correct, total, precisions, bp = bleu_math.bleu_from_stats(
        correct, total, int(row[0]), int(row[1]), bleu.smooth_method, bleu.smooth_value,
        bleu.effective_order, N)
    used = N
    if bleu.effective_order:
        used = next((n for n in range(N) if total[n] == 0), N)
    if score == 0.0 or used == 0 or any(p == 0.0 for p in precisions[:used]):
        return 0.0 * bp
    return bp * math.exp(sum([w * math.log(p) for w, p in zip(weights, precisions[:used])])
                         / sum(weights[:used]))


def sentence_bleu(hyps, refs, *, max_order=4, smooth_method="exp", smooth_value=None,
                  effective_order=True, weights=None, pad_id=None, eos_id=None, n_threads=1):
    """Sentence BLEU of every hypothesis against its own references, e.g. as RL rewards: element
    i equals sacreBLEU's `BLEU(tokenize='none', effective_order=True).sentence_score(hyp_i,
    refs_i).score` on the IDs written as whitespace-joined strings, bit for bit (defaults: exp
    smoothing and effective order, as `sacrebleu.sentence_bleu`).

    :param hyps: The hypotheses: a list of ID sequences (lists, tuples, 1-D arrays), a 2-D
        integer array or tensor (numpy, or anything with `__dlpack__`, `__array__` or the buffer
        protocol, e.g. a CPU torch tensor), or a :class:`Ragged`.
    :param refs: The references, one per hypothesis in any of those forms; or several per
        hypothesis: a 3-D array `(batch, n_refs, length)`, a list of lists of sequences, or a
        `Ragged` with `groups`.
    :param max_order: The largest n-gram order (default 4; up to 256).
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` (0.1) or `'add-k'` (1).
    :param effective_order: Leave out the orders a hypothesis has no n-grams of (default True).
    :param weights: None (uniform, sacreBLEU's BLEU) or one finite, positive weight per order,
        an extension (sacreBLEU weighs the orders equally). They are relative: the score is
        `bp * exp(sum(w_n * log p_n) / sum(w_n))` over the orders sacreBLEU uses, so
        `[1, 2, 3, 4]` and `[0.1, 0.2, 0.3, 0.4]` give the same score, and equal weights give
        sacreBLEU's numbers bit for bit. Huge and subnormal weights work (they are scaled exactly
        by a power of two first). `cybleu.torchmetrics.BLEUScore` follows torchmetrics instead:
        its weights are used as given, not normalized.
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Count on this many threads, with the GIL released (the scores do not
        depend on it).
    :returns: A float64 numpy array of one score (0-100) per hypothesis.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> import numpy as np
    >>> from cybleu import ids
    >>> samples = np.array([[5, 17, 9, 42, 2, 0],      # eos 2, then padding 0
    ...                     [5, 17, 8, 2, 0, 0]])
    >>> refs = [[5, 17, 9, 42], [5, 17, 9]]
    >>> ids.sentence_bleu(samples, refs, pad_id=0, eos_id=2).tolist()
    [100.00000000000004, 55.03212081491043]
    >>> ids.sentence_bleu([[0, 0, 5, 17, 9, 42, 2, 7, 7]], [[5, 17, 9, 42]],
    ...                   pad_id=0, eos_id=2).tolist()          # left padding; after eos: cut
    [100.00000000000004]
    """
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method, smooth_value,
                                                       pad_id, eos_id, n_threads)
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    weights = _check_weights(weights, max_order)
    rows = segment_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                         n_threads=n_threads)
    if weights is not None:
        return np.array([_weighted_score(row.tolist(), bleu, weights) for row in rows],
                        dtype=np.float64)
    return _scores(rows, bleu)


def corpus_bleu(hyps, refs, *, max_order=4, smooth_method="exp", smooth_value=None,
                effective_order=False, pad_id=None, eos_id=None, n_threads=1):
    """Corpus BLEU of the batch: what `sacrebleu.corpus_bleu(..., tokenize='none')` gives for
    the IDs written as whitespace-joined strings.

    :param hyps: The hypotheses: a list of ID sequences (lists, tuples, 1-D arrays), a 2-D
        integer array or tensor (numpy, or anything with `__dlpack__`, `__array__` or the buffer
        protocol, e.g. a CPU torch tensor), or a :class:`Ragged`.
    :param refs: The references, one per hypothesis in any of those forms; or several per
        hypothesis: a 3-D array `(batch, n_refs, length)`, a list of lists of sequences, or a
        `Ragged` with `groups`.
    :param max_order: The largest n-gram order (default 4).
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` or `'add-k'`.
    :param effective_order: Leave out orders without n-grams (default False, as
        `sacrebleu.corpus_bleu`).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Count on this many threads.
    :returns: A :class:`~cybleu.metrics.BLEUScore`.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> print(ids.corpus_bleu([[5, 17, 9, 42, 2, 0], [5, 17, 8, 2, 0, 0]],
    ...                       [[5, 17, 9, 42], [5, 17, 9]], pad_id=0, eos_id=2))
    BLEU = 82.23 85.7/80.0/66.7/100.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method, smooth_value,
                                                       pad_id, eos_id, n_threads)
    _bleu(max_order, smooth_method, smooth_value, effective_order)
    return corpus_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                        n_threads=n_threads).score(smooth_method, smooth_value, effective_order)


def pairwise_bleu(hyps, refs=None, *, max_order=4, smooth_method="exp", smooth_value=None,
                  effective_order=True, pad_id=None, eos_id=None, n_threads=1):
    """Sentence BLEU of each hypothesis against each reference alone, for MBR decoding: element
    `[i, j]` equals `sentence_bleu([hyps[i]], [refs[j]])[0]`. Each sentence's n-grams are
    counted once.

    :param hyps: The hypotheses (any batch form, as for :func:`sentence_bleu`).
    :param refs: The references, one sequence each (not per hypothesis), or None to score the
        hypotheses against each other.
    :param max_order: The largest n-gram order (default 4).
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` or `'add-k'` (in (0, 1e300]).
    :param effective_order: Leave out orders without n-grams (default True).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :param n_threads: Share the references out among this many threads.
    :returns: A float64 numpy array of shape `(len(hyps), len(refs))`.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> ids.pairwise_bleu([[5, 17, 9, 42], [5, 17, 9]]).round(2).tolist()
    [[100.0, 59.46], [71.65, 100.0]]
    """
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method, smooth_value,
                                                       pad_id, eos_id, n_threads)
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    if not _batch_scorable(bleu):
        if not (type(smooth_value) is int or isinstance(smooth_value, float)):
            # sacreBLEU would compute in the value's own precision (numpy's float32 stays float32)
            raise TypeError(f"pairwise_bleu takes smooth_value as a Python int or float (its "
                            f"compiled path computes in float64), got "
                            f"{type(smooth_value).__name__} {smooth_value!r}: pass "
                            "float(smooth_value), or score pairs with sentence_bleu")
        raise ValueError(f"pairwise_bleu needs a smooth_value in (0, 1e300] for "
                         f"{smooth_method!r}, got {smooth_value!r}")
    hyp_flat, hyp_offsets, _ = _batch(hyps, "hyps", pad_id, eos_id)
    if refs is None or refs is hyps:
        # the same arrays: the core then sums each unordered pair's matches once
        ref_flat, ref_offsets = hyp_flat, hyp_offsets
    else:
        ref_flat, ref_offsets, _ = _batch(refs, "refs", pad_id, eos_id)
    return _pair_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order, smooth_method,
                        smooth_value, effective_order, n_threads)


def self_bleu_stats(sentences, *, max_order=4, pad_id=None, eos_id=None):
    """Each sentence's statistics against all the others pooled as its references (the largest
    count of each n-gram over the others, the closest other length), in linear time.

    :param sentences: The sentences (any batch form, as for :func:`sentence_bleu`).
    :param max_order: The largest n-gram order (default 4).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :returns: An int64 array of shape `(n, 2 + 2 * max_order)`.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> ids.self_bleu_stats([[1, 2, 3, 4], [1, 2, 3, 5]]).tolist()
    [[4, 4, 3, 2, 1, 0, 4, 3, 2, 1], [4, 4, 3, 2, 1, 0, 4, 3, 2, 1]]
    """
    max_order, pad_id, eos_id, _ = _check_args(max_order, "exp", None, pad_id, eos_id, 1)
    flat, offsets, _ = _batch(sentences, "sentences", pad_id, eos_id)
    if offsets.size == 2:
        raise ValueError("self-BLEU needs at least two sentences (each is scored against the "
                         "others), got 1")
    return core.ids_self_stats(flat, offsets, max_order)


def self_bleu(sentences, *, max_order=4, smooth_method="exp", smooth_value=None,
              effective_order=True, pad_id=None, eos_id=None):
    """Self-BLEU, a diversity measure: each sentence's sentence BLEU against all the others as
    its references. Element i equals sacreBLEU's `sentence_score(sentence_i, [every other
    sentence]).score`; the mean is the usual corpus-level Self-BLEU (lower: more diverse).

    :param sentences: The sentences (any batch form, as for :func:`sentence_bleu`).
    :param max_order: The largest n-gram order (default 4).
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` or `'add-k'`.
    :param effective_order: Leave out orders without n-grams (default True).
    :param pad_id: The padding ID, or None. It is removed at both edges of every row (left and
        right padding); a pad between other IDs is a token. Any integer, e.g. the labels' -100.
    :param eos_id: The end-of-sequence ID, or None. A row ends at its first `eos_id`: it and
        everything after it are dropped (the ID itself is not scored).
    :returns: A float64 numpy array of one score per sentence.
    :raises TypeError: An input that is not a batch of integer IDs (a float array, None, a
        `bool` among the IDs, a masked array), a non-integer `pad_id` or `eos_id`.
    :raises ValueError: Batches of different sizes, an ID outside 0..2**32-1 after trimming, a
        bad `max_order`, smoothing or `n_threads`.

    >>> from cybleu import ids
    >>> ids.self_bleu([[1, 2, 3, 4], [1, 2, 3, 5], [1, 2, 6, 7]]).round(2).tolist()
    [59.46, 59.46, 31.95]
    """
    max_order, pad_id, eos_id, _ = _check_args(max_order, smooth_method, smooth_value, pad_id,
                                               eos_id, 1)
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    return _scores(self_bleu_stats(sentences, max_order=max_order, pad_id=pad_id,
                                   eos_id=eos_id), bleu)


# -- ROUGE ---------------------------------------------------------------------------------------

def rouge(hyps, refs, *, rouge_types=("rouge1", "rouge2", "rougeL"), pad_id=None, eos_id=None,
          n_threads=1):
    """ROUGE-N and ROUGE-L of every hypothesis against its own references, on token IDs (e.g.
    as RL rewards): rouge-score's numbers with the IDs as the tokens (what
    `RougeScorer(rouge_types, tokenizer=...)` gives for a tokenizer that returns these IDs), the
    best F per type among several references (`score_multi`).

    :param hyps: The hypotheses, in any batch form of :func:`sentence_bleu`.
    :param refs: The references, one or several per hypothesis, as for :func:`sentence_bleu`.
    :param rouge_types: `'rouge1'` ... `'rouge9'` and `'rougeL'` (default rouge1, rouge2,
        rougeL). rougeLsum needs sentences, which IDs do not mark.
    :param pad_id: The padding ID, removed at both edges of every row.
    :param eos_id: The end-of-sequence ID: a row ends at its first one.
    :param n_threads: Count on this many threads, with the GIL released.
    :returns: A dict mapping each type to a `cybleu.rouge_score.scoring.Score` of three float64
        arrays (precision, recall, fmeasure), one value per hypothesis.
    :raises TypeError: An input that is not a batch of integer IDs.
    :raises ValueError: Batches of different sizes, an invalid type (rougeLsum included), a bad
        `n_threads`.

    >>> from cybleu import ids
    >>> scores = ids.rouge([[5, 17, 9, 42, 2, 0]], [[5, 9, 17, 42]], pad_id=0, eos_id=2)
    >>> scores["rouge1"].fmeasure.tolist(), scores["rougeL"].fmeasure.tolist()
    ([1.0], [0.75])
    """
    from ._backend import module
    from .rouge_score import rouge_scorer, scoring
    kinds = rouge_scorer._kinds(rouge_types)
    if isinstance(kinds, Exception):
        raise kinds
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    n_threads = check_threads(n_threads)
    hyp_flat, hyp_offsets, _ = _batch(hyps, "hyps", pad_id, eos_id)
    n = hyp_offsets.size - 1
    ref_flat, ref_offsets, groups = core.read_references(refs, n, pad_id, eos_id)
    scorer = module("rouge").Scorer(kinds, False, scoring.Score)
    work = hyp_flat.size + ref_flat.size
    values = np.frombuffer(scorer.ids_batch(hyp_flat, hyp_offsets, ref_flat, ref_offsets,
                                            np.ascontiguousarray(groups, dtype=np.int64),
                                            _threads_for(work, n_threads)),
                           dtype=np.float64).reshape(n, len(kinds), 3)
    return {key: scoring.Score(*(np.ascontiguousarray(values[:, k, j]) for j in range(3)))
            for k, (key, _, _) in enumerate(kinds)}
