"""sacreBLEU 2.6.0's metric pipeline, hook for hook, and how a result is reported.

`Metric` runs every metric the same way sacreBLEU's does::

    corpus_score(hyps, refs)
      _check_corpus_score_args(hyps, refs)
      _extract_corpus_statistics(hyps, refs)        # one list of integers per segment
        _cache_references(refs)                     # per segment: _extract_reference_info(
                                                    #     [_preprocess_segment(ref) ...])
        _compute_segment_statistics(_preprocess_segment(hyp), ref_info)
      _aggregate_and_compute(stats)                 # sum, then _compute_score_from_stats
      _bootstrap_resample(stats, n_bootstrap)       # when n_bootstrap > 1

A metric fills in the hooks with sacreBLEU's semantics (so code that calls or overrides a hook gets
sacreBLEU's results), and may answer the same calls from its compiled kernel when its hooks are its
own (`_own_hooks`). Argument checks are cybleu's: a clear error where sacreBLEU truncates silently.
"""
from __future__ import annotations

import logging
from abc import ABCMeta, abstractmethod
from collections.abc import Sequence

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence as SequenceT, Tuple

    # reference streams: one sequence of lines per reference set (None where a segment has none)
    Streams = SequenceT[SequenceT[Optional[str]]]

from .._scoring import bleu as bleu_math
from .._statistics import resampling
from .._statistics.columns import Column, sum_rows
from ..version import __version__

logger = logging.getLogger("cybleu")

VERSION_STRING = f"cybleu-{__version__}"

__all__ = ["Score", "Signature", "Metric", "SegmentMeanMetric", "PERCENT_BUCKETS"]

#: the report's sentence-score buckets of a 0-100 score: [0, 10), [10, 20), ... [90, 100]
PERCENT_BUCKETS = (10, 20, 30, 40, 50, 60, 70, 80, 90)


def __getattr__(name: str) -> Any:
    # `Streams` for modules that use it at run time, built on demand: BLEU's path (the command
    # line) does not import typing
    if name == "Streams":
        from typing import Optional, Sequence as SequenceT
        return SequenceT[SequenceT[Optional[str]]]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Score:
    """A metric's result (sacreBLEU's `Score`): the base of every metric's score object
    (:class:`~cybleu.metrics.BLEUScore`, ...).

    :param name: The metric's name as printed (`'BLEU'`, ...).
    :param score: The score (0-100 for BLEU).

    `str(score)` and `repr(score)` are `score.format()`. After `corpus_score(...,
    n_bootstrap=N)` the text also shows the bootstrap mean and the half-width of the 95%
    interval, `μ = mean ± ci`.

    >>> from cybleu.metrics.base import Score
    >>> Score("BLEU", 40.145310162592594).format(width=1)
    'BLEU = 40.1'
    """

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        """The score as sacreBLEU prints it.

        :param width: Decimal places of the score (default 2).
        :param score_only: Only the number, e.g. `'40.15'`.
        :param signature: A signature to print with the name (`BLEU|nrefs:1|... = 40.15 ...`).
        :param is_json: sacreBLEU's JSON object instead of the text line.
        :returns: The text line, the number, or the JSON document.

        >>> import cybleu
        >>> score = cybleu.corpus_bleu(["The cat sat on the mat."], [["The cat is on the mat."]])
        >>> score.format(score_only=True)
        '48.89'
        >>> print(score.format(width=1))
        BLEU = 48.9 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
        """
        sc = f"{self.score:.{width}f}"
        d: Dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            sc += f" ({confidence})"
            if is_json:
                d["confidence_mean"] = float(mean)
                d["confidence_var"] = float(ci)
                d["confidence"] = confidence
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {sc}"
        if self._verbose:
            full += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for pair in signature.split("|"):
                key, value = pair.split(":")
                d[key] = value
            import json
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full

    def estimate_ci(self, scores: List["Score"]) -> None:
        """Set the mean and the half-width of the 95% interval of bootstrap resamples' scores,
        which `format()` then prints (`corpus_score(..., n_bootstrap=N)` calls this).

        :param scores: The scores of the resampled corpora (objects with a `score`).
        :returns: None.

        >>> from cybleu.metrics.base import Score
        >>> score = Score("BLEU", 40.0)
        >>> score.estimate_ci([Score("BLEU", float(x)) for x in range(30, 51)])
        >>> print(score)
        BLEU = 40.00 (μ = 40.00 ± 10.00)
        """
        raw = sorted(s.score for s in scores)
        lower = len(raw) // 40
        upper = len(raw) - lower - 1
        self._ci = 0.5 * (raw[upper] - raw[lower])
        self._mean = bleu_math.exact_mean(raw)

    def __repr__(self) -> str:
        return self.format()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Dict[str, str]:
        """Notebook display: sacreBLEU's line as text/plain, and a small HTML block (the score
        and what `_display()` adds: a band, charts, notes; no script) from
        cybleu.metrics.display."""
        from .display import score_bundle
        return score_bundle(self, include, exclude)

    def _display(self) -> Optional[Dict[str, Any]]:
        """What a notebook shows beside the score's line: {"kind": the block's family (its id is
        `cybleu-<kind>-<hash>`), "band": (label, reading, colour) or None, "charts": [chart
        data: {"kind": "bars", ...} or {"kind": "curve", ...}], "notes": [text]}; None for the
        line alone."""
        return None


