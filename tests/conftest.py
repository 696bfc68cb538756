"""Shared fixtures: the real data in ../shared/data, and both backends side by side."""
import functools
import os
import struct
from pathlib import Path

import pytest

import cybleu
from cybleu._kernels import core_py as _core_py

try:
    from cybleu._kernels import core as _core_c
except ImportError:  # a pure-Python install: parity tests skip, everything else still runs
    _core_c = None
from cybleu._kernels import chrf_py as _chrf_py

try:
    from cybleu._kernels import chrf as _chrf_c
except ImportError:
    _chrf_c = None
from cybleu._kernels import ter_py as _ter_py

try:
    from cybleu._kernels import ter as _ter_c
except ImportError:
    _ter_c = None

SHARED_DATA = Path(os.environ.get("CYBLEU_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")


def data_path(*parts):
    """A path under ../shared/data, or a skip saying why when the data is absent."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the shared evaluation data is not on this machine "
                    "(set CYBLEU_SHARED_DATA to its folder)")
    return path


def read_lines(path):
    """One string per line, newline removed (the files are line-aligned UTF-8)."""
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def bits(x):
    """A float's exact bits, for comparisons that must hold bit for bit."""
    return struct.pack("<d", x)


def _all_systems():
    """(id, hypothesis file, reference files) for every system of ../shared/data: the WMT22/23
    pairs against all their references, and sacreBLEU's 16 WMT17 fixtures."""
    out = []
    wmt = SHARED_DATA / "wmt"
    for pair in sorted(p for p in wmt.glob("wmt2*/*") if p.is_dir()):
        refs = tuple(sorted(str(p) for p in pair.glob("ref.*.txt")))
        for sys_file in sorted((pair / "sys").glob("*.txt")):
            out.append((f"{pair.relative_to(wmt).as_posix()}/{sys_file.stem}", str(sys_file), refs))
    fixtures = SHARED_DATA / "sacrebleu-fixtures" / "wmt17-en-de"
    for sys_file in sorted((fixtures / "sys").glob("*.txt")):
        out.append((f"wmt17/{sys_file.stem}", str(sys_file), (str(fixtures / "ref.txt"),)))
    # without the data, one placeholder whose load skips with the reason
    return out or [("absent", None, None)]


SYSTEMS = _all_systems()
SYSTEM_IDS = [s[0] for s in SYSTEMS]


@functools.lru_cache(maxsize=None)
def load_system(sys_file, ref_files):
    """A system's lines and its references' (cached: many tests slice the same files)."""
    if sys_file is None:
        data_path("wmt")
    return read_lines(sys_file), [read_lines(r) for r in ref_files]


def both_cores():
    if _core_c is None:
        pytest.skip("the compiled core is not built in this install")
    return _core_c, _core_py


def both_chrf():
    if _chrf_c is None:
        pytest.skip("the compiled chrF kernel is not built in this install")
    return _chrf_c, _chrf_py


def both_ter():
    if _ter_c is None:
        pytest.skip("the compiled TER kernel is not built in this install")
    return _ter_c, _ter_py


def parity(call, pair=both_cores):
    """call(module) on the compiled module and its twin (`pair`: both_cores, both_chrf,
    both_ter): equal results (or the same exception type and message)."""
    compiled, python = pair()
    results = []
    for core in (compiled, python):
        try:
            results.append(("ok", call(core)))
        except Exception as err:  # noqa: BLE001 - the comparison is the point
            results.append(("error", (type(err), str(err))))
    assert results[0] == results[1], f"compiled {results[0]!r} != python {results[1]!r}"
    if results[0][0] == "error":
        raise results[0][1][0](results[0][1][1])
    return results[0][1]


def pytest_report_header(config):
    return f"cybleu {cybleu.__version__}, backend: {cybleu.BACKEND}, shared data: {SHARED_DATA}"


def evaluate_metric_script(name):
    """The folder of Hugging Face evaluate's metric script `name` ("sacrebleu", "bleu"), or a
    skip saying why. evaluate.load fetches these scripts from the Hub; they are third-party code,
    not kept in this repository: point CYBLEU_EVALUATE_METRICS at a folder holding evaluate's
    `metrics/` scripts (e.g. a checkout of huggingface/evaluate's `metrics` folder)."""
    folder = os.environ.get("CYBLEU_EVALUATE_METRICS")
    if not folder:
        pytest.skip("evaluate's metric scripts are not on this machine: set "
                    "CYBLEU_EVALUATE_METRICS to a folder holding its metrics/<name>/ scripts")
    path = Path(folder) / name
    if not (path / f"{name}.py").exists():
        pytest.skip(f"{path / (name + '.py')} is absent (CYBLEU_EVALUATE_METRICS={folder})")
    return path
