"""TER against sacreBLEU 2.6.0 (the oracle) on the real data in ../shared/data: segment statistics
equal, corpus and sentence scores bit-identical, the same format() and signature, for every option
(normalized, no_punct, asian_support, case_sensitive); sacreBLEU's hooks, the reference cache,
pickling, batch sentence TER, the tercom tokenizer and lib_ter's functions; tercom's independent
values; clear errors where sacreBLEU fails.

sacreBLEU's TER is slow (about 7 s for one WMT17 system, seconds for a few WMT23 paragraphs), so
the default run takes a slice of segments per system, bounded by its length in characters, and one
full WMT17 system; the full sweep is behind the `slow` marker (hours, mostly sacreBLEU on WMT23)."""
import copy
import csv
import json
import logging
import pickle

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import TER as SacreTER
from sacrebleu.metrics import lib_ter as sacre_lib_ter
from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer as SacreTercom

import cybleu
from cybleu import _backend
from cybleu._kernels import ter_py as _ter_py
from cybleu.metrics import TER
from cybleu.metrics import lib_ter
from cybleu.metrics import ter as ter_metric
from cybleu.tokenizers import tokenizer_ter
from cybleu.tokenizers.tokenizer_ter import TercomTokenizer
from conftest import (SHARED_DATA, SYSTEM_IDS, SYSTEMS, _ter_c, bits, data_path, load_system,
                      read_lines)

KERNELS = [pytest.param(_ter_py, id="python")] + (
    [pytest.param(_ter_c, id="cython")] if _ter_c is not None else [])

OPTIONS = [{}, {"normalized": True}, {"no_punct": True}, {"case_sensitive": True},
           {"asian_support": True}, {"normalized": True, "asian_support": True},
           {"no_punct": True, "asian_support": True}, {"normalized": True, "no_punct": True},
           {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True}]
FLAG_NAMES = ("normalized", "no_punct", "asian_support", "case_sensitive")
ALL_FLAGS = [dict(zip(FLAG_NAMES, (a, b, c, d))) for a in (False, True) for b in (False, True)
             for c in (False, True) for d in (False, True)]
SLICE_CHARS = 1500   # of hypotheses and references together, per slice
SLICE_SEGMENTS = 20


@pytest.fixture(params=KERNELS)
def kernel(request, monkeypatch):
    """TER running on one kernel (compiled or twin)."""
    for where in (ter_metric, lib_ter, tokenizer_ter):
        monkeypatch.setattr(where, "_ter_kernel", request.param)
    return request.param


def _slice(index, sys_file, ref_files, chars=SLICE_CHARS, longest=400):
    """Segments from a place that differs per system, up to `chars` characters in all, skipping
    segments longer than `longest` characters (sacreBLEU needs seconds for one WMT23 paragraph;
    long sentences are in the slow sweep and in test_ter_parity)."""
    hyps, refs = load_system(sys_file, ref_files)
    start = (index * 977) % max(1, len(hyps) - SLICE_SEGMENTS)
    picked, total = [], 0
    for i in list(range(start, len(hyps))) + list(range(start)):
        size = [len(hyps[i])] + [len(r[i]) for r in refs]
        if max(size) > longest:
            continue
        picked.append(i)
        total += sum(size)
        if len(picked) == SLICE_SEGMENTS or total >= chars:
            break
    return [hyps[i] for i in picked], [[r[i] for i in picked] for r in refs]


def _check(hyps, refs, **kw):
    """Everything a user reads from TER equals the oracle's, on these segments."""
    oracle, ours = SacreTER(**kw), TER(**kw)
    want_rows = oracle._extract_corpus_statistics(hyps, refs)
    got_rows = ours._extract_corpus_statistics(hyps, refs)
    assert got_rows == want_rows, kw
    assert [type(v) for row in got_rows for v in row] == [type(v) for row in want_rows for v in row]
    # sacreBLEU's corpus_score is _extract_corpus_statistics then _aggregate_and_compute: the
    # oracle's rows are computed once (its TER is slow)
    want, got = oracle._aggregate_and_compute(want_rows), ours.corpus_score(hyps, refs)
    assert bits(got.score) == bits(want.score), kw
    assert (got.num_edits, bits(got.ref_length)) == (want.num_edits, bits(want.ref_length))
    assert (got.name, got.format(), got.format(width=4), got.format(score_only=True)) == \
        (want.name, want.format(), want.format(width=4), want.format(score_only=True))
    sig_want = oracle.get_signature().format()
    assert got.format(signature=sig_want, is_json=True) == want.format(signature=sig_want,
                                                                        is_json=True)
    for short in (False, True):
        assert ours.get_signature().format(short=short).rsplit(":", 1)[0] == \
            oracle.get_signature().format(short=short).rsplit(":", 1)[0]
    sentence = [oracle._compute_score_from_stats(row).score for row in want_rows]
    assert [bits(x) for x in ours.sentence_scores(hyps, refs)] == [bits(x) for x in sentence], kw


