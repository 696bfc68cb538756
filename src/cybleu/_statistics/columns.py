"""A metric's statistic columns, and how each adds up over segments.

A metric's segment row is one number per column (`Metric.statistic_columns()`); every piece of
machinery that adds rows (the corpus score, resampling, the report's buckets, the engines'
partitions) asks the column how:

    int       integers: summed exactly, in any order (n-gram counts, edits)
    exact     floats that add exactly: the sum is the correctly rounded sum of the exact values,
              math.fsum's, so it is the same float in any order and any partitioning (the
              per-segment scores of a segment-mean metric). Carried between partitions as an
              exact integer number of 2**-1074, the unit every finite float is a multiple of.
    ordered   floats added one after the other in segment order, from 0, as sacreBLEU's
              `sum_of_lists` adds them (an average over a segment's references)

>>> from cybleu._statistics.columns import Column, sum_rows
>>> rows = [[0.1, 1], [0.2, 1], [0.3, 1]]
>>> sum_rows(rows, [Column("score", "exact"), Column("count", "int")])
[0.6, 3]
>>> sum_rows(rows, [Column("score", "ordered"), Column("count", "int")])
[0.6000000000000001, 3]
"""
import functools
import math
import operator
from array import array

__all__ = ["Column", "KINDS", "sum_rows", "sum_column", "exact_units", "from_units",
           "to_limbs", "from_limbs", "EXACT_LIMBS", "ExactPacking", "check_columns"]

#: how a column adds: exact integers, exactly added floats, floats added in segment order
KINDS = ("int", "exact", "ordered")

class Column(tuple):
    """One statistic column of a metric's segment rows: its `name` (the engines' cell name) and
    how it `adds` ("int", "exact" or "ordered"). A (name, adds) tuple (a class of its own rather
    than a namedtuple, whose creation compiles code: the command line imports this)."""

    __slots__ = ()

    def __new__(cls, name, adds="int"):
        return tuple.__new__(cls, (name, adds))

    def __getnewargs__(self):
        return tuple(self)

    @property
    def name(self):
        return self[0]

    @property
    def adds(self):
        return self[1]

    def __repr__(self):
        return f"Column(name={self[0]!r}, adds={self[1]!r})"

# every finite float is an integer number of 2**-EXACT_SHIFT
EXACT_SHIFT = 1074
_ONE = 1 << EXACT_SHIFT


def check_columns(columns, owner="metric"):
    """The columns as a tuple of Column, or a TypeError/ValueError naming the bad one."""
    out = []
    for k, col in enumerate(columns):
        if isinstance(col, str):
            col = Column(col)
        if not (isinstance(col, tuple) and len(col) == 2 and isinstance(col[0], str)):
            raise TypeError(f"{owner}: statistic column {k} is {col!r}, not a Column(name, adds)")
        if col[1] not in KINDS:
            raise ValueError(f"{owner}: statistic column {col[0]!r} adds as {col[1]!r}; "
                             f"choose from {', '.join(KINDS)}")
        out.append(Column(*col))
    if not out:
        raise ValueError(f"{owner}: a metric needs at least one statistic column")
    return tuple(out)


