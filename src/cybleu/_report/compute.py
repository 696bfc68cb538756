"""Every number the report shows, computed once in Python by the library's own functions.

The data's path, per test set:

- each metric caches the references and gives one row of integer statistics per segment and
  system (`Metric._extract_corpus_statistics`, the compiled kernels; BLEU's flat rows);
- corpus scores: the metric's `_compute_score_from_stats` on the summed rows
  (`significance._score`, sacreBLEU's `_aggregate_and_compute`);
- intervals, p-values against the baseline and for every pair: `significance.bootstrap_all_pairs`
  (the paired bootstrap of every pair from one set of resamples: sacreBLEU's numbers for its
  seed) or `significance.all_pairs(test="ar")`, then `significance.holm`;
- sentence scores from the same rows: the metric's `segment_scores` (BLEU's with effective order,
  as `sentence_bleu`, compiled);
- buckets: the metric's `_compute_score_from_stats` on the rows of each bucket, summed;
- each metric's own views (bands, anatomy, how a segment's statistics read): `_report_views` and
  `_report_detail`, data the page draws by view, never by metric;
- the n-gram views (`ngrams.py`): the tokens and clipped matches of the metric whose n-grams they
  show (`_report_ngrams`), checked against its own segment statistics before anything is shown.

External per-segment scores (`TestSet(..., scores=...)`) are metrics of the segment-mean kind
(`ExternalScores`) whose systems' inputs are their scores.

The page only sorts, filters and draws these numbers.
"""
import math

from .. import significance as sig
from . import ngrams

__all__ = ["make_metric", "compute_testset", "letters"]

# reference length buckets (tokens of the first reference), compare-mt's default edges
LENGTH_EDGES = [10, 20, 30, 40, 50, 60]
# sentence-score buckets of a 0-100 score: [0, 10), [10, 20), ... [90, 100]
SCORE_EDGES = [10, 20, 30, 40, 50, 60, 70, 80, 90]
# reference frequency buckets of a word (its count in the references)
FREQ_EDGES = [1, 2, 3, 4, 5, 10, 100, 1000]


def make_metric(spec, trg_lang=None):
    """A fresh metric object for a registered name (`cybleu.metrics.names()`) or a (name,
    {options}) pair, or a copy of a metric object (its settings; the references are cached
    later). `trg_lang` goes to the metrics made from a name whose class takes it (BLEU: the
    tokenizer sacreBLEU picks for the language); a metric object keeps its own. Raises
    ValueError for an unknown name."""
    import inspect

    from .. import metrics
    if isinstance(spec, metrics.Metric):
        return metrics.make(spec)
    options = {}
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[1], dict):
        spec, options = spec
    if not isinstance(spec, str):
        raise TypeError(f"a metric is a name ({', '.join(metrics.names())}), a (name, options) "
                        f"pair or a metric object, not {type(spec).__name__}")
    try:
        cls = metrics.get(spec)
    except KeyError:
        raise ValueError(f"unknown metric {spec!r}; choose from "
                         f"{', '.join(metrics.names(plugins=True))}") from None
    kwargs = dict(options)
    if trg_lang is not None and "trg_lang" in inspect.signature(cls).parameters:
        kwargs["trg_lang"] = trg_lang
    try:
        return metrics.make(spec, **kwargs)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{spec.lower()}: {err}") from None


# -- statistics --------------------------------------------------------------------------------

def _statistics(metric, inputs):
    """One system's packed segment statistics: its hypotheses against the metric's cached
    references, or its given scores."""
    flat = getattr(metric, "_flat_segment_statistics", None)
    if flat is not None:
        got = flat(inputs)
        if got is not None:
            stats = sig.Statistics()
            stats.extend_flat(*got)
            return stats
    return sig.Statistics(metric._extract_corpus_statistics(inputs, None),
                          metric.statistic_columns())


def _rows(stats):
    """The rows as one numpy int64 array (n_segments, width), or a float64 one for statistics
    that are not whole numbers."""
    import numpy as np
    if stats.flat is not None:
        return np.frombuffer(stats.flat, dtype=np.int64).reshape(stats.n_segments, stats.width)
    return np.array(stats.rows, dtype=np.float64)


def _subset_score(metric, stats, rows, index):
    """The metric's corpus score of the segments `index` (an int array), as
    `significance._score(metric, stats.select(index))` gives it: integer rows summed exactly,
    rounded float sums in sacreBLEU's order otherwise."""
    if len(index) == 0:
        return None
    if stats.flat is not None and stats.n_segments > 0:
        sums = [int(v) for v in rows[index].sum(axis=0)]
        if stats.ar_dtype != "int64":
            sums = [float(v) for v in sums]
        if len(index) == 1:
            sums = stats.row(int(index[0]))
        return metric._compute_score_from_stats(sums).score
    return sig._score(metric, stats.select([int(i) for i in index])).score


