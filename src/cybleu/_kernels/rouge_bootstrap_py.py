"""Pure-Python twin of `rouge_bootstrap.pyx`: the sample means of rouge-score's bootstrap, the
way rouge-score's `BootstrapAggregator._bootstrap_resample` draws and averages them, written with
numpy itself. The readable specification; the compiled module reproduces numpy's random streams
and its float sums, and a test holds the two (and rouge-score) to identical numbers.

A score matrix has one row per document and one column per measure (precision, recall, F).
Each bootstrap sample picks as many rows as there are, with replacement, and averages them:
`np.mean(matrix[idx, :], axis=0)`, which numpy adds up row after row in the order drawn (for two
or more columns; one column is summed pairwise), then divides by the count.

Two streams of draws: numpy's legacy global one (`np.random.choice`, what rouge-score uses), and
for `seed=` numpy's `default_rng(seed).choice(n, size=(n_samples, n))`.
"""
import numpy as np

__all__ = ["pack_scores", "legacy_means", "seeded_means"]

_BLOCK = 64   # samples drawn at a time (memory: _BLOCK x n indices)


def _number(x):
    return isinstance(x, (int, float)) and (isinstance(x, float) or -2 ** 63 <= x < 2 ** 63)


def pack_scores(scores, width):
    """The score tuples as a (len(scores), width) float64 matrix, the values numpy's mean adds
    (ints and bools as float64), or None when one is not a tuple of `width` Python numbers
    (floats, bools, ints within int64), which numpy then stacks its own way."""
    for row in scores:
        if not isinstance(row, tuple) or len(row) != width or not all(map(_number, row)):
            return None
    return np.array(scores, dtype=np.float64).reshape(len(scores), width)


def _check(matrix, n_samples):
    if not (isinstance(matrix, np.ndarray) and matrix.ndim == 2 and matrix.shape[0] >= 1
            and matrix.shape[1] >= 1):
        raise ValueError("the score matrix must be a 2-D array with at least one row and column")
    if n_samples < 1:
        raise ValueError(f"n_samples must be positive, not {n_samples}")


def legacy_means(matrix, n_samples, key, pos):
    """(means, key, pos): the (n_samples, measures) sample means rouge-score draws with
    `np.random.choice(np.arange(n), size=n)` per sample from numpy's legacy MT19937 state
    (key, pos) (`np.random.get_state()`'s), and the state after the draws."""
    _check(matrix, n_samples)
    rs = np.random.RandomState()
    rs.set_state(("MT19937", np.asarray(key, dtype=np.uint32), int(pos)))
    n = matrix.shape[0]
    means = np.zeros((n_samples, matrix.shape[1]))
    for i in range(n_samples):
        idx = rs.choice(np.arange(n), size=n)
        means[i, :] = np.mean(matrix[idx, :], axis=0)
    state = rs.get_state()
    return means, state[1], state[2]


def _check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {seed!r}")


def seeded_means(matrices, n_samples, seed):
    """For each (n, measures) matrix (all of n rows), its (n_samples, measures) sample means,
    every matrix resampled at the same rows: those of
    `np.random.default_rng(seed).choice(n, size=(n_samples, n))`."""
    _check_seed(seed)
    for matrix in matrices:
        _check(matrix, n_samples)
    if not matrices:
        return []
    n = matrices[0].shape[0]
    if any(m.shape[0] != n for m in matrices):
        raise ValueError("every score matrix needs the same number of rows")
    rng = np.random.default_rng(seed)
    out = [np.zeros((n_samples, matrix.shape[1])) for matrix in matrices]
    for start in range(0, n_samples, _BLOCK):
        # blocks of rows of the one (n_samples, n) draw: the generator carries on where it was
        idx = rng.choice(n, size=(min(_BLOCK, n_samples - start), n))
        for matrix, means in zip(matrices, out):
            for i in range(idx.shape[0]):
                means[start + i, :] = np.mean(matrix[idx[i], :], axis=0)
    return out
