"""chrF and chrF++ against sacreBLEU 2.6.0 (the oracle) on the real data in ../shared/data: segment
statistics equal, corpus and sentence scores bit-identical, the same format() and signature, for
every option; sacreBLEU's hooks, the reference cache, pickling, batch and pairwise scores; chrF++.py's
independent values; and clear errors where sacreBLEU fails or is silent.

The default run takes a slice of segments per system (a different slice per system); the full
sweep (every segment of every system, every option) is behind the `slow` marker."""
import copy
import csv
import json
import logging
import pickle

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import CHRF as SacreCHRF

import cybleu
from cybleu._kernels import chrf_py as _chrf_py
from cybleu.metrics import chrf as chrf_metric
from cybleu.metrics import CHRF
from conftest import (SHARED_DATA, SYSTEM_IDS, SYSTEMS, _chrf_c, bits, data_path, load_system,
                      read_lines)

KERNELS = [pytest.param(_chrf_py, id="python")] + (
    [pytest.param(_chrf_c, id="cython")] if _chrf_c is not None else [])

OPTIONS = [{}, {"word_order": 2}, {"eps_smoothing": True}, {"word_order": 2, "eps_smoothing": True},
           {"whitespace": True}, {"lowercase": True}, {"lowercase": True, "word_order": 2},
           {"beta": 1}, {"beta": 0.5, "word_order": 1}, {"beta": 3, "whitespace": True,
                                                         "word_order": 2},
           {"char_order": 1}, {"char_order": 4, "word_order": 3}, {"char_order": 0, "word_order": 2},
           {"char_order": 9, "eps_smoothing": True}]
SLICE = 40


@pytest.fixture(params=KERNELS)
def kernel(request, monkeypatch):
    """CHRF running on one kernel (compiled or twin)."""
    monkeypatch.setattr(chrf_metric, "_kernel", request.param)
    return request.param


def _slice(index, sys_file, ref_files, size=SLICE):
    hyps, refs = load_system(sys_file, ref_files)
    start = (index * 977) % max(1, len(hyps) - size)
    return hyps[start:start + size], [r[start:start + size] for r in refs]


def _check(hyps, refs, **kw):
    """Everything a user reads from CHRF equals the oracle's, on these segments."""
    oracle, ours = SacreCHRF(**kw), CHRF(**kw)
    want_rows = oracle._extract_corpus_statistics(hyps, refs)
    assert ours._extract_corpus_statistics(hyps, refs) == want_rows, kw
    # sacreBLEU's corpus_score is exactly this aggregate of those rows (its base.py)
    want, got = oracle._aggregate_and_compute(want_rows), ours.corpus_score(hyps, refs)
    assert bits(got.score) == bits(want.score), kw
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
def test_chrf_and_chrfpp_on_every_system(index):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = _slice(index, sys_file, ref_files)
    _check(hyps, refs[:1])
    _check(hyps, refs, word_order=2)


# one system of each target language, every option, one and (where there are two) two references
OPTION_SYSTEMS = [i for i, s in enumerate(SYSTEMS) if s[0].startswith(
    ("wmt22/en-de/JDExploreAcademy", "wmt22/en-zh/", "wmt22/en-ja/", "wmt23/en-he/",
     "wmt22/zh-en/"))]
OPTION_SYSTEMS = sorted({next((i for i in OPTION_SYSTEMS if SYSTEMS[i][0].startswith(p)), None)
                         for p in ("wmt22/en-de", "wmt22/en-zh", "wmt22/en-ja", "wmt23/en-he",
                                   "wmt22/zh-en")} - {None}) or [0]


@pytest.mark.parametrize("kw", OPTIONS, ids=[json.dumps(k) for k in OPTIONS])
@pytest.mark.parametrize("index", OPTION_SYSTEMS, ids=[SYSTEM_IDS[i] for i in OPTION_SYSTEMS])
def test_every_option(index, kw):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = _slice(index, sys_file, ref_files, 30)
    _check(hyps, refs, **kw)


def _sweep_params():
    """Every segment of every system with chrF and chrF++ (`slow`, which CI runs once); every other
    option on every system as well under `sweep` (about an hour of sacreBLEU, never in CI)."""
    out = []
    for index, name in enumerate(SYSTEM_IDS):
        out.append(pytest.param(index, OPTIONS[:2], id=f"{name}-default", marks=pytest.mark.slow))
        out.append(pytest.param(index, OPTIONS[2:], id=f"{name}-options",
                                marks=[pytest.mark.slow, pytest.mark.sweep]))
    return out


