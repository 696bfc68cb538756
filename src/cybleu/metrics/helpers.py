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
    """Word n-grams of orders `min_order` to `max_order` of the whitespace-split line, as tuples,
    and the number of words (sacreBLEU's `extract_all_word_ngrams`).

    :param line: A (tokenized) line.
    :param min_order: The smallest order.
    :param max_order: The largest order.
    :returns: (a Counter of n-gram tuples, the number of words).

    >>> from cybleu.metrics.helpers import extract_all_word_ngrams
    >>> extract_all_word_ngrams("a b a b", 1, 2)
    (Counter({('a',): 2, ('b',): 2, ('a', 'b'): 2, ('b', 'a'): 1}), 4)
    """
    tokens = line.split()
    grams = [tuple(tokens[i:i + n])
             for n in range(min_order, max_order + 1)
             for i in range(len(tokens) - n + 1)]
    return Counter(grams), len(tokens)


def extract_word_ngrams(tokens: List[str], n: int) -> "Counter[str]":
    """Order-n word n-grams of a token list, each the tokens joined by one space (sacreBLEU's
    `extract_word_ngrams`, which chrF++ uses).

    :param tokens: A list of words.
    :param n: The order.
    :returns: A Counter of n-gram strings.

    >>> import cybleu
    >>> cybleu.extract_word_ngrams(["a", "b", "a", "b"], 2)
    Counter({'a b': 2, 'b a': 1})
    """
    return Counter([" ".join(tokens[i:i + n]) for i in range(len(tokens) - n + 1)])


def extract_char_ngrams(line: str, n: int, include_whitespace: bool = False) -> "Counter[str]":
    """Order-n character n-grams of a line (sacreBLEU's `extract_char_ngrams`); whitespace (what
    `str.split` splits on) is removed first unless `include_whitespace`.

    :param line: A line.
    :param n: The order.
    :param include_whitespace: Keep whitespace in the n-grams.
    :returns: A Counter of n-gram strings.

    >>> import cybleu
    >>> cybleu.extract_char_ngrams("ab ab", 2)
    Counter({'ab': 2, 'ba': 1})
    >>> cybleu.extract_char_ngrams("ab ab", 2, include_whitespace=True)
    Counter({'ab': 2, 'b ': 1, ' a': 1})
    """
    if not include_whitespace:
        line = "".join(line.split())
    return Counter([line[i:i + n] for i in range(len(line) - n + 1)])


def extract_all_char_ngrams(line: str, max_order: int,
                            include_whitespace: bool = False) -> "List[Counter[str]]":
    """One Counter of character n-grams per order 1 to `max_order` (sacreBLEU's
    `extract_all_char_ngrams`).

    :param line: A line.
    :param max_order: The largest order.
    :param include_whitespace: Keep whitespace in the n-grams.
    :returns: A list of `max_order` Counters.

    >>> from cybleu.metrics.helpers import extract_all_char_ngrams
    >>> extract_all_char_ngrams("ab ab", 2)
    [Counter({'a': 2, 'b': 2}), Counter({'ab': 2, 'ba': 1})]
    """
    if not include_whitespace:
        line = "".join(line.split())
    return [Counter([line[i:i + n] for i in range(len(line) - n + 1)])
            for n in range(1, max_order + 1)]
