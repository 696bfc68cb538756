# Stub of the compiled module _ids (kept equal to the twin's signatures, core_py.py).
from typing import Any, Optional

import numpy as np
import numpy.typing as npt

__all__ = ["ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]

# token IDs: any 1-D integer sequence or array (checked and converted to uint32 by _ragged)
def ids_segment_stats(hyp_flat: npt.ArrayLike, hyp_offsets: npt.ArrayLike, ref_flat: npt.ArrayLike,
                      ref_offsets: npt.ArrayLike, seg_ref_offsets: npt.ArrayLike,
                      max_order: int = ..., n_threads: int = ...) -> npt.NDArray[np.int64]: ...
def ids_batch_stats(hyps: Any, refs: Any, max_order: int = ..., pad_id: Optional[int] = ...,
                    eos_id: Optional[int] = ..., n_threads: int = ...) -> npt.NDArray[np.int64]: ...
def ids_pairwise_scores(hyp_flat: npt.ArrayLike, hyp_offsets: npt.ArrayLike, ref_flat: npt.ArrayLike,
                        ref_offsets: npt.ArrayLike, max_order: int = ..., smooth_method: str = ...,
                        smooth_value: Optional[float] = ..., effective_order: bool = ...,
                        n_threads: int = ...) -> npt.NDArray[np.float64]: ...
def ids_self_stats(flat: npt.ArrayLike, offsets: npt.ArrayLike, max_order: int = ...,
                   n_threads: int = ...) -> npt.NDArray[np.int64]: ...
