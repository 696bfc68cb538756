"""The comparison report (`cybleu.report`, `cybleu report`): what the page embeds, decoded here,
is sacreBLEU 2.6.0's numbers and cybleu.significance's, bit for bit; text from the user's files
is escaped for every context; bad input and bad paths give clear errors; the file is written
atomically.

The bundled sample (5 WMT17 en-de systems x 500 segments) is always there; the 16-system
WMT17 set of ../shared/data feeds the size test (slow).
"""
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

import cybleu
from cybleu import significance
from cybleu.cli import main
from cybleu.metrics import BLEU, CHRF, TER
from cybleu import ReportInputError, TestSet
from cybleu._report import compute, ngrams, page

from conftest import bits, data_path, read_lines
from report_helpers import (HOSTILE, demo, hostile_corpus, page_data, parse_page, sentence,
                            seg_texts)

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics import BLEU as SacreBLEU  # noqa: E402 - after the skip
from sacrebleu.metrics import CHRF as SacreCHRF  # noqa: E402 - after the skip
from sacrebleu.metrics import TER as SacreTER  # noqa: E402 - after the skip


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def sample():
    return demo(4, 300)


@pytest.fixture(scope="module")
def sample_page(sample, tmp_path_factory):
    refs, systems = sample
    src = [f"source {i}" for i in range(len(refs))]
    rep = cybleu.report(refs, systems, sources=src, baseline="LIUM-NMT", name="sample")
    path = tmp_path_factory.mktemp("page") / "r.html"
    rep.save(path)
    text = path.read_text(encoding="utf-8")
    meta, header, arrays = page_data(text)
    return {"report": rep, "text": text, "meta": meta, "header": header, "arrays": arrays,
            "refs": refs, "systems": systems, "src": src}


def _metric(header, name):
    for k, m in enumerate(header["sets"][0]["metrics"]):
        if m["name"] == name:
            return k, m
    raise KeyError(name)


# -- numbers: sacreBLEU's -----------------------------------------------------------------------

def test_corpus_scores_equal_sacrebleu(sample_page):
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    for name, oracle in (("BLEU", SacreBLEU()), ("chrF2", SacreCHRF()), ("TER", SacreTER())):
        _, m = _metric(header, name)
        for s, hyps in enumerate(systems.values()):
            expected = oracle.corpus_score(hyps, [refs])
            assert bits(m["corpus"][s]["score"]) == bits(expected.score), (name, s)
            assert m["formatted"][s] == expected.format(2)
    _, bleu = _metric(header, "BLEU")
    for s, hyps in enumerate(systems.values()):
        expected = SacreBLEU().corpus_score(hyps, [refs])
        an = bleu["anatomy"][s]
        assert an["counts"] == list(expected.counts) and an["totals"] == list(expected.totals)
        assert [bits(p) for p in an["precisions"]] == [bits(p) for p in expected.precisions]
        assert (bits(an["bp"]), an["sys_len"], an["ref_len"]) == \
            (bits(expected.bp), expected.sys_len, expected.ref_len)
        # BLEU = BP x exp(mean log p), the two factors the anatomy shows
        assert bits(an["bp"] * an["geo_mean"]) == bits(expected.score)


def test_sentence_scores_equal_sacrebleu(sample_page):
    refs, systems = sample_page["refs"], sample_page["systems"]
    header, arrays = sample_page["header"], sample_page["arrays"]
    kb, _ = _metric(header, "BLEU")
    kc, _ = _metric(header, "chrF2")
    kt, _ = _metric(header, "TER")
    for s, hyps in enumerate(systems.values()):
        got_b = sentence(header, arrays, 0, kb, s)
        got_c = sentence(header, arrays, 0, kc, s)
        got_t = sentence(header, arrays, 0, kt, s)
        for i in range(len(refs)):
            assert bits(got_b[i]) == bits(sacrebleu.sentence_bleu(hyps[i], [refs[i]]).score)
            assert bits(got_c[i]) == bits(sacrebleu.sentence_chrf(hyps[i], [refs[i]]).score)
        for i in range(0, len(refs), 7):  # sacreBLEU's TER is slow; every segment: the slow test
            assert bits(got_t[i]) == bits(sacrebleu.sentence_ter(hyps[i], [refs[i]]).score)


def test_segment_statistics_equal_sacrebleu(sample_page):
    refs, systems = sample_page["refs"], sample_page["systems"]
    header, arrays = sample_page["header"], sample_page["arrays"]
    _, bleu = _metric(header, "BLEU")
    _, ter = _metric(header, "TER")
    n = len(refs)
    b_rows = arrays[bleu["stats_array"]].reshape(len(systems), n, 10)
    t_rows = arrays[ter["stats_array"]].reshape(len(systems), n, 2)
    for s, hyps in enumerate(systems.values()):
        expected = SacreBLEU(references=[refs])._extract_corpus_statistics(hyps, None)
        assert b_rows[s].tolist() == expected
        expected_t = SacreTER(references=[refs[:60]])._extract_corpus_statistics(hyps[:60], None)
        assert t_rows[s][:60].tolist() == [[float(x) for x in row] for row in expected_t]


def test_significance_equals_cybleu_significance(sample_page):
    """p-values against the baseline, intervals, and the Holm-adjusted matrix of every pair are
    cybleu.significance's (themselves held to sacreBLEU's in test_significance*.py)."""
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    names = list(systems)
    ts = header["sets"][0]
    assert ts["systems"] == names and names[ts["baseline"]] == "LIUM-NMT"
    base = names[ts["baseline"]]
    for name, metric in (("BLEU", BLEU(references=[refs])), ("chrF2", CHRF(references=[refs])),
                         ("TER", TER(references=[refs]))):
        _, m = _metric(header, name)
        others = [n for n in names if n != base]
        results = significance.paired_bootstrap(metric, systems[base],
                                                [systems[n] for n in others], 1000, 12345)
        for other, result in zip(others, results):
            c = m["corpus"][names.index(other)]
            assert (bits(c["score"]), bits(c["p"]), bits(c["mean"]), bits(c["ci"])) == \
                (bits(result.score), bits(result.p_value), bits(float(result.mean)),
                 bits(float(result.ci)))
        assert m["corpus"][names.index(base)]["p"] is None
        _, holm = significance.all_pairs(metric, systems, "bs", 1000, 12345)
        _, raw = significance.all_pairs(metric, systems, "bs", 1000, 12345, correction=None)
        assert m["holm_p"] == holm and m["raw_p"] == raw


