"""ROUGE as a metric object, in the shape of BLEU, CHRF and TER: rouge-score 0.1.2's numbers
(cybleu.rouge_score) for each segment, and the corpus score as the mean of the segments' scores.

A segment-mean metric (`SegmentMeanMetric`): a segment's row holds, for each type, its F,
precision and recall (floats, rouge-score's values), then a count; the corpus score is the mean of
each value, summed exactly (correctly rounded, so any order or partitioning of the segments gives
the same number). The headline `score` is 100 times the mean F of the first type.

>>> from cybleu.metrics import ROUGE
>>> rouge = ROUGE(rouge_types=["rougeL", "rouge1"], use_stemmer=True)
>>> score = rouge.corpus_score(["The cat sat on the mat.", "Hello world!"],
...                            [["The cat is on the mat.", "Hello there world!"]])
>>> print(score)
ROUGE-L/1 = 81.67 (P = 91.67 R = 75.00) | ROUGE-1 = 81.67 (P = 91.67 R = 75.00)
>>> score.types["rouge1"]
(0.9166666666666667, 0.75, 0.8166666666666667)
"""
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .base import Score, SegmentMeanMetric, Signature, _rows_of, _segments_from_streams, _what

__all__ = ["ROUGE", "ROUGEScore", "ROUGESignature", "UnicodeTokenizer"]

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
# a segment's values per type, in row order: F first, so the first type's F is the headline
ORDER = ("fmeasure", "precision", "recall")


def type_name(rouge_type: str) -> str:
    """The printed name of a type: `rouge1` -> `ROUGE-1`, `rougeLsum` -> `ROUGE-Lsum`."""
    return f"ROUGE-{rouge_type[5:]}"


def score_name(rouge_types: Sequence[str]) -> str:
    """The name of a score of these types, the headline first: `ROUGE-L` for one type,
    `ROUGE-1/2/L/Lsum` for several (so that it never reads as one of its single types)."""
    return f"ROUGE-{'/'.join(t[5:] for t in rouge_types)}"


class UnicodeTokenizer:
    """A tokenizer for text beyond ASCII (`tokenizer="unicode"`, `--rouge-tokenize unicode`):
    rouge-score's rule with Unicode letters and digits: lower case, every run of other
    characters a separator, tokens longer than 3 characters Porter-stemmed with `use_stemmer`.
    Text without spaces between words (Chinese, Japanese, Thai) stays one token per run: give
    such text a tokenizer of your own.

    :param use_stemmer: Stem tokens longer than 3 characters (rouge-score's Porter stemmer).

    >>> from cybleu.metrics.rouge import UnicodeTokenizer
    >>> UnicodeTokenizer().tokenize("Où est le café? Straße_7")
    ['où', 'est', 'le', 'café', 'straße', '7']
    """

    _SEPARATORS = re.compile(r"[\W_]+")

    def __init__(self, use_stemmer: bool = False) -> None:
        self.use_stemmer = use_stemmer
        self._stem = None
        if use_stemmer:
            from ..rouge_score._porter import PorterStemmer
            self._stem = PorterStemmer().stem

    def tokenize(self, text: str) -> List[str]:
        """The tokens of a text.

        :param text: The text.
        :returns: A list of str tokens.
        """
        tokens = [t for t in self._SEPARATORS.split(text.lower()) if t]
        if self._stem is not None:
            tokens = [self._stem(t) if len(t) > 3 else t for t in tokens]
        return tokens


#: the tokenizers a name selects (`tokenizer=` and `--rouge-tokenize`); None: rouge-score's
TOKENIZERS = ("rouge-score", "unicode")


class ROUGESignature(Signature):
    """ROUGE's reproducibility signature: `nrefs`, `types`, `stem` (Porter stemmer: yes/no),
    `split` (rougeLsum's sentences: `lines` or `nltk`), `tok` (`rouge-score` or `custom`),
    `version`. Made by :meth:`ROUGE.get_signature`.

    :param args: The metric's attributes (`metric.__dict__`).

    >>> from cybleu.metrics import ROUGE
    >>> rouge = ROUGE(["rouge1", "rougeL"], use_stemmer=True)
    >>> _ = rouge.corpus_score(["The cat sat on the mat."], [["The cat is on the mat."]])
    >>> print(rouge.get_signature())
    nrefs:1|types:rouge1+rougeL|stem:yes|split:lines|tok:rouge-score|version:cybleu-...
    """

    def __init__(self, args: Dict[str, Any]) -> None:
        super().__init__(args)
        self._abbr.update({"types": "t", "stem": "s", "split": "sp", "tok": "tok"})
        self.info.update({
            "types": "+".join(map(str, args["rouge_types"])),
            "stem": "yes" if args["use_stemmer"] else "no",
            "split": "nltk" if args["split_summaries"] else "lines",
            "tok": args["_tok_name"],
        })


