"""Exact corpus BLEU, chrF and TER as Ray Data aggregations; sentence scores and best-of-n as
`map_batches` callables. For example::

    import ray, cybleu.ray
    ds = ray.data.from_items([{"hyp": h, "ref": r} for h, r in zip(hyps, refs)])
    ds.aggregate(cybleu.ray.CorpusBLEU(hyp="hyp", refs=["ref"]))["bleu"].score
    ds.map_batches(cybleu.ray.SentenceScores("bleu", hyp="hyp", refs=["ref"]),
                   batch_format="pyarrow")                      # adds a column "bleu"

Each block's rows go through cybleu's compiled kernel into one vector of integer statistics; Ray
combines the vectors (in any order: integers add exactly) and `finalize` computes the score once,
from the sum: bit for bit `cybleu.corpus_*` (and sacreBLEU) on the same rows.

The examples below call the aggregations' steps and the callables on batches directly, as Ray
does on each block, so they run without starting Ray.

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


def _binary(column, kind):
    return TypeError(
        f"{ENGINE}: column {column!r} holds bytes ({kind}), not text: Ray Data makes a whole "
        "column binary when one of its cells is bytes, and cybleu scores str only. Decode the "
        "bytes (or drop that row) before scoring")


def _check_text_type(column, values):
    """Refuse a binary column (its type says so: the cells that made it binary are gone)."""
    dtype = getattr(values, "type", None)          # a pyarrow ChunkedArray or Array
    if dtype is not None:
        import pyarrow as pa
        if pa.types.is_binary(dtype) or pa.types.is_large_binary(dtype) \
                or pa.types.is_fixed_size_binary(dtype) \
                or getattr(pa.types, "is_binary_view", lambda t: False)(dtype):
            raise _binary(column, f"Arrow type {dtype}")
        return
    dtype = getattr(values, "dtype", None)          # numpy or pandas
    if getattr(dtype, "kind", None) == "S":
        raise _binary(column, f"dtype {dtype}")
    if dtype is not None and str(dtype).startswith(("binary", "bytes")):
        raise _binary(column, f"dtype {dtype}")


def _no_bytes(column, values):
    """A column whose cells are bytes (a binary column handed over as objects): refused as a
    binary column, not as the first row's fault."""
    first = next((v for v in values if v is not None), None)
    if isinstance(first, (bytes, bytearray)):
        raise _binary(column, "bytes cells")
    return values


def _pylist(block, column):
    """A block's column as a Python list (Arrow or pandas blocks), missing values as None."""
    if hasattr(block, "column") and hasattr(block, "schema"):      # pyarrow.Table
        values = block.column(column)
        _check_text_type(column, values)
        return values.to_pylist()
    series = block[column]
    _check_text_type(column, series)
    values = _no_bytes(column, series.tolist())
    if getattr(series, "hasnans", False):
        import pandas as pd
        values = [None if not isinstance(v, (list, tuple, str)) and v is not None
                  and bool(pd.isna(v)) else v for v in values]
    return values


def _columns(block, hyp, refs):
    hyps = _pylist(block, hyp)
    if isinstance(refs, (list, tuple)):
        return hyps, [_pylist(block, c) for c in refs]
    return hyps, _partition._list_column(_pylist(block, refs))


def _first_words(hyps):
    def where(row):
        text = hyps[row] if isinstance(hyps[row], str) else None
        return None if text is None else f"hypothesis {text[:40]!r}"
    return where


