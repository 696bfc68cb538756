"""The scoring command with systems longer than a slice reads them in step with their references,
a slice at a time: the same output, byte for byte, as caching the references first (and as
sacreBLEU's numbers), and memory that does not grow with the files."""
import functools
import tracemalloc
from pathlib import Path

import pytest
from sacrebleu.metrics import BLEU, CHRF, TER

import cybleu
from cybleu import streams
from cybleu.cli import main

DATA = Path(cybleu.__file__).parent / "data"


def _lines(name):
    return (DATA / f"wmt17-en-de.{name}.txt").read_text(encoding="utf-8").split("\n")[:-1]


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _counted(real, calls, *args):
    calls.append(1)
    return real(*args)


def _run(capsys, args):
    assert main(args) == 0
    return capsys.readouterr().out


def _numbered(tmp_path, copies, n_sys):
    """The sample's reference and n_sys systems (KIT, the k-th shifted by k lines), repeated
    `copies` times with each line numbered so that no two are alike: (lines, reference path,
    system paths)."""
    refs, hyps = _lines("ref"), _lines("KIT")
    n = len(refs) * copies
    ref = _write(tmp_path / "ref.txt", [f"{refs[i % len(refs)]} {i}" for i in range(n)])
    paths = [_write(tmp_path / f"hyp{k}.txt", [f"{hyps[(i + k) % len(hyps)]} {i}"
                                               for i in range(n)]) for k in range(n_sys)]
    return n, ref, paths


def _streamed_and_cached(capsys, monkeypatch, argv, slice_lines):
    """(status, captured output) of argv read in step with the references (slices of
    slice_lines), then of the general path, which caches the references (here forced)."""
    import cybleu.cli
    monkeypatch.setattr(streams, "CHUNK_LINES", slice_lines)
    called = []
    monkeypatch.setattr(streams, "stream_systems",
                        functools.partial(_counted, streams.stream_systems, called))
    streamed = main(argv), capsys.readouterr()
    assert called, "the run did not stream"
    monkeypatch.setattr(cybleu.cli, "_stream_systems", lambda *args: False)
    return streamed, (main(argv), capsys.readouterr())


@pytest.mark.parametrize("extra", [["-m", "bleu", "chrf", "ter", "-w", "6"],
                                   ["-m", "bleu", "-f", "text", "-lc"],
                                   ["-m", "chrf", "--chrf-word-order", "2", "-b"]])
def test_streamed_output_equals_cached(tmp_path, capsys, monkeypatch, extra):
    refs, hyps = _lines("ref"), _lines("KIT")
    ref, ref2 = _write(tmp_path / "ref.txt", refs), _write(tmp_path / "ref2.txt", _lines("online-B"))
    hyp = _write(tmp_path / "hyp.txt", hyps)
    for ref_files in ([ref], [ref, ref2]):
        cached = _run(capsys, [*ref_files, "-i", hyp, *extra])   # one slice: no streaming
        monkeypatch.setattr(streams, "CHUNK_LINES", 64)
        called = []
        monkeypatch.setattr(streams, "stream_systems",
                            functools.partial(_counted, streams.stream_systems, called))
        assert _run(capsys, [*ref_files, "-i", hyp, *extra]) == cached
        assert called, "the run did not stream"
        monkeypatch.undo()


@pytest.mark.parametrize("extra", [["-m", "bleu", "chrf", "ter"],
                                   ["-m", "bleu", "chrf", "-f", "text", "-b"],
                                   ["-m", "bleu", "-f", "latex"]])
def test_several_streamed_systems_output_equals_cached(tmp_path, capsys, monkeypatch, extra):
    """Several systems read in step with the references: the bytes of the general path, which
    caches the references and reads the systems one after another (here forced)."""
    refs = _lines("ref")
    ref = _write(tmp_path / "ref.txt", refs)
    # the fourth system ends lines in " ." (sacreBLEU's warning about tokenized input)
    names = ["KIT", "uedin-nmt", "online-B"]
    hyps = [_write(tmp_path / f"{n}.txt", _lines(n)) for n in names]
    hyps.append(_write(tmp_path / "tok.txt", [line.rstrip(".") + " ." for line in _lines("KIT")]))
    streamed, cached = _streamed_and_cached(capsys, monkeypatch, [ref, "-i", *hyps, *extra], 64)
    assert streamed == cached
    assert streamed[0] == 0 and len(streamed[1].out.splitlines()) >= 4


