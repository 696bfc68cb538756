"""Drop-in gaps against the library each face mirrors (sacreBLEU 2.6.0, Hugging Face evaluate):
numpy scalars from significance tests, numpy integer arguments, float32 smoothing values in the
batch path, any Sequence of hypotheses, errors that name the fix for a transposed reference
layout, and code that aliases `sacrebleu` to cybleu. Run once per backend
(CYBLEU_IMPLEMENTATION=cython / python)."""
import itertools
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Sequence as _Sequence

import numpy as np
import pytest
import sacrebleu
import sacrebleu.significance as sacre_sig

import cybleu
import cybleu.significance as cy_sig
from cybleu import hf, ids
from cybleu.version import __version__

HYPS = ["the cat sat on the mat today", "a b c d e f", "x y z", "hello there world",
        "one two three four five six"]
REFS = [["the cat is on the mat", "a b c x e f g", "x q z w", "hello world", "one two three"],
        ["a cat sat on the mat", "a b c d", "x y", "hi there world", "one two four five six"]]
OTHER = ["the cat is on a mat today", "a b c x e", "x z", "hello there", "one two three five"]


def bits(x):
    return struct.pack("<d", float(x))


# -- significance: numpy scalars, as sacreBLEU gives them ---------------------------------------

def _paired(lib, sig, test_type, metric_name):
    refs = [REFS[0]]
    metric = {"BLEU": lib.BLEU, "chrF": lib.CHRF, "TER": lib.TER}[metric_name](references=refs)
    n = 200 if test_type == "bs" else 100
    extra = {"n_ar_confidence": 50} if test_type == "ar" else {}
    return sig.PairedTest([("base", HYPS), ("other", OTHER)], {metric_name: metric}, None,
                          test_type, n, **extra)()[1]


@pytest.mark.parametrize("test_type", ["bs", "ar"])
@pytest.mark.parametrize("metric_name", ["BLEU", "chrF", "TER"])
def test_result_mean_and_ci_are_numpy_scalars_as_in_sacrebleu(test_type, metric_name):
    """sacreBLEU's Result.mean and .ci are numpy.float64 (numpy.float32 for chrF and TER):
    `.item()` works and the repr is sacreBLEU's; cybleu gave Python floats for BLEU."""
    ours = _paired(cybleu, cy_sig, test_type, metric_name)
    theirs = _paired(sacrebleu, sacre_sig, test_type, metric_name)
    keys = [k for k in theirs if k != "System"]
    assert keys == [k for k in ours if k != "System"]
    for key in keys:
        for a, b in zip(ours[key], theirs[key]):
            assert repr(a) == repr(b)
            for name in ("score", "p_value", "mean", "ci"):
                got, want = getattr(a, name), getattr(b, name)
                assert type(got) is type(want), (name, type(got), type(want))
                if want is not None:
                    assert got == want
                    if isinstance(want, np.generic):
                        assert got.item() == want.item()


def test_estimate_ci_returns_numpy_scalars_as_in_sacrebleu():
    scores = [float(x) for x in np.random.default_rng(1).normal(30, 2, 1000)]
    for data in (scores, np.array(scores), np.array(scores, dtype=np.float32)):
        ours, theirs = cy_sig.estimate_ci(data), sacre_sig.estimate_ci(data)
        assert [type(v) for v in ours] == [type(v) for v in theirs]
        assert [bits(v) for v in ours] == [bits(v) for v in theirs]
    with pytest.raises(ValueError, match="at least one score"):
        cy_sig.estimate_ci([])


