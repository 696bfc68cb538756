"""`cybleu report`: the comparison report from files, with sacreBLEU's input conventions.

    cybleu report REF... -i SYS... [-m METRIC...] [--scores NAME FILE...] [--src SRC]
                  [--baseline NAME] [--title T] -o report.html
    cybleu report -o r.html --set wmt17-en-de ref.de -i a.de b.de --set wmt17-de-en ref.en -i ...
    cybleu report --manifest sets.json -o r.html

Several test sets or language pairs go in one report as groups, each starting with `--set NAME`
(its references, `-i` systems, `--src` and `-l`), or in a manifest (JSON: {"title", "baseline",
"metrics", "language_pair", "testsets": [{"name", "references": [paths], "systems": {name:
path} or [paths], "sources": path, "language_pair", "scores": {NAME: [paths, in the order of the
systems]}}]}, paths relative to the manifest; unknown keys are errors). `-l SRC-TGT` is
sacreBLEU's: the target language picks BLEU's tokenizer. `--scores NAME FILE...` adds per-segment
scores computed elsewhere (COMET, ...): one file per system, in the order of -i, one number per
line (NAME:lower when lower is better).
Files are read as the scoring command line reads them (`cybleu.streams`: .gz, -e encoding, lines
right-stripped, -nr tab-separated references); errors name the file and exit with status 1,
prefixed `cybleu: `. The page is written through `cybleu.outputs.Output`: a regular file by a
temporary file in its folder, renamed when complete (a failed run leaves nothing, and an older
page as it was); a symbolic link through to its target; a FIFO or a device in place; `-o -` to
standard output. An -o that is one of the inputs is refused before the report is computed.
"""
import argparse
import json
import logging
import os
import sys

from .. import streams
from .._command import Parser as _Parser, fail as _fail
from ..outputs import Output, check_outputs

logger = logging.getLogger("cybleu.cli")

# above this many resamples the report says up front that it takes a while
SLOW_SAMPLES = 100_000
GROUP_KEYS = ("refs", "input", "src", "name", "names", "langpair", "scores")
#: the keys of a manifest (a test set's are `TESTSET_KEYS`, as Python's dicts take them)
MANIFEST_KEYS = ("title", "baseline", "metrics", "language_pair", "testsets")


