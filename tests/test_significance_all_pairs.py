"""`significance.bootstrap_all_pairs` (every pair of systems from one set of resamples) and the
vectorized float32 replay of chrF's bootstrap scores.

- Each pair's p-value, and each system's mean and interval, equal what `paired_bootstrap` gives
  for that pair alone (and what sacreBLEU's PairedTest gives), for BLEU, chrF and TER.
- `all_pairs` (which now takes the shared resamples) still equals a `paired_bootstrap` per pair.
- `_chrf_f32_scores` equals CHRF's scalar arithmetic on numpy float32 rows, value and type, on
  rows made to hit every branch (no n-grams on a side, no match, ties), for several betas.
"""
from array import array

import numpy as np
import pytest

from cybleu import significance
from cybleu.metrics import chrf as chrf_module
from cybleu.metrics import BLEU, CHRF, TER

from conftest import data_path, read_lines

WMT17 = ("sacrebleu-fixtures", "wmt17-en-de")


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


def _small(n_systems=4, n_lines=300):
    d = data_path(*WMT17)
    refs = read_lines(d / "ref.txt")[:n_lines]
    files = sorted((d / "sys").glob("*.txt"))[:n_systems]
    return refs, {f.name.split(".")[1]: read_lines(f)[:n_lines] for f in files}


@pytest.mark.parametrize("make", [lambda r: BLEU(references=r), lambda r: CHRF(references=r),
                                  lambda r: CHRF(word_order=2, references=r),
                                  lambda r: TER(references=r)],
                         ids=["bleu", "chrf", "chrf++", "ter"])
def test_every_pair_equals_paired_bootstrap_of_that_pair(make):
    refs, systems = _small()
    metric = make([refs])
    names, results, raw = significance.bootstrap_all_pairs(metric, systems, 120, seed=7)
    assert names == list(systems)
    for i, a in enumerate(names):
        assert raw[i][i] is None
        for j, b in enumerate(names):
            if i == j:
                continue
            alone = significance.paired_bootstrap(metric, systems[a], [systems[b]], 120, 7)[0]
            assert raw[i][j] == alone.p_value, (a, b)
            # the system's interval is the same whichever baseline it is compared with
            assert (results[j].score, results[j].mean, results[j].ci) == \
                (alone.score, alone.mean, alone.ci)
            assert type(results[j].mean) is type(alone.mean)


def test_intervals_are_sacrebleus_confidence_intervals():
    """With seed 12345 the resamples are those of `corpus_score(n_bootstrap=n)` (sacreBLEU's
    -ci), so the half-widths are sacreBLEU's, also for the first system. The mean is numpy's
    mean of the resamples, as sacreBLEU's paired tables print it; `-ci` prints
    statistics.mean of the same scores, which may differ in the last bit."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.metrics import CHRF as SacreCHRF
    refs, systems = _small(3, 200)
    for ours, theirs in ((BLEU(references=[refs]), SacreBLEU(references=[refs])),
                         (CHRF(references=[refs]), SacreCHRF(references=[refs]))):
        _, results, _ = significance.bootstrap_all_pairs(ours, systems, 100, seed=12345)
        for result, hyps in zip(results, systems.values()):
            expected = theirs.corpus_score(hyps, None, n_bootstrap=100)
            assert result.score == expected.score
            assert result.ci == expected._ci
            assert result.mean == pytest.approx(expected._mean, rel=1e-15, abs=0)


def test_against_sacrebleu_paired_test():
    """Every system against the first, through sacreBLEU's own PairedTest (bootstrap)."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.metrics import TER as SacreTER
    from sacrebleu.significance import PairedTest as SacrePairedTest
    refs, systems = _small(3, 250)
    named = list(systems.items())
    oracle = SacrePairedTest(named, {"BLEU": SacreBLEU(references=[refs]),
                                     "TER": SacreTER(references=[refs])},
                             None, test_type="bs", n_samples=100)()[1]
    for key, metric in (("BLEU", BLEU(references=[refs])), ("TER", TER(references=[refs]))):
        _, results, raw = significance.bootstrap_all_pairs(metric, systems, 100, seed=12345)
        for k, expected in enumerate(oracle[key]):
            assert results[k].score == expected.score
            assert (results[k].mean, results[k].ci) == (expected.mean, expected.ci)
            assert raw[0][k] == expected.p_value if k else raw[0][k] is None


