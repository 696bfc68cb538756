"""The metric protocol: a metric describes itself, and everything asks it.

- Metrics defined outside cybleu (tests/protocol_metrics.py: a segment-mean one and a
  corpus-statistics one) register and run through `corpus_score`, paired bootstrap and
  randomization, the report, `best_of`, the command lines (`cybleu -m`, `cybleu report -m`,
  `cybleu best-of -m`, in subprocesses that find them through an entry point) and cybleu.dask,
  without a line of cybleu naming them.
- External per-segment scores (`ExternalScores`): p-values, means and intervals against a
  plain-numpy implementation of the same resampling (sacreBLEU's seed and draws; each resample's
  mean from math.fsum); a system against itself has p = 1, a system better by a constant on every
  segment the smallest p the resample count allows; bad scores and score files are errors naming
  the file and line (or the position).
- Exact columns: the same float in any order and any partitioning (the engines' vectors, the
  resampler's packing), math.fsum's.
- The house: no import circle (tools/import_circles.py); the machinery names no metric; the bands
  and the brevity-penalty curve have one source.
"""
import importlib.util
import json
import math
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cybleu
import cybleu.metrics
from cybleu import significance
from cybleu._scale import partition as _partition
from cybleu._statistics.columns import Column, ExactPacking, exact_units, from_units, sum_rows
from cybleu.metrics import ExternalScores

import protocol_metrics
from conftest import bits
from protocol_metrics import Overlap, UnigramF
from report_helpers import demo

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_PARENT = Path(cybleu.__file__).resolve().parent.parent
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module", autouse=True)
def registered():
    cybleu.metrics.register("overlap", Overlap)
    cybleu.metrics.register("unigramf", UnigramF)
    yield
    cybleu.metrics.unregister("overlap")
    cybleu.metrics.unregister("unigramf")


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def sample():
    refs, systems = demo(4, 300)
    return refs, systems


# -- plain implementations (the reference the tests hold cybleu to) ------------------------------

def overlap_values(hyps, refs):
    """Each segment's Jaccard overlap (percent), computed directly."""
    out = []
    for h, r in zip(hyps, refs):
        a, b = set(h.split()), set(r.split())
        out.append(100 * (len(a & b) / len(a | b) if a | b else 1.0))
    return out


def numpy_bootstrap(base, system, n_samples, seed, inclusive=True):
    """Paired bootstrap of segment means, the plain way: sacreBLEU's draws
    (`default_rng(seed).choice(n, size=(n_samples, n))`), each resample's mean math.fsum / n,
    sacreBLEU's statistic |Δ| - mean|Δ| against the observed |Δ| (counting ties for segment means),
    and sacreBLEU's interval (numpy's mean of the sorted scores, sorted[n//40] .. )."""
    base, system = np.asarray(base, dtype=np.float64), np.asarray(system, dtype=np.float64)
    n = len(base)
    idx = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    bl = np.array([math.fsum(base[i]) / n for i in idx])
    sy = np.array([math.fsum(system[i]) / n for i in idx])
    observed = abs(math.fsum(base) / n - math.fsum(system) / n)
    diffs = np.abs(sy - bl)
    stats = diffs - diffs.mean()
    count = int(np.sum(stats >= observed if inclusive else stats > observed))
    data = np.sort(sy)
    lower = n_samples // 40
    return ((count + 1) / (n_samples + 1), data.mean(),
            0.5 * (data[n_samples - lower - 1] - data[lower]))


def numpy_randomization(base, system, n_trials, seed):
    """Approximate randomization of segment means: sacreBLEU's swaps
    (`default_rng(seed).integers(2, size=(n_trials, n), dtype=bool)`), each pseudo-system's mean
    math.fsum / n, ties counted."""
    base, system = np.asarray(base, dtype=np.float64), np.asarray(system, dtype=np.float64)
    n = len(base)
    swap = np.random.default_rng(seed).integers(2, size=(n_trials, n), dtype=bool)
    observed = abs(math.fsum(base) / n - math.fsum(system) / n)
    stats = [abs(math.fsum(np.where(s, base, system)) / n
                 - math.fsum(np.where(s, system, base)) / n) for s in swap]
    count = sum(1 for x in stats if x >= observed)
    return (count + 1) / (n_trials + 1)


