"""Inputs of the command line, read and scored a slice at a time.

- `LineSplitter`: decoded blocks of text into lines split at '\\n', linear in a line's length.
- `TextSource`: one file (`.gz` read transparently) or stdin, decoded with the -e encoding into
  sacreBLEU's lines (a file splits at '\\n' only, stdin at any newline); a decoding error names
  the input and its line, not a position in a read buffer.
- `MetricSlices`: one metric object per CHUNK_LINES slice of the references, each caching its
  slice; an input up to CHUNK_LINES lines (the usual case) is sacreBLEU's single metric object.
- `Reader`, `Feeder`, `System`: the systems' lines go through the metrics a slice at a time, so
  memory holds the references and the statistics, never the hypothesis text.
"""
import functools
import io
import itertools
import operator
import os
import sys

__all__ = ["CHUNK_LINES", "InputError", "LineSplitter", "TextSource", "read_references",
           "MetricSlices", "make_metrics", "System", "Feeder", "Reader", "CollectorParking",
           "count_lines"]

# Hypotheses are scored this many lines at a time (one metric object per slice of the
# references), so memory holds the references and statistics, not the hypothesis text.
CHUNK_LINES = 1 << 17


class LineTracker(io.BufferedIOBase):
    """A binary stream that remembers how many newlines came before the chunk it handed out
    last, so that a decoding error can name its line (the decoder only knows a position in its
    read buffer)."""

    def __init__(self, raw):
        super().__init__()
        self._raw = raw
        self.before = 0
        self._last = b""

    def readable(self):
        return True

    def _take(self, data):
        self.before += self._last.count(b"\n")
        self._last = data
        return data

    def read1(self, size=-1):
        reader = getattr(self._raw, "read1", None) or self._raw.read
        return self._take(reader(size))

    def read(self, size=-1):
        return self._take(self._raw.read(size))

    def readinto(self, buffer):
        data = self.read(len(buffer))
        buffer[:len(data)] = data
        return len(data)

    def line_of(self, err):
        """1-based line of a UnicodeDecodeError raised while decoding the last chunk."""
        obj = err.object if isinstance(err.object, (bytes, bytearray)) else b""
        return self.before + bytes(obj[:err.start]).count(b"\n") + 1

    def close(self):
        try:
            self._raw.close()
        finally:
            super().close()


class InputError(Exception):
    """An input that cannot be used: the lines the user sees, and the exit status (1, or 17 for
    sacreBLEU's malformed tab-separated input)."""

    def __init__(self, *messages, code=1):
        super().__init__("\n".join(messages))
        self.messages = messages
        self.code = code


class LineSplitter:
    """Blocks of decoded text -> the lines they complete, split at '\\n' only (the newline
    removed, nothing else). Linear in the length of a line: a line longer than a block is kept as
    its pieces and joined once."""

    def __init__(self):
        self._pending = []          # the pieces of the line not yet ended

    def feed(self, text):
        """The lines that `text` ends (a list, maybe empty)."""
        if "\n" not in text:
            if text:
                self._pending.append(text)
            return []
        parts = text.split("\n")
        if self._pending:
            self._pending.append(parts[0])
            parts[0] = "".join(self._pending)
        tail = parts.pop()
        self._pending = [tail] if tail else []
        return parts

    def finish(self):
        """The last line when the text did not end with a newline, else None."""
        if not self._pending:
            return None
        line = "".join(self._pending)
        self._pending = []
        return line


