"""Token-ID batches given as Python lists (issue 13): the compiled reader (`_idrows`, also inside
the counting threads of `ids_batch_stats`) against the pure-Python reader `_idrows_py` (the reading
cybleu.ids always had: the specification), on rows of ints, numpy integer scalars and 1-D arrays
mixed with every kind of bad value; against sacreBLEU (tokenize='none' on the joined IDs); and the
same results and errors for every thread count."""
import array
import struct

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU

from cybleu import ids
from cybleu._kernels import idrows_py as _idrows_py
from conftest import both_cores, parity

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# good IDs (small, so n-grams repeat; and the uint32 edge) and every kind of value a row may hold
GOOD = st.sampled_from([0, 1, 2, 3, 2**32 - 1])
BAD = st.sampled_from([True, False, -1, 2**32, 2**63, 2**64, -2**63 - 1, 1.0, 2.5, None, "1",
                       b"1", [1], (2,), np.float64(1.0), np.bool_(True), np.int64(-3),
                       np.uint64(2**63 + 5), np.uint64(2**32), np.int8(-1)])
SCALAR_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
                np.intc, np.longlong, np.ulonglong]
TRIM = st.sampled_from([None, 0, 3, -1, -100, 2**32, 2**63, 2**64 - 1])


@st.composite
def good_row(draw):
    """A row of valid IDs in one of the forms a training loop hands over."""
    values = draw(st.lists(GOOD, max_size=9))
    form = draw(st.sampled_from(["list", "tuple", "scalars", "array", "array.array",
                                 "strided"]))
    if form == "tuple":
        return tuple(values)
    if form == "scalars":
        kind = draw(st.sampled_from(SCALAR_TYPES))
        fits = [v for v in values if v <= np.iinfo(kind).max]
        return [kind(v) for v in fits]
    if form == "array":
        dtype = draw(st.sampled_from(["uint32", "int64", "uint64", ">u4", "int32"]))
        return np.array([v for v in values if v <= 2**31 - 1 or dtype != "int32"], dtype=dtype)
    if form == "array.array":
        return array.array("q", values)
    if form == "strided":
        return np.array(values * 2, dtype=np.uint32).reshape(2, -1)[0] if values else \
            np.zeros(0, dtype=np.uint32)
    return values


@st.composite
def any_row(draw):
    """Mostly good rows; sometimes one bad value spliced in, or a bad row altogether."""
    row = draw(good_row())
    roll = draw(st.integers(0, 9))
    if roll == 0:
        return draw(st.sampled_from([None, "1 2", b"\x01\x02", 5, np.int64(5), iter([1]),
                                     np.zeros((2, 2), dtype=np.int64), np.array([1.5]),
                                     np.array([True]), [[1, 2], [3]]]))
    if roll == 1 and isinstance(row, (list, tuple)):
        items = list(row)
        items.insert(draw(st.integers(0, len(items))), draw(BAD))
        return type(row)(items) if isinstance(row, tuple) else items
    return row


ROWS = st.lists(any_row(), min_size=1, max_size=5)


def outcome(call):
    """("ok", result) or ("error", type, message): how a call ends."""
    try:
        return ("ok", call())
    except Exception as err:  # noqa: BLE001 - the comparison is the point
        return ("error", type(err), str(err))


def same(a, b):
    if a[0] == "ok" and b[0] == "ok":
        return all(np.array_equal(x, y) and np.asarray(x).dtype == np.asarray(y).dtype
                   for x, y in zip(a[1], b[1])) if isinstance(a[1], tuple) \
            else np.array_equal(a[1], b[1])
    return a == b


def spec_stats(hyps, refs, pad_id, eos_id, max_order=4):
    """Statistics as cybleu.ids computed them before the compiled reader: the pure-Python reader,
    then the flat layout counted."""
    _, python = both_cores()
    hf, ho = _idrows_py.read_batch(hyps, "hyps", pad_id, eos_id)
    rf, ro, groups = _idrows_py.read_references(refs, ho.size - 1, pad_id, eos_id)
    missing = np.flatnonzero((np.diff(ho) > 0) & (np.diff(groups) == 0))
    if missing.size:
        from cybleu._kernels.ragged import no_reference_error
        raise no_reference_error(int(missing[0]))
    return python.ids_segment_stats(hf, ho, rf, ro, groups, max_order)


