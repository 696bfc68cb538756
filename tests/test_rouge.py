"""cybleu.rouge_score against rouge-score 0.1.2 (the oracle), bit for bit, on the backend under
test; the compiled ROUGE kernel against its twin; nltk's Porter stemmer.

Values are compared with their types (rouge-score returns the integers 0 for an empty rougeL or
rougeLsum side, floats otherwise) and with `==` on the floats: no tolerance anywhere.
"""
import re
import string
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import parity
from rouge_data import build_punkt_model, documents, english_lines, non_english_lines

import cybleu
from cybleu._kernels import porter_py, rouge_py
from cybleu.rouge_score import rouge_scorer, scoring, tokenize, tokenizers

theirs_scorer = pytest.importorskip("rouge_score.rouge_scorer",
                                    reason="rouge-score (the oracle) is not installed: "
                                    "pip install rouge-score==0.1.2")
from rouge_score import tokenize as theirs_tokenize  # noqa: E402 - after the importorskip above

try:
    from cybleu._kernels import porter as porter_c
    from cybleu._kernels import rouge as rouge_c
except ImportError:  # a pure-Python install
    porter_c = rouge_c = None

ALL_TYPES = [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]


def both_rouge():
    if rouge_c is None:
        pytest.skip("the compiled ROUGE kernel is not built in this install")
    return rouge_c, rouge_py


def both_porter():
    if porter_c is None:
        pytest.skip("the compiled stemmer is not built in this install")
    return porter_c, porter_py


def typed(result):
    """A result dict as (key, ((type, value) x 3)) pairs, for exact comparisons."""
    return [(k, tuple((type(v).__name__, v) for v in s)) for k, s in result.items()]


def same(ours, theirs):
    assert typed(ours) == typed(theirs)
    for k in ours:
        assert type(ours[k]).__name__ == "Score"


def oracle_and_ours(types, use_stemmer=False, split_summaries=False, tokenizer=None):
    return (rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer,
                                     split_summaries=split_summaries, tokenizer=tokenizer),
            theirs_scorer.RougeScorer(types, use_stemmer=use_stemmer,
                                      split_summaries=split_summaries, tokenizer=tokenizer))


# -- the stemmer ---------------------------------------------------------------------------------

def _words(lines):
    words = set()
    for line in lines:
        words.update(line.split())
        words.update(re.findall(r"[a-z0-9]+", line.lower()))
    return sorted(words)


def test_porter_stemmer_matches_nltk_on_the_english_data():
    """Every word of the English lines (as written, and as rouge-score's tokens), both
    backends, against nltk 3.10.4's PorterStemmer()."""
    nltk_porter = pytest.importorskip("nltk.stem.porter")
    stemmer = nltk_porter.PorterStemmer()
    ref, hyp, other = english_lines()
    words = _words(ref + hyp + other) + ["skies", "dying", "İnning", "yyyy", "Y", "", "ab", "İs"]
    want = [stemmer.stem(w) for w in words]
    assert [porter_py.stem(w) for w in words] == want
    assert [tokenizers.PorterStemmer().stem(w) for w in words] == want
    if porter_c is not None:
        assert [porter_c.stem(w) for w in words] == want
        assert [porter_c.stem(w, False) for w in words] == [stemmer.stem(w, False) for w in words]


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="aeiouybcdlmnrstgzwx1ALY", max_size=14) | st.text(max_size=6))
def test_porter_stemmer_matches_nltk_on_generated_words(word):
    nltk_porter = pytest.importorskip("nltk.stem.porter")
    want = nltk_porter.PorterStemmer().stem(word)
    assert porter_py.stem(word) == want
    if porter_c is not None:
        assert porter_c.stem(word) == want


@pytest.mark.slow
def test_porter_stemmer_matches_nltk_on_every_word_of_the_shared_data():
    nltk_porter = pytest.importorskip("nltk.stem.porter")
    from conftest import SHARED_DATA
    if not SHARED_DATA.exists():
        pytest.skip(f"{SHARED_DATA} is absent")
    lines = []
    for path in sorted(SHARED_DATA.rglob("*.txt")):
        lines += path.read_text("utf-8", errors="replace").split("\n")
    stemmer = nltk_porter.PorterStemmer()
    for word in _words(lines):
        want = stemmer.stem(word)
        assert porter_py.stem(word) == want, word
        if porter_c is not None:
            assert porter_c.stem(word) == want, word