class TextSource:
    """Lines of one input (a file, .gz read transparently, or stdin), decoded with `encoding`,
    errors naming the input and line."""

    def __init__(self, path, encoding, stdin=False):
        self.path = path
        self.label = "standard input" if stdin else path
        self.encoding = encoding
        self.stdin = stdin
        self._tracker = None

    def __enter__(self):
        try:
            if self.stdin:
                buffer = getattr(sys.stdin, "buffer", None)
                if buffer is None:  # a text-only stream (tests): no re-decoding possible
                    self._stream, self._detach = sys.stdin, False
                    return self
                self._tracker = LineTracker(buffer)
                # sacreBLEU re-wraps stdin's bytes: universal newlines, the -e encoding
                self._stream = io.TextIOWrapper(self._tracker, encoding=self.encoding)
                self._detach = True
                return self
            if self.path.endswith(".gz"):
                import gzip
                raw = gzip.open(self.path, "rb")
            else:
                raw = open(self.path, "rb")
            self._tracker = LineTracker(raw)
            self._stream = io.TextIOWrapper(self._tracker, encoding=self.encoding, newline="\n")
            self._detach = False
        except LookupError as err:
            raise InputError(f"{self.label}: {err}") from None
        except OSError as err:
            raise InputError(os_error_message(self.label, err)) from None
        return self

    def __exit__(self, *exc):
        stream = getattr(self, "_stream", None)
        if stream is not None:
            if self._detach:
                try:
                    stream.detach()  # leave sys.stdin's buffer open
                except ValueError:
                    pass
            else:
                stream.close()
        return False

    def lines(self):
        """The lines, read lazily; errors become InputError naming the input and line."""
        with self._errors():
            yield from self._stream

    def blocks(self, max_lines, size=1 << 20):
        """The lines, right-stripped, in lists of at most `max_lines`, read a megabyte at a
        time (sacreBLEU's lines: a file splits at '\\n' only, stdin at any newline). Linear in
        the length of a line: a line longer than a block is kept as its pieces and joined once
        (a file with CR line ends, or none, is one line)."""
        with self._errors():
            read = self._stream.read
            splitter, out = LineSplitter(), []
            while True:
                text = read(size)
                if not text:
                    break
                out.extend([part.rstrip() for part in splitter.feed(text)])
                while len(out) >= max_lines:
                    yield out[:max_lines]
                    del out[:max_lines]
            line = splitter.finish()    # the pieces are gone before rstrip copies the line
            if line is not None:
                out.append(line.rstrip())
                del line
            while out:
                yield out[:max_lines]
                del out[:max_lines]

    def _errors(self):
        return _ReadErrors(self)


class _ReadErrors:
    """Turns a read or decoding error into an InputError naming the input (and line)."""

    def __init__(self, source):
        self.source = source

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb):
        if err is None:
            return False
        source = self.source
        if isinstance(err, UnicodeDecodeError):
            tracker = source._tracker
            where = f" line {tracker.line_of(err)}:" if tracker is not None else ""
            raise InputError(
                f"{source.label}:{where} cannot decode as {source.encoding}: {err.reason} "
                f"(byte 0x{err.object[err.start]:02x}). Use -e/--encoding to name the "
                "file's encoding.") from None
        if isinstance(err, (EOFError, OSError)):
            raise InputError(os_error_message(source.label, err)) from None
        if type(err).__name__ == "error" and type(err).__module__ == "zlib":
            raise InputError(f"{source.label}: not a valid gzip file ({err})") from None
        if isinstance(err, MemoryError):
            raise InputError(memory_message(source.label, "reading it")) from None
        if isinstance(err, UnicodeError):
            # a codec's other complaints, e.g. utf-16 without a byte order mark
            raise InputError(
                f"{source.label}: cannot decode as {source.encoding}: "
                f"{err or type(err).__name__}. Use -e/--encoding to name the file's "
                "encoding.") from None
        return False


def memory_message(label, doing):
    return (f"{label}: out of memory while {doing} (a line, or the references, too large for "
            "the memory available)")


