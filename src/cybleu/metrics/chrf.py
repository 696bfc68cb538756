"""chrF (Popović 2015) and chrF++ (Popović 2017) with sacreBLEU 2.6.0's interface and results.

sacreBLEU's hooks are here with its semantics; when they are CHRF's own, the chrF kernel
(`_backend.module("chrf")`: compiled, or its pure-Python twin) counts the character and word n-grams
and gives the same integer statistics. `_chrf_math.f_score` turns statistics into a score for both.
"""
import math
import numbers
from collections import Counter
from collections.abc import Sequence
from typing import Any, Dict, List, Optional, Sequence as SequenceT, Union, overload

from .. import _backend
from .._scoring.chrf import f_score
from .._scoring.bleu import MAX_ORDER_LIMIT, sum_of_lists
from .._statistics.columns import Column
from .base import (PERCENT_BUCKETS, Metric, Score, Signature, Streams, _check_hypotheses,
                   _explain_type_error, _no_references, _segments_from_streams)
from .helpers import extract_all_char_ngrams, extract_word_ngrams

_kernel = _backend.module("chrf")

__all__ = ["CHRF", "CHRFScore", "CHRFSignature"]


class CHRFSignature(Signature):
    """chrF's reproducibility signature: sacreBLEU's fields, with cybleu's version.

    `nrefs`, `case` (`mixed` or `lc`), `eff` (`yes` unless eps smoothing), `nc` (character
    order), `nw` (word order), `space` (whitespace kept), `version`. Made by
    :meth:`CHRF.get_signature`.

    :param args: The metric's attributes (`metric.__dict__`).

    >>> from cybleu.metrics import CHRF
    >>> chrf = CHRF(word_order=2)
    >>> _ = chrf.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]])
    >>> print(chrf.get_signature())
    nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:cybleu-...
    """

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"})
        self.info.update({
            "case": "lc" if args["lowercase"] else "mixed",
            "eff": "yes" if not args["eps_smoothing"] else "no",
            "nc": args["char_order"],
            "nw": args["word_order"],
            "space": "yes" if args["whitespace"] else "no",
        })


class CHRFScore(Score):
    """A chrF result: `score` (0-100), named chrF<beta> with a '+' per word order (`chrF2`,
    `chrF2++`).

    :param score: chrF (0-100).
    :param char_order: The character n-gram order.
    :param word_order: The word n-gram order.
    :param beta: The recall weight.

    >>> import cybleu
    >>> score = cybleu.corpus_chrf(["The cat sat on the mat."], [["The cat is on the mat."]],
    ...                            word_order=2)
    >>> print(score)
    chrF2++ = 69.44
    >>> score.name, score.char_order, score.word_order, score.beta
    ('chrF2++', 6, 2, 2)
    """

    def __init__(self, score: float, char_order: int, word_order: int, beta: Any) -> None:
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        super().__init__(f"chrF{self.beta}" + "+" * self.word_order, score)

    def _display(self) -> Dict[str, Any]:
        """What a notebook shows beside the line: the settings."""
        return {"kind": "chrf", "band": None, "charts": [], "notes": [
            f"character n-grams up to {int(self.char_order)}, word n-grams up to "
            f"{int(self.word_order)}, \u03b2 = {self.beta}"]}


def _words(sent: str, puncts: Any) -> List[str]:
    """chrF++'s words: whitespace-split, one punctuation mark split off the end of a word or,
    failing that, off its start ('(hi)' -> '(hi', ')': sacrebleu#124)."""
    words: List[str] = []
    for w in sent.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in puncts:
            words += [w[:-1], w[-1]]
        elif w[0] in puncts:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return words


def _reference_info(refs: SequenceT[str], char_order: int, word_order: int, whitespace: bool,
                    puncts: Any) -> Dict[str, Any]:
    """sacreBLEU's CHRF._extract_reference_info: per reference, one Counter per order."""
    ngrams = []
    for ref in refs:
        stats = extract_all_char_ngrams(ref, char_order, whitespace)
        if word_order > 0:
            words = _words(ref, puncts)
            for n in range(word_order):
                stats.append(extract_word_ngrams(words, n + 1))
        ngrams.append(stats)
    return {"ref_ngrams": ngrams}