# -- a metric from outside cybleu ---------------------------------------------------------------

def test_registered_metrics_score_through_the_protocol(sample):
    refs, systems = sample
    hyps = systems["KIT"]
    values = overlap_values(hyps, refs)
    metric = cybleu.metrics.make("overlap")
    score = metric.corpus_score(hyps, [refs])
    assert bits(score.score) == bits(math.fsum(values) / len(values))
    assert metric.sentence_scores(hyps, [refs]).tolist() == values
    assert bits(metric.sentence_score(hyps[3], [refs[3]]).score) == bits(values[3])
    assert metric.aggregation == "mean" and metric.higher_is_better
    assert [c.adds for c in metric.statistic_columns()] == ["exact", "exact", "int"]
    unigram = cybleu.metrics.make("unigramf").corpus_score(hyps, [refs])
    m = h = r = 0
    for hyp, ref in zip(hyps, refs):
        hc, rc = hyp.split(), ref.split()
        m += sum(min(hc.count(w), rc.count(w)) for w in set(hc))
        h, r = h + len(hc), r + len(rc)
    assert bits(unigram.score) == bits(100 * 2 * m / (h + r))
    with pytest.raises(ValueError, match="overlap"):
        cybleu.metrics.register("overlap", UnigramF)


def test_registered_metric_paired_tests_equal_numpy(sample):
    refs, systems = sample
    base, other = systems["KIT"], systems["online-B"]
    metric = Overlap(references=[refs])
    result, = significance.paired_bootstrap(metric, base, [other], n_samples=300)
    p, mean, ci = numpy_bootstrap(overlap_values(base, refs), overlap_values(other, refs), 300,
                                  12345)
    assert (bits(result.p_value), bits(result.mean), bits(result.ci)) == \
        (bits(p), bits(mean), bits(ci))
    ar, = significance.paired_randomization(metric, base, [other], n_trials=300)
    assert bits(ar.p_value) == bits(numpy_randomization(overlap_values(base, refs),
                                                        overlap_values(other, refs), 300, 12345))
    # a corpus-statistics metric from outside: sacreBLEU's own float32 resampling of its rows
    unigram = UnigramF(references=[refs])
    got, = significance.paired_bootstrap(unigram, base, [other], n_samples=200)
    rows = [np.array(unigram._extract_corpus_statistics(h, None), dtype="float32")
            for h in (base, other)]
    idx = np.random.default_rng(12345).choice(len(refs), size=(200, len(refs)), replace=True)
    bl, sy = [[unigram._compute_score_from_stats(r[i].sum(0)).score for i in idx] for r in rows]
    diffs = np.abs(np.array(sy) - np.array(bl))
    observed = abs(unigram.corpus_score(base, None).score - unigram.corpus_score(other, None).score)
    want = (int(np.sum(diffs - diffs.mean() > observed)) + 1) / 201
    assert bits(got.p_value) == bits(want)


def test_registered_metric_in_the_report(sample):
    refs, systems = sample
    rep = cybleu.report(refs, systems, metrics=["bleu", "overlap", "unigramf"], n_samples=200)
    ts = rep.data["sets"][0]
    names = ts["systems"]
    by_name = {m["name"]: m for m in ts["metrics"]}
    overlap = by_name["Overlap"]
    assert overlap["aggregation"] == "mean" and overlap["views"] == []
    sentence = rep.arrays[overlap["sentence_array"]].reshape(len(names), -1)
    for k, name in enumerate(names):
        values = overlap_values(systems[name], refs)
        assert sentence[k].tolist() == values
        assert bits(overlap["corpus"][k]["score"]) == bits(math.fsum(values) / len(values))
    _, results, raw = significance.bootstrap_all_pairs(Overlap(references=[refs]), systems,
                                                       n_samples=200)
    assert overlap["raw_p"] == raw
    assert [c["ci"] for c in overlap["corpus"]] == [float(r.ci) for r in results]
    assert "Overlap" in rep.summary() and "UnigramF" in rep.summary()


