"""Significance tests: sacreBLEU 2.6.0's paired bootstrap resampling, approximate
randomization and bootstrap confidence intervals, with its numbers, computed on integer
statistics.

Same conventions as `sacrebleu.significance`, so p-values, means and intervals are the same
floats for the same seed:

- `SACREBLEU_SEED` (default 12345; `none` = fresh entropy). A paired test seeds with
  `seed if seed else None`, so 0 is unseeded there, while a confidence interval seeds with 0.
- One `np.random.default_rng(seed)` per compared system: the same `choice` indices for the
  baseline and the system (bootstrap), the same `integers(2, dtype=bool)` swaps (randomization).
- Bootstrap: the test statistic is `|Δ| − mean|Δ|` over resamples, compared with the observed
  `|Δ|`; randomization: `|score(A') − score(B')|` of the shuffled pseudo-systems.
- p = (count(statistic > observed) + 1) / (n + 1); the 95% interval is sorted[n//40] ..
  sorted[n - n//40 - 1], its half-width and numpy's mean reported.
- Scores of resamples are the metric's arithmetic on numpy float32 sums (bootstrap) or int64 sums
  (randomization), as sacreBLEU's numpy code gives them.

How it is computed: every system is tokenized once into integer segment statistics; a resample
is a sum of rows, done for all systems at once in the compiled `resample` step (numpy's random
streams are reproduced there, so numpy is not even imported); BLEU's float arithmetic on the sums
is replayed in C and checked against the metric's own `_compute_score_from_stats`. Statistics
that are not integers, other metrics, and float32 sums that could round (a column sum reaching
2**24) take sacreBLEU's own numpy path instead, so no result silently differs.

Beyond sacreBLEU (extensions, not in its API): `paired_t_test` (the test of the 2002 BLEU paper:
BLEU on blocks of sentences, a paired t-test on the block scores), `all_pairs` (a p-value for
every pair of systems with Holm's correction for multiple comparisons), and resampling by blocks
or documents (`groups=` in `paired_bootstrap`, `paired_randomization` and `all_pairs`).
"""
import logging
import math
import numbers
import os

# the resampling engine, shared with Metric.corpus_score's bootstrap; _bootstrap_resample is
# sacreBLEU's name for a confidence interval's resamples, kept importable from here
from ._statistics.resampling import (Statistics, _ar_scores, _bootstrap_resample,
                                     _bootstrap_scores, _draws, _env_seed, _index_chunks,
                                     _mask_chunks, _resample, _score, _statistics)

logger = logging.getLogger("cybleu")

IS_WINDOWS = os.name == "nt"


__all__ = ["Result", "estimate_ci", "PairedTest", "Statistics", "paired_bootstrap",
           "paired_randomization", "all_pairs", "bootstrap_all_pairs", "holm", "paired_t_test",
           "TTestResult", "student_t_sf2"]


class Result:
    """A container to represent results from a particular statistical significance test.

    :param score: The floating point score for the system at hand.
    :param p_value: If exists, represents the p-value when the system at hand is compared to a
        baseline using a paired test.
    :param mean: When paired bootstrap test is applied, this represents the true mean score
        estimated from bootstrap resamples of the system.
    :param ci: When paired bootstrap test is applied, this represents the 95% confidence interval
        around the true mean score `sys_mean`.

    >>> from cybleu.significance import Result
    >>> Result(40.0, p_value=0.01)
    score=40.0,p_value=0.01,mean=None,ci=None
    """

    def __init__(self, score, p_value=None, mean=None, ci=None):
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def _numpy_scalar(name, doc):  # noqa: N805 - a helper that builds the two properties below
        def get(self):
            value = self.__dict__[name]
            if type(value) is float:
                # sacreBLEU's values are numpy's (.item() works); numpy is imported here, when
                # read, so the command line (which formats the plain floats) does not load it
                import numpy as np
                return np.float64(value)
            return value

        def set(self, value):
            self.__dict__[name] = value

        get.__name__, get.__doc__ = name, doc
        return property(get, set)   # the property's docstring is the getter's

    mean = _numpy_scalar("mean", """The mean score of the system's bootstrap resamples (paired
        bootstrap only, else None): a numpy.float64, or a numpy.float32 where sacreBLEU 2.6.0
        gives one (a metric whose score of float32 sums stays float32). Set it to a number or
        None; a Python float is read back as numpy.float64.""")
    ci = _numpy_scalar("ci", """The half-width of the 95% confidence interval around `mean`
        (paired bootstrap only, else None): a numpy.float64, or a numpy.float32 where sacreBLEU
        2.6.0 gives one. Set it to a number or None; a Python float is read back as
        numpy.float64.""")
    del _numpy_scalar

    def __repr__(self):
        return ",".join([f"{k}={str(v)}" for k, v in self.__dict__.items()])


