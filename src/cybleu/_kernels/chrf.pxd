# Declarations of the compiled chrF kernel. The data's path: a line's code points (whitespace
# removed unless kept) and its chrF++ words (interned per segment to IDs) -> exact n-gram tables
# -> per order [hyp n-grams, ref n-grams, matches] -> chrF.
from libc.stdint cimport uint32_t, uint64_t, int32_t, int64_t

from .defs cimport U32Buf, I64Buf

# One distinct key of a SeqTable: a sequence of uint32 (code points of a character n-gram, IDs of a
# word n-gram, code points of a word) that stays where it is while the table is in use; compared
# in full on every hash match, so a collision can never merge two n-grams.
cdef struct SeqEntry:
    uint64_t h
    const uint32_t* key
    int32_t n                 # length of the key
    int32_t kind              # 0: characters, 1: word IDs (equal contents, different n-grams)
    int64_t count             # occurrences in the reference (the batch's sentences, for pairwise)
    int64_t used              # of those, matched by the current hypothesis
    Py_ssize_t slot

# Open addressing on exact keys; cleared between uses through the entries' slots, not freed.
cdef struct SeqTable:
    int32_t* slots            # 0: empty, else entry index + 1
    Py_ssize_t nslots
    int shift                 # 64 - log2(nslots)
    SeqEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap

# sacreBLEU's CHRF._compute_f_score, operation for operation, on one row of 3 * order statistics;
# factor = beta ** 2 and one_plus_factor = 1 + beta ** 2, both evaluated by Python.
cdef double chrf_f_score(const int64_t* stats, int order, double factor, double one_plus_factor,
                         bint eps_smoothing) noexcept nogil
