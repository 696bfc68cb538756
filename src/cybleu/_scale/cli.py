"""`cybleu best-of` and `cybleu filter`: sentence scores over files too large to hold.

    cybleu best-of -k 8 -r ref.txt -i nbest.txt > best.txt       # bestbleu.py, in the kernel
    cybleu filter -i bt.de -r train.de --also train.en --min 20 --kept kept/ --dropped dropped/

Both read their inputs in slices (CHUNK_SEGMENTS segments at a time, all files in step), so memory
holds one slice whatever the size of the files; lines are written back exactly as read. Errors
follow the main command line's: a `cybleu: ` message naming the file and line, exit status 1.
sacreBLEU's own command line (`cybleu REF -i HYP ...`) is untouched: `cli.main` hands over only
when the first argument is one of these commands and no file of that name exists.
"""
import argparse
import logging
import os
import sys

from .. import streams
from ..outputs import Output, check_outputs, same_path

logger = logging.getLogger("cybleu.cli")

COMMANDS = ("best-of", "filter")
# the options every metric may take, by the name of its constructor's argument
_SHARED = ("tokenize", "lowercase", "case_sensitive")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def _takers(param):
    """The labels of the registered metrics whose constructor takes `param` (what an option's
    help and errors name), in registry order."""
    import inspect

    from .. import metrics
    out = []
    for name in metrics.names():
        cls = metrics.get(name)
        if param in inspect.signature(cls).parameters and cls.label not in out:
            out.append(cls.label)
    return out


def _lowest():
    """The labels of the registered metrics where lower is better."""
    from .. import metrics
    out = []
    for name in metrics.names():
        cls = metrics.get(name)
        if not cls.higher_is_better and cls.label not in out:
            out.append(cls.label)
    return out


def _metric_options(parser):
    from .. import metrics
    group = parser.add_argument_group("metric")
    group.add_argument("-m", "--metric", choices=metrics.choices(), default="bleu",
                       help="the sentence score (default: bleu, sentence BLEU with effective "
                            "order, as sacreBLEU's sentence_bleu)")
    group.add_argument("-tok", "--tokenize", default=None,
                       help=f"{' and '.join(_takers('tokenize'))}'s tokenizer (default: 13a)")
    group.add_argument("-lc", "--lowercase", action="store_true",
                       help=f"lowercase before scoring ({', '.join(_takers('lowercase'))}; "
                            f"{', '.join(_takers('case_sensitive'))} is case-insensitive unless "
                            "--case-sensitive)")
    group.add_argument("--case-sensitive", action="store_true",
                       help=f"{', '.join(_takers('case_sensitive'))}: keep case")
    # a metric that the shared options above do not reach brings its own (COMMAND_OPTIONS)
    own = {}
    for name in metrics.names():
        cls = metrics.get(name)
        if cls in own:
            continue
        own[cls] = []
        options = getattr(cls, "COMMAND_OPTIONS", ())
        if any(param in _SHARED for _, _, param in options) or any(
                flag in parser._option_string_actions for flags, _, _ in options for flag in flags):
            continue
        for flags, keywords, param in options:
            action = group.add_argument(*flags, **keywords)
            own[cls].append((action.dest, param, flags[0], action.default))
    parser.set_defaults(metric_options_=own)
    parser.add_argument("-e", "--encoding", default="utf-8", help="input encoding (utf-8)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress, no summary")


