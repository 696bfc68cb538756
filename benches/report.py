#!/usr/bin/env python
"""Run the benchmarks and print the README's markdown: medians per group, ratios vs sacrebleu,
memory, machine.

    python benches/report.py                      # runs `pytest benches` + memory.py (~2-3 min on 2 cores)
    python benches/report.py --json bench.json    # report an existing --benchmark-json file
    python benches/report.py --json bench.json --memory-json mem.json   # both from files
    python benches/report.py --no-memory          # skip the memory measurement
    python benches/report.py --export docs/benchmarks.json   # and the docs' benchmark page data

Ratio column: the baseline's median / this row's median, within the group (the row marked as
baseline: sacrebleu `corpus_bleu` for corpus-13a, one reused `BLEU(effective_order=True)` for
sentence-batch, the `sacrebleu` command for cli-*, numpy for resample-*, an nltk `sentence_bleu` loop for ids-sentence-*, a sacrebleu `sentence_score` loop for
ids-pairwise, sacrebleu `corpus_bleu` with the same tokenizer for tok-*, nltk for nltk-corpus and nltk-sentence, bleuscore for hf-corpus; sacrebleu `corpus_chrf`, a reused
`CHRF().sentence_score` loop and a `sentence_score` loop on a slice for the chrf-* groups; sacrebleu
`corpus_ter` and a reused `TER().sentence_score` loop for the ter-* groups). Above 1 means faster
than the baseline. A row timed on a slice of the workload (fast-bleu) is scaled to the
full workload and marked "extrapolated". pytest's output goes to stderr, the markdown to stdout.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _common import REPO, machine, versions  # noqa: E402 - after sys.path

GROUP_ORDER = ["corpus-13a", "sentence-batch", "tok-none", "tok-zh", "tok-intl", "tok-char", "tok-ja-mecab",
               "ids-sentence-256x1024", "ids-sentence-1024x128",
               "ids-pairwise-128x128", "ids-lists-256x1024", "nltk-corpus", "nltk-sentence", "hf-corpus",
               "patched-evaluate-sacrebleu", "sentence-batch-threads",
               "chrf-corpus", "chrfpp-corpus", "chrf-sentence", "chrfpp-sentence",
               "chrf-pairwise-128x128", "chrfpp-pairwise-128x128", "ter-corpus", "ter-sentence",
               "cli-multi", "cli-paired-bs", "cli-paired-ar", "cli-ci", "resample-bs", "resample-ar",
               "report-wmt17", "report-50k"]
GROUP_TITLES = {
    "corpus-13a": "Corpus BLEU, WMT22 en-de, all 8 systems vs reference A (16,296 segments per round)",
    "sentence-batch": "Sentence BLEU of every segment, 2 WMT22 en-de systems vs reference A (4,074 pairs per round)",
    "tok-none": "Corpus BLEU with tokenize='none', WMT22 en-de, all 8 systems vs reference A (16,296 segments per round)",
    "tok-zh": "Corpus BLEU with tokenize='zh', WMT22 en-zh, all 8 systems vs reference A (16,296 segments per round)",
    "tok-intl": "Corpus BLEU with tokenize='intl', WMT22 en-de, all 8 systems vs reference A (16,296 segments per round)",
    "tok-char": "Corpus BLEU with tokenize='char', WMT22 en-ja, all 8 systems vs reference A (16,296 segments per round)",
    "tok-ja-mecab": "Corpus BLEU with tokenize='ja-mecab', WMT22 en-ja, all 8 systems vs reference A (16,296 segments per round)",
    "ids-sentence-256x1024": "Token-ID sentence BLEU (cybleu.ids), batch of 256 x 1024 IDs, one reference each",
    "ids-sentence-1024x128": "Token-ID sentence BLEU (cybleu.ids), batch of 1024 x 128 IDs, one reference each",
    "ids-pairwise-128x128": "Token-ID pairwise BLEU (cybleu.ids), 128 x 128 sentences of 64 IDs (16,384 pairs)",
    "nltk-corpus": "nltk mode: corpus_bleu of each of the 8 WMT22 en-de systems vs reference A (16,296 segments per round, pre-split 13a tokens)",
    "nltk-sentence": "nltk mode: sentence_bleu loop (method1), 2 WMT22 en-de systems vs reference A (4,074 pairs per round, pre-split 13a tokens)",
    "hf-corpus": "Hugging Face evaluate `bleu` mode: 8 WMT22 en-de systems vs reference A (16,296 segments per round, 13a tokenization timed)",
    "ids-lists-256x1024": "Token-ID sentence BLEU from Python lists: 256 x ~1,024 Zipf-distributed IDs, one reference each",
    "patched-evaluate-sacrebleu": "evaluate.load('sacrebleu').compute, 8 WMT22 en-de systems vs reference A, patched vs unpatched (16,296 segments per round)",
    "sentence-batch-threads": "batch_sentence_bleu threads, 2 WMT22 en-de systems vs reference A (4,074 pairs per round)",
    "chrf-corpus": "Corpus chrF, one WMT17 en-de system (sacreBLEU's fixture, 3,004 segments)",
    "chrfpp-corpus": "Corpus chrF++, one WMT17 en-de system (3,004 segments)",
    "chrf-sentence": "Sentence chrF of every segment, one WMT17 en-de system (3,004 pairs)",
    "chrfpp-sentence": "Sentence chrF++ of every segment, one WMT17 en-de system (3,004 pairs)",
    "chrf-pairwise-128x128": "Pairwise chrF for MBR, 128 x 128 WMT17 en-de sentences (16,384 pairs)",
    "chrfpp-pairwise-128x128": "Pairwise chrF++ for MBR, 128 x 128 WMT17 en-de sentences (16,384 pairs)",
    "ter-corpus": "Corpus TER, one WMT17 en-de system (sacreBLEU's fixture, 3,004 segments)",
    "ter-sentence": "Sentence TER of every segment, one WMT17 en-de system (3,004 pairs)",
    "cli-multi": "Command line, whole process: corpus BLEU of the 16 WMT17 en-de systems (`ref.txt -i <16 files>`, JSON)",
    "cli-paired-bs": "Command line, whole process: paired bootstrap test of the 16 WMT17 en-de systems (`-pbs`, 1000 resamples)",
    "cli-paired-ar": "Command line, whole process: approximate randomization test of the 16 WMT17 en-de systems (`-par`, 10000 trials)",
    "cli-ci": "Command line, whole process: 95% confidence interval of one WMT17 en-de system (`-ci`, 1000 resamples)",
    "resample-bs": "Resampling alone: row sums of 1000 bootstrap resamples, 16 WMT17 systems' integer BLEU statistics (same indices)",
    "resample-ar": "Resampling alone: masked row sums of 10000 randomization trials, 15 WMT17 systems against the baseline (same masks)",
    "report-wmt17": "Comparison report: 16 WMT17 en-de systems x 3,004 segments, BLEU + chrF + TER, 1000 bootstrap resamples, every pair (Holm), page written",
    "report-50k": "Comparison report: 4 systems x 50,000 segments, BLEU + chrF + TER, page written",
}
UNIT = {"corpus-13a": ("segments", "segments"), "sentence-batch": ("pairs", "pairs"),
        "ids-sentence-256x1024": ("pairs", "pairs"), "ids-sentence-1024x128": ("pairs", "pairs"),
        "ids-pairwise-128x128": ("pairs", "pairs"),
        "tok-none": ("segments", "segments"), "tok-zh": ("segments", "segments"), "tok-intl": ("segments", "segments"),
        "tok-char": ("segments", "segments"), "tok-ja-mecab": ("segments", "segments"),
        "nltk-corpus": ("segments", "segments"), "nltk-sentence": ("pairs", "pairs"),
        "hf-corpus": ("segments", "segments"), "ids-lists-256x1024": ("pairs", "pairs"),
        "patched-evaluate-sacrebleu": ("segments", "segments"), "sentence-batch-threads": ("pairs", "pairs"),
        "chrf-corpus": ("segments", "segments"), "chrfpp-corpus": ("segments", "segments"),
        "chrf-sentence": ("pairs", "pairs"), "chrfpp-sentence": ("pairs", "pairs"),
        "chrf-pairwise-128x128": ("pairs", "pairs"), "chrfpp-pairwise-128x128": ("pairs", "pairs"),
        "ter-corpus": ("segments", "segments"), "ter-sentence": ("pairs", "pairs"),
        "cli-multi": ("segments", "segments"), "cli-paired-bs": ("segments", "segments"),
        "cli-paired-ar": ("segments", "segments"), "cli-ci": ("segments", "segments"),
        "resample-bs": ("segments", "segments"), "resample-ar": ("segments", "segments"),
        "report-wmt17": ("segments", "segments"), "report-50k": ("segments", "segments")}


# what every group's rows mean and how they were checked (the markdown's notes, and the docs'
# benchmark page through --export)
NOTES = [
    "Every cybleu benchmark asserts its scores equal sacrebleu's bit for bit; bleuscore is checked to "
    "within 1e-9 BLEU of sacrebleu, nltk corpus within 0.05 BLEU (nltk counts a segment shorter than n as "
    "1 in the n-gram denominator, sacrebleu as 0), fast-bleu within 1e-12 of nltk method1.",
    "nltk and fast-bleu take token lists only: they get sacrebleu's 13a tokens prepared beforehand, so "
    "their times exclude tokenization (which cybleu, sacrebleu and bleuscore pay).",
    "nltk/fast-bleu sentence scores use method1 smoothing, not sacrebleu's exp smoothing; bleuscore has no "
    "sentence mode and fast-bleu no corpus mode.",
    "fast-bleu scores many hypotheses against one shared reference set, so per-segment references "
    "need one `fast_bleu.BLEU([ref])` per pair; its OpenMP construction dominates and is very noisy with "
    "default OpenMP settings (much faster with OMP_NUM_THREADS=1).",
    "ids-* groups: synthetic IDs below 32,000, each reference its hypothesis with 30% of positions "
    "replaced; cybleu checked bit for bit against sacrebleu (`tokenize='none'`) on sample rows; the "
    "TensorBLEU-style torch baseline (unique + bincount, written for this bench) gives cybleu's integer "
    "counts exactly and its scores to 1e-9.",
    "ids-lists-256x1024: Python lists of ints (Zipf, exponent 1.1, vocabulary 32,000, 960-1088 IDs "
    "per row) as a training loop holds them, and the same rows as uint32 arrays; nltk timed on 64 rows.",
    "patched-evaluate-sacrebleu: Hugging Face evaluate's own `sacrebleu` metric script (from the "
    "folder CYBLEU_EVALUATE_METRICS names) unchanged; the patched results are asserted identical to the unpatched.",
    "chrf-* groups: cybleu checked bit for bit against sacrebleu's corpus and sentence chrF; fastchrf "
    "(chrF only, timed when installed) within 1e-9 of sacrebleu on sample pairs.",
    "ter-* groups: cybleu checked bit for bit against sacrebleu's corpus and every sentence TER.",
    "cli-* groups: whole `python -m <tool>` processes (start-up and imports included; cybleu's "
    "modules byte-compiled first, as sacrebleu's are in site-packages); each cybleu run's stdout equals "
    "sacrebleu's byte for byte but the version field. sacrebleu's paired runs are timed "
    "CYBLEU_BENCH_ORACLE_ROUNDS times (default 2), without a warm-up round. cybleu reads two input "
    "files at a time on two cores.",
    "resample-* groups: the integer sums every resample needs, from the same indices/masks; the numpy "
    "rows are the obvious vectorized versions (fancy indexing + sum; float64 BLAS matrix products, exact "
    "for these integers); all results checked equal.",
]


def run_pytest(json_path, extra_args):
    cmd = [sys.executable, "-m", "pytest", "benches", "-q", f"--benchmark-json={json_path}", *extra_args]
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, cwd=REPO, stdout=sys.stderr, stderr=sys.stderr)
    return proc.returncode


def run_memory(json_path):
    cmd = [sys.executable, str(HERE / "memory.py"), "--json", str(json_path)]
    print("+ " + " ".join(cmd), file=sys.stderr, flush=True)
    proc = subprocess.run(cmd, cwd=REPO, stdout=sys.stderr, stderr=sys.stderr)
    return proc.returncode


def fmt_time(s):
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


def fmt_ratio(r):
    if r >= 10:
        return f"{r:.0f}x"
    if r >= 1:
        return f"{r:.1f}x"
    return f"{r:.2f}x"


def group_rows(bench):
    """Benchmarks grouped, each row with its full-workload median."""
    groups = {}
    for b in bench["benchmarks"]:
        info = b.get("extra_info", {})
        st = b["stats"]
        scale = 1.0
        if info.get("pairs") and info.get("full_pairs") and info["pairs"] != info["full_pairs"]:
            scale = info["full_pairs"] / info["pairs"]
        groups.setdefault(b.get("group") or "(no group)", []).append({
            "name": b["name"], "label": info.get("label", b["name"]), "impl": info.get("impl", b["name"]),
            "baseline": bool(info.get("baseline")), "info": info, "scale": scale,
            "median": st["median"] * scale, "min": st["min"] * scale, "rounds": st["rounds"],
            "raw_median": st["median"],
        })
    return groups


def group_table(name, rows):
    rows = [r for r in rows if r["impl"] != "cybleu-timed"]   # a share measurement, not a timing
    base = next((r for r in rows if r["baseline"]), None)
    rows = sorted(rows, key=lambda r: r["median"])
    unit, _ = UNIT.get(name, ("items", "items"))
    out = [f"### {GROUP_TITLES.get(name, name)}", "",
           f"| Implementation | median | min | rounds | {unit}/s | "
           f"{base['impl'] if base else 'sacrebleu'} time / this |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        info = r["info"]
        n_full = info.get("full_pairs") or info.get("segments")
        rate = f"{n_full / r['median']:,.0f}" if n_full else ""
        label = r["label"]
        if r["scale"] != 1.0:
            label += f" — *extrapolated ×{r['scale']:.2f} from {info['pairs']} pairs ({fmt_time(r['raw_median'])})*"
        if r["baseline"]:
            label += " (baseline)"
        if r["impl"] == "cybleu":
            label = f"**{label}**"
        ratio = fmt_ratio(base["median"] / r["median"]) if base else "n/a"
        if r["impl"] == "cybleu":
            ratio = f"**{ratio}**"
        out.append(f"| {label} | {fmt_time(r['median'])} | {fmt_time(r['min'])} | {r['rounds']} | {rate} | {ratio} |")
    return "\n".join(out), base


def markdown(bench, mem=None, pytest_rc=0, memory_rc=0):
    meta = bench.get("cybleu_bench", {})
    m = meta.get("machine") or machine()
    v = meta.get("versions") or versions()
    groups = group_rows(bench)
    lines = ["## Benchmarks", ""]
    lines.append(f"Machine: {m['cpu']}, {m.get('usable_cores', m.get('logical_cores'))} cores "
                 f"({m.get('logical_cores')} logical), {m['python']}, {m.get('os', '')}"
                 + (f", OMP_NUM_THREADS={m['omp_num_threads']}" if m.get("omp_num_threads") else "") + ".")
    la = m.get("loadavg_at_start") or m.get("loadavg")
    if la:
        lines.append(f"Load average (1/5/15 min) when the run started: {la[0]} / {la[1]} / {la[2]}"
                     + (f", at the end: {m['loadavg_at_end'][0]} / {m['loadavg_at_end'][1]} / "
                        f"{m['loadavg_at_end'][2]}" if m.get("loadavg_at_end") else "")
                     + " (other processes competing for the cores slow the multithreaded peers most).")
    vs = ", ".join(f"{k} {val}" for k, val in v.items() if val and k != "cybleu_backend")
    lines.append(f"Versions: {vs}; cybleu backend: {v.get('cybleu_backend')}.")
    if meta:
        lines.append(f"pytest-benchmark, one call per round, one untimed warm-up; "
                     f"{meta.get('slow_rounds')} rounds for the slow peers, {meta.get('fast_rounds')} for the fast ones. "
                     "Times are per round; ratios are the baseline's median / the row's median.")
    if not bench.get("benchmarks"):
        lines.append("\n**No benchmark ran (all skipped?); see pytest's output.**")
    if pytest_rc:
        lines.append(f"\n**WARNING: the benchmark run failed (pytest exit {pytest_rc}); see its output.**")
    lines.append("")
    headline = []
    for name in GROUP_ORDER + sorted(set(groups) - set(GROUP_ORDER)):
        if name not in groups:
            continue
        table, base = group_table(name, groups[name])
        lines += [table, ""]
        cy = [r for r in groups[name] if r["impl"] == "cybleu"]
        if base and cy:
            best = min(cy, key=lambda r: r["median"])
            headline.append(f"{name}: **{fmt_ratio(base['median'] / best['median'])}** faster than "
                            f"{base['impl']}")
        timed = [r for r in groups[name] if "outside_mecab_share_median" in r["info"]]
        if timed:
            info = timed[0]["info"]
            lines += [f"cybleu's own share of a {name} round (interning, counting, scoring, the "
                      f"Python around MeCab), measured inside each round with MeCab's calls timed: "
                      f"**{info['outside_mecab_share_median']:.1%}** median, "
                      f"{info['outside_mecab_share_max']:.1%} worst round; the rest is MeCab.", ""]
        seg = [r for r in groups[name] if r["impl"] == "mecab"]
        if seg and cy and not timed:
            # where MeCab's segmentation dominates: how much of cybleu's round is cybleu's own work
            own = (cy[0]["median"] - seg[0]["median"]) / cy[0]["median"]
            own_min = (cy[0]["min"] - seg[0]["min"]) / cy[0]["min"]
            lines += [f"cybleu's own share of its {name} round (interning, counting, scoring, the "
                      f"Python around MeCab): **{own:.1%}** from the medians, {own_min:.1%} from "
                      "the minima (MeCab's time varies most under load); the rest is MeCab.", ""]
    if mem and mem.get("skipped"):
        lines += ["### Memory", "", f"Skipped: {mem['skipped']}", ""]
    elif mem:
        from memory import markdown as mem_markdown
        lines += ["### Memory", "", mem_markdown(mem), ""]
        headline.append(f"memory: **{fmt_ratio(mem['tracemalloc_ratio'])}** smaller tracemalloc peak")
    elif memory_rc:
        lines += ["### Memory", "", f"**memory.py failed (exit {memory_rc}); see its output.**", ""]
    notes = ["Notes:"] + [f"- {note}" for note in NOTES]
    if headline:
        lines.insert(2, "cybleu vs the baselines: " + "; ".join(headline) + ".\n")
    lines += notes
    return "\n".join(lines)


def export(bench, mem, command):
    """The run as a small JSON document for the docs' benchmark page (docs/gen_benchmarks.py):
    the machine, versions, command, and per group its rows with medians and the ratio against
    the group's baseline in the same run; no raw timings."""
    import datetime
    meta = bench.get("cybleu_bench", {})
    groups = group_rows(bench)
    out_groups = []
    for name in GROUP_ORDER + sorted(set(groups) - set(GROUP_ORDER)):
        if name not in groups:
            continue
        rows = [r for r in groups[name] if r["impl"] != "cybleu-timed"]
        base = next((r for r in rows if r["baseline"]), None)
        unit = UNIT.get(name, ("items", "items"))[0]
        out_rows = []
        for r in sorted(rows, key=lambda r: r["median"]):
            info = r["info"]
            n_full = info.get("full_pairs") or info.get("segments")
            out_rows.append({
                "label": r["label"], "impl": r["impl"], "baseline": r["baseline"],
                "median_s": r["median"], "min_s": r["min"], "rounds": r["rounds"],
                "per_s": n_full / r["median"] if n_full else None,
                "ratio": base["median"] / r["median"] if base else None,
                "extrapolated_from": ({"pairs": info["pairs"], "median_s": r["raw_median"]}
                                      if r["scale"] != 1.0 else None),
            })
        share = next((r["info"] for r in groups[name]
                      if "outside_mecab_share_median" in r["info"]), None)
        out_groups.append({
            "name": name, "title": GROUP_TITLES.get(name, name), "unit": unit,
            "baseline": base["impl"] if base else None, "rows": out_rows,
            "own_share": ({"median": share["outside_mecab_share_median"],
                           "max": share["outside_mecab_share_max"]} if share else None),
        })
    return {
        "command": command,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "machine": meta.get("machine") or machine(),
        "versions": meta.get("versions") or versions(),
        "rounds": {"slow": meta.get("slow_rounds"), "fast": meta.get("fast_rounds")},
        "groups": out_groups,
        "memory": mem if mem and not mem.get("skipped") else None,
        "notes": NOTES,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="existing pytest-benchmark JSON (default: run `pytest benches`)")
    ap.add_argument("--memory-json", help="existing memory.py --json output (default: run memory.py)")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    ap.add_argument("--save-json", help="keep the benchmark JSON of this run here")
    ap.add_argument("--export", help="also write the run's figures, machine and command as the "
                    "small JSON the docs' benchmark page is generated from (docs/benchmarks.json)")
    ap.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = ap.parse_args(argv)

    pytest_rc = memory_rc = 0
    with tempfile.TemporaryDirectory() as tmp:
        if args.json:
            bench_path = Path(args.json)
        else:
            bench_path = Path(args.save_json) if args.save_json else Path(tmp) / "bench.json"
            pytest_rc = run_pytest(bench_path.resolve(), args.pytest_args)
            if not bench_path.exists():
                from _common import missing_data_reason, wmt22_ende_dir
                if wmt22_ende_dir() is None:
                    print(f"## Benchmarks\n\nSkipped: {missing_data_reason()}")
                    sys.exit(0)
                sys.exit(f"report.py: pytest wrote no benchmark JSON (exit {pytest_rc})")
        bench = json.loads(bench_path.read_text())
        mem = None
        if args.memory_json:
            mem = json.loads(Path(args.memory_json).read_text())
        elif not args.no_memory:
            mem_path = Path(tmp) / "memory.json"
            memory_rc = run_memory(mem_path)
            if memory_rc == 0:
                mem = json.loads(mem_path.read_text())
    print(markdown(bench, mem, pytest_rc, memory_rc))
    if args.export and not (pytest_rc or memory_rc):
        command = " ".join(["python", "benches/report.py"] + list(sys.argv[1:] if argv is None else argv))
        Path(args.export).write_text(json.dumps(export(bench, mem, command), indent=1) + "\n",
                                     encoding="utf-8")
    sys.exit(1 if (pytest_rc or memory_rc) else 0)


if __name__ == "__main__":
    main()
