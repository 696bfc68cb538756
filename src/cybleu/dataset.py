"""Test sets (`-t/--test-set`), read from sacreBLEU's local cache; cybleu never downloads.

sacreBLEU keeps every test set it has fetched under `$SACREBLEU` (default `~/.sacrebleu`):
`<name>/raw/` holds the downloaded archive and its unpacked files, and `<name>/<name>.<pair>.<field>`
the plain-text fields it extracted (`src`, `ref`, `ref-A`, `docid`, `origlang`, ...). cybleu reads
those same files with sacreBLEU 2.6.0's registry (`_testsets.py`, generated from it), so
`cybleu -t wmt17 -l en-de` scores against exactly the lines sacreBLEU would use. When a file is not
there, the error names it and says how to fetch it once with sacreBLEU.
"""
import itertools
import os
import re

__all__ = ["TestSetError", "TestSet", "DATASETS", "SUBSETS", "cache_dir", "smart_open",
           "get_available_testsets", "get_available_testsets_for_langpair",
           "get_langpairs_for_testset", "get_reference_files", "get_source_file", "get_files",
           "filter_subset", "subset_mask", "get_available_origlangs", "get_available_subsets",
           "test_set_lines", "download_test_set"]


class TestSetError(Exception):
    """A test set, language pair, field or cached file that cannot be used; the message names it
    (and, for a missing file, how to fetch it once with sacreBLEU).

    >>> from cybleu import dataset
    >>> dataset.get_source_file("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """


def cache_dir():
    """sacreBLEU's data directory, read at each call.

    :returns: `$SACREBLEU`, default `~/.sacrebleu`.

    >>> import os
    >>> from cybleu import dataset
    >>> dataset.cache_dir() == os.environ.get("SACREBLEU", os.path.expanduser("~/.sacrebleu"))
    True
    """
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def smart_open(file, mode="rt", encoding="utf-8"):
    """Open a text file, gzip-compressed when its name ends in .gz; lines end at '\\n' only
    (sacreBLEU's `utils.smart_open`).

    :param file: The path.
    :param mode: The mode (default `'rt'`).
    :param encoding: The encoding (default UTF-8).
    :returns: The open file object.
    :raises OSError: The file cannot be opened.

    >>> import gzip, os, tempfile
    >>> from cybleu import dataset
    >>> path = os.path.join(tempfile.mkdtemp(), "refs.txt.gz")
    >>> with gzip.open(path, "wt", encoding="utf-8") as f:
    ...     _ = f.write("Hello world!\\n")
    >>> with dataset.smart_open(path) as f:
    ...     f.read()
    'Hello world!\\n'
    """
    if file.endswith(".gz"):
        import gzip
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")
    return open(file, mode=mode, encoding=encoding, newline="\n")


def _fetch_hint(name, langpair):
    pair = f" -l {langpair}" if langpair else ""
    return (f"cybleu reads test sets from sacreBLEU's cache ({cache_dir()}) and never downloads. "
            f"Fetch this one once with sacreBLEU: `sacrebleu -t {name}{pair} --echo src "
            "> /dev/null`, or point $SACREBLEU at a cache that has it.")


def _missing(path, name, langpair):
    return TestSetError(f"{path} is missing. {_fetch_hint(name, langpair)}")