class CollectorParking:
    """Keeps the references out of the garbage collector's way for one run.

    A full collection traverses every tracked container and everything it holds: the reference
    streams (one list entry per line), the metrics' caches and the slices of the references. A
    run makes more full collections the longer it is, so each line was traversed again and again
    and the time grew faster than the number of lines. Here the collector is off while the
    references are read and cached (start() .. park(): that phase makes no reference cycles);
    once they are built, a young-generation collection moves everything alive into the oldest
    generation, and automatic full collections are put off for the run (the oldest generation's
    threshold raised): young collections go on, and never visit the references. stop() restores
    the collector's thresholds and state. The permanent generation (gc.freeze) is not used: from
    Python 3.12 on the interpreter has objects of its own there, and unfreezing at the end would
    release them, or other code's, too."""

    def __init__(self):
        self.started = self.parked = False

    def start(self):
        import gc
        self.gc = gc
        self.started = True
        self.was_enabled = gc.isenabled()
        self.thresholds = gc.get_threshold()
        gc.disable()

    def park(self):
        """The references are cached: move them to the oldest generation, put off full
        collections, and let the collector run again."""
        if not self.parked:
            self.gc.collect(1)
            first, second, _ = self.thresholds
            self.gc.set_threshold(first, second, 1 << 30)
            self.parked = True
        if self.was_enabled:
            self.gc.enable()

    def stop(self):
        if self.parked:
            self.gc.set_threshold(*self.thresholds)
            self.parked = False
        if self.started and self.was_enabled:
            self.gc.enable()
        self.started = False


def count_lines(path, encoding):
    """How many lines TextSource.blocks will give for a plain file, counted at C speed on its
    bytes (a newline is the byte 0x0A in `encoding`, and never part of another character); None
    when that cannot be known without decoding (stdin, .gz, encodings such as UTF-16)."""
    import codecs
    if path == "-" or path.endswith(".gz") or not os.path.isfile(path):
        return None
    try:
        name = codecs.lookup(encoding).name
        if "\n".encode(name) != b"\n" or "a\n\n".encode(name) != b"a\n\n" \
                or name.startswith(("utf-16", "utf-32", "utf_16", "utf_32")):
            return None
        count, last = 0, b"\n"
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 22), b""):
                count += block.count(b"\n")
                last = block[-1:]
    except (LookupError, OSError, UnicodeError):
        return None     # reading it for real gives the error, naming the file
    return count + (last != b"\n")


def first_lines(path, encoding, n):
    """The first n lines of a file, as TextSource.blocks gives them."""
    with TextSource(path, encoding) as source:
        return next(source.blocks(n), [])


def check_decodes(path, encoding):
    """Read a file through, for its decoding errors only (InputError naming it and the line)."""
    with TextSource(path, encoding) as source:
        for _ in source.blocks(CHUNK_LINES):
            pass


def os_error_message(label, err):
    import gzip
    if isinstance(err, gzip.BadGzipFile) or (isinstance(err, EOFError)):
        return f"{label}: not a valid gzip file ({err or 'truncated'})"
    if err.errno is not None and err.strerror and err.strerror != os.strerror(err.errno):
        return f"{label}: {err.strerror}"   # said in words already (cybleu.outputs)
    if isinstance(err, FileNotFoundError):
        return f"{label}: no such file"
    if isinstance(err, IsADirectoryError):
        return f"{label}: is a directory, not a file"
    if isinstance(err, PermissionError):
        return f"{label}: permission denied"
    return f"{label}: {err.strerror or err}"


def read_references(ref_files_groups, num_refs, encoding):
    """Reference streams from groups of files (one group per test set, concatenated): one file
    per stream, or one file split on tabs into `num_refs` streams (sacreBLEU's -nr)."""
    full_refs = [[] for _ in range(max(len(ref_files_groups[0]), num_refs))]
    for ref_files in ref_files_groups:
        for refno, ref_file in enumerate(ref_files):
            with TextSource(ref_file, encoding) as source:
                if num_refs == 1:
                    for block in source.blocks(CHUNK_LINES):
                        full_refs[refno].extend(block)
                    continue
                lineno = 1
                for block in source.blocks(CHUNK_LINES):
                    for stream, part in zip(full_refs, split_fields(block, num_refs, lineno)):
                        stream.extend(part)
                    lineno += len(block)
    return full_refs


def split_fields(lines, num_refs, first_lineno):
    """Lines of a reference file split on tabs into `num_refs` streams (sacreBLEU's -nr); a line
    with another number of fields stops the run, named by its number in the file (the first of
    these lines being number first_lineno)."""
    parts = [[] for _ in range(num_refs)]
    for lineno, line in enumerate(lines, first_lineno):
        fields = line.split(sep="\t", maxsplit=num_refs - 1)
        if len(fields) != num_refs:
            raise InputError(f"FATAL: line {lineno}: expected {num_refs} "
                             f"fields, but found {len(fields)}.", code=17)
        for part, field in zip(parts, fields):
            part.append(field)
    return parts