class Signature:
    """A reproducibility signature (sacreBLEU's `Signature`): the settings that produced a score,
    as `key:value` pairs joined by `|`, the version last. Each metric's subclass
    (:class:`~cybleu.metrics.BLEUSignature`, ...) adds its own fields.

    :param args: The metric's attributes (`metric.__dict__`); `num_refs` must be set, which
        scoring does.
    :raises ValueError: `num_refs` is missing (the metric has not scored anything yet).

    >>> import cybleu
    >>> bleu = cybleu.BLEU()
    >>> _ = bleu.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]])
    >>> signature = bleu.get_signature()
    >>> print(signature)
    nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:cybleu-...
    >>> print(signature.format(short=True))
    #:1|c:mixed|e:no|tok:13a|s:exp|v:cybleu-...
    """

    def __init__(self, args: Dict[str, Any]) -> None:
        self._abbr = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S",
                      "origlang": "o", "bs": "bs", "ar": "ar", "seed": "rs"}
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: Dict[str, Any] = {
            "version": VERSION_STRING,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap", None),
            "ar": None,
            "seed": args.get("seed", None),
            "test": args.get("test_set", None),
            "lang": args.get("langpair", None),
            "origlang": args.get("origlang", None),
            "subset": args.get("subset", None),
        }

    def format(self, short: bool = False) -> str:
        """The signature as text.

        :param short: Abbreviate the keys (`nrefs` -> `#`, `case` -> `c`, ...), as sacreBLEU's
            `--short`.
        :returns: The `key:value|...` string, without the fields that are None.
        """
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        """Set one field (the significance tests add `bs`, `ar` and `seed`).

        :param key: The field's long name.
        :param value: Its value; None leaves the field out.
        :returns: None.
        """
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


# -- argument checks shared by every metric ------------------------------------------------------

def _what(value: Any) -> str:
    """How a wrongly typed line is described, with the fix for the usual mistake (token lists)."""
    kind = type(value).__name__
    if isinstance(value, (list, tuple)) and value and all(isinstance(t, str) for t in value):
        return (f"a {kind} of {len(value)} strings, not str (it looks like a list of tokens: "
                "pass each line as one string, e.g. ' '.join(tokens))")
    return f"{kind}, not str"


def _check_hypotheses(hyps: Any, prefix: str = "BLEU") -> None:
    """hyps is a non-empty sequence of strings, or a clear error saying what it is instead."""
    fn = prefix.lower()
    if isinstance(hyps, str):
        raise TypeError(
            f"{prefix}: `hyps` should be a sequence of strings (one hypothesis per segment), not a "
            f"single str. For one sentence use sentence_{fn}(hyp, [ref]); for a corpus of one "
            f"sentence, corpus_{fn}([hyp], [[ref]]).")
    if not isinstance(hyps, Sequence):
        raise TypeError(f"{prefix}: `hyps` should be a sequence of strings, "
                        f"not {type(hyps).__name__}.")
    if len(hyps) == 0:
        raise ValueError(f"{prefix}: no hypotheses: the corpus is empty.")
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            if hyp is None:
                raise TypeError(f"{prefix}: Undefined line in hypotheses stream! "
                                f"(hypothesis {i} is None)")
            raise TypeError(f"{prefix}: hypothesis {i} is {_what(hyp)}.")


