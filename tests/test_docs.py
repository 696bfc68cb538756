"""The documentation is tested: every example of README.md and docs/**/*.md runs and prints what
the page shows, every docstring example runs, every public name has a complete docstring, the
benchmark page is the one its JSON gives, and the docs site builds with warnings as errors.

Page examples follow these conventions (docs/guide/contributing is not a page: they live here):

- a ```` ```python ```` block runs; the blocks of one page share one namespace, top to bottom. When
  a ```` ```text ```` block follows it directly, the code's stdout must equal that block; without
  one, the code must print nothing. A line that is exactly `...` in a text block matches any
  number of lines (none included).
- a ```` ```console ```` block: each line starting with `$ ` is a bash command (a line ending in
  `\\` continues it); the lines after it, up to the next `$ `, are its stdout (the same `...`
  rule). A command must exit with status 0.
- ```` ```bash ```` and other blocks are shown, not run (install commands, for instance).
- every page runs in a fresh, empty temporary directory; examples may write files. A page that
  uses the bundled sample (`wmt17-en-de.ref.txt` and five systems' outputs, 500 lines each)
  gets it as a reader would, with `cybleu.sample_path(name)` or by copying it into the current
  folder (`cp "$(cybleu --sample-path)"/wmt17-en-de.* .`), so its examples run as pasted.
- a block whose code raises ModuleNotFoundError for an optional framework (torch, sacrebleu, ...)
  skips the rest of its page with that reason, so framework examples sit on pages of their own.

The source tree is found through $CYBLEU_SOURCE_TREE or as this file's parent; the page tests
skip with a reason when it has no README.md (the suite also runs on an installed wheel, without
the tree). The docstring tests need only the installed package.
"""
import ast
import contextlib
import doctest
import importlib
import importlib.util
import inspect
import io
import os
import re
import subprocess
import sys
import textwrap
import warnings
from importlib import resources
from pathlib import Path

import pytest

import cybleu


def _source_tree():
    env = os.environ.get("CYBLEU_SOURCE_TREE")
    root = Path(env).resolve() if env else Path(__file__).resolve().parents[1]
    return root if (root / "README.md").is_file() else None


ROOT = _source_tree()
NO_TREE = ("cybleu's source tree is absent (README.md not found next to tests/ or in "
           "$CYBLEU_SOURCE_TREE): the documentation is not part of an installed package")


def _pages():
    if ROOT is None:
        return []
    pages = [ROOT / "README.md"]
    docs = ROOT / "docs"
    if docs.is_dir():
        pages += sorted(p for p in docs.rglob("*.md") if "_build" not in p.parts)
    return pages


PAGES = _pages()
SAMPLE = ("wmt17-en-de.ref.txt", "wmt17-en-de.KIT.txt", "wmt17-en-de.LIUM-NMT.txt",
          "wmt17-en-de.PROMT-Rule-based.txt", "wmt17-en-de.online-B.txt",
          "wmt17-en-de.uedin-nmt.txt")


# -- reading a page --------------------------------------------------------------------------

FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")


def code_blocks(text):
    """(info string, content, line number of the opening fence, blank-only gap before it) for
    every top-level fenced block of a Markdown page, in order."""
    lines = text.split("\n")
    blocks = []
    i, last_end = 0, 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info, start = m["fence"], m["info"].strip(), i
        body = []
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close["fence"][0] == fence[0] and len(close["fence"]) >= len(fence) \
                    and not close["info"].strip():
                break
            body.append(lines[i])
            i += 1
        gap = "\n".join(lines[last_end:start]).strip() == ""
        blocks.append((info, "\n".join(body) + "\n" if body else "", start + 1, gap))
        i += 1
        last_end = i
    return blocks


def examples(text):
    """The page's runnable examples: ("python", code, expected or None, line) and ("console",
    [(command, expected lines)], None, line)."""
    blocks = code_blocks(text)
    out = []
    for k, (info, body, line, _) in enumerate(blocks):
        lang = info.split()[0] if info else ""
        if lang == "python":
            expected = None
            if k + 1 < len(blocks):
                nxt_info, nxt_body, _, gap = blocks[k + 1]
                if gap and nxt_info.split()[:1] == ["text"]:
                    expected = nxt_body
            out.append(("python", body, expected, line))
        elif lang == "console":
            out.append(("console", console_commands(body), None, line))
    return out


def console_commands(body):
    """[(command, expected stdout lines)] of a console block."""
    commands = []
    lines = body.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"console block: expected a '$ ' command, got {lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        commands.append((command, expected))
    return commands


