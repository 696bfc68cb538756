"""The `cybleu` command line against `sacrebleu` 2.6.0's, byte for byte.

Every case runs `sacrebleu` (the oracle, as a subprocess: `python -m sacrebleu ...`) once, and
cybleu both in-process (`cybleu.cli.main([...])`) and as `python -m cybleu ...` with the same
arguments. The outputs must be identical once cybleu's signature version (`cybleu-<version>`) is
replaced by sacreBLEU's (`2.6.0`). The inputs are slices of sacreBLEU's WMT17 en-de fixtures from
../shared/data (the tests skip when it is absent; CYBLEU_SHARED_DATA overrides the location).

Test sets (-t) are read from a small sacreBLEU cache built in a temporary $SACREBLEU: WMT17 en-de
(SGML, with origlang documents) and WMT22 en-de (XML, two translators), whose text fields
sacreBLEU extracts itself. Where sacreBLEU stops with a traceback (a bad -w, an unreadable file, a
broken .gz, a missing model), cybleu must give the same exit status and stdout, and a message
naming the file (and line) instead of a traceback.
"""
import functools
import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

import cybleu
from cybleu.cli import main

SHARED_DATA = Path(os.environ.get("CYBLEU_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")
WMT17 = SHARED_DATA / "sacrebleu-fixtures" / "wmt17-en-de"
WMT22 = SHARED_DATA / "wmt" / "wmt22" / "en-de"
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


ISOLATED = ("SACREBLEU_FORMAT", "NO_COLOR", "SACREBLEU_SEED", "SACREBLEU")


def _env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    env["PYTHONHASHSEED"] = "0"  # sacreBLEU orders XML translators by a set
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
    paths["empty"] = write("empty.txt", b"")
    paths["bad_utf8"] = write("bad_utf8.txt", b"".join(
        line if i != 41 else b"caf\xe9 " + line for i, line in enumerate(hyps["U"].splitlines(True))))
    paths["bad_gz"] = write("bad.txt.gz", gzip.compress(hyps["A"])[:200])
    paths["not_gz"] = write("plain.txt.gz", hyps["A"])
    paths["absent"] = str(root / "absent.txt")
    paths["dir"] = str(root)
    paths["nomodels"] = str(root / "no-sacrebleu-cache")
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
    # -l: the language pair picks BLEU's tokenizer (and is not -lc)
    "lang-b": ("{ref} -i {A} -l en-de -b", None, {}),
    "lang-zh": ("{ref} -i {A} -l en-zh -f text", None, {}),
    "lang-ja": ("{ref} -i {U} -l en-ja -f text", None, {}),
    "lang-zh-tok-13a": ("{ref} -i {A} -l en-zh -tok 13a", None, {}),
    # confidence intervals
    "ci-json": ("{ref} -i {A} -ci", None, {}),
    "ci-text-w3": ("{ref} -i {U} -ci -f text -w 3", None, {}),
    "ci-n-short": ("{ref} -i {P} -ci -cin 100 -sh -f text", None, {}),
    "ci-score-only": ("{ref} -i {A} -ci -b", None, {}),
    "ci-seed-7": ("{ref} -i {A} -ci -cin 200", None, {"SACREBLEU_SEED": "7"}),
    "ci-seed-0": ("{ref} -i {A} -ci -cin 200 -f text", None, {"SACREBLEU_SEED": "0"}),
    "ci-cin-1": ("{ref} -i {A} -ci -cin 1", None, {}),
    "ci-stdin": ("{ref} -ci -cin 300", "{U}", {}),
    "ci-add-k": ("{ref} -i {U} -ci -cin 300 -s add-k -sv 0.5 -f text", None, {}),
    "ci-floor-lc": ("{ref} -i {P} -ci -cin 300 -s floor -lc", None, {}),
    # paired bootstrap
    "pbs-json": ("{ref} -i {A} {U} {P} -pbs", None, {}),
    "pbs-text": ("{ref} -i {A} {U} {P} -pbs -f text", None, {}),
    "pbs-latex": ("{ref} -i {A} {U} {P} -pbs -f latex -w 2", None, {}),
    "pbs-n-short": ("{ref} -i {U} {P} -pbs -pbsn 100 -f text -sh", None, {}),
    "pbs-stdin": ("{ref} -pbs -pbsn 200 -f text", "{tsv}", {}),
    "pbs-baseline-repeat": ("{ref} -i {A} {U} {A} -pbs -pbsn 200", None, {}),
    "pbs-seed": ("{ref} -i {A} {U} -pbs -pbsn 200", None, {"SACREBLEU_SEED": "3"}),
    "pbs-jobs": ("{ref} -i {A} {U} {P} -pbs -pbsn 200 -j 2", None, {}),
    "pbs-num-refs": ("{refs2} -nr 2 -i {A} {P} -pbs -pbsn 200 -f text", None, {}),
    "pbs-env-latex": ("{ref} -i {A} {U} -pbs -pbsn 200", None, {"SACREBLEU_FORMAT": "latex"}),
    "pbs-add-k": ("{ref} -i {A} {U} -pbs -pbsn 200 -s add-k -sv 0.5", None, {}),
    # approximate randomization
    "par-json": ("{ref} -i {A} {U} {P} -par -parn 500", None, {}),
    "par-text": ("{ref} -i {A} {U} {P} -par -parn 1000 -f text", None, {}),
    "par-latex": ("{ref} -i {A} {U} -par -parn 300 -f latex -w 3", None, {}),
    "par-stdin": ("{ref} -par -parn 300", "{tsv}", {}),
    "par-floor": ("{ref} -i {A} {U} -par -parn 300 -s floor -sv 0.3", None, {}),
    # tables and formats
    "multi-latex": ("{ref} -i {A} {U} {P} -f latex", None, {}),
    "single-latex": ("{ref} -i {A} -f latex", None, {}),
    "multi-score-only": ("{ref} -i {A} {U} -b -f text", None, {}),
    "detail-without-test-set": ("{ref} -i {A} -d", None, {}),
    "no-color": ("{ref} -i {A} {U} -pbs -pbsn 100 -f text -nc", None, {"NO_COLOR": "1"}),
    # chrF and TER (-m), with their flags
    "m-chrf": ("{ref} -i {A} -m chrf", None, {}),
    "m-all-text": ("{ref} -i {A} -m chrf ter bleu -f text", None, {}),
    "m-multi": ("{ref} -i {A} {U} {P} -m chrf ter -f text", None, {}),
    "m-pbs-text": ("{ref} -i {A} {U} -m ter bleu chrf -pbs -pbsn 100 -f text", None, {}),
    "m-par-text": ("{ref} -i {A} {U} -m chrf ter -par -parn 200 -f text -w 3", None, {}),
    "m-ci": ("{ref} -i {A} -m ter chrf -ci -cin 100", None, {}),
    "m-sl-chrf": ("{ref} -i {A} -m chrf -sl -cw 2", None, {}),
    "m-sl-ter": ("{ref} -i {P} -m ter -sl --ter-normalized -b", None, {}),
    "m-flags": ("{ref} -i {A} -m chrf ter -cc 4 -cw 2 --chrf-beta 3 --chrf-whitespace "
                "--chrf-lowercase --chrf-eps-smoothing --ter-case-sensitive --ter-no-punct "
                "--ter-asian-support -f text", None, {}),
    "m-stdin": ("{ref} -m chrf ter -f text -sh", "{tsv}", {}),
    "m-pbs-latex": ("{ref} -i {A} {U} -m chrf -pbs -pbsn 100 -f latex -w 2", None, {}),
    # errors: same exit status and messages
    "err-pbs-one-system": ("{ref} -i {A} -pbs", None, {}),
    "err-ci-two-systems": ("{ref} -i {A} {U} -ci", None, {}),
    "err-sentence-ci": ("{ref} -i {A} -sl -ci", None, {}),
    "err-pbs-and-par": ("{ref} -i {A} {U} -pbs -par", None, {}),
    "err-empty": ("{ref} -i {empty}", None, {}),
    "err-test-set-and-refs": ("-t wmt17 {ref} -i {A}", None, {}),
    "err-unknown-test-set": ("-t wmt99 -l en-de -i {A}", None, {}),
    "err-no-langpair": ("-t wmt17 -i {A}", None, {}),
    "err-bad-langpair": ("-t wmt17 -l en-fr -i {A}", None, {}),
    # sacreBLEU stops with a traceback here; cybleu with the same status and a clear message
    "tb-width": ("{ref} -i {A} -w -1", None, {}),
    "tb-width-multi": ("{ref} -i {A} {U} -w -2 -f text", None, {}),
    "tb-missing-file": ("{ref} -i {absent}", None, {}),
    "tb-missing-ref": ("{absent} -i {A}", None, {}),
    "tb-directory": ("{ref} -i {dir}", None, {}),
    "tb-invalid-utf8": ("{ref} -i {bad_utf8}", None, {}),
    "tb-invalid-utf8-stdin": ("{ref}", "{bad_utf8}", {}),
    "tb-corrupt-gz": ("{ref} -i {bad_gz}", None, {}),
    "tb-not-gz": ("{ref} -i {not_gz}", None, {}),
    "tb-unknown-encoding": ("{ref} -i {A} -e no-such-codec", None, {}),
    "tb-bad-seed": ("{ref} -i {A} -ci", None, {"SACREBLEU_SEED": "abc"}),
    "tb-spm-model": ("{ref} -i {A} -tok flores101", None, {"SACREBLEU": "{nomodels}"}),
}
# the same message text (prefix aside) on stderr as sacreBLEU: its lines appear in ours, in
# order (cybleu may add a line naming the file, e.g. which system is too short)
SAME_STDERR = {"json", "multi-json", "multi-text-short-quiet", "tokenized-warning",
               "tokenized-force", "stdin-tabs-json", "sentence", "err-lengths",
               "err-lengths-stdin-lone-cr", "err-lengths-sentence", "err-stdin-fields",
               "err-num-refs-fields", "err-num-refs-two-files", "err-duplicate-system",
               "err-sentence-two-systems", "err-sentence-two-metrics", "lang-zh-tok-13a",
               "ci-json", "pbs-json", "pbs-baseline-repeat", "par-json", "err-pbs-one-system",
               "err-ci-two-systems", "err-sentence-ci", "err-empty", "err-test-set-and-refs",
               "err-unknown-test-set", "err-no-langpair", "err-bad-langpair"}
