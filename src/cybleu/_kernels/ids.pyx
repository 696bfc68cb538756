"""Token-ID batches (floor 2): no tokenizer, no interning; the IDs are the keys. Segment statistics
(several threads; from lists of rows, each thread reads its own rows), pairwise sentence BLEU
through the batch's n-gram index, and each sentence against all the others pooled."""
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport uint32_t, int32_t, int64_t

from .bleu cimport bleu_from_stats
from .buffers cimport i64_push
from .idrows cimport (ROW_OK, Trim, ensure_scalar_types, item_at, read_row, row_length,
                       set_trim)
from .ngrams cimport NgramIndex, count_any_segment, index_sentences
from .defs cimport ERR_NOMEM, ERR_NO_REFS
from .workspace cimport (Job, Workspace, acquire_workspace, release_workspace, raise_for,
                          run_jobs)

from .bleu import SMOOTH_MODES
from .idrows import read_batch, read_references
# numpy (and _ragged, which needs it) are imported on first use, so `import cybleu` stays cheap

cdef extern from "Python.h":
    bint PyList_CheckExact(object o)
    bint PyTuple_CheckExact(object o)

__all__ = ["ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]

# A step of a thread's share: about this many tokens (statistics) or pairs (pairwise) between two
# looks at Ctrl-C, a millisecond or so.
cdef Py_ssize_t STEP_WORK = 1 << 16


cdef class _RowsJob(Job):
    """One thread's share of ids_segment_stats: segments s..s1-1 into their rows of out."""
    cdef Py_ssize_t s, s1, failed
    cdef Workspace ws
    cdef const uint32_t* hyp
    cdef const int64_t* hoff
    cdef const uint32_t* ref
    cdef const int64_t* roff
    cdef const int64_t* soff
    cdef int max_order
    cdef int64_t* out

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t width = 2 + 2 * self.max_order, work = 0, s
        cdef int rc
        while self.s < self.s1 and work < STEP_WORK:
            s = self.s
            rc = count_any_segment(&self.ws.table, self.hyp + self.hoff[s],
                                   self.hoff[s + 1] - self.hoff[s], self.ref, self.roff,
                                   self.soff[s], self.soff[s + 1], self.max_order, False,
                                   self.out + s * width)
            if rc < 0:
                self.rc = rc
                self.failed = s
                return True
            work += (self.hoff[s + 1] - self.hoff[s]) + (self.roff[self.soff[s + 1]]
                                                          - self.roff[self.soff[s]]) + 1
            self.s += 1
        return self.s >= self.s1


cdef list split_work(const int64_t* work, Py_ssize_t nseg, Py_ssize_t nchunks):
    """[0, b_1, ..., nseg]: contiguous chunks of segments of about equal work, each at least one
    segment (nchunks <= nseg). The statistics do not depend on how the segments are split."""
    cdef Py_ssize_t s = 0, k, first
    cdef int64_t total = 0, acc = 0, share
    for k in range(nseg):
        total += work[k]
    bounds = [0]
    for k in range(nchunks - 1):
        share = total * (k + 1) // nchunks
        first = s
        while s < nseg - (nchunks - 1 - k) and (s == first or acc < share):
            acc += work[s]
            s += 1
        bounds.append(s)
    bounds.append(nseg)
    return bounds


def ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets,
                      max_order=4, n_threads=1):
    """Per-segment statistics of token-ID sequences: an int64 array of shape
    (n_segments, 2 + 2 * max_order), rows [hyp_len, ref_len, correct_1..N, total_1..N] as
    sacreBLEU computes them for the whitespace-joined IDs (ref_len: the closest reference length,
    ties to the shorter; -1 for a segment without references and an empty hypothesis).

    Hypothesis i is hyp_flat[hyp_offsets[i]:hyp_offsets[i + 1]]; reference r is
    ref_flat[ref_offsets[r]:ref_offsets[r + 1]]; segment i owns references
    seg_ref_offsets[i]..seg_ref_offsets[i + 1] - 1. IDs are exact uint32 values. The result is
    the same for every n_threads (the compiled core splits the segments across that many threads).
    """
    import numpy as np
    from .ragged import check_layout, no_reference_error
    cdef Py_ssize_t nseg, k
    cdef const uint32_t[::1] hyp, ref
    cdef const int64_t[::1] hoff, roff, soff, workv
    cdef int64_t[:, ::1] rows
    cdef _RowsJob job
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, n_threads = \
        check_layout(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order,
                     n_threads)
    nseg = hyp_offsets.shape[0] - 1
    out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
    if nseg == 0:
        return out
    hyp, ref, rows = hyp_flat, ref_flat, out
    hoff, roff, soff = hyp_offsets, ref_offsets, seg_ref_offsets
    # a segment's work: its hypothesis and reference IDs, and its row
    workv = np.diff(hyp_offsets) + np.diff(ref_offsets[seg_ref_offsets]) + 1
    bounds = split_work(&workv[0], nseg, min(n_threads, nseg))
    jobs = []
    try:
        for k in range(len(bounds) - 1):
            job = _RowsJob()
            jobs.append(job)
            job.s = bounds[k]
            job.s1 = bounds[k + 1]
            job.ws = acquire_workspace()
            job.hyp = &hyp[0] if hyp.shape[0] else NULL
            job.ref = &ref[0] if ref.shape[0] else NULL
            job.hoff = &hoff[0]
            job.roff = &roff[0]
            job.soff = &soff[0]
            job.max_order = max_order
            job.out = &rows[0, 0]
        run_jobs(jobs)
        for job in jobs:
            if job.rc == ERR_NO_REFS:
                raise no_reference_error(job.failed)
            raise_for(job.rc)
    finally:
        for job in jobs:
            if job.ws is not None:
                release_workspace(job.ws)
    return out


