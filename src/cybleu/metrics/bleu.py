"""BLEU (Papineni et al., 2002) with sacreBLEU 2.6.0's interface and results.

Argument checks live here, before the core is called, so both backends raise the same errors. The
core turns text into integer statistics; `_math.bleu_from_stats` turns statistics into a score.
"""
from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, Optional

from .. import _math
from .._backend import core
from .base import Score, Signature

if TYPE_CHECKING:  # numpy is imported when an array is made, not with cybleu
    import numpy as np
    import numpy.typing as npt

    from ..tokenizers.tokenizer_base import BaseTokenizer

# reference streams: [[ref of segment 0, ref of segment 1, ...], ...] (None: no reference there)
Streams = Sequence[Sequence[Optional[str]]]

logger = logging.getLogger("cybleu")

MAX_NGRAM_ORDER = _math.MAX_NGRAM_ORDER

# sacreBLEU's name -> (module, class) under cybleu.tokenizers; imported when used, since the MeCab
# and sentencepiece ones need optional packages
_TOKENIZERS = {
    "none": "tokenizer_none.NoneTokenizer",
    "zh": "tokenizer_zh.TokenizerZh",
    "13a": "tokenizer_13a.Tokenizer13a",
    "intl": "tokenizer_intl.TokenizerV14International",
    "char": "tokenizer_char.TokenizerChar",
    "ja-mecab": "tokenizer_ja_mecab.TokenizerJaMecab",
    "ko-mecab": "tokenizer_ko_mecab.TokenizerKoMecab",
    "spm": "tokenizer_spm.TokenizerSPM",
    "flores101": "tokenizer_spm.Flores101Tokenizer",
    "flores200": "tokenizer_spm.Flores200Tokenizer",
    "spBLEU-1K": "tokenizer_spm.spBLEU1KTokenizer",
}
# the compiled core tokenizes these itself, code point by code point; the others segment in Python
# and hand the core their output under 'none'
_CORE_TOKENIZERS = ("none", "13a", "intl", "zh", "char")
_LANGUAGE_NAMES = {"zh": "Chinese", "ja": "Japanese", "ko": "Korean"}


def _get_tokenizer(name: str) -> type[BaseTokenizer]:
    """The tokenizer class of sacreBLEU's tokenizer `name`."""
    module_name, class_name = _TOKENIZERS[name].rsplit(".", 1)
    return getattr(import_module(f"..tokenizers.{module_name}", __package__), class_name)


class BLEUSignature(Signature):
    """BLEU's reproducibility signature: sacreBLEU's fields, with cybleu's version."""

    def __init__(self, args: dict[str, Any]) -> None:
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
    """A BLEU result: score (0-100), counts, totals, precisions (%), bp, sys_len, ref_len, ratio."""

    def __init__(self, score: float, counts: list[int], totals: list[int],
                 precisions: list[float], bp: float, sys_len: int, ref_len: int) -> None:
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


def _check_hypotheses(hyps, prefix="BLEU"):
    if isinstance(hyps, str) or not isinstance(hyps, Sequence):
        raise TypeError(f"{prefix}: `hyps` should be a sequence of strings, "
                        f"not {type(hyps).__name__}.")
    if len(hyps) == 0:
        raise ValueError(f"{prefix}: no hypotheses: the corpus is empty.")
    if None in hyps:
        raise TypeError(f"{prefix}: Undefined line in hypotheses stream! "
                        f"(hypothesis {list(hyps).index(None)} is None)")


def _explain_type_error(hyps, streams, prefix="BLEU"):
    """Name the first non-string line (the core only says that there is one)."""
    for i, hyp in enumerate(hyps):
        if not isinstance(hyp, str):
            raise TypeError(f"{prefix}: hypothesis {i} is {type(hyp).__name__}, not str.")
    for k, stream in enumerate(streams or ()):
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"{prefix}: reference {i} of stream {k} is "
                                f"{type(ref).__name__}, not str or None.")