@SETTINGS
@given(ROWS, TRIM, TRIM)
def test_read_batch_equals_the_python_reader(rows, pad_id, eos_id):
    compiled, python = both_cores()
    want = outcome(lambda: _idrows_py.read_batch(rows, "hyps", pad_id, eos_id))
    got = outcome(lambda: compiled.read_batch(rows, "hyps", pad_id, eos_id))
    assert same(got, want), (got, want)
    assert same(outcome(lambda: python.read_batch(rows, "hyps", pad_id, eos_id)), want)


@SETTINGS
@given(st.lists(st.tuples(any_row(), st.lists(any_row(), max_size=3)), min_size=1, max_size=4),
       st.booleans(), TRIM, TRIM, st.sampled_from([1, 2, 3]))
def test_batch_stats_equal_the_python_reader_then_counting(data, nested, pad_id, eos_id,
                                                           n_threads):
    """Results and errors (type and message) of the lists path are those of reading with the
    Python reader and counting the flat layout, for any thread count, in both cores."""
    compiled, python = both_cores()
    hyps = [h for h, _ in data]
    refs = [list(rs) for _, rs in data] if nested else [rs[0] if rs else [] for _, rs in data]
    want = outcome(lambda: spec_stats(hyps, refs, pad_id, eos_id))
    for core in (compiled, python):
        got = outcome(lambda: core.ids_batch_stats(hyps, refs, 4, pad_id, eos_id, n_threads))
        assert same(got, want), (core.__name__, got, want)


@SETTINGS
@given(st.lists(st.tuples(good_row(), st.lists(good_row(), min_size=1, max_size=3)),
                min_size=1, max_size=5), st.sampled_from([1, 2]))
def test_sentence_bleu_of_lists_matches_sacrebleu(data, n_threads):
    hyps = [h for h, _ in data]
    refs = [list(rs) for _, rs in data]
    bleu = SacreBLEU(tokenize="none", effective_order=True)

    def joined(row):
        return " ".join(str(int(v)) for v in row)

    want = [bleu.sentence_score(joined(h), [joined(r) for r in rs]).score for h, rs in data]
    got = ids.sentence_bleu(hyps, refs, n_threads=n_threads)
    assert [struct.pack("<d", v) for v in got] == [struct.pack("<d", v) for v in want]


@pytest.mark.parametrize("row, error, message", [
    ([1, True], TypeError, "hyps[1] must hold integer token IDs; element 1 is bool True"),
    ([1, np.bool_(False)], TypeError,
     "hyps[1] must hold integer token IDs; element 1 is bool np.False_"),
    ([1, 2**32], ValueError, "hyps holds a token ID above 2**32-1 (4294967296)"),
    ([1, -5], ValueError,
     "hyps holds a negative token ID (-5) that is not a trimmed pad_id/eos_id"),
    ([1, 2**64], ValueError, "hyps[1] holds a token ID outside 0..2**32-1 (18446744073709551616)"),
    ([1, [2]], TypeError, "hyps[1] must be a flat sequence of token IDs, got list [1, [2]]"),
    ([1, 2.0], TypeError,
     "hyps[1] must hold integer token IDs, got dtype float64 (element 1 is float 2.0)"),
    ([np.uint64(1), np.uint64(2**63)], ValueError,
     "hyps[1] holds a token ID above 2**32-1 (9223372036854775808)"),
    (np.array([1, 2**32], dtype=np.int64), ValueError,
     "hyps holds a token ID above 2**32-1 (4294967296)"),
    (b"\x01", TypeError, "hyps[1] must be a sequence of token IDs, got bytes b'\\x01'"),
])
def test_bad_rows_raise_what_arrays_and_the_python_reader_raise(row, error, message):
    """Each entry point raises the Python reader's error (today's message) for a bad row, whatever
    the thread count; a range error reads the same from a list as from a 2-D array."""
    hyps = [[1, 2, 3], row]
    want = outcome(lambda: _idrows_py.read_batch(hyps, "hyps"))
    assert want == ("error", error, message)
    calls = [lambda nt: ids.sentence_bleu(hyps, [[1, 2], [1]], n_threads=nt),
             lambda nt: ids.corpus_stats(hyps, [[1, 2], [1]], n_threads=nt),
             lambda nt: ids.pairwise_bleu(hyps, n_threads=nt),
             lambda nt: ids.pairwise_bleu([[1]], hyps, n_threads=nt)]
    for call in calls:
        for nt in (1, 2):
            assert outcome(lambda: call(nt))[1:] == (error, message.replace("hyps", "refs")
                                                     if call is calls[3] else message)
    assert outcome(lambda: ids.self_bleu(hyps)) == \
        ("error", error, message.replace("hyps", "sentences"))
    if isinstance(row, list) and type(row[1]) is int and -2**63 <= row[1] < 2**63:
        grid = np.array([[1, 2, 3], [1, int(row[1]), 1]], dtype=np.int64)
        assert outcome(lambda: ids.sentence_bleu(grid, [[1, 2], [1]])) == want


