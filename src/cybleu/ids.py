"""BLEU on token IDs, for training loops: batched sentence BLEU (RL rewards), corpus BLEU without
detokenizing, pairwise matrices (MBR, Self-BLEU) and statistics that add up across workers.

Every score equals sacreBLEU 2.6.0's on the IDs written as whitespace-joined strings with
`tokenize='none'`, bit for bit:

    from cybleu import ids
    rewards = ids.sentence_bleu(samples, refs, pad_id=0, eos_id=2)   # float64 array, one per row
    score = ids.corpus_bleu(samples, refs, pad_id=0)                 # BLEUScore

Batches: a list of ID sequences; a 2-D integer array (numpy, or anything exposing `__dlpack__`,
`__array__` or the buffer protocol, e.g. a CPU torch tensor), read without a copy when its dtype is
uint32 or non-negative int32 and nothing is trimmed; or `Ragged(flat, offsets)`. References: one per
hypothesis in any of those forms, a 3-D array (batch, n_refs, length), a list holding a list of
references per hypothesis, or `Ragged(flat, offsets, groups)`.
"""
import math

import numpy as np

from . import _math
from ._backend import core
from ._ragged import UINT32_MAX
from .metrics.bleu import BLEU, _plain

__all__ = ["Ragged", "BLEUStats", "BLEUAccumulator", "sentence_bleu", "corpus_bleu",
           "segment_stats", "corpus_stats", "pairwise_bleu", "self_bleu", "self_bleu_stats"]


class Ragged:
    """Rows of IDs stored back to back: row i is flat[offsets[i]:offsets[i + 1]].

    For references, `groups` (optional) gives each hypothesis its references: hypothesis i owns
    rows groups[i]..groups[i + 1] - 1. Without it, row i is hypothesis i's only reference.
    """

    __slots__ = ("flat", "offsets", "groups")

    def __init__(self, flat, offsets, groups=None):
        self.flat, self.offsets, self.groups = flat, offsets, groups

    def __repr__(self):
        return f"Ragged(flat={self.flat!r}, offsets={self.offsets!r}, groups={self.groups!r})"


# -- inputs -> flat uint32 IDs + int64 offsets --------------------------------------------------

def _as_array(x, what):
    """An ndarray view of an array-like (DLPack first: CPU tensors, without a copy)."""
    if isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__dlpack__") and not isinstance(x, (list, tuple)):
        try:
            return np.from_dlpack(x)
        except (TypeError, RuntimeError, BufferError) as err:
            raise TypeError(f"{what}: cannot read this {type(x).__name__} through DLPack "
                            f"({err}); pass a CPU integer tensor or a numpy array") from None
    return np.asarray(x)


def _check_int_dtype(arr, what):
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must hold integer token IDs, got dtype {arr.dtype}")


def _rows_from_list(rows, what):
    """flat array + offsets of a list of ID sequences."""
    lengths = np.zeros(len(rows) + 1, dtype=np.int64)
    parts = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or np.isscalar(row):
            raise TypeError(f"{what}[{i}] must be a sequence of token IDs, got "
                            f"{type(row).__name__}")
        arr = _as_array(row, f"{what}[{i}]")
        if arr.ndim != 1:
            raise ValueError(f"{what}[{i}] must be 1-D, got {arr.ndim} dimensions")
        if arr.size:
            _check_int_dtype(arr, f"{what}[{i}]")
            parts.append(arr)
        lengths[i + 1] = arr.size
    flat = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint32)
    return flat, np.cumsum(lengths)


