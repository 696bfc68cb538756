#!/usr/bin/env python
"""Generate the benchmark page (docs/benchmarks.md) and the README's speed table from
docs/benchmarks.json, the file `python benches/report.py --export docs/benchmarks.json` writes,
and the page's instruction counts from docs/instructions.json, which
`python benches/instructions.py --json docs/instructions.json` writes.

    python docs/gen_benchmarks.py            # rewrite docs/benchmarks.md and the README's table
    python docs/gen_benchmarks.py --check    # exit 1 if either differs from what the JSON gives

Both outputs are committed, so that they render on GitHub; tests/test_docs.py runs --check.
Standard library only.
"""
import argparse
import json
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
JSON = DOCS / "benchmarks.json"
INSTRUCTIONS = DOCS / "instructions.json"
PAGE = DOCS / "benchmarks.md"
README = ROOT / "README.md"
START, END = "<!-- benchmarks:start -->", "<!-- benchmarks:end -->"

# the README's headline rows: (group, what the workload is, in words)
HEADLINE = [
    ("corpus-13a", "Corpus BLEU, 8 systems x 2,037 segments (WMT22 en-de)"),
    ("sentence-batch", "Sentence BLEU of 4,074 segments"),
    ("chrf-corpus", "Corpus chrF, 3,004 segments"),
    ("ter-corpus", "Corpus TER, 3,004 segments"),
    ("ids-sentence-256x1024", "Token-ID sentence BLEU, 256 x 1,024 IDs"),
    ("nltk-corpus", "nltk-mode corpus BLEU, 8 systems"),
    ("cli-paired-bs", "Command line, paired bootstrap of 16 systems"),
]
# the timed group beside each counted workload (the same kind of work, timed against its peers)
TIMED_GROUP = {"corpus": "corpus-13a", "batch_sentence": "sentence-batch",
               "pairwise_chrf": "chrf-pairwise-128x128", "report": "report-wmt17",
               "corpus_chrf": "chrf-corpus", "corpus_ter": "ter-corpus",
               "ids_lists": "ids-lists-256x1024"}
PEER_NAMES = {"sacrebleu": "sacreBLEU", "nltk": "NLTK", "bleuscore": "bleuscore",
              "numpy-fancy": "numpy", "numpy-blas": "numpy (BLAS)",
              "cybleu-1-thread": "cybleu, 1 thread"}


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


def speed(ratio):
    """`34x faster`, or for a ratio below 1 `4.2x slower` (never "0.24x faster")."""
    if 1 / 1.05 <= ratio < 1.05:
        return "as fast"
    return f"{fmt_ratio(ratio)} faster" if ratio >= 1 else f"{fmt_ratio(1 / ratio)} slower"


def fmt_rate(x):
    return f"{x:,.0f}" if x else ""


def _md(text):
    """Table cells: a | in a label would split the cell."""
    return text.replace("|", "\\|")


def best_cybleu(group):
    rows = [r for r in group["rows"] if r["impl"] == "cybleu"]
    return min(rows, key=lambda r: r["median_s"]) if rows else None


def baseline(group):
    return next((r for r in group["rows"] if r["baseline"]), None)


def machine_lines(run):
    m, v = run["machine"], run["versions"]
    cores = m.get("usable_cores") or m.get("logical_cores")
    lines = [f"- Machine: {m['cpu']}, {cores} cores ({m.get('logical_cores')} logical), "
             f"{m.get('os', '')}.",
             f"- Python: {m['python']}; cybleu backend: {v.get('cybleu_backend')}.",
             "- Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()
                                         if val and k != "cybleu_backend") + ".",
             f"- Command: `{run['command']}`, on {run['date']}.",
             f"- Rounds: {run['rounds']['fast']} per cybleu and other fast rows, "
             f"{run['rounds']['slow']} per slow peer, each after one untimed warm-up call; "
             "one call per round."]
    return lines


def load_note(run):
    m = run["machine"]
    start, end = m.get("loadavg_at_start"), m.get("loadavg_at_end")
    cores = m.get("usable_cores") or m.get("logical_cores")
    if not start:
        return []
    text = (f"The machine was shared with other work during this run: its load average "
            f"(1/5/15 min) was {start[0]} / {start[1]} / {start[2]} when the run started"
            + (f" and {end[0]} / {end[1]} / {end[2]} when it ended" if end else "")
            + f", on {cores} cores. Other processes slow the timings, the multithreaded rows "
            "most, so every ratio below compares rows of the same run; these figures will be "
            "replaced by a run on an idle machine.")
    return [text]


