"""The replacements `cybleu.patch_rouge_score()` installs in the installed rouge_score: its
classes stay, and the hot steps are cybleu's, with rouge_score's own Score class and numbers.

- `RougeScorer.score` and `score_multi`: with rouge-score's default tokenizer (no stemmer, or
  nltk's PorterStemmer as rouge-score makes it) and str texts, the compiled kernel; rougeLsum's
  sentences with split_summaries from the same `nltk.sent_tokenize` rouge-score calls. Anything
  else (a tokenizer of the user's, bytes, a subclass that overrides score, a bad type) runs
  rouge-score's own method, so its errors and quirks stay.
- `BootstrapAggregator._bootstrap_resample` and `aggregate`: the compiled resampler on numpy's
  global stream, the draws and sums rouge-score makes (the score matrix read in one pass).
- `tokenize.tokenize`: the compiled tokenizer for the default stemmers, rouge-score's steps
  otherwise.
"""
import weakref

from .._backend import module
from . import rouge_scorer as ours
from . import scoring as our_scoring
from . import tokenize as our_tokenize

__all__ = ["replacements"]


def replacements():
    """[(owner, attribute, replacement)] for the installed rouge_score."""
    try:
        from rouge_score import rouge_scorer, scoring, tokenize
    except ImportError:
        raise ImportError("patch_rouge_score() needs rouge-score installed: "
                          "pip install rouge-score") from None
    kernel = module("rouge")
    original_score = rouge_scorer.RougeScorer.score
    original_multi = rouge_scorer.RougeScorer.score_multi
    plans = weakref.WeakKeyDictionary()

    def plan(scorer):
        """(the compiled scorer, whether rougeLsum is asked), or None for rouge-score's own
        code; kept per scorer while its types and tokenizer stay."""
        types = scorer.rouge_types
        types = tuple(types) if isinstance(types, (list, tuple)) else None
        tokenizer = getattr(scorer, "_tokenizer", None)
        stemmer = getattr(tokenizer, "_stemmer", None)
        try:
            held = plans.get(scorer)
        except TypeError:   # an unhashable subclass
            return None
        if held is not None and held[1] is tokenizer and held[2] is stemmer and held[0] == types:
            return held[3]
        compiled = None
        stem = ours._default_tokenizer(tokenizer)
        kinds = ours._kinds(types) if types is not None else None
        if stem is not None and isinstance(kinds, list):
            compiled = (kernel.Scorer(kinds, stem, scoring.Score),
                        any(kind == kernel.KIND_LSUM for _, kind, _ in kinds))
        plans[scorer] = (types, tokenizer, stemmer, compiled)
        return compiled

    def sentences(text):
        # rouge-score's get_sents with split_summaries, through its own module's nltk
        return [x for x in rouge_scorer.nltk.sent_tokenize(text) if len(x)]

    def score(self, target, prediction):
        compiled = plan(self)
        if compiled is None or not isinstance(target, str) or not isinstance(prediction, str):
            return original_score(self, target, prediction)
        scorer, lsum = compiled
        if getattr(self, "_split_summaries", False) and lsum:
            return scorer.score_sentences(target, prediction, sentences(target),
                                          sentences(prediction))
        return scorer.score(target, prediction)

    def score_multi(self, targets, prediction):
        compiled = plan(self)
        if (compiled is None or getattr(self, "_split_summaries", False)
                or type(self).score is not score or type(targets) not in (list, tuple)
                or not targets or not isinstance(prediction, str)
                or not all(isinstance(t, str) for t in targets)):
            return original_multi(self, targets, prediction)
        return compiled[0].score_multi(list(targets), prediction)

    def _bootstrap_resample(self, matrix):
        sample_mean = our_scoring.legacy_sample_means(matrix, self._n_samples)
        return our_scoring._percentiles(sample_mean, self._confidence_interval)

    original_aggregate = scoring.BootstrapAggregator.aggregate

    def aggregate(self):
        # rouge-score's aggregate, with the score matrix read in one pass (np.vstack of the
        # score tuples costs more than the resampling) when the resampling is ours
        if type(self)._bootstrap_resample is not _bootstrap_resample:
            return original_aggregate(self)
        result = {}
        for score_type, scores in self._scores.items():
            percentiles = self._bootstrap_resample(our_scoring._score_matrix(scores))
            intervals = tuple(scores[0].__class__(*percentiles[j, :]) for j in range(3))
            result[score_type] = scoring.AggregateScore(low=intervals[0], mid=intervals[1],
                                                        high=intervals[2])
        return result

    for new, old in ((score, original_score), (score_multi, original_multi),
                     (_bootstrap_resample, scoring.BootstrapAggregator._bootstrap_resample),
                     (aggregate, original_aggregate)):
        new.__doc__, new.__wrapped__ = old.__doc__, old
        new.__qualname__ = old.__qualname__
        new.__module__ = old.__module__
    return [(rouge_scorer.RougeScorer, "score", score),
            (rouge_scorer.RougeScorer, "score_multi", score_multi),
            (scoring.BootstrapAggregator, "_bootstrap_resample", _bootstrap_resample),
            (scoring.BootstrapAggregator, "aggregate", aggregate),
            (tokenize, "tokenize", our_tokenize.tokenize)]
