"""cybleu.dask on a 2-process distributed.LocalCluster started (and stopped) here: corpus scores
equal cybleu.corpus_* and sacreBLEU 2.6.0 bit for bit for any partitioning (Hypothesis: 1 to many
partitions, empty ones, uneven sizes), sentence scores equal batch_sentence_*, best_of equals
cybleu.best_of, read_text aligns plain, gzipped and sharded files, a killed worker gives the same
result after Dask's retry (or a clear error), bad input names the partition and line."""
import gzip
import os
import signal
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cybleu
import cybleu.metrics
from cybleu._scale import partition as _partition
from cybleu.metrics import BLEU
from conftest import bits
from scale_data import (METRICS, N_SEGMENTS, N_TER, cuts, kind, require_engine, third_stream,
                        with_missing, wmt22)

pytestmark = [pytest.mark.dask,
              pytest.mark.filterwarnings("ignore::ResourceWarning"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client():
    require_engine("distributed", "dask")
    import cloudpickle
    from distributed import Client, LocalCluster
    # the workers cannot import this test module: its functions travel by value
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    import dask
    # the scheduler reads this when it starts: a task whose worker dies twice is an error
    with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=50)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def _cd():
    import cybleu.dask
    return cybleu.dask


def _bag(rows, points):
    import dask.bag as db
    from dask import delayed
    return db.from_delayed([delayed(list)(rows[a:b]) for a, b in zip(points, points[1:])])


def _frame(hyps, refs, points, names=("hyp", "a", "b", "c")):
    import dask.dataframe as dd
    import pandas as pd
    from dask import delayed
    names = list(names[:1 + len(refs)])
    data = pd.DataFrame(dict(zip(names, [hyps] + list(refs))), dtype=object)
    parts = [delayed(lambda f: f)(data.iloc[a:b]) for a, b in zip(points, points[1:])]
    return dd.from_delayed(parts, meta=data.iloc[:0])


def _data(name, refs_kind):
    hyps, refs = wmt22("Online-B", N_TER if name == "ter" else N_SEGMENTS)
    if refs_kind == "missing":
        refs = with_missing(refs)
    elif refs_kind == "three":
        refs = third_stream(refs)
    return hyps, refs


_ORACLE = {}


def _expected(name, refs_kind):
    key = (name, refs_kind)
    if key not in _ORACLE:
        hyps, refs = _data(name, refs_kind)
        sacre = METRICS[name][1]()
        _ORACLE[key] = sacre.corpus_score(hyps, refs), sacre.num_refs
    return _ORACLE[key]


CORPUS = {"bleu": "corpus_bleu", "chrf": "corpus_chrf", "chrf++": "corpus_chrf",
          "ter": "corpus_ter"}


@pytest.mark.parametrize("layout", ["bag", "frame"])
@pytest.mark.parametrize("refs_kind", ["missing", "three"])
@pytest.mark.parametrize("name", sorted(METRICS))
@SETTINGS
@given(data=st.data())
def test_any_partitioning_gives_the_corpus_score(client, name, refs_kind, layout, data):
    hyps, refs = _data(name, refs_kind)
    points = data.draw(cuts(len(hyps), 14), label="cuts")
    split_every = data.draw(st.integers(2, 8), label="split_every")
    if layout == "bag":
        collection = _bag(list(zip(hyps, *refs)), points)
    else:
        collection = _frame(hyps, refs, points)
    metric = _partition.make_metric(kind(name), **METRICS[name][0])
    got = _cd().corpus_score(collection, metric, split_every=split_every)
    want, num_refs = _expected(name, refs_kind)
    assert bits(got.score) == bits(want.score) and got.format() == want.format()
    assert metric.num_refs == num_refs
    ours = getattr(cybleu, CORPUS[name])(hyps, refs, **METRICS[name][0])
    assert bits(got.score) == bits(ours.score)
    if name == "ter":
        assert bits(got.ref_length) == bits(want.ref_length)


def test_keyword_functions_and_list_columns(client):
    hyps, refs = _data("bleu", "missing")
    cd = _cd()
    rows = [(h, [a, b]) for h, a, b in zip(hyps, *refs)]
    assert bits(cd.corpus_bleu(_bag(rows, [0, 50, 50, len(rows)])).score) == \
        bits(cybleu.corpus_bleu(hyps, refs).score)
    dicts = [{"h": h, "r": [a, b]} for h, a, b in zip(hyps, *refs)]
    got = cd.corpus_chrf(_bag(dicts, [0, 100, len(rows)]), hyp="h", refs="r", word_order=2)
    assert bits(got.score) == bits(cybleu.corpus_chrf(hyps, refs, word_order=2).score)
    got = cd.corpus_bleu(_frame(hyps, refs, [0, 7, len(hyps)]), hyp="hyp", refs=["a", "b"],
                         lowercase=True, tokenize="intl")
    assert bits(got.score) == bits(cybleu.corpus_bleu(hyps, refs, lowercase=True,
                                                      tokenize="intl").score)


def test_references_held_by_the_client_are_shipped_once(client):
    import dask.bag as db
    cd = _cd()
    hyps, refs = _data("bleu", "missing")
    bag = db.from_sequence([(h,) for h in hyps], npartitions=9)
    plan, item = cd.statistics(bag, BLEU(), references=refs)
    graph = dict(item.__dask_graph__())
    shared = [k for k in graph if str(k).startswith("cybleu-references-")]
    assert len(shared) == 1
    assert bits(_partition.finish(plan, item.compute()).score) == \
        bits(cybleu.corpus_bleu(hyps, refs).score)
    import dask.dataframe as dd
    import pandas as pd
    frame = dd.from_pandas(pd.DataFrame({"hyp": hyps}), npartitions=5)
    assert bits(cd.corpus_ter(frame, references=[r[:N_TER] for r in refs]
                              if False else refs).score) == bits(cybleu.corpus_ter(hyps,
                                                                                   refs).score)
    scores = cd.sentence_bleu(frame, references=refs).compute()
    assert scores.to_numpy().tobytes() == cybleu.batch_sentence_bleu(hyps, refs).tobytes()
    with pytest.raises(ValueError, match="hypotheses but"):
        cd.corpus_bleu(bag, references=[refs[0][:-1]])


def test_string_rows_and_stringified_list_columns_are_never_scored_silently(client):
    """Two layouts that indexed into a string (its first character as the hypothesis, or each
    character as a reference): plain string rows are hypotheses whose references come from
    references=; a list column that Dask turned into strings is an error naming the setting."""
    import dask
    import dask.bag as db
    import dask.dataframe as dd
    import pandas as pd
    cd = _cd()
    hyps, refs = wmt22("Online-B", 200)
    bag = db.from_sequence(hyps, npartitions=3)
    assert bits(cd.corpus_bleu(bag, references=refs).score) == \
        bits(cybleu.corpus_bleu(hyps, refs).score)
    with pytest.raises(TypeError, match="is a string"):
        cd.corpus_bleu(db.from_sequence(hyps, npartitions=2), hyp=0, references=refs)
    per_row = pd.DataFrame({"hyp": hyps, "refs": [list(r) for r in zip(*refs)]})
    with dask.config.set({"dataframe.convert-string": True}):
        frame = dd.from_pandas(per_row, npartitions=2)
        with pytest.raises(TypeError, match="convert-string"):
            cd.corpus_bleu(frame, refs="refs")
        cands = pd.DataFrame({"c": [[h, h.lower()] for h in hyps], "r": list(refs[0])})
        with pytest.raises(ValueError, match="convert-string"):
            cd.best_of(dd.from_pandas(cands, npartitions=2), 2, cands="c", refs=["r"]).compute()
    with dask.config.set({"dataframe.convert-string": False}):
        frame = dd.from_pandas(per_row, npartitions=2)
        assert bits(cd.corpus_bleu(frame, refs="refs").score) == \
            bits(cybleu.corpus_bleu(hyps, refs).score)


@pytest.mark.parametrize("name, batch", [
    ("bleu", cybleu.batch_sentence_bleu), ("chrf", cybleu.batch_sentence_chrf),
    ("ter", cybleu.batch_sentence_ter)])
def test_sentence_scores(client, name, batch):
    cd = _cd()
    hyps, refs = _data(name, "missing")
    frame = _frame(hyps, refs, [0, 30, 30, len(hyps) // 2, len(hyps)])
    series = getattr(cd, f"sentence_{name}")(frame)
    got = series.compute()
    assert got.to_numpy().tobytes() == batch(hyps, refs).tobytes()
    kept = frame[series >= 40].compute()          # aligned with the frame: a filter
    want = [h for h, s in zip(hyps, batch(hyps, refs)) if s >= 40]
    assert kept["hyp"].tolist() == want
    bag = _bag(list(zip(hyps, *refs)), [0, 11, len(hyps)])
    assert np.array(getattr(cd, f"sentence_{name}")(bag).compute()).tobytes() == \
        batch(hyps, refs).tobytes()


def test_best_of(client):
    cd = _cd()
    systems = ["Online-A", "Online-B", "Online-G", "Online-W"]
    n = 120
    outs = [wmt22(s, n)[0] for s in systems]
    refs = wmt22("Online-B", n)[1]
    flat = [outs[j][i] for i in range(n) for j in range(4)]
    want = cybleu.best_of(flat, refs, 4)
    rows = [(tuple(o[i] for o in outs), refs[0][i], refs[1][i]) for i in range(n)]
    got = cd.best_of(_bag(rows, [0, 40, 41, n]), 4).compute()
    assert [g[0] for g in got] == want.index.tolist()
    assert np.array([g[1] for g in got]).tobytes() == want.score.tobytes()
    assert [g[2] for g in got] == [flat[i * 4 + j] for i, j in enumerate(want.index)]
    import dask.dataframe as dd
    import pandas as pd
    frame = dd.from_pandas(pd.DataFrame({"c1": outs[0], "c2": outs[1], "c3": outs[2],
                                         "c4": outs[3], "a": refs[0], "b": refs[1]}),
                           npartitions=3)
    result = cd.best_of(frame, 4, cands=["c1", "c2", "c3", "c4"], refs=["a", "b"]).compute()
    assert result["index"].tolist() == want.index.tolist()
    assert result["score"].to_numpy().tobytes() == want.score.tobytes()


def _write(path, lines, gz=False):
    data = "".join(line + "\n" for line in lines).encode("utf-8")
    if gz:
        with gzip.open(path, "wb") as f:
            f.write(data)
    else:
        path.write_bytes(data)
    return str(path)


def test_read_text_aligns_plain_gzip_and_shards(client, tmp_path, monkeypatch):
    from cybleu._scale import textparts as _textparts
    monkeypatch.setattr(_textparts, "INDEX_EVERY", 16)    # many offsets, seeks mid-file
    cd = _cd()
    hyps, refs = wmt22("Online-W")
    n = len(hyps)
    for i, a in enumerate(range(0, n, 700)):              # the hypotheses in 3 gzip shards
        _write(tmp_path / f"hyp.{i:02d}.gz", hyps[a:a + 700], gz=True)
    ref_a = _write(tmp_path / "ref.A.txt", refs[0])
    ref_b = _write(tmp_path / "ref.B.txt.gz", refs[1], gz=True)
    bag = cd.read_text(str(tmp_path / "hyp.*.gz"), ref_a, ref_b, records_per_partition=333)
    assert bag.npartitions == -(-n // 333)
    assert bag.compute() == list(zip(hyps, *refs))
    got = cd.corpus_bleu(bag)
    assert bits(got.score) == bits(METRICS["bleu"][1]().corpus_score(hyps, refs).score)
    # an n-best file beside its references
    k = 3
    outs = [wmt22(s)[0] for s in ("Online-A", "Online-B", "Online-G")]
    nbest = _write(tmp_path / "nbest.txt", [outs[j][i] for i in range(n) for j in range(k)])
    rows = cd.read_text(nbest, ref_a, group=(k, 1), records_per_partition=500)
    best = cd.best_of(rows, k).compute()
    want = cybleu.best_of([outs[j][i] for i in range(n) for j in range(k)], refs[:1], k)
    assert [b[0] for b in best] == want.index.tolist()


def test_read_text_errors(client, tmp_path):
    cd = _cd()
    a = _write(tmp_path / "a.txt", ["x", "y", "z"])
    b = _write(tmp_path / "b.txt", ["x", "y"])
    with pytest.raises(ValueError, match=r"a\.txt: 3 lines; .*b\.txt: 2 lines"):
        cd.read_text(a, b)
    with pytest.raises(ValueError, match=r"not a multiple of 2"):
        cd.read_text(a, b, group=(2, 1))
    with pytest.raises(FileNotFoundError, match="no file matches"):
        cd.read_text(str(tmp_path / "none*.txt"))
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nok\nok\nal\xffso\nok\n")
    ref = _write(tmp_path / "r.txt", ["ok"] * 5)
    bag = cd.read_text(str(bad), ref, records_per_partition=2)
    with pytest.raises(ValueError, match=r"bad\.txt: line 4: cannot decode as utf-8"):
        cd.corpus_bleu(bag)


def test_bad_input_names_the_partition_and_line(client, tmp_path):
    cd = _cd()
    rows = [("a b", "a b")] * 10 + [("a b", 5)] + [("c", "c")] * 3
    with pytest.raises(_partition.PartitionError,
                       match=r"cybleu\.dask: partition 2, row 1: .*reference 1"):
        cd.corpus_bleu(_bag(rows, [0, 6, 9, 14]))
    hyp = _write(tmp_path / "h.txt", ["a"] * 7 + ["b"])
    ref = _write(tmp_path / "r.txt", ["a"] * 8)
    bag = cd.read_text(hyp, ref, records_per_partition=3)
    # a read_text bag names the file and line: make row 1 of partition 2 (line 8) fail
    where = cd._where(bag, None)[2]
    assert where(1) == f"line 8 of {hyp}"


def _load(rows, marker, always):
    """A partition that kills its worker process the first time (or every time)."""
    if always or not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os.kill(os.getpid(), signal.SIGKILL)
    return rows


def test_a_killed_worker_gives_the_same_result_or_an_error(client, tmp_path):
    import dask.bag as db
    from dask import delayed
    cd = _cd()
    hyps, refs = _data("bleu", "missing")
    rows = list(zip(hyps, *refs))
    want = cybleu.corpus_bleu(hyps, refs)
    marker = str(tmp_path / "killed")
    parts = [delayed(_load, pure=False)(rows[a:a + 40], marker if a == 80 else None, False)
             if a == 80 else delayed(list)(rows[a:a + 40]) for a in range(0, len(rows), 40)]
    got = cd.corpus_bleu(db.from_delayed(parts))
    assert os.path.exists(marker)             # the worker was killed, the task ran again
    assert bits(got.score) == bits(want.score)
    client.wait_for_workers(2, timeout=120)
    from distributed.scheduler import KilledWorker
    always = [delayed(_load, pure=False)(rows[:40], str(tmp_path / "again"), True),
              delayed(list)(rows[40:])]
    with pytest.raises(KilledWorker, match="workers died while running it"):
        cd.corpus_bleu(db.from_delayed(always))
    client.wait_for_workers(2, timeout=120)


def _parts(folder, gz=False):
    """The lines of a stream's part files, one after the other."""
    lines = []
    for part in sorted(folder.iterdir()):
        data = gzip.open(part, "rb").read() if gz else part.read_bytes()
        lines.extend(data.decode("utf-8").split("\n")[:-1])
    return lines


def test_filter_text_splits_as_sacrebleu_scores_and_as_the_command(client, tmp_path):
    """Kept and dropped parts hold, in order, the lines whose sacreBLEU sentence score is within
    the bounds (and the others), for every stream; their concatenation is `cybleu filter`'s
    output byte for byte; a run over fewer partitions leaves no stale part."""
    import sacrebleu.metrics as sm
    from cybleu.cli import main
    cd = _cd()
    hyps, refs = wmt22("Online-W", 700)
    src = [f"source {i}\r" for i in range(700)]          # written back exactly as read
    hyp_f = _write(tmp_path / "bt.de", hyps)
    ref_f = _write(tmp_path / "train.de.gz", refs[0], gz=True)
    src_f = _write(tmp_path / "train.en", src)
    metric = sm.BLEU(effective_order=True)
    scores = [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
    keep = [20 <= s <= 60 for s in scores]
    assert 0 < sum(keep) < len(keep)
    got = cd.filter_text(hyp_f, ref_f, also=[src_f], min_score=20, max_score=60,
                         kept=tmp_path / "kept", dropped=tmp_path / "dropped",
                         records_per_partition=97)
    assert got == (sum(keep), 700)
    for folder, wanted in (("kept", True), ("dropped", False)):
        rows = [i for i, k in enumerate(keep) if k == wanted]
        assert len(list((tmp_path / folder / "bt.de").iterdir())) == -(-700 // 97)
        assert _parts(tmp_path / folder / "bt.de") == [hyps[i] for i in rows]
        assert _parts(tmp_path / folder / "train.de.gz", gz=True) == [refs[0][i] for i in rows]
        assert _parts(tmp_path / folder / "train.en") == [src[i] for i in rows]
    assert main(["filter", "-i", hyp_f, "-r", ref_f, "--also", src_f, "--min", "20", "--max",
                 "60", "--kept", str(tmp_path / "cli"), "-q"]) == 0
    for name in ("bt.de", "train.en"):
        whole = b"".join(p.read_bytes() for p in sorted((tmp_path / "kept" / name).iterdir()))
        assert whole == (tmp_path / "cli" / name).read_bytes()
    # again over fewer partitions, chrF, into the same folder: the old parts are gone
    chrf = sm.CHRF()
    want = [h for h, r in zip(hyps, refs[0]) if chrf.sentence_score(h, [r]).score >= 50]
    got = cd.filter_text(hyp_f, ref_f, min_score=50, kept=tmp_path / "kept", metric="chrf",
                         records_per_partition=400)
    assert got == (len(want), 700)
    assert len(list((tmp_path / "kept" / "bt.de").iterdir())) == 2
    assert _parts(tmp_path / "kept" / "bt.de") == want


def test_filter_text_errors(client, tmp_path):
    cd = _cd()
    a = _write(tmp_path / "a.txt", ["x", "y", "z"])
    b = _write(tmp_path / "b.txt", ["x", "y"])
    c = _write(tmp_path / "c.txt", ["x", "y", "z"])
    out = tmp_path / "out"
    for kwargs, message in [
            ({"kept": out}, "give min_score, max_score or both"),
            ({"min_score": 1}, "give kept, dropped or both"),
            ({"min_score": 5, "max_score": 1, "kept": out}, "keep no score"),
            ({"min_score": float("nan"), "kept": out}, "keep no score"),
            ({"min_score": 1, "kept": out, "dropped": out}, "the same folder"),
            ({"min_score": 1, "kept": out, "names": ["x"]}, "one folder name per stream"),
            ({"min_score": 1, "kept": out, "names": ["x", "x"]}, "two streams have the file name"),
            ({"min_score": 1, "kept": out, "metric": "bleurt"}, "unknown metric")]:
        with pytest.raises(ValueError, match=message):
            cd.filter_text(a, c, **kwargs)
    with pytest.raises(TypeError, match="at least one reference stream"):
        cd.filter_text(a, min_score=1, kept=out)
    with pytest.raises(ValueError, match=r"a\.txt: 3 lines; .*b\.txt: 2 lines"):
        cd.filter_text(a, b, min_score=1, kept=out)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\nok\nok\nal\xffso\nok\n")
    ref = _write(tmp_path / "r.txt", ["ok"] * 5)
    with pytest.raises(ValueError, match=r"bad\.txt: line 4: cannot decode as utf-8"):
        cd.filter_text(str(bad), ref, min_score=1, kept=out, records_per_partition=2)


class _DiesOnce(BLEU):
    """Sentence BLEU that kills its worker process the first time it scores (a marker file
    remembers), to see the engine's retry."""

    def __init__(self, marker):
        super().__init__(effective_order=True)
        self.marker = marker

    def sentence_scores(self, *args, **kwargs):
        if not os.path.exists(self.marker):
            with open(self.marker, "w"):
                pass
            os.kill(os.getpid(), signal.SIGKILL)
        return super().sentence_scores(*args, **kwargs)


def test_filter_text_after_a_killed_worker_writes_every_part_once(client, tmp_path):
    cd = _cd()
    hyps, refs = wmt22("Online-B", 300)
    hyp_f = _write(tmp_path / "h.txt", hyps)
    ref_f = _write(tmp_path / "r.txt", refs[0])
    scores = cybleu.batch_sentence_bleu(hyps, refs[:1])
    marker = str(tmp_path / "killed")
    got = cd.filter_text(hyp_f, ref_f, min_score=25, kept=tmp_path / "kept",
                         metric=_DiesOnce(marker), records_per_partition=50)
    assert os.path.exists(marker)
    assert got == (int((scores >= 25).sum()), 300)
    assert _parts(tmp_path / "kept" / "h.txt") == [h for h, s in zip(hyps, scores) if s >= 25]
    assert sorted(p.name for p in (tmp_path / "kept" / "h.txt").iterdir()) == \
        [f"part-{i:05d}" for i in range(6)]
    client.wait_for_workers(2, timeout=120)


def test_segment_statistics_in_order_for_paired_tests(client):
    from cybleu import significance
    cd = _cd()
    hyps, refs = _data("bleu", "missing")
    base = wmt22("Online-A", len(hyps))[0]
    stats = cd.segment_statistics(_bag(list(zip(hyps, *refs)), [0, 5, 5, 130, len(hyps)]),
                                  BLEU())
    base_stats = cd.segment_statistics(_frame(base, refs, [0, 100, len(base)]), BLEU())
    metric = BLEU(references=refs)
    want = significance.paired_bootstrap(metric, base, [hyps], n_samples=200)
    got = significance.paired_bootstrap(BLEU(), base_stats, [stats], n_samples=200)
    assert [(r.score, r.p_value, r.mean, r.ci) for r in got] == \
        [(r.score, r.p_value, r.mean, r.ci) for r in want]


def test_not_a_collection():
    require_engine("distributed", "dask")
    with pytest.raises(TypeError, match="expected a dask Bag or DataFrame"):
        _cd().corpus_bleu([("a", "a")])


def test_a_row_without_its_reference_names_the_partition_and_row(client):
    """Rows that lack their reference field raised a bare IndexError or KeyError, or sacreBLEU's
    "No references provided and the cache is empty"; sentence scores named no partition."""
    cd = _cd()
    good = [("a b c d", "a b c d")] * 4
    cases = [
        (good + [("x y",)] * 3, {}, r"partition 1: row 0 has no reference"),
        (good + [("x y", "x y"), ("x y",)], {"refs": [1]},
         r"partition 1: row 1 has no reference field 1 \(the row has 1 field\)"),
        ([{"h": "a b", "r": "a b"}] * 4 + [{"h": "x y", "r": "x"}, {"h": "x y"}],
         {"hyp": "h", "refs": ["r"]},
         r"partition 1: row 1 has no reference field 'r' \(the row has the keys 'h'\)"),
    ]
    for rows, kwargs, message in cases:
        bag = _bag(rows, [0, 4, len(rows)])
        for run in (lambda: cd.corpus_bleu(bag, **kwargs),
                    lambda: cd.sentence_bleu(bag, **kwargs).compute(),
                    lambda: cd.segment_statistics(bag, BLEU(), **kwargs)):
            with pytest.raises(_partition.PartitionError, match=r"cybleu\.dask: " + message):
                run()
    rows = [(("a", "b"), "a")] * 3 + [(("a", "b"),)]
    with pytest.raises(_partition.PartitionError, match=r"partition 1: row 0 has no reference"):
        cd.best_of(_bag(rows, [0, 3, 4]), k=2).compute()
    # sentence scores name the partition of a bad row too
    rows = good + [("a b", "a b"), (None, "a")]
    with pytest.raises(_partition.PartitionError,
                       match=r"cybleu\.dask: partition 1, row 1: .*hypothesis 1 is None"):
        cd.sentence_bleu(_bag(rows, [0, 4, 6])).compute()


def test_cells_dask_converts_to_text_are_refused_before_scoring(client):
    """Dask's default 'dataframe.convert-string' turns an object column's int, bytes, list and
    float cells into text ("5", "b'x'") before a task runs: they got scores. The frame's dtypes
    and the cells dd.from_pandas holds are checked on the client."""
    import dask
    import dask.dataframe as dd
    import pandas as pd
    cd = _cd()
    refs = ["a b c d", "5", "x y", "l", "2.5"]
    for bad, shown in ((5, "int"), (b"x y", "bytes"), (["l"], "list"), (2.5, "float")):
        hyps = ["a b c d", "5", "x y", "l", "2.5"]
        hyps[2] = bad
        with dask.config.set({"dataframe.convert-string": True}):
            frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=2)
        for run in (lambda: cd.corpus_bleu(frame), lambda: cd.sentence_bleu(frame),
                    lambda: cd.corpus_chrf(frame)):
            with pytest.raises(TypeError, match=rf"column 'hyp' \(hypothesis\), row 2 is "
                                                rf"{shown} .*convert-string"):
                run()
        with dask.config.set({"dataframe.convert-string": True}):
            frame = dd.from_pandas(pd.DataFrame({"hyp": refs, "ref": hyps}), npartitions=2)
        with pytest.raises(TypeError, match=rf"column 'ref' \(reference\), row 2 is {shown}"):
            cd.corpus_bleu(frame)
    numbers = dd.from_pandas(pd.DataFrame({"hyp": [1, 2], "ref": ["1", "2"]}), npartitions=1)
    with pytest.raises(TypeError, match="column 'hyp' \\(hypothesis\\) has dtype int64"):
        cd.corpus_bleu(numbers)
    # text, missing references and the layout with references= stay as they were
    hyps, refs2 = wmt22("Online-B", 60)
    b = [None if i % 7 == 0 else r for i, r in enumerate(refs2[1])]
    frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "a": refs2[0], "b": b}), npartitions=3)
    assert bits(cd.corpus_bleu(frame).score) == \
        bits(cybleu.corpus_bleu(hyps, [refs2[0], b]).score)
    only = dd.from_pandas(pd.DataFrame({"hyp": hyps}), npartitions=2)
    assert bits(cd.corpus_bleu(only, references=refs2).score) == \
        bits(cybleu.corpus_bleu(hyps, refs2).score)


def test_filter_text_never_writes_over_or_removes_an_input(client, tmp_path):
    cd = _cd()
    hyp = _write(tmp_path / "hyp.txt", ["a b c", "x y z"])
    ref = _write(tmp_path / "ref.txt", ["a b c", "x y"])
    saved = {p: open(p, "rb").read() for p in (hyp, ref)}
    # the input folder as kept: its stream folder would be the input file itself
    with pytest.raises(ValueError, match=r"hyp\.txt is the input .*hyp\.txt"):
        cd.filter_text(hyp, ref, min_score=0, kept=tmp_path)
    # parts read back from an earlier run, filtered into the same folders: cleared, then lost
    kept = tmp_path / "kept"
    assert cd.filter_text(hyp, ref, min_score=0, kept=kept) == (2, 2)
    parts = [str(kept / "hyp.txt" / "part-*"), str(kept / "ref.txt" / "part-*")]
    with pytest.raises(ValueError, match=r"holds the input .*part-00000"):
        cd.filter_text(*parts, min_score=0, kept=kept, names=["hyp.txt", "ref.txt"])
    assert (kept / "hyp.txt" / "part-00000").read_text() == "a b c\nx y z\n"
    # one folder through two spellings
    with pytest.raises(ValueError, match="the same folder"):
        cd.filter_text(hyp, ref, min_score=0, kept=kept, dropped=f"{tmp_path}/./kept/")
    # a file where a stream's folder goes: named
    other = tmp_path / "other"
    other.mkdir()
    (other / "hyp.txt").write_text("not a folder\n")
    with pytest.raises(FileExistsError, match=r"other/hyp\.txt is a file: the parts of the "
                                              r"stream 'hyp\.txt' go in a folder"):
        cd.filter_text(hyp, ref, min_score=0, kept=other)
    for path, data in saved.items():
        assert open(path, "rb").read() == data


@SETTINGS
@given(data=st.data())
def test_rouge_in_any_partitioning_is_rouge_scores_mean(client, data):
    """ROUGE's per-segment values summed exactly: rouge-score's math.fsum mean in any
    partitioning and grouping, bags and frames alike."""
    pytest.importorskip("rouge_score", reason="rouge-score (ROUGE's oracle) is not installed")
    from rouge_data import engine_corpus, rouge_means
    hyps, refs = engine_corpus()
    types = ["rouge1", "rougeL"]
    want = rouge_means(hyps, refs, types, use_stemmer=True)
    points = data.draw(cuts(len(hyps), 14), label="cuts")
    split_every = data.draw(st.integers(2, 8), label="split_every")
    for collection in (_bag(list(zip(hyps, *refs)), points), _frame(hyps, refs, points)):
        metric = cybleu.metrics.make("rouge", rouge_types=types, use_stemmer=True)
        got = _cd().corpus_score(collection, metric, split_every=split_every)
        assert {t: tuple(map(bits, v)) for t, v in got.types.items()} == \
            {t: tuple(map(bits, v)) for t, v in want.items()}
        assert bits(got.score) == bits(100 * want["rouge1"][2])
