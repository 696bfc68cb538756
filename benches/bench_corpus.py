"""group "corpus-13a": corpus BLEU (13a, exp smoothing, 1 reference) of all 8 WMT22 en-de systems
against reference A. One round = score every system, end to end from Python strings.

Every benchmark checks its result against sacrebleu's, so a fast wrong answer cannot pass:
cybleu must be bit-equal; the peers within their known, documented distance.
"""
import pytest

from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run

GROUP = "corpus-13a"


@pytest.fixture(scope="module")
def expected(wmt22):
    """sacrebleu 2.6.0's corpus scores: the specification."""
    import sacrebleu
    ref = wmt22["ref"]
    return [sacrebleu.corpus_bleu(hyps, [ref]).score for hyps in wmt22["systems"].values()]


def _workload(wmt22):
    systems = list(wmt22["systems"].values())
    return dict(systems=len(systems), segments=sum(len(h) for h in systems))


def bench_corpus_cybleu(benchmark, wmt22, expected):
    import cybleu
    benchmark.group = GROUP
    label(benchmark, "cybleu", f"cybleu.corpus_bleu ({cybleu.BACKEND} core)", **_workload(wmt22))
    ref, systems = wmt22["ref"], list(wmt22["systems"].values())

    def round_():
        return [cybleu.corpus_bleu(hyps, [ref]).score for hyps in systems]

    got = run(benchmark, round_, FAST_ROUNDS)
    assert got == expected  # bit-for-bit, every system


def bench_corpus_sacrebleu(benchmark, wmt22, expected):
    import sacrebleu
    benchmark.group = GROUP
    # the compat function builds a fresh BLEU (and a cold tokenizer cache) per call, as users call it
    label(benchmark, "sacrebleu", "sacrebleu.corpus_bleu (fresh BLEU per call)", baseline=True,
          **_workload(wmt22))
    ref, systems = wmt22["ref"], list(wmt22["systems"].values())

    def round_():
        return [sacrebleu.corpus_bleu(hyps, [ref]).score for hyps in systems]

    got = run(benchmark, round_, SLOW_ROUNDS)
    assert got == expected


def bench_corpus_bleuscore(benchmark, wmt22, expected):
    bleuscore = pytest.importorskip("bleuscore")
    benchmark.group = GROUP
    # bleuscore.compute(references, predictions, max_order=4, smooth=False, ref_len_method='shortest'):
    # its own Rust 13a tokenizer, rayon-parallel, score in [0, 1]. ref_len_method='closest' is the
    # sacrebleu brevity rule; smooth=False is what sacrebleu's exp smoothing reduces to when every
    # order has a match, as in all 8 systems here. References are per segment: [[ref], ...]; that
    # regrouping is inside the round since a user has to do it.
    label(benchmark, "bleuscore", "bleuscore.compute (13a, ref_len_method='closest', rayon)",
          **_workload(wmt22))
    ref, systems = wmt22["ref"], list(wmt22["systems"].values())

    def round_():
        refs = [[r] for r in ref]
        return [bleuscore.compute(refs, hyps, ref_len_method="closest")["bleu"] * 100.0
                for hyps in systems]

    got = run(benchmark, round_, FAST_ROUNDS)
    diff = max(abs(g - e) for g, e in zip(got, expected))
    benchmark.extra_info["max_abs_diff_vs_sacrebleu"] = diff
    assert diff < 1e-9  # same statistics; only float rounding differs (seen: <= 2.2e-14)


def bench_corpus_nltk_presplit(benchmark, wmt22, expected, tok13a):
    from nltk.translate.bleu_score import corpus_bleu
    benchmark.group = GROUP
    # nltk takes tokens only: 13a tokenization (sacrebleu's Tokenizer13a) is done here, untimed, so
    # this measures nltk's counting and scoring alone and flatters nltk. Its score differs slightly:
    # a segment shorter than n adds 1 to nltk's n-gram denominator and 0 to sacrebleu's.
    ref_tok = [[r] for r in tok13a(wmt22["ref"])]
    sys_tok = [tok13a(hyps) for hyps in wmt22["systems"].values()]
    label(benchmark, "nltk", "nltk corpus_bleu (pre-split 13a tokens, tokenization not timed)",
          **_workload(wmt22))

    def round_():
        return [float(corpus_bleu(ref_tok, hyps)) * 100.0 for hyps in sys_tok]

    got = run(benchmark, round_, SLOW_ROUNDS)
    diff = max(abs(g - e) for g, e in zip(got, expected))
    benchmark.extra_info["max_abs_diff_vs_sacrebleu"] = diff
    assert diff < 0.05  # seen: <= 0.0076 BLEU
