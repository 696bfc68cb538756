"""cybleu.nltk against nltk 3.10.4's nltk.translate.bleu_score: equal results (floats bit for bit,
Fractions equal, int 0 where nltk returns int 0), equal exceptions, equal warnings; and the compiled
counting core against its pure-Python twin."""
import inspect
import struct
import warnings
from fractions import Fraction as PyFraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from cybleu._kernels import nltk_counts_py as _nltk_core_py
from cybleu import nltk as cy_nltk
from conftest import data_path, read_lines

# the oracle: nltk 3.10.4 needs Python 3.10 or later (the test extra installs it there)
nltk_bleu = pytest.importorskip("nltk.translate.bleu_score",
                                reason="nltk is not installed (the oracle of cybleu.nltk; "
                                       "pip install nltk==3.10.4, Python 3.10 or later)")

try:
    from cybleu._kernels import nltk_counts as _nltk_core_c
except ImportError:  # a pure-Python install
    _nltk_core_c = None

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# a tiny alphabet so n-grams repeat; ints equal to floats/bools on purpose (1 == 1.0 == True)
TOKENS = ["a", "b", "c", "the", 1, 2, 1.0, True, ("t",), "A"]
sentence = st.lists(st.sampled_from(TOKENS), max_size=9)
short = st.lists(st.sampled_from(TOKENS[:3]), max_size=3)
refs = st.lists(st.one_of(sentence, short), min_size=1, max_size=4)
WEIGHTS = [
    (0.25, 0.25, 0.25, 0.25), (1.0,), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.1, 0.2, 0.3, 0.4),
    (0.2,) * 5, (0.5, 0.5, 0.0, 0.0), [0.25, 0.25, 0.25, 0.25], np.array([0.25] * 4),
    np.array([0.4, 0.3, 0.2, 0.1]), [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25,) * 4],
    [(1.0,), (0.25, 0.25, 0.25, 0.25)], (1, 0), (PyFraction(1, 2), PyFraction(1, 2)), (),
]
SMOOTHERS = [None] + [(m, kw) for m in range(8)
                      for kw in ({}, {"epsilon": 0.3, "alpha": 2, "k": 3},
                                 {"epsilon": 1, "alpha": 0.5, "k": 2.5})]


def _smoother(module, spec):
    if spec is None:
        return None
    method, kwargs = spec
    return getattr(module.SmoothingFunction(**kwargs), f"method{method}")


