"""The report's check of its tokenization against the script of the references.

A test set given no language pair, whose references are mostly in a script written without
spaces (`cybleu.tokenizers.language_hint`), gets a note for each metric that splits words at
spaces: BLEU with 13a or intl, TER without its Asian normalization. TER gets one too when the
language pair names Chinese or Japanese. The notes go on the page (the overview, the notebook card,
the table shown without scripts) and to the log, which `cybleu report` prints; they name the
option that fixes it.
"""
from ..tokenizers import language_hint

__all__ = ["notes"]

# TER's asian_support (with normalized) splits these languages' characters apart
_TER_SPLITS = ("zh", "ja")
_TER_FIX = ("--ter-normalized --ter-asian-support (cybleu report), or "
            "TER(normalized=True, asian_support=True) (cybleu.report)")


def _reference_sample(references, per_stream=5000):
    return [line for stream in references for line in stream[:per_stream]]


def notes(references, metrics, target=None):
    """The notes of one test set, as a list of sentences (empty when nothing is wrong).

    :param references: the reference streams (lists of str or None).
    :param metrics: the metric objects, as configured for the set.
    :param target: the target language of the set's language pair, or None."""
    out = []
    hint = language_hint.guess(_reference_sample(references)) if target is None else None
    for metric in metrics:
        tokenize = getattr(metric, "tokenizer_signature", None)   # BLEU names its tokenizer
        if hint is not None and tokenize in language_hint.DEFAULT_TOKENIZERS:
            out.append(language_hint.advice(hint, tokenize, "report"))
        asian = getattr(metric, "asian_support", None)             # TER's Asian option
        if asian is None or (asian and getattr(metric, "normalized", False)):
            continue
        language = target if target is not None else (hint.language if hint else None)
        if language in _TER_SPLITS:
            name = hint.name if hint else {"zh": "Chinese", "ja": "Japanese"}[language]
            out.append(f"TER counts the words between spaces: on {name} a clause is one word "
                       f"and TER stays near 100; add {_TER_FIX}.")
        elif hint is not None and hint.language != "ko":
            out.append(f"TER counts words between spaces, and has no option to split "
                       f"{hint.name}: its scores here mean little.")
    return out
