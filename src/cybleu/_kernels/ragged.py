"""The ragged layout of token-ID batches (flat IDs + offsets), checked once for both cores.

Both `_core.ids_segment_stats` and its twin call `check_layout` first, so they accept the same
inputs and raise the same errors; the compiled loops then trust the offsets. The scalar checks
every ID function shares (pad_id/eos_id, n_threads and its cap) live here too.
"""
import math
import numbers
import operator
import sys

import numpy as np

from .._scoring.bleu import check_max_order

UINT32_MAX = 2**32 - 1
#: the most threads one call starts: a larger n_threads is capped here (the result does not depend
#: on the thread count, so capping only bounds the cost of starting threads)
MAX_THREADS = 256
#: less work than this per thread (n-grams + rows), and one more thread costs more to start than
#: it saves
MIN_THREAD_WORK = 1 << 15
#: IDs checked, converted or trimmed this many at a time: numpy never looks at Ctrl-C inside one
#: operation, and the interpreter does between two (a block takes about a millisecond)
BLOCK = 1 << 20


class Ragged:
    """A batch of rows of IDs stored back to back, as a training loop may hold them: row i is
    `flat[offsets[i]:offsets[i + 1]]`.

    :param flat: Every row's IDs, one after the other (a 1-D integer array).
    :param offsets: `n_rows + 1` increasing positions in `flat`, starting at 0.
    :param groups: For references only, optional: hypothesis i owns reference rows
        `groups[i]` to `groups[i + 1] - 1` (`n_hyps + 1` positions). Without it, row i is
        hypothesis i's only reference.

    The arrays are checked when the batch is read (a `ValueError` for offsets that do not fit).

    >>> import numpy as np
    >>> from cybleu import ids
    >>> hyps = ids.Ragged(np.array([5, 17, 9, 42, 5, 17, 8]), np.array([0, 4, 7]))
    >>> refs = ids.Ragged(np.array([5, 17, 9, 42, 5, 17, 9, 1, 5, 17]), np.array([0, 4, 7, 10]),
    ...                   groups=np.array([0, 1, 3]))
    >>> ids.sentence_bleu(hyps, refs).round(2).tolist()
    [100.0, 55.03]
    """

    __slots__ = ("flat", "offsets", "groups")

    def __init__(self, flat, offsets, groups=None):
        self.flat, self.offsets, self.groups = flat, offsets, groups

    def __repr__(self):
        return f"Ragged(flat={self.flat!r}, offsets={self.offsets!r}, groups={self.groups!r})"


Ragged.__module__ = "cybleu.ids"     # its public home


def describe(x):
    """What was passed, for error messages: the type and a short repr."""
    if isinstance(x, np.ndarray):
        return f"a numpy array of shape {x.shape} and dtype {x.dtype}"
    text = repr(x)
    return f"{type(x).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def check_token_arg(value, name):
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
                        f"{describe(value)}") from None
    if not -2**63 <= value <= 2**64 - 1:
        raise ValueError(f"{name} must fit in 64 bits, got {value}")
    return value


