# Stub of the compiled module _tokenize (kept equal to the twin's signatures, core_py.py).
__all__ = ["TOKENIZER_MODES", "tokenize", "tokenize_13a"]

TOKENIZER_MODES: dict[str, int]

def tokenize_13a(line: str) -> str: ...
def tokenize(line: str, tokenize: str = "13a") -> str: ...
