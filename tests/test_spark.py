"""cybleu.spark on Spark local[2] (and a local Spark Connect server), started and stopped here:
corpus scores through mapInArrow and Spark's sum equal cybleu.corpus_* and sacreBLEU 2.6.0 bit for
bit for any partitioning (Hypothesis: uneven and empty partitions); TER with three references in
partition order; sentence scores through the pandas UDF equal batch_sentence_*; a Python worker
killed mid-task gives the same result after Spark's retry; bad input names the partition and
row. Needs a Java runtime."""
import os
import shutil
import signal
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cybleu
import cybleu.metrics
from conftest import bits
from scale_data import (METRICS, N_SEGMENTS, N_TER, cuts, kind, require_engine, third_stream,
                        with_missing, wmt22)

pytestmark = [pytest.mark.spark,
              pytest.mark.filterwarnings("ignore::FutureWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

SETTINGS = settings(max_examples=2, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def _java():
    if shutil.which("java") is None:
        message = "Spark needs a Java runtime (java is not on PATH): apt install default-jre-headless"
        if os.environ.get("CYBLEU_REQUIRE_ENGINES") == "1":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture(scope="module")
def spark():
    require_engine("pyspark", "spark")
    _java()
    os.environ["PYSPARK_PYTHON"] = sys.executable    # the workers run this interpreter
    from pyspark.sql import SparkSession
    # local[2,3]: two threads, and a failed task is tried up to 3 times (local mode's default
    # is once)
    session = (SparkSession.builder.master("local[2,3]").appName("cybleu-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.executorEnv.CYBLEU_IMPLEMENTATION",
                       os.environ.get("CYBLEU_IMPLEMENTATION", "auto"))
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _cs():
    import cybleu.spark
    return cybleu.spark


def _data(name, refs_kind):
    hyps, refs = wmt22("Online-B", N_TER if name == "ter" else N_SEGMENTS)
    if refs_kind == "missing":
        refs = with_missing(refs)
    elif refs_kind == "three":
        refs = third_stream(refs)
    return hyps, refs


def _frame(spark, hyps, refs, points=None):
    from pyspark.sql import functions as F
    names = ["a", "b", "c"][:len(refs)]
    rows = [(i, h, *r) for i, (h, *r) in enumerate(zip(hyps, *refs))]
    schema = "id long, hyp string, " + ", ".join(f"{n} string" for n in names)
    df = spark.createDataFrame(rows, schema)
    if points is None:
        return df
    part = F.lit(0)
    for j, c in enumerate(points[1:-1]):
        part = F.when(F.col("id") >= c, F.lit(j + 1)).otherwise(part)
    return df.withColumn("part", part).repartition(max(1, len(points) - 1), "part").drop("part")


@pytest.mark.parametrize("name", sorted(METRICS))
@SETTINGS
@given(data=st.data())
def test_any_partitioning_gives_the_corpus_score(spark, name, data):
    hyps, refs = _data(name, "missing")
    points = data.draw(cuts(len(hyps), 8), label="cuts")
    df = _frame(spark, hyps, refs, points)
    got = _cs().corpus_score(df, _metric(name), "hyp", ["a", "b"])
    want = METRICS[name][1]().corpus_score(hyps, refs)
    assert bits(got.score) == bits(want.score) and got.format() == want.format()


def _metric(name):
    from cybleu._scale import partition as _partition
    return _partition.make_metric(kind(name), **METRICS[name][0])


def test_ter_with_three_references_in_partition_order(spark):
    hyps, refs = _data("ter", "three")
    df = _frame(spark, hyps, refs).repartitionByRange(3, "id")   # ranges, in order
    got = _cs().corpus_ter(df, "hyp", ["a", "b", "c"])
    want = METRICS["ter"][1]().corpus_score(hyps, refs)
    assert bits(got.score) == bits(want.score)
    assert bits(got.ref_length) == bits(want.ref_length)


def test_array_column_of_references(spark):
    from pyspark.sql import functions as F
    hyps, refs = _data("bleu", "missing")
    df = _frame(spark, hyps, refs).select("hyp", F.array("a", "b").alias("refs"))
    got = _cs().corpus_bleu(df, "hyp", "refs")
    assert bits(got.score) == bits(cybleu.corpus_bleu(hyps, refs).score)


@pytest.mark.parametrize("name, batch", [
    ("bleu", cybleu.batch_sentence_bleu), ("chrf", cybleu.batch_sentence_chrf),
    ("ter", cybleu.batch_sentence_ter)])
def test_sentence_scores(spark, name, batch):
    hyps, refs = _data(name, "missing")
    df = _frame(spark, hyps, refs).repartition(3)
    out = df.withColumn("s", getattr(_cs(), f"sentence_{name}")("hyp", "a", "b")).collect()
    out.sort(key=lambda row: row["id"])
    assert np.array([r["s"] for r in out]).tobytes() == batch(hyps, refs).tobytes()


def test_best_of_udf(spark):
    from pyspark.sql import functions as F
    n, k = 80, 3
    outs = [wmt22(s, n)[0] for s in ("Online-A", "Online-B", "Online-G")]
    refs = wmt22("Online-B", n)[1]
    df = spark.createDataFrame([(i, [o[i] for o in outs], refs[0][i], refs[1][i])
                                for i in range(n)], "id long, cands array<string>, a string, "
                                                    "b string")
    best = _cs().best_of_udf(k)
    out = df.withColumn("best", best("cands", F.array("a", "b"))).collect()
    out.sort(key=lambda row: row["id"])
    want = cybleu.best_of([o[i] for i in range(n) for o in outs], refs, k)
    assert [r["best"]["index"] for r in out] == want.index.tolist()
    assert np.array([r["best"]["score"] for r in out]).tobytes() == want.score.tobytes()


def test_bad_input_names_the_partition_and_row(spark):
    rows = [(i, "a b", "a b") for i in range(6)] + [(6, None, "a")]
    df = spark.createDataFrame(rows, "id long, hyp string, a string").coalesce(1)
    with pytest.raises(Exception, match=r"cybleu\.spark: partition 0, row 6: .*hypothesis 6"):
        _cs().corpus_bleu(df, "hyp", ["a"])
    with pytest.raises(ValueError, match="no column 'b'"):
        _cs().corpus_bleu(df, "hyp", ["b"])


def test_sentence_scores_name_the_partition_and_row(spark):
    """The sentence-score UDF named a row of an Arrow batch and no partition."""
    from pyspark.sql import functions as F
    rows = [(i, "a b", "a b") for i in range(6)] + [(6, None, "a")]
    df = spark.createDataFrame(rows, "id long, hyp string, a string").coalesce(1)
    with pytest.raises(Exception, match=r"cybleu\.spark: partition 0, row 6: .*hypothesis 6"):
        df.withColumn("s", _cs().sentence_bleu("hyp", "a")).collect()
    cands = spark.createDataFrame([(["a", "b"], "a")] * 3 + [(["a"], "a")],
                                  "c array<string>, r string").coalesce(1)
    with pytest.raises(Exception, match=r"cybleu\.spark: partition 0, row 3 has 1 candidates"):
        cands.withColumn("best", _cs().best_of_udf(2)("c", F.array("r"))).collect()


@SETTINGS
@given(data=st.data())
def test_rouge_in_any_partitioning_is_rouge_scores_mean(spark, data):
    """ROUGE's per-segment values as int64 limbs in Spark's SQL sums: rouge-score's math.fsum
    mean in any partitioning."""
    pytest.importorskip("rouge_score", reason="rouge-score (ROUGE's oracle) is not installed")
    from rouge_data import engine_corpus, rouge_means
    hyps, refs = engine_corpus()
    types = ["rougeL", "rouge1"]
    want = rouge_means(hyps, refs, types, use_stemmer=True)
    points = data.draw(cuts(len(hyps), 8), label="cuts")
    metric = cybleu.metrics.make("rouge", rouge_types=types, use_stemmer=True)
    got = _cs().corpus_score(_frame(spark, hyps, refs, points), metric, "hyp", ["a", "b"])
    assert {t: tuple(map(bits, v)) for t, v in got.types.items()} == \
        {t: tuple(map(bits, v)) for t, v in want.items()}
    assert bits(got.score) == bits(100 * want["rougeL"][2])


def _kill_once(marker):
    def step(batches):
        for batch in batches:
            if 77 in set(batch["id"].tolist()) and not os.path.exists(marker):
                with open(marker, "w"):
                    pass
                os.kill(os.getpid(), signal.SIGKILL)
            yield batch
    return step


def test_a_killed_worker_gives_the_same_result(spark, tmp_path):
    hyps, refs = _data("bleu", "missing")
    marker = str(tmp_path / "killed")
    df = _frame(spark, hyps, refs).repartition(3)
    df = df.mapInPandas(_kill_once(marker), df.schema)
    got = _cs().corpus_bleu(df, "hyp", ["a", "b"])
    assert os.path.exists(marker)            # a Python worker died; Spark ran the task again
    assert bits(got.score) == bits(cybleu.corpus_bleu(hyps, refs).score)


# last in the file: stopping the Connect server leaves the module's session without a context
def test_spark_connect(spark):
    """The same through Spark Connect (no RDD API): a local Connect server."""
    from pyspark.sql import SparkSession
    hyps, refs = _data("chrf", "missing")
    spark.stop()
    connect = SparkSession.builder.remote("local[2]").getOrCreate()
    try:
        df = _frame(connect, hyps, refs).repartition(4)
        got = _cs().corpus_chrf(df, "hyp", ["a", "b"], word_order=2)
        want = METRICS["chrf++"][1]().corpus_score(hyps, refs)
        assert bits(got.score) == bits(want.score)
        out = df.withColumn("s", _cs().sentence_bleu("hyp", "a", "b")).collect()
        out.sort(key=lambda row: row["id"])
        assert np.array([r["s"] for r in out]).tobytes() == \
            cybleu.batch_sentence_bleu(hyps, refs).tobytes()
    finally:
        connect.stop()
