"""rouge-score's scoring module: `Score`, `AggregateScore`, `BaseScorer`, `fmeasure` and
`BootstrapAggregator`, which resamples on cybleu's compiled core.

By default the aggregator draws from numpy's global random state exactly as rouge-score does
(`np.random.choice` per sample and per type), so a program that seeds numpy gets rouge-score's
numbers, and leaves numpy's state where rouge-score would. With `seed=` it is deterministic of
itself: one resample of the documents for all the types, numpy's
`default_rng(seed).choice(n, size=(n_samples, n))`, and numpy's global state untouched.
"""
import abc
import collections
from typing import Dict

import numpy as np

from .._backend import module
from .._scoring.rouge import fmeasure

__all__ = ["Score", "BaseScorer", "AggregateScore", "BootstrapAggregator", "fmeasure"]


class Score(collections.namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Tuple containing precision, recall, and f-measure values.

    >>> from cybleu.rouge_score.scoring import Score
    >>> Score(precision=1.0, recall=0.5, fmeasure=2 / 3).recall
    0.5
    """


class BaseScorer(object, metaclass=abc.ABCMeta):
    """Base class for Scorer objects: a `score(target, prediction)` that returns a dict of
    scores (RougeScorer is one).

    >>> from cybleu.rouge_score import rouge_scorer, scoring
    >>> isinstance(rouge_scorer.RougeScorer(["rouge1"]), scoring.BaseScorer)
    True
    """

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> Dict[str, Score]:
        """Calculates score between the target and prediction.

        :param target: Text containing the target (ground truth) text.
        :param prediction: Text containing the predicted text.
        :returns: A dict mapping each score_type (string) to Score object.
        """


class AggregateScore(collections.namedtuple("AggregateScore", ["low", "mid", "high"])):
    """Tuple containing confidence intervals for scores: low, mid (the median of the bootstrap
    means) and high, each a score tuple.

    >>> from cybleu.rouge_score.scoring import AggregateScore, Score
    >>> AggregateScore(low=Score(0, 0, 0), mid=Score(1, 1, 1), high=Score(1, 1, 1)).mid.recall
    1
    """


def _kernel():
    return module("rouge_bootstrap")


def _as_float_matrix(matrix):
    # numpy's mean adds integers and booleans as float64: the same numbers from float64 input
    if matrix.dtype.kind in "iub":
        return matrix.astype(np.float64)
    return matrix


def _score_matrix(scores):
    """rouge-score's np.vstack(tuple(scores)), as the float64 matrix its mean adds: read in one
    pass when the scores are tuples of Python numbers (np.vstack converts each row on its own,
    which costs more than the resampling), else numpy's stacking."""
    matrix = _kernel().pack_scores(scores, len(scores[0])) \
        if isinstance(scores[0], tuple) else None
    if matrix is None:
        matrix = _as_float_matrix(np.vstack(tuple(scores)))
    return matrix


def legacy_sample_means(matrix, n_samples):
    """rouge-score's bootstrap sample means of one score matrix (rows: documents, columns: the
    measures), drawn from numpy's global random state, which is left where rouge-score leaves
    it."""
    matrix = _as_float_matrix(matrix)
    state = np.random.get_state(legacy=False)
    if state.get("bit_generator") != "MT19937":
        # a global generator of another kind (np.random.set_bit_generator): numpy draws
        sample_mean = np.zeros((n_samples, matrix.shape[1]))
        for i in range(n_samples):
            sample_idx = np.random.choice(np.arange(matrix.shape[0]), size=matrix.shape[0])
            sample_mean[i, :] = np.mean(matrix[sample_idx, :], axis=0)
        return sample_mean
    means, key, pos = _kernel().legacy_means(matrix, n_samples, state["state"]["key"],
                                             state["state"]["pos"])
    state["state"] = {"key": key, "pos": pos}
    np.random.set_state(state)
    return means


def _percentiles(sample_mean, confidence_interval):
    percentile_delta = (1 - confidence_interval) / 2
    q = 100 * np.array([percentile_delta, 0.5, 1 - percentile_delta])
    return np.percentile(sample_mean, q, axis=0)


class BootstrapAggregator(object):
    """Aggregates scores to provide confidence intervals, as rouge-score's: for each score type,
    `n_samples` bootstrap resamples of the documents, the mean of each, and the
    `(1 - confidence_interval) / 2`, 50th and `1 - (1 - confidence_interval) / 2` percentiles of
    those means (low, mid, high).

    :param confidence_interval: The interval's coverage, from 0 to 1 (default 0.95).
    :param n_samples: Bootstrap resamples (default 1000).
    :param seed: None (default): draw from numpy's global random state as rouge-score does
        (seed numpy for repeatable numbers). An int from 0 to 2**64 - 1: the same numbers at
        every run, numpy's global state untouched; every type is resampled at the same
        documents, the rows of `numpy.random.default_rng(seed).choice(n, size=(n_samples, n))`
        for n documents.
    :raises ValueError: An interval outside [0, 1], `n_samples` below 1, or a bad seed.

    >>> from cybleu.rouge_score import rouge_scorer, scoring
    >>> scorer = rouge_scorer.RougeScorer(["rouge1"])
    >>> aggregator = scoring.BootstrapAggregator(seed=0)
    >>> aggregator.add_scores(scorer.score("one two three", "one two"))
    >>> aggregator.add_scores(scorer.score("one two five six", "seven eight"))
    >>> float(aggregator.aggregate()["rouge1"].mid.fmeasure)
    0.4
    """

    def __init__(self, confidence_interval=0.95, n_samples=1000, seed=None):
        if confidence_interval < 0 or confidence_interval > 1:
            raise ValueError("confidence_interval must be in range [0, 1]")
        if n_samples <= 0:
            raise ValueError("n_samples must be positive")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed < 2 ** 64):
            raise ValueError(f"seed must be None or an int from 0 to 2**64 - 1, not {seed!r}")
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._seed = seed
        self._scores = collections.defaultdict(list)

    def add_scores(self, scores):
        """Adds a sample for future aggregation.

        :param scores: A dict mapping score types to score tuples (`Score`, or any tuple of
            numbers).
        """
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self):
        """Aggregates the scores added so far.

        :returns: A dict mapping each score type to its `AggregateScore(low, mid, high)`, each a
            tuple of the class of the type's first score, holding numpy float64 values.
        """
        if self._seed is not None:
            return self._aggregate_seeded()
        result = {}
        for score_type, scores in self._scores.items():
            # Stack scores into a 2-d matrix of (sample, measure).
            score_matrix = _score_matrix(scores)
            # Percentiles are returned as (interval, measure).
            percentiles = self._bootstrap_resample(score_matrix)
            result[score_type] = self._intervals(scores, percentiles)
        return result

    @staticmethod
    def _intervals(scores, percentiles):
        low, mid, high = (scores[0].__class__(*percentiles[j, :]) for j in range(3))
        return AggregateScore(low=low, mid=mid, high=high)

    def _bootstrap_resample(self, matrix):
        """The (low, mid, high) x measure percentiles of the bootstrap sample means of a
        (document, measure) matrix, drawn from numpy's global random state."""
        sample_mean = legacy_sample_means(matrix, self._n_samples)
        return _percentiles(sample_mean, self._confidence_interval)

    def _aggregate_seeded(self):
        # types with as many documents share one draw of resampled documents
        groups = collections.defaultdict(list)
        for score_type, scores in self._scores.items():
            groups[len(scores)].append(score_type)
        means = {}
        for types in groups.values():
            matrices = [_score_matrix(self._scores[t]) for t in types]
            for t, m in zip(types, _kernel().seeded_means(matrices, self._n_samples,
                                                         self._seed)):
                means[t] = m
        return {t: self._intervals(scores,
                                   _percentiles(means[t], self._confidence_interval))
                for t, scores in self._scores.items()}
