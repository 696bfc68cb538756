"""ROUGE for whole batches: `batch_rouge(predictions, references)` gives every pair's precision,
recall and F per type as numpy arrays, rouge-score 0.1.2's numbers bit for bit, scored on
several threads without the GIL.

    >>> import cybleu
    >>> scores = cybleu.batch_rouge(["the cat sat on the mat", "hello world"],
    ...                             ["the cat is on the mat", ["hello there", "hello world"]])
    >>> scores["rouge1"].fmeasure.tolist()
    [0.8333333333333334, 1.0]

`references[i]` holds the reference of `predictions[i]`: a str, or a list of str, scored as
rouge-score's `score_multi` scores them (per type, the reference with the highest F).
"""
from collections.abc import Sequence
from typing import Any, Dict, Optional

__all__ = ["batch_rouge", "DEFAULT_TYPES"]

#: The types batch_rouge scores when none are named (HF evaluate's `rouge` defaults).
DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


def _what(value: Any) -> str:
    return type(value).__name__


def _check_inputs(predictions: Any, references: Any) -> None:
    if isinstance(predictions, (str, bytes)):
        raise TypeError("batch_rouge: predictions is one string; pass a list of predictions "
                        "(one str each), e.g. [prediction]")
    if isinstance(references, (str, bytes)):
        raise TypeError("batch_rouge: references is one string; pass a list with the "
                        "reference(s) of each prediction, e.g. [reference]")
    if not isinstance(predictions, Sequence) or not isinstance(references, Sequence):
        raise TypeError(f"batch_rouge: predictions and references must be sequences (lists), "
                        f"not {_what(predictions)} and {_what(references)}")
    if len(predictions) != len(references):
        raise ValueError(
            f"batch_rouge: {len(predictions)} predictions but {len(references)} references. "
            f"references[i] holds the reference(s) of predictions[i] (a str, or a list of str "
            f"for several); for sacreBLEU-style reference streams (one list per reference "
            f"file) pass list(zip(*streams))")
    for i, prediction in enumerate(predictions):
        if not isinstance(prediction, str):
            raise TypeError(f"batch_rouge: predictions[{i}] is {_what(prediction)}, not str")
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            continue
        if not isinstance(refs, (list, tuple)):
            raise TypeError(f"batch_rouge: references[{i}] is {_what(refs)}: give a str, or "
                            f"a list of str for several references")
        if not refs:
            raise ValueError(f"batch_rouge: references[{i}] is an empty list: each prediction "
                             f"needs at least one reference")
        for r in refs:
            if not isinstance(r, str):
                raise TypeError(f"batch_rouge: references[{i}] holds a {_what(r)}, not str")


def batch_rouge(predictions: Sequence[str], references: Sequence[Any],
                rouge_types: Sequence[str] = DEFAULT_TYPES, use_stemmer: bool = False,
                split_summaries: bool = False, tokenizer: Optional[Any] = None,
                n_threads: int = 1) -> Dict[str, Any]:
    """Every pair's ROUGE, as rouge-score's `RougeScorer(rouge_types, use_stemmer,
    split_summaries, tokenizer)` scores it (`score`, or `score_multi` for a list of references),
    as arrays.

    :param predictions: One str per pair.
    :param references: For each prediction, its reference (a str) or references (a list of str).
    :param rouge_types: `'rouge1'` ... `'rouge9'`, `'rougeL'`, `'rougeLsum'` (default
        rouge1, rouge2, rougeL, rougeLsum).
    :param use_stemmer: Porter-stem tokens longer than 3 characters (nltk's stemmer).
    :param split_summaries: rougeLsum's sentences from nltk's `sent_tokenize` instead of the
        lines.
    :param tokenizer: An object with `tokenize(text)` instead of rouge-score's default
        tokenizer (which keeps ASCII letters and digits only: text in other scripts scores 0).
    :param n_threads: Share the pairs out among this many threads (the default tokenizer
        without split_summaries; the values do not depend on it).
    :returns: A dict mapping each type to a `cybleu.rouge_score.scoring.Score` whose
        `precision`, `recall` and `fmeasure` are float64 arrays of `len(predictions)` values.
    :raises TypeError: A string where a list belongs, or an item that is not a str.
    :raises ValueError: Predictions and references of different lengths, an empty list of
        references, an invalid type, or `n_threads` below 1.

    >>> import cybleu
    >>> scores = cybleu.batch_rouge(["a b c d"], ["a b d e"], rouge_types=["rouge2", "rougeL"])
    >>> scores["rouge2"].recall.tolist(), scores["rougeL"].fmeasure.tolist()
    ([0.3333333333333333], [0.75])
    """
    import numpy as np

    from .rouge_score import rouge_scorer, scoring
    _check_inputs(predictions, references)
    if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 1:
        raise ValueError(f"batch_rouge: n_threads must be an int >= 1, not {n_threads!r}")
    kinds = rouge_scorer._kinds(rouge_types)
    if isinstance(kinds, Exception):
        raise kinds
    n = len(predictions)
    scorer = rouge_scorer.RougeScorer(list(rouge_types), use_stemmer=use_stemmer,
                                      split_summaries=split_summaries, tokenizer=tokenizer)
    _, compiled, _ = scorer._plan()
    if compiled is not None and not split_summaries:
        flat = compiled.batch(predictions, references, n_threads)
        values = np.frombuffer(flat, dtype=np.float64).reshape(n, len(kinds), 3)
    else:
        # a tokenizer of the user's, or nltk's sentences: Python calls, one pair at a time
        values = np.zeros((n, len(kinds), 3))
        for i, (prediction, refs) in enumerate(zip(predictions, references)):
            if isinstance(refs, str):
                result = scorer.score(refs, prediction)
            else:
                result = scorer.score_multi(list(refs), prediction)
            for k, (key, _, _) in enumerate(kinds):
                values[i, k] = [float(v) for v in result[key]]
    out = {}
    for k, (key, _, _) in enumerate(kinds):
        out[key] = scoring.Score(*(np.ascontiguousarray(values[:, k, j]) for j in range(3)))
    return out
