"""The sample means of rouge-score's bootstrap (floor 3), compiled. The twin
`rouge_bootstrap_py.py` (numpy itself, written the obvious way) is the specification; a test holds
the two, and rouge-score, to identical numbers. What has to match numpy exactly:
- the legacy global stream: MT19937 as numpy's RandomState runs it, and `choice(arange(n), n)`,
  which is `randint(0, n)`: masked rejection on 32-bit outputs (`rng.pxd`);
- for `seed=`, `np.random.default_rng(seed).choice(n, size)`: PCG64, Lemire's bounded draws
  (both from `rng.pxd`, seeded by numpy itself);
- `np.mean(matrix[idx, :], axis=0)` for two or more columns: the rows added one after another
  in the order drawn, starting from the first, then one division by the count. (One column numpy
  sums pairwise: such matrices take the twin's path, as does any dtype but float64, or a numpy
  whose mean turns out not to add in order.)
The draws of a block of samples go to a buffer, then every column of two samples at a time is
summed (independent sums, so the adds overlap), without the GIL; Ctrl-C is looked at between
blocks. Twelve columns (four types) are summed with 256-bit adds where the CPU has them, each
row asked for a few draws ahead: the same adds in the same order.
"""
from cpython.exc cimport PyErr_CheckSignals
from cpython.object cimport PyObject
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawFree
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

from .rng cimport cyb_rng_pcg64, cyb_rng_u128, pcg64_choice, mt_temper, mt_randint, RNG_HALF

import numpy as np

from . import rouge_bootstrap_py as _twin

__all__ = ["pack_scores", "legacy_means", "seeded_means"]

cdef extern from "Python.h":
    bint PyTuple_Check(object o)
    Py_ssize_t PyTuple_GET_SIZE(object o)
    PyObject* PyTuple_GET_ITEM(object o, Py_ssize_t i)   # borrowed
    bint PyFloat_Check(object o)
    double PyFloat_AS_DOUBLE(object o)
    bint PyLong_Check(object o)
    long long PyLong_AsLongLongAndOverflow(object o, int* overflow) except? -1


def pack_scores(scores, Py_ssize_t width):
    """The score tuples as a (len(scores), width) float64 matrix, the values numpy's mean adds
    (ints and bools as float64), or None when one is not a tuple of `width` Python numbers
    (floats, bools, ints within int64), which numpy then stacks its own way."""
    cdef Py_ssize_t n = len(scores), i, k
    cdef double[:, ::1] o
    cdef int overflow
    cdef long long v
    out = np.empty((n, width))
    if n == 0:
        return out
    o = out
    for i in range(n):
        row = scores[i]
        if not PyTuple_Check(row) or PyTuple_GET_SIZE(row) != width:
            return None
        for k in range(width):
            x = <object>PyTuple_GET_ITEM(row, k)
            if PyFloat_Check(x):
                o[i, k] = PyFloat_AS_DOUBLE(x)
            elif PyLong_Check(x):
                overflow = 0
                v = PyLong_AsLongLongAndOverflow(x, &overflow)
                if overflow:
                    return None
                o[i, k] = <double>v
            else:
                return None
    return out

