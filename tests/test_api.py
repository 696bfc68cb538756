"""The sacreBLEU surface: same names, same results, and clear errors where sacreBLEU is silent."""
import logging

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

import cybleu
import cybleu.metrics.bleu as bleu_module
from cybleu._kernels import core_py as _core_py
from conftest import bits, _core_c

CORES = [pytest.param(_core_py, id="python")] + (
    [pytest.param(_core_c, id="cython")] if _core_c is not None else [])


@pytest.fixture(params=CORES)
def api(request, monkeypatch):
    """cybleu's API running on one backend."""
    monkeypatch.setattr(bleu_module, "core", request.param)
    return cybleu


@pytest.fixture(autouse=True)
def quiet_sacrebleu():
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)


def same(got, want):
    assert bits(got.score) == bits(want.score)
    assert (got.counts, got.totals, got.sys_len, got.ref_len) == \
        (want.counts, want.totals, want.sys_len, want.ref_len)
    assert got.format() == want.format()


HYPS = ["The cat sat on the mat.", "", "A B C D", "Hello, world! 3.14 1,000", "x"]
REFS_A = ["The cat is on the mat.", "a b", "a b c d", "Hello world", ""]
REFS_B = ["A cat sat on a mat .", None, "A B C", None, "x y"]


def test_module_paths_match_sacrebleu():
    from cybleu.compat import corpus_bleu, raw_corpus_bleu, sentence_bleu  # noqa: F401 - the import is the test
    from cybleu.metrics import BLEU  # noqa: F401 - the import is the test
    from cybleu.metrics.bleu import BLEU as B2, BLEUScore, BLEUSignature  # noqa: F401 - the import is the test
    from cybleu.tokenizers.tokenizer_13a import Tokenizer13a
    from cybleu.tokenizers.tokenizer_none import NoneTokenizer
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a
    assert Tokenizer13a()("a,b.") == SacreTokenizer13a()("a,b.")
    assert NoneTokenizer().signature() == "none"


def test_corpus_edge_cases_match_sacrebleu(api):
    for refs in ([REFS_A], [REFS_A, REFS_B], [REFS_B, REFS_A]):
        same(api.corpus_bleu(HYPS, refs), sacrebleu.corpus_bleu(HYPS, refs))
        same(api.raw_corpus_bleu(HYPS, refs), sacrebleu.raw_corpus_bleu(HYPS, refs))
        for method in ("none", "floor", "add-k", "exp"):
            for eff in (False, True):
                same(api.corpus_bleu(HYPS, refs, smooth_method=method, use_effective_order=eff,
                                     lowercase=True),
                     sacrebleu.corpus_bleu(HYPS, refs, smooth_method=method,
                                           use_effective_order=eff, lowercase=True))


def test_variable_references_signature(api):
    ours, oracle = api.BLEU(), SacreBLEU()
    same(ours.corpus_score(HYPS, [REFS_A, REFS_B]), oracle.corpus_score(HYPS, [REFS_A, REFS_B]))
    assert "nrefs:var" in str(ours.get_signature())
    assert str(ours.get_signature()).rsplit(":", 1)[0] == \
        str(oracle.get_signature()).rsplit(":", 1)[0]


def test_signature_before_scoring_is_an_error(api):
    with pytest.raises(ValueError, match="Number of references unknown"):
        api.BLEU().get_signature()


def test_sentence_level_matches_sacrebleu(api):
    for hyp, ref in zip(HYPS, REFS_A):
        same(api.sentence_bleu(hyp, [ref]), sacrebleu.sentence_bleu(hyp, [ref]))
        same(api.sentence_bleu(hyp, [ref, None, "a"]), sacrebleu.sentence_bleu(hyp, [ref, None, "a"]))
    # the #64 confusion: BLEU() without effective order gives 0 where sentence_bleu gives 100
    same(api.BLEU().sentence_score("a b c", ["a b c"]), SacreBLEU().sentence_score("a b c", ["a b c"]))


def test_batch_sentence_bleu_equals_the_per_sentence_loop(api):
    refs = [REFS_A, [r if r is not None else "" for r in REFS_B]]
    got = api.batch_sentence_bleu(HYPS, refs)
    want = [sacrebleu.sentence_bleu(h, [r[i] for r in refs]).score for i, h in enumerate(HYPS)]
    assert got.dtype.name == "float64" and got.shape == (len(HYPS),)
    assert [bits(x) for x in got] == [bits(x) for x in want]


def test_cached_references(api):
    ours = api.BLEU(references=[REFS_A, REFS_B])
    oracle = SacreBLEU(references=[REFS_A, REFS_B])
    same(ours.corpus_score(HYPS, None), oracle.corpus_score(HYPS, None))
    same(ours.corpus_score(HYPS[::-1], None), oracle.corpus_score(HYPS[::-1], None))
    with pytest.raises(RuntimeError, match="cache is empty"):
        api.BLEU().corpus_score(HYPS, None)


