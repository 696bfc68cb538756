"""One giant line: BLEU's n-gram table and vocabulary grow with the distinct n-grams and tokens
(they reserved one entry per possible n-gram before), and a line longer than a piece is
tokenized a piece at a time, each piece's tokens interned at once. The statistics must not move:
pieces of every size, tables that grow many times, against the twin; and the memory a call adds
must follow the distinct n-grams, not the line."""
import gc
import random
import tracemalloc

import numpy as np
import pytest

import cybleu
from conftest import _core_c, parity

# what 13a's and intl's rules and replacements react to, spaces of several kinds, and code points that
# make a str of 1, 2 or 4 bytes per character
PIECES = ["a", "b", "1", "2", ".", ",", "-", "&quot;", "&amp;", "&lt;", "<skipped>", "-\n", "\n",
          "\t", " ", " ", " ", "!", "(", "é", "\u00a0", "\u0100", "\u3002", "\U0001f600", "<", "&",
          # intl's classes: numbers (No, Nl), punctuation (Pi) and symbols (Sc, Sk)
          "\u00b2", "\u216b", "\u00ab", "\u20ac", "^"]


def _line(rng, n):
    return "".join(rng.choice(PIECES) for _ in range(n))


@pytest.fixture
def piece_chars():
    """Set the compiled tokenizer's piece size for the test, and put it back after."""
    if _core_c is None:
        pytest.skip("the compiled core is not built in this install")
    from cybleu._kernels import tokenize
    old = tokenize._set_piece_chars(1 << 16)
    yield tokenize._set_piece_chars
    tokenize._set_piece_chars(old)


@pytest.mark.parametrize("tokenize", ["13a", "none", "char", "intl", "zh"])
@pytest.mark.parametrize("piece", [1, 2, 3, 7, 40])
def test_pieces_give_the_whole_lines_statistics(piece_chars, tokenize, piece):
    rng = random.Random(piece * 31 + len(tokenize))
    segments = 300
    refs = [[_line(rng, rng.randint(0, 60)) for _ in range(rng.randint(1, 3))]
            for _ in range(segments)]
    hyps = [rng.choice([_line(rng, rng.randint(0, 60)), refs[s][0] + _line(rng, 5)])
            for s in range(segments)]
    whole = parity(lambda core: core.segment_stats(hyps, refs, tokenize, False, 4))
    cands = [h for h in hyps for _ in range(2)]
    grouped_whole = list(_core_c.RefSet(refs, tokenize).grouped_sentence_scores(cands, 2))
    piece_chars(piece)
    assert _core_c.segment_stats(hyps, refs, tokenize, False, 4) == whole
    refset = _core_c.RefSet(refs, tokenize)
    assert refset.segment_stats(hyps) == whole
    assert list(refset.grouped_sentence_scores(cands, 2)) == grouped_whole
    # lowercased, and a set whose references were cut into pieces scoring whole hypotheses
    assert _core_c.segment_stats(hyps, refs, tokenize, True, 4) == \
        _core_c.RefSet(refs, tokenize, True).segment_stats(hyps)
    cut = _core_c.RefSet(refs, tokenize)
    piece_chars(1 << 16)
    assert cut.segment_stats(hyps) == whole


def test_a_piece_ends_at_a_space_whatever_the_storage(piece_chars):
    """Pieces of a str stored with 1, 2 and 4 bytes per character cut at the same spaces."""
    words = ["x.", "1,5", "-2", "&amp;", "y"]
    for extra in ["", "\u0100", "\U0001f600"]:
        line = " ".join(words[i % 5] + (extra if i % 7 == 0 else "") for i in range(500))
        ref = " ".join(words[(i * 2) % 5] for i in range(400))
        whole = parity(lambda core: core.segment_stats([line], [[ref]], "13a", False, 4))
        piece_chars(9)
        assert _core_c.segment_stats([line], [[ref]], "13a", False, 4) == whole
        piece_chars(1 << 16)


