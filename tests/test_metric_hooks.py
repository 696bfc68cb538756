"""BLEU on sacreBLEU's Metric pipeline: every hook real code calls, against sacreBLEU's on real data
(WMT22 en-ja, the issue's example), on both backends; tokenizer assignment, custom and patched-in
tokenizers, the reference cache's shape, pickling, overridden hooks, argument errors."""
import copy
import logging
import pickle

import numpy as np
import pytest
import sacrebleu
import sacrebleu.metrics.bleu as sacre_bleu_module
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar as SacreTokenizerChar

import cybleu
import cybleu.metrics.bleu as bleu_module
from cybleu._kernels import core_py as _core_py
from cybleu.metrics import BLEU, METRICS, Metric
from cybleu.tokenizers.tokenizer_char import TokenizerChar
from conftest import bits, _core_c, data_path, read_lines

CORES = [pytest.param(_core_py, id="python")] + (
    [pytest.param(_core_c, id="cython")] if _core_c is not None else [])


@pytest.fixture(params=CORES)
def core(request, monkeypatch):
    monkeypatch.setattr(bleu_module, "core", request.param)
    return request.param


@pytest.fixture(autouse=True)
def quiet():
    for name in ("sacrebleu", "cybleu"):
        logging.getLogger(name).setLevel(logging.ERROR)
    yield
    for name in ("sacrebleu", "cybleu"):
        logging.getLogger(name).setLevel(logging.NOTSET)


def same(got, want):
    assert bits(got.score) == bits(want.score)
    assert (list(got.counts), list(got.totals), got.sys_len, got.ref_len) == \
        (list(want.counts), list(want.totals), want.sys_len, want.ref_len)
    assert got.format() == want.format()


def _en_ja(n=300):
    folder = data_path("wmt", "wmt22", "en-ja")
    system = sorted((folder / "sys").glob("*.txt"))[4]
    return read_lines(system)[:n], [read_lines(folder / "ref.A.txt")[:n]]


def test_metric_registry_and_base_class():
    assert METRICS["BLEU"] is BLEU and issubclass(BLEU, Metric)
    assert list(BLEU.TOKENIZERS) == list(SacreBLEU.TOKENIZERS)
    with pytest.raises(TypeError):
        Metric()  # abstract, as sacreBLEU's


def test_per_sentence_aggregate_of_corpus_statistics(core):
    """A metric server's pattern: statistics once, then a score per sentence."""
    hyps, refs = _en_ja()
    for kw in ({}, {"smooth_method": "add-k"}, {"effective_order": True, "tokenize": "char"}):
        ours, oracle = BLEU(**kw), SacreBLEU(**kw)
        rows, want_rows = ours._extract_corpus_statistics(hyps, refs), \
            oracle._extract_corpus_statistics(hyps, refs)
        assert rows == want_rows
        got = [ours._aggregate_and_compute(rows[i:i + 1]) for i in range(len(hyps))]
        want = [oracle._aggregate_and_compute(want_rows[i:i + 1]) for i in range(len(hyps))]
        assert [bits(s.score) for s in got] == [bits(s.score) for s in want]
        assert any(s.score > 0 for s in got)
        # add-k smooths the row it is given in place, in sacreBLEU: so here too
        assert rows == want_rows
        same(ours._aggregate_and_compute(rows), oracle._aggregate_and_compute(want_rows))
        arr = np.array(rows, dtype="float32")
        same(ours._compute_score_from_stats(arr.sum(0)), oracle._compute_score_from_stats(
            np.array(want_rows, dtype="float32").sum(0)))


def test_tokenizer_assignment_takes_effect(core, caplog):
    hyps, refs = _en_ja()
    ours, oracle = BLEU(), SacreBLEU()
    ours.tokenizer, oracle.tokenizer = TokenizerChar(), SacreTokenizerChar()
    same(ours.corpus_score(hyps, refs), oracle.corpus_score(hyps, refs))
    assert ours.corpus_score(hyps, refs).score != BLEU().corpus_score(hyps, refs).score
    # sacreBLEU's signature keeps the name given at construction; cybleu says so in a warning
    caplog.set_level(logging.WARNING, logger="cybleu")
    assert ours.get_signature().format().rsplit(":", 1)[0] == \
        oracle.get_signature().format().rsplit(":", 1)[0]
    assert "tokenizer in use is 'char'" in caplog.text
    ours.tokenizer_signature = oracle.tokenizer_signature = "char"
    assert "tok:char" in str(ours.get_signature())
    # sacreBLEU's own tokenizer object (any object with __call__ and signature) works too
    mixed = BLEU(lowercase=True)
    mixed.tokenizer = SacreTokenizerChar()
    same(mixed.corpus_score(hyps, refs), SacreBLEU(lowercase=True, tokenize="char")
         .corpus_score(hyps, refs))
    same(mixed.sentence_score(hyps[0], [refs[0][0]]), SacreBLEU(lowercase=True, tokenize="char")
         .sentence_score(hyps[0], [refs[0][0]]))


