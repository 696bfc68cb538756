"""`cybleu`: sacreBLEU 2.6.0's command line, flag for flag, on cybleu's metrics.

    cybleu REF [REF...] -i HYP [HYP...]              # or the hypotheses on stdin
    cybleu ref.txt -i base.txt sys1.txt sys2.txt -pbs  # paired bootstrap test, as sacreBLEU
    cybleu -t wmt17 -l en-de -i out.de                 # test sets from sacreBLEU's local cache
    cybleu --demo

Output (json, text, latex; one system, several, paired tables) is byte-identical to `sacrebleu`
2.6.0's for the same arguments except the signature's `version:` value, `cybleu-<version>`, with
the same exit codes. Messages go to stderr with a `cybleu: ` prefix where sacreBLEU writes
`sacreBLEU: `; where sacreBLEU would stop with a traceback (unreadable or undecodable files, a
broken .gz, a bad -w, a missing model) cybleu names the file and line and exits with status 1.

This module only wires arguments: metrics come from `cybleu.metrics` (only those asked for are
imported), statistics tests from `cybleu.significance`, test sets from `cybleu.dataset`, and text
from `cybleu.render`; each is imported when the arguments need it (tests/test_imports.py).
"""
import argparse
import logging
import os
import sys

from . import streams
from ._command import Exit as _Exit, Parser as _Parser, fail as _fail
from .tokenizers import registry
from .version import SACREBLEU_VERSION, __version__

logger = logging.getLogger("cybleu.cli")

OUTPUT_FORMATS = ("json", "text", "latex")
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")  # sacreBLEU's order (BLEU.SMOOTH_DEFAULTS)
TOKENIZERS = registry.NAMES  # sacreBLEU's order
# sacreBLEU's chrF defaults for the flags' defaults (CHRF's class attributes, which a test
# compares; written out so that parsing arguments does not import chrF)
CHRF_DEFAULTS = {"CHAR_ORDER": 6, "WORD_ORDER": 0, "BETA": 2}


class Subcommand:
    """A command beyond sacreBLEU's: the module whose main(argv) runs it (argv[0] is the
    command's name) and its line in `cybleu --help`."""

    __slots__ = ("module", "summary")

    def __init__(self, module, summary):
        self.module, self.summary = module, summary


# the commands beyond sacreBLEU's, in the order --help lists them
SUBCOMMANDS = {
    "report": Subcommand("._report.cli", "an HTML page comparing systems (p-values, segments)"),
    "best-of": Subcommand("._scale.cli", "the best of k candidates per segment (n-best lists)"),
    "filter": Subcommand("._scale.cli", "split a parallel corpus by sentence score"),
}
# Inputs longer than this show a progress bar (on a terminal).
PROGRESS_LINES = 100_000

DEMO_PREFIX = "wmt17-en-de."
DEMO_REF = DEMO_PREFIX + "ref.txt"


def _metric_classes(names):
    """{name: class} of the named metrics (upper case), importing only their modules."""
    from . import metrics
    return {name: metrics.get(name) for name in names}