def estimate_ci(scores):
    """Mean and half-width of the 95% interval of resampled scores (sacreBLEU's estimate_ci:
    numpy's mean of the sorted scores, half the distance from sorted[n//40] to
    sorted[n - n//40 - 1]), as numpy scalars as in sacreBLEU (float64; float32 for float32
    scores).

    :param scores: The resampled scores (a sequence or array of numbers).
    :returns: (mean, ci): the mean of the scores and the half-width of their 95% interval.
    :raises ValueError: Without any score.

    >>> from cybleu.significance import estimate_ci
    >>> mean, ci = estimate_ci([1.0, 2.0, 3.0])
    >>> type(mean).__name__, float(mean), float(ci)
    ('float64', 2.0, 1.0)
    """
    if not _plain_floats(scores):
        if len(scores) == 0:
            raise ValueError("estimate_ci needs at least one score")
        return _numpy_estimate_ci(scores)
    import numpy as np
    mean, ci = _estimate_ci(scores)
    return np.float64(mean), np.float64(ci)


def _estimate_ci(scores):
    """estimate_ci on Python floats, as Python floats (no numpy: the command line's path)."""
    data = sorted(float(x) for x in scores)
    n = len(data)
    if n == 0:
        raise ValueError("estimate_ci needs at least one score")
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    ci = 0.5 * (data[upper_idx] - data[lower_idx])
    return _resample().pairwise_mean(data), ci


def _plain_floats(scores):
    """True when every score is a Python float: then float64 arithmetic in Python is numpy's."""
    return all(type(s) is float for s in scores)


def _numpy_estimate_ci(scores):
    """sacreBLEU's estimate_ci on scores numpy gave (float32 ones stay float32)."""
    import numpy as np
    data = np.sort(np.array(scores))
    n = len(data)
    lower_idx = n // 40
    upper_idx = n - lower_idx - 1
    return data.mean(), 0.5 * (data[upper_idx] - data[lower_idx])


def _bs_statistic(bl_score, sys_score, bl_scores, sys_scores, inclusive=False):
    """The paired bootstrap's (mean, 95% half-width, p-value) of a system against a baseline,
    from the scores of their resamples (drawn with the same indices) and their corpus scores."""
    diff = abs(bl_score - sys_score)
    if _plain_floats(sys_scores) and _plain_floats(bl_scores):
        sys_mean, sys_ci = _estimate_ci(sys_scores)
        sample_diffs = [abs(s - b) for s, b in zip(sys_scores, bl_scores)]
        mean_diff = _resample().pairwise_mean(sample_diffs)
        return sys_mean, sys_ci, _p_value([d - mean_diff for d in sample_diffs], diff,
                                          inclusive)
    # numpy scalars (a metric's float32 scores of float32 sums): numpy's own arithmetic
    return _numpy_bs_statistic(sys_scores, bl_scores, diff)


def _numpy_p_value(stats, real_difference):
    import numpy as np
    c = np.sum(stats > real_difference).item()
    return (c + 1) / (len(stats) + 1)


def _numpy_bs_statistic(sys_scores, bl_scores, diff):
    """The bootstrap test statistic in sacreBLEU's numpy arithmetic: (mean, ci, p)."""
    import numpy as np
    sys_mean, sys_ci = _numpy_estimate_ci(sys_scores)
    sample_diffs = np.abs(np.array(sys_scores) - np.array(bl_scores))
    stats = sample_diffs - sample_diffs.mean()
    return sys_mean, sys_ci, _numpy_p_value(stats, diff)


def _p_value(stats, real_difference, inclusive=False):
    """(count(stats > observed) + 1) / (n + 1), sacreBLEU's (and multeval's) add-one p-value.

    `inclusive` counts the statistics at least as large (>=) instead: the usual Monte Carlo
    p-value, taken for segment-mean metrics (sacreBLEU has none to agree with), where a system
    compared with itself has p = 1 (with > it would have the smallest p)."""
    if inclusive:
        c = sum(1 for s in stats if s >= real_difference)
    else:
        c = sum(1 for s in stats if s > real_difference)
    return (c + 1) / (len(stats) + 1)


def _inclusive(metric):
    """Whether the metric's p-values count ties (>=): segment means (see `_p_value`)."""
    return getattr(metric, "aggregation", "corpus") == "mean"


# -- seeds ---------------------------------------------------------------------------------------

