"""Per-call scratch space, loading lines as code points, and running a batch on several threads
with Ctrl-C honoured between bounded steps."""
from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_RawFree
from libc.stdint cimport int64_t, uint32_t

from .buffers cimport u32_reserve, i64_push, refs_push
from .defs cimport ERR_NOMEM, TextRef, VocabEntry, VocabSlot, NgramEntry, NgramSlot

cdef extern from "Python.h":
    Py_UCS4* PyUnicode_AsUCS4(object u, Py_UCS4* buffer, Py_ssize_t buflen, int copy_null) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    bint PyUnicode_Check(object o)
    void* PyUnicode_DATA(object o)
    int PyUnicode_KIND(object o)

cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #define CYBLEU_UNICODE_READY(o) PyUnicode_READY(o)
    #else
    #define CYBLEU_UNICODE_READY(o) 0
    #endif
    """
    int CYBLEU_UNICODE_READY(object o) except -1

# Strings are copied to code points in chunks of about this many, so that the GIL is held only
# for the copy, Ctrl-C is seen between chunks, and memory stays bounded whatever the corpus size.
cdef Py_ssize_t CHUNK_CHARS = 1 << 16
cdef Py_ssize_t CHUNK_LINES = 512


cdef class Workspace:

    def __dealloc__(self):
        PyMem_RawFree(self.text.data)
        PyMem_RawFree(self.hlines.data)
        PyMem_RawFree(self.rlines.data)
        PyMem_RawFree(self.wide.data)
        PyMem_RawFree(self.runf.data)
        PyMem_RawFree(self.mark.data)
        PyMem_RawFree(self.seen)
        PyMem_RawFree(self.a.data)
        PyMem_RawFree(self.b.data)
        PyMem_RawFree(self.tok_chars.data)
        PyMem_RawFree(self.rchars.data)
        PyMem_RawFree(self.ids.data)
        PyMem_RawFree(self.ref_ids.data)
        PyMem_RawFree(self.line_off.data)
        PyMem_RawFree(self.rseg.data)
        PyMem_RawFree(self.tok_ends.data)
        PyMem_RawFree(self.tok_hash.data)
        PyMem_RawFree(self.rends.data)
        PyMem_RawFree(self.rhash.data)
        PyMem_RawFree(self.rref.data)
        PyMem_RawFree(self.ref_off.data)
        PyMem_RawFree(self.stats.data)
        PyMem_RawFree(self.vocab.slots)
        PyMem_RawFree(self.vocab.entries)
        PyMem_RawFree(self.table.slots)
        PyMem_RawFree(self.table.entries)
        PyMem_RawFree(self.table.touched)

    cdef size_t nbytes(self):
        return (4 * (self.text.cap + self.wide.cap + self.runf.cap + self.mark.cap + 2 * self.seen_cap
                     + self.a.cap
                     + self.b.cap
                     + self.tok_chars.cap + self.rchars.cap + self.ids.cap + self.ref_ids.cap)
                + sizeof(TextRef) * (self.hlines.cap + self.rlines.cap)
                + 8 * (self.line_off.cap + self.rseg.cap + self.tok_ends.cap
                       + self.tok_hash.cap + self.rends.cap + self.rhash.cap + self.rref.cap
                       + self.ref_off.cap + self.stats.cap)
                + self.vocab.ecap * sizeof(VocabEntry) + (self.vocab.mask + 1) * sizeof(VocabSlot)
                + self.table.ecap * sizeof(NgramEntry) + self.table.tcap * sizeof(uint32_t)
                + (self.table.mask + 1) * sizeof(NgramSlot))

    cdef Py_ssize_t chunk_end(self, seq, Py_ssize_t start) except -1:
        """Where the chunk of lines starting at `start` ends: a bounded number of lines and
        characters, so the GIL is held only for the copy and memory stays bounded."""
        cdef Py_ssize_t n = len(seq), i = start, chars = 0
        while i < n and (i == start or (i - start < CHUNK_LINES and chars < CHUNK_CHARS)):
            line = seq[i]
            if PyUnicode_Check(line):
                chars += PyUnicode_GET_LENGTH(line)
            i += 1
        return i


cdef int load_lines(lines, Py_ssize_t first_index, bint lowercase, U32Buf* text,
                    I64Buf* off) except -1:
    """Copy the strings of `lines` into text as code points; line j spans text[off[j]:off[j+1]]."""
    cdef Py_ssize_t ln, j = 0
    text.size = 0
    off.size = 0
    if i64_push(off, 0) < 0:
        raise MemoryError()
    for line in lines:
        if not PyUnicode_Check(line):
            raise TypeError(f"line {first_index + j} is {type(line).__name__}, not str")
        if lowercase:
            line = line.lower()
        ln = PyUnicode_GET_LENGTH(line)
        if u32_reserve(text, text.size + ln + 1) < 0:
            raise MemoryError()
        if ln:
            PyUnicode_AsUCS4(line, <Py_UCS4*>(text.data + text.size), ln, 0)
        text.size += ln
        if i64_push(off, text.size) < 0:
            raise MemoryError()
        j += 1
    # the loop above runs Python code: a Ctrl-C that arrived during it lands here
    PyErr_CheckSignals()
    return 0


cdef object load_text_refs(lines, Py_ssize_t first_index, bint lowercase, TextRefs* out):
    """Point out at the storage of each str of `lines` (lowercased first if asked), without
    copying it; returns the list of the strs pointed into, which the caller keeps alive for as
    long as it reads them."""
    cdef Py_ssize_t j = 0
    cdef object line
    out.size = 0
    out.longest = 0
    if lowercase:
        lowered = []
        for line in lines:
            if not PyUnicode_Check(line):
                raise TypeError(f"line {first_index + j} is {type(line).__name__}, not str")
            lowered.append(line.lower())
            j += 1
        lines = lowered
    j = 0
    for line in lines:
        if not PyUnicode_Check(line):
            raise TypeError(f"line {first_index + j} is {type(line).__name__}, not str")
        CYBLEU_UNICODE_READY(line)
        if refs_push(out, PyUnicode_DATA(line), PyUnicode_GET_LENGTH(line),
                     PyUnicode_KIND(line)) < 0:
            raise MemoryError()
        j += 1
    return lines


# Workspaces are reused across calls (taken and returned under the GIL): fresh buffers would cost
# page faults on every call. Only a few small ones are kept.
cdef list _POOL = []
cdef Py_ssize_t POOL_SIZE = 4
cdef size_t POOL_MAX_BYTES = 16 << 20


cdef Workspace acquire_workspace():
    if _POOL:
        return <Workspace>_POOL.pop()
    return Workspace()


cdef void release_workspace(Workspace ws):
    ws.hkeep = ws.rkeep = None      # a pooled workspace keeps no caller's strs alive
    ws.hlines.size = ws.rlines.size = 0
    if len(_POOL) < POOL_SIZE and ws.nbytes() <= POOL_MAX_BYTES:
        _POOL.append(ws)


cdef int raise_for(int rc) except -1:
    """The exception of a generic error code (the callers handle the codes that need context)."""
    if rc == ERR_NOMEM:
        raise MemoryError()
    if rc < 0:
        raise SystemError(f"cybleu core: unexpected error code {rc}")
    return 0


# ---------------------------------------------------------------------------------------------
# a batch on several threads

cdef class Job:

    cdef bint step(self) noexcept nogil:
        return True


cdef class _Stop:
    cdef bint stop


def _work(Job job, _Stop flag):
    cdef bint done = False
    with nogil:
        while not done and not flag.stop:
            done = job.step()


def _join_all(threads):
    """Wait for every started thread, even through further Ctrl-C: a worker still running would
    write into buffers its caller is about to free or reuse."""
    for th in threads:
        while th.ident is not None and th.is_alive():
            try:
                th.join()
            except KeyboardInterrupt:
                pass


cdef int run_jobs(list jobs) except -1:
    """jobs[1:] on threads of their own, jobs[0] on this one, a step at a time with the signals
    checked in between: Ctrl-C (or any exception) stops every job at its next step and then
    propagates, and the workers are always joined before this returns. Python threads rather than
    OpenMP, so the wheel needs no OpenMP runtime."""
    import threading
    cdef Job first = jobs[0]
    cdef _Stop flag = _Stop()
    cdef bint done = False
    threads = [threading.Thread(target=_work, args=(job, flag)) for job in jobs[1:]]
    try:
        for th in threads:
            th.start()
        while not done:
            with nogil:
                done = first.step()
            PyErr_CheckSignals()
        for th in threads:
            th.join()
    except BaseException:
        flag.stop = True
        _join_all(threads)
        raise
    return 0