class TestSet:
    """One entry of sacreBLEU's registry (`DATASETS[name]`): where its files live in the cache
    and their fields.

    :param name: The test set's name, e.g. `'wmt17'`.
    :param meta: Its registry entry (format, language pairs, references, ...).

    >>> from cybleu import dataset
    >>> wmt17 = dataset.DATASETS["wmt17"]
    >>> wmt17.name, wmt17.text_path("en-de", "src").endswith("wmt17/wmt17.en-de.src")
    ('wmt17', True)
    """

    def __init__(self, name, meta):
        self.name = name
        self.format = meta["format"]
        self.data = meta.get("data", [])
        self.description = meta.get("description")
        self.citation = meta.get("citation")
        self.md5 = meta.get("md5")
        self.langpairs = meta["langpairs"]
        self.refs = meta.get("refs")

    def __contains__(self, key):  # sacreBLEU's CLI asks `'citation' in DATASETS[name]`
        return getattr(self, key, None) is not None

    @property
    def outdir(self):
        """The test set's directory in the cache."""
        return os.path.join(cache_dir(), self.name)

    @property
    def rawdir(self):
        """The directory of its downloaded archive and unpacked files."""
        return os.path.join(self.outdir, "raw")

    def _meta(self, langpair):
        if langpair not in self.langpairs:
            raise TestSetError(f"No such language pair {self.name}/{langpair}")
        return self.langpairs[langpair]

    def raw_file(self, langpair):
        """The raw file of the pair's source side (SGML or XML) under raw/.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: Its path (it may not exist).
        :raises TestSetError: An unknown language pair.
        """
        meta = self._meta(langpair)
        rel = meta["path"] if isinstance(meta, dict) else meta[0]
        return os.path.join(self.rawdir, rel)

    def text_path(self, langpair, field):
        """The path of one field's text file, `~/.sacrebleu/NAME/NAME.PAIR.FIELD`, with '/' and
        ':' made file-name safe as sacreBLEU does.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :param field: A field: `'src'`, `'ref'`, `'ref:A'`, `'docid'`, ...
        :returns: The path (it may not exist).
        """
        name = self.name.replace("/", "_")
        return os.path.join(self.outdir, f"{name}.{langpair}.{field.replace(':', '-')}")

    def fieldnames(self, langpair):
        """The fields sacreBLEU extracts for the pair, in its order.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: The field names.
        :raises TestSetError: An unknown pair, or a raw file missing from the cache.
        """
        meta = self._meta(langpair)
        if self.format == "WMTXMLDataset":
            return list(_unwrap_xml(self._existing_raw(langpair), fields_only=True))
        if self.format in ("PlainTextDataset", "TSVDataset"):
            return ["src", "ref"]
        if len(meta) < 2:
            raise TestSetError(f"Each language pair in {self.name} must have at least 2 fields.")
        fields = ["src"] + (["ref"] if len(meta) == 2 else
                            [f"ref:{i}" for i in range(len(meta) - 1)])
        if not self.name.startswith("wmt08"):
            fields += ["docid", "genre", "origlang"]
        return fields

    def _existing_raw(self, langpair):
        path = self.raw_file(langpair)
        if not os.path.exists(path):
            raise _missing(path, self.name, langpair)
        return path

    def get_files(self, langpair):
        """Paths of every field's text file, in `fieldnames()` order.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: The paths.
        :raises TestSetError: A file missing from the cache (never downloaded).
        """
        files = [self.text_path(langpair, field) for field in self.fieldnames(langpair)]
        for path in files:
            if not os.path.exists(path):
                raise _missing(path, self.name, langpair)
        return files

    def allowed_refs(self, langpair):
        """The reference fields sacreBLEU scores against (WMT21 and later choose among
        translators).

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: The field names.
        :raises TestSetError: An unknown language pair.
        """
        defaults = self.refs or []
        meta = self._meta(langpair)
        allowed = meta.get("refs", defaults) if isinstance(meta, dict) else defaults
        return ["ref" if not ref else f"ref:{ref}" for ref in allowed]

    def get_reference_files(self, langpair):
        """Paths of the reference files sacreBLEU scores against.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: The paths.
        :raises TestSetError: A file missing from the cache (never downloaded).
        """
        if self.format == "WMTXMLDataset":
            self._meta(langpair)
            allowed = self.allowed_refs(langpair)
            # the text files are enough (no XML parse) when sacreBLEU extracted them already
            files = [self.text_path(langpair, field) for field in allowed]
            if all(os.path.exists(path) for path in files):
                return files
            fields = self.fieldnames(langpair)
            files = [self.text_path(langpair, f) for f in fields if f in allowed]
            for path in files:
                if not os.path.exists(path):
                    raise _missing(path, self.name, langpair)
            return files
        fields = self.fieldnames(langpair)
        files = [self.text_path(langpair, f) for f in fields if f.startswith("ref")]
        for path in files:
            if not os.path.exists(path):
                raise _missing(path, self.name, langpair)
        return files

    def get_source_file(self, langpair):
        """Path of the source file.

        :param langpair: A language pair of the test set, e.g. `'en-de'`.
        :returns: The path.
        :raises TestSetError: The file is missing from the cache (never downloaded).
        """
        path = self.text_path(langpair, "src")
        if not os.path.exists(path):
            raise _missing(path, self.name, langpair)
        return path


