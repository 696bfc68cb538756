from .._backend import core
from .tokenizer_base import BaseTokenizer


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a's tokenization, as sacreBLEU's `13a` (the default): punctuation split off,
    except periods and commas between digits; a few SGML entities unescaped. No per-line cache:
    nothing grows.

    >>> from cybleu.tokenizers.tokenizer_13a import Tokenizer13a
    >>> Tokenizer13a()("Hello, world! (It's 3.5 km.)")
    "Hello , world ! ( It's 3.5 km . )"
    """

    def signature(self) -> str:
        return "13a"

    def __call__(self, line: str) -> str:
        self._check(line)
        return core.tokenize_13a(line)
