"""Compiled resampling for significance tests: numpy's random streams, integer row sums, and
BLEU's arithmetic on the sums, without importing numpy.

The pure-Python twin `resample_py.py` (numpy, written the obvious way) is the specification of
every public name; a test holds the two to identical results. What has to match numpy exactly:
- PCG64 seeded through SeedSequence, as `np.random.default_rng(seed)`;
- `Generator.choice(m, size)` (Lemire's bounded 32-bit draws on the buffered 32-bit output) and
  `Generator.integers(2, size, dtype=bool)` (one 32-bit draw per 32 booleans);
- `np.mean` of a float64 array (pairwise summation, blocks of 8 accumulators, split at 128).
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memset
from libc.math cimport exp, log
from cpython.mem cimport PyMem_RawMalloc, PyMem_RawCalloc, PyMem_RawFree
from cpython.array cimport array, clone
from cpython.exc cimport PyErr_CheckSignals

from .bleu cimport builtin_sum
import os

__all__ = ["Generator", "pack_rows", "resample_sums", "bootstrap_sums", "ar_sums", "bleu_scores",
           "pairwise_mean"]

cdef extern from "Python.h":
    int64_t PyLong_AsLongLong(object o) except? -1
    bint PyLong_CheckExact(object o)
    bint PyList_CheckExact(object o)

cdef extern from *:
    """
    /* numpy's PCG64: a 128-bit LCG (multiplier below) with the XSL-RR output. The state steps
       before each output. Portable 128-bit arithmetic when the compiler has no __int128. */
    typedef struct { uint64_t hi, lo; } cyb_u128;
    typedef struct { cyb_u128 state, inc; int has32; uint32_t u32; } cyb_pcg64;

    static const cyb_u128 CYB_PCG_MULT = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};

    #if defined(__SIZEOF_INT128__)
    static inline cyb_u128 cyb_mul_add(cyb_u128 a, cyb_u128 m, cyb_u128 c) {
        unsigned __int128 x = ((unsigned __int128)a.hi << 64) | a.lo;
        unsigned __int128 y = ((unsigned __int128)m.hi << 64) | m.lo;
        unsigned __int128 z = ((unsigned __int128)c.hi << 64) | c.lo;
        cyb_u128 r;
        x = x * y + z;
        r.hi = (uint64_t)(x >> 64);
        r.lo = (uint64_t)x;
        return r;
    }
    #else
    static inline uint64_t cyb_mulhi64(uint64_t a, uint64_t b) {
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
        return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
    }
    static inline cyb_u128 cyb_mul_add(cyb_u128 a, cyb_u128 m, cyb_u128 c) {
        cyb_u128 r;
        r.hi = cyb_mulhi64(a.lo, m.lo) + a.lo * m.hi + a.hi * m.lo;
        r.lo = a.lo * m.lo;
        r.lo += c.lo;
        r.hi += c.hi + (r.lo < c.lo);
        return r;
    }
    #endif

    static inline void cyb_pcg_step(cyb_pcg64* g) {
        g->state = cyb_mul_add(g->state, CYB_PCG_MULT, g->inc);
    }

    /* pcg_setseq_128_srandom_r: state = 0, inc = seq << 1 | 1, step, state += seed, step. */
    static inline void cyb_pcg_seed(cyb_pcg64* g, uint64_t s_hi, uint64_t s_lo,
                                    uint64_t q_hi, uint64_t q_lo) {
        cyb_u128 zero = {0, 0};
        g->state = zero;
        g->inc.hi = (q_hi << 1) | (q_lo >> 63);
        g->inc.lo = (q_lo << 1) | 1u;
        cyb_pcg_step(g);
        g->state.lo += s_lo;
        g->state.hi += s_hi + (g->state.lo < s_lo);
        cyb_pcg_step(g);
        g->has32 = 0;
        g->u32 = 0;
    }

    static inline uint64_t cyb_pcg_next64(cyb_pcg64* g) {
        uint64_t x;
        unsigned rot;
        cyb_pcg_step(g);
        x = g->state.hi ^ g->state.lo;
        rot = (unsigned)(g->state.hi >> 58);
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }

    /* numpy keeps the upper half of a 64-bit output for the next 32-bit request. */
    static inline uint32_t cyb_pcg_next32(cyb_pcg64* g) {
        uint64_t n;
        if (g->has32) {
            g->has32 = 0;
            return g->u32;
        }
        n = cyb_pcg_next64(g);
        g->has32 = 1;
        g->u32 = (uint32_t)(n >> 32);
        return (uint32_t)(n & 0xffffffffULL);
    }

    /* buffered_bounded_lemire_uint32: a draw in [0, rng]; rng < 0xffffffff. */
    static inline uint32_t cyb_lemire32(cyb_pcg64* g, uint32_t rng) {
        const uint32_t excl = rng + 1;
        uint64_t m = (uint64_t)cyb_pcg_next32(g) * excl;
        uint32_t left = (uint32_t)m;
        if (left < excl) {
            const uint32_t threshold = (uint32_t)(0xffffffffUL - rng) % excl;
            while (left < threshold) {
                m = (uint64_t)cyb_pcg_next32(g) * excl;
                left = (uint32_t)m;
            }
        }
        return (uint32_t)(m >> 32);
    }

    /* Row sums over a slice of segments, 16 columns at a time so that the 16 partial sums stay
       in registers while the slice is swept (rows are padded to a multiple of 16). */
    static void cyb_sweep_mask_i32(const int32_t* table, Py_ssize_t row, const uint8_t* sel,
                                   Py_ssize_t j0, Py_ssize_t j1, int32_t* acc) {
        Py_ssize_t k0, j;
        int q;
        for (k0 = 0; k0 < row; k0 += 16) {
            int32_t a[16];
            for (q = 0; q < 16; q++) a[q] = acc[k0 + q];
            for (j = j0; j < j1; j++) {
                if (sel[j]) {
                    const int32_t* s = table + j * row + k0;
                    for (q = 0; q < 16; q++) a[q] += s[q];
                }
            }
            for (q = 0; q < 16; q++) acc[k0 + q] = a[q];
        }
    }

    /* Randomization with the swaps of 4 segments read as one 4-bit index into a table of the 16
       subset sums of their rows: half the additions of adding the swapped rows one by one, and
       no unpredictable branch per segment. */
    static void cyb_sweep_sub_i32(const int32_t* sub, Py_ssize_t row, const uint8_t* sel,
                                  Py_ssize_t g0, Py_ssize_t g1, int32_t* acc) {
        Py_ssize_t k0, g;
        int q;
        for (k0 = 0; k0 < row; k0 += 16) {
            int32_t a[16];
            for (q = 0; q < 16; q++) a[q] = acc[k0 + q];
            for (g = g0; g < g1; g++) {
                const uint8_t* m = sel + 4 * g;
                const unsigned idx = (unsigned)(m[0] | (m[1] << 1) | (m[2] << 2) | (m[3] << 3));
                if (idx) {
                    const int32_t* s = sub + (g * 16 + idx) * row + k0;
                    for (q = 0; q < 16; q++) a[q] += s[q];
                }
            }
            for (q = 0; q < 16; q++) acc[k0 + q] = a[q];
        }
    }

    /* 16 columns of one resample's sum, adding the picked segments' values directly from one
       column block of the table (16 values per segment, contiguous): for tables that stay in
       cache this beats counting picks and sweeping every row. */
    static void cyb_gather16_i32(const int32_t* block, const int64_t* pick, Py_ssize_t n,
                                 int32_t* out) {
        Py_ssize_t i;
        int q;
        int32_t a[16];
        for (q = 0; q < 16; q++) a[q] = 0;
        for (i = 0; i < n; i++) {
            const int32_t* s = block + pick[i] * 16;
            for (q = 0; q < 16; q++) a[q] += s[q];
        }
        for (q = 0; q < 16; q++) out[q] = a[q];
    }

    static void cyb_sweep_count_i32(const int32_t* table, Py_ssize_t row, const uint32_t* cnt,
                                    Py_ssize_t j0, Py_ssize_t j1, int32_t* acc) {
        Py_ssize_t k0, j;
        int q;
        for (k0 = 0; k0 < row; k0 += 16) {
            int32_t a[16];
            for (q = 0; q < 16; q++) a[q] = acc[k0 + q];
            for (j = j0; j < j1; j++) {
                const uint32_t c = cnt[j];
                const int32_t* s = table + j * row + k0;
                if (c == 1) {
                    for (q = 0; q < 16; q++) a[q] += s[q];
                } else if (c) {
                    for (q = 0; q < 16; q++) a[q] += (int32_t)c * s[q];
                }
            }
            for (q = 0; q < 16; q++) acc[k0 + q] = a[q];
        }
    }
    """
    ctypedef struct cyb_pcg64:
        pass
    void cyb_pcg_seed(cyb_pcg64* g, uint64_t s_hi, uint64_t s_lo, uint64_t q_hi,
                      uint64_t q_lo) noexcept nogil
    uint32_t cyb_pcg_next32(cyb_pcg64* g) noexcept nogil
    uint32_t cyb_lemire32(cyb_pcg64* g, uint32_t rng) noexcept nogil
    void cyb_sweep_mask_i32(const int32_t* table, Py_ssize_t row, const uint8_t* sel,
                            Py_ssize_t j0, Py_ssize_t j1, int32_t* acc) noexcept nogil
    void cyb_sweep_count_i32(const int32_t* table, Py_ssize_t row, const uint32_t* cnt,
                             Py_ssize_t j0, Py_ssize_t j1, int32_t* acc) noexcept nogil
    void cyb_gather16_i32(const int32_t* block, const int64_t* pick, Py_ssize_t n,
                          int32_t* out) noexcept nogil
    void cyb_sweep_sub_i32(const int32_t* sub, Py_ssize_t row, const uint8_t* sel,
                           Py_ssize_t g0, Py_ssize_t g1, int32_t* acc) noexcept nogil

cdef enum:
    SMOOTH_NONE = 0
    SMOOTH_FLOOR = 1
    SMOOTH_ADDK = 2
    SMOOTH_EXP = 3

_SMOOTHERS = {"none": SMOOTH_NONE, "floor": SMOOTH_FLOOR, "add-k": SMOOTH_ADDK,
              "exp": SMOOTH_EXP}
_SMOOTH_DEFAULTS = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}
# Resamples (trials) summed together, and between checks for Ctrl-C and progress reports.
cdef Py_ssize_t _BLOCK = 32
# bootstrap_sums holds a block's indices (8 bytes) and pick counts (4 bytes) per segment and
# resample (resample_sums the counts): at most this many of each, so that a test on 10**6
# segments takes 4 resamples at a time in 48 MB a thread instead of 32 in 384 MB (the sums do
# not depend on the blocks)
cdef Py_ssize_t _BLOCK_PICKS = 1 << 22

# ---------------------------------------------------------------------------------------------
# numpy's SeedSequence (pool of 4 words) and PCG64 seeding

cdef uint32_t _M32 = 0xffffffff
_INIT_A = 0x43b0d7e5
_MULT_A = 0x931e8875
_INIT_B = 0x8b51f9dd
_MULT_B = 0x58f38ded
_MIX_L = 0xca01f9dd
_MIX_R = 0x4973f715


def _seed_words(seed):
    """The four 64-bit words numpy's PCG64 takes from SeedSequence(seed).generate_state(4)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(16), "little")  # numpy: randbits(128)
    elif isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or None, not {seed!r}")
    entropy = []
    value = seed
    while True:
        entropy.append(value & 0xffffffff)
        value >>= 32
        if not value:
            break
    mask = 0xffffffff
    hash_const = [_INIT_A]

    def hashmix(v):
        v ^= hash_const[0]
        hash_const[0] = (hash_const[0] * _MULT_A) & mask
        v = (v * hash_const[0]) & mask
        return v ^ (v >> 16)

    def mix(x, y):
        r = (_MIX_L * x - _MIX_R * y) & mask
        return r ^ (r >> 16)

    pool = [hashmix(entropy[i] if i < len(entropy) else 0) for i in range(4)]
    for src in range(4):
        for dst in range(4):
            if src != dst:
                pool[dst] = mix(pool[dst], hashmix(pool[src]))
    for src in range(4, len(entropy)):
        for dst in range(4):
            pool[dst] = mix(pool[dst], hashmix(entropy[src]))
    h = _INIT_B
    state = []
    for i in range(8):
        v = pool[i % 4] ^ h
        h = (h * _MULT_B) & mask
        v = (v * h) & mask
        state.append(v ^ (v >> 16))
    return [state[2 * k] | (state[2 * k + 1] << 32) for k in range(4)]


