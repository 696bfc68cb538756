"""Significance tests against sacreBLEU 2.6.0's, value for value, and the compiled resampler
against its numpy twin.

- `_resample` (compiled) and `_resample_py` (numpy) agree exactly: random streams, sums, BLEU's
  float32/int64 arithmetic, numpy's mean; the twin agrees with numpy and sacreBLEU's own BLEU.
- `cybleu.significance.PairedTest` gives sacreBLEU's p-values, means and intervals (the same
  floats) on WMT17 en-de and WMT22 en-de, bootstrap and randomization, with either resampler.
  sacreBLEU's own runs are slow, so each oracle run happens once per session; the default suite
  uses a few systems and fewer resamples, `-m slow` every system with the default counts.
- The p-values of sacreBLEU's test_significance.py (fixtures) are reproduced as sacreBLEU 2.6.0
  reproduces them, and lie within 0.01 of Moses' and multeval's.
"""
import bz2
import functools
import inspect
import math
import os
import pickle
from array import array

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cybleu import significance
from cybleu._statistics import resampling
from cybleu._kernels import resample_py as _resample_py
from cybleu.metrics import BLEU
from conftest import data_path, read_lines

try:
    from cybleu._kernels import resample as _resample_c
except ImportError:  # a pure-Python install: the compiled side of parity tests skips
    _resample_c = None

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WMT17 = ("sacrebleu-fixtures", "wmt17-en-de")
WMT22 = ("wmt", "wmt22", "en-de")


def _compiled():
    if _resample_c is None:
        pytest.skip("the compiled resampler is not built in this install")
    return _resample_c


@pytest.fixture(params=["compiled", "python"])
def resampler(request, monkeypatch):
    """significance.py on the compiled resampler, then on its twin."""
    module = _compiled() if request.param == "compiled" else _resample_py
    monkeypatch.setattr(resampling, "_kernel", module)
    return module


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


# -- the resampler: compiled against twin -------------------------------------------------------

def test_same_public_names_and_signatures():
    compiled = _compiled()
    assert compiled.__all__ == _resample_py.__all__
    for name in _resample_py.__all__:
        if name == "Generator":
            for method in ("bootstrap_indices", "ar_masks"):
                assert (list(inspect.signature(getattr(compiled.Generator, method)).parameters)
                        == list(inspect.signature(getattr(_resample_py.Generator, method))
                                .parameters))
        else:
            assert (list(inspect.signature(getattr(compiled, name)).parameters)
                    == list(inspect.signature(getattr(_resample_py, name)).parameters))


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1, 2**32, 2**64 + 7, 2**200 + 11])
def test_generator_streams_equal_numpy(seed):
    compiled = _compiled()
    for n_rows, n_seg in [(3, 3004), (4, 1), (2, 2), (5, 7), (0, 9)]:
        expected = np.random.default_rng(seed).choice(n_seg, size=(n_rows, n_seg), replace=True)
        got = compiled.Generator(seed).bootstrap_indices(n_rows, n_seg)
        assert got.tolist() == expected.ravel().tolist()
        assert _resample_py.Generator(seed).bootstrap_indices(n_rows, n_seg) == got
    for n_rows, n_seg in [(3, 3004), (7, 5), (33, 1), (0, 4)]:
        expected = np.random.default_rng(seed).integers(2, size=(n_rows, n_seg), dtype=bool)
        got = compiled.Generator(seed).ar_masks(n_rows, n_seg)
        assert bytes(got) == expected.tobytes()
        assert _resample_py.Generator(seed).ar_masks(n_rows, n_seg) == got


@SETTINGS
@given(st.integers(0, 2**70), st.lists(st.tuples(st.booleans(), st.integers(0, 40),
                                                  st.integers(1, 50)), max_size=6))
def test_generator_continues_one_stream(seed, calls):
    """Draws after draws on one generator continue numpy's stream (has_uint32 buffering)."""
    compiled = _compiled()
    ours, twin = compiled.Generator(seed), _resample_py.Generator(seed)
    for masks, n_rows, n_seg in calls:
        if masks:
            assert ours.ar_masks(n_rows, n_seg) == twin.ar_masks(n_rows, n_seg)
        else:
            assert ours.bootstrap_indices(n_rows, n_seg) == twin.bootstrap_indices(n_rows, n_seg)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", True])
def test_generator_rejects_bad_seeds(seed):
    for module in filter(None, (_resample_c, _resample_py)):
        with pytest.raises(ValueError, match="non-negative int"):
            module.Generator(seed)


def _flat(rows):
    return array("q", [int(v) for row in rows for v in row])


stat_rows = st.integers(1, 12).flatmap(lambda width: st.lists(
    st.lists(st.integers(-2**20, 2**20), min_size=width, max_size=width),
    min_size=1, max_size=40))