def _check_line(line: Any, stream: int, index: int, prefix: str) -> None:
    if line is not None and not isinstance(line, str):
        raise TypeError(f"{prefix}: reference {index} of stream {stream} is {_what(line)} "
                        "(a reference is a str, or None where a stream has no reference).")


def _explain_type_error(hyps: Any, streams: Any, prefix: str = "BLEU") -> None:
    """Name the first line that is not a string (a kernel only says that there is one)."""
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            raise TypeError(f"{prefix}: hypothesis {i} is {_what(hyp)}.")
    for k, stream in enumerate(streams or ()):
        for i, ref in enumerate(stream):
            _check_line(ref, k, i, prefix)


def _check_streams(streams: Any, n_hyps: Optional[int] = None, prefix: str = "BLEU") -> None:
    """streams is a non-empty sequence of equally long reference streams (lists of strings)."""
    fn = prefix.lower()
    if isinstance(streams, str):
        raise TypeError(
            f"{prefix}: `refs` should be a sequence of reference streams (a list of lists of "
            f"strings, one stream per reference set), not a single str. For one sentence use "
            f"sentence_{fn}(hyp, [ref]); for a corpus, corpus_{fn}(hyps, [refs]), e.g. "
            f"corpus_{fn}([hyp], [[ref]]).")
    if not isinstance(streams, Sequence):
        raise TypeError(f"{prefix}: `refs` should be a sequence of reference streams "
                        f"(a list of lists of strings), not {type(streams).__name__}.")
    if len(streams) == 0:
        raise ValueError(f"{prefix}: `refs` holds no reference stream.")
    for k, stream in enumerate(streams):
        if isinstance(stream, str) or stream is None:
            raise ValueError(
                f"{prefix}: `refs` should be a list of reference streams, each a list of strings "
                f"(one per hypothesis), but element {k} is a {type(stream).__name__}. For one "
                "reference per hypothesis pass [refs], not refs.")
        if not isinstance(stream, Sequence):
            raise TypeError(f"{prefix}: reference stream {k} is {type(stream).__name__}, "
                            "not a sequence of strings.")
    lengths = {len(stream) for stream in streams}
    if len(lengths) > 1:
        raise ValueError(f"{prefix}: reference streams have different lengths "
                         f"{sorted(lengths)}; every stream needs one line per hypothesis."
                         f"{_transposed_hint(streams, n_hyps)}")
    n_segments = lengths.pop()
    if n_hyps is not None and n_segments != n_hyps:
        raise ValueError(f"{prefix}: {n_hyps} hypotheses but {n_segments} references per stream; "
                         f"the streams must have the same length.{_transposed_hint(streams, n_hyps)}")


def _transposed_hint(streams: Any, n_hyps: Optional[int]) -> str:
    """The fix, when `refs` has one entry per hypothesis (the layout of torchmetrics, Hugging Face
    and nltk: a list of references for each hypothesis) instead of sacreBLEU's streams."""
    if n_hyps is None or len(streams) != n_hyps:
        return ""
    if len({len(stream) for stream in streams}) == 1:
        return (" `refs` looks like one list of references per hypothesis: pass "
                "`list(zip(*refs))` (sacreBLEU's layout is one stream per reference set, each "
                "with one line per hypothesis).")
    return (" `refs` looks like one list of references per hypothesis (with different numbers "
            "of references): pass `list(itertools.zip_longest(*refs))`, whose None entries mark "
            "a missing reference (sacreBLEU's layout is one stream per reference set, each with "
            "one line per hypothesis).")