# ---------------------------------------------------------------------------------------------
# statistics of a batch as the API takes it (lists of rows read by the threads themselves)

cdef enum:
    # a row, or a segment without references, that the general path must see (it raises the
    # error, or reads the row the way only numpy does)
    JOB_DEFERRED = -100


cdef class _ListJob(Job):
    """One thread's share of ids_batch_stats on lists of rows: segments s..s1-1, a step at a time
    read (with the GIL, for the reading only) into its workspace, then counted into their rows of
    out without it. So with several threads, one reads while the others count."""
    cdef Py_ssize_t s, s1
    cdef object hyps, refs, error
    cdef bint nested
    cdef Trim trim
    cdef Workspace ws
    cdef int max_order
    cdef int64_t* out

    cdef Py_ssize_t load(self) except -1:
        """Read segments s.. (about STEP_WORK IDs, at least one segment): hypothesis IDs into
        ws.ids (segment s + k at ws.line_off[k]), references into ws.ref_ids (reference r at
        ws.ref_off[r], segment s + k owning references ws.rseg[k]..ws.rseg[k + 1] - 1). Returns
        where the segments read end; sets rc to JOB_DEFERRED at a row it leaves to the general
        path."""
        cdef Workspace ws = self.ws
        cdef Py_ssize_t t = self.s, k
        ws.ids.size = ws.ref_ids.size = 0
        ws.line_off.size = ws.ref_off.size = ws.rseg.size = 0
        if i64_push(&ws.line_off, 0) < 0 or i64_push(&ws.ref_off, 0) < 0 \
                or i64_push(&ws.rseg, 0) < 0:
            raise MemoryError()
        while t < self.s1 and (t == self.s or ws.ids.size + ws.ref_ids.size < STEP_WORK):
            if read_row(item_at(self.hyps, t), &self.trim, &ws.ids) != ROW_OK:
                self.rc = JOB_DEFERRED
                return t
            if i64_push(&ws.line_off, ws.ids.size) < 0:
                raise MemoryError()
            seg = item_at(self.refs, t)
            if self.nested:
                if not (PyList_CheckExact(seg) or PyTuple_CheckExact(seg)):
                    self.rc = JOB_DEFERRED
                    return t
                for k in range(len(seg)):
                    if read_row(item_at(seg, k), &self.trim, &ws.ref_ids) != ROW_OK:
                        self.rc = JOB_DEFERRED
                        return t
                    if i64_push(&ws.ref_off, ws.ref_ids.size) < 0:
                        raise MemoryError()
            else:
                if read_row(seg, &self.trim, &ws.ref_ids) != ROW_OK:
                    self.rc = JOB_DEFERRED
                    return t
                if i64_push(&ws.ref_off, ws.ref_ids.size) < 0:
                    raise MemoryError()
            if i64_push(&ws.rseg, ws.ref_off.size - 1) < 0:
                raise MemoryError()
            t += 1
        return t

    cdef Py_ssize_t load_guarded(self) noexcept with gil:
        try:
            return self.load()
        except BaseException as err:      # MemoryError; a KeyboardInterrupt raised by code the
            self.error = err              # reading ran: raised once the threads are back
            self.rc = ERR_NOMEM
            return self.s

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t width = 2 + 2 * self.max_order, stop, k
        cdef int rc
        stop = self.load_guarded()
        if self.rc < 0:
            return True
        for k in range(stop - self.s):
            rc = count_any_segment(&self.ws.table, self.ws.ids.data + self.ws.line_off.data[k],
                                   self.ws.line_off.data[k + 1] - self.ws.line_off.data[k],
                                   self.ws.ref_ids.data, self.ws.ref_off.data,
                                   self.ws.rseg.data[k], self.ws.rseg.data[k + 1], self.max_order,
                                   False, self.out + (self.s + k) * width)
            if rc < 0:
                self.rc = JOB_DEFERRED if rc == ERR_NO_REFS else rc
                return True
        self.s = stop
        return self.s >= self.s1