def _same(a, b):
    """Exactly equal: same type, floats bit for bit, lists element by element."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def _outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", call())
        except Exception as err:  # noqa: BLE001 - the comparison is the point
            result = ("error", type(err), str(err))
    return result, [(w.category, str(w.message)) for w in caught]


def assert_same_as_nltk(name, *args, **kwargs):
    """Call `name` on nltk and on cybleu.nltk (with each side's own SmoothingFunction)."""
    smoothing = kwargs.pop("smoothing", None)
    want, want_warnings = _outcome(lambda: getattr(nltk_bleu, name)(
        *args, smoothing_function=_smoother(nltk_bleu, smoothing), **kwargs))
    got, got_warnings = _outcome(lambda: getattr(cy_nltk, name)(
        *args, smoothing_function=_smoother(cy_nltk, smoothing), **kwargs))
    assert got_warnings == want_warnings
    assert got[0] == want[0], (got, want)
    if got[0] == "ok":
        assert _same(got[1], want[1]), (got[1], want[1])
    else:
        assert got[1:] == want[1:]
    return got


def test_same_public_signatures():
    for name in cy_nltk.__all__:
        if name == "Fraction":
            continue
        if name == "SmoothingFunction":
            for method in ["__init__"] + [f"method{i}" for i in range(8)]:
                assert (inspect.signature(getattr(cy_nltk.SmoothingFunction, method))
                        == inspect.signature(getattr(nltk_bleu.SmoothingFunction, method)))
        else:
            assert inspect.signature(getattr(cy_nltk, name)) == inspect.signature(getattr(nltk_bleu, name))


def test_counting_cores_have_the_same_api():
    if _nltk_core_c is None:
        pytest.skip("the compiled core is not built in this install")
    assert _nltk_core_c.__all__ == _nltk_core_py.__all__
    for name in _nltk_core_py.__all__:
        assert (list(inspect.signature(getattr(_nltk_core_c, name)).parameters)
                == list(inspect.signature(getattr(_nltk_core_py, name)).parameters))


@SETTINGS
@given(st.lists(st.tuples(refs, st.one_of(sentence, short)), max_size=5), st.integers(0, 6))
def test_counting_cores_agree(corpus, max_order):
    if _nltk_core_c is None:
        pytest.skip("the compiled core is not built in this install")
    list_of_refs, hyps = [r for r, _ in corpus], [h for _, h in corpus]
    outcomes = []
    for core in (_nltk_core_c, _nltk_core_py):
        outcomes.append(_outcome(lambda: core.corpus_counts(list_of_refs, hyps, max_order)))
    assert outcomes[0] == outcomes[1]


@SETTINGS
@given(st.lists(st.tuples(refs, st.one_of(sentence, short)), min_size=1, max_size=5),
       st.sampled_from(WEIGHTS), st.sampled_from(SMOOTHERS), st.booleans())
def test_corpus_bleu_equals_nltk(corpus, weights, smoothing, auto_reweigh):
    list_of_refs, hyps = [r for r, _ in corpus], [h for _, h in corpus]
    assert_same_as_nltk("corpus_bleu", list_of_refs, hyps, weights, smoothing=smoothing,
                        auto_reweigh=auto_reweigh)


@SETTINGS
@given(refs, st.one_of(sentence, short), st.sampled_from(WEIGHTS), st.sampled_from(SMOOTHERS),
       st.booleans())
def test_sentence_bleu_equals_nltk(references, hypothesis, weights, smoothing, auto_reweigh):
    assert_same_as_nltk("sentence_bleu", references, hypothesis, weights, smoothing=smoothing,
                        auto_reweigh=auto_reweigh)


@SETTINGS
@given(refs, st.one_of(sentence, short), st.integers(1, 6))
def test_modified_precision_and_lengths_equal_nltk(references, hypothesis, n):
    got = cy_nltk.modified_precision(references, hypothesis, n)
    want = nltk_bleu.modified_precision(references, hypothesis, n)
    # compared through plain Fractions: on Python 3.12+ nltk's Fraction(0, 2) != itself (its
    # properties return the unnormalized denominator, __eq__ compares it with the normalized one)
    assert type(got).__name__ == type(want).__name__ == "Fraction"
    assert (got.numerator, got.denominator) == (want.numerator, want.denominator)
    assert PyFraction(got.numerator, got.denominator) == PyFraction(want.numerator, want.denominator)
    hyp_len = len(hypothesis)
    assert cy_nltk.closest_ref_length(references, hyp_len) == nltk_bleu.closest_ref_length(references, hyp_len)
    r = cy_nltk.closest_ref_length(references, hyp_len)
    assert _same(cy_nltk.brevity_penalty(r, hyp_len), nltk_bleu.brevity_penalty(r, hyp_len))


@SETTINGS
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 9)), min_size=1, max_size=6),
       st.sampled_from(SMOOTHERS[1:]), refs, sentence)
def test_smoothing_methods_called_directly_equal_nltk(fractions, smoothing, references, hypothesis):
    # each side gets its own Fraction type; methods 3-7 modify the list in place, as nltk's do
    def run(module):
        p_n = [module.Fraction(n, d, _normalize=False) for n, d in fractions]
        out = _smoother(module, smoothing)(p_n, references, hypothesis, hyp_len=len(hypothesis))
        return [float(p) for p in out], [float(p) for p in p_n]
    want, want_warnings = _outcome(lambda: run(nltk_bleu))
    got, got_warnings = _outcome(lambda: run(cy_nltk))
    assert got_warnings == want_warnings
    assert got[0] == want[0] and (got[1:] == want[1:] if got[0] == "error" else _same(got[1], want[1]))


@pytest.mark.parametrize("list_of_refs,hyps", [
    ([], []), ([[]], [["a"]]), ([[]], [[]]), ([[["a"]]], []), ([[["a"]], [["b"]]], [["a"], ["b"]]),
    ([[[]]], [[]]), ([[["a", "b"]]], [["a", "b"]]), ([[[1, 2, 3, 4]]], [[1, 2, 3, 4]]),
    ([[list("abcdefghijklm"), list("abcdefghijk")]], [list("abcdefghijkl")]),
])
@pytest.mark.parametrize("weights", [(0.25,) * 4, (), [(0.5, 0.5), (1.0,)]])
def test_edge_cases_equal_nltk(list_of_refs, hyps, weights):
    for smoothing in (None, (1, {}), (5, {}), (6, {})):
        assert_same_as_nltk("corpus_bleu", list_of_refs, hyps, weights, smoothing=smoothing)


def test_method0_warnings_are_nltk_s():
    with pytest.warns(UserWarning) as caught:
        got = cy_nltk.sentence_bleu([["a", "b", "c"]], ["a", "x", "c"])
    assert _same(got, 1.0 * got) and got > 0
    assert [str(w.message) for w in caught] == [
        "\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
        "Therefore the BLEU score evaluates to 0, independently of\n"
        "how many N-gram overlaps of lower order it contains.\n"
        "Consider using lower n-gram order or use SmoothingFunction()".format(n) for n in (2, 3, 4)]


