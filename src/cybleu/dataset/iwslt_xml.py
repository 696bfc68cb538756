"""sacreBLEU's `IWSLTXMLDataset`: IWSLT's XML files, read as WMT's fake SGML is."""
from .fake_sgml import FakeSGMLDataset

__all__ = ["IWSLTXMLDataset"]


class IWSLTXMLDataset(FakeSGMLDataset):
    """IWSLT's XML format (sacreBLEU 2.6.0's `IWSLTXMLDataset`): read line by line, with the
    same fields and extraction as `FakeSGMLDataset`.

    >>> from cybleu.dataset import DATASETS
    >>> type(DATASETS["iwslt17"]).__name__
    'IWSLTXMLDataset'
    >>> DATASETS["iwslt17"].fieldnames("en-de")
    ['src', 'ref', 'docid', 'genre', 'origlang']
    """
