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
           "tokenize", "bleu_scores_from_stats", "read_batch", "read_references",
           "ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]

_SMOOTHERS = ("none", "floor", "add-k", "exp")
# the compiled core's bound on max_order (_types.pxd: CORE_MAX_ORDER), for memory safety; the API
# checks its own, tighter limit first
CORE_MAX_ORDER = 1 << 16

# mteval-v13a's language-dependent rules, applied in this order as non-overlapping passes.
_RULES_13A = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(line):
    """sacrebleu's Tokenizer13a()(line): the tokens joined by single spaces."""
    if not isinstance(line, str):
        raise TypeError(f"the line to tokenize is {type(line).__name__}, not str")
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
    if not isinstance(line, str):
        raise TypeError(f"the line to tokenize is {type(line).__name__}, not str")
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
        if isinstance(max_order, bool) or not isinstance(max_order, int) \
                or not 1 <= max_order <= CORE_MAX_ORDER:
            raise ValueError(f"max_order must be an int in 1..{CORE_MAX_ORDER}, "
                             f"not {max_order!r}")
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


def _threads(n_threads):
    """n_threads checked (as cybleu.ids checks it)."""
    from ._ragged import check_threads
    return check_threads(n_threads)


def sentence_scores(hyps, refs, tokenize="13a", lowercase=False, max_order=4,
                    smooth_method="exp", smooth_value=None, effective_order=True, n_threads=1):
    """Sentence BLEU of every hypothesis against its segment's references (array of doubles);
    the same for every n_threads."""
    _check_lengths(hyps, refs)
    _threads(n_threads)
    return RefSet(refs, tokenize, lowercase, max_order).sentence_scores(
        hyps, smooth_method, smooth_value, effective_order)


def bleu_scores_from_stats(stats, max_order, smooth_method, smooth_value, effective_order):
    """Sentence BLEU of every row of `stats` (a flat int sequence of rows
    [hyp_len, ref_len, correct_1..N, total_1..N]), as BLEU.compute_bleu(...).score would give."""
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if smooth_method not in _SMOOTHERS:
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
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


def ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets,
                      max_order=4, n_threads=1):
    """Per-segment statistics of token-ID sequences: an int64 array of shape
    (n_segments, 2 + 2 * max_order), rows [hyp_len, ref_len, correct_1..N, total_1..N] as
    sacreBLEU computes them for the whitespace-joined IDs (ref_len: the closest reference length,
    ties to the shorter; -1 for a segment without references and an empty hypothesis).

    Hypothesis i is hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]]; reference r is
    ref_flat[ref_offsets[r]:ref_offsets[r + 1]]; segment i owns references
    seg_ref_offsets[i]..seg_ref_offsets[i + 1] - 1. IDs are exact uint32 values. The result is
    the same for every n_threads (the compiled core splits the segments across that many threads).
    """
    import numpy as np
    from ._ragged import check_layout, no_reference_error
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, n_threads = \
        check_layout(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order,
                     n_threads)
    ref_offsets = ref_offsets.tolist()
    nseg = hyp_offsets.size - 1
    out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
    for s in range(nseg):
        # converted a segment at a time: one tolist() of a whole batch would hold off Ctrl-C
        hyp = hyp_flat[hyp_offsets[s]:hyp_offsets[s + 1]].tolist()
        refs = [ref_flat[ref_offsets[r]:ref_offsets[r + 1]].tolist()
                for r in range(seg_ref_offsets[s], seg_ref_offsets[s + 1])]
        if hyp and not refs:
            raise no_reference_error(s)
        ref_ngrams = Counter()
        for ref in refs:
            ref_ngrams |= _ngrams(ref, max_order)
        correct = [0] * max_order
        total = [0] * max_order
        for gram, count in _ngrams(hyp, max_order).items():
            total[len(gram) - 1] += count
            correct[len(gram) - 1] += min(count, ref_ngrams[gram])
        out[s] = [len(hyp), _closest_ref_len(len(hyp), [len(r) for r in refs])] + correct + total
    return out


