"""Helpers of the report tests (test_report.py, test_notebook.py, test_report_browser.py): the
bundled sample, hostile strings, and reading a page's data back."""
import html.parser
import json
from importlib import resources

from cybleu._report import page

DEMO_SYSTEMS = ("KIT", "LIUM-NMT", "PROMT-Rule-based", "online-B", "uedin-nmt")

# what a user's files may hold, and must show literally and run nothing
HOSTILE = [
    "</script><script>window.__pwned = 'script'</script>",
    "<img src=x onerror=\"window.__pwned = 'img'\">",
    "<a href=\"javascript:window.__pwned = 'link'\">click</a>",
    "line\u2028separator and paragraph\u2029separator",
    "bidi \u202eevil\u202c override \u2066isolate\u2069",
    "NUL \0 byte and \x1b escape",
    "x" * 10_000,
    "<!-- comment --> & &amp; &lt;b&gt; ' \" `",
    "<svg onload=\"window.__pwned = 'svg'\"><script>window.__pwned = 'svg2'</script></svg>",
    "{{constructor.constructor('window.__pwned = 1')()}} ${window.__pwned = 'tpl'}",
    "astral \U0001F600 emoji and \U0001D518\U0001D52B\U0001D526 letters, then text",
]


def demo_lines(name):
    data = resources.files("cybleu") / "data"
    text = (data / f"wmt17-en-de.{name}.txt").read_text(encoding="utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def demo(n_systems=5, n_lines=500):
    refs = demo_lines("ref")[:n_lines]
    systems = {name: demo_lines(name)[:n_lines] for name in DEMO_SYSTEMS[:n_systems]}
    return refs, systems


def hostile_corpus():
    """A small corpus whose every text (source, references, hypotheses) is hostile, plus normal
    lines; and hostile system names."""
    normal = ["The cat sat on the mat .", "A dog barked at the postman ."]
    lines = HOSTILE + normal
    refs = list(lines)
    src = [f"source {k}: {line}" for k, line in enumerate(lines)]
    systems = {
        "<b>bold</b> & </script>": [line.replace("window", "self") for line in lines],
        "\u202eevil name\0": list(reversed(lines)),
    }
    return refs, systems, src


class _Scripts(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts = []          # (attrs, text)
        self.tags = []             # (tag, attrs)
        self._current = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if tag == "script":
            self._current = [dict(attrs), []]

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_data(self, data):
        if self._current is not None:
            self._current[1].append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._current is not None:
            self.scripts.append((self._current[0], "".join(self._current[1])))
            self._current = None


def parse_page(text):
    parser = _Scripts()
    parser.feed(text)
    parser.close()
    return parser


def page_data(text):
    """(meta JSON, header, arrays) of a report page."""
    parsed = parse_page(text)
    by_id = {attrs.get("id"): (attrs, body) for attrs, body in parsed.scripts}
    meta = json.loads(by_id["cybleu-meta"][1])
    attrs, blob = by_id["cybleu-data"]
    header, arrays = page.decode_payload(page.blob_bytes(attrs["data-encoding"], blob))
    if "cybleu-text" in by_id:
        attrs, blob = by_id["cybleu-text"]
        texts = page.decode_texts(page.blob_bytes(attrs["data-encoding"], blob))
        for ts, lines in zip(header["sets"], texts):
            ts["texts"] = lines
    return meta, header, arrays


def sentence(header, arrays, set_index, metric_index, system):
    ts = header["sets"][set_index]
    arr = arrays[ts["metrics"][metric_index]["sentence_array"]]
    n = ts["n_segments"]
    return arr[system * n:(system + 1) * n]


def seg_texts(ts, i):
    """(source, refs, hyps, tokens, marks) of segment i of a decoded test set."""
    lay = ts["text_layout"]
    base = i * lay["per_segment"]
    k = 0
    source = None
    if lay["source"]:
        source = ts["texts"][base]
        k = 1
    refs = ts["texts"][base + k:base + k + lay["n_refs"]]
    k += lay["n_refs"]
    hyps, toks, marks = [], [], []
    for _ in range(lay["n_systems"]):
        hyps.append(ts["texts"][base + k])
        k += 1
        if lay["tokens"]:
            toks.append(ts["texts"][base + k])
            marks.append(ts["texts"][base + k + 1])
            k += 2
        k += len(lay.get("extras", ()))
    return source, refs, hyps, toks, marks


def seg_alignments(ts, i):
    """{metric key: [the metric's alignment of segment i, decoded, per system]} of a decoded
    test set (the strings after each hypothesis)."""
    lay = ts["text_layout"]
    extras = lay.get("extras", [])
    base = i * lay["per_segment"] + (1 if lay["source"] else 0) + lay["n_refs"]
    stride = 1 + (2 if lay["tokens"] else 0) + len(extras)
    return {key: [json.loads(ts["texts"][base + s * stride + stride - len(extras) + x])
                  for s in range(lay["n_systems"])]
            for x, key in enumerate(extras)}
