"""Token-ID rows read from Python objects into flat uint32 buffers (floor 1, beside _tokenize, which
reads text). A list (or tuple) of ints is what tokenizers and generation return; reading it with
np.asarray one row at a time costs more than scoring it. Here a row is read in one pass over its
items: exact ints, numpy integer scalars (all of one type) or a 1-D integer buffer, trimmed
(pad_id at both edges, everything from eos_id on) and range-checked on the way.

Anything else (another type, an ID outside uint32 after trimming, types numpy would promote to
something else) is handed to the pure-Python reader `idrows_py`, the specification, which reads
it as today and raises its errors: the two agree by construction on those inputs, and a test
compares them on the rest. _ids reads rows with `read_row` inside its threads' steps (the GIL
taken for the reading only)."""
from cpython.buffer cimport PyBUF_FORMAT, PyBUF_STRIDES, PyBuffer_Release, PyObject_CheckBuffer, \
    PyObject_GetBuffer
import sys

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawFree
from cpython.object cimport PyObject, PyTypeObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from .buffers cimport u32_reserve, i64_push, i64_reserve
from .defs cimport U32Buf, I64Buf

cdef extern from "Python.h":
    PyTypeObject PyLong_Type
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)
    bint PyBytes_Check(object o)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    PyObject** PySequence_Fast_ITEMS(object o)
    PyObject* PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    long long PyLong_AsLongLongAndOverflow(PyObject* o, int* overflow)

