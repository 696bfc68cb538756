"""What a user installs: a complete sdist, the rule for a failed compile, the backend warning, types.

Everything here derives its lists from the files (one compiled module per .pyx, one stub check per
.pyi), so adding a module needs no edit here. The checks that need the source tree or a tool skip
with the reason when it is absent.
"""
import ast
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

import cybleu

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = Path(cybleu.__file__).resolve().parent          # the installed (or source) package
EXAMPLES = Path(__file__).resolve().parent / "typing_examples.py"
# what the sdist carries: these directories whole, and these files at the top
SDIST_DIRS = ("src", "tests", "tools")
SDIST_FILES = ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE",
               "CHANGELOG.md", "CITATION.cff")
GENERATED = (".c", ".cpp", ".h", ".o", ".so", ".pyd", ".html", ".pyc")


def source_tree():
    if not (ROOT / "setup.py").is_file() or not (ROOT / "src" / "cybleu").is_dir():
        pytest.skip(f"{ROOT} is not cybleu's source tree (the tests run without it)")
    return ROOT


def need_module(name, why):
    if importlib.util.find_spec(name) is None:
        pytest.skip(f"{name} is not installed ({why}; it is in cybleu's `test` extra)")


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, timeout=600, **kwargs)


def env_with(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "LDSHARED", "CYBLEU_IMPLEMENTATION")}
    env.update({k: v for k, v in changes.items() if v is not None})
    return env


def source_files(root):
    """The files of the source tree a developer has: git's tracked and untracked-but-not-ignored
    files in a checkout, else every file but caches and build output."""
    if (root / ".git").exists() and shutil.which("git"):
        out = run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard", "-z"])
        if out.returncode == 0:
            return {Path(p) for p in out.stdout.split("\0") if p and (root / p).is_file()}
    skip = {"__pycache__", ".git", "build", "dist", ".venv", ".pytest_cache", ".hypothesis",
            ".mypy_cache", ".benchmarks"}
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file()
            and not skip.intersection(p.relative_to(root).parts)
            and not p.name.endswith(GENERATED) and ".egg-info" not in str(p)}


# -- the sdist --------------------------------------------------------------------------------

def test_sdist_ships_every_source_and_nothing_generated(tmp_path):
    """Built from a copy of the tree in which the files an in-place build leaves (C from Cython,
    compiled modules, annotation HTML, bytecode) are planted next to every .pyx."""
    root = source_tree()
    need_module("setuptools", "the sdist is built with setuptools' PEP 517 backend")
    version = importlib.metadata.version("setuptools")
    if int(version.split(".")[0]) < 77:
        pytest.skip(f"setuptools {version} is installed; the build needs >= 77 (pyproject.toml)")
    files = source_files(root)
    tree = tmp_path / "tree"
    for rel in files:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, tree / rel)
    planted = []
    for pyx in sorted((tree / "src").rglob("*.pyx")):
        for suffix in (".c", ".html", sysconfig.get_config_var("EXT_SUFFIX") or ".so"):
            planted.append(pyx.with_name(pyx.stem + suffix))
        planted.append(pyx.parent / "__pycache__" / f"{pyx.stem}.cpython-39.pyc")
    for path in planted:
        path.parent.mkdir(exist_ok=True)
        path.write_text("generated\n")
    out = run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
               "print(build_meta.build_sdist(sys.argv[1]))", str(tmp_path / "dist")],
              cwd=tree, env=env_with())
    assert out.returncode == 0, out.stdout + out.stderr
    sdist = tmp_path / "dist" / out.stdout.strip().splitlines()[-1]
    with tarfile.open(sdist) as tar:
        names = tar.getnames()
    top = names[0].split("/")[0]
    members = {Path(n).relative_to(top) for n in names if n != top}

    expected = {rel for rel in files if rel.parts[0] in SDIST_DIRS or str(rel) in SDIST_FILES}
    assert {"src/cybleu/_kernels/corpus.pyx", "src/cybleu/py.typed"} <= {str(p) for p in expected}
    missing = sorted(str(p) for p in expected - members)
    assert not missing, f"the sdist leaves out {missing}: ship them in MANIFEST.in"
    generated = sorted(str(p) for p in members if p.name.endswith(GENERATED)
                       or "__pycache__" in p.parts)
    assert not generated, f"the sdist carries generated files {generated}"


# -- the build rule ---------------------------------------------------------------------------

