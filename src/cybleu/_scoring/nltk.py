"""nltk 3.10.4's smoothing methods 0-4 and its score formula on the summed integer statistics,
without building Fractions: the one Python home of that float path (used by cybleu.nltk for
corpus_bleu, and by the pure-Python twin `nltk_counts_py.sentence_score`; `nltk_counts.pyx` does the
same operations in C).

Where nltk keeps a Fraction(num, den) the value here is num / den: float(Fraction(a, b)) and a / b
are both the correctly rounded quotient, and nltk only ever compares the Fraction with 0 and takes
math.log of it (which converts it to that float). Where nltk computes a float from the numerator
and denominator (methods 1, 3, 4) the same Python expression is evaluated here.
"""
import math
import sys

__all__ = ["NO_SMOOTHING", "EPSILON", "ADD_ONE", "NIST", "LOG_LENGTH", "smoothed_precisions",
           "EMPTY_MIN_MESSAGE"]

def _empty_min_message():
    try:
        min(())
    except ValueError as err:
        return str(err)


#: what min() of nothing says on the running interpreter (the wording changed in Python 3.12); nltk
#: and nmt raise it for a sentence without references
EMPTY_MIN_MESSAGE = _empty_min_message()

# mode numbers shared with nltk_counts.pyx: nltk's method0 .. method4
NO_SMOOTHING, EPSILON, ADD_ONE, NIST, LOG_LENGTH = range(5)


def smoothed_precisions(nums, dens, hyp_lengths, mode, param):
    """(precisions, zero_orders): the values nltk's method<mode> gives for Fraction(num, den)
    precisions, and the 1-based orders method0 warns about (empty for the other methods).
    param: epsilon for method1, k for method4, unused otherwise."""
    if mode == NO_SMOOTHING:
        zero = [i + 1 for i, num in enumerate(nums) if num == 0]
        return [num / den if num else sys.float_info.min for num, den in zip(nums, dens)], zero
    if mode == EPSILON:
        return [num / den if num else (num + param) / den for num, den in zip(nums, dens)], []
    if mode == ADD_ONE:
        return [nums[0] / dens[0]] + [(n + 1) / (d + 1) for n, d in zip(nums[1:], dens[1:])], []
    p_n, incvnt = [], 1
    for num, den in zip(nums, dens):
        if num or (mode == LOG_LENGTH and hyp_lengths <= 1):
            p_n.append(num / den)
        elif mode == NIST:
            p_n.append(1 / (2**incvnt * den))
            incvnt += 1
        else:
            p_n.append(1 / (2**incvnt * param / math.log(hyp_lengths)) / den)
            incvnt += 1
    return p_n, []
