"""Compiled core: tokenize -> intern -> count n-grams -> integer BLEU statistics.

The pure-Python twin `_core_py.py` is the readable specification of every public name here; the
parity tests hold the two to identical results. Argument checks with user-facing messages live in
the Python layer (`metrics/bleu.py`); the checks here only keep the core memory-safe.
"""
from libc.stdint cimport uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memcmp, memcpy, memset
from libc.math cimport exp, log, fabs, isfinite
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawCalloc, PyMem_RawRealloc, PyMem_RawFree
from cpython.array cimport array, clone
import sys

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen, int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_Check(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "tokenize_13a",
           "tokenize", "bleu_scores_from_stats", "ids_segment_stats", "ids_pairwise_scores",
           "ids_self_stats"]

cdef enum:
    TOK_NONE = 0
    TOK_13A = 1
    TOK_INTL = 2
    TOK_ZH = 3
    TOK_CHAR = 4

cdef enum:
    SMOOTH_NONE = 0
    SMOOTH_FLOOR = 1
    SMOOTH_ADDK = 2
    SMOOTH_EXP = 3

# Error codes returned from nogil code; turned into exceptions once the GIL is back.
cdef enum:
    ERR_NOMEM = -1
    ERR_NO_REFS = -2

_TOKENIZERS = {"none": TOK_NONE, "13a": TOK_13A, "intl": TOK_INTL, "zh": TOK_ZH, "char": TOK_CHAR}
_SMOOTHERS = {"none": SMOOTH_NONE, "floor": SMOOTH_FLOOR, "add-k": SMOOTH_ADDK, "exp": SMOOTH_EXP}
# Python 3.12 made sum() of floats compensated (Neumaier); sacrebleu's score depends on it.
cdef bint _NEUMAIER_SUM = sys.version_info >= (3, 12)

# Strings are copied to code points in chunks of about this many, so that the GIL is held only
# for the copy and memory stays bounded whatever the corpus size.
cdef Py_ssize_t CHUNK_CHARS = 1 << 16
cdef Py_ssize_t CHUNK_LINES = 512


# ---------------------------------------------------------------------------------------------
# growable buffers

