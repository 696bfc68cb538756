"""Compiled chrF kernel: character and word n-gram counting and chrF statistics, without the GIL.

The pure-Python twin `chrf_py.py` is the readable specification of every public name here; the
parity tests hold the two to identical results. Argument checks come from the twin (so both
backends raise the same errors, in the same order); the checks here only keep the kernel safe.

Per segment: the hypothesis and each reference become sequences of uint32 (code points without
whitespace for character n-grams; per-segment word IDs for chrF++'s word n-grams); a reference's
n-grams go into an exact-key hash table, the hypothesis' n-grams are looked up and matched up to
the reference's count. With several references, the row of the one with the best chrF is kept.
"""
from libc.stdint cimport uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memset, memcpy
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawCalloc, PyMem_RawRealloc, PyMem_RawFree
from cpython.array cimport array, clone
from cpython.exc cimport PyErr_CheckSignals

from .buffers cimport u32_reserve, u32_push, i64_reserve, i64_push
from .hashing cimport hash_step, slot_of, same_u32
from .defs cimport ERR_NOMEM

from .chrf_py import _check_lines, _check_orders, _check_segments

cdef extern from *:
    # Cython's own branch hint (__builtin_expect where the compiler has it)
    bint unlikely(bint) noexcept nogil

cdef extern from "Python.h":
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch) nogil
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen, int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)

__all__ = ["segment_stats", "corpus_stats", "sentence_scores", "pairwise_scores", "f_scores"]

cdef enum:
    OUT_ROWS = 0
    OUT_SUM = 1
    OUT_SCORES = 2

# Strings are copied to code points a chunk of segments at a time: the GIL is held only for the
# copy, and memory stays bounded whatever the corpus size.
cdef Py_ssize_t CHUNK_CHARS = 1 << 16
cdef Py_ssize_t CHUNK_SEGMENTS = 512
# a line up to this long is stripped of whitespace into a scratch copy; a longer one in place
# (no second copy of a giant line; stripping every line in place cost ordinary lines 1.6% more
# instructions, the compiler laying out the inlined hot loop less well)
cdef Py_ssize_t STRIP_SCRATCH = 1 << 16

cdef uint64_t SEED = 0xcbf29ce484222325ULL

# string.punctuation: what chrF++ splits off the edges of a word
cdef unsigned char[128] PUNCT
memset(PUNCT, 0, sizeof(PUNCT))
for _c in '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~':
    PUNCT[ord(_c)] = 1


# ---------------------------------------------------------------------------------------------
# exact-key table over uint32 sequences

cdef void table_free(SeqTable* t) noexcept nogil:
    PyMem_RawFree(t.slots)
    PyMem_RawFree(t.entries)
    t.slots = NULL
    t.entries = NULL
    t.nslots = t.n = t.ecap = 0


cdef int table_slots(SeqTable* t, Py_ssize_t nslots) noexcept nogil:
    """Fresh empty slots, at least nslots (a power of two), entries not re-inserted."""
    cdef int bits = 6
    while (<Py_ssize_t>1 << bits) < nslots:
        bits += 1
    PyMem_RawFree(t.slots)
    t.slots = <int32_t*>PyMem_RawCalloc(<size_t>1 << bits, sizeof(int32_t))
    if t.slots == NULL:
        t.nslots = 0
        return ERR_NOMEM
    t.nslots = <Py_ssize_t>1 << bits
    t.shift = 64 - bits
    return 0


cdef int table_prepare(SeqTable* t, Py_ssize_t max_entries) noexcept nogil:
    """Empty the table and make room for max_entries keys without growing."""
    cdef Py_ssize_t k
    cdef void* p
    if 2 * max_entries > t.nslots or t.nslots == 0:
        if table_slots(t, 2 * max_entries) < 0:
            return ERR_NOMEM
    elif t.n * 4 < t.nslots:
        # the slot array keeps the size of the largest segment seen: clearing only the slots
        # in use costs a few instructions each, where a memset of the whole array would cost
        # one per byte on segments far shorter than the longest
        for k in range(t.n):
            t.slots[t.entries[k].slot] = 0
    else:
        memset(t.slots, 0, <size_t>t.nslots * sizeof(int32_t))
    t.n = 0
    if max_entries > t.ecap:
        p = PyMem_RawRealloc(t.entries, <size_t>max_entries * sizeof(SeqEntry))
        if p == NULL:
            return ERR_NOMEM
        t.entries = <SeqEntry*>p
        t.ecap = max_entries
    return 0


