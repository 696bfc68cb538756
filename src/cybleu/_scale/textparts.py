"""Parallel text files cut into aligned line ranges, for the engines' readers (cybleu.dask).

`index_file` reads a file once, a megabyte at a time, and returns its number of lines and the byte
offset of every INDEX_EVERY-th line (plain files; a gzip file cannot be entered in the middle, so a
range of it is read from the start, skipping lines). `plan_ranges` turns the line counts of every
file of every stream into partitions of whole records, each a list of (path, first line, last line)
pieces per stream; `read_range` reads one partition's records, `read_columns` the same as one list
per stream. Nothing here holds a whole file.
"""
import gc
import glob as _glob
import gzip
import itertools
import os

__all__ = ["expand", "index_file", "plan_ranges", "read_range", "read_columns", "INDEX_EVERY"]

INDEX_EVERY = 1 << 14     # lines between two remembered offsets (a seek, then < this many skips)
_BLOCK = 1 << 20
_SPAN = 1 << 15           # bytes per read of a line range: its buffers stay below 128 KiB


def expand(stream):
    """The files of one stream: a path, a glob (sorted matches) or a list of those."""
    items = [stream] if isinstance(stream, (str, os.PathLike)) else list(stream)
    files = []
    for item in items:
        item = os.fspath(item)
        if any(ch in item for ch in "*?["):
            found = sorted(_glob.glob(item))
            if not found:
                raise FileNotFoundError(f"{item}: no file matches")
            files.extend(found)
        else:
            files.append(item)
    if not files:
        raise ValueError("a stream without files")
    return files


def _open(path):
    return gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")


def index_file(path):
    """(number of lines, offsets of lines 0, E, 2E, ... or None for gzip). A last line without
    a newline counts; an empty file has 0 lines."""
    offsets = None if path.endswith(".gz") else [0]
    lines = 0
    pos = 0
    last = 10
    # one buffer, read into again and again: Dask workers fix glibc's mmap threshold at 128 KiB
    # (MALLOC_TRIM_THRESHOLD_), so a new megabyte per read would be a fresh mapping to fault in
    buf = bytearray(_BLOCK)
    view = memoryview(buf)
    mask = None
    try:
        with _open(path) as f:
            while True:
                size = f.readinto(view)
                if not size:
                    break
                count = buf.count(b"\n", 0, size)
                if offsets is not None and lines // INDEX_EVERY != (lines + count) // INDEX_EVERY:
                    # this block ends line multiples of INDEX_EVERY: find those newlines
                    import numpy as np
                    if mask is None:
                        mask = np.empty(_BLOCK, dtype=bool)
                    np.equal(np.frombuffer(buf, dtype=np.uint8), 10, out=mask)
                    where = np.flatnonzero(mask[:size])
                    first = INDEX_EVERY - lines % INDEX_EVERY      # the 1-based newline wanted
                    for k in range(first - 1, count, INDEX_EVERY):
                        offsets.append(pos + int(where[k]) + 1)
                lines += count
                pos += size
                last = buf[size - 1]
    except (OSError, EOFError) as err:
        raise OSError(f"{path}: {err}") from None
    if last != 10:
        lines += 1
    return lines, offsets