def _segments_from_streams(streams, n_hyps=None, prefix="BLEU"):
    """Reference streams [[ref of segment 0, ref of segment 1, ...], ...] -> per-segment lists of
    references (None dropped) and the number of references (-1 when it varies).

    Unlike sacreBLEU, streams of different lengths and a flat list of strings are errors."""
    if isinstance(streams, str) or not isinstance(streams, Sequence):
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
                         f"{sorted(lengths)}; every stream needs one line per hypothesis.")
    n_segments = lengths.pop()
    if n_hyps is not None and n_segments != n_hyps:
        raise ValueError(f"{prefix}: {n_hyps} hypotheses but {n_segments} references per stream; "
                         "the streams must have the same length.")
    if not any(None in stream for stream in streams):
        return list(zip(*streams)), len(streams)
    segments = [[r for r in seg if r is not None] for seg in zip(*streams)]
    counts = {len(seg) for seg in segments}
    return segments, (counts.pop() if len(counts) == 1 else -1)


class BLEU:
    """Computes BLEU given hypotheses and references (sacreBLEU's `BLEU`, same arguments).

    :param lowercase: If True, lowercased BLEU is computed.
    :param force: Ignore data that looks already tokenized.
    :param tokenize: The tokenizer ('13a' default, 'none'); None picks by `trg_lang`.
    :param smooth_method: 'floor', 'add-k', 'exp' or 'none'.
    :param smooth_value: The value for `floor` and `add-k`; None uses the default (0.1, 1).
    :param max_ngram_order: The maximum n-gram order (default 4).
    :param effective_order: Stop at the first n-gram order with no n-grams (sentence-level BLEU).
    :param trg_lang: Target language code; picks the tokenizer when `tokenize` is None.
    :param references: Reference streams to tokenize once and reuse across `corpus_score` calls.
    """

    SMOOTH_DEFAULTS: dict[str, Optional[float]] = dict(_math.SMOOTH_DEFAULTS)
    TOKENIZERS: tuple[str, ...] = tuple(_TOKENIZERS)
    TOKENIZER_DEFAULT: str = "13a"
    _TOKENIZER_MAP = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
    _SIGNATURE_TYPE = BLEUSignature

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: Optional[str] = None,
                 smooth_method: str = "exp", smooth_value: Optional[float] = None,
                 max_ngram_order: int = MAX_NGRAM_ORDER, effective_order: bool = False,
                 trg_lang: str = "", references: Optional[Streams] = None) -> None:
        if smooth_method not in self.SMOOTH_DEFAULTS:
            raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of "
                             f"{', '.join(self.SMOOTH_DEFAULTS)}.")
        if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, int) \
                or max_ngram_order < 1:
            raise ValueError(f"max_ngram_order must be a positive int, not {max_ngram_order!r}.")
        self._ref_cache = None
        self._force = force
        self.n_bootstrap: Optional[int] = None
        self.seed: Optional[str] = None
        self.num_refs: int
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
        if tokenize not in _TOKENIZERS:
            raise ValueError(f"Unknown tokenizer {tokenize!r}; available: "
                             f"{', '.join(_TOKENIZERS)}.")
        self.tokenizer = _get_tokenizer(tokenize)()
        self.tokenizer_signature = self.tokenizer.signature()
        if tokenize in _CORE_TOKENIZERS:
            self._tokenize, self._segmenter = tokenize, None
        else:
            self._tokenize, self._segmenter = "none", self.tokenizer
        if references is not None:
            self._ref_cache = self._cache_references(references)

    # -- statistics ------------------------------------------------------------------------------

    @property
    def _core_lowercase(self):
        # a segmenter's output is already lowercased (sacreBLEU lowercases before tokenizing)
        return self.lowercase and self._segmenter is None

    def _segment(self, lines):
        """Lines as the core should see them: unchanged for the core's own tokenizers; for MeCab
        and sentencepiece, sacreBLEU's preprocessing (lowercase, rstrip) and the segmenter's
        output, which the core then splits under 'none'. Non-strings pass through for the core
        to reject."""
        seg = self._segmenter
        if seg is None:
            return lines
        lower = self.lowercase
        return [seg((line.lower() if lower else line).rstrip()) if isinstance(line, str) else line
                for line in lines]

    def _segment_refs(self, segments):
        if self._segmenter is None:
            return segments
        flat = self._segment([ref for seg in segments for ref in seg])
        out, start = [], 0
        for seg in segments:
            out.append(flat[start:start + len(seg)])
            start += len(seg)
        return out

    def _cache_references(self, references):
        segments, self.num_refs = _segments_from_streams(references)
        try:
            return core.RefSet(self._segment_refs(segments), self._tokenize,
                               self._core_lowercase, self.max_ngram_order)
        except TypeError:
            _explain_type_error((), references)
            raise

    def _run_core(self, method, hypotheses, references, *args):
        """core.<method>(hyps, segments, ...) on references given now (tokenized a chunk at a
        time with the hypotheses, so memory stays bounded), or RefSet.<method>(hyps, ...) on the
        cached ones."""
        try:
            if references is not None:
                segments, self.num_refs = _segments_from_streams(references, len(hypotheses))
                result = getattr(core, method)(self._segment(hypotheses),
                                               self._segment_refs(segments), self._tokenize,
                                               self._core_lowercase, self.max_ngram_order, *args)
            else:
                if self._ref_cache is None:
                    raise RuntimeError("No references provided and the cache is empty.")
                if self._ref_cache.num_segments != len(hypotheses):
                    raise ValueError(f"BLEU: {len(hypotheses)} hypotheses but the cached "
                                     f"references have {self._ref_cache.num_segments} segments.")
                result = getattr(self._ref_cache, method)(self._segment(hypotheses), *args)
        except TypeError as err:
            if "has no reference" not in str(err):
                _explain_type_error(hypotheses, references)
            raise
        self._warn_if_tokenized(hypotheses)
        return result

    def _warn_if_tokenized(self, hypotheses):
        if self._force:
            return
        if sum(1 for hyp in hypotheses if hyp.endswith(" .")) >= 100:
            logger.warning("That's 100 lines that end in a tokenized period ('.')")
            logger.warning("It looks like you forgot to detokenize your test data, "
                           "which may hurt your score.")
            logger.warning("If you insist your data is detokenized, or don't care, you can "
                           "suppress this message with the `force` parameter.")

    def _extract_corpus_statistics(self, hypotheses: Sequence[str],
                                   references: Optional[Streams]) -> list[list[int]]:
        """Per-segment statistics [hyp_len, ref_len, correct_1..N, total_1..N]."""
        return self._run_core("segment_stats", hypotheses, references)

    def _compute_score_from_stats(self, stats: Sequence[int]) -> BLEUScore:
        N = self.max_ngram_order
        return self.compute_bleu(correct=stats[2:2 + N], total=stats[2 + N:],
                                 sys_len=int(stats[0]), ref_len=int(stats[1]),
                                 smooth_method=self.smooth_method,
                                 smooth_value=self.smooth_value,
                                 effective_order=self.effective_order, max_ngram_order=N)

    @staticmethod
    def compute_bleu(correct: list[int], total: list[int], sys_len: int, ref_len: int,
                     smooth_method: str = "none", smooth_value: Optional[float] = None,
                     effective_order: bool = False,
                     max_ngram_order: int = MAX_NGRAM_ORDER) -> BLEUScore:
        """BLEUScore from sufficient statistics (sacreBLEU's `BLEU.compute_bleu`)."""
        if smooth_method not in BLEU.SMOOTH_DEFAULTS:
            raise ValueError(f"Unknown smooth_method {smooth_method!r}")
        score, correct, total, precisions, bp = _math.bleu_from_stats(
            correct, total, sys_len, ref_len, smooth_method, smooth_value, effective_order,
            max_ngram_order)
        return BLEUScore(score, correct, total, precisions, bp, sys_len, ref_len)

    # -- public ----------------------------------------------------------------------------------

    def corpus_score(self, hypotheses: Sequence[str], references: Optional[Streams],
                     n_bootstrap: int = 1) -> BLEUScore:
        """Corpus BLEU of `hypotheses` against reference streams (None: the cached references).

        :param n_bootstrap: If > 1, adds a 95% confidence interval from bootstrap resampling.
        """
        _check_hypotheses(hypotheses)
        if n_bootstrap > 1:
            stats = self._extract_corpus_statistics(hypotheses, references)
            score = self._compute_score_from_stats([sum(col) for col in zip(*stats)])
            self.n_bootstrap = n_bootstrap
            self.seed, samples = self._bootstrap_resample(stats, n_bootstrap)
            score.estimate_ci(samples)
            return score
        return self._compute_score_from_stats(
            self._run_core("corpus_stats", hypotheses, references))

    def _bootstrap_resample(self, stats, n_samples):
        # sacreBLEU's procedure and RNG calls, float32 statistics included, so intervals match.
        import numpy as np
        seed = os.environ.get("SACREBLEU_SEED", "12345")
        rng = np.random.default_rng(None if seed.lower() == "none" else int(seed))
        idxs = rng.choice(len(stats), size=(n_samples, len(stats)), replace=True)
        stats_np = np.array(stats, dtype="float32")
        return str(seed).lower(), [self._compute_score_from_stats(s.sum(0))
                                   for s in stats_np[idxs]]

    def sentence_score(self, hypothesis: str, references: Sequence[Optional[str]]) -> BLEUScore:
        """BLEU of one hypothesis against its references (a sequence of strings or None)."""
        if not isinstance(hypothesis, str):
            raise TypeError("BLEU: The argument `hyp` should be a string.")
        if isinstance(references, str) or not isinstance(references, Sequence):
            raise TypeError("BLEU: The argument `refs` should be a sequence of strings.")
        if len(references) == 0:
            raise ValueError("BLEU: `refs` is empty; give at least one reference.")
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        segment = [r for r in references if r is not None]
        self.num_refs = len(segment)
        try:
            refset = core.RefSet(self._segment_refs([segment]), self._tokenize,
                                 self._core_lowercase, self.max_ngram_order)
        except TypeError:
            raise TypeError("BLEU: Each element of `refs` should be a string or None.") from None
        return self._compute_score_from_stats(refset.corpus_stats(self._segment([hypothesis])))

    def sentence_scores(self, hypotheses: Sequence[str],
                        references: Optional[Streams] = None) -> npt.NDArray[np.float64]:
        """Sentence BLEU of every hypothesis against its segment's references, in one call.

        Returns a float64 numpy array equal, element for element and bit for bit, to
        `[self.sentence_score(h, refs_of_h).score for h in hypotheses]`. `references` are
        streams as for `corpus_score` (None: the cached references).
        """
        import numpy as np
        _check_hypotheses(hypotheses)
        if not self.effective_order:
            logger.warning("It is recommended to enable `effective_order` for sentence-level BLEU.")
        N = self.max_ngram_order
        sv = self.smooth_value
        if N <= 256 and (self.smooth_method in ("none", "exp") or sv is None or _plain(sv)):
            scores = self._run_core("sentence_scores", hypotheses, references,
                                    self.smooth_method, sv, self.effective_order)
            return np.frombuffer(scores, dtype=np.float64)
        rows = self._extract_corpus_statistics(hypotheses, references)
        return np.array([self._compute_score_from_stats(row).score for row in rows],
                        dtype=np.float64)

    def get_signature(self) -> BLEUSignature:
        """The reproducibility signature (needs a scored corpus for the number of references)."""
        return self._SIGNATURE_TYPE(self.__dict__)


def _plain(value: Any) -> bool:
    """A smoothing value the compiled batch path reproduces exactly."""
    try:
        return 0.0 < float(value) <= 1e300
    except (TypeError, ValueError, OverflowError):
        return False
