"""nltk 3.10.4's `nltk.translate.bleu_score`, same names, signatures and results, faster. Import it in place of nltk's module::

    from cybleu.nltk import corpus_bleu, sentence_bleu, SmoothingFunction

Results are equal to nltk's: floats bit for bit, `Fraction`s equal, the int 0 of the no-match
case, the warnings of method0 (UserWarning, same text), the list returned for a list of weight
vectors. The integer statistics come from the compiled core (`_nltk_core`, or its pure-Python twin
`nltk_counts_py`); for no smoothing and methods 1-4 the score is computed from them directly, the
same float operations in the same order as nltk. Custom smoothing functions and methods 5-7
receive the same `Fraction` list as in nltk and run nltk's arithmetic unchanged.

Tokens may be any hashable objects (strings, ints, ...); a hypothesis or reference is any sequence.
"""
import math
import sys
import warnings
from collections import Counter
from fractions import Fraction as _Fraction

from types import MethodType

from . import _backend
from ._scoring.bleu import MAX_ORDER_LIMIT
from ._scoring.nltk import ADD_ONE, EPSILON, LOG_LENGTH, NIST, NO_SMOOTHING, smoothed_precisions

_core = _backend.module("nltk_counts")

__all__ = ["Fraction", "SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu",
           "modified_precision", "sentence_bleu"]

_DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
# sentence_bleu's one-entry caches: the last weights tuple and smoothing function it was given
_last_weights = (_DEFAULT_WEIGHTS, _DEFAULT_WEIGHTS)
_last_smoothing = (None, NO_SMOOTHING)
_METHOD0_WARNING = ("\nThe hypothesis contains 0 counts of {}-gram overlaps.\n"
                    "Therefore the BLEU score evaluates to 0, independently of\n"
                    "how many N-gram overlaps of lower order it contains.\n"
                    "Consider using lower n-gram order or use SmoothingFunction()")


def _warn_zero_order(order):
    # one call site for both paths, so the warnings registry sees one location, as in nltk
    warnings.warn(_METHOD0_WARNING.format(order), stacklevel=1)  # nltk's stacklevel


class Fraction(_Fraction):
    """nltk's `Fraction`: keeps the numerator and denominator it was given (`_normalize=False`),
    as nltk's modified precisions need.

    Before Python 3.12 the unnormalized values are stored and used by the arithmetic (so e.g.
    `Fraction(0, 5, _normalize=False) == 0` is False there); from 3.12 on the value is normalized
    and only the `numerator`/`denominator` properties return the given values. Both as in nltk.
    It is cybleu's own class, not an instance of nltk's.

    :param numerator: The numerator.
    :param denominator: The denominator.

    >>> from cybleu.nltk import Fraction
    >>> f = Fraction(2, 4, _normalize=False)
    >>> f.numerator, f.denominator, float(f)
    (2, 4, 0.5)
    """

    def __new__(cls, numerator=0, denominator=None, _normalize=False):
        if sys.version_info >= (3, 12):
            self = super().__new__(cls, numerator, denominator)
        else:
            self = super().__new__(cls, numerator, denominator, _normalize=_normalize)
        self._normalize = _normalize
        self._original_numerator = numerator
        self._original_denominator = denominator
        return self

    @property
    def numerator(self):
        """The numerator as given (normalized when `_normalize=True`)."""
        if not self._normalize:
            return self._original_numerator
        return super().numerator

    @property
    def denominator(self):
        """The denominator as given (normalized when `_normalize=True`)."""
        if not self._normalize:
            return self._original_denominator
        return super().denominator


def _ngrams(sequence, n):
    return zip(*[tuple(sequence)[i:] for i in range(n)])


