"""The compiled core against its pure-Python twin, and both against sacreBLEU, on inputs aimed at the
edges: empty and short segments, None references, repeated n-grams, 13a's punctuation, digits,
entities, <skipped>, unicode whitespace."""
import inspect
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a as SacreTokenizer13a

import cybleu
from cybleu._kernels import core_py as _core_py
from cybleu._scoring import bleu as _math
from conftest import bits, both_cores, parity

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# tiny alphabet, so n-grams repeat; 13a's special characters; unicode whitespace
PIECES = ["a", "b", "a b", "A", "1", "23", ".", ",", "-", "'", "&amp;", "&lt;", "&quot;", "&gt;",
          "&amp;lt;", "<skipped>", "\n", "-\n", " ", "  ", "\t", "\u00a0", "\u2003", "\u3000",
          "\x1c", "\x85", "ä", "é", "ß", "İ", "中", "😀", "(", ")", "$", "5-6", "3.14", "1,000",
          "e.g.", "don't", "?", "!", "/", "\\", "~", "@", "_", "`", "\r", "\x0b", "\x0c", "\u2028",
          "\u200b", "\x00", "\u0301", "\U00010400", "\u05d0"]
text = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
segment_refs = st.lists(st.one_of(st.none(), text), min_size=1, max_size=4)


def test_same_public_names_and_signatures():
    compiled, python = both_cores()
    assert compiled.__all__ == python.__all__
    for name in python.__all__:
        if name == "RefSet":
            for method in ("corpus_stats", "segment_stats", "segment_stats_flat",
                           "sentence_scores"):
                assert (list(inspect.signature(getattr(compiled.RefSet, method)).parameters)
                        == list(inspect.signature(getattr(python.RefSet, method)).parameters))
        else:
            assert (list(inspect.signature(getattr(compiled, name)).parameters)
                    == list(inspect.signature(getattr(python, name)).parameters))


@SETTINGS
@given(text)
def test_tokenize_13a_matches_sacrebleu(line):
    assert parity(lambda core: core.tokenize_13a(line)) == SacreTokenizer13a()(line)


@SETTINGS
@given(st.lists(st.tuples(text, segment_refs), min_size=1, max_size=6),
       st.sampled_from(["13a", "none"]), st.booleans(), st.integers(1, 6))
def test_segment_stats_match_sacrebleu(data, tokenize, lowercase, max_order):
    hyps = [h for h, _ in data]
    # sacrebleu crashes on a non-empty hypothesis whose references are all None; tested separately
    data = [(h, refs if any(r is not None for r in refs) else [""]) for h, refs in data]
    hyps = [h for h, _ in data]
    segments = [[r for r in refs if r is not None] for _, refs in data]
    rows = parity(lambda core: core.RefSet(segments, tokenize, lowercase, max_order)
                  .segment_stats(hyps))
    # the same rows as one flat int64 array (what the command line's tests resample)
    assert parity(lambda core: core.RefSet(segments, tokenize, lowercase, max_order)
                  .segment_stats_flat(hyps)).tolist() == [v for row in rows for v in row]
    # references streamed with the hypotheses give the same rows as cached ones
    assert parity(lambda core: core.segment_stats(hyps, segments, tokenize, lowercase,
                                                  max_order)) == rows
    assert parity(lambda core: core.corpus_stats(hyps, segments, tokenize, lowercase,
                                                 max_order)) == [sum(c) for c in zip(*rows)]
    oracle = SacreBLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_order)
    # one sacrebleu call per segment: its streams cannot hold a varying number of references
    # unless padded with None, which is what it does per segment anyway
    for hyp, refs, row in zip(hyps, (refs for _, refs in data), rows):
        assert oracle._extract_corpus_statistics([hyp], [[r] for r in refs]) == [row]


@SETTINGS
@given(st.lists(st.tuples(text, segment_refs), min_size=1, max_size=6),
       st.sampled_from(["none", "floor", "add-k", "exp"]),
       st.sampled_from([None, 0.01, 0.5, 1, 3]), st.booleans(), st.integers(1, 6))
def test_sentence_scores_match_sacrebleu(data, method, value, eff, max_order):
    data = [(h, refs if any(r is not None for r in refs) else [""]) for h, refs in data]
    hyps = [h for h, _ in data]
    segments = [[r for r in refs if r is not None] for _, refs in data]
    scores = parity(lambda core: list(core.RefSet(segments, "13a", False, max_order)
                                      .sentence_scores(hyps, method, value, eff)))
    assert parity(lambda core: list(core.sentence_scores(
        hyps, segments, "13a", False, max_order, method, value, eff))) == scores
    oracle = SacreBLEU(smooth_method=method, smooth_value=value, effective_order=eff,
                       max_ngram_order=max_order)
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    for hyp, (_, refs), score in zip(hyps, data, scores):
        assert bits(score) == bits(oracle.sentence_score(hyp, refs).score)