def build_parser(metric_names=()):
    """The command's parser; `metric_names`: the metrics whose own options (COMMAND_OPTIONS
    beyond sacreBLEU's flags) it takes, as `-m` names them (all for --help)."""
    from .metrics import choices as metric_choices
    parser = _Parser(
        prog="cybleu", allow_abbrev=False,
        description=(
            "cybleu: sacreBLEU 2.6.0's command line on a compiled core.\n"
            "Quick usage:\n"
            "    cybleu ref.txt -i output.txt                 (json, as sacrebleu)\n"
            "    cat output.txt | cybleu ref.txt -f text\n"
            "    cybleu ref.txt -i base.txt a.txt b.txt -pbs  (paired bootstrap test)\n"
            "    cybleu -t wmt17 -l en-de -i output.txt       (sacreBLEU's cached test sets)\n"
            "    cybleu --demo                                (score the bundled WMT17 sample)\n"
            "    cybleu --sample-path                         (where that sample is)\n\n"
            "Output is byte-identical to sacrebleu's for the same arguments, except the\n"
            "signature's version (cybleu-<version>). Test sets are read from sacreBLEU's\n"
            "cache ($SACREBLEU, default ~/.sacrebleu); cybleu never downloads.\n\n"
            "Commands beyond sacreBLEU's (cybleu COMMAND --help for each):\n"
            + "".join(f"    cybleu {name:<9}{command.summary}\n"
                      for name, command in SUBCOMMANDS.items())),
        formatter_class=argparse.RawDescriptionHelpFormatter)

    parser.add_argument("--demo", action="store_true",
                        help="Score a bundled 500-segment sample of WMT17 en-de (5 systems), "
                             "print a table with the time taken, write its report (see "
                             "--demo-report), then quit.")
    parser.add_argument("--demo-report", default=None, metavar="PATH",
                        help="Where --demo writes its HTML report (default: $CYBLEU_DEMO_REPORT, "
                             "else a new file cybleu-demo-*.html in the temporary folder; "
                             "`none`: no report).")
    parser.add_argument("--sample-path", nargs="?", const="", default=None, metavar="NAME",
                        help="Print where the bundled sample is and quit: its folder, or with a "
                             "NAME (ref, online-B, KIT, ... or a file name) that file "
                             "(`cp \"$(cybleu --sample-path)\"/wmt17-en-de.* .` copies it "
                             "here).")
    parser.add_argument("--citation", "--cite", default=False, action="store_true",
                        help="Dump the bibtex citation and quit.")
    parser.add_argument("--list", default=False, action="store_true",
                        help="Print a list of all available test sets.")
    parser.add_argument("--test-set", "-t", type=str, default=None,
                        help="The test set to use (see also --list) or a comma-separated list of "
                             "test sets to be concatenated. Read from sacreBLEU's local cache.")
    parser.add_argument("--language-pair", "-l", dest="langpair", default=None,
                        help="Source-target language pair (2-char ISO639-1 codes).")
    parser.add_argument("--origlang", "-ol", dest="origlang", default=None,
                        help="Use a subset of sentences with a given original language (2-char "
                             'ISO639-1 codes), "non-" prefix means negation.')
    parser.add_argument("--subset", dest="subset", default=None,
                        help="Use a subset of sentences whose document annotation matches a "
                             "given regex (see SUBSETS in the source code).")
    parser.add_argument("--download", type=str, default=None,
                        help="Check that a test set is in sacreBLEU's cache and quit (cybleu "
                             "never downloads).")
    parser.add_argument("--echo", nargs="+", type=str, default=None,
                        help="Output the source (src), reference (ref), or other available field "
                             "(docid, ref:A, ref:1 for example) to STDOUT and quit. You can get "
                             "available fields with options `--list` and `-t`. If multiple "
                             "fields are given, they are outputted with tsv format in the order "
                             "they are given. You can also use `--echo all` to output all "
                             "available fields.")

    parser.add_argument("--input", "-i", type=str, nargs="*", default=None,
                        help="Read input from file(s) instead of STDIN.")
    parser.add_argument("refs", nargs="*", default=[],
                        help="Optional list of references. If given, it should preceed the "
                             "-i/--input argument.")
    parser.add_argument("--num-refs", "-nr", type=int, default=1,
                        help="Split the reference stream on tabs, and expect this many "
                             "references. (Default: %(default)s)")
    parser.add_argument("--encoding", "-e", type=str, default="utf-8",
                        help="Open text files with specified encoding (Default: %(default)s)")

    parser.add_argument("--metrics", "-m", choices=metric_choices(), nargs="+",
                        default=["bleu"],
                        help="Space-delimited list of metrics to compute (Default: bleu)")
    parser.add_argument("--sentence-level", "-sl", action="store_true",
                        help="Compute metric for each sentence.")

    bleu = parser.add_argument_group("BLEU related arguments")
    bleu.add_argument("--smooth-method", "-s", choices=SMOOTH_METHODS, default="exp",
                      dest="bleu_smooth_method",
                      help="Smoothing method: exponential decay, floor (increment zero counts), "
                           "add-k (increment num/denom by k for n>1), or none. "
                           "(Default: %(default)s)")
    bleu.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value",
                      help="The smoothing value. Only valid for floor and add-k. "
                           "(Defaults: floor: 0.1, add-k: 1)")
    bleu.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None, dest="bleu_tokenize",
                      help="Tokenization method to use for BLEU. If not provided, defaults to "
                           "`zh` for Chinese, `ja-mecab` for Japanese, `ko-mecab` for Korean and "
                           "`13a` (mteval) otherwise.")
    bleu.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true",
                      default=False, help="If True, enables case-insensitivity. "
                                          "(Default: %(default)s)")
    bleu.add_argument("--force", default=False, action="store_true", dest="bleu_force",
                      help="Insist that your tokenized input is actually detokenized.")

    chrf_default = CHRF_DEFAULTS.__getitem__
    chrf = parser.add_argument_group("chrF related arguments")
    chrf.add_argument("--chrf-char-order", "-cc", type=int, default=chrf_default("CHAR_ORDER"),
                      help="Character n-gram order. (Default: %(default)s)")
    chrf.add_argument("--chrf-word-order", "-cw", type=int, default=chrf_default("WORD_ORDER"),
                      help="Word n-gram order (Default: %(default)s). If equals to 2, the metric "
                           "is referred to as chrF++.")
    chrf.add_argument("--chrf-beta", type=int, default=chrf_default("BETA"),
                      help="Determine the importance of recall w.r.t precision. "
                           "(Default: %(default)s)")
    chrf.add_argument("--chrf-whitespace", action="store_true", default=False,
                      help="Include whitespaces when extracting character n-grams. "
                           "(Default: %(default)s)")
    chrf.add_argument("--chrf-lowercase", action="store_true", default=False,
                      help="Enable case-insensitivity. (Default: %(default)s)")
    chrf.add_argument("--chrf-eps-smoothing", action="store_true", default=False,
                      help="Enables epsilon smoothing similar to chrF++.py, NLTK and Moses; "
                           "instead of effective order smoothing. (Default: %(default)s)")

    ter = parser.add_argument_group(
        "TER related arguments (The defaults replicate TERCOM's behavior)")
    ter.add_argument("--ter-case-sensitive", action="store_true",
                     help="Enables case sensitivity. (Default: %(default)s)")
    ter.add_argument("--ter-asian-support", action="store_true",
                     help="Enables special treatment of Asian characters. (Default: %(default)s)")
    ter.add_argument("--ter-no-punct", action="store_true",
                     help="Removes punctuation. (Default: %(default)s)")
    ter.add_argument("--ter-normalized", action="store_true",
                     help="Applies basic normalization and tokenization. (Default: %(default)s)")

    _add_metric_options(parser, metric_names)

    sign = parser.add_argument_group(
        "Confidence interval (CI) estimation for single-system evaluation")
    sign.add_argument("--confidence", "-ci", action="store_true",
                      help="Report confidence interval using bootstrap resampling.")
    sign.add_argument("--confidence-n", "-cin", type=int, default=1000,
                      help="Set the number of bootstrap resamples for CI estimation "
                           "(Default: %(default)s).")

    pair = parser.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = pair.add_mutually_exclusive_group()
    choice.add_argument("--paired-ar", "-par", action="store_true",
                        help="Perform paired test using approximate randomization (AR). This "
                             "option is mutually exclusive with --paired-bs "
                             "(Default: %(default)s).")
    choice.add_argument("--paired-bs", "-pbs", action="store_true",
                        help="Perform paired test using bootstrap resampling. This option is "
                             "mutually exclusive with --paired-ar (Default: %(default)s).")
    pair.add_argument("--paired-ar-n", "-parn", type=int, default=10000,
                      help="Number of trials for approximate randomization test "
                           "(Default: %(default)s).")
    pair.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000,
                      help="Number of bootstrap resamples for paired bootstrap resampling test "
                           "(Default: %(default)s).")
    pair.add_argument("--paired-jobs", "-j", type=int, default=1,
                      help="Accepted for compatibility with sacreBLEU; cybleu runs the tests in "
                           "one process, with the same results.")

    report = parser.add_argument_group("Reporting related arguments")
    report.add_argument("--quiet", "-q", default=False, action="store_true",
                        help="Suppress verbose messages (and the progress bar).")
    report.add_argument("--short", "-sh", default=False, action="store_true",
                        help="Produce a shorter (less human readable) signature.")
    report.add_argument("--score-only", "-b", default=False, action="store_true",
                        help="Print only the computed score.")
    report.add_argument("--width", "-w", type=int, default=1,
                        help="Floating point width (Default: %(default)s).")
    report.add_argument("--detail", "-d", default=False, action="store_true",
                        help="Print detailed information (split test sets based on origlang).")
    report.add_argument("--no-color", "-nc", action="store_true",
                        help="Disable the occasional use of terminal colors.")
    report.add_argument("--format", "-f", default="json", choices=OUTPUT_FORMATS,
                        help="Set the output format. `latex` is only valid for multi-system mode "
                             "whereas `json` and `text` apply to single-system mode only. This "
                             "flag is overridden if the SACREBLEU_FORMAT environment variable is "
                             "set to one of the valid choices (Default: %(default)s).")
    parser.add_argument("--version", "-V", action="version", version=_version_string())
    parser._adding = False
    return parser


