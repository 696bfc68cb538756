"""Make code that imports sacreBLEU or nltk faster without editing it::

    import cybleu
    cybleu.patch_sacrebleu()          # before the code that scores: evaluate, LM harnesses, fairseq
    ...
    cybleu.unpatch_sacrebleu()

or for the duration of a block::

    with cybleu.patched("sacrebleu", "nltk"):
        ...

The pattern of scikit-learn-intelex's `patch_sklearn`: the installed library keeps its classes and
functions, and the patch swaps the hot step for cybleu's, in this process only.

sacreBLEU: `BLEU`, `CHRF` and `TER` get their per-segment statistics from cybleu's kernels
(`_extract_corpus_statistics` and `_cache_references`, the tokenizing and n-gram counting (TER:
the shift search and edit distances) behind `corpus_score`, `sentence_score`, `corpus_bleu`,
`sentence_bleu`, `corpus_chrf`, `corpus_ter`, `sentence_ter`, significance tests and the command
line; the column sum of `_aggregate_and_compute`, and in `corpus_score` without a bootstrap the
kernel's column sums instead of a row per segment); everything else stays sacreBLEU's own code:
its argument checks, its float arithmetic (`compute_bleu`, chrF's f-score, TER's ratio), its
scores, signatures, warnings and logger. So the numbers are sacreBLEU's bit
for bit by construction, and sacreBLEU's quirks stay (streams of different lengths truncated,
`None` references dropped). sacreBLEU's tokenizers 'none', '13a', 'intl', 'zh' and 'char' run in
the core; any other tokenizer (MeCab, sentencepiece, a custom one) runs as sacreBLEU calls it
(`_preprocess_segment`) and the core counts its output. TER takes the kernel when the metric's
tokenizer is sacreBLEU's own `TercomTokenizer` (its settings are read from the tokenizer, as
sacreBLEU uses them); another tokenizer runs sacreBLEU's code. Anything the fast path does not take
(a subclass that overrides how n-grams are counted, an input the core rejects) runs sacreBLEU's
unpatched method, so errors are sacreBLEU's own. sacreBLEU's corpus_bleu and corpus_ter make a
new metric at every call; the patch keeps the last few reference sets (BLEU with a core tokenizer,
TER) tokenized, keyed on their strings, so an evaluation loop that scores against the same
references again does not tokenize them again (unpatch_sacrebleu() drops them).

nltk: `nltk.translate.bleu_score.corpus_bleu` / `sentence_bleu` (and `nltk.translate.bleu`) become
cybleu.nltk's, which return nltk's results (see cybleu.nltk); nltk's `SmoothingFunction` methods
are mapped to cybleu's with the same epsilon, alpha and k.

Functions and classes imported by name before patching (`from sacrebleu import corpus_bleu` is fine:
it calls the patched class; `from nltk.translate.bleu_score import corpus_bleu` before
`patch_nltk()` keeps nltk's function) are as they were: patch first, as with patch_sklearn.
"""
import collections
import contextlib
import copy
import functools
import itertools
import logging
import operator
import threading
from collections.abc import Sequence
from importlib import import_module
from types import MethodType
from typing import Any, Iterator

from . import _backend
from ._backend import core

__all__ = ["patch_sacrebleu", "unpatch_sacrebleu", "patch_nltk", "unpatch_nltk",
           "patch_rouge_score", "unpatch_rouge_score", "patched", "is_patched"]

_lock = threading.RLock()
# library name -> [(owner, attribute, original value)], in the order they were replaced
_active = {}
_INHERITED = object()   # the attribute came from a base class: unpatching deletes ours


def _install(library: Any, replacements: Any) -> Any:
    """Replace each owner.attribute, remembering the original (idempotent per library)."""
    with _lock:
        if library in _active:
            return
        saved = []
        for owner, name, value in replacements:
            saved.append((owner, name, owner.__dict__.get(name, _INHERITED)))
            setattr(owner, name, value)
        _active[library] = saved


def _uninstall(library: Any) -> Any:
    with _lock:
        for owner, name, original in reversed(_active.pop(library, ())):
            if original is _INHERITED:
                delattr(owner, name)
            else:
                setattr(owner, name, original)


def is_patched(library: str = "sacrebleu") -> bool:
    """Whether `library` is routed through cybleu now.

    :param library: `'sacrebleu'` (default), `'nltk'` or `'rouge_score'`.
    :returns: True between `patch_<library>()` and `unpatch_<library>()`.

    >>> import cybleu
    >>> cybleu.is_patched("sacrebleu")
    False
    """
    return library in _active


