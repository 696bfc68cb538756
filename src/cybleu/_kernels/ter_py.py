"""Pure-Python twin of `ter.pyx`, and the readable specification of what it computes: TER as
sacreBLEU 2.6.0 computes it (tercom's tokenizer, then the greedy shift search and the beam edit
distance of `sacrebleu/metrics/lib_ter.py`), number for number.

Same public names and signatures as the compiled module (a test compares them); selected with
CYBLEU_IMPLEMENTATION=python, or automatically when the extension is not built.

The data's path: line -> rstrip -> tercom tokenizer -> words -> per reference (number of edits,
reference length) -> per segment [fewest edits, average reference length] (sacreBLEU's
`TER._compute_segment_statistics`).

Two facts of sacreBLEU's pipeline that the numbers depend on:
- References go through the tokenizer twice (`Metric._cache_references` preprocesses each line and
  `TER._extract_reference_info` preprocesses it again); hypotheses once. With `normalized=True`
  the second pass can split further (`x's.` -> `x's .` -> `x 's .`), so a hypothesis identical to
  its reference need not score 0.
- The shift search stops after 1000 candidate shifts per (hypothesis, reference) pair, and the
  round of shifts in which that count is reached is discarded whole (its best shift is not applied).
"""
from __future__ import annotations

import math
import re
from array import array
from typing import Any, Dict, Hashable, List, Optional, Sequence, Tuple

__all__ = ["tokenize", "edit_stats", "edit_distance_trace", "RefSet", "segment_stats",
           "corpus_stats", "sentence_scores"]

# tercom's limits, as sacreBLEU sets them
MAX_SHIFT_SIZE = 10          # longest block of words a shift moves
MAX_SHIFT_DIST = 50          # farthest a block's start may be from the matching reference position
BEAM_WIDTH = 25              # columns computed on each side of the matrix's pseudo-diagonal
MAX_SHIFT_CANDIDATES = 1000  # candidate shifts tried per (hypothesis, reference) pair
INF = 10 ** 16               # an edit-distance cell outside the beam
MAX_WORDS = 1 << 28          # sentences must be shorter (the compiled kernel's cell type)

# edit operations of the trace, sacreBLEU's characters: rewriting the reference into the hypothesis
OP_NOP, OP_SUB, OP_INS, OP_DEL, OP_UNDEF = " ", "s", "i", "d", "x"


# ---------------------------------------------------------------------------------------------
# tercom's tokenizer (sacrebleu.tokenizers.tokenizer_ter.TercomTokenizer)

# ASCII punctuation that gets spaced out, and the space itself (harmless: runs of spaces collapse
# at the end). Not ' , - . (they have the context rules below).
_PUNCT = re.compile("([" + re.escape(" !\"#$%&()*+/:;<=>?@[\\]^_`{|}~") + "])")
_NOT_DIGIT_THEN_STOP = re.compile(r"([^0-9])([.,])")
_STOP_THEN_NOT_DIGIT = re.compile(r"([.,])([^0-9])")
_DIGIT_THEN_DASH = re.compile(r"([0-9])(-)")

# `asian_support` with `normalized`: every character of these ranges is spaced out (the union of
# sacreBLEU's CJK ranges, CJK punctuation and full-width punctuation). sacreBLEU's three kana rules
# are anchored at the start of the line, which always holds a space by then: they never fire.
_ASIAN_SPLIT = re.compile(
    "([\u2e80-\u2eff\u3001\u3002\u3008-\u3011\u3014-\u301f\u30fb\u31c0-\u31ef\u3200-\u4dbf"
    "\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff01\uff02\uff08\uff09\uff0c\uff0e\uff1a\uff1b"
    "\uff1f\uff61-\uff65])")
_PUNCT_REMOVED = re.compile(r"[.,?:;!\"()]")
_ASIAN_PUNCT_REMOVED = re.compile(
    "[\u3001\u3002\u3008-\u3011\u3014-\u301f\u30fb\uff61-\uff65"
    "\uff01\uff02\uff08\uff09\uff0c\uff0e\uff1a\uff1b\uff1f]")


