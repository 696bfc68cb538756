"""Exact corpus BLEU, chrF and TER on Spark DataFrames; sentence scores as pandas UDFs.
For example::

    import cybleu.spark
    cybleu.spark.corpus_bleu(df, hyp="hyp", refs=["ref_a", "ref_b"]).score
    df.withColumn("bleu", cybleu.spark.sentence_bleu("hyp", "ref_a", "ref_b"))

Corpus scores run `mapInArrow`: each partition's rows go through cybleu's compiled kernel into
one row of integer statistics, then Spark's own `sum` (with partial aggregation) adds the rows,
as DECIMAL(38,0) so that nothing overflows; the score is computed once, on the driver, from the
sums: bit for bit `cybleu.corpus_*` (and sacreBLEU) on the same rows. No RDD is used, so this
works the same under Spark Connect.

Spark's Python workers must be able to import cybleu: on one machine, set `PYSPARK_PYTHON` to the
interpreter that has it installed. The examples below need a running SparkSession (and so a Java
runtime); each compares with cybleu's in-memory functions.

Needs `pip install "cybleu[spark]"` (pyspark with pyarrow and pandas) and a Java runtime.
"""
try:
    import pyspark  # noqa: F401 - the ImportError below names the extra
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
    """The statistics `corpus_score` adds up, lazily: a DataFrame with one row of integer statistics
    per partition of `df`, computed by `mapInArrow` when it is evaluated.

    :param df: A DataFrame with a hypothesis column and reference columns.
    :param metric: A `cybleu.metrics.BLEU`, `CHRF` or `TER` object, with its settings.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (default `("ref",)`; a single name is one
        column), or one array column of references.
    :returns: `(plan, frame)`. `plan.columns` names the statistics: `segments`, `dotted`,
        `min_refs`, `max_refs`, then the metric's own (BLEU's `hyp_len`, `ref_len`, `correct_1`,
        ..., `total_1`, ...). `frame` has the column `partition` (the partition's number), one
        LONG column per statistic, and `lengths` (binary: TER's per-segment reference lengths when
        they must be added in order, else null).
    :raises ValueError: A column that `df` does not have.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> from cybleu.metrics import BLEU
    >>> plan, stats = cybleu.spark.statistics_frame(df, BLEU(), "hyp", ["ref"])  # doctest: +SKIP
    >>> plan.columns[:6]                                                    # doctest: +SKIP
    ['segments', 'dotted', 'min_refs', 'max_refs', 'hyp_len', 'ref_len']
    >>> stats.groupBy().sum("segments", "hyp_len", "ref_len").first()      # doctest: +SKIP
    Row(sum(segments)=2, sum(hyp_len)=11, sum(ref_len)=10)
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
    """The corpus score of a Spark DataFrame's rows with a cybleu metric object (BLEU, CHRF or TER,
    with any settings): bit for bit `metric.corpus_score(hyps, streams)` on the same rows, and so
    sacreBLEU's score, however they are partitioned.

    TER with three or more references per segment (or an array column) stays exact too: the
    partitions' statistics, with their reference lengths, are then collected and added on the
    driver in partition order, as sacreBLEU adds them.

    :param df: A DataFrame with a hypothesis column and reference columns.
    :param metric: A `cybleu.metrics.BLEU`, `CHRF` or `TER` object. Its `num_refs` is set from the
        rows, so `metric.get_signature()` works afterwards.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (strings, null where a row lacks that
        reference; default `("ref",)`, a single name is one column), or one array column of
        references.
    :returns: The metric's score (`BLEUScore`, `CHRFScore` or `TERScore`), as
        `metric.corpus_score` returns it.
    :raises ValueError: A column that `df` does not have, or an empty DataFrame.
    :raises cybleu._scale.partition.PartitionError: Bad input (a hypothesis that is not a string,
        ...), inside the exception Spark raises: it names the partition and the row.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> from cybleu.metrics import TER
    >>> ter = TER(case_sensitive=True)
    >>> print(cybleu.spark.corpus_score(df, ter, "hyp", ["ref"]))          # doctest: +SKIP
    TER = 25.00
    >>> print(ter.corpus_score(hyps, [refs]))
    TER = 25.00
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
    """Corpus BLEU of a Spark DataFrame: bit for bit `cybleu.corpus_bleu` (and sacreBLEU) on its
    rows, however they are partitioned.

    :param df: A DataFrame with a hypothesis column and reference columns.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: The reference columns, one per stream (strings, null where a row lacks that
        reference; default `("ref",)`, a single name is one column), or one array column of
        references.
    :param metric: A `cybleu.metrics.BLEU` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.BLEU`'s arguments (`tokenize`, `lowercase`, `smooth_method`,
        ...).
    :returns: A `BLEUScore`, as `cybleu.corpus_bleu` returns it.
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a BLEU object.
    :raises ValueError: A column that `df` does not have, an empty DataFrame, or a bad BLEU
        argument.
    :raises cybleu._scale.partition.PartitionError: Bad input, inside the exception Spark raises
        (see `corpus_score`).

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> print(cybleu.spark.corpus_bleu(df, "hyp", ["ref"]))               # doctest: +SKIP
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> print(cybleu.corpus_bleu(hyps, [refs]))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    """
    return corpus_score(df, _partition.make_metric("bleu", metric, **kwargs), hyp, refs)


