"""ROUGE speed against the peers, every figure a ratio taken in one run (a script, not a
pytest-benchmark suite: the rouge-score-rs pool must be sized before it is imported, and the
single-implementation mode is for callgrind).

    python benches/rouge_speed.py score       # RougeScorer(rouge1/2/L/Lsum, stemmer).score over
                                              # 625 three-line documents: rouge-score,
                                              # rouge-score-rs (loop, score_batch), cybleu
    python benches/rouge_speed.py threads     # batch_rouge on 1 and 2 threads (8 systems)
    python benches/rouge_speed.py bootstrap   # 1,000 resamples of 10,000 documents, 4 types
    python benches/rouge_speed.py one NAME    # one workload alone (for valgrind --tool=callgrind);
                                              # NAME "setup" (or "bootstrap-setup") runs only
                                              # the loading, to subtract

Data: WMT22 zh-en, the English side (reference A against the systems), ../shared/data
(CYBLEU_SHARED_DATA overrides). Every result is checked against rouge-score's, so a fast wrong
answer cannot pass; every figure is printed with the machine's load.
"""
import os

os.environ.setdefault("RAYON_NUM_THREADS", "1")   # rouge-score-rs: one thread, as the budget asks

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, read_lines, shared_data_dir

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def zh_en():
    d = shared_data_dir() / "wmt" / "wmt22" / "zh-en"
    if not (d / "ref.A.txt").is_file():
        sys.exit(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return read_lines(d / "ref.A.txt"), {p.stem: read_lines(p) for p in sorted((d / "sys").glob("*.txt"))}


def docs(lines, count=625, size=3):
    return ["\n".join(lines[i * size:(i + 1) * size]) for i in range(count)]


def best(fn, rounds):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return min(times), result


def workloads():
    import numpy as np
    ref, systems = zh_en()
    targets, predictions = docs(ref), docs(systems["Online-B"])

    def rouge_score_loop():
        from rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        return [scorer.score(t, p) for t, p in zip(targets, predictions)]

    def rs_loop():
        import rouge_score_rs
        scorer = rouge_score_rs.RougeScorer(TYPES, use_stemmer=True)
        return [scorer.score(t, p) for t, p in zip(targets, predictions)]

    def rs_batch():
        import rouge_score_rs
        return rouge_score_rs.RougeScorer(TYPES, use_stemmer=True).score_batch(targets, predictions)

    def cybleu_loop():
        from cybleu.rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        return [scorer.score(t, p) for t, p in zip(targets, predictions)]

    def cybleu_batch(n_threads=1, preds=predictions, refs=targets):
        import cybleu
        return cybleu.batch_rouge(preds, refs, TYPES, use_stemmer=True, n_threads=n_threads)

    all_preds = [d for name in systems for d in docs(systems[name])]
    all_refs = targets * len(systems)

    def threads(n):
        return lambda: cybleu_batch(n, all_preds, all_refs)

    # bootstrap: realistic per-document scores of 10,000 one-line documents of every system
    def bootstrap_scores():
        from cybleu.rouge_score import rouge_scorer
        scorer = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
        lines = [(r, h) for name in systems for r, h in zip(ref, systems[name])][:10_000]
        return [scorer.score(r, h) for r, h in lines]

    def aggregate(module, seed=None):
        def run():
            np.random.seed(0)
            agg = module.BootstrapAggregator() if seed is None else \
                module.BootstrapAggregator(seed=seed)
            for s in SCORES:
                agg.add_scores(s)
            return agg.aggregate()
        return run

    import rouge_score.scoring as theirs

    from cybleu.rouge_score import scoring as ours
    return {"rouge-score": rouge_score_loop, "rs-loop": rs_loop, "rs-batch": rs_batch,
            "cybleu-score": cybleu_loop, "cybleu-batch": cybleu_batch,
            "threads-1": threads(1), "threads-2": threads(2),
            "bootstrap-scores": bootstrap_scores,
            "bootstrap-rouge-score": aggregate(theirs), "bootstrap-cybleu": aggregate(ours),
            "bootstrap-cybleu-seed": aggregate(ours, seed=1)}


SCORES = None


def flat(results):
    """A list of score dicts, or batch_rouge's arrays, as one list of floats."""
    if isinstance(results, dict):
        return [float(v) for i in range(len(next(iter(results.values())).precision))
                for t in TYPES for v in (results[t].precision[i], results[t].recall[i],
                                         results[t].fmeasure[i])]
    return [float(v) for r in results for t in TYPES for v in r[t]]


def main(argv):
    global SCORES
    what = argv[1] if len(argv) > 1 else "score"
    w = workloads()
    info = machine()
    import rouge_score_rs
    print(f"# {info['cpu']}, {info['usable_cores']} cores, {info['python']}; rouge-score 0.1.2, "
          f"rouge-score-rs {rouge_score_rs.__version__}, RAYON_NUM_THREADS="
          f"{os.environ['RAYON_NUM_THREADS']}; {load()}")
    if what == "one":
        if argv[2].startswith("bootstrap-"):
            SCORES = w["bootstrap-scores"]()
        if not argv[2].endswith("setup"):
            w[argv[2]]()
        return
    if what == "score":
        t_ref, want = best(w["rouge-score"], 1)
        want = flat(want)
        print(f"rouge-score loop        {t_ref * 1000:9.1f} ms  ({load()})")
        for name, rounds in (("rs-loop", 7), ("rs-batch", 7), ("cybleu-score", 7),
                             ("cybleu-batch", 7)):
            t, got = best(w[name], rounds)
            assert flat(got) == want, name
            print(f"{name:22s}  {t * 1000:9.2f} ms  {t_ref / t:7.1f}x rouge-score  ({load()})")
    elif what == "threads":
        t1, a = best(w["threads-1"], 5)
        t2, b = best(w["threads-2"], 5)
        assert flat(a) == flat(b)
        print(f"batch_rouge, {len(a['rouge1'].fmeasure)} pairs: 1 thread {t1 * 1000:.1f} ms, "
              f"2 threads {t2 * 1000:.1f} ms, speed-up {t1 / t2:.2f}x  ({load()})")
    elif what == "bootstrap":
        SCORES = w["bootstrap-scores"]()
        t_ref, want = best(w["bootstrap-rouge-score"], 1)
        print(f"rouge-score BootstrapAggregator  {t_ref * 1000:8.1f} ms  ({load()})")
        t, got = best(w["bootstrap-cybleu"], 5)
        assert {k: [tuple(s) for s in v] for k, v in got.items()} == \
            {k: [tuple(s) for s in v] for k, v in want.items()}
        print(f"cybleu, numpy's global state   {t * 1000:8.1f} ms  {t_ref / t:6.1f}x  ({load()})")
        t, _ = best(w["bootstrap-cybleu-seed"], 5)
        print(f"cybleu, seed=1                 {t * 1000:8.1f} ms  {t_ref / t:6.1f}x  ({load()})")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
