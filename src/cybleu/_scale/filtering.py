"""A parallel corpus split by sentence score, one line range per task: what `cybleu filter` does in
one process, cut into part files so that the engines' workers (cybleu.dask.filter_text) can each
take a range. The part files of a folder, in name order, hold exactly the lines `cybleu filter`
would write to the one file of that name.

A task reads its range as columns (no tuple per row), scores it in chunks with the metric's batch
kernel and writes every stream's kept and dropped lines. Each part file is written under a
temporary name and renamed when complete: a task that dies half-way (and is run again by the
engine) never leaves a truncated part behind.
"""
import errno
import os
import uuid
from collections import namedtuple

from . import partition as _partition, select as _select, textparts as _textparts

__all__ = ["Filtered", "added", "output_folders", "clear_parts", "part_name", "filter_range"]

Filtered = namedtuple("Filtered", "kept total")
Filtered.__doc__ = """filter_text's result: `kept` (segments whose score is within the bounds) and
`total` (segments read)."""

_PREFIX = "part-"
_LINES_PER_WRITE = 256


def added(results):
    """The Filtered counts of all partitions, added."""
    return Filtered(sum(r.kept for r in results), sum(r.total for r in results))


def output_folders(folder, names):
    """One folder per stream under `folder` (created), named after the stream's file; a ValueError
    when two streams share a name (their parts would mix)."""
    seen = {}
    for name in names:
        if name in seen:
            raise ValueError(f"two streams have the file name {name!r}: their parts in {folder} "
                             "would mix; give names=[...], one per stream")
        seen[name] = True
    paths = [os.path.join(os.fspath(folder), name) for name in names]
    for name, path in zip(names, paths):
        try:
            os.makedirs(path, exist_ok=True)
        except FileExistsError:
            raise FileExistsError(errno.EEXIST, f"{path} is a file: the parts of the stream "
                                  f"{name!r} go in a folder of that name; choose another "
                                  "output folder, or names=[...]", path) from None
    return paths


def clear_parts(folder):
    """Remove the part files an earlier run left in a stream's folder (a run over fewer partitions
    would otherwise leave stale parts that a glob reads back), and the temporary files of parts a
    killed worker never finished."""
    for entry in os.scandir(folder):
        if (entry.name.startswith(_PREFIX) or (entry.name.startswith("." + _PREFIX)
                                               and entry.name.endswith(".tmp"))) \
                and entry.is_file():
            os.remove(entry.path)


def part_name(index, n_parts, gz):
    """part-00007 (zero-padded so that name order is partition order), .gz for gzipped streams."""
    width = max(5, len(str(n_parts - 1)))
    return f"{_PREFIX}{index:0{width}d}" + (".gz" if gz else "")


def _write(path, lines, encoding):
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{uuid.uuid4().hex}.tmp")
    try:
        if path.endswith(".gz"):
            import gzip
            f = gzip.open(tmp, "wt", encoding=encoding, newline="\n")
        else:
            f = open(tmp, "w", encoding=encoding, newline="\n")
        with f:
            # a few hundred lines per write: one string of a whole part would be a buffer above
            # the 128 KiB that Dask workers fix as glibc's mmap threshold, faulted in afresh
            for start in range(0, len(lines), _LINES_PER_WRITE):
                f.write("\n".join(lines[start:start + _LINES_PER_WRITE]) + "\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise


def filter_range(pieces, offsets, encoding, metric, n_refs, bounds, outputs, number,
                 engine="cybleu"):
    """Score one partition's hypotheses (stream 0) against its references (the next `n_refs`
    streams) and write each stream's lines with bounds[0] <= score <= bounds[1] to its kept part
    file, the others to its dropped one.

    :param pieces: per stream, the partition's (path, first line, end line) pieces.
    :param offsets: path -> the line offsets `index_file` found (None for gzip).
    :param outputs: (kept part paths or None, dropped part paths or None), one path per stream.
    :param number: the partition's number, for error messages.
    :returns: Filtered(kept, total) of this partition.
    """
    import gc
    enabled = gc.isenabled()
    # the lines and scores make no reference cycles, and a worker process holds many objects
    # that each collection the new ones trigger would visit again
    gc.disable()
    try:
        return _filter_range(pieces, offsets, encoding, metric, n_refs, bounds, outputs, number,
                             engine)
    finally:
        if enabled:
            gc.enable()


def _filter_range(pieces, offsets, encoding, metric, n_refs, bounds, outputs, number, engine):
    import numpy as np
    columns = _textparts.read_columns(pieces, [1] * len(pieces), offsets, encoding)
    hyps, streams = columns[0], columns[1:1 + n_refs]
    lo, hi = bounds
    keep = np.empty(len(hyps), dtype=bool)
    step = _select.CHUNK_SEGMENTS
    for start in range(0, len(hyps), step):
        chunk = hyps[start:start + step]
        chunk_refs = [stream[start:start + step] for stream in streams]
        try:
            scores = _select.sentence_scores(metric, chunk, chunk_refs)
        except (TypeError, ValueError) as err:
            plan = _partition.Plan(metric, n_refs, engine)
            where = _textparts.Where(pieces[0])
            raise _partition._located(plan, err, chunk, chunk_refs, number,
                                      lambda row: where(start + row), start) from err
        keep[start:start + len(chunk)] = (scores >= lo) & (scores <= hi)
    for paths, wanted in zip(outputs, (True, False)):
        if paths is None:
            continue
        rows = np.flatnonzero(keep == wanted).tolist()
        for path, lines in zip(paths, columns):
            _write(path, [lines[i] for i in rows], encoding)
    return Filtered(int(keep.sum()), len(hyps))
