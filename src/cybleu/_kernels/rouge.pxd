# ROUGE (floor 2): rouge-score's tokens interned with a stem cache, then per pair the n-gram
# overlaps, the LCS length and rougeLsum's union of LCSs on dense local IDs. The twin
# rouge_py.py is the specification.
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t

from .defs cimport U32Buf, I64Buf, hash_t

cdef enum:
    K_NGRAM = 0
    K_L = 1
    K_LSUM = 2

# one ROUGE type: its kind and n (rougeN's order)
cdef struct Kind:
    int kind
    int n

# a Python str's characters as CPython stores them (1, 2 or 4 bytes each)
cdef struct TextRef:
    const void* data
    Py_ssize_t length
    int kind

# The tokens seen so far, each with its stem once asked for: the tokenizer looks a token up
# instead of stemming it again. Token bytes live back to back in the arena.
cdef struct TokEntry:
    hash_t h
    int64_t off
    int32_t length
    int32_t stem           # entry of the stemmed form; -1 not stemmed yet; -2 stems to nothing

cdef struct TokVocab:
    int32_t* slots         # entry index, -1 empty
    Py_ssize_t mask
    int shift
    TokEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap
    uint8_t* arena
    Py_ssize_t asize
    Py_ssize_t acap

# a pair's token IDs -> dense local IDs 0, 1, ... (open addressing, emptied by generation)
cdef struct LocalSlot:
    uint32_t key
    uint32_t gen
    uint32_t val

# n-grams of one order -> dense IDs, keyed exactly on (ID of the (n-1)-gram, last token)
cdef struct GramSlot:
    uint64_t key
    uint32_t gen
    uint32_t id


# One per call or thread: the vocabulary (kept between calls as a cache) and every buffer a pair
# needs, reused from pair to pair.
cdef class RougeWork:
    cdef TokVocab vocab
    cdef U32Buf tok            # the current token's bytes (as uint32 for the stemmer)
    cdef U32Buf t_ids, p_ids   # a pair's token IDs (global), target and prediction
    cdef I64Buf t_lines, p_lines   # their sentences' token offsets
    cdef I64Buf rows           # the statistics of a pair, 3 per type
    cdef I64Buf best           # score_multi's best rows so far
    cdef U32Buf lt, lp, lst, lsp   # local IDs of target, prediction, their sentences
    cdef LocalSlot* lslots
    cdef Py_ssize_t lmask
    cdef int lshift
    cdef uint32_t lgen
    cdef uint32_t nloc
    cdef GramSlot* gslots
    cdef Py_ssize_t gmask
    cdef int gshift
    cdef uint32_t ggen
    cdef uint32_t ngram_ids
    cdef U32Buf gt, gp, ct, cp     # n-gram IDs by position; counts by ID
    cdef U32Buf cnt_r, cnt_c       # rougeLsum's token budgets
    cdef int32_t* pm_row           # local ID -> its match-mask row, valid where pm_stamp is pm_gen
    cdef uint32_t* pm_stamp
    cdef Py_ssize_t pm_cap
    cdef uint32_t pm_gen
    cdef uint64_t* pm              # match masks, a row of words per symbol
    cdef Py_ssize_t pm_words
    cdef uint64_t* cols            # stored LCS columns (or checkpoints and a block of them)
    cdef Py_ssize_t cols_words
    cdef uint64_t* block
    cdef Py_ssize_t block_words
    cdef uint8_t* marks
    cdef Py_ssize_t marks_cap
    cdef uint8_t* carry
    cdef Py_ssize_t carry_cap

    cdef size_t nbytes(self)


cdef int tokenize_into(RougeWork w, TextRef t, bint stem, U32Buf* ids, I64Buf* lines) noexcept nogil
cdef int pair_stats(RougeWork w, const uint32_t* T, Py_ssize_t m, const uint32_t* P, Py_ssize_t n,
                    const uint32_t* ST, const int64_t* sto, Py_ssize_t nst,
                    const uint32_t* SP, const int64_t* spo, Py_ssize_t nsp,
                    const Kind* kinds, int nk, int64_t* out) noexcept nogil
cdef void prf(int kind, const int64_t* row, double* out) noexcept nogil
