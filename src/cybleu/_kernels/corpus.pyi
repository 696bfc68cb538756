# Stub of the compiled module _corpus (kept equal to the twin's signatures, core_py.py).
from array import array
from typing import Optional, Sequence

from typing_extensions import disjoint_base

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "count_tokenized_periods"]

@disjoint_base
class RefSet:
    max_order: int
    tokenize: str
    lowercase: bool
    frozen: bool
    def __init__(self, refs: Sequence[Sequence[str]], tokenize: str = ..., lowercase: bool = ...,
                 max_order: int = ..., reuse: bool = ...) -> None: ...
    def no_tables(self) -> None: ...
    @property
    def num_segments(self) -> int: ...
    def corpus_stats(self, hyps: Sequence[str]) -> list[int]: ...
    def segment_stats(self, hyps: Sequence[str]) -> list[list[int]]: ...
    def segment_stats_flat(self, hyps: Sequence[str]) -> array[int]: ...
    def sentence_scores(self, hyps: Sequence[str], smooth_method: str = ...,
                        smooth_value: Optional[float] = ...,
                        effective_order: bool = ..., n_threads: int = ...) -> array[float]: ...
    def grouped_sentence_scores(self, hyps: Sequence[str], k: int, smooth_method: str = ...,
                                smooth_value: Optional[float] = ...,
                                effective_order: bool = ...,
                                n_threads: int = ...) -> array[float]: ...

def count_tokenized_periods(lines: Sequence[object], limit: int) -> int: ...

def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                 lowercase: bool = ..., max_order: int = ...) -> list[int]: ...
def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                  lowercase: bool = ..., max_order: int = ...) -> list[list[int]]: ...
def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                    lowercase: bool = ..., max_order: int = ..., smooth_method: str = ...,
                    smooth_value: Optional[float] = ...,
                    effective_order: bool = ..., n_threads: int = ...) -> array[float]: ...
