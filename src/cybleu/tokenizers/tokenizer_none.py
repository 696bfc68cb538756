from .tokenizer_base import BaseTokenizer


class NoneTokenizer(BaseTokenizer):
    """No tokenization: BLEU splits the line on whitespace."""

    def signature(self) -> str:
        return "none"

    def __call__(self, line: str) -> str:
        self._check(line)
        return line