def test_registered_metric_best_of(sample):
    refs, systems = sample
    names = list(systems)
    k = len(names)
    candidates = [systems[n][i] for i in range(len(refs)) for n in names]
    best = cybleu.best_of(candidates, [refs], k, metric="overlap")
    values = [overlap_values([systems[n][i] for n in names], [refs[i]] * k)
              for i in range(len(refs))]
    assert best.index.tolist() == [max(range(k), key=v.__getitem__) for v in values]
    assert best.score.tolist() == [max(v) for v in values]


# -- the command lines find a metric through an entry point --------------------------------------

@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory):
    """An environment where an installed distribution declares the two metrics (entry points of
    group cybleu.metrics), and the files of a small corpus."""
    root = tmp_path_factory.mktemp("plugin")
    dist = root / "protocol_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: protocol-plugin\nVersion: 0.1\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        "[cybleu.metrics]\noverlap = protocol_metrics:Overlap\n"
        "unigramf = protocol_metrics:UnigramF\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(root), str(Path(__file__).resolve().parent), str(PACKAGE_PARENT)]))
    env.pop("SACREBLEU_SEED", None)
    return root, env


def _write(root, name, lines):
    path = root / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _cybleu(args, env, cwd):
    proc = subprocess.run([sys.executable, "-m", "cybleu", *args], capture_output=True,
                          env=env, cwd=cwd, timeout=600)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def test_command_lines_take_a_metric_from_an_entry_point(plugin_env, sample):
    root, env = plugin_env
    refs, systems = sample
    ref = _write(root, "ref.txt", refs)
    a = _write(root, "a.txt", systems["KIT"])
    b = _write(root, "b.txt", systems["online-B"])
    code, out, err = _cybleu([ref, "-i", a, "-m", "overlap", "unigramf", "-b", "-f", "text",
                              "-w", "2"], env, root)
    assert code == 0, err
    want = [Overlap(references=[refs]).corpus_score(systems["KIT"], None),
            UnigramF(references=[refs]).corpus_score(systems["KIT"], None)]
    assert out.split() == [f"{w.score:.2f}" for w in want]
    code, out, err = _cybleu([ref, "-i", a, "-m", "overlap", "-f", "json", "-w", "2"], env, root)
    assert code == 0, err
    assert json.loads(out)["score"] == float(f"{want[0].score:.2f}")
    # a paired test on the command line: the library's numbers
    code, out, err = _cybleu([ref, "-i", a, b, "-m", "overlap", "-pbs", "-pbsn", "200",
                              "-f", "text"], env, root)
    assert code == 0, err
    result, = significance.paired_bootstrap(Overlap(references=[refs]), systems["KIT"],
                                            [systems["online-B"]], n_samples=200)
    assert f"(p = {result.p_value:.4f})" in out
    # the report and best-of commands
    page = root / "r.html"
    code, _, err = _cybleu(["report", ref, "-i", a, b, "-m", "bleu", "overlap", "-n", "50",
                            "-o", str(page), "-q"], env, root)
    assert code == 0, err and page.is_file()
    nbest = _write(root, "nbest.txt", [h for pair in zip(systems["KIT"], systems["online-B"])
                                       for h in pair])
    code, out, err = _cybleu(["best-of", "-k", "2", "-r", ref, "-i", nbest, "-m", "overlap"],
                             env, root)
    assert code == 0, err
    best = cybleu.best_of(Path(nbest).read_text(encoding="utf-8").split("\n")[:-1], [refs], 2,
                          metric="overlap")
    pairs = list(zip(systems["KIT"], systems["online-B"]))
    assert out.split("\n")[:-1] == [pairs[i][j] for i, j in enumerate(best.index.tolist())]
    # an unknown name is still refused, listing the names
    code, _, err = _cybleu([ref, "-i", a, "-m", "nosuchmetric"], env, root)
    assert code == 2 and "invalid choice: 'nosuchmetric'" in err


