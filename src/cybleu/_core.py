"""The compiled core's Python face: text -> tokens (_tokenize) -> IDs (_intern) -> n-gram counts
(_ngrams) -> integer statistics (_corpus, _ids) -> scores (_bleu); token-ID rows are read by
_idrows. Importing it fails unless every compiled module is built, so `cybleu._backend` chooses
the pure-Python twin `_core_py` as a whole.

The twin is the readable specification of every name here (same names and signatures, a test
compares them)."""
from ._bleu import bleu_scores_from_stats
from ._corpus import RefSet, corpus_stats, segment_stats, sentence_scores
from ._idrows import read_batch, read_references
from ._ids import ids_batch_stats, ids_pairwise_scores, ids_segment_stats, ids_self_stats
from ._tokenize import tokenize, tokenize_13a

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "tokenize_13a",
           "tokenize", "bleu_scores_from_stats", "read_batch", "read_references",
           "ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]