cdef extern from *:
    """
    /* The means of two samples (row indices ia, ib, n each) of a row-major matrix of m columns:
       per column, z plus the first drawn row, plus each next one in order, divided by n (z is
       where numpy's sum starts: 0.0, or -0.0, which leaves the first row as it is). Four
       columns of both samples at a time: eight independent sums. */
    #define CYB_MEANS2(NAME, IDX)                                                              \
    static void NAME(const double* X, Py_ssize_t m, const IDX* ia, const IDX* ib,             \
                     Py_ssize_t n, double z, double* oa, double* ob) {                         \
        Py_ssize_t q0, i;                                                                      \
        int q, w;                                                                              \
        const double d = (double)n;                                                            \
        for (q0 = 0; q0 < m; q0 += 4) {                                                        \
            double a[4], b[4];                                                                 \
            w = (int)(m - q0 < 4 ? m - q0 : 4);                                                \
            for (q = 0; q < w; q++) {                                                          \
                a[q] = z + X[(Py_ssize_t)ia[0] * m + q0 + q];                                  \
                b[q] = z + X[(Py_ssize_t)ib[0] * m + q0 + q];                                  \
            }                                                                                  \
            if (w == 4) {                                                                      \
                for (i = 1; i < n; i++) {                                                      \
                    const double* ra = X + (Py_ssize_t)ia[i] * m + q0;                         \
                    const double* rb = X + (Py_ssize_t)ib[i] * m + q0;                         \
                    a[0] += ra[0]; a[1] += ra[1]; a[2] += ra[2]; a[3] += ra[3];                \
                    b[0] += rb[0]; b[1] += rb[1]; b[2] += rb[2]; b[3] += rb[3];                \
                }                                                                              \
            } else if (w == 3) {                                                               \
                for (i = 1; i < n; i++) {                                                      \
                    const double* ra = X + (Py_ssize_t)ia[i] * m + q0;                         \
                    const double* rb = X + (Py_ssize_t)ib[i] * m + q0;                         \
                    a[0] += ra[0]; a[1] += ra[1]; a[2] += ra[2];                               \
                    b[0] += rb[0]; b[1] += rb[1]; b[2] += rb[2];                               \
                }                                                                              \
            } else {                                                                           \
                for (i = 1; i < n; i++) {                                                      \
                    const double* ra = X + (Py_ssize_t)ia[i] * m + q0;                         \
                    const double* rb = X + (Py_ssize_t)ib[i] * m + q0;                         \
                    for (q = 0; q < w; q++) { a[q] += ra[q]; b[q] += rb[q]; }                  \
                }                                                                              \
            }                                                                                  \
            for (q = 0; q < w; q++) {                                                          \
                oa[q0 + q] = a[q] / d;                                                         \
                ob[q0 + q] = b[q] / d;                                                         \
            }                                                                                  \
        }                                                                                      \
    }
    CYB_MEANS2(cyb_means2_u32_any, uint32_t)

    /* The rows are drawn at random from a matrix bigger than a core's cache: each sum asks
       for the row it will add CYB_AHEAD draws on (a quarter faster). */
    #if defined(__GNUC__) || defined(__clang__)
    #define CYB_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define CYB_PREFETCH(p) ((void)0)
    #endif
    #define CYB_AHEAD 24

    /* 256-bit adds where the CPU and the OS have them (AVX: x86-64 built by GCC or clang,
       chosen at run time), so that a row of 12 columns takes 3 adds instead of 6. The adds
       are the same ones in the same order, column by column: the same bits. */
    #if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    #include <cpuid.h>
    static int cyb_wide_adds(void) {
        unsigned a, b, c, d, lo, hi;
        if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
            return 0;
        __asm__ volatile ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        return (lo & 6) == 6;    /* the OS saves the 256-bit registers */
    }
    #include <immintrin.h>
    /* 12 columns (the usual four ROUGE types): three 4-column adds per row and sample */
    __attribute__((target("avx")))
    static void cyb_means2_12_wide(const double* X, const uint32_t* ia, const uint32_t* ib,
                                   Py_ssize_t n, double z, double* oa, double* ob) {
        Py_ssize_t i;
        const __m256d vz = _mm256_set1_pd(z), vd = _mm256_set1_pd((double)n);
        const double* ra = X + (Py_ssize_t)ia[0] * 12;
        const double* rb = X + (Py_ssize_t)ib[0] * 12;
        __m256d a0 = _mm256_add_pd(vz, _mm256_loadu_pd(ra));
        __m256d a1 = _mm256_add_pd(vz, _mm256_loadu_pd(ra + 4));
        __m256d a2 = _mm256_add_pd(vz, _mm256_loadu_pd(ra + 8));
        __m256d b0 = _mm256_add_pd(vz, _mm256_loadu_pd(rb));
        __m256d b1 = _mm256_add_pd(vz, _mm256_loadu_pd(rb + 4));
        __m256d b2 = _mm256_add_pd(vz, _mm256_loadu_pd(rb + 8));
        for (i = 1; i < n; i++) {
            if (i + CYB_AHEAD < n) {
                CYB_PREFETCH(X + (Py_ssize_t)ia[i + CYB_AHEAD] * 12);
                CYB_PREFETCH(X + (Py_ssize_t)ia[i + CYB_AHEAD] * 12 + 8);
                CYB_PREFETCH(X + (Py_ssize_t)ib[i + CYB_AHEAD] * 12);
                CYB_PREFETCH(X + (Py_ssize_t)ib[i + CYB_AHEAD] * 12 + 8);
            }
            ra = X + (Py_ssize_t)ia[i] * 12;
            rb = X + (Py_ssize_t)ib[i] * 12;
            a0 = _mm256_add_pd(a0, _mm256_loadu_pd(ra));
            a1 = _mm256_add_pd(a1, _mm256_loadu_pd(ra + 4));
            a2 = _mm256_add_pd(a2, _mm256_loadu_pd(ra + 8));
            b0 = _mm256_add_pd(b0, _mm256_loadu_pd(rb));
            b1 = _mm256_add_pd(b1, _mm256_loadu_pd(rb + 4));
            b2 = _mm256_add_pd(b2, _mm256_loadu_pd(rb + 8));
        }
        _mm256_storeu_pd(oa, _mm256_div_pd(a0, vd));
        _mm256_storeu_pd(oa + 4, _mm256_div_pd(a1, vd));
        _mm256_storeu_pd(oa + 8, _mm256_div_pd(a2, vd));
        _mm256_storeu_pd(ob, _mm256_div_pd(b0, vd));
        _mm256_storeu_pd(ob + 4, _mm256_div_pd(b1, vd));
        _mm256_storeu_pd(ob + 8, _mm256_div_pd(b2, vd));
    }
    #else
    static int cyb_wide_adds(void) { return 0; }
    static void cyb_means2_12_wide(const double* X, const uint32_t* ia, const uint32_t* ib,
                                   Py_ssize_t n, double z, double* oa, double* ob) {}
    #endif
    static int cyb_wide = -1;

    /* The same for a fixed number of columns M: one pass over the drawn rows, each row read
       once for all its columns (2 x M independent sums). */
    #define CYB_MEANS2_FIXED(NAME, IDX, M)                                                     \
    static void NAME(const double* X, const IDX* ia, const IDX* ib, Py_ssize_t n, double z,    \
                     double* oa, double* ob) {                                                 \
        Py_ssize_t i;                                                                          \
        int q;                                                                                 \
        const double d = (double)n;                                                            \
        double a[M], b[M];                                                                     \
        for (q = 0; q < M; q++) {                                                              \
            a[q] = z + X[(Py_ssize_t)ia[0] * M + q];                                           \
            b[q] = z + X[(Py_ssize_t)ib[0] * M + q];                                           \
        }                                                                                      \
        for (i = 1; i < n; i++) {                                                              \
            const double* ra = X + (Py_ssize_t)ia[i] * M;                                      \
            const double* rb = X + (Py_ssize_t)ib[i] * M;                                      \
            for (q = 0; q < M; q++) { a[q] += ra[q]; b[q] += rb[q]; }                          \
        }                                                                                      \
        for (q = 0; q < M; q++) { oa[q] = a[q] / d; ob[q] = b[q] / d; }                        \
    }
    #define CYB_MEANS2_DISPATCH(NAME, IDX)                                                     \
    CYB_MEANS2_FIXED(NAME##_3, IDX, 3)                                                         \
    CYB_MEANS2_FIXED(NAME##_6, IDX, 6)                                                         \
    CYB_MEANS2_FIXED(NAME##_9, IDX, 9)                                                         \
    CYB_MEANS2_FIXED(NAME##_12, IDX, 12)                                                       \
    static void NAME(const double* X, Py_ssize_t m, const IDX* ia, const IDX* ib,             \
                     Py_ssize_t n, double z, double* oa, double* ob) {                         \
        if (cyb_wide && m == 12) {                                                             \
            cyb_means2_12_wide(X, ia, ib, n, z, oa, ob);                                       \
            return;                                                                            \
        }                                                                                      \
        switch (m) {                                                                           \
        case 3: NAME##_3(X, ia, ib, n, z, oa, ob); break;                                      \
        case 6: NAME##_6(X, ia, ib, n, z, oa, ob); break;                                      \
        case 9: NAME##_9(X, ia, ib, n, z, oa, ob); break;                                      \
        case 12: NAME##_12(X, ia, ib, n, z, oa, ob); break;                                    \
        default: NAME##_any(X, m, ia, ib, n, z, oa, ob);                                       \
        }                                                                                      \
    }
    static void cyb_means_init(int wide) { cyb_wide = wide && cyb_wide_adds(); }
    CYB_MEANS2_DISPATCH(cyb_means2_u32, uint32_t)
    """
    void means2_u32 "cyb_means2_u32"(const double* X, Py_ssize_t m, const uint32_t* ia,
                                     const uint32_t* ib, Py_ssize_t n, double z, double* oa,
                                     double* ob) noexcept nogil
    void means_init "cyb_means_init"(int wide) noexcept
    int cyb_wide

