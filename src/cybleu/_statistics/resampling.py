"""The resampling engine: segment statistics packed for resampling, sacreBLEU's seeded draws, and
the metric's score of every resample. Shared by `Metric.corpus_score(n_bootstrap=N)` (a bootstrap
confidence interval) and by `cybleu.significance` (paired tests), so neither imports the other.

A resample is a sum of statistics rows, done for all systems at once in the compiled `resample`
step (numpy's random streams are reproduced there, so numpy is not even imported). The score of
each summed row is the metric's: it may answer a whole batch of them itself
(`Metric._resampled_scores`, e.g. its float arithmetic replayed in C or vectorized), else it is
asked row by row, on the numpy rows sacreBLEU would give it.

Integer statistics are summed as sacreBLEU sums them, in float32 (exact while every sum stays
below 2**24; above, numpy's own float32 summation decides); other float statistics take
sacreBLEU's own numpy path. Statistics with exact float columns (segment-mean metrics, external
scores) are summed exactly: packed as integers (`columns.ExactPacking`) and summed in int64, each
sum the correctly rounded float of the exact sum of the resample's values (math.fsum's).
"""
import logging
import math
import os
from array import array
from itertools import chain

from .._scoring.bleu import sum_of_lists
from .columns import ExactPacking, check_columns, sum_rows

logger = logging.getLogger("cybleu")

# float32 sums of non-negative integers are exact while every partial sum stays below this
_F32_EXACT = 1 << 24
# resamples (trials) drawn per call, bounded so that indices and masks stay around 64 MiB
_CHUNK_VALUES = 1 << 23

_kernel = None   # the resampling module, loaded on first use: its twin imports numpy


def _resample():
    global _kernel
    if _kernel is None:
        from .._backend import module
        _kernel = module("resample")
    return _kernel


def _env_seed():
    """SACREBLEU_SEED as sacreBLEU reads it: (the string it reports, the seed: None or an int)."""
    value = os.environ.get("SACREBLEU_SEED", "12345")
    if value.lower() == "none":
        return value.lower(), None
    try:
        seed = int(value)
    except ValueError:
        raise ValueError(f"SACREBLEU_SEED must be an integer or 'none', not {value!r}") from None
    if seed < 0:
        raise ValueError(f"SACREBLEU_SEED must be a non-negative integer or 'none', not {value!r}")
    return str(value).lower(), seed


# -- statistics ----------------------------------------------------------------------------------