def tiny_project(tmp_path):
    """setup.py in a package tree holding one small .pyx in a subpackage, and a .pxd it cimports
    from, as the real modules do."""
    root = source_tree()
    need_module("Cython", "the build cythonizes")
    need_module("setuptools", "the build runs setup.py")
    shutil.copy2(root / "setup.py", tmp_path / "setup.py")
    pkg = tmp_path / "src" / "cybleu" / "sub"
    pkg.mkdir(parents=True)
    (pkg.parent / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "_decl.pxd").write_text("cdef inline int twice(int x) noexcept:\n    return 2 * x\n")
    (pkg / "_tiny.pyx").write_text("from ._decl cimport twice\n\n"
                                   "def answer():\n    return twice(21)\n")
    return tmp_path


def compiler_available():
    cc = (sysconfig.get_config_var("CC") or "").split()
    return bool(cc) and shutil.which(cc[0]) is not None


def test_a_failed_compile_stops_with_what_is_missing_and_how_to_choose_python(tmp_path):
    if os.name != "posix":
        pytest.skip("breaks the compiler through CC, which MSVC builds ignore")
    project = tiny_project(tmp_path)
    build = [sys.executable, "setup.py", "build_ext", "--build-lib", "lib"]
    failed = run(build, cwd=project, env=env_with(CC="false", LDSHARED="false"))
    assert failed.returncode != 0
    assert "building cybleu's compiled core failed" in failed.stderr, failed.stderr
    assert "C compiler" in failed.stderr
    assert "CYBLEU_IMPLEMENTATION=python pip install cybleu" in failed.stderr
    assert not list(project.rglob("_tiny*.so"))

    chosen = run(build, cwd=project, env=env_with(CC="false", CYBLEU_IMPLEMENTATION="python"))
    assert chosen.returncode == 0, chosen.stderr
    assert "installing the pure-Python backend only" in chosen.stderr
    assert not list(project.rglob("_tiny*.so"))


def test_every_pyx_becomes_the_module_its_path_names(tmp_path):
    if not compiler_available():
        pytest.skip("no C compiler here")
    project = tiny_project(tmp_path)
    built = run([sys.executable, "setup.py", "build_ext", "--build-lib", "lib"], cwd=project,
                env=env_with())
    assert built.returncode == 0, built.stdout + built.stderr
    [module] = (project / "lib" / "cybleu" / "sub").glob("_tiny.*")
    assert module.name == "_tiny" + sysconfig.get_config_var("EXT_SUFFIX")
    # loaded by path: the installed cybleu package would shadow lib/cybleu
    load = ("import importlib.util, sys; spec = importlib.util.spec_from_file_location("
            "'cybleu.sub._tiny', sys.argv[1]); module = importlib.util.module_from_spec(spec); "
            "spec.loader.exec_module(module); print(module.answer())")
    answer = run([sys.executable, "-c", load, str(module)], cwd=project, env=env_with())
    assert answer.stdout.strip() == "42", answer.stderr


# -- the backend a user runs on -----------------------------------------------------------------

BLOCK_CORE = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "cybleu._kernels.core":
            raise ImportError("simulated: the compiled core is absent")
sys.meta_path.insert(0, Block())
import cybleu, cybleu.nltk, cybleu.hf, cybleu.ids
score = cybleu.corpus_bleu(["a b c d e"], [["a b c d e"]]).score
print(cybleu.BACKEND, f"{score:.2f}")
sys.argv = ["cybleu", "--version"]
from cybleu.cli import main
main()
"""


def python_with_cybleu(code, implementation=None):
    env = env_with(PYTHONPATH=str(PACKAGE.parent), CYBLEU_IMPLEMENTATION=implementation)
    return run([sys.executable, "-c", code], cwd=PACKAGE.parent.parent, env=env)


def test_running_on_the_twin_because_the_core_is_missing_warns_once():
    out = python_with_cybleu(BLOCK_CORE)
    assert out.stdout.startswith("python 100.00\n"), out.stdout + out.stderr
    assert "(python backend; sacreBLEU 2.6.0 semantics)" in out.stdout
    assert out.stderr.count("RuntimeWarning: cybleu's compiled core is not available") == 1, \
        out.stderr
    assert "set CYBLEU_IMPLEMENTATION=python to choose the pure-Python backend on purpose" \
        in out.stderr
    # the warning points at the user's import, not at cybleu
    assert out.stderr.startswith("<string>:"), out.stderr


def test_choosing_the_twin_does_not_warn_and_forcing_the_core_fails_loudly():
    chosen = python_with_cybleu(BLOCK_CORE, "python")
    assert chosen.stdout.startswith("python 100.00\n") and chosen.stderr == "", chosen.stderr
    forced = python_with_cybleu(BLOCK_CORE, "cython")
    assert forced.returncode != 0
    assert "ImportError: simulated: the compiled core is absent" in forced.stderr


def test_version_names_the_backend():
    out = python_with_cybleu("import sys; sys.argv = ['cybleu', '--version']\n"
                             "from cybleu.cli import main; import cybleu\n"
                             "print(cybleu.BACKEND); main()")
    backend, version = out.stdout.splitlines()
    assert version == f"cybleu {cybleu.__version__} ({backend} backend; sacreBLEU 2.6.0 semantics)"


# -- types --------------------------------------------------------------------------------------

def type_check_env():
    """cybleu as mypy should find it: from site-packages as installed (PEP 561), else the
    source tree through MYPYPATH."""
    env = env_with()
    if "site-packages" not in PACKAGE.parts:
        env["MYPYPATH"] = str(PACKAGE.parent)
    return env


def test_examples_run():
    out = run([sys.executable, str(EXAMPLES)], cwd=PACKAGE.parent.parent,
              env=env_with(PYTHONPATH=str(PACKAGE.parent),
                           CYBLEU_IMPLEMENTATION=os.environ.get("CYBLEU_IMPLEMENTATION")))
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{cybleu.__version__} {cybleu.BACKEND}\n")


def test_mypy_strict_accepts_a_users_typed_script(tmp_path):
    """As for a user: cybleu's own modules are followed for their types, not reported on."""
    need_module("mypy", "the type check")
    out = run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
               "--cache-dir", str(tmp_path / "cache"), "--python-executable", sys.executable,
               str(EXAMPLES)], env=type_check_env())
    assert out.returncode == 0, out.stdout + out.stderr


