"""The page: numbers and text packed into one self-contained HTML file, every string escaped
for where it goes.

- The data is one binary container: a JSON header (scores, tables, the segments' text) and
  typed arrays (sentence scores, segment statistics) aligned after it; gzip-compressed, then
  base64 (whose alphabet needs no escaping inside a script element). The page inflates it with
  the browser's DecompressionStream, or with its own small inflate where that is missing.
- A few fields the page shows before the data is unpacked (title, test-set names) sit in a JSON
  script element, escaped with `json_for_script`.
- The title and the static score table (shown when scripts do not run) are HTML text, escaped
  with `html_text`.
- A Content-Security-Policy meta element forbids every network request: the page loads nothing,
  and asks nothing of any server, even if something in it tried.
"""
import base64
import gzip
import html
import json
import re
import struct
from importlib import resources

__all__ = ["MAGIC", "encode_payload", "decode_payload", "encode_texts", "decode_texts",
           "json_for_script", "clean_text",
           "html_text", "html_attribute", "build_html", "page_blob", "blob_bytes", "CSP"]

MAGIC = b"CYBR"
VERSION = 1
# no network at all: scripts and styles only inline, images only from data: URLs
CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data:; connect-src 'none'; font-src 'none'; media-src 'none'; object-src 'none'; "
       "frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; "
       "form-action 'none'")

_DTYPES = {"float64": "f64", "float32": "f32", "int32": "i32", "uint32": "u32",
           "uint16": "u16", "int16": "i16", "uint8": "u8", "int8": "i8"}


def json_for_script(obj):
    """JSON text that is safe inside an HTML script element: `<`, `>` and `&` written as \\u
    escapes (no `</script>`, no `<!--`), U+2028/U+2029 escaped too (line terminators in older
    JavaScript). Those characters only occur inside JSON strings, where the escapes mean the
    same characters."""
    text = _dumps(obj)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _dumps(obj):
    return _dumps_bytes(obj).decode("utf-8")