class Spaced:
    """A user's tokenizer: spaces around every 'a' (with __call__ and signature, as sacreBLEU's)."""

    def signature(self):
        return "spaced"

    def __call__(self, line):
        return line.replace("a", " a ")


def test_patched_get_tokenizer_adds_a_name(core, monkeypatch):
    hyps, refs = _en_ja(100)
    hyps = [h + " banana" for h in hyps]
    for module in (bleu_module, sacre_bleu_module):
        original = module._get_tokenizer
        monkeypatch.setattr(module, "_get_tokenizer",
                            lambda name, original=original: Spaced if name == "spaced"
                            else original(name))
    ours, oracle = BLEU(tokenize="spaced"), SacreBLEU(tokenize="spaced")
    same(ours.corpus_score(hyps, refs), oracle.corpus_score(hyps, refs))
    assert ours.get_signature().format().rsplit(":", 1)[0] == \
        oracle.get_signature().format().rsplit(":", 1)[0]
    with pytest.raises(ValueError, match="Unknown tokenizer 'nope'"):
        BLEU(tokenize="nope")


def test_cache_references_has_sacrebleus_shape(core):
    hyps, refs = _en_ja(60)
    refs2 = refs + [[None if i % 3 else r[::-1] for i, r in enumerate(refs[0])]]
    for kw in ({}, {"lowercase": True, "max_ngram_order": 2}, {"tokenize": "char"}):
        ours, oracle = BLEU(**kw), SacreBLEU(**kw)
        got, want = ours._cache_references(refs2), oracle._cache_references(refs2)
        assert ours.num_refs == oracle.num_refs == -1
        assert len(got) == len(want)
        for i in range(-len(want), len(want)):
            assert got[i] == want[i]
            assert list(got[i]["ref_ngrams"].items()) == list(want[i]["ref_ngrams"].items())
        assert got[5:9] == want[5:9] and list(got) == want
        # MBR code: hooks on the cached dicts
        for i in range(0, 60, 7):
            h = oracle._preprocess_segment(hyps[i])
            assert ours._preprocess_segment(hyps[i]) == h
            assert ours._compute_segment_statistics(h, got[i]) == \
                oracle._compute_segment_statistics(h, want[i])
        # reference info from raw lines, as some bootstrap scripts call it
        info = oracle._extract_reference_info([refs[0][1]])
        assert ours._extract_reference_info([refs[0][1]]) == info
        assert ours._compute_segment_statistics(hyps[1], info) == \
            oracle._compute_segment_statistics(hyps[1], info)
        assert ours._get_closest_ref_len(5, [3, 7, 4, 6]) == oracle._get_closest_ref_len(5, [3, 7, 4, 6])
    with pytest.raises(IndexError):
        BLEU(references=refs)._ref_cache[60]


def test_pickle_and_deepcopy_keep_the_cache(core):
    hyps, refs = _en_ja(80)
    for kw in ({}, {"tokenize": "char", "lowercase": True}):
        ours = BLEU(references=refs, **kw)
        want = SacreBLEU(references=refs, **kw).corpus_score(hyps, None)
        for clone in (pickle.loads(pickle.dumps(ours)), copy.deepcopy(ours)):
            same(clone.corpus_score(hyps, None), want)
            assert clone._ref_cache[3] == ours._ref_cache[3]
            assert [bits(x) for x in clone.sentence_scores(hyps)] == \
                [bits(x) for x in ours.sentence_scores(hyps)]


