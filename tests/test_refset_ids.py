"""A cached RefSet interns a corpus' references once, against one vocabulary that grows as it reads
them (its table rehashed, its characters moved): every statistic must equal the streamed path's,
segment by segment, and the twin's, on corpora big enough for the vocabulary to grow many times,
with hypothesis tokens that only other segments' references have."""
import pickle
import random

import pytest

from cybleu._backend import core


def _corpus(seed, n_segments=1500, vocab=4000):
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdéfg\u0100\U0001f600.,-1") for _ in range(rng.randint(1, 9)))
             for _ in range(vocab)]

    def line():
        return " ".join(rng.choice(words) for _ in range(rng.randint(0, 30)))
    refs = [[line() for _ in range(rng.randint(1, 3))] for _ in range(n_segments)]
    # hypotheses built from their own references and from other segments' words
    hyps = [" ".join(rng.choice(seg[0].split() + [rng.choice(words)] * 3) for _ in range(rng.randint(0, 25)))
            for seg in refs]
    return hyps, refs


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("tokenize", ["13a", "none", "char"])
def test_cached_equals_streamed(seed, tokenize):
    hyps, refs = _corpus(seed)
    refset = core.RefSet(refs, tokenize, False, 4)
    streamed = core.segment_stats(hyps, refs, tokenize, False, 4)
    assert refset.segment_stats(hyps) == streamed
    assert refset.corpus_stats(hyps) == [sum(col) for col in zip(*streamed)]
    # twice in a row (the workspace keeps its marks between calls), and on two threads
    assert list(refset.sentence_scores(hyps, n_threads=2)) == \
        list(core.sentence_scores(hyps, refs, tokenize))
    copy = pickle.loads(pickle.dumps(refset))
    assert copy.segment_stats(hyps) == streamed


def test_grouped_candidates_equal_one_at_a_time():
    hyps, refs = _corpus(3, n_segments=600)
    k = 4
    rng = random.Random(4)
    cands = [rng.choice(hyps) for _ in range(k * len(refs))]
    refset = core.RefSet(refs)
    one_by_one = core.sentence_scores(cands, [seg for seg in refs for _ in range(k)])
    assert list(refset.grouped_sentence_scores(cands, k)) == list(one_by_one)


def test_two_sets_share_a_workspace():
    """A second, smaller set after a big one: the marks of the first must not leak into it."""
    hyps, refs = _corpus(5, n_segments=800)
    big = core.RefSet(refs)
    small = core.RefSet(refs[:50])
    for _ in range(2):
        assert big.segment_stats(hyps) == core.segment_stats(hyps, refs)
        assert small.segment_stats(hyps[:50]) == core.segment_stats(hyps[:50], refs[:50])