class Statistics:
    """One system's segment statistics for one metric, packed for resampling (the input of the
    significance tests, which take it in place of hypotheses).

    Integer statistics (counts; floats that are whole numbers) are kept as one flat int64
    buffer; anything else keeps its rows: for sacreBLEU's numpy path, or, when the metric's
    columns add exactly (`columns`), for exact sums. `extend` appends the rows of more segments
    (a file scored a slice at a time).

    :param rows: The rows of `metric._extract_corpus_statistics(hyps, refs)`: one list of numbers
        per segment, all of one length.
    :param columns: The metric's `statistic_columns()` (how each column adds), or None for
        sacreBLEU's rule (integers exact, floats added in order).
    :raises ValueError: Rows of different or zero length.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import Statistics
    >>> bleu = BLEU()
    >>> stats = Statistics(bleu._extract_corpus_statistics(["a b c", "a b d"],
    ...                                                    [["a b c", "a b c"]]))
    >>> stats.n_segments, stats.width, stats.totals()
    (2, 10, [6, 6, 5, 3, 1, 0, 6, 4, 2, 0])
    """

    __slots__ = ("width", "n_segments", "flat", "rows", "ar_dtype", "_min", "columns")

    def __init__(self, rows=None, columns=None):
        self.width = None
        self.n_segments = 0
        self.flat = array("q")
        self.rows = None
        # the dtype numpy gives `np.array(rows)`, which sacreBLEU's randomization sums in
        self.ar_dtype = "int64"
        self._min = 0
        self.columns = None
        if columns is not None:
            self.columns = check_columns(columns)
            self.width = len(self.columns)
            if self.exact:
                # exact float columns keep their values: they are packed with the other
                # systems' when resampled (one scale for all)
                self.flat = None
                self.rows = []
                self.ar_dtype = "float64"
        if rows is not None:
            self.extend(rows)

    def extend(self, rows):
        """Append the rows of more segments.

        :param rows: One list of numbers per segment, of the width of the rows already held.
        :raises ValueError: Rows of another or zero length.
        """
        rows = rows if isinstance(rows, list) else list(rows)
        if not rows:
            return
        if self.width is None:
            self.width = len(rows[0])
        if self.width == 0 or any(len(row) != self.width for row in rows):
            if self.columns is not None and rows[0] and len(rows[0]) != self.width:
                raise ValueError(f"segment statistics rows have {len(rows[0])} values, but the "
                                 f"metric names {self.width} columns")
            raise ValueError("segment statistics rows must all have the same, non-zero length")
        self.n_segments += len(rows)
        if self.rows is not None:
            self.rows.extend(rows)
            return
        start = len(self.flat)
        try:
            self.flat.extend(_resample().pack_rows(rows, self.width))
        except (TypeError, OverflowError):
            del self.flat[start:]
            values = list(chain.from_iterable(rows))
            if all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                   and v == int(v) and abs(v) < 2 ** 53 for v in values):
                # whole numbers stored as floats: their sums are exact in any order
                self.ar_dtype = "float64"
                self.flat.extend(int(v) for v in values)
            else:
                w = self.width
                old = [list(self.flat[i:i + w]) for i in range(0, start, w)]
                self.rows = old + rows
                self.flat = None
                self.ar_dtype = "float64"
                return
        if len(self.flat) > start:
            self._min = min(self._min, min(self.flat[start:]))

    def extend_flat(self, flat, width):
        """`extend` with rows given as one flat int64 array (`array('q')`).

        :param flat: The rows' values back to back.
        :param width: Values per row.
        :raises ValueError: A width that differs from the rows held, or does not divide
            `len(flat)`.
        """
        if len(flat) == 0:
            return
        if self.width is None:
            self.width = width
        if width != self.width or width < 1 or len(flat) % width:
            raise ValueError("segment statistics rows must all have the same, non-zero length")
        if self.rows is not None:
            self.extend([flat[i:i + width].tolist() for i in range(0, len(flat), width)])
            return
        self.n_segments += len(flat) // width
        self.flat.extend(flat)
        self._min = min(self._min, min(flat))

    @property
    def exact(self):
        """True when some column adds exactly (a float sum independent of the order)."""
        return self.columns is not None and any(col.adds == "exact" for col in self.columns)

    @property
    def integer(self):
        """True when the statistics are whole numbers, held packed."""
        return self.flat is not None

    @property
    def nonnegative(self):
        """True when the statistics are whole numbers and none is negative."""
        return self.flat is not None and self._min >= 0

    def row(self, i):
        """Segment i's statistics as the metric gave them.

        :param i: The segment's index.
        :returns: A list of ints (floats if the metric gave floats).
        """
        if self.flat is None:
            return self.rows[i]
        values = self.flat[i * self.width:(i + 1) * self.width].tolist()
        return values if self.ar_dtype == "int64" else [float(v) for v in values]

    def select(self, indices):
        """A Statistics of the given segments, in that order.

        :param indices: Segment indices.
        :returns: A new :class:`Statistics`.
        """
        return Statistics([self.row(i) for i in indices], self.columns)

    def numpy_rows(self):
        """The rows as numpy gives `np.array(stats)` (sacreBLEU's operand).

        :returns: A 2-D numpy array, one row per segment.
        """
        import numpy as np
        if self.flat is not None:
            rows = np.frombuffer(self.flat, dtype=np.int64).reshape(self.n_segments, self.width)
            return rows.astype(self.ar_dtype)
        return np.array(self.rows)

    def totals(self):
        """Column sums as sacreBLEU's `sum_of_lists` gives them (exact ints, or its float
        order).

        :returns: A list of `width` sums.
        :raises ValueError: No segments.
        """
        if self.n_segments == 0:
            raise ValueError("no segment statistics: the corpus is empty")
        if self.flat is None:
            if self.exact:
                return sum_rows(self.rows, self.columns)
            return sum_of_lists(self.rows)
        w = self.width
        if self.n_segments == 1:
            sums = self.flat.tolist()
        else:
            sums = [sum(self.flat[k::w]) for k in range(w)]
        return sums if self.ar_dtype == "int64" else [float(v) for v in sums]


def columns_of(metric):
    """The metric's statistic columns (None when it does not say: sacreBLEU's rule)."""
    method = getattr(metric, "statistic_columns", None)
    return None if method is None else method()


