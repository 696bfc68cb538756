"""intl follows the `regex` module that is installed, as sacreBLEU's intl does.

sacreBLEU matches \\p{N}, \\p{P} and \\p{S} with `regex`, whose Unicode data changes between
releases (regex 2026.1.15, the newest for Python 3.9, classifies 470 code points differently from
2026.11). cybleu reads the classes off the installed regex at first use (both backends), and uses
its frozen tables only without regex. The every-code-point sweep against sacreBLEU itself is in
test_tokenizers_exhaustive.py; CI runs it on 3.9 (regex 2026.1.15) and on the current release.

Here: the classes in use equal an independent reading of the installed regex at every code point;
a stand-in `regex` with other Unicode data (Python's own unicodedata) is followed by both backends
exactly as sacreBLEU follows it (this fails with tables frozen from one regex release); without
regex the frozen tables are used and say so."""
import json
import os
import subprocess
import sys
import textwrap
import unicodedata

import pytest
import regex
import sacrebleu

import cybleu
from cybleu._kernels import unicode_classes, unicode_tables

N_CODE_POINTS = 0x110000
BACKENDS = ["cython", "python"]


def _classes_per_property(regex_module):
    """One byte per code point, each property matched on its own code point by code point (the
    generator's method, independent of unicode_classes.classes_of)."""
    text = "".join(map(chr, range(N_CODE_POINTS)))
    classes = bytearray(N_CODE_POINTS)
    for cls, prop in ((1, "N"), (2, "P"), (3, "S")):
        for m in regex_module.finditer(r"\p{%s}" % prop, text):
            classes[m.start()] = cls
    return bytes(classes)


def _runs_to_classes(runs):
    classes = bytearray(N_CODE_POINTS)
    bounds = list(runs[0::2]) + [N_CODE_POINTS]
    for k, cls in enumerate(runs[1::2]):
        classes[bounds[k]:bounds[k + 1]] = bytes([cls]) * (bounds[k + 1] - bounds[k])
    return bytes(classes)


def test_intl_classes_are_the_installed_regex_at_every_code_point():
    installed = _classes_per_property(regex)
    ours = _runs_to_classes(unicode_classes.intl_runs())
    diff = [c for c in range(N_CODE_POINTS) if installed[c] != ours[c]]
    assert not diff, [f"U+{c:04X}" for c in diff[:20]]
    assert unicode_classes.intl_source() == f"regex {regex.__version__}"


def test_a_code_point_whose_class_changed_between_regex_releases():
    """U+20C2 is a currency sign (\\p{S}) in regex 2026.11 and unassigned in 2026.1.15: whatever
    is installed, cybleu's intl splits it off exactly when sacreBLEU's does."""
    hyp, ref = "price 5\u20c2 today.", "price 5 today."
    for fn in ("sentence_bleu", "corpus_bleu"):
        args = (hyp, [ref]) if fn == "sentence_bleu" else ([hyp], [[ref]])
        ours = getattr(cybleu, fn)(*args, tokenize="intl")
        theirs = getattr(sacrebleu, fn)(*args, tokenize="intl")
        assert (ours.score, ours.counts, ours.totals) == (theirs.score, theirs.counts,
                                                          theirs.totals)


# -- a stand-in regex with other Unicode data ------------------------------------------------------

SHIM = '''
"""A stand-in for the `regex` module: \\\\p{N}, \\\\p{P}, \\\\p{S} (and \\\\P) by this Python's
unicodedata, everything else by `re`. Enough for sacreBLEU's intl and cybleu's table reader."""
import re
import unicodedata

__version__ = "0.unicodedata-" + unicodedata.unidata_version


def _set(prefix):
    ranges, start = [], None
    for c in range(0x110001):
        inside = c < 0x110000 and unicodedata.category(chr(c))[0] == prefix
        if inside and start is None:
            start = c
        elif not inside and start is not None:
            ranges.append(re.escape(chr(start)) + "-" + re.escape(chr(c - 1)))
            start = None
    return "".join(ranges)


_SETS = {p: _set(p) for p in "NPS"}


def _translate(pattern):
    pattern = re.sub(r"\\\\p\\{([NPS])\\}", lambda m: "[" + _SETS[m.group(1)] + "]", pattern)
    return re.sub(r"\\\\P\\{([NPS])\\}", lambda m: "[^" + _SETS[m.group(1)] + "]", pattern)


def compile(pattern, flags=0):
    return re.compile(_translate(pattern), flags)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)
'''