def _check_samples(n, what):
    """n as an int: any integer type, as sacreBLEU takes (numpy's from a config)."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise TypeError(f"{what} must be an int, not {type(n).__name__}")
    return int(n)


class PairedTest:
    """Paired significance tests of systems against the first one, the baseline (sacreBLEU's
    `PairedTest`, same arguments and results).

    :param named_systems: A list of (system_name, system_hypotheses) tuples on which the test will
        be applied; the first is the baseline.
    :param metrics: A dictionary of `Metric` instances that will be computed for each system.
    :param references: A sequence of reference documents with document being defined as a sequence
        of reference strings. If `None`, already cached references will be used through each
        metric's internal cache.
    :param test_type: `ar` for approximate randomization, `bs` for paired bootstrap.
    :param n_samples: The number of AR trials (for `ar`) or bootstrap resamples (for `bs`). The
        defaults (10000 or 1000 respectively) will be used if 0 is passed.
    :param n_ar_confidence: If `approximate randomization` is selected, the number of bootstrap
        resamples to use for confidence estimation. A value of -1 disables confidence estimation.
        0 will use the default of 1000.
    :param n_jobs: Accepted for compatibility; cybleu runs the test in one process (sacreBLEU
        forks workers), with the same results.
    :param progress: Optional callable(done, total) called as resamples are summed.
    :raises ValueError: An unknown test type, fewer than two systems.
    :raises TypeError: A sample count that is not an int.

    Calling the test runs it: `signatures, scores = PairedTest(...)()`. The seed is
    `SACREBLEU_SEED` (default 12345), as in sacreBLEU.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import (PairedTest, all_pairs, paired_bootstrap,
    ...                                  paired_randomization, paired_t_test)
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> bleu = BLEU(references=[refs])
    >>> test = PairedTest([("base", base), ("better", better)], {"BLEU": bleu}, None,
    ...                   test_type="bs", n_samples=200)
    >>> signatures, scores = test()
    >>> result = scores["BLEU"][1]
    >>> round(result.score, 2), round(result.p_value, 4)
    (95.56, 0.005)
    >>> print(signatures["BLEU"])
    nrefs:1|bs:200|seed:12345|case:mixed|eff:no|tok:13a|smooth:exp|version:cybleu-...
    """

    _DEFAULT_SAMPLES = {"ar": 10000, "bs": 1000}

    def __init__(self, named_systems, metrics, references, test_type="ar", n_samples=0,
                 n_ar_confidence=-1, n_jobs=1, progress=None):
        if test_type not in ("ar", "bs"):
            raise ValueError(f"Unknown test type {test_type!r}: use 'ar' or 'bs'")
        n_samples = _check_samples(n_samples, "n_samples")
        n_ar_confidence = _check_samples(n_ar_confidence, "n_ar_confidence")
        n_jobs = _check_samples(n_jobs, "n_jobs")
        if len(named_systems) < 2:
            raise ValueError("A paired test needs a baseline and at least one other system.")
        self.test_type = test_type
        _, self._seed = _env_seed()
        self.n_jobs = n_jobs
        self.references = references
        self.named_systems = named_systems
        self.progress = progress
        self.n_ar_confidence = n_ar_confidence if n_ar_confidence != 0 else \
            self._DEFAULT_SAMPLES["bs"]
        self.n_samples = n_samples if n_samples > 0 else self._DEFAULT_SAMPLES[test_type]
        self.n_systems = len(named_systems) - 1
        if IS_WINDOWS:
            logger.warning("Parallel tests are not supported on Windows.")
            self.n_jobs = 1
        elif self.n_jobs == 0:
            self.n_jobs = max(1, min(os.cpu_count() // 2 if os.cpu_count() else 1,
                                     self.n_systems))

        self._signatures = {}
        self._baseline_info = {}
        self._keys = {}  # score name -> the key `metrics` gave the metric
        self._shared_ci = set()  # metric keys whose baseline interval comes from the test
        self.metrics = {}
        bl_name, bl_hyps = named_systems[0]
        for name, metric in metrics.items():
            logger.info(f"Pre-computing {name} statistics for {bl_name!r}")
            bl_stats = self._system_statistics(metric, name, bl_hyps)
            bl_score = _score(metric, bl_stats)
            confidence_n = self.n_samples if test_type == "bs" else self.n_ar_confidence
            bl_mean, bl_ci = None, None
            if confidence_n > 0 and test_type == "bs" and self._seed:
                # the paired resamples use the same seed and count: their baseline scores are
                # this interval's, computed once in __call__
                self._shared_ci.add(name)
            elif confidence_n > 0:
                _, bl_scores = _bootstrap_resample(bl_stats, metric, confidence_n)
                bl_scores = [x.score for x in bl_scores]
                bl_mean, bl_ci = _estimate_ci(bl_scores) if _plain_floats(bl_scores) \
                    else _numpy_estimate_ci(bl_scores)
            result = Result(bl_score.score, mean=bl_mean, ci=bl_ci)
            self._baseline_info[bl_score.name] = (bl_stats, result)
            self.metrics[bl_score.name] = metric
            self._keys[bl_score.name] = name
            sig = metric.get_signature()
            sig.update("seed", str(self._seed).lower())
            sig.update(test_type, self.n_samples)
            if self.n_ar_confidence > 0:
                sig.update("bs", self.n_ar_confidence)
            self._signatures[bl_score.name] = sig

    def _system_statistics(self, metric, name, hypotheses):
        if isinstance(hypotheses, dict):  # from_statistics: packed already
            return hypotheses[name]
        return _statistics(metric, hypotheses, self.references)

    @classmethod
    def from_statistics(cls, named_statistics, metrics, test_type="ar", n_samples=0,
                        n_ar_confidence=-1, n_jobs=1, progress=None):
        """The same test on statistics extracted beforehand.

        :param named_statistics: A list of (system name, {metric key: :class:`Statistics`}),
            with the keys of `metrics`; the first system is the baseline.
        :param metrics: The metrics, by key, as for the constructor.
        :param test_type: `'ar'` or `'bs'`.
        :param n_samples: Trials or resamples (0: the default).
        :param n_ar_confidence: As for the constructor.
        :param n_jobs: Accepted for compatibility.
        :param progress: Optional callable(done, total).
        :returns: A :class:`PairedTest`.
        """
        return cls(named_statistics, metrics, None, test_type, n_samples, n_ar_confidence,
                   n_jobs, progress)

    def __call__(self):
        """Run the test.

        :returns: (signatures by metric name, scores) where scores is `{"System": [names],
            metric name: [Result per system]}`, the baseline first.
        """
        scores = {"System": [ns[0] for ns in self.named_systems]}
        for metric_name, (_, result) in self._baseline_info.items():
            scores[metric_name] = [result]
        # one rng per system, seeded alike: the same draws for every system when seeded
        seed = self._seed if self._seed else None
        systems = []
        for sys_name, hyps in self.named_systems[1:]:
            per_metric = {}
            for name, metric in self.metrics.items():
                logger.info(f"Computing {name} for {sys_name!r} and extracting sufficient "
                            "statistics")
                stats = self._system_statistics(metric, self._keys[name], hyps)
                per_metric[name] = (stats, _score(metric, stats))
                if self.test_type == "bs":
                    logger.info(f" > Performing paired bootstrap resampling test "
                                f"(# resamples: {self.n_samples})")
                else:
                    logger.info(f" > Performing approximate randomization test "
                                f"(# trials: {self.n_samples})")
                    if self.n_ar_confidence > 0:
                        logger.info(" > Performing bootstrap resampling for confidence interval "
                                    f"(# resamples: {self.n_ar_confidence})")
            systems.append(per_metric)
        for name, metric in self.metrics.items():
            bl_stats, bl_result = self._baseline_info[name]
            entries = [per_metric[name] for per_metric in systems]
            if self.test_type == "bs":
                shared = self._keys[name] in self._shared_ci
                scores[name].extend(self._run_bs(metric, bl_stats, bl_result, entries, seed,
                                                 shared))
            else:
                scores[name].extend(self._run_ar(metric, bl_stats, bl_result, entries, seed))
        return self._signatures, scores

    def _progress(self, total, n_runs):
        if self.progress is None:
            return lambda run: None
        return lambda run: (lambda done: self.progress(run * total + done, n_runs * total))

    def _run_bs(self, metric, bl_stats, bl_result, entries, seed, shared_ci=False):
        n, n_seg = self.n_samples, bl_stats.n_segments
        groups = [entries] if seed is not None else [[e] for e in entries]
        report = self._progress(n, len(groups))
        results = []
        for run, group in enumerate(groups):
            all_scores = _bootstrap_scores(metric, [bl_stats] + [st for st, _ in group],
                                           _draws(seed, n, n_seg), report(run))
            bl_scores = all_scores[0]
            if shared_ci and run == 0:
                bl_result.mean, bl_result.ci = _estimate_ci(bl_scores) \
                    if _plain_floats(bl_scores) else _numpy_estimate_ci(bl_scores)
            for (stats, score), sys_scores in zip(group, all_scores[1:]):
                sys_mean, sys_ci, p = _bs_statistic(bl_result.score, score.score, bl_scores,
                                                    sys_scores, _inclusive(metric))
                results.append(Result(score.score, p, sys_mean, sys_ci))
        return results

    def _run_ar(self, metric, bl_stats, bl_result, entries, seed):
        n, n_seg = self.n_samples, bl_stats.n_segments
        resample = _resample()
        groups = [entries] if seed is not None else [[e] for e in entries]
        report = self._progress(n, len(groups))
        results = []
        for run, group in enumerate(groups):
            generator = resample.Generator(seed)
            chunks = _mask_chunks(generator, n, n_seg)
            conf_chunks = None
            if self.n_ar_confidence > 0:
                conf_chunks = _index_chunks(generator, self.n_ar_confidence, n_seg)
            pairs = _ar_scores(metric, bl_stats, [st for st, _ in group], chunks, report(run))
            conf_scores = [None] * len(group)
            if conf_chunks is not None:
                conf_scores = _bootstrap_scores(metric, [st for st, _ in group], conf_chunks)
            for (stats, score), (first, second), conf in zip(group, pairs, conf_scores):
                diff = abs(bl_result.score - score.score)
                if _plain_floats(first) and _plain_floats(second):
                    p = _p_value([abs(a - b) for a, b in zip(first, second)], diff,
                                 _inclusive(metric))
                else:
                    import numpy as np
                    p = _numpy_p_value(np.abs(np.array(first) - np.array(second)), diff)
                res = Result(score.score, p)
                if conf is not None:
                    res.mean, res.ci = _estimate_ci(conf) if _plain_floats(conf) \
                        else _numpy_estimate_ci(conf)
                results.append(res)
        return results


# -- beyond sacreBLEU ----------------------------------------------------------------------------
# Extensions: not in sacreBLEU's API. They take the same inputs (hypotheses, or Statistics from
# metric._extract_corpus_statistics) and use the same resampler and score arithmetic.

def _as_statistics(metric, system, references=None):
    if isinstance(system, Statistics):
        if system.n_segments == 0:
            raise ValueError("no segment statistics: the corpus is empty")
        return system
    if isinstance(system, str):
        raise TypeError("a system is a sequence of hypothesis strings (or Statistics), not a str")
    return _statistics(metric, system, references)


def _group_rows(stats, groups):
    """Statistics whose rows are the sums of each group's segment rows, groups in order of first
    appearance. `groups` is a block size (consecutive segments) or one label per segment (e.g.
    document ids)."""
    n = stats.n_segments
    if isinstance(groups, bool):
        raise TypeError("groups must be a block size or one label per segment")
    if isinstance(groups, int):
        if groups < 1:
            raise ValueError(f"a block size must be >= 1, not {groups}")
        labels = [i // groups for i in range(n)]
    else:
        labels = list(groups)
        if len(labels) != n:
            raise ValueError(f"{len(labels)} group labels for {n} segments")
    order, members = [], {}
    for i, key in enumerate(labels):
        if key not in members:
            members[key] = []
            order.append(key)
        members[key].append(i)
    if not stats.integer:
        raise ValueError("resampling by groups needs integer statistics")
    w = stats.width
    rows = []
    for key in order:
        total = [0] * w
        for i in members[key]:
            row = stats.flat[i * w:(i + 1) * w]
            total = [a + b for a, b in zip(total, row)]
        rows.append(total)
    grouped = Statistics(rows)
    grouped.ar_dtype = stats.ar_dtype
    return grouped


def _seed_value(seed):
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or None, not {seed!r}")
    return seed


def _paired_inputs(metric, baseline, systems, n, name, seed, groups, references, progress):
    """What paired_bootstrap and paired_randomization share: checked counts and seed, every
    system's statistics and score (grouped into blocks when asked), and a PairedTest to run."""
    n = _check_samples(n, name)
    if n < 1:
        raise ValueError(f"{name} must be >= 1")
    seed = _seed_value(seed)
    bl = _as_statistics(metric, baseline, references)
    entries = [_as_statistics(metric, s, references) for s in systems]
    bl_score = _score(metric, bl)
    scored = [(st, _score(metric, st)) for st in entries]
    if groups is not None:
        bl = _group_rows(bl, groups)
        scored = [(_group_rows(st, groups), sc) for st, sc in scored]
    test = PairedTest.__new__(PairedTest)
    test.n_samples = n
    test.progress = progress
    return test, bl, Result(bl_score.score), scored, seed