def corpus_chrf(df, hyp="hyp", refs=("ref",), metric=None, **kwargs):
    """Corpus chrF (chrF++ with `word_order=2`) of a Spark DataFrame: bit for bit
    `cybleu.corpus_chrf` (and sacreBLEU) on its rows, however they are partitioned.

    :param df: A DataFrame with a hypothesis column and reference columns.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: As for `corpus_bleu`.
    :param metric: A `cybleu.metrics.CHRF` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.CHRF`'s arguments (`char_order`, `word_order`, `beta`, ...).
    :returns: A `CHRFScore`, as `cybleu.corpus_chrf` returns it.
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a CHRF object.
    :raises ValueError: As for `corpus_bleu`.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> print(cybleu.spark.corpus_chrf(df, "hyp", ["ref"], word_order=2))  # doctest: +SKIP
    chrF2++ = 68.19
    >>> print(cybleu.corpus_chrf(hyps, [refs], word_order=2))
    chrF2++ = 68.19
    """
    return corpus_score(df, _partition.make_metric("chrf", metric, **kwargs), hyp, refs)


def corpus_ter(df, hyp="hyp", refs=("ref",), metric=None, **kwargs):
    """Corpus TER of a Spark DataFrame: bit for bit `cybleu.corpus_ter` (and sacreBLEU) on its rows,
    however they are partitioned.

    :param df: A DataFrame with a hypothesis column and reference columns.
    :param hyp: The hypothesis column (default "hyp").
    :param refs: As for `corpus_bleu`.
    :param metric: A `cybleu.metrics.TER` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.TER`'s arguments (`normalized`, `no_punct`, `asian_support`,
        `case_sensitive`).
    :returns: A `TERScore`, as `cybleu.corpus_ter` returns it.
    :raises TypeError: Both `metric` and `kwargs`, or a `metric` that is not a TER object.
    :raises ValueError: As for `corpus_bleu`.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> print(cybleu.spark.corpus_ter(df, "hyp", ["ref"]))                # doctest: +SKIP
    TER = 25.00
    >>> print(cybleu.corpus_ter(hyps, [refs]))
    TER = 25.00
    """
    return corpus_score(df, _partition.make_metric("ter", metric, **kwargs), hyp, refs)


# -- sentence scores ------------------------------------------------------------------------------

def _cell_list(value):
    if value is None:
        return []
    return [None if v is None else v for v in list(value)]