means_init(1)


def _wide_adds(wide):
    """Sum with 256-bit adds where the CPU has them (True, the default) or with 128-bit ones
    only (False); returns whether the wide ones are in use. For the tests: both give the same
    bits."""
    means_init(1 if wide else 0)
    return bool(cyb_wide)


# samples drawn and summed between two looks at Ctrl-C (and the draws' buffer: this many x n)
cdef Py_ssize_t _BLOCK = 4

_PCG_MULT = 0x2360ED051FC65DA44385DF649FCCF645
_U128 = (1 << 128) - 1


def _jump(h):
    """(multiplier, sum of its powers below h): h steps of the LCG x -> x * mult + inc are
    x -> x * multiplier + inc * sum (mod 2**128)."""
    power, total = 1, 0
    for _ in range(h):
        total = (total + power) & _U128
        power = (power * _PCG_MULT) & _U128
    return power, total


_JUMP = _jump(RNG_HALF)

cdef object _in_order = None
# where numpy's row sums start: 0.0 (its identity: -0.0 rows sum to 0.0), or -0.0 (the first
# row as it is)
cdef double _start = 0.0


def _numpy_adds_in_order():
    """Whether this numpy's mean over the rows of a two-or-more-column array adds them one after
    another (checked once on values where the order shows)."""
    global _in_order, _start
    if _in_order is None:
        negative = np.mean(np.array([[-0.0, -0.0], [-0.0, -0.0]]), axis=0)
        _start = 0.0 if not np.signbit(negative[0]) else -0.0
        x = np.array([[1e16, 1.0, 3.0], [1.0, 1e16, -1.0], [-1e16, 1.0, 1e-3], [1.0, -1e16, 7.0],
                      [1.0, 1.0, 1e16], [3.0, 2.0, -1e16], [1e-8, 5.0, 1.0],
                      [2.0, 1e-9, 2.5], [0.5, 0.25, 1e15]] * 3)
        want = []
        for col in range(3):
            s = _start + x[0, col]
            for i in range(1, x.shape[0]):
                s = s + x[i, col]
            want.append(s / x.shape[0])
        _in_order = bool(np.array_equal(np.mean(x, axis=0), np.array(want)))
    return _in_order