cdef _check_shape(Py_ssize_t n_rows, Py_ssize_t n_cols, str what):
    if n_rows < 0 or n_cols < 1:
        raise ValueError(f"{what}: need n_rows >= 0 and n_segments >= 1, "
                         f"not {n_rows} and {n_cols}")


cdef void _draw_indices(cyb_pcg64* g, int64_t* o, Py_ssize_t total,
                        Py_ssize_t n_segments) noexcept nogil:
    # `total` draws of numpy's choice(n_segments): Lemire's bounded 32-bit draws
    cdef Py_ssize_t i
    cdef uint32_t rng = <uint32_t>(n_segments - 1)
    if rng == 0:  # numpy draws nothing for a one-element population
        for i in range(total):
            o[i] = 0
    elif rng == _M32:
        for i in range(total):
            o[i] = cyb_pcg_next32(g)
    else:
        for i in range(total):
            o[i] = cyb_lemire32(g, rng)


cdef class Generator:
    """numpy's `np.random.default_rng(seed)` (PCG64 seeded through SeedSequence; None draws
    fresh entropy), with the two draws significance tests make. Successive calls continue one
    stream, as successive calls on one numpy Generator do."""
    cdef cyb_pcg64 g

    def __init__(self, seed=None):
        w = _seed_words(seed)
        cyb_pcg_seed(&self.g, w[0], w[1], w[2], w[3])

    def bootstrap_indices(self, Py_ssize_t n_samples, Py_ssize_t n_segments):
        """Segment indices of `n_samples` bootstrap resamples, row after row:
        `choice(n_segments, size=(n_samples, n_segments), replace=True)`."""
        cdef array out
        cdef int64_t* o
        cdef Py_ssize_t total
        _check_shape(n_samples, n_segments, "bootstrap_indices")
        if n_segments > 0xffffffff:
            raise ValueError("bootstrap_indices: more than 2**32 segments")
        total = n_samples * n_segments
        out = clone(array("q"), total, False)
        o = <int64_t*>out.data.as_voidptr
        with nogil:
            _draw_indices(&self.g, o, total, n_segments)
        return out

    def ar_masks(self, Py_ssize_t n_trials, Py_ssize_t n_segments):
        """Which segments each approximate-randomization trial swaps, as 0/1 bytes:
        `integers(2, size=(n_trials, n_segments), dtype=bool)`."""
        cdef Py_ssize_t i, total
        cdef uint32_t buf = 0
        cdef int b
        cdef uint8_t* o
        _check_shape(n_trials, n_segments, "ar_masks")
        total = n_trials * n_segments
        out = bytearray(total)
        if total == 0:
            return out
        o = <uint8_t*>(<char*>out)
        with nogil:
            # one 32-bit draw gives the next 32 booleans, lowest bit first; numpy starts a new
            # draw at each call
            i = 0
            while i < total:
                buf = cyb_pcg_next32(&self.g)
                for b in range(32 if total - i >= 32 else <int>(total - i)):
                    o[i + b] = (buf >> b) & 1
                i += 32
        return out