def build_parsers():
    best = _Parser(prog="cybleu best-of",
                   description="For each segment, write the candidate with the best sentence "
                               "score among its k candidates (k consecutive lines of the n-best "
                               "file); the first of equal scores wins. "
                               f"{', '.join(_lowest())}: the lowest.")
    best.add_argument("-k", type=int, required=True, help="candidates per segment")
    best.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                      help="reference files, one line per segment (.gz read transparently)")
    best.add_argument("-i", "--input", default=None, metavar="NBEST",
                      help="the candidates, k lines per segment (default: standard input)")
    best.add_argument("-o", "--output", default=None,
                      help="where the best candidates go (default: standard output)")
    best.add_argument("--scores", default=None, metavar="FILE",
                      help="also write '<index>\\t<score>' per segment here (index 0..k-1)")
    _metric_options(best)

    filt = _Parser(prog="cybleu filter",
                   description="Split a parallel corpus by the sentence score of the hypothesis "
                               "against the references: lines with --min <= score <= --max go "
                               "to --kept, the others to --dropped, every file in step.")
    filt.add_argument("-i", "--input", required=True, metavar="HYP",
                      help="the side to score, one line per segment")
    filt.add_argument("-r", "--refs", nargs="+", required=True, metavar="REF",
                      help="reference files, aligned with the input")
    filt.add_argument("--also", nargs="+", default=[], metavar="FILE",
                      help="more aligned files (e.g. the source side), split the same way")
    filt.add_argument("--min", type=float, default=None, help="keep scores >= this")
    filt.add_argument("--max", type=float, default=None, help="keep scores <= this")
    filt.add_argument("--kept", default=None, metavar="DIR",
                      help="folder for the kept lines (each file under its own name; .gz "
                           "names are written gzipped)")
    filt.add_argument("--dropped", default=None, metavar="DIR",
                      help="folder for the dropped lines")
    filt.add_argument("--scores", default=None, metavar="FILE",
                      help="also write every segment's score here, one per line")
    _metric_options(filt)
    return {"best-of": best, "filter": filt}


def _metric(args):
    """The sentence-score metric of the arguments: the shared options go to the metrics whose
    constructor takes them; --tokenize to another is an error naming its metric."""
    import inspect

    from .. import metrics
    from .select import sentence_metric
    try:
        params = inspect.signature(metrics.get(args.metric)).parameters
    except KeyError:
        raise streams.InputError(f"unknown metric {args.metric!r}") from None
    if args.tokenize is not None and "tokenize" not in params:
        raise streams.InputError(f"--tokenize is {' and '.join(_takers('tokenize'))}'s option, "
                                 f"not {args.metric}'s")
    kwargs = {name: getattr(args, name) for name in _SHARED if name in params}
    chosen = metrics.get(args.metric)
    for cls, options in args.metric_options_.items():
        for dest, param, flag, default in options:
            if cls is chosen:
                kwargs[param] = getattr(args, dest)
            elif getattr(args, dest) != default:
                # another metric's option would be silently ignored
                names = [name for name in metrics.names() if metrics.get(name) is cls]
                raise streams.InputError(f"{flag} is {cls.label}'s option (-m "
                                         f"{', '.join(names)}), not {args.metric}'s")
    if kwargs.get("tokenize") is None:
        kwargs.pop("tokenize", None)
    try:
        return sentence_metric(args.metric, **kwargs)
    except (ValueError, TypeError) as err:
        raise streams.InputError(str(err)) from None


def _blocks(source, max_lines, size=1 << 20):
    """The lines of an open TextSource as read (newline removed, nothing stripped), in lists
    of at most max_lines."""
    with source._errors():
        read = source._stream.read
        splitter, out = streams.LineSplitter(), []
        while True:
            text = read(size)
            if not text:
                break
            out.extend(splitter.feed(text))
            while len(out) >= max_lines:
                yield out[:max_lines]
                del out[:max_lines]
        line = splitter.finish()
        if line is not None:
            out.append(line)
        while out:
            yield out[:max_lines]
            del out[:max_lines]


def _position(source):
    """How far into its file (in bytes) a TextSource has read, or None."""
    raw = getattr(getattr(source, "_tracker", None), "_raw", None)
    raw = getattr(raw, "fileobj", raw)       # a gzip file: the compressed position
    try:
        return raw.tell()
    except (AttributeError, OSError, ValueError):
        return None


