"""TER (Snover et al., 2006) with sacreBLEU 2.6.0's interface and results.

sacreBLEU's hooks are here with its semantics; when they are TER's own and the tokenizer is
cybleu's `TercomTokenizer`, TER's kernel (`_backend.module("ter")`: compiled, or its pure-Python twin
`ter_py.py`, the readable specification) tokenizes, searches the shifts and computes the edit
distances, and gives the same per-segment statistics [edits, average reference length].
"""
from collections.abc import Sequence
from typing import Any, Dict, List, Optional, Sequence as SequenceT, Tuple, Union, overload

from .. import _backend
from ..tokenizers.tokenizer_ter import TercomTokenizer
from .._scoring.bleu import sum_of_lists
from .._statistics.columns import Column
from .base import (PERCENT_BUCKETS, Metric, Score, Signature, _check_hypotheses,
                   _explain_type_error, _no_references, _segments_from_streams)
from .lib_ter import translation_edit_rate

_ter_kernel = _backend.module("ter")

__all__ = ["TER", "TERScore", "TERSignature"]

Streams = SequenceT[SequenceT[Optional[str]]]
Flags = Tuple[bool, bool, bool, bool]


class TERSignature(Signature):
    """TER's reproducibility signature: sacreBLEU's fields, with cybleu's version.

    `nrefs`, `case` (`lc` unless case-sensitive), `tok` (`tercom`), `norm`, `punct` (`yes`
    unless punctuation is removed), `asian`, `version`. Made by :meth:`TER.get_signature`.

    :param args: The metric's attributes (`metric.__dict__`).

    >>> from cybleu.metrics import TER
    >>> ter = TER(normalized=True)
    >>> _ = ter.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]])
    >>> print(ter.get_signature())
    nrefs:1|case:lc|tok:tercom|norm:yes|punct:yes|asian:no|version:cybleu-...
    """

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"})
        self.info.update({
            "case": "mixed" if args["case_sensitive"] else "lc",
            "tok": args["tokenizer_signature"],
            "norm": args["normalized"],
            "punct": not args["no_punct"],
            "asian": args["asian_support"],
        })


# asian_support (with normalized) splits these languages' characters apart
_ASIAN_SPLITS = ("zh", "ja")
_ASIAN_FIX = ("--ter-normalized --ter-asian-support (cybleu report), or "
              "TER(normalized=True, asian_support=True) (cybleu.report)")


def _count(x: float) -> str:
    """A count with thousands separators; two decimals where it is an average (the reference
    length over several references)."""
    x = float(x)
    return f"{x:,.0f}" if x.is_integer() else f"{x:,.2f}"


class TERScore(Score):
    """A TER result: `score` (100 * edits / reference length; lower is better, and it can pass
    100), `num_edits` (an int) and `ref_length` (the summed average reference lengths, a float).

    :param score: TER (0-100 and above).
    :param num_edits: The edits, summed over the segments.
    :param ref_length: The average reference lengths, summed over the segments.

    >>> import cybleu
    >>> score = cybleu.corpus_ter(["The cat sat on the mat.", "Hello, world!"],
    ...                           [["The cat is on the mat.", "Hello world!"]], normalized=True)
    >>> print(score)
    TER = 20.00
    >>> score.num_edits, score.ref_length
    (2, 10.0)
    """

    def __init__(self, score: float, num_edits: float, ref_length: float) -> None:
        super().__init__("TER", score)
        self.num_edits = int(num_edits)
        self.ref_length = ref_length

    def _display(self) -> Dict[str, Any]:
        """What a notebook shows beside the line: the edits and the reference length."""
        return {"kind": "ter", "band": None, "charts": [], "notes": [
            f"{_count(self.num_edits)} edits over {_count(self.ref_length)} reference words "
            "(lower is better)"]}


class _TERRefCache(Sequence[Dict[str, Any]]):
    """What `TER._cache_references` returns: sacreBLEU's per-segment sequence of
    `{'ref_words': [[word, ...] per reference]}` (each dict built when read), over the kernel's
    tokenized references, which the kernel scores against. Pickles with them."""

    def __init__(self, refset: Any, flags: Flags) -> None:
        self.refset = refset
        self.flags = flags

    def __len__(self) -> int:
        return int(self.refset.num_segments)

    @overload
    def __getitem__(self, index: int) -> Dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> List[Dict[str, Any]]: ...

    def __getitem__(self, index: Union[int, slice]) -> Any:
        n = len(self)
        if isinstance(index, slice):
            return [{"ref_words": self.refset.ref_words(i)} for i in range(*index.indices(n))]
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("reference cache index out of range")
        return {"ref_words": self.refset.ref_words(i)}

    def __repr__(self) -> str:
        return f"<TER reference cache: {len(self)} segments>"