# ---------------------------------------------------------------------------------------------
# integer row sums

def pack_rows(rows, int width):
    """The rows (sequences of `width` ints each) as one flat int64 array. Raises TypeError for a
    value that is not an int (a float statistic) and ValueError for a row of another width."""
    cdef Py_ssize_t n = len(rows), i, k
    cdef array out = clone(array("q"), n * width, False)
    cdef int64_t* o = <int64_t*>out.data.as_voidptr
    cdef object row, v
    cdef list lst
    if width < 1:
        raise ValueError("width must be >= 1")
    for i in range(n):
        row = rows[i]
        if PyList_CheckExact(row) and len(<list>row) == width:
            lst = <list>row
            for k in range(width):
                v = lst[k]
                if not PyLong_CheckExact(v):
                    if isinstance(v, bool) or not isinstance(v, int):
                        raise TypeError(f"statistics must be ints, not {type(v).__name__}")
                o[i * width + k] = PyLong_AsLongLong(v)
        else:
            if len(row) != width:
                raise ValueError("segment statistics rows must all have the same, non-zero "
                                 "length")
            for k in range(width):
                v = row[k]
                if isinstance(v, float) or not isinstance(v, int):
                    raise TypeError(f"statistics must be ints, not {type(v).__name__}")
                o[i * width + k] = PyLong_AsLongLong(v)
    return out


