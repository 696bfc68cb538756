"""The names code imports from `sacrebleu.utils`, with the same behaviour.

Test sets are read from sacreBLEU's local cache only (`cybleu.dataset`): `download_test_set` and
the `get_*_file(s)` functions return the cached paths (extracting a missing text field from the
cached raw files, as sacreBLEU does), or raise `TestSetError` naming the missing file, and never
download.
"""
import logging
import os
import sys

from ._scoring.bleu import my_log, sum_of_lists
from .dataset import (  # noqa: F401 - sacrebleu.utils' names
    SUBSETS,
    TestSetError,
    download_test_set,
    filter_subset,
    get_available_origlangs,
    get_available_subsets,
    get_available_testsets,
    get_available_testsets_for_langpair,
    get_files,
    get_langpairs_for_testset,
    get_reference_files,
    get_source_file,
    smart_open,
    test_set_lines,
)
from .render import Color

USERHOME = os.path.expanduser("~")
# where sacreBLEU keeps test sets (read when this module is imported, as sacreBLEU does)
SACREBLEU_DIR = os.environ.get("SACREBLEU", os.path.join(USERHOME, ".sacrebleu"))

sacrelogger = logging.getLogger("cybleu")

__all__ = ["my_log", "sum_of_lists"]

def args_to_dict(args, prefix, strip_prefix=False):
    """The arguments of an argparse Namespace whose names start with `prefix` + '_'."""
    prefix += "_"
    d = {}
    for k, v in args.__dict__.items():
        if k.startswith(prefix):
            d[k.replace(prefix, "") if strip_prefix else k] = v
    return d


def sanity_check_lengths(system, refs, test_set=None):
    """Exit with status 1 (sacreBLEU's behaviour) when a reference stream's length differs from
    the system's."""
    n_hyps = len(system)
    if any(len(ref_stream) != n_hyps for ref_stream in refs):
        sacrelogger.error("System and reference streams have different lengths.")
        if test_set:
            sacrelogger.error("This could be an issue with your system output or with sacreBLEU's "
                              "reference database if -t is given.")
            sacrelogger.error("For the latter, try cleaning out the cache by typing:\n")
            sacrelogger.error(f"  rm -r {SACREBLEU_DIR}/{test_set}\n")
            sacrelogger.error("The test sets will be re-downloaded the next time you run "
                              "sacreBLEU.")
        sys.exit(1)


def print_single_results(results, args):
    """Print one system's formatted scores (`args.format`: json or text)."""
    from .render import single_results
    print(single_results(results, args.format))


def print_results_table(results, signatures, args):
    """Print the multi-system table (`args.format`, `args.width`, and for paired tests
    `args.paired_bs`/`paired_ar` with `paired_bs_n`/`paired_ar_n`).

    As sacreBLEU's, the text and LaTeX tables take `'System'` out of `results` and colour the
    baseline's name in that list (when colours are on); JSON leaves `results` as it was."""
    from .render import results_table
    paired = "bs" if getattr(args, "paired_bs", False) else \
        ("ar" if getattr(args, "paired_ar", False) else None)
    n = getattr(args, "paired_bs_n" if paired == "bs" else "paired_ar_n", None)
    if args.format == "json":
        print(results_table(dict(results), signatures, args.format, args.width, paired=paired,
                            n_samples=n))
        return
    # code written for sacreBLEU may read the dict after printing: leave it as sacreBLEU does
    names = results.pop("System")
    table = {"System": list(names), **results}
    if names and names[0].startswith("Baseline:"):
        names[0] = Color.format(names[0], "yellow")
    print(results_table(table, signatures, args.format, args.width, paired=paired, n_samples=n))


def print_test_set(test_set, langpair, requested_fields, origlang=None, subset=None):
    """Print the requested fields of a cached test set, tab-separated (`--echo`)."""
    for line in test_set_lines(test_set, langpair, requested_fields, origlang, subset):
        print(line)
