"""BLEU (Papineni et al., 2002) with sacreBLEU 2.6.0's interface and results.

Every hook of sacreBLEU's pipeline is here with sacreBLEU's semantics (`_preprocess_segment`,
`_extract_reference_info`, `_compute_segment_statistics`, ...). When the hooks are BLEU's own, the
compiled core answers the same calls (tokenize, count and sum without a Python object per n-gram);
a subclass or instance that overrides a hook gets the hooks, as in sacreBLEU.
`bleu_math.bleu_from_stats` turns statistics into a score for both.
"""
from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Sequence
from importlib import import_module

from .._scoring import bleu as bleu_math
from .._backend import core
from ..tokenizers import registry
from .._scoring.bleu import bp_curve, sum_of_lists
from .._statistics.columns import Column
from .base import (PERCENT_BUCKETS, Metric, Score, Signature, _check_hypotheses,
                   _explain_type_error, _no_references, _segments_from_streams)
from .helpers import extract_all_word_ngrams

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence as SequenceT, Tuple, Union

    from .base import Streams

logger = logging.getLogger("cybleu")

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "MAX_NGRAM_ORDER", "BANDS"]

#: The default maximum n-gram order of BLEU (4).
MAX_NGRAM_ORDER = bleu_math.MAX_NGRAM_ORDER

# -- tokenizer names: the one place BLEU resolves them ------------------------------------------
# sacreBLEU's name -> "module.Class" under cybleu.tokenizers (from the registry); imported when
# used, since the MeCab and sentencepiece ones need optional packages. Code that adds a name by
# patching `_get_tokenizer` or `_TOKENIZERS` works as with sacreBLEU.
_TOKENIZERS = {name: path for name, (path, _) in registry.TOKENIZERS.items()}
# the compiled core tokenizes these itself, code point by code point; any other tokenizer object
# (MeCab, sentencepiece, sacreBLEU's own classes, a user's) segments in Python and hands the core
# its output under 'none'
_CORE_TOKENIZERS = registry.CORE_NAMES
_TOKENIZERS_BUILTIN = dict(_TOKENIZERS)   # the classes behind _CORE_TOKENIZERS, whatever is patched
_CORE_MODES: Dict[type, str] = {}
_LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


def _get_tokenizer(name: str) -> Any:
    """The tokenizer class of sacreBLEU's tokenizer `name` (KeyError when unknown)."""
    module_name, class_name = _TOKENIZERS[name].rsplit(".", 1)
    return getattr(import_module(f"..tokenizers.{module_name}", __package__), class_name)


def _core_mode(tokenizer: Any) -> Optional[str]:
    """The core's name for this tokenizer object when the core tokenizes exactly as it does (our
    own class, not a subclass), else None."""
    if not _CORE_MODES:
        for name in _CORE_TOKENIZERS:
            module_name, class_name = _TOKENIZERS_BUILTIN[name].rsplit(".", 1)
            cls = getattr(import_module(f"..tokenizers.{module_name}", __package__), class_name)
            _CORE_MODES[cls] = name
    return _CORE_MODES.get(type(tokenizer))


def _plan(tokenizer: Any) -> Tuple[str, Any]:
    """(core tokenizer name, Python segmenter or None) for a tokenizer object."""
    mode = _core_mode(tokenizer)
    return (mode, None) if mode is not None else ("none", tokenizer)


def _segment(lines: SequenceT[Any], segmenter: Any, lowercase: bool) -> SequenceT[Any]:
    """Lines as the core should see them: unchanged when the core tokenizes; else sacreBLEU's
    preprocessing (lowercase, rstrip) and the segmenter's output, which the core splits under
    'none'. Non-strings pass through for the core to reject."""
    if segmenter is None:
        return lines
    return [segmenter((line.lower() if lowercase else line).rstrip()) if isinstance(line, str)
            else line for line in lines]


def _segment_refs(segments: SequenceT[SequenceT[Any]], segmenter: Any,
                  lowercase: bool) -> SequenceT[SequenceT[Any]]:
    if segmenter is None:
        return segments
    flat = _segment([ref for seg in segments for ref in seg], segmenter, lowercase)
    out, start = [], 0
    for seg in segments:
        out.append(flat[start:start + len(seg)])
        start += len(seg)
    return out


def _reference_info(refs: SequenceT[str], max_order: int) -> Dict[str, Any]:
    """sacreBLEU's BLEU._extract_reference_info: the n-grams of the (preprocessed) references with
    the largest count of each, and their lengths (ref_ngrams is None without a reference)."""
    ngrams: "Optional[Counter[Tuple[str, ...]]]" = None
    ref_lens = []
    for ref in refs:
        this, ref_len = extract_all_word_ngrams(ref, 1, max_order)
        ref_lens.append(ref_len)
        if ngrams is None:
            ngrams = this
        else:
            for gram, count in this.items():
                ngrams[gram] = max(ngrams[gram], count)
    return {"ref_ngrams": ngrams, "ref_lens": ref_lens}