def _unwrap_xml(raw_file, fields_only=False):
    """The fields of a WMT21+ XML file, as sacreBLEU's `_unwrap_wmt21_or_later` lists them:
    src, one `ref:<translator>` per translator (`ref` when unnamed), docid, origlang, one field
    per system, then domain when present. With `fields_only`, only the names (values empty).

    Translators come in the order of iterating a Python set, as in sacreBLEU."""
    from xml.etree import ElementTree
    try:
        root = ElementTree.parse(raw_file).getroot()
    except (ElementTree.ParseError, OSError) as err:
        raise TestSetError(f"cannot read {raw_file}: {err}") from None
    src_langs = {doc.get("lang") for doc in root.iter("src")}
    ref_langs = set()
    # sacreBLEU iterates a Python set of translators: the same order here for the same
    # PYTHONHASHSEED (it varies between runs otherwise, for two or more translators)
    translators = set()
    for ref_doc in root.iter("ref"):
        ref_langs.add(ref_doc.get("lang"))
        translators.add(ref_doc.get("translator"))
    if len(src_langs) != 1:
        raise TestSetError(f"Multiple source languages found in the file: {raw_file}")
    if len(ref_langs) != 1:
        raise TestSetError(f"Found {len(ref_langs)} reference languages found in the file: "
                           f"{raw_file}")

    def field(translator):
        return "ref" if not translator else f"ref:{translator}"

    src, docids, origlangs, domains = [], [], [], []
    refs = {field(t): [] for t in translators}
    systems = {}
    seen_domain = False
    for doc in root.iter("doc"):
        if "testsuite" in doc.attrib:
            continue
        src_sents = {int(seg.get("id")): seg.text for seg in doc.findall(".//src//seg")}

        def sents(node):
            return {int(seg.get("id")): seg.text if seg.text else "" for seg in node.iter("seg")}

        trans_to_ref = {r.get("translator"): sents(r) for r in doc.findall(".//ref")}
        hyps = {h.get("system"): sents(h) for h in doc.findall(".//hyp")}
        for name in hyps:
            systems.setdefault(name, [])
        for seg_id in sorted(src_sents):
            if not any(value.get(seg_id, "") for value in trans_to_ref.values()):
                continue
            for t in translators:
                refs[field(t)].append(trans_to_ref.get(t, {}).get(seg_id, ""))
            src.append(src_sents[seg_id])
            for name in hyps:
                systems[name].append(hyps[name][seg_id])
            docids.append(doc.attrib["id"])
            origlangs.append(doc.attrib["origlang"])
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    fields = {"src": src, **refs, "docid": docids, "origlang": origlangs, **systems}
    if seen_domain:
        fields["domain"] = domains
    return fields


class _Registry(dict):
    """Test-set name -> TestSet, built on first use from the generated registry."""

    def _load(self):
        if not dict.__len__(self):
            from ._testsets import DATASETS as META
            for name, meta in META.items():
                dict.__setitem__(self, name, TestSet(name, meta))

    def __getitem__(self, key):
        self._load()
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        self._load()
        return dict.__contains__(self, key)

    def __iter__(self):
        self._load()
        return dict.__iter__(self)

    def __len__(self):
        self._load()
        return dict.__len__(self)

    def keys(self):
        self._load()
        return dict.keys(self)

    def values(self):
        self._load()
        return dict.values(self)

    def items(self):
        self._load()
        return dict.items(self)

    def get(self, key, default=None):
        self._load()
        return dict.get(self, key, default)


DATASETS = _Registry()


