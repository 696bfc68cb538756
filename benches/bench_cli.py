"""groups "cli-*" and "resample-*": whole command-line processes on the 16 WMT17 en-de systems
(sacreBLEU's test fixtures: 3,004 segments, one reference), cybleu against sacrebleu 2.6.0, and
the resampling of significance tests alone against a vectorized numpy version of the same sums.

- cli-multi: `ref -i <16 systems>` (corpus BLEU of each, a JSON list)
- cli-paired-bs: `... -pbs` (paired bootstrap, 1000 resamples, the first system as baseline)
- cli-paired-ar: `... -par` (approximate randomization, 10000 trials)
- cli-ci: `ref -i <one system> -ci` (bootstrap confidence interval, 1000 resamples)
- resample-bs: the 1000 bootstrap resamples of all 16 systems' integer statistics (row sums),
  from the same indices: cybleu's `_resample.resample_sums` against numpy fancy indexing + sum
  and numpy's counts @ statistics (BLAS); and `_resample.bootstrap_sums`, which draws the same
  indices while it sums (what the command line runs)
- resample-ar: the 10000 randomization trials of 15 systems against the baseline (masked row
  sums): cybleu's `_resample.ar_sums` against numpy's `mask @ (system - baseline)` (BLAS)

Every process's output is checked against sacrebleu's (byte for byte but the version field), and
every resampling result against the others, so a fast wrong answer cannot pass. sacrebleu's
paired runs take 10-30 s each: they run twice (no warm-up round), cybleu's FAST_ROUNDS times.
"""
import compileall
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _common import shared_data_dir
from conftest import FAST_ROUNDS, label, run

WMT17 = Path("sacrebleu-fixtures") / "wmt17-en-de"
ORACLE_ROUNDS = int(os.environ.get("CYBLEU_BENCH_ORACLE_ROUNDS", "2"))
_ORACLE = {}  # group -> sacrebleu's stdout, kept from its benchmark for cybleu's check


@pytest.fixture(scope="module")
def wmt17():
    d = shared_data_dir() / WMT17
    systems = sorted((d / "sys").glob("*.txt"))
    if not (d / "ref.txt").is_file() or len(systems) != 16:
        pytest.skip(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return {"dir": d, "ref": str(d / "ref.txt"), "systems": [str(p) for p in systems],
            "one": str(d / "sys" / "newstest2017.online-B.0.en-de.txt")}


@pytest.fixture(scope="module")
def cybleu_env():
    """The environment a `python -m cybleu` process needs to import this cybleu; its modules
    byte-compiled first (sacrebleu's are, in site-packages), so imports are not recompiled."""
    import cybleu
    pkg = Path(cybleu.__file__).resolve().parent
    compileall.compile_dir(str(pkg), quiet=1)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(pkg.parent)] + [p for p in
                                         env.get("PYTHONPATH", "").split(os.pathsep) if p])
    for key in ("SACREBLEU_FORMAT", "SACREBLEU_SEED", "NO_COLOR"):
        env.pop(key, None)
    return env