# -- logging ------------------------------------------------------------------------------------

class _SacrebleuLevel(logging.Filter):
    """While sacreBLEU is patched, cybleu's own messages obey the `sacrebleu` logger's level, so
    code that quiets sacreBLEU quiets cybleu too."""

    def filter(self, record: Any) -> Any:
        return logging.getLogger("sacrebleu").isEnabledFor(record.levelno)


_level_filter = _SacrebleuLevel()


# -- sacreBLEU's metrics ------------------------------------------------------------------------

def _raw(cls, name: Any) -> Any:
    """The attribute `name` as the first class in cls's MRO defines it (staticmethods unwrapped
    not), or None."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


# a kept reference set: the kernel's prepared references, the number of segments and sacreBLEU's
# num_refs for them
_Kept = collections.namedtuple("_Kept", "payload size num_refs")


class _ReferenceMemo:
    """The last few reference sets patched metrics scored against, prepared for the kernel
    (tokenized once). sacreBLEU's corpus_bleu and corpus_ter build a new metric object at every
    call, so without this an evaluation loop tokenizes the same references at every call
    (evaluate's sacrebleu metric, LM harnesses). Keyed on the reference streams' strings, not on
    the objects (evaluate hands over fresh copies at every call); a hit makes no per-segment
    objects at all."""

    SIZE = 4
    # a reference set this large is not kept (memory); its statistics are computed as usual
    MAX_SEGMENTS = 200_000

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: Any = collections.OrderedDict()

    def lookup(self, route: Any, streams: Any) -> Any:
        """(key, the _Kept entry or None); key None: these streams are not to be kept."""
        if route.memo_key is None or not all(type(s) in (list, tuple) for s in streams) \
                or max(map(len, streams)) > self.MAX_SEGMENTS \
                or set(map(type, itertools.chain.from_iterable(streams))) - {str, type(None)}:
            return None, None   # a str subclass could define equality its own way
        key = (route.memo_key, tuple(map(tuple, streams)))
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
        return key, entry

    def keep(self, key: Any, route: Any, segments: Any, num_refs: Any) -> Any:
        entry = _Kept(route.prepare(segments), len(segments), num_refs)
        with self.lock:
            self.entries[key] = entry
            while len(self.entries) > self.SIZE:
                self.entries.popitem(last=False)
        return entry

    def clear(self) -> None:
        with self.lock:
            self.entries.clear()


_memo = _ReferenceMemo()


class _MetricPatch:
    """The replacements for one sacreBLEU metric class: its statistics come from cybleu's kernel,
    everything else is sacreBLEU's. Subclasses name the class and the hooks the kernel reproduces,
    and give a route (how a metric object's text reaches the kernel, or None for sacreBLEU's own
    code)."""

    module = name = None
    hooks = ()          # sacreBLEU's methods the kernel stands in for

    def __init__(self) -> None:
        try:
            cls = getattr(import_module(self.module), self.name)
        except ImportError:
            raise ImportError("patch_sacrebleu() needs sacreBLEU installed: pip install sacrebleu"
                              ) from None
        self.cls = cls
        self.logger = logging.getLogger("sacrebleu")
        self.originals = {name: _raw(cls, name) for name in self.hooks}
        # the unpatched methods (Metric's, for the ones the class inherits)
        self.extract = cls._extract_corpus_statistics
        self.cache = cls._cache_references
        self.aggregate = cls._aggregate_and_compute
        self.corpus = cls.corpus_score
        self.check = _raw(cls, "_check_corpus_score_args")
        self.installed = {}     # name -> the replacement patch_sacrebleu() installed

    def own_hooks(self, metric: Any) -> Any:
        cls, own = type(metric), metric.__dict__
        return all(_raw(cls, name) is func and name not in own
                   for name, func in self.originals.items())

    def route(self, metric: Any) -> Any:
        raise NotImplementedError

    def replacements(self) -> Any:
        patch = self

        def _extract_corpus_statistics(self, hypotheses: Any, references: Any) -> Any:
            return patch.extract_corpus_statistics(self, hypotheses, references)

        def _cache_references(self, references: Any) -> Any:
            return patch.cache_references(self, references)

        def _aggregate_and_compute(self, stats: Any) -> Any:
            return patch.aggregate_and_compute(self, stats)

        def corpus_score(self, hypotheses: Any, references: Any, n_bootstrap: int = 1) -> Any:
            return patch.corpus_score(self, hypotheses, references, n_bootstrap)

        out = [(self.cls, "_extract_corpus_statistics", _extract_corpus_statistics),
               (self.cls, "_cache_references", _cache_references),
               (self.cls, "_aggregate_and_compute", _aggregate_and_compute),
               (self.cls, "corpus_score", corpus_score)]
        for _, _, new in out:
            new.__wrapped__ = original = getattr(self.cls, new.__name__)
            new.__doc__ = original.__doc__
            new.__qualname__ = f"{self.name}.{new.__name__}"
        self.installed = {name: new for _, name, new in out}
        self.installed["_check_corpus_score_args"] = self.check
        return out

    # -- the replaced methods --

    def cache_references(self, metric: Any, references: Any) -> Any:
        route = self.route(metric)
        if route is None:
            return self.cache(metric, references)
        references = tuple(references)
        try:
            segments, num_refs = _segments(references)
            payload = route.prepare(segments)
        except (TypeError, ValueError, AttributeError):
            return self.cache(metric, references)
        metric.num_refs = num_refs
        return _CachedReferences(payload, len(segments), route.key, _snapshot(metric),
                                 references, self.cache)

    def corpus_score(self, metric: Any, hypotheses: Any, references: Any, n_bootstrap: Any) -> Any:
        # sacreBLEU's corpus_score keeps every segment's statistics for the bootstrap; without one
        # only their column sums are needed, which the kernel adds up as it goes: no list per
        # segment to build, sum in Python and have the garbage collector walk (with a large
        # process, as in evaluate's, a full collection costs more than scoring the corpus)
        cls, own = type(metric), metric.__dict__
        if not (type(n_bootstrap) is int and n_bootstrap <= 1
                and all(_raw(cls, name) is func and name not in own
                        for name, func in self.installed.items())):
            return self.corpus(metric, hypotheses, references, n_bootstrap)
        # sacreBLEU's check scans the hypotheses for None in a Python loop; when every one is an
        # exact str, the first alone gives the check the same answer
        checked = hypotheses
        if type(hypotheses) in (list, tuple) and hypotheses \
                and set(map(type, hypotheses)) == {str}:
            checked = hypotheses[:1]
        metric._check_corpus_score_args(checked, references)
        stats = self.extract_corpus_statistics(metric, hypotheses, references, totals=True)
        if type(stats) is _Totals:
            return metric._compute_score_from_stats(stats.values)
        return metric._aggregate_and_compute(stats)

    def extract_corpus_statistics(self, metric: Any, hypotheses: Any, references: Any,
                                  totals: bool = False) -> Any:
        """The per-segment rows, as sacreBLEU's method returns them; with totals, a _Totals of
        their column sums instead where the kernel can give them."""
        route = self.route(metric)
        if route is None:
            return self.extract(metric, hypotheses, references)
        key = kept = None
        if references:                  # sacreBLEU's test, with its errors for odd objects
            references = tuple(references)
            try:
                key, kept = _memo.lookup(route, references)
                if kept is None:
                    segments, num_refs = _segments(references)
                else:
                    segments, num_refs = None, kept.num_refs
            except (TypeError, ValueError, AttributeError):
                return self.extract(metric, hypotheses, references)
            cache, n_segments = None, len(segments) if kept is None else kept.size
        else:
            cache = metric._ref_cache
            if not (isinstance(cache, _CachedReferences) and cache.key == route.key):
                return self.extract(metric, hypotheses, references)
            n_segments = cache.size
        # sacreBLEU zips the hypotheses with the references, so the shorter one decides, but it
        # reads every reference: missing hypotheses are scored as '' and their rows dropped
        rest = iter(hypotheses)
        hyps = list(itertools.islice(rest, n_segments))
        try:
            # sacreBLEU's check for tokenized input (BLEU's; other metrics set _force)
            tokenized = 0 if metric._force else sum(map(str.endswith, hyps,
                                                        itertools.repeat(" .")))
            lines = route.lines(hyps) + [""] * (n_segments - len(hyps))
            if cache is not None:
                payload = cache.payload
            else:
                if kept is None and key is not None:
                    kept = _memo.keep(key, route, segments, num_refs)
                payload = None if kept is None else kept.payload
            # the sums hold only when every segment has its hypothesis (else rows are dropped)
            whole = totals and len(hyps) == n_segments > 0
            if payload is None:
                rows = (route.totals if whole else route.stats)(lines, segments)
            else:
                rows = (route.cached_totals if whole else route.cached_stats)(payload, lines)
        except (TypeError, ValueError, AttributeError):
            # sacreBLEU's own code decides what this input gives (usually its error)
            again = hypotheses if isinstance(hypotheses, Sequence) else itertools.chain(hyps, rest)
            return self.extract(metric, again, references)
        if not whole:
            del rows[len(hyps):]
        if cache is None:
            metric.num_refs = num_refs
        if tokenized >= 100:
            # sacreBLEU's messages, through its logger
            self.logger.warning("That's 100 lines that end in a tokenized period ('.')")
            self.logger.warning("It looks like you forgot to detokenize your test data, which "
                                "may hurt your score.")
            self.logger.warning("If you insist your data is detokenized, or don't care, you can "
                                "suppress this message with the `force` parameter.")
        return _Totals(rows) if whole else route.rows(rows)

    def aggregate_and_compute(self, metric: Any, stats: Any) -> Any:
        if type(stats) in (_SegmentRows, _TerRows) and len(stats) == stats.size > 0 \
                and _raw(type(metric), "_aggregate_and_compute") is _raw(
                    self.cls, "_aggregate_and_compute"):
            return metric._compute_score_from_stats(stats.total())
        return self.aggregate(metric, stats)


# the column sums of a corpus's segment statistics, as sacreBLEU's sum_of_lists gives them
_Totals = collections.namedtuple("_Totals", "values")


class _SegmentRows(list):
    """The per-segment statistics (a list of lists of ints, as sacreBLEU returns them) that also
    sum their columns in C: sacreBLEU's sum_of_lists is a Python loop over every number."""

    __slots__ = ("size",)

    def __init__(self, rows: Any) -> None:
        super().__init__(rows)
        self.size = len(rows)

    def total(self) -> Any:
        if self.size == 1:
            return self[0]      # sum_of_lists returns a single row itself
        # integers: sum() is exact and starts from int 0, as sum_of_lists does
        return list(map(sum, zip(*self)))


def _snapshot(metric: Any) -> Any:
    """The metric as it is now, for building sacreBLEU's own cache later: sacreBLEU tokenizes the
    references when it caches them, so a tokenizer assigned afterwards must not reach them."""
    try:
        return copy.copy(metric)
    except Exception:  # noqa: BLE001 - an object that cannot be copied: the metric itself
        return metric


def _segments(references: Any) -> Any:
    """sacreBLEU's view of reference streams: zip(*streams) (the shortest stream decides), None
    references dropped; and the number of references (-1 when it varies)."""
    if not any(None in stream for stream in references):
        segments = list(zip(*references))
        return segments, (len(references) if segments else -1)
    segments, counts = [], set()
    for refs in zip(*references):
        lines = [ref for ref in refs if ref is not None]
        counts.add(len(lines))
        segments.append(lines)
    return segments, (counts.pop() if len(counts) == 1 else -1)


class _CachedReferences:
    """A patched metric's reference cache: what cybleu's kernel needs (`payload`). sacreBLEU's
    unpatched code (after unpatch_sacrebleu(), or a subclass) sees sacreBLEU's own cache, built
    on first use; pickling stores sacreBLEU's cache."""

    __slots__ = ("payload", "size", "key", "_metric", "_references", "_build", "_built")

    def __init__(self, payload: Any, size: Any, key: Any, metric: Any, references: Any,
                 build: Any) -> None:
        self.payload, self.size, self.key = payload, size, key
        self._metric, self._references, self._build, self._built = metric, references, build, None

    def _sacrebleu(self) -> Any:
        if self._built is None:
            self._built = self._build(self._metric, self._references)
        return self._built

    def __len__(self) -> Any:
        return self.size

    def __iter__(self) -> Any:
        return iter(self._sacrebleu())

    def __getitem__(self, index: Any) -> Any:
        return self._sacrebleu()[index]

    def __reduce__(self) -> Any:
        return list, (self._sacrebleu(),)


# BLEU

def _core_tokenizer_names() -> Any:
    """sacreBLEU's tokenizer classes that cybleu's core reproduces -> the core's name for them."""
    from sacrebleu.tokenizers import (tokenizer_13a, tokenizer_char, tokenizer_intl,
                                      tokenizer_none, tokenizer_zh)
    return {tokenizer_none.NoneTokenizer: "none", tokenizer_13a.Tokenizer13a: "13a",
            tokenizer_intl.TokenizerV14International: "intl", tokenizer_zh.TokenizerZh: "zh",
            tokenizer_char.TokenizerChar: "char"}


class _BleuRoute:
    """How a sacreBLEU BLEU object's text reaches the core."""

    __slots__ = ("tokenize", "lowercase", "max_order", "segmenter")
    rows = _SegmentRows

    def __init__(self, tokenize: Any, lowercase: Any, max_order: Any, segmenter: Any) -> None:
        self.tokenize, self.lowercase, self.max_order = tokenize, lowercase, max_order
        # None: the core tokenizes; else sacreBLEU's _preprocess_segment of this metric, whose
        # output the core splits on whitespace ('none')
        self.segmenter = segmenter

    @property
    def memo_key(self) -> Any:
        # what makes prepared references interchangeable: the kernel (its backend) and the
        # settings; a metric's own segmenter is not in the key, so its references are not kept
        return None if self.segmenter is not None else (core,) + self.key

    @property
    def key(self) -> Any:
        return "bleu", self.tokenize, self.lowercase, self.max_order, self.segmenter is None

    def lines(self, lines: Any) -> Any:
        seg = self.segmenter
        return lines if seg is None else [seg(line) for line in lines]

    def segments(self, segments: Any) -> Any:
        seg = self.segmenter
        return segments if seg is None else [[seg(line) for line in refs] for refs in segments]

    def stats(self, lines: Any, segments: Any) -> Any:
        return core.segment_stats(lines, self.segments(segments), self.tokenize, self.lowercase,
                                  self.max_order)

    def totals(self, lines: Any, segments: Any) -> Any:
        return core.corpus_stats(lines, self.segments(segments), self.tokenize, self.lowercase,
                                 self.max_order)

    def prepare(self, segments: Any) -> Any:
        return core.RefSet(self.segments(segments), self.tokenize, self.lowercase,
                           self.max_order)

    def cached_stats(self, refset: Any, lines: Any) -> Any:
        return refset.segment_stats(lines)

    def cached_totals(self, refset: Any, lines: Any) -> Any:
        return refset.corpus_stats(lines)


class _BleuPatch(_MetricPatch):
    module, name = "sacrebleu.metrics.bleu", "BLEU"
    hooks = ("_extract_reference_info", "_compute_segment_statistics", "_get_closest_ref_len")

    def __init__(self) -> None:
        super().__init__()
        self.tokenizers = _core_tokenizer_names()
        self.preprocess = self.cls.__dict__["_preprocess_segment"]

    def route(self, metric: Any) -> Any:
        if not self.own_hooks(metric):
            return None
        order = getattr(metric, "max_ngram_order", None)
        if type(order) is not int or order < 1:
            return None
        if _raw(type(metric), "_preprocess_segment") is self.preprocess \
                and "_preprocess_segment" not in metric.__dict__:
            name = self.tokenizers.get(type(getattr(metric, "tokenizer", None)))
            if name is not None:
                return _BleuRoute(name, bool(metric.lowercase), order, None)
        return _BleuRoute("none", False, order, metric._preprocess_segment)


# chrF and chrF++

class _ChrfRoute:
    """A sacreBLEU CHRF object's settings as cybleu's chrF kernel takes them."""

    __slots__ = ("kernel", "char_order", "word_order", "whitespace", "lowercase", "beta", "eps")
    rows = _SegmentRows
    memo_key = None     # prepare() only checks the lines: nothing worth keeping

    def __init__(self, kernel: Any, metric: Any) -> None:
        self.kernel = kernel
        self.char_order, self.word_order = metric.char_order, metric.word_order
        self.whitespace, self.lowercase = bool(metric.whitespace), bool(metric.lowercase)
        # these two only pick the best of several references: read at scoring time
        self.beta, self.eps = metric.beta, bool(metric.eps_smoothing)

    @property
    def key(self) -> Any:
        return "chrf", self.char_order, self.word_order, self.whitespace, self.lowercase

    def lines(self, lines: Any) -> Any:
        return lines

    def stats(self, lines: Any, segments: Any) -> Any:
        return self.kernel.segment_stats(lines, segments, self.char_order, self.word_order,
                                         self.whitespace, self.lowercase, self.beta, self.eps)

    def totals(self, lines: Any, segments: Any) -> Any:
        return self.kernel.corpus_stats(lines, segments, self.char_order, self.word_order,
                                        self.whitespace, self.lowercase, self.beta, self.eps)

    def prepare(self, segments: Any) -> Any:
        # the kernel counts the reference lines again at scoring time (about as fast as reading
        # stored n-grams); check them now, as sacreBLEU reads them now
        for refs in segments:
            for ref in refs:
                if not isinstance(ref, str):
                    raise TypeError("not a string")
        return [list(refs) for refs in segments]

    def cached_stats(self, segments: Any, lines: Any) -> Any:
        return self.stats(lines, segments)

    def cached_totals(self, segments: Any, lines: Any) -> Any:
        return self.totals(lines, segments)


class _ChrfPatch(_MetricPatch):
    module, name = "sacrebleu.metrics.chrf", "CHRF"
    hooks = ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics",
             "_remove_punctuation", "_get_match_statistics", "_compute_f_score")

    def __init__(self) -> None:
        super().__init__()
        self.puncts = set(self.cls._PUNCTS)

    def route(self, metric: Any) -> Any:
        if not self.own_hooks(metric):
            return None
        c, w, beta = metric.char_order, metric.word_order, metric.beta
        if not (type(c) is int and type(w) is int and c >= 0 and w >= 0
                and metric.order == c + w >= 1 and type(beta) in (int, float)
                and metric._PUNCTS == self.puncts):
            return None      # e.g. a numpy beta makes sacreBLEU's arithmetic numpy's
        return _ChrfRoute(_chrf_kernel(), metric)