def test_paired_numbers_equal_sacrebleus_paired_test():
    from sacrebleu.significance import PairedTest as SacrePairedTest
    refs, systems = demo(3, 200)
    rep = cybleu.report(refs, systems, n_samples=200)
    header = rep.data
    named = list(systems.items())
    oracle = SacrePairedTest(named, {"BLEU": SacreBLEU(references=[refs]),
                                     "chrF2": SacreCHRF(references=[refs]),
                                     "TER": SacreTER(references=[refs])},
                             None, test_type="bs", n_samples=200)()
    for name in ("BLEU", "chrF2", "TER"):
        _, m = _metric(header, name)
        for s, expected in enumerate(oracle[1][name]):
            c = m["corpus"][s]
            assert bits(c["score"]) == bits(expected.score)
            assert bits(c["mean"]) == bits(float(expected.mean))
            assert bits(c["ci"]) == bits(float(expected.ci))
            assert (c["p"] is None) if s == 0 else bits(c["p"]) == bits(expected.p_value)
        sig = oracle[0][name].format()
        assert m["signature"] == sig.replace("version:2.6.0",
                                             f"version:cybleu-{cybleu.__version__}")


def test_approximate_randomization(sample):
    refs, systems = demo(3, 150)
    rep = cybleu.report(refs, systems, metrics=["bleu"], paired_test="ar", n_samples=300)
    m = rep.data["sets"][0]["metrics"][0]
    names = list(systems)
    metric = BLEU(references=[refs])
    expected = significance.paired_randomization(metric, systems[names[0]],
                                                 [systems[n] for n in names[1:]], 300, 12345)
    assert [m["corpus"][k]["p"] for k in (1, 2)] == [r.p_value for r in expected]
    _, holm = significance.all_pairs(metric, systems, "ar", 300, 12345)
    assert m["holm_p"] == holm
    assert "ar:300" in m["signature"] and "bs:1000" in m["signature"]


def test_bucket_scores_are_corpus_scores_of_the_bucket(sample_page):
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    ref_len = np.array([len(SacreBLEU().tokenizer(r).split()) for r in refs])
    edges = compute.LENGTH_EDGES
    bucket = np.searchsorted(edges, ref_len, side="right")
    for name, oracle in (("BLEU", SacreBLEU()), ("chrF2", SacreCHRF()), ("TER", SacreTER())):
        _, m = _metric(header, name)
        assert m["buckets"]["length_counts"] == [int((bucket == b).sum())
                                                 for b in range(len(edges) + 1)]
        for s, hyps in enumerate(systems.values()):
            for b in range(len(edges) + 1):
                idx = np.flatnonzero(bucket == b)
                got = m["buckets"]["by_length"][s][b]
                if not len(idx):
                    assert got is None
                    continue
                expected = oracle.corpus_score([hyps[i] for i in idx], [[refs[i] for i in idx]])
                assert bits(got) == bits(expected.score), (name, s, b)
    kb, bleu = _metric(header, "BLEU")
    for s in range(len(systems)):
        scores = sentence(header, sample_page["arrays"], 0, kb, s)
        counts = np.bincount(np.searchsorted(compute.SCORE_EDGES, scores, side="right"),
                             minlength=10)
        assert bleu["buckets"]["by_score"][s] == counts.tolist()


def _clipped_by_segment(refs, hyps, order=4):
    """Per segment, BLEU's clipped matches of each n-gram (sacreBLEU's n-gram extraction)."""
    from sacrebleu.metrics.helpers import extract_all_word_ngrams
    tok = SacreBLEU().tokenizer
    out = []
    for h, r in zip(hyps, refs):
        hc, _ = extract_all_word_ngrams(tok(h), 1, order)
        rc, _ = extract_all_word_ngrams(tok(r), 1, order)
        out.append(Counter({g: min(c, rc[g]) for g, c in hc.items() if g in rc}))
    return out


def test_ngram_tables_rank_as_compare_mt_and_list_their_segments(sample_page):
    """The n-grams B matches more (less) often than A, ranked as compare-mt ranks them: by
    (m_B + 1) / (m_A + m_B + 2) (m_A's for "worsened"), then the larger change; the top 20 of
    all orders and of each; each with the segments where A's and B's clipped matches of it
    differ. Counted independently here with sacreBLEU's n-gram extraction."""
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    arrays = sample_page["arrays"]
    names = list(systems)
    per_seg = [_clipped_by_segment(refs, systems[n]) for n in names]
    counts = [sum(segs, Counter()) for segs in per_seg]
    table = header["sets"][0]["ngrams"]
    assert table["top_k"] == 20 and table["alpha"] == 1.0
    segments = arrays[table["segments"]]
    from sacrebleu.metrics.helpers import extract_all_word_ngrams
    tok = SacreBLEU().tokenizer
    ceiling = Counter()
    for r in refs:
        ceiling.update(extract_all_word_ngrams(tok(r), 1, 4)[0])
    for a, b in ((0, 1), (1, 3), (2, 3)):
        lists = table["pairs"][f"{a},{b}"]
        assert len(lists) == 5                               # all orders, then 1..4
        for k, (better, worse) in enumerate(lists):
            grams = {g for g in set(counts[a]) | set(counts[b]) if k == 0 or len(g) == k}
            for entries, sign in ((better, 1), (worse, -1)):
                keys = []
                for g in grams:
                    ma, mb = counts[a][g], counts[b][g]
                    if (mb - ma) * sign > 0:
                        num = mb if sign > 0 else ma
                        keys.append((-(num + 1) / (ma + mb + 2), -abs(mb - ma)))
                expected = sorted(keys)[:20]
                got = []
                for gi, ma, mb, offset, count in entries:
                    text, order, ref_total = table["grams"][gi]
                    gram = tuple(text.split(" "))
                    assert order == len(gram) and (k == 0 or order == k)
                    assert (ma, mb) == (counts[a][gram], counts[b][gram]), gram
                    assert ref_total == ceiling[gram]
                    num = mb if sign > 0 else ma
                    got.append((-(num + 1) / (ma + mb + 2), -abs(mb - ma)))
                    want = [i for i in range(len(refs))
                            if per_seg[a][i][gram] != per_seg[b][i][gram]]
                    assert segments[offset:offset + count].tolist() == want, gram
                assert got == expected, (a, b, k, sign)


def test_token_marks_are_the_longest_matching_reference_ngram():
    refs = ["the cat sat on the mat", "a b c d e"]
    systems = {"x": ["the cat is on the mat today", "e d c b a"],
               "y": ["on the mat the cat sat", ""]}
    rep = cybleu.report(refs, systems, metrics=["bleu"])
    ts = rep.data["sets"][0]
    _, _, _, toks, marks = seg_texts(ts, 0)
    assert toks[0] == "the cat is on the mat today" and marks[0] == "2203330"
    # "on the mat" and "the cat sat" are reference 3-grams; no 4-gram of it is
    assert toks[1] == "on the mat the cat sat" and marks[1] == "333333"
    _, _, _, toks, marks = seg_texts(ts, 1)
    assert marks == ["11111", ""]