class MetricSlices:
    """One metric, as one metric object per CHUNK_LINES slice of the references (each caching
    its slice), so that a hypothesis file can be scored a slice at a time. For inputs up to
    CHUNK_LINES lines it is exactly sacreBLEU's single metric object."""

    def __init__(self, key, cls, kwargs, refs, n_segments):
        self.key = key
        self.slices = []
        for start in range(0, max(n_segments, 1), CHUNK_LINES):
            part = [stream[start:start + CHUNK_LINES] for stream in refs]
            self.slices.append(_sliced(cls(**kwargs, references=part)))
        self.first = self.slices[0]
        nrefs = {getattr(m, "num_refs", None) for m in self.slices}
        if len(nrefs) > 1:  # slices disagree: the corpus has a variable number of references
            for m in self.slices:
                m.num_refs = -1
        # sacreBLEU looks for tokenized periods once per corpus (BLEU's check; 100 lines over
        # the whole system): the System counts them across slices and warns once, so no slice
        # warns on its own
        self.checks_tokenized = not getattr(self.first, "_force", True)
        for m in self.slices:
            if self.checks_tokenized:
                m._force = True

    def warn_tokenized(self):
        self.first._warn_tokenized()

    def statistics(self, k, lines):
        return self.slices[k]._extract_corpus_statistics(lines, None)

    def column_sums(self, k, lines, start):
        """The statistics of `lines` summed column by column onto `start` (the sums of the
        slices before, or None), as sacreBLEU's sum_of_lists sums the whole corpus: one row
        alone is returned as is; otherwise each column is added one value after the other (the
        order matters for TER's float lengths; builtin sum() compensates floats on Python 3.12+,
        sum_of_lists does not). Without a Python list per segment when the metric has flat
        statistics (integers: their order does not matter). None for no lines."""
        summed = getattr(self.slices[k], "_summed_statistics", None)
        sums = summed(lines) if summed is not None and lines else None
        if sums is not None:
            return sums if start is None else [a + b for a, b in zip(start, sums)]
        flat = self.flat_statistics(k, lines)
        if flat is not None:
            values, width = flat
            if not len(values):
                return start
            sums = [sum(values[j::width]) for j in range(width)]
            if start is None:
                return sums
            return [a + b for a, b in zip(start, sums)]
        rows = self.statistics(k, lines)
        if not rows:
            return start
        if start is None:
            if len(rows) == 1:
                return list(rows[0])
            start = [type(rows[0][0])(0.0)] * len(rows[0])
        return [functools.reduce(operator.add, column, first)
                for column, first in zip(zip(*rows), start)]

    def flat_statistics(self, k, lines):
        """The same statistics as (one flat int64 array, values per segment), or None when the
        metric has no such path (BLEU has, on its core)."""
        method = getattr(self.slices[k], "_flat_segment_statistics", None)
        return None if method is None else method(lines)


def _sliced(metric):
    """A metric made for one slice of the references: scored once against each system, then
    dropped (a metric that builds more for scoring again, BLEU's reference n-gram tables, skips
    that: per slice it would cost more than it saves, and all the slices of a long test set
    together could hold gigabytes)."""
    hook = getattr(metric, "_no_tables", None)
    if hook is not None:
        hook()
    return metric


class StreamedSlices(MetricSlices):
    """MetricSlices whose reference slices arrive one at a time, in step with the system's lines
    (one system scored in memory bounded by a slice): slice k is cached when its references are
    read, and dropped when the next one comes. The first slice's metric stays, without its
    references, for the signature and the score."""

    def __init__(self, key, cls, kwargs):  # pylint: disable=super-init-not-called
        self.key = key
        self.cls, self.kwargs = cls, kwargs
        self.slices = {}
        self.first = None
        self.checks_tokenized = False
        self.num_refs = None

    def load(self, k, ref_block):
        """The references of slice k (one list of lines per stream)."""
        previous = self.slices.pop(k - 1, None)
        if previous is not None and previous is self.first:
            previous._ref_cache = None   # only its settings are needed from now on
        del previous
        metric = _sliced(self.cls(**self.kwargs, references=ref_block))
        if self.first is None:
            self.first = metric
            self.checks_tokenized = not getattr(metric, "_force", True)
        if self.checks_tokenized:
            metric._force = True
        nrefs = getattr(metric, "num_refs", None)
        if self.num_refs is None:
            self.num_refs = nrefs
        elif nrefs != self.num_refs:  # slices disagree: a variable number of references
            self.first.num_refs = -1
        self.slices[k] = metric