_chrf = None


def _chrf_kernel() -> Any:
    """cybleu's chrF kernel of the live backend (compiled, or its twin)."""
    global _chrf
    if _chrf is None:
        _chrf = _backend.module("chrf")
    return _chrf


# TER

class _TerRows(_SegmentRows):
    """TER's per-segment [edits, average reference length] rows: the lengths are floats, which
    sacreBLEU's sum_of_lists adds one after the other from its start value (numpy's pairwise sum
    could round differently)."""

    __slots__ = ()

    def total(self) -> Any:
        if self.size == 1:
            return self[0]
        start = type(self[0][0])(0.0)     # sum_of_lists' start value: the first cell's type
        return [functools.reduce(operator.add, column, start) for column in zip(*self)]


class _TerRoute:
    """A sacreBLEU TER object's tokenizer settings as cybleu's TER kernel takes them: the kernel
    tokenizes (references twice, as sacreBLEU's pipeline does), searches the shifts and computes
    the edit distances."""

    __slots__ = ("kernel", "flags")
    rows = _TerRows

    def __init__(self, kernel: Any, flags: Any) -> None:
        self.kernel, self.flags = kernel, flags

    @property
    def key(self) -> Any:
        return ("ter",) + self.flags

    @property
    def memo_key(self) -> Any:
        return (self.kernel,) + self.key

    def lines(self, lines: Any) -> Any:
        return lines

    def stats(self, lines: Any, segments: Any) -> Any:
        return self.kernel.segment_stats(lines, segments, *self.flags)

    def totals(self, lines: Any, segments: Any) -> Any:
        return self.kernel.corpus_stats(lines, segments, *self.flags)

    def prepare(self, segments: Any) -> Any:
        return self.kernel.RefSet(segments, *self.flags)

    def cached_stats(self, refset: Any, lines: Any) -> Any:
        return refset.segment_stats(lines)

    def cached_totals(self, refset: Any, lines: Any) -> Any:
        return refset.corpus_stats(lines)


