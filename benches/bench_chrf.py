"""chrF and chrF++ groups: one WMT17 en-de system (sacreBLEU's test fixture, 3,004 segments)
against its reference, and a 128 x 128 pairwise matrix for MBR.

  chrf-corpus / chrfpp-corpus       corpus chrF / chrF++ (baseline: sacrebleu.corpus_chrf)
  chrf-sentence / chrfpp-sentence   sentence chrF of every segment (baseline: one reused
                                    sacrebleu CHRF's sentence_score loop)
  chrf-pairwise-128x128             each of 128 hypotheses against each of 128 references alone
                                    (baseline: sacrebleu sentence_score loop on a slice; fastchrf
                                    when installed)
  chrfpp-pairwise-128x128           the same for chrF++ (fastchrf has chrF only)

Every benchmark checks its result against sacrebleu's, so a fast wrong answer cannot pass.
"""
import pytest

from _common import read_lines, shared_data_dir
from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run

PAIRS = 128
SLICE_PAIRS = 1024


@pytest.fixture(scope="module")
def wmt17():
    d = shared_data_dir() / "sacrebleu-fixtures" / "wmt17-en-de"
    systems = sorted((d / "sys").glob("*.txt"))
    if not (d / "ref.txt").is_file() or len(systems) < 2:
        pytest.skip(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return {"ref": read_lines(d / "ref.txt"), "hyps": read_lines(systems[0]),
            "other": read_lines(systems[1]), "system": systems[0].stem}


def _segments(wmt17):
    return dict(segments=len(wmt17["hyps"]), systems=1)


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_corpus_cybleu(benchmark, wmt17, word_order):
    import sacrebleu

    import cybleu
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-corpus"
    label(benchmark, "cybleu", f"cybleu.corpus_chrf ({cybleu.BACKEND} kernel)", **_segments(wmt17))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    want = sacrebleu.corpus_chrf(hyps, [ref], word_order=word_order).score
    got = run(benchmark, lambda: cybleu.corpus_chrf(hyps, [ref], word_order=word_order).score,
              FAST_ROUNDS)
    assert got == want


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_corpus_sacrebleu(benchmark, wmt17, word_order):
    import sacrebleu
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-corpus"
    label(benchmark, "sacrebleu", "sacrebleu.corpus_chrf", baseline=True, **_segments(wmt17))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    run(benchmark, lambda: sacrebleu.corpus_chrf(hyps, [ref], word_order=word_order).score,
        SLOW_ROUNDS)


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_sentence_cybleu(benchmark, wmt17, word_order):
    from sacrebleu.metrics import CHRF

    import cybleu
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-sentence"
    label(benchmark, "cybleu", f"cybleu.batch_sentence_chrf ({cybleu.BACKEND} kernel, one call)",
          pairs=len(wmt17["hyps"]), full_pairs=len(wmt17["hyps"]))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    got = run(benchmark, lambda: cybleu.batch_sentence_chrf(hyps, [ref], word_order=word_order),
              FAST_ROUNDS)
    oracle = CHRF(word_order=word_order)
    for i in range(0, len(hyps), 101):
        assert got[i] == oracle.sentence_score(hyps[i], [ref[i]]).score


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_sentence_sacrebleu(benchmark, wmt17, word_order):
    from sacrebleu.metrics import CHRF
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-sentence"
    label(benchmark, "sacrebleu", "sacrebleu CHRF().sentence_score loop (one object)",
          baseline=True, pairs=len(wmt17["hyps"]), full_pairs=len(wmt17["hyps"]))
    hyps, ref = wmt17["hyps"], wmt17["ref"]
    metric = CHRF(word_order=word_order)
    run(benchmark, lambda: [metric.sentence_score(h, [r]).score for h, r in zip(hyps, ref)],
        SLOW_ROUNDS)


def _pairwise_data(wmt17):
    return wmt17["hyps"][:PAIRS], wmt17["other"][:PAIRS]


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_pairwise_cybleu(benchmark, wmt17, word_order):
    import sacrebleu

    import cybleu
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-pairwise-128x128"
    label(benchmark, "cybleu", f"cybleu.pairwise_chrf ({cybleu.BACKEND} kernel)",
          pairs=PAIRS * PAIRS, full_pairs=PAIRS * PAIRS)
    hyps, refs = _pairwise_data(wmt17)
    got = run(benchmark, lambda: cybleu.pairwise_chrf(hyps, refs, word_order=word_order),
              FAST_ROUNDS)
    for i in range(0, PAIRS, 13):
        for j in range(0, PAIRS, 17):
            assert got[i, j] == sacrebleu.sentence_chrf(hyps[i], [refs[j]],
                                                        word_order=word_order).score


@pytest.mark.parametrize("word_order", [0, 2], ids=["chrf", "chrfpp"])
def bench_pairwise_sacrebleu(benchmark, wmt17, word_order):
    from sacrebleu.metrics import CHRF
    benchmark.group = f"{'chrfpp' if word_order else 'chrf'}-pairwise-128x128"
    label(benchmark, "sacrebleu", "sacrebleu CHRF().sentence_score loop", baseline=True,
          pairs=SLICE_PAIRS, full_pairs=PAIRS * PAIRS)
    hyps, refs = _pairwise_data(wmt17)
    metric = CHRF(word_order=word_order)
    pairs = [(h, r) for h in hyps for r in refs][:SLICE_PAIRS]
    run(benchmark, lambda: [metric.sentence_score(h, [r]).score for h, r in pairs], SLOW_ROUNDS)


def bench_pairwise_fastchrf(benchmark, wmt17):
    fastchrf = pytest.importorskip("fastchrf")
    import numpy as np
    import sacrebleu
    benchmark.group = "chrf-pairwise-128x128"
    label(benchmark, "fastchrf", "fastchrf.pairwise_chrf", pairs=PAIRS * PAIRS,
          full_pairs=PAIRS * PAIRS)
    hyps, refs = _pairwise_data(wmt17)
    got = np.array(run(benchmark, lambda: fastchrf.pairwise_chrf([hyps], [refs]),
                       FAST_ROUNDS)[0])
    diff = max(abs(got[i, j] - sacrebleu.sentence_chrf(hyps[i], [refs[j]]).score)
               for i in range(0, PAIRS, 13) for j in range(0, PAIRS, 17))
    benchmark.extra_info["max_abs_diff_vs_sacrebleu"] = diff
    assert diff < 1e-9