def test_the_command_line_stays_without_numpy(tmp_path):
    """The numpy scalars are made when a Result is read: the command line's paired tests, which
    format the stored floats, still do not import numpy (~0.1 s of a 0.3 s run). (The compiled
    resampler's promise: the pure-Python twin resamples with numpy itself.)"""
    if cybleu.BACKEND != "cython":
        pytest.skip("the pure-Python resampler imports numpy (it is the numpy specification)")
    import os
    data = os.path.join(os.path.dirname(cybleu.__file__), "data")
    code = ("import sys, runpy; sys.argv = ['cybleu', sys.argv[1], '-i', sys.argv[2], "
            "sys.argv[3], '-pbs', '-pbsn', '50', '-f', 'text']\n"
            "try:\n    runpy.run_module('cybleu', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "print('numpy' in sys.modules, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, os.path.join(data, "wmt17-en-de.ref.txt"),
                           os.path.join(data, "wmt17-en-de.KIT.txt"),
                           os.path.join(data, "wmt17-en-de.online-B.txt")],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "(μ ± 95% CI)" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "False"


# -- numpy integer arguments, as sacreBLEU accepts them -----------------------------------------

@pytest.mark.parametrize("make", [np.int64, np.int32, np.uint8, np.int16])
def test_numpy_integer_orders(make):
    """Configs read through numpy or OmegaConf carry numpy integers: BLEU(max_ngram_order=
    np.int64(4)) and CHRF(char_order=np.int64(6)) were refused."""
    for kwargs in ({"max_ngram_order": make(3)}, {"max_ngram_order": make(4),
                                                  "effective_order": True}):
        ours, theirs = cybleu.BLEU(**kwargs), sacrebleu.BLEU(**kwargs)
        a, b = ours.corpus_score(HYPS, REFS), theirs.corpus_score(HYPS, REFS)
        assert (bits(a.score), a.counts, a.totals) == (bits(b.score), b.counts, b.totals)
        assert str(ours.get_signature()).split("|")[:-1] == \
            str(theirs.get_signature()).split("|")[:-1]
        batch = ours.sentence_scores(HYPS, REFS)
        assert [bits(x) for x in batch] == [bits(theirs.sentence_score(h, list(r)).score)
                                            for h, r in zip(HYPS, zip(*REFS))]
    for eps in (False, True):
        kwargs = {"char_order": make(5), "word_order": make(2), "eps_smoothing": eps}
        ours, theirs = cybleu.CHRF(**kwargs), sacrebleu.CHRF(**kwargs)
        a, b = ours.corpus_score(HYPS, REFS), theirs.corpus_score(HYPS, REFS)
        # the type too: with eps_smoothing sacreBLEU's score is numpy.float64 (score / order)
        assert type(a.score) is type(b.score) and bits(a.score) == bits(b.score)
        assert str(a) == str(b)
        s_a, s_b = ours.sentence_score(HYPS[0], [REFS[0][0]]), \
            theirs.sentence_score(HYPS[0], [REFS[0][0]])
        assert type(s_a.score) is type(s_b.score) and bits(s_a.score) == bits(s_b.score)
    assert hf.bleu(HYPS, list(zip(*REFS)), max_order=make(3)) == \
        hf.bleu(HYPS, list(zip(*REFS)), max_order=3)
    ids.sentence_bleu([[1, 2, 3]], [[1, 2, 3]], max_order=make(3))


def test_numpy_integer_counts_in_significance():
    refs = [REFS[0]]
    for test_type in ("bs", "ar"):
        ours = cy_sig.PairedTest([("a", HYPS), ("b", OTHER)], {"BLEU": cybleu.BLEU(
            references=refs)}, None, test_type, np.int64(60))()[1]["BLEU"]
        theirs = sacre_sig.PairedTest([("a", HYPS), ("b", OTHER)], {"BLEU": sacrebleu.BLEU(
            references=refs)}, None, test_type, np.int64(60))()[1]["BLEU"]
        assert repr(ours) == repr(theirs)


# -- chrF's orders bounded, with an error naming the argument ------------------------------------

@pytest.mark.parametrize("kwargs,name", [({"char_order": 2**31}, "char_order"),
                                         ({"word_order": 2**31}, "word_order"),
                                         ({"char_order": 257}, "char_order"),
                                         ({"word_order": np.int64(2**40)}, "word_order")])
def test_chrf_orders_are_bounded_as_bleus(kwargs, name):
    """An OverflowError naming no argument before (sacreBLEU hangs long before 2**31)."""
    with pytest.raises(ValueError, match=rf"CHRF: {name} must be an int >= 0 \(at most 256\)"):
        cybleu.CHRF(**kwargs)
    with pytest.raises(ValueError, match=rf"CHRF: {name} must be"):
        cybleu.corpus_chrf(["a"], [["a"]], **kwargs)
    assert cybleu.CHRF(**{name: 256}).order >= 256


# -- float32/float16 smoothing values: sacreBLEU's arithmetic in batch too -----------------------

@pytest.mark.parametrize("smooth_method", ["floor", "add-k"])
@pytest.mark.parametrize("value", [np.float32(0.1), np.float16(0.3), np.float32(2.5),
                                   np.float64(0.1), 0.1, 2, np.int64(3)])
def test_batch_sentence_bleu_with_numpy_smoothing_values(smooth_method, value):
    """sacreBLEU's arithmetic stays in float32 with a float32 value (NEP 50): the batch path
    differed from sentence_bleu in the last digits; now it gives sentence_bleu's bits."""
    want = [sacrebleu.sentence_bleu(h, list(r), smooth_method=smooth_method,
                                    smooth_value=value).score for h, r in zip(HYPS, zip(*REFS))]
    got = cybleu.batch_sentence_bleu(HYPS, REFS, smooth_method=smooth_method, smooth_value=value)
    assert [bits(x) for x in got] == [bits(x) for x in want]
    ids_hyps = [[1, 2, 3, 4, 5], [6, 7], [1, 9, 3]]
    ids_refs = [[1, 2, 4, 3, 5], [6, 8], [1, 9]]
    got = ids.sentence_bleu(ids_hyps, ids_refs, smooth_method=smooth_method, smooth_value=value)
    want = [sacrebleu.sentence_bleu(" ".join(map(str, h)), [" ".join(map(str, r))],
                                    tokenize="none", smooth_method=smooth_method,
                                    smooth_value=value).score for h, r in zip(ids_hyps, ids_refs)]
    assert [bits(x) for x in got] == [bits(x) for x in want]


def test_pairwise_bleu_names_its_smoothing_value_type():
    with pytest.raises(TypeError, match="pairwise_bleu takes smooth_value as a Python int or "
                                        "float .* got float32"):
        ids.pairwise_bleu([[1, 2], [3]], smooth_method="floor", smooth_value=np.float32(0.1))


# -- any Sequence of hypotheses -----------------------------------------------------------------

class Lines:
    """A Sequence that is neither a list nor a tuple nor sliceable (as a user's class may be)."""

    def __init__(self, items):
        self._items = list(items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        if isinstance(i, slice):
            raise TypeError("unsliceable")
        return self._items[i]


_Sequence.register(Lines)


@pytest.mark.parametrize("wrap", [deque, tuple, Lines])
def test_any_sequence_of_hypotheses(wrap):
    """A deque failed with "object is unsliceable" where sacreBLEU scores it."""
    for lib_name in ("corpus_bleu", "corpus_chrf", "corpus_ter"):
        a = getattr(cybleu, lib_name)(wrap(HYPS), REFS)
        b = getattr(sacrebleu, lib_name)(list(HYPS), REFS)
        assert bits(a.score) == bits(b.score)
    bleu = cybleu.BLEU(references=[wrap(REFS[0])])
    assert bits(bleu.corpus_score(wrap(HYPS), None).score) == \
        bits(sacrebleu.BLEU(references=[REFS[0]]).corpus_score(HYPS, None).score)
    for fn, cls in (("batch_sentence_bleu", sacrebleu.BLEU), ("batch_sentence_chrf",
                                                               sacrebleu.CHRF),
                    ("batch_sentence_ter", sacrebleu.TER)):
        kwargs = {"effective_order": True} if cls is sacrebleu.BLEU else {}
        want = [cls(**kwargs).sentence_score(h, list(r)).score for h, r in zip(HYPS, zip(*REFS))]
        assert [bits(x) for x in getattr(cybleu, fn)(wrap(HYPS), REFS)] == \
            [bits(x) for x in want]
    assert cybleu.BLEU().corpus_score(wrap(HYPS), REFS, n_bootstrap=20).format() == \
        sacrebleu.BLEU().corpus_score(HYPS, REFS, n_bootstrap=20).format()


# -- a transposed reference layout: the error names the fix -------------------------------------

PER_HYP = [list(r) for r in zip(*REFS)]    # one list of references per hypothesis (5 lists of 2)


@pytest.mark.parametrize("call", [
    lambda refs: cybleu.corpus_bleu(HYPS, refs), lambda refs: cybleu.corpus_chrf(HYPS, refs),
    lambda refs: cybleu.corpus_ter(HYPS, refs),
    lambda refs: cybleu.batch_sentence_bleu(HYPS, refs),
    lambda refs: cybleu.batch_sentence_chrf(HYPS, refs),
    lambda refs: cybleu.batch_sentence_ter(HYPS, refs),
    lambda refs: cybleu.BLEU().corpus_score(HYPS, refs),
    lambda refs: cybleu.CHRF(word_order=2).sentence_scores(HYPS, refs),
    lambda refs: cy_sig.paired_bootstrap(cybleu.BLEU(), HYPS, [OTHER], 10, references=refs),
])
def test_per_hypothesis_references_name_the_fix(call):
    """lighteval, FlexRAG, T5 and NeMo pass one list of references per hypothesis where sacreBLEU
    takes streams: sacreBLEU scores the first hypotheses only (zip), cybleu said "5 hypotheses
    but 2 references per stream"; now it also says what to pass."""
    with pytest.raises(ValueError, match=r"5 hypotheses but 2 references per stream.*`refs` "
                                         r"looks like one list of references per hypothesis: "
                                         r"pass `list\(zip\(\*refs\)\)`"):
        call(PER_HYP)
    ragged = [PER_HYP[0], PER_HYP[1][:1]] + PER_HYP[2:]
    with pytest.raises(ValueError, match=r"different lengths .* pass "
                                         r"`list\(itertools.zip_longest\(\*refs\)\)`"):
        call(ragged)
    call(list(zip(*PER_HYP)))                            # the fix the message names
    call(list(itertools.zip_longest(*ragged)))


def test_the_fix_gives_sacrebleus_score():
    ragged = [PER_HYP[0], PER_HYP[1][:1]] + PER_HYP[2:]
    fixed = list(itertools.zip_longest(*ragged))
    for name in ("corpus_bleu", "corpus_chrf", "corpus_ter"):
        assert bits(getattr(cybleu, name)(HYPS, fixed).score) == \
            bits(getattr(sacrebleu, name)(HYPS, fixed).score)


def test_hf_bleu_names_the_fix_for_streams():
    with pytest.raises(ValueError, match=r"`references` looks like sacreBLEU's reference streams"
                                         r".*references=list\(zip\(\*references\)\)"):
        hf.bleu(HYPS, REFS)
    assert hf.bleu(HYPS, list(zip(*REFS)))["bleu"] > 0


# -- hf.bleu(max_order=0) and self-BLEU of one sentence -----------------------------------------

def test_hf_max_order_below_1():
    for order in (0, -1, np.int64(0)):
        with pytest.raises(ValueError, match="hf: max_order must be at least 1"):
            hf.bleu(["a b"], ["a b"], max_order=order)


def test_self_bleu_of_one_sentence():
    with pytest.raises(ValueError, match="self-BLEU needs at least two sentences"):
        ids.self_bleu([[1, 2, 3]])
    with pytest.raises(ValueError, match="self-BLEU needs at least two sentences"):
        ids.self_bleu_stats(np.array([[1, 2, 3]]))
    assert ids.self_bleu([]).shape == (0,)


# -- `sys.modules["sacrebleu"] = cybleu` and evaluate's version check ---------------------------

ALIAS = """
import sys, cybleu
print(cybleu.__version__)
sys.modules["sacrebleu"] = cybleu
import sacrebleu as scb
try:
    scb.__version__
except ImportError as err:
    print("ImportError:", err)
"""


def test_an_alias_reading_the_version_points_to_patch_sacrebleu():
    """evaluate's sacrebleu/chrf/ter scripts check `sacrebleu.__version__ >= 1.4.12`: through an
    alias they read cybleu's version and raised evaluate's own ImportWarning ("install
    sacrebleu>=1.4.12"). Now the read raises an ImportError that names patch_sacrebleu()."""
    proc = subprocess.run([sys.executable, "-c", ALIAS], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    first, second = proc.stdout.splitlines()[:2]
    assert first == __version__
    assert second.startswith("ImportError: `sacrebleu` is cybleu here")
    assert "cybleu.patch_sacrebleu()" in second


def test_version_without_an_alias():
    from importlib.metadata import version
    assert cybleu.__version__ == __version__ == version("cybleu")
    assert "__version__" in cybleu.__all__ and "__version__" in dir(cybleu)


@pytest.mark.parametrize("name", ["sacrebleu", "chrf", "ter"])
def test_evaluate_scripts_through_an_alias_and_through_the_patch(name, tmp_path):
    pytest.importorskip("evaluate", reason="evaluate is not installed (pip install "
                                           "'cybleu[hf]')")
    from conftest import evaluate_metric_script
    script = evaluate_metric_script(name)
    code = f"""
import os, sys, warnings
warnings.simplefilter("ignore")
for k in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
    os.environ[k] = "1"
import cybleu, evaluate
if sys.argv[1] == "alias":
    sys.modules["sacrebleu"] = cybleu
    try:
        evaluate.load({str(script)!r})
    except ImportError as err:
        print("ImportError", "cybleu.patch_sacrebleu()" in str(err))
else:
    cybleu.patch_sacrebleu()
    metric = evaluate.load({str(script)!r})
    print(metric.compute(predictions=["the cat sat"], references=[["the cat sat on"]])["score"])
"""
    env = {**__import__("os").environ, "HF_HOME": str(tmp_path)}
    alias = subprocess.run([sys.executable, "-c", code, "alias"], capture_output=True, text=True,
                           timeout=300, env=env)
    assert alias.stdout.strip().splitlines()[-1] == "ImportError True", alias.stderr[-2000:]
    patched = subprocess.run([sys.executable, "-c", code, "patch"], capture_output=True,
                             text=True, timeout=300, env=env)
    assert patched.returncode == 0, patched.stderr[-2000:]
    want = {"sacrebleu": sacrebleu.corpus_bleu, "chrf": sacrebleu.corpus_chrf,
            "ter": sacrebleu.corpus_ter}[name](["the cat sat"], [["the cat sat on"]]).score
    assert float(patched.stdout.strip().splitlines()[-1]) == want


# -- sacrebleu.utils.print_results_table: what it prints and what it leaves in the caller's dict --

@pytest.mark.parametrize("fmt", ["text", "latex", "json"])
@pytest.mark.parametrize("paired", [None, "bs", "ar"])
@pytest.mark.parametrize("colors", [False, True])
def test_print_results_table_leaves_the_dict_as_sacrebleu(fmt, paired, colors, capsys,
                                                          monkeypatch):
    """sacreBLEU's text and LaTeX tables pop 'System' off the caller's dict and colour the
    baseline's name in the caller's list of names; JSON leaves both. Code that reads the dict
    after printing (to print it again, or to save it) sees the same with cybleu."""
    import argparse

    import sacrebleu.utils as sacre_utils
    from sacrebleu.significance import Result

    import cybleu.render
    import cybleu.utils
    monkeypatch.setattr(sacre_utils.Color, "ENABLE_COLORS", colors)
    monkeypatch.setattr(cybleu.render.Color, "ENABLE_COLORS", colors)
    args = argparse.Namespace(format=fmt, width=1, paired_bs=paired == "bs",
                              paired_ar=paired == "ar", paired_bs_n=1000, paired_ar_n=10000)
    signatures = {"BLEU": "nrefs:1|bs:1000|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp"}

    def results():
        names = ["Baseline: a.txt", "b.txt"] if paired else ["a.txt", "b.txt"]
        if paired == "bs":   # the bootstrap's mean and interval, a p-value against the baseline
            cells = [Result(31.25, None, 31.2, 1.5), Result(29.5, 0.0123, 29.4, 1.25)]
        elif paired == "ar":
            cells = [Result(31.25), Result(29.5, 0.0625)]
        else:
            cells = ["31.2", "29.5"]
        return {"System": names, "BLEU": cells, "chrF2": list(cells)}

    printed, after = {}, {}
    for name, module in (("sacrebleu", sacre_utils), ("cybleu", cybleu.utils)):
        given = results()
        names, cells = given["System"], given["BLEU"]
        module.print_results_table(given, signatures, args)
        printed[name] = capsys.readouterr().out
        after[name] = (list(given), list(names), given.get("BLEU") is cells)
    assert after["cybleu"] == after["sacrebleu"]
    assert ("System" in after["cybleu"][0]) == (fmt == "json")
    assert printed["cybleu"] == printed["sacrebleu"]