class _TerPatch(_MetricPatch):
    module, name = "sacrebleu.metrics.ter", "TER"
    hooks = ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics")

    def __init__(self) -> None:
        super().__init__()
        from sacrebleu.metrics import ter
        from sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer
        self.ter_module = ter
        self.edit_rate = ter.translation_edit_rate
        self.tokenizer = TercomTokenizer
        self.tokenize = TercomTokenizer.__dict__["__call__"]

    def route(self, metric: Any) -> Any:
        tok = getattr(metric, "tokenizer", None)
        if not (type(tok) is self.tokenizer and self.own_hooks(metric)
                and self.tokenizer.__dict__.get("__call__") is self.tokenize
                and self.ter_module.translation_edit_rate is self.edit_rate):
            return None
        try:
            # the tokenizer tests these for truth
            flags = (bool(tok._normalized), bool(tok._no_punct), bool(tok._asian_support),
                     bool(tok._case_sensitive))
        except Exception:  # noqa: BLE001 - sacreBLEU's own code meets it, and its error
            return None
        return _TerRoute(_ter_kernel(), flags)


_ter = None


def _ter_kernel() -> Any:
    """cybleu's TER kernel of the live backend (compiled, or its twin)."""
    global _ter
    if _ter is None:
        _ter = _backend.module("ter")
    return _ter


