"""groups "nltk-corpus", "nltk-sentence" and "hf-corpus": cybleu's compatibility modes against the
libraries they reproduce, measured in the same run.

- nltk-corpus: `corpus_bleu` of each of the 8 WMT22 en-de systems against reference A (16,296
  segments per round), default weights and smoothing, on sacrebleu's 13a tokens prepared
  beforehand (both sides take token lists; tokenization is not timed).
- nltk-sentence: a `sentence_bleu` loop (method1) over every segment of 2 systems (4,074 pairs).
- hf-corpus: evaluate's `bleu` (13a tokenizer included, timed) on the 8 systems, against
  bleuscore, the same formula in Rust.

cybleu's results are asserted equal to nltk's bit for bit; cybleu.hf's precisions and lengths
equal bleuscore's.
"""
import pytest

from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run


def _exact(scores):
    """Scores as comparable exact values: (type, hex) for floats, nltk's int 0 as itself."""
    return [(type(x), float.hex(x) if type(x) is float else x) for x in scores]


@pytest.fixture(scope="module")
def corpus_tok(wmt22, tok13a):
    ref = [[r] for r in tok13a(wmt22["ref"])]
    return {"ref": ref, "systems": [tok13a(h) for h in wmt22["systems"].values()]}


def _corpus_workload(corpus_tok):
    return dict(systems=len(corpus_tok["systems"]),
                segments=sum(len(h) for h in corpus_tok["systems"]))


@pytest.fixture(scope="module")
def nltk_corpus_expected(corpus_tok):
    from nltk.translate.bleu_score import corpus_bleu
    return [corpus_bleu(corpus_tok["ref"], hyps) for hyps in corpus_tok["systems"]]


def bench_nltk_corpus_cybleu(benchmark, corpus_tok, nltk_corpus_expected):
    import cybleu
    from cybleu.nltk import corpus_bleu
    benchmark.group = "nltk-corpus"
    label(benchmark, "cybleu", f"cybleu.nltk.corpus_bleu ({cybleu.BACKEND} core)",
          **_corpus_workload(corpus_tok))
    ref, systems = corpus_tok["ref"], corpus_tok["systems"]
    got = run(benchmark, lambda: [corpus_bleu(ref, hyps) for hyps in systems], FAST_ROUNDS)
    assert _exact(got) == _exact(nltk_corpus_expected)


def bench_nltk_corpus_nltk(benchmark, corpus_tok, nltk_corpus_expected):
    from nltk.translate.bleu_score import corpus_bleu
    benchmark.group = "nltk-corpus"
    label(benchmark, "nltk", "nltk.translate.bleu_score.corpus_bleu", baseline=True,
          **_corpus_workload(corpus_tok))
    ref, systems = corpus_tok["ref"], corpus_tok["systems"]
    got = run(benchmark, lambda: [corpus_bleu(ref, hyps) for hyps in systems], SLOW_ROUNDS)
    assert got == nltk_corpus_expected


@pytest.fixture(scope="module")
def sentence_pairs(corpus_tok):
    hyps = [h for hyps in corpus_tok["systems"][:2] for h in hyps]
    refs = corpus_tok["ref"] * 2
    return {"hyps": hyps, "refs": refs, "systems": 2}


def _sentence_workload(pairs):
    return dict(systems=pairs["systems"], pairs=len(pairs["hyps"]), full_pairs=len(pairs["hyps"]))


def _sentence_loop(module, pairs):
    method1 = module.SmoothingFunction().method1
    sentence_bleu = module.sentence_bleu
    return lambda: [sentence_bleu(r, h, smoothing_function=method1)
                    for r, h in zip(pairs["refs"], pairs["hyps"])]


@pytest.fixture(scope="module")
def nltk_sentence_expected(sentence_pairs):
    from nltk.translate import bleu_score
    return _sentence_loop(bleu_score, sentence_pairs)()


def bench_nltk_sentence_cybleu(benchmark, sentence_pairs, nltk_sentence_expected):
    import cybleu
    from cybleu import nltk as cy_nltk
    benchmark.group = "nltk-sentence"
    label(benchmark, "cybleu", f"cybleu.nltk.sentence_bleu loop, method1 ({cybleu.BACKEND} core)",
          **_sentence_workload(sentence_pairs))
    got = run(benchmark, _sentence_loop(cy_nltk, sentence_pairs), FAST_ROUNDS)
    assert _exact(got) == _exact(nltk_sentence_expected)


def bench_nltk_sentence_nltk(benchmark, sentence_pairs, nltk_sentence_expected):
    from nltk.translate import bleu_score
    benchmark.group = "nltk-sentence"
    label(benchmark, "nltk", "nltk sentence_bleu loop, method1", baseline=True,
          **_sentence_workload(sentence_pairs))
    got = run(benchmark, _sentence_loop(bleu_score, sentence_pairs), SLOW_ROUNDS)
    assert got == nltk_sentence_expected


def _hf_workload(wmt22):
    return dict(systems=len(wmt22["systems"]), segments=sum(len(h) for h in wmt22["systems"].values()))


def bench_hf_cybleu(benchmark, wmt22):
    import cybleu
    from cybleu import hf
    benchmark.group = "hf-corpus"
    label(benchmark, "cybleu", f"cybleu.hf.bleu (13a, {cybleu.BACKEND} core)", **_hf_workload(wmt22))
    refs = [[r] for r in wmt22["ref"]]
    systems = list(wmt22["systems"].values())
    got = run(benchmark, lambda: [hf.bleu(hyps, refs) for hyps in systems], FAST_ROUNDS)
    bleuscore = pytest.importorskip("bleuscore")
    for result, hyps in zip(got, systems):
        want = bleuscore.compute(references=refs, predictions=hyps)
        assert result["precisions"] == want["precisions"]
        assert abs(result["bleu"] - want["bleu"]) <= 4 * abs(want["bleu"]) * 2**-52


def bench_hf_bleuscore(benchmark, wmt22):
    bleuscore = pytest.importorskip("bleuscore")
    benchmark.group = "hf-corpus"
    label(benchmark, "bleuscore", "bleuscore.compute (13a, shortest reference, rayon)", baseline=True,
          **_hf_workload(wmt22))
    refs = [[r] for r in wmt22["ref"]]
    systems = list(wmt22["systems"].values())
    run(benchmark, lambda: [bleuscore.compute(references=refs, predictions=hyps) for hyps in systems],
        FAST_ROUNDS)
