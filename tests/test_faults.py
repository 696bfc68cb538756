"""Faults and bad input (issue 19, section 2): each test here failed before its fix.

- ids weights: scaled by any positive constant (huge, subnormal) they give the same score, equal
  to the formula on sacreBLEU's own precisions (finite weights summing past 1.8e308 gave NaN,
  subnormal ones a wrong score).
- Ctrl-C: TER (its kernel never looked) and the conversion/trimming of a big int64 batch in
  `ids` land inside the call (before it would have finished).
- the command line: a long line is read in linear time (the reader re-copied the pending line on
  every block: a hang), the references are out of the collector's way while systems are scored,
  a length mismatch in a plain file stops the run before any scoring, the tokenized-period
  warning is counted over the whole system and given once, codec errors and MemoryError are one
  line naming the input.
"""
import gc
import io
import math
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
import sacrebleu

import cybleu
from cybleu import ids, streams
from cybleu._kernels import core_py as _core_py
from cybleu.cli import main

from conftest import bits

try:
    from cybleu._kernels import core as _core_c
except ImportError:
    _core_c = None

CORES = [pytest.param(_core_py, id="python")] + (
    [pytest.param(_core_c, id="cython")] if _core_c is not None else [])


@pytest.fixture(params=CORES)
def core(request, monkeypatch):
    monkeypatch.setattr(ids, "core", request.param)
    return request.param


# -- ids weights ----------------------------------------------------------------------------------

HYPS = [[1, 2, 3, 4, 5, 6, 7], [1, 2, 3], [4, 4, 4, 5], [9, 8, 7, 6, 5, 4]]
REFS = [[1, 2, 3, 4, 6, 5, 7], [1, 2, 4], [4, 4, 5, 5], [9, 8, 7, 6, 4, 5]]


def _oracle(weights, effective=True):
    """bp * exp(sum(w log p) / sum(w)) on sacreBLEU's own precisions, the weights first brought
    near 1 by a power of two (in exact arithmetic: scaling by a power of two changes no float
    operation's rounding, and keeps the sum finite)."""
    from fractions import Fraction
    bleu = sacrebleu.BLEU(tokenize="none", effective_order=effective)
    scale = Fraction(2) ** -math.frexp(max(weights))[1]
    ratios = [float(Fraction(w) * scale) for w in weights]
    out = []
    for h, r in zip(HYPS, REFS):
        s = bleu.sentence_score(" ".join(map(str, h)), [" ".join(map(str, r))])
        used = next((n for n in range(4) if s.totals[n] == 0), 4) if effective else 4
        if s.score == 0.0 or used == 0 or 0.0 in s.precisions[:used]:
            out.append(0.0 * s.bp)
            continue
        out.append(s.bp * math.exp(sum([w * math.log(p) for w, p in
                                        zip(ratios, s.precisions[:used])]) / sum(ratios[:used])))
    return out


@pytest.mark.parametrize("scale", [1.0, 2.0**-1074, 2.0**-1060, 2.0**1020, 2.0**1023 / 4])
def test_weights_are_relative_at_any_scale(core, scale):
    weights = [1.0 * scale, 2.0 * scale, 3.0 * scale, 4.0 * scale]
    assert all(math.isfinite(w) and w > 0 for w in weights)
    got = ids.sentence_bleu(HYPS, REFS, weights=weights)
    assert [bits(v) for v in got] == [bits(v) for v in _oracle([1, 2, 3, 4])]
    assert [bits(v) for v in got] == [bits(v) for v in
                                      ids.sentence_bleu(HYPS, REFS, weights=[1, 2, 3, 4])]


def test_weights_of_the_largest_finite_floats(core):
    huge = sys.float_info.max
    weights = [huge, huge / 2, huge / 4, huge / 8]     # their sum overflows to inf
    got = ids.sentence_bleu(HYPS, REFS, weights=weights)
    assert not np.isnan(got).any()
    assert [bits(v) for v in got] == [bits(v) for v in _oracle(weights)]
    # the same ratios as 8:4:2:1 (max is not a power of two: the last digit may round apart)
    assert np.allclose(got, _oracle([8, 4, 2, 1]), rtol=1e-14, atol=0)


