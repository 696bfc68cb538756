# Stub of the compiled chrF kernel; kept equal to the signatures of the pure-Python twin (chrf_py.py).
from array import array
from typing import Any, List, Sequence

__all__ = ["segment_stats", "corpus_stats", "sentence_scores", "pairwise_scores", "f_scores"]

def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = ...,
                  word_order: int = ..., whitespace: bool = ..., lowercase: bool = ...,
                  beta: Any = ..., eps_smoothing: bool = ...) -> List[List[int]]: ...
def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = ...,
                 word_order: int = ..., whitespace: bool = ..., lowercase: bool = ...,
                 beta: Any = ..., eps_smoothing: bool = ...) -> List[int]: ...
def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], char_order: int = ...,
                    word_order: int = ..., whitespace: bool = ..., lowercase: bool = ...,
                    beta: Any = ..., eps_smoothing: bool = ...) -> array: ...
def pairwise_scores(hyps: Sequence[str], refs: Sequence[str], char_order: int = ...,
                    word_order: int = ..., whitespace: bool = ..., lowercase: bool = ...,
                    beta: Any = ..., eps_smoothing: bool = ...) -> array: ...
def f_scores(stats: Sequence[int], order: int, beta: Any = ...,
             eps_smoothing: bool = ...) -> array: ...