class ROUGEScore(Score):
    """A ROUGE result: `score` (0-100) is 100 x the mean F of the headline type; `types` maps
    every type to its mean (precision, recall, F), each 0-1 as rouge-score gives them. Its
    name is the type's (`ROUGE-L`), or with several types all of them, headline first
    (`ROUGE-1/2/L`). The text line adds the headline's precision and recall (x 100), then each
    other type's F, P and R; JSON adds `precision` and `recall` of the headline.

    :param types: type -> (mean precision, mean recall, mean F).
    :param headline: The type `score` reports.

    >>> from cybleu.metrics import ROUGEScore
    >>> print(ROUGEScore({"rouge1": (0.5, 0.25, 1 / 3)}, "rouge1"))
    ROUGE-1 = 33.33 (P = 50.00 R = 25.00)
    """

    def __init__(self, types: Dict[str, Tuple[float, float, float]], headline: str) -> None:
        self.types = dict(types)
        self.headline = headline
        super().__init__(score_name([headline] + [t for t in self.types if t != headline]),
                         100 * self.types[headline][2])
        parts = []
        for t in [headline] + [t for t in self.types if t != headline]:
            p, r, f = self.types[t]
            pr = f"(P = {100 * p:.2f} R = {100 * r:.2f})"
            parts.append(pr if t == headline else f"| {type_name(t)} = {100 * f:.2f} {pr}")
        self._verbose = " ".join(parts)

    def _display(self) -> Dict[str, Any]:
        """What a notebook shows beside the line: each type's precision, recall and F."""
        order = [self.headline] + [t for t in self.types if t != self.headline]
        return {"kind": "rouge", "band": None, "notes": [
            "Precision, recall and F of each type (x 100): rouge-score's, averaged over the "
            "segments."],
            "charts": [{"kind": "prf", "aria": "precision, recall and F of each ROUGE type",
                        "names": ("P", "R", "F"), "parts": [type_name(t) for t in order],
                        "ticks": [t[5:] for t in order],
                        "values": [[100 * v for v in self.types[t]] for t in order]}]}

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        out = super().format(width, score_only, signature, is_json)
        if not is_json or score_only:
            return out
        import json
        doc = json.loads(out)
        p, r, _ = self.types[self.headline]
        doc["precision"] = float(f"{100 * p:.{width}f}")
        doc["recall"] = float(f"{100 * r:.{width}f}")
        return json.dumps(doc, indent=1, ensure_ascii=False)


