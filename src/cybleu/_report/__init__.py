"""One self-contained HTML report comparing MT systems: sacreBLEU-exact scores with confidence
intervals, p-values for every pair of systems, BLEU's anatomy and per-segment drill-down.

    import cybleu
    rep = cybleu.report(refs, {"base": base_lines, "new": new_lines}, baseline="base")
    rep.save("report.html")          # one file, opens offline in any current browser
    rep                              # in a notebook: the report inline

Every number is computed here, in Python, by the library's own functions (`compute.py`); the
page's JavaScript only sorts, filters and draws them. Nothing in the page asks for the network.
"""
import logging
from collections.abc import Mapping, Sequence

from ..metrics import REPORT_METRICS

logger = logging.getLogger("cybleu.report")

__all__ = ["report", "Report", "TestSet", "ReportInputError"]


# Resamples (or trials) a report takes at most. The scores of every resample are kept (time and
# memory grow with the number: a million resamples of five systems on 500 segments take about
# half a minute and 1.4 GB), and a million already resolves a p-value to one in a million.
MAX_SAMPLES = 1_000_000


def too_many_samples(n):
    return (f"{n} resamples are more than a report takes ({MAX_SAMPLES:,}): time and memory "
            f"grow with them (the scores of every resample are kept), and {MAX_SAMPLES:,} "
            f"already resolve a p-value to 1/{MAX_SAMPLES + 1:,}")


class ReportInputError(ValueError):
    """Inputs a report cannot be built from (lengths, names, types), with what and where.

    >>> import cybleu
    >>> try:
    ...     cybleu.report(["the cat sat", "a dog"], {"x": ["the cat sat"]})
    ... except cybleu.ReportInputError as err:
    ...     print(err)
    test set: system 'x' has 1 lines, the references 2
    """


class TestSet:
    """One test set (or language pair) of a report: its references, the systems' outputs and
    optionally the source.

    :param name: shown as the test set's title.
    :param references: one reference stream (a list of lines) or a list of streams (one per
        reference set; None where a stream has no reference for a segment).
    :param systems: {name: lines}, or a sequence of (name, lines) pairs.
    :param sources: the source lines, or None.
    :param language_pair: "SRC-TGT" (such as "en-zh"), as sacreBLEU's `-l`: the target language
        picks BLEU's tokenizer (zh, ja-mecab, ko-mecab) for the metrics given by name; None: the
        report's `language_pair`.
    :param scores: per-segment scores computed elsewhere (COMET, MetricX, ...), shown as metrics
        of their own: {"NAME": {system: scores}}, "NAME:lower" when lower is better; every
        system needs one finite number per segment.
    :raises ReportInputError: lines that are not str, streams or systems of different lengths,
        a segment without any reference, two systems of the same name, a language pair without
        "-", scores of the wrong length, for an unknown system, or that are not finite numbers.

    >>> import cybleu
    >>> news = cybleu.TestSet("news", ["the cat sat"], {"a": ["the cat sat"]})
    >>> news
    TestSet('news': 1 segment, 1 reference, 1 system)
    >>> rep = cybleu.report(testsets=[news])
    """

    __test__ = False  # not a pytest test class

    def __init__(self, name, references, systems, sources=None, language_pair=None,
                 scores=None):
        self.name = str(name)
        self.references = _streams(references, self.name)
        n = len(self.references[0])
        self.systems = _systems(systems, n, self.name)
        self.sources = None
        if sources is not None:
            self.sources = _lines(sources, f"{self.name}: the source", n)
        self.language_pair = _language_pair(language_pair, self.name)
        self.scores = _scores(scores, self.systems, n, self.name)

    def __repr__(self):
        return (f"TestSet({self.name!r}: {_count(len(self.references[0]), 'segment')}, "
                f"{_count(len(self.references), 'reference')}, "
                f"{_count(len(self.systems), 'system')})")


