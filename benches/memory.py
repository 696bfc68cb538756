#!/usr/bin/env python
"""Peak memory of corpus BLEU on 20,000 (hypothesis, reference) pairs: cybleu vs sacrebleu.

    python benches/memory.py [--pairs 20000] [--json out.json]

The pairs are built from WMT22 en-de: every system's line j paired with reference A's and B's line j,
system by system, duplicates dropped, until 20,000 distinct (hyp, ref) pairs (if the data ever runs
short, adjacent pairs are concatenated to make new distinct ones). One reference stream, 13a, defaults:
`corpus_bleu(hyps, [refs])` exactly as users call it, both libraries.

Each library is measured in its own fresh interpreter (so neither inherits the other's heap), after an
untimed warm-up call on 50 pairs (lazy imports, regex compilation) and with the inputs already built:
  * tracemalloc peak: the largest amount of memory traced during the call. tracemalloc sees every
    Python allocator domain, including PyMem_Raw*, which is what cybleu's compiled core allocates with.
  * peak RSS growth: the process's VmHWM after the call minus VmRSS before it, with the high-water mark
    reset through /proc/self/clear_refs (Linux); measured in a run without tracemalloc.
  * wall time of the untraced call, for context (tracemalloc slows allocation-heavy code a lot).
The scores of both libraries are checked to be equal.
"""
import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, missing_data_reason, read_lines, wmt22_ende_dir

IMPLS = ("cybleu", "sacrebleu")
WARMUP_PAIRS = 50


def build_pairs(n):
    d = wmt22_ende_dir()
    if d is None:
        raise SystemExit(f"memory.py: {missing_data_reason()}")
    refs = [read_lines(d / f"ref.{x}.txt") for x in ("A", "B") if (d / f"ref.{x}.txt").is_file()]
    systems = [read_lines(p) for p in sorted((d / "sys").glob("*.txt"))]
    seen, hyps_out, refs_out = set(), [], []

    def add(h, r):
        if (h, r) not in seen and len(hyps_out) < n:
            seen.add((h, r))
            hyps_out.append(h)
            refs_out.append(r)

    for hyps in systems:
        for ref in refs:
            for h, r in zip(hyps, ref):
                add(h, r)
    k = 1
    while len(hyps_out) < n:  # not reached with WMT22 en-de (8 systems x 2 refs x 2037 lines)
        base_h, base_r = list(hyps_out), list(refs_out)
        for i in range(len(base_h) - k):
            add(base_h[i] + " " + base_h[i + k], base_r[i] + " " + base_r[i + k])
        k += 1
    return hyps_out, refs_out


def _status(field):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return None


def _reset_hwm():
    try:
        Path("/proc/self/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def worker(impl, n):
    hyps, refs = build_pairs(n)
    if impl == "cybleu":
        import cybleu as lib
        backend = lib.BACKEND
    else:
        import sacrebleu as lib
        backend = None
    import tracemalloc
    lib.corpus_bleu(hyps[:WARMUP_PAIRS], [refs[:WARMUP_PAIRS]])
    gc.collect()

    # 1. RSS high-water growth, no tracing
    rss_growth = None
    try:
        reset = _reset_hwm()
        rss_before = _status("VmRSS")
        t0 = time.perf_counter()
        result = lib.corpus_bleu(hyps, [refs])
        wall = time.perf_counter() - t0
        hwm = _status("VmHWM")
        if reset and rss_before is not None and hwm is not None:
            rss_growth = hwm - rss_before
    except OSError:  # no /proc: not Linux
        t0 = time.perf_counter()
        result = lib.corpus_bleu(hyps, [refs])
        wall = time.perf_counter() - t0
    score = result.score
    del result
    gc.collect()

    # 2. tracemalloc peak
    tracemalloc.start()
    result = lib.corpus_bleu(hyps, [refs])
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert result.score == score
    return {"impl": impl, "backend": backend, "pairs": len(hyps), "distinct_pairs": len(set(zip(hyps, refs))),
            "score": score, "tracemalloc_peak_bytes": peak, "rss_peak_growth_bytes": rss_growth,
            "wall_s": wall}


def measure(n=20000):
    """Run each library in a fresh interpreter; return the combined figures."""
    out = {"pairs": n, "results": {}, "machine": machine()}
    for impl in IMPLS:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", impl, "--pairs", str(n)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"memory worker {impl} failed:\n{proc.stderr}")
        out["results"][impl] = json.loads(proc.stdout.strip().splitlines()[-1])
    cy, sb = out["results"]["cybleu"], out["results"]["sacrebleu"]
    if cy["score"] != sb["score"]:
        raise AssertionError(f"scores differ: cybleu {cy['score']!r} vs sacrebleu {sb['score']!r}")
    out["tracemalloc_ratio"] = sb["tracemalloc_peak_bytes"] / max(cy["tracemalloc_peak_bytes"], 1)
    if cy["rss_peak_growth_bytes"] and sb["rss_peak_growth_bytes"]:
        out["rss_ratio"] = sb["rss_peak_growth_bytes"] / cy["rss_peak_growth_bytes"]
    return out


def _mb(x):
    return "n/a" if x is None else f"{x / 1e6:.1f} MB"


def markdown(mem):
    cy, sb = mem["results"]["cybleu"], mem["results"]["sacrebleu"]
    lines = [
        f"Peak memory of `corpus_bleu(hyps, [refs])` on {cy['pairs']:,} distinct WMT22 en-de (hyp, ref) pairs "
        f"(13a, one fresh interpreter per library; scores equal: {cy['score']:.4f}):",
        "",
        "| Implementation | tracemalloc peak | peak RSS growth | wall time (untraced) |",
        "|---|---:|---:|---:|",
        f"| cybleu.corpus_bleu ({cy['backend']} core) | {_mb(cy['tracemalloc_peak_bytes'])} "
        f"| {_mb(cy['rss_peak_growth_bytes'])} | {cy['wall_s']:.2f} s |",
        f"| sacrebleu.corpus_bleu | {_mb(sb['tracemalloc_peak_bytes'])} | {_mb(sb['rss_peak_growth_bytes'])} "
        f"| {sb['wall_s']:.2f} s |",
        f"| **sacrebleu / cybleu** | **{mem['tracemalloc_ratio']:.1f}x** "
        f"| {('%.1fx' % mem['rss_ratio']) if mem.get('rss_ratio') else 'n/a'} | {sb['wall_s'] / cy['wall_s']:.1f}x |",
    ]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=20000)
    ap.add_argument("--json", help="also write the figures to this JSON file")
    ap.add_argument("--worker", choices=IMPLS, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.worker, args.pairs)))
        return
    if wmt22_ende_dir() is None:
        reason = missing_data_reason()
        print(f"memory.py: skipped: {reason}", file=sys.stderr)
        if args.json:
            Path(args.json).write_text(json.dumps({"skipped": reason}))
        return
    mem = measure(args.pairs)
    if args.json:
        Path(args.json).write_text(json.dumps(mem, indent=1))
    print(markdown(mem))


if __name__ == "__main__":
    main()
