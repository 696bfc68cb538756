#!/usr/bin/env python
"""Scale and fault benchmarks of the command line and the kernels: whole processes, each measured
from outside (wall time, CPU time and peak RSS from wait4), so they are a script, not a
pytest-benchmark suite.

    python benches/stress.py lines [--sizes 1000000 10000000]   # CLI time and peak RSS vs lines
    python benches/stress.py long-line [--mib 512]               # reading one huge line
    python benches/stress.py ter-interrupt [--segments 200000]   # Ctrl-C latency of TER
    python benches/stress.py line-memory [--line-mib 16]             # memory per char of one line
    python benches/stress.py long-bleu [--mibs 32 64 128 256]  # BLEU of one giant line
    python benches/stress.py all [--json out.json]

- lines: `cybleu REF -i HYP -b` on N-line files made of the bundled WMT17 en-de sample (500
  lines, repeated), one reference. The figure that matters is the time per million lines at each
  size: linear scaling keeps it flat (it grew with N while full garbage collections kept
  traversing the references). The collector's work is reported too (`gc`: collections per
  generation and their CPU time, from a run with gc.callbacks; a separate run, so the timed one
  is untouched).
- long-line: one line of N MiB of words read through the CLI's reader (streams.TextSource.
  blocks), with no newline and with CR line ends (both one line in a file), against Python's own
  line iteration of the same file as the peer.
- ter-interrupt: SIGINT sent 0.5 s into `TER().corpus_score` of N segments (and into BLEU's and
  chrF's of 5N, for comparison); the time until KeyboardInterrupt is caught in the child, over
  --repeat runs.
- line-memory: the peak memory a call adds on top of its input (peak RSS during the call minus
  the RSS with the input built), per code point of one long line (a hypothesis of N MiB of
  words against a reference of the same text: 13a, none, intl and char sentence BLEU, chrF), and
  per token ID of one long ID row (a Python list and an int32 array, `ids.sentence_bleu`); with
  the call's CPU time per unit.
- long-bleu: one line of N MiB of eight distinct words (13a) against a reference line of the
  same words in another order, as files: the scoring command (`cybleu REF -i HYP -b`) and the
  library (the files read, then `corpus_bleu`), each a whole process (wall, CPU time, peak RSS).
  Time and memory should grow in proportion to N.

Every figure carries the load average of the machine at the time (`load`): on a shared machine
the wall time is the CPU time stretched by the load; compare CPU times, and ratios within a run.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO, machine

SAMPLE = REPO / "src" / "cybleu" / "data"
GC_PROBE = """
import gc, sys, time
stats = {0: [0, 0.0], 1: [0, 0.0], 2: [0, 0.0]}
began = {}
def cb(phase, info):
    g = info["generation"]
    if phase == "start":
        began[g] = time.process_time()
    else:
        stats[g][0] += 1
        stats[g][1] += time.process_time() - began[g]
gc.callbacks.append(cb)
from cybleu.cli import main
code = main(sys.argv[1:])
print({g: (n, round(t, 3)) for g, (n, t) in stats.items()}, file=sys.stderr)
sys.exit(code)
"""


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src")] + (
        [env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def _load():
    return [round(x, 2) for x in os.getloadavg()]


def measure(cmd, stdin=None):
    """(exit status, stdout, stderr, wall s, cpu s, peak RSS MiB) of one process."""
    load = _load()
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=stdin, env=_env())
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        return {"rc": proc.returncode, "stdout": out.read().decode(), "stderr": err.read().decode(),
                "wall_s": round(wall, 2), "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
                "peak_rss_mib": round(usage.ru_maxrss / 1024), "load_before": load,
                "load_after": _load()}


def _sample(name):
    text = (SAMPLE / f"wmt17-en-de.{name}.txt").read_text(encoding="utf-8")
    return text if text.endswith("\n") else text + "\n"


def write_repeated(path, text, n_lines):
    lines = text.splitlines(True)
    full, rest = divmod(n_lines, len(lines))
    with open(path, "w", encoding="utf-8") as f:
        for _ in range(full):
            f.write(text)
        f.write("".join(lines[:rest]))


def bench_lines(sizes, tmp):
    results = []
    ref_text, hyp_text = _sample("ref"), _sample("online-B")
    for n in sizes:
        ref, hyp = Path(tmp) / f"ref.{n}.txt", Path(tmp) / f"hyp.{n}.txt"
        write_repeated(ref, ref_text, n)
        write_repeated(hyp, hyp_text, n)
        cmd = [sys.executable, "-m", "cybleu", str(ref), "-i", str(hyp), "-b", "-q"]
        run = measure(cmd)
        assert run["rc"] == 0, run["stderr"]
        probe = measure([sys.executable, "-c", GC_PROBE, str(ref), "-i", str(hyp), "-b", "-q"])
        assert probe["rc"] == 0, probe["stderr"]
        row = {"lines": n, "score": run["stdout"].strip(), **{k: run[k] for k in (
            "wall_s", "cpu_s", "peak_rss_mib", "load_before", "load_after")},
               "cpu_s_per_million_lines": round(run["cpu_s"] / (n / 1e6), 2),
               "peak_rss_bytes_per_line": round(run["peak_rss_mib"] * 2**20 / n),
               "gc": probe["stderr"].strip().splitlines()[-1]}
        results.append(row)
        print(json.dumps(row), flush=True)
        ref.unlink()
        hyp.unlink()
    if len(results) > 1:
        a, b = results[0], results[-1]
        ratio = (b["cpu_s"] / a["cpu_s"]) / (b["lines"] / a["lines"])
        print(f"lines: CPU time grows {ratio:.2f}x as fast as the number of lines "
              f"({a['lines']} -> {b['lines']}); 1.00 is linear", flush=True)
    return results


READ_CHILD = """
import sys, time
path, how = sys.argv[1], sys.argv[2]
t = time.process_time()
if how == "cybleu":
    from cybleu import streams
    with streams.TextSource(path, "utf-8") as source:
        lengths = [len(line) for block in source.blocks(streams.CHUNK_LINES) for line in block]
