# Hashing shared by the vocabulary and the n-gram tables. Hashes only choose slots: every table
# compares its keys in full.
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

from .defs cimport hash_t


cdef inline Py_ssize_t slot_of(hash_t h, int shift) noexcept nogil:
    # Fibonacci hashing: multiply, keep the high bits. Interned IDs and code points are small and
    # sequential, so a key must be mixed before it picks a slot or the keys cluster; the multiply
    # carries every bit of h into the high bits, at the cost of one instruction.
    return <Py_ssize_t>((h * 0x9E3779B97F4A7C15ULL) >> shift)


cdef inline Py_ssize_t ngram_slot(hash_t h, int shift) noexcept nogil:
    # slot_of for ngram_step's hashes, which its own multiply has mixed already: the high bits
    # choose the slot as they are (one multiply less in the chain of a 1..N-gram's probes)
    return <Py_ssize_t>(h >> shift)


cdef inline Py_ssize_t frozen_slot(hash_t h, Py_ssize_t mask) noexcept nogil:
    # ngram_slot for a frozen segment's table (at most 2**16 slots): the hash's top 16 bits,
    # masked to the table, a shift by a constant
    return <Py_ssize_t>(h >> 48) & mask


cdef inline int slot_shift(Py_ssize_t nslots) noexcept nogil:
    cdef int bits = 0
    while (<Py_ssize_t>1 << bits) < nslots:
        bits += 1
    return 64 - bits


cdef inline bint same_u32(const uint32_t* a, const uint32_t* b, Py_ssize_t n) noexcept nogil:
    # keys are a few elements long: a loop beats a call to memcmp
    cdef Py_ssize_t i
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


cdef inline bint same_token(const uint32_t* a, const uint32_t* b, Py_ssize_t n) noexcept nogil:
    # same_u32 for tokens (words: several code points), two code points a step (memcpy of 8
    # bytes compiles to one unaligned load); n-gram keys of one to six elements keep same_u32
    cdef Py_ssize_t i = 0
    cdef uint64_t x, y
    while i + 2 <= n:
        memcpy(&x, a + i, 8)
        memcpy(&y, b + i, 8)
        if x != y:
            return False
        i += 2
    return i == n or a[i] == b[i]


# FNV-1a step over a token's code points (a token's hash starts at 0xcbf29ce484222325)
cdef inline hash_t hash_step(hash_t h, uint32_t c) noexcept nogil:
    return (h ^ c) * 0x100000001b3ULL


# n-gram hash step over token IDs (an n-gram's hash extends its (n-1)-gram prefix's)
cdef inline hash_t ngram_step(hash_t h, uint32_t tid) noexcept nogil:
    return (h ^ tid) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL
