"""torchmetrics' text-metric family for BLEU, chrF, TER and ROUGE, with exact states and the
reference implementations' numbers (sacreBLEU's; rouge-score's for ROUGE).

    from cybleu.torchmetrics import SacreBLEUScore      # instead of torchmetrics.text's
    metric = SacreBLEUScore(tokenize="13a")
    metric.update(preds, target)        # target: one list of references per prediction
    metric.compute()                    # tensor(0.4853, dtype=torch.float64)

The classes `BLEUScore`, `SacreBLEUScore`, `CHRFScore`, `TranslationEditRate`, `ROUGEScore` and the
functions `bleu_score`, `sacre_bleu_score`, `chrf_score`, `translation_edit_rate`, `rouge_score` take
torchmetrics 1.9's
arguments and return what it returns (a tensor, or with `return_sentence_level_score=True` the
corpus tensor and the sentence scores). The classes follow torchmetrics' `Metric` protocol
(`update` / `compute` / `reset` / `forward`, `MetricCollection`, pickling, `clone()`), with
torchmetrics' state names, summed across processes in DDP (`dist_reduce_fx="sum"`; the sentence
scores are concatenated). What differs, on purpose:

- the states are exact: int64 counts (torchmetrics keeps float32, which stops counting at
  2**24); TER's `total_tgt_len` is float64, since an average reference length is fractional;
- every value is sacreBLEU's score / 100 as a float64 tensor (torchmetrics computes in float32):
  corpus BLEU, chrF with chrF++.py's epsilon smoothing (the formula torchmetrics implements;
  `eps_smoothing=False` gives sacreBLEU's default chrF), TER;
- BLEU's closest reference length breaks ties to the shorter reference, as sacreBLEU does
  (torchmetrics takes the first listed); `SacreBLEUScore` tokenizes exactly as sacreBLEU
  (rstrip, then lowercase, then the tokenizer; every sacreBLEU tokenizer name);
- chrF keeps, per sentence, the statistics of the reference with the best sentence chrF, the
  first of equals, also when every reference scores 0 (torchmetrics then counts no reference
  n-gram at all); counts no prediction n-gram of an order the reference has none of (a
  reference shorter than n characters, or of fewer than n words: a Chinese or Japanese
  reference without spaces has no word bigrams), where torchmetrics counts them and so lowers
  the precision; and removes all whitespace, not only spaces, when `whitespace=False`;
- TER is tercom's as sacreBLEU computes it: shifts are searched on the prediction (torchmetrics
  passes prediction and reference swapped, and searches them on the reference), an empty
  prediction costs one edit per reference word (torchmetrics counts none), and with
  `normalize=True` references are tokenized twice, as sacreBLEU does (`x's.` scores 2 edits
  against itself; torchmetrics 0);
- BLEU's `smooth=True` is sacreBLEU's add-k with k=1 (torchmetrics' smoothing: add one to every
  order but the first), without torchmetrics' return of 0 when an order has no match. Explicit
  non-uniform `weights` follow torchmetrics' formula instead (see `BLEUScore`);
- mismatched `preds`/`target` lengths, an empty reference list and non-string lines raise a
  clear error (torchmetrics truncates, fails later, or scores the corpus 0: an empty reference
  list turns TER's states into 2e16 edits over NaN words); reference streams passed where
  torchmetrics takes one list of references per prediction are recognised and the error says
  to pass `list(zip(*target))`;
- BLEU reads a flat list of strings as `target` as one reference per prediction, as
  torchmetrics' `bleu_score` does; its `BLEUScore` and `SacreBLEUScore` classes read the
  characters of each string as references there, and score 0.

cybleu does not reproduce torchmetrics' numbers where they differ: to compare with values
torchmetrics logged, keep torchmetrics for those.
"""
import math
import numbers
from collections.abc import Sequence
from typing import Any, List, Optional, Tuple, Union

try:
    import torch
    from torchmetrics import Metric
    from torchmetrics.utilities import dim_zero_cat
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(f"cybleu.torchmetrics needs torch and torchmetrics ({err}); install them "
                      "with: pip install 'cybleu[torchmetrics]'") from err

from ._backend import core
from ._scoring.bleu import MAX_ORDER_LIMIT
from .metrics.bleu import BLEU, _TOKENIZERS, _plan, _segment, _segment_refs
from .metrics.chrf import CHRF
from .metrics.ter import TER
from .tokenizers.registry import UnknownTokenizerError

__all__ = ["BLEUScore", "SacreBLEUScore", "CHRFScore", "TranslationEditRate", "ROUGEScore",
           "bleu_score", "sacre_bleu_score", "chrf_score", "translation_edit_rate",
           "rouge_score"]

_F64 = torch.float64


# -- inputs: torchmetrics' layout (one list of references per prediction) ------------------------

def _looks_like_streams(target: Any, n_preds: int) -> bool:
    """target is sacreBLEU's layout (k reference streams, each as long as preds) where
    torchmetrics takes one list of references per prediction."""
    return (len(target) != n_preds and len(target) > 0 and all(
        isinstance(t, Sequence) and not isinstance(t, str) and len(t) == n_preds
        for t in target))


def _count_error(name: str, n_preds: int, target: Any) -> ValueError:
    message = f"{name}: {n_preds} predictions but references for {len(target)}"
    if _looks_like_streams(target, n_preds):
        message += ("; `target` looks like sacreBLEU's reference streams (one list per "
                    "reference set, each with one reference per prediction), but torchmetrics "
                    "takes one list of references per prediction: wrap the `target` argument "
                    "as target=list(zip(*target))")
    return ValueError(message)