@pytest.mark.parametrize("index", range(len(SYSTEMS)), ids=SYSTEM_IDS)
def test_ter_on_every_system(index):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = _slice(index, sys_file, ref_files)
    _check(hyps, refs[:1])
    _check(hyps, refs, normalized=True)


# one system of each target language, every option, one and (where there are two) two references
OPTION_SYSTEMS = sorted({next((i for i, s in enumerate(SYSTEMS) if s[0].startswith(p)), None)
                         for p in ("wmt22/en-de", "wmt22/en-zh", "wmt22/en-ja", "wmt23/en-he",
                                   "wmt22/zh-en", "wmt23/en-de", "wmt17/")} - {None}) or [0]


@pytest.mark.parametrize("kw", OPTIONS, ids=[json.dumps(k) for k in OPTIONS])
@pytest.mark.parametrize("index", OPTION_SYSTEMS, ids=[SYSTEM_IDS[i] for i in OPTION_SYSTEMS])
def test_every_option(index, kw):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = _slice(index + 1, sys_file, ref_files, 800)
    _check(hyps, refs, **kw)


@pytest.mark.skipif(_backend.BACKEND == "python",
                    reason="the twin takes about 20 s here; it runs in the slow sweep")
def test_one_full_system():
    """A whole WMT17 system (3,004 segments) against sacreBLEU, bit for bit."""
    root = data_path("sacrebleu-fixtures", "wmt17-en-de")
    hyps = read_lines(root / "sys" / "newstest2017.uedin-nmt.4722.en-de.txt")
    ref = read_lines(root / "ref.txt")
    _check(hyps, [ref])


def _sweep_params():
    """Every segment of every system: the default and normalized settings on every system, every
    option on the WMT17 ones. sacreBLEU's TER takes hours for all of it (mostly the WMT23
    paragraphs), so `slow` (which CI runs once) takes the WMT17 systems with the default and
    normalized settings, and `sweep` (never in CI) the rest."""
    out = []
    for index, name in enumerate(SYSTEM_IDS):
        wmt17 = name.startswith("wmt17/")
        out.append(pytest.param(index, OPTIONS[:2], id=f"{name}-default",
                                marks=[pytest.mark.slow] + ([] if wmt17 else [pytest.mark.sweep])))
        if wmt17:
            out.append(pytest.param(index, OPTIONS[2:], id=f"{name}-options",
                                    marks=[pytest.mark.slow, pytest.mark.sweep]))
    return out


@pytest.mark.parametrize("index,options", _sweep_params())
def test_full_sweep(index, options):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = load_system(sys_file, ref_files)
    for kw in options:
        _check(hyps, refs[:1], **kw)
        if len(refs) > 1:
            _check(hyps, refs, **kw)


def _tercom_rows():
    path = SHARED_DATA / "sacrebleu-fixtures" / "expected_scores.tsv"
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} is absent"))]
    with open(path, encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["metric"].startswith("TER")]
    unique = list({r["hyp"]: r for r in rows}.values())
    # the twin takes about 10 s a system: one in the default run, the others behind `slow`
    slow_twin = _backend.BACKEND == "python"
    return [pytest.param(r, id=r["hyp"].rsplit("/", 1)[-1],
                         marks=[pytest.mark.slow] if slow_twin and i else [])
            for i, r in enumerate(unique)]


