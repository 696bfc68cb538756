"""Pure-Python twin of `tokenize.pyx`: text -> tokens, sacreBLEU's tokenizers `none`, `13a`, `intl`,
`zh` and `char` written as sacreBLEU writes them (regular expressions), and the readable
specification of what the compiled transducers compute. Same public names as `tokenize.pyx`.
"""
import functools
import re

from .unicode_classes import intl_runs
from .unicode_tables import INTL_N, INTL_P, INTL_S, ZH_RUNS

__all__ = ["TOKENIZER_MODES", "tokenize", "tokenize_13a"]

# mteval-v13a's language-dependent rules, applied in this order as non-overlapping passes.
_RULES_13A = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(line):
    """sacrebleu's Tokenizer13a()(line): the tokens joined by single spaces."""
    if not isinstance(line, str):
        raise TypeError(f"the line to tokenize is {type(line).__name__}, not str")
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, repl in _RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def _class_pattern(runs, cls):
    """A `re` character class of the code points the runs give class `cls`."""
    bounds = list(runs[0::2]) + [0x110000]
    parts = [f"{chr(bounds[k])}-{chr(bounds[k + 1] - 1)}" if bounds[k + 1] - bounds[k] > 1
             else chr(bounds[k])
             for k, c in enumerate(runs[1::2]) if c == cls]
    return "".join(re.escape(p) if len(p) == 1 else re.escape(p[0]) + "-" + re.escape(p[2])
                   for p in parts)


@functools.lru_cache(maxsize=None)
def _intl_rules():
    """sacrebleu's intl regexes, with the installed `regex` module's \\p{N}, \\p{P}, \\p{S}
    spelled out as `re` classes (compiled on first use)."""
    runs = intl_runs()
    n, p, s = (_class_pattern(runs, c) for c in (INTL_N, INTL_P, INTL_S))
    return [
        (re.compile(f"([^{n}])([{p}])"), r"\1 \2 "),
        (re.compile(f"([{p}])([^{n}])"), r" \1 \2"),
        (re.compile(f"([{s}])"), r" \1 "),
    ]


@functools.lru_cache(maxsize=None)
def _zh_chars():
    return re.compile(f"([{_class_pattern(ZH_RUNS, 1)}])")


def tokenize_intl(line):
    """sacrebleu's TokenizerV14International()(line)."""
    for pattern, repl in _intl_rules():
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_zh(line):
    """sacrebleu's TokenizerZh()(line): strip, pad every 'Chinese' character (sacrebleu's range
    table as its string comparisons evaluate it), then 13a's rules without 13a's first part."""
    line = _zh_chars().sub(r" \1 ", line.strip())
    for pattern, repl in _RULES_13A:
        line = pattern.sub(repl, line)
    return " ".join(line.split())


def tokenize_char(line):
    """sacrebleu's TokenizerChar()(line)."""
    return " ".join(" ".join(line).split())


TOKENIZER_MODES = {"none": lambda line: line, "13a": tokenize_13a, "intl": tokenize_intl,
               "zh": tokenize_zh, "char": tokenize_char}


def tokenize(line, tokenize="13a"):
    """sacrebleu's tokenizer `tokenize` (none, 13a, intl, zh, char) applied to line: the tokens
    joined by single spaces."""
    if not isinstance(line, str):
        raise TypeError(f"the line to tokenize is {type(line).__name__}, not str")
    if tokenize not in TOKENIZER_MODES:
        raise ValueError(f"the core has no tokenizer {tokenize!r}")
    return " ".join(TOKENIZER_MODES[tokenize](line).split())