cdef int u32_reserve(U32Buf* b, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if need <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < need:
        cap = need
    if cap < 64:
        cap = 64
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


cdef int i64_reserve(I64Buf* b, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void* p
    if need <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < need:
        cap = need
    if cap < 64:
        cap = 64
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


cdef inline Py_ssize_t slot_of(hash_t h, int shift) noexcept nogil:
    # Fibonacci hashing: multiply, keep the high bits. Interned IDs and code points are small and
    # sequential, so a key must be mixed before it picks a slot or the keys cluster; the multiply
    # carries every bit of h into the high bits, at the cost of one instruction.
    return <Py_ssize_t>((h * 0x9E3779B97F4A7C15ULL) >> shift)


cdef inline int slot_shift(Py_ssize_t nslots) noexcept nogil:
    cdef int bits = 0
    while (<Py_ssize_t>1 << bits) < nslots:
        bits += 1
    return 64 - bits


# ---------------------------------------------------------------------------------------------
# vocabulary: exact code point sequences -> uint32 IDs

cdef inline bint same_u32(const uint32_t* a, const uint32_t* b, Py_ssize_t n) noexcept nogil:
    # keys are a few elements long: a loop beats a call to memcmp
    cdef Py_ssize_t i
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True


cdef inline hash_t hash_step(hash_t h, uint32_t c) noexcept nogil:
    return (h ^ c) * 0x100000001b3ULL


cdef void vocab_free(Vocab* v) noexcept nogil:
    PyMem_RawFree(v.slots)
    PyMem_RawFree(v.entries)
    memset(v, 0, sizeof(Vocab))


cdef int vocab_reset(Vocab* v, Py_ssize_t max_entries) noexcept nogil:
    """Empty the table and make room for max_entries tokens."""
    cdef Py_ssize_t nslots = 64, e
    cdef void* p
    while nslots < 2 * max_entries:
        nslots *= 2
    if max_entries > v.ecap:
        p = PyMem_RawRealloc(v.entries, <size_t>max_entries * sizeof(VocabEntry))
        if p == NULL:
            return ERR_NOMEM
        v.entries = <VocabEntry*>p
        v.ecap = max_entries
    if nslots > v.mask + 1:
        p = PyMem_RawRealloc(v.slots, <size_t>nslots * sizeof(VocabSlot))
        if p == NULL:
            return ERR_NOMEM
        v.slots = <VocabSlot*>p
        v.mask = nslots - 1
        v.shift = slot_shift(nslots)
        memset(v.slots, 0xff, <size_t>nslots * sizeof(VocabSlot))
    else:
        for e in range(v.n):
            v.slots[v.entries[e].slot].entry = -1
    v.n = 0
    return 0


cdef inline Py_ssize_t vocab_probe(const Vocab* v, const uint32_t* s, Py_ssize_t n, hash_t h) noexcept nogil:
    """The slot holding this token, or the empty slot where it would go."""
    cdef uint32_t tag = <uint32_t>h ^ <uint32_t>(h >> 32)
    cdef Py_ssize_t i = slot_of(h, v.shift)
    cdef int32_t e
    cdef const VocabEntry* en
    while True:
        e = v.slots[i].entry
        if e < 0:
            return i
        if v.slots[i].tag == tag:
            en = &v.entries[e]
            if en.h == h and en.length == n and same_u32(en.chars, s, n):
                return i
        i = (i + 1) & v.mask


cdef inline uint32_t vocab_lookup(const Vocab* v, const uint32_t* s, Py_ssize_t n, hash_t h) noexcept nogil:
    cdef int32_t e = v.slots[vocab_probe(v, s, n, h)].entry
    return OOV_ID if e < 0 else <uint32_t>e


cdef inline uint32_t vocab_intern(Vocab* v, const uint32_t* s, Py_ssize_t n, hash_t h) noexcept nogil:
    """ID of the token, added if new. The caller reserved room (vocab_reset) and keeps `s` alive."""
    cdef Py_ssize_t i = vocab_probe(v, s, n, h)
    cdef int32_t e = v.slots[i].entry
    cdef VocabEntry* en
    if e >= 0:
        return <uint32_t>e
    e = <int32_t>v.n
    en = &v.entries[e]
    en.h = h
    en.chars = s
    en.length = n
    en.slot = i
    v.slots[i].entry = e
    v.slots[i].tag = <uint32_t>h ^ <uint32_t>(h >> 32)
    v.n += 1
    return <uint32_t>e


cdef inline bint _grow(void** p, Py_ssize_t n, size_t item) noexcept nogil:
    cdef void* q = PyMem_RawRealloc(p[0], <size_t>n * item)
    if q == NULL:
        return False
    p[0] = q
    return True


# ---------------------------------------------------------------------------------------------
# 13a tokenization (sacrebleu's Tokenizer13a, pass for pass, on code points)

cdef uint32_t[9] PAT_SKIPPED = [0x3c, 0x73, 0x6b, 0x69, 0x70, 0x70, 0x65, 0x64, 0x3e]  # <skipped>
cdef uint32_t[2] PAT_DASH_NL = [0x2d, 0x0a]                                          # -\n
cdef uint32_t[6] PAT_QUOT = [0x26, 0x71, 0x75, 0x6f, 0x74, 0x3b]                     # &quot;
cdef uint32_t[5] PAT_AMP = [0x26, 0x61, 0x6d, 0x70, 0x3b]                            # &amp;
cdef uint32_t[4] PAT_LT = [0x26, 0x6c, 0x74, 0x3b]                                  # &lt;
cdef uint32_t[4] PAT_GT = [0x26, 0x67, 0x74, 0x3b]                                  # &gt;
cdef uint32_t[1] REP_QUOT = [0x22]
cdef uint32_t[1] REP_AMP = [0x26]
cdef uint32_t[1] REP_LT = [0x3c]
cdef uint32_t[1] REP_GT = [0x3e]


cdef int replace_pass(const uint32_t* s, Py_ssize_t n, const uint32_t* pat, Py_ssize_t m,
                      const uint32_t* rep, Py_ssize_t k, U32Buf* out) noexcept nogil:
    """str.replace: left to right, non-overlapping."""
    cdef Py_ssize_t i = 0
    out.size = 0
    if u32_reserve(out, n) < 0:
        return ERR_NOMEM
    while i < n:
        if s[i] == pat[0] and i + m <= n and memcmp(s + i, pat, <size_t>m * sizeof(uint32_t)) == 0:
            if k and u32_reserve(out, out.size + k + (n - i)) < 0:
                return ERR_NOMEM
            memcpy(out.data + out.size, rep, <size_t>k * sizeof(uint32_t))
            out.size += k
            i += m
        else:
            out.data[out.size] = s[i]
            out.size += 1
            i += 1
    return 0


# ASCII character classes of the 13a rules; nothing above U+007F is in any of them.
cdef enum:
    C_SYMBOL = 1        # [\{-\~\[-\` -\&\(-\+\:-\@\/]
    C_DIGIT = 2         # [0-9]
    C_PERIOD_COMMA = 4  # [\.,]
    C_DASH = 8          # -
    C_ACTIVE = 14       # a character rules 2-4 react to: digit, period, comma, dash
    C_RARE = 16         # < & and newline: 13a's language-independent part may change the line
    C_PADDED = 32       # a symbol other than the space: rule 1 puts spaces around it
    C_SPACE = 64        # ASCII whitespace (str.split's)

cdef unsigned char[128] ASCII_CLASS
cdef int _c
for _c in range(128):
    ASCII_CLASS[_c] = 0
    if ((0x7B <= _c <= 0x7E) or (0x5B <= _c <= 0x60) or (0x20 <= _c <= 0x26)
            or (0x28 <= _c <= 0x2B) or (0x3A <= _c <= 0x40) or _c == 0x2F):
        ASCII_CLASS[_c] |= C_SYMBOL
        if _c != 0x20:
            ASCII_CLASS[_c] |= C_PADDED
    if 0x30 <= _c <= 0x39:
        ASCII_CLASS[_c] |= C_DIGIT
    if _c == 0x2E or _c == 0x2C:
        ASCII_CLASS[_c] |= C_PERIOD_COMMA
    if _c == 0x2D:
        ASCII_CLASS[_c] |= C_DASH
    if _c == 0x3C or _c == 0x26 or _c == 0x0A:
        ASCII_CLASS[_c] |= C_RARE
    if Py_UNICODE_ISSPACE(_c):
        ASCII_CLASS[_c] |= C_SPACE

cdef inline bint is_space(uint32_t c) noexcept nogil:
    """str.split's whitespace (Py_UNICODE_ISSPACE), with the ASCII case from our own table."""
    if c < 128:
        return (ASCII_CLASS[c] & C_SPACE) != 0
    return Py_UNICODE_ISSPACE(c)


cdef inline unsigned char char_class(uint32_t c) noexcept nogil:
    return ASCII_CLASS[c] if c < 128 else 0


cdef enum:
    NO_CHAR = 0xFFFFFFFF   # above every code point: "no pending character"


# The regex passes of 13a are 2-character rewrites applied left to right without overlap, so each is
# a transducer with one pending character; chaining them (rule 1 -> 2 -> 3 -> 4 -> whitespace
# splitter) reads the line once and builds no intermediate strings. A rule that fails to match at the
# pending character emits it and keeps the new one pending, which is exactly re.sub's scan. Each rule
# writes at most 4 characters to `out` and returns how many.

cdef inline int rule1(uint32_t c, uint32_t* out) noexcept nogil:
    # symbol -> ' \1 '
    if char_class(c) & C_SYMBOL:
        out[0] = 0x20
        out[1] = c
        out[2] = 0x20
        return 3
    out[0] = c
    return 1


cdef inline int rule2(uint32_t* pending, uint32_t c, uint32_t* out) noexcept nogil:
    # ([^0-9])([\.,]) -> '\1 \2 '
    cdef uint32_t prev = pending[0]
    if prev == NO_CHAR:
        pending[0] = c
        return 0
    if not (char_class(prev) & C_DIGIT) and (char_class(c) & C_PERIOD_COMMA):
        out[0] = prev
        out[1] = 0x20
        out[2] = c
        out[3] = 0x20
        pending[0] = NO_CHAR
        return 4
    out[0] = prev
    pending[0] = c
    return 1


cdef inline int rule3(uint32_t* pending, uint32_t c, uint32_t* out) noexcept nogil:
    # ([\.,])([^0-9]) -> ' \1 \2'
    cdef uint32_t prev = pending[0]
    if prev == NO_CHAR:
        pending[0] = c
        return 0
    if (char_class(prev) & C_PERIOD_COMMA) and not (char_class(c) & C_DIGIT):
        out[0] = 0x20
        out[1] = prev
        out[2] = 0x20
        out[3] = c
        pending[0] = NO_CHAR
        return 4
    out[0] = prev
    pending[0] = c
    return 1


cdef inline int rule4(uint32_t* pending, uint32_t c, uint32_t* out) noexcept nogil:
    # ([0-9])(-) -> '\1 \2 '
    cdef uint32_t prev = pending[0]
    if prev == NO_CHAR:
        pending[0] = c
        return 0
    if (char_class(prev) & C_DIGIT) and c == 0x2D:
        out[0] = prev
        out[1] = 0x20
        out[2] = c
        out[3] = 0x20
        pending[0] = NO_CHAR
        return 4
    out[0] = prev
    pending[0] = c
    return 1


cdef struct Chain:
    uint32_t p2, p3, p4     # pending character of rules 2, 3, 4 (NO_CHAR: none)
    uint32_t* out           # token characters (room reserved by the caller)
    Py_ssize_t nc
    int64_t* end            # token ends and hashes
    int64_t* hs
    Py_ssize_t nt
    hash_t h
    bint in_token


cdef inline void chain_sink(Chain* st, uint32_t c) noexcept nogil:
    """str.split(): whitespace ends a token, anything else extends it."""
    if is_space(c):
        if st.in_token:
            st.in_token = False
            st.end[st.nt] = st.nc
            st.hs[st.nt] = <int64_t>st.h
            st.nt += 1
    else:
        if not st.in_token:
            st.in_token = True
            st.h = 0xcbf29ce484222325ULL
        st.h = hash_step(st.h, c)
        st.out[st.nc] = c
        st.nc += 1


cdef void chain_push(Chain* chain, uint32_t c) noexcept nogil:
    """One character through rules 1-4 into the splitter."""
    cdef uint32_t[4] o1, o2, o3, o4
    cdef int n1, n2, n3, n4, j1, j2, j3, j4
    # work on a local copy: through the pointer, every store of a token character would force
    # the fields to be reloaded (the build has no strict aliasing)
    cdef Chain st = chain[0]
    n1 = rule1(c, o1)
    for j1 in range(n1):
        n2 = rule2(&st.p2, o1[j1], o2)
        for j2 in range(n2):
            n3 = rule3(&st.p3, o2[j2], o3)
            for j3 in range(n3):
                n4 = rule4(&st.p4, o3[j3], o4)
                for j4 in range(n4):
                    chain_sink(&st, o4[j4])
    chain[0] = st


cdef void chain_flush(Chain* st) noexcept nogil:
    """End of line: drain the pending characters, rule 2's first (its output goes on to 3, 4)."""
    cdef uint32_t[4] o3, o4
    cdef int n3, n4, j3, j4
    cdef uint32_t c
    if st.p2 != NO_CHAR:
        c = st.p2
        st.p2 = NO_CHAR
        n3 = rule3(&st.p3, c, o3)
        for j3 in range(n3):
            n4 = rule4(&st.p4, o3[j3], o4)
            for j4 in range(n4):
                chain_sink(st, o4[j4])
    if st.p3 != NO_CHAR:
        c = st.p3
        st.p3 = NO_CHAR
        n4 = rule4(&st.p4, c, o4)
        for j4 in range(n4):
            chain_sink(st, o4[j4])
    if st.p4 != NO_CHAR:
        chain_sink(st, st.p4)
        st.p4 = NO_CHAR
    chain_sink(st, 0x20)


cdef inline int is_active(uint32_t c) noexcept nogil:
    return c == NO_CHAR or (c < 128 and (ASCII_CLASS[c] & C_ACTIVE) != 0)


cdef inline bint is_digit(uint32_t c) noexcept nogil:
    return c < 128 and (ASCII_CLASS[c] & C_DIGIT) != 0


cdef inline bint is_period_comma(uint32_t c) noexcept nogil:
    return c < 128 and (ASCII_CLASS[c] & C_PERIOD_COMMA) != 0


cdef inline bint no_rule_fires(uint32_t p2, uint32_t p3, uint32_t p4, uint32_t x) noexcept nogil:
    """Pushing x (after rule 1) into rules 2-4 with these pending characters fires no rule: rule 2
    would need p2 non-digit and x in [.,]; it then passes p2 to rule 3, which would need p3 in [.,]
    and p2 non-digit; that passes p3 to rule 4, which would need p4 a digit and p3 == '-'."""
    if p2 == NO_CHAR or p3 == NO_CHAR or p4 == NO_CHAR:
        return False
    if not is_digit(p2) and (is_period_comma(x) or is_period_comma(p3)):
        return False
    return not (p3 == 0x2D and is_digit(p4))


cdef inline int active_pending(const Chain* st) noexcept nogil:
    """How many pending characters rules 2-4 may react to (NO_CHAR counts: the fast path needs
    three real characters pending)."""
    return is_active(st.p2) + is_active(st.p3) + is_active(st.p4)


# ---------------------------------------------------------------------------------------------
# Unicode classes of intl and zh: a two-level table (256 code points per block, identical blocks
# shared) built at import from the generated runs in _unicode_tables.py, the same data the
# pure-Python twin reads. Bits 0-1: intl class (regex's \p{N}, \p{P}, \p{S}); bit 2: zh pads it.

cdef enum:
    U_N = 1
    U_P = 2
    U_S = 3
    U_INTL = 3          # mask of the intl class
    U_ZH = 4


def _class_blocks(intl_runs, zh_runs):
    full = bytearray(0x110000)
    bounds = list(intl_runs[0::2]) + [0x110000]
    for k, cls in enumerate(intl_runs[1::2]):
        full[bounds[k]:bounds[k + 1]] = bytes([cls]) * (bounds[k + 1] - bounds[k])
    with_zh = bytes(b | U_ZH for b in range(256))
    bounds = list(zh_runs[0::2]) + [0x110000]
    for k, cls in enumerate(zh_runs[1::2]):
        if cls:
            full[bounds[k]:bounds[k + 1]] = full[bounds[k]:bounds[k + 1]].translate(with_zh)
    seen = {}
    index = array("H")
    blocks = bytearray()
    for b in range(0x1100):
        chunk = bytes(full[b << 8:(b + 1) << 8])
        if chunk not in seen:
            seen[chunk] = len(seen)
            blocks += chunk
        index.append(seen[chunk])
    return index, bytes(blocks)


# built on first use of intl or zh (import stays cheap), under the GIL, then read-only
_CLASS_TABLES = None
cdef const unsigned short* UINDEX = NULL
cdef const unsigned char* UBLOCKS = NULL


cdef int ensure_class_tables() except -1:
    global _CLASS_TABLES, UINDEX, UBLOCKS
    if UBLOCKS == NULL:
        from ._unicode_tables import INTL_RUNS, ZH_RUNS
        _CLASS_TABLES = _class_blocks(INTL_RUNS, ZH_RUNS)
        UINDEX = (<array>_CLASS_TABLES[0]).data.as_ushorts
        UBLOCKS = <bytes>_CLASS_TABLES[1]
    return 0


cdef inline unsigned char uclass(uint32_t c) noexcept nogil:
    return UBLOCKS[(<Py_ssize_t>UINDEX[c >> 8] << 8) | (c & 0xFF)]


# intl: sacrebleu's three regex passes, (\P{N})(\p{P}) -> '\1 \2 ', then (\p{P})(\P{N}) -> ' \1 \2',
# then (\p{S}) -> ' \1 ', chained like 13a's rules: pass 1 keeps its pending character in p2,
# pass 2 in p3; pass 3 needs none (a symbol becomes a token of its own).

cdef inline void intl_pass3(Chain* st, uint32_t x) noexcept nogil:
    if (uclass(x) & U_INTL) == U_S:
        chain_sink(st, 0x20)
        chain_sink(st, x)
        chain_sink(st, 0x20)
    else:
        chain_sink(st, x)


cdef inline void intl_pass2(Chain* st, uint32_t x) noexcept nogil:
    cdef uint32_t prev = st.p3
    if prev == NO_CHAR:
        st.p3 = x
    elif (uclass(prev) & U_INTL) == U_P and (uclass(x) & U_INTL) != U_N:
        st.p3 = NO_CHAR
        intl_pass3(st, 0x20)
        intl_pass3(st, prev)
        intl_pass3(st, 0x20)
        intl_pass3(st, x)
    else:
        st.p3 = x
        intl_pass3(st, prev)


cdef inline void intl_push(Chain* st, uint32_t c) noexcept nogil:
    cdef uint32_t prev = st.p2
    if prev == NO_CHAR:
        st.p2 = c
    elif (uclass(prev) & U_INTL) != U_N and (uclass(c) & U_INTL) == U_P:
        st.p2 = NO_CHAR
        intl_pass2(st, prev)
        intl_pass2(st, 0x20)
        intl_pass2(st, c)
        intl_pass2(st, 0x20)
    else:
        st.p2 = c
        intl_pass2(st, prev)


cdef void intl_line(Chain* chain, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    cdef Chain st = chain[0]
    cdef Py_ssize_t i
    cdef uint32_t c
    st.p2 = st.p3 = NO_CHAR
    for i in range(n):
        c = s[i]
        if ((uclass(c) & U_INTL) == 0 and st.p3 != NO_CHAR and (uclass(st.p3) & U_INTL) != U_P
                and st.p2 != NO_CHAR):
            # a plain character fires no pass: everything shifts by one
            c, st.p2, st.p3 = st.p3, c, st.p2
            intl_pass3(&st, c)
        else:
            intl_push(&st, c)
    if st.p2 != NO_CHAR:
        c = st.p2
        st.p2 = NO_CHAR
        intl_pass2(&st, c)
    if st.p3 != NO_CHAR:
        c = st.p3
        st.p3 = NO_CHAR
        intl_pass3(&st, c)
    chain_sink(&st, 0x20)
    chain[0] = st


cdef int zh_spread(const uint32_t* s, Py_ssize_t n, U32Buf* a) noexcept nogil:
    """zh's first step into a: line.strip(), then a space either side of every 'Chinese' character."""
    cdef Py_ssize_t i = 0, j = 0
    cdef uint32_t c
    while i < n and Py_UNICODE_ISSPACE(s[i]):
        i += 1
    while n > i and Py_UNICODE_ISSPACE(s[n - 1]):
        n -= 1
    if u32_reserve(a, 3 * (n - i) + 1) < 0:
        return ERR_NOMEM
    for i in range(i, n):
        c = s[i]
        if c >= 0x2001 and uclass(c) & U_ZH:
            a.data[j] = 0x20
            a.data[j + 1] = c
            a.data[j + 2] = 0x20
            j += 3
        else:
            a.data[j] = c
            j += 1
    a.size = j
    return 0


cdef int replace_13a_entities(const uint32_t* s, Py_ssize_t n, U32Buf* a, U32Buf* b) noexcept nogil:
    """13a's language-independent part (<skipped>, -\\n, \\n, entities); the result is in b."""
    cdef Py_ssize_t i
    if replace_pass(s, n, PAT_SKIPPED, 9, NULL, 0, a) < 0:
        return ERR_NOMEM
    if replace_pass(a.data, a.size, PAT_DASH_NL, 2, NULL, 0, b) < 0:
        return ERR_NOMEM
    for i in range(b.size):
        if b.data[i] == 0x0A:
            b.data[i] = 0x20
    # sequential, as in sacrebleu: '&amp;lt;' becomes '<'
    if (replace_pass(b.data, b.size, PAT_QUOT, 6, REP_QUOT, 1, a) < 0
            or replace_pass(a.data, a.size, PAT_AMP, 5, REP_AMP, 1, b) < 0
            or replace_pass(b.data, b.size, PAT_LT, 4, REP_LT, 1, a) < 0
            or replace_pass(a.data, a.size, PAT_GT, 4, REP_GT, 1, b) < 0):
        return ERR_NOMEM
    return 0


cdef int split_tokens(const uint32_t* s, Py_ssize_t n, int tok_mode, U32Buf* a, U32Buf* b,
                      U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """Tokenize s as sacrebleu's tokenizer `tok_mode` followed by str.split(), appending: the
    tokens' characters to `chars`, their end offsets to `ends`, their hashes to `hashes`."""
    if tok_mode == TOK_INTL or tok_mode == TOK_CHAR:
        return split_other(s, n, tok_mode, chars, ends, hashes)
    if tok_mode == TOK_ZH:
        # zh = strip, pad the Chinese characters, then 13a's rules without 13a's first part and
        # without its padding of the line
        if zh_spread(s, n, a) < 0:
            return ERR_NOMEM
        return split_13a(a.data, a.size, TOK_ZH, a, b, chars, ends, hashes)
    if tok_mode == TOK_13A:
        # a constant mode, so the inlined copy is 13a's loop as it was before zh shared it
        return split_13a(s, n, TOK_13A, a, b, chars, ends, hashes)
    return split_13a(s, n, TOK_NONE, a, b, chars, ends, hashes)


cdef int split_other(const uint32_t* s, Py_ssize_t n, int tok_mode, U32Buf* chars, I64Buf* ends,
                     I64Buf* hashes) noexcept nogil:
    """intl and char (their own loops, so that 13a's hot loop stays as the compiler laid it out)."""
    cdef Py_ssize_t i
    cdef uint32_t x
    cdef Chain st
    # intl only inserts spaces: at most n token characters and n tokens
    if (u32_reserve(chars, chars.size + n) < 0 or i64_reserve(ends, ends.size + n + 1) < 0
            or i64_reserve(hashes, hashes.size + n + 1) < 0):
        return ERR_NOMEM
    st.out = chars.data
    st.end = ends.data
    st.hs = hashes.data
    st.nc = chars.size
    st.nt = ends.size
    st.h = 0
    st.in_token = False
    if tok_mode == TOK_INTL:
        intl_line(&st, s, n)
    else:
        # " ".join(line): every non-space code point is a token
        for i in range(n):
            x = s[i]
            if not is_space(x):
                st.out[st.nc] = x
                st.nc += 1
                st.end[st.nt] = st.nc
                st.hs[st.nt] = <int64_t>hash_step(0xcbf29ce484222325ULL, x)
                st.nt += 1
    chars.size = st.nc
    ends.size = st.nt
    hashes.size = st.nt
    return 0


cdef inline int split_13a(const uint32_t* s, Py_ssize_t n, int tok_mode, U32Buf* a, U32Buf* b,
                   U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """none, 13a and zh (13a's rules on zh's spread-out line)."""
    cdef Py_ssize_t i, j, k, nc, nt
    cdef uint32_t c, x, p2, p3, p4
    cdef uint32_t[3] q
    cdef unsigned char cls
    cdef Chain st
    cdef int active
    cdef hash_t h
    cdef bint in_token, replaced = tok_mode != TOK_13A, restart
    cdef uint32_t* out
    cdef int64_t* end
    cdef int64_t* hs
    cdef bint pad = tok_mode == TOK_13A
    while True:
        # the rules only insert spaces: a line yields at most n token characters and n tokens
        if (u32_reserve(chars, chars.size + n) < 0 or i64_reserve(ends, ends.size + n + 1) < 0
                or i64_reserve(hashes, hashes.size + n + 1) < 0):
            return ERR_NOMEM
        # the hot loops work on locals (the build has no strict aliasing, so struct fields would be
        # reloaded after every store); the Chain struct carries them through the rare slow steps
        out = chars.data
        end = ends.data
        hs = hashes.data
        nc = chars.size
        nt = ends.size
        h = 0
        in_token = False
        if tok_mode == TOK_NONE:
            # the splitter, as in the 13a fast path below (written out in both hot loops)
            for i in range(n + 1):
                x = s[i] if i < n else 0x20
                if is_space(x):
                    if in_token:
                        in_token = False
                        end[nt] = nc
                        hs[nt] = <int64_t>h
                        nt += 1
                else:
                    if not in_token:
                        in_token = True
                        h = 0xcbf29ce484222325ULL
                    h = hash_step(h, x)
                    out[nc] = x
                    nc += 1
            break
        st.p2 = st.p3 = st.p4 = NO_CHAR
        st.out = out
        st.end = end
        st.hs = hs
        st.nc = nc
        st.nt = nt
        st.h = h
        st.in_token = in_token
        restart = False
        if pad:
            chain_push(&st, 0x20)   # f' {line} '
        p2, p3, p4, nc, nt, h, in_token = st.p2, st.p3, st.p4, st.nc, st.nt, st.h, st.in_token
        active = active_pending(&st)
        for i in range(n):
            c = s[i]
            cls = ASCII_CLASS[c] if c < 128 else 0
            if cls & C_RARE and not replaced:
                # the line needs 13a's language-independent part first: undo, rewrite, redo
                restart = True
                break
            if (active == 0 and not (cls & C_ACTIVE)) or (
                    not (cls & C_SYMBOL) and no_rule_fires(p2, p3, p4, c)):
                # No rule fires (rules 2-4 only react to digits, '.', ',' and '-', so with none
                # of them pending or arriving none can; else no_rule_fires checks the three
                # patterns): the pending characters shift and the oldest goes to the splitter,
                # exactly as the chain would do it. Rule 1 pads a symbol with spaces (three
                # shifts); the spaces it puts around a space change nothing when nothing is
                # pending that rules 2-4 react to, since they only shift neutral characters.
                if not (cls & C_PADDED):
                    # one shift: the common case, written out straight
                    x = p4
                    p4 = p3
                    p3 = p2
                    p2 = c
                    if active or cls & C_ACTIVE:
                        # the slower test above let it through: recount what is pending
                        active = is_active(p2) + is_active(p3) + is_active(p4)
                    if is_space(x):
                        if in_token:
                            in_token = False
                            end[nt] = nc
                            hs[nt] = <int64_t>h
                            nt += 1
                    else:
                        if not in_token:
                            in_token = True
                            h = 0xcbf29ce484222325ULL
                        h = hash_step(h, x)
                        out[nc] = x
                        nc += 1
                    continue
                q[0] = p4
                q[1] = p3
                q[2] = p2
                p4 = 0x20
                p3 = c
                p2 = 0x20
                for j in range(3):
                    x = q[j]
                    if is_space(x):
                        if in_token:
                            in_token = False
                            end[nt] = nc
                            hs[nt] = <int64_t>h
                            nt += 1
                    else:
                        if not in_token:
                            in_token = True
                            h = 0xcbf29ce484222325ULL
                        h = hash_step(h, x)
                        out[nc] = x
                        nc += 1
            else:
                st.p2, st.p3, st.p4, st.nc, st.nt, st.h, st.in_token = p2, p3, p4, nc, nt, h, in_token
                chain_push(&st, c)
                p2, p3, p4, nc, nt, h, in_token = st.p2, st.p3, st.p4, st.nc, st.nt, st.h, st.in_token
                active = active_pending(&st)
        if restart:
            if replace_13a_entities(s, n, a, b) < 0:
                return ERR_NOMEM
            s = b.data
            n = b.size
            replaced = True
            continue
        st.p2, st.p3, st.p4, st.nc, st.nt, st.h, st.in_token = p2, p3, p4, nc, nt, h, in_token
        if pad:
            chain_push(&st, 0x20)
        chain_flush(&st)
        nc, nt = st.nc, st.nt
        break
    chars.size = nc
    ends.size = nt
    hashes.size = nt
    return 0


# ---------------------------------------------------------------------------------------------
# per-call scratch space: one per call, so concurrent calls on one RefSet never share buffers

cdef class _Workspace:
    cdef U32Buf text        # code points of the current chunk of hypotheses
    cdef I64Buf line_off    # hypothesis k of the chunk spans text[line_off[k]:line_off[k+1]]
    cdef U32Buf rtext       # code points of the chunk's references (when they are not cached)
    cdef I64Buf rline_off   # reference line j spans rtext[rline_off[j]:rline_off[j+1]]
    cdef I64Buf rseg        # segment k of the chunk owns reference lines rseg[k]..rseg[k+1]-1
    cdef U32Buf a, b        # 13a's rare whole-line replacements
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

    def __dealloc__(self):
        PyMem_RawFree(self.text.data)
        PyMem_RawFree(self.rtext.data)
        PyMem_RawFree(self.a.data)
        PyMem_RawFree(self.b.data)
        PyMem_RawFree(self.tok_chars.data)
        PyMem_RawFree(self.rchars.data)
        PyMem_RawFree(self.ids.data)
        PyMem_RawFree(self.ref_ids.data)
        PyMem_RawFree(self.line_off.data)
        PyMem_RawFree(self.rline_off.data)
        PyMem_RawFree(self.rseg.data)
        PyMem_RawFree(self.tok_ends.data)
        PyMem_RawFree(self.tok_hash.data)
        PyMem_RawFree(self.rends.data)
        PyMem_RawFree(self.rhash.data)
        PyMem_RawFree(self.rref.data)
        PyMem_RawFree(self.ref_off.data)
        PyMem_RawFree(self.stats.data)
        vocab_free(&self.vocab)
        PyMem_RawFree(self.table.slots)
        PyMem_RawFree(self.table.entries)
        PyMem_RawFree(self.table.touched)

    cdef size_t nbytes(self):
        return (4 * (self.text.cap + self.rtext.cap + self.a.cap + self.b.cap + self.tok_chars.cap
                     + self.rchars.cap + self.ids.cap + self.ref_ids.cap)
                + 8 * (self.line_off.cap + self.rline_off.cap + self.rseg.cap + self.tok_ends.cap
                       + self.tok_hash.cap + self.rends.cap + self.rhash.cap + self.rref.cap
                       + self.ref_off.cap + self.stats.cap)
                + self.vocab.ecap * sizeof(VocabEntry) + (self.vocab.mask + 1) * sizeof(VocabSlot)
                + self.table.ecap * (sizeof(NgramEntry) + sizeof(Py_ssize_t))
                + (self.table.mask + 1) * sizeof(Py_ssize_t))

    cdef Py_ssize_t chunk_end(self, seq, Py_ssize_t start) except -1:
        """Where the chunk of lines starting at `start` ends: a bounded number of lines and
        characters, so the GIL is held only for the copy and memory stays bounded."""
        cdef Py_ssize_t n = len(seq), i = start, chars = 0
        while i < n and (i == start or (i - start < CHUNK_LINES and chars < CHUNK_CHARS)):
            line = seq[i]
            if PyUnicode_Check(line):
                chars += PyUnicode_GET_LENGTH(line)
            i += 1
        return i


cdef int load_lines(lines, Py_ssize_t first_index, bint lowercase, U32Buf* text,
                    I64Buf* off) except -1:
    """Copy the strings of `lines` into text as code points; line j spans text[off[j]:off[j+1]]."""
    cdef Py_ssize_t ln, j = 0
    text.size = 0
    off.size = 0
    if i64_push(off, 0) < 0:
        raise MemoryError()
    for line in lines:
        if not PyUnicode_Check(line):
            raise TypeError(f"line {first_index + j} is {type(line).__name__}, not str")
        if lowercase:
            line = line.lower()
        ln = PyUnicode_GET_LENGTH(line)
        if u32_reserve(text, text.size + ln + 1) < 0:
            raise MemoryError()
        if ln:
            PyUnicode_AsUCS4(line, <Py_UCS4*>(text.data + text.size), ln, 0)
        text.size += ln
        if i64_push(off, text.size) < 0:
            raise MemoryError()
        j += 1
    return 0


# Workspaces are reused across calls (taken and returned under the GIL): fresh buffers would cost
# page faults on every call. Only a few small ones are kept.
cdef list _POOL = []
cdef Py_ssize_t POOL_SIZE = 4
cdef size_t POOL_MAX_BYTES = 16 << 20


cdef _Workspace acquire_workspace():
    if _POOL:
        return <_Workspace>_POOL.pop()
    return _Workspace()


cdef void release_workspace(_Workspace ws):
    if len(_POOL) < POOL_SIZE and ws.nbytes() <= POOL_MAX_BYTES:
        _POOL.append(ws)


cdef inline Py_ssize_t rstrip_len(const uint32_t* s, Py_ssize_t n) noexcept nogil:
    while n > 0 and Py_UNICODE_ISSPACE(s[n - 1]):
        n -= 1
    return n


cdef inline int tokenize_line(_Workspace ws, const U32Buf* text, const I64Buf* off, Py_ssize_t k,
                              int tok_mode, U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """Line k of a loaded chunk as sacrebleu tokenizes it (rstrip, tokenizer, split), appended."""
    cdef const uint32_t* s = text.data + off.data[k]
    cdef Py_ssize_t n = rstrip_len(s, off.data[k + 1] - off.data[k])
    return split_tokens(s, n, tok_mode, &ws.a, &ws.b, chars, ends, hashes)


cdef int segment_ids(_Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                     const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                     Py_ssize_t r1) noexcept nogil:
    """Intern the tokens of references r0..r1-1 (IDs 0, 1, ...) into ws.ref_ids / ws.ref_off, then
    look the hypothesis tokens in ws.tok_* up into ws.ids. Reference r owns tokens
    ref_tok[r]..ref_tok[r+1]-1; token t is chars[tok_end[t-1]:tok_end[t]] (from 0 for t == 0)."""
    cdef Py_ssize_t t0 = ref_tok[r0], t1 = ref_tok[r1], t, r, start
    ws.ref_ids.size = 0
    ws.ref_off.size = 0
    ws.ids.size = 0
    if (vocab_reset(&ws.vocab, t1 - t0) < 0 or u32_reserve(&ws.ref_ids, t1 - t0) < 0
            or i64_reserve(&ws.ref_off, r1 - r0 + 1) < 0
            or u32_reserve(&ws.ids, ws.tok_ends.size) < 0):
        return ERR_NOMEM
    ws.ref_off.data[0] = 0
    for r in range(r0, r1):
        for t in range(ref_tok[r], ref_tok[r + 1]):
            start = tok_end[t - 1] if t > 0 else 0
            ws.ref_ids.data[t - t0] = vocab_intern(&ws.vocab, chars + start, tok_end[t] - start,
                                                   <hash_t>tok_hash[t])
        ws.ref_off.data[r - r0 + 1] = ref_tok[r + 1] - t0
    ws.ref_ids.size = t1 - t0
    ws.ref_off.size = r1 - r0 + 1
    start = 0
    for t in range(ws.tok_ends.size):
        ws.ids.data[t] = vocab_lookup(&ws.vocab, ws.tok_chars.data + start,
                                      ws.tok_ends.data[t] - start, <hash_t>ws.tok_hash.data[t])
        start = ws.tok_ends.data[t]
    ws.ids.size = ws.tok_ends.size
    return 0


# ---------------------------------------------------------------------------------------------
# n-gram statistics of one segment

cdef inline hash_t ngram_step(hash_t h, uint32_t tid) noexcept nogil:
    return (h ^ tid) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL


# A slot holds -1 (empty) or the entry index in its low 32 bits and 31 bits of the n-gram's hash
# above them, so a probe that meets another n-gram rarely has to read that entry (a cache miss).
cdef inline Py_ssize_t slot_entry(Py_ssize_t v) noexcept nogil:
    return v if v < 0 else (v & ((<Py_ssize_t>1 << 32) - 1))


cdef inline Py_ssize_t slot_value(Py_ssize_t e, hash_t h) noexcept nogil:
    return <Py_ssize_t>((h >> 33) << 32) | e


cdef int table_prepare(NgramTable* t, Py_ssize_t max_entries) noexcept nogil:
    """Empty the table and make room for max_entries n-grams."""
    cdef Py_ssize_t nslots, e
    cdef void* p
    if max_entries >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # entry indices must fit the slots' low 32 bits
    if max_entries > t.ecap:
        p = PyMem_RawRealloc(t.entries, <size_t>max_entries * sizeof(NgramEntry))
        if p == NULL:
            return ERR_NOMEM
        t.entries = <NgramEntry*>p
        p = PyMem_RawRealloc(t.touched, <size_t>max_entries * sizeof(Py_ssize_t))
        if p == NULL:
            return ERR_NOMEM
        t.touched = <Py_ssize_t*>p
        t.ecap = max_entries
    nslots = 16
    while nslots < 2 * max_entries:
        nslots *= 2
    if nslots > t.mask + 1:
        p = PyMem_RawRealloc(t.slots, <size_t>nslots * sizeof(Py_ssize_t))
        if p == NULL:
            return ERR_NOMEM
        t.slots = <Py_ssize_t*>p
        t.mask = nslots - 1
        t.shift = slot_shift(nslots)
        memset(t.slots, 0xff, <size_t>nslots * sizeof(Py_ssize_t))
    elif t.n * 16 > t.mask:
        # a well-filled table (long rows): one sequential pass beats a random write per entry
        memset(t.slots, 0xff, <size_t>(t.mask + 1) * sizeof(Py_ssize_t))
    else:
        for e in range(t.n):
            t.slots[t.entries[e].slot] = -1
    t.n = 0
    t.ntouched = 0
    return 0


cdef inline Py_ssize_t table_probe(const NgramTable* t, const uint32_t* hyp, const uint32_t* key,
                                   int order, hash_t h) noexcept nogil:
    cdef Py_ssize_t i = slot_of(h, t.shift)
    cdef Py_ssize_t v, tag = slot_value(0, h)
    cdef const NgramEntry* en
    while True:
        v = t.slots[i]
        if v < 0:
            return i
        if (v & ~((<Py_ssize_t>1 << 32) - 1)) == tag:
            en = &t.entries[v & ((<Py_ssize_t>1 << 32) - 1)]
            if en.h == h and en.order == order and same_u32(hyp + en.pos, key, order):
                return i
        i = (i + 1) & t.mask


cdef int count_segment(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                       const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0, Py_ssize_t r1,
                       int max_order, bint oov_ends, int64_t* out) noexcept nogil:
    """out = [hyp_len, ref_len, correct_1..N, total_1..N] (sacrebleu's segment statistics).
    oov_ends: OOV_ID is the interning's never-matching token (string path); raw token IDs
    (ids_segment_stats) use the whole uint32 range, so there it is an ordinary ID."""
    cdef int64_t* correct = out + 2
    cdef int64_t* total = out + 2 + max_order
    cdef Py_ssize_t i, j, e, slot, rlen, m, diff, best_diff = -1
    cdef int64_t best_len = -1
    cdef int n, nmax
    cdef hash_t h
    cdef const uint32_t* ref
    cdef NgramEntry* en

    out[0] = hyp_len
    for n in range(1, max_order + 1):
        correct[n - 1] = 0
        total[n - 1] = hyp_len - n + 1 if hyp_len >= n else 0
    # closest reference length, ties to the shorter one
    for i in range(r0, r1):
        rlen = ref_off[i + 1] - ref_off[i]
        diff = hyp_len - rlen if hyp_len >= rlen else rlen - hyp_len
        if best_diff == -1 or diff < best_diff:
            best_diff = diff
            best_len = rlen
        elif diff == best_diff and rlen < best_len:
            best_len = rlen
    out[1] = best_len
    if r1 == r0:
        return ERR_NO_REFS if hyp_len > 0 else 0
    if hyp_len == 0:
        return 0

    nmax = max_order if max_order < hyp_len else <int>hyp_len
    if table_prepare(t, hyp_len * nmax) < 0:
        return ERR_NOMEM
    # distinct hypothesis n-grams; one holding an OOV token can never match, nor can any longer
    # n-gram from the same start
    for i in range(hyp_len):
        h = 0
        for n in range(1, max_order + 1):
            if i + n > hyp_len or (oov_ends and hyp[i + n - 1] == OOV_ID):
                break
            h = ngram_step(h, hyp[i + n - 1])
            slot = table_probe(t, hyp, hyp + i, n, h)
            e = slot_entry(t.slots[slot])
            if e >= 0:
                t.entries[e].hyp_count += 1
            else:
                e = t.n
                t.n += 1
                en = &t.entries[e]
                en.h = h
                en.pos = i
                en.slot = slot
                en.order = n
                en.hyp_count = 1
                en.ref_max = 0
                en.ref_count = 0
                t.slots[slot] = slot_value(e, h)
    # clip: max count over the references, only for n-grams the hypothesis has; a reference n-gram
    # missing from the table means every longer one from the same start is missing too
    for i in range(r0, r1):
        ref = ref_ids + ref_off[i]
        rlen = ref_off[i + 1] - ref_off[i]
        t.ntouched = 0
        for j in range(rlen):
            h = 0
            for n in range(1, max_order + 1):
                if j + n > rlen:
                    break
                h = ngram_step(h, ref[j + n - 1])
                e = slot_entry(t.slots[table_probe(t, hyp, ref + j, n, h)])
                if e < 0:
                    break
                en = &t.entries[e]
                if en.ref_count == 0:
                    t.touched[t.ntouched] = e
                    t.ntouched += 1
                en.ref_count += 1
        for m in range(t.ntouched):
            en = &t.entries[t.touched[m]]
            if en.ref_count > en.ref_max:
                en.ref_max = en.ref_count
            en.ref_count = 0
    for e in range(t.n):
        en = &t.entries[e]
        correct[en.order - 1] += en.hyp_count if en.hyp_count < en.ref_max else en.ref_max
    return 0


# ---------------------------------------------------------------------------------------------
# float math of sacrebleu's BLEU.compute_bleu, for batch sentence scores

cdef inline double builtin_sum(const double* x, int n) noexcept nogil:
    """sum(list_of_floats) as the running interpreter computes it."""
    cdef double s, t, c = 0.0
    cdef int i
    if n == 0:
        return 0.0
    s = x[0]
    if not _NEUMAIER_SUM:
        for i in range(1, n):
            s = s + x[i]
        return s
    for i in range(1, n):
        t = s + x[i]
        if fabs(s) >= fabs(x[i]):
            c += (s - t) + x[i]
        else:
            c += (x[i] - t) + s
        s = t
    if c != 0.0 and isfinite(c):
        s += c
    return s


cdef double bleu_from_stats(const int64_t* st, int max_order, int method, double smooth_value,
                            bint effective_order, double* logs) noexcept nogil:
    # Valid for finite smooth values in (0, 1e300] and max_order <= 256 (the caller checks): then a
    # zero precision (my_log = -9999999999) always drives the score to exactly 0.0.
    cdef int64_t sys_len = st[0], ref_len = st[1]
    cdef const int64_t* correct = st + 2
    cdef const int64_t* total = st + 2 + max_order
    cdef double bp = 1.0, smooth_mteval = 1.0, c, t, p
    cdef int n, eff_order = max_order, k
    cdef bint any_match = False, zero = False
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(max_order):
        if correct[n] != 0:
            any_match = True
            break
    if not any_match:
        return 0.0
    for n in range(1, max_order + 1):
        c = <double>correct[n - 1]
        t = <double>total[n - 1]
        if method == SMOOTH_ADDK and n > 1:
            c = c + smooth_value
            t = t + smooth_value
        if t == 0.0:
            # Orders from n on keep precision 0.0. They count unless effective order already
            # moved eff_order below n, which it cannot have done when n is the first order.
            for k in range(n, max_order + 1):
                logs[k - 1] = 0.0
            if not effective_order or n == 1:
                zero = True
            break
        if effective_order:
            eff_order = n
        p = 0.0
        if c == 0.0:
            if method == SMOOTH_EXP:
                smooth_mteval *= 2
                p = 100.0 / (smooth_mteval * t)
            elif method == SMOOTH_FLOOR:
                p = 100.0 * smooth_value / t
        else:
            p = 100.0 * c / t
        if p == 0.0:
            zero = True
        logs[n - 1] = log(p) if p != 0.0 else 0.0
    if zero:
        return bp * 0.0
    return bp * exp(builtin_sum(logs, eff_order) / eff_order)


def bleu_scores_from_stats(stats, int max_order, str smooth_method, smooth_value,
                           bint effective_order):
    """Sentence BLEU of every row of `stats` (a flat int64 sequence of rows
    [hyp_len, ref_len, correct_1..N, total_1..N]), as BLEU.compute_bleu(...).score would give."""
    cdef const int64_t[::1] st = stats
    cdef int width = 2 + 2 * max_order
    cdef Py_ssize_t nseg = st.shape[0] // width, i
    cdef array out = clone(array("d"), nseg, False)
    cdef double* res = out.data.as_doubles
    cdef double sv = 0.0
    cdef double[256] logs
    cdef int method = _SMOOTHERS[smooth_method]
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256 for batch scoring")
    if method == SMOOTH_FLOOR or method == SMOOTH_ADDK:
        if smooth_value is None:
            sv = 0.1 if method == SMOOTH_FLOOR else 1.0
        else:
            sv = smooth_value
            if not (isfinite(sv) and 0.0 < sv <= 1e300):
                raise ValueError("smooth_value must be finite and in (0, 1e300] for batch scoring")
    with nogil:
        for i in range(nseg):
            res[i] = bleu_from_stats(&st[i * width], max_order, method, sv, effective_order, logs)
    return out


# ---------------------------------------------------------------------------------------------
# drivers: hypotheses in chunks, references cached (RefSet) or streamed with them

cdef int _SOURCE_CACHED = 0
cdef int _SOURCE_STREAM = 1


cdef int run_stats(RefSet cached, segments, hyps, int tok_mode, bint lowercase, int max_order,
                   int64_t* totals, I64Buf* rows) except -1:
    """Statistics of every segment: summed into totals, and appended to rows unless NULL. The
    references come from `cached` when it is not None, else from `segments` (one sequence of
    reference strings per segment), tokenized a chunk at a time alongside the hypotheses."""
    cdef Py_ssize_t nseg = len(hyps), start = 0, stop, k = 0, s, w, r, nref
    cdef int width = 2 + 2 * max_order
    cdef int rc = 0
    cdef bint streamed = cached is None
    cdef _Workspace ws = acquire_workspace()
    try:
        if i64_reserve(&ws.stats, width) < 0:
            raise MemoryError()
        if rows != NULL and i64_reserve(rows, rows.size + nseg * width) < 0:
            raise MemoryError()
        memset(totals, 0, width * sizeof(int64_t))
        while start < nseg:
            stop = ws.chunk_end(hyps, start)
            load_lines(hyps[start:stop], start, lowercase, &ws.text, &ws.line_off)
            if streamed:
                flat = []
                ws.rseg.size = 0
                if i64_push(&ws.rseg, 0) < 0:
                    raise MemoryError()
                for seg in segments[start:stop]:
                    flat.extend(seg)
                    if i64_push(&ws.rseg, len(flat)) < 0:
                        raise MemoryError()
                try:
                    load_lines(flat, 0, lowercase, &ws.rtext, &ws.rline_off)
                except TypeError:
                    raise TypeError("a reference is not a str") from None
            with nogil:
                for k in range(stop - start):
                    s = start + k
                    ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
                    rc = tokenize_line(ws, &ws.text, &ws.line_off, k, tok_mode, &ws.tok_chars,
                                       &ws.tok_ends, &ws.tok_hash)
                    if rc < 0:
                        break
                    if streamed:
                        ws.rchars.size = ws.rends.size = ws.rhash.size = ws.rref.size = 0
                        nref = ws.rseg.data[k + 1] - ws.rseg.data[k]
                        rc = i64_push(&ws.rref, 0)
                        for r in range(ws.rseg.data[k], ws.rseg.data[k + 1]):
                            if rc < 0:
                                break
                            rc = tokenize_line(ws, &ws.rtext, &ws.rline_off, r, tok_mode,
                                               &ws.rchars, &ws.rends, &ws.rhash)
                            if rc == 0:
                                rc = i64_push(&ws.rref, ws.rends.size)
                        if rc < 0:
                            break
                        rc = segment_ids(ws, ws.rchars.data, ws.rends.data, ws.rhash.data,
                                         ws.rref.data, 0, nref)
                    else:
                        rc = segment_ids(ws, cached.chars.data, cached.tok_end.data,
                                         cached.tok_hash.data, cached.ref_tok.data,
                                         cached.seg_ref.data[s], cached.seg_ref.data[s + 1])
                    if rc < 0:
                        break
                    rc = count_segment(&ws.table, ws.ids.data, ws.ids.size, ws.ref_ids.data,
                                       ws.ref_off.data, 0, ws.ref_off.size - 1, max_order,
                                       True, ws.stats.data)
                    if rc < 0:
                        break
                    for w in range(width):
                        totals[w] += ws.stats.data[w]
                    if rows != NULL:
                        memcpy(rows.data + rows.size, ws.stats.data, width * sizeof(int64_t))
                        rows.size += width
            _check(rc, start + k)
            start = stop
    finally:
        release_workspace(ws)
    return 0


cdef int check_args(str tokenize, int max_order) except -1:
    if tokenize not in _TOKENIZERS:
        raise ValueError(f"the core has no tokenizer {tokenize!r}")
    if tokenize == "intl" or tokenize == "zh":
        ensure_class_tables()
    if max_order < 1:
        raise ValueError("max_order must be at least 1")
    return 0


cdef object collect(RefSet cached, segments, hyps, str tokenize, bint lowercase, int max_order,
                    int what, str smooth_method=None, smooth_value=None,
                    bint effective_order=True):
    """what: 0 corpus totals, 1 per-segment rows, 2 sentence scores."""
    cdef int width = 2 + 2 * max_order
    cdef Py_ssize_t i
    cdef I64Buf rows
    cdef I64Buf tot
    cdef int64_t[::1] view
    check_args(tokenize, max_order)
    if what == 2 and smooth_method not in _SMOOTHERS:
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
    memset(&rows, 0, sizeof(I64Buf))
    memset(&tot, 0, sizeof(I64Buf))
    try:
        if i64_reserve(&tot, width) < 0:
            raise MemoryError()
        run_stats(cached, segments, hyps, _TOKENIZERS[tokenize], lowercase, max_order, tot.data,
                  &rows if what else NULL)
        if what == 0:
            return [tot.data[w] for w in range(width)]
        if what == 1:
            return [[rows.data[i + w] for w in range(width)] for i in range(0, rows.size, width)]
        if rows.size == 0:
            return array("d")
        view = <int64_t[:rows.size]>rows.data
        return bleu_scores_from_stats(view, max_order, smooth_method, smooth_value,
                                      effective_order)
    finally:
        PyMem_RawFree(rows.data)
        PyMem_RawFree(tot.data)


def _check_lengths(hyps, segments):
    if len(hyps) != len(segments):
        raise ValueError(f"{len(hyps)} hypotheses for {len(segments)} reference segments")


def corpus_stats(hyps, refs, str tokenize="13a", bint lowercase=False, int max_order=4):
    """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus; refs holds one sequence
    of reference strings per segment (None entries already removed)."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 0)


def segment_stats(hyps, refs, str tokenize="13a", bint lowercase=False, int max_order=4):
    """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 1)


def sentence_scores(hyps, refs, str tokenize="13a", bint lowercase=False, int max_order=4,
                    str smooth_method="exp", smooth_value=None, bint effective_order=True):
    """Sentence BLEU of every hypothesis against its segment's references (array of doubles)."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 2, smooth_method,
                   smooth_value, effective_order)


cdef class RefSet:
    """References of a corpus, tokenized once; scores any number of hypothesis streams.

    refs: one sequence of reference strings per segment (None entries already removed).
    """

    def __cinit__(self):
        memset(&self.chars, 0, sizeof(U32Buf))
        memset(&self.tok_end, 0, sizeof(I64Buf))
        memset(&self.tok_hash, 0, sizeof(I64Buf))
        memset(&self.ref_tok, 0, sizeof(I64Buf))
        memset(&self.seg_ref, 0, sizeof(I64Buf))

    def __dealloc__(self):
        PyMem_RawFree(self.chars.data)
        PyMem_RawFree(self.tok_end.data)
        PyMem_RawFree(self.tok_hash.data)
        PyMem_RawFree(self.ref_tok.data)
        PyMem_RawFree(self.seg_ref.data)

    def __init__(self, refs, str tokenize="13a", bint lowercase=False, int max_order=4):
        cdef Py_ssize_t start, stop, k = 0
        cdef int rc = 0
        cdef _Workspace ws
        check_args(tokenize, max_order)
        self.tok_mode = _TOKENIZERS[tokenize]
        self.tokenize = tokenize
        self.lowercase = lowercase
        self.max_order = max_order
        flat = []
        if i64_push(&self.seg_ref, 0) < 0 or i64_push(&self.ref_tok, 0) < 0:
            raise MemoryError()
        for seg in refs:
            flat.extend(seg)
            if i64_push(&self.seg_ref, len(flat)) < 0:
                raise MemoryError()
        ws = acquire_workspace()
        try:
            start = 0
            while start < len(flat):
                stop = ws.chunk_end(flat, start)
                load_lines(flat[start:stop], start, lowercase, &ws.text, &ws.line_off)
                with nogil:
                    for k in range(stop - start):
                        rc = tokenize_line(ws, &ws.text, &ws.line_off, k, self.tok_mode,
                                           &self.chars, &self.tok_end, &self.tok_hash)
                        if rc < 0:
                            break
                        rc = i64_push(&self.ref_tok, self.tok_end.size)
                        if rc < 0:
                            break
                _check(rc, start + k)
                start = stop
        finally:
            release_workspace(ws)

    @property
    def num_segments(self):
        return self.seg_ref.size - 1

    def _hyps(self, hyps):
        if len(hyps) != self.seg_ref.size - 1:
            raise ValueError(f"{len(hyps)} hypotheses for {self.seg_ref.size - 1} reference segments")
        return hyps

    def corpus_stats(self, hyps):
        """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus."""
        return collect(self, None, self._hyps(hyps), self.tokenize, self.lowercase,
                       self.max_order, 0)

    def segment_stats(self, hyps):
        """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
        return collect(self, None, self._hyps(hyps), self.tokenize, self.lowercase,
                       self.max_order, 1)

    def sentence_scores(self, hyps, str smooth_method="exp", smooth_value=None,
                        bint effective_order=True):
        """Sentence BLEU of every hypothesis against its segment's references (array of doubles)."""
        return collect(self, None, self._hyps(hyps), self.tokenize, self.lowercase,
                       self.max_order, 2, smooth_method, smooth_value, effective_order)


cdef int _check(int rc, Py_ssize_t where) except -1:
    if rc == ERR_NOMEM:
        raise MemoryError()
    if rc == ERR_NO_REFS:
        raise TypeError(f"BLEU: segment {where} has no reference (all None) "
                        "but a non-empty hypothesis")
    return 0


def tokenize_13a(str line):
    """sacrebleu's Tokenizer13a()(line): the tokens joined by single spaces."""
    return tokenize(line, "13a")


def tokenize(str line, str tokenize="13a"):
    """sacrebleu's tokenizer `tokenize` (none, 13a, intl, zh, char) applied to line: the tokens
    joined by single spaces."""
    cdef _Workspace ws = _Workspace()
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(line), t, t0 = 0, j = 0
    cdef int rc
    cdef int mode
    if tokenize not in _TOKENIZERS:
        raise ValueError(f"the core has no tokenizer {tokenize!r}")
    mode = _TOKENIZERS[tokenize]
    if mode == TOK_INTL or mode == TOK_ZH:
        ensure_class_tables()
    if u32_reserve(&ws.text, n + 1) < 0:
        raise MemoryError()
    if n:
        PyUnicode_AsUCS4(line, <Py_UCS4*>ws.text.data, n, 0)
    with nogil:
        rc = split_tokens(ws.text.data, n, mode, &ws.a, &ws.b, &ws.tok_chars, &ws.tok_ends,
                          &ws.tok_hash)
        if rc == 0:
            rc = u32_reserve(&ws.rtext, ws.tok_chars.size + ws.tok_ends.size)
        if rc == 0:
            for t in range(ws.tok_ends.size):
                if t:
                    ws.rtext.data[j] = 0x20
                    j += 1
                memcpy(ws.rtext.data + j, ws.tok_chars.data + t0,
                       (ws.tok_ends.data[t] - t0) * sizeof(uint32_t))
                j += ws.tok_ends.data[t] - t0
                t0 = ws.tok_ends.data[t]
    _check(rc, 0)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, ws.rtext.data, j)


# ---------------------------------------------------------------------------------------------
# token-ID batches: no tokenizer, no interning; the IDs are the keys

cdef int ids_rows(NgramTable* t, const uint32_t* hyp, const int64_t* hoff, const uint32_t* ref,
                  const int64_t* roff, const int64_t* soff, Py_ssize_t s0, Py_ssize_t s1,
                  int max_order, int64_t* out, Py_ssize_t* failed) noexcept nogil:
    """Rows s0..s1-1 of ids_segment_stats into out (row s at out + s * width)."""
    cdef int width = 2 + 2 * max_order
    cdef int rc
    cdef Py_ssize_t s
    for s in range(s0, s1):
        rc = count_segment(t, hyp + hoff[s], hoff[s + 1] - hoff[s], ref, roff, soff[s],
                           soff[s + 1], max_order, False, out + s * width)
        if rc < 0:
            failed[0] = s
            return rc
    return 0


cdef class _IdsChunk:
    """One thread's share of ids_segment_stats: its own workspace, a range of segments."""
    cdef Py_ssize_t s0, s1, failed
    cdef int rc
    cdef _Workspace ws

    def run(self, const uint32_t[::1] hyp, const int64_t[::1] hoff, const uint32_t[::1] ref,
            const int64_t[::1] roff, const int64_t[::1] soff, int max_order, int64_t[:, ::1] out):
        cdef const uint32_t* hp = &hyp[0] if hyp.shape[0] else NULL
        cdef const uint32_t* rp = &ref[0] if ref.shape[0] else NULL
        with nogil:
            self.rc = ids_rows(&self.ws.table, hp, &hoff[0], rp, &roff[0], &soff[0], self.s0,
                               self.s1, max_order, &out[0, 0], &self.failed)


def ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets,
                      max_order=4, n_threads=1):
    """Per-segment statistics of token-ID sequences: an int64 array of shape
    (n_segments, 2 + 2 * max_order), rows [hyp_len, ref_len, correct_1..N, total_1..N] as
    sacreBLEU computes them for the whitespace-joined IDs (ref_len: the closest reference length,
    ties to the shorter; -1 for a segment without references and an empty hypothesis).

    Hypothesis i is hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]]; reference r is
    ref_flat[ref_offsets[r]:ref_offsets[r + 1]]; segment i owns references
    seg_ref_offsets[i]..seg_ref_offsets[i + 1] - 1. IDs are exact uint32 values. The result is
    the same for every n_threads (the compiled core splits the segments across that many threads).
    """
    import threading
    import numpy as np
    from ._ragged import check_layout, no_reference_error
    cdef Py_ssize_t nseg, k, s, nchunks
    cdef const int64_t[::1] hoff, roff, soff
    cdef int64_t work, share, acc
    cdef _IdsChunk chunk
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, n_threads = \
        check_layout(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order,
                     n_threads)
    nseg = hyp_offsets.shape[0] - 1
    out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
    if nseg == 0:
        return out
    hoff, roff, soff = hyp_offsets, ref_offsets, seg_ref_offsets
    # contiguous chunks of about equal work (hypothesis + reference tokens); the rows do not
    # depend on how the segments are split
    nchunks = min(n_threads, nseg)
    work = (hoff[nseg] - hoff[0]) + (roff[soff[nseg]] - roff[soff[0]]) + nseg
    chunks = []
    s = 0
    acc = 0
    for k in range(nchunks):
        chunk = _IdsChunk()
        chunk.s0 = s
        if k == nchunks - 1:
            s = nseg
        else:
            share = work * (k + 1) // nchunks
            while s < nseg - (nchunks - 1 - k) and (s == chunk.s0 or acc < share):
                acc += (hoff[s + 1] - hoff[s]) + (roff[soff[s + 1]] - roff[soff[s]]) + 1
                s += 1
        chunk.s1 = s
        chunk.ws = acquire_workspace()
        chunks.append(chunk)
    args = (hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, out)
    try:
        threads = [threading.Thread(target=c.run, args=args) for c in chunks[1:]]
        for th in threads:
            th.start()
        try:
            (<_IdsChunk>chunks[0]).run(*args)
        finally:
            for th in threads:
                th.join()
        for chunk in chunks:
            if chunk.rc == ERR_NOMEM:
                raise MemoryError()
            if chunk.rc == ERR_NO_REFS:
                raise no_reference_error(chunk.failed)
    finally:
        for chunk in chunks:
            release_workspace(chunk.ws)
    return out


# ---------------------------------------------------------------------------------------------
# pairwise and pooled scoring: every distinct n-gram of the batch interned once

cdef class _NgramIndex:
    """Every distinct n-gram of a set of sentences gets an ID once (its entry in an NgramTable
    keyed on the sentences' IDs back to back), and each sentence becomes its list of distinct
    (n-gram ID, count, order): a pair of sentences then costs one array lookup per n-gram."""
    cdef NgramTable table
    cdef uint32_t* gid        # sentence s: pairs goff[s]..goff[s+1]-1
    cdef int32_t* gcnt
    cdef int32_t* gord
    cdef int64_t* goff
    cdef Py_ssize_t nsent, nids

    def __dealloc__(self):
        PyMem_RawFree(self.table.slots)
        PyMem_RawFree(self.table.entries)
        PyMem_RawFree(self.table.touched)
        PyMem_RawFree(self.gid)
        PyMem_RawFree(self.gcnt)
        PyMem_RawFree(self.gord)
        PyMem_RawFree(self.goff)

    cdef int build(self, const uint32_t* ids, const int64_t* off, Py_ssize_t nsent,
                   int max_order) noexcept nogil:
        cdef Py_ssize_t s, i, k = 0, slot, e, length, total = 0
        cdef int n
        cdef hash_t h
        cdef const uint32_t* seq
        cdef NgramEntry* en
        for s in range(nsent):
            length = off[s + 1] - off[s]
            for n in range(1, max_order + 1):
                if length >= n:
                    total += length - n + 1
        self.nsent = nsent
        self.gid = <uint32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(uint32_t))
        self.gcnt = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.gord = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.goff = <int64_t*>PyMem_RawMalloc(<size_t>(nsent + 1) * sizeof(int64_t))
        if self.gid == NULL or self.gcnt == NULL or self.gord == NULL or self.goff == NULL:
            return ERR_NOMEM
        if table_prepare(&self.table, total + 1) < 0:
            return ERR_NOMEM
        self.goff[0] = 0
        for s in range(nsent):
            seq = ids + off[s]
            length = off[s + 1] - off[s]
            for i in range(length):
                h = 0
                for n in range(1, max_order + 1):
                    if i + n > length:
                        break
                    h = ngram_step(h, seq[i + n - 1])
                    slot = table_probe(&self.table, ids, seq + i, n, h)
                    e = slot_entry(self.table.slots[slot])
                    if e < 0:
                        e = self.table.n
                        self.table.n += 1
                        en = &self.table.entries[e]
                        en.h = h
                        en.pos = off[s] + i
                        en.slot = slot
                        en.order = n
                        en.hyp_count = -1     # the last sentence that had it
                        self.table.slots[slot] = slot_value(e, h)
                    en = &self.table.entries[e]
                    if en.hyp_count != s:
                        en.hyp_count = s
                        en.ref_max = k        # where its pair for sentence s is
                        self.gid[k] = <uint32_t>e
                        self.gcnt[k] = 1
                        self.gord[k] = n - 1
                        k += 1
                    else:
                        self.gcnt[en.ref_max] += 1
            self.goff[s + 1] = k
        self.nids = self.table.n
        return 0


cdef int pair_columns(_NgramIndex ix, const int64_t* off, Py_ssize_t nhyp, Py_ssize_t j0,
                      Py_ssize_t j1, Py_ssize_t ncol, int max_order, int method, double sv,
                      bint effective_order, double* out) noexcept nogil:
    """out[i, j] for every hypothesis i and the references j0..j1-1 (sentences nhyp + j)."""
    cdef int32_t* refcnt = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    cdef int64_t[514] st
    cdef double[256] logs
    cdef Py_ssize_t i, j, k, r, hlen
    cdef int n
    cdef int32_t c, rc
    if refcnt == NULL:
        return ERR_NOMEM
    for j in range(j0, j1):
        r = nhyp + j
        for k in range(ix.goff[r], ix.goff[r + 1]):
            refcnt[ix.gid[k]] = ix.gcnt[k]
        st[1] = off[r + 1] - off[r]
        for i in range(nhyp):
            hlen = off[i + 1] - off[i]
            st[0] = hlen
            for n in range(max_order):
                st[2 + n] = 0
                st[2 + max_order + n] = hlen - n if hlen > n else 0
            for k in range(ix.goff[i], ix.goff[i + 1]):
                rc = refcnt[ix.gid[k]]
                if rc:
                    c = ix.gcnt[k]
                    st[2 + ix.gord[k]] += c if c < rc else rc
            out[i * ncol + j] = bleu_from_stats(st, max_order, method, sv, effective_order, logs)
        for k in range(ix.goff[r], ix.goff[r + 1]):
            refcnt[ix.gid[k]] = 0
    PyMem_RawFree(refcnt)
    return 0


cdef class _PairChunk:
    cdef Py_ssize_t j0, j1
    cdef int rc

    def run(self, _NgramIndex ix, const int64_t[::1] off, Py_ssize_t nhyp, Py_ssize_t ncol,
            int max_order, int method, double sv, bint effective_order, double[:, ::1] out):
        with nogil:
            self.rc = pair_columns(ix, &off[0], nhyp, self.j0, self.j1, ncol, max_order, method,
                                   sv, effective_order, &out[0, 0])


cdef _NgramIndex index_sentences(flat, const int64_t[::1] off, int max_order):
    cdef const uint32_t[::1] ids = flat
    cdef _NgramIndex ix = _NgramIndex()
    cdef const uint32_t* p = &ids[0] if ids.shape[0] else NULL
    cdef int rc
    with nogil:
        rc = ix.build(p, &off[0], off.shape[0] - 1, max_order)
    _check(rc, 0)
    return ix


def ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order=4,
                        smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
    """float64 array (n_hyps, n_refs): sentence BLEU of each hypothesis against each reference
    alone, equal to bleu_scores_from_stats of ids_segment_stats for that single pair. Every
    distinct n-gram of the batch is interned once; the references are split across n_threads."""
    import threading
    import numpy as np
    from ._ragged import check_scoring, check_sentences
    cdef Py_ssize_t nhyp, nref, k, nchunks
    cdef _PairChunk chunk
    cdef double sv
    cdef int method
    sv = check_scoring(max_order, smooth_method, smooth_value, n_threads)
    method = _SMOOTHERS[smooth_method]
    hyp_flat, hyp_offsets = check_sentences(hyp_flat, hyp_offsets, "hyp")
    ref_flat, ref_offsets = check_sentences(ref_flat, ref_offsets, "ref")
    nhyp = hyp_offsets.shape[0] - 1
    nref = ref_offsets.shape[0] - 1
    out = np.zeros((nhyp, nref), dtype=np.float64)
    if nhyp == 0 or nref == 0:
        return out
    # hypotheses then references, as one set of sentences
    flat = np.concatenate([hyp_flat, ref_flat])
    off = np.concatenate([hyp_offsets, ref_offsets[1:] + hyp_offsets[nhyp]])
    ix = index_sentences(flat, off, max_order)
    nchunks = min(n_threads, nref)
    chunks = []
    for k in range(nchunks):
        chunk = _PairChunk()
        chunk.j0 = nref * k // nchunks
        chunk.j1 = nref * (k + 1) // nchunks
        chunks.append(chunk)
    args = (ix, off, nhyp, nref, max_order, method, sv, bool(effective_order), out)
    threads = [threading.Thread(target=c.run, args=args) for c in chunks[1:]]
    for th in threads:
        th.start()
    try:
        (<_PairChunk>chunks[0]).run(*args)
    finally:
        for th in threads:
            th.join()
    for chunk in chunks:
        _check(chunk.rc, 0)
    return out


def ids_self_stats(flat, offsets, max_order=4, n_threads=1):
    """int64 array (n, 2 + 2 * max_order): the statistics of each sentence against all the
    others pooled as its references (as ids_segment_stats with every other sentence listed as a
    reference). The maximum count of an n-gram over the others comes from its two largest
    counts and the owner of the largest; the closest length from the sorted lengths."""
    import numpy as np
    from ._ragged import check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t n, s, k, e, p, lo, hi, mid
    cdef int64_t h, best, cand, width
    cdef int32_t c, m
    cdef const int64_t[::1] off, lens
    cdef int64_t[:, ::1] rows
    cdef int32_t* top1
    cdef int32_t* top2
    cdef int64_t* owner
    cdef _NgramIndex ix
    cdef int order
    check_scoring(max_order, "none", None, n_threads)
    order = max_order
    flat, offsets = check_sentences(flat, offsets, "")
    n = offsets.shape[0] - 1
    out = np.zeros((n, 2 + 2 * max_order), dtype=np.int64)
    if n == 0:
        return out
    lengths = np.diff(offsets)
    if n == 1:
        if lengths[0]:
            raise no_reference_error(0)
        out[0, 1] = -1
        return out
    ix = index_sentences(flat, offsets, max_order)
    off = offsets
    lens = np.sort(lengths)
    rows = out
    width = 2 + 2 * max_order
    top1 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    top2 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    owner = <int64_t*>PyMem_RawMalloc(<size_t>(ix.nids + 1) * sizeof(int64_t))
    try:
        if top1 == NULL or top2 == NULL or owner == NULL:
            raise MemoryError()
        with nogil:
            for s in range(n):
                for k in range(ix.goff[s], ix.goff[s + 1]):
                    e = ix.gid[k]
                    c = ix.gcnt[k]
                    if c > top1[e]:
                        top2[e] = top1[e]
                        top1[e] = c
                        owner[e] = s
                    elif c > top2[e]:
                        top2[e] = c
            for s in range(n):
                h = off[s + 1] - off[s]
                rows[s, 0] = h
                for k in range(order):
                    rows[s, 2 + order + k] = h - k if h > k else 0
                for k in range(ix.goff[s], ix.goff[s + 1]):
                    e = ix.gid[k]
                    m = top2[e] if owner[e] == s else top1[e]
                    c = ix.gcnt[k]
                    rows[s, 2 + ix.gord[k]] += c if c < m else m
                # closest length among the others, ties to the shorter: drop one copy of h
                lo = 0
                hi = n
                while lo < hi:
                    mid = (lo + hi) // 2
                    if lens[mid] < h:
                        lo = mid + 1
                    else:
                        hi = mid
                p = lo                      # lens[p] == h is this sentence's own length
                if p + 1 < n and lens[p + 1] == h:
                    best = h
                else:
                    best = -1
                    if p > 0:
                        best = lens[p - 1]
                    if p + 1 < n:
                        cand = lens[p + 1]
                        if best == -1 or cand - h < h - best:
                            best = cand
                rows[s, 1] = best
    finally:
        PyMem_RawFree(top1)
        PyMem_RawFree(top2)
        PyMem_RawFree(owner)
    return out
