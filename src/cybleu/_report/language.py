"""The report's check of its tokenization against the script of the references.

A test set given no language pair, whose references are mostly in a script written without
spaces (`cybleu.tokenizers.language_hint`), gets the notes each metric gives about its own
tokenization (`Metric._script_notes`: BLEU's when it splits words at spaces, ...), naming the
option that fixes it. The notes go on the page (the overview, the notebook card, the table shown
without scripts) and to the log, which `cybleu report` prints.
"""
from ..tokenizers import language_hint

__all__ = ["notes"]


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
        ask = getattr(metric, "_script_notes", None)
        if ask is not None:
            out.extend(ask(hint, target))
    return out