def _inputs(name: str, preds: Any, target: Any, flat_refs_of_one: bool
            ) -> Tuple[List[str], List[List[str]]]:
    """(predictions, one list of references per prediction), checked.

    A single string is one prediction (and one reference). With `flat_refs_of_one` (chrF and
    TER, torchmetrics' `_validate_inputs`), a flat list of strings is the references of a single
    prediction, or one reference per prediction when there are several; otherwise (BLEU) each
    string of the list is one prediction's reference."""
    if isinstance(preds, str):
        preds = [preds]
    if isinstance(target, str):
        target = [target]
    if not isinstance(preds, Sequence):
        raise TypeError(f"{name}: preds should be a sequence of strings, not "
                        f"{type(preds).__name__}")
    if not isinstance(target, Sequence):
        raise TypeError(f"{name}: target should be a sequence (one list of references per "
                        f"prediction), not {type(target).__name__}")
    preds = list(preds)
    if flat_refs_of_one and len(target) and all(isinstance(t, str) for t in target):
        segments = [list(target)] if len(preds) == 1 else [[t] for t in target]
    else:
        segments = [[refs] if isinstance(refs, str) else refs for refs in target]
    if len(preds) != len(segments):
        raise _count_error(name, len(preds), target)
    for i, pred in enumerate(preds):
        if not isinstance(pred, str):
            raise TypeError(f"{name}: preds[{i}] is {type(pred).__name__}, not str")
    out = []
    for i, refs in enumerate(segments):
        if not isinstance(refs, Sequence):
            raise TypeError(f"{name}: target[{i}] is {type(refs).__name__}; pass a list of "
                            "reference strings per prediction")
        refs = list(refs)
        if not refs:
            raise ValueError(f"{name}: target[{i}] holds no reference")
        for j, ref in enumerate(refs):
            if not isinstance(ref, str):
                raise TypeError(f"{name}: target[{i}][{j}] is {type(ref).__name__}, not str")
        out.append(refs)
    return preds, out


def _streams(segments: List[List[str]]) -> List[List[Optional[str]]]:
    """Per-prediction reference lists as sacreBLEU's streams (None where a prediction has fewer
    references; sacreBLEU and cybleu skip None)."""
    width = max(len(refs) for refs in segments)
    return [[refs[k] if k < len(refs) else None for refs in segments] for k in range(width)]


