"""Compiled TER kernel: tercom tokenizer -> words interned to IDs -> shift search and beam edit
distance, exactly as sacreBLEU 2.6.0 computes them.

The pure-Python twin `ter_py.py` is the readable specification of every public name here (and
explains the algorithm); the parity tests hold the two to identical results. Argument checks with
user-facing messages live in `metrics/ter.py`; the checks here keep the kernel memory-safe and
raise the twin's errors.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memcpy, memset, memcmp
from libc.math cimport floor, ceil
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawRealloc, PyMem_RawFree
from cpython.array cimport array, clone
from cpython.exc cimport PyErr_CheckSignals

from .buffers cimport u32_reserve, i64_reserve, i64_push
from .hashing cimport hash_step
from .workspace cimport Job, run_jobs

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    void* PyUnicode_DATA(object o)
    int PyUnicode_KIND(object o)
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen,
                              int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_Check(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND
    const Py_ssize_t PY_SSIZE_T_MAX

__all__ = ["tokenize", "edit_stats", "edit_distance_trace", "RefSet", "segment_stats",
           "corpus_stats", "sentence_scores"]

cdef enum:
    # tercom's limits, as sacreBLEU sets them (see ter_py.py)
    MAX_SHIFT_SIZE = 10
    MAX_SHIFT_DIST = 50
    BEAM_WIDTH = 25
    MAX_SHIFT_CANDIDATES = 1000
    # a cell outside the beam; every cell inside it is finite and below MAX_WORDS * 2
    INF = 1 << 30
    MAX_WORDS = 1 << 28

cdef enum:
    # the trace's operations, as sacreBLEU's characters
    OP_NOP = 32     # ' '
    OP_SUB = 115    # 's'
    OP_INS = 105    # 'i': a reference word inserted
    OP_DEL = 100    # 'd': a hypothesis word deleted
    OP_UNDEF = 120  # 'x'

cdef enum:
    F_NORMALIZED = 1
    F_NO_PUNCT = 2
    F_ASIAN = 4

# Error codes returned from nogil code; turned into exceptions once the GIL is back.
cdef enum:
    ERR_NOMEM = -1
    ERR_TRACE = -2
    ERR_TOO_LONG = -3

# Lines are copied to code points a chunk at a time: the GIL is held only for the copy, and memory
# stays bounded whatever the corpus size.
cdef Py_ssize_t CHUNK_CHARS = 1 << 16
cdef Py_ssize_t CHUNK_SEGMENTS = 256
# A step of the shift search: segments until about this much work (hypothesis code points plus
# reference words) between two looks at Ctrl-C, a millisecond or so on sentences; one segment is
# never split.
cdef Py_ssize_t STEP_WORK = 1 << 12


# ---------------------------------------------------------------------------------------------
# growable arrays (the work arrays; the U32Buf/I64Buf ones grow with buffers.pxd's functions)

cdef int grow(void** p, Py_ssize_t* cap, Py_ssize_t need, size_t item) noexcept nogil:
    """Make room for `need` items of `item` bytes at *p (contents kept): 0, or -1 out of memory."""
    cdef Py_ssize_t c
    cdef void* q
    if need <= cap[0]:
        return 0
    c = cap[0] * 2 if cap[0] else 16
    if c < need:
        c = need
    if <size_t>c > <size_t>PY_SSIZE_T_MAX / item:
        return -1
    q = PyMem_RawRealloc(p[0], <size_t>c * item)
    if q == NULL:
        return -1
    p[0] = q
    cap[0] = c
    return 0


cdef void store_free(WordStore* s) noexcept nogil:
    PyMem_RawFree(s.chars.data)
    PyMem_RawFree(s.ends.data)
    PyMem_RawFree(s.hashes.data)
    memset(s, 0, sizeof(WordStore))


# ---------------------------------------------------------------------------------------------
# tercom's tokenizer, one non-overlapping left-to-right pass per rule (as re.sub applies them)

cdef inline bint is_digit(uint32_t c) noexcept nogil:
    return 0x30 <= c <= 0x39


cdef inline bint is_stop(uint32_t c) noexcept nogil:
    return c == 0x2e or c == 0x2c            # . ,


cdef inline bint is_spaced_punct(uint32_t c) noexcept nogil:
    # ASCII punctuation (and the space) that normalization spaces out; not ' , - .
    return (0x20 <= c <= 0x26 or 0x28 <= c <= 0x2b or c == 0x2f or 0x3a <= c <= 0x40
            or 0x5b <= c <= 0x60 or 0x7b <= c <= 0x7e)


cdef inline bint is_asian_punct(uint32_t c) noexcept nogil:
    # sacreBLEU's ASIAN_PUNCT and FULL_WIDTH_PUNCT
    return (c == 0x3001 or c == 0x3002 or 0x3008 <= c <= 0x3011 or 0x3014 <= c <= 0x301f
            or c == 0x30fb or 0xff61 <= c <= 0xff65 or c == 0xff01 or c == 0xff02
            or c == 0xff08 or c == 0xff09 or c == 0xff0c or c == 0xff0e or c == 0xff1a
            or c == 0xff1b or c == 0xff1f)


cdef inline bint is_asian_split(uint32_t c) noexcept nogil:
    # the union of the CJK ranges asian_support spaces out, and the punctuation above
    return (0x2e80 <= c <= 0x2eff or 0x31c0 <= c <= 0x31ef or 0x3200 <= c <= 0x4dbf
            or 0x4e00 <= c <= 0x9fff or 0xf900 <= c <= 0xfaff or 0xfe30 <= c <= 0xfe4f
            or is_asian_punct(c))


cdef inline bint is_removed(uint32_t c, int flags) noexcept nogil:
    if c == 0x2e or c == 0x2c or c == 0x3f or c == 0x3a or c == 0x3b or c == 0x21 \
            or c == 0x22 or c == 0x28 or c == 0x29:
        return True
    return (flags & F_ASIAN) != 0 and is_asian_punct(c)


cdef uint32_t[6] PAT_QUOT = [0x26, 0x71, 0x75, 0x6f, 0x74, 0x3b]    # &quot;
cdef uint32_t[5] PAT_AMP = [0x26, 0x61, 0x6d, 0x70, 0x3b]           # &amp;
cdef uint32_t[4] PAT_LT = [0x26, 0x6c, 0x74, 0x3b]                 # &lt;
cdef uint32_t[4] PAT_GT = [0x26, 0x67, 0x74, 0x3b]                 # &gt;


cdef Py_ssize_t pass_newlines(const uint32_t* s, Py_ssize_t n, U32Buf* d) noexcept nogil:
    """'\\n-' removed, then '\\n' -> ' ' (one scan gives both: the second maps characters)."""
    cdef Py_ssize_t i = 0, k = 0
    if u32_reserve(d, n) < 0:
        return ERR_NOMEM
    while i < n:
        if s[i] == 0x0a:
            if i + 1 < n and s[i + 1] == 0x2d:
                i += 2
                continue
            d.data[k] = 0x20
        else:
            d.data[k] = s[i]
        k += 1
        i += 1
    return k


cdef Py_ssize_t pass_entity(const uint32_t* s, Py_ssize_t n, const uint32_t* pat,
                            Py_ssize_t plen, uint32_t rep, U32Buf* d) noexcept nogil:
    cdef Py_ssize_t i = 0, k = 0
    if u32_reserve(d, n) < 0:
        return ERR_NOMEM
    while i < n:
        if s[i] == pat[0] and i + plen <= n and \
                memcmp(s + i, pat, plen * sizeof(uint32_t)) == 0:
            d.data[k] = rep
            i += plen
        else:
            d.data[k] = s[i]
            i += 1
        k += 1
    return k


cdef Py_ssize_t pass_pad_punct(const uint32_t* s, Py_ssize_t n, U32Buf* d) noexcept nogil:
    """f' {line} ', then every spaced punctuation character c (the padding spaces too) -> ' c '."""
    cdef Py_ssize_t i, k = 3
    cdef uint32_t c
    if u32_reserve(d, 3 * n + 6) < 0:
        return ERR_NOMEM
    d.data[0] = d.data[1] = d.data[2] = 0x20
    for i in range(n):
        c = s[i]
        if is_spaced_punct(c):
            d.data[k] = 0x20
            d.data[k + 1] = c
            d.data[k + 2] = 0x20
            k += 3
        else:
            d.data[k] = c
            k += 1
    d.data[k] = d.data[k + 1] = d.data[k + 2] = 0x20
    return k + 3


cdef Py_ssize_t pass_possessive(const uint32_t* s, Py_ssize_t n, U32Buf* d) noexcept nogil:
    """"'s " -> " 's " (the rule for "'s" at the end cannot fire: the line ends in a space)."""
    cdef Py_ssize_t i = 0, k = 0
    if u32_reserve(d, 2 * n) < 0:
        return ERR_NOMEM
    while i < n:
        if s[i] == 0x27 and i + 2 < n and s[i + 1] == 0x73 and s[i + 2] == 0x20:
            d.data[k] = 0x20
            d.data[k + 1] = 0x27
            d.data[k + 2] = 0x73
            d.data[k + 3] = 0x20
            k += 4
            i += 3
        else:
            d.data[k] = s[i]
            k += 1
            i += 1
    return k


cdef Py_ssize_t pass_stops(const uint32_t* s, Py_ssize_t n, U32Buf* d, int rule) noexcept nogil:
    """rule 0: `([^0-9])([.,])` -> `\\1 \\2 `; rule 1: `([.,])([^0-9])` -> ` \\1 \\2`;
    rule 2: `([0-9])(-)` -> `\\1 \\2 `. A match consumes both characters."""
    cdef Py_ssize_t i = 0, k = 0
    cdef uint32_t a, b
    if u32_reserve(d, 2 * n) < 0:
        return ERR_NOMEM
    while i < n:
        a = s[i]
        if i + 1 < n:
            b = s[i + 1]
            if rule == 0 and not is_digit(a) and is_stop(b):
                d.data[k] = a
                d.data[k + 1] = 0x20
                d.data[k + 2] = b
                d.data[k + 3] = 0x20
                k += 4
                i += 2
                continue
            if rule == 1 and is_stop(a) and not is_digit(b):
                d.data[k] = 0x20
                d.data[k + 1] = a
                d.data[k + 2] = 0x20
                d.data[k + 3] = b
                k += 4
                i += 2
                continue
            if rule == 2 and is_digit(a) and b == 0x2d:
                d.data[k] = a
                d.data[k + 1] = 0x20
                d.data[k + 2] = 0x2d
                d.data[k + 3] = 0x20
                k += 4
                i += 2
                continue
        d.data[k] = a
        k += 1
        i += 1
    return k


cdef Py_ssize_t pass_asian(const uint32_t* s, Py_ssize_t n, U32Buf* d) noexcept nogil:
    cdef Py_ssize_t i, k = 0
    cdef uint32_t c
    if u32_reserve(d, 3 * n) < 0:
        return ERR_NOMEM
    for i in range(n):
        c = s[i]
        if is_asian_split(c):
            d.data[k] = 0x20
            d.data[k + 1] = c
            d.data[k + 2] = 0x20
            k += 3
        else:
            d.data[k] = c
            k += 1
    return k


cdef Py_ssize_t tercom_line(const uint32_t* s, Py_ssize_t n, int flags, U32Buf* a, U32Buf* b,
                            U32Buf* out) noexcept nogil:
    """TercomTokenizer's output for a line already lowercased (when it should be): its words
    joined by single spaces, into `out`. a and b are scratch."""
    cdef Py_ssize_t k, i, j
    cdef U32Buf* src
    cdef U32Buf* dst
    cdef U32Buf* tmp
    cdef const uint32_t* text = s
    cdef uint32_t c
    cdef bint has_amp = False
    cdef bint in_word = False
    if flags & F_NORMALIZED:
        src, dst = b, a
        k = pass_newlines(text, n, dst)
        if k < 0:
            return k
        for i in range(k):
            if dst.data[i] == 0x26:
                has_amp = True
                break
        if has_amp:
            src, dst = dst, src
            k = pass_entity(src.data, k, PAT_QUOT, 6, 0x22, dst)
            if k >= 0:
                src, dst = dst, src
                k = pass_entity(src.data, k, PAT_AMP, 5, 0x26, dst)
            if k >= 0:
                src, dst = dst, src
                k = pass_entity(src.data, k, PAT_LT, 4, 0x3c, dst)
            if k >= 0:
                src, dst = dst, src
                k = pass_entity(src.data, k, PAT_GT, 4, 0x3e, dst)
            if k < 0:
                return k
        src, dst = dst, src
        k = pass_pad_punct(src.data, k, dst)
        if k >= 0:
            src, dst = dst, src
            k = pass_possessive(src.data, k, dst)
        if k >= 0:
            src, dst = dst, src
            k = pass_stops(src.data, k, dst, 0)
        if k >= 0:
            src, dst = dst, src
            k = pass_stops(src.data, k, dst, 1)
        if k >= 0:
            src, dst = dst, src
            k = pass_stops(src.data, k, dst, 2)
        if k >= 0 and flags & F_ASIAN:
            src, dst = dst, src
            k = pass_asian(src.data, k, dst)
        if k < 0:
            return k
        text = dst.data
        n = k
    # removal (no_punct) joins what surrounds the removed character; whitespace ends a word
    if u32_reserve(out, n) < 0:
        return ERR_NOMEM
    j = 0
    for i in range(n):
        c = text[i]
        if (flags & F_NO_PUNCT) and is_removed(c, flags):
            continue
        if Py_UNICODE_ISSPACE(c):
            in_word = False
        else:
            if not in_word and j > 0:
                out.data[j] = 0x20
                j += 1
            out.data[j] = c
            j += 1
            in_word = True
    out.size = j
    return j


cdef inline uint64_t fmix64(uint64_t h) noexcept nogil:
    h ^= h >> 33
    h *= 0xff51afd7ed558ccdULL
    h ^= h >> 33
    h *= 0xc4ceb9fe1a85ec53ULL
    h ^= h >> 33
    return h


cdef int split_words(const uint32_t* s, Py_ssize_t n, WordStore* st) noexcept nogil:
    """Append the words of a tokenizer output (words separated by spaces) to st."""
    cdef Py_ssize_t i, start
    cdef uint64_t h = 0xcbf29ce484222325ULL
    # at most one word per two code points (a word and its space): room for them all at once,
    # so the loop stores without a check
    if u32_reserve(&st.chars, st.chars.size + n) < 0 or \
            i64_reserve(&st.ends, st.ends.size + n // 2 + 1) < 0 or \
            i64_reserve(&st.hashes, st.hashes.size + n // 2 + 1) < 0:
        return ERR_NOMEM
    start = st.chars.size
    for i in range(n + 1):
        if i == n or s[i] == 0x20:
            if st.chars.size > start:
                st.ends.data[st.ends.size] = st.chars.size
                st.ends.size += 1
                st.hashes.data[st.hashes.size] = <int64_t>fmix64(h)
                st.hashes.size += 1
            h = 0xcbf29ce484222325ULL
            start = st.chars.size
        else:
            st.chars.data[st.chars.size] = s[i]
            st.chars.size += 1
            h = hash_step(h, s[i])
    return 0


# ---------------------------------------------------------------------------------------------
# loading lines: rstrip in Python (str.rstrip), lowercase here for 1-byte strings (str.lower's
# table) and in Python for the others, then code points

# str.lower of each code point below U+0100, as the running interpreter has it (every one of them
# lowercases to a single code point below U+0100)
cdef uint32_t[256] LOWER_1BYTE
for _c in range(256):
    assert len(chr(_c).lower()) == 1 and ord(chr(_c).lower()) < 256
    LOWER_1BYTE[_c] = ord(chr(_c).lower())


cdef class _Lines:
    """A chunk of lines as code points: line k is text[off[k]:off[k+1]]."""
    cdef U32Buf text
    cdef I64Buf off

    def __dealloc__(self):
        PyMem_RawFree(self.text.data)
        PyMem_RawFree(self.off.data)

    cdef int clear(self) except -1:
        self.text.size = 0
        self.off.size = 0
        if i64_push(&self.off, 0) < 0:
            raise MemoryError()
        return 0

    cdef int add(self, str line, bint case_sensitive) except -1:
        """sacreBLEU's `sent.rstrip()`, then the tokenizer's `sent.lower()`."""
        cdef Py_ssize_t ln, i
        cdef const uint8_t* src
        cdef uint32_t* dst
        line = line.rstrip()
        ln = PyUnicode_GET_LENGTH(line)
        if u32_reserve(&self.text, self.text.size + ln + 1) < 0:
            raise MemoryError()
        if not case_sensitive and ln and PyUnicode_KIND(line) == 1:
            # a string of code points below U+0100, lowercased here through str.lower's own
            # table of them (each maps to one code point below U+0100): no new str
            src = <const uint8_t*>PyUnicode_DATA(line)
            dst = self.text.data + self.text.size
            for i in range(ln):
                dst[i] = LOWER_1BYTE[src[i]]
        else:
            if not case_sensitive:
                line = line.lower()
                ln = PyUnicode_GET_LENGTH(line)
                if u32_reserve(&self.text, self.text.size + ln + 1) < 0:
                    raise MemoryError()
            if ln:
                PyUnicode_AsUCS4(line, <Py_UCS4*>(self.text.data + self.text.size), ln, 0)
        self.text.size += ln
        if i64_push(&self.off, self.text.size) < 0:
            raise MemoryError()
        return 0


cdef class _Scratch:
    """The tokenizer's buffers, the segment's vocabulary and the TER work arrays."""
    cdef U32Buf a, b, c, d
    cdef WordStore hyp
    cdef Vocab vocab
    cdef TerWork w
    cdef I64Buf ref_off      # reference r of the segment spans ref_ids[ref_off[r]:ref_off[r+1]]
    cdef word_t* ref_ids
    cdef Py_ssize_t ref_cap
    cdef word_t* hyp_ids
    cdef Py_ssize_t hyp_cap

    def __cinit__(self):
        self.w.cands = <int32_t*>PyMem_RawMalloc(3 * (MAX_SHIFT_CANDIDATES + 1) * sizeof(int32_t))
        if self.w.cands == NULL:
            raise MemoryError()

    def __dealloc__(self):
        PyMem_RawFree(self.a.data)
        PyMem_RawFree(self.b.data)
        PyMem_RawFree(self.c.data)
        PyMem_RawFree(self.d.data)
        store_free(&self.hyp)
        PyMem_RawFree(self.vocab.slots)
        PyMem_RawFree(self.vocab.entries)
        PyMem_RawFree(self.ref_off.data)
        PyMem_RawFree(self.ref_ids)
        PyMem_RawFree(self.hyp_ids)
        PyMem_RawFree(self.w.hyp)
        PyMem_RawFree(self.w.moved)
        PyMem_RawFree(self.w.lo)
        PyMem_RawFree(self.w.hi)
        PyMem_RawFree(self.w.off)
        PyMem_RawFree(self.w.vals)
        PyMem_RawFree(self.w.ops)
        PyMem_RawFree(self.w.row_a)
        PyMem_RawFree(self.w.row_b)
        PyMem_RawFree(self.w.align)
        PyMem_RawFree(self.w.ref_err_pre)
        PyMem_RawFree(self.w.hyp_err_pre)
        PyMem_RawFree(self.w.trace)
        PyMem_RawFree(self.w.cands)


cdef Py_ssize_t words_of(_Scratch sc, const uint32_t* s, Py_ssize_t n, int flags, int passes,
                         WordStore* st) noexcept nogil:
    """Tokenize `passes` times (sacreBLEU tokenizes references twice) and append the words."""
    cdef Py_ssize_t k = tercom_line(s, n, flags, &sc.a, &sc.b, &sc.c)
    if k >= 0 and passes == 2:
        k = tercom_line(sc.c.data, k, flags, &sc.a, &sc.b, &sc.d)
        if k < 0:
            return k
        return split_words(sc.d.data, k, st)
    if k < 0:
        return k
    return split_words(sc.c.data, k, st)


# ---------------------------------------------------------------------------------------------
# one segment's vocabulary

cdef int vocab_reset(Vocab* v, Py_ssize_t max_entries) noexcept nogil:
    cdef Py_ssize_t ns = 16
    while ns < 2 * max_entries:
        ns <<= 1
    if grow(<void**>&v.slots, &v.slots_cap, ns, sizeof(int32_t)) < 0 or \
            grow(<void**>&v.entries, &v.cap, max_entries, sizeof(VocabEntry)) < 0:
        return ERR_NOMEM
    v.nslots = ns
    memset(v.slots, 0xff, ns * sizeof(int32_t))
    v.n = 0
    return 0


cdef inline Py_ssize_t vocab_find(const Vocab* v, const uint32_t* s, Py_ssize_t n,
                                  uint64_t h) noexcept nogil:
    """The slot holding the word, or the empty slot where it would go."""
    cdef Py_ssize_t mask = v.nslots - 1
    cdef Py_ssize_t i = <Py_ssize_t>(h & <uint64_t>mask)
    cdef int32_t e
    while True:
        e = v.slots[i]
        if e < 0:
            return i
        if v.entries[e].h == h and v.entries[e].length == n and \
                memcmp(v.entries[e].chars, s, n * sizeof(uint32_t)) == 0:
            return i
        i = (i + 1) & mask


cdef inline word_t vocab_intern(Vocab* v, const uint32_t* s, Py_ssize_t n,
                                uint64_t h) noexcept nogil:
    cdef Py_ssize_t slot = vocab_find(v, s, n, h)
    cdef int32_t e = v.slots[slot]
    if e >= 0:
        return e
    e = <int32_t>v.n
    v.entries[e].chars = s
    v.entries[e].length = n
    v.entries[e].h = h
    v.slots[slot] = e
    v.n += 1
    return e


cdef inline word_t vocab_lookup(const Vocab* v, const uint32_t* s, Py_ssize_t n,
                                uint64_t h) noexcept nogil:
    return v.slots[vocab_find(v, s, n, h)]


# ---------------------------------------------------------------------------------------------
# the beam edit distance

cdef inline int resize(void** p, Py_ssize_t count, size_t item) noexcept nogil:
    """Reallocate *p to `count` items; *p is untouched on failure (-1)."""
    cdef void* q
    if <size_t>count > <size_t>PY_SSIZE_T_MAX / item:
        return -1
    q = PyMem_RawRealloc(p[0], <size_t>count * item)
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef int work_reserve(TerWork* w, Py_ssize_t n, Py_ssize_t m) noexcept nogil:
    """Room for a pair of n hypothesis words and m reference words (the matrix: matrix_layout)."""
    cdef Py_ssize_t c
    if n + 2 > w.cap_n:
        c = n + 2 if n + 2 > 2 * w.cap_n else 2 * w.cap_n
        if (resize(<void**>&w.hyp, c, sizeof(word_t)) < 0
                or resize(<void**>&w.moved, c, sizeof(word_t)) < 0
                or resize(<void**>&w.lo, c, sizeof(Py_ssize_t)) < 0
                or resize(<void**>&w.hi, c, sizeof(Py_ssize_t)) < 0
                or resize(<void**>&w.off, c, sizeof(Py_ssize_t)) < 0
                or resize(<void**>&w.hyp_err_pre, c, sizeof(int32_t)) < 0):
            return ERR_NOMEM
        w.cap_n = c
    if m + 2 > w.cap_m:
        c = m + 2 if m + 2 > 2 * w.cap_m else 2 * w.cap_m
        if (resize(<void**>&w.row_a, c, sizeof(cost_t)) < 0
                or resize(<void**>&w.row_b, c, sizeof(cost_t)) < 0
                or resize(<void**>&w.align, c, sizeof(Py_ssize_t)) < 0
                or resize(<void**>&w.ref_err_pre, c, sizeof(int32_t)) < 0):
            return ERR_NOMEM
        w.cap_m = c
    if n + m + 1 > w.cap_trace:
        c = n + m + 1 if n + m + 1 > 2 * w.cap_trace else 2 * w.cap_trace
        if resize(<void**>&w.trace, c, 1) < 0:
            return ERR_NOMEM
        w.cap_trace = c
    return 0


cdef int matrix_layout(TerWork* w, Py_ssize_t n, Py_ssize_t m) noexcept nogil:
    """The beam of every row (lib_ter's pseudo-diagonal and width, in the same double arithmetic)
    and where each row is stored. Rows 0 and n are complete."""
    cdef double ratio = (<double>m / <double>n) if n > 0 else 1.0
    cdef Py_ssize_t width = BEAM_WIDTH, i, diag, c
    if BEAM_WIDTH < ratio / 2:
        width = <Py_ssize_t>ceil(ratio / 2 + BEAM_WIDTH)
    w.lo[0] = 0
    w.hi[0] = m + 1
    w.off[0] = 0
    for i in range(1, n + 1):
        diag = <Py_ssize_t>floor(<double>i * ratio)
        w.lo[i] = diag - width if diag > width else 0
        w.hi[i] = m + 1 if (i == n or diag + width > m + 1) else diag + width
        w.off[i] = w.off[i - 1] + (w.hi[i - 1] - w.lo[i - 1])
    w.off[n + 1] = w.off[n] + (w.hi[n] - w.lo[n])
    c = w.off[n + 1]
    if c > w.cap_cells:
        if c < 2 * w.cap_cells:
            c = 2 * w.cap_cells
        if resize(<void**>&w.vals, c, sizeof(cost_t)) < 0 or resize(<void**>&w.ops, c, 1) < 0:
            return ERR_NOMEM
        w.cap_cells = c
    return 0


cdef inline void row_with_ops(const cost_t* prev, Py_ssize_t plo, Py_ssize_t phi, cost_t* cur,
                              uint8_t* ops, Py_ssize_t lo, Py_ssize_t hi, word_t word,
                              const word_t* ref) noexcept nogil:
    """Row i over its beam [lo, hi) from row i-1 (beam [plo, phi)); cells outside a beam are INF.
    On equal costs the first listed wins: match/substitution, deletion, insertion."""
    cdef Py_ssize_t j = lo
    cdef cost_t left = INF, diag, up, best, c
    cdef uint8_t op
    if j == 0:
        left = prev[0] + 1
        cur[0] = left
        ops[0] = OP_DEL
        j = 1
    while j < hi:
        diag = prev[j - 1 - plo] if (j > plo and j - 1 < phi) else INF
        up = prev[j - plo] if j < phi else INF
        best = INF
        op = OP_UNDEF
        if word == ref[j - 1]:
            c = diag
            if c < best:
                best = c
                op = OP_NOP
        else:
            c = diag + 1
            if c < best:
                best = c
                op = OP_SUB
        if up + 1 < best:
            best = up + 1
            op = OP_DEL
        if left + 1 < best:
            best = left + 1
            op = OP_INS
        cur[j - lo] = best
        ops[j - lo] = op
        left = best
        j += 1


cdef inline void row_values(const cost_t* prev, Py_ssize_t plo, Py_ssize_t phi, cost_t* cur,
                            Py_ssize_t lo, Py_ssize_t hi, word_t word,
                            const word_t* ref) noexcept nogil:
    """row_with_ops without the operations: a cell's value does not depend on the tie rule."""
    cdef Py_ssize_t j = lo, stop
    cdef cost_t left = INF, v, c
    if j == 0:
        left = prev[0] + 1
        cur[0] = left
        j = 1
    elif j == plo:
        # the diagonal neighbour is left of the previous beam; the left one is outside this beam
        v = prev[0] + 1 if j < phi else INF
        cur[0] = v
        left = v
        j += 1
    # both neighbours of the previous row inside its beam
    stop = phi if phi < hi else hi
    while j < stop:
        v = prev[j - 1 - plo] + (word != ref[j - 1])
        c = prev[j - plo] + 1
        if c < v:
            v = c
        c = left + 1
        if c < v:
            v = c
        cur[j - lo] = v
        left = v
        j += 1
    # past the previous beam: only the diagonal (once) and the left neighbour
    while j < hi:
        v = left + 1
        if j - 1 < phi:
            c = prev[j - 1 - plo] + (word != ref[j - 1])
            if c < v:
                v = c
        if v > INF:
            v = INF
        cur[j - lo] = v
        left = v
        j += 1


cdef cost_t fill_matrix(TerWork* w, const word_t* hyp, Py_ssize_t n, const word_t* ref,
                        Py_ssize_t m) noexcept nogil:
    """The whole matrix of hyp, with operations; returns the edit distance."""
    cdef Py_ssize_t i, j
    for j in range(m + 1):
        w.vals[j] = <cost_t>j
        w.ops[j] = OP_INS
    for i in range(1, n + 1):
        row_with_ops(w.vals + w.off[i - 1], w.lo[i - 1], w.hi[i - 1], w.vals + w.off[i],
                     w.ops + w.off[i], w.lo[i], w.hi[i], hyp[i - 1], ref)
    return w.vals[w.off[n] + m - w.lo[n]]


cdef cost_t distance_from(TerWork* w, const word_t* hyp, Py_ssize_t n, const word_t* ref,
                          Py_ssize_t m, Py_ssize_t p) noexcept nogil:
    """The edit distance of hyp, whose first p words are those of the stored matrix: rows 0..p
    are the stored ones (a row depends only on the words before it and the beam)."""
    cdef const cost_t* prev = w.vals + w.off[p]
    cdef cost_t* cur = w.row_a
    cdef cost_t* other = w.row_b
    cdef Py_ssize_t i
    for i in range(p + 1, n + 1):
        row_values(prev, w.lo[i - 1], w.hi[i - 1], cur, w.lo[i], w.hi[i], hyp[i - 1], ref)
        prev = cur
        cur, other = other, cur
    return prev[m - w.lo[n]]


cdef Py_ssize_t make_trace(TerWork* w, Py_ssize_t n, Py_ssize_t m) noexcept nogil:
    """The operations from cell (n, m) back to (0, 0), last first, into w.trace; their count."""
    cdef Py_ssize_t i = n, j = m, t = 0
    cdef uint8_t op
    while i > 0 or j > 0:
        if w.lo[i] <= j < w.hi[i]:
            op = w.ops[w.off[i] + j - w.lo[i]]
        else:
            op = OP_UNDEF
        w.trace[t] = op
        t += 1
        if op == OP_NOP or op == OP_SUB:
            i -= 1
            j -= 1
        elif op == OP_INS:
            j -= 1
        elif op == OP_DEL:
            i -= 1
        else:
            return ERR_TRACE
    return t


cdef void alignment(TerWork* w, Py_ssize_t t) noexcept nogil:
    """From the trace: align[r] and the prefix sums of the words that are not matches."""
    cdef Py_ssize_t h = -1, r = -1, k
    cdef uint8_t op
    cdef int32_t e
    w.hyp_err_pre[0] = 0
    w.ref_err_pre[0] = 0
    for k in range(t - 1, -1, -1):
        op = w.trace[k]
        if op == OP_NOP or op == OP_SUB:
            h += 1
            r += 1
            w.align[r] = h
            e = 1 if op == OP_SUB else 0
            w.hyp_err_pre[h + 1] = w.hyp_err_pre[h] + e
            w.ref_err_pre[r + 1] = w.ref_err_pre[r] + e
        elif op == OP_DEL:
            h += 1
            w.hyp_err_pre[h + 1] = w.hyp_err_pre[h] + 1
        else:
            r += 1
            w.align[r] = h
            w.ref_err_pre[r + 1] = w.ref_err_pre[r] + 1


cdef Py_ssize_t find_candidates(TerWork* w, const word_t* hyp, Py_ssize_t n, const word_t* ref,
                                Py_ssize_t m, Py_ssize_t limit) noexcept nogil:
    """One round's candidate shifts in sacreBLEU's order (see ter_py._candidates), the first
    `limit` of them stored in w.cands; returns their number, stopping once it reaches limit."""
    cdef Py_ssize_t count = 0, start, r, r0, r1, length, k, target, last
    for start in range(n):
        r0 = start - MAX_SHIFT_DIST if start > MAX_SHIFT_DIST else 0
        r1 = start + MAX_SHIFT_DIST + 1
        if r1 > m:
            r1 = m
        for r in range(r0, r1):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[start + length] == ref[r + length]:
                length += 1
                if (w.hyp_err_pre[start + length] > w.hyp_err_pre[start]
                        and w.ref_err_pre[r + length] > w.ref_err_pre[r]
                        and not (start <= w.align[r] < start + length)):
                    last = -1
                    for k in range(r - 1, r + length):
                        target = 0 if k < 0 else w.align[k] + 1
                        if target != last:
                            last = target
                            if count < limit:
                                w.cands[3 * count] = <int32_t>start
                                w.cands[3 * count + 1] = <int32_t>length
                                w.cands[3 * count + 2] = <int32_t>target
                            count += 1
                if start + length == n or r + length == m:
                    break
            if count >= limit:
                return count
    return count


cdef void perform_shift(const word_t* src, Py_ssize_t n, Py_ssize_t start, Py_ssize_t length,
                        Py_ssize_t target, word_t* dst) noexcept nogil:
    """sacreBLEU's `_perform_shift` (see ter_py._shift), Python's slice clipping included."""
    cdef Py_ssize_t k = 0, a
    cdef size_t z = sizeof(word_t)
    if target < start:
        memcpy(dst, src, target * z)
        k = target
        memcpy(dst + k, src + start, length * z)
        k += length
        memcpy(dst + k, src + target, (start - target) * z)
        k += start - target
    elif target > start + length:
        memcpy(dst, src, start * z)
        k = start
        memcpy(dst + k, src + start + length, (target - start - length) * z)
        k += target - start - length
        memcpy(dst + k, src + start, length * z)
        k += length
        start = target - length      # the tail src[target:] follows
    else:
        a = length + target
        if a > n:
            a = n
        memcpy(dst, src, start * z)
        k = start
        memcpy(dst + k, src + start + length, (a - start - length) * z)
        k += a - start - length
        memcpy(dst + k, src + start, length * z)
        k += length
        start = a - length
    memcpy(dst + k, src + start + length, (n - k) * z)


cdef int64_t ter_pair(TerWork* w, const word_t* hyp0, Py_ssize_t n, const word_t* ref,
                      Py_ssize_t m) noexcept nogil:
    """translation_edit_rate: the number of edits (shifts + edit distance); < 0 on error."""
    cdef int64_t shifts = 0
    cdef Py_ssize_t checked = 0, count, c, t, p, s, L, tg, bs = 0, bl = 0, bt = 0
    cdef cost_t pre, ed, best_ed
    cdef bint found
    cdef word_t* tmp
    if m == 0:
        return n
    if work_reserve(w, n, m) < 0 or matrix_layout(w, n, m) < 0:
        return ERR_NOMEM
    if n:   # an empty hypothesis may come as NULL, which memcpy must never get (even for 0 bytes)
        memcpy(w.hyp, hyp0, n * sizeof(word_t))
    while True:
        pre = fill_matrix(w, w.hyp, n, ref, m)
        t = make_trace(w, n, m)
        if t < 0:
            return t
        alignment(w, t)
        count = find_candidates(w, w.hyp, n, ref, m, MAX_SHIFT_CANDIDATES - checked)
        checked += count
        # sacreBLEU throws away the round in which the count reaches the limit
        if checked >= MAX_SHIFT_CANDIDATES or count == 0:
            break
        found = False
        best_ed = INF
        for c in range(count):
            s = w.cands[3 * c]
            L = w.cands[3 * c + 1]
            tg = w.cands[3 * c + 2]
            perform_shift(w.hyp, n, s, L, tg, w.moved)
            p = s if s < tg else tg
            while p < n and w.moved[p] == w.hyp[p]:
                p += 1
            ed = pre if p == n else distance_from(w, w.moved, n, ref, m, p)
            # sacreBLEU's ranking: the largest gain, then the longest block, then the earliest
            # block, then the earliest target
            if (not found or ed < best_ed or (ed == best_ed and (
                    L > bl or (L == bl and (s < bs or (s == bs and tg < bt)))))):
                found = True
                best_ed = ed
                bs = s
                bl = L
                bt = tg
        if pre - best_ed <= 0:
            break
        shifts += 1
        perform_shift(w.hyp, n, bs, bl, bt, w.moved)
        tmp = w.hyp
        w.hyp = w.moved
        w.moved = tmp
    return shifts + pre


# ---------------------------------------------------------------------------------------------
# segments

cdef inline const uint32_t* word_chars(const WordStore* st, Py_ssize_t t,
                                       Py_ssize_t* length) noexcept nogil:
    cdef Py_ssize_t start = st.ends.data[t - 1] if t > 0 else 0
    length[0] = st.ends.data[t] - start
    return st.chars.data + start


cdef int segment_row(_Scratch sc, const WordStore* refs, const int64_t* line_word,
                     Py_ssize_t l0, Py_ssize_t l1, int64_t* edits_out,
                     double* length_out) noexcept nogil:
    """[fewest edits, average reference length] of the hypothesis in sc.hyp against reference
    lines l0..l1-1 (line l owns words line_word[l]..line_word[l+1]-1 of refs)."""
    cdef Py_ssize_t t0 = line_word[l0], t1 = line_word[l1], t, nh = sc.hyp.ends.size, ln, l
    cdef const uint32_t* s
    cdef int64_t e, best = -1, total = 0
    if nh >= MAX_WORDS:
        return ERR_TOO_LONG
    if vocab_reset(&sc.vocab, t1 - t0) < 0:
        return ERR_NOMEM
    if t1 - t0 > sc.ref_cap:
        if resize(<void**>&sc.ref_ids, t1 - t0, sizeof(word_t)) < 0:
            return ERR_NOMEM
        sc.ref_cap = t1 - t0
    if nh > sc.hyp_cap:
        if resize(<void**>&sc.hyp_ids, nh, sizeof(word_t)) < 0:
            return ERR_NOMEM
        sc.hyp_cap = nh
    for t in range(t0, t1):
        s = word_chars(refs, t, &ln)
        sc.ref_ids[t - t0] = vocab_intern(&sc.vocab, s, ln, <uint64_t>refs.hashes.data[t])
    for t in range(nh):
        s = word_chars(&sc.hyp, t, &ln)
        sc.hyp_ids[t] = vocab_lookup(&sc.vocab, s, ln, <uint64_t>sc.hyp.hashes.data[t])
    for l in range(l0, l1):
        if line_word[l + 1] - line_word[l] >= MAX_WORDS:
            return ERR_TOO_LONG
        e = ter_pair(&sc.w, sc.hyp_ids, nh, sc.ref_ids + (line_word[l] - t0),
                     line_word[l + 1] - line_word[l])
        if e < 0:
            return <int>e
        total += line_word[l + 1] - line_word[l]
        if best < 0 or e < best:
            best = e
    edits_out[0] = best
    length_out[0] = <double>total / <double>(l1 - l0)
    return 0


cdef int _raise(int rc, Py_ssize_t segment) except -1:
    if rc == ERR_NOMEM:
        raise MemoryError()
    if rc == ERR_TOO_LONG:
        raise ValueError(f"TER: segment {segment} has a sentence of more than {MAX_WORDS - 1} "
                         "words")
    if rc == ERR_TRACE:
        raise RuntimeError("TER: unknown operation 'x' in the edit-distance trace")
    return 0


cdef int _flags(bint normalized, bint no_punct, bint asian_support):
    return ((F_NORMALIZED if normalized else 0) | (F_NO_PUNCT if no_punct else 0)
            | (F_ASIAN if asian_support else 0))


cdef str _word_str(const WordStore* st, Py_ssize_t t):
    cdef Py_ssize_t ln
    cdef const uint32_t* s = word_chars(st, t, &ln)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, s, ln)


