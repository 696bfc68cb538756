"""Every code point, alone and in context, through intl, zh, char and 13a: cybleu's tokenizer (the
backend under test) against sacreBLEU 2.6.0's beside the installed `regex` (whatever its release:
intl's classes are read off it, see test_intl_regex.py), and zh's table against sacreBLEU's.

sacreBLEU is called on long lines that each hold thousands of code points (one context unit per
code point, units separated by a space), so the sweep fits the time budget; when a line differs
it is bisected down to the code point that makes the difference. zh's full sweep is the dense
one (sacreBLEU's per-character loop is its slowest path)."""
import functools

import pytest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from cybleu._kernels import unicode_classes
from cybleu._kernels import unicode_tables as _unicode_tables
from cybleu._backend import BACKEND, core

N_CODE_POINTS = 0x110000
BATCH = 4096


def _uncached(tokenizer):
    """sacreBLEU's tokenizer without its lru_cache (a million distinct lines would churn it)."""
    call = type(tokenizer).__call__.__wrapped__
    return lambda line: call(tokenizer, line)


ORACLES = {
    "intl": _uncached(TokenizerV14International()),
    "zh": _uncached(TokenizerZh()),
    "13a": _uncached(Tokenizer13a()),
    "char": lambda line: " ".join(" ".join(line).split()),   # sacreBLEU's char, then BLEU's split
}

# Contexts: '{}' is the code point. Every code point goes through the first group (alone, between
# letters, digits and punctuation, as the issue asks; about 50 s for all four tokenizers in the
# compiled run). The second group's extra contexts make sacreBLEU's re.sub expand a template at
# nearly every unit (seconds per million), so they take every code point the rules or tables react
# to (all of U+0000-U+33FF, every \p{N}, \p{P}, \p{S}, whitespace and zh character) and every
# 31st of the rest.
CONTEXTS = {
    "intl": ["{}", "a{}b", "1{}2", ".{}.", "{}{}"],
    "13a": ["{}", "a{}b", "1{}2", ".{}.", "1{}-"],
    "zh": ["{}", "a{}b", "1{}2", ".{}."],
    "char": ["{}", "a{}b", "1{}2", ".{}."],
}
SAMPLED_CONTEXTS = {
    "intl": ["1{}.", ".{}1", "${}$", "-{}a"],
    "13a": [",{}1", "&{};"],
    "zh": ["1{}.", ".{}1"],
}


def _runs_to_classes(runs):
    classes = bytearray(N_CODE_POINTS)
    bounds = list(runs[0::2]) + [N_CODE_POINTS]
    for k, cls in enumerate(runs[1::2]):
        classes[bounds[k]:bounds[k + 1]] = bytes([cls]) * (bounds[k + 1] - bounds[k])
    return bytes(classes)


def test_zh_table_equals_sacrebleu_range_comparisons_for_every_code_point():
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__
    zh = _runs_to_classes(_unicode_tables.ZH_RUNS)
    # outside U+2000-U+FFFF no string comparison with the table can be true
    assert not any(zh[:0x2000]) and not any(zh[0x10000:])
    wrong = [c for c in range(0x2000, 0x10000) if zh[c] != is_chinese(chr(c))]
    assert not wrong, [f"U+{c:04X}" for c in wrong[:20]]
    assert not any(is_chinese(chr(c)) for c in range(0x10000, N_CODE_POINTS, 251))


def _units(context, code_points):
    return [context.format(*[chr(c)] * context.count("{}")) for c in code_points]


def _first_difference(tokenize, oracle, units):
    """Bisect a batch whose line differs down to one unit that differs on its own or at an edge."""
    while len(units) > 1:
        half = len(units) // 2
        left, right = units[:half], units[half:]
        line = " ".join(left)
        units = left if tokenize(line) != oracle(line) else right
    return units[0]


@functools.lru_cache(maxsize=None)
def _sampled_code_points():
    intl = _runs_to_classes(unicode_classes.intl_runs())
    zh = _runs_to_classes(_unicode_tables.ZH_RUNS)
    return [c for c in range(N_CODE_POINTS)
            if c < 0x3400 or intl[c] or zh[c] or chr(c).isspace() or c % 31 == 0]


def _sweep(name, context, code_points):
    oracle = ORACLES[name]

    def tokenize(line):
        return core.tokenize(line, name)

    for start in range(0, len(code_points), BATCH):
        units = _units(context, code_points[start:start + BATCH])
        line = " ".join(units)
        if tokenize(line) != oracle(line):
            unit = _first_difference(tokenize, oracle, units)
            pytest.fail(f"{name}: {unit!r} differs: cybleu {tokenize(unit)!r}, "
                        f"sacrebleu {oracle(unit)!r}")


@pytest.mark.parametrize("name,context", [(n, c) for n, cs in CONTEXTS.items() for c in cs])
def test_every_code_point_in_context(name, context):
    # the twin is as slow as sacreBLEU: its run takes the sample (the compiled run takes them all)
    _sweep(name, context, range(N_CODE_POINTS) if BACKEND == "cython" else _sampled_code_points())


@pytest.mark.parametrize("name,context", [(n, c) for n, cs in SAMPLED_CONTEXTS.items() for c in cs])
def test_reactive_code_points_in_punctuation_context(name, context):
    _sweep(name, context, _sampled_code_points())


@pytest.mark.parametrize("name", ["intl", "13a", "zh", "char"])
def test_dense_runs_of_consecutive_code_points(name):
    """Neighbours with no separator: each code point next to the ones around it."""
    oracle = ORACLES[name]
    points = range(N_CODE_POINTS) if BACKEND == "cython" else _sampled_code_points()
    for start in range(0, len(points), BATCH):
        line = "".join(map(chr, points[start:start + BATCH]))
        assert core.tokenize(line, name) == oracle(line), f"{name}: batch at U+{points[start]:04X}"


def test_interesting_code_points_alone():
    """Alone on a line (no neighbour at all): ASCII, whitespace, every N, P, S code point, every
    7th zh character, every 97th other code point."""
    intl = _runs_to_classes(unicode_classes.intl_runs())
    zh = _runs_to_classes(_unicode_tables.ZH_RUNS)
    points = [c for c in range(N_CODE_POINTS) if c < 0x80 or intl[c] or chr(c).isspace()
              or (zh[c] and c % 7 == 0) or c % 97 == 0]
    for name in ("intl", "zh", "13a"):
        oracle = ORACLES[name]
        bad = [c for c in points if core.tokenize(chr(c), name) != oracle(chr(c))]
        assert not bad, (name, [f"U+{c:04X}" for c in bad[:20]])