def test_settings_changed_after_caching_follow_sacrebleu(core):
    hyps, refs = _en_ja(80)
    for attr, value in (("lowercase", True), ("tokenizer", "char"), ("max_ngram_order", 3)):
        ours, oracle = BLEU(references=refs), SacreBLEU(references=refs)
        if attr == "tokenizer":
            ours.tokenizer, oracle.tokenizer = TokenizerChar(), SacreTokenizerChar()
        else:
            setattr(ours, attr, value)
            setattr(oracle, attr, value)
        same(ours.corpus_score(hyps, None), oracle.corpus_score(hyps, None))
        assert ours._extract_corpus_statistics(hyps, None) == \
            oracle._extract_corpus_statistics(hyps, None)


def test_overridden_hooks_are_honoured(core):
    hyps, refs = _en_ja(50)

    def pre(self, sent):
        return " ".join(sent.upper())

    class Ours(BLEU):
        _preprocess_segment = pre

    class Theirs(SacreBLEU):
        _preprocess_segment = pre

    same(Ours().corpus_score(hyps, refs), Theirs().corpus_score(hyps, refs))
    same(Ours(effective_order=True).sentence_score(hyps[0], [refs[0][0]]),
         Theirs(effective_order=True).sentence_score(hyps[0], [refs[0][0]]))
    assert Ours(references=refs).corpus_score(hyps, None).score == \
        Theirs(references=refs).corpus_score(hyps, None).score
    # an instance-level override too
    ours, oracle = BLEU(), SacreBLEU()
    ours._compute_segment_statistics = lambda h, r: [1, 1, 1, 0, 0, 0, 1, 1, 1, 1]
    oracle._compute_segment_statistics = ours._compute_segment_statistics
    same(ours.corpus_score(hyps, refs), oracle.corpus_score(hyps, refs))


def test_distributed_pattern(core):
    """Statistics, an all-reduce style sum, then `_aggregate_and_compute`."""
    hyps, refs = _en_ja(120)
    ours, oracle = BLEU(), SacreBLEU()
    parts = [ours._extract_corpus_statistics(hyps[i:i + 40], [r[i:i + 40] for r in refs])
             for i in range(0, 120, 40)]
    summed = np.sum([np.sum(p, axis=0) for p in parts], axis=0).tolist()
    same(ours._aggregate_and_compute([summed]), oracle.corpus_score(hyps, refs))


@pytest.mark.parametrize("call,error,message", [
    (lambda: cybleu.corpus_bleu("a hypothesis", "a reference"), TypeError,
     r"not a single str.*sentence_bleu\(hyp, \[ref\]\).*corpus_bleu\(\[hyp\], \[\[ref\]\]\)"),
    (lambda: cybleu.corpus_bleu(["a"], "a reference"), TypeError,
     r"corpus_bleu\(\[hyp\], \[\[ref\]\]\)"),
    (lambda: cybleu.corpus_bleu([["the", "cat"]], [["the cat"]]), TypeError,
     r"hypothesis 0 is a list of 2 strings.*' '.join\(tokens\)"),
    (lambda: cybleu.corpus_bleu(["the cat"], [[["the", "cat"]]]), TypeError,
     r"reference 0 of stream 0 is a list of 2 strings.*' '.join\(tokens\)"),
    (lambda: cybleu.sentence_bleu(["the", "cat"], ["the cat"]), TypeError,
     r"`hyp` should be a string, not list.*' '.join\(tokens\)"),
    (lambda: cybleu.sentence_bleu("the cat", "the cat"), TypeError,
     r"sentence_bleu\(hyp, \[ref\]\)"),
    (lambda: cybleu.sentence_bleu("the cat", [["the", "cat"]]), TypeError,
     r"reference 0 is a list of 2 strings.*' '.join\(tokens\)"),
])
def test_argument_errors_say_what_and_how(core, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_sentence_score_with_none_references_matches(core):
    ours, oracle = BLEU(effective_order=True), SacreBLEU(effective_order=True)
    same(ours.sentence_score("a b c d", ["a b c", None, "a b c d e"]),
         oracle.sentence_score("a b c d", ["a b c", None, "a b c d e"]))
    assert ours.get_signature().format().rsplit(":", 1)[0] == \
        oracle.get_signature().format().rsplit(":", 1)[0]
    same(sacrebleu.sentence_bleu("x", ["x y"]), cybleu.sentence_bleu("x", ["x y"]))
