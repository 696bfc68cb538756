"""A slice of a corpus -> one flat vector of statistics; a sum of them -> the exact score.

The one piece the engine adapters (cybleu.dask, cybleu.ray, cybleu.spark) share. A partition's
rows go through the metric's own kernel (its column sums, `Metric._column_sums`, without a list per
segment, where it has them; else its segment rows) into a vector of Python ints; vectors add exactly
in any order and any grouping, so an engine may reduce them as a tree; the score is computed once,
from the sum, by the metric's own `_compute_score_from_stats`, and equals `metric.corpus_score`
(and sacreBLEU) bit for bit.

The vector (`Plan.columns` names its cells):

    segments, dotted, min_refs, max_refs, <the metric's statistic columns>

`segments` counts the rows; `dotted` the hypotheses ending in " ." (the tokenized-input warning of a
metric that checks for it is decided on the whole corpus, as sacreBLEU decides it); `min_refs` and
`max_refs` the fewest and most references a segment has (sacreBLEU's `num_refs`: the count when they
agree, else -1). They merge by min and max; every other cell by addition.

Each statistic column of the metric (`Metric.statistic_columns()`) adds as it says:

- "int": one cell, the integer sum.
- "exact": the exact sum of the floats as an integer number of 2**-1074, written as EXACT_LIMBS
  cells `<name>_x0`, `<name>_x1`, ... (base-2**32 digits, so that engines summing int64 columns,
  Spark's SQL and Ray's accumulators, add them exactly in any order); the float is the correctly
  rounded sum, math.fsum's.
- "ordered" (floats sacreBLEU adds one after the other, such as an average over references):
  while every value is a multiple of 2**-10 (an average over one, two or four references: every
  real test set we know), every partial sum is exact, so the sum does not depend on the order and
  is kept as an integer count of 2**-10 units (cell `<name>_units`). Values that are not such
  multiples (three references of lengths 10, 10, 11) are counted in the `inexact` cell; when any
  exist, the sum depends on the order, and the values are carried along in order
  (`Partial.lengths`, when the plan keeps them: `Plan.ordered`) and added on the client one after
  the other, as sacreBLEU does. An engine that cannot keep the order raises instead of returning a
  different float.
"""
import copy
import functools
import operator
import re
from array import array

from .._statistics.columns import (EXACT_LIMBS, check_columns, exact_units, from_limbs,
                                   from_units, to_limbs)

__all__ = ["Plan", "Partial", "make_metric", "partition_stats", "merge", "finish",
           "PartitionError"]

SHIFT = 10
_UNIT = 1 << SHIFT
# partial sums of ordered values below this are exact multiples of 2**-SHIFT
_EXACT_LIMIT = 1 << (53 - SHIFT)
_COMMON = ("segments", "dotted", "min_refs", "max_refs")
_NO_REFS = 1 << 62            # min_refs of an empty partition (the identity of min)


class PartitionError(ValueError):
    """Bad input in one partition; the message names the partition and the row (and the file and
    line when the engine knows them)."""


def make_metric(kind, metric=None, **kwargs):
    """A cybleu metric object: `metric` itself (an object of the class registered as `kind`), or
    a new one of that registered name (`cybleu.metrics.names()`) built from `kwargs` (the class's
    arguments, after the name's presets)."""
    from .. import metrics
    cls = metrics.get(kind)
    if metric is None:
        return metrics.make(kind, **kwargs)
    if kwargs:
        raise TypeError(f"give either a metric object or the {cls.__name__} arguments "
                        f"{sorted(kwargs)}, not both")
    if not isinstance(metric, cls):
        raise TypeError(f"metric must be a cybleu.metrics.{cls.__name__}, "
                        f"not {type(metric).__name__}")
    return metric