_patches = {}
# sacreBLEU's metrics cybleu routes, by name
_PATCH_TYPES = {"bleu": _BleuPatch, "chrf": _ChrfPatch, "ter": _TerPatch}


def _metric_patches() -> Any:
    """Every sacreBLEU metric cybleu can route, with its replacements."""
    for name, kind in _PATCH_TYPES.items():
        if name not in _patches:
            _patches[name] = kind()
    return {name: patch.replacements() for name, patch in _patches.items()}


def patch_sacrebleu() -> None:
    """Route the installed sacreBLEU's BLEU, chrF and TER through cybleu's kernels, in this
    process, until :func:`unpatch_sacrebleu`.

    Code that calls sacreBLEU (`sacrebleu.corpus_bleu`, `BLEU().corpus_score`, the significance
    tests, Hugging Face evaluate's `sacrebleu`, `chrf` and `ter` metric scripts, evaluation
    harnesses) gets its per-segment statistics from cybleu; everything else stays sacreBLEU's
    own code (argument checks, float arithmetic, signatures, warnings), so the numbers are
    sacreBLEU's bit for bit. Calling it again while patched does nothing.

    :returns: None.
    :raises ImportError: sacreBLEU is not installed.

    >>> import sacrebleu, cybleu
    >>> cybleu.patch_sacrebleu()
    >>> print(sacrebleu.corpus_bleu(["The cat sat on the mat."], [["The cat is on the mat."]]))
    BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    >>> cybleu.unpatch_sacrebleu()
    """
    with _lock:
        if "sacrebleu" in _active:
            return
        replacements = [r for patches in _metric_patches().values() for r in patches]
        _install("sacrebleu", replacements)
        logging.getLogger("cybleu").addFilter(_level_filter)


