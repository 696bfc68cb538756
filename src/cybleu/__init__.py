"""cybleu: sacreBLEU's BLEU, chrF and TER, bit for bit, on a compiled core.

The same functions, classes, signatures and command line as sacreBLEU 2.6.0, and the same
numbers. Start with the function API:

>>> import cybleu
>>> hyps = ["The cat sat on the mat.", "Hello, world!"]
>>> refs = [["The cat is on the mat.", "Hello world!"]]     # one reference stream
>>> print(cybleu.corpus_bleu(hyps, refs))
BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
>>> cybleu.sentence_bleu(hyps[0], [refs[0][0]]).score
48.892302243490086
>>> cybleu.batch_sentence_bleu(hyps, refs).tolist()           # every sentence, one call
[48.892302243490086, 35.35533905932737]
>>> print(cybleu.corpus_chrf(hyps, refs), cybleu.corpus_ter(hyps, refs))
chrF2 = 66.05 TER = 25.00

References are *streams*: `refs[k][i]` is the k-th reference of segment i, one list per
reference file (`[refs]` for one reference per segment), not one list per segment.

Where to go next:

- `cybleu.BLEU`, `cybleu.CHRF`, `cybleu.TER`: metric objects (settings, references tokenized
  once, `get_signature()` for reporting).
- `cybleu.ids`: BLEU on token IDs in training loops (rewards, corpus BLEU, all-reduce).
- `cybleu.significance`: paired bootstrap and approximate randomization, as sacreBLEU.
- `cybleu.nltk`, `cybleu.hf`: NLTK's and Hugging Face evaluate's BLEU, their numbers.
- `cybleu.patch_sacrebleu()`: make code that calls sacreBLEU faster without editing it.
- `cybleu.rouge_score`, `cybleu.batch_rouge`, `cybleu.patch_rouge_score()`: rouge-score's ROUGE,
  its numbers, on the compiled core.
- `cybleu --demo`, `cybleu ref.txt -i output.txt`: the command line (also `python -m cybleu`).

The documentation is in `docs/` of the source tree (https://github.com/cybleu/cybleu, Markdown
pages that render there, and a Sphinx site: `sphinx-build docs docs/_build/html`).
`cybleu.BACKEND` names the backend in use (`'cython'`, or `'python'` for the pure-Python twin).
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
    from ._scale.select import best_of
    from .sample import sample_path
    from .patch import (is_patched, patch_nltk, patch_rouge_score, patch_sacrebleu, patched,
                        unpatch_nltk, unpatch_rouge_score, unpatch_sacrebleu)
    from .rouge import batch_rouge
    from ._report import Report, ReportInputError, TestSet, report
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
    "best_of": "_scale.select",
    "sample_path": "sample",
    **dict.fromkeys(("is_patched", "patch_nltk", "patch_sacrebleu", "patched", "unpatch_nltk",
                     "unpatch_sacrebleu", "patch_rouge_score", "unpatch_rouge_score"), "patch"),
    "batch_rouge": "rouge",
    **dict.fromkeys(("report", "Report", "TestSet", "ReportInputError"), "_report"),
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
           "unpatch_nltk", "patch_rouge_score", "unpatch_rouge_score", "batch_rouge", "patched",
           "is_patched", "best_of", "sample_path", "report", "Report", "TestSet",
           "ReportInputError", "DATASETS", "SACREBLEU_DIR",
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