def _trim(flat, offsets, pad_id, eos_id):
    """Drop pad IDs at both edges of every row and everything from the first eos ID on."""
    if pad_id is None and eos_id is None:
        return flat, offsets
    start, end = offsets[:-1].copy(), offsets[1:].copy()
    if pad_id is not None:
        keep = np.flatnonzero(flat != pad_id)
        first = np.searchsorted(keep, start)
        start = np.where(first < keep.size, keep[np.minimum(first, keep.size - 1)], end)
        start = np.minimum(start, end)
    if eos_id is not None:
        eos = np.flatnonzero(flat == eos_id)
        first = np.searchsorted(eos, start)
        at = eos[np.minimum(first, eos.size - 1)] if eos.size else end
        end = np.where((first < eos.size) & (at < end), at, end)
    if pad_id is not None:
        last = np.searchsorted(keep, end) - 1
        at = keep[np.maximum(last, 0)] if keep.size else start
        end = np.where((last >= 0) & (at >= start), at + 1, start)
        end = np.maximum(end, start)
    if np.array_equal(start, offsets[:-1]) and np.array_equal(end, offsets[1:]):
        return flat, offsets
    lengths = end - start
    new_offsets = np.zeros(offsets.size, dtype=np.int64)
    np.cumsum(lengths, out=new_offsets[1:])
    index = np.arange(new_offsets[-1], dtype=np.int64) + np.repeat(start - new_offsets[:-1],
                                                                   lengths)
    return flat[index], new_offsets


def _check_range(flat, what):
    """Token IDs after trimming must be uint32 values (a negative pad such as -100 is fine
    as long as it was trimmed away)."""
    if flat.size and flat.dtype != np.uint32:
        low, high = int(flat.min()), int(flat.max())
        if low < 0:
            raise ValueError(f"{what} holds a negative token ID ({low}) that is not a trimmed "
                             "pad_id/eos_id")
        if high > UINT32_MAX:
            raise ValueError(f"{what} holds a token ID above 2**32-1 ({high})")


def _batch(x, what, pad_id, eos_id, allow_3d=False):
    """(flat, offsets, rows_per_item): IDs of a batch, trimmed; rows_per_item > 0 for a 3-D
    array (that many rows per batch item), else 0."""
    per_item = 0
    if isinstance(x, Ragged):
        flat = _as_array(x.flat, f"{what}.flat")
        if flat.ndim != 1:
            raise ValueError(f"{what}.flat must be 1-D, got {flat.ndim} dimensions")
        if flat.size:
            _check_int_dtype(flat, f"{what}.flat")
        offsets = np.asarray(x.offsets)
        if offsets.ndim != 1 or offsets.size == 0 or offsets.dtype.kind not in "iu":
            raise ValueError(f"{what}.offsets must be a 1-D integer sequence with at least "
                             "one entry")
        offsets = offsets.astype(np.int64)
        if int(offsets[0]) != 0 or int(offsets[-1]) != flat.size \
                or bool((offsets[1:] < offsets[:-1]).any()):
            raise ValueError(f"{what}.offsets must rise from 0 to len(flat) ({flat.size})")
    elif isinstance(x, (list, tuple)):
        flat, offsets = _rows_from_list(x, what)
    else:
        arr = _as_array(x, what)
        if arr.ndim == 3 and allow_3d:
            per_item = arr.shape[1]
            arr = arr.reshape(arr.shape[0] * arr.shape[1], arr.shape[2])
        if arr.ndim != 2:
            raise ValueError(f"{what} must be a 2-D (batch, length) array"
                             f"{' or a 3-D (batch, n_refs, length) one' if allow_3d else ''}, "
                             f"got {arr.ndim} dimensions")
        if arr.size:
            _check_int_dtype(arr, what)
        rows, length = arr.shape
        flat = arr.reshape(-1)
        offsets = np.arange(rows + 1, dtype=np.int64) * length
    flat, offsets = _trim(flat, offsets, pad_id, eos_id)
    _check_range(flat, what)
    return flat, offsets, per_item


def _is_nested_refs(refs):
    """A list holding, per hypothesis, a list of references (rather than one reference each)."""
    if not isinstance(refs, (list, tuple)):
        return False
    for item in refs:
        if isinstance(item, (list, tuple)):
            for inner in item:
                return not np.isscalar(inner)
        elif not np.isscalar(item) and np.ndim(item) >= 2:
            return True
    return False