def _brute_marks(ref_tokens, hyp_tokens, order=4):
    grams = {tuple(ref_tokens[i:i + n]) for n in range(1, order + 1)
             for i in range(len(ref_tokens) - n + 1)}
    marks = [0] * len(hyp_tokens)
    for n in range(1, order + 1):
        for i in range(len(hyp_tokens) - n + 1):
            if tuple(hyp_tokens[i:i + n]) in grams:
                for j in range(i, i + n):
                    marks[j] = max(marks[j], n)
    return "".join(map(str, marks))


def test_token_marks_on_real_segments(sample_page):
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    ts = header["sets"][0]
    tok = SacreBLEU().tokenizer
    for i in range(0, len(refs), 3):
        _, _, hyps, toks, marks = seg_texts(ts, i)
        for s, name in enumerate(systems):
            assert hyps[s] == systems[name][i]
            assert toks[s] == tok(systems[name][i])
            assert marks[s] == _brute_marks(tok(refs[i]).split(), toks[s].split())


def test_word_f_measure_by_frequency(sample_page):
    refs, systems, header = sample_page["refs"], sample_page["systems"], sample_page["header"]
    tok = SacreBLEU().tokenizer
    freq = Counter(w for r in refs for w in tok(r).split())
    edges = compute.FREQ_EDGES
    wf = header["sets"][0]["word_f"]
    assert wf["labels"] == ["0", "1", "2", "3", "4", "5\u20139", "10\u201399", "100\u2013999",
                            "\u22651000"]
    for s, hyps in enumerate(systems.values()):
        hyp_n, ref_n, match = Counter(), Counter(), Counter()
        for h, r in zip(hyps, refs):
            hc, rc = Counter(tok(h).split()), Counter(tok(r).split())
            for w, c in hc.items():
                b = int(np.searchsorted(edges, freq[w], side="right"))
                hyp_n[b] += c
                match[b] += min(c, rc[w])
            for w, c in rc.items():
                ref_n[int(np.searchsorted(edges, freq[w], side="right"))] += c
        for b, row in enumerate(wf["systems"][s]):
            assert (row["hyp"], row["ref"], row["match"]) == (hyp_n[b], ref_n[b], match[b])
            if hyp_n[b] and ref_n[b]:
                p, r = 100.0 * match[b] / hyp_n[b], 100.0 * match[b] / ref_n[b]
                assert bits(row["f"]) == bits(2 * p * r / (p + r) if p + r else 0.0)


def test_the_ngram_counts_are_held_to_bleus_statistics(sample):
    refs, systems = sample
    hyps = list(systems.values())
    grams = ngrams.analyse([refs], hyps, BLEU())
    rows = [np.array(BLEU(references=[refs])._extract_corpus_statistics(h, None)) for h in hyps]
    ngrams.check_against_bleu(grams, rows)
    grams["seg_clipped"][2][1][17] += 1      # one 3-gram match too many: a bug, caught
    with pytest.raises(ngrams.ReportDataError, match="3-gram"):
        ngrams.check_against_bleu(grams, rows)


@pytest.mark.parametrize("options", [dict(tokenize="intl"), dict(tokenize="char"),
                                     dict(lowercase=True), dict(tokenize="none")])
def test_other_bleu_settings(options):
    refs, systems = demo(2, 120)
    rep = cybleu.report(refs, systems, metrics=[BLEU(**options), "chrf++"])
    m = rep.data["sets"][0]["metrics"]
    assert [x["name"] for x in m] == ["BLEU", "chrF2++"]
    for s, hyps in enumerate(systems.values()):
        assert bits(m[0]["corpus"][s]["score"]) == \
            bits(SacreBLEU(**options).corpus_score(hyps, [refs]).score)
        assert bits(m[1]["corpus"][s]["score"]) == \
            bits(SacreCHRF(word_order=2).corpus_score(hyps, [refs]).score)


def test_several_references_and_missing_ones():
    refs, systems = demo(2, 100)
    second = [r.upper() if i % 3 else None for i, r in enumerate(refs)]
    rep = cybleu.report([refs, second], systems, metrics=["bleu", "ter"])
    ts = rep.data["sets"][0]
    assert ts["n_refs"] == 2
    for s, hyps in enumerate(systems.values()):
        expected = SacreBLEU().corpus_score(hyps, [refs, second])
        assert bits(ts["metrics"][0]["corpus"][s]["score"]) == bits(expected.score)
    source, r, _, _, _ = seg_texts(ts, 3)
    assert r == [refs[3], None] and source is None


# -- text is data ------------------------------------------------------------------------------

def test_json_for_script_escapes_what_ends_a_script():
    values = HOSTILE + ["</SCRIPT>", "<!--", "]]>", "\u2028\u2029", "&lt;"]
    text = page.json_for_script({"v": values})
    for bad in ("<", ">", "&", "\u2028", "\u2029"):
        assert bad not in text
    assert json.loads(text) == {"v": values}


def test_hostile_text_is_escaped_in_every_context(tmp_path):
    refs, systems, src = hostile_corpus()
    title = HOSTILE[0] + " " + HOSTILE[1]
    rep = cybleu.report(refs, systems, sources=src, title=title, name=HOSTILE[2])
    for compress in (True, False):
        path = tmp_path / f"h{compress}.html"
        rep.save(path, compress=compress)
        text = path.read_text(encoding="utf-8")
        # the page's own four script elements: the data cannot close or open one
        assert text.lower().count("<script") == 4 and text.lower().count("</script") == 4
        parsed = parse_page(text)
        assert [a.get("id") for a, _ in parsed.scripts] == ["cybleu-meta", "cybleu-data",
                                                             "cybleu-text", None]
        tags = {tag for tag, _ in parsed.tags}
        assert tags <= {"html", "head", "meta", "title", "style", "body", "header", "div", "h1",
                        "nav", "main", "p", "h2", "table", "thead", "tbody", "tr", "th", "td",
                        "script"}, tags
        for tag, attrs in parsed.tags:
            for name, _ in attrs:
                assert not name.startswith("on") and name not in ("src", "href", "action")
        meta, header, _ = page_data(text)
        assert meta["title"] == title and header["title"] == title
        assert list(meta["sets"][0]["systems"]) == list(systems)
        ts = header["sets"][0]
        assert ts["name"] == HOSTILE[2]
        for i in range(len(refs)):
            source, r, hyps, toks, marks = seg_texts(ts, i)
            assert source == src[i] and r == [refs[i]]
            assert hyps == [systems[n][i] for n in systems]
    # the static table (no script) shows the names as text
    cells = []

    class Cells(__import__("html.parser").parser.HTMLParser):
        def handle_data(self, data):
            cells.append(data)
    Cells().feed(text)
    assert "\u202eevil name\ufffd" in cells and "<b>bold</b> & </script>" in cells