class Plan:
    """What each partition computes: the metric (its settings; the references travel with the
    rows) and the layout of the statistics vector. Small and picklable: an engine ships it once
    per task, never once per row.

    :param metric: a cybleu metric object that says its statistic columns (any registered
        metric, a segment-mean metric, ...; the client keeps it: `finish` sets its `num_refs`, so
        `metric.get_signature()` works afterwards).
    :param n_refs: the number of reference streams, or None when they come in a list column
        (then the values of "ordered" columns are kept in order when the metric cannot say that
        their sums are exact with that many references).
    :param engine: the name in error messages ("cybleu.dask", ...).
    """

    def __init__(self, metric, n_refs=None, engine="cybleu"):
        from ..metrics.base import Metric
        if not isinstance(metric, Metric):
            raise TypeError(f"not a cybleu metric: {type(metric).__name__} (use a "
                            "cybleu.metrics.Metric)")
        columns = metric.statistic_columns()
        if columns is None:
            raise TypeError(f"{engine}: {metric.label} does not say how its statistics add up "
                            "(Metric.statistic_columns()), so its partitions cannot be summed")
        self.metric = metric
        self.stat_columns = check_columns(columns, metric.label)
        self.kind = str(metric.label).lower()
        self.n_refs = n_refs
        self.engine = engine
        # a metric that warns about tokenized input decides on the whole corpus
        self.checks_tokenized = not metric._force
        ordered = [c for c in self.stat_columns if c.adds == "ordered"]
        exact_order = getattr(metric, "_ordered_sums_exact", None)
        self.ordered = bool(ordered) and not (exact_order is not None and exact_order(n_refs))
        names = []
        for col in self.stat_columns:
            if col.adds == "exact":
                names += [f"{col.name}_x{k}" for k in range(EXACT_LIMBS)]
            else:
                names.append(f"{col.name}_units" if col.adds == "ordered" else col.name)
        if ordered:
            names.append("inexact")
        clash = sorted(set(_COMMON + ("inexact",)) & {col.name for col in self.stat_columns})
        if clash or len(set(names)) < len(names):
            raise ValueError(f"{engine}: {metric.label}'s statistic columns must have names of "
                             f"their own (not {', '.join(clash) or 'the same name twice'})")
        self.columns = list(_COMMON) + names

    def __getstate__(self):
        # the worker's copy: no reference cache (the rows carry the references), and quiet about
        # tokenized input (the client warns once, on the whole corpus)
        state = dict(self.__dict__)
        state.pop("_worker", None)
        worker = copy.copy(self.metric)
        worker._ref_cache = None
        worker._force = True
        state["metric"] = worker
        return state

    def worker_metric(self):
        """The metric to run on a partition (a quiet copy; the client's object is not touched)."""
        metric = self.__dict__.get("_worker")
        if metric is None:
            metric = copy.copy(self.metric)
            metric._ref_cache = None
            metric._force = True
            self._worker = metric
        return metric

    def empty(self):
        values = [0] * len(self.columns)
        values[2] = _NO_REFS
        return Partial(values, array("d") if self.ordered else None)


class Partial:
    """The statistics of consecutive rows: `values` (Python ints, laid out as `Plan.columns`)
    and, when the plan is ordered, the values of the ordered columns, row after row."""

    __slots__ = ("values", "lengths")

    def __init__(self, values, lengths=None):
        self.values = values
        self.lengths = lengths

    def __reduce__(self):
        return Partial, (self.values, self.lengths)

    def __repr__(self):
        return f"Partial({self.values!r})"


def merge(partials):
    """The Partial of consecutive partials, in the order given (min/max for the reference counts,
    sums for the rest, lengths concatenated)."""
    partials = list(partials)
    if not partials:
        raise ValueError("nothing to merge")
    values = list(partials[0].values)
    lengths = partials[0].lengths
    lengths = None if lengths is None else array("d", lengths)
    for part in partials[1:]:
        other = part.values
        values[0] += other[0]
        values[1] += other[1]
        values[2] = min(values[2], other[2])
        values[3] = max(values[3], other[3])
        for i in range(4, len(values)):
            values[i] += other[i]
        if lengths is not None:
            if part.lengths is None:
                lengths = None
            else:
                lengths.extend(part.lengths)
    return Partial(values, lengths)


def _ref_counts(streams, n):
    """(fewest, most) non-None references of the n segments."""
    if not any(None in stream for stream in streams):
        return len(streams), len(streams)
    counts = [sum(ref is not None for ref in seg) for seg in zip(*streams)]
    return min(counts), max(counts)


