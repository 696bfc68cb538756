"""cybleu.torchmetrics against the library it replaces: torchmetrics' states and values where
torchmetrics is right, sacreBLEU's numbers (bit for bit) everywhere, each difference on its input,
and the states summed across a 2-process gloo DDP group."""
import struct
import sys

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch", reason="torch is not installed (pip install 'cybleu[torchmetrics]')")
tm_text = pytest.importorskip("torchmetrics.text",
                              reason="torchmetrics is not installed (pip install 'cybleu[torchmetrics]')")

import sacrebleu  # noqa: E402

import cybleu.torchmetrics as ctm  # noqa: E402
from cybleu._kernels import core_py as _core_py  # noqa: E402
from conftest import _core_c  # noqa: E402

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
CORES = [pytest.param(_core_py, id="python")] + (
    [pytest.param(_core_c, id="cython")] if _core_c is not None else [])


@pytest.fixture(params=CORES)
def core(request, monkeypatch):
    monkeypatch.setattr(ctm, "core", request.param)
    return request.param


def bits(x):
    return struct.pack("<d", float(x))


def sacrebleu_value(preds, target, n_gram=4, smooth=False, tokenize="none", lowercase=False):
    """sacreBLEU's corpus BLEU / 100 for per-prediction reference lists (None-padded streams)."""
    width = max(len(refs) for refs in target)
    streams = [[refs[k] if k < len(refs) else None for refs in target] for k in range(width)]
    metric = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=n_gram,
                            smooth_method="add-k" if smooth else "none", smooth_value=1)
    return metric.corpus_score(preds, streams).score / 100


def torchmetrics_breaks_tie(preds, target):
    """True when torchmetrics' first-listed tie-break picks another length than sacreBLEU's."""
    for pred, refs in zip(preds, target):
        n = len(pred.split())
        lengths = [len(r.split()) for r in refs]
        best = min(abs(n - x) for x in lengths)
        tied = [x for x in lengths if abs(n - x) == best]
        if tied[0] != min(tied):
            return True
    return False


WORDS = st.sampled_from(["a", "b", "c", "the", "cat", "mat", "on"])
LINE = st.lists(WORDS, max_size=9).map(" ".join)


@st.composite
def batches(draw):
    n = draw(st.integers(1, 5))
    preds = draw(st.lists(LINE, min_size=n, max_size=n))
    target = draw(st.lists(st.lists(LINE, min_size=1, max_size=3), min_size=n, max_size=n))
    return preds, target


def states(metric):
    return (int(metric.preds_len), int(metric.target_len),
            [int(v) for v in metric.numerator.tolist()], [int(v) for v in metric.denominator.tolist()])


@SETTINGS
@given(batch=batches(), n_gram=st.integers(1, 4), smooth=st.booleans())
def test_bleuscore_matches_torchmetrics_and_sacrebleu(core, batch, n_gram, smooth):
    preds, target = batch
    ours = ctm.BLEUScore(n_gram=n_gram, smooth=smooth)
    ours.update(preds, target)
    value = ours.compute()
    assert value.dtype == torch.float64
    assert bits(value.item()) == bits(sacrebleu_value(preds, target, n_gram, smooth))
    theirs = tm_text.BLEUScore(n_gram=n_gram, smooth=smooth)
    theirs.update(preds, target)
    assume(not torchmetrics_breaks_tie(preds, target))
    assert states(ours) == states(theirs)
    if smooth and 0 in states(ours)[2]:
        return   # torchmetrics returns 0 here even when smoothing (see the difference tests)
    # torchmetrics computes in float32: its value is ours rounded, give or take float32 ulps
    assert abs(value.item() - theirs.compute().item()) <= 4e-7 * max(1.0, value.item())


@SETTINGS
@given(batch=batches(), tokenize=st.sampled_from(["13a", "none", "intl", "zh", "char"]),
       lowercase=st.booleans())
def test_sacrebleuscore_matches_sacrebleu(core, batch, tokenize, lowercase):
    preds, target = batch
    ours = ctm.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase)
    ours.update(preds, target)
    assert bits(ours.compute().item()) == bits(sacrebleu_value(preds, target, 4, False, tokenize,
                                                               lowercase))
    theirs = tm_text.SacreBLEUScore(tokenize=tokenize, lowercase=lowercase)
    theirs.update(preds, target)
    if tokenize in ("13a", "none", "char"):   # plain lowercase words: tokenized alike
        assume(not torchmetrics_breaks_tie(preds, target) or tokenize == "char")
        if tokenize != "char":
            assert states(ours) == states(theirs)