def modified_precision(references, hypothesis, n):
    """nltk's clipped n-gram precision of one hypothesis.

    :param references: The references (token lists).
    :param hypothesis: The hypothesis (a token list).
    :param n: The order.
    :returns: `Fraction(clipped matches, max(1, hypothesis n-grams), _normalize=False)`, as nltk
        returns it (its repr is normalized from Python 3.12 on; `numerator` and `denominator`
        stay the counts).

    >>> from cybleu.nltk import modified_precision
    >>> p = modified_precision([["the", "cat", "is", "on", "the", "mat"]],
    ...                        ["the", "the", "cat"], 1)
    >>> p.numerator, p.denominator, float(p)
    (3, 3, 1.0)
    """
    counts = Counter(_ngrams(hypothesis, n)) if len(hypothesis) >= n else Counter()
    max_counts = {}
    for reference in references:
        reference_counts = Counter(_ngrams(reference, n)) if len(reference) >= n else Counter()
        for ngram in counts:
            max_counts[ngram] = max(max_counts.get(ngram, 0), reference_counts[ngram])
    numerator = sum(min(count, max_counts[ngram]) for ngram, count in counts.items())
    denominator = max(1, sum(counts.values()))
    return Fraction(numerator, denominator, _normalize=False)


def closest_ref_length(references, hyp_len):
    """The reference length closest to `hyp_len`; a tie goes to the shorter.

    :param references: The references (sequences).
    :param hyp_len: The hypothesis length.
    :returns: The closest reference length.
    :raises ValueError: No reference.

    >>> from cybleu.nltk import closest_ref_length
    >>> closest_ref_length([[1, 2, 3, 4], [1, 2, 3, 4, 5, 6]], 5)
    4
    """
    return min((len(reference) for reference in references),
               key=lambda ref_len: (abs(ref_len - hyp_len), ref_len))


def brevity_penalty(closest_ref_len, hyp_len):
    """nltk's brevity penalty.

    :param closest_ref_len: The closest reference length r.
    :param hyp_len: The hypothesis length c.
    :returns: The int 1 if c > r, the int 0 if c == 0, else `exp(1 - r / c)`.

    >>> from cybleu.nltk import brevity_penalty
    >>> brevity_penalty(6, 7), brevity_penalty(6, 5)
    (1, 0.8187307530779819)
    """
    if hyp_len > closest_ref_len:
        return 1
    elif hyp_len == 0:
        return 0
    else:
        return math.exp(1 - closest_ref_len / hyp_len)