class CorpusScore(AggregateFnV2):
    """A corpus score as a Ray Data aggregation: `ds.aggregate(CorpusScore(metric, ...))` returns
    `{name: score}`, the score bit for bit `metric.corpus_score` (and sacreBLEU) on the dataset's
    rows, however Ray cuts them into blocks.

    Ray calls `aggregate_block` on each block (one vector of integer statistics, the accumulator, a
    list of ints), `combine` to add two accumulators, in any order, and `finalize` once on the sum.

    TER with three or more references per segment of unequal lengths needs its reference lengths
    added in the dataset's order, which an aggregation does not keep: `finalize` raises a ValueError
    saying so (one or two references, the usual case, are exact in any order).

    :param metric: A `cybleu.metrics.BLEU`, `CHRF` or `TER` object, with its settings (`finalize`
        sets its `num_refs`, so `metric.get_signature()` works afterwards).
    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param name: The result's key in the dict `ds.aggregate` returns (default: "bleu", "chrf" or
        "ter").
    :raises TypeError: `metric` is not a cybleu BLEU, CHRF or TER object.

    >>> import pandas as pd
    >>> import cybleu.ray
    >>> from cybleu.metrics import TER
    >>> ter = cybleu.ray.CorpusScore(TER(case_sensitive=True), hyp="hyp", refs=["ref"])
    >>> block = pd.DataFrame({"hyp": ["The cat sat on the mat.", "Hello, world!"],
    ...                       "ref": ["The cat is on the mat.", "Hello world!"]})
    >>> print(ter.finalize(ter.aggregate_block(block)))     # ds.aggregate(ter)["ter"] on these rows
    TER = 25.00
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
        """One block's statistics: its rows through the metric's compiled kernel into one vector.

        :param block: A block of the dataset: a pyarrow Table or a pandas DataFrame holding the
            hypothesis and reference columns (None or null where a row lacks a reference).
        :returns: The statistics vector, a list of ints (an accumulator).
        :raises cybleu._scale.partition.PartitionError: Bad input (a hypothesis that is not a
            string, ...): a ValueError naming the row and the hypothesis's first words.
        """
        hyps, streams = _columns(block, self.hyp, self.refs)
        partial = _partition.partition_stats(self.plan, hyps, streams, None,
                                             _first_words(hyps))
        return list(partial.values)

    def combine(self, current_accumulator, new):
        """Two accumulators added (the reference counts by min and max, the rest by sum): exact,
        in any order.

        :param current_accumulator: A statistics vector (a list of ints).
        :param new: Another one.
        :returns: Their sum, a new list.
        """
        return list(_partition.merge([_partition.Partial(list(current_accumulator)),
                                      _partition.Partial(list(new))]).values)

    def finalize(self, accumulator):
        """The score of the summed statistics, computed once: bit for bit `metric.corpus_score`
        on all the rows.

        :param accumulator: The statistics vector of the whole dataset.
        :returns: The metric's score (`BLEUScore`, `CHRFScore` or `TERScore`).
        :raises ValueError: An empty dataset, or TER reference lengths whose sum depends on the
            rows' order (see the class).
        """
        return _partition.finish(self.plan, _partition.Partial([int(v) for v in accumulator]))


class CorpusBLEU(CorpusScore):
    """Corpus BLEU as a Ray Data aggregation: `ds.aggregate(CorpusBLEU(...))["bleu"]` is bit for bit
    `cybleu.corpus_bleu` (and sacreBLEU) on the dataset's rows. A `CorpusScore` of a BLEU metric.

    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param name: The result's key (default "bleu").
    :param metric: A `cybleu.metrics.BLEU` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.BLEU`'s arguments (`tokenize`, `lowercase`, `smooth_method`,
        ...).
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a BLEU object.

    Ray runs the aggregation's steps on a dataset's blocks; here they run on two blocks by hand:

    >>> import pyarrow as pa
    >>> import cybleu, cybleu.ray
    >>> bleu = cybleu.ray.CorpusBLEU(hyp="hyp", refs=["ref"])
    >>> blocks = [pa.table({"hyp": ["The cat sat on the mat."], "ref": ["The cat is on the mat."]}),
    ...           pa.table({"hyp": ["Hello, world!"], "ref": ["Hello world!"]})]
    >>> total = bleu.combine(bleu.aggregate_block(blocks[0]), bleu.aggregate_block(blocks[1]))
    >>> print(bleu.finalize(total))          # ds.aggregate(bleu)["bleu"] on these rows
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> print(cybleu.corpus_bleu(["The cat sat on the mat.", "Hello, world!"],
    ...                          [["The cat is on the mat.", "Hello world!"]]))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    """

    def __init__(self, hyp="hyp", refs=("ref",), name=None, metric=None, **kwargs):
        super().__init__(_partition.make_metric("bleu", metric, **kwargs), hyp, refs, name)


class CorpusCHRF(CorpusScore):
    """Corpus chrF (chrF++ with `word_order=2`) as a Ray Data aggregation:
    `ds.aggregate(CorpusCHRF(...))["chrf"]` is bit for bit `cybleu.corpus_chrf` (and sacreBLEU) on
    the dataset's rows. A `CorpusScore` of a CHRF metric.

    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param name: The result's key (default "chrf").
    :param metric: A `cybleu.metrics.CHRF` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.CHRF`'s arguments (`char_order`, `word_order`, `beta`, ...).
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a CHRF object.

    >>> import pandas as pd
    >>> import cybleu, cybleu.ray
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs_a = ["The cat is on the mat.", "Hello world!"]
    >>> refs_b = ["A cat sat on the mat.", None]           # no second reference for segment 2
    >>> chrf = cybleu.ray.CorpusCHRF(hyp="hyp", refs=["ref_a", "ref_b"], word_order=2)
    >>> block = pd.DataFrame({"hyp": hyps, "ref_a": refs_a, "ref_b": refs_b})
    >>> print(chrf.finalize(chrf.aggregate_block(block)))   # ds.aggregate(chrf)["chrf"]
    chrF2++ = 80.36
    >>> print(cybleu.corpus_chrf(hyps, [refs_a, refs_b], word_order=2))
    chrF2++ = 80.36
    """

    def __init__(self, hyp="hyp", refs=("ref",), name=None, metric=None, **kwargs):
        super().__init__(_partition.make_metric("chrf", metric, **kwargs), hyp, refs, name)


class CorpusTER(CorpusScore):
    """Corpus TER as a Ray Data aggregation: `ds.aggregate(CorpusTER(...))["ter"]` is bit for bit
    `cybleu.corpus_ter` (and sacreBLEU) on the dataset's rows, but for three or more references of
    unequal lengths per segment, which `finalize` refuses (see `CorpusScore`). A `CorpusScore` of a
    TER metric.

    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param name: The result's key (default "ter").
    :param metric: A `cybleu.metrics.TER` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.TER`'s arguments (`normalized`, `no_punct`, `asian_support`,
        `case_sensitive`).
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a TER object.

    >>> import pyarrow as pa
    >>> import cybleu, cybleu.ray
    >>> ter = cybleu.ray.CorpusTER(hyp="hyp", refs="refs")      # one column of reference lists
    >>> block = pa.table({"hyp": ["The cat sat on the mat.", "Hello, world!"],
    ...                   "refs": [["The cat is on the mat."], ["Hello world!"]]})
    >>> print(ter.finalize(ter.aggregate_block(block)))     # ds.aggregate(ter)["ter"]
    TER = 25.00
    >>> print(cybleu.corpus_ter(["The cat sat on the mat.", "Hello, world!"],
    ...                         [["The cat is on the mat.", "Hello world!"]]))
    TER = 25.00
    """

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
        _check_text_type(column, values)
        return _no_bytes(column, values.tolist() if hasattr(values, "tolist") else list(values))
    return _pylist(batch, column)


def _batch_columns(batch, hyp, refs):
    hyps = _dict_column(batch, hyp)
    if isinstance(refs, (list, tuple)):
        return hyps, [_dict_column(batch, c) for c in refs]
    return hyps, _partition._list_column(_dict_column(batch, refs))


class SentenceScores:
    """A `map_batches` callable adding each row's sentence score as a column:
    `ds.map_batches(SentenceScores("bleu", hyp="hyp", refs=["ref"]))`. Each score is bit for bit
    the metric's `sentence_score` (sacreBLEU's). It takes any batch format ("pyarrow", "pandas",
    "numpy") and returns the same.

    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`) with its
        settings.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param column: The new column's name (default: `metric` when it is a name, else the metric's
        class name in lower case).
    :param kwargs: The metric class's arguments, with a metric name.
    :raises ValueError: An unknown metric name.
    :raises TypeError: A `metric` that is neither a name nor a cybleu metric object, or both a
        metric object and `kwargs`.

    >>> import pyarrow as pa
    >>> import cybleu, cybleu.ray
    >>> batch = pa.table({"hyp": ["The cat sat on the mat.", "Hello, world!"],
    ...                   "ref": ["The cat is on the mat.", "Hello world!"]})
    >>> scored = cybleu.ray.SentenceScores("bleu", hyp="hyp", refs=["ref"])(batch)
    >>> scored.column_names
    ['hyp', 'ref', 'bleu']
    >>> scored.column("bleu").to_pylist()
    [48.892302243490086, 35.35533905932737]
    >>> cybleu.batch_sentence_bleu(["The cat sat on the mat.", "Hello, world!"],
    ...                            [["The cat is on the mat.", "Hello world!"]]).tolist()
    [48.892302243490086, 35.35533905932737]
    """

    def __init__(self, metric="bleu", hyp="hyp", refs=("ref",), column=None, **kwargs):
        self.metric = _select.sentence_metric(metric, **kwargs)
        self.hyp = hyp
        self.refs = list(refs) if isinstance(refs, (list, tuple)) else refs
        self.column = column or (metric if isinstance(metric, str)
                                 else type(self.metric).__name__.lower())

    def __call__(self, batch):
        """Score one batch.

        :param batch: A batch of rows: a pyarrow Table, a pandas DataFrame or a dict of numpy arrays
            (Ray's "pyarrow", "pandas" and "numpy" batch formats).
        :returns: A batch of the same kind with the scores (float64) in the new column, which
            replaces a column of that name; the batch given is not changed.
        :raises cybleu._scale.partition.PartitionError: Bad input (a hypothesis that is not a
            string, ...): a ValueError naming the row and the hypothesis's first words.
        """
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
    """A `map_batches` callable adding, for each row, the best of its k candidates by sentence
    score, as `cybleu.best_of` picks it (the highest score, for TER the lowest; the first of equal
    scores): `ds.map_batches(BestOf(k, cands="cands", refs=["ref"]))`. It adds three columns:
    `<prefix>index` (the best candidate's position, 0 to k-1), `<prefix>score` (its sentence score,
    bit for bit the metric's `sentence_score`) and `<prefix>best` (the candidate).

    :param k: The number of candidates per row.
    :param cands: The column holding each row's k candidates, as a list (default "cands").
    :param refs: The reference columns, one per stream (a list or tuple; default `("ref",)`), or
        the name of one column holding a list of references per row.
    :param metric: As for `SentenceScores` (default "bleu").
    :param prefix: The new columns' prefix (default ``"best_"``).
    :param kwargs: The metric class's arguments, with a metric name.
    :raises ValueError: `k` is not a positive int, or an unknown metric name.
    :raises TypeError: A `metric` that is neither a name nor a cybleu metric object.

    >>> import pyarrow as pa
    >>> import cybleu.ray
    >>> batch = pa.table({"cands": [["a cat", "the cat sat", "the dog"]], "ref": ["the cat sat"]})
    >>> picked = cybleu.ray.BestOf(3)(batch)
    >>> picked.column_names
    ['cands', 'ref', 'best_index', 'best_score', 'best_best']
    >>> picked.select(["best_index", "best_score", "best_best"]).to_pylist()
    [{'best_index': 1, 'best_score': 100.00000000000004, 'best_best': 'the cat sat'}]
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
        """Pick the best candidates of one batch.

        :param batch: A batch of rows: a pyarrow Table, a pandas DataFrame or a dict of numpy
            arrays.
        :returns: A batch of the same kind with the three new columns (replacing columns of those
            names); the batch given is not changed.
        :raises cybleu._scale.partition.PartitionError: A row that does not hold k candidates,
            naming it.
        """
        groups = _dict_column(batch, self.cands)
        for i, group in enumerate(groups):
            if isinstance(group, str):
                raise _partition.PartitionError(
                    f"{ENGINE}: row {i} of a batch: the candidates are a string, not a list of "
                    f"k={self.k} strings")
        groups = [None if g is None else list(g) for g in groups]
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
