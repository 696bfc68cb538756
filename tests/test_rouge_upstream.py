"""rouge-score 0.1.2's own tests (its *_test.py files, as installed with it) against
cybleu.rouge_score, on the backend under test.

rouge-score's sdist leaves out its testdata/ folder. The tests that only need files of the right
shape run on files built from the shared WMT data (rouge_data.build_upstream_testdata). The ones
that compare with ROUGE-1.5.5's numbers for rouge-score's own files are skipped unless
CYBLEU_ROUGE_TESTDATA names a folder holding those files (rouge-score's testdata/, from its
repository); what they check is covered here on the built files, against rouge-score itself,
bit for bit (test_what_the_skipped_tests_check_*).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rouge_data import build_punkt_model, build_upstream_testdata

pytest.importorskip("rouge_score", reason="rouge-score (the oracle) is not installed: "
                    "pip install rouge-score==0.1.2")
pytest.importorskip("absl.testing.absltest", reason="absl-py (rouge-score's test framework) is "
                    "not installed")

HERE = Path(__file__).resolve().parent

# the upstream tests that need rouge-score's own data files (their expected numbers are
# ROUGE-1.5.5's for those files), with the files each reads
NEEDS_UPSTREAM_FILES = {
    "testRouge1AgainstRouge155": ("target.txt", "prediction.txt"),
    "testRouge1AgainstRouge155WithStemming": ("target.txt", "prediction.txt"),
    "testRouge2AgainstRouge155": ("target.txt", "prediction.txt"),
    "testRouge2AgainstRouge155WithStemming": ("target.txt", "prediction.txt"),
    "testRougeLAgainstRouge155": ("target.txt", "prediction.txt"),
    "testRougeLSumAgainstRouge155WithStemming": ("pyrouge_files/target_multi.0.txt",
                                                 "pyrouge_files/prediction_multi.0.txt"),
    "testRougeLsumLarge": ("target_large.txt", "prediction_large.txt"),
    "testConfidenceIntervalsAgainstRouge155": ("target_large.txt", "prediction_large.txt"),
    "testConfidenceIntervalsAgainstRouge155WithStemming": ("target_large.txt",
                                                           "prediction_large.txt"),
    "testConfidenceIntervalsAgainstRouge155WithStemmingMultiLine": tuple(
        f"pyrouge_files/{side}_multi.{i}.txt" for side in ("target", "prediction")
        for i in range(250)),
}


def _testdata(tmp_path):
    """The built files, with rouge-score's own where CYBLEU_ROUGE_TESTDATA has them; and the
    tests to skip (those whose files are not rouge-score's)."""
    folder = build_upstream_testdata(tmp_path / "testdata")
    real = os.environ.get("CYBLEU_ROUGE_TESTDATA")
    skips = {}
    for test, files in NEEDS_UPSTREAM_FILES.items():
        if real and all((Path(real) / f).is_file() for f in files):
            for f in files:
                shutil.copyfile(Path(real) / f, folder / f)
        else:
            skips[test] = ("needs rouge-score's testdata/ (not in its sdist): set "
                           "CYBLEU_ROUGE_TESTDATA to a folder holding " + ", ".join(files[:2])
                           + (" ..." if len(files) > 2 else ""))
    return folder, skips


def test_rouge_scores_own_tests_pass_on_cybleu(tmp_path):
    pytest.importorskip("nltk", reason="nltk (rouge-score's sentence splitter and stemmer) is "
                        "not installed")
    folder, skips = _testdata(tmp_path)
    # testRougeLSumSentenceSplitting calls nltk's sentence splitter: a Punkt model made here
    env = dict(os.environ, NLTK_DATA=str(build_punkt_model(tmp_path / "nltk_data")),
               PYTHONPATH=os.pathsep.join([str(HERE)] + [p for p in sys.path if p]))
    proc = subprocess.run([sys.executable, str(HERE / "rouge_upstream.py"), str(folder),
                           json.dumps(skips)], capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    problems = result["failures"] + result["errors"]
    assert not problems, "\n\n".join(f"{name}\n{text}" for name, text in problems)
    # every upstream test ran, but those that need rouge-score's own files and do not have them
    skipped = {name.rsplit(".", 1)[-1] for name in result["skipped"]}
    assert skipped == set(skips), (skipped, set(skips))
    assert result["collected"] >= 40, result
    assert result["ran"] >= result["collected"] - len(skips), result


# -- what the skipped tests check, on the built files, against rouge-score ---------------------

def _same_scores(a, b):
    assert list(a) == list(b)
    for key in a:
        assert tuple(map(type, a[key])) == tuple(map(type, b[key])), key
        assert tuple(a[key]) == tuple(b[key]), (key, a[key], b[key])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_upstream_testdata(tmp_path_factory.mktemp("testdata"))


def test_what_the_skipped_tests_check_scores(built):
    """testRouge{1,2,L}AgainstRouge155[WithStemming], testRougeLSumAgainstRouge155WithStemming
    and testRougeLsumLarge: the same calls on the built files give rouge-score's numbers."""
    from rouge_score import rouge_scorer as theirs

    from cybleu.rouge_score import rouge_scorer as ours
    targets = (built / "target.txt").read_text("utf-8").splitlines(keepends=True)
    predictions = (built / "prediction.txt").read_text("utf-8").splitlines(keepends=True)
    for types, stem in ((["rouge1"], False), (["rouge1"], True), (["rouge2"], False),
                        (["rouge2"], True), (["rougeL"], False)):
        for i in range(2):
            _same_scores(ours.RougeScorer(types, use_stemmer=stem).score(targets[i],
                                                                         predictions[i]),
                         theirs.RougeScorer(types, use_stemmer=stem).score(targets[i],
                                                                           predictions[i]))
    target = (built / "pyrouge_files" / "target_multi.0.txt").read_text("utf-8")
    prediction = (built / "pyrouge_files" / "prediction_multi.0.txt").read_text("utf-8")
    _same_scores(ours.RougeScorer(["rougeLsum"], use_stemmer=True).score(target, prediction),
                 theirs.RougeScorer(["rougeLsum"], use_stemmer=True).score(target, prediction))
    target = (built / "target_large.txt").read_text("utf-8")
    prediction = (built / "prediction_large.txt").read_text("utf-8")
    _same_scores(ours.RougeScorer(["rougeLsum"]).score(target, prediction),
                 theirs.RougeScorer(["rougeLsum"]).score(target, prediction))


def _aggregate(package, types, stem, pairs):
    scorer = package.rouge_scorer.RougeScorer(types, use_stemmer=stem)
    aggregator = package.scoring.BootstrapAggregator()
    np.random.seed(123)
    for target, prediction in pairs:
        aggregator.add_scores(scorer.score(target, prediction))
    result = aggregator.aggregate()
    return result, np.random.get_state()


def test_what_the_skipped_tests_check_intervals(built):
    """testConfidenceIntervalsAgainstRouge155[WithStemming[MultiLine]]: with numpy seeded as
    those tests seed it, the intervals are rouge-score's, value for value, and numpy's state is
    left where rouge-score leaves it."""
    import rouge_score.rouge_scorer
    import rouge_score.scoring  # noqa: F401 - loads the submodule

    import cybleu.rouge_score.rouge_scorer
    import cybleu.rouge_score.scoring  # noqa: F401 - loads the submodule
    theirs, ours = sys.modules["rouge_score"], sys.modules["cybleu.rouge_score"]
    large = list(zip((built / "target_large.txt").read_text("utf-8").splitlines(True),
                     (built / "prediction_large.txt").read_text("utf-8").splitlines(True)))
    multi = [((built / "pyrouge_files" / f"target_multi.{i}.txt").read_text("utf-8"),
              (built / "pyrouge_files" / f"prediction_multi.{i}.txt").read_text("utf-8"))
             for i in range(250)]
    for types, stem, pairs in ((["rouge1"], False, large), (["rouge1", "rougeL"], True, large),
                               (["rouge1", "rouge2", "rougeLsum"], True, multi)):
        got, got_state = _aggregate(ours, types, stem, pairs)
        want, want_state = _aggregate(theirs, types, stem, pairs)
        assert list(got) == list(want)
        for key in want:
            for a, b in zip(got[key], want[key]):
                assert type(a).__name__ == type(b).__name__ == "Score"
                assert [type(v) for v in a] == [type(v) for v in b] == [np.float64] * 3
                assert tuple(a) == tuple(b), (key, a, b)
        assert np.array_equal(got_state[1], want_state[1]) and got_state[2] == want_state[2]