def _check_options(char_order: Any, word_order: Any, beta: Any) -> None:
    # any integer type sacreBLEU takes (numpy's from a config too), bounded as BLEU's order is:
    # an order past a C int overflowed with a message naming no argument
    for name, value in (("char_order", char_order), ("word_order", word_order)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) \
                or not 0 <= value <= MAX_ORDER_LIMIT:
            raise ValueError(f"CHRF: {name} must be an int >= 0 (at most {MAX_ORDER_LIMIT}), "
                             f"not {value!r}.")
    if char_order + word_order == 0:
        raise ValueError("CHRF: char_order and word_order are both 0: there is nothing to count.")
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise TypeError(f"CHRF: beta must be a real number, not {type(beta).__name__}.")
    try:
        finite = math.isfinite(float(beta) ** 2)
    except OverflowError:
        finite = False
    if not finite:
        raise ValueError(f"CHRF: beta must be finite and beta ** 2 too, not {beta!r}.")


class _CHRFRefCache(Sequence):  # type: ignore[type-arg]
    """What `CHRF._cache_references` returns: sacreBLEU's per-segment sequence of
    `{'ref_ngrams': [[Counter per order] per reference]}`, each built when read. The kernel scores
    against the reference lines it keeps (counting them again is about as fast as reading stored
    n-grams), so it pickles as those lines and the settings."""

    def __init__(self, segments: List[SequenceT[str]], char_order: int, word_order: int,
                 whitespace: bool, lowercase: bool, puncts: Any) -> None:
        self.segments = segments
        self.char_order = char_order
        self.word_order = word_order
        self.whitespace = whitespace
        self.lowercase = lowercase
        self.puncts = puncts

    def serves(self, metric: "CHRF") -> bool:
        """Whether the kernel on these lines gives what sacreBLEU gives with the metric's current
        settings (else the metric runs its hooks on the per-segment dicts, as sacreBLEU would)."""
        return (self.char_order == metric.char_order and self.word_order == metric.word_order
                and bool(self.whitespace) == bool(metric.whitespace)
                and bool(self.lowercase) == bool(metric.lowercase)
                and self.puncts == metric._PUNCTS)

    def _info(self, index: int) -> Dict[str, Any]:
        lower = self.lowercase
        return _reference_info([r.lower() if lower else r for r in self.segments[index]],
                               self.char_order, self.word_order, self.whitespace, self.puncts)

    def __len__(self) -> int:
        return len(self.segments)

    @overload
    def __getitem__(self, index: int) -> Dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> List[Dict[str, Any]]: ...

    def __getitem__(self, index: Union[int, slice]) -> Any:
        if isinstance(index, slice):
            return [self._info(i) for i in range(*index.indices(len(self.segments)))]
        n = len(self.segments)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("reference cache index out of range")
        return self._info(i)

    def __repr__(self) -> str:
        return f"<CHRF reference cache: {len(self.segments)} segments>"


# the hooks the kernel stands in for: overriding any of them sends CHRF down the hooks
_STAT_HOOKS = ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics",
               "_cache_references", "_extract_corpus_statistics", "_get_match_statistics",
               "_remove_punctuation", "_compute_f_score")
_SCORE_HOOKS = _STAT_HOOKS + ("_aggregate_and_compute",)