def _segments_from_streams(streams: Any, n_hyps: Optional[int] = None,
                           prefix: str = "BLEU") -> Tuple[List[Any], int]:
    """Reference streams [[ref of segment 0, ref of segment 1, ...], ...] -> per-segment lists of
    references (None dropped) and the number of references (-1 when it varies).

    Unlike sacreBLEU, streams of different lengths and a flat list of strings are errors."""
    _check_streams(streams, n_hyps, prefix)
    if not any(None in stream for stream in streams):
        return list(zip(*streams)), len(streams)
    segments = [[r for r in seg if r is not None] for seg in zip(*streams)]
    counts = {len(seg) for seg in segments}
    return segments, (counts.pop() if len(counts) == 1 else -1)


def _no_references(refs: Any) -> bool:
    """sacreBLEU's `if references:` (None or empty: use the cache), without asking an array's
    truth value."""
    return refs is None or (isinstance(refs, Sequence) and not isinstance(refs, str)
                            and len(refs) == 0)


def _rows_of(stats: Any) -> List[Any]:
    """The rows of a Statistics (or a list of rows), one list of numbers per segment."""
    if isinstance(stats, list):
        return stats
    if stats.flat is None:
        return stats.rows  # type: ignore[no-any-return]
    return [stats.row(i) for i in range(stats.n_segments)]