cdef int table_grow(SeqTable* t, Py_ssize_t extra) noexcept nogil:
    """Room for `extra` more keys, keeping the ones there (rehashed when the slots grow)."""
    cdef Py_ssize_t need = t.n + extra, cap, k, i, mask
    cdef void* p
    if need > t.ecap:
        cap = t.ecap * 2
        if cap < need:
            cap = need
        p = PyMem_RawRealloc(t.entries, <size_t>cap * sizeof(SeqEntry))
        if p == NULL:
            return ERR_NOMEM
        t.entries = <SeqEntry*>p
        t.ecap = cap
    if 2 * need > t.nslots or t.nslots == 0:
        if table_slots(t, 4 * need) < 0:
            return ERR_NOMEM
        mask = t.nslots - 1
        for k in range(t.n):
            i = slot_of(t.entries[k].h, t.shift)
            while t.slots[i] != 0:
                i = (i + 1) & mask
            t.slots[i] = <int32_t>(k + 1)
            t.entries[k].slot = i
    return 0


cdef inline Py_ssize_t table_probe(const SeqTable* t, const uint32_t* key, int32_t n,
                                   int32_t kind, uint64_t h) noexcept nogil:
    """The slot holding this key, or the empty slot where it would go."""
    cdef Py_ssize_t mask = t.nslots - 1
    cdef Py_ssize_t i = slot_of(h, t.shift)
    cdef int32_t s
    cdef const SeqEntry* e
    while True:
        s = t.slots[i]
        if s == 0:
            return i
        e = &t.entries[s - 1]
        if e.h == h and e.n == n and e.kind == kind and same_u32(e.key, key, n):
            return i
        i = (i + 1) & mask


cdef inline Py_ssize_t table_add(SeqTable* t, const uint32_t* key, int32_t n, int32_t kind,
                                 uint64_t h) noexcept nogil:
    """Count one occurrence of key; its entry index. The caller has made room (prepare/grow)."""
    cdef Py_ssize_t i = table_probe(t, key, n, kind, h)
    cdef Py_ssize_t e = t.slots[i] - 1
    cdef SeqEntry* en
    if e >= 0:
        t.entries[e].count += 1
        return e
    e = t.n
    t.n += 1
    en = &t.entries[e]
    en.h = h
    en.key = key
    en.n = n
    en.kind = kind
    en.count = 1
    en.used = 0
    en.slot = i
    t.slots[i] = <int32_t>(e + 1)
    return e


# ---------------------------------------------------------------------------------------------
# lines -> character sequences and chrF++ words

cdef inline bint is_punct(uint32_t c) noexcept nogil:
    return c < 128 and PUNCT[c] != 0


cdef Py_ssize_t strip_space(const uint32_t* s, Py_ssize_t n, uint32_t* out) noexcept nogil:
    """''.join(line.split()): the line without str.split's whitespace; its length (out may be s)."""
    cdef Py_ssize_t i, k = 0
    for i in range(n):
        if not Py_UNICODE_ISSPACE(s[i]):
            out[k] = s[i]
            k += 1
    return k


cdef inline int push_word(SeqTable* vocab, const uint32_t* w, Py_ssize_t n,
                          U32Buf* ids) noexcept nogil:
    cdef uint64_t h = SEED
    cdef Py_ssize_t i
    for i in range(n):
        h = hash_step(h, w[i])
    return u32_push(ids, <uint32_t>table_add(vocab, w, <int32_t>n, 0, h))


cdef int words_of(const uint32_t* s, Py_ssize_t n, SeqTable* vocab, U32Buf* ids) noexcept nogil:
    """chrF++'s words of a line (whitespace-split, a punctuation mark split off a word's end or,
    failing that, its start), appended to ids as per-segment word IDs. The vocabulary has room
    for every word (at most one per code point plus one per line)."""
    cdef Py_ssize_t i = 0, a, ln
    while i < n:
        while i < n and Py_UNICODE_ISSPACE(s[i]):
            i += 1
        if i >= n:
            break
        a = i
        while i < n and not Py_UNICODE_ISSPACE(s[i]):
            i += 1
        ln = i - a
        if ln == 1:
            if push_word(vocab, s + a, 1, ids) < 0:
                return ERR_NOMEM
        elif is_punct(s[i - 1]):
            if push_word(vocab, s + a, ln - 1, ids) < 0 or push_word(vocab, s + i - 1, 1, ids) < 0:
                return ERR_NOMEM
        elif is_punct(s[a]):
            if push_word(vocab, s + a, 1, ids) < 0 or push_word(vocab, s + a + 1, ln - 1, ids) < 0:
                return ERR_NOMEM
        elif push_word(vocab, s + a, ln, ids) < 0:
            return ERR_NOMEM
    return 0


# ---------------------------------------------------------------------------------------------
# statistics of one hypothesis against one reference