# -- the tokenizer ---------------------------------------------------------------------------------

def test_tokenizer_at_every_code_point():
    """Each code point between two letters: rouge-score keeps only [a-z0-9] after lowercasing,
    so all but ASCII (and U+0130, U+212A, whose lowercase holds i and k) separates."""
    text = "".join(f"q{chr(c)}q " for c in range(0x110000))
    want = theirs_tokenize.tokenize(text, None)
    assert tokenize.tokenize(text, None) == want
    assert rouge_py.tokenize(text, False) == want
    if rouge_c is not None:
        assert rouge_c.tokenize(text, False) == want


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40) | st.text(alphabet=string.printable + "İKıÅß\u0307", max_size=40),
       st.booleans())
def test_tokenizer_matches_rouge_score(text, stem):
    from nltk.stem import porter
    want = theirs_tokenize.tokenize(text, porter.PorterStemmer() if stem else None)
    got = tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize(text)
    assert got == want
    assert rouge_py.tokenize(text, stem) == want
    # nltk's own stemmer object, passed as rouge-score passes it
    assert tokenize.tokenize(text, porter.PorterStemmer() if stem else None) == want


# -- documents from real text, few distinct tokens ------------------------------------------------

def _pool():
    ref, hyp, other = english_lines()
    words = sorted({w for line in ref[:300] + hyp[:300] + other[:300] for w in line.split()})
    foreign = sorted({w for line in non_english_lines()[:200] for w in line.split()})
    return words, foreign


POOL, FOREIGN = _pool()
ODD = ["İstanbul", "KELVİN", "\u212a", "naïve", "", "-", "U.S.", "it's", "12.5", "\t", "\r"]


@st.composite
def vocabularies(draw):
    """A handful of words: n-grams and LCS ties repeat."""
    words = draw(st.lists(st.sampled_from(POOL), min_size=1, max_size=7))
    if draw(st.booleans()):
        words += draw(st.lists(st.sampled_from(FOREIGN + ODD), max_size=2))
    return words


@st.composite
def docs(draw, vocab):
    lines = draw(st.lists(st.lists(st.sampled_from(vocab), max_size=14), max_size=5))
    return "\n".join(" ".join(line) for line in lines)


