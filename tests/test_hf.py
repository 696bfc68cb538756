"""cybleu.hf against the published formula (tensorflow/nmt's compute_bleu, as Hugging Face evaluate
ships it) and against bleuscore (the same formula in Rust); the compiled counting core against
its twin."""
import collections
import math
import struct
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cybleu import hf
from cybleu._kernels import nltk_counts_py as _nltk_core_py
from conftest import data_path, read_lines

try:
    from cybleu._kernels import nltk_counts as _nltk_core_c
except ImportError:
    _nltk_core_c = None

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = ["a", "b", "c", "a.", "b,", "(c)", "1-2", "&amp;", "x\n", "-\n", " ", "e.g.", "3.5"]
line = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)
segment_refs = st.lists(line, min_size=1, max_size=4)


# The published reference algorithm (tensorflow/nmt scripts/bleu.py compute_bleu, which Hugging
# Face evaluate's `bleu` metric script imports from nmt's repository when it is loaded), written
# out plainly on Counters as the independent oracle: evaluate itself fetches the metric script from
# the Hub at run time, which a test cannot rely on. nmt divides by the total lengths, so it raises
# ZeroDivisionError when either is 0, where cybleu.hf returns a score of 0.0 (a documented
# difference: test_where_evaluate_divides_by_zero).
def _ngrams(segment, max_order):
    counts = collections.Counter()
    for order in range(1, max_order + 1):
        for i in range(0, len(segment) - order + 1):
            counts[tuple(segment[i:i + order])] += 1
    return counts