class Metric(metaclass=ABCMeta):
    """sacreBLEU's `Metric`, the base of every metric (:class:`~cybleu.metrics.BLEU`, ...): the
    pipeline in this module's docstring; a subclass implements the abstract hooks with
    sacreBLEU's semantics, and says what it is (the attributes below) for the machinery.

    Scoring goes through `corpus_score` and `sentence_score`; `get_signature()` then describes
    the settings. Metric objects made with `references=` keep those references tokenized, and
    pickle and deep-copy with them.

    >>> from cybleu.metrics import BLEU
    >>> bleu = BLEU(references=[["The cat is on the mat.", "Hello world!"]])
    >>> bleu.corpus_score(["The cat sat on the mat.", "Hello, world!"], None).score
    40.145310162592594
    """

    _SIGNATURE_TYPE: type = Signature

    # -- what a metric says about itself -----------------------------------------------------
    # The machinery (significance, the report and notebook, the command lines, the engines,
    # best_of) asks these and never names a metric; a metric outside cybleu that sets them and
    # registers itself (`cybleu.metrics.register`) gets all of it.

    #: The metric's name before it has a score (headings, options, errors); a score's own `name`
    #: may add settings. Defaults to the class's name.
    label: str = ""
    #: Which way is better: True for a score (BLEU), False for an error rate.
    higher_is_better: bool = True
    #: How segments make a corpus score: "corpus" (sum the segments' statistics, then score
    #: the sums: sacreBLEU's metrics) or "mean" (the mean of the segments' scores: ROUGE, COMET,
    #: any neural metric; see SegmentMeanMetric).
    aggregation: str = "corpus"
    #: What a system's input is: "text" (hypotheses, scored against references) or "scores"
    #: (its per-segment scores, given: ExternalScores).
    inputs: str = "text"
    #: Edges of the report's sentence-score buckets, when the scale is known (None: from the
    #: scores themselves).
    bucket_edges: Any = None
    #: What a sentence score by name (best_of, `cybleu filter`) is made with: the class's
    #: arguments that make `sentence_score` what users expect (BLEU: effective order).
    SENTENCE_DEFAULTS: Dict[str, Any] = {}
    #: The options of the metric on `cybleu report`'s command line: (flags, argparse's keywords,
    #: the constructor's argument they set); COMMAND_DEFAULTS, constructor arguments the command
    #: always passes.
    COMMAND_OPTIONS: Tuple[Any, ...] = ()
    COMMAND_DEFAULTS: Dict[str, Any] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.label:
            cls.label = cls.__name__

    def statistic_columns(self) -> Any:
        """The columns of a segment's statistics row and how each adds up over segments
        (`cybleu._statistics.columns.Column(name, adds)`, adds one of "int", "exact",
        "ordered"), in row order; None when the metric does not say (then rows add as
        sacreBLEU's `sum_of_lists` adds them, and the engines cannot ship it).

        :returns: A tuple of Columns, or None.

        >>> from cybleu.metrics import BLEU
        >>> [column.name for column in BLEU(max_ngram_order=2).statistic_columns()]
        ['hyp_len', 'ref_len', 'correct_1', 'correct_2', 'total_1', 'total_2']
        """
        return None

    def segment_scores(self, stats: Any) -> Any:
        """Each segment's score by itself, from its statistics row: what `sentence_score` gives
        for that segment (BLEU's with effective order, as sacreBLEU's `sentence_bleu`).

        :param stats: The segments' statistics: a `cybleu.significance.Statistics`, or a list
            of rows.
        :returns: A float64 numpy array, one score per segment.

        >>> from cybleu.metrics import BLEU
        >>> BLEU().segment_scores([[6, 6, 5, 3, 1, 0, 6, 5, 4, 3]]).tolist()
        [37.99178428257963]
        """
        import numpy as np
        rows = _rows_of(stats)
        return np.array([float(self._compute_score_from_stats(row).score) for row in rows],
                        dtype=np.float64)

    def _column_sums(self, hypotheses: SequenceT[str], references: Any) -> Any:
        """The column sums of the segments' statistics without a row per segment (a kernel's
        corpus statistics), or None: then the caller sums `_extract_corpus_statistics` by the
        columns. Integer columns only: a sum that depends on the order is never taken here."""
        return None

    def _selection_scores(self, hypotheses: SequenceT[str], references: Any,
                          n_threads: int = 1) -> Any:
        """Sentence scores for picking and filtering (best_of, `cybleu filter`): bit for bit
        `sentence_score` of each; a metric whose batch takes threads uses them."""
        return self.sentence_scores(hypotheses, references)

    def _candidate_grid(self, candidates: SequenceT[str], references: Any, k: int,
                        n_threads: int = 1) -> Any:
        """The (segments, k) sentence scores of k candidates per segment with each segment's
        references prepared once for its k candidates, or None (the caller then repeats each
        segment's references k times)."""
        return None

    def _report_views(self, scores: SequenceT[Any], stats: SequenceT[Any]) -> Dict[str, Any]:
        """The metric's own data in the report, merged into its entry of the page's data:
        "views" lists the views it offers ("bands": where each system's corpus score falls on
        interpretation bands, given under "bands"; "anatomy": a score's components, under
        "anatomy"), and any other entries its views read. Nothing by default.

        :param scores: Each system's corpus score object.
        :param stats: Each system's segment statistics (`Statistics`).
        :returns: A dict of JSON-able data.
        """
        return {}

    def _script_notes(self, hint: Any, target: Optional[str]) -> List[str]:
        """What the report says about this metric's tokenization of the references: a note per
        problem (the metric's own words, naming the option that fixes it), or none.

        :param hint: `cybleu.tokenizers.language_hint.guess` of the references (their script,
            when most of it is written without spaces), or None.
        :param target: The target language of the test set's language pair, or None.
        :returns: A list of sentences.
        """
        return []

    def _report_detail(self, stats: SequenceT[Any]) -> Any:
        """How a segment's statistics read in the report's two-system view: (an array of every
        system's rows, stacked (systems, segments, width); a spec: {"table": {"head": [...],
        "label": ..., "cells": ["{2} / {6}", ...]}} or {"line": "{0} edits ..."}, where `{k}`
        is the row's k-th value}, or None (nothing shown).

        :param stats: Each system's segment statistics (`Statistics`).
        :returns: (array, spec) or None.
        """
        return None

    def _report_alignment(self, hypotheses: SequenceT[SequenceT[str]],
                          references: SequenceT[SequenceT[Optional[str]]]) -> Any:
        """A token alignment the report's two-system view draws under each hypothesis: (a
        spec {"title", "hyp", "ref", "mark", "legend", "empty"}, and per system one JSON
        string per segment: {"h": hypothesis tokens, "r": reference tokens (str), "hm", "rm":
        the positions marked in each, "ref": which reference (0-based)}), or None (no
        alignment). Strings are shown as text, never parsed as HTML.

        :param hypotheses: Each system's lines.
        :param references: The reference streams (None where a segment has none).
        :returns: (spec, [[str per segment] per system]) or None.
        """
        return None

    def __init__(self) -> None:
        self._ref_cache: Any = None
        # only BLEU warns about tokenized input; other metrics keep this True
        self._force = True
        self.n_bootstrap: Optional[int] = None
        self.seed: Optional[str] = None

    # -- which path answers a call ---------------------------------------------------------------

    def _own_hooks(self, owner: type, names: SequenceT[str]) -> bool:
        """True when none of `names` is overridden below `owner` or on the instance: then the
        compiled kernel may answer, since it computes what those hooks compute."""
        cls = type(self)
        inst = self.__dict__
        return all(name not in inst and getattr(cls, name) is getattr(owner, name)
                   for name in names)

    # -- checks ----------------------------------------------------------------------------------

    def _check_sentence_score_args(self, hyp: str, refs: SequenceT[Optional[str]]) -> None:
        prefix = self.__class__.__name__
        fn = prefix.lower()
        if not isinstance(hyp, str):
            hint = ""
            if isinstance(hyp, (list, tuple)):
                hint = (f" For a batch use corpus_{fn}(hyps, [refs]) or sentence_scores; "
                        "for a list of tokens pass ' '.join(tokens).")
            raise TypeError(f"{prefix}: The argument `hyp` should be a string, "
                            f"not {type(hyp).__name__}.{hint}")
        if isinstance(refs, str):
            raise TypeError(f"{prefix}: The argument `refs` should be a sequence of strings, not "
                            f"a single str: pass sentence_{fn}(hyp, [ref]).")
        if not isinstance(refs, Sequence):
            raise TypeError(f"{prefix}: The argument `refs` should be a sequence of strings, "
                            f"not {type(refs).__name__}.")
        if len(refs) == 0:
            raise ValueError(f"{prefix}: `refs` is empty; give at least one reference.")
        for i, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"{prefix}: Each element of `refs` should be a string or None "
                                f"(reference {i} is {_what(ref)}).")

    def _check_corpus_score_args(self, hyps: SequenceT[str],
                                 refs: Optional[Streams]) -> None:
        prefix = self.__class__.__name__
        _check_hypotheses(hyps, prefix)
        if refs is not None:
            _check_streams(refs, len(hyps), prefix)

    # -- the hooks -------------------------------------------------------------------------------

    @abstractmethod
    def _aggregate_and_compute(self, stats: List[List[Any]]) -> Any:
        """The score of a list of segment statistics."""

    @abstractmethod
    def _compute_score_from_stats(self, stats: List[Any]) -> Any:
        """The score of statistics already summed over the segments."""

    @abstractmethod
    def _preprocess_segment(self, sent: str) -> str:
        """One line as the metric sees it (lowercasing, tokenization)."""

    @abstractmethod
    def _extract_reference_info(self, refs: SequenceT[str]) -> Dict[str, Any]:
        """What one segment's (preprocessed) references contribute, e.g. their n-grams."""

    @abstractmethod
    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: Dict[str, Any]) -> List[Any]:
        """One segment's statistics from its preprocessed hypothesis and reference info."""

    def _cache_references(self, references: Streams) -> SequenceT[Any]:
        """One `_extract_reference_info` result per segment; sets `num_refs` (-1 if it varies)."""
        prefix = self.__class__.__name__
        segments, num_refs = _segments_from_streams(references, prefix=prefix)
        for k, stream in enumerate(references):
            for i, line in enumerate(stream):
                _check_line(line, k, i, prefix)
        cache = [self._extract_reference_info([self._preprocess_segment(x) for x in seg])
                 for seg in segments]
        self.num_refs = num_refs
        return cache

    def _references_for(self, hypotheses: SequenceT[str],
                        references: Optional[Streams]) -> SequenceT[Any]:
        """Reference info for the segments: from `references` (not stored) or from the cache."""
        prefix = self.__class__.__name__
        if not _no_references(references):
            _check_streams(references, len(hypotheses), prefix)
            return self._cache_references(references)  # type: ignore[arg-type]
        if not self._ref_cache:
            raise RuntimeError("No references provided and the cache is empty.")
        if len(self._ref_cache) != len(hypotheses):
            raise ValueError(f"{prefix}: {len(hypotheses)} hypotheses but the cached references "
                             f"have {len(self._ref_cache)} segments.")
        return self._ref_cache  # type: ignore[no-any-return]

    def _extract_corpus_statistics(self, hypotheses: SequenceT[str],
                                   references: Optional[Streams]) -> Any:
        """One list of statistics per segment, from `references` or, when None, the cache."""
        prefix = self.__class__.__name__
        ref_cache = self._references_for(hypotheses, references)
        stats = []
        tok_count = 0
        for i, (hyp, ref_kwargs) in enumerate(zip(hypotheses, ref_cache)):
            if not isinstance(hyp, str):
                raise TypeError(f"{prefix}: hypothesis {i} is {_what(hyp)}.")
            if not self._force and hyp.endswith(" ."):
                tok_count += 1
            stats.append(self._compute_segment_statistics(self._preprocess_segment(hyp),
                                                          ref_kwargs))
        if tok_count >= 100:
            self._warn_tokenized()
        return stats

    @staticmethod
    def _warn_tokenized() -> None:
        logger.warning("That's 100 lines that end in a tokenized period ('.')")
        logger.warning("It looks like you forgot to detokenize your test data, "
                       "which may hurt your score.")
        logger.warning("If you insist your data is detokenized, or don't care, you can "
                       "suppress this message with the `force` parameter.")

    # -- public ----------------------------------------------------------------------------------

    def sentence_score(self, hypothesis: str, references: SequenceT[Optional[str]]) -> Any:
        """The metric of one hypothesis against its references.

        :param hypothesis: One hypothesis string.
        :param references: Its references: a list of strings (None entries are skipped).
        :returns: The metric's score object.
        :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
        :raises ValueError: No reference.
        """
        self._check_sentence_score_args(hypothesis, references)
        stats = self._extract_corpus_statistics([hypothesis], [[ref] for ref in references])
        return self._aggregate_and_compute(stats)

    def corpus_score(self, hypotheses: SequenceT[str],
                     references: Optional[Streams],
                     n_bootstrap: int = 1) -> Any:
        """The metric of a corpus against reference streams.

        :param hypotheses: One string per segment.
        :param references: Reference streams (`references[k][i]` is the k-th reference of
            segment i), or None to use the references given to the constructor.
        :param n_bootstrap: If > 1, adds a 95% confidence interval from this many bootstrap
            resamples (seeded by `SACREBLEU_SEED`, as in sacreBLEU).
        :returns: The metric's score object.
        :raises TypeError: A string where a list belongs, a line that is not a string.
        :raises ValueError: An empty corpus, streams of different lengths.
        :raises RuntimeError: `references` is None and no references were given to the
            constructor.
        """
        self._check_corpus_score_args(hypotheses, references)
        stats = self._extract_corpus_statistics(hypotheses, references)
        score = self._aggregate_and_compute(stats)
        if n_bootstrap > 1:
            self.n_bootstrap = n_bootstrap
            self.seed, samples = self._bootstrap_resample(stats, n_bootstrap)
            score.estimate_ci(samples)
        return score

    def sentence_scores(self, hypotheses: SequenceT[str],
                        references: Optional[Streams] = None) -> Any:
        """The sentence score of every hypothesis against its segment's references, in one call:
        element i is `self.sentence_score(hypotheses[i], refs_of_i).score`.

        :param hypotheses: One string per segment.
        :param references: Reference streams as for `corpus_score`, or None for the
            references given to the constructor.
        :returns: A float64 numpy array of `len(hypotheses)` scores.
        """
        self._check_corpus_score_args(hypotheses, references)
        return self.segment_scores(self._extract_corpus_statistics(hypotheses, references))

    def _bootstrap_resample(self, stats: Any, n_samples: int) -> Tuple[str, List[Any]]:
        """(seed, scores of n_samples resampled corpora): sacreBLEU's `_bootstrap_resample`, the
        same RNG calls and float32 statistics, so the intervals are the same numbers (integer
        statistics are resampled in compiled code, with numpy's float32 sums where they could
        round)."""
        return resampling._bootstrap_resample(stats, self, n_samples)

    def get_signature(self) -> Signature:
        """The reproducibility signature of the metric's settings.

        :returns: The metric's :class:`Signature`.
        :raises ValueError: Nothing has been scored yet (the number of references is unknown).
        """
        return self._SIGNATURE_TYPE(self.__dict__)  # type: ignore[no-any-return]


