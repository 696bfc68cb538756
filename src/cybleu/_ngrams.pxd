# N-gram tables (floor 1): statistics of one segment from interned IDs, and the batch-wide n-gram
# index of pairwise and pooled scoring.
from libc.stdint cimport int32_t, int64_t, uint32_t

from ._hashing cimport slot_of, same_u32, ngram_step
from ._types cimport hash_t, OOV_ID, ERR_NOMEM, ERR_NO_REFS, NgramEntry, NgramTable


cdef int table_prepare(NgramTable* t, Py_ssize_t max_entries) noexcept nogil


# Inline, so that each caller (_corpus, _ids, _nltk_core) compiles its own copy into its own loop,
# with its constant arguments folded in, as when everything was one module.

# A slot holds -1 (empty) or the entry index in its low 32 bits and 31 bits of the n-gram's hash
# above them, so a probe that meets another n-gram rarely has to read that entry (a cache miss).
cdef inline Py_ssize_t slot_entry(Py_ssize_t v) noexcept nogil:
    return v if v < 0 else (v & ((<Py_ssize_t>1 << 32) - 1))


cdef inline Py_ssize_t slot_value(Py_ssize_t e, hash_t h) noexcept nogil:
    return <Py_ssize_t>((h >> 33) << 32) | e


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


cdef inline int count_segment(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
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