def _version_string():
    try:
        from ._backend import BACKEND
    except ImportError:  # a forced backend that cannot load: say so in the version line
        BACKEND = "unavailable"
    return f"cybleu {__version__} ({BACKEND} backend; sacreBLEU {SACREBLEU_VERSION} semantics)"


def _add_metric_options(parser, names):
    """The options each named metric declares (its COMMAND_OPTIONS) that sacreBLEU's groups do
    not already have, in a group of its own; the parser's defaults then map each option's
    attribute to the constructor's argument ({class: [(dest, argument)]})."""
    from . import metrics
    added = {}
    for name in names:
        try:
            cls = metrics.get(name)
        except (KeyError, ImportError, AttributeError):  # -m reports it
            continue
        if cls in added:
            continue
        added[cls] = []
        options = [option for option in getattr(cls, "COMMAND_OPTIONS", ())
                   if not any(flag in parser._option_string_actions for flag in option[0])]
        if not options:
            continue
        group = parser.add_argument_group(f"{cls.label} related arguments")
        for flags, keywords, param in options:
            added[cls].append((group.add_argument(*flags, **keywords).dest, param))
    parser.set_defaults(metric_options_=added)


class _MetricsOnly(_Parser):  # _adding stays True: no terminal-width query (shutil)
    def error(self, message):
        raise ValueError(message)


def _named_metrics(words):
    """The metrics `-m` names in a command line (all registered ones for --help), read before
    the parser is built so that it takes their options."""
    from . import metrics
    if "-h" in words or "--help" in words:
        return metrics.names()
    pre = _MetricsOnly(add_help=False, allow_abbrev=False)
    pre.add_argument("--metrics", "-m", nargs="+", default=["bleu"])
    try:
        return pre.parse_known_args(words)[0].metrics
    except ValueError:  # the real parser reports it
        return ()


def _metric_args(args):
    """{NAME: keyword arguments} of each -m metric: the name's presets, its sacreBLEU flags
    (`--<name>-*`), then the options it declares itself."""
    from . import metrics
    own = getattr(args, "metric_options_", {})
    # a declared option is not a sacreBLEU flag of the name it starts with (--rouge-stemmer is
    # not `-m rouge`'s `stemmer`)
    declared = {dest for options in own.values() for dest, _ in options}
    out = {}
    for name in args.metrics:
        flags = {k: v for k, v in _args_to_dict(args, name.lower()).items()
                 if f"{name.lower()}_{k}" not in declared}
        kwargs = {**metrics.presets(name), **flags}
        for dest, param in own.get(metrics.get(name), ()):
            kwargs[param] = getattr(args, dest)
        out[name.upper()] = kwargs
    return out


def _foreign_option(parser, words):
    """Refuse, by name, an option that a metric declares when no -m metric of that kind is
    named (argparse would only call it unrecognized). Looked for only among the words the
    parser does not know, so a plain run imports no other metric."""
    unknown = [w.split("=", 1)[0] for w in words if w.startswith("--")
               and w.split("=", 1)[0] not in parser._option_string_actions]
    if not unknown:
        return
    from . import metrics
    for name in metrics.names():
        try:
            cls = metrics.get(name)
        except (ImportError, AttributeError):
            continue
        for flags, _, _ in getattr(cls, "COMMAND_OPTIONS", ()):
            for flag in set(flags) & set(unknown):
                names = [n for n in metrics.names() if metrics.get(n) is cls]
                parser.error(f"{flag} is {cls.label}'s option: name a {cls.label} metric "
                             f"with -m ({', '.join(names)})")