@pytest.mark.parametrize("row", _tercom_rows())
def test_tercom_values(row):
    """tercom 7.25's published values (sacreBLEU's test.sh) on the whole WMT17 systems, as
    fractions to 3 decimals, and sacreBLEU 2.6.0's own to 6."""
    assert row["ok"] == "True"   # sacreBLEU 2.6.0 reproduces every one of them
    root = data_path("sacrebleu-fixtures")
    hyps, ref = read_lines(root / row["hyp"]), read_lines(root / row["refs"])
    metric = TER()
    score = metric.corpus_score(hyps, [ref])
    assert f"{score.score / 100:.3f}" == row["expected"]
    assert round(score.score / 100, 6) == float(row["sacrebleu_2_6_0"])
    assert metric.get_signature().format().rsplit(":", 1)[0] == row["signature"].rsplit(":", 1)[0]


# -- the tokenizer and lib_ter ---------------------------------------------------------------------

def test_tercom_tokenizer_matches_sacrebleu_on_real_lines(kernel):
    lines = []
    for index in OPTION_SYSTEMS:
        _, sys_file, ref_files = SYSTEMS[index]
        if sys_file is None:
            data_path("wmt")
        hyps, refs = load_system(sys_file, ref_files)
        lines += hyps[:60] + refs[0][:60]
    lines += ["", " ", "&amp;lt; x's. 3.5 1,000 a-b 3-4 \n-x", "東京。ひらがな，カタカナ！"]
    for f in ALL_FLAGS:
        ours, theirs = TercomTokenizer(**f), SacreTercom(**f)
        assert [ours(line) for line in lines] == [theirs(line) for line in lines], f
        assert ours.signature() == theirs.signature() == "tercom"
    assert (TercomTokenizer.ASIAN_PUNCT, TercomTokenizer.FULL_WIDTH_PUNCT) == \
        (SacreTercom.ASIAN_PUNCT, SacreTercom.FULL_WIDTH_PUNCT)


def test_lib_ter_matches_sacrebleu(kernel):
    hyps, refs = (_slice(2, *SYSTEMS[2][1:]) if len(SYSTEMS) > 2 and SYSTEMS[2][1]
                  else (HYPS, [REFS_A]))
    for hyp, ref in zip(hyps, refs[0]):
        h, r = hyp.lower().split(), ref.lower().split()
        assert lib_ter.translation_edit_rate(h, r) == sacre_lib_ter.translation_edit_rate(h, r)
        got, want = lib_ter.BeamEditDistance(r)(h), sacre_lib_ter.BeamEditDistance(r)(h)
        assert got == want
        flipped = sacre_lib_ter._flip_trace(want[1])
        assert lib_ter._flip_trace(want[1]) == flipped
        assert lib_ter.trace_to_alignment(flipped) == sacre_lib_ter.trace_to_alignment(flipped)
    for name in ("_COST_INS", "_COST_DEL", "_COST_SUB", "_MAX_SHIFT_SIZE", "_MAX_SHIFT_DIST",
                 "_BEAM_WIDTH", "_MAX_CACHE_SIZE", "_MAX_SHIFT_CANDIDATES", "_INT_INFINITY",
                 "_OP_INS", "_OP_DEL", "_OP_NOP", "_OP_SUB", "_OP_UNDEF"):
        assert getattr(lib_ter, name) == getattr(sacre_lib_ter, name), name
    with pytest.raises(Exception, match="unknown operation 'x'"):
        lib_ter.trace_to_alignment(" sx")


# -- the API on both kernels -------------------------------------------------------------------

HYPS = ["The cat sat on the mat.", "", "A B C D", "Hello, world! 3.14 1,000 &amp; x's.", "x",
        "(hi) there", "  spaced   out  ", "東京は大きい。", "naïve café", "a b a b a b c"]
REFS_A = ["The cat is on the mat.", "a b", "a b c d", "Hello world &quot;x's&quot;", "",
          "hi there!", "spaced out", "東京は大きな都市です。", "Naive Cafe", "b a b a c b a"]
REFS_B = ["A cat sat on a mat .", None, "A B C", None, "x y", "(hi) there", None, "東京", "café",
          None]


def _same(got, want):
    assert bits(got.score) == bits(want.score)
    assert (got.num_edits, bits(got.ref_length)) == (want.num_edits, bits(want.ref_length))
    assert got.format() == want.format()