def nmt_compute_bleu(reference_corpus, translation_corpus, max_order=4, smooth=False):
    matches = [0] * max_order
    possible = [0] * max_order
    reference_length = translation_length = 0
    for references, translation in zip(reference_corpus, translation_corpus):
        reference_length += min(len(r) for r in references)
        translation_length += len(translation)
        merged = collections.Counter()
        for reference in references:
            merged |= _ngrams(reference, max_order)
        overlap = _ngrams(translation, max_order) & merged
        for ngram in overlap:
            matches[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            if len(translation) - order + 1 > 0:
                possible[order - 1] += len(translation) - order + 1
    precisions = [0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.) / (possible[i] + 1.)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
        else:
            precisions[i] = 0.0
    if min(precisions) > 0:
        geo_mean = math.exp(sum((1. / max_order) * math.log(p) for p in precisions))
    else:
        geo_mean = 0
    ratio = float(translation_length) / reference_length
    bp = 1. if ratio > 1.0 else math.exp(1 - 1. / ratio)
    return (geo_mean * bp, precisions, bp, ratio, translation_length, reference_length)


def _bits(value):
    if isinstance(value, list):
        return [_bits(v) for v in value]
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    return (type(value).__name__, value)


def _dict(result):
    keys = ("bleu", "precisions", "brevity_penalty", "length_ratio", "translation_length",
            "reference_length")
    return dict(zip(keys, result))


@SETTINGS
@given(st.lists(st.tuples(line, segment_refs), min_size=1, max_size=6), st.integers(1, 5),
       st.booleans())
def test_bleu_equals_the_published_formula(data, max_order, smooth):
    predictions = [p for p, _ in data]
    references = [r for _, r in data]
    tok = hf.tokenizer_13a
    got = hf.bleu(predictions, references, max_order=max_order, smooth=smooth)
    try:
        want = nmt_compute_bleu([[tok(r) for r in refs] for refs in references],
                                [tok(p) for p in predictions], max_order, smooth)
    except ZeroDivisionError:
        _assert_zero_where_evaluate_divides_by_zero(got)
        return
    assert {k: _bits(v) for k, v in got.items()} == {k: _bits(v) for k, v in _dict(want).items()}


def _assert_zero_where_evaluate_divides_by_zero(got):
    assert 0 in (got["translation_length"], got["reference_length"])
    assert (got["bleu"], got["length_ratio"], got["brevity_penalty"]) == (0.0, 0.0, 0.0)
    assert all(isinstance(v, float) for v in (got["bleu"], got["length_ratio"],
                                              got["brevity_penalty"]))


@pytest.mark.parametrize("predictions,references,max_order", [
    ([""], [["test"]], 4),                   # an empty prediction: translation length 0
    (["hello"], [[chr(12)]], 4),             # a reference of a form feed: reference length 0
    (["", ""], [[""], [" "]], 1),            # everything empty
    (["", "a b"], [["a"], ["a b"]], 2),      # one prediction of two empty: scored
])
def test_where_evaluate_divides_by_zero(predictions, references, max_order):
    """evaluate's `bleu` divides by the total prediction and reference lengths (nmt's code), and
    raises ZeroDivisionError when either is 0: a batch of empty generations stops a training
    loop. cybleu.hf returns BLEU 0.0 with length ratio and brevity penalty 0.0 there, and the
    precisions and lengths nmt computes before it divides."""
    tok = hf.tokenizer_13a
    args = ([[tok(r) for r in refs] for refs in references], [tok(p) for p in predictions],
            max_order)
    got = hf.bleu(predictions, references, max_order=max_order)
    assert hf.compute_bleu(*args) == tuple(got.values())
    assert hf.Bleu().compute(predictions=predictions, references=references,
                             max_order=max_order) == got
    try:
        want = nmt_compute_bleu(*args)
    except ZeroDivisionError:
        _assert_zero_where_evaluate_divides_by_zero(got)
        matches, possible = _nmt_counts(*args)
        assert got["precisions"] == [m / p if p else 0.0 for m, p in zip(matches, possible)]
        return
    assert got == _dict(want) and got["bleu"] > 0


def test_inputs_evaluate_scores_as_something_else_or_fails_on():
    """The compatibility page's other rows: where evaluate's `datasets` features cast a line to
    text, read a list as its printed text, or nmt fails with an unrelated error."""
    with pytest.raises(ValueError, match="the corpus is empty"):
        hf.bleu([], [])             # evaluate: IndexError
    with pytest.raises(TypeError, match=r"predictions\[1\] is int"):
        hf.bleu(["a", 3], [["a"], ["b"]])              # evaluate: scores "3"
    with pytest.raises(TypeError, match=r"predictions\[1\] is int"):
        hf.Bleu().compute(predictions=["a", 3], references=[["a"], ["b"]])
    mixed = ["a b", ["c d", "c"]]   # evaluate: the list is scored as the text "['c d', 'c']"
    assert hf.Bleu().compute(predictions=["a b", "c d"], references=mixed) == \
        hf.bleu(["a b", "c d"], [["a b"], ["c d", "c"]])
    with pytest.raises(TypeError, match=r"references\[1\]\[0\] is list"):
        hf.bleu(["a b", "c d"], mixed)
    with pytest.raises(ValueError, match="max_order must be at least 1"):
        hf.bleu(["a"], ["a"], max_order=0)             # evaluate: ValueError from min()


def _nmt_counts(reference_corpus, translation_corpus, max_order):
    """nmt's match and possible-match counts (computed before it divides)."""
    matches, possible = [0] * max_order, [0] * max_order
    for references, translation in zip(reference_corpus, translation_corpus):
        merged = collections.Counter()
        for reference in references:
            merged |= _ngrams(reference, max_order)
        overlap = _ngrams(translation, max_order) & merged
        for ngram in overlap:
            matches[len(ngram) - 1] += overlap[ngram]
        for order in range(1, max_order + 1):
            possible[order - 1] += max(0, len(translation) - order + 1)
    return matches, possible


@SETTINGS
@given(st.lists(st.tuples(line, segment_refs), min_size=1, max_size=6), st.booleans())
def test_bleu_equals_bleuscore(data, smooth):
    bleuscore = pytest.importorskip("bleuscore", reason="bleuscore (the second oracle) is "
                                    "not installed: it is in cybleu's `test` extra")
    predictions = [p for p, _ in data]
    references = [r for _, r in data]
    got = hf.bleu(predictions, references, smooth=smooth)
    want = bleuscore.compute(references=references, predictions=predictions, smooth=smooth)
    # bleuscore differs where the reference length is 0: it divides (ratio inf or NaN, penalty 1.0, so a
    # smoothed score can be 1.0), where evaluate raises ZeroDivisionError and cybleu.hf gives
    # ratio = penalty = score = 0.0
    if got["reference_length"] == 0:
        assert got["precisions"] == want["precisions"]
        assert (got["bleu"], got["length_ratio"], got["brevity_penalty"]) == (0.0, 0.0, 0.0)
        assert not math.isfinite(want["length_ratio"]) and want["brevity_penalty"] == 1.0   # inf or 0/0
        return
    _assert_bleu_matches_bleuscore(got["bleu"], want["bleu"])
    for key in ("precisions", "brevity_penalty", "length_ratio"):
        assert _bits(got[key]) == _bits(want[key]), key
    assert got["translation_length"] == want["translation_length"]
    assert got["reference_length"] == want["reference_length"]


def _assert_bleu_matches_bleuscore(got, want):
    if sys.version_info < (3, 12):
        assert _bits(float(got)) == _bits(float(want))
    else:
        # bleuscore sums the log precisions left to right, as Python's builtin sum did up to 3.11;
        # from 3.12 sum() compensates, so HF's formula (and cybleu.hf) may differ in the last bits
        assert got == want or abs(got - want) <= 4 * math.ulp(want)


def test_single_reference_strings_custom_tokenizer_and_object():
    got = hf.bleu(["hello there general kenobi", "foo bar foobar"],
                  [["hello there general kenobi", "hello there!"], ["foo bar foobar"]])
    assert got["bleu"] == 1.0 and got["reference_length"] == 6 and got["translation_length"] == 7
    assert hf.bleu(["a b c d"], ["a b c d"]) == hf.bleu(["a b c d"], [["a b c d"]])
    char = hf.bleu(["abcd"], [["abce"]], tokenizer=list, max_order=2)
    assert char == _dict(nmt_compute_bleu([[list("abce")]], [list("abcd")], 2))
    assert hf.Bleu().compute(predictions=["a b"], references=["a b"]) == hf.bleu(["a b"], ["a b"])


def test_no_references_and_zero_order_raise_as_nmt():
    with pytest.raises(ValueError, match="empty"):
        hf.compute_bleu([[]], [["a"]])
    # nmt's own ValueError is "min() arg is an empty sequence": the same type, a message that
    # names the argument
    with pytest.raises(ValueError, match="max_order must be at least 1"):
        hf.compute_bleu([[["a"]]], [["a"]], max_order=0)
    with pytest.raises(ValueError, match="max_order must be at least 1"):
        hf.bleu(["a"], ["a"], max_order=-3)


@SETTINGS
@given(st.lists(st.tuples(st.lists(st.lists(st.sampled_from("abc"), max_size=6), max_size=3),
                          st.lists(st.sampled_from("abcd"), max_size=6)), max_size=5),
       st.integers(0, 5))
def test_counting_cores_agree(corpus, max_order):
    if _nltk_core_c is None:
        pytest.skip("the compiled core is not built in this install")
    outcomes = []
    for core in (_nltk_core_c, _nltk_core_py):
        try:
            outcomes.append(("ok", core.hf_counts([r for r, _ in corpus], [h for _, h in corpus],
                                                  max_order)))
        except Exception as err:  # noqa: BLE001 - the comparison is the point
            outcomes.append(("error", type(err), str(err)))
    assert outcomes[0] == outcomes[1]


def test_wmt22_en_de_equals_the_formula_and_bleuscore():
    root = data_path("wmt", "wmt22", "en-de")
    refs = read_lines(root / "ref.A.txt")
    refs_b = read_lines(root / "ref.B.txt")
    tok = hf.tokenizer_13a
    refs_tok = [[tok(a), tok(b)] for a, b in zip(refs, refs_b)]
    for sys_file in sorted((root / "sys").glob("*.txt"))[:2]:
        hyps = read_lines(sys_file)
        got = hf.bleu(hyps, [[a, b] for a, b in zip(refs, refs_b)])
        want = _dict(nmt_compute_bleu(refs_tok, [tok(h) for h in hyps]))
        assert {k: _bits(v) for k, v in got.items()} == {k: _bits(v) for k, v in want.items()}
        bleuscore = pytest.importorskip("bleuscore", reason="bleuscore (the second oracle) is "
                                        "not installed: it is in cybleu's `test` extra")
        other = bleuscore.compute(references=[[a, b] for a, b in zip(refs, refs_b)], predictions=hyps)
        _assert_bleu_matches_bleuscore(got["bleu"], other["bleu"])
        assert _bits(got["precisions"]) == _bits(other["precisions"])
        assert (got["translation_length"], got["reference_length"]) == \
            (other["translation_length"], other["reference_length"])
