"""Token-ID batches as the core reads them (pure-Python twin of `idrows`, and its specification).

A batch (a list of ID sequences, a 2-D array or tensor, an `ids.Ragged`) becomes flat uint32 IDs
and int64 offsets, each row trimmed (pad_id at both edges, everything from eos_id on) and every
kept ID checked to be a uint32 value. A list row is read the obvious way, as `np.asarray(row)`
reads it, so a list and the array numpy makes of it give the same IDs and the same errors.

The compiled `idrows` reads lists of ints (and of numpy integer scalars, and of 1-D integer
buffers) itself and hands everything else to these functions, so the two agree by construction
on the rare inputs; a test compares them on the common ones.
"""
from collections.abc import Iterator

import numpy as np

from .ragged import (BLOCK, UINT32_MAX, Ragged, check_not_masked, check_token_arg, describe,
                     to_uint32)

__all__ = ["read_batch", "read_references"]

BATCH_FORMS = ("a list of ID sequences, a 2-D integer array or tensor (batch, length), or "
               "ids.Ragged(flat, offsets)")


def read_batch(x, what, pad_id=None, eos_id=None):
    """(flat, offsets) of the batch `x`, called `what` in errors: trimmed uint32 IDs back to back
    (without a copy when they are uint32 or non-negative int32 and nothing is trimmed) and int64
    offsets, row i being flat[offsets[i]:offsets[i + 1]]."""
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    flat, offsets, _ = batch(x, what, pad_id, eos_id, finish)
    return flat, offsets


def read_references(refs, n_hyps, pad_id=None, eos_id=None):
    """(flat, offsets, groups) of the references of n_hyps hypotheses: reference rows as
    read_batch gives them, hypothesis i owning rows groups[i]..groups[i + 1] - 1. `refs` is one
    reference per hypothesis (any batch form), a 3-D (batch, n_refs, length) array, a list holding
    a list (or 2-D array) of references per hypothesis, or ids.Ragged(flat, offsets, groups)."""
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    return references(refs, n_hyps, pad_id, eos_id, finish)


def references(refs, n_hyps, pad_id, eos_id, finish):
    """read_references with checked pad_id/eos_id, the rows finished by `finish` (this module's
    own, or the compiled reader's, which defers to it on anything it does not reproduce)."""
    if isinstance(refs, Ragged) and refs.groups is not None:
        flat, offsets, _ = batch(Ragged(refs.flat, refs.offsets), "refs", pad_id, eos_id, finish)
        check_not_masked(refs.groups, "refs.groups")
        groups = np.asarray(refs.groups)
        if groups.ndim != 1 or groups.dtype.kind not in "iu" or groups.size != n_hyps + 1 \
                or int(groups[0]) != 0 or int(groups[-1]) != offsets.size - 1 \
                or bool((groups[1:] < groups[:-1]).any()):
            raise ValueError(f"refs.groups must rise from 0 to the number of reference rows "
                             f"({offsets.size - 1}) in {n_hyps + 1} entries")
        return flat, offsets, groups.astype(np.int64)
    if is_nested_refs(refs):
        if len(refs) != n_hyps:
            raise ValueError(f"{n_hyps} hypotheses but references for {len(refs)}")
        rows, labels, groups = [], [], [0]
        for i, item in enumerate(refs):
            if not isinstance(item, (list, tuple)):
                arr = None if item is None or isinstance(item, (str, bytes)) \
                    else as_array(item, f"refs[{i}]")
                if arr is None or arr.ndim != 2:
                    raise TypeError(f"refs[{i}] must be a list of reference ID sequences or a "
                                    f"2-D array (n_refs, length), got {describe(item)}")
                item = list(arr)
            rows.extend(item)
            labels.extend(f"refs[{i}][{k}]" for k in range(len(item)))
            groups.append(len(rows))
        flat, offsets = rows_from_list(rows, "refs", labels)
        flat, offsets, _ = finish(flat, offsets, "refs", pad_id, eos_id, 0)
        return flat, offsets, np.asarray(groups, dtype=np.int64)
    flat, offsets, per_item = batch(refs, "refs", pad_id, eos_id, finish, allow_3d=True)
    per_item = per_item or 1
    n_items = (offsets.size - 1) // per_item
    if n_items != n_hyps:
        raise ValueError(f"{n_hyps} hypotheses but references for {n_items}")
    return flat, offsets, np.arange(n_hyps + 1, dtype=np.int64) * per_item


# -- the steps ----------------------------------------------------------------------------------

