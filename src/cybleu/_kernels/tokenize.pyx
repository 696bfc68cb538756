"""The tokenizers the compiled core runs itself (none, 13a, intl, zh, char), code point by code point:
each gives sacreBLEU's tokens followed by str.split(), appended to a token buffer as characters,
end offsets and hashes, without the GIL and without a Python object per token."""
import threading

from cpython.array cimport array
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t
from libc.string cimport memcmp, memcpy, memset

from .buffers cimport u32_reserve, i64_reserve
from .hashing cimport hash_step
from .defs cimport (hash_t, U32Buf, I64Buf, TextRef, TextRefs, ERR_NOMEM, TOK_NONE, TOK_13A,
                      TOK_INTL, TOK_ZH, TOK_CHAR)
from .workspace cimport Workspace, raise_for

cdef extern from "Python.h":
    const Py_ssize_t PY_SSIZE_T_MAX
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen, int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_FromKindAndData(int kind, const void* buffer, Py_ssize_t size)
    int PyUnicode_4BYTE_KIND
    void* PyUnicode_DATA(object o)
    int PyUnicode_KIND(object o)

cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define CYBLEU_UNICODE_READY(o) PyUnicode_READY(o)
    #else
    #define CYBLEU_UNICODE_READY(o) 0
    #endif
    """
    int CYBLEU_UNICODE_READY(object o) except -1

__all__ = ["TOKENIZER_MODES", "tokenize", "tokenize_13a"]

# name -> the core's mode; the names are cybleu.tokenizers.registry's compiled ones (a test checks)
TOKENIZER_MODES = {"none": TOK_NONE, "13a": TOK_13A, "intl": TOK_INTL, "zh": TOK_ZH,
                   "char": TOK_CHAR}


cdef int tokenizer_mode(str name) except -1:
    """The mode of tokenizer `name`, with the Unicode tables it needs built."""
    if name not in TOKENIZER_MODES:
        raise ValueError(f"the core has no tokenizer {name!r}")
    if name == "intl" or name == "zh":
        ensure_class_tables()
    return TOKENIZER_MODES[name]


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
            if k:
                if u32_reserve(out, out.size + k + (n - i)) < 0:
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
# shared) built on first use from the runs the pure-Python twin reads too: intl's from the
# installed `regex` module (unicode_classes.py), zh's from unicode_tables.py. Bits 0-1: intl class (regex's \p{N}, \p{P}, \p{S}); bit 2: zh pads it.

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


# Built on first use of intl or zh (import stays cheap), once, under a lock: threads that start
# together must not build them twice, since a rebuild would free tables others read without the GIL.
# Read-only afterwards.
_CLASS_TABLES = None
_CLASS_TABLES_LOCK = threading.Lock()
cdef const unsigned short* UINDEX = NULL
cdef const unsigned char* UBLOCKS = NULL


cdef int ensure_class_tables() except -1:
    global _CLASS_TABLES, UINDEX, UBLOCKS
    if UBLOCKS != NULL:
        return 0
    with _CLASS_TABLES_LOCK:
        if UBLOCKS == NULL:
            from .unicode_classes import intl_runs
            from .unicode_tables import ZH_RUNS
            _CLASS_TABLES = _class_blocks(intl_runs(), ZH_RUNS)
            UINDEX = (<array>_CLASS_TABLES[0]).data.as_ushorts
            # published last: a thread that sees UBLOCKS set finds UINDEX set too
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
# 13a and none in one pass over the str's own storage (1, 2 or 4 bytes per code point)
#
# 13a's rule 1 pads every symbol with spaces and the others only insert spaces, so a line splits
# first at whitespace and symbols (a symbol is a token of its own) into runs, and rules 2-4 can
# only split a run further. Each run meets them between two spaces (the line is padded, and a
# symbol has spaces either side after rule 1): a match across a run's end pairs a character with
# a space, which rule 2 only takes as \1, rule 3 only as \2 and rule 4 never, so no two runs
# compete for a character and each run can be rewritten alone. A run without '.', ',' or a '-'
# after a digit meets no rule at all: it is one token, hashed and copied as it is read.

ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t

cdef enum:
    RESTART = 1        # the line holds <, & or a newline: 13a's language-independent part first
    F_RULE2 = 1        # rule 2 put spaces either side of this '.' or ','
    F_RULE3 = 2        # rule 3 did


cdef inline bint wide_space(uint32_t c) noexcept nogil:
    """str.split's whitespace above U+007F (U+0085, U+00A0, and some between U+1680 and U+3000)."""
    if c < 0x1680:
        return c == 0x85 or c == 0xA0
    return c <= 0x3000 and Py_UNICODE_ISSPACE(c)


