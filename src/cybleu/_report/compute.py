"""Every number the report shows, computed once in Python by the library's own functions.

The data's path, per test set:

- each metric caches the references and gives one row of integer statistics per segment and
  system (`Metric._extract_corpus_statistics`, the compiled kernels; BLEU's flat rows);
- corpus scores: the metric's `_compute_score_from_stats` on the summed rows
  (`significance._score`, sacreBLEU's `_aggregate_and_compute`);
- intervals, p-values against the baseline and for every pair: `significance.bootstrap_all_pairs`
  (the paired bootstrap of every pair from one set of resamples: sacreBLEU's numbers for its
  seed) or `significance.all_pairs(test="ar")`, then `significance.holm`;
- sentence scores from the same rows: `core.bleu_scores_from_stats` (sentence BLEU, effective
  order, as `sentence_bleu`), chrF's `f_scores`, TER's `_compute_score_from_stats`;
- buckets: the metric's `_compute_score_from_stats` on the rows of each bucket, summed;
- the n-gram views (`ngrams.py`): BLEU's tokens and clipped matches, checked against BLEU's
  own segment statistics before anything is shown.

The page only sorts, filters and draws these numbers.
"""
import copy
import math

from .. import _backend
from .. import significance as sig
from . import ngrams

__all__ = ["METRIC_NAMES", "make_metric", "compute_testset", "BANDS", "bp_curve", "letters"]

# the names `metrics=` and `-m` take -> (metric class name, keyword arguments)
METRIC_NAMES = {
    "bleu": ("BLEU", {}),
    "chrf": ("CHRF", {}),
    "chrf++": ("CHRF", {"word_order": 2}),
    "ter": ("TER", {}),
}

# Google Cloud Translation's reading of corpus BLEU ("a rough guideline"), low edge -> words
BANDS = [
    (0, 10, "Almost useless"),
    (10, 20, "Hard to get the gist"),
    (20, 30, "The gist is clear, but has significant grammatical errors"),
    (30, 40, "Understandable to good translations"),
    (40, 50, "High quality translations"),
    (50, 60, "Very high quality, adequate, and fluent translations"),
    (60, 100, "Quality often better than human"),
]

# reference length buckets (tokens of the first reference), compare-mt's default edges
LENGTH_EDGES = [10, 20, 30, 40, 50, 60]
# sentence-score buckets: [0, 10), [10, 20), ... [90, 100]
SCORE_EDGES = [10, 20, 30, 40, 50, 60, 70, 80, 90]
# reference frequency buckets of a word (its count in the references)
FREQ_EDGES = [1, 2, 3, 4, 5, 10, 100, 1000]


def make_metric(spec, trg_lang=None):
    """A fresh metric object for a name of METRIC_NAMES or a (name, {options}) pair, or a copy
    of a metric object (its settings; the references are cached later). `trg_lang` goes to the
    metrics made from a name whose class takes it (BLEU: the tokenizer sacreBLEU picks for the
    language); a metric object keeps its own. Raises ValueError for an unknown name."""
    import inspect

    from ..metrics import Metric, get
    if isinstance(spec, Metric):
        metric = copy.copy(spec)
        metric._ref_cache = None
        return metric
    options = {}
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[1], dict):
        spec, options = spec
    if not isinstance(spec, str):
        raise TypeError(f"a metric is a name ({', '.join(METRIC_NAMES)}), a (name, options) "
                        f"pair or a metric object, not {type(spec).__name__}")
    key = spec.lower()
    if key not in METRIC_NAMES:
        raise ValueError(f"unknown metric {spec!r}; choose from {', '.join(METRIC_NAMES)}")
    cls_name, kwargs = METRIC_NAMES[key]
    cls = get(cls_name)
    kwargs = {**kwargs, **options}
    if trg_lang is not None and "trg_lang" in inspect.signature(cls).parameters:
        kwargs["trg_lang"] = trg_lang
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{key}: {err}") from None


def _kind(metric):
    from ..metrics import BLEU, CHRF, TER
    for cls, kind in ((BLEU, "bleu"), (CHRF, "chrf"), (TER, "ter")):
        if isinstance(metric, cls):
            return kind
    return "other"


def bp_curve(n_points=121, lo=0.5, hi=1.1):
    """Points (c/r, BP) of the brevity penalty exp(1 - r/c) (1 when c >= r), c/r from lo to hi,
    computed as BLEU computes it (`math.exp(1 - ref_len / sys_len)`, here with r/c = 1/ratio)."""
    out = []
    for k in range(n_points):
        ratio = lo + (hi - lo) * k / (n_points - 1)
        out.append([ratio, 1.0 if ratio >= 1.0 else math.exp(1 - 1 / ratio)])
    return out


