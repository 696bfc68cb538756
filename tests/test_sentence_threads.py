"""batch_sentence_bleu / BLEU.sentence_scores with n_threads (issue 13): the compiled core shares
the chunks of its one-thread path out among threads. Scores are sacreBLEU's sentence_bleu loop's
bit for bit, the same for every thread count, with cached or streamed references, in both cores;
the first error is the one-thread one; n_threads is checked as cybleu.ids checks it."""
import logging
import struct

import numpy as np
import pytest
import sacrebleu

import cybleu
from cybleu.metrics import BLEU
from conftest import both_cores, parity

WORDS = ["the", "cat", "sat", "on", "a", "mat", ",", ".", "don't", "3.5", "(it)", "Über", "&amp;",
         "x-ray", "dog", "ran", "far", "away", "!"]


def corpus(seed, n):
    """n segments of 0-29 words: the core loads at most 512 lines per chunk, so several chunks."""
    rng = np.random.default_rng(seed)

    def line():
        return " ".join(rng.choice(WORDS, int(rng.integers(0, 30))))
    hyps = [line() for _ in range(n)]
    ref_a = [line() for _ in range(n)]
    ref_b = [line() if rng.random() < 0.8 else None for _ in range(n)]
    return hyps, [ref_a, ref_b]


def bits(values):
    return [struct.pack("<d", v) for v in values]


@pytest.fixture(scope="module")
def data():
    return corpus(5, 1300)


def test_scores_equal_sacrebleu_for_every_thread_count(data):
    hyps, refs = data
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    want = bits(sacrebleu.sentence_bleu(h, [r[i] for r in refs if r[i] is not None]).score
                for i, h in enumerate(hyps))
    for n_threads in (1, 2, 3, 8):
        assert bits(cybleu.batch_sentence_bleu(hyps, refs, n_threads=n_threads)) == want
    cached = BLEU(effective_order=True, references=refs)
    assert bits(cached.sentence_scores(hyps, n_threads=2)) == want
    assert bits(BLEU(effective_order=True, tokenize="none", lowercase=True)
                .sentence_scores(hyps, refs, n_threads=3)) == \
        bits(BLEU(effective_order=True, tokenize="none", lowercase=True)
             .sentence_scores(hyps, refs))


def test_compiled_threads_equal_the_twin(data):
    hyps, refs = data
    segments = [[r[i] for r in refs if r[i] is not None] for i in range(len(hyps))]
    one = parity(lambda core: list(core.sentence_scores(hyps, segments, "13a", False, 4, "exp",
                                                        None, True, 2)))
    compiled, _ = both_cores()
    for n_threads in (2, 4):
        assert list(compiled.RefSet(segments).sentence_scores(hyps, "exp", None, True,
                                                              n_threads)) == one


def outcome(call):
    try:
        return ("ok", bits(call()))
    except Exception as err:  # noqa: BLE001 - the comparison is the point
        return ("error", type(err), str(err))


def test_the_first_error_is_the_same_whatever_the_thread_count():
    hyps, refs = corpus(6, 1200)
    no_ref = [list(r) for r in refs]
    no_ref[0][1100], no_ref[1][1100] = None, None
    hyps[1100] = hyps[1100] or "word"
    non_str = list(hyps)
    non_str[900] = 7
    for args in ((hyps, no_ref), (non_str, refs)):
        want = outcome(lambda: cybleu.batch_sentence_bleu(*args))
        assert want[0] == "error"
        for n_threads in (2, 3):
            assert outcome(lambda: cybleu.batch_sentence_bleu(*args, n_threads=n_threads)) == want


@pytest.mark.parametrize("n_threads", [0, -1, True, 2.0, "2", None])
def test_bad_thread_counts(n_threads):
    with pytest.raises(ValueError, match="n_threads must be an integer of at least 1"):
        cybleu.batch_sentence_bleu(["a"], [["a"]], n_threads=n_threads)
    compiled, python = both_cores()
    for core in (compiled, python):
        with pytest.raises(ValueError, match="n_threads must be an integer of at least 1"):
            core.sentence_scores(["a"], [["a"]], "13a", False, 4, "exp", None, True, n_threads)