def build_parser():
    from .. import metrics
    parser = _Parser(
        prog="cybleu report", allow_abbrev=False,
        description=(
            "Write one self-contained HTML page comparing MT systems: sacreBLEU's scores with\n"
            "bootstrap confidence intervals, p-values against a baseline and for every pair\n"
            "(Holm-corrected), BLEU's anatomy, segment-by-segment comparison of any two systems,\n"
            "n-gram and bucket analyses. The page opens offline and requests nothing.\n\n"
            "  cybleu report ref.txt -i base.txt a.txt b.txt -o report.html\n"
            "  cybleu report -o r.html --set en-de ref.de -i a.de b.de \\\n"
            "                          --set de-en ref.en -i a.en b.en\n"
            "  cybleu report --manifest testsets.json -o r.html"),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("refs", nargs="*", default=[],
                        help="Reference file(s) (one per reference set), before -i.")
    parser.add_argument("--input", "-i", nargs="+", default=None, metavar="SYS",
                        help="The systems' output files (one line per segment).")
    parser.add_argument("--src", "--source", dest="src", default=None,
                        help="The source file, shown next to each segment.")
    parser.add_argument("--names", nargs="+", default=None,
                        help="Names of the systems, in the order of -i (default: the file names "
                             "without their shared prefix and suffix).")
    parser.add_argument("--name", default=None, help="The test set's name.")
    parser.add_argument("--language-pair", "-l", dest="langpair", default=None,
                        metavar="SRC-TGT",
                        help="Source-target language pair (2-char ISO639-1 codes), as in "
                             "sacreBLEU: the target picks BLEU's tokenizer (zh, ja-mecab, "
                             "ko-mecab; else 13a). Before the first --set: for every set that "
                             "gives none.")
    parser.add_argument("--set", dest="set_marker", default=None, metavar="NAME",
                        help="Start another test set named NAME: its references, -i and --src "
                             "follow.")
    parser.add_argument("--manifest", default=None,
                        help="A JSON file naming test sets, references, systems and sources.")
    parser.add_argument("--output", "-o", default="report.html",
                        help="The page to write (default: %(default)s).")
    parser.add_argument("--title", default=None, help="The page's title.")
    parser.add_argument("--baseline", default=None,
                        help="The system p-values compare with: its name or file (default: the "
                             "first).")
    parser.add_argument("--metrics", "-m", nargs="+", choices=metrics.choices(), default=None,
                        help=f"Metrics, in order (default: {' '.join(metrics.REPORT_METRICS)}).")
    parser.add_argument("--scores", nargs="+", action="append", default=None,
                        metavar=("NAME", "FILE"),
                        help="Per-segment scores computed elsewhere (COMET, MetricX, ...): their "
                             "name (NAME:lower when lower is better), then one file per system in "
                             "the order of -i, one number per line. Repeat for more.")
    test = parser.add_mutually_exclusive_group()
    test.add_argument("--paired-bs", "-pbs", action="store_true",
                      help="Paired bootstrap resampling (the default).")
    test.add_argument("--paired-ar", "-par", action="store_true",
                      help="Approximate randomization (intervals still from the bootstrap).")
    parser.add_argument("--paired-n", "-n", type=int, default=None,
                        help="Resamples (default 1000) or trials (default 10000).")
    parser.add_argument("--seed", type=int, default=None,
                        help="The resampling seed (default: SACREBLEU_SEED, else 12345).")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="Significance level of the groups (default: %(default)s).")
    parser.add_argument("--num-refs", "-nr", type=int, default=1,
                        help="Split one reference file on tabs into this many references.")
    parser.add_argument("--encoding", "-e", default="utf-8",
                        help="Encoding of the text files (default: %(default)s).")
    # each metric's own options, as it declares them
    seen = set()
    for name in metrics.names(plugins=True):
        cls = metrics.get(name)
        if cls in seen or not cls.COMMAND_OPTIONS:
            continue
        seen.add(cls)
        group = parser.add_argument_group(cls.label)
        for flags, keywords, _ in cls.COMMAND_OPTIONS:
            group.add_argument(*flags, **keywords)
    parser.add_argument("--no-compress", action="store_true",
                        help="Embed the data without gzip (a larger file).")
    parser.add_argument("--quiet", "-q", action="store_true", help="Print nothing but errors.")
    parser._adding = False
    return parser


class _Group:
    def __init__(self, name, refs, inputs, src, names, langpair=None, scores=None):
        self.name, self.refs, self.inputs, self.src, self.names = name, refs, inputs, src, names
        self.langpair = langpair
        self.scores = scores or []


def _segments(argv):
    """argv cut at each `--set NAME` (a segment keeps its --set)."""
    out, current = [], []
    for arg in argv:
        if arg == "--set" or arg.startswith("--set="):
            out.append(current)
            current = []
        current.append(arg)
    out.append(current)
    return out


def parse(argv):
    """(global options, [_Group]) from the command line."""
    parser = build_parser()
    defaults = vars(parser.parse_args([]))
    merged = dict(defaults)
    groups = []
    first_langpair = None
    for k, seg in enumerate(_segments(argv)):
        args = parser.parse_args(seg)
        values = vars(args)
        if k == 0:
            first_langpair = values["langpair"]
        for key, value in values.items():
            if key in GROUP_KEYS or key == "set_marker":
                continue
            if value != defaults[key]:
                if merged[key] != defaults[key] and merged[key] != value:
                    parser.error(f"--{key.replace('_', '-')} is given twice with different values")
                merged[key] = value
        name = values["set_marker"] if k > 0 else values["name"]
        if k > 0 and values["name"] is not None:
            name = values["name"]
        has_group = values["refs"] or values["input"] is not None or values["src"] is not None
        if k > 0 or has_group:
            groups.append(_Group(name, values["refs"], values["input"], values["src"],
                                 values["names"], values["langpair"] or first_langpair,
                                 values["scores"]))
        elif values["scores"]:
            parser.error("--scores belongs to a test set: give it after the references and -i")
    merged["langpair"] = first_langpair
    opts = argparse.Namespace(**merged)
    return opts, groups


def _read_lines(path, encoding):
    lines = []
    with streams.TextSource(path, encoding) as source:
        for block in source.blocks(streams.CHUNK_LINES):
            lines.extend(block)
    return lines


