"""Notebook display: `_repr_mimebundle_` of BLEUScore, CHRFScore, TERScore, ROUGEScore and Report.

- Snapshots of the score blocks (tests/snapshots/*.snap; CYBLEU_UPDATE_SNAPSHOTS=1 rewrites
  them after a deliberate change: look at them in a browser before committing).
- Ids are stable (a hash of what is shown), every CSS rule is scoped to the block's id, there is
  no script in a score block, and nothing points outside the output (no src/href/action, no URL
  in the CSS), checked with html.parser, inside the report's iframe too.
- A report's inline HTML stays under its notebook limit (1 MB unless set) and shows its scores as
  plain HTML as well; a page left without its segments says so.
"""
import html
import html.parser
import os
import re
from pathlib import Path

import pytest

import cybleu
from cybleu.metrics import BLEU, CHRF, ROUGE, TER
from cybleu._report import notebook

from report_helpers import HOSTILE, demo

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture(autouse=True)
def default_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def scores():
    refs, systems = demo(2, 500)
    hyps = systems["KIT"]
    return {
        "bleu_corpus": BLEU().corpus_score(hyps, [refs]),
        "bleu_ci": BLEU().corpus_score(hyps[:100], [refs[:100]], n_bootstrap=100),
        "bleu_sentence": BLEU(effective_order=True).sentence_score(hyps[0], [refs[0]]),
        "chrf": CHRF().corpus_score(hyps, [refs]),
        "chrf_pp": CHRF(word_order=2).corpus_score(hyps, [refs]),
        "ter": TER().corpus_score(hyps, [refs]),
        "rouge": ROUGE().corpus_score(hyps, [refs]),
    }


class _Walk(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.styles, self._style, self.text = [], [], False, []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._style = tag == "style"

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag):
        if tag == "style":
            self._style = False

    def handle_data(self, data):
        (self.styles if self._style else self.text).append(data)


def walk(text):
    w = _Walk()
    w.feed(text)
    w.close()
    return w


LINK_ATTRIBUTES = {"src", "href", "xlink:href", "action", "formaction", "srcset", "poster",
                   "data", "background", "ping", "manifest", "codebase", "cite", "longdesc"}


def assert_nothing_leaves(text):
    """No attribute that loads or links anything, no event handler, no url() in CSS, no
    @import: nothing can leave the output."""
    w = walk(text)
    for tag, attrs in w.tags:
        for name, value in attrs.items():
            assert name not in LINK_ATTRIBUTES, (tag, name, value)
            assert not name.startswith("on"), (tag, name)
    css = "".join(w.styles)
    assert "url(" not in css and "@import" not in css
    return w


def assert_scoped(text, root):
    for css in walk(text).styles:
        for rule in re.findall(r"([^{}]+)\{[^{}]*\}", css):
            for selector in rule.split(","):
                assert selector.strip().startswith(f"#{root}"), selector


@pytest.mark.parametrize("key", ["bleu_corpus", "bleu_ci", "bleu_sentence", "chrf", "chrf_pp",
                                 "ter", "rouge"])
def test_score_snapshot(scores, key):
    got = notebook.score_html(scores[key])
    path = SNAPSHOTS / f"score_{key}.snap"  # not .html: the sdist leaves out generated HTML
    if os.environ.get("CYBLEU_UPDATE_SNAPSHOTS") == "1":
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert got == path.read_text(encoding="utf-8")


def test_score_bundle(scores):
    for key, score in scores.items():
        bundle = score._repr_mimebundle_()
        assert set(bundle) == {"text/plain", "text/html"}
        assert bundle["text/plain"] == repr(score)
        block = bundle["text/html"]
        assert block == score._repr_mimebundle_()["text/html"]          # stable
        root = re.match(r'<div id="(cybleu-[a-z]+-[0-9a-f]{10})"', block)[1]
        assert block.count(f'id="{root}"') == 1
        assert_scoped(block, root)
        w = assert_nothing_leaves(block)
        assert "script" not in {tag for tag, _ in w.tags}
        # the plain text is visible in the HTML too
        assert html.escape(repr(score)) in block
    assert scores["bleu_corpus"]._repr_mimebundle_(include=["text/plain"]) == \
        {"text/plain": repr(scores["bleu_corpus"])}
    assert set(scores["ter"]._repr_mimebundle_(exclude=["text/plain"])) == {"text/html"}
    ids = {re.match(r'<div id="([^"]+)"', s._repr_mimebundle_()["text/html"])[1]
           for s in scores.values()}
    assert len(ids) == len(scores)  # different scores never share an id