def test_all_pairs_still_equals_paired_bootstrap_per_pair():
    refs, systems = _small(4, 200)
    metric = CHRF(references=[refs])
    names, matrix = significance.all_pairs(metric, systems, "bs", 80, seed=3, correction=None)
    for i in range(4):
        for j in range(i + 1, 4):
            expected = significance.paired_bootstrap(metric, systems[names[i]],
                                                     [systems[names[j]]], 80, 3)[0].p_value
            assert matrix[i][j] == matrix[j][i] == expected


def test_bad_arguments():
    refs, systems = _small(2, 20)
    metric = BLEU(references=[refs])
    with pytest.raises(ValueError, match="at least two"):
        significance.bootstrap_all_pairs(metric, {"a": systems[next(iter(systems))]})
    with pytest.raises(ValueError, match="n_samples"):
        significance.bootstrap_all_pairs(metric, systems, 0)
    with pytest.raises(TypeError, match="n_samples"):
        significance.bootstrap_all_pairs(metric, systems, 1.5)
    a = significance.Statistics([[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]] * 3)
    b = significance.Statistics([[1, 1, 1, 1, 1, 1, 1, 1, 1, 1]] * 4)
    with pytest.raises(ValueError, match="different numbers of segments"):
        significance.bootstrap_all_pairs(metric, {"a": a, "b": b})


def _edge_rows(order, n, rng):
    rows = []
    for _ in range(n):
        row = []
        for _ in range(order):
            kind = rng.integers(0, 6)
            if kind == 0:
                h, r = 0, int(rng.integers(0, 50))
            elif kind == 1:
                h, r = int(rng.integers(0, 50)), 0
            elif kind == 2:
                h = r = int(rng.integers(1, 4))
            else:
                h, r = int(rng.integers(0, 5000)), int(rng.integers(0, 5000))
            m = int(rng.integers(0, min(h, r) + 1)) if rng.random() < 0.8 else 0
            row += [h, r, m]
        rows.append(row)
    rows.append([0] * (3 * order))
    rows.append([5, 5, 0] * order)
    rows.append([7, 9, 7] * order)
    return rows


@pytest.mark.parametrize("beta", [2, 1, 3, 0.5, 2.0, 10])
@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_float32_replay_equals_the_scalar_arithmetic(beta, word_order):
    metric = CHRF(word_order=word_order, beta=beta)
    args = chrf_module._chrf_fast_args(metric)
    if args is None:
        pytest.skip("numpy < 2: float32 scalars promote differently; the scalar path runs")
    rows = _edge_rows(metric.order, 3000, np.random.default_rng(int(beta * 10) + word_order))
    flat = array("q", [v for row in rows for v in row])
    fast = chrf_module._chrf_f32_scores(flat, 3 * metric.order, *args)
    slow = [metric._compute_score_from_stats(row).score
            for row in np.array(rows, dtype="float32")]
    assert len(fast) == len(slow)
    for k, (f, s) in enumerate(zip(fast, slow)):
        assert type(f) is type(s), (k, rows[k])
        assert np.float64(f).tobytes() == np.float64(s).tobytes(), (k, rows[k], f, s)


def test_chrf_replay_is_only_taken_for_cybleus_own_arithmetic():
    class Mine(CHRF):
        def _compute_f_score(self, statistics):
            return 1.0
    assert chrf_module._chrf_fast_args(Mine()) is None
    assert chrf_module._chrf_fast_args(CHRF(eps_smoothing=True)) is None
    metric = CHRF()
    metric._compute_f_score = lambda statistics: 1.0
    assert chrf_module._chrf_fast_args(metric) is None
    assert chrf_module._chrf_fast_args(CHRF(beta=10 ** 5)) is None  # 10**10 is not float32
