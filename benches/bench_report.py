"""groups "report-wmt17" and "report-50k": the comparison report (cybleu.report / `cybleu report`).

- report-wmt17: the 16 WMT17 en-de systems x 3,004 segments of sacreBLEU's fixtures, BLEU, chrF
  and TER, 1,000 paired-bootstrap resamples, every pair of systems (120, Holm), sentence scores,
  n-grams, buckets, the page written to a file. Budget: under 3 s; the file under 5 MB
  (extra_info "bytes").
  Peer: sacreBLEU's command line, which tests one baseline against the others per run
  (`sacrebleu REF -i SYS... -m bleu chrf ter -pbs`); every pair takes 15 runs (the i-th system
  against the later ones: 135 system loads, 120 pairs). That takes many minutes, so it is timed
  once on a sample (a baseline and 3 systems: 4 system loads) and scaled by system loads
  (x 135/4; "extrapolated" in the report). Its sentence scores, n-grams and page are not
  counted: sacreBLEU has none.
- report-50k: 4 systems x 50,000 segments (the WMT17 lines cycled), the same analyses: it builds
  (time, "bytes"); the browser test (tests/test_report_browser.py) opens and sorts it.

Every cybleu run's numbers are checked against sacreBLEU's corpus scores, so a fast wrong page
cannot pass.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from _common import shared_data_dir
from conftest import label, run

WMT17 = Path("sacrebleu-fixtures") / "wmt17-en-de"
ROUNDS = int(os.environ.get("CYBLEU_BENCH_REPORT_ROUNDS", "5"))
SAMPLE_SYSTEMS = 4          # sacreBLEU's sample: a baseline and 3 systems
ALL_PAIR_LOADS = sum(range(2, 17))  # 135: the systems the 15 runs of every pair load


def _lines(path):
    with open(path, encoding="utf-8", newline="\n") as f:
        return [line.rstrip() for line in f]


@pytest.fixture(scope="module")
def wmt17():
    d = shared_data_dir() / WMT17
    files = sorted((d / "sys").glob("*.txt"))
    if not (d / "ref.txt").is_file() or len(files) != 16:
        pytest.skip(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return {"dir": d, "ref_path": str(d / "ref.txt"), "paths": [str(p) for p in files],
            "ref": _lines(d / "ref.txt"),
            "systems": {p.name.split(".")[1]: _lines(p) for p in files}}


def _cpu(fn):
    """CPU seconds of one more call, every thread of the process counted: what the machine's
    load does not change, unlike the wall-clock time (with two cores, wall >= cpu / 2)."""
    import time
    start = time.process_time()
    fn()
    return round(time.process_time() - start, 3)


def _check(rep, refs, systems):
    from sacrebleu.metrics import BLEU
    m = rep.data["sets"][0]["metrics"][0]
    for k, hyps in enumerate(list(systems.values())[:3]):
        assert m["corpus"][k]["score"] == BLEU().corpus_score(hyps, [refs]).score


def bench_report_wmt17_cybleu(benchmark, wmt17):
    import cybleu
    benchmark.group = "report-wmt17"
    out = os.path.join(tempfile.mkdtemp(), "report.html")

    def build():
        rep = cybleu.report(wmt17["ref"], wmt17["systems"], metrics=["bleu", "chrf", "ter"])
        rep.save(out)
        return rep
    rep = run(benchmark, build, ROUNDS)
    label(benchmark, "cybleu", f"`cybleu.report(...)` + `save()` ({cybleu.BACKEND} core)",
          segments=3004 * 16, bytes=os.path.getsize(out), cpu_seconds=_cpu(build))
    _check(rep, wmt17["ref"], wmt17["systems"])


def bench_report_wmt17_cybleu_cli(benchmark, wmt17):
    import cybleu
    benchmark.group = "report-wmt17"
    out = os.path.join(tempfile.mkdtemp(), "report.html")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(Path(cybleu.__file__).resolve().parent.parent)] + sys.path))
    env.pop("SACREBLEU_SEED", None)
    args = [sys.executable, "-m", "cybleu", "report", wmt17["ref_path"], "-i", *wmt17["paths"],
            "-m", "bleu", "chrf", "ter", "-o", out, "-q"]
    run(benchmark, lambda: subprocess.run(args, check=True, env=env, capture_output=True),
        max(2, ROUNDS // 2))
    label(benchmark, "cybleu-cli", f"`cybleu report REF -i <16 files> -m bleu chrf ter` process "
          f"({cybleu.BACKEND} core)", segments=3004 * 16, bytes=os.path.getsize(out))


def bench_report_wmt17_sacrebleu_paired(benchmark, wmt17):
    """sacreBLEU's paired bootstrap on a sample, scaled to every pair (see the module doc)."""
    benchmark.group = "report-wmt17"
    label(benchmark, "sacrebleu", "`sacrebleu REF -i SYS... -m bleu chrf ter -pbs`, 15 runs for "
          "every pair (no sentence scores, n-grams or page)", baseline=True,
          pairs=SAMPLE_SYSTEMS, full_pairs=ALL_PAIR_LOADS, segments=3004 * SAMPLE_SYSTEMS)
    env = dict(os.environ)
    env.pop("SACREBLEU_SEED", None)
    args = [sys.executable, "-m", "sacrebleu", wmt17["ref_path"], "-i",
            *wmt17["paths"][:SAMPLE_SYSTEMS], "-m", "bleu", "chrf", "ter", "-pbs", "-q",
            "-f", "text"]  # its JSON output fails on the float32 results of chrF and TER
    benchmark.pedantic(lambda: subprocess.run(args, check=True, env=env, capture_output=True),
                       rounds=1, iterations=1, warmup_rounds=0)


@pytest.fixture(scope="module")
def fifty_thousand(wmt17):
    n = 50_000
    names = list(wmt17["systems"])[:4]

    def cycle(lines):
        return [lines[i % len(lines)] for i in range(n)]
    return cycle(wmt17["ref"]), {name: cycle(wmt17["systems"][name]) for name in names}


def bench_report_50k_cybleu(benchmark, fifty_thousand):
    import cybleu
    benchmark.group = "report-50k"
    refs, systems = fifty_thousand
    out = os.path.join(tempfile.mkdtemp(), "report.html")

    def build():
        rep = cybleu.report(refs, systems, metrics=["bleu", "chrf", "ter"])
        rep.save(out)
        return rep
    rep = run(benchmark, build, max(1, ROUNDS // 2))
    label(benchmark, "cybleu", f"`cybleu.report(...)` + `save()`, 4 x 50,000 ({cybleu.BACKEND})",
          segments=50_000 * 4, bytes=os.path.getsize(out), cpu_seconds=_cpu(build))
    _check(rep, refs, systems)
