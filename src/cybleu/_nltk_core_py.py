"""Pure-Python twin of `_nltk_core.pyx`, and the readable specification of the integer statistics
behind `cybleu.nltk` (nltk 3.10.4's `corpus_bleu` before any Fraction or float is made).

Same public names and signatures as the compiled module (a test compares them).
"""
from collections import Counter

__all__ = ["corpus_counts"]


def _ngram_counts(tokens, n):
    return Counter(zip(*[tokens[i:] for i in range(n)]))


def corpus_counts(list_of_references, hypotheses, max_order):
    """(hyp_lengths, ref_lengths, numerators, denominators) summed over the corpus as nltk's
    corpus_bleu sums them: per sentence and order n, the numerator is the clipped n-gram count
    (each hypothesis n-gram counted at most as often as in the reference holding most of it) and
    the denominator is max(1, number of hypothesis n-grams); the reference length is the closest
    one, ties to the shorter. Tokens are any hashable objects, compared as dict keys.

    A sentence without references raises what nltk raises: KeyError of the first hypothesis
    unigram, or (empty hypothesis) ValueError from min().
    """
    numerators = [0] * max_order
    denominators = [0] * max_order
    hyp_lengths = ref_lengths = 0
    for references, hypothesis in zip(list_of_references, hypotheses):
        hyp = tuple(hypothesis)
        refs = [tuple(r) for r in references]
        hyp_len = len(hyp)
        if not refs:
            if hyp_len and max_order:
                raise KeyError((hyp[0],))
            raise ValueError("min() arg is an empty sequence")
        for n in range(1, max_order + 1):
            counts = _ngram_counts(hyp, n)
            if counts:
                best = Counter()
                for ref in refs:
                    best |= _ngram_counts(ref, n)   # | keeps the larger count
                numerators[n - 1] += sum(min(c, best[g]) for g, c in counts.items())
            denominators[n - 1] += max(1, hyp_len - n + 1)
        hyp_lengths += hyp_len
        ref_lengths += min((len(r) for r in refs), key=lambda r: (abs(r - hyp_len), r))
    return hyp_lengths, ref_lengths, numerators, denominators