def test_bootstrap_confidence_matches_sacrebleu(api):
    got = api.BLEU().corpus_score(HYPS * 10, [REFS_A * 10], n_bootstrap=50)
    want = SacreBLEU().corpus_score(HYPS * 10, [REFS_A * 10], n_bootstrap=50)
    same(got, want)
    assert (bits(got._mean), bits(got._ci)) == (bits(want._mean), bits(want._ci))


def test_add_k_reports_smoothed_counts(api):
    same(api.corpus_bleu(["a b c"], [["a b c"]], smooth_method="add-k"),
         sacrebleu.corpus_bleu(["a b c"], [["a b c"]], smooth_method="add-k"))


def test_tokenized_period_warning(api, caplog):
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        api.corpus_bleu(["a ."] * 100, [["a ."] * 100])
    assert "That's 100 lines that end in a tokenized period" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        api.corpus_bleu(["a ."] * 100, [["a ."] * 100], force=True)
    assert caplog.text == ""


# -- bad input: a clear exception, the same type from both backends ---------------------------


@pytest.mark.parametrize("hyps,refs,error,message", [
    (["a", 3], [["a", "b"]], TypeError, "hypothesis 1 is int"),
    (["a", None], [["a", "b"]], TypeError, "Undefined line in hypotheses stream"),
    ([None], [["a"]], TypeError, "Undefined line"),
    ("a b", [["a b"]], TypeError, "should be a sequence of strings"),
    (["a", "b"], ["a", "b"], ValueError, r"pass \[refs\], not refs"),
    (["a", "b"], [["a"]], ValueError, "2 hypotheses but 1 references"),
    (["a", "b"], [["a", "b"], ["a"]], ValueError, "different lengths"),
    ([], [[]], ValueError, "corpus is empty"),
    (["a"], [], ValueError, "no reference stream"),
    (["a"], [[5]], TypeError, "reference 0 of stream 0 is int"),
    (["a"], [[None]], TypeError, "segment 0 has no reference"),
])
def test_bad_corpus_input(api, hyps, refs, error, message):
    with pytest.raises(error, match=message):
        api.corpus_bleu(hyps, refs)


def test_bad_sentence_input(api):
    with pytest.raises(TypeError, match="`hyp` should be a string"):
        api.sentence_bleu(None, ["a"])
    with pytest.raises(TypeError, match="`refs` should be a sequence"):
        api.sentence_bleu("a", "a")
    with pytest.raises(ValueError, match="at least one reference"):
        api.sentence_bleu("a", [])
    with pytest.raises(TypeError, match="should be a string or None"):
        api.sentence_bleu("a", [1])


@pytest.mark.parametrize("kwargs,message", [
    ({"tokenize": "13b"}, "Unknown tokenizer '13b'"),
    ({"smooth_method": "expo"}, "Unknown smooth_method 'expo'"),
    ({"max_ngram_order": 0}, "max_ngram_order must be an integer from 1 to 256, got 0"),
])
def test_bad_options(api, kwargs, message):
    with pytest.raises(ValueError, match=message):
        api.BLEU(**kwargs)


def test_unknown_tokenizer_is_a_keyerror_as_in_sacrebleu_and_a_valueerror():
    """sacreBLEU raises KeyError (its tokenizer table is a dict); code written against it catches
    that, code written against cybleu's earlier releases catches ValueError: both handlers work,
    and the message reads as a sentence (KeyError's str() would quote and escape it)."""
    from cybleu.tokenizers import UnknownTokenizerError
    with pytest.raises(KeyError):
        SacreBLEU(tokenize="13b")
    for make in (lambda: cybleu.BLEU(tokenize="13b"),
                 lambda: cybleu.corpus_bleu(["a"], [["a"]], tokenize="13b"),
                 lambda: cybleu.sentence_bleu("a", ["a"], tokenize="13b")):
        for handler in (KeyError, ValueError, LookupError):
            try:
                make()
            except handler as err:
                caught = err
            assert isinstance(caught, UnknownTokenizerError)
        assert str(caught) == ("Unknown tokenizer '13b'; available: none, zh, 13a, intl, char, "
                               "ja-mecab, ko-mecab, spm, flores101, flores200, spBLEU-1K.")
        assert caught.args == (str(caught),)
    import pickle
    again = pickle.loads(pickle.dumps(caught))
    assert type(again) is type(caught) and str(again) == str(caught)


def test_error_mid_corpus_keeps_the_cache_usable(api):
    metric = api.BLEU(references=[REFS_A])
    with pytest.raises(TypeError):
        metric.corpus_score(HYPS[:3] + [b"bytes"] + HYPS[4:], None)
    same(metric.corpus_score(HYPS, None), SacreBLEU(references=[REFS_A]).corpus_score(HYPS, None))


def test_trg_lang_warning_matches_sacrebleu(api, caplog):
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        api.BLEU(tokenize="13a", trg_lang="zh")
    assert "Consider using the 'zh' or 'spm' tokenizer for Chinese." in caplog.text