def paired_bootstrap(metric, baseline, systems, n_samples=1000, seed=12345, groups=None,
                     references=None, progress=None):
    """Paired bootstrap resampling of each system against `baseline`: sacreBLEU's test (its
    p-value, mean and 95% interval for the same seed), resampling segments, or whole blocks or
    documents with `groups`. Resampling groups is an extension: sacreBLEU resamples segments
    only; it respects the correlation of sentences within a document.

    :param metric: A metric object (e.g. `BLEU(references=[refs])`).
    :param baseline: The baseline's hypotheses, or its :class:`Statistics`.
    :param systems: A list of systems (hypotheses or Statistics) to compare with it.
    :param n_samples: Bootstrap resamples (default 1000).
    :param seed: The seed (default 12345; None: fresh entropy).
    :param groups: None (segments), a block size (consecutive segments), or one label per
        segment (e.g. document ids).
    :param references: Reference streams, when `metric` has none cached.
    :param progress: Optional callable(done, total).
    :returns: One :class:`Result` per system (score, p_value, mean, ci).
    :raises ValueError: A bad count or seed, an empty corpus, group labels of another length.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import (PairedTest, all_pairs, paired_bootstrap,
    ...                                  paired_randomization, paired_t_test)
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> bleu = BLEU(references=[refs])
    >>> result, = paired_bootstrap(bleu, base, [better], n_samples=200)
    >>> round(result.score, 2), round(result.p_value, 4)
    (95.56, 0.005)
    >>> type(result.mean).__name__, f"{result.mean:.2f} +/- {result.ci:.2f}"
    ('float64', '95.11 +/- 7.30')
    """
    test, bl, bl_result, scored, seed = _paired_inputs(
        metric, baseline, systems, n_samples, "n_samples", seed, groups, references, progress)
    return test._run_bs(metric, bl, bl_result, scored, seed)


