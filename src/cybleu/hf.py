"""Hugging Face evaluate's `bleu` metric (tensorflow/nmt's `compute_bleu`), same results, faster.

    from cybleu import hf
    hf.bleu(predictions, references)        # evaluate.load("bleu").compute(...)'s dict

The formula (nmt's scripts/bleu.py as evaluate ships it): per sentence the *shortest* reference
length, n-gram matches clipped by the maximum count over the references, possible matches
len - n + 1 when positive; corpus precisions m/p (0.0 when p is 0), or (m + 1)/(p + 1) on every
order with smooth=True; geometric mean 0 unless every precision is positive; brevity penalty
exp(1 - 1/ratio) for ratio <= 1, with ratio and penalty 0.0 when either length is 0. Integer
statistics come from the compiled core (or its twin); the float arithmetic below is nmt's,
operation by operation (its builtin `sum`, so Python 3.12's summation applies as it would there).
"""
import math
from collections.abc import Sequence

from ._backend import BACKEND, core
from ._math import MAX_ORDER_LIMIT

if BACKEND == "cython":
    from . import _nltk_core as _counts
else:
    from . import _nltk_core_py as _counts

__all__ = ["Bleu", "bleu", "compute_bleu", "tokenizer_13a"]


def tokenizer_13a(line):
    """evaluate's default tokenizer: sacreBLEU's 13a without the final rstrip, as a token list."""
    if not isinstance(line, str):
        raise TypeError(f"tokenizer_13a: a line must be a str, got {type(line).__name__}")
    return core.tokenize_13a(line).split()


def _check_max_order(max_order):
    """An int up to MAX_ORDER_LIMIT; 0 and below go on to nmt's own error (min() of nothing)."""
    if isinstance(max_order, bool) or not isinstance(max_order, int):
        raise ValueError(f"hf: max_order must be an int, got {max_order!r}")
    if max_order > MAX_ORDER_LIMIT:
        raise ValueError(f"hf: max_order must be at most {MAX_ORDER_LIMIT}, got {max_order}")


def _check_lines(predictions, references):
    """evaluate's input checks (its `datasets` features): string predictions, one string or
    list of strings of references per prediction, as many of each; references as lists."""
    for name, value in (("predictions", predictions), ("references", references)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"hf.bleu: {name} must be a list, got {type(value).__name__}")
    if len(predictions) != len(references):
        raise ValueError(f"hf.bleu: {len(predictions)} predictions but {len(references)} "
                         "references; pass one reference (or list of references) per prediction")
    if not predictions:
        raise ValueError("hf.bleu: no predictions: the corpus is empty")
    for i, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise TypeError(f"hf.bleu: predictions[{i}] is {type(prediction).__name__}, not "
                            "str")
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    for i, refs in enumerate(references):
        if isinstance(refs, str) or not isinstance(refs, Sequence):
            raise TypeError(f"hf.bleu: references[{i}] is {type(refs).__name__}; pass a list of "
                            "reference strings per prediction (or one string per prediction)")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise TypeError(f"hf.bleu: references[{i}][{j}] is {type(ref).__name__}, "
                                "not str")
    return references


def compute_bleu(reference_corpus, translation_corpus, max_order=4, smooth=False):
    """nmt's compute_bleu on token lists: (bleu, precisions, bp, ratio, translation_length,
    reference_length). Segments are paired with zip (extra segments on either side are ignored,
    as in nmt)."""
    _check_max_order(max_order)
    translation_length, reference_length, matches_by_order, possible_matches_by_order = \
        _counts.hf_counts(reference_corpus, translation_corpus, max_order)

    precisions = [0] * max_order
    for i in range(0, max_order):
        if smooth:
            precisions[i] = (matches_by_order[i] + 1.) / (possible_matches_by_order[i] + 1.)
        else:
            if possible_matches_by_order[i] > 0:
                precisions[i] = float(matches_by_order[i]) / possible_matches_by_order[i]
            else:
                precisions[i] = 0.0

    if min(precisions) > 0:
        p_log_sum = sum((1. / max_order) * math.log(p) for p in precisions)
        geo_mean = math.exp(p_log_sum)
    else:
        geo_mean = 0

    if reference_length == 0 or translation_length == 0:
        ratio = 0.0
        bp = 0.0
    else:
        ratio = float(translation_length) / reference_length
        bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)

    bleu = geo_mean * bp
    return (bleu, precisions, bp, ratio, translation_length, reference_length)


def bleu(predictions, references, tokenizer=tokenizer_13a, max_order=4, smooth=False):
    """evaluate.load("bleu").compute(predictions=..., references=..., tokenizer=..., max_order=...,
    smooth=...): references is one list of references per prediction, or one string per
    prediction; tokenizer is any callable from a string to a list of tokens."""
    _check_max_order(max_order)
    references = _check_lines(predictions, references)
    references = [[tokenizer(r) for r in ref] for ref in references]
    predictions = [tokenizer(p) for p in predictions]
    bleu_, precisions, bp, ratio, translation_length, reference_length = compute_bleu(
        reference_corpus=references, translation_corpus=predictions, max_order=max_order,
        smooth=smooth)
    return {
        "bleu": bleu_,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": translation_length,
        "reference_length": reference_length,
    }


class Bleu:
    """Stands in for `evaluate.load("bleu")`: `Bleu().compute(predictions=..., references=...)`."""

    def compute(self, *, predictions, references, tokenizer=tokenizer_13a, max_order=4,
                smooth=False):
        return bleu(predictions, references, tokenizer=tokenizer, max_order=max_order,
                    smooth=smooth)