@st.composite
def cases(draw):
    vocab = draw(vocabularies())
    n_refs = draw(st.integers(1, 4))
    return (draw(docs(vocab)), [draw(docs(vocab)) for _ in range(n_refs)],
            draw(st.lists(st.sampled_from(ALL_TYPES), min_size=1, max_size=5)),
            draw(st.booleans()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_scores_match_rouge_score(case):
    prediction, targets, types, stem = case
    ours, theirs = oracle_and_ours(types, use_stemmer=stem)
    same(ours.score(targets[0], prediction), theirs.score(targets[0], prediction))
    same(ours.score_multi(targets, prediction), theirs.score_multi(targets, prediction))


@pytest.mark.slow
@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_scores_match_rouge_score_long_sweep(case):
    test_scores_match_rouge_score.hypothesis.inner_test(case)


@pytest.mark.parametrize("stem", [False, True])
def test_real_documents_match_rouge_score(stem):
    """WMT22 zh-en: 3-line documents of the reference against a system, every type."""
    ref, hyp, other = english_lines()
    targets, predictions = documents(ref, 3, 80), documents(hyp, 3, 80)
    ours, theirs = oracle_and_ours(ALL_TYPES, use_stemmer=stem)
    for t, p in zip(targets, predictions):
        same(ours.score(t, p), theirs.score(t, p))
    multi = [documents(ref, 3, 20), documents(other, 3, 20), documents(hyp, 3, 20, start=3)]
    for i, p in enumerate(documents(hyp, 3, 20)):
        same(ours.score_multi([m[i] for m in multi], p),
             theirs.score_multi([m[i] for m in multi], p))


@pytest.mark.slow
@pytest.mark.parametrize("stem", [False, True])
def test_every_document_of_the_english_data_matches_rouge_score(stem):
    ref, hyp, other = english_lines()
    n = len(ref) // 3
    ours, theirs = oracle_and_ours(ALL_TYPES, use_stemmer=stem)
    for t, p in zip(documents(ref, 3, n), documents(hyp, 3, n)):
        same(ours.score(t, p), theirs.score(t, p))
    m = min(len(other), len(ref)) // 5
    for t, p in zip(documents(other, 5, m), documents(ref, 5, m, start=1)):
        same(ours.score(t, p), theirs.score(t, p))


# -- split_summaries: nltk's sentence splitter ------------------------------------------------------

@pytest.fixture(scope="session")
def punkt_folder(tmp_path_factory):
    """A Punkt model made here, once (nltk's punkt_tab data is not on this machine, and no
    package registry ships it: see rouge_data.build_punkt_model)."""
    pytest.importorskip("nltk")
    return build_punkt_model(tmp_path_factory.mktemp("nltk_data"))


@pytest.fixture
def punkt(punkt_folder, monkeypatch):
    """nltk's sent_tokenize on the Punkt model made here."""
    nltk = pytest.importorskip("nltk")
    from nltk.tokenize import _get_punkt_tokenizer
    monkeypatch.setattr(nltk.data, "path", [str(punkt_folder)] + list(nltk.data.path))
    _get_punkt_tokenizer.cache_clear()
    yield
    _get_punkt_tokenizer.cache_clear()


@st.composite
def paragraphs(draw):
    vocab = draw(vocabularies()) + [".", "Mr.", "e.g.", "?", "The", "It"]
    sentences = draw(st.lists(st.lists(st.sampled_from(vocab), min_size=1, max_size=10),
                              max_size=5))
    return draw(st.sampled_from([" ", "\n", "  "])).join(" ".join(s) + "." for s in sentences)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(paragraphs(), paragraphs(), st.booleans(),
       st.lists(st.sampled_from(["rouge1", "rougeL", "rougeLsum"]), min_size=1, max_size=3))
def test_split_summaries_match_rouge_score(punkt, target, prediction, stem, types):
    ours, theirs = oracle_and_ours(types, use_stemmer=stem, split_summaries=True)
    same(ours.score(target, prediction), theirs.score(target, prediction))
    same(ours.score_multi([target, prediction], prediction),
         theirs.score_multi([target, prediction], prediction))


def test_split_summaries_without_punkt_data_raise_nltks_lookup_error(tmp_path, monkeypatch):
    """No punkt_tab model: nltk's own LookupError (which names the download), from the same
    call rouge-score makes, only when rougeLsum is asked."""
    nltk = pytest.importorskip("nltk")
    from nltk.tokenize import _get_punkt_tokenizer
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path)])
    _get_punkt_tokenizer.cache_clear()
    try:
        for scorer in oracle_and_ours(["rougeLsum"], split_summaries=True):
            with pytest.raises(LookupError, match="punkt_tab"):
                scorer.score("One. Two.", "Two. One.")
        ours, theirs = oracle_and_ours(["rouge1", "rougeL"], split_summaries=True)
        same(ours.score("One. Two.", "Two. One."), theirs.score("One. Two.", "Two. One."))
    finally:
        _get_punkt_tokenizer.cache_clear()


# -- tokenizers of the user's ------------------------------------------------------------------------

class Recording:
    """A whitespace tokenizer that records its calls."""

    def __init__(self, transform=str.split):
        self.calls = []
        self.transform = transform

    def tokenize(self, text):
        self.calls.append(text)
        return self.transform(text)


@pytest.mark.parametrize("types", [["rouge1", "rougeLsum", "rouge2"], ["rougeLsum"],
                                   ["rougeL", "rougeLsum", "rougeLsum"], ["rouge3", "rougeL"]])
def test_a_users_tokenizer_is_called_as_rouge_score_calls_it(types):
    target, prediction = "a b c\n\nd e a b", "a c d\ne f a"
    mine, theirs_tok = Recording(), Recording()
    ours = rouge_scorer.RougeScorer(types, tokenizer=mine)
    theirs = theirs_scorer.RougeScorer(types, tokenizer=theirs_tok)
    same(ours.score(target, prediction), theirs.score(target, prediction))
    assert mine.calls == theirs_tok.calls


@pytest.mark.parametrize("transform", [
    list,                                              # characters (Chinese text)
    lambda t: [len(w) for w in t.split()],             # ints
    lambda t: [tuple(w) for w in t.split()],           # tuples
    lambda t: t,                                       # a str: its characters
])
def test_tokens_of_any_hashable_kind(transform):
    target, prediction = "我们 今天 去 北京\n他们 明天 走", "我们 明天 去\n北京 今天"
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    ours = rouge_scorer.RougeScorer(types, tokenizer=Recording(transform))
    theirs = theirs_scorer.RougeScorer(types, tokenizer=Recording(transform))
    same(ours.score(target, prediction), theirs.score(target, prediction))


