"""Helpers shared by the pytest-benchmark suites (conftest.py) and the scripts (memory.py, report.py):
where the data is, how lines are read, and what machine this is. Standard library only."""
import os
import platform
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WMT22_ENDE = Path("wmt") / "wmt22" / "en-de"


def shared_data_dir():
    """../shared/data next to the repository; CYBLEU_SHARED_DATA overrides."""
    env = os.environ.get("CYBLEU_SHARED_DATA")
    return Path(env).expanduser().resolve() if env else REPO.parent / "shared" / "data"


def wmt22_ende_dir():
    """The WMT22 en-de directory, or None when the data is absent."""
    d = shared_data_dir() / WMT22_ENDE
    if (d / "ref.A.txt").is_file() and any((d / "sys").glob("*.txt")):
        return d
    return None


def missing_data_reason():
    return (f"benchmark data not found: {shared_data_dir() / WMT22_ENDE} "
            "(set CYBLEU_SHARED_DATA to the shared/data directory)")


def read_lines(path):
    """Line-aligned UTF-8 text, split on '\\n' only (str.splitlines would also split on \\x0b,
    \\x1c-\\x1e, \\x85, \\u2028 ...); a final newline does not add an empty segment."""
    lines = Path(path).read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def machine():
    """CPU model from /proc/cpuinfo, cores, Python version."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        usable = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        usable = os.cpu_count()
    return {
        "cpu": cpu,
        "logical_cores": os.cpu_count(),
        "usable_cores": usable,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "loadavg": _loadavg(),
    }


def _loadavg():
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def versions():
    from importlib import metadata
    out = {}
    for dist in ("cybleu", "sacrebleu", "nltk", "bleuscore", "fast-bleu", "numpy", "torch", "torchmetrics",
                 "pytest-benchmark"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    try:
        import cybleu
        out["cybleu_backend"] = cybleu.BACKEND
    except Exception as exc:  # noqa: BLE001 - reported in the output, not fatal
        out["cybleu_backend"] = f"import failed: {exc}"
    return out
