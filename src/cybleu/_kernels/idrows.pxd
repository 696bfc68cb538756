# Token-ID rows read from Python objects (floor 1, beside _tokenize, which reads text): a list or
# tuple of ints (or of numpy integer scalars of one type), or a 1-D integer buffer, appended to a
# uint32 buffer with pad_id/eos_id trimmed and every kept ID checked. Needs the GIL.
from libc.stdint cimport int64_t

from .defs cimport U32Buf


# pad_id / eos_id as the reader compares them (an ID outside int64 never equals either)
cdef struct Trim:
    int64_t pad
    int64_t eos
    bint has_pad
    bint has_eos

cdef enum:
    ROW_OK = 0
    # the row holds something this reader does not reproduce exactly (another type, an ID out of
    # range, types numpy would promote): the pure-Python reader decides, and raises its error
    ROW_DEFER = 1


cdef int set_trim(Trim* trim, pad_id, eos_id) except -1
cdef int ensure_scalar_types() except -1
cdef Py_ssize_t row_length(object row) except -2
cdef int read_row(object row, const Trim* trim, U32Buf* out) except -1
cdef object item_at(object seq, Py_ssize_t i)
