"""Pure-Python twin of `rouge.pyx`: ROUGE's statistics the way rouge-score 0.1.2 computes them,
written plainly (regular expressions, Counters of tuples, the full LCS table), and the readable
specification of the compiled kernel. Same public names and signatures as `rouge.pyx`.

A ROUGE type reduces a (target, prediction) pair to three integers, (hits, prediction total,
target total) (see `cybleu._scoring.rouge`):
- rougeN: the n-grams the two share (each counted as often as the side with fewer has it), the
  prediction's n-grams, the target's n-grams;
- rougeL: the length of a longest common subsequence (LCS) of the token lists, their lengths;
- rougeLsum: the texts split into sentences; for each target sentence, the union of its LCS with
  every prediction sentence (which LCS: the backtrack of `lcs_indices`, whose ties move up),
  each token counted while both sides still have an unused copy of it; the token totals.

The default tokenizer is rouge-score's: lowercase, every run of characters outside [a-z0-9] is a
separator, tokens longer than 3 characters stemmed with nltk's Porter stemmer when asked. Text
outside ASCII therefore disappears, except the two characters whose lowercase holds an ASCII
letter: U+0130 (i and a combining dot, a separator) and U+212A, the Kelvin sign (k).
"""
import collections
import re
from array import array

from .._scoring.rouge import prf
from .porter_py import stem as porter_stem

__all__ = ["KIND_NGRAM", "KIND_L", "KIND_LSUM", "tokenize", "ngram_stats", "lcs_stats",
           "lcs_indices", "summary_lcs_stats", "Scorer"]

KIND_NGRAM = 0
KIND_L = 1
KIND_LSUM = 2

_SEPARATORS = re.compile(r"[^a-z0-9]+")


def _check_text(text, what):
    if not isinstance(text, str):
        raise TypeError(f"the {what} is {type(text).__name__}, not str")


def tokenize(text, stem):
    """rouge-score's `tokenize.tokenize(text, stemmer)` with its default stemmer (nltk's Porter,
    tokens longer than 3 characters) when `stem`, else none."""
    _check_text(text, "text")
    tokens = _SEPARATORS.sub(" ", text.lower()).split()
    if stem:
        tokens = [porter_stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in tokens if t]


def _check_n(n):
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 9:
        raise ValueError(f"n must be an int from 1 to 9, not {n!r}")


def ngram_stats(target, prediction, n):
    """(shared n-grams, prediction n-grams, target n-grams) of two token sequences."""
    _check_n(n)

    def grams(tokens):
        return collections.Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))
    t, p = grams(target), grams(prediction)
    return sum(min(c, p[g]) for g, c in t.items()), sum(p.values()), sum(t.values())