@pytest.mark.parametrize("index,options", _sweep_params())
def test_full_sweep(index, options):
    _, sys_file, ref_files = SYSTEMS[index]
    hyps, refs = load_system(sys_file, ref_files)
    for kw in options:
        _check(hyps, refs[:1], **kw)
    if len(refs) > 1:   # two references: the first four options (two in each part)
        for kw in options[:2]:
            _check(hyps, refs, **kw)


def _expected_rows():
    path = SHARED_DATA / "sacrebleu-fixtures" / "expected_scores.tsv"
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} is absent"))]
    with open(path, encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["metric"].startswith("chrF")]
    unique = {(r["hyp"], r["metric"]): r for r in rows}
    return [pytest.param(r, id=f"{r['hyp'].rsplit('/', 1)[-1]}-{r['metric']}")
            for r in unique.values()]


@pytest.mark.parametrize("row", _expected_rows())
def test_chrfpp_py_values(row):
    """chrF++.py's published values (sacreBLEU's test.sh), to the 4 decimals they are given with."""
    assert row["ok"] == "True"   # sacreBLEU 2.6.0 reproduces every one of them
    root = data_path("sacrebleu-fixtures")
    hyps, ref = read_lines(root / row["hyp"]), read_lines(root / row["refs"])
    word_order = 2 if row["metric"] == "chrF2++" else 0
    metric = CHRF(word_order=word_order, eps_smoothing=True)
    score = metric.corpus_score(hyps, [ref])
    assert f"{score.score:.4f}" == f"{float(row['expected']):.4f}"
    assert score.format(width=4, score_only=True) == f"{float(row['sacrebleu_2_6_0']):.4f}"
    assert metric.get_signature().format().rsplit(":", 1)[0] == row["signature"].rsplit(":", 1)[0]


# -- the API on both kernels -------------------------------------------------------------------

HYPS = ["The cat sat on the mat.", "", "A B C D", "Hello, world! 3.14 1,000", "x", "(hi) there",
        "  spaced   out  ", "東京は大きい。", "naïve café"]
REFS_A = ["The cat is on the mat.", "a b", "a b c d", "Hello world", "", "hi there!", "spaced out",
          "東京は大きな都市です。", "Naive Cafe"]
REFS_B = ["A cat sat on a mat .", None, "A B C", None, "x y", "(hi) there", None, "東京", "café"]


def _same(got, want):
    assert bits(got.score) == bits(want.score)
    assert got.format() == want.format()


def test_compat_functions_match_sacrebleu(kernel):
    for refs in ([REFS_A], [REFS_A, REFS_B], [REFS_B, REFS_A]):
        for kw in ({}, {"word_order": 2}, {"remove_whitespace": False, "beta": 1},
                   {"eps_smoothing": True, "char_order": 3}):
            _same(cybleu.corpus_chrf(HYPS, refs, **kw), sacrebleu.corpus_chrf(HYPS, refs, **kw))
            for i, hyp in enumerate(HYPS):
                seg = [r[i] for r in refs]
                _same(cybleu.sentence_chrf(hyp, seg, **kw), sacrebleu.sentence_chrf(hyp, seg, **kw))
            got = cybleu.batch_sentence_chrf(HYPS, refs, **kw)
            want = [sacrebleu.sentence_chrf(h, [r[i] for r in refs], **kw).score
                    for i, h in enumerate(HYPS)]
            assert got.dtype == np.float64 and [bits(x) for x in got] == [bits(x) for x in want]


def test_module_paths_and_names():
    from cybleu.compat import corpus_chrf, sentence_chrf  # noqa: F401 - the import is the test
    from cybleu.metrics import CHRF as C1, METRICS
    from cybleu.metrics.chrf import CHRF as C2, CHRFScore, CHRFSignature  # noqa: F401 - the import is the test
    from cybleu.metrics.helpers import (extract_all_char_ngrams, extract_all_word_ngrams,  # noqa: F401 - the import is the test
                                        extract_char_ngrams, extract_word_ngrams)
    assert cybleu.CHRF is C1 is C2 and METRICS["CHRF"] is C1
    assert (CHRF.CHAR_ORDER, CHRF.WORD_ORDER, CHRF.BETA) == (6, 0, 2)
    assert CHRF._PUNCTS == SacreCHRF._PUNCTS
    assert cybleu.extract_char_ngrams is extract_char_ngrams