def partition_stats(plan, hyps, streams, partition=None, where=None, row_offset=0):
    """The Partial of one partition: `hyps` (strings) and `streams` (reference streams, each as
    long as hyps; None where a segment lacks that reference).

    :param partition: the partition's number, for error messages.
    :param where: a function row -> text (e.g. "line 12 of hyp.txt") for error messages.
    :param row_offset: the number of the partition's rows before these (batch by batch).
    :raises PartitionError: (a TypeError too when the input has the wrong type) naming the
        partition and the row.
    """
    n = len(hyps)
    if n == 0:
        return plan.empty()
    try:
        for k, stream in enumerate(streams):
            if len(stream) != n:
                raise ValueError(f"reference stream {k} has {len(stream)} lines for {n} "
                                 "hypotheses")
        metric = plan.worker_metric()
        stats = metric._column_sums(hyps, streams)
        if stats is not None:
            cells, lengths = [int(v) for v in stats], None
        else:
            cells, lengths = _cells(plan, metric._extract_corpus_statistics(hyps, streams))
        dotted = sum(map(str.endswith, hyps, [" ."] * n)) if plan.checks_tokenized else 0
        low, high = _ref_counts(streams, n)
    except (TypeError, ValueError) as err:
        raise _located(plan, err, hyps, streams, partition, where, row_offset) from err
    return Partial([n, dotted, low, high] + cells, lengths)


def _cells(plan, rows):
    """The vector cells of segment rows (each column as it adds) and, when the plan keeps them,
    the ordered columns' values in row order."""
    columns = plan.stat_columns
    ordered = [k for k, col in enumerate(columns) if col.adds == "ordered"]
    lengths = array("d") if plan.ordered else None
    cells, inexact = [], 0
    for k, col in enumerate(columns):
        values = [row[k] for row in rows]
        if col.adds == "int":
            cells.append(sum(int(v) for v in values))
        elif col.adds == "exact":
            cells += to_limbs(sum(exact_units(v) for v in values))
        else:
            units = 0
            for v in values:
                scaled = v * _UNIT
                if float(scaled).is_integer():
                    units += int(scaled)
                else:
                    inexact += 1
            cells.append(units)
    if ordered:
        cells.append(inexact)
        if lengths is not None:
            for row in rows:
                lengths.extend(row[k] for k in ordered)
    return cells, lengths


_INDEX = re.compile(r"\b(?:segment|hypothesis|hypotheses|reference|row) (\d+)")


def _located(plan, err, hyps, streams, partition, where, row_offset=0):
    """The error, naming the partition and the row it is about."""
    row = None
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            row = i
            break
    if row is None:
        for stream in streams:
            for i, ref in enumerate(stream):
                if ref is not None and not isinstance(ref, str):
                    row = i if row is None else min(row, i)
                    break
    if row is None:
        found = _INDEX.search(str(err))
        if found and int(found.group(1)) < len(hyps):
            row = int(found.group(1))
    place = [] if partition is None else [f"partition {partition}"]
    if row is not None:
        place.append(f"row {row + row_offset}")
        if where is not None:
            extra = where(row)
            if extra:
                place[-1] += f" ({extra})"
    text = f"{plan.engine}: {', '.join(place)}: {err}" if place else f"{plan.engine}: {err}"
    if isinstance(err, TypeError):
        return _PartitionTypeError(text)
    return PartitionError(text)


def layout_error(engine, err, partition=None):
    """An error reading a partition's rows (a row without its reference field, ...) as a
    PartitionError naming the engine and the partition; `err` names the row."""
    place = "" if partition is None else f" partition {partition}:"
    text = f"{engine}:{place} {err}"
    return _PartitionTypeError(text) if isinstance(err, TypeError) else PartitionError(text)


class _PartitionTypeError(PartitionError, TypeError):
    """A PartitionError about a value of the wrong type (a TypeError too)."""


def _ordered_sum(lengths):
    """sacreBLEU's sum_of_lists on one column: left to right from 0 (not math.fsum, not the
    builtin sum, which compensates on Python 3.12+)."""
    return functools.reduce(operator.add, lengths, 0)


def finish(plan, partial):
    """The metric's Score of the summed statistics (computed once, here), bit for bit what
    `metric.corpus_score` gives on the whole corpus; sets the client metric's `num_refs`.

    :raises ValueError: for an empty corpus (as cybleu.corpus_*), or for ordered sums that depend
        on an order the engine did not keep.
    """
    values = partial.values
    metric = plan.metric
    prefix = type(metric).__name__
    if values[0] == 0:
        raise ValueError(f"{prefix}: no hypotheses: the corpus is empty.")
    low, high = values[2], values[3]
    metric.num_refs = low if low == high else -1
    if plan.checks_tokenized and not metric._force and values[1] >= 100:
        metric._warn_tokenized()
    columns = plan.stat_columns
    n_ordered = sum(col.adds == "ordered" for col in columns)
    inexact = values[-1] if n_ordered else 0
    stats, j, k = [], 0, 4
    for col in columns:
        if col.adds == "exact":
            stats.append(from_units(from_limbs(values[k:k + EXACT_LIMBS])))
            k += EXACT_LIMBS
            continue
        cell = values[k]
        k += 1
        if col.adds == "int":
            stats.append(cell)
        elif inexact == 0 and cell < (_EXACT_LIMIT << SHIFT):
            stats.append(cell / _UNIT)
            j += 1
        elif partial.lengths is not None and len(partial.lengths) == values[0] * n_ordered:
            stats.append(_ordered_sum(partial.lengths[j::n_ordered]))
            j += 1
        else:
            raise ValueError(
                f"{plan.engine}: {inexact} segments have a {metric.label} {col.name} that is not a "
                "multiple of 1/1024 (an average over 3, 5, 6, ... references of different "
                "lengths), so sacreBLEU's float sum of them depends on the order of the "
                "segments, which this reduction does not keep; score these rows with an ordered "
                "reduction (see the cybleu scale guide)")
    return metric._compute_score_from_stats(stats)