cdef bint _compiled_path(matrix):
    return (isinstance(matrix, np.ndarray) and matrix.ndim == 2 and matrix.dtype == np.float64
            and matrix.shape[1] >= 2 and _numpy_adds_in_order())


cdef void _sum_block_u32(const double* X, Py_ssize_t m, const uint32_t* idx, Py_ssize_t n,
                         Py_ssize_t count, double* out) noexcept nogil:
    cdef Py_ssize_t s = 0
    while s + 1 < count:
        means2_u32(X, m, idx + s * n, idx + (s + 1) * n, n, _start, out + s * m,
                   out + (s + 1) * m)
        s += 2
    if s < count:   # the last of an odd count: paired with itself
        means2_u32(X, m, idx + s * n, idx + s * n, n, _start, out + s * m, out + s * m)


def legacy_means(matrix, n_samples, key, pos):
    """(means, key, pos): the (n_samples, measures) sample means rouge-score draws with
    `np.random.choice(np.arange(n), size=n)` per sample from numpy's legacy MT19937 state
    (key, pos) (`np.random.get_state()`'s), and the state after the draws."""
    cdef Py_ssize_t n, m, ns, s0, count, i
    cdef uint32_t kbuf[624]
    cdef uint32_t tbuf[624]
    cdef int p
    cdef uint32_t* idx = NULL
    cdef const double[:, ::1] X
    cdef double[:, ::1] out
    cdef uint32_t rng
    _twin._check(matrix, n_samples)
    if not _compiled_path(matrix) or matrix.shape[0] > 0xFFFFFFFF:
        return _twin.legacy_means(matrix, n_samples, key, pos)
    key = np.ascontiguousarray(key, dtype=np.uint32)
    if key.shape != (624,) or not 0 <= pos <= 624:
        raise ValueError("an MT19937 state is 624 words and a position from 0 to 624")
    X = np.ascontiguousarray(matrix)
    n, m, ns = X.shape[0], X.shape[1], n_samples
    means = np.empty((ns, m))
    out = means
    for i in range(624):
        kbuf[i] = key[i]
    p = pos
    mt_temper(kbuf, tbuf)
    rng = <uint32_t>(n - 1)
    idx = <uint32_t*>PyMem_RawMalloc(<size_t>(_BLOCK * n) * sizeof(uint32_t))
    if idx == NULL:
        raise MemoryError()
    try:
        s0 = 0
        while s0 < ns:
            count = _BLOCK if ns - s0 > _BLOCK else ns - s0
            with nogil:
                mt_randint(kbuf, tbuf, &p, rng, idx, count * n)
                _sum_block_u32(&X[0, 0], m, idx, n, count, &out[s0, 0])
            s0 += count
            PyErr_CheckSignals()
    finally:
        PyMem_RawFree(idx)
    return means, np.array([kbuf[i] for i in range(624)], dtype=np.uint32), p