# lines per slice when one system streams with its references: small enough that a slice's text
# and its cached references stay a few megabytes (the sums do not depend on the slicing: integers,
# and TER's float columns added row after row in order either way)
STREAM_LINES = 1 << 14


def stream_system(metric_args, registry, ref_paths, path, name, encoding, progress,
                  keep_rows=False, num_refs=1):
    """One system scored against its references read in step with it (stream_systems)."""
    systems, metrics = stream_systems(metric_args, registry, ref_paths, [path], [name],
                                      encoding, progress, keep_rows, num_refs)
    return systems[0], metrics


def stream_systems(metric_args, registry, ref_paths, paths, names, encoding, progress,
                   keep_rows=False, num_refs=1):
    """Systems scored against their references, all read in step, STREAM_LINES lines at a time
    (for files of equal length, more than CHUNK_LINES long): the same statistics and scores as
    caching the references first, in memory bounded by a slice of each file, whatever the number
    of systems (each slice of the references is cached once and scores every system). With
    keep_rows, each system keeps its segment statistics (for a test, an interval, -d or the
    sentence level): rows of numbers, not the text. With num_refs > 1, the one reference file
    holds that many references a line, split on tabs (-nr). Returns the Systems and the
    {key: StreamedSlices} that scored them."""
    from ._kernels.threads import map_in_threads
    metrics = {key: StreamedSlices(key, registry[key], kwargs)
               for key, kwargs in metric_args.items()}
    lines = min(STREAM_LINES, CHUNK_LINES)
    systems = [System(name, metrics, keep_rows, lines) for name in names]
    # BLEU alone reads and scores two systems' slices at a time where there are two cores, as
    # Reader.files reads two files at a time (its core releases the GIL while it counts)
    threads = 2 if (len(systems) > 1 and (os.cpu_count() or 1) > 1
                    and set(metrics) == {"BLEU"}) else 1
    sources = [TextSource(p, encoding) for p in ref_paths]
    targets = [TextSource(p, encoding) for p in paths]
    opened = []
    try:
        for source in sources + targets:
            opened.append(source.__enter__())
        # several systems: each file's reader holds a quarter of the text it holds alone
        size = 1 << 20 if len(systems) == 1 else 1 << 18
        ref_blocks = [source.blocks(lines, size) for source in sources]
        sys_blocks = [target.blocks(lines, size) for target in targets]
        lineno = 1
        for k, block in enumerate(sys_blocks[0]):
            if num_refs == 1:
                refs = [next(blocks) for blocks in ref_blocks]
            else:
                raw = next(ref_blocks[0])
                refs = split_fields(raw, num_refs, lineno)
                lineno += len(raw)
                del raw
            for key, metric in metrics.items():
                try:
                    metric.load(k, refs)
                except MemoryError:
                    raise InputError(memory_message(ref_paths[0],
                                                    f"caching them for {key}")) from None
            del refs
            first, block = block, None

            def step(i, first=first):
                try:
                    systems[i].add(metrics, first if i == 0 else next(sys_blocks[i]), False)
                except MemoryError:
                    raise InputError(memory_message(paths[i], "scoring it")) from None
            map_in_threads(step, range(len(systems)), threads)
            del first, step
            progress(systems[0].n_lines)
        for system in systems:
            system.finish(metrics)
    except MemoryError:
        raise InputError(memory_message(paths[0], "scoring it")) from None
    finally:
        for source in opened:
            source.__exit__(None, None, None)
    return systems, metrics