def not_a_batch(x, what):
    """The TypeError for an input that is no batch of IDs at all, saying what would be."""
    if x is None:
        return TypeError(f"{what} is None; expected {BATCH_FORMS}")
    if isinstance(x, (str, bytes)):
        return TypeError(f"{what} is {describe(x)}, text rather than token IDs; expected "
                         f"{BATCH_FORMS} (score text with cybleu.corpus_bleu or "
                         "cybleu.sentence_bleu, or tokenize it to IDs first)")
    if isinstance(x, Iterator):
        return TypeError(f"{what} is a {type(x).__name__}, which can be read only once; pass a "
                         f"list (e.g. list({what})) or an array: {BATCH_FORMS}")
    return TypeError(f"{what} is {describe(x)}; expected {BATCH_FORMS}")


def as_array(x, what):
    """An ndarray view of an array-like (DLPack first: CPU tensors, without a copy); a masked
    array is refused (numpy.asarray would drop its mask)."""
    check_not_masked(x, what)
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
                        f"{BATCH_FORMS}") from None


def is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_int_dtype(arr, what):
    """A TypeError (ValueError for an integer too large for numpy) naming the first element that
    is not an integer token ID."""
    if arr.dtype.kind in "iu":
        return
    if arr.dtype.kind == "O":
        for k, v in enumerate(arr.reshape(-1).tolist()):
            if not is_int(v):
                raise TypeError(f"{what} must hold integer token IDs; element {k} is "
                                f"{describe(v)}")
            if not 0 <= v <= UINT32_MAX:   # numpy keeps ints beyond 64 bits as objects
                raise ValueError(f"{what} holds a token ID outside 0..2**32-1 ({v})")
    raise TypeError(f"{what} must hold integer token IDs, got dtype {arr.dtype}")


def int_row(row, arr, what):
    """A list row that numpy read as something other than integers (it makes float64 of ints of
    both signs beyond int64, e.g. [-1, 2**63], and of int64 with uint64 scalars): an int64 (or
    uint64) array of its IDs when every item is an integer, else the TypeError naming the first
    item that is not."""
    for k, v in enumerate(row):
        if not is_int(v):
            raise TypeError(f"{what} must hold integer token IDs, got dtype {arr.dtype} "
                            f"(element {k} is {describe(v)})")
    values = [int(v) for v in row]
    low, high = min(values), max(values)
    if low >= -2**63 and high < 2**63:
        return np.array(values, dtype=np.int64)
    if low >= 0 and high < 2**64:
        return np.array(values, dtype=np.uint64)
    # IDs of both signs that no 64-bit integer type holds together: not all of them are
    # uint32 values, whatever is trimmed
    bad = high if high > UINT32_MAX else low
    raise ValueError(f"{what} holds a token ID outside 0..2**32-1 ({bad})")


def row_array(row, what):
    """One row of a list batch as a 1-D integer array."""
    if row is None or isinstance(row, (str, bytes)) or np.isscalar(row) \
            or isinstance(row, Iterator):
        hint = " (one sequence? wrap it: [ids])" if np.isscalar(row) and \
            not isinstance(row, (str, bytes)) else " (pass a list)" \
            if isinstance(row, Iterator) else ""
        raise TypeError(f"{what} must be a sequence of token IDs, got {describe(row)}{hint}")
    check_not_masked(row, what)
    try:
        arr = as_array(row, what)
    except TypeError:    # sequences of different lengths inside the row
        raise TypeError(f"{what} must be a flat sequence of token IDs, got {describe(row)}") \
            from None
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-D, got {arr.ndim} dimensions")
    if arr.size:
        if isinstance(row, (list, tuple)) and arr.dtype.kind in "fc":
            return int_row(row, arr, what)
        check_int_dtype(arr, what)
        if isinstance(row, (list, tuple)) and arr.dtype.kind != "b":
            check_no_bools(row, what)
    return arr


def check_no_bools(row, what):
    """numpy reads True among ints as the ID 1: a bool is no token ID, wherever it stands."""
    for k, v in enumerate(row):
        if isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{what} must hold integer token IDs; element {k} is {describe(v)}")


def rows_from_list(rows, what, labels=None):
    """flat array + offsets of a list of ID sequences (row i is called labels[i] in errors,
    default what[i])."""
    lengths = np.zeros(len(rows) + 1, dtype=np.int64)
    parts, where = [], []
    for i, row in enumerate(rows):
        arr = row_array(row, labels[i] if labels else f"{what}[{i}]")
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


def trim(flat, offsets, pad_id, eos_id):
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


def check_range(flat, what):
    """The trimmed IDs as uint32 (without a copy when they are uint32 or non-negative int32 in
    the machine's byte order); they must be uint32 values (a negative pad such as -100 is fine as
    long as it was trimmed away)."""
    if not flat.size:
        return np.zeros(0, dtype=np.uint32)
    return to_uint32(flat, what, " that is not a trimmed pad_id/eos_id")