# -- statistics --------------------------------------------------------------------------------

def _statistics(metric, hypotheses):
    """One system's packed segment statistics against the metric's cached references."""
    flat = getattr(metric, "_flat_segment_statistics", None)
    if flat is not None:
        got = flat(hypotheses)
        if got is not None:
            stats = sig.Statistics()
            stats.extend_flat(*got)
            return stats
    return sig.Statistics(metric._extract_corpus_statistics(hypotheses, None))


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


def _sentence_scores(metric, kind, stats):
    """Every segment's score by itself: what sentence_bleu / sentence_chrf / sentence_ter give
    for it (sentence BLEU with effective order, as sacreBLEU's sentence_bleu)."""
    import numpy as np
    if kind == "bleu" and stats.flat is not None:
        N = metric.max_ngram_order
        smooth_value = metric.smooth_value
        scores = _backend.core.bleu_scores_from_stats(stats.flat, N, metric.smooth_method,
                                                      smooth_value, True)
        return np.frombuffer(scores, dtype=np.float64).copy()
    if kind == "chrf" and stats.flat is not None and not metric.eps_smoothing \
            and type(metric)._compute_score_from_stats is _chrf_score_fn():
        scores = _backend.module("chrf").f_scores(stats.flat, metric.order, metric.beta,
                                                   bool(metric.eps_smoothing))
        return np.frombuffer(scores, dtype=np.float64).copy()
    if kind == "bleu":
        from ..metrics import BLEU
        sentence = copy.copy(metric)
        sentence.effective_order = True
        score = BLEU._compute_score_from_stats
        return np.array([float(score(sentence, stats.row(i)).score)
                         for i in range(stats.n_segments)], dtype=np.float64)
    return np.array([float(metric._compute_score_from_stats(stats.row(i)).score)
                     for i in range(stats.n_segments)], dtype=np.float64)


def _chrf_score_fn():
    from ..metrics import CHRF
    return CHRF._compute_score_from_stats


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


def _geo_mean(metric, score):
    """exp(mean log precision): BLEU's second factor, by BLEU's own arithmetic (`my_log` of
    each precision, as `bleu_from_stats` takes it); None when no n-gram matches."""
    from .._scoring.bleu import my_log
    if not any(score.counts):
        return None
    order = metric.max_ngram_order
    if metric.effective_order:
        order = next((n for n, t in enumerate(score.totals) if t == 0), order) or order
    return math.exp(sum(my_log(p) for p in score.precisions[:order]) / order)


