class BaseTokenizer:
    """A tokenizer: `signature()` names it in BLEU signatures, calling it tokenizes one line."""

    def signature(self) -> str:
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        raise NotImplementedError()

    def _check(self, line):
        """A TypeError naming the tokenizer for anything but a str (None included: the core
        would read it as an empty line)."""
        if not isinstance(line, str):
            hint = " (decode it first, e.g. line.decode('utf-8'))" if isinstance(
                line, (bytes, bytearray)) else ""
            raise TypeError(f"{type(self).__name__}: a line must be a str, got "
                            f"{type(line).__name__}{hint}")