def parse_args(argv=None):
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(_named_metrics(words))
    _foreign_option(parser, words)
    args = parser.parse_args(words)
    # Override the format from the environment, if any (as sacreBLEU)
    if "SACREBLEU_FORMAT" in os.environ:
        value = os.environ["SACREBLEU_FORMAT"].lower()
        if value in OUTPUT_FORMATS:
            args.format = value
    return args


def _args_to_dict(args, prefix):
    """sacreBLEU's args_to_dict(strip_prefix=True): the metric's own flags, prefix removed."""
    prefix += "_"
    return {k.replace(prefix, ""): v for k, v in vars(args).items() if k.startswith(prefix)}


def _empty_message(args):
    message = f"Test set {args.test_set!r} contains no sentence"
    if args.origlang is not None or args.subset is not None:
        message += " with"
        if args.origlang:
            message += f" origlang={args.origlang}"
        if args.subset:
            message += f" subset={args.subset}" + args.subset  # sacreBLEU repeats it
    return message


def _check_length(args, system, n_refs_lines, label):
    if system.n_lines == 0:
        _fail(_empty_message(args), f"{label} is empty.")
    if system.n_lines != n_refs_lines:
        _length_error(args, f"{label} has {system.n_lines} lines, the references "
                            f"{n_refs_lines}.")


class _Counted:
    """A system known by its number of lines only (for _check_length)."""

    def __init__(self, n_lines):
        self.n_lines = n_lines


def _check_lengths_early(args, paths, n_ref_lines, keep):
    """sacreBLEU reads every system before it scores any, so a file of the wrong length stops it
    at once; cybleu streams the systems, so it counts the lines of plain files first (at C speed)
    and stops as early, with the same message. sacreBLEU decodes every system before it
    compares lengths: on a mismatch, every file is decoded first, so that a decoding error comes
    first as it does there. Other inputs (stdin, .gz) are checked once read."""
    counts = [streams.count_lines(path, args.encoding) for path in paths]
    selected = [c if c is None or keep is None else sum(keep[:c]) for c in counts]
    bad = [i for i, c in enumerate(selected) if c is not None and (c == 0 or c != n_ref_lines)]
    if not bad:
        return
    for path in paths:
        streams.check_decodes(path, args.encoding)
    _check_length(args, _Counted(selected[bad[0]]), n_ref_lines, paths[bad[0]])


def _length_error(args, detail):
    from .dataset import cache_dir
    messages = ["System and reference streams have different lengths.", detail]
    if args.test_set:
        messages += ["This could be an issue with your system output or with sacreBLEU's "
                     "reference database if -t is given.",
                     "For the latter, try cleaning out the cache by typing:\n",
                     f"  rm -r {cache_dir()}/{args.test_set}\n",
                     "The test sets will be re-downloaded the next time you run sacreBLEU."]
    _fail(*messages)


# -- output helpers ------------------------------------------------------------------------------

def _colors_enabled(args):
    if os.environ.get("NO_COLOR", False) or args.no_color:
        return False
    try:  # sacreBLEU's colorama strips colors unless stdout is a terminal
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _print(text):
    sys.stdout.write(text + "\n")


# -- modes ---------------------------------------------------------------------------------------

def _progress_for(args, label):
    from .render import Progress
    bar = Progress(0, label, enabled=not args.quiet and _stderr_is_tty())
    return bar


def _stderr_is_tty():
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _line_progress(args, label):
    """Progress on lines read: drawn once an input passes PROGRESS_LINES lines."""
    from .render import Progress
    enabled = not args.quiet and _stderr_is_tty()
    bar = Progress(1, label, enabled=enabled)

    def report(done):
        if enabled and done >= PROGRESS_LINES:
            bar.total = max(bar.total, done)
            bar.label = f"{label}: {done} lines"
            bar.update(done)
    report.close = bar.close
    return report


def _sentence_level(args, metrics, system):
    metric = next(iter(metrics.values()))
    width = args.width
    out = []
    stats = system.stats[metric.key]
    m0 = metric.first
    # sacreBLEU: `metric.sentence_score(hyp, refs)` per line; its score is the metric's
    # arithmetic on that line's statistics
    sig = m0.get_signature().format(args.short)
    for i in range(stats.n_segments):
        score = m0._compute_score_from_stats(stats.row(i))
        out.append(score.format(width, args.score_only, sig))
        if len(out) >= 4096:
            sys.stdout.write("\n".join(out) + "\n")
            out = []
    if out:
        sys.stdout.write("\n".join(out) + "\n")


def _single(args, metrics, system, detail_rows):
    from . import render
    results = []
    for name in sorted(metrics):
        metric = metrics[name]
        score = system.corpus_score(metric)
        n = args.confidence_n if args.confidence else 1
        if n > 1:
            from .significance import _bootstrap_resample
            m0 = metric.first
            stats = system.stats[name]
            m0.n_bootstrap = n
            bar = _progress_for(args, "bootstrap resampling")
            try:
                m0.seed, samples = _bootstrap_resample(stats, m0, n, progress=bar)
            finally:
                bar.close()
            score.estimate_ci(samples)
        sig = metric.first.get_signature().format(args.short if args.format != "json" else False)
        results.append(score.format(args.width, args.score_only, sig, args.format == "json"))
    _print(render.single_results(results, args.format))
    if args.detail:
        _print(render.subset_results(detail_rows(), args.width))


