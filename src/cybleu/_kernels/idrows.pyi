# Stub of the compiled module idrows (kept equal to its twin's signatures, idrows_py.py).
from typing import Any, Optional, Tuple

import numpy as np

__all__ = ["read_batch", "read_references"]

def read_batch(x: Any, what: str, pad_id: Optional[int] = ...,
               eos_id: Optional[int] = ...) -> Tuple[np.ndarray, np.ndarray]: ...
def read_references(refs: Any, n_hyps: int, pad_id: Optional[int] = ...,
                    eos_id: Optional[int] = ...) -> Tuple[np.ndarray, np.ndarray, np.ndarray]: ...
