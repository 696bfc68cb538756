"""Two metrics defined outside cybleu, as a user would write them against the metric protocol
(cybleu.metrics.Metric / SegmentMeanMetric), for tests/test_protocol.py and the report's browser
test. Nothing in cybleu names them: they are registered by the tests (or, for the command line
in a subprocess, through an entry point of a throwaway distribution).

- `Overlap` (segment means): per segment, the Jaccard overlap of the hypothesis's and the first
  reference's word sets, and the share of reference words covered; the corpus score is the mean
  of the Jaccard overlaps, in percent.
- `UnigramF` (corpus statistics): clipped unigram matches, hypothesis and reference words, summed
  over the corpus, then 100 * 2m / (h + r).
"""
from collections import Counter

from cybleu.metrics import Metric, SegmentMeanMetric
from cybleu.metrics.base import Score, Signature
from cybleu._statistics.columns import Column


class _PlainSignature(Signature):
    def __init__(self, args):
        super().__init__(args)
        self.info["kind"] = args.get("kind_name")
        self._abbr["kind"] = "k"


class Overlap(SegmentMeanMetric):
    """Word-set overlap with the first reference, averaged over segments (in percent)."""

    label = "Overlap"
    VALUES = ("jaccard", "coverage")
    _SIGNATURE_TYPE = _PlainSignature

    def __init__(self, lowercase=False, references=None):
        super().__init__()
        self.lowercase = lowercase
        self.kind_name = "overlap"
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _preprocess_segment(self, sent):
        return sent.lower() if self.lowercase else sent

    def _extract_reference_info(self, refs):
        return {"words": set(refs[0].split()) if refs else set()}

    def _compute_segment_statistics(self, hypothesis, ref_kwargs):
        hyp, ref = set(hypothesis.split()), ref_kwargs["words"]
        union = hyp | ref
        jaccard = len(hyp & ref) / len(union) if union else 1.0
        coverage = len(hyp & ref) / len(ref) if ref else 1.0
        return [100 * jaccard, 100 * coverage]

    def _score_from_means(self, means, n):
        score = Score("Overlap", means[0])
        score.coverage = means[1]
        return score


class UnigramF(Metric):
    """The F-measure of clipped unigram matches (integer statistics summed over the corpus)."""

    label = "UnigramF"
    _SIGNATURE_TYPE = _PlainSignature

    def __init__(self, references=None):
        super().__init__()
        self.kind_name = "unigram-f"
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def statistic_columns(self):
        return (Column("matches"), Column("hyp_words"), Column("ref_words"))

    def _preprocess_segment(self, sent):
        return sent

    def _extract_reference_info(self, refs):
        return {"counts": Counter(refs[0].split()) if refs else Counter()}

    def _compute_segment_statistics(self, hypothesis, ref_kwargs):
        hyp, ref = Counter(hypothesis.split()), ref_kwargs["counts"]
        matches = sum(min(c, ref[w]) for w, c in hyp.items())
        return [matches, sum(hyp.values()), sum(ref.values())]

    def _aggregate_and_compute(self, stats):
        return self._compute_score_from_stats([sum(col) for col in zip(*stats)])

    def _compute_score_from_stats(self, stats):
        m, h, r = stats
        return Score("UnigramF", 100 * 2 * m / (h + r) if h + r else 0.0)
