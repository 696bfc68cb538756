"""Instructions of cybleu's main workloads, counted by valgrind's callgrind: a figure the machine's
load does not move, so a change can be checked on a shared machine.

    python benches/instructions.py                 # every workload, a table of M instructions
    python benches/instructions.py corpus cached   # the workloads whose names contain these words
    python benches/instructions.py --json out.json # also write the figures as JSON

Each workload runs in two fresh processes under callgrind: one that only imports, prepares its
inputs and makes one small warm-up call of the same functions (so lazy imports and one-time tables
are paid there), and one that does the same and then the workload. The difference is the
workload's count. Both run with address randomization off (`setarch -R`) and PYTHONHASHSEED=0, so
the two processes lay out memory alike and repeat to a few hundredths of a percent.

Data: the WMT22 en-de systems and reference A, and sacreBLEU's WMT17 en-de fixture (16 systems x
3,004 segments), under ../shared/data (or CYBLEU_SHARED_DATA); a workload whose data is missing is
skipped with a note.
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import shared_data_dir

DATA = shared_data_dir()
WMT22 = DATA / "wmt" / "wmt22" / "en-de"
WMT17 = DATA / "sacrebleu-fixtures" / "wmt17-en-de"

PRELUDE = f"""
import os, sys, gc
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
import cybleu
assert cybleu.BACKEND == os.environ["CYBLEU_IMPLEMENTATION"] or os.environ["CYBLEU_IMPLEMENTATION"] == "auto", cybleu.BACKEND
WMT22 = {str(WMT22)!r}
WMT17 = {str(WMT17)!r}
def read(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines
SYSTEMS = sorted(os.path.join(WMT22, "sys", n) for n in os.listdir(os.path.join(WMT22, "sys"))) \\
    if os.path.isdir(os.path.join(WMT22, "sys")) else []
"""

WMT17_SETUP = """
W17 = sorted(os.path.join(WMT17, "sys", n) for n in os.listdir(os.path.join(WMT17, "sys")))
ref17 = read(os.path.join(WMT17, "ref.txt"))
sys17 = {os.path.basename(p).split(".")[1]: read(p) for p in W17}
first17 = sys17[sorted(sys17)[0]]
"""

# name -> (what it measures, data it needs, setup, warm-up, workload). The setup and warm-up run
# in both processes; the workload only in the second.
WORKLOADS = {
    "corpus": (
        "read the 8 WMT22 en-de systems and reference A, a fresh cybleu.corpus_bleu of each",
        WMT22, "",
        "cybleu.corpus_bleu(['a b .'], [['a b .']])",
        """
ref = read(os.path.join(WMT22, "ref.A.txt"))
for path in SYSTEMS:
    cybleu.corpus_bleu(read(path), [ref])
"""),
    "cached": (
        "the same with the references cached: BLEU(references=[ref]).corpus_score of each",
        WMT22, "from cybleu.metrics import BLEU",
        "BLEU(references=[['a b .']]).corpus_score(['a b .'], None)",
        """
ref = read(os.path.join(WMT22, "ref.A.txt"))
bleu = BLEU(references=[ref])
for path in SYSTEMS:
    bleu.corpus_score(read(path), None)
"""),
    "cached_scoring": (
        "the cached workload's scoring alone: files read first, then the cache built and the 8 "
        "systems scored",
        WMT22, """
from cybleu.metrics import BLEU
ref = read(os.path.join(WMT22, "ref.A.txt"))
outs = [read(p) for p in SYSTEMS]
""",
        "BLEU(references=[['a b .']]).corpus_score(['a b .'], None)",
        """
bleu = BLEU(references=[ref])
for hyps in outs:
    bleu.corpus_score(hyps, None)
"""),
    "best_of": (
        "cybleu.best_of, k=8 candidates (the 8 WMT22 systems) for each of 20,000 segments",
        WMT22, """
outs = [read(p) for p in SYSTEMS]
refs = read(os.path.join(WMT22, "ref.A.txt"))
m = len(refs)
cands = [outs[j][i % m] for i in range(20000) for j in range(8)]
references = [[refs[i % m] for i in range(20000)]]
""",
        "cybleu.best_of(cands[:16], [references[0][:2]], 8)",
        "cybleu.best_of(cands, references, 8)"),
    "batch_sentence": (
        "cybleu.batch_sentence_bleu of each of the 8 WMT22 systems vs reference A (16,296 pairs)",
        WMT22, """
outs = [read(p) for p in SYSTEMS]
ref = read(os.path.join(WMT22, "ref.A.txt"))
""",
        "cybleu.batch_sentence_bleu(outs[0][:2], [ref[:2]])",
        """
for hyps in outs:
    cybleu.batch_sentence_bleu(hyps, [ref])
"""),
    "pairwise_chrf": (
        "cybleu.pairwise_chrf(P, P), P = 128 WMT17 en-de hypotheses (chrF, 16,384 pairs)",
        WMT17, WMT17_SETUP + "P = first17[:128]\n",
        "cybleu.pairwise_chrf(P[:2], P[:2])",
        "cybleu.pairwise_chrf(P, P)"),
    "report": (
        "cybleu.report of the 16 WMT17 en-de systems x 3,004 (BLEU + chrF + TER), page built",
        WMT17, WMT17_SETUP,
        ("cybleu.report(ref17[:20], {k: v[:20] for k, v in list(sys17.items())[:2]}, "
         "metrics=['bleu', 'chrf', 'ter']).html()"),
        "cybleu.report(ref17, sys17, metrics=['bleu', 'chrf', 'ter']).html()"),
    "corpus_chrf": (
        "cybleu.corpus_chrf of one WMT17 en-de system (3,004 segments)",
        WMT17, WMT17_SETUP,
        "cybleu.corpus_chrf(first17[:2], [ref17[:2]])",
        "cybleu.corpus_chrf(first17, [ref17])"),
    "corpus_ter": (
        "cybleu.corpus_ter of one WMT17 en-de system (3,004 segments)",
        WMT17, WMT17_SETUP,
        "cybleu.corpus_ter(first17[:2], [ref17[:2]])",
        "cybleu.corpus_ter(first17, [ref17])"),
    "ids_lists": (
        "cybleu.ids.sentence_bleu on Python lists: 256 x ~1,024 Zipf IDs, one reference each",
        None, """
import numpy as np
from cybleu import ids
from bench_train import zipf_ids, LIST_BATCH
rng = np.random.default_rng(13)
hyps, refs = [], []
for _ in range(LIST_BATCH):
    hyp = zipf_ids(rng, int(rng.integers(960, 1089)))
    r = hyp.copy()
    mask = rng.random(r.size) < 0.3
    r[mask] = zipf_ids(rng, int(mask.sum()))
    hyps.append(hyp.tolist())
    refs.append(r.tolist())
""",
        "ids.sentence_bleu(hyps[:2], refs[:2])",
        "ids.sentence_bleu(hyps, refs)"),
}


# No seeded-hash or thread-pool noise: OpenBLAS's idle threads spin, and callgrind counts their
# instructions as they happen to be scheduled.
QUIET_ENV = {"PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
             "MKL_NUM_THREADS": "1"}


def script(setup, warmup, work):
    body = PRELUDE + setup + "\n" + warmup + "\ngc.collect()\n"
    if work:
        body += work
    return body


def count(source, backend):
    """Instructions callgrind counts for running `source` in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        path = os.path.join(tmp, "workload.py")
        with open(path, "w") as f:
            f.write(source)
        run = subprocess.run(["setarch", os.uname().machine, "-R", "valgrind", "--tool=callgrind",
                              f"--callgrind-out-file={out}", sys.executable, path],
                             capture_output=True, text=True, check=False,
                             env={**os.environ, **QUIET_ENV, "CYBLEU_IMPLEMENTATION": backend})
        if run.returncode != 0:
            raise SystemExit(f"exit {run.returncode}\n{run.stderr[-3000:]}")
        return int(re.search(r"Collected : (\d+)", run.stderr)[1])


def versions():
    import cybleu
    return {"python": platform.python_version(), "cybleu": cybleu.__version__,
            "valgrind": subprocess.run(["valgrind", "--version"], capture_output=True,
                                       text=True, check=False).stdout.strip(),
            "machine": platform.machine(), "os": f"{platform.system()} {platform.release()}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="run the workloads whose names contain these")
    parser.add_argument("--backend", default="cython", choices=["cython", "python", "auto"])
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    chosen = [n for n in WORKLOADS if not args.names or any(w in n for w in args.names)]
    results = {}
    print(f"{'workload':<16} {'M instructions':>15}  what")
    for name in chosen:
        what, needs, setup, warmup, work = WORKLOADS[name]
        if needs is not None and not Path(needs).is_dir():
            print(f"{name:<16} {'skipped':>15}  no data at {needs}")
            continue
        # one plain run first: it checks the script and byte-compiles every module it imports,
        # so neither counted run pays for compiling
        subprocess.run([sys.executable, "-c", script(setup, warmup, work)], check=True,
                       env={**os.environ, "CYBLEU_IMPLEMENTATION": args.backend})
        base = count(script(setup, warmup, None), args.backend)
        full = count(script(setup, warmup, work), args.backend)
        results[name] = {"instructions": full - base, "what": what}
        print(f"{name:<16} {(full - base) / 1e6:>15.1f}  {what}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"versions": versions(), "backend": args.backend,
                       "command": "python benches/instructions.py " + " ".join(sys.argv[1:]),
                       "workloads": results}, f, indent=1)


if __name__ == "__main__":
    main()
