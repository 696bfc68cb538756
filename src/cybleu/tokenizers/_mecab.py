"""MeCab taggers for ja-mecab and ko-mecab, on the packages sacreBLEU's extras install.

MeCab segments; the core interns and counts. Like sacreBLEU, the dictionary is checked (by its
size, and that no user dictionary is loaded) so that a score cannot silently come from another
dictionary."""
import threading
from typing import Any, Optional

from .tokenizer_base import BaseTokenizer

# One tagger per thread and dictionary, shared by the tokenizer objects made in that thread: a new
# Tagger maps the dictionary afresh and its first parses fault its pages in again, which made a WMT22
# en-ja round with a BLEU object per call ~1.4x slower. Bounded: two entries per thread at most.
_LOCAL = threading.local()


class MecabTokenizer(BaseTokenizer):
    _extra: Optional[str] = None
    _language: Optional[str] = None
    _dic_name: Optional[str] = None
    _suffix: Optional[str] = None
    _dic_size = 0

    def __init__(self) -> None:
        self._attach()

    def _attach(self) -> None:
        """Take this thread's tagger for the dictionary (made on first use) and check it."""
        taggers = _LOCAL.__dict__.setdefault("taggers", {})
        if self._extra not in taggers:
            taggers[self._extra] = self._make_tagger()
        self.tagger = taggers[self._extra]
        self._parse = self.tagger.parse
        info = self.tagger.dictionary_info()
        if info.size != self._dic_size:
            raise RuntimeError(f"Please make sure to use the {self._dic_name} dictionary for MeCab: "
                               f"it has {self._dic_size} entries, the loaded one {info.size}.")
        if info.next is not None:
            raise RuntimeError("A MeCab user dictionary is loaded; the scores would not be "
                               "comparable with sacreBLEU's.")

    # A MeCab Tagger is a C object that cannot be pickled or copied: the tokenizer pickles
    # without it and takes a tagger again when loaded (also in another process, as DDP's spawn
    # and checkpoints do), so every holder (BLEU, its reference cache, the torchmetrics adapter)
    # pickles, deep-copies and clones.
    def __getstate__(self) -> Any:
        state = dict(self.__dict__)
        state.pop("tagger", None)
        state.pop("_parse", None)
        return state

    def __setstate__(self, state: Any) -> None:
        self.__dict__.update(state)
        self._attach()

    def _make_tagger(self) -> Any:  # a MeCab.Tagger (the MeCab packages have no type hints)
        raise NotImplementedError()

    def _missing(self, err: ImportError) -> RuntimeError:
        return RuntimeError(f"\n{self._language} tokenization requires extra dependencies, but you "
                            f"do not have them installed ({err}). Please install them like so.\n\n"
                            f"    pip install cybleu[{self._extra}]\n")

    def __call__(self, line: str) -> str:
        self._check(line)
        tokens: str = self._parse(line.strip()).strip()
        return tokens

    def signature(self) -> str:
        return f"{self._extra}-mecab-{self.tagger.version()}-{self._suffix}"
