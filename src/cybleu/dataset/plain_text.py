"""sacreBLEU's `PlainTextDataset`: aligned plain-text source and reference files."""
from .base import Dataset, _require, _write_text, smart_open

__all__ = ["PlainTextDataset"]


class PlainTextDataset(Dataset):
    """Source and reference in separate plain-text files, line-aligned; fields src and ref."""

    def process_to_text(self, langpair=None):
        """Copy the raw files' lines (right-stripped) to the text fields of `langpair` (every
        pair when None), as sacreBLEU does; a missing raw file is a TestSetError."""
        langpairs = self._get_langpair_metadata(langpair)
        for pair in langpairs:
            origin_files = [self._raw_path(path) for path in langpairs[pair]]
            for field, origin_file in zip(self.fieldnames(pair), origin_files):
                _require(origin_file, self, pair)
                with smart_open(origin_file) as fin:
                    lines = [line.rstrip() for line in fin]
                _write_text(self._get_txt_file_path(pair, field), lines)
