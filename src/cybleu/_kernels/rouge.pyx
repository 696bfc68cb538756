"""ROUGE (floor 2): rouge-score 0.1.2's statistics and scores of text pairs, compiled. The twin
`rouge_py.py` is the readable specification of every public name; the tests hold the two (and
rouge-score itself) to the same results bit for bit.

The path of a pair: its characters are read where CPython keeps them (no copy); rouge-score's
tokenizer (lowercase, [a-z0-9] runs) interns each token in a vocabulary that remembers its Porter
stem, so a word is stemmed once per scorer, not once per occurrence; the pair's tokens then get
dense local IDs, and every type works on those:
- rougeN: n-grams get dense IDs level by level, each keyed exactly on (its (n-1)-gram's ID, its
  last token), and the overlap is the sum of the smaller counts;
- rougeL: the LCS length, bit-parallel (Hyyro's column recurrence, 64 target tokens per word,
  in strips of words so that the match masks stay small);
- rougeLsum: for each target sentence the same recurrence with every column kept (or, for a long
  pair, checkpoints and one recomputed block at a time), and the backtrack of rouge-score's
  table read off the columns: t[i][j] = i - (set bits among the column's low i bits).
Statistics are three integers per type; precision, recall and F are the C copy of
`cybleu._scoring.rouge.prf`. A batch runs on threads without the GIL, a bounded piece at a time
with Ctrl-C looked at in between.
"""
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawRealloc, PyMem_RawFree
from cpython.array cimport array, clone
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memset, memcpy

from .buffers cimport u32_reserve, u32_push, i64_reserve, i64_push, raw_reserve
from .defs cimport U32Buf, I64Buf, hash_t, ERR_NOMEM
from .hashing cimport slot_of, slot_shift, hash_step
from .porter cimport stem_word
from .workspace cimport Job, run_jobs

__all__ = ["KIND_NGRAM", "KIND_L", "KIND_LSUM", "tokenize", "ngram_stats", "lcs_stats",
           "lcs_indices", "summary_lcs_stats", "Scorer"]

