from .tokenizer_base import BaseTokenizer


class TokenizerChar(BaseTokenizer):
    """Every code point a token, as sacreBLEU's `char` (whitespace stays in the string; BLEU's
    whitespace split drops it)."""

    def signature(self) -> str:
        return "char"

    def __call__(self, line: str) -> str:
        self._check(line)
        return " ".join(line)