def _plain_table(args, metrics, systems):
    from . import render
    sigs, scores = {}, {"System": [s.name for s in systems]}
    for system in systems:
        for name in sorted(metrics):
            score = system.corpus_score(metrics[name])
            sigs[score.name] = metrics[name].first.get_signature().format(args.short)
            scores.setdefault(score.name, []).append(score.format(args.width, True))
    _print(render.results_table(scores, sigs, args.format, args.width))


def _paired(args, metrics, systems):
    from . import render
    from .significance import PairedTest
    test_type = "bs" if args.paired_bs else "ar"
    n_samples = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    named = [(s.name, s.stats) for s in systems]
    bar = _progress_for(args, "paired bootstrap" if test_type == "bs"
                        else "approximate randomization")
    try:
        test = PairedTest.from_statistics(named, {k: m.first for k, m in metrics.items()},
                                          test_type=test_type, n_samples=n_samples,
                                          n_jobs=args.paired_jobs, progress=bar)
        args.paired_n = test.n_samples
        sigs, scores = test()
    finally:
        bar.close()
    sigs = {k: v.format(args.short) for k, v in sigs.items()}
    _print(render.results_table(scores, sigs, args.format, args.width,
                                paired=test_type, n_samples=n_samples))


def _detail_rows(args, metrics, stats):
    """(-d) scores of each origlang/subset split of a single system, from its segment
    statistics (sacreBLEU re-scores the text of each split: the same numbers). None when the
    test set has no origlang information."""
    def rows():
        from .dataset import get_available_origlangs, get_available_subsets, subset_mask
        from .significance import _score
        # sacreBLEU 2.6.0 iterates over the --origlang string here, one letter at a time
        origlangs = args.origlang if args.origlang else \
            get_available_origlangs(args.test_set, args.langpair)
        if len(origlangs) == 0:
            return None
        n_lines = next(iter(stats.values())).n_segments
        out = []
        for origlang in origlangs:
            subsets = [None]
            if args.subset is not None:
                subsets += [args.subset]
            else:
                subsets += get_available_subsets(args.test_set, args.langpair)
            for subset in subsets:
                mask = subset_mask(args.test_set, args.langpair, origlang, subset)
                chosen = [i for i, k in enumerate(mask) if k and i < n_lines]
                if not chosen:
                    continue
                key = f"origlang={origlang}"
                if subset is None:
                    key += " domain=ALL"
                elif subset.startswith("country:"):
                    key += f" country={subset[8:]}"
                else:
                    key += f" domain={subset}"
                for metric in metrics.values():
                    part = stats[metric.key].select(chosen)
                    out.append((key, len(chosen), _score(metric.first, part)))
        if not out:
            _fail("-d/--detail found no segments for any original language"
                  + (f" (sacreBLEU 2.6.0 reads --origlang {args.origlang!r} letter by letter "
                     "here, and stops with an error as well)." if args.origlang else "."))
        return out
    return rows


def _demo_files():
    from importlib import resources

    from .sample import SAMPLE_SYSTEMS
    root = resources.files("cybleu") / "data"
    return root / DEMO_REF, {name: root / f"{DEMO_PREFIX}{name}.txt" for name in SAMPLE_SYSTEMS
                             if (root / f"{DEMO_PREFIX}{name}.txt").is_file()}


def _demo_lines(entry):
    text = entry.read_bytes().decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.rstrip() for line in lines]


def _aligned_table(rows, headers):
    cols = list(zip(headers, *rows))
    widths = [max(len(str(c)) for c in col) for col in cols]
    out = ["  ".join(f"{h:>{w}}" if i else f"{h:<{w}}" for i, (h, w) in
                     enumerate(zip(headers, widths)))]
    out.append("  ".join("-" * w for w in widths))
    for row in rows:
        out.append("  ".join(f"{v:>{w}}" if i else f"{v:<{w}}" for i, (v, w) in
                             enumerate(zip(row, widths))))
    return "\n".join(out)


def _demo(args):
    import time

    from ._backend import BACKEND
    from .metrics import BLEU
    ref_entry, entries = _demo_files()
    if not entries or not ref_entry.is_file():
        _fail("The bundled demo data (cybleu/data/wmt17-en-de.*.txt) is missing from this "
              "install.")
    refs = _demo_lines(ref_entry)
    hyps = {name: _demo_lines(entry) for name, entry in entries.items()}

    start = time.perf_counter()
    try:
        metric = BLEU(lowercase=args.bleu_lowercase, force=args.bleu_force,
                      tokenize=args.bleu_tokenize, smooth_method=args.bleu_smooth_method,
                      smooth_value=args.bleu_smooth_value, references=[refs])
    except (ImportError, OSError, TypeError, ValueError) as err:
        _fail(str(err))
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
    print(_aligned_table(rows, ("System", "BLEU", "hyp_len", "ref_len", "time (ms)")))
    print()
    print(f"Reference tokenization and caching: {cache_time * 1000:.2f} ms; "
          f"total: {total * 1000:.2f} ms.")
    print(f"Signature: {metric.get_signature().format(args.short)}")
    print("Data: WMT17 newstest2017 en-de (reference and system outputs, first 500 lines), "
          "from sacreBLEU's test fixtures, Apache-2.0 (see cybleu/data/README.md).")
    _demo_report(args, refs, hyps)


