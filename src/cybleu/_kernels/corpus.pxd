# Text BLEU (floor 2): hypotheses in chunks, references cached (RefSet) or streamed with them.
from .defs cimport U32Buf, I64Buf, Vocab, RefTables
from .workspace cimport Workspace


# References of a corpus, tokenized and interned once: one vocabulary for the corpus, and every
# reference as its token IDs (4 bytes a token, 4 a reference, 8 a segment).
cdef class RefSet:
    cdef Vocab vocab          # the corpus' distinct reference tokens; entry e is token ID e
    cdef U32Buf vchars        # their characters, back to back (the entries point into it)
    cdef U32Buf ids           # every reference token's ID, back to back
    cdef U32Buf ref_tok       # reference r is ids[ref_tok[r]:ref_tok[r+1]]
    cdef I64Buf seg_ref       # segment s owns references seg_ref[s]..seg_ref[s+1]-1
    cdef readonly int max_order
    cdef readonly str tokenize
    cdef readonly bint lowercase
    cdef int tok_mode
    cdef RefTables tables     # every segment's reference n-grams (once frozen: scored twice)
    cdef readonly bint frozen
    cdef bint freezing
    cdef Py_ssize_t uses      # times scored; -1: too large to freeze

    cdef int add_line(self, Workspace ws, Py_ssize_t k) noexcept nogil
    cdef int add_long_line(self, Workspace ws, Py_ssize_t k) noexcept nogil
    cdef void trim(self)
    cdef int freeze(self) except -1