class _Subsets(dict):
    def _load(self):
        if not dict.__len__(self):
            from ._testsets import SUBSETS_RAW
            for k, v in SUBSETS_RAW.items():
                dict.__setitem__(self, k, {d.split("=")[0]: d.split("=")[1] for d in v.split()})

    def __getitem__(self, key):
        self._load()
        return dict.__getitem__(self, key)

    def __contains__(self, key):
        self._load()
        return dict.__contains__(self, key)

    def get(self, key, default=None):
        self._load()
        return dict.get(self, key, default)


SUBSETS = _Subsets()


def _dataset(test_set):
    if test_set not in DATASETS:
        raise TestSetError(f"No such test set {test_set}")
    return DATASETS[test_set]


def get_available_testsets():
    """Every test set sacreBLEU 2.6.0 knows, newest name first (its order).

    :returns: The names.

    >>> from cybleu import dataset
    >>> dataset.get_available_testsets()[:3]
    ['wmt24', 'wmt23', 'wmt22']
    """
    return sorted(DATASETS.keys(), reverse=True)


def get_available_testsets_for_langpair(langpair):
    """Test sets that have `langpair` in either direction.

    :param langpair: A language pair, e.g. `'de-en'`.
    :returns: The names.
    :raises TestSetError: Not a language pair.

    >>> from cybleu import dataset
    >>> "wmt17" in dataset.get_available_testsets_for_langpair("de-en")
    True
    """
    parts = langpair.split("-")
    if len(parts) < 2:
        raise TestSetError(f"A language pair looks like en-de, not {langpair!r}")
    src, trg = parts[0], parts[1]
    return [ds.name for ds in DATASETS.values()
            if f"{src}-{trg}" in ds.langpairs or f"{trg}-{src}" in ds.langpairs]


def get_langpairs_for_testset(testset):
    """The language pairs of a test set.

    :param testset: The test set's name.
    :returns: Its pairs (empty for an unknown name, as sacreBLEU).

    >>> from cybleu import dataset
    >>> dataset.get_langpairs_for_testset("wmt17")[:4]
    ['cs-en', 'de-en', 'en-cs', 'en-de']
    """
    if testset not in DATASETS:
        return []
    return list(DATASETS[testset].langpairs.keys())


def get_reference_files(test_set, langpair):
    """Paths of the reference files in sacreBLEU's cache (never downloads).

    :param test_set: The test set's name.
    :param langpair: A language pair of it.
    :returns: The paths.
    :raises TestSetError: An unknown test set or pair, or a file missing from the cache.

    >>> from cybleu import dataset
    >>> dataset.get_reference_files("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """
    return _dataset(test_set).get_reference_files(langpair)


def get_source_file(test_set, langpair):
    """Path of the source file in sacreBLEU's cache (never downloads).

    :param test_set: The test set's name.
    :param langpair: A language pair of it.
    :returns: The path.
    :raises TestSetError: An unknown test set or pair, or the file missing from the cache.

    >>> from cybleu import dataset
    >>> dataset.get_source_file("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """
    return _dataset(test_set).get_source_file(langpair)


def get_files(test_set, langpair):
    """Paths of every field's text file in sacreBLEU's cache.

    :param test_set: The test set's name.
    :param langpair: A language pair of it.
    :returns: The paths, in the order of the test set's fields.
    :raises TestSetError: An unknown test set or pair, or a file missing from the cache.

    >>> from cybleu import dataset
    >>> dataset.get_files("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """
    return _dataset(test_set).get_files(langpair)


def download_test_set(test_set, langpair=None):
    """sacreBLEU's `download_test_set`, without downloading: the cached files.

    :param test_set: The test set's name.
    :param langpair: A language pair of it.
    :returns: The paths of every field's file.
    :raises TestSetError: An unknown test set or pair, or a file missing from the cache (the
        message says how to fetch it once with sacreBLEU).

    >>> from cybleu import dataset
    >>> dataset.download_test_set("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """
    return _dataset(test_set).get_files(langpair)


def _raw_for_filter(dataset, langpair):
    path = dataset.raw_file(langpair)
    if not os.path.exists(path):
        raise _missing(path, dataset.name, langpair)
    return path