cdef class RefSet:
    """The references of every segment, tokenized once (twice, as sacreBLEU does) for scoring
    many systems. `refs[s]` holds segment s's references (strings; drop None before)."""
    cdef WordStore store
    cdef I64Buf line_word     # reference line l owns words line_word[l]..line_word[l+1]-1
    cdef I64Buf seg_line      # segment s owns lines seg_line[s]..seg_line[s+1]-1
    cdef readonly bint normalized
    cdef readonly bint no_punct
    cdef readonly bint asian_support
    cdef readonly bint case_sensitive
    cdef int flags

    def __cinit__(self):
        if i64_push(&self.line_word, 0) < 0 or i64_push(&self.seg_line, 0) < 0:
            raise MemoryError()

    def __dealloc__(self):
        store_free(&self.store)
        PyMem_RawFree(self.line_word.data)
        PyMem_RawFree(self.seg_line.data)

    def __init__(self, refs, normalized=False, no_punct=False, asian_support=False,
                 case_sensitive=False):
        cdef _Lines lines = _Lines()
        cdef _Scratch sc = _Scratch()
        self._set_flags(normalized, no_punct, asian_support, case_sensitive)
        cdef Py_ssize_t total = 0
        # __init__ may run again on the same object: start from an empty set
        self.store.chars.size = self.store.ends.size = self.store.hashes.size = 0
        self.line_word.size = self.seg_line.size = 1
        lines.clear()
        for s, seg in enumerate(refs):
            for k, ref in enumerate(seg):
                if not PyUnicode_Check(ref):
                    raise TypeError(f"TER: reference {k} of segment {s} is "
                                    f"{type(ref).__name__}, not str")
                lines.add(ref, self.case_sensitive)
                total += 1
            if i64_push(&self.seg_line, total) < 0:
                raise MemoryError()
            if lines.text.size >= CHUNK_CHARS:
                self._add_lines(lines, sc, 2)
                lines.clear()
                PyErr_CheckSignals()
        self._add_lines(lines, sc, 2)

    cdef _set_flags(self, normalized, no_punct, asian_support, case_sensitive):
        self.normalized = bool(normalized)
        self.no_punct = bool(no_punct)
        self.asian_support = bool(asian_support)
        self.case_sensitive = bool(case_sensitive)
        self.flags = _flags(self.normalized, self.no_punct, self.asian_support)

    cdef int _add_lines(self, _Lines lines, _Scratch sc, int passes) except -1:
        """Tokenize the loaded lines (`passes` times) and append their words."""
        cdef Py_ssize_t k, nl = lines.off.size - 1
        cdef int rc = 0
        cdef const int64_t* off = lines.off.data
        with nogil:
            for k in range(nl):
                rc = <int>words_of(sc, lines.text.data + off[k], off[k + 1] - off[k],
                                   self.flags, passes, &self.store)
                if rc < 0:
                    break
                rc = i64_push(&self.line_word, self.store.ends.size)
                if rc < 0:
                    break
        if rc < 0:
            raise MemoryError()
        return 0

    @property
    def num_segments(self):
        return self.seg_line.size - 1

    def ref_words(self, index):
        """Segment `index`'s references as TER compares them (lists of words)."""
        cdef Py_ssize_t s = index, l, t
        if s < 0:
            s += self.seg_line.size - 1
        if not 0 <= s < self.seg_line.size - 1:
            raise IndexError("RefSet index out of range")
        return [[_word_str(&self.store, t)
                 for t in range(self.line_word.data[l], self.line_word.data[l + 1])]
                for l in range(self.seg_line.data[s], self.seg_line.data[s + 1])]

    cdef _compute(self, hyps, Py_ssize_t first, Py_ssize_t count, int64_t* edits,
                  double* lengths):
        """Statistics of hyps[first:first+count] against this set's segments 0..count-1, in
        steps with Ctrl-C looked at in between (workspace.run_jobs)."""
        cdef _TerJob job = _TerJob()
        if count <= 0:
            return
        job.refset = self
        job.hyps = hyps
        job.first = first
        job.count = count
        job.edits = edits
        job.lengths = lengths
        run_jobs([job])
        if job.error is not None:
            raise job.error
        if job.rc < 0:
            _raise(job.rc, first + job.s)

    cdef _check(self, hyps):
        cdef Py_ssize_t s, nseg = self.seg_line.size - 1
        if len(hyps) != nseg:
            raise ValueError(f"TER: {len(hyps)} hypotheses but {nseg} segments of references")
        _check_hyps(hyps)
        for s in range(nseg):
            if self.seg_line.data[s + 1] == self.seg_line.data[s]:
                raise ValueError(f"TER: segment {s} has no reference (every reference is None)")

    cdef tuple _stats(self, hyps):
        cdef Py_ssize_t nseg = self.seg_line.size - 1
        self._check(hyps)
        cdef array edits = clone(array("q"), nseg, False)
        cdef array lengths = clone(array("d"), nseg, False)
        self._compute(hyps, 0, nseg, <int64_t*>edits.data.as_voidptr,
                      <double*>lengths.data.as_voidptr)
        return edits, lengths

    def segment_stats(self, hyps):
        """[edits, average reference length] of every segment."""
        edits, lengths = self._stats(hyps)
        return _rows(edits, lengths)

    def corpus_stats(self, hyps):
        """The segments' statistics summed as sacreBLEU sums them."""
        edits, lengths = self._stats(hyps)
        return _sum_rows(edits, lengths)

    def sentence_scores(self, hyps):
        """Sentence TER (0-100) of every segment, as array('d')."""
        edits, lengths = self._stats(hyps)
        return _scores(edits, lengths)

    def __reduce__(self):
        words = [[" ".join(ref) for ref in self.ref_words(s)]
                 for s in range(self.seg_line.size - 1)]
        return _refset_from_words, (words, self.normalized, self.no_punct, self.asian_support,
                                    self.case_sensitive)