def summary_table(run):
    out = ["| workload | cybleu | baseline | baseline time | cybleu is |",
           "|---|---:|---|---:|---:|"]
    for group in run["groups"]:
        cy, base = best_cybleu(group), baseline(group)
        if not cy or not base:
            continue
        out.append(f"| {_md(group['title'])} | {fmt_time(cy['median_s'])} | "
                   f"{PEER_NAMES.get(group['baseline'], group['baseline'])} | "
                   f"{fmt_time(base['median_s'])} | {speed(cy['ratio'])} |")
    return out


def group_table(group):
    unit = group["unit"]
    base = PEER_NAMES.get(group["baseline"], group["baseline"]) if group["baseline"] else None
    out = [f"### {group['title']}", "",
           f"| implementation | median | min | rounds | {unit}/s | "
           f"{'time of ' + base + ' / this' if base else 'ratio'} |",
           "|---|---:|---:|---:|---:|---:|"]
    for r in group["rows"]:
        label = _md(r["label"])
        if r["extrapolated_from"]:
            ex = r["extrapolated_from"]
            label += (f" (timed on {ex['pairs']:,} pairs, {fmt_time(ex['median_s'])}, "
                      "scaled to the workload)")
        if r["baseline"]:
            label += " (baseline)"
        ratio = fmt_ratio(r["ratio"]) if r["ratio"] is not None else ""
        if r["impl"] == "cybleu":
            label, ratio = f"**{label}**", f"**{ratio}**"
        out.append(f"| {label} | {fmt_time(r['median_s'])} | {fmt_time(r['min_s'])} | "
                   f"{r['rounds']} | {fmt_rate(r['per_s'])} | {ratio} |")
    if group.get("own_share"):
        share = group["own_share"]
        out += ["", f"cybleu's own share of a round here (interning, counting, scoring and the "
                f"Python around MeCab, with MeCab's calls timed inside each round): "
                f"{share['median']:.1%} median, {share['max']:.1%} in the slowest round; the "
                "rest is MeCab."]
    return out


def memory_table(mem):
    cy, sb = mem["results"]["cybleu"], mem["results"]["sacrebleu"]

    def mb(b):
        return f"{b / 1e6:.1f} MB"
    return [f"Peak memory of `corpus_bleu(hyps, [refs])` on {cy['pairs']:,} distinct WMT22 en-de "
            f"(hypothesis, reference) pairs, 13a, each library in a fresh interpreter (the scores "
            f"are equal: {cy['score']:.4f}):", "",
            "| implementation | tracemalloc peak | peak RSS growth | time (untraced) |",
            "|---|---:|---:|---:|",
            f"| **cybleu** ({cy['backend']} core) | {mb(cy['tracemalloc_peak_bytes'])} | "
            f"{mb(cy['rss_peak_growth_bytes'])} | {cy['wall_s']:.2f} s |",
            f"| sacreBLEU | {mb(sb['tracemalloc_peak_bytes'])} | "
            f"{mb(sb['rss_peak_growth_bytes'])} | {sb['wall_s']:.2f} s |",
            f"| sacreBLEU / cybleu | **{mem['tracemalloc_ratio']:.0f}x** | "
            + (f"{mem['rss_ratio']:.0f}x" if mem.get("rss_ratio") else "n/a")
            + f" | {sb['wall_s'] / cy['wall_s']:.0f}x |"]


def instructions_table(counts, run):
    """The callgrind counts beside the timed ratio of the same kind of work."""
    groups = {g["name"]: g for g in run["groups"]}
    v = counts["versions"]
    out = ["Instruction counts do not depend on the machine's load, so they can be checked on any "
           "machine of the same kind. Each workload runs in two fresh interpreters under "
           "valgrind's callgrind, one that only imports, reads its inputs and makes a small "
           "warm-up call, and one that then runs the workload; the difference is the workload's "
           "count. The timed ratio beside it is the wall-clock one of the group named, from the "
           "run above.", "",
           f"- Counted on {v['os']} {v['machine']}, CPython {v['python']}, cybleu {v['cybleu']} "
           f"({counts['backend']} core), {v['valgrind']}.",
           f"- Command: `{counts['command']}`.", "",
           "| workload | instructions | timed group | cybleu is |",
           "|---|---:|---|---:|"]
    for name, row in counts["workloads"].items():
        group = groups.get(TIMED_GROUP.get(name, ""))
        cy = best_cybleu(group) if group else None
        timed = (f"{group['title']} | {speed(cy['ratio'])} than "
                 f"{PEER_NAMES.get(group['baseline'], group['baseline'])}"
                 if cy and group.get("baseline") else "| ")
        out.append(f"| {_md(row['what'])} | {row['instructions'] / 1e6:,.1f} M | {timed} |")
    return out


