"""tercom's tokenizer under sacreBLEU's module path (`cybleu.tokenizers.tokenizer_ter`).

The work is done by TER's kernel (`_backend.module("ter").tokenize`: compiled, or its pure-Python
twin), on code points; the output is sacreBLEU's `TercomTokenizer` output, string for string. No
per-line cache (sacreBLEU's holds up to 65,536 lines): memory stays flat.
"""
from typing import Tuple

from .. import _backend
from .tokenizer_base import BaseTokenizer

_ter_kernel = _backend.module("ter")

__all__ = ["TercomTokenizer"]


class TercomTokenizer(BaseTokenizer):
    """tercom's normalizer, as sacreBLEU's `TercomTokenizer` (same arguments and output).

    :param normalized: Split punctuation and undo XML escapes (tercom's normalization); with
        `asian_support`, also split CJK characters and CJK/full-width punctuation apart.
    :param no_punct: Remove punctuation (`.,?:;!"()`; with `asian_support`, CJK and full-width
        punctuation too).
    :param asian_support: The CJK parts of `normalized` and `no_punct`.
    :param case_sensitive: Do not lowercase.

    >>> from cybleu.tokenizers.tokenizer_ter import TercomTokenizer
    >>> TercomTokenizer()("Hello, World!"), TercomTokenizer(normalized=True)("Hello, World!")
    ('hello, world!', 'hello , world !')
    >>> TercomTokenizer(no_punct=True, case_sensitive=True)("Hello, World!")
    'Hello World'
    """

    # sacreBLEU's class attributes (regular expressions), for code that reads them
    ASIAN_PUNCT = r"([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])"
    FULL_WIDTH_PUNCT = r"([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])"

    def __init__(self, normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> None:
        self._normalized = normalized
        self._no_punct = no_punct
        self._asian_support = asian_support
        self._case_sensitive = case_sensitive

    def __call__(self, sent: str) -> str:
        """Tokenize one line as tercom (and sacreBLEU's TER) does.

        :param sent: The line.
        :returns: Its words joined by single spaces.
        """
        words: str = _ter_kernel.tokenize(sent, self._normalized, self._no_punct,
                                           self._asian_support, self._case_sensitive)
        return words

    def signature(self) -> str:
        return "tercom"

    def _flags(self) -> Tuple[bool, bool, bool, bool]:
        """The settings as the kernel takes them."""
        return (bool(self._normalized), bool(self._no_punct), bool(self._asian_support),
                bool(self._case_sensitive))
