# Token interning (floor 1): the tokens of a segment -> uint32 IDs in the workspace.
from libc.stdint cimport int64_t, uint32_t

from .defs cimport hash_t, U32Buf, I64Buf, Vocab
from .workspace cimport Workspace


cdef int segment_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                     const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                     Py_ssize_t r1) noexcept nogil
cdef int reference_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                       const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                       Py_ssize_t r1) noexcept nogil
cdef int hypothesis_ids(Workspace ws) noexcept nogil

# A vocabulary that grows (a corpus' references, interned once): entries' characters kept in one
# buffer that the vocabulary owns with it.
cdef int vocab_grow(Vocab* v, Py_ssize_t need) noexcept nogil
cdef int64_t vocab_add(Vocab* v, U32Buf* store, const uint32_t* s, Py_ssize_t n,
                       hash_t h) noexcept nogil
cdef int64_t vocab_insert(Vocab* v, const uint32_t* s, Py_ssize_t n, hash_t h) noexcept nogil
cdef int hypothesis_ids_in(Workspace ws, const Vocab* v) noexcept nogil
cdef int vocab_clear(Vocab* v) noexcept nogil
# A line's tokens a piece at a time: interned into a growing vocabulary (its characters kept in
# `store`), or looked up; the IDs appended.
cdef int intern_tokens(Vocab* v, U32Buf* store, const U32Buf* chars, const I64Buf* ends,
                       const I64Buf* hashes, U32Buf* out) noexcept nogil
cdef int lookup_tokens(const Vocab* v, const U32Buf* chars, const I64Buf* ends,
                       const I64Buf* hashes, U32Buf* out) noexcept nogil