def _statistics(metric, hypotheses, references=None):
    stats = Statistics(metric._extract_corpus_statistics(hypotheses, references),
                       columns_of(metric))
    if stats.n_segments == 0:
        raise ValueError("no segment statistics: the corpus is empty")
    return stats


def _score(metric, stats):
    """The metric's corpus score from packed statistics (its _aggregate_and_compute)."""
    if stats.flat is None:
        aggregate = getattr(metric, "_aggregate_and_compute", None)
        if aggregate is not None:
            return aggregate(stats.rows)
    return metric._compute_score_from_stats(stats.totals())


# -- scores of resamples ------------------------------------------------------------------------

def _scores_of_sums(metric, sums, width, dtype):
    """metric._compute_score_from_stats(row).score of every summed row, the row being a numpy
    array of `dtype` as in sacreBLEU; the metric may answer the whole batch itself
    (`_resampled_scores(sums, width, dtype, kernel)`: the same numbers, e.g. its arithmetic
    replayed in the compiled kernel)."""
    batch = getattr(metric, "_resampled_scores", None)
    if batch is not None:
        scores = batch(sums, width, dtype, _resample())
        if scores is not None:
            return scores
    import numpy as np
    rows = np.frombuffer(sums, dtype=np.int64).reshape(-1, width).astype(dtype)
    if dtype == "float32":
        return [metric._compute_score_from_stats(row).score for row in rows]
    aggregate = getattr(metric, "_aggregate_and_compute", None)
    if aggregate is None:
        return [metric._compute_score_from_stats(row).score for row in rows]
    return [aggregate(rows[i:i + 1]).score for i in range(rows.shape[0])]


def _f32_exact(stats, sums):
    # Every partial float32 sum is an exact integer when the values are non-negative integers
    # and the final sums stay below 2**24; then float32(integer sum) is numpy's float32 sum.
    return stats.nonnegative and (len(sums) == 0 or max(sums) < _F32_EXACT)


