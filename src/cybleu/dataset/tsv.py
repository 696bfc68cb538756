"""sacreBLEU's `TSVDataset` (the MTNT test sets): source and reference are columns of one TSV."""
from .base import Dataset, TestSetError, _require, _write_text, smart_open

__all__ = ["TSVDataset"]


class TSVDataset(Dataset):
    """A TSV file per pair (sacreBLEU 2.6.0's `TSVDataset`, the MTNT test sets): a registry
    entry `'N:path'` reads column N of the file, a plain `'path'` column 0 for the source and
    column 1 for the reference. The fields are `src` and `ref`.

    >>> from cybleu.dataset import DATASETS
    >>> mtnt = DATASETS["mtnt2019"]
    >>> type(mtnt).__name__, mtnt.langpairs["en-fr"]
    ('TSVDataset', ['2:MTNT2019/en-fr.final.tsv', '3:MTNT2019/en-fr.final.tsv'])
    >>> mtnt.fieldnames("en-fr")
    ['src', 'ref']
    """

    @staticmethod
    def _split_index_and_filename(meta, field):
        """('3:en-de.tsv', any field) -> (3, 'en-de.tsv'); ('en-de.tsv', 'src') -> (0, ...),
        any other field -> (1, ...)."""
        arr = meta.split(":")
        if len(arr) == 2:
            try:
                index = int(arr[0])
            except ValueError:
                raise TestSetError(f"Invalid meta for TSVDataset: {meta}") from None
            return index, arr[1]
        return (0 if field == "src" else 1), meta

    def _raw_inputs(self, langpair):
        meta = self._get_langpair_metadata(langpair)[langpair]
        return [self._raw_path(self._split_index_and_filename(m, f)[1])
                for m, f in zip(meta, self.fieldnames(langpair))]

    def process_to_text(self, langpair=None):
        """Write each field's column of the pair's raw TSV file to the field's text file, as
        sacreBLEU does (an empty cell is an empty line).

        :param langpair: One of the test set's language pairs, or None for all of them.
        :raises TestSetError: An unknown language pair, a raw file missing from the cache, or a
            registry entry whose column is not a number.
        """
        langpairs = self._get_langpair_metadata(langpair)
        for pair in langpairs:
            for field, meta in zip(self.fieldnames(pair), langpairs[pair]):
                index, origin = self._split_index_and_filename(meta, field)
                origin_file = self._raw_path(origin)
                _require(origin_file, self, pair)
                with smart_open(origin_file) as fin:
                    # empty source or reference cells stay (MTNT2019/ja-en.final.tsv:632)
                    lines = [line.rstrip("\n").split("\t")[index] for line in fin]
                _write_text(self._get_txt_file_path(pair, field), lines)
