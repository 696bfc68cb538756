"""Exact corpus BLEU, chrF and TER on Spark DataFrames; sentence scores as pandas UDFs.
For example::

    import cybleu.spark
    cybleu.spark.corpus_bleu(df, hyp="hyp", refs=["ref_a", "ref_b"]).score
    df.withColumn("bleu", cybleu.spark.sentence_bleu("hyp", "ref_a", "ref_b"))

Corpus scores run `mapInArrow`: each partition's rows go through the compiled kernel into one row
of integer statistics (cybleu._scale.partition), then Spark's own `sum` (with partial aggregation) adds
the rows, as DECIMAL(38,0) so that nothing overflows; the score is computed once, on the driver,
from the sums: bit for bit `cybleu.corpus_*` on the same rows. No RDD is used, so this works the
same under Spark Connect.

Needs `pip install "cybleu[spark]"` (pyspark with pyarrow and pandas) and a Java runtime.
"""
try:
    import pyspark  # noqa: F401
    from pyspark.sql import functions as F
except ImportError as _err:  # pragma: no cover - the message is the point
    raise ImportError('cybleu.spark needs PySpark: pip install "cybleu[spark]"') from _err

from ._scale import partition as _partition, select as _select

__all__ = ["corpus_bleu", "corpus_chrf", "corpus_ter", "corpus_score", "statistics_frame",
           "sentence_bleu", "sentence_chrf", "sentence_ter", "sentence_udf", "best_of_udf"]

ENGINE = "cybleu.spark"


def _refs_list(refs):
    return [refs] if isinstance(refs, str) else list(refs)


def _arrow_columns(batch, hyp, refs, list_column):
    hyps = batch.column(hyp).to_pylist()
    if list_column:
        return hyps, _partition._list_column(batch.column(refs[0]).to_pylist())
    return hyps, [batch.column(c).to_pylist() for c in refs]


def _schema(plan):
    from pyspark.sql.types import BinaryType, LongType, StructField, StructType
    fields = [StructField("partition", LongType(), False)]
    fields += [StructField(name, LongType(), True) for name in plan.columns]
    fields.append(StructField("lengths", BinaryType(), True))
    return StructType(fields)


def _stats_function(plan, hyp, refs, list_column):
    def per_partition(batches):
        import pyarrow as pa
        from pyspark import TaskContext
        context = TaskContext.get()
        number = context.partitionId() if context is not None else None
        partials, offset = [], 0
        for batch in batches:
            hyps, streams = _arrow_columns(batch, hyp, refs, list_column)
            partials.append(_partition.partition_stats(plan, hyps, streams, number,
                                                       row_offset=offset))
            offset += len(hyps)
        total = _partition.merge(partials) if partials else plan.empty()
        row = {"partition": [number if number is not None else 0]}
        for name, value in zip(plan.columns, total.values):
            row[name] = [value]
        if total.values[0] == 0:
            row["min_refs"] = [None]
        row["lengths"] = [None if total.lengths is None else total.lengths.tobytes()]
        yield pa.RecordBatch.from_pydict(row, schema=_arrow_schema(plan))
    return per_partition


def _arrow_schema(plan):
    import pyarrow as pa
    return pa.schema([pa.field("partition", pa.int64(), False)]
                     + [pa.field(name, pa.int64()) for name in plan.columns]
                     + [pa.field("lengths", pa.binary())])


def statistics_frame(df, metric, hyp="hyp", refs=("ref",)):
    """(plan, a DataFrame with one row of integer statistics per partition of `df`), lazily.

    :param refs: the reference columns (one per stream), or one column of arrays of references.
    """
    refs = _refs_list(refs)
    missing = [c for c in [hyp] + refs if c not in df.columns]
    if missing:
        raise ValueError(f"{ENGINE}: no column {', '.join(map(repr, missing))} in the DataFrame "
                         f"(columns: {', '.join(df.columns)})")
    from pyspark.sql.types import ArrayType
    list_column = len(refs) == 1 and isinstance(df.schema[refs[0]].dataType, ArrayType)
    plan = _partition.Plan(metric, None if list_column else len(refs), ENGINE)
    stats = df.select(hyp, *refs).mapInArrow(_stats_function(plan, hyp, refs, list_column),
                                             _schema(plan))
    return plan, stats


def corpus_score(df, metric, hyp="hyp", refs=("ref",)):
    """The corpus score of a Spark DataFrame's rows with a cybleu metric object, bit for bit
    `metric.corpus_score(hyps, streams)` (rows in any partitioning).

    :param df: a DataFrame with a hypothesis column and reference columns.
    :param metric: a cybleu.metrics BLEU, CHRF or TER (its `num_refs` is set afterwards).
    :param hyp: the hypothesis column.
    :param refs: the reference columns, one per stream (None/null where a row lacks one), or one
        array column.
    :raises cybleu._scale.partition.PartitionError: (inside Spark's exception) naming the partition and
        the row, for bad input.
    """
    plan, stats = statistics_frame(df, metric, hyp, refs)
    if plan.ordered:
        # TER with 3+ references: its lengths are added in the DataFrame's order (partition
        # by partition), on the driver; the per-partition rows are few
        rows = sorted(stats.collect(), key=lambda r: r["partition"])
        from array import array
        partials = []
        for r in rows:
            values = [r[name] for name in plan.columns]
            if values[0] == 0:
                values[2] = plan.empty().values[2]
            lengths = array("d")
            if r["lengths"] is not None:
                lengths.frombytes(bytes(r["lengths"]))
            partials.append(_partition.Partial([int(v) for v in values], lengths))
        total = _partition.merge(partials) if partials else plan.empty()
        return _partition.finish(plan, total)
    sums = [F.sum(F.col(name).cast("decimal(38,0)")).alias(name) for name in plan.columns
            if name not in ("min_refs", "max_refs")]
    row = stats.agg(*sums, F.min("min_refs").alias("min_refs"),
                    F.max("max_refs").alias("max_refs")).collect()[0]
    values = []
    for name in plan.columns:
        value = row[name]
        values.append(0 if value is None else int(value))
    if row["min_refs"] is None:
        values[2] = plan.empty().values[2]
    return _partition.finish(plan, _partition.Partial(values))


