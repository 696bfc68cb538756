#!/usr/bin/env bash
# The sanitizer job (issue 10): every .pyx under src/cybleu built with AddressSanitizer and
# UndefinedBehaviorSanitizer in a temporary copy of the repository, then the test suite and a
# differential Hypothesis fuzz of the compiled cores against their twins (tools/fuzz_core.py:
# text, token IDs, nltk's counts, chunked corpora, and token-ID arrays of every integer dtype in
# both byte orders, strided, masked, as Ragged flats and list rows, with pad_id/eos_id) run on
# that build. Any ASan or UBSan report fails the job (ASan halts on the first error, UBSan is
# built with -fno-sanitize-recover; their reports go to stderr, in the output, which is checked).
#
# The tests run ~15x slower under the sanitizers, so by default the suite runs without its three
# long sweeps (test_tokenizers_exhaustive: every code point in context; test_oracle_wmt: every
# WMT system against sacreBLEU; test_memory: 10^5-call leak loops) and without `slow`; the fuzz
# covers the core's input space instead. The whole suite took 59 min under the sanitizers on a
# shared 2-core machine; CYBLEU_SANITIZE_TESTS=all runs it.
#
#   bash tools/sanitize.sh                 # the subset + 20,000 fuzz examples
#   CYBLEU_SANITIZE_TESTS=all bash tools/sanitize.sh
#   CYBLEU_SANITIZE_TESTS="tests/test_ids.py tests/test_nltk.py -k growing" bash tools/sanitize.sh
#   CYBLEU_FUZZ_EXAMPLES=50000 CYBLEU_FUZZ_SEED=7 bash tools/sanitize.sh
#
# Env: PYTHON (default: python3 on PATH; needs numpy, Cython, setuptools, pytest, hypothesis and
# the test oracles, e.g. /work/venv/bin/python), CYBLEU_SANITIZE_TESTS (pytest arguments, paths
# relative to the repository, or `all`), CYBLEU_FUZZ_EXAMPLES (default 20000; 0 skips the
# fuzz), CYBLEU_FUZZ_SEED (default 0), CC (default gcc), CYBLEU_SANITIZE_CFLAGS (extra compiler
# flags, for triage only: e.g. -fno-sanitize=nonnull-attribute to look past one known report).
# Linux with gcc or clang.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
CC="${CC:-gcc}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
started=$SECONDS

# a copy without build products, so nothing in the repository is touched
mkdir -p "$WORK/repo"
cp -r "$ROOT/src" "$ROOT/tests" "$ROOT/tools" "$ROOT/pyproject.toml" "$WORK/repo/"
find "$WORK/repo/src" \( -name '*.so' -o -name '*.c' -o -name '*.pyd' -o -name '__pycache__' \) \
  -prune -exec rm -rf {} +

# every .pyx, found by glob (modules come and go), with setup.py's Cython directives
FLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all"
# CPython builds with -fwrapv, which hides signed overflow from UBSan: turn it back off
FLAGS="$FLAGS -fno-wrapv -ffp-contract=off ${CYBLEU_SANITIZE_CFLAGS:-}"
echo "=== building with $CC $FLAGS"
( cd "$WORK/repo" && CC="$CC" LDSHARED="$CC -shared" CFLAGS="$FLAGS" LDFLAGS="-fsanitize=address,undefined" \
  "$PYTHON" - <<'PY' ) >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
import glob, os, sys
from Cython.Build import cythonize
from setuptools import Extension, setup
sources = sorted(glob.glob("src/cybleu/**/*.pyx", recursive=True))
if not sources:
    sys.exit("no .pyx under src/cybleu")
exts = [Extension(os.path.splitext(os.path.relpath(s, "src"))[0].replace(os.sep, "."), [s])
        for s in sources]
directives = {"language_level": 3, "boundscheck": False, "wraparound": False,
              "cdivision": True, "embedsignature": True}
setup(name="cybleu-sanitize", package_dir={"": "src"},
      ext_modules=cythonize(exts, compiler_directives=directives, include_path=["src"]),
      script_args=["build_ext", "--inplace", "-j", "2"])
PY
built=0
for pyx in $(cd "$WORK/repo" && find src/cybleu -name '*.pyx' | sort); do
  so=$(ls "$WORK/repo/${pyx%.pyx}".*.so 2>/dev/null | head -1 || true)
  [ -n "$so" ] || { echo "FATAL: $pyx did not build"; cat "$WORK/build.log"; exit 1; }
  built=$((built + 1))
done
echo "built $built modules in $((SECONDS - started)) s"

# Python is not built with ASan: its runtime is preloaded. Leak detection is off (the interpreter
# keeps memory at exit); PYTHONMALLOC=malloc puts Python's own objects under ASan as well.
export LD_PRELOAD="$("$CC" -print-file-name=libasan.so)"
# Reports go to stderr, in the job's output: written to log_path files, a UBSan report under
# ASan's runtime was lost (the process exited 1 with no file to show).
export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:allocator_may_return_null=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:report_error_type=1"
export PYTHONMALLOC=malloc
export CYBLEU_IMPLEMENTATION=cython
export PYTHONPATH="$WORK/repo/src"
export PYTHONDONTWRITEBYTECODE=1
# the real-data tests find ../shared/data from the repository, not from the copy
export CYBLEU_SHARED_DATA="${CYBLEU_SHARED_DATA:-$(cd "$ROOT/.." && pwd)/shared/data}"

reports() {  # reports NAME LOG: fail, pointing at them, if LOG holds a sanitizer report
  if grep -q -E "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer" "$2"; then
    echo "FATAL: sanitizer reports during $1 (above; the first:)"
    grep -m 1 -E "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer" "$2"
    exit 1
  fi
}

status=0
cd "$WORK/repo"
"$PYTHON" -c "import cybleu, cybleu._kernels.corpus, cybleu._kernels.nltk_counts; assert cybleu.BACKEND == 'cython'; print('sanitized', cybleu._kernels.corpus.__file__)"
TESTS="${CYBLEU_SANITIZE_TESTS:-tests -m 'not slow' --ignore=tests/test_tokenizers_exhaustive.py --ignore=tests/test_oracle_wmt.py --ignore=tests/test_memory.py}"
[ "$TESTS" != all ] || TESTS="tests -m 'not slow'"
echo "=== tests: $TESTS"
t0=$SECONDS
# pytest arguments as a shell would split them (quotes allowed: -m "not slow")
eval "set -- $TESTS"
"$PYTHON" -m pytest "$@" -q -p no:cacheprovider 2>&1 | tee "$WORK/tests.log" || status=$?
echo "tests: exit $status in $((SECONDS - t0)) s"
reports "the tests" "$WORK/tests.log"
[ "$status" -eq 0 ] || exit "$status"

if [ "${CYBLEU_FUZZ_EXAMPLES:-20000}" -gt 0 ]; then
  echo "=== fuzz: ${CYBLEU_FUZZ_EXAMPLES:-20000} examples, seed ${CYBLEU_FUZZ_SEED:-0}"
  t0=$SECONDS
  "$PYTHON" tools/fuzz_core.py --examples "${CYBLEU_FUZZ_EXAMPLES:-20000}" \
    --seed "${CYBLEU_FUZZ_SEED:-0}" 2>&1 | tee "$WORK/fuzz.log" || status=$?
  echo "fuzz: exit $status in $((SECONDS - t0)) s"
  reports "the fuzz" "$WORK/fuzz.log"
  [ "$status" -eq 0 ] || exit "$status"
fi
echo "=== sanitizers: clean ($((SECONDS - started)) s)"