def test_bands_only_for_corpus_sized_bleu(scores):
    corpus = notebook.score_html(scores["bleu_corpus"])
    assert "20\u201329: the gist is clear" in corpus and "rough guideline" in corpus
    sentence = notebook.score_html(scores["bleu_sentence"])
    assert "cy-band" not in sentence.split("</style>", 1)[1] and "No band" in sentence


@pytest.mark.parametrize("types", [["rouge1", "rouge2", "rougeL", "rougeLsum"], ["rougeL"],
                                   [f"rouge{n}" for n in range(1, 10)] + ["rougeL", "rougeLsum"]])
def test_rouge_block_draws_each_types_precision_recall_and_f(types):
    """ROUGE's block: one P/R/F bar group per type, the values rouge-score's means (x 100),
    the line under it."""
    import math

    theirs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the oracle) "
                                 "is not installed: pip install rouge-score==0.1.2")
    from rouge_data import english_lines
    ref, hyp, _ = english_lines()
    refs, hyps = ref[:150], hyp[:150]
    score = ROUGE(types).corpus_score(hyps, [refs])
    block = notebook.score_html(score)
    scorer = theirs.RougeScorer(types)
    per = [scorer.score(r, h) for r, h in zip(refs, hyps)]
    want = {t: [100 * (math.fsum(s[t][k] for s in per) / len(per)) for k in range(3)]
            for t in types}
    names = {t: "ROUGE-" + t[5:] for t in types}
    w = assert_nothing_leaves(block)
    assert "script" not in {tag for tag, _ in w.tags}
    bars = re.findall(r'<rect x="[^"]+" y="[^"]+" width="[^"]+" height="([^"]+)" fill="#[0-9a-f]+">'
                      r'<title>([^<]+)</title>', block)
    assert [title for _, title in bars] == [f"{names[t]} {x}: {v:.2f}" for t in types
                                            for x, v in zip("PRF", want[t])]
    plot = 150 - 22 - 30
    assert [float(h) for h, _ in bars] == [float(f"{plot * v / 100:.1f}") for t in types
                                           for v in want[t]]
    text = "".join(w.text)
    if len(types) <= 4:
        assert all(f"{v:.1f}" in text for t in types for v in want[t])
        assert all(names[t] in text for t in types)
    else:   # short names under the groups, values in the bars' titles
        assert [f">{t[5:]}<" in block for t in types] == [True] * len(types)
    assert html.escape(repr(score)) in block


def _iframe(block):
    frames = [attrs for tag, attrs in walk(block).tags if tag == "iframe"]
    return frames[0] if frames else None


def test_report_bundle_is_small_scoped_and_closed():
    refs, systems = demo()
    rep = cybleu.report(refs, systems)
    bundle = rep._repr_mimebundle_()
    assert bundle["text/plain"] == repr(rep)
    block = bundle["text/html"]
    assert len(block.encode("utf-8")) < notebook.INLINE_LIMIT
    root = re.match(r'<div id="(cybleu-report-[0-9a-f]{10})"', block)[1]
    assert_scoped(block.split("<iframe", 1)[0], root)
    w = assert_nothing_leaves(block)
    for name in systems:  # the scores show without scripts
        assert name in w.text
    frame = _iframe(block)
    assert frame["sandbox"] == "allow-scripts"
    inner = frame["srcdoc"]
    assert inner == rep.html()          # 5 x 500 fits under the default limit, segments too
    assert_nothing_leaves(inner)
    assert bundle == rep._repr_mimebundle_()


def test_the_notebook_limit_is_a_parameter_and_the_page_says_what_it_left_out():
    from report_helpers import page_data
    refs, systems = demo(4, 500)
    assert cybleu.report(refs[:5], {k: v[:5] for k, v in systems.items()}).notebook_limit == \
        notebook.INLINE_LIMIT == 1_000_000
    rep = cybleu.report(refs, systems, notebook_limit=200_000)
    whole = len(rep.html().encode("utf-8"))
    assert 200_000 < whole < 1_000_000
    block = rep._repr_mimebundle_()["text/html"]
    assert len(block.encode("utf-8")) <= 200_000
    inner = _iframe(block)["srcdoc"]
    _, header, _ = page_data(inner)
    note = header["light"]["note"]
    assert "over the notebook limit of 200 KB" in note and "report.notebook_limit = " in note
    assert header["sets"][0]["texts"] is None and header["sets"][0]["ngrams"] is None
    assert any("over the notebook limit of 200 KB" in t
               for t in walk(block.split("<iframe", 1)[0]).text)
    # the number it suggests shows the whole report
    rep.notebook_limit = int(note.split("report.notebook_limit = ")[1].split(" ")[0])
    assert _iframe(rep._repr_mimebundle_()["text/html"])["srcdoc"] == rep.html()
    rep.notebook_limit = None
    assert _iframe(rep._repr_mimebundle_()["text/html"])["srcdoc"] == rep.html()
    for bad in (0, -5, 1.5, True, "1MB"):
        with pytest.raises(cybleu.ReportInputError, match="notebook_limit"):
            rep.notebook_limit = bad
        with pytest.raises(cybleu.ReportInputError, match="notebook_limit"):
            cybleu.report(refs[:5], {"a": refs[:5]}, notebook_limit=bad)


