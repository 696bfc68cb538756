"""In one process: partition statistics reduce to the exact corpus score for any partitioning;
best_of and the `cybleu best-of` / `cybleu filter` commands against loops over sacreBLEU 2.6.0's
sentence_score. The oracle is sacreBLEU, on real WMT22 data; both backends (run the file with
CYBLEU_IMPLEMENTATION=cython and =python)."""
import functools
import gzip
import io
import random
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import cybleu
from cybleu._scale import partition as _partition
from cybleu.cli import main
from cybleu.metrics import BLEU, TER
from conftest import bits
from scale_data import (METRICS, N_SEGMENTS, N_TER, cuts, kind, third_stream,
                        with_missing, wmt22)

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OURS = {"bleu": cybleu.corpus_bleu, "chrf": cybleu.corpus_chrf,
        "chrf++": lambda h, r: cybleu.corpus_chrf(h, r, word_order=2), "ter": cybleu.corpus_ter}


def _metric(name):
    return _partition.make_metric(kind(name), **METRICS[name][0])


def _tree(partials, rng):
    """Merge consecutive groups of random sizes, level by level, as an engine's tree does."""
    while len(partials) > 1:
        out, i = [], 0
        while i < len(partials):
            size = rng.randint(2, 5)
            out.append(_partition.merge(partials[i:i + size]))
            i += size
        partials = out
    return partials[0]


def _same_score(got, want):
    assert bits(got.score) == bits(want.score), (got, want)
    assert got.format() == want.format()


def _data(name, refs_kind):
    hyps, refs = wmt22("Online-B", N_TER if name == "ter" else N_SEGMENTS)
    if refs_kind == "missing":
        refs = with_missing(refs)
    elif refs_kind == "three":
        refs = third_stream(refs)
    return hyps, refs


@pytest.mark.parametrize("refs_kind", ["two", "missing", "three"])
@pytest.mark.parametrize("name", sorted(METRICS))
@SETTINGS
@given(data=st.data())
def test_any_partitioning_gives_the_corpus_score(name, refs_kind, data):
    hyps, refs = _data(name, refs_kind)
    points = data.draw(cuts(len(hyps)), label="cuts")
    seed = data.draw(st.integers(0, 2**16), label="tree")
    metric = _metric(name)
    plan = _partition.Plan(metric, len(refs))
    parts = [_partition.partition_stats(plan, hyps[a:b], [r[a:b] for r in refs], i)
             for i, (a, b) in enumerate(zip(points, points[1:]))]
    got = _partition.finish(plan, _tree(parts, random.Random(seed)))
    want, num_refs, ours = _expected(name, refs_kind)
    _same_score(got, want)
    _same_score(got, ours)
    assert metric.num_refs == num_refs
    if name == "ter":
        assert got.num_edits == want.num_edits
        assert bits(got.ref_length) == bits(want.ref_length)
    else:
        assert got.__dict__ == ours.__dict__


@functools.lru_cache(maxsize=None)
def _expected(name, refs_kind):
    """(sacreBLEU's score, its num_refs, cybleu's corpus_* score) of the whole corpus."""
    hyps, refs = _data(name, refs_kind)
    sacre = METRICS[name][1]()
    return sacre.corpus_score(hyps, refs), sacre.num_refs, OURS[name](hyps, refs)


def test_ter_lengths_need_the_order_when_three_references_differ():
    """The reason for the ordered path: adding per-partition float sums of TER lengths as a tree
    gives another float than sacreBLEU's left-to-right sum for some partitioning."""
    hyps, refs = _data("ter", "three")
    metric = TER()
    rows = metric._extract_corpus_statistics(hyps, refs)
    sequential = 0
    for row in rows:
        sequential += row[1]
    rng = random.Random(5)
    differs = 0
    for _ in range(200):
        points = [0] + sorted(rng.sample(range(1, len(rows)), 6)) + [len(rows)]
        sums = [sum(r[1] for r in rows[a:b]) for a, b in zip(points, points[1:])]
        tree = (sums[0] + sums[1]) + (sums[2] + sums[3]) + (sums[4] + sums[5] + sums[6])
        differs += bits(tree) != bits(sequential)
    assert differs > 0
    plan = _partition.Plan(metric, 3)
    plan.ordered = False          # an engine that cannot keep the order: an error, no number
    partial = _partition.partition_stats(plan, hyps, refs, 0)
    assert partial.values[-1] > 0     # inexact segments
    with pytest.raises(ValueError, match="depends on the order"):
        _partition.finish(plan, partial)