def test_unhashable_tokens_for_rouge_l_as_rouge_score():
    """rougeL compares tokens by equality only: lists as tokens work there, as in rouge-score;
    the n-gram types need hashable tokens in both."""
    def tok(text):
        return [[w] for w in text.split()]
    ours = rouge_scorer.RougeScorer(["rougeL"], tokenizer=Recording(tok))
    theirs = theirs_scorer.RougeScorer(["rougeL"], tokenizer=Recording(tok))
    same(ours.score("a b c a", "b a c"), theirs.score("a b c a", "b a c"))
    for scorer in (rouge_scorer.RougeScorer(["rouge1"], tokenizer=Recording(tok)),
                   theirs_scorer.RougeScorer(["rouge1"], tokenizer=Recording(tok))):
        with pytest.raises(TypeError, match="unhashable"):
            scorer.score("a b", "b a")


# -- edges -----------------------------------------------------------------------------------------

EDGES = ["", "\n", "\n\n\n", "/", "...\n!!", "中文 文本", "a", "a\n", "\na", "A a A",
         "the the the\nthe", "x y\n\nx y", "İ K"]


@pytest.mark.parametrize("target", EDGES)
@pytest.mark.parametrize("prediction", EDGES)
def test_empty_and_odd_inputs(target, prediction):
    ours, theirs = oracle_and_ours(ALL_TYPES)
    same(ours.score(target, prediction), theirs.score(target, prediction))


def test_non_ascii_text_scores_as_rouge_score_scores_it():
    """Identical Chinese texts score 0 (the default tokenizer keeps [a-z0-9] only), as in
    rouge-score; a tokenizer of one's own fixes it."""
    ours, theirs = oracle_and_ours(["rouge1", "rougeL"])
    same(ours.score("猫坐在垫子上", "猫坐在垫子上"), theirs.score("猫坐在垫子上", "猫坐在垫子上"))
    assert ours.score("猫坐在垫子上", "猫坐在垫子上")["rouge1"].fmeasure == 0.0
    chars = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Recording(list))
    assert chars.score("猫坐在垫子上", "猫坐在垫子上")["rouge1"].fmeasure == 1.0


def test_bytes_as_rouge_score():
    """rouge-score lowercases bytes before decoding them (the Kelvin sign then stays
    uppercase and drops, unlike in a str), and splits rougeLsum's lines after decoding."""
    target, prediction = "The KELVIN \u212a\nİs".encode(), "the kelvin k\nis".encode()
    for types in (["rouge1", "rougeL", "rougeLsum"], ["rougeLsum"]):
        ours, theirs = oracle_and_ours(types, use_stemmer=True)
        same(ours.score(target, prediction), theirs.score(target, prediction))
        same(ours.score(target.decode(), prediction), theirs.score(target.decode(), prediction))


def test_type_names_as_rouge_score_reads_them():
    """rouge-score's pattern is `rouge[0-9]$`: a final newline still matches, and bytes names
    work as n-gram types."""
    for types in (["rouge1\n"], [b"rouge2"], ("rougeL", "rouge1"), ["rougeL", "rougeL"], []):
        ours, theirs = oracle_and_ours(types)
        same(ours.score("a b c d\ne", "a c d e"), theirs.score("a b c d\ne", "a c d e"))


@pytest.mark.parametrize("bad, message", [("rougen", "Invalid rouge type: rougen"),
                                          ("rouge0", "rougen requires positive n: rouge0"),
                                          ("rouge10", "Invalid rouge type: rouge10"),
                                          ("ROUGE1", "Invalid rouge type: ROUGE1")])
def test_invalid_types_raise_rouge_scores_error_when_scoring(bad, message):
    for scorer in oracle_and_ours(["rouge1", bad]):    # made without complaint, as rouge-score
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            scorer.score("a b", "a")