def test_segment_mean_metric_is_exact_across_the_command_lines_slices(tmp_path, capsys,
                                                                      monkeypatch):
    """The scoring command line reads a file a slice of the references at a time: the mean of a
    segment-mean metric is still math.fsum over all segments, and a paired test sees every
    segment."""
    import cybleu.streams as streams
    from cybleu.cli import main
    refs, systems = demo(2, 500)
    hyps = systems["KIT"]
    ref = _write(tmp_path, "ref500.txt", refs)
    hyp = _write(tmp_path, "hyp500.txt", hyps)
    other = _write(tmp_path, "other500.txt", systems["LIUM-NMT"])
    values = overlap_values(hyps, refs)
    outs = []
    for chunk in (1 << 17, 64):
        monkeypatch.setattr(streams, "CHUNK_LINES", chunk)
        assert main([ref, "-i", hyp, "-m", "overlap", "-b", "-w", "17"]) == 0
        assert capsys.readouterr().out.strip() == f"{math.fsum(values) / len(values):.17f}"
        assert main([ref, "-i", hyp, other, "-m", "overlap", "-pbs", "-pbsn", "100"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]


# -- external per-segment scores -----------------------------------------------------------------

def _scores(seed, n=400, shift=0.0):
    rng = np.random.default_rng(seed)
    return (rng.normal(0.7, 0.2, n) + shift).tolist()


@pytest.mark.parametrize("seed", [12345, 7])
def test_external_scores_bootstrap_equals_numpy(seed):
    base, other = _scores(1), _scores(2)
    metric = ExternalScores("COMET")
    result, = significance.paired_bootstrap(metric, base, [other], n_samples=500, seed=seed)
    p, mean, ci = numpy_bootstrap(base, other, 500, seed)
    assert (bits(result.p_value), bits(result.mean), bits(result.ci)) == \
        (bits(p), bits(mean), bits(ci))
    assert bits(result.score) == bits(math.fsum(other) / len(other))
    ar, = significance.paired_randomization(metric, base, [other], n_trials=500, seed=seed)
    assert bits(ar.p_value) == bits(numpy_randomization(base, other, 500, seed))


def test_external_scores_identical_and_constant_shift():
    base = _scores(3)
    metric = ExternalScores("COMET")
    n = 1000
    same = significance.paired_bootstrap(metric, base, [list(base)], n_samples=n)[0]
    assert same.p_value == 1.0
    assert significance.paired_randomization(metric, base, [list(base)], n_trials=n)[0].p_value \
        == 1.0
    better = [v + 0.05 for v in base]
    assert significance.paired_bootstrap(metric, base, [better], n_samples=n)[0].p_value \
        == 1 / (n + 1)
    assert significance.paired_randomization(metric, base, [better], n_trials=n)[0].p_value \
        == 1 / (n + 1)
    names, matrix = significance.all_pairs(metric, {"a": base, "b": better, "c": list(base)},
                                           n_samples=n, correction=None)
    assert matrix[0][2] == 1.0 and matrix[0][1] == 1 / (n + 1)


def test_external_scores_interval_equals_numpy(monkeypatch):
    values = _scores(4)
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    score = ExternalScores("COMET").corpus_score(values, n_bootstrap=300)
    n = len(values)
    idx = np.random.default_rng(12345).choice(n, size=(300, n), replace=True)
    arr = np.asarray(values)
    means = sorted(math.fsum(arr[i]) / n for i in idx)
    assert bits(score._mean) == bits(statistics.mean(means))
    assert bits(score._ci) == bits(0.5 * (means[300 - 7 - 1] - means[7]))


def test_external_scores_t_test_blocks_are_exact_means():
    base, other = _scores(5, 100), _scores(6, 100)
    result = significance.paired_t_test(ExternalScores("COMET"), base, other, n_blocks=10)
    assert result.baseline_blocks == [math.fsum(base[k:k + 10]) / 10 for k in range(0, 100, 10)]
    assert result.system_blocks == [math.fsum(other[k:k + 10]) / 10 for k in range(0, 100, 10)]


@pytest.mark.parametrize("bad, error, message", [
    ([0.5, float("nan"), 0.2], ValueError, "score 2 is nan"),
    ([0.5, float("inf")], ValueError, "score 2 is inf"),
    ([0.5, "0.7"], TypeError, "score 2 is str"),
    ([True, 0.5], TypeError, "score 1 is bool"),
    ("0.5 0.7", TypeError, "one number per segment|not a str"),
])
def test_external_scores_bad_values(bad, error, message):
    with pytest.raises(error, match=message):
        ExternalScores("COMET").corpus_score(bad)
    with pytest.raises(error, match=message):
        significance.paired_bootstrap(ExternalScores("COMET"), [0.1, 0.2, 0.3], [bad],
                                      n_samples=10)


def test_report_with_external_scores(sample):
    refs, systems = sample
    names = list(systems)
    scores = {"COMET": {n: _scores(10 + k, len(refs)) for k, n in enumerate(names)},
              "MetricX:lower": {n: _scores(20 + k, len(refs), 5.0) for k, n in enumerate(names)}}
    rep = cybleu.report(refs, systems, metrics=["bleu"], scores=scores, n_samples=200)
    ts = rep.data["sets"][0]
    comet, metricx = ts["metrics"][1], ts["metrics"][2]
    assert (comet["name"], comet["higher_is_better"]) == ("COMET", True)
    assert (metricx["name"], metricx["higher_is_better"]) == ("MetricX", False)
    assert comet["views"] == [] and "bands" not in comet
    _, results, raw = significance.bootstrap_all_pairs(
        ExternalScores("COMET"), scores["COMET"], n_samples=200)
    assert comet["raw_p"] == raw
    for k, name in enumerate(names):
        values = scores["COMET"][name]
        assert bits(comet["corpus"][k]["score"]) == bits(math.fsum(values) / len(values))
        assert bits(comet["corpus"][k]["ci"]) == bits(float(results[k].ci))
        sent = rep.arrays[comet["sentence_array"]].reshape(len(names), -1)[k]
        assert sent.tolist() == values
    # lower is better: the best system ranks first
    order = sorted(range(len(names)), key=lambda k: metricx["corpus"][k]["score"])
    assert metricx["rank"] == order


@pytest.mark.parametrize("scores, message", [
    ({"COMET": {"KIT": [0.5]}}, "1 scores for 300 segments"),
    ({"COMET": {"nobody": [0.5] * 300}}, "not a system"),
    ({"COMET:best": {}}, "direction after ':'"),
    ({"COMET": {"KIT": [0.5] * 299 + [float("nan")]}}, "score 300 is nan"),
])
def test_report_scores_errors(sample, scores, message):
    refs, systems = sample
    one = {"KIT": systems["KIT"]}
    with pytest.raises(cybleu.ReportInputError, match=re.escape(message)):
        cybleu.report(refs, one, metrics=["bleu"], scores=scores)


def test_report_command_scores_files(plugin_env, sample):
    root, env = plugin_env
    refs, systems = sample
    ref = _write(root, "sref.txt", refs)
    a = _write(root, "sa.txt", systems["KIT"])
    b = _write(root, "sb.txt", systems["online-B"])
    ca = _write(root, "ca.txt", [repr(v) for v in _scores(30, len(refs))])
    cb = _write(root, "cb.txt", [repr(v) for v in _scores(31, len(refs), 0.01)])
    page = root / "scores.html"
    code, _, err = _cybleu(["report", ref, "-i", a, b, "-m", "bleu", "--scores", "COMET", ca, cb,
                            "-n", "100", "-o", str(page), "-q"], env, root)
    assert code == 0, err
    lines = [repr(v) for v in _scores(32, len(refs))]
    cases = {
        "short": (lines[:-3], "short.txt has 297 lines, the references 300"),
        "word": (lines[:4] + ["high"] + lines[5:], "word.txt, line 5: 'high' is not a number"),
        "nan": (lines[:9] + ["nan"] + lines[10:], "nan.txt, line 10: 'nan' is not a finite"),
        "inf": (lines[:1] + ["-inf"] + lines[2:], "inf.txt, line 2: '-inf' is not a finite"),
    }
    for name, (content, message) in cases.items():
        bad = _write(root, f"{name}.txt", content)
        code, _, err = _cybleu(["report", ref, "-i", a, b, "--scores", "COMET", ca, bad,
                                "-o", str(root / "x.html")], env, root)
        assert code == 1 and message in err, (name, err)
        assert not (root / "x.html").exists()
    code, _, err = _cybleu(["report", ref, "-i", a, b, "--scores", "COMET", ca, "-o",
                            str(root / "x.html")], env, root)
    assert code == 1 and "gives 1 file(s) for 2 system(s)" in err


# -- exact columns -------------------------------------------------------------------------------

FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e30, max_value=1e30)