def unpatch_sacrebleu() -> None:
    """Give sacreBLEU its own methods back (and forget the reference sets the patch kept).
    Does nothing when sacreBLEU is not patched.

    :returns: None.

    >>> import cybleu
    >>> cybleu.patch_sacrebleu(); cybleu.unpatch_sacrebleu()
    >>> cybleu.is_patched()
    False
    """
    with _lock:
        _uninstall("sacrebleu")
        _memo.clear()
        logging.getLogger("cybleu").removeFilter(_level_filter)


# -- nltk -----------------------------------------------------------------------------------------

def _nltk_modules() -> Any:
    try:
        import nltk.translate
        from nltk.translate import bleu_score
    except ImportError:
        raise ImportError("patch_nltk() needs nltk installed: pip install nltk") from None
    return nltk.translate, bleu_score


class _NltkPatch:
    def __init__(self) -> None:
        from . import nltk as fast
        self.translate, self.bleu_score = _nltk_modules()
        self.fast = fast
        smoothing = self.bleu_score.SmoothingFunction
        self.smoothing_class = smoothing
        self.methods = {getattr(smoothing, f"method{i}"): f"method{i}" for i in range(8)}
        self._mapped = {}

    def smoothing(self, function: Any) -> Any:
        """nltk's SmoothingFunction().methodN -> cybleu's, with the same parameters (read at
        each call, as nltk reads them); anything else unchanged."""
        if type(function) is not MethodType or type(function.__self__) is not self.smoothing_class:
            return function
        name = self.methods.get(function.__func__)
        if name is None:
            return function
        owner = function.__self__
        key = (name, owner.epsilon, owner.alpha, owner.k)
        try:
            return self._mapped[key]
        except KeyError:
            pass
        except TypeError:   # unhashable parameters: no caching
            return getattr(self.fast.SmoothingFunction(owner.epsilon, owner.alpha, owner.k), name)
        if len(self._mapped) > 64:
            self._mapped.clear()
        # one object per parameter set, so cybleu.nltk's per-function cache sees the same one
        mapped = self._mapped[key] = getattr(
            self.fast.SmoothingFunction(owner.epsilon, owner.alpha, owner.k), name)
        return mapped

    def replacements(self) -> Any:
        patch, fast, default = self, self.fast, self.bleu_score.sentence_bleu.__defaults__[0]

        def corpus_bleu(list_of_references: Any, hypotheses: Any, weights: Any = default,
                        smoothing_function: Any = None, auto_reweigh: Any = False) -> Any:
            return fast.corpus_bleu(list_of_references, hypotheses, weights,
                                    patch.smoothing(smoothing_function), auto_reweigh)

        def sentence_bleu(references: Any, hypothesis: Any, weights: Any = default,
                          smoothing_function: Any = None, auto_reweigh: Any = False) -> Any:
            return fast.sentence_bleu(references, hypothesis, weights,
                                      patch.smoothing(smoothing_function), auto_reweigh)

        for new, old in ((corpus_bleu, self.bleu_score.corpus_bleu),
                         (sentence_bleu, self.bleu_score.sentence_bleu)):
            new.__doc__, new.__wrapped__ = old.__doc__, old
            new.__module__ = old.__module__
        out = [(self.bleu_score, "corpus_bleu", corpus_bleu),
               (self.bleu_score, "sentence_bleu", sentence_bleu)]
        if getattr(self.translate, "bleu", None) is self.bleu_score.sentence_bleu:
            out.append((self.translate, "bleu", sentence_bleu))
        return out