def test_bad_input_rouge_score_would_misscore_is_an_error():
    """A string where score_multi takes a list of targets: rouge-score scores its characters
    as targets (a number, silently wrong); cybleu raises and names the fix."""
    theirs = theirs_scorer.RougeScorer(["rouge1"])
    # the target 'a' (one character of the string) against 'a dog': P 1/2, R 1, F 2/3
    assert theirs.score_multi("a cat", "a dog")["rouge1"].fmeasure == 2 / 3
    with pytest.raises(TypeError, match=r"list of target texts.*pass \[target\]"):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi("a cat", "a dog")
    with pytest.raises(ValueError, match=r"not the string 'rouge1': write \['rouge1'\]"):
        rouge_scorer.RougeScorer("rouge1").score("a", "a")
    with pytest.raises(TypeError, match="the target is list.*score_multi"):
        rouge_scorer.RougeScorer(["rouge1"]).score(["a"], "a")
    with pytest.raises(TypeError, match="the prediction is NoneType, not str"):
        rouge_scorer.RougeScorer(["rouge1"]).score("a", None)
    with pytest.raises(ValueError, match="empty sequence"):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")
    assert rouge_scorer.RougeScorer([]).score_multi([], "a") == {}


def test_rouge_scores_private_helpers_behave_as_theirs():
    ref, can = [1, 2, 3, 4, 5, 2, 3], [2, 5, 3, 4, 2, 1, 3]
    assert rouge_scorer._lcs_table(ref, can) == theirs_scorer._lcs_table(ref, can)
    t = theirs_scorer._lcs_table(ref, can)
    assert rouge_scorer._backtrack_norec(t, ref, can) == theirs_scorer._backtrack_norec(t, ref, can)
    assert rouge_scorer.lcs_ind(ref, can) == theirs_scorer.lcs_ind(ref, can)
    assert rouge_scorer._union_lcs(ref, [can, [3, 2]]) == theirs_scorer._union_lcs(ref, [can, [3, 2]])
    for r, c in (([ref], [can, [5, 5]]), ([["reference"]], [[]]), ([], [["a"]])):
        same({"x": rouge_scorer._summary_level_lcs(r, c)},
             {"x": theirs_scorer._summary_level_lcs(r, c)})
    same({"x": rouge_scorer._score_lcs(ref, can)}, {"x": theirs_scorer._score_lcs(ref, can)})
    same({"x": rouge_scorer._score_lcs([], can)}, {"x": theirs_scorer._score_lcs([], can)})
    a, b = rouge_scorer._create_ngrams(ref, 2), rouge_scorer._create_ngrams(can, 2)
    assert a == theirs_scorer._create_ngrams(ref, 2)
    same({"x": rouge_scorer._score_ngrams(a, b)}, {"x": theirs_scorer._score_ngrams(a, b)})


# -- the kernel and its twin ----------------------------------------------------------------------

KINDS = [("rouge1", 0, 1), ("rouge2", 0, 2), ("rouge4", 0, 4), ("rougeL", 1, 0),
         ("rougeLsum", 2, 0)]


def test_kernel_public_faces_match():
    import inspect
    compiled, python = both_rouge()
    assert compiled.__all__ == python.__all__
    for name in compiled.__all__:
        a, b = getattr(compiled, name), getattr(python, name)
        if callable(a) and not isinstance(a, type):
            assert inspect.signature(a) == inspect.signature(b), name
    for method in ("tokenize", "stats", "score", "score_multi", "score_tokens",
                   "score_sentences", "batch"):
        assert inspect.signature(getattr(compiled.Scorer, method)) == \
            inspect.signature(getattr(python.Scorer, method)), method


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=40), st.lists(st.integers(0, 3), max_size=40),
       st.integers(1, 9))
def test_kernel_statistics_match_the_twin(ref, can, n):
    parity(lambda k: k.ngram_stats(ref, can, n), both_rouge)
    parity(lambda k: k.lcs_stats(ref, can), both_rouge)
    parity(lambda k: k.lcs_indices(ref, can), both_rouge)
    cut = len(ref) // 2
    parity(lambda k: k.summary_lcs_stats([ref[:cut], ref[cut:]], [can, can[1:3]]), both_rouge)


