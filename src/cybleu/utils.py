"""Helpers sacreBLEU exposes from `sacrebleu.utils`, for code that imports them from there."""
from typing import Any, List, Sequence

from ._math import my_log  # noqa: F401


def sum_of_lists(lists: Sequence[Any]) -> Any:
    """Element-wise sum of numeric lists; a single list is returned as is (sacreBLEU semantics)."""
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    total = [type(lists[0][0])(0.0)] * size
    for row in lists:
        for i in range(size):
            total[i] += row[i]
    return total