def matches(expected_lines, actual_lines):
    """The actual lines equal the expected ones, a line `...` standing for any number of lines."""
    pattern = "".join(r"(?:[^\n]*\n)*?" if line == "..." else re.escape(line + "\n")
                      for line in expected_lines)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual_lines)) is not None


def _lines(text):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _mismatch(page, line, expected, actual):
    return (f"{page}:{line}: the example's output differs from the page.\n"
            f"--- the page shows:\n{expected}--- the example printed:\n{actual}")


# -- running a page --------------------------------------------------------------------------

def _missing_module(err):
    """The ModuleNotFoundError behind `err` (itself, or the cause of cybleu's ImportError that
    names the extra to install), or None."""
    while err is not None and not isinstance(err, ModuleNotFoundError):
        err = err.__cause__
    return err


def _optional_module_missing(err):
    found = _missing_module(err)
    name = (getattr(found, "name", None) or "").split(".")[0]
    return bool(name) and name != "cybleu"


def _sample_dir(tmp_path):
    """A folder holding a copy of the bundled sample (for the tests that read it directly)."""
    data = resources.files("cybleu") / "data"
    for name in SAMPLE:
        (tmp_path / name).write_bytes((data / name).read_bytes())
    return tmp_path


# environment variables that change what the examples print (sacreBLEU's format and seed)
ISOLATED = ("SACREBLEU_FORMAT", "SACREBLEU_SEED", "NO_COLOR", "CYBLEU_SPM_MODELS")


def _env():
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED}
    # `cybleu` and `python` in a command are the ones of the interpreter running the tests
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("PYTHONIOENCODING", "utf-8")
    return env


def run_page(page, tmp_path, monkeypatch):
    rel = page.relative_to(ROOT)
    work = tmp_path           # empty: the page gets the sample itself, as a reader would
    monkeypatch.chdir(work)
    for name in ISOLATED:
        monkeypatch.delenv(name, raising=False)
    namespace = {"__name__": "__main__"}
    ran = 0
    for kind, body, expected, line in examples(page.read_text(encoding="utf-8")):
        if kind == "python":
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    exec(compile(body, f"{rel}:{line}", "exec"), namespace)
            except ImportError as err:
                if _optional_module_missing(err):
                    pytest.skip(f"{rel}:{line} needs {_missing_module(err).name}, which is not "
                                f"installed (the rest of the page is skipped): {err}")
                raise
            actual = out.getvalue()
            want = expected if expected is not None else ""
            if not matches(_lines(want), _lines(actual)):
                pytest.fail(_mismatch(rel, line, want, actual))
        else:
            for command, want in body:
                proc = subprocess.run(["bash", "-c", command], cwd=work, env=_env(),
                                      capture_output=True, text=True, timeout=600)
                if proc.returncode != 0:
                    pytest.fail(f"{rel}:{line}: `{command}` exited with status "
                                f"{proc.returncode}:\n{proc.stderr}")
                if not matches(want, _lines(proc.stdout)):
                    pytest.fail(_mismatch(rel, line, "".join(w + "\n" for w in want),
                                          proc.stdout))
        ran += 1
    return ran


@pytest.mark.parametrize("page", PAGES or [None],
                         ids=[str(p.relative_to(ROOT)) for p in PAGES] or ["no-source-tree"])
def test_page_examples_print_what_the_page_shows(page, tmp_path, monkeypatch):
    if page is None:
        pytest.skip(NO_TREE)
    run_page(page, tmp_path, monkeypatch)


# -- the harness itself ----------------------------------------------------------------------

def test_the_harness_reads_pages_as_documented():
    page = textwrap.dedent("""\
        Intro.

        ```python
        print("a")
        ```

        ```text
        a
        ```

        ```python
        x = 1
        ```

        Some words.

        ```text
        not the output of the block above: words come between
        ```

        ```console
        $ echo one \\
          two
        one two
        $ true
        ```

        ```bash
        not run
        ```
        """)
    found = examples(page)
    assert [(k, e) for k, _, e, _ in found] == [("python", "a\n"), ("python", None),
                                                ("console", None)]
    assert found[2][1] == [("echo one \n  two", ["one two"]), ("true", [])]
    assert matches(["a", "...", "z"], ["a", "z"])
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert not matches(["a", "...", "z"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])
    assert not matches(["a."], ["ab"])          # text, not a regular expression


