"""Outputs never destroy inputs or special files, and every command ends an error the same way.

- `cybleu filter`, `cybleu best-of` and `cybleu report` refuse an output that is one of their
  inputs (by name, through a symbolic link or a hard link, or as the file a --kept/--dropped
  folder would get), before anything is opened for writing: the inputs keep their bytes.
- filter refuses bounds that keep nothing and --kept X --dropped X, and takes negative bounds.
- `report -o` and `Report.save` write through a symbolic link to its target, write a FIFO or a
  device in place (never replace it by a regular file), take `-o -` for standard output, and say
  what is wrong with a place that cannot take the page.
- The scoring command line, report, best-of and filter share one error -> exit path: a full
  disk, a closed pipe, an undecodable line, bad input and Ctrl-C give one `cybleu: ` line (no
  traceback) and the same status in each.

Run on both backends (CYBLEU_IMPLEMENTATION=cython and =python).
"""
import errno
import io
import os
import stat
import subprocess
import sys
import threading

import pytest
import sacrebleu

import cybleu
from cybleu.cli import main

SAMPLE = os.path.join(os.path.dirname(cybleu.__file__), "data")
REF = os.path.join(SAMPLE, "wmt17-en-de.ref.txt")
SYSTEMS = [os.path.join(SAMPLE, f"wmt17-en-de.{name}.txt") for name in ("KIT", "online-B")]


def _lines(path, n=None):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")[:-1]
    return lines if n is None else lines[:n]


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def corpus(tmp_path):
    """d/hyp.txt and d/ref.txt (40 lines of the sample), and their bytes."""
    folder = tmp_path / "d"
    folder.mkdir()
    hyp = _write(folder / "hyp.txt", _lines(SYSTEMS[0], 40))
    ref = _write(folder / "ref.txt", _lines(REF, 40))
    return folder, hyp, ref, {p: _bytes(p) for p in (hyp, ref)}


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _bytes(path):
    with open(path, "rb") as f:
        return f.read()


def _intact(saved):
    for path, data in saved.items():
        assert _bytes(path) == data, f"{path} was changed"


# -- an output is never an input --------------------------------------------------------------------

@pytest.mark.parametrize("argv, output", [
    (["filter", "-i", "HYP", "-r", "REF", "--min", "0", "--kept", "D"], "HYP"),
    (["filter", "-i", "HYP", "-r", "REF", "--min", "0", "--dropped", "D"], "HYP"),
    (["filter", "-i", "HYP", "-r", "REF", "--min", "0", "--scores", "REF"], "REF"),
    (["filter", "-i", "HYP", "-r", "REF", "--max", "0", "--kept", "K", "--scores", "HYP"], "HYP"),
    (["best-of", "-k", "1", "-i", "HYP", "-r", "REF", "-o", "HYP"], "HYP"),
    (["best-of", "-k", "1", "-i", "HYP", "-r", "REF", "-o", "OUT", "--scores", "REF"], "REF"),
    (["report", "REF", "-i", "HYP", "-o", "HYP", "-m", "bleu"], "HYP"),
    (["report", "REF", "-i", "HYP", "-o", "REF", "-m", "bleu"], "REF"),
])
def test_an_output_that_is_an_input_is_refused(corpus, tmp_path, capsys, argv, output):
    folder, hyp, ref, saved = corpus
    names = {"HYP": hyp, "REF": ref, "D": str(folder), "K": str(tmp_path / "k"),
             "OUT": str(tmp_path / "out.txt")}
    code, out, err = _run([names.get(a, a) for a in argv], capsys)
    assert code == 1
    assert f"is the input {names[output]}" in err and "Traceback" not in err
    _intact(saved)
    assert not (tmp_path / "k").exists() and not (tmp_path / "out.txt").exists()