def _demo_report_path(args):
    """Where --demo writes its report: --demo-report, else $CYBLEU_DEMO_REPORT, else a new file
    of its own in the temporary folder (never a fixed name there, which another user of the
    machine could have made a link to a file of yours); None for `none`."""
    import tempfile
    path = args.demo_report or os.environ.get("CYBLEU_DEMO_REPORT")
    if path:
        return None if path.lower() == "none" else path
    fd, path = tempfile.mkstemp(prefix="cybleu-demo-", suffix=".html")
    os.close(fd)
    return path


def _demo_report(args, refs, hyps):
    """The report of the sample (cybleu.report); prints where it is."""
    from ._report import report
    from .outputs import Output
    path = _demo_report_path(args)
    if path is None:
        return
    rep = report(refs, hyps, name="WMT17 en-de, first 500 segments",
                 title="cybleu demo: 5 WMT17 en-de systems")
    try:
        with Output(path, binary=True, atomic=True) as out:
            out.write(rep.html().encode("utf-8"))
    except OSError as err:
        _fail(f"{path}: cannot write the demo report: {err.strerror or err}")
    print(f"Report (BLEU, chrF, TER, significance, segments): {path}")
    print("Open it in a browser; it works offline.")


def _sample_path(args):
    from .sample import sample_path
    try:
        _print(sample_path(args.sample_path or None))
    except ValueError as err:
        _fail(f"--sample-path: {err}")


def _list(args):
    from .dataset import (DATASETS, get_available_testsets, get_available_testsets_for_langpair,
                          get_langpairs_for_testset)
    if args.test_set:
        if args.test_set not in DATASETS:
            _fail(f"Unknown test set {args.test_set!r}",
                  "Please run with --list to see the available test sets.")
        pairs = [args.langpair] if args.langpair else get_langpairs_for_testset(args.test_set)
        for pair in pairs:
            fields = DATASETS[args.test_set].fieldnames(pair)
            _print(f'{pair}: {", ".join(fields)}')
        return
    if args.langpair:
        _print(f"The available test sets for {args.langpair} are:")
        testsets = get_available_testsets_for_langpair(args.langpair)
    else:
        _print("The available test sets are:")
        testsets = get_available_testsets()
    for testset in sorted(testsets):
        desc = DATASETS[testset].description.strip()
        _print(f"{testset:<30}: {desc}")


def _check_test_sets(args):
    if args.test_set is None and args.refs:
        return  # references on the command line: nothing to check (nor to import)
    from .dataset import DATASETS, get_available_testsets, get_langpairs_for_testset
    if args.test_set is not None:
        for test_set in args.test_set.split(","):
            if test_set not in DATASETS:
                _fail(f"Unknown test set {test_set!r}",
                      "Please run with --list to see the available test sets.")
    if args.test_set is None:
        if len(args.refs) == 0:
            _fail("If manual references given, make sure to provide them before the -i/--input "
                  "argument to avoid confusion.",
                  "Otherwise, I need a predefined test set (-t) from the following list:",
                  str(get_available_testsets()))
    elif len(args.refs) > 0:
        _fail("I need exactly one of (a) a predefined test set (-t) or (b) a list of references")
    elif args.langpair is None:
        _fail("I need a language pair (-l). Use --list to see available language pairs for this "
              "test set.")
    else:
        for test_set in args.test_set.split(","):
            langpairs = get_langpairs_for_testset(test_set)
            if args.langpair not in langpairs:
                _fail(f"No such language pair {args.langpair!r}",
                      f"Available language pairs for {test_set!r} are:",
                      *[f" > {lp}" for lp in langpairs])


