"""High-volume work on integer statistics: what the engine adapters (cybleu.dask, cybleu.ray,
cybleu.spark) and the `best-of` / `filter` commands share.

    partition   a slice of a corpus -> one vector of integer statistics; a sum of them -> the score
    select      sentence scores for best-of-n and threshold filters (`cybleu.best_of`)
    textparts   parallel text files cut into aligned line ranges, for the engines' readers
    cli         `cybleu best-of` and `cybleu filter`, streamed a slice at a time

Nothing here tokenizes or counts: the metrics' kernels do, through the metric objects.
"""