@pytest.mark.parametrize("link", ["symbolic", "hard"])
@pytest.mark.parametrize("command", ["best-of", "report"])
def test_a_link_to_an_input_is_refused(corpus, tmp_path, capsys, link, command):
    folder, hyp, ref, saved = corpus
    out_path = tmp_path / "out.txt"
    (os.symlink if link == "symbolic" else os.link)(hyp, out_path)
    argv = (["best-of", "-k", "1", "-i", hyp, "-r", ref, "-o", str(out_path)]
            if command == "best-of" else
            ["report", ref, "-i", hyp, "-o", str(out_path), "-m", "bleu"])
    code, out, err = _run(argv, capsys)
    assert code == 1 and f"is the input {hyp}" in err
    _intact(saved)


def test_filter_refuses_one_folder_for_kept_and_dropped(corpus, tmp_path, capsys):
    folder, hyp, ref, saved = corpus
    for kept, dropped in ((tmp_path / "x", tmp_path / "x"), (tmp_path / "x", f"{tmp_path}/./x/")):
        code, out, err = _run(["filter", "-i", hyp, "-r", ref, "--min", "20", "--kept",
                               str(kept), "--dropped", str(dropped)], capsys)
        assert code == 1 and "are the same folder" in err
        assert not (tmp_path / "x").exists()


def test_two_outputs_that_are_the_same_file_are_refused(corpus, tmp_path, capsys):
    folder, hyp, ref, saved = corpus
    code, out, err = _run(["best-of", "-k", "1", "-i", hyp, "-r", ref, "-o",
                           str(tmp_path / "o"), "--scores", str(tmp_path / "o")], capsys)
    assert code == 1 and "are the same file" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("bounds, message", [
    (["--min", "nan"], "--min nan keeps no score"),
    (["--max", "nan"], "--max nan keeps no score"),
    (["--min", "50", "--max", "10"], "--min 50 is above --max 10"),
    (["--min", "inf"], "--min inf keeps no score"),
])
@pytest.mark.parametrize("quiet", [[], ["-q"]])
def test_bounds_that_keep_nothing_are_refused(corpus, tmp_path, capsys, bounds, message, quiet):
    folder, hyp, ref, saved = corpus
    code, out, err = _run(["filter", "-i", hyp, "-r", ref, "--kept", str(tmp_path / "k")]
                          + bounds + quiet, capsys)
    assert code == 1 and message in err
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize("bounds, keep", [
    (["--min", "-inf", "--max", "10"], lambda s: s <= 10),
    (["--min", "-5"], lambda s: True),
    (["--min=-5", "--max", "-1e-9"], lambda s: False),
    (["--max", "-0.5"], lambda s: s <= -0.5),
])
def test_negative_bounds_are_numbers(corpus, tmp_path, capsys, bounds, keep):
    folder, hyp, ref, saved = corpus
    code, out, err = _run(["filter", "-i", hyp, "-r", ref, "--kept", str(tmp_path / "k"), "-q"]
                          + bounds, capsys)
    assert code == 0, err
    metric = sacrebleu.BLEU(effective_order=True)
    want = [h for h, r in zip(_lines(hyp), _lines(ref))
            if keep(metric.sentence_score(h, [r]).score)]
    assert _lines(tmp_path / "k" / "hyp.txt") == want


# -- report -o and Report.save: links, FIFOs, devices, standard output -------------------------------

def _report_argv(out):
    return ["report", REF, "-i", *SYSTEMS, "-m", "bleu", "-q", "-o", str(out)]


class _FifoReader:
    """Reads a FIFO in a thread while the block runs; the list it gives holds what was read.
    A writer that never opens the FIFO (it replaced it) leaves the reader waiting: it is let go
    at the end, with nothing read."""

    def __init__(self, fifo):
        self.fifo, self.got = fifo, []
        self.thread = threading.Thread(target=lambda: self.got.append(_bytes(fifo)), daemon=True)

    def __enter__(self):
        self.thread.start()
        return self.got

    def __exit__(self, *exc):
        self.thread.join(30)
        if self.thread.is_alive():
            try:
                os.close(os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            self.thread.join(30)
        return False


def test_report_writes_through_a_symbolic_link(tmp_path, capsys):
    target = tmp_path / "target.html"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.html"
    link.symlink_to(target)
    code, out, err = _run(_report_argv(link), capsys)
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640        # the target keeps its mode
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_report_writes_a_fifo_in_place(tmp_path, capsys):
    fifo = tmp_path / "page.fifo"
    os.mkfifo(fifo)
    with _FifoReader(fifo) as got:
        code, out, err = _run(_report_argv(fifo), capsys)
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].startswith(b"<!DOCTYPE html>")


