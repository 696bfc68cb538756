"""batch_rouge, ROUGE on token IDs (cybleu.ids.rouge), the TRL rewards and the ROUGE metric
object, against rouge-score itself; bad input the batch API refuses; threads and Ctrl-C."""
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rouge_data import documents, english_lines
from test_rouge import ALL_TYPES, Recording, cases

import cybleu
from cybleu import ids
from cybleu.metrics import ROUGE
from cybleu.rewards import make_rouge_reward, rouge_reward

theirs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the oracle) is not "
                             "installed: pip install rouge-score==0.1.2")

TYPES = ["rouge1", "rouge2", "rouge3", "rougeL", "rougeLsum"]


def _oracle(predictions, references, types, **kw):
    scorer = theirs.RougeScorer(types, **kw)
    out = []
    for p, r in zip(predictions, references):
        out.append(scorer.score(r, p) if isinstance(r, str) else scorer.score_multi(r, p))
    return out


def _same_arrays(got, want, types):
    assert list(got) == list(dict.fromkeys(types))
    for t in got:
        for j, measure in enumerate(("precision", "recall", "fmeasure")):
            column = getattr(got[t], measure)
            assert column.dtype == np.float64 and column.shape == (len(want),)
            assert column.tolist() == [float(w[t][j]) for w in want], (t, measure)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(cases(), min_size=1, max_size=6), st.integers(1, 3))
def test_batch_rouge_is_rouge_score_per_pair(batch, n_threads):
    predictions = [c[0] for c in batch]
    references = [c[1][0] if len(c[1]) == 1 else c[1] for c in batch]
    for stem in (False, True):
        got = cybleu.batch_rouge(predictions, references, TYPES, use_stemmer=stem,
                                 n_threads=n_threads)
        _same_arrays(got, _oracle(predictions, references, TYPES, use_stemmer=stem), TYPES)


def test_batch_rouge_on_real_documents_any_threads():
    ref, hyp, other = english_lines()
    predictions = documents(hyp, 3, 200)
    references = [[a, b] if i % 3 else a for i, (a, b) in
                  enumerate(zip(documents(ref, 3, 200), documents(other, 3, 200)))]
    want = _oracle(predictions, references, ALL_TYPES, use_stemmer=True)
    for n_threads in (1, 2, 4):
        _same_arrays(cybleu.batch_rouge(predictions, references, ALL_TYPES, use_stemmer=True,
                                        n_threads=n_threads), want, ALL_TYPES)


def test_batch_rouge_with_a_users_tokenizer():
    predictions, references = ["我们 明天 去", "a b c"], ["我们 今天 去", ["a c", "b c"]]
    got = cybleu.batch_rouge(predictions, references, ["rouge1", "rougeL"],
                             tokenizer=Recording())
    _same_arrays(got, _oracle(predictions, references, ["rouge1", "rougeL"],
                              tokenizer=Recording()), ["rouge1", "rougeL"])


@pytest.mark.parametrize("call, error, message", [
    (lambda: cybleu.batch_rouge("a b", ["a"]), TypeError, r"predictions is one string.*\[prediction\]"),
    (lambda: cybleu.batch_rouge(["a"], "a"), TypeError, r"references is one string"),
    (lambda: cybleu.batch_rouge(["a", "b"], ["a"]), ValueError,
     r"2 predictions but 1 references.*references\[i\].*list\(zip\(\*streams\)\)"),
    (lambda: cybleu.batch_rouge(["a"], [[]]), ValueError, r"references\[0\] is an empty list"),
    (lambda: cybleu.batch_rouge(["a"], [None]), TypeError, r"references\[0\] is NoneType"),
    (lambda: cybleu.batch_rouge([1], ["a"]), TypeError, r"predictions\[0\] is int"),
    (lambda: cybleu.batch_rouge(["a"], [["a", 2]]), TypeError, r"references\[0\] holds a int"),
    (lambda: cybleu.batch_rouge(["a"], ["a"], ["rougex"]), ValueError, "Invalid rouge type"),
    (lambda: cybleu.batch_rouge(["a"], ["a"], n_threads=0), ValueError, "n_threads"),
])
def test_batch_rouge_refuses_what_rouge_score_would_misscore(call, error, message):
    with pytest.raises(error, match=message):
        call()


