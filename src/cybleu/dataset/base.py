"""sacreBLEU's `Dataset`: one test set of the registry, read from sacreBLEU's local cache.

The same attributes and methods as `sacrebleu.dataset.base.Dataset` (`fieldnames`, `get_files`,
`get_source_file`, `get_reference_files`, `source`, `references`, `process_to_text`,
`maybe_download`, ...), over the same files: `<cache>/<name>/raw/` holds what sacreBLEU downloaded
(and unpacked), `<cache>/<name>/<name>.<pair>.<field>` the plain-text fields extracted from it.
What differs: cybleu never downloads. `maybe_download()` checks that the downloaded archives are
there and raises `TestSetError` naming a missing one; a missing text field is extracted from the
raw files as sacreBLEU extracts it (`process_to_text`, written atomically), or, without them, is
an error naming the missing file and how to fetch it once with sacreBLEU. Language pairs and
field names are checked, and no path leaves the cache directory.
"""
import os
import re
from abc import ABCMeta, abstractmethod

__all__ = ["Dataset", "TestSetError", "cache_dir", "smart_open"]


class TestSetError(Exception):
    """A test set, language pair, field or cached file that cannot be used: an unknown name, or
    a file missing from sacreBLEU's cache (the message then says how to fetch it once with
    sacreBLEU). Where sacreBLEU 2.6.0 raises a bare `Exception` for an unknown test set, cybleu
    raises this subclass of it.

    >>> from cybleu.dataset import TestSetError, get_source_file
    >>> try:
    ...     get_source_file("wmt99", "en-de")
    ... except TestSetError as err:
    ...     print(err)
    No such test set 'wmt99'; get_available_testsets() lists them
    """

    __test__ = False   # not a pytest test class, despite its name


def cache_dir():
    """sacreBLEU's data directory, where cybleu looks for test sets: `$SACREBLEU`, else
    `~/.sacrebleu` (sacreBLEU 2.6.0's `SACREBLEU_DIR`). The variable is read at each call, so
    setting it after import takes effect.

    :returns: The directory's path (it need not exist).

    >>> import os
    >>> from unittest import mock
    >>> from cybleu.dataset import cache_dir
    >>> with mock.patch.dict(os.environ, {"SACREBLEU": "/data/sacrebleu"}):
    ...     cache_dir()
    '/data/sacrebleu'
    """
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def smart_open(file, mode="rt", encoding="utf-8"):
    """Open a text file, gzip-compressed when its name ends in `.gz`; lines end at ``'\\n'``
    only, a ``'\\r'`` stays in the line (sacreBLEU 2.6.0's `utils.smart_open`).

    :param file: The path.
    :param mode: The mode: `'rt'` (the default) to read, `'wt'` to write, ...
    :param encoding: The text encoding (default utf-8).
    :returns: The open file object.

    >>> import os, tempfile
    >>> from cybleu.dataset import smart_open
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "lines.txt.gz")
    ...     with smart_open(path, "wt") as out:
    ...         _ = out.write("first\\r\\nsecond\\n")
    ...     with smart_open(path) as fin:
    ...         print(fin.readlines())
    ['first\\r\\n', 'second\\n']
    """
    if file.endswith(".gz"):
        import gzip
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")
    return open(file, mode=mode, encoding=encoding, newline="\n")


def _fetch_hint(name, langpair):
    fetch = f"`sacrebleu -t {name} -l {langpair} --echo src > /dev/null`" if langpair else \
        f"`python -c \"import sacrebleu; sacrebleu.DATASETS['{name}'].maybe_download()\"`"
    return (f"cybleu reads test sets from sacreBLEU's cache ({cache_dir()}) and never downloads. "
            f"Fetch this one once with sacreBLEU: {fetch}, or point $SACREBLEU at a cache that "
            "has it.")


def _missing(path, name, langpair, raw=None):
    also = f", and so is the raw file it is extracted from ({raw})" if raw else ""
    return TestSetError(f"{path} is missing{also}. {_fetch_hint(name, langpair)}")


def _require(path, dataset, langpair):
    """A TestSetError naming a raw file that is not in the cache."""
    if not os.path.exists(path):
        raise _missing(path, dataset.name, langpair)


def _inside(root, *parts):
    """os.path.join(root, *parts), refused when it would leave root ('..', an absolute part)."""
    path = os.path.join(root, *parts)
    norm_root = os.path.normpath(root)
    norm = os.path.normpath(path)
    if os.path.commonpath([norm_root, norm]) != norm_root or norm == norm_root:
        raise TestSetError(f"refusing a path outside the test set's cache directory {root}: "
                           f"{path}")
    return path