class CHRF(Metric):
    """chrF (Popović 2015) and chrF++ (`word_order=2`, Popović 2017) as sacreBLEU's `CHRF`
    computes them: the same arguments, hooks, signature and numbers, bit for bit.

    :param char_order: Character n-gram order (default 6).
    :param word_order: Word n-gram order (default 0; 2 is chrF++).
    :param beta: The weight of recall against precision (default 2).
    :param lowercase: Lowercase before counting.
    :param whitespace: Keep whitespace in the character n-grams.
    :param eps_smoothing: chrF++.py's, NLTK's and Moses' epsilon smoothing instead of
        sacreBLEU's effective order.
    :param references: Reference streams to keep: then `corpus_score(hyps, None)` scores
        against them.
    :raises ValueError: A negative or non-integer order, both orders 0, a non-finite `beta`.
    :raises TypeError: A `beta` that is not a real number.

    >>> from cybleu.metrics import CHRF
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = [["The cat is on the mat.", "Hello world!"]]
    >>> chrf = CHRF()
    >>> print(chrf.corpus_score(hyps, refs))
    chrF2 = 66.05
    >>> chrf.sentence_scores(hyps, refs).tolist()
    [67.17273492330233, 63.55479131750938]
    """

    label = "chrF"
    bucket_edges = PERCENT_BUCKETS
    _report_order = 2  # the report starts the longest jobs first
    #: `cybleu report`'s options for chrF: (flags, argparse's keywords, the constructor's
    #: argument)
    COMMAND_OPTIONS: Any = (
        (("--chrf-char-order", "-cc"), {"type": int, "default": 6}, "char_order"),
        (("--chrf-word-order", "-cw"), {"type": int, "default": None, "help": (
            "Word n-gram order of `chrf` (chrf++ uses 2).")}, "word_order"),
        (("--chrf-beta",), {"type": int, "default": 2}, "beta"),
        (("--chrf-whitespace",), {"action": "store_true"}, "whitespace"),
        (("--chrf-lowercase",), {"action": "store_true"}, "lowercase"),
        (("--chrf-eps-smoothing",), {"action": "store_true"}, "eps_smoothing"),
    )
    CHAR_ORDER = 6
    WORD_ORDER = 0
    BETA = 2
    _PUNCTS = set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')
    _SIGNATURE_TYPE = CHRFSignature

    def __init__(self, char_order: int = CHAR_ORDER, word_order: int = WORD_ORDER,
                 beta: int = BETA, lowercase: bool = False, whitespace: bool = False,
                 eps_smoothing: bool = False,
                 references: Optional[Streams] = None) -> None:
        super().__init__()
        _check_options(char_order, word_order, beta)
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order
        self.order = self.char_order + self.word_order
        self.lowercase = lowercase
        self.whitespace = whitespace
        self.eps_smoothing = eps_smoothing
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # -- sacreBLEU's hooks -----------------------------------------------------------------------

    @staticmethod
    def _get_match_statistics(hyp_ngrams: "Counter[str]", ref_ngrams: "Counter[str]") -> List[int]:
        """[hypothesis n-grams (0 when the reference has none), reference n-grams, matches]."""
        match_count, hyp_count = 0, 0
        for ngram, count in hyp_ngrams.items():
            hyp_count += count
            if ngram in ref_ngrams:
                match_count += min(count, ref_ngrams[ngram])
        return [hyp_count if ref_ngrams else 0, sum(ref_ngrams.values()), match_count]

    def _remove_punctuation(self, sent: str) -> List[str]:
        """chrF++'s words of a sentence (a punctuation mark split off a word's end or start)."""
        return _words(sent, self._PUNCTS)

    def _preprocess_segment(self, sent: str) -> str:
        return sent.lower() if self.lowercase else sent

    def _resample_replay(self) -> Optional[Any]:
        """("chrf", (order, beta)) when this object's score arithmetic is chrF's own, without eps
        smoothing, so the resampling engine may replay it vectorized; None when a subclass or
        the object itself changes it."""
        cls = type(self)
        if cls is not CHRF or cls._compute_score_from_stats is not CHRF._compute_score_from_stats \
                or cls._compute_f_score is not CHRF._compute_f_score \
                or "_compute_f_score" in self.__dict__ or self.eps_smoothing:
            return None
        return "chrf", (self.order, self.beta)

    def _resampled_scores(self, sums: Any, width: int, dtype: str, kernel: Any) -> Any:
        """The scores of summed statistics rows (resampled corpora, `width` int64 values each,
        as numpy float32 rows in sacreBLEU's bootstrap), chrF's float32 arithmetic vectorized
        when it is this class's own; else None (the resampler asks row by row)."""
        if dtype != "float32":
            return None
        args = _chrf_fast_args(self)
        if args is None or width != 3 * args[0]:
            return None
        return _chrf_f32_scores(sums, width, *args)

    def _compute_f_score(self, statistics: SequenceT[Any]) -> Any:
        """chrF (0-100) of flat [hyp, ref, match] statistics, one triple per order."""
        return f_score(statistics, self.order, self.beta, self.eps_smoothing)

    def _compute_score_from_stats(self, stats: SequenceT[Any]) -> CHRFScore:
        return CHRFScore(self._compute_f_score(stats), self.char_order, self.word_order,
                         self.beta)

    def _aggregate_and_compute(self, stats: List[List[Any]]) -> CHRFScore:
        return self._compute_score_from_stats(sum_of_lists(stats))

    def _extract_reference_info(self, refs: SequenceT[str]) -> Dict[str, Any]:
        """`{'ref_ngrams': [[Counter per order] per reference]}`."""
        ngrams = []
        for ref in refs:
            stats = extract_all_char_ngrams(ref, self.char_order, self.whitespace)
            if self.word_order > 0:
                words = self._remove_punctuation(ref)
                for n in range(self.word_order):
                    stats.append(extract_word_ngrams(words, n + 1))
            ngrams.append(stats)
        return {"ref_ngrams": ngrams}

    def _compute_segment_statistics(self, hypothesis: str,
                                    ref_kwargs: Dict[str, Any]) -> List[int]:
        """The statistics against the reference with the best chrF (the first of equals)."""
        best_stats: List[int] = []
        best_f_score = -1.0
        all_hyp_ngrams = extract_all_char_ngrams(hypothesis, self.char_order, self.whitespace)
        if self.word_order > 0:
            words = self._remove_punctuation(hypothesis)
            all_hyp_ngrams.extend([extract_word_ngrams(words, n)
                                   for n in range(1, self.word_order + 1)])
        for ref_ngrams in ref_kwargs["ref_ngrams"]:
            stats: List[int] = []
            for h, r in zip(all_hyp_ngrams, ref_ngrams):
                stats.extend(self._get_match_statistics(h, r))
            f = self._compute_f_score(stats)
            if f > best_f_score:
                best_f_score = f
                best_stats = stats
        return best_stats

    def _cache_references(self, references: Streams) -> SequenceT[Any]:
        """sacreBLEU's per-segment reference info (a lazy sequence of dicts); sets `num_refs`."""
        if not self._own_hooks(CHRF, ("_preprocess_segment", "_extract_reference_info",
                                      "_remove_punctuation")):
            return super()._cache_references(references)
        segments, num_refs = _segments_from_streams(references, prefix="CHRF")
        for i, seg in enumerate(segments):
            for ref in seg:
                if not isinstance(ref, str):
                    _explain_type_error((), references, "CHRF")
        self.num_refs = num_refs
        return _CHRFRefCache(list(segments), self.char_order, self.word_order, self.whitespace,
                             self.lowercase, frozenset(self._PUNCTS))

    # -- the protocol: what the machinery asks ------------------------------------------------

    def statistic_columns(self) -> Any:
        """[hyp, ref, match] n-grams per character order, then per word order: integers.

        :returns: A tuple of Columns.
        """
        names = []
        for kind, order in (("char", self.char_order), ("word", self.word_order)):
            for i in range(order):
                names += [f"{kind}{i + 1}_hyp", f"{kind}{i + 1}_ref", f"{kind}{i + 1}_match"]
        return tuple(Column(name) for name in names)

    def segment_scores(self, stats: Any) -> Any:
        """Each segment's sentence chrF from its statistics row (the kernel's `f_scores` on
        integer rows when the arithmetic is this class's own).

        :param stats: The segments' statistics: a `cybleu.significance.Statistics`, or a list
            of rows.
        :returns: A float64 numpy array, one score per segment.
        """
        import numpy as np
        flat = getattr(stats, "flat", None)
        if flat is not None and not self.eps_smoothing \
                and type(self)._compute_score_from_stats is CHRF._compute_score_from_stats \
                and self._kernel_ready(("_compute_f_score",)):
            scores = _kernel.f_scores(flat, self.order, self.beta, bool(self.eps_smoothing))
            return np.frombuffer(scores, dtype=np.float64).copy()
        return super().segment_scores(stats)

    def _column_sums(self, hypotheses: SequenceT[str], references: Any) -> Any:
        if not self._kernel_ready(_SCORE_HOOKS):
            return None
        return self._kernel_call("corpus_stats", hypotheses, references)

    def get_signature(self) -> CHRFSignature:
        """The reproducibility signature of the settings.

        :returns: A :class:`CHRFSignature`.
        :raises ValueError: Nothing has been scored yet (the number of references is unknown).
        """
        return super().get_signature()  # type: ignore[return-value]

    # -- the kernel ------------------------------------------------------------------------------

    def _kernel_ready(self, hooks: SequenceT[str]) -> bool:
        """The kernel computes what the hooks would: hooks our own, settings of the kinds it
        takes, `order` still char_order + word_order (sacreBLEU's hooks read `order`). A beta of
        another type (numpy's float32 makes sacreBLEU's arithmetic float32) runs the hooks."""
        c, w, b = self.char_order, self.word_order, self.beta
        return (self._own_hooks(CHRF, hooks)
                and isinstance(c, numbers.Integral) and isinstance(w, numbers.Integral)
                and not isinstance(c, bool) and not isinstance(w, bool)
                and 0 <= c <= MAX_ORDER_LIMIT and 0 <= w <= MAX_ORDER_LIMIT
                and self.order == c + w >= 1
                and isinstance(b, (int, float)) and not isinstance(b, bool)
                and self._PUNCTS == CHRF._PUNCTS)

    def _kernel_call(self, method: str, hypotheses: SequenceT[str],
                     references: Optional[Streams]) -> Any:
        """kernel.<method>(hyps, segments, settings) on `references`, or on the cached lines;
        None when the cache cannot serve the current settings."""
        if not _no_references(references):
            segments, num_refs = _segments_from_streams(references, len(hypotheses), "CHRF")
        else:
            cache = self._ref_cache
            if not cache:
                raise RuntimeError("No references provided and the cache is empty.")
            if not (isinstance(cache, _CHRFRefCache) and cache.serves(self)):
                return None
            if len(cache) != len(hypotheses):
                raise ValueError(f"CHRF: {len(hypotheses)} hypotheses but the cached references "
                                 f"have {len(cache)} segments.")
            segments, num_refs = cache.segments, None
        try:
            result = getattr(_kernel, method)(
                hypotheses, segments, int(self.char_order), int(self.word_order),
                bool(self.whitespace), bool(self.lowercase), self.beta, bool(self.eps_smoothing))
        except TypeError:
            _explain_type_error(hypotheses, None if num_refs is None else references, "CHRF")
            raise
        except ValueError as err:
            raise ValueError(f"CHRF: {err}") from None
        if num_refs is not None:
            self.num_refs = num_refs
        return result

    def _extract_corpus_statistics(self, hypotheses: SequenceT[str],
                                   references: Optional[Streams]) -> Any:
        """One flat [hyp, ref, match] * (char_order + word_order) list of ints per segment."""
        if self._kernel_ready(_STAT_HOOKS):
            rows = self._kernel_call("segment_stats", hypotheses, references)
            if rows is not None:
                return rows
        return super()._extract_corpus_statistics(hypotheses, references)

    def corpus_score(self, hypotheses: SequenceT[str],
                     references: Optional[Streams],
                     n_bootstrap: int = 1) -> CHRFScore:
        """Corpus chrF of `hypotheses` against reference streams.

        :param hypotheses: One string per segment.
        :param references: Reference streams, or None for the references given to the
            constructor.
        :param n_bootstrap: If > 1, adds a 95% confidence interval from this many bootstrap
            resamples (seeded by `SACREBLEU_SEED`).
        :returns: A :class:`CHRFScore`.
        :raises TypeError: A string where a list belongs, a line that is not a string.
        :raises ValueError: An empty corpus, streams of different lengths, a segment whose
            references are all None.
        :raises RuntimeError: `references` is None and none were given to the constructor.
        """
        if n_bootstrap <= 1 and self._kernel_ready(_SCORE_HOOKS):
            self._check_corpus_score_args(hypotheses, references)
            stats = self._kernel_call("corpus_stats", hypotheses, references)
            if stats is not None:
                return self._compute_score_from_stats(stats)
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore

    def sentence_score(self, hypothesis: str, references: SequenceT[Optional[str]]) -> CHRFScore:
        """chrF of one hypothesis against its references (the best reference counts).

        :param hypothesis: One hypothesis string.
        :param references: Its references: a list of strings (None entries are skipped).
        :returns: A :class:`CHRFScore`.
        :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
        :raises ValueError: No reference.

        >>> from cybleu.metrics import CHRF
        >>> print(CHRF(word_order=2).sentence_score("The cat sat on the mat.",
        ...                                         ["The cat is on the mat."]))
        chrF2++ = 69.44
        """
        if not self._kernel_ready(_SCORE_HOOKS):
            return super().sentence_score(hypothesis, references)  # type: ignore
        self._check_sentence_score_args(hypothesis, references)
        segment = [r for r in references if r is not None]
        try:
            stats = _kernel.corpus_stats(
                [hypothesis], [segment], int(self.char_order), int(self.word_order),
                bool(self.whitespace), bool(self.lowercase), self.beta, bool(self.eps_smoothing))
        except ValueError as err:
            raise ValueError(f"CHRF: {err}") from None
        self.num_refs = len(segment)
        return self._compute_score_from_stats(stats)

    def sentence_scores(self, hypotheses: SequenceT[str],
                        references: Optional[Streams] = None) -> Any:
        """Sentence chrF of every hypothesis against its segment's references, in one call:
        element i equals, bit for bit, `self.sentence_score(hypotheses[i], refs_of_i).score`.

        :param hypotheses: One string per segment.
        :param references: Reference streams as for `corpus_score`, or None for the
            references given to the constructor.
        :returns: A float64 numpy array of `len(hypotheses)` scores.
        :raises TypeError: As `corpus_score`.
        :raises ValueError: As `corpus_score`.
        """
        import numpy as np
        _check_hypotheses(hypotheses, "CHRF")
        if self._kernel_ready(_STAT_HOOKS + ("_compute_score_from_stats",)):
            scores = self._kernel_call("sentence_scores", hypotheses, references)
            if scores is not None:
                return np.frombuffer(scores, dtype=np.float64)
        rows = self._extract_corpus_statistics(hypotheses, references)
        return np.array([self._compute_score_from_stats(row).score for row in rows],
                        dtype=np.float64)

    def pairwise_scores(self, hypotheses: SequenceT[str],
                        references: Optional[SequenceT[str]] = None) -> Any:
        """The sentence chrF of each hypothesis against each reference alone (for MBR decoding):
        element `[i, j]` equals, bit for bit, `self.sentence_score(hypotheses[i],
        [references[j]]).score`.

        :param hypotheses: A flat list of sentences.
        :param references: A flat list of sentences, or None for the hypotheses themselves.
        :returns: A float64 numpy array of shape `(len(hypotheses), len(references))`.
        :raises TypeError: A line that is not a string.

        >>> from cybleu.metrics import CHRF
        >>> CHRF().pairwise_scores(["The cat sat on the mat.", "Hello, world!"],
        ...                        ["The cat is on the mat.", "Hello!"]).round(2).tolist()
        [[67.17, 3.97], [2.08, 47.94]]
        """
        import numpy as np
        _check_pairwise_lines(hypotheses, "hypotheses")
        refs = hypotheses if references is None else references
        if references is not None:
            _check_pairwise_lines(references, "references")
        if not self._kernel_ready(_SCORE_HOOKS + ("_compute_score_from_stats",)):
            return np.array([[self.sentence_score(h, [r]).score for r in refs]
                             for h in hypotheses], dtype=np.float64).reshape(len(hypotheses),
                                                                             len(refs))
        flat = _kernel.pairwise_scores(
            hypotheses, refs, int(self.char_order), int(self.word_order), bool(self.whitespace),
            bool(self.lowercase), self.beta, bool(self.eps_smoothing))
        return np.frombuffer(flat, dtype=np.float64).reshape(len(hypotheses), len(refs))


