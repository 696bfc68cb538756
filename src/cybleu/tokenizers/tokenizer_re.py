from .._kernels.tokenize_py import _RULES_13A
from .tokenizer_base import BaseTokenizer


class TokenizerRegexp(BaseTokenizer):
    """The language-dependent regular expressions 13a applies after its entity handling
    (sacreBLEU's `TokenizerRegexp`).

    >>> from cybleu.tokenizers.tokenizer_re import TokenizerRegexp
    >>> TokenizerRegexp()("Hello, world!")
    'Hello , world !'
    """

    def signature(self) -> str:
        return "re"

    def __init__(self) -> None:
        self._re = list(_RULES_13A)

    def __call__(self, line: str) -> str:
        self._check(line)
        for pattern, repl in self._re:
            line = pattern.sub(repl, line)
        return " ".join(line.split())