def sentence_udf(metric="bleu", **kwargs):
    """A pandas UDF of sentence scores, `f(hyp, refs) -> double`: `hyp` a string column, `refs` an
    array column of each row's references (null entries skipped). Each score is bit for bit the
    metric's `sentence_score` (sacreBLEU's). `sentence_bleu` and co. build the array from one column
    per stream; this takes an array column as it is. Create it while a SparkSession runs.

    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`) with its
        settings.
    :param kwargs: The metric class's arguments, with a metric name.
    :returns: The UDF, to call on two columns (names or Columns).
    :raises ValueError: An unknown metric name.
    :raises TypeError: A `metric` that is neither a name nor a cybleu metric object, or both a
        metric object and `kwargs`.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> rows = [("The cat sat on the mat.", ["The cat is on the mat.", "A cat sat on the mat."]),
    ...         ("Hello, world!", ["Hello world!"])]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(rows, "hyp string, refs array<string>")  # doctest: +SKIP
    >>> chrf = cybleu.spark.sentence_udf("chrf")                           # doctest: +SKIP
    >>> scored = df.select(chrf("hyp", "refs").alias("chrf"))             # doctest: +SKIP
    >>> [row.chrf for row in scored.collect()]                              # doctest: +SKIP
    [89.77630343862292, 63.55479131750938]
    >>> cybleu.batch_sentence_chrf([hyp for hyp, _ in rows],
    ...                            [["The cat is on the mat.", "Hello world!"],
    ...                             ["A cat sat on the mat.", None]]).tolist()
    [89.77630343862292, 63.55479131750938]
    """
    from typing import Iterator, Tuple

    import pandas as pd
    from pyspark.sql.functions import pandas_udf
    metric = _select.sentence_metric(metric, **kwargs)

    # an iterator UDF: the batches of one partition in one call, so that an error names the
    # partition and the row within it (not a row of an Arrow batch)
    @pandas_udf("double")
    def score(batches: Iterator[Tuple[pd.Series, pd.Series]]) -> Iterator[pd.Series]:
        number, offset = _partition_id(), 0
        for hyp, refs in batches:
            hyps = [None if h is None or (isinstance(h, float) and h != h) else h
                    for h in hyp.tolist()]
            streams = _partition._list_column([_cell_list(cell) for cell in refs.tolist()])
            if not hyps:
                yield pd.Series([], dtype="float64")
                continue
            try:
                values = _select.sentence_scores(metric, hyps, streams)
            except (TypeError, ValueError) as err:
                plan = _partition.Plan(metric, len(streams), ENGINE)
                raise _partition._located(plan, err, hyps, streams, number, None,
                                          offset) from err
            offset += len(hyps)
            yield pd.Series(values, dtype="float64")

    return score


def _partition_id():
    """The number of the partition a task works on (None outside a Spark task)."""
    from pyspark import TaskContext
    context = TaskContext.get()
    return context.partitionId() if context is not None else None


def _column(name_or_col):
    return F.col(name_or_col) if isinstance(name_or_col, str) else name_or_col


def _sentence(metric, hyp, refs, kwargs):
    if not refs:
        raise TypeError("give at least one reference column")
    # one string column per stream, gathered into an array per row (nulls kept as None)
    return sentence_udf(metric, **kwargs)(_column(hyp), F.array(*[_column(r) for r in refs]))


def sentence_bleu(hyp, *refs, **kwargs):
    """A Column of sentence BLEU, with effective order on as in sacreBLEU's `sentence_bleu`, for
    `df.withColumn("bleu", sentence_bleu("hyp", "ref_a", "ref_b"))`: bit for bit
    `cybleu.batch_sentence_bleu` on the same rows. For a column of reference arrays, use
    `sentence_udf("bleu")("hyp", "refs")`.

    :param hyp: The hypothesis column (a name or a Column).
    :param refs: One reference column per stream (names or Columns of strings, null where a row
        lacks that reference).
    :param kwargs: `cybleu.metrics.BLEU`'s arguments (`tokenize`, `lowercase`, `smooth_method`,
        ...; `effective_order=False` turns effective order off).
    :returns: A Column of doubles.
    :raises TypeError: No reference column.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> scored = df.withColumn("bleu", cybleu.spark.sentence_bleu("hyp", "ref"))  # doctest: +SKIP
    >>> [row.bleu for row in scored.collect()]                              # doctest: +SKIP
    [48.892302243490086, 35.35533905932737]
    >>> cybleu.batch_sentence_bleu(hyps, [refs]).tolist()
    [48.892302243490086, 35.35533905932737]
    """
    return _sentence("bleu", hyp, refs, kwargs)


def sentence_chrf(hyp, *refs, **kwargs):
    """A Column of sentence chrF (`word_order=2` for chrF++): bit for bit
    `cybleu.batch_sentence_chrf` on the same rows. See `sentence_bleu`.

    :param hyp: The hypothesis column (a name or a Column).
    :param refs: One reference column per stream (names or Columns of strings, null where a row
        lacks that reference).
    :param kwargs: `cybleu.metrics.CHRF`'s arguments (`char_order`, `word_order`, `beta`, ...).
    :returns: A Column of doubles.
    :raises TypeError: No reference column.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> chrf_plus = cybleu.spark.sentence_chrf("hyp", "ref", word_order=2)  # doctest: +SKIP
    >>> scored = df.withColumn("chrf", chrf_plus)                          # doctest: +SKIP
    >>> [row.chrf for row in scored.collect()]                              # doctest: +SKIP
    [69.43695278069349, 65.18549385858529]
    >>> cybleu.batch_sentence_chrf(hyps, [refs], word_order=2).tolist()
    [69.43695278069349, 65.18549385858529]
    """
    return _sentence("chrf", hyp, refs, kwargs)


