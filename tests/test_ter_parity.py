"""The compiled TER kernel against its pure-Python twin, and both against sacreBLEU 2.6.0, on inputs
aimed at the edges: empty hypotheses and references, one word, a tiny vocabulary so that shifts
compete, sentences near the shift limits and past the 1000-candidate cutoff, very unequal lengths
(the widened beam), tercom's normalization rules, Asian text, None references, 1-4 references.
Also: the same errors from both, memory that returns to its baseline, pickled reference sets."""
import gc
import inspect
import pickle
import random
import sys
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter as sacre_lib_ter
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercom

from conftest import bits, _ter_c, both_ter, parity

from cybleu._kernels import ter_py as _ter_py

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
FLAGS = [dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), bits))
         for bits in [(a, b, c, d) for a in (False, True) for b in (False, True)
                      for c in (False, True) for d in (False, True)]]
flags = st.sampled_from(FLAGS)

# words from a tiny vocabulary, so that blocks repeat and shifts compete
word = st.sampled_from(["a", "b", "c", "d", "a"])
words = st.one_of(st.lists(word, max_size=12), st.lists(word, min_size=20, max_size=40))

# what tercom's rules react to: XML escapes, possessives, periods and commas next to digits,
# dashes after digits, newlines and hyphenation, ASCII punctuation, CJK ranges and their edges,
# full-width and CJK punctuation, kana, every kind of whitespace, case that lower() changes
PIECES = ["a", "b", "ab", "A", "S", "1", "23", ".", ",", "-", "'", "'s", "'S", " 's", "s",
          "1.a", "a.1", "2,b", "b,3", "1.5", "1,5", "4-", "a-", ".,", "..", ",,", "x.", ".x",
          "&quot;", "&amp;", "&lt;", "&gt;", "&amp;lt;", "&amp;quot;", "&", ";", "\n", "\n-", "-\n",
          "!", "?", ":", '"', "(", ")", "[", "]", "{", "}", "/", "\\", "@", "#", "$", "%", "^",
          "_", "`", "~", "|", "<", ">", "*", "+", "=", " ", "  ", "\t", "\r", "\x0b", "\x0c",
          "\x1c", "\x85", "\u00a0", "\u2003", "\u3000", "\u2028", "\u200b", "中", "文", "東京",
          "\u4dbf", "\u4dc0", "\u3400", "\u33ff", "\u3200", "\u3f22", "\u31c0", "\u31ef", "\u31f0",
          "\u2e80", "\u2eff", "\uf900", "\ufaff", "\ufe30", "\ufe4f", "\u9fff", "\ua000",
          "。", "、", "〈", "】", "〔", "〟", "・", "｡", "･", "．", "，", "？", "：", "；", "！", "＂",
          "（", "）", "ひらがな", "カタカナ", "ㇰ", "ｱ", "İ", "Σ", "ΑΣ", "ß", "ẞ", "K", "é", "\u0301",
          "😀", "\U00020000", "\x00", "\u05d0", "٣", "１"]
text = st.lists(st.sampled_from(PIECES), max_size=16).map("".join)
refs_of_segment = st.lists(st.one_of(st.none(), text), min_size=1, max_size=4).filter(
    lambda refs: any(r is not None for r in refs))


def _args(f):
    return f["normalized"], f["no_punct"], f["asian_support"], f["case_sensitive"]


def _params(obj):
    """Parameter names; for a compiled class or method, from the signature Cython embeds as the
    first line of the docstring."""
    try:
        return [p for p in inspect.signature(obj).parameters if p != "self"]
    except ValueError:
        head = obj.__doc__.split("\n", 1)[0]
        args = head[head.index("(") + 1:head.rindex(")")]
        return [p for p in inspect.signature(eval(f"lambda {args}: None")).parameters
                if p != "self"]


def test_same_public_names_and_signatures():
    compiled, python = both_ter()
    assert compiled.__all__ == python.__all__
    for name in python.__all__:
        assert _params(getattr(compiled, name)) == _params(getattr(python, name)), name
    for name in ("ref_words", "segment_stats", "corpus_stats", "sentence_scores"):
        assert _params(getattr(compiled.RefSet, name)) == _params(getattr(python.RefSet, name))
    assert isinstance(python.RefSet.num_segments, property)
    assert type(compiled.RefSet.num_segments).__name__ == "getset_descriptor"