def test_sentence_score_and_none_references(kernel):
    for kw in ({}, {"word_order": 2}):
        ours, oracle = CHRF(**kw), SacreCHRF(**kw)
        _same(ours.sentence_score("a b c", ["a b", None, "a b c d"]),
              oracle.sentence_score("a b c", ["a b", None, "a b c d"]))
        assert ours.get_signature().format().rsplit(":", 1)[0] == \
            oracle.get_signature().format().rsplit(":", 1)[0]
        _same(ours.corpus_score(HYPS, [REFS_A, REFS_B]), oracle.corpus_score(HYPS, [REFS_A, REFS_B]))
        assert "nrefs:var" in str(ours.get_signature())


def test_cached_references_and_their_shape(kernel):
    for kw in ({}, {"word_order": 2, "lowercase": True}):
        ours = CHRF(references=[REFS_A, REFS_B], **kw)
        oracle = SacreCHRF(references=[REFS_A, REFS_B], **kw)
        _same(ours.corpus_score(HYPS, None), oracle.corpus_score(HYPS, None))
        _same(ours.corpus_score(HYPS[::-1], None), oracle.corpus_score(HYPS[::-1], None))
        assert len(ours._ref_cache) == len(oracle._ref_cache)
        for i in range(-len(HYPS), len(HYPS)):
            got, want = ours._ref_cache[i], oracle._ref_cache[i]
            assert got == want
            assert [[list(c.items()) for c in ref] for ref in got["ref_ngrams"]] == \
                [[list(c.items()) for c in ref] for ref in want["ref_ngrams"]]
        assert ours._ref_cache[1:3] == oracle._ref_cache[1:3]
        assert list(ours._ref_cache) == list(oracle._ref_cache)
        assert [bits(x) for x in ours.sentence_scores(HYPS)] == \
            [bits(oracle.sentence_score(h, [REFS_A[i], REFS_B[i]]).score)
             for i, h in enumerate(HYPS)]
    with pytest.raises(RuntimeError, match="cache is empty"):
        CHRF().corpus_score(HYPS, None)


def test_settings_changed_after_caching_follow_sacrebleu(kernel):
    """sacreBLEU keeps the cached reference n-grams and reads the new settings for the
    hypotheses; cybleu then runs the hooks on its cached dicts, giving the same numbers."""
    for attr, value in (("lowercase", True), ("whitespace", True), ("beta", 1)):
        ours, oracle = CHRF(references=[REFS_A]), SacreCHRF(references=[REFS_A])
        setattr(ours, attr, value)
        setattr(oracle, attr, value)
        _same(ours.corpus_score(HYPS, None), oracle.corpus_score(HYPS, None))


def test_pickle_and_deepcopy_keep_the_cache(kernel):
    ours = CHRF(word_order=2, references=[REFS_A, REFS_B])
    want = SacreCHRF(word_order=2, references=[REFS_A, REFS_B]).corpus_score(HYPS, None)
    for clone in (pickle.loads(pickle.dumps(ours)), copy.deepcopy(ours)):
        _same(clone.corpus_score(HYPS, None), want)
        assert clone._ref_cache[0] == ours._ref_cache[0]


def test_private_hooks_against_sacrebleu(kernel):
    hyps, refs = _slice(0, *SYSTEMS[0][1:], 50) if SYSTEMS[0][1] else (HYPS, [REFS_A])
    for kw in ({}, {"word_order": 2}, {"whitespace": True, "eps_smoothing": True}):
        ours, oracle = CHRF(**kw), SacreCHRF(**kw)
        rows = oracle._extract_corpus_statistics(hyps, refs)
        assert ours._extract_corpus_statistics(hyps, refs) == rows
        for i in range(len(hyps)):
            assert bits(ours._aggregate_and_compute(rows[i:i + 1]).score) == \
                bits(oracle._aggregate_and_compute(rows[i:i + 1]).score)
        # the float32 statistics sacreBLEU's bootstrap passes: float32 arithmetic, as in sacreBLEU
        arr = np.array(rows, dtype="float32")
        for sample in (arr.sum(0), arr[::2].sum(0), arr[:1].sum(0)):
            assert bits(ours._compute_score_from_stats(sample).score) == \
                bits(oracle._compute_score_from_stats(sample).score)
        assert bits(ours._compute_score_from_stats(np.array(rows).sum(0).tolist()).score) == \
            bits(oracle._compute_score_from_stats(np.array(rows).sum(0).tolist()).score)
        for line in hyps[:20] + ["(hi)", "a.", ".a", "..", "x"]:
            assert ours._remove_punctuation(line) == oracle._remove_punctuation(line)
            assert ours._preprocess_segment(line) == oracle._preprocess_segment(line)
        info = oracle._extract_reference_info([oracle._preprocess_segment(r) for r in refs[0][:5]])
        assert ours._extract_reference_info([ours._preprocess_segment(r) for r in refs[0][:5]]) \
            == info
        for hyp in hyps[:5]:
            h = oracle._preprocess_segment(hyp)
            assert ours._compute_segment_statistics(h, info) == \
                oracle._compute_segment_statistics(h, info)
        for stats in rows[:20]:
            assert bits(ours._compute_f_score(stats)) == bits(oracle._compute_f_score(stats))
        assert ours._get_match_statistics(*info["ref_ngrams"][0][:2]) == \
            oracle._get_match_statistics(*info["ref_ngrams"][0][:2])