# a pair's table starts with room for this many reference n-grams and grows past it
cdef Py_ssize_t PAIR_TABLE = 1 << 16


cdef int count_pair(SeqTable* t, const uint32_t* r, Py_ssize_t rl, const uint32_t* hy,
                    Py_ssize_t hl, int N, int32_t kind, int64_t* out) noexcept nogil:
    """[hyp n-grams (0 where the reference has none), ref n-grams, matches] for orders 1..N of
    two uint32 sequences, into out[0:3N]."""
    cdef Py_ssize_t i, m, top
    cdef int n
    cdef uint64_t h
    cdef int32_t s
    cdef SeqEntry* e
    cdef int64_t ht, rt
    # room for the distinct reference n-grams as they come (a long line of few distinct words
    # has few), not for rl * N of them at once
    if table_prepare(t, rl * N if rl * N < PAIR_TABLE else PAIR_TABLE) < 0:
        return ERR_NOMEM
    for n in range(N):
        out[3 * n + 2] = 0
    for i in range(rl):
        h = SEED
        top = rl - i if rl - i < N else N
        if 2 * (t.n + top) > t.nslots or t.n + top > t.ecap:
            if table_grow(t, t.n + top) < 0:
                return ERR_NOMEM
        for m in range(top):
            h = hash_step(h, r[i + m])
            table_add(t, r + i, <int32_t>(m + 1), kind, h)
    for i in range(hl):
        h = SEED
        top = hl - i if hl - i < N else N
        for m in range(top):
            h = hash_step(h, hy[i + m])
            s = t.slots[table_probe(t, hy + i, <int32_t>(m + 1), kind, h)]
            if s == 0:
                # every reference n-gram's prefixes are in the table too: no longer n-gram from
                # this position can be there either
                break
            e = &t.entries[s - 1]
            if e.used < e.count:
                e.used += 1
                out[3 * m + 2] += 1
    for n in range(1, N + 1):
        ht = hl - n + 1 if hl >= n else 0
        rt = rl - n + 1 if rl >= n else 0
        out[3 * (n - 1)] = ht if rt > 0 else 0
        out[3 * (n - 1) + 1] = rt
    return 0


cdef double chrf_f_score(const int64_t* stats, int order, double factor, double one_plus_factor,
                         bint eps_smoothing) noexcept nogil:
    # the same IEEE operations, in the same order, as _chrf_math.f_score (int / int is the
    # correctly rounded quotient there, as double / double is here for counts below 2**53)
    cdef double eps = 1e-16, score = 0.0, prec, rec, denom, avg_prec = 0.0, avg_rec = 0.0
    cdef int i, effective_order = 0
    cdef int64_t n_hyp, n_ref, n_match
    for i in range(order):
        n_hyp = stats[3 * i]
        n_ref = stats[3 * i + 1]
        n_match = stats[3 * i + 2]
        prec = <double>n_match / <double>n_hyp if n_hyp > 0 else eps
        rec = <double>n_match / <double>n_ref if n_ref > 0 else eps
        denom = factor * prec + rec
        score += (one_plus_factor * prec * rec / denom) if denom > 0 else eps
        if n_hyp > 0 and n_ref > 0:
            avg_prec += prec
            avg_rec += rec
            effective_order += 1
    if eps_smoothing:
        return 100.0 * score / <double>order
    if effective_order == 0:
        avg_prec = 0.0
        avg_rec = 0.0
    else:
        avg_prec /= <double>effective_order
        avg_rec /= <double>effective_order
    if avg_prec + avg_rec != 0.0:
        score = one_plus_factor * avg_prec * avg_rec
        score /= (factor * avg_prec) + avg_rec
        return 100.0 * score
    return 0.0


# ---------------------------------------------------------------------------------------------
# corpus: a chunk of segments at a time

