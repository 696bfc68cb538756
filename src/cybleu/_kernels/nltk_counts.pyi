# Stub of the compiled nltk/HF counting module; kept equal to the pure-Python twin (nltk_counts_py.py).
from typing import Hashable, Sequence, Union

__all__ = ["corpus_counts", "hf_counts", "sentence_score"]

def corpus_counts(list_of_references: Sequence[Sequence[Sequence[Hashable]]],
                  hypotheses: Sequence[Sequence[Hashable]],
                  max_order: int) -> tuple[int, int, list[int], list[int]]: ...
def hf_counts(reference_corpus: Sequence[Sequence[Sequence[Hashable]]],
              translation_corpus: Sequence[Sequence[Hashable]],
              max_order: int) -> tuple[int, int, list[int], list[int]]: ...
def sentence_score(references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable],
                   weights: tuple[float, ...], mode: int, param: float,
                   reweigh: bool) -> Union[float, int, tuple[float, int], None]: ...