cdef class _TerJob(Job):
    """RefSet._compute as a workspace job: hypotheses first.. are loaded a chunk at a time (with
    the GIL) and scored STEP_WORK at a time without it."""
    cdef RefSet refset
    cdef object hyps, error
    cdef _Lines lines
    cdef _Scratch sc
    cdef Py_ssize_t first, count
    cdef Py_ssize_t a, b, s      # the loaded chunk is segments a..b-1; s is the next to score
    cdef int64_t* edits
    cdef double* lengths

    def __cinit__(self):
        self.lines = _Lines()
        self.sc = _Scratch()

    cdef int load(self) except -1:
        """The next chunk of hypotheses as code points (a bounded number of segments and
        characters)."""
        cdef Py_ssize_t b = self.b
        self.lines.clear()
        self.a = b
        while b < self.count and (b == self.a or (b - self.a < CHUNK_SEGMENTS
                                                  and self.lines.text.size < CHUNK_CHARS)):
            self.lines.add(self.hyps[self.first + b], self.refset.case_sensitive)
            b += 1
        self.b = b
        return 0

    cdef int load_guarded(self) noexcept with gil:
        try:
            self.load()
            return 0
        except BaseException as err:     # a list changed while the GIL was released: raised
            self.error = err             # once the step is back
            self.rc = ERR_NOMEM
            return -1

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t k, work = 0, s
        cdef int rc
        cdef const int64_t* seg = self.refset.seg_line.data
        cdef const int64_t* line_word = self.refset.line_word.data
        cdef const int64_t* off
        if self.s >= self.b:
            if self.b >= self.count:
                return True
            if self.load_guarded() < 0:
                return True
        off = self.lines.off.data
        while self.s < self.b and work < STEP_WORK:
            s = self.s
            k = s - self.a
            self.sc.hyp.chars.size = 0
            self.sc.hyp.ends.size = 0
            self.sc.hyp.hashes.size = 0
            rc = <int>words_of(self.sc, self.lines.text.data + off[k], off[k + 1] - off[k],
                               self.refset.flags, 1, &self.sc.hyp)
            if rc >= 0:
                rc = segment_row(self.sc, &self.refset.store, line_word, seg[s], seg[s + 1],
                                 self.edits + self.first + s, self.lengths + self.first + s)
            if rc < 0:
                self.rc = rc
                return True
            work += (off[k + 1] - off[k]) + (line_word[seg[s + 1]] - line_word[seg[s]]) + 1
            self.s += 1
        return self.s >= self.count


