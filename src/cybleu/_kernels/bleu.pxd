# BLEU's float path (floor 2): a score from one row of integer statistics.
from libc.stdint cimport int64_t


# Valid for finite smooth values in (0, 1e300] and max_order <= 256 (the callers check); `logs`
# is scratch space of max_order doubles.
cdef double bleu_from_stats(const int64_t* st, int max_order, int method, double smooth_value,
                            bint effective_order, double* logs) noexcept nogil

# sum() of a list of floats as the running interpreter computes it (3.12 made it compensated)
cdef double builtin_sum(const double* x, int n) noexcept nogil
