# Declarations of the compiled TER kernel (ter.pyx). The data's path: text (code points) ->
# tercom tokenizer -> words, interned per segment to integer IDs -> shift search and beam edit
# distance on the ID arrays -> [edits, average reference length] per segment.
#
# The growable buffers are the shared ones (defs.pxd, buffers.pxd), and so is the FNV-1a step of a
# word's hash (hashing.pxd). The per-segment vocabulary below is TER's own: its words are interned
# per segment with an int32 slot array (the core's vocabulary keeps a tag per slot for sentences
# of many more tokens).
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t

from .defs cimport U32Buf, I64Buf

ctypedef int32_t word_t      # a word's ID within one segment; -1 for a word no reference has
ctypedef int32_t cost_t      # a cell of the edit-distance matrix

# Words back to back: word t is chars[ends[t-1]:ends[t]] (from 0 for t == 0); hashes[t] its hash.
cdef struct WordStore:
    U32Buf chars
    I64Buf ends
    I64Buf hashes

# One segment's vocabulary: its reference words get IDs 0, 1, ...; a hypothesis word is looked up.
# slots hold an entry index or -1; keys are compared in full on every hash match.
cdef struct VocabEntry:
    const uint32_t* chars
    Py_ssize_t length
    uint64_t h

cdef struct Vocab:
    int32_t* slots
    Py_ssize_t nslots
    Py_ssize_t slots_cap
    VocabEntry* entries
    Py_ssize_t n
    Py_ssize_t cap

# Everything one (hypothesis, reference) pair needs, grown to the longest pair seen.
# The edit-distance matrix of the current hypothesis is stored band by band: row i covers columns
# lo[i] <= j < hi[i] at vals[off[i] + j - lo[i]] (ops: the operation that reached the cell).
cdef struct TerWork:
    Py_ssize_t cap_n       # room for n + 2 in each of the next six arrays
    word_t* hyp            # the hypothesis as shifted so far
    word_t* moved          # a candidate shift of it
    Py_ssize_t* lo
    Py_ssize_t* hi
    Py_ssize_t* off
    int32_t* hyp_err_pre   # prefix sums of the hypothesis words that are not matches
    cost_t* vals
    uint8_t* ops
    Py_ssize_t cap_cells
    Py_ssize_t cap_m       # room for m + 2 in each of the next four arrays
    cost_t* row_a          # two rows for a candidate's matrix (only its last value is needed)
    cost_t* row_b
    Py_ssize_t* align      # align[r]: hypothesis position reference word r lines up with (or -1)
    int32_t* ref_err_pre   # prefix sums of the reference words that are not matches
    uint8_t* trace
    Py_ssize_t cap_trace
    int32_t* cands         # one round's candidate shifts: (start, length, target) triples
