"""torchmetrics' `BLEUScore` and `SacreBLEUScore`, with exact integer states and sacreBLEU's numbers.
In place of torchmetrics' classes::

    from cybleu.torchmetrics import SacreBLEUScore      # instead of torchmetrics.text's
    metric = SacreBLEUScore(tokenize="13a")
    metric.update(preds, target)        # target: one list of references per prediction
    metric.compute()                    # tensor(0.4853, dtype=torch.float64)

Same constructor arguments (`n_gram`, `smooth`, `weights`, `tokenize`, `lowercase`, and the
`Metric` keyword arguments), same `update` / `compute` / `reset` / `forward`, the same state
names (`preds_len`, `target_len`, `numerator`, `denominator`), summed across processes in DDP.
What differs, on purpose (each case is in docs/guide/frameworks.md and tests/test_torchmetrics.py):

- the states are int64 sums (torchmetrics keeps float32, which stops counting at 2**24);
- the closest reference length breaks ties to the shorter reference, as sacreBLEU does
  (torchmetrics takes the first listed);
- `SacreBLEUScore` tokenizes exactly as sacreBLEU does (rstrip, then lowercase, then the tokenizer;
  every sacreBLEU tokenizer name);
- `compute()` is sacreBLEU's corpus BLEU / 100 as a float64 tensor: `smooth=False` is sacreBLEU's
  `smooth_method='none'`, `smooth=True` its `'add-k'` with k=1 (add one to every order but the
  first, torchmetrics' smoothing, without torchmetrics' return of 0 when an order has no match);
  non-uniform `weights` give bp * exp(sum(w_n * log p_n)) on those precisions;
- mismatched `preds`/`target` lengths, an empty reference list and non-string lines raise
  (torchmetrics truncates or fails later).
"""
import math
from collections.abc import Sequence
from typing import Any, List, Optional

try:
    import torch
    from torchmetrics import Metric
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError(f"cybleu.torchmetrics needs torch and torchmetrics ({err}); install them "
                      "with: pip install 'cybleu[torchmetrics]'") from err

from ._backend import core
from .metrics.bleu import BLEU, _TOKENIZERS, _plan, _segment, _segment_refs

__all__ = ["BLEUScore", "SacreBLEUScore"]


