"""Rich display in notebooks (Jupyter, VS Code, Colab): `_repr_mimebundle_` of a Report, the
scikit-learn pattern (a score's own block is `cybleu.metrics.display`'s, drawn from what the score
says about itself).

- text/plain always (the report's repr);
- text/html: a small block whose CSS is scoped to one element id, no script, with the plain
  text visible too, the id a hash of what is shown.
- A Report shows its score table (static HTML) and the interactive page in an `<iframe srcdoc>`
  (sandboxed: scripts run, with no access to the notebook), which survives export to static
  HTML. The inline HTML stays under the report's `notebook_limit` (INLINE_LIMIT bytes unless
  set): a larger report is shown without its segment-level data, and says so, on the page too.
"""
import math

from ..metrics.display import block_css as _css, block_id as _id, bundle as _bundle
from ..metrics.display import score_bundle, score_html
from .page import html_attribute, html_text

__all__ = ["score_html", "score_bundle", "report_bundle", "INLINE_LIMIT"]

#: the largest HTML a report shows in a notebook unless told (bytes of UTF-8; the package's
#: NOTEBOOK_LIMIT): Jupyter drops output above its IOPub rate limit (1 MB/s over a 3 s window),
#: and every byte stays in the .ipynb
INLINE_LIMIT = 1_000_000


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
