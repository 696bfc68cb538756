"""Hugging Face evaluate's `bleu` metric (tensorflow/nmt's `compute_bleu`), same results, faster. In place of the loaded metric::

    from cybleu import hf
    hf.bleu(predictions, references)        # evaluate.load("bleu").compute(...)'s dict

The formula (nmt's scripts/bleu.py as evaluate ships it): per sentence the *shortest* reference
length, n-gram matches clipped by the maximum count over the references, possible matches
len - n + 1 when positive; corpus precisions m/p (0.0 when p is 0), or (m + 1)/(p + 1) on every
order with smooth=True; geometric mean 0 unless every precision is positive; brevity penalty
exp(1 - 1/ratio) for ratio <= 1. Integer statistics come from the compiled core (or its twin);
the float arithmetic below is nmt's, operation by operation (its builtin `sum`, so Python 3.12's
summation applies as it would there).

One difference, on purpose: when the total prediction length or the total reference length is 0
(every prediction empty, or every reference, after tokenizing), nmt divides by zero and
evaluate's `bleu` raises ZeroDivisionError; cybleu returns BLEU, length ratio and brevity penalty
0.0 (with the precisions and lengths), so a batch of empty generations does not stop a run.
"""
import math
import numbers
from collections.abc import Sequence
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import _backend
from ._backend import core
from ._scoring.bleu import MAX_ORDER_LIMIT

_counts = _backend.module("nltk_counts")

__all__ = ["Bleu", "bleu", "compute_bleu", "tokenizer_13a", "make_compute_metrics", "Seq2SeqBleu"]


def tokenizer_13a(line):
    """evaluate's default tokenizer for `bleu`: sacreBLEU's 13a without the final rstrip, as a
    token list.

    :param line: One line.
    :returns: Its tokens.
    :raises TypeError: `line` is not a string.

    >>> from cybleu import hf
    >>> hf.tokenizer_13a("Hello, world!")
    ['Hello', ',', 'world', '!']
    """
    if not isinstance(line, str):
        raise TypeError(f"tokenizer_13a: a line must be a str, got {type(line).__name__}")
    return core.tokenize_13a(line).split()


def _check_max_order(max_order):
    """max_order as an int from 1 to MAX_ORDER_LIMIT: any integer type (numpy's too, as nmt takes
    them); 0 or less is a ValueError naming it (nmt fails on min() of an empty list)."""
    if isinstance(max_order, bool) or not isinstance(max_order, numbers.Integral):
        raise ValueError(f"hf: max_order must be an int, got {max_order!r}")
    if max_order > MAX_ORDER_LIMIT:
        raise ValueError(f"hf: max_order must be at most {MAX_ORDER_LIMIT}, got {max_order}")
    if max_order < 1:
        raise ValueError(f"hf: max_order must be at least 1 (the n-gram orders 1..max_order "
                         f"are scored), got {max_order}")
    return int(max_order)


