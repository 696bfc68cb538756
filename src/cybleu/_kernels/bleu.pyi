# Stub of the compiled module _bleu (kept equal to the twin's signatures, core_py.py).
from array import array
from typing import Optional

import numpy as np
import numpy.typing as npt

__all__ = ["SMOOTH_MODES", "bleu_scores_from_stats"]

SMOOTH_MODES: dict[str, int]

# stats: a contiguous int64 buffer of rows [hyp_len, ref_len, correct_1..N, total_1..N]
def bleu_scores_from_stats(stats: npt.NDArray[np.int64], max_order: int, smooth_method: str,
                           smooth_value: Optional[float], effective_order: bool) -> array[float]: ...