def _refset_from_words(words, normalized, no_punct, asian_support, case_sensitive):
    """Unpickle a RefSet: its references are already tokenized, words joined by spaces."""
    cdef RefSet refset = RefSet.__new__(RefSet)
    cdef _Lines lines = _Lines()
    cdef _Scratch sc = _Scratch()
    cdef Py_ssize_t k
    refset._set_flags(normalized, no_punct, asian_support, case_sensitive)
    lines.clear()
    for seg in words:
        for ref in seg:
            lines.add(" ".join(ref.split()), True)
        if i64_push(&refset.seg_line, lines.off.size - 1) < 0:
            raise MemoryError()
    cdef int rc = 0
    with nogil:
        for k in range(lines.off.size - 1):
            rc = split_words(lines.text.data + lines.off.data[k],
                             lines.off.data[k + 1] - lines.off.data[k], &refset.store)
            if rc == 0:
                rc = i64_push(&refset.line_word, refset.store.ends.size)
            if rc < 0:
                break
    if rc < 0:
        raise MemoryError()
    return refset


cdef _check_hyps(hyps):
    for i, hyp in enumerate(hyps):
        if not PyUnicode_Check(hyp):
            raise TypeError(f"TER: hypothesis {i} is {type(hyp).__name__}, not str")


cdef list _rows(array edits, array lengths):
    cdef const int64_t* e = <const int64_t*>edits.data.as_voidptr
    cdef const double* r = <const double*>lengths.data.as_voidptr
    return [[e[i], r[i]] for i in range(len(edits))]