def test_zero_match_returns_int_zero():
    assert cy_nltk.sentence_bleu([["a"]], ["b"]) == 0 and type(cy_nltk.sentence_bleu([["a"]], ["b"])) is int
    assert cy_nltk.corpus_bleu([[["a"]]], [["b"]], [(1.0,), (0.5, 0.5)]) == [0, 0]


def _wmt_systems():
    root = data_path("wmt")
    for ref in sorted(root.glob("*/*/ref.A.txt")):
        refs = [line.split() for line in read_lines(ref)]
        for sys_file in sorted((ref.parent / "sys").glob("*.txt")):
            yield f"{ref.parent.parent.name}/{ref.parent.name}/{sys_file.stem}", refs, \
                [line.split() for line in read_lines(sys_file)]


def test_every_wmt_system_equals_nltk():
    """corpus_bleu of every system in ../shared/data/wmt (whitespace tokens, reference A) with the
    defaults on every 3rd segment; for the first system of each language pair the whole corpus
    with two weight vectors and method1, method3 on another third, and sentence_bleu (method1,
    method0) on every 25th segment."""
    pairs_seen = set()
    count = 0
    for name, refs, hyps in _wmt_systems():
        list_of_refs = [[r] for r in refs]
        pair = name.rsplit("/", 1)[0]
        # every 3rd segment of every system (the whole of nltk's corpus_bleu on 48 systems would
        # take most of the suite's time budget); whole corpora for one system per pair below
        assert_same_as_nltk("corpus_bleu", list_of_refs[::3], hyps[::3])
        if pair not in pairs_seen:
            pairs_seen.add(pair)
            assert_same_as_nltk("corpus_bleu", list_of_refs, hyps, [(0.5, 0.5), (0.25,) * 4],
                                smoothing=(1, {}))
            assert_same_as_nltk("corpus_bleu", list_of_refs[1::3], hyps[1::3], smoothing=(3, {}))
            for i in range(0, len(hyps), 25):
                for smoothing in ((1, {}), None):
                    assert_same_as_nltk("sentence_bleu", list_of_refs[i], hyps[i], smoothing=smoothing)
        count += 1
    assert count >= 40


@SETTINGS
@given(refs, st.one_of(sentence, short), st.sampled_from([w for w in WEIGHTS if type(w) is tuple and w
                                                          and all(type(x) is float for x in w)]),
       st.integers(0, 4), st.sampled_from([0.1, 0.0, 1.0, 3.0, 2.5e-3, 7.0]), st.booleans())
def test_sentence_score_cores_agree(references, hypothesis, weights, mode, param, reweigh):
    if _nltk_core_c is None:
        pytest.skip("the compiled core is not built in this install")
    assume(not (mode == 4 and param == 0.0))   # cybleu.nltk never passes k=0 here (nltk raises)
    got = [_outcome(lambda: core.sentence_score(references, hypothesis, weights, mode, param, reweigh))
           for core in (_nltk_core_c, _nltk_core_py)]
    assert got[0][1] == got[1][1]
    assert got[0][0][0] == got[1][0][0]
    a, b = got[0][0][1], got[1][0][1]
    if type(a) is tuple and type(b) is tuple:
        assert _same(a[0], b[0]) and a[1] == b[1]
    else:
        assert a is None and b is None or _same(a, b), (a, b)


FIXED_CORPORA = [
    ([[["a", "b", "c", "d", "e"]]], [["a", "b", "x", "d", "e"]]),
    ([[["a"]]], [["a", "a"]]),
    ([[["a", "b"], ["b", "a", "b"]], [["c"]]], [["a", "b", "a"], ["c", "c", "c", "c", "c"]]),
    ([[[1, 2, 3, 4, 5, 6]], [["x", "y"]]], [[1, 2, 3, 9, 5, 6], ["y"]]),
    ([[list("the cat sat on the mat")]], [list("the cat sat on a mat")]),
    ([[["a", "b", "c"]], [["a", "b", "c", "d", "e", "f"]]], [["a", "b", "c"], ["a", "b", "c", "d", "e", "f"]]),
]


@pytest.mark.parametrize("smoothing", SMOOTHERS)
def test_fixed_corpora_every_smoother_and_weight(smoothing):
    for list_of_refs, hyps in FIXED_CORPORA:
        for weights in WEIGHTS:
            for auto_reweigh in (False, True):
                assert_same_as_nltk("corpus_bleu", list_of_refs, hyps, weights, smoothing=smoothing,
                                    auto_reweigh=auto_reweigh)
                assert_same_as_nltk("sentence_bleu", list_of_refs[-1], hyps[-1], weights,
                                    smoothing=smoothing, auto_reweigh=auto_reweigh)


