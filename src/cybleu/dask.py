"""Exact corpus BLEU, chrF and TER, sentence scores and best-of-n on Dask bags and dataframes.
For example::

    import cybleu.dask
    bag = cybleu.dask.read_text("hyp.txt", "ref.A.txt", "ref.B.txt")   # rows (hyp, ref_a, ref_b)
    cybleu.dask.corpus_bleu(bag).score          # == cybleu.corpus_bleu(hyps, [refs_a, refs_b])

Each partition's rows go through the compiled kernel into one vector of integer statistics
(cybleu._scale.partition); `Bag.reduction` adds the vectors as a tree (`split_every` at a time), and the
score is computed once, on the client, from the sum: the same number as one process, bit for bit,
whatever the partitioning. Averaging per-partition scores is not the corpus score.

Rows: a bag holds tuples `(hyp, ref_1, ..., ref_R)` (or `(hyp, [refs])`, or dicts with `hyp=` and
`refs=` naming the keys); a dataframe has a hypothesis column and one column per reference stream
(or one column of reference lists). Missing references are None (NaN in a dataframe). Hypotheses
without references in the rows take `references=`: streams held by the client, shipped to each
worker once (one graph key), each partition taking its rows' slice.

Needs `pip install "cybleu[dask]"` (dask[dataframe,distributed]).
"""
try:
    import dask
    import dask.bag as db
    from dask import delayed
except ImportError as _err:  # pragma: no cover - the message is the point
    raise ImportError('cybleu.dask needs Dask: pip install "cybleu[dask]"') from _err

from ._scale import partition as _partition, select as _select, textparts as _textparts

__all__ = ["corpus_bleu", "corpus_chrf", "corpus_ter", "corpus_score", "statistics",
           "sentence_bleu", "sentence_chrf", "sentence_ter", "sentence_scores", "best_of",
           "read_text", "segment_statistics"]

ENGINE = "cybleu.dask"
# bag name -> (group, [(first record, pieces per stream)]) of bags made by read_text, so that
# errors name the file and line; bounded (only the latest bags are remembered)
_ORIGINS = {}
_ORIGINS_KEPT = 64


# -- rows -> columns ------------------------------------------------------------------------------

def _is_frame(data):
    try:
        import dask.dataframe as dd
    except ImportError:
        return False
    return isinstance(data, dd.DataFrame)


def _check_collection(data):
    if isinstance(data, db.Bag) or _is_frame(data):
        return
    raise TypeError(f"{ENGINE}: expected a dask Bag or DataFrame, not {type(data).__name__} "
                    "(for lists in memory use cybleu.corpus_bleu & co.)")


def _cells(series):
    """A pandas column as a list, missing values (NaN, NA) as None."""
    values = series.tolist()
    if series.hasnans if hasattr(series, "hasnans") else False:
        import pandas as pd
        values = [None if v is not None and not isinstance(v, (list, tuple)) and
                  _isna(pd, v) else v for v in values]
    return values


def _isna(pd, value):
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):
        return False


def _frame_columns(frame, hyp, refs):
    cols = list(frame.columns)
    hyp = cols[0] if hyp is None else hyp
    hyps = _cells(frame[hyp])
    if refs is None:
        refs = [c for c in cols if c != hyp]
    if isinstance(refs, (list, tuple)):
        return hyps, [_cells(frame[c]) for c in refs]
    return hyps, _partition._list_column(
        [None if cell is None else list(cell) for cell in _cells(frame[refs])])


def _columns(part, is_frame, hyp, refs):
    if is_frame:
        return _frame_columns(part, hyp, refs)
    return _partition.columns_of(part, hyp, refs)


def _n_streams(data, hyp, refs):
    """The number of reference streams, when the layout says (None for a list column)."""
    if isinstance(refs, (list, tuple)):
        return len(refs)
    if refs is not None:
        return None
    if _is_frame(data):
        return len(data.columns) - 1
    return None


# -- the tasks ------------------------------------------------------------------------------------