def _normalize_western(line: str) -> str:
    """tercom's general and western normalization: each step a non-overlapping left-to-right pass
    over the previous step's output, so the order matters (`&amp;lt;` becomes `<`, `&amp;quot;`
    stays `&quot;`)."""
    line = line.replace("\n-", "").replace("\n", " ")
    line = line.replace("&quot;", '"').replace("&amp;", "&")
    line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = _PUNCT.sub(r" \1 ", f" {line} ")
    # possessives; sacreBLEU's second rule (`'s` at the very end) cannot fire: the line ends in
    # the padding space
    line = line.replace("'s ", " 's ")
    line = _NOT_DIGIT_THEN_STOP.sub(r"\1 \2 ", line)
    line = _STOP_THEN_NOT_DIGIT.sub(r" \1 \2", line)
    return _DIGIT_THEN_DASH.sub(r"\1 \2 ", line)


def tokenize(line: str, normalized: bool = False, no_punct: bool = False,
             asian_support: bool = False, case_sensitive: bool = False) -> str:
    """TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)(line): the words
    joined by single spaces."""
    if not isinstance(line, str):
        raise TypeError(f"TercomTokenizer: the line is {type(line).__name__}, not str")
    if not line:
        return ""
    if not case_sensitive:
        line = line.lower()
    if normalized:
        line = _normalize_western(line)
        if asian_support:
            line = _ASIAN_SPLIT.sub(r" \1 ", line)
    if no_punct:
        line = _PUNCT_REMOVED.sub("", line)
        if asian_support:
            line = _ASIAN_PUNCT_REMOVED.sub("", line)
    return " ".join(line.split())


def _words(line: str, flags: Tuple[bool, bool, bool, bool], passes: int) -> List[str]:
    """The words TER compares: `TER._preprocess_segment` (rstrip, tokenize) `passes` times."""
    for _ in range(passes):
        line = tokenize(line.rstrip(), *flags)
    return line.split()


# ---------------------------------------------------------------------------------------------
# the beam edit distance (lib_ter.BeamEditDistance)