def _check_order(value: Any, minimum: int, message: str) -> int:
    """value as an int from minimum to MAX_ORDER_LIMIT (any integer type), else a ValueError
    with `message` (torchmetrics' own where it has one) and the value."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
            or not minimum <= value <= MAX_ORDER_LIMIT:
        raise ValueError(f"{message} (at most {MAX_ORDER_LIMIT}), got {value!r}")
    return int(value)


def _f64(value: float, device: Any) -> "torch.Tensor":
    return torch.tensor(value, dtype=_F64, device=device)


# -- BLEU ----------------------------------------------------------------------------------------

def _check_weights(weights: Any, n_gram: int, name: str) -> Optional[List[float]]:
    """None for the uniform weights 1/n (sacreBLEU's score), else the weights as floats: finite,
    >= 0, not all 0, n_gram of them."""
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)) or not hasattr(weights, "__len__"):
        raise TypeError(f"{name}: weights must be a sequence of {n_gram} numbers, got "
                        f"{type(weights).__name__}")
    if len(weights) != n_gram:
        raise ValueError(f"List of weights has different weights than `n_gram`: "
                         f"{len(weights)} != {n_gram}")
    values = []
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, (numbers.Real, torch.Tensor)):
            raise TypeError(f"{name}: weights must be numbers, got {type(w).__name__} {w!r}")
        values.append(float(w))
    if not all(math.isfinite(w) and w >= 0 for w in values) or not any(values):
        raise ValueError(
            f"{name}: weights must be finite and >= 0, and not all 0, got {values}: torchmetrics "
            "uses them as given (not normalized), each the weight of its order's log precision, "
            "so a negative or NaN weight gives a meaningless score")
    if all(w == 1.0 / n_gram for w in values):
        return None   # torchmetrics' default: sacreBLEU's uniform weights, sacreBLEU's number
    return values


def _weighted_bleu(stats: List[int], n: int, weights: List[float], smooth: bool,
                   device: Any) -> "torch.Tensor":
    """torchmetrics' `_bleu_score_compute`, step for step, in float64 on exact statistics: 0 when
    an order has no match; `smooth` adds one to the counts of every order but the first;
    bp * exp(sum(w_n * log p_n)) with the weights as given."""
    preds_len, target_len = _f64(stats[0], device), _f64(stats[1], device)
    numerator = torch.tensor(stats[2:2 + n], dtype=_F64, device=device)
    denominator = torch.tensor(stats[2 + n:], dtype=_F64, device=device)
    if min(numerator) == 0.0:
        return _f64(0.0, device)
    if smooth:
        ones = torch.ones(n, dtype=_F64, device=device)
        precision_scores = torch.div(torch.add(numerator, ones), torch.add(denominator, ones))
        precision_scores[0] = numerator[0] / denominator[0]
    else:
        precision_scores = numerator / denominator
    log_precision_scores = torch.tensor(weights, dtype=_F64, device=device) \
        * torch.log(precision_scores)
    geometric_mean = torch.exp(torch.sum(log_precision_scores))
    brevity_penalty = _f64(1.0, device) if preds_len > target_len \
        else torch.exp(1 - (target_len / preds_len))
    return brevity_penalty * geometric_mean


class BLEUScore(Metric):
    """BLEU of whitespace-split text (torchmetrics' `BLEUScore`), on exact statistics.

    As input to `update` and `forward`: `preds`, a sequence of hypothesis strings (or one
    string); `target`, per prediction a sequence of reference strings (or one string). A flat
    list of strings is one reference per prediction, as torchmetrics' `bleu_score` function
    reads it (torchmetrics' own `BLEUScore` class reads each string's characters as references
    and scores 0 there). `compute()` and `forward` return the BLEU as a float64 tensor on a 0-1
    scale.

    :param n_gram: The largest n-gram order (1 to 256).
    :param smooth: sacreBLEU's add-k smoothing with k=1 (add one to every order but the first).
    :param weights: One weight per order. None, or torchmetrics' default 1/n_gram for every
        order: sacreBLEU's corpus BLEU / 100, bit for bit. Other weights follow torchmetrics'
        formula, bp * exp(sum(w_n * log p_n)), on the same exact statistics in float64: the
        weights are not normalized (weights that sum to 2 square the score), and the value is 0
        when an order has no match, smoothed or not, as in torchmetrics. Weights must be finite,
        >= 0 and not all 0 (torchmetrics takes any; a negative weight gives scores above 1).
        `cybleu.ids`'s weights differ: they are normalized by their sum.
    :param kwargs: torchmetrics' `Metric` keyword arguments.
    :raises ValueError: For an n_gram outside 1..256, or weights of another length or values.

    >>> from cybleu.torchmetrics import BLEUScore
    >>> BLEUScore()(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                        "a cat is on the mat"]])
    tensor(0.7598, dtype=torch.float64)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False     # the states are sums: forward updates once
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    _tokenize = "none"

    def __init__(self, n_gram: int = 4, smooth: bool = False,
                 weights: Optional[Sequence[float]] = None, *, _lowercase: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        name = type(self).__name__
        n_gram = _check_order(n_gram, 1, f"{name}: n_gram must be a positive int")
        self._weights = _check_weights(weights, n_gram, name)
        self.n_gram = n_gram
        self.smooth = bool(smooth)
        self.weights = self._weights if self._weights is not None else [1.0 / n_gram] * n_gram
        # the text pipeline (tokenizer, lowercase, MeCab/sentencepiece segmenters) of cybleu's BLEU
        self._bleu = BLEU(tokenize=self._tokenize, lowercase=_lowercase, max_ngram_order=n_gram,
                          smooth_method="add-k" if self.smooth else "none", smooth_value=1)
        zero = torch.tensor(0, dtype=torch.int64)
        self.add_state("preds_len", zero, dist_reduce_fx="sum")
        self.add_state("target_len", zero.clone(), dist_reduce_fx="sum")
        self.add_state("numerator", torch.zeros(n_gram, dtype=torch.int64), dist_reduce_fx="sum")
        self.add_state("denominator", torch.zeros(n_gram, dtype=torch.int64),
                       dist_reduce_fx="sum")

    def _statistics(self, preds: Any, target: Any) -> List[int]:
        """[hyp_len, ref_len, correct_1..N, total_1..N] of the batch, as Python ints."""
        preds, segments = _inputs(type(self).__name__, preds, target, False)
        if not preds:
            return [0] * (2 + 2 * self.n_gram)
        bleu = self._bleu
        mode, segmenter = _plan(bleu.tokenizer)
        lower = bleu.lowercase
        return list(core.corpus_stats(_segment(preds, segmenter, lower),
                                      _segment_refs(segments, segmenter, lower), mode,
                                      lower and segmenter is None, self.n_gram))

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        :param preds: Hypothesis strings (or one string).
        :param target: Per hypothesis, a sequence of reference strings (or one string).
        :raises ValueError: Different numbers of hypotheses and reference lists, an empty
            reference list.
        :raises TypeError: A line that is not a string (the message names its index).
        """
        stats = self._statistics(preds, target)
        n = self.n_gram
        device = self.numerator.device
        self.preds_len += stats[0]
        self.target_len += stats[1]
        self.numerator += torch.tensor(stats[2:2 + n], dtype=torch.int64, device=device)
        self.denominator += torch.tensor(stats[2 + n:], dtype=torch.int64, device=device)

    def statistics(self) -> List[int]:
        """The accumulated statistics: this process's (inside `with metric.sync_context():`,
        the whole DDP group's).

        :returns: `[hyp_len, ref_len, correct_1..N, total_1..N]` as Python ints.
        """
        return [int(self.preds_len), int(self.target_len)] + \
            [int(v) for v in self.numerator.tolist()] + [int(v) for v in self.denominator.tolist()]

    def sacrebleu_score(self) -> Any:
        """The accumulated corpus BLEU as sacreBLEU reports it.

        :returns: A :class:`~cybleu.metrics.BLEUScore` (0-100).
        """
        return self._bleu._compute_score_from_stats(self.statistics())

    def compute(self) -> "torch.Tensor":
        """BLEU of everything added.

        :returns: BLEU on a 0-1 scale, a float64 tensor.
        """
        return _bleu_value(self._bleu, self.statistics(), self.n_gram, self._weights,
                           self.smooth, self.numerator.device)

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one or several computed values (needs matplotlib).

        :param val: A computed value or a list of them (None: compute now).
        :param ax: A matplotlib axis to draw on.
        :returns: matplotlib's (figure, axis).
        """
        return self._plot(val, ax)


def _bleu_value(bleu: BLEU, stats: List[int], n: int, weights: Optional[List[float]],
                smooth: bool, device: Any) -> "torch.Tensor":
    if weights is None:
        return _f64(bleu._compute_score_from_stats(list(stats)).score / 100.0, device)
    return _weighted_bleu(stats, n, weights, smooth, device)


class SacreBLEUScore(BLEUScore):
    """BLEU with sacreBLEU's tokenizers (torchmetrics' `SacreBLEUScore`, the same arguments and
    protocol), with int64 states and sacreBLEU's numbers (its corpus BLEU / 100).

    :param n_gram: The largest n-gram order (1 to 256).
    :param smooth: sacreBLEU's add-k smoothing with k=1.
    :param tokenize: Any sacreBLEU tokenizer name ('13a', 'none', 'intl', 'zh', 'char',
        'ja-mecab', 'ko-mecab', 'flores101', 'flores200', 'spm', 'spBLEU-1K').
    :param lowercase: Lowercase before tokenizing, as sacreBLEU does.
    :param weights: As for `BLEUScore`.
    :param kwargs: torchmetrics' `Metric` keyword arguments.
    :raises ValueError: For an unknown tokenizer, and as `BLEUScore`.

    >>> from cybleu.torchmetrics import SacreBLEUScore
    >>> SacreBLEUScore()(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                             "a cat is on the mat"]])
    tensor(0.7598, dtype=torch.float64)
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False, tokenize: str = "13a",
                 lowercase: bool = False, weights: Optional[Sequence[float]] = None,
                 **kwargs: Any) -> None:
        if tokenize not in _TOKENIZERS:
            # torchmetrics' message; the class is a ValueError, as torchmetrics raises
            raise UnknownTokenizerError(f"Unsupported tokenizer selected. Please, choose one of "
                                        f"{list(_TOKENIZERS)}")
        self._tokenize = tokenize
        super().__init__(n_gram=n_gram, smooth=smooth, weights=weights, _lowercase=lowercase,
                         **kwargs)
        self.tokenize, self.lowercase = tokenize, bool(lowercase)


def bleu_score(preds: Union[str, Sequence[str]], target: Sequence[Union[str, Sequence[str]]],
               n_gram: int = 4, smooth: bool = False,
               weights: Optional[Sequence[float]] = None) -> "torch.Tensor":
    """torchmetrics' `bleu_score`: the BLEU of `BLEUScore` on one corpus (a float64 tensor).

    :param preds: The hypotheses (or one string).
    :param target: Per prediction, its references (or one string each).
    :param n_gram: The largest n-gram order (1 to 256).
    :param smooth: sacreBLEU's add-k smoothing with k=1.
    :param weights: As for `BLEUScore`.
    :returns: BLEU on a 0-1 scale, a float64 tensor.
    :raises ValueError: When preds and target differ in length (the message says how to pass
        sacreBLEU's reference streams), and as `BLEUScore`.

    >>> from cybleu.torchmetrics import bleu_score
    >>> bleu_score(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                         "a cat is on the mat"]])
    tensor(0.7598, dtype=torch.float64)
    """
    return _functional(BLEUScore(n_gram=n_gram, smooth=smooth, weights=weights), preds, target)


def sacre_bleu_score(preds: Sequence[str], target: Sequence[Sequence[str]], n_gram: int = 4,
                     smooth: bool = False, tokenize: str = "13a", lowercase: bool = False,
                     weights: Optional[Sequence[float]] = None) -> "torch.Tensor":
    """torchmetrics' `sacre_bleu_score`: the BLEU of `SacreBLEUScore` on one corpus.

    :param preds: The hypotheses (or one string).
    :param target: Per prediction, its references (or one string each).
    :param n_gram: The largest n-gram order (1 to 256).
    :param smooth: sacreBLEU's add-k smoothing with k=1.
    :param tokenize: Any sacreBLEU tokenizer name (default '13a').
    :param lowercase: Lowercase before tokenizing, as sacreBLEU does.
    :param weights: As for `BLEUScore`.
    :returns: sacreBLEU's corpus BLEU / 100, a float64 tensor.
    :raises ValueError: As for `SacreBLEUScore` and `bleu_score`.

    >>> from cybleu.torchmetrics import sacre_bleu_score
    >>> sacre_bleu_score(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                               "a cat is on the mat"]])
    tensor(0.7598, dtype=torch.float64)
    """
    return _functional(SacreBLEUScore(n_gram=n_gram, smooth=smooth, tokenize=tokenize,
                                      lowercase=lowercase, weights=weights), preds, target)


def _functional(metric: Metric, preds: Any, target: Any) -> Any:
    metric.update(preds, target)
    return metric.compute()


# -- chrF ----------------------------------------------------------------------------------------

_TEXTS = ("preds", "target", "matching")


class CHRFScore(Metric):
    """chrF and chrF++ (torchmetrics' `CHRFScore`): sacreBLEU's chrF on exact statistics.

    As input to `update` and `forward`: `preds`, a sequence of hypothesis strings (or one
    string); `target`, per prediction a sequence of reference strings (a flat list of strings:
    the references of a single prediction, or one reference each of several, as torchmetrics
    reads it).

    :param n_char_order: Character n-gram order (6).
    :param n_word_order: Word n-gram order (2: chrF++; 0: chrF).
    :param beta: The weight of recall against precision (2).
    :param lowercase: Lowercase before counting.
    :param whitespace: Keep whitespace in the character n-grams.
    :param return_sentence_level_score: `compute()` also returns each sentence's chrF.
    :param eps_smoothing: (keyword only, not in torchmetrics) True, the default: chrF++.py's
        epsilon smoothing, the formula torchmetrics implements (sacreBLEU's
        `CHRF(eps_smoothing=True)`); False: sacreBLEU's default chrF (effective order).
    :param kwargs: torchmetrics' `Metric` keyword arguments.
    :returns: From `compute()`: chrF / 100 as a float64 tensor, or (that, a float64 tensor of
        the sentence scores) with `return_sentence_level_score`.
    :raises ValueError: For orders outside 1..256 (char) or 0..256 (word), a negative beta.

    States (int64, summed): `total_{preds,target,matching}_{char,word}_{n}_grams` for each
    order n, sacreBLEU's chrF statistics of the reference chosen per sentence (the hypothesis
    count is 0 for an order the chosen reference has no n-gram of, as in sacreBLEU).

    >>> from cybleu.torchmetrics import CHRFScore
    >>> CHRFScore()(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                        "a cat is on the mat"]])
    tensor(0.8640, dtype=torch.float64)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, n_char_order: int = 6, n_word_order: int = 2, beta: float = 2.0,
                 lowercase: bool = False, whitespace: bool = False,
                 return_sentence_level_score: bool = False, *, eps_smoothing: bool = True,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._chrf = _chrf_metric(n_char_order, n_word_order, beta, lowercase, whitespace,
                                  eps_smoothing)
        self.n_char_order = self._chrf.char_order
        self.n_word_order = self._chrf.word_order
        self.beta = beta
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = bool(eps_smoothing)
        self.return_sentence_level_score = return_sentence_level_score
        self.n_order = float(self.n_char_order + self.n_word_order)
        for name in self._state_names():
            self.add_state(name, torch.tensor(0, dtype=torch.int64), dist_reduce_fx="sum")
        if self.return_sentence_level_score:
            self.add_state("sentence_chrf_score", [], dist_reduce_fx="cat")

    def _state_names(self) -> List[str]:
        """torchmetrics' state names, in the order of sacreBLEU's statistics: per order (char
        1..C, then word 1..W) the prediction, reference and matching n-grams."""
        names = []
        for level, order in (("char", self.n_char_order), ("word", self.n_word_order)):
            for n in range(1, order + 1):
                names += [f"total_{text}_{level}_{n}_grams" for text in _TEXTS]
        return names

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        :param preds: Hypothesis strings (or one string).
        :param target: Per hypothesis, a sequence of reference strings (or one string).
        :raises ValueError: Different numbers of hypotheses and reference lists (the message
            says how to pass sacreBLEU's reference streams).
        :raises TypeError: A line that is not a string.
        """
        rows = _chrf_rows(self._chrf, type(self).__name__, preds, target)
        for name, total in zip(self._state_names(), _column_sums(rows, 3 * self._chrf.order)):
            setattr(self, name, getattr(self, name) + total)
        if self.return_sentence_level_score and rows:
            self.sentence_chrf_score.append(torch.tensor(
                [self._chrf._compute_score_from_stats(row).score / 100.0 for row in rows],
                dtype=_F64, device=self.device))

    def statistics(self) -> List[int]:
        """The accumulated statistics as sacreBLEU's CHRF keeps them.

        :returns: [hyp, ref, match] per order, char orders first, as Python ints.
        """
        return [int(getattr(self, name)) for name in self._state_names()]

    def compute(self) -> Union["torch.Tensor", Tuple["torch.Tensor", "torch.Tensor"]]:
        """chrF of everything added.

        :returns: chrF on a 0-1 scale (a float64 tensor); with `return_sentence_level_score`,
            (that, a float64 tensor of the sentence scores).
        """
        value = _f64(self._chrf._compute_score_from_stats(self.statistics()).score / 100.0,
                     self.device)
        if self.return_sentence_level_score:
            return value, _cat(self.sentence_chrf_score, self.device)
        return value

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one or several computed values (needs matplotlib).

        :param val: A computed value or a list of them (None: compute now).
        :param ax: A matplotlib axis to draw on.
        :returns: matplotlib's (figure, axis).
        """
        return self._plot(val, ax)


def _chrf_metric(n_char_order: Any, n_word_order: Any, beta: Any, lowercase: bool,
                 whitespace: bool, eps_smoothing: bool) -> CHRF:
    """cybleu's CHRF for torchmetrics' arguments, checked with torchmetrics' messages."""
    char_order = _check_order(n_char_order, 1, "Expected argument `n_char_order` to be an "
                              "integer greater than or equal to 1")
    word_order = _check_order(n_word_order, 0, "Expected argument `n_word_order` to be an "
                              "integer greater than or equal to 0")
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise TypeError(f"Expected argument `beta` to be a number, got {type(beta).__name__}.")
    if beta < 0:
        raise ValueError("Expected argument `beta` to be greater than 0.")
    return CHRF(char_order=char_order, word_order=word_order, beta=beta,
                lowercase=bool(lowercase), whitespace=bool(whitespace),
                eps_smoothing=bool(eps_smoothing))


def _chrf_rows(chrf: CHRF, name: str, preds: Any, target: Any) -> List[List[int]]:
    preds, segments = _inputs(name, preds, target, True)
    if not preds:
        return []
    return [list(row) for row in chrf._extract_corpus_statistics(preds, _streams(segments))]


def _column_sums(rows: List[List[int]], width: int) -> List[int]:
    totals = [0] * width
    for row in rows:
        for i, value in enumerate(row):
            totals[i] += value
    return totals


def _cat(scores: Any, device: Any) -> "torch.Tensor":
    """The sentence scores gathered so far as one float64 tensor (a list of per-batch tensors,
    or one tensor after a DDP sync)."""
    if isinstance(scores, list) and not scores:
        return torch.zeros(0, dtype=_F64, device=device)
    return dim_zero_cat(scores)


def chrf_score(preds: Union[str, Sequence[str]], target: Sequence[Union[str, Sequence[str]]],
               n_char_order: int = 6, n_word_order: int = 2, beta: float = 2.0,
               lowercase: bool = False, whitespace: bool = False,
               return_sentence_level_score: bool = False, *, eps_smoothing: bool = True
               ) -> Union["torch.Tensor", Tuple["torch.Tensor", "torch.Tensor"]]:
    """torchmetrics' `chrf_score`: `CHRFScore` on one corpus.

    :param preds: The hypotheses (or one string).
    :param target: Per prediction, its references (or one string each).
    :param n_char_order: Character n-gram order (6).
    :param n_word_order: Word n-gram order (2: chrF++; 0: chrF).
    :param beta: The weight of recall against precision (2).
    :param lowercase: Lowercase before counting.
    :param whitespace: Keep whitespace in the character n-grams.
    :param return_sentence_level_score: Also return each sentence's chrF.
    :param eps_smoothing: As for `CHRFScore` (keyword only; default True).
    :returns: The corpus chrF / 100 (a float64 tensor), or with `return_sentence_level_score`
        (and at least one prediction) the pair (corpus, sentence scores as one float64
        tensor), as torchmetrics returns them.
    :raises ValueError: As for `CHRFScore`.

    >>> from cybleu.torchmetrics import chrf_score
    >>> chrf_score(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                         "a cat is on the mat"]])
    tensor(0.8640, dtype=torch.float64)
    """
    chrf = _chrf_metric(n_char_order, n_word_order, beta, lowercase, whitespace, eps_smoothing)
    rows = _chrf_rows(chrf, "chrf_score", preds, target)
    value = _f64(chrf._compute_score_from_stats(_column_sums(rows, 3 * chrf.order)).score / 100.0,
                 None)
    if return_sentence_level_score and rows:
        return value, torch.tensor([chrf._compute_score_from_stats(row).score / 100.0
                                    for row in rows], dtype=_F64)
    return value


# -- TER -----------------------------------------------------------------------------------------

def _ter_metric(normalize: Any, no_punctuation: Any, lowercase: Any, asian_support: Any) -> TER:
    """cybleu's TER for torchmetrics' arguments, checked with torchmetrics' messages."""
    for name, value in (("normalize", normalize), ("no_punctuation", no_punctuation),
                        ("lowercase", lowercase), ("asian_support", asian_support)):
        if not isinstance(value, bool):
            raise ValueError(f"Expected argument `{name}` to be of type boolean but got {value}.")
    return TER(normalized=normalize, no_punct=no_punctuation, asian_support=asian_support,
               case_sensitive=not lowercase)


def _ter_rows(ter: TER, name: str, preds: Any, target: Any) -> List[List[Any]]:
    preds, segments = _inputs(name, preds, target, True)
    if not preds:
        return []
    return [list(row) for row in ter._extract_corpus_statistics(preds, _streams(segments))]


def _ter_sentence(ter: TER, row: List[Any]) -> float:
    return float(ter._compute_score_from_stats(row).score / 100.0)


class TranslationEditRate(Metric):
    """Translation edit rate (torchmetrics' `TranslationEditRate`): sacreBLEU's TER (tercom's
    shift search) on exact statistics.

    As input to `update` and `forward`: `preds` and `target` as for `CHRFScore`.

    :param normalize: tercom's normalization (sacreBLEU's `normalized`).
    :param no_punctuation: Remove punctuation (`no_punct`).
    :param lowercase: Compare lowercased text (sacreBLEU's `case_sensitive=False`); default True.
    :param asian_support: The CJK parts of normalize and no_punctuation.
    :param return_sentence_level_score: `compute()` also returns each sentence's TER.
    :param kwargs: torchmetrics' `Metric` keyword arguments.
    :returns: From `compute()`: TER / 100 as a float64 tensor (lower is better), or (that, a
        float64 tensor of the sentence TERs) with `return_sentence_level_score`.
    :raises ValueError: When a flag is not a bool (torchmetrics' message).

    States (summed): `total_num_edits` (int64) and `total_tgt_len` (float64: the sum of each
    sentence's average reference length, added in sentence order as sacreBLEU adds them; exact
    while sentences have 1, 2, 4, ... references, else a DDP or `forward` merge may round the
    last bit differently from one sequential sum).

    >>> from cybleu.torchmetrics import TranslationEditRate
    >>> TranslationEditRate()(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                                  "a cat is on the mat"]])
    tensor(0.1538, dtype=torch.float64)
    """

    is_differentiable = False
    higher_is_better = False
    full_state_update = False
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, normalize: bool = False, no_punctuation: bool = False,
                 lowercase: bool = True, asian_support: bool = False,
                 return_sentence_level_score: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._ter = _ter_metric(normalize, no_punctuation, lowercase, asian_support)
        self.normalize, self.no_punctuation = normalize, no_punctuation
        self.lowercase, self.asian_support = lowercase, asian_support
        self.return_sentence_level_score = return_sentence_level_score
        self.add_state("total_num_edits", torch.tensor(0, dtype=torch.int64),
                       dist_reduce_fx="sum")
        self.add_state("total_tgt_len", torch.tensor(0.0, dtype=_F64), dist_reduce_fx="sum")
        if self.return_sentence_level_score:
            self.add_state("sentence_ter", [], dist_reduce_fx="cat")

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        :param preds: Hypothesis strings (or one string).
        :param target: Per hypothesis, a sequence of reference strings (or one string).
        :raises ValueError: Different numbers of hypotheses and reference lists (the message
            says how to pass sacreBLEU's reference streams).
        :raises TypeError: A line that is not a string.
        """
        rows = _ter_rows(self._ter, type(self).__name__, preds, target)
        edits = 0
        length = float(self.total_tgt_len)
        for row in rows:
            edits += int(row[0])
            length += row[1]      # one segment at a time: sacreBLEU's order of float additions
        self.total_num_edits += edits
        self.total_tgt_len = _f64(length, self.device)
        if self.return_sentence_level_score and rows:
            self.sentence_ter.append(torch.tensor([_ter_sentence(self._ter, row) for row in rows],
                                                  dtype=_F64, device=self.device))

    def compute(self) -> Union["torch.Tensor", Tuple["torch.Tensor", "torch.Tensor"]]:
        """TER of everything added.

        :returns: TER on a 0-1 scale (a float64 tensor, lower is better); with
            `return_sentence_level_score`, (that, a float64 tensor of the sentence TERs).
        """
        value = _f64(_ter_sentence(self._ter, [int(self.total_num_edits),
                                               float(self.total_tgt_len)]), self.device)
        if self.return_sentence_level_score:
            return value, _cat(self.sentence_ter, self.device)
        return value

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one or several computed values (needs matplotlib).

        :param val: A computed value or a list of them (None: compute now).
        :param ax: A matplotlib axis to draw on.
        :returns: matplotlib's (figure, axis).
        """
        return self._plot(val, ax)


def translation_edit_rate(preds: Union[str, Sequence[str]],
                          target: Sequence[Union[str, Sequence[str]]], normalize: bool = False,
                          no_punctuation: bool = False, lowercase: bool = True,
                          asian_support: bool = False, return_sentence_level_score: bool = False
                          ) -> Union["torch.Tensor", Tuple["torch.Tensor", List["torch.Tensor"]]]:
    """torchmetrics' `translation_edit_rate`: `TranslationEditRate` on one corpus.

    :param preds: The hypotheses (or one string).
    :param target: Per prediction, its references (or one string each).
    :param normalize: tercom's normalization (sacreBLEU's `normalized`).
    :param no_punctuation: Remove punctuation (`no_punct`).
    :param lowercase: Compare lowercased text (default True).
    :param asian_support: The CJK parts of normalize and no_punctuation.
    :param return_sentence_level_score: Also return each sentence's TER.
    :returns: The corpus TER / 100 (a float64 tensor), or with `return_sentence_level_score`
        (and at least one prediction) the pair (corpus, a list of one-element float64 tensors,
        one per sentence), as torchmetrics returns them.
    :raises ValueError: As for `TranslationEditRate`.

    >>> from cybleu.torchmetrics import translation_edit_rate
    >>> translation_edit_rate(["the cat is on the mat"], [["there is a cat on the mat",
    ...                                                    "a cat is on the mat"]])
    tensor(0.1538, dtype=torch.float64)
    """
    ter = _ter_metric(normalize, no_punctuation, lowercase, asian_support)
    rows = _ter_rows(ter, "translation_edit_rate", preds, target)
    edits, length = 0, 0.0
    for row in rows:
        edits += int(row[0])
        length += row[1]
    value = _f64(_ter_sentence(ter, [edits, length]), None)
    if return_sentence_level_score and rows:
        return value, [torch.tensor([_ter_sentence(ter, row)], dtype=_F64) for row in rows]
    return value


# -- ROUGE ---------------------------------------------------------------------------------------

_ROUGE_KEYS = tuple(f"rouge{n}" for n in range(1, 10)) + ("rougeL", "rougeLsum")
_ROUGE_MEASURES = ("fmeasure", "precision", "recall")


class _TorchmetricsTokenizer:
    """torchmetrics' text preparation as a tokenizer object: `normalizer(text)` (default:
    lowercase, runs outside [a-z0-9] to a space), `tokenizer(text)` (default: split on
    whitespace), Porter stems of tokens longer than 3 characters, then only non-empty str."""

    def __init__(self, normalizer: Any, tokenizer: Any, use_stemmer: bool) -> None:
        import re
        from .rouge_score.tokenizers import PorterStemmer
        self.normalizer, self.tokenizer = normalizer, tokenizer
        self.stemmer = PorterStemmer() if use_stemmer else None
        self._sep, self._space = re.compile(r"[^a-z0-9]+"), re.compile(r"\s+")

    def tokenize(self, text: str) -> List[str]:
        text = self.normalizer(text) if callable(self.normalizer) \
            else self._sep.sub(" ", text.lower())
        tokens = self.tokenizer(text) if callable(self.tokenizer) else self._space.split(text)
        if self.stemmer:
            tokens = [self.stemmer.stem(x) if len(x) > 3 else x for x in tokens]
        return [x for x in tokens if isinstance(x, str) and len(x) > 0]


def _rouge_keys(rouge_keys: Any) -> Tuple[str, ...]:
    if not isinstance(rouge_keys, tuple):
        rouge_keys = (rouge_keys,)
    for key in rouge_keys:
        if key not in _ROUGE_KEYS:
            raise ValueError(f"Got unknown rouge key {key}. Expected to be one of "
                             f"{list(_ROUGE_KEYS)}")
    return tuple(rouge_keys)


def _rouge_rows(name: str, preds: Any, target: Any, keys: Tuple[str, ...], use_stemmer: bool,
                normalizer: Any, tokenizer: Any, accumulate: str, split_summaries: bool
                ) -> List[List[float]]:
    """Per prediction, [F, P, R] per key (torchmetrics' order), rouge-score's values as floats:
    the best reference by F (`'best'`) or the mean over the references (`'avg'`)."""
    from .rouge import batch_rouge
    preds, segments = _inputs(name, preds, target, flat_refs_of_one=True)
    if not preds:
        return []
    custom = None if normalizer is None and tokenizer is None else \
        _TorchmetricsTokenizer(normalizer, tokenizer, use_stemmer)
    types = list(dict.fromkeys(keys))
    if accumulate == "best":
        got = batch_rouge(preds, segments, types, use_stemmer=use_stemmer,
                          split_summaries=split_summaries, tokenizer=custom)
        return [[float(getattr(got[k], m)[i]) for k in keys for m in _ROUGE_MEASURES]
                for i in range(len(preds))]
    pairs = [(p, r) for p, refs in zip(preds, segments) for r in refs]
    got = batch_rouge([p for p, _ in pairs], [r for _, r in pairs], types,
                      use_stemmer=use_stemmer, split_summaries=split_summaries, tokenizer=custom)
    rows, start = [], 0
    for refs in segments:
        stop = start + len(refs)
        rows.append([math.fsum(float(v) for v in getattr(got[k], m)[start:stop]) / len(refs)
                     for k in keys for m in _ROUGE_MEASURES])
        start = stop
    return rows


class ROUGEScore(Metric):
    """ROUGE (torchmetrics' `ROUGEScore`) with rouge-score 0.1.2's numbers: every sentence's
    precision, recall and F as rouge-score computes them (float64), their mean over the
    sentences summed exactly (`math.fsum`, so any batching or DDP split gives the same number).

    As input to `update` and `forward`: `preds`, prediction strings (or one string); `target`,
    per prediction its reference strings (a flat list of strings: the references of a single
    prediction, or one reference each of several, as torchmetrics reads it).

    :param use_stemmer: Porter-stem tokens longer than 3 characters (nltk's stemmer).
    :param normalizer: A function str -> str replacing the default normalization (lowercase,
        runs outside [a-z0-9] to a space), as in torchmetrics.
    :param tokenizer: A function str -> tokens replacing the split on whitespace, as in
        torchmetrics.
    :param accumulate: With several references: `'best'` (the reference with the highest F per
        key, rouge-score's `score_multi`) or `'avg'` (the mean over the references).
    :param rouge_keys: A key or a tuple of keys: `'rouge1'` ... `'rouge9'`, `'rougeL'`,
        `'rougeLsum'`.
    :param split_summaries: (keyword only, not in torchmetrics) rougeLsum's sentences: True (the
        default, as torchmetrics): nltk's `sent_tokenize`, which needs its `punkt_tab` data;
        False: the lines of the text, rouge-score's default.
    :param kwargs: torchmetrics' `Metric` keyword arguments.
    :returns: From `compute()`: a dict `{key}_{fmeasure,precision,recall}` -> float64 tensor.
    :raises ValueError: An unknown key or accumulate value.

    States (per sentence, gathered across processes): `{key}_{fmeasure,precision,recall}`.

    >>> from cybleu.torchmetrics import ROUGEScore
    >>> rouge = ROUGEScore(rouge_keys=("rouge1", "rougeL"))
    >>> rouge("My name is John", "Is your name John")["rougeL_fmeasure"]
    tensor(0.5000, dtype=torch.float64)
    """

    is_differentiable = False
    higher_is_better = True
    full_state_update = True
    plot_lower_bound = 0.0
    plot_upper_bound = 1.0

    def __init__(self, use_stemmer: bool = False, normalizer: Any = None, tokenizer: Any = None,
                 accumulate: str = "best",
                 rouge_keys: Union[str, Tuple[str, ...]] = ("rouge1", "rouge2", "rougeL",
                                                            "rougeLsum"),
                 *, split_summaries: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rouge_keys = _rouge_keys(rouge_keys)
        if accumulate not in ("avg", "best"):
            raise ValueError(f"Got unknown accumulate value {accumulate}. Expected to be one of "
                             f"('avg', 'best')")
        self.use_stemmer = use_stemmer
        self.normalizer = normalizer
        self.tokenizer = tokenizer
        self.accumulate = accumulate
        self.split_summaries = split_summaries
        for key in self.rouge_keys:
            for measure in _ROUGE_MEASURES:
                self.add_state(f"{key}_{measure}", [], dist_reduce_fx="cat")

    def update(self, preds: Any, target: Any) -> None:
        """Add a batch.

        :param preds: Prediction strings (or one string).
        :param target: Per prediction, a sequence of reference strings (or one string).
        :raises ValueError: Different numbers of predictions and reference lists (the message
            says how to pass sacreBLEU-style reference streams).
        :raises TypeError: A line that is not a string.
        """
        rows = _rouge_rows(type(self).__name__, preds, target, self.rouge_keys,
                           self.use_stemmer, self.normalizer, self.tokenizer, self.accumulate,
                           self.split_summaries)
        if not rows:
            return
        columns = list(zip(*rows))
        c = 0
        for key in self.rouge_keys:
            for measure in _ROUGE_MEASURES:
                getattr(self, f"{key}_{measure}").append(
                    torch.tensor(columns[c], dtype=_F64, device=self.device))
                c += 1

    def compute(self) -> dict:
        """The mean of every sentence's values.

        :returns: `{key}_{fmeasure,precision,recall}` -> a float64 tensor (NaN before any
            update).
        """
        out = {}
        for key in self.rouge_keys:
            for measure in _ROUGE_MEASURES:
                values = _cat(getattr(self, f"{key}_{measure}"), self.device).tolist()
                mean = math.fsum(values) / len(values) if values else math.nan
                out[f"{key}_{measure}"] = _f64(mean, self.device)
        return out

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one or several computed values (needs matplotlib).

        :param val: A computed value or a list of them (None: compute now).
        :param ax: A matplotlib axis to draw on.
        :returns: matplotlib's (figure, axis).
        """
        return self._plot(val, ax)


def rouge_score(preds: Union[str, Sequence[str]],
                target: Union[str, Sequence[str], Sequence[Sequence[str]]],
                accumulate: str = "best", use_stemmer: bool = False, normalizer: Any = None,
                tokenizer: Any = None,
                rouge_keys: Union[str, Tuple[str, ...]] = ("rouge1", "rouge2", "rougeL",
                                                           "rougeLsum"),
                *, split_summaries: bool = True) -> dict:
    """torchmetrics' `rouge_score`: `ROUGEScore` on one batch.

    :param preds: Prediction strings (or one string).
    :param target: Per prediction, its reference strings (or one string each).
    :param accumulate: `'best'` or `'avg'` over several references.
    :param use_stemmer: Porter-stem tokens longer than 3 characters.
    :param normalizer: A function str -> str replacing the default normalization.
    :param tokenizer: A function str -> tokens replacing the split on whitespace.
    :param rouge_keys: A key or a tuple of keys.
    :param split_summaries: As for `ROUGEScore` (keyword only; default True: nltk's sentences).
    :returns: `{key}_{fmeasure,precision,recall}` -> a float64 tensor.
    :raises ValueError: As for `ROUGEScore`.

    >>> from cybleu.torchmetrics import rouge_score
    >>> rouge_score("My name is John", "Is your name John", rouge_keys="rouge1")
    {'rouge1_fmeasure': tensor(0.7500, dtype=torch.float64), \
'rouge1_precision': tensor(0.7500, dtype=torch.float64), \
'rouge1_recall': tensor(0.7500, dtype=torch.float64)}
    """
    metric = ROUGEScore(use_stemmer, normalizer, tokenizer, accumulate, rouge_keys,
                        split_summaries=split_summaries)
    metric.update(preds, target)
    return metric.compute()
