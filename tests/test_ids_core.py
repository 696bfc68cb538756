"""core.ids_segment_stats: both cores against each other and against sacreBLEU's statistics of the
whitespace-joined IDs (tokenize='none'), on ragged batches aimed at the edges."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from conftest import parity

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a tiny alphabet so n-grams repeat, and IDs at the edges of uint32 (2**32-1 is an ordinary ID
# here, while the string path's interning reserves it)
TOKENS = st.sampled_from([0, 1, 2, 3, 2**31, 2**32 - 2, 2**32 - 1])
SEQ = st.lists(TOKENS, max_size=9)
SEGMENTS = st.lists(st.tuples(SEQ, st.lists(SEQ, min_size=1, max_size=3)), max_size=6)


def ragged(segments):
    """(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets) of [(hyp, [refs])]."""
    hyp_flat, hyp_off, ref_flat, ref_off, seg_off = [], [0], [], [0], [0]
    for hyp, refs in segments:
        hyp_flat += hyp
        hyp_off.append(len(hyp_flat))
        for ref in refs:
            ref_flat += ref
            ref_off.append(len(ref_flat))
        seg_off.append(len(ref_off) - 1)
    return (np.array(hyp_flat, dtype=np.uint32), hyp_off, np.array(ref_flat, dtype=np.uint32),
            ref_off, seg_off)


def sacre_rows(segments, max_order):
    """sacreBLEU's per-segment statistics of the IDs joined by spaces (None pads ragged refs)."""
    width = max(len(refs) for _, refs in segments)
    hyps = [" ".join(map(str, hyp)) for hyp, _ in segments]
    streams = [[" ".join(map(str, refs[k])) if k < len(refs) else None for _, refs in segments]
               for k in range(width)]
    bleu = SacreBLEU(tokenize="none", max_ngram_order=max_order)
    return [list(map(int, row)) for row in bleu._extract_corpus_statistics(hyps, streams)]


def stats(segments, max_order=4, n_threads=1):
    args = ragged(segments)
    return parity(lambda core: core.ids_segment_stats(*args, max_order, n_threads).tolist())


@SETTINGS
@given(SEGMENTS, st.integers(1, 6))
def test_rows_match_sacrebleu(segments, max_order):
    rows = stats(segments, max_order)
    assert rows == (sacre_rows(segments, max_order) if segments else [])


@SETTINGS
@given(SEGMENTS, st.integers(2, 5))
def test_rows_do_not_depend_on_thread_count(segments, n_threads):
    assert stats(segments, 3, n_threads) == stats(segments, 3, 1)


def test_shape_and_dtype():
    from cybleu._backend import core
    out = core.ids_segment_stats([1, 2, 3], [0, 3], [1, 2], [0, 2], [0, 1], 2)
    assert out.dtype == np.int64 and out.shape == (1, 6)
    assert out.tolist() == [[3, 2, 2, 1, 3, 2]]


def test_no_reference_with_empty_hypothesis_gives_minus_one():
    assert stats([([], [])], 2) == [[0, -1, 0, 0, 0, 0]]


def test_no_reference_with_a_hypothesis_raises():
    with pytest.raises(ValueError, match="segment 1 has a non-empty hypothesis but no reference"):
        stats([([1], [[1]]), ([1], [])], 2)


def test_big_batch_with_threads_matches_one_thread():
    rng = np.random.default_rng(5)
    segments = [(rng.integers(0, 6, rng.integers(0, 40)).tolist(),
                 [rng.integers(0, 6, rng.integers(0, 40)).tolist()
                  for _ in range(rng.integers(1, 3))]) for _ in range(300)]
    assert stats(segments, 4, 4) == stats(segments, 4, 1) == sacre_rows(segments, 4)


