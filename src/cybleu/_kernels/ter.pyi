# Stub of the compiled TER kernel; kept equal to the signatures of its pure-Python twin
# (ter_py.py).
from array import array
from typing import Any, Hashable, List, Sequence, Tuple

from typing_extensions import disjoint_base

__all__ = ["tokenize", "edit_stats", "edit_distance_trace", "RefSet", "segment_stats",
           "corpus_stats", "sentence_scores"]

def tokenize(line: str, normalized: bool = ..., no_punct: bool = ..., asian_support: bool = ...,
             case_sensitive: bool = ...) -> str: ...
def edit_stats(words_hyp: Sequence[Hashable], words_ref: Sequence[Hashable]) -> Tuple[int, int]: ...
def edit_distance_trace(words_hyp: Sequence[Hashable],
                        words_ref: Sequence[Hashable]) -> Tuple[int, str]: ...

@disjoint_base
class RefSet:
    normalized: bool
    no_punct: bool
    asian_support: bool
    case_sensitive: bool
    def __init__(self, refs: Sequence[Sequence[str]], normalized: bool = ..., no_punct: bool = ...,
                 asian_support: bool = ..., case_sensitive: bool = ...) -> None: ...
    @property
    def num_segments(self) -> int: ...
    def ref_words(self, index: int) -> List[List[str]]: ...
    def segment_stats(self, hyps: Sequence[str]) -> List[List[Any]]: ...
    def corpus_stats(self, hyps: Sequence[str]) -> List[Any]: ...
    def sentence_scores(self, hyps: Sequence[str]) -> "array[float]": ...

def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = ...,
                  no_punct: bool = ..., asian_support: bool = ...,
                  case_sensitive: bool = ...) -> List[List[Any]]: ...
def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = ...,
                 no_punct: bool = ..., asian_support: bool = ...,
                 case_sensitive: bool = ...) -> List[Any]: ...
def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], normalized: bool = ...,
                    no_punct: bool = ..., asian_support: bool = ...,
                    case_sensitive: bool = ...) -> "array[float]": ...
