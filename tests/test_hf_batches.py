"""hf.Bleu's batch protocol (evaluate's add_batch/add/compute) and hf.make_compute_metrics for
transformers' Seq2SeqTrainer, per call and with batch_eval_metrics, against sacreBLEU (and
evaluate and a real Seq2SeqTrainer on a tiny model the test builds, when they are installed)."""
import os
import struct
import warnings
from collections import namedtuple

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cybleu import hf
from conftest import evaluate_metric_script

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = ["a", "b", "c", "a.", "b,", "(c)", "1-2", "&amp;", "e.g.", "3.5"]
LINE = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)


def bits(x):
    return struct.pack("<d", float(x))


# -- hf.Bleu: evaluate's add_batch / add / compute ------------------------------------------------

@SETTINGS
@given(batches=st.lists(st.lists(st.tuples(LINE, st.lists(LINE, min_size=1, max_size=3) | LINE),
                                 min_size=1, max_size=4), min_size=1, max_size=4),
       max_order=st.integers(1, 4), smooth=st.booleans())
def test_add_batch_equals_one_compute(batches, max_order, smooth):
    metric = hf.Bleu()
    for batch in batches[:-1]:
        metric.add_batch(predictions=[p for p, _ in batch], references=[r for _, r in batch])
    last = batches[-1]
    for prediction, reference in last[:-1]:
        metric.add(prediction=prediction, reference=reference)
    got = metric.compute(predictions=[last[-1][0]], references=[last[-1][1]],
                         max_order=max_order, smooth=smooth)
    pairs = [pair for batch in batches for pair in batch]
    want = hf.bleu([p for p, _ in pairs], [[r] if isinstance(r, str) else r for _, r in pairs],
                   max_order=max_order, smooth=smooth)
    assert got == want and bits(got["bleu"]) == bits(want["bleu"])
    with pytest.raises(ValueError, match="nothing to score"):   # the buffer was emptied
        metric.compute()


def test_add_batch_matches_evaluates_script():
    for name in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ.setdefault(name, "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (pip install "
                                       "evaluate datasets)")
        theirs = evaluate.load(str(evaluate_metric_script("bleu")))
    ours = hf.Bleu()
    batches = [(["the cat sat on the mat", "a b c"], [["the cat is on the mat"], ["a b c d"]]),
               (["hello world", ""], [["hello there world", "hello world !"], ["x"]])]
    for predictions, references in batches:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs.add_batch(predictions=predictions, references=references)
        ours.add_batch(predictions=predictions, references=references)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = theirs.compute(smooth=True)
    got = ours.compute(smooth=True)
    assert got == want and bits(got["bleu"]) == bits(want["bleu"])