def test_compat_functions_match_sacrebleu(kernel):
    from cybleu.compat import corpus_ter, sentence_ter
    assert (corpus_ter, sentence_ter) == (cybleu.corpus_ter, cybleu.sentence_ter)
    for refs in ([REFS_A], [REFS_A, REFS_B], [REFS_B, REFS_A]):
        for kw in OPTIONS[::2]:
            _same(cybleu.corpus_ter(HYPS, refs, **kw), sacrebleu.corpus_ter(HYPS, refs, **kw))
            for i, hyp in enumerate(HYPS):
                seg = [r[i] for r in refs]
                _same(cybleu.sentence_ter(hyp, seg, **kw), sacrebleu.sentence_ter(hyp, seg, **kw))
            got = cybleu.batch_sentence_ter(HYPS, refs, **kw)
            want = [sacrebleu.sentence_ter(h, [r[i] for r in refs], **kw).score
                    for i, h in enumerate(HYPS)]
            assert got.dtype == np.float64 and [bits(x) for x in got] == [bits(x) for x in want]


def test_module_paths_and_names():
    from cybleu.metrics import METRICS, TER as T1
    from cybleu.metrics.ter import TER as T2, TERScore, TERSignature  # noqa: F401 - the import is the test
    assert cybleu.TER is T1 is T2 and METRICS["TER"] is T1
    assert cybleu.TERScore is TERScore
    assert cybleu.metrics.lib_ter.translation_edit_rate is lib_ter.translation_edit_rate
    assert TER().tokenizer.__class__ is TercomTokenizer


def test_a_reference_identical_to_its_hypothesis_need_not_score_zero(kernel):
    """sacreBLEU tokenizes references twice and hypotheses once; with `normalized` the second pass
    splits "x's ." into "x 's .", so the identical line scores 66.67. cybleu does the same."""
    ours = cybleu.sentence_ter("x's.", ["x's."], normalized=True)
    want = sacrebleu.sentence_ter("x's.", ["x's."], normalized=True)
    _same(ours, want)
    assert ours.format() == "TER = 66.67"
    assert TER(normalized=True, references=[["x's."]])._ref_cache[0] == \
        {"ref_words": [["x", "'s", "."]]}


def test_sentence_score_and_none_references(kernel):
    for kw in ({}, {"normalized": True, "case_sensitive": True}):
        ours, oracle = TER(**kw), SacreTER(**kw)
        _same(ours.sentence_score("a b c", ["a b", None, "a b c d"]),
              oracle.sentence_score("a b c", ["a b", None, "a b c d"]))
        assert ours.get_signature().format().rsplit(":", 1)[0] == \
            oracle.get_signature().format().rsplit(":", 1)[0]
        _same(ours.corpus_score(HYPS, [REFS_A, REFS_B]),
              oracle.corpus_score(HYPS, [REFS_A, REFS_B]))
        assert "nrefs:var" in str(ours.get_signature())


def test_cached_references_and_their_shape(kernel):
    for kw in ({}, {"normalized": True, "no_punct": True, "asian_support": True}):
        ours = TER(references=[REFS_A, REFS_B], **kw)
        oracle = SacreTER(references=[REFS_A, REFS_B], **kw)
        _same(ours.corpus_score(HYPS, None), oracle.corpus_score(HYPS, None))
        _same(ours.corpus_score(HYPS[::-1], None), oracle.corpus_score(HYPS[::-1], None))
        assert len(ours._ref_cache) == len(oracle._ref_cache)
        for i in range(-len(HYPS), len(HYPS)):
            assert ours._ref_cache[i] == oracle._ref_cache[i]
        assert ours._ref_cache[1:3] == oracle._ref_cache[1:3]
        assert list(ours._ref_cache) == list(oracle._ref_cache)
        assert ours._extract_corpus_statistics(HYPS, None) == \
            oracle._extract_corpus_statistics(HYPS, None)
        assert [bits(x) for x in ours.sentence_scores(HYPS)] == \
            [bits(oracle.sentence_score(h, [REFS_A[i], REFS_B[i]]).score)
             for i, h in enumerate(HYPS)]
    with pytest.raises(IndexError):
        TER(references=[REFS_A])._ref_cache[len(REFS_A)]
    with pytest.raises(RuntimeError, match="cache is empty"):
        TER().corpus_score(HYPS, None)
    with pytest.raises(ValueError, match="10 hypotheses but the cached references have 3"):
        TER(references=[REFS_A[:3]]).corpus_score(HYPS, None)