def _check_lines(predictions, references):
    """evaluate's input checks (its `datasets` features): string predictions, one string or
    list of strings of references per prediction, as many of each; references as lists."""
    for name, value in (("predictions", predictions), ("references", references)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"hf.bleu: {name} must be a list, got {type(value).__name__}")
    if len(predictions) != len(references):
        hint = ""
        if references and all(isinstance(r, Sequence) and not isinstance(r, str)
                              and len(r) == len(predictions) for r in references):
            hint = ("; `references` looks like sacreBLEU's reference streams (one list per "
                    "reference set, each with one reference per prediction): pass "
                    "references=list(zip(*references))")
        raise ValueError(f"hf.bleu: {len(predictions)} predictions but {len(references)} "
                         "references; pass one reference (or list of references) per "
                         f"prediction{hint}")
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
    """tensorflow/nmt's `compute_bleu` on token lists, as evaluate's `bleu` script calls it.
    Segments are paired with zip (extra segments on either side are ignored, as in nmt).

    :param reference_corpus: Per segment, a list of references (token lists).
    :param translation_corpus: Per segment, the translation (a token list).
    :param max_order: The largest n-gram order (default 4, at most 256).
    :param smooth: Add one to the matches and possible matches of every order.
    :returns: (bleu, precisions, brevity penalty, length ratio, translation length,
        reference length); BLEU on a 0-1 scale. Where either length is 0 (nmt raises
        ZeroDivisionError), BLEU, brevity penalty and length ratio are 0.0.
    :raises ValueError: A `max_order` that is not an int or is above 256.

    >>> from cybleu import hf
    >>> hf.compute_bleu([[["a", "b", "c"]]], [["a", "b", "c"]], max_order=2)
    (1.0, [1.0, 1.0], 1.0, 1.0, 3, 3)
    """
    max_order = _check_max_order(max_order)
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
    """What `evaluate.load("bleu").compute(...)` returns, the same numbers: tensorflow/nmt's
    BLEU with the *shortest* reference length, on a 0-1 scale.

    :param predictions: One string per segment.
    :param references: Per prediction, a list of reference strings, or one string.
    :param tokenizer: A callable from a string to a list of tokens (default: evaluate's 13a,
        :func:`tokenizer_13a`).
    :param max_order: The largest n-gram order (default 4).
    :param smooth: Add-one smoothing on every order.
    :returns: evaluate's dict: `bleu`, `precisions`, `brevity_penalty`, `length_ratio`,
        `translation_length`, `reference_length`. Where every prediction or every reference is
        empty after tokenizing (evaluate raises ZeroDivisionError), `bleu`, `brevity_penalty` and
        `length_ratio` are 0.0.
    :raises TypeError: Inputs that are not lists of strings.
    :raises ValueError: Different numbers of predictions and references, an empty corpus, a bad
        `max_order`.

    >>> from cybleu import hf
    >>> result = hf.bleu(["the cat sat on the mat"],
    ...                  [["the cat is on the mat", "the cat sat on a mat"]])
    >>> result["bleu"], result["precisions"]
    (0.7071067811865475, [1.0, 1.0, 0.75, 0.3333333333333333])
    """
    max_order = _check_max_order(max_order)
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
    """Stands in for `evaluate.load("bleu")`: `compute(predictions=..., references=...)`, or
    evaluate's batch protocol: `add_batch(predictions=..., references=...)` / `add(prediction=...,
    reference=...)` during the loop, then `compute(tokenizer=..., max_order=..., smooth=...)` over
    everything added (the buffer is emptied, as evaluate does). The lines are kept until
    compute(), as in evaluate, since the tokenizer and max order are only known then.

    >>> from cybleu import hf
    >>> bleu = hf.Bleu()
    >>> bleu.add_batch(predictions=["the cat sat on the mat"],
    ...                references=[["the cat is on the mat"]])
    >>> bleu.add(prediction="hello there", reference="hello there")
    >>> bleu.compute(smooth=True)["bleu"]
    0.5019724248795793
    """

    def __init__(self) -> None:
        self._predictions: List[str] = []
        self._references: List[List[str]] = []

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Add a batch.

        :param predictions: Prediction strings.
        :param references: Per prediction, one reference string or a list of them.
        :raises TypeError: Inputs that are not strings or lists of strings.
        :raises ValueError: A missing argument, or different numbers of each.
        """
        predictions, references = _batch_lines(predictions, references)
        self._predictions.extend(predictions)
        self._references.extend(references)

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Add one prediction.

        :param prediction: The prediction string.
        :param reference: Its reference (a string) or references (a list of strings).
        :raises TypeError: As :meth:`add_batch`.
        """
        self.add_batch(predictions=[prediction], references=[reference])

    def compute(self, *, predictions: Any = None, references: Any = None,
                tokenizer: Callable[[str], List[str]] = tokenizer_13a, max_order: int = 4,
                smooth: bool = False) -> Dict[str, Any]:
        """Score everything added (plus `predictions` and `references`, when given), and empty
        the buffer.

        :param predictions: A last batch of predictions, optional.
        :param references: Its references.
        :param tokenizer: A callable from a string to a list of tokens (default evaluate's 13a).
        :param max_order: The largest n-gram order (default 4).
        :param smooth: Add-one smoothing on every order.
        :returns: evaluate's dict, as :func:`bleu`.
        :raises ValueError: Nothing to score.
        """
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        predictions, references = self._predictions, self._references
        self._predictions, self._references = [], []
        if not predictions:
            raise ValueError("hf.Bleu.compute: nothing to score: pass predictions and references, "
                             "or add_batch() them first")
        return bleu(predictions, references, tokenizer=tokenizer, max_order=max_order,
                    smooth=smooth)


