# Stub of the compiled module _ids (kept equal to the twin's signatures, _core_py.py).
from typing import Any, Optional

import numpy as np

__all__ = ["ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]

def ids_segment_stats(hyp_flat: Any, hyp_offsets: Any, ref_flat: Any, ref_offsets: Any,
                      seg_ref_offsets: Any, max_order: int = ..., n_threads: int = ...) -> np.ndarray: ...
def ids_batch_stats(hyps: Any, refs: Any, max_order: int = ..., pad_id: Optional[int] = ...,
                    eos_id: Optional[int] = ..., n_threads: int = ...) -> np.ndarray: ...
def ids_pairwise_scores(hyp_flat: Any, hyp_offsets: Any, ref_flat: Any, ref_offsets: Any,
                        max_order: int = ..., smooth_method: str = ...,
                        smooth_value: Optional[float] = ..., effective_order: bool = ...,
                        n_threads: int = ...) -> np.ndarray: ...
def ids_self_stats(flat: Any, offsets: Any, max_order: int = ..., n_threads: int = ...) -> np.ndarray: ...