# sacreBLEU's traceback replaced: a fragment our message must contain
CLEAN_ERRORS = {
    "tb-width": "-w/--width must be a non-negative", "tb-width-multi": "-w/--width",
    "tb-missing-file": "absent.txt: no such file", "tb-missing-ref": "absent.txt: no such file",
    "tb-directory": "is a directory", "tb-invalid-utf8": "bad_utf8.txt: line 42: cannot decode",
    "tb-invalid-utf8-stdin": "standard input: line 42: cannot decode",
    "tb-corrupt-gz": "bad.txt.gz: not a valid gzip file",
    "tb-not-gz": "plain.txt.gz: not a valid gzip file",
    "tb-unknown-encoding": "unknown encoding: no-such-codec",
    "tb-bad-seed": "SACREBLEU_SEED must be an integer or 'none', not 'abc'",
    # the model is missing; where sentencepiece itself is missing, that is said first
    "tb-spm-model": ("sacrebleu_tokenizer_spm.model", "install the sentencepiece library"),
}
NEEDS_TABULATE = {"multi-text", "multi-text-short-quiet", "stdin-tabs-text"}
# variations run under -m slow only: each oracle run is a sacreBLEU process (~1 s)
SLOW_CASES = {"ci-n-short", "ci-score-only", "ci-seed-0", "ci-add-k", "ci-floor-lc", "ci-cin-1",
              "pbs-n-short", "pbs-jobs", "pbs-env-latex", "pbs-add-k", "pbs-num-refs",
              "par-latex", "par-stdin", "par-floor", "multi-score-only", "no-color",
              "lang-zh-tok-13a", "tb-width-multi", "tb-missing-ref", "tb-not-gz",
              "t-detail-width", "t-origlang-non", "t-multi", "t-list-set-pair", "t-list-pair",
              "t-err-echo-all-and-more", "t-sentence", "m-multi", "m-stdin",
              "m-sl-ter", "m-pbs-latex"}