def test_equal_weights_are_sacrebleu_at_any_scale(core):
    want = [sacrebleu.BLEU(tokenize="none", effective_order=True).sentence_score(
        " ".join(map(str, h)), [" ".join(map(str, r))]).score for h, r in zip(HYPS, REFS)]
    for w in (5e-324, 1.0, sys.float_info.max):
        got = ids.sentence_bleu(HYPS, REFS, weights=[w] * 4)
        assert [bits(v) for v in got] == [bits(v) for v in want]


# -- Ctrl-C ---------------------------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import os, signal, sys
    signal.signal(signal.SIGINT, signal.default_int_handler)  # also in a background job
    import numpy as np
    import cybleu
    from cybleu import ids
    from cybleu.metrics import TER
    case = sys.argv[1]
    data = os.path.join(os.path.dirname(cybleu.__file__), "data", "wmt17-en-de.")
    if case.startswith("ter"):
        with open(data + "ref.txt", encoding="utf-8") as f:
            ref = f.read().splitlines()
        with open(data + "online-B.txt", encoding="utf-8") as f:
            hyp = f.read().splitlines()
        n = 200_000
        hyps, refs = (hyp * (n // len(hyp) + 1))[:n], (ref * (n // len(ref) + 1))[:n]
        cached = TER(references=[refs]) if case == "ter-cached" else None
    else:
        rows = np.random.default_rng(0).integers(1, 30000, size=(2_000_000, 64))
        rows[:, 60:] = 0
    calls = {
        "ter": lambda: TER().corpus_score(hyps, [refs]),
        "ter-cached": lambda: cached.corpus_score(hyps, None),
        "ter-sentences": lambda: TER().sentence_scores(hyps, [refs]),
        # int64 -> uint32, a block at a time
        "ids-int64": lambda: ids.corpus_stats(rows, rows),
        # strided: copied to rows back to back first
        "ids-int64-strided": lambda: ids.corpus_stats(rows[:, ::2], rows[:, 1::2]),
        # trimmed as well
        "ids-int64-pad": lambda: ids.corpus_stats(rows, rows, pad_id=0),
    }
    print("ready", flush=True)
    try:
        calls[case]()
        print("completed", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    print(repr(cybleu.corpus_bleu(["a b c d"], [["a b c d"]]).score), flush=True)
""")


def _interrupt(case, implementation, delay=0.5):
    env = dict(__import__("os").environ, CYBLEU_IMPLEMENTATION=implementation)
    with subprocess.Popen([sys.executable, "-c", CHILD, case], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env=env) as proc:
        try:
            assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
            time.sleep(delay)        # well inside the call: each takes seconds uninterrupted
            sent = time.perf_counter()
            proc.send_signal(signal.SIGINT)
            outcome = proc.stdout.readline().strip()
            landed = time.perf_counter() - sent
            assert outcome == "interrupted", (outcome, proc.stderr.read())
            # "interrupted" shows the call was cut short; the bound only catches a hang
            assert landed < 30.0, f"Ctrl-C took {landed:.2f} s to land in {case}"
            expected = sacrebleu.corpus_bleu(["a b c d"], [["a b c d"]]).score
            assert proc.stdout.readline().strip() == repr(expected)
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()


needs_compiled = pytest.mark.skipif(cybleu.BACKEND != "cython",
                                    reason="the compiled core is not built in this install")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@needs_compiled
@pytest.mark.parametrize("case", ["ter", "ter-cached", "ter-sentences"])
def test_ctrl_c_lands_in_ter(case):
    # the pure-Python twin is interpreted: Ctrl-C lands between any two bytecodes there
    _interrupt(case, "cython")


@pytest.mark.slow     # a 1 GiB int64 batch in the child
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
@pytest.mark.parametrize("implementation", ["cython", "python"])
@pytest.mark.parametrize("case", ["ids-int64", "ids-int64-strided", "ids-int64-pad"])
def test_ctrl_c_lands_while_a_big_batch_is_converted(case, implementation):
    if implementation == "cython" and cybleu.BACKEND != "cython":
        pytest.skip("the compiled core is not built in this install")
    _interrupt(case, implementation, delay=0.3)


# -- the command line: reading ---------------------------------------------------------------------

READ = textwrap.dedent("""
    import sys
    from cybleu import streams
    path, size = sys.argv[1], int(sys.argv[2])
    with streams.TextSource(path, "utf-8") as source:
        blocks = list(source.blocks(streams.CHUNK_LINES, size=size))
    print(sum(len(b) for b in blocks), [len(line) for b in blocks for line in b][:5])
""")


@pytest.mark.parametrize("ending", [b"", b"\r", b"\n"])
def test_a_long_line_is_read_in_linear_time(tmp_path, ending):
    """2 million characters read one at a time: the reader used to copy the line read so far on
    every read (2 * 10**12 characters copied here, hours); now each piece is kept and the line
    joined once (seconds). The timeout is a hang detector, not a benchmark."""
    path = tmp_path / "line.txt"
    line = b"ab c\r" * 400_000 if ending == b"\r" else b"ab cd" * 400_000
    path.write_bytes(line + ending)
    out = subprocess.run([sys.executable, "-c", READ, str(path), "1"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    # one line (a CR is no line end in a file), right-stripped as sacreBLEU strips it
    assert out.stdout.split(None, 1) == ["1", f"[{len(line.decode().rstrip())}]\n"]


@pytest.mark.parametrize("data", [b"a\nb", b"a\nb\n", b"\n\n", b"", b"x" * 3000 + b"\ny\n",
                                  b"a" * 2500, b"a\r\nb\r\n" * 700, b" " * 1500 + b"\nz"])
def test_blocks_split_lines_as_python_does(tmp_path, data):
    """Small reads (7 characters) through every case of a piece, a newline and an end."""
    path = tmp_path / "x.txt"
    path.write_bytes(data)
    with streams.TextSource(str(path), "utf-8") as source:
        got = [line for block in source.blocks(4, size=7) for line in block]
    with open(path, encoding="utf-8", newline="\n") as f:
        want = [line.rstrip() for line in f]
    assert got == want
    assert streams.count_lines(str(path), "utf-8") == len(want)


# -- the command line: the collector ---------------------------------------------------------------

@pytest.fixture
def corpus(tmp_path):
    n = 3000
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("".join(f"the cat {i % 17} sat on the mat {i % 5} .\n" for i in range(n)),
                   encoding="utf-8")
    hyp.write_text("".join(f"the cat {i % 13} sat on a mat {i % 5}.\n" for i in range(n)),
                   encoding="utf-8")
    return ref, hyp, n


def test_references_are_out_of_the_collectors_way_while_systems_are_scored(corpus, capsys,
                                                                           monkeypatch):
    """A full collection traverses every container the collector tracks: the reference streams
    (one entry per line) used to be among them, visited again by every full collection of the
    run, whose number grows with the run (superlinear time). While the systems are scored, the
    references sit in the oldest generation and no full collection runs, even with thresholds
    that would make one every few chunks; afterwards the collector is as it was."""
    ref, hyp, n = corpus
    monkeypatch.setattr(streams, "CHUNK_LINES", 512)
    # the general path, which caches the references (-d, sentence scores, tests); plain scoring
    # streams the systems with their references and caches nothing
    import cybleu.cli
    monkeypatch.setattr(cybleu.cli, "_stream_systems", lambda *args: False)
    seen = []
    full = []
    real = streams.Reader.file

    def spy(self, path, name):
        young = [o for g in (0, 1) for o in gc.get_objects(generation=g)
                 if type(o) is list and len(o) == n]
        seen.append((len(young), gc.isenabled()))
        return real(self, path, name)

    def count(phase, info):
        if phase == "start" and info["generation"] == 2 and seen:
            full.append(info)

    monkeypatch.setattr(streams.Reader, "file", spy)
    enabled = gc.isenabled()
    frozen = gc.get_freeze_count()
    thresholds = gc.get_threshold()
    gc.set_threshold(50, 2, 2)       # a full collection every few hundred allocations otherwise
    gc.callbacks.append(count)
    try:
        assert main([str(ref), "-i", str(hyp), "-b"]) == 0
        after = gc.get_threshold()
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*thresholds)
    assert seen == [(0, enabled)]
    assert full == []
    # the collector as it was
    assert after == (50, 2, 2)
    assert gc.isenabled() == enabled and gc.get_freeze_count() == frozen
    want = sacrebleu.corpus_bleu(hyp.read_text().splitlines(), [ref.read_text().splitlines()])
    assert capsys.readouterr().out.strip() == f"{want.score:.1f}"


def test_streaming_sums_no_list_per_segment(corpus, capsys, monkeypatch):
    """Plain scoring of a system longer than a slice sums each slice on the core: no list of
    statistics per segment (each one was a container for the collector to track)."""
    ref, hyp, n = corpus
    monkeypatch.setattr(streams, "CHUNK_LINES", 512)
    from cybleu.metrics.bleu import BLEU

    def no_rows(self, *args, **kwargs):
        raise AssertionError("a list per segment was built")

    monkeypatch.setattr(BLEU, "_extract_corpus_statistics", no_rows)
    assert main([str(ref), "-i", str(hyp), "-b", "-w", "4"]) == 0
    want = sacrebleu.corpus_bleu(hyp.read_text().splitlines(), [ref.read_text().splitlines()])
    assert capsys.readouterr().out.strip() == f"{want.score:.4f}"


def test_collector_state_is_restored_after_an_error(corpus, capsys):
    ref, hyp, n = corpus
    state = gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()
    assert main([str(ref), "-i", str(ref.parent / "absent.txt")]) == 1
    assert main([str(ref.parent / "absent.txt"), "-i", str(hyp)]) == 1
    assert (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()) == state
    capsys.readouterr()


# -- the command line: lengths and the tokenized-period warning ------------------------------------

def test_a_length_mismatch_stops_the_run_before_scoring(corpus, tmp_path, capsys, monkeypatch):
    ref, hyp, n = corpus
    short = tmp_path / "short.txt"
    short.write_text("".join(hyp.read_text().splitlines(True)[:-1]), encoding="utf-8")
    no_newline = tmp_path / "no_newline.txt"
    no_newline.write_text(hyp.read_text().rstrip("\n"), encoding="utf-8")

    def never(*args, **kwargs):
        raise AssertionError("the references were cached before the lengths were checked")

    monkeypatch.setattr(streams, "make_metrics", never)
    assert main([str(ref), "-i", str(hyp), str(short)]) == 1
    err = capsys.readouterr().err
    assert err == ("cybleu: System and reference streams have different lengths.\n"
                   f"cybleu: {short} has {n - 1} lines, the references {n}.\n")
    # no final newline: the last line still counts
    monkeypatch.undo()
    assert main([str(ref), "-i", str(no_newline), "-b"]) == 0
    capsys.readouterr()


def test_a_decoding_error_comes_before_a_length_error(corpus, tmp_path, capsys):
    """sacreBLEU decodes every system before it compares lengths."""
    ref, hyp, n = corpus
    short = tmp_path / "short.txt"
    short.write_bytes(b"".join(hyp.read_bytes().splitlines(True)[:-1]))
    bad = tmp_path / "bad.txt"
    lines = hyp.read_bytes().splitlines(True)
    lines[7] = b"caf\xe9 " + lines[7]
    bad.write_bytes(b"".join(lines))
    assert main([str(ref), "-i", str(short), str(bad)]) == 1
    assert f"{bad}: line 8: cannot decode as utf-8" in capsys.readouterr().err


def _tokenized_warnings(text):
    return text.count("That's 100 lines that end in a tokenized period ('.')")


@pytest.mark.parametrize("tokenized", [450, 120, 99])
def test_the_tokenized_warning_is_given_once_per_system(tmp_path, capsys, monkeypatch, caplog,
                                                        tokenized):
    """Lines ending in " ." are counted over the whole system, as sacreBLEU counts them over the
    corpus it scores: it warned once per slice (450 lines: five times), and not at all when no
    slice alone had 100 of them (120 spread over three slices)."""
    n = 500
    monkeypatch.setattr(streams, "CHUNK_LINES", 100)
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    hyp_lines = [f"a b {i} ." if i % (n // tokenized) == 0 and i // (n // tokenized) < tokenized
                 else f"a b {i}." for i in range(n)]
    assert sum(line.endswith(" .") for line in hyp_lines) == tokenized
    ref.write_text("".join(f"a b {i}.\n" for i in range(n)), encoding="utf-8")
    hyp.write_text("".join(line + "\n" for line in hyp_lines), encoding="utf-8")
    assert main([str(ref), "-i", str(hyp), "-b"]) == 0
    got = _tokenized_warnings(capsys.readouterr().err)
    with caplog.at_level("WARNING", logger="sacrebleu"):
        sacrebleu.corpus_bleu(hyp_lines, [ref.read_text().splitlines()])
    assert got == _tokenized_warnings(caplog.text) == (1 if tokenized >= 100 else 0)


# -- the command line: one-line errors -------------------------------------------------------------

@pytest.mark.parametrize("where", ["reference", "system", "stdin"])
def test_codec_errors_name_the_input(corpus, capsys, monkeypatch, where):
    """-e utf-16 on a file without a byte order mark: the codec raises UnicodeError, not
    UnicodeDecodeError, and the message named no file."""
    ref, hyp, n = corpus
    utf16 = ref.parent / "utf16.txt"
    utf16.write_bytes(hyp.read_text().encode("utf-16")[2:])      # no BOM
    good16 = ref.parent / "good16.txt"
    good16.write_bytes(ref.read_text().encode("utf-16"))
    if where == "reference":
        args, label = [str(utf16), "-i", str(hyp)], str(utf16)
    elif where == "system":
        args, label = [str(good16), "-i", str(utf16)], str(utf16)
    else:
        args, label = [str(good16)], "standard input"
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(utf16.read_bytes()),
                                                           encoding="utf-8"))
    assert main(args + ["-e", "utf-16"]) == 1
    err = capsys.readouterr().err
    assert err == (f"cybleu: {label}: cannot decode as utf-16: UTF-16 stream does not start "
                   "with BOM. Use -e/--encoding to name the file's encoding.\n")


def test_memory_error_while_scoring_is_one_line(corpus, capsys, monkeypatch):
    ref, hyp, n = corpus

    def out_of_memory(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(streams.System, "add", out_of_memory)
    assert main([str(ref), "-i", str(hyp)]) == 1
    assert capsys.readouterr().err == (
        f"cybleu: {hyp}: out of memory while scoring it (a line, or the references, too large "
        "for the memory available)\n")


def test_memory_error_while_reading_is_one_line(corpus, capsys, monkeypatch):
    ref, hyp, n = corpus
    real = streams.LineTracker.read1

    def read1(self, size=-1):
        if self._raw.name == str(hyp):
            raise MemoryError()
        return real(self, size)

    monkeypatch.setattr(streams.LineTracker, "read1", read1)
    monkeypatch.setattr(streams, "count_lines", lambda path, encoding: None)
    assert main([str(ref), "-i", str(hyp)]) == 1
    assert capsys.readouterr().err == (
        f"cybleu: {hyp}: out of memory while reading it (a line, or the references, too large "
        "for the memory available)\n")


def test_memory_error_while_caching_references_is_one_line(corpus, capsys, monkeypatch):
    ref, hyp, n = corpus
    from cybleu.metrics import bleu

    def refuse(*args, **kwargs):
        raise MemoryError()

    monkeypatch.setattr(bleu, "_BLEURefCache", refuse)
    assert main([str(ref), "-i", str(hyp)]) == 1
    assert capsys.readouterr().err == (
        f"cybleu: {ref}: out of memory while caching them for BLEU (a line, or the references, "
        "too large for the memory available)\n")


MEMORY_LIMITED = textwrap.dedent("""
    import resource, sys
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from cybleu.cli import main
    sys.exit(main(sys.argv[2:]))
""")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as Linux has it")
@pytest.mark.parametrize("implementation", ["cython", "python"])
def test_a_real_memory_error_is_one_line(tmp_path, implementation):
    """A 96 MiB reference line under a 1 GiB address space: the line is read, caching it needs
    several gigabytes (about 14 million distinct tokens and n-grams: the references' vocabulary
    and n-gram tables). A hypothesis that long fits: only its n-grams that a reference has are
    kept."""
    if implementation == "cython" and cybleu.BACKEND != "cython":
        pytest.skip("the compiled core is not built in this install")
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c d\n", encoding="utf-8")
    with open(ref, "w", encoding="utf-8") as f:
        for i in range(96 * 1024):
            f.write(" ".join(f"w{(i * 170 + k) * 7919 % 100000007}"
                             for k in range(170))[:1023] + " ")
        f.write("\n")
    env = dict(__import__("os").environ, CYBLEU_IMPLEMENTATION=implementation)
    out = subprocess.run([sys.executable, "-c", MEMORY_LIMITED, str(1 << 30), str(ref), "-i",
                          str(hyp)], capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 1, out.stderr[-2000:]
    assert out.stdout == ""
    assert out.stderr == (f"cybleu: {ref}: out of memory while caching them for BLEU (a line, "
                          "or the references, too large for the memory available)\n")