def subset_mask(test_sets, langpair, origlang, subset=None):
    """One bool per segment of the (concatenated) test sets: whether its document has original
    language `origlang` ("non-xx" negates) and an annotation matching the regular expression
    `subset`, read from the raw files in the cache.

    :param test_sets: Test set names, comma-separated (concatenated).
    :param langpair: The language pair.
    :param origlang: An original language (`'de'`, or `'non-de'`), or None.
    :param subset: A regular expression on the documents' annotation, or None.
    :returns: The list of bools, or None when nothing is filtered.
    :raises ValueError: Filtering without a test set or language pair.
    :raises TestSetError: A raw file missing from the cache, a test set without annotations.

    >>> from cybleu import dataset
    >>> dataset.subset_mask("wmt17", "en-de", None) is None
    True
    """
    if origlang is None and subset is None:
        return None
    if test_sets is None or langpair is None:
        raise ValueError("Filtering for --origlang or --subset needs a test (-t) and a language "
                         "pair (-l).")
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]
    re_origlang = re.compile(r'.* origlang="([^"]+)".*\n')
    re_id = re.compile(r'.* docid="([^"]+)".*\n')
    keep = []
    for test_set in test_sets.split(","):
        dataset = _dataset(test_set)
        rawfile = _raw_for_filter(dataset, langpair)
        if dataset.format == "WMTXMLDataset":
            fields = _unwrap_xml(rawfile)
            domains = fields["domain"] if "domain" in fields else itertools.repeat(None)
            for doc_origlang, doc_domain in zip(fields["origlang"], domains):
                if origlang is None:
                    include = True
                elif origlang.startswith("non-"):
                    include = doc_origlang != origlang[4:]
                else:
                    include = doc_origlang == origlang
                if subset is not None and (doc_domain is None
                                           or not re.search(subset, doc_domain)):
                    include = False
                keep.append(include)
        elif rawfile.endswith(".sgm"):
            doc_to_tags = {}
            if subset is not None:
                if test_set not in SUBSETS:
                    raise TestSetError("No subset annotation available for test set " + test_set)
                doc_to_tags = SUBSETS[test_set]
            include = False
            with smart_open(rawfile) as fin:
                for line in fin:
                    if line.startswith("<doc "):
                        if origlang is None:
                            include = True
                        else:
                            doc_origlang = re_origlang.sub(r"\1", line)
                            if origlang.startswith("non-"):
                                include = doc_origlang != origlang[4:]
                            else:
                                include = doc_origlang == origlang
                        if subset is not None:
                            doc_id = re_id.sub(r"\1", line)
                            if not re.search(subset, doc_to_tags.get(doc_id, "")):
                                include = False
                    if line.startswith("<seg "):
                        keep.append(include)
        else:
            raise TestSetError("--origlang and --subset support only WMT *.xml and *.sgm files, "
                               f"not {rawfile!r}")
    return keep


def filter_subset(systems, test_sets, langpair, origlang, subset=None):
    """Keep the segments of every system (and reference stream) that `subset_mask` keeps
    (sacreBLEU's `filter_subset`; a stream longer than the mask is cut at its end).

    :param systems: Lists of lines, one per system or reference stream.
    :param test_sets: As :func:`subset_mask`.
    :param langpair: As :func:`subset_mask`.
    :param origlang: As :func:`subset_mask`.
    :param subset: As :func:`subset_mask`.
    :returns: The filtered lists (`systems` itself when nothing is filtered).
    :raises TestSetError: As :func:`subset_mask`.

    >>> from cybleu import dataset
    >>> dataset.filter_subset([["a", "b"]], "wmt17", "en-de", None)
    [['a', 'b']]
    """
    keep = subset_mask(test_sets, langpair, origlang, subset)
    if keep is None:
        return systems
    return [[sentence for sentence, k in zip(system, keep) if k] for system in systems]


