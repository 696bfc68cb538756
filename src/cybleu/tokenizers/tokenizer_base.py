class BaseTokenizer:
    """A tokenizer (sacreBLEU's `BaseTokenizer`): `signature()` names it in BLEU signatures,
    calling it tokenizes one line into a string of space-separated tokens.

    Any object with these two methods can be assigned as `BLEU().tokenizer`; cybleu's own
    classes are recognized and tokenized inside the compiled core.

    >>> from cybleu.tokenizers.tokenizer_base import BaseTokenizer
    >>> class Upper(BaseTokenizer):
    ...     def signature(self):
    ...         return "upper"
    ...     def __call__(self, line):
    ...         return line.upper()
    >>> Upper()("a b"), Upper().signature()
    ('A B', 'upper')
    """

    def signature(self) -> str:
        """The tokenizer's name in signatures (`tok:<name>`).

        :returns: The name.
        """
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        """Tokenize one line.

        :param line: The line (a str).
        :returns: Its tokens joined by single spaces.
        :raises TypeError: `line` is not a str.
        """
        raise NotImplementedError()

    def _check(self, line):
        """A TypeError naming the tokenizer for anything but a str (None included: the core
        would read it as an empty line)."""
        if not isinstance(line, str):
            hint = " (decode it first, e.g. line.decode('utf-8'))" if isinstance(
                line, (bytes, bytearray)) else ""
            raise TypeError(f"{type(self).__name__}: a line must be a str, got "
                            f"{type(line).__name__}{hint}")
