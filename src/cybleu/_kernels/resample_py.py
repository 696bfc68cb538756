"""Resampling for significance tests, written the obvious way with numpy: the readable spec.

The compiled module `resample.pyx` has the same names and signatures and gives the same results
without importing numpy (a test compares them). Everything here is sacreBLEU 2.6.0's arithmetic
(`sacrebleu/significance.py`):

- `Generator(seed)` is `np.random.default_rng(seed)`; its `bootstrap_indices(n, m)` is
  `choice(m, size=(n, m))` and its `ar_masks(n, m)` is `integers(2, size=(n, m), dtype=bool)`;
- `resample_sums` sums the rows each resample picks (sacreBLEU: `stats[idxs[r]].sum(0)`);
- `ar_sums` is `pos_sel @ baseline + ~pos_sel @ system` and its complement;
- `bleu_scores` is `BLEU.compute_bleu(...).score` on each summed row, with sacreBLEU's dtypes:
  float32 rows in the bootstrap (its statistics are `np.array(stats, dtype='float32')`), int64
  rows in approximate randomization (`pos_sel @ stats` of int lists);
- `pairwise_mean` is `np.mean` of a float64 array.

Statistics travel as flat int64 buffers of `n_segments * width` values, one row per segment;
indices and sums likewise (`array('q')`), masks as a `bytearray` of 0/1, scores as `array('d')`.
"""
from array import array

import numpy as np

from .._scoring.bleu import bleu_from_stats

__all__ = ["Generator", "pack_rows", "resample_sums", "bootstrap_sums", "ar_sums", "bleu_scores",
           "pairwise_mean"]


class Generator:
    """numpy's `np.random.default_rng(seed)` (None draws fresh entropy), with the two draws
    significance tests make. Successive calls continue one stream."""

    def __init__(self, seed=None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or seed < 0):
            raise ValueError(f"seed must be a non-negative int or None, not {seed!r}")
        self._rng = np.random.default_rng(seed)

    def bootstrap_indices(self, n_samples, n_segments):
        """Segment indices of `n_samples` bootstrap resamples, row after row:
        `choice(n_segments, size=(n_samples, n_segments), replace=True)`."""
        _check_shape(n_samples, n_segments, "bootstrap_indices")
        if n_segments > 0xffffffff:
            raise ValueError("bootstrap_indices: more than 2**32 segments")
        idxs = self._rng.choice(n_segments, size=(n_samples, n_segments), replace=True)
        return array("q", idxs.astype("=i8").tobytes())

    def ar_masks(self, n_trials, n_segments):
        """Which segments each approximate-randomization trial swaps, as 0/1 bytes:
        `integers(2, size=(n_trials, n_segments), dtype=bool)`."""
        _check_shape(n_trials, n_segments, "ar_masks")
        masks = self._rng.integers(2, size=(n_trials, n_segments), dtype=bool)
        return bytearray(masks.tobytes())


def _check_shape(n_rows, n_cols, what):
    if n_rows < 0 or n_cols < 1:
        raise ValueError(f"{what}: need n_rows >= 0 and n_segments >= 1, "
                         f"not {n_rows} and {n_cols}")


def pack_rows(rows, width):
    """The rows (sequences of `width` ints each) as one flat int64 array. Raises TypeError for a
    value that is not an int (a float statistic) and ValueError for a row of another width."""
    if width < 1:
        raise ValueError("width must be >= 1")
    out = array("q")
    for row in rows:
        if len(row) != width:
            raise ValueError("segment statistics rows must all have the same, non-zero length")
        for v in row:
            if isinstance(v, (bool, float)) or not isinstance(v, int):
                raise TypeError(f"statistics must be ints, not {type(v).__name__}")
        out.extend(row)
    return out


def _rows(stats, width, n_segments=None):
    rows = np.frombuffer(memoryview(stats).cast("B"), dtype="=i8")
    if width < 1 or rows.size % width:
        raise ValueError(f"statistics of {rows.size} values do not make rows of width {width}")
    rows = rows.reshape(-1, width)
    if n_segments is not None and rows.shape[0] != n_segments:
        raise ValueError(f"statistics have {rows.shape[0]} segments, expected {n_segments}")
    return rows