def _count(n, word):
    """'1 segment', '2 segments', '3,004 segments'."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _language_pair(pair, name=None):
    """The pair as given (None stays None), or ReportInputError when it has no target."""
    if pair is None:
        return None
    from ..tokenizers.registry import target_language
    if not isinstance(pair, str):
        raise ReportInputError(f"{_where(name)}language_pair should be a str such as 'en-zh', "
                               f"not {type(pair).__name__}")
    try:
        target_language(pair)
    except ValueError as err:
        raise ReportInputError(f"{_where(name)}{err}") from None
    return pair


def _where(label):
    return f"{label}: " if label else ""


def _lines(lines, label, n=None):
    if isinstance(lines, str) or not isinstance(lines, Sequence):
        raise ReportInputError(f"{label} should be a list of lines (str), not "
                               f"{type(lines).__name__}")
    lines = list(lines)
    for i, line in enumerate(lines):
        if not isinstance(line, str):
            raise ReportInputError(f"{label}: line {i + 1} is {type(line).__name__}, not str")
    if n is not None and len(lines) != n:
        raise ReportInputError(f"{label} has {len(lines)} lines, the references {n}")
    return lines


def _streams(references, name):
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise ReportInputError(f"{_where(name)}references should be a list of lines or a list "
                               "of reference streams")
    if not references:
        raise ReportInputError(f"{_where(name)}the references are empty: a report needs at "
                               "least one segment")
    if all(isinstance(x, str) for x in references):
        streams = [list(references)]
    else:
        streams = []
        for k, stream in enumerate(references):
            if isinstance(stream, str) or not isinstance(stream, Sequence):
                raise ReportInputError(f"{_where(name)}reference stream {k + 1} is "
                                       f"{type(stream).__name__}, not a list of lines")
            for i, line in enumerate(stream):
                if line is not None and not isinstance(line, str):
                    raise ReportInputError(f"{_where(name)}reference stream {k + 1}, line "
                                           f"{i + 1} is {type(line).__name__}, not str")
            streams.append(list(stream))
    lengths = {len(s) for s in streams}
    if len(lengths) > 1:
        raise ReportInputError(f"{_where(name)}the reference streams have different lengths "
                               f"{sorted(lengths)}")
    if not streams[0]:
        raise ReportInputError(f"{_where(name)}the references are empty: a report needs at "
                               "least one segment")
    for i in range(len(streams[0])):
        if all(s[i] is None for s in streams):
            raise ReportInputError(f"{_where(name)}segment {i + 1} has no reference")
    return streams


def _scores(scores, systems, n, name):
    """{name: (higher_is_better, {system: [floats]})} of `scores` ({"NAME[:lower]": {system:
    values}}), every system's scores checked: one finite number per segment."""
    if scores is None:
        return {}
    from ..metrics.scores import check_scores, parse_name
    if not isinstance(scores, Mapping):
        raise ReportInputError(f"{_where(name)}scores should be {{name: {{system: scores}}}}, "
                               f"not {type(scores).__name__}")
    out = {}
    for key, per_system in scores.items():
        try:
            label, higher = parse_name(key)
        except ValueError as err:
            raise ReportInputError(f"{_where(name)}{err}") from None
        if label in out:
            raise ReportInputError(f"{_where(name)}two score sets are named {label!r}")
        if not isinstance(per_system, Mapping):
            raise ReportInputError(f"{_where(name)}scores {label!r} should be {{system: "
                                   f"scores}}, not {type(per_system).__name__}")
        unknown = [s for s in per_system if s not in systems]
        if unknown:
            raise ReportInputError(f"{_where(name)}scores {label!r} are given for "
                                   f"{unknown[0]!r}, which is not a system; the systems are "
                                   f"{', '.join(map(repr, systems))}")
        values = {}
        for system in systems:
            if system not in per_system:
                raise ReportInputError(f"{_where(name)}scores {label!r} have none for system "
                                       f"{system!r}")
            where = f"{_where(name)}{label} of system {system!r}"
            try:
                got = check_scores(per_system[system], where)
            except (TypeError, ValueError) as err:
                raise ReportInputError(str(err)) from None
            if len(got) != n:
                raise ReportInputError(f"{where}: {len(got)} scores for {n} segments")
            values[system] = got
        out[label] = (higher, values)
    return out