cdef list _sum_rows(array edits, array lengths):
    """sacreBLEU's sum_of_lists: one row as is; otherwise column sums, left to right from 0."""
    cdef const int64_t* e = <const int64_t*>edits.data.as_voidptr
    cdef const double* r = <const double*>lengths.data.as_voidptr
    cdef Py_ssize_t i, n = len(edits)
    cdef int64_t total = 0
    cdef double length = 0.0
    if n == 1:
        return [e[0], r[0]]
    if n == 0:
        return [0, 0]
    for i in range(n):
        total += e[i]
        length += r[i]
    return [total, length]


cdef array _scores(array edits, array lengths):
    """`TER._compute_score_from_stats(row).score` of every row."""
    cdef const int64_t* e = <const int64_t*>edits.data.as_voidptr
    cdef const double* r = <const double*>lengths.data.as_voidptr
    cdef Py_ssize_t i, n = len(edits)
    cdef array out = clone(array("d"), n, False)
    cdef double* o = <double*>out.data.as_voidptr
    for i in range(n):
        if r[i] > 0:
            o[i] = 100.0 * (<double>e[i] / r[i])
        elif e[i] > 0:
            o[i] = 100.0
        else:
            o[i] = 0.0
    return out


cdef object _segments(refs):
    """refs as a list, every reference checked to be a str (in the twin's order)."""
    if not isinstance(refs, (list, tuple)):
        refs = list(refs)
    for s, seg in enumerate(refs):
        for k, ref in enumerate(seg):
            if not PyUnicode_Check(ref):
                raise TypeError(f"TER: reference {k} of segment {s} is {type(ref).__name__}, "
                                "not str")
    return refs