def test_streamed_scores_equal_sacrebleu(tmp_path, capsys, monkeypatch):
    refs, hyps = _lines("ref"), _lines("uedin-nmt")
    ref, hyp = _write(tmp_path / "ref.txt", refs), _write(tmp_path / "hyp.txt", hyps)
    monkeypatch.setattr(streams, "CHUNK_LINES", 100)
    out = _run(capsys, [ref, "-i", hyp, "-m", "bleu", "chrf", "ter", "-b", "-w", "10", "-f", "text"])
    want = [f"{m.corpus_score(hyps, [refs]).score:.10f}" for m in (BLEU(), CHRF(), TER())]
    assert out.split() == want


def test_a_length_mismatch_is_reported_as_before(tmp_path, capsys, monkeypatch):
    refs = _lines("ref")
    ref, hyp = _write(tmp_path / "ref.txt", refs), _write(tmp_path / "hyp.txt", refs[:-1])
    expected = main([ref, "-i", hyp])
    before = capsys.readouterr().err
    monkeypatch.setattr(streams, "CHUNK_LINES", 64)
    assert main([ref, "-i", hyp]) == expected != 0
    assert capsys.readouterr().err == before


def test_memory_does_not_grow_with_the_files(tmp_path, capsys, monkeypatch):
    """Twice the lines (11 and 22 MB of text), the same peak: no reference or hypothesis is
    kept past its slice (caching the references first grew by megabytes here)."""
    if cybleu.BACKEND != "cython":
        pytest.skip("bounded memory is measured on the compiled core")
    monkeypatch.setattr(streams, "CHUNK_LINES", 256)
    real = streams.stream_systems

    def measured(*args):
        # from here on: the line counts before read whole blocks of up to 4 MB, bounded too
        tracemalloc.reset_peak()
        return real(*args)
    monkeypatch.setattr(streams, "stream_systems", measured)
    peaks = []
    for copies in (160, 320):   # past the reader's buffers (1 MB of text decoded at a time)
        _, ref, (hyp,) = _numbered(tmp_path, copies, 1)
        tracemalloc.start()
        try:
            _run(capsys, [ref, "-i", hyp, "-b"])
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] - peaks[0] < 300_000, peaks


def test_memory_does_not_grow_with_the_systems(tmp_path, capsys, monkeypatch):
    """Four systems in step with the references, twice the lines, the same peak: nothing is
    kept per line (caching the references for several systems grew by megabytes here)."""
    if cybleu.BACKEND != "cython":
        pytest.skip("bounded memory is measured on the compiled core")
    monkeypatch.setattr(streams, "CHUNK_LINES", 256)
    real = streams.stream_systems

    def measured(*args):
        tracemalloc.reset_peak()
        return real(*args)
    monkeypatch.setattr(streams, "stream_systems", measured)
    peaks = []
    for copies in (160, 320):
        _, ref, paths = _numbered(tmp_path, copies, 4)
        tracemalloc.start()
        try:
            _run(capsys, [ref, "-i", *paths, "-b"])
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    # five readers, each holding up to a megabyte of decoded text as lines, peak together
    # where their blocks happen to align: a few megabytes that do not depend on the length
    # (caching the references took ~200 bytes a line, ~96 MB more at the larger size)
    assert peaks[1] - peaks[0] < 4_000_000, peaks


@pytest.mark.parametrize("n_sys, extra", [
    (3, ["-m", "bleu", "chrf", "ter", "-pbs", "-pbsn", "60"]),
    (2, ["-m", "bleu", "chrf", "-par", "-parn", "40", "-f", "text"]),
    (3, ["-m", "bleu", "-pbs", "-pbsn", "30", "-f", "latex"]),
    (1, ["-m", "bleu", "chrf", "ter", "-ci", "-cin", "50"]),
    (1, ["-m", "bleu", "-sl"]),
    (1, ["-m", "chrf", "-sl", "-b"]),
    (1, ["-m", "ter", "-sl", "-w", "6"]),
])
def test_tests_intervals_and_sentences_stream_alike(tmp_path, capsys, monkeypatch, n_sys, extra):
    """A paired test, an interval and the sentence level read the files in step with the
    references too, keeping each system's statistics rows: the bytes of the general path."""
    ref = _write(tmp_path / "ref.txt", _lines("ref"))
    names = ["KIT", "uedin-nmt", "online-B"][:n_sys]
    hyps = [_write(tmp_path / f"{n}.txt", _lines(n)) for n in names]
    streamed, cached = _streamed_and_cached(capsys, monkeypatch, [ref, "-i", *hyps, *extra], 256)
    assert streamed == cached
    assert streamed[0] == 0
    assert len(streamed[1].out.splitlines()) >= (len(_lines("ref")) if "-sl" in extra else 1)


@pytest.mark.parametrize("extra", [["-sl", "-i", "A", "B"], ["-pbs", "-i", "A"],
                                   ["-ci", "-i", "A", "B"], ["-sl", "-ci", "-i", "A"]])