def _default_names(paths):
    """File names without a shared prefix and suffix of dot-separated parts (newstest2017.X.en-de
    -> X), or the paths themselves when names would collide."""
    bases = [os.path.basename(p) for p in paths]
    for ext in (".gz",):
        if all(b.endswith(ext) for b in bases):
            bases = [b[:-len(ext)] for b in bases]
    if all(b.endswith(".txt") for b in bases):
        bases = [b[:-4] for b in bases]
    parts = [b.split(".") for b in bases]
    if len(parts) > 1:
        while all(len(p) > 1 for p in parts) and len({p[0] for p in parts}) == 1:
            parts = [p[1:] for p in parts]
        while all(len(p) > 1 for p in parts) and len({p[-1] for p in parts}) == 1:
            parts = [p[:-1] for p in parts]
    names = [".".join(p) for p in parts]
    if len(set(names)) < len(names):
        names = list(paths)
    if len(set(names)) < len(names):
        _fail("Two systems have the same file name; give each one once.")
    return names


def _testset(group, opts, label, base_dir=None):
    from . import ReportInputError, TestSet
    resolve = (lambda p: p if base_dir is None or os.path.isabs(p) else
               os.path.join(base_dir, p))
    refs = [resolve(p) for p in group.refs]
    inputs = [resolve(p) for p in group.inputs or []]
    if not refs:
        _fail(f"{label}: no reference file: give the references before -i.")
    if not inputs:
        _fail(f"{label}: no system output: give the systems' files with -i.")
    if opts.num_refs != 1 and len(refs) > 1:
        _fail("--num-refs splits one tab-separated reference file; give only one.")
    references = streams.read_references([refs], opts.num_refs, opts.encoding)
    n = len(references[0])
    if n == 0:
        _fail(f"{refs[0]} is empty.")
    names = group.names or _default_names(group.inputs)
    if len(names) != len(inputs):
        _fail(f"{label}: {len(names)} names for {len(inputs)} systems.")
    if len(set(names)) < len(names):
        _fail(f"{label}: two systems have the same name.")
    systems = {}
    for name, path in zip(names, inputs):
        lines = _read_lines(path, opts.encoding)
        if len(lines) != n:
            _fail("System and reference streams have different lengths.",
                  f"{path} has {len(lines)} lines, the references {n}.")
        systems[name] = lines
    sources = None
    if group.src is not None:
        src = resolve(group.src)
        sources = _read_lines(src, opts.encoding)
        if len(sources) != n:
            _fail("Source and reference streams have different lengths.",
                  f"{src} has {len(sources)} lines, the references {n}.")
    scores = {}
    for spec in group.scores:
        key, files = spec[0], [resolve(p) for p in spec[1:]]
        if len(files) != len(names):
            _fail(f"{label}: --scores {key} gives {len(files)} file(s) for {len(names)} "
                  "system(s); give one per system, in the order of -i.")
        scores[key] = {name: _read_scores(path, n, opts.encoding)
                       for name, path in zip(names, files)}
    name = group.name or group.langpair or os.path.basename(refs[0])
    try:
        ts = TestSet(name, references, systems, sources, group.langpair, scores or None)
    except ReportInputError as err:
        _fail(str(err))
    ts._paths = dict(zip(names, group.inputs or []))
    ts._inputs = refs + inputs + ([resolve(group.src)] if group.src is not None else [])
    return ts


def _read_scores(path, n, encoding):
    """One finite number per line of `path`, `n` lines; errors name the file and the line."""
    import math
    values = []
    for i, line in enumerate(_read_lines(path, encoding)):
        text = line.strip()
        try:
            value = float(text)
        except ValueError:
            _fail(f"{path}, line {i + 1}: {text[:40]!r} is not a number (a score file holds one "
                  "number per line).")
        if not math.isfinite(value) or "_" in text:
            _fail(f"{path}, line {i + 1}: {text[:40]!r} is not a finite number.")
        values.append(value)
    if len(values) != n:
        _fail("Scores and reference streams have different lengths.",
              f"{path} has {len(values)} lines, the references {n}.")
    return values