# -- significance --------------------------------------------------------------------------------

def letters(names_by_score, adjusted, alpha):
    """Groups of systems not significantly different from each other: the maximal runs of
    consecutive systems (in score order) in which no pair's adjusted p-value is below alpha.
    Returns (groups as lists of indices into names_by_score, one letter string per system)."""
    n = len(names_by_score)
    runs = []
    for start in range(n):
        end = start
        while end + 1 < n and all(adjusted[k][end + 1] is None or adjusted[k][end + 1] >= alpha
                                  for k in range(start, end + 1)):
            end += 1
        if not runs or end > runs[-1][1]:
            runs.append((start, end))
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    codes = [""] * n
    groups = []
    for g, (start, end) in enumerate(runs):
        label = alphabet[g] if g < 26 else f"g{g + 1}"
        groups.append(list(range(start, end + 1)))
        for k in range(start, end + 1):
            codes[k] += label
    return groups, codes


def _signature(metric, test, n_samples, seed_str):
    """The metric's signature with the test's resamples and seed, as sacreBLEU's paired table
    prints it."""
    signature = metric.get_signature()
    signature.update("seed", seed_str)
    signature.update(test, n_samples)
    if test == "ar":
        signature.update("bs", 1000)
    return signature.format()


def _significance(metric, stats_by_name, test, n_samples, seed, baseline):
    """(CI results, raw pair p-values, Holm-adjusted ones). Intervals come from the paired
    bootstrap's resamples (with seed 12345, sacreBLEU's `-ci` and paired-table intervals)."""
    names = list(stats_by_name)
    if len(names) < 2:
        stats = stats_by_name[names[0]]
        score = sig._score(metric, stats).score
        _, samples = sig._bootstrap_resample(stats, metric, 1000 if test == "ar" else n_samples)
        values = [s.score for s in samples]
        mean, ci = sig.estimate_ci(values) if sig._plain_floats(values) \
            else sig._numpy_estimate_ci(values)
        return [sig.Result(score, None, mean, ci)], [[None]], [[None]]
    bs_n = n_samples if test == "bs" else 1000
    _, results, raw = sig.bootstrap_all_pairs(metric, stats_by_name, bs_n, seed)
    if test == "ar":
        _, raw = sig.all_pairs(metric, stats_by_name, "ar", n_samples, seed, correction=None)
    # Holm over the pairs in all_pairs' order (its adjusted matrix, computed once)
    keys = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    adjusted_values = sig.holm([raw[i][j] for i, j in keys])
    adjusted = [[None] * len(names) for _ in names]
    for (i, j), value in zip(keys, adjusted_values):
        adjusted[i][j] = adjusted[j][i] = value
    b = names.index(baseline)
    for k, result in enumerate(results):
        result.p_value = None if k == b else raw[b][k]
    return results, raw, adjusted


# -- one test set ------------------------------------------------------------------------------

def _f(x):
    """A float for JSON (numpy scalars included); None stays None."""
    return None if x is None else float(x)


def _digits(metric, scores):
    """Decimals shown for the metric's scores: 2 on a known scale; more for small values of an
    unknown one (0.8512 rather than 0.85)."""
    if metric.bucket_edges is not None:
        return 2
    top = max((abs(float(x)) for x in scores), default=0.0)
    return 4 if top < 2 else 3 if top < 20 else 2