def test_a_wrong_output_fails_the_page(tmp_path, monkeypatch):
    """A mutation of a page: the harness must notice a changed number."""
    page = tmp_path / "page.md"
    page.write_text('```python\nprint(round(1 / 3, 2))\n```\n\n```text\n0.34\n```\n',
                    encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    with pytest.raises(pytest.fail.Exception, match="differs from the page"):
        run_page(page, work, monkeypatch)


# -- the README's numbers are sacreBLEU's ----------------------------------------------------

def _first_python_block(page):
    return next(body for kind, body, _, _ in examples(page.read_text(encoding="utf-8"))
                if kind == "python")


def test_readme_example_equals_sacrebleu(tmp_path, monkeypatch):
    if ROOT is None:
        pytest.skip(NO_TREE)
    sacrebleu = pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    monkeypatch.chdir(_sample_dir(tmp_path))
    namespace = {}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        exec(compile(_first_python_block(ROOT / "README.md"), "README.md", "exec"), namespace)
    lines = out.getvalue().splitlines()
    hyps, refs = namespace["hyps"], namespace["refs"]
    assert lines[0] == str(sacrebleu.corpus_bleu(hyps, refs))
    assert lines[1] == str(sacrebleu.corpus_chrf(hyps, refs))
    assert lines[2] == str(sacrebleu.corpus_ter(hyps, refs))
    assert lines[3] == str([sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs[0])])


def test_token_id_example_equals_sacrebleu(tmp_path, monkeypatch):
    if ROOT is None or not (ROOT / "docs" / "guide" / "ids.md").is_file():
        pytest.skip(NO_TREE)
    sacrebleu = pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    monkeypatch.chdir(_sample_dir(tmp_path))
    namespace = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(_first_python_block(ROOT / "docs" / "guide" / "ids.md"), "ids.md", "exec"),
             namespace)
    bleu = sacrebleu.metrics.BLEU(tokenize="none", effective_order=True)
    trimmed = [["5", "17", "9", "42"], ["5", "17", "8"]]       # pad 0 and eos 2 cut away
    refs = [" ".join(map(str, r)) for r in namespace["refs"]]
    assert namespace["rewards"].tolist() == [bleu.sentence_score(" ".join(h), [r]).score
                                             for h, r in zip(trimmed, refs)]
    assert str(namespace["score"]) == str(sacrebleu.corpus_bleu([" ".join(h) for h in trimmed],
                                                                [refs], tokenize="none"))


def _run_python_blocks(rel, tmp_path, monkeypatch):
    """(namespace, [(code, stdout)]) of a docs page's python blocks, run as the harness runs
    them; skips when the page is absent or needs a framework that is not installed."""
    page = None if ROOT is None else ROOT / rel
    if page is None or not page.is_file():
        pytest.skip(NO_TREE)
    monkeypatch.chdir(tmp_path)
    for name in ISOLATED:
        monkeypatch.delenv(name, raising=False)
    namespace, outputs = {"__name__": "__main__"}, []
    for kind, body, _, line in examples(page.read_text(encoding="utf-8")):
        if kind != "python":
            continue
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(compile(body, f"{rel}:{line}", "exec"), namespace)
        except ImportError as err:
            if not _optional_module_missing(err):
                raise
            break
        outputs.append((body, out.getvalue().splitlines()))
    return namespace, outputs


def _printed(outputs, fragment):
    """The lines printed by the block whose code contains `fragment`."""
    return next(lines for code, lines in outputs if fragment in code)


def test_metrics_page_equals_sacrebleu(tmp_path, monkeypatch):
    sacrebleu = pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    from conftest import bits
    ns, out = _run_python_blocks("docs/guide/metrics.md", tmp_path, monkeypatch)
    hyps, refs = ns["hyps"], ns["refs"]
    assert _printed(out, "max_ngram_order=2)") == [
        str(sacrebleu.corpus_bleu(hyps, [refs])),
        str(round(sacrebleu.corpus_bleu(hyps, [refs], lowercase=True, tokenize="intl").score, 10)),
        str(sacrebleu.BLEU(max_ngram_order=2).corpus_score(hyps, [refs]))]
    oracle = sacrebleu.BLEU(effective_order=True)
    assert [bits(x) for x in ns["scores"]] == \
        [bits(oracle.sentence_score(h, [r]).score) for h, r in zip(hyps, refs)]
    assert _printed(out, "word_order=2))")[:2] == [
        str(sacrebleu.corpus_chrf(hyps, [refs])),
        str(sacrebleu.corpus_chrf(hyps, [refs], word_order=2))]
    chrf = sacrebleu.CHRF()
    assert ns["matrix"].tolist() == [[chrf.sentence_score(h, [r]).score for r in ns["candidates"]]
                                     for h in ns["candidates"]]
    ter = sacrebleu.TER(normalized=True, case_sensitive=True).corpus_score(hyps, [refs])
    assert _printed(out, "TER(normalized=True")[:2] == [
        str(sacrebleu.corpus_ter(hyps, [refs])), f"{ter} {ter.num_edits} {ter.ref_length}"]
    assert _printed(out, "n_bootstrap=1000") == [
        str(sacrebleu.BLEU().corpus_score(hyps, [refs], n_bootstrap=1000))]
    limit = sacrebleu.BLEU(tokenize="none", effective_order=True).sentence_score("1 2 3", ["1 2"])
    assert _printed(out, "BLEUStats([4, 4, 5")[-1] == str([limit.score])


