"""N-gram tables (floor 1): a segment's hypothesis n-grams counted and clipped against its references
(count_segment, sacreBLEU's segment statistics; for several hypotheses of one segment, the
references' table built once by reference_table and read by count_in_references), and every distinct n-gram of a batch interned once
for pairwise scoring (NgramIndex). Keys are exact (prefix n-gram's ID, last token); hashes only
choose the slot."""
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.stdint cimport uint16_t, uint32_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from .buffers cimport raw_reserve
from .hashing cimport ngram_slot, slot_shift, ngram_step, frozen_slot
from .defs cimport (hash_t, OOV_ID, NO_PREFIX, NO_PREFIX16, ERR_NOMEM, NgramSlot, NgramEntry,
                   NgramTable, RefGram, RefTables)
from .workspace cimport raise_for


# n-gram tables this large (a segment of about 2**18 tokens or more) are sized tighter
cdef Py_ssize_t LARGE_TABLE = 1 << 20
# and up to this many n-grams (a segment of 4,096 tokens at order 4; 1 MiB of slots) looser
cdef Py_ssize_t SPARSE_TABLE = 1 << 14
# A growing table's positions are added this many at a time, the table grown in between.
cdef Py_ssize_t GROW_BLOCK = 1 << 12


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
    # At most a quarter full when every n-gram is distinct, while the slots fit in a core's
    # cache (a probe that runs into another n-gram is a branch the CPU cannot guess; at a
    # quarter there are about half as many as at half full: 12% faster on 1,024-token rows);
    # then half; for a giant segment (a line of millions of tokens) two thirds, which its real
    # distinct n-grams (far fewer) keep well below
    nslots = 16
    while nslots < (2 * max_entries if max_entries <= SPARSE_TABLE
                    else 2 * max_entries if max_entries < LARGE_TABLE
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


cdef int table_start(NgramTable* t, Py_ssize_t max_entries) noexcept nogil:
    """table_prepare for a table that grows: room for max_entries n-grams, at most TABLE_START;
    past that the caller makes room with table_grow (t.n + more <= t.limit) as they arrive."""
    if table_prepare(t, max_entries if max_entries < TABLE_START else TABLE_START) < 0:
        t.limit = 0
        return ERR_NOMEM
    t.limit = (t.mask + 1) // 2 if (t.mask + 1) // 2 < t.ecap else t.ecap
    return 0


cdef int table_grow(NgramTable* t, Py_ssize_t need) noexcept nogil:
    """Room for `need` n-grams in all, keeping the ones the table holds: more entries (doubling),
    and when the slots would pass half full, at least twice as many, every n-gram rehashed."""
    cdef Py_ssize_t ecap, nslots = t.mask + 1
    cdef void* p
    if need >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # IDs and counts are 32 bits, and NO_PREFIX is not an ID
    if need > t.ecap:
        ecap = 2 * t.ecap if 2 * t.ecap > need else need
        if ecap >= (<Py_ssize_t>1 << 31):
            ecap = need
        p = PyMem_RawRealloc(t.entries, <size_t>ecap * sizeof(NgramEntry))
        if p == NULL:
            return ERR_NOMEM
        t.entries = <NgramEntry*>p
        t.ecap = ecap
    if 2 * need > nslots:
        while nslots < 2 * need:
            nslots *= 2
        if table_rehash(t, nslots) < 0:
            return ERR_NOMEM
    t.limit = (t.mask + 1) // 2 if (t.mask + 1) // 2 < t.ecap else t.ecap
    return 0


cdef int table_rehash(NgramTable* t, Py_ssize_t nslots) noexcept nogil:
    """Move the table's n-grams into nslots slots. A slot keeps the key, not the hash that chose
    it; the hash is the n-gram's own tokens' (ngram_step over them), so it is rebuilt from the
    keys in ID order: an n-gram's prefix always has a smaller ID than the n-gram."""
    cdef Py_ssize_t i, j, e, mask = nslots - 1
    cdef int shift = slot_shift(nslots)
    cdef uint64_t key
    cdef uint32_t prefix
    cdef hash_t h
    cdef uint64_t* buf = NULL
    cdef NgramSlot* slots = <NgramSlot*>PyMem_RawMalloc(<size_t>nslots * sizeof(NgramSlot))
    if slots == NULL:
        return ERR_NOMEM
    if t.n:
        buf = <uint64_t*>PyMem_RawMalloc(<size_t>t.n * sizeof(uint64_t))
        if buf == NULL:
            PyMem_RawFree(slots)
            return ERR_NOMEM
    # generation 0 is empty in every table that holds n-grams (table_prepare starts at 1)
    memset(slots, 0, <size_t>nslots * sizeof(NgramSlot))
    for i in range(t.mask + 1):
        if t.slots[i].gen == t.gen:
            buf[t.slots[i].id] = t.slots[i].key
    for e in range(t.n):
        key = buf[e]
        prefix = <uint32_t>(key >> 32)
        h = ngram_step(0 if prefix == NO_PREFIX else buf[prefix], <uint32_t>key)
        buf[e] = h
        j = ngram_slot(h, shift)
        while slots[j].gen == t.gen:
            j = (j + 1) & mask
        slots[j].key = key
        slots[j].id = <uint32_t>e
        slots[j].gen = t.gen
    PyMem_RawFree(buf)
    PyMem_RawFree(t.slots)
    t.slots = slots
    t.mask = mask
    t.shift = shift
    return 0


cdef int giant_hypothesis(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len, int max_order,
                          bint oov_ends) noexcept nogil:
    """segment_counts' hypothesis loop (hyp_len > 0): the table started and the hypothesis's
    n-grams counted in it, the table growing between blocks of positions as distinct n-grams
    arrive."""
    cdef Py_ssize_t i = 0, i1
    cdef int n, nmax = max_order if max_order < hyp_len else <int>hyp_len
    cdef uint32_t e, prefix, tok
    cdef hash_t h
    if hyp_len >= (<Py_ssize_t>1 << 31):
        return ERR_NOMEM        # counts are 32 bits
    if table_start(t, hyp_len * nmax) < 0:
        return ERR_NOMEM
    while i < hyp_len:
        i1 = i + GROW_BLOCK if hyp_len - i > GROW_BLOCK else hyp_len
        if t.n + (i1 - i) * nmax > t.limit and table_grow(t, t.n + (i1 - i) * nmax) < 0:
            return ERR_NOMEM
        while i < i1:
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
            i += 1
    return 0


cdef int segment_counts(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                        const uint32_t* ref_ids, const int64_t* ref_off, Py_ssize_t r0,
                        Py_ssize_t r1, int max_order, bint oov_ends, int64_t* out) noexcept nogil:
    """count_segment for a segment of any size: its table grows with the distinct n-grams
    instead of making room for every possible one (out of line: for giant segments, and for
    rare callers whose inlined copy would change how the compiler lays out the hot ones)."""
    closest_length(hyp_len, ref_off, r0, r1, max_order, out)
    if r1 == r0:
        return ERR_NO_REFS if hyp_len > 0 else 0
    if hyp_len == 0:
        return 0
    if giant_hypothesis(t, hyp, hyp_len, max_order, oov_ends) < 0:
        return ERR_NOMEM
    return clip_counts(t, ref_ids, ref_off, r0, r1, max_order, out)


cdef int reference_counts(NgramTable* t, const uint32_t* hyp, Py_ssize_t hyp_len,
                          const int64_t* ref_off, Py_ssize_t nref, int max_order,
                          int64_t* out) noexcept nogil:
    """count_in_references out of line, for rare callers (see segment_counts)."""
    return count_in_references(t, hyp, hyp_len, ref_off, nref, max_order, out)


cdef int table_touched_reserve(NgramTable* t) noexcept nogil:
    """Room in `touched` for every n-gram the table holds: sized by the distinct n-grams counted,
    and only with several references (4 bytes per possible n-gram of every segment otherwise)."""
    return touched_reserve(t, t.n)


cdef int touched_reserve(NgramTable* t, Py_ssize_t need) noexcept nogil:
    cdef void* p
    if need <= t.tcap:
        return 0
    p = PyMem_RawRealloc(t.touched, <size_t>need * sizeof(uint32_t))
    if p == NULL:
        return ERR_NOMEM
    t.touched = <uint32_t*>p
    t.tcap = need
    return 0


cdef int reference_table(NgramTable* t, const uint32_t* ref_ids, const int64_t* ref_off,
                         Py_ssize_t nref, int max_order) noexcept nogil:
    """Every n-gram of references 0..nref-1 in the table, with ref_max the most any one of them
    has, and room in `touched` for every entry: what count_in_references reads."""
    cdef Py_ssize_t i, j, j1, rlen, m, possible = 0
    cdef int n
    cdef uint32_t e, prefix, tok
    cdef hash_t h
    cdef const uint32_t* ref
    cdef NgramEntry* en
    for i in range(nref):
        rlen = ref_off[i + 1] - ref_off[i]
        possible += rlen * (max_order if max_order < rlen else rlen)
    if table_start(t, possible + 1) < 0:
        return ERR_NOMEM
    # touched first lists the n-grams the current reference has, then (after the table is
    # built) the ones a hypothesis has: every entry may be either, so room for as many as the
    # table may hold (kept so as it grows)
    if touched_reserve(t, t.limit) < 0:
        return ERR_NOMEM
    for i in range(nref):
        ref = ref_ids + ref_off[i]
        rlen = ref_off[i + 1] - ref_off[i]
        t.ntouched = 0
        j = 0
        while j < rlen:
            # room for a block of positions' n-grams: a giant reference's table grows between
            # blocks, a usual one's (a block or less) was made big enough by table_prepare
            j1 = j + GROW_BLOCK if rlen - j > GROW_BLOCK else rlen
            if t.n + (j1 - j) * max_order > t.limit:
                if (table_grow(t, t.n + (j1 - j) * max_order) < 0
                        or touched_reserve(t, t.limit) < 0):
                    return ERR_NOMEM
            while j < j1:
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
                j += 1
        for m in range(t.ntouched):
            en = &t.entries[t.touched[m]]
            if en.ref_count > en.ref_max:
                en.ref_max = en.ref_count
            en.ref_count = 0
    t.ntouched = 0
    return 0


cdef int freeze_segment(RefTables* rt, const uint32_t* ref_ids, const int64_t* ref_off,
                        Py_ssize_t nref, int max_order, uint32_t* cur,
                        uint32_t* touched) noexcept nogil:
    """Append segment rt.nseg (references 0..nref-1 as token IDs): every distinct n-gram of its
    references once, with the most any one of them has, in a table of four slots or more for
    each n-gram its references may have (at most a quarter full: fewer probes run into another
    n-gram, a branch the CPU cannot guess). cur and touched have room for FREEZE_POSSIBLE, cur
    all zero (and left so). A segment with that many possible n-grams or more is appended with
    no slots: not frozen."""
    cdef Py_ssize_t s = rt.nseg, g0 = rt.gram_off[s], s0 = rt.slot_off[s], nslots = 2, mask
    cdef Py_ssize_t r, j, rlen, i, e, m, nt, possible = 0
    cdef int n
    cdef uint32_t prefix, tok, v
    cdef hash_t h
    cdef bint multi = nref > 1
    cdef const uint32_t* ref
    cdef uint16_t* slots
    cdef RefGram* grams
    cdef RefGram* g
    for r in range(nref):
        rlen = ref_off[r + 1] - ref_off[r]
        possible += rlen * (max_order if max_order < rlen else rlen)
    if possible >= FREEZE_POSSIBLE:
        rt.gram_off[s + 1] = g0
        rt.slot_off[s + 1] = s0
        rt.nseg += 1
        return 0
    while nslots < 4 * possible:
        nslots *= 2
    if (raw_reserve(<void**>&rt.grams, &rt.gcap, g0 + possible, sizeof(RefGram)) < 0
            or raw_reserve(<void**>&rt.slots, &rt.scap, s0 + nslots, sizeof(uint16_t)) < 0):
        return ERR_NOMEM
    slots = rt.slots + s0
    grams = rt.grams + g0
    mask = nslots - 1
    memset(slots, 0, <size_t>nslots * sizeof(uint16_t))
    e = 0
    m = 0                                    # distinct n-grams so far
    for r in range(nref):
        ref = ref_ids + ref_off[r]
        rlen = ref_off[r + 1] - ref_off[r]
        nt = 0
        for j in range(rlen):
            h = 0
            prefix = NO_PREFIX16
            for n in range(1, max_order + 1):
                if j + n > rlen:
                    break
                tok = ref[j + n - 1]
                h = ngram_step(h, tok)
                i = frozen_slot(h, mask)
                while True:
                    v = slots[i]
                    if v == 0:
                        e = m
                        g = &grams[e]
                        g.token = tok
                        g.prefix = <uint16_t>prefix
                        g.ref_max = 0
                        slots[i] = <uint16_t>(e + 1)
                        m += 1
                        break
                    e = v - 1
                    if grams[e].token == tok and grams[e].prefix == prefix:
                        break
                    i = (i + 1) & mask
                if multi:
                    if cur[e] == 0:
                        touched[nt] = <uint32_t>e
                        nt += 1
                    cur[e] += 1
                else:
                    grams[e].ref_max += 1
                prefix = <uint32_t>e
        if multi:
            for i in range(nt):
                e = touched[i]
                if cur[e] > grams[e].ref_max:
                    grams[e].ref_max = cur[e]
                cur[e] = 0
    rt.gram_off[s + 1] = g0 + m
    rt.slot_off[s + 1] = s0 + nslots
    rt.nseg += 1
    return 0


cdef int count_in_frozen(const RefTables* rt, Py_ssize_t s, const uint32_t* hyp,
                         Py_ssize_t hyp_len, int max_order, uint64_t* seen, uint64_t stamp,
                         int64_t* out) noexcept nogil:
    """count_in_references against frozen segment s of rt (out's lengths and totals already
    set by closest_length): each hypothesis n-gram is looked up, and counts as a match while its
    count so far is below the most any reference has. seen[e] is stamp << 32 | the count of
    n-gram e in this hypothesis, any other stamp meaning zero (room for the segment's n-grams;
    stamp new for each call). Out of line: inlined into its caller's loop, it ran short of
    registers."""
    cdef const RefGram* grams = rt.grams + rt.gram_off[s]
    cdef const uint16_t* slots = rt.slots + rt.slot_off[s]
    cdef Py_ssize_t mask = rt.slot_off[s + 1] - rt.slot_off[s] - 1, i, k, end, j, e
    cdef int64_t* correct = out + 2
    cdef uint32_t prefix, tok, v
    cdef uint64_t c
    cdef hash_t h
    stamp <<= 32
    for i in range(hyp_len):
        h = 0
        prefix = NO_PREFIX16
        end = i + max_order if max_order < hyp_len - i else hyp_len
        for k in range(i, end):
            # an OOV token (OOV_ID) is no reference's: its lookup fails like any other
            tok = hyp[k]
            h = ngram_step(h, tok)
            j = frozen_slot(h, mask)
            while True:
                v = slots[j]
                if v == 0:
                    break
                if grams[v - 1].token == tok and grams[v - 1].prefix == prefix:
                    break
                j = (j + 1) & mask
            if v == 0:
                break            # no reference has it, nor any longer n-gram from here
            e = v - 1
            c = seen[e]
            if c < stamp:
                c = stamp
            if c - stamp < grams[e].ref_max:
                correct[k - i] += 1
                seen[e] = c + 1
            prefix = <uint32_t>e
    return 0


cdef void free_ref_tables(RefTables* rt) noexcept nogil:
    PyMem_RawFree(rt.grams)
    PyMem_RawFree(rt.slots)
    PyMem_RawFree(rt.gram_off)
    PyMem_RawFree(rt.slot_off)
    memset(rt, 0, sizeof(RefTables))


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
        if nsent >= (<Py_ssize_t>1 << 31) - 1 or total >= (<Py_ssize_t>1 << 31) - 1:
            return ERR_NOMEM        # sentence numbers and pair positions are kept in 32 bits
        self.nsent = nsent
        self.built = 0
        self.gid = <uint32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(uint32_t))
        self.gcnt = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.gord = <int32_t*>PyMem_RawMalloc(<size_t>(total + 1) * sizeof(int32_t))
        self.goff = <int64_t*>PyMem_RawMalloc(<size_t>(nsent + 1) * sizeof(int64_t))
        if self.gid == NULL or self.gcnt == NULL or self.gord == NULL or self.goff == NULL:
            return ERR_NOMEM
        if table_start(&self.table, total + 1) < 0:
            return ERR_NOMEM
        self.goff[0] = 0
        return 0

    cdef int build(self, const uint32_t* ids, const int64_t* off, Py_ssize_t nsent,
                   int max_order, Py_ssize_t budget) noexcept nogil:
        """Index the next sentences, about `budget` IDs of them (at least one sentence); 1 when
        every sentence is in."""
        cdef Py_ssize_t s, i, i1, k = self.goff[self.built], length, done = 0
        cdef int n
        cdef uint32_t e, prefix, tok
        cdef hash_t h
        cdef const uint32_t* seq
        cdef NgramEntry* en
        while self.built < nsent and (done == 0 or done < budget):
            s = self.built
            seq = ids + off[s]
            length = off[s + 1] - off[s]
            i = 0
            while i < length:
                # room for a block of positions' n-grams (the table grows with distinct ones)
                i1 = i + GROW_BLOCK if length - i > GROW_BLOCK else length
                if (self.table.n + (i1 - i) * max_order > self.table.limit
                        and table_grow(&self.table, self.table.n + (i1 - i) * max_order) < 0):
                    return ERR_NOMEM
                while i < i1:
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
                    i += 1
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
        raise_for(rc if rc < 0 else 0)
        PyErr_CheckSignals()
    return ix