cdef class _Workspace:
    cdef U32Buf text        # code points of the chunk's lines, back to back
    cdef I64Buf line_off    # line j spans text[line_off[j]:line_off[j+1]]
    cdef I64Buf seg_line    # segment k owns lines seg_line[k] (hypothesis) .. seg_line[k+1]-1
    cdef U32Buf hchars      # the current hypothesis without whitespace (if not stripped in place)
    cdef U32Buf rchars      # the current reference without whitespace (likewise)
    cdef U32Buf hids        # word IDs of the hypothesis
    cdef U32Buf rids        # word IDs of the segment's references, back to back
    cdef I64Buf rid_off     # reference r's words are rids[rid_off[r]:rid_off[r+1]]
    cdef I64Buf row         # statistics against the current reference
    cdef I64Buf rows        # statistics of the chunk's segments
    cdef SeqTable table     # the current reference's n-grams
    cdef SeqTable vocab     # the current segment's words

    def __dealloc__(self):
        PyMem_RawFree(self.text.data)
        PyMem_RawFree(self.hchars.data)
        PyMem_RawFree(self.rchars.data)
        PyMem_RawFree(self.hids.data)
        PyMem_RawFree(self.rids.data)
        PyMem_RawFree(self.line_off.data)
        PyMem_RawFree(self.seg_line.data)
        PyMem_RawFree(self.rid_off.data)
        PyMem_RawFree(self.row.data)
        PyMem_RawFree(self.rows.data)
        table_free(&self.table)
        table_free(&self.vocab)

    cdef size_t nbytes(self):
        return (4 * (self.text.cap + self.hchars.cap + self.rchars.cap + self.hids.cap
                     + self.rids.cap)
                + 8 * (self.line_off.cap + self.seg_line.cap + self.rid_off.cap + self.row.cap
                       + self.rows.cap)
                + 4 * (self.table.nslots + self.vocab.nslots)
                + sizeof(SeqEntry) * (self.table.ecap + self.vocab.ecap))


# Workspaces are reused across calls (taken and returned under the GIL): fresh buffers would cost
# page faults on every call. Only a few small ones are kept.
cdef list _POOL = []
cdef size_t POOL_MAX_BYTES = 16 << 20


cdef _Workspace acquire_workspace():
    if _POOL:
        return <_Workspace>_POOL.pop()
    return _Workspace()


cdef void release_workspace(_Workspace ws):
    if len(_POOL) < 2 and ws.nbytes() <= POOL_MAX_BYTES:
        _POOL.append(ws)


cdef int load_line(_Workspace ws, line, bint lowercase) except -1:
    cdef Py_ssize_t n
    if lowercase:
        line = line.lower()
    n = PyUnicode_GET_LENGTH(line)
    if u32_reserve(&ws.text, ws.text.size + n + 1) < 0:
        raise MemoryError()
    if n:
        PyUnicode_AsUCS4(line, <Py_UCS4*>(ws.text.data + ws.text.size), n, 0)
    ws.text.size += n
    if i64_push(&ws.line_off, ws.text.size) < 0:
        raise MemoryError()
    return 0


cdef Py_ssize_t load_chunk(_Workspace ws, hyps, refs, Py_ssize_t start, bint lowercase) except -1:
    """Copy segments start.. (until a chunk is full) into the workspace; the end index."""
    cdef Py_ssize_t k = start, total = len(hyps), chars = 0
    ws.text.size = 0
    ws.line_off.size = 0
    ws.seg_line.size = 0
    if i64_push(&ws.line_off, 0) < 0 or i64_push(&ws.seg_line, 0) < 0:
        raise MemoryError()
    while k < total and (k == start or (k - start < CHUNK_SEGMENTS and chars < CHUNK_CHARS)):
        load_line(ws, hyps[k], lowercase)
        for ref in refs[k]:
            load_line(ws, ref, lowercase)
        if i64_push(&ws.seg_line, ws.line_off.size - 1) < 0:
            raise MemoryError()
        chars = ws.text.size
        k += 1
    return k


cdef inline const uint32_t* chars_of(_Workspace ws, Py_ssize_t line, bint whitespace,
                                     U32Buf* scratch, Py_ssize_t* n) noexcept nogil:
    """The line's character sequence: as it is, or without whitespace: into scratch (room for
    STRIP_SCRATCH characters) or, for a longer line, in place (so a giant line costs no second
    copy; read the line's words first)."""
    cdef uint32_t* s = ws.text.data + ws.line_off.data[line]
    cdef Py_ssize_t ln = ws.line_off.data[line + 1] - ws.line_off.data[line]
    if whitespace:
        n[0] = ln
        return s
    cdef uint32_t* out = s if unlikely(ln > STRIP_SCRATCH) else scratch.data
    n[0] = strip_space(s, ln, out)
    return out