def sentence_ter(hyp, *refs, **kwargs):
    """A Column of sentence TER: bit for bit `cybleu.batch_sentence_ter` on the same rows. See
    `sentence_bleu`.

    :param hyp: The hypothesis column (a name or a Column).
    :param refs: One reference column per stream (names or Columns of strings, null where a row
        lacks that reference).
    :param kwargs: `cybleu.metrics.TER`'s arguments (`normalized`, `no_punct`, `asian_support`,
        `case_sensitive`).
    :returns: A Column of doubles.
    :raises TypeError: No reference column.

    >>> from pyspark.sql import SparkSession
    >>> import cybleu, cybleu.spark
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame(list(zip(hyps, refs)),
    ...                            "hyp string, ref string")                # doctest: +SKIP
    >>> scored = df.withColumn("ter", cybleu.spark.sentence_ter("hyp", "ref"))  # doctest: +SKIP
    >>> [row.ter for row in scored.collect()]                               # doctest: +SKIP
    [16.666666666666664, 50.0]
    >>> cybleu.batch_sentence_ter(hyps, [refs]).tolist()
    [16.666666666666664, 50.0]
    """
    return _sentence("ter", hyp, refs, kwargs)


def best_of_udf(k, metric="bleu", **kwargs):
    """A pandas UDF picking the best of each row's k candidates by sentence score, as
    `cybleu.best_of` picks it (the highest score, for TER the lowest; the first of equal scores):
    `f(cands, refs) -> struct<index: int, score: double>`, `cands` an array column of k candidates,
    `refs` an array column of the row's references (null entries skipped). `index` is the best
    candidate's position (0 to k-1), `score` its sentence score, bit for bit the metric's
    `sentence_score`. Create it while a SparkSession runs.

    :param k: The number of candidates per row.
    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`) with its
        settings.
    :param kwargs: The metric class's arguments, with a metric name.
    :returns: The UDF, to call on two columns (names or Columns).
    :raises ValueError: `k` is not a positive int, or an unknown metric name. A row that does not
        hold k candidates raises a `cybleu._scale.partition.PartitionError` when Spark runs the UDF.
    :raises TypeError: A `metric` that is neither a name nor a cybleu metric object.

    >>> from pyspark.sql import SparkSession, functions as F
    >>> import cybleu, cybleu.spark
    >>> spark = SparkSession.builder.master("local[1]").getOrCreate()      # doctest: +SKIP
    >>> df = spark.createDataFrame([(["a cat", "the cat sat", "the dog"], "the cat sat")],
    ...                            "cands array<string>, ref string")      # doctest: +SKIP
    >>> best = cybleu.spark.best_of_udf(3)                                 # doctest: +SKIP
    >>> df.select(best("cands", F.array("ref")).alias("best")).first().best  # doctest: +SKIP
    Row(index=1, score=100.00000000000004)
    >>> best = cybleu.best_of(["a cat", "the cat sat", "the dog"], [["the cat sat"]], k=3)
    >>> int(best.index[0]), float(best.score[0])
    (1, 100.00000000000004)
    """
    from typing import Iterator, Tuple

    import pandas as pd
    from pyspark.sql.functions import pandas_udf
    _select._check_k(k)
    metric = _select.sentence_metric(metric, **kwargs)

    @pandas_udf("index int, score double")
    def best(batches: Iterator[Tuple[pd.Series, pd.Series]]) -> Iterator[pd.DataFrame]:
        number, offset = _partition_id(), 0
        for cands, refs in batches:
            where = f"{ENGINE}: partition {number}, row"
            groups = cands.tolist()
            for i, g in enumerate(groups):
                if isinstance(g, str):
                    raise _partition.PartitionError(
                        f"{where} {offset + i}: the candidates are a string, not a list of "
                        f"k={k} strings")
            groups = [_cell_list(g) for g in groups]
            for i, g in enumerate(groups):
                if len(g) != k:
                    raise _partition.PartitionError(f"{where} {offset + i} has {len(g)} "
                                                    f"candidates, not k={k}")
            streams = _partition._list_column([_cell_list(cell) for cell in refs.tolist()])
            if not groups:
                yield pd.DataFrame({"index": pd.Series([], dtype="int32"),
                                    "score": pd.Series([], dtype="float64")})
                continue
            try:
                result = _select.best_of([c for g in groups for c in g], streams, k, metric)
            except (TypeError, ValueError) as err:
                raise type(err)(f"{ENGINE}: partition {number}, rows {offset}-"
                                f"{offset + len(groups) - 1}: {err}") from err
            offset += len(groups)
            yield pd.DataFrame({"index": result.index.astype("int32"), "score": result.score})

    return best