def patch_nltk() -> None:
    """Route `nltk.translate.bleu_score.corpus_bleu` and `sentence_bleu` (and
    `nltk.translate.bleu`) through :mod:`cybleu.nltk`, in this process, until
    :func:`unpatch_nltk`. nltk's `SmoothingFunction` methods are mapped to cybleu's with the
    same epsilon, alpha and k; the results are nltk's.

    Patch before the code imports the functions by name: `from nltk.translate.bleu_score import
    corpus_bleu` made earlier keeps nltk's function.

    :returns: None.
    :raises ImportError: nltk is not installed.

    >>> import cybleu
    >>> from nltk.translate import bleu_score
    >>> cybleu.patch_nltk()
    >>> bleu_score.sentence_bleu([["the", "cat", "is", "on", "the", "mat"]],
    ...                          ["the", "cat", "sat", "on", "the", "mat"],
    ...                          smoothing_function=bleu_score.SmoothingFunction().method1)
    0.25406637407730737
    >>> cybleu.unpatch_nltk()
    """
    with _lock:
        if "nltk" not in _active:
            _install("nltk", _NltkPatch().replacements())


def unpatch_nltk() -> None:
    """Give nltk its own functions back. Does nothing when nltk is not patched.

    :returns: None.

    >>> import cybleu
    >>> cybleu.unpatch_nltk()
    >>> cybleu.is_patched("nltk")
    False
    """
    _uninstall("nltk")


