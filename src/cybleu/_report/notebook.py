"""Rich display in notebooks (Jupyter, VS Code, Colab): `_repr_mimebundle_` of the scores and of
a Report, the scikit-learn pattern.

- text/plain always (the score's repr, sacreBLEU's line);
- text/html: a small block whose CSS is scoped to one element id, no script, with the plain
  text visible too. The id is a hash of what is shown, so the same score gives the same HTML
  (stable for snapshot tests) and two different scores never share styles by accident.
- A Report shows its score table (static HTML) and the interactive page in an `<iframe srcdoc>`
  (sandboxed: scripts run, with no access to the notebook), which survives export to static
  HTML. The inline HTML stays under the report's `notebook_limit` (INLINE_LIMIT bytes unless
  set): a larger report is shown without its segment-level data, and says so, on the page too.
"""
import hashlib
import math

from . import NOTEBOOK_LIMIT as INLINE_LIMIT  # the default limit of a report's HTML (bytes)
from .page import html_attribute, html_text

__all__ = ["score_html", "score_bundle", "report_bundle", "INLINE_LIMIT"]

#: a BLEU read on corpus bands needs at least this many reference tokens
BAND_MIN_REF_TOKENS = 1000

_BANDS = [(0, 10, "almost useless"), (10, 20, "hard to get the gist"),
          (20, 30, "the gist is clear, but has significant grammatical errors"),
          (30, 40, "understandable to good translations"), (40, 50, "high quality translations"),
          (50, 60, "very high quality, adequate, and fluent translations"),
          (60, 101, "quality often better than human")]
_BAND_COLOURS = ["#d1242f", "#e16f24", "#d4a72c", "#9bb44d", "#4ac26b", "#2da44e", "#116329"]


def _id(kind, text):
    return f"cybleu-{kind}-" + hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def _css(root):
    """Styles that apply inside element #root only."""
    r = f"#{root}"
    return (f"{r}{{font:13px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;"
            "color:#1f2328;background:#fff;border:1px solid #d0d7de;border-radius:8px;"
            "padding:10px 14px;max-width:720px;display:block}"
            f"{r} .cy-head{{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}}"
            f"{r} .cy-name{{font-weight:600;color:#59636e}}"
            f"{r} .cy-value{{font-size:24px;font-weight:700;font-variant-numeric:tabular-nums}}"
            f"{r} .cy-ci{{color:#59636e}}"
            f"{r} .cy-band{{display:inline-block;padding:1px 8px;border-radius:10px;color:#fff;"
            "font-size:12px}"
            f"{r} .cy-note{{color:#59636e;font-size:11.5px;margin-top:4px}}"
            f"{r} .cy-warn{{color:#a40e26;border-left:3px solid #cf222e;padding-left:6px}}"
            f"{r} .cy-text{{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;"
            "white-space:pre-wrap;overflow-wrap:anywhere;margin:6px 0 0;color:#1f2328}"
            f"{r} .cy-charts{{display:flex;gap:18px;flex-wrap:wrap;margin-top:6px}}"
            f"{r} svg{{display:block}}"
            f"{r} table{{border-collapse:collapse;font-variant-numeric:tabular-nums}}"
            f"{r} th,{r} td{{padding:3px 10px;border-bottom:1px solid #d0d7de;text-align:right}}"
            f"{r} th:first-child,{r} td:first-child{{text-align:left}}"
            f"{r} iframe{{width:100%;height:760px;border:1px solid #d0d7de;border-radius:6px;"
            "margin-top:8px}"
            # a dark theme where the system asks for one (the page in the frame follows it too)
            f"@media (prefers-color-scheme:dark){{{r}{{color:#e6edf3;background:#0d1117;"
            f"border-color:#3d444d}}{r} .cy-name,{r} .cy-ci,{r} .cy-note{{color:#9198a1}}"
            f"{r} .cy-text{{color:#e6edf3}}{r} th,{r} td{{border-color:#3d444d}}"
            f"{r} svg text{{fill:#9198a1}}{r} svg line{{stroke:#3d444d}}}}")


def _num(x, digits=2):
    return f"{x:.{digits}f}"


def _count(x):
    """A count with thousands separators; two decimals where it is an average (TER's reference
    length over several references)."""
    x = float(x)
    return f"{x:,.0f}" if x.is_integer() else f"{x:,.2f}"


