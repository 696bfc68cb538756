# Stub of the compiled module porter (kept equal to the twin's signatures, porter_py.py).
__all__ = ["stem"]

def stem(word: str, to_lowercase: bool = True) -> str: ...
