class BaseTokenizer:
    """A tokenizer: `signature()` names it in BLEU signatures, calling it tokenizes one line."""

    def signature(self) -> str:
        raise NotImplementedError()

    def __call__(self, line: str) -> str:
        raise NotImplementedError()