def threads_for(work, n_threads):
    """n_threads capped at the work available: MIN_THREAD_WORK per thread, at least one."""
    return max(1, min(n_threads, int(work) // MIN_THREAD_WORK))


def masked_error(what):
    """The TypeError for a numpy masked array: a mask has no one meaning for n-grams (masked
    entries inside a row would join their neighbours into n-grams that never occurred), so the
    caller says what it means."""
    return TypeError(f"{what} is a numpy masked array, and its mask has no one meaning for "
                     f"token IDs; fill the masked entries with a pad ID and trim it "
                     f"(`x.filled(pad)` with pad_id=pad), or pass the kept IDs of each row "
                     f"(`[row.compressed() for row in x]`)")


def check_not_masked(x, what):
    """A TypeError for a numpy masked array (numpy.asarray would silently drop its mask)."""
    ma = sys.modules.get("numpy.ma")     # no masked array can exist before numpy.ma is imported
    if ma is not None and isinstance(x, ma.MaskedArray):
        raise masked_error(what)


def to_uint32(arr, what, negative_note=""):
    """A 1-D integer array as a contiguous uint32 array in the machine's byte order: `arr` itself
    when it is one, a view when it is non-negative int32 of that byte order, else a converted
    copy (byte-swapped when its byte order is not the machine's). Every ID must be a uint32 value
    (a ValueError names the lowest negative one, else the highest too large). Works BLOCK IDs at
    a time, so that Ctrl-C lands between blocks on an array of any size."""
    native = arr.dtype.isnative
    if arr.dtype == np.uint32 and native and arr.flags.c_contiguous:
        return arr
    n = arr.size
    if arr.dtype.kind == "i" or arr.dtype.itemsize > 4:
        low = high = 0
        for start in range(0, n, BLOCK):
            part = arr[start:start + BLOCK]
            low, high = min(low, int(part.min())), max(high, int(part.max()))
        if low < 0:
            raise ValueError(f"{what} holds a negative token ID ({low}){negative_note}")
        if high > UINT32_MAX:
            raise ValueError(f"{what} holds a token ID above 2**32-1 ({high})")
    if native and arr.dtype.itemsize == 4 and arr.flags.c_contiguous:
        return arr.view(np.uint32)    # non-negative int32: the same bits, no copy
    out = np.empty(n, dtype=np.uint32)
    for start in range(0, n, BLOCK):
        out[start:start + BLOCK] = arr[start:start + BLOCK]
    return out


def as_ids(flat, what):
    """`flat` as a contiguous 1-D uint32 array, without copying when it already is one."""
    check_not_masked(flat, what)
    arr = np.asarray(flat)
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-D, got {arr.ndim} dimensions")
    if arr.size == 0:
        return np.zeros(0, dtype=np.uint32)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must hold integer token IDs, got dtype {arr.dtype}")
    return to_uint32(arr, what)


def as_offsets(offsets, size, what):
    """`offsets` as a contiguous int64 array of at least one non-decreasing entry in 0..size."""
    check_not_masked(offsets, what)
    arr = np.asarray(offsets)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{what} must be a 1-D sequence with at least one entry")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{what} must hold integers, got dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and int(arr.max()) > size:
        raise ValueError(f"{what} points past the end ({int(arr.max())} > {size})")
    arr = np.ascontiguousarray(arr, dtype=np.int64)
    if int(arr[0]) < 0 or int(arr[-1]) > size:
        raise ValueError(f"{what} must stay within 0..{size}, got {int(arr[0])}..{int(arr[-1])}")
    if arr.size > 1 and bool((arr[1:] < arr[:-1]).any()):
        raise ValueError(f"{what} must be non-decreasing")
    return arr


def check_layout(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order,
                 n_threads):
    """The five arrays of ids_segment_stats, checked and converted (uint32 IDs, int64 offsets)."""
    max_order = check_max_order(max_order)
    n_threads = check_threads(n_threads)
    hyp_flat = as_ids(hyp_flat, "hyp_flat")
    ref_flat = as_ids(ref_flat, "ref_flat")
    hyp_offsets = as_offsets(hyp_offsets, hyp_flat.size, "hyp_offsets")
    ref_offsets = as_offsets(ref_offsets, ref_flat.size, "ref_offsets")
    seg_ref_offsets = as_offsets(seg_ref_offsets, ref_offsets.size - 1, "seg_ref_offsets")
    if seg_ref_offsets.size != hyp_offsets.size:
        raise ValueError(f"{hyp_offsets.size - 1} hypotheses but seg_ref_offsets describes "
                         f"{seg_ref_offsets.size - 1} segments")
    return hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, n_threads


def check_threads(n_threads):
    """n_threads as an int in 1..MAX_THREADS (larger values are capped), or a ValueError."""
    if isinstance(n_threads, bool) or not isinstance(n_threads, numbers.Integral) \
            or n_threads < 1:
        raise ValueError(f"n_threads must be an integer of at least 1, got {n_threads!r}")
    return min(int(n_threads), MAX_THREADS)


def no_reference_error(segment):
    return ValueError(f"segment {segment} has a non-empty hypothesis but no reference")


def check_sentences(flat, offsets, prefix):
    """One set of sentences (flat IDs + offsets), rebased so that offsets start at 0."""
    flat = as_ids(flat, f"{prefix}_flat" if prefix else "flat")
    offsets = as_offsets(offsets, flat.size, f"{prefix}_offsets" if prefix else "offsets")
    return flat[offsets[0]:offsets[-1]], offsets - offsets[0]


def check_scoring(max_order, smooth_method, smooth_value, n_threads):
    """The smoothing value as a float for the compiled float path, after the checks that keep it
    bit-identical to sacreBLEU's (the same ones as bleu_scores_from_stats)."""
    check_layout([], [0], [], [0], [0], max_order, n_threads)
    if max_order > 256:   # the compiled float path's per-order arrays (MAX_ORDER_LIMIT is 256)
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if smooth_method not in ("none", "floor", "add-k", "exp"):
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
    if smooth_method in ("floor", "add-k"):
        if smooth_value is None:
            return 0.1 if smooth_method == "floor" else 1.0
        if not (math.isfinite(smooth_value) and 0.0 < smooth_value <= 1e300):
            raise ValueError("smooth_value must be finite and in (0, 1e300] for batch scoring")
        return float(smooth_value)
    return 0.0
