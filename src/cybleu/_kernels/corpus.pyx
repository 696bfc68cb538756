"""Text BLEU statistics (floor 2): tokenize (_tokenize) -> intern (_intern) -> count (_ngrams), a
chunk of hypotheses at a time with the GIL released, against references cached once (RefSet) or
streamed alongside; sentence scores through _bleu."""
from cpython.array cimport array, clone
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.exc cimport PyErr_CheckSignals, PyErr_SetInterrupt
from cpython.mem cimport PyMem_RawFree, PyMem_RawRealloc
from libc.stdint cimport uint32_t, int64_t
from libc.string cimport memcpy, memset

from .buffers cimport u32_reserve, i64_reserve, i64_push
from .intern cimport segment_ids, reference_ids, hypothesis_ids
from .ngrams cimport count_segment, count_in_references, reference_table
from .tokenize cimport tokenizer_mode, tokenize_line
from .defs cimport U32Buf, I64Buf, ERR_NOMEM, ERR_NO_REFS, CORE_MAX_ORDER
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


cdef int count_chunk(Workspace ws, RefSet cached, Py_ssize_t start, Py_ssize_t stop,
                     int tok_mode, int max_order, int64_t* totals, int64_t* rows,
                     Py_ssize_t* where, Py_ssize_t group, Py_ssize_t* table_seg) noexcept nogil:
    """Tokenize, intern and count the loaded segments start..stop-1: each one's statistics added
    to totals and, unless rows is NULL, written to rows (segment start first). On an error,
    returns it with *where the segment. With group > 1 (cached references only), hypotheses
    h*group..h*group+group-1 are candidates for reference segment h: see count_grouped."""
    cdef Py_ssize_t width = 2 + 2 * max_order, k, s, r, nref
    cdef int rc = 0
    cdef bint streamed = cached is None
    if group > 1:
        return count_grouped(ws, cached, start, stop, tok_mode, max_order, totals, rows, where,
                             group, table_seg)
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
        else:
            rc = segment_ids(ws, cached.chars.data, cached.tok_end.data,
                             cached.tok_hash.data, cached.ref_tok.data,
                             cached.seg_ref.data[s], cached.seg_ref.data[s + 1])
        if rc < 0:
            return rc
        rc = count_segment(&ws.table, ws.ids.data, ws.ids.size, ws.ref_ids.data,
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
            rc = reference_ids(ws, cached.chars.data, cached.tok_end.data, cached.tok_hash.data,
                               cached.ref_tok.data, cached.seg_ref.data[seg],
                               cached.seg_ref.data[seg + 1])
            if rc < 0:
                return rc
            rc = reference_table(&ws.table, ws.ref_ids.data, ws.ref_off.data,
                                 ws.ref_off.size - 1, max_order)
            if rc < 0:
                return rc
            table_seg[0] = seg
        rc = hypothesis_ids(ws)
        if rc < 0:
            return rc
        nref = ws.ref_off.size - 1
        rc = count_in_references(&ws.table, ws.ids.data, ws.ids.size, ws.ref_off.data, nref,
                                 max_order, ws.stats.data)
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
                rc = count_chunk(ws, cached, start, stop, tok_mode, max_order, totals,
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
        self.rc = count_chunk(self.ws, self.cached, start, stop, self.tok_mode, self.max_order,
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

    def __init__(self, refs, str tokenize="13a", bint lowercase=False, max_order=4):
        cdef Py_ssize_t start, stop, k = 0
        cdef int rc = 0
        cdef Workspace ws
        self.tok_mode = check_args(tokenize, max_order)
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
                ws.hkeep = load_text_refs(flat[start:stop], start, lowercase, &ws.hlines)
                with nogil:
                    for k in range(stop - start):
                        rc = tokenize_line(ws, &ws.hlines, k, self.tok_mode,
                                           &self.chars, &self.tok_end, &self.tok_hash)
                        if rc < 0:
                            break
                        rc = i64_push(&self.ref_tok, self.tok_end.size)
                        if rc < 0:
                            break
                _check(rc, start + k)
                PyErr_CheckSignals()
                start = stop
        finally:
            release_workspace(ws)
        # the set lives as long as its metric: give back what the buffers grew past their size
        # (a quarter of the set on average, since they grow by doubling)
        shrink(<void**>&self.chars.data, &self.chars.cap, self.chars.size, sizeof(uint32_t))
        shrink(<void**>&self.tok_end.data, &self.tok_end.cap, self.tok_end.size, sizeof(int64_t))
        shrink(<void**>&self.tok_hash.data, &self.tok_hash.cap, self.tok_hash.size,
               sizeof(int64_t))
        shrink(<void**>&self.ref_tok.data, &self.ref_tok.cap, self.ref_tok.size, sizeof(int64_t))
        shrink(<void**>&self.seg_ref.data, &self.seg_ref.cap, self.seg_ref.size, sizeof(int64_t))

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
        return (_restore_refset, (self.tokenize, self.lowercase, self.max_order,
                                  _u32_bytes(&self.chars), _i64_bytes(&self.tok_end),
                                  _i64_bytes(&self.tok_hash), _i64_bytes(&self.ref_tok),
                                  _i64_bytes(&self.seg_ref)))


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


def _restore_refset(str tokenize, bint lowercase, max_order, bytes chars, bytes tok_end,
                    bytes tok_hash, bytes ref_tok, bytes seg_ref):
    """A pickled RefSet, with its offsets checked: the core reads through them without bounds
    checks, so a damaged pickle must fail here rather than read out of bounds."""
    cdef RefSet r = RefSet.__new__(RefSet)
    cdef Py_ssize_t i
    r.tok_mode = check_args(tokenize, max_order)
    r.tokenize = tokenize
    r.lowercase = lowercase
    r.max_order = max_order
    _load_u32(&r.chars, chars)
    _load_i64(&r.tok_end, tok_end)
    _load_i64(&r.tok_hash, tok_hash)
    _load_i64(&r.ref_tok, ref_tok)
    _load_i64(&r.seg_ref, seg_ref)
    ok = (r.tok_hash.size == r.tok_end.size and r.ref_tok.size >= 1 and r.seg_ref.size >= 1
          and r.ref_tok.data[0] == 0 and r.seg_ref.data[0] == 0
          and r.seg_ref.data[r.seg_ref.size - 1] == r.ref_tok.size - 1
          and r.ref_tok.data[r.ref_tok.size - 1] == r.tok_end.size
          and (r.tok_end.size == 0 or r.tok_end.data[r.tok_end.size - 1] == r.chars.size))
    for i in range(1, r.seg_ref.size):
        ok = ok and r.seg_ref.data[i - 1] <= r.seg_ref.data[i]
    for i in range(1, r.ref_tok.size):
        ok = ok and r.ref_tok.data[i - 1] <= r.ref_tok.data[i]
    for i in range(r.tok_end.size):
        ok = ok and r.tok_end.data[i] > (r.tok_end.data[i - 1] if i else 0)
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