@SETTINGS
@given(stat_rows, st.integers(1, 4), st.integers(0, 70), st.integers(0, 2**32))
def test_sums_compiled_equal_twin(rows, n_sys, n_rows, seed):
    compiled = _compiled()
    width, n_seg = len(rows[0]), len(rows)
    systems = [_flat([[v * (s + 1) - s for v in row] for row in rows]) for s in range(n_sys)]
    idx = compiled.Generator(seed).bootstrap_indices(n_rows, n_seg)
    assert compiled.resample_sums(systems, width, idx, n_rows) == \
        _resample_py.resample_sums(systems, width, idx, n_rows)
    masks = compiled.Generator(seed).ar_masks(n_rows, n_seg)
    assert compiled.ar_sums(systems[0], systems[1:], width, masks, n_rows) == \
        _resample_py.ar_sums(systems[0], systems[1:], width, masks, n_rows)


@SETTINGS
@given(stat_rows, st.integers(1, 4), st.integers(0, 70), st.integers(0, 2**32))
def test_drawn_sums_equal_sums_of_drawn_indices(rows, n_sys, n_rows, seed):
    """bootstrap_sums draws the indices a block at a time while it sums: the same sums as
    resample_sums on all the indices at once, and the generator's stream continues alike."""
    compiled = _compiled()
    width, n_seg = len(rows[0]), len(rows)
    systems = [_flat([[v * (s + 1) - s for v in row] for row in rows]) for s in range(n_sys)]
    expected = compiled.resample_sums(
        systems, width, compiled.Generator(seed).bootstrap_indices(n_rows, n_seg), n_rows)
    for module in (compiled, _resample_py):
        generator, reference = module.Generator(seed), module.Generator(seed)
        reference.bootstrap_indices(n_rows, n_seg)
        assert module.bootstrap_sums(generator, systems, width, n_rows) == expected
        assert generator.bootstrap_indices(2, n_seg) == reference.bootstrap_indices(2, n_seg)


def test_sums_of_a_table_too_large_to_gather():
    """Statistics tables past 16 MB are summed by counting picks and sweeping the table (the
    smaller ones by adding each picked row): both ways give numpy's sums."""
    compiled = _compiled()
    rng = np.random.default_rng(5)
    n_seg, width = 70_000, 4  # 16 systems: 64 int32 per segment, 17.9 MB
    systems = [array("q", rng.integers(0, 1000, size=n_seg * width).tolist()) for _ in range(16)]
    idx = compiled.Generator(9).bootstrap_indices(3, n_seg)
    got = compiled.resample_sums(systems, width, idx, 3)
    assert got == _resample_py.resample_sums(systems, width, idx, 3)
    assert compiled.bootstrap_sums(compiled.Generator(9), systems, width, 3) == got
    assert compiled.resample_sums(systems[:1], width, idx, 3) == got[:1]


def test_drawn_sums_of_many_segments_a_few_resamples_at_a_time():
    """Past 131,072 segments bootstrap_sums holds fewer resamples' picks at a time (memory
    bounded whatever the test set's length): the sums of all the indices drawn at once, and
    the generator's stream continues alike."""
    compiled = _compiled()
    rng = np.random.default_rng(6)
    n_seg, width, n_rows = 300_000, 2, 31   # 13 resamples a block: two full, one partial
    systems = [array("q", rng.integers(0, 50, size=n_seg * width).tolist()) for _ in range(2)]
    idx = compiled.Generator(4).bootstrap_indices(n_rows, n_seg)
    generator, reference = compiled.Generator(4), compiled.Generator(4)
    reference.bootstrap_indices(n_rows, n_seg)
    assert compiled.bootstrap_sums(generator, systems, width, n_rows) == \
        compiled.resample_sums(systems, width, idx, n_rows)
    assert generator.bootstrap_indices(2, 5) == reference.bootstrap_indices(2, 5)


def test_drawn_sums_report_progress_and_check_shapes():
    compiled = _compiled()
    rows = _flat([[1, 2]] * 5)
    seen = []
    compiled.bootstrap_sums(compiled.Generator(1), [rows], 2, 100, seen.append)
    assert seen and seen[-1] == 100 and seen == sorted(seen)
    for module in (compiled, _resample_py):
        assert module.bootstrap_sums(module.Generator(1), [], 2, 100) == []
        with pytest.raises(ValueError, match="rows of width"):
            module.bootstrap_sums(module.Generator(1), [rows], 3, 100)
        with pytest.raises(ValueError, match="same number of segments"):
            module.bootstrap_sums(module.Generator(1), [rows, _flat([[1, 2]] * 4)], 2, 100)
        with pytest.raises(ValueError, match="n_rows >= 0"):
            module.bootstrap_sums(module.Generator(1), [rows], 2, -1)
        with pytest.raises(TypeError):
            module.bootstrap_sums(object(), [rows], 2, 1)