def _dumps_bytes(obj):
    """Compact JSON as UTF-8 bytes (lone surrogates, which only Python strings can hold, as
    \\u escapes)."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj, ensure_ascii=True, separators=(",", ":"),
                          allow_nan=False).encode("ascii")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogate_escape(match):
    code = ord(match.group())
    if 0xdc80 <= code <= 0xdcff:   # a byte that did not decode (surrogateescape: file names)
        return f"\\x{code - 0xdc00:02x}"
    return f"\\u{code:04x}"


def clean_text(value):
    """str(value) with lone surrogates written as escapes, so that UTF-8 can hold it: a byte
    of a file name that is not UTF-8 (Python reads it as U+DC80-U+DCFF) as \\xff, another lone
    surrogate as \\ud800. Every other character stays as it is."""
    text = str(value)
    if _SURROGATE.search(text) is None:
        return text
    return _SURROGATE.sub(_surrogate_escape, text)


def html_text(value):
    """Text for HTML element content: &, <, >, quotes escaped; NUL (which HTML parsers drop or
    replace) shown as U+FFFD."""
    return html.escape(str(value).replace("\0", "\ufffd"), quote=True)


def html_attribute(value):
    """A value for a double-quoted attribute (the same escaping: & < > " ')."""
    return html_text(value)


def encode_payload(header, arrays):
    """The container: MAGIC, version, header length (little-endian uint32), the UTF-8 JSON
    header, padding to 8 bytes, then each array (little-endian, 8-byte aligned). The header
    gets an "arrays" entry: name -> [offset from the first array, dtype code, length]."""
    import numpy as np
    layout, chunks, offset = {}, [], 0
    for name, arr in arrays.items():
        a = np.ascontiguousarray(arr)
        code = _DTYPES.get(a.dtype.name)
        if code is None:
            raise TypeError(f"array {name}: dtype {a.dtype} has no code in the page")
        data = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        layout[name] = [offset, code, int(a.size)]
        pad = (-len(data)) % 8
        chunks.append(data + b"\0" * pad)
        offset += len(data) + pad
    head = dict(header)
    head["arrays"] = layout
    blob = _dumps_bytes(head)
    pad = (-(12 + len(blob))) % 8
    return b"".join([MAGIC, struct.pack("<II", VERSION, len(blob)), blob, b" " * pad] + chunks)


def decode_payload(data):
    """(header, {name: numpy array}) of a container (for tests and tools)."""
    import numpy as np
    if data[:4] != MAGIC:
        raise ValueError("not a cybleu report container")
    version, n = struct.unpack("<II", data[4:12])
    if version != VERSION:
        raise ValueError(f"container version {version}, expected {VERSION}")
    header = json.loads(data[12:12 + n].decode("utf-8"))
    base = 12 + n
    base += (-base) % 8
    types = {v: k for k, v in _DTYPES.items()}
    arrays = {}
    for name, (offset, code, size) in header.get("arrays", {}).items():
        dtype = np.dtype(types[code]).newbyteorder("<")
        arrays[name] = np.frombuffer(data, dtype=dtype, count=size, offset=base + offset)
    return header, arrays


#: gzip level of the embedded data: 4 makes 16 systems x 3,004 segments 8% larger than 6, in
#: half the time
GZIP_LEVEL = 4


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def encode_texts(texts_per_set):
    """The segments' text (one list of str or None per test set) as a container: per set the
    UTF-8 of all the strings joined ("s<k>") and each one's length in UTF-16 code units, as
    JavaScript strings count them ("o<k>"), Nones listed in the header. The page unpacks it after the first view, decodes it once and cuts strings out
    when it shows them: no JSON to parse for every segment."""
    import numpy as np
    header, arrays = {"sets": []}, {}
    for k, texts in enumerate(texts_per_set):
        present = [t for t in texts if t is not None]
        lengths = np.fromiter((len(t) if t is not None else 0 for t in texts), dtype=np.int64,
                              count=len(texts))
        joined = "".join(present)
        try:
            data = joined.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates (only from Python strings): one '?' each
            joined = joined.encode("utf-8", "replace").decode("utf-8")
            data = joined.encode("utf-8")
        offsets = np.zeros(len(texts) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        raw = np.frombuffer(data, dtype=np.uint8)
        # a character above U+FFFF is the only one whose UTF-8 starts with a byte >= 0xF0: one
        # pass of numpy over the bytes already encoded tells whether to look for them
        astral = np.array([m.start() for m in _ASTRAL.finditer(joined)]
                          if raw.size and raw.max() >= 0xF0 else [], dtype=np.int64)
        if astral.size:  # a character above U+FFFF is two UTF-16 code units
            offsets += np.searchsorted(astral, offsets, side="left")
        # lengths (small numbers) compress far better than where each string starts
        units = np.diff(offsets)
        arrays[f"o{k}"] = units.astype(np.uint16 if units.size == 0 or units.max() < 65536
                                       else np.uint32)
        arrays[f"s{k}"] = raw
        header["sets"].append({"n": len(texts),
                               "nulls": [i for i, t in enumerate(texts) if t is None]})
    return encode_payload(header, arrays)


def decode_texts(container):
    """The lists of strings (and Nones) of an encode_texts container."""
    header, arrays = decode_payload(container)
    out = []
    for k, ts in enumerate(header["sets"]):
        units = arrays[f"s{k}"].tobytes().decode("utf-8").encode("utf-16-le")
        offsets = [0]
        for n in arrays[f"o{k}"].tolist():
            offsets.append(offsets[-1] + n)
        nulls = set(ts["nulls"])
        out.append([None if i in nulls else
                    units[2 * int(offsets[i]):2 * int(offsets[i + 1])].decode("utf-16-le")
                    for i in range(ts["n"])])
    return out


def page_blob(container, compress=True):
    """(encoding, base64 text) of bytes to embed."""
    if compress:
        return "gzip", base64.b64encode(gzip.compress(container, compresslevel=GZIP_LEVEL,
                                                      mtime=0)).decode("ascii")
    return "none", base64.b64encode(container).decode("ascii")


def blob_bytes(encoding, text):
    """The container of a page's data element (the reverse of page_blob)."""
    raw = base64.b64decode(text)
    return gzip.decompress(raw) if encoding == "gzip" else raw


def _asset(name):
    return (resources.files("cybleu._report") / "assets" / name).read_text(encoding="utf-8")


def _static_table(meta):
    """Corpus scores as a plain table: what shows when scripts do not run."""
    parts = []
    for ts in meta["sets"]:
        parts.append(f"<h2>{html_text(ts['name'])}</h2>")
        for note in ts.get("notes", ()):
            parts.append(f"<p class=\"warn\">{html_text(note)}</p>")
        heads = "".join(f"<th>{html_text(m)}</th>" for m in ts["metrics"])
        parts.append(f"<table class=\"static\"><thead><tr><th>System</th>{heads}</tr></thead>"
                     "<tbody>")
        for name, row in zip(ts["systems"], ts["scores"]):
            cells = "".join(f"<td>{html_text(v)}</td>" for v in row)
            parts.append(f"<tr><th>{html_text(name)}</th>{cells}</tr>")
        parts.append("</tbody></table>")
    return "".join(parts)


def build_html(meta, container, texts=None, compress=True):
    """The whole page as a str. `meta`: the small JSON shown before unpacking (title, sets with
    their names, systems and formatted scores); `container`: encode_payload's bytes; `texts`:
    encode_texts' bytes, or None (a page without segments)."""
    if texts is not None and compress:
        # zlib lets go of the GIL: the two blobs compress side by side
        from .._kernels.threads import map_in_threads
        (encoding, blob), (text_encoding, text_blob) = map_in_threads(
            lambda data: page_blob(data, compress), [container, texts], 2)
    else:
        encoding, blob = page_blob(container, compress)
    text_element = ""
    if texts is not None:
        if not compress:
            text_encoding, text_blob = page_blob(texts, compress)
        text_element = (f"<script type=\"application/octet-stream\" id=\"cybleu-text\" "
                        f"data-encoding=\"{text_encoding}\">{text_blob}</script>\n")
    title = meta.get("title") or "cybleu report"
    css = _asset("report.css")
    js = _asset("report.js")
    return "".join([
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{html_attribute(CSP)}\">\n",
        "<meta name=\"referrer\" content=\"no-referrer\">\n",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
        "<meta name=\"generator\" content=\"", html_attribute(meta.get("generator", "cybleu")),
        "\">\n",
        f"<title>{html_text(title)}</title>\n<style>\n{css}\n</style>\n</head>\n<body>\n",
        "<header class=\"top\"><div class=\"brand\">cybleu report</div>",
        f"<h1 id=\"title\">{html_text(title)}</h1><nav id=\"tabs\" aria-label=\"Views\"></nav>"
        "</header>\n",
        "<main id=\"app\"><div id=\"loading\" class=\"note\">Unpacking the report\u2026</div>",
        "<div id=\"static\" class=\"static-wrap\">",
        "<p class=\"note\">The interactive views need JavaScript; these are the corpus scores."
        "</p>",
        _static_table(meta), "</div></main>\n",
        "<script type=\"application/json\" id=\"cybleu-meta\">", json_for_script(meta),
        "</script>\n",
        f"<script type=\"application/octet-stream\" id=\"cybleu-data\" "
        f"data-encoding=\"{encoding}\">", blob, "</script>\n", text_element,
        "<script>\n", js, "\n</script>\n</body>\n</html>\n",
    ])