def test_report_writes_a_device_in_place(tmp_path, capsys):
    """A link to /dev/null: the report goes to the device, and the link (and the device) stay what
    they are (a rename would replace the link, and, as root, the device itself)."""
    link = tmp_path / "null.html"
    link.symlink_to(os.devnull)
    code, out, err = _run(_report_argv(link), capsys)
    assert code == 0, err
    assert link.is_symlink() and stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_report_dash_is_standard_output(tmp_path, capsysbinary):
    code = main(_report_argv("-"))
    out, err = capsysbinary.readouterr()
    assert code == 0, err
    assert out.startswith(b"<!DOCTYPE html>") and out.rstrip().endswith(b"</html>")
    assert not (tmp_path / "-").exists() and not os.path.exists("-")


def test_save_writes_through_links_and_into_fifos(tmp_path):
    rep = cybleu.report(["the cat sat"], {"a": ["the cat sat"], "b": ["a cat"]}, metrics=["bleu"])
    target = tmp_path / "t.html"
    link = tmp_path / "l.html"
    link.symlink_to(target)
    assert rep.save(link) == str(target)
    assert link.is_symlink() and target.read_text(encoding="utf-8") == rep.html()
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with _FifoReader(fifo) as got:
        rep.save(fifo)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and got == [rep.html().encode("utf-8")]


def test_save_keeps_the_old_file_when_the_write_fails(tmp_path, monkeypatch):
    rep = cybleu.report(["the cat sat"], {"a": ["the cat sat"]}, metrics=["bleu"])
    target = tmp_path / "r.html"
    target.write_text("old")

    def full(*args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="no space left") as info:
        rep.save(target)
    assert info.value.errno == errno.ENOSPC and info.value.filename == str(target)
    assert target.read_text() == "old" and sorted(os.listdir(tmp_path)) == ["r.html"]


@pytest.mark.parametrize("where, message", [
    ("/proc/r.html", "cannot create a file in /proc"),
    ("MISSING/r.html", "the folder {tmp}/MISSING does not exist"),
    ("{tmp}", "is a folder, not a file"),
])
def test_report_says_what_is_wrong_with_the_place(tmp_path, capsys, where, message):
    if where.startswith("/proc") and (not os.path.isdir("/proc") or os.access("/proc", os.W_OK)
                                      and os.path.exists("/proc/r.html")):
        pytest.skip("no /proc filesystem here")
    where = where.replace("{tmp}", str(tmp_path)).replace("MISSING", str(tmp_path / "MISSING"))
    code, out, err = _run(_report_argv(where), capsys)
    assert code == 1 and message.replace("{tmp}", str(tmp_path)) in err
    assert "no such file" not in err and "Traceback" not in err


# -- one error -> exit path for every command ----------------------------------------------------------

def _commands(tmp_path, out):
    """Each command with its output at `out` (None: standard output)."""
    hyp, ref = SYSTEMS[0], REF
    report = ["report", ref, "-i", *SYSTEMS, "-m", "bleu", "-o", out or "-"]
    best = ["best-of", "-k", "1", "-i", hyp, "-r", ref] + (["-o", out] if out else [])
    filt = ["filter", "-i", hyp, "-r", ref, "--min", "10", "--scores", out or "-"]
    return {"score": [ref, "-i", hyp], "report": report, "best-of": best, "filter": filt}


def _cli(argv, **kwargs):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.dirname(os.path.dirname(cybleu.__file__))] + sys.path))
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "cybleu", *argv], stderr=subprocess.PIPE,
                          text=True, env=env, timeout=300, **kwargs)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", ["score", "report", "best-of", "filter"])
