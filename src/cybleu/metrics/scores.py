"""Per-segment scores computed elsewhere (COMET, MetricX, BLEURT, human judgements) as a metric of
the segment-mean kind: the corpus score is their mean, and significance tests, intervals and the
report treat them as any metric.

    from cybleu.metrics import ExternalScores
    from cybleu.significance import paired_bootstrap
    comet = ExternalScores("COMET")
    comet.corpus_score(scores_b).score                     # the mean, math.fsum(scores) / n
    paired_bootstrap(comet, scores_a, [scores_b])          # sacreBLEU's resamples, exact means

A system's input is its list of scores (one finite number per segment) where other metrics take
hypotheses; no references are needed.
"""
import math
import numbers

from .base import Score, SegmentMeanMetric, Signature

__all__ = ["ExternalScores", "ExternalScoresSignature", "parse_name", "check_scores"]


def parse_name(text):
    """`NAME` or `NAME:lower` (or `NAME:higher`) -> (name, higher_is_better).

    :raises ValueError: An empty name, or a direction other than lower/higher.

    >>> from cybleu.metrics.scores import parse_name
    >>> parse_name("COMET"), parse_name("MetricX:lower")
    (('COMET', True), ('MetricX', False))
    """
    text = str(text)
    name, sep, direction = text.rpartition(":")
    if not sep:
        name, direction = text, ""
    name = name.strip()
    if not name:
        raise ValueError(f"scores need a name (NAME or NAME:lower), not {text!r}")
    if direction not in ("", "lower", "higher"):
        raise ValueError(f"{text!r}: the direction after ':' is 'lower' (lower is better) or "
                         f"'higher', not {direction!r}")
    return name, direction != "lower"


def check_scores(values, where):
    """The values as a list of floats, or an error naming the first bad one: not a number (a
    bool is not one), NaN, or infinite. `where` names them in the message (e.g. "COMET of
    system 'b'"); positions are counted from 1.

    :raises TypeError: A sequence that is not one, a value that is not a number.
    :raises ValueError: A NaN or infinite value.
    """
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"{where}: the scores are one number per segment (a list or an array), "
                        f"not {type(values).__name__}")
    out = []
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{where}: score {i + 1} is {type(value).__name__} {value!r}, "
                            "not a number")
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{where}: score {i + 1} is {value}: every score must be a finite "
                             "number")
        out.append(value)
    return out


class ExternalScoresSignature(Signature):
    """The signature of external scores: their name (`scores:COMET`), the direction when lower
    is better, and the significance test's settings.

    :param args: The metric's attributes (`metric.__dict__`).
    """

    def __init__(self, args):
        super().__init__(dict(args, num_refs=None))
        self._abbr.update({"scores": "sc", "lower": "lo"})
        self.info.update({"scores": args["name"], "lower": None if args["higher_is_better"]
                          else True})


class ExternalScores(SegmentMeanMetric):
    """Scores of each segment computed elsewhere, as a metric: a system's "hypotheses" are its
    scores (one finite number per segment), the corpus score is their mean
    (`math.fsum(scores) / n`, the same float in any order), and the paired tests resample them
    exactly (each resample's mean from the exact sum of its scores).

    :param name: The scores' name (shown in reports and tables).
    :param higher_is_better: False for an error or distance (MetricX).

    >>> from cybleu.metrics import ExternalScores
    >>> comet = ExternalScores("COMET")
    >>> print(comet.corpus_score([0.5, 0.75, 1.0]))
    COMET = 0.75
    >>> comet.sentence_scores([0.5, 0.75]).tolist()
    [0.5, 0.75]
    """

    inputs = "scores"
    _SIGNATURE_TYPE = ExternalScoresSignature

    def __init__(self, name="score", higher_is_better=True):
        super().__init__()
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"ExternalScores: a name is a non-empty str, not {name!r}")
        if not isinstance(higher_is_better, bool):
            raise TypeError("ExternalScores: higher_is_better is True or False")
        self.name = name
        self.label = name
        self.higher_is_better = higher_is_better

    @classmethod
    def from_name(cls, text):
        """ExternalScores of `NAME` or `NAME:lower`.

        :param text: The name, with `:lower` when lower scores are better.
        :returns: An ExternalScores.
        :raises ValueError: An empty name or another direction.
        """
        name, higher = parse_name(text)
        return cls(name, higher)

    def __repr__(self):
        lower = "" if self.higher_is_better else ", higher_is_better=False"
        return f"ExternalScores({self.name!r}{lower})"

    # the pipeline's hooks: a segment's value is the score given for it
    def _preprocess_segment(self, sent):
        return sent

    def _extract_reference_info(self, refs):
        return {}

    def _compute_segment_statistics(self, hypothesis, ref_kwargs):
        return [hypothesis]

    def _check_corpus_score_args(self, hypotheses, refs):
        check_scores(hypotheses, self.name)
        if len(hypotheses) == 0:
            raise ValueError(f"{self.name}: no scores: the corpus is empty.")

    def _segment_values(self, hypotheses, references=None):
        return [[v] for v in check_scores(hypotheses, self.name)]

    def _score_from_means(self, means, n):
        return Score(self.name, means[0])

    def corpus_score(self, hypotheses, references=None, n_bootstrap=1):
        """The mean of the scores.

        :param hypotheses: The system's scores, one per segment.
        :param references: Ignored (scores need none).
        :param n_bootstrap: If > 1, adds a 95% confidence interval from this many bootstrap
            resamples (sacreBLEU's seed and draws; exact means).
        :returns: A `Score` named after the scores.
        :raises TypeError: A value that is not a number.
        :raises ValueError: No scores, a NaN or infinite one.
        """
        self._check_corpus_score_args(hypotheses, None)
        return super().corpus_score(hypotheses, None, n_bootstrap)

    def sentence_score(self, hypothesis, references=None):
        """A segment's score as a Score.

        :param hypothesis: The segment's score.
        :param references: Ignored.
        :returns: A `Score`.
        """
        return self.corpus_score([hypothesis])

    def sentence_scores(self, hypotheses, references=None):
        """The scores themselves, as a float64 numpy array (after the checks).

        :param hypotheses: The system's scores, one per segment.
        :param references: Ignored.
        :returns: A float64 numpy array.
        :raises TypeError: A value that is not a number.
        :raises ValueError: A NaN or infinite value.
        """
        import numpy as np
        return np.array(check_scores(hypotheses, self.name), dtype=np.float64)

    def _references_for(self, hypotheses, references):
        return [{}] * len(hypotheses)