def test_bad_reference_rows_and_missing_references():
    cases = [
        ([[1, 2]], [[1, True]]),
        ([[1, 2]], [[[1, 2], [1, -1]]]),
        ([[1, 2], [3]], [[1], []]),            # hypothesis 1 has no reference
        ([[1, 2], [3]], [[[1]], []]),
        ([[1, 2], [3]], [[1], [3], [4]]),
        ([[1, 2]], [[np.int64(1), 2]]),        # a mixture numpy reads as int64: fine
    ]
    for hyps, refs in cases:
        want = outcome(lambda: spec_stats(hyps, refs, None, None))
        for nt in (1, 2):
            assert same(outcome(lambda: ids.segment_stats(hyps, refs, n_threads=nt)), want)


def test_pad_and_eos_trimmed_in_lists_as_in_arrays():
    rows = [[-100, -100, 5, 6, 0, 7, 2, 9, 9], [5, 6, 7, -100], [-100, -100], [2, 5]]
    refs = [[5, 6, 7, 2, -100], [5, 6, 7], [1], [5]]
    width = max(map(len, rows))
    arr = np.full((len(rows), width), -100, dtype=np.int64)
    for i, r in enumerate(rows):
        arr[i, :len(r)] = r
    for nt in (1, 2):
        got = ids.segment_stats(rows, refs, pad_id=-100, eos_id=2, n_threads=nt)
        assert np.array_equal(got, ids.segment_stats(arr, refs, pad_id=-100, eos_id=2))
        assert np.array_equal(got, spec_stats(rows, refs, -100, 2))


def zipf_batch(seed, n_rows, length):
    rng = np.random.default_rng(seed)
    hyps = [np.minimum(rng.zipf(1.2, length), 5000).tolist() for _ in range(n_rows)]
    refs = [[v if rng.random() < 0.7 else int(rng.integers(1, 5000)) for v in h] for h in hyps]
    return hyps, refs


def test_thread_count_never_changes_results():
    """Big enough for several threads in the compiled core (it gives each at least 32k n-grams):
    every thread count, and lists, numpy scalars and arrays, give identical statistics; pairwise
    and self-BLEU of lists equal those of arrays."""
    hyps, refs = zipf_batch(3, 48, 400)
    want = ids.segment_stats([np.asarray(h, dtype=np.uint32) for h in hyps],
                             [np.asarray(r, dtype=np.uint32) for r in refs])
    scalars = [[np.int64(v) for v in h] for h in hyps]
    for nt in (1, 2, 3, 8):
        assert np.array_equal(ids.segment_stats(hyps, refs, n_threads=nt), want)
        assert np.array_equal(ids.segment_stats(scalars, [refs[i] for i in range(len(refs))],
                                                n_threads=nt), want)
        assert np.array_equal(ids.segment_stats(hyps, [[r] for r in refs], n_threads=nt), want)
    arrays = [np.asarray(h, dtype=np.uint32) for h in hyps[:12]]
    assert np.array_equal(ids.pairwise_bleu(hyps[:12], n_threads=2), ids.pairwise_bleu(arrays))
    assert np.array_equal(ids.self_bleu(hyps[:12]), ids.self_bleu(arrays))


def test_a_bad_row_far_into_a_threaded_batch():
    hyps, refs = zipf_batch(4, 40, 400)
    for where, bad in ((35, 2**40), (5, -7), (39, True)):
        broken = [list(h) for h in hyps]
        broken[where][100] = bad
        want = outcome(lambda: spec_stats(broken, refs, None, None))
        assert want[0] == "error"
        for nt in (1, 2, 4):
            assert outcome(lambda: ids.sentence_bleu(broken, refs, n_threads=nt)) == want


def test_compiled_reader_matches_the_twin_on_parity():
    """`parity` (compiled core vs twin) on read_references forms."""
    refs = [[[1, 2], (3,)], [np.array([4, 5], dtype=np.uint32)], []]
    got = parity(lambda core: [a.tolist() for a in core.read_references(refs, 3)])
    assert got == [[1, 2, 3, 4, 5], [0, 2, 3, 5], [0, 2, 3, 3]]