def test_one_and_two_references_are_exact_units():
    hyps, refs = _data("ter", "missing")
    plan = _partition.Plan(TER(), 2)
    assert not plan.ordered
    partial = _partition.partition_stats(plan, hyps, refs, 0)
    assert partial.values[-1] == 0 and partial.lengths is None


def test_empty_corpus_is_an_error():
    plan = _partition.Plan(BLEU(), 1)
    with pytest.raises(ValueError, match="no hypotheses: the corpus is empty"):
        _partition.finish(plan, _partition.merge([plan.empty(), plan.empty()]))


def test_tokenized_warning_is_decided_on_the_whole_corpus(caplog):
    hyps = ["a b ."] * 60
    refs = [["a b ."] * 60]
    plan = _partition.Plan(BLEU(), 1)
    parts = [_partition.partition_stats(plan, hyps[i:i + 30], [refs[0][i:i + 30]], i)
             for i in (0, 30)]
    with caplog.at_level("WARNING", logger="cybleu"):
        _partition.finish(plan, _partition.merge(parts))
    assert "tokenized period" not in caplog.text      # 60 < 100
    parts = parts * 2
    with caplog.at_level("WARNING", logger="cybleu"):
        _partition.finish(plan, _partition.merge(parts))
    assert "That's 100 lines that end in a tokenized period" in caplog.text


@pytest.mark.parametrize("bad, message", [
    ((["ok", 3, "ok"], [["a", "b", "c"]]), r"partition 4, row 1: .*hypothesis 1 is int"),
    ((["ok", "x", "ok"], [["a", "b", ["c"]]]), r"partition 4, row 2: .*reference 2"),
    ((["ok", "x"], [["a"]]), r"partition 4: .*1 lines for 2 hypotheses"),
])
def test_bad_input_names_partition_and_row(bad, message):
    plan = _partition.Plan(BLEU(), 1, "cybleu.test")
    with pytest.raises(_partition.PartitionError, match=message):
        _partition.partition_stats(plan, *bad, partition=4)


def test_no_reference_names_the_row():
    plan = _partition.Plan(TER(), 1, "cybleu.test")
    with pytest.raises(_partition.PartitionError, match=r"partition 0, row 1 \(line 9 of f\)"):
        _partition.partition_stats(plan, ["a", "b"], [["a", None]], 0,
                                   where=lambda row: f"line {row + 8} of f")


# -- best_of ----------------------------------------------------------------------------------

def _candidates(n, k):
    systems = ["Online-A", "Online-B", "Online-G", "Online-W", "JDExploreAcademy", "Lan-Bridge",
               "OpenNMT", "PROMT"][:k]
    outputs = [wmt22(s, n)[0] for s in systems]
    refs = wmt22("Online-B", n)[1]
    return [outputs[j][i] for i in range(n) for j in range(k)], refs


