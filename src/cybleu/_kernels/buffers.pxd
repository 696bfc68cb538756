# Growable buffers (declared in defs.pxd). Inline, so that every module gets its own copy and a
# push in a hot loop costs a compare and a store.
from cpython.mem cimport PyMem_RawRealloc
from libc.stdint cimport uint32_t, int64_t

from .defs cimport U32Buf, I64Buf, TextRef, TextRefs, ERR_NOMEM


cdef inline int raw_reserve(void** p, Py_ssize_t* cap, Py_ssize_t need, size_t item) noexcept nogil:
    """Room for `need` items of `item` bytes in the raw array *p of *cap items (doubling, at
    least 64): the growable arrays that are not a U32Buf or an I64Buf."""
    cdef Py_ssize_t c
    cdef void* q
    if need <= cap[0]:
        return 0
    c = cap[0] * 2
    if c < need:
        c = need
    if c < 64:
        c = 64
    if <size_t>c > (<size_t>-1) // item:
        return ERR_NOMEM
    q = PyMem_RawRealloc(p[0], <size_t>c * item)
    if q == NULL:
        return ERR_NOMEM
    p[0] = q
    cap[0] = c
    return 0


cdef inline int u32_reserve(U32Buf* b, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if need <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < need:
        cap = need
    if cap < 64:
        cap = 64
    if <size_t>cap > (<size_t>-1) // sizeof(uint32_t):
        return ERR_NOMEM
    p = PyMem_RawRealloc(b.data, <size_t>cap * sizeof(uint32_t))
    if p == NULL:
        return ERR_NOMEM
    b.data = <uint32_t*>p
    b.cap = cap
    return 0


cdef inline int u32_push(U32Buf* b, uint32_t v) noexcept nogil:
    if b.size == b.cap and u32_reserve(b, b.size + 1) < 0:
        return ERR_NOMEM
    b.data[b.size] = v
    b.size += 1
    return 0


cdef inline int i64_reserve(I64Buf* b, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if need <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < need:
        cap = need
    if cap < 64:
        cap = 64
    if <size_t>cap > (<size_t>-1) // sizeof(int64_t):
        return ERR_NOMEM
    p = PyMem_RawRealloc(b.data, <size_t>cap * sizeof(int64_t))
    if p == NULL:
        return ERR_NOMEM
    b.data = <int64_t*>p
    b.cap = cap
    return 0


cdef inline int i64_push(I64Buf* b, int64_t v) noexcept nogil:
    if b.size == b.cap and i64_reserve(b, b.size + 1) < 0:
        return ERR_NOMEM
    b.data[b.size] = v
    b.size += 1
    return 0


cdef inline int refs_push(TextRefs* b, const void* data, Py_ssize_t length, int kind) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if b.size == b.cap:
        cap = b.cap * 2 if b.cap >= 32 else 64
        p = PyMem_RawRealloc(b.data, <size_t>cap * sizeof(TextRef))
        if p == NULL:
            return ERR_NOMEM
        b.data = <TextRef*>p
        b.cap = cap
    b.data[b.size].data = data
    b.data[b.size].length = length
    b.data[b.size].kind = kind
    b.size += 1
    if length > b.longest:
        b.longest = length
    return 0