def _references(refs, n_hyps, pad_id, eos_id):
    """(flat, offsets, groups) of the references of n_hyps hypotheses."""
    if isinstance(refs, Ragged) and refs.groups is not None:
        flat, offsets, _ = _batch(Ragged(refs.flat, refs.offsets), "refs", pad_id, eos_id)
        groups = np.asarray(refs.groups)
        if groups.ndim != 1 or groups.dtype.kind not in "iu" or groups.size != n_hyps + 1 \
                or int(groups[0]) != 0 or int(groups[-1]) != offsets.size - 1 \
                or bool((groups[1:] < groups[:-1]).any()):
            raise ValueError(f"refs.groups must rise from 0 to the number of reference rows "
                             f"({offsets.size - 1}) in {n_hyps + 1} entries")
        return flat, offsets, groups.astype(np.int64)
    if _is_nested_refs(refs):
        if len(refs) != n_hyps:
            raise ValueError(f"{n_hyps} hypotheses but references for {len(refs)}")
        rows, groups = [], [0]
        for i, item in enumerate(refs):
            if isinstance(item, (list, tuple)):
                rows.extend(item)
            else:
                arr = _as_array(item, f"refs[{i}]")
                rows.extend(arr[k] for k in range(arr.shape[0]))
            groups.append(len(rows))
        flat, offsets, _ = _batch(rows, "refs", pad_id, eos_id)
        return flat, offsets, np.asarray(groups, dtype=np.int64)
    flat, offsets, per_item = _batch(refs, "refs", pad_id, eos_id, allow_3d=True)
    per_item = per_item or 1
    n_items = (offsets.size - 1) // per_item
    if n_items != n_hyps:
        raise ValueError(f"{n_hyps} hypotheses but references for {n_items}")
    return flat, offsets, np.arange(n_hyps + 1, dtype=np.int64) * per_item


def _inputs(hyps, refs, pad_id, eos_id):
    hyp_flat, hyp_offsets, _ = _batch(hyps, "hyps", pad_id, eos_id)
    return (hyp_flat, hyp_offsets) + _references(refs, hyp_offsets.size - 1, pad_id, eos_id)


# -- statistics ---------------------------------------------------------------------------------

def segment_stats(hyps, refs, *, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """int64 array (batch, 2 + 2 * max_order): [hyp_len, ref_len, correct_1..N, total_1..N] per
    hypothesis, sacreBLEU's segment statistics of the whitespace-joined IDs."""
    return core.ids_segment_stats(*_inputs(hyps, refs, pad_id, eos_id), max_order, n_threads)


def corpus_stats(hyps, refs, *, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """The batch's statistics summed: a BLEUStats, to add to other batches' and score."""
    rows = segment_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                         n_threads=n_threads)
    return BLEUStats(rows.sum(axis=0, dtype=np.int64) if rows.shape[0]
                     else np.zeros(2 + 2 * max_order, dtype=np.int64))


class BLEUStats:
    """BLEU's sufficient statistics [sys_len, ref_len, correct_1..N, total_1..N] of a corpus.

    Adds with `+` and `sum()`, pickles, and converts to and from an int64 vector (for an
    all-reduce across data-parallel workers); `score()` gives sacreBLEU's corpus BLEU.
    """

    def __init__(self, vector):
        vec = np.asarray(vector)
        if vec.ndim != 1 or vec.size < 4 or vec.size % 2:
            raise ValueError("BLEU statistics are a 1-D vector of 2 + 2 * max_order integers, "
                             f"got shape {vec.shape}")
        if vec.dtype.kind not in "iu" and not (vec.dtype.kind == "f"
                                               and bool((vec == np.round(vec)).all())):
            raise TypeError(f"BLEU statistics must be integers, got dtype {vec.dtype}")
        self.vector = vec.astype(np.int64)

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
        return BLEUStats(self.vector + other.vector)

    __radd__ = __add__

    def __eq__(self, other):
        return isinstance(other, BLEUStats) and np.array_equal(self.vector, other.vector)

    __hash__ = None

    def __repr__(self):
        return f"BLEUStats({self.vector.tolist()})"

    def score(self, smooth_method="exp", smooth_value=None, effective_order=False):
        """sacreBLEU's corpus BLEUScore of these statistics."""
        bleu = _bleu(self.max_order, smooth_method, smooth_value, effective_order)
        return bleu._compute_score_from_stats([int(v) for v in self.vector])


class BLEUAccumulator:
    """Corpus BLEU over an evaluation loop: update(hyps, refs) per batch, compute(), reset()."""

    def __init__(self, max_order=4, smooth_method="exp", smooth_value=None,
                 effective_order=False, pad_id=None, eos_id=None, n_threads=1):
        _bleu(max_order, smooth_method, smooth_value, effective_order)  # fail early on bad args
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
    return BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                max_ngram_order=max_order, effective_order=effective_order)


