"""Helpers sacreBLEU exposes from `sacrebleu.utils`, for code that imports them from there."""
from collections.abc import Sequence
from typing import TypeVar

from ._math import my_log

__all__ = ["my_log", "sum_of_lists"]

_Number = TypeVar("_Number", int, float)


def sum_of_lists(lists: Sequence[list[_Number]]) -> list[_Number]:
    """Element-wise sum of numeric lists; a single list is returned as is (sacreBLEU semantics)."""
    if len(lists) == 1:
        return lists[0]
    size = len(lists[0])
    total = [type(lists[0][0])(0.0)] * size
    for row in lists:
        for i in range(size):
            total[i] += row[i]
    return total
