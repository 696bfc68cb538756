"""TER groups: one WMT17 en-de system (sacreBLEU's test fixture, 3,004 segments) against its
reference, one thread.

  ter-corpus     corpus TER (baseline: sacrebleu.corpus_ter)
  ter-sentence   sentence TER of every segment (baseline: one reused sacrebleu TER's
                 sentence_score loop; cybleu: batch_sentence_ter, one call)

Every benchmark checks its result against sacrebleu's, so a fast wrong answer cannot pass.
"""
import pytest

from _common import read_lines, shared_data_dir
from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run


@pytest.fixture(scope="module")
def wmt17():
    d = shared_data_dir() / "sacrebleu-fixtures" / "wmt17-en-de"
    systems = sorted((d / "sys").glob("*.txt"))
    if not (d / "ref.txt").is_file() or not systems:
        pytest.skip(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return {"ref": read_lines(d / "ref.txt"), "hyps": read_lines(systems[0]),
            "system": systems[0].stem}


@pytest.fixture(scope="module")
def expected(wmt17):
    """sacreBLEU 2.6.0's segment statistics (one slow run shared by the checks)."""
    from sacrebleu.metrics import TER
    oracle = TER()
    rows = oracle._extract_corpus_statistics(wmt17["hyps"], [wmt17["ref"]])
    return {"corpus": oracle._aggregate_and_compute(rows).score,
            "sentence": [oracle._compute_score_from_stats(row).score for row in rows]}


def _segments(wmt17):
    return dict(segments=len(wmt17["hyps"]), systems=1)


def bench_ter_corpus_cybleu(benchmark, wmt17, expected):
    import cybleu
    from cybleu._backend import BACKEND as TER_BACKEND
    benchmark.group = "ter-corpus"
    label(benchmark, "cybleu", f"cybleu.corpus_ter ({TER_BACKEND} kernel)", **_segments(wmt17))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    got = run(benchmark, lambda: cybleu.corpus_ter(hyps, [ref]).score, FAST_ROUNDS)
    assert got == expected["corpus"]


def bench_ter_corpus_sacrebleu(benchmark, wmt17, expected):
    import sacrebleu
    benchmark.group = "ter-corpus"
    label(benchmark, "sacrebleu", "sacrebleu.corpus_ter", baseline=True, **_segments(wmt17))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    got = run(benchmark, lambda: sacrebleu.corpus_ter(hyps, [ref]).score, SLOW_ROUNDS)
    assert got == expected["corpus"]


def bench_ter_sentence_cybleu(benchmark, wmt17, expected):
    import cybleu
    from cybleu._backend import BACKEND as TER_BACKEND
    benchmark.group = "ter-sentence"
    label(benchmark, "cybleu", f"cybleu.batch_sentence_ter ({TER_BACKEND} kernel, one call)",
          pairs=len(wmt17["hyps"]), full_pairs=len(wmt17["hyps"]))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    got = run(benchmark, lambda: cybleu.batch_sentence_ter(hyps, [ref]), FAST_ROUNDS)
    assert got.tolist() == expected["sentence"]


def bench_ter_sentence_sacrebleu(benchmark, wmt17, expected):
    from sacrebleu.metrics import TER
    benchmark.group = "ter-sentence"
    label(benchmark, "sacrebleu", "sacrebleu TER().sentence_score loop (one object)",
          baseline=True, pairs=len(wmt17["hyps"]), full_pairs=len(wmt17["hyps"]))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    metric = TER()
    got = run(benchmark, lambda: [metric.sentence_score(h, [r]).score for h, r in zip(hyps, ref)],
              SLOW_ROUNDS)
    assert got == expected["sentence"]