class SegmentMeanMetric(Metric):
    """A metric whose corpus score is the mean of its segments' scores (ROUGE's aggregator,
    COMET, BLEURT, any neural metric), on the same pipeline as the corpus-statistics metrics.

    A segment's statistics row is its values (the names in `VALUES`; the first is the headline
    score) followed by a count, 1: the columns add exactly (`statistic_columns()`: "exact"
    floats, then an "int"), so the sums are the same floats in any order and any partitioning,
    and `_compute_score_from_stats(sums)` is the mean of each value, `math.fsum(values) / n`.
    Everything that sums rows (bootstrap intervals, paired tests, the report's buckets, the
    engines) then works for a segment-mean metric as for BLEU, exactly.

    A subclass computes a segment's values with sacreBLEU's hooks (`_preprocess_segment`,
    `_extract_reference_info`, `_compute_segment_statistics` returning the values), or all
    segments at once by overriding `_segment_values(hypotheses, references)` (a kernel's batch);
    `_score_from_means(means, n)` makes the score object (default: a plain `Score` of the
    headline mean).

    >>> from cybleu.metrics import SegmentMeanMetric
    >>> class Length(SegmentMeanMetric):
    ...     VALUES = ("words", "ratio")
    ...     def _preprocess_segment(self, sent): return sent
    ...     def _extract_reference_info(self, refs): return {"n": len(refs[0].split())}
    ...     def _compute_segment_statistics(self, hyp, info):
    ...         return [len(hyp.split()), len(hyp.split()) / info["n"]]
    >>> metric = Length()
    >>> metric.corpus_score(["a b", "a b c d"], [["a b c d", "a b"]]).score
    3.0
    >>> metric._extract_corpus_statistics(["a b", "a b c d"], [["a b c d", "a b"]])
    [[2, 0.5, 1], [4, 2.0, 1]]
    """

    aggregation = "mean"
    #: The names of a segment's values, in row order; the first is the headline score.
    VALUES: Tuple[str, ...] = ("score",)

    def statistic_columns(self) -> Any:
        """Each of `VALUES` as an exactly added float, then the segment count.

        :returns: A tuple of Columns.
        """
        return tuple(Column(name, "exact") for name in self.VALUES) + (Column("count", "int"),)

    def _segment_values(self, hypotheses: SequenceT[str], references: Optional[Streams]) -> Any:
        """One sequence of values per segment (the `VALUES`), by sacreBLEU's hooks."""
        return super()._extract_corpus_statistics(hypotheses, references)

    def _extract_corpus_statistics(self, hypotheses: SequenceT[str],
                                   references: Optional[Streams]) -> Any:
        """One row per segment: its values, then 1 (the segment count column)."""
        width = len(self.VALUES)
        rows = []
        for i, values in enumerate(self._segment_values(hypotheses, references)):
            row = list(values)
            if len(row) != width:
                raise ValueError(f"{self.label}: segment {i} has {len(row)} values, not "
                                 f"{width} ({', '.join(self.VALUES)})")
            row.append(1)
            rows.append(row)
        return rows

    def _aggregate_and_compute(self, stats: List[List[Any]]) -> Any:
        return self._compute_score_from_stats(sum_rows(stats, self.statistic_columns()))

    def _compute_score_from_stats(self, stats: SequenceT[Any]) -> Any:
        """The score of summed rows: each value's mean over the `stats[-1]` segments."""
        n = stats[-1]
        if not n:
            raise ValueError(f"{self.label}: no segments: the corpus is empty.")
        return self._score_from_means([float(v) / n for v in stats[:-1]], int(n))

    def _score_from_means(self, means: List[float], n: int) -> Any:
        """The score object of the values' means over n segments (default: the headline's)."""
        return Score(self.label, means[0])

    def segment_scores(self, stats: Any) -> Any:
        if type(self)._score_from_means is not SegmentMeanMetric._score_from_means \
                or type(self)._compute_score_from_stats \
                is not SegmentMeanMetric._compute_score_from_stats:
            return super().segment_scores(stats)
        import numpy as np
        rows = _rows_of(stats)
        if not rows:
            return np.zeros(0, dtype=np.float64)
        table = np.array(rows, dtype=np.float64)
        return table[:, 0] / table[:, -1]  # a segment's mean of itself: value / 1

