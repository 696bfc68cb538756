"""Tokenizers under sacreBLEU's module paths (`cybleu.tokenizers.tokenizer_13a.Tokenizer13a`, ...).

The BLEU metric does not call these objects line by line: for the tokenizers the compiled core
implements, it tokenizes inside the core. These classes give the same strings for standalone use.
"""
from .registry import UnknownTokenizerError  # noqa: F401 - its public path
from .tokenizer_base import BaseTokenizer  # noqa: F401 - sacreBLEU's import path
