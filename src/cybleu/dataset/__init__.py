"""Test sets (`-t/--test-set`), read from sacreBLEU's local cache; cybleu never downloads.

sacreBLEU keeps every test set it has fetched under `$SACREBLEU` (default `~/.sacrebleu`):
`<name>/raw/` holds the downloaded archive and its unpacked files, and `<name>/<name>.<pair>.<field>`
the plain-text fields it extracted (`src`, `ref`, `ref-A`, `docid`, `origlang`, ...). cybleu reads
those same files with sacreBLEU 2.6.0's registry (`_testsets.py`, generated from it), so
`cybleu -t wmt17 -l en-de` scores against exactly the lines sacreBLEU would use. A text field that
is missing is extracted from the raw files as sacreBLEU extracts it; when those are missing too,
the error names the file and says how to fetch it once with sacreBLEU.

The same names as `sacrebleu.dataset` (`DATASETS`, the format classes `FakeSGMLDataset`,
`WMTAdditionDataset`, `IWSLTXMLDataset`, `PlainTextDataset`, `TSVDataset`, `WMTXMLDataset` and
their submodules, `_SUBSETS`) and the test-set functions of `sacrebleu.utils`
(`get_source_file`, `get_reference_files`, `get_files`, `download_test_set`,
`get_langpairs_for_testset`, `get_available_testsets`, ..., `SACREBLEU_DIR`, `smart_open`).
Test-set and language-pair names are checked as the command line checks them.

    >>> from cybleu.dataset import DATASETS, get_langpairs_for_testset
    >>> "en-de" in get_langpairs_for_testset("wmt17")
    True
"""
import itertools
import os
import re

from .base import Dataset, TestSetError, _missing, cache_dir, smart_open
from .fake_sgml import FakeSGMLDataset, WMTAdditionDataset
from .iwslt_xml import IWSLTXMLDataset
from .plain_text import PlainTextDataset
from .tsv import TSVDataset
from .wmt_xml import WMTXMLDataset, _unwrap_xml

__all__ = ["TestSetError", "Dataset", "TestSet", "DATASETS", "SUBSETS", "SACREBLEU_DIR",
           "cache_dir", "smart_open", "FakeSGMLDataset", "WMTAdditionDataset",
           "IWSLTXMLDataset", "PlainTextDataset", "TSVDataset", "WMTXMLDataset",
           "get_available_testsets", "get_available_testsets_for_langpair",
           "get_langpairs_for_testset", "get_reference_files", "get_source_file", "get_files",
           "filter_subset", "subset_mask", "get_available_origlangs", "get_available_subsets",
           "test_set_lines", "download_test_set"]

#: cybleu's earlier name for `Dataset`
TestSet = Dataset

_FORMATS = {cls.__name__: cls for cls in (FakeSGMLDataset, WMTAdditionDataset, IWSLTXMLDataset,
                                          PlainTextDataset, TSVDataset, WMTXMLDataset)}


def __getattr__(name):
    # sacreBLEU's SACREBLEU_DIR is fixed when sacrebleu.utils is imported; cybleu reads
    # $SACREBLEU when asked (as its functions do), so setting it later takes effect
    if name == "SACREBLEU_DIR":
        return cache_dir()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _LazyDict(dict):
    """A dict filled by `_fill()` on first use, so importing cybleu reads no registry. Every
    reading method loads first; writing is not part of the interface."""

    def _fill(self):
        raise NotImplementedError

    def _load(self):
        if not dict.__len__(self):
            self._fill()

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


class _Registry(_LazyDict):
    """Test-set name -> TestSet, built on first use from the generated registry."""

    def _fill(self):
        from ._testsets import DATASETS as META
        for name, meta in META.items():
            kwargs = dict(meta)
            cls = _FORMATS[kwargs.pop("format")]
            dict.__setitem__(self, name, cls(name, **kwargs))


DATASETS = _Registry()


class _Subsets(_LazyDict):
    """Test set -> {document id: subset}, parsed on first use."""

    def _fill(self):
        from ._testsets import SUBSETS_RAW
        for k, v in SUBSETS_RAW.items():
            dict.__setitem__(self, k, {d.split("=")[0]: d.split("=")[1] for d in v.split()})


SUBSETS = _Subsets()


class _RawSubsets(_LazyDict):
    """sacreBLEU's `_SUBSETS`: test set -> its annotation string, loaded on first use."""

    def _fill(self):
        from ._testsets import SUBSETS_RAW
        dict.update(self, SUBSETS_RAW)


_SUBSETS = _RawSubsets()


def _dataset(test_set):
    """The registry entry, or TestSetError (as the command line's "Unknown test set")."""
    if not isinstance(test_set, str) or test_set not in DATASETS:
        raise TestSetError(f"No such test set {test_set!r}; get_available_testsets() lists "
                           "them")
    return DATASETS[test_set]