cdef tuple _stream_stats(hyps, refs, normalized, no_punct, asian_support, case_sensitive):
    """Statistics of every segment, references tokenized a chunk of segments at a time so that
    memory stays bounded."""
    cdef Py_ssize_t nseg, a, b, s
    cdef RefSet chunk
    refs = _segments(refs)
    nseg = len(refs)
    if len(hyps) != nseg:
        raise ValueError(f"TER: {len(hyps)} hypotheses but {nseg} segments of references")
    _check_hyps(hyps)
    for s in range(nseg):
        if len(refs[s]) == 0:
            raise ValueError(f"TER: segment {s} has no reference (every reference is None)")
    cdef array edits = clone(array("q"), nseg, False)
    cdef array lengths = clone(array("d"), nseg, False)
    a = 0
    while a < nseg:
        b = min(nseg, a + CHUNK_SEGMENTS)
        chunk = RefSet(refs[a:b], normalized, no_punct, asian_support, case_sensitive)
        chunk._compute(hyps, a, b - a, <int64_t*>edits.data.as_voidptr,
                       <double*>lengths.data.as_voidptr)
        a = b
    return edits, lengths


def segment_stats(hyps, refs, normalized=False, no_punct=False, asian_support=False,
                  case_sensitive=False):
    """[edits, average reference length] of every segment; refs[s] are segment s's references."""
    edits, lengths = _stream_stats(hyps, refs, normalized, no_punct, asian_support,
                                   case_sensitive)
    return _rows(edits, lengths)


