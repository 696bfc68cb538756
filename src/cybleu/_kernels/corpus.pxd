# Text BLEU (floor 2): hypotheses in chunks, references cached (RefSet) or streamed with them.
from .defs cimport U32Buf, I64Buf


# References of a corpus, tokenized once.
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