def test_sums_wide_values():
    """Values whose sums leave int32 take the int64 path, still exact."""
    compiled = _compiled()
    rows = [[2**40 + i, -(2**35) * i, i] for i in range(50)]
    systems = [_flat(rows), _flat([[v // 3 for v in r] for r in rows])]
    idx = compiled.Generator(3).bootstrap_indices(9, 50)
    got = compiled.resample_sums(systems, 3, idx, 9)
    assert got == _resample_py.resample_sums(systems, 3, idx, 9)
    picks = np.frombuffer(idx, dtype=np.int64).reshape(9, 50)
    assert got[0].tolist() == np.array(rows, dtype=object)[picks].sum(axis=1).ravel().tolist()
    masks = compiled.Generator(3).ar_masks(40, 50)
    assert compiled.ar_sums(systems[0], systems[1:], 3, masks, 40) == \
        _resample_py.ar_sums(systems[0], systems[1:], 3, masks, 40)


def test_sums_report_progress_and_check_shapes():
    compiled = _compiled()
    rows = _flat([[1, 2]] * 5)
    idx = compiled.Generator(1).bootstrap_indices(100, 5)
    seen = []
    compiled.resample_sums([rows], 2, idx, 100, seen.append)
    assert seen and seen[-1] == 100 and seen == sorted(seen)
    for module in (compiled, _resample_py):
        with pytest.raises(ValueError, match="rows of width"):
            module.resample_sums([rows], 3, idx, 100)
        with pytest.raises(ValueError, match="indices"):
            module.resample_sums([rows], 2, idx, 99)
        with pytest.raises(ValueError, match="same number of segments"):
            module.resample_sums([rows, _flat([[1, 2]] * 4)], 2, idx, 100)
        bad = array("q", idx)
        bad[7] = 5
        with pytest.raises(ValueError, match="out of range"):
            module.resample_sums([rows], 2, bad, 100)
        with pytest.raises(ValueError, match="mask entries"):
            module.ar_sums(rows, [rows], 2, bytearray(9), 2)


def _bleu_rows(draw_order, data):
    """Random BLEU rows: correct <= total, zeros here and there."""
    rng = np.random.default_rng(data)
    n = 300
    width = 2 + 2 * draw_order
    rows = np.zeros((n, width), dtype=np.int64)
    rows[:, 0] = rng.integers(0, 60, n)
    rows[:, 1] = rng.integers(0, 60, n)
    for k in range(draw_order):
        total = np.maximum(rows[:, 0] - k, 0) * rng.integers(1, 30)
        rows[:, 2 + draw_order + k] = total
        rows[:, 2 + k] = (total * rng.random(n)).astype(np.int64)
    rows[::7, 2:2 + draw_order] = 0
    rows[::11, 2 + draw_order] = 0
    rows[::13, 3] = 0
    return array("q", rows.ravel().tolist())


SMOOTHING = [("exp", None), ("none", None), ("floor", None), ("floor", 0.3), ("add-k", None),
             ("add-k", 0.5), ("add-k", 2.0), ("add-k", 1), ("floor", 1e-9)]


@pytest.mark.parametrize("order", [1, 2, 4, 6])
@pytest.mark.parametrize("smooth_method,smooth_value", SMOOTHING)
def test_bleu_scores_equal_sacrebleu_arithmetic(order, smooth_method, smooth_value):
    """Compiled and twin scores of summed rows equal sacreBLEU's own BLEU on numpy float32 rows
    (the bootstrap) and int64 rows (randomization), bit for bit."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    rows = _bleu_rows(order, order * 100 + len(smooth_method))
    for eff in (False, True):
        oracle = SacreBLEU(smooth_method=smooth_method, smooth_value=smooth_value,
                           effective_order=eff, max_ngram_order=order)
        matrix = np.frombuffer(rows, dtype=np.int64).reshape(-1, 2 + 2 * order)
        for dtype in ("float32", "int64"):
            expected = [oracle._compute_score_from_stats(row).score
                        for row in matrix.astype(dtype)]
            twin = _resample_py.bleu_scores(rows, order, smooth_method, smooth_value, eff, dtype)
            assert [math.copysign(1, x) * abs(x) for x in twin] == expected
            assert twin.tobytes() == array("d", expected).tobytes()
            if _resample_c is not None:
                got = _resample_c.bleu_scores(rows, order, smooth_method, smooth_value, eff,
                                              dtype)
                assert got.tobytes() == twin.tobytes()


def test_float32_precisions_differ_from_float64():
    """The float32 path is not the float64 one in disguise: on WMT-sized sums they differ."""
    rows = array("q", [61287, 62673, 36838, 19326, 11394, 7006, 62673, 59669, 56665, 53661])
    f32 = _resample_py.bleu_scores(rows, 4, "exp", None, False, "float32")[0]
    f64 = _resample_py.bleu_scores(rows, 4, "exp", None, False, "int64")[0]
    assert f32 != f64 and abs(f32 - f64) < 1e-5


@SETTINGS
@given(st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=3000))
def test_pairwise_mean_equals_numpy(values):
    expected = float(np.mean(np.array(values, dtype=np.float64)))
    assert _resample_py.pairwise_mean(values) == expected
    if _resample_c is not None:
        assert _resample_c.pairwise_mean(values) == expected


def test_estimate_ci_equals_sacrebleu(resampler):
    from sacrebleu.significance import estimate_ci as sacre_estimate_ci
    rng = np.random.default_rng(4)
    for n in (1, 7, 40, 1000, 2001):
        scores = (rng.random(n) * 40).tolist()
        mean, ci = significance.estimate_ci(scores)
        o_mean, o_ci = sacre_estimate_ci(np.array(scores))
        assert (mean, ci) == (float(o_mean), float(o_ci))


# -- paired tests against sacreBLEU ------------------------------------------------------------

def _wmt17():
    root = data_path(*WMT17)
    refs = read_lines(root / "ref.txt")
    systems = sorted((root / "sys").glob("*.txt"))
    return refs, [(p.name, read_lines(p)) for p in systems]


def _wmt22():
    root = data_path(*WMT22)
    refs = [read_lines(root / "ref.A.txt"), read_lines(root / "ref.B.txt")]
    systems = sorted((root / "sys").glob("*.txt"))
    return refs, [(p.name, read_lines(p)) for p in systems]


DATASETS = {"wmt17": (_wmt17, 1), "wmt22": (_wmt22, 2)}


@functools.lru_cache(maxsize=None)
def _oracle(dataset, test_type, n_samples, n_systems, seed="12345"):
    """sacreBLEU 2.6.0's PairedTest, run once per session per setting."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import PairedTest as SacrePairedTest
    load, n_refs = DATASETS[dataset]
    refs, named = load()
    if n_refs == 1:
        refs = [refs]
    named = named[:n_systems]
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = seed
    try:
        sigs, scores = SacrePairedTest(named, {"BLEU": SacreBLEU(references=refs)}, None,
                                       test_type=test_type, n_samples=n_samples)()
    finally:
        if old is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = old
    return ({k: v.format() for k, v in sigs.items()},
            [(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]], scores["System"])


def _ours(dataset, test_type, n_samples, n_systems):
    load, n_refs = DATASETS[dataset]
    refs, named = load()
    if n_refs == 1:
        refs = [refs]
    named = named[:n_systems]
    sigs, scores = significance.PairedTest(named, {"BLEU": BLEU(references=refs)}, None,
                                           test_type=test_type, n_samples=n_samples)()
    return ({k: v.format() for k, v in sigs.items()},
            [(r.score, r.p_value, r.mean, r.ci) for r in scores["BLEU"]], scores["System"])


def _same(ours, oracle):
    sigs, rows, names = ours
    o_sigs, o_rows, o_names = oracle
    assert names == o_names
    assert rows == o_rows  # p-values, means and intervals: the same floats
    for name, sig in sigs.items():
        assert sig.rsplit("|version:", 1)[0] == o_sigs[name].rsplit("|version:", 1)[0]


# default suite: a few systems, fewer resamples; both resamplers
FAST = [("wmt17", "bs", 200, 4), ("wmt17", "ar", 500, 4), ("wmt22", "bs", 200, 3),
        ("wmt22", "ar", 500, 3)]


@pytest.mark.parametrize("dataset,test_type,n_samples,n_systems", FAST)
def test_paired_equals_sacrebleu(resampler, dataset, test_type, n_samples, n_systems):
    _same(_ours(dataset, test_type, n_samples, n_systems),
          _oracle(dataset, test_type, n_samples, n_systems))


# every comparison (15 on WMT17, 7 on WMT22) with sacreBLEU's default counts
FULL = [("wmt17", "bs", 1000, 16), ("wmt17", "ar", 10000, 16), ("wmt22", "bs", 1000, 8),
        ("wmt22", "ar", 10000, 8)]


@pytest.mark.slow
@pytest.mark.parametrize("dataset,test_type,n_samples,n_systems", FULL)
def test_paired_equals_sacrebleu_every_system(resampler, dataset, test_type, n_samples,
                                              n_systems):
    ours = _ours(dataset, test_type, n_samples, n_systems)
    assert len(ours[1]) == n_systems
    _same(ours, _oracle(dataset, test_type, n_samples, n_systems))


@pytest.mark.parametrize("seed", ["7", "0", "012", "NONE"])
def test_seed_conventions(monkeypatch, seed):
    """SACREBLEU_SEED as sacreBLEU reads it: 0 seeds a confidence interval but leaves a paired
    test unseeded; 'none' is unseeded everywhere; the signature shows int(seed)."""
    refs, named = _wmt17()
    named = [(n, h[:300]) for n, h in named[:3]]
    refs = refs[:300]
    monkeypatch.setenv("SACREBLEU_SEED", seed)
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import PairedTest as SacrePairedTest
    o_sigs, o_scores = SacrePairedTest(named, {"BLEU": SacreBLEU(references=[refs])}, None,
                                       test_type="bs", n_samples=100)()
    sigs, scores = significance.PairedTest(named, {"BLEU": BLEU(references=[refs])}, None,
                                           test_type="bs", n_samples=100)()
    assert sigs["BLEU"].format().split("|")[:3] == o_sigs["BLEU"].format().split("|")[:3]
    baseline, o_baseline = scores["BLEU"][0], o_scores["BLEU"][0]
    if seed.lower() == "none":
        assert baseline.score == o_baseline.score and baseline.mean is not None
    else:  # the baseline's interval is seeded, 0 included
        assert baseline.__dict__ == o_baseline.__dict__
    if seed in ("7", "012"):
        assert [r.__dict__ for r in scores["BLEU"]] == [r.__dict__ for r in o_scores["BLEU"]]
    else:  # unseeded comparisons: the real scores agree, the resamples are fresh
        assert [r.score for r in scores["BLEU"]] == [r.score for r in o_scores["BLEU"]]


def test_bad_seed_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("SACREBLEU_SEED", "abc")
    with pytest.raises(ValueError, match="SACREBLEU_SEED must be an integer or 'none'"):
        significance.PairedTest([("a", ["x"]), ("b", ["y"])], {"BLEU": BLEU(references=[["x"]])},
                                None, test_type="bs")


def test_confidence_interval_equals_sacrebleu(resampler):
    """-ci: sacreBLEU's corpus_score(n_bootstrap=...) interval from our resampler."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    refs, named = _wmt17()
    hyps = named[11][1]
    oracle = SacreBLEU(references=[refs]).corpus_score(hyps, None, n_bootstrap=300)
    metric = BLEU(references=[refs])
    score = metric.corpus_score(hyps, None)
    seed, samples = significance._bootstrap_resample(
        metric._extract_corpus_statistics(hyps, None), metric, 300)
    score.estimate_ci(samples)
    assert seed == "12345"
    assert (score.score, score._mean, score._ci) == (oracle.score, oracle._mean, oracle._ci)


def test_statistics_packing():
    ints = significance.Statistics([[1, 2], [3, 4]])
    assert ints.integer and ints.ar_dtype == "int64" and ints.totals() == [4, 6]
    whole = significance.Statistics([[1.0, 2.0], [3, 4.0]])
    assert whole.integer and whole.ar_dtype == "float64" and whole.totals() == [4.0, 6.0]
    frac = significance.Statistics([[1.5, 2.0], [3, 4.0]])
    assert not frac.integer and frac.totals() == [4.5, 6.0]
    grown = significance.Statistics([[1, 2]])
    grown.extend([[0.25, 1.0]])
    assert not grown.integer and grown.rows == [[1, 2], [0.25, 1.0]]
    with pytest.raises(ValueError, match="same, non-zero length"):
        significance.Statistics([[1, 2], [3]])
    flat = significance.Statistics()
    flat.extend_flat(array("q", [1, 2, 3, -4]), 2)
    flat.extend([[5, 6]])
    assert flat.integer and not flat.nonnegative and flat.n_segments == 3
    assert flat.totals() == [9, 4] and flat.row(1) == [3, -4]
    mixed = significance.Statistics([[0.5, 1.0]])
    mixed.extend_flat(array("q", [1, 2]), 2)
    assert mixed.rows == [[0.5, 1.0], [1, 2]] and mixed.n_segments == 2
    with pytest.raises(ValueError, match="same, non-zero length"):
        flat.extend_flat(array("q", [1, 2, 3]), 3)


def test_float32_overflow_takes_numpy_path(resampler):
    """Sums that could round in float32 (a column reaching 2**24) are scored as sacreBLEU's
    numpy code sums them, not from the exact integer sums."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import _bootstrap_resample as sacre_resample
    rng = np.random.default_rng(9)
    n = 400
    rows = []
    for _ in range(n):
        hyp = int(rng.integers(30000, 60000))
        totals = [max(hyp - k, 0) for k in range(4)]
        correct = [int(t * rng.random()) for t in totals]
        rows.append([hyp, int(rng.integers(30000, 60000))] + correct + totals)
    stats = significance.Statistics(rows)
    assert max(stats.totals()) > 2 ** 24
    _, ours = significance._bootstrap_resample(rows, BLEU(), 50)
    _, oracle = sacre_resample(rows, SacreBLEU(), 50)
    assert [s.score for s in ours] == [s.score for s in oracle]


def test_float32_paired_resamples_are_drawn_again_not_held():
    """Two systems past float32's exact sums, seeded: the numpy path takes the indices a chunk
    at a time, drawn again for each system, and scores both as with every index held."""
    from cybleu._statistics import resampling
    rng = np.random.default_rng(10)
    systems = []
    for _ in range(2):
        rows = []
        for _ in range(400):
            hyp = int(rng.integers(60000, 90000))
            totals = [max(hyp - k, 0) for k in range(4)]
            rows.append([hyp, int(rng.integers(60000, 90000))]
                        + [int(t * rng.random()) for t in totals] + totals)
        systems.append(significance.Statistics(rows))
    assert max(systems[0].totals()) > 2 ** 24
    drawn = resampling._bootstrap_scores(BLEU(), systems, resampling._draws(7, 40, 400))
    held = resampling._bootstrap_scores(BLEU(), systems, resampling._index_chunks(
        resampling._resample().Generator(7), 40, 400))
    assert drawn == held
    assert len(drawn[0]) == 40 and drawn[0] != drawn[1]


def _fixture_pvalues():
    path = data_path(*WMT17, "significance_pvalues.tsv")
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


@functools.lru_cache(maxsize=None)
def _fixture_run(test_type, n_samples):
    """sacreBLEU's test/test_significance.py setup: the pickled systems, tokenize='none',
    seed 12345, 2000 bootstrap resamples or 10000 randomization trials."""
    path = data_path("sacrebleu-fixtures", "wmt17_en_de_systems.pkl.bz2")
    with bz2.BZ2File(path, "rb") as f:
        data = pickle.load(f)
    _, refs = data.pop()
    scores = significance.PairedTest(data, {"BLEU": BLEU(references=refs, tokenize="none")},
                                     None, test_type=test_type, n_samples=n_samples)()[1]
    return {name: r.p_value for name, r in zip(scores["System"], scores["BLEU"])}


@pytest.mark.parametrize("test_type,n_samples,moses_col,sacre_col",
                         [("bs", 2000, "moses_bootstrap_p_bleu", "sacrebleu_2_6_0_bs_p"),
                          ("ar", 10000, "multeval_ar_p_bleu", "sacrebleu_2_6_0_ar_p")])
def test_fixture_pvalues_reproduced(test_type, n_samples, moses_col, sacre_col):
    if significance._resample().__name__.endswith("_py"):
        pytest.skip("the full fixture run is for the compiled resampler; the twin is covered "
                    "by the oracle comparisons")
    rows = _fixture_pvalues()
    got = _fixture_run(test_type, n_samples)
    assert len(rows) == 15
    for row in rows:
        p = got[row["system"]]
        # sacreBLEU 2.6.0's value as the fixture file prints it (rounded to 5 significant digits)
        expected = row[sacre_col]
        digits = len(expected.split(".")[1])
        assert f"{p:.{digits}f}".rstrip("0") == expected.rstrip("0") or \
            float(f"{p:.5g}") == float(expected), (row["system"], p, expected)
        assert abs(p - float(row[moses_col])) < 1e-2  # sacreBLEU's own criterion


def test_identical_systems_as_sacrebleu(resampler):
    """A system compared with itself: every resampled difference is 0, so no statistic exceeds
    the observed 0 and sacreBLEU reports p = 1/(n+1) for both tests; so do we."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import PairedTest as SacrePairedTest
    refs = ["the cat sat on the mat", "a dog barked", "it rained all day long"] * 20
    hyps = ["the cat sat on a mat", "the dog barked", "it rained all day"] * 20
    named = [("a", hyps), ("b", list(hyps))]
    for test_type in ("bs", "ar"):
        ours = significance.PairedTest(named, {"BLEU": BLEU(references=[refs])}, None,
                                       test_type=test_type, n_samples=200)()[1]
        oracle = SacrePairedTest(named, {"BLEU": SacreBLEU(references=[refs])}, None,
                                 test_type=test_type, n_samples=200)()[1]
        assert [r.__dict__ for r in ours["BLEU"]] == [r.__dict__ for r in oracle["BLEU"]]
        assert ours["BLEU"][1].p_value == 1 / 201


def test_paired_test_arguments():
    metric = {"BLEU": BLEU(references=[["a b c"]])}
    with pytest.raises(ValueError, match="Unknown test type"):
        significance.PairedTest([("a", ["a b c"]), ("b", ["a b"])], metric, None, test_type="t")
    with pytest.raises(ValueError, match="baseline and at least one"):
        significance.PairedTest([("a", ["a b c"])], metric, None)
    with pytest.raises(TypeError, match="n_samples must be an int"):
        significance.PairedTest([("a", ["a b c"]), ("b", ["a"])], metric, None, n_samples=1.5)


# -- extensions beyond sacreBLEU ---------------------------------------------------------------

def _small_wmt17(n_systems=4, n_lines=600):
    refs, named = _wmt17()
    return refs[:n_lines], [(name, hyps[:n_lines]) for name, hyps in named[:n_systems]]


def test_paired_functions_equal_paired_test(resampler):
    """paired_bootstrap / paired_randomization on segments (or blocks of 1) are sacreBLEU's
    PairedTest results for the same seed."""
    refs, named = _small_wmt17()
    metric = BLEU(references=[refs])
    sys_hyps = [h for _, h in named[1:]]
    for test_type, fn, n in (("bs", significance.paired_bootstrap, 150),
                             ("ar", significance.paired_randomization, 300)):
        expected = significance.PairedTest(named, {"BLEU": metric}, None, test_type=test_type,
                                           n_samples=n)()[1]["BLEU"][1:]
        for groups in (None, 1, [f"seg{i}" for i in range(len(refs))]):
            got = fn(metric, named[0][1], sys_hyps, n, 12345, groups=groups)
            assert [r.__dict__ for r in got] == [r.__dict__ for r in expected]


def test_block_resampling_is_resampling_of_block_sums(resampler):
    """Resampling blocks equals resampling segments whose statistics are the block sums."""
    refs, named = _small_wmt17(3, 600)
    metric = BLEU(references=[refs])
    stats = [significance.Statistics(metric._extract_corpus_statistics(h, None))
             for _, h in named]
    docs = [i // 37 for i in range(600)]
    got = significance.paired_bootstrap(metric, stats[0], stats[1:], 200, 5, groups=docs)
    summed = [significance._group_rows(s, docs) for s in stats]
    by_hand = significance.PairedTest.__new__(significance.PairedTest)
    by_hand.n_samples, by_hand.progress = 200, None
    expected = by_hand._run_bs(metric, summed[0],
                               significance.Result(significance._score(metric, stats[0]).score),
                               [(summed[k], significance._score(metric, stats[k]))
                                for k in (1, 2)], 5)
    assert [r.__dict__ for r in got] == [r.__dict__ for r in expected]
    assert summed[0].n_segments == len(set(docs))
    assert significance._score(metric, summed[1]).score == \
        significance._score(metric, stats[1]).score
    with pytest.raises(ValueError, match="group labels"):
        significance.paired_bootstrap(metric, stats[0], stats[1:], 10, groups=[1, 2])
    with pytest.raises(ValueError, match="block size"):
        significance.paired_randomization(metric, stats[0], stats[1:], 10, groups=0)


def test_holm():
    # worked example: m = 4, sorted p = .01 .02 .03 .04 -> .04 .06 .06 .06 (monotone)
    assert significance.holm([0.03, 0.01, 0.04, 0.02]) == pytest.approx([0.06, 0.04, 0.06, 0.06])
    assert significance.holm([0.5, 0.9]) == [1.0, 1.0]
    assert significance.holm([]) == []
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        significance.holm([1.5])


def test_all_pairs(resampler):
    refs, named = _small_wmt17(4, 500)
    metric = BLEU(references=[refs])
    systems = dict(named)
    names, matrix = significance.all_pairs(metric, systems, "bs", 150, seed=3, correction=None)
    assert names == list(systems)
    for i, a in enumerate(names):
        assert matrix[i][i] is None
        for j, b in enumerate(names):
            if i < j:
                expected = significance.paired_bootstrap(metric, systems[a], [systems[b]], 150,
                                                         3)[0].p_value
                assert matrix[i][j] == matrix[j][i] == expected
    _, adjusted = significance.all_pairs(metric, systems, "bs", 150, seed=3)
    raw = [matrix[i][j] for i in range(4) for j in range(i + 1, 4)]
    assert [adjusted[i][j] for i in range(4) for j in range(i + 1, 4)] == \
        significance.holm(raw)
    names, ar = significance.all_pairs(metric, systems, "ar", 200, seed=3, correction=None)
    expected = significance.paired_randomization(metric, systems[names[1]], [systems[names[3]]],
                                                 200, 3)[0].p_value
    assert ar[1][3] == expected


def test_student_t_against_mpmath():
    """Two-sided Student p-values: an independent arbitrary-precision oracle (mpmath's
    regularized incomplete beta); our continued fraction in doubles agrees to ~1e-13."""
    mpmath = pytest.importorskip("mpmath", reason="mpmath (the arbitrary-precision oracle) is not "
                                 "installed: pip install mpmath")
    rng = np.random.default_rng(0)
    for _ in range(300):
        df = int(rng.choice([1, 2, 3, 5, 10, 19, 50, 400]))
        t = float(rng.uniform(-9, 9))
        expected = float(mpmath.betainc(df / 2, 0.5, 0, df / (df + t * t), regularized=True))
        assert significance.student_t_sf2(t, df) == pytest.approx(expected, rel=1e-12,
                                                                   abs=1e-300)
    # the two-sided 5% point of t with 19 degrees of freedom (t tables: 2.093)
    assert significance.student_t_sf2(2.0930240544082634, 19) == pytest.approx(0.05, rel=1e-12)
    assert significance.student_t_sf2(0.0, 7) == 1.0


def test_paired_t_test_over_blocks():
    refs, named = _small_wmt17(2, 600)
    metric = BLEU(references=[refs])
    a, b = named[0][1], named[1][1]
    result = significance.paired_t_test(metric, a, b, n_blocks=20)
    assert result.df == 19 and len(result.baseline_blocks) == 20
    # each block's score is corpus BLEU of those 30 segments, as sacreBLEU would compute it
    from sacrebleu.metrics import BLEU as SacreBLEU
    assert result.system_blocks[3] == SacreBLEU().corpus_score(b[90:120], [refs[90:120]]).score
    diffs = np.array(result.system_blocks) - np.array(result.baseline_blocks)
    t = diffs.mean() / (diffs.std(ddof=1) / np.sqrt(20))
    assert result.t == pytest.approx(t, rel=1e-12)
    same = significance.paired_t_test(metric, a, list(a), block_size=25)
    assert same.t == 0.0 and same.p_value == 1.0 and same.df == 23
    with pytest.raises(ValueError, match="n_blocks"):
        significance.paired_t_test(metric, a, b, n_blocks=1)


@pytest.mark.parametrize("test_type,n_samples", [("bs", 100), ("ar", 200)])
def test_paired_chrf_ter_equal_sacrebleu(resampler, test_type, n_samples):
    """chrF and TER: the same statistics through the same resampling; their resampled scores are
    numpy float32 in sacreBLEU (float32 sums), and so are ours, means and intervals included."""
    from sacrebleu.metrics import CHRF as SacreCHRF
    from sacrebleu.metrics import TER as SacreTER
    from sacrebleu.significance import PairedTest as SacrePairedTest

    from cybleu.metrics import CHRF, TER
    refs, named = _small_wmt17(3, 250)
    ours = significance.PairedTest(
        named, {"CHRF": CHRF(word_order=2, references=[refs]), "TER": TER(references=[refs])},
        None, test_type=test_type, n_samples=n_samples)()
    oracle = SacrePairedTest(
        named, {"CHRF": SacreCHRF(word_order=2, references=[refs]),
                "TER": SacreTER(references=[refs])},
        None, test_type=test_type, n_samples=n_samples)()
    assert list(ours[1]) == list(oracle[1]) == ["System", "chrF2++", "TER"]
    for name in ("chrF2++", "TER"):
        got = [r.__dict__ for r in ours[1][name]]
        expected = [r.__dict__ for r in oracle[1][name]]
        assert got == expected
        for g, e in zip(got, expected):  # the same types too: float32 stays float32
            assert [type(v) for v in g.values()] == [type(v) for v in e.values()]


def test_same_statistics_object_twice(resampler):
    refs, named = _small_wmt17(2, 200)
    metric = BLEU(references=[refs])
    stats = significance.Statistics(metric._extract_corpus_statistics(named[1][1], None))
    other = significance.Statistics(metric._extract_corpus_statistics(named[1][1], None))
    base = named[0][1]
    for fn, n in ((significance.paired_bootstrap, 100), (significance.paired_randomization, 100)):
        twice = fn(metric, base, [stats, stats], n, 1)
        once = fn(metric, base, [other], n, 1)
        assert [r.__dict__ for r in twice] == [once[0].__dict__] * 2


@SETTINGS
@given(st.lists(st.lists(st.integers(-2**63, 2**63 - 1), min_size=3, max_size=3), max_size=30))
def test_pack_rows_compiled_equal_twin(rows):
    compiled = _compiled()
    assert compiled.pack_rows(rows, 3) == _resample_py.pack_rows(rows, 3) == \
        array("q", [v for row in rows for v in row])
    assert compiled.pack_rows([tuple(r) for r in rows], 3) == _resample_py.pack_rows(rows, 3)


@pytest.mark.parametrize("rows,error", [([[1.5, 2]], TypeError), ([[True, 2]], TypeError),
                                        ([[1, 2, 3]], ValueError), ([[2**63, 1]], OverflowError),
                                        ([["1", 2]], TypeError)])
def test_pack_rows_rejects(rows, error):
    for module in filter(None, (_resample_c, _resample_py)):
        with pytest.raises(error):
            module.pack_rows(rows, 2)
