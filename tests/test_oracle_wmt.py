"""cybleu against sacreBLEU 2.6.0 (the oracle) on every system of the real WMT data in
../shared/data: per-segment integer statistics equal, corpus and sentence scores bit-identical."""
import functools

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU as SacreBLEU

import cybleu
from conftest import bits, SHARED_DATA, data_path, read_lines

SMOOTHING = [("none", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2),
             ("exp", None)]


def _systems():
    root = SHARED_DATA / "wmt"
    if not root.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(
            reason=f"{root} is absent: the shared WMT data is not on this machine"))]
    return [pytest.param(pair.relative_to(root).as_posix(), sys_file.stem,
                         id=f"{pair.relative_to(root).as_posix()}/{sys_file.stem}")
            for pair in sorted(p for p in root.glob("wmt2*/*") if p.is_dir())
            for sys_file in sorted((pair / "sys").glob("*.txt"))]


SYSTEMS = _systems()
if cybleu.BACKEND == "python":
    # The twin is as slow as sacreBLEU itself; the compiled run covers every system, and the twin
    # is held to the compiled core on all inputs by test_parity. A quarter of the systems (every
    # pair still covered) keeps the suite within its time budget.
    SYSTEMS = SYSTEMS[::4]


def _every(step, start=0):
    """Every step-th system from start; without the data, the placeholder that skips saying why
    (an empty slice would skip with pytest's "got empty parameter set")."""
    return SYSTEMS[start::step] or SYSTEMS[:1]


@functools.lru_cache(maxsize=None)
def _load(pair, system):
    folder = data_path("wmt", pair)
    refs = tuple(tuple(read_lines(p)) for p in sorted(folder.glob("ref.*.txt")))
    return list(read_lines(folder / "sys" / f"{system}.txt")), [list(r) for r in refs]


@functools.lru_cache(maxsize=None)
def _oracle_stats(pair, system, nrefs, tokenize, lowercase, max_order):
    hyps, refs = _load(pair, system)
    oracle = SacreBLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_order)
    return oracle._extract_corpus_statistics(hyps, refs[:nrefs])


def _check_corpus(pair, system, nrefs, tokenize, lowercase, max_orders=(4, 6)):
    hyps, refs = _load(pair, system)
    oracle_rows = _oracle_stats(pair, system, nrefs, tokenize, lowercase, 6)
    for max_order in max_orders:
        ours = cybleu.BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=max_order)
        rows = ours._extract_corpus_statistics(hyps, refs[:nrefs])
        # an order-n count does not depend on the maximum order: compare with the oracle's prefix
        # (test_direct_oracle_runs_at_each_max_order checks that shortcut against the oracle)
        expected = [row[:2] + row[2:2 + max_order] + row[8:8 + max_order] for row in oracle_rows]
        assert rows == expected
    # the float path on these statistics, for every smoothing, effective order and maximum order
    for max_order in range(1, 7):
        totals = [sum(row[i] for row in oracle_rows) for i in range(14)]
        correct, total = totals[2:2 + max_order], totals[8:8 + max_order]
        for method, value in SMOOTHING:
            for eff in (False, True):
                want = SacreBLEU.compute_bleu(list(correct), list(total), totals[0], totals[1],
                                              method, value, eff, max_order)
                got = cybleu.BLEU.compute_bleu(list(correct), list(total), totals[0], totals[1],
                                               method, value, eff, max_order)
                assert bits(got.score) == bits(want.score), (method, value, eff, max_order)
                assert (got.counts, got.totals, got.sys_len, got.ref_len) == \
                    (want.counts, want.totals, want.sys_len, want.ref_len)
                assert [bits(p) for p in got.precisions] == [bits(p) for p in want.precisions]
                assert bits(got.bp) == bits(want.bp)
                assert got.format() == want.format()
    # and end to end, as users call it
    got = cybleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs[:nrefs])
    want = SacreBLEU.compute_bleu(totals[2:6], totals[8:12], totals[0], totals[1], "exp")
    assert bits(got.score) == bits(want.score)


@pytest.mark.parametrize("pair,system", SYSTEMS)
def test_corpus_13a_one_and_two_refs(pair, system):
    _check_corpus(pair, system, 1, "13a", False)
    if len(_load(pair, system)[1]) > 1:
        _check_corpus(pair, system, 2, "13a", False)


@pytest.mark.parametrize("pair,system", SYSTEMS)
def test_corpus_none_tokenizer_lowercase(pair, system):
    _check_corpus(pair, system, 1, "none", True)


@pytest.mark.parametrize("pair,system", _every(4, 1))
def test_compat_corpus_bleu_and_signature(pair, system):
    hyps, refs = _load(pair, system)
    for tokenize, lowercase in (("13a", True), ("none", False)):
        want = sacrebleu.corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
        got = cybleu.corpus_bleu(hyps, refs, tokenize=tokenize, lowercase=lowercase)
        assert bits(got.score) == bits(want.score)
        assert got.format() == want.format()
    oracle, ours = SacreBLEU(), cybleu.BLEU()
    oracle.corpus_score(hyps, refs)
    ours.corpus_score(hyps, refs)
    for short in (False, True):
        want = oracle.get_signature().format(short=short).rsplit(":", 1)[0]
        assert ours.get_signature().format(short=short).rsplit(":", 1)[0] == want


@pytest.mark.parametrize("pair,system", _every(3))
def test_batch_sentence_scores(pair, system):
    """Every segment's sentence BLEU equals the oracle's sentence score of that segment."""
    hyps, refs = _load(pair, system)
    rows = _oracle_stats(pair, system, len(refs), "13a", False, 6)
    for method, value in SMOOTHING:
        for eff in (True, False):
            want = [SacreBLEU.compute_bleu(r[2:6], r[8:12], r[0], r[1], method, value, eff, 4).score
                    for r in rows]
            metric = cybleu.BLEU(smooth_method=method, smooth_value=value, effective_order=eff)
            got = metric.sentence_scores(hyps, refs) if eff else _quiet(metric, hyps, refs)
            assert [bits(x) for x in got] == [bits(x) for x in want], (method, value, eff)
    # and the oracle's own sentence_bleu on a sample of segments, end to end
    batch = cybleu.batch_sentence_bleu(hyps, refs)
    for i in range(0, len(hyps), 97):
        want = sacrebleu.sentence_bleu(hyps[i], [r[i] for r in refs]).score
        assert bits(batch[i]) == bits(want)


def _quiet(metric, hyps, refs):
    import logging
    logger = logging.getLogger("cybleu")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        return metric.sentence_scores(hyps, refs)
    finally:
        logger.setLevel(level)


@pytest.mark.parametrize("pair,system", _every(8))
def test_direct_oracle_runs_at_each_max_order(pair, system):
    """The prefix shortcut above, checked against the oracle run at each maximum order."""
    hyps, refs = _load(pair, system)
    for max_order in range(1, 7):
        want = SacreBLEU(max_ngram_order=max_order)._extract_corpus_statistics(hyps, refs)
        assert cybleu.BLEU(max_ngram_order=max_order)._extract_corpus_statistics(hyps, refs) == want