def test_page_requests_nothing():
    """A Content-Security-Policy that forbids every fetch, and no URL anywhere in the markup."""
    refs, systems = demo(2, 30)
    text = cybleu.report(refs, systems).html()
    assert f'content="{page.html_attribute(page.CSP)}"' in text
    assert "default-src 'none'" in page.CSP and "connect-src 'none'" in page.CSP
    for tag, attrs in parse_page(text).tags:
        for name, value in attrs:
            assert name not in ("src", "href", "srcset", "action", "poster", "data"), (tag, name)
    assert "http://" not in text.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in text


def test_latex_and_csv_tables():
    import csv
    import io
    refs, systems = demo(2, 40)
    named = {"=HYPERLINK(x)": systems["KIT"], "a_b & c%<d>": systems["LIUM-NMT"]}
    rep = cybleu.report(refs, named, metrics=["bleu", "ter"])
    ts = rep.data["sets"][0]
    latex = ts["latex"]
    assert "a\\_b \\& c\\%\\textless{}d\\textgreater{}" in latex
    assert "\\begin{tabular}{lrrrrrr}" in latex and latex.rstrip().endswith("\\end{tabular}")
    rows = list(csv.reader(io.StringIO(ts["csv"])))
    assert rows[0] == ["system", "BLEU", "BLEU mean", "BLEU ci95", "BLEU p", "TER", "TER mean",
                       "TER ci95", "TER p"]
    assert rows[1][0] == "'=HYPERLINK(x)"          # not a formula in a spreadsheet
    assert rows[2][0] == "a_b & c%<d>"
    for row, s in zip(rows[1:], range(2)):
        bleu, ter = ts["metrics"][0]["corpus"][s], ts["metrics"][1]["corpus"][s]
        assert float(row[1]) == bleu["score"] and float(row[3]) == bleu["ci"]
        assert float(row[5]) == ter["score"]
        assert row[4] == ("" if bleu["p"] is None else repr(bleu["p"]))


def test_p_values_in_latex_do_not_read_as_the_level_they_are_below():
    from cybleu._report import _fmt_p
    assert _fmt_p(0.00999, 0.05) == "0.00999"          # not "0.0100"
    assert _fmt_p(0.0499999, 0.05) == "0.0499999"
    assert _fmt_p(0.0100001, 0.05) == "0.0100"
    assert _fmt_p(0.1149, 0.05) == "0.1149"
    assert _fmt_p(0.00005, 0.05) == "5.0e-5"
    assert _fmt_p(0.0999999, 0.1) == "0.0999999"
    refs, systems = demo(5, 300)
    rep = cybleu.report(refs, systems, baseline="PROMT-Rule-based", metrics=["bleu"],
                        n_samples=100)                  # p of 1/101 = 0.0099...
    ts = rep.data["sets"][0]
    ps = [c["p"] for c in ts["metrics"][0]["corpus"] if c["p"] is not None]
    assert any(0.0099 < p < 0.01 for p in ps)
    for p in ps:
        shown = [line for line in ts["latex"].splitlines() if f"& {_fmt_p(p, 0.05)} " in
                 line + " "]
        assert shown and (float(_fmt_p(p, 0.05)) < 0.01) == (p < 0.01)


# -- bad input ---------------------------------------------------------------------------------

def test_bad_input_from_python():
    refs, systems = demo(2, 20)
    a, b = list(systems)
    with pytest.raises(ReportInputError, match=f"system '{b}' has 19 lines, the references 20"):
        cybleu.report(refs, {a: systems[a], b: systems[b][:19]})
    with pytest.raises(ReportInputError, match="unknown baseline 'nope'"):
        cybleu.report(refs, systems, baseline="nope")
    with pytest.raises(ReportInputError, match="line 3 is int"):
        cybleu.report(refs, {a: systems[a][:2] + [7] + systems[a][3:]})
    with pytest.raises(ReportInputError, match="the source has 2 lines"):
        cybleu.report(refs, systems, sources=["x", "y"])
    with pytest.raises(ReportInputError, match="unknown metric 'bleurt'"):
        cybleu.report(refs, systems, metrics=["bleurt"])
    with pytest.raises(ReportInputError, match="asked for twice"):
        cybleu.report(refs, systems, metrics=["bleu", "BLEU"])
    with pytest.raises(ReportInputError, match="references should be a list"):
        cybleu.report("the references", systems)
    with pytest.raises(ReportInputError, match="the references are empty: a report needs"):
        cybleu.report([], systems)
    with pytest.raises(ReportInputError, match="references are empty"):
        cybleu.report([[]], {a: []})
    with pytest.raises(ReportInputError, match="different lengths"):
        cybleu.report([refs, refs[:5]], systems)
    with pytest.raises(ReportInputError, match="segment 2 has no reference"):
        cybleu.report([[refs[0], None] + refs[2:]], systems)
    with pytest.raises(ReportInputError, match="n_samples"):
        cybleu.report(refs, systems, n_samples=0)
    with pytest.raises(ReportInputError, match="seed"):
        cybleu.report(refs, systems, seed=-1)
    with pytest.raises(ReportInputError, match="paired_test"):
        cybleu.report(refs, systems, paired_test="t")
    with pytest.raises(ReportInputError, match="not both"):
        cybleu.report(refs, systems, testsets=[{"name": "x", "references": refs,
                                                "systems": systems}])
    with pytest.raises(ReportInputError, match="same name"):
        cybleu.report(testsets=[TestSet("x", refs, systems), TestSet("x", refs, systems)])
    with pytest.raises(ReportInputError, match="list of lines"):
        cybleu.report("one line", systems)
    assert issubclass(ReportInputError, ValueError)


@pytest.fixture
def files(tmp_path):
    refs, systems = demo(3, 60)
    (tmp_path / "ref.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    paths = []
    for name, lines in systems.items():
        p = tmp_path / f"newstest.{name}.en-de.txt"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(p))
    (tmp_path / "short.txt").write_text("\n".join(refs[:59]) + "\n", encoding="utf-8")
    (tmp_path / "latin1.txt").write_bytes(("ascii\n" * 10 + "d\xe9j\xe0\n").encode("latin-1"))
    return {"dir": tmp_path, "ref": str(tmp_path / "ref.txt"), "systems": paths,
            "names": list(systems), "refs": refs}


