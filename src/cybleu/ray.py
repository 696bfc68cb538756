"""Exact corpus BLEU, chrF and TER as Ray Data aggregations; sentence scores and best-of-n as
`map_batches` callables. For example::

    import ray, cybleu.ray
    ds = ray.data.from_items([{"hyp": h, "ref": r} for h, r in zip(hyps, refs)])
    ds.aggregate(cybleu.ray.CorpusBLEU(hyp="hyp", refs=["ref"]))["bleu"].score
    ds.map_batches(cybleu.ray.SentenceScores("bleu", hyp="hyp", refs=["ref"]),
                   batch_format="pyarrow")                      # adds a column "bleu"

Each block's rows go through the compiled kernel into one vector of integer statistics
(cybleu._scale.partition); Ray combines the vectors (any order: integers add exactly) and `finalize`
computes the score once, from the sum: bit for bit `cybleu.corpus_*` on the same rows.

Needs `pip install "cybleu[ray]"`: Ray Data's `AggregateFnV2` is recent and its interface may
still change, so the extra pins the Ray versions cybleu is tested with.
"""
try:
    from ray.data.aggregate import AggregateFnV2
except ImportError as _err:  # pragma: no cover - the message is the point
    raise ImportError('cybleu.ray needs Ray Data: pip install "cybleu[ray]"') from _err

from ._scale import partition as _partition, select as _select

__all__ = ["CorpusBLEU", "CorpusCHRF", "CorpusTER", "CorpusScore", "SentenceScores", "BestOf"]

ENGINE = "cybleu.ray"


def _pylist(block, column):
    """A block's column as a Python list (Arrow or pandas blocks), missing values as None."""
    if hasattr(block, "column") and hasattr(block, "schema"):      # pyarrow.Table
        return block.column(column).to_pylist()
    series = block[column]
    values = series.tolist()
    if getattr(series, "hasnans", False):
        import pandas as pd
        values = [None if not isinstance(v, (list, tuple, str)) and v is not None
                  and bool(pd.isna(v)) else v for v in values]
    return values


def _columns(block, hyp, refs):
    hyps = _pylist(block, hyp)
    if isinstance(refs, (list, tuple)):
        return hyps, [_pylist(block, c) for c in refs]
    return hyps, _partition._list_column(
        [None if cell is None else list(cell) for cell in _pylist(block, refs)])


def _first_words(hyps):
    def where(row):
        text = hyps[row] if isinstance(hyps[row], str) else None
        return None if text is None else f"hypothesis {text[:40]!r}"
    return where


class CorpusScore(AggregateFnV2):
    """A corpus score as a Ray Data aggregation: `ds.aggregate(CorpusScore(metric, ...))`
    returns `{name: Score}`, the Score bit for bit `metric.corpus_score` on the rows.

    :param metric: a cybleu.metrics BLEU, CHRF or TER object (its settings).
    :param hyp: the hypothesis column.
    :param refs: the reference columns (one per stream), or one column holding lists.
    :param name: the result's key (default: "bleu", "chrf" or "ter").

    The accumulator is the statistics vector (a list of ints). TER with three or more references
    per segment of unequal lengths needs its lengths added in the dataset's order, which an
    aggregation does not keep: `finalize` raises a ValueError saying so (one or two references,
    the usual case, are exact in any order).
    """

    def __init__(self, metric, hyp="hyp", refs=("ref",), name=None):
        refs = list(refs) if isinstance(refs, (list, tuple)) else refs
        self.plan = _partition.Plan(metric, len(refs) if isinstance(refs, list) else None,
                                    ENGINE)
        # an aggregation keeps no order: TER lengths that need one are detected in finalize
        self.plan.ordered = False
        self.hyp, self.refs = hyp, refs
        self._width = len(self.plan.columns)
        super().__init__(name or self.plan.kind, zero_factory=self._zero, on=None,
                         ignore_nulls=False)

    def _zero(self):
        return list(self.plan.empty().values)

    def aggregate_block(self, block):
        hyps, streams = _columns(block, self.hyp, self.refs)
        partial = _partition.partition_stats(self.plan, hyps, streams, None,
                                             _first_words(hyps))
        return list(partial.values)

    def combine(self, current_accumulator, new):
        return list(_partition.merge([_partition.Partial(list(current_accumulator)),
                                      _partition.Partial(list(new))]).values)

    def finalize(self, accumulator):
        return _partition.finish(self.plan, _partition.Partial([int(v) for v in accumulator]))


class CorpusBLEU(CorpusScore):
    """Corpus BLEU as a Ray Data aggregation; `kwargs` are cybleu.metrics.BLEU's arguments.

    >>> ds.aggregate(CorpusBLEU(hyp="hyp", refs=["ref"]))["bleu"].score   # doctest: +SKIP
    """

    def __init__(self, hyp="hyp", refs=("ref",), name=None, metric=None, **kwargs):
        super().__init__(_partition.make_metric("bleu", metric, **kwargs), hyp, refs, name)