def _run(args, parking=None):
    """The run `args` ask for; `parking` (a streams.CollectorParking, started here, stopped by
    the caller) keeps the references out of the garbage collector's way."""
    from . import render
    if args.sample_path is not None:
        _sample_path(args)
        return
    if args.demo_report is not None and not args.demo:
        _fail("--demo-report names where --demo writes its report: give --demo too.")
    if args.demo:
        if args.refs or args.input is not None or args.test_set:
            _fail("--demo scores the bundled sample: give no reference or input files.")
        _demo(args)
        return

    if args.width < 0:
        _fail(f"-w/--width must be a non-negative number of decimals, not {args.width}.")
    paired = args.paired_bs or args.paired_ar
    render.Color.ENABLE_COLORS = _colors_enabled(args)

    if args.download:
        from .dataset import download_test_set
        download_test_set(args.download, args.langpair)
        return

    if args.list:
        _list(args)
        return

    if args.sentence_level and len(args.metrics) > 1:
        _fail("Only one metric can be used in sentence-level mode.")

    if args.citation:
        from .dataset import DATASETS
        if not args.test_set:
            _fail("I need a test set (-t).")
        for test_set in args.test_set.split(","):
            if test_set not in DATASETS:
                _fail(f"Unknown test set {test_set!r}",
                      "Please run with --list to see the available test sets.")
            if "citation" not in DATASETS[test_set]:
                logger.error(f"No citation found for {test_set}")
            else:
                _print(DATASETS[test_set].citation)
        return

    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        _fail("The --num-refs argument allows you to provide any number of tab-delimited "
              "references in a single file.",
              "You can only use it with externally provided references, however (i.e., not "
              "with `-t`),",
              "and you cannot then provide multiple reference files.")

    _check_test_sets(args)

    if args.echo:
        from .dataset import test_set_lines
        if args.langpair is None or args.test_set is None:
            logger.warning("--echo requires a test set (--t) and a language pair (-l)")
            raise _Exit(1)
        for test_set in args.test_set.split(","):
            for line in test_set_lines(test_set, args.langpair, args.echo, args.origlang,
                                       args.subset):
                _print(line)
        return

    if args.langpair:
        try:
            args.bleu_trg_lang = registry.target_language(args.langpair)
        except ValueError as err:
            _fail(str(err))

    if args.test_set is not None and args.bleu_tokenize == "none":
        logger.warning("You are turning off BLEU's internal tokenizer presumably to supply your "
                       "own tokenized files.")
        logger.warning("Published numbers will not be comparable to other papers.")

    if args.test_set is None:
        ref_groups = [args.refs]
    else:
        from .dataset import get_reference_files
        ref_groups = []
        for test_set in args.test_set.split(","):
            ref_files = get_reference_files(test_set, args.langpair)
            if len(ref_files) == 0:
                logger.warning(f"No references found for test set {test_set}/{args.langpair}.")
            ref_groups.append(ref_files)

    if _stream_systems(args, ref_groups, paired):
        return

    if parking is not None:
        parking.start()     # the collector off while the references are read and cached
    full_refs = streams.read_references(ref_groups, args.num_refs, args.encoding)
    args.num_refs = len(full_refs)
    if "bleu" in args.metrics and args.langpair is None:
        _warn_if_unspaced(args.bleu_tokenize or registry.DEFAULT, full_refs)

    # systems: names first, then their text streams through the metrics
    if args.input is None:
        names = None
    else:
        names, paths = [], []
        for fname in args.input:
            if fname in names:
                if paired and fname == names[0]:
                    logger.info(f"Ignoring {fname!r} as it was also given as the baseline.")
                    continue
                _fail(f"{fname!r} already used to name a system.",
                      "Make sure to have a different basename for each system.")
            names.append(fname)
            paths.append(fname)

    keep = None
    if args.origlang is not None or args.subset is not None:
        from .dataset import subset_mask
        keep = subset_mask(args.test_set, args.langpair, args.origlang, args.subset)
    refs = full_refs if keep is None else [[r for r, k in zip(stream, keep) if k]
                                           for stream in full_refs]
    n_ref_lines = len(refs[0]) if refs else 0
    if any(len(stream) != n_ref_lines for stream in refs):
        _length_error(args, "The reference streams have different lengths.")

    if names is not None:
        num_sys = len(names)
        if args.sentence_level and num_sys > 1:
            _fail("Only one system can be evaluated in sentence-level mode.")
        if args.sentence_level and (args.confidence or paired):
            _fail("Statistical tests are unavailable in sentence-level mode.")
        if paired and num_sys == 1:
            _fail("Paired tests require multiple input systems given to --input (-i).")
        if num_sys > 1 and args.confidence:
            _fail("Use paired tests (--paired) for multiple systems.")

    if args.sentence_level:
        args.bleu_effective_order = True
        # sacreBLEU scores one line at a time there, so never warns about tokenized periods
        args.bleu_force = True

    # -d splits the whole test set by origlang itself: stream every line then, and select the
    # --origlang/--subset lines from the statistics
    select_later = keep is not None and args.detail and not args.sentence_level
    stream_refs = full_refs if select_later else refs
    n_stream_lines = len(stream_refs[0]) if stream_refs else 0
    if names is not None:
        _check_lengths_early(args, paths, n_stream_lines, None if select_later else keep)
    metric_args = _metric_args(args)
    label = ", ".join(args.refs) if args.test_set is None else "the references"
    metrics = streams.make_metrics(_metric_classes(metric_args), metric_args, stream_refs,
                                   n_stream_lines, label)
    if parking is not None:
        parking.park()
    keep_rows = bool(args.sentence_level or paired or args.confidence or args.detail)
    progress = _line_progress(args, "scoring")
    reader = streams.Reader(args.encoding, metrics, n_stream_lines,
                            None if select_later else keep, keep_rows, progress)
    try:
        if names is None:
            systems = reader.stdin()
            num_sys = len(systems)
            if paired:
                systems[0].name = "Baseline"
                for i, system in enumerate(systems[1:], 1):
                    system.name = f"System {i}"
            if args.sentence_level and num_sys > 1:
                _fail("Only one system can be evaluated in sentence-level mode.")
            if args.sentence_level and (args.confidence or paired):
                _fail("Statistical tests are unavailable in sentence-level mode.")
            if paired and num_sys == 1:
                _fail("Paired tests require multiple input systems given to --input (-i).")
            if num_sys > 1 and args.confidence:
                _fail("Use paired tests (--paired) for multiple systems.")
            for system in systems:
                _check_length(args, system, n_stream_lines, "the input")
        else:
            labels = [f"Baseline: {n}" if paired and i == 0 else n for i, n in enumerate(names)]
            systems = reader.files(paths, labels)
            for system, path in zip(systems, paths):
                _check_length(args, system, n_stream_lines, path)
    finally:
        progress.close()
    full_stats = None
    if select_later:
        chosen = [i for i, k in enumerate(keep) if k and i < n_stream_lines]
        full_stats = [system.stats for system in systems]
        for system in systems:
            system.stats = {key: st.select(chosen) for key, st in system.stats.items()}
            system.n_lines = len(chosen)

    if args.sentence_level:
        _sentence_level(args, metrics, systems[0])
        return

    if args.detail and args.format == "json":
        args.format = "text"  # the translationese details would interfere with JSON

    if len(systems) == 1:
        detail_stats = full_stats[0] if full_stats is not None else systems[0].stats
        _single(args, metrics, systems[0], _detail_rows(args, metrics, detail_stats))
        return
    logger.info(f"Found {len(systems)} systems.")
    if paired:
        _paired(args, metrics, systems)
    else:
        _plain_table(args, metrics, systems)


