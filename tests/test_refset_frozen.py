"""A cached RefSet scored more than once tables every segment's reference n-grams (it "freezes"),
and later scores only look the hypotheses' n-grams up there. Every statistic must stay what the
streamed path (references tokenized and counted with each hypothesis) and the twin give: with
counts that clip, several references, empty lines, tokens no reference has, orders past 255, and
segments too large to freeze beside ordinary ones."""
import pickle
import random

import pytest

from cybleu import BACKEND
from cybleu._backend import core
from cybleu._kernels import corpus_py

compiled = pytest.mark.skipif(BACKEND != "cython", reason="the twin has no tables to freeze")


def _corpus(seed, n_segments=400):
    rng = random.Random(seed)
    # few words, so n-grams repeat within a line and counts clip
    words = ["".join(rng.choice("abé\u0100\U0001f600.,") for _ in range(rng.randint(1, 4)))
             for _ in range(40)]

    def line(n):
        return " ".join(rng.choice(words) for _ in range(n))
    refs = [[line(rng.randint(0, 25)) for _ in range(rng.choice([1, 1, 2, 3]))]
            for _ in range(n_segments)]
    hyps = []
    for seg in refs:
        own = " ".join(seg).split()
        toks = [rng.choice(own) if own and rng.random() < 0.7 else rng.choice(words + ["zz", "ÿ"])
                for _ in range(rng.randint(0, 25))]
        hyps.append(" ".join(toks))
    return hyps, refs


@pytest.mark.parametrize("max_order", [1, 2, 4, 7, 300])
@pytest.mark.parametrize("seed", [1, 2])
def test_frozen_equals_streamed_and_twin(seed, max_order):
    hyps, refs = _corpus(seed)
    streamed = core.segment_stats(hyps, refs, "13a", False, max_order)
    twin = corpus_py.RefSet(refs, "13a", False, max_order).segment_stats(hyps)
    assert streamed == twin
    refset = core.RefSet(refs, "13a", False, max_order)
    for _ in range(3):            # the first score before the tables, the others after
        assert refset.segment_stats(hyps) == streamed
    assert refset.corpus_stats(hyps) == [sum(col) for col in zip(*streamed)]
    # other hypotheses against the same tables
    rng = random.Random(seed + 10)
    shuffled = [rng.choice(hyps) for _ in hyps]
    assert refset.segment_stats(shuffled) == core.segment_stats(shuffled, refs, "13a", False,
                                                                max_order)


@compiled
def test_freezes_on_the_second_score_or_the_first_with_reuse():
    hyps, refs = _corpus(3, n_segments=50)
    once = core.RefSet(refs)
    once.corpus_stats(hyps)
    assert not once.frozen        # a set scored once (a sentence score) never pays for tables
    once.corpus_stats(hyps)
    assert once.frozen
    reused = core.RefSet(refs, reuse=True)
    assert not reused.frozen      # construction stays as cheap as before
    reused.corpus_stats(hyps)
    assert reused.frozen
    # a pickled set travels without its tables and builds them again
    copy = pickle.loads(pickle.dumps(reused))
    assert not copy.frozen
    assert copy.segment_stats(hyps) == copy.segment_stats(hyps) == reused.segment_stats(hyps)
    assert copy.frozen


@compiled
def test_a_segment_too_large_to_freeze_is_counted_as_before():
    hyps, refs = _corpus(4, n_segments=60)
    rng = random.Random(5)
    # 5,000 tokens of few words: 20,000 possible 4-grams, past what a frozen segment holds
    giant = " ".join(rng.choice("abcdefgh") for _ in range(5000))
    refs[30] = [giant, "a b c"]
    hyps[30] = " ".join(rng.choice("abcdefghz") for _ in range(3000))
    streamed = core.segment_stats(hyps, refs)
    refset = core.RefSet(refs, reuse=True)
    assert refset.segment_stats(hyps) == streamed
    assert refset.frozen
    assert refset.segment_stats(hyps) == streamed


@compiled
def test_a_set_past_the_budget_is_never_frozen():
    # 900,000 reference tokens at order 4: past the 64 MiB the tables may take
    line = " ".join(f"w{i % 977}" for i in range(300))
    refs = [[line]] * 3000
    hyps = [line[:200]] * 3000
    refset = core.RefSet(refs, reuse=True)
    first = refset.corpus_stats(hyps)
    assert not refset.frozen
    assert refset.corpus_stats(hyps) == first == core.corpus_stats(hyps, refs)
    assert not refset.frozen


def test_frozen_sentence_scores_on_two_threads():
    hyps, refs = _corpus(6, n_segments=1500)
    refset = core.RefSet(refs, reuse=True)
    one = list(refset.sentence_scores(hyps))
    assert list(refset.sentence_scores(hyps, n_threads=2)) == one == \
        list(core.sentence_scores(hyps, refs))


def test_segment_without_references_after_freezing():
    refs = [["a b c"], [], ["a a a a"]]
    refset = core.RefSet(refs, reuse=True)
    assert refset.segment_stats(["a b c", "", "a a"]) == \
        core.segment_stats(["a b c", "", "a a"], refs)
    with pytest.raises(TypeError, match="segment 1 has no reference"):
        refset.corpus_stats(["a b c", "x", "a a"])


@compiled
def test_the_command_lines_slices_build_no_tables():
    from cybleu import streams
    from cybleu.metrics import BLEU
    hyps, refs = _corpus(7, n_segments=80)
    streams_of_refs = [[seg[0] for seg in refs]]
    cached = BLEU(references=streams_of_refs)
    cached.corpus_score(hyps, None)
    assert cached._ref_cache.refset.frozen     # a metric's own references: tabled at once
    sums = [sum(col) for col in zip(*cached._extract_corpus_statistics(hyps, None))]
    # the command line's slices (for one system or many, in the general path or streamed) are
    # never tabled, however often they are scored: the same sums
    slices = streams.make_metrics({"BLEU": BLEU}, {"BLEU": {}}, streams_of_refs,
                                  len(hyps))["BLEU"]
    streamed = streams.StreamedSlices("BLEU", BLEU, {})
    streamed.load(0, streams_of_refs)
    for _ in range(3):
        assert slices.column_sums(0, hyps, None) == sums
        assert streamed.column_sums(0, hyps, None) == sums
    assert not slices.slices[0]._ref_cache.refset.frozen
    assert not streamed.slices[0]._ref_cache.refset.frozen
    # no_tables on a set of any kind
    plain = core.RefSet(refs)
    plain.no_tables()
    for _ in range(3):
        assert plain.segment_stats(hyps) == core.segment_stats(hyps, refs)
    assert not plain.frozen