@pytest.mark.parametrize("args, error, message", [
    (([1.0], [0, 1], [1], [0, 1], [0, 1]), TypeError, "hyp_flat must hold integer token IDs"),
    (([1], [0, 1], [-1], [0, 1], [0, 1]), ValueError, "ref_flat holds a negative token ID"),
    (([2**32], [0, 1], [1], [0, 1], [0, 1]), ValueError, "hyp_flat holds a token ID above"),
    (([[1]], [0, 1], [1], [0, 1], [0, 1]), ValueError, "hyp_flat must be 1-D"),
    (([1], [0, 2], [1], [0, 1], [0, 1]), ValueError, "hyp_offsets must stay within 0..1"),
    (([1, 2], [0, 2, 1], [1], [0, 1], [0, 1, 1]), ValueError, "hyp_offsets must be non-decreasing"),
    (([1], [], [1], [0, 1], [0, 1]), ValueError, "hyp_offsets must be a 1-D sequence"),
    (([1], [0, 1], [1], [0, 1], [0, 1, 1]), ValueError, "1 hypotheses but seg_ref_offsets describes 2"),
    (([1], [0, 1], [1], [0, 1], [0, 2]), ValueError, "seg_ref_offsets must stay within 0..1"),
    (([1], [0.0, 1.0], [1], [0, 1], [0, 1]), TypeError, "hyp_offsets must hold integers"),
])
def test_bad_layout_raises_the_same_error_in_both_cores(args, error, message):
    with pytest.raises(error, match=message):
        parity(lambda core: core.ids_segment_stats(*args))


@pytest.mark.parametrize("kwargs, message", [
    ({"max_order": 0}, "max_order must be an integer from 1 to 256, got 0"),
    ({"max_order": 2**30}, "max_order must be an integer from 1 to 256, got 1073741824"),
    ({"max_order": 2**31}, "max_order must be an integer from 1 to 256"),
    ({"n_threads": 0}, "n_threads must be an integer of at least 1"),
    ({"n_threads": True}, "n_threads must be an integer of at least 1"),
])
def test_bad_order_or_threads(kwargs, message):
    with pytest.raises(ValueError, match=message):
        parity(lambda core: core.ids_segment_stats([1], [0, 1], [1], [0, 1], [0, 1], **kwargs))


def flat_offsets(sentences):
    flat = [t for s in sentences for t in s]
    return np.array(flat, dtype=np.uint32), np.cumsum([0] + [len(s) for s in sentences])


def joined(ids):
    return " ".join(map(str, ids))


@SETTINGS
@given(st.lists(SEQ, max_size=5), st.lists(SEQ, max_size=5), st.integers(1, 5),
       st.sampled_from(["exp", "floor", "add-k", "none"]), st.booleans(), st.integers(1, 3))
def test_pairwise_equals_sacrebleu_sentence_score_per_pair(hyps, refs, max_order, smooth,
                                                           effective, n_threads):
    got = parity(lambda core: core.ids_pairwise_scores(
        *flat_offsets(hyps), *flat_offsets(refs), max_order, smooth, None, effective,
        n_threads).tolist())
    bleu = SacreBLEU(tokenize="none", max_ngram_order=max_order, smooth_method=smooth,
                     effective_order=effective)
    want = [[bleu.sentence_score(joined(h), [joined(r)]).score for r in refs] for h in hyps]
    assert [[x.hex() for x in row] for row in got] == [[x.hex() for x in row] for row in want]


@SETTINGS
@given(st.lists(SEQ, min_size=2, max_size=7), st.integers(1, 5))
def test_self_stats_equal_sacrebleu_against_all_others(sentences, max_order):
    got = parity(lambda core: core.ids_self_stats(*flat_offsets(sentences), max_order).tolist())
    segments = [(s, sentences[:i] + sentences[i + 1:]) for i, s in enumerate(sentences)]
    assert got == sacre_rows(segments, max_order)


def test_self_stats_of_one_sentence():
    assert stats([([], [])], 2) == parity(
        lambda core: core.ids_self_stats([], [0, 0], 2).tolist())
    with pytest.raises(ValueError, match="segment 0 has a non-empty hypothesis but no reference"):
        parity(lambda core: core.ids_self_stats([5], [0, 1], 2))


@pytest.mark.parametrize("kwargs, message", [
    ({"max_order": 257}, "max_order must be an integer from 1 to 256, got 257"),
    ({"smooth_method": "bogus"}, "unknown smooth_method 'bogus'"),
    ({"smooth_method": "floor", "smooth_value": float("inf")}, "smooth_value must be finite"),
    ({"n_threads": 0}, "n_threads must be an integer of at least 1"),
])
def test_pairwise_bad_scoring_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        parity(lambda core: core.ids_pairwise_scores([1], [0, 1], [1], [0, 1], **kwargs))