cdef object list_stats(hyps, refs, bint nested, int max_order, pad_id, eos_id, int n_threads):
    """ids_batch_stats of a list of hypothesis rows and a list of reference rows (or of lists of
    them, `nested`), read and counted by the threads; None for a batch the general path must
    read (a row of another kind, a bad row, a segment without references)."""
    import numpy as np
    from .ragged import threads_for
    cdef Py_ssize_t nseg = len(hyps), s, k, n, m
    cdef int64_t total = 0
    cdef int64_t[::1] workv
    cdef int64_t[:, ::1] rows
    cdef _ListJob job
    out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
    if nseg == 0:
        return out
    # each segment's work from its rows' lengths before trimming (only the split depends on it)
    work = np.empty(nseg, dtype=np.int64)
    workv = work
    for s in range(nseg):
        n = row_length(item_at(hyps, s))
        seg = item_at(refs, s)
        if nested:
            if n < 0 or not (PyList_CheckExact(seg) or PyTuple_CheckExact(seg)):
                return None
            for row in seg:
                m = row_length(row)
                if m < 0:
                    return None
                n += m
        else:
            m = row_length(seg)
            if n < 0 or m < 0:
                return None
            n += m
        workv[s] = n * max_order + 1
        total += workv[s]
    bounds = split_work(&workv[0], nseg, min(threads_for(total, n_threads), nseg))
    ensure_scalar_types()
    rows = out
    jobs = []
    try:
        for k in range(len(bounds) - 1):
            job = _ListJob()
            jobs.append(job)
            job.s = bounds[k]
            job.s1 = bounds[k + 1]
            job.hyps = hyps
            job.refs = refs
            job.nested = nested
            set_trim(&job.trim, pad_id, eos_id)
            job.ws = acquire_workspace()
            job.max_order = max_order
            job.out = &rows[0, 0]
        run_jobs(jobs)
        for job in jobs:
            if job.error is not None:
                raise job.error
            if job.rc == JOB_DEFERRED:
                return None
            raise_for(job.rc)
    finally:
        for job in jobs:
            if job.ws is not None:
                release_workspace(job.ws)
    return out


