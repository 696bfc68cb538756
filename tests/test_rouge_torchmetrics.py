"""cybleu.torchmetrics.ROUGEScore / rouge_score: torchmetrics 1.9's arguments, rouge-score's
numbers (each sentence's values, their exact mean); and the cases where torchmetrics' own numbers
differ from rouge-score's, as docs/compatibility.md lists them."""
import math

import pytest

from rouge_data import documents, english_lines
from test_rouge import punkt, punkt_folder  # noqa: F401 - pytest fixtures

torch = pytest.importorskip("torch", reason="torch is not installed (pip install "
                            "'cybleu[torchmetrics]')")
pytest.importorskip("torchmetrics", reason="torchmetrics is not installed")
theirs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the oracle) is not "
                             "installed")

from cybleu.torchmetrics import ROUGEScore, rouge_score  # noqa: E402 - after the importorskip above

KEYS = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _want(preds, targets, keys, accumulate="best", **kw):
    """rouge-score's values per sentence, meaned exactly, as ROUGEScore reports them."""
    scorer = theirs.RougeScorer(list(keys), **kw)
    rows = []
    for p, refs in zip(preds, targets):
        if accumulate == "best":
            rows.append(scorer.score_multi(refs, p))
        else:
            per = [scorer.score(r, p) for r in refs]
            rows.append({k: [math.fsum(float(s[k][j]) for s in per) / len(per)
                             for j in range(3)] for k in keys})
    out = {}
    for k in keys:
        for j, m in ((2, "fmeasure"), (0, "precision"), (1, "recall")):
            out[f"{k}_{m}"] = math.fsum(float(r[k][j]) for r in rows) / len(rows)
    return out


@pytest.mark.parametrize("accumulate", ["best", "avg"])
@pytest.mark.parametrize("use_stemmer", [False, True])
def test_rouge_scores_means_in_batches(punkt, accumulate, use_stemmer):  # noqa: F811 - the fixture imported above
    ref, hyp, other = english_lines()
    preds = documents(hyp, 2, 30)
    targets = [[a, b] if i % 2 else [a] for i, (a, b) in
               enumerate(zip(documents(ref, 2, 30), documents(other, 2, 30)))]
    metric = ROUGEScore(use_stemmer=use_stemmer, accumulate=accumulate)
    for start in range(0, 30, 12):     # batches: the same means
        metric.update(preds[start:start + 12], targets[start:start + 12])
    got = {k: v.item() for k, v in metric.compute().items()}
    assert list(got) == [f"{k}_{m}" for k in KEYS for m in ("fmeasure", "precision", "recall")]
    assert all(v.dtype == torch.float64 for v in metric.compute().values())
    assert got == _want(preds, targets, KEYS, accumulate, use_stemmer=use_stemmer,
                        split_summaries=True)
    lines = ROUGEScore(use_stemmer=use_stemmer, accumulate=accumulate, split_summaries=False)
    lines.update(preds, targets)
    assert {k: v.item() for k, v in lines.compute().items()} == \
        _want(preds, targets, KEYS, accumulate, use_stemmer=use_stemmer)


def test_functional_and_inputs_as_torchmetrics_reads_them():
    assert {k: v.item() for k, v in rouge_score("My name is John", "Is your name John",
                                                rouge_keys=("rouge1", "rougeL")).items()} == \
        {"rouge1_fmeasure": 0.75, "rouge1_precision": 0.75, "rouge1_recall": 0.75,
         "rougeL_fmeasure": 0.5, "rougeL_precision": 0.5, "rougeL_recall": 0.5}
    # a flat list of strings: the references of one prediction, or one each of several
    one = rouge_score("a b c", ["a b", "a b c"], rouge_keys="rouge1")
    assert one["rouge1_fmeasure"].item() == 1.0
    several = rouge_score(["a b c", "d e"], ["a b", "d e"], rouge_keys="rouge1")
    assert several["rouge1_fmeasure"].item() == (0.8 + 1.0) / 2
    with pytest.raises(ValueError, match="Got unknown rouge key"):
        ROUGEScore(rouge_keys=("rouge10",))
    with pytest.raises(ValueError, match="accumulate"):
        ROUGEScore(accumulate="max")
    with pytest.raises(ValueError, match="2 predictions but references for 1"):
        rouge_score(["a", "b"], [["a"]], rouge_keys="rouge1")
    with pytest.warns(UserWarning, match="before the ``update``"):   # torchmetrics' warning
        assert math.isnan(ROUGEScore(rouge_keys="rouge1").compute()["rouge1_fmeasure"].item())