@pytest.mark.parametrize("through", ["-o", "stdout"])
def test_a_full_disk_is_one_line(tmp_path, command, through):
    if command == "score" and through == "-o":
        pytest.skip("the scoring command writes to standard output only")
    # through a link: a command that replaced its output instead of writing it would replace
    # the link, not the device
    full = tmp_path / "full"
    full.symlink_to("/dev/full")
    argv = _commands(tmp_path, str(full) if through == "-o" else None)[command]
    with open("/dev/full", "w") as stdout:
        proc = _cli(argv, stdout=stdout) if through == "stdout" else _cli(argv)
    err = proc.stderr
    assert proc.returncode == 1, err
    assert "Traceback" not in err
    where = full if through == "-o" else "standard output"
    assert f"cybleu: {where}: no space left on the device" in err
    assert len(err.strip().split("\n")) <= 2


class _Closed(io.TextIOBase):
    """Standard output whose reader went away."""

    def writable(self):
        return True

    @property
    def buffer(self):
        return _ClosedBytes()

    def write(self, text):
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))

    def flush(self):
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


class _ClosedBytes(io.RawIOBase):
    def writable(self):
        return True

    def write(self, data):
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


@pytest.mark.parametrize("command", ["score", "report", "best-of", "filter"])
def test_a_closed_pipe_is_one_line(tmp_path, monkeypatch, capsys, command):
    argv = _commands(tmp_path, None)[command]
    if command == "report":
        argv = [a for a in argv if a != "-"] + ["-"]
    monkeypatch.setattr(sys, "stdout", _Closed())
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 1 and "standard output: the reader closed the pipe" in err


@pytest.mark.parametrize("command", ["score", "report", "best-of", "filter"])
def test_an_undecodable_line_names_the_file_and_line(tmp_path, capsys, command):
    bad = tmp_path / "bad.txt"
    lines = _lines(SYSTEMS[0])
    bad.write_bytes("\n".join(lines[:6]).encode("utf-8") + b"\nbro\xffken\n"
                    + "\n".join(lines[7:]).encode("utf-8") + b"\n")
    argv = [str(bad) if a == SYSTEMS[0] else a
            for a in _commands(tmp_path, str(tmp_path / "o"))[command]]
    code, out, err = _run(argv, capsys)
    assert code == 1 and f"{bad}: line 7: cannot decode as utf-8" in err
    assert "Traceback" not in err


def _raise(error):
    def boom(*args, **kwargs):
        raise error
    return boom


# where each command spends its time, to stop it there
_INSIDE = {"score": "cybleu.streams.read_references", "report": "cybleu._report.report",
           "best-of": "cybleu._scale.select.sentence_scores",
           "filter": "cybleu._scale.select.sentence_scores"}
# where an error from bad input can come from (best-of and filter name the lines of an error
# while scoring: tests/test_select.py)
_BAD = dict(_INSIDE, **{"best-of": "cybleu._scale.cli._metric", "filter": "cybleu._scale.cli._metric"})


@pytest.mark.parametrize("command", ["score", "report", "best-of", "filter"])
def test_ctrl_c_is_status_130(tmp_path, monkeypatch, capsys, command):
    monkeypatch.setattr(_INSIDE[command], _raise(KeyboardInterrupt()))
    code, out, err = _run(_commands(tmp_path, str(tmp_path / "o"))[command], capsys)
    assert code == 130 and err.strip().endswith("Interrupted.")


@pytest.mark.parametrize("command", ["score", "report", "best-of", "filter"])
@pytest.mark.parametrize("error", [ValueError("a bad value"), TypeError("a bad type"),
                                   OSError(errno.EIO, "Input/output error", "some.file")])
def test_errors_from_bad_input_are_one_line(tmp_path, monkeypatch, capsys, command, error):
    monkeypatch.setattr(_BAD[command], _raise(error))
    code, out, err = _run(_commands(tmp_path, str(tmp_path / "o"))[command], capsys)
    assert code == 1 and "Traceback" not in err
    want = ("some.file: Input/output error" if isinstance(error, OSError)
            else f"{type(error).__name__}: {error}")
    assert err.strip().endswith(want), err