def page(run, counts=None):
    lines = ["# Benchmarks", "",
             "<!-- generated by docs/gen_benchmarks.py from docs/benchmarks.json: edit those, "
             "not this file -->", "",
             "Every figure on this page comes from one run of the benchmark suite in `benches/`, "
             "with cybleu and the libraries it is compared with (its *peers*) timed in the same "
             "run, on the same inputs. A ratio is the baseline's median time divided by the "
             "row's, so it compares rows measured under the same conditions. Every cybleu row "
             "checks its scores against sacreBLEU's (or NLTK's) bit for bit before it is timed.",
             "", "## The run", ""]
    lines += machine_lines(run)
    lines += [""] + load_note(run) + [""]
    lines += ["To repeat it, from a checkout with the WMT data the suite reads (the WMT22 and "
              "WMT17 test sets and system outputs, in `../shared/data` next to the checkout or "
              "where `CYBLEU_SHARED_DATA` points; the benchmarks skip without them):", "",
              "```bash", "pip install torch --index-url https://download.pytorch.org/whl/cpu   # a CPU build", 'pip install -e ".[bench]"',
              "python benches/report.py --export docs/benchmarks.json   # also prints markdown",
              "python docs/gen_benchmarks.py                             # this page, the README table",
              "```", "",
              "The evaluate group runs when `CYBLEU_EVALUATE_METRICS` names a folder holding "
              "evaluate's metric scripts (and `evaluate` and `datasets` are installed).", "",
              "## Summary", ""]
    lines += summary_table(run)
    if counts:
        lines += ["", "## Instruction counts", ""] + instructions_table(counts, run)
    lines += ["", "## Every group", ""]
    for group in run["groups"]:
        lines += group_table(group) + [""]
    if run.get("memory"):
        lines += ["## Memory", ""] + memory_table(run["memory"]) + [""]
    lines += ["## Notes", ""] + [f"- {note}" for note in run["notes"]]
    return "\n".join(lines) + "\n"


def readme_table(run):
    groups = {g["name"]: g for g in run["groups"]}
    m = run["machine"]
    cores = m.get("usable_cores") or m.get("logical_cores")
    out = ["| workload | cybleu | baseline | cybleu is |", "|---|---:|---|---:|"]
    for name, words in HEADLINE:
        group = groups.get(name)
        cy = best_cybleu(group) if group else None
        base = baseline(group) if group else None
        if not cy or not base:
            continue
        peer = PEER_NAMES.get(group["baseline"], group["baseline"])
        out.append(f"| {words} | {fmt_time(cy['median_s'])} | {peer}: "
                   f"{fmt_time(base['median_s'])} | **{speed(cy['ratio'])}** |")
    mem = run.get("memory")
    if mem:
        cy, sb = mem["results"]["cybleu"], mem["results"]["sacrebleu"]
        out.append(f"| Peak memory, corpus BLEU of {cy['pairs']:,} pairs | "
                   f"{cy['tracemalloc_peak_bytes'] / 1e6:.1f} MB | sacreBLEU: "
                   f"{sb['tracemalloc_peak_bytes'] / 1e6:.0f} MB | "
                   f"**{mem['tracemalloc_ratio']:.0f}x** smaller |")
    out += ["", f"Medians of one run on {m['cpu']} ({cores} cores), {m['python']}, "
            f"{run['date']}: `{run['command']}`. Every row and the machine's load are on the "
            "[benchmarks page](docs/benchmarks.md)."]
    return "\n".join(out)


def readme_with_table(text, run):
    if START not in text or END not in text:
        raise SystemExit(f"{README} has no {START} ... {END} section for the table")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{START}\n{readme_table(run)}\n{END}{tail}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="compare instead of writing; exit 1 on a difference")
    args = ap.parse_args(argv)
    run = json.loads(JSON.read_text(encoding="utf-8"))
    counts = (json.loads(INSTRUCTIONS.read_text(encoding="utf-8"))
              if INSTRUCTIONS.is_file() else None)
    outputs = [(PAGE, page(run, counts))]
    if README.is_file():
        outputs.append((README, readme_with_table(README.read_text(encoding="utf-8"), run)))
    stale = [path for path, text in outputs
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path} is not what {JSON.name} gives: run python docs/gen_benchmarks.py")
        return 1 if stale else 0
    for path, text in outputs:
        path.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