# -- rouge-score ----------------------------------------------------------------------------------

def patch_rouge_score() -> None:
    """Route the installed rouge-score (`rouge_score.rouge_scorer.RougeScorer.score` and
    `score_multi`, `scoring.BootstrapAggregator`'s resampling, `tokenize.tokenize`) through
    cybleu's ROUGE kernel, in this process, until :func:`unpatch_rouge_score`. Code that calls
    rouge-score, Hugging Face evaluate's `rouge` metric included, keeps its own classes and gets
    rouge-score's numbers bit for bit (the aggregator draws from numpy's global random state as
    rouge-score does). A tokenizer of the user's runs rouge-score's own code.

    :returns: None.
    :raises ImportError: rouge-score is not installed.

    >>> import cybleu
    >>> from rouge_score import rouge_scorer
    >>> cybleu.patch_rouge_score()
    >>> rouge_scorer.RougeScorer(["rouge1"]).score("the cat sat", "the cat ran")["rouge1"]
    Score(precision=0.6666666666666666, recall=0.6666666666666666, fmeasure=0.6666666666666666)
    >>> cybleu.unpatch_rouge_score()
    """
    with _lock:
        if "rouge_score" not in _active:
            from .rouge_score._patch import replacements
            _install("rouge_score", replacements())


def unpatch_rouge_score() -> None:
    """Give rouge-score its own methods back. Does nothing when it is not patched.

    :returns: None.

    >>> import cybleu
    >>> cybleu.unpatch_rouge_score()
    >>> cybleu.is_patched("rouge_score")
    False
    """
    _uninstall("rouge_score")


# -- all ------------------------------------------------------------------------------------------

_PATCHERS = {"sacrebleu": (patch_sacrebleu, unpatch_sacrebleu), "nltk": (patch_nltk, unpatch_nltk),
             "rouge_score": (patch_rouge_score, unpatch_rouge_score)}


@contextlib.contextmanager
def patched(*libraries: str) -> Iterator[None]:
    """A context manager that patches the libraries for the duration of a `with` block; what was
    patched on entry stays patched on exit.

    :param libraries: `'sacrebleu'`, `'nltk'` and/or `'rouge_score'` (none: sacreBLEU).
    :returns: A context manager.
    :raises ValueError: An unknown library name.
    :raises ImportError: A library to patch is not installed.

    >>> import sacrebleu, cybleu
    >>> with cybleu.patched():
    ...     print(cybleu.is_patched(), sacrebleu.corpus_bleu(["a b c d"], [["a b c d"]]).score)
    True 100.00000000000004
    >>> cybleu.is_patched()
    False
    """
    libraries = libraries or ("sacrebleu",)
    for name in libraries:
        if name not in _PATCHERS:
            raise ValueError(f"cannot patch {name!r}; choose from {', '.join(_PATCHERS)}")
    done = []
    try:
        for name in libraries:
            if not is_patched(name):
                _PATCHERS[name][0]()
                done.append(name)
        yield
    finally:
        for name in reversed(done):
            _PATCHERS[name][1]()
