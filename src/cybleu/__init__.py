"""cybleu: sacreBLEU's BLEU, bit for bit, on a compiled core.

    import cybleu
    cybleu.corpus_bleu(hyps, [refs]).score
    cybleu.batch_sentence_bleu(hyps, [refs])      # numpy array of sentence BLEU
"""
from ._backend import BACKEND
from .compat import batch_sentence_bleu, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .metrics import BLEU, BLEUScore
from .patch import is_patched, patch_nltk, patch_sacrebleu, patched, unpatch_nltk, unpatch_sacrebleu
from .version import __version__

__all__ = ["BLEU", "BLEUScore", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
           "batch_sentence_bleu", "BACKEND", "__version__", "patch_sacrebleu", "unpatch_sacrebleu",
           "patch_nltk", "unpatch_nltk", "patched", "is_patched"]