def _metric_part(m_index, metric, kind, stats_list, names, test, n_samples, seed, seed_str,
                 baseline, alpha):
    """One metric's numbers: corpus scores, significance, groups, sentence scores, segment
    statistics. Returns (info, {array name: array}, rows per system, sentence matrix)."""
    import numpy as np
    corpus = [sig._score(metric, st) for st in stats_list]
    results, raw, adjusted = _significance(
        metric, dict(zip(names, stats_list)), test, n_samples, seed, baseline)
    order = sorted(range(len(names)), key=lambda k: -results[k].score
                   if kind != "ter" else results[k].score)
    adj_sorted = [[adjusted[i][j] for j in order] for i in order]
    groups, codes = letters([names[k] for k in order], adj_sorted, alpha)
    letter_of = [""] * len(names)
    for pos, k in enumerate(order):
        letter_of[k] = codes[pos]
    key = f"m{m_index}"
    info = {
        "key": key,
        "name": corpus[0].name,
        "kind": kind,
        "higher_is_better": kind != "ter",
        "signature": _signature(metric, test, n_samples, seed_str),
        "corpus": [{"score": _f(r.score), "mean": _f(r.mean), "ci": _f(r.ci),
                    "p": _f(r.p_value)} for r in results],
        "formatted": [c.format(2) for c in corpus],
        "raw_p": raw,
        "holm_p": adjusted,
        "rank": order,
        "groups": [[order[pos] for pos in g] for g in groups],
        "letters": letter_of,
    }
    if kind == "bleu":
        info["anatomy"] = [{
            "score": _f(c.score), "counts": [int(x) for x in c.counts],
            "totals": [int(x) for x in c.totals],
            "precisions": [float(p) for p in c.precisions],
            "bp": float(c.bp), "ratio": float(c.ratio), "sys_len": int(c.sys_len),
            "ref_len": int(c.ref_len), "verbose": c._verbose,
            "band": band_of(c.score), "geo_mean": _geo_mean(metric, c)} for c in corpus]
        info["max_order"] = metric.max_ngram_order
    if kind == "ter":
        info["ter"] = [{"edits": int(c.num_edits), "ref_length": float(c.ref_length)}
                       for c in corpus]
    arrays = {}
    # sentence scores: one float64 array per system, system-major
    sent = np.concatenate([_sentence_scores(metric, kind, st) for st in stats_list])
    arrays[f"sent_{key}"] = sent
    info["sentence_array"] = f"sent_{key}"
    rows = [_rows(st) for st in stats_list]
    if kind == "bleu" and all(st.flat is not None for st in stats_list):
        stacked = np.stack(rows)
        small = stacked.size == 0 or (stacked.min() >= 0 and stacked.max() < 65536)
        arrays[f"stats_{key}"] = stacked.astype(np.uint16 if small else np.int32)
        info["stats_array"] = f"stats_{key}"
    if kind == "ter":
        arrays[f"stats_{key}"] = np.stack(rows).astype(np.float64)
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
    kinds = [_kind(m) for m in metrics]
    bleu_metric = next((m for m, k in zip(metrics, kinds) if k == "bleu"), None)

    def metric_stats(metric):
        metric._ref_cache = metric._cache_references(ts.references)
        return [_statistics(metric, h) for h in hyps]

    def tables(grams):
        if grams["tokens"] is None:
            return None, None
        return (ngrams.pair_tables(grams, names),
                ngrams.word_f_buckets(grams, names, FREQ_EDGES))

    # the longest jobs first, so that the threads finish together
    cost = {"ter": 1, "chrf": 2, "other": 3, "bleu": 4}
    first = sorted(range(len(metrics)), key=lambda i: cost[kinds[i]])
    parts, all_stats, grams, ngram_tables, texts = {}, {}, None, None, None
    with ThreadPoolExecutor(max(1, workers), thread_name_prefix="cybleu-report") as pool:
        jobs = {pool.submit(ngrams.analyse, ts.references, hyps, bleu_metric): ("ngrams", None)}
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
                    jobs[pool.submit(_texts, ts, names, grams)] = ("texts", None)
                elif what == "stats":
                    all_stats[i] = value
                    jobs[pool.submit(_metric_part, i, metrics[i], kinds[i], value, names, test,
                                     n_samples, seed, seed_str, baseline, alpha)] = ("part", i)
                elif what == "part":
                    parts[i] = value
                elif what == "texts":
                    texts = value
                else:
                    ngram_tables = value

    arrays, metric_info = {}, []
    for i in range(len(metrics)):
        info, metric_arrays, rows, sent = parts[i]
        info["buckets"] = _metric_buckets(metrics[i], all_stats[i], rows, grams["ref_len"],
                                          sent)
        arrays.update(metric_arrays)
        metric_info.append(info)
        if kinds[i] == "bleu" and metrics[i] is bleu_metric and all(
                r.dtype.kind == "i" for r in rows):
            # the n-gram views must agree with BLEU's own statistics, segment by segment
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
    header["texts"] = texts
    header["text_layout"] = {"per_segment": len(header["texts"]) // max(n_seg, 1),
                             "source": ts.sources is not None,
                             "n_refs": len(ts.references),
                             "n_systems": len(names),
                             "tokens": grams["tokens"] is not None}
    header["ngrams"], header["word_f"] = ngram_tables
    if header["ngrams"] is not None:   # the segments of each listed n-gram: an array
        arrays["ngram_segments"] = header["ngrams"].pop("segments")
        header["ngrams"]["segments"] = "ngram_segments"
    return header, arrays


def band_of(score):
    for k, (lo, hi, _) in enumerate(BANDS):
        if score < hi or k == len(BANDS) - 1:
            return k
    return len(BANDS) - 1


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
    by_score = []
    for s in sentence:
        bucket = _bucket_index(s, SCORE_EDGES)
        by_score.append([int(x) for x in np.bincount(bucket, minlength=len(SCORE_EDGES) + 1)])
    return {"length_edges": LENGTH_EDGES, "by_length": by_length,
            "length_counts": counts_length, "score_edges": SCORE_EDGES, "by_score": by_score}


def _texts(ts, names, grams):
    """The segments' text, segment after segment (deflate then finds what one system's line
    shares with the others): [source], references..., then per system the hypothesis, BLEU's
    tokens of it and the longest-match digit of each token."""
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
    return out


__all__ += ["band_of", "LENGTH_EDGES", "SCORE_EDGES", "FREQ_EDGES"]
