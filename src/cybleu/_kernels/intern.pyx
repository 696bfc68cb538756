"""Token interning (floor 1): a segment's reference tokens get IDs 0, 1, ...; hypothesis tokens are
looked up, OOV_ID when no reference has them. Keys are the exact code point sequences."""
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.stdint cimport uint32_t, int32_t, int64_t
from libc.string cimport memset

from .buffers cimport u32_reserve, i64_reserve
from .hashing cimport slot_of, slot_shift, same_token
from .defs cimport hash_t, OOV_ID, ERR_NOMEM, U32Buf, I64Buf, Vocab, VocabEntry, VocabSlot
from .workspace cimport Workspace


# A segment's vocabulary starts with room for this many reference tokens at most, and grows past
# it with the distinct tokens of a giant reference.
cdef Py_ssize_t VOCAB_START = 1 << 16


cdef int vocab_reset(Vocab* v, Py_ssize_t max_entries) noexcept nogil:
    """Empty the table and make room for max_entries tokens."""
    cdef Py_ssize_t nslots = 64, e
    cdef void* p
    if max_entries >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # entry indices are int32
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
            if en.h == h and en.length == n and same_token(en.chars, s, n):
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


cdef int segment_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                     const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                     Py_ssize_t r1) noexcept nogil:
    """Intern the tokens of references r0..r1-1 (IDs 0, 1, ...) into ws.ref_ids / ws.ref_off, then
    look the hypothesis tokens in ws.tok_* up into ws.ids. Reference r owns tokens
    ref_tok[r]..ref_tok[r+1]-1; token t is chars[tok_end[t-1]:tok_end[t]] (from 0 for t == 0)."""
    if reference_ids(ws, chars, tok_end, tok_hash, ref_tok, r0, r1) < 0:
        return ERR_NOMEM
    return hypothesis_ids(ws)


cdef int reference_ids(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                       const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                       Py_ssize_t r1) noexcept nogil:
    """segment_ids' first half: a fresh vocabulary of references r0..r1-1, their IDs in
    ws.ref_ids / ws.ref_off."""
    cdef Py_ssize_t t0 = ref_tok[r0], t1 = ref_tok[r1], t, r, start
    if t1 - t0 > VOCAB_START:
        return reference_ids_growing(ws, chars, tok_end, tok_hash, ref_tok, r0, r1)
    ws.ref_ids.size = 0
    ws.ref_off.size = 0
    if (vocab_reset(&ws.vocab, t1 - t0) < 0 or u32_reserve(&ws.ref_ids, t1 - t0) < 0
            or i64_reserve(&ws.ref_off, r1 - r0 + 1) < 0):
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
    return 0


cdef int reference_ids_growing(Workspace ws, const uint32_t* chars, const int64_t* tok_end,
                               const int64_t* tok_hash, const int64_t* ref_tok, Py_ssize_t r0,
                               Py_ssize_t r1) noexcept nogil:
    """reference_ids for a giant segment (past VOCAB_START tokens): the vocabulary grows with
    its distinct tokens instead of making room for every token."""
    cdef Py_ssize_t t0 = ref_tok[r0], t1 = ref_tok[r1], t, r, start
    cdef Vocab* v = &ws.vocab
    ws.ref_ids.size = 0
    ws.ref_off.size = 0
    if (vocab_clear(v) < 0 or u32_reserve(&ws.ref_ids, t1 - t0) < 0
            or i64_reserve(&ws.ref_off, r1 - r0 + 1) < 0):
        return ERR_NOMEM
    ws.ref_off.data[0] = 0
    for r in range(r0, r1):
        for t in range(ref_tok[r], ref_tok[r + 1]):
            if (v.n == v.ecap or 2 * (v.n + 1) > v.mask + 1) and vocab_grow(v, v.n + 1) < 0:
                return ERR_NOMEM
            start = tok_end[t - 1] if t > 0 else 0
            ws.ref_ids.data[t - t0] = vocab_intern(v, chars + start, tok_end[t] - start,
                                                   <hash_t>tok_hash[t])
        ws.ref_off.data[r - r0 + 1] = ref_tok[r + 1] - t0
    ws.ref_ids.size = t1 - t0
    ws.ref_off.size = r1 - r0 + 1
    return 0


cdef int vocab_clear(Vocab* v) noexcept nogil:
    """Empty a vocabulary that grows as tokens arrive (vocab_grow before each new one)."""
    cdef Py_ssize_t e
    if v.slots != NULL:
        for e in range(v.n):
            v.slots[v.entries[e].slot].entry = -1
    v.n = 0
    return vocab_grow(v, 1024)


cdef int hypothesis_ids(Workspace ws) noexcept nogil:
    """segment_ids' second half: the hypothesis tokens in ws.tok_* looked up in the vocabulary
    of the last reference_ids (OOV_ID where no reference has the token) into ws.ids."""
    cdef Py_ssize_t t, start = 0
    ws.ids.size = 0
    if u32_reserve(&ws.ids, ws.tok_ends.size) < 0:
        return ERR_NOMEM
    for t in range(ws.tok_ends.size):
        ws.ids.data[t] = vocab_lookup(&ws.vocab, ws.tok_chars.data + start,
                                      ws.tok_ends.data[t] - start, <hash_t>ws.tok_hash.data[t])
        start = ws.tok_ends.data[t]
    ws.ids.size = ws.tok_ends.size
    return 0


