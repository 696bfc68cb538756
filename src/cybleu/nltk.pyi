# Types of cybleu.nltk (nltk 3.10.4's bleu_score API). A stub rather than inline annotations: the
# module's run-time signatures stay exactly nltk's (a test compares them with inspect.signature).
# tests/test_packaging.py checks this stub against the module with mypy's stubtest.
import fractions
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Optional, overload

__all__ = ["Fraction", "SmoothingFunction", "brevity_penalty", "closest_ref_length", "corpus_bleu",
           "modified_precision", "sentence_bleu"]

# a sentence: any sequence of hashable tokens (strings, ints, ...)
_Tokens = Sequence[Hashable]
# called as nltk calls it: smoothing_function(p_n, references=..., hypothesis=..., hyp_len=...)
_Smoothing = Callable[..., Any]

class Fraction(fractions.Fraction):
    def __new__(cls, numerator: Any = 0, denominator: Any = None,
                _normalize: bool = False) -> Fraction: ...
    @property
    def numerator(self) -> Any: ...
    @property
    def denominator(self) -> Any: ...

def modified_precision(references: Sequence[_Tokens], hypothesis: _Tokens, n: int) -> Fraction: ...
def closest_ref_length(references: Sequence[_Tokens], hyp_len: int) -> int: ...
def brevity_penalty(closest_ref_len: int, hyp_len: int) -> float: ...

class SmoothingFunction:
    epsilon: float
    alpha: float
    k: float
    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None: ...
    # p_n: the precisions, Fractions (or floats after an earlier method)
    def method0(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]: ...
    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]: ...
    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]: ...
    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]: ...
    def method4(self, p_n: list[Any], references: Sequence[_Tokens], hypothesis: _Tokens,
                hyp_len: Optional[int] = None, *args: Any, **kwargs: Any) -> list[Any]: ...
    def method5(self, p_n: list[Any], references: Sequence[_Tokens], hypothesis: _Tokens,
                hyp_len: Optional[int] = None, *args: Any, **kwargs: Any) -> list[Any]: ...
    def method6(self, p_n: list[Any], references: Sequence[_Tokens], hypothesis: _Tokens,
                hyp_len: Optional[int] = None, *args: Any, **kwargs: Any) -> list[Any]: ...
    def method7(self, p_n: list[Any], references: Sequence[_Tokens], hypothesis: _Tokens,
                hyp_len: Optional[int] = None, *args: Any, **kwargs: Any) -> list[Any]: ...

# one weight vector gives a score (the int 0 when nothing matches, as in nltk); a list of weight
# vectors gives a list of scores
@overload
def corpus_bleu(list_of_references: Sequence[Sequence[_Tokens]], hypotheses: Sequence[_Tokens],
                weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
                smoothing_function: Optional[_Smoothing] = None,
                auto_reweigh: bool = False) -> float: ...
@overload
def corpus_bleu(list_of_references: Sequence[Sequence[_Tokens]], hypotheses: Sequence[_Tokens],
                weights: Sequence[Sequence[float]], smoothing_function: Optional[_Smoothing] = None,
                auto_reweigh: bool = False) -> list[float]: ...
@overload
def sentence_bleu(references: Sequence[_Tokens], hypothesis: _Tokens,
                  weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
                  smoothing_function: Optional[_Smoothing] = None,
                  auto_reweigh: bool = False) -> float: ...
@overload
def sentence_bleu(references: Sequence[_Tokens], hypothesis: _Tokens,
                  weights: Sequence[Sequence[float]], smoothing_function: Optional[_Smoothing] = None,
                  auto_reweigh: bool = False) -> list[float]: ...
