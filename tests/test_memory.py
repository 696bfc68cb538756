"""The core owns its memory: repeated calls, and calls that fail half way, leave traced memory at
its baseline. The compiled core allocates through PyMem_Raw*, which tracemalloc sees."""
import gc
import tracemalloc

import pytest

import cybleu
import cybleu.metrics.bleu as bleu_module
from cybleu._kernels import core_py as _core_py
from conftest import _core_c

CORES = [pytest.param(_core_py, id="python")] + (
    [pytest.param(_core_c, id="cython")] if _core_c is not None else [])
# slack for interpreter-level caches; a leak of 16 bytes per call over 10**5 calls is 1.6 MB
SLACK = 256 * 1024


@pytest.fixture(params=CORES)
def api(request, monkeypatch):
    monkeypatch.setattr(bleu_module, "core", request.param)
    return cybleu


def traced_growth(fn, calls):
    fn()  # warm up caches
    gc.collect()
    tracemalloc.start()
    try:
        gc.collect()
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(calls):
            fn()
        gc.collect()
        return tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()


def calls(api, compiled_calls):
    # the twin owns no C memory, and under tracemalloc it is ~50x slower: fewer rounds suffice
    return compiled_calls if bleu_module.core is _core_c else compiled_calls // 50


def test_100k_sentence_calls_leak_nothing(api):
    hyp, refs = "The quick brown fox jumps over the lazy dog .", ["A quick brown fox jumped.", "x"]
    assert traced_growth(lambda: api.sentence_bleu(hyp, refs), calls(api, 100_000)) < SLACK


def test_failing_calls_leak_nothing(api):
    hyps = ["a b c d"] * 50 + [7] + ["e f"] * 10
    refs = [["a b c"] * 61]

    def fail():
        with pytest.raises(TypeError):
            api.corpus_bleu(hyps, refs)

    assert traced_growth(fail, calls(api, 5_000)) < SLACK


def test_corpus_calls_leak_nothing(api):
    # no tokenized periods: a logged warning would be kept by pytest's log capture
    hyps = [f"segment {i} with words {i % 7} and {i % 13}." for i in range(2000)]
    refs = [[f"segment {i} has words {i % 5} and {i % 13}" for i in range(2000)]]
    assert traced_growth(lambda: api.corpus_bleu(hyps, refs), calls(api, 100)) < SLACK
    assert traced_growth(lambda: api.batch_sentence_bleu(hyps, refs), calls(api, 100)) < SLACK


def test_best_of_calls_leak_nothing(api):
    # best-of-n: references tabled once per segment, candidates looked up; 10^5 candidates in all
    refs = [[f"segment {i} has words {i % 5} and {i % 13}" for i in range(50)]]
    cands = [f"segment {i} with words {i % j} and {i % 13}" for i in range(50) for j in (3, 7)]
    assert traced_growth(lambda: api.best_of(cands, refs, 2), calls(api, 1000)) < SLACK


@pytest.fixture(params=CORES)
def ids_api(request, monkeypatch):
    from cybleu import ids
    monkeypatch.setattr(ids, "core", request.param)
    return ids


def ids_calls(ids_api, compiled_calls):
    return compiled_calls if ids_api.core is _core_c else compiled_calls // 50


def test_token_id_calls_leak_nothing(ids_api):
    import numpy as np
    hyps = np.array([[5, 6, 7, 8, 0], [5, 5, 6, 2, 0]], dtype=np.uint32)
    refs = [[5, 6, 7], [5, 6, 9, 9]]
    # a leaked table or workspace is kilobytes per call: a few thousand calls show it
    n = ids_calls(ids_api, 2_000)
    assert traced_growth(lambda: ids_api.sentence_bleu(hyps, refs, pad_id=0, eos_id=2), n) < SLACK
    assert traced_growth(lambda: ids_api.sentence_bleu(hyps, refs, n_threads=2), n // 10) < SLACK
    assert traced_growth(lambda: ids_api.pairwise_bleu(refs * 8, n_threads=2), n // 10) < SLACK
    assert traced_growth(lambda: ids_api.self_bleu(refs * 8), n // 10) < SLACK

    def fail():
        with pytest.raises(ValueError):
            ids_api.sentence_bleu([[1], [2]], [[1], []][:1])

    def fail_in_core():
        with pytest.raises(ValueError):
            ids_api.self_bleu([[1, 2]])

    assert traced_growth(fail, n // 10) < SLACK
    assert traced_growth(fail_in_core, n // 10) < SLACK


def test_nltk_mode_leaks_nothing():
    """cybleu.nltk and cybleu.hf on the live backend: 100k sentence calls (the pooled scratch is
    reused), repeated corpus calls, and calls failing half way through interning."""
    from cybleu import hf
    from cybleu import nltk as cy_nltk
    compiled = cybleu.BACKEND == "cython"
    refs, hyp = [["a", "quick", "brown", "fox"], list("abcdefg")], ["the", "quick", "brown", "fox", "a"]
    method1 = cy_nltk.SmoothingFunction().method1
    n = 100_000 if compiled else 600
    assert traced_growth(lambda: cy_nltk.sentence_bleu(refs, hyp, smoothing_function=method1), n) < SLACK
    corpus_refs, corpus_hyps = [refs] * 200, [hyp, hyp[::-1]] * 100
    assert traced_growth(lambda: cy_nltk.corpus_bleu(corpus_refs, corpus_hyps, smoothing_function=method1),
                         n // 200) < SLACK
    assert traced_growth(lambda: hf.compute_bleu(corpus_refs, corpus_hyps), n // 200) < SLACK

    def fail():
        with pytest.raises(TypeError):
            cy_nltk.corpus_bleu([refs] * 50 + [[["a", ["unhashable"]]]], [hyp] * 51,
                                smoothing_function=method1)

    assert traced_growth(fail, n // 20) < SLACK


@pytest.mark.parametrize("tokenize", ["intl", "zh", "char"])
def test_new_metric_per_call_stays_flat(api, tokenize):
    # sacreBLEU's per-line lru_cache grows with every distinct line (up to 2**16 per tokenizer
    # object); cybleu caches nothing, so distinct lines through fresh BLEU objects leave no trace
    counter = iter(range(10**9))

    def call():
        i = next(counter)
        api.sentence_bleu(f"第{i}号 «line» {i}.{i % 7} — €{i}", [f"第{i}号 line {i % 9}, ok"],
                          tokenize=tokenize)

    assert traced_growth(call, calls(api, 4_000)) < SLACK