def _loop(cands, refs, k, metric, lowest=False):
    """bestbleu.py's loop: for each segment, max (min) of sacreBLEU's sentence_score."""
    index, score = [], []
    for i in range(len(cands) // k):
        scores = [metric.sentence_score(c, [r[i] for r in refs]).score
                  for c in cands[i * k:(i + 1) * k]]
        pick = (min if lowest else max)(range(k), key=scores.__getitem__)
        index.append(pick)
        score.append(scores[pick])
    return index, score


@pytest.mark.parametrize("name, make", [
    ("bleu", lambda m: m.BLEU(effective_order=True)), ("chrf", lambda m: m.CHRF()),
    ("chrf++", lambda m: m.CHRF(word_order=2)), ("ter", lambda m: m.TER())])
def test_best_of_is_the_loop_over_sacrebleu(name, make):
    import sacrebleu.metrics as sm
    n = 40 if name == "ter" else 150
    cands, refs = _candidates(n, 8)
    refs = with_missing(refs)
    best = cybleu.best_of(cands, refs, 8, metric=name)
    index, score = _loop(cands, refs, 8, make(sm), lowest=name == "ter")
    assert best.index.tolist() == index
    assert best.score.tobytes() == np.array(score, dtype=np.float64).tobytes()
    nested = [cands[i * 8:(i + 1) * 8] for i in range(n)]
    again = cybleu.best_of(nested, refs, 8, metric=name)
    assert again.index.tolist() == index


def test_best_of_ties_go_to_the_first():
    refs = [["the cat sat on the mat", "a b c"]]
    cands = ["dog", "the cat sat on the mat", "the cat sat on the mat",
             "x", "x", "x"]
    best = cybleu.best_of(cands, refs, 3)
    assert best.index.tolist() == [1, 0]
    ter = cybleu.best_of(cands, refs, 3, metric="ter")
    assert ter.index.tolist() == [1, 0]


def test_best_of_takes_a_metric_object():
    import sacrebleu.metrics as sm
    cands, refs = _candidates(60, 4)
    best = cybleu.best_of(cands, refs, 4, metric=BLEU(effective_order=True, lowercase=True))
    assert best.index.tolist() == _loop(cands, refs, 4,
                                        sm.BLEU(effective_order=True, lowercase=True))[0]


@pytest.mark.parametrize("args, error, message", [
    ((["a", "b", "c"], [["r"]], 2), ValueError, "not a multiple of k=2"),
    ((["a", "b"], [["r", "s"]], 2), ValueError, "1 hypotheses but 2 references"),
    ((["a", "b"], [["r"]], 0), ValueError, "k must be a positive int"),
    ((["a", 5], [["r"]], 2), TypeError, "segment 0 candidate 1"),
    (([["a", "b"], ["c"]], [["r", "s"]], 2), ValueError, "segment 1 has 1 candidates"),
    (("ab", [["r"]], 2), TypeError, "not a single str"),
])
def test_best_of_errors(args, error, message):
    with pytest.raises(error, match=message):
        cybleu.best_of(*args)


def test_best_of_unknown_metric():
    with pytest.raises(ValueError, match="unknown metric 'meteor'"):
        cybleu.best_of(["a"], [["a"]], 1, metric="meteor")


# -- the command line ----------------------------------------------------------------------------

def _run(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")),
                                                           encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_cli_best_of(tmp_path, capsys, monkeypatch):
    import sacrebleu.metrics as sm
    cands, refs = _candidates(120, 4)
    nbest = _write(tmp_path / "nbest.txt", cands)
    ref = _write(tmp_path / "ref.txt", refs[0])
    index, score = _loop(cands, refs[:1], 4, sm.BLEU(effective_order=True))
    want = [cands[i * 4 + j] for i, j in enumerate(index)]
    monkeypatch.setattr("cybleu._scale.select.CHUNK_SEGMENTS", 7)     # many slices
    code, out, err = _run(["best-of", "-k", "4", "-r", ref, "-i", nbest, "--scores",
                           str(tmp_path / "s.tsv")], capsys)
    assert code == 0, err
    assert out.split("\n")[:-1] == want
    rows = (tmp_path / "s.tsv").read_text().split("\n")[:-1]
    assert [int(r.split("\t")[0]) for r in rows] == index
    assert [float(r.split("\t")[1]) for r in rows] == score
    code, out2, err = _run(["best-of", "-k", "4", "-r", ref, "-q"], capsys,
                           stdin="".join(c + "\n" for c in cands), monkeypatch=monkeypatch)
    assert code == 0 and out2 == out and err == ""


def test_cli_best_of_ter_and_chrf(tmp_path, capsys):
    import sacrebleu.metrics as sm
    cands, refs = _candidates(30, 3)
    nbest = _write(tmp_path / "nbest.txt", cands)
    ref = _write(tmp_path / "ref.txt", refs[0])
    for name, metric in (("ter", sm.TER()), ("chrf++", sm.CHRF(word_order=2))):
        index, _ = _loop(cands, refs[:1], 3, metric, lowest=name == "ter")
        code, out, err = _run(["best-of", "-k", "3", "-m", name, "-r", ref, "-i", nbest],
                              capsys)
        assert code == 0, err
        assert out.split("\n")[:-1] == [cands[i * 3 + j] for i, j in enumerate(index)]


def test_cli_best_of_misaligned(tmp_path, capsys):
    nbest = _write(tmp_path / "nbest.txt", ["a"] * 7)
    ref = _write(tmp_path / "ref.txt", ["a"] * 3)
    code, out, err = _run(["best-of", "-k", "2", "-r", ref, "-i", nbest], capsys)
    assert code == 1
    assert err.startswith("cybleu: the inputs do not have the same number of segments")
    assert "nbest.txt: 7 lines (not a multiple of 2)" in err and "ref.txt: 3 lines" in err


def test_cli_filter(tmp_path, capsys, monkeypatch):
    import sacrebleu.metrics as sm
    hyps, refs = wmt22("Online-W", 200)
    src = [f"source {i}\r" for i in range(200)]        # written back exactly as read
    hyp_f = _write(tmp_path / "bt.de", hyps)
    ref_f = _write(tmp_path / "train.de", refs[0])
    src_f = str(tmp_path / "train.en.gz")
    with gzip.open(src_f, "wt", encoding="utf-8", newline="\n") as f:
        f.write("".join(s + "\n" for s in src))
    monkeypatch.setattr("cybleu._scale.select.CHUNK_SEGMENTS", 13)
    code, out, err = _run(["filter", "-i", hyp_f, "-r", ref_f, "--also", src_f, "--min", "30",
                           "--kept", str(tmp_path / "kept"), "--dropped",
                           str(tmp_path / "dropped"), "--scores", str(tmp_path / "scores")],
                          capsys)
    assert code == 0, err
    metric = sm.BLEU(effective_order=True)
    scores = [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
    keep = [s >= 30 for s in scores]
    assert f"kept {sum(keep)} of 200 segments" in err
    for folder, wanted in (("kept", True), ("dropped", False)):
        rows = [i for i, k in enumerate(keep) if k == wanted]
        assert (tmp_path / folder / "bt.de").read_text("utf-8").split("\n")[:-1] == \
            [hyps[i] for i in rows]
        assert (tmp_path / folder / "train.de").read_text("utf-8").split("\n")[:-1] == \
            [refs[0][i] for i in rows]
        with gzip.open(tmp_path / folder / "train.en.gz", "rb") as f:
            assert f.read().decode("utf-8").split("\n")[:-1] == [src[i] for i in rows]
    assert [float(x) for x in (tmp_path / "scores").read_text().split()] == scores
    # --max with TER: keep the low error rates
    code, out, err = _run(["filter", "-i", hyp_f, "-r", ref_f, "-m", "ter", "--max", "50",
                           "--kept", str(tmp_path / "k2"), "-q"], capsys)
    assert code == 0 and err == ""
    ter = sm.TER()
    want = [h for h, r in zip(hyps, refs[0]) if ter.sentence_score(h, [r]).score <= 50]
    assert (tmp_path / "k2" / "bt.de").read_text("utf-8").split("\n")[:-1] == want


@pytest.mark.parametrize("argv, message", [
    (["--min", "1"], "give --kept, --dropped or --scores"),
    (["--kept", "K"], "give --min, --max or both"),
    (["-m", "chrf", "-tok", "13a", "--min", "1", "--kept", "K"], "--tokenize is BLEU's option"),
])
def test_cli_filter_usage_errors(tmp_path, capsys, argv, message):
    hyp = _write(tmp_path / "h", ["a"])
    ref = _write(tmp_path / "r", ["a"])
    argv = [a.replace("K", str(tmp_path / "k")) for a in argv]
    code, out, err = _run(["filter", "-i", hyp, "-r", ref] + argv, capsys)
    assert code == 1 and err == f"cybleu: {message}" + err[len("cybleu: ") + len(message):]
    assert message in err


def test_cli_filter_bad_inputs(tmp_path, capsys):
    hyp = _write(tmp_path / "h", ["a", "b", "c"])
    ref = _write(tmp_path / "r", ["a", "b"])
    code, out, err = _run(["filter", "-i", hyp, "-r", ref, "--min", "1", "--kept",
                           str(tmp_path / "k")], capsys)
    assert code == 1 and "h: 3 lines" in err and "r: 2 lines" in err
    bad = tmp_path / "bad"
    bad.write_bytes(b"ok\nal\xffso\n")
    code, out, err = _run(["filter", "-i", str(bad), "-r", hyp, "--min", "1", "--kept",
                           str(tmp_path / "k")], capsys)
    assert code == 1 and f"cybleu: {bad}: line 2: cannot decode as utf-8" in err
    code, out, err = _run(["filter", "-i", str(tmp_path / "nope"), "-r", hyp, "--min", "1",
                           "--kept", str(tmp_path / "k")], capsys)
    assert code == 1 and "nope: no such file" in err
    assert not (tmp_path / "k" / "nope").exists()     # no outputs for a missing input


def test_cli_progress_on_a_terminal(tmp_path, capsys, monkeypatch):
    hyps, refs = wmt22("Online-W", 100)
    hyp = _write(tmp_path / "h", hyps)
    ref = _write(tmp_path / "r", refs[0])
    monkeypatch.setattr("cybleu.render._is_tty", lambda stream: True)
    monkeypatch.setattr("cybleu._scale.select.CHUNK_SEGMENTS", 10)
    code, out, err = _run(["filter", "-i", hyp, "-r", ref, "--min", "20", "--kept",
                           str(tmp_path / "k")], capsys)
    assert code == 0
    assert "\rfilter " in err and "\r\x1b[2K" in err


def test_sacrebleu_command_line_is_untouched_for_a_file_named_filter(tmp_path, monkeypatch,
                                                                      capsys):
    from cybleu import cli
    assert cli.SUBCOMMANDS["filter"].module == "._scale.cli"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "filter").write_text("a b c d\n")     # a reference file named like the command
    (tmp_path / "hyp").write_text("a b c d\n")
    assert cli.main(["filter", "-i", "hyp", "-b"]) == 0
    assert capsys.readouterr().out.strip() == "100.0"


def test_partition_readers_never_index_into_a_string():
    """Every engine reads rows and list columns through these: a string where a row or a list of
    references belongs is an error, never characters taken as the hypothesis or references."""
    from cybleu._scale import partition
    assert partition.columns_of(["a b", "c d"], None, None) == (["a b", "c d"], [])
    with pytest.raises(TypeError, match="row 1 is a string"):
        partition.columns_of([("a", "b"), "c d"], None, None)
    with pytest.raises(TypeError, match="is a string"):
        partition.columns_of(["a b"], 0, None)
    assert partition._list_column([["x", "y"], None, ["z"]]) == [["x", None, "z"],
                                                                 ["y", None, None]]
    with pytest.raises(TypeError,
                       match=r"row 1: the references are a string \(\"\['a', 'b'\]\"\)"):
        partition._list_column([["x"], "['a', 'b']"])


def test_best_of_names_the_segment_and_candidate_past_the_first_chunk(monkeypatch):
    """Each chunk scores its candidates a position at a time against references counted once:
    an error still names the segment and candidate of the whole input."""
    from cybleu._scale import select
    monkeypatch.setattr(select, "CHUNK_SEGMENTS", 2)
    cands = ["a b", "a c", "b c", "c d", "d e", "e f", "f g", 7]
    with pytest.raises(TypeError, match="segment 3 candidate 1"):
        cybleu.best_of(cands, [["a b", "b c", "c d", "d e"]], 2)
    ok = cybleu.best_of(cands[:-1] + ["g h"], [["a b", "b c", "c d", "d e"]], 2)

    class Hooked(BLEU):       # its own hook: the per-candidate path, through the hooks
        def _compute_score_from_stats(self, stats):
            return super()._compute_score_from_stats(stats)

    want = cybleu.best_of(cands[:-1] + ["g h"], [["a b", "b c", "c d", "d e"]], 2,
                          metric=Hooked(effective_order=True))
    assert ok.index.tolist() == want.index.tolist()
    assert ok.score.tobytes() == want.score.tobytes()


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(alphabet="ab \r\u00e9\u4e2d", max_size=6), max_size=40),
       final_newline=st.booleans(), data=st.data())
