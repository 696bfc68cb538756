"""The intl tokenizer's code point classes, read off the installed `regex` module.

sacreBLEU's intl matches `\\p{N}`, `\\p{P}` and `\\p{S}` with the `regex` module, so its tokens
follow the Unicode data of whichever regex release is installed: regex 2026.1.15 (the newest for
Python 3.9) classifies 470 code points differently from 2026.11 (U+20C2, a currency sign there,
is unassigned in the older data). `intl_runs()` takes the classes from the installed regex, so
both backends tokenize as sacreBLEU does beside the same regex.

Reading them costs about 0.1 s (importing regex, then every code point in one string through one
pattern): half a command-line run. So the runs are kept in a small file in the user's cache
directory (`$CYBLEU_CACHE_DIR`, else `$XDG_CACHE_HOME/cybleu` or the platform's cache folder),
keyed on the installed regex's files (paths, sizes, modification times: an upgrade or another
environment gets its own entry), checked for accidental damage when read (format and checksum; the
folder is the user's own) and written atomically.
A later process reads it without importing regex (~1 ms). Where the folder cannot be written the
classes are read in-process every time, with the same results.

Without `regex` (not a cybleu dependency; sacreBLEU requires it) the frozen runs in
`unicode_tables.py` are used. They are exact against sacreBLEU beside regex
`unicode_tables.REGEX_VERSION`, and beside any release with the same Unicode data (2026.11.19,
for one), but not against releases with other data: installing `regex` makes intl exact for it.
"""
import os
import sys
import threading

from .unicode_tables import INTL_N, INTL_P, INTL_S, INTL_RUNS, REGEX_VERSION

__all__ = ["intl_runs", "intl_source", "classes_of", "cache_file", "N_CODE_POINTS"]

N_CODE_POINTS = 0x110000
_FORMAT = "cybleu-intl-classes 1"
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


# -- the file cache ------------------------------------------------------------------------------

def _cache_dir():
    explicit = os.environ.get("CYBLEU_CACHE_DIR")
    if explicit:
        return explicit
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.join(os.path.expanduser("~"), "AppData",
                                                              "Local")
    elif sys.platform == "darwin":
        base = os.path.join(os.path.expanduser("~"), "Library", "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
    return os.path.join(base, "cybleu")


def _regex_key():
    """What identifies the installed regex's Unicode data: its module files and compiled
    `_regex` binaries (real path, size, modification time), found without importing it. None
    without regex."""
    module = sys.modules.get("regex", False)
    if module is None:          # sys.modules["regex"] = None: import regex raises ImportError
        return None
    if module is not False:
        spec = getattr(module, "__spec__", None)
    else:
        import importlib.util
        try:
            spec = importlib.util.find_spec("regex")
        except (ImportError, ValueError):
            return None
    if spec is None or not spec.origin:
        return None
    paths = [spec.origin]
    for folder in spec.submodule_search_locations or ():
        try:
            paths += sorted(os.path.join(folder, name) for name in os.listdir(folder)
                            if name.startswith(("_regex", "_main", "regex")))
        except OSError:
            pass
    parts = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        parts.append(f"{os.path.realpath(path)}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts) if parts else None


def cache_file(key=None):
    """The cache file for the installed regex (or `key`), or None without regex."""
    import zlib
    key = _regex_key() if key is None else key
    if key is None:
        return None
    return os.path.join(_cache_dir(), f"intl-{zlib.crc32(key.encode()):08x}.txt")


def _valid_runs(runs):
    if not runs or runs[0] != 0 or len(runs) % 2:
        return False
    starts, classes = runs[0::2], runs[1::2]
    return (all(a < b for a, b in zip(starts, starts[1:])) and starts[-1] < N_CODE_POINTS
            and all(c in (0, INTL_N, INTL_P, INTL_S) for c in classes)
            and all(a != b for a, b in zip(classes, classes[1:])))


def _read_cache(path, key):
    """(runs, regex version) from the cache file, or None when it is absent, for another key,
    damaged or malformed."""
    import zlib
    try:
        with open(path, encoding="ascii") as f:
            lines = f.read().split("\n")
        if len(lines) < 5 or lines[0] != _FORMAT or lines[1] != key:
            return None
        if str(zlib.crc32(lines[3].encode())) != lines[4]:
            return None
        runs = tuple(int(v) for v in lines[3].split(","))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return (runs, lines[2]) if _valid_runs(runs) else None


def _write_cache(path, key, version, runs):
    """Best effort, atomically: a reader sees the old file, the new one, or none."""
    import tempfile
    import zlib
    body = ",".join(map(str, runs))
    text = "\n".join([_FORMAT, key, version, body, str(zlib.crc32(body.encode()))]) + "\n"
    tmp = None
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".intl-", dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _load():
    global _RUNS, _SOURCE
    key = _regex_key()
    path = cache_file(key) if key is not None else None
    cached = _read_cache(path, key) if path is not None else None
    if cached is not None:
        _RUNS, version = cached
        _SOURCE = f"regex {version}"
        return
    try:
        import regex
    except ImportError:
        _RUNS, _SOURCE = INTL_RUNS, (f"frozen tables of regex {REGEX_VERSION} (regex is not "
                                     "installed)")
        return
    version = str(getattr(regex, "__version__", "unknown"))
    _RUNS = INTL_RUNS if version == REGEX_VERSION else classes_of(regex)
    _SOURCE = f"regex {version}"
    if path is not None:
        _write_cache(path, key, version, _RUNS)


def intl_runs():
    """The intl class runs for this process: the installed regex's (from the cache file, or read
    once), or the frozen ones without regex."""
    if _RUNS is None:
        with _LOCK:
            if _RUNS is None:
                _load()
    return _RUNS


def intl_source():
    """Where intl's classes come from: 'regex <version>', or the frozen tables."""
    intl_runs()
    return _SOURCE