def _write_text(path, lines):
    """Write one line per item (print's newline) to path through a temporary file renamed into
    place: an interrupted extraction never leaves a short file to be scored later."""
    import tempfile
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cybleu-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            for line in lines:
                print(line, file=out)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class Dataset(metaclass=ABCMeta):
    """One test set of sacreBLEU's registry (`DATASETS[name]`), as sacreBLEU 2.6.0's
    `Dataset`: the abstract base of the format classes (`FakeSGMLDataset`, `WMTXMLDataset`, ...),
    which say how the plain-text fields are extracted from the downloaded files.

    :param name: The test set's name (e.g. `'wmt17'`).
    :param data: The URLs sacreBLEU downloads it from.
    :param description: What the test set is.
    :param citation: Its BibTeX entry, if any.
    :param md5: The MD5 sums of the downloads.
    :param langpairs: Language pair -> the raw files of the pair, relative to `rawdir`.
    :param kwargs: Other registry fields (e.g. `refs`, the default translators of WMT21+).

    >>> import os
    >>> from cybleu.dataset import DATASETS
    >>> wmt17 = DATASETS["wmt17"]
    >>> wmt17
    <FakeSGMLDataset 'wmt17': 14 language pairs>
    >>> wmt17.fieldnames("en-de")
    ['src', 'ref', 'docid', 'genre', 'origlang']
    >>> os.path.basename(wmt17.text_path("en-de", "src"))
    'wmt17.en-de.src'
    """

    def __init__(self, name, data=None, description=None, citation=None, md5=None,
                 langpairs=None, **kwargs):
        self.name = name
        self.data = data
        self.description = description
        self.citation = citation
        self.md5 = md5
        self.langpairs = langpairs if langpairs is not None else {}
        self.kwargs = kwargs

    def __contains__(self, key):  # sacreBLEU's CLI asks `'citation' in DATASETS[name]`
        return getattr(self, key, None) is not None

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}: {len(self.langpairs)} language pairs>"

    # -- where the files are (read at each call: $SACREBLEU may change) ---------------------------

    @property
    def _outdir(self):
        return _inside(cache_dir(), self.name)

    @property
    def _rawdir(self):
        return os.path.join(self._outdir, "raw")

    @property
    def format(self):
        """The registry's name of the format: the class name (e.g. 'WMTXMLDataset')."""
        return type(self).__name__

    @property
    def outdir(self):
        """<cache>/NAME: the test set's text fields."""
        return self._outdir

    @property
    def rawdir(self):
        """<cache>/NAME/raw: what sacreBLEU downloaded and unpacked."""
        return self._rawdir

    def raw_file(self, langpair):
        """The raw file of the pair's source side, which `--origlang` and `--subset` read the
        documents' attributes from.

        :param langpair: One of the test set's language pairs.
        :returns: Its path under `rawdir` (whether or not it exists).
        :raises TestSetError: An unknown language pair.
        """
        return self._raw_inputs(langpair)[0]

    def text_path(self, langpair, field):
        """Where the text file of one field is, `<cache>/NAME/NAME.PAIR.FIELD` (sacreBLEU's
        `_get_txt_file_path`: `'/'` in the name and `':'` in the field become `'_'` and `'-'`).
        Nothing is read or extracted.

        :param langpair: One of the test set's language pairs.
        :param field: A field name (`'src'`, `'ref'`, `'ref:A'`, `'docid'`, ...).
        :returns: The path (whether or not it exists).
        :raises TestSetError: An unknown language pair.

        >>> import os
        >>> from cybleu.dataset import DATASETS
        >>> os.path.basename(DATASETS["wmt21"].text_path("en-de", "ref:A"))
        'wmt21.en-de.ref-A'
        """
        return self._get_txt_file_path(langpair, field)

    @property
    def refs(self):
        """The default translators (WMT21+ registries), or None."""
        return self.kwargs.get("refs")

    @staticmethod
    def _clean(s):
        """Strip, and collapse runs of whitespace to one space."""
        return re.sub(r"\s+", " ", s.strip())

    def _get_tarball_filename(self, url):
        """The local file name of a download: the test set's name and the URL's base name."""
        return self.name.replace("/", "_") + "." + os.path.basename(url)

    def _get_txt_file_path(self, langpair, fieldname):
        """<cache>/NAME/NAME.PAIR.FIELD, with '/' and ':' made file-name safe as sacreBLEU does;
        the pair must be one of the test set's and the path stays in the cache."""
        self._check_langpair(langpair)
        name = self.name.replace("/", "_")
        fieldname = fieldname.replace(":", "-")
        return _inside(self._outdir, f"{name}.{langpair}.{fieldname}")

    def _raw_path(self, relative):
        return _inside(self._rawdir, relative)

    def _check_langpair(self, langpair):
        """A TestSetError unless langpair is one of the test set's (as the command line checks
        `-l`): a name from outside never becomes part of a path."""
        if isinstance(langpair, str) and langpair in self.langpairs:
            return
        what = "a language pair is needed" if langpair is None else \
            f"No such language pair {self.name}/{langpair}"
        raise TestSetError(f"{what}; {self.name} has: {', '.join(self.langpairs)}")

    def _get_langpair_metadata(self, langpair):
        """{pair: registry entry} of one pair, or of all pairs when langpair is None."""
        if langpair is None:
            return self.langpairs
        self._check_langpair(langpair)
        return {langpair: self.langpairs[langpair]}

    # -- downloading (never) and extraction -------------------------------------------------------

    def maybe_download(self):
        """sacreBLEU downloads the test set's archives here when they are not in raw/; cybleu
        checks that they are and raises TestSetError naming the first one missing (with how to
        fetch it once with sacreBLEU)."""
        for url in self.data or []:
            path = _inside(self._rawdir, self._get_tarball_filename(url))
            if not os.path.exists(path) or os.path.getsize(path) == 0:
                raise _missing(path, self.name, None)

    def _raw_inputs(self, langpair):
        """The raw files process_to_text reads for the pair."""
        meta = self._get_langpair_metadata(langpair)[langpair]
        return [self._raw_path(path) for path in meta]

    def _extract(self, langpair, wanted):
        """Make the pair's text files from the raw files (sacreBLEU's process_to_text), or raise
        naming `wanted` (a missing text file) and the first missing raw file."""
        for raw in self._raw_inputs(langpair):
            if not os.path.exists(raw):
                raise _missing(wanted, self.name, langpair, raw)
        self.process_to_text(langpair)
        if not os.path.exists(wanted):
            raise _missing(wanted, self.name, langpair)

    @abstractmethod
    def process_to_text(self, langpair=None):
        """Write the plain-text fields of a pair from the raw files in the cache, as sacreBLEU
        writes them (each file is written whole under a temporary name, then renamed).

        :param langpair: One of the test set's language pairs, or None for all of them.
        :raises TestSetError: An unknown language pair, or a raw file missing from the cache.
        """

    # -- fields and files -------------------------------------------------------------------------

    def fieldnames(self, langpair):
        """The fields of the pair, in sacreBLEU's order: `'src'`, the references, then the
        documents' metadata.

        :param langpair: One of the test set's language pairs.
        :returns: The field names (`['src', 'ref']` unless the format has more).
        :raises TestSetError: An unknown language pair.
        """
        self._check_langpair(langpair)
        return ["src", "ref"]

    def get_files(self, langpair):
        """The text files of every field of the pair, extracted from the raw files in the cache
        when missing (sacreBLEU's `get_files`, without the download).

        :param langpair: One of the test set's language pairs.
        :returns: Their paths, in `fieldnames` order.
        :raises TestSetError: An unknown language pair, or a file missing from the cache
            together with the raw file it is extracted from.
        """
        files = [self._get_txt_file_path(langpair, field) for field in self.fieldnames(langpair)]
        for path in files:
            if not os.path.exists(path):
                self._extract(langpair, path)
        return files

    def get_source_file(self, langpair):
        """The text file of the pair's source side, extracted from the raw files in the cache
        when missing.

        :param langpair: One of the test set's language pairs.
        :returns: Its path.
        :raises TestSetError: As `get_files`.
        """
        return self._field_files(langpair, lambda field: field == "src")[0]

    def get_reference_files(self, langpair):
        """The text files of the pair's references (every field whose name starts with
        `'ref'`), extracted from the raw files in the cache when missing.

        :param langpair: One of the test set's language pairs.
        :returns: Their paths, in `fieldnames` order.
        :raises TestSetError: As `get_files`.
        """
        return self._field_files(langpair, lambda field: field.startswith("ref"))

    def _field_files(self, langpair, keep):
        """The text files of the fields `keep` selects, extracted when missing: no other field
        has to be there (sacreBLEU's cache may hold only some)."""
        files = [self._get_txt_file_path(langpair, field)
                 for field in self.fieldnames(langpair) if keep(field)]
        for path in files:
            if not os.path.exists(path):
                self._extract(langpair, path)
        return files

    def source(self, langpair):
        """The source lines of the pair, stripped of surrounding whitespace.

        :param langpair: One of the test set's language pairs.
        :returns: An iterator of strings, one per segment.
        :raises TestSetError: As `get_files`.
        """
        with smart_open(self.get_source_file(langpair)) as fin:
            for line in fin:
                yield line.strip()

    def references(self, langpair):
        """The reference lines of the pair, one tuple per segment with one line per reference;
        the lines keep their newline, as sacreBLEU's do.

        :param langpair: One of the test set's language pairs.
        :returns: An iterator of tuples of strings.
        :raises TestSetError: As `get_files`.
        """
        fins = [smart_open(f) for f in self.get_reference_files(langpair)]
        try:
            yield from zip(*fins)
        finally:
            for fin in fins:
                fin.close()

    def __iter__(self, langpair):  # noqa: PLE0302 - sacreBLEU's signature
        """Tuples of every field's line, one tuple per segment (sacreBLEU's signature: call
        `dataset.__iter__(langpair)`)."""
        fins = [smart_open(f) for f in self.get_files(langpair)]
        try:
            yield from zip(*fins)
        finally:
            for fin in fins:
                fin.close()