def test_a_normalizer_and_tokenizer_as_torchmetrics_applies_them():
    def normalizer(text):
        return text.upper()

    def tokenizer(text):
        return list(text.replace(" ", ""))
    got = rouge_score("我们 今天 去", "我们 明天 去", rouge_keys="rouge1", normalizer=normalizer,
                      tokenizer=tokenizer)
    from torchmetrics.functional.text.rouge import rouge_score as tm_rouge_score
    want = tm_rouge_score("我们 今天 去", "我们 明天 去", rouge_keys="rouge1",
                          normalizer=normalizer, tokenizer=tokenizer)
    class Same:    # the same text preparation, as a rouge-score tokenizer object
        def tokenize(self, text):
            return tokenizer(normalizer(text))
    oracle = theirs.RougeScorer(["rouge1"], tokenizer=Same()).score("我们 明天 去", "我们 今天 去")
    for k, v in zip(("rouge1_precision", "rouge1_recall", "rouge1_fmeasure"), oracle["rouge1"]):
        assert got[k].item() == v
        assert want[k].item() == pytest.approx(v, rel=1e-6)   # float32 there


# -- where torchmetrics' own numbers differ from rouge-score's (docs/compatibility.md) ---------

def test_torchmetrics_computes_in_float32():
    from torchmetrics.functional.text.rouge import rouge_score as tm_rouge_score
    tm = tm_rouge_score("a b c", "a d e", rouge_keys="rouge1")["rouge1_fmeasure"]
    assert tm.dtype == torch.float32 and tm.item() == 0.3333333432674408
    assert theirs.RougeScorer(["rouge1"]).score("a d e", "a b c")["rouge1"].fmeasure == 1 / 3
    assert rouge_score("a b c", "a d e", rouge_keys="rouge1")["rouge1_fmeasure"].item() == 1 / 3
    tm = tm_rouge_score(["a b c", "a b", "a"], ["a d e", "a b c", "b"], rouge_keys="rouge1")
    assert tm["rouge1_precision"].item() == 0.4444444477558136       # a float32 mean
    assert rouge_score(["a b c", "a b", "a"], ["a d e", "a b c", "b"],
                       rouge_keys="rouge1")["rouge1_precision"].item() == 4 / 9


def test_torchmetrics_splits_rougelsum_with_nltk(punkt):  # noqa: F811 - the fixture imported above
    """rouge-score's rougeLsum splits the text's lines by default; torchmetrics always uses
    nltk's sentences (and needs its punkt_tab data)."""
    from torchmetrics.functional.text.rouge import rouge_score as tm_rouge_score
    pred, target = "on the mat\nthe cat sat", "the cat sat\non the mat"
    assert tm_rouge_score(pred, target, rouge_keys="rougeLsum")["rougeLsum_fmeasure"].item() == 0.5
    assert theirs.RougeScorer(["rougeLsum"]).score(target, pred)["rougeLsum"].fmeasure == 1.0
    assert rouge_score(pred, target, rouge_keys="rougeLsum")["rougeLsum_fmeasure"].item() == 0.5
    assert rouge_score(pred, target, rouge_keys="rougeLsum",
                       split_summaries=False)["rougeLsum_fmeasure"].item() == 1.0


def test_torchmetrics_drops_tokens_that_are_not_strings():
    from torchmetrics.functional.text.rouge import rouge_score as tm_rouge_score

    def ints(text):
        return [int(x) for x in text.split()]
    assert tm_rouge_score("1 2 3", "1 2 4", rouge_keys="rouge1",
                          tokenizer=ints)["rouge1_fmeasure"].item() == 0.0

    class Ints:
        def tokenize(self, text):
            return ints(text)
    assert theirs.RougeScorer(["rouge1"], tokenizer=Ints()).score(
        "1 2 4", "1 2 3")["rouge1"].fmeasure == 2 / 3


def test_torchmetrics_truncates_unequal_lengths():
    from torchmetrics.functional.text.rouge import rouge_score as tm_rouge_score
    assert tm_rouge_score(["a b", "c d"], [["a b"]], rouge_keys="rouge1")[
        "rouge1_fmeasure"].item() == 1.0
    with pytest.raises(ValueError):
        rouge_score(["a b", "c d"], [["a b"]], rouge_keys="rouge1")
