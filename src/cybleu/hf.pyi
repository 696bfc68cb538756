# Types of cybleu.hf (Hugging Face evaluate's `bleu`); checked against the module by
# tests/test_packaging.py with mypy's stubtest.
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Optional, Union

__all__ = ["Bleu", "bleu", "compute_bleu", "tokenizer_13a", "make_compute_metrics", "Seq2SeqBleu"]

def tokenizer_13a(line: str) -> list[str]: ...

# (bleu, precisions, brevity penalty, length ratio, translation_length, reference_length)
def compute_bleu(reference_corpus: Sequence[Sequence[Sequence[Hashable]]],
                 translation_corpus: Sequence[Sequence[Hashable]], max_order: int = 4,
                 smooth: bool = False) -> tuple[float, list[float], float, float, int, int]: ...

# references: one list of references per prediction, or one string per prediction. The dict has
# the keys bleu, precisions, brevity_penalty, length_ratio, translation_length, reference_length.
def bleu(predictions: Sequence[str], references: Union[Sequence[str], Sequence[Sequence[str]]],
         tokenizer: Callable[[str], Sequence[Hashable]] = ..., max_order: int = 4,
         smooth: bool = False) -> dict[str, Any]: ...

# evaluate's batch protocol: add_batch/add keep the lines until compute (which empties them)
class Bleu:
    def __init__(self) -> None: ...
    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None: ...
    def add(self, *, prediction: Any = None, reference: Any = None) -> None: ...
    def compute(self, *, predictions: Any = None, references: Any = None,
                tokenizer: Callable[[str], Sequence[Hashable]] = ..., max_order: int = 4,
                smooth: bool = False) -> dict[str, Any]: ...

# a compute_metrics for transformers' Seq2SeqTrainer (tokenizer: a transformers tokenizer)
def make_compute_metrics(tokenizer: Any, *, tokenize: str = "13a", lowercase: bool = False,
                         smooth_method: str = "exp", smooth_value: Optional[float] = None,
                         use_effective_order: bool = False, decode: bool = True,
                         skip_special_tokens: bool = True, strip: bool = True) -> Seq2SeqBleu: ...

class Seq2SeqBleu:
    statistics: list[int]
    def __init__(self, tokenizer: Any, *, tokenize: str = "13a", lowercase: bool = False,
                 smooth_method: str = "exp", smooth_value: Optional[float] = None,
                 use_effective_order: bool = False, decode: bool = True,
                 skip_special_tokens: bool = True, strip: bool = True) -> None: ...
    def reset(self) -> None: ...
    def __call__(self, eval_pred: Any, compute_result: Optional[bool] = None) -> dict[str, float]: ...
