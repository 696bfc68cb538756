"""Word and character n-gram extraction, as sacreBLEU 2.6.0's `metrics.helpers` (same outputs:
the same Counter keys, counts and insertion order).

The metrics' compiled kernels do not call these; they are the readable definitions the kernels
are tested against, and what the sacreBLEU-style hooks (`_extract_reference_info`, ...) use.
"""
from __future__ import annotations

from collections import Counter

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads the name)
if TYPE_CHECKING:
    from typing import List, Tuple

__all__ = ["extract_all_word_ngrams", "extract_word_ngrams", "extract_char_ngrams",
           "extract_all_char_ngrams"]


def extract_all_word_ngrams(line: str, min_order: int,
                            max_order: int) -> Tuple["Counter[Tuple[str, ...]]", int]:
    """Word n-grams of orders min_order..max_order of the whitespace-split line, as tuples, and
    the number of words."""
    tokens = line.split()
    grams = [tuple(tokens[i:i + n])
             for n in range(min_order, max_order + 1)
             for i in range(len(tokens) - n + 1)]
    return Counter(grams), len(tokens)


def extract_word_ngrams(tokens: List[str], n: int) -> "Counter[str]":
    """Order-n n-grams of a token list, each the tokens joined by one space."""
    return Counter([" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> "Counter[str]":
    """Order-n character n-grams; whitespace (str.split's) removed first unless
    include_whitespace."""
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i:i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(line: str, max_order: int,
                            include_whitespace: bool = False) -> "List[Counter[str]]":
    """One Counter of character n-grams per order 1..max_order."""
    if not include_whitespace:
        line = "".join(line.split())
    return [Counter([line[i:i + n] for i in range(len(line) - n + 1)])
            for n in range(1, max_order + 1)]