def _process(module, args, env):
    proc = subprocess.run([sys.executable, "-m", module, *args, "-q"], capture_output=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    return proc.stdout


def _normalized(out):
    import cybleu
    return out.replace(f"cybleu-{cybleu.__version__}".encode(), b"2.6.0")


WORKLOADS = {
    "cli-multi": ("corpus BLEU of 16 systems", lambda d: [d["ref"], "-i", *d["systems"]]),
    "cli-paired-bs": ("paired bootstrap, 16 systems, 1000 resamples",
                      lambda d: [d["ref"], "-i", *d["systems"], "-pbs"]),
    "cli-paired-ar": ("approximate randomization, 16 systems, 10000 trials",
                      lambda d: [d["ref"], "-i", *d["systems"], "-par"]),
    "cli-ci": ("confidence interval, 1 system, 1000 resamples",
               lambda d: [d["ref"], "-i", d["one"], "-ci"]),
}


def _oracle_run(group, wmt17, env):
    args = WORKLOADS[group][1](wmt17)
    return _process("sacrebleu", args, env)


@pytest.mark.parametrize("group", list(WORKLOADS))
def bench_cli_sacrebleu(benchmark, group, wmt17, cybleu_env):
    benchmark.group = group
    label(benchmark, "sacrebleu", f"`python -m sacrebleu` ({WORKLOADS[group][0]})",
          baseline=True, segments=3004 * (1 if group == "cli-ci" else 16))
    out = benchmark.pedantic(_oracle_run, args=(group, wmt17, cybleu_env),
                             rounds=ORACLE_ROUNDS, iterations=1, warmup_rounds=0)
    _ORACLE[group] = out


@pytest.mark.parametrize("group", list(WORKLOADS))
def bench_cli_cybleu(benchmark, group, wmt17, cybleu_env):
    import cybleu
    benchmark.group = group
    label(benchmark, "cybleu", f"`python -m cybleu` ({cybleu.BACKEND} core)",
          segments=3004 * (1 if group == "cli-ci" else 16))
    args = WORKLOADS[group][1](wmt17)
    out = run(benchmark, lambda: _process("cybleu", args, cybleu_env), FAST_ROUNDS)
    expected = _ORACLE.get(group) or _oracle_run(group, wmt17, cybleu_env)
    assert _normalized(out) == expected


# -- the resampling alone ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wmt17_stats(wmt17):
    """Integer BLEU statistics of the 16 systems (rows of 10), extracted once, untimed."""
    from array import array
    from itertools import chain

    from cybleu.metrics import BLEU

    def lines(path):
        with open(path, encoding="utf-8", newline="\n") as f:
            return [line.rstrip() for line in f]

    metric = BLEU(references=[lines(wmt17["ref"])])
    return [array("q", chain.from_iterable(metric._extract_corpus_statistics(lines(p), None)))
            for p in wmt17["systems"]]


N_BS, N_AR = 1000, 10000


@pytest.fixture(scope="module")
def bs_indices():
    from cybleu._backend import module
    resample = module("resample")
    return resample.Generator(12345).bootstrap_indices(N_BS, 3004)


@pytest.fixture(scope="module")
def ar_masks():
    from cybleu._backend import module
    resample = module("resample")
    return resample.Generator(12345).ar_masks(N_AR, 3004)


@pytest.fixture(scope="module")
def bs_expected(wmt17_stats, bs_indices):
    import numpy as np
    rows = np.stack([np.frombuffer(s, dtype=np.int64).reshape(3004, 10) for s in wmt17_stats])
    idx = np.frombuffer(bs_indices, dtype=np.int64).reshape(N_BS, 3004)
    return [rows[k][idx].sum(axis=1) for k in range(16)]


def bench_resample_bs_cybleu(benchmark, wmt17_stats, bs_indices, bs_expected):
    import numpy as np

    from cybleu._backend import BACKEND, module
    resample = module("resample")
    benchmark.group = "resample-bs"
    label(benchmark, "cybleu", f"cybleu `_resample.resample_sums` ({BACKEND})", segments=3004 * 16)
    sums = run(benchmark, lambda: resample.resample_sums(wmt17_stats, 10, bs_indices, N_BS),
               FAST_ROUNDS)
    for got, want in zip(sums, bs_expected):
        assert np.array_equal(np.frombuffer(got, dtype=np.int64).reshape(N_BS, 10), want)


def bench_resample_bs_cybleu_drawn(benchmark, wmt17_stats, bs_expected):
    """The command line's path: the same indices drawn (seed 12345) while they are summed."""
    import numpy as np

    from cybleu._backend import BACKEND, module
    resample = module("resample")
    benchmark.group = "resample-bs"
    label(benchmark, "cybleu-drawn",
          f"cybleu `_resample.bootstrap_sums`, drawing the indices too ({BACKEND})",
          segments=3004 * 16)
    sums = run(benchmark, lambda: resample.bootstrap_sums(resample.Generator(12345), wmt17_stats,
                                                          10, N_BS), FAST_ROUNDS)
    for got, want in zip(sums, bs_expected):
        assert np.array_equal(np.frombuffer(got, dtype=np.int64).reshape(N_BS, 10), want)


def bench_resample_bs_numpy_fancy(benchmark, wmt17_stats, bs_indices, bs_expected):
    import numpy as np
    benchmark.group = "resample-bs"
    label(benchmark, "numpy-fancy", "numpy: rows[idxs].sum(axis=1), all systems stacked",
          baseline=True, segments=3004 * 16)
    rows = np.concatenate([np.frombuffer(s, dtype=np.int64).reshape(3004, 10)
                           for s in wmt17_stats], axis=1)  # (3004, 160)
    idx = np.frombuffer(bs_indices, dtype=np.int64).reshape(N_BS, 3004)
    sums = run(benchmark, lambda: rows[idx].sum(axis=1), 5)
    for k, want in enumerate(bs_expected):
        assert np.array_equal(sums[:, 10 * k:10 * k + 10], want)


def bench_resample_bs_numpy_counts(benchmark, wmt17_stats, bs_indices, bs_expected):
    import numpy as np
    benchmark.group = "resample-bs"
    label(benchmark, "numpy-blas", "numpy: counts @ rows (float64 BLAS, exact here)",
          segments=3004 * 16)
    rows = np.concatenate([np.frombuffer(s, dtype=np.int64).reshape(3004, 10)
                           for s in wmt17_stats], axis=1).astype(np.float64)
    idx = np.frombuffer(bs_indices, dtype=np.int64).reshape(N_BS, 3004)

    def round_():
        counts = np.zeros((N_BS, 3004))
        np.add.at(counts, (np.arange(N_BS)[:, None], idx), 1)
        return counts @ rows

    sums = run(benchmark, round_, 5)
    for k, want in enumerate(bs_expected):
        assert np.array_equal(sums[:, 10 * k:10 * k + 10], want)


def bench_resample_ar_cybleu(benchmark, wmt17_stats, ar_masks):
    import numpy as np

    from cybleu._backend import BACKEND, module
    resample = module("resample")
    benchmark.group = "resample-ar"
    label(benchmark, "cybleu", f"cybleu `_resample.ar_sums` ({BACKEND})", segments=3004 * 15)
    pairs = run(benchmark, lambda: resample.ar_sums(wmt17_stats[0], wmt17_stats[1:], 10,
                                                    ar_masks, N_AR), 3)
    pos = np.frombuffer(bytes(ar_masks), dtype=np.uint8).reshape(N_AR, 3004).astype(np.int64)
    bl = np.frombuffer(wmt17_stats[0], dtype=np.int64).reshape(3004, 10)
    for k in (0, 7, 14):
        sys_rows = np.frombuffer(wmt17_stats[k + 1], dtype=np.int64).reshape(3004, 10)
        want = pos @ bl + (1 - pos) @ sys_rows
        assert np.array_equal(np.frombuffer(pairs[k][0], dtype=np.int64).reshape(N_AR, 10),
                              want)


def bench_resample_ar_numpy(benchmark, wmt17_stats, ar_masks):
    import numpy as np
    benchmark.group = "resample-ar"
    label(benchmark, "numpy-blas", "numpy: mask @ (systems - baseline) (float64 BLAS)",
          baseline=True, segments=3004 * 15)
    bl = np.frombuffer(wmt17_stats[0], dtype=np.int64).reshape(3004, 10)
    systems = np.concatenate([np.frombuffer(s, dtype=np.int64).reshape(3004, 10)
                              for s in wmt17_stats[1:]], axis=1)
    diff = (systems - np.tile(bl, 15)).astype(np.float64)
    totals = systems.sum(axis=0)

    def round_():
        pos = np.frombuffer(bytes(ar_masks), dtype=np.uint8).reshape(N_AR, 3004)
        acc = pos.astype(np.float64) @ diff
        return totals - acc, np.tile(bl.sum(axis=0), 15) + acc

    first, _ = run(benchmark, round_, 3)
    pos = np.frombuffer(bytes(ar_masks), dtype=np.uint8).reshape(N_AR, 3004).astype(np.int64)
    sys0 = np.frombuffer(wmt17_stats[1], dtype=np.int64).reshape(3004, 10)
    assert np.array_equal(first[:, :10], pos @ bl + (1 - pos) @ sys0)