class CorpusCHRF(CorpusScore):
    """Corpus chrF (word_order=2: chrF++) as a Ray Data aggregation; `kwargs` are
    cybleu.metrics.CHRF's arguments."""

    def __init__(self, hyp="hyp", refs=("ref",), name=None, metric=None, **kwargs):
        super().__init__(_partition.make_metric("chrf", metric, **kwargs), hyp, refs, name)


class CorpusTER(CorpusScore):
    """Corpus TER as a Ray Data aggregation; `kwargs` are cybleu.metrics.TER's arguments."""

    def __init__(self, hyp="hyp", refs=("ref",), name=None, metric=None, **kwargs):
        super().__init__(_partition.make_metric("ter", metric, **kwargs), hyp, refs, name)


def _with_column(batch, name, values):
    """The batch (pyarrow Table, pandas DataFrame or dict of numpy arrays) with a new column."""
    import numpy as np
    if hasattr(batch, "append_column") and hasattr(batch, "schema"):
        import pyarrow as pa
        if name in batch.column_names:
            batch = batch.drop_columns([name])
        return batch.append_column(name, pa.array(values))
    if isinstance(batch, dict):
        out = dict(batch)
        out[name] = np.asarray(values)
        return out
    batch = batch.copy()
    batch[name] = values
    return batch


def _dict_column(batch, column):
    if isinstance(batch, dict):
        values = batch[column]
        return values.tolist() if hasattr(values, "tolist") else list(values)
    return _pylist(batch, column)


def _batch_columns(batch, hyp, refs):
    hyps = _dict_column(batch, hyp)
    if isinstance(refs, (list, tuple)):
        return hyps, [_dict_column(batch, c) for c in refs]
    return hyps, _partition._list_column(
        [None if cell is None else list(cell) for cell in _dict_column(batch, refs)])


class SentenceScores:
    """A `map_batches` callable adding each row's sentence score as a column, bit for bit the
    metric's `sentence_score`; works with any batch_format ("pyarrow", "pandas", "numpy").

    :param metric: "bleu" (effective order on, as sacreBLEU's sentence_bleu), "chrf", "chrf++",
        "ter" or a cybleu metric object.
    :param hyp, refs: the hypothesis column and the reference columns (or one list column).
    :param column: the new column's name (default: the metric's name).

    >>> ds.map_batches(SentenceScores("chrf", hyp="hyp", refs=["ref"]))    # doctest: +SKIP
    """

    def __init__(self, metric="bleu", hyp="hyp", refs=("ref",), column=None, **kwargs):
        self.metric = _select.sentence_metric(metric, **kwargs)
        self.hyp = hyp
        self.refs = list(refs) if isinstance(refs, (list, tuple)) else refs
        self.column = column or (metric if isinstance(metric, str)
                                 else type(self.metric).__name__.lower())

    def __call__(self, batch):
        import numpy as np
        hyps, streams = _batch_columns(batch, self.hyp, self.refs)
        if not hyps:
            return _with_column(batch, self.column, np.empty(0, dtype=np.float64))
        try:
            scores = _select.sentence_scores(self.metric, hyps, streams)
        except (TypeError, ValueError) as err:
            plan = _partition.Plan(self.metric, len(streams), ENGINE)
            raise _partition._located(plan, err, hyps, streams, None,
                                      _first_words(hyps)) from err
        return _with_column(batch, self.column, scores)


class BestOf:
    """A `map_batches` callable adding, per row, the best of its k candidates by sentence score
    (as cybleu.best_of): columns `<prefix>index`, `<prefix>score`, `<prefix>best`.

    :param k: candidates per row.
    :param cands: the column holding each row's k candidates (a list).
    :param refs: the reference columns (or one list column).
    :param metric: as for SentenceScores.
    """

    def __init__(self, k, cands="cands", refs=("ref",), metric="bleu", prefix="best_",
                 **kwargs):
        _select._check_k(k)
        self.k = k
        self.metric = _select.sentence_metric(metric, **kwargs)
        self.cands = cands
        self.refs = list(refs) if isinstance(refs, (list, tuple)) else refs
        self.prefix = prefix

    def __call__(self, batch):
        groups = [None if g is None else list(g) for g in _dict_column(batch, self.cands)]
        _, streams = _batch_columns(batch, self.cands, self.refs)
        for i, group in enumerate(groups):
            if group is None or len(group) != self.k:
                raise _partition.PartitionError(
                    f"{ENGINE}: row {i} of a batch has {0 if group is None else len(group)} "
                    f"candidates, not k={self.k}")
        if groups:
            best = _select.best_of([c for g in groups for c in g], streams, self.k, self.metric)
            index, score = best.index, best.score
        else:
            import numpy as np
            index, score = np.empty(0, np.int64), np.empty(0, np.float64)
        chosen = [g[j] for g, j in zip(groups, index.tolist())]
        batch = _with_column(batch, self.prefix + "index", index)
        batch = _with_column(batch, self.prefix + "score", score)
        return _with_column(batch, self.prefix + "best", chosen)
