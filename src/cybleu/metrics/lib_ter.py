"""TER's edit-distance functions under sacreBLEU's module path (`sacrebleu.metrics.lib_ter`), for
code that imports them: `translation_edit_rate`, `BeamEditDistance`, `trace_to_alignment`, and the
limits. The shift search and the beam edit distance run in TER's kernel (`_backend.module("ter")`:
compiled, or its pure-Python twin `ter_py.py`, which explains the algorithm); the results are
sacreBLEU 2.6.0's, number for number and trace for trace.

Words are compared as dictionary keys (so they must be hashable; strings in practice).
"""
from typing import Dict, Hashable, List, Sequence, Tuple

from .. import _backend

_ter_kernel = _backend.module("ter")

__all__ = ["translation_edit_rate", "BeamEditDistance", "trace_to_alignment"]

_COST_INS = 1
_COST_DEL = 1
_COST_SUB = 1

# tercom's limits, as sacreBLEU sets them
_MAX_SHIFT_SIZE = 10
_MAX_SHIFT_DIST = 50
_BEAM_WIDTH = 25

# sacreBLEU's own limits (its prefix cache's size does not change any result; there is none here)
_MAX_CACHE_SIZE = 10000
_MAX_SHIFT_CANDIDATES = 1000
_INT_INFINITY = int(1e16)

_OP_INS = "i"
_OP_DEL = "d"
_OP_NOP = " "
_OP_SUB = "s"
_OP_UNDEF = "x"


def translation_edit_rate(words_hyp: Sequence[Hashable],
                          words_ref: Sequence[Hashable]) -> Tuple[int, int]:
    """TER's edits of one hypothesis against one reference (sacreBLEU's
    `translation_edit_rate`): tercom's greedy search for block shifts, then the beam edit
    distance after them.

    :param words_hyp: The hypothesis words (hashable items, strings in practice).
    :param words_ref: The reference words.
    :returns: (number of edits, reference length in words).
    :raises TypeError: A word that is not hashable.

    >>> from cybleu.metrics.lib_ter import translation_edit_rate
    >>> translation_edit_rate("a b c d".split(), "a c b d".split())   # one shift
    (1, 4)
    """
    edits, length = _ter_kernel.edit_stats(words_hyp, words_ref)
    return int(edits), int(length)


class BeamEditDistance:
    """The beam edit distance to a fixed reference (sacreBLEU's `BeamEditDistance`, without
    shifts): calling it with hypothesis words returns (distance, trace), the trace a string of
    ' ' (match), 's' (substitution), 'i' (a reference word inserted) and 'd' (a hypothesis word
    deleted).

    :param words_ref: The reference words.

    >>> from cybleu.metrics.lib_ter import BeamEditDistance
    >>> BeamEditDistance("the cat is on the mat".split())("the cat sat on the mat".split())
    (1, '  s   ')
    """

    def __init__(self, words_ref: Sequence[Hashable]) -> None:
        self._words_ref = list(words_ref)
        self._n_words_ref = len(self._words_ref)

    def __call__(self, words_hyp: Sequence[Hashable]) -> Tuple[int, str]:
        """The distance of `words_hyp` to the reference.

        :param words_hyp: The hypothesis words.
        :returns: (distance, trace).
        """
        distance, trace = _ter_kernel.edit_distance_trace(words_hyp, self._words_ref)
        return int(distance), trace


def _flip_trace(trace: str) -> str:
    """The trace of rewriting the other way round: insertions and deletions swapped."""
    return trace.translate({ord("i"): "d", ord("d"): "i"})


def trace_to_alignment(trace: str) -> Tuple[Dict[int, int], List[int], List[int]]:
    """sacreBLEU's alignment of a (flipped) trace: reference position -> hypothesis position, and
    the error flags of the reference and of the hypothesis words.

    :param trace: A trace of `' '`, `'s'`, `'i'` and `'d'` operations.
    :returns: (alignment dict, reference error flags, hypothesis error flags).
    :raises Exception: An unknown operation in the trace (sacreBLEU's exception type).

    >>> from cybleu.metrics.lib_ter import trace_to_alignment
    >>> trace_to_alignment(" i d")
    ({0: 0, 1: 2, 2: 2}, [0, 0, 1], [0, 1, 0])
    """
    pos_hyp = pos_ref = -1
    align: Dict[int, int] = {}
    ref_err: List[int] = []
    hyp_err: List[int] = []
    for op in trace:
        if op == _OP_NOP or op == _OP_SUB:
            pos_hyp += 1
            pos_ref += 1
            align[pos_ref] = pos_hyp
            err = int(op == _OP_SUB)
            hyp_err.append(err)
            ref_err.append(err)
        elif op == _OP_INS:
            pos_hyp += 1
            hyp_err.append(1)
        elif op == _OP_DEL:
            pos_ref += 1
            align[pos_ref] = pos_hyp
            ref_err.append(1)
        else:
            raise Exception(f"unknown operation {op!r}")
    return align, ref_err, hyp_err
