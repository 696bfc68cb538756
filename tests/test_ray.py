"""cybleu.ray on ray.init(num_cpus=2), started and stopped here: Dataset.aggregate(CorpusBLEU(...))
and the chrF/TER aggregations equal cybleu.corpus_* and sacreBLEU 2.6.0 bit for bit for any
blocks (Hypothesis: 1 to many, empty, uneven); SentenceScores equals batch_sentence_*; BestOf
equals cybleu.best_of; a worker process killed mid-task gives the same result after Ray's retry;
bad input names the row."""
import os
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

pytestmark = [pytest.mark.ray,
              pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::FutureWarning"),
              pytest.mark.filterwarnings("ignore::UserWarning")]

SETTINGS = settings(max_examples=2, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def ray():
    require_engine("ray", "ray")
    require_engine("ray.data", "ray")
    import ray.cloudpickle
    # the workers cannot import this test module: its classes travel by value
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False, runtime_env={"env_vars": {
                 "CYBLEU_IMPLEMENTATION": os.environ.get("CYBLEU_IMPLEMENTATION", "auto")}})
    from ray.data import DataContext
    DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


def _cr():
    import cybleu.ray
    return cybleu.ray


def _data(name, refs_kind):
    hyps, refs = wmt22("Online-B", N_TER if name == "ter" else N_SEGMENTS)
    if refs_kind == "missing":
        refs = with_missing(refs)
    elif refs_kind == "three":
        refs = third_stream(refs)
    return hyps, refs


def _dataset(ray, hyps, refs, points):
    import pandas as pd
    names = ["hyp", "a", "b", "c"][:1 + len(refs)]
    frame = pd.DataFrame(dict(zip(names, [hyps] + list(refs))), dtype=object)
    frame.insert(0, "id", range(len(hyps)))
    return ray.data.from_pandas([frame.iloc[a:b] for a, b in zip(points, points[1:])])


AGG = {"bleu": "CorpusBLEU", "chrf": "CorpusCHRF", "chrf++": "CorpusCHRF", "ter": "CorpusTER"}


@pytest.mark.parametrize("name", sorted(METRICS))
@SETTINGS
@given(data=st.data())
def test_any_blocks_give_the_corpus_score(ray, name, data):
    hyps, refs = _data(name, "missing")
    points = data.draw(cuts(len(hyps), 10), label="cuts")
    ds = _dataset(ray, hyps, refs, points)
    agg = getattr(_cr(), AGG[name])(hyp="hyp", refs=["a", "b"], **METRICS[name][0])
    got = ds.aggregate(agg)[kind(name)]
    sacre = METRICS[name][1]()
    want = sacre.corpus_score(hyps, refs)
    assert bits(got.score) == bits(want.score) and got.format() == want.format()
    if name == "ter":
        assert bits(got.ref_length) == bits(want.ref_length)


def test_several_aggregations_and_a_list_column(ray):
    cr = _cr()
    hyps, refs = _data("bleu", "missing")
    ds = ray.data.from_items([{"hyp": h, "refs": [a, b]} for h, a, b in zip(hyps, *refs)],
                             override_num_blocks=5)
    out = ds.aggregate(cr.CorpusBLEU(refs="refs"), cr.CorpusCHRF(refs="refs", word_order=2,
                                                                  name="chrf++"))
    assert bits(out["bleu"].score) == bits(cybleu.corpus_bleu(hyps, refs).score)
    assert bits(out["chrf++"].score) == bits(cybleu.corpus_chrf(hyps, refs,
                                                                word_order=2).score)


def test_ter_with_three_references_is_exact_or_refuses(ray):
    cr = _cr()
    hyps, refs = _data("ter", "three")
    ds = _dataset(ray, hyps, refs, [0, 30, 60, len(hyps)])
    with pytest.raises(Exception, match="depends on the order of the segments"):
        ds.aggregate(cr.CorpusTER(refs=["a", "b", "c"]))


@pytest.mark.parametrize("fmt", ["pyarrow", "pandas", "numpy"])
@pytest.mark.parametrize("name, batch", [
    ("bleu", cybleu.batch_sentence_bleu), ("chrf", cybleu.batch_sentence_chrf),
    ("ter", cybleu.batch_sentence_ter)])
def test_sentence_scores(ray, name, batch, fmt):
    hyps, refs = _data(name, "missing")
    ds = _dataset(ray, hyps, refs, [0, 17, 17, len(hyps)])
    out = ds.map_batches(_cr().SentenceScores(name, refs=["a", "b"]),
                         batch_format=fmt).take_all()
    out.sort(key=lambda row: row["id"])
    got = np.array([row[name] for row in out], dtype=np.float64)
    assert got.tobytes() == batch(hyps, refs).tobytes()