def _manifest(opts):
    path = opts.manifest
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        raise streams.InputError(streams.os_error_message(path, err)) from None
    except (ValueError, UnicodeDecodeError) as err:
        _fail(f"{path}: not a JSON manifest ({err}).")
    if not isinstance(data, dict) or not isinstance(data.get("testsets"), list) \
            or not data["testsets"]:
        _fail(f"{path}: a manifest is a JSON object with a non-empty list \"testsets\".")
    from . import TESTSET_KEYS
    unknown = [key for key in data if key not in MANIFEST_KEYS]
    if unknown:
        _fail(f"{path}: unknown key {unknown[0]!r}; a manifest's keys are "
              f"{', '.join(MANIFEST_KEYS)}.")
    base_dir = os.path.dirname(os.path.abspath(path))
    default_pair = data.get("language_pair")
    groups = []
    for k, entry in enumerate(data["testsets"]):
        where = f"{path}: test set {k + 1}"
        if not isinstance(entry, dict):
            _fail(f"{where} is not an object.")
        unknown = [key for key in entry if key not in TESTSET_KEYS + ("source",)]
        if unknown:
            _fail(f"{where}: unknown key {unknown[0]!r}; a test set's keys are "
                  f"{', '.join(TESTSET_KEYS)}.")
        if "source" in entry and "sources" in entry:
            _fail(f"{where}: give \"sources\" or \"source\", not both.")
        src = entry.get("sources", entry.get("source"))
        if src is not None and not isinstance(src, str):
            _fail(f"{where}: \"sources\" is the source file's name.")
        refs = entry.get("references")
        if isinstance(refs, str):
            refs = [refs]
        systems = entry.get("systems")
        if isinstance(systems, dict):
            names, inputs = list(systems), list(systems.values())
        elif isinstance(systems, list):
            names, inputs = None, systems
        else:
            _fail(f"{where}: \"systems\" is a list of files or an object name -> file.")
        if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs) \
                or not all(isinstance(i, str) for i in inputs):
            _fail(f"{where}: references and systems are file names.")
        scores = entry.get("scores") or {}
        if not isinstance(scores, dict) or not all(
                isinstance(v, list) and all(isinstance(p, str) for p in v)
                for v in scores.values()):
            _fail(f"{where}: \"scores\" is an object NAME -> a list of files, one per system.")
        pair = entry.get("language_pair", default_pair) or opts.langpair
        groups.append((_Group(entry.get("name"), refs, inputs, src, names, pair,
                              [[key] + files for key, files in scores.items()]), base_dir))
    for key in ("title", "baseline", "metrics"):
        if key in data and getattr(opts, key) is None:
            setattr(opts, key, data[key])
    return groups


def _metrics(opts):
    """The metrics as (name, options) pairs: the report makes them per test set (BLEU with the
    target language of the set's language pair), each with its own options as given."""
    from .. import metrics
    names = opts.metrics or list(metrics.REPORT_METRICS)
    if isinstance(names, str):
        names = [names]
    if len(set(names)) < len(names):
        _fail(f"-m names a metric twice: {' '.join(names)}")
    out = []
    for name in names:
        if name not in metrics.choices():
            _fail(f"unknown metric {name!r}; choose from "
                  f"{', '.join(metrics.names(plugins=True))}.")
        try:
            cls = metrics.get(name)
        except (ImportError, AttributeError) as err:
            _fail(f"{name}: {err}")
        # the metric's own options as given, then the command's settings; not those the name
        # presets (a preset wins over the option's flag)
        preset = metrics.presets(name)
        options = {param: getattr(opts, _dest(flags))
                   for flags, _, param in cls.COMMAND_OPTIONS
                   if getattr(opts, _dest(flags), None) is not None and param not in preset}
        out.append((name, {**options, **cls.COMMAND_DEFAULTS}))
    # an option of a metric the report does not compute would be dropped without a word
    chosen = {metrics.get(name) for name in names}
    defaults = vars(build_parser().parse_args([]))
    for other in {metrics.get(name) for name in metrics.names(plugins=True)} - chosen:
        for flags, _, _ in other.COMMAND_OPTIONS:
            if getattr(opts, _dest(flags), None) not in (None, defaults.get(_dest(flags))):
                takers = [n for n in metrics.names(plugins=True) if metrics.get(n) is other]
                _fail(f"{flags[0]} is {other.label}'s option (-m {', '.join(takers)}), and the "
                      f"report computes {', '.join(names)}.")
    return out


def _dest(flags):
    """argparse's attribute name for an option's flags (the first long one)."""
    long = next((f for f in flags if f.startswith("--")), flags[0])
    return long.lstrip("-").replace("-", "_")