def test_significance_page_equals_sacrebleu(tmp_path, monkeypatch):
    pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    from sacrebleu.metrics import BLEU as SacreBLEU
    from sacrebleu.significance import PairedTest as SacrePairedTest
    ns, _ = _run_python_blocks("docs/guide/significance.md", tmp_path, monkeypatch)
    oracle = SacrePairedTest(list(ns["systems"].items()),
                             {"BLEU": SacreBLEU(references=[ns["refs"]])}, None, test_type="bs")()
    assert [r.__dict__ for r in ns["scores"]["BLEU"]] == [r.__dict__ for r in oracle[1]["BLEU"]]
    assert str(ns["signatures"]["BLEU"]).split("|version:")[0] == \
        str(oracle[0]["BLEU"]).split("|version:")[0]


def test_nltk_hf_page_equals_nltk_and_the_nmt_formula(tmp_path, monkeypatch):
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score",
                                    reason="nltk is the oracle (the test extra, Python >= 3.10)")
    from test_hf import nmt_compute_bleu   # the published formula, written out in test_hf
    from cybleu import hf
    ns, out = _run_python_blocks("docs/guide/nltk-hf.md", tmp_path, monkeypatch)
    refs, hyp = ns["refs"], ns["hyp"]
    method1 = nltk_bleu.SmoothingFunction().method1
    assert _printed(out, "chencherry") == [
        repr(nltk_bleu.sentence_bleu(refs, hyp)),
        repr(nltk_bleu.sentence_bleu(refs, ["the", "dog"], smoothing_function=method1)),
        repr(nltk_bleu.corpus_bleu([refs], [hyp], weights=[(0.5, 0.5), (0.25,) * 4]))]
    tok = hf.tokenizer_13a
    want = nmt_compute_bleu([[tok("the cat is on the mat"), tok("the cat sat on a mat")]],
                            [tok("the cat sat on the mat")])
    assert ns["result"]["bleu"] == want[0] and ns["result"]["precisions"] == want[1]


def test_frameworks_page_equals_sacrebleu(tmp_path, monkeypatch):
    sacrebleu = pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    ns, out = _run_python_blocks("docs/guide/frameworks.md", tmp_path, monkeypatch)
    hyp = "the cat sat on the mat"
    assert _printed(out, "make_compute_metrics(WordTokenizer())")[-1] == str(
        {"bleu": sacrebleu.corpus_bleu([hyp], [["the cat is on the mat"]]).score, "gen_len": 7.0})
    assert _printed(out, "bleu_reward(prompts")[0] == str(
        [sacrebleu.sentence_bleu("The cat sat on the mat.", ["The cat is on the mat."]).score, None])
    if "metric" not in ns:
        pytest.skip("torch and torchmetrics are not installed (cybleu[torchmetrics])")
    assert ns["metric"].compute().item() == sacrebleu.corpus_bleu(
        ["The cat sat on the mat.", "Hello, world!"],
        [["The cat is on the mat.", "Hello world!"], ["A cat sat on the mat.", "Hi, world!"]]
    ).score / 100


