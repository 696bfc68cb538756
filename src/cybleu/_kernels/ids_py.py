"""Pure-Python twin of `ids.pyx`: BLEU statistics of token-ID sequences (the rows of `idrows`),
counted with Counters over tuples. Same public names as `ids.pyx`.
"""
from collections import Counter

from .bleu_py import bleu_scores_from_stats
from .corpus_py import _closest_ref_len, _ngrams

__all__ = ["ids_segment_stats", "ids_batch_stats", "ids_pairwise_scores", "ids_self_stats"]


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
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order, n_threads = \
        check_layout(hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets, max_order,
                     n_threads)
    ref_offsets = ref_offsets.tolist()
    nseg = hyp_offsets.size - 1
    out = np.zeros((nseg, 2 + 2 * max_order), dtype=np.int64)
    for s in range(nseg):
        # converted a segment at a time: one tolist() of a whole batch would hold off Ctrl-C
        hyp = hyp_flat[hyp_offsets[s]:hyp_offsets[s + 1]].tolist()
        refs = [ref_flat[ref_offsets[r]:ref_offsets[r + 1]].tolist()
                for r in range(seg_ref_offsets[s], seg_ref_offsets[s + 1])]
        if hyp and not refs:
            raise no_reference_error(s)
        ref_ngrams = Counter()
        for ref in refs:
            ref_ngrams |= _ngrams(ref, max_order)
        correct = [0] * max_order
        total = [0] * max_order
        for gram, count in _ngrams(hyp, max_order).items():
            total[len(gram) - 1] += count
            correct[len(gram) - 1] += min(count, ref_ngrams[gram])
        out[s] = [len(hyp), _closest_ref_len(len(hyp), [len(r) for r in refs])] + correct + total
    return out


def read_batch(x, what, pad_id=None, eos_id=None):
    """(flat, offsets) of the batch `x`: `idrows_py.read_batch` (imported on first use, as numpy
    is)."""
    from . import idrows_py
    return idrows_py.read_batch(x, what, pad_id, eos_id)


def read_references(refs, n_hyps, pad_id=None, eos_id=None):
    """(flat, offsets, groups) of the references of n_hyps hypotheses:
    `idrows_py.read_references`."""
    from . import idrows_py
    return idrows_py.read_references(refs, n_hyps, pad_id, eos_id)


def ids_batch_stats(hyps, refs, max_order=4, pad_id=None, eos_id=None, n_threads=1):
    """Per-segment statistics (as ids_segment_stats gives them) of a batch in any form
    `cybleu.ids` takes: hypotheses as read_batch reads them, references as read_references does,
    pad_id/eos_id trimmed; the errors are theirs. Lists of rows are read by the threads that count
    them, a step at a time, so with several threads the reading is split too."""
    import numpy as np
    from .._scoring.bleu import check_max_order
    from .ragged import check_threads, no_reference_error
    max_order = check_max_order(max_order)
    check_threads(n_threads)
    hyp_flat, hyp_offsets = read_batch(hyps, "hyps", pad_id, eos_id)
    ref_flat, ref_offsets, groups = read_references(refs, hyp_offsets.size - 1, pad_id, eos_id)
    missing = np.flatnonzero((np.diff(hyp_offsets) > 0) & (np.diff(groups) == 0))
    if missing.size:
        raise no_reference_error(int(missing[0]))
    return ids_segment_stats(hyp_flat, hyp_offsets, ref_flat, ref_offsets, groups, max_order)


def _ids_layout(segments):
    """ids_segment_stats' arrays for [(hyp, [ref, ...]), ...] (lists of IDs)."""
    hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets = [], [0], [], [0], [0]
    for hyp, refs in segments:
        hyp_flat += hyp
        hyp_offsets.append(len(hyp_flat))
        for ref in refs:
            ref_flat += ref
            ref_offsets.append(len(ref_flat))
        seg_ref_offsets.append(len(ref_offsets) - 1)
    return hyp_flat, hyp_offsets, ref_flat, ref_offsets, seg_ref_offsets


def ids_pairwise_scores(hyp_flat, hyp_offsets, ref_flat, ref_offsets, max_order=4,
                        smooth_method="exp", smooth_value=None, effective_order=True,
                        n_threads=1):
    """float64 array (n_hyps, n_refs): sentence BLEU of each hypothesis against each reference
    alone, equal to bleu_scores_from_stats of ids_segment_stats for that single pair. Every
    distinct n-gram of the batch is interned once; the references are split across n_threads."""
    import numpy as np
    from .ragged import check_scoring, check_sentences
    check_scoring(max_order, smooth_method, smooth_value, n_threads)
    hyp_flat, hyp_offsets = check_sentences(hyp_flat, hyp_offsets, "hyp")
    ref_flat, ref_offsets = check_sentences(ref_flat, ref_offsets, "ref")
    hyps = [hyp_flat[a:b].tolist() for a, b in zip(hyp_offsets[:-1], hyp_offsets[1:])]
    refs = [ref_flat[a:b].tolist() for a, b in zip(ref_offsets[:-1], ref_offsets[1:])]
    if not hyps or not refs:
        return np.zeros((len(hyps), len(refs)), dtype=np.float64)
    rows = ids_segment_stats(*_ids_layout([(h, [r]) for h in hyps for r in refs]), max_order)
    scores = bleu_scores_from_stats(rows.reshape(-1), max_order, smooth_method, smooth_value,
                                    effective_order)
    return np.array(scores, dtype=np.float64).reshape(len(hyps), len(refs))


def ids_self_stats(flat, offsets, max_order=4, n_threads=1):
    """int64 array (n, 2 + 2 * max_order): the statistics of each sentence against all the
    others pooled as its references (as ids_segment_stats with every other sentence listed as a
    reference). The maximum count of an n-gram over the others comes from its two largest
    counts and the owner of the largest; the closest length from the sorted lengths."""
    from .ragged import check_scoring, check_sentences
    check_scoring(max_order, "none", None, n_threads)
    flat, offsets = check_sentences(flat, offsets, "")
    sents = [flat[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]
    return ids_segment_stats(*_ids_layout([(s, sents[:i] + sents[i + 1:])
                                           for i, s in enumerate(sents)]), max_order)
