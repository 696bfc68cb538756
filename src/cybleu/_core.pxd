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

# Token interning: open addressing; a slot holds an entry index and 32 bits of the token's hash, so
# most probes never touch the entries. An entry's ID is its index. Keys are the exact code point
# sequences (stored in `chars`), compared in full on every hash match.
cdef struct VocabSlot:
    uint32_t tag
    int32_t entry

cdef struct VocabEntry:
    hash_t h
    int64_t start
    int64_t length

cdef struct Vocab:
    VocabSlot* slots
    Py_ssize_t mask
    VocabEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap
    U32Buf chars

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

# Per-segment table of hypothesis n-grams, cleared (not freed) between segments.
cdef struct NgramTable:
    Py_ssize_t* slots
    Py_ssize_t mask
    NgramEntry* entries
    Py_ssize_t n
    Py_ssize_t ecap
    Py_ssize_t* touched
    Py_ssize_t ntouched


cdef class RefSet:
    cdef Vocab vocab
    cdef U32Buf ids           # reference token IDs, all references back to back
    cdef I64Buf ref_off       # reference r spans ids[ref_off[r]:ref_off[r+1]]
    cdef I64Buf seg_ref       # segment s owns references seg_ref[s]..seg_ref[s+1]-1
    cdef readonly int max_order
    cdef readonly str tokenize
    cdef readonly bint lowercase
    cdef int tok_mode

    cdef int _run(self, hyps, int64_t* totals, I64Buf* rows) except -1