else:
    with open(path, encoding="utf-8", newline="\\n") as f:
        lengths = [len(line.rstrip()) for line in f]
print(len(lengths), sum(lengths), round(time.process_time() - t, 3))
"""


def bench_long_line(mib, tmp):
    results = []
    block = (b"word " * ((1 << 20) // 5 + 1))[:1 << 20]
    cr_block = (b"w a\r" * ((1 << 20) // 4 + 1))[:1 << 20]
    for kind, chunk in (("no newline", block), ("CR line ends", cr_block)):
        path = Path(tmp) / "long.txt"
        with open(path, "wb") as f:
            for _ in range(mib):
                f.write(chunk)
        for how in ("cybleu", "python"):
            run = measure([sys.executable, "-c", READ_CHILD, str(path), how])
            assert run["rc"] == 0, run["stderr"]
            n_lines, n_chars, cpu_read = run["stdout"].split()
            row = {"file": f"{mib} MiB, {kind}", "reader": how, "lines": int(n_lines),
                   "chars": int(n_chars), "read_cpu_s": float(cpu_read),
                   **{k: run[k] for k in ("wall_s", "cpu_s", "peak_rss_mib", "load_before",
                                          "load_after")}}
            results.append(row)
            print(json.dumps(row), flush=True)
        path.unlink()
    return results


INTERRUPT_CHILD = """
import os, signal, sys, threading, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # also in a background job
import cybleu
from cybleu.metrics import BLEU, CHRF, TER
metric, n = sys.argv[1], int(sys.argv[2])
data = os.path.join(os.path.dirname(cybleu.__file__), "data", "wmt17-en-de.")
ref = open(data + "ref.txt", encoding="utf-8").read().splitlines()
hyp = open(data + "online-B.txt", encoding="utf-8").read().splitlines()
hyps, refs = (hyp * (n // len(hyp) + 1))[:n], (ref * (n // len(ref) + 1))[:n]
scorer = {"TER": TER, "BLEU": BLEU, "CHRF": CHRF}[metric]()
sent = []
def fire():
    time.sleep(0.5)
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
start = time.perf_counter()
try:
    scorer.corpus_score(hyps, [refs])
    print("completed", round(time.perf_counter() - start, 3))
except KeyboardInterrupt:
    print("interrupted", round(time.perf_counter() - sent[0], 4))
"""


def bench_interrupt(segments, repeat):
    results = []
    for metric in ("TER", "BLEU", "CHRF"):
        latencies = []
        load = _load()
        # BLEU and chrF are faster: more segments, so that the signal comes well inside the call
        n = segments if metric == "TER" else 5 * segments
        for _ in range(repeat):
            run = measure([sys.executable, "-c", INTERRUPT_CHILD, metric, str(n)])
            what, seconds = run["stdout"].split()
            assert what == "interrupted", run["stdout"] + run["stderr"]
            latencies.append(float(seconds))
        row = {"metric": metric, "segments": n, "runs": repeat,
               "latency_median_s": round(statistics.median(latencies), 4),
               "latency_max_s": round(max(latencies), 4), "load_before": load,
               "load_after": _load()}
        results.append(row)
        print(json.dumps(row), flush=True)
    return results


LINE_MEMORY_CHILD = """
import resource, sys, time
import numpy as np
import cybleu
from cybleu import ids
what, mib = sys.argv[1], int(sys.argv[2])
def rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if what.startswith("ids"):
    n = mib << 18                       # IDs: a quarter as many as the text's characters
    row = list(range(n)) if what == "ids-list" else np.arange(n, dtype=np.int32)
    ref = np.arange(n, dtype=np.int32)
    cybleu.ids.sentence_bleu([[1, 2]], [[1, 2]])            # imports and first-call setup
    before = rss()
    cpu = time.process_time()
    ids.sentence_bleu([row], [ref])
else:
    words = ("the", "cat", "sat", "on", "a", "mat", "Hello,", "world!")
    text = " ".join(words[i % 8] for i in range((mib << 20) // 5))
    n = len(text)
    ref = text[::-1]
    score = {"13a": lambda: cybleu.sentence_bleu(text, [ref]),
             "none": lambda: cybleu.sentence_bleu(text, [ref], tokenize="none"),
             "intl": lambda: cybleu.sentence_bleu(text, [ref], tokenize="intl"),
             "char": lambda: cybleu.sentence_bleu(text, [ref], tokenize="char"),
             "chrf": lambda: cybleu.sentence_chrf(text, [ref])}[what]
    cybleu.sentence_bleu("a", ["a"]); cybleu.sentence_chrf("a", ["a"])
    before = rss()
    cpu = time.process_time()
    score()
print(n, before, rss(), time.process_time() - cpu)
"""


def bench_line_memory(mib):
    results = []
    for what in ("13a", "none", "intl", "char", "chrf", "ids-list", "ids-array"):
        run = measure([sys.executable, "-c", LINE_MEMORY_CHILD, what, str(mib)])
        assert run["rc"] == 0, run["stderr"]
        n, before, after, cpu = run["stdout"].split()
        n, before, after = int(n), int(before), int(after)
        row = {"input": what, "units": n, "unit": "token ID" if what.startswith("ids") else "char",
               "added_peak_mib": round((after - before) / 2**20, 1),
               "bytes_per_unit": round((after - before) / n, 1),
               "call_cpu_s": round(float(cpu), 2),
               "ns_per_unit": round(float(cpu) / n * 1e9, 1),
               **{k: run[k] for k in ("wall_s", "peak_rss_mib", "load_before", "load_after")}}
        results.append(row)
        print(json.dumps(row), flush=True)
    return results


LONG_BLEU_WORDS = ("the", "cat", "sat", "on", "a", "mat", "Hello,", "world!")
LONG_BLEU_LIBRARY = """
import sys, cybleu
with open(sys.argv[1], encoding="utf-8") as f:
    hyp = f.read().rstrip("\\n")
with open(sys.argv[2], encoding="utf-8") as f:
    ref = f.read().rstrip("\\n")
print(cybleu.corpus_bleu([hyp], [[ref]]).score)
"""


def write_long_line(path, mib, order):
    """One line of about `mib` MiB of LONG_BLEU_WORDS, word i being order(i) % 8, written in
    blocks."""
    n = int((mib << 20) / 4.375)           # the words' mean length with a space
    with open(path, "w", encoding="utf-8") as f:
        for start in range(0, n, 1 << 20):
            f.write(" ".join(LONG_BLEU_WORDS[order(i) % 8]
                             for i in range(start, min(n, start + (1 << 20)))))
            f.write(" " if start + (1 << 20) < n else "\n")


def bench_long_bleu(mibs, tmp):
    results = []
    for mib in mibs:
        hyp, ref = Path(tmp) / f"hyp.{mib}.txt", Path(tmp) / f"ref.{mib}.txt"
        write_long_line(hyp, mib, lambda i: i)
        write_long_line(ref, mib, lambda i: i + i // 7)
        for how, cmd in (("cli", [sys.executable, "-m", "cybleu", str(ref), "-i", str(hyp),
                                  "-b"]),
                         ("library", [sys.executable, "-c", LONG_BLEU_LIBRARY, str(hyp),
                                      str(ref)])):
            run = measure(cmd)
            assert run["rc"] == 0, run["stderr"]
            row = {"line_mib": mib, "chars": hyp.stat().st_size - 1, "how": how,
                   "score": run["stdout"].strip(),
                   **{k: run[k] for k in ("wall_s", "cpu_s", "peak_rss_mib", "load_before",
                                          "load_after")}}
            results.append(row)
            print(json.dumps(row), flush=True)
        hyp.unlink()
        ref.unlink()
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["lines", "long-line", "ter-interrupt", "line-memory",
                                         "long-bleu", "all"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--mib", type=int, default=512)
    parser.add_argument("--line-mib", type=int, default=16, help="line-memory: the line's size")
    parser.add_argument("--mibs", type=int, nargs="+", default=[32, 64, 128, 256],
                        help="long-bleu: the lines' sizes")
    parser.add_argument("--segments", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--tmp", default=None, help="where the input files are made (default: "
                        "the system's temporary directory; 10^7 lines take 2.2 GB)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    report = {"machine": machine()}
    print(json.dumps(report["machine"]), flush=True)
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        if args.what in ("lines", "all"):
            report["lines"] = bench_lines(args.sizes, tmp)
        if args.what in ("long-line", "all"):
            report["long_line"] = bench_long_line(args.mib, tmp)
        if args.what in ("long-bleu", "all"):
            report["long_bleu"] = bench_long_bleu(args.mibs, tmp)
    if args.what in ("line-memory", "all"):
        report["line_memory"] = bench_line_memory(args.line_mib)
    if args.what in ("ter-interrupt", "all"):
        report["interrupt"] = bench_interrupt(args.segments, args.repeat)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
