# N-gram tables (floor 1): statistics of one segment from interned IDs, and the batch-wide n-gram
# index of pairwise and pooled scoring.
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from .hashing cimport ngram_slot, ngram_step
from .defs cimport (hash_t, OOV_ID, NO_PREFIX, ERR_NOMEM, ERR_NO_REFS, NgramSlot, NgramEntry,
                   NgramTable, RefTables)


cdef int table_prepare(NgramTable* t, Py_ssize_t max_entries) noexcept nogil
cdef int table_start(NgramTable* t, Py_ssize_t max_entries) noexcept nogil
cdef int table_grow(NgramTable* t, Py_ssize_t need) noexcept nogil
cdef int table_rehash(NgramTable* t, Py_ssize_t nslots) noexcept nogil
cdef int table_touched_reserve(NgramTable* t) noexcept nogil
cdef int touched_reserve(NgramTable* t, Py_ssize_t need) noexcept nogil
cdef int giant_hypothesis(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len, int max_order,
                          bint oov_ends) noexcept nogil
cdef int segment_counts(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                        const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0,
                        Py_ssize_t r1, int max_order, bint oov_ends, int64_t* out) noexcept nogil
cdef int reference_counts(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                          const int64_t* ref_off, Py_ssize_t nref, int max_order,
                          int64_t* out) noexcept nogil
cdef int reference_table(NgramTable* t, const uint32_t* ref_ids, const int64_t* ref_off,
                         Py_ssize_t nref, int max_order) noexcept nogil
cdef int freeze_segment(RefTables* rt, const uint32_t* ref_ids, const int64_t* ref_off,
                        Py_ssize_t nref, int max_order, uint32_t* cur,
                        uint32_t* touched) noexcept nogil
cdef void free_ref_tables(RefTables* rt) noexcept nogil
cdef int count_in_frozen(const RefTables* rt, Py_ssize_t s, const uint32_t* hyp,
                         Py_ssize_t hyp_len, int max_order, uint64_t* seen, uint64_t stamp,
                         int64_t* out) noexcept nogil


# A table that grows (table_start, table_grow) starts with room for this many n-grams at most (a
# segment of 16,384 tokens at order 4): a giant line of few distinct words then needs a small
# table, not one entry per possible n-gram. count_segment's table has room for every n-gram a
# segment may have, which is faster for the usual segments; giant ones take segment_counts.
cdef enum:
    TABLE_START = 1 << 16

# A segment is frozen (freeze_segment) when its references have fewer possible n-grams than this:
# its table then has at most 2**16 slots (four or more per possible n-gram), and its n-grams'
# numbers fit the 16 bits of a slot and of a prefix.
cdef enum:
    FREEZE_POSSIBLE = 1 << 14


# Inline, so that each caller (_corpus, _ids, _nltk_core) compiles its own copy into its own loop,
# with its constant arguments folded in, as when everything was one module.

cdef inline Py_ssize_t table_find(const NgramTable* t, uint64_t key, hash_t h) noexcept nogil:
    """The slot holding key, or the empty slot where it belongs."""
    cdef Py_ssize_t i = ngram_slot(h, t.shift)
    cdef const NgramSlot* s
    while True:
        s = &t.slots[i]
        if s.gen != t.gen or s.key == key:
            return i
        i = (i + 1) & t.mask


cdef inline uint32_t table_add(NgramTable* t, uint64_t key, hash_t h, int order) noexcept nogil:
    """The ID of the n-gram key, a new one (counts zero) when the table does not hold it yet;
    the caller made room for it (table_prepare for every n-gram that can be added, or
    table_start and table_grow: t.n < t.limit)."""
    cdef NgramSlot* s = &t.slots[table_find(t, key, h)]
    cdef NgramEntry* en
    if s.gen == t.gen:
        return s.id
    s.key = key
    s.gen = t.gen
    s.id = <uint32_t>t.n
    en = &t.entries[t.n]
    en.hyp_count = 0
    en.ref_count = 0
    en.ref_max = 0
    en.order = order
    t.n += 1
    return s.id


cdef inline uint64_t gram_key(uint32_t prefix, uint32_t token) noexcept nogil:
    return (<uint64_t>prefix << 32) | token


cdef inline void closest_length(Py_ssize_t hyp_len, const int64_t* ref_off, Py_ssize_t r0,
                                Py_ssize_t r1, int max_order, int64_t* out) noexcept nogil:
    """out = [hyp_len, closest reference length (ties to the shorter), 0 x N, total_1..N]."""
    cdef int64_t* correct = out + 2
    cdef int64_t* total = out + 2 + max_order
    cdef Py_ssize_t i, rlen, diff, best_diff = -1
    cdef int64_t best_len = -1
    cdef int n
    out[0] = hyp_len
    for n in range(1, max_order + 1):
        correct[n - 1] = 0
        total[n - 1] = hyp_len - n + 1 if hyp_len >= n else 0
    for i in range(r0, r1):
        rlen = ref_off[i + 1] - ref_off[i]
        diff = hyp_len - rlen if hyp_len >= rlen else rlen - hyp_len
        if best_diff == -1 or diff < best_diff:
            best_diff = diff
            best_len = rlen
        elif diff == best_diff and rlen < best_len:
            best_len = rlen
    out[1] = best_len