PROBE = textwrap.dedent('''
    import json, sys
    from cybleu._kernels import unicode_classes, unicode_tables
    from cybleu._backend import BACKEND, core
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    import regex
    oracle_tok = TokenizerV14International()
    oracle = lambda line: type(oracle_tok).__call__.__wrapped__(oracle_tok, line)
    N = 0x110000

    def classes(runs):
        out = bytearray(N)
        bounds = list(runs[0::2]) + [N]
        for k, cls in enumerate(runs[1::2]):
            out[bounds[k]:bounds[k + 1]] = bytes([cls]) * (bounds[k + 1] - bounds[k])
        return out

    frozen = classes(unicode_tables.INTL_RUNS)
    shim = classes(unicode_classes.classes_of(regex))
    changed = [c for c in range(N) if frozen[c] != shim[c]]
    points = changed + list(range(0, N, 97))
    bad = []
    for context in ("{}", "a{}b", "1{}2", ".{}.", "{}{}"):
        for c in points:
            line = context.replace("{}", chr(c))
            if core.tokenize(line, "intl") != oracle(line):
                bad.append(f"U+{c:04X} in {context!r}")
    print(json.dumps({"backend": BACKEND, "source": unicode_classes.intl_source(),
                      "changed": len(changed), "bad": bad[:20], "n_bad": len(bad)}))
''')


def _run(code, backend, tmp_path, pythonpath=None, cache=None):
    env = dict(os.environ, CYBLEU_IMPLEMENTATION=backend,
               CYBLEU_CACHE_DIR=str(cache or tmp_path / "cache"))
    if pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([pythonpath, env.get("PYTHONPATH", "")])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=600)
    if proc.returncode != 0 and "forced" in proc.stderr and backend == "cython":
        pytest.skip("the compiled core is not built in this install")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_intl_follows_a_regex_with_other_unicode_data(backend, tmp_path):
    (tmp_path / "shim").mkdir()
    (tmp_path / "shim" / "regex.py").write_text(SHIM, encoding="utf-8")
    out = _run(PROBE, backend, tmp_path, str(tmp_path / "shim"))
    assert out["backend"] == backend
    assert out["source"] == f"regex 0.unicodedata-{unicodedata.unidata_version}"
    # the stand-in's data differs from the frozen tables' (else this test could not fail)
    assert out["changed"] > 100, out
    assert out["n_bad"] == 0, out["bad"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_without_regex_intl_uses_the_frozen_tables(backend, tmp_path):
    code = textwrap.dedent('''
        import json, sys
        sys.modules["regex"] = None          # import regex raises ImportError
        from cybleu._kernels import unicode_classes, unicode_tables
        from cybleu._backend import BACKEND, core
        from cybleu._kernels import tokenize_py
        line = "a\u20c2b, 1.5 (x) \u00a7 2024."
        print(json.dumps({"backend": BACKEND, "source": unicode_classes.intl_source(),
                          "frozen": unicode_classes.intl_runs() == unicode_tables.INTL_RUNS,
                          "ours": core.tokenize(line, "intl"),
                          "twin": tokenize_py.tokenize(line, "intl")}))
    ''')
    out = _run(code, backend, tmp_path)
    assert out["backend"] == backend
    assert out["frozen"] and out["source"] == (f"frozen tables of regex "
                                               f"{unicode_tables.REGEX_VERSION} (regex is not "
                                               "installed)")
    # the frozen tables are regex REGEX_VERSION's: U+20C2 is a symbol there
    assert out["ours"] == out["twin"] == "a \u20c2 b , 1.5 ( x ) \u00a7 2024."


def test_first_use_reads_the_tables_once(monkeypatch, tmp_path):
    calls = []
    real = unicode_classes.classes_of
    monkeypatch.setenv("CYBLEU_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(unicode_classes, "_RUNS", None)
    monkeypatch.setattr(unicode_classes, "classes_of", lambda m: calls.append(1) or real(m))
    monkeypatch.setattr(unicode_tables, "REGEX_VERSION", "0.not-installed")
    monkeypatch.setattr(unicode_classes, "REGEX_VERSION", "0.not-installed")
    first = unicode_classes.intl_runs()
    assert unicode_classes.intl_runs() is first and calls == [1]


# -- the cache file: a later process reads the classes without importing regex ------------------

CACHED = textwrap.dedent('''
    import json, sys
    from cybleu._backend import BACKEND, core
    from cybleu._kernels import unicode_classes
    line = "a\u20c2b, 1.5 (x) \u00a7 2024. \u2e5d!"
    ours = core.tokenize(line, "intl")
    imported = "regex" in sys.modules
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    print(json.dumps({"backend": BACKEND, "regex_imported": imported,
                      "same": ours == TokenizerV14International()(line),
                      "exact": unicode_classes.intl_runs() == unicode_classes.classes_of(
                          __import__("regex")),
                      "source": unicode_classes.intl_source(),
                      "file": unicode_classes.cache_file()}))
''')


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_later_process_reads_the_cache_file(backend, tmp_path):
    cache = tmp_path / "cache"
    first = _run(CACHED, backend, tmp_path, cache=cache)
    assert first["regex_imported"] and first["same"] and first["exact"]
    assert os.path.exists(first["file"]) and os.path.dirname(first["file"]) == str(cache)
    second = _run(CACHED, backend, tmp_path, cache=cache)
    assert not second["regex_imported"]          # the classes came from the file
    assert second["same"] and second["exact"] and second["source"] == first["source"]
    assert second["source"] == f"regex {regex.__version__}"


@pytest.mark.parametrize("damage", ["flip-a-class", "bad-checksum", "other-key", "truncated",
                                    "garbage"])
def test_a_damaged_or_foreign_cache_file_is_not_used(damage, tmp_path):
    cache = tmp_path / "cache"
    first = _run(CACHED, "python", tmp_path, cache=cache)
    path = first["file"]
    with open(path, encoding="ascii") as f:
        lines = f.read().split("\n")
    runs = lines[3].split(",")
    if damage == "flip-a-class":          # still well formed: only the checksum catches it
        k = next(k for k in range(3, len(runs) - 2, 2)
                 if len({runs[k - 2], runs[k], runs[k + 2]}) == 3)
        runs[k] = ({"0", "1", "2", "3"} - {runs[k - 2], runs[k], runs[k + 2]}).pop()
        lines[3] = ",".join(runs)
    elif damage == "bad-checksum":
        lines[4] = "0"
    elif damage == "other-key":
        lines[1] = "another regex"
    elif damage == "truncated":
        lines = lines[:3]
    else:
        lines = ["\x00garbage"]
    with open(path, "w", encoding="latin-1") as f:
        f.write("\n".join(lines))
    second = _run(CACHED, "python", tmp_path, cache=cache)
    assert second["regex_imported"]      # read again from regex, not from the file
    assert second["same"] and second["exact"]


def test_an_unwritable_cache_folder_costs_only_time(tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")
    for _ in range(2):
        out = _run(CACHED, "python", tmp_path, cache=blocker / "cybleu")
        assert out["regex_imported"] and out["same"] and out["exact"]
