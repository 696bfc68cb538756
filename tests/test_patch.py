"""patch_sacrebleu() / patch_nltk(): the installed libraries, patched, give exactly what they give
unpatched (sacreBLEU's own test cases, random corpora, its errors and warnings), and unpatching
gives them their code back."""
import logging
import pickle
import warnings

import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics.bleu import BLEUScore
from sacrebleu.metrics.chrf import CHRFScore
from sacrebleu.metrics.ter import TERScore

import cybleu
import cybleu.patch as patch_module
from cybleu._kernels import core_py as _core_py
from conftest import (bits, _chrf_c, _chrf_py, _core_c, _ter_c, _ter_py, data_path,
                      evaluate_metric_script, read_lines)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[
    HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

CORES = [pytest.param((_core_py, _chrf_py, _ter_py), id="python")] + (
    [pytest.param((_core_c, _chrf_c, _ter_c), id="cython")] if _core_c is not None else [])


@pytest.fixture(params=CORES)
def core(request, monkeypatch):
    """The patch running on one backend; never left patched after a test."""
    monkeypatch.setattr(patch_module, "core", request.param[0])
    monkeypatch.setattr(patch_module, "_chrf", request.param[1])
    monkeypatch.setattr(patch_module, "_ter", request.param[2])
    yield request.param[0]
    cybleu.unpatch_sacrebleu()
    cybleu.unpatch_nltk()


@pytest.fixture(autouse=True)
def quiet_sacrebleu():
    logger = logging.getLogger("sacrebleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def fields(score):
    """Everything a BLEUScore carries, floats as their bits."""
    return (bits(score.score), score.counts, score.totals, [bits(p) for p in score.precisions],
            bits(score.bp), score.sys_len, score.ref_len, bits(float(score.ratio)), score.format(),
            score.format(is_json=True, signature="x:1"), bits(score._mean), bits(score._ci))


def chrf_fields(score):
    return (score.name, bits(score.score), score.format(), bits(score._mean), bits(score._ci))


def ter_fields(score):
    return (score.name, bits(score.score), score.num_edits, bits(score.ref_length),
            score.format(), bits(score._mean), bits(score._ci))


def ter_rows(rows):
    """TER's segment statistics, floats as their bits (and their types: int, float)."""
    return [(type(e), e, type(r), bits(r)) for e, r in rows]


def outcome(call):
    """call()'s result, or its exception's type and message."""
    try:
        result = call()
        if isinstance(result, CHRFScore):
            return "ok", chrf_fields(result)
        if isinstance(result, TERScore):
            return "ok", ter_fields(result)
        return "ok", fields(result) if isinstance(result, BLEUScore) else result
    except Exception as err:  # noqa: BLE001 - the comparison is the point
        return "error", (type(err), str(err))


def both(call):
    """call() unpatched, then patched: the same result (or the same error)."""
    want = outcome(call)
    with cybleu.patched():
        got = outcome(call)
    assert got == want
    return want


def score_of(metric_call):
    return metric_call


# -- sacreBLEU's own test cases (test/test_bleu.py and test/test_sentence_bleu.py of sacreBLEU 2.6.0,
#    the cases recreated here; the expected values are theirs) --------------------------------------

EPSILON = 1e-8
_refs = [
    ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
    ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
]
_hyps = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.']

RAW_CASES = [(["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
             (["this is a test"], [["this is a test"]], 1.0),
             (["this is a fest"], [["this is a test"]], 0.223606797749979),
             (["test"], [["a test"]], 0.3678794411714425),          # effective order
             (["a test"], [["a test"]], 1.0),
             (["a little test"], [["a test"]], 0.03218297948685433)]
CORPUS_CASES = [(_hyps, _refs, {}, 48.530827),
                (('', '', ''), _refs, {}, 0.0),
                (_hyps, _refs, {'tokenize': 'none'}, 49.1919566),
                (_hyps, _refs, {'tokenize': '13a'}, 48.530827),
                (_hyps, _refs, {'tokenize': 'intl'}, 43.91623493),
                (_hyps, _refs, {'smooth_method': 'none'}, 48.530827)]
MAX_ORDER_CASES = [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")]
OFFSET_HYP, OFFSET_REF = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]

REF, SYS = "producţia de zahăr brut se exprimă în zahăr alb;", \
    "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
SENTENCE_CASES = [('exp', None, False, '13a', 8.493), ('none', None, False, '13a', 0.0),
                  ('floor', None, False, '13a', 4.51688), ('floor', 0.1, False, '13a', 4.51688),
                  ('floor', 0.5, False, '13a', 10.10), ('add-k', None, False, '13a', 14.882),
                  ('add-k', 1, False, '13a', 14.882), ('add-k', 2, False, '13a', 21.389),
                  ('exp', None, False, 'none', 7.347), ('exp', None, False, 'intl', 8.493),
                  ('exp', None, False, 'char', 40.8759), ('exp', None, True, 'char', 42.0267)]
ZERO_CASES = [('exp', None), ('none', None), ('floor', None), ('floor', 0.1), ('add-k', None),
              ('add-k', 1)]


@pytest.mark.parametrize("hyps, refs, expected", RAW_CASES)
def test_sacrebleu_raw_bleu_cases(core, hyps, refs, expected):
    want = both(score_of(lambda: sacrebleu.raw_corpus_bleu(hyps, refs, .01)))
    with cybleu.patched():
        assert abs(sacrebleu.raw_corpus_bleu(hyps, refs, .01).score / 100 - expected) < EPSILON
    assert want[0] == "ok"


@pytest.mark.parametrize("hyps, refs, kwargs, expected", CORPUS_CASES)
def test_sacrebleu_corpus_bleu_cases(core, hyps, refs, kwargs, expected):
    both(score_of(lambda: sacrebleu.corpus_bleu(hyps, refs, **kwargs)))
    with cybleu.patched():
        assert abs(sacrebleu.corpus_bleu(hyps, refs, **kwargs).score - expected) < EPSILON


@pytest.mark.parametrize("order, expected", MAX_ORDER_CASES)
def test_sacrebleu_max_order_cases(core, order, expected):
    both(score_of(lambda: SacreBLEU(max_ngram_order=order).corpus_score(_hyps, _refs)))
    with cybleu.patched():
        assert f"{SacreBLEU(max_ngram_order=order).corpus_score(_hyps, _refs).score:.2f}" \
            == expected


def test_sacrebleu_statistics_and_offset_cases(core):
    both(score_of(lambda: sacrebleu.raw_corpus_bleu(OFFSET_HYP, OFFSET_REF, .01)))
    with cybleu.patched():
        result = sacrebleu.raw_corpus_bleu(OFFSET_HYP, OFFSET_REF, .01)
        assert (result.counts, result.totals) == ([4, 2, 1, 0], [6, 5, 4, 3])
        assert sacrebleu.raw_corpus_bleu(OFFSET_HYP, OFFSET_REF, 0.0).score == 0.0
        for value in ((None,), ()):
            assert abs(sacrebleu.raw_corpus_bleu(OFFSET_HYP, OFFSET_REF, *value).score / 100
                       - 0.1555722182) < EPSILON
    for value in (0.0, None):
        both(score_of(lambda: sacrebleu.raw_corpus_bleu(OFFSET_HYP, OFFSET_REF, value)))


@pytest.mark.parametrize("smooth_method, smooth_value, lowercase, tok, expected", SENTENCE_CASES)
def test_sacrebleu_sentence_bleu_cases(core, smooth_method, smooth_value, lowercase, tok, expected):
    def compat():
        return sacrebleu.compat.sentence_bleu(SYS, [REF], smooth_method=smooth_method,
                                              smooth_value=smooth_value, tokenize=tok,
                                              lowercase=lowercase, use_effective_order=True)

    def api():
        return SacreBLEU(lowercase=lowercase, force=False, tokenize=tok,
                         smooth_method=smooth_method, smooth_value=smooth_value,
                         effective_order=True).sentence_score(SYS, [REF])

    for call in (compat, api):
        both(score_of(call))
        with cybleu.patched():
            assert abs(call().score - expected) < 1e-3


@pytest.mark.parametrize("smooth_method, smooth_value", ZERO_CASES)
def test_sacrebleu_sentence_bleu_zero_cases(core, smooth_method, smooth_value):
    def call():
        return SacreBLEU(smooth_method=smooth_method, smooth_value=smooth_value,
                         effective_order=True).sentence_score("this is a cat", ["okay thanks"])

    both(score_of(call))
    with cybleu.patched():
        assert call().score == 0.0


# -- random corpora ------------------------------------------------------------------------------

WORDS = st.sampled_from(["a", "b", "the", "cat", ".", ",", "A", "İ", "3.14", "-", "x-y", "&amp;",
                         "猫", "ß", "\u00a0", "\t", " ."])
LINE = st.lists(WORDS, max_size=12).map(" ".join) | st.text(max_size=15)


@st.composite
def corpora(draw, line=LINE):
    n = draw(st.integers(1, 6))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    n_streams = draw(st.integers(1, 3))
    # streams of other lengths too: sacreBLEU truncates to the shortest, and so must the patch
    streams = [draw(st.lists(st.none() | line, min_size=max(n - 1, 1), max_size=n + 1))
               for _ in range(n_streams)]
    return hyps, streams


OPTIONS = st.fixed_dictionaries({
    "tokenize": st.sampled_from(["13a", "none", "intl", "zh", "char"]),
    "lowercase": st.booleans(),
    "smooth_method": st.sampled_from(["exp", "none", "floor", "add-k"]),
    "max_ngram_order": st.integers(1, 5),
    "effective_order": st.booleans(),
})


@SETTINGS
@given(corpus=corpora(), options=OPTIONS)
def test_random_corpora_patched_equal_unpatched(core, corpus, options):
    hyps, streams = corpus
    both(score_of(lambda: SacreBLEU(**options).corpus_score(hyps, streams)))
    both(lambda: SacreBLEU(**options)._extract_corpus_statistics(hyps, streams))

    def cached():
        metric = SacreBLEU(**options, references=streams)
        return fields(metric.corpus_score(hyps, None)), str(metric.get_signature())

    both(cached)
    both(lambda: str(SacreBLEU(**options).sentence_score(hyps[0], [s[0] for s in streams])))


@SETTINGS
@given(corpus=corpora())
def test_bootstrap_and_signature_patched_equal_unpatched(core, corpus):
    hyps, streams = corpus

    def call():
        metric = SacreBLEU()
        score = metric.corpus_score(hyps, streams, n_bootstrap=20)
        return fields(score), str(metric.get_signature())

    both(call)


def test_sacrebleu_errors_stay_sacrebleus(core):
    cases = [
        lambda: sacrebleu.corpus_bleu(["a", 3], [["a", "b"]]),           # not a string
        lambda: sacrebleu.corpus_bleu(["a b"], [[None]]),                # no reference at all
        lambda: sacrebleu.corpus_bleu([""], [[None]]),                   # ... with an empty hyp
        lambda: sacrebleu.corpus_bleu(["a"], [["a", b"b"]]),
        lambda: sacrebleu.corpus_bleu(["a"], [[]]),                      # no segment
        lambda: sacrebleu.corpus_bleu(["a"], ["a"]),                     # a flat list
        lambda: sacrebleu.corpus_bleu([], [["a"]]),
        lambda: SacreBLEU().corpus_score(["a"], None),                   # no cache
        lambda: SacreBLEU(references=[["a b", "c"]]).corpus_score(["a b"], None),
        lambda: sacrebleu.corpus_bleu(["a", "b"], [["x", "y"], []]),     # zip: no segment
        lambda: SacreBLEU()._extract_corpus_statistics(["a", b"b ."], [["a", "b"]]),
        lambda: SacreBLEU(tokenize="ja-mecab")._extract_corpus_statistics(["a", 3], [["a", "b"]]),
    ]
    for call in cases:
        both(call)


def test_generic_route_custom_tokenizer(core):
    """A tokenizer the core does not have runs as sacreBLEU calls it; the core counts."""
    class Reversing(SacreBLEU):
        def _preprocess_segment(self, sent):
            return " ".join(reversed(super()._preprocess_segment(sent).split()))

    calls = []

    def record(metric):
        if cybleu.is_patched():
            route = patch_module._patches["bleu"].route(metric)
            calls.append(None if route is None else route.segmenter is None)
        return fields(metric.corpus_score(_hyps, _refs))

    both(lambda: record(Reversing(lowercase=True)))
    assert calls == [False]          # patched, on the generic route

    def other_tokenizer():
        metric = SacreBLEU()
        metric.tokenizer = type("Upper", (), {"__call__": lambda self, s: s.upper(),
                                              "signature": lambda self: "upper"})()
        return fields(metric.corpus_score(_hyps, _refs))

    both(other_tokenizer)


def test_overridden_counting_runs_sacrebleus_code(core):
    seen = []

    class Counting(SacreBLEU):
        def _compute_segment_statistics(self, hypothesis, ref_kwargs):
            seen.append(hypothesis)
            return super()._compute_segment_statistics(hypothesis, ref_kwargs)

    both(score_of(lambda: Counting().corpus_score(_hyps, _refs)))
    assert len(seen) == 2 * len(_hyps)    # unpatched and patched both ran sacreBLEU's loop


def spy_core(monkeypatch):
    """The names the patch calls on the core (module functions and RefSet methods), in order."""
    calls, real = [], patch_module.core

    class Counted:
        def __init__(self, refset):
            self.refset = refset

        def __getattr__(self, name):
            calls.append(name)
            return getattr(self.refset, name)

    class Spy:
        def __getattr__(self, name):
            calls.append(name)
            if name == "RefSet":
                return lambda *args: Counted(real.RefSet(*args))
            return getattr(real, name)

    monkeypatch.setattr(patch_module, "core", Spy())
    return calls


def test_corpus_score_without_bootstrap_sums_in_the_kernel(core, monkeypatch):
    """corpus_score with no bootstrap takes the kernel's column sums (no row per segment); with a
    bootstrap, or when some segments have no hypothesis, the rows, as sacreBLEU keeps them."""
    calls = spy_core(monkeypatch)
    refs = [["a b c d", "x y z .", "q r"], ["a b d", "x y", "q r s"]]
    hyps = ["a b c", "x y z .", "q"]
    both(lambda: SacreBLEU().corpus_score(hyps, refs))
    assert calls == ["RefSet", "corpus_stats"]          # the references prepared, kept (memo)
    calls.clear()
    both(lambda: SacreBLEU(references=refs).corpus_score(hyps, None))
    assert calls == ["RefSet", "corpus_stats"]          # the metric's own cache
    calls.clear()
    both(lambda: SacreBLEU().corpus_score(hyps, refs, n_bootstrap=4))
    assert calls == ["RefSet", "segment_stats"]         # every row
    calls.clear()
    both(lambda: SacreBLEU().corpus_score(hyps[:2], refs))
    assert calls == ["RefSet", "segment_stats"]         # a missing hypothesis: its row dropped
    calls.clear()
    both(lambda: SacreBLEU(tokenize="none", max_ngram_order=2).corpus_score(hyps, [refs[0]]))
    assert calls == ["RefSet", "corpus_stats"]
    calls.clear()
    both(lambda: SacreBLEU().corpus_score(hyps, [[Text(r) for r in refs[0]], refs[1]]))
    assert calls == ["corpus_stats"]                    # a str subclass: not kept
    calls.clear()
    both(lambda: SacreBLEU().corpus_score(["a b c"], [["a b c"]]))
    assert calls == ["RefSet", "corpus_stats"]          # one segment: sum_of_lists' one row
    for n_bootstrap in (0, -3, True, 1.0, 2.5, None, "2"):
        both(lambda: SacreBLEU().corpus_score(hyps, refs, n_bootstrap=n_bootstrap))


def test_corpus_score_honours_overridden_steps(core):
    """A subclass (or an instance) that overrides a step of corpus_score gets it called with what
    sacreBLEU would give it: the per-segment rows, the whole hypothesis stream."""
    refs = [["a b c d", "x y z", "q r"]]
    hyps = ["a b c", "x y z", "q"]
    seen = []

    class Rows(SacreBLEU):
        def _aggregate_and_compute(self, stats):
            seen.append(("aggregate", [list(row) for row in stats]))
            return super()._aggregate_and_compute(stats)

    class Checked(SacreBLEU):
        def _check_corpus_score_args(self, hyps, refs):
            seen.append(("check", list(hyps)))
            return super()._check_corpus_score_args(hyps, refs)

    class Extracted(SacreBLEU):
        def _extract_corpus_statistics(self, hypotheses, references):
            rows = super()._extract_corpus_statistics(hypotheses, references)
            seen.append(("extract", [list(row) for row in rows]))
            return rows

    class Scored(SacreBLEU):
        def corpus_score(self, hypotheses, references, n_bootstrap=1):
            seen.append(("corpus_score", n_bootstrap))
            return super().corpus_score(hypotheses, references, n_bootstrap)

    def instance():
        metric = SacreBLEU()
        metric._aggregate_and_compute = lambda stats: seen.append(("own", len(stats))) \
            or SacreBLEU._aggregate_and_compute(metric, stats)
        return fields(metric.corpus_score(hyps, refs))

    for call in (lambda: Rows().corpus_score(hyps, refs),
                 lambda: Checked().corpus_score(hyps, refs),
                 lambda: Extracted().corpus_score(hyps, refs),
                 lambda: Scored().corpus_score(hyps, refs), instance):
        seen.clear()
        both(call)
        assert seen[:len(seen) // 2] == seen[len(seen) // 2:] != []   # unpatched, then patched


def test_corpus_score_argument_errors_stay_sacrebleus(core):
    class Line(str):
        pass

    for hyps in (["a", None], ("a b", "x y"), [Line("a b"), Line("x")], iter(["a", "b"]), [],
                 ["a", 3], [None, "a"], "ab", [b"a", b"b"]):
        both(lambda: sacrebleu.corpus_bleu(hyps, [["a b", "x y"]]))
        both(lambda: sacrebleu.corpus_chrf(hyps, [["a b", "x y"]]))
        both(lambda: sacrebleu.corpus_ter(hyps, [["a b", "x y"]]))


def test_unpatch_restores_sacrebleu(core):
    names = ("_extract_corpus_statistics", "_cache_references", "_aggregate_and_compute",
             "corpus_score")
    before = {(cls, name): cls.__dict__.get(name) for cls in (SacreBLEU, SacreCHRF, SacreTER)
              for name in names}
    cybleu.patch_sacrebleu()
    cybleu.patch_sacrebleu()        # twice is once
    assert cybleu.is_patched("sacrebleu")
    metric = SacreBLEU(references=_refs)
    assert isinstance(metric._ref_cache, patch_module._CachedReferences)
    want = fields(metric.corpus_score(_hyps, None))
    cybleu.unpatch_sacrebleu()
    assert not cybleu.is_patched("sacrebleu")
    assert {(cls, name): cls.__dict__.get(name) for cls, name in before} == before
    # a cache made while patched still serves sacreBLEU's own code, and pickles as sacreBLEU's
    assert fields(metric.corpus_score(_hyps, None)) == want
    copy = pickle.loads(pickle.dumps(metric))
    assert type(copy._ref_cache) is list
    assert fields(copy.corpus_score(_hyps, None)) == want
    with cybleu.patched():
        assert fields(copy.corpus_score(_hyps, None)) == want


def test_context_manager_keeps_earlier_patch(core):
    with pytest.raises(ValueError, match="cannot patch 'fairseq'"):
        with cybleu.patched("fairseq"):
            pass
    cybleu.patch_sacrebleu()
    with cybleu.patched("sacrebleu"):
        assert cybleu.is_patched("sacrebleu")
    assert cybleu.is_patched("sacrebleu")
    nltk_modules()      # the rest patches nltk: a skip without it
    with cybleu.patched("sacrebleu", "nltk"):
        assert cybleu.is_patched("nltk")
    assert cybleu.is_patched("sacrebleu") and not cybleu.is_patched("nltk")


def test_warnings_go_through_sacrebleus_logger(core, caplog):
    hyps = ["a b ."] * 100 + ["c"]
    refs = [["a b"] * 101]
    logging.getLogger("sacrebleu").setLevel(logging.WARNING)

    def run():
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sacrebleu"):
            sacrebleu.corpus_bleu(hyps, refs)
            SacreBLEU(trg_lang="zh", tokenize="13a")
            SacreBLEU().sentence_score("a", ["a"])
        return [(r.name, r.levelno, r.getMessage()) for r in caplog.records]

    want = run()
    assert len(want) == 5 and all(name == "sacrebleu" for name, _, _ in want)
    with cybleu.patched():
        assert run() == want
        # quieting sacreBLEU quiets cybleu's own messages while patched
        logging.getLogger("sacrebleu").setLevel(logging.ERROR)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="cybleu"):
            cybleu.BLEU().sentence_score("a", ["a"])
        assert caplog.records == []
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        cybleu.BLEU().sentence_score("a", ["a"])
    assert [r.name for r in caplog.records] == ["cybleu"]


def test_wmt22_system_patched_equal_unpatched(core):
    base = data_path("wmt", "wmt22", "en-de")
    refs = read_lines(base / "ref.A.txt")[:400]
    refs_b = read_lines(base / "ref.B.txt")[:400]
    system = sorted((base / "sys").glob("*.txt"))[0]
    hyps = read_lines(system)[:400]
    both(score_of(lambda: sacrebleu.corpus_bleu(hyps, [refs, refs_b])))
    both(score_of(lambda: sacrebleu.corpus_bleu(hyps, [refs], tokenize="intl", lowercase=True)))


def fresh(lines):
    """Equal strings that are new objects, as evaluate hands them over at every call."""
    return [line.encode("utf-8").decode("utf-8") for line in lines]


def count_prepares(monkeypatch):
    """How often the patch prepares (tokenizes) a reference set, by route class name."""
    calls = {}
    for route in (patch_module._BleuRoute, patch_module._TerRoute):
        def prepare(self, segments, _original=route.prepare):
            calls[type(self).__name__] = calls.get(type(self).__name__, 0) + 1
            return _original(self, segments)
        monkeypatch.setattr(route, "prepare", prepare)
    return calls


def test_repeated_references_are_tokenized_once(core, monkeypatch):
    base = data_path("wmt", "wmt22", "en-de")
    refs = read_lines(base / "ref.A.txt")[:300]
    systems = [read_lines(p)[:300] for p in sorted((base / "sys").glob("*.txt"))[:3]]
    want = [(fields(sacrebleu.corpus_bleu(h, [refs])), ter_fields(sacrebleu.corpus_ter(h, [refs])))
            for h in systems]
    calls = count_prepares(monkeypatch)
    with cybleu.patched():
        got = [(fields(sacrebleu.corpus_bleu(h, [fresh(refs)])),
                ter_fields(sacrebleu.corpus_ter(h, [fresh(refs)]))) for h in systems]
        assert len(patch_module._memo.entries) == 2
    assert got == want
    assert calls == {"_BleuRoute": 1, "_TerRoute": 1}
    assert not patch_module._memo.entries       # unpatching drops them


def test_reference_memo_keys_on_settings_and_content(core, monkeypatch):
    base = data_path("wmt", "wmt22", "en-de")
    refs = read_lines(base / "ref.A.txt")[:200]
    hyps = read_lines(sorted((base / "sys").glob("*.txt"))[0])[:200]
    changed = list(refs)
    changed[7] = "Ein ganz anderer Satz."
    calls = [lambda: sacrebleu.corpus_bleu(hyps, [refs]),
             lambda: sacrebleu.corpus_bleu(hyps, [refs], tokenize="intl"),
             lambda: sacrebleu.corpus_bleu(hyps, [refs], lowercase=True),
             lambda: sacrebleu.corpus_bleu(hyps, [refs], force=True),
             lambda: sacrebleu.corpus_bleu(hyps, [changed]),
             lambda: sacrebleu.corpus_bleu(hyps, [refs, changed]),
             lambda: sacrebleu.corpus_ter(hyps, [refs], case_sensitive=True),
             lambda: sacrebleu.corpus_ter(hyps, [refs])]
    want = [outcome(call) for call in calls]
    prepares = count_prepares(monkeypatch)
    with cybleu.patched():
        # twice over, in an order that makes every entry meet the others' references
        got = [outcome(call) for call in calls + calls[::-1]]
        assert len(patch_module._memo.entries) == patch_module._ReferenceMemo.SIZE
    assert got == want + want[::-1]
    # Forwards: 5 BLEU sets (force only changes a warning: it shares the defaults' entry) and 2 TER
    # sets, of which the last 4 are kept. Backwards: those 4 are served, then force and
    # lowercase and intl are prepared again (evicted), and the defaults meet force's new entry.
    assert prepares == {"_BleuRoute": 8, "_TerRoute": 2}


class Text(str):
    """A str subclass: equal to its plain twin, so the memo must not key on it."""


def test_reference_memo_skips_odd_references_and_custom_segmenters(core, monkeypatch):
    refs = ["The cat sat on the mat.", "A dog barked twice ."]
    hyps = ["The cat sat on a mat.", "A dog barked ."]
    calls = count_prepares(monkeypatch)
    with cybleu.patched():
        both(lambda: sacrebleu.corpus_bleu(hyps, [[Text(r) for r in refs]]))
        assert not patch_module._memo.entries
    metric = SacreBLEU()
    metric._preprocess_segment = lambda line: line.upper()
    both(lambda: metric.corpus_score(hyps, [refs]))
    with cybleu.patched():
        metric.corpus_score(hyps, [refs])
        assert not patch_module._memo.entries
    assert calls == {}


# -- chrF and chrF++ (sacreBLEU's test_chrf.py cases, recreated; the expected values are theirs) --

CHRF_EPSILON = 1e-4
CHRF_SENTENCES = [
    ('Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.',
     ['Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře.'],
     39.14078509),
    ('Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.',
     ['A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři.'], 31.22557079),
    ('Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.',
     ['Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli.'],
     57.15704367),
]
CHRF_EPS_CASES = [
    (["abcdefg"], ["hijklmnop"], 0.0), (["a"], ["b"], 0.0), ([""], ["b"], 0.0),
    ([""], ["ref"], 0.0), ([""], ["reference"], 0.0), (["aa"], ["ab"], 8.3333),
    (["a", "b"], ["a", "c"], 8.3333), (["a"], ["a"], 16.6667), (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector - "
      "these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - "
      "that is the scientists ."], 63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
     64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"],
     ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]
CHRF_EFFECTIVE_CASES = [(["a"], ["a"], 100.0), ([""], ["reference"], 0.0),
                        (["a b c"], ["a b c"], 100.0), (["a b c"], ["abc"], 100.0),
                        ([""], ["c"], 0.0), (["a", "b"], ["a", "c"], 50.0),
                        (["aa"], ["ab"], 25.0)]
CHRF_WHITESPACE_CASES = [
    (["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."],
     67.3481606),
    (["risk assessment must be made of those who are qualified and expertise in the sector - "
      "these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - "
      "that is the scientists ."], 65.2414427),
]


@pytest.mark.parametrize("hyps, refs, expected", CHRF_EPS_CASES)
def test_sacrebleu_chrf_cases(core, hyps, refs, expected):
    def call():
        return sacrebleu.corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3,
                                     eps_smoothing=True)

    both(call)
    with cybleu.patched():
        assert abs(call().score - expected) < CHRF_EPSILON


@pytest.mark.parametrize("hyps, refs, expected", CHRF_EFFECTIVE_CASES)
def test_sacrebleu_chrf_effective_order_cases(core, hyps, refs, expected):
    def call():
        return sacrebleu.corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3,
                                     eps_smoothing=False)

    both(call)
    with cybleu.patched():
        assert abs(call().score - expected) < CHRF_EPSILON


@pytest.mark.parametrize("hyps, refs, expected", CHRF_WHITESPACE_CASES)
def test_sacrebleu_chrf_whitespace_cases(core, hyps, refs, expected):
    def call():
        return sacrebleu.corpus_chrf(hyps, [refs], char_order=6, word_order=0, beta=3,
                                     remove_whitespace=False)

    both(call)
    with cybleu.patched():
        assert abs(call().score - expected) < CHRF_EPSILON


@pytest.mark.parametrize("hyp, refs, expected", CHRF_SENTENCES)
def test_sacrebleu_chrf_sentence_cases(core, hyp, refs, expected):
    both(lambda: sacrebleu.sentence_chrf(hyp, refs, eps_smoothing=True))
    with cybleu.patched():
        assert abs(sacrebleu.sentence_chrf(hyp, refs, eps_smoothing=True).score - expected) \
            < CHRF_EPSILON


CHRF_OPTIONS = st.fixed_dictionaries({
    "char_order": st.integers(0, 6), "word_order": st.integers(0, 2),
    "beta": st.sampled_from([1, 2, 3, 0.5]), "lowercase": st.booleans(),
    "whitespace": st.booleans(), "eps_smoothing": st.booleans(),
})


@SETTINGS
@given(corpus=corpora(), options=CHRF_OPTIONS)
def test_random_corpora_chrf_patched_equal_unpatched(core, corpus, options):
    hyps, streams = corpus
    if options["char_order"] + options["word_order"] == 0:
        options["char_order"] = 1
    both(lambda: SacreCHRF(**options).corpus_score(hyps, streams))
    both(lambda: SacreCHRF(**options)._extract_corpus_statistics(hyps, streams))

    def cached():
        metric = SacreCHRF(**options, references=streams)
        return chrf_fields(metric.corpus_score(hyps, None)), str(metric.get_signature())

    both(cached)
    both(lambda: SacreCHRF(**options).sentence_score(hyps[0], [s[0] for s in streams]))
    both(lambda: SacreCHRF(**options).corpus_score(hyps, streams, n_bootstrap=10))


def test_chrf_routes_and_errors(core):
    import numpy as np
    calls = []
    kernel = patch_module._chrf

    class Spy:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(kernel, name)

    patch_module._chrf = Spy()
    try:
        hyps, refs = ["a b c", "x"], [["a b d", "y"], ["a c", None]]
        both(lambda: SacreCHRF(word_order=2).corpus_score(hyps, refs))
        assert calls == ["corpus_stats"]           # patched: the kernel's column sums
        calls.clear()
        both(lambda: SacreCHRF(word_order=2).corpus_score(hyps, refs, n_bootstrap=5))
        assert calls == ["segment_stats"]          # the bootstrap resamples the segments' rows
        calls.clear()
        both(lambda: SacreCHRF(beta=np.float32(2)).corpus_score(hyps, refs))
        assert calls == []                          # numpy beta: sacreBLEU's own code

        class Custom(SacreCHRF):
            def _remove_punctuation(self, sent):
                return sent.split()

        both(lambda: Custom(word_order=2).corpus_score(hyps, refs))
        assert calls == []
    finally:
        patch_module._chrf = kernel
    for call in (lambda: sacrebleu.corpus_chrf(["a", 3], [["a", "b"]]),
                 lambda: sacrebleu.corpus_chrf(["a b"], [[None]]),
                 lambda: sacrebleu.corpus_chrf(["a"], [["a", b"b"]]),
                 lambda: SacreCHRF(references=[["a", None]]).corpus_score(["a", "b"], None),
                 lambda: SacreCHRF().corpus_score(["a"], None)):
        both(call)


# -- TER (sacreBLEU 2.6.0's test/test_ter.py cases, and the tokenizer cases of its
#    test/test_tokenizer_ter.py as sentence scores; recreated, the expected values are theirs) -----

TER_EPSILON = 1e-3
TER_CASES = [
    (['aaaa bbbb cccc dddd'], ['aaaa bbbb cccc dddd'], 0),      # perfect match
    (['dddd eeee ffff'], ['aaaa bbbb cccc'], 1),                # no overlap
    ([''], ['a'], 1),                                           # corner case, empty hypothesis
    (['d e f g h a b c'], ['a b c d e f g h'], 1 / 8),          # a single shift fixes MT
    ([
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        'oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere '
        'Größe .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü '
        'des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu '
        '. "',
    ], [
        'wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen '
        'oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten '
        'wird .',
        'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü '
        'des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
        'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert '
        '" und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte '
        'ein .',
        'Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über '
        'die Bühne bewegt .',
        'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu '
        '. "',
    ], 0.136),                                  # realistic example from WMT dev data (2019)
]
# (TercomTokenizer options, input, sacreBLEU's tokenized output)
TER_TOKENIZER_CASES = [
    ({}, "a b c d", "a b c d"), ({}, "", ""), ({}, "a b c d.", "a b c d."),
    ({}, "A B C D.", "a b c d."),
    ({"no_punct": True}, "a b c d.", "a b c d"), ({"no_punct": True}, "A ; B ) C : D.", "a b c d"),
    ({"normalized": True}, "a b (c) d.", "a b ( c ) d ."),
    ({"normalized": True}, "Jim's car.", "jim 's car ."), ({"normalized": True}, "4.2", "4.2"),
    ({"normalized": True, "asian_support": True}, "美众院公布对特", "美 众 院 公 布 对 特"),
    ({"normalized": True, "asian_support": True}, "りの拳銃を持", "りの 拳 銃 を 持"),
]


@pytest.mark.parametrize("hyps, refs, expected", TER_CASES)
def test_sacrebleu_ter_cases(core, hyps, refs, expected):
    def call():
        return SacreTER().corpus_score(hyps, [refs])

    both(call)
    both(lambda: sacrebleu.corpus_ter(hyps, [refs]))
    with cybleu.patched():
        assert abs(call().score - 100 * expected) < TER_EPSILON


@pytest.mark.parametrize("options, line, tokenized", TER_TOKENIZER_CASES)
def test_sacrebleu_ter_tokenizer_cases(core, options, line, tokenized):
    """The tokenizer's output against its input (and the other way round): sacreBLEU's TER
    tokenizes both sides (the reference twice), so TER is 0 when the tokenizer gives the output."""
    for hyp, ref in ((line, tokenized), (tokenized, line)):
        want = both(lambda: sacrebleu.sentence_ter(hyp, [ref], **options))
        assert want[0] == "ok" and want[1][1] == bits(0.0)
        both(lambda: ter_rows(SacreTER(**options)._extract_corpus_statistics([hyp], [[ref]])))


TER_LINE = st.lists(st.sampled_from(["a", "b", "c", "d", "a .", "A", "b,"]), max_size=24).map(
    " ".join) | LINE
TER_OPTIONS = st.fixed_dictionaries({
    "normalized": st.booleans(), "no_punct": st.booleans(), "asian_support": st.booleans(),
    "case_sensitive": st.booleans(),
})


@SETTINGS
@given(corpus=corpora(TER_LINE), options=TER_OPTIONS)
def test_random_corpora_ter_patched_equal_unpatched(core, corpus, options):
    hyps, streams = corpus
    both(lambda: SacreTER(**options).corpus_score(hyps, streams))
    both(lambda: ter_rows(SacreTER(**options)._extract_corpus_statistics(hyps, streams)))

    def cached():
        metric = SacreTER(**options, references=streams)
        return ter_fields(metric.corpus_score(hyps, None)), str(metric.get_signature())

    both(cached)
    both(lambda: SacreTER(**options).sentence_score(hyps[0], [s[0] for s in streams]))
    both(lambda: sacrebleu.corpus_ter(hyps, streams, **options))
    both(lambda: SacreTER(**options).corpus_score(hyps, streams, n_bootstrap=10))


def test_ter_routes_and_errors(core, monkeypatch):
    from sacrebleu.metrics import ter as sacre_ter_module
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
    calls = []
    kernel = patch_module._ter

    class Spy:
        def __getattr__(self, name):
            calls.append(name)
            return getattr(kernel, name)

    monkeypatch.setattr(patch_module, "_ter", Spy())
    hyps, refs = ["a b c d", "x y. z"], [["d a b c", "y"], ["a c", None]]
    both(lambda: SacreTER(normalized=True).corpus_score(hyps, refs))
    assert calls == ["RefSet"]      # patched: the kernel (references prepared, kept for reuse)
    calls.clear()

    def reassigned():
        metric = SacreTER()
        metric.tokenizer = TercomTokenizer(normalized=True, case_sensitive=True)
        return ter_fields(metric.corpus_score(hyps, refs))

    both(reassigned)                                # the tokenizer's settings, not the metric's
    assert calls == ["RefSet"]
    calls.clear()

    class Custom(SacreTER):
        def _compute_segment_statistics(self, hypothesis, ref_kwargs):
            return [0, 1.0]

    class OtherTokenizer(TercomTokenizer):
        pass

    def subclassed_tokenizer():
        metric = SacreTER()
        metric.tokenizer = OtherTokenizer(no_punct=True)
        return ter_fields(metric.corpus_score(hyps, refs))

    both(lambda: Custom().corpus_score(hyps, refs))
    both(subclassed_tokenizer)
    real = sacre_ter_module.translation_edit_rate
    monkeypatch.setattr(sacre_ter_module, "translation_edit_rate",
                        lambda h, r: (real(h, r)[0] + 1, len(r)))
    both(lambda: SacreTER().corpus_score(hyps, refs))
    assert calls == []                              # each ran sacreBLEU's own code
    monkeypatch.undo()
    for call in (lambda: sacrebleu.corpus_ter(["a", 3], [["a", "b"]]),
                 lambda: sacrebleu.corpus_ter(["a b"], [[None]]),      # no reference at all
                 lambda: sacrebleu.corpus_ter(["a"], [["a", b"b"]]),
                 lambda: sacrebleu.corpus_ter([], [["a"]]),
                 lambda: SacreTER(references=[["a", None]]).corpus_score(["a", "b"], None),
                 lambda: SacreTER(references=[["a", "b"]]).corpus_score(["a"], None),
                 lambda: SacreTER().corpus_score(["a"], None),
                 lambda: sacrebleu.sentence_ter("a", ["a", None])):
        both(call)


def test_ter_cache_outlives_a_new_tokenizer(core):
    """A cache made with one tokenizer keeps it, as sacreBLEU's does, after the metric gets
    another."""
    from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
    hyps, refs = ["Jim's car.", "(a) b"], [["Jim's car.", "(a) b"]]

    def call():
        metric = SacreTER(references=refs)
        metric.tokenizer = TercomTokenizer(normalized=True)
        return ter_fields(metric.corpus_score(hyps, None))

    want = both(call)
    assert want[1][2] > 0           # the references kept their first tokenization

    def bleu():
        from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
        metric = SacreBLEU(references=_refs)
        metric.tokenizer = TokenizerChar()
        return fields(metric.corpus_score(_hyps, None))

    both(bleu)


def test_unpatch_restores_sacrebleu_ter(core):
    hyps, refs = TER_CASES[4][0], [TER_CASES[4][1]]
    with cybleu.patched():
        metric = SacreTER(normalized=True, references=refs)
        assert isinstance(metric._ref_cache, patch_module._CachedReferences)
        want = ter_fields(metric.corpus_score(hyps, None))
    assert not cybleu.is_patched()
    # sacreBLEU's own code on the cache made while patched, and on its pickled copy
    assert ter_fields(metric.corpus_score(hyps, None)) == want
    copy = pickle.loads(pickle.dumps(metric))
    assert type(copy._ref_cache) is list
    assert ter_fields(copy.corpus_score(hyps, None)) == want
    assert ter_fields(SacreTER(normalized=True).corpus_score(hyps, refs)) == want


def test_wmt17_system_ter_patched_equal_unpatched(core):
    base = data_path("sacrebleu-fixtures", "wmt17-en-de")
    refs = read_lines(base / "ref.txt")[:60]
    hyps = read_lines(sorted((base / "sys").glob("*.txt"))[0])[:60]
    both(lambda: sacrebleu.corpus_ter(hyps, [refs]))
    both(lambda: sacrebleu.corpus_ter(hyps, [refs], normalized=True, asian_support=True))
    both(lambda: ter_rows(SacreTER(no_punct=True)._extract_corpus_statistics(hyps, [refs])))


# -- evaluate's metric scripts ------------------------------------------------------------------

def _evaluate():
    import os
    for name in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ.setdefault(name, "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return pytest.importorskip("evaluate", reason="evaluate is not installed (pip install "
                                   "evaluate datasets) to run its metric scripts")


def _load_metric(name):
    evaluate = _evaluate()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return evaluate.load(str(evaluate_metric_script(name)))


def test_evaluate_sacrebleu_script(core):
    metric = _load_metric("sacrebleu")
    preds = _hyps + ["", "a b c d e"]
    refs = [[a, b] for a, b in zip(*_refs)] + [["x", "y"], ["a b c d", "b c d e"]]
    for kwargs in ({}, {"tokenize": "intl"}, {"lowercase": True, "smooth_method": "floor"},
                   {"use_effective_order": True}):
        want = metric.compute(predictions=preds, references=refs, **kwargs)
        with cybleu.patched():
            got = metric.compute(predictions=preds, references=refs, **kwargs)
        assert got == want
        assert [bits(x) for x in got["precisions"]] == [bits(x) for x in want["precisions"]]
        assert bits(got["score"]) == bits(want["score"])


# the examples of evaluate's `ter` script (its docstring): arguments and documented results
EVALUATE_TER_PREDS = ["does this sentence match??", "what about this sentence?",
                      "What did the TER metric user say to the developer?"]
EVALUATE_TER_REFS = [["does this sentence match", "does this sentence match!?!"],
                     ["wHaT aBoUt ThIs SeNtEnCe?", "wHaT aBoUt ThIs SeNtEnCe?"],
                     ["Your jokes are...", "...TERrible"]]
EVALUATE_TER_EXAMPLES = [
    (3, {"case_sensitive": True}, {"score": 150.0, "num_edits": 15, "ref_length": 10.0}),
    (2, {"case_sensitive": True}, {"score": 62.5, "num_edits": 5, "ref_length": 8.0}),
    (2, {"normalized": True, "case_sensitive": True},
     {"score": 57.14285714285714, "num_edits": 6, "ref_length": 10.5}),
    (2, {"ignore_punct": True, "case_sensitive": False},
     {"score": 0.0, "num_edits": 0, "ref_length": 8.0}),
    (3, {"ignore_punct": True, "case_sensitive": False},
     {"score": 100.0, "num_edits": 10, "ref_length": 10.0}),
]


def test_evaluate_ter_script(core):
    metric = _load_metric("ter")
    for n, kwargs, documented in EVALUATE_TER_EXAMPLES:
        preds, refs = EVALUATE_TER_PREDS[:n], EVALUATE_TER_REFS[:n]
        want = metric.compute(predictions=preds, references=refs, **kwargs)
        with cybleu.patched():
            got = metric.compute(predictions=preds, references=refs, **kwargs)
        assert got == want == documented
        assert bits(got["score"]) == bits(want["score"])
    preds = _hyps + ["", "a b c d e"]
    refs = [[a, b] for a, b in zip(*_refs)] + [["x", "y"], ["a b c d", "b c d e"]]
    for kwargs in ({}, {"normalized": True, "support_zh_ja_chars": True}):
        want = metric.compute(predictions=preds, references=refs, **kwargs)
        with cybleu.patched():
            got = metric.compute(predictions=preds, references=refs, **kwargs)
        assert got == want and bits(got["ref_length"]) == bits(want["ref_length"])


def test_evaluate_bleu_script(core):
    """evaluate's `bleu` script (tensorflow/nmt's formula) calls neither sacreBLEU nor nltk, so
    patching leaves it alone; and cybleu.hf gives its numbers."""
    from cybleu import hf
    metric = _load_metric("bleu")
    preds = _hyps + ["", "a b c d e"]
    refs = [[a, b] for a, b in zip(*_refs)] + [["x", "y"], ["a b c d", "b c d e"]]
    for kwargs in ({}, {"smooth": True}, {"max_order": 2}):
        want = metric.compute(predictions=preds, references=refs, **kwargs)
        with cybleu.patched("sacrebleu", "nltk"):
            assert metric.compute(predictions=preds, references=refs, **kwargs) == want
        ours = hf.bleu(preds, refs, **kwargs)
        assert ours == want and bits(ours["bleu"]) == bits(want["bleu"])


# -- nltk -----------------------------------------------------------------------------------------

def nltk_modules():
    """nltk's translate package and bleu_score module, or a skip: nltk 3.10.4 needs Python 3.10
    or later (the test extra installs it there)."""
    translate = pytest.importorskip("nltk.translate", reason="nltk is not installed (pip install "
                                    "nltk==3.10.4, Python 3.10 or later)")
    from nltk.translate import bleu_score
    return translate, bleu_score


TOKENS = st.lists(st.sampled_from(["a", "b", "c", "d", 1, 2]), max_size=9)


@st.composite
def nltk_corpora(draw):
    n = draw(st.integers(1, 4))
    refs = draw(st.lists(st.lists(TOKENS, min_size=1, max_size=3), min_size=n, max_size=n))
    hyps = draw(st.lists(TOKENS, min_size=n, max_size=n))
    return refs, hyps


def nltk_outcome(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = outcome(call)
    return result, [(w.category, str(w.message)) for w in caught]


@SETTINGS
@given(corpus=nltk_corpora(), method=st.integers(0, 7),
       weights=st.sampled_from([(0.25, 0.25, 0.25, 0.25), (0.5, 0.5), (1 / 3, 1 / 3, 1 / 3),
                                [(0.5, 0.5), (0.25, 0.25, 0.25, 0.25)]]),
       params=st.sampled_from([(0.1, 5, 5), (0.3, 2, 3)]), auto_reweigh=st.booleans())
def test_nltk_patched_equal_unpatched(core, corpus, method, weights, params, auto_reweigh):
    translate, bleu_score = nltk_modules()
    refs, hyps = corpus
    smoothing = getattr(bleu_score.SmoothingFunction(*params), f"method{method}")

    def run():
        return (nltk_outcome(lambda: bleu_score.corpus_bleu(refs, hyps, weights, smoothing,
                                                            auto_reweigh)),
                nltk_outcome(lambda: bleu_score.sentence_bleu(refs[0], hyps[0], weights,
                                                              smoothing, auto_reweigh)),
                nltk_outcome(lambda: translate.bleu(refs[0], hyps[0], weights, smoothing)))

    want = run()
    with cybleu.patched("nltk"):
        assert bleu_score.corpus_bleu.__module__ == "nltk.translate.bleu_score"
        assert bleu_score.corpus_bleu.__wrapped__ is not None
        got = run()
    assert got == want


def test_unpatch_restores_nltk(core):
    translate, bleu_score = nltk_modules()
    before = (bleu_score.corpus_bleu, bleu_score.sentence_bleu, translate.bleu)
    cybleu.patch_nltk()
    assert cybleu.is_patched("nltk")
    assert bleu_score.corpus_bleu is not before[0] and translate.bleu is bleu_score.sentence_bleu
    refs, hyp = [["a", "b", "c", "d"]], ["a", "b", "c", "d"]
    assert bleu_score.sentence_bleu(refs, hyp) == before[1](refs, hyp) == 1.0
    cybleu.unpatch_nltk()
    assert (bleu_score.corpus_bleu, bleu_score.sentence_bleu, translate.bleu) == before