def test_update_forward_reset_accumulate(core):
    preds = ["the cat sat on the mat", "a b c d", "x"]
    target = [["the cat is on the mat", "a cat sat on the mat"], ["a b c d e"], ["y", "x z"]]
    metric = ctm.SacreBLEUScore()
    batch_values = [metric(preds[:2], target[:2]), metric(preds[2:], target[2:])]
    assert bits(batch_values[0].item()) == bits(sacrebleu_value(preds[:2], target[:2],
                                                                tokenize="13a"))
    whole = sacrebleu_value(preds, target, tokenize="13a")
    assert bits(metric.compute().item()) == bits(whole)
    assert metric.sacrebleu_score().score / 100 == whole
    metric.reset()
    assert states(metric) == (0, 0, [0] * 4, [0] * 4)
    assert metric.numerator.dtype == torch.int64
    metric.update(preds, target)
    assert bits(metric.compute().item()) == bits(whole)


def test_weights(core):
    preds, target = ["the cat sat on the mat"], [["the cat is on the mat"]]
    equal = ctm.BLEUScore(weights=[0.25] * 4)
    equal.update(preds, target)
    assert bits(equal.compute().item()) == bits(sacrebleu_value(preds, target))
    skewed = ctm.BLEUScore(n_gram=2, weights=[0.7, 0.3])
    skewed.update(preds, target)
    theirs = tm_text.BLEUScore(n_gram=2, weights=[0.7, 0.3])
    theirs.update(preds, target)
    assert abs(skewed.compute().item() - theirs.compute().item()) < 1e-6
    with pytest.raises(ValueError, match="different weights than `n_gram`: 3 != 4"):
        ctm.BLEUScore(weights=[1, 1, 1])


# -- the differences, each on its input (README: "torchmetrics adapter") -------------------------

def test_difference_tie_goes_to_the_shorter_reference(core):
    preds, target = ["a b c"], [["a b c d", "a b"]]       # lengths 4 and 2, both 1 from 3
    ours, theirs = ctm.BLEUScore(n_gram=1), tm_text.BLEUScore(n_gram=1)
    ours.update(preds, target)
    theirs.update(preds, target)
    assert int(theirs.target_len) == 4 and int(ours.target_len) == 2
    # sacreBLEU: 100 * exp(log(100)) = 100.00000000000004, and so / 100 here
    assert ours.compute().item() == sacrebleu_value(preds, target, 1) == 1.0000000000000004
    assert theirs.compute().item() < 0.72


def test_difference_counts_past_2_to_the_24(core):
    ours, theirs = ctm.BLEUScore(), tm_text.BLEUScore()
    for metric in (ours, theirs):
        metric.preds_len += 2 ** 24       # where a long evaluation's float32 sum gets to
        metric.update(["one"], [["one"]])
    assert int(ours.preds_len) == 2 ** 24 + 1
    assert int(theirs.preds_len) == 2 ** 24    # float32: the token was lost


def test_difference_sacrebleuscore_tokenizes_as_sacrebleu(core):
    # lowercase before tokenizing: 'İ'.lower() is two code points, so two 'char' tokens
    ours = ctm.SacreBLEUScore(tokenize="char", lowercase=True, n_gram=1)
    theirs = tm_text.SacreBLEUScore(tokenize="char", lowercase=True, n_gram=1)
    for metric in (ours, theirs):
        metric.update(["İ"], [["i\u0307"]])
    assert int(ours.preds_len) == 2 and int(theirs.preds_len) == 1
    assert bits(ours.compute().item()) == bits(sacrebleu_value(["İ"], [["i\u0307"]], 1,
                                                               tokenize="char", lowercase=True))
    # rstrip before 13a: torchmetrics deletes the '-\n' of a line's end, sacreBLEU keeps the '-'
    ours, theirs = ctm.SacreBLEUScore(n_gram=1), tm_text.SacreBLEUScore(n_gram=1)
    for metric in (ours, theirs):
        metric.update(["a b-\n"], [["a b"]])
    assert (int(ours.numerator[0]), int(theirs.numerator[0])) == (1, 2)
    assert ours.compute().item() == sacrebleu_value(["a b-\n"], [["a b"]], 1, tokenize="13a")


