"""Sentence BLEU as a reward function for TRL's GRPOTrainer (and anything with its signature)::

    from cybleu.rewards import bleu_reward
    trainer = GRPOTrainer(..., reward_funcs=bleu_reward, train_dataset=ds)   # ds has "reference"

TRL calls a reward function as `f(prompts=..., completions=..., completion_ids=..., <every other
dataset column>=..., trainer_state=..., ...)` and wants one float (or None) per completion. These
return sacreBLEU's sentence BLEU (`sacrebleu.sentence_bleu(completion, refs).score`, 0-100, bit for
bit) of every completion against its row's reference(s), for the whole batch in one call to the
compiled core. TRL itself is not imported.
"""
import math
from collections.abc import Sequence
from typing import Any, Callable, List, Optional

__all__ = ["bleu_reward", "make_bleu_reward", "rouge_reward", "make_rouge_reward"]


def _completion_text(completion, index, what="bleu"):
    """A standard completion is a string; a conversational one a list of messages, whose last
    message's content is the text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion and isinstance(completion[-1], dict) \
            and isinstance(completion[-1].get("content"), str):
        return completion[-1]["content"]
    raise TypeError(f"{what} reward: completions[{index}] is neither a string nor a list of chat "
                    f"messages with a 'content' string (got {type(completion).__name__})")


def _reference_rows(references, n, column, is_ids, what="bleu"):
    """Per completion: its references (a list), or None when the row has none (reward None)."""
    if references is None:
        raise TypeError(f"{what} reward: no {column!r} column was passed; TRL passes every "
                        f"dataset column by name, so the dataset needs a {column!r} column (or "
                        f"choose the column with make_{what}_reward(column=...))")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence) \
            or len(references) != n:
        raise ValueError(f"{what} reward: {column!r} must hold one entry per completion "
                         f"({n}), got {type(references).__name__}"
                         f"{'' if not isinstance(references, Sequence) else f' of {len(references)}'}")
    rows = []
    for i, ref in enumerate(references):
        if ref is None:
            rows.append(None)
        elif is_ids:
            # one ID sequence, or a list of them
            nested = isinstance(ref, Sequence) and len(ref) > 0 and not isinstance(ref[0], int) \
                and hasattr(ref[0], "__len__")
            rows.append(list(ref) if nested else [ref])
        elif isinstance(ref, str):
            rows.append([ref])
        elif isinstance(ref, Sequence) and ref and all(isinstance(r, str) for r in ref):
            rows.append(list(ref))
        else:
            raise TypeError(f"{what} reward: {column}[{i}] must be a string or a list of "
                            f"strings")
    return rows


def make_bleu_reward(column: str = "reference", *, tokenize: str = "13a", lowercase: bool = False,
                     smooth_method: str = "exp", smooth_value: Optional[float] = None,
                     use_effective_order: bool = True, scale: float = 1.0, ids: bool = False,
                     pad_id: Optional[int] = None, eos_id: Optional[int] = None,
                     max_order: int = 4, n_threads: int = 1, name: Optional[str] = None
                     ) -> Callable[..., List[Optional[float]]]:
    """A GRPO reward function with TRL's signature: sentence BLEU of each completion against the
    dataset column `column` (a reference string or a list of them per row; a row whose reference
    is None gets None, which TRL reads as "no reward from this function").

    :param column: The dataset column holding the references (default `'reference'`).
    :param tokenize: sacreBLEU's tokenizer for text completions (default `'13a'`).
    :param lowercase: Lowercased BLEU.
    :param smooth_method: As `sacrebleu.sentence_bleu` (default `'exp'`).
    :param smooth_value: As `sacrebleu.sentence_bleu`.
    :param use_effective_order: As `sacrebleu.sentence_bleu` (default True).
    :param scale: Multiplies the reward (0.01 gives 0-1).
    :param ids: False: the completion text (`completions`, a string or a chat message list).
        True: the generated token IDs (`completion_ids`) against reference token IDs in
        `column`, without decoding (:func:`cybleu.ids.sentence_bleu`).
    :param pad_id: With `ids=True`: the padding ID, trimmed at both edges.
    :param eos_id: With `ids=True`: a row ends at its first eos.
    :param max_order: The largest n-gram order (default 4).
    :param n_threads: With `ids=True`: count on this many threads.
    :param name: The function's `__name__`, under which TRL logs the reward (default
        `'bleu_<column>'`).
    :returns: The reward function: `reward(completions=..., completion_ids=..., **columns)` ->
        one float or None per completion.
    :raises ValueError: A non-finite scale, an unknown tokenizer or smoothing method.

    The returned function raises `TypeError` when the column is missing or a completion is
    neither a string nor a chat message list, and `ValueError` when the column has another
    length than the completions.

    >>> from cybleu.rewards import make_bleu_reward
    >>> reward = make_bleu_reward("solution", scale=0.01)
    >>> reward.__name__
    'bleu_solution'
    >>> reward(prompts=["p"], completions=[[{"role": "assistant",
    ...                                     "content": "The cat sat on the mat."}]],
    ...        solution=[["The cat is on the mat.", "A cat sat on the mat."]])
    [0.8801117367933934]
    >>> by_ids = make_bleu_reward("target_ids", ids=True, pad_id=0, eos_id=2)
    >>> by_ids(completion_ids=[[5, 17, 9, 42, 2, 0]], target_ids=[[5, 17, 9, 42]])
    [100.00000000000004]
    """
    from .metrics.bleu import BLEU
    scale = float(scale)
    if not math.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale}")
    if ids:
        from . import ids as ids_module
        ids_module._bleu(max_order, smooth_method, smooth_value, use_effective_order)  # checks
        metric = None
    else:
        metric = BLEU(tokenize=tokenize, lowercase=lowercase, force=True,
                      smooth_method=smooth_method, smooth_value=smooth_value,
                      max_ngram_order=max_order, effective_order=use_effective_order)

    def reward(completions: Any = None, completion_ids: Any = None,
               **kwargs: Any) -> List[Optional[float]]:
        source = completion_ids if ids else completions
        if source is None:
            raise TypeError(f"bleu reward: no {'completion_ids' if ids else 'completions'} "
                            "given (TRL passes both)")
        n = len(source)
        rows = _reference_rows(kwargs.get(column), n, column, ids)
        scored = [i for i, row in enumerate(rows) if row is not None]
        out = [None] * n
        if not scored:
            return out
        if ids:
            values = ids_module.sentence_bleu(
                [source[i] for i in scored], [rows[i] for i in scored], max_order=max_order,
                smooth_method=smooth_method, smooth_value=smooth_value,
                effective_order=use_effective_order, pad_id=pad_id, eos_id=eos_id,
                n_threads=n_threads)
        else:
            hyps = [_completion_text(source[i], i) for i in scored]
            width = max(len(rows[i]) for i in scored)
            streams = [[rows[i][k] if k < len(rows[i]) else None for i in scored]
                       for k in range(width)]
            values = metric.sentence_scores(hyps, streams)
        for i, value in zip(scored, values.tolist()):
            out[i] = value * scale if scale != 1.0 else value
        return out

    reward.__name__ = reward.__qualname__ = name or f"bleu_{column}"
    reward.__doc__ = f"Sentence BLEU of each completion against the {column!r} column."
    return reward


bleu_reward = make_bleu_reward("reference", name="bleu_reward")
bleu_reward.__doc__ = """GRPO reward: sacreBLEU's sentence BLEU (0-100) of each completion (text,
or the last message of a conversational completion) against the dataset's "reference" column (a
string or a list of strings per row). `make_bleu_reward` chooses the column, the tokenizer and
smoothing, a scale, or token IDs (`completion_ids`) instead of text.