def exact_units(value):
    """A finite float (or int) as an exact integer number of 2**-1074.

    :raises ValueError: NaN or an infinity.
    """
    if isinstance(value, int):
        return value << EXACT_SHIFT
    numerator, denominator = float(value).as_integer_ratio()  # the denominator: a power of two
    return numerator * (_ONE // denominator)


def from_units(units):
    """The float nearest to `units` * 2**-1074 (int / int rounds correctly): the same float as
    math.fsum of the values whose units were added."""
    return units / _ONE


#: base-2**32 digits that hold any sum of finite floats counted in 2**-1074 units (2098 bits and a
#: sign, summed over up to 2**31 partitions in int64): how an exact sum travels through engines
#: that add fixed-width integers (Spark's SQL sums, Ray's accumulators)
EXACT_LIMBS = 66
_LIMB = 32
_MASK = (1 << _LIMB) - 1


def to_limbs(units):
    """An exact sum (an int of 2**-1074 units) as EXACT_LIMBS ints: non-negative base-2**32
    digits, the last one signed (the rest of the number). Limbs of several sums add digit by
    digit, and `from_limbs` of the digit sums is the sum of the numbers."""
    last = _LIMB * (EXACT_LIMBS - 1)
    return [(units >> (_LIMB * k)) & _MASK for k in range(EXACT_LIMBS - 1)] + [units >> last]


def from_limbs(limbs):
    """The int of 2**-1074 units whose limbs (or sums of limbs) these are."""
    return sum(int(limb) << (_LIMB * k) for k, limb in enumerate(limbs))


def sum_column(values, adds):
    """The sum of one column's values, as the column adds."""
    if adds == "exact":
        return math.fsum(values)
    if adds == "ordered":
        return functools.reduce(operator.add, values, 0)
    values = values if isinstance(values, list) else list(values)
    if all(type(v) is int for v in values):
        return sum(values)
    return functools.reduce(operator.add, values, 0)  # builtin sum compensates floats (3.12+)


def sum_rows(rows, columns):
    """Column sums of segment rows, each column as it adds.

    :param rows: One sequence of numbers per segment, each as long as `columns`.
    :param columns: The metric's Column tuple.
    :returns: A list of sums (Python numbers).
    """
    if not rows:
        raise ValueError("no segment statistics: the corpus is empty")
    return [sum_column(values, col.adds) for values, col in zip(zip(*rows), columns)]


class ExactPacking:
    """Rows with exact float columns, packed as integers that int64 sums add exactly, so that the
    compiled resampler (integer row sums) resamples them: each exact value becomes an integer
    number of 2**-scale (one scale for every value packed together), written as `limbs` base-2**32
    digits (the top one signed). Sums of up to 2**31 rows stay exact in int64; `decode` turns a
    summed row back into Python numbers: int columns as ints, exact columns as the correctly
    rounded float of the exact sum.

    :param columns: The metric's columns ("int" and "exact" only).
    :param row_sets: Every set of rows that will be packed (the systems compared), for the scale
        and the number of limbs.
    """

    LIMB = 32

    def __init__(self, columns, row_sets):
        self.columns = tuple(columns)
        if any(col.adds == "ordered" for col in self.columns):
            raise ValueError("ordered columns cannot be packed as exact sums")
        self.exact = [j for j, col in enumerate(self.columns) if col.adds == "exact"]
        lowest, highest = 0, 0
        for rows in row_sets:
            for row in rows:
                for j in self.exact:
                    v = row[j]
                    if v == 0:
                        continue
                    numerator, denominator = float(v).as_integer_ratio()
                    lowest = max(lowest, denominator.bit_length() - 1)
                    highest = max(highest, abs(numerator).bit_length()
                                  - (denominator.bit_length() - 1))
        self.scale = lowest
        bits = highest + lowest + 1  # a sign bit above the magnitude
        self.limbs = max(1, -(-bits // self.LIMB))
        self.width = len(self.columns) + (self.limbs - 1) * len(self.exact)

    def encode(self, rows):
        """array('q') of the packed rows, back to back (`width` values each)."""
        out = array("q")
        mask = (1 << self.LIMB) - 1
        scale, limbs, shift = self.scale, self.limbs, self.LIMB
        for row in rows:
            packed = []
            for j, col in enumerate(self.columns):
                v = row[j]
                if col.adds != "exact":
                    packed.append(int(v))
                    continue
                numerator, denominator = float(v).as_integer_ratio()
                units = numerator << (scale - (denominator.bit_length() - 1))
                for k in range(limbs - 1):
                    packed.append((units >> (k * shift)) & mask)
                packed.append(units >> ((limbs - 1) * shift))  # signed: the rest
            out.extend(packed)
        return out

    def decode(self, sums):
        """The summed rows of `sums` (int64 values, `width` per row) as lists of Python numbers."""
        out = []
        w, limbs, shift = self.width, self.limbs, self.LIMB
        denominator = 1 << self.scale
        for start in range(0, len(sums), w):
            packed = sums[start:start + w]
            row, k = [], 0
            for col in self.columns:
                if col.adds != "exact":
                    row.append(int(packed[k]))
                    k += 1
                    continue
                units = 0
                for limb in range(limbs):
                    units += int(packed[k + limb]) << (limb * shift)
                row.append(units / denominator)
                k += limbs
            out.append(row)
        return out