def _precision_svg(score):
    W, H, L, B, TOP = 250, 120, 30, 30, 8
    n = len(score.precisions)
    bw = (W - L - 6) / max(n, 1)
    parts = [f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="n-gram precisions">']
    for v in (0, 50, 100):
        y = TOP + (H - TOP - B) * (1 - v / 100)
        parts.append(f'<line x1="{L}" x2="{W - 6}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eaeef2"/>'
                     f'<text x="{L - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end" '
                     f'fill="#59636e">{v}</text>')
    for k, p in enumerate(score.precisions):
        p = float(p)
        h = (H - TOP - B) * max(0.0, min(p, 100.0)) / 100
        x = L + k * bw + bw * 0.2
        y = H - B - h
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw * 0.6:.1f}" height="{h:.1f}" '
                     f'fill="#0969da"><title>{k + 1}-grams: {int(score.counts[k])} / '
                     f'{int(score.totals[k])}</title></rect>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{y - 3:.1f}" font-size="10" '
                     f'text-anchor="middle" fill="#1f2328">{p:.1f}</text>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{H - B + 12}" font-size="10" '
                     f'text-anchor="middle" fill="#59636e">{k + 1}-gram</text>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{H - B + 24}" font-size="9" '
                     f'text-anchor="middle" fill="#8c959f">{int(score.counts[k])}/'
                     f'{int(score.totals[k])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _bp_svg(score):
    W, H, L, B, TOP = 230, 120, 30, 30, 8
    lo, hi = 0.5, 1.1

    def x(r):
        return L + (W - L - 6) * (r - lo) / (hi - lo)

    def y(v):
        return TOP + (H - TOP - B) * (1 - v)
    points = []
    for k in range(61):
        r = lo + (hi - lo) * k / 60
        bp = 1.0 if r >= 1.0 else math.exp(1 - 1 / r)
        points.append(f"{x(r):.1f},{y(bp):.1f}")
    ratio = min(max(float(score.ratio), lo), hi)
    bp = float(score.bp)
    return (f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
            f'aria-label="brevity penalty">'
            f'<line x1="{L}" x2="{W - 6}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#8c959f"/>'
            f'<text x="{L - 4}" y="{y(1) + 4:.1f}" font-size="10" text-anchor="end" '
            f'fill="#59636e">1</text><text x="{L - 4}" y="{y(0) + 4:.1f}" font-size="10" '
            f'text-anchor="end" fill="#59636e">0</text>'
            f'<polyline points="{" ".join(points)}" fill="none" stroke="#0969da" '
            f'stroke-width="1.5"/>'
            f'<circle cx="{x(ratio):.1f}" cy="{y(bp):.1f}" r="4" fill="#b35900"/>'
            f'<text x="{(L + W) / 2:.1f}" y="{H - B + 14}" font-size="10" text-anchor="middle" '
            f'fill="#59636e">BP over hyp/ref length {lo}\u2013{hi}</text>'
            f'<text x="{(L + W) / 2:.1f}" y="{H - B + 26}" font-size="10" text-anchor="middle" '
            f'fill="#b35900">ratio {float(score.ratio):.3f}, BP {bp:.3f}</text></svg>')


def _band(score):
    value = float(score.score)
    for k, (lo, hi, words) in enumerate(_BANDS):
        if value < hi or k == len(_BANDS) - 1:
            return k, f"{lo}\u2013{hi - 1}" if hi <= 100 else f"{lo}+", words
    return None


def _confidence(score):
    if getattr(score, "_mean", -1) > 0:
        return (f' <span class="cy-ci">\u03bc = {_num(score._mean)} \u00b1 '
                f'{_num(score._ci)}</span>')
    return ""