:param completions: The completions TRL passes (strings or chat message lists).
:param completion_ids: The generated IDs TRL passes (unused here).
:param reference: The dataset's "reference" column, one entry per completion (TRL passes every
    column by name, and other keyword arguments, which are ignored).
:returns: One float (or None for a row without reference) per completion.
:raises TypeError: No "reference" column, or a completion that is neither text nor messages.
:raises ValueError: A column of another length than the completions.

>>> from cybleu.rewards import bleu_reward
>>> bleu_reward(prompts=["p", "q"], completions=["The cat sat on the mat.", "Hi"],
...             reference=["The cat is on the mat.", None])
[48.892302243490086, None]
"""


_MEASURES = ("precision", "recall", "fmeasure")


def make_rouge_reward(column: str = "reference", *, rouge_type: str = "rougeL",
                      measure: str = "fmeasure", use_stemmer: bool = False,
                      tokenizer: Optional[Any] = None, scale: float = 1.0, ids: bool = False,
                      pad_id: Optional[int] = None, eos_id: Optional[int] = None,
                      n_threads: int = 1, name: Optional[str] = None
                      ) -> Callable[..., List[Optional[float]]]:
    """A GRPO reward function with TRL's signature: ROUGE of each completion against the dataset
    column `column` (a reference string or a list of them per row, the best F among several as
    rouge-score's `score_multi`; a row whose reference is None gets None).

    :param column: The dataset column holding the references (default `'reference'`).
    :param rouge_type: `'rouge1'` ... `'rouge9'`, `'rougeL'` (default) or `'rougeLsum'`.
    :param measure: `'fmeasure'` (default), `'precision'` or `'recall'` (0-1).
    :param use_stemmer: Porter-stem tokens longer than 3 characters (text completions).
    :param tokenizer: An object with `tokenize(text)` instead of rouge-score's tokenizer (which
        keeps ASCII letters and digits only: other scripts score 0 without one).
    :param scale: Multiplies the reward.
    :param ids: False: the completion text. True: the generated token IDs (`completion_ids`)
        against reference token IDs in `column`, without decoding (:func:`cybleu.ids.rouge`;
        rougeLsum is not available there).
    :param pad_id: With `ids=True`: the padding ID, trimmed at both edges.
    :param eos_id: With `ids=True`: a row ends at its first eos.
    :param n_threads: Score on this many threads.
    :param name: The function's `__name__`, under which TRL logs the reward (default
        `'<rouge_type>_<column>'`).
    :returns: The reward function: `reward(completions=..., completion_ids=..., **columns)` ->
        one float or None per completion.
    :raises ValueError: An invalid type or measure, a non-finite scale.

    >>> from cybleu.rewards import make_rouge_reward
    >>> reward = make_rouge_reward("summary", rouge_type="rouge1", use_stemmer=True)
    >>> reward(prompts=["p"], completions=["The cats sat on the mat."],
    ...        summary=[["A cat sat on a mat.", "The dog ran."]])
    [0.6666666666666666]
    """
    from .rouge_score import rouge_scorer
    kinds = rouge_scorer._kinds([rouge_type])
    if isinstance(kinds, Exception):
        raise kinds
    if measure not in _MEASURES:
        raise ValueError(f"measure must be one of {', '.join(_MEASURES)}, not {measure!r}")
    if ids and kinds[0][0] == "rougeLsum":
        raise ValueError("rougeLsum needs sentences, which token IDs do not mark: use rougeL")
    scale = float(scale)
    if not math.isfinite(scale):
        raise ValueError(f"scale must be finite, got {scale}")
    pick = _MEASURES.index(measure)

    def reward(completions: Any = None, completion_ids: Any = None,
               **kwargs: Any) -> List[Optional[float]]:
        source = completion_ids if ids else completions
        if source is None:
            raise TypeError(f"rouge reward: no {'completion_ids' if ids else 'completions'} "
                            "given (TRL passes both)")
        n = len(source)
        rows = _reference_rows(kwargs.get(column), n, column, ids, what="rouge")
        scored = [i for i, row in enumerate(rows) if row is not None]
        out: List[Optional[float]] = [None] * n
        if not scored:
            return out
        if ids:
            from . import ids as ids_module
            got = ids_module.rouge([source[i] for i in scored], [rows[i] for i in scored],
                                   rouge_types=[rouge_type], pad_id=pad_id, eos_id=eos_id,
                                   n_threads=n_threads)
        else:
            from .rouge import batch_rouge
            got = batch_rouge([_completion_text(source[i], i, "rouge") for i in scored],
                              [rows[i] for i in scored], [rouge_type], use_stemmer=use_stemmer,
                              tokenizer=tokenizer, n_threads=n_threads)
        values = got[rouge_type][pick].tolist()
        for i, value in zip(scored, values):
            out[i] = value * scale if scale != 1.0 else value
        return out

    reward.__name__ = reward.__qualname__ = name or f"{rouge_type}_{column}"
    reward.__doc__ = f"{rouge_type} {measure} of each completion against the {column!r} column."
    return reward


rouge_reward = make_rouge_reward("reference", name="rouge_reward")
rouge_reward.__doc__ = """GRPO reward: rouge-score's ROUGE-L F (0-1) of each completion (text,
or the last message of a conversational completion) against the dataset's "reference" column (a
string or a list of strings per row, the best among several). `make_rouge_reward` chooses the
column, the type, the measure, the stemmer, a scale, or token IDs instead of text.

:param completions: The completions TRL passes (strings or chat message lists).
:param completion_ids: The generated IDs TRL passes (unused here).
:param reference: The dataset's "reference" column, one entry per completion (TRL passes every
    column by name, and other keyword arguments, which are ignored).
:returns: One float (or None for a row without reference) per completion.
:raises TypeError: No "reference" column, or a completion that is neither text nor messages.
:raises ValueError: A column of another length than the completions.

>>> from cybleu.rewards import rouge_reward
>>> rouge_reward(prompts=["p", "q"], completions=["The cat sat on the mat.", "Hi"],
...              reference=["The cat is on the mat.", None])
[0.8333333333333334, None]
"""
