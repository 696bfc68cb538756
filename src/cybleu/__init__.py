"""cybleu: sacreBLEU's BLEU, chrF and TER, bit for bit, on a compiled core.

    import cybleu
    cybleu.corpus_bleu(hyps, [refs]).score
    cybleu.corpus_chrf(hyps, [refs]).score
    cybleu.batch_sentence_bleu(hyps, [refs])      # numpy array of sentence BLEU
"""
from ._backend import BACKEND
from .compat import (batch_sentence_bleu, batch_sentence_chrf, batch_sentence_ter, corpus_bleu,
                     corpus_chrf, corpus_ter, pairwise_chrf, raw_corpus_bleu, sentence_bleu,
                     sentence_chrf, sentence_ter)
from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore
from .metrics.helpers import extract_char_ngrams, extract_word_ngrams
from .patch import is_patched, patch_nltk, patch_sacrebleu, patched, unpatch_nltk, unpatch_sacrebleu
from .version import __version__

__all__ = ["BLEU", "BLEUScore", "CHRF", "CHRFScore", "corpus_bleu", "raw_corpus_bleu",
           "sentence_bleu", "batch_sentence_bleu", "corpus_chrf", "sentence_chrf",
           "batch_sentence_chrf", "pairwise_chrf", "TER", "TERScore", "corpus_ter", "sentence_ter",
           "batch_sentence_ter", "extract_char_ngrams", "extract_word_ngrams",
           "BACKEND", "__version__", "patch_sacrebleu", "unpatch_sacrebleu", "patch_nltk",
           "unpatch_nltk", "patched", "is_patched"]
