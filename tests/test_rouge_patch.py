"""cybleu.patch_rouge_score(): the installed rouge-score, computed by cybleu, gives the numbers
it gives unpatched (its own classes, its own Score type), and the aggregator leaves numpy's global
state where it would; HF evaluate's `rouge` metric through the patch."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from rouge_data import documents, english_lines
from test_rouge import (ALL_TYPES, Recording, cases, paragraphs, punkt,  # noqa: F401 - pytest fixtures
                        punkt_folder, typed)

import cybleu

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer",
                                   reason="rouge-score is not installed: pip install "
                                   "rouge-score==0.1.2")
from rouge_score import scoring, tokenize  # noqa: E402 - after the importorskip above


@pytest.fixture
def unpatched():
    cybleu.unpatch_rouge_score()
    yield
    cybleu.unpatch_rouge_score()


def both_ways(call):
    """call() unpatched, then patched: the two results."""
    cybleu.unpatch_rouge_score()
    want = call()
    cybleu.patch_rouge_score()
    try:
        got = call()
    finally:
        cybleu.unpatch_rouge_score()
    return got, want


def test_patch_installs_and_removes(unpatched):
    originals = (rouge_scorer.RougeScorer.score, rouge_scorer.RougeScorer.score_multi,
                 scoring.BootstrapAggregator._bootstrap_resample, tokenize.tokenize)
    assert not cybleu.is_patched("rouge_score")
    cybleu.patch_rouge_score()
    cybleu.patch_rouge_score()   # a second call does nothing
    assert cybleu.is_patched("rouge_score")
    assert rouge_scorer.RougeScorer.score.__wrapped__ is originals[0]
    assert rouge_scorer.RougeScorer.score is not originals[0]
    cybleu.unpatch_rouge_score()
    assert (rouge_scorer.RougeScorer.score, rouge_scorer.RougeScorer.score_multi,
            scoring.BootstrapAggregator._bootstrap_resample, tokenize.tokenize) == originals
    with cybleu.patched("rouge_score"):
        assert cybleu.is_patched("rouge_score")
    assert not cybleu.is_patched("rouge_score")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_patched_scores_are_rouge_scores(case):
    prediction, targets, types, stem = case

    def call():
        scorer = rouge_scorer.RougeScorer(types, use_stemmer=stem)
        one = scorer.score(targets[0], prediction)
        multi = scorer.score_multi(targets, prediction)
        assert all(type(v) is scoring.Score for v in list(one.values()) + list(multi.values()))
        return typed(one), typed(multi), tokenize.tokenize(prediction, scorer._tokenizer._stemmer)

    got, want = both_ways(call)
    assert got == want


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(paragraphs(), paragraphs())
def test_patched_split_summaries(punkt, target, prediction):  # noqa: F811 - the fixture imported above
    got, want = both_ways(lambda: typed(rouge_scorer.RougeScorer(
        ["rouge1", "rougeLsum"], use_stemmer=True, split_summaries=True).score(target, prediction)))
    assert got == want


def test_patched_odd_inputs_take_rouge_scores_own_code(unpatched):
    """A tokenizer of the user's, bytes, a str for targets, a bad type: rouge-score's own
    behaviour, errors included."""
    def call():
        out = []
        for scorer, target, prediction in (
                (rouge_scorer.RougeScorer(["rouge1", "rougeLsum"], tokenizer=Recording()),
                 "a b\nc", "a c"),
                (rouge_scorer.RougeScorer(["rouge2", "rougeL"]), b"A b c", b"a B c"),
                (rouge_scorer.RougeScorer(["rouge1"]), "x", "a")):
            out.append(typed(scorer.score(target, prediction)))
        out.append(typed(rouge_scorer.RougeScorer(["rouge1"]).score_multi("a cat", "a dog")))
        for bad in (["rougex"], ["rouge0"]):
            try:
                rouge_scorer.RougeScorer(bad).score("a", "b")
            except ValueError as err:
                out.append(str(err))
        try:
            rouge_scorer.RougeScorer(["rouge1"]).score(None, "b")
        except AttributeError as err:
            out.append(str(err))
        return out
    got, want = both_ways(call)
    assert got == want
    assert len(want) == 7


@pytest.mark.parametrize("use_stemmer", [False, True])
def test_patched_aggregator_same_intervals_same_numpy_state(use_stemmer, unpatched):
    ref, hyp, _ = english_lines()
    pairs = list(zip(documents(ref, 3, 120), documents(hyp, 3, 120)))

    def call():
        scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"],
                                          use_stemmer=use_stemmer)
        aggregator = scoring.BootstrapAggregator()
        np.random.seed(42)
        for t, p in pairs:
            aggregator.add_scores(scorer.score(t, p))
        result = aggregator.aggregate()
        state = np.random.get_state()
        return ([(k, [(type(s).__name__, tuple(map(float, s)), tuple(map(type, s)))
                      for s in v]) for k, v in result.items()], state[1].tolist(), state[2])

    got, want = both_ways(call)
    assert got == want


def _evaluate_compute(predictions, references, use_aggregator, use_stemmer, rouge_types=None):
    """The calls HF evaluate's `rouge` metric makes (its Rouge._compute, with its default
    tokenizer): rouge-score's RougeScorer and BootstrapAggregator, mid.fmeasure, or every
    pair's fmeasure."""
    rouge_types = rouge_types or ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    scorer = rouge_scorer.RougeScorer(rouge_types=rouge_types, use_stemmer=use_stemmer,
                                      tokenizer=None)
    aggregator = scoring.BootstrapAggregator() if use_aggregator else None
    scores = []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        if use_aggregator:
            aggregator.add_scores(score)
        else:
            scores.append(score)
    if use_aggregator:
        return {k: v.mid.fmeasure for k, v in aggregator.aggregate().items()}
    return {k: [s[k].fmeasure for s in scores] for k in scores[0]}