# An exact int's value without a call for the common case (one digit: below 2**30 in magnitude),
# through CPython's own accessors where it has them (3.12+) and its long layout before that.
cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030B0000
    #include "longintrepr.h"
    #endif
    static CYTHON_INLINE int cybleu_exact_long(PyObject* o, int64_t* v) {
    #if PY_VERSION_HEX >= 0x030C0000
        if (PyUnstable_Long_IsCompact((PyLongObject*)o)) {
            *v = (int64_t)PyUnstable_Long_CompactValue((PyLongObject*)o);
            return 1;
        }
    #else
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) { *v = 0; return 1; }
        if (size == 1) { *v = (int64_t)((PyLongObject*)o)->ob_digit[0]; return 1; }
        if (size == -1) { *v = -(int64_t)((PyLongObject*)o)->ob_digit[0]; return 1; }
    #endif
        {
            int overflow = 0;
            long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
            if (overflow) return 0;
            *v = (int64_t)x;
            return 1;
        }
    }
    """
    bint exact_long "cybleu_exact_long"(PyObject* o, int64_t* v) noexcept

__all__ = ["read_batch", "read_references"]

cdef int64_t INT64_MAX = 0x7FFFFFFFFFFFFFFF
cdef int64_t UINT32_MAX = 0xFFFFFFFF
# between two looks at Ctrl-C while a whole batch is read here (a millisecond or so)
cdef Py_ssize_t CHECK_EVERY = 1 << 18


cdef object _spec_module = None
# numpy.ma.MaskedArray once numpy.ma is imported (before that no masked array exists): its
# buffer is the data without the mask, so a masked row is left to the Python reader, which
# refuses it
cdef object _masked_type = None


cdef object spec():
    """The pure-Python reader (imported on first use: it needs numpy)."""
    global _spec_module
    if _spec_module is None:
        from . import idrows_py
        _spec_module = idrows_py
    return _spec_module


cdef int set_trim(Trim* trim, pad_id, eos_id) except -1:
    """pad_id/eos_id, already checked (None or an int in -2**63..2**64-1), as the reader compares
    them: one above int64 equals no ID it reads (it defers those)."""
    memset(trim, 0, sizeof(Trim))
    if pad_id is not None and pad_id <= INT64_MAX:
        trim.has_pad = True
        trim.pad = pad_id
    if eos_id is not None and eos_id <= INT64_MAX:
        trim.has_eos = True
        trim.eos = eos_id
    return 0


# ---------------------------------------------------------------------------------------------
# numpy integer scalars: the value sits right after the object header (numpy's arrayscalars.h,
# PyArrayScalar_VAL); each type is checked on a sample before it is trusted

cdef enum:
    MAX_SCALAR_TYPES = 16

cdef PyTypeObject* scalar_type[MAX_SCALAR_TYPES]
cdef int scalar_size[MAX_SCALAR_TYPES]
cdef bint scalar_signed[MAX_SCALAR_TYPES]
cdef int n_scalar_types = -1


cdef inline bint scalar_value(PyObject* o, int k, int64_t* v) noexcept:
    """The value of numpy scalar o of type k; False for a uint64 above int64 (deferred)."""
    cdef const char* p = (<const char*>o) + sizeof(PyObject)
    cdef uint64_t u
    cdef int size = scalar_size[k]
    if scalar_signed[k]:
        if size == 1:
            v[0] = (<const int8_t*>p)[0]
        elif size == 2:
            v[0] = (<const int16_t*>p)[0]
        elif size == 4:
            v[0] = (<const int32_t*>p)[0]
        else:
            v[0] = (<const int64_t*>p)[0]
        return True
    if size == 1:
        v[0] = (<const uint8_t*>p)[0]
    elif size == 2:
        v[0] = (<const uint16_t*>p)[0]
    elif size == 4:
        v[0] = (<const uint32_t*>p)[0]
    else:
        u = (<const uint64_t*>p)[0]
        if u > <uint64_t>INT64_MAX:
            return False
        v[0] = <int64_t>u
    return True


cdef int ensure_scalar_types() except -1:
    """The numpy integer scalar types whose values this module reads (each checked on a sample:
    a type whose layout differs is left to the pure-Python reader)."""
    global n_scalar_types
    cdef int k = 0
    cdef int64_t got
    if n_scalar_types >= 0:
        return 0
    import numpy as np
    seen = []
    for code in "bBhHiIlLqQ":
        dt = np.dtype(code)
        t = dt.type
        if t in seen or dt.itemsize not in (1, 2, 4, 8) or k == MAX_SCALAR_TYPES:
            continue
        seen.append(t)
        sample = t(0x5A if dt.itemsize == 1 else 0x5AC3 if dt.itemsize == 2
                   else 0x5AC3E17B if dt.itemsize == 4 else 0x5AC3E17B3D2F1968)
        scalar_type[k] = <PyTypeObject*>t
        scalar_size[k] = dt.itemsize
        scalar_signed[k] = dt.kind == "i"
        if scalar_value(<PyObject*>sample, k, &got) and got == int(sample):
            k += 1
    n_scalar_types = k
    return 0


cdef inline int scalar_kind(PyTypeObject* tp) noexcept:
    cdef int k
    for k in range(n_scalar_types):
        if scalar_type[k] == tp:
            return k
    return -1


# ---------------------------------------------------------------------------------------------
# one row

cdef enum:
    KIND_NONE = -2
    KIND_INT = -1        # 0.. : numpy scalar type k


cdef struct RowState:
    bint started         # a non-pad ID was seen (leading pads are skipped until then)
    bint ended           # eos was seen: the rest is type-checked, not kept
    Py_ssize_t pending   # pads seen since the last kept ID: kept only if another ID follows
    Py_ssize_t start     # out.size when the row began


cdef inline int push(int64_t v, const Trim* t, RowState* st, U32Buf* out) noexcept:
    """Feed one ID: 0 to go on, -1 to defer (an ID outside uint32 that is kept)."""
    cdef Py_ssize_t k
    if st.ended:
        return 0
    if not st.started:
        if t.has_pad and v == t.pad:
            return 0
        st.started = True
    if t.has_eos and v == t.eos:
        st.ended = True
        return 0
    if t.has_pad and v == t.pad:
        st.pending += 1
        return 0
    if v < 0 or v > UINT32_MAX:
        return -1
    if st.pending:
        if t.pad < 0 or t.pad > UINT32_MAX:
            return -1
        for k in range(st.pending):
            out.data[out.size + k] = <uint32_t>t.pad
        out.size += st.pending
        st.pending = 0
    out.data[out.size] = <uint32_t>v
    out.size += 1
    return 0


cdef int read_items(object row, const Trim* t, U32Buf* out) except -1:
    """A list or tuple row: every item an exact int, or every item a numpy integer scalar of one
    type (as numpy reads a mixture is its own business: deferred)."""
    cdef Py_ssize_t n = PySequence_Fast_GET_SIZE(row), k
    cdef PyObject** items = PySequence_Fast_ITEMS(row)
    cdef PyObject* o
    cdef PyTypeObject* tp
    cdef int kind = KIND_NONE, sk
    cdef int64_t v
    cdef RowState st
    cdef uint32_t* dst
    memset(&st, 0, sizeof(RowState))
    st.start = out.size
    if u32_reserve(out, out.size + n) < 0:
        raise MemoryError()
    # no Python code runs in these loops, so the row cannot change under them
    if not t.has_pad and not t.has_eos:
        # nothing to trim (the usual row): small exact ints straight in, anything else below
        dst = out.data + out.size
        k = 0
        while k < n:
            o = items[k]
            if o.ob_type != &PyLong_Type or not exact_long(o, &v) or v < 0 or v > UINT32_MAX:
                break
            dst[k] = <uint32_t>v
            k += 1
        if k == n:
            out.size += n
            return ROW_OK
        if k:
            kind = KIND_INT
            out.size += k
            st.started = True
        items += k
        n -= k
    for k in range(n):
        o = items[k]
        tp = o.ob_type
        if tp == &PyLong_Type:
            if kind != KIND_INT:
                if kind != KIND_NONE:
                    break
                kind = KIND_INT
            if not exact_long(o, &v):     # beyond int64: the Python reader says why
                break
        else:
            sk = scalar_kind(tp)
            if sk < 0 or (kind != sk and kind != KIND_NONE):
                break
            kind = sk
            if not scalar_value(o, sk, &v):
                break
        if push(v, t, &st, out) < 0:
            break
    else:
        return ROW_OK
    out.size = st.start
    return ROW_DEFER


cdef int buffer_format(const char* fmt, Py_ssize_t itemsize, bint* signed) noexcept:
    """1 for a native integer format of this item size (signedness in *signed), else 0."""
    cdef char c
    if fmt == NULL:
        return 0
    if fmt[0] == b'@':
        fmt += 1
    c = fmt[0]
    if c == 0 or fmt[1] != 0 or itemsize not in (1, 2, 4, 8):
        return 0
    if c in b'bhilqn':
        signed[0] = True
        return 1
    if c in b'BHILQN':
        signed[0] = False
        return 1
    return 0


cdef int read_buffer(object row, const Trim* t, U32Buf* out) except -1:
    """A 1-D integer buffer row (a numpy array, array.array, memoryview)."""
    cdef Py_buffer view
    cdef Py_ssize_t n, k, stride
    cdef const char* p
    cdef bint signed = False
    cdef int64_t v
    cdef uint64_t u
    cdef int size, rc = ROW_DEFER
    cdef RowState st
    try:
        PyObject_GetBuffer(row, &view, PyBUF_FORMAT | PyBUF_STRIDES)
    except Exception:     # the exporter refuses these flags: the Python reader will say why
        return ROW_DEFER
    try:
        if view.ndim != 1 or not buffer_format(view.format, view.itemsize, &signed):
            return ROW_DEFER
        n = view.shape[0]
        stride = view.strides[0]
        size = view.itemsize
        memset(&st, 0, sizeof(RowState))
        st.start = out.size
        if u32_reserve(out, out.size + n) < 0:
            raise MemoryError()
        p = <const char*>view.buf
        for k in range(n):
            if signed:
                if size == 1:
                    v = (<const int8_t*>p)[0]
                elif size == 2:
                    v = (<const int16_t*>p)[0]
                elif size == 4:
                    v = (<const int32_t*>p)[0]
                else:
                    v = (<const int64_t*>p)[0]
            elif size == 1:
                v = (<const uint8_t*>p)[0]
            elif size == 2:
                v = (<const uint16_t*>p)[0]
            elif size == 4:
                v = (<const uint32_t*>p)[0]
            else:
                u = (<const uint64_t*>p)[0]
                if u > <uint64_t>INT64_MAX:
                    break
                v = <int64_t>u
            if push(v, t, &st, out) < 0:
                break
            p += stride
        else:
            rc = ROW_OK
        if rc != ROW_OK:
            out.size = st.start
        return rc
    finally:
        PyBuffer_Release(&view)


cdef bint is_masked(object x):
    global _masked_type
    if _masked_type is None:
        ma = sys.modules.get("numpy.ma")
        if ma is None:
            return False
        _masked_type = ma.MaskedArray
    return isinstance(x, _masked_type)


cdef int read_row(object row, const Trim* trim, U32Buf* out) except -1:
    """Append the trimmed IDs of one row to out: ROW_OK, or ROW_DEFER (out unchanged) for a row
    this reader leaves to the pure-Python one. Needs the GIL and ensure_scalar_types()."""
    if PyList_CheckExact(row) or PyTuple_CheckExact(row):
        return read_items(row, trim, out)
    # bytes export a buffer of bytes, but a bytes row is text to the Python reader (an error)
    if PyObject_CheckBuffer(row) and not PyBytes_Check(row) and not is_masked(row):
        return read_buffer(row, trim, out)
    return ROW_DEFER


cdef Py_ssize_t row_length(object row) except -2:
    """How many IDs a row holds before trimming (for sharing work out), or -1 for a row read_row
    defers anyway."""
    if PyList_CheckExact(row) or PyTuple_CheckExact(row):
        return PySequence_Fast_GET_SIZE(row)
    if PyObject_CheckBuffer(row) and not PyBytes_Check(row):
        try:
            return len(row)
        except Exception:
            return -1
    return -1


cdef object item_at(object seq, Py_ssize_t i):
    """seq[i] of an exact list or tuple, or None when i is out of range (a list can shrink while
    the GIL is released between two steps)."""
    if 0 <= i < PySequence_Fast_GET_SIZE(seq):
        return <object>PySequence_Fast_GET_ITEM(seq, i)
    return None


# ---------------------------------------------------------------------------------------------
# whole batches (read on the calling thread)

cdef object read_rows(rows, const Trim* trim):
    """(flat, offsets) of a list of rows, or None to defer."""
    import numpy as np
    cdef U32Buf ids
    cdef I64Buf off
    cdef Py_ssize_t i, n = PySequence_Fast_GET_SIZE(rows), since = 0
    cdef uint32_t[::1] flat_view
    cdef int64_t[::1] off_view
    memset(&ids, 0, sizeof(U32Buf))
    memset(&off, 0, sizeof(I64Buf))
    try:
        if i64_reserve(&off, n + 1) < 0:
            raise MemoryError()
        off.data[0] = 0
        off.size = 1
        for i in range(n):
            if read_row(item_at(rows, i), trim, &ids) != ROW_OK:
                return None
            off.data[off.size] = ids.size
            off.size += 1
            since += off.data[i + 1] - off.data[i] + 1
            if since >= CHECK_EVERY:
                PyErr_CheckSignals()
                since = 0
        flat = np.empty(ids.size, dtype=np.uint32)
        offsets = np.empty(off.size, dtype=np.int64)
        flat_view, off_view = flat, offsets
        if ids.size:
            memcpy(&flat_view[0], ids.data, ids.size * sizeof(uint32_t))
        memcpy(&off_view[0], off.data, off.size * sizeof(int64_t))
        return flat, offsets
    finally:
        PyMem_RawFree(ids.data)
        PyMem_RawFree(off.data)


# ---------------------------------------------------------------------------------------------
# whole arrays (a 2-D batch, a Ragged's flat IDs) with pad_id/eos_id: trimmed and converted here
# in one pass, with Ctrl-C looked at every CHECK_EVERY IDs

ctypedef fused id_t:
    int8_t
    int16_t
    int32_t
    int64_t
    uint8_t
    uint16_t
    uint32_t
    uint64_t


cdef int trim_rows(const id_t* flat, Py_ssize_t step, const int64_t* off, Py_ssize_t rows,
                   const Trim* t, U32Buf* out, int64_t* new_off) except -1:
    """Rows of flat (item k at flat[k * step]) trimmed into out (room for all of them), row r
    ending at new_off[r + 1]: ROW_OK, or ROW_DEFER at an ID this reader leaves to the Python one.
    Looks at Ctrl-C every CHECK_EVERY IDs."""
    cdef Py_ssize_t r, k, since = 0
    cdef const id_t* p
    cdef int64_t v
    cdef RowState st
    new_off[0] = 0
    for r in range(rows):
        memset(&st, 0, sizeof(RowState))
        st.start = out.size
        p = flat + off[r] * step
        for k in range(off[r + 1] - off[r]):
            if id_t is uint64_t:
                if p[0] > <uint64_t>INT64_MAX:
                    return ROW_DEFER
            v = <int64_t>p[0]
            if push(v, t, &st, out) < 0:
                return ROW_DEFER
            p += step
        new_off[r + 1] = out.size
        since += off[r + 1] - off[r] + 1
        if since >= CHECK_EVERY:
            PyErr_CheckSignals()
            since = 0
    return ROW_OK


cdef object finish_rows(flat, offsets, const Trim* t):
    """(uint32 IDs, int64 offsets) of the rows of a 1-D native integer ndarray `flat` (row r is
    flat[offsets[r]:offsets[r + 1]]) with pad_id/eos_id trimmed, or None to defer (another kind
    of array, an ID that is no uint32 value)."""
    import numpy as np
    cdef Py_buffer view
    cdef bint signed = False
    cdef Py_ssize_t n, rows, step
    cdef int rc = ROW_DEFER
    cdef const int64_t[::1] off_view
    cdef int64_t[::1] new_view
    cdef uint32_t[::1] out_view
    cdef U32Buf buf
    if not isinstance(flat, np.ndarray) or is_masked(flat) or flat.ndim != 1 \
            or not flat.dtype.isnative or flat.dtype.kind not in "iu":
        return None
    off_view = offsets
    rows = off_view.shape[0] - 1
    n = flat.shape[0]
    PyObject_GetBuffer(flat, &view, PyBUF_FORMAT | PyBUF_STRIDES)
    try:
        if view.ndim != 1 or not buffer_format(view.format, view.itemsize, &signed) \
                or view.strides[0] % view.itemsize:
            return None
        step = view.strides[0] // view.itemsize
        out = np.empty(n, dtype=np.uint32)
        new_offsets = np.empty(rows + 1, dtype=np.int64)
        new_view = new_offsets
        # rows are written straight into `out`: all n IDs fit, and push never grows its buffer
        memset(&buf, 0, sizeof(U32Buf))
        if n:
            out_view = out
            buf.data = &out_view[0]
        buf.cap = n
        if signed:
            if view.itemsize == 1:
                rc = trim_rows(<const int8_t*>view.buf, step, &off_view[0], rows, t, &buf,
                               &new_view[0])
            elif view.itemsize == 2:
                rc = trim_rows(<const int16_t*>view.buf, step, &off_view[0], rows, t, &buf,
                               &new_view[0])
            elif view.itemsize == 4:
                rc = trim_rows(<const int32_t*>view.buf, step, &off_view[0], rows, t, &buf,
                               &new_view[0])
            else:
                rc = trim_rows(<const int64_t*>view.buf, step, &off_view[0], rows, t, &buf,
                               &new_view[0])
        elif view.itemsize == 1:
            rc = trim_rows(<const uint8_t*>view.buf, step, &off_view[0], rows, t, &buf,
                           &new_view[0])
        elif view.itemsize == 2:
            rc = trim_rows(<const uint16_t*>view.buf, step, &off_view[0], rows, t, &buf,
                           &new_view[0])
        elif view.itemsize == 4:
            rc = trim_rows(<const uint32_t*>view.buf, step, &off_view[0], rows, t, &buf,
                           &new_view[0])
        else:
            rc = trim_rows(<const uint64_t*>view.buf, step, &off_view[0], rows, t, &buf,
                           &new_view[0])
        if rc != ROW_OK:
            return None
        return (out if buf.size == n else out[:buf.size].copy()), new_offsets
    finally:
        PyBuffer_Release(&view)


def _finish(flat, offsets, what, pad_id, eos_id, per_item):
    """idrows_py.finish, with the common arrays trimmed by finish_rows (numpy converts
    untrimmed ones, a block at a time, faster than a loop here)."""
    cdef Trim trim
    set_trim(&trim, pad_id, eos_id)
    if not trim.has_pad and not trim.has_eos:
        return spec().finish(flat, offsets, what, pad_id, eos_id, per_item)
    got = finish_rows(flat, offsets, &trim)
    if got is None:
        return spec().finish(flat, offsets, what, pad_id, eos_id, per_item)
    return got + (per_item,)


def read_batch(x, what, pad_id=None, eos_id=None):
    """(flat, offsets) of the batch `x`, called `what` in errors: trimmed uint32 IDs back to back
    (without a copy when they are uint32 or non-negative int32 and nothing is trimmed) and int64
    offsets, row i being flat[offsets[i]:offsets[i + 1]]."""
    from .ragged import check_token_arg
    cdef Trim trim
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    if PyList_CheckExact(x) or PyTuple_CheckExact(x):
        ensure_scalar_types()
        set_trim(&trim, pad_id, eos_id)
        got = read_rows(x, &trim)
        if got is not None:
            return got
    flat, offsets, _ = spec().batch(x, what, pad_id, eos_id, _finish)
    return flat, offsets


def read_references(refs, n_hyps, pad_id=None, eos_id=None):
    """(flat, offsets, groups) of the references of n_hyps hypotheses: reference rows as
    read_batch gives them, hypothesis i owning rows groups[i]..groups[i + 1] - 1. `refs` is one
    reference per hypothesis (any batch form), a 3-D (batch, n_refs, length) array, a list holding
    a list (or 2-D array) of references per hypothesis, or ids.Ragged(flat, offsets, groups)."""
    import numpy as np
    from .ragged import check_token_arg
    cdef Trim trim
    cdef Py_ssize_t i
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    if (PyList_CheckExact(refs) or PyTuple_CheckExact(refs)) and len(refs) == n_hyps:
        ensure_scalar_types()
        set_trim(&trim, pad_id, eos_id)
        if spec().is_nested_refs(refs):
            groups = np.zeros(n_hyps + 1, dtype=np.int64)
            rows = []
            for i in range(n_hyps):
                item = refs[i]
                if not (PyList_CheckExact(item) or PyTuple_CheckExact(item)):
                    rows = None
                    break
                rows.extend(item)
                groups[i + 1] = len(rows)
            got = None if rows is None else read_rows(rows, &trim)
            if got is not None:
                return got + (groups,)
        else:
            got = read_rows(refs, &trim)
            if got is not None:
                return got + (np.arange(n_hyps + 1, dtype=np.int64),)
    return spec().references(refs, n_hyps, pad_id, eos_id, _finish)
