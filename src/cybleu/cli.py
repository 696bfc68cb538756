"""`cybleu`: sacreBLEU 2.6.0's command line, BLEU only, on cybleu's core.

    cybleu REF [REF...] -i HYP [HYP...]         # or the hypotheses on stdin
    cat hyps.txt | cybleu ref.txt -f text
    cybleu --demo

The output is byte-identical to `sacrebleu` 2.6.0's for the same arguments (single-system json and
text, sentence level, multi-system json; multi-system text too when `tabulate` is installed) except
for the signature's `version:` value, which is `cybleu-<version>`. Messages go to stderr with a
`cybleu: ` prefix where sacreBLEU writes `sacreBLEU: `.
"""
import argparse
import gzip
import io
import json
import logging
import os
import sys

from .tokenizers import registry
from ._backend import BACKEND
from .version import SACREBLEU_VERSION, __version__

logger = logging.getLogger("cybleu.cli")

OUTPUT_FORMATS = ("json", "text", "latex")
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")  # sacreBLEU's order (BLEU.SMOOTH_DEFAULTS)
TOKENIZERS = registry.NAMES  # sacreBLEU's order

DEMO_PREFIX = "wmt17-en-de."
DEMO_REF = DEMO_PREFIX + "ref.txt"


class _Exit(Exception):
    """Stop with an exit status (the CLI's sys.exit, without leaving main())."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _fail(*messages, code=1):
    for message in messages:
        logger.error(message)
    raise _Exit(code)


def build_parser():
    parser = argparse.ArgumentParser(
        prog="cybleu",
        description=(
            "cybleu: sacreBLEU's BLEU on a compiled core, with sacreBLEU 2.6.0's command line.\n"
            "Quick usage:\n"
            "    cybleu ref.txt -i output.txt            (json, as sacrebleu)\n"
            "    cat output.txt | cybleu ref.txt -f text\n"
            "    cybleu --demo                           (score the bundled WMT17 sample)\n\n"
            "Output is byte-identical to sacrebleu's for the same arguments, except the\n"
            "signature's version (cybleu-<version>). Only BLEU (every sacreBLEU\n"
            "tokenizer); no test sets (-t), confidence intervals or paired tests.\n"
            "Multi-system text output is tabulate's fancy_grid table (as sacrebleu) when the\n"
            "`tabulate` package is installed, otherwise a plain aligned table."),
        formatter_class=argparse.RawDescriptionHelpFormatter)

    parser.add_argument("--demo", action="store_true",
                        help="Score a bundled 500-segment sample of WMT17 en-de (5 systems) and "
                             "print a table with the time taken, then quit.")
    parser.add_argument("--input", "-i", type=str, nargs="*", default=None,
                        help="Read input from file(s) instead of STDIN (one system per file).")
    parser.add_argument("refs", nargs="*", default=[],
                        help="List of references. They should precede the -i/--input argument.")
    parser.add_argument("--num-refs", "-nr", type=int, default=1,
                        help="Split the reference stream on tabs, and expect this many references. "
                             "(Default: %(default)s)")
    parser.add_argument("--encoding", "-e", type=str, default="utf-8",
                        help="Open text files with specified encoding (Default: %(default)s)")
    parser.add_argument("--metrics", "-m", choices=["bleu"], nargs="+", default=["bleu"],
                        help="Metric to compute: only bleu (Default: bleu)")
    parser.add_argument("--sentence-level", "-sl", action="store_true",
                        help="Compute metric for each sentence (effective order on).")

    bleu = parser.add_argument_group("BLEU related arguments")
    bleu.add_argument("--smooth-method", "-s", choices=SMOOTH_METHODS, default="exp",
                      dest="bleu_smooth_method",
                      help="Smoothing method: exponential decay, floor (increment zero counts), "
                           "add-k (increment num/denom by k for n>1), or none. "
                           "(Default: %(default)s)")
    bleu.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
                      metavar="SMOOTH_VALUE",
                      help="The smoothing value. Only valid for floor and add-k. "
                           "(Defaults: floor: 0.1, add-k: 1)")
    bleu.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None, dest="bleu_tokenize",
                      help="Tokenization method to use for BLEU (Default: 13a).")
    bleu.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true",
                      default=False, help="If True, enables case-insensitivity. "
                                          "(Default: %(default)s)")
    bleu.add_argument("--force", default=False, action="store_true", dest="bleu_force",
                      help="Insist that your tokenized input is actually detokenized.")

    report = parser.add_argument_group("Reporting related arguments")
    report.add_argument("--quiet", "-q", default=False, action="store_true",
                        help="Suppress verbose messages.")
    report.add_argument("--short", "-sh", default=False, action="store_true",
                        help="Produce a shorter (less human readable) signature (not for json).")
    report.add_argument("--score-only", "-b", default=False, action="store_true",
                        help="Print only the computed score.")
    report.add_argument("--width", "-w", type=int, default=1,
                        help="Floating point width (Default: %(default)s).")
    report.add_argument("--no-color", "-nc", action="store_true",
                        help="Disable the occasional use of terminal colors.")
    report.add_argument("--format", "-f", default="json", choices=OUTPUT_FORMATS,
                        help="Set the output format. `json` and `text` apply to single-system "
                             "mode; multi-system mode prints a JSON list, a table (text) or a "
                             "LaTeX table (latex, needs tabulate). Overridden by the "
                             "SACREBLEU_FORMAT environment variable if it holds one of the "
                             "choices. (Default: %(default)s)")
    parser.add_argument("--version", "-V", action="version",
                        version=f"cybleu {__version__} (BLEU of sacreBLEU {SACREBLEU_VERSION}; "
                                f"{BACKEND} backend)")
    return parser


def parse_args(argv=None):
    args = build_parser().parse_args(argv)
    # Override the format from the environment, if any (as sacreBLEU)
    if "SACREBLEU_FORMAT" in os.environ:
        value = os.environ["SACREBLEU_FORMAT"].lower()
        if value in OUTPUT_FORMATS:
            args.format = value
    return args


# -- input ---------------------------------------------------------------------------------------

def _open(path, encoding):
    """sacreBLEU's smart_open: .gz transparently, lines end at '\\n' only."""
    if path.endswith(".gz"):
        return gzip.open(path, mode="rt", encoding=encoding, newline="\n")
    return open(path, mode="rt", encoding=encoding, newline="\n")