def _metric_part(m_index, metric, stats_list, names, test, n_samples, seed, seed_str,
                 baseline, alpha):
    """One metric's numbers: corpus scores, significance, groups, sentence scores, segment
    statistics, its own views. Returns (info, {array name: array}, rows per system, sentence
    matrix)."""
    import numpy as np
    corpus = [sig._score(metric, st) for st in stats_list]
    results, raw, adjusted = _significance(
        metric, dict(zip(names, stats_list)), test, n_samples, seed, baseline)
    better = metric.higher_is_better
    order = sorted(range(len(names)), key=lambda k: -results[k].score if better
                   else results[k].score)
    adj_sorted = [[adjusted[i][j] for j in order] for i in order]
    groups, codes = letters([names[k] for k in order], adj_sorted, alpha)
    letter_of = [""] * len(names)
    for pos, k in enumerate(order):
        letter_of[k] = codes[pos]
    key = f"m{m_index}"
    info = {
        "key": key,
        "name": corpus[0].name,
        "kind": str(metric.label).lower(),
        "higher_is_better": bool(better),
        "aggregation": metric.aggregation,
        "digits": _digits(metric, [c.score for c in corpus]),
        "signature": _signature(metric, test, n_samples, seed_str),
        "corpus": [{"score": _f(r.score), "mean": _f(r.mean), "ci": _f(r.ci),
                    "p": _f(r.p_value)} for r in results],
        "formatted": [c.format(2) for c in corpus],
        "raw_p": raw,
        "holm_p": adjusted,
        "rank": order,
        "groups": [[order[pos] for pos in g] for g in groups],
        "letters": letter_of,
        "views": [],
    }
    info.update(metric._report_views(corpus, stats_list))
    arrays = {}
    # sentence scores: one float64 array per system, system-major
    sent = np.concatenate([np.asarray(metric.segment_scores(st), dtype=np.float64)
                           for st in stats_list])
    arrays[f"sent_{key}"] = sent
    info["sentence_array"] = f"sent_{key}"
    rows = [_rows(st) for st in stats_list]
    detail = metric._report_detail(stats_list)
    if detail is not None:
        arrays[f"stats_{key}"], info["detail"] = detail
        info["stats_array"] = f"stats_{key}"
    return info, arrays, rows, sent.reshape(len(names), -1)


def compute_testset(ts, metrics, baseline, test, n_samples, seed, seed_str, alpha, workers=2):
    """Everything the page shows for one test set, as (header dict, {array name: array}).

    `ts` has name, references (streams), systems ({name: lines}), sources (lines or None);
    `metrics` fresh metric objects (references not cached yet).

    The work runs on `workers` threads as its inputs become ready: each metric's statistics
    and BLEU's n-grams first (the kernels and numpy release the GIL), then each metric's
    significance and sentence scores as soon as its statistics are there, and the n-gram
    tables once the n-grams are."""
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    names = list(ts.systems)
    n_seg = len(ts.references[0])
    hyps = [ts.systems[name] for name in names]
    # the metric whose tokens and n-grams the n-gram views show (None: BLEU's defaults)
    gram_metric = next((m for m in metrics if getattr(m, "_report_ngrams", False)), None)
    given = getattr(ts, "scores", None) or {}

    alignments = {}

    def metric_stats(metric):
        if metric.inputs == "scores":
            return [_statistics(metric, given[metric.name][1][name]) for name in names]
        metric._ref_cache = metric._cache_references(ts.references)
        out = [_statistics(metric, h) for h in hyps]
        # the metric's token alignment of each segment, if it draws one
        alignment = metric._report_alignment(hyps, ts.references)
        if alignment is not None:
            alignments[id(metric)] = alignment
        return out

    def tables(grams):
        if grams["tokens"] is None:
            return None, None
        return (ngrams.pair_tables(grams, names),
                ngrams.word_f_buckets(grams, names, FREQ_EDGES))

    # the longest jobs first, so that the threads finish together
    first = sorted(range(len(metrics)), key=lambda i: getattr(metrics[i], "_report_order", 3))
    parts, all_stats, grams, ngram_tables = {}, {}, None, None
    with ThreadPoolExecutor(max(1, workers), thread_name_prefix="cybleu-report") as pool:
        jobs = {pool.submit(ngrams.analyse, ts.references, hyps, gram_metric): ("ngrams", None)}
        for i in first:
            jobs[pool.submit(metric_stats, metrics[i])] = ("stats", i)
        while jobs:
            done, _ = wait(list(jobs), return_when=FIRST_COMPLETED)
            for fut in done:
                what, i = jobs.pop(fut)
                value = fut.result()
                if what == "ngrams":
                    grams = value
                    jobs[pool.submit(tables, grams)] = ("tables", None)
                elif what == "stats":
                    all_stats[i] = value
                    jobs[pool.submit(_metric_part, i, metrics[i], value, names, test,
                                     n_samples, seed, seed_str, baseline, alpha)] = ("part", i)
                elif what == "part":
                    parts[i] = value
                else:
                    ngram_tables = value

    arrays, metric_info, extras = {}, [], []
    for i in range(len(metrics)):
        info, metric_arrays, rows, sent = parts[i]
        if id(metrics[i]) in alignments:
            info["alignment"], strings = alignments[id(metrics[i])]
            extras.append((info["key"], strings))
        info["buckets"] = _metric_buckets(metrics[i], all_stats[i], rows, grams["ref_len"],
                                          sent)
        arrays.update(metric_arrays)
        metric_info.append(info)
        if metrics[i] is gram_metric and all(r.dtype.kind == "i" for r in rows):
            # the n-gram views must agree with the metric's own statistics, segment by segment
            ngrams.check_against_bleu(grams, rows)

    header = {
        "name": ts.name,
        "n_segments": n_seg,
        "n_refs": len(ts.references),
        "has_source": ts.sources is not None,
        "systems": names,
        "baseline": names.index(baseline),
        "metrics": metric_info,
        "ref_len": None,
    }
    # with n resamples the smallest p-value is 1/(n+1); Holm multiplies the smallest by the
    # number of pairs: below alpha only with enough resamples
    pairs = len(names) * (len(names) - 1) // 2
    header["resolution"] = {"pairs": pairs,
                            "smallest_adjusted": (min(1.0, pairs / (n_samples + 1))
                                                  if pairs else None),
                            "needed": math.ceil(pairs / alpha) if pairs else None}
    arrays["ref_len"] = grams["ref_len"].astype("int32")
    header["ref_len"] = "ref_len"
    header["texts"] = _texts(ts, names, grams, [strings for _, strings in extras])
    header["text_layout"] = {"per_segment": len(header["texts"]) // max(n_seg, 1),
                             "source": ts.sources is not None,
                             "n_refs": len(ts.references),
                             "n_systems": len(names),
                             "tokens": grams["tokens"] is not None,
                             # after each hypothesis: these metrics' alignment strings
                             "extras": [key for key, _ in extras]}
    header["ngrams"], header["word_f"] = ngram_tables
    if header["ngrams"] is not None:   # the segments of each listed n-gram: an array
        arrays["ngram_segments"] = header["ngrams"].pop("segments")
        header["ngrams"]["segments"] = "ngram_segments"
    # whose tokens the segment view and the n-gram views show
    header["tokens_of"] = gram_metric.label if gram_metric is not None else ngrams.DEFAULT_LABEL
    return header, arrays