def seeded_means(matrices, n_samples, seed):
    """For each (n, measures) matrix (all of n rows), its (n_samples, measures) sample means,
    every matrix resampled at the same rows: those of
    `np.random.default_rng(seed).choice(n, size=(n_samples, n))`."""
    cdef Py_ssize_t n, m, ns, s0, count, k, col
    cdef const double[:, ::1] X
    cdef double[:, ::1] out
    cdef uint32_t* idx = NULL
    cdef uint64_t* raw = NULL
    cdef cyb_rng_pcg64 g
    cdef cyb_rng_u128 jump_mul, jump_add
    cdef int used = 2 * RNG_HALF, half = 0
    cdef uint32_t rng
    _twin._check_seed(seed)
    for matrix in matrices:
        _twin._check(matrix, n_samples)
    if not matrices:
        return []
    n = matrices[0].shape[0]
    if any(mat.shape[0] != n for mat in matrices):
        raise ValueError("every score matrix needs the same number of rows")
    if not all(_compiled_path(mat) for mat in matrices) or n > 0xFFFFFFFF:
        return _twin.seeded_means(matrices, n_samples, seed)
    # numpy's own seeding (SeedSequence): the starting state read off its PCG64
    state = np.random.PCG64(seed).state["state"]
    g.state.hi, g.state.lo = state["state"] >> 64, state["state"] & 0xFFFFFFFFFFFFFFFF
    g.inc.hi, g.inc.lo = state["inc"] >> 64, state["inc"] & 0xFFFFFFFFFFFFFFFF
    g.has32 = 0
    g.u32 = 0
    jump_mul.hi, jump_mul.lo = _JUMP[0] >> 64, _JUMP[0] & 0xFFFFFFFFFFFFFFFF
    add = (state["inc"] * _JUMP[1]) & _U128
    jump_add.hi, jump_add.lo = add >> 64, add & 0xFFFFFFFFFFFFFFFF
    # every matrix's columns side by side: one row read per draw serves them all
    widths = [mat.shape[1] for mat in matrices]
    X = np.ascontiguousarray(np.hstack(matrices))
    m, ns = X.shape[1], n_samples
    both = np.empty((ns, m))
    out = both
    rng = <uint32_t>(n - 1)
    idx = <uint32_t*>PyMem_RawMalloc(<size_t>(_BLOCK * n) * sizeof(uint32_t))
    raw = <uint64_t*>PyMem_RawMalloc(2 * RNG_HALF * sizeof(uint64_t))
    try:
        if idx == NULL or raw == NULL:
            raise MemoryError()
        s0 = 0
        while s0 < ns:
            count = _BLOCK if ns - s0 > _BLOCK else ns - s0
            with nogil:
                pcg64_choice(&g, jump_mul, jump_add, raw, &used, &half, rng, idx, count * n)
                _sum_block_u32(&X[0, 0], m, idx, n, count, &out[s0, 0])
            s0 += count
            PyErr_CheckSignals()
    finally:
        PyMem_RawFree(idx)
        PyMem_RawFree(raw)
    result = []
    col = 0
    for k in range(len(widths)):
        result.append(np.ascontiguousarray(both[:, col:col + widths[k]]))
        col += widths[k]
    return result