def get_available_testsets():
    """Every test set sacreBLEU 2.6.0 knows (sacreBLEU's `get_available_testsets`), whether or
    not it is in the local cache.

    :returns: The names, sorted in reverse, as sacreBLEU sorts them (the newest WMT first).

    >>> from cybleu.dataset import get_available_testsets
    >>> get_available_testsets()[:2]
    ['wmt24', 'wmt23']
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
    """The language pairs of a test set (sacreBLEU 2.6.0's `get_langpairs_for_testset`).

    :param testset: A test set's name.
    :returns: Its language pairs, in the registry's order; an empty list for an unknown name,
        as in sacreBLEU.

    >>> from cybleu.dataset import get_langpairs_for_testset
    >>> get_langpairs_for_testset("wmt17")[:4]
    ['cs-en', 'de-en', 'en-cs', 'en-de']
    >>> get_langpairs_for_testset("wmt99")
    []
    """
    if not isinstance(testset, str) or testset not in DATASETS:
        return []
    return list(DATASETS[testset].langpairs.keys())


def get_reference_files(test_set, langpair):
    """The reference files of a test set's language pair in sacreBLEU's local cache
    (sacreBLEU 2.6.0's `get_reference_files`, without the download): a file that is missing is
    extracted from the test set's raw files in the cache, as sacreBLEU extracts it.

    :param test_set: The test set's name (e.g. `'wmt17'`).
    :param langpair: One of its language pairs (e.g. `'en-de'`).
    :returns: The paths, one per reference.
    :raises TestSetError: An unknown test set or language pair, or a file missing from the
        cache together with the raw file it is extracted from (the message says how to fetch
        it once with sacreBLEU).

    Names are checked before any file is looked for:

    >>> from cybleu.dataset import get_reference_files
    >>> get_reference_files("wmt17", "en-xx")
    Traceback (most recent call last):
        ...
    cybleu.dataset.base.TestSetError: No such language pair wmt17/en-xx; wmt17 has: cs-en, ...
    """
    return _dataset(test_set).get_reference_files(langpair)


def get_source_file(test_set, langpair):
    """The source file of a test set's language pair in sacreBLEU's local cache (sacreBLEU
    2.6.0's `get_source_file`, without the download; extracted from the raw files in the
    cache when missing, as `get_reference_files`).

    :param test_set: The test set's name (e.g. `'wmt17'`).
    :param langpair: One of its language pairs (e.g. `'en-de'`).
    :returns: The path.
    :raises TestSetError: As `get_reference_files`.

    >>> from cybleu.dataset import get_source_file
    >>> get_source_file("wmt99", "en-de")
    Traceback (most recent call last):
        ...
    cybleu.dataset.base.TestSetError: No such test set 'wmt99'; get_available_testsets() lists them
    """
    return _dataset(test_set).get_source_file(langpair)


def get_files(test_set, langpair):
    """The text files of every field of a test set's language pair in sacreBLEU's local
    cache: the source, the references, then metadata such as document ids (sacreBLEU 2.6.0's
    `get_files`, without the download; extracted from the raw files in the cache when
    missing).

    :param test_set: The test set's name (e.g. `'wmt17'`).
    :param langpair: One of its language pairs (e.g. `'en-de'`).
    :returns: The paths, in the order of the test set's `fieldnames`.
    :raises TestSetError: As `get_reference_files`.

    A cache holding the text files sacreBLEU extracted for wmt17's en-de (empty ones here):

    >>> import os, tempfile
    >>> from unittest import mock
    >>> from cybleu.dataset import get_files
    >>> with tempfile.TemporaryDirectory() as cache, mock.patch.dict(os.environ, SACREBLEU=cache):
    ...     os.makedirs(os.path.join(cache, "wmt17"))
    ...     for field in ["src", "ref", "docid", "genre", "origlang"]:
    ...         open(os.path.join(cache, "wmt17", f"wmt17.en-de.{field}"), "w").close()
    ...     for path in get_files("wmt17", "en-de"):
    ...         print(os.path.basename(path))
    wmt17.en-de.src
    wmt17.en-de.ref
    wmt17.en-de.docid
    wmt17.en-de.genre
    wmt17.en-de.origlang
    """
    return _dataset(test_set).get_files(langpair)


def download_test_set(test_set, langpair=None):
    """sacreBLEU 2.6.0's `download_test_set`, without the download: cybleu never downloads,
    so this gives the test set's text files that are in the local cache (extracting them from
    the raw files in the cache when needed), or says which file is missing.

    :param test_set: The test set's name (e.g. `'wmt17'`).
    :param langpair: One of its language pairs, or None for all of them.
    :returns: The paths of the text files of the pair (of every pair, one after the other,
        for None), as `get_files` gives them.
    :raises TestSetError: As `get_reference_files`; a missing file is named in the message,
        with how to fetch it once with sacreBLEU.

    >>> from cybleu.dataset import download_test_set
    >>> download_test_set("wmt99")
    Traceback (most recent call last):
        ...
    cybleu.dataset.base.TestSetError: No such test set 'wmt99'; get_available_testsets() lists them
    """
    dataset = _dataset(test_set)
    if langpair is None:
        return [path for pair in dataset.langpairs for path in dataset.get_files(pair)]
    return dataset.get_files(langpair)


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
        if isinstance(dataset, WMTXMLDataset):
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
        if isinstance(dataset, WMTXMLDataset):
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
        if isinstance(dataset, WMTXMLDataset):
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
    cybleu.dataset.base.TestSetError: No such test set 'wmt99'; get_available_testsets() lists them
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