def _bucket_index(values, edges):
    import numpy as np
    return np.searchsorted(np.asarray(edges), values, side="right")


def _metric_buckets(metric, stats_list, rows, ref_len, sentence):
    """Corpus score per system in each reference-length bucket, and how many segments of each
    system fall in each sentence-score bucket."""
    import numpy as np
    length_bucket = _bucket_index(ref_len, LENGTH_EDGES)
    by_length = []
    for st, r in zip(stats_list, rows):
        scores = []
        for b in range(len(LENGTH_EDGES) + 1):
            index = np.flatnonzero(length_bucket == b)
            scores.append(_f(_subset_score(metric, st, r, index)))
        by_length.append(scores)
    counts_length = [int((length_bucket == b).sum()) for b in range(len(LENGTH_EDGES) + 1)]
    edges = list(metric.bucket_edges) if metric.bucket_edges is not None \
        else _score_edges(sentence)
    by_score = []
    for s in sentence:
        bucket = _bucket_index(s, edges)
        by_score.append([int(x) for x in np.bincount(bucket, minlength=len(edges) + 1)])
    return {"length_edges": LENGTH_EDGES, "by_length": by_length,
            "length_counts": counts_length, "score_edges": edges, "by_score": by_score}


def _score_edges(sentence, n_buckets=10):
    """Bucket edges for scores of an unknown scale: n_buckets equal steps from the lowest to the
    highest sentence score of all systems, each edge rounded to 3 significant digits."""
    import numpy as np
    if sentence.size == 0:
        return SCORE_EDGES
    lo, hi = float(np.min(sentence)), float(np.max(sentence))
    if not hi > lo:
        return [lo]
    step = (hi - lo) / n_buckets
    return sorted({float(f"{lo + step * k:.3g}") for k in range(1, n_buckets)})


def _texts(ts, names, grams, extras=()):
    """The segments' text, segment after segment (deflate then finds what one system's line
    shares with the others): [source], references..., then per system the hypothesis, BLEU's
    tokens of it and the longest-match digit of each token, then each of `extras` (metrics'
    alignment strings, [system][segment])."""
    out = []
    tokens = grams["tokens"]
    marks = grams["marks"]
    n_seg = len(ts.references[0])
    for i in range(n_seg):
        if ts.sources is not None:
            out.append(ts.sources[i])
        for stream in ts.references:
            line = stream[i]
            out.append(line)  # None where a stream has no reference for this segment
        for s in range(len(names)):
            out.append(ts.systems[names[s]][i])
            if tokens is not None:
                out.append(tokens[s][i])
                out.append(marks[s][i])
            for strings in extras:
                out.append(strings[s][i])
    return out


__all__ += ["LENGTH_EDGES", "SCORE_EDGES", "FREQ_EDGES"]