cdef inline bint digit(uint32_t c) noexcept nogil:
    return c - 0x30 < 10


cdef inline bint period_comma(uint32_t c) noexcept nogil:
    return c == 0x2E or c == 0x2C


cdef Py_ssize_t rules_on_run(const char_t* r, Py_ssize_t m, uint32_t* f, uint32_t* out,
                             Py_ssize_t nc, int64_t* end, int64_t* hs,
                             Py_ssize_t* pnt) noexcept nogil:
    """13a's rules 2-4 on one run r[0:m] (no whitespace, no symbol) between two spaces: its
    tokens appended (characters from out[nc], ends and hashes from *pnt, which is advanced);
    returns the new character count. f: room for m flags."""
    cdef Py_ssize_t j, k, nt = pnt[0], pend
    cdef uint32_t c
    cdef hash_t h
    memset(f, 0, <size_t>m * sizeof(uint32_t))
    # rule 2, ([^0-9])([\.,]) -> '\1 \2 ', left to right without overlap, from the space before
    j = -1
    while j < m - 1:
        if period_comma(r[j + 1]) and (j < 0 or not digit(r[j])):
            f[j + 1] = F_RULE2
            j += 2
        else:
            j += 1
    # rule 3, ([\.,])([^0-9]) -> ' \1 \2', on rule 2's output: the run's characters, each that
    # rule 2 took with a space either side, then the space after the run. pend: a '.' or ','
    # that may start a match (-1: none).
    pend = -1
    for k in range(m):
        c = r[k]
        if f[k] & F_RULE2:
            # ' ', c, ' ': a pending '.' or ',' takes the first space; c then takes the second
            if pend >= 0:
                f[pend] |= F_RULE3
            f[k] |= F_RULE3
            pend = -1
        elif pend >= 0 and not digit(c):
            f[pend] |= F_RULE3
            pend = -1          # c was taken as \2
        else:
            pend = k if period_comma(c) else -1
    if pend >= 0:
        f[pend] |= F_RULE3     # with the space after the run
    # the tokens: a boundary on either side of a '.' or ',' the rules took, and rule 4,
    # ([0-9])(-) -> '\1 \2 ', on either side of a '-' after a digit (rules 2 and 3 only put
    # spaces next to a '.' or ',', so the digit and the '-' are still adjacent there)
    h = 0xcbf29ce484222325ULL
    for k in range(m):
        c = r[k]
        if k > 0 and (f[k] or f[k - 1] or (c == 0x2D and digit(r[k - 1]))
                      or (k >= 2 and r[k - 1] == 0x2D and digit(r[k - 2]))):
            end[nt] = nc
            hs[nt] = <int64_t>h
            nt += 1
            h = 0xcbf29ce484222325ULL
        h = hash_step(h, c)
        out[nc] = c
        nc += 1
    if m:
        end[nt] = nc
        hs[nt] = <int64_t>h
        nt += 1
    pnt[0] = nt
    return nc


# Plain characters below U+0080 for 13a: letters, digits, the apostrophe and the control
# characters that are not whitespace; and for none everything but whitespace.
cdef unsigned char[128] PLAIN_13A
cdef unsigned char[128] PLAIN_NONE
for _c in range(128):
    PLAIN_13A[_c] = (ASCII_CLASS[_c] & ~C_DIGIT) == 0
    PLAIN_NONE[_c] = (ASCII_CLASS[_c] & C_SPACE) == 0


# The same for a 1-byte string, whose code points above U+007F are all plain but U+0085 and U+00A0
# (whitespace): one load decides.
cdef unsigned char[256] PLAIN8_13A
cdef unsigned char[256] PLAIN8_NONE
for _c in range(256):
    PLAIN8_13A[_c] = PLAIN_13A[_c] if _c < 128 else (_c != 0x85 and _c != 0xA0)
    PLAIN8_NONE[_c] = PLAIN_NONE[_c] if _c < 128 else (_c != 0x85 and _c != 0xA0)


cdef inline bint plain(char_t c, const unsigned char* table, const unsigned char* table8) noexcept nogil:
    if char_t is uint8_t:
        return table8[c]
    else:
        if c < 128:
            return table[c]
        return not wide_space(c)