def make_metrics(registry, metric_args, refs, n_segments, label="the references"):
    """{key: MetricSlices} for {key: keyword arguments} (keys of `registry`, upper case); a
    metric that refuses its arguments raises InputError with its message."""
    metrics = {}
    for key, kwargs in metric_args.items():
        try:
            metrics[key] = MetricSlices(key, registry[key], kwargs, refs, n_segments)
        except MemoryError:
            raise InputError(memory_message(label, f"caching them for {key}")) from None
        except (ImportError, OSError, TypeError, ValueError, RuntimeError) as err:
            message = " ".join(str(err).split())
            prefix = f"{registry[key].__name__}: "
            raise InputError(message if message.startswith(prefix) else prefix + message) from err
    return metrics


_PERIODS = itertools.repeat(" .")   # the argument of str.endswith for each line


class System:
    """One system's results, filled while its lines stream past: per metric, the packed segment
    statistics when a test or the sentence level needs them, else the corpus score or the
    statistics' running totals."""

    def __init__(self, name, metrics, keep_rows, slice_lines=None):
        self.name = name
        self.slice_lines = slice_lines or CHUNK_LINES   # lines per slice of the references
        self.n_lines = 0
        self.keep_rows = keep_rows
        self.stats = None
        # a metric whose columns add exactly (segment means) keeps its rows, so that its sums
        # over every slice are exact; known when the metrics have their first slice
        self.exact = None
        # plain scoring does not import significance; streamed metrics know their columns
        # once their first slice is loaded
        if keep_rows and all(m.first is not None for m in metrics.values()):
            self._keep(metrics, metrics)
        self.totals = {key: None for key in metrics}
        self.scores = {}
        self.tokenized = 0     # lines ending in " ." (BLEU's check for tokenized input)

    def _keep(self, metrics, keys):
        from .significance import Statistics
        if self.stats is None:
            self.stats = {}
        for key in keys:
            self.stats[key] = Statistics(columns=metrics[key].first.statistic_columns())

    def _find_exact(self, metrics):
        self.exact = {key for key, metric in metrics.items() if any(
            col[1] == "exact" for col in metric.first.statistic_columns() or ())}
        if self.exact and not self.keep_rows:
            self._keep(metrics, self.exact)

    def corpus_score(self, metric):
        """The corpus score for one MetricSlices (the metric's _aggregate_and_compute)."""
        if self.keep_rows or metric.key in (self.exact or ()):
            from .significance import _score
            return _score(metric.first, self.stats[metric.key])
        if metric.key in self.scores:
            return self.scores[metric.key]
        return metric.first._compute_score_from_stats(self.totals[metric.key])

    def add(self, metrics, lines, only_slice):
        """Statistics of the next `lines` (at most one slice of the references). A system that
        is one slice long and needs no segment statistics is scored as sacreBLEU scores it,
        with corpus_score."""
        k = self.n_lines // self.slice_lines
        if self.keep_rows and self.stats is None:
            self._keep(metrics, metrics)
        if self.exact is None:
            self._find_exact(metrics)
        if any(metric.checks_tokenized for metric in metrics.values()):
            self.tokenized += sum(map(str.endswith, lines, _PERIODS))
        for key, metric in metrics.items():
            if only_slice and not self.keep_rows and key not in self.exact:
                self.scores[key] = metric.slices[0].corpus_score(lines, None)
                continue
            if self.keep_rows or key in self.exact:
                flat = metric.flat_statistics(k, lines)
                if flat is not None:
                    self.stats[key].extend_flat(*flat)
                else:
                    self.stats[key].extend(metric.statistics(k, lines))
                continue
            self.totals[key] = metric.column_sums(k, lines, self.totals[key])
        self.n_lines += len(lines)

    def finish(self, metrics):
        """sacreBLEU's warning about tokenized input, once for the whole system."""
        if self.tokenized >= 100:
            for metric in metrics.values():
                if metric.checks_tokenized:
                    metric.warn_tokenized()