@settings(SETTINGS, max_examples=80)
@given(words, words)
def test_edit_rate_and_trace_match_sacrebleu(hyp, ref):
    assert parity(lambda k: k.edit_stats(hyp, ref), both_ter) == \
        sacre_lib_ter.translation_edit_rate(hyp, ref)
    assert parity(lambda k: k.edit_distance_trace(hyp, ref), both_ter) == \
        sacre_lib_ter.BeamEditDistance(ref)(hyp)


@SETTINGS
@given(text, flags)
def test_tokenizer_matches_sacrebleu(line, f):
    want = SacreTercom(**f)(line)
    assert parity(lambda k: k.tokenize(line, *_args(f)), both_ter) == want
    # the metric's path: rstrip, tokenize; references go through it twice, as in sacreBLEU
    cached = SacreTER(**f)._cache_references([[line]])[0]["ref_words"]
    assert parity(lambda k: k.RefSet([[line]], *_args(f)).ref_words(0), both_ter) == cached


@SETTINGS
@given(st.lists(st.tuples(text, refs_of_segment), min_size=1, max_size=5), flags)
def test_segment_stats_and_scores_match_sacrebleu(data, f):
    hyps = [h for h, _ in data]
    streams = [[refs[k] if k < len(refs) else None for _, refs in data]
               for k in range(max(len(refs) for _, refs in data))]
    segments = [[r for r in refs if r is not None] for _, refs in data]
    oracle = SacreTER(**f)
    want = oracle._extract_corpus_statistics(hyps, streams)
    got = parity(lambda k: k.segment_stats(hyps, segments, *_args(f)), both_ter)
    assert got == want and [type(v) for row in got for v in row] == \
        [type(v) for row in want for v in row]
    total = oracle._aggregate_and_compute(want)
    stats = parity(lambda k: k.corpus_stats(hyps, segments, *_args(f)), both_ter)
    assert stats[0] == total.num_edits and bits(stats[1]) == bits(total.ref_length)
    scores = parity(lambda k: [bits(x) for x in k.sentence_scores(hyps, segments, *_args(f))],
                    both_ter)
    assert scores == [bits(oracle._compute_score_from_stats(row).score) for row in want]
    cached = parity(lambda k: k.RefSet(segments, *_args(f)).segment_stats(hyps), both_ter)
    assert cached == want


def _sacre_candidates(hyp, ref):
    """How many candidate shifts sacreBLEU tries for this pair, and whether a round ended by the
    cutoff had found a shift that would have helped."""
    seen = {"checked": 0, "dropped_gain": False}
    real = sacre_lib_ter._shift

    def spy(words_h, words_r, cached_ed, checked):
        delta, new, checked = real(words_h, words_r, cached_ed, checked)
        seen["checked"] = checked
        if checked >= sacre_lib_ter._MAX_SHIFT_CANDIDATES and delta > 0:
            seen["dropped_gain"] = True
        return delta, new, checked

    sacre_lib_ter._shift = spy
    try:
        result = sacre_lib_ter.translation_edit_rate(hyp, ref)
    finally:
        sacre_lib_ter._shift = real
    return result, seen


def test_the_candidate_cutoff_throws_the_round_away():
    """Pairs where sacreBLEU reaches 1000 candidates in a round whose best shift would have
    lowered the distance (it is not applied, and the search stops)."""
    rng = random.Random(11)
    found_cutoff = found_dropped = 0
    for _ in range(100):
        n = rng.randint(22, 30)
        hyp = [rng.choice("ab") for _ in range(n)]
        ref = [rng.choice("ab") for _ in range(rng.randint(n - 5, n + 5))]
        want, seen = _sacre_candidates(hyp, ref)
        if seen["checked"] < 1000:
            continue
        found_cutoff += 1
        found_dropped += seen["dropped_gain"]
        assert parity(lambda k: k.edit_stats(hyp, ref), both_ter) == want
        if found_cutoff >= 2 and found_dropped >= 2:
            break
    assert found_cutoff >= 2 and found_dropped >= 2


@pytest.mark.parametrize("n,m", [(3, 400), (1, 180), (400, 3), (180, 1), (2, 151), (60, 3100)])
def test_very_unequal_lengths_widen_the_beam(n, m):
    rng = random.Random(n * 1000 + m)
    hyp = [rng.choice("abcdef") for _ in range(n)]
    ref = [rng.choice("abcdef") for _ in range(m)]
    assert parity(lambda k: k.edit_stats(hyp, ref), both_ter) == \
        sacre_lib_ter.translation_edit_rate(hyp, ref)
    assert parity(lambda k: k.edit_distance_trace(hyp, ref), both_ter) == \
        sacre_lib_ter.BeamEditDistance(ref)(hyp)


