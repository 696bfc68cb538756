# Per-call scratch space, lines loaded as code points, and the threads of a batch (bottom floor,
# above _types and _buffers): what every driver needs and no kernel defines.
from libc.stdint cimport int64_t, uint32_t, uint64_t

from .defs cimport U32Buf, I64Buf, TextRefs, Vocab, NgramTable


# One per call (or per thread of a call), so concurrent calls never share buffers.
cdef class Workspace:
    cdef U32Buf text        # code points of one line (tokenize()) or a batch's IDs (ids)
    cdef I64Buf line_off    # offsets into ids of a batch's rows (ids)
    cdef TextRefs hlines    # the current chunk of hypotheses, read in place
    cdef TextRefs rlines    # the chunk's references (when they are not cached), read in place
    cdef object hkeep, rkeep  # the strs hlines and rlines point into, kept alive
    cdef I64Buf rseg        # segment k of the chunk owns reference lines rseg[k]..rseg[k+1]-1
    cdef U32Buf a, b        # 13a's rare whole-line replacements
    cdef U32Buf wide        # a line as code points, for the tokenizers that read those
    cdef U32Buf runf        # 13a: flags of a run of characters the rules 2-4 may split
    cdef U32Buf mark        # a cached set's token ID -> the stamp of the last segment that has it
    cdef uint32_t stamp     # the current segment's stamp (mark is all below it)
    cdef uint64_t* seen     # a frozen segment's n-gram -> seen_stamp << 32 | its count in the
    cdef Py_ssize_t seen_cap  # hypothesis (another stamp: 0), for seen_cap n-grams
    cdef uint64_t seen_stamp
    cdef U32Buf tok_chars   # tokens of the current hypothesis, back to back
    cdef I64Buf tok_ends    # token k ends at tok_chars[tok_ends[k]]
    cdef I64Buf tok_hash    # hash of token k
    cdef U32Buf rchars      # tokens of the current segment's references (when not cached)
    cdef I64Buf rends
    cdef I64Buf rhash
    cdef I64Buf rref        # reference r owns tokens rref[r]..rref[r+1]-1
    cdef U32Buf ids         # token IDs of the current hypothesis
    cdef U32Buf ref_ids     # token IDs of the current segment's references, back to back
    cdef I64Buf ref_off     # reference r of the segment spans ref_ids[ref_off[r]:ref_off[r+1]]
    cdef I64Buf stats       # statistics of the current segment
    cdef Vocab vocab
    cdef NgramTable table

    cdef size_t nbytes(self)
    cdef Py_ssize_t chunk_end(self, seq, Py_ssize_t start) except -1


cdef Workspace acquire_workspace()
cdef void release_workspace(Workspace ws)
cdef int load_lines(lines, Py_ssize_t first_index, bint lowercase, U32Buf* text,
                    I64Buf* off) except -1
cdef object load_text_refs(lines, Py_ssize_t first_index, bint lowercase,
                         TextRefs* out)
cdef int raise_for(int rc) except -1


# One thread's share of a batch. step() does a bounded piece of it without the GIL and returns
# True when the share is done (or failed: rc < 0); run_jobs calls it until then.
cdef class Job:
    cdef int rc
    cdef bint step(self) noexcept nogil


cdef int run_jobs(list jobs) except -1
