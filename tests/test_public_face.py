"""The package's public face: what `dir(cybleu)` and `help(cybleu)` show, and every public module
path (cybleu's own and sacreBLEU's) importing from an installed cybleu.

Each check runs in a fresh interpreter, on both backends, so that no earlier import in the test
process can make a module path look importable.
"""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cybleu

PACKAGE_PARENT = Path(cybleu.__file__).resolve().parent.parent

# sacreBLEU 2.6.0's module paths that cybleu mirrors, and cybleu's own public modules
SACREBLEU_PATHS = [
    "cybleu.metrics", "cybleu.metrics.base", "cybleu.metrics.bleu", "cybleu.metrics.chrf",
    "cybleu.metrics.ter", "cybleu.metrics.helpers", "cybleu.metrics.lib_ter",
    "cybleu.tokenizers", "cybleu.tokenizers.tokenizer_base", "cybleu.tokenizers.tokenizer_13a",
    "cybleu.tokenizers.tokenizer_intl", "cybleu.tokenizers.tokenizer_zh",
    "cybleu.tokenizers.tokenizer_char", "cybleu.tokenizers.tokenizer_none",
    "cybleu.tokenizers.tokenizer_re", "cybleu.tokenizers.tokenizer_ja_mecab",
    "cybleu.tokenizers.tokenizer_ko_mecab", "cybleu.tokenizers.tokenizer_spm",
    "cybleu.tokenizers.tokenizer_ter", "cybleu.significance", "cybleu.utils", "cybleu.dataset",
    "cybleu.compat", "cybleu.version",
]
CYBLEU_PATHS = ["cybleu.ids", "cybleu.nltk", "cybleu.hf", "cybleu.cli", "cybleu.patch",
                "cybleu.rewards", "cybleu.torchmetrics", "cybleu.__main__"]


def _run(code, implementation, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_PARENT), CYBLEU_IMPLEMENTATION=implementation)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(params=["cython", "python"])
def implementation(request):
    if request.param == "cython" and cybleu.BACKEND != "cython":
        pytest.skip("the compiled core is not built in this install")
    return request.param


def test_dir_shows_the_public_api_only(implementation, tmp_path):
    names = ast.literal_eval(_run("import cybleu; print(dir(cybleu))", implementation, tmp_path))
    assert names == sorted(cybleu.__all__)
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
    # the lazy names resolve, so dir() promises nothing that is not there
    assert ast.literal_eval(_run(
        "import cybleu; print([n for n in cybleu.__all__ if not hasattr(cybleu, n)])",
        implementation, tmp_path)) == []


def test_help_lists_public_names_only(implementation, tmp_path):
    text = _run("import pydoc, cybleu; print(pydoc.render_doc(cybleu, renderer=pydoc.plaintext))",
                implementation, tmp_path)
    sections = text.split("\nCLASSES\n", 1)[1]   # the classes, functions and data help shows
    for private in ("_LAZY", "TYPE_CHECKING", "__getattr__", "__dir__", "_backend", "import_module"):
        assert f"\n    {private}" not in sections, private
    for public in ("corpus_bleu", "BLEU", "patch_sacrebleu", "BACKEND"):
        assert public in sections


@pytest.mark.parametrize("path", SACREBLEU_PATHS + CYBLEU_PATHS)
def test_every_public_module_path_imports(implementation, tmp_path, path):
    if path == "cybleu.torchmetrics":
        pytest.importorskip("torch", reason="cybleu.torchmetrics needs torch (cybleu[torchmetrics])")
    if path == "cybleu.__main__":
        # importing __main__ runs the command line: ask it for its version instead
        out = _run("import sys; sys.argv = ['cybleu', '--version']\n"
                   "import runpy; runpy.run_module('cybleu', run_name='__main__')",
                   implementation, tmp_path)
        assert "cybleu" in out
        return
    _run(f"import {path}", implementation, tmp_path)
