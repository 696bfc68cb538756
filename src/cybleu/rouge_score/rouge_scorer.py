"""rouge-score's `rouge_scorer`: `RougeScorer(rouge_types, use_stemmer, split_summaries,
tokenizer)` with `score(target, prediction)` and `score_multi(targets, prediction)`, computed on
cybleu's compiled core with rouge-score 0.1.2's numbers, bit for bit.

The types: `rouge1` ... `rouge9` (n-gram overlap), `rougeL` (longest common subsequence of the
token lists) and `rougeLsum` (summary-level LCS over sentences: the lines of the text, or nltk's
sentences with `split_summaries=True`). Each value is a `scoring.Score(precision, recall,
fmeasure)`. An invalid type raises ValueError when scoring, as in rouge-score.

A `tokenizer=` object of your own is called exactly as rouge-score calls it (`tokenize(text)` on
the whole texts, then on each rougeLsum sentence); its tokens may be any hashable objects, and
are compared by equality. The helpers rouge-score's tests use (`_lcs_table`, `_backtrack_norec`,
`lcs_ind`, `_union_lcs`, `_find_union`, `_summary_level_lcs`, `_score_lcs`, `_score_ngrams`,
`_create_ngrams`) are here too, with rouge-score's behaviour.
"""
import collections
import re

from .._backend import module
from .._scoring.rouge import prf
from . import scoring, tokenizers
from .tokenize import _ensure_str

__all__ = ["RougeScorer", "lcs_ind"]

_kernel = module("rouge")
_ROUGE_N = re.compile(r"rouge[0-9]$")


def _kinds(rouge_types):
    """[(type, kind, n)] of the types, or the ValueError rouge-score raises for the first bad
    one (when scoring)."""
    if isinstance(rouge_types, (str, bytes)):
        return ValueError(f"rouge_types must be a list of type names such as ['rouge1', "
                          f"'rougeL'], not the string {rouge_types!r}: write "
                          f"[{rouge_types!r}]")
    kinds = []
    for rouge_type in rouge_types:
        if rouge_type == "rougeL":
            kinds.append((rouge_type, _kernel.KIND_L, 0))
        elif rouge_type == "rougeLsum":
            kinds.append((rouge_type, _kernel.KIND_LSUM, 0))
        elif _ROUGE_N.match(_ensure_str(rouge_type)):
            n = int(rouge_type[5:])
            if n <= 0:
                return ValueError("rougen requires positive n: %s" % rouge_type)
            kinds.append((rouge_type, _kernel.KIND_NGRAM, n))
        else:
            return ValueError("Invalid rouge type: %s" % rouge_type)
    return kinds


def _check_text(text, what):
    if not isinstance(text, str):
        hint = ""
        if isinstance(text, (list, tuple)):
            hint = (": score() takes one text each; for several targets of one prediction use "
                    "score_multi(targets, prediction)" if what == "target"
                    else ": score() takes one text each")
        raise TypeError(f"RougeScorer: the {what} is {type(text).__name__}, not str{hint}")