def test_bootstrap_matches_sacrebleu(kernel):
    got = CHRF(word_order=2).corpus_score(HYPS * 5, [REFS_A * 5], n_bootstrap=30)
    want = SacreCHRF(word_order=2).corpus_score(HYPS * 5, [REFS_A * 5], n_bootstrap=30)
    _same(got, want)
    assert (bits(got._mean), bits(got._ci)) == (bits(want._mean), bits(want._ci))


def test_subclass_hooks_are_honoured(kernel):
    """A subclass that overrides a hook gets what sacreBLEU gives with the same override."""
    def no_split(self, sent):
        return sent.split()

    class Ours(CHRF):
        _remove_punctuation = no_split

    class Theirs(SacreCHRF):
        _remove_punctuation = no_split

    _same(Ours(word_order=2).corpus_score(HYPS, [REFS_A]),
          Theirs(word_order=2).corpus_score(HYPS, [REFS_A]))
    _same(Ours(word_order=2).sentence_score(HYPS[0], [REFS_A[0]]),
          Theirs(word_order=2).sentence_score(HYPS[0], [REFS_A[0]]))
    assert Ours(word_order=2)._extract_corpus_statistics(HYPS, [REFS_A]) == \
        Theirs(word_order=2)._extract_corpus_statistics(HYPS, [REFS_A])


def test_pairwise_matches_sentence_chrf(kernel):
    hyps, refs = (_slice(3, *SYSTEMS[3][1:], 12) if len(SYSTEMS) > 3 and SYSTEMS[3][1]
                  else (HYPS, [REFS_A]))
    cols = refs[0][:9] + ["", " ", "x"]
    for kw in ({}, {"word_order": 2}, {"eps_smoothing": True, "remove_whitespace": False},
               {"lowercase": True, "beta": 1}):
        lower = kw.pop("lowercase", False)
        got = cybleu.pairwise_chrf(hyps, cols, lowercase=lower, **kw)
        assert got.shape == (len(hyps), len(cols)) and got.dtype == np.float64
        prep = (lambda s: s.lower()) if lower else (lambda s: s)
        want = [[sacrebleu.sentence_chrf(prep(h), [prep(r)], **kw).score for r in cols]
                for h in hyps]
        assert [[bits(x) for x in row] for row in got] == [[bits(x) for x in row] for row in want]
    square = cybleu.pairwise_chrf(HYPS, word_order=2)
    assert [[bits(x) for x in row] for row in square] == \
        [[bits(sacrebleu.sentence_chrf(h, [r], word_order=2).score) for r in HYPS] for h in HYPS]
    assert cybleu.pairwise_chrf([], ["a"]).shape == (0, 1)