cdef extern from "Python.h":
    int PyUnicode_KIND(object o)
    void* PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    int PyUnicode_READY(object o) except -1
    bint PyUnicode_Check(object o)
    object PyUnicode_FromStringAndSize(const char* s, Py_ssize_t size)

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define cyb_popcount64(x) ((int)__builtin_popcountll(x))
    #else
    static int cyb_popcount64(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    """
    int popcount64 "cyb_popcount64"(uint64_t x) noexcept nogil

KIND_NGRAM = K_NGRAM
KIND_L = K_L
KIND_LSUM = K_LSUM

# A scorer's vocabulary is a cache: past this many tokens it starts afresh (between calls), so
# memory stays bounded whatever text passes through.
cdef Py_ssize_t VOCAB_LIMIT = 1 << 20
# Match masks and stored LCS columns past these many 64-bit words are split (strips of the
# target; checkpoints and one recomputed block of columns).
cdef enum:
    STRIP_WORDS = 128
cdef Py_ssize_t strip_words = STRIP_WORDS
cdef Py_ssize_t COLUMN_WORDS = 1 << 21
cdef uint64_t ZEROS[STRIP_WORDS]
memset(ZEROS, 0, sizeof(ZEROS))
# A single pair larger than this (characters) is scored without the GIL.
cdef Py_ssize_t NOGIL_CHARS = 1 << 16
# A batch thread's step: about this many characters, then a look at Ctrl-C.
cdef Py_ssize_t STEP_CHARS = 1 << 16

# rouge-score's tokenizer on ASCII: the lowercase letter or digit, 0 for a separator
cdef uint8_t ASCII_MAP[128]
for _c in range(128):
    ASCII_MAP[_c] = 0
for _c in range(ord("a"), ord("z") + 1):
    ASCII_MAP[_c] = _c
    ASCII_MAP[_c - 32] = _c
for _c in range(ord("0"), ord("9") + 1):
    ASCII_MAP[_c] = _c


# ---------------------------------------------------------------------------------------------
# the workspace

cdef class RougeWork:

    def __cinit__(self):
        self.lgen = 0
        self.ggen = 0
        self.pm_gen = 0

    def __dealloc__(self):
        PyMem_RawFree(self.vocab.slots)
        PyMem_RawFree(self.vocab.entries)
        PyMem_RawFree(self.vocab.arena)
        PyMem_RawFree(self.tok.data)
        PyMem_RawFree(self.t_ids.data)
        PyMem_RawFree(self.p_ids.data)
        PyMem_RawFree(self.t_lines.data)
        PyMem_RawFree(self.p_lines.data)
        PyMem_RawFree(self.rows.data)
        PyMem_RawFree(self.best.data)
        PyMem_RawFree(self.lt.data)
        PyMem_RawFree(self.lp.data)
        PyMem_RawFree(self.lst.data)
        PyMem_RawFree(self.lsp.data)
        PyMem_RawFree(self.gt.data)
        PyMem_RawFree(self.gp.data)
        PyMem_RawFree(self.ct.data)
        PyMem_RawFree(self.cp.data)
        PyMem_RawFree(self.cnt_r.data)
        PyMem_RawFree(self.cnt_c.data)
        PyMem_RawFree(self.lslots)
        PyMem_RawFree(self.gslots)
        PyMem_RawFree(self.pm_row)
        PyMem_RawFree(self.pm_stamp)
        PyMem_RawFree(self.pm)
        PyMem_RawFree(self.cols)
        PyMem_RawFree(self.block)
        PyMem_RawFree(self.marks)
        PyMem_RawFree(self.carry)

    cdef size_t nbytes(self):
        return ((self.vocab.mask + 1) * 4 + self.vocab.ecap * sizeof(TokEntry) + self.vocab.acap
                + 4 * (self.tok.cap + self.t_ids.cap + self.p_ids.cap + self.lt.cap + self.lp.cap
                       + self.lst.cap + self.lsp.cap + self.gt.cap + self.gp.cap + self.ct.cap
                       + self.cp.cap + self.cnt_r.cap + self.cnt_c.cap)
                + 8 * (self.t_lines.cap + self.p_lines.cap + self.rows.cap + self.best.cap)
                + (self.lmask + 1) * sizeof(LocalSlot) + (self.gmask + 1) * sizeof(GramSlot)
                + self.pm_cap * 8 + 8 * (self.pm_words + self.cols_words + self.block_words)
                + self.marks_cap + self.carry_cap)


# ---------------------------------------------------------------------------------------------
# the vocabulary and the tokenizer

cdef void vocab_clear(TokVocab* v) noexcept nogil:
    if v.slots != NULL:
        memset(v.slots, 0xff, <size_t>(v.mask + 1) * sizeof(int32_t))
    v.n = 0
    v.asize = 0


cdef int vocab_rehash(TokVocab* v, Py_ssize_t nslots) noexcept nogil:
    cdef int32_t* slots = <int32_t*>PyMem_RawMalloc(<size_t>nslots * sizeof(int32_t))
    cdef Py_ssize_t e, i, mask = nslots - 1
    cdef int shift = slot_shift(nslots)
    if slots == NULL:
        return ERR_NOMEM
    memset(slots, 0xff, <size_t>nslots * sizeof(int32_t))
    for e in range(v.n):
        i = slot_of(v.entries[e].h, shift)
        while slots[i] >= 0:
            i = (i + 1) & mask
        slots[i] = <int32_t>e
    PyMem_RawFree(v.slots)
    v.slots = slots
    v.mask = mask
    v.shift = shift
    return 0


cdef int32_t vocab_intern(TokVocab* v, const uint32_t* s, Py_ssize_t n) noexcept nogil:
    """The entry of token s[:n] (ASCII letters and digits), added if new; -1 when memory is
    short."""
    cdef hash_t h = 0xcbf29ce484222325ULL
    cdef Py_ssize_t i, k
    cdef int32_t e
    cdef TokEntry* en
    cdef const uint8_t* stored
    for k in range(n):
        h = hash_step(h, s[k])
    if v.slots == NULL or 2 * (v.n + 1) > v.mask + 1:
        if vocab_rehash(v, 1024 if v.slots == NULL else 2 * (v.mask + 1)) < 0:
            return -1
    i = slot_of(h, v.shift)
    while True:
        e = v.slots[i]
        if e < 0:
            break
        en = &v.entries[e]
        if en.h == h and en.length == n:
            stored = v.arena + en.off
            for k in range(n):
                if stored[k] != s[k]:
                    break
            else:
                return e
        i = (i + 1) & v.mask
    if raw_reserve(<void**>&v.entries, &v.ecap, v.n + 1, sizeof(TokEntry)) < 0 \
            or raw_reserve(<void**>&v.arena, &v.acap, v.asize + n, 1) < 0:
        return -1
    e = <int32_t>v.n
    en = &v.entries[e]
    en.h = h
    en.off = v.asize
    en.length = <int32_t>n
    en.stem = -1
    for k in range(n):
        v.arena[v.asize + k] = <uint8_t>s[k]
    v.asize += n
    v.slots[i] = e
    v.n += 1
    return e


cdef int32_t token_id(RougeWork w, bint stem) noexcept nogil:
    """The ID of the token in w.tok (its stem's, when stemming and longer than 3); -1 when
    memory is short, -2 when it stems to nothing (dropped, as rouge-score's final check does)."""
    cdef TokVocab* v = &w.vocab
    cdef Py_ssize_t n = w.tok.size, k, m
    cdef int32_t e = vocab_intern(v, w.tok.data, n), s
    cdef const uint8_t* src
    if e < 0:
        return -1
    if not stem or n <= 3:
        return e
    s = v.entries[e].stem
    if s != -1:
        return s
    # stem a copy (the arena moves when the stem is added)
    if u32_reserve(&w.tok, 2 * n) < 0:
        return -1
    src = v.arena + v.entries[e].off
    for k in range(n):
        w.tok.data[n + k] = src[k]
    m = stem_word(w.tok.data + n, n)
    if m == 0:
        s = -2
    else:
        s = vocab_intern(v, w.tok.data + n, m)
        if s < 0:
            return -1
    v.entries[e].stem = s
    return s


cdef inline uint32_t _char(const void* data, int kind, Py_ssize_t i) noexcept nogil:
    if kind == 1:
        return (<const uint8_t*>data)[i]
    if kind == 2:
        return (<const uint16_t*>data)[i]
    return (<const uint32_t*>data)[i]


cdef int _end_token(RougeWork w, bint stem, U32Buf* ids) noexcept nogil:
    cdef int32_t e
    if w.tok.size == 0:
        return 0
    e = token_id(w, stem)
    w.tok.size = 0
    if e == -1:
        return ERR_NOMEM
    if e == -2:
        return 0
    return u32_push(ids, <uint32_t>e)


cdef int tokenize_into(RougeWork w, TextRef t, bint stem, U32Buf* ids, I64Buf* lines) noexcept nogil:
    """rouge-score's tokens of the text, appended to ids as vocabulary entries. lines (or NULL)
    gets the token offsets of the text's lines ("\\n"): 0, then where each next line starts,
    then the end, so that line k's tokens are ids[lines[k]:lines[k+1]] (relative to the start)."""
    cdef Py_ssize_t i, base = ids.size
    cdef uint32_t c
    cdef uint32_t a
    w.tok.size = 0
    if lines != NULL:
        lines.size = 0
        if i64_push(lines, 0) < 0:
            return ERR_NOMEM
    for i in range(t.length):
        c = _char(t.data, t.kind, i)
        if c < 128:
            a = ASCII_MAP[c]
        elif c == 0x212A:       # KELVIN SIGN: lowercase is k
            a = 107
        elif c == 0x130:        # LATIN CAPITAL I WITH DOT ABOVE: i, then a combining dot
            a = 105
        else:
            a = 0
        if a:
            if u32_push(&w.tok, a) < 0:
                return ERR_NOMEM
            if c != 0x130:
                continue
        if _end_token(w, stem, ids) < 0:
            return ERR_NOMEM
        if c == 10 and lines != NULL and i64_push(lines, ids.size - base) < 0:
            return ERR_NOMEM
    if _end_token(w, stem, ids) < 0:
        return ERR_NOMEM
    if lines != NULL and i64_push(lines, ids.size - base) < 0:
        return ERR_NOMEM
    return 0


# ---------------------------------------------------------------------------------------------
# local IDs and n-gram IDs

cdef int local_reset(RougeWork w, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t nslots = 64
    cdef void* p
    while nslots < 2 * need:
        nslots *= 2
    if nslots > w.lmask + 1:
        p = PyMem_RawRealloc(w.lslots, <size_t>nslots * sizeof(LocalSlot))
        if p == NULL:
            return ERR_NOMEM
        w.lslots = <LocalSlot*>p
        w.lmask = nslots - 1
        w.lshift = slot_shift(nslots)
        memset(w.lslots, 0, <size_t>nslots * sizeof(LocalSlot))
        w.lgen = 0
    w.lgen += 1
    if w.lgen == 0:
        memset(w.lslots, 0, <size_t>(w.lmask + 1) * sizeof(LocalSlot))
        w.lgen = 1
    w.nloc = 0
    return 0


cdef inline uint32_t local_of(RougeWork w, uint32_t key) noexcept nogil:
    cdef Py_ssize_t i = slot_of(key, w.lshift)
    cdef LocalSlot* s
    while True:
        s = &w.lslots[i]
        if s.gen != w.lgen:
            s.gen = w.lgen
            s.key = key
            s.val = w.nloc
            w.nloc += 1
            return s.val
        if s.key == key:
            return s.val
        i = (i + 1) & w.lmask


cdef int gram_reset(RougeWork w, Py_ssize_t need) noexcept nogil:
    cdef Py_ssize_t nslots = 64
    cdef void* p
    while nslots < 2 * need:
        nslots *= 2
    if nslots > w.gmask + 1:
        p = PyMem_RawRealloc(w.gslots, <size_t>nslots * sizeof(GramSlot))
        if p == NULL:
            return ERR_NOMEM
        w.gslots = <GramSlot*>p
        w.gmask = nslots - 1
        w.gshift = slot_shift(nslots)
        memset(w.gslots, 0, <size_t>nslots * sizeof(GramSlot))
        w.ggen = 0
    w.ggen += 1
    if w.ggen == 0:
        memset(w.gslots, 0, <size_t>(w.gmask + 1) * sizeof(GramSlot))
        w.ggen = 1
    w.ngram_ids = 0
    return 0


cdef inline uint32_t gram_of(RougeWork w, uint64_t key) noexcept nogil:
    cdef Py_ssize_t i = slot_of(key, w.gshift)
    cdef GramSlot* s
    while True:
        s = &w.gslots[i]
        if s.gen != w.ggen:
            s.gen = w.ggen
            s.key = key
            s.id = w.ngram_ids
            w.ngram_ids += 1
            return s.id
        if s.key == key:
            return s.id
        i = (i + 1) & w.gmask


cdef int ngram_overlaps(RougeWork w, Py_ssize_t m, Py_ssize_t n, int max_n,
                        int64_t* overlap) noexcept nogil:
    """overlap[k - 1] = the n-grams of order k the local sequences w.lt[:m] and w.lp[:n]
    share, for k = 1..max_n (level k's IDs are keyed on level k-1's)."""
    cdef Py_ssize_t i, nid, mt, np_
    cdef int k
    cdef int64_t total
    cdef uint32_t* gt
    cdef uint32_t* gp
    cdef uint32_t* ct
    cdef uint32_t* cp
    if u32_reserve(&w.gt, m + 1) < 0 or u32_reserve(&w.gp, n + 1) < 0 \
            or u32_reserve(&w.ct, m + n + w.nloc + 1) < 0 \
            or u32_reserve(&w.cp, m + n + w.nloc + 1) < 0:
        return ERR_NOMEM
    gt, gp, ct, cp = w.gt.data, w.gp.data, w.ct.data, w.cp.data
    for i in range(m):
        gt[i] = w.lt.data[i]
    for i in range(n):
        gp[i] = w.lp.data[i]
    nid = w.nloc
    for k in range(1, max_n + 1):
        mt = m - k + 1
        np_ = n - k + 1
        if mt <= 0 or np_ <= 0:
            overlap[k - 1] = 0
            continue
        if k > 1:
            if gram_reset(w, mt + np_) < 0:
                return ERR_NOMEM
            for i in range(mt):
                gt[i] = gram_of(w, (<uint64_t>gt[i] << 32) | w.lt.data[i + k - 1])
            for i in range(np_):
                gp[i] = gram_of(w, (<uint64_t>gp[i] << 32) | w.lp.data[i + k - 1])
            nid = w.ngram_ids
        memset(ct, 0, <size_t>nid * 4)
        memset(cp, 0, <size_t>nid * 4)
        for i in range(mt):
            ct[gt[i]] += 1
        for i in range(np_):
            cp[gp[i]] += 1
        total = 0
        for i in range(nid):
            total += ct[i] if ct[i] < cp[i] else cp[i]
        overlap[k - 1] = total
    return 0


# ---------------------------------------------------------------------------------------------
# LCS, bit-parallel: bit i of a column is 0 where t[i + 1][j] = t[i][j] + 1

cdef inline void bp_step(uint64_t* V, const uint64_t* M, Py_ssize_t W, uint8_t* carry) noexcept nogil:
    """One column of the recurrence V = (V + U) | (V - U), U = V & M, over W words; carry is the
    carry into the first word and receives the carry out of the last."""
    cdef Py_ssize_t k
    cdef uint64_t v, u, s, s2
    cdef uint64_t c = carry[0]
    for k in range(W):
        v = V[k]
        u = v & M[k]
        s = v + u
        s2 = s + c
        c = (s < v) | (s2 < s)
        V[k] = s2 | (v & ~u)
    carry[0] = <uint8_t>c


cdef int pm_build(RougeWork w, const uint32_t* seq, Py_ssize_t lo, Py_ssize_t hi,
                  Py_ssize_t W) noexcept nogil:
    """Match masks of the symbols of seq[lo:hi], bit (i - lo) for position i, W words each; a
    symbol's row is w.pm_row[sym] where w.pm_stamp[sym] == w.pm_gen."""
    cdef Py_ssize_t i, rows = 0, need
    cdef uint32_t s
    cdef void* p
    w.pm_gen += 1
    if w.pm_gen == 0:
        memset(w.pm_stamp, 0, <size_t>w.pm_cap * sizeof(uint32_t))
        w.pm_gen = 1
    for i in range(lo, hi):
        s = seq[i]
        if w.pm_stamp[s] != w.pm_gen:
            w.pm_stamp[s] = w.pm_gen
            w.pm_row[s] = <int32_t>rows
            rows += 1
    need = rows * W
    if need > w.pm_words:
        p = PyMem_RawRealloc(w.pm, <size_t>need * 8)
        if p == NULL:
            return ERR_NOMEM
        w.pm = <uint64_t*>p
        w.pm_words = need
    memset(w.pm, 0, <size_t>need * 8)
    for i in range(lo, hi):
        w.pm[w.pm_row[seq[i]] * W + ((i - lo) >> 6)] |= (<uint64_t>1) << ((i - lo) & 63)
    return 0


cdef inline const uint64_t* pm_mask(RougeWork w, uint32_t s, Py_ssize_t W) noexcept nogil:
    if s < w.pm_cap and w.pm_stamp[s] == w.pm_gen:
        return w.pm + w.pm_row[s] * W
    return NULL


cdef int stamps_ready(RougeWork w, Py_ssize_t nsym) noexcept nogil:
    """pm_row and pm_stamp cover local IDs < nsym."""
    cdef Py_ssize_t old = w.pm_cap, c
    cdef void* p
    if nsym <= old:
        return 0
    c = old * 2 if old * 2 > nsym else nsym
    if c < 64:
        c = 64
    p = PyMem_RawRealloc(w.pm_row, <size_t>c * sizeof(int32_t))
    if p == NULL:
        return ERR_NOMEM
    w.pm_row = <int32_t*>p
    p = PyMem_RawRealloc(w.pm_stamp, <size_t>c * sizeof(uint32_t))
    if p == NULL:
        return ERR_NOMEM
    w.pm_stamp = <uint32_t*>p
    memset(w.pm_stamp + old, 0, <size_t>(c - old) * sizeof(uint32_t))
    w.pm_cap = c
    return 0


cdef int lcs_length(RougeWork w, const uint32_t* T, Py_ssize_t m, const uint32_t* P,
                    Py_ssize_t n, int64_t* out) noexcept nogil:
    """out = the LCS length of T[:m] and P[:n] (local IDs), in strips of STRIP_WORDS words of
    T's positions, the carries of each column handed from strip to strip."""
    cdef Py_ssize_t W = (m + 63) >> 6, s0, s1, S, j, k, lo, hi, bits
    cdef uint64_t V[STRIP_WORDS]
    cdef int64_t ones = 0
    cdef const uint64_t* M
    out[0] = 0
    if m == 0 or n == 0:
        return 0
    if raw_reserve(<void**>&w.carry, &w.carry_cap, n, 1) < 0:
        return ERR_NOMEM
    memset(w.carry, 0, <size_t>n)
    s0 = 0
    while s0 < W:
        s1 = s0 + strip_words if s0 + strip_words < W else W
        S = s1 - s0
        lo = s0 * 64
        hi = s1 * 64 if s1 * 64 < m else m
        if pm_build(w, T, lo, hi, S) < 0:
            return ERR_NOMEM
        for k in range(S):
            V[k] = <uint64_t>-1
        bits = hi - lo
        if bits & 63:
            V[S - 1] = ((<uint64_t>1) << (bits & 63)) - 1
        for j in range(n):
            M = pm_mask(w, P[j], S)
            if M == NULL:
                if not w.carry[j]:
                    continue        # no match and no carry: the column leaves V as it is
                M = ZEROS           # a carry from the strip below still adds
            bp_step(V, M, S, &w.carry[j])
        for k in range(S):
            if k == S - 1 and bits & 63:
                ones += popcount64(V[k] & (((<uint64_t>1) << (bits & 63)) - 1))
            else:
                ones += popcount64(V[k])
        s0 = s1
    out[0] = m - ones
    return 0


cdef inline int64_t _low_ones(const uint64_t* col, Py_ssize_t i) noexcept nogil:
    """The set bits among the column's low i bits."""
    cdef Py_ssize_t k
    cdef int64_t c = 0
    for k in range(i >> 6):
        c += popcount64(col[k])
    if i & 63:
        c += popcount64(col[i >> 6] & (((<uint64_t>1) << (i & 63)) - 1))
    return c


cdef inline int _bit(const uint64_t* col, Py_ssize_t i) noexcept nogil:
    return <int>((col[i >> 6] >> (i & 63)) & 1)


cdef int _block(RougeWork w, const uint32_t* c, Py_ssize_t nc, Py_ssize_t W, Py_ssize_t B,
                Py_ssize_t start) noexcept nogil:
    """Columns start..min(start + B, nc) into w.block, from the checkpoint of column start."""
    cdef Py_ssize_t j, end = start + B if start + B < nc else nc
    cdef const uint64_t* M
    cdef uint8_t carry
    memcpy(w.block, w.cols + (start // B) * W, <size_t>W * 8)
    for j in range(start, end):
        memcpy(w.block + (j - start + 1) * W, w.block + (j - start) * W, <size_t>W * 8)
        M = pm_mask(w, c[j], W)
        if M != NULL:
            carry = 0
            bp_step(w.block + (j - start + 1) * W, M, W, &carry)
    return 0


cdef int lcs_mark(RougeWork w, const uint32_t* r, Py_ssize_t mr, const uint32_t* c,
                  Py_ssize_t nc, uint8_t* marks) noexcept nogil:
    """Set marks[i] for the positions of r[:mr] in the LCS rouge-score's backtrack reads (a
    match is taken, else left when t[i][j-1] > t[i-1][j], else up). The match masks of r are
    built (pm_build(w, r, 0, mr, W)) by the caller."""
    cdef Py_ssize_t W = (mr + 63) >> 6, B, j, i, nblocks, cur, k
    cdef uint64_t* V
    cdef const uint64_t* M
    cdef const uint64_t* colj
    cdef const uint64_t* coljm1
    cdef uint8_t carry
    cdef int64_t tij, tijm1, up
    cdef bint full
    cdef void* p
    if mr == 0 or nc == 0:
        return 0
    full = (nc + 1) * W <= COLUMN_WORDS
    if full:
        B = nc
        nblocks = 1
    else:
        B = 1
        while B * B < nc:
            B += 1
        nblocks = nc // B + 1
    # w.cols: every column (full) or the checkpoints of columns 0, B, 2B, ...
    if raw_reserve(<void**>&w.cols, &w.cols_words, ((nc + 1) if full else nblocks) * W, 8) < 0:
        return ERR_NOMEM
    if not full and raw_reserve(<void**>&w.block, &w.block_words, (B + 1) * W, 8) < 0:
        return ERR_NOMEM
    V = w.cols
    for k in range(W):
        V[k] = <uint64_t>-1
    if mr & 63:
        V[W - 1] = ((<uint64_t>1) << (mr & 63)) - 1
    if full:
        for j in range(nc):
            memcpy(V + W, V, <size_t>W * 8)
            V += W
            M = pm_mask(w, c[j], W)
            if M != NULL:
                carry = 0
                bp_step(V, M, W, &carry)
    else:
        # checkpoints; the running column lives in w.block
        memcpy(w.block, w.cols, <size_t>W * 8)
        for j in range(nc):
            M = pm_mask(w, c[j], W)
            if M != NULL:
                carry = 0
                bp_step(w.block, M, W, &carry)
            if (j + 1) % B == 0:
                memcpy(w.cols + ((j + 1) // B) * W, w.block, <size_t>W * 8)
    # backtrack; cur: the first column held in w.block (-1: none)
    i = mr
    j = nc
    cur = -1
    if full:
        colj = w.cols + j * W
        coljm1 = w.cols + (j - 1) * W
    else:
        cur = ((j - 1) // B) * B
        _block(w, c, nc, W, B, cur)
        colj = w.block + (j - cur) * W
        coljm1 = w.block + (j - 1 - cur) * W
    tij = i - _low_ones(colj, i)
    tijm1 = i - _low_ones(coljm1, i)
    while i > 0 and j > 0:
        if r[i - 1] == c[j - 1]:
            marks[i - 1] = 1
            i -= 1
            j -= 1
            tij -= 1
        else:
            up = tij - (1 - _bit(colj, i - 1))
            if tijm1 > up:
                j -= 1
                tij = tijm1
            else:
                i -= 1
                tij = up
                tijm1 -= 1 - _bit(coljm1, i)
                continue
        if j == 0 or i == 0:
            break
        # the new column pair (j, j - 1)
        if full:
            colj = w.cols + j * W
            coljm1 = w.cols + (j - 1) * W
        else:
            if j - 1 < cur:
                cur = ((j - 1) // B) * B
                _block(w, c, nc, W, B, cur)
            colj = w.block + (j - cur) * W
            coljm1 = w.block + (j - 1 - cur) * W
        tijm1 = i - _low_ones(coljm1, i)
    return 0


cdef int summary_lcs(RougeWork w, const uint32_t* ST, const int64_t* sto, Py_ssize_t nst,
                     const uint32_t* SP, const int64_t* spo, Py_ssize_t nsp,
                     int64_t* out) noexcept nogil:
    """out = [hits, prediction tokens, target tokens] of summary-level LCS (local IDs; sentence
    k of the target is ST[sto[k]:sto[k+1]])."""
    cdef Py_ssize_t m = sto[nst] - sto[0], n = spo[nsp] - spo[0], a, b, q, i, W
    cdef int64_t hits = 0
    cdef uint32_t t
    cdef uint32_t* cr
    cdef uint32_t* cc
    out[0] = 0
    out[1] = n
    out[2] = m
    if m == 0 or n == 0:
        return 0
    if u32_reserve(&w.cnt_r, w.nloc + 1) < 0 or u32_reserve(&w.cnt_c, w.nloc + 1) < 0:
        return ERR_NOMEM
    cr, cc = w.cnt_r.data, w.cnt_c.data
    memset(cr, 0, <size_t>w.nloc * 4)
    memset(cc, 0, <size_t>w.nloc * 4)
    for i in range(sto[0], sto[nst]):
        cr[ST[i]] += 1
    for i in range(spo[0], spo[nsp]):
        cc[SP[i]] += 1
    for a in range(nst):
        q = sto[a + 1] - sto[a]
        if q == 0:
            continue
        if raw_reserve(<void**>&w.marks, &w.marks_cap, q, 1) < 0:
            return ERR_NOMEM
        memset(w.marks, 0, <size_t>q)
        W = (q + 63) >> 6
        if pm_build(w, ST + sto[a], 0, q, W) < 0:
            return ERR_NOMEM
        for b in range(nsp):
            if lcs_mark(w, ST + sto[a], q, SP + spo[b], spo[b + 1] - spo[b], w.marks) < 0:
                return ERR_NOMEM
        for i in range(q):
            if w.marks[i]:
                t = ST[sto[a] + i]
                if cc[t] > 0 and cr[t] > 0:
                    hits += 1
                    cc[t] -= 1
                    cr[t] -= 1
    out[0] = hits
    return 0


cdef int pair_stats(RougeWork w, const uint32_t* T, Py_ssize_t m, const uint32_t* P, Py_ssize_t n,
                    const uint32_t* ST, const int64_t* sto, Py_ssize_t nst,
                    const uint32_t* SP, const int64_t* spo, Py_ssize_t nsp,
                    const Kind* kinds, int nk, int64_t* out) noexcept nogil:
    """out[3k:3k+3] = [hits, prediction total, target total] of type k. T, P: the token IDs of
    target and prediction (for rougeN and rougeL); ST/sto, SP/spo: their sentences (rougeLsum;
    ignored when no type asks)."""
    cdef int k, max_n = 0
    cdef bint want_l = False, want_lsum = False, same
    cdef Py_ssize_t i, total
    cdef int64_t overlap[9]
    cdef int64_t lcs = 0
    cdef int64_t lsum[3]
    for k in range(nk):
        if kinds[k].kind == K_NGRAM:
            if kinds[k].n > max_n:
                max_n = kinds[k].n
        elif kinds[k].kind == K_L:
            want_l = True
        else:
            want_lsum = True
    total = m + n
    if want_lsum:
        total += (sto[nst] - sto[0]) + (spo[nsp] - spo[0])
    if local_reset(w, total) < 0:
        return ERR_NOMEM
    if u32_reserve(&w.lt, m + 1) < 0 or u32_reserve(&w.lp, n + 1) < 0:
        return ERR_NOMEM
    for i in range(m):
        w.lt.data[i] = local_of(w, T[i])
    for i in range(n):
        w.lp.data[i] = local_of(w, P[i])
    if want_lsum:
        # the sentences are often the lines of T and P themselves: their local IDs are known
        if u32_reserve(&w.lst, sto[nst] + 1) < 0 or u32_reserve(&w.lsp, spo[nsp] + 1) < 0:
            return ERR_NOMEM
        same = ST == T and sto[nst] <= m
        for i in range(sto[0], sto[nst]):
            w.lst.data[i] = w.lt.data[i] if same else local_of(w, ST[i])
        same = SP == P and spo[nsp] <= n
        for i in range(spo[0], spo[nsp]):
            w.lsp.data[i] = w.lp.data[i] if same else local_of(w, SP[i])
    if stamps_ready(w, w.nloc + 1) < 0:
        return ERR_NOMEM
    if max_n > 0 and ngram_overlaps(w, m, n, max_n, overlap) < 0:
        return ERR_NOMEM
    if want_l and lcs_length(w, w.lt.data, m, w.lp.data, n, &lcs) < 0:
        return ERR_NOMEM
    if want_lsum and summary_lcs(w, w.lst.data, sto, nst, w.lsp.data, spo, nsp, lsum) < 0:
        return ERR_NOMEM
    for k in range(nk):
        if kinds[k].kind == K_NGRAM:
            out[3 * k] = overlap[kinds[k].n - 1]
            out[3 * k + 1] = n - kinds[k].n + 1 if n >= kinds[k].n else 0
            out[3 * k + 2] = m - kinds[k].n + 1 if m >= kinds[k].n else 0
        elif kinds[k].kind == K_L:
            out[3 * k] = lcs
            out[3 * k + 1] = n
            out[3 * k + 2] = m
        else:
            out[3 * k] = lsum[0]
            out[3 * k + 1] = lsum[1]
            out[3 * k + 2] = lsum[2]
    return 0


cdef void prf(int kind, const int64_t* row, double* out) noexcept nogil:
    """cybleu._scoring.rouge.prf on one row, operation for operation (as doubles: the LCS types'
    integer zeros are 0.0 here)."""
    cdef double p, r
    cdef int64_t h = row[0], pt = row[1], tt = row[2]
    if kind != K_NGRAM and (pt == 0 or tt == 0):
        out[0] = out[1] = out[2] = 0.0
        return
    p = <double>h / <double>(pt if pt > 1 else 1)
    r = <double>h / <double>(tt if tt > 1 else 1)
    out[0] = p
    out[1] = r
    out[2] = 2.0 * p * r / (p + r) if p + r > 0 else 0.0


# ---------------------------------------------------------------------------------------------
# the Python faces

cdef inline TextRef _text(object s) except *:
    cdef TextRef t
    PyUnicode_READY(s)
    t.data = PyUnicode_DATA(s)
    t.length = PyUnicode_GET_LENGTH(s)
    t.kind = PyUnicode_KIND(s)
    return t


def _set_limits(strips, columns):
    """For tests: the LCS strip width (words, 1 to 128) and the stored-column budget (words),
    small enough that short texts take the paths long ones take; returns the old pair."""
    global strip_words, COLUMN_WORDS
    old = (strip_words, COLUMN_WORDS)
    if not 1 <= strips <= STRIP_WORDS or columns < 1:
        raise ValueError("strips must be 1 to 128 words, columns at least 1")
    strip_words, COLUMN_WORDS = strips, columns
    return old


def _check_text(text, what):
    if not isinstance(text, str):
        raise TypeError(f"the {what} is {type(text).__name__}, not str")


cdef int _raise(int rc) except -1:
    if rc == ERR_NOMEM:
        raise MemoryError()
    if rc < 0:
        raise SystemError(f"cybleu's ROUGE kernel: unexpected error code {rc}")
    return 0


cdef str _token_str(RougeWork w, uint32_t e):
    cdef TokEntry* en = &w.vocab.entries[e]
    return PyUnicode_FromStringAndSize(<const char*>(w.vocab.arena + en.off), en.length)


def tokenize(text, stem):
    """rouge-score's `tokenize.tokenize(text, stemmer)` with its default stemmer (nltk's Porter,
    tokens longer than 3 characters) when `stem`, else none."""
    cdef RougeWork w = RougeWork()
    cdef Py_ssize_t k
    _check_text(text, "text")
    _raise(tokenize_into(w, _text(text), stem, &w.t_ids, NULL))
    return [_token_str(w, w.t_ids.data[k]) for k in range(w.t_ids.size)]


cdef int _intern_seq(dict table, object seq, U32Buf* out) except -1:
    """Append the IDs of seq's tokens (equal tokens, equal IDs) to out."""
    for tok in seq:
        v = table.get(tok)
        if v is None:
            v = len(table)
            table[tok] = v
        if u32_push(out, <uint32_t>v) < 0:
            raise MemoryError()
    return 0


cdef int _intern_sentences(dict table, object sentences, U32Buf* out, I64Buf* off) except -1:
    cdef Py_ssize_t base = out.size
    off.size = 0
    if i64_push(off, 0) < 0:
        raise MemoryError()
    for s in sentences:
        _intern_seq(table, s, out)
        if i64_push(off, out.size - base) < 0:
            raise MemoryError()
    return 0


def _check_n(n):
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 9:
        raise ValueError(f"n must be an int from 1 to 9, not {n!r}")


cdef list _stats_of_tokens(list kinds_list, target, prediction, target_sentences,
                           prediction_sentences):
    """pair_stats on token sequences of any hashable tokens; TypeError for unhashable ones."""
    cdef RougeWork w = RougeWork()
    cdef dict table = {}
    cdef Py_ssize_t nk = len(kinds_list), k, m, n
    cdef Kind* ck = <Kind*>PyMem_RawMalloc((nk + 1) * sizeof(Kind))
    cdef const uint32_t* ST = NULL
    cdef const uint32_t* SP = NULL
    cdef const int64_t* sto = NULL
    cdef const int64_t* spo = NULL
    cdef Py_ssize_t nst = 0, nsp = 0
    cdef int rc
    if ck == NULL:
        raise MemoryError()
    try:
        for k in range(nk):
            ck[k].kind = kinds_list[k][1]
            ck[k].n = kinds_list[k][2]
        if target is not None:
            _intern_seq(table, target, &w.t_ids)
        if prediction is not None:
            _intern_seq(table, prediction, &w.p_ids)
        m = w.t_ids.size
        n = w.p_ids.size
        if target_sentences is not None:
            _intern_sentences(table, target_sentences, &w.t_ids, &w.t_lines)
            ST = w.t_ids.data + m
            sto = w.t_lines.data
            nst = w.t_lines.size - 1
        if prediction_sentences is not None:
            _intern_sentences(table, prediction_sentences, &w.p_ids, &w.p_lines)
            SP = w.p_ids.data + n
            spo = w.p_lines.data
            nsp = w.p_lines.size - 1
        if i64_reserve(&w.rows, 3 * nk + 1) < 0:
            raise MemoryError()
        rc = pair_stats(w, w.t_ids.data, m, w.p_ids.data, n, ST, sto, nst, SP, spo, nsp, ck,
                        <int>nk, w.rows.data)
        _raise(rc)
        return [[w.rows.data[3 * k], w.rows.data[3 * k + 1], w.rows.data[3 * k + 2]]
                for k in range(nk)]
    finally:
        PyMem_RawFree(ck)


def _twin():
    from . import rouge_py
    return rouge_py


def ngram_stats(target, prediction, n):
    """(shared n-grams, prediction n-grams, target n-grams) of two token sequences."""
    _check_n(n)
    row = _stats_of_tokens([(None, K_NGRAM, n)], target, prediction, None, None)[0]
    return row[0], row[1], row[2]


def lcs_stats(target, prediction):
    """(LCS length, prediction length, target length) of two token sequences."""
    try:
        row = _stats_of_tokens([(None, K_L, 0)], target, prediction, None, None)[0]
    except TypeError:   # unhashable tokens: compared by equality, as the twin does
        return _twin().lcs_stats(target, prediction)
    return row[0], row[1], row[2]


def lcs_indices(ref, can):
    """The positions in `ref` of the LCS rouge-score's backtrack reads out: from the end, a
    match is taken, else the step goes left when that keeps a longer LCS, else up."""
    cdef RougeWork w = RougeWork()
    cdef dict table = {}
    cdef Py_ssize_t m, n, i, W
    try:
        _intern_seq(table, ref, &w.t_ids)
        _intern_seq(table, can, &w.p_ids)
    except TypeError:
        return _twin().lcs_indices(ref, can)
    m, n = w.t_ids.size, w.p_ids.size
    if m == 0 or n == 0:
        return []
    W = (m + 63) >> 6
    if raw_reserve(<void**>&w.marks, &w.marks_cap, m, 1) < 0 or stamps_ready(w, len(table) + 1) < 0:
        raise MemoryError()
    memset(w.marks, 0, <size_t>m)
    _raise(pm_build(w, w.t_ids.data, 0, m, W))
    _raise(lcs_mark(w, w.t_ids.data, m, w.p_ids.data, n, w.marks))
    return [i for i in range(m) if w.marks[i]]


def summary_lcs_stats(ref_sentences, can_sentences):
    """(hits, prediction tokens, target tokens) of summary-level LCS over sentence token lists."""
    row = _stats_of_tokens([(None, K_LSUM, 0)], None, None, ref_sentences, can_sentences)[0]
    return row[0], row[1], row[2]


def _check_kinds(kinds):
    out = []
    for key, kind, n in kinds:
        if kind not in (KIND_NGRAM, KIND_L, KIND_LSUM) or (kind == KIND_NGRAM and not 1 <= n <= 9):
            raise ValueError(f"bad ROUGE type spec {(key, kind, n)!r}")
        out.append((key, kind, n))
    return out


_tuple_new = tuple.__new__


def _plain_triple(cls):
    """Whether cls(p, r, f) is tuple.__new__(cls, (p, r, f)): a namedtuple of three fields (or a
    subclass of one) that adds no __new__ or __init__ of its own."""
    if not (isinstance(cls, type) and issubclass(cls, tuple)):
        return False
    for klass in cls.__mro__:
        if klass is tuple:
            return False
        own = vars(klass)
        if "__init__" in own:
            return False
        if "__new__" in own:
            # namedtuple's own class: its __new__ is tuple.__new__(cls, (fields...))
            return ("_fields" in own and len(own["_fields"]) == 3 and "_make" in own
                    and getattr(own["__new__"], "__module__", "").startswith("namedtuple_"))
    return False


cdef class _Maker:
    """Makes score_class(p, r, f) objects, through tuple.__new__ when that is the same."""
    cdef object cls
    cdef bint plain

    def __init__(self, cls):
        self.cls = cls
        self.plain = _plain_triple(cls)

    cdef object make(self, int kind, const int64_t* row):
        cdef double v[3]
        if kind != K_NGRAM and (row[1] == 0 or row[2] == 0):
            vals = (0, 0, 0)
        else:
            prf(kind, row, v)
            vals = (v[0], v[1], v[2])
        if self.plain:
            return _tuple_new(self.cls, vals)
        return self.cls(*vals)


cdef class Scorer:
    """Scores pairs for a list of ROUGE types `kinds`, each `(key, kind, n)`: the key of the
    result dict, K_NGRAM (with its n, 1-9), K_L or K_LSUM. `stem`: the default
    tokenizer's Porter stemmer; `score_class(precision, recall, fmeasure)` makes each value."""
    cdef readonly list kinds
    cdef readonly bint stem
    cdef readonly object score_class
    cdef list keys
    cdef Kind* ck
    cdef int nk
    cdef bint want_lsum
    cdef _Maker maker
    cdef RougeWork work
    cdef bint busy
    # the workspaces of a batch's other threads, kept with their stem caches for the next batch
    cdef list spare

    def __cinit__(self):
        self.ck = NULL
        self.spare = []

    def __init__(self, kinds, stem, score_class):
        cdef int k
        self.kinds = _check_kinds(kinds)
        self.stem = bool(stem)
        self.score_class = score_class
        self.keys = [key for key, _, _ in self.kinds]
        self.nk = len(self.kinds)
        PyMem_RawFree(self.ck)
        self.ck = <Kind*>PyMem_RawMalloc((self.nk + 1) * sizeof(Kind))
        if self.ck == NULL:
            raise MemoryError()
        self.want_lsum = False
        for k in range(self.nk):
            self.ck[k].kind = self.kinds[k][1]
            self.ck[k].n = self.kinds[k][2]
            if self.ck[k].kind == K_LSUM:
                self.want_lsum = True
        self.maker = _Maker(score_class)
        self.work = RougeWork()
        self.busy = False

    def __dealloc__(self):
        PyMem_RawFree(self.ck)

    cdef RougeWork _acquire(self):
        # the busy flag is read and set with the GIL held: a second thread that gets in while
        # this one runs without the GIL takes a workspace of its own
        if self.busy:
            return RougeWork()
        self.busy = True
        if self.work.vocab.n > VOCAB_LIMIT:
            vocab_clear(&self.work.vocab)
        return self.work

    cdef void _release(self, RougeWork w):
        if w is self.work:
            self.busy = False

    cdef RougeWork _extra(self):
        """A workspace for a batch's second, third, ... thread (list.pop holds with the GIL)."""
        cdef RougeWork w
        try:
            w = self.spare.pop()
        except IndexError:
            return RougeWork()
        if w.vocab.n > VOCAB_LIMIT:
            vocab_clear(&w.vocab)
        return w

    cdef void _keep(self, list jobs):
        """Hand the jobs' workspaces back: the first to _release, the others to the spares."""
        cdef Py_ssize_t k
        self._release((<_Work>jobs[0]).w)
        for k in range(1, len(jobs)):
            if len(self.spare) < 8:
                self.spare.append((<_Work>jobs[k]).w)

    cdef dict _result(self, const int64_t* rows):
        cdef dict out = {}
        cdef int k
        for k in range(self.nk):
            out[self.keys[k]] = self.maker.make(self.ck[k].kind, rows + 3 * k)
        return out

    def tokenize(self, text):
        """The default tokenizer's tokens of one text."""
        cdef RougeWork w
        cdef Py_ssize_t k
        _check_text(text, "text")
        w = self._acquire()
        try:
            w.t_ids.size = 0
            _raise(tokenize_into(w, _text(text), self.stem, &w.t_ids, NULL))
            return [_token_str(w, w.t_ids.data[k]) for k in range(w.t_ids.size)]
        finally:
            self._release(w)

    cdef int _pair(self, RougeWork w, object target, object prediction, bint tokenize_p) except -1:
        """The statistics of one pair of texts into w.rows (the prediction's tokens kept from
        the last call unless tokenize_p)."""
        cdef TextRef tt = _text(target)
        cdef TextRef pt = _text(prediction)
        cdef int rc = 0
        cdef bint lsum = self.want_lsum
        if i64_reserve(&w.rows, 3 * self.nk + 1) < 0:
            raise MemoryError()
        if tt.length + pt.length > NOGIL_CHARS:
            with nogil:
                rc = _pair_texts(w, tt, pt, tokenize_p, self.stem, lsum, self.ck, self.nk)
        else:
            rc = _pair_texts(w, tt, pt, tokenize_p, self.stem, lsum, self.ck, self.nk)
        return _raise(rc)

    def stats(self, target, prediction):
        """Per type, [hits, prediction total, target total] of one pair of texts (the default
        tokenizer; rougeLsum's sentences are the lines)."""
        cdef RougeWork w
        cdef int k
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        w = self._acquire()
        try:
            self._pair(w, target, prediction, True)
            return [[w.rows.data[3 * k], w.rows.data[3 * k + 1], w.rows.data[3 * k + 2]]
                    for k in range(self.nk)]
        finally:
            self._release(w)

    def score(self, target, prediction):
        """{key: score_class(P, R, F)} of one pair of texts."""
        cdef RougeWork w
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        w = self._acquire()
        try:
            self._pair(w, target, prediction, True)
            return self._result(w.rows.data)
        finally:
            self._release(w)

    def score_multi(self, targets, prediction):
        """Per type, the score against the target with the highest F (the first of equals)."""
        cdef RougeWork w
        cdef Py_ssize_t i = 0
        targets = list(targets)
        _check_text(prediction, "prediction")
        for t in targets:
            _check_text(t, "target")
        if not targets:
            if self.nk:
                raise ValueError("score_multi needs at least one target")
            return {}
        w = self._acquire()
        try:
            if i64_reserve(&w.best, 3 * self.nk + 1) < 0:
                raise MemoryError()
            for i in range(len(targets)):
                self._pair(w, targets[i], prediction, i == 0)
                _keep_best(w.best.data, w.rows.data, self.ck, self.nk, i == 0)
            return self._result(w.best.data)
        finally:
            self._release(w)

    def score_tokens(self, target, prediction, target_sentences, prediction_sentences):
        """{key: score_class(P, R, F)} of token sequences already made (a tokenizer of the
        user's, or nltk's sentences): any hashable tokens, compared by equality. The sentences
        are lists of token sequences (None where no rougeLsum is asked)."""
        cdef RougeWork w
        cdef array rows
        try:
            got = _stats_of_tokens(self.kinds, target, prediction, target_sentences,
                                   prediction_sentences)
        except TypeError:   # unhashable tokens: compared by equality, as the twin does
            return _twin().Scorer(self.kinds, self.stem, self.score_class).score_tokens(
                target, prediction, target_sentences, prediction_sentences)
        rows = array("q", [v for row in got for v in row] or [0])
        return self._result(<const int64_t*>rows.data.as_voidptr)

    def score_sentences(self, target, prediction, target_sentences, prediction_sentences):
        """score() with rougeLsum's sentences given as strings (nltk's sentence splitter)."""
        cdef RougeWork w
        cdef Py_ssize_t m, n
        cdef int rc = 0
        _check_text(target, "target")
        _check_text(prediction, "prediction")
        target_sentences = list(target_sentences)
        prediction_sentences = list(prediction_sentences)
        for s in target_sentences + prediction_sentences:
            _check_text(s, "sentence")
        w = self._acquire()
        try:
            w.t_ids.size = 0
            w.p_ids.size = 0
            _raise(tokenize_into(w, _text(target), self.stem, &w.t_ids, NULL))
            _raise(tokenize_into(w, _text(prediction), self.stem, &w.p_ids, NULL))
            m, n = w.t_ids.size, w.p_ids.size
            _sentences(w, target_sentences, self.stem, &w.t_ids, &w.t_lines)
            _sentences(w, prediction_sentences, self.stem, &w.p_ids, &w.p_lines)
            if i64_reserve(&w.rows, 3 * self.nk + 1) < 0:
                raise MemoryError()
            rc = pair_stats(w, w.t_ids.data, m, w.p_ids.data, n, w.t_ids.data + m,
                            w.t_lines.data, w.t_lines.size - 1, w.p_ids.data + n,
                            w.p_lines.data, w.p_lines.size - 1, self.ck, self.nk, w.rows.data)
            _raise(rc)
            return self._result(w.rows.data)
        finally:
            self._release(w)

    def ids_batch(self, hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, n_threads=1):
        """P, R, F of token-ID rows, as batch() gives them for texts: hypothesis i is
        hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]], its references the ref rows
        groups[i]..groups[i + 1] - 1 (the best F per type among several). The IDs are the
        tokens; rougeLsum needs sentences, which IDs do not have."""
        cdef const uint32_t[::1] hf = hyp_flat
        cdef const int64_t[::1] ho = hyp_offsets
        cdef const uint32_t[::1] rf = ref_flat
        cdef const int64_t[::1] ro = ref_offsets
        cdef const int64_t[::1] gr = groups
        cdef Py_ssize_t n = ho.shape[0] - 1, i, start, per
        cdef array out
        cdef _IdsJob job
        cdef int t
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, not {n_threads}")
        if self.want_lsum:
            raise ValueError("rougeLsum needs sentences, which token IDs do not mark: use "
                             "rougeL")
        for i in range(n):
            if gr[i + 1] <= gr[i]:
                raise ValueError(f"hypothesis {i} has no reference")
        out = clone(array("d"), n * self.nk * 3, False)
        if n == 0 or self.nk == 0:
            return out
        jobs = []
        per = (n + n_threads - 1) // n_threads
        start = 0
        for t in range(n_threads):
            if start >= n:
                break
            job = _IdsJob()
            job.scorer = self
            job.ck = self.ck
            job.nk = self.nk
            job.w = self._acquire() if t == 0 else self._extra()
            job.hf = &hf[0] if hf.shape[0] else NULL
            job.ho = &ho[0]
            job.rf = &rf[0] if rf.shape[0] else NULL
            job.ro = &ro[0]
            job.gr = &gr[0]
            job.i = start
            job.end = min(start + per, n)
            job.out = <double*>out.data.as_voidptr
            jobs.append(job)
            start += per
        try:
            run_jobs(jobs)
        finally:
            self._keep(jobs)
        for job in jobs:
            _raise(job.rc)
        return out

    def batch(self, predictions, references, n_threads=1):
        """P, R, F of every pair, as an array('d') of len(predictions) rows of 3 values per type
        (in the order of `kinds`). references[i] is a str, or a non-empty list of str scored as
        score_multi does. `n_threads` shares the pairs out (the values do not depend on it)."""
        cdef Py_ssize_t n, i, j, nref, total, per, k, start
        cdef TextRef* texts = NULL
        cdef int64_t* roff = NULL
        cdef int64_t* cum = NULL
        cdef array out
        cdef _BatchJob job
        cdef int t
        if n_threads < 1:
            raise ValueError(f"n_threads must be >= 1, not {n_threads}")
        if len(predictions) != len(references):
            raise ValueError(f"{len(predictions)} predictions but {len(references)} references")
        n = len(predictions)
        keep = []
        offsets = [0]
        for i in range(n):
            prediction, refs = predictions[i], references[i]
            _check_text(prediction, f"prediction {i}")
            keep.append(prediction)
            if isinstance(refs, str):
                keep.append(refs)
            else:
                refs = list(refs)
                if not refs:
                    raise ValueError(f"prediction {i} has no reference")
                for r in refs:
                    _check_text(r, f"reference of prediction {i}")
                keep.extend(refs)
            offsets.append(len(keep))
        out = clone(array("d"), n * self.nk * 3, False)
        if n == 0 or self.nk == 0:
            return out
        texts = <TextRef*>PyMem_RawMalloc(len(keep) * sizeof(TextRef))
        roff = <int64_t*>PyMem_RawMalloc((n + 1) * sizeof(int64_t))
        cum = <int64_t*>PyMem_RawMalloc((n + 1) * sizeof(int64_t))
        try:
            if texts == NULL or roff == NULL or cum == NULL:
                raise MemoryError()
            for j in range(len(keep)):
                texts[j] = _text(keep[j])
            cum[0] = 0
            for i in range(n + 1):
                roff[i] = offsets[i]
                if i < n:
                    total = 0
                    for j in range(offsets[i], offsets[i + 1]):
                        total += texts[j].length + 1
                    cum[i + 1] = cum[i] + total
            # contiguous shares of about equal characters
            jobs = []
            start = 0
            for t in range(n_threads):
                i = start
                while i < n and cum[i] - cum[start] < (cum[n] - cum[start]) // (n_threads - t):
                    i += 1
                if t == n_threads - 1:
                    i = n
                if i > start or t == 0:
                    job = _BatchJob()
                    job.scorer = self
                    job.ck = self.ck
                    job.nk = self.nk
                    job.stem = self.stem
                    job.lsum = self.want_lsum
                    job.w = self._acquire() if t == 0 else self._extra()
                    job.texts = texts
                    job.roff = roff
                    job.i = start
                    job.end = i
                    job.out = <double*>out.data.as_voidptr
                    jobs.append(job)
                start = i
            try:
                run_jobs(jobs)
            finally:
                self._keep(jobs)
            for job in jobs:
                _raise(job.rc)
            return out
        finally:
            PyMem_RawFree(texts)
            PyMem_RawFree(roff)
            PyMem_RawFree(cum)


cdef int _sentences(RougeWork w, list sentences, bint stem, U32Buf* ids, I64Buf* off) except -1:
    """Tokenize the non-empty sentences onto ids; off gets their offsets (from 0)."""
    cdef Py_ssize_t base = ids.size
    off.size = 0
    if i64_push(off, 0) < 0:
        raise MemoryError()
    for s in sentences:
        if not s:
            continue
        _raise(tokenize_into(w, _text(s), stem, ids, NULL))
        if i64_push(off, ids.size - base) < 0:
            raise MemoryError()
    return 0


cdef int _pair_texts(RougeWork w, TextRef tt, TextRef pt, bint tokenize_p, bint stem, bint lsum,
                     const Kind* ck, int nk) noexcept nogil:
    cdef int rc
    cdef Py_ssize_t m, n
    w.t_ids.size = 0
    rc = tokenize_into(w, tt, stem, &w.t_ids, &w.t_lines if lsum else NULL)
    if rc < 0:
        return rc
    if tokenize_p:
        w.p_ids.size = 0
        rc = tokenize_into(w, pt, stem, &w.p_ids, &w.p_lines if lsum else NULL)
        if rc < 0:
            return rc
    m, n = w.t_ids.size, w.p_ids.size
    return pair_stats(w, w.t_ids.data, m, w.p_ids.data, n,
                      w.t_ids.data, w.t_lines.data if lsum else NULL,
                      w.t_lines.size - 1 if lsum else 0,
                      w.p_ids.data, w.p_lines.data if lsum else NULL,
                      w.p_lines.size - 1 if lsum else 0, ck, nk, w.rows.data)


cdef void _keep_best(int64_t* best, const int64_t* rows, const Kind* ck, int nk,
                     bint first) noexcept nogil:
    """Per type, keep the row with the higher F (the earlier of equals)."""
    cdef int k
    cdef double a[3]
    cdef double b[3]
    for k in range(nk):
        if not first:
            prf(ck[k].kind, best + 3 * k, a)
            prf(ck[k].kind, rows + 3 * k, b)
            if not b[2] > a[2]:
                continue
        best[3 * k] = rows[3 * k]
        best[3 * k + 1] = rows[3 * k + 1]
        best[3 * k + 2] = rows[3 * k + 2]


cdef class _Work(Job):
    """A job with a workspace of its own."""
    cdef RougeWork w


cdef class _BatchJob(_Work):
    """A thread's share of a batch: pairs i..end-1, a step of about STEP_CHARS characters at a
    time."""
    cdef Scorer scorer          # holds ck alive
    cdef const Kind* ck
    cdef int nk
    cdef bint stem, lsum
    cdef const TextRef* texts
    cdef const int64_t* roff
    cdef Py_ssize_t i, end
    cdef double* out

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t chars = 0, j, r0, r1
        cdef int rc, k
        cdef double* o
        if i64_reserve(&self.w.rows, 3 * self.nk + 1) < 0 \
                or i64_reserve(&self.w.best, 3 * self.nk + 1) < 0:
            self.rc = ERR_NOMEM
            return True
        while self.i < self.end and chars < STEP_CHARS:
            r0 = self.roff[self.i] + 1
            r1 = self.roff[self.i + 1]
            for j in range(r0, r1):
                rc = _pair_texts(self.w, self.texts[j], self.texts[r0 - 1], j == r0, self.stem,
                                 self.lsum, self.ck, self.nk)
                if rc < 0:
                    self.rc = rc
                    return True
                _keep_best(self.w.best.data, self.w.rows.data, self.ck, self.nk, j == r0)
                chars += self.texts[j].length
            chars += self.texts[r0 - 1].length
            o = self.out + self.i * self.nk * 3
            for k in range(self.nk):
                prf(self.ck[k].kind, self.w.best.data + 3 * k, o + 3 * k)
            if self.w.vocab.n > VOCAB_LIMIT:
                vocab_clear(&self.w.vocab)
            self.i += 1
        return self.i >= self.end


cdef class _IdsJob(_Work):
    """A thread's share of a token-ID batch: hypotheses i..end-1, a bounded number of tokens a
    step."""
    cdef Scorer scorer          # holds ck alive
    cdef const Kind* ck
    cdef int nk
    cdef const uint32_t* hf
    cdef const int64_t* ho
    cdef const uint32_t* rf
    cdef const int64_t* ro
    cdef const int64_t* gr
    cdef Py_ssize_t i, end
    cdef double* out

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t tokens = 0, r
        cdef int rc, k
        cdef double* o
        cdef const uint32_t* hyp
        cdef Py_ssize_t hn
        if i64_reserve(&self.w.rows, 3 * self.nk + 1) < 0 \
                or i64_reserve(&self.w.best, 3 * self.nk + 1) < 0:
            self.rc = ERR_NOMEM
            return True
        while self.i < self.end and tokens < STEP_CHARS:
            hyp = self.hf + self.ho[self.i] if self.hf != NULL else NULL
            hn = self.ho[self.i + 1] - self.ho[self.i]
            for r in range(self.gr[self.i], self.gr[self.i + 1]):
                rc = pair_stats(self.w, self.rf + self.ro[r] if self.rf != NULL else NULL,
                                self.ro[r + 1] - self.ro[r], hyp, hn, NULL, NULL, 0, NULL, NULL,
                                0, self.ck, self.nk, self.w.rows.data)
                if rc < 0:
                    self.rc = rc
                    return True
                _keep_best(self.w.best.data, self.w.rows.data, self.ck, self.nk,
                           r == self.gr[self.i])
                tokens += self.ro[r + 1] - self.ro[r] + hn + 1
            o = self.out + self.i * self.nk * 3
            for k in range(self.nk):
                prf(self.ck[k].kind, self.w.best.data + 3 * k, o + 3 * k)
            self.i += 1
        return self.i >= self.end