@SETTINGS
@given(st.lists(st.integers(0, 60), min_size=4, max_size=4),
       st.lists(st.integers(0, 40), min_size=6, max_size=6),
       st.sampled_from(["none", "floor", "add-k", "exp"]),
       st.sampled_from([None, 0.1, 0.7, 1, 2.5]), st.booleans(), st.integers(1, 6))
def test_float_path_matches_interpreter(lengths, extra, method, value, eff, max_order):
    """The compiled score arithmetic (including its emulation of this interpreter's float sum)
    equals sacrebleu's compute_bleu on the same statistics."""
    total = [max(0, lengths[0] - n) + extra[n % 6] for n in range(max_order)]
    correct = [min(t, (lengths[1] * (n + 3)) % (t + 1)) for n, t in enumerate(total)]
    row = [lengths[2], lengths[3]] + correct + total
    got = parity(lambda core: list(core.bleu_scores_from_stats(
        __import__("array").array("q", row), max_order, method, value, eff)))
    want = SacreBLEU.compute_bleu(list(correct), list(total), row[0], row[1], method, value, eff,
                                  max_order).score
    assert [bits(x) for x in got] == [bits(want)]


def test_interpreter_sum_is_what_sacrebleu_uses():
    """Scores whose last bit differs between Python 3.11's and 3.12's sum() still match."""
    import random
    rng = random.Random(7)
    for _ in range(2000):
        total = [rng.randint(5, 400) for _ in range(4)]
        correct = [rng.randint(1, t) for t in total]
        row = [total[0], total[0] + rng.randint(-3, 30)] + correct + total
        got = parity(lambda core: core.bleu_scores_from_stats(
            __import__("array").array("q", row), 4, "exp", None, False))[0]
        want = SacreBLEU.compute_bleu(list(correct), list(total), row[0], row[1], "exp").score
        assert bits(got) == bits(want)


def test_no_reference_with_empty_hypothesis_gives_ref_len_minus_one():
    assert parity(lambda core: core.RefSet([[]]).segment_stats([""])) == \
        SacreBLEU()._extract_corpus_statistics([""], [[None]])


def test_no_reference_with_words_is_a_type_error_from_both():
    with pytest.raises(TypeError, match="segment 0 has no reference"):
        parity(lambda core: core.RefSet([[]]).segment_stats(["a b"]))


def test_many_distinct_tokens_and_ids_above_2_16():
    """A segment with more than 70,000 distinct tokens: token IDs above 2**16 stay exact."""
    words = [f"w{i}" for i in range(80_000)]
    # interned in order of appearance, so the hypothesis' later words carry IDs above 2**16
    hyp = " ".join(words[::2] + words[70_000:71_000] + words[:10])
    ref = " ".join(words + words[70_000:70_500])
    row = parity(lambda core: core.RefSet([[ref]]).segment_stats([hyp]))
    assert row == SacreBLEU()._extract_corpus_statistics([hyp], [[ref]])


def test_13a_rules_on_known_examples():
    # examples from REFERENCE.md, produced by sacrebleu's tokenizer (asserted here too)
    line = "Hello, world! 3.14 1,000 e.g. don't -5 5-6"
    want = "Hello , world ! 3.14 1,000 e . g . don't -5 5 - 6"
    assert SacreTokenizer13a()(line) == want
    assert parity(lambda core: core.tokenize_13a(line)) == want


def test_bleu_from_stats_mutates_like_sacrebleu_for_add_k():
    correct, total = [3, 2, 1, 0], [3, 2, 1, 0]
    _math.bleu_from_stats(correct, total, 3, 3, "add-k")
    want_c, want_t = [3, 2, 1, 0], [3, 2, 1, 0]
    SacreBLEU.compute_bleu(want_c, want_t, 3, 3, "add-k")
    assert (correct, total) == (want_c, want_t)


def test_backend_is_reported():
    assert cybleu.BACKEND in ("cython", "python")
    assert _core_py.RefSet is not None


def test_float_path_on_random_rows_including_inconsistent_ones():
    """Statistics no corpus produces (matches without n-grams, ref_len -1) still score exactly as
    sacreBLEU's compute_bleu would, whatever the smoothing and effective order."""
    import array
    import random
    rng = random.Random(2026)
    for _ in range(20_000):
        n = rng.randint(1, 6)
        total = [rng.randint(0, 6) for _ in range(n)]
        correct = [rng.randint(0, t) if rng.random() < 0.8 else rng.randint(0, 6) for t in total]
        row = [rng.randint(0, 8), rng.randint(-1, 8)] + correct + total
        method = rng.choice(["none", "floor", "add-k", "exp"])
        value = rng.choice([None, 0.1, 0.5, 1, 2])
        eff = rng.random() < 0.5
        got = parity(lambda core: list(core.bleu_scores_from_stats(
            array.array("q", row), n, method, value, eff)))
        want = SacreBLEU.compute_bleu(list(correct), list(total), row[0], row[1], method, value,
                                      eff, n).score
        assert [bits(x) for x in got] == [bits(want)], (row, n, method, value, eff)
