"""The command line as a new user meets it: `cybleu --help` lists the commands beyond sacreBLEU's,
a mistyped command is named (a file of that name is still a reference file, as in sacreBLEU),
the bundled sample's path is one call or one flag away, `--demo` writes its report where it is
told or to a fresh file, and a report that would run for minutes says so or is refused.

Run on both backends (CYBLEU_IMPLEMENTATION=cython and =python).
"""
import os
import subprocess
import sys

import pytest

import cybleu
from cybleu import cli
from cybleu.cli import main


DATA = os.path.join(os.path.dirname(cybleu.__file__), "data")
SAMPLE_FILES = sorted(n for n in os.listdir(DATA) if n.endswith(".txt"))


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- --help and mistyped commands ------------------------------------------------------------------

def test_help_lists_every_command(capsys):
    code, out, err = _run(["--help"], capsys)
    assert code == 0
    for name in cli.SUBCOMMANDS:
        assert f"cybleu {name} " in out, name
        code, sub, _ = _run([name, "--help"], capsys)     # and each one's help runs
        assert code == 0 and f"cybleu {name}" in sub


@pytest.mark.parametrize("typo, command", [("reprot", "report"), ("repotr", "report"),
                                           ("filtr", "filter"), ("best_of", "best-of"),
                                           ("bestof", "best-of"), ("Report", "report")])
def test_a_mistyped_command_is_named(tmp_path, monkeypatch, capsys, typo, command):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run([typo, "-i", "hyp.txt"], capsys)
    assert code == 2
    assert f"did you mean `cybleu {command}`" in err and repr(typo) in err
    assert out == ""


def test_a_file_named_like_a_typo_is_a_reference(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reprot").write_text("a b c d\n")
    (tmp_path / "hyp").write_text("a b c d\n")
    code, out, err = _run(["reprot", "-i", "hyp", "-b"], capsys)
    assert code == 0 and out.strip() == "100.0"


@pytest.mark.parametrize("word", ["ref.txt", "refs", "hyp", "data/report", "newstest2017"])
def test_a_missing_file_far_from_any_command_is_a_missing_file(tmp_path, monkeypatch, capsys,
                                                               word):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "hyp.txt").write_text("a b c d\n")
    code, out, err = _run([word, "-i", "hyp.txt"], capsys)
    assert code == 1 and "did you mean" not in err and f"{word}: no such file" in err


# -- the sample's path --------------------------------------------------------------------------------

def test_sample_path_names_the_folder_and_each_file():
    folder = cybleu.sample_path()
    assert os.path.samefile(folder, DATA)
    assert sorted(n for n in os.listdir(folder) if n.endswith(".txt")) == SAMPLE_FILES
    assert os.path.basename(cybleu.sample_path("ref")) == "wmt17-en-de.ref.txt"
    assert cybleu.sample_path("wmt17-en-de.ref.txt") == cybleu.sample_path("ref")
    from cybleu.sample import SAMPLE_SYSTEMS
    for name in SAMPLE_SYSTEMS:
        path = cybleu.sample_path(name)
        assert os.path.basename(path) == f"wmt17-en-de.{name}.txt" and os.path.isfile(path)
        with open(path, encoding="utf-8") as f:
            assert sum(1 for _ in f) == 500
    with pytest.raises(ValueError, match="online-B"):
        cybleu.sample_path("online-A")


def test_the_sample_flag_prints_the_paths(capsys):
    assert _run(["--sample-path"], capsys)[1] == cybleu.sample_path() + "\n"
    assert _run(["--sample-path", "KIT"], capsys)[1] == cybleu.sample_path("KIT") + "\n"
    code, out, err = _run(["--sample-path", "nope"], capsys)
    assert code == 1 and "the sample has no file 'nope'" in err