def test_tables_that_grow_past_their_start():
    """More distinct n-grams and reference tokens than the tables start with (2**16): the
    hypothesis table, several references' maxima, best-of's reference table and the token
    vocabulary are rehashed many times."""
    rng = random.Random(5)
    words = [f"w{i}" for i in range(30_000)]
    hyp = " ".join(rng.choice(words) for _ in range(40_000))
    refs = [" ".join(rng.choice(words) for _ in range(35_000)) for _ in range(2)]
    refs.append(hyp[: len(hyp) // 2])
    stats = parity(lambda core: core.segment_stats([hyp, "w1 w2"], [refs, ["w1 w2 w3"]],
                                                   "13a", False, 4))
    assert stats[0][2] > 20_000            # the half-copied reference matches
    refset = _core_c.RefSet([refs, ["w1 w2 w3"]]) if _core_c else None
    if refset is not None:
        assert refset.segment_stats([hyp, "w1 w2"]) == stats
        assert list(refset.grouped_sentence_scores([hyp, refs[2], "w1", "w1 w2"], 2)) == \
            list(_core_c.sentence_scores([hyp, refs[2], "w1", "w1 w2"],
                                         [refs, refs, ["w1 w2 w3"], ["w1 w2 w3"]]))


def test_token_id_rows_past_the_table_start():
    """Token-ID rows with more distinct n-grams than the tables start with: the statistics of
    the same rows written as words, and pairwise scores (the batch's n-gram index grows)."""
    from cybleu import ids
    rng = np.random.default_rng(3)
    rows = [rng.integers(0, 50_000, size=n).astype(np.int64) for n in (30_000, 25_000, 10)]
    refs = [rows[0][:20_000], rng.integers(0, 50_000, size=28_000), rows[2][::-1].copy()]
    words = [" ".join(map(str, r)) for r in rows]
    ref_words = [[" ".join(map(str, r))] for r in refs]
    expect = parity(lambda core: core.segment_stats(words, ref_words, "none", False, 4))
    assert [list(map(int, r)) for r in ids.segment_stats(rows, refs)] == expect
    pair = ids.pairwise_bleu(rows[:2], rows[:2])
    assert float(pair[0][1]) == cybleu.sentence_bleu(words[0], [words[1]], tokenize="none").score


def _added_peak(call):
    """The most memory a call holds at once on top of what was there before it, the workspace's
    buffers growing to the line included."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


@pytest.mark.skipif(cybleu.BACKEND != "cython", reason="the compiled core's own memory")
@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char"])
def test_a_long_line_costs_its_distinct_ngrams(tokenize):
    """A 4 MiB line of eight distinct words against one of the same words: the call adds a few
    bytes per character (4 per token ID on each side, twice that while a buffer doubles), where
    it took about 50 when the n-gram table reserved an entry per possible n-gram and every token
    was kept as characters, offset and hash."""
    words = ("the", "cat", "sat", "on", "a", "mat", "Hello,", "world!")
    n = (4 << 20) // 5
    hyp = " ".join(words[i % 8] for i in range(n))
    ref = " ".join(words[(i + i // 7) % 8] for i in range(n))
    per_char = {"13a": 8, "none": 8, "intl": 8, "char": 24}[tokenize]   # char: every character a token
    for call in (lambda: cybleu.sentence_bleu(hyp, [ref], tokenize=tokenize),
                 lambda: cybleu.BLEU(tokenize=tokenize, references=[[ref]]).corpus_score([hyp], None),
                 lambda: cybleu.best_of([hyp, ref], [[ref]], 2, tokenize=tokenize)):
        assert _added_peak(call) < per_char * len(hyp)


@pytest.mark.skipif(cybleu.BACKEND != "cython", reason="the compiled core's own memory")
def test_a_long_id_row_costs_its_distinct_ngrams():
    row = np.arange(2_000_000, dtype=np.int32) % 8
    ref = (np.arange(2_000_000, dtype=np.int32) * 3) % 8
    from cybleu import ids
    # the rows read as uint32 (4 bytes per ID), nothing per n-gram
    assert _added_peak(lambda: ids.sentence_bleu([row], [ref])) < 2 * (row.nbytes + ref.nbytes)


@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char"])
def test_a_line_past_a_piece_scores_as_sacrebleu(tokenize):
    """Lines past the compiled core's piece size (2**16 code points) at its own size, streamed
    and with cached references, against sacreBLEU itself."""
    sacrebleu = pytest.importorskip("sacrebleu")
    rng = random.Random(len(tokenize))
    hyp = _line(rng, 90_000)
    refs = [_line(rng, 80_000), hyp[:50_000] + _line(rng, 30_000)]
    expect = sacrebleu.sentence_bleu(hyp, refs, tokenize=tokenize)
    got = cybleu.sentence_bleu(hyp, refs, tokenize=tokenize)
    assert (got.score, got.counts, got.totals, got.sys_len, got.ref_len) == \
        (expect.score, expect.counts, expect.totals, expect.sys_len, expect.ref_len)
    expect = sacrebleu.BLEU(tokenize=tokenize).corpus_score([hyp, "a b"], [[refs[0], "a b"],
                                                                          [refs[1], None]])
    cached = cybleu.BLEU(tokenize=tokenize, references=[[refs[0], "a b"], [refs[1], None]])
    assert cached.corpus_score([hyp, "a b"], None).score == expect.score


def test_a_long_chrf_line_scores_as_sacrebleu():
    """chrF and chrF++ strip a long line's whitespace in place: the statistics of sacreBLEU."""
    sacrebleu = pytest.importorskip("sacrebleu")
    rng = random.Random(11)
    hyp = _line(rng, 90_000)
    refs = [_line(rng, 80_000), hyp[:50_000] + _line(rng, 30_000)]
    for word_order in (0, 2):
        expect = sacrebleu.sentence_chrf(hyp, refs, word_order=word_order)
        assert cybleu.sentence_chrf(hyp, refs, word_order=word_order).score == expect.score
    # ordinary lines take a scratch copy, long ones are stripped in place: both in one segment
    # and one corpus
    short = _line(rng, 300)
    for word_order in (0, 2):
        for h, r in ((hyp, [short, refs[0]]), (short, [refs[1], short[::-1]])):
            expect = sacrebleu.sentence_chrf(h, r, word_order=word_order)
            assert cybleu.sentence_chrf(h, r, word_order=word_order).score == expect.score
        hyps = [short, hyp, short[::-1]]
        corpus_refs = [[refs[0], short, refs[1]], [short, refs[1], hyp[:100]]]
        expect = sacrebleu.corpus_chrf(hyps, corpus_refs, word_order=word_order)
        got = cybleu.corpus_chrf(hyps, corpus_refs, word_order=word_order)
        assert got.score == expect.score