def test_long_ranges_read_in_one_piece_as_line_by_line(tmp_path, monkeypatch, lines,
                                                       final_newline, data):
    """A partition's range read as one span of bytes (ranges of INDEX_EVERY lines or more) gives
    the lines the line-by-line reader gives, whatever the range, the last newline and CRs."""
    from cybleu._scale import textparts
    monkeypatch.setattr(textparts, "INDEX_EVERY", 4)
    # blocks of a few bytes: lines, and characters of 2 and 3 bytes, cut across reads
    monkeypatch.setattr(textparts, "_SPAN", data.draw(st.integers(1, 9)))
    monkeypatch.setattr(textparts, "_BLOCK", data.draw(st.integers(1, 9)))
    path = tmp_path / "t.txt"
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    path.write_bytes(text.encode("utf-8"))
    lines = text.split("\n")
    if text.endswith("\n") or not text:
        lines.pop()
    n, offsets = textparts.index_file(str(path))
    assert n == len(lines)
    first = data.draw(st.integers(0, n))
    end = data.draw(st.integers(first, n))
    got = textparts._lines(str(path), first, end, offsets, "utf-8")
    assert got == lines[first:end]
    if end - first >= 4:
        assert textparts._lines_by_range(str(path), first, end, offsets, "utf-8") == got


