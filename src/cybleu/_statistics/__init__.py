"""Segment statistics as the machinery handles them, for every metric alike.

    columns      a metric's statistic columns and how each adds: integers, floats that add
                 exactly (any order, any partitioning), floats added in order (sacreBLEU's)
    resampling   statistics packed for resampling, sacreBLEU's seeded draws, and the score of
                 every resample (the bootstrap of `Metric.corpus_score` and `cybleu.significance`)

A floor between the kernels (`_kernels`, which it drives) and the metrics and significance tests
(which use it); nothing here names a metric: a metric says what its columns are and how its score
comes from their sums.
"""