def corpus_stats(hyps, refs, normalized=False, no_punct=False, asian_support=False,
                 case_sensitive=False):
    """The corpus's [edits, reference length], summed as sacreBLEU sums them."""
    edits, lengths = _stream_stats(hyps, refs, normalized, no_punct, asian_support,
                                   case_sensitive)
    return _sum_rows(edits, lengths)


def sentence_scores(hyps, refs, normalized=False, no_punct=False, asian_support=False,
                    case_sensitive=False):
    """Sentence TER (0-100) of every segment, as array('d')."""
    edits, lengths = _stream_stats(hyps, refs, normalized, no_punct, asian_support,
                                   case_sensitive)
    return _scores(edits, lengths)


# ---------------------------------------------------------------------------------------------
# single lines and word lists

def tokenize(line, normalized=False, no_punct=False, asian_support=False, case_sensitive=False):
    """TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)(line): the words
    joined by single spaces."""
    cdef _Scratch sc
    cdef U32Buf text
    cdef Py_ssize_t n, k
    cdef int flags = _flags(normalized, no_punct, asian_support)
    if not PyUnicode_Check(line):
        raise TypeError(f"TercomTokenizer: the line is {type(line).__name__}, not str")
    if not line:
        return ""
    if not case_sensitive:
        line = line.lower()
    n = PyUnicode_GET_LENGTH(line)
    sc = _Scratch()
    text.data = NULL
    text.size = text.cap = 0
    try:
        if u32_reserve(&text, n + 1) < 0:
            raise MemoryError()
        PyUnicode_AsUCS4(line, <Py_UCS4*>text.data, n, 0)
        with nogil:
            k = tercom_line(text.data, n, flags, &sc.a, &sc.b, &sc.c)
        if k < 0:
            raise MemoryError()
        return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, sc.c.data, k)
    finally:
        PyMem_RawFree(text.data)


