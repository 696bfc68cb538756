"""The `cybleu` command line against `sacrebleu` 2.6.0's, byte for byte.

Every case runs `sacrebleu` (the oracle, as a subprocess: `python -m sacrebleu ...`) once, and
cybleu both in-process (`cybleu.cli.main([...])`) and as `python -m cybleu ...` with the same
arguments. The outputs must be identical once cybleu's signature version (`cybleu-<version>`) is
replaced by sacreBLEU's (`2.6.0`). The inputs are slices of sacreBLEU's WMT17 en-de fixtures from
../shared/data (the tests skip when it is absent; CYBLEU_SHARED_DATA overrides the location).
"""
import functools
import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cybleu
from cybleu.cli import main

SHARED_DATA = Path(os.environ.get("CYBLEU_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")
WMT17 = SHARED_DATA / "sacrebleu-fixtures" / "wmt17-en-de"
SYSTEMS = {"A": "newstest2017.online-A.0.en-de.txt",  # starts with a BOM
           "U": "newstest2017.uedin-nmt.4722.en-de.txt",
           "P": "newstest2017.PROMT-Rule-based.4735.en-de.txt"}
N_LINES = 300
OUR_VERSION = f"cybleu-{cybleu.__version__}"
DEMO_SYSTEMS = ("uedin-nmt", "online-B", "KIT", "LIUM-NMT", "PROMT-Rule-based")


def _sacrebleu_version():
    try:
        import sacrebleu
    except ImportError:
        return None
    return sacrebleu.__version__


needs_oracle = pytest.mark.skipif(_sacrebleu_version() != "2.6.0",
                                  reason="the oracle, sacrebleu 2.6.0, is not installed")


def _env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT", "NO_COLOR")}
    env.update(extra or {})
    return env


@functools.lru_cache(maxsize=None)
def _run_module(module, args, stdin=None, env=()):
    """(exit status, stdout, stderr) of `python -m <module> <args>`; cached: one run per case."""
    proc = subprocess.run([sys.executable, "-m", module, *args], input=stdin or b"",
                          capture_output=True, env=_env(dict(env)), timeout=300)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def _normalize(text):
    return text.replace(OUR_VERSION, "2.6.0")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Placeholder -> path: slices of the WMT17 fixtures plus variants (tabs, gz, CRLF, ...)."""
    if not WMT17.is_dir():
        pytest.skip(f"{WMT17} is absent: the shared evaluation data is not on this machine "
                    "(set CYBLEU_SHARED_DATA to its folder)")
    root = tmp_path_factory.mktemp("cli")

    def head(path):
        with open(path, "rb") as f:
            return b"".join(f.readline() for _ in range(N_LINES))

    def write(name, data):
        (root / name).write_bytes(data)
        return str(root / name)

    ref = head(WMT17 / "ref.txt")
    hyps = {key: head(WMT17 / "sys" / name) for key, name in SYSTEMS.items()}
    lines = {key: data.decode("utf-8").split("\n")[:-1] for key, data in hyps.items()}
    ref_lines = ref.decode("utf-8").split("\n")[:-1]
    paths = {"ref": write("ref.txt", ref), "ref_full": str(WMT17 / "ref.txt"),
             "A_full": str(WMT17 / "sys" / SYSTEMS["A"])}
    for key, data in hyps.items():
        paths[key] = write(f"{key}.txt", data)
    paths["tsv"] = write("systems.tsv", "".join(
        "\t".join(row) + "\n" for row in zip(lines["A"], lines["U"], lines["P"])).encode())
    paths["refs2"] = write("refs2.tsv", "".join(
        f"{r}\t{u}\n" for r, u in zip(ref_lines, lines["U"])).encode())
    paths["ref_gz"] = write("ref.txt.gz", gzip.compress(ref))
    paths["A_gz"] = write("A.txt.gz", gzip.compress(hyps["A"]))
    paths["crlf"] = write("crlf.txt", hyps["P"].replace(b"\n", b"\r\n"))
    # a lone CR inside a line: one line in a file (newline="\n"), two lines on stdin
    paths["lone_cr"] = write("lone_cr.txt", hyps["P"].replace(b" ", b" \r", 1))
    paths["tok"] = write("tok.txt", "".join(  # >= 100 lines ending in " ." -> the warning
        (line[:-1] + " ." if line.endswith(".") else line) + "\n"
        for line in lines["U"]).encode())
    paths["short"] = write("short.txt", b"".join(hyps["U"].splitlines(True)[:-1]))
    paths["ragged"] = write("ragged.tsv", b"a\tb\nc\n")
    return paths


# id -> (arguments, file fed on stdin or None, environment)
CASES = {
    "json": ("{ref} -i {A}", None, {}),
    "text": ("{ref} -i {A} -f text", None, {}),
    "text-short-width": ("{ref} -i {U} -f text -sh -w 3", None, {}),
    "score-only-json": ("{ref} -i {A} -b", None, {}),
    "score-only-text": ("{ref} -i {P} -f text -b -w 2", None, {}),
    "lc-none-floor": ("{ref} -i {A} -lc -tok none -s floor -sv 0.2 -f text", None, {}),
    "add-k-short": ("{ref} -i {U} -s add-k -f text -sh", None, {}),
    "smooth-none-json": ("{ref} -i {P} -s none -m bleu", None, {}),
    "floor-json": ("{ref} -i {A} -s floor -w 2", None, {}),
    "sentence": ("{ref} -i {A} -sl", None, {}),
    "sentence-floor-short": ("{ref} -i {U} -sl -s floor -w 3 -sh -lc", None, {}),
    "sentence-score-only": ("{ref} -i {P} -sl -b -s add-k -sv 2", None, {}),
    "sentence-none-tok": ("{ref} -i {A} -sl -s none -tok none -f json", None, {}),
    "multi-json": ("{ref} -i {A} {U} {P}", None, {}),
    "multi-text": ("{ref} -i {A} {U} {P} -f text -w 2", None, {}),
    "multi-text-short-quiet": ("{ref} -i {U} {P} -f text -sh -q", None, {}),
    "stdin": ("{ref}", "{A}", {}),
    "stdin-text-lc": ("{ref} -f text -lc", "{U}", {}),
    "stdin-tabs-json": ("{ref}", "{tsv}", {}),
    "stdin-tabs-text": ("{ref} -f text", "{tsv}", {}),
    "stdin-crlf": ("{ref} -f text", "{crlf}", {}),
    "two-ref-files": ("{ref} {U} -i {A} -f text", None, {}),
    "two-ref-files-sentence": ("{ref} {U} -i {P} -sl", None, {}),
    "num-refs": ("{refs2} -nr 2 -i {A} -f text", None, {}),
    "gzip": ("{ref_gz} -i {A_gz} -f text", None, {}),
    "crlf-file": ("{ref} -i {crlf} -f text", None, {}),
    "lone-cr-file": ("{ref} -i {lone_cr} -sl -b", None, {}),
    "encoding-utf-8-sig": ("{ref} -i {A} -e utf-8-sig -f text", None, {}),
    "tokenized-warning": ("{ref} -i {tok}", None, {}),
    "tokenized-force": ("{ref} -i {tok} --force -f text", None, {}),
    "env-format-text": ("{ref} -i {A}", None, {"SACREBLEU_FORMAT": "TEXT"}),
    "env-format-ignored": ("{ref} -i {A} -f text", None, {"SACREBLEU_FORMAT": "yaml"}),
    "full-json": ("{ref_full} -i {A_full}", None, {}),
    "tok-intl-text": ("{ref} -i {A} -tok intl -f text", None, {}),
    "tok-zh-json": ("{ref} -i {U} {P} -tok zh", None, {}),
    "tok-char-sentence": ("{ref} -i {A} -tok char -sl -lc", None, {}),
    "full-sentence": ("{ref_full} -i {A_full} -sl", None, {}),
    # errors: same exit status, same messages
    "err-lengths": ("{ref} -i {short}", None, {}),
    "err-lengths-stdin-lone-cr": ("{ref}", "{lone_cr}", {}),
    "err-lengths-sentence": ("{ref} -i {short} -sl -q", None, {}),
    "err-stdin-fields": ("{ref}", "{ragged}", {}),
    "err-num-refs-fields": ("{refs2} -nr 3 -i {A}", None, {}),
    "err-num-refs-two-files": ("{ref} {U} -nr 2 -i {A}", None, {}),
    "err-duplicate-system": ("{ref} -i {A} {A}", None, {}),
    "err-sentence-two-systems": ("{ref} -i {A} {U} -sl", None, {}),
    "err-sentence-two-metrics": ("{ref} -i {A} -sl -m bleu bleu", None, {}),
}
# the same message text (prefix aside) on stderr as sacreBLEU
SAME_STDERR = {"json", "multi-json", "multi-text-short-quiet", "tokenized-warning",
               "tokenized-force", "stdin-tabs-json", "sentence", "err-lengths",
               "err-lengths-stdin-lone-cr", "err-lengths-sentence", "err-stdin-fields",
               "err-num-refs-fields", "err-num-refs-two-files", "err-duplicate-system",
               "err-sentence-two-systems", "err-sentence-two-metrics"}
NEEDS_TABULATE = {"multi-text", "multi-text-short-quiet", "stdin-tabs-text"}


def _expand(case, files):
    args, stdin, env = CASES[case]
    args = tuple(a.format(**files) for a in args.split())
    data = Path(stdin.format(**files)).read_bytes() if stdin else None
    return args, data, tuple(sorted(env.items()))


def _strip_prefix(text, prefix):
    return "".join(line[len(prefix):] if line.startswith(prefix) else line
                   for line in text.splitlines(True))


def _check(case, ours, oracle):
    code, out, err = ours
    o_code, o_out, o_err = oracle
    assert code == o_code, f"exit status {code}, sacrebleu {o_code}; stderr:\n{err}"
    if case in NEEDS_TABULATE and not _has_tabulate():
        assert "Metric signatures" in out
        return
    assert _normalize(out) == o_out
    if case in SAME_STDERR:
        assert _strip_prefix(err, "cybleu: ") == _strip_prefix(o_err, "sacreBLEU: ")


def _has_tabulate():
    try:
        import tabulate  # noqa: F401
    except ImportError:
        return False
    return True


def _main_in_process(args, data, env, capsys, monkeypatch):
    for key in ("SACREBLEU_FORMAT", "NO_COLOR"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env:
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data or b""), encoding="utf-8"))
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@needs_oracle
@pytest.mark.parametrize("case", CASES)
def test_in_process_matches_sacrebleu(case, files, capsys, monkeypatch):
    args, data, env = _expand(case, files)
    ours = _main_in_process(args, data, env, capsys, monkeypatch)
    _check(case, ours, _run_module("sacrebleu", args, data, env))


SUBPROCESS_CASES = ["json", "text", "sentence", "multi-json", "multi-text", "stdin-tabs-json",
                    "stdin-crlf", "gzip", "tokenized-warning", "env-format-text",
                    "full-sentence", "err-lengths", "err-stdin-fields"]


@needs_oracle
@pytest.mark.parametrize("case", SUBPROCESS_CASES)
def test_subprocess_matches_sacrebleu(case, files):
    args, data, env = _expand(case, files)
    _check(case, _run_module("cybleu", args, data, env), _run_module("sacrebleu", args, data, env))


def test_multi_text_without_tabulate(files, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tabulate", None)  # import tabulate -> ImportError
    assert main([files["ref"], "-i", files["A"], files["U"], "-f", "text"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["System", "BLEU"]
    assert [line.split()[0] for line in lines[2:4]] == [files["A"], files["U"]]
    assert lines[-3:-1] == ["Metric signatures", "-----------------"]
    assert lines[-1].startswith(" - BLEU       nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|")


def test_json_carries_cybleu_version(files, capsys):
    assert main([files["ref"], "-i", files["A"]]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["version"] == OUR_VERSION
    assert result["signature"].endswith(f"|version:{OUR_VERSION}")
    assert result["name"] == "BLEU"


@needs_oracle
def test_sentence_level_equals_sacrebleu_api(files, capsys):
    """Every line equals sacreBLEU's own sentence_score().format() (not just the CLI's)."""
    from sacrebleu.metrics import BLEU as SacreBLEU
    with open(files["ref"], encoding="utf-8", newline="\n") as f:
        refs = [line.rstrip() for line in f]
    with open(files["P"], encoding="utf-8", newline="\n") as f:
        hyps = [line.rstrip() for line in f]
    assert main([files["ref"], "-i", files["P"], "-sl", "-w", "4"]) == 0
    lines = _normalize(capsys.readouterr().out).split("\n")
    assert lines[-1] == "" and len(lines) == len(hyps) + 1
    oracle = SacreBLEU(effective_order=True)
    for hyp, ref, line in zip(hyps, refs, lines):
        score = oracle.sentence_score(hyp, [ref])
        assert line == score.format(4, False, oracle.get_signature().format())


# -- errors without the oracle ------------------------------------------------------------------

def test_length_mismatch(files, capsys):
    assert main([files["ref"], "-i", files["short"]]) == 1
    assert "System and reference streams have different lengths." in capsys.readouterr().err


def test_no_references(files, capsys):
    assert main(["-i", files["A"]]) == 1
    assert "make sure to provide them before the -i/--input argument" in capsys.readouterr().err


def test_missing_file(files, capsys, tmp_path):
    assert main([files["ref"], "-i", str(tmp_path / "absent.txt")]) == 1
    assert "absent.txt" in capsys.readouterr().err


def test_unknown_encoding(files, capsys):
    assert main([files["ref"], "-i", files["A"], "-e", "no-such-codec"]) == 1
    assert "unknown encoding" in capsys.readouterr().err


@pytest.mark.parametrize("args", [["-m", "chrf"], ["-tok", "13b"], ["--confidence"]])
def test_unsupported_options_are_usage_errors(files, capsys, args):
    assert main([files["ref"], "-i", files["A"], *args]) == 2
    assert "usage: cybleu" in capsys.readouterr().err


def test_version_and_help(capsys):
    assert main(["-V"]) == 0
    assert capsys.readouterr().out.strip().startswith(f"cybleu {cybleu.__version__}")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "tabulate" in out and "--sentence-level" in out


def test_logging_state_restored(files, capsys):
    import logging
    lib = logging.getLogger("cybleu")
    before = (lib.level, lib.propagate, list(lib.handlers))
    main([files["ref"], "-i", files["short"]])
    capsys.readouterr()
    assert (lib.level, lib.propagate, list(lib.handlers)) == before


# -- the demo -----------------------------------------------------------------------------------

def _demo_scores(out):
    rows = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 5 and parts[0] in DEMO_SYSTEMS:
            rows[parts[0]] = (parts[1], int(parts[2]), int(parts[3]))
    return rows


def test_demo_in_process(capsys):
    assert main(["--demo"]) == 0
    out = capsys.readouterr().out
    rows = _demo_scores(out)
    assert set(rows) == set(DEMO_SYSTEMS)
    assert all(ref_len == rows["KIT"][2] for _, _, ref_len in rows.values())
    assert "Apache-2.0" in out and "sacreBLEU" in out and "WMT17" in out
    assert "time (ms)" in out


@needs_oracle
def test_demo_scores_equal_sacrebleu(capsys):
    """The demo's numbers are sacreBLEU's corpus BLEU on the bundled files."""
    from importlib import resources

    from sacrebleu.metrics import BLEU as SacreBLEU
    data = resources.files("cybleu") / "data"

    def lines(name):
        return [x.rstrip() for x in (data / name).read_text(encoding="utf-8").split("\n")[:-1]]

    refs = lines("wmt17-en-de.ref.txt")
    assert len(refs) == 500
    assert main(["--demo", "-w", "2"]) == 0
    rows = _demo_scores(capsys.readouterr().out)
    for name in DEMO_SYSTEMS:
        hyps = lines(f"wmt17-en-de.{name}.txt")
        assert len(hyps) == 500
        score = SacreBLEU().corpus_score(hyps, [refs])
        assert rows[name] == (f"{score.score:.2f}", score.sys_len, score.ref_len)


def test_demo_data_is_small_and_attributed():
    from importlib import resources
    data = resources.files("cybleu") / "data"
    names = sorted(entry.name for entry in data.iterdir())
    assert "README.md" in names and "wmt17-en-de.ref.txt" in names
    total = sum(len((data / n).read_bytes()) for n in names if n.endswith((".txt", ".md")))
    assert total < 400_000
    readme = (data / "README.md").read_text(encoding="utf-8")
    assert "Apache" in readme and "newstest2017" in readme and "sacreBLEU" in readme


def test_demo_rejects_files(files, capsys):
    assert main(["--demo", files["ref"]]) == 1
    assert "--demo" in capsys.readouterr().err


def test_demo_subprocess():
    proc = subprocess.run([sys.executable, "-m", "cybleu", "--demo"], capture_output=True,
                          env=_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert set(_demo_scores(proc.stdout.decode("utf-8"))) == set(DEMO_SYSTEMS)
