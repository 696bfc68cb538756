"""The scoring command with one system longer than a slice reads it in step with its references,
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
        monkeypatch.setattr(streams, "stream_system",
                            functools.partial(_counted, streams.stream_system, called))
        assert _run(capsys, [*ref_files, "-i", hyp, *extra]) == cached
        assert called, "the run did not stream"
        monkeypatch.undo()


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
    real = streams.stream_system

    def measured(*args):
        # from here on: the line counts before read whole blocks of up to 4 MB, bounded too
        tracemalloc.reset_peak()
        return real(*args)
    monkeypatch.setattr(streams, "stream_system", measured)
    refs, hyps = _lines("ref"), _lines("KIT")
    peaks = []
    for copies in (160, 320):   # past the reader's buffers (1 MB of text decoded at a time)
        n = len(refs) * copies
        ref = _write(tmp_path / "ref.txt", [f"{refs[i % len(refs)]} {i}" for i in range(n)])
        hyp = _write(tmp_path / "hyp.txt", [f"{hyps[i % len(hyps)]} {i}" for i in range(n)])
        tracemalloc.start()
        try:
            _run(capsys, [ref, "-i", hyp, "-b"])
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert peaks[1] - peaks[0] < 300_000, peaks