def paired_randomization(metric, baseline, systems, n_trials=10000, seed=12345, groups=None,
                         references=None, progress=None):
    """Approximate randomization of each system against `baseline`: sacreBLEU's test (its
    p-value for the same seed), swapping segments, or whole blocks or documents with `groups`
    (an extension: sacreBLEU swaps segments only).

    :param metric: A metric object (e.g. `BLEU(references=[refs])`).
    :param baseline: The baseline's hypotheses, or its :class:`Statistics`.
    :param systems: A list of systems (hypotheses or Statistics) to compare with it.
    :param n_trials: Randomization trials (default 10000).
    :param seed: The seed (default 12345; None: fresh entropy).
    :param groups: None (segments), a block size, or one label per segment.
    :param references: Reference streams, when `metric` has none cached.
    :param progress: Optional callable(done, total).
    :returns: One :class:`Result` per system (score and p_value).
    :raises ValueError: A bad count or seed, an empty corpus, group labels of another length.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import (PairedTest, all_pairs, paired_bootstrap,
    ...                                  paired_randomization, paired_t_test)
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> bleu = BLEU(references=[refs])
    >>> result, = paired_randomization(bleu, base, [better], n_trials=200)
    >>> round(result.p_value, 4)
    0.005
    """
    test, bl, bl_result, scored, seed = _paired_inputs(
        metric, baseline, systems, n_trials, "n_trials", seed, groups, references, progress)
    test.n_ar_confidence = -1
    return test._run_ar(metric, bl, bl_result, scored, seed)