def plan_ranges(streams, counts, group, records_per_partition):
    """Partitions of whole records over aligned streams.

    :param streams: per stream, its files.
    :param counts: per stream, per file, its number of lines.
    :param group: per stream, lines per record (1, or k for an n-best file).
    :returns: (number of records, [per partition: (first record, [per stream: [(path, first
        line, end line) ...]])]).
    :raises ValueError: when the streams do not hold the same number of records.
    """
    totals = [sum(c) for c in counts]
    records = []
    for files, total, g in zip(streams, totals, group):
        if total % g:
            raise ValueError(f"{' + '.join(files)}: {total} lines, not a multiple of {g}")
        records.append(total // g)
    if len(set(records)) > 1:
        parts = [f"{' + '.join(files)}: {total} lines" + (f" ({r} records of {g})" if g > 1 else "")
                 for files, total, r, g in zip(streams, totals, records, group)]
        raise ValueError("the files do not have the same number of lines: " + "; ".join(parts))
    n = records[0] if records else 0
    out = []
    for first in range(0, n, records_per_partition):
        last = min(n, first + records_per_partition)
        pieces = []
        for files, file_counts, g in zip(streams, counts, group):
            a, b = first * g, last * g
            mine, start = [], 0
            for path, count in zip(files, file_counts):
                lo, hi = max(a, start), min(b, start + count)
                if lo < hi:
                    mine.append((path, lo - start, hi - start))
                start += count
            pieces.append(mine)
        out.append((first, pieces))
    return n, out


def _lines(path, first, end, offsets, encoding):
    """Lines first..end-1 of a file (newline removed, nothing else), decoded."""
    if end <= first:
        return []
    if offsets is not None and end - first >= INDEX_EVERY:
        out = _lines_by_range(path, first, end, offsets, encoding)
        if out is not None:
            return out
    with _open(path) as f:
        if offsets is not None:
            f.seek(offsets[first // INDEX_EVERY])
            skip = first % INDEX_EVERY
        else:
            skip = first
        raw = list(itertools.islice(f, skip, skip + (end - first)))
    data = b"".join(raw)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError:
        for i, line in enumerate(raw):       # the line that cannot be decoded
            try:
                line.decode(encoding)
            except UnicodeDecodeError as err:
                raise ValueError(f"{path}: line {first + i + 1}: cannot decode as {encoding}: "
                                 f"{err.reason} (byte 0x{line[err.start]:02x})") from None
        raise
    out = text.split("\n")
    if text.endswith("\n") or not text:
        out.pop()
    if len(out) != end - first:
        raise ValueError(f"{path}: has {first + len(out)} lines, fewer than the {end} it had "
                         "when it was indexed (changed while reading?)")
    return out


def _lines_by_range(path, first, end, offsets, encoding):
    """_lines for a long range of an indexed file: the bytes from the remembered offset before
    `first` to the one after `end`, read and decoded in blocks of _SPAN bytes (no bytes object per
    line, and no temporary the size of the range: Dask workers fix glibc's mmap threshold at 128
    KiB, and every larger buffer would be a fresh mapping to fault in). None where the
    line-by-line reader must answer: a span that does not decode (the bad bytes may lie outside
    the range) or a file with fewer lines than indexed."""
    import codecs
    block = first // INDEX_EVERY
    stop = -(-end // INDEX_EVERY)
    skip = first - block * INDEX_EVERY
    want = end - first
    left = offsets[stop] - offsets[block] if stop < len(offsets) else -1
    from ..streams import LineSplitter
    decoder = codecs.getincrementaldecoder(encoding)()
    splitter, out = LineSplitter(), []
    with _open(path) as f:
        f.seek(offsets[block])
        while len(out) < skip + want:
            data = f.read(_SPAN if left < 0 else min(_SPAN, left)) if left else b""
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError:
                return None
            if not data:
                line = splitter.finish()
                if line is not None:
                    out.append(line)          # a last line without a newline
                break
            if left > 0:
                left -= len(data)
            out.extend(splitter.feed(text))
    if len(out) < skip + want:
        return None
    return out[skip:skip + want]


def read_range(pieces, group, offsets, encoding):
    """One partition's records: tuples with one item per stream (a line, or a tuple of `group`
    lines for a stream with several lines per record)."""
    return _rows(read_columns(pieces, group, offsets, encoding))


def read_columns(pieces, group, offsets, encoding):
    """One partition's records as columns, one list per stream (of lines, or of tuples of
    `group` lines): what a task that only scores and writes needs, without a tuple per row."""
    columns = []
    for stream_pieces, g in zip(pieces, group):
        lines = []
        for path, first, end in stream_pieces:
            lines.extend(_lines(path, first, end, offsets.get(path), encoding))
        if g > 1:
            lines = [tuple(lines[i:i + g]) for i in range(0, len(lines), g)]
        columns.append(lines)
    return columns


def _rows(columns):
    """list(zip(*columns)) with the collector off: the new tuples make no reference cycles, and
    a young-generation collection every 700 of them (each looking at everything young) took a
    fifth of the time of reading a partition."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return list(zip(*columns))
    finally:
        if enabled:
            gc.enable()


class Where:
    """Row -> "line L of FILE" for one stream's pieces of a partition (error messages)."""

    def __init__(self, pieces, group=1):
        self.pieces = pieces
        self.group = group

    def __call__(self, row):
        line = row * self.group
        for path, first, end in self.pieces:
            if line < end - first:
                return f"line {first + line + 1} of {path}"
            line -= end - first
        return None