class Feeder:
    """Collects a system's selected lines and hands them to the metrics a slice at a time; past
    the references' end it only counts lines (for the length error)."""

    def __init__(self, system, metrics, n_ref_lines, keep):
        self.system = system
        self.metrics = metrics
        self.n_ref_lines = n_ref_lines
        self.keep = keep
        self.index = 0
        self.buf = []
        self.overflow = False
        self.fed = False

    def push(self, lines):
        keep = self.keep
        if keep is None:
            self.buf.extend(lines)
        else:
            i = self.index
            self.buf.extend(line for j, line in enumerate(lines, i)
                            if j < len(keep) and keep[j])
        self.index += len(lines)
        while len(self.buf) >= CHUNK_LINES and (len(self.buf) > CHUNK_LINES or self.fed):
            self._flush(CHUNK_LINES)

    def _flush(self, n):
        chunk = self.buf[:n]
        del self.buf[:n]
        if not chunk:
            return
        system = self.system
        expected = min(CHUNK_LINES, self.n_ref_lines - system.n_lines)
        if self.overflow or len(chunk) != expected:
            # longer or shorter than the references: only count, for the length error
            self.overflow = True
            system.n_lines += len(chunk)
            return
        only = not self.fed and len(chunk) == self.n_ref_lines
        self.fed = True
        system.add(self.metrics, chunk, only)

    def finish(self):
        if self.buf or not self.fed:
            self._flush(len(self.buf))
        if not self.overflow:
            self.system.finish(self.metrics)
        return self.system


class Reader:
    """Streams the systems through the metrics, with the --origlang/--subset selection applied
    by line number."""

    def __init__(self, encoding, metrics, n_ref_lines, keep, keep_rows, progress):
        self.encoding = encoding
        self.metrics = metrics
        self.n_ref_lines = n_ref_lines  # after the subset selection
        self.keep = keep  # None, or one bool per input line
        self.keep_rows = keep_rows
        self.progress = progress

    def _feeder(self, name):
        system = System(name, self.metrics, self.keep_rows)
        return Feeder(system, self.metrics, self.n_ref_lines, self.keep)

    def file(self, path, name):
        feeder = self._feeder(name)
        total = 0
        try:
            with TextSource(path, self.encoding) as source:
                for block in source.blocks(CHUNK_LINES):
                    feeder.push(block)
                    total += len(block)
                    self.progress(total)
            return feeder.finish()
        except MemoryError:     # reading errors are InputErrors already: this is scoring
            raise InputError(memory_message(path, "scoring it")) from None

    def files(self, paths, names):
        """Every file, in order; two at a time on machines with two cores or more when only BLEU
        is computed (its core releases the GIL while it counts, and is made for concurrent
        calls). A read error surfaces for the first file in order that has one, as when reading
        one after the other."""
        if len(paths) < 2 or (os.cpu_count() or 1) < 2 or set(self.metrics) != {"BLEU"}:
            return [self.file(p, n) for p, n in zip(paths, names)]
        from ._kernels.threads import map_in_threads
        return map_in_threads(lambda pn: self.file(*pn), list(zip(paths, names)), 2)

    def stdin(self):
        """Tab-separated columns, one system each; the first line says how many."""
        try:
            return self._stdin()
        except MemoryError:
            raise InputError(memory_message("standard input", "scoring it")) from None

    def _stdin(self):
        with TextSource("-", self.encoding, stdin=True) as source:
            blocks = source.blocks(CHUNK_LINES)
            block = next(blocks, [""])
            fields = block[0].split("\t")
            num_sys = len(fields)
            feeders = [self._feeder(f"System {i + 1}") for i in range(num_sys)]
            columns = [[s] for s in fields]
            block = block[1:]
            total = 1
            while True:
                for line in block:
                    fields = line.split("\t")
                    if len(fields) != num_sys:
                        raise InputError("FATAL: the number of tab-delimited fields in the "
                                         "input stream differ across lines.", code=17)
                    for k, sent in enumerate(fields):
                        columns[k].append(sent.rstrip())
                for feeder, column in zip(feeders, columns):
                    feeder.push(column)
                columns = [[] for _ in range(num_sys)]
                total += len(block)
                self.progress(total)
                block = next(blocks, None)
                if block is None:
                    break
        return [feeder.finish() for feeder in feeders]