def _cli(args, capsys):
    code = main(["report", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_writes_the_report(files, capsys):
    out_path = files["dir"] / "r.html"
    code, out, err = _cli([files["ref"], "-i", *files["systems"], "-o", str(out_path),
                           "--baseline", "KIT", "--title", "T"], capsys)
    assert code == 0, err
    assert out.strip() == str(out_path.resolve())
    meta, header, _ = page_data(out_path.read_text(encoding="utf-8"))
    ts = header["sets"][0]
    assert ts["systems"] == files["names"]          # newstest.<name>.en-de: the shared parts go
    assert ts["systems"][ts["baseline"]] == "KIT" and header["title"] == "T"
    assert [m["name"] for m in ts["metrics"]] == ["BLEU", "chrF2", "TER"]
    hyps = [read_lines(p) for p in files["systems"]]
    assert bits(ts["metrics"][0]["corpus"][1]["score"]) == \
        bits(SacreBLEU().corpus_score(hyps[1], [files["refs"]]).score)
    # the baseline may be named by its file
    code, _, err = _cli([files["ref"], "-i", *files["systems"], "-o", str(out_path), "-m", "bleu",
                         "--baseline", files["systems"][2], "-q"], capsys)
    assert code == 0, err
    ts = page_data(out_path.read_text(encoding="utf-8"))[1]["sets"][0]
    assert ts["baseline"] == 2


@pytest.mark.parametrize("case", ["missing", "short", "baseline", "no-dir", "is-dir",
                                  "parent-file", "encoding", "no-systems", "manifest"])
def test_cli_errors_name_the_file(files, capsys, case):
    ref, systems, d = files["ref"], files["systems"], files["dir"]
    out = str(d / "r.html")
    args, expected = {
        "missing": ([ref, "-i", systems[0], str(d / "nope.txt"), "-o", out],
                    f"cybleu: {d / 'nope.txt'}: no such file"),
        "short": ([ref, "-i", systems[0], str(d / "short.txt"), "-o", out],
                  f"cybleu: {d / 'short.txt'} has 59 lines, the references 60."),
        "baseline": ([ref, "-i", *systems, "--baseline", "nope", "-o", out],
                     "cybleu: Unknown --baseline 'nope'; the systems are: KIT, LIUM-NMT, "
                     "PROMT-Rule-based."),
        "no-dir": ([ref, "-i", systems[0], "-o", str(d / "missing" / "r.html")],
                   f"cybleu: {d / 'missing' / 'r.html'}: the folder {d / 'missing'} does not "
                   "exist"),
        "is-dir": ([ref, "-i", systems[0], "-o", str(d)], f"cybleu: {d}: is a folder, not a file"),
        "parent-file": ([ref, "-i", systems[0], "-o", str(d / "ref.txt" / "r.html")],
                        f"cybleu: {d / 'ref.txt' / 'r.html'}: a part of the path is a file, not "
                        "a folder"),
        "encoding": ([ref, "-i", systems[0], str(d / "latin1.txt"), "-o", out],
                     f"cybleu: {d / 'latin1.txt'}: line 11: cannot decode as utf-8"),
        "no-systems": ([ref, "-o", out], "cybleu: test set 1: no system output"),
        "manifest": (["--manifest", str(d / "nope.json"), "-o", out],
                     f"cybleu: {d / 'nope.json'}: no such file"),
    }[case]
    code, stdout, err = _cli(args, capsys)
    assert code == 1
    assert expected in err, err
    assert not os.path.exists(out) or case == "is-dir"
    assert not [p for p in os.listdir(d) if p.endswith(".tmp")]


def test_cli_several_test_sets_and_a_manifest(files, capsys):
    ref, systems, d = files["ref"], files["systems"], files["dir"]
    out = d / "sets.html"
    code, _, err = _cli(["-o", str(out), "-m", "bleu", "--set", "first", ref, "-i", *systems[:2],
                         "--set", "second", ref, "-i", *systems, "--names", "a", "b", "c"],
                        capsys)
    assert code == 0, err
    header = page_data(out.read_text(encoding="utf-8"))[1]
    assert [ts["name"] for ts in header["sets"]] == ["first", "second"]
    assert header["sets"][0]["systems"] == files["names"][:2]
    assert header["sets"][1]["systems"] == ["a", "b", "c"]
    manifest = d / "m.json"
    manifest.write_text(json.dumps({"title": "M", "baseline": "LIUM-NMT", "testsets": [
        {"name": "x", "references": ["ref.txt"], "systems": {"k": os.path.basename(systems[0]),
                                                               "LIUM-NMT": systems[1]}},
        {"name": "y", "references": "ref.txt", "systems": [os.path.basename(p) for p in systems],
         "source": "ref.txt"}]}), encoding="utf-8")
    code, _, err = _cli(["--manifest", str(manifest), "-o", str(out), "-m", "bleu"], capsys)
    assert code == 0, err
    header = page_data(out.read_text(encoding="utf-8"))[1]
    assert header["title"] == "M"
    assert [ts["systems"] for ts in header["sets"]] == [["k", "LIUM-NMT"], files["names"]]
    assert [ts["baseline"] for ts in header["sets"]] == [1, 1]
    assert header["sets"][1]["has_source"]
    code, _, err = _cli(["-o", str(out), "--set", "a", ref, "-i", systems[0], "--set", "a", ref,
                         "-i", systems[1]], capsys)
    assert code == 1 and "same name" in err


# -- the language pair and the references' script --------------------------------------------

def _wmt22_en_zh(*names):
    d = data_path("wmt", "wmt22", "en-zh")
    return d / "ref.A.txt", [d / "sys" / f"{n}.txt" for n in names]


def test_cli_language_pair_scores_chinese_as_sacrebleu_does(tmp_path, capsys):
    """The issue's example: WMT22 en-zh, DLUT and GTCOM. With -l en-zh every number is
    sacreBLEU 2.6.0's with the zh tokenizer (scores, intervals, p-value, signature), bit for
    bit, and the ranking is the right one; no warning."""
    from sacrebleu.significance import PairedTest as SacrePairedTest
    ref, paths = _wmt22_en_zh("DLUT", "GTCOM")
    out = tmp_path / "zh.html"
    code, _, err = _cli(["-l", "en-zh", str(ref), "-i", *map(str, paths), "-m", "bleu", "ter",
                         "-o", str(out)], capsys)
    assert code == 0, err
    assert "look Chinese" not in err
    header = page_data(out.read_text(encoding="utf-8"))[1]
    ts = header["sets"][0]
    assert ts["systems"] == ["DLUT", "GTCOM"] and ts["name"] == "en-zh"
    assert ts["language_pair"] == "en-zh"
    refs = read_lines(ref)
    named = [(p.stem, read_lines(p)) for p in paths]
    oracle = SacrePairedTest(named, {"BLEU": SacreBLEU(trg_lang="zh", references=[refs]),
                                     "TER": SacreTER(references=[refs])},
                             None, test_type="bs", n_samples=1000)()
    for k, name in enumerate(("BLEU", "TER")):
        m = ts["metrics"][k]
        for s, expected in enumerate(oracle[1][name]):
            c = m["corpus"][s]
            assert bits(c["score"]) == bits(expected.score), (name, s)
            assert bits(c["mean"]) == bits(float(expected.mean))
            assert bits(c["ci"]) == bits(float(expected.ci))
            assert (c["p"] is None) if s == 0 else bits(c["p"]) == bits(expected.p_value)
        assert m["signature"] == oracle[0][name].format().replace(
            "version:2.6.0", f"version:cybleu-{cybleu.__version__}")
    bleu = ts["metrics"][0]
    assert "tok:zh" in bleu["signature"]
    assert bleu["corpus"][1]["score"] > bleu["corpus"][0]["score"]   # GTCOM ahead, as it is
    assert bleu["corpus"][1]["p"] < 0.05
    # TER splits at spaces whatever -l says (as sacreBLEU): the page says what fixes it
    assert any("--ter-normalized --ter-asian-support" in n for n in ts["notes"])


def test_cli_warns_of_chinese_scored_with_13a(tmp_path, capsys):
    ref, paths = _wmt22_en_zh("DLUT", "GTCOM")
    out = tmp_path / "13a.html"
    code, _, err = _cli([str(ref), "-i", *map(str, paths), "-m", "bleu", "chrf", "-o", str(out)],
                        capsys)
    assert code == 0, err
    assert "look Chinese" in err and "-l SRC-zh" in err
    meta, header, _ = page_data(out.read_text(encoding="utf-8"))
    notes = header["sets"][0]["notes"]
    assert len(notes) == 1 and "'13a'" in notes[0] and "-l SRC-zh" in notes[0]
    assert meta["sets"][0]["notes"] == notes            # the page without scripts shows it too
    assert "look Chinese" in out.read_text(encoding="utf-8").split("<script")[0]
    # -tok zh is a fix as good as -l: no note
    code, _, err = _cli([str(ref), "-i", *map(str, paths), "-m", "bleu", "-tok", "zh", "-o",
                         str(out)], capsys)
    assert code == 0 and "look Chinese" not in err
    assert page_data(out.read_text(encoding="utf-8"))[1]["sets"][0]["notes"] == []


def test_cli_l_is_the_language_pair(files, capsys):
    ref, systems, d = files["ref"], files["systems"], files["dir"]
    out = d / "l.html"
    # a bare -l is not -lc, and its value is not a reference file
    code, _, err = _cli([ref, "-i", systems[0], "-l", "-o", str(out)], capsys)
    assert code == 2 and "argument --language-pair/-l: expected one argument" in err
    code, _, err = _cli(["-l", "en-de", ref, "-i", *systems[:2], "-m", "bleu", "-o", str(out)],
                        capsys)
    assert code == 0, err
    ts = page_data(out.read_text(encoding="utf-8"))[1]["sets"][0]
    assert ts["n_refs"] == 1 and ts["language_pair"] == "en-de"
    assert "tok:13a" in ts["metrics"][0]["signature"]
    code, _, err = _cli(["-l", "english", ref, "-i", systems[0], "-o", str(out)], capsys)
    assert code == 1 and "A language pair looks like en-de (source-target), not 'english'" in err
    # per set: before the first --set for all, after it for its set
    code, _, err = _cli(["-o", str(out), "-m", "bleu", "-l", "en-de", "--set", "a", ref, "-i",
                         systems[0], "--set", "b", "-l", "en-zh", ref, "-i", systems[1]], capsys)
    assert code == 0, err
    sets = page_data(out.read_text(encoding="utf-8"))[1]["sets"]
    assert [ts["language_pair"] for ts in sets] == ["en-de", "en-zh"]
    assert ["tok:13a" in ts["metrics"][0]["signature"] for ts in sets] == [True, False]
    assert "tok:zh" in sets[1]["metrics"][0]["signature"]


def test_python_language_pair_and_the_note():
    d = data_path("wmt", "wmt22", "en-zh")
    refs = read_lines(d / "ref.A.txt")[:300]
    systems = {n: read_lines(d / "sys" / f"{n}.txt")[:300] for n in ("DLUT", "GTCOM")}
    rep = cybleu.report(refs, systems, metrics=["bleu", ("chrf", {"word_order": 2})])
    ts = rep.data["sets"][0]
    assert len(ts["notes"]) == 1 and 'language_pair="SRC-zh"' in ts["notes"][0]
    assert "Note: The references look Chinese" in rep.summary()
    rep = cybleu.report(refs, systems, metrics=["bleu", "chrf++"], language_pair="en-zh")
    ts = rep.data["sets"][0]
    assert ts["notes"] == [] and "tok:zh" in ts["metrics"][0]["signature"]
    expected = SacreBLEU(trg_lang="zh").corpus_score(systems["GTCOM"], [refs])
    assert bits(ts["metrics"][0]["corpus"][1]["score"]) == bits(expected.score)
    # a metric object keeps its own tokenizer; the set's own pair wins over the report's
    rep = cybleu.report(testsets=[{"name": "x", "references": refs, "systems": systems,
                                   "language_pair": "en-ja"}],
                        metrics=[BLEU(tokenize="zh"), "ter"], language_pair="en-de")
    ts = rep.data["sets"][0]
    assert "tok:zh" in ts["metrics"][0]["signature"] and ts["language_pair"] == "en-ja"
    with pytest.raises(ReportInputError, match="not 'zh'"):
        cybleu.report(refs, systems, language_pair="zh")
    # English and German references: no note
    refs, systems = demo(2, 50)
    assert cybleu.report(refs, systems).data["sets"][0]["notes"] == []


def test_manifest_and_dict_keys(files, capsys):
    """"sources" (documented) and "source" (read too) in a manifest and in Python's dicts; an
    unknown key is an error naming it and the known ones; a set without a name is named after
    its language pair or its reference file, not "test set 1"."""
    ref, systems, d = files["ref"], files["systems"], files["dir"]
    out = d / "m.html"
    manifest = d / "keys.json"

    def run(data):
        manifest.write_text(json.dumps(data), encoding="utf-8")
        return _cli(["--manifest", str(manifest), "-o", str(out), "-m", "bleu"], capsys)

    entry = {"references": ["ref.txt"], "systems": [os.path.basename(systems[0])]}
    for key in ("sources", "source"):
        code, _, err = run({"testsets": [dict(entry, **{key: "ref.txt"})]})
        assert code == 0, err
        ts = page_data(out.read_text(encoding="utf-8"))[1]["sets"][0]
        assert ts["has_source"] and ts["name"] == "ref.txt"
    code, _, err = run({"testsets": [dict(entry, source="ref.txt", sources="ref.txt")]})
    assert code == 1 and 'give "sources" or "source", not both' in err
    code, _, err = run({"testsets": [dict(entry, refs=["ref.txt"])]})
    assert code == 1 and ("test set 1: unknown key 'refs'; a test set's keys are name, "
                          "references, systems, sources, language_pair, scores.") in err
    code, _, err = run({"testsets": [entry], "titel": "typo"})
    assert code == 1 and ("unknown key 'titel'; a manifest's keys are title, baseline, metrics, "
                          "language_pair, testsets.") in err
    code, _, err = run({"language_pair": "en-de", "testsets": [entry, dict(
        entry, name="zh", language_pair="en-zh")]})
    assert code == 0, err
    sets = page_data(out.read_text(encoding="utf-8"))[1]["sets"]
    assert [(ts["name"], ts["language_pair"]) for ts in sets] == [("en-de", "en-de"),
                                                                  ("zh", "en-zh")]
    # the command line: named after the reference file
    code, _, err = _cli([ref, "-i", systems[0], "-m", "bleu", "-o", str(out)], capsys)
    assert code == 0, err
    assert page_data(out.read_text(encoding="utf-8"))[1]["sets"][0]["name"] == "ref.txt"
    # Python's dicts
    refs, named = demo(2, 20)
    rep = cybleu.report(testsets=[{"name": "a", "references": refs, "systems": named,
                                   "source": refs}], metrics=["bleu"])
    assert rep.data["sets"][0]["has_source"]
    with pytest.raises(ReportInputError, match="unknown key 'source_lines'; the keys are name, "
                                               "references, systems, sources, language_pair"):
        cybleu.report(testsets=[{"name": "a", "references": refs, "systems": named,
                                 "source_lines": refs}])
    with pytest.raises(ReportInputError, match="not both"):
        cybleu.report(testsets=[{"name": "a", "references": refs, "systems": named,
                                 "source": refs, "sources": refs}])


def test_plurals_and_numbers(files, capsys):
    rep = cybleu.report(["the cat sat"], {"a": ["the cat sat"]}, metrics=["bleu"])
    assert rep.summary().splitlines()[1] == "test set: 1 segment, 1 system"
    assert repr(TestSet("x", ["a b"] * 1200, {"a": ["a b"] * 1200, "b": ["a"] * 1200})) == \
        "TestSet('x': 1,200 segments, 1 reference, 2 systems)"
    code, _, err = _cli([files["ref"], "-i", files["systems"][0], "-m", "bleu", "-o",
                         str(files["dir"] / "one.html")], capsys)
    assert code == 0, err
    assert "1 test set, 1 system output\n" in err


def test_names_utf8_cannot_hold_are_shown_escaped(tmp_path):
    """A lone surrogate in a system name, the title or a set's name (Python strings can hold
    one) is shown escaped, and the page, its summary and the notebook display are written."""
    refs, systems = demo(2, 20)
    a, b = list(systems)
    rep = cybleu.report(refs, {"bad\ud800name": systems[a], "byte\udcff": systems[b]},
                        metrics=["bleu"], title="title \udcfe", name="set \ud834",
                        baseline="byte\udcff")
    assert rep.save(tmp_path / "s.html") == str(tmp_path / "s.html")
    meta, header, _ = page_data((tmp_path / "s.html").read_text(encoding="utf-8"))
    ts = header["sets"][0]
    assert ts["systems"] == ["bad\\ud800name", "byte\\xff"] and ts["baseline"] == 1
    assert ts["name"] == "set \\ud834" and header["title"] == meta["title"] == "title \\xfe"
    assert "bad\\ud800name" in rep.summary()
    rep._repr_mimebundle_()["text/html"].encode("utf-8")
    assert "byte\\textbackslash{}xff (baseline)" in ts["latex"]


@pytest.mark.skipif(sys.platform == "win32" or sys.getfilesystemencoding() != "utf-8",
                    reason="file names of bytes that are not UTF-8: a POSIX file system")
def test_cli_file_names_that_are_not_utf8(files, tmp_path):
    """A system file (and the page) whose name is not valid UTF-8: the page shows the byte
    escaped and the command prints the page's own path."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(cybleu.__file__))] + sys.path))
    systems = files["systems"]
    bad = os.path.join(os.fsencode(tmp_path), b"sys\xff.txt")
    with open(bad, "wb") as f, open(systems[0], "rb") as g:
        f.write(g.read())
    out = os.path.join(os.fsencode(tmp_path), b"page\xfe.html")
    proc = subprocess.run([sys.executable, "-m", "cybleu", "report", files["ref"], "-i", bad,
                           systems[1], "-o", out, "-m", "bleu"], capture_output=True, env=env,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in proc.stderr
    assert proc.stdout.strip() == os.path.abspath(out)
    with open(out, encoding="utf-8") as f:
        header = page_data(f.read())[1]
    assert header["sets"][0]["systems"][0] == "sys\\xff"


def test_cli_is_a_subcommand_and_leaves_sacrebleus_alone(files, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(cybleu.__file__))] + sys.path))
    out = tmp_path / "p.html"
    proc = subprocess.run([sys.executable, "-m", "cybleu", "report", files["ref"], "-i",
                           *files["systems"][:2], "-o", str(out), "-m", "bleu"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert out.exists() and proc.stdout.strip() == str(out.resolve())
    proc = subprocess.run([sys.executable, "-m", "cybleu", "report", "--help"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0 and "usage: cybleu report" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "cybleu", files["ref"], "-i",
                           files["systems"][0], "-b"], capture_output=True, text=True, env=env,
                          timeout=300)
    assert proc.returncode == 0 and float(proc.stdout) > 0


# -- the file ----------------------------------------------------------------------------------

def test_save_is_atomic(tmp_path, monkeypatch):
    refs, systems = demo(2, 20)
    rep = cybleu.report(refs, systems, metrics=["bleu"])
    target = tmp_path / "r.html"
    target.write_text("the previous report", encoding="utf-8")

    def broken(*args):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(OSError, match="no space left on the device"):
        rep.save(target)
    assert target.read_text(encoding="utf-8") == "the previous report"
    assert os.listdir(tmp_path) == ["r.html"]
    monkeypatch.undo()
    assert rep.save(target) == str(target)
    assert page_data(target.read_text(encoding="utf-8"))[0]["sets"][0]["systems"] == \
        list(systems)
    assert os.listdir(tmp_path) == ["r.html"]


def test_the_page_is_deterministic():
    refs, systems = demo(2, 40)
    one = cybleu.report(refs, systems).html()
    two = cybleu.report(refs, systems).html()
    assert one == two


def test_sample_page_size(sample_page):
    """5 systems x 500 segments with every view: a few hundred KB (a guard against bloat)."""
    refs, systems = demo()
    size = len(cybleu.report(refs, systems).html().encode("utf-8"))
    assert size < 450_000, size


@pytest.mark.slow
def test_sixteen_wmt17_systems_stay_under_five_megabytes():
    d = data_path("sacrebleu-fixtures", "wmt17-en-de")
    refs = read_lines(d / "ref.txt")
    systems = {p.name.split(".")[1]: read_lines(p) for p in sorted((d / "sys").glob("*.txt"))}
    rep = cybleu.report(refs, systems, metrics=["bleu", "chrf", "ter"])
    text = rep.html()
    assert len(text.encode("utf-8")) < 5_000_000
    _, header, arrays = page_data(text)
    ts = header["sets"][0]
    for s, hyps in enumerate(systems.values()):
        assert bits(ts["metrics"][0]["corpus"][s]["score"]) == \
            bits(SacreBLEU().corpus_score(hyps, [refs]).score)
        got = sentence(header, arrays, 0, 2, s)
        for i in range(0, len(refs), 50):
            assert bits(got[i]) == bits(sacrebleu.sentence_ter(hyps[i], [refs[i]]).score)


def test_light_page_leaves_out_the_segments():
    refs, systems = demo(2, 50)
    rep = cybleu.report(refs, systems)
    full, light = rep.html(), rep.html(light=True)
    assert len(light) < len(full)
    _, header, arrays = page_data(light)
    ts = header["sets"][0]
    assert header["light"] and ts["texts"] is None and ts["ngrams"] is None
    assert not any(".sent_" in k or ".stats_" in k for k in arrays)
    assert ts["metrics"][0]["corpus"] == rep.data["sets"][0]["metrics"][0]["corpus"]


def test_inflate_fallback_in_javascript(tmp_path):
    """The page's own inflate (for browsers without DecompressionStream), run by node on the
    page's data: the same bytes as Python's gzip."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the browser tests run the fallback in Chromium)")
    refs, systems = demo(3, 200)
    text = cybleu.report(refs, systems).html()
    parsed = parse_page(text)
    blob = [b for a, b in parsed.scripts if a.get("id") == "cybleu-data"][0]
    raw = gzip.decompress(__import__("base64").b64decode(blob))
    from importlib import resources
    js = (resources.files("cybleu._report") / "assets" / "report.js").read_text(encoding="utf-8")
    start = js.index("  var LBASE")
    end = js.index("  window.__cybleuInflate")
    script = tmp_path / "inflate.js"
    script.write_text(js[start:end] + """
const fs = require('fs');
const b = Buffer.from(fs.readFileSync(process.argv[2], 'utf8'), 'base64');
const out = inflateGzip(new Uint8Array(b.buffer, b.byteOffset, b.length));
fs.writeFileSync(process.argv[3], Buffer.from(out.buffer, out.byteOffset, out.length));
""", encoding="utf-8")
    (tmp_path / "blob.txt").write_text(blob, encoding="ascii")
    for level in (1, 6, 9):  # other compressors' block choices too: stored, fixed, dynamic
        data = gzip.compress(raw[:300_000] + bytes(range(256)) * 50, compresslevel=level)
        (tmp_path / f"l{level}.txt").write_text(__import__("base64").b64encode(data).decode(),
                                                encoding="ascii")
    stored = gzip.compress(b"abc" * 1000, compresslevel=0)
    (tmp_path / "l0.txt").write_text(__import__("base64").b64encode(stored).decode(),
                                     encoding="ascii")
    cases = [("blob.txt", raw)] + [(f"l{lv}.txt", raw[:300_000] + bytes(range(256)) * 50)
                                   for lv in (1, 6, 9)] + [("l0.txt", b"abc" * 1000)]
    for name, expected in cases:
        out = tmp_path / (name + ".out")
        proc = subprocess.run([node, str(script), str(tmp_path / name), str(out)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert out.read_bytes() == expected, name


# -- cybleu.report and the demo ----------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "import cybleu\nrep = cybleu.report(['a b c'], {'x': ['a b c']})",
    "import cybleu._report.notebook\nimport cybleu\n"
    "rep = cybleu.report(['a b c'], {'x': ['a b c']})",
    "from cybleu import report\nrep = report(['a b c'], {'x': ['a b c']})\n"
    "from cybleu import Report\nassert isinstance(rep, Report)",
])
def test_cybleu_report_is_the_function_whatever_was_imported_first(code, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(cybleu.__file__)))
    proc = subprocess.run([sys.executable, "-c", code + "\nprint(type(rep).__name__)"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Report"


def test_demo_writes_the_report(tmp_path, monkeypatch, capsys):
    target = tmp_path / "demo.html"
    monkeypatch.setenv("CYBLEU_DEMO_REPORT", str(target))
    assert main(["--demo"]) == 0
    out = capsys.readouterr().out
    assert f"Report (BLEU, chrF, TER, significance, segments): {target}" in out
    meta = page_data(target.read_text(encoding="utf-8"))[0]
    assert sorted(meta["sets"][0]["systems"]) == sorted(
        ["KIT", "LIUM-NMT", "PROMT-Rule-based", "online-B", "uedin-nmt"])
    monkeypatch.setenv("CYBLEU_DEMO_REPORT", str(tmp_path / "missing" / "demo.html"))
    assert main(["--demo"]) == 1
    assert "cannot write the demo report" in capsys.readouterr().err


def test_report_repr():
    refs, systems = demo(2, 10)
    text = repr(cybleu.report(refs, systems, metrics=["bleu"]))
    assert text.startswith("<cybleu Report") and "KIT" in text and "BLEU" in text


def test_texts_container_round_trip():
    texts = [["a", None, "", "\U0001F600x\U0001D518", "\u2028\0</script>", "\ud800 lone"],
             [], [None, None], ["x" * 10_000, "\U0001F600" * 3]]
    got = page.decode_texts(page.encode_texts(texts))
    expected = [[t.replace("\ud800", "?") if t else t for t in ts] for ts in texts]
    assert got == expected
    header, arrays = page.decode_payload(page.encode_texts(texts))
    # lengths count UTF-16 code units, as JavaScript's substring does
    assert arrays["o0"].tolist() == [1, 0, 0, 5, 11, 6]
    assert header["sets"][0]["nulls"] == [1] and header["sets"][2]["nulls"] == [0, 1]


def test_payload_container_round_trip():
    header = {"x": [1, 2.5, None, "\u2028</script>"]}
    arrays = {"a": np.arange(5, dtype=np.float64), "b": np.array([1, 2, 3], dtype=np.uint16),
              "c": np.array([], dtype=np.int32)}
    got_header, got_arrays = page.decode_payload(page.encode_payload(header, arrays))
    assert got_header["x"] == header["x"]
    for k, v in arrays.items():
        assert got_arrays[k].dtype == v.dtype and got_arrays[k].tolist() == v.tolist()
    with pytest.raises(ValueError, match="container"):
        page.decode_payload(b"XXXX" + struct.pack("<II", 1, 0))