def test_difference_smoothing_with_an_unmatched_order(core):
    preds, target = ["a b c"], [["a b d"]]      # 3-grams: 0 of 1 match; 4-grams: none
    ours, theirs = ctm.BLEUScore(smooth=True), tm_text.BLEUScore(smooth=True)
    ours.update(preds, target)
    theirs.update(preds, target)
    assert theirs.compute().item() == 0.0
    assert ours.compute().item() == sacrebleu_value(preds, target, smooth=True) > 0.3


def test_bad_input_raises(core):
    metric = ctm.SacreBLEUScore()
    with pytest.raises(ValueError, match="2 predictions but references for 1"):
        metric.update(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match=r"target\[0\] holds no reference"):
        metric.update(["a"], [[]])
    with pytest.raises(TypeError, match=r"preds\[1\] is int"):
        metric.update(["a", 3], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"target\[1\]\[0\] is NoneType"):
        metric.update(["a", "b"], [["a"], [None]])
    with pytest.raises(ValueError, match="Unsupported tokenizer"):
        ctm.SacreBLEUScore(tokenize="moses")
    with pytest.raises(ValueError, match="n_gram must be a positive int"):
        ctm.BLEUScore(n_gram=0)
    assert states(metric) == (0, 0, [0] * 4, [0] * 4)
    metric.update("a b", "a b")        # one string each: one prediction, one reference
    assert int(metric.preds_len) == 2


def test_ja_mecab(core):
    pytest.importorskip("MeCab", reason="mecab-python3 is not installed (pip install 'cybleu[ja]')")
    pytest.importorskip("ipadic", reason="ipadic is not installed (pip install 'cybleu[ja]')")
    preds, target = ["猫が座った。"], [["猫は座っている。", "猫が座る"]]
    metric = ctm.SacreBLEUScore(tokenize="ja-mecab")
    metric.update(preds, target)
    assert bits(metric.compute().item()) == bits(sacrebleu_value(preds, target,
                                                                 tokenize="ja-mecab"))


# -- DDP: two processes on CPU, gloo, states summed -----------------------------------------------

PREDS = ["the cat sat on the mat", "a b c d", "x y", "the dog", "one two three four five", ""]
TARGET = [["the cat is on the mat", "a cat sat on a mat"], ["a b c d e"], ["x y z", "x"],
          ["a dog"], ["one two three four"], ["nothing"]]


def _ddp_worker(rank, world_size, store, out, implementation):
    import torch.distributed as dist

    import cybleu.torchmetrics as ctm_worker
    from cybleu._kernels import core_py as worker_core_py
    if implementation == "python":
        ctm_worker.core = worker_core_py
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank,
                            world_size=world_size)
    try:
        metric = ctm_worker.SacreBLEUScore()
        metric.update(PREDS[rank::world_size], TARGET[rank::world_size])
        local = metric.statistics()
        value = metric.compute()          # syncs: the states are summed over both ranks
        with metric.sync_context():
            stats = metric.statistics()
        torch.save({"value": value, "stats": stats, "local": local}, f"{out}.{rank}")
    finally:
        dist.destroy_process_group()


@pytest.mark.skipif(sys.platform == "win32", reason="the test forks")
def test_ddp_two_processes_gloo(core, tmp_path):
    import torch.distributed as dist
    import torch.multiprocessing as mp
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("this torch build has no gloo backend")
    implementation = "python" if core is _core_py else "cython"
    mp.start_processes(_ddp_worker, args=(2, str(tmp_path / "store"), str(tmp_path / "out"),
                                          implementation), nprocs=2, join=True,
                       start_method="fork")
    results = [torch.load(tmp_path / f"out.{rank}") for rank in range(2)]
    single = ctm.SacreBLEUScore()
    single.update(PREDS, TARGET)
    assert [a + b for a, b in zip(results[0]["local"], results[1]["local"])] == \
        single.statistics()
    for result in results:
        assert result["stats"] == single.statistics()
        assert bits(result["value"].item()) == bits(single.compute().item())
    assert bits(single.compute().item()) == bits(sacrebleu_value(PREDS, TARGET, tokenize="13a"))