def test_the_sample_copied_as_the_docs_say_scores_as_pasted(tmp_path):
    """`cp "$(cybleu --sample-path)"/wmt17-en-de.* .` then the docs' first command."""
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(cybleu.__file__)))
    python = f'"{sys.executable}" -m cybleu'
    proc = subprocess.run(["bash", "-c", f'cp "$({python} --sample-path)"/wmt17-en-de.* . && '
                                         f"{python} wmt17-en-de.ref.txt -i "
                                         "wmt17-en-de.online-B.txt -b"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(tmp_path)) == SAMPLE_FILES
    assert proc.stdout.strip() == "30.3"      # what sacrebleu prints for these files


# -- --demo's report ----------------------------------------------------------------------------------

def _demo(capsys, *extra):
    code, out, err = _run(["--demo", *extra], capsys)
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("Report"))
    return line.rsplit(": ", 1)[1]


def test_demo_writes_a_fresh_file_each_run(capsys, monkeypatch):
    monkeypatch.delenv("CYBLEU_DEMO_REPORT", raising=False)
    first, second = _demo(capsys), _demo(capsys)
    try:
        assert first != second
        for path in (first, second):
            assert os.path.basename(path).startswith("cybleu-demo-") and path.endswith(".html")
            with open(path, encoding="utf-8") as f:
                assert f.read(15) == "<!DOCTYPE html>"
    finally:
        for path in (first, second):
            os.remove(path)


def test_demo_report_goes_where_it_is_told(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CYBLEU_DEMO_REPORT", str(tmp_path / "env.html"))
    assert _demo(capsys) == str(tmp_path / "env.html")
    assert _demo(capsys, "--demo-report", str(tmp_path / "flag.html")) == \
        str(tmp_path / "flag.html")      # the flag before the environment
    assert (tmp_path / "env.html").is_file() and (tmp_path / "flag.html").is_file()
    code, out, err = _run(["--demo", "--demo-report", "none"], capsys)
    assert code == 0 and "Report" not in out


def test_demo_report_alone_is_a_usage_error(capsys, tmp_path):
    code, out, err = _run(["--demo-report", str(tmp_path / "r.html")], capsys)
    assert code == 1 and "give --demo too" in err


def test_demo_options_are_documented(capsys):
    out = _run(["--help"], capsys)[1]
    assert "--demo-report PATH" in out and "$CYBLEU_DEMO_REPORT" in out


# -- reports that cannot be, or take long ---------------------------------------------------------------

@pytest.mark.parametrize("references, message", [
    ([], "the references are empty: a report needs at least one segment"),
    ([[]], "the references are empty: a report needs at least one segment"),
])
def test_an_empty_report_says_so(references, message):
    with pytest.raises(cybleu.ReportInputError, match=message):
        cybleu.report(references, {"x": []})


def test_too_many_resamples_are_refused_at_once(tmp_path, capsys):
    ref = os.path.join(DATA, "wmt17-en-de.ref.txt")
    hyp = os.path.join(DATA, "wmt17-en-de.KIT.txt")
    code, out, err = _run(["report", ref, "-i", hyp, "-o", str(tmp_path / "r.html"),
                           "--paired-n", "100000000"], capsys)
    assert code == 1 and "100000000 resamples are more than a report takes (1,000,000)" in err
    assert not (tmp_path / "r.html").exists()
    with pytest.raises(cybleu.ReportInputError, match="more than a report takes"):
        cybleu.report(["a b"], {"x": ["a b"]}, n_samples=10**8)


def test_many_resamples_are_announced_before_the_work(tmp_path, capsys, monkeypatch):
    import cybleu._report as rep
    seen = []

    def stop(*args, **kwargs):
        seen.append(capsys.readouterr().err)   # what was said before the work began
        raise KeyboardInterrupt
    monkeypatch.setattr(rep, "report", stop)
    ref = os.path.join(DATA, "wmt17-en-de.ref.txt")
    hyps = [os.path.join(DATA, f"wmt17-en-de.{n}.txt") for n in ("KIT", "online-B")]
    code, out, err = _run(["report", ref, "-i", *hyps, "-o", str(tmp_path / "r.html"),
                           "--paired-n", "200000"], capsys)
    assert code == 130
    assert "200,000 resamples for up to 2 systems and 3 metrics: this takes a while" in seen[0]
