# Stub of the compiled core; kept equal to the signatures of the pure-Python twin (_core_py.py).
from array import array
from typing import Optional, Sequence

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "tokenize_13a",
           "tokenize", "bleu_scores_from_stats", "ids_segment_stats", "ids_pairwise_scores",
           "ids_self_stats"]

@disjoint_base
class RefSet:
    max_order: int
    tokenize: str
    lowercase: bool
    def __init__(self, refs: Sequence[Sequence[str]], tokenize: str = ..., lowercase: bool = ...,
                 max_order: int = ...) -> None: ...
    @property
    def num_segments(self) -> int: ...
    def corpus_stats(self, hyps: Sequence[str]) -> list[int]: ...
    def segment_stats(self, hyps: Sequence[str]) -> list[list[int]]: ...
    def sentence_scores(self, hyps: Sequence[str], smooth_method: str = ...,
                        smooth_value: Optional[float] = ..., effective_order: bool = ...) -> array[float]: ...

def corpus_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                 lowercase: bool = ..., max_order: int = ...) -> list[int]: ...
def segment_stats(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                  lowercase: bool = ..., max_order: int = ...) -> list[list[int]]: ...
def sentence_scores(hyps: Sequence[str], refs: Sequence[Sequence[str]], tokenize: str = ...,
                    lowercase: bool = ..., max_order: int = ..., smooth_method: str = ...,
                    smooth_value: Optional[float] = ..., effective_order: bool = ...) -> array[float]: ...
def tokenize_13a(line: str) -> str: ...
def tokenize(line: str, tokenize: str = "13a") -> str: ...
# stats: a contiguous int64 buffer of rows [hyp_len, ref_len, correct_1..N, total_1..N]
def bleu_scores_from_stats(stats: npt.NDArray[np.int64], max_order: int, smooth_method: str,
                           smooth_value: Optional[float], effective_order: bool) -> array[float]: ...
# token IDs: any 1-D integer sequence or array (checked and converted to uint32 by _ragged)
def ids_segment_stats(hyp_flat: npt.ArrayLike, hyp_offsets: npt.ArrayLike, ref_flat: npt.ArrayLike,
                      ref_offsets: npt.ArrayLike, seg_ref_offsets: npt.ArrayLike,
                      max_order: int = ..., n_threads: int = ...) -> npt.NDArray[np.int64]: ...
def ids_pairwise_scores(hyp_flat: npt.ArrayLike, hyp_offsets: npt.ArrayLike, ref_flat: npt.ArrayLike,
                        ref_offsets: npt.ArrayLike, max_order: int = ..., smooth_method: str = ...,
                        smooth_value: Optional[float] = ..., effective_order: bool = ...,
                        n_threads: int = ...) -> npt.NDArray[np.float64]: ...
def ids_self_stats(flat: npt.ArrayLike, offsets: npt.ArrayLike, max_order: int = ...,
                   n_threads: int = ...) -> npt.NDArray[np.int64]: ...