# -- token IDs ------------------------------------------------------------------------------------

class Identity:
    """A tokenizer that returns the IDs themselves: rouge-score on token IDs."""

    def tokenize(self, ids_):
        return list(ids_)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 5), max_size=25),
                          st.lists(st.lists(st.integers(0, 5), max_size=25), min_size=1,
                                   max_size=3)), min_size=1, max_size=8),
       st.integers(1, 3))
def test_ids_rouge_is_rouge_score_on_the_ids(rows, n_threads):
    types = ["rouge1", "rouge2", "rouge4", "rougeL"]
    hyps = [h for h, _ in rows]
    refs = [r for _, r in rows]
    got = ids.rouge(hyps, refs, rouge_types=types, n_threads=n_threads)
    scorer = theirs.RougeScorer(types, tokenizer=Identity())
    want = [scorer.score_multi(r, h) for h, r in rows]
    _same_arrays(got, want, types)


def test_ids_rouge_trims_and_takes_arrays_and_tensors():
    hyps = np.array([[0, 5, 17, 9, 42, 2, 7], [5, 17, 8, 2, 0, 0, 0]], dtype=np.int64)
    refs = np.array([[5, 17, 9, 42, 0], [5, 9, 17, 0, 0]], dtype=np.int32)
    got = ids.rouge(hyps, refs, rouge_types=["rouge2", "rougeL"], pad_id=0, eos_id=2)
    trimmed = ids.rouge([[5, 17, 9, 42], [5, 17, 8]], [[5, 17, 9, 42], [5, 9, 17]],
                        rouge_types=["rouge2", "rougeL"])
    for t in got:
        assert [list(a) for a in got[t]] == [list(a) for a in trimmed[t]]
    torch = pytest.importorskip("torch", reason="torch is not installed")
    as_tensors = ids.rouge(torch.tensor(hyps), torch.tensor(refs), rouge_types=["rouge2", "rougeL"],
                           pad_id=0, eos_id=2)
    for t in got:
        assert [list(a) for a in as_tensors[t]] == [list(a) for a in got[t]]


def test_ids_rouge_errors():
    with pytest.raises(ValueError, match="rougeLsum needs sentences"):
        ids.rouge([[1, 2]], [[1, 2]], rouge_types=["rougeLsum"])
    with pytest.raises(ValueError):
        ids.rouge([[1, 2], [3]], [[1, 2]])
    with pytest.raises(TypeError):
        ids.rouge([[1.5, 2]], [[1, 2]])


# -- rewards -------------------------------------------------------------------------------------

def test_rouge_rewards_are_rouge_scores():
    ref, hyp, _ = english_lines()
    completions = documents(hyp, 2, 30)
    references = documents(ref, 2, 30)
    references[3] = None
    messages = [[{"role": "assistant", "content": c}] for c in completions]
    scorer = theirs.RougeScorer(["rougeL"])
    want = [None if r is None else scorer.score(r, c)["rougeL"].fmeasure
            for c, r in zip(completions, references)]
    assert rouge_reward(prompts=["p"] * 30, completions=completions, reference=references) == want
    assert rouge_reward(completions=messages, reference=references) == want
    reward = make_rouge_reward("gold", rouge_type="rouge2", measure="recall", use_stemmer=True,
                               scale=10.0)
    scorer = theirs.RougeScorer(["rouge2"], use_stemmer=True)
    assert reward.__name__ == "rouge2_gold"
    assert reward(completions=completions[:5], gold=[[r, "x"] for r in references[:3]] + [None, "y"]) \
        == [scorer.score_multi([r, "x"], c)["rouge2"].recall * 10.0 for r, c in
            zip(references[:3], completions[:3])] + [None,
                                                     scorer.score("y", completions[4])["rouge2"].recall * 10.0]
    by_ids = make_rouge_reward("target_ids", ids=True, pad_id=0, eos_id=2)
    assert by_ids(completion_ids=[[5, 17, 9, 42, 2, 0]], target_ids=[[5, 9, 17, 42]]) == [0.75]
    with pytest.raises(TypeError, match="rouge reward: no 'reference' column"):
        rouge_reward(completions=["a"])
    with pytest.raises(ValueError, match="measure"):
        make_rouge_reward(measure="f1")
    with pytest.raises(ValueError, match="rougeLsum needs sentences"):
        make_rouge_reward(rouge_type="rougeLsum", ids=True)