cdef tuple _intern(words_hyp, words_ref):
    """The two word lists as IDs: reference words 0, 1, ... in order of appearance, hypothesis
    words theirs or -1 (equality as dict keys)."""
    ids = {}
    cdef array ref = array("i", [ids.setdefault(w, len(ids)) for w in words_ref])
    cdef array hyp = array("i", [ids.get(w, -1) for w in words_hyp])
    if len(hyp) >= MAX_WORDS or len(ref) >= MAX_WORDS:
        raise ValueError(f"TER: a sentence of more than {MAX_WORDS - 1} words")
    return hyp, ref


def edit_stats(words_hyp, words_ref):
    """`lib_ter.translation_edit_rate(words_hyp, words_ref)`: (number of edits, reference
    length)."""
    cdef array hyp, ref
    cdef _Scratch sc = _Scratch()
    cdef int64_t e
    cdef Py_ssize_t n, m
    hyp, ref = _intern(words_hyp, words_ref)
    n = len(hyp)
    m = len(ref)
    with nogil:
        e = ter_pair(&sc.w, <const word_t*>hyp.data.as_voidptr, n,
                     <const word_t*>ref.data.as_voidptr, m)
    if e < 0:
        _raise(<int>e, 0)
    return e, m


def edit_distance_trace(words_hyp, words_ref):
    """`lib_ter.BeamEditDistance(words_ref)(words_hyp)`: the beam edit distance and its trace
    (' ' match, 's' substitution, 'i' a reference word inserted, 'd' a hypothesis word deleted)."""
    cdef array hyp, ref
    cdef _Scratch sc = _Scratch()
    cdef Py_ssize_t n, m, t = 0, k
    cdef cost_t d = 0
    cdef int rc = 0
    hyp, ref = _intern(words_hyp, words_ref)
    n = len(hyp)
    m = len(ref)
    with nogil:
        if work_reserve(&sc.w, n, m) < 0 or matrix_layout(&sc.w, n, m) < 0:
            rc = ERR_NOMEM
        else:
            d = fill_matrix(&sc.w, <const word_t*>hyp.data.as_voidptr, n,
                            <const word_t*>ref.data.as_voidptr, m)
            t = make_trace(&sc.w, n, m)
            if t < 0:
                rc = <int>t
            else:
                # last operation first: reverse in place
                for k in range(t // 2):
                    sc.w.trace[k], sc.w.trace[t - 1 - k] = sc.w.trace[t - 1 - k], sc.w.trace[k]
    if rc < 0:
        _raise(rc, 0)
    return d, (<char*>sc.w.trace)[:t].decode("ascii")