def _beam(n: int, m: int) -> Tuple[List[int], List[int]]:
    """Columns lo[i] <= j < hi[i] of row i of the (n+1) x (m+1) matrix are computed; the others
    stay INF. The band follows the pseudo-diagonal j = i * m / n, widened when the lengths differ
    so much that consecutive rows would not overlap; the first and last rows are complete."""
    ratio = m / n if n else 1
    width = math.ceil(ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < ratio / 2 else BEAM_WIDTH
    lo, hi = [0], [m + 1]
    for i in range(1, n + 1):
        diag = math.floor(i * ratio)
        lo.append(max(0, diag - width))
        hi.append(m + 1 if i == n else min(m + 1, diag + width))
    return lo, hi


def _row(prev: List[int], word: Hashable, ref: Sequence[Hashable], lo: int, hi: int,
         ops: Optional[List[str]] = None) -> List[int]:
    """Row i from row i-1 (`prev`) and hypothesis word i-1. On equal costs the operation listed
    first wins: match/substitution, then deletion (of the hypothesis word), then insertion; a
    cell no finite neighbour reaches stays INF ('x')."""
    row = [INF] * len(prev)
    left = INF
    for j in range(lo, hi):
        if j == 0:
            cost, op = prev[0] + 1, OP_DEL
        else:
            if word == ref[j - 1]:
                cost, op = prev[j - 1], OP_NOP
            else:
                cost, op = prev[j - 1] + 1, OP_SUB
            if prev[j] + 1 < cost:
                cost, op = prev[j] + 1, OP_DEL
            if left + 1 < cost:
                cost, op = left + 1, OP_INS
            if cost >= INF:
                cost, op = INF, OP_UNDEF
        row[j] = left = cost
        if ops is not None:
            ops[j] = op
    return row


def _matrix(hyp: Sequence[Hashable], ref: Sequence[Hashable],
            beam: Tuple[List[int], List[int]]) -> Tuple[List[List[int]], List[List[str]]]:
    """Every row of the matrix and the operation that reached each cell."""
    lo, hi = beam
    m = len(ref)
    rows, ops = [list(range(m + 1))], [[OP_INS] * (m + 1)]
    for i, word in enumerate(hyp, 1):
        ops.append([OP_UNDEF] * (m + 1))
        rows.append(_row(rows[-1], word, ref, lo[i], hi[i], ops[-1]))
    return rows, ops


def _distance_from(hyp: Sequence[Hashable], ref: Sequence[Hashable],
                   beam: Tuple[List[int], List[int]], rows: List[List[int]], start: int) -> int:
    """The edit distance of `hyp`, whose first `start` words are those that gave `rows`: the rows
    up to `start` are the same, only the rest is computed (sacreBLEU's prefix cache does the
    same: a row depends on the words before it and, through the beam, on the length)."""
    lo, hi = beam
    row = rows[start]
    for i in range(start + 1, len(hyp) + 1):
        row = _row(row, hyp[i - 1], ref, lo[i], hi[i])
    return row[len(ref)]


def _trace(ops: List[List[str]], n: int, m: int) -> str:
    """The operations from cell (0, 0) to cell (n, m)."""
    trace = []
    i, j = n, m
    while i > 0 or j > 0:
        op = ops[i][j]
        trace.append(op)
        if op == OP_NOP or op == OP_SUB:
            i, j = i - 1, j - 1
        elif op == OP_INS:
            j -= 1
        elif op == OP_DEL:
            i -= 1
        else:
            raise RuntimeError(f"TER: unknown operation {op!r} in the edit-distance trace")
    return "".join(reversed(trace))


def _intern(words_hyp: Sequence[Hashable],
            words_ref: Sequence[Hashable]) -> Tuple[List[int], List[int]]:
    """The two word lists as IDs: reference words 0, 1, ... in order of appearance, hypothesis
    words theirs or -1 (equality as dict keys)."""
    ids: Dict[Hashable, int] = {}
    ref = [ids.setdefault(w, len(ids)) for w in words_ref]
    hyp = [ids.get(w, -1) for w in words_hyp]
    if len(hyp) >= MAX_WORDS or len(ref) >= MAX_WORDS:
        raise ValueError(f"TER: a sentence of more than {MAX_WORDS - 1} words")
    return hyp, ref


def edit_distance_trace(words_hyp: Sequence[Hashable],
                        words_ref: Sequence[Hashable]) -> Tuple[int, str]:
    """`lib_ter.BeamEditDistance(words_ref)(words_hyp)`: the beam edit distance and its trace
    (' ' match, 's' substitution, 'i' a reference word inserted, 'd' a hypothesis word deleted)."""
    hyp, ref = _intern(words_hyp, words_ref)
    rows, ops = _matrix(hyp, ref, _beam(len(hyp), len(ref)))
    return rows[-1][-1], _trace(ops, len(hyp), len(ref))


# ---------------------------------------------------------------------------------------------
# the shift search (lib_ter.translation_edit_rate and _shift)

def _alignment(trace: str, n: int, m: int) -> Tuple[List[int], List[int], List[int]]:
    """From the trace: align[r], the hypothesis position reference word r lines up with (-1 when
    none comes before it), and which reference and hypothesis words are not matches."""
    align, ref_err, hyp_err = [0] * m, [0] * m, [0] * n
    h = r = -1
    for op in trace:
        if op == OP_NOP or op == OP_SUB:
            h, r = h + 1, r + 1
            align[r] = h
            ref_err[r] = hyp_err[h] = int(op == OP_SUB)
        elif op == OP_DEL:      # a hypothesis word with no reference word
            h += 1
            hyp_err[h] = 1
        else:                   # a reference word with no hypothesis word
            r += 1
            align[r] = h
            ref_err[r] = 1
    return align, ref_err, hyp_err


def _candidates(hyp: Sequence[Hashable], ref: Sequence[Hashable], align: List[int],
                ref_err: List[int], hyp_err: List[int], limit: int) -> List[Tuple[int, int, int]]:
    """The candidate shifts (start, length, target) of one round, in sacreBLEU's order, stopping
    once there are `limit` of them.

    A block hyp[start:start+length] equal to ref[r:r+length] (start and r at most MAX_SHIFT_DIST
    apart, length up to MAX_SHIFT_SIZE) is a candidate if some of its words and some of the
    reference words are errors and r is not aligned inside the block; it may go before the
    hypothesis word aligned to each of r-1 .. r+length-1 (repeated targets in a row are skipped).
    """
    n, m = len(hyp), len(ref)
    out: List[Tuple[int, int, int]] = []
    for start in range(n):
        for r in range(max(0, start - MAX_SHIFT_DIST), min(m, start + MAX_SHIFT_DIST + 1)):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[start + length] == ref[r + length]:
                length += 1
                if (any(hyp_err[start:start + length]) and any(ref_err[r:r + length])
                        and not start <= align[r] < start + length):
                    last = -1
                    for k in range(r - 1, r + length):
                        target = 0 if k == -1 else align[k] + 1
                        if target != last:
                            last = target
                            out.append((start, length, target))
                if start + length == n or r + length == m:
                    break
            if len(out) >= limit:
                return out
    return out


def _shift(words: List[Any], start: int, length: int, target: int) -> List[Any]:
    """sacreBLEU's `_perform_shift`: the block words[start:start+length] moved before position
    `target`; a target inside the block, or just after it, moves the `target - start` words that
    follow the block in front of it (Python slices clip at the end)."""
    block = words[start:start + length]
    if target < start:
        return words[:target] + block + words[target:start] + words[start + length:]
    if target > start + length:
        return words[:start] + words[start + length:target] + block + words[target:]
    return words[:start] + words[start + length:length + target] + block + words[length + target:]


def _ter_pair(hyp: Sequence[Hashable], ref: Sequence[Hashable]) -> Tuple[int, int]:
    """`translation_edit_rate(hyp, ref)`: (edits, len(ref)).

    Each round takes the shift that lowers the edit distance most (ties: the longer block, then
    the earlier block, then the earlier target), and rounds go on while the best shift helps.
    sacreBLEU stops when 1000 candidates have been tried and throws away that round's result, so
    a round that would reach 1000 is not computed at all here: its outcome is known."""
    n, m = len(hyp), len(ref)
    if m == 0:
        return n, 0
    hyp = list(hyp)
    beam = _beam(n, m)
    shifts = checked = 0
    while True:
        rows, ops = _matrix(hyp, ref, beam)
        distance = rows[n][m]
        align, ref_err, hyp_err = _alignment(_trace(ops, n, m), n, m)
        candidates = _candidates(hyp, ref, align, ref_err, hyp_err,
                                 MAX_SHIFT_CANDIDATES - checked)
        checked += len(candidates)
        if checked >= MAX_SHIFT_CANDIDATES or not candidates:
            break
        best_key, best = None, hyp
        for start, length, target in candidates:
            moved = _shift(hyp, start, length, target)
            same = min(start, target)
            while same < n and moved[same] == hyp[same]:
                same += 1
            key = (distance - _distance_from(moved, ref, beam, rows, same), length, -start,
                   -target)
            if best_key is None or key > best_key:
                best_key, best = key, moved
        assert best_key is not None
        if best_key[0] <= 0:
            break
        shifts += 1
        hyp = best
    return shifts + distance, m


def edit_stats(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> Tuple[int, int]:
    """`lib_ter.translation_edit_rate(words_hyp, words_ref)`: (number of edits, reference
    length)."""
    return _ter_pair(*_intern(words_hyp, words_ref))


# ---------------------------------------------------------------------------------------------
# segments and corpora

def _flags(normalized: bool, no_punct: bool, asian_support: bool,
           case_sensitive: bool) -> Tuple[bool, bool, bool, bool]:
    return bool(normalized), bool(no_punct), bool(asian_support), bool(case_sensitive)


def _segment_row(hyp_words: List[str], refs_words: List[List[str]], index: int) -> List[Any]:
    """[fewest edits over the references, average reference length (a float)]."""
    if not refs_words:
        raise ValueError(f"TER: segment {index} has no reference (every reference is None)")
    best, total = None, 0
    for ref_words in refs_words:
        if len(hyp_words) >= MAX_WORDS or len(ref_words) >= MAX_WORDS:
            raise ValueError(f"TER: segment {index} has a sentence of more than {MAX_WORDS - 1} "
                             "words")
        edits, length = _ter_pair(hyp_words, ref_words)
        total += length
        if best is None or edits < best:
            best = edits
    return [best, total / len(refs_words)]


def _sum_rows(rows: List[List[Any]]) -> List[Any]:
    """sacreBLEU's `sum_of_lists`: one row is returned as is; otherwise the columns are added left
    to right from 0 (so the reference lengths are a plain float sum)."""
    if len(rows) == 1:
        return rows[0]
    edits, length = 0, 0
    for e, r in rows:
        edits += e
        length += r
    return [edits, length]


def _score(row: List[Any]) -> float:
    """`TER._compute_score_from_stats(row).score`."""
    edits, length = row
    score: float = edits / length if length > 0 else (1.0 if edits > 0 else 0.0)
    return 100 * score


def _check_lines(lines: Any, what: str) -> None:
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise TypeError(f"TER: {what} {i} is {type(line).__name__}, not str")


class RefSet:
    """The references of every segment, tokenized once (twice, as sacreBLEU does) for scoring
    many systems. `refs[s]` holds segment s's references (strings; drop None before)."""

    def __init__(self, refs: Sequence[Sequence[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> None:
        self.normalized, self.no_punct, self.asian_support, self.case_sensitive = _flags(
            normalized, no_punct, asian_support, case_sensitive)
        flags = self._flag_tuple()
        self._words: List[List[List[str]]] = []
        for s, seg in enumerate(refs):
            for k, ref in enumerate(seg):
                if not isinstance(ref, str):
                    raise TypeError(f"TER: reference {k} of segment {s} is "
                                    f"{type(ref).__name__}, not str")
            self._words.append([_words(ref, flags, 2) for ref in seg])

    def _flag_tuple(self) -> Tuple[bool, bool, bool, bool]:
        return self.normalized, self.no_punct, self.asian_support, self.case_sensitive

    @property
    def num_segments(self) -> int:
        return len(self._words)

    def ref_words(self, index: int) -> List[List[str]]:
        """Segment `index`'s references as TER compares them (lists of words)."""
        return [list(words) for words in self._words[index]]

    def _rows(self, hyps: Sequence[str]) -> List[List[Any]]:
        if len(hyps) != len(self._words):
            raise ValueError(f"TER: {len(hyps)} hypotheses but {len(self._words)} segments of "
                             "references")
        _check_lines(hyps, "hypothesis")
        flags = self._flag_tuple()
        return [_segment_row(_words(hyp, flags, 1), refs, i)
                for i, (hyp, refs) in enumerate(zip(hyps, self._words))]

    def segment_stats(self, hyps: Sequence[str]) -> List[List[Any]]:
        """[edits, average reference length] of every segment."""
        return self._rows(hyps)

    def corpus_stats(self, hyps: Sequence[str]) -> List[Any]:
        """The segments' statistics summed as sacreBLEU sums them."""
        return _sum_rows(self._rows(hyps))

    def sentence_scores(self, hyps: Sequence[str]) -> "array[float]":
        """Sentence TER (0-100) of every segment, as array('d')."""
        return array("d", [_score(row) for row in self._rows(hyps)])

    def __reduce__(self) -> Tuple[Any, ...]:
        words = [[" ".join(w) for w in seg] for seg in self._words]
        return _refset_from_words, (words,) + self._flag_tuple()


def _refset_from_words(words: List[List[str]], normalized: bool, no_punct: bool,
                       asian_support: bool, case_sensitive: bool) -> RefSet:
    """Unpickle a RefSet: its references are already tokenized, words joined by spaces."""
    refset = RefSet([], normalized, no_punct, asian_support, case_sensitive)
    refset._words = [[ref.split() for ref in seg] for seg in words]
    return refset


def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = False,
                  no_punct: bool = False, asian_support: bool = False,
                  case_sensitive: bool = False) -> List[List[Any]]:
    """[edits, average reference length] of every segment; refs[s] are segment s's references."""
    return RefSet(refs, normalized, no_punct, asian_support, case_sensitive).segment_stats(hyps)


def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> List[Any]:
    """The corpus's [edits, reference length], summed as sacreBLEU sums them."""
    return RefSet(refs, normalized, no_punct, asian_support, case_sensitive).corpus_stats(hyps)


def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = False,
                    no_punct: bool = False, asian_support: bool = False,
                    case_sensitive: bool = False) -> "array[float]":
    """Sentence TER (0-100) of every segment, as array('d')."""
    return RefSet(refs, normalized, no_punct, asian_support, case_sensitive).sentence_scores(hyps)
