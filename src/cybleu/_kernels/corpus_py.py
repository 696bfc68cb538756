"""Pure-Python twin of `corpus.pyx` (with the steps below it, `intern.pyx` and `ngrams.pyx`): lines
-> tokens -> n-gram Counters over tuples -> integer statistics per segment
[hyp_len, ref_len, correct_1..N, total_1..N], exactly as sacreBLEU 2.6.0 computes them. The readable
specification of the compiled path; same public names as `corpus.pyx`.
"""
from array import array
from collections import Counter

from .bleu_py import SMOOTH_MODES, bleu_scores_from_stats
from .tokenize_py import TOKENIZER_MODES

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "count_tokenized_periods"]

# the compiled core's bound on max_order (defs.pxd: CORE_MAX_ORDER), for memory safety; the API
# checks its own, tighter limit first
CORE_MAX_ORDER = 1 << 16


def count_tokenized_periods(lines, limit):
    """How many strs of `lines` end with " ." (sacreBLEU's sign of pre-tokenized input), counted
    up to `limit`; anything else is skipped."""
    count = 0
    for line in lines:
        if isinstance(line, str) and line.endswith(" ."):
            count += 1
            if count >= limit:
                break
    return count


def _ngrams(tokens, max_order):
    return Counter(tuple(tokens[i:i + n])
                   for n in range(1, max_order + 1)
                   for i in range(len(tokens) - n + 1))


def _closest_ref_len(hyp_len, ref_lens):
    """Closest reference length, ties to the shorter; -1 without references."""
    best = -1
    for ref_len in ref_lens:
        if (best == -1 or abs(hyp_len - ref_len) < abs(hyp_len - best)
                or (abs(hyp_len - ref_len) == abs(hyp_len - best) and ref_len < best)):
            best = ref_len
    return best


class RefSet:
    """References of a corpus, tokenized once; scores any number of hypothesis streams.

    refs: one sequence of reference strings per segment (None entries already removed).
    reuse: whether the set will be scored more than once (the compiled core then tables its
    reference n-grams on the first score); this twin keeps them from the start either way.
    """

    def __init__(self, refs, tokenize="13a", lowercase=False, max_order=4, reuse=False):
        if tokenize not in TOKENIZER_MODES:
            raise ValueError(f"the core has no tokenizer {tokenize!r}")
        if isinstance(max_order, bool) or not isinstance(max_order, int) \
                or not 1 <= max_order <= CORE_MAX_ORDER:
            raise ValueError(f"max_order must be an int in 1..{CORE_MAX_ORDER}, "
                             f"not {max_order!r}")
        self.tokenize = tokenize
        self.lowercase = lowercase
        self.max_order = max_order
        self.frozen = True      # whether the references' n-grams are tabled: here from the start
        self._segments = []
        for seg in refs:
            tokenized = [self._tokens(ref, i) for i, ref in enumerate(seg)]
            ngrams = Counter()
            for tokens in tokenized:
                ngrams |= _ngrams(tokens, max_order)   # | keeps the max count per n-gram
            self._segments.append((ngrams, [len(t) for t in tokenized]))

    def no_tables(self):
        """Never build n-gram tables (the compiled core's); this twin has its n-grams from the
        start either way."""

    def _tokens(self, line, index):
        if not isinstance(line, str):
            raise TypeError(f"line {index} is {type(line).__name__}, not str")
        if self.lowercase:
            line = line.lower()
        return TOKENIZER_MODES[self.tokenize](line.rstrip()).split()

    @property
    def num_segments(self):
        return len(self._segments)

    def segment_stats(self, hyps):
        """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
        if len(hyps) != len(self._segments):
            raise ValueError(f"{len(hyps)} hypotheses for {len(self._segments)} reference segments")
        return self._rows(hyps, 1)

    def _rows(self, hyps, k):
        rows = []
        for index, hyp in enumerate(hyps):
            ref_ngrams, ref_lens = self._segments[index // k]
            tokens = self._tokens(hyp, index)
            if not ref_lens and tokens:
                raise TypeError(f"BLEU: segment {index} has no reference (all None) "
                                "but a non-empty hypothesis")
            correct = [0] * self.max_order
            total = [0] * self.max_order
            for gram, count in _ngrams(tokens, self.max_order).items():
                total[len(gram) - 1] += count
                correct[len(gram) - 1] += min(count, ref_ngrams[gram])
            rows.append([len(tokens), _closest_ref_len(len(tokens), ref_lens)] + correct + total)
        return rows

    def segment_stats_flat(self, hyps):
        """segment_stats(hyps) as one flat int64 array (2 + 2 * max_order values per segment,
        in order), without a Python list per segment."""
        return array("q", [v for row in self.segment_stats(hyps) for v in row])

    def corpus_stats(self, hyps):
        """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus."""
        return [sum(col) for col in zip(*self.segment_stats(hyps))] or [0] * (2 + 2 * self.max_order)

    def sentence_scores(self, hyps, smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
        """Sentence BLEU of every hypothesis against its segment's references (array of doubles);
        n_threads is checked, and the same results come from one thread here."""
        _threads(n_threads)
        if smooth_method not in SMOOTH_MODES:
            raise ValueError(f"unknown smooth_method {smooth_method!r}")
        rows = self.segment_stats(hyps)
        return bleu_scores_from_stats([v for row in rows for v in row], self.max_order,
                                      smooth_method, smooth_value, effective_order)

    def grouped_sentence_scores(self, hyps, k, smooth_method="exp", smooth_value=None,
                                effective_order=True, n_threads=1):
        """Sentence BLEU of k candidates per segment (hyps[s*k:s*k+k] for segment s), flat, in
        order: sentence_scores of each candidate against its segment's references."""
        _threads(n_threads)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive int, not {k!r}")
        if len(hyps) != k * len(self._segments):
            raise ValueError(f"{len(hyps)} candidates for {len(self._segments)} reference "
                             f"segments of {k}")
        if smooth_method not in SMOOTH_MODES:
            raise ValueError(f"unknown smooth_method {smooth_method!r}")
        rows = self._rows(hyps, k)
        return bleu_scores_from_stats([v for row in rows for v in row], self.max_order,
                                      smooth_method, smooth_value, effective_order)


def _check_lengths(hyps, segments):
    if len(hyps) != len(segments):
        raise ValueError(f"{len(hyps)} hypotheses for {len(segments)} reference segments")


def corpus_stats(hyps, refs, tokenize="13a", lowercase=False, max_order=4):
    """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus; refs holds one sequence
    of reference strings per segment (None entries already removed)."""
    _check_lengths(hyps, refs)
    return RefSet(refs, tokenize, lowercase, max_order).corpus_stats(hyps)


def segment_stats(hyps, refs, tokenize="13a", lowercase=False, max_order=4):
    """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
    _check_lengths(hyps, refs)
    return RefSet(refs, tokenize, lowercase, max_order).segment_stats(hyps)


def _threads(n_threads):
    """n_threads checked (as cybleu.ids checks it)."""
    from .ragged import check_threads
    return check_threads(n_threads)


def sentence_scores(hyps, refs, tokenize="13a", lowercase=False, max_order=4,
                    smooth_method="exp", smooth_value=None, effective_order=True, n_threads=1):
    """Sentence BLEU of every hypothesis against its segment's references (array of doubles);
    the same for every n_threads."""
    _check_lengths(hyps, refs)
    _threads(n_threads)
    return RefSet(refs, tokenize, lowercase, max_order).sentence_scores(
        hyps, smooth_method, smooth_value, effective_order)