def test_best_of(ray):
    n, k = 100, 3
    outs = [wmt22(s, n)[0] for s in ("Online-A", "Online-B", "Online-G")]
    refs = wmt22("Online-B", n)[1]
    ds = ray.data.from_items([{"id": i, "cands": [o[i] for o in outs], "a": refs[0][i],
                               "b": refs[1][i]} for i in range(n)], override_num_blocks=4)
    out = ds.map_batches(_cr().BestOf(k, refs=["a", "b"]), batch_format="pandas").take_all()
    out.sort(key=lambda row: row["id"])
    want = cybleu.best_of([o[i] for i in range(n) for o in outs], refs, k)
    assert [row["best_index"] for row in out] == want.index.tolist()
    assert np.array([row["best_score"] for row in out]).tobytes() == want.score.tobytes()


def test_bad_input_names_the_row(ray):
    rows = [{"hyp": "a b", "ref": "a b"}] * 5 + [{"hyp": None, "ref": "a"}]
    ds = ray.data.from_items(rows, override_num_blocks=2)
    with pytest.raises(Exception, match=r"cybleu\.ray: row \d+: .*hypothesis \d+ is None"):
        ds.aggregate(_cr().CorpusBLEU())


class _KillOnce:
    """A map step that kills its worker process the first time it sees the marked row."""

    def __init__(self, marker):
        self.marker = marker

    def __call__(self, batch):
        if 77 in set(batch["id"].tolist()) and not os.path.exists(self.marker):
            with open(self.marker, "w"):
                pass
            os.kill(os.getpid(), signal.SIGKILL)
        return batch


def test_a_killed_worker_gives_the_same_result(ray, tmp_path):
    hyps, refs = _data("bleu", "missing")
    marker = str(tmp_path / "killed")
    ds = _dataset(ray, hyps, refs, [0, 60, 120, len(hyps)])
    ds = ds.map_batches(_KillOnce(marker), batch_format="pandas", max_retries=3)
    got = ds.aggregate(_cr().CorpusBLEU(refs=["a", "b"]))["bleu"]
    assert os.path.exists(marker)
    assert bits(got.score) == bits(cybleu.corpus_bleu(hyps, refs).score)


def test_a_binary_column_is_refused_as_bytes(ray):
    """One bytes cell makes Ray Data's column binary (every cell bytes): refused by its type,
    saying why, in every batch format; text columns beside it are untouched."""
    import pyarrow as pa
    cr = _cr()
    rows = [{"hyp": "a b c", "ref": "a b c"}, {"hyp": b"x y", "ref": "x y"}]
    ds = ray.data.from_items(rows)
    with pytest.raises(Exception, match=r"column 'hyp' holds bytes .*one of its cells is bytes"):
        ds.aggregate(cr.CorpusBLEU())
    for fmt in ("pyarrow", "pandas", "numpy"):
        with pytest.raises(Exception, match=r"column 'hyp' holds bytes"):
            ds.map_batches(cr.SentenceScores("bleu"), batch_format=fmt).take_all()
    # the steps themselves, on batches as Ray hands them over
    table = pa.table({"hyp": pa.array([b"a b"], pa.binary()), "ref": ["a b"]})
    for block in (table, table.to_pandas(), {"hyp": np.array([b"a b"]),
                                             "ref": np.array(["a b"], dtype=object)}):
        with pytest.raises(TypeError, match=r"column 'hyp' holds bytes"):
            cr.SentenceScores("bleu")(block)


@SETTINGS
@given(data=st.data())
def test_rouge_in_any_blocks_is_rouge_scores_mean(ray, data):
    """ROUGE's per-segment values summed exactly in Ray's accumulators: rouge-score's
    math.fsum mean however the blocks fall."""
    pytest.importorskip("rouge_score", reason="rouge-score (ROUGE's oracle) is not installed")
    from rouge_data import engine_corpus, rouge_means
    hyps, refs = engine_corpus()
    types = ["rouge2", "rougeLsum"]
    want = rouge_means(hyps, refs, types)
    points = data.draw(cuts(len(hyps), 10), label="cuts")
    metric = cybleu.metrics.make("rouge", rouge_types=types)
    got = _dataset(ray, hyps, refs, points).aggregate(
        _cr().CorpusScore(metric, hyp="hyp", refs=["a", "b"], name="rouge"))["rouge"]
    assert {t: tuple(map(bits, v)) for t, v in got.types.items()} == \
        {t: tuple(map(bits, v)) for t, v in want.items()}
    assert bits(got.score) == bits(100 * want["rouge2"][2])