def _cases(cases):
    return [pytest.param(c, marks=pytest.mark.slow) if c in SLOW_CASES else c for c in cases]


# -- a sacreBLEU cache with two test sets, built by sacreBLEU itself ---------------------------

WMT17_DOCS = 4  # 10 segments each, origlang en, de, en, de
WMT22_DOCS = 3


def _write_lines(path, lines):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """$SACREBLEU with WMT17 en-de (SGML: the extracted fields and the raw source file for
    --origlang) and WMT22 en-de (XML with translators A and B; sacreBLEU extracts its fields)."""
    if not WMT17.is_dir() or not WMT22.is_dir():
        pytest.skip("the shared evaluation data is not on this machine")
    root = tmp_path_factory.mktemp("sacrebleu-cache")
    n17 = WMT17_DOCS * 10
    ref = (WMT17 / "ref.txt").read_text(encoding="utf-8").split("\n")[:n17]
    src = [f"source sentence {i}" for i in range(n17)]
    origlangs = ["en" if (i // 10) % 2 == 0 else "de" for i in range(n17)]
    d17 = root / "wmt17"
    _write_lines(d17 / "wmt17.en-de.src", src)
    _write_lines(d17 / "wmt17.en-de.ref", ref)
    _write_lines(d17 / "wmt17.en-de.docid", [f"doc{i // 10}" for i in range(n17)])
    _write_lines(d17 / "wmt17.en-de.genre", ["news"] * n17)
    _write_lines(d17 / "wmt17.en-de.origlang", origlangs)
    sgm = ['<srcset setid="newstest2017" srclang="any">']
    for k in range(WMT17_DOCS):
        sgm.append(f'<doc sysid="ref" docid="doc{k}" genre="news" origlang="{origlangs[k * 10]}">')
        sgm += [f'<seg id="{i + 1}">{src[k * 10 + i]}</seg>' for i in range(10)]
        sgm.append("</doc>")
    sgm.append("</srcset>")
    _write_lines(d17 / "raw" / "test" / "newstest2017-ende-src.en.sgm", sgm)

    # WMT19 en-de: SGML documents that sacreBLEU's SUBSETS annotates (country-domain)
    d19 = root / "wmt19"
    docs19 = [("bbc.381790", "en"), ("nytimes.184853", "de"), ("upi.176266", "en")]
    n19 = len(docs19) * 10
    _write_lines(d19 / "wmt19.en-de.src", src[:n19])
    _write_lines(d19 / "wmt19.en-de.ref", ref[:n19])
    _write_lines(d19 / "wmt19.en-de.docid", [docs19[i // 10][0] for i in range(n19)])
    _write_lines(d19 / "wmt19.en-de.genre", ["news"] * n19)
    _write_lines(d19 / "wmt19.en-de.origlang", [docs19[i // 10][1] for i in range(n19)])
    sgm = ['<srcset setid="newstest2019" srclang="any">']
    for k, (docid, lang) in enumerate(docs19):
        sgm.append(f'<doc sysid="ref" docid="{docid}" genre="news" origlang="{lang}">')
        sgm += [f'<seg id="{i + 1}">{src[k * 10 + i]}</seg>' for i in range(10)]
        sgm.append("</doc>")
    sgm.append("</srcset>")
    _write_lines(d19 / "raw" / "sgm" / "newstest2019-ende-src.en.sgm", sgm)

    n22 = WMT22_DOCS * 10

    def head(name):
        return (WMT22 / name).read_text(encoding="utf-8").split("\n")[:n22]

    src22, ref_a, ref_b = head("src.txt"), head("ref.A.txt"), head("ref.B.txt")
    hyp22 = head("sys/Online-B.txt")
    xml = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="wmttest2022">',
           '<collection id="general">']
    for k in range(WMT22_DOCS):
        domain = ("news", "social", "news")[k % 3]
        xml.append(f'<doc id="doc{k}" origlang="{"de" if k == 1 else "en"}" domain="{domain}">')
        for tag, attrs, lines in (("src", 'lang="en"', src22),
                                  ("ref", 'lang="de" translator="A"', ref_a),
                                  ("ref", 'lang="de" translator="B"', ref_b),
                                  ("hyp", 'system="Online-B" language="de"', hyp22)):
            xml.append(f"<{tag} {attrs}><p>")
            xml += [f'<seg id="{i + 1}">{escape(lines[k * 10 + i])}</seg>' for i in range(10)]
            xml.append(f"</p></{tag}>")
        xml.append("</doc>")
    xml += ["</collection>", "</dataset>"]
    d22 = root / "wmt22" / "raw"
    _write_lines(d22 / "wmt22-news-systems-1.1" / "xml" / "wmttest2022.en-de.all.xml", xml)
    (d22 / "wmt22.v1.1.tar.gz").write_bytes(b"stands in for the downloaded archive")
    # sacreBLEU extracts the XML's fields into text files itself
    proc = subprocess.run([sys.executable, "-m", "sacrebleu", "-t", "wmt22", "-l", "en-de",
                           "--echo", "src"], capture_output=True, timeout=120,
                          env=_env({"SACREBLEU": str(root)}))
    if proc.returncode != 0:
        pytest.skip(f"sacrebleu could not prepare the WMT22 cache: {proc.stderr.decode()[-300:]}")

    hyp17 = (WMT17 / "sys" / SYSTEMS["U"]).read_text(encoding="utf-8").split("\n")[:n17]
    hyp17b = (WMT17 / "sys" / SYSTEMS["P"]).read_text(encoding="utf-8").split("\n")[:n17]
    inputs = tmp_path_factory.mktemp("testset-inputs")
    paths = {"cache": str(root)}
    for key, lines in (("T", hyp17), ("T2", hyp17b), ("TT", hyp17 + hyp17b), ("T22", hyp22),
                       ("Tshort", hyp17[:-1]), ("T19", hyp17[:n19])):
        _write_lines(inputs / f"{key}.txt", lines)
        paths[key] = str(inputs / f"{key}.txt")
    paths["empty_cache"] = str(tmp_path_factory.mktemp("empty-cache"))
    return paths


TS = {"SACREBLEU": "{cache}"}
TEST_SET_CASES = {
    "t-json": ("-t wmt17 -l en-de -i {T}", None, TS),
    "t-text-origlang": ("-t wmt17 -l en-de -i {T} --origlang de -f text", None, TS),
    "t-origlang-non": ("-t wmt17 -l en-de -i {T} --origlang non-de", None, TS),
    "t-detail": ("-t wmt17 -l en-de -i {T} -d", None, TS),
    "t-detail-width": ("-t wmt17 -l en-de -i {T} -d -w 3 -f text", None, TS),
    "t-detail-origlang": ("-t wmt17 -l en-de -i {T} --origlang de -d", None, TS),
    "t-stdin": ("-t wmt17 -l en-de -f text", "{T}", TS),
    "t-pbs": ("-t wmt17 -l en-de -i {T} {T2} -pbs -pbsn 100 -f text", None, TS),
    "t-multi": ("-t wmt17 -l en-de -i {T} {T2}", None, TS),
    "t-concat": ("-t wmt17,wmt17 -l en-de -i {TT} -f text", None, TS),
    "t-tok-none": ("-t wmt17 -l en-de -i {T} -tok none", None, TS),
    "t-sentence": ("-t wmt17 -l en-de -i {T} -sl", None, TS),
    "t-echo": ("-t wmt17 -l en-de --echo src ref", None, TS),
    "t-echo-all": ("-t wmt17 -l en-de --echo all", None, TS),
    "t-echo-origlang": ("-t wmt17 -l en-de --echo ref docid --origlang non-de", None, TS),
    "t-list-set": ("--list -t wmt17", None, TS),
    "t-list-set-pair": ("--list -t wmt17 -l en-de", None, TS),
    "t-list": ("--list", None, TS),
    "t-list-pair": ("--list -l en-de", None, TS),
    "t-download": ("--download wmt17 -l en-de", None, TS),
    "t22-json": ("-t wmt22 -l en-de -i {T22}", None, TS),
    "t22-origlang": ("-t wmt22 -l en-de -i {T22} --origlang de -f text", None, TS),
    "t22-detail": ("-t wmt22 -l en-de -i {T22} -d", None, TS),
    "t22-subset": ("-t wmt22 -l en-de -i {T22} --subset soc -f text", None, TS),
    "t22-subset-origlang": ("-t wmt22 -l en-de -i {T22} --subset news --origlang en", None, TS),
    "t22-echo-subset": ("-t wmt22 -l en-de --echo docid ref --subset news", None, TS),
    "t19-subset-country": ("-t wmt19 -l en-de -i {T19} --subset country:US -f text", None, TS),
    "t19-subset-domain": ("-t wmt19 -l en-de -i {T19} --subset politics", None, TS),
    "t19-detail": ("-t wmt19 -l en-de -i {T19} -d", None, TS),
    "t19-echo-subset": ("-t wmt19 -l en-de --echo docid --subset crime --origlang en", None, TS),
    "t22-echo": ("-t wmt22 -l en-de --echo src ref ref:B docid origlang", None, TS),
    "t-err-short": ("-t wmt17 -l en-de -i {Tshort}", None, TS),
    "t-err-echo-field": ("-t wmt17 -l en-de --echo foo", None, TS),
    "t-err-echo-all-and-more": ("-t wmt17 -l en-de --echo all src", None, TS),
    "t-err-echo-no-pair": ("-t wmt17 --echo src", None, TS),
    "t-err-origlang-without-t": ("{T} -i {T} --origlang de", None, TS),
    # a pair sacreBLEU would download: cybleu names the missing file instead
    "t-tb-not-cached": ("-t wmt17 -l de-en -i {T}", None, TS),
    "t-tb-empty-cache": ("-t wmt17 -l en-de -i {T}", None, {"SACREBLEU": "{empty_cache}"}),
}
TEST_SET_SAME_STDERR = {"t-json", "t-tok-none", "t-err-short", "t-err-echo-field",
                        "t-err-echo-all-and-more", "t-err-echo-no-pair"}
TEST_SET_CLEAN_ERRORS = {
    "t-tb-not-cached": "wmt17.de-en.ref is missing",
    "t-tb-empty-cache": "wmt17.en-de.ref is missing",
    "t-err-origlang-without-t": "needs a test (-t) and a language pair (-l)",
    "t-detail-origlang": "-d/--detail found no segments",
}


def _expand(case, files, cases=None):
    args, stdin, env = (cases or CASES)[case]
    args = tuple(a.format(**files) for a in args.split())
    data = Path(stdin.format(**files)).read_bytes() if stdin else None
    env = {k: v.format(**files) for k, v in env.items()}
    return args, data, tuple(sorted(env.items()))


def _strip_prefix(text, prefix):
    return "".join(line[len(prefix):] if line.startswith(prefix) else line
                   for line in text.splitlines(True))


def _is_subsequence(needles, haystack):
    it = iter(haystack)
    return all(any(line == h for h in it) for line in needles)


def _check(case, ours, oracle, same_stderr=SAME_STDERR, clean=CLEAN_ERRORS):
    code, out, err = ours
    o_code, o_out, o_err = oracle
    assert code == o_code, f"exit status {code}, sacrebleu {o_code}; stderr:\n{err}"
    if case in NEEDS_TABULATE and not _has_tabulate():
        assert "Metric signatures" in out
        return
    assert _normalize(out) == o_out
    assert "Traceback" not in err
    if case in same_stderr:
        mine = _strip_prefix(err, "cybleu: ").splitlines()
        theirs = _strip_prefix(o_err, "sacreBLEU: ").splitlines()
        assert _is_subsequence(theirs, mine), f"sacreBLEU said:\n{o_err}\ncybleu said:\n{err}"
    if case in clean:
        assert "Traceback" in o_err  # still a traceback in sacreBLEU 2.6.0
        wanted = clean[case] if isinstance(clean[case], tuple) else (clean[case],)
        assert any(fragment in err for fragment in wanted), err


def _has_tabulate():
    try:
        import tabulate  # noqa: F401 - a probe
    except ImportError:
        return False
    return True


def _main_in_process(args, data, env, capsys, monkeypatch):
    for key in ISOLATED:
        monkeypatch.delenv(key, raising=False)
    for key, value in env:
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data or b""), encoding="utf-8"))
    capsys.readouterr()
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@needs_oracle
@pytest.mark.parametrize("case", _cases(CASES))
def test_in_process_matches_sacrebleu(case, files, capsys, monkeypatch):
    args, data, env = _expand(case, files)
    ours = _main_in_process(args, data, env, capsys, monkeypatch)
    _check(case, ours, _run_module("sacrebleu", args, data, env))


@needs_oracle
@pytest.mark.parametrize("case", _cases(TEST_SET_CASES))
def test_test_sets_match_sacrebleu(case, cache, capsys, monkeypatch):
    args, data, env = _expand(case, cache, TEST_SET_CASES)
    ours = _main_in_process(args, data, env, capsys, monkeypatch)
    _check(case, ours, _run_module("sacrebleu", args, data, env), TEST_SET_SAME_STDERR,
           TEST_SET_CLEAN_ERRORS)


SUBPROCESS_CASES = ["json", "text", "sentence", "multi-json", "multi-text", "stdin-tabs-json",
                    "stdin-crlf", "gzip", "tokenized-warning", "env-format-text",
                    "full-sentence", "err-lengths", "err-stdin-fields", "ci-json", "pbs-text",
                    "par-json", "lang-b", "tb-invalid-utf8", "tb-invalid-utf8-stdin",
                    "tb-corrupt-gz", "tb-width"]


@needs_oracle
@pytest.mark.parametrize("case", SUBPROCESS_CASES)
def test_subprocess_matches_sacrebleu(case, files):
    args, data, env = _expand(case, files)
    _check(case, _run_module("cybleu", args, data, env), _run_module("sacrebleu", args, data, env))


@needs_oracle
def test_subprocess_test_set(cache):
    args, data, env = _expand("t-detail", cache, TEST_SET_CASES)
    _check("t-detail", _run_module("cybleu", args, data, env),
           _run_module("sacrebleu", args, data, env))


@pytest.mark.parametrize("case", ["t-detail", "t-detail-width", "t-pbs", "t-sentence"])
def test_test_set_runs_stream_alike(cache, capsys, monkeypatch, case):
    """-d (and a paired test, -sl) on a test set's references longer than a slice read the
    system in step with them, keeping its statistics rows: the bytes of the general path."""
    from cybleu import streams
    args, _, env = _expand(case, cache, TEST_SET_CASES)
    for key, value in env:
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(streams, "CHUNK_LINES", 16)
    called = []
    real = streams.stream_systems

    def counted(*a):
        called.append(1)
        return real(*a)
    monkeypatch.setattr(streams, "stream_systems", counted)
    streamed = main(list(args)), capsys.readouterr()
    assert called, "the run did not stream"
    monkeypatch.setattr(cybleu.cli, "_stream_systems", lambda *a: False)
    assert (main(list(args)), capsys.readouterr()) == streamed
    assert streamed[0] == 0
    if "detail" in case:
        assert "origlang=de" in streamed[1].out and "origlang=en" in streamed[1].out


@needs_oracle
@pytest.mark.parametrize("args", ["--list -t wmt22 -l en-de", "-t wmt22 -l en-de --echo all"])
def test_translator_order_as_sacrebleu(cache, args):
    """sacreBLEU lists an XML test set's translators in a Python set's order: the same order for
    the same PYTHONHASHSEED (both processes run with 0 here)."""
    args = tuple(a.format(**cache) for a in args.split())
    env = (("SACREBLEU", cache["cache"]),)
    _check("translators", _run_module("cybleu", args, None, env),
           _run_module("sacrebleu", args, None, env))


@needs_oracle
def test_paired_json_with_chrf_ter(files, capsys):
    """sacreBLEU 2.6.0 cannot print this JSON (its chrF/TER means are numpy float32: "Object of
    type float32 is not JSON serializable"); cybleu prints the same values as numbers."""
    from sacrebleu.metrics import CHRF as SacreCHRF
    from sacrebleu.metrics import TER as SacreTER
    from sacrebleu.significance import PairedTest as SacrePairedTest
    code, _, err = _run_module("sacrebleu", (files["ref"], "-i", files["A"], files["U"], "-m",
                                             "chrf", "ter", "-pbs", "-pbsn", "100"))
    assert code == 1 and "not JSON serializable" in err
    assert main([files["ref"], "-i", files["A"], files["U"], "-m", "chrf", "ter", "-pbs",
                 "-pbsn", "100"]) == 0
    rows = json.loads(capsys.readouterr().out)

    def lines(path):
        with open(path, encoding="utf-8", newline="\n") as f:
            return [line.rstrip() for line in f]

    refs = lines(files["ref"])
    named = [(f"Baseline: {files['A']}", lines(files["A"])), (files["U"], lines(files["U"]))]
    scores = SacrePairedTest(named, {"CHRF": SacreCHRF(references=[refs]),
                                     "TER": SacreTER(references=[refs])}, None,
                             test_type="bs", n_samples=100)()[1]
    for row, i in zip(rows, range(2)):
        assert row["system"] == scores["System"][i]
        for name in ("chrF2", "TER"):
            assert row[name] == {k: (None if v is None else float(v))
                                 for k, v in scores[name][i].__dict__.items()}


def test_abbreviations_are_not_accepted(files, capsys):
    """`-l` is the language pair (not -lc), `-t` the test set (not -tok): no prefix matching."""
    assert main([files["ref"], "-i", files["A"], "--forc"]) == 2
    assert "unrecognized arguments: --forc" in capsys.readouterr().err
    assert main([files["ref"], "-i", files["A"], "-l", "en-de", "-b"]) == 0
    with_l = capsys.readouterr().out
    assert main([files["ref"], "-i", files["A"], "-b"]) == 0
    assert with_l == capsys.readouterr().out
    assert main([files["ref"], "-i", files["A"], "-lc", "-b"]) == 0
    assert capsys.readouterr().out != with_l


def test_citation(cache, capsys, monkeypatch):
    """sacreBLEU 2.6.0's --citation raises TypeError for every test set; cybleu prints it."""
    monkeypatch.setenv("SACREBLEU", cache["cache"])
    assert main(["--citation", "-t", "wmt17"]) == 0
    assert "Findings of the 2017 Conference on Machine Translation" in capsys.readouterr().out
    assert main(["--citation"]) == 1
    assert "I need a test set (-t)." in capsys.readouterr().err


def test_stdin_decoding_error_counts_lines_across_buffers(files, capsys, monkeypatch):
    """The line of an undecodable byte far past the first read buffer."""
    lines = [f"line {i} " + "x" * 50 for i in range(5000)]
    raw = "\n".join(lines).encode() + b"\n"
    cut = raw.index(b"line 3210 ")
    raw = raw[:cut] + b"\xff" + raw[cut:]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    assert main([files["ref"]]) == 1
    assert "standard input: line 3211: cannot decode as utf-8" in capsys.readouterr().err


def test_long_inputs_are_scored_in_slices(files, capsys, monkeypatch, tmp_path):
    """A corpus longer than a slice gives the same numbers as one object scoring it whole."""
    import cybleu.streams as streams
    monkeypatch.setattr(streams, "CHUNK_LINES", 64)
    for args in ([files["ref"], "-i", files["A"], files["U"], "-f", "text"],
                 [files["ref"], "-i", files["U"], "-ci", "-cin", "200"],
                 [files["ref"], "-i", files["A"], files["P"], "-pbs", "-pbsn", "100"],
                 [files["ref"], "-i", files["P"], "-sl", "-w", "3"],
                 [files["refs2"], "-nr", "2", "-i", files["U"]]):
        monkeypatch.setattr(streams, "CHUNK_LINES", 1 << 17)
        assert main(list(args)) == 0
        whole = capsys.readouterr().out
        monkeypatch.setattr(streams, "CHUNK_LINES", 64)
        assert main(list(args)) == 0
        assert capsys.readouterr().out == whole
    assert main([files["ref"], "-i", files["short"]]) == 1
    assert "short.txt has 299 lines, the references 300." in capsys.readouterr().err


def test_progress_bar_only_on_a_terminal(files, capsys, monkeypatch):
    from cybleu.render import Progress
    stream = io.StringIO()
    bar = Progress(100, "resampling", enabled=True, stream=stream)
    bar.update(50)
    bar.update(100)
    bar.close()
    assert "resampling" in stream.getvalue() and "100/100" in stream.getvalue()
    quiet = io.StringIO()
    Progress(100, "x", stream=quiet).update(100)  # not a terminal: nothing drawn
    assert quiet.getvalue() == ""
    assert main([files["ref"], "-i", files["A"], files["U"], "-pbs", "-pbsn", "50"]) == 0
    assert "█" not in capsys.readouterr().err  # stderr is not a terminal here


def test_multi_text_needs_tabulate(files, capsys, monkeypatch):
    """tabulate is a dependency (sacreBLEU's own): no silently different fallback table."""
    monkeypatch.setitem(sys.modules, "tabulate", None)  # import tabulate -> ImportError
    assert main([files["ref"], "-i", files["A"], files["U"], "-f", "text"]) == 1
    assert "tabulate" in capsys.readouterr().err


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


@pytest.mark.parametrize("args", [["-tok", "13b"], ["-f", "yaml"], ["-m", "meteor"],
                                  ["-pbs", "-par"], ["-w", "x"]])
def test_usage_errors(files, capsys, args):
    assert main([files["ref"], "-i", files["A"], *args]) == 2
    assert "usage: cybleu" in capsys.readouterr().err


def test_version_and_help(capsys):
    assert main(["-V"]) == 0
    assert capsys.readouterr().out.strip().startswith(f"cybleu {cybleu.__version__}")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for flag in ("--sentence-level", "--paired-bs", "--confidence", "--test-set", "--chrf-beta",
                 "--ter-normalized", "--echo", "--detail"):
        assert flag in out


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


def test_scoring_streams_the_hypotheses(tmp_path, capsys, monkeypatch):
    """Memory holds the references and statistics, not the hypothesis text: scoring 40,000
    hypotheses of 500 characters (20 MB of text) peaks about as high as scoring 40,000 of 10."""
    import tracemalloc

    import cybleu.streams as streams
    if cybleu.BACKEND != "cython":
        # the twin keeps Python objects per segment whose size grows with the line (about 0.4 KB
        # a line more here): bounded memory is the compiled core's promise, not the twin's
        pytest.skip("streaming memory is measured on the compiled core")
    monkeypatch.setattr(streams, "CHUNK_LINES", 2048)
    n = 40_000
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"word{i % 97} and more\n" for i in range(n)), encoding="utf-8")
    filler = " ".join(["lorem ipsum dolor sit amet"] * 18)
    long_hyp, short_hyp = tmp_path / "long.txt", tmp_path / "short.txt"
    long_hyp.write_text("".join(f"word{i % 97} {filler}\n" for i in range(n)), encoding="utf-8")
    short_hyp.write_text("".join(f"word{i % 97} and\n" for i in range(n)), encoding="utf-8")
    size = long_hyp.stat().st_size
    assert size > 19_000_000
    for extra in ([], ["-ci", "-cin", "50"]):
        peaks = []
        for hyp in (short_hyp, long_hyp):
            tracemalloc.start()
            try:
                assert main([str(ref), "-i", str(hyp), "-b", *extra]) == 0
                peaks.append(tracemalloc.get_traced_memory()[1])
            finally:
                tracemalloc.stop()
            capsys.readouterr()
        assert peaks[1] - peaks[0] < size / 4, (extra, peaks, size)


def test_chinese_references_scored_with_13a_warn_on_stderr_only(tmp_path):
    """References mostly in a script written without spaces, and BLEU's default tokenizer: a
    warning on stderr naming -l; standard output stays sacreBLEU's, byte for byte (version
    aside). With -l or -tok zh, no warning."""
    d = SHARED_DATA / "wmt" / "wmt22" / "en-zh"
    if not d.is_dir():
        pytest.skip(f"{d} is absent: the shared evaluation data is not on this machine")
    ref, hyp = str(d / "ref.A.txt"), str(d / "sys" / "DLUT.txt")
    for extra in ((), ("-m", "bleu", "chrf", "-f", "text"), ("-b",)):
        args = (ref, "-i", hyp, *extra)
        code, out, err = _run_module("cybleu", args)
        o_code, o_out, o_err = _run_module("sacrebleu", args)
        assert code == o_code == 0
        assert _normalize(out) == o_out
        assert "look Chinese" in err and "-l SRC-zh" in err and "-tok zh" in err
        assert "look Chinese" not in o_err
    for extra in (("-l", "en-zh"), ("-tok", "zh"), ("-m", "chrf")):
        code, out, err = _run_module("cybleu", (ref, "-i", hyp, *extra))
        assert code == 0 and "look Chinese" not in err, extra
    # English references: nothing
    code, _, err = _run_module("cybleu", (str(WMT17 / "ref.txt"), "-i",
                                          str(WMT17 / "sys" / SYSTEMS["A"]), "-b"))
    assert code == 0 and "look" not in err
