"""Scale-out measurements: a script, not a pytest-benchmark suite, because each run starts a
multi-process cluster, reads peak RSS per worker process and times whole jobs over files of 10^6 to
10^7 lines (a benchmark fixture's rounds would rerun minutes-long jobs and cannot see the workers'
memory).

    python benches/scale.py filter --pairs 10000000     # `cybleu filter` vs filter_text on a 2-worker LocalCluster
    python benches/scale.py shards --shards 100         # corpus BLEU over shards, reduction share
    python benches/scale.py bestof --segments 1000000   # best of 8 vs a bestbleu.py-style loop

Data: WMT22/WMT23 system outputs paired with their references (../shared/data), drawn at random
with replacement and shuffled into new corpora of the size asked for (each pair keeps its true
reference, so the scores spread as real ones do). Every figure is printed with the machine's load
(`os.getloadavg`), since the machine may be shared.
"""
import argparse
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import read_lines, shared_data_dir


def load():
    return "load %.2f %.2f %.2f" % os.getloadavg()


def wmt_pairs():
    """Every (system output, reference A) pair of WMT22/23 in ../shared/data."""
    root = shared_data_dir() / "wmt"
    pairs = []
    for pair in sorted(p for p in root.glob("wmt2*/*") if p.is_dir()):
        ref = pair / "ref.A.txt"
        if not ref.exists():
            continue
        refs = read_lines(ref)
        for sys_file in sorted((pair / "sys").glob("*.txt")):
            hyps = read_lines(sys_file)
            pairs.extend(zip(hyps, refs))
    if not pairs:
        sys.exit(f"no data under {root}")
    return pairs


def write_corpus(folder, n, seed=1):
    """hyp.txt and ref.txt of n pairs drawn from the WMT pairs."""
    pairs = wmt_pairs()
    rng = random.Random(seed)
    hyp, ref = Path(folder) / "hyp.txt", Path(folder) / "ref.txt"
    with open(hyp, "w", encoding="utf-8") as fh, open(ref, "w", encoding="utf-8") as fr:
        for start in range(0, n, 100_000):
            block = [pairs[rng.randrange(len(pairs))] for _ in range(min(100_000, n - start))]
            fh.write("".join(h.replace("\n", " ") + "\n" for h, _ in block))
            fr.write("".join(r.replace("\n", " ") + "\n" for _, r in block))
    return str(hyp), str(ref)


# -- filter -----------------------------------------------------------------------------------

def _same_lines(path, parts, size=1 << 24):
    """Whether the part files, one after the other, hold the bytes of `path`."""
    with open(path, "rb") as whole:
        for part in parts:
            with open(part, "rb") as f:
                while True:
                    block = f.read(size)
                    if not block:
                        break
                    if whole.read(len(block)) != block:
                        return False
        return not whole.read(1)