def _batch_lines(predictions: Any, references: Any) -> Tuple[List[str], List[List[str]]]:
    """A batch as evaluate's features accept it, references as one list per prediction."""
    from collections.abc import Sequence
    out: List[List[str]] = []
    for name, value in (("predictions", predictions), ("references", references)):
        if value is None:
            raise ValueError(f"hf.Bleu.add_batch: {name} is missing")
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"hf.Bleu.add_batch: {name} must be a list, got "
                            f"{type(value).__name__}")
    if len(predictions) != len(references):
        raise ValueError(f"hf.Bleu.add_batch: mismatch in the number of predictions "
                         f"({len(predictions)}) and references ({len(references)})")
    out = []
    for i, (prediction, refs) in enumerate(zip(predictions, references)):
        if not isinstance(prediction, str):
            raise TypeError(f"hf.Bleu.add_batch: predictions[{i}] is "
                            f"{type(prediction).__name__}, not str")
        if isinstance(refs, str):
            refs = [refs]
        elif not isinstance(refs, Sequence) or not all(isinstance(r, str) for r in refs):
            raise TypeError(f"hf.Bleu.add_batch: references[{i}] must be a string or a list of "
                            "strings")
        out.append(list(refs))
    return list(predictions), out


# -- transformers' Seq2SeqTrainer -----------------------------------------------------------------

def make_compute_metrics(tokenizer: Any, *, tokenize: str = "13a", lowercase: bool = False,
                         smooth_method: str = "exp", smooth_value: Optional[float] = None,
                         use_effective_order: bool = False, decode: bool = True,
                         skip_special_tokens: bool = True, strip: bool = True) -> "Seq2SeqBleu":
    """A `compute_metrics` for transformers' `Seq2SeqTrainer` (with `predict_with_generate=True`):
    `Seq2SeqTrainer(..., compute_metrics=hf.make_compute_metrics(tokenizer))`.

    It returns `{"bleu": sacreBLEU's corpus BLEU (0-100), "gen_len": mean generated length}`:
    the generated IDs and the labels are decoded with `tokenizer.batch_decode` (-100 and other
    negative IDs read as the pad token first), stripped, and scored as `sacrebleu.corpus_bleu`
    would with these arguments. Logits (without predict_with_generate) are reduced by argmax.

    With `batch_eval_metrics=True` the Trainer calls it once per batch with `compute_result`: the
    integer statistics of each batch are added up, and the last call returns the corpus score
    of the whole evaluation set (then it starts over for the next evaluation).

    :param tokenizer: The model's tokenizer (`batch_decode`, `pad_token_id`, `eos_token_id`).
    :param tokenize: sacreBLEU's tokenizer for the decoded text (default `'13a'`).
    :param lowercase: Lowercased BLEU.
    :param smooth_method: As `sacrebleu.corpus_bleu` (default `'exp'`).
    :param smooth_value: As `sacrebleu.corpus_bleu`.
    :param use_effective_order: As `sacrebleu.corpus_bleu` (default False).
    :param decode: False scores the token IDs themselves (:mod:`cybleu.ids`: pad trimmed, cut
        at the tokenizer's eos), without decoding: sacreBLEU's numbers for the IDs written as
        words, `tokenize='none'`.
    :param skip_special_tokens: Passed to `batch_decode`.
    :param strip: Strip the decoded strings.
    :returns: A :class:`Seq2SeqBleu`, the callable to pass as `compute_metrics`.
    :raises TypeError: `decode=True` with a tokenizer that has no `batch_decode`.
    :raises ValueError: An unknown tokenizer name or smoothing method.

    >>> import numpy as np
    >>> from cybleu import hf
    >>> class WordTokenizer:                 # stands in for a transformers tokenizer
    ...     pad_token_id, eos_token_id = 0, 1
    ...     words = {2: "the", 3: "cat", 4: "sat", 5: "is", 6: "on", 7: "mat"}
    ...     def batch_decode(self, rows, skip_special_tokens=True):
    ...         return [" ".join(self.words[i] for i in row if i > 1) for row in rows]
    >>> compute_metrics = hf.make_compute_metrics(WordTokenizer())
    >>> predictions = np.array([[2, 3, 4, 6, 2, 7, 1, 0]])        # generated IDs
    >>> labels = np.array([[2, 3, 5, 6, 2, 7, 1, -100]])          # -100: ignored positions
    >>> compute_metrics((predictions, labels))
    {'bleu': 37.99178428257963, 'gen_len': 7.0}
    """
    return Seq2SeqBleu(tokenizer, tokenize=tokenize, lowercase=lowercase,
                       smooth_method=smooth_method, smooth_value=smooth_value,
                       use_effective_order=use_effective_order, decode=decode,
                       skip_special_tokens=skip_special_tokens, strip=strip)