def _partition_task(part, plan, number, is_frame, hyp, refs, where, ref_streams, offset):
    hyps, streams = _columns(part, is_frame, hyp, refs)
    if ref_streams is not None:
        streams = [stream[offset:offset + len(hyps)] for stream in ref_streams]
    return [_partition.partition_stats(plan, hyps, streams, number, where)]


def _merge(partials):
    return _partition.merge(partials)


def _where(data, hyp):
    """Per partition, a row -> "line L of FILE" function for bags made by read_text."""
    origin = _ORIGINS.get(getattr(data, "name", None))
    if origin is None:
        return None
    group, parts = origin
    stream = hyp if isinstance(hyp, int) and not isinstance(hyp, bool) else 0
    return [_textparts.Where(pieces[stream], group[stream]) for _, pieces in parts]


def _lengths(data, is_frame):
    """Rows per partition (computed; known without reading for bags from read_text)."""
    origin = _ORIGINS.get(getattr(data, "name", None))
    if origin is not None:
        group, parts = origin
        return [sum(end - first for _, first, end in pieces[0]) // group[0]
                for _, pieces in parts]
    if is_frame:
        return list(data.map_partitions(len).compute())
    return list(data.map_partitions(lambda part: [sum(1 for _ in part)]).compute())


def _shared_references(references, data, is_frame, metric_name):
    """(a delayed object holding the streams, the offset of each partition)."""
    from .metrics.base import _check_streams
    lengths = _lengths(data, is_frame)
    total = sum(lengths)
    _check_streams(references, total, metric_name)
    offsets, start = [], 0
    for n in lengths:
        offsets.append(start)
        start += n
    streams = [list(stream) for stream in references]
    # one key in the graph: each worker fetches it once, whatever the number of partitions
    shared = delayed(streams, traverse=False, name=f"cybleu-references-{dask.base.tokenize(streams)}")
    return shared, offsets


def statistics(data, metric, hyp=None, refs=None, references=None, split_every=None):
    """The summed statistics of a collection, lazily: (plan, a dask Item of the Partial).

    `cybleu._scale.partition.finish(plan, item.compute())` is the score; several metrics' items can be
    computed together with `dask.compute`. Arguments as `corpus_score`."""
    _check_collection(data)
    is_frame = _is_frame(data)
    n_refs = len(references) if references is not None else _n_streams(data, hyp, refs)
    plan = _partition.Plan(metric, n_refs, ENGINE)
    wheres = _where(data, hyp)
    if references is not None:
        shared, offsets = _shared_references(references, data, is_frame, type(metric).__name__)
    else:
        shared, offsets = None, None
    parts = data.to_delayed()
    plan_key = delayed(plan, traverse=False, name=f"cybleu-plan-{dask.base.tokenize(plan)}")
    tasks = [delayed(_partition_task, pure=True)(
        part, plan_key, i, is_frame, hyp, refs, None if wheres is None else wheres[i], shared,
        None if offsets is None else offsets[i]) for i, part in enumerate(parts)]
    if not tasks:
        raise ValueError(f"{type(metric).__name__}: no hypotheses: the corpus is empty.")
    return plan, db.from_delayed(tasks).reduction(_merge, _merge, split_every=split_every)


def corpus_score(data, metric, hyp=None, refs=None, references=None, split_every=None):
    """The corpus score of a dask Bag or DataFrame with a cybleu metric object (BLEU, CHRF, TER
    with any settings), bit for bit `metric.corpus_score(hyps, streams)`.

    :param data: a Bag of rows or a DataFrame (see the module's docstring).
    :param metric: a cybleu.metrics BLEU, CHRF or TER; its `num_refs` is set, so
        `metric.get_signature()` works afterwards.
    :param hyp: the hypothesis's key or column (default: the first).
    :param refs: the reference keys or columns (a list), or one key holding a list per row
        (default: the rest of the row).
    :param references: reference streams held here instead, for rows of hypotheses only.
    :param split_every: partitions added per step of the tree (Dask's default, 8).
    :returns: the metric's Score.
    :raises cybleu._scale.partition.PartitionError: for bad input, naming the partition and row (and
        the file and line for bags made by read_text).
    """
    plan, item = statistics(data, metric, hyp, refs, references, split_every)
    return _partition.finish(plan, item.compute())