def holm(p_values):
    """Holm's step-down adjustment of p-values for multiple comparisons (it controls the
    family-wise error rate): sorted ascending, p_(k) * (m - k + 1), kept monotone, capped at 1.

    :param p_values: The raw p-values.
    :returns: The adjusted p-values, in the input order.
    :raises ValueError: A value outside [0, 1].

    >>> from cybleu.significance import holm
    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    p = [float(v) for v in p_values]
    for v in p:
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"p-values lie in [0, 1], not {v}")
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def bootstrap_all_pairs(metric, systems, n_samples=1000, seed=12345, groups=None,
                        references=None, progress=None):
    """The paired bootstrap of every pair of systems from one set of resamples (extension).

    With a seed, `paired_bootstrap` draws the same resample indices for every system, so the
    resamples of all systems are drawn and scored once here, and each pair's p-value, and each
    system's mean and 95% interval, is computed from them exactly as `paired_bootstrap` computes
    it: `raw[i][j]` equals `paired_bootstrap(metric, systems[i], [systems[j]], n_samples,
    seed)[0].p_value` (the test is symmetric), and `results[j].mean`/`.ci` that call's mean and
    interval: with seed 12345, sacreBLEU's paired-table numbers, and the half-width of
    `corpus_score(n_bootstrap=n_samples)` (whose mean is statistics.mean of the same resamples,
    which may differ from numpy's in the last bit). With seed=None one fresh stream is drawn for
    all systems.

    :param metric: A metric object (e.g. `BLEU(references=[refs])`).
    :param systems: A dict of system name -> hypotheses (or :class:`Statistics`).
    :param n_samples: Bootstrap resamples (default 1000).
    :param seed: The seed (default 12345; None: fresh entropy).
    :param groups: Resample blocks or documents, as in :func:`paired_bootstrap`.
    :param references: Reference streams, when `metric` has none cached.
    :param progress: Optional callable(resamples done).
    :returns: (names, results, raw): a :class:`Result` (score, mean, ci; p_value None) per
        system, and the matrix of unadjusted p-values (None on the diagonal).
    :raises ValueError: Fewer than two systems, an empty corpus, systems of different lengths,
        a bad count or seed.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import bootstrap_all_pairs
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> names, results, raw = bootstrap_all_pairs(BLEU(references=[refs]),
    ...                                           {"base": base, "better": better}, n_samples=200)
    >>> names, round(raw[0][1], 4), round(results[1].score, 2)
    (['base', 'better'], 0.005, 95.56)
    """
    _check_samples(n_samples, "n_samples")
    if n_samples < 1:
        raise ValueError("n_samples must be >= 1")
    seed = _seed_value(seed)
    names = list(systems)
    if len(names) < 2:
        raise ValueError("bootstrap_all_pairs needs at least two systems")
    stats = [_as_statistics(metric, systems[name], references) for name in names]
    counts = {st.n_segments for st in stats}
    if len(counts) > 1:
        raise ValueError(f"the systems have different numbers of segments: {sorted(counts)}")
    scores = [_score(metric, st).score for st in stats]
    if groups is not None:
        stats = [_group_rows(st, groups) for st in stats]
    resampled = _bootstrap_scores(metric, stats, _draws(seed, n_samples, stats[0].n_segments),
                                  progress)
    results = []
    for score, sys_scores in zip(scores, resampled):
        mean, ci = _estimate_ci(sys_scores) if _plain_floats(sys_scores) \
            else _numpy_estimate_ci(sys_scores)
        results.append(Result(score, None, mean, ci))
    raw = [[None] * len(names) for _ in names]
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            p = _bs_statistic(scores[i], scores[j], resampled[i], resampled[j],
                              _inclusive(metric))[2]
            raw[i][j] = raw[j][i] = p
    return names, results, raw


def all_pairs(metric, systems, test="bs", n_samples=None, seed=12345, groups=None,
              correction="holm", references=None):
    """A p-value for every pair of systems (an extension: sacreBLEU compares each system with
    one baseline). Every pair is tested with the same resamples, then the p-values are adjusted
    with Holm's method over all m(m-1)/2 pairs.

    :param metric: A metric object (e.g. `BLEU(references=[refs])`).
    :param systems: A dict of system name -> hypotheses (or :class:`Statistics`).
    :param test: `'bs'` (paired bootstrap, default) or `'ar'` (approximate randomization).
    :param n_samples: Resamples or trials (default 1000 for `'bs'`, 10000 for `'ar'`).
    :param seed: The seed (default 12345).
    :param groups: As for :func:`paired_bootstrap`.
    :param correction: `'holm'` (default) or None for the raw p-values.
    :param references: Reference streams, when `metric` has none cached.
    :returns: (names, matrix): `matrix[i][j]` is the p-value of systems i and j (None on the
        diagonal).
    :raises ValueError: An unknown test or correction, fewer than two systems.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import (PairedTest, all_pairs, paired_bootstrap,
    ...                                  paired_randomization, paired_t_test)
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> bleu = BLEU(references=[refs])
    >>> names, matrix = all_pairs(bleu, {"base": base, "better": better}, n_samples=200)
    >>> names, round(matrix[0][1], 4)
    (['base', 'better'], 0.005)
    """
    if test not in ("bs", "ar"):
        raise ValueError(f"Unknown test type {test!r}: use 'ar' or 'bs'")
    if correction not in ("holm", None):
        raise ValueError(f"correction must be 'holm' or None, not {correction!r}")
    names = list(systems)
    if len(names) < 2:
        raise ValueError("all_pairs needs at least two systems")
    n = n_samples if n_samples is not None else (1000 if test == "bs" else 10000)
    stats = {name: _as_statistics(metric, systems[name], references) for name in names}
    pairs = {}
    if test == "bs":
        # every pair from one set of resamples: the same p-values as a paired_bootstrap per pair
        _, _, raw = bootstrap_all_pairs(metric, stats, n, seed, groups)
        for i, a in enumerate(names):
            for j in range(i + 1, len(names)):
                pairs[(a, names[j])] = raw[i][j]
    for i, a in enumerate(names if test == "ar" else ()):
        rest = names[i + 1:]
        if not rest:
            break
        results = paired_randomization(metric, stats[a], [stats[b] for b in rest], n, seed,
                                       groups)
        for b, result in zip(rest, results):
            pairs[(a, b)] = result.p_value
    keys = list(pairs)
    values = holm([pairs[k] for k in keys]) if correction == "holm" else [pairs[k] for k in keys]
    adjusted = dict(zip(keys, values))
    matrix = [[None if a == b else adjusted.get((a, b), adjusted.get((b, a))) for b in names]
              for a in names]
    return names, matrix


def _betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b) (continued fraction, modified Lentz)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1.0) / (a + b + 2.0):  # the fraction converges fast on this side
        return 1.0 - _betainc(b, a, 1.0 - x)
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / (c if abs(c) > tiny else tiny)
        h *= d * c
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / (c if abs(c) > tiny else tiny)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return math.exp(log_front) * h / a


def student_t_sf2(t, df):
    """The two-sided p-value of Student's t statistic.

    :param t: The t statistic.
    :param df: Degrees of freedom (positive).
    :returns: `P(|T| >= |t|)` for T with `df` degrees of freedom.
    :raises ValueError: `df` is not positive.

    >>> from cybleu.significance import student_t_sf2
    >>> round(student_t_sf2(2.0, 10), 6)
    0.073388
    """
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    if math.isnan(t):
        return float("nan")
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


class TTestResult:
    """The result of :func:`paired_t_test`.

    :param t: The t statistic.
    :param df: Degrees of freedom (blocks - 1).
    :param p_value: The two-sided p-value.
    :param mean_difference: The mean of the block differences (system - baseline).
    :param baseline_blocks: The baseline's score on each block.
    :param system_blocks: The system's score on each block.

    >>> from cybleu.significance import TTestResult
    >>> TTestResult(2.0, 10, 0.07, 1.5, [30.0], [31.5])
    TTestResult(t=2.0, df=10, p_value=0.07, mean_difference=1.5)
    """

    def __init__(self, t, df, p_value, mean_difference, baseline_blocks, system_blocks):
        self.t = t
        self.df = df
        self.p_value = p_value
        self.mean_difference = mean_difference
        self.baseline_blocks = baseline_blocks
        self.system_blocks = system_blocks

    def __repr__(self):
        return (f"TTestResult(t={self.t!r}, df={self.df}, p_value={self.p_value!r}, "
                f"mean_difference={self.mean_difference!r})")


def paired_t_test(metric, baseline, system, n_blocks=20, block_size=None, references=None):
    """The test of the 2002 BLEU paper (Papineni et al., section 6): score the corpus in blocks,
    then a paired t-test on the per-block score differences. An extension: not in sacreBLEU.

    Blocks of `n_blocks` split the segments as evenly as possible (the first ones one segment
    longer, as `numpy.array_split`).

    :param metric: A metric object (e.g. `BLEU(references=[refs])`).
    :param baseline: The baseline's hypotheses, or its :class:`Statistics`.
    :param system: The other system's hypotheses, or its Statistics.
    :param n_blocks: The number of blocks (default 20, at least 2).
    :param block_size: Consecutive blocks of this many segments instead.
    :param references: Reference streams, when `metric` has none cached.
    :returns: A :class:`TTestResult`.
    :raises ValueError: Systems of different lengths, fewer than two blocks, more blocks than
        segments.

    >>> from cybleu.metrics import BLEU
    >>> from cybleu.significance import (PairedTest, all_pairs, paired_bootstrap,
    ...                                  paired_randomization, paired_t_test)
    >>> refs = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...         "we went home early", "she reads a book"]
    >>> base = ["the cat sat on a mat", "a dog barks at night", "it rains today", "we went home",
    ...         "she reads books"]
    >>> better = ["the cat sat on the mat", "a dog barked at night", "it is raining today",
    ...           "we went home", "she reads a book"]
    >>> bleu = BLEU(references=[refs])
    >>> result = paired_t_test(bleu, base, better, n_blocks=5)
    >>> result.df, round(result.t, 3), round(result.p_value, 3)
    (4, 3.371, 0.028)
    """
    bl = _as_statistics(metric, baseline, references)
    sy = _as_statistics(metric, system, references)
    n = bl.n_segments
    if sy.n_segments != n:
        raise ValueError(f"the systems have {n} and {sy.n_segments} segments")
    if block_size is not None:
        if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
            raise ValueError(f"block_size must be a positive int, not {block_size!r}")
        bounds = [(s, min(s + block_size, n)) for s in range(0, n, block_size)]
    else:
        if isinstance(n_blocks, bool) or not isinstance(n_blocks, int) or n_blocks < 2:
            raise ValueError(f"n_blocks must be an int >= 2, not {n_blocks!r}")
        if n_blocks > n:
            raise ValueError(f"{n_blocks} blocks need at least as many segments, not {n}")
        size, extra = divmod(n, n_blocks)
        bounds, start = [], 0
        for k in range(n_blocks):
            stop = start + size + (1 if k < extra else 0)
            bounds.append((start, stop))
            start = stop
    if len(bounds) < 2:
        raise ValueError("a t-test needs at least two blocks")
    bl_blocks = [_score(metric, bl.select(range(a, b))).score for a, b in bounds]
    sy_blocks = [_score(metric, sy.select(range(a, b))).score for a, b in bounds]
    diffs = [s - b for s, b in zip(sy_blocks, bl_blocks)]
    k = len(diffs)
    mean = math.fsum(diffs) / k
    var = math.fsum((d - mean) ** 2 for d in diffs) / (k - 1)
    df = k - 1
    if var == 0.0:
        t = 0.0 if mean == 0.0 else math.copysign(math.inf, mean)
    else:
        t = mean / math.sqrt(var / k)
    return TTestResult(t, df, student_t_sf2(t, df), mean, bl_blocks, sy_blocks)


def _compute_p_value(stats, real_difference):
    """sacreBLEU's p-value helper (imported by some users): (count(stats > real) + 1) / (n + 1)."""
    return _p_value([float(s) for s in stats], real_difference)
