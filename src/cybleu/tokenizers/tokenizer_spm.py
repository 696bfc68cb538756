"""sentencepiece tokenizers (spm, flores101, flores200, spBLEU-1K) on a model file you already have.

cybleu never downloads at run time. The model is looked up, in order: the `model_file` argument;
the directory in $CYBLEU_SPM_MODELS; sacreBLEU's own cache $SACREBLEU/models (default
~/.sacrebleu/models), under sacreBLEU's file names, so a model sacreBLEU fetched once is reused."""
import logging
import os
from typing import Any, Optional

from .tokenizer_base import BaseTokenizer

logger = logging.getLogger("cybleu")

SPM_MODELS: dict[str, dict[str, str]] = {
    "spm": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    "flores101": {
        "url": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
        "signature": "flores101",
    },
    "flores200": {
        "url": "https://tinyurl.com/flores200sacrebleuspm",
        "signature": "flores200",
    },
    "spBLEU-1K": {
        "url": "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
        "signature": "spBLEU-1K",
    },
}


def model_dirs() -> list[str]:
    """Where a model is looked for, in order."""
    dirs = []
    if os.environ.get("CYBLEU_SPM_MODELS"):
        dirs.append(os.environ["CYBLEU_SPM_MODELS"])
    sacrebleu_dir = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    dirs.append(os.path.join(sacrebleu_dir, "models"))
    return dirs


def find_model(key: str) -> str:
    """Path of the model file of `key`, or FileNotFoundError saying where to put it."""
    url = SPM_MODELS[key]["url"]
    name = os.path.basename(url)
    dirs = model_dirs()
    for d in dirs:
        path = os.path.join(d, name)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        f"The sentencepiece model of the {key!r} tokenizer ({name}) is not in "
        f"{' or '.join(dirs)}. cybleu does not download at run time: download {url} to "
        f"{os.path.join(dirs[0], name)}, or set CYBLEU_SPM_MODELS to the directory that holds "
        f"{name}.")


class TokenizerSPM(BaseTokenizer):
    """sacreBLEU's sentencepiece tokenizers: the pieces joined by spaces. No cache.

    The model is looked up, in order: `model_file`; `$CYBLEU_SPM_MODELS/<file>`; sacreBLEU's
    cache `$SACREBLEU/models/<file>` (default `~/.sacrebleu/models`), under sacreBLEU's file
    names, so a model sacreBLEU fetched once is reused.

    :param key: `'spm'` (the same as `'flores101'`, with sacreBLEU's deprecation warning),
        `'flores101'`, `'flores200'` or `'spBLEU-1K'`.
    :param model_file: The model's path (default: looked up as above).
    :raises ValueError: An unknown key.
    :raises ImportError: sentencepiece is not installed (`pip install cybleu[spm]`).
    :raises FileNotFoundError: The model is not on disk; the message names the file, the URL
        to fetch it from and where to put it.

    >>> import sentencepiece
    >>> from cybleu.tokenizers.tokenizer_spm import TokenizerSPM
    >>> TokenizerSPM("flores101")                 # no model on this machine: cybleu never downloads
    Traceback (most recent call last):
        ...
    FileNotFoundError: The sentencepiece model of the 'flores101' tokenizer (sacrebleu_tokenizer_spm.model) is not in ...
    """

    def signature(self) -> str:
        return self.name

    def __init__(self, key: str = "spm", model_file: Optional[str] = None) -> None:
        if key not in SPM_MODELS:
            raise ValueError(f"Unknown sentencepiece tokenizer {key!r}; one of {', '.join(SPM_MODELS)}.")
        self.name = SPM_MODELS[key]["signature"]
        if key == "spm":
            logger.warning("Tokenizer 'spm' has been changed to 'flores101', and may be removed "
                           "in the future.")
        try:
            import sentencepiece as spm  # type: ignore[import-untyped, unused-ignore]
        except ImportError:
            raise ImportError("\n\nPlease install the sentencepiece library for SPM tokenization:"
                              "\n\n  pip install cybleu[spm]") from None
        self.model_file = model_file if model_file is not None else find_model(key)
        self.sp: Any = spm.SentencePieceProcessor()
        self.sp.Load(self.model_file)

    def __call__(self, line: str) -> str:
        self._check(line)
        pieces: list[str] = self.sp.EncodeAsPieces(line)
        return " ".join(pieces)


class Flores101Tokenizer(TokenizerSPM):
    """sacreBLEU's `flores101` (FLORES-101's sentencepiece model).

    :param model_file: The model's path (default: looked up as :class:`TokenizerSPM` says).

    >>> import sentencepiece
    >>> from cybleu.tokenizers.tokenizer_spm import Flores101Tokenizer
    >>> Flores101Tokenizer()                 # no model on this machine: cybleu never downloads
    Traceback (most recent call last):
        ...
    FileNotFoundError: The sentencepiece model of the 'flores101' tokenizer (sacrebleu_tokenizer_spm.model) is not in ...
    """

    def __init__(self, model_file: Optional[str] = None) -> None:
        super().__init__("flores101", model_file)


class Flores200Tokenizer(TokenizerSPM):
    """sacreBLEU's `flores200` (FLORES-200's sentencepiece model).

    :param model_file: The model's path (default: looked up as :class:`TokenizerSPM` says).

    >>> import sentencepiece
    >>> from cybleu.tokenizers.tokenizer_spm import Flores200Tokenizer
    >>> Flores200Tokenizer()                 # no model on this machine: cybleu never downloads
    Traceback (most recent call last):
        ...
    FileNotFoundError: The sentencepiece model of the 'flores200' tokenizer (flores200sacrebleuspm) is not in ...
    """

    def __init__(self, model_file: Optional[str] = None) -> None:
        super().__init__("flores200", model_file)


class spBLEU1KTokenizer(TokenizerSPM):  # noqa: N801 - sacreBLEU's name
    """sacreBLEU's `spBLEU-1K` (the spBLEU-1K sentencepiece model).

    :param model_file: The model's path (default: looked up as :class:`TokenizerSPM` says).

    >>> import sentencepiece
    >>> from cybleu.tokenizers.tokenizer_spm import spBLEU1KTokenizer
    >>> spBLEU1KTokenizer()                 # no model on this machine: cybleu never downloads
    Traceback (most recent call last):
        ...
    FileNotFoundError: The sentencepiece model of the 'spBLEU-1K' tokenizer (spbleu-1k_tokenizer_spm.model) is not in ...
    """

    def __init__(self, model_file: Optional[str] = None) -> None:
        super().__init__("spBLEU-1K", model_file)