@pytest.mark.parametrize("strips, columns", [(1, 1), (1, 7), (2, 50), (128, 1 << 21)])
def test_long_inputs_take_the_strip_and_checkpoint_paths(strips, columns):
    """Match masks in strips of one word, stored columns replaced by checkpoints and recomputed
    blocks: the same statistics as the twin's full table."""
    import random
    compiled, python = both_rouge()
    rnd = random.Random(strips * 7 + columns)
    old = compiled._set_limits(strips, columns)
    try:
        for _ in range(6):
            m, n = rnd.randint(60, 300), rnd.randint(1, 300)
            ref = [rnd.randint(0, 5) for _ in range(m)]
            can = [rnd.randint(0, 5) for _ in range(n)]
            assert compiled.lcs_stats(ref, can) == python.lcs_stats(ref, can)
            assert compiled.lcs_indices(ref, can) == python.lcs_indices(ref, can)
            sents = [ref[:m // 3], ref[m // 3:]], [can[:n // 2], can[n // 2:]]
            assert compiled.summary_lcs_stats(*sents) == python.summary_lcs_stats(*sents)
    finally:
        compiled._set_limits(*old)


@settings(max_examples=80, deadline=None)
@given(cases())
def test_kernel_scorers_match_the_twin(case):
    prediction, targets, _, stem = case
    make = (lambda k: k.Scorer(KINDS, stem, scoring.Score))
    parity(lambda k: make(k).stats(targets[0], prediction), both_rouge)
    parity(lambda k: make(k).score_multi(targets, prediction), both_rouge)
    parity(lambda k: list(make(k).batch([prediction, prediction], [targets[0], targets], 2)),
           both_rouge)
    lines = targets[0].split("\n")
    parity(lambda k: make(k).score_sentences(targets[0], prediction, lines, lines[::-1]),
           both_rouge)
    parity(lambda k: make(k).tokenize(prediction), both_rouge)


def test_kernel_errors_match_the_twin():
    for call in (lambda k: k.Scorer(KINDS, False, scoring.Score).score(None, "a"),
                 lambda k: k.Scorer(KINDS, False, scoring.Score).batch(["a"], ["a", "b"]),
                 lambda k: k.Scorer(KINDS, False, scoring.Score).batch(["a"], [[]]),
                 lambda k: k.Scorer(KINDS, False, scoring.Score).batch(["a"], [[1]]),
                 lambda k: k.Scorer(KINDS, False, scoring.Score).batch(["a"], ["a"], 0),
                 lambda k: k.Scorer([("x", 0, 10)], False, scoring.Score),
                 lambda k: k.Scorer(KINDS, False, scoring.Score).score_multi([], "a"),
                 lambda k: k.ngram_stats([1], [1], 0)):
        with pytest.raises((TypeError, ValueError)):
            parity(call, both_rouge)


# -- memory, threads -------------------------------------------------------------------------------

def test_no_memory_growth_across_many_calls():
    import tracemalloc
    compiled, _ = both_rouge()
    if cybleu.BACKEND != "cython":
        pytest.skip("a leak check of the compiled core (10^5 calls of the twin take minutes)")
    ref, hyp, _ = english_lines()
    targets, predictions = documents(ref, 3, 50), documents(hyp, 3, 50)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                      use_stemmer=True)
    for t, p in zip(targets, predictions):
        scorer.score(t, p)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for i in range(100_000):
            scorer.score(targets[i % 50], predictions[i % 50])
            if i % 20_000 == 0:
                with pytest.raises(TypeError):
                    scorer.score(None, "x")
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert after - before < 64 * 1024, (before, after)


def test_threads_sharing_one_scorer_get_the_numbers_of_one_thread():
    """Long pairs run without the GIL; a second thread that calls the same scorer meanwhile
    gets a workspace of its own."""
    both_rouge()   # the compiled path (the twin would take minutes on these pairs)
    if cybleu.BACKEND != "cython":
        pytest.skip("the GIL is released by the compiled kernel only")
    ref, hyp, _ = english_lines()
    big_t, big_p = "\n".join(ref[:800]), "\n".join(hyp[:800])
    scorer = rouge_scorer.RougeScorer(["rouge2", "rougeL"], use_stemmer=True)
    want = scorer.score(big_t, big_p)
    got = []

    def work():
        for _ in range(3):
            got.append(scorer.score(big_t, big_p))

    threads = [threading.Thread(target=work) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert got == [want] * 9


def test_public_names():
    assert cybleu.rouge_score.rouge_scorer.RougeScorer is rouge_scorer.RougeScorer
    for mod in (rouge_scorer, scoring, tokenize, tokenizers):
        assert mod.__name__.startswith("cybleu.rouge_score.")
