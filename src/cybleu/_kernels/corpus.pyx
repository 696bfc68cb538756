"""Text BLEU statistics (floor 2): tokenize (_tokenize) -> intern (_intern) -> count (_ngrams), a
chunk of hypotheses at a time with the GIL released, against references cached once (RefSet) or
streamed alongside; sentence scores through _bleu."""
from cpython.array cimport array, clone
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals, PyErr_SetInterrupt
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc, PyMem_RawRealloc
from libc.stdint cimport uint16_t, uint32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset

from .buffers cimport u32_reserve, u32_push, i64_reserve, i64_push
from .hashing cimport hash_step
from .intern cimport (segment_ids, hypothesis_ids_in, vocab_grow, vocab_add, vocab_insert,
                      vocab_clear, intern_tokens, lookup_tokens)
from .ngrams cimport (count_segment, count_in_references, reference_table, segment_counts,
                      reference_counts, closest_length, count_in_frozen, freeze_segment,
                      free_ref_tables, FREEZE_POSSIBLE)
from .tokenize cimport tokenizer_mode, tokenize_line, piece_chars, line_length, tokenize_piece
from .defs cimport (hash_t, U32Buf, I64Buf, Vocab, VocabEntry, OOV_ID, ERR_NOMEM, ERR_NO_REFS,
                   CORE_MAX_ORDER, RefGram, RefTables)
from .workspace cimport (Job, Workspace, acquire_workspace, release_workspace, load_text_refs,
                         run_jobs)

from .bleu import SMOOTH_MODES, bleu_scores_from_stats