class ROUGE(SegmentMeanMetric):
    """ROUGE (rouge-score 0.1.2's), a segment-mean metric.

    :param rouge_types: Types to compute: `'rouge1'` ... `'rouge9'`, `'rougeL'`, `'rougeLsum'`.
    :param use_stemmer: Porter-stem tokens longer than 3 characters.
    :param split_summaries: rougeLsum's sentences from nltk's sent_tokenize, not the lines.
    :param tokenizer: `"rouge-score"` (None, the default: rouge-score's tokenizer, which keeps
        ASCII letters and digits only: other text scores 0), `"unicode"` (the same rule with
        every script's letters and digits: :class:`UnicodeTokenizer`), or an object with
        `tokenize(text)` (which rouge-score calls instead of its own, without the stemmer).
    :param references: Reference streams to keep (as for BLEU).

    >>> from cybleu.metrics import ROUGE
    >>> rouge = ROUGE(["rouge2"])
    >>> print(rouge.corpus_score(["a b c d", "e f"], [["a b c e", "e f"]]))
    ROUGE-2 = 83.33 (P = 83.33 R = 83.33)
    >>> rouge.sentence_score("a b c d", ["a b c e"]).types["rouge2"]
    (0.6666666666666666, 0.6666666666666666, 0.6666666666666666)
    """

    label = "ROUGE"
    higher_is_better = True
    _SIGNATURE_TYPE = ROUGESignature
    #: the command lines' options for ROUGE: (flags, argparse's keywords, the constructor's
    #: argument)
    COMMAND_OPTIONS: Any = (
        (("--rouge-stemmer",), {"action": "store_true", "help": (
            "Porter-stem tokens longer than 3 characters (rouge-score's use_stemmer). "
            "(Default: off)")}, "use_stemmer"),
        (("--rouge-split-summaries",), {"action": "store_true", "help": (
            "rougeLsum's sentences from nltk's sentence splitter, not the lines. "
            "(Default: off)")}, "split_summaries"),
        (("--rouge-tokenize",), {"choices": TOKENIZERS, "default": None, "help": (
            "`rouge-score` (default): rouge-score's tokenizer, which keeps ASCII letters and "
            "digits only (text in other scripts scores 0); `unicode`: the same rule with every "
            "script's letters and digits (words separated by spaces).")}, "tokenizer"),
    )

    def __init__(self, rouge_types: Sequence[str] = DEFAULT_TYPES, use_stemmer: bool = False,
                 split_summaries: bool = False, tokenizer: Optional[Any] = None,
                 references: Optional[Sequence[Sequence[str]]] = None) -> None:
        from ..rouge_score import rouge_scorer
        super().__init__()
        kinds = rouge_scorer._kinds(rouge_types)
        if isinstance(kinds, Exception):
            raise kinds
        if not kinds:
            raise ValueError("ROUGE: rouge_types is empty; name at least one type")
        self.rouge_types = [key for key, _, _ in kinds]
        # a segment's values: F, precision, recall of each type; the first type's F leads
        self.VALUES = tuple(f"{t}_{m}" for t in self.rouge_types for m in ORDER)
        self.use_stemmer = use_stemmer
        self.split_summaries = split_summaries
        self._tok_name = "custom"
        if tokenizer is None or isinstance(tokenizer, str):
            self._tok_name = tokenizer or "rouge-score"
            if self._tok_name not in TOKENIZERS:
                raise ValueError(f"ROUGE: unknown tokenizer {tokenizer!r}; choose from "
                                 f"{', '.join(TOKENIZERS)}, or pass an object with "
                                 "tokenize(text)")
            tokenizer = UnicodeTokenizer(use_stemmer) if self._tok_name == "unicode" else None
        self.tokenizer = tokenizer
        self._scorer_made = None
        self.num_refs = None
        if references is not None:
            self._ref_cache = self._cache_references(references)

    def _scorer(self) -> Any:
        if self._scorer_made is None:
            from ..rouge_score import rouge_scorer
            self._scorer_made = rouge_scorer.RougeScorer(
                self.rouge_types, use_stemmer=self.use_stemmer,
                split_summaries=self.split_summaries, tokenizer=self.tokenizer)
        return self._scorer_made

    def segment_scores(self, stats: Any) -> Any:
        """Each segment's score by itself.

        :param stats: Segment rows (as `_extract_corpus_statistics` gives them).
        :returns: A float64 array: 100 x each row's F of the headline type.
        """
        import numpy as np
        return np.array([100 * (float(row[0]) / row[-1]) for row in _rows_of(stats)],
                        dtype=np.float64)

    # -- the report ------------------------------------------------------------------------------

    def _report_views(self, scores: Sequence[Any], stats: Sequence[Any]) -> Dict[str, Any]:
        """The report's "prf" view: each system's mean precision, recall and F (x 100) of
        every type, as rouge-score reports them."""
        return {"views": ["prf"], "prf": {
            "title": "precision, recall and F",
            "parts": [type_name(t) for t in self.rouge_types],
            "values": [[[100 * v for v in score.types[t]] for t in self.rouge_types]
                       for score in scores]}}

    def _report_detail(self, stats: Sequence[Any]) -> Any:
        """A segment's P, R and F (x 100) of each type, for the two-system view."""
        import numpy as np
        rows = np.stack([np.array(_rows_of(st), dtype=np.float64) for st in stats])
        rows[:, :, :-1] *= 100
        head, cells = ["ROUGE"], []
        for k, t in enumerate(self.rouge_types):
            name = type_name(t)[6:]
            head += [f"{name} P", f"{name} R", f"{name} F"]
            cells += [f"{{{3 * k + 1}}}", f"{{{3 * k + 2}}}", f"{{{3 * k}}}"]
        return rows, {"table": {"head": head, "label": "segment", "cells": cells}}

    def _report_alignment(self, hypotheses: Sequence[Sequence[str]],
                          references: Sequence[Sequence[Optional[str]]]) -> Any:
        """ROUGE-L's longest common subsequence of each segment, for the two-system view: the
        hypothesis's and the reference's tokens (rouge-score's: what ROUGE-L compares), and in
        each the positions of the LCS rouge-score's backtrack reads out (the kernel's
        `lcs_indices`), against the reference `score_multi` takes for ROUGE-L (the highest F,
        the first of equals). None without rougeL among the types."""
        if "rougeL" not in self.rouge_types:
            return None
        import json

        from .._backend import module
        from ..rouge_score import rouge_scorer
        lcs_indices = module("rouge").lcs_indices
        tokenize = self._scorer()._tokenizer.tokenize
        scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=self.use_stemmer,
                                          tokenizer=self.tokenizer)
        n_seg = len(references[0]) if references else 0
        refs = [[stream[i] for stream in references if stream[i] is not None]
                for i in range(n_seg)]
        ref_tokens = [[tokenize(r) for r in seg] for seg in refs]
        out = []
        for lines in hypotheses:
            strings = []
            for i, hyp in enumerate(lines):
                best = 0
                if len(refs[i]) > 1:
                    fs = [scorer.score(r, hyp)["rougeL"].fmeasure for r in refs[i]]
                    best = fs.index(max(fs))
                h, r = tokenize(hyp), ref_tokens[i][best]
                rm = lcs_indices(r, h)
                # where the same subsequence sits in the hypothesis: the backtrack's columns
                hm = lcs_indices(h, [r[k] for k in rm])
                strings.append(json.dumps({"h": [str(t) for t in h], "r": [str(t) for t in r],
                                           "hm": hm, "rm": rm, "ref": best},
                                          ensure_ascii=False, separators=(",", ":")))
            out.append(strings)
        stem = ", Porter-stemmed" if self.use_stemmer else ""
        tokens = {"rouge-score": f"rouge-score's tokens (lower case, ASCII letters and digits"
                                 f"{stem})",
                  "unicode": f"ROUGE's tokens (lower case letters and digits{stem})"}.get(
                      self._tok_name, "the tokenizer's tokens")
        empty = "no tokens"
        if self._tok_name == "rouge-score":
            empty += ": rouge-score's tokenizer keeps ASCII letters and digits only"
        spec = {"title": "ROUGE-L: longest common subsequence",
                "hyp": "hypothesis", "ref": "reference", "mark": "in the LCS",
                "legend": f"ROUGE-L: {tokens}; marked, the longest common subsequence of the "
                          "hypothesis and the reference, as rouge-score reads it out "
                          "(P = LCS / hypothesis tokens, R = LCS / reference tokens).",
                "empty": empty}
        return spec, out

    # -- the hooks -----------------------------------------------------------------------------

    def _preprocess_segment(self, sent: str) -> str:
        return sent

    def _extract_reference_info(self, refs: Sequence[str]) -> Dict[str, Any]:
        return {"refs": [r for r in refs if r is not None]}

    def _compute_segment_statistics(self, hypothesis: str, ref_kwargs: Dict[str, Any]) -> List[Any]:
        refs = ref_kwargs["refs"]
        if not refs:
            raise ValueError("ROUGE: a segment whose references are all None")
        scorer = self._scorer()
        result = scorer.score(refs[0], hypothesis) if len(refs) == 1 else \
            scorer.score_multi(refs, hypothesis)
        return [float(getattr(result[t], m)) for t in self.rouge_types for m in ORDER]

    def _segment_values(self, hypotheses: Sequence[str],
                        references: Optional[Sequence[Sequence[str]]]) -> Any:
        if references is None or self.tokenizer or self.split_summaries:
            return super()._segment_values(hypotheses, references)
        # the compiled batch: every segment in one call
        from ..rouge import batch_rouge
        segments, num_refs = _segments_from_streams(references, len(hypotheses), prefix="ROUGE")
        refs = []
        for i, seg in enumerate(segments):
            kept = [r for r in seg if r is not None]
            if not kept:
                raise ValueError(f"ROUGE: segment {i}'s references are all None")
            refs.append(kept)
        for i, hyp in enumerate(hypotheses):
            if not isinstance(hyp, str):
                raise TypeError(f"ROUGE: hypothesis {i} is {_what(hyp)}.")
        self.num_refs = num_refs
        got = batch_rouge(list(hypotheses), refs, self.rouge_types, self.use_stemmer)
        columns = [getattr(got[t], m) for t in self.rouge_types for m in ORDER]
        return [list(map(float, row)) for row in zip(*columns)]

    def _score_from_means(self, means: List[float], n: int) -> ROUGEScore:
        """The score of the values' means (a segment's own values when n is 1)."""
        types = {}
        for k, t in enumerate(self.rouge_types):
            f, p, r = means[3 * k: 3 * k + 3]
            types[t] = (p, r, f)
        return ROUGEScore(types, self.rouge_types[0])
