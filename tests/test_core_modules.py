"""The compiled core as separate modules: every compiled step paired with its twin, one registry of
tokenizer names, one chooser, the core's own bounds, RefSet pickling, and the Unicode tables built
once under concurrent first use."""
import copy
import importlib
import importlib.machinery
import inspect
import pickle
import pkgutil
import subprocess
import sys
import textwrap

import pytest

import cybleu
from cybleu import _backend
from cybleu._kernels import core_py as _core_py
from cybleu.tokenizers import registry
from conftest import both_cores, parity

HYPS = ["The cat sat on the mat.", "", "中文 句子 。", "a a a b"]
SEGMENTS = [["The cat is on the mat.", "A cat sat there."], [""], ["中文 的 句子 。"], ["a b", "a a"]]


def test_one_registry_of_tokenizer_names():
    from cybleu.metrics import bleu
    assert tuple(bleu._TOKENIZERS) == registry.NAMES
    from cybleu._kernels import tokenize_py
    assert set(tokenize_py.TOKENIZER_MODES) == set(registry.CORE_NAMES)
    compiled, _ = both_cores()
    from cybleu._kernels import tokenize as _tokenize
    assert set(_tokenize.TOKENIZER_MODES) == set(registry.CORE_NAMES)
    for name in registry.NAMES:
        assert bleu._get_tokenizer(name).__name__ == registry.class_path(name).split(".")[1]


def _compiled_steps():
    """(name, module) of every compiled module in cybleu._kernels of this install."""
    from cybleu import _kernels
    out = []
    for info in pkgutil.iter_modules(_kernels.__path__):
        spec = importlib.util.find_spec(f"cybleu._kernels.{info.name}")
        if spec.origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            out.append((info.name, importlib.import_module(spec.name)))
    return out


def test_every_compiled_step_has_its_twin_beside_it():
    steps = _compiled_steps()
    if not steps:
        pytest.skip("the compiled core is not built in this install")
    # the steps with a Python face; the lower floors (workspace, intern, ngrams) are C only
    faced = {name: module for name, module in steps if hasattr(module, "__all__")}
    assert {"tokenize", "corpus", "bleu", "idrows", "ids", "chrf", "ter", "resample",
            "nltk_counts"} <= set(faced)
    for name, compiled in faced.items():
        twin = importlib.import_module(f"cybleu._kernels.{name}_py")
        assert compiled.__all__ == twin.__all__, name
        for attr in compiled.__all__:
            ours, theirs = getattr(compiled, attr), getattr(twin, attr)
            if callable(ours) and not isinstance(ours, type):
                assert (list(inspect.signature(ours).parameters)
                        == list(inspect.signature(theirs).parameters)), f"{name}.{attr}"


def test_chooser_gives_one_backend_for_every_module():
    nltk_core = _backend.module("nltk_counts")
    if cybleu.BACKEND == "python":
        assert nltk_core.__name__ == "cybleu._kernels.nltk_counts_py"
        assert _backend.core is _core_py
    else:
        assert nltk_core.__name__ == "cybleu._kernels.nltk_counts"
        assert _backend.core.__name__ == "cybleu._kernels.core"


@pytest.mark.parametrize("order", [0, -1, 2**16 + 1, 2**30, 2**31, 2**64, 1.0, True, "4"])
def test_core_bounds_max_order(order):
    # 2**30 used to wrap the row width negative and crash in memset
    with pytest.raises(ValueError, match="max_order must be an int in 1..65536"):
        parity(lambda core: core.corpus_stats(["a"], [["a"]], "13a", False, order))
    with pytest.raises(ValueError, match="max_order must be an int in 1..65536"):
        parity(lambda core: core.RefSet([["a"]], "13a", False, order))


def test_order_far_above_the_default_still_counts():
    rows = parity(lambda core: core.segment_stats(["a b c"], [["a b c"]], "13a", False, 300))
    assert rows == [[3, 3] + [3, 2, 1] + [0] * 297 + [3, 2, 1] + [0] * 297]


@pytest.mark.parametrize("tokenize", registry.CORE_NAMES)
def test_refset_pickles_and_deepcopies(tokenize):
    def roundtrip(core):
        refs = core.RefSet(SEGMENTS, tokenize, True, 4)
        expected = refs.segment_stats(HYPS)
        for other in (pickle.loads(pickle.dumps(refs)), copy.deepcopy(refs)):
            assert (other.tokenize, other.lowercase, other.max_order) == (tokenize, True, 4)
            assert other.num_segments == len(SEGMENTS)
            assert other.segment_stats(HYPS) == expected
        return expected
    parity(roundtrip)


def test_damaged_refset_pickle_is_refused():
    compiled, _ = both_cores()
    from cybleu._kernels import corpus as _corpus
    func, args = compiled.RefSet(SEGMENTS).__reduce__()
    assert func is _corpus._restore_refset
    # args: tokenize, lowercase, max_order, the vocabulary's characters, its entries' lengths,
    # the references' token IDs, their offsets (uint32), the segments' offsets (int64)
    cases = {
        7: args[7][:-8],                                          # a segment loses its end
        6: args[6][:-4],                                          # a reference loses its end
        4: args[4][:-4] + (10**9).to_bytes(4, sys.byteorder),     # an entry ends past the text
        5: args[5][:-4] + (10**6).to_bytes(4, sys.byteorder),     # a token ID past the vocabulary
        3: args[3] + args[3][:4],                                 # characters no entry owns
    }
    for index, value in cases.items():
        damaged = list(args)
        damaged[index] = value
        with pytest.raises(ValueError, match="inconsistent"):
            func(*damaged)
    twice = list(args)                                            # an entry given twice
    twice[3] = args[3] + args[3][:4 * int.from_bytes(args[4][:4], sys.byteorder)]
    twice[4] = args[4] + args[4][:4]
    with pytest.raises(ValueError, match="inconsistent"):
        func(*twice)


def test_none_is_not_a_line():
    for call in (lambda core: core.tokenize_13a(None), lambda core: core.tokenize(None, "zh")):
        with pytest.raises(TypeError, match="the line to tokenize is NoneType, not str"):
            parity(call)


def test_unicode_tables_built_once_when_threads_start_together():
    # a fresh interpreter: the tables must not exist yet when the threads start
    both_cores()
    code = textwrap.dedent("""
        import threading
        from cybleu._kernels import tokenize as _tokenize
        calls = []
        build = _tokenize._class_blocks
        def counting(*args):
            calls.append(1)
            return build(*args)
        _tokenize._class_blocks = counting
        barrier = threading.Barrier(8)
        out = []
        def work(name):
            barrier.wait()
            for _ in range(50):
                out.append(_tokenize.tokenize("中文，1.5€ «test»", name))
        threads = [threading.Thread(target=work, args=("zh" if i % 2 else "intl",)) for i in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(len(calls), len(set(out)), len(out))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["1", "2", "400"]