# -- the metric object ------------------------------------------------------------------------------

def test_rouge_metric_means_the_segment_scores():
    import math
    ref, hyp, other = english_lines()
    hyps = documents(hyp, 2, 40)
    streams = [documents(ref, 2, 40), documents(other, 2, 40)]
    streams[1][5] = None
    metric = ROUGE(["rougeL", "rouge1"], use_stemmer=True)
    score = metric.corpus_score(hyps, streams)
    scorer = theirs.RougeScorer(["rougeL", "rouge1"], use_stemmer=True)
    rows = [scorer.score_multi([s[i] for s in streams if s[i] is not None], h)
            for i, h in enumerate(hyps)]
    for t in ("rougeL", "rouge1"):
        assert score.types[t] == tuple(math.fsum(float(r[t][j]) for r in rows) / len(rows)
                                       for j in range(3))
    assert score.score == 100 * score.types["rougeL"][2]
    stats = metric._extract_corpus_statistics(hyps, streams)
    assert metric.segment_scores(stats).tolist() == [100 * float(r["rougeL"].fmeasure)
                                                     for r in rows]
    assert [(c.name, c.adds) for c in metric.statistic_columns()][:3] == [
        ("rougeL_fmeasure", "exact"), ("rougeL_precision", "exact"), ("rougeL_recall", "exact")]
    assert metric.statistic_columns()[-1].adds == "int"
    # any partitioning: the same corpus score
    assert metric._aggregate_and_compute(stats[::-1]).score == score.score
    assert "types:rougeL+rouge1|stem:yes" in str(metric.get_signature())
    # a tokenizer of the user's takes the per-segment path, with the same numbers
    custom = ROUGE(["rouge1"], tokenizer=Recording())
    assert custom.corpus_score(["a b c"], [["a c d"]]).types["rouge1"] == \
        tuple(float(v) for v in theirs.RougeScorer(["rouge1"], tokenizer=Recording())
              .score("a c d", "a b c")["rouge1"])


def test_rouge_metric_is_in_the_registry():
    from cybleu import metrics
    assert metrics.get("ROUGE") is ROUGE and "ROUGE" in metrics.NAMES
    assert ROUGE.aggregation == "mean" and ROUGE.higher_is_better


# -- Ctrl-C -------------------------------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import cybleu
    # about 5 s uninterrupted on one thread: the signal lands well inside it
    line = "The quick brown fox jumps over the lazy dog again and again\\nand once more " * 10
    preds = [line] * 400_000
    print("ready", flush=True)
    try:
        cybleu.batch_rouge(preds, preds, n_threads=int(sys.argv[1]))
        print("completed", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    print(cybleu.batch_rouge(["a b"], ["a b"], ["rouge1"])["rouge1"].fmeasure.tolist(), flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("n_threads", [1, 2])
def test_ctrl_c_lands_in_batch_rouge(n_threads):
    if cybleu.BACKEND != "cython":
        pytest.skip("the twin runs in Python, where Ctrl-C lands anyway")
    with subprocess.Popen([sys.executable, "-c", CHILD, str(n_threads)], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
            time.sleep(0.5)
            proc.send_signal(signal.SIGINT)
            assert proc.stdout.readline().strip() == "interrupted", proc.stderr.read()
            assert proc.stdout.readline().strip() == "[1.0]"
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