@SETTINGS
@given(values=st.lists(st.one_of(FLOATS, st.floats(min_value=-1, max_value=1)), min_size=1,
                       max_size=60),
       data=st.data())
def test_exact_sums_are_fsum_in_any_partitioning(values, data):
    want = math.fsum(values)
    assert from_units(sum(exact_units(v) for v in values)) == want
    rows = [[v, 1] for v in values]
    assert sum_rows(rows, [Column("v", "exact"), Column("n", "int")]) == [want, len(values)]
    # the engines' vectors: any cut into partitions, merged in any grouping
    metric = ExternalScores("x")
    plan = _partition.Plan(metric, 0)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(values)), max_size=6)))
    points = [0] + cuts + [len(values)]
    parts = [_partition.partition_stats(plan, values[a:b], [], k)
             for k, (a, b) in enumerate(zip(points, points[1:]))]
    order = data.draw(st.permutations(range(len(parts))))
    merged = _partition.merge([parts[k] for k in order])
    got = _partition.finish(plan, merged)
    assert bits(got.score) == bits(want / len(values))
    # the resampler's packing: sums of any subset decode to fsum
    packing = ExactPacking((Column("v", "exact"), Column("n", "int")), [rows])
    packed = packing.encode(rows)
    chosen = data.draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=80))
    w = packing.width
    sums = [sum(packed[i * w + j] for i in chosen) for j in range(w)]
    assert packing.decode(sums) == [[math.fsum(values[i] for i in chosen), len(chosen)]]