def test_command_line_examples_print_what_sacrebleu_prints(tmp_path):
    """Every `cybleu ...` command of the getting-started pages and the command-line guide prints
    what `python -m sacrebleu` prints with the same arguments, but the signature's version."""
    pytest.importorskip("sacrebleu", reason="the oracle (the test extra)")
    pages = ["docs/guide/cli.md", "docs/getting-started/first-score.md",
             "docs/getting-started/reading-scores.md"]
    if ROOT is None or not all((ROOT / page).is_file() for page in pages):
        pytest.skip(NO_TREE)
    work = tmp_path           # the pages copy the sample here themselves
    compared = 0
    for page in pages:
        for kind, body, _, line in examples((ROOT / page).read_text(encoding="utf-8")):
            if kind != "console":
                continue
            for command, _ in body:
                if "cybleu " not in command or "--demo" in command or "--sample-path" in command:
                    if "--demo" not in command:   # helper commands (cp, head, ...) make files
                        subprocess.run(["bash", "-c", command], cwd=work, env=_env(), check=True)
                    continue
                oracle = command.replace("cybleu ", f"{shlex_quote(sys.executable)} -m sacrebleu ")
                ours, theirs = (subprocess.run(["bash", "-c", c], cwd=work, env=_env(),
                                               capture_output=True, text=True, timeout=600)
                                for c in (command, oracle))
                assert ours.returncode == theirs.returncode == 0, (page, line, command)
                assert ours.stdout.replace(f"cybleu-{cybleu.__version__}", "2.6.0") == \
                    theirs.stdout, (page, line, command)
                compared += 1
    assert compared >= 10


def shlex_quote(text):
    import shlex
    return shlex.quote(text)


# -- docstrings --------------------------------------------------------------------------------

# the modules the API reference documents, and the public names each one holds
API_MODULES = ["cybleu", "cybleu.metrics", "cybleu.metrics.base", "cybleu.metrics.bleu",
               "cybleu.metrics.chrf", "cybleu.metrics.ter", "cybleu.metrics.helpers",
               "cybleu.metrics.lib_ter", "cybleu.significance", "cybleu.ids", "cybleu.nltk",
               "cybleu.hf", "cybleu.torchmetrics", "cybleu.rewards", "cybleu.patch",
               "cybleu.utils", "cybleu.dataset", "cybleu.tokenizers.tokenizer_base",
               "cybleu.tokenizers.tokenizer_13a", "cybleu.tokenizers.tokenizer_intl",
               "cybleu.tokenizers.tokenizer_zh", "cybleu.tokenizers.tokenizer_char",
               "cybleu.tokenizers.tokenizer_none", "cybleu.tokenizers.tokenizer_re",
               "cybleu.tokenizers.tokenizer_ja_mecab", "cybleu.tokenizers.tokenizer_ko_mecab",
               "cybleu.tokenizers.tokenizer_spm", "cybleu.tokenizers.tokenizer_ter",
               "cybleu.dask", "cybleu.ray", "cybleu.spark", "cybleu.rouge", "cybleu.metrics.rouge",
               "cybleu.rouge_score.rouge_scorer", "cybleu.rouge_score.scoring",
               "cybleu.rouge_score.tokenize", "cybleu.rouge_score.tokenizers"]
FRAMEWORKS = {"cybleu.torchmetrics": "torch", "cybleu.dask": "distributed", "cybleu.ray": "ray",
              "cybleu.spark": "pyspark"}


def _module(name):
    if name in FRAMEWORKS:
        pytest.importorskip(FRAMEWORKS[name], reason=f"{name} needs {FRAMEWORKS[name]}")
    return importlib.import_module(name)


def _public(module):
    names = getattr(module, "__all__", None)
    if names is None:   # the tokenizer modules: the classes defined there
        names = [n for n, v in vars(module).items() if inspect.isclass(v)
                 and v.__module__ == module.__name__ and not n.startswith("_")]
    return [(n, getattr(module, n)) for n in names if n not in ("__version__",)]