cdef int segment_row(_Workspace ws, Py_ssize_t k, int C, int W, bint whitespace, double factor,
                     double onep, bint eps, int64_t* out) noexcept nogil:
    """Statistics of segment k of the chunk into out (3 * (C + W) values)."""
    cdef Py_ssize_t hl = ws.seg_line.data[k], first = hl + 1, last = ws.seg_line.data[k + 1]
    cdef Py_ssize_t r, hn = 0, rn, bound = 0
    cdef const uint32_t* hc = NULL
    cdef const uint32_t* rc
    cdef int order = C + W, width = 3 * (C + W), j
    cdef double f, best_f = -1.0
    cdef int64_t* row = ws.row.data
    # a giant hypothesis is stripped in place, so only once its words are read
    cdef bint strip_later = unlikely(ws.line_off.data[hl + 1] - ws.line_off.data[hl]
                                     > STRIP_SCRATCH)
    if not strip_later:
        hc = chars_of(ws, hl, whitespace, &ws.hchars, &hn)
    if W > 0:
        for r in range(hl, last):
            bound += ws.line_off.data[r + 1] - ws.line_off.data[r] + 1
        if table_prepare(&ws.vocab, bound) < 0:
            return ERR_NOMEM
        ws.rids.size = 0
        ws.rid_off.size = 0
        if i64_push(&ws.rid_off, 0) < 0:
            return ERR_NOMEM
        for r in range(first, last):
            if words_of(ws.text.data + ws.line_off.data[r],
                        ws.line_off.data[r + 1] - ws.line_off.data[r], &ws.vocab, &ws.rids) < 0:
                return ERR_NOMEM
            if i64_push(&ws.rid_off, ws.rids.size) < 0:
                return ERR_NOMEM
        ws.hids.size = 0
        if words_of(ws.text.data + ws.line_off.data[hl],
                    ws.line_off.data[hl + 1] - ws.line_off.data[hl], &ws.vocab, &ws.hids) < 0:
            return ERR_NOMEM
    if strip_later:
        hc = chars_of(ws, hl, whitespace, &ws.hchars, &hn)
    for r in range(first, last):
        if C > 0:
            rc = chars_of(ws, r, whitespace, &ws.rchars, &rn)
            if count_pair(&ws.table, rc, rn, hc, hn, C, 0, row) < 0:
                return ERR_NOMEM
        if W > 0:
            if count_pair(&ws.table, ws.rids.data + ws.rid_off.data[r - first],
                          ws.rid_off.data[r - first + 1] - ws.rid_off.data[r - first],
                          ws.hids.data, ws.hids.size, W, 1, row + 3 * C) < 0:
                return ERR_NOMEM
        if last - first == 1:
            memcpy(out, row, width * sizeof(int64_t))
            break
        f = chrf_f_score(row, order, factor, onep, eps)
        if f > best_f:
            best_f = f
            memcpy(out, row, width * sizeof(int64_t))
    return 0


cdef object run(hyps, refs, int C, int W, bint whitespace, bint lowercase, beta, bint eps,
                int mode):
    """Statistics of every segment: as lists (OUT_ROWS), summed (OUT_SUM) or as sentence chrF
    scores (OUT_SCORES)."""
    _check_orders(C, W)
    _check_segments(hyps, refs)
    factor_obj = beta ** 2
    cdef double factor = float(factor_obj), onep = float(1 + factor_obj)
    cdef int order = C + W, width = 3 * (C + W), rc = 0, j
    cdef Py_ssize_t n = len(hyps), start = 0, end, k, nseg, room
    cdef _Workspace ws = acquire_workspace()
    cdef list rows = []
    cdef array scores = clone(array("d"), n if mode == OUT_SCORES else 0, False)
    cdef double* sc = scores.data.as_doubles
    cdef I64Buf totals
    totals.data = NULL
    totals.size = totals.cap = 0
    try:
        if i64_reserve(&totals, width) < 0 or i64_reserve(&ws.row, width) < 0:
            raise MemoryError()
        memset(totals.data, 0, width * sizeof(int64_t))
        while start < n:
            end = load_chunk(ws, hyps, refs, start, lowercase)
            nseg = end - start
            room = ws.text.size if ws.text.size < STRIP_SCRATCH else STRIP_SCRATCH
            if (u32_reserve(&ws.hchars, room) < 0 or u32_reserve(&ws.rchars, room) < 0
                    or i64_reserve(&ws.rows, nseg * width) < 0):
                raise MemoryError()
            with nogil:
                for k in range(nseg):
                    rc = segment_row(ws, k, C, W, whitespace, factor, onep, eps,
                                     ws.rows.data + k * width)
                    if rc < 0:
                        break
                    if mode == OUT_SUM:
                        for j in range(width):
                            totals.data[j] += ws.rows.data[k * width + j]
                    elif mode == OUT_SCORES:
                        sc[start + k] = chrf_f_score(ws.rows.data + k * width, order, factor,
                                                     onep, eps)
            if rc < 0:
                raise MemoryError()
            PyErr_CheckSignals()
            if mode == OUT_ROWS:
                for k in range(nseg):
                    rows.append([ws.rows.data[k * width + j] for j in range(width)])
            start = end
        if mode == OUT_ROWS:
            return rows
        if mode == OUT_SUM:
            return [totals.data[j] for j in range(width)]
        return scores
    finally:
        PyMem_RawFree(totals.data)
        release_workspace(ws)