def _systems(systems, n, name):
    if isinstance(systems, Mapping):
        pairs = list(systems.items())
    elif isinstance(systems, Sequence) and not isinstance(systems, str):
        pairs = []
        for k, item in enumerate(systems):
            if not (isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], str)):
                raise ReportInputError(f"{_where(name)}systems should be {{name: lines}} or "
                                       f"(name, lines) pairs; item {k + 1} is neither")
            pairs.append(tuple(item))
    else:
        raise ReportInputError(f"{_where(name)}systems should be {{name: lines}}, not "
                               f"{type(systems).__name__}")
    if not pairs:
        raise ReportInputError(f"{_where(name)}no system to report on")
    out = {}
    for sys_name, lines in pairs:
        sys_name = str(sys_name)
        if sys_name in out:
            raise ReportInputError(f"{_where(name)}two systems are named {sys_name!r}")
        out[sys_name] = _lines(lines, f"{_where(name)}system {sys_name!r}", n)
    return out


#: the largest HTML a report shows in a notebook unless told (bytes of UTF-8; notebook.py's)
from .notebook import INLINE_LIMIT as NOTEBOOK_LIMIT  # noqa: E402 - beside the check that uses it


def _check_limit(value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise ReportInputError(f"notebook_limit must be a positive int (bytes) or None, not "
                               f"{value!r}")
    return value


class Report:
    """A built report: `save(path)` writes the page; `html()` gives it as a str; in a notebook
    it displays inline. `data` holds every number the page shows (a dict: per test set, per
    metric the corpus scores, intervals, p-values, signatures, ...).

    Made by `cybleu.report(...)`, not by hand: its parameters are the report's parts.

    :param meta: what the page's first view needs (titles, systems, corpus scores).
    :param header: every number of the page (`data`).
    :param arrays: the typed arrays of the page's data (`arrays`).
    :param notebook_limit: the largest HTML it shows in a notebook (bytes; None: no limit).

    >>> import cybleu
    >>> rep = cybleu.report(["the cat sat on the mat"],
    ...                     {"a": ["the cat sat on the mat"], "b": ["a cat sat on a mat"]},
    ...                     metrics=["bleu"])
    >>> print(rep.summary())
    test set: systems compared
    test set: 1 segment, 2 systems
               BLEU
      a      100.00
      b       32.47
    """

    def __init__(self, meta, header, arrays, notebook_limit=NOTEBOOK_LIMIT):
        self._meta = meta
        self._header = header
        self._arrays = arrays
        self._container = None
        self.notebook_limit = notebook_limit

    @property
    def notebook_limit(self):
        """The largest HTML the report shows in a notebook, in bytes (default 1,000,000; None:
        no limit). Above it the notebook shows the page without its segments, and says so."""
        return self._notebook_limit

    @notebook_limit.setter
    def notebook_limit(self, value):
        self._notebook_limit = _check_limit(value)

    @property
    def title(self):
        """The page's title."""
        return self._meta["title"]

    @property
    def data(self):
        """The JSON header of the page's data (per test set: systems, metrics with corpus
        scores, intervals, p-values, signatures, groups, buckets, n-gram tables, texts)."""
        return self._header

    @property
    def arrays(self):
        """The typed arrays of the page's data (sentence scores, segment statistics), by
        name as the header's `sentence_array`/`stats_array` entries give them."""
        return self._arrays

    def _container_bytes(self, light=False):
        """(the numbers' container, the texts' JSON or None). `light`: True, or the note the
        page shows about what it leaves out."""
        from .page import encode_payload, encode_texts
        if light:
            header = dict(self._header)
            header["sets"] = [dict(ts, texts=None, text_layout=None, ngrams=None)
                              for ts in header["sets"]]
            header["light"] = {"note": light} if isinstance(light, str) else True
            keep = {name: arr for name, arr in self._arrays.items()
                    if not name.split(".", 1)[-1].startswith(("sent_", "stats_", "ngram_"))}
            return encode_payload(header, keep), None
        if self._container is None:
            header = dict(self._header)
            header["sets"] = [dict(ts, texts=None) for ts in header["sets"]]
            self._container = (encode_payload(header, self._arrays),
                               encode_texts([ts["texts"] for ts in self._header["sets"]]))
        return self._container

    def html(self, compress=True, light=False):
        """The page as one str.

        :param compress: gzip the embedded data (False: base64 only, for very old browsers).
        :param light: leave out the segments (text, sentence scores, n-grams): the views of the
            corpus only, as the notebook display embeds them.
        :returns: the HTML text of the self-contained page.
        """
        return self._html(compress, bool(light))

    def _html(self, compress=True, light=False):
        from .page import build_html
        container, texts = self._container_bytes(light)
        return build_html(self._meta, container, texts, compress)

    def save(self, path, compress=True):
        """Write the page to `path`. A regular file is written as a temporary file beside it and
        renamed when complete (a failed write leaves no partial report, and an old file as it
        was); a symbolic link is written through to its target; a path that is not a regular
        file (a FIFO, /dev/stdout, /dev/null) is written directly, never replaced.

        :param path: the file to write (str or path-like).
        :param compress: as for :meth:`html`.
        :returns: the path written (a link's target for a link).
        :raises OSError: the page cannot be written there: the folder is missing, a filesystem
            that allows no new file, read-only, no permission, no space left (the exception's
            `filename` is the path, its message says which)."""
        from ..outputs import Output
        text = self.html(compress).encode("utf-8")
        with Output(path, binary=True, atomic=True) as out:
            out.write(text)
        return out.target

    def summary(self):
        """A text table of the corpus scores (what `repr` shows), and the notes of each test
        set (a tokenization that does not suit the references' script).

        :returns: the table, one line per system and test set."""
        lines = [self.title]
        for ts in self._meta["sets"]:
            lines.append(f"{ts['name']}: {_count(ts['n_segments'], 'segment')}, "
                         f"{_count(len(ts['systems']), 'system')}")
            width = max(len(n) for n in ts["systems"])
            lines.append("  " + " " * width + "  " + "  ".join(f"{m:>10}" for m in ts["metrics"]))
            for name, row in zip(ts["systems"], ts["scores"]):
                lines.append(f"  {name:<{width}}  " + "  ".join(f"{v:>10}" for v in row))
            for note in ts.get("notes", ()):
                lines.append(f"  Note: {note}")
        return "\n".join(lines)

    def __repr__(self):
        return f"<cybleu Report\n{self.summary()}\n>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        from .notebook import report_bundle
        return report_bundle(self, include, exclude)


#: the keys of a test set given as a dict (and in a manifest); "source" is read as "sources"
TESTSET_KEYS = ("name", "references", "systems", "sources", "language_pair", "scores")


def _testset_from_dict(ts, k):
    unknown = [key for key in ts if key not in TESTSET_KEYS + ("source",)]
    if unknown:
        raise ReportInputError(f"test set {k + 1}: unknown key {unknown[0]!r}; the keys are "
                               f"{', '.join(TESTSET_KEYS)}")
    if "source" in ts and "sources" in ts:
        raise ReportInputError(f"test set {k + 1}: give \"sources\" or \"source\", not both")
    name = ts.get("name") or ts.get("language_pair") or f"test set {k + 1}"
    return TestSet(name, ts.get("references"), ts.get("systems"),
                   ts.get("sources", ts.get("source")), ts.get("language_pair"),
                   ts.get("scores"))


def report(references=None, systems=None, *, sources=None, name=None, testsets=None,
           metrics=REPORT_METRICS, baseline=None, title=None, paired_test="bs",
           n_samples=None, seed=None, alpha=0.05, language_pair=None,
           notebook_limit=NOTEBOOK_LIMIT, scores=None):
    """Build a comparison report of MT systems (one page; `Report.save(path)` writes it).

    :param references: one reference stream (list of lines) or a list of streams.
    :param systems: {name: lines} (or (name, lines) pairs), each as long as the references.
    :param sources: the source lines (shown next to each segment), or None.
    :param name: the test set's name (default "test set").
    :param testsets: instead of the four above, several test sets or language pairs:
        `TestSet` objects or dicts with keys name, references, systems, sources, language_pair,
        scores.
    :param metrics: registered names (`cybleu.metrics.names()`), (name, options) pairs such as
        `("bleu", {"lowercase": True})`, or metric objects (e.g. `BLEU(tokenize="intl")`), in
        the order shown (default: sacreBLEU's three).
    :param baseline: the system the p-values compare with (default: the first); in every test
        set that has it, else that set's first system.
    :param title: the page's title.
    :param paired_test: "bs" (paired bootstrap; sacreBLEU's, with 1000 resamples) or "ar"
        (approximate randomization, 10000 trials). Intervals always come from the bootstrap.
    :param n_samples: resamples or trials (default 1000 / 10000; at most `MAX_SAMPLES`,
        1,000,000).
    :param seed: the resampling seed (default SACREBLEU_SEED, else 12345, as sacreBLEU).
    :param alpha: the level at which Holm-adjusted p-values count as significant (groups).
    :param language_pair: "SRC-TGT" (such as "en-zh") of the test sets that give none, as
        sacreBLEU's `-l`: the target language picks BLEU's tokenizer for the metrics given by
        name (zh, ja-mecab, ko-mecab, else 13a). Without one, references mostly in a script
        written without spaces get a note on the page and a warning in the log when BLEU splits
        at spaces (13a, intl).
    :param notebook_limit: the largest HTML the report shows in a notebook, in bytes (default
        1,000,000; None: no limit); above it the notebook shows it without its segments, and
        says so. `Report.notebook_limit` changes it later.
    :param scores: per-segment scores computed elsewhere, shown after the metrics as metrics of
        the segment-mean kind (the corpus score is their mean): {"COMET": {system: scores}},
        "NAME:lower" when lower is better (with `testsets`, give them to each TestSet).
    :returns: a `Report`.
    :raises ReportInputError: (a ValueError) inputs of different lengths, unknown baseline,
        lines that are not str, a metric name that is not known.
    :raises ImportError: a tokenizer the language pair picks needs a package that is missing
        (ja-mecab: mecab-python3 and ipadic; ko-mecab: mecab-ko).

    >>> import cybleu
    >>> rep = cybleu.report(["the cat sat on the mat"], {"a": ["the cat sat on the mat"],
    ...                                                   "b": ["a cat sat on a mat"]})
    >>> [round(m["corpus"][1]["score"], 10) for m in rep.data["sets"][0]["metrics"]]
    [32.4667915475, 45.654498288, 33.3333333333]
    """
    from .. import metrics as registry
    from .. import significance as sig
    from ..tokenizers.registry import target_language
    from . import compute, language
    from .page import clean_text

    if testsets is not None:
        if references is not None or systems is not None or sources is not None \
                or scores is not None:
            raise ReportInputError("give either testsets or references and systems (and scores), "
                                   "not both")
        sets = []
        for k, ts in enumerate(testsets):
            if isinstance(ts, TestSet):
                sets.append(ts)
            elif isinstance(ts, Mapping):
                sets.append(_testset_from_dict(ts, k))
            else:
                raise ReportInputError(f"test set {k + 1} is {type(ts).__name__}, not a TestSet "
                                       "or dict")
        if not sets:
            raise ReportInputError("testsets is empty")
    else:
        if references is None or systems is None:
            raise ReportInputError("a report needs references and systems")
        sets = [TestSet(name or "test set", references, systems, sources, scores=scores)]
    language_pair = _language_pair(language_pair)
    _check_limit(notebook_limit)
    names = [ts.name for ts in sets]
    if len(set(names)) != len(names):
        raise ReportInputError(f"two test sets have the same name: {names}")

    if isinstance(metrics, (str, tuple)) and (isinstance(metrics, str) or (
            len(metrics) == 2 and isinstance(metrics[1], dict))):
        metrics = [metrics]
    metrics = list(metrics or ())
    if not metrics and not any(ts.scores for ts in sets):
        raise ReportInputError("no metric to compute")
    try:
        specs = [compute.make_metric(m) for m in metrics]
    except (TypeError, ValueError) as err:
        raise ReportInputError(str(err)) from None
    asked = [(m[0] if isinstance(m, tuple) else m).lower() for m in metrics
             if isinstance(m, str) or (isinstance(m, tuple) and isinstance(m[0], str))]
    if len(set(asked)) < len(asked):
        raise ReportInputError(f"a metric is asked for twice: {list(metrics)}")
    if paired_test not in ("bs", "ar"):
        raise ReportInputError(f"paired_test must be 'bs' or 'ar', not {paired_test!r}")
    if n_samples is None:
        n_samples = 1000 if paired_test == "bs" else 10000
    if isinstance(n_samples, bool) or not isinstance(n_samples, int) or n_samples < 1:
        raise ReportInputError(f"n_samples must be a positive int, not {n_samples!r}")
    if n_samples > MAX_SAMPLES:
        raise ReportInputError(too_many_samples(n_samples))
    if seed is None:
        seed_str, seed_value = sig._env_seed()
    else:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ReportInputError(f"seed must be a non-negative int, not {seed!r}")
        seed_str, seed_value = str(seed), seed
    if not (isinstance(alpha, (int, float)) and 0 < alpha < 1):
        raise ReportInputError(f"alpha must be between 0 and 1, not {alpha!r}")
    if baseline is not None and not any(baseline in ts.systems for ts in sets):
        known = sorted({n for ts in sets for n in ts.systems})
        raise ReportInputError(f"unknown baseline {baseline!r}; the systems are "
                               f"{', '.join(map(repr, known))}")

    header_sets, arrays = [], {}
    for k, ts in enumerate(sets):
        base = baseline if baseline in ts.systems else next(iter(ts.systems))
        pair = ts.language_pair or language_pair
        target = target_language(pair) if pair else None
        if target:
            fresh = [compute.make_metric(m, target) for m in metrics]
        else:
            fresh = [compute.make_metric(m) for m in specs]
        fresh += [registry.ExternalScores(label, higher)
                  for label, (higher, _) in ts.scores.items()]
        if not fresh:
            raise ReportInputError(f"{ts.name}: no metric to compute")
        set_notes = language.notes(ts.references, fresh, target)
        for note in set_notes:
            logger.warning(f"{clean_text(ts.name)}: {note}")
        head, arrs = compute.compute_testset(ts, fresh, base, paired_test, n_samples,
                                             seed_value, seed_str, alpha)
        shown = [m["name"] for m in head["metrics"]]
        same = sorted({name for name in shown if shown.count(name) > 1})
        if same:
            # two columns of one name could not be told apart on the page
            raise ReportInputError(f"two metrics are both shown as {', '.join(same)}: leave "
                                   f"one out, or give them settings that name them apart")
        for arr_name, arr in arrs.items():
            arrays[f"s{k}.{arr_name}"] = arr
        for m in head["metrics"]:
            m["sentence_array"] = f"s{k}.{m['sentence_array']}"
            if "stats_array" in m:
                m["stats_array"] = f"s{k}.{m['stats_array']}"
        head["ref_len"] = f"s{k}.{head['ref_len']}"
        if head.get("ngrams"):
            head["ngrams"]["segments"] = f"s{k}.{head['ngrams']['segments']}"
        # names a page cannot encode (undecodable file-name bytes, lone surrogates) as escapes
        head["name"] = clean_text(head["name"])
        head["systems"] = [clean_text(n) for n in head["systems"]]
        head["language_pair"] = pair
        head["notes"] = set_notes
        header_sets.append(head)

    from ..version import __version__
    title = title if title is not None else (
        "MT systems compared" if len(sets) > 1 else f"{sets[0].name}: systems compared")
    header = {
        "title": clean_text(title),
        "generator": f"cybleu {__version__}",
        "test": {"type": paired_test, "n": n_samples, "seed": seed_str, "alpha": alpha,
                 "correction": "holm", "ci_resamples": n_samples if paired_test == "bs" else 1000},
        "sets": header_sets,
    }
    for head in header_sets:
        head["latex"], head["csv"] = _tables(header, head)
    meta = {"title": header["title"], "generator": header["generator"],
            "sets": [{"name": h["name"], "n_segments": h["n_segments"], "systems": h["systems"],
                      "metrics": [m["name"] for m in h["metrics"]],
                      "scores": [[f"{m['corpus'][s]['score']:.{m['digits']}f}"
                                  for m in h["metrics"]] for s in range(len(h["systems"]))],
                      "notes": h["notes"]}
                     for h in header_sets]}
    return Report(meta, header, arrays, notebook_limit)


def _latex_escape(text):
    out = []
    for ch in text:
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append("\\textasciitilde{}")
        elif ch == "^":
            out.append("\\textasciicircum{}")
        elif ch == "\\":
            out.append("\\textbackslash{}")
        elif ch in "<>|":
            out.append({"<": "\\textless{}", ">": "\\textgreater{}", "|": "\\textbar{}"}[ch])
        elif ch.isprintable() or ch == " ":
            out.append(ch)
        else:
            out.append(" ")
    return "".join(out)


def _csv_cell(text):
    """A CSV field: text a spreadsheet would read as a formula gets a leading ', then quotes
    where the text needs them (the page's own exports do the same)."""
    text = str(text)
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):  # not a formula in a spreadsheet
        text = "'" + text
    if any(c in text for c in ",\"\n\r"):
        return '"' + text.replace('"', '""') + '"'
    return text


