"""The intl tokenizer's code point classes, read off the installed `regex` module.

sacreBLEU's intl matches `\\p{N}`, `\\p{P}` and `\\p{S}` with the `regex` module, so its tokens
follow the Unicode data of whichever regex release is installed: regex 2026.1.15 (the newest for
Python 3.9) classifies 470 code points differently from 2026.11 (U+20C2, a currency sign there,
is unassigned in the older data). `intl_runs()` takes the classes from the installed regex at
first use, so both backends tokenize as sacreBLEU does beside the same regex: every code point
in one string, one pass of one pattern, about 0.1 s once per process (measured against a
per-version file cache: not worth its invalidation and write-permission cases).

Without `regex` (not a cybleu dependency; sacreBLEU requires it) the frozen runs in
`unicode_tables.py` are used. They are exact against sacreBLEU beside regex
`unicode_tables.REGEX_VERSION`, and beside any release with the same Unicode data (2026.11.19,
for one), but not against releases with other data: installing `regex` makes intl exact for it.
"""
import threading

from .unicode_tables import INTL_N, INTL_P, INTL_S, INTL_RUNS, REGEX_VERSION

__all__ = ["intl_runs", "intl_source", "classes_of", "N_CODE_POINTS"]

N_CODE_POINTS = 0x110000
_LOCK = threading.Lock()
_RUNS = None
_SOURCE = None


def _every_code_point():
    """A str holding U+0000 .. U+10FFFF in order (lone surrogates included), built as UTF-32
    bytes column by column: ~10x faster than joining a million chr() calls."""
    raw = bytearray(4 * N_CODE_POINTS)
    raw[0::4] = bytes(range(256)) * (N_CODE_POINTS >> 8)
    raw[1::4] = b"".join(bytes([k]) * 256 for k in range(256)) * (N_CODE_POINTS >> 16)
    raw[2::4] = b"".join(bytes([k]) * 65536 for k in range(N_CODE_POINTS >> 16))
    return bytes(raw).decode("utf-32-le", "surrogatepass")


def classes_of(regex_module):
    """The intl classes of every code point as runs (first code point, class, first code
    point, class, ...; a class holds until the next run), as `regex_module` matches them:
    INTL_N for \\p{N}, INTL_P for \\p{P}, INTL_S for \\p{S}, 0 for anything else."""
    runs = [0, 0]
    pattern = regex_module.compile(r"(\p{N}+)|(\p{P}+)|(\p{S}+)")
    classes = (None, INTL_N, INTL_P, INTL_S)
    for match in pattern.finditer(_every_code_point()):
        start, end = match.span()
        if runs[-2] == start:       # the previous run (class 0) was empty
            runs[-1] = classes[match.lastindex]
        else:
            runs += [start, classes[match.lastindex]]
        runs += [end, 0]
    if runs[-2] == N_CODE_POINTS:
        del runs[-2:]
    # the matches are maximal and the three categories disjoint: no two runs in a row share a
    # class, as in the frozen tables
    return tuple(runs)


def _load():
    global _RUNS, _SOURCE
    try:
        import regex
    except ImportError:
        _RUNS, _SOURCE = INTL_RUNS, (f"frozen tables of regex {REGEX_VERSION} (regex is not "
                                     "installed)")
        return
    version = getattr(regex, "__version__", "unknown")
    _RUNS = INTL_RUNS if version == REGEX_VERSION else classes_of(regex)
    _SOURCE = f"regex {version}"


def intl_runs():
    """The intl class runs for this process: the installed regex's (computed once), or the frozen
    ones without regex."""
    if _RUNS is None:
        with _LOCK:
            if _RUNS is None:
                _load()
    return _RUNS


def intl_source():
    """Where intl's classes come from: 'regex <version>', or the frozen tables."""
    intl_runs()
    return _SOURCE
