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
import operator
from collections.abc import Iterator

import numpy as np

from . import _math
from ._backend import core
from ._ragged import UINT32_MAX, as_ids, check_threads, no_reference_error
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


# -- argument checks (one function per check; both backends see only checked values) ---------

def _describe(x):
    """What was passed, for error messages: the type and a short repr."""
    if isinstance(x, np.ndarray):
        return f"a numpy array of shape {x.shape} and dtype {x.dtype}"
    text = repr(x)
    return f"{type(x).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def _check_token_arg(value, name):
    """pad_id / eos_id: None or one integer ID (any integer, e.g. -100, is allowed: it is
    compared with the IDs, never scored)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be one integer token ID or None, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be one integer token ID or None, got "
                        f"{_describe(value)}") from None
    if not -2**63 <= value <= 2**64 - 1:
        raise ValueError(f"{name} must fit in 64 bits, got {value}")
    return value


def _check_args(max_order, smooth_method, smooth_value, pad_id, eos_id, n_threads):
    """Every scalar argument of the ids functions, checked once: (max_order, pad_id, eos_id,
    n_threads) as plain ints."""
    max_order = _math.check_max_order(max_order)
    _math.check_smoothing(smooth_method, smooth_value)
    return (max_order, _check_token_arg(pad_id, "pad_id"), _check_token_arg(eos_id, "eos_id"),
            check_threads(n_threads))


# -- inputs -> flat uint32 IDs + int64 offsets --------------------------------------------------

_BATCH_FORMS = ("a list of ID sequences, a 2-D integer array or tensor (batch, length), or "
                "ids.Ragged(flat, offsets)")


def _not_a_batch(x, what):
    """The TypeError for an input that is no batch of IDs at all, saying what would be."""
    if x is None:
        return TypeError(f"{what} is None; expected {_BATCH_FORMS}")
    if isinstance(x, (str, bytes)):
        return TypeError(f"{what} is {_describe(x)}, text rather than token IDs; expected "
                         f"{_BATCH_FORMS} (score text with cybleu.corpus_bleu or "
                         "cybleu.sentence_bleu, or tokenize it to IDs first)")
    if isinstance(x, Iterator):
        return TypeError(f"{what} is a {type(x).__name__}, which can be read only once; pass a "
                         f"list (e.g. list({what})) or an array: {_BATCH_FORMS}")
    return TypeError(f"{what} is {_describe(x)}; expected {_BATCH_FORMS}")


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
    try:
        return np.asarray(x)
    except (ValueError, TypeError) as err:   # e.g. rows of different lengths in a tuple of arrays
        raise TypeError(f"{what}: cannot read {type(x).__name__} as an array ({err}); pass "
                        f"{_BATCH_FORMS}") from None


def _check_int_dtype(arr, what):
    """A TypeError (ValueError for an integer too large for numpy) naming the first element that
    is not an integer token ID."""
    if arr.dtype.kind in "iu":
        return
    if arr.dtype.kind == "O":
        for k, v in enumerate(arr.reshape(-1).tolist()):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{what} must hold integer token IDs; element {k} is "
                                f"{_describe(v)}")
            if not 0 <= v <= UINT32_MAX:   # numpy keeps ints beyond 64 bits as objects
                raise ValueError(f"{what} holds a token ID outside 0..2**32-1 ({v})")
    raise TypeError(f"{what} must hold integer token IDs, got dtype {arr.dtype}")


def _row_array(row, what):
    """One row of a list batch as a 1-D integer array."""
    if row is None or isinstance(row, (str, bytes)) or np.isscalar(row) \
            or isinstance(row, Iterator):
        hint = " (one sequence? wrap it: [ids])" if np.isscalar(row) and \
            not isinstance(row, (str, bytes)) else " (pass a list)" \
            if isinstance(row, Iterator) else ""
        raise TypeError(f"{what} must be a sequence of token IDs, got {_describe(row)}{hint}")
    try:
        arr = _as_array(row, what)
    except TypeError:    # sequences of different lengths inside the row
        raise TypeError(f"{what} must be a flat sequence of token IDs, got {_describe(row)}") \
            from None
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-D, got {arr.ndim} dimensions")
    if arr.size:
        _check_int_dtype(arr, what)
    return arr


def _rows_from_list(rows, what, labels=None):
    """flat array + offsets of a list of ID sequences (row i is called labels[i] in errors,
    default what[i])."""
    lengths = np.zeros(len(rows) + 1, dtype=np.int64)
    parts, where = [], []
    for i, row in enumerate(rows):
        arr = _row_array(row, labels[i] if labels else f"{what}[{i}]")
        if arr.size:
            parts.append(arr)
            where.append(i)
        lengths[i + 1] = arr.size
    if not parts:
        return np.zeros(0, dtype=np.uint32), np.cumsum(lengths)
    if len({p.dtype for p in parts}) > 1:
        # numpy would promote e.g. int8 with uint64 to float64: go through int64 instead, after
        # naming a row whose IDs int64 cannot hold
        for i, p in zip(where, parts):
            if p.dtype == np.uint64 and int(p.max()) > 2**63 - 1:
                raise ValueError(f"{labels[i] if labels else f'{what}[{i}]'} holds a token ID "
                                 f"above 2**32-1 ({int(p.max())})")
        return np.concatenate(parts, dtype=np.int64, casting="unsafe"), np.cumsum(lengths)
    return np.concatenate(parts), np.cumsum(lengths)


def _trim(flat, offsets, pad_id, eos_id):
    """Drop pad IDs at both edges of every row and everything from the first eos ID on (a row
    of nothing but pads, or starting with eos, becomes empty)."""
    if pad_id is None and eos_id is None:
        return flat, offsets
    start, end = offsets[:-1], offsets[1:]
    if pad_id is not None:
        keep = np.flatnonzero(flat != pad_id)
        # first non-pad position at or after each row's start (flat.size when there is none)
        start = np.minimum(np.append(keep, flat.size)[np.searchsorted(keep, start)], end)
    if eos_id is not None:
        eos = np.flatnonzero(flat == eos_id)
        end = np.minimum(end, np.append(eos, flat.size)[np.searchsorted(eos, start)])
    if pad_id is not None:
        # last non-pad position before each row's end (-1 when there is none)
        last = np.insert(keep, 0, -1)[np.searchsorted(keep, end)]
        end = np.where(last >= start, last + 1, start)
    if np.array_equal(start, offsets[:-1]) and np.array_equal(end, offsets[1:]):
        return flat, offsets
    lengths = end - start
    new_offsets = np.zeros(offsets.size, dtype=np.int64)
    np.cumsum(lengths, out=new_offsets[1:])
    index = np.arange(new_offsets[-1], dtype=np.int64) + np.repeat(start - new_offsets[:-1],
                                                                   lengths)
    return flat[index], new_offsets


def _check_range(flat, what):
    """The trimmed IDs as uint32 (without a copy when they are uint32 or non-negative int32);
    they must be uint32 values (a negative pad such as -100 is fine as long as it was trimmed
    away)."""
    if flat.size and flat.dtype != np.uint32:
        low, high = int(flat.min()), int(flat.max())
        if low < 0:
            raise ValueError(f"{what} holds a negative token ID ({low}) that is not a trimmed "
                             "pad_id/eos_id")
        if high > UINT32_MAX:
            raise ValueError(f"{what} holds a token ID above 2**32-1 ({high})")
    return as_ids(flat, what)


def _ragged_layout(x, what):
    """flat + int64 offsets of an ids.Ragged, checked."""
    flat = None if x.flat is None else _as_array(x.flat, f"{what}.flat")
    if flat is None or flat.ndim == 0:
        raise TypeError(f"{what}.flat must be a 1-D sequence of token IDs, got "
                        f"{_describe(x.flat)}")
    if flat.ndim != 1:
        raise ValueError(f"{what}.flat must be 1-D, got {flat.ndim} dimensions")
    if flat.size:
        _check_int_dtype(flat, f"{what}.flat")
    offsets = None if x.offsets is None else np.asarray(x.offsets)
    if offsets is None or offsets.ndim != 1 or offsets.size == 0:
        raise ValueError(f"{what}.offsets must be a 1-D integer sequence with at least "
                         f"one entry, got {_describe(x.offsets)}")
    if offsets.dtype.kind not in "iu":
        raise TypeError(f"{what}.offsets must hold integers, got dtype {offsets.dtype}")
    if offsets.dtype == np.uint64 and int(offsets.max()) > flat.size:
        raise ValueError(f"{what}.offsets must rise from 0 to len(flat) ({flat.size})")
    offsets = offsets.astype(np.int64)
    if int(offsets[0]) != 0 or int(offsets[-1]) != flat.size \
            or bool((offsets[1:] < offsets[:-1]).any()):
        raise ValueError(f"{what}.offsets must rise from 0 to len(flat) ({flat.size})")
    return flat, offsets


def _batch(x, what, pad_id, eos_id, allow_3d=False):
    """(flat, offsets, rows_per_item): IDs of a batch, trimmed, as uint32; rows_per_item > 0 for
    a 3-D array (that many rows per batch item), else 0."""
    per_item = 0
    if isinstance(x, Ragged):
        flat, offsets = _ragged_layout(x, what)
    elif isinstance(x, (list, tuple)):
        flat, offsets = _rows_from_list(x, what)
    elif x is None or isinstance(x, (str, bytes, Iterator)):
        raise _not_a_batch(x, what)
    else:
        arr = _as_array(x, what)
        if arr.ndim == 1 and arr.dtype == object:
            # e.g. a pandas Series or an object array holding one sequence per row
            flat, offsets = _rows_from_list(arr.tolist(), what)
            return _finish(flat, offsets, what, pad_id, eos_id, 0)
        if arr.ndim == 0:
            raise _not_a_batch(x, what)
        if arr.ndim == 3 and allow_3d:
            per_item = arr.shape[1]
            arr = arr.reshape(arr.shape[0] * arr.shape[1], arr.shape[2])
        if arr.ndim != 2:
            hint = " (one sequence? wrap it: [ids] or ids[None, :])" if arr.ndim == 1 else ""
            raise ValueError(f"{what} must be a 2-D (batch, length) array"
                             f"{' or a 3-D (batch, n_refs, length) one' if allow_3d else ''}, "
                             f"got {arr.ndim} dimensions{hint}")
        if arr.size:
            _check_int_dtype(arr, what)
        rows, length = arr.shape
        flat = arr.reshape(-1)
        offsets = np.arange(rows + 1, dtype=np.int64) * length
    return _finish(flat, offsets, what, pad_id, eos_id, per_item)


def _finish(flat, offsets, what, pad_id, eos_id, per_item):
    flat, offsets = _trim(flat, offsets, pad_id, eos_id)
    return _check_range(flat, what), offsets, per_item


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
        rows, labels, groups = [], [], [0]
        for i, item in enumerate(refs):
            if not isinstance(item, (list, tuple)):
                arr = None if item is None or isinstance(item, (str, bytes)) \
                    else _as_array(item, f"refs[{i}]")
                if arr is None or arr.ndim != 2:
                    raise TypeError(f"refs[{i}] must be a list of reference ID sequences or a "
                                    f"2-D array (n_refs, length), got {_describe(item)}")
                item = list(arr)
            rows.extend(item)
            labels.extend(f"refs[{i}][{k}]" for k in range(len(item)))
            groups.append(len(rows))
        flat, offsets = _rows_from_list(rows, "refs", labels)
        flat, offsets, _ = _finish(flat, offsets, "refs", pad_id, eos_id, 0)
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


# -- calling the core ----------------------------------------------------------------------------
# The compiled core splits a batch across its threads itself and checks for Ctrl-C between bounded
# steps of every thread (_workspace.run_jobs), so a batch of any size is one call.

#: less work than this per thread (n-grams + rows), and one more thread costs more to start than
#: it saves
MIN_THREAD_WORK = 1 << 15


def _threads_for(work, n_threads):
    """n_threads capped at the work available (MIN_THREAD_WORK per thread, at least one); one
    thread for the pure-Python twin, where threads cannot run in parallel."""
    if core.__name__.endswith("_py"):
        return 1
    return max(1, min(n_threads, int(work) // MIN_THREAD_WORK))


def _segment_rows(hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, max_order, n_threads):
    """core.ids_segment_stats of the checked layout."""
    missing = np.flatnonzero((np.diff(hyp_offsets) > 0) & (np.diff(groups) == 0))
    if missing.size:
        raise no_reference_error(int(missing[0]))
    # a segment's work: its n-grams (hypothesis and references) and its row
    work = int(((np.diff(hyp_offsets) + np.diff(ref_offsets[groups])) * max_order + 1).sum())
    return core.ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups,
                                  max_order, _threads_for(work, n_threads))


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
    return _segment_rows(*_inputs(hyps, refs, pad_id, eos_id), max_order, n_threads)


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
    vec = np.asarray(vector)
    if vec.ndim == 0:
        raise TypeError("BLEU statistics are a 1-D vector of 2 + 2 * max_order integers, got "
                        f"{_describe(vector)}")
    if vec.ndim != 1 or vec.size < 4 or vec.size % 2:
        raise ValueError("BLEU statistics are a 1-D vector of 2 + 2 * max_order integers, "
                         f"got shape {vec.shape}")
    _math.check_max_order((vec.size - 2) // 2, "the statistics' max order")
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
        _math.check_smoothing(smooth_method, smooth_value)
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
    _math.check_max_order(max_order)
    _math.check_smoothing(smooth_method, smooth_value)
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
    """None for uniform weights (sacreBLEU's formula), else the weights as floats."""
    if weights is None:
        return None
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
