"""The compiled chrF kernel against its pure-Python twin, and both against sacreBLEU, on inputs aimed
at the edges: empty lines, one character, whitespace runs of every kind, chrF++'s punctuation rules,
Asian text, combining and astral characters, None references, 1-4 references, every option."""
import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacreCHRF

from cybleu._scoring import chrf as _chrf_math
from conftest import bits, both_chrf, parity

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# a tiny alphabet so n-grams repeat; chrF++'s punctuation at word edges; every kind of whitespace
PIECES = ["a", "b", "ab", "a b", "A", "1", ".", ",", "(", ")", "'", '"', "-", "!", "?", "..",
          "(a)", "a.", ".a", "a,b", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85",
          "\u00a0", "\u2003", "\u3000", "\u2028", "\u200b", "ä", "é", "İ", "ß", "中", "文", "東京",
          "。", "、", "ｱ", "😀", "\U00010400", "\u0301", "\x00", "\u05d0", "€", "~", "«", "»"]
text = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)
refs_of_segment = st.lists(st.one_of(st.none(), text), min_size=1, max_size=4).filter(
    lambda refs: any(r is not None for r in refs))
options = st.fixed_dictionaries({
    "char_order": st.integers(0, 7), "word_order": st.integers(0, 4),
    "whitespace": st.booleans(), "lowercase": st.booleans(),
    "beta": st.sampled_from([2, 1, 3, 0, 0.5, 1.5, 10]), "eps_smoothing": st.booleans(),
}).filter(lambda o: o["char_order"] + o["word_order"] > 0)


def _oracle(o):
    return SacreCHRF(char_order=o["char_order"], word_order=o["word_order"], beta=o["beta"],
                     lowercase=o["lowercase"], whitespace=o["whitespace"],
                     eps_smoothing=o["eps_smoothing"])


def _args(o):
    return (o["char_order"], o["word_order"], o["whitespace"], o["lowercase"], o["beta"],
            o["eps_smoothing"])


def test_same_public_names_and_signatures():
    compiled, python = both_chrf()
    assert compiled.__all__ == python.__all__
    for name in python.__all__:
        assert list(inspect.signature(getattr(compiled, name)).parameters) == \
            list(inspect.signature(getattr(python, name)).parameters), name


@SETTINGS
@given(st.lists(st.tuples(text, refs_of_segment), min_size=1, max_size=5), options)
def test_segment_stats_and_scores_match_sacrebleu(data, o):
    hyps = [h for h, _ in data]
    streams = [[refs[k] if k < len(refs) else None for _, refs in data]
               for k in range(max(len(refs) for _, refs in data))]
    # sacreBLEU drops a segment's None references the same way (each keeps at least one here)
    segments = [[r for r in refs if r is not None] for _, refs in data]
    oracle = _oracle(o)
    want = oracle._extract_corpus_statistics(hyps, streams)
    assert parity(lambda k: k.segment_stats(hyps, segments, *_args(o)), both_chrf) == want
    total = [sum(col) for col in zip(*want)]
    assert parity(lambda k: k.corpus_stats(hyps, segments, *_args(o)), both_chrf) == total
    scores = parity(lambda k: list(k.sentence_scores(hyps, segments, *_args(o))), both_chrf)
    assert [bits(x) for x in scores] == \
        [bits(oracle._compute_score_from_stats(row).score) for row in want]
    # and the flat rows through the C f-score equal the shared Python one
    flat = [v for row in want for v in row]
    order = o["char_order"] + o["word_order"]
    got = parity(lambda k: [bits(x) for x in k.f_scores(flat, order, o["beta"],
                                                         o["eps_smoothing"])], both_chrf)
    assert got == [bits(_chrf_math.f_score(row, order, o["beta"], o["eps_smoothing"]))
                   for row in want]


@SETTINGS
@given(st.lists(text, min_size=0, max_size=5), st.lists(text, min_size=0, max_size=5), options,
       st.booleans())
def test_pairwise_matches_sacrebleu(hyps, refs, o, square):
    if square:
        refs = hyps
    oracle = _oracle(o)
    got = parity(lambda k: [bits(x) for x in k.pairwise_scores(hyps, refs, *_args(o))], both_chrf)
    want = [bits(oracle.sentence_score(h, [r]).score) for h in hyps for r in refs]
    assert got == want