class _BLEURefCache(Sequence):  # type: ignore[type-arg]
    """What `BLEU._cache_references` returns: sacreBLEU's per-segment sequence of
    `{'ref_ngrams': Counter, 'ref_lens': [...]}`, each built when read, with the core's reference
    set inside for scoring. Pickles as the reference lines and settings (the core's set is built
    again on loading)."""

    def __init__(self, segments: List[SequenceT[str]], tokenizer: Any, lowercase: bool,
                 max_order: int) -> None:
        self.segments = segments
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.max_order = max_order
        self._build()

    def _build(self) -> None:
        mode, segmenter = _plan(self.tokenizer)
        self.mode, self.segmenter = mode, segmenter
        self.refset = core.RefSet(_segment_refs(self.segments, segmenter, self.lowercase), mode,
                                  self.lowercase and segmenter is None, self.max_order,
                                  reuse=True)

    def serves(self, tokenizer: Any, lowercase: bool, max_order: int) -> bool:
        """Whether scoring against these references with these settings is what sacreBLEU does
        (else the metric runs its hooks on the per-segment dicts, as sacreBLEU would)."""
        mode, segmenter = _plan(tokenizer)
        return (mode == self.mode and segmenter is self.segmenter
                and bool(lowercase) == bool(self.lowercase) and max_order == self.max_order)

    def _info(self, index: int) -> Dict[str, Any]:
        tok, lower = self.tokenizer, self.lowercase
        return _reference_info([tok((r.lower() if lower else r).rstrip())
                                for r in self.segments[index]], self.max_order)

    def __len__(self) -> int:
        return len(self.segments)

    def __getitem__(self, index: Union[int, slice]) -> Any:  # a dict, or a list for a slice
        if isinstance(index, slice):
            return [self._info(i) for i in range(*index.indices(len(self.segments)))]
        n = len(self.segments)
        i = index + n if index < 0 else index
        if not 0 <= i < n:
            raise IndexError("reference cache index out of range")
        return self._info(i)

    def __getstate__(self) -> Dict[str, Any]:
        return {"segments": self.segments, "tokenizer": self.tokenizer,
                "lowercase": self.lowercase, "max_order": self.max_order}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._build()

    def __repr__(self) -> str:
        return f"<BLEU reference cache: {len(self.segments)} segments>"


# -- how corpus BLEU reads: the one source of the report's and the notebook's bands ---------------

#: Google Cloud Translation's reading of corpus BLEU ("a rough guideline"): (low edge, high edge,
#: the reading, a short label, a colour), the last band open above.
BANDS = (
    (0, 10, "Almost useless", "useless", "#d1242f"),
    (10, 20, "Hard to get the gist", "hard", "#e16f24"),
    (20, 30, "The gist is clear, but has significant grammatical errors", "gist", "#d4a72c"),
    (30, 40, "Understandable to good translations", "good", "#9bb44d"),
    (40, 50, "High quality translations", "high", "#4ac26b"),
    (50, 60, "Very high quality, adequate, and fluent translations", "very high", "#2da44e"),
    (60, 100, "Quality often better than human", "beyond", "#116329"),
)
#: a BLEU is read on the corpus bands only with at least this many reference tokens
BAND_MIN_REF_TOKENS = 1000
_BANDS_CAVEAT = (
    "They are Google Cloud Translation\u2019s \u201crough guideline\u201d for corpus BLEU. How "
    "high a score can go depends on the language pair, the test set, the references (their number "
    "and style) and the tokenization, so scores are comparable only on the same test set, "
    "language pair and signature. The bands describe a whole test set: BLEU of a single sentence "
    "says little, and no segment is coloured by band anywhere in this report.")


def _band_of(score: float) -> int:
    """The index in BANDS of a corpus BLEU score (the last band takes everything above)."""
    for k, band in enumerate(BANDS):
        if score < band[1] or k == len(BANDS) - 1:
            return k
    return len(BANDS) - 1


def _band_label(k: int) -> str:
    lo, hi = BANDS[k][:2]
    return f"{lo}+" if k == len(BANDS) - 1 else f"{lo}\u2013{hi - 1}"


class BLEUSignature(Signature):
    """BLEU's reproducibility signature: sacreBLEU's fields, with cybleu's version.

    `nrefs` (references per segment, `var` when it varies), `case` (`mixed` or `lc`), `eff`
    (effective order), `tok` (tokenizer), `smooth` (method, with its value for floor and add-k),
    `version` (`cybleu-<version>`). Made by :meth:`BLEU.get_signature`.

    :param args: The metric's attributes (`metric.__dict__`).

    >>> from cybleu.metrics import BLEU
    >>> bleu = BLEU(smooth_method="floor", lowercase=True)
    >>> _ = bleu.corpus_score(["a b c"], [["a b c"], ["a b d"]])
    >>> print(bleu.get_signature())
    nrefs:2|case:lc|eff:no|tok:13a|smooth:floor[0.10]|version:cybleu-...
    """

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"case": "c", "eff": "e", "tok": "tok", "smooth": "s"})
        smooth = args["smooth_method"]
        default = BLEU.SMOOTH_DEFAULTS[smooth]
        if default is not None:
            value = args["smooth_value"]
            smooth += f"[{(default if value is None else value):.2f}]"
        self.info.update({
            "case": "lc" if args["lowercase"] else "mixed",
            "eff": "yes" if args["effective_order"] else "no",
            "tok": args["tokenizer_signature"],
            "smooth": smooth,
        })