@pytest.mark.parametrize("references,hypothesis,kwargs", [
    (["the cat sat", "a cat sat"], "the cat sits", {}),                       # strings: characters
    ((("a", "b", "c"),), ("a", "b", "c"), {}),
    ([list("abcd")], list("abcd"), {"weights": np.array([[0.5, 0.5], [0.25] * 2])}),
    ([list("abcd")], list("abc"), {"weights": [0.25] * 4, "auto_reweigh": True}),
    ([list("ab")], list("ab"), {"auto_reweigh": 1}),
    ([list("abcd")], list("abcd"), {"weights": (float("nan"),) * 4}),
    ([list("abcd")], list("abxd"), {"weights": (-1e300,) * 4}),                # exp overflows
    ([list("abcd")], list("abxd"), {"weights": (1e300, 1e300)}),
    ([list("abcd")], list("abxd"), {"smoothing": (1, {"epsilon": float("inf")})}),
    ([list("abcd")], list("abxd"), {"smoothing": (1, {"epsilon": -0.0})}),
    ([list("abcd")], list("abxd"), {"smoothing": (4, {"k": 0})}),              # 1 / 0.0
    ([list("abcd")], list("abxd"), {"smoothing": (4, {"k": 10**30})}),
    ([list("abcd")], list("abxd"), {"smoothing": (1, {"epsilon": PyFraction(1, 3)})}),
])
def test_unusual_arguments_equal_nltk(references, hypothesis, kwargs):
    kwargs = dict(kwargs)
    smoothing = kwargs.pop("smoothing", None)
    assert_same_as_nltk("sentence_bleu", references, hypothesis, smoothing=smoothing, **kwargs)
    assert_same_as_nltk("corpus_bleu", [references], [hypothesis], smoothing=smoothing, **kwargs)


class _Grower:
    """A token whose __hash__ appends to the list that holds it, the first time it is hashed:
    the core sized its buffer from len() before reading (a heap buffer overflow, issue 10)."""

    def __init__(self, target, extra):
        self.target, self.extra = target, extra

    def __hash__(self):
        if self.extra:
            self.target.extend(["x"] * self.extra)
            self.extra = 0
        return 1

    def __eq__(self, other):
        return self is other


def _growing(tokens, extra=200_000):
    seq = list(tokens)
    seq.insert(0, _Grower(seq, extra))
    return seq


@pytest.mark.parametrize("where", ["hypothesis", "reference"])
def test_a_token_growing_its_list_while_interned_reads_the_tokens_it_had(where):
    def inputs(first):
        hyp, ref = [first, "a", "b", "c"], [first, "a", "b", "d"]
        if where == "hypothesis":
            ref = ref[1:]
        else:
            hyp = hyp[1:]
        return hyp, ref

    def grown():
        hyp, ref = inputs(None)
        seq = hyp if where == "hypothesis" else ref
        seq[0] = _Grower(seq, 200_000)
        return hyp, ref

    for core in (c for c in (_nltk_core_c, _nltk_core_py) if c is not None):
        # the same counts as with an ordinary token there: the twin reads a tuple of the list
        # first, the compiled core stops at the length it sized its buffer for
        hyp, ref = inputs(object())
        want = (core.corpus_counts([[ref]], [hyp], 4), core.hf_counts([[ref]], [hyp], 4),
                core.sentence_score([ref], hyp, (0.5, 0.5), 1, 0.1, False))
        hyp, ref = grown()
        got = [core.corpus_counts([[ref]], [hyp], 4)]
        hyp, ref = grown()
        got.append(core.hf_counts([[ref]], [hyp], 4))
        hyp, ref = grown()
        got.append(core.sentence_score([ref], hyp, (0.5, 0.5), 1, 0.1, False))
        assert tuple(got) == want, core.__name__
        assert want[0][:2] == ((4, 3) if where == "hypothesis" else (3, 4))


def test_more_weights_than_the_order_limit_are_refused():
    with pytest.raises(ValueError, match="up to order 256; a weight vector has 257 weights"):
        cy_nltk.corpus_bleu([[["a"]]], [["a"]], weights=(1 / 257,) * 257)
    # a range has a length without the memory: 2**30 used to overflow the core's int sizes
    with pytest.raises(ValueError, match="a weight vector has 1073741824 weights"):
        cy_nltk.sentence_bleu([["a"]], ["a"], weights=range(2**30))
    for core in (c for c in (_nltk_core_c, _nltk_core_py) if c is not None):
        with pytest.raises(ValueError, match="the n-gram order must be at most 256, got 257"):
            core.corpus_counts([[["a"]]], [["a"]], 257)
