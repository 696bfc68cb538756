# The compiled tokenizers (floor 1): a line of code points -> sacreBLEU's tokens, appended to a
# token buffer (characters, end offsets, hashes).
from libc.stdint cimport uint32_t

from .defs cimport U32Buf, I64Buf, TextRefs
from .workspace cimport Workspace


cdef int tokenizer_mode(str name) except -1
cdef int ensure_class_tables() except -1
cdef int split_tokens(const uint32_t* s, Py_ssize_t n, int tok_mode, U32Buf* a, U32Buf* b,
                      U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil
cdef int split_text(Workspace ws, const void* data, int kind, Py_ssize_t n, int tok_mode,
                    bint rstrip, U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil
cdef int tokenize_line(Workspace ws, const TextRefs* lines, Py_ssize_t k, int tok_mode,
                       U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil
cdef Py_ssize_t piece_chars() noexcept nogil
cdef Py_ssize_t line_length(const TextRefs* lines, Py_ssize_t k) noexcept nogil
cdef int tokenize_piece(Workspace ws, const TextRefs* lines, Py_ssize_t k, int tok_mode,
                        Py_ssize_t n, Py_ssize_t* pos, U32Buf* chars, I64Buf* ends,
                        I64Buf* hashes) noexcept nogil