class BLEUScore(Score):
    """A BLEU result, as sacreBLEU's `BLEUScore`.

    :param score: BLEU (0-100).
    :param counts: Matching (clipped) n-grams per order, summed over the corpus.
    :param totals: Hypothesis n-grams per order.
    :param precisions: `100 * counts / totals` per order, after smoothing.
    :param bp: The brevity penalty (1.0 when the hypotheses are longer than the references).
    :param sys_len: Hypothesis tokens.
    :param ref_len: Effective reference length: per segment the reference length closest to the
        hypothesis's (the shorter on a tie), summed.

    `ratio` is `sys_len / ref_len`. `str(score)` is sacreBLEU's one line:
    `BLEU = <score> <p1>/<p2>/<p3>/<p4> (BP = <bp> ratio = <ratio> hyp_len = <sys_len>
    ref_len = <ref_len>)`.

    >>> import cybleu
    >>> score = cybleu.corpus_bleu(["The cat sat on the mat.", "Hello, world!"],
    ...                            [["The cat is on the mat.", "Hello world!"]])
    >>> score.counts, score.totals, score.sys_len, score.ref_len, score.ratio
    ([9, 5, 2, 1], [11, 9, 7, 5], 11, 10, 1.1)
    >>> [round(p, 1) for p in score.precisions], score.bp
    ([81.8, 55.6, 28.6, 20.0], 1.0)
    """

    def __init__(self, score: float, counts: List[Any], totals: List[Any], precisions: List[float],
                 bp: float, sys_len: int, ref_len: int) -> None:
        super().__init__("BLEU", score)
        self.bp = bp
        self.counts = counts
        self.totals = totals
        self.sys_len = sys_len
        self.ref_len = ref_len
        self.precisions = precisions
        self.prec_str = "/".join(f"{p:.1f}" for p in precisions)
        self.ratio: float = sys_len / ref_len if ref_len else 0
        self._verbose = (f"{self.prec_str} (BP = {bp:.3f} ratio = {self.ratio:.3f} "
                         f"hyp_len = {sys_len:d} ref_len = {ref_len:d})")

    def _display(self) -> Dict[str, Any]:
        """What a notebook shows beside the line: the band of a corpus-sized BLEU, the n-gram
        precisions and the brevity penalty on its curve."""
        notes = []
        band = None
        if int(self.ref_len) >= BAND_MIN_REF_TOKENS:
            k = _band_of(float(self.score))
            words = BANDS[k][2]
            band = (_band_label(k), words[:1].lower() + words[1:], BANDS[k][4])
            notes.append("Band: Google Cloud Translation's rough guideline for corpus BLEU; "
                         "it depends on the language pair, the test set and the references.")
        else:
            notes.append(f"No band: BLEU of fewer than {BAND_MIN_REF_TOKENS:,} reference tokens "
                         "is not read on the corpus-level bands.")
        lo, hi = 0.5, 1.1
        ratio, bp = float(self.ratio), float(self.bp)
        charts = [
            {"kind": "bars", "aria": "n-gram precisions", "unit": "-gram",
             "values": [float(p) for p in self.precisions],
             "counts": [int(c) for c in self.counts], "totals": [int(t) for t in self.totals]},
            {"kind": "curve", "aria": "brevity penalty", "points": bp_curve(61, lo, hi),
             "lo": lo, "hi": hi, "x": min(max(ratio, lo), hi), "y": bp,
             "caption": f"BP over hyp/ref length {lo}\u2013{hi}",
             "label": f"ratio {ratio:.3f}, BP {bp:.3f}"},
        ]
        return {"kind": "bleu", "band": band, "charts": charts, "notes": notes}


# the hooks the compiled paths stand in for: overriding any of them sends BLEU down the hooks
_STAT_HOOKS = ("_preprocess_segment", "_extract_reference_info", "_compute_segment_statistics",
               "_cache_references", "_extract_corpus_statistics")
_SCORE_HOOKS = _STAT_HOOKS + ("_aggregate_and_compute",)