def run(opts, groups):
    from . import MAX_SAMPLES, ReportInputError, report, too_many_samples
    if opts.paired_n is not None and opts.paired_n < 1:
        _fail(f"--paired-n must be at least 1, not {opts.paired_n}.")
    if opts.paired_n is not None and opts.paired_n > MAX_SAMPLES:
        _fail(f"--paired-n {opts.paired_n}: {too_many_samples(opts.paired_n)}.")
    if opts.manifest:
        if groups:
            _fail("--manifest names the test sets: give no references or -i with it.")
        pairs = _manifest(opts)
    else:
        if not groups:
            _fail("Give reference files and -i system files (or --manifest). "
                  "See cybleu report --help.")
        pairs = [(g, None) for g in groups]
    sets = [_testset(g, opts, g.name or f"test set {k + 1}", base)
            for k, (g, base) in enumerate(pairs)]
    names = [ts.name for ts in sets]
    if len(set(names)) < len(names):
        _fail(f"Two test sets have the same name; name each with --set NAME: {names}.")
    baseline = opts.baseline
    if baseline is not None:
        # a file given as the baseline names its system
        for ts in sets:
            for name, path in ts._paths.items():
                if baseline == path or os.path.abspath(baseline) == os.path.abspath(path):
                    baseline = name
        if not any(baseline in ts.systems for ts in sets):
            known = sorted({n for ts in sets for n in ts.systems})
            _fail(f"Unknown --baseline {opts.baseline!r}; the systems are: {', '.join(known)}.")
    metrics = _metrics(opts)
    test = "ar" if opts.paired_ar else "bs"
    if opts.seed is not None and opts.seed < 0:
        _fail(f"--seed must be a non-negative integer, not {opts.seed}.")
    out = opts.output
    inputs = [path for ts in sets for path in ts._inputs]
    check_outputs([("-o", out)], inputs + ([opts.manifest] if opts.manifest else []))
    # opened (a temporary file beside it) before the minutes of computing: a place that cannot
    # take the page is said at once
    with Output(out, binary=True, atomic=True, stdout=True) as target:
        n = opts.paired_n or (10000 if test == "ar" else 1000)
        if n > SLOW_SAMPLES:
            largest = max(len(ts.systems) for ts in sets)
            logger.info(f"{n:,} {'trials' if test == 'ar' else 'resamples'} for up to {largest} "
                        f"systems and {len(metrics)} metrics: this takes a while (time and "
                        f"memory grow with the number: a million resamples of five systems "
                        f"of 500 segments take about half a minute and 1.4 GB)")
        try:
            rep = report(testsets=sets, metrics=metrics, baseline=baseline, title=opts.title,
                         paired_test=test, n_samples=opts.paired_n, seed=opts.seed,
                         alpha=opts.alpha)
        except ReportInputError as err:
            _fail(str(err))
        except (ImportError, RuntimeError) as err:   # a tokenizer's package is missing
            _fail(str(err))
        for ts in rep.data["sets"]:
            res = ts["resolution"]
            if res["pairs"] and res["smallest_adjusted"] >= opts.alpha:
                logger.warning(f"{ts['name']}: with {rep.data['test']['n']} resamples no pair "
                               f"of the {len(ts['systems'])} systems can be significant after "
                               f"Holm's correction over {res['pairs']} pairs; use --paired-n "
                               f"{res['needed']} or more to tell them apart.")
        page = rep.html(compress=not opts.no_compress).encode("utf-8")
        target.write(page)
    if not opts.quiet:
        if not target.is_stdout:
            _print_path(os.path.abspath(out))
        n_sets = len(sets)
        n_outputs = sum(len(ts.systems) for ts in sets)
        logger.info(f"wrote {'standard output' if target.is_stdout else out} "
                    f"({len(page) / 1e6:.1f} MB): {n_sets} test set"
                    f"{'' if n_sets == 1 else 's'}, {n_outputs} system output"
                    f"{'' if n_outputs == 1 else 's'}")


def _print_path(path):
    """The path on standard output; its own bytes when it is not valid UTF-8 (a name Python
    read with surrogateescape), so that other programs can open it."""
    try:
        print(path)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(os.fsencode(path) + b"\n")


def main(argv):
    """`cybleu report ...` (argv[0] is the word `report`, as `cybleu.cli.main` hands it over);
    returns the exit status."""
    from .. import _command
    try:
        opts, groups = parse(list(argv)[1:])
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return _command.run(lambda: run(opts, groups), opts.quiet)