def segment_stats(hyps, refs, char_order=6, word_order=0, whitespace=False, lowercase=False,
                  beta=2, eps_smoothing=False):
    """One flat [hyp, ref, match] * (char_order + word_order) list per segment; refs holds one
    sequence of reference strings per segment (None entries already removed). beta and
    eps_smoothing choose among several references."""
    return run(hyps, refs, char_order, word_order, whitespace, lowercase, beta, eps_smoothing,
               OUT_ROWS)


def corpus_stats(hyps, refs, char_order=6, word_order=0, whitespace=False, lowercase=False,
                 beta=2, eps_smoothing=False):
    """The segment statistics summed over the corpus."""
    return run(hyps, refs, char_order, word_order, whitespace, lowercase, beta, eps_smoothing,
               OUT_SUM)


def sentence_scores(hyps, refs, char_order=6, word_order=0, whitespace=False, lowercase=False,
                    beta=2, eps_smoothing=False):
    """Sentence chrF of every hypothesis against its segment's references (array of doubles)."""
    return run(hyps, refs, char_order, word_order, whitespace, lowercase, beta, eps_smoothing,
               OUT_SCORES)


def f_scores(stats, order, beta=2, eps_smoothing=False):
    """chrF of every row of a flat sequence of integer statistics rows (3 * order each)."""
    if order < 1:
        raise ValueError("order must be at least 1")
    factor_obj = beta ** 2
    cdef double factor = float(factor_obj), onep = float(1 + factor_obj)
    cdef int o = order, width = 3 * order
    cdef Py_ssize_t nrows = len(stats) // width, i, j
    cdef array out = clone(array("d"), nrows, False)
    cdef array row = clone(array("q"), width, False)
    for i in range(nrows):
        for j in range(width):
            row.data.as_longlongs[j] = int(stats[i * width + j])
        out.data.as_doubles[i] = chrf_f_score(<int64_t*>row.data.as_longlongs, o, factor, onep,
                                              eps_smoothing)
    return out


# ---------------------------------------------------------------------------------------------
# pairwise: every distinct n-gram of the batch interned once; a sentence is (n-gram ID, count)
# pairs per order, so a pair costs one array read per distinct hypothesis n-gram

cdef class _Batch:
    cdef U32Buf text        # every sentence's code points
    cdef I64Buf line_off
    cdef U32Buf chars       # every sentence's character sequence (without whitespace unless kept)
    cdef I64Buf char_off
    cdef U32Buf words       # every sentence's word IDs
    cdef I64Buf word_off
    cdef SeqTable vocab     # words of the batch
    cdef SeqTable grams     # n-grams of the batch (characters kind 0, word IDs kind 1)
    cdef U32Buf occ         # n-gram IDs of each sentence, order by order, one per occurrence
    cdef I64Buf occ_off     # sentence s, order n: occ[occ_off[s*O+n] : occ_off[s*O+n+1]]
    cdef U32Buf uid         # distinct n-gram IDs of each sentence, order by order
    cdef I64Buf ucount      # their counts
    cdef I64Buf uoff        # sentence s, order n: uid[uoff[s*O+n] : uoff[s*O+n+1]]
    cdef I64Buf totals      # sentence s, order n: its number of order-n n-grams

    def __dealloc__(self):
        PyMem_RawFree(self.text.data)
        PyMem_RawFree(self.chars.data)
        PyMem_RawFree(self.words.data)
        PyMem_RawFree(self.occ.data)
        PyMem_RawFree(self.uid.data)
        PyMem_RawFree(self.line_off.data)
        PyMem_RawFree(self.char_off.data)
        PyMem_RawFree(self.word_off.data)
        PyMem_RawFree(self.occ_off.data)
        PyMem_RawFree(self.ucount.data)
        PyMem_RawFree(self.uoff.data)
        PyMem_RawFree(self.totals.data)
        table_free(&self.vocab)
        table_free(&self.grams)


cdef int batch_load(_Batch b, lines, bint lowercase) except -1:
    cdef Py_ssize_t n
    for line in lines:
        if lowercase:
            line = line.lower()
        n = PyUnicode_GET_LENGTH(line)
        if u32_reserve(&b.text, b.text.size + n + 1) < 0:
            raise MemoryError()
        if n:
            PyUnicode_AsUCS4(line, <Py_UCS4*>(b.text.data + b.text.size), n, 0)
        b.text.size += n
        if i64_push(&b.line_off, b.text.size) < 0:
            raise MemoryError()
    return 0