def _host_array(x: Any) -> Any:
    """A numpy view of predictions or labels (numpy arrays, or torch tensors on any device)."""
    import numpy as np
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return np.asarray(x)


class Seq2SeqBleu:
    """The callable :func:`make_compute_metrics` returns (the same arguments); `statistics`
    holds what a batched evaluation has added up so far.

    :param tokenizer: As :func:`make_compute_metrics`.
    :param tokenize: As :func:`make_compute_metrics`.
    :param lowercase: As :func:`make_compute_metrics`.
    :param smooth_method: As :func:`make_compute_metrics`.
    :param smooth_value: As :func:`make_compute_metrics`.
    :param use_effective_order: As :func:`make_compute_metrics`.
    :param decode: As :func:`make_compute_metrics`.
    :param skip_special_tokens: As :func:`make_compute_metrics`.
    :param strip: As :func:`make_compute_metrics`.

    >>> import numpy as np
    >>> from cybleu import hf
    >>> class WordTokenizer:                 # stands in for a transformers tokenizer
    ...     pad_token_id, eos_token_id = 0, 1
    ...     words = {2: "the", 3: "cat", 4: "sat", 5: "is", 6: "on", 7: "mat"}
    ...     def batch_decode(self, rows, skip_special_tokens=True):
    ...         return [" ".join(self.words[i] for i in row if i > 1) for row in rows]
    >>> compute_metrics = hf.Seq2SeqBleu(WordTokenizer())
    >>> predictions = np.array([[2, 3, 4, 6, 2, 7, 1, 0]])        # generated IDs
    >>> labels = np.array([[2, 3, 5, 6, 2, 7, 1, -100]])          # -100: ignored positions
    >>> compute_metrics((predictions, labels))
    {'bleu': 37.99178428257963, 'gen_len': 7.0}
    >>> compute_metrics((predictions, labels), compute_result=False)   # batch_eval_metrics
    {}
    >>> result = compute_metrics((predictions, labels), compute_result=True)   # the whole set
    >>> round(result["bleu"], 10), result["gen_len"]
    (31.9471552123, 7.0)
    """

    def __init__(self, tokenizer: Any, *, tokenize: str = "13a", lowercase: bool = False,
                 smooth_method: str = "exp", smooth_value: Optional[float] = None,
                 use_effective_order: bool = False, decode: bool = True,
                 skip_special_tokens: bool = True, strip: bool = True) -> None:
        from .metrics.bleu import BLEU
        if decode and not hasattr(tokenizer, "batch_decode"):
            raise TypeError("make_compute_metrics: the tokenizer needs a batch_decode method "
                            "(a transformers tokenizer)")
        self.tokenizer = tokenizer
        self.decode, self.skip_special_tokens, self.strip = decode, skip_special_tokens, strip
        self.metric = BLEU(tokenize="none" if not decode else tokenize, lowercase=lowercase,
                           force=True, smooth_method=smooth_method, smooth_value=smooth_value,
                           effective_order=use_effective_order)
        pad = getattr(tokenizer, "pad_token_id", None)
        self.pad_id = 0 if pad is None else int(pad)
        eos = getattr(tokenizer, "eos_token_id", None)
        self.eos_id = None if eos is None else int(eos)
        self.reset()

    def reset(self) -> None:
        """Forget the batches added so far."""
        width = 2 + 2 * self.metric.max_ngram_order
        self.statistics, self.generated, self.count = [0] * width, 0, 0

    def _batch_statistics(self, eval_pred: Any) -> Tuple[Any, int, int]:
        import numpy as np
        predictions, labels = eval_pred[0], eval_pred[1]
        if isinstance(predictions, tuple):   # (logits, other model outputs...)
            predictions = predictions[0]
        predictions, labels = _host_array(predictions), _host_array(labels)
        if predictions.ndim == 3:            # logits
            predictions = predictions.argmax(-1)
        if predictions.ndim != 2 or labels.ndim != 2 or predictions.shape[0] != labels.shape[0]:
            raise ValueError(f"compute_metrics: predictions {predictions.shape} and labels "
                             f"{labels.shape} must be (batch, length) arrays of token IDs")
        predictions = np.where(predictions < 0, self.pad_id, predictions)
        labels = np.where(labels < 0, self.pad_id, labels)
        generated = int(np.count_nonzero(predictions != self.pad_id))
        if self.decode:
            hyps = self.tokenizer.batch_decode(predictions,
                                               skip_special_tokens=self.skip_special_tokens)
            refs = self.tokenizer.batch_decode(labels,
                                               skip_special_tokens=self.skip_special_tokens)
            if self.strip:
                hyps, refs = [h.strip() for h in hyps], [r.strip() for r in refs]
            stats = self.metric._core_call("corpus_stats", hyps, [refs]) if hyps else None
        else:
            from . import ids
            stats = ids.corpus_stats(predictions, labels, pad_id=self.pad_id,
                                     eos_id=self.eos_id).vector.tolist()
        return stats, generated, predictions.shape[0]

    def _result(self, statistics: List[int], generated: int, count: int) -> Dict[str, float]:
        score = self.metric._compute_score_from_stats(list(statistics))
        return {"bleu": score.score, "gen_len": generated / count if count else 0.0}

    def __call__(self, eval_pred: Any, compute_result: Optional[bool] = None) -> Dict[str, float]:
        """Score an evaluation (or add a batch of one).

        :param eval_pred: transformers' `EvalPrediction`, or a (predictions, labels) pair of
            `(batch, length)` ID arrays (predictions may be logits, or a tuple led by them).
        :param compute_result: None: score this input alone. False: add it to the running
            statistics and return `{}`. True: add it and return the score of everything added,
            then start over.
        :returns: `{"bleu": ..., "gen_len": ...}`, or `{}` for an intermediate batch.
        :raises ValueError: Arrays that are not `(batch, length)` or of different batch sizes;
            nothing to score.
        """
        stats, generated, count = self._batch_statistics(eval_pred)
        if compute_result is None:           # the whole evaluation set at once
            if stats is None:
                raise ValueError("compute_metrics: no predictions to score")
            return self._result(stats, generated, count)
        if stats is not None:
            self.statistics = [a + int(b) for a, b in zip(self.statistics, stats)]
        self.generated += generated
        self.count += count
        if not compute_result:
            return {}
        result = self._result(self.statistics, self.generated, self.count)
        self.reset()
        return result
