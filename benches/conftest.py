"""Shared fixtures for the cybleu benchmarks (pytest-benchmark; run `pytest benches` from the repo root).

Data comes from ../shared/data next to the repository (CYBLEU_SHARED_DATA overrides); the benchmarks
skip with a reason when it is absent. The data is evaluation material only and never ships.

Every workload is timed end to end from Python strings, except where a peer cannot take strings
(nltk and fast-bleu need token lists; their 13a tokenization is done once, untimed, and the
benchmark names say "presplit"). Each round is one call, timed with `benchmark.pedantic(rounds=R,
iterations=1, warmup_rounds=1)` so the run length is predictable (a sacrebleu corpus round is ~3 s).
"""
import os

import pytest

from _common import machine, missing_data_reason, read_lines, shared_data_dir, versions, wmt22_ende_dir

#: rounds for workloads that take seconds per round (sacrebleu, nltk, fast-bleu)
SLOW_ROUNDS = int(os.environ.get("CYBLEU_BENCH_SLOW_ROUNDS", "3"))
#: rounds for workloads that take well under a second per round (cybleu, bleuscore)
FAST_ROUNDS = int(os.environ.get("CYBLEU_BENCH_FAST_ROUNDS", "15"))


def run(benchmark, fn, rounds):
    """Time `fn` for `rounds` rounds (one call each) after one untimed warm-up call; return its result."""
    return benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)


def label(benchmark, impl, text, **extra):
    """Metadata report.py reads: the implementation, a human label, and facts about the workload."""
    benchmark.extra_info["impl"] = impl
    benchmark.extra_info["label"] = text
    benchmark.extra_info.update(extra)


@pytest.fixture(scope="session")
def wmt22():
    """WMT22 en-de: reference A and every system output, in sorted file-name order."""
    d = wmt22_ende_dir()
    if d is None:
        pytest.skip(missing_data_reason())
    ref = read_lines(d / "ref.A.txt")
    systems = {p.stem: read_lines(p) for p in sorted((d / "sys").glob("*.txt"))}
    for name, hyps in systems.items():
        assert len(hyps) == len(ref), f"{name}: {len(hyps)} lines vs {len(ref)} in ref.A.txt"
    return {"dir": d, "ref": ref, "systems": systems}


@pytest.fixture(scope="session")
def tok13a():
    """sacrebleu's own 13a tokenizer, applied as sacrebleu preprocesses (rstrip, then tokenize),
    giving token lists for the peers that only take pre-split input."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    tok = Tokenizer13a()

    def split(lines):
        return [tok(line.rstrip()).split() for line in lines]
    return split


_MACHINE_AT_START = {}


def pytest_sessionstart(session):
    # the load average before any benchmark ran: other processes competing for the cores
    _MACHINE_AT_START.update(machine())


def pytest_benchmark_update_json(config, benchmarks, output_json):
    m = dict(_MACHINE_AT_START or machine())
    m["loadavg_at_start"] = m.pop("loadavg", None)
    m["loadavg_at_end"] = machine()["loadavg"]
    output_json["cybleu_bench"] = {"machine": m, "versions": versions(),
                                   "slow_rounds": SLOW_ROUNDS, "fast_rounds": FAST_ROUNDS}


def pytest_report_header(config):
    m = machine()
    return (f"cybleu benches: {m['cpu']}, {m['usable_cores']} usable cores, {m['python']}; "
            f"data: {shared_data_dir()}")
