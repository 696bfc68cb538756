"""A score's rich display in notebooks (Jupyter, VS Code, Colab): the block behind
`Score._repr_mimebundle_`, the scikit-learn pattern.

The score says what to show beside its line (`Score._display()`: a kind for the block's id, an
interpretation band or none, charts, notes); this module only draws it, and never names a metric:

- text/plain always (the score's repr, sacreBLEU's line);
- text/html: a small block whose CSS is scoped to one element id, no script, with the plain
  text visible too. The id is a hash of what is shown, so the same score gives the same HTML
  (stable for snapshot tests) and two different scores never share styles by accident.
"""
import hashlib
import html

__all__ = ["score_html", "score_bundle", "block_id", "block_css", "html_text"]


def html_text(value):
    """Text for HTML element content: &, <, >, quotes escaped; NUL (which HTML parsers drop or
    replace) shown as U+FFFD."""
    return html.escape(str(value).replace("\0", "\ufffd"), quote=True)


def block_id(kind, text):
    """A stable element id for a block of `kind` showing `text`."""
    return f"cybleu-{kind}-" + hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def block_css(root):
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


def _bars_svg(chart):
    """Bars of percentages (n-gram precisions), each with its count over its total."""
    W, H, L, B, TOP = 250, 120, 30, 30, 8
    values, counts, totals, unit = chart["values"], chart["counts"], chart["totals"], chart["unit"]
    n = len(values)
    bw = (W - L - 6) / max(n, 1)
    parts = [f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
             f'aria-label="{html_text(chart["aria"])}">']
    for v in (0, 50, 100):
        y = TOP + (H - TOP - B) * (1 - v / 100)
        parts.append(f'<line x1="{L}" x2="{W - 6}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eaeef2"/>'
                     f'<text x="{L - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end" '
                     f'fill="#59636e">{v}</text>')
    for k, p in enumerate(values):
        p = float(p)
        h = (H - TOP - B) * max(0.0, min(p, 100.0)) / 100
        x = L + k * bw + bw * 0.2
        y = H - B - h
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw * 0.6:.1f}" height="{h:.1f}" '
                     f'fill="#0969da"><title>{k + 1}{unit}s: {int(counts[k])} / '
                     f'{int(totals[k])}</title></rect>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{y - 3:.1f}" font-size="10" '
                     f'text-anchor="middle" fill="#1f2328">{p:.1f}</text>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{H - B + 12}" font-size="10" '
                     f'text-anchor="middle" fill="#59636e">{k + 1}{unit}</text>'
                     f'<text x="{x + bw * 0.3:.1f}" y="{H - B + 24}" font-size="9" '
                     f'text-anchor="middle" fill="#8c959f">{int(counts[k])}/'
                     f'{int(totals[k])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _curve_svg(chart):
    """A curve from 0 to 1 (the brevity penalty) over [lo, hi], with the score's point on it."""
    W, H, L, B, TOP = 230, 120, 30, 30, 8
    lo, hi = chart["lo"], chart["hi"]

    def x(r):
        return L + (W - L - 6) * (r - lo) / (hi - lo)

    def y(v):
        return TOP + (H - TOP - B) * (1 - v)
    points = " ".join(f"{x(r):.1f},{y(v):.1f}" for r, v in chart["points"])
    return (f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
            f'aria-label="{html_text(chart["aria"])}">'
            f'<line x1="{L}" x2="{W - 6}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#8c959f"/>'
            f'<text x="{L - 4}" y="{y(1) + 4:.1f}" font-size="10" text-anchor="end" '
            f'fill="#59636e">1</text><text x="{L - 4}" y="{y(0) + 4:.1f}" font-size="10" '
            f'text-anchor="end" fill="#59636e">0</text>'
            f'<polyline points="{points}" fill="none" stroke="#0969da" '
            f'stroke-width="1.5"/>'
            f'<circle cx="{x(chart["x"]):.1f}" cy="{y(chart["y"]):.1f}" r="4" fill="#b35900"/>'
            f'<text x="{(L + W) / 2:.1f}" y="{H - B + 14}" font-size="10" text-anchor="middle" '
            f'fill="#59636e">{html_text(chart["caption"])}</text>'
            f'<text x="{(L + W) / 2:.1f}" y="{H - B + 26}" font-size="10" text-anchor="middle" '
            f'fill="#b35900">{html_text(chart["label"])}</text></svg>')


#: the colours of a "prf" chart's precision, recall and F bars
PRF_COLOURS = ("#0969da", "#b35900", "#1a7f37")