def test_tokenizer_assignment_follows_sacrebleu(kernel):
    """sacreBLEU tokenizes with `self.tokenizer` (the flags only name the signature); a tokenizer
    set after caching applies to the hypotheses, the cached references keep their words."""
    for make in (lambda m: m(normalized=True, asian_support=True), lambda m: m(no_punct=True)):
        ours, oracle = TER(), SacreTER()
        ours.tokenizer, oracle.tokenizer = make(TercomTokenizer), make(SacreTercom)
        _same(ours.corpus_score(HYPS, [REFS_A]), oracle.corpus_score(HYPS, [REFS_A]))
        ours, oracle = TER(references=[REFS_A]), SacreTER(references=[REFS_A])
        ours.tokenizer, oracle.tokenizer = make(TercomTokenizer), make(SacreTercom)
        _same(ours.corpus_score(HYPS, None), oracle.corpus_score(HYPS, None))
        assert ours._extract_corpus_statistics(HYPS, None) == \
            oracle._extract_corpus_statistics(HYPS, None)
    # any callable, e.g. sacreBLEU's own tokenizer object or a plain function
    ours, oracle = TER(), SacreTER()
    ours.tokenizer = oracle.tokenizer = SacreTercom(normalized=True)
    _same(ours.corpus_score(HYPS, [REFS_A]), oracle.corpus_score(HYPS, [REFS_A]))
    ours.tokenizer = oracle.tokenizer = str.upper
    _same(ours.corpus_score(HYPS, [REFS_A]), oracle.corpus_score(HYPS, [REFS_A]))
    assert [bits(x) for x in ours.sentence_scores(HYPS, [REFS_A])] == \
        [bits(oracle.sentence_score(h, [REFS_A[i]]).score) for i, h in enumerate(HYPS)]


def test_pickle_and_deepcopy_keep_the_cache(kernel):
    ours = TER(normalized=True, references=[REFS_A, REFS_B])
    want = SacreTER(normalized=True, references=[REFS_A, REFS_B]).corpus_score(HYPS, None)
    for clone in (pickle.loads(pickle.dumps(ours)), copy.deepcopy(ours)):
        _same(clone.corpus_score(HYPS, None), want)
        assert list(clone._ref_cache) == list(ours._ref_cache)
        assert str(clone.get_signature()) == str(ours.get_signature())


def test_private_hooks_against_sacrebleu(kernel):
    hyps, refs = _slice(0, *SYSTEMS[0][1:]) if SYSTEMS[0][1] else (HYPS, [REFS_A])
    for kw in ({}, {"normalized": True}, {"no_punct": True, "case_sensitive": True}):
        ours, oracle = TER(**kw), SacreTER(**kw)
        rows = oracle._extract_corpus_statistics(hyps, refs)
        assert ours._extract_corpus_statistics(hyps, refs) == rows
        for i in range(len(hyps)):
            _same(ours._aggregate_and_compute(rows[i:i + 1]),
                  oracle._aggregate_and_compute(rows[i:i + 1]))
        # the float32 statistics sacreBLEU's bootstrap passes, and plain sums
        arr = np.array(rows, dtype="float32")
        for sample in (arr.sum(0), arr[::2].sum(0), arr[:1].sum(0), np.array(rows).sum(0)):
            _same(ours._compute_score_from_stats(sample), oracle._compute_score_from_stats(sample))
        for line in hyps[:10] + ["x's.", " a b ", ""]:
            assert ours._preprocess_segment(line) == oracle._preprocess_segment(line)
        pre = [oracle._preprocess_segment(r) for r in [seg[0] for seg in zip(*refs)][:5]]
        info = oracle._extract_reference_info(pre)
        assert ours._extract_reference_info(pre) == info
        for hyp in hyps[:5]:
            h = oracle._preprocess_segment(hyp)
            assert ours._compute_segment_statistics(h, info) == \
                oracle._compute_segment_statistics(h, info)


def test_bootstrap_matches_sacrebleu(kernel):
    got = TER().corpus_score(HYPS * 5, [REFS_A * 5], n_bootstrap=30)
    want = SacreTER().corpus_score(HYPS * 5, [REFS_A * 5], n_bootstrap=30)
    _same(got, want)
    assert (bits(got._mean), bits(got._ci)) == (bits(want._mean), bits(want._ci))