def test_the_compatibility_pages_rows_against_evaluates_script():
    """Each row of the compatibility page's evaluate table on evaluate's own script (with nmt's
    compute_bleu beside it): what evaluate does, and what cybleu.hf does instead."""
    for name in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ.setdefault(name, "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed (pip install "
                                       "evaluate datasets)")
        theirs = evaluate.load(str(evaluate_metric_script("bleu")))

    def evaluate_bleu(**kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return theirs.compute(**kwargs)

    for kwargs in ({"predictions": [""], "references": [["test"]]},
                   {"predictions": ["hello"], "references": [[chr(12)]]},
                   {"predictions": [""], "references": [[""]], "max_order": 1}):
        with pytest.raises(ZeroDivisionError):
            evaluate_bleu(**kwargs)
        got = hf.Bleu().compute(**kwargs)
        assert (got["bleu"], got["brevity_penalty"], got["length_ratio"]) == (0.0, 0.0, 0.0)
    with pytest.raises(IndexError):
        evaluate_bleu(predictions=[], references=[])
    assert evaluate_bleu(predictions=["a", "3"], references=[["a"], ["3"]]) == \
        evaluate_bleu(predictions=["a", 3], references=[["a"], ["3"]])      # cast to "3"
    mixed = {"predictions": ["a b", "c d"], "references": ["a b", ["c d", "c"]]}
    as_text = {"predictions": ["a b", "c d"], "references": ["a b", "['c d', 'c']"]}
    assert evaluate_bleu(**mixed) == evaluate_bleu(**as_text) != hf.Bleu().compute(**mixed)
    with pytest.raises(ValueError, match="min"):
        evaluate_bleu(predictions=["a"], references=[["a"]], max_order=0)


def test_add_batch_rejects_bad_batches():
    metric = hf.Bleu()
    with pytest.raises(ValueError, match=r"mismatch in the number of predictions \(2\) and "
                                         r"references \(1\)"):
        metric.add_batch(predictions=["a", "b"], references=["a"])
    with pytest.raises(ValueError, match="references is missing"):
        metric.add_batch(predictions=["a"])
    with pytest.raises(TypeError, match="predictions must be a list, got str"):
        metric.add_batch(predictions="a", references=["a"])
    with pytest.raises(TypeError, match=r"predictions\[1\] is int"):
        metric.add_batch(predictions=["a", 1], references=["a", "b"])
    with pytest.raises(TypeError, match=r"references\[0\] must be a string or a list"):
        metric.add_batch(predictions=["a"], references=[[None]])
    metric.add_batch(predictions=["a b"], references=["a b"])   # the good batch still counts
    assert metric.compute()["translation_length"] == 2


# -- make_compute_metrics -------------------------------------------------------------------------

EvalPrediction = namedtuple("EvalPrediction", ["predictions", "label_ids"])  # what the Trainer passes
VOCAB = ["<pad>", "</s>", "<unk>", "the", "cat", "sat", "on", "mat", "a", "dog", ".", "ran"]


class WordTokenizer:
    """The part of a transformers tokenizer compute_metrics uses: ids -> words, special ids
    skipped."""
    pad_token_id, eos_token_id, all_special_ids = 0, 1, [0, 1, 2]

    def batch_decode(self, rows, skip_special_tokens=False):
        return [" ".join(VOCAB[i] for i in row
                         if not (skip_special_tokens and i in self.all_special_ids))
                for row in np.asarray(rows).tolist()]


def pad_rows(rows, width, value):
    return np.array([row + [value] * (width - len(row)) for row in rows], dtype=np.int64)


@st.composite
def eval_sets(draw):
    n = draw(st.integers(1, 6))
    token = st.integers(3, len(VOCAB) - 1)
    preds = [draw(st.lists(token, max_size=7)) + [1] for _ in range(n)]
    labels = [draw(st.lists(token, min_size=1, max_size=7)) + [1] for _ in range(n)]
    return preds, labels


def decoded_score(preds, labels, **kwargs):
    """sacreBLEU on the decoded text: the oracle for compute_metrics."""
    tok = WordTokenizer()
    hyps = [h.strip() for h in tok.batch_decode(pad_rows(preds, 9, 0), True)]
    refs = [r.strip() for r in tok.batch_decode(pad_rows(labels, 9, 0), True)]
    return sacrebleu.corpus_bleu(hyps, [refs], **kwargs).score


@SETTINGS
@given(data=eval_sets(), batch_size=st.integers(1, 4))
def test_compute_metrics_whole_and_batched(data, batch_size):
    preds, labels = data
    # generated rows padded with the pad id, labels with -100, as Seq2SeqTrainer hands them over
    whole = EvalPrediction(pad_rows(preds, 10, -100), pad_rows(labels, 10, -100))
    compute = hf.make_compute_metrics(WordTokenizer())
    result = compute(whole)
    assert bits(result["bleu"]) == bits(decoded_score(preds, labels))
    assert result["gen_len"] == sum(len(p) for p in preds) / len(preds)
    batched = hf.make_compute_metrics(WordTokenizer())
    starts = list(range(0, len(preds), batch_size))
    for round_ in range(2):             # a second evaluation starts from zero
        for k, start in enumerate(starts):
            last = k == len(starts) - 1
            chunk = slice(start, start + batch_size)
            out = batched(EvalPrediction(pad_rows(preds[chunk], 9, 0),
                                         pad_rows(labels[chunk], 9, -100)), compute_result=last)
            assert out == ({} if not last else result)


def test_compute_metrics_options():
    preds, labels = [[3, 4, 5, 1], [8, 9, 1]], [[3, 4, 6, 7, 1], [8, 9, 11, 1]]
    args = EvalPrediction(pad_rows(preds, 6, 0), pad_rows(labels, 6, -100))
    got = hf.make_compute_metrics(WordTokenizer(), smooth_method="floor", tokenize="none")(args)
    assert bits(got["bleu"]) == bits(decoded_score(preds, labels, smooth_method="floor",
                                                   tokenize="none"))
    # logits: argmax over the vocabulary first
    logits = np.eye(len(VOCAB))[pad_rows(preds, 6, 0)]
    assert hf.make_compute_metrics(WordTokenizer())(EvalPrediction((logits, None), args[1])) == \
        hf.make_compute_metrics(WordTokenizer())(args)
    # token IDs without decoding: sacreBLEU on the IDs written as words, cut at eos
    ids_result = hf.make_compute_metrics(WordTokenizer(), decode=False)(args)
    hyps = [" ".join(map(str, p[:-1])) for p in preds]
    refs = [" ".join(map(str, r[:-1])) for r in labels]
    assert bits(ids_result["bleu"]) == bits(sacrebleu.corpus_bleu(hyps, [refs],
                                                                  tokenize="none").score)
    with pytest.raises(ValueError, match=r"predictions \(2,\) and labels"):
        hf.make_compute_metrics(WordTokenizer())(EvalPrediction(np.array([3, 4]), args[1]))
    with pytest.raises(TypeError, match="batch_decode"):
        hf.make_compute_metrics(object())


def _tiny_seq2seq(tmp_path):
    """A 1-layer T5 and a word-level tokenizer, made here (no download)."""
    tokenizers = pytest.importorskip("tokenizers", reason="tokenizers is not installed")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        transformers = pytest.importorskip(
            "transformers", reason="transformers is not installed (pip install transformers)")
    import torch
    word_level = tokenizers.Tokenizer(tokenizers.models.WordLevel(
        {w: i for i, w in enumerate(VOCAB)}, unk_token="<unk>"))
    word_level.pre_tokenizer = tokenizers.pre_tokenizers.WhitespaceSplit()
    tokenizer = transformers.PreTrainedTokenizerFast(
        tokenizer_object=word_level, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")
    torch.manual_seed(0)
    config = transformers.T5Config(vocab_size=len(VOCAB), d_model=16, d_kv=8, d_ff=32,
                                   num_layers=1, num_heads=2, pad_token_id=0, eos_token_id=1,
                                   decoder_start_token_id=0)
    model = transformers.T5ForConditionalGeneration(config)
    sources = ["the cat sat on the mat", "a dog ran", "the dog sat", "a cat ran on the mat",
               "the mat", "cat"]
    targets = ["the cat sat", "a dog ran .", "the dog", "a cat on a mat", "mat", "the cat ."]
    rows = [{"input_ids": tokenizer(s)["input_ids"] + [1], "labels": tokenizer(t)["input_ids"] + [1]}
            for s, t in zip(sources, targets)]
    return transformers, tokenizer, model, rows


def test_seq2seq_trainer_on_a_tiny_model(tmp_path):
    transformers, tokenizer, model, rows = _tiny_seq2seq(tmp_path)
    collator = transformers.DataCollatorForSeq2Seq(tokenizer, model=model)
    results = {}
    for batched in (False, True):
        args = transformers.Seq2SeqTrainingArguments(
            output_dir=str(tmp_path / f"out{batched}"), per_device_eval_batch_size=4,
            predict_with_generate=True, generation_max_length=6, report_to=[], use_cpu=True,
            batch_eval_metrics=batched)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trainer = transformers.Seq2SeqTrainer(
                model=model, args=args, data_collator=collator, processing_class=tokenizer,
                compute_metrics=hf.make_compute_metrics(tokenizer))
            results[batched] = trainer.evaluate(rows)
            predicted = trainer.predict(rows)
    # the oracle: the Trainer's own predictions decoded here, scored by sacreBLEU
    pad = tokenizer.pad_token_id
    hyps = tokenizer.batch_decode(np.where(predicted.predictions < 0, pad, predicted.predictions),
                                  skip_special_tokens=True)
    refs = tokenizer.batch_decode(np.where(predicted.label_ids < 0, pad, predicted.label_ids),
                                  skip_special_tokens=True)
    want = sacrebleu.corpus_bleu([h.strip() for h in hyps], [[r.strip() for r in refs]]).score
    assert want > 0     # seed 0: the untrained model still gets some n-grams right
    assert bits(results[False]["eval_bleu"]) == bits(want)
    assert bits(results[True]["eval_bleu"]) == bits(want)
    assert results[True]["eval_gen_len"] == results[False]["eval_gen_len"]
