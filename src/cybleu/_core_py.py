"""Pure-Python twin of the compiled core, and the readable specification of what it computes.

Same public names and signatures as `_core.pyx` (a test compares them). Selected with
CYBLEU_IMPLEMENTATION=python, or automatically when the extension is not built.

The data's path: text -> tokens -> n-gram Counters -> integer statistics per segment
[hyp_len, ref_len, correct_1..N, total_1..N], exactly as sacreBLEU 2.6.0 computes them.
"""
import functools
import math
import re
from array import array
from collections import Counter

from ._math import bleu_from_stats
from ._unicode_tables import INTL_N, INTL_P, INTL_S, INTL_RUNS, ZH_RUNS

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "tokenize_13a",
           "tokenize", "bleu_scores_from_stats"]

_SMOOTHERS = ("none", "floor", "add-k", "exp")

# mteval-v13a's language-dependent rules, applied in this order as non-overlapping passes.
_RULES_13A = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(line):
    """sacrebleu's Tokenizer13a()(line): the tokens joined by single spaces."""
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, repl in _RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def _class_pattern(runs, cls):
    """A `re` character class of the code points the runs give class `cls`."""
    bounds = list(runs[0::2]) + [0x110000]
    parts = [f"{chr(bounds[k])}-{chr(bounds[k + 1] - 1)}" if bounds[k + 1] - bounds[k] > 1
             else chr(bounds[k])
             for k, c in enumerate(runs[1::2]) if c == cls]
    return "".join(re.escape(p) if len(p) == 1 else re.escape(p[0]) + "-" + re.escape(p[2])
                   for p in parts)


@functools.lru_cache(maxsize=None)
def _intl_rules():
    """sacrebleu's intl regexes, with the `regex` module's \\p{N}, \\p{P}, \\p{S} spelled out as
    `re` classes (compiled on first use)."""
    n, p, s = (_class_pattern(INTL_RUNS, c) for c in (INTL_N, INTL_P, INTL_S))
    return [
        (re.compile(f"([^{n}])([{p}])"), r"\1 \2 "),
        (re.compile(f"([{p}])([^{n}])"), r" \1 \2"),
        (re.compile(f"([{s}])"), r" \1 "),
    ]


@functools.lru_cache(maxsize=None)
def _zh_chars():
    return re.compile(f"([{_class_pattern(ZH_RUNS, 1)}])")


def tokenize_intl(line):
    """sacrebleu's TokenizerV14International()(line)."""
    for pattern, repl in _intl_rules():
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_zh(line):
    """sacrebleu's TokenizerZh()(line): strip, pad every 'Chinese' character (sacrebleu's range
    table as its string comparisons evaluate it), then 13a's rules without 13a's first part."""
    line = _zh_chars().sub(r" \1 ", line.strip())
    for pattern, repl in _RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_char(line):
    """sacrebleu's TokenizerChar()(line)."""
    return " ".join(" ".join(line).split())


_TOKENIZERS = {"none": lambda line: line, "13a": tokenize_13a, "intl": tokenize_intl,
               "zh": tokenize_zh, "char": tokenize_char}


def tokenize(line, tokenize="13a"):
    """sacrebleu's tokenizer `tokenize` (none, 13a, intl, zh, char) applied to line: the tokens
    joined by single spaces."""
    if tokenize not in _TOKENIZERS:
        raise ValueError(f"the core has no tokenizer {tokenize!r}")
    return " ".join(_TOKENIZERS[tokenize](line).split())


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
    """

    def __init__(self, refs, tokenize="13a", lowercase=False, max_order=4):
        if tokenize not in _TOKENIZERS:
            raise ValueError(f"the core has no tokenizer {tokenize!r}")
        if max_order < 1:
            raise ValueError("max_order must be at least 1")
        self.tokenize = tokenize
        self.lowercase = lowercase
        self.max_order = max_order
        self._segments = []
        for seg in refs:
            tokenized = [self._tokens(ref, i) for i, ref in enumerate(seg)]
            ngrams = Counter()
            for tokens in tokenized:
                ngrams |= _ngrams(tokens, max_order)   # | keeps the max count per n-gram
            self._segments.append((ngrams, [len(t) for t in tokenized]))

    def _tokens(self, line, index):
        if not isinstance(line, str):
            raise TypeError(f"line {index} is {type(line).__name__}, not str")
        if self.lowercase:
            line = line.lower()
        return _TOKENIZERS[self.tokenize](line.rstrip()).split()

    @property
    def num_segments(self):
        return len(self._segments)

    def segment_stats(self, hyps):
        """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
        if len(hyps) != len(self._segments):
            raise ValueError(f"{len(hyps)} hypotheses for {len(self._segments)} reference segments")
        rows = []
        for index, (hyp, (ref_ngrams, ref_lens)) in enumerate(zip(hyps, self._segments)):
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

    def corpus_stats(self, hyps):
        """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus."""
        return [sum(col) for col in zip(*self.segment_stats(hyps))] or [0] * (2 + 2 * self.max_order)

    def sentence_scores(self, hyps, smooth_method="exp", smooth_value=None, effective_order=True):
        """Sentence BLEU of every hypothesis against its segment's references (array of doubles)."""
        if smooth_method not in _SMOOTHERS:
            raise ValueError(f"unknown smooth_method {smooth_method!r}")
        rows = self.segment_stats(hyps)
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


def sentence_scores(hyps, refs, tokenize="13a", lowercase=False, max_order=4,
                    smooth_method="exp", smooth_value=None, effective_order=True):
    """Sentence BLEU of every hypothesis against its segment's references (array of doubles)."""
    _check_lengths(hyps, refs)
    return RefSet(refs, tokenize, lowercase, max_order).sentence_scores(
        hyps, smooth_method, smooth_value, effective_order)


def bleu_scores_from_stats(stats, max_order, smooth_method, smooth_value, effective_order):
    """Sentence BLEU of every row of `stats` (a flat int sequence of rows
    [hyp_len, ref_len, correct_1..N, total_1..N]), as BLEU.compute_bleu(...).score would give."""
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if smooth_method in ("floor", "add-k") and smooth_value is not None:
        if not (math.isfinite(smooth_value) and 0.0 < smooth_value <= 1e300):
            raise ValueError("smooth_value must be finite and in (0, 1e300] for batch scoring")
    width = 2 + 2 * max_order
    out = array("d")
    for i in range(0, len(stats) // width * width, width):
        row = [int(v) for v in stats[i:i + width]]
        out.append(bleu_from_stats(row[2:2 + max_order], row[2 + max_order:], row[0], row[1],
                                   smooth_method, smooth_value, effective_order, max_order)[0])
    return out
