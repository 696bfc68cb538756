"""sacreBLEU's `IWSLTXMLDataset`: IWSLT's XML files, read as WMT's fake SGML is."""
from .fake_sgml import FakeSGMLDataset

__all__ = ["IWSLTXMLDataset"]


class IWSLTXMLDataset(FakeSGMLDataset):
    """IWSLT's format: the same fields and extraction as `FakeSGMLDataset`."""