cdef inline int split_13a_direct(const char_t* s, Py_ssize_t n, bint rules, bint replaced, U32Buf* runf,
                          U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """13a (rules) or none (not rules) followed by str.split() on s[0:n], in one pass: tokens
    appended to chars, ends, hashes. Returns RESTART, untouched, when 13a meets <, & or a newline
    before `replaced` (its language-independent part must rewrite the line first)."""
    cdef Py_ssize_t i = 0, e, rs = 0, nc, nt, nc0 = 0, nt_run
    cdef uint32_t c, x
    cdef unsigned char cls, xc
    cdef bint in_tok = False
    cdef hash_t h = 0
    cdef uint32_t* out
    cdef int64_t* end
    cdef int64_t* hs
    cdef const unsigned char* table = PLAIN_NONE
    cdef const unsigned char* table8 = PLAIN8_NONE
    # the rules only insert spaces: at most n token characters and n tokens
    if (u32_reserve(chars, chars.size + n) < 0 or i64_reserve(ends, ends.size + n + 1) < 0
            or i64_reserve(hashes, hashes.size + n + 1) < 0):
        return ERR_NOMEM
    if rules:
        table = PLAIN_13A
        table8 = PLAIN8_13A
    out = chars.data
    end = ends.data
    hs = hashes.data
    nc = chars.size
    nt = ends.size
    while i < n:
        c = s[i]
        if plain(s[i], table, table8):
            # a run of plain characters: hashed and copied as it is read
            if not in_tok:
                in_tok = True
                h = 0xcbf29ce484222325ULL
                rs = i
                nc0 = nc
            while True:
                h = hash_step(h, c)
                out[nc] = c
                nc += 1
                i += 1
                if i == n:
                    break
                c = s[i]
                if not plain(s[i], table, table8):
                    break
            continue
        cls = ASCII_CLASS[c] if c < 128 else C_SPACE     # not plain above U+007F: whitespace
        if cls & C_RARE and rules and not replaced:
            return RESTART
        if cls & C_SPACE:
            if in_tok:
                in_tok = False
                end[nt] = nc
                hs[nt] = <int64_t>h
                nt += 1
            i += 1
            continue
        # 13a only from here (for none, every other character is plain)
        if (cls & C_PADDED or (c == 0x2D and in_tok and digit(s[i - 1]))
                or (period_comma(c) and not (i + 1 < n and period_comma(s[i + 1]))
                    and not (in_tok and digit(s[i - 1]) and i + 1 < n and digit(s[i + 1])))):
            # A token of its own: a symbol (rule 1); a '-' after a digit (rule 4); a '.' or ','
            # after a non-digit (rule 2 takes it) or before one (rule 3 does), with no '.' or ','
            # after it (nor before: see below). The rest of the run then meets the rules as a run
            # of its own would, since the character before it is neither a digit nor '.' or ','.
            if in_tok:
                in_tok = False
                end[nt] = nc
                hs[nt] = <int64_t>h
                nt += 1
            out[nc] = c
            nc += 1
            end[nt] = nc
            hs[nt] = <int64_t>hash_step(0xcbf29ce484222325ULL, c)
            nt += 1
            i += 1
            continue
        if not (period_comma(c) and i + 1 < n and period_comma(s[i + 1])):
            # a '-' that no digit precedes, or a '.' or ',' between two digits: no rule fires
            if not in_tok:
                in_tok = True
                h = 0xcbf29ce484222325ULL
                rs = i
                nc0 = nc
            h = hash_step(h, c)
            out[nc] = c
            nc += 1
            i += 1
            continue
        if not in_tok:
            rs = i
            nc0 = nc
        in_tok = False
        # '.' or ',' before another: which rule takes which depends on the left-to-right order of
        # the matches, so the run, from its start to the next whitespace or symbol, goes through
        # rules 2-4 as a whole
        e = i + 1
        while e < n:
            x = s[e]
            if x < 128:
                xc = ASCII_CLASS[x]
                if xc & C_RARE and not replaced:
                    return RESTART
                if xc & (C_SPACE | C_PADDED):
                    break
            elif wide_space(x):
                break
            e += 1
        if u32_reserve(runf, e - rs) < 0:
            return ERR_NOMEM
        nt_run = nt
        nc = rules_on_run(s + rs, e - rs, runf.data, out, nc0, end, hs, &nt_run)
        nt = nt_run
        i = e
    if in_tok:
        end[nt] = nc
        hs[nt] = <int64_t>h
        nt += 1
    chars.size = nc
    ends.size = nt
    hashes.size = nt
    return 0


cdef int widen(const void* data, int kind, Py_ssize_t n, U32Buf* out) noexcept nogil:
    """The code points of a str's storage into out (for the tokenizers that read code points)."""
    cdef Py_ssize_t i
    if u32_reserve(out, n + 1) < 0:
        return ERR_NOMEM
    if kind == 1:
        for i in range(n):
            out.data[i] = (<const uint8_t*>data)[i]
    elif kind == 2:
        for i in range(n):
            out.data[i] = (<const uint16_t*>data)[i]
    elif n:
        memcpy(out.data, data, <size_t>n * sizeof(uint32_t))
    out.size = n
    return 0


cdef inline Py_ssize_t rstrip_kind(const void* data, int kind, Py_ssize_t n) noexcept nogil:
    if kind == 1:
        while n > 0 and Py_UNICODE_ISSPACE((<const uint8_t*>data)[n - 1]):
            n -= 1
    elif kind == 2:
        while n > 0 and Py_UNICODE_ISSPACE((<const uint16_t*>data)[n - 1]):
            n -= 1
    else:
        while n > 0 and Py_UNICODE_ISSPACE((<const uint32_t*>data)[n - 1]):
            n -= 1
    return n


cdef int split_text(Workspace ws, const void* data, int kind, Py_ssize_t n, int tok_mode,
                    bint rstrip, U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """A line as sacrebleu's BLEU tokenizes it (rstrip if asked, tokenizer `tok_mode`, split),
    read from a str's own storage; its tokens appended to chars, ends, hashes."""
    cdef int rc
    cdef bint rules = tok_mode == TOK_13A
    if rstrip:
        n = rstrip_kind(data, kind, n)
    if rules or tok_mode == TOK_NONE:
        # constant modes, so that each inlined copy has its own tables folded in
        if kind == 1 and rules:
            rc = split_13a_direct(<const uint8_t*>data, n, True, False, &ws.runf, chars, ends,
                                  hashes)
        elif kind == 1:
            rc = split_13a_direct(<const uint8_t*>data, n, False, False, &ws.runf, chars, ends,
                                  hashes)
        elif kind == 2 and rules:
            rc = split_13a_direct(<const uint16_t*>data, n, True, False, &ws.runf, chars, ends,
                                  hashes)
        elif kind == 2:
            rc = split_13a_direct(<const uint16_t*>data, n, False, False, &ws.runf, chars, ends,
                                  hashes)
        elif rules:
            rc = split_13a_direct(<const uint32_t*>data, n, True, False, &ws.runf, chars, ends,
                                  hashes)
        else:
            rc = split_13a_direct(<const uint32_t*>data, n, False, False, &ws.runf, chars, ends,
                                  hashes)
        if rc != RESTART:
            return rc
        if (widen(data, kind, n, &ws.wide) < 0
                or replace_13a_entities(ws.wide.data, n, &ws.a, &ws.b) < 0):
            return ERR_NOMEM
        return split_13a_direct(<const uint32_t*>ws.b.data, ws.b.size, True, True, &ws.runf,
                                chars, ends, hashes)
    if widen(data, kind, n, &ws.wide) < 0:
        return ERR_NOMEM
    return split_tokens(ws.wide.data, n, tok_mode, &ws.a, &ws.b, chars, ends, hashes)


# ---------------------------------------------------------------------------------------------
# one line of a loaded chunk, and the Python-facing functions

cdef int tokenize_line(Workspace ws, const TextRefs* lines, Py_ssize_t k, int tok_mode,
                       U32Buf* chars, I64Buf* ends, I64Buf* hashes) noexcept nogil:
    """Line k of a loaded chunk as sacrebleu tokenizes it (rstrip, tokenizer, split), appended."""
    cdef const TextRef* t = &lines.data[k]
    return split_text(ws, t.data, t.kind, t.length, tok_mode, True, chars, ends, hashes)


# A line longer than this many code points is tokenized a piece at a time by the drivers that
# can intern each piece's tokens at once (memory then grows by 4 bytes per token, not by the
# tokens' characters, offsets and hashes; zh takes the line as one piece). A module variable, so
# tests can shrink it.
cdef Py_ssize_t PIECE_CHARS = 1 << 16


cdef Py_ssize_t piece_chars() noexcept nogil:
    """The length past which the drivers take a line through tokenize_piece."""
    return PIECE_CHARS


cdef Py_ssize_t line_length(const TextRefs* lines, Py_ssize_t k) noexcept nogil:
    """Line k's length without its trailing whitespace (sacrebleu's rstrip)."""
    cdef const TextRef* t = &lines.data[k]
    return rstrip_kind(t.data, t.kind, t.length)


cdef int tokenize_piece(Workspace ws, const TextRefs* lines, Py_ssize_t k, int tok_mode,
                        Py_ssize_t n, Py_ssize_t* pos, U32Buf* chars, I64Buf* ends,
                        I64Buf* hashes) noexcept nogil:
    """The tokens of line k (n: its line_length) from *pos to the end of the piece there, appended;
    *pos moves to that end. A piece ends about PIECE_CHARS code points on, at a space (anywhere
    for char), or at n; for zh (which strips the line first), at n.
    none and char split at every space. 13a's replacements match no space, and its rules 2-4
    pair a character with a space only at a space's own side (see split_13a_direct), so the
    tokens of ' '-separated pieces are the line's. intl's three passes each match one or two
    characters, a space never among those a match begins with in one pass and ends with in
    another: pass 1 ((\\P{N})(\\p{P})) may begin with a space, never end with one; pass 2
    ((\\p{P})(\\P{N})) may end with one, never begin; pass 3 takes no space. So with the space
    in both pieces, the one before ending with it and the next beginning with it, each pass
    finds the line's matches in the two pieces, and the space stays between their outputs."""
    cdef const TextRef* t = &lines.data[k]
    cdef Py_ssize_t a = pos[0], b = a + PIECE_CHARS
    if b >= n or tok_mode == TOK_ZH:
        b = n
    elif tok_mode != TOK_CHAR:
        if t.kind == 1:
            while b < n and (<const uint8_t*>t.data)[b] != 0x20:
                b += 1
        elif t.kind == 2:
            while b < n and (<const uint16_t*>t.data)[b] != 0x20:
                b += 1
        else:
            while b < n and (<const uint32_t*>t.data)[b] != 0x20:
                b += 1
    pos[0] = b
    if tok_mode == TOK_INTL and b < n:
        b += 1        # the space, which the next piece begins with
    return split_text(ws, <const char*>t.data + a * t.kind, t.kind, b - a, tok_mode, False,
                      chars, ends, hashes)


def _set_piece_chars(Py_ssize_t n):
    """Tests: tokenize lines longer than n code points in pieces of about n (returns the old n)."""
    global PIECE_CHARS
    if n < 1:
        raise ValueError("pieces must hold at least one code point")
    old = PIECE_CHARS
    PIECE_CHARS = n
    return old


def tokenize_13a(line):
    """sacrebleu's Tokenizer13a()(line): the tokens joined by single spaces."""
    return tokenize(line, "13a")


def tokenize(line, str tokenize="13a"):
    """sacrebleu's tokenizer `tokenize` (none, 13a, intl, zh, char) applied to line: the tokens
    joined by single spaces."""
    cdef Workspace ws
    cdef Py_ssize_t n, t, t0 = 0, j = 0
    cdef int rc, mode, kind
    cdef const void* data
    if not isinstance(line, str):
        raise TypeError(f"the line to tokenize is {type(line).__name__}, not str")
    mode = tokenizer_mode(tokenize)
    ws = Workspace()
    CYBLEU_UNICODE_READY(line)
    n = PyUnicode_GET_LENGTH(line)
    data = PyUnicode_DATA(line)
    kind = PyUnicode_KIND(line)
    with nogil:
        # the tokenizer's own output: no rstrip (13a removes a '-' before a final newline)
        rc = split_text(ws, data, kind, n, mode, False, &ws.tok_chars, &ws.tok_ends,
                        &ws.tok_hash)
        if rc == 0:
            rc = u32_reserve(&ws.wide, ws.tok_chars.size + ws.tok_ends.size)
        if rc == 0:
            for t in range(ws.tok_ends.size):
                if t:
                    ws.wide.data[j] = 0x20
                    j += 1
                memcpy(ws.wide.data + j, ws.tok_chars.data + t0,
                       (ws.tok_ends.data[t] - t0) * sizeof(uint32_t))
                j += ws.tok_ends.data[t] - t0
                t0 = ws.tok_ends.data[t]
    raise_for(rc)
    return PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, ws.wide.data, j)
