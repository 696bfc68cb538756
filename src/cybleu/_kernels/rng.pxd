# numpy's random streams (floor 0), as inline C for any kernel that must draw what numpy draws:
# - PCG64 (np.random.default_rng's bit generator): the 128-bit LCG stepped before each output,
#   the XSL-RR output, the upper half of a 64-bit output kept for the next 32-bit request, and
#   Lemire's bounded 32-bit draws (Generator.integers / choice below 2**32);
# - MT19937 (the legacy RandomState, np.random's global functions): numpy's mt19937_gen and
#   tempering, and RandomState.randint's masked rejection of 32-bit outputs.
# The seeding stays numpy's own: a caller reads the starting state off numpy
# (`np.random.PCG64(seed).state`, `np.random.get_state()`) and writes the end state back.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from *:
    """
    typedef struct { uint64_t hi, lo; } cyb_rng_u128;
    typedef struct { cyb_rng_u128 state, inc; int has32; uint32_t u32; } cyb_rng_pcg64;

    static inline cyb_rng_u128 cyb_rng_mul_add(cyb_rng_u128 a, cyb_rng_u128 m, cyb_rng_u128 c) {
        cyb_rng_u128 r;
    #if defined(__SIZEOF_INT128__)
        unsigned __int128 x = ((unsigned __int128)a.hi << 64) | a.lo;
        unsigned __int128 y = ((unsigned __int128)m.hi << 64) | m.lo;
        unsigned __int128 z = ((unsigned __int128)c.hi << 64) | c.lo;
        x = x * y + z;
        r.hi = (uint64_t)(x >> 64);
        r.lo = (uint64_t)x;
    #else
        uint64_t a0 = (uint32_t)a.lo, a1 = a.lo >> 32, b0 = (uint32_t)m.lo, b1 = m.lo >> 32;
        uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
        r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) + a.lo * m.hi + a.hi * m.lo;
        r.lo = a.lo * m.lo;
        r.lo += c.lo;
        r.hi += c.hi + (r.lo < c.lo);
    #endif
        return r;
    }

    static inline uint64_t cyb_rng_pcg64_next64(cyb_rng_pcg64* g) {
        static const cyb_rng_u128 mult = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
        uint64_t x;
        unsigned rot;
        g->state = cyb_rng_mul_add(g->state, mult, g->inc);
        x = g->state.hi ^ g->state.lo;
        rot = (unsigned)(g->state.hi >> 58);
        return (x >> rot) | (x << ((64u - rot) & 63u));
    }

    static inline uint32_t cyb_rng_pcg64_next32(cyb_rng_pcg64* g) {
        uint64_t n;
        if (g->has32) {
            g->has32 = 0;
            return g->u32;
        }
        n = cyb_rng_pcg64_next64(g);
        g->has32 = 1;
        g->u32 = (uint32_t)(n >> 32);
        return (uint32_t)n;
    }

    /* Generator's draw in [0, rng] for rng < 2**32 - 1 (Lemire, with numpy's rejection) */
    static inline uint32_t cyb_rng_pcg64_bounded(cyb_rng_pcg64* g, uint32_t rng) {
        const uint32_t excl = rng + 1;
        uint64_t m = (uint64_t)cyb_rng_pcg64_next32(g) * excl;
        uint32_t left = (uint32_t)m;
        if (left < excl) {
            const uint32_t threshold = (uint32_t)(0xFFFFFFFFUL - rng) % excl;
            while (left < threshold) {
                m = (uint64_t)cyb_rng_pcg64_next32(g) * excl;
                left = (uint32_t)m;
            }
        }
        return (uint32_t)(m >> 32);
    }

    /* The next 2 * CYB_RNG_HALF 64-bit outputs into buf, from two stretches of the stream
       stepped side by side (the second starts CYB_RNG_HALF steps on: state * jump_mul +
       jump_add), so that the two multiply chains overlap; g ends after them all. */
    #define CYB_RNG_HALF 1024
    static void cyb_rng_pcg64_fill(cyb_rng_pcg64* g, cyb_rng_u128 jump_mul,
                                   cyb_rng_u128 jump_add, uint64_t* buf) {
        static const cyb_rng_u128 mult = {0x2360ED051FC65DA4ULL, 0x4385DF649FCCF645ULL};
        cyb_rng_u128 a = g->state, b = cyb_rng_mul_add(g->state, jump_mul, jump_add);
        int i;
        for (i = 0; i < CYB_RNG_HALF; i++) {
            uint64_t x, y;
            unsigned ra, rb;
            a = cyb_rng_mul_add(a, mult, g->inc);
            b = cyb_rng_mul_add(b, mult, g->inc);
            x = a.hi ^ a.lo;
            ra = (unsigned)(a.hi >> 58);
            y = b.hi ^ b.lo;
            rb = (unsigned)(b.hi >> 58);
            buf[i] = (x >> ra) | (x << ((64u - ra) & 63u));
            buf[CYB_RNG_HALF + i] = (y >> rb) | (y << ((64u - rb) & 63u));
        }
        g->state = b;
    }

    /* `need` draws of Generator.choice(rng + 1) on a fresh generator (no half kept): nothing
       drawn for one choice. The 64-bit outputs come from cyb_rng_pcg64_fill (buf, with *used
       of its 2 * CYB_RNG_HALF taken; start with *used = 2 * CYB_RNG_HALF), low half first. */
    static void cyb_rng_pcg64_choice(cyb_rng_pcg64* g, cyb_rng_u128 jump_mul,
                                     cyb_rng_u128 jump_add, uint64_t* buf, int* used,
                                     int* half, uint32_t rng, uint32_t* out, Py_ssize_t need) {
        Py_ssize_t k = 0;
        const uint32_t excl = rng + 1;
        const uint32_t threshold = rng == 0xFFFFFFFFU ? 0 : (uint32_t)(0xFFFFFFFFUL - rng) % excl;
        int u = *used, h = *half;
        if (rng == 0) {
            for (k = 0; k < need; k++) out[k] = 0;
            return;
        }
        while (k < need) {
            uint32_t r;
            uint64_t m;
            if (h == 0 && u == 2 * CYB_RNG_HALF) {
                cyb_rng_pcg64_fill(g, jump_mul, jump_add, buf);
                u = 0;
            }
            /* both halves of each output at once while neither is rejected (the usual case:
               a rejection has probability (rng + 1) / 2**32 or less) */
            if (h == 0 && rng != 0xFFFFFFFFU) {
                while (k + 1 < need && u < 2 * CYB_RNG_HALF) {
                    const uint64_t z = buf[u];
                    const uint64_t m0 = (uint64_t)(uint32_t)z * excl, m1 = (z >> 32) * excl;
                    if ((uint32_t)m0 < threshold || (uint32_t)m1 < threshold) break;
                    out[k] = (uint32_t)(m0 >> 32);
                    out[k + 1] = (uint32_t)(m1 >> 32);
                    k += 2;
                    u++;
                }
                if (k == need) break;
                if (u == 2 * CYB_RNG_HALF) continue;
            }
            r = h ? (uint32_t)(buf[u - 1] >> 32) : (uint32_t)buf[u++];
            h = !h;
            if (rng == 0xFFFFFFFFU) {
                out[k++] = r;
                continue;
            }
            m = (uint64_t)r * excl;
            if ((uint32_t)m < threshold) continue;   /* numpy draws again */
            out[k++] = (uint32_t)(m >> 32);
        }
        *used = u;
        *half = h;
    }

    /* MT19937 on a key of 624 words: numpy's mt19937_gen */
    static void cyb_rng_mt_twist(uint32_t* key) {
        int i;
        uint32_t y;
        for (i = 0; i < 624 - 397; i++) {
            y = (key[i] & 0x80000000U) | (key[i + 1] & 0x7fffffffU);
            key[i] = key[i + 397] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
        }
        for (; i < 623; i++) {
            y = (key[i] & 0x80000000U) | (key[i + 1] & 0x7fffffffU);
            key[i] = key[i + 397 - 624] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
        }
        y = (key[623] & 0x80000000U) | (key[0] & 0x7fffffffU);
        key[623] = key[396] ^ (y >> 1) ^ ((0U - (y & 1U)) & 0x9908b0dfU);
    }

    /* the tempered outputs of the whole key */
    static void cyb_rng_mt_temper(const uint32_t* key, uint32_t* out) {
        int i;
        for (i = 0; i < 624; i++) {
            uint32_t y = key[i];
            y ^= (y >> 11);
            y ^= (y << 7) & 0x9d2c5680U;
            y ^= (y << 15) & 0xefc60000U;
            y ^= (y >> 18);
            out[i] = y;
        }
    }

    /* `need` draws of RandomState.randint(0, rng + 1) (rng < 2**32 - 1: masked rejection of
       32-bit outputs; rng == 2**32 - 1: the outputs themselves; rng == 0: nothing drawn).
       tempered holds the tempered key; *pos is the next output, as in numpy's state. Stops
       right after the last draw. */
    static void cyb_rng_mt_randint(uint32_t* key, uint32_t* tempered, int* pos, uint32_t rng,
                                   uint32_t* out, Py_ssize_t need) {
        uint32_t mask = rng;
        Py_ssize_t k = 0;
        int p = *pos;
        if (rng == 0) {
            for (k = 0; k < need; k++) out[k] = 0;
            return;
        }
        mask |= mask >> 1; mask |= mask >> 2; mask |= mask >> 4; mask |= mask >> 8;
        mask |= mask >> 16;
        while (k < need) {
            if (p == 624) {
                cyb_rng_mt_twist(key);
                cyb_rng_mt_temper(key, tempered);
                p = 0;
            }
            if (need - k >= 624 - p) {
                /* every output left in the key is needed at most: no check of k */
                for (; p < 624; p++) {
                    uint32_t v = tempered[p] & mask;
                    out[k] = v;
                    k += (v <= rng);
                }
            } else {
                while (p < 624 && k < need) {
                    uint32_t v = tempered[p++] & mask;
                    out[k] = v;
                    k += (v <= rng);
                }
            }
        }
        *pos = p;
    }
    """
    ctypedef struct cyb_rng_u128:
        uint64_t hi
        uint64_t lo
    ctypedef struct cyb_rng_pcg64:
        cyb_rng_u128 state
        cyb_rng_u128 inc
        int has32
        uint32_t u32
    enum: RNG_HALF "CYB_RNG_HALF"
    void pcg64_choice "cyb_rng_pcg64_choice"(cyb_rng_pcg64* g, cyb_rng_u128 jump_mul,
                                             cyb_rng_u128 jump_add, uint64_t* buf, int* used,
                                             int* half, uint32_t rng, uint32_t* out,
                                             Py_ssize_t need) noexcept nogil
    void mt_temper "cyb_rng_mt_temper"(const uint32_t* key, uint32_t* out) noexcept nogil
    void mt_randint "cyb_rng_mt_randint"(uint32_t* key, uint32_t* tempered, int* pos,
                                         uint32_t rng, uint32_t* out,
                                         Py_ssize_t need) noexcept nogil