def get_available_origlangs(test_sets, langpair):
    """The original languages of the documents, from the raw XML/SGM files in the cache.

    :param test_sets: Test set names, comma-separated, or None.
    :param langpair: The language pair.
    :returns: The sorted language codes (empty for None).
    :raises TestSetError: A raw file missing from the cache.

    >>> from cybleu import dataset
    >>> dataset.get_available_origlangs(None, "en-de")
    []
    """
    if test_sets is None:
        return []
    origlangs = set()
    for test_set in test_sets.split(","):
        dataset = _dataset(test_set)
        rawfile = _raw_for_filter(dataset, langpair)
        if dataset.format == "WMTXMLDataset":
            origlangs.update(_unwrap_xml(rawfile)["origlang"])
        if rawfile.endswith(".sgm"):
            with smart_open(rawfile) as fin:
                for line in fin:
                    if line.startswith("<doc "):
                        origlangs.add(re.sub(r'.* origlang="([^"]+)".*\n', "\\1", line))
    return sorted(origlangs)


def get_available_subsets(test_sets, langpair):
    """Domain values from the raw XML files, and domain/country values of the annotated SGM
    test sets.

    :param test_sets: Test set names, comma-separated, or None.
    :param langpair: The language pair.
    :returns: The sorted values (empty for None).
    :raises TestSetError: A raw file missing from the cache.

    >>> from cybleu import dataset
    >>> dataset.get_available_subsets(None, "en-de")
    []
    """
    if test_sets is None:
        return []
    subsets = set()
    for test_set in test_sets.split(","):
        dataset = _dataset(test_set)
        if dataset.format == "WMTXMLDataset":
            fields = _unwrap_xml(_raw_for_filter(dataset, langpair))
            if "domain" in fields:
                subsets |= set(fields["domain"])
        elif test_set in SUBSETS:
            subsets |= {"country:" + v.split("-")[0] for v in SUBSETS[test_set].values()}
            subsets |= {v.split("-")[1] for v in SUBSETS[test_set].values()}
    return sorted(subsets)


def test_set_lines(test_set, langpair, requested_fields, origlang=None, subset=None):
    """The rows `--echo` prints: the requested fields of every segment, tab-joined
    (sacreBLEU's `print_test_set`).

    :param test_set: The test set's name.
    :param langpair: The language pair.
    :param requested_fields: Field names (`'src'`, `'ref'`, `'docid'`, ...), or `['all']`.
    :param origlang: As :func:`subset_mask`.
    :param subset: As :func:`subset_mask`.
    :returns: A generator of lines.
    :raises TestSetError: An unknown test set, pair or field, or a file missing from the cache.

    >>> from cybleu import dataset
    >>> next(dataset.test_set_lines("wmt99", "en-de", ["src"]))
    Traceback (most recent call last):
        ...
    cybleu.dataset.TestSetError: No such test set wmt99
    """
    dataset = _dataset(test_set)
    fieldnames = dataset.fieldnames(langpair)
    if "all" in requested_fields and len(requested_fields) != 1:
        raise TestSetError("Cannot use --echo all with other fields")
    elif "all" in requested_fields:
        requested_fields = fieldnames
    if "ref" in requested_fields and "ref" not in fieldnames:
        replacement = min(f for f in fieldnames if f.startswith("ref"))
        requested_fields = [f if f != "ref" else replacement for f in requested_fields]
    all_files = dataset.get_files(langpair)
    files = []
    for field in requested_fields:
        if field not in fieldnames:
            lines = [f"No such field {field} in test set {test_set} for language pair "
                     f"{langpair}.",
                     f"available fields for {test_set}/{langpair}: {', '.join(fieldnames)}"]
            if "ref" not in fieldnames:
                subref = min(f for f in fieldnames if f.startswith("ref"))
                lines.append(f"'ref' also allowed for backwards compatibility (will return "
                             f"{subref})")
            raise TestSetError("\n".join(lines))
        files.append(all_files[fieldnames.index(field)])
    opened = [smart_open(file) for file in files]
    try:
        streams = filter_subset(opened, test_set, langpair, origlang, subset)
        for lines in zip(*streams):
            yield "\t".join(x.rstrip() for x in lines)
    finally:
        for stream in opened:
            stream.close()
