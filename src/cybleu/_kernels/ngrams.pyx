"""N-gram tables (floor 1): a segment's hypothesis n-grams counted and clipped against its references
(count_segment, sacreBLEU's segment statistics; for several hypotheses of one segment, the
references' table built once by reference_table and read by count_in_references), and every distinct n-gram of a batch interned once
for pairwise scoring (NgramIndex). Keys are exact (prefix n-gram's ID, last token); hashes only
choose the slot."""
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.stdint cimport uint32_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from .hashing cimport slot_shift, ngram_step
from .defs cimport hash_t, NO_PREFIX, ERR_NOMEM, NgramSlot, NgramEntry, NgramTable
from .workspace cimport raise_for


# n-gram tables this large (a segment of about 2**18 tokens or more) are sized tighter
cdef Py_ssize_t LARGE_TABLE = 1 << 20


cdef int table_prepare(NgramTable* t, Py_ssize_t max_entries) noexcept nogil:
    """Empty the table and make room for max_entries n-grams."""
    cdef Py_ssize_t nslots
    cdef void* p
    if max_entries >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # IDs and counts are 32 bits, and NO_PREFIX is not an ID
    if max_entries > t.ecap:
        p = PyMem_RawRealloc(t.entries, <size_t>max_entries * sizeof(NgramEntry))
        if p == NULL:
            return ERR_NOMEM
        t.entries = <NgramEntry*>p
        t.ecap = max_entries
    # at most half full when every n-gram is distinct; for a giant segment (a line of millions
    # of tokens) two thirds, which its real distinct n-grams (far fewer) keep well below
    nslots = 16
    while nslots < (2 * max_entries if max_entries < LARGE_TABLE
                    else max_entries + max_entries // 2):
        nslots *= 2
    t.gen += 1
    if nslots > t.mask + 1 or t.gen == 0:
        # a fresh array, or every generation used up: all slots back to generation 0 (empty)
        if nslots > t.mask + 1:
            PyMem_RawFree(t.slots)
            t.slots = <NgramSlot*>PyMem_RawMalloc(<size_t>nslots * sizeof(NgramSlot))
            if t.slots == NULL:
                t.mask = -1
                return ERR_NOMEM
            t.mask = nslots - 1
            t.shift = slot_shift(nslots)
        memset(t.slots, 0, <size_t>(t.mask + 1) * sizeof(NgramSlot))
        t.gen = 1
    t.n = 0
    t.ntouched = 0
    return 0


cdef int table_touched_reserve(NgramTable* t) noexcept nogil:
    """Room in `touched` for every n-gram the table holds: sized by the distinct n-grams counted,
    and only with several references (4 bytes per possible n-gram of every segment otherwise)."""
    cdef void* p
    if t.n <= t.tcap:
        return 0
    p = PyMem_RawRealloc(t.touched, <size_t>t.n * sizeof(uint32_t))
    if p == NULL:
        return ERR_NOMEM
    t.touched = <uint32_t*>p
    t.tcap = t.n
    return 0


cdef int reference_table(NgramTable* t, const uint32_t* ref_ids, const int64_t* ref_off,
                         Py_ssize_t nref, int max_order) noexcept nogil:
    """Every n-gram of references 0..nref-1 in the table, with ref_max the most any one of them
    has, and room in `touched` for every entry: what count_in_references reads."""
    cdef Py_ssize_t i, j, rlen, m, possible = 0
    cdef void* p
    cdef int n
    cdef uint32_t e, prefix, tok
    cdef hash_t h
    cdef const uint32_t* ref
    cdef NgramEntry* en
    for i in range(nref):
        rlen = ref_off[i + 1] - ref_off[i]
        possible += rlen * (max_order if max_order < rlen else rlen)
    if table_prepare(t, possible + 1) < 0:
        return ERR_NOMEM
    # touched first lists the n-grams the current reference has, then (after the table is
    # built) the ones a hypothesis has: every entry may be either, so room for all of them
    if possible + 1 > t.tcap:
        p = PyMem_RawRealloc(t.touched, <size_t>(possible + 1) * sizeof(uint32_t))
        if p == NULL:
            return ERR_NOMEM
        t.touched = <uint32_t*>p
        t.tcap = possible + 1
    for i in range(nref):
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
                e = table_add(t, gram_key(prefix, tok), h, n)
                en = &t.entries[e]
                if en.ref_count == 0:
                    t.touched[t.ntouched] = e
                    t.ntouched += 1
                en.ref_count += 1
                prefix = e
        for m in range(t.ntouched):
            en = &t.entries[t.touched[m]]
            if en.ref_count > en.ref_max:
                en.ref_max = en.ref_count
            en.ref_count = 0
    t.ntouched = 0
    return 0


# ---------------------------------------------------------------------------------------------
# every distinct n-gram of a set of sentences interned once

cdef class NgramIndex:
    """Every distinct n-gram of a set of sentences gets an ID once (its entry in an NgramTable
    keyed on the sentences' IDs back to back), and each sentence becomes its list of distinct
    (n-gram ID, count, order): a pair of sentences then costs one array lookup per n-gram."""

    def __dealloc__(self):
        PyMem_RawFree(self.table.slots)
        PyMem_RawFree(self.table.entries)
        PyMem_RawFree(self.table.touched)
        PyMem_RawFree(self.gid)
        PyMem_RawFree(self.gcnt)
        PyMem_RawFree(self.gord)
        PyMem_RawFree(self.goff)

    cdef int begin(self, const int64_t* off, Py_ssize_t nsent, int max_order) noexcept nogil:
        """Allocate for the n-grams of nsent sentences (build then adds them)."""
        cdef Py_ssize_t s, length, total = 0
        cdef int n
        for s in range(nsent):
            length = off[s + 1] - off[s]
            for n in range(1, max_order + 1):
                if length >= n:
                    total += length - n + 1
        if nsent >= (<Py_ssize_t>1 << 31) - 1:
            return ERR_NOMEM        # sentence numbers are kept in 32 bits
        self.nsent = nsent
        self.built = 0
        self.gid = <uint32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(uint32_t))
        self.gcnt = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.gord = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.goff = <int64_t*>PyMem_RawMalloc(<size_t>(nsent + 1) * sizeof(int64_t))
        if self.gid == NULL or self.gcnt == NULL or self.gord == NULL or self.goff == NULL:
            return ERR_NOMEM
        if table_prepare(&self.table, total + 1) < 0:
            return ERR_NOMEM
        self.goff[0] = 0
        return 0

    cdef int build(self, const uint32_t* ids, const int64_t* off, Py_ssize_t nsent,
                   int max_order, Py_ssize_t budget) noexcept nogil:
        """Index the next sentences, about `budget` IDs of them (at least one sentence); 1 when
        every sentence is in."""
        cdef Py_ssize_t s, i, k = self.goff[self.built], length, done = 0
        cdef int n
        cdef uint32_t e, prefix, tok
        cdef hash_t h
        cdef const uint32_t* seq
        cdef NgramEntry* en
        while self.built < nsent and (done == 0 or done < budget):
            s = self.built
            seq = ids + off[s]
            length = off[s + 1] - off[s]
            for i in range(length):
                h = 0
                prefix = NO_PREFIX
                for n in range(1, max_order + 1):
                    if i + n > length:
                        break
                    tok = seq[i + n - 1]
                    h = ngram_step(h, tok)
                    e = table_add(&self.table, gram_key(prefix, tok), h, n)
                    en = &self.table.entries[e]
                    # hyp_count: 1 + the last sentence that had it (0: none yet)
                    if en.hyp_count != <uint32_t>(s + 1):
                        en.hyp_count = <uint32_t>(s + 1)
                        en.ref_max = <uint32_t>k        # where its pair for sentence s is
                        self.gid[k] = e
                        self.gcnt[k] = 1
                        self.gord[k] = n - 1
                        k += 1
                    else:
                        self.gcnt[en.ref_max] += 1
                    prefix = e
            self.goff[s + 1] = k
            self.built = s + 1
            done += length + 1
        self.nids = self.table.n
        return 1 if self.built >= nsent else 0


# Sentences are indexed a step of about this many IDs at a time, with Ctrl-C checked in between.
cdef Py_ssize_t INDEX_STEP = 1 << 16


cdef NgramIndex index_sentences(flat, const int64_t[::1] off, int max_order):
    cdef const uint32_t[::1] ids = flat
    cdef NgramIndex ix = NgramIndex()
    cdef const uint32_t* p = &ids[0] if ids.shape[0] else NULL
    cdef Py_ssize_t nsent = off.shape[0] - 1
    cdef int rc
    with nogil:
        rc = ix.begin(&off[0], nsent, max_order)
    raise_for(rc)
    rc = 0
    while rc == 0:
        with nogil:
            rc = ix.build(p, &off[0], nsent, max_order, INDEX_STEP)
        PyErr_CheckSignals()
    return ix