def test_helpers_match_sacrebleu():
    from sacrebleu.metrics import helpers as theirs

    from cybleu.metrics import helpers as ours
    for line in HYPS + REFS_A + ["a  b\tc\u3000d", "", " "]:
        for ws in (False, True):
            for n in range(0, 5):
                got, want = ours.extract_char_ngrams(line, n, ws), theirs.extract_char_ngrams(line, n, ws)
                assert list(got.items()) == list(want.items())
            assert [list(c.items()) for c in ours.extract_all_char_ngrams(line, 6, ws)] == \
                [list(c.items()) for c in theirs.extract_all_char_ngrams(line, 6, ws)]
        for lo, hi in ((1, 4), (2, 3), (1, 1)):
            got, want = ours.extract_all_word_ngrams(line, lo, hi), \
                theirs.extract_all_word_ngrams(line, lo, hi)
            assert list(got[0].items()) == list(want[0].items()) and got[1] == want[1]
        tokens = line.split()
        for n in range(1, 4):
            assert list(ours.extract_word_ngrams(tokens, n).items()) == \
                list(theirs.extract_word_ngrams(tokens, n).items())


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("call,error,message", [
    (lambda: cybleu.corpus_chrf("a hypothesis", "a reference"), TypeError,
     r"not a single str.*sentence_chrf\(hyp, \[ref\]\).*corpus_chrf\(\[hyp\], \[\[ref\]\]\)"),
    (lambda: cybleu.corpus_chrf(["a"], "a reference"), TypeError,
     r"`refs` should be a sequence of reference streams.*corpus_chrf\(\[hyp\], \[\[ref\]\]\)"),
    (lambda: cybleu.corpus_chrf([["a", "b"]], [["a b"]]), TypeError,
     r"hypothesis 0 is a list of 2 strings.*' '.join\(tokens\)"),
    (lambda: cybleu.corpus_chrf(["a b"], [[["a", "b"]]]), TypeError,
     r"reference 0 of stream 0 is a list of 2 strings.*' '.join\(tokens\)"),
    (lambda: cybleu.sentence_chrf(["a", "b"], ["a b"]), TypeError, r"`hyp` should be a string"),
    (lambda: cybleu.sentence_chrf("a b", "a b"), TypeError, r"sentence_chrf\(hyp, \[ref\]\)"),
    (lambda: cybleu.sentence_chrf("a b", [["a", "b"]]), TypeError, r"' '.join\(tokens\)"),
    (lambda: cybleu.sentence_chrf("a", []), ValueError, "at least one reference"),
    (lambda: cybleu.corpus_chrf(["a", "b"], ["a", "b"]), ValueError, r"pass \[refs\], not refs"),
    (lambda: cybleu.corpus_chrf(["a", "b"], [["a"]]), ValueError, "2 hypotheses but 1 references"),
    (lambda: cybleu.corpus_chrf([], [[]]), ValueError, "corpus is empty"),
    (lambda: cybleu.corpus_chrf(["a"], [[None]]), ValueError, "segment 0 has no reference"),
    (lambda: cybleu.sentence_chrf("a", [None]), ValueError, "segment 0 has no reference"),
    (lambda: cybleu.corpus_chrf(["a", None], [["a", "b"]]), TypeError, "Undefined line"),
    (lambda: CHRF(char_order=-1), ValueError, r"char_order must be an int >= 0 \(at most 256\)"),
    (lambda: CHRF(char_order=0, word_order=0), ValueError, "nothing to count"),
    (lambda: CHRF(beta=True), TypeError, "beta must be a real number"),
    (lambda: CHRF(beta="2"), TypeError, "beta must be a real number"),
    (lambda: CHRF(beta=float("inf")), ValueError, "beta must be finite"),
    (lambda: cybleu.pairwise_chrf("abc"), TypeError, "sequence of strings"),
    (lambda: cybleu.pairwise_chrf(["a"], [["a"]]), TypeError, "flat list of sentences"),
])
def test_bad_input_is_a_clear_error(kernel, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_error_mid_corpus_keeps_the_cache_usable(kernel):
    metric = CHRF(references=[REFS_A])
    with pytest.raises(TypeError, match="hypothesis 3 is bytes"):
        metric.corpus_score(HYPS[:3] + [b"bytes"] + HYPS[4:], None)
    _same(metric.corpus_score(HYPS, None), SacreCHRF(references=[REFS_A]).corpus_score(HYPS, None))


def test_no_tokenized_period_warning(kernel, caplog):
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        cybleu.corpus_chrf(["a ."] * 100, [["a ."] * 100])
    assert caplog.text == ""


def test_numpy_beta_follows_sacrebleus_arithmetic(kernel):
    """A float32 beta makes sacreBLEU's f-score float32: cybleu then runs the hooks, with the same
    result; a float64 or int64 one gives the plain numbers."""
    for beta in (np.float32(2), np.float32(0.3), np.float64(1.5), np.int64(3)):
        ours, oracle = CHRF(beta=beta, word_order=1), SacreCHRF(beta=beta, word_order=1)
        got, want = ours.corpus_score(HYPS, [REFS_A, REFS_B]), \
            oracle.corpus_score(HYPS, [REFS_A, REFS_B])
        assert bits(got.score) == bits(want.score) and got.format() == want.format()
        assert [bits(x) for x in ours.sentence_scores(HYPS, [REFS_A, REFS_B])] == \
            [bits(oracle.sentence_score(h, [REFS_A[i], REFS_B[i]]).score)
             for i, h in enumerate(HYPS)]
        pair = ours.pairwise_scores(HYPS[:3], REFS_A[:2])
        assert [bits(x) for x in pair.ravel()] == \
            [bits(oracle.sentence_score(h, [r]).score) for h in HYPS[:3] for r in REFS_A[:2]]
