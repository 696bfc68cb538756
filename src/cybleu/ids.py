"""BLEU on token IDs, for training loops: batched sentence BLEU (RL rewards), corpus BLEU without
detokenizing, pairwise matrices (MBR, Self-BLEU) and statistics that add up across workers.

Every score equals sacreBLEU 2.6.0's on the IDs written as whitespace-joined strings with
`tokenize='none'`, bit for bit:

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
           "segment_stats", "corpus_stats", "pairwise_bleu", "self_bleu", "self_bleu_stats"]


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
    """int64 array (batch, 2 + 2 * max_order): [hyp_len, ref_len, correct_1..N, total_1..N] per
    hypothesis, sacreBLEU's segment statistics of the whitespace-joined IDs."""
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, "exp", None, pad_id, eos_id,
                                                       n_threads)
    return core.ids_batch_stats(hyps, refs, max_order, pad_id, eos_id, n_threads)


def corpus_stats(hyps, refs, *, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """The batch's statistics summed: a BLEUStats, to add to other batches' and score."""
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
    """BLEU's sufficient statistics [sys_len, ref_len, correct_1..N, total_1..N] of a corpus.

    Adds with `+` and `sum()`, pickles, and converts to and from an int64 vector (for an
    all-reduce across data-parallel workers); `score()` gives sacreBLEU's corpus BLEU.
    """

    def __init__(self, vector):
        self.vector = _stats_vector(vector)

    @classmethod
    def from_numpy(cls, vector):
        return cls(vector)

    def to_numpy(self):
        return self.vector.copy()

    @property
    def max_order(self):
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
        """sacreBLEU's corpus BLEUScore of these statistics."""
        bleu_math.check_smoothing(smooth_method, smooth_value)
        bleu = _bleu(self.max_order, smooth_method, smooth_value, effective_order)
        return bleu._compute_score_from_stats([int(v) for v in self.vector])


class BLEUAccumulator:
    """Corpus BLEU over an evaluation loop: update(hyps, refs) per batch, compute(), reset()."""

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
        self.stats = BLEUStats(np.zeros(2 + 2 * self.max_order, dtype=np.int64))

    def update(self, hyps, refs):
        """Adds a batch; returns the batch's own statistics."""
        batch = corpus_stats(hyps, refs, max_order=self.max_order, pad_id=self.pad_id,
                             eos_id=self.eos_id, n_threads=self.n_threads)
        self.stats = self.stats + batch
        return batch

    def compute(self):
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
    """Sentence BLEU of every hypothesis against its own references: a float64 array equal to
    sacreBLEU's `BLEU(tokenize='none', ...).sentence_score(hyp, refs).score` per row (defaults:
    exp smoothing and effective order, as `sacrebleu.sentence_bleu`).

    weights: None (uniform, sacreBLEU's BLEU) or one finite, positive weight per order (an
    extension: sacreBLEU has uniform weights only). They are relative: the score is
    `bp * exp(sum(w_n * log p_n) / sum(w_n))` over the orders sacreBLEU uses (with effective
    order, the orders up to the first without n-grams), so `[1, 2, 3, 4]` and `[0.1, 0.2, 0.3,
    0.4]` give the same score, and equal weights give sacreBLEU's numbers bit for bit. Any
    finite positive weights work (they are scaled exactly by a power of two first, so huge ones
    do not overflow and subnormal ones keep their ratios). Zero, negative or non-finite weights
    raise ValueError. (`cybleu.torchmetrics.BLEUScore` follows torchmetrics instead: its weights
    are used as given, without normalization, as torchmetrics' own class does; `cybleu.nltk`
    follows NLTK.)

    Example: `ids.sentence_bleu([[1, 2, 3, 4]], [[1, 2, 3, 5]], weights=[4, 3, 2, 1])`.

    Raises TypeError for an input that is no batch of integer IDs (or a masked array), ValueError
    for an ID outside uint32 after trimming, a bad argument or a segment without references."""
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
    """Corpus BLEU of the batch: the BLEUScore `sacrebleu.corpus_bleu(..., tokenize='none')`
    gives for the whitespace-joined IDs."""
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method, smooth_value,
                                                       pad_id, eos_id, n_threads)
    _bleu(max_order, smooth_method, smooth_value, effective_order)
    return corpus_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                        n_threads=n_threads).score(smooth_method, smooth_value, effective_order)


def pairwise_bleu(hyps, refs=None, *, max_order=4, smooth_method="exp", smooth_value=None,
                  effective_order=True, pad_id=None, eos_id=None, n_threads=1):
    """float64 matrix (len(hyps), len(refs)): sentence BLEU of each hypothesis against each
    reference alone (refs=None: the hypotheses themselves, as in MBR decoding). Element [i, j]
    equals `sentence_bleu([hyps[i]], [refs[j]])[0]`; each sentence's n-grams are counted once."""
    max_order, pad_id, eos_id, n_threads = _check_args(max_order, smooth_method, smooth_value,
                                                       pad_id, eos_id, n_threads)
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    if not _batch_scorable(bleu):
        raise ValueError(f"pairwise_bleu needs a smooth_value in (0, 1e300] for "
                         f"{smooth_method!r}, got {smooth_value!r}")
    hyp_flat, hyp_offsets, _ = _batch(hyps, "hyps", pad_id, eos_id)
    if refs is None:
        ref_flat, ref_offsets = hyp_flat, hyp_offsets
    else:
        ref_flat, ref_offsets, _ = _batch(refs, "refs", pad_id, eos_id)
    return _pair_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order, smooth_method,
                        smooth_value, effective_order, n_threads)


def self_bleu_stats(sentences, *, max_order=4, pad_id=None, eos_id=None):
    """int64 array (n, 2 + 2 * max_order): each sentence's statistics against all the others
    pooled as its references (max count per n-gram over the others, closest other length)."""
    max_order, pad_id, eos_id, _ = _check_args(max_order, "exp", None, pad_id, eos_id, 1)
    flat, offsets, _ = _batch(sentences, "sentences", pad_id, eos_id)
    return core.ids_self_stats(flat, offsets, max_order)


def self_bleu(sentences, *, max_order=4, smooth_method="exp", smooth_value=None,
              effective_order=True, pad_id=None, eos_id=None):
    """Self-BLEU: each sentence's sentence BLEU against all the others as references (float64
    array; its mean is the usual corpus-level Self-BLEU). sacreBLEU sentence semantics: element i
    equals sacreBLEU's sentence_score(sentence i, [every other sentence]).score."""
    max_order, pad_id, eos_id, _ = _check_args(max_order, smooth_method, smooth_value, pad_id,
                                               eos_id, 1)
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    return _scores(self_bleu_stats(sentences, max_order=max_order, pad_id=pad_id,
                                   eos_id=eos_id), bleu)
