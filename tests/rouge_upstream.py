"""Runs rouge-score 0.1.2's own tests (the *_test.py files of the installed rouge_score) with
`rouge_score` resolved to cybleu.rouge_score. Started in a subprocess by test_rouge_upstream.py:

    python rouge_upstream.py TESTDATA_FOLDER '{"test id": "reason to skip", ...}'

prints one JSON object: the tests run, and the ids that failed, erred or were skipped."""
import importlib.util
import json
import os
import sys
import unittest

MODULES = ("io", "rouge_scorer", "scoring", "tokenize", "tokenizers")
TESTS = ("rouge_scorer_test", "scoring_test", "tokenize_test", "tokenizers_test", "io_test")


def main(folder, skips):
    spec = importlib.util.find_spec("rouge_score")
    upstream = spec.submodule_search_locations[0]
    import cybleu.rouge_score as package
    from cybleu.rouge_score import io, rouge_scorer, scoring, tokenize, tokenizers  # noqa: F401 - loaded to stand in for rouge_score's modules
    sys.modules["rouge_score"] = package
    for name in MODULES:
        sys.modules[f"rouge_score.{name}"] = getattr(package, name)

    def load(name):
        spec = importlib.util.spec_from_file_location(f"rouge_score.{name}",
                                                      os.path.join(upstream, f"{name}.py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = mod
        spec.loader.exec_module(mod)
        return mod

    test_util = load("test_util")
    package.test_util = test_util
    # its data files, from the folder given (rouge-score's testdata/ is not in its sdist)
    test_util._TESTDATA_PREFIX = folder
    for attr, file in (("TARGETS_FILE", "target.txt"), ("PREDICTIONS_FILE", "prediction.txt"),
                       ("LARGE_TARGETS_FILE", "target_large.txt"),
                       ("LARGE_PREDICTIONS_FILE", "prediction_large.txt"),
                       ("DELIMITED_FILE", "delimited.txt"), ("PYROUGE_DIR", "pyrouge_files")):
        setattr(test_util, attr, os.path.join(folder, file))

    suite = unittest.TestSuite()
    for name in TESTS:
        mod = load(name)
        for case in _flatten(unittest.defaultTestLoader.loadTestsFromModule(mod)):
            reason = skips.get(case.id().rsplit(".", 1)[-1]) or skips.get(
                _base_name(case.id()))
            if reason:
                setattr(case, case._testMethodName, unittest.skip(reason)(lambda: None))
            suite.addTest(case)
    with open(os.devnull, "w") as sink:
        result = unittest.TextTestRunner(stream=sink, verbosity=0).run(suite)
    print(json.dumps({
        # Python 3.12 stopped counting skipped tests in testsRun: the suite's size is the count
        "collected": suite.countTestCases(),
        "ran": result.testsRun,
        "failures": [(case.id(), text) for case, text in result.failures],
        "errors": [(case.id(), text) for case, text in result.errors],
        "skipped": [case.id() for case, _ in result.skipped],
    }))


def _base_name(test_id):
    """testInvalidRougeTypes0 -> testInvalidRougeTypes (absl's parameterized ids)."""
    return test_id.rsplit(".", 1)[-1].rstrip("0123456789")


def _flatten(suite):
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from _flatten(item)
        else:
            yield item


if __name__ == "__main__":
    main(sys.argv[1], json.loads(sys.argv[2]))