def test_subclass_hooks_are_honoured(kernel):
    """A subclass that overrides a hook gets what sacreBLEU gives with the same override."""
    def keep_case(self, sent):
        return " ".join(sent.split())

    class Ours(TER):
        _preprocess_segment = keep_case

    class Theirs(SacreTER):
        _preprocess_segment = keep_case

    _same(Ours().corpus_score(HYPS, [REFS_A]), Theirs().corpus_score(HYPS, [REFS_A]))
    _same(Ours().sentence_score(HYPS[0], [REFS_A[0]]),
          Theirs().sentence_score(HYPS[0], [REFS_A[0]]))
    assert Ours()._extract_corpus_statistics(HYPS, [REFS_A]) == \
        Theirs()._extract_corpus_statistics(HYPS, [REFS_A])
    assert [bits(x) for x in Ours().sentence_scores(HYPS, [REFS_A])] == \
        [bits(Theirs().sentence_score(h, [REFS_A[i]]).score) for i, h in enumerate(HYPS)]


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,error,message", [
    (lambda: cybleu.corpus_ter("a hypothesis", "a reference"), TypeError,
     r"not a single str.*sentence_ter\(hyp, \[ref\]\).*corpus_ter\(\[hyp\], \[\[ref\]\]\)"),
    (lambda: cybleu.corpus_ter([["a", "b"]], [["a b"]]), TypeError,
     r"hypothesis 0 is a list of 2 strings.*' '.join\(tokens\)"),
    (lambda: cybleu.corpus_ter(["a b"], [[["a", "b"]]]), TypeError,
     r"reference 0 of stream 0 is a list of 2 strings"),
    (lambda: cybleu.sentence_ter(["a", "b"], ["a b"]), TypeError, r"`hyp` should be a string"),
    (lambda: cybleu.sentence_ter("a b", "a b"), TypeError, r"sentence_ter\(hyp, \[ref\]\)"),
    (lambda: cybleu.sentence_ter("a", []), ValueError, "at least one reference"),
    (lambda: cybleu.corpus_ter(["a", "b"], ["a", "b"]), ValueError, r"pass \[refs\], not refs"),
    (lambda: cybleu.corpus_ter(["a", "b"], [["a"]]), ValueError, "2 hypotheses but 1 references"),
    (lambda: cybleu.corpus_ter([], [[]]), ValueError, "corpus is empty"),
    (lambda: cybleu.corpus_ter(["a"], [[None]]), ValueError, "segment 0 has no reference"),
    (lambda: cybleu.sentence_ter("a", [None]), ValueError, "segment 0 has no reference"),
    (lambda: cybleu.batch_sentence_ter(["a", "b"], [["a", None]]), ValueError,
     "segment 1 has no reference"),
    (lambda: cybleu.corpus_ter(["a", None], [["a", "b"]]), TypeError, "Undefined line"),
    (lambda: cybleu.batch_sentence_ter(["a", 3], [["a", "b"]]), TypeError, "hypothesis 1 is int"),
    (lambda: TER()._extract_corpus_statistics(["a", 3], [["a", "b"]]), TypeError,
     "hypothesis 1 is int"),
    (lambda: TER()._extract_corpus_statistics(["a", "b"], [["a", b"b"]]), TypeError,
     "reference 1 of stream 0 is bytes"),
    (lambda: TER(references=[["a", 5]]), TypeError, "reference 1 of stream 0 is int"),
    (lambda: TercomTokenizer()(5), TypeError, "TercomTokenizer: the line is int, not str"),
])
def test_bad_input_is_a_clear_error(kernel, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_error_mid_corpus_keeps_the_cache_usable(kernel):
    metric = TER(references=[REFS_A])
    with pytest.raises(TypeError, match="hypothesis 3 is bytes"):
        metric.corpus_score(HYPS[:3] + [b"bytes"] + HYPS[4:], None)
    _same(metric.corpus_score(HYPS, None), SacreTER(references=[REFS_A]).corpus_score(HYPS, None))


def test_no_tokenized_period_warning(kernel, caplog):
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        cybleu.corpus_ter(["a ."] * 100, [["a ."] * 100])
    assert caplog.text == ""
