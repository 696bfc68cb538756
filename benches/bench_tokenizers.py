"""groups "tok-<name>": corpus BLEU of all 8 WMT22 systems of a pair against reference A with one of
sacreBLEU's other tokenizers: none on en-de, zh on en-zh, intl on en-de, char and ja-mecab on en-ja. One round =
score every system, end to end from Python strings, through the compat `corpus_bleu` (a fresh
metric per call, as in corpus-13a). Every cybleu result is asserted bit-equal to sacreBLEU's.

For ja-mecab, where MeCab's own segmentation dominates, the group also times MeCab alone on the
same lines (every hypothesis and, once per system as both libraries do, the reference): cybleu's
share of its round is (cybleu - MeCab alone) / cybleu.
"""
import pytest

from _common import read_lines, shared_data_dir
from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run

CASES = {
    # group: (pair, tokenizer)
    "tok-none": ("wmt22/en-de", "none"),
    "tok-zh": ("wmt22/en-zh", "zh"),
    "tok-intl": ("wmt22/en-de", "intl"),
    "tok-char": ("wmt22/en-ja", "char"),
    "tok-ja-mecab": ("wmt22/en-ja", "ja-mecab"),
}


def _load(pair):
    d = shared_data_dir() / "wmt" / pair
    if not (d / "ref.A.txt").is_file():
        pytest.skip(f"benchmark data not found: {d} (set CYBLEU_SHARED_DATA)")
    return read_lines(d / "ref.A.txt"), [read_lines(p) for p in sorted((d / "sys").glob("*.txt"))]


_EXPECTED = {}


def _expected(group):
    """sacrebleu 2.6.0's scores: the specification (computed once per group, untimed)."""
    if group not in _EXPECTED:
        import sacrebleu
        pair, tok = CASES[group]
        ref, systems = _load(pair)
        _EXPECTED[group] = [sacrebleu.corpus_bleu(h, [ref], tokenize=tok).score for h in systems]
    return _EXPECTED[group]


def _needs(tok):
    if tok == "ja-mecab":
        pytest.importorskip("MeCab")
        pytest.importorskip("ipadic")


@pytest.mark.parametrize("group", list(CASES))
def bench_tokenizer_cybleu(benchmark, group):
    import cybleu
    pair, tok = CASES[group]
    _needs(tok)
    ref, systems = _load(pair)
    benchmark.group = group
    label(benchmark, "cybleu", f"cybleu.corpus_bleu(tokenize='{tok}') ({cybleu.BACKEND} core)",
          systems=len(systems), segments=sum(map(len, systems)))
    got = run(benchmark, lambda: [cybleu.corpus_bleu(h, [ref], tokenize=tok).score
                                  for h in systems], FAST_ROUNDS)
    assert got == _expected(group)


@pytest.mark.parametrize("group", list(CASES))
def bench_tokenizer_sacrebleu(benchmark, group):
    import sacrebleu
    pair, tok = CASES[group]
    _needs(tok)
    ref, systems = _load(pair)
    benchmark.group = group
    label(benchmark, "sacrebleu", f"sacrebleu.corpus_bleu(tokenize='{tok}') (fresh BLEU per call)",
          baseline=True, systems=len(systems), segments=sum(map(len, systems)))
    got = run(benchmark, lambda: [sacrebleu.corpus_bleu(h, [ref], tokenize=tok).score
                                  for h in systems], SLOW_ROUNDS)
    assert got == _expected(group)


def bench_mecab_alone(benchmark):
    """MeCab's segmentation of exactly what a corpus_bleu round segments, nothing else."""
    _needs("ja-mecab")
    import ipadic
    import MeCab
    group = "tok-ja-mecab"
    ref, systems = _load(CASES[group][0])
    benchmark.group = group
    label(benchmark, "mecab", "MeCab alone (tagger.parse of every line a round segments)",
          systems=len(systems), segments=sum(map(len, systems)))
    tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
    parse = tagger.parse

    def round_():
        for hyps in systems:
            for line in hyps:
                parse(line.rstrip().strip())
            for line in ref:
                parse(line.rstrip().strip())

    run(benchmark, round_, FAST_ROUNDS)


def bench_mecab_share_in_cybleu(benchmark):
    """cybleu's ja-mecab round with every MeCab call timed inside it, so the share outside MeCab
    comes from one round under one load (the timer's own cost counts as cybleu's)."""
    import time

    import cybleu
    from cybleu.tokenizers import _mecab
    _needs("ja-mecab")
    group = "tok-ja-mecab"
    ref, systems = _load(CASES[group][0])
    benchmark.group = group
    label(benchmark, "cybleu-timed", "cybleu.corpus_bleu(tokenize='ja-mecab'), MeCab calls timed",
          systems=len(systems), segments=sum(map(len, systems)))
    inside = []
    plain = _mecab.MecabTokenizer.__call__

    def timed(self, line):
        t = time.perf_counter()
        out = plain(self, line)
        inside[-1] += time.perf_counter() - t
        return out

    def round_():
        inside.append(0.0)
        t = time.perf_counter()
        scores = [cybleu.corpus_bleu(h, [ref], tokenize="ja-mecab").score for h in systems]
        return scores, time.perf_counter() - t

    _mecab.MecabTokenizer.__call__ = timed
    try:
        totals = []
        for _ in range(FAST_ROUNDS + 1):
            scores, total = round_()
            totals.append(total)
        benchmark.pedantic(lambda: None, rounds=1, iterations=1)
    finally:
        _mecab.MecabTokenizer.__call__ = plain
    shares = sorted((total - mecab) / total for total, mecab in zip(totals[1:], inside[1:]))
    benchmark.extra_info["outside_mecab_share_median"] = shares[len(shares) // 2]
    benchmark.extra_info["outside_mecab_share_max"] = shares[-1]
    assert scores == _expected(group)