def columns_of(items, hyp, refs):
    """(hyps, streams) from rows `items` (tuples, lists or dicts): `hyp` the hypothesis's key,
    `refs` a list of keys (one per reference stream) or a single key whose value is a list of
    references. Defaults for tuples: hypothesis first, the rest references. Rows that are plain
    strings are hypotheses only (their references come from elsewhere, e.g. `references=`)."""
    items = items if isinstance(items, list) else list(items)
    if not items:
        return [], []
    strings = [isinstance(item, str) for item in items]
    if any(strings):
        # indexing a string row would take its first character as the hypothesis: a silent 0
        if all(strings) and hyp is None and refs is None:
            return items, []
        raise TypeError(f"row {strings.index(True)} is a string: rows are tuples (hyp, ref, "
                        "...), lists or dicts when they hold references or hyp=/refs= name their "
                        "parts; rows of hypotheses alone take their references from references=")
    if hyp is None:
        hyp = 0
    hyps = _field(items, hyp, "hypothesis")
    if refs is None:
        # rows of different lengths: the missing references are None (the widest row counts)
        width = max(map(_width, items))
        if width == 2 and isinstance(items[0][1], (list, tuple)):
            return hyps, _list_column(_field(items, 1, "references"))
        return hyps, [[item[k] if len(item) > k else None for item in items]
                      for k in range(1, width)]
    if isinstance(refs, (list, tuple)):
        return hyps, [_field(items, key, "reference") for key in refs]
    return hyps, _list_column(_field(items, refs, "references"))


def require_references(hyps, streams):
    """A ValueError when rows that should hold their references hold none (rows of hypotheses
    alone, and no references= to take them from)."""
    if hyps and not streams:
        raise ValueError("row 0 has no reference: rows are (hyp, ref, ...) tuples; rows of "
                         "hypotheses alone take their references from references=")


def _width(item):
    try:
        return len(item)
    except TypeError:
        raise TypeError(f"a row is {type(item).__name__}, not a tuple, list or dict") from None


def _field(items, key, what):
    """The field `key` of every row; a row without it is an error naming the row and the key
    (not a bare IndexError or KeyError)."""
    try:
        return [item[key] for item in items]
    except (IndexError, KeyError, TypeError):
        pass
    for i, item in enumerate(items):
        try:
            item[key]
        except (IndexError, KeyError):
            raise ValueError(f"row {i} has no {what} field {key!r} (the row has "
                             f"{_describe(item)})") from None
        except TypeError:
            raise TypeError(f"row {i} is {type(item).__name__}: its {what} field {key!r} "
                            "cannot be read (rows are tuples, lists or dicts)") from None
    raise AssertionError("unreachable")


def _describe(item):
    if isinstance(item, dict):
        return f"the keys {', '.join(map(repr, item)) or 'none'}"
    return f"{len(item)} field{'s' if len(item) != 1 else ''}"


def _list_column(cells):
    """Reference streams from one list of references per row (padded with None)."""
    for i, cell in enumerate(cells):
        if isinstance(cell, (str, bytes)):
            # list(cell) would make each character a reference: a silently wrong score
            raise TypeError(
                f"row {i}: the references are a string ({cell[:40]!r}), not a list of "
                "references. A dataframe's list column turns into strings where Dask converts "
                "object columns (set dask.config 'dataframe.convert-string' to False before "
                "building the frame); a single reference per row goes in refs=[column].")
    cells = [[] if cell is None else list(cell) for cell in cells]
    width = max(map(len, cells), default=0)
    return [[cell[k] if k < len(cell) else None for cell in cells] for k in range(width)]