@SETTINGS
@given(st.lists(st.integers(0, 40), min_size=3, max_size=3).map(
           lambda t: [t[0], t[1], min(t[2], t[0], t[1])]).flatmap(
           lambda first: st.lists(st.lists(st.integers(0, 10**6), min_size=3, max_size=3),
                                  min_size=0, max_size=8).map(
               lambda rest: first + [v for t in rest for v in [t[0], t[1], min(t)]])),
       st.sampled_from([2, 1, 0, 3, 0.5, 1.5, 7, 2.25, 10**6]), st.booleans())
def test_f_score_in_c_equals_sacrebleus(stats, beta, eps):
    order = len(stats) // 3
    want = bits(SacreCHRF(char_order=order, word_order=0, beta=beta,
                          eps_smoothing=eps)._compute_f_score(stats))
    assert bits(_chrf_math.f_score(stats, order, beta, eps)) == want
    assert parity(lambda k: [bits(x) for x in k.f_scores(stats, order, beta, eps)],
                  both_chrf) == [want]


@pytest.mark.parametrize("call,error", [
    (lambda k: k.segment_stats(["a", 3], [["a"], ["b"]]), "hypothesis 1 is int, not str"),
    (lambda k: k.segment_stats(["a", "b"], [["a"], ["b", b"x"]]),
     "a reference of segment 1 is bytes, not str"),
    (lambda k: k.segment_stats(["a", "b"], [["a"], []]),
     "segment 1 has no reference (every reference is None)"),
    (lambda k: k.segment_stats(["a"], [["a"], ["b"]]), "1 hypotheses for 2 reference segments"),
    (lambda k: k.corpus_stats(["a"], [["a"]], 0, 0), "char_order and word_order must be >= 0 and not both 0"),
    (lambda k: k.pairwise_scores(["a"], ["b", None]), "reference 1 is NoneType, not str"),
])
def test_errors_are_the_same_from_both(call, error):
    with pytest.raises((TypeError, ValueError)) as info:
        parity(call, both_chrf)
    assert str(info.value) == error


def test_long_lines_and_repeats():
    """Tables that grow past their first size; one n-gram repeated thousands of times."""
    hyps = ["a" * 5000, "ab " * 3000, ("x" * 40 + " ") * 300, "中文" * 2000]
    refs = [["a" * 4000], ["ab " * 3100, "ba " * 10], [("x" * 41 + " ") * 250], ["文中" * 1500]]
    for o in ({"char_order": 6, "word_order": 2}, {"char_order": 20, "word_order": 6}):
        args = (o["char_order"], o["word_order"], False, False, 2, False)
        want = SacreCHRF(**o)._extract_corpus_statistics(hyps, [[r[0] for r in refs]])
        assert parity(lambda k: k.segment_stats(hyps, [r[:1] for r in refs], *args),
                      both_chrf) == want
        got = parity(lambda k: list(k.pairwise_scores(hyps, [r[0] for r in refs], *args)),
                     both_chrf)
        assert np.array(got).reshape(4, 4).diagonal().tolist() == \
            [SacreCHRF(**o)._compute_score_from_stats(row).score for row in want]


def _traced_growth(fn, calls):
    import gc
    import tracemalloc
    fn()  # warm up caches (the workspace pool)
    gc.collect()
    tracemalloc.start()
    try:
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(calls):
            fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()


def test_compiled_kernel_memory_returns_to_baseline():
    """PyMem_Raw* memory (seen by tracemalloc) has one owner: repeated calls, failing calls and
    pairwise batches leave traced memory at its baseline."""
    compiled, _ = both_chrf()
    hyps = ["The quick brown fox jumps over the lazy dog .", "(hi) there, 東京!"] * 20
    refs = [["A quick brown fox jumped.", "x"], ["hi there"]] * 20
    slack = 256 * 1024
    assert _traced_growth(lambda: compiled.segment_stats(hyps, refs, 6, 2), 3000) < slack
    assert _traced_growth(lambda: compiled.pairwise_scores(hyps, hyps[:7], 6, 2), 3000) < slack

    def fail():
        with pytest.raises(TypeError):
            compiled.corpus_stats(hyps + [5], refs + [["a"]], 6, 2)

    assert _traced_growth(fail, 3000) < slack