cdef inline int count_against_one(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                                  const uint32_t* ref, Py_ssize_t rlen, int max_order,
                                  int64_t* out) noexcept nogil:
    """count_segment's matches with one reference of fewer than 2**16 - 1 tokens (out's lengths
    and totals set): the reference's n-grams tabled with their counts, then each hypothesis
    n-gram looked up, a match while the hypothesis has had it fewer times than the reference.
    The slots alone hold everything: an n-gram's number is its slot (the table never moves
    them), and the slot's id field its two counts, reference's in the low 16 bits and
    hypothesis's in the high, so a probe touches one cache line and the entries none."""
    cdef int64_t* correct = out + 2
    cdef Py_ssize_t i, slot, possible
    cdef int n
    cdef uint32_t prefix, tok
    cdef uint64_t key
    cdef hash_t h
    cdef NgramSlot* sl
    if rlen == 0:
        return 0
    # room for twice the reference's possible n-grams: its slots at most a quarter full, for
    # half the probes that run into another n-gram (a branch the CPU cannot guess) that half
    # full has; 15% faster on 1,024-token rows, 40% at order 64 (4 MiB of slots at most)
    possible = rlen * (max_order if max_order < rlen else rlen)
    if table_prepare(t, 2 * possible) < 0:
        return ERR_NOMEM
    for i in range(rlen):
        h = 0
        prefix = NO_PREFIX
        for n in range(1, max_order + 1):
            if i + n > rlen:
                break
            tok = ref[i + n - 1]
            h = ngram_step(h, tok)
            key = gram_key(prefix, tok)
            slot = table_find(t, key, h)
            sl = &t.slots[slot]
            if sl.gen != t.gen:
                sl.key = key
                sl.gen = t.gen
                sl.id = 1
            else:
                sl.id += 1
            prefix = <uint32_t>slot
    for i in range(hyp_len):
        h = 0
        prefix = NO_PREFIX
        for n in range(1, max_order + 1):
            if i + n > hyp_len:
                break
            tok = hyp[i + n - 1]
            h = ngram_step(h, tok)
            slot = table_find(t, gram_key(prefix, tok), h)
            sl = &t.slots[slot]
            if sl.gen != t.gen:
                break            # the reference lacks it, and every longer n-gram from here
            if (sl.id >> 16) < (sl.id & 0xFFFF):
                sl.id += 0x10000
                correct[n - 1] += 1
            prefix = <uint32_t>slot
    return 0


cdef inline int count_segment(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                       const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0, Py_ssize_t r1,
                       int max_order, bint oov_ends, int64_t* out) noexcept nogil:
    """out = [hyp_len, ref_len, correct_1..N, total_1..N] (sacrebleu's segment statistics).
    oov_ends: OOV_ID is the interning's never-matching token (string path); raw token IDs
    (ids_segment_stats) use the whole uint32 range, so there it is an ordinary ID. The table
    makes room for every n-gram the hypothesis may have: for a segment of any size, call
    count_any_segment (or segment_counts)."""
    cdef Py_ssize_t i, rlen
    cdef int n, nmax
    cdef uint32_t e, prefix, tok
    cdef hash_t h

    closest_length(hyp_len, ref_off, r0, r1, max_order, out)
    if r1 == r0:
        return ERR_NO_REFS if hyp_len > 0 else 0
    if hyp_len == 0:
        return 0
    if not oov_ends and r1 - r0 == 1:
        # raw IDs with one reference: tabling the reference skips the pass over the table; text
        # keeps the hypothesis's table, whose OOV tokens (IDs no reference has) end its n-grams
        # early, as no reference table can
        rlen = ref_off[r0 + 1] - ref_off[r0]
        if rlen < 0xFFFF and rlen * (max_order if max_order < rlen else rlen) <= TABLE_START:
            return count_against_one(t, hyp, hyp_len, ref_ids + ref_off[r0], rlen, max_order,
                                     out)

    nmax = max_order if max_order < hyp_len else <int>hyp_len
    if table_prepare(t, hyp_len * nmax) < 0:
        return ERR_NOMEM
    # distinct hypothesis n-grams; one holding an OOV token can never match, nor can any longer
    # n-gram from the same start
    for i in range(hyp_len):
        h = 0
        prefix = NO_PREFIX
        for n in range(1, max_order + 1):
            if i + n > hyp_len:
                break
            tok = hyp[i + n - 1]
            if oov_ends and tok == OOV_ID:
                break
            h = ngram_step(h, tok)
            e = table_add(t, gram_key(prefix, tok), h, n)
            t.entries[e].hyp_count += 1
            prefix = e
    return clip_counts(t, ref_ids, ref_off, r0, r1, max_order, out)