def corpus_bleu(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
                **kwargs):
    """Corpus BLEU of a dask Bag or DataFrame, bit for bit `cybleu.corpus_bleu` on its rows.

    `kwargs` are cybleu.metrics.BLEU's arguments (tokenize, lowercase, smooth_method, ...), or
    pass `metric=` a BLEU object. Other arguments as `corpus_score`.

    >>> import dask.bag as db                                    # doctest: +SKIP
    >>> rows = db.from_sequence([("the cat", "the cat"), ("a dog", "the dog")], npartitions=2)
    >>> cybleu.dask.corpus_bleu(rows).score                      # doctest: +SKIP
    """
    metric = _partition.make_metric("bleu", metric, **kwargs)
    return corpus_score(data, metric, hyp, refs, references, split_every)


def corpus_chrf(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
                **kwargs):
    """Corpus chrF (chrF++ with word_order=2) of a dask Bag or DataFrame, bit for bit
    `cybleu.corpus_chrf`. `kwargs`: cybleu.metrics.CHRF's arguments; see `corpus_bleu`."""
    metric = _partition.make_metric("chrf", metric, **kwargs)
    return corpus_score(data, metric, hyp, refs, references, split_every)


def corpus_ter(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
               **kwargs):
    """Corpus TER of a dask Bag or DataFrame, bit for bit `cybleu.corpus_ter`. `kwargs`:
    cybleu.metrics.TER's arguments; see `corpus_bleu`. TER's reference lengths are reduced in
    order when they need to be (see cybleu._scale.partition)."""
    metric = _partition.make_metric("ter", metric, **kwargs)
    return corpus_score(data, metric, hyp, refs, references, split_every)


# -- sentence scores ------------------------------------------------------------------------------

def _sentence_frame(frame, metric, hyp, refs, ref_streams, offsets, name, partition_info=None):
    import pandas as pd
    hyps, streams = _frame_columns(frame, hyp, refs)
    number = partition_info["number"] if partition_info else None
    if ref_streams is not None:
        start = offsets[number]
        streams = [stream[start:start + len(hyps)] for stream in ref_streams]
    return pd.Series(_scores(metric, hyps, streams, number), index=frame.index, name=name,
                     dtype="float64")


def _sentence_bag(part, metric, hyp, refs):
    hyps, streams = _partition.columns_of(part, hyp, refs)
    return _scores(metric, hyps, streams, None).tolist()


def _scores(metric, hyps, streams, number):
    import numpy as np
    if not hyps:
        return np.empty(0, dtype=np.float64)
    try:
        return _select.sentence_scores(metric, hyps, streams)
    except (TypeError, ValueError) as err:
        plan = _partition.Plan(metric, len(streams), ENGINE)
        raise _partition._located(plan, err, hyps, streams, number, None) from err


def sentence_scores(data, metric, hyp=None, refs=None, references=None, name=None):
    """Per-row sentence scores: a dask Series aligned with a DataFrame's rows (so
    `df[scores >= 20]` filters it), or a Bag of floats for a Bag; each bit for bit
    `metric.sentence_score(hyp, refs).score`.

    :param metric: a name ("bleu", "chrf", "chrf++", "ter") or a cybleu metric object.
    :param references: for a DataFrame of hypotheses only: reference streams, shipped once per
        worker.
    """
    _check_collection(data)
    metric = _select.sentence_metric(metric)
    name = name or type(metric).__name__.lower()
    if not _is_frame(data):
        if references is not None:
            raise TypeError(f"{ENGINE}: references= takes a DataFrame; put the references in a "
                            "Bag's rows")
        return data.map_partitions(_sentence_bag, metric, hyp, refs)
    shared = offsets = None
    if references is not None:
        shared, offsets = _shared_references(references, data, True, type(metric).__name__)
    return data.map_partitions(_sentence_frame, metric, hyp, refs, shared, offsets, name,
                               meta=(name, "float64"))


