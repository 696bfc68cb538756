"""Token-ID batches (floor 2): no tokenizer, no interning; the IDs are the keys. Segment statistics
(several threads), pairwise sentence BLEU through the batch's n-gram index, and each sentence
against all the others pooled."""
from cpython.mem cimport PyMem_RawCalloc, PyMem_RawFree, PyMem_RawMalloc
from libc.stdint cimport uint32_t, int32_t, int64_t

from ._bleu cimport bleu_from_stats
from ._ngrams cimport NgramIndex, count_segment, index_sentences
from ._types cimport ERR_NOMEM, ERR_NO_REFS
from ._workspace cimport (Job, Workspace, acquire_workspace, release_workspace, raise_for,
                          run_jobs)

from ._bleu import SMOOTH_MODES
# numpy (and _ragged, which needs it) are imported on first use, so `import cybleu` stays cheap

__all__ = ["ids_segment_stats", "ids_pairwise_scores", "ids_self_stats"]

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
            rc = count_segment(&self.ws.table, self.hyp + self.hoff[s], self.hoff[s + 1] - self.hoff[s],
                               self.ref, self.roff, self.soff[s], self.soff[s + 1], self.max_order,
                               False, self.out + s * width)
            if rc < 0:
                self.rc = rc
                self.failed = s
                return True
            work += (self.hoff[s + 1] - self.hoff[s]) + (self.roff[self.soff[s + 1]]
                                                          - self.roff[self.soff[s]]) + 1
            self.s += 1
        return self.s >= self.s1


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
    from ._ragged import check_layout, check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t nseg, k, s, nchunks
    cdef const uint32_t[::1] hyp, ref
    cdef const int64_t[::1] hoff, roff, soff
    cdef int64_t[:, ::1] rows
    cdef int64_t work, share, acc
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
    # contiguous chunks of about equal work (hypothesis + reference tokens); the rows do not
    # depend on how the segments are split
    nchunks = min(n_threads, nseg)
    work = (hoff[nseg] - hoff[0]) + (roff[soff[nseg]] - roff[soff[0]]) + nseg
    jobs = []
    s = 0
    acc = 0
    try:
        for k in range(nchunks):
            job = _RowsJob()
            jobs.append(job)
            job.s = s
            if k == nchunks - 1:
                s = nseg
            else:
                share = work * (k + 1) // nchunks
                while s < nseg - (nchunks - 1 - k) and (s == job.s or acc < share):
                    acc += (hoff[s + 1] - hoff[s]) + (roff[soff[s + 1]] - roff[soff[s]]) + 1
                    s += 1
            job.s1 = s
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
# pairwise: each hypothesis against each reference alone

cdef int pair_columns(NgramIndex ix, const int64_t* off, Py_ssize_t nhyp, Py_ssize_t j0,
                      Py_ssize_t j1, Py_ssize_t ncol, int max_order, int method, double sv,
                      bint effective_order, int32_t* refcnt, double* out) noexcept nogil:
    """out[i, j] for every hypothesis i and the references j0..j1-1 (sentences nhyp + j);
    refcnt: one zeroed count per n-gram ID of the index, left zeroed."""
    cdef int64_t[514] st
    cdef double[256] logs
    cdef Py_ssize_t i, j, k, r, hlen
    cdef int n
    cdef int32_t c, rc
    for j in range(j0, j1):
        r = nhyp + j
        for k in range(ix.goff[r], ix.goff[r + 1]):
            refcnt[ix.gid[k]] = ix.gcnt[k]
        st[1] = off[r + 1] - off[r]
        for i in range(nhyp):
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
    cdef bint effective_order
    cdef int32_t* refcnt
    cdef double* out

    def __dealloc__(self):
        PyMem_RawFree(self.refcnt)

    cdef bint step(self) noexcept nogil:
        cdef Py_ssize_t stop = self.j + self.step_cols
        if stop > self.j1:
            stop = self.j1
        pair_columns(self.ix, self.off, self.nhyp, self.j, stop, self.ncol, self.max_order,
                     self.method, self.sv, self.effective_order, self.refcnt, self.out)
        self.j = stop
        return self.j >= self.j1


def ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order=4,
                        smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
    """float64 array (n_hyps, n_refs): sentence BLEU of each hypothesis against each reference
    alone, equal to bleu_scores_from_stats of ids_segment_stats for that single pair. Every
    distinct n-gram of the batch is interned once; the references are split across n_threads."""
    import numpy as np
    from ._ragged import check_layout, check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t nhyp, nref, k, nchunks
    cdef const int64_t[::1] offv
    cdef double[:, ::1] outv
    cdef _PairJob job
    cdef NgramIndex ix
    sv = check_scoring(max_order, smooth_method, smooth_value, n_threads)
    hyp_flat, hyp_offsets = check_sentences(hyp_flat, hyp_offsets, "hyp")
    ref_flat, ref_offsets = check_sentences(ref_flat, ref_offsets, "ref")
    nhyp = hyp_offsets.shape[0] - 1
    nref = ref_offsets.shape[0] - 1
    out = np.zeros((nhyp, nref), dtype=np.float64)
    if nhyp == 0 or nref == 0:
        return out
    # hypotheses then references, as one set of sentences
    flat = np.concatenate([hyp_flat, ref_flat])
    off = np.concatenate([hyp_offsets, ref_offsets[1:] + hyp_offsets[nhyp]])
    ix = index_sentences(flat, off, max_order)
    offv, outv = off, out
    nchunks = min(n_threads, nref)
    jobs = []
    for k in range(nchunks):
        job = _PairJob()
        job.j = nref * k // nchunks
        job.j1 = nref * (k + 1) // nchunks
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

def ids_self_stats(flat, offsets, max_order=4, n_threads=1):
    """int64 array (n, 2 + 2 * max_order): the statistics of each sentence against all the
    others pooled as its references (as ids_segment_stats with every other sentence listed as a
    reference). The maximum count of an n-gram over the others comes from its two largest
    counts and the owner of the largest; the closest length from the sorted lengths."""
    import numpy as np
    from ._ragged import check_layout, check_scoring, check_sentences, no_reference_error
    cdef Py_ssize_t n, s, k, e, p, lo, hi, mid
    cdef int64_t h, best, cand, width
    cdef int32_t c, m
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
    width = 2 + 2 * max_order
    top1 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    top2 = <int32_t*>PyMem_RawCalloc(<size_t>(ix.nids + 1), sizeof(int32_t))
    owner = <int64_t*>PyMem_RawMalloc(<size_t>(ix.nids + 1) * sizeof(int64_t))
    try:
        if top1 == NULL or top2 == NULL or owner == NULL:
            raise MemoryError()
        with nogil:
            for s in range(n):
                for k in range(ix.goff[s], ix.goff[s + 1]):
                    e = ix.gid[k]
                    c = ix.gcnt[k]
                    if c > top1[e]:
                        top2[e] = top1[e]
                        top1[e] = c
                        owner[e] = s
                    elif c > top2[e]:
                        top2[e] = c
            for s in range(n):
                h = off[s + 1] - off[s]
                rows[s, 0] = h
                for k in range(order):
                    rows[s, 2 + order + k] = h - k if h > k else 0
                for k in range(ix.goff[s], ix.goff[s + 1]):
                    e = ix.gid[k]
                    m = top2[e] if owner[e] == s else top1[e]
                    c = ix.gcnt[k]
                    rows[s, 2 + ix.gord[k]] += c if c < m else m
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
                rows[s, 1] = best
    finally:
        PyMem_RawFree(top1)
        PyMem_RawFree(top2)
        PyMem_RawFree(owner)
    return out
