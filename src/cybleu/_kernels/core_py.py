"""The pure-Python twin of `core.py`, the BLEU face of the kernels, put together from the twin of
each step (`tokenize_py`, `corpus_py`, `bleu_py`, `ids_py`, which reads token-ID batches with
`idrows_py` on first use, as numpy is imported): the same names and
signatures as the compiled face (a test compares them). `cybleu._backend` chooses it with
CYBLEU_IMPLEMENTATION=python, or when the compiled core cannot be loaded.
"""
from .bleu_py import bleu_scores_from_stats
from .corpus_py import (RefSet, corpus_stats, count_tokenized_periods, segment_stats,
                        sentence_scores)
from .ids_py import (ids_batch_stats, ids_pairwise_scores, ids_segment_stats, ids_self_stats,
                     read_batch, read_references)
from .tokenize_py import tokenize, tokenize_13a

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "count_tokenized_periods",
           "tokenize_13a",
           "tokenize", "bleu_scores_from_stats", "read_batch", "read_references",
           "ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]