def sentence_bleu(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence BLEU per row (effective order on, as sacreBLEU's sentence_bleu); `kwargs`:
    cybleu.metrics.BLEU's arguments. Bit for bit `cybleu.batch_sentence_bleu`. See
    `sentence_scores`."""
    return sentence_scores(data, _select.sentence_metric("bleu", **kwargs), hyp, refs,
                           references, "bleu")


def sentence_chrf(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence chrF per row; `kwargs`: cybleu.metrics.CHRF's arguments (word_order=2: chrF++).
    See `sentence_scores`."""
    return sentence_scores(data, _select.sentence_metric("chrf", **kwargs), hyp, refs,
                           references, "chrf")


def sentence_ter(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence TER per row; `kwargs`: cybleu.metrics.TER's arguments. See `sentence_scores`."""
    return sentence_scores(data, _select.sentence_metric("ter", **kwargs), hyp, refs,
                           references, "ter")


# -- best of n ------------------------------------------------------------------------------------

def _best_rows(cands, hyps_refs_streams, metric, k, number):
    flat = []
    for i, group in enumerate(cands):
        if group is None or isinstance(group, str) or len(group) != k:
            size = "none" if group is None else (1 if isinstance(group, str) else len(group))
            raise _partition.PartitionError(
                f"{ENGINE}: partition {number}, row {i}: {size} candidates, not k={k}")
        flat.extend(group)
    if not cands:
        return [], []
    try:
        best = _select.best_of(flat, hyps_refs_streams, k, metric)
    except (TypeError, ValueError) as err:
        raise type(err)(f"{ENGINE}: partition {number}: {err}") from err
    return best.index.tolist(), best.score.tolist()


def _best_frame(frame, metric, k, cands, refs, partition_info=None):
    import pandas as pd
    number = partition_info["number"] if partition_info else None
    cols = list(frame.columns)
    cands = cols[0] if cands is None else cands
    if isinstance(cands, (list, tuple)):
        groups = list(zip(*[_cells(frame[c]) for c in cands]))
    else:
        groups = [None if g is None else list(g) for g in _cells(frame[cands])]
    if refs is None:
        used = set(cands) if isinstance(cands, (list, tuple)) else {cands}
        refs = [c for c in cols if c not in used]
    _, streams = _frame_columns(frame, cols[0], refs)
    index, score = _best_rows(groups, streams, metric, k, number)
    best = [group[j] for group, j in zip(groups, index)]
    return pd.DataFrame({"index": pd.Series(index, dtype="int64"),
                         "score": pd.Series(score, dtype="float64"),
                         "best": pd.Series(best, dtype=object)}).set_axis(frame.index)


def _best_bag(part, metric, k, cands, refs):
    part = list(part)
    key = 0 if cands is None else cands
    groups = [row[key] for row in part]
    if refs is None:
        streams = [[row[j] for row in part] for j in range(1, len(part[0]))] if part else []
    elif isinstance(refs, (list, tuple)):
        streams = [[row[j] for row in part] for j in refs]
    else:
        streams = _partition._list_column([row[refs] for row in part])
    index, score = _best_rows(groups, streams, metric, k, None)
    return [(j, s, group[j]) for group, j, s in zip(groups, index, score)]


def best_of(data, k, cands=None, refs=None, metric="bleu", **kwargs):
    """The best of k candidates per row by sentence score, as `cybleu.best_of`.

    Rows hold the k candidates (a tuple or list; in a DataFrame one list column or k columns,
    `cands=`) and the references (`refs=`, default: the rest of the row). A read_text bag of an
    n-best file and its references, `read_text("nbest.txt", "ref.txt", group=(k, 1))`, has that
    shape.

    :returns: for a DataFrame, a dask DataFrame with columns `index` (0..k-1), `score` and
        `best` (the candidate), aligned with the rows; for a Bag, a Bag of (index, score, best).
    """
    _check_collection(data)
    _select._check_k(k)
    metric = _select.sentence_metric(metric, **kwargs)
    if not _is_frame(data):
        return data.map_partitions(_best_bag, metric, k, cands, refs)
    import pandas as pd
    meta = pd.DataFrame({"index": pd.Series([], dtype="int64"),
                         "score": pd.Series([], dtype="float64"),
                         "best": pd.Series([], dtype=object)})
    return data.map_partitions(_best_frame, metric, k, cands, refs, meta=meta)


# -- segment statistics in order (paired significance) ---------------------------------------------

def _segment_task(part, metric, is_frame, hyp, refs):
    hyps, streams = _columns(part, is_frame, hyp, refs)
    if not hyps:
        return []
    return [metric._extract_corpus_statistics(hyps, streams)]


def segment_statistics(data, metric, hyp=None, refs=None):
    """Every segment's statistics in the collection's order (partition by partition, rows in
    order), as a cybleu.significance.Statistics: the input of the paired tests
    (`paired_bootstrap(metric, baseline_stats, [system_stats])`), which need sacreBLEU's segment
    order to reproduce its seeded resampling. The client holds 8 bytes per statistic per segment
    (about 80 bytes a segment for BLEU): fine for test sets, not for a whole crawl."""
    from .significance import Statistics
    _check_collection(data)
    is_frame = _is_frame(data)
    tasks = [delayed(_segment_task, pure=True)(part, metric, is_frame, hyp, refs)
             for part in data.to_delayed()]
    stats = Statistics()
    for chunk in dask.compute(*tasks):
        for block in chunk:
            stats.extend(block)
    return stats


# -- reading parallel files ---------------------------------------------------------------------

def read_text(*streams, group=None, records_per_partition=100_000, encoding="utf-8"):
    """A Bag of aligned rows from parallel text files, partitioned by line ranges.

    :param streams: one path, glob (its sorted matches, one after the other) or list of paths per
        stream: e.g. `read_text("hyp.txt", "ref.A.txt", "ref.B.txt")` gives rows
        (hyp, ref_a, ref_b). `.gz` files are read transparently.
    :param group: lines per record for each stream (default 1 each); `group=(8, 1)` reads an
        8-best file beside its references as rows ((c1, ..., c8), ref).
    :param records_per_partition: rows per partition.
    :returns: a dask Bag of tuples, one item per stream.
    :raises ValueError: when the streams do not have the same number of records (naming the
        files and their line counts), or, when computed, for a line that cannot be decoded
        (naming the file and line).

    The files are indexed first (one streaming pass per file, run on the workers: its number of
    lines and the byte offset of every 16384th line); each partition then seeks to its range and
    reads only its lines. A gzip file has no offsets: a partition reads it from the start up to its
    range (cut large gzip data into several files, one glob, to keep that short). No task holds a
    whole file.
    """
    if not streams:
        raise TypeError("read_text needs at least one stream (a path or a glob)")
    files = [_textparts.expand(s) for s in streams]
    group = tuple([1] * len(files) if group is None else group)
    if len(group) != len(files) or any(isinstance(g, bool) or not isinstance(g, int) or g < 1
                                       for g in group):
        raise ValueError(f"group should give a positive int per stream ({len(files)}), "
                         f"not {group!r}")
    if records_per_partition < 1:
        raise ValueError("records_per_partition must be at least 1")
    unique = list(dict.fromkeys(p for fs in files for p in fs))
    indexed = dict(zip(unique, dask.compute(*[delayed(_textparts.index_file, pure=False)(p)
                                              for p in unique])))
    counts = [[indexed[p][0] for p in fs] for fs in files]
    n, parts = _textparts.plan_ranges(files, counts, group, records_per_partition)
    if not parts:
        return db.from_sequence([], npartitions=1)
    tasks = []
    for first, pieces in parts:
        offsets = {path: indexed[path][1] for stream in pieces for path, _, _ in stream}
        tasks.append(delayed(_textparts.read_range, pure=True)(pieces, group, offsets, encoding))
    bag = db.from_delayed(tasks)
    _ORIGINS[bag.name] = (group, parts)
    while len(_ORIGINS) > _ORIGINS_KEPT:
        _ORIGINS.pop(next(iter(_ORIGINS)))
    return bag
