"""Sentence scores for selection and filtering: best-of-n and threshold filters.

`best_of` is what Mozilla's `bestbleu.py` does in a Python loop (for each segment, the candidate
with the highest sentence score, the first of equals), with the scores from the metric's batch
kernel (`sentence_scores`, bit for bit `sentence_score` of each pair). The engine adapters and the
command line (`cybleu best-of`, `cybleu filter`) call the same functions on their slices.
"""
from collections import namedtuple

__all__ = ["BestOf", "best_of", "sentence_metric", "sentence_scores", "CHUNK_SEGMENTS"]

# segments scored per kernel call: bounds the memory of the repeated references and the scores
CHUNK_SEGMENTS = 1 << 14

BestOf = namedtuple("BestOf", "index score")
BestOf.__doc__ = """best_of's result: `index` (int64 array: the best candidate's position among
the segment's k, 0-based) and `score` (float64 array: its sentence score)."""

def sentence_metric(metric="bleu", **kwargs):
    """The metric object sentence scores come from: `metric` itself when it is a metric object,
    else a new one of that registered name (`cybleu.metrics.names()`), made with its class's
    SENTENCE_DEFAULTS (BLEU's effective order, as sacreBLEU's sentence_bleu) and `kwargs` (the
    class's arguments)."""
    from .. import metrics
    if isinstance(metric, str):
        try:
            cls = metrics.get(metric)
        except KeyError:
            raise ValueError(f"unknown metric {metric!r}; choose one of "
                             f"{', '.join(metrics.names(plugins=True))}, or pass a cybleu metric "
                             "object") from None
        return metrics.make(metric, **{**getattr(cls, "SENTENCE_DEFAULTS", {}), **kwargs})
    if kwargs:
        raise TypeError("give either a metric object or the metric's arguments, not both")
    if not isinstance(metric, metrics.Metric):
        raise TypeError(f"metric must be a registered name ({', '.join(metrics.names())}) or a "
                        f"cybleu metric object (a cybleu.metrics.Metric), not "
                        f"{type(metric).__name__}")
    return metric


def lower_is_better(metric):
    """True for an error rate (the metric's `higher_is_better` is False): its best candidate has
    the lowest score."""
    return not getattr(metric, "higher_is_better", True)


def sentence_scores(metric, hyps, streams, n_threads=1):
    """float64 array: the sentence score of each hypothesis against its segment's references,
    bit for bit `metric.sentence_score(hyp, refs).score` of each (a metric whose batch takes
    threads may share the work among n_threads; the results do not change)."""
    selection = getattr(metric, "_selection_scores", None)
    if selection is None:
        return metric.sentence_scores(hyps, streams)
    return selection(hyps, streams, n_threads)


def _flat_candidates(candidates, k):
    """Candidates as one flat list (segment i's at i*k ... i*k+k-1) and the number of segments."""
    if isinstance(candidates, str):
        raise TypeError("candidates should be a sequence of strings (k per segment, one after "
                        "the other) or of k-string sequences, not a single str")
    candidates = candidates if isinstance(candidates, list) else list(candidates)
    if candidates and not isinstance(candidates[0], str) and candidates[0] is not None:
        flat = []
        for i, group in enumerate(candidates):
            if isinstance(group, str) or len(group) != k:
                raise ValueError(f"best_of: segment {i} has "
                                 f"{1 if isinstance(group, str) else len(group)} candidates, "
                                 f"not k={k}")
            flat.extend(group)
        return flat, len(candidates)
    if len(candidates) % k:
        raise ValueError(f"best_of: {len(candidates)} candidates is not a multiple of k={k} "
                         f"(the last segment has {len(candidates) % k})")
    return candidates, len(candidates) // k


def _check_k(k):
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive int, not {k!r}")


def best_of(candidates, references, k, metric="bleu", n_threads=1, **metric_kwargs):
    """The best of k candidates per segment by sentence score.

    :param candidates: n*k strings, segment i's candidates at i*k to i*k+k-1 (the layout of an
        n-best file), or n sequences of k strings.
    :param references: reference streams, as for `corpus_bleu`: [refs] or [refs_a, refs_b, ...],
        each with n lines (None where a stream has no reference for a segment).
    :param k: the number of candidates per segment.
    :param metric: a registered name ("bleu": sentence BLEU with effective order, sacreBLEU's
        sentence_bleu; `cybleu.metrics.names()` lists them) or a cybleu metric object with its
        settings.
    :param n_threads: threads the metric's batch kernel shares the segments among, when it takes
        them (BLEU's; the results do not change).
    :param metric_kwargs: the metric class's arguments, with a metric name.
    :returns: BestOf(index, score): numpy arrays of n entries: the position (0..k-1) of the
        candidate with the best score (the highest, or the lowest for a metric where lower is
        better), the first one of equal scores, as Python's max (min) does; and that score, bit
        for bit the metric's `sentence_score`.
    :raises ValueError: when the candidates are not k per segment, or the streams' lengths differ
        from the number of segments; TypeError for lines that are not strings.

    >>> import cybleu
    >>> best = cybleu.best_of(["a cat", "the cat sat", "the dog"], [["the cat sat"]], k=3)
    >>> int(best.index[0]), float(best.score[0])
    (1, 100.00000000000004)
    """
    import numpy as np
    _check_k(k)
    metric = sentence_metric(metric, **metric_kwargs)
    flat, n = _flat_candidates(candidates, k)
    from ..metrics.base import _check_streams
    _check_streams(references, n, type(metric).__name__)
    index = np.empty(n, dtype=np.int64)
    score = np.empty(n, dtype=np.float64)
    low = lower_is_better(metric)
    for start in range(0, n, CHUNK_SEGMENTS):
        stop = min(n, start + CHUNK_SEGMENTS)
        chunk = [stream[start:stop] for stream in references]
        grid = _grid(metric, flat[start * k:stop * k], chunk, start, k, n_threads)
        if grid is None:
            streams = [[ref for ref in stream[start:stop] for _ in range(k)]
                       for stream in references]
            try:
                scores = sentence_scores(metric, flat[start * k:stop * k], streams, n_threads)
            except (TypeError, ValueError) as err:
                raise _renumbered(err, start, k) from err
            grid = scores.reshape(stop - start, k)
        best = grid.argmin(axis=1) if low else grid.argmax(axis=1)
        index[start:stop] = best
        score[start:stop] = grid[np.arange(stop - start), best]
    return BestOf(index, score)


def _grid(metric, candidates, streams, start, k, n_threads):
    """The (segments, k) scores of a chunk from the metric's grouped path (each segment's
    references prepared once for its k candidates), or None."""
    grouped = getattr(metric, "_candidate_grid", None)
    if grouped is None:
        return None
    try:
        return grouped(candidates, streams, k, n_threads)
    except (TypeError, ValueError) as err:
        raise _renumbered(err, start, k, getattr(err, "candidate", None)) from err


def _renumbered(err, start, k, column=None):
    """The error with the kernel's flat position turned into segment and candidate."""
    import re
    text = str(err)

    def repl(found):
        i = int(found.group(2))
        flat = (i + start) * k + column if column is not None else i + start * k
        return f"segment {flat // k} candidate {flat % k}"
    new = re.sub(r"\b(hypothesis|segment) (\d+)", repl, text, count=1)
    return type(err)(new)