def _chunk_rows(n_rows, n_segments, multiple=1):
    rows = max(1, _CHUNK_VALUES // max(1, n_segments))
    rows = max(multiple, rows // multiple * multiple)
    return min(n_rows, rows)


def _drawn_chunks(generator, n_samples, n_segments):
    """The bootstrap indices of one numpy `choice` call, drawn a chunk of resamples at a time
    (the stream is the same: each index is its own draw)."""
    done, step = 0, _chunk_rows(n_samples, n_segments)
    while done < n_samples:
        rows = min(step, n_samples - done)
        yield rows, generator.bootstrap_indices(rows, n_segments)
        done += rows


def _index_chunks(generator, n_samples, n_segments):
    """_drawn_chunks, all of them held."""
    return list(_drawn_chunks(generator, n_samples, n_segments))


class _Redrawn:
    """_drawn_chunks of a fresh Generator(seed), drawn again at each pass over them: one chunk
    in memory at a time (all the indices of 1,000 resamples of 10**6 segments fill 8 GB)."""

    def __init__(self, seed, n_samples, n_segments):
        self.seed, self.n_samples, self.n_segments = seed, n_samples, n_segments

    def __iter__(self):
        return _drawn_chunks(_resample().Generator(self.seed), self.n_samples, self.n_segments)


class _SeededDraws:
    """The indices of `n_samples` bootstrap resamples of `n_segments` segments from a fresh
    Generator(seed), not drawn yet: the compiled kernel draws them a block at a time while it
    sums (`bootstrap_sums`, no 8-byte index per draw held in memory), each thread with its own
    identical Generator; `chunks()` gives them a chunk at a time for the paths that need the
    indices."""

    def __init__(self, seed, n_samples, n_segments):
        self.seed = seed
        self.n_samples = n_samples
        self.n_segments = n_segments

    def chunks(self):
        return _Redrawn(self.seed, self.n_samples, self.n_segments)


def _draws(seed, n_samples, n_segments):
    """What `_bootstrap_scores` takes for the resamples of Generator(seed): drawn later when the
    seed can draw them again, else drawn now (fresh entropy is drawn once)."""
    if seed is None:
        return _index_chunks(_resample().Generator(None), n_samples, n_segments)
    return _SeededDraws(seed, n_samples, n_segments)


def _mask_chunks(generator, n_trials, n_segments):
    """The swaps of one numpy `integers(2, dtype=bool)` call, a chunk of trials at a time; numpy
    starts a fresh 32-bit draw at each call, so chunks are whole multiples of 32 trials."""
    chunks, done = [], 0
    step = _chunk_rows(n_trials, n_segments, multiple=32)
    while done < n_trials:
        rows = min(step, n_trials - done)
        chunks.append((rows, generator.ar_masks(rows, n_segments)))
        done += rows
    return chunks


# below this many additions a resampling call runs in the calling thread
_PARALLEL_WORK = 20_000_000


def _halves(n_rows, per_row, n_values):
    """[(first row, rows)] splitting n_rows in two when the work is worth a second thread."""
    if n_rows < 64 or n_rows * per_row * n_values < _PARALLEL_WORK or (os.cpu_count() or 1) < 2:
        return [(0, n_rows)]
    half = n_rows // 2 // 32 * 32  # whole blocks of the kernel
    return [(0, half), (half, n_rows - half)]


def _in_threads(calls, progress):
    """Run `calls` (callables taking a progress callback) in threads, results in order. The
    compiled kernels release the GIL, so two halves of a resampling run on two cores; Ctrl-C
    stops both at their next block."""
    if len(calls) == 1:
        return [calls[0](progress)]
    import threading

    from .._kernels.threads import map_in_threads
    stop = threading.Event()
    done = [0] * len(calls)

    def reporter(k):
        def report(n):
            if stop.is_set():
                raise KeyboardInterrupt
            done[k] = n
            if progress is not None:
                progress(sum(done))
        return report

    return map_in_threads(lambda k: calls[k](reporter(k)), range(len(calls)), len(calls),
                          on_error=stop.set)


def _concat(arrays):
    arrays = list(arrays)
    if len(arrays) == 1:
        return arrays[0]
    out = array("q")
    for a in arrays:
        out.extend(a)
    return out


def _offset(progress, base):
    if progress is None:
        return None
    return lambda done: progress(base + done)


def _numpy_bootstrap_scores(metric, stats, chunks):
    """sacreBLEU's own float32 path:
    `metric._compute_score_from_stats(stats_np[idxs[r]].sum(0))`."""
    import numpy as np
    stats_np = np.array(stats.rows if stats.flat is None else stats.numpy_rows(),
                        dtype="float32")
    scores = []
    for rows, idxs in chunks:
        idx = np.frombuffer(idxs, dtype=np.int64).reshape(rows, stats.n_segments)
        scores.extend(metric._compute_score_from_stats(stats_np[i].sum(0)).score for i in idx)
    return scores


def _drawn_sums(unique, draws, progress):
    """The int64 row sums of every resample of `draws` (_SeededDraws), one array per system of
    `unique`, summed while the indices are drawn."""
    resample = _resample()
    width, n_seg, n = unique[0].width, unique[0].n_segments, draws.n_samples
    parts = [unique]
    if len(unique) > 1 and (os.cpu_count() or 1) >= 2 and \
            n * n_seg * width * len(unique) >= _PARALLEL_WORK:
        # two threads, each drawing the same indices (a small part of the work) for half the
        # systems
        half = len(unique) // 2
        parts = [unique[:half], unique[half:]]
    calls = [(lambda part: lambda report: resample.bootstrap_sums(
        resample.Generator(draws.seed), [st.flat for st in part], width, n, report))(part)
        for part in parts]
    if len(calls) == 1:
        return calls[0](progress)
    import threading

    from .._kernels.threads import map_in_threads
    stop = threading.Event()

    def reporter(k):
        def report(done):
            if stop.is_set():
                raise KeyboardInterrupt
            if k == 0 and progress is not None:  # both halves draw the same resamples
                progress(done)
        return report
    return [total for part in map_in_threads(lambda k: calls[k](reporter(k)),
                                             range(len(calls)), len(calls), on_error=stop.set)
            for total in part]


def _chunk_sums(systems, rows, idxs, progress, done):
    """The int64 row sums of the `rows` resamples whose indices are `idxs`, one array per
    system (the work split in two threads when it is large)."""
    resample = _resample()
    flats, width, n_seg = [s.flat for s in systems], systems[0].width, systems[0].n_segments
    view = memoryview(idxs)
    parts = _halves(rows, n_seg, width * len(systems))
    calls = [(lambda a, r: lambda report: resample.resample_sums(
        flats, width, view[a * n_seg:(a + r) * n_seg], r, report))(a, r)
        for a, r in parts]
    results = _in_threads(calls, _offset(progress, done))
    return [_concat(part[k] for part in results) for k in range(len(systems))]


def _drawn_bootstrap_scores(metric, unique, draws, progress):
    """{id: scores} of `unique` systems from `draws` (_SeededDraws), summed while drawn; None
    when a sum could round in float32 (the caller then takes the indices' path)."""
    sums = _drawn_sums(unique, draws, progress)
    out = {}
    for stats, total in zip(unique, sums):
        if not _f32_exact(stats, total):
            return None
        out[id(stats)] = _scores_of_sums(metric, total, stats.width, "float32")
    return out


def _bootstrap_scores(metric, systems, chunks, progress=None):
    """The score of every bootstrap resample (given by `chunks` of indices, or `_SeededDraws`)
    of each system: the compiled sums for integer statistics, exact sums for exact columns,
    sacreBLEU's numpy path otherwise."""
    if any(s.exact for s in systems):
        return _exact_bootstrap_scores(metric, systems, chunks, progress)
    unique = list({id(s): s for s in systems}.values())  # one Statistics passed twice: once
    if isinstance(chunks, _SeededDraws):
        out = None
        if all(s.nonnegative for s in unique):
            out = _drawn_bootstrap_scores(metric, unique, chunks, progress)
        if out is not None:
            return [out[id(s)] for s in systems]
        chunks = chunks.chunks()
    out = {id(s): [] for s in unique}
    fast = [s for s in unique if s.integer]
    slow = [s for s in unique if not s.integer]
    done = 0
    for rows, idxs in chunks:
        if fast:
            sums = _chunk_sums(fast, rows, idxs, progress, done)
            for stats, total in zip(list(fast), sums):
                if _f32_exact(stats, total):
                    out[id(stats)].extend(_scores_of_sums(metric, total, stats.width, "float32"))
                else:  # a float32 sum may round here: numpy's own summation decides
                    fast.remove(stats)
                    slow.append(stats)
        done += rows
    for stats in slow:
        out[id(stats)] = _numpy_bootstrap_scores(metric, stats, chunks)
    return [out[id(s)] for s in systems]


# -- exact columns: segment means, external scores -----------------------------------------------

def _packed(systems):
    """(the packing, {id: Statistics of int64 limbs}) of systems whose columns add exactly, one
    scale for all of them, so that one resampler call sums them all."""
    unique = list({id(s): s for s in systems}.values())
    columns = unique[0].columns
    if any(s.columns != columns for s in unique):
        raise ValueError("the systems' statistics have different columns")
    packing = ExactPacking(columns, [s.rows for s in unique])
    packed = {}
    for stats in unique:
        p = Statistics()
        p.extend_flat(packing.encode(stats.rows), packing.width)
        packed[id(stats)] = p
    return packing, packed


def _exact_scores(metric, packing, sums):
    return [metric._compute_score_from_stats(row).score for row in packing.decode(sums)]


def _exact_bootstrap_scores(metric, systems, chunks, progress):
    """The bootstrap of statistics with exact columns: each resample's column sums are the
    correctly rounded exact sums of its rows' values (math.fsum's), whatever the resample."""
    packing, packed = _packed(systems)
    unique = list(packed.values())
    if isinstance(chunks, _SeededDraws):
        sums = dict(zip(map(id, unique), _drawn_sums(unique, chunks, progress)))
        return [_exact_scores(metric, packing, sums[id(packed[id(s)])]) for s in systems]
    out = {id(p): [] for p in unique}
    done = 0
    for rows, idxs in chunks:
        for p, total in zip(unique, _chunk_sums(unique, rows, idxs, progress, done)):
            out[id(p)].extend(_exact_scores(metric, packing, total))
        done += rows
    return [out[id(packed[id(s)])] for s in systems]


def _exact_ar_scores(metric, baseline, systems, chunks, progress):
    """Approximate randomization of statistics with exact columns (exact sums of the swapped
    pseudo-systems)."""
    resample = _resample()
    packing, packed = _packed([baseline] + list(systems))
    bl = packed[id(baseline)]
    unique = list({id(s): s for s in systems}.values())
    pack = [packed[id(s)] for s in unique]
    out = {id(s): ([], []) for s in unique}
    done = 0
    for rows, masks in chunks:
        flats, width, n_seg = [p.flat for p in pack], bl.width, bl.n_segments
        view = memoryview(masks)
        parts = _halves(rows, n_seg // 2, width * len(pack))
        calls = [(lambda a, r: lambda report: resample.ar_sums(
            bl.flat, flats, width, view[a * n_seg:(a + r) * n_seg], r, report))(a, r)
            for a, r in parts]
        results = _in_threads(calls, _offset(progress, done))
        for k, stats in enumerate(unique):
            first = _concat(part[k][0] for part in results)
            second = _concat(part[k][1] for part in results)
            out[id(stats)][0].extend(_exact_scores(metric, packing, first))
            out[id(stats)][1].extend(_exact_scores(metric, packing, second))
        done += rows
    return [out[id(s)] for s in systems]


def _numpy_ar_scores(metric, baseline, stats, chunks):
    """sacreBLEU's own randomization path: `pos_sel @ bl + ~pos_sel @ sys` and its complement."""
    import numpy as np
    bl_np, sys_np = baseline.numpy_rows(), stats.numpy_rows()
    aggregate = getattr(metric, "_aggregate_and_compute", None)
    first, second = [], []
    for rows, masks in chunks:
        pos = np.frombuffer(bytes(masks), dtype=np.bool_).reshape(rows, baseline.n_segments)
        neg = ~pos
        for out, shuf in ((first, pos @ bl_np + neg @ sys_np),
                          (second, neg @ bl_np + pos @ sys_np)):
            for x in shuf[:, None]:
                out.append(aggregate(x).score if aggregate is not None
                           else metric._compute_score_from_stats(x[0]).score)
    return first, second


def _ar_scores(metric, baseline, systems, chunks, progress=None):
    """For each system, the scores of both pseudo-systems of every randomization trial."""
    if baseline.exact or any(s.exact for s in systems):
        return _exact_ar_scores(metric, baseline, systems, chunks, progress)
    resample = _resample()
    unique = list({id(s): s for s in systems}.values())  # one Statistics passed twice: once
    out = {id(s): ([], []) for s in unique}
    fast = [s for s in unique if s.integer] if baseline.integer else []
    done = 0
    for rows, masks in chunks:
        if fast:
            flats, width, n_seg = [s.flat for s in fast], baseline.width, baseline.n_segments
            view = memoryview(masks)
            parts = _halves(rows, n_seg // 2, width * len(fast))  # about half the rows are added
            calls = [(lambda a, r: lambda report: resample.ar_sums(
                baseline.flat, flats, width, view[a * n_seg:(a + r) * n_seg], r, report))(a, r)
                for a, r in parts]
            results = _in_threads(calls, _offset(progress, done))
            pairs = [(_concat(part[k][0] for part in results),
                      _concat(part[k][1] for part in results)) for k in range(len(fast))]
            for stats, (first, second) in zip(fast, pairs):
                # numpy's dtype for `pos_sel @ rows`: int64 for int lists, float64 if floats
                dtype = "float64" if "float64" in (stats.ar_dtype, baseline.ar_dtype) \
                    else "int64"
                out[id(stats)][0].extend(_scores_of_sums(metric, first, stats.width, dtype))
                out[id(stats)][1].extend(_scores_of_sums(metric, second, stats.width, dtype))
        done += rows
    for stats in unique:
        if not any(stats is s for s in fast):
            out[id(stats)] = _numpy_ar_scores(metric, baseline, stats, chunks)
    return [out[id(s)] for s in systems]


class _Sample:
    """A resampled score: sacreBLEU's `_bootstrap_resample` returns Score objects, of which only
    `.score` is read."""

    __slots__ = ("score",)

    def __init__(self, score):
        self.score = score

    def __repr__(self):
        return f"_Sample({self.score!r})"


def _bootstrap_resample(stats, metric, n_samples=1000, progress=None):
    """Bootstrap resampling of one system for a confidence interval (sacreBLEU's function of the
    same name): (the seed as reported in signatures, the score of every resample). `progress`,
    if given, is called with (resamples done, total)."""
    seed_str, seed = _env_seed()
    packed = stats if isinstance(stats, Statistics) else Statistics(stats, columns_of(metric))
    if packed.n_segments == 0:
        raise ValueError("no segment statistics: the corpus is empty")
    report = None if progress is None else (lambda done: progress(done, n_samples))
    scores = _bootstrap_scores(metric, [packed], _draws(seed, n_samples, packed.n_segments),
                               report)[0]
    return seed_str, [_Sample(s) for s in scores]
