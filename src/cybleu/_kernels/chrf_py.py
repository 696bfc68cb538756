"""Pure-Python twin of the compiled chrF kernel (`chrf.pyx`), and the readable specification of
what it computes.

Same public names and signatures as `chrf.pyx` (a test compares them). Selected with
CYBLEU_IMPLEMENTATION=python, or automatically when the extension is not built.

The data's path, as sacreBLEU 2.6.0's CHRF computes it:
  line -> (lowercase) -> character n-grams of orders 1..char_order of the line without its
  whitespace (str.split's; kept with whitespace=True), and for chrF++ word n-grams of orders
  1..word_order of the words with a leading or trailing ASCII punctuation mark split off
  -> per order [hyp n-grams, ref n-grams, matches] -> one flat integer list per segment, from the
  reference with the best chrF (the first on a tie) when there are several.
"""
from array import array
from collections import Counter
from typing import Any, List, Sequence

from .._scoring.chrf import f_score

__all__ = ["segment_stats", "corpus_stats", "sentence_scores", "pairwise_scores", "f_scores"]

# string.punctuation: what chrF++ splits off the edges of a word
_PUNCTS = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def _check_orders(char_order: int, word_order: int) -> None:
    if char_order < 0 or word_order < 0 or char_order + word_order < 1:
        raise ValueError("char_order and word_order must be >= 0 and not both 0")


def _words(line: str) -> List[str]:
    """chrF++'s words: whitespace-split, one ASCII punctuation mark split off the end of a word
    or, failing that, off its start ('(hi)' -> '(hi', ')')."""
    words = []
    for w in line.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in _PUNCTS:
            words += [w[:-1], w[-1]]
        elif w[0] in _PUNCTS:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def _check_lines(lines: Sequence[Any], what: str) -> None:
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"{what} {i} is {type(line).__name__}, not str")


def _check_segments(hyps: Sequence[Any], refs: Sequence[Sequence[Any]]) -> None:
    """Every line a str and every segment with a reference, checked before any counting (so both
    backends report the same first problem)."""
    if len(hyps) != len(refs):
        raise ValueError(f"{len(hyps)} hypotheses for {len(refs)} reference segments")
    _check_lines(hyps, "hypothesis")
    for i, seg in enumerate(refs):
        for line in seg:
            if not isinstance(line, str):
                raise TypeError(f"a reference of segment {i} is {type(line).__name__}, not str")
    for i, seg in enumerate(refs):
        if len(seg) == 0:
            raise ValueError(f"segment {i} has no reference (every reference is None)")


def _counts(line: str, char_order: int, word_order: int, whitespace: bool,
            lowercase: bool) -> List[Counter]:
    """One Counter per order: character orders 1..char_order, then word orders 1..word_order."""
    if lowercase:
        line = line.lower()
    chars = line if whitespace else "".join(line.split())
    out = [Counter(chars[i:i + n] for i in range(len(chars) - n + 1))
           for n in range(1, char_order + 1)]
    if word_order > 0:
        words = _words(line)
        out += [Counter(" ".join(words[i:i + n]) for i in range(len(words) - n + 1))
                for n in range(1, word_order + 1)]
    return out


def _match(hyp: List[Counter], ref: List[Counter]) -> List[int]:
    """[hyp n-grams (0 where the reference has none of that order), ref n-grams, matches] per
    order."""
    stats = []
    for h, r in zip(hyp, ref):
        matches = sum(min(count, r[gram]) for gram, count in h.items() if gram in r)
        stats += [sum(h.values()) if r else 0, sum(r.values()), matches]
    return stats


def _best(hyp: List[Counter], refs: List[List[Counter]], order: int, beta: Any,
          eps_smoothing: bool) -> List[int]:
    """The statistics against the reference with the highest chrF, the first of equals."""
    best, best_f = None, -1.0
    for ref in refs:
        stats = _match(hyp, ref)
        f = f_score(stats, order, beta, eps_smoothing)
        if f > best_f:
            best, best_f = stats, f
    return best  # type: ignore[return-value]


def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = 6,
                  word_order: int = 0, whitespace: bool = False, lowercase: bool = False,
                  beta: Any = 2, eps_smoothing: bool = False) -> List[List[int]]:
    """One flat [hyp, ref, match] * (char_order + word_order) list per segment; refs holds one
    sequence of reference strings per segment (None entries already removed). beta and
    eps_smoothing choose among several references."""
    _check_orders(char_order, word_order)
    _check_segments(hyps, refs)
    order = char_order + word_order
    rows = []
    for hyp, seg in zip(hyps, refs):
        ref_counts = [_counts(r, char_order, word_order, whitespace, lowercase) for r in seg]
        hyp_counts = _counts(hyp, char_order, word_order, whitespace, lowercase)
        rows.append(_best(hyp_counts, ref_counts, order, beta, eps_smoothing))
    return rows


def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = 6,
                 word_order: int = 0, whitespace: bool = False, lowercase: bool = False,
                 beta: Any = 2, eps_smoothing: bool = False) -> List[int]:
    """The segment statistics summed over the corpus."""
    rows = segment_stats(hyps, refs, char_order, word_order, whitespace, lowercase, beta,
                         eps_smoothing)
    return [sum(col) for col in zip(*rows)] or [0] * (3 * (char_order + word_order))


def f_scores(stats: Sequence[int], order: int, beta: Any = 2,
             eps_smoothing: bool = False) -> array:
    """chrF of every row of a flat sequence of integer statistics rows (3 * order each)."""
    if order < 1:
        raise ValueError("order must be at least 1")
    width = 3 * order
    return array("d", [f_score([int(v) for v in stats[i:i + width]], order, beta, eps_smoothing)
                       for i in range(0, len(stats) // width * width, width)])


def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = 6,
                    word_order: int = 0, whitespace: bool = False, lowercase: bool = False,
                    beta: Any = 2, eps_smoothing: bool = False) -> array:
    """Sentence chrF of every hypothesis against its segment's references (array of doubles)."""
    rows = segment_stats(hyps, refs, char_order, word_order, whitespace, lowercase, beta,
                         eps_smoothing)
    return array("d", [f_score(row, char_order + word_order, beta, eps_smoothing)
                       for row in rows])


def pairwise_scores(hyps: Sequence[str], refs: Sequence[str], char_order: int = 6,
                    word_order: int = 0, whitespace: bool = False, lowercase: bool = False,
                    beta: Any = 2, eps_smoothing: bool = False) -> array:
    """Sentence chrF of each hypothesis against each reference alone, row-major
    (len(hyps) * len(refs) doubles): element i * len(refs) + j is the chrF of hyps[i] against
    [refs[j]]."""
    _check_orders(char_order, word_order)
    _check_lines(hyps, "hypothesis")
    _check_lines(refs, "reference")
    order = char_order + word_order
    hyp_counts = [_counts(h, char_order, word_order, whitespace, lowercase) for h in hyps]
    ref_counts = [_counts(r, char_order, word_order, whitespace, lowercase) for r in refs]
    return array("d", [f_score(_match(h, r), order, beta, eps_smoothing)
                       for h in hyp_counts for r in ref_counts])