def _read_refs(args):
    full_refs = [[] for _ in range(max(len(args.refs), args.num_refs))]
    for refno, ref_file in enumerate(args.refs):
        with _open(ref_file, args.encoding) as fh:
            for lineno, line in enumerate(fh, 1):
                line = line.rstrip()
                if args.num_refs == 1:
                    full_refs[refno].append(line)
                else:
                    fields = line.split(sep="\t", maxsplit=args.num_refs - 1)
                    if len(fields) != args.num_refs:
                        _fail(f"FATAL: line {lineno}: expected {args.num_refs} fields, "
                              f"but found {len(fields)}.", code=17)
                    for k, ref in enumerate(fields):
                        full_refs[k].append(ref)
    return full_refs


def _read_stdin_systems(encoding):
    """Tab-separated columns on stdin, one system per column (the first line sets how many)."""
    stdin = sys.stdin
    buffer = getattr(stdin, "buffer", None)
    if buffer is None:  # a text-only stream (tests): no re-decoding possible
        inputfh, detach = stdin, False
    else:  # sacreBLEU re-wraps stdin's bytes: universal newlines, the -e encoding
        inputfh, detach = io.TextIOWrapper(buffer, encoding=encoding), True
    try:
        fields = inputfh.readline().rstrip().split("\t")
        num_sys = len(fields)
        systems = [[s] for s in fields]
        for line in inputfh:
            fields = line.rstrip().split("\t")
            if len(fields) != num_sys:
                _fail("FATAL: the number of tab-delimited fields in the input stream differ "
                      "across lines.", code=17)
            for k, sent in enumerate(fields):
                systems[k].append(sent.rstrip())
    finally:
        if detach:
            inputfh.detach()  # leave sys.stdin's buffer open
    return systems, [f"System {i + 1}" for i in range(num_sys)]


def _read_file_systems(paths, encoding):
    systems, names = [], []
    for path in paths:
        if path in names:
            _fail(f"{path!r} already used to name a system.",
                  "Make sure to have a different basename for each system.")
        with _open(path, encoding) as fh:
            systems.append([line.rstrip() for line in fh])
        names.append(path)
    return systems, names


# -- output --------------------------------------------------------------------------------------

def _colors_enabled(args):
    if os.environ.get("NO_COLOR", False) or args.no_color:
        return False
    try:  # sacreBLEU's colorama strips colors unless stdout is a terminal
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _color(msg, enabled, code="36"):  # 36: cyan
    return f"\x1b[{code}m{msg}\x1b[0m" if enabled else msg


def _print_single(results, args):
    """sacreBLEU's print_single_results for one metric."""
    print(results[0])