class BLEU(Metric):
    """BLEU (Papineni et al., 2002) as sacreBLEU's `BLEU` computes it: the same arguments, hooks,
    signature and numbers, bit for bit.

    :param lowercase: Compute lowercased BLEU.
    :param force: Do not warn when the hypotheses look tokenized already.
    :param tokenize: The tokenizer: `'13a'` (default), `'none'`, `'intl'`, `'zh'`, `'char'`,
        `'ja-mecab'`, `'ko-mecab'`, `'flores101'`, `'flores200'`, `'spBLEU-1K'` (`'spm'` is
        `'flores101'`); None picks one from `trg_lang`.
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` (default 0.1) or `'add-k'` (default 1).
    :param max_ngram_order: The largest n-gram order (default 4; at most 256).
    :param effective_order: Stop at the first n-gram order with no n-grams (use it for sentence
        BLEU).
    :param trg_lang: The target language; with `tokenize=None`, `'zh'`, `'ja'` and `'ko'` pick
        `zh`, `ja-mecab` and `ko-mecab`.
    :param references: Reference streams to tokenize once and keep: then `corpus_score(hyps,
        None)` scores against them (faster when the same references are scored many times).
    :raises ValueError: An unknown tokenizer (`cybleu.tokenizers.UnknownTokenizerError`, a
        KeyError too, as sacreBLEU raises) or smoothing method, a bad smoothing value, a
        `max_ngram_order` that is not an int from 1 to 256.

    >>> from cybleu.metrics import BLEU
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = [["The cat is on the mat.", "Hello world!"]]
    >>> bleu = BLEU()
    >>> print(bleu.corpus_score(hyps, refs))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> print(bleu.get_signature())
    nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:cybleu-...
    >>> BLEU(effective_order=True).sentence_scores(hyps, refs).tolist()
    [48.892302243490086, 35.35533905932737]
    """

    bucket_edges = PERCENT_BUCKETS
    # the report: its tokens and n-grams drive the n-gram views; its work is the longest
    _report_ngrams = True
    _report_order = 4
    #: what a sentence score (best_of, `cybleu filter`) is made with by name: sacreBLEU's
    #: sentence_bleu
    SENTENCE_DEFAULTS: Dict[str, Any] = {"effective_order": True}
    #: `cybleu report`'s options for BLEU: (flags, argparse's keywords, the constructor's
    #: argument); COMMAND_DEFAULTS are the command's own settings
    COMMAND_OPTIONS: Tuple[Any, ...] = (
        (("--tokenize", "-tok"), {"choices": registry.NAMES, "default": None, "help": (
            "BLEU's tokenizer (default: by the target language of -l, else 13a).")},
         "tokenize"),
        (("--lowercase", "-lc"), {"action": "store_true", "help": "Lowercased BLEU."},
         "lowercase"),
        (("--smooth-method", "-s"), {"choices": ("none", "floor", "add-k", "exp"),
                                     "default": "exp", "help": "BLEU's smoothing (default: exp)."},
         "smooth_method"),
        (("--smooth-value", "-sv"), {"type": float, "default": None,
                                     "help": "The smoothing value of floor and add-k."},
         "smooth_value"),
    )
    COMMAND_DEFAULTS: Dict[str, Any] = {"force": True}
    SMOOTH_DEFAULTS: Dict[str, Optional[float]] = dict(bleu_math.SMOOTH_DEFAULTS)
    TOKENIZERS = _TOKENIZERS.keys()
    TOKENIZER_DEFAULT = registry.DEFAULT
    _TOKENIZER_MAP = dict(registry.BY_LANGUAGE)
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(self, lowercase: bool = False, force: bool = False,
                 tokenize: Optional[str] = None, smooth_method: str = "exp",
                 smooth_value: Optional[float] = None, max_ngram_order: int = MAX_NGRAM_ORDER,
                 effective_order: bool = False, trg_lang: str = "",
                 references: Optional[Streams] = None) -> None:
        super().__init__()
        # an unknown method, or a floor/add-k value that would fail obscurely or score nan/inf
        bleu_math.check_smoothing(smooth_method, smooth_value)
        # any integer type, as sacreBLEU takes (numpy's from a config), kept as an int; 1..256
        max_ngram_order = bleu_math.check_max_order(max_ngram_order, "max_ngram_order")
        self._force = force
        self.trg_lang = trg_lang
        self.lowercase = lowercase
        self.smooth_value = smooth_value
        self.smooth_method = smooth_method
        self.max_ngram_order = max_ngram_order
        self.effective_order = effective_order
        if tokenize is None:
            tokenize = self._TOKENIZER_MAP.get(trg_lang, self.TOKENIZER_DEFAULT)
        elif trg_lang in self._TOKENIZER_MAP and tokenize != self._TOKENIZER_MAP[trg_lang]:
            logger.warning(f"Consider using the {self._TOKENIZER_MAP[trg_lang]!r} or 'spm' "
                           f"tokenizer for {_LANGUAGE_NAMES[trg_lang]}.")
        try:
            tokenizer_class = _get_tokenizer(tokenize)
        except KeyError:
            raise registry.UnknownTokenizerError(f"Unknown tokenizer {tokenize!r}; available: "
                                                 f"{', '.join(_TOKENIZERS)}.") from None
        # a plain attribute, as in sacreBLEU: assigning another tokenizer object takes effect
        self.tokenizer = tokenizer_class()
        self.tokenizer_signature = self.tokenizer.signature()
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # -- sacreBLEU's hooks -----------------------------------------------------------------------

    def _preprocess_segment(self, sent: str) -> str:
        """Lowercase (optionally), rstrip and tokenize one line."""
        if self.lowercase:
            sent = sent.lower()
        return self.tokenizer(sent.rstrip())  # type: ignore[no-any-return]

    def _extract_reference_info(self, refs: SequenceT[str]) -> Dict[str, Any]:
        """`{'ref_ngrams': Counter of n-gram tuples (largest count over the refs),
        'ref_lens': [...]}`."""
        return _reference_info(refs, self.max_ngram_order)

    def _get_closest_ref_len(self, hyp_len: int, ref_lens: List[int]) -> int:
        """The reference length closest to hyp_len, the shorter on a tie; -1 without one."""
        closest_diff, closest_len = -1, -1
        for ref_len in ref_lens:
            diff = abs(hyp_len - ref_len)
            if closest_diff == -1 or diff < closest_diff:
                closest_diff, closest_len = diff, ref_len
            elif diff == closest_diff and ref_len < closest_len:
                closest_len = ref_len
        return closest_len

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: Dict[str, Any]) -> List[int]:
        """[hyp_len, ref_len, correct_1..N, total_1..N] of a preprocessed hypothesis."""
        ref_ngrams, ref_lens = ref_kwargs["ref_ngrams"], ref_kwargs["ref_lens"]
        hyp_ngrams, hyp_len = extract_all_word_ngrams(hypothesis, 1, self.max_ngram_order)
        ref_len = self._get_closest_ref_len(hyp_len, ref_lens)
        correct = [0] * self.max_ngram_order
        total = correct[:]
        for gram, count in hyp_ngrams.items():
            n = len(gram) - 1
            total[n] += count
            if gram in ref_ngrams:
                correct[n] += min(count, ref_ngrams[gram])
        return [hyp_len, ref_len] + correct + total

    def _resample_replay(self) -> "Optional[Tuple[str, Tuple[int, str, Any, bool]]]":
        """("bleu", (max_order, smooth_method, smooth_value, effective_order)) when this object's
        score arithmetic is BLEU's own, so the resampling engine may replay it in C; None when a
        subclass changes it."""
        if type(self) is not BLEU or \
                type(self)._compute_score_from_stats is not BLEU._compute_score_from_stats:
            return None
        return "bleu", (self.max_ngram_order, self.smooth_method, self.smooth_value,
                        self.effective_order)

    def _resampled_scores(self, sums: Any, width: int, dtype: str, kernel: Any) -> Any:
        """The scores of summed statistics rows (resampled corpora, `width` int64 values each,
        as numpy `dtype` rows in sacreBLEU), replayed by the compiled resampler `kernel` when the
        arithmetic is BLEU's own and within what it reproduces; else None (the resampler then
        asks `_compute_score_from_stats` row by row)."""
        if dtype not in ("float32", "int64"):
            return None
        replay = self._resample_replay()
        if replay is None or replay[0] != "bleu":
            return None
        order, _, value, _ = args = replay[1]
        if not 1 <= order <= 256:
            return None
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or abs(value) > 1e38:
                return None
        return list(kernel.bleu_scores(sums, *args, dtype))

    def _compute_score_from_stats(self, stats: SequenceT[Any]) -> "BLEUScore":
        N = self.max_ngram_order
        return self.compute_bleu(correct=stats[2:2 + N], total=stats[2 + N:],  # type: ignore
                                 sys_len=int(stats[0]), ref_len=int(stats[1]),
                                 smooth_method=self.smooth_method,
                                 smooth_value=self.smooth_value,
                                 effective_order=self.effective_order, max_ngram_order=N)

    def _aggregate_and_compute(self, stats: List[List[Any]]) -> "BLEUScore":
        return self._compute_score_from_stats(sum_of_lists(stats))

    @staticmethod
    def compute_bleu(correct: List[Any], total: List[Any], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: Optional[float] = None,
                     effective_order: bool = False,
                     max_ngram_order: int = MAX_NGRAM_ORDER) -> "BLEUScore":
        """A BLEUScore from sufficient statistics (sacreBLEU's `BLEU.compute_bleu`, the same
        floats).

        :param correct: Matching n-grams per order.
        :param total: Hypothesis n-grams per order.
        :param sys_len: Hypothesis length in tokens.
        :param ref_len: Effective reference length.
        :param smooth_method: `'none'` (default), `'floor'`, `'add-k'` or `'exp'`.
        :param smooth_value: The value of `'floor'` or `'add-k'`.
        :param effective_order: Stop at the first order with no n-grams.
        :param max_ngram_order: The number of orders (default 4).
        :returns: A :class:`BLEUScore`.
        :raises ValueError: An unknown smoothing method.

        >>> from cybleu.metrics import BLEU
        >>> print(BLEU.compute_bleu([9, 5, 2, 1], [11, 9, 7, 5], 11, 10, "exp"))
        BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
        """
        if smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise ValueError(f"Unknown smooth_method {smooth_method!r}")
        score, correct, total, precisions, bp = bleu_math.bleu_from_stats(
            correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order,
            max_ngram_order)
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    def _cache_references(self, references: Streams) -> SequenceT[Any]:
        """sacreBLEU's per-segment reference info (a lazy sequence of dicts), with the core's
        tokenized references inside; sets `num_refs`."""
        if not self._own_hooks(BLEU, ("_preprocess_segment", "_extract_reference_info")):
            return super()._cache_references(references)
        segments, num_refs = _segments_from_streams(references)
        try:
            cache = _BLEURefCache(segments, self.tokenizer, self.lowercase, self.max_ngram_order)
        except TypeError:
            _explain_type_error((), references)
            raise
        self.num_refs = num_refs
        return cache

    # -- the compiled paths ----------------------------------------------------------------------

    def _core_call(self, method: str, hypotheses: SequenceT[str],
                   references: Optional[Streams], *args: Any) -> Any:
        """core.<method>(hyps, segments, ...) on references given now (tokenized a chunk at a time
        with the hypotheses, so memory stays bounded), or RefSet.<method>(hyps, ...) on the cached
        ones. None when the cache was built with other settings or by other hooks (the caller
        then runs the hooks, as sacreBLEU does)."""
        mode, segmenter = _plan(self.tokenizer)
        lower = self.lowercase
        if not isinstance(hypotheses, (list, tuple)):
            # the core reads hypotheses a chunk (a slice) at a time; any other Sequence (a deque,
            # a user's class) is scored as sacreBLEU scores it, from a list of its items
            hypotheses = list(hypotheses)
        try:
            if not _no_references(references):
                segments, num_refs = _segments_from_streams(references, len(hypotheses))
                result = getattr(core, method)(_segment(hypotheses, segmenter, lower),
                                               _segment_refs(segments, segmenter, lower), mode,
                                               lower and segmenter is None, self.max_ngram_order,
                                               *args)
                self.num_refs = num_refs
            else:
                cache = self._ref_cache
                if not cache:
                    raise RuntimeError("No references provided and the cache is empty.")
                if not (isinstance(cache, _BLEURefCache)
                        and cache.serves(self.tokenizer, lower, self.max_ngram_order)):
                    return None
                if len(cache) != len(hypotheses):
                    raise ValueError(f"BLEU: {len(hypotheses)} hypotheses but the cached "
                                     f"references have {len(cache)} segments.")
                result = getattr(cache.refset, method)(_segment(hypotheses, segmenter, lower),
                                                       *args)
        except TypeError as err:
            if "has no reference" not in str(err):
                _explain_type_error(hypotheses, None if _no_references(references) else references)
            raise
        if not self._force and core.count_tokenized_periods(hypotheses, 100) >= 100:
            self._warn_tokenized()
        return result

    def _extract_corpus_statistics(self, hypotheses: SequenceT[str],
                                   references: Optional[Streams]) -> Any:
        """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
        if self._own_hooks(BLEU, _STAT_HOOKS):
            rows = self._core_call("segment_stats", hypotheses, references)
            if rows is not None:
                return rows
        return super()._extract_corpus_statistics(hypotheses, references)

    def _flat_segment_statistics(self, hypotheses: SequenceT[str]) -> Any:
        """`_extract_corpus_statistics(hypotheses, None)` as (one flat int64 array, the 2 + 2N
        values of each segment), for the command line's significance tests: no Python list per
        segment. None when the hooks are not BLEU's own or the cached references cannot serve
        them (the caller then takes the rows)."""
        if not self._own_hooks(BLEU, _STAT_HOOKS):
            return None
        flat = self._core_call("segment_stats_flat", hypotheses, None)
        return None if flat is None else (flat, 2 + 2 * self.max_ngram_order)

    def _no_tables(self) -> None:
        """For the command line's slices of the references, each scored against every system
        once and then dropped: the core builds no reference n-gram tables for them (a burst of
        new memory per slice, which costs more than the tables save)."""
        refset = getattr(self._ref_cache, "refset", None)
        if refset is not None:
            refset.no_tables()

    def _summed_statistics(self, hypotheses: SequenceT[str]) -> Any:
        """`_extract_corpus_statistics(hypotheses, None)` summed column by column (integers, so
        the order does not matter), on the core: no Python list per segment, for the command
        line's streaming. None when the hooks are not BLEU's own or the cached references cannot
        serve them."""
        if not self._own_hooks(BLEU, _STAT_HOOKS):
            return None
        return self._core_call("corpus_stats", hypotheses, None)

    def corpus_score(self, hypotheses: SequenceT[str],
                     references: Optional[Streams],
                     n_bootstrap: int = 1) -> "BLEUScore":
        """Corpus BLEU of `hypotheses` against reference streams.

        :param hypotheses: One string per segment.
        :param references: Reference streams (`references[k][i]` is the k-th reference of
            segment i), or None for the references given to the constructor.
        :param n_bootstrap: If > 1, adds a 95% confidence interval from this many bootstrap
            resamples (seeded by `SACREBLEU_SEED`, default 12345, as in sacreBLEU).
        :returns: A :class:`BLEUScore`.
        :raises TypeError: A string where a list belongs, a line that is not a string.
        :raises ValueError: An empty corpus, streams of different lengths or of another length
            than the hypotheses.
        :raises RuntimeError: `references` is None and none were given to the constructor.

        >>> from cybleu.metrics import BLEU
        >>> bleu = BLEU()
        >>> print(bleu.corpus_score(["The cat sat on the mat.", "Hello, world!"],
        ...                         [["The cat is on the mat.", "Hello world!"]], n_bootstrap=100))
        BLEU = 40.15 (μ = 39.11 ± 11.95) 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
        """
        if n_bootstrap <= 1 and self._own_hooks(BLEU, _SCORE_HOOKS):
            self._check_corpus_score_args(hypotheses, references)
            stats = self._core_call("corpus_stats", hypotheses, references)
            if stats is not None:
                return self._compute_score_from_stats(stats)
        return super().corpus_score(hypotheses, references, n_bootstrap)  # type: ignore

    def sentence_score(self, hypothesis: str,
                       references: SequenceT[Optional[str]]) -> "BLEUScore":
        """BLEU of one hypothesis against its references. sacreBLEU's warning to enable
        `effective_order` is logged when it is off.

        :param hypothesis: One hypothesis string.
        :param references: Its references: a list of strings (None entries are skipped).
        :returns: A :class:`BLEUScore`.
        :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
        :raises ValueError: No reference.

        >>> from cybleu.metrics import BLEU
        >>> BLEU(effective_order=True).sentence_score("The cat sat on the mat.",
        ...                                           ["The cat is on the mat."]).score
        48.892302243490086
        """
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        if not self._own_hooks(BLEU, _SCORE_HOOKS):
            return super().sentence_score(hypothesis, references)  # type: ignore
        self._check_sentence_score_args(hypothesis, references)
        segment = [r for r in references if r is not None]
        mode, segmenter = _plan(self.tokenizer)
        lower = self.lowercase
        refset = core.RefSet(_segment_refs([segment], segmenter, lower), mode,
                             lower and segmenter is None, self.max_ngram_order)
        stats = refset.corpus_stats(_segment([hypothesis], segmenter, lower))
        self.num_refs = len(segment)
        return self._compute_score_from_stats(stats)

    def sentence_scores(self, hypotheses: SequenceT[str],
                        references: Optional[Streams] = None, n_threads: int = 1) -> Any:
        """Sentence BLEU of every hypothesis against its segment's references, in one call:
        element i equals, bit for bit, `self.sentence_score(hypotheses[i], refs_of_i).score`.

        :param hypotheses: One string per segment.
        :param references: Reference streams as for `corpus_score`, or None for the
            references given to the constructor.
        :param n_threads: Share the segments out among this many threads (the scores do not
            depend on it).
        :returns: A float64 numpy array of `len(hypotheses)` scores.
        :raises TypeError: As `corpus_score`.
        :raises ValueError: As `corpus_score`, or `n_threads` below 1.

        >>> from cybleu.metrics import BLEU
        >>> bleu = BLEU(effective_order=True, references=[["The cat is on the mat.", "Hi!"]])
        >>> bleu.sentence_scores(["The cat sat on the mat.", "Hi!"]).tolist()
        [48.892302243490086, 100.00000000000004]
        """
        import numpy as np
        from .._kernels.ragged import check_threads
        n_threads = check_threads(n_threads)
        _check_hypotheses(hypotheses)
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        N = self.max_ngram_order
        sv = self.smooth_value
        if (self._own_hooks(BLEU, _STAT_HOOKS + ("_compute_score_from_stats",)) and N <= 256
                and (self.smooth_method in ("none", "exp") or sv is None or _plain(sv))):
            scores = self._core_call("sentence_scores", hypotheses, references,
                                     self.smooth_method, sv, self.effective_order, n_threads)
            if scores is not None:
                return np.frombuffer(scores, dtype=np.float64)
        rows = self._extract_corpus_statistics(hypotheses, references)
        return np.array([self._compute_score_from_stats(row).score for row in rows],
                        dtype=np.float64)

    def _grouped_sentence_scores(self, candidates: SequenceT[str], k: int,
                                 n_threads: int = 1) -> Any:
        """sentence_scores of k candidates per segment against the cached references
        (candidates[s*k:s*k+k] for segment s), each segment's references counted once for its k
        candidates; None where only the per-candidate path gives sacreBLEU's scores (a
        subclass's hooks, other settings than the cache's, smoothing the core does not do)."""
        import numpy as np
        N = self.max_ngram_order
        sv = self.smooth_value
        cache = self._ref_cache
        if not (self._own_hooks(BLEU, _STAT_HOOKS + ("_compute_score_from_stats",)) and N <= 256
                and (self.smooth_method in ("none", "exp") or sv is None or _plain(sv))
                and isinstance(cache, _BLEURefCache)
                and cache.serves(self.tokenizer, self.lowercase, N)):
            return None
        _check_hypotheses(candidates)
        mode, segmenter = _plan(self.tokenizer)
        scores = cache.refset.grouped_sentence_scores(
            _segment(candidates, segmenter, self.lowercase), k, self.smooth_method, sv,
            self.effective_order, n_threads)
        return np.frombuffer(scores, dtype=np.float64)

    # -- the protocol: what the machinery asks ------------------------------------------------

    def statistic_columns(self) -> Tuple[Column, ...]:
        """hyp_len, ref_len, correct_1..N, total_1..N: integers.

        :returns: A tuple of Columns.
        """
        n = self.max_ngram_order
        return tuple(Column(name) for name in (
            ["hyp_len", "ref_len"] + [f"correct_{i + 1}" for i in range(n)]
            + [f"total_{i + 1}" for i in range(n)]))

    def segment_scores(self, stats: Any) -> Any:
        """Each segment's sentence BLEU with effective order (sacreBLEU's `sentence_bleu`),
        from its statistics row, whatever this object's `effective_order`.

        :param stats: The segments' statistics: a `cybleu.significance.Statistics`, or a list
            of rows.
        :returns: A float64 numpy array, one score per segment.
        """
        import numpy as np
        flat = getattr(stats, "flat", None)
        if flat is not None and self._own_hooks(BLEU, ("_compute_score_from_stats",)):
            scores = core.bleu_scores_from_stats(flat, self.max_ngram_order, self.smooth_method,
                                                 self.smooth_value, True)
            return np.frombuffer(scores, dtype=np.float64).copy()
        import copy
        sentence = copy.copy(self)
        sentence.effective_order = True
        rows = stats if isinstance(stats, list) else [stats.row(i)
                                                        for i in range(stats.n_segments)]
        return np.array([float(sentence._compute_score_from_stats(row).score) for row in rows],
                        dtype=np.float64)

    def _column_sums(self, hypotheses: SequenceT[str], references: Any) -> Any:
        if not self._own_hooks(BLEU, _SCORE_HOOKS):
            return None
        return self._core_call("corpus_stats", hypotheses, references)

    def _selection_scores(self, hypotheses: SequenceT[str], references: Any,
                          n_threads: int = 1) -> Any:
        force = self._force
        self._force = True      # the tokenized-input warning is about corpora
        try:
            return self.sentence_scores(hypotheses, references, n_threads=n_threads)
        finally:
            self._force = force

    def _candidate_grid(self, candidates: SequenceT[str], references: Any, k: int,
                        n_threads: int = 1) -> Any:
        """The (segments, k) sentence BLEU of k candidates per segment, each segment's
        references tokenized, interned and counted once for its k candidates (the kernel's
        grouped scores; where the smoothing needs Python, a cached reference set scored once per
        candidate position); None where the hooks must run (a subclass's) or the cache does not
        serve the settings."""
        import copy
        import numpy as np
        if not self._own_hooks(BLEU, _STAT_HOOKS + ("_compute_score_from_stats",
                                                    "_preprocess_segment",
                                                    "_extract_reference_info")):
            return None
        chunk = copy.copy(self)
        try:
            chunk._ref_cache = chunk._cache_references(references)
        except (TypeError, ValueError):
            return None          # the per-candidate path names the bad line
        if not isinstance(chunk._ref_cache, _BLEURefCache):
            return None
        if not isinstance(candidates, (list, tuple)):
            candidates = list(candidates)
        n = len(candidates) // k
        scores = chunk._grouped_sentence_scores(candidates, k, n_threads)
        if scores is not None:
            return scores.reshape(n, k)
        grid = np.empty((n, k), dtype=np.float64)
        for c in range(k):
            try:
                grid[:, c] = chunk._selection_scores(candidates[c::k], None, n_threads)
            except (TypeError, ValueError) as err:
                err.candidate = c  # the column, for the caller's message
                raise
        return grid

    def _report_views(self, scores: SequenceT[Any], stats: SequenceT[Any]) -> Dict[str, Any]:
        """The bands of corpus BLEU, and each system's anatomy (precisions, brevity penalty)."""
        bands = [_band_of(float(c.score)) for c in scores]
        return {
            "views": ["bands", "anatomy"],
            "bands": {
                "title": "What corpus BLEU means, roughly",
                "of": "corpus BLEU",
                "table": [[lo, hi, words, short, colour]
                          for lo, hi, words, short, colour in BANDS],
                "stops": [[lo if k == 0 else lo + 5, colour]
                          for k, (lo, _, _, _, colour) in enumerate(BANDS)],
                "min_axis": 70,
                "lead": "Read the bands as rough guidance only. ",
                "caveat": _BANDS_CAVEAT,
                "system_band": bands,
            },
            "anatomy": [{
                "score": float(c.score), "counts": [int(x) for x in c.counts],
                "totals": [int(x) for x in c.totals],
                "precisions": [float(p) for p in c.precisions],
                "bp": float(c.bp), "ratio": float(c.ratio), "sys_len": int(c.sys_len),
                "ref_len": int(c.ref_len), "verbose": c._verbose,
                "band": band, "geo_mean": self._geo_mean(c)} for c, band in zip(scores, bands)],
            "anatomy_curve": bp_curve(),
            "max_order": self.max_ngram_order,
        }

    def _script_notes(self, hint: Any, target: Optional[str]) -> List[str]:
        """The advice of `language_hint` when the references' script has no spaces and this
        BLEU splits words at spaces (13a, intl)."""
        from ..tokenizers import language_hint
        tokenize = getattr(self, "tokenizer_signature", None)
        if hint is not None and tokenize in language_hint.DEFAULT_TOKENIZERS:
            return [language_hint.advice(hint, tokenize, "report")]
        return []

    def _report_detail(self, stats: SequenceT[Any]) -> Any:
        """Each segment's [hyp_len, ref_len, correct..., total...] for the two-system view, as a
        table of matches over n-grams."""
        import numpy as np
        if not all(st.flat is not None for st in stats):
            return None
        stacked = np.stack([np.frombuffer(st.flat, dtype=np.int64).reshape(st.n_segments,
                                                                              st.width)
                            for st in stats])
        small = stacked.size == 0 or (stacked.min() >= 0 and stacked.max() < 65536)
        n = self.max_ngram_order
        spec = {"table": {
            "head": [self.label] + [f"{k + 1}-gram" for k in range(n)] + ["hyp_len", "ref_len"],
            "label": "matches / n-grams",
            "cells": [f"{{{2 + k}}} / {{{2 + n + k}}}" for k in range(n)] + ["{0}", "{1}"]}}
        return stacked.astype(np.uint16 if small else np.int32), spec

    def _geo_mean(self, score: Any) -> Optional[float]:
        """exp(mean log precision): BLEU's second factor, by BLEU's own arithmetic (`my_log` of
        each precision, as `bleu_from_stats` takes it); None when no n-gram matches."""
        if not any(score.counts):
            return None
        order = self.max_ngram_order
        if self.effective_order:
            order = next((n for n, t in enumerate(score.totals) if t == 0), order) or order
        return math.exp(sum(bleu_math.my_log(p) for p in score.precisions[:order]) / order)

    def get_signature(self) -> BLEUSignature:
        """The reproducibility signature of the settings (a :class:`BLEUSignature`).

        As in sacreBLEU, `tok:` is `tokenizer_signature`, set when the metric is made; after
        assigning another `tokenizer`, set `tokenizer_signature` too (a warning says so).

        :returns: A :class:`BLEUSignature`.
        :raises ValueError: Nothing has been scored yet (the number of references is unknown).

        >>> from cybleu.metrics import BLEU
        >>> bleu = BLEU(tokenize="char")
        >>> _ = bleu.corpus_score(["ab"], [["ab"]])
        >>> str(bleu.get_signature()).split("|version")[0]
        'nrefs:1|case:mixed|eff:no|tok:char|smooth:exp'
        """
        tok = getattr(self, "tokenizer", None)
        signature = getattr(tok, "signature", None)
        if callable(signature):
            try:
                current = signature()
            except Exception:  # noqa: BLE001 - a tokenizer without a usable signature
                current = None
            if current is not None and current != getattr(self, "tokenizer_signature", current):
                logger.warning(
                    f"BLEU: the signature says tok:{self.tokenizer_signature} (sacreBLEU keeps the "
                    f"name given when the metric was made) but the tokenizer in use is "
                    f"{current!r}; set `tokenizer_signature` to name it.")
        return super().get_signature()  # type: ignore[return-value]


def _plain(value: Any) -> bool:
    """A smoothing value the compiled batch path reproduces exactly: a Python int, or a float
    (numpy's float64 is one). With numpy's float32 or float16, sacreBLEU's arithmetic stays in
    that precision (NEP 50), so such values (and any other type) take the Python path."""
    if not (type(value) is int or isinstance(value, float)):
        return False
    try:
        return 0.0 < float(value) <= 1e300
    except (TypeError, ValueError, OverflowError):
        return False