def test_long_ranges_name_an_undecodable_line_and_ignore_one_outside(tmp_path, monkeypatch):
    from cybleu._scale import textparts
    monkeypatch.setattr(textparts, "INDEX_EVERY", 4)
    path = tmp_path / "t.txt"
    raw = [b"l%d" % i for i in range(12)]
    raw[1] = b"bad \xff"                      # in the span read for lines 2..9, not in the range
    path.write_bytes(b"\n".join(raw) + b"\n")
    n, offsets = textparts.index_file(str(path))
    assert textparts._lines(str(path), 2, 9, offsets, "utf-8") == [f"l{i}" for i in range(2, 9)]
    with pytest.raises(ValueError, match=r"line 2: cannot decode as utf-8"):
        textparts._lines(str(path), 0, 8, offsets, "utf-8")


_WORDS = st.sampled_from(["a", "b", "a.", "1,5", "b-c", "(a)", "", "  "])
_LINE = st.lists(_WORDS, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(segments=st.lists(st.tuples(st.lists(_LINE, min_size=1, max_size=3),
                                   st.lists(_LINE, min_size=1, max_size=4)),
                         min_size=1, max_size=5),
       order=st.integers(1, 5), tokenize=st.sampled_from(["13a", "none", "char"]),
       n_threads=st.sampled_from([1, 2]))
def test_grouped_kernel_scores_every_candidate_as_sacrebleu(segments, order, tokenize,
                                                            n_threads):
    """The kernel's best-of path (each segment's references tabled once, its k candidates looked
    up there) gives sacreBLEU's sentence_score of every candidate, bit for bit: few distinct
    tokens so that n-grams repeat within and across references, empty candidates, 1 to 3
    references per segment, every n-gram order."""
    import sacrebleu.metrics as sm
    from cybleu._backend import core
    k = max(len(cands) for _, cands in segments)
    refs = [seg_refs for seg_refs, _ in segments]
    cands = [(c + [""] * k)[:k] for _, c in segments]
    flat = [c for group in cands for c in group]
    refset = core.RefSet(refs, tokenize, False, order)
    got = refset.grouped_sentence_scores(flat, k, "exp", None, True, n_threads)
    oracle_metric = sm.BLEU(effective_order=True, tokenize=tokenize, max_ngram_order=order)
    want = [oracle_metric.sentence_score(c, seg_refs).score
            for seg_refs, group in zip(refs, cands) for c in group]
    assert np.frombuffer(got, dtype=np.float64).tobytes() == \
        np.array(want, dtype=np.float64).tobytes()
    with pytest.raises(ValueError, match="candidates for"):
        refset.grouped_sentence_scores(flat + ["x"], k)