def _rss():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_filter(args):
    from cybleu.cli import main
    tmp = Path(tempfile.mkdtemp(prefix="cybleu-scale-", dir=args.tmp))
    try:
        sizes = [args.pairs // 10, args.pairs] if args.rss else [args.pairs]
        for n in sizes:
            folder = tmp / str(n)
            folder.mkdir()
            t = time.perf_counter()
            hyp, ref = write_corpus(folder, n)
            print(f"wrote {n} pairs in {time.perf_counter() - t:.1f}s ({load()})", flush=True)
            one = None
            if n == args.pairs:
                for rep in range(args.repeat):
                    t = time.perf_counter()
                    code = main(["filter", "-i", hyp, "-r", ref, "--min", str(args.min), "-q",
                                 "--kept", str(folder / "kept1")])
                    dt = time.perf_counter() - t
                    assert code == 0
                    one = dt if one is None else min(one, dt)
                    print(f"one process, one thread: {n} pairs in {dt:.1f}s = "
                          f"{n / dt / 1e6:.3f} M pairs/s ({load()})", flush=True)
            best, rss = run_cluster_filter(hyp, ref, folder, n, args)
            if one is not None:
                print(f"ratio (2-worker cluster / one thread): {one / best:.2f}x "
                      f"(target >= 1.6x)", flush=True)
            print(f"peak RSS per worker at {n} pairs: "
                  + ", ".join(f"{v / 2**20:.0f} MiB" for v in rss), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def run_cluster_filter(hyp, ref, folder, n, args):
    from distributed import Client, LocalCluster
    import cybleu.dask
    best = None
    for rep in range(args.repeat):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
        client = Client(cluster)
        try:
            out = folder / f"kept2-{rep}"
            out.mkdir()
            t = time.perf_counter()
            got = cybleu.dask.filter_text(hyp, ref, min_score=args.min, kept=out,
                                          records_per_partition=args.partition)
            dt = time.perf_counter() - t
            assert got.total == n
            best = dt if best is None else min(best, dt)
            rss = sorted(client.run(_rss).values())
            parts = len(os.listdir(out / "hyp.txt"))
            print(f"2-worker LocalCluster: {n} pairs in {dt:.1f}s = {n / dt / 1e6:.3f} M pairs/s "
                  f"({parts} partitions, kept {got.kept}, {load()})", flush=True)
            if (folder / "kept1").exists():
                same = all(_same_lines(folder / "kept1" / name, sorted((out / name).iterdir()))
                           for name in ("hyp.txt", "ref.txt"))
                print(f"kept parts, concatenated, equal `cybleu filter --kept`: {same}", flush=True)
                assert same
            shutil.rmtree(out)
        finally:
            client.close()
            cluster.close()
    return best, rss


# -- shards -----------------------------------------------------------------------------------

def run_shards(args):
    import cybleu
    import cybleu.dask
    from distributed import Client, LocalCluster
    tmp = Path(tempfile.mkdtemp(prefix="cybleu-shards-", dir=args.tmp))
    try:
        pairs = wmt_pairs()
        rng = random.Random(2)
        sample = [pairs[rng.randrange(len(pairs))] for _ in range(args.pairs)]
        hyps, refs = [h for h, _ in sample], [r for _, r in sample]
        per = -(-len(sample) // args.shards)
        for i in range(args.shards):
            for name, lines in (("hyp", hyps), ("ref", refs)):
                with open(tmp / f"{name}.{i:03d}.txt", "w", encoding="utf-8") as f:
                    f.write("".join(x + "\n" for x in lines[i * per:(i + 1) * per]))
        t = time.perf_counter()
        one = cybleu.corpus_bleu(hyps, [refs])
        t_one = time.perf_counter() - t
        print(f"one process: {one} in {t_one:.2f}s ({load()})")
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=40)
        client = Client(cluster)
        try:
            for rep in range(args.repeat):
                bag = cybleu.dask.read_text(str(tmp / "hyp.*.txt"), str(tmp / "ref.*.txt"),
                                            records_per_partition=per)
                client.get_task_stream()      # start recording
                with __import__("distributed").get_task_stream(client) as ts:
                    t = time.perf_counter()
                    got = cybleu.dask.corpus_bleu(bag)
                    dt = time.perf_counter() - t
                parts = reduce = 0.0
                for task in ts.data:
                    spent = sum(s["stop"] - s["start"] for s in task["startstops"]
                                if s["action"] == "compute")
                    # Dask fuses each partition's reading, statistics and first merge into one
                    # task: only the "-aggregate" tasks are the tree above the partitions
                    if "aggregate" in str(task["key"]):
                        reduce += spent
                    else:
                        parts += spent
                same = got.score == one.score and got.counts == one.counts
                print(f"{bag.npartitions} shards on a 2-worker LocalCluster: {got} in {dt:.2f}s; "
                      f"bit-identical to one process: {same}; task time: partitions "
                      f"{parts:.2f}s, tree reduction {reduce * 1e3:.1f} ms "
                      f"({100 * reduce / (parts + reduce):.2f}% of the compute) ({load()})")
                shard_scores = [cybleu.corpus_bleu(hyps[i * per:(i + 1) * per],
                                                   [refs[i * per:(i + 1) * per]]).score
                                for i in range(args.shards)]
                print(f"mean of the {args.shards} shard scores: "
                      f"{sum(shard_scores) / len(shard_scores):.2f} (corpus: {one.score:.2f})")
        finally:
            client.close()
            cluster.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# -- best of n ------------------------------------------------------------------------------------

def run_bestof(args):
    import cybleu
    from sacrebleu.metrics import BLEU
    root = shared_data_dir() / "wmt" / "wmt22" / "en-de"
    systems = sorted((root / "sys").glob("*.txt"))[:args.k]
    outs = [read_lines(s) for s in systems]
    refs = read_lines(root / "ref.A.txt")
    m = len(refs)
    n = args.segments
    cands = [outs[j][i % m] for i in range(n) for j in range(args.k)]
    references = [[refs[i % m] for i in range(n)]]
    print(f"best of {args.k} x {n} segments ({len(cands)} candidates), {load()}")
    times = []
    for rep in range(args.repeat):
        t = time.perf_counter()
        best = cybleu.best_of(cands, references, args.k)
        times.append(time.perf_counter() - t)
        print(f"cybleu.best_of: {times[-1]:.2f}s ({load()})", flush=True)
    ours = min(times)
    t = time.perf_counter()
    two = cybleu.best_of(cands, references, args.k, n_threads=2)
    t_two = time.perf_counter() - t
    assert two.index.tolist() == best.index.tolist()
    print(f"cybleu.best_of(n_threads=2): {t_two:.2f}s ({load()})", flush=True)
    metric = BLEU(effective_order=True)
    sample = args.sample
    loop = []
    for rep in range(args.repeat):
        t = time.perf_counter()
        picks = []
        for i in range(sample):
            scores = [metric.sentence_score(c, [references[0][i]]).score
                      for c in cands[i * args.k:(i + 1) * args.k]]
            picks.append(max(range(args.k), key=scores.__getitem__))
        loop.append(time.perf_counter() - t)
        print(f"bestbleu.py-style loop over sacreBLEU's sentence_score: {sample} segments in "
              f"{loop[-1]:.2f}s ({load()})", flush=True)
    assert picks == best.index[:sample].tolist()
    scaled = min(loop) / sample * n
    print(f"loop scaled to {n} segments: {scaled:.0f}s; ratio {scaled / ours:.0f}x one thread, "
          f"{scaled / t_two:.0f}x two threads (target >= 50x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    f = sub.add_parser("filter")
    f.add_argument("--pairs", type=int, default=10_000_000)
    f.add_argument("--min", type=float, default=20.0)
    f.add_argument("--partition", type=int, default=100_000)
    f.add_argument("--rss", action="store_true", help="also run pairs/10 for the RSS comparison")
    s = sub.add_parser("shards")
    s.add_argument("--shards", type=int, default=100)
    s.add_argument("--pairs", type=int, default=1_000_000)
    b = sub.add_parser("bestof")
    b.add_argument("--segments", type=int, default=1_000_000)
    b.add_argument("-k", type=int, default=8)
    b.add_argument("--sample", type=int, default=2000)
    for p in (f, s, b):
        p.add_argument("--repeat", type=int, default=2)
        p.add_argument("--tmp", default=None, help="where the generated files go")
    args = parser.parse_args()
    {"filter": run_filter, "shards": run_shards, "bestof": run_bestof}[args.what](args)


if __name__ == "__main__":
    main()
