from .tokenizer_base import BaseTokenizer


class TokenizerChar(BaseTokenizer):
    """Every code point a token, as sacreBLEU's `char` (whitespace stays in the string; BLEU's
    whitespace split drops it).

    >>> from cybleu.tokenizers.tokenizer_char import TokenizerChar
    >>> TokenizerChar()("猫が好き")
    '猫 が 好 き'
    """

    def signature(self) -> str:
        return "char"

    def __call__(self, line: str) -> str:
        self._check(line)
        return " ".join(line)