def test_pyright_strict_accepts_a_users_typed_script(tmp_path):
    need_module("pyright", "the second type checker")
    config = tmp_path / "pyrightconfig.json"
    config.write_text(json.dumps({"typeCheckingMode": "strict", "pythonVersion":
                                  f"{sys.version_info[0]}.{sys.version_info[1]}",
                                  "extraPaths": [] if "site-packages" in PACKAGE.parts
                                  else [str(PACKAGE.parent)]}))
    out = run([sys.executable, "-m", "pyright", "--outputjson", "--project", str(config),
               "--pythonpath", sys.executable, str(EXAMPLES)], env=env_with())
    try:
        report = json.loads(out.stdout)
    except ValueError:
        pytest.skip(f"pyright did not run (it fetches node packages on first use): "
                    f"{(out.stdout + out.stderr)[-500:]}")
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    assert not errors, json.dumps(errors, indent=1)


def compiled_modules():
    """cybleu.<path> of every compiled module of this install (one per .pyx)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return {".".join(("cybleu",) + p.relative_to(PACKAGE).parts[:-1] + (p.name.split(".")[0],))
            for p in PACKAGE.rglob("*") if p.name.endswith(suffixes)}


def stub_modules():
    return sorted(".".join(("cybleu",) + p.relative_to(PACKAGE).with_suffix("").parts)
                  for p in PACKAGE.rglob("*.pyi"))


def imported_modules():
    """Every cybleu module the package's Python code imports, relative imports resolved against
    the importing file (a report's `from . import ngrams` is not the kernels' ngrams), plus the
    kernels named to `_backend.module("...")`."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = ("cybleu",) + path.relative_to(PACKAGE).with_suffix("").parts
        package = parts[:-1]          # a module's and an __init__'s: the package they sit in
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = (".".join(package[:len(package) - node.level + 1]) if node.level
                        else node.module or "")
                if node.level and node.module:
                    base = f"{base}.{node.module}"
                names.add(base)
                names.update(f"{base}.{a.name}" for a in node.names)
            elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                    node.func, "id", None)) == "module" and node.args
                  and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                names.add(f"cybleu._kernels.{node.args[0].value}")
    return names


def test_compiled_modules_that_python_code_imports_have_stubs():
    compiled = compiled_modules()
    if not compiled:
        pytest.skip("this install has no compiled modules (pure-Python install)")
    stubs = set(stub_modules())
    imported = compiled & imported_modules()
    assert imported, compiled
    assert not imported - stubs, f"compiled modules without a .pyi stub: {sorted(imported - stubs)}"


def test_stubs_match_the_modules_at_run_time():
    """mypy's stubtest: every .pyi (compiled modules and the stubbed Python ones) against the
    module as imported: names, parameters, defaults, kinds."""
    need_module("mypy", "stubtest")
    modules = [m for m in stub_modules() if importlib.util.find_spec(m) is not None]
    out = run([sys.executable, "-m", "mypy.stubtest", "--mypy-config-file", os.devnull,
               *modules], env=type_check_env(), cwd=PACKAGE.parent.parent)
    assert out.returncode == 0, out.stdout + out.stderr