def _batch_scorable(bleu):
    """The compiled batch float path reproduces this configuration exactly."""
    sv = bleu.smooth_value
    return bleu.max_ngram_order <= 256 and (bleu.smooth_method in ("none", "exp") or sv is None
                                            or _plain(sv))


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
    """None for uniform weights (sacreBLEU's formula), else the weights as floats."""
    if weights is None:
        return None
    try:
        weights = [float(w) for w in weights]
    except (TypeError, ValueError):
        raise TypeError(f"weights must be a sequence of {max_order} numbers") from None
    if len(weights) != max_order:
        raise ValueError(f"weights must have max_order ({max_order}) entries, got {len(weights)}")
    if not all(math.isfinite(w) and w > 0 for w in weights):
        raise ValueError(f"weights must be finite and positive, got {weights}")
    return None if len(set(weights)) == 1 else weights


def _weighted_score(row, bleu, weights):
    """bp * exp(sum(w_n * log p_n) / sum(w_n)) over the orders sacreBLEU would use, with its
    precisions, smoothing, brevity penalty and effective order; 0 if any of them is 0."""
    N = bleu.max_ngram_order
    correct, total = list(row[2:2 + N]), list(row[2 + N:])
    score, correct, total, precisions, bp = _math.bleu_from_stats(
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

    weights: one positive weight per order (an extension: sacreBLEU has uniform weights only);
    equal weights give sacreBLEU's numbers, bit for bit."""
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
    _bleu(max_order, smooth_method, smooth_value, effective_order)
    return corpus_stats(hyps, refs, max_order=max_order, pad_id=pad_id, eos_id=eos_id,
                        n_threads=n_threads).score(smooth_method, smooth_value, effective_order)


def pairwise_bleu(hyps, refs=None, *, max_order=4, smooth_method="exp", smooth_value=None,
                  effective_order=True, pad_id=None, eos_id=None, n_threads=1):
    """float64 matrix (len(hyps), len(refs)): sentence BLEU of each hypothesis against each
    reference alone (refs=None: the hypotheses themselves, as in MBR decoding). Element [i, j]
    equals `sentence_bleu([hyps[i]], [refs[j]])[0]`; each sentence's n-grams are counted once."""
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    hyp_flat, hyp_offsets, _ = _batch(hyps, "hyps", pad_id, eos_id)
    if refs is None:
        ref_flat, ref_offsets = hyp_flat, hyp_offsets
    else:
        ref_flat, ref_offsets, _ = _batch(refs, "refs", pad_id, eos_id)
    if not _batch_scorable(bleu):
        raise ValueError("pairwise_bleu needs max_order <= 256 and a smooth_value in (0, 1e300]")
    return core.ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order,
                                    smooth_method, smooth_value, effective_order, n_threads)


def self_bleu_stats(sentences, *, max_order=4, pad_id=None, eos_id=None):
    """int64 array (n, 2 + 2 * max_order): each sentence's statistics against all the others
    pooled as its references (max count per n-gram over the others, closest other length)."""
    flat, offsets, _ = _batch(sentences, "sentences", pad_id, eos_id)
    return core.ids_self_stats(flat, offsets, max_order)


def self_bleu(sentences, *, max_order=4, smooth_method="exp", smooth_value=None,
              effective_order=True, pad_id=None, eos_id=None):
    """Self-BLEU: each sentence's sentence BLEU against all the others as references (float64
    array; its mean is the usual corpus-level Self-BLEU). sacreBLEU sentence semantics: element i
    equals sacreBLEU's sentence_score(sentence i, [every other sentence]).score."""
    bleu = _bleu(max_order, smooth_method, smooth_value, effective_order)
    return _scores(self_bleu_stats(sentences, max_order=max_order, pad_id=pad_id,
                                   eos_id=eos_id), bleu)