def _warn_if_unspaced(tokenize, refs):
    """A warning on stderr (standard output stays sacreBLEU's) when the references look written
    without spaces between words and BLEU's tokenizer splits only at spaces."""
    from .tokenizers import language_hint
    if tokenize in language_hint.DEFAULT_TOKENIZERS:
        hint = language_hint.guess([line for stream in refs for line in stream[:5000]])
        if hint is not None:
            logger.warning(language_hint.advice(hint, tokenize, "cli"))


def _stream_systems(args, ref_groups, paired):
    """System files scored against reference files of their length, longer than one slice:
    read in step with the references, a slice at a time, so memory stays bounded by the slice
    instead of growing with the files or the number of systems (the same output as caching the
    references first). A paired test, an interval, -d or the sentence level keeps each
    system's segment statistics, not its text. False, having done nothing, for any other run
    (and for the combinations the general path refuses, with its message)."""
    if (args.input is None or len(ref_groups) != 1
            or (args.num_refs != 1 and len(ref_groups[0]) != 1)
            or len(set(args.input)) != len(args.input)
            or args.origlang is not None or args.subset is not None):
        return False
    n_sys = len(args.input)
    if ((args.sentence_level and (n_sys > 1 or args.confidence or paired))
            or (paired and n_sys == 1) or (n_sys > 1 and args.confidence)):
        return False
    ref_paths, paths = list(ref_groups[0]), list(args.input)
    if not ref_paths:
        return False
    counts = [streams.count_lines(p, args.encoding) for p in ref_paths + paths]
    if None in counts or len(set(counts)) != 1 or counts[0] <= streams.CHUNK_LINES:
        return False      # the general path reads them (and reports a length mismatch)
    if args.sentence_level:     # as the general path sets them
        args.bleu_effective_order = True
        args.bleu_force = True
    metric_args = _metric_args(args)
    classes = _metric_classes(metric_args)
    label = ", ".join(args.refs) if args.test_set is None else "the references"
    # the settings checked (and refused with the metric's message) before anything is read
    streams.make_metrics(classes, metric_args,
                         [[""] for _ in range(max(len(ref_paths), args.num_refs))], 1, label)
    if "bleu" in args.metrics and args.langpair is None:
        # the check reads the first lines of each reference stream, as the general path does
        firsts = [streams.first_lines(p, args.encoding, 5000) for p in ref_paths]
        if args.num_refs != 1:
            firsts = streams.split_fields(firsts[0], args.num_refs, 1)
        _warn_if_unspaced(args.bleu_tokenize or registry.DEFAULT, firsts)
    labels = [f"Baseline: {p}" if paired and i == 0 else p for i, p in enumerate(paths)]
    keep_rows = bool(args.sentence_level or paired or args.confidence or args.detail)
    progress = _line_progress(args, "scoring")
    try:
        systems, metrics = streams.stream_systems(metric_args, classes, ref_paths, paths, labels,
                                                  args.encoding, progress, keep_rows,
                                                  args.num_refs)
    finally:
        progress.close()
    if args.sentence_level:
        _sentence_level(args, metrics, systems[0])
        return True
    if args.detail and args.format == "json":
        args.format = "text"  # as the general path: the details would interfere with JSON
    if len(systems) == 1:
        _single(args, metrics, systems[0], _detail_rows(args, metrics, systems[0].stats))
        return True
    logger.info(f"Found {len(systems)} systems.")
    if paired:
        _paired(args, metrics, systems)
    else:
        _plain_table(args, metrics, systems)
    return True


def _mistyped_command(word):
    """True (after saying so on stderr) when `word`, the first argument, is no file but is
    close to a command's name (`cybleu reprot ...`). A file of that name is a reference file,
    as in sacreBLEU, and a word that looks like a file name (a dot, a slash) is left to the
    reference reader, which names the missing file."""
    import re
    if os.path.exists(word) or not re.fullmatch(r"[A-Za-z][A-Za-z_-]*", word):
        return False
    from difflib import get_close_matches
    close = get_close_matches(word.lower(), SUBCOMMANDS, n=1, cutoff=0.6)
    if not close:
        return False
    sys.stderr.write(f"cybleu: {word!r} is neither a file nor a command: did you mean "
                     f"`cybleu {close[0]}`? (commands: {', '.join(SUBCOMMANDS)}; "
                     "see cybleu --help)\n")
    return True


def main(argv=None):
    """Run the command line on `argv` (default: sys.argv[1:]); returns the exit status.
    `cybleu report|best-of|filter ...` run the command of that name (SUBCOMMANDS)."""
    from . import _command
    words = sys.argv[1:] if argv is None else list(argv)
    # a file of the same name keeps sacreBLEU's meaning (`cybleu report -i hyp.txt` with a
    # reference file called `report`)
    if words and words[0] in SUBCOMMANDS and not os.path.exists(words[0]):
        from importlib import import_module
        if argv is None:
            _command.setup_process_streams()
        return import_module(SUBCOMMANDS[words[0]].module, __package__).main(words)
    if words and _mistyped_command(words[0]):
        return 2
    try:
        args = parse_args(argv)
    except SystemExit as exc:  # --help, --version, usage errors
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    if argv is None:
        _command.setup_process_streams()

    parking = streams.CollectorParking()

    def body():
        try:
            _run(args, parking)
        finally:
            parking.stop()
    return _command.run(body, args.quiet)


if __name__ == "__main__":
    sys.exit(main())