def _fmt_p(p, alpha):
    """A p-value with four decimals, or as many more as it takes not to read as the level it
    is below (0.00999 is '0.00999', not '0.0100'); as the page shows it."""
    if p < 0.0001:
        return f"{p:.1e}".replace("e-0", "e-")      # 5.0e-5, as JavaScript writes it
    levels = (0.01, alpha)
    for digits in range(4, 11):
        text = f"{p:.{digits}f}"
        if all((float(text) < level) == (p < level) for level in levels):
            return text
    return f"{p:.4f}"


def _tables(header, ts):
    """The overview as LaTeX (booktabs) and CSV: score, interval and p-value per metric."""
    test = header["test"]
    metrics = ts["metrics"]
    base = ts["baseline"]
    names = ts["systems"]
    cols = "l" + "rrr" * len(metrics)
    head1 = " & ".join(["System"] + [f"\\multicolumn{{3}}{{c}}{{{_latex_escape(m['name'])}}}"
                                     for m in metrics])
    head2 = " & ".join([""] + ["score & $\\pm$95\\% & $p$"] * len(metrics))
    kind = "bootstrap" if test["type"] == "bs" else "approximate randomization"
    lines = [f"% {_latex_escape(ts['name'])}: paired {kind} ({test['n']}), seed {test['seed']}, "
             f"p against {_latex_escape(names[base])}",
             f"\\begin{{tabular}}{{{cols}}}", "\\toprule", head1 + " \\\\", head2 + " \\\\",
             "\\midrule"]
    csv = [",".join(["system"] + [f"{m['name']}{suffix}" for m in metrics
                                  for suffix in ("", " mean", " ci95", " p")])]
    for s, name in enumerate(names):
        cells = [_latex_escape(name) + (" (baseline)" if s == base else "")]
        row = [_csv_cell(name)]
        for m in metrics:
            c = m["corpus"][s]
            p = c["p"]
            cells += [f"{c['score']:.2f}", f"{c['ci']:.2f}" if c["ci"] is not None else "",
                      "" if p is None else _fmt_p(p, test["alpha"])]
            row += [repr(c["score"]), "" if c["mean"] is None else repr(c["mean"]),
                    "" if c["ci"] is None else repr(c["ci"]), "" if p is None else repr(p)]
        lines.append(" & ".join(cells) + " \\\\")
        csv.append(",".join(row))
    lines += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(lines) + "\n", "\n".join(csv) + "\n"