cdef int vocab_grow(Vocab* v, Py_ssize_t need) noexcept nogil:
    """Room for `need` entries in all, keeping those there (rehashed into more slots when the
    table would pass half full)."""
    cdef Py_ssize_t nslots = v.mask + 1, ecap, e, i
    cdef void* p
    cdef VocabSlot* slots
    if need >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # entry indices are int32
    if need > v.ecap:
        ecap = v.ecap * 2 if v.ecap * 2 > need else need
        if ecap < 1024:
            ecap = 1024
        p = PyMem_RawRealloc(v.entries, <size_t>ecap * sizeof(VocabEntry))
        if p == NULL:
            return ERR_NOMEM
        v.entries = <VocabEntry*>p
        v.ecap = ecap
    if v.slots != NULL and 2 * need <= nslots:
        return 0
    if nslots < 64:
        nslots = 64
    while nslots < 2 * need:
        nslots *= 2
    slots = <VocabSlot*>PyMem_RawMalloc(<size_t>nslots * sizeof(VocabSlot))
    if slots == NULL:
        return ERR_NOMEM
    memset(slots, 0xff, <size_t>nslots * sizeof(VocabSlot))
    PyMem_RawFree(v.slots)
    v.slots = slots
    v.mask = nslots - 1
    v.shift = slot_shift(nslots)
    for e in range(v.n):
        i = slot_of(v.entries[e].h, v.shift)
        while v.slots[i].entry >= 0:
            i = (i + 1) & v.mask
        v.slots[i].entry = <int32_t>e
        v.slots[i].tag = <uint32_t>v.entries[e].h ^ <uint32_t>(v.entries[e].h >> 32)
        v.entries[e].slot = i
    return 0


cdef int64_t vocab_add(Vocab* v, U32Buf* store, const uint32_t* s, Py_ssize_t n,
                       hash_t h) noexcept nogil:
    """The ID of the token s[0:n], added with its characters copied to `store` if new (room for
    one more entry made by vocab_grow); ERR_NOMEM if store cannot grow."""
    cdef Py_ssize_t i = vocab_probe(v, s, n, h), e, k
    cdef const uint32_t* old = store.data
    cdef int32_t found = v.slots[i].entry
    if found >= 0:
        return found
    if u32_reserve(store, store.size + n) < 0:
        return ERR_NOMEM
    if store.data != old:
        # the entries point into the store: follow it where it moved
        for e in range(v.n):
            v.entries[e].chars = store.data + (v.entries[e].chars - old)
    for k in range(n):
        store.data[store.size + k] = s[k]
    e = vocab_intern(v, store.data + store.size, n, h)
    store.size += n
    return e


cdef int64_t vocab_insert(Vocab* v, const uint32_t* s, Py_ssize_t n, hash_t h) noexcept nogil:
    """vocab_intern for a growing vocabulary whose caller keeps s alive (room made by
    vocab_grow): the token's ID, new or not."""
    return vocab_intern(v, s, n, h)


cdef int hypothesis_ids_in(Workspace ws, const Vocab* v) noexcept nogil:
    """hypothesis_ids against the vocabulary v (a cached set's, shared read-only)."""
    cdef Py_ssize_t t, start = 0
    ws.ids.size = 0
    if u32_reserve(&ws.ids, ws.tok_ends.size) < 0:
        return ERR_NOMEM
    for t in range(ws.tok_ends.size):
        ws.ids.data[t] = vocab_lookup(v, ws.tok_chars.data + start, ws.tok_ends.data[t] - start,
                                      <hash_t>ws.tok_hash.data[t])
        start = ws.tok_ends.data[t]
    ws.ids.size = ws.tok_ends.size
    return 0


cdef int intern_tokens(Vocab* v, U32Buf* store, const U32Buf* chars, const I64Buf* ends,
                       const I64Buf* hashes, U32Buf* out) noexcept nogil:
    """Tokens (a tokenizer's output) interned into a growing vocabulary that keeps its tokens'
    characters in `store`, their IDs appended to out: a line interned a piece at a time."""
    cdef Py_ssize_t t, start = 0
    cdef int64_t e
    if (out.size + ends.size > <Py_ssize_t>0xFFFFFFFF
            or u32_reserve(out, out.size + ends.size) < 0):
        return ERR_NOMEM      # token offsets are 32 bits in a cached set
    for t in range(ends.size):
        if ((v.n == v.ecap or 2 * (v.n + 1) > v.mask + 1)
                and vocab_grow(v, v.n + 1) < 0):
            return ERR_NOMEM
        e = vocab_add(v, store, chars.data + start, ends.data[t] - start, <hash_t>hashes.data[t])
        if e < 0:
            return ERR_NOMEM
        out.data[out.size] = <uint32_t>e
        out.size += 1
        start = ends.data[t]
    return 0


cdef int lookup_tokens(const Vocab* v, const U32Buf* chars, const I64Buf* ends,
                       const I64Buf* hashes, U32Buf* out) noexcept nogil:
    """Tokens looked up in v, their IDs (OOV_ID where v lacks one) appended to out."""
    cdef Py_ssize_t t, start = 0
    if u32_reserve(out, out.size + ends.size) < 0:
        return ERR_NOMEM
    for t in range(ends.size):
        out.data[out.size] = vocab_lookup(v, chars.data + start, ends.data[t] - start,
                                          <hash_t>hashes.data[t])
        out.size += 1
        start = ends.data[t]
    return 0