cdef Py_ssize_t _n_rows(const int64_t[::1] rows, int width, str what) except -1:
    if width < 1 or rows.shape[0] % width:
        raise ValueError(f"statistics of {rows.shape[0]} values do not make rows of width {width}")
    return rows.shape[0] // width


cdef class _Table:
    """The statistics of every system side by side, one row per segment (a row holds `width`
    values per system): int32 rows padded to a multiple of 16 when no sum can leave int32, else
    int64 rows. Owns its memory."""
    cdef void* data
    cdef bint wide
    cdef Py_ssize_t n_segments, row, used
    # int32 tables only, built on first use by _blocks: the same values as blocks of 16 columns,
    # each block holding its 16 values of every segment contiguously (64-byte aligned), so
    # that a pass over one block reads a small, cache-resident array
    cdef void* blocks_raw
    cdef int32_t* blocks

    def __dealloc__(self):
        PyMem_RawFree(self.data)
        PyMem_RawFree(self.blocks_raw)


cdef int32_t* _blocks(_Table t) noexcept nogil:
    """The table's column blocks (see _Table.blocks), or NULL when memory is short."""
    cdef Py_ssize_t n_blocks, kb, j, q
    cdef const int32_t* src
    cdef int32_t* dst
    if t.blocks != NULL or t.wide:
        return t.blocks
    n_blocks = t.row // 16
    t.blocks_raw = PyMem_RawMalloc(n_blocks * t.n_segments * 16 * 4 + 64)
    if t.blocks_raw == NULL:
        return NULL
    t.blocks = <int32_t*>((<size_t>t.blocks_raw + 63) & ~(<size_t>63))
    for kb in range(n_blocks):
        for j in range(t.n_segments):
            src = <int32_t*>t.data + j * t.row + kb * 16
            dst = t.blocks + (kb * t.n_segments + j) * 16
            for q in range(16):
                dst[q] = src[q]
    return t.blocks


cdef _Table _build_table(list views, const int64_t[::1] subtract, int width, Py_ssize_t n_seg):
    """Rows of every system (minus `subtract`'s row when given), interleaved per segment."""
    cdef _Table t = _Table.__new__(_Table)
    cdef Py_ssize_t nsys = len(views), s, j, k, used = nsys * width
    cdef const int64_t[::1] v
    cdef int64_t x, biggest = 0
    cdef int32_t* t32
    cdef int64_t* t64
    cdef bint sub = subtract is not None
    for s in range(nsys):
        v = views[s]
        for j in range(n_seg * width):
            x = v[j] - (subtract[j] if sub else 0)
            if x < 0:
                x = -x
            if x > biggest:
                biggest = x
    # every sum adds at most n_seg rows (counted with multiplicity), each at most `biggest`
    t.wide = biggest > 0 and biggest > (<int64_t>0x7fffffff) // n_seg
    t.n_segments = n_seg
    t.used = used
    t.row = used if t.wide else (used + 15) // 16 * 16
    t.data = PyMem_RawCalloc(n_seg * t.row + 1, 8 if t.wide else 4)
    if t.data == NULL:
        raise MemoryError()
    t32 = <int32_t*>t.data
    t64 = <int64_t*>t.data
    for s in range(nsys):
        v = views[s]
        for j in range(n_seg):
            for k in range(width):
                x = v[j * width + k] - (subtract[j * width + k] if sub else 0)
                if t.wide:
                    t64[j * t.row + s * width + k] = x
                else:
                    t32[j * t.row + s * width + k] = <int32_t>x
    return t