@pytest.mark.parametrize("use_aggregator", [True, False])
@pytest.mark.parametrize("multi_ref", [False, True])
def test_evaluates_rouge_calls_through_the_patch(use_aggregator, multi_ref, unpatched):
    ref, hyp, other = english_lines()
    predictions = documents(hyp, 2, 100)
    references = documents(ref, 2, 100)
    if multi_ref:
        references = [[r, o] for r, o in zip(references, documents(other, 2, 100))]

    def call():
        np.random.seed(0)
        result = _evaluate_compute(predictions, references, use_aggregator, True)
        return {k: (type(v).__name__, repr(v)) for k, v in result.items()}

    got, want = both_ways(call)
    assert got == want


@pytest.mark.parametrize("use_aggregator", [True, False])
def test_hf_evaluate_rouge_script_through_the_patch(use_aggregator, tmp_path):
    """evaluate.load of evaluate's own `rouge` script (from CYBLEU_EVALUATE_METRICS), unpatched
    and patched, in a fresh process each: the same results."""
    pytest.importorskip("evaluate", reason="evaluate is not installed (pip install evaluate)")
    from conftest import evaluate_metric_script
    script = evaluate_metric_script("rouge")
    ref, hyp, _ = english_lines()
    child = textwrap.dedent(f"""
        import json, sys
        import numpy as np
        import cybleu, evaluate
        if sys.argv[1] == "patched":
            cybleu.patch_rouge_score()
        np.random.seed(1)     # evaluate seeds compute() from numpy's state when loaded
        metric = evaluate.load({str(script)!r})
        result = metric.compute(predictions=json.loads(sys.argv[2]),
                                references=json.loads(sys.argv[3]),
                                use_aggregator={use_aggregator}, use_stemmer=True)
        print(json.dumps({{k: repr(v) for k, v in result.items()}}))
    """)
    import json
    args = [json.dumps(documents(hyp, 2, 60)), json.dumps(documents(ref, 2, 60))]
    out = {}
    for mode in ("plain", "patched"):
        proc = subprocess.run([sys.executable, "-c", child, mode] + args, capture_output=True,
                              text=True, cwd=tmp_path, env=dict(os.environ), timeout=600)
        assert proc.returncode == 0, proc.stderr
        out[mode] = proc.stdout.strip().splitlines()[-1]
    assert out["plain"] == out["patched"]