def score_html(score):
    """The HTML block of a BLEUScore, CHRFScore or TERScore (no script; CSS scoped to its id)."""
    from ..metrics import BLEUScore, CHRFScore, TERScore
    text = repr(score)
    kind = "bleu" if isinstance(score, BLEUScore) else "chrf" if isinstance(score, CHRFScore) \
        else "ter" if isinstance(score, TERScore) else "score"
    root = _id(kind, text)
    body = [f'<div class="cy-head"><span class="cy-name">{html_text(score.name)}</span>'
            f'<span class="cy-value">{_num(float(score.score))}</span>{_confidence(score)}']
    notes = []
    if kind == "bleu":
        if int(score.ref_len) >= BAND_MIN_REF_TOKENS:
            k, label, words = _band(score)
            body.append(f'<span class="cy-band" style="background:{_BAND_COLOURS[k]}">'
                        f'{html_text(label)}: {html_text(words)}</span>')
            notes.append("Band: Google Cloud Translation's rough guideline for corpus BLEU; "
                         "it depends on the language pair, the test set and the references.")
        else:
            notes.append(f"No band: BLEU of fewer than {BAND_MIN_REF_TOKENS:,} reference tokens "
                         "is not read on the corpus-level bands.")
    body.append("</div>")
    if kind == "bleu":
        body.append(f'<div class="cy-charts">{_precision_svg(score)}{_bp_svg(score)}</div>')
    elif kind == "chrf":
        notes.append(f"character n-grams up to {int(score.char_order)}, word n-grams up to "
                     f"{int(score.word_order)}, \u03b2 = {html_text(score.beta)}")
    elif kind == "ter":
        notes.append(f"{_count(score.num_edits)} edits over {_count(score.ref_length)} reference "
                     "words (lower is better)")
    body.append(f'<div class="cy-text">{html_text(text)}</div>')
    for note in notes:
        body.append(f'<div class="cy-note">{html_text(note)}</div>')
    return (f'<div id="{root}" class="cybleu-score"><style>{_css(root)}</style>'
            + "".join(body) + "</div>")


def _bundle(text, html, include, exclude):
    out = {"text/plain": text, "text/html": html}
    if include is not None:
        out = {k: v for k, v in out.items() if k in include}
    if exclude is not None:
        out = {k: v for k, v in out.items() if k not in exclude}
    return out


def score_bundle(score, include=None, exclude=None):
    """`_repr_mimebundle_` of a score: text/plain and text/html."""
    return _bundle(repr(score), score_html(score), include, exclude)


def _summary_table(report):
    meta = report._meta
    parts = []
    for ts in meta["sets"]:
        heads = "".join(f"<th>{html_text(m)}</th>" for m in ts["metrics"])
        rows = "".join(
            f"<tr><td>{html_text(name)}</td>" + "".join(f"<td>{html_text(v)}</td>" for v in row)
            + "</tr>" for name, row in zip(ts["systems"], ts["scores"]))
        n = int(ts["n_segments"])
        parts.append(f'<div class="cy-name">{html_text(ts["name"])} \u2014 '
                     f'{n:,} segment{"" if n == 1 else "s"}</div>'
                     f"<table><thead><tr><th>System</th>{heads}</tr></thead>"
                     f"<tbody>{rows}</tbody></table>")
        # a tokenization that does not suit the references' script, said under its scores
        for note in ts.get("notes", ()):
            parts.append(f'<div class="cy-note cy-warn">{html_text(note)}</div>')
    return "".join(parts)


def _size(n):
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} KB"


def report_html(report, limit=INLINE_LIMIT):
    """The Report's notebook HTML: its score table and the page in a sandboxed iframe, the whole
    under `limit` bytes (None: no limit): else the page without its segments, saying so (in the
    cell and on the page), else no iframe."""
    title = report.title
    root = _id("report", repr(report._meta))
    head = (f'<div id="{root}" class="cybleu-report"><style>{_css(root)}'
            f'#{root}{{max-width:none}}</style>'
            f'<div class="cy-head"><span class="cy-value" style="font-size:17px">'
            f'{html_text(title)}</span></div>{_summary_table(report)}')
    tail = "</div>"

    def frame(page):
        return (f'<iframe title="{html_attribute(title)}" sandbox="allow-scripts" '
                f'srcdoc="{html_attribute(page)}"></iframe>')
    html = head + frame(report.html()) + tail
    size = len(html.encode("utf-8"))
    if limit is None or size <= limit:
        return html
    enough = int(math.ceil(size / 100_000) * 100_000)
    note = (f"The whole report would take {_size(size)} here, over the notebook limit of "
            f"{_size(limit)}: shown without its segments (their text, sentence scores and "
            f"n-grams). report.notebook_limit = {enough:_} (or None) shows it all; "
            'report.save("report.html") writes it to a file.')
    html = (head + f'<div class="cy-note cy-left-out">{html_text(note)}</div>'
            + frame(report._html(light=note)) + tail)
    if len(html.encode("utf-8")) <= limit:
        return html
    return head + ('<div class="cy-note">The interactive report is too large to show inline '
                   f'({_size(size)}, over the notebook limit of {_size(limit)}): '
                   '<code>report.save("report.html")</code> writes it, or set '
                   '<code>report.notebook_limit</code>.</div>') + tail


def report_bundle(report, include=None, exclude=None):
    """`_repr_mimebundle_` of a Report (within its `notebook_limit`)."""
    return _bundle(repr(report), report_html(report, report.notebook_limit), include, exclude)
