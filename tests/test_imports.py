"""What `import cybleu` and the command line import (issue 12: a `cybleu` process is mostly
interpreter start-up and imports, so they are a design guarantee, checked here so that an eager
import cannot come back silently).

- `import cybleu` loads the chosen backend and nothing else of cybleu's: the metrics, the
  compatibility functions, patching, numpy and typing load on first use of a name.
- Scoring BLEU on the command line imports no other metric, no significance test, no test-set
  code, no numpy, typing, statistics, concurrent.futures or shutil.
- A confidence interval on the compiled backend adds the significance module, still no numpy.

Each check runs in a fresh interpreter, on both backends.
"""
import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cybleu

PACKAGE_PARENT = Path(cybleu.__file__).resolve().parent.parent

# never imported by `import cybleu`, nor by a BLEU run of the command line
HEAVY = ["numpy", "typing", "statistics", "concurrent.futures", "cybleu.compat", "cybleu.patch",
         "cybleu.metrics.chrf", "cybleu.metrics.ter", "cybleu.dataset", "tabulate", "sacrebleu"]

PROBE = """
{code}
import sys
print(sorted(sys.modules))
"""  # no import of its own before the code (json would be one)


def _modules_after(code, implementation, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(PACKAGE_PARENT), CYBLEU_IMPLEMENTATION=implementation)
    env.pop("SACREBLEU_FORMAT", None)
    out = subprocess.run([sys.executable, "-c", PROBE.format(code=code)], capture_output=True,
                         text=True, env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    return set(ast.literal_eval(out.stdout.splitlines()[-1]))


@pytest.fixture(params=["cython", "python"])
def implementation(request):
    if request.param == "cython" and cybleu.BACKEND != "cython":
        pytest.skip("the compiled core is not built in this install")
    return request.param


@pytest.fixture
def texts(tmp_path):
    (tmp_path / "ref.txt").write_text("The cat sat on the mat .\nA dog barked .\n",
                                      encoding="utf-8")
    (tmp_path / "a.txt").write_text("The cat sat on a mat .\nThe dog barked .\n",
                                    encoding="utf-8")
    (tmp_path / "b.txt").write_text("A cat sat on the mat .\nA dog barks .\n", encoding="utf-8")
    return tmp_path


def test_import_cybleu_loads_only_the_backend(implementation, tmp_path):
    loaded = _modules_after("import cybleu", implementation, tmp_path)
    ours = {m for m in loaded if m == "cybleu" or m.startswith("cybleu.")}
    assert not ours & {"cybleu.metrics", "cybleu.significance", "cybleu.cli", "cybleu.hf",
                       "cybleu.nltk", "cybleu.ids"}, sorted(ours)
    unexpected = loaded & set(HEAVY + ["json", "shutil"])
    assert not unexpected, sorted(unexpected)


def test_public_names_still_load_on_use(implementation, tmp_path):
    loaded = _modules_after(
        "import cybleu\n"
        "assert cybleu.corpus_bleu(['a b c d'], [['a b c d']]).score > 99.99\n"
        "assert cybleu.BLEU is cybleu.metrics.BLEU is cybleu.metrics.METRICS['BLEU']\n"
        "assert sorted(cybleu.metrics.METRICS) == ['BLEU', 'CHRF', 'ROUGE', 'TER']\n"
        "assert callable(cybleu.patch_sacrebleu) and callable(cybleu.extract_word_ngrams)\n"
        "assert set(cybleu.__all__) <= set(dir(cybleu))\n"
        "from cybleu import *\n"
        "assert TERScore is cybleu.metrics.ter.TERScore\n",
        implementation, tmp_path)
    assert {"cybleu.compat", "cybleu.metrics.chrf", "cybleu.patch"} <= loaded


def test_bleu_on_the_command_line_imports_nothing_else(implementation, texts):
    for args in (["ref.txt", "-i", "a.txt", "-q"], ["ref.txt", "-i", "a.txt", "b.txt", "-q"],
                 ["ref.txt", "-i", "a.txt", "b.txt", "-q", "-f", "text", "-w", "2"]):
        loaded = _modules_after(f"from cybleu.cli import main\nassert main({args!r}) == 0",
                                implementation, texts)
        assert "cybleu.metrics.bleu" in loaded  # the probe saw the run
        forbidden = set(HEAVY + ["shutil", "cybleu.significance"])
        if "text" in args:  # the text table is tabulate's (as sacreBLEU's), with its imports
            forbidden = {m for m in forbidden if m.startswith("cybleu.") or m == "numpy"}
        unexpected = loaded & forbidden
        assert not unexpected, (args, sorted(unexpected))


def test_a_confidence_interval_adds_no_numpy_on_the_compiled_backend(texts):
    if cybleu.BACKEND != "cython":
        pytest.skip("the pure-Python resampler is written with numpy")
    loaded = _modules_after("from cybleu.cli import main\n"
                            "assert main(['ref.txt', '-i', 'a.txt', '-q', '-ci', '-cin', '20']) == 0",
                            "cython", texts)
    assert "cybleu.significance" in loaded
    unexpected = loaded & set(HEAVY + ["shutil"])
    assert not unexpected, sorted(unexpected)


def test_chrf_defaults_written_in_the_cli_are_chrfs():
    from cybleu import cli
    from cybleu.metrics import CHRF, NAMES
    assert cli.CHRF_DEFAULTS == {key: getattr(CHRF, key) for key in cli.CHRF_DEFAULTS}
    assert NAMES == tuple(cybleu.metrics.METRICS)