def _plain_table(rows, headers):
    """An aligned table for when tabulate is not installed."""
    cols = list(zip(headers, *rows))
    widths = [max(len(str(c)) for c in col) for col in cols]
    line = "  ".join("-" * w for w in widths)
    out = ["  ".join(f"{h:>{w}}" if i else f"{h:<{w}}" for i, (h, w) in
                     enumerate(zip(headers, widths)))]
    out.append(line)
    for row in rows:
        out.append("  ".join(f"{v:>{w}}" if i else f"{v:<{w}}" for i, (v, w) in
                             enumerate(zip(row, widths))))
    return "\n".join(out)


def _print_table(scores, sigs, args):
    """sacreBLEU's print_results_table, without paired tests."""
    if args.format == "json":
        keys = list(scores)
        rows = []
        for i in range(len(scores["System"])):
            value = {"system": scores["System"][i]}
            for key in keys[1:]:
                value[key] = scores[key][i]
            rows.append(value)
        print(json.dumps(rows, indent=4))
        return

    try:
        from tabulate import tabulate
    except ImportError:
        tabulate = None
    if tabulate is not None:
        colors = _colors_enabled(args)
        table = tabulate({_color(name, colors): vals for name, vals in scores.items()},
                         headers="keys",
                         tablefmt="latex_booktabs" if args.format == "latex" else "fancy_grid",
                         colalign=("right",), stralign="center", numalign="center",
                         floatfmt=f".{args.width}f")
    else:
        names = list(scores)
        table = _plain_table(list(zip(*scores.values())), names)
    print(table)
    print()
    print("-----------------")
    print("Metric signatures")
    print("-----------------")
    for name, sig in sigs.items():
        print(f" - {name:<10} {sig}")


# -- modes ---------------------------------------------------------------------------------------

def _make_metric(args, refs, effective_order=False, force=None):
    from .metrics import BLEU
    try:
        return BLEU(lowercase=args.bleu_lowercase,
                    force=args.bleu_force if force is None else force,
                    tokenize=args.bleu_tokenize, smooth_method=args.bleu_smooth_method,
                    smooth_value=args.bleu_smooth_value, effective_order=effective_order,
                    references=refs)
    except (TypeError, ValueError) as err:
        _fail(str(err))


def _sentence_level(args, system, refs):
    # sacreBLEU scores each line with sentence_score(), which never warns about tokenized
    # periods (one line at a time): force=True keeps the batch path quiet as well.
    metric = _make_metric(args, refs, effective_order=True, force=True)
    width = args.width
    if args.score_only:
        lines = [f"{s:.{width}f}" for s in metric.sentence_scores(system).tolist()]
    else:
        sig = metric.get_signature().format(args.short)
        rows = metric._extract_corpus_statistics(system, None)
        lines = [metric._compute_score_from_stats(row).format(width, False, sig) for row in rows]
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")


def _corpus_level(args, systems, names, refs):
    metric = _make_metric(args, refs)
    if len(systems) == 1:
        score = metric.corpus_score(systems[0], None)
        sig = metric.get_signature().format(args.short if args.format != "json" else False)
        _print_single([score.format(args.width, args.score_only, sig, args.format == "json")],
                      args)
        return
    logger.info(f"Found {len(systems)} systems.")
    sigs, scores = {}, {"System": names}
    for system in systems:
        score = metric.corpus_score(system, None)
        sigs[score.name] = metric.get_signature().format(args.short)
        scores.setdefault(score.name, []).append(score.format(args.width, True))
    _print_table(scores, sigs, args)


def _demo_files():
    from importlib import resources
    root = resources.files("cybleu") / "data"
    systems = {}
    for entry in root.iterdir():
        name = entry.name
        if name.startswith(DEMO_PREFIX) and name.endswith(".txt") and name != DEMO_REF:
            systems[name[len(DEMO_PREFIX):-len(".txt")]] = entry
    return root / DEMO_REF, systems


