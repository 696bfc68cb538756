"""cybleu: sacreBLEU's BLEU, bit for bit, on a compiled core.

    import cybleu
    cybleu.corpus_bleu(hyps, [refs]).score
    cybleu.batch_sentence_bleu(hyps, [refs])      # numpy array of sentence BLEU
"""
from ._backend import BACKEND
from .compat import batch_sentence_bleu, corpus_bleu, raw_corpus_bleu, sentence_bleu
from .metrics import BLEU, BLEUScore
from .version import __version__

__all__ = ["BLEU", "BLEUScore", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu",
           "batch_sentence_bleu", "BACKEND", "__version__"]