def resample_sums(stats, width, indices, n_samples, progress=None):
    """For each system in `stats` (flat int64 rows), the sum of the rows each bootstrap resample
    picks: a list with one flat int64 buffer of `n_samples * width` sums per system.
    `progress`, if given, is called with the number of resamples done so far."""
    systems = [_rows(s, width) for s in stats]
    if not systems:
        return []
    n_segments = systems[0].shape[0]
    idxs = np.frombuffer(memoryview(indices).cast("B"), dtype="=i8")
    if idxs.size != n_samples * n_segments:
        raise ValueError(f"{idxs.size} indices for {n_samples} resamples of {n_segments} segments")
    idxs = idxs.reshape(n_samples, n_segments)
    if idxs.size and (idxs.min() < 0 or idxs.max() >= n_segments):
        raise ValueError("bootstrap index out of range")
    out = []
    for rows in systems:
        if rows.shape[0] != n_segments:
            raise ValueError("every system needs the same number of segments")
        out.append(array("q", rows[idxs].sum(axis=1).astype("=i8").tobytes()))
    if progress is not None:
        progress(n_samples)
    return out


def bootstrap_sums(generator, stats, width, n_samples, progress=None):
    """`resample_sums(stats, width, generator.bootstrap_indices(n_samples, n_segments),
    n_samples, progress)` (the compiled module draws the indices a block at a time). No system:
    nothing is drawn."""
    if not isinstance(generator, Generator):
        raise TypeError(f"generator must be a Generator, not {type(generator).__name__}")
    systems = [_rows(s, width) for s in stats]
    if not systems:
        return []
    n_segments = systems[0].shape[0]
    if any(rows.shape[0] != n_segments for rows in systems):
        raise ValueError("every system needs the same number of segments")
    _check_shape(n_samples, n_segments, "bootstrap_sums")
    indices = generator.bootstrap_indices(n_samples, n_segments)
    return resample_sums(stats, width, indices, n_samples, progress)


def ar_sums(baseline, systems, width, masks, n_trials, progress=None):
    """For each system, the statistics of the two pseudo-systems of every trial: the first takes
    the baseline's row where the mask is 1 and the system's elsewhere, the second the opposite.
    A list of (first, second) flat int64 buffers of `n_trials * width` sums.
    `progress`, if given, is called with the number of trials done so far."""
    bl = _rows(baseline, width)
    n_segments = bl.shape[0]
    pos = np.frombuffer(bytes(masks), dtype=np.uint8)
    if pos.size != n_trials * n_segments:
        raise ValueError(f"{pos.size} mask entries for {n_trials} trials of {n_segments} segments")
    pos = pos.reshape(n_trials, n_segments).astype(bool)
    neg = ~pos
    out = []
    for stats in systems:
        rows = _rows(stats, width, n_segments)
        first = pos.astype(np.int64) @ bl + neg.astype(np.int64) @ rows
        second = neg.astype(np.int64) @ bl + pos.astype(np.int64) @ rows
        out.append((array("q", first.astype("=i8").tobytes()),
                    array("q", second.astype("=i8").tobytes())))
    if progress is not None:
        progress(n_trials)
    return out


def bleu_scores(sums, max_order, smooth_method, smooth_value, effective_order, dtype):
    """BLEU of every summed row [hyp_len, ref_len, correct_1..N, total_1..N], computed by the
    metric's own arithmetic on numpy values of `dtype` ('float32': the bootstrap's rows; 'int64':
    approximate randomization's), as sacreBLEU does. Returns array('d')."""
    if dtype not in ("float32", "int64"):
        raise ValueError(f"dtype must be 'float32' or 'int64', not {dtype!r}")
    width = 2 + 2 * max_order
    rows = _rows(sums, width).astype(dtype)
    out = array("d")
    for row in rows:
        score = bleu_from_stats(row[2:2 + max_order], row[2 + max_order:], int(row[0]),
                                int(row[1]), smooth_method, smooth_value, effective_order,
                                max_order)[0]
        out.append(float(score))
    return out


def pairwise_mean(values):
    """numpy's mean of a float64 array (pairwise summation, then one division)."""
    data = np.asarray(values, dtype=np.float64)
    if data.size == 0:
        raise ValueError("pairwise_mean of an empty sequence")
    return float(data.mean())
