from .._backend import core
from .tokenizer_base import BaseTokenizer


class Tokenizer13a(BaseTokenizer):
    """mteval-v13a's tokenization, as sacreBLEU's `13a` (the default). No cache: nothing grows."""

    def signature(self) -> str:
        return "13a"

    def __call__(self, line: str) -> str:
        self._check(line)
        return core.tokenize_13a(line)