def ids_batch_stats(hyps, refs, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """Per-segment statistics (as ids_segment_stats gives them) of a batch in any form
    `cybleu.ids` takes: hypotheses as read_batch reads them, references as read_references does,
    pad_id/eos_id trimmed; the errors are theirs. Lists of rows are read by the threads that count
    them, a step at a time, so with several threads the reading is split too."""
    import numpy as np
    from .idrows_py import is_nested_refs
    from .._scoring.bleu import check_max_order
    from .ragged import check_threads, check_token_arg, no_reference_error, threads_for
    max_order = check_max_order(max_order)
    n_threads = check_threads(n_threads)
    pad_id, eos_id = check_token_arg(pad_id, "pad_id"), check_token_arg(eos_id, "eos_id")
    if (PyList_CheckExact(hyps) or PyTuple_CheckExact(hyps)) \
            and (PyList_CheckExact(refs) or PyTuple_CheckExact(refs)) and len(hyps) == len(refs):
        out = list_stats(hyps, refs, is_nested_refs(refs), max_order, pad_id, eos_id, n_threads)
        if out is not None:
            return out
    hyp_flat, hyp_offsets = read_batch(hyps, "hyps", pad_id, eos_id)
    ref_flat, ref_offsets, groups = read_references(refs, hyp_offsets.size - 1, pad_id, eos_id)
    missing = np.flatnonzero((np.diff(hyp_offsets) > 0) & (np.diff(groups) == 0))
    if missing.size:
        raise no_reference_error(int(missing[0]))
    # a segment's work: its n-grams (hypothesis and references) and its row
    work = int(((np.diff(hyp_offsets) + np.diff(ref_offsets[groups])) * max_order + 1).sum())
    return ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, max_order,
                             threads_for(work, n_threads))


# ---------------------------------------------------------------------------------------------
# pairwise: each hypothesis against each reference alone

cdef int pair_columns(NgramIndex ix, const int64_t* off, Py_ssize_t nhyp, Py_ssize_t j0,
                      Py_ssize_t j1, Py_ssize_t ncol, int max_order, int method, double sv,
                      bint effective_order, bint same, int32_t* refcnt,
                      double* out) noexcept nogil:
    """out[i, j] for every hypothesis i and the references j0..j1-1 (sentences nhyp + j);
    refcnt: one zeroed count per n-gram ID of the index, left zeroed. same: the references are
    the hypotheses (sentences j): a pair's clipped matches, the sum of min(count in i, count in
    j), are the same both ways, so column j sums rows i <= j once and writes out[i, j] and
    out[j, i]."""
    cdef int64_t[514] st
    cdef int64_t[514] mirror
    cdef double[256] logs
    cdef Py_ssize_t i, j, k, r, hlen, rlen, iend
    cdef int n
    cdef int32_t c, rc
    for j in range(j0, j1):
        r = j if same else nhyp + j
        for k in range(ix.goff[r], ix.goff[r + 1]):
            refcnt[ix.gid[k]] = ix.gcnt[k]
        rlen = off[r + 1] - off[r]
        st[1] = rlen
        iend = j + 1 if same else nhyp
        for i in range(iend):
            hlen = off[i + 1] - off[i]
            st[0] = hlen
            for n in range(max_order):
                st[2 + n] = 0
                st[2 + max_order + n] = hlen - n if hlen > n else 0
            for k in range(ix.goff[i], ix.goff[i + 1]):
                rc = refcnt[ix.gid[k]]
                if rc:
                    c = ix.gcnt[k]
                    st[2 + ix.gord[k]] += c if c < rc else rc
            out[i * ncol + j] = bleu_from_stats(st, max_order, method, sv, effective_order, logs)
            if same and i != j:
                mirror[0] = rlen
                mirror[1] = hlen
                for n in range(max_order):
                    mirror[2 + n] = st[2 + n]
                    mirror[2 + max_order + n] = rlen - n if rlen > n else 0
                out[j * ncol + i] = bleu_from_stats(mirror, max_order, method, sv,
                                                    effective_order, logs)
        for k in range(ix.goff[r], ix.goff[r + 1]):
            refcnt[ix.gid[k]] = 0
    return 0


