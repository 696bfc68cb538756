"""Pure-Python twin of `nltk_counts.pyx`, and the readable specification of the integer statistics
behind `cybleu.nltk` (nltk 3.10.4's `corpus_bleu` before any Fraction or float is made).

Same public names and signatures as the compiled module (a test compares them).
"""
import math
from collections import Counter

from .._scoring.bleu import MAX_ORDER_LIMIT
from .._scoring.nltk import EMPTY_MIN_MESSAGE, NO_SMOOTHING, smoothed_precisions

__all__ = ["corpus_counts", "hf_counts", "sentence_score"]

#: math.exp overflows above ~709.78; beyond this the caller takes nltk's own path (which raises)
EXP_LIMIT = 709.0


def _ngram_counts(tokens, n):
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def corpus_counts(list_of_references, hypotheses, max_order):
    """(hyp_lengths, ref_lengths, numerators, denominators) summed over the corpus as nltk's
    corpus_bleu sums them: per sentence and order n, the numerator is the clipped n-gram count
    (each hypothesis n-gram counted at most as often as in the reference holding most of it) and
    the denominator is max(1, number of hypothesis n-grams); the reference length is the closest
    one, ties to the shorter. Tokens are any hashable objects, compared as dict keys.

    A sentence without references raises what nltk raises: KeyError of the first hypothesis
    unigram, or (empty hypothesis) min()'s ValueError.
    """
    return _sums(list_of_references, hypotheses, max_order, True)


def hf_counts(reference_corpus, translation_corpus, max_order):
    """(translation_length, reference_length, matches_by_order, possible_matches_by_order) as
    tensorflow/nmt's compute_bleu sums them: the shortest reference length, clipped matches,
    len - n + 1 possible matches when positive. Segments are paired with zip, as there; a
    segment without references raises min()'s ValueError, as there."""
    return _sums(reference_corpus, translation_corpus, max_order, False)


def _sums(list_of_references, hypotheses, max_order, nltk):
    if max_order > MAX_ORDER_LIMIT:
        raise ValueError(f"the n-gram order must be at most {MAX_ORDER_LIMIT}, got {max_order}")
    numerators = [0] * max_order
    denominators = [0] * max_order
    hyp_lengths = ref_lengths = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp = tuple(hypothesis)
        refs = [tuple(r) for r in references]
        hyp_len = len(hyp)
        if not refs:
            if nltk and hyp_len and max_order > 0:
                raise KeyError((hyp[0],))
            raise ValueError(EMPTY_MIN_MESSAGE)
        for n in range(1, max_order + 1):
            counts = _ngram_counts(hyp, n)
            if counts:
                best = Counter()
                for ref in refs:
                    best |= _ngram_counts(ref, n)   # | keeps the larger count
                numerators[n - 1] += sum(min(c, best[g]) for g, c in counts.items())
            denominators[n - 1] += max(1 if nltk else 0, hyp_len - n + 1)
        hyp_lengths += hyp_len
        if nltk:
            ref_lengths += min((len(r) for r in refs), key=lambda r: (abs(r - hyp_len), r))
        else:
            ref_lengths += min(len(r) for r in refs)
    return hyp_lengths, ref_lengths, numerators, denominators


def sentence_score(references, hypothesis, weights, mode, param, reweigh):
    """nltk's sentence_bleu(references, hypothesis, weights, SmoothingFunction(...).method<mode>)
    for a tuple of float weights and mode 0-4 (param: method1's epsilon or method4's k, a float).
    reweigh: auto_reweigh was asked for and weights are nltk's default (0.25,) * 4.

    Returns the float score; int 0 when no unigram matches; (score, mask) when method0 must warn
    (bit n-1 of mask: order n has no match); None when this path does not apply (no references,
    or a score math.exp would overflow) and the caller must take nltk's general path.
    """
    if not len(references):
        return None
    hyp_len, ref_len, nums, dens = corpus_counts([references], [hypothesis], len(weights))
    if nums[0] == 0:
        return 0
    p_n, zero_orders = smoothed_precisions(nums, dens, hyp_len, mode, param)
    if reweigh and hyp_len < 4:
        weights = (1 / hyp_len,) * hyp_len
    s = math.fsum(w_i * math.log(p_i) for w_i, p_i in zip(weights, p_n) if p_i > 0)
    if s > EXP_LIMIT:
        return None
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    score = bp * math.exp(s)
    if mode == NO_SMOOTHING and zero_orders:
        return score, sum(1 << (order - 1) for order in zero_orders)
    return score