def read_batch(x, what, pad_id=None, eos_id=None):
    """(flat, offsets) of the batch `x`: `_idrows_py.read_batch` (imported on first use, as numpy
    is)."""
    from . import _idrows_py
    return _idrows_py.read_batch(x, what, pad_id, eos_id)


def read_references(refs, n_hyps, pad_id=None, eos_id=None):
    """(flat, offsets, groups) of the references of n_hyps hypotheses:
    `_idrows_py.read_references`."""
    from . import _idrows_py
    return _idrows_py.read_references(refs, n_hyps, pad_id, eos_id)


def ids_batch_stats(hyps, refs, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """Per-segment statistics (as ids_segment_stats gives them) of a batch in any form
    `cybleu.ids` takes: hypotheses as read_batch reads them, references as read_references does,
    pad_id/eos_id trimmed; the errors are theirs. Lists of rows are read by the threads that count
    them, a step at a time, so with several threads the reading is split too."""
    import numpy as np
    from ._math import check_max_order
    from ._ragged import check_threads, no_reference_error
    max_order = check_max_order(max_order)
    check_threads(n_threads)
    hyp_flat, hyp_offsets = read_batch(hyps, "hyps", pad_id, eos_id)
    ref_flat, ref_offsets, groups = read_references(refs, hyp_offsets.size - 1, pad_id, eos_id)
    missing = np.flatnonzero((np.diff(hyp_offsets) > 0) & (np.diff(groups) == 0))
    if missing.size:
        raise no_reference_error(int(missing[0]))
    return ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, max_order)


def _ids_layout(segments):
    """ids_segment_stats' arrays for [(hyp, [ref, ...]), ...] (lists of IDs)."""
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets = [], [0], [], [0], [0]
    for hyp, refs in segments:
        hyp_flat += hyp
        hyp_offsets.append(len(hyp_flat))
        for ref in refs:
            ref_flat += ref
            ref_offsets.append(len(ref_flat))
        seg_ref_offsets.append(len(ref_offsets) - 1)
    return hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets


def ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order=4,
                        smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
    """float64 array (n_hyps, n_refs): sentence BLEU of each hypothesis against each reference
    alone, equal to bleu_scores_from_stats of ids_segment_stats for that single pair. Every
    distinct n-gram of the batch is interned once; the references are split across n_threads."""
    import numpy as np
    from ._ragged import check_scoring, check_sentences
    check_scoring(max_order, smooth_method, smooth_value, n_threads)
    hyp_flat, hyp_offsets = check_sentences(hyp_flat, hyp_offsets, "hyp")
    ref_flat, ref_offsets = check_sentences(ref_flat, ref_offsets, "ref")
    hyps = [hyp_flat[a:b].tolist() for a, b in zip(hyp_offsets[:-1], hyp_offsets[1:])]
    refs = [ref_flat[a:b].tolist() for a, b in zip(ref_offsets[:-1], ref_offsets[1:])]
    if not hyps or not refs:
        return np.zeros((len(hyps), len(refs)), dtype=np.float64)
    rows = ids_segment_stats(*_ids_layout([(h, [r]) for h in hyps for r in refs]), max_order)
    scores = bleu_scores_from_stats(rows.reshape(-1), max_order, smooth_method, smooth_value,
                                    effective_order)
    return np.array(scores, dtype=np.float64).reshape(len(hyps), len(refs))


def ids_self_stats(flat, offsets, max_order=4, n_threads=1):
    """int64 array (n, 2 + 2 * max_order): the statistics of each sentence against all the
    others pooled as its references (as ids_segment_stats with every other sentence listed as a
    reference). The maximum count of an n-gram over the others comes from its two largest
    counts and the owner of the largest; the closest length from the sorted lengths."""
    from ._ragged import check_scoring, check_sentences
    check_scoring(max_order, "none", None, n_threads)
    flat, offsets = check_sentences(flat, offsets, "")
    sents = [flat[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]
    return ids_segment_stats(*_ids_layout([(s, sents[:i] + sents[i + 1:])
                                           for i, s in enumerate(sents)]), max_order)
