class BaseTokenizer:
    """A tokenizer: `signature()` names it in BLEU signatures, calling it tokenizes one line."""

    def signature(self):
        raise NotImplementedError()

    def __call__(self, line):
        raise NotImplementedError()
