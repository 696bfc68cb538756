# Types of cybleu.ids (BLEU on token IDs); checked against the module by tests/test_packaging.py
# with mypy's stubtest.
from collections.abc import Sequence
from typing import Any, ClassVar, Dict, Optional, Union

import numpy as np
import numpy.typing as npt

from .metrics.bleu import BLEUScore

__all__ = ["Ragged", "BLEUStats", "BLEUAccumulator", "sentence_bleu", "corpus_bleu",
           "segment_stats", "corpus_stats", "pairwise_bleu", "self_bleu", "self_bleu_stats",
           "rouge"]

# A batch of token-ID sentences: a list of ID sequences; a 2-D integer array (numpy, a CPU torch
# tensor, anything with __dlpack__, __array__ or the buffer protocol); or a Ragged. References
# also take a 3-D array (batch, n_refs, length) and a list holding a list of references per
# hypothesis.
_Batch = Union[Ragged, npt.ArrayLike]
_Ints = npt.NDArray[np.int64]
_Floats = npt.NDArray[np.float64]

class Ragged:
    flat: npt.ArrayLike
    offsets: npt.ArrayLike
    groups: Optional[npt.ArrayLike]
    def __init__(self, flat: npt.ArrayLike, offsets: npt.ArrayLike,
                 groups: Optional[npt.ArrayLike] = None) -> None: ...

class BLEUStats:
    vector: _Ints
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __init__(self, vector: npt.ArrayLike) -> None: ...
    @classmethod
    def from_numpy(cls, vector: npt.ArrayLike) -> BLEUStats: ...
    def to_numpy(self) -> _Ints: ...
    @property
    def max_order(self) -> int: ...
    def __add__(self, other: Union[BLEUStats, int]) -> BLEUStats: ...
    def __radd__(self, other: Union[BLEUStats, int]) -> BLEUStats: ...
    def __eq__(self, other: object) -> bool: ...
    def score(self, smooth_method: str = "exp", smooth_value: Optional[float] = None,
              effective_order: bool = False) -> BLEUScore: ...

class BLEUAccumulator:
    max_order: int
    smooth_method: str
    smooth_value: Optional[float]
    effective_order: bool
    pad_id: Optional[int]
    eos_id: Optional[int]
    n_threads: int
    stats: BLEUStats
    def __init__(self, max_order: int = 4, smooth_method: str = "exp",
                 smooth_value: Optional[float] = None, effective_order: bool = False,
                 pad_id: Optional[int] = None, eos_id: Optional[int] = None,
                 n_threads: int = 1) -> None: ...
    def reset(self) -> None: ...
    def update(self, hyps: _Batch, refs: _Batch) -> BLEUStats: ...
    def compute(self) -> BLEUScore: ...

def segment_stats(hyps: _Batch, refs: _Batch, *, max_order: int = 4, pad_id: Optional[int] = None,
                  eos_id: Optional[int] = None, n_threads: int = 1) -> _Ints: ...
def corpus_stats(hyps: _Batch, refs: _Batch, *, max_order: int = 4, pad_id: Optional[int] = None,
                 eos_id: Optional[int] = None, n_threads: int = 1) -> BLEUStats: ...
def sentence_bleu(hyps: _Batch, refs: _Batch, *, max_order: int = 4, smooth_method: str = "exp",
                  smooth_value: Optional[float] = None, effective_order: bool = True,
                  weights: Optional[Sequence[float]] = None, pad_id: Optional[int] = None,
                  eos_id: Optional[int] = None, n_threads: int = 1) -> _Floats: ...
def corpus_bleu(hyps: _Batch, refs: _Batch, *, max_order: int = 4, smooth_method: str = "exp",
                smooth_value: Optional[float] = None, effective_order: bool = False,
                pad_id: Optional[int] = None, eos_id: Optional[int] = None,
                n_threads: int = 1) -> BLEUScore: ...
def pairwise_bleu(hyps: _Batch, refs: Optional[_Batch] = None, *, max_order: int = 4,
                  smooth_method: str = "exp", smooth_value: Optional[float] = None,
                  effective_order: bool = True, pad_id: Optional[int] = None,
                  eos_id: Optional[int] = None, n_threads: int = 1) -> _Floats: ...
def self_bleu_stats(sentences: _Batch, *, max_order: int = 4, pad_id: Optional[int] = None,
                    eos_id: Optional[int] = None) -> _Ints: ...
def self_bleu(sentences: _Batch, *, max_order: int = 4, smooth_method: str = "exp",
              smooth_value: Optional[float] = None, effective_order: bool = True,
              pad_id: Optional[int] = None, eos_id: Optional[int] = None) -> _Floats: ...
def rouge(hyps: _Batch, refs: _Batch, *, rouge_types: Sequence[str] = ...,
          pad_id: Optional[int] = None, eos_id: Optional[int] = None,
          n_threads: int = 1) -> Dict[str, Any]: ...