class SmoothingFunction:
    """Chen & Cherry (2014)'s smoothing techniques, as nltk's `SmoothingFunction` implements them
    (methods 3-7 modify the list they are given, as nltk's do). Pass a bound method as
    `smoothing_function`; methods 0-4 of this class run on the compiled path.

    :param epsilon: The numerator added to zero precisions by method1 (default 0.1).
    :param alpha: method6's prior weight (default 5).
    :param k: method4's constant (default 5).

    >>> from cybleu.nltk import SmoothingFunction, sentence_bleu
    >>> sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "x", "y"],
    ...               smoothing_function=SmoothingFunction().method1)
    0.16990442448471224
    """

    def __init__(self, epsilon=0.1, alpha=5, k=5):
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def method0(self, p_n, *args, **kwargs):
        """No smoothing: a zero precision warns (nltk's UserWarning) and becomes
        `sys.float_info.min`.

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :returns: The smoothed precisions.
        """
        p_n_new = []
        for i, p_i in enumerate(p_n):
            if p_i.numerator != 0:
                p_n_new.append(p_i)
            else:
                _warn_zero_order(i + 1)
                p_n_new.append(sys.float_info.min)
        return p_n_new

    def method1(self, p_n, *args, **kwargs):
        """Add epsilon to the numerator of zero precisions.

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :returns: The smoothed precisions.
        """
        return [(p_i.numerator + self.epsilon) / p_i.denominator if p_i.numerator == 0 else p_i
                for p_i in p_n]

    def method2(self, p_n, *args, **kwargs):
        """Add 1 to numerator and denominator of every order but the first (Lin & Och 2004).

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :returns: The smoothed precisions.
        """
        return [Fraction(p_n[i].numerator + 1, p_n[i].denominator + 1, _normalize=False)
                if i != 0 else p_n[0] for i in range(len(p_n))]

    def method3(self, p_n, *args, **kwargs):
        """NIST geometric sequence smoothing: the k-th zero precision becomes 1/(2^k * den).

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :returns: `p_n`, changed in place.
        """
        incvnt = 1
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0:
                p_n[i] = 1 / (2**incvnt * p_i.denominator)
                incvnt += 1
        return p_n

    def method4(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Zero precisions become 1/(2^k * K/ln(hyp_len)) / den, for hypotheses longer than 1.

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :param references: The segment's references (token lists).
        :param hypothesis: The hypothesis (a token list).
        :param hyp_len: The hypothesis length (default `len(hypothesis)`).
        :returns: `p_n`, changed in place.
        """
        incvnt = 1
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        for i, p_i in enumerate(p_n):
            if p_i.numerator == 0 and hyp_len > 1:
                numerator = 1 / (2**incvnt * self.k / math.log(hyp_len))
                p_n[i] = numerator / p_i.denominator
                incvnt += 1
        return p_n

    def method5(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Each precision becomes the mean of itself, the previous smoothed one and the next
        (the 5-gram precision of `hypothesis` after the last order).

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :param references: The segment's references (token lists).
        :param hypothesis: The hypothesis (a token list).
        :param hyp_len: The hypothesis length (default `len(hypothesis)`).
        :returns: `p_n`, changed in place.
        """
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        m = {}
        p_n_plus1 = p_n + [modified_precision(references, hypothesis, 5)]
        m[-1] = p_n[0] + 1
        for i, p_i in enumerate(p_n):
            p_n[i] = (m[i - 1] + p_i + p_n_plus1[i + 1]) / 3
            m[i] = p_n[i]
        return p_n

    def method6(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Interpolation with a geometric prior from the two previous orders (orders >= 3).

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :param references: The segment's references (token lists).
        :param hypothesis: The hypothesis (a token list).
        :param hyp_len: The hypothesis length (default `len(hypothesis)`).
        :returns: `p_n`, changed in place.
        :raises AssertionError: The bigram precision is zero (nltk's check).
        """
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        assert p_n[2], "This smoothing method requires non-zero precision for bigrams."
        for i, p_i in enumerate(p_n):
            if i in [0, 1]:
                continue
            else:
                pi0 = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
                m = p_i.numerator
                l = max(0, len(hypothesis) - i)  # noqa: E741 - the number of (i+1)-grams, nltk's name
                p_n[i] = (m + self.alpha * pi0) / (l + self.alpha)
        return p_n

    def method7(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """method4, then method5.

        :param p_n: The precisions of orders 1..N (nltk's `Fraction` objects).
        :param references: The segment's references (token lists).
        :param hypothesis: The hypothesis (a token list).
        :param hyp_len: The hypothesis length (default `len(hypothesis)`).
        :returns: The smoothed precisions.
        """
        hyp_len = hyp_len if hyp_len else len(hypothesis)
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        p_n = self.method5(p_n, references, hypothesis, hyp_len)
        return p_n


_MODES = {SmoothingFunction.method0: NO_SMOOTHING, SmoothingFunction.method1: EPSILON,
          SmoothingFunction.method2: ADD_ONE, SmoothingFunction.method3: NIST,
          SmoothingFunction.method4: LOG_LENGTH}


def _smoothing_mode(smoothing_function):
    """(mode, parameter) when smoothing_function is None or one of methods 0-4 of a (not
    subclassed) SmoothingFunction, which `_nltk_math` reproduces; None otherwise."""
    if smoothing_function is None:
        return NO_SMOOTHING, None
    if type(smoothing_function) is not MethodType or type(smoothing_function.__self__) is not SmoothingFunction:
        return None
    mode = _MODES.get(smoothing_function.__func__)
    if mode is None:
        return None
    owner = smoothing_function.__self__
    return mode, owner.epsilon if mode == EPSILON else owner.k if mode == LOG_LENGTH else None


def _c_parameter(mode, param):
    """The parameter as the double the compiled sentence path uses, or None when the C
    arithmetic could differ from Python's (huge ints, 0 or tiny k, non-finite values)."""
    if mode == EPSILON or mode == LOG_LENGTH:
        if type(param) is int and 0 < abs(param) < 2**40:
            return float(param)
        if type(param) is float and 1e-300 <= abs(param) <= 1e300:
            return param
        if mode == EPSILON and type(param) in (int, float) and param == 0:
            return 0.0
        return None
    return 0.0


def _c_weights(weights):
    """weights as a tuple of floats the compiled sentence path can take, or None."""
    if type(weights) is tuple or type(weights) is list:
        if 0 < len(weights) <= 64:
            for w in weights:
                if type(w) is not float or not abs(w) <= 1e300:
                    return None
            return tuple(weights)
    return None


def corpus_bleu(list_of_references, hypotheses, weights=_DEFAULT_WEIGHTS, smoothing_function=None,
                auto_reweigh=False):
    """Corpus BLEU as nltk 3.10.4's `corpus_bleu` computes it, the same float bit for bit: the
    clipped counts and denominators of every sentence are summed per order before the precisions
    (and the smoothing) are taken. Tokens are any hashable objects.

    :param list_of_references: Per hypothesis, a list of references (token lists).
    :param hypotheses: The hypotheses (token lists).
    :param weights: One weight vector (default 4 x 0.25), or a list of them.
    :param smoothing_function: None (no smoothing, with nltk's warnings), a `SmoothingFunction`
        method, or any callable with nltk's signature. Methods that look at the hypothesis
        (4-7) see the corpus's last sentence, as in nltk.
    :param auto_reweigh: Use uniform weights over the hypothesis length when it is below 4.
    :returns: The score (0-1), the int 0 when no unigram matches, or a list of scores for a list
        of weight vectors.
    :raises AssertionError: Different numbers of hypotheses and reference lists (even under
        `python -O`).
    :raises ValueError: A weight vector longer than 256.

    >>> from cybleu.nltk import corpus_bleu
    >>> refs = [["the", "cat", "is", "on", "the", "mat"], ["the", "cat", "sat", "on", "a", "mat"]]
    >>> hyp = ["the", "cat", "sat", "on", "the", "mat"]
    >>> corpus_bleu([refs], [hyp], weights=[(0.5, 0.5), (0.25, 0.25, 0.25, 0.25)])
    [1.0, 0.7071067811865475]
    """
    if len(list_of_references) != len(hypotheses):
        raise AssertionError("The number of hypotheses and their reference(s) should be the same ")
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    max_weight_length = max(len(weight) for weight in weights)
    if max_weight_length > MAX_ORDER_LIMIT:
        raise ValueError(f"cybleu.nltk counts n-grams up to order {MAX_ORDER_LIMIT}; a weight "
                         f"vector has {max_weight_length} weights")

    hyp_lengths, ref_lengths, nums, dens = _core.corpus_counts(list_of_references, hypotheses,
                                                               max_weight_length)
    bp = brevity_penalty(ref_lengths, hyp_lengths)
    if not len(hypotheses) and max_weight_length:
        Fraction(0, 0, _normalize=False)   # nltk's ZeroDivisionError('Fraction(0, 0)')
    if not max_weight_length or nums[0] == 0:
        return 0 if len(weights) == 1 else [0] * len(weights)

    plan = _smoothing_mode(smoothing_function)
    if plan is not None:
        p_n, zero_orders = smoothed_precisions(nums, dens, hyp_lengths, *plan)
        for order in zero_orders:
            _warn_zero_order(order)
    else:
        # nltk's smoothing sees the last sentence (its loop variables, leaked)
        references, hypothesis = list_of_references[-1], hypotheses[-1]
        p_n = [Fraction(num, den, _normalize=False) for num, den in zip(nums, dens)]
        p_n = smoothing_function(p_n, references=references, hypothesis=hypothesis,
                                 hyp_len=hyp_lengths)

    bleu_scores = []
    for weight in weights:
        if auto_reweigh:
            if hyp_lengths < 4 and weight == _DEFAULT_WEIGHTS:
                weight = (1 / hyp_lengths,) * hyp_lengths
        s = (w_i * math.log(p_i) for w_i, p_i in zip(weight, p_n) if p_i > 0)
        s = bp * math.exp(math.fsum(s))
        bleu_scores.append(s)
    return bleu_scores[0] if len(weights) == 1 else bleu_scores


def sentence_bleu(references, hypothesis, weights=_DEFAULT_WEIGHTS, smoothing_function=None,
                  auto_reweigh=False):
    """Sentence BLEU as nltk 3.10.4's `sentence_bleu` computes it (`corpus_bleu([references],
    [hypothesis])`), the same float bit for bit.

    Float weights with no smoothing or methods 1-4 take the compiled path (counting and float
    math in one call); everything else, and anything unusual, takes corpus_bleu's path.

    :param references: The references (token lists).
    :param hypothesis: The hypothesis (a token list).
    :param weights: One weight vector (default 4 x 0.25), or a list of them.
    :param smoothing_function: As :func:`corpus_bleu`.
    :param auto_reweigh: As :func:`corpus_bleu`.
    :returns: As :func:`corpus_bleu`.
    :raises ValueError: A weight vector longer than 256.

    >>> from cybleu.nltk import SmoothingFunction, sentence_bleu
    >>> refs = [["the", "cat", "is", "on", "the", "mat"], ["the", "cat", "sat", "on", "a", "mat"]]
    >>> sentence_bleu(refs, ["the", "cat", "sat", "on", "the", "mat"])
    0.7071067811865475
    >>> sentence_bleu(refs, ["the", "dog"], smoothing_function=SmoothingFunction().method1)
    0.020237345084409754
    """
    global _last_weights, _last_smoothing
    # each cache is one tuple, read and replaced whole, so concurrent calls cannot mix entries;
    # it keeps its key alive, so `is` cannot match a new object at a recycled address
    last = _last_weights
    if weights is last[0]:
        c_weights = last[1]
    else:
        c_weights = _c_weights(weights)
        if type(weights) is tuple:   # immutable: safe to remember
            _last_weights = (weights, c_weights)
    if c_weights is not None and type(auto_reweigh) is bool:
        last = _last_smoothing
        if smoothing_function is last[0]:
            mode = last[1]
        else:
            plan = _smoothing_mode(smoothing_function)
            mode = None if plan is None else plan[0]
            _last_smoothing = (smoothing_function, mode)
        if mode is not None:
            # the parameter is read on every call: a SmoothingFunction's attributes may change
            param = (0.0 if mode != EPSILON and mode != LOG_LENGTH else
                     _c_parameter(mode, smoothing_function.__self__.epsilon if mode == EPSILON
                                  else smoothing_function.__self__.k))
            if param is not None:
                result = _core.sentence_score(references, hypothesis, c_weights, mode, param,
                                              auto_reweigh and weights == _DEFAULT_WEIGHTS)
                if result is not None:
                    if type(result) is tuple:
                        result, zero_mask = result
                        for order in range(1, len(c_weights) + 1):
                            if zero_mask >> (order - 1) & 1:
                                _warn_zero_order(order)
                    return result
    return corpus_bleu([references], [hypothesis], weights, smoothing_function, auto_reweigh)