cdef int batch_index(_Batch b, Py_ssize_t nsent, int C, int W, bint whitespace) noexcept nogil:
    """Sequences, n-gram IDs and distinct (ID, count) pairs of every sentence."""
    cdef Py_ssize_t s, ln, i, m, top, k, a, e, ngrams, u
    cdef int n, O = C + W
    cdef const uint32_t* src
    cdef const uint32_t* seq
    cdef uint64_t h
    cdef int32_t* stamp = NULL
    cdef int64_t* where = NULL
    cdef uint32_t id_
    # character sequences and word IDs (every sequence in place before any key points into it)
    if (u32_reserve(&b.chars, b.text.size + 1) < 0
            or table_prepare(&b.vocab, b.text.size + nsent) < 0):
        return ERR_NOMEM
    if i64_push(&b.char_off, 0) < 0 or i64_push(&b.word_off, 0) < 0:
        return ERR_NOMEM
    for s in range(nsent):
        src = b.text.data + b.line_off.data[s]
        ln = b.line_off.data[s + 1] - b.line_off.data[s]
        if whitespace:
            memcpy(b.chars.data + b.chars.size, src, ln * sizeof(uint32_t))
            b.chars.size += ln
        else:
            b.chars.size += strip_space(src, ln, b.chars.data + b.chars.size)
        if i64_push(&b.char_off, b.chars.size) < 0:
            return ERR_NOMEM
        if W > 0 and words_of(src, ln, &b.vocab, &b.words) < 0:
            return ERR_NOMEM
        if i64_push(&b.word_off, b.words.size) < 0:
            return ERR_NOMEM
    # every n-gram occurrence -> its ID
    if i64_push(&b.occ_off, 0) < 0:
        return ERR_NOMEM
    for s in range(nsent):
        for n in range(1, O + 1):
            if n <= C:
                seq = b.chars.data + b.char_off.data[s]
                ln = b.char_off.data[s + 1] - b.char_off.data[s]
                m = n
            else:
                seq = b.words.data + b.word_off.data[s]
                ln = b.word_off.data[s + 1] - b.word_off.data[s]
                m = n - C
            ngrams = ln - m + 1 if ln >= m else 0
            if i64_push(&b.totals, ngrams) < 0 or table_grow(&b.grams, ngrams) < 0 \
                    or u32_reserve(&b.occ, b.occ.size + ngrams) < 0:
                return ERR_NOMEM
            for i in range(ngrams):
                h = SEED
                for k in range(m):
                    h = hash_step(h, seq[i + k])
                b.occ.data[b.occ.size] = <uint32_t>table_add(&b.grams, seq + i, <int32_t>m,
                                                             0 if n <= C else 1, h)
                b.occ.size += 1
            if i64_push(&b.occ_off, b.occ.size) < 0:
                return ERR_NOMEM
    # distinct IDs with their counts, per sentence and order
    stamp = <int32_t*>PyMem_RawMalloc(<size_t>(b.grams.n + 1) * sizeof(int32_t))
    where = <int64_t*>PyMem_RawMalloc(<size_t>(b.grams.n + 1) * sizeof(int64_t))
    if stamp == NULL or where == NULL:
        PyMem_RawFree(stamp)
        PyMem_RawFree(where)
        return ERR_NOMEM
    memset(stamp, 0xff, <size_t>(b.grams.n + 1) * sizeof(int32_t))
    if u32_reserve(&b.uid, b.occ.size + 1) < 0 or i64_reserve(&b.ucount, b.occ.size + 1) < 0 \
            or i64_push(&b.uoff, 0) < 0:
        PyMem_RawFree(stamp)
        PyMem_RawFree(where)
        return ERR_NOMEM
    for k in range(nsent * O):
        a = b.occ_off.data[k]
        e = b.occ_off.data[k + 1]
        for i in range(a, e):
            id_ = b.occ.data[i]
            if stamp[id_] != <int32_t>k:
                stamp[id_] = <int32_t>k
                where[id_] = b.uid.size
                b.uid.data[b.uid.size] = id_
                b.ucount.data[b.uid.size] = 1
                b.uid.size += 1
            else:
                b.ucount.data[where[id_]] += 1
        if i64_push(&b.uoff, b.uid.size) < 0:
            PyMem_RawFree(stamp)
            PyMem_RawFree(where)
            return ERR_NOMEM
    PyMem_RawFree(stamp)
    PyMem_RawFree(where)
    return 0