def _demo_lines(entry):
    text = entry.read_bytes().decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _demo(args):
    import time

    from ._backend import BACKEND
    ref_entry, entries = _demo_files()
    if not entries or not ref_entry.is_file():
        _fail("The bundled demo data (cybleu/data/wmt17-en-de.*.txt) is missing from this "
              "install.")
    refs = _demo_lines(ref_entry)
    hyps = {name: _demo_lines(entry) for name, entry in entries.items()}

    start = time.perf_counter()
    metric = _make_metric(args, [refs])
    cache_time = time.perf_counter() - start
    results = []
    for name, lines in hyps.items():
        t0 = time.perf_counter()
        score = metric.corpus_score(lines, None)
        results.append((name, score, time.perf_counter() - t0))
    total = time.perf_counter() - start
    results.sort(key=lambda r: (-r[1].score, r[0]))

    width = args.width
    rows = [(name, f"{score.score:.{width}f}", str(score.sys_len), str(score.ref_len),
             f"{elapsed * 1000:.2f}") for name, score, elapsed in results]
    print(f"cybleu {__version__} demo ({BACKEND} core): corpus BLEU of {len(rows)} WMT17 en-de "
          f"systems on the first {len(refs)} segments of newstest2017")
    print()
    print(_plain_table(rows, ("System", "BLEU", "hyp_len", "ref_len", "time (ms)")))
    print()
    print(f"Reference tokenization and caching: {cache_time * 1000:.2f} ms; "
          f"total: {total * 1000:.2f} ms.")
    print(f"Signature: {metric.get_signature().format(args.short)}")
    print("Data: WMT17 newstest2017 en-de (reference and system outputs, first 500 lines), "
          "from sacreBLEU's test fixtures, Apache-2.0 (see cybleu/data/README.md).")


def _run(args):
    if args.demo:
        if args.refs or args.input is not None:
            _fail("--demo scores the bundled sample: give no reference or input files.")
        _demo(args)
        return

    if args.sentence_level and len(args.metrics) > 1:
        _fail("Only one metric can be used in sentence-level mode.")

    if args.num_refs != 1 and len(args.refs) > 1:
        _fail("The --num-refs argument allows you to provide any number of tab-delimited "
              "references in a single file.",
              "You can only use it with externally provided references, however (i.e., not "
              "with `-t`),",
              "and you cannot then provide multiple reference files.")

    if not args.refs:
        _fail("If manual references given, make sure to provide them before the -i/--input "
              "argument to avoid confusion.",
              "Otherwise, I need a predefined test set (-t), which cybleu does not provide: "
              "give one or more reference files.")

    full_refs = _read_refs(args)
    if args.input is None:
        systems, names = _read_stdin_systems(args.encoding)
    else:
        systems, names = _read_file_systems(args.input, args.encoding)

    if args.sentence_level and len(systems) > 1:
        _fail("Only one system can be evaluated in sentence-level mode.")

    for system in systems:
        if len(system) == 0:
            _fail("Test set None contains no sentence")
        if any(len(stream) != len(system) for stream in full_refs):
            _fail("System and reference streams have different lengths.")

    if args.sentence_level:
        _sentence_level(args, systems[0], full_refs)
    else:
        _corpus_level(args, systems, names, full_refs)


class _LogToStderr:
    """sacreBLEU's logging setup, scoped to one main() call: INFO and up on stderr with a
    prefix, or (quiet) warnings and errors only, bare."""

    def __init__(self, quiet):
        self.quiet = quiet

    def __enter__(self):
        self.lib = logging.getLogger("cybleu")
        self.saved = (self.lib.level, self.lib.propagate)
        self.handler = logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(logging.Formatter("%(message)s" if self.quiet
                                                    else "cybleu: %(message)s"))
        self.handler.setLevel(logging.WARNING if self.quiet else logging.INFO)
        self.lib.addHandler(self.handler)
        self.lib.setLevel(logging.INFO)
        self.lib.propagate = False
        return self

    def __exit__(self, *exc):
        self.handler.flush()
        self.lib.removeHandler(self.handler)
        self.lib.setLevel(self.saved[0])
        self.lib.propagate = self.saved[1]
        return False


def _setup_process_streams():
    """For a real command-line run: UTF-8 stdout and default SIGPIPE handling, as sacreBLEU."""
    try:
        from signal import SIG_DFL, SIGPIPE, signal
        signal(SIGPIPE, SIG_DFL)
    except (ImportError, ValueError):  # no SIGPIPE (Windows), or not the main thread
        pass
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(encoding="utf-8")
        except (ValueError, OSError, io.UnsupportedOperation):
            pass


def main(argv=None):
    """Run the command line on `argv` (default: sys.argv[1:]); returns the exit status."""
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    if argv is None:
        _setup_process_streams()

    with _LogToStderr(args.quiet):
        try:
            _run(args)
        except _Exit as exc:
            return exc.code
        except (OSError, UnicodeDecodeError, LookupError) as err:
            # sacreBLEU stops with a traceback (exit 1) on unreadable files or a bad encoding
            logger.error(f"{type(err).__name__}: {err}")
            return 1
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
