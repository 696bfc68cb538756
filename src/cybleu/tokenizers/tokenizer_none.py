from .tokenizer_base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """No tokenization (sacreBLEU's `none`): BLEU splits the line on whitespace.

    >>> from cybleu.tokenizers.tokenizer_none import NoneTokenizer
    >>> NoneTokenizer()("Hello, world!")
    'Hello, world!'
    """

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        self._check(line)
        return line
