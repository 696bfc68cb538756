# Types of cybleu.hf (Hugging Face evaluate's `bleu`); checked against the module by
# tests/test_packaging.py with mypy's stubtest.
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Union

__all__ = ["Bleu", "bleu", "compute_bleu", "tokenizer_13a"]

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

class Bleu:
    def compute(self, *, predictions: Sequence[str],
                references: Union[Sequence[str], Sequence[Sequence[str]]],
                tokenizer: Callable[[str], Sequence[Hashable]] = ..., max_order: int = 4,
                smooth: bool = False) -> dict[str, Any]: ...
