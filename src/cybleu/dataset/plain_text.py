"""sacreBLEU's `PlainTextDataset`: aligned plain-text source and reference files."""
from .base import Dataset, _require, _write_text, smart_open

__all__ = ["PlainTextDataset"]


class PlainTextDataset(Dataset):
    """Source and reference in separate plain-text files, line-aligned (sacreBLEU 2.6.0's
    `PlainTextDataset`, e.g. multi30k); the fields are `src` and `ref`.

    A toy test set of this format in a temporary cache: its text fields are extracted from
    the raw files on first use.

    >>> import os, tempfile
    >>> from unittest import mock
    >>> from cybleu.dataset import PlainTextDataset
    >>> toy = PlainTextDataset("toy", langpairs={"en-de": ["toy.en", "toy.de"]})
    >>> raw = {"toy.en": "Hello world!\\nGood night.\\n", "toy.de": "Hallo Welt!\\nGute Nacht.\\n"}
    >>> with tempfile.TemporaryDirectory() as cache, mock.patch.dict(os.environ, SACREBLEU=cache):
    ...     os.makedirs(toy.rawdir)
    ...     for name, text in raw.items():
    ...         with open(os.path.join(toy.rawdir, name), "w", encoding="utf-8") as out:
    ...             _ = out.write(text)
    ...     print([os.path.basename(path) for path in toy.get_files("en-de")])
    ...     print(list(toy.source("en-de")))
    ...     print(list(toy.references("en-de")))
    ['toy.en-de.src', 'toy.en-de.ref']
    ['Hello world!', 'Good night.']
    [('Hallo Welt!\\n',), ('Gute Nacht.\\n',)]
    """

    def process_to_text(self, langpair=None):
        """Copy the lines of the pair's raw files, right-stripped, to its text fields, as
        sacreBLEU does.

        :param langpair: One of the test set's language pairs, or None for all of them.
        :raises TestSetError: An unknown language pair, or a raw file missing from the cache.
        """
        langpairs = self._get_langpair_metadata(langpair)
        for pair in langpairs:
            origin_files = [self._raw_path(path) for path in langpairs[pair]]
            for field, origin_file in zip(self.fieldnames(pair), origin_files):
                _require(origin_file, self, pair)
                with smart_open(origin_file) as fin:
                    lines = [line.rstrip() for line in fin]
                _write_text(self._get_txt_file_path(pair, field), lines)
