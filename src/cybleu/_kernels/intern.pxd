# Token interning (floor 1): the tokens of a segment -> uint32 IDs in the workspace.
from libc.stdint cimport int64_t, uint32_t

from .workspace cimport Workspace


cdef int segment_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                     const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                     Py_ssize_t r1) noexcept nogil
cdef int reference_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                       const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                       Py_ssize_t r1) noexcept nogil
cdef int hypothesis_ids(Workspace ws) noexcept nogil