BASE = [f"w{i}" for i in range(60)]
LONG = {
    "block too far": (BASE[51:] + BASE[:51], BASE),
    "block too long": (BASE[11:] + BASE[:11], BASE),
    "longest block": (BASE[10:] + BASE[:10], BASE),
    "two blocks swapped": (BASE[:20] + BASE[30:40] + BASE[20:30] + BASE[40:], BASE),
    "block moved 50": (BASE[:5] + BASE[15:55] + BASE[5:15] + BASE[55:], BASE),
}


@pytest.mark.parametrize("case", list(LONG))
def test_blocks_near_the_shift_limits(case):
    """Blocks of MAX_SHIFT_SIZE words and one more, MAX_SHIFT_DIST positions away and more."""
    hyp, ref = LONG[case]
    assert parity(lambda k: k.edit_stats(hyp, ref), both_ter) == \
        sacre_lib_ter.translation_edit_rate(hyp, ref)


@pytest.mark.slow
def test_long_sentences_past_the_candidate_limit():
    """200-300 words with a small vocabulary: sacreBLEU tries its 1000 candidates (about 20 s
    each); the kernels know the round is thrown away without computing it."""
    rng = random.Random(5)
    cases = [([rng.choice("ab") for _ in range(200)], [rng.choice("ab") for _ in range(200)]),
             ([f"x{i % 97}" for i in range(300)], [f"x{(i * 7) % 97}" for i in range(290)]),
             (BASE * 2, BASE[::-1] * 2)]
    for hyp, ref in cases:
        assert parity(lambda k: k.edit_stats(hyp, ref), both_ter) == \
            sacre_lib_ter.translation_edit_rate(hyp, ref)


def test_lower_is_idempotent():
    """The compiled kernel lowercases references once where sacreBLEU's two tokenizer passes
    lowercase twice: that is the same only because str.lower() of a lowercased string changes
    nothing, on this interpreter's Unicode tables."""
    chars = "".join(map(chr, range(sys.maxunicode + 1)))
    lowered = chars.lower()
    assert lowered.lower() == lowered


@pytest.mark.parametrize("call,error", [
    (lambda k: k.segment_stats(["a", 3], [["a"], ["b"]]), "TER: hypothesis 1 is int, not str"),
    (lambda k: k.segment_stats(["a", "b"], [["a"], ["b", b"x"]]),
     "TER: reference 1 of segment 1 is bytes, not str"),
    (lambda k: k.segment_stats(["a", "b"], [["a"], []]),
     "TER: segment 1 has no reference (every reference is None)"),
    (lambda k: k.corpus_stats(["a"], [["a"], ["b"]]),
     "TER: 1 hypotheses but 2 segments of references"),
    (lambda k: k.RefSet([["a"]]).sentence_scores(["a", "b"]),
     "TER: 2 hypotheses but 1 segments of references"),
    (lambda k: k.RefSet([["a"], [None]]), "TER: reference 0 of segment 1 is NoneType, not str"),
    (lambda k: k.tokenize(None), "TercomTokenizer: the line is NoneType, not str"),
    (lambda k: k.edit_stats(["a", ["b"]], ["a"]), "unhashable type: 'list'"),
    (lambda k: k.sentence_scores(["a"], [None]), "'NoneType' object is not iterable"),
])
def test_errors_are_the_same_from_both(call, error):
    with pytest.raises((TypeError, ValueError)) as info:
        parity(call, both_ter)
    assert str(info.value) == error


@pytest.mark.parametrize("kernel", [pytest.param(_ter_py, id="python")] + (
    [pytest.param(_ter_c, id="cython")] if _ter_c is not None else []))
def test_refset_pickles_and_reads_back(kernel):
    refs = [["The cat's mat.", "a b"], ["東京。"], [""]]
    for f in FLAGS[::5]:
        refset = kernel.RefSet(refs, *_args(f))
        clone = pickle.loads(pickle.dumps(refset))
        assert clone.num_segments == 3
        assert [clone.ref_words(i) for i in range(3)] == [refset.ref_words(i) for i in range(3)]
        assert (clone.normalized, clone.no_punct, clone.asian_support, clone.case_sensitive) == \
            _args(f)
        hyps = ["the cat mat", "東京", "x"]
        assert clone.segment_stats(hyps) == refset.segment_stats(hyps)
    assert kernel.RefSet(refs).ref_words(-1) == [[]]
    with pytest.raises(IndexError):
        kernel.RefSet(refs).ref_words(3)