def _lcs_table(ref, can):
    table = [[0] * (len(can) + 1) for _ in range(len(ref) + 1)]
    for i in range(1, len(ref) + 1):
        for j in range(1, len(can) + 1):
            if ref[i - 1] == can[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table


def lcs_stats(target, prediction):
    """(LCS length, prediction length, target length) of two token sequences."""
    if not target or not prediction:
        return 0, len(prediction), len(target)
    return _lcs_table(target, prediction)[-1][-1], len(prediction), len(target)


def lcs_indices(ref, can):
    """The positions in `ref` of the LCS rouge-score's backtrack reads out: from the end, a
    match is taken, else the step goes left when that keeps a longer LCS, else up."""
    table = _lcs_table(ref, can)
    i, j, out = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return out[::-1]


def summary_lcs_stats(ref_sentences, can_sentences):
    """(hits, prediction tokens, target tokens) of summary-level LCS over sentence token lists."""
    m = sum(map(len, ref_sentences))
    n = sum(map(len, can_sentences))
    if not m or not n:
        return 0, n, m
    left_r = collections.Counter(t for s in ref_sentences for t in s)
    left_c = collections.Counter(t for s in can_sentences for t in s)
    hits = 0
    for ref in ref_sentences:
        union = sorted(set().union(*(lcs_indices(ref, can) for can in can_sentences)))
        for token in (ref[i] for i in union):
            if left_c[token] > 0 and left_r[token] > 0:
                hits += 1
                left_c[token] -= 1
                left_r[token] -= 1
    return hits, n, m


def _lines(text):
    return [line for line in text.split("\n") if line]


def _check_kinds(kinds):
    out = []
    for key, kind, n in kinds:
        if kind not in (KIND_NGRAM, KIND_L, KIND_LSUM) or (kind == KIND_NGRAM and not 1 <= n <= 9):
            raise ValueError(f"bad ROUGE type spec {(key, kind, n)!r}")
        out.append((key, kind, n))
    return out


class Scorer:
    """Scores pairs for a list of ROUGE types `kinds`, each `(key, kind, n)`: the key of the
    result dict, KIND_NGRAM (with its n, 1-9), KIND_L or KIND_LSUM. `stem`: the default
    tokenizer's Porter stemmer; `score_class(precision, recall, fmeasure)` makes each value."""

    def __init__(self, kinds, stem, score_class):
        self.kinds = _check_kinds(kinds)
        self.stem = bool(stem)
        self.score_class = score_class

    def tokenize(self, text):
        """The default tokenizer's tokens of one text."""
        return tokenize(text, self.stem)

    def stats(self, target, prediction):
        """Per type, [hits, prediction total, target total] of one pair of texts (the default
        tokenizer; rougeLsum's sentences are the lines)."""
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        return self._stats(self.tokenize(target), self.tokenize(prediction),
                           [self.tokenize(s) for s in _lines(target)],
                           [self.tokenize(s) for s in _lines(prediction)])

    def _stats(self, target, prediction, target_sentences, prediction_sentences):
        rows = []
        for _, kind, n in self.kinds:
            if kind == KIND_NGRAM:
                rows.append(ngram_stats(target, prediction, n))
            elif kind == KIND_L:
                rows.append(lcs_stats(target, prediction))
            else:
                rows.append(summary_lcs_stats(target_sentences, prediction_sentences))
        return [list(row) for row in rows]

    def _result(self, rows):
        make = self.score_class
        return {key: make(*prf(kind != KIND_NGRAM, *row))
                for (key, kind, _), row in zip(self.kinds, rows)}

    def score(self, target, prediction):
        """{key: score_class(P, R, F)} of one pair of texts."""
        return self._result(self.stats(target, prediction))

    def score_multi(self, targets, prediction):
        """Per type, the score against the target with the highest F (the first of equals)."""
        scores = [self.score(t, prediction) for t in targets]
        if not scores:
            if self.kinds:
                raise ValueError("score_multi needs at least one target")
            return {}
        best = {}
        for key, _, _ in self.kinds:
            chosen = scores[0][key]
            for s in scores[1:]:
                if s[key].fmeasure > chosen.fmeasure:
                    chosen = s[key]
            best[key] = chosen
        return best

    def score_tokens(self, target, prediction, target_sentences, prediction_sentences):
        """{key: score_class(P, R, F)} of token sequences already made (a tokenizer of the
        user's, or nltk's sentences): any hashable tokens, compared by equality. The sentences
        are lists of token sequences (None where no rougeLsum is asked)."""
        return self._result(self._stats(target, prediction, target_sentences,
                                        prediction_sentences))

    def score_sentences(self, target, prediction, target_sentences, prediction_sentences):
        """score() with rougeLsum's sentences given as strings (nltk's sentence splitter)."""
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        for s in list(target_sentences) + list(prediction_sentences):
            _check_text(s, "sentence")
        return self._result(self._stats(
            self.tokenize(target), self.tokenize(prediction),
            [self.tokenize(s) for s in target_sentences if s],
            [self.tokenize(s) for s in prediction_sentences if s]))

    def ids_batch(self, hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, n_threads=1):
        """P, R, F of token-ID rows, as batch() gives them for texts: hypothesis i is
        hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]], its references the ref rows
        groups[i]..groups[i + 1] - 1 (the best F per type among several). The IDs are the
        tokens; rougeLsum needs sentences, which IDs do not have."""
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, not {n_threads}")
        if any(kind == KIND_LSUM for _, kind, _ in self.kinds):
            raise ValueError("rougeLsum needs sentences, which token IDs do not mark: use "
                             "rougeL")
        out = array("d")
        for i in range(len(hyp_offsets) - 1):
            hyp = [int(t) for t in hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]]]
            if groups[i + 1] <= groups[i]:
                raise ValueError(f"hypothesis {i} has no reference")
            best = None
            for r in range(groups[i], groups[i + 1]):
                ref = [int(t) for t in ref_flat[ref_offsets[r]:ref_offsets[r + 1]]]
                got = [prf(kind != KIND_NGRAM, *row)
                       for (_, kind, _), row in zip(self.kinds, self._stats(ref, hyp, None, None))]
                best = got if best is None else [b if not g[2] > b[2] else g
                                                 for b, g in zip(best, got)]
            for values in best:
                out.extend(float(v) for v in values)
        return out

    def batch(self, predictions, references, n_threads=1):
        """P, R, F of every pair, as an array('d') of len(predictions) rows of 3 values per type
        (in the order of `kinds`). references[i] is a str, or a non-empty list of str scored as
        score_multi does. `n_threads` shares the pairs out (the values do not depend on it)."""
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, not {n_threads}")
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
        out = array("d")
        for i, (prediction, refs) in enumerate(zip(predictions, references)):
            _check_text(prediction, f"prediction {i}")
            if isinstance(refs, str):
                result = self.score(refs, prediction)
            else:
                if not refs:
                    raise ValueError(f"prediction {i} has no reference")
                for r in refs:
                    _check_text(r, f"reference of prediction {i}")
                result = self.score_multi(refs, prediction)
            for key, _, _ in self.kinds:
                out.extend(float(v) for v in result[key])
        return out
