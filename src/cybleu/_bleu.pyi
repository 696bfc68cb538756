# Stub of the compiled module _bleu (kept equal to the twin's signatures, _core_py.py).
from array import array
from typing import Any, Optional

__all__ = ["SMOOTH_MODES", "bleu_scores_from_stats"]

SMOOTH_MODES: dict[str, int]

def bleu_scores_from_stats(stats: Any, max_order: int, smooth_method: str,
                           smooth_value: Optional[float], effective_order: bool) -> array: ...