# -- memory: the compiled kernel allocates through PyMem_Raw*, which tracemalloc sees ------------

SLACK = 256 * 1024


def _growth(fn, calls):
    fn()
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


def test_compiled_kernel_leaks_nothing():
    compiled, _ = both_ter()
    hyps = [f"segment {i} with words {i % 7} and {i % 13} , then {i % 5} ." for i in range(300)]
    refs = [[f"segment {i} has words {i % 5} and {i % 13} then", "other words"]
            for i in range(300)]
    assert _growth(lambda: compiled.corpus_stats(hyps, refs, True, True), 20) < SLACK
    refset = compiled.RefSet(refs)
    assert _growth(lambda: refset.sentence_scores(hyps), 20) < SLACK
    assert _growth(lambda: compiled.edit_stats(list("abcabcabc" * 20), list("cba" * 50)),
                   200) < SLACK

    def fail():
        with pytest.raises(TypeError):
            compiled.segment_stats(hyps[:50] + [7] + hyps[51:], refs)

    assert _growth(fail, 50) < SLACK


def test_compiled_kernel_memory_is_bounded_for_long_sentences():
    """A 20,000-word pair: the matrix is stored beam by beam (not n x m), and the shift search
    stops at sacreBLEU's candidate limit."""
    compiled, _ = both_ter()
    rng = random.Random(3)
    hyp = [rng.choice("abcdefgh") for _ in range(20000)]
    ref = [rng.choice("abcdefgh") for _ in range(20000)]
    tracemalloc.start()
    try:
        edits, length = compiled.edit_stats(hyp, ref)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert length == 20000 and 0 < edits <= 40000
    assert peak < 40 * 1024 * 1024


# -- every code point through the tokenizer -------------------------------------------------------

def _context_line(cps):
    """Each code point alone and next to what tercom's rules look at: letters, digits, periods,
    commas, possessives, dashes, escapes, newlines."""
    return " ".join(f"{c} a{c}b 1{c}2 .{c}. {c}.a 1.{c} {c},1 {c}'s {c}-1 &amp;{c} \n{c}"
                    for c in map(chr, cps))


def _sweep(cps, combos):
    sacre_call = SacreTercom.__call__.__wrapped__   # without its lru_cache: the lines are big
    for f in combos:
        oracle = SacreTercom(**f)
        for start in range(0, len(cps), 2048):
            line = _context_line(cps[start:start + 2048])
            want = sacre_call(oracle, line)
            got = parity(lambda k: k.tokenize(line, *_args(f)), both_ter)
            if got != want:
                # bisect to the first code point that differs
                chunk = cps[start:start + 2048]
                bad = next(c for c in chunk if parity(
                    lambda k: k.tokenize(_context_line([c]), *_args(f)), both_ter)
                    != sacre_call(oracle, _context_line([c])))
                pytest.fail(f"{f}: U+{bad:04X} tokenizes differently from sacreBLEU")


# the ranges tercom's rules and the CJK tables react to, with their edges
_REACTIVE = [(0x0, 0x250), (0x2e70, 0x2f10), (0x2ff0, 0x3430), (0x3f10, 0x3f30), (0x4db0, 0x4e10),
             (0x9ff0, 0xa010), (0xf8f0, 0xfb00), (0xfe20, 0xfe60), (0xff00, 0xff70)]


def test_tokenizer_on_reactive_code_points():
    cps = sorted({c for lo, hi in _REACTIVE for c in range(lo, hi)
                  if not 0xd800 <= c < 0xe000} | set(range(0, 0x110000, 997)) - set(
                      range(0xd800, 0xe000)))
    # the settings whose rules differ (lowercasing is str.lower in both)
    _sweep(cps, [f for f in FLAGS if f["case_sensitive"] == f["no_punct"] and (
        f["normalized"] or f["no_punct"] or not f["asian_support"])])


@pytest.mark.slow
@pytest.mark.sweep   # sacreBLEU's tokenizer on 1.1 million code points: too long for CI
def test_tokenizer_on_every_code_point():
    _sweep([c for c in range(0x110000) if not 0xd800 <= c < 0xe000], FLAGS)