# the hooks the kernel stands in for: overriding any of them sends TER down the hooks
_STAT_HOOKS = ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics",
               "_cache_references", "_extract_corpus_statistics")
_SCORE_HOOKS = _STAT_HOOKS + ("_aggregate_and_compute",)


class TER(Metric):
    """Translation edit rate (sacreBLEU's `TER`, same arguments and results): the edits (shifts of
    word blocks, insertions, deletions, substitutions) that turn the hypothesis into the closest
    reference, over the average reference length, with tercom's shift search as sacreBLEU does it.

    :param normalized: tercom's normalization: punctuation split off, XML escapes undone (with
        `asian_support`, CJK characters split apart too).
    :param no_punct: Remove punctuation (with `asian_support`, CJK punctuation too).
    :param asian_support: The CJK parts of `normalized` and `no_punct`.
    :param case_sensitive: Do not lowercase.
    :param references: Reference streams to tokenize once and keep: then `corpus_score(hyps,
        None)` scores against them.

    >>> from cybleu.metrics import TER
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = [["The cat is on the mat.", "Hello world!"]]
    >>> print(TER().corpus_score(hyps, refs))
    TER = 25.00
    >>> TER().sentence_scores(hyps, refs).tolist()
    [16.666666666666664, 50.0]
    """

    _SIGNATURE_TYPE = TERSignature
    higher_is_better = False
    bucket_edges = PERCENT_BUCKETS
    _report_order = 1  # the report starts the longest jobs first
    #: `cybleu report`'s options for TER: (flags, argparse's keywords, the constructor's
    #: argument)
    COMMAND_OPTIONS = (
        (("--ter-case-sensitive",), {"action": "store_true"}, "case_sensitive"),
        (("--ter-asian-support",), {"action": "store_true"}, "asian_support"),
        (("--ter-no-punct",), {"action": "store_true"}, "no_punct"),
        (("--ter-normalized",), {"action": "store_true"}, "normalized"),
    )

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False,
                 references: Optional[Streams] = None) -> None:
        super().__init__()
        self.no_punct = no_punct
        self.normalized = normalized
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive
        self.tokenizer = TercomTokenizer(normalized=self.normalized, no_punct=self.no_punct,
                                         asian_support=self.asian_support,
                                         case_sensitive=self.case_sensitive)
        self.tokenizer_signature = self.tokenizer.signature()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # -- sacreBLEU's hooks -----------------------------------------------------------------------

    def _preprocess_segment(self, sent: str) -> str:
        """The line as TER compares it: rstrip, then the tokenizer."""
        words: str = self.tokenizer(sent.rstrip())
        return words

    def _compute_score_from_stats(self, stats: SequenceT[Any]) -> TERScore:
        """TERScore of summed [edits, reference length]: 100 * edits / length (an empty
        reference: 100 if there are edits, else 0)."""
        total_edits, sum_ref_lengths = stats[0], stats[1]
        if sum_ref_lengths > 0:
            score = total_edits / sum_ref_lengths
        elif total_edits > 0:
            score = 1.0
        else:
            score = 0.0
        return TERScore(100 * score, total_edits, sum_ref_lengths)

    def _aggregate_and_compute(self, stats: List[List[Any]]) -> TERScore:
        return self._compute_score_from_stats(sum_of_lists(stats))

    def _compute_segment_statistics(self, hypothesis: str,
                                    ref_kwargs: Dict[str, Any]) -> List[Any]:
        """[fewest edits over the references, average reference length (a float)] of a
        preprocessed hypothesis against `{'ref_words': [[word, ...] per reference]}`."""
        ref_words = ref_kwargs["ref_words"]
        if len(ref_words) == 0:
            raise ValueError("TER: a segment has no reference (every reference is None)")
        words_hyp = hypothesis.split()
        ref_lengths = 0
        best_num_edits = int(1e16)
        for words_ref in ref_words:
            num_edits, ref_len = translation_edit_rate(words_hyp, words_ref)
            ref_lengths += ref_len
            if num_edits < best_num_edits:
                best_num_edits = num_edits
        return [best_num_edits, ref_lengths / len(ref_words)]

    def _extract_reference_info(self, refs: SequenceT[str]) -> Dict[str, Any]:
        """`{'ref_words': [[word, ...] per reference]}` of references the pipeline has already
        preprocessed: they go through `_preprocess_segment` a second time, as in sacreBLEU."""
        return {"ref_words": [self._preprocess_segment(ref).split() for ref in refs]}

    def _cache_references(self, references: Streams) -> SequenceT[Any]:
        """sacreBLEU's per-segment reference info (a lazy sequence of dicts); sets `num_refs`."""
        flags = self._kernel_flags(("_preprocess_segment", "_extract_reference_info"))
        if flags is None:
            return super()._cache_references(references)
        segments, num_refs = _segments_from_streams(references, prefix="TER")
        try:
            refset = _ter_kernel.RefSet(segments, *flags)
        except TypeError:
            _explain_type_error((), references, "TER")
            raise
        self.num_refs = num_refs
        return _TERRefCache(refset, flags)

    # -- the kernel ------------------------------------------------------------------------------

    def _kernel_flags(self, hooks: SequenceT[str]) -> Optional[Flags]:
        """The tokenizer's settings when the kernel computes what the hooks would (the hooks are
        TER's own and the tokenizer is cybleu's TercomTokenizer, not a subclass); else None."""
        tok = self.__dict__.get("tokenizer")
        if type(tok) is not TercomTokenizer or not self._own_hooks(TER, hooks):
            return None
        return tok._flags()

    def _kernel_call(self, method: str, hypotheses: SequenceT[str],
                     references: Optional[Streams], flags: Flags) -> Any:
        """kernel.<method>(hyps, segments, flags) on `references`, or RefSet.<method>(hyps) on the
        cached ones; None when the cache was made with other settings."""
        if not _no_references(references):
            segments, num_refs = _segments_from_streams(references, len(hypotheses), "TER")
            call = getattr(_ter_kernel, method)
            args: Tuple[Any, ...] = (hypotheses, segments) + flags
        else:
            cache = self._ref_cache
            if not cache:
                raise RuntimeError("No references provided and the cache is empty.")
            if not (isinstance(cache, _TERRefCache) and cache.flags == flags):
                return None
            if len(cache) != len(hypotheses):
                raise ValueError(f"TER: {len(hypotheses)} hypotheses but the cached references "
                                 f"have {len(cache)} segments.")
            num_refs = None
            call = getattr(cache.refset, method)
            args = (hypotheses,)
        try:
            result = call(*args)
        except TypeError:
            _explain_type_error(hypotheses, None if num_refs is None else references, "TER")
            raise
        if num_refs is not None:
            self.num_refs = num_refs
        return result

    def _extract_corpus_statistics(self, hypotheses: SequenceT[str],
                                   references: Optional[Streams]) -> Any:
        """One [edits, average reference length] list per segment."""
        flags = self._kernel_flags(_STAT_HOOKS)
        if flags is not None:
            rows = self._kernel_call("segment_stats", hypotheses, references, flags)
            if rows is not None:
                return rows
        return super()._extract_corpus_statistics(hypotheses, references)

    def corpus_score(self, hypotheses: SequenceT[str], references: Optional[Streams],
                     n_bootstrap: int = 1) -> TERScore:
        """Corpus TER of `hypotheses` against reference streams.

        :param hypotheses: One string per segment.
        :param references: Reference streams, or None for the references given to the
            constructor.
        :param n_bootstrap: If > 1, adds a 95% confidence interval from this many bootstrap
            resamples (seeded by `SACREBLEU_SEED`).
        :returns: A :class:`TERScore`.
        :raises TypeError: A string where a list belongs, a line that is not a string.
        :raises ValueError: An empty corpus, streams of different lengths, a segment whose
            references are all None.
        :raises RuntimeError: `references` is None and none were given to the constructor.
        """
        flags = self._kernel_flags(_SCORE_HOOKS)
        if n_bootstrap <= 1 and flags is not None:
            self._check_corpus_score_args(hypotheses, references)
            stats = self._kernel_call("corpus_stats", hypotheses, references, flags)
            if stats is not None:
                return self._compute_score_from_stats(stats)
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore

    def sentence_score(self, hypothesis: str, references: SequenceT[Optional[str]]) -> TERScore:
        """TER of one hypothesis against its references (the fewest edits over them).

        :param hypothesis: One hypothesis string.
        :param references: Its references: a list of strings (None entries are skipped).
        :returns: A :class:`TERScore`.
        :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
        :raises ValueError: No reference.

        >>> from cybleu.metrics import TER
        >>> print(TER().sentence_score("The cat sat on the mat.", ["The cat is on the mat."]))
        TER = 16.67
        """
        flags = self._kernel_flags(_SCORE_HOOKS)
        if flags is None:
            return super().sentence_score(hypothesis, references)  # type: ignore
        self._check_sentence_score_args(hypothesis, references)
        segment = [r for r in references if r is not None]
        stats = _ter_kernel.corpus_stats([hypothesis], [segment], *flags)
        self.num_refs = len(segment)
        return self._compute_score_from_stats(stats)

    def sentence_scores(self, hypotheses: SequenceT[str],
                        references: Optional[Streams] = None) -> Any:
        """Sentence TER of every hypothesis against its segment's references, in one call:
        element i equals, bit for bit, `self.sentence_score(hypotheses[i], refs_of_i).score`.

        :param hypotheses: One string per segment.
        :param references: Reference streams as for `corpus_score`, or None for the
            references given to the constructor.
        :returns: A float64 numpy array of `len(hypotheses)` scores.
        :raises TypeError: As `corpus_score`.
        :raises ValueError: As `corpus_score`.
        """
        import numpy as np
        _check_hypotheses(hypotheses, "TER")
        flags = self._kernel_flags(_STAT_HOOKS + ("_compute_score_from_stats",))
        if flags is not None:
            scores = self._kernel_call("sentence_scores", hypotheses, references, flags)
            if scores is not None:
                return np.frombuffer(scores, dtype=np.float64)
        rows = self._extract_corpus_statistics(hypotheses, references)
        return np.array([self._compute_score_from_stats(row).score for row in rows],
                        dtype=np.float64)

    # -- the protocol: what the machinery asks ----------------------------------------------------

    def statistic_columns(self) -> Tuple[Column, ...]:
        """The edits (integers) and the average reference length, a float that sacreBLEU adds
        segment after segment (an "ordered" column: exact in any order only while every average
        is a multiple of a power of two, which the engines check).

        :returns: A tuple of Columns.
        """
        return (Column("edits", "int"), Column("length", "ordered"))

    def _ordered_sums_exact(self, n_refs: Optional[int]) -> bool:
        """Whether sacreBLEU's in-order sum of the average reference lengths is the same float in
        any order with `n_refs` reference streams (None: unknown): with one or two references
        every average is a multiple of 1/2, and every partial sum of a corpus is exact."""
        return n_refs is not None and n_refs < 3

    def _report_views(self, scores: SequenceT[Any], stats: SequenceT[Any]) -> Dict[str, Any]:
        return {"ter": [{"edits": int(c.num_edits), "ref_length": float(c.ref_length)}
                        for c in scores]}

    def _script_notes(self, hint: Any, target: Optional[str]) -> List[str]:
        """TER counts the words between spaces: on Chinese or Japanese (the language pair's
        target, or the references' script) a clause is one word, unless `normalized` and
        `asian_support` split the characters; other scripts without spaces have no fix."""
        if self.asian_support and self.normalized:
            return []
        language = target if target is not None else (hint.language if hint else None)
        if language in _ASIAN_SPLITS:
            name = hint.name if hint else {"zh": "Chinese", "ja": "Japanese"}[language]
            return [f"TER counts the words between spaces: on {name} a clause is one word and "
                    f"TER stays near 100; add {_ASIAN_FIX}."]
        if hint is not None and hint.language != "ko":
            return [f"TER counts words between spaces, and has no option to split {hint.name}: "
                    "its scores here mean little."]
        return []

    def _report_detail(self, stats: SequenceT[Any]) -> Any:
        """Each segment's [edits, average reference length] for the two-system view."""
        import numpy as np
        rows = [np.frombuffer(st.flat, dtype=np.int64).reshape(st.n_segments, st.width)
                if st.flat is not None else np.array(st.rows, dtype=np.float64) for st in stats]
        spec = {"line": f"{self.label}: {{0}} edits over {{1}} reference words"}
        return np.stack(rows).astype(np.float64), spec