cdef class _PairJob(Job):
    """One thread's share of ids_pairwise_scores: the reference columns j..j1-1."""
    cdef Py_ssize_t j, j1, step_cols, nhyp, ncol
    cdef NgramIndex ix
    cdef const int64_t* off
    cdef int max_order, method
    cdef double sv
    cdef bint effective_order, same
    cdef int32_t* refcnt
    cdef double* out

    def __dealloc__(self):
        PyMem_RawFree(self.refcnt)

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t stop = self.j + self.step_cols
        if stop > self.j1:
            stop = self.j1
        pair_columns(self.ix, self.off, self.nhyp, self.j, stop, self.ncol, self.max_order,
                     self.method, self.sv, self.effective_order, self.same, self.refcnt,
                     self.out)
        self.j = stop
        return self.j >= self.j1


def ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order=4,
                        smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
    """float64 array (n_hyps, n_refs): sentence BLEU of each hypothesis against each reference
    alone, equal to bleu_scores_from_stats of ids_segment_stats for that single pair. Every
    distinct n-gram of the batch is interned once; the references are split across n_threads."""
    import numpy as np
    from .ragged import check_layout, check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t nhyp, nref, k, nchunks
    cdef const int64_t[::1] offv
    cdef double[:, ::1] outv
    cdef _PairJob job
    cdef NgramIndex ix
    cdef bint same = ref_flat is hyp_flat and ref_offsets is hyp_offsets
    sv = check_scoring(max_order, smooth_method, smooth_value, n_threads)
    hyp_flat, hyp_offsets = check_sentences(hyp_flat, hyp_offsets, "hyp")
    if same:
        ref_flat, ref_offsets = hyp_flat, hyp_offsets
    else:
        ref_flat, ref_offsets = check_sentences(ref_flat, ref_offsets, "ref")
    nhyp = hyp_offsets.shape[0] - 1
    nref = ref_offsets.shape[0] - 1
    out = np.zeros((nhyp, nref), dtype=np.float64)
    if nhyp == 0 or nref == 0:
        return out
    if same:
        # the sentences against each other: each unordered pair's matches summed once
        flat, off = hyp_flat, hyp_offsets
    else:
        # hypotheses then references, as one set of sentences
        flat = np.concatenate([hyp_flat, ref_flat])
        off = np.concatenate([hyp_offsets, ref_offsets[1:] + hyp_offsets[nhyp]])
    ix = index_sentences(flat, off, max_order)
    offv, outv = off, out
    nchunks = min(n_threads, nref)
    jobs = []
    for k in range(nchunks):
        job = _PairJob()
        if same:
            # column j sums j + 1 rows: equal shares of the triangle, not of the columns
            job.j = <Py_ssize_t>(nref * (k / <double>nchunks) ** 0.5) if k else 0
            job.j1 = (<Py_ssize_t>(nref * ((k + 1) / <double>nchunks) ** 0.5)
                      if k + 1 < nchunks else nref)
        else:
            job.j = nref * k // nchunks
            job.j1 = nref * (k + 1) // nchunks
        job.same = same
        job.step_cols = max(1, STEP_WORK // nhyp)
        job.nhyp = nhyp
        job.ncol = nref
        job.ix = ix
        job.off = &offv[0]
        job.max_order = max_order
        job.method = SMOOTH_MODES[smooth_method]
        job.sv = sv
        job.effective_order = bool(effective_order)
        job.out = &outv[0, 0]
        job.refcnt = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
        if job.refcnt == NULL:
            raise MemoryError()
        jobs.append(job)
    run_jobs(jobs)
    return out


# ---------------------------------------------------------------------------------------------
# each sentence against all the others pooled

cdef Py_ssize_t pool_counts(NgramIndex ix, Py_ssize_t s, Py_ssize_t n, int32_t* top1,
                            int32_t* top2, int64_t* owner) noexcept nogil:
    """The two largest counts of every n-gram and the owner of the largest, over sentences s..
    (about STEP_WORK pairs of them, at least one); returns where it stopped."""
    cdef Py_ssize_t k, e, first = s
    cdef int32_t c
    while s < n and (s == first or ix.goff[s] - ix.goff[first] < STEP_WORK):
        for k in range(ix.goff[s], ix.goff[s + 1]):
            e = ix.gid[k]
            c = ix.gcnt[k]
            if c > top1[e]:
                top2[e] = top1[e]
                top1[e] = c
                owner[e] = s
            elif c > top2[e]:
                top2[e] = c
        s += 1
    return s


cdef Py_ssize_t pool_rows(NgramIndex ix, const int64_t* off, const int64_t* lens, Py_ssize_t s,
                          Py_ssize_t n, int order, const int32_t* top1, const int32_t* top2,
                          const int64_t* owner, int64_t* rows) noexcept nogil:
    """The statistics rows of sentences s.. against all the others (about STEP_WORK pairs, at
    least one sentence); returns where it stopped."""
    cdef Py_ssize_t k, e, p, lo, hi, mid, first = s, width = 2 + 2 * order
    cdef int64_t h, best, cand
    cdef int64_t* row
    cdef int32_t c, m
    while s < n and (s == first or ix.goff[s] - ix.goff[first] < STEP_WORK):
        row = rows + s * width
        h = off[s + 1] - off[s]
        row[0] = h
        for k in range(order):
            row[2 + order + k] = h - k if h > k else 0
        for k in range(ix.goff[s], ix.goff[s + 1]):
            e = ix.gid[k]
            m = top2[e] if owner[e] == s else top1[e]
            c = ix.gcnt[k]
            row[2 + ix.gord[k]] += c if c < m else m
        # closest length among the others, ties to the shorter: drop one copy of h
        lo = 0
        hi = n
        while lo < hi:
            mid = (lo + hi) // 2
            if lens[mid] < h:
                lo = mid + 1
            else:
                hi = mid
        p = lo                      # lens[p] == h is this sentence's own length
        if p + 1 < n and lens[p + 1] == h:
            best = h
        else:
            best = -1
            if p > 0:
                best = lens[p - 1]
            if p + 1 < n:
                cand = lens[p + 1]
                if best == -1 or cand - h < h - best:
                    best = cand
        row[1] = best
        s += 1
    return s


def ids_self_stats(flat, offsets, max_order=4, n_threads=1):
    """int64 array (n, 2 + 2 * max_order): the statistics of each sentence against all the
    others pooled as its references (as ids_segment_stats with every other sentence listed as a
    reference). The maximum count of an n-gram over the others comes from its two largest
    counts and the owner of the largest; the closest length from the sorted lengths."""
    import numpy as np
    from .ragged import check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t n, s
    cdef const int64_t[::1] off, lens
    cdef int64_t[:, ::1] rows
    cdef int32_t* top1
    cdef int32_t* top2
    cdef int64_t* owner
    cdef NgramIndex ix
    cdef int order
    check_scoring(max_order, "none", None, n_threads)
    order = max_order
    flat, offsets = check_sentences(flat, offsets, "")
    n = offsets.shape[0] - 1
    out = np.zeros((n, 2 + 2 * max_order), dtype=np.int64)
    if n == 0:
        return out
    lengths = np.diff(offsets)
    if n == 1:
        if lengths[0]:
            raise no_reference_error(0)
        out[0, 1] = -1
        return out
    ix = index_sentences(flat, offsets, max_order)
    off = offsets
    lens = np.sort(lengths)
    rows = out
    top1 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    top2 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    owner = <int64_t*>PyMem_RawMalloc(<size_t>(ix.nids + 1) * sizeof(int64_t))
    try:
        if top1 == NULL or top2 == NULL or owner == NULL:
            raise MemoryError()
        # two passes over the sentences, a step at a time with Ctrl-C checked in between
        s = 0
        while s < n:
            with nogil:
                s = pool_counts(ix, s, n, top1, top2, owner)
            PyErr_CheckSignals()
        s = 0
        while s < n:
            with nogil:
                s = pool_rows(ix, &off[0], &lens[0], s, n, order, top1, top2, owner,
                              &rows[0, 0])
            PyErr_CheckSignals()
    finally:
        PyMem_RawFree(top1)
        PyMem_RawFree(top2)
        PyMem_RawFree(owner)
    return out