class _Inputs:
    """Files read in step, `per[i]` lines of file i per segment, in slices of `chunk` segments.
    Yields lists of lines per file; errors name the file that ends early."""

    def __init__(self, sources, per, chunk):
        self.sources, self.per, self.chunk = sources, per, chunk
        self.lines = [0] * len(sources)

    def __iter__(self):
        iters = [_blocks(src, self.chunk * p) for src, p in zip(self.sources, self.per)]
        while True:
            slices = [next(it, None) for it in iters]
            if all(s is None for s in slices):
                return
            slices = [[] if s is None else s for s in slices]
            counts = [len(s) for s in slices]
            for i, n in enumerate(counts):
                self.lines[i] += n
            segs = [n // p for n, p in zip(counts, self.per)]
            if len(set(segs)) > 1 or any(n % p for n, p in zip(counts, self.per)):
                self._mismatch(iters)
            yield slices

    def _mismatch(self, iters):
        # read the rest to report every file's length
        for i, it in enumerate(iters):
            for block in it:
                self.lines[i] += len(block)
        parts = []
        for src, n, p in zip(self.sources, self.lines, self.per):
            unit = "line" if n == 1 else "lines"
            if p > 1:
                unit += f" (not a multiple of {p})" if n % p else f" ({n // p} segments of {p})"
            parts.append(f"{src.label}: {n} {unit}")
        raise streams.InputError("the inputs do not have the same number of segments: "
                                 + "; ".join(parts))


def _open_sources(paths, encoding, stdin_for=None):
    out = []
    for path in paths:
        out.append(streams.TextSource(path, encoding, stdin=path is None))
    return out


def _score_slice(metric, hyps, streams_, label, first_line, per):
    from .select import sentence_scores
    try:
        return sentence_scores(metric, hyps, streams_)
    except (TypeError, ValueError) as err:
        import re
        found = re.search(r"\b(?:hypothesis|segment) (\d+)", str(err))
        if found:
            line = first_line + int(found.group(1)) + 1
            raise streams.InputError(f"{label}: line {line}: {err}") from None
        raise streams.InputError(f"{label}: lines {first_line + 1}-{first_line + len(hyps)}: "
                                 f"{err}") from None


def _writer(stack, path):
    """An output (standard output for None or "-"), .gz names gzipped; lines written as read.
    Finished when the command's stack unwinds."""
    return stack.enter_context(Output(path, compress=None, stdout=True))


def _progress(args, sources, label):
    from ..render import Progress
    source = sources[0]
    try:
        total = os.path.getsize(source.path) if not source.stdin else 0
    except OSError:
        total = 0
    return Progress(total, label, enabled=None if not args.quiet else False)


def _best_of(args):
    from contextlib import ExitStack
    from .select import CHUNK_SEGMENTS, lower_is_better
    import numpy as np
    if args.k < 1:
        raise streams.InputError(f"-k must be at least 1, not {args.k}")
    metric = _metric(args)
    low = lower_is_better(metric)
    k = args.k
    inputs = [args.input] + list(args.refs)
    check_outputs([("-o", args.output), ("--scores", args.scores)], inputs)
    sources = _open_sources(inputs, args.encoding)
    segments = 0
    with ExitStack() as stack:
        for src in sources:
            stack.enter_context(src)
        out = _writer(stack, args.output)
        scores_out = None
        if args.scores:
            scores_out = _writer(stack, args.scores)
        progress = stack.enter_context(_progress(args, sources, "best-of"))
        for slices in _Inputs(sources, [k] + [1] * len(args.refs), CHUNK_SEGMENTS):
            cands, refs = slices[0], slices[1:]
            n = len(cands) // k
            if n == 0:
                continue
            rep = [[ref for ref in stream for _ in range(k)] for stream in refs]
            scores = _score_slice(metric, cands, rep, sources[0].label, segments * k, k)
            grid = scores.reshape(n, k)
            best = grid.argmin(axis=1) if low else grid.argmax(axis=1)
            out.writelines([cands[i * k + int(j)] for i, j in enumerate(best)])
            if scores_out is not None:
                values = grid[np.arange(n), best]
                scores_out.writelines([f"{int(j)}\t{v!r}"
                                       for j, v in zip(best, values.tolist())])
            segments += n
            pos = _position(sources[0])
            if pos is not None:
                progress.update(pos)
    if not args.quiet:
        logger.info(f"best of {k}: {segments} segments by {type(metric).__name__}"
                    f"{' (lowest)' if low else ''}")


def _output_paths(folder, inputs):
    """The files a --kept/--dropped folder gets: each input under its own name."""
    names = [os.path.basename(p) for p in inputs]
    seen = {}
    for path, name in zip(inputs, names):
        if name in seen:
            raise streams.InputError(f"{seen[name]} and {path} have the same file name "
                                     f"{name!r}: the outputs in {folder} would collide")
        seen[name] = path
    return [os.path.join(folder, name) for name in names]


def _make_folder(option, folder):
    try:
        os.makedirs(folder, exist_ok=True)
    except FileExistsError:
        raise streams.InputError(f"{option} {folder}: is a file, not a folder") from None
    except OSError as err:
        from ..outputs import reason
        raise streams.InputError(f"{option} {folder}: cannot create the folder: "
                                 f"{reason(folder, err)}") from None


def _bounds(args):
    """(low, high) of the scores to keep, refusing bounds that keep nothing."""
    import math
    lo = -math.inf if args.min is None else args.min
    hi = math.inf if args.max is None else args.max
    for option, value in (("--min", args.min), ("--max", args.max)):
        if value is not None and math.isnan(value):
            raise streams.InputError(f"{option} nan keeps no score: give a number")
    if lo > hi:
        raise streams.InputError(f"--min {args.min:g} is above --max {args.max:g}: no score "
                                 "is kept")
    if lo == math.inf or hi == -math.inf:
        raise streams.InputError(f"{'--min inf' if lo == math.inf else '--max -inf'} keeps "
                                 "no score: scores are finite")
    return lo, hi


def _filter(args):
    from contextlib import ExitStack
    from .select import CHUNK_SEGMENTS
    import numpy as np
    if args.min is None and args.max is None:
        raise streams.InputError("give --min, --max or both: the scores to keep")
    if args.kept is None and args.dropped is None and args.scores is None:
        raise streams.InputError("give --kept, --dropped or --scores: where the lines go")
    lo, hi = _bounds(args)
    metric = _metric(args)
    inputs = [args.input] + list(args.refs) + list(args.also)
    n_refs = len(args.refs)
    folders = [(option, folder) for option, folder in (("--kept", args.kept),
                                                       ("--dropped", args.dropped))
               if folder is not None]
    if len(folders) == 2 and same_path(args.kept, args.dropped):
        raise streams.InputError(f"--kept {args.kept} and --dropped {args.dropped} are the same "
                                 "folder: the kept and the dropped lines would mix in one file")
    check_outputs([(f"{option} {folder}", path) for option, folder in folders
                   for path in _output_paths(folder, inputs)]
                  + [("--scores", args.scores)], inputs)
    sources = _open_sources(inputs, args.encoding)
    total = kept = 0
    with ExitStack() as stack:
        # inputs first: a missing input leaves no empty outputs behind
        for src in sources:
            stack.enter_context(src)
        writers = [None, None]
        for option, folder in folders:
            _make_folder(option, folder)
            paths = _output_paths(folder, inputs)
            writers[0 if option == "--kept" else 1] = [_writer(stack, path) for path in paths]
        scores_out = None
        if args.scores:
            scores_out = _writer(stack, args.scores)
        progress = stack.enter_context(_progress(args, sources, "filter"))
        for slices in _Inputs(sources, [1] * len(inputs), CHUNK_SEGMENTS):
            hyps = slices[0]
            if not hyps:
                continue
            scores = _score_slice(metric, hyps, slices[1:1 + n_refs], sources[0].label,
                                  total, 1)
            keep = (scores >= lo) & (scores <= hi)
            for group, wanted in zip(writers, (True, False)):
                if group is None:
                    continue
                rows = np.flatnonzero(keep == wanted).tolist()
                for writer, lines in zip(group, slices):
                    writer.writelines([lines[i] for i in rows])
            if scores_out is not None:
                scores_out.writelines([repr(v) for v in scores.tolist()])
            total += len(hyps)
            kept += int(keep.sum())
            pos = _position(sources[0])
            if pos is not None:
                progress.update(pos)
    if not args.quiet:
        share = f" ({100 * kept / total:.1f}%)" if total else ""
        bounds = " and ".join(x for x in (None if args.min is None else f">= {args.min:g}",
                                          None if args.max is None else f"<= {args.max:g}")
                              if x)
        logger.info(f"kept {kept} of {total} segments{share}: {type(metric).__name__} {bounds}")


def _signed_values(argv, options=("--min", "--max")):
    """argv with `--min -5` as `--min=-5`: argparse takes a value that starts with '-' and is
    not a plain number (-inf, -1e3) for an option."""
    out, i = [], 0
    while i < len(argv):
        arg = argv[i]
        if arg in options and i + 1 < len(argv) and argv[i + 1].startswith("-") \
                and _is_float(argv[i + 1]):
            out.append(f"{arg}={argv[i + 1]}")
            i += 2
            continue
        out.append(arg)
        i += 1
    return out


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def main(argv):
    """Run `cybleu best-of ...` or `cybleu filter ...`; returns the exit status."""
    from .._command import run
    command, rest = argv[0], argv[1:]
    parser = build_parsers()[command]
    try:
        args = parser.parse_args(_signed_values(rest))
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return run(lambda: (_best_of if command == "best-of" else _filter)(args), args.quiet)