def test_exact_means_do_not_depend_on_the_order():
    """Values whose float sum depends on the order: every path gives math.fsum's."""
    values = [1e16, 1.0, -1e16, 0.1, 0.2, 0.3] * 50
    metric = ExternalScores("x")
    want = math.fsum(values) / len(values)
    assert bits(metric.corpus_score(values).score) == bits(want)
    assert bits(metric.corpus_score(values[::-1]).score) == bits(want)
    assert sum(values) / len(values) != want   # the naive sum differs: the test can fail


# -- the engines ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dask_client():
    from scale_data import require_engine
    require_engine("distributed", "dask")
    import cloudpickle
    from distributed import Client, LocalCluster
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    cloudpickle.register_pickle_by_value(protocol_metrics)
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=50)
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.mark.dask
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_registered_metrics_on_dask(dask_client, sample):
    import dask.bag as db
    from dask import delayed
    import cybleu.dask
    refs, systems = sample
    hyps = systems["KIT"]
    rows = list(zip(hyps, refs))
    for points in ([0, 300], [0, 1, 2, 150, 150, 299, 300], [0, 17, 90, 91, 250, 300]):
        bag = db.from_delayed([delayed(list)(rows[a:b]) for a, b in zip(points, points[1:])])
        for metric in (Overlap(), UnigramF()):
            got = cybleu.dask.corpus_score(bag, metric)
            want = type(metric)().corpus_score(hyps, [refs])
            assert bits(got.score) == bits(want.score), (type(metric).__name__, points)
        # external scores whose float sum depends on the order: fsum's mean in any partitioning
        values = [1e16, 1.0, -1e16, 0.1] * 75
        scores = db.from_delayed([delayed(list)([(v,) for v in values[a:b]])
                                  for a, b in zip(points, points[1:])])
        got = cybleu.dask.corpus_score(scores, ExternalScores("x"))
        assert bits(got.score) == bits(math.fsum(values) / len(values))
    best = cybleu.dask.best_of(db.from_sequence(
        [((systems["KIT"][i], systems["online-B"][i]), refs[i]) for i in range(len(refs))],
        npartitions=3), k=2, metric="overlap").compute()
    want = cybleu.best_of([h for i in range(len(refs))
                           for h in (systems["KIT"][i], systems["online-B"][i])],
                          [refs], 2, metric="overlap")
    assert [row[0] for row in best] == want.index.tolist()
    assert [row[1] for row in best] == want.score.tolist()


