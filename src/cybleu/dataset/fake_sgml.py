"""sacreBLEU's `FakeSGMLDataset` (WMT before 2021: source and references in SGML-like files that
an XML parser cannot read) and `WMTAdditionDataset` (plain-text references beside them)."""
import re

from .base import Dataset, TestSetError, _require, _write_text, smart_open

__all__ = ["FakeSGMLDataset", "WMTAdditionDataset"]


class FakeSGMLDataset(Dataset):
    """The fake SGML format of WMT up to 2020 (sacreBLEU 2.6.0's `FakeSGMLDataset`): one file
    per side, a `<doc>` line per document and a `<seg>` line per segment. The fields are `src`,
    `ref` (or `ref:0`, `ref:1`, ... for several references) and, except for wmt08, the
    documents' `docid`, `genre` and `origlang`.

    >>> from cybleu.dataset import DATASETS
    >>> type(DATASETS["wmt17"]).__name__
    'FakeSGMLDataset'
    >>> DATASETS["wmt17"].fieldnames("en-de")
    ['src', 'ref', 'docid', 'genre', 'origlang']
    >>> DATASETS["wmt08"].fieldnames("en-de")
    ['src', 'ref']
    """

    def _convert_format(self, input_file_path, output_filep_path):
        """The text of every <seg> line, cleaned, one per line."""
        with smart_open(input_file_path) as fin:
            lines = [self._clean(re.sub(r"<seg.*?>(.*)</seg>.*?", "\\1", line))
                     for line in fin if line.startswith("<seg ")]
        _write_text(output_filep_path, lines)

    def _convert_meta(self, input_file_path, field, output_filep_path):
        """A document attribute (docid, genre, origlang), repeated for each of its segments."""
        lines = []
        value = ""
        with smart_open(input_file_path) as fin:
            for line in fin:
                if line.startswith("<doc "):
                    match = re.search(rf'{field}="(.*?)"', line)
                    if match is not None:
                        value = match.group(1)
                elif line.startswith("<seg "):
                    lines.append(value)
        _write_text(output_filep_path, lines)

    def process_to_text(self, langpair=None):
        """Extract the text fields of a pair from its raw SGML files, as sacreBLEU does: the
        cleaned text of every `<seg>` line, and the `<doc>` attributes repeated for each of
        the document's segments. Nothing is downloaded.

        :param langpair: One of the test set's language pairs, or None for all of them.
        :raises TestSetError: An unknown language pair, or a raw file missing from the cache.
        """
        langpairs = self._get_langpair_metadata(langpair)
        for pair in langpairs:
            fieldnames = self.fieldnames(pair)
            origin_files = [self._raw_path(path) for path in langpairs[pair]]
            # the source file three more times: docid, genre, origlang come from its <doc> tags
            origin_files += [self._raw_path(langpairs[pair][0]) for _ in range(3)]
            for field, origin_file in zip(fieldnames, origin_files):
                _require(origin_file, self, pair)
                output_file = self._get_txt_file_path(pair, field)
                if field.startswith("src") or field.startswith("ref"):
                    self._convert_format(origin_file, output_file)
                else:
                    self._convert_meta(origin_file, field, output_file)

    def fieldnames(self, langpair):
        """The fields of the pair: `src`, then `ref` (one reference) or `ref:0`, `ref:1`, ...;
        then `docid`, `genre` and `origlang` (not for wmt08).

        :param langpair: One of the test set's language pairs.
        :returns: The field names.
        :raises TestSetError: An unknown language pair, or a registry entry with fewer than
            two files.
        """
        meta = self._get_langpair_metadata(langpair)
        length = len(meta[langpair])
        if length < 2:
            raise TestSetError(f"Each language pair in {self.name} must have at least 2 fields.")
        fields = ["src"]
        if length == 2:
            fields.append("ref")
        else:
            fields += [f"ref:{i}" for i in range(length - 1)]
        if not self.name.startswith("wmt08"):
            fields += ["docid", "genre", "origlang"]
        return fields


class WMTAdditionDataset(FakeSGMLDataset):
    """WMT's additional references (sacreBLEU 2.6.0's `WMTAdditionDataset`, e.g. Google's
    paraphrased references of WMT19): the source in fake SGML, references in plain text, one
    line per segment. The fields are those of `FakeSGMLDataset`.

    >>> from cybleu.dataset import DATASETS
    >>> type(DATASETS["wmt19/google/ar"]).__name__
    'WMTAdditionDataset'
    >>> DATASETS["wmt19/google/ar"].fieldnames("en-de")
    ['src', 'ref', 'docid', 'genre', 'origlang']
    """

    def _convert_format(self, input_file_path, output_filep_path):
        if input_file_path.endswith(".sgm"):
            return super()._convert_format(input_file_path, output_filep_path)
        with smart_open(input_file_path) as fin:
            lines = [line.rstrip() for line in fin]
        _write_text(output_filep_path, lines)
        return None

