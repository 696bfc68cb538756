"""The compiled BLEU face of the kernels: text -> tokens (tokenize) -> IDs (intern) -> n-gram counts
(ngrams) -> integer statistics (corpus, ids) -> scores (bleu); token-ID rows are read by idrows.
Importing it fails unless every compiled step is built, so `cybleu._backend` then chooses the
pure-Python twin `core_py` as a whole.

The twin is the readable specification of every name here (same names and signatures, a test
compares them)."""
from .bleu import bleu_scores_from_stats
from .corpus import (RefSet, corpus_stats, count_tokenized_periods, segment_stats,
                     sentence_scores)
from .idrows import read_batch, read_references
from .ids import ids_batch_stats, ids_pairwise_scores, ids_segment_stats, ids_self_stats
from .tokenize import tokenize, tokenize_13a

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "count_tokenized_periods",
           "tokenize_13a",
           "tokenize", "bleu_scores_from_stats", "read_batch", "read_references",
           "ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]
