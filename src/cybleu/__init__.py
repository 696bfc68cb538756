"""cybleu: sacreBLEU's BLEU, chrF and TER, bit for bit, on a compiled core.

    import cybleu
    cybleu.corpus_bleu(hyps, [refs]).score
    cybleu.corpus_chrf(hyps, [refs]).score
    cybleu.batch_sentence_bleu(hyps, [refs])      # numpy array of sentence BLEU
"""
# The backend is chosen here, at import (its warning points at the user's import line); the
# public names load on first use, so `python -m cybleu` and `import cybleu` do not pay for
# metrics, numpy or sacreBLEU's patching until they are asked for (tests/test_imports.py).
from ._backend import BACKEND

TYPE_CHECKING = False
if TYPE_CHECKING:  # mypy sees the eager imports
    from .version import __version__
    from .compat import (batch_sentence_bleu, batch_sentence_chrf, batch_sentence_ter,
                         corpus_bleu, corpus_chrf, corpus_ter, pairwise_chrf, raw_corpus_bleu,
                         sentence_bleu, sentence_chrf, sentence_ter)
    from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
    from .metrics.helpers import extract_char_ngrams, extract_word_ngrams
    from .patch import (is_patched, patch_nltk, patch_sacrebleu, patched, unpatch_nltk,
                        unpatch_sacrebleu)
    from .dataset import (DATASETS, SACREBLEU_DIR, download_test_set, get_available_testsets,
                          get_langpairs_for_testset, get_reference_files, get_source_file,
                          smart_open)

# public name -> the module that defines it
_LAZY = {
    **dict.fromkeys(("batch_sentence_bleu", "batch_sentence_chrf", "batch_sentence_ter",
                     "corpus_bleu", "corpus_chrf", "corpus_ter", "pairwise_chrf",
                     "raw_corpus_bleu", "sentence_bleu", "sentence_chrf", "sentence_ter"),
                    "compat"),
    **dict.fromkeys(("BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore"), "metrics"),
    **dict.fromkeys(("extract_char_ngrams", "extract_word_ngrams"), "metrics.helpers"),
    **dict.fromkeys(("is_patched", "patch_nltk", "patch_sacrebleu", "patched", "unpatch_nltk",
                     "unpatch_sacrebleu"), "patch"),
    # sacreBLEU's test-set surface (read from its local cache; cybleu never downloads)
    **dict.fromkeys(("DATASETS", "SACREBLEU_DIR", "download_test_set", "get_available_testsets",
                     "get_langpairs_for_testset", "get_reference_files", "get_source_file",
                     "smart_open"), "dataset"),
}
# read again at each access ($SACREBLEU may be set after import), not cached in the module
_DYNAMIC = frozenset({"SACREBLEU_DIR"})

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu", "batch_sentence_bleu", "corpus_chrf", "sentence_chrf",
           "batch_sentence_chrf", "pairwise_chrf", "TER", "TERScore", "corpus_ter", "sentence_ter",
           "batch_sentence_ter", "extract_char_ngrams", "extract_word_ngrams",
           "BACKEND", "__version__", "patch_sacrebleu", "unpatch_sacrebleu", "patch_nltk",
           "unpatch_nltk", "patched", "is_patched", "DATASETS", "SACREBLEU_DIR",
           "download_test_set", "get_available_testsets", "get_langpairs_for_testset",
           "get_reference_files", "get_source_file", "smart_open"]


def __getattr__(name):
    if name == "__version__":
        return _version()
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'cybleu' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{where}", __name__), name)
    if name not in _DYNAMIC:
        globals()[name] = value  # later lookups skip this function
    return value


def __dir__():
    # the public API only: help(cybleu) and tab completion list what users may rely on, not the
    # lazy-loading machinery or the private modules
    return sorted(__all__)


def _version():
    """cybleu's own version. Read as `sacrebleu.__version__` after `sys.modules["sacrebleu"] =
    cybleu` (an alias), it is an ImportError that names the supported way: version checks such
    as Hugging Face evaluate's (sacreBLEU >= 1.4.12) would compare cybleu's version with
    sacreBLEU's, and sacreBLEU's submodule paths would load cybleu's files a second time."""
    import sys
    from .version import SACREBLEU_VERSION, __version__
    if sys.modules.get("sacrebleu") is sys.modules[__name__]:
        raise ImportError(
            f"`sacrebleu` is cybleu here (sys.modules['sacrebleu'] = cybleu), and something read "
            f"sacrebleu.__version__ (Hugging Face evaluate's sacrebleu, chrf and ter scripts "
            f"check it is >= 1.4.12). Aliasing the module is not supported: cybleu's version is "
            f"{__version__}, not sacreBLEU's, and sacreBLEU's submodules would load cybleu's "
            f"files a second time. Remove the alias and call cybleu.patch_sacrebleu() once "
            f"before the scoring code runs: sacreBLEU {SACREBLEU_VERSION} stays the module you "
            f"import, and its metrics are computed by cybleu, bit for bit (evaluate's scripts "
            f"included).")
    return __version__