@pytest.fixture(scope="module")
def ray_session():
    from scale_data import require_engine
    require_engine("ray", "ray")
    require_engine("ray.data", "ray")
    import ray
    import ray.cloudpickle
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    ray.cloudpickle.register_pickle_by_value(protocol_metrics)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {
                 "CYBLEU_IMPLEMENTATION": os.environ.get("CYBLEU_IMPLEMENTATION", "auto")}})
    from ray.data import DataContext
    DataContext.get_current().enable_progress_bars = False
    yield ray
    ray.shutdown()


@pytest.mark.ray
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_segment_means_on_ray(ray_session, sample):
    """A mean of segment scores aggregated over Ray blocks: the exact sums travel as int64
    limbs in Ray's accumulators, and the mean is math.fsum's whatever the blocks."""
    from cybleu.ray import CorpusScore
    refs, systems = sample
    hyps = systems["KIT"]
    values = [1e16, 1.0, -1e16, 0.1] * 75
    for blocks in (1, 4, 7):
        ds = ray_session.data.from_items([{"v": v} for v in values], override_num_blocks=blocks)
        got = ds.aggregate(CorpusScore(ExternalScores("x"), hyp="v", refs=[]))["x"]
        assert bits(got.score) == bits(math.fsum(values) / len(values))
        ds = ray_session.data.from_items([{"hyp": h, "ref": r} for h, r in zip(hyps, refs)],
                                         override_num_blocks=blocks)
        got = ds.aggregate(CorpusScore(Overlap(), hyp="hyp", refs=["ref"]))["overlap"]
        assert bits(got.score) == bits(Overlap().corpus_score(hyps, [refs]).score)