class RougeScorer(scoring.BaseScorer):
    """Calculate rouges scores between two blobs of text, as rouge-score's RougeScorer.

    :param rouge_types: A list of types: `'rouge1'` ... `'rouge9'`, `'rougeL'`, `'rougeLsum'`.
    :param use_stemmer: Stem tokens longer than 3 characters with nltk's Porter stemmer (used by
        the default tokenizer).
    :param split_summaries: rougeLsum's sentences from nltk's `sent_tokenize` (which needs
        nltk and its `punkt_tab` data) instead of the lines of the text.
    :param tokenizer: An object with `tokenize(text)` to use instead of the default tokenizer,
        e.g. for text outside ASCII, which the default tokenizer drops.

    >>> from cybleu.rouge_score import rouge_scorer
    >>> scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    >>> scores = scorer.score("The quick brown fox jumps over the lazy dog",
    ...                       "The quick brown dog jumps on the log.")
    >>> scores["rouge1"]
    Score(precision=0.75, recall=0.6666666666666666, fmeasure=0.7058823529411765)
    """

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False,
                 tokenizer=None):
        self.rouge_types = rouge_types
        if tokenizer:
            self._tokenizer = tokenizer
        else:
            self._tokenizer = tokenizers.DefaultTokenizer(use_stemmer)
        self._split_summaries = split_summaries
        self._plan_key = self._plan_value = None

    def _plan(self):
        """(kinds or the error to raise, the compiled scorer or None, whether rougeLsum is
        asked), kept while rouge_types and the tokenizer stay as they are."""
        types = self.rouge_types
        types = tuple(types) if isinstance(types, (list, tuple)) else types
        tokenizer = self._tokenizer
        stemmer = getattr(tokenizer, "_stemmer", None)
        held = self._plan_key
        if held is not None and held[1] is tokenizer and held[2] is stemmer and held[0] == types:
            return self._plan_value
        kinds = _kinds(types)
        scorer, lsum = None, False
        stem = _default_tokenizer(tokenizer)
        if stem is not None and not isinstance(kinds, Exception):
            scorer = _kernel.Scorer(kinds, stem, scoring.Score)
            lsum = any(kind == _kernel.KIND_LSUM for _, kind, _ in kinds)
        elif stem is not None:
            # the default tokenizer and a bad type: the error, once the texts are checked
            scorer = _Raise(kinds)
        self._plan_key, self._plan_value = (types, tokenizer, stemmer), (kinds, scorer, lsum)
        return self._plan_value

    def score(self, target, prediction):
        """Calculates rouge scores between the target and prediction.

        :param target: The target (ground truth) text.
        :param prediction: The predicted text.
        :returns: A dict mapping each rouge type to a `Score`.
        :raises ValueError: An invalid rouge type is encountered.
        :raises TypeError: A text that is not a str (the default tokenizer).
        """
        kinds, scorer, lsum = self._plan()
        if isinstance(self.rouge_types, (str, bytes)):
            raise kinds
        if scorer is not None:
            if isinstance(target, str) and isinstance(prediction, str):
                if self._split_summaries and lsum:
                    return scorer.score_sentences(target, prediction, _sentences(target, True),
                                                  _sentences(prediction, True))
                return scorer.score(target, prediction)
            if not (isinstance(target, (str, bytes)) and isinstance(prediction, (str, bytes))):
                _check_text(target, "target")
                _check_text(prediction, "prediction")
        # bytes (rouge-score decodes them after lowercasing), or a tokenizer of the user's
        return self._score_general(target, prediction)

    def score_multi(self, targets, prediction):
        """Calculates rouge scores between targets and prediction: for each type, the score of
        the target with the highest F-measure (the first of equals).

        :param targets: A list of target texts.
        :param prediction: The predicted text.
        :returns: A dict mapping each rouge type to a `Score`.
        :raises ValueError: An invalid rouge type is encountered, or no target (with types).
        :raises TypeError: `targets` is one string (rouge-score would score its characters as
            targets).
        """
        if isinstance(targets, (str, bytes)):
            raise TypeError("score_multi(targets, prediction) takes a list of target texts, "
                            "not one string (its characters would be scored as targets): pass "
                            "[target], or call score(target, prediction)")
        kinds, scorer, _ = self._plan()
        if scorer is not None and not self._split_summaries \
                and type(self).score is RougeScorer.score:
            targets = list(targets)
            if isinstance(prediction, str) and all(isinstance(t, str) for t in targets):
                if not targets and kinds:
                    raise ValueError("attempt to get argmax of an empty sequence: score_multi "
                                     "needs at least one target")
                return scorer.score_multi(targets, prediction)
        if isinstance(self.rouge_types, (str, bytes)):
            raise kinds
        score_dicts = [self.score(t, prediction) for t in targets]
        max_score = {}
        for k in self.rouge_types:
            if not score_dicts:
                raise ValueError("attempt to get argmax of an empty sequence: score_multi "
                                 "needs at least one target")
            best = score_dicts[0][k]
            for s in score_dicts[1:]:
                if s[k].fmeasure > best.fmeasure:
                    best = s[k]
            max_score[k] = best
        return max_score

    def _score_general(self, target, prediction):
        """rouge-score's steps, for a tokenizer of the user's (called as rouge-score calls it:
        the two texts, then each rougeLsum sentence, type by type) and for bytes; the tokens
        are counted by the compiled core (unhashable ones by the twin, by equality)."""
        tokenize = self._tokenizer.tokenize
        if len(self.rouge_types) == 1 and self.rouge_types[0] == "rougeLsum":
            target_tokens = prediction_tokens = None
        else:
            target_tokens = tokenize(target)
            prediction_tokens = tokenize(prediction)
        kinds = []
        target_sentences = prediction_sentences = None
        for rouge_type in self.rouge_types:
            one = _kinds([rouge_type])
            if isinstance(one, Exception):
                raise one
            if one[0][1] == _kernel.KIND_LSUM:
                target_sentences = [tokenize(s) for s in _sentences(target,
                                                                    self._split_summaries)]
                prediction_sentences = [tokenize(s) for s in _sentences(prediction,
                                                                        self._split_summaries)]
            kinds.extend(one)
        scorer = _kernel.Scorer(kinds, False, scoring.Score)
        return scorer.score_tokens(target_tokens, prediction_tokens, target_sentences,
                                   prediction_sentences)


