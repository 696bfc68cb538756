"""BootstrapAggregator against rouge-score's with numpy seeded alike (identical intervals, and
numpy's global state left where rouge-score leaves it), `seed=` (deterministic, numpy's state
untouched), and the compiled resampler against its twin."""
import collections

import numpy as np
import pytest

from conftest import parity

from cybleu._kernels import rouge_bootstrap_py
from cybleu.rouge_score import scoring

theirs = pytest.importorskip("rouge_score.scoring", reason="rouge-score (the oracle) is not "
                             "installed: pip install rouge-score==0.1.2")

try:
    from cybleu._kernels import rouge_bootstrap as rouge_bootstrap_c
except ImportError:
    rouge_bootstrap_c = None


def both():
    if rouge_bootstrap_c is None:
        pytest.skip("the compiled resampler is not built in this install")
    return rouge_bootstrap_c, rouge_bootstrap_py


Pair = collections.namedtuple("Pair", "p r")
Four = collections.namedtuple("Four", "a b c d")


def _scores(rng, n, types, cls="Score"):
    out = []
    for _ in range(n):
        row = {}
        for t in types:
            v = rng.random(3) * (rng.random() < 0.8)
            if cls == "Score":
                row[t] = tuple(v)
            elif cls == "ints":
                row[t] = (0, 0, 0)
            elif cls == "pair":
                row[t] = tuple(v[:2])
            else:
                row[t] = tuple(v) + (float(rng.integers(0, 3)),)
        out.append(row)
    return out


def _run(module, cls, rows, **kw):
    """Aggregate `rows` with module's aggregator, numpy seeded: (result, numpy state after)."""
    make = {"Score": module.Score, "ints": module.Score, "pair": Pair, "tuple4": Four}[cls]
    aggregator = module.BootstrapAggregator(**kw)
    np.random.seed(2024)
    for row in rows:
        aggregator.add_scores({t: make(*v) for t, v in row.items()})
    return aggregator.aggregate(), np.random.get_state()


def _same(a, b):
    assert list(a) == list(b)
    for key in a:
        for x, y in zip(a[key], b[key]):
            assert type(x).__name__ == type(y).__name__
            assert [type(v) for v in x] == [type(v) for v in y]
            assert np.array_equal(np.array(x), np.array(y), equal_nan=True), (key, x, y)


@pytest.mark.parametrize("n", [1, 2, 3, 17, 300])
@pytest.mark.parametrize("cls", ["Score", "ints", "pair", "tuple4"])
def test_aggregates_and_numpy_state_as_rouge_score(n, cls):
    rng = np.random.default_rng(n)
    rows = _scores(rng, n, ["rouge1", "rougeL", "rouge2"], cls)
    for kw in ({}, {"confidence_interval": 0.5, "n_samples": 7},
               {"confidence_interval": 0.0, "n_samples": 1}, {"confidence_interval": 1.0}):
        got, got_state = _run(scoring, cls, rows, **kw)
        want, want_state = _run(theirs, cls, rows, **kw)
        _same(got, want)
        assert np.array_equal(got_state[1], want_state[1]) and got_state[2] == want_state[2]


def test_types_with_different_numbers_of_scores():
    rng = np.random.default_rng(5)
    rows = [{"a": tuple(rng.random(3)), "b": tuple(rng.random(3))} for _ in range(20)]
    rows += [{"b": tuple(rng.random(3))} for _ in range(7)] + [{"c": (0.5, 0.25, 1.0)}]
    got, got_state = _run(scoring, "Score", rows)
    want, want_state = _run(theirs, "Score", rows)
    _same(got, want)
    assert np.array_equal(got_state[1], want_state[1])


def test_another_global_bit_generator_as_rouge_score():
    rows = _scores(np.random.default_rng(1), 30, ["rouge1"])
    results = []
    for module in (scoring, theirs):
        np.random.set_bit_generator(np.random.PCG64(7))
        try:
            aggregator = module.BootstrapAggregator(n_samples=50)
            for row in rows:
                aggregator.add_scores({t: module.Score(*v) for t, v in row.items()})
            results.append(aggregator.aggregate())
        finally:
            np.random.set_bit_generator(np.random.MT19937(0))
    _same(*results)


def test_seed_is_deterministic_and_leaves_numpy_alone():
    rows = _scores(np.random.default_rng(3), 200, ["rouge1", "rouge2", "rougeL"])
    results = []
    for _ in range(2):
        np.random.seed(99)
        before = np.random.get_state()
        aggregator = scoring.BootstrapAggregator(seed=12345)
        for row in rows:
            aggregator.add_scores({t: scoring.Score(*v) for t, v in row.items()})
        results.append(aggregator.aggregate())
        after = np.random.get_state()
        assert np.array_equal(before[1], after[1]) and before[2] == after[2]
    _same(*results)