@pytest.fixture(scope="module")
def spark_session():
    from scale_data import require_engine
    require_engine("pyspark", "spark")
    import shutil
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    from pyspark import cloudpickle
    from pyspark.sql import SparkSession
    cloudpickle.register_pickle_by_value(protocol_metrics)
    session = (SparkSession.builder.master("local[2]").appName("cybleu-protocol")
               .config("spark.ui.enabled", "false")
               .config("spark.sql.shuffle.partitions", "4")
               .config("spark.executorEnv.CYBLEU_IMPLEMENTATION",
                       os.environ.get("CYBLEU_IMPLEMENTATION", "auto"))
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.mark.spark
@pytest.mark.filterwarnings("ignore::FutureWarning")
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
@pytest.mark.filterwarnings("ignore::UserWarning")
def test_segment_means_on_spark(spark_session, sample):
    """Spark's SQL sums of the partitions' int64 limbs give math.fsum's mean, in any
    partitioning."""
    import cybleu.spark
    refs, systems = sample
    hyps = systems["KIT"]
    values = [1e16, 1.0, -1e16, 0.1] * 75
    for parts in (1, 3, 8):
        df = spark_session.createDataFrame([(v,) for v in values], "v double").repartition(parts)
        got = cybleu.spark.corpus_score(df, ExternalScores("x"), hyp="v", refs=[])
        assert bits(got.score) == bits(math.fsum(values) / len(values))
        df = spark_session.createDataFrame(list(zip(hyps, refs)),
                                           "hyp string, ref string").repartition(parts)
        got = cybleu.spark.corpus_score(df, Overlap(), hyp="hyp", refs=["ref"])
        assert bits(got.score) == bits(Overlap().corpus_score(hyps, [refs]).score)


# -- the house -----------------------------------------------------------------------------------

def _tool():
    spec = importlib.util.spec_from_file_location("import_circles",
                                                  ROOT / "tools" / "import_circles.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_import_circle():
    """No two modules import each other, however lazily, and no two floors (subpackages) do:
    tools/import_circles.py on the source tree."""
    tool = _tool()
    modules, floors = tool.circles(str(ROOT / "src" / "cybleu"))
    assert modules == [] and floors == [], (modules, floors)


def test_the_tool_finds_a_circle(tmp_path):
    """The tool counts a lazy import in a function as an edge (so the test above can fail)."""
    package = tmp_path / "cybleu"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("def f():\n    from . import b\n", encoding="utf-8")
    (package / "b.py").write_text("from .a import f\n", encoding="utf-8")
    (package / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (package / "sub" / "c.py").write_text("def g():\n    from .. import a\n", encoding="utf-8")
    (package / "d.py").write_text("def h():\n    from .sub import c\n", encoding="utf-8")
    modules, floors = _tool().circles(str(package))
    assert modules == [["cybleu.a", "cybleu.b"]]
    assert floors == [["cybleu.a", "cybleu.b"]]  # top-level modules are floors of their own


# the machinery that asks the metric: lines naming chrF or TER (help strings included)
MACHINERY = ["_report", "_scale", "_statistics", "significance.py", "render.py",
             "metrics/base.py"]
NAMING = re.compile(r"chrf|\bter\b", re.IGNORECASE)


def test_the_machinery_names_no_metric():
    src = ROOT / "src" / "cybleu"
    lines = []
    for part in MACHINERY:
        path = src / part
        files = [path] if path.is_file() else sorted(
            p for p in path.rglob("*") if p.suffix in (".py", ".js", ".css"))
        for f in files:
            for k, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
                if NAMING.search(line):
                    lines.append(f"{f.relative_to(src)}:{k + 1}: {line.strip()}")
    assert len(lines) <= 15, "\n".join(lines)


def test_bands_and_bp_curve_have_one_source():
    src = ROOT / "src" / "cybleu"
    texts = {p: p.read_text(encoding="utf-8") for p in src.rglob("*")
             if p.suffix in (".py", ".js")}
    assert [p.name for p, t in texts.items() if "Almost useless" in t] == ["bleu.py"]
    assert [str(p.relative_to(src)) for p, t in texts.items()
            if re.search(r"exp\(1 - 1 / ", t)] == [os.path.join("_scoring", "bleu.py")]