cdef extern from "Python.h":
    bint PyUnicode_Check(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    Py_UCS4 PyUnicode_ReadChar(object o, Py_ssize_t index) except? -1

__all__ = ["RefSet", "corpus_stats", "segment_stats", "sentence_scores", "count_tokenized_periods"]


cdef int load_chunk(Workspace ws, segments, hyps, Py_ssize_t start, Py_ssize_t stop,
                    bint lowercase) except -1:
    """Point ws at hypotheses start..stop-1 (with the GIL; the strs are read in place), and at
    their references when they are streamed (`segments` not None: one sequence of reference
    strings per segment)."""
    ws.hkeep = load_text_refs(hyps[start:stop], start, lowercase, &ws.hlines)
    if segments is not None:
        flat = []
        ws.rseg.size = 0
        if i64_push(&ws.rseg, 0) < 0:
            raise MemoryError()
        for seg in segments[start:stop]:
            flat.extend(seg)
            if i64_push(&ws.rseg, len(flat)) < 0:
                raise MemoryError()
        try:
            ws.rkeep = load_text_refs(flat, 0, lowercase, &ws.rlines)
        except TypeError:
            raise TypeError("a reference is not a str") from None
    return 0


cdef inline void add_row(const int64_t* stats, Py_ssize_t width, int64_t* totals, int64_t* rows,
                         Py_ssize_t k) noexcept nogil:
    """A segment's statistics added to the totals and, unless rows is NULL, kept as row k."""
    cdef Py_ssize_t w
    for w in range(width):
        totals[w] += stats[w]
    if rows != NULL:
        memcpy(rows + k * width, stats, width * sizeof(int64_t))


cdef int cached_offsets(Workspace ws, RefSet cached, Py_ssize_t s) noexcept nogil:
    """Segment s of a cached set: its references' token offsets into ws.ref_off (from 0)."""
    cdef Py_ssize_t r0 = cached.seg_ref.data[s], r1 = cached.seg_ref.data[s + 1], r
    cdef uint32_t base = cached.ref_tok.data[r0]
    if i64_reserve(&ws.ref_off, r1 - r0 + 1) < 0:
        return ERR_NOMEM
    for r in range(r0, r1 + 1):
        ws.ref_off.data[r - r0] = cached.ref_tok.data[r] - base
    ws.ref_off.size = r1 - r0 + 1
    return 0


cdef int cached_segment(Workspace ws, RefSet cached, Py_ssize_t s) noexcept nogil:
    """Segment s of a cached set: its references' token offsets into ws.ref_off (from 0), and
    their token IDs stamped for segment_hypothesis_ids."""
    cdef Py_ssize_t r0 = cached.seg_ref.data[s], r1 = cached.seg_ref.data[s + 1], r
    if cached_offsets(ws, cached, s) < 0:
        return ERR_NOMEM
    # stamp the IDs this segment's references hold, so that a hypothesis token only some other
    # segment's references have counts as OOV here, as a per-segment vocabulary would make it
    # (the n-grams through it end at once instead of filling the table)
    if ws.mark.size < cached.vocab.n or ws.stamp == <uint32_t>0xFFFFFFFF:
        if u32_reserve(&ws.mark, cached.vocab.n) < 0:
            return ERR_NOMEM
        memset(ws.mark.data, 0, <size_t>ws.mark.cap * sizeof(uint32_t))
        ws.mark.size = ws.mark.cap
        ws.stamp = 0
    ws.stamp += 1
    for r in range(cached.ref_tok.data[r0], cached.ref_tok.data[r1]):
        ws.mark.data[cached.ids.data[r]] = ws.stamp
    return 0


cdef int frozen_segment(Workspace ws, RefSet cached, Py_ssize_t s, int max_order) noexcept nogil:
    """Statistics of the hypothesis in ws.tok_* against frozen segment s of a cached set, into
    ws.stats: its tokens looked up in the set's vocabulary and its n-grams in the segment's
    table (a token or n-gram only other segments have fails that lookup, as OOV would)."""
    cdef Py_ssize_t n = cached.tables.gram_off[s + 1] - cached.tables.gram_off[s]
    cdef void* p
    if cached_offsets(ws, cached, s) < 0 or hypothesis_ids_in(ws, &cached.vocab) < 0:
        return ERR_NOMEM
    closest_length(ws.ids.size, ws.ref_off.data, 0, ws.ref_off.size - 1, max_order,
                   ws.stats.data)
    if ws.ref_off.size == 1:
        return ERR_NO_REFS if ws.ids.size > 0 else 0
    if ws.seen_cap < n:
        p = PyMem_RawRealloc(ws.seen, <size_t>n * sizeof(uint64_t))
        if p == NULL:
            return ERR_NOMEM
        ws.seen = <uint64_t*>p
        ws.seen_cap = n
        memset(ws.seen, 0, <size_t>n * sizeof(uint64_t))
    ws.seen_stamp += 1
    if ws.seen_stamp > <uint64_t>0xFFFFFFFF:
        memset(ws.seen, 0, <size_t>ws.seen_cap * sizeof(uint64_t))
        ws.seen_stamp = 1
    return count_in_frozen(&cached.tables, s, ws.ids.data, ws.ids.size, max_order, ws.seen,
                           ws.seen_stamp, ws.stats.data)


cdef int segment_hypothesis_ids(Workspace ws, RefSet cached) noexcept nogil:
    """The hypothesis in ws.tok_* as cached IDs in ws.ids, OOV_ID where the current segment's
    references (stamped by cached_segment) do not have the token."""
    cdef Py_ssize_t t
    cdef uint32_t tid
    if hypothesis_ids_in(ws, &cached.vocab) < 0:
        return ERR_NOMEM
    for t in range(ws.ids.size):
        tid = ws.ids.data[t]
        if tid != OOV_ID and ws.mark.data[tid] != ws.stamp:
            ws.ids.data[t] = OOV_ID
    return 0


cdef void unstamped_oov(Workspace ws) noexcept nogil:
    """OOV_ID for the IDs in ws.ids that the current segment's references do not have (as
    segment_hypothesis_ids marks them)."""
    cdef Py_ssize_t t
    cdef uint32_t tid
    for t in range(ws.ids.size):
        tid = ws.ids.data[t]
        if tid != OOV_ID and ws.mark.data[tid] != ws.stamp:
            ws.ids.data[t] = OOV_ID


cdef inline bint chunk_in_pieces(Workspace ws, bint streamed) noexcept nogil:
    """Whether the loaded chunk holds a line past tokenize.piece_chars (see long_ids)."""
    cdef Py_ssize_t limit = piece_chars()
    return ws.hlines.longest > limit or (streamed and ws.rlines.longest > limit)


cdef int long_ids(Workspace ws, RefSet cached, Py_ssize_t k, int tok_mode) noexcept nogil:
    """Segment k of the chunk as IDs, its lines tokenized a piece at a time and each piece's
    tokens interned (or looked up) at once, so that a giant line costs 4 bytes per token: the
    references (when streamed) interned into ws.vocab, their characters kept in ws.rchars for
    its distinct tokens only, their IDs in ws.ref_ids / ws.ref_off; the hypothesis looked up
    there or in the cached set's vocabulary, its IDs in ws.ids (OOV_ID where the vocabulary
    lacks a token; a cached set's caller marks the tokens of other segments' references)."""
    cdef Py_ssize_t r, n, pos
    cdef const Vocab* v = &ws.vocab
    if cached is None:
        ws.rchars.size = ws.ref_ids.size = ws.ref_off.size = 0
        if vocab_clear(&ws.vocab) < 0 or i64_push(&ws.ref_off, 0) < 0:
            return ERR_NOMEM
        for r in range(ws.rseg.data[k], ws.rseg.data[k + 1]):
            n = line_length(&ws.rlines, r)
            pos = 0
            while pos < n:
                ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
                if (tokenize_piece(ws, &ws.rlines, r, tok_mode, n, &pos, &ws.tok_chars,
                                   &ws.tok_ends, &ws.tok_hash) < 0
                        or intern_tokens(&ws.vocab, &ws.rchars, &ws.tok_chars, &ws.tok_ends,
                                         &ws.tok_hash, &ws.ref_ids) < 0):
                    return ERR_NOMEM
            if i64_push(&ws.ref_off, ws.ref_ids.size) < 0:
                return ERR_NOMEM
    else:
        v = &cached.vocab
    ws.ids.size = 0
    n = line_length(&ws.hlines, k)
    pos = 0
    while pos < n:
        ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
        if (tokenize_piece(ws, &ws.hlines, k, tok_mode, n, &pos, &ws.tok_chars, &ws.tok_ends,
                           &ws.tok_hash) < 0
                or lookup_tokens(v, &ws.tok_chars, &ws.tok_ends, &ws.tok_hash, &ws.ids) < 0):
            return ERR_NOMEM
    return 0


cdef inline int count_loaded(Workspace ws, RefSet cached, Py_ssize_t start, Py_ssize_t stop,
                             int tok_mode, int max_order, int64_t* totals, int64_t* rows,
                             Py_ssize_t* where, Py_ssize_t group,
                             Py_ssize_t* table_seg) noexcept nogil:
    """count_chunk, count_grouped for candidates grouped by segment, or count_in_pieces for a
    chunk that holds a giant line: each in its own function, all called from both drivers, so
    that none changes how the compiler lays out another."""
    if chunk_in_pieces(ws, cached is None):
        return count_in_pieces(ws, cached, start, stop, tok_mode, max_order, totals, rows, where,
                               group, table_seg)
    if group > 1:
        return count_grouped(ws, cached, start, stop, tok_mode, max_order, totals, rows, where,
                             group, table_seg)
    return count_chunk(ws, cached, start, stop, tok_mode, max_order, totals, rows, where)


cdef int count_chunk(Workspace ws, RefSet cached, Py_ssize_t start, Py_ssize_t stop,
                     int tok_mode, int max_order, int64_t* totals, int64_t* rows,
                     Py_ssize_t* where) noexcept nogil:
    """Tokenize, intern and count the loaded segments start..stop-1: each one's statistics added
    to totals and, unless rows is NULL, written to rows (segment start first). On an error,
    returns it with *where the segment. (Candidates grouped by segment take count_grouped.)"""
    cdef Py_ssize_t width = 2 + 2 * max_order, k, s, r, nref
    cdef int rc = 0
    cdef bint streamed = cached is None
    for k in range(stop - start):
        s = start + k
        where[0] = s
        ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
        rc = tokenize_line(ws, &ws.hlines, k, tok_mode, &ws.tok_chars,
                           &ws.tok_ends, &ws.tok_hash)
        if rc < 0:
            return rc
        if streamed:
            ws.rchars.size = ws.rends.size = ws.rhash.size = ws.rref.size = 0
            nref = ws.rseg.data[k + 1] - ws.rseg.data[k]
            rc = i64_push(&ws.rref, 0)
            for r in range(ws.rseg.data[k], ws.rseg.data[k + 1]):
                if rc < 0:
                    break
                rc = tokenize_line(ws, &ws.rlines, r, tok_mode,
                                   &ws.rchars, &ws.rends, &ws.rhash)
                if rc == 0:
                    rc = i64_push(&ws.rref, ws.rends.size)
            if rc < 0:
                return rc
            rc = segment_ids(ws, ws.rchars.data, ws.rends.data, ws.rhash.data,
                             ws.rref.data, 0, nref)
            if rc < 0:
                return rc
            rc = count_segment(&ws.table, ws.ids.data, ws.ids.size, ws.ref_ids.data,
                               ws.ref_off.data, 0, ws.ref_off.size - 1, max_order,
                               True, ws.stats.data)
        elif cached.frozen and cached.tables.slot_off[s + 1] > cached.tables.slot_off[s]:
            # the references' n-grams are tabled already: only the hypothesis's are looked up
            rc = frozen_segment(ws, cached, s, max_order)
        else:
            # the references are IDs already: only the hypothesis is looked up
            rc = cached_segment(ws, cached, s)
            if rc == 0:
                rc = segment_hypothesis_ids(ws, cached)
            if rc < 0:
                return rc
            rc = count_segment(&ws.table, ws.ids.data, ws.ids.size,
                               cached.ids.data + cached.ref_tok.data[cached.seg_ref.data[s]],
                               ws.ref_off.data, 0, ws.ref_off.size - 1, max_order,
                               True, ws.stats.data)
        if rc < 0:
            return rc
        add_row(ws.stats.data, width, totals, rows, k)
    return 0


cdef int count_grouped(Workspace ws, RefSet cached, Py_ssize_t start, Py_ssize_t stop,
                       int tok_mode, int max_order, int64_t* totals, int64_t* rows,
                       Py_ssize_t* where, Py_ssize_t group, Py_ssize_t* table_seg) noexcept nogil:
    """count_chunk for the k candidates of each segment (best-of-n): the segment's references are
    interned and their n-grams tabled once (in ws, remembered by *table_seg across chunks), and
    each candidate only looks its n-grams up there: the same statistics as count_segment, with
    the references' work done once per segment instead of once per candidate."""
    cdef Py_ssize_t width = 2 + 2 * max_order, k, s, seg, nref
    cdef int rc = 0
    for k in range(stop - start):
        s = start + k
        where[0] = s
        seg = s // group
        ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
        rc = tokenize_line(ws, &ws.hlines, k, tok_mode, &ws.tok_chars,
                           &ws.tok_ends, &ws.tok_hash)
        if rc < 0:
            return rc
        if seg != table_seg[0]:
            table_seg[0] = -1
            rc = cached_segment(ws, cached, seg)
            if rc < 0:
                return rc
            rc = reference_table(&ws.table,
                                 cached.ids.data + cached.ref_tok.data[cached.seg_ref.data[seg]],
                                 ws.ref_off.data, ws.ref_off.size - 1, max_order)
            if rc < 0:
                return rc
            table_seg[0] = seg
        rc = segment_hypothesis_ids(ws, cached)
        if rc < 0:
            return rc
        nref = ws.ref_off.size - 1
        rc = count_in_references(&ws.table, ws.ids.data, ws.ids.size, ws.ref_off.data, nref,
                                 max_order, ws.stats.data)
        if rc < 0:
            return rc
        add_row(ws.stats.data, width, totals, rows, k)
    return 0


cdef int count_in_pieces(Workspace ws, RefSet cached, Py_ssize_t start, Py_ssize_t stop,
                         int tok_mode, int max_order, int64_t* totals, int64_t* rows,
                         Py_ssize_t* where, Py_ssize_t group, Py_ssize_t* table_seg) noexcept nogil:
    """count_chunk (and count_grouped) for a chunk that holds a giant line: every segment's
    lines through long_ids (a short line is one piece), the same statistics."""
    cdef Py_ssize_t width = 2 + 2 * max_order, k, s, seg
    cdef int rc = 0
    for k in range(stop - start):
        s = start + k
        where[0] = s
        rc = long_ids(ws, cached, k, tok_mode)
        if rc < 0:
            return rc
        if cached is None:
            rc = segment_counts(&ws.table, ws.ids.data, ws.ids.size, ws.ref_ids.data,
                                ws.ref_off.data, 0, ws.ref_off.size - 1, max_order, True,
                                ws.stats.data)
        elif group > 1:
            seg = s // group
            if seg != table_seg[0]:
                table_seg[0] = -1
                rc = cached_segment(ws, cached, seg)
                if rc == 0:
                    rc = reference_table(
                        &ws.table, cached.ids.data + cached.ref_tok.data[cached.seg_ref.data[seg]],
                        ws.ref_off.data, ws.ref_off.size - 1, max_order)
                if rc < 0:
                    return rc
                table_seg[0] = seg
            unstamped_oov(ws)
            rc = reference_counts(&ws.table, ws.ids.data, ws.ids.size, ws.ref_off.data,
                                  ws.ref_off.size - 1, max_order, ws.stats.data)
        else:
            rc = cached_segment(ws, cached, s)
            if rc < 0:
                return rc
            unstamped_oov(ws)
            rc = segment_counts(&ws.table, ws.ids.data, ws.ids.size,
                                cached.ids.data + cached.ref_tok.data[cached.seg_ref.data[s]],
                                ws.ref_off.data, 0, ws.ref_off.size - 1, max_order, True,
                                ws.stats.data)
        if rc < 0:
            return rc
        add_row(ws.stats.data, width, totals, rows, k)
    return 0


cdef int run_stats(RefSet cached, segments, hyps, int tok_mode, bint lowercase, int max_order,
                   int64_t* totals, I64Buf* rows, Py_ssize_t group=1) except -1:
    """Statistics of every segment: summed into totals, and appended to rows unless NULL. The
    references come from `cached` when it is not None, else from `segments` (one sequence of
    reference strings per segment), tokenized a chunk at a time alongside the hypotheses."""
    cdef Py_ssize_t nseg = len(hyps), start = 0, stop, where = 0, table_seg = -1
    cdef Py_ssize_t width = 2 + 2 * max_order
    cdef int rc = 0
    cdef Workspace ws = acquire_workspace()
    try:
        if i64_reserve(&ws.stats, width) < 0:
            raise MemoryError()
        if rows != NULL and i64_reserve(rows, rows.size + nseg * width) < 0:
            raise MemoryError()
        memset(totals, 0, width * sizeof(int64_t))
        while start < nseg:
            stop = ws.chunk_end(hyps, start)
            load_chunk(ws, segments if cached is None else None, hyps, start, stop, lowercase)
            with nogil:
                rc = count_loaded(ws, cached, start, stop, tok_mode, max_order, totals,
                                  rows.data + rows.size if rows != NULL else NULL, &where,
                                  group, &table_seg)
            _check(rc, where)
            if rows != NULL:
                rows.size += (stop - start) * width
            PyErr_CheckSignals()
            start = stop
    finally:
        release_workspace(ws)
    return 0


# ---------------------------------------------------------------------------------------------
# the same on several threads: the chunks (exactly those run_stats makes, so the first error is
# the same one) shared out in contiguous runs, every thread with its own workspace

cdef class _TextJob(Job):
    """Chunks c..c1-1 of a batch, one per step: loaded with the GIL (held for the copy only),
    counted without it into their rows."""
    cdef Py_ssize_t c, c1, where
    cdef Py_ssize_t group, table_seg     # count_chunk's (the references tabled in self.ws)
    cdef const int64_t* bounds       # chunk c is segments bounds[c]..bounds[c + 1] - 1
    cdef RefSet cached
    cdef object segments, hyps, error
    cdef bint lowercase
    cdef int tok_mode, max_order
    cdef Workspace ws
    cdef int64_t* rows
    cdef I64Buf totals

    def __dealloc__(self):
        PyMem_RawFree(self.totals.data)

    cdef int load_guarded(self) noexcept with gil:
        try:
            load_chunk(self.ws, self.segments, self.hyps, self.bounds[self.c],
                       self.bounds[self.c + 1], self.lowercase)
            return 0
        except BaseException as err:
            if isinstance(err, KeyboardInterrupt):
                # seen by this (the main) thread's load: raise it again where run_jobs looks,
                # so every thread stops at its next step
                PyErr_SetInterrupt()
            self.error = err
            return -1

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t start = self.bounds[self.c], stop = self.bounds[self.c + 1]
        if self.load_guarded() < 0:
            self.rc = ERR_NOMEM        # any rc < 0 ends the job; self.error says what happened
            return True
        self.rc = count_loaded(self.ws, self.cached, start, stop, self.tok_mode, self.max_order,
                               self.totals.data, self.rows + start * (2 + 2 * self.max_order),
                               &self.where, self.group, &self.table_seg)
        if self.rc < 0:
            return True
        self.c += 1
        return self.c >= self.c1


cdef int run_stats_threads(RefSet cached, segments, hyps, int tok_mode, bint lowercase,
                           int max_order, int64_t* totals, I64Buf* rows, int n_threads,
                           Py_ssize_t group=1) except -1:
    """run_stats on up to n_threads threads (rows: every segment's row, in order)."""
    cdef Py_ssize_t nseg = len(hyps), width = 2 + 2 * max_order, start = 0, nchunks, k, s, c
    cdef int64_t total = 0, acc = 0, share, w
    cdef I64Buf bounds, chars, own_rows
    cdef Workspace ws
    cdef _TextJob job
    memset(&bounds, 0, sizeof(I64Buf))
    memset(&chars, 0, sizeof(I64Buf))
    memset(&own_rows, 0, sizeof(I64Buf))
    jobs = []
    try:
        if i64_push(&bounds, 0) < 0:
            raise MemoryError()
        ws = acquire_workspace()
        try:
            while start < nseg:
                start = ws.chunk_end(hyps, start)
                if i64_push(&bounds, start) < 0:
                    raise MemoryError()
        finally:
            release_workspace(ws)
        nchunks = bounds.size - 1
        if nchunks < 2 or n_threads < 2:
            return run_stats(cached, segments, hyps, tok_mode, lowercase, max_order, totals,
                             rows, group)
        if rows == NULL:            # corpus totals: the rows are summed per thread, then dropped
            rows = &own_rows
        if i64_reserve(rows, rows.size + nseg * width) < 0:
            raise MemoryError()
        # a chunk's work: its hypothesis characters (references scale with them) and its lines
        for k in range(nchunks):
            w = bounds.data[k + 1] - bounds.data[k]
            for s in range(bounds.data[k], bounds.data[k + 1]):
                line = hyps[s]
                if isinstance(line, str):
                    w += len(<str>line)
            if i64_push(&chars, w) < 0:
                raise MemoryError()
            total += w
        n_threads = min(n_threads, nchunks)
        c = 0
        for k in range(n_threads):
            job = _TextJob()
            jobs.append(job)
            job.c = c
            if k == n_threads - 1:
                c = nchunks
            else:
                share = total * (k + 1) // n_threads
                while c < nchunks - (n_threads - 1 - k) and (c == job.c or acc < share):
                    acc += chars.data[c]
                    c += 1
            job.c1 = c
            job.bounds = bounds.data
            job.group = group
            job.table_seg = -1
            job.cached = cached
            job.segments = segments if cached is None else None
            job.hyps = hyps
            job.lowercase = lowercase
            job.tok_mode = tok_mode
            job.max_order = max_order
            job.rows = rows.data + rows.size
            if i64_reserve(&job.totals, width) < 0:
                raise MemoryError()
            memset(job.totals.data, 0, width * sizeof(int64_t))
            job.ws = acquire_workspace()
            if i64_reserve(&job.ws.stats, width) < 0:
                raise MemoryError()
        run_jobs(jobs)
        for job in jobs:
            if job.error is not None:
                raise job.error
            _check(job.rc, job.where)
        rows.size += nseg * width
        memset(totals, 0, width * sizeof(int64_t))
        for job in jobs:
            for k in range(width):
                totals[k] += job.totals.data[k]
    finally:
        for job in jobs:
            if job.ws is not None:
                release_workspace(job.ws)
        PyMem_RawFree(bounds.data)
        PyMem_RawFree(chars.data)
        PyMem_RawFree(own_rows.data)
    return 0


cdef int check_args(str tokenize, max_order) except -1:
    """The tokenizer's mode, after the core's own bound on max_order (memory safety: the API
    checks its tighter limit first). max_order is checked as a Python int, before any C int
    could wrap."""
    cdef int mode = tokenizer_mode(tokenize)
    if isinstance(max_order, bool) or not isinstance(max_order, int) \
            or not 1 <= max_order <= CORE_MAX_ORDER:
        raise ValueError(f"max_order must be an int in 1..{CORE_MAX_ORDER}, not {max_order!r}")
    return mode


cdef object collect(RefSet cached, segments, hyps, str tokenize, bint lowercase, max_order,
                    int what, str smooth_method=None, smooth_value=None,
                    bint effective_order=True, int n_threads=1, Py_ssize_t group=1):
    """what: 0 corpus totals, 1 per-segment rows, 2 sentence scores, 3 the rows as one flat
    int64 array."""
    cdef int mode = check_args(tokenize, max_order)
    cdef int order = max_order
    cdef Py_ssize_t width = 2 + 2 * order
    cdef Py_ssize_t i
    cdef I64Buf rows
    cdef I64Buf tot
    cdef int64_t[::1] view
    if what == 2 and smooth_method not in SMOOTH_MODES:
        raise ValueError(f"unknown smooth_method {smooth_method!r}")
    memset(&rows, 0, sizeof(I64Buf))
    memset(&tot, 0, sizeof(I64Buf))
    if cached is not None and group == 1:
        cached.freeze()
    try:
        if i64_reserve(&tot, width) < 0:
            raise MemoryError()
        if n_threads > 1:
            run_stats_threads(cached, segments, hyps, mode, lowercase, order, tot.data,
                              &rows if what else NULL, n_threads, group)
        else:
            run_stats(cached, segments, hyps, mode, lowercase, order, tot.data,
                      &rows if what else NULL, group)
        if what == 0:
            return [tot.data[w] for w in range(width)]
        if what == 1:
            return [[rows.data[i + w] for w in range(width)] for i in range(0, rows.size, width)]
        if what == 3:
            flat = clone(array("q"), rows.size, False)
            if rows.size:
                memcpy((<array>flat).data.as_voidptr, rows.data, rows.size * sizeof(int64_t))
            return flat
        if rows.size == 0:
            return array("d")
        view = <int64_t[:rows.size]>rows.data
        return bleu_scores_from_stats(view, order, smooth_method, smooth_value,
                                      effective_order)
    finally:
        PyMem_RawFree(rows.data)
        PyMem_RawFree(tot.data)


def count_tokenized_periods(lines, Py_ssize_t limit):
    """How many strs of `lines` end with " ." (sacreBLEU's sign of pre-tokenized input), counted
    up to `limit`; anything else is skipped."""
    cdef Py_ssize_t count = 0, n
    for line in lines:
        if PyUnicode_Check(line):
            n = PyUnicode_GET_LENGTH(line)
            if (n >= 2 and PyUnicode_ReadChar(line, n - 1) == 0x2E
                    and PyUnicode_ReadChar(line, n - 2) == 0x20):
                count += 1
                if count >= limit:
                    break
    return count


def _check_lengths(hyps, segments):
    if len(hyps) != len(segments):
        raise ValueError(f"{len(hyps)} hypotheses for {len(segments)} reference segments")


def corpus_stats(hyps, refs, str tokenize="13a", bint lowercase=False, max_order=4):
    """[sys_len, ref_len, correct_1..N, total_1..N] summed over the corpus; refs holds one sequence
    of reference strings per segment (None entries already removed)."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 0)


def segment_stats(hyps, refs, str tokenize="13a", bint lowercase=False, max_order=4):
    """One [hyp_len, ref_len, correct_1..N, total_1..N] list per segment."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 1)


cdef int _threads(n_threads) except -1:
    """n_threads checked (as cybleu.ids checks it; 1 without importing numpy)."""
    if type(n_threads) is int and n_threads == 1:
        return 1
    from .ragged import check_threads
    return check_threads(n_threads)


def sentence_scores(hyps, refs, str tokenize="13a", bint lowercase=False, max_order=4,
                    str smooth_method="exp", smooth_value=None, bint effective_order=True,
                    n_threads=1):
    """Sentence BLEU of every hypothesis against its segment's references (array of doubles);
    the same for every n_threads (the segments are shared out among that many threads)."""
    _check_lengths(hyps, refs)
    return collect(None, refs, hyps, tokenize, lowercase, max_order, 2, smooth_method,
                   smooth_value, effective_order, _threads(n_threads))


# A set freezes its references' n-grams (RefSet.freeze) only when they surely fit in this many
# bytes: 28 for each n-gram a reference position may start, so a set of up to 600,000
# reference tokens at order 4.
cdef Py_ssize_t FROZEN_BUDGET = 64 << 20
# segments frozen between two looks at Ctrl-C
cdef Py_ssize_t FREEZE_STEP = 1 << 12
# RefSet.uses of a set that is never to be frozen (no count of scores reaches 2 from here)
cdef Py_ssize_t NEVER_FREEZE = -(1 << 62)


cdef class RefSet:
    """References of a corpus, tokenized once; scores any number of hypothesis streams.

    refs: one sequence of reference strings per segment (None entries already removed).
    reuse: the set will be scored more than once (a metric's own references): its reference
    n-grams are tabled (freeze) on the first score rather than the second.
    """

    def __cinit__(self):
        memset(&self.vocab, 0, sizeof(self.vocab))
        memset(&self.vchars, 0, sizeof(U32Buf))
        memset(&self.ids, 0, sizeof(U32Buf))
        memset(&self.ref_tok, 0, sizeof(U32Buf))
        memset(&self.seg_ref, 0, sizeof(I64Buf))
        memset(&self.tables, 0, sizeof(RefTables))

    def __dealloc__(self):
        free_ref_tables(&self.tables)
        PyMem_RawFree(self.vocab.slots)
        PyMem_RawFree(self.vocab.entries)
        PyMem_RawFree(self.vchars.data)
        PyMem_RawFree(self.ids.data)
        PyMem_RawFree(self.ref_tok.data)
        PyMem_RawFree(self.seg_ref.data)

    def __init__(self, refs, str tokenize="13a", bint lowercase=False, max_order=4,
                 bint reuse=False):
        cdef Py_ssize_t start, stop, k = 0
        cdef int rc = 0
        cdef Workspace ws
        self.tok_mode = check_args(tokenize, max_order)
        self.tokenize = tokenize
        self.lowercase = lowercase
        self.max_order = max_order
        self.uses = 1 if reuse else 0      # reuse: freeze on the first score, not the second
        flat = []
        if (i64_push(&self.seg_ref, 0) < 0 or u32_push(&self.ref_tok, 0) < 0
                or vocab_grow(&self.vocab, 1024) < 0):
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
                ws.hkeep = load_text_refs(flat[start:stop], start, lowercase, &ws.hlines)
                with nogil:
                    if ws.hlines.longest > piece_chars():
                        for k in range(stop - start):
                            rc = self.add_long_line(ws, k)
                            if rc < 0:
                                break
                    else:
                        for k in range(stop - start):
                            rc = self.add_line(ws, k)
                            if rc < 0:
                                break
                _check(rc, start + k)
                PyErr_CheckSignals()
                start = stop
        finally:
            release_workspace(ws)
        self.trim()

    cdef int add_long_line(self, Workspace ws, Py_ssize_t k) noexcept nogil:
        """add_line a piece at a time (see long_ids): for the chunks that hold a giant line."""
        cdef Py_ssize_t n = line_length(&ws.hlines, k), pos = 0
        while pos < n:
            ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
            if (tokenize_piece(ws, &ws.hlines, k, self.tok_mode, n, &pos, &ws.tok_chars,
                               &ws.tok_ends, &ws.tok_hash) < 0
                    or intern_tokens(&self.vocab, &self.vchars, &ws.tok_chars, &ws.tok_ends,
                                     &ws.tok_hash, &self.ids) < 0):
                return ERR_NOMEM
        return u32_push(&self.ref_tok, <uint32_t>self.ids.size)

    cdef int add_line(self, Workspace ws, Py_ssize_t k) noexcept nogil:
        """Reference line k of the loaded chunk tokenized, and its tokens interned into the set."""
        cdef Py_ssize_t t, begin = 0
        cdef int64_t e
        cdef int rc
        ws.tok_chars.size = ws.tok_ends.size = ws.tok_hash.size = 0
        rc = tokenize_line(ws, &ws.hlines, k, self.tok_mode, &ws.tok_chars, &ws.tok_ends,
                           &ws.tok_hash)
        if rc < 0:
            return rc
        if (self.ids.size + ws.tok_ends.size > <Py_ssize_t>0xFFFFFFFF
                or vocab_grow(&self.vocab, self.vocab.n + ws.tok_ends.size) < 0
                or u32_reserve(&self.ids, self.ids.size + ws.tok_ends.size) < 0):
            return ERR_NOMEM      # token offsets are 32 bits: 4 billion reference tokens at most
        for t in range(ws.tok_ends.size):
            e = vocab_add(&self.vocab, &self.vchars, ws.tok_chars.data + begin,
                          ws.tok_ends.data[t] - begin, <hash_t>ws.tok_hash.data[t])
            if e < 0:
                return ERR_NOMEM
            self.ids.data[self.ids.size] = <uint32_t>e
            self.ids.size += 1
            begin = ws.tok_ends.data[t]
        return u32_push(&self.ref_tok, <uint32_t>self.ids.size)

    cdef void trim(self):
        """The set lives as long as its metric: give back what the buffers grew past their size
        (a quarter of the set on average, since they grow by doubling)."""
        cdef const uint32_t* old = self.vchars.data
        cdef Py_ssize_t e
        shrink(<void**>&self.vchars.data, &self.vchars.cap, self.vchars.size, sizeof(uint32_t))
        if self.vchars.data != old:
            for e in range(self.vocab.n):
                self.vocab.entries[e].chars = self.vchars.data + (self.vocab.entries[e].chars - old)
        shrink(<void**>&self.vocab.entries, &self.vocab.ecap, self.vocab.n, sizeof(VocabEntry))
        shrink(<void**>&self.ids.data, &self.ids.cap, self.ids.size, sizeof(uint32_t))
        shrink(<void**>&self.ref_tok.data, &self.ref_tok.cap, self.ref_tok.size, sizeof(uint32_t))
        shrink(<void**>&self.seg_ref.data, &self.seg_ref.cap, self.seg_ref.size, sizeof(int64_t))

    cdef int freeze(self) except -1:
        """Table every segment's reference n-grams (frozen_segment reads them), once the set is
        scored a second time (the first, made with reuse), and when they fit FROZEN_BUDGET
        (else never): each later score then looks up only the hypotheses' n-grams, instead of
        counting every reference's again. Not on the first score of a set made for one (a
        sentence score), which would pay for the tables and never use them."""
        cdef Py_ssize_t nseg = self.seg_ref.size - 1, s = 0, stop, bound
        cdef uint32_t* cur = NULL
        cdef uint32_t* touched = NULL
        cdef RefTables* rt
        cdef void* p
        cdef int rc = 0
        cdef Workspace ws
        self.uses += 1
        if self.frozen or self.freezing or self.uses < 2:
            return 0
        # an n-gram and below eight slots for each n-gram a reference position may start
        bound = self.ids.size * self.max_order
        if bound > FROZEN_BUDGET // <Py_ssize_t>(sizeof(RefGram) + 8 * sizeof(uint16_t)):
            self.uses = NEVER_FREEZE     # the set is too large
            return 0
        self.freezing = True
        rt = &self.tables
        try:
            rt.gram_off = <int64_t*>PyMem_RawMalloc(<size_t>(nseg + 1) * sizeof(int64_t))
            rt.slot_off = <int64_t*>PyMem_RawMalloc(<size_t>(nseg + 1) * sizeof(int64_t))
            cur = <uint32_t*>PyMem_RawCalloc(FREEZE_POSSIBLE, sizeof(uint32_t))
            touched = <uint32_t*>PyMem_RawMalloc(FREEZE_POSSIBLE * sizeof(uint32_t))
            if (rt.gram_off == NULL or rt.slot_off == NULL or cur == NULL or touched == NULL):
                raise MemoryError()
            rt.gram_off[0] = rt.slot_off[0] = 0
            ws = acquire_workspace()
            try:
                while s < nseg:
                    stop = min(s + FREEZE_STEP, nseg)
                    with nogil:
                        while s < stop:
                            rc = cached_offsets(ws, self, s)
                            if rc == 0:
                                rc = freeze_segment(
                                    rt, self.ids.data + self.ref_tok.data[self.seg_ref.data[s]],
                                    ws.ref_off.data, ws.ref_off.size - 1, self.max_order, cur,
                                    touched)
                            if rc < 0:
                                break
                            s += 1
                    if rc < 0:
                        raise MemoryError()
                    PyErr_CheckSignals()
            finally:
                release_workspace(ws)
            shrink(<void**>&rt.grams, &rt.gcap, rt.gram_off[nseg], sizeof(RefGram))
            shrink(<void**>&rt.slots, &rt.scap, rt.slot_off[nseg], sizeof(uint16_t))
            self.frozen = True
        except BaseException:
            free_ref_tables(rt)         # a Ctrl-C or a failed allocation: scored as before
            raise
        finally:
            PyMem_RawFree(cur)
            PyMem_RawFree(touched)
            self.freezing = False
        return 0

    def no_tables(self):
        """Never build the n-gram tables for this set (its caller scores a slice of references
        against each system once and drops it: a burst of new memory per slice would cost more
        than the tables save)."""
        if not self.frozen:
            self.uses = NEVER_FREEZE

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

    def segment_stats_flat(self, hyps):
        """segment_stats(hyps) as one flat int64 array (2 + 2 * max_order values per segment,
        in order), without a Python list per segment."""
        return collect(self, None, self._hyps(hyps), self.tokenize, self.lowercase,
                       self.max_order, 3)

    def sentence_scores(self, hyps, str smooth_method="exp", smooth_value=None,
                        bint effective_order=True, n_threads=1):
        """Sentence BLEU of every hypothesis against its segment's references (array of doubles);
        the same for every n_threads."""
        return collect(self, None, self._hyps(hyps), self.tokenize, self.lowercase,
                       self.max_order, 2, smooth_method, smooth_value, effective_order,
                       _threads(n_threads))

    def grouped_sentence_scores(self, hyps, k, str smooth_method="exp", smooth_value=None,
                                bint effective_order=True, n_threads=1):
        """Sentence BLEU of k candidates per segment (hyps[s*k:s*k+k] for segment s), flat, in
        order: sentence_scores of each candidate against its segment's references, with each
        segment's references counted once for its k candidates."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive int, not {k!r}")
        if len(hyps) != k * (self.seg_ref.size - 1):
            raise ValueError(f"{len(hyps)} candidates for {self.seg_ref.size - 1} reference "
                             f"segments of {k}")
        return collect(self, None, hyps, self.tokenize, self.lowercase, self.max_order, 2,
                       smooth_method, smooth_value, effective_order, _threads(n_threads), k)

    def __reduce__(self):
        # the tokenized references travel as raw buffers: unpickling does not re-tokenize
        # (the vocabulary as its characters and each entry's length: rebuilt on loading)
        cdef U32Buf lengths
        cdef Py_ssize_t e
        memset(&lengths, 0, sizeof(U32Buf))
        try:
            if u32_reserve(&lengths, self.vocab.n) < 0:
                raise MemoryError()
            for e in range(self.vocab.n):
                lengths.data[e] = <uint32_t>self.vocab.entries[e].length
            lengths.size = self.vocab.n
            return (_restore_refset, (self.tokenize, self.lowercase, self.max_order,
                                      _u32_bytes(&self.vchars), _u32_bytes(&lengths),
                                      _u32_bytes(&self.ids), _u32_bytes(&self.ref_tok),
                                      _i64_bytes(&self.seg_ref)))
        finally:
            PyMem_RawFree(lengths.data)


cdef void shrink(void** data, Py_ssize_t* cap, Py_ssize_t size, size_t item) noexcept:
    """Reallocate a buffer to its size (kept as it is if that fails: it is only smaller)."""
    cdef void* p
    if size >= cap[0] or size == 0:
        return
    p = PyMem_RawRealloc(data[0], <size_t>size * item)
    if p != NULL:
        data[0] = p
        cap[0] = size


cdef bytes _u32_bytes(const U32Buf* b):
    return PyBytes_FromStringAndSize(<const char*>b.data, b.size * sizeof(uint32_t)) if b.size else b""


cdef bytes _i64_bytes(const I64Buf* b):
    return PyBytes_FromStringAndSize(<const char*>b.data, b.size * sizeof(int64_t)) if b.size else b""


cdef int _load_u32(U32Buf* b, bytes data) except -1:
    cdef Py_ssize_t n = len(data) // sizeof(uint32_t)
    if u32_reserve(b, n) < 0:
        raise MemoryError()
    if n:
        memcpy(b.data, <const char*>data, n * sizeof(uint32_t))
    b.size = n
    return 0


cdef int _load_i64(I64Buf* b, bytes data) except -1:
    cdef Py_ssize_t n = len(data) // sizeof(int64_t)
    if i64_reserve(b, n) < 0:
        raise MemoryError()
    if n:
        memcpy(b.data, <const char*>data, n * sizeof(int64_t))
    b.size = n
    return 0


def _restore_refset(str tokenize, bint lowercase, max_order, bytes vchars, bytes lengths,
                    bytes ids, bytes ref_tok, bytes seg_ref):
    """A pickled RefSet, with its vocabulary rebuilt and its offsets checked: the core reads
    through them without bounds checks, so a damaged pickle must fail here rather than read out
    of bounds."""
    cdef RefSet r = RefSet.__new__(RefSet)
    cdef U32Buf lens
    cdef Py_ssize_t i, k, at = 0, n
    cdef hash_t h
    cdef bint ok = True
    r.tok_mode = check_args(tokenize, max_order)
    r.tokenize = tokenize
    r.lowercase = lowercase
    r.max_order = max_order
    memset(&lens, 0, sizeof(U32Buf))
    try:
        _load_u32(&r.vchars, vchars)
        _load_u32(&lens, lengths)
        _load_u32(&r.ids, ids)
        _load_u32(&r.ref_tok, ref_tok)
        _load_i64(&r.seg_ref, seg_ref)
        if vocab_grow(&r.vocab, lens.size if lens.size else 1) < 0:
            raise MemoryError()
        for i in range(lens.size):
            n = lens.data[i]
            if n == 0 or at + n > r.vchars.size:
                ok = False
                break
            h = 0xcbf29ce484222325ULL
            for k in range(n):
                h = hash_step(h, r.vchars.data[at + k])
            # the entries must be distinct: a duplicate would get the first one's ID
            if vocab_insert(&r.vocab, r.vchars.data + at, n, h) != i:
                ok = False
                break
            at += n
    finally:
        PyMem_RawFree(lens.data)
    ok = (ok and at == r.vchars.size and r.ref_tok.size >= 1 and r.seg_ref.size >= 1
          and r.ref_tok.data[0] == 0 and r.seg_ref.data[0] == 0
          and r.seg_ref.data[r.seg_ref.size - 1] == r.ref_tok.size - 1
          and r.ref_tok.data[r.ref_tok.size - 1] == r.ids.size)
    for i in range(1, r.seg_ref.size):
        ok = ok and r.seg_ref.data[i - 1] <= r.seg_ref.data[i]
    for i in range(1, r.ref_tok.size):
        ok = ok and r.ref_tok.data[i - 1] <= r.ref_tok.data[i]
    for i in range(r.ids.size):
        ok = ok and r.ids.data[i] < <uint32_t>r.vocab.n
    if not ok:
        raise ValueError("cannot unpickle RefSet: its buffers are inconsistent (damaged data)")
    return r


cdef int _check(int rc, Py_ssize_t where) except -1:
    if rc == ERR_NOMEM:
        raise MemoryError()
    if rc == ERR_NO_REFS:
        raise TypeError(f"BLEU: segment {where} has no reference (all None) "
                        "but a non-empty hypothesis")
    return 0