def _prf_svg(chart):
    """Precision, recall and F (percentages) of each part (ROUGE's types), side by side: a
    group of three bars per part, the value over each bar where there is room, each part's
    name under its group (its short `ticks` name where the full one does not fit)."""
    parts, values = chart["parts"], chart["values"]
    names = chart.get("names", ("P", "R", "F"))
    n = max(len(parts), 1)
    L, B, TOP, H = 30, 30, 22, 150
    gw = max(36.0, min(96.0, (680 - L) / n))
    W = max(200, int(L + n * gw + 8))
    bw = gw * 0.8 / 3
    labelled = bw >= 24
    # about 6 px a character at font-size 10
    ticks = parts if max(map(len, parts), default=0) * 6 < gw - 4 else chart.get("ticks", parts)
    plot = H - TOP - B
    out = [f'<svg width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" '
           f'aria-label="{html_text(chart["aria"])}">']
    for v in (0, 50, 100):
        y = TOP + plot * (1 - v / 100)
        out.append(f'<line x1="{L}" x2="{W - 6}" y1="{y:.1f}" y2="{y:.1f}" stroke="#eaeef2"/>'
                   f'<text x="{L - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end" '
                   f'fill="#59636e">{v}</text>')
    for k, name in enumerate(names):           # the legend, top right
        x = W - 6 - (len(names) - k) * 26
        out.append(f'<rect x="{x}" y="4" width="9" height="9" fill="{PRF_COLOURS[k % 3]}"/>'
                   f'<text x="{x + 12}" y="12" font-size="10" fill="#59636e">'
                   f'{html_text(name)}</text>')
    for g, (part, triple) in enumerate(zip(parts, values)):
        x0 = L + g * gw + gw * 0.1
        for k, v in enumerate(triple):
            v = float(v)
            h = plot * max(0.0, min(v, 100.0)) / 100
            x, y = x0 + k * bw, TOP + plot - h
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bw - 1:.1f}" height="{h:.1f}" '
                       f'fill="{PRF_COLOURS[k % 3]}"><title>{html_text(part)} '
                       f'{html_text(names[k])}: {v:.2f}</title></rect>')
            if labelled:
                out.append(f'<text x="{x + (bw - 1) / 2:.1f}" y="{y - 3:.1f}" font-size="9" '
                           f'text-anchor="middle" fill="#1f2328">{v:.1f}</text>')
        out.append(f'<text x="{x0 + 1.5 * bw:.1f}" y="{H - B + 14}" font-size="10" '
                   f'text-anchor="middle" fill="#59636e">{html_text(ticks[g])}</text>')
    out.append("</svg>")
    return "".join(out)


_CHARTS = {"bars": _bars_svg, "curve": _curve_svg, "prf": _prf_svg}


def _confidence(score):
    if getattr(score, "_mean", -1) > 0:
        return (f' <span class="cy-ci">\u03bc = {_num(score._mean)} \u00b1 '
                f'{_num(score._ci)}</span>')
    return ""


def _display_of(score):
    display = getattr(score, "_display", None)
    got = display() if display is not None else None
    return got or {"kind": "score", "band": None, "charts": [], "notes": []}


def score_html(score):
    """The HTML block of a score (no script; CSS scoped to its id)."""
    text = repr(score)
    shown = _display_of(score)
    root = block_id(shown.get("kind") or "score", text)
    body = [f'<div class="cy-head"><span class="cy-name">{html_text(score.name)}</span>'
            f'<span class="cy-value">{_num(float(score.score))}</span>{_confidence(score)}']
    band = shown.get("band")
    if band is not None:
        label, words, colour = band
        body.append(f'<span class="cy-band" style="background:{html_text(colour)}">'
                    f'{html_text(label)}: {html_text(words)}</span>')
    body.append("</div>")
    charts = [_CHARTS[chart["kind"]](chart) for chart in shown.get("charts", ())
              if chart.get("kind") in _CHARTS]
    if charts:
        body.append(f'<div class="cy-charts">{"".join(charts)}</div>')
    body.append(f'<div class="cy-text">{html_text(text)}</div>')
    for note in shown.get("notes", ()):
        body.append(f'<div class="cy-note">{html_text(note)}</div>')
    return (f'<div id="{root}" class="cybleu-score"><style>{block_css(root)}</style>'
            + "".join(body) + "</div>")


def bundle(text, html_block, include, exclude):
    """A mime bundle of text/plain and text/html, filtered as Jupyter asks."""
    out = {"text/plain": text, "text/html": html_block}
    if include is not None:
        out = {k: v for k, v in out.items() if k in include}
    if exclude is not None:
        out = {k: v for k, v in out.items() if k not in exclude}
    return out


def score_bundle(score, include=None, exclude=None):
    """`_repr_mimebundle_` of a score: text/plain and text/html."""
    return bundle(repr(score), score_html(score), include, exclude)
