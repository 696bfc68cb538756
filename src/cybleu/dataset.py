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
    """A test set, language pair, field or cached file that cannot be used."""


def cache_dir():
    """sacreBLEU's data directory: $SACREBLEU, default ~/.sacrebleu (read at each call)."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def smart_open(file, mode="rt", encoding="utf-8"):
    """Open a text file, gzip-compressed when its name ends in .gz; lines end at '\\n' only
    (sacreBLEU's `utils.smart_open`)."""
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
    """One entry of sacreBLEU's registry: where its files live in the cache and their fields."""

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
        return os.path.join(cache_dir(), self.name)

    @property
    def rawdir(self):
        return os.path.join(self.outdir, "raw")

    def _meta(self, langpair):
        if langpair not in self.langpairs:
            raise TestSetError(f"No such language pair {self.name}/{langpair}")
        return self.langpairs[langpair]

    def raw_file(self, langpair):
        """The raw file of the pair's source side (SGML or XML) under raw/."""
        meta = self._meta(langpair)
        rel = meta["path"] if isinstance(meta, dict) else meta[0]
        return os.path.join(self.rawdir, rel)

    def text_path(self, langpair, field):
        """~/.sacrebleu/NAME/NAME.PAIR.FIELD, with '/' and ':' made file-name safe as sacreBLEU."""
        name = self.name.replace("/", "_")
        return os.path.join(self.outdir, f"{name}.{langpair}.{field.replace(':', '-')}")

    def fieldnames(self, langpair):
        """The fields sacreBLEU extracts for the pair, in its order."""
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
        """Paths of every field's text file, in fieldnames() order; each must exist."""
        files = [self.text_path(langpair, field) for field in self.fieldnames(langpair)]
        for path in files:
            if not os.path.exists(path):
                raise _missing(path, self.name, langpair)
        return files

    def allowed_refs(self, langpair):
        """The reference fields sacreBLEU scores against (WMT21+ choose among translators)."""
        defaults = self.refs or []
        meta = self._meta(langpair)
        allowed = meta.get("refs", defaults) if isinstance(meta, dict) else defaults
        return ["ref" if not ref else f"ref:{ref}" for ref in allowed]

    def get_reference_files(self, langpair):
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
    """Every test set sacreBLEU 2.6.0 knows, newest name first (its order)."""
    return sorted(DATASETS.keys(), reverse=True)


def get_available_testsets_for_langpair(langpair):
    """Test sets that have `langpair` in either direction."""
    parts = langpair.split("-")
    if len(parts) < 2:
        raise TestSetError(f"A language pair looks like en-de, not {langpair!r}")
    src, trg = parts[0], parts[1]
    return [ds.name for ds in DATASETS.values()
            if f"{src}-{trg}" in ds.langpairs or f"{trg}-{src}" in ds.langpairs]


def get_langpairs_for_testset(testset):
    if testset not in DATASETS:
        return []
    return list(DATASETS[testset].langpairs.keys())


def get_reference_files(test_set, langpair):
    """Paths of the reference files in sacreBLEU's cache (never downloads)."""
    return _dataset(test_set).get_reference_files(langpair)


def get_source_file(test_set, langpair):
    return _dataset(test_set).get_source_file(langpair)


def get_files(test_set, langpair):
    return _dataset(test_set).get_files(langpair)


def download_test_set(test_set, langpair=None):
    """cybleu does not download: returns the cached files, or raises TestSetError naming the
    first one missing."""
    return _dataset(test_set).get_files(langpair)


def _raw_for_filter(dataset, langpair):
    path = dataset.raw_file(langpair)
    if not os.path.exists(path):
        raise _missing(path, dataset.name, langpair)
    return path


def subset_mask(test_sets, langpair, origlang, subset=None):
    """One bool per segment of the (concatenated) test sets: whether its document has original
    language `origlang` ("non-xx" negates) and an annotation matching the regular expression
    `subset`, read from the raw files in the cache. None when nothing is filtered."""
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
    (sacreBLEU's `filter_subset`; a stream longer than the mask is cut at its end)."""
    keep = subset_mask(test_sets, langpair, origlang, subset)
    if keep is None:
        return systems
    return [[sentence for sentence, k in zip(system, keep) if k] for system in systems]


def get_available_origlangs(test_sets, langpair):
    """The original languages of the documents, from the raw XML/SGM files."""
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
    test sets."""
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
    (sacreBLEU's `print_test_set`)."""
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