def test_seed_resamples_every_type_at_the_rows_numpy_draws():
    """The documented semantics, written with numpy: the rows of default_rng(seed).choice(n,
    size=(n_samples, n)), each sample's mean as np.mean of its rows, then the percentiles."""
    rng = np.random.default_rng(8)
    n, samples, seed = 120, 300, 7
    rows = _scores(rng, n, ["rouge1", "rougeL"])
    aggregator = scoring.BootstrapAggregator(seed=seed, n_samples=samples,
                                             confidence_interval=0.9)
    for row in rows:
        aggregator.add_scores({t: scoring.Score(*v) for t, v in row.items()})
    got = aggregator.aggregate()
    idx = np.random.default_rng(seed).choice(n, size=(samples, n))
    for t in ("rouge1", "rougeL"):
        matrix = np.array([row[t] for row in rows])
        means = np.array([np.mean(matrix[idx[s], :], axis=0) for s in range(samples)])
        want = np.percentile(means, 100 * np.array([0.05, 0.5, 0.95]), axis=0)
        assert np.array_equal(np.array([list(got[t].low), list(got[t].mid), list(got[t].high)]),
                              want)


@pytest.mark.parametrize("kw, message", [({"confidence_interval": 1.5}, "range"),
                                         ({"confidence_interval": -0.1}, "range"),
                                         ({"n_samples": 0}, "positive"),
                                         ({"seed": -1}, "seed"), ({"seed": 1.5}, "seed"),
                                         ({"seed": 2 ** 64}, "seed"),
                                         ({"seed": True}, "seed")])
def test_bad_arguments(kw, message):
    with pytest.raises(ValueError, match=message):
        scoring.BootstrapAggregator(**kw)
    if "seed" not in kw:
        with pytest.raises(ValueError, match=message):
            theirs.BootstrapAggregator(**kw)


# -- the kernel and its twin ------------------------------------------------------------------

def _matrices():
    rng = np.random.default_rng(11)
    yield rng.random((50, 3))
    yield rng.random((1, 3))
    yield np.array([[-0.0, -0.0], [-0.0, -0.0]])
    yield np.array([[np.inf, 1.0, np.nan], [1.0, -np.inf, 2.0], [3.0, 4.0, 5.0]])
    yield rng.random((40, 1))          # one column: numpy sums it pairwise
    yield rng.random((9, 12)) * 1e16 - 5e15
    yield rng.random((70, 5)).astype(np.float32)


@pytest.mark.parametrize("case", range(7))
def test_resampler_matches_the_twin(case):
    matrix = list(_matrices())[case]
    np.random.seed(case)
    key, pos = np.random.get_state()[1:3]

    def legacy(k):
        means, new_key, new_pos = k.legacy_means(matrix, 33, key, pos)
        return means.tobytes(), new_key.tobytes(), new_pos

    parity(legacy, both)
    parity(lambda k: [m.tobytes() for m in k.seeded_means([matrix, matrix[:, :1]], 40, case)],
           both)
    parity(lambda k: [m.tobytes() for m in k.seeded_means([matrix], 65, 2 ** 64 - 1 - case)],
           both)


def test_packed_scores_match_numpys_stacking():
    Score = scoring.Score
    cases = [[Score(0.5, 1, True)] * 3, [Score(0, 0, 0), Score(1, 2, 3)],
             [(np.float64(0.25), 2 ** 62, False)], [(0.5, 2 ** 63, 1.0)], [[0.5, 1.0, 1.0]],
             [(0.5, 1.0), (0.5, 1.0, 2.0)], [(0.5, "a", 1.0)], [(0.5, np.float32(1.0), 1.0)]]
    for scores in cases:
        got = parity(lambda k: (lambda m: None if m is None else (m.dtype.str, m.tobytes()))(
            k.pack_scores(scores, len(scores[0]))), both)
        if got is not None:   # the values numpy's mean adds
            want = np.vstack(tuple(scores))
            assert np.array_equal(np.frombuffer(got[1]).reshape(want.shape),
                                  want.astype(np.float64))


def test_resampler_errors_match_the_twin():
    key = np.zeros(624, dtype=np.uint32)
    for call in (lambda k: k.legacy_means(np.zeros((0, 3)), 5, key, 0),
                 lambda k: k.legacy_means(np.zeros((3, 3)), 0, key, 0),
                 lambda k: k.seeded_means([np.zeros((3, 3)), np.zeros((4, 3))], 5, 1),
                 lambda k: k.seeded_means([np.zeros((3, 3))], 5, -1)):
        with pytest.raises(ValueError):
            parity(call, both)


@pytest.mark.parametrize("wide", [False, True])
def test_twelve_columns_add_alike_wide_or_not(wide):
    """Four types (12 columns) take 256-bit adds where the CPU has them: the twin's bits either
    way, on values whose sums depend on the order of the adds, and rows enough for the sums to
    read ahead."""
    if rouge_bootstrap_c is None:
        pytest.skip("the compiled resampler is not built in this install")
    rng = np.random.default_rng(12)
    matrices = [rng.random((97, 3)) * rng.choice([1.0, 1e16, -1e16, 1e-300], (97, 3))
                for _ in range(4)]
    try:
        if not rouge_bootstrap_c._wide_adds(wide) and wide:
            pytest.skip("this CPU has no 256-bit adds")
        got = [m.tobytes() for m in rouge_bootstrap_c.seeded_means(matrices, 31, 5)]
    finally:
        rouge_bootstrap_c._wide_adds(True)
    assert got == [m.tobytes() for m in rouge_bootstrap_py.seeded_means(matrices, 31, 5)]