cdef inline Py_ssize_t _slice_rows(Py_ssize_t row, size_t item) noexcept nogil:
    # about 64 KiB of table per slice: it stays in cache while a block of resamples sweeps it
    cdef Py_ssize_t n = <Py_ssize_t>(65536 // (row * item + 1))
    return n if n > 4 else 4


cdef void _count_picks(const int64_t* idx, Py_ssize_t n_seg, Py_ssize_t r0, Py_ssize_t nr,
                       uint32_t* counts) noexcept nogil:
    # How often each resample of the block picks each segment: a forward sweep over the table
    # then replaces random row reads.
    cdef Py_ssize_t r, i
    cdef const int64_t* pick
    cdef uint32_t* cr
    for r in range(nr):
        pick = idx + (r0 + r) * n_seg
        cr = counts + r * n_seg
        for i in range(n_seg):
            cr[pick[i]] += 1


# int32 tables up to this size are summed pick by pick, a column block at a time
# (cyb_gather16_i32); larger ones by counting picks and sweeping the table a cached slice at a
# time
cdef Py_ssize_t _GATHER_BYTES = 1 << 24


cdef void _bootstrap_block(_Table table, const int64_t* idx, Py_ssize_t r0, Py_ssize_t r1,
                           uint32_t* counts, void* acc) noexcept nogil:
    cdef Py_ssize_t nr = r1 - r0, n_seg = table.n_segments, row = table.row, r, j, j0, j1, k
    cdef Py_ssize_t step = _slice_rows(row, 8 if table.wide else 4)
    cdef const int64_t* src
    cdef int64_t* a
    cdef uint32_t c
    cdef const int32_t* blocks = NULL
    cdef Py_ssize_t kb
    if not table.wide and n_seg * row * 4 <= _GATHER_BYTES:
        blocks = _blocks(table)
    if blocks != NULL:
        # block outside: the block's values stay in cache for every resample of the batch
        for kb in range(row // 16):
            for r in range(nr):
                cyb_gather16_i32(blocks + kb * n_seg * 16, idx + (r0 + r) * n_seg, n_seg,
                                 <int32_t*>acc + r * row + kb * 16)
        return
    _count_picks(idx, n_seg, r0, nr, counts)
    memset(acc, 0, nr * row * (8 if table.wide else 4))
    j0 = 0
    while j0 < n_seg:
        j1 = j0 + step if j0 + step < n_seg else n_seg
        for r in range(nr):
            if not table.wide:
                cyb_sweep_count_i32(<int32_t*>table.data, row, counts + r * n_seg, j0, j1,
                                    <int32_t*>acc + r * row)
                continue
            a = <int64_t*>acc + r * row
            for j in range(j0, j1):
                c = counts[r * n_seg + j]
                if c:
                    src = <int64_t*>table.data + j * row
                    for k in range(row):
                        a[k] += c * src[k]
        j0 = j1
    memset(counts, 0, nr * n_seg * sizeof(uint32_t))


cdef void _ar_block(_Table table, const uint8_t* mask, Py_ssize_t t0, Py_ssize_t t1,
                    void* acc) noexcept nogil:
    cdef Py_ssize_t nt = t1 - t0, n_seg = table.n_segments, row = table.row, t, j, j0, j1, k
    cdef Py_ssize_t step = _slice_rows(row, 8 if table.wide else 4)
    cdef const uint8_t* m
    cdef const int64_t* src
    cdef int64_t* a
    memset(acc, 0, nt * row * (8 if table.wide else 4))
    j0 = 0
    while j0 < n_seg:
        j1 = j0 + step if j0 + step < n_seg else n_seg
        for t in range(nt):
            m = mask + (t0 + t) * n_seg
            if not table.wide:
                cyb_sweep_mask_i32(<int32_t*>table.data, row, m, j0, j1,
                                   <int32_t*>acc + t * row)
                continue
            a = <int64_t*>acc + t * row
            for j in range(j0, j1):
                if m[j]:
                    src = <int64_t*>table.data + j * row
                    for k in range(row):
                        a[k] += src[k]
        j0 = j1


# the 16 subset sums of every 4 segments, when they fit in this many bytes
cdef Py_ssize_t _SUBSET_BYTES = 1 << 28


cdef int32_t* _subset_sums(_Table table) noexcept nogil:
    """For each group of 4 segments (the last padded with zero rows), the sums of the 16
    subsets of their rows, subset s holding segment 4g+b when bit b of s is set; NULL when the
    table is int64, too large, or memory is short (the caller then adds rows one by one)."""
    cdef Py_ssize_t row = table.row, n_seg = table.n_segments
    cdef Py_ssize_t n_groups = (n_seg + 3) // 4, g, sub_i, b, k, j
    cdef int32_t* sub
    cdef int32_t* dst
    cdef const int32_t* src
    if table.wide or n_groups * 16 * row * 4 > _SUBSET_BYTES:
        return NULL
    sub = <int32_t*>PyMem_RawCalloc(n_groups * 16 * row + 1, 4)
    if sub == NULL:
        return NULL
    for g in range(n_groups):
        for sub_i in range(1, 16):
            dst = sub + (g * 16 + sub_i) * row
            # subset = its lowest bit's segment + the subset without that bit (already summed)
            b = 0
            while not (sub_i >> b) & 1:
                b += 1
            j = 4 * g + b
            if sub_i & (sub_i - 1):
                src = sub + (g * 16 + (sub_i & (sub_i - 1))) * row
                for k in range(row):
                    dst[k] = src[k]
            if j < n_seg:
                src = <int32_t*>table.data + j * row
                for k in range(row):
                    dst[k] += src[k]
    return sub


cdef void _ar_block_sub(_Table table, const int32_t* sub, const uint8_t* mask, Py_ssize_t t0,
                        Py_ssize_t t1, int32_t* acc) noexcept nogil:
    cdef Py_ssize_t nt = t1 - t0, n_seg = table.n_segments, row = table.row, t, g0, g1, j
    cdef Py_ssize_t n_full = n_seg // 4, step
    cdef const uint8_t* m
    cdef const int32_t* src
    cdef int32_t* a
    cdef Py_ssize_t k
    # about 256 KiB of subset sums per slice
    step = 262144 // (16 * row * 4 + 1)
    if step < 1:
        step = 1
    memset(acc, 0, nt * row * 4)
    g0 = 0
    while g0 < n_full:
        g1 = g0 + step if g0 + step < n_full else n_full
        for t in range(nt):
            cyb_sweep_sub_i32(sub, row, mask + (t0 + t) * n_seg, g0, g1, acc + t * row)
        g0 = g1
    # the last segments, fewer than 4: one by one
    for t in range(nt):
        m = mask + (t0 + t) * n_seg
        a = acc + t * row
        for j in range(4 * n_full, n_seg):
            if m[j]:
                src = <int32_t*>table.data + j * row
                for k in range(row):
                    a[k] += src[k]


cdef inline int64_t _acc_at(_Table table, void* acc, Py_ssize_t i) noexcept nogil:
    if table.wide:
        return (<int64_t*>acc)[i]
    return (<int32_t*>acc)[i]


def resample_sums(stats, int width, indices, Py_ssize_t n_samples, progress=None):
    """For each system in `stats` (flat int64 rows), the sum of the rows each bootstrap resample
    picks: a list with one flat int64 buffer of `n_samples * width` sums per system.
    `progress`, if given, is called with the number of resamples done so far."""
    views = [memoryview(obj).cast("B").cast("q") for obj in stats]
    cdef Py_ssize_t nsys = len(views), n_seg, s, r0, r1, i, r, k, block
    cdef const int64_t[::1] idx = memoryview(indices).cast("B").cast("q")
    cdef _Table table
    cdef uint32_t* counts = NULL
    cdef void* acc = NULL
    cdef int64_t* o
    if nsys == 0:
        return []
    n_seg = _n_rows(views[0], width, "resample_sums")
    for s in range(nsys):
        if _n_rows(views[s], width, "resample_sums") != n_seg:
            raise ValueError("every system needs the same number of segments")
    if n_samples < 0 or idx.shape[0] != n_samples * n_seg:
        raise ValueError(f"{idx.shape[0]} indices for {n_samples} resamples of {n_seg} segments")
    for i in range(idx.shape[0]):
        if idx[i] < 0 or idx[i] >= n_seg:
            raise ValueError("bootstrap index out of range")
    result = [clone(array("q"), n_samples * width, False) for _ in range(nsys)]
    if n_seg == 0 or n_samples == 0:
        return result
    table = _build_table(views, None, width, n_seg)
    block = _BLOCK if n_seg * _BLOCK <= _BLOCK_PICKS else max(1, _BLOCK_PICKS // n_seg)
    try:
        counts = <uint32_t*>PyMem_RawCalloc(n_seg * block, sizeof(uint32_t))
        acc = PyMem_RawMalloc(table.row * 8 * block)
        if counts == NULL or acc == NULL:
            raise MemoryError()
        r0 = 0
        while r0 < n_samples:
            r1 = min(r0 + block, n_samples)
            with nogil:
                _bootstrap_block(table, &idx[0], r0, r1, counts, acc)
            for s in range(nsys):
                o = <int64_t*>(<array>result[s]).data.as_voidptr
                with nogil:
                    for r in range(r1 - r0):
                        for k in range(width):
                            o[(r0 + r) * width + k] = _acc_at(table, acc,
                                                              r * table.row + s * width + k)
            r0 = r1
            if PyErr_CheckSignals() < 0:
                raise KeyboardInterrupt
            if progress is not None:
                progress(r0)
    finally:
        PyMem_RawFree(counts)
        PyMem_RawFree(acc)
    return result


def bootstrap_sums(Generator generator, stats, int width, Py_ssize_t n_samples, progress=None):
    """`resample_sums(stats, width, generator.bootstrap_indices(n_samples, n_segments),
    n_samples, progress)`: the same sums, the generator left in the same state, but the indices
    drawn a block of resamples at a time into a small buffer (all of them at once fill 8 bytes
    x n_samples x n_segments, a fresh 24 MB for 1000 resamples of 3000 segments, which costs
    more to allocate and touch than the draws). No system: nothing is drawn."""
    views = [memoryview(obj).cast("B").cast("q") for obj in stats]
    cdef Py_ssize_t nsys = len(views), n_seg, s, r0, r1, r, k, block
    cdef _Table table
    cdef int64_t* idx = NULL
    cdef uint32_t* counts = NULL
    cdef void* acc = NULL
    cdef int64_t* o
    if nsys == 0:
        return []
    n_seg = _n_rows(views[0], width, "bootstrap_sums")
    for s in range(nsys):
        if _n_rows(views[s], width, "bootstrap_sums") != n_seg:
            raise ValueError("every system needs the same number of segments")
    _check_shape(n_samples, n_seg, "bootstrap_sums")
    if n_seg > 0xffffffff:
        raise ValueError("bootstrap_sums: more than 2**32 segments")
    result = [clone(array("q"), n_samples * width, False) for _ in range(nsys)]
    if n_samples == 0:
        return result
    table = _build_table(views, None, width, n_seg)
    block = _BLOCK if n_seg * _BLOCK <= _BLOCK_PICKS else max(1, _BLOCK_PICKS // n_seg)
    try:
        idx = <int64_t*>PyMem_RawMalloc(n_seg * block * sizeof(int64_t))
        counts = <uint32_t*>PyMem_RawCalloc(n_seg * block, sizeof(uint32_t))
        acc = PyMem_RawMalloc(table.row * 8 * block)
        if idx == NULL or counts == NULL or acc == NULL:
            raise MemoryError()
        r0 = 0
        while r0 < n_samples:
            r1 = min(r0 + block, n_samples)
            with nogil:
                _draw_indices(&generator.g, idx, (r1 - r0) * n_seg, n_seg)
                _bootstrap_block(table, idx, 0, r1 - r0, counts, acc)
            for s in range(nsys):
                o = <int64_t*>(<array>result[s]).data.as_voidptr
                with nogil:
                    for r in range(r1 - r0):
                        for k in range(width):
                            o[(r0 + r) * width + k] = _acc_at(table, acc,
                                                              r * table.row + s * width + k)
            r0 = r1
            if PyErr_CheckSignals() < 0:
                raise KeyboardInterrupt
            if progress is not None:
                progress(r0)
    finally:
        PyMem_RawFree(idx)
        PyMem_RawFree(counts)
        PyMem_RawFree(acc)
    return result


def ar_sums(baseline, systems, int width, masks, Py_ssize_t n_trials, progress=None):
    """For each system, the statistics of the two pseudo-systems of every trial: the first takes
    the baseline's row where the mask is 1 and the system's elsewhere, the second the opposite.
    A list of (first, second) flat int64 buffers of `n_trials * width` sums.
    `progress`, if given, is called with the number of trials done so far."""
    cdef const int64_t[::1] bl = memoryview(baseline).cast("B").cast("q")
    views = [memoryview(obj).cast("B").cast("q") for obj in systems]
    cdef const uint8_t[::1] mask = memoryview(masks).cast("B")
    cdef Py_ssize_t nsys = len(views), n_seg, s, j, k, t0, t1, t
    cdef const int64_t[::1] v
    cdef _Table table
    cdef void* acc = NULL
    cdef int32_t* sub = NULL
    cdef int64_t* first
    cdef int64_t* second
    cdef int64_t x
    cdef array bl_total, sys_total
    n_seg = _n_rows(bl, width, "ar_sums")
    for s in range(nsys):
        if _n_rows(views[s], width, "ar_sums") != n_seg:
            raise ValueError(f"statistics have {views[s].shape[0] // width} segments, "
                             f"expected {n_seg}")
    if n_trials < 0 or mask.shape[0] != n_trials * n_seg:
        raise ValueError(f"{mask.shape[0]} mask entries for {n_trials} trials of "
                         f"{n_seg} segments")
    result = [(clone(array("q"), n_trials * width, False),
               clone(array("q"), n_trials * width, False)) for _ in range(nsys)]
    if nsys == 0 or n_trials == 0:
        return result
    # sums over the swapped segments of (system - baseline): the first pseudo-system is the
    # system minus that, the second the baseline plus it
    table = _build_table(views, bl, width, n_seg)
    bl_total = array("q", [0]) * width
    sys_total = array("q", [0]) * (nsys * width)
    for j in range(n_seg):
        for k in range(width):
            bl_total.data.as_longlongs[k] += bl[j * width + k]
    for s in range(nsys):
        v = views[s]
        for j in range(n_seg):
            for k in range(width):
                sys_total.data.as_longlongs[s * width + k] += v[j * width + k]
    try:
        acc = PyMem_RawMalloc(table.row * 8 * _BLOCK + 8)
        if acc == NULL:
            raise MemoryError()
        with nogil:
            sub = _subset_sums(table)
        t0 = 0
        while t0 < n_trials:
            t1 = min(t0 + _BLOCK, n_trials)
            with nogil:
                if sub != NULL:
                    _ar_block_sub(table, sub, &mask[0], t0, t1, <int32_t*>acc)
                else:
                    _ar_block(table, &mask[0], t0, t1, acc)
            for s in range(nsys):
                first = <int64_t*>(<array>result[s][0]).data.as_voidptr
                second = <int64_t*>(<array>result[s][1]).data.as_voidptr
                with nogil:
                    for t in range(t1 - t0):
                        for k in range(width):
                            x = _acc_at(table, acc, t * table.row + s * width + k)
                            first[(t0 + t) * width + k] = \
                                sys_total.data.as_longlongs[s * width + k] - x
                            second[(t0 + t) * width + k] = bl_total.data.as_longlongs[k] + x
            t0 = t1
            if PyErr_CheckSignals() < 0:
                raise KeyboardInterrupt
            if progress is not None:
                progress(t0)
    finally:
        PyMem_RawFree(acc)
        PyMem_RawFree(sub)
    return result


# ---------------------------------------------------------------------------------------------
# BLEU's compute_bleu on summed rows, with numpy's float32 or int64 scalar semantics

cdef inline double _f32(double x) noexcept nogil:
    # One float32 operation done in double then rounded: exact for + - * / of float32 operands
    # (53 >= 2 * 24 + 2 bits), so it equals numpy's float32 arithmetic.
    return <double>(<float>x)


cdef double _bleu_row(const int64_t* st, int N, int method, double sv, bint eff, bint f32,
                      double* prec, double* logs) noexcept nogil:
    """sacreBLEU's BLEU.compute_bleu on one row, operation for operation. With f32 the counts
    are numpy float32 scalars (`100. * c / t` and the smoothing steps round to float32); else
    int64 scalars (add-k's fractional value is truncated when stored back, as numpy does)."""
    cdef int64_t sys_len = st[0], ref_len = st[1]
    cdef double bp = 1.0, smooth_mteval = 1.0, c, t
    cdef int n, eff_order = N
    cdef bint any_match = False
    cdef double correct[256]
    cdef double total[256]
    for n in range(N):
        if f32:
            correct[n] = _f32(<double>st[2 + n])
            total[n] = _f32(<double>st[2 + N + n])
        else:
            correct[n] = <double>st[2 + n]
            total[n] = <double>st[2 + N + n]
    if sys_len < ref_len:
        bp = exp(1.0 - <double>ref_len / <double>sys_len) if sys_len > 0 else 0.0
    for n in range(N):
        prec[n] = 0.0
        if correct[n] != 0.0:
            any_match = True
    if not any_match:
        return 0.0
    for n in range(1, N + 1):
        if method == SMOOTH_ADDK and n > 1:
            if f32:
                correct[n - 1] = _f32(correct[n - 1] + _f32(sv))
                total[n - 1] = _f32(total[n - 1] + _f32(sv))
            else:
                correct[n - 1] = <double>(<int64_t>(correct[n - 1] + sv))
                total[n - 1] = <double>(<int64_t>(total[n - 1] + sv))
        t = total[n - 1]
        if t == 0.0:
            break
        if eff:
            eff_order = n
        c = correct[n - 1]
        if c == 0.0:
            if method == SMOOTH_EXP:
                smooth_mteval *= 2
                if f32:
                    prec[n - 1] = _f32(100.0 / _f32(_f32(smooth_mteval) * t))
                else:
                    prec[n - 1] = 100.0 / (smooth_mteval * t)
            elif method == SMOOTH_FLOOR:
                if f32:
                    prec[n - 1] = _f32(_f32(100.0 * sv) / t)
                else:
                    prec[n - 1] = 100.0 * sv / t
        else:
            if f32:
                prec[n - 1] = _f32(_f32(100.0 * c) / t)
            else:
                prec[n - 1] = 100.0 * c / t
    for n in range(eff_order):
        logs[n] = -9999999999.0 if prec[n] == 0.0 else log(prec[n])
    return bp * exp(builtin_sum(logs, eff_order) / eff_order)


def bleu_scores(sums, int max_order, str smooth_method, smooth_value, bint effective_order,
                str dtype):
    """BLEU of every summed row [hyp_len, ref_len, correct_1..N, total_1..N], computed by the
    metric's own arithmetic on numpy values of `dtype` ('float32': the bootstrap's rows; 'int64':
    approximate randomization's), as sacreBLEU does. Returns array('d')."""
    cdef const int64_t[::1] st = memoryview(sums).cast("B").cast("q")
    cdef int width = 2 + 2 * max_order, method
    cdef Py_ssize_t n_rows, i
    cdef double sv = 0.0
    cdef bint f32
    cdef double prec[256]
    cdef double logs[256]
    cdef array out
    cdef double* o
    if dtype not in ("float32", "int64"):
        raise ValueError(f"dtype must be 'float32' or 'int64', not {dtype!r}")
    if smooth_method not in _SMOOTHERS:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}")
    if max_order < 1 or max_order > 256:
        raise ValueError("max_order must be in 1..256")
    f32 = dtype == "float32"
    method = _SMOOTHERS[smooth_method]
    if smooth_value is None:
        smooth_value = _SMOOTH_DEFAULTS[smooth_method]
    if smooth_value is not None:
        sv = smooth_value
    n_rows = _n_rows(st, width, "bleu_scores")
    out = clone(array("d"), n_rows, False)
    o = out.data.as_doubles
    if n_rows == 0:
        return out
    with nogil:
        for i in range(n_rows):
            o[i] = _bleu_row(&st[i * width], max_order, method, sv, effective_order, f32,
                             prec, logs)
    return out


# ---------------------------------------------------------------------------------------------
# numpy's float64 mean

cdef double _pairwise(const double* a, Py_ssize_t n) noexcept nogil:
    cdef double r[8]
    cdef double res
    cdef Py_ssize_t i, n2
    cdef int k
    if n < 8:
        res = -0.0
        for i in range(n):
            res += a[i]
        return res
    if n <= 128:
        for k in range(8):
            r[k] = a[k]
        i = 8
        while i < n - n % 8:
            for k in range(8):
                r[k] += a[i + k]
            i += 8
        res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < n:
            res += a[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(a, n2) + _pairwise(a + n2, n - n2)


def pairwise_mean(values):
    """numpy's mean of a float64 array (pairwise summation, then one division)."""
    cdef array data = array("d", values)
    cdef Py_ssize_t n = len(data)
    if n == 0:
        raise ValueError("pairwise_mean of an empty sequence")
    return _pairwise(data.data.as_doubles, n) / <double>n