def test_refused_combinations_say_what_the_general_path_says(tmp_path, capsys, monkeypatch,
                                                             extra):
    ref = _write(tmp_path / "ref.txt", _lines("ref"))
    paths = {"A": _write(tmp_path / "a.txt", _lines("KIT")),
             "B": _write(tmp_path / "b.txt", _lines("online-B"))}
    argv = [ref, "-m", "bleu", *[paths.get(w, w) for w in extra]]
    cached = main(argv), capsys.readouterr().err
    monkeypatch.setattr(streams, "CHUNK_LINES", 256)
    assert (main(argv), capsys.readouterr().err) == cached
    assert cached[0] != 0 and cached[1]


def test_paired_rows_are_numbers_not_text(tmp_path, capsys, monkeypatch):
    """Four systems and a paired test: twice the lines, what is kept for the test grows by the
    statistics rows (BLEU's ten integers a segment per system), not by the text."""
    import cybleu.cli
    if cybleu.BACKEND != "cython":
        pytest.skip("bounded memory is measured on the compiled core")
    monkeypatch.setattr(streams, "CHUNK_LINES", 256)
    kept = []
    real = cybleu.cli._paired

    def paired(*args):
        kept.append(tracemalloc.get_traced_memory()[0])
        return real(*args)
    monkeypatch.setattr(cybleu.cli, "_paired", paired)
    sizes = []
    for copies in (40, 80):
        n, ref, paths = _numbered(tmp_path, copies, 4)
        sizes.append(n)
        tracemalloc.start()
        try:
            _run(capsys, [ref, "-i", *paths, "-m", "bleu", "-pbs", "-pbsn", "2"])
        finally:
            tracemalloc.stop()
    per_line = (kept[1] - kept[0]) / (sizes[1] - sizes[0])
    # 4 systems x 10 int64 = 320 bytes of rows a line at most; the five files' text as str
    # would be ~850 bytes a line (caching the references first kept ~1,200)
    assert per_line < 4 * 10 * 8 * 1.25, per_line


def _tab_separated(tmp_path, broken_at=None):
    """The sample's reference and online-B's lines as one file of two tab-separated references a
    line (-nr 2); line broken_at (from 0) without its tab."""
    lines = [f"{a}\t{b}" for a, b in zip(_lines("ref"), _lines("online-B"))]
    if broken_at is not None:
        lines[broken_at] = lines[broken_at].replace("\t", " ")
    return _write(tmp_path / "refs.tsv", lines)


@pytest.mark.parametrize("n_sys, extra", [
    (1, ["-m", "bleu", "chrf", "ter"]),
    (2, ["-m", "bleu", "chrf", "-pbs", "-pbsn", "20"]),
    (1, ["-m", "bleu", "-sl"]),
    (1, ["-m", "ter", "-ci", "-cin", "20"]),
])
def test_tab_separated_references_stream_alike(tmp_path, capsys, monkeypatch, n_sys, extra):
    """-nr: one reference file of tab-separated references read in step with the systems, split
    a slice at a time: the bytes of the general path."""
    ref = _tab_separated(tmp_path)
    hyps = [_write(tmp_path / f"{n}.txt", _lines(n)) for n in ["KIT", "uedin-nmt"][:n_sys]]
    streamed, cached = _streamed_and_cached(capsys, monkeypatch,
                                            [ref, "-nr", "2", "-i", *hyps, *extra], 256)
    assert streamed == cached
    assert streamed[0] == 0


def test_tab_separated_references_streamed_score_as_sacrebleu(tmp_path, capsys, monkeypatch):
    ref, hyp = _tab_separated(tmp_path), _write(tmp_path / "hyp.txt", _lines("KIT"))
    monkeypatch.setattr(streams, "CHUNK_LINES", 256)
    out = _run(capsys, [ref, "-nr", "2", "-i", hyp, "-m", "bleu", "chrf", "ter", "-b", "-w", "10",
                        "-f", "text"])
    refs = [_lines("ref"), _lines("online-B")]
    want = [f"{m.corpus_score(_lines('KIT'), refs).score:.10f}" for m in (BLEU(), CHRF(), TER())]
    assert out.split() == want


def test_a_line_short_of_fields_stops_the_run_as_before(tmp_path, capsys, monkeypatch):
    """Line 401 without its tab, past the first slices: the general path's message and status
    (chrF: BLEU's look at the first lines would find it before any slice is read)."""
    ref, hyp = _tab_separated(tmp_path, broken_at=400), _write(tmp_path / "hyp.txt", _lines("KIT"))
    streamed, cached = _streamed_and_cached(capsys, monkeypatch,
                                            [ref, "-nr", "2", "-i", hyp, "-m", "chrf"], 128)
    assert streamed == cached
    assert streamed[0] != 0
    assert "line 401: expected 2 fields, but found 1" in streamed[1].err