cdef inline int count_any_segment(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                                  const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0,
                                  Py_ssize_t r1, int max_order, bint oov_ends,
                                  int64_t* out) noexcept nogil:
    """count_segment, or segment_counts (its table grows with the distinct n-grams) for a
    hypothesis with more possible n-grams than TABLE_START."""
    if hyp_len * max_order > TABLE_START:
        return segment_counts(t, hyp, hyp_len, ref_ids, ref_off, r0, r1, max_order, oov_ends, out)
    return count_segment(t, hyp, hyp_len, ref_ids, ref_off, r0, r1, max_order, oov_ends, out)


cdef inline int clip_counts(NgramTable* t, const uint32_t* ref_ids, const int64_t* ref_off,
                            Py_ssize_t r0, Py_ssize_t r1, int max_order,
                            int64_t* out) noexcept nogil:
    """count_segment's second half, the table holding the hypothesis's n-gram counts: the
    clipped matches added to out's correct_1..N."""
    cdef int64_t* correct = out + 2
    cdef Py_ssize_t i, j, slot, rlen, m
    cdef int n
    cdef bint multi
    cdef uint32_t e, prefix, tok
    cdef hash_t h
    cdef const uint32_t* ref
    cdef NgramEntry* en
    # clip: max count over the references, only for n-grams the hypothesis has; a reference n-gram
    # missing from the table means every longer one from the same start is missing too. With one
    # reference (the usual case) its saturated count is the clipped count, no maximum to keep.
    multi = r1 - r0 > 1
    if multi and table_touched_reserve(t) < 0:
        return ERR_NOMEM
    for i in range(r0, r1):
        ref = ref_ids + ref_off[i]
        rlen = ref_off[i + 1] - ref_off[i]
        t.ntouched = 0
        for j in range(rlen):
            h = 0
            prefix = NO_PREFIX
            for n in range(1, max_order + 1):
                if j + n > rlen:
                    break
                tok = ref[j + n - 1]
                h = ngram_step(h, tok)
                slot = table_find(t, gram_key(prefix, tok), h)
                if t.slots[slot].gen != t.gen:
                    break
                e = t.slots[slot].id
                en = &t.entries[e]
                if multi and en.ref_count == 0:
                    t.touched[t.ntouched] = e
                    t.ntouched += 1
                en.ref_count += en.ref_count < en.hyp_count
                prefix = e
        if multi:
            for m in range(t.ntouched):
                en = &t.entries[t.touched[m]]
                if en.ref_count > en.ref_max:
                    en.ref_max = en.ref_count
                en.ref_count = 0
    # the saturated counts are the clipped ones
    for m in range(t.n):
        en = &t.entries[m]
        correct[en.order - 1] += en.ref_max if multi else en.ref_count
    return 0


cdef inline int count_in_references(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                                    const int64_t* ref_off, Py_ssize_t nref, int max_order,
                                    int64_t* out) noexcept nogil:
    """count_segment's statistics against a table that reference_table built (several
    hypotheses of one segment share it): each hypothesis n-gram is looked up there, and the
    clipped count is min(its count, the most any reference has). The table is left as it was."""
    cdef int64_t* correct = out + 2
    cdef Py_ssize_t i, slot, m, ntouched = 0
    cdef int n
    cdef uint32_t e, prefix, tok
    cdef hash_t h
    cdef NgramEntry* en
    closest_length(hyp_len, ref_off, 0, nref, max_order, out)
    if nref == 0:
        return ERR_NO_REFS if hyp_len > 0 else 0
    for i in range(hyp_len):
        h = 0
        prefix = NO_PREFIX
        for n in range(1, max_order + 1):
            if i + n > hyp_len:
                break
            tok = hyp[i + n - 1]
            if tok == OOV_ID:
                break
            h = ngram_step(h, tok)
            slot = table_find(t, gram_key(prefix, tok), h)
            if t.slots[slot].gen != t.gen:
                break            # no reference has it, nor any longer n-gram from here
            e = t.slots[slot].id
            en = &t.entries[e]
            if en.hyp_count == 0:
                t.touched[ntouched] = e
                ntouched += 1
            en.hyp_count += 1
            prefix = e
    for m in range(ntouched):
        en = &t.entries[t.touched[m]]
        correct[en.order - 1] += en.hyp_count if en.hyp_count < en.ref_max else en.ref_max
        en.hyp_count = 0
    return 0


# Every distinct n-gram of a set of sentences gets an ID once, and each sentence becomes its list
# of distinct (n-gram ID, count, order): a pair of sentences then costs one array lookup per n-gram.
cdef class NgramIndex:
    cdef NgramTable table
    cdef uint32_t* gid        # sentence s: pairs goff[s]..goff[s+1]-1
    cdef int32_t* gcnt
    cdef int32_t* gord
    cdef int64_t* goff
    cdef Py_ssize_t nsent, nids
    cdef Py_ssize_t built     # sentences indexed so far (build is resumable: Ctrl-C in between)

    cdef int begin(self, const int64_t* off, Py_ssize_t nsent, int max_order) noexcept nogil
    cdef int build(self, const uint32_t* ids, const int64_t* off, Py_ssize_t nsent,
                   int max_order, Py_ssize_t budget) noexcept nogil


cdef NgramIndex index_sentences(flat, const int64_t[::1] off, int max_order)