# -- resampled scores: chrF's float32 arithmetic, vectorized ----------------------------------

def _chrf_fast_args(metric):
    """(order, beta squared) when the metric's arithmetic is chrF's own with sacreBLEU's
    effective-order averaging, and numpy promotes as NEP 50 says (numpy >= 2: a Python number
    meeting a float32 becomes float32), which `_chrf_f32_scores` replays; else None."""
    replay = metric._resample_replay()
    if replay is None or replay[0] != "chrf":
        return None
    order, beta = replay[1]
    if isinstance(beta, bool) or type(beta) not in (int, float) or not math.isfinite(beta):
        return None
    factor = beta ** 2
    # an int factor converts to float32 exactly below 2**24
    if not (isinstance(order, int) and order >= 1
            and abs(factor) < (1 << 24 if isinstance(factor, int) else 1e30)):
        return None
    import numpy as np
    f32 = np.float32(1.5)
    if type(f32 + 1e-16) is not np.float32 or type(0.0 + f32) is not np.float32 \
            or type(4 * f32) is not np.float32:
        return None  # numpy < 2: Python floats meeting float32 scalars make float64
    return order, factor


def _chrf_f32_scores(sums, width, order, factor):
    """CHRF._compute_f_score of every float32 row of `sums`, vectorized: the same float32
    operations, in the same order, as the scalar function performs on numpy float32 values
    (without eps smoothing the final score depends only on the running float32 sums of
    precision and recall over the orders where both sides have n-grams). Scores are numpy
    float32 scalars, or the Python float 0.0 where the function returns it; a test holds them
    equal, value and type, to the scalar function."""
    import numpy as np
    rows = np.frombuffer(sums, dtype=np.int64).reshape(-1, width).astype(np.float32)
    n_rows = rows.shape[0]
    f = np.float32
    avg_prec = np.zeros(n_rows, dtype=f)
    avg_rec = np.zeros(n_rows, dtype=f)
    effective = np.zeros(n_rows, dtype=np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = rows[:, 3 * i], rows[:, 3 * i + 1], rows[:, 3 * i + 2]
            both = (n_hyp > 0) & (n_ref > 0)
            prec = n_match / n_hyp
            rec = n_match / n_ref
            # the first addition is 0.0 + x = x exactly, so one float32 sum serves all orders
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective += both
        eff = effective.astype(f)
        avg_prec = np.where(effective > 0, avg_prec / eff, avg_prec)
        avg_rec = np.where(effective > 0, avg_rec / eff, avg_rec)
        nonzero = (effective > 0) & ((avg_prec + avg_rec) != 0)
        score = f(1 + factor) * avg_prec
        score = score * avg_rec
        score = score / (f(factor) * avg_prec + avg_rec)
        score = f(100) * score
    values = score.tolist()
    return [f(v) if keep else 0.0 for v, keep in zip(values, nonzero.tolist())]


def _check_pairwise_lines(lines: Any, name: str) -> None:
    if isinstance(lines, str) or not isinstance(lines, Sequence):
        raise TypeError(f"CHRF: `{name}` should be a sequence of strings (one sentence each), "
                        f"not {type(lines).__name__}.")
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            extra = (" (pairwise scoring takes a flat list of sentences: each hypothesis is scored "
                     "against each reference alone)" if isinstance(line, (list, tuple)) else "")
            raise TypeError(f"CHRF: {name} {i} is {type(line).__name__}, not str{extra}.")
