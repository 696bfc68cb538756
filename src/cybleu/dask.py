"""Exact corpus BLEU, chrF and TER, sentence scores and best-of-n on Dask bags and dataframes.
For example::

    import cybleu.dask
    bag = cybleu.dask.read_text("hyp.txt", "ref.A.txt", "ref.B.txt")   # rows (hyp, ref_a, ref_b)
    cybleu.dask.corpus_bleu(bag).score          # == cybleu.corpus_bleu(hyps, [refs_a, refs_b])

Each partition's rows go through cybleu's compiled kernel into one vector of integer statistics;
`Bag.reduction` adds the vectors as a tree (`split_every` at a time), and the score is computed
once, on the client, from the sum: the same number as one process (and sacreBLEU), bit for bit,
whatever the partitioning. Averaging per-partition scores does not give the corpus score.

Rows: a bag holds tuples `(hyp, ref_1, ..., ref_R)` (or `(hyp, [refs])`, or dicts, with `hyp=`
and `refs=` naming the keys); a dataframe has a hypothesis column and one column per reference
stream (or one column of reference lists). Missing references are None (NaN in a dataframe).
Hypotheses without references in the rows take `references=`: streams held by the client, shipped
to each worker once (one graph key), each partition taking its rows' slice.

Any Dask scheduler runs the functions: a `distributed.Client`, or a local one; a bag's default
is a pool of processes, so the examples below choose threads.

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
           "read_text", "filter_text", "segment_statistics"]

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
    return hyps, _partition._list_column(_cells(frame[refs]))


def _columns(part, is_frame, hyp, refs):
    if is_frame:
        return _frame_columns(part, hyp, refs)
    return _partition.columns_of(part, hyp, refs)


def _located_columns(part, is_frame, hyp, refs, number, own_refs=True):
    """_columns, a row that lacks a field (or is no row) named with its partition. `own_refs`:
    the rows hold their references (no references= held by the client)."""
    try:
        hyps, streams = _columns(part, is_frame, hyp, refs)
        if own_refs and not is_frame:
            _partition.require_references(hyps, streams)
        return hyps, streams
    except (TypeError, ValueError) as err:
        raise _partition.layout_error(ENGINE, err, number) from err


def _numbers(bag):
    """A bag holding each partition's number in that partition (a bag's tasks are not told
    their number: map_partitions hands this one over beside the data)."""
    return db.range(bag.npartitions, npartitions=bag.npartitions)


def _number(numbers):
    return next(iter(numbers), None)


def _text_columns(frame, hyp, refs, lists=False):
    """{column: role} of the columns a frame's rows are read from (the defaults as
    _frame_columns takes them)."""
    cols = list(frame.columns)
    hyp_cols = hyp if isinstance(hyp, (list, tuple)) else [cols[0] if hyp is None else hyp]
    if refs is None:
        refs = [c for c in cols if c not in hyp_cols]
    roles = {c: "candidates" if lists else "hypothesis" for c in hyp_cols}
    if isinstance(refs, (list, tuple)):
        roles.update({c: "reference" for c in refs})
    else:
        roles[refs] = "references"
    return roles


def _check_frame(frame, hyp, refs, lists=False):
    """Refuse, on the client, what the core would refuse but Dask hides: a column whose dtype
    holds no text (int, bool, dates, bytes), and the cells that Dask's default
    `dataframe.convert-string` turned into text before any task ran (an int, bytes, a list or a
    float in an object column of a frame from `dd.from_pandas`: they would be scored as "5",
    "b'x'", "['a']"). What other sources convert when they read (CSV, Parquet) cannot be seen
    here; the scale guide says so."""
    import pandas as pd
    roles = _text_columns(frame, hyp, refs, lists)
    dtypes = frame.dtypes
    for column, role in roles.items():
        if column not in dtypes.index:
            continue        # _frame_columns names the missing column when the task runs
        dtype = dtypes[column]
        text = (pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)
                or (role == "reference" and pd.api.types.is_float_dtype(dtype)))
        if not text:
            raise TypeError(f"{ENGINE}: column {column!r} ({role}) has dtype {dtype}: cybleu "
                            "scores text (str); convert it yourself if its values are text")
    for original in _unconverted(frame):
        for column, role in roles.items():
            if column not in getattr(original, "columns", ()):
                continue
            cells = original[column]
            if not pd.api.types.is_object_dtype(cells.dtype):
                continue
            lists_ok = role in ("references", "candidates")
            kind = pd.api.types.infer_dtype(cells, skipna=True)
            if kind in ("string", "empty") or (lists_ok and kind == "mixed"
                                                and _all_lists(cells)):
                continue
            for label, value in cells.items():
                if isinstance(value, str) or value is None or _isna(pd, value):
                    continue
                if lists_ok and isinstance(value, (list, tuple)):
                    continue
                raise TypeError(
                    f"{ENGINE}: column {column!r} ({role}), row {label!r} is "
                    f"{type(value).__name__} ({value!r:.40}), not str: Dask's "
                    "'dataframe.convert-string' (on by default) would turn it into text "
                    "and it would get a score. Fix the data, or build the frame under "
                    "dask.config.set({'dataframe.convert-string': False}) to have such "
                    "cells refused where they are")


def _all_lists(cells):
    return all(isinstance(v, (list, tuple, str)) or v is None for v in cells)


def _unconverted(frame):
    """The pandas frames that `dd.from_pandas` holds as given, for the frames whose strings
    Dask converts when the tasks run. Dask's expression internals, read defensively: a Dask
    that keeps them elsewhere yields nothing (the check is skipped, never wrong)."""
    try:
        from dask.dataframe.dask_expr.io.io import FromPandas
        expr = frame.expr
        leaves = list(expr.find_operations(FromPandas))
    except Exception:      # noqa: BLE001 - private layout of another release: no check
        return []
    out = []
    for leaf in leaves:
        try:
            if not leaf.operand("pyarrow_strings_enabled"):
                continue
            data = getattr(leaf.frame, "_data", leaf.frame)
        except Exception:  # noqa: BLE001 - Dask's internals may change: skip the check
            continue
        if hasattr(data, "columns") and hasattr(data, "dtypes"):
            out.append(data)
    return out


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
    # a metric of scores (ExternalScores) takes rows of one value: it has no references
    own_refs = ref_streams is None and getattr(plan.metric, "inputs", "text") == "text"
    hyps, streams = _located_columns(part, is_frame, hyp, refs, number, own_refs)
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
    """The summed statistics of a collection, lazily, to compute several metrics in one pass: each
    `(plan, item)` gives the score as `cybleu._scale.partition.finish(plan, item.compute())`, and
    `dask.compute` computes several metrics' items together.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param metric: A `cybleu.metrics.BLEU`, `CHRF` or `TER` object (its settings).
    :param hyp: As for `corpus_score`.
    :param refs: As for `corpus_score`.
    :param references: As for `corpus_score` (the rows are counted now, to slice the streams).
    :param split_every: As for `corpus_score`.
    :returns: `(plan, item)`: the plan (`plan.columns` names the statistics) and a dask Item whose
        value is the statistics of all the rows, summed.
    :raises TypeError: `data` is not a Dask Bag or DataFrame, or `metric` not a cybleu metric.
    :raises ValueError: A collection without partitions, or `references` of another length than
        the rows.

    >>> import dask
    >>> import dask.bag as db
    >>> import cybleu.dask
    >>> from cybleu._scale.partition import finish
    >>> from cybleu.metrics import BLEU, CHRF
    >>> rows = db.from_sequence([("The cat sat on the mat.", "The cat is on the mat."),
    ...                          ("Hello, world!", "Hello world!")], npartitions=2)
    >>> (bleu, bleu_item), (chrf, chrf_item) = [cybleu.dask.statistics(rows, metric)
    ...                                         for metric in (BLEU(), CHRF())]
    >>> bleu_sums, chrf_sums = dask.compute(bleu_item, chrf_item, scheduler="threads")
    >>> print(finish(bleu, bleu_sums))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> print(finish(chrf, chrf_sums))
    chrF2 = 66.05
    """
    _check_collection(data)
    is_frame = _is_frame(data)
    if is_frame:
        _check_frame(data, hyp, [] if references is not None and refs is None else refs)
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
    """The corpus score of a Dask Bag or DataFrame with a cybleu metric object (BLEU, CHRF or TER,
    with any settings): bit for bit `metric.corpus_score(hyps, streams)` on the same rows, and so
    sacreBLEU's score, however the rows are partitioned.

    TER with three or more references of different lengths per segment stays exact too: its
    reference lengths are then added in the collection's order, as sacreBLEU adds them.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param metric: A `cybleu.metrics.BLEU`, `CHRF` or `TER` object. Its `num_refs` is set from the
        rows, so `metric.get_signature()` works afterwards.
    :param hyp: The hypothesis's position or key in a Bag's rows, or its DataFrame column (default:
        the first).
    :param refs: The references' positions, keys or columns, one per reference stream (a list), or
        the one key or column holding a list of references per row (default: the rest of a tuple,
        or every other column of a DataFrame; dict rows need `hyp=` and `refs=`).
    :param references: Reference streams held by the client, for rows of hypotheses only: `[refs]`
        or `[refs_a, refs_b, ...]` as for `cybleu.corpus_bleu`, one line per row in the collection's
        order. Each worker receives them once and each partition takes its rows' slice; the rows'
        own references are not read. A Bag's rows are then still tuples `(hyp,)` or dicts, not bare
        strings. The rows are counted first (a bag made by `read_text` knows its counts).
    :param split_every: How many partitions' statistics are added at each step of the tree
        (default: Dask's, 8).
    :returns: The metric's score (`BLEUScore`, `CHRFScore` or `TERScore`), as
        `metric.corpus_score` returns it.
    :raises TypeError: `data` is not a Dask Bag or DataFrame, or `metric` not a cybleu metric.
    :raises ValueError: An empty collection, or `references` of another length than the rows.
    :raises cybleu._scale.partition.PartitionError: Bad input (a hypothesis that is not a string,
        ...): a ValueError naming the partition and the row, and the file and line for a bag made
        by `read_text`.

    >>> import dask
    >>> import dask.bag as db
    >>> import cybleu, cybleu.dask
    >>> from cybleu.metrics import TER
    >>> rows = db.from_sequence([("The cat sat on the mat.", "The cat is on the mat."),
    ...                          ("Hello, world!", "Hello world!")], npartitions=2)
    >>> with dask.config.set(scheduler="threads"):
    ...     print(cybleu.dask.corpus_score(rows, TER(case_sensitive=True)))
    TER = 25.00
    >>> print(TER(case_sensitive=True).corpus_score(["The cat sat on the mat.", "Hello, world!"],
    ...                                             [["The cat is on the mat.", "Hello world!"]]))
    TER = 25.00
    """
    plan, item = statistics(data, metric, hyp, refs, references, split_every)
    return _partition.finish(plan, item.compute())


def corpus_bleu(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
                **kwargs):
    """Corpus BLEU of a Dask Bag or DataFrame: bit for bit `cybleu.corpus_bleu` (and sacreBLEU)
    on the same rows, however they are partitioned.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: The hypothesis's position or key in a Bag's rows, or its DataFrame column (default:
        the first).
    :param refs: The references' positions, keys or columns, one per reference stream (a list), or
        the one key or column holding a list of references per row (default: the rest of a tuple,
        or every other column of a DataFrame; dict rows need `hyp=` and `refs=`).
    :param references: Reference streams held by the client, for rows of hypotheses only (see
        `corpus_score`): `[refs]` or `[refs_a, refs_b, ...]`, one line per row.
    :param split_every: How many partitions' statistics are added at each step of the tree
        (default: Dask's, 8).
    :param metric: A `cybleu.metrics.BLEU` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.BLEU`'s arguments (`tokenize`, `lowercase`, `smooth_method`,
        ...).
    :returns: A `BLEUScore`, as `cybleu.corpus_bleu` returns it.
    :raises TypeError: Both `metric` and `kwargs`, a `metric` that is not a BLEU object, or `data`
        that is not a Dask Bag or DataFrame.
    :raises ValueError: An empty collection, `references` of another length than the rows, or a
        bad BLEU argument.
    :raises cybleu._scale.partition.PartitionError: Bad input, naming the partition and the row
        (see `corpus_score`).

    >>> import dask
    >>> import dask.bag as db
    >>> import cybleu, cybleu.dask
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> rows = db.from_sequence(list(zip(hyps, refs)), npartitions=2)    # rows (hyp, ref)
    >>> with dask.config.set(scheduler="threads"):                       # or a distributed.Client
    ...     print(cybleu.dask.corpus_bleu(rows))
    ...     print(cybleu.dask.corpus_bleu(rows, max_ngram_order=2).score)
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    67.41998624632421
    >>> print(cybleu.corpus_bleu(hyps, [refs]))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    """
    metric = _partition.make_metric("bleu", metric, **kwargs)
    return corpus_score(data, metric, hyp, refs, references, split_every)


def corpus_chrf(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
                **kwargs):
    """Corpus chrF (chrF++ with `word_order=2`) of a Dask Bag or DataFrame: bit for bit
    `cybleu.corpus_chrf` (and sacreBLEU) on the same rows, however they are partitioned.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: As for `corpus_bleu`.
    :param split_every: As for `corpus_bleu`.
    :param metric: A `cybleu.metrics.CHRF` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.CHRF`'s arguments (`char_order`, `word_order`, `beta`,
        `lowercase`, `whitespace`, ...).
    :returns: A `CHRFScore`, as `cybleu.corpus_chrf` returns it.
    :raises TypeError: As for `corpus_bleu` (a `metric` that is not a CHRF object).
    :raises ValueError: As for `corpus_bleu`.

    >>> import dask
    >>> import dask.bag as db
    >>> import cybleu, cybleu.dask
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> rows = db.from_sequence(list(zip(hyps, refs)), npartitions=2)
    >>> with dask.config.set(scheduler="threads"):
    ...     print(cybleu.dask.corpus_chrf(rows))
    ...     print(cybleu.dask.corpus_chrf(rows, word_order=2))
    chrF2 = 66.05
    chrF2++ = 68.19
    >>> print(cybleu.corpus_chrf(hyps, [refs]))
    chrF2 = 66.05
    """
    metric = _partition.make_metric("chrf", metric, **kwargs)
    return corpus_score(data, metric, hyp, refs, references, split_every)


def corpus_ter(data, hyp=None, refs=None, *, references=None, split_every=None, metric=None,
               **kwargs):
    """Corpus TER of a Dask Bag or DataFrame: bit for bit `cybleu.corpus_ter` (and sacreBLEU) on the
    same rows, however they are partitioned. With three or more references of different lengths
    per segment, the reference lengths are added in the collection's order, as sacreBLEU adds them.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: As for `corpus_bleu`.
    :param split_every: As for `corpus_bleu`.
    :param metric: A `cybleu.metrics.TER` object to score with, instead of `kwargs`.
    :param kwargs: `cybleu.metrics.TER`'s arguments (`normalized`, `no_punct`, `asian_support`,
        `case_sensitive`).
    :returns: A `TERScore`, as `cybleu.corpus_ter` returns it.
    :raises TypeError: As for `corpus_bleu` (a `metric` that is not a TER object).
    :raises ValueError: As for `corpus_bleu`.

    >>> import dask
    >>> import dask.bag as db
    >>> import cybleu, cybleu.dask
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> rows = db.from_sequence(list(zip(hyps, refs)), npartitions=2)
    >>> with dask.config.set(scheduler="threads"):
    ...     print(cybleu.dask.corpus_ter(rows))
    TER = 25.00
    >>> print(cybleu.corpus_ter(hyps, [refs]))
    TER = 25.00
    """
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


def _sentence_bag(part, numbers, metric, hyp, refs):
    number = _number(numbers)
    hyps, streams = _located_columns(part, False, hyp, refs, number)
    return _scores(metric, hyps, streams, number).tolist()


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
    """Each row's sentence score, lazily: for a DataFrame a Dask Series aligned with its rows (so
    `frame[scores >= 20]` keeps the rows that score at least 20), for a Bag a Bag of floats in the
    rows' order. Each score is bit for bit `metric.sentence_score(hyp, refs).score`, sacreBLEU's.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`) with its
        settings.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: For a DataFrame of hypotheses only: reference streams held by the client,
        one line per row in the frame's order, sent to each worker once (the rows are counted
        first). A Bag takes its references in its rows.
    :param name: The Series' name (default: the metric's class name in lower case: "bleu", "chrf"
        or "ter").
    :returns: A Dask Series of float64 for a DataFrame, a Bag of floats for a Bag.
    :raises TypeError: `data` is not a Dask Bag or DataFrame, `references` with a Bag, or a
        `metric` that is neither a name nor a cybleu metric object.
    :raises ValueError: An unknown metric name. When computed, bad input raises a
        `cybleu._scale.partition.PartitionError` naming the row.

    >>> import dask.dataframe as dd
    >>> import pandas as pd
    >>> import cybleu, cybleu.dask
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> frame = dd.from_pandas(pd.DataFrame({"hyp": hyps, "ref": refs}), npartitions=2)
    >>> scores = cybleu.dask.sentence_scores(frame, "chrf")
    >>> scores.compute(scheduler="threads").tolist()
    [67.17273492330233, 63.55479131750938]
    >>> cybleu.batch_sentence_chrf(hyps, [refs]).tolist()
    [67.17273492330233, 63.55479131750938]
    >>> frame[scores >= 65].compute(scheduler="threads").hyp.tolist()
    ['The cat sat on the mat.']
    """
    _check_collection(data)
    metric = _select.sentence_metric(metric)
    name = name or type(metric).__name__.lower()
    if not _is_frame(data):
        if references is not None:
            raise TypeError(f"{ENGINE}: references= takes a DataFrame; put the references in a "
                            "Bag's rows")
        return data.map_partitions(_sentence_bag, _numbers(data), metric, hyp, refs)
    _check_frame(data, hyp, [] if references is not None and refs is None else refs)
    shared = offsets = None
    if references is not None:
        shared, offsets = _shared_references(references, data, True, type(metric).__name__)
    return data.map_partitions(_sentence_frame, metric, hyp, refs, shared, offsets, name,
                               meta=(name, "float64"))


def sentence_bleu(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence BLEU of each row, lazily, with effective order on as in sacreBLEU's `sentence_bleu`:
    bit for bit `cybleu.batch_sentence_bleu` on the same rows.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: For a DataFrame of hypotheses only, as for `sentence_scores`.
    :param kwargs: `cybleu.metrics.BLEU`'s arguments (`tokenize`, `lowercase`, `smooth_method`,
        ...; `effective_order=False` turns effective order off).
    :returns: A Dask Series named "bleu" aligned with a DataFrame's rows, or a Bag of floats.
    :raises TypeError: As for `sentence_scores`.
    :raises ValueError: A bad BLEU argument; when computed, bad input (see `sentence_scores`).

    >>> import dask.bag as db
    >>> import cybleu, cybleu.dask
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = ["The cat is on the mat.", "Hello world!"]
    >>> rows = db.from_sequence(list(zip(hyps, refs)), npartitions=2)
    >>> cybleu.dask.sentence_bleu(rows).compute(scheduler="threads")
    [48.892302243490086, 35.35533905932737]
    >>> cybleu.batch_sentence_bleu(hyps, [refs]).tolist()
    [48.892302243490086, 35.35533905932737]
    """
    return sentence_scores(data, _select.sentence_metric("bleu", **kwargs), hyp, refs,
                           references, "bleu")


def sentence_chrf(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence chrF of each row, lazily: bit for bit `cybleu.batch_sentence_chrf` on the same rows
    (`word_order=2` for chrF++).

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: For a DataFrame of hypotheses only, as for `sentence_scores`.
    :param kwargs: `cybleu.metrics.CHRF`'s arguments (`char_order`, `word_order`, `beta`, ...).
    :returns: A Dask Series named "chrf" aligned with a DataFrame's rows, or a Bag of floats.
    :raises TypeError: As for `sentence_scores`.
    :raises ValueError: A bad CHRF argument; when computed, bad input (see `sentence_scores`).

    >>> import dask.bag as db
    >>> import cybleu.dask
    >>> rows = db.from_sequence([("The cat sat on the mat.", "The cat is on the mat."),
    ...                          ("Hello, world!", "Hello world!")], npartitions=2)
    >>> cybleu.dask.sentence_chrf(rows, word_order=2).compute(scheduler="threads")
    [69.43695278069349, 65.18549385858529]
    """
    return sentence_scores(data, _select.sentence_metric("chrf", **kwargs), hyp, refs,
                           references, "chrf")


def sentence_ter(data, hyp=None, refs=None, *, references=None, **kwargs):
    """Sentence TER of each row, lazily: bit for bit `cybleu.batch_sentence_ter` on the same rows.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :param references: For a DataFrame of hypotheses only, as for `sentence_scores`.
    :param kwargs: `cybleu.metrics.TER`'s arguments (`normalized`, `no_punct`, `asian_support`,
        `case_sensitive`).
    :returns: A Dask Series named "ter" aligned with a DataFrame's rows, or a Bag of floats.
    :raises TypeError: As for `sentence_scores`.
    :raises ValueError: When computed, bad input (see `sentence_scores`).

    >>> import dask.bag as db
    >>> import cybleu.dask
    >>> rows = db.from_sequence([("The cat sat on the mat.", "The cat is on the mat."),
    ...                          ("Hello, world!", "Hello world!")], npartitions=2)
    >>> cybleu.dask.sentence_ter(rows).compute(scheduler="threads")
    [16.666666666666664, 50.0]
    """
    return sentence_scores(data, _select.sentence_metric("ter", **kwargs), hyp, refs,
                           references, "ter")


# -- best of n ------------------------------------------------------------------------------------

def _best_rows(cands, hyps_refs_streams, metric, k, number):
    flat = []
    for i, group in enumerate(cands):
        if isinstance(group, str):
            raise _partition.PartitionError(
                f"{ENGINE}: partition {number}, row {i}: the candidates are a string, not a "
                f"list of k={k} strings (a dataframe's list column turns into strings where Dask "
                "converts object columns: set dask.config 'dataframe.convert-string' to False "
                "before building the frame)")
        if group is None or len(group) != k:
            size = "none" if group is None else len(group)
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
        groups = [g if g is None or isinstance(g, str) else list(g) for g in _cells(frame[cands])]
    if refs is None:
        used = set(cands) if isinstance(cands, (list, tuple)) else {cands}
        refs = [c for c in cols if c not in used]
    _, streams = _frame_columns(frame, cols[0], refs)
    index, score = _best_rows(groups, streams, metric, k, number)
    best = [group[j] for group, j in zip(groups, index)]
    return pd.DataFrame({"index": pd.Series(index, dtype="int64"),
                         "score": pd.Series(score, dtype="float64"),
                         "best": pd.Series(best, dtype=object)}).set_axis(frame.index)


def _best_bag(part, numbers, metric, k, cands, refs):
    number = _number(numbers)
    part = list(part)
    # the candidates take the hypothesis's place in the row
    groups, streams = _located_columns(part, False, 0 if cands is None else cands, refs, number)
    index, score = _best_rows(groups, streams, metric, k, number)
    return [(j, s, group[j]) for group, j, s in zip(groups, index, score)]


def best_of(data, k, cands=None, refs=None, metric="bleu", **kwargs):
    """The best of k candidates in each row by sentence score, lazily, as `cybleu.best_of` picks it:
    the highest score (for TER, the lowest), the first of equal scores.

    In a Bag, a row holds its k candidates (a tuple or list) and its references: by default
    `(candidates, ref_1, ..., ref_R)`. A bag from `read_text("nbest.txt", "ref.txt", group=(k, 1))`,
    an n-best file of k lines per segment beside its references, has that shape. In a DataFrame,
    the candidates are one column of lists or k columns (`cands=`), the references the other
    columns (`refs=`).

    :param data: A Bag of rows or a DataFrame.
    :param k: The number of candidates per row.
    :param cands: The candidates' position or key in a Bag's rows (default: 0); for a DataFrame,
        one column of lists or a list of k columns (default: the first column).
    :param refs: The references' positions, keys or columns (a list), or the one key or column
        holding a list of references per row (default: a Bag row's items after the first; a
        DataFrame's columns other than the candidates).
    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`) with its
        settings.
    :param kwargs: The metric class's arguments, with a metric name.
    :returns: For a DataFrame, a Dask DataFrame aligned with its rows, with columns `index` (the
        best candidate's position, 0 to k-1), `score` (its sentence score, bit for bit the metric's
        `sentence_score`) and `best` (the candidate); for a Bag, a Bag of `(index, score, best)`.
    :raises ValueError: `k` is not a positive int, or an unknown metric name. When computed, a row
        that does not hold k candidates raises a `cybleu._scale.partition.PartitionError` naming the
        partition and the row.
    :raises TypeError: `data` is not a Dask Bag or DataFrame, or a `metric` that is neither a name
        nor a cybleu metric object.

    >>> import dask.bag as db
    >>> import cybleu.dask
    >>> rows = db.from_sequence([(("a cat", "the cat sat", "the dog"), "the cat sat"),
    ...                          (("hello world", "hello", "world"), "hello world")], npartitions=2)
    >>> cybleu.dask.best_of(rows, k=3).compute(scheduler="threads")
    [(1, 100.00000000000004, 'the cat sat'), (0, 100.00000000000004, 'hello world')]
    """
    _check_collection(data)
    _select._check_k(k)
    metric = _select.sentence_metric(metric, **kwargs)
    if not _is_frame(data):
        return data.map_partitions(_best_bag, _numbers(data), metric, k, cands, refs)
    import pandas as pd
    _check_frame(data, cands, refs, lists=True)
    meta = pd.DataFrame({"index": pd.Series([], dtype="int64"),
                         "score": pd.Series([], dtype="float64"),
                         "best": pd.Series([], dtype=object)})
    return data.map_partitions(_best_frame, metric, k, cands, refs, meta=meta)


# -- segment statistics in order (paired significance) ---------------------------------------------

def _segment_task(part, metric, is_frame, hyp, refs, number):
    hyps, streams = _located_columns(part, is_frame, hyp, refs, number)
    if not hyps:
        return []
    try:
        return [metric._extract_corpus_statistics(hyps, streams)]
    except (TypeError, ValueError) as err:
        plan = _partition.Plan(metric, len(streams), ENGINE)
        raise _partition._located(plan, err, hyps, streams, number, None) from err


def segment_statistics(data, metric, hyp=None, refs=None):
    """Every segment's statistics in the collection's order (partition by partition, rows in order),
    as a `cybleu.significance.Statistics`: what the paired tests (`paired_bootstrap`,
    `paired_randomization` of `cybleu.significance`) take in place of a system's hypotheses. They
    resample segments with sacreBLEU's seeded generator, so they need this order to give sacreBLEU's
    numbers.

    The statistics come back to the client: 8 bytes per statistic per segment (about 80 bytes a
    segment for BLEU), fine for test sets, not for a whole crawl.

    :param data: A Bag of rows or a DataFrame, laid out as the module describes.
    :param metric: A cybleu metric object (`BLEU`, `CHRF` or `TER`), with the settings of the test's
        metric.
    :param hyp: As for `corpus_bleu`.
    :param refs: As for `corpus_bleu`.
    :returns: A `cybleu.significance.Statistics` holding one row per segment.
    :raises TypeError: `data` is not a Dask Bag or DataFrame, or a line that is not a string.

    >>> import dask.bag as db
    >>> import cybleu.dask
    >>> from cybleu.metrics import BLEU
    >>> rows = db.from_sequence([("The cat sat on the mat.", "The cat is on the mat."),
    ...                          ("Hello, world!", "Hello world!")], npartitions=2)
    >>> stats = cybleu.dask.segment_statistics(rows, BLEU())
    >>> stats.n_segments, stats.totals()
    (2, [11, 10, 9, 5, 2, 1, 11, 9, 7, 5])
    """
    from .significance import Statistics
    _check_collection(data)
    is_frame = _is_frame(data)
    tasks = [delayed(_segment_task, pure=True)(part, metric, is_frame, hyp, refs, number)
             for number, part in enumerate(data.to_delayed())]
    stats = Statistics()
    for chunk in dask.compute(*tasks):
        for block in chunk:
            stats.extend(block)
    return stats


# -- reading parallel files ---------------------------------------------------------------------

def read_text(*streams, group=None, records_per_partition=100_000, encoding="utf-8"):
    """A Bag of aligned rows from parallel text files, partitioned by line ranges.

    The files are indexed when `read_text` is called (one streaming pass per file, run as Dask
    tasks: its number of lines and the byte offset of every 16384th line); each partition then seeks
    to its range and reads only its lines. A gzip file has no offsets: a partition reads it from the
    start up to its range (cut large gzip data into several files, one glob, to keep that short). No
    task holds a whole file. Errors in a bag from `read_text` name the file and the line.

    :param streams: One path, glob (its sorted matches, one after the other) or list of paths per
        stream: `read_text("hyp.txt", "ref.A.txt", "ref.B.txt")` gives rows (hyp, ref_a, ref_b).
        `.gz` files are read transparently.
    :param group: Lines per record for each stream, a tuple of one positive int per stream
        (default: 1 each); `group=(8, 1)` reads an 8-best file beside its references as rows
        ((c1, ..., c8), ref).
    :param records_per_partition: Rows per partition (default 100,000; the last may hold fewer).
    :param encoding: The files' text encoding (default "utf-8"). Lines keep everything but their
        newline.
    :returns: A Dask Bag of tuples, one item per stream: a line, or a tuple of `group` lines.
    :raises TypeError: No stream.
    :raises ValueError: A bad `group` or `records_per_partition`; streams with different numbers of
        records, naming the files and their line counts; or, when computed, a line that cannot be
        decoded, naming the file and the line.
    :raises FileNotFoundError: A glob that matches no file.
    :raises OSError: A file that cannot be read, naming it.

    >>> import os
    >>> import tempfile
    >>> import dask
    >>> import cybleu.dask
    >>> folder = tempfile.TemporaryDirectory()
    >>> hyp, ref = os.path.join(folder.name, "hyp.txt"), os.path.join(folder.name, "ref.txt")
    >>> for path, lines in [(hyp, ["The cat sat on the mat.", "Hello, world!"]),
    ...                     (ref, ["The cat is on the mat.", "Hello world!"])]:
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         for line in lines:
    ...             print(line, file=f)
    >>> bag = cybleu.dask.read_text(hyp, ref, records_per_partition=1)
    >>> bag.npartitions
    2
    >>> with dask.config.set(scheduler="threads"):
    ...     print(bag.compute())
    ...     print(cybleu.dask.corpus_bleu(bag))
    [('The cat sat on the mat.', 'The cat is on the mat.'), ('Hello, world!', 'Hello world!')]
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> folder.cleanup()
    """
    if not streams:
        raise TypeError("read_text needs at least one stream (a path or a glob)")
    files = [_textparts.expand(s) for s in streams]
    group = tuple([1] * len(files) if group is None else group)
    if len(group) != len(files) or any(isinstance(g, bool) or not isinstance(g, int) or g < 1
                                       for g in group):
        raise ValueError(f"group should give a positive int per stream ({len(files)}), "
                         f"not {group!r}")
    parts = _plan_text(files, group, records_per_partition)
    if not parts:
        return db.from_sequence([], npartitions=1)
    tasks = [delayed(_textparts.read_range, pure=True)(pieces, group, offsets, encoding)
             for _, pieces, offsets in parts]
    bag = db.from_delayed(tasks)
    _ORIGINS[bag.name] = (group, [(first, pieces) for first, pieces, _ in parts])
    while len(_ORIGINS) > _ORIGINS_KEPT:
        _ORIGINS.pop(next(iter(_ORIGINS)))
    return bag


def filter_text(hyp, *refs, also=(), min_score=None, max_score=None, kept=None, dropped=None,
                names=None, metric="bleu", records_per_partition=100_000, encoding="utf-8",
                compute=True, **kwargs):
    """Split a parallel corpus by sentence score on the workers, as `cybleu filter` does in one
    process: the lines whose hypothesis scores `min_score <= score <= max_score` against its
    references go to `kept`, the others to `dropped`, every file in step.

    The files are indexed and cut into line ranges as in `read_text`; each task reads its range,
    scores it with the compiled kernel and writes its own part file per stream: `kept/hyp.txt/
    part-00000`, `part-00001`, ... The parts of a folder, in name order, are exactly the file
    `cybleu filter --kept` writes (`cat kept/hyp.txt/part-*`, or read them back with
    `read_text("kept/hyp.txt/part-*", ...)`). Rows never become Python tuples, and no task holds a
    whole file. The output folders must be on storage every worker can write to; part files that
    an earlier run left there are removed first. A part is written under a temporary name and
    renamed when complete, so a task that a lost worker leaves half-done and Dask runs again leaves
    no truncated part.

    :param hyp: The side to score: a path, glob (its sorted matches) or list of paths. `.gz` files
        are read transparently, and their parts are written gzipped.
    :param refs: The reference streams, aligned with `hyp` (one or more, each like `hyp`).
    :param also: More aligned streams (e.g. the source side), split the same way.
    :param min_score: Keep scores >= this (default: no lower bound).
    :param max_score: Keep scores <= this (default: no upper bound).
    :param kept: The folder for the kept lines: one folder per stream inside it.
    :param dropped: The folder for the dropped lines, likewise.
    :param names: The streams' folder names, one per stream (hyp, refs, also); default: the name
        of each stream's first file.
    :param metric: "bleu" (sentence BLEU with effective order, as sacreBLEU's `sentence_bleu`),
        "chrf", "chrf++", "ter", or a cybleu metric object (`BLEU`, `CHRF`, `TER`).
    :param records_per_partition: Lines per task (default 100,000).
    :param encoding: The files' text encoding (default "utf-8"), also used for the parts.
    :param compute: Run now (default) or return a `dask.delayed` object to compute later, for
        instance with `distributed.progress(client.compute(job))` to watch it.
    :param kwargs: The metric class's arguments, with a metric name (e.g. `tokenize="intl"`).
    :returns: `Filtered(kept, total)`: the number of segments kept and read (or a Delayed of it).
    :raises TypeError: No reference stream, or a `metric` that is neither a name nor a metric.
    :raises ValueError: No bound or no output folder; bounds that keep nothing (`min_score >
        max_score`, NaN); `kept` and `dropped` the same folder; two streams with the same folder
        name; streams with different numbers of lines, naming the files; an unknown metric name.
        When computed, a line that cannot be decoded, naming the file and the line.
    :raises FileNotFoundError: A glob that matches no file.

    >>> import os
    >>> import tempfile
    >>> import dask
    >>> import cybleu.dask
    >>> folder = tempfile.TemporaryDirectory()
    >>> hyp, ref = os.path.join(folder.name, "hyp.txt"), os.path.join(folder.name, "ref.txt")
    >>> for path, lines in [(hyp, ["The cat sat on the mat.", "Hello, world!", "Nothing to see."]),
    ...                     (ref, ["The cat is on the mat.", "Hello world!", "A different line."])]:
    ...     with open(path, "w", encoding="utf-8") as f:
    ...         for line in lines:
    ...             print(line, file=f)
    >>> kept = os.path.join(folder.name, "kept")
    >>> with dask.config.set(scheduler="threads"):
    ...     cybleu.dask.filter_text(hyp, ref, min_score=30, kept=kept, records_per_partition=2)
    Filtered(kept=2, total=3)
    >>> sorted(os.listdir(os.path.join(kept, "ref.txt")))
    ['part-00000', 'part-00001']
    >>> with open(os.path.join(kept, "ref.txt", "part-00000"), encoding="utf-8") as f:
    ...     print(f.read(), end="")
    The cat is on the mat.
    Hello world!
    >>> folder.cleanup()
    """
    import math
    import os

    from . import outputs as _outputs
    from ._scale import filtering as _filtering
    if not refs:
        raise TypeError("filter_text needs at least one reference stream: "
                        "filter_text(hyp, ref, ...)")
    if min_score is None and max_score is None:
        raise ValueError("give min_score, max_score or both: the scores to keep")
    if kept is None and dropped is None:
        raise ValueError("give kept, dropped or both: the folders the lines go to")
    lo = -math.inf if min_score is None else float(min_score)
    hi = math.inf if max_score is None else float(max_score)
    if math.isnan(lo) or math.isnan(hi) or lo > hi:
        raise ValueError(f"min_score={min_score!r} and max_score={max_score!r} keep no score")
    if kept is not None and dropped is not None and _outputs.same_path(kept, dropped):
        raise ValueError(f"kept and dropped are the same folder ({os.fspath(kept)}): the kept "
                         "and the dropped lines would mix")
    sentence = _select.sentence_metric(metric, **kwargs)
    streams = [hyp, *refs, *(also if isinstance(also, (list, tuple)) else [also])]
    files = [_textparts.expand(s) for s in streams]
    if names is None:
        names = [os.path.basename(fs[0]) for fs in files]
    elif len(names) != len(files):
        raise ValueError(f"names should give one folder name per stream ({len(files)}), "
                         f"not {len(names)}")
    # before any folder is made or cleared: a stream's folder that is an input, or holds one
    # (a run over parts read back from an earlier run), would lose it
    _outputs.check_outputs([], [p for fs in files for p in fs],
                           [(f"{option}={os.fspath(folder)!r}: the folder of stream {name!r},",
                             os.path.join(os.fspath(folder), name))
                            for option, folder in (("kept", kept), ("dropped", dropped))
                            if folder is not None for name in names])
    parts = _plan_text(files, (1,) * len(files), records_per_partition)
    folders = []
    for folder in (kept, dropped):
        paths = None
        if folder is not None:
            paths = _filtering.output_folders(folder, names)
            for path in paths:
                _filtering.clear_parts(path)
        folders.append(paths)
    tasks = []
    for number, (_, pieces, offsets) in enumerate(parts):
        outputs = [None if paths is None else
                   [os.path.join(path, _filtering.part_name(number, len(parts),
                                                            fs[0].endswith(".gz")))
                    for path, fs in zip(paths, files)]
                   for paths in folders]
        tasks.append(delayed(_filtering.filter_range, pure=False)(
            pieces, offsets, encoding, sentence, len(refs), (lo, hi), outputs, number, ENGINE))
    job = delayed(_filtering.added, pure=False)(tasks)
    return job.compute() if compute else job

def _plan_text(files, group, records_per_partition):
    """Index every file (one Dask task each) and cut the streams into aligned partitions:
    [(first record, pieces per stream, {path: line offsets})]."""
    if isinstance(records_per_partition, bool) or not isinstance(records_per_partition, int) \
            or records_per_partition < 1:
        raise ValueError(f"records_per_partition must be a positive int, not "
                         f"{records_per_partition!r}")
    unique = list(dict.fromkeys(p for fs in files for p in fs))
    indexed = dict(zip(unique, dask.compute(*[delayed(_textparts.index_file, pure=False)(p)
                                              for p in unique])))
    counts = [[indexed[p][0] for p in fs] for fs in files]
    _, parts = _textparts.plan_ranges(files, counts, group, records_per_partition)
    return [(first, pieces, {path: indexed[path][1] for stream in pieces for path, _, _ in stream})
            for first, pieces in parts]
