# Stub of the compiled module rouge_bootstrap (kept equal to the twin's signatures).
from typing import Any, List, Sequence, Tuple

__all__ = ["legacy_means", "seeded_means"]

def legacy_means(matrix: Any, n_samples: int, key: Any, pos: int) -> Tuple[Any, Any, int]: ...
def seeded_means(matrices: Sequence[Any], n_samples: int, seed: int) -> List[Any]: ...