def test_small_report_is_shown_whole_and_a_huge_one_without_iframe(monkeypatch):
    refs, systems = demo(2, 40)
    rep = cybleu.report(refs, systems, metrics=["bleu"])
    assert _iframe(rep._repr_mimebundle_()["text/html"])["srcdoc"] == rep.html()
    block = notebook.report_html(rep, limit=20_000)
    assert _iframe(block) is None and "too large to show inline" in block
    assert len(block) < 20_000


def test_hostile_names_in_the_notebook():
    refs, systems = demo(2, 20)
    renamed = {HOSTILE[0]: systems["KIT"], HOSTILE[1] + "\0": systems["LIUM-NMT"]}
    rep = cybleu.report(refs, renamed, title=HOSTILE[2], metrics=["bleu"])
    block = rep._repr_mimebundle_()["text/html"]
    w = assert_nothing_leaves(block)
    assert {tag for tag, _ in w.tags} <= {"div", "style", "span", "table", "thead", "tbody",
                                          "tr", "th", "td", "iframe", "code"}
    assert HOSTILE[0] in w.text and HOSTILE[1] + "\ufffd" in w.text
    inner = _iframe(block)["srcdoc"]
    w = assert_nothing_leaves(inner)
    scripts = [attrs.get("id") for tag, attrs in w.tags if tag == "script"]
    assert scripts == ["cybleu-meta", "cybleu-data", "cybleu-text", None]
    assert inner.lower().count("<script") == inner.lower().count("</script") == 4


def test_numbers_are_written_one_way_and_dark_mode():
    """TER's note writes both counts with thousands separators (it wrote "4,930 edits over 8124
    words"), two decimals where the reference length is an average; the card has a dark theme."""
    sacre_ter = pytest.importorskip("sacrebleu.metrics").TER
    refs, systems = demo(2, 500)
    hyps = systems["KIT"]
    expected = sacre_ter().corpus_score(hyps, [refs])
    html_ = notebook.score_html(TER().corpus_score(hyps, [refs]))
    assert (f"{int(expected.num_edits):,} edits over {int(expected.ref_length):,} reference "
            "words") in html_
    assert expected.ref_length >= 1000                      # a separator to write
    two = sacre_ter().corpus_score(hyps[:3], [refs[:3], systems["LIUM-NMT"][:3]])
    assert not float(two.ref_length).is_integer()
    html_ = notebook.score_html(TER().corpus_score(hyps[:3], [refs[:3], systems["LIUM-NMT"][:3]]))
    assert f"over {two.ref_length:,.2f} reference words" in html_
    assert "prefers-color-scheme:dark" in html_
    root = re.match(r'<div id="(cybleu-ter-[0-9a-f]{10})"', html_)[1]
    assert_scoped(html_, root)


def test_the_notebook_card_says_when_the_tokenization_does_not_suit():
    from conftest import data_path, read_lines
    d = data_path("wmt", "wmt22", "en-zh")
    refs = read_lines(d / "ref.A.txt")[:100]
    systems = {n: read_lines(d / "sys" / f"{n}.txt")[:100] for n in ("DLUT", "GTCOM")}
    rep = cybleu.report(refs, systems, metrics=["bleu", "chrf"])
    cell = rep._repr_mimebundle_()["text/html"].split("<iframe", 1)[0]
    notes = [t for t in walk(cell).text if "look Chinese" in t]
    assert len(notes) == 1 and "-l SRC-zh" in notes[0]
    rep = cybleu.report(refs, systems, metrics=["bleu", "chrf"], language_pair="en-zh")
    assert "look Chinese" not in rep._repr_mimebundle_()["text/html"]