cdef void batch_scores(_Batch b, Py_ssize_t nh, Py_ssize_t r0, Py_ssize_t r1, Py_ssize_t nr,
                       Py_ssize_t ref_base, int O, double factor, double onep, bint eps,
                       bint same, int64_t* dense, int64_t* row, double* out) noexcept nogil:
    """Columns r0..r1-1 of the (nh, nr) matrix. With `same` (the hypotheses are the references),
    a pair's matches, sum(min(count in one, count in the other)), are the same both ways: column
    r computes rows 0..r and writes (h, r) and (r, h) from one sum."""
    cdef Py_ssize_t r, hi, i, a, e, rs, hend
    cdef int n
    cdef int64_t m, c, d, rt, ht
    cdef int64_t* mirror = row + 3 * O
    cdef const uint32_t* ids
    cdef const int64_t* counts
    for r in range(r0, r1):
        rs = ref_base + r
        for i in range(b.uoff.data[rs * O], b.uoff.data[(rs + 1) * O]):
            dense[b.uid.data[i]] = b.ucount.data[i]
        hend = r + 1 if same else nh
        for hi in range(hend):
            for n in range(O):
                a = b.uoff.data[hi * O + n]
                e = b.uoff.data[hi * O + n + 1]
                if same and hi == r:
                    m = b.totals.data[hi * O + n]      # a sentence matches all of its own
                else:
                    m = 0
                    ids = b.uid.data + a
                    counts = b.ucount.data + a
                    i = 0
                    # four at a time: the loop's own count and test are a third of its work
                    while i + 4 <= e - a:
                        c = counts[i]
                        d = dense[ids[i]]
                        m += c if c < d else d
                        c = counts[i + 1]
                        d = dense[ids[i + 1]]
                        m += c if c < d else d
                        c = counts[i + 2]
                        d = dense[ids[i + 2]]
                        m += c if c < d else d
                        c = counts[i + 3]
                        d = dense[ids[i + 3]]
                        m += c if c < d else d
                        i += 4
                    while i < e - a:
                        c = counts[i]
                        d = dense[ids[i]]
                        m += c if c < d else d
                        i += 1
                rt = b.totals.data[rs * O + n]
                ht = b.totals.data[hi * O + n]
                row[3 * n] = ht if rt > 0 else 0
                row[3 * n + 1] = rt
                row[3 * n + 2] = m
                mirror[3 * n] = rt if ht > 0 else 0
                mirror[3 * n + 1] = ht
                mirror[3 * n + 2] = m
            out[hi * nr + r] = chrf_f_score(row, O, factor, onep, eps)
            if same and hi != r:
                out[r * nr + hi] = chrf_f_score(mirror, O, factor, onep, eps)
        for i in range(b.uoff.data[rs * O], b.uoff.data[(rs + 1) * O]):
            dense[b.uid.data[i]] = 0


def pairwise_scores(hyps, refs, char_order=6, word_order=0, whitespace=False, lowercase=False,
                    beta=2, eps_smoothing=False):
    """Sentence chrF of each hypothesis against each reference alone, row-major
    (len(hyps) * len(refs) doubles): element i * len(refs) + j is the chrF of hyps[i] against
    [refs[j]]."""
    _check_orders(char_order, word_order)
    _check_lines(hyps, "hypothesis")
    _check_lines(refs, "reference")
    factor_obj = beta ** 2
    cdef double factor = float(factor_obj), onep = float(1 + factor_obj)
    cdef int C = char_order, W = word_order, O = char_order + word_order, rc
    cdef bint ws_ = whitespace, eps = eps_smoothing, same = refs is hyps
    cdef Py_ssize_t nh = len(hyps), nr = len(refs), ref_base = 0 if same else nh
    cdef array out = clone(array("d"), nh * nr, False)
    cdef _Batch b = _Batch()
    cdef int64_t* dense = NULL
    cdef int64_t* row = NULL
    cdef Py_ssize_t step, r0, r1
    if nh == 0 or nr == 0:
        return out
    if i64_push(&b.line_off, 0) < 0:
        raise MemoryError()
    batch_load(b, hyps, lowercase)
    if not same:
        batch_load(b, refs, lowercase)
    with nogil:
        rc = batch_index(b, nh + (0 if same else nr), C, W, ws_)
    if rc < 0:
        raise MemoryError()
    dense = <int64_t*>PyMem_RawCalloc(<size_t>b.grams.n + 1, sizeof(int64_t))
    row = <int64_t*>PyMem_RawMalloc(<size_t>(6 * O) * sizeof(int64_t))
    try:
        if dense == NULL or row == NULL:
            raise MemoryError()
        # a block of reference columns at a time (about 2**16 pairs), so Ctrl-C lands in between
        step = max(1, (1 << 16) // nh) if not same else max(1, (1 << 17) // nh)
        for r0 in range(0, nr, step):
            r1 = min(nr, r0 + step)
            with nogil:
                batch_scores(b, nh, r0, r1, nr, ref_base, O, factor, onep, eps, same, dense,
                             row, out.data.as_doubles)
            PyErr_CheckSignals()
    finally:
        PyMem_RawFree(dense)
        PyMem_RawFree(row)
    return out