class BLEUScore(Metric):
    """BLEU of whitespace-split text (torchmetrics' `BLEUScore`, the same arguments and
    protocol), with int64 states and sacreBLEU's numbers.

    `update(preds, target)` takes a sequence of hypothesis strings (or one string) and, per
    hypothesis, a sequence of reference strings (or one string); `compute()` returns
    sacreBLEU's corpus BLEU / 100 as a float64 tensor. The states (`preds_len`, `target_len`,
    `numerator`, `denominator`) are summed across processes under DDP.

    :param n_gram: The largest n-gram order (default 4).
    :param smooth: Add one to the matches and counts of every order but the first (sacreBLEU's
        `add-k` with k=1).
    :param weights: One weight per order (default uniform); non-uniform weights give
        `bp * exp(sum(w_n * log p_n))` on sacreBLEU's precisions.
    :raises ValueError: A bad `n_gram`, or as many weights as `n_gram` not given.

    torchmetrics' `Metric` keyword arguments (`dist_sync_on_step`, ...) are passed on.

    >>> from cybleu.torchmetrics import BLEUScore
    >>> metric = BLEUScore(n_gram=2)
    >>> metric.update(["the cat sat on the mat"], [["the cat is on the mat"]])
    >>> metric.compute()
    tensor(0.7071, dtype=torch.float64)
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
        if isinstance(n_gram, bool) or not isinstance(n_gram, int) or n_gram < 1:
            raise ValueError(f"n_gram must be a positive int, got {n_gram!r}")
        if weights is not None and len(weights) != n_gram:
            raise ValueError(f"List of weights has different weights than `n_gram`: "
                             f"{len(weights)} != {n_gram}")
        self.n_gram = n_gram
        self.smooth = bool(smooth)
        self.weights = [float(w) for w in weights] if weights is not None \
            else [1.0 / n_gram] * n_gram
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
        if isinstance(preds, str):
            preds = [preds]
        if isinstance(target, str):
            target = [target]
        preds = list(preds)
        segments = [[refs] if isinstance(refs, str) else list(refs) for refs in target]
        if len(preds) != len(segments):
            raise ValueError(f"{type(self).__name__}: {len(preds)} predictions but references "
                             f"for {len(segments)}")
        for i, refs in enumerate(segments):
            if not refs:
                raise ValueError(f"{type(self).__name__}: target[{i}] holds no reference")
        if not preds:
            return [0] * (2 + 2 * self.n_gram)
        bleu = self._bleu
        mode, segmenter = _plan(bleu.tokenizer)
        lower = bleu.lowercase
        try:
            return core.corpus_stats(_segment(preds, segmenter, lower),
                                     _segment_refs(segments, segmenter, lower), mode,
                                     lower and segmenter is None, self.n_gram)
        except TypeError:
            prefix = type(self).__name__
            for i, pred in enumerate(preds):
                if not isinstance(pred, str):
                    raise TypeError(f"{prefix}: preds[{i}] is {type(pred).__name__}, "
                                    "not str") from None
            for i, refs in enumerate(segments):
                for j, ref in enumerate(refs):
                    if not isinstance(ref, str):
                        raise TypeError(f"{prefix}: target[{i}][{j}] is {type(ref).__name__}, "
                                        "not str") from None
            raise

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
        """BLEU of everything added, on a 0-1 scale.

        :returns: A float64 tensor.
        """
        stats = self.statistics()
        score = self._bleu._compute_score_from_stats(list(stats))
        if len(set(self.weights)) == 1:
            value = score.score / 100.0
        else:
            # an extension (sacreBLEU weighs the orders equally): torchmetrics' weighted formula
            # on sacreBLEU's precisions; 0 when a precision is 0, as the equal-weight score is
            precisions = score.precisions
            if score.score == 0.0 or any(p == 0.0 for p in precisions):
                value = 0.0
            else:
                value = score.bp * math.exp(sum(w * math.log(p / 100.0)
                                                for w, p in zip(self.weights, precisions)))
        return torch.tensor(value, dtype=torch.float64, device=self.numerator.device)

    def plot(self, val: Any = None, ax: Any = None) -> Any:
        """torchmetrics' plot of one or several computed values (needs matplotlib).

        :param val: A computed value or a list of them (None: compute now).
        :param ax: A matplotlib axis to draw on.
        :returns: matplotlib's (figure, axis).
        """
        return self._plot(val, ax)


class SacreBLEUScore(BLEUScore):
    """BLEU with sacreBLEU's tokenizers (torchmetrics' `SacreBLEUScore`, the same arguments and
    protocol), with int64 states and sacreBLEU's numbers (its corpus BLEU / 100).

    :param n_gram: The largest n-gram order (default 4).
    :param smooth: As :class:`BLEUScore`.
    :param tokenize: Any sacreBLEU tokenizer name: `'13a'` (default), `'none'`, `'intl'`,
        `'zh'`, `'char'`, `'ja-mecab'`, `'ko-mecab'`, `'flores101'`, `'flores200'`, `'spm'`,
        `'spBLEU-1K'`.
    :param lowercase: Lowercase before tokenizing, as sacreBLEU does.
    :param weights: As :class:`BLEUScore`.
    :raises ValueError: An unknown tokenizer, or as :class:`BLEUScore`.

    >>> from cybleu.torchmetrics import SacreBLEUScore
    >>> metric = SacreBLEUScore()
    >>> metric.update(["The cat sat on the mat."], [["The cat is on the mat."]])
    >>> metric.compute()
    tensor(0.4889, dtype=torch.float64)
    >>> print(metric.sacrebleu_score())
    BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False, tokenize: str = "13a",
                 lowercase: bool = False, weights: Optional[Sequence[float]] = None,
                 **kwargs: Any) -> None:
        if tokenize not in _TOKENIZERS:
            raise ValueError(f"Unsupported tokenizer selected. Please, choose one of "
                             f"{list(_TOKENIZERS)}")
        self._tokenize = tokenize
        super().__init__(n_gram=n_gram, smooth=smooth, weights=weights, _lowercase=lowercase,
                         **kwargs)
        self.tokenize, self.lowercase = tokenize, bool(lowercase)