class _Raise:
    """Stands in for the compiled scorer when a type is invalid: scoring raises its error."""

    def __init__(self, error):
        self.error = error

    def score(self, target, prediction):
        raise self.error

    score_multi = score_sentences = score


def _default_tokenizer(tokenizer):
    """The stemmer flag when `tokenizer` is the default tokenizer (cybleu's, or rouge-score's
    with nltk's Porter stemmer as it makes it), else None."""
    from .tokenize import _default_stemmer
    if type(tokenizer) is tokenizers.DefaultTokenizer or (
            type(tokenizer).__name__ == "DefaultTokenizer"
            and type(tokenizer).__module__ == "rouge_score.tokenizers"):
        if "tokenize" in vars(tokenizer):
            return None
        return _default_stemmer(getattr(tokenizer, "_stemmer", None))
    return None


def _sentences(text, split_summaries):
    """rougeLsum's sentences of a text: nltk's sent_tokenize or the lines, the empty dropped."""
    if split_summaries:
        import nltk
        sents = nltk.sent_tokenize(text)
    else:
        sents = _ensure_str(text).split("\n")
    return [x for x in sents if len(x)]


# -- rouge-score's helpers, with its behaviour (its tests call them) ----------------------------

def _create_ngrams(tokens, n):
    """A Counter of the n-grams (tuples) of a token list."""
    ngrams = collections.Counter()
    for ngram in (tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)):
        ngrams[ngram] += 1
    return ngrams


def _score_lcs(target_tokens, prediction_tokens):
    """The rougeL Score of two token lists."""
    if not target_tokens or not prediction_tokens:
        return scoring.Score(precision=0, recall=0, fmeasure=0)
    return scoring.Score(*prf(True, *_kernel.lcs_stats(target_tokens, prediction_tokens)))


def _lcs_table(ref, can):
    """The (len(ref) + 1) x (len(can) + 1) table of LCS lengths of prefixes."""
    rows, cols = len(ref), len(can)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            if ref[i - 1] == can[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table


def _backtrack_norec(t, ref, can):
    """The positions in ref of the LCS read back from table t (ties move up)."""
    i, j, lcs = len(ref), len(can), []
    while i > 0 and j > 0:
        if ref[i - 1] == can[j - 1]:
            lcs.append(i - 1)
            i -= 1
            j -= 1
        elif t[i][j - 1] > t[i - 1][j]:
            j -= 1
        else:
            i -= 1
    return lcs[::-1]


def lcs_ind(ref, can):
    """Returns one of the longest lcs: its positions in ref, the one rouge-score's backtrack
    reads (ties move up), which decides what enters rougeLsum's union.

    :param ref: A token list.
    :param can: Another token list.
    :returns: The positions in `ref` of the LCS, ascending.

    >>> from cybleu.rouge_score.rouge_scorer import lcs_ind
    >>> lcs_ind([1, 2, 3, 4, 5], [2, 5, 3, 4])
    [1, 2, 3]
    """
    return _kernel.lcs_indices(ref, can)


def _find_union(lcs_list):
    """Finds union LCS given a list of LCS."""
    return sorted(set().union(*lcs_list))


def _union_lcs(ref, c_list):
    """The tokens of ref in the union of its LCS with each candidate sentence."""
    return [ref[i] for i in _find_union([lcs_ind(ref, c) for c in c_list])]


def _summary_level_lcs(ref_sent, can_sent):
    """The rougeLsum Score of tokenized reference and candidate sentences."""
    if not ref_sent or not can_sent:
        return scoring.Score(precision=0, recall=0, fmeasure=0)
    return scoring.Score(*prf(True, *_kernel.summary_lcs_stats(ref_sent, can_sent)))


def _score_ngrams(target_ngrams, prediction_ngrams):
    """The rougeN Score of two n-gram Counters."""
    intersection_ngrams_count = 0
    for ngram in target_ngrams:
        intersection_ngrams_count += min(target_ngrams[ngram], prediction_ngrams[ngram])
    target_ngrams_count = sum(target_ngrams.values())
    prediction_ngrams_count = sum(prediction_ngrams.values())
    return scoring.Score(*prf(False, intersection_ngrams_count, prediction_ngrams_count,
                              target_ngrams_count))