def ragged_layout(x, what):
    """flat + int64 offsets of an ids.Ragged, checked."""
    flat = None if x.flat is None else as_array(x.flat, f"{what}.flat")
    if flat is None or flat.ndim == 0:
        raise TypeError(f"{what}.flat must be a 1-D sequence of token IDs, got "
                        f"{describe(x.flat)}")
    if flat.ndim != 1:
        raise ValueError(f"{what}.flat must be 1-D, got {flat.ndim} dimensions")
    if flat.size:
        check_int_dtype(flat, f"{what}.flat")
    check_not_masked(x.offsets, f"{what}.offsets")
    offsets = None if x.offsets is None else np.asarray(x.offsets)
    if offsets is None or offsets.ndim != 1 or offsets.size == 0:
        raise ValueError(f"{what}.offsets must be a 1-D integer sequence with at least "
                         f"one entry, got {describe(x.offsets)}")
    if offsets.dtype.kind not in "iu":
        raise TypeError(f"{what}.offsets must hold integers, got dtype {offsets.dtype}")
    if offsets.dtype == np.uint64 and int(offsets.max()) > flat.size:
        raise ValueError(f"{what}.offsets must rise from 0 to len(flat) ({flat.size})")
    offsets = offsets.astype(np.int64)
    if int(offsets[0]) != 0 or int(offsets[-1]) != flat.size \
            or bool((offsets[1:] < offsets[:-1]).any()):
        raise ValueError(f"{what}.offsets must rise from 0 to len(flat) ({flat.size})")
    return flat, offsets


def batch(x, what, pad_id, eos_id, finish, allow_3d=False):
    """(flat, offsets, rows_per_item): IDs of a batch, trimmed by `finish` (see references), as
    uint32; rows_per_item > 0 for a 3-D array (that many rows per batch item), else 0."""
    per_item = 0
    if isinstance(x, Ragged):
        flat, offsets = ragged_layout(x, what)
    elif isinstance(x, (list, tuple)):
        flat, offsets = rows_from_list(x, what)
    elif x is None or isinstance(x, (str, bytes, Iterator)):
        raise not_a_batch(x, what)
    else:
        arr = as_array(x, what)
        if arr.ndim == 1 and arr.dtype == object:
            # e.g. a pandas Series or an object array holding one sequence per row
            flat, offsets = rows_from_list(arr.tolist(), what)
            return finish(flat, offsets, what, pad_id, eos_id, 0)
        if arr.ndim == 0:
            raise not_a_batch(x, what)
        if arr.ndim == 3 and allow_3d:
            per_item = arr.shape[1]
            arr = arr.reshape(arr.shape[0] * arr.shape[1], arr.shape[2])
        if arr.ndim != 2:
            hint = " (one sequence? wrap it: [ids] or ids[None, :])" if arr.ndim == 1 else ""
            raise ValueError(f"{what} must be a 2-D (batch, length) array"
                             f"{' or a 3-D (batch, n_refs, length) one' if allow_3d else ''}, "
                             f"got {arr.ndim} dimensions{hint}")
        if arr.size:
            check_int_dtype(arr, what)
        rows, length = arr.shape
        flat = flatten(arr)
        offsets = np.arange(rows + 1, dtype=np.int64) * length
    return finish(flat, offsets, what, pad_id, eos_id, per_item)


def flatten(arr):
    """A 2-D array's rows back to back: a view when they already are, else copied a block of
    rows (about BLOCK IDs) at a time, so that Ctrl-C lands between blocks."""
    if arr.flags.c_contiguous:
        return arr.reshape(-1)
    out = np.empty(arr.shape, dtype=arr.dtype)
    step = max(1, BLOCK // max(1, arr.shape[1]))
    for start in range(0, arr.shape[0], step):
        out[start:start + step] = arr[start:start + step]
    return out.reshape(-1)


def finish(flat, offsets, what, pad_id, eos_id, per_item):
    """(uint32 IDs, offsets, per_item): the rows of (flat, offsets) trimmed and range-checked, a
    block of rows (about BLOCK IDs) at a time, so that Ctrl-C lands between blocks."""
    if (pad_id is None and eos_id is None) or flat.size <= BLOCK:
        flat, offsets = trim(flat, offsets, pad_id, eos_id)
        return check_range(flat, what), offsets, per_item
    rows = offsets.size - 1
    parts, new_offsets = [], np.zeros(offsets.size, dtype=np.int64)
    r = 0
    while r < rows:
        # rows r..r1-1: about BLOCK IDs, at least one row
        r1 = min(rows, max(r + 1, int(np.searchsorted(offsets, offsets[r] + BLOCK,
                                                      side="right")) - 1))
        a = offsets[r]
        part, part_offsets = trim(flat[a:offsets[r1]], offsets[r:r1 + 1] - a, pad_id, eos_id)
        parts.append(check_range(part, what))
        new_offsets[r + 1:r1 + 1] = part_offsets[1:] + new_offsets[r]
        r = r1
    return np.concatenate(parts), new_offsets, per_item


def is_nested_refs(refs):
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