def corpus_bleu(df, hyp="hyp", refs=("ref",), metric=None, **kwargs):
    """Corpus BLEU of a Spark DataFrame, bit for bit `cybleu.corpus_bleu` on its rows; `kwargs`
    are cybleu.metrics.BLEU's arguments (or pass `metric=`). See `corpus_score`.

    >>> cybleu.spark.corpus_bleu(df, "hyp", ["ref"]).score      # doctest: +SKIP
    """
    return corpus_score(df, _partition.make_metric("bleu", metric, **kwargs), hyp, refs)


def corpus_chrf(df, hyp="hyp", refs=("ref",), metric=None, **kwargs):
    """Corpus chrF (word_order=2: chrF++) of a Spark DataFrame; see `corpus_bleu`."""
    return corpus_score(df, _partition.make_metric("chrf", metric, **kwargs), hyp, refs)


def corpus_ter(df, hyp="hyp", refs=("ref",), metric=None, **kwargs):
    """Corpus TER of a Spark DataFrame; see `corpus_bleu`."""
    return corpus_score(df, _partition.make_metric("ter", metric, **kwargs), hyp, refs)


# -- sentence scores ------------------------------------------------------------------------------

def _cell_list(value):
    if value is None:
        return []
    return [None if v is None else v for v in list(value)]


def sentence_udf(metric="bleu", **kwargs):
    """A pandas UDF `f(hyp_column, refs_array_column) -> double` of sentence scores, bit for bit
    the metric's `sentence_score`. `sentence_bleu(...)` & co. build the columns for you."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf
    metric = _select.sentence_metric(metric, **kwargs)

    @pandas_udf("double")
    def score(hyp: pd.Series, refs: pd.Series) -> pd.Series:
        hyps = [None if h is None or (isinstance(h, float) and h != h) else h
                for h in hyp.tolist()]
        streams = _partition._list_column([_cell_list(cell) for cell in refs.tolist()])
        if not hyps:
            return pd.Series([], dtype="float64")
        try:
            values = _select.sentence_scores(metric, hyps, streams)
        except (TypeError, ValueError) as err:
            plan = _partition.Plan(metric, len(streams), ENGINE)
            raise _partition._located(plan, err, hyps, streams, None, None) from err
        return pd.Series(values, dtype="float64")

    return score


def _column(name_or_col):
    return F.col(name_or_col) if isinstance(name_or_col, str) else name_or_col


def _sentence(metric, hyp, refs, kwargs):
    if not refs:
        raise TypeError("give at least one reference column")
    # one string column per stream, gathered into an array per row (nulls kept as None)
    return sentence_udf(metric, **kwargs)(_column(hyp), F.array(*[_column(r) for r in refs]))


def sentence_bleu(hyp, *refs, **kwargs):
    """A Column of sentence BLEU (effective order on, as sacreBLEU's sentence_bleu) for
    `df.withColumn("bleu", sentence_bleu("hyp", "ref_a", "ref_b"))`: one reference column per
    stream (strings, null where missing). `kwargs`: cybleu.metrics.BLEU's arguments. For a
    column of reference arrays, call `sentence_udf("bleu")(F.col("hyp"), F.col("refs"))`."""
    return _sentence("bleu", hyp, refs, kwargs)


def sentence_chrf(hyp, *refs, **kwargs):
    """A Column of sentence chrF; see `sentence_bleu` (`word_order=2` for chrF++)."""
    return _sentence("chrf", hyp, refs, kwargs)


def sentence_ter(hyp, *refs, **kwargs):
    """A Column of sentence TER; see `sentence_bleu`."""
    return _sentence("ter", hyp, refs, kwargs)


def best_of_udf(k, metric="bleu", **kwargs):
    """A pandas UDF `f(candidates_array_column, refs_array_column) -> struct<index: int,
    score: double>`: the best of each row's k candidates, as cybleu.best_of."""
    import pandas as pd
    from pyspark.sql.functions import pandas_udf
    _select._check_k(k)
    metric = _select.sentence_metric(metric, **kwargs)

    @pandas_udf("index int, score double")
    def best(cands: pd.Series, refs: pd.Series) -> pd.DataFrame:
        groups = [_cell_list(g) for g in cands.tolist()]
        for i, g in enumerate(groups):
            if len(g) != k:
                raise _partition.PartitionError(f"{ENGINE}: row {i} of a batch has {len(g)} "
                                                f"candidates, not k={k}")
        streams = _partition._list_column([_cell_list(cell) for cell in refs.tolist()])
        if not groups:
            return pd.DataFrame({"index": pd.Series([], dtype="int32"),
                                 "score": pd.Series([], dtype="float64")})
        result = _select.best_of([c for g in groups for c in g], streams, k, metric)
        return pd.DataFrame({"index": result.index.astype("int32"), "score": result.score})

    return best
