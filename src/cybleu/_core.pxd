# Declarations of the compiled core. The data's path: text (code points) -> tokens -> interned IDs
# -> n-gram table -> integer statistics (hyp_len, ref_len, correct_1..N, total_1..N).
from libc.stdint cimport uint32_t, uint64_t, int32_t, int64_t

ctypedef uint32_t token_id_t
ctypedef uint64_t hash_t

cdef enum:
    # A hypothesis token that no reference contains gets this ID: it can never match, so the
    # hypothesis side only looks tokens up and the vocabulary stays bounded by the references.
    OOV_ID = 0xFFFFFFFF

# Growable arrays owned by whoever embeds them (freed with buf_free); raw allocator: usable without
# the GIL and still seen by tracemalloc.
cdef struct U32Buf:
    uint32_t* data
    Py_ssize_t size
    Py_ssize_t cap

cdef struct I64Buf:
    int64_t* data
    Py_ssize_t size
    Py_ssize_t cap

# Token interning, one segment at a time: the segment's reference tokens get IDs 0, 1, ...; a
# hypothesis token is looked up (OOV_ID when absent). The table stays small enough for L1 cache,
# whatever the corpus. A slot holds an entry index and 32 bits of the hash, so most probes never
# touch the entries; keys are the exact code point sequences, compared in full on every hash match.
cdef struct VocabSlot:
    uint32_t tag
    int32_t entry

cdef struct VocabEntry:
    hash_t h
    const uint32_t* chars
    Py_ssize_t length
    Py_ssize_t slot

cdef struct Vocab:
    VocabSlot* slots
    Py_ssize_t mask
    int shift                 # 64 - log2(number of slots)
    VocabEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap

# One distinct hypothesis n-gram: where it first occurs in the hypothesis IDs (the exact key) and
# its counts.
cdef struct NgramEntry:
    hash_t h
    Py_ssize_t pos
    Py_ssize_t slot
    int32_t order
    int64_t hyp_count
    int64_t ref_max
    int64_t ref_count

# Per-segment table of hypothesis n-grams, cleared (not freed) between segments. Also interns every
# n-gram of a batch for pairwise scoring (_NgramIndex), keyed on the batch's IDs back to back.
cdef struct NgramTable:
    Py_ssize_t* slots         # -1, or entry index (low 32 bits) | 31 hash bits (slot_value)
    Py_ssize_t mask
    int shift                 # 64 - log2(number of slots)
    NgramEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap
    Py_ssize_t* touched
    Py_ssize_t ntouched


cdef class RefSet:
    # every reference token, back to back; token t is chars[tok_end[t-1]:tok_end[t]]
    cdef U32Buf chars
    cdef I64Buf tok_end
    cdef I64Buf tok_hash
    cdef I64Buf ref_tok       # reference r owns tokens ref_tok[r]..ref_tok[r+1]-1
    cdef I64Buf seg_ref       # segment s owns references seg_ref[s]..seg_ref[s+1]-1
    cdef readonly int max_order
    cdef readonly str tokenize
    cdef readonly bint lowercase
    cdef int tok_mode



# Exported for cybleu._nltk_core (cimported there): one segment's statistics from interned IDs,
# [hyp_len, ref_len, correct_1..N, total_1..N] into out; ERR_NOMEM (-1) / ERR_NO_REFS (-2).
cdef int count_segment(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                       const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0, Py_ssize_t r1,
                       int max_order, bint oov_ends, int64_t* out) noexcept nogil