def _needs_missing_module(test):
    """A docstring example that imports an optional framework that is not installed (nltk on
    Python 3.9, torch) is left out, as the page examples are."""
    for example in test.examples:
        for name in re.findall(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", example.source, re.M):
            if name != "cybleu" and importlib.util.find_spec(name) is None:
                return True
    return False


@pytest.mark.parametrize("name", API_MODULES)
def test_docstring_examples_run(name):
    module = _module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    seen = set()
    tests = list(finder.find(module, name))
    for attr, value in _public(module):
        if (inspect.isfunction(value) or inspect.isclass(value)) and id(value) not in seen:
            seen.add(id(value))
            tests += finder.find(value, f"{name}.{attr}", module=False, globs={})
    tests = [t for t in tests if t.examples and not _needs_missing_module(t)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for test in tests:
            runner.run(test, out=lambda text: None)
    results = runner.summarize(verbose=False)
    if results.failed:
        # run again to show what failed
        report = io.StringIO()
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for test in tests:
                runner.run(test, out=report.write)
        pytest.fail(f"{results.failed} of {results.attempted} docstring examples of {name} "
                    f"failed:\n{report.getvalue()}")


def _params(func):
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.name not in ("self", "cls") and not p.name.startswith("_")
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _returns_value(func):
    """Whether the function's own code returns a value (a `return x` that is not `return None`)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError):
        return False
    body = tree.body[0]
    for node in ast.walk(body):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, ast.Return) and node.value is not None \
                and not (isinstance(node.value, ast.Constant) and node.value.value is None):
            # a return inside a nested function is that function's
            owner = next((f for f in ast.walk(body) if f is not body
                          and isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
                          and node in list(ast.walk(f))), None)
            if owner is None:
                return True
    return False


def _doc_problems(qualname, obj, doc, params, need_example, need_returns):
    problems = []
    if not doc or not doc.strip():
        return [f"{qualname}: no docstring"]
    for p in params:
        if f":param {p}:" not in doc:
            problems.append(f"{qualname}: `{p}` is not described (:param {p}:)")
    if need_returns and ":returns:" not in doc:
        problems.append(f"{qualname}: what it returns is not said (:returns:)")
    if need_example and ">>>" not in doc:
        problems.append(f"{qualname}: no example (>>>)")
    return problems


def _own_methods(cls):
    for attr, value in vars(cls).items():
        if attr.startswith("_") and attr not in ("__call__",):
            continue
        func = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        if isinstance(value, property):
            yield attr, value.fget, True
        elif inspect.isfunction(func):
            yield attr, func, False


@pytest.mark.parametrize("name", API_MODULES)
def test_every_public_name_has_a_complete_docstring(name):
    """Module-level functions and classes: a docstring, every parameter, what it returns, an
    example. Public methods: a docstring, every parameter, what it returns (the class's example
    shows them in use)."""
    module = _module(name)
    problems = []
    for attr, value in _public(module):
        qual = f"{name}.{attr}"
        if inspect.isfunction(value):
            problems += _doc_problems(qual, value, inspect.getdoc(value), _params(value), True,
                                      _returns_value(value))
        elif inspect.isclass(value):
            doc = value.__doc__
            init = value.__dict__.get("__init__")
            params = _params(init) if inspect.isfunction(init) else []
            problems += _doc_problems(qual, value, doc, params, True, False)
            for meth, func, is_property in _own_methods(value):
                mdoc = inspect.getdoc(func) if not is_property else func.__doc__
                problems += _doc_problems(f"{qual}.{meth}", func, mdoc,
                                          [] if is_property else _params(func), False,
                                          not is_property and _returns_value(func))
    assert not problems, "\n".join(problems)


# -- the benchmark page and the README's table come from the benchmark JSON ------------------------

def test_benchmark_page_is_generated_from_its_json():
    if ROOT is None or not (ROOT / "docs" / "gen_benchmarks.py").is_file():
        pytest.skip(NO_TREE)
    proc = subprocess.run([sys.executable, str(ROOT / "docs" / "gen_benchmarks.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- the site ------------------------------------------------------------------------------------

@pytest.mark.docs
def test_docs_build_offline_with_warnings_as_errors(tmp_path):
    if ROOT is None or not (ROOT / "docs" / "conf.py").is_file():
        pytest.skip(NO_TREE)
    missing = [m for m in ("sphinx", "furo", "myst_parser")
               if importlib.util.find_spec(m) is None]
    if missing:
        reason = (f"{', '.join(missing)} not installed: the docs build needs the docs extra "
                  "(pip install 'cybleu[docs]')")
        if os.environ.get("CYBLEU_REQUIRE_DOCS") == "1":
            pytest.fail(f"CYBLEU_REQUIRE_DOCS=1 but {reason}")
        pytest.skip(reason)
    out = tmp_path / "html"
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           str(ROOT / "docs"), str(out), "-d", str(tmp_path / "doctrees")],
                          capture_output=True, text=True, timeout=900, env=_env())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    remote = []
    for page in out.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        remote += [f"{page.relative_to(out)}: {m}" for m in re.findall(
            r'<(?:script|img|link)\b[^>]*\b(?:src|href)="(?:https?:)?//[^"]*"', html)]
    assert not remote, "the built site loads remote resources:\n" + "\n".join(remote)
    assert (out / "index.html").is_file() and (out / "api" / "ids.html").is_file()
