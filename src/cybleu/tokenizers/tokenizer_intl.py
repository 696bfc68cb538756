from .._backend import core
from .tokenizer_base import BaseTokenizer


class TokenizerV14International(BaseTokenizer):
    """mteval-v14's international tokenization, as sacreBLEU's `intl`: punctuation split off unless
    a digit is on both sides, symbols split off, by the `regex` module's Unicode categories (read
    off the installed `regex` at first use, as sacreBLEU's tokens follow it; frozen tables
    without it). No cache.

    >>> from cybleu.tokenizers.tokenizer_intl import TokenizerV14International
    >>> TokenizerV14International()("Hello, world! 3.5 km, « quoted » €5")
    'Hello , world ! 3.5 km , « quoted » € 5'
    """

    def signature(self) -> str:
        return "intl"

    def __call__(self, line: str) -> str:
        self._check(line)
        return core.tokenize(line, "intl")
