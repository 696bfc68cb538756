"""cybleu.ids against sacreBLEU 2.6.0 on the whitespace-joined IDs (tokenize='none'), bit for bit,
on the live backend; input forms, trimming, mergeable statistics, threads and bad input."""
import array
import pickle
import struct
import threading

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from cybleu import ids

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOKENS = st.sampled_from([1, 2, 3, 7, 2**32 - 1])
SEQ = st.lists(TOKENS, max_size=8)
SMOOTH = st.sampled_from([("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None),
                          ("add-k", 2), ("none", None)])
PAD, EOS = 0, 9


def joined(seq):
    return " ".join(map(str, seq))


def bits(values):
    return [struct.pack("<d", v) for v in values]


def sacre_sentence(hyps, refs_per_hyp, max_order=4, smooth=("exp", None), effective=True):
    bleu = SacreBLEU(tokenize="none", max_ngram_order=max_order, smooth_method=smooth[0],
                     smooth_value=smooth[1], effective_order=effective)
    return [bleu.sentence_score(joined(h), [joined(r) for r in refs]).score
            for h, refs in zip(hyps, refs_per_hyp)]


def padded(rows, width, left=0):
    """2-D array: `left` pads, the row, an eos, then pads up to the width."""
    out = np.full((len(rows), width), PAD, dtype=np.int64)
    for i, row in enumerate(rows):
        out[i, left:left + len(row)] = row
        if left + len(row) < width:
            out[i, left + len(row)] = EOS
    return out


@SETTINGS
@given(st.lists(st.tuples(SEQ, st.lists(SEQ, min_size=1, max_size=3)), min_size=1, max_size=5),
       st.integers(1, 5), SMOOTH, st.booleans())
def test_sentence_bleu_matches_sacrebleu(data, max_order, smooth, effective):
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    got = ids.sentence_bleu(hyps, refs, max_order=max_order, smooth_method=smooth[0],
                            smooth_value=smooth[1], effective_order=effective)
    assert got.dtype == np.float64
    assert bits(got) == bits(sacre_sentence(hyps, refs, max_order, smooth, effective))


@SETTINGS
@given(st.lists(st.tuples(SEQ, SEQ), min_size=1, max_size=5), st.integers(0, 2),
       st.integers(1, 2))
def test_padded_arrays_with_pad_and_eos_at_the_edges(pairs, left, n_threads):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    width = left + 10
    got = ids.sentence_bleu(padded(hyps, width, left), padded(refs, width), pad_id=PAD,
                            eos_id=EOS, n_threads=n_threads)
    assert bits(got) == bits(sacre_sentence(hyps, [[r] for r in refs]))


@SETTINGS
@given(st.lists(st.tuples(SEQ, st.lists(SEQ, min_size=1, max_size=3)), min_size=1, max_size=6),
       SMOOTH)
def test_corpus_bleu_matches_sacrebleu(data, smooth):
    hyps = [h for h, _ in data]
    width = max(len(r) for _, r in data)
    streams = [[joined(r[k]) if k < len(r) else None for _, r in data] for k in range(width)]
    want = sacrebleu.corpus_bleu([joined(h) for h in hyps], streams, tokenize="none",
                                 smooth_method=smooth[0], smooth_value=smooth[1])
    got = ids.corpus_bleu(hyps, [r for _, r in data], smooth_method=smooth[0],
                          smooth_value=smooth[1])
    assert bits([got.score]) == bits([want.score])
    assert (got.counts, got.totals, got.sys_len, got.ref_len) == \
        (want.counts, want.totals, want.sys_len, want.ref_len)
    assert str(got) == str(want)


@SETTINGS
@given(st.lists(SEQ, min_size=1, max_size=5), st.lists(SEQ, min_size=1, max_size=5),
       st.integers(1, 2))
def test_pairwise_equals_sentence_bleu_per_pair(hyps, refs, n_threads):
    got = ids.pairwise_bleu(hyps, refs, n_threads=n_threads)
    assert got.shape == (len(hyps), len(refs))
    for i, h in enumerate(hyps):
        assert bits(got[i]) == bits(ids.sentence_bleu([h] * len(refs), refs))
    assert bits(ids.pairwise_bleu(hyps).ravel()) == \
        bits(ids.pairwise_bleu(hyps, hyps).ravel())


@SETTINGS
@given(st.lists(SEQ, min_size=2, max_size=6))
def test_self_bleu_is_sacrebleu_against_all_others(sentences):
    got = ids.self_bleu(sentences)
    want = sacre_sentence(sentences, [sentences[:i] + sentences[i + 1:]
                                      for i in range(len(sentences))])
    assert bits(got) == bits(want)


def test_stats_add_pickle_and_round_trip_through_numpy():
    rng = np.random.default_rng(1)
    hyps = [rng.integers(1, 5, rng.integers(0, 12)).tolist() for _ in range(40)]
    refs = [rng.integers(1, 5, rng.integers(1, 12)).tolist() for _ in range(40)]
    whole = ids.corpus_stats(hyps, refs)
    parts = [ids.corpus_stats(hyps[i:i + 7], refs[i:i + 7]) for i in range(0, 40, 7)]
    assert sum(parts) == whole
    assert parts[0] + parts[1] + sum(parts[2:]) == whole
    back = ids.BLEUStats.from_numpy(whole.to_numpy())
    assert back == whole and pickle.loads(pickle.dumps(whole)) == whole
    assert str(whole.score()) == str(ids.corpus_bleu(hyps, refs))
    acc = ids.BLEUAccumulator()
    for i in range(0, 40, 7):
        acc.update(hyps[i:i + 7], refs[i:i + 7])
    assert str(acc.compute()) == str(sacrebleu.corpus_bleu(
        [joined(h) for h in hyps], [[joined(r) for r in refs]], tokenize="none"))
    acc.reset()
    assert acc.stats.to_numpy().tolist() == [0] * 10
    with pytest.raises(ValueError, match="cannot add statistics of max order 4 and 2"):
        whole + ids.corpus_stats(hyps, refs, max_order=2)


HYPS = [[5, 6, 7, 8], [5, 5, 6], [], [2**32 - 1, 4]]
REFS = [[5, 6, 7], [5, 6], [1], [2**32 - 1, 4]]


def want_hyps():
    return ids.sentence_bleu(HYPS, REFS)


class DLPackOnly:
    """An object exposing only __dlpack__ (as a CPU tensor from any framework would)."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kwargs):
        return self._arr.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()


def as_2d(rows, dtype):
    return padded(rows, 6).astype(dtype)


@pytest.mark.parametrize("make", [
    lambda rows: as_2d(rows, np.uint32),
    lambda rows: as_2d(rows, np.int64),
    lambda rows: DLPackOnly(as_2d(rows, np.uint32)),
    lambda rows: memoryview(as_2d(rows, np.uint32)),
    lambda rows: [np.array(r, dtype=np.uint64) for r in rows],
    lambda rows: [array.array("Q", r) for r in rows],
    lambda rows: ids.Ragged(np.concatenate([np.array(r, dtype=np.uint32) for r in rows]),
                            np.cumsum([0] + [len(r) for r in rows])),
], ids=["uint32", "int64", "dlpack", "buffer", "row-arrays", "row-buffers", "ragged"])
def test_input_forms_agree(make):
    got = ids.sentence_bleu(make(HYPS), make(REFS), pad_id=PAD, eos_id=EOS)
    assert bits(got) == bits(want_hyps())


def test_uint32_and_int32_batches_are_read_without_a_copy():
    arr = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.uint32)
    flat, _, _ = ids._batch(arr, "hyps", None, None)
    assert np.shares_memory(flat, arr)
    arr32 = arr.astype(np.int32)
    assert np.shares_memory(ids._batch(arr32, "hyps", None, None)[0], arr32)


def test_torch_tensors():
    torch = pytest.importorskip("torch", reason="torch is not installed (it is in the bench "
                                                "extra, not the test extra)")
    hyps = torch.tensor(as_2d(HYPS, np.int64))
    refs = torch.tensor(as_2d(REFS, np.int64))
    got = ids.sentence_bleu(hyps, refs, pad_id=PAD, eos_id=EOS)
    assert bits(got) == bits(want_hyps())


def test_multiple_references_fixed_and_ragged():
    hyps = [[1, 2, 3], [4, 5]]
    refs = [[[1, 2], [1, 2, 3, 4]], [[4], [5, 4]]]
    want = sacre_sentence(hyps, refs)
    fixed = np.array([padded(r, 5) for r in refs])            # (batch, n_refs, length)
    assert bits(ids.sentence_bleu(hyps, fixed, pad_id=PAD, eos_id=EOS)) == bits(want)
    assert bits(ids.sentence_bleu(hyps, refs)) == bits(want)
    ragged = [[[1, 2, 3]], [[4], [5, 4], [4, 5]]]
    assert bits(ids.sentence_bleu(hyps, ragged)) == bits(sacre_sentence(hyps, ragged))
    grouped = ids.Ragged([1, 2, 3, 4, 5, 4, 4, 5], [0, 3, 4, 6, 8], groups=[0, 1, 4])
    assert bits(ids.sentence_bleu(hyps, grouped)) == bits(sacre_sentence(hyps, ragged))


def test_negative_pad_such_as_minus_100_is_trimmed():
    labels = np.array([[5, 6, 7, -100, -100], [-100, 5, 6, 7, -100]])
    got = ids.sentence_bleu(labels, [[5, 6, 7], [5, 6, 7]], pad_id=-100)
    assert bits(got) == bits(sacre_sentence([[5, 6, 7]] * 2, [[[5, 6, 7]]] * 2))


@pytest.mark.parametrize("hyps, refs, error, message", [
    (np.ones((2, 3)), [[1], [1]], TypeError, "hyps must hold integer token IDs"),
    ([[1, -2]], [[1]], ValueError, "hyps holds a negative token ID"),
    ([[2**32]], [[1]], ValueError, "hyps holds a token ID above 2\\*\\*32-1"),
    (np.ones((2, 2, 2), dtype=np.int64), [[1], [1]], ValueError, "hyps must be a 2-D"),
    (np.ones(3, dtype=np.int64), [[1]], ValueError, "hyps must be a 2-D"),
    ([[1], [2]], [[1]], ValueError, "2 hypotheses but references for 1"),
    ([[1], [2]], [[[1]]], ValueError, "2 hypotheses but references for 1"),
    ([1, 2], [[1], [2]], TypeError, "hyps\\[0\\] must be a sequence of token IDs"),
    ([[1.5]], [[1]], TypeError, "hyps\\[0\\] must hold integer token IDs"),
    ([[1]], [[]], None, None),
])
def test_bad_input_raises_a_clear_error(hyps, refs, error, message):
    if error is None:
        assert ids.sentence_bleu(hyps, refs).tolist() == [0.0]
        return
    with pytest.raises(error, match=message):
        ids.sentence_bleu(hyps, refs)


def test_threads_and_concurrent_callers_give_identical_results():
    rng = np.random.default_rng(7)
    hyps = rng.integers(0, 8, (64, 50)).astype(np.uint32)
    refs = rng.integers(0, 8, (64, 50)).astype(np.uint32)
    want = bits(ids.sentence_bleu(hyps, refs))
    for n in (2, 3, 8, 100):
        assert bits(ids.sentence_bleu(hyps, refs, n_threads=n)) == want
    pair_want = bits(ids.pairwise_bleu(hyps[:20], refs[:20]).ravel())
    results = []

    def work():
        results.append((bits(ids.sentence_bleu(hyps, refs, n_threads=2)),
                        bits(ids.pairwise_bleu(hyps[:20], refs[:20], n_threads=2).ravel())))

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [(want, pair_want)] * 6


@SETTINGS
@given(st.lists(st.tuples(SEQ, st.lists(SEQ, min_size=1, max_size=2)), min_size=1, max_size=4),
       st.lists(st.sampled_from([0.1, 0.25, 0.5, 1.0, 3.0]), min_size=4, max_size=4), SMOOTH,
       st.booleans())
def test_weights_follow_sacrebleu_precisions(data, weights, smooth, effective):
    import math
    hyps = [h for h, _ in data]
    refs = [r for _, r in data]
    got = ids.sentence_bleu(hyps, refs, weights=weights, smooth_method=smooth[0],
                            smooth_value=smooth[1], effective_order=effective)
    bleu = SacreBLEU(tokenize="none", smooth_method=smooth[0], smooth_value=smooth[1],
                     effective_order=effective)
    want = []
    for h, r in zip(hyps, refs):
        s = bleu.sentence_score(joined(h), [joined(x) for x in r])
        used = next((n for n in range(4) if s.totals[n] == 0), 4) if effective else 4
        if s.score == 0.0 or used == 0 or 0.0 in s.precisions[:used] or len(set(weights)) == 1:
            want.append(s.score if len(set(weights)) == 1 else 0.0 * s.bp)
            continue
        want.append(s.bp * math.exp(sum([w * math.log(p) for w, p in
                                          zip(weights, s.precisions[:used])])
                                     / sum(weights[:used])))
    assert bits(got) == bits(want)


@pytest.mark.parametrize("weights, error", [([1, 2], ValueError), ([1, 1, 1, -1], ValueError),
                                             (["a"] * 4, TypeError), (5, TypeError)])
def test_bad_weights(weights, error):
    with pytest.raises(error, match="weights"):
        ids.sentence_bleu([[1]], [[1]], weights=weights)


@pytest.mark.parametrize("n_threads", [1, 2, 3])
def test_pairwise_bleu_of_a_batch_with_itself_sums_each_pair_once(n_threads):
    """Against itself (refs None, or the same object) the core sums each unordered pair's
    clipped matches once and writes both cells: every cell as sentence_bleu of that pair, bit for
    bit, and as the same batch given as a separate copy."""
    rng = np.random.default_rng(7)
    batch = [rng.integers(0, 6, size=int(rng.integers(0, 12))).tolist() for _ in range(120)]
    batch[3] = batch[5][:]                    # a repeated sentence, and an empty one
    batch[4] = []
    copy = [row[:] for row in batch]
    full = ids.pairwise_bleu(batch, copy, n_threads=n_threads)
    for got in (ids.pairwise_bleu(batch, n_threads=n_threads),
                ids.pairwise_bleu(batch, batch, n_threads=n_threads)):
        assert got.tobytes() == full.tobytes()
    for i in range(0, 120, 7):             # 120 sentences: enough work for three threads
        for j in range(120):
            assert full[i, j] == ids.sentence_bleu([batch[i]], [batch[j]])[0]
