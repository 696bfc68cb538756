"""The catalogue of bad input (issue 10): every input a reliability audit found crashing the
interpreter, scored silently or answered with a misleading message, and the audit's other classes
(None/bytes/NaN lines, generators, pandas Series, nested-too-deep references, empty corpora,
out-of-range IDs, bad dtypes, bad Ragged offsets, bad weights, bad smoothing values, CLI file
errors). Each entry names the exception it must raise and a fragment of its message, and runs on
both backends. A second table holds the inputs that look wrong but must be scored, with the
oracle's value."""
import importlib
import sys
import warnings
from typing import Any, Callable, NamedTuple

import numpy as np
import pytest
import sacrebleu

import cybleu
from cybleu import hf, ids
from cybleu import nltk as cy_nltk
from cybleu.dataset import TestSetError
from cybleu.metrics.bleu import BLEU
from cybleu.tokenizers.tokenizer_13a import Tokenizer13a
from cybleu.tokenizers.tokenizer_char import TokenizerChar
from cybleu.tokenizers.tokenizer_intl import TokenizerV14International
from cybleu.tokenizers.tokenizer_none import NoneTokenizer
from cybleu.tokenizers.tokenizer_re import TokenizerRegexp
from cybleu.tokenizers.tokenizer_zh import TokenizerZh


# -- both backends in one process -----------------------------------------------------------------

def _compiled_modules():
    """(compiled module, its pure-Python twin) for every compiled module that is built."""
    pairs = []
    for name in ("core", "nltk_counts"):
        try:
            pairs.append((importlib.import_module(f"cybleu._kernels.{name}"),
                          importlib.import_module(f"cybleu._kernels.{name}_py")))
        except ImportError:
            pass
    return pairs


@pytest.fixture(params=["cython", "python"])
def backend(request, monkeypatch):
    """Every cybleu module's reference to a compiled module (or its twin) pointed at the
    requested backend, as CYBLEU_IMPLEMENTATION would at import."""
    pairs = _compiled_modules()
    if request.param == "cython" and not pairs:
        pytest.skip("the compiled core is not built in this install")
    swap = {id(a): b for a, b in pairs} if request.param == "python" else \
        {id(b): a for a, b in pairs}
    for name, module in list(sys.modules.items()):
        if name == "cybleu" or name.startswith("cybleu."):
            for attr, value in list(vars(module).items()):
                if id(value) in swap:
                    monkeypatch.setattr(module, attr, swap[id(value)])
    return request.param


class Bad(NamedTuple):
    name: str
    call: Callable[[], Any]
    error: type
    fragment: str


def _growing_hypothesis():
    """A token list whose first token's __hash__ appends 200,000 tokens to it (issue 10, 2)."""
    class Grower:
        def __hash__(self):
            if len(hyp) < 1000:
                hyp.extend(["x"] * 200_000)
            return 1

        def __eq__(self, other):
            return self is other

    hyp = [Grower(), "a", "b"]
    return hyp


def _generator(items):
    return (item for item in items)


PAD_BATCH = np.zeros((2, 3), dtype=np.int64)
MASKED = np.ma.masked_equal(np.array([[1, 2, 0]]), 0)
BE_HYPS = np.array([[1, 2, 3, 4, 5], [7, 8, 9, 10, 11]], dtype=">i4")
FLOOR = {"smooth_method": "floor"}
ADDK = {"smooth_method": "add-k"}

BAD = [
    # 1. orders that overflowed a C int (segfault) or asked for ~32 GiB
    Bad("BLEU-order-2**30", lambda: BLEU(max_ngram_order=2**30), ValueError,
        "max_ngram_order must be an integer from 1 to 256, got 1073741824"),
    Bad("BLEU-order-2**31", lambda: BLEU(max_ngram_order=2**31), ValueError,
        "max_ngram_order must be an integer from 1 to 256"),
    Bad("BLEU-order-10**9", lambda: BLEU(max_ngram_order=10**9).corpus_score(["a"], [["a"]]),
        ValueError, "max_ngram_order must be an integer from 1 to 256"),
    Bad("BLEU-order-0", lambda: BLEU(max_ngram_order=0), ValueError, "max_ngram_order"),
    Bad("ids-order-2**30", lambda: ids.sentence_bleu([[1]], [[1]], max_order=2**30),
        ValueError, "max_order must be an integer from 1 to 256, got 1073741824"),
    Bad("ids-order-257", lambda: ids.corpus_bleu([[1]], [[1]], max_order=257), ValueError,
        "max_order must be an integer from 1 to 256, got 257"),
    Bad("ids-order-float", lambda: ids.segment_stats([[1]], [[1]], max_order=2.0), ValueError,
        "max_order must be an integer from 1 to 256, got 2.0"),
    Bad("ids-pairwise-order", lambda: ids.pairwise_bleu([[1]], max_order=2**31), ValueError,
        "max_order must be an integer from 1 to 256"),
    Bad("ids-self-order", lambda: ids.self_bleu([[1], [1]], max_order=300), ValueError,
        "max_order must be an integer from 1 to 256, got 300"),
    Bad("ids-accumulator-order", lambda: ids.BLEUAccumulator(max_order=2**30), ValueError,
        "max_order must be an integer from 1 to 256"),
    Bad("ids-stats-order", lambda: ids.BLEUStats(np.zeros(2 + 2 * 257, dtype=np.int64)),
        ValueError, "max order must be an integer from 1 to 256, got 257"),
    Bad("core-ids-order", lambda: ids.core.ids_segment_stats([1], [0, 1], [1], [0, 1], [0, 1],
                                                             2**30),
        ValueError, "max_order must be an integer from 1 to 256, got 1073741824"),
    Bad("hf-order", lambda: hf.bleu(["a"], ["a"], max_order=2**30), ValueError,
        "max_order must be at most 256, got 1073741824"),
    Bad("hf-compute-order", lambda: hf.compute_bleu([[["a"]]], [["a"]], max_order=2**31),
        ValueError, "max_order must be at most 256"),
    Bad("nltk-order", lambda: cy_nltk.corpus_bleu([[["a"]]], [["a"]], weights=range(2**30)),
        ValueError, "a weight vector has 1073741824 weights"),
    Bad("nltk-sentence-order", lambda: cy_nltk.sentence_bleu([["a"]], ["a"],
                                                             weights=(1 / 300,) * 300),
        ValueError, "up to order 256; a weight vector has 300 weights"),

    # 4. None read as an empty line
    Bad("hf-None-prediction", lambda: hf.bleu([None, "a"], ["a", "a"]), TypeError,
        "predictions[0] is NoneType, not str"),
    Bad("hf-None-reference", lambda: hf.bleu(["a"], [["a", None]]), TypeError,
        "references[0][1] is NoneType, not str"),
    Bad("hf-None-reference-string", lambda: hf.bleu(["a", "b"], ["a", None]), TypeError,
        "references[1][0] is NoneType, not str"),
    Bad("hf-tokenizer-None", lambda: hf.tokenizer_13a(None), TypeError,
        "tokenizer_13a: a line must be a str, got NoneType"),
    Bad("Tokenizer13a-None", lambda: Tokenizer13a()(None), TypeError,
        "Tokenizer13a: a line must be a str, got NoneType"),
    Bad("TokenizerZh-None", lambda: TokenizerZh()(None), TypeError,
        "TokenizerZh: a line must be a str"),
    Bad("TokenizerIntl-None", lambda: TokenizerV14International()(None), TypeError,
        "TokenizerV14International: a line must be a str"),
    Bad("TokenizerChar-None", lambda: TokenizerChar()(None), TypeError,
        "TokenizerChar: a line must be a str"),
    Bad("NoneTokenizer-None", lambda: NoneTokenizer()(None), TypeError,
        "NoneTokenizer: a line must be a str"),
    Bad("TokenizerRegexp-None", lambda: TokenizerRegexp()(None), TypeError,
        "TokenizerRegexp: a line must be a str"),
    Bad("Tokenizer13a-bytes", lambda: Tokenizer13a()(b"a b"), TypeError,
        "got bytes (decode it first"),
    Bad("corpus_bleu-None-hypothesis", lambda: cybleu.corpus_bleu(["a", None], [["a", "b"]]),
        TypeError, "hypothesis 1 is None"),
    Bad("batch_sentence_bleu-None", lambda: cybleu.batch_sentence_bleu([None], [["a"]]),
        TypeError, "hypothesis 0 is None"),
    Bad("sentence_bleu-None", lambda: cybleu.sentence_bleu(None, ["a"]), TypeError,
        "`hyp` should be a string"),
    # ... and the other kinds of non-string lines
    Bad("corpus_bleu-bytes", lambda: cybleu.corpus_bleu([b"a"], [["a"]]), TypeError,
        "hypothesis 0 is bytes, not str"),
    Bad("corpus_bleu-NaN", lambda: cybleu.corpus_bleu(["a", float("nan")], [["a", "b"]]),
        TypeError, "hypothesis 1 is float, not str"),
    Bad("corpus_bleu-bytes-reference", lambda: cybleu.corpus_bleu(["a"], [[b"a"]]), TypeError,
        "reference 0 of stream 0 is bytes"),
    Bad("hf-bytes-prediction", lambda: hf.bleu([b"a"], ["a"]), TypeError,
        "predictions[0] is bytes, not str"),

    # 5. nonsense statistics and arguments that were scored
    Bad("BLEUStats-negative", lambda: ids.BLEUStats([-1, 2, 1, 1, 1, 1, 2, 2, 2, 2]),
        ValueError, "must not be negative"),
    Bad("BLEUStats-negative-total", lambda: ids.BLEUStats([2, 2, 0, 0, 0, 0, 2, 1, 0, -1]),
        ValueError, "must not be negative"),
    Bad("BLEUStats-correct-over-total", lambda: ids.BLEUStats([4, 4, 2, 5, 0, 0, 4, 3, 2, 1]),
        ValueError, "more correct 2-grams than 2-grams (5 > 3)"),
    Bad("BLEUStats-float-overflow", lambda: ids.BLEUStats(np.full(10, 1e30)), ValueError,
        "must fit in int64"),
    Bad("BLEUStats-uint64-overflow", lambda: ids.BLEUStats(np.array([2**64 - 1] + [0] * 9,
                                                                   dtype=np.uint64)),
        ValueError, "must fit in int64"),
    Bad("BLEUStats-int-overflow", lambda: ids.BLEUStats([2**70] + [0] * 9), ValueError,
        "must fit in int64"),
    Bad("BLEUStats-fraction", lambda: ids.BLEUStats([1.5] + [0.0] * 9), TypeError,
        "must be whole numbers"),
    Bad("BLEUStats-NaN", lambda: ids.BLEUStats([float("nan")] + [0.0] * 9), TypeError,
        "must be whole numbers"),
    Bad("BLEUStats-bool", lambda: ids.BLEUStats(np.ones(10, dtype=bool)), TypeError,
        "must be integers, got dtype bool"),
    Bad("BLEUStats-odd-length", lambda: ids.BLEUStats([1, 2, 3, 4, 5]), ValueError,
        "got shape (5,)"),
    Bad("BLEUStats-None", lambda: ids.BLEUStats(None), TypeError, "got NoneType None"),
    Bad("BLEUStats-sum-overflow", lambda: ids.BLEUStats([2**62, 0] + [0] * 8)
        + ids.BLEUStats([2**62, 0] + [0] * 8), ValueError, "overflows int64"),
    Bad("pad_id-str", lambda: ids.sentence_bleu([[1, 2]], [[1, 2]], pad_id="x"), TypeError,
        "pad_id must be one integer token ID or None, got str 'x'"),
    Bad("pad_id-float", lambda: ids.sentence_bleu([[1, 2]], [[1, 2]], pad_id=1.5), TypeError,
        "pad_id must be one integer token ID or None, got float 1.5"),
    Bad("pad_id-bool", lambda: ids.sentence_bleu([[1, 2]], [[1, 2]], pad_id=True), TypeError,
        "pad_id must be one integer token ID or None, got True"),
    Bad("eos_id-str", lambda: ids.corpus_bleu([[1, 2]], [[1, 2]], eos_id="2"), TypeError,
        "eos_id must be one integer token ID or None, got str '2'"),
    Bad("pad_id-huge", lambda: ids.sentence_bleu([[1, 2]], [[1, 2]], pad_id=2**70), ValueError,
        "pad_id must fit in 64 bits"),
    Bad("accumulator-pad_id", lambda: ids.BLEUAccumulator(pad_id=[0]), TypeError,
        "pad_id must be one integer token ID or None, got list [0]"),
    Bad("n_threads-0", lambda: ids.sentence_bleu([[1]], [[1]], n_threads=0), ValueError,
        "n_threads must be an integer of at least 1, got 0"),
    Bad("n_threads-str", lambda: ids.pairwise_bleu([[1]], n_threads="2"), ValueError,
        "n_threads must be an integer of at least 1, got '2'"),
    Bad("n_threads-float", lambda: ids.segment_stats([[1]], [[1]], n_threads=2.0), ValueError,
        "n_threads must be an integer of at least 1, got 2.0"),

    # 10. messages that did not say what was passed
    Bad("ids-None", lambda: ids.sentence_bleu(None, [[1]]), TypeError,
        "hyps is None; expected a list of ID sequences, a 2-D integer array"),
    Bad("ids-str", lambda: ids.sentence_bleu("1 2 3", [[1]]), TypeError,
        "hyps is str '1 2 3', text rather than token IDs"),
    Bad("ids-generator", lambda: ids.sentence_bleu(_generator([[1]]), [[1]]), TypeError,
        "hyps is a generator, which can be read only once; pass a list (e.g. list(hyps))"),
    Bad("ids-refs-None", lambda: ids.corpus_bleu([[1]], None), TypeError, "refs is None"),
    Bad("ids-refs-generator", lambda: ids.corpus_bleu([[1]], _generator([[1]])), TypeError,
        "refs is a generator"),
    Bad("ids-dict", lambda: ids.sentence_bleu({1: 2}, [[1]]), TypeError, "hyps is dict"),
    Bad("ids-pad_id-array", lambda: ids.sentence_bleu([[1, 2]], [[1, 2]],
                                                      pad_id=np.array([1, 2, 3])),
        TypeError, "pad_id must be one integer token ID or None, got a numpy array of shape "
                   "(3,)"),
    Bad("ids-1-D", lambda: ids.sentence_bleu(np.array([1, 2]), [[1]]), ValueError,
        "got 1 dimensions (one sequence? wrap it: [ids]"),
    Bad("ids-3-D-hypotheses", lambda: ids.sentence_bleu(np.ones((1, 1, 2), dtype=np.int64),
                                                        [[1]]),
        ValueError, "hyps must be a 2-D (batch, length) array, got 3 dimensions"),

    # bad rows, dtypes and IDs
    Bad("row-None", lambda: ids.sentence_bleu([[1], None], [[1], [2]]), TypeError,
        "hyps[1] must be a sequence of token IDs, got NoneType None"),
    Bad("row-str", lambda: ids.sentence_bleu([[1], "2 3"], [[1], [2]]), TypeError,
        "hyps[1] must be a sequence of token IDs, got str '2 3'"),
    Bad("row-int", lambda: ids.sentence_bleu([1, 2], [[1], [2]]), TypeError,
        "hyps[0] must be a sequence of token IDs, got int 1 (one sequence? wrap it: [ids])"),
    Bad("row-generator", lambda: ids.sentence_bleu([_generator([1])], [[1]]), TypeError,
        "hyps[0] must be a sequence of token IDs, got generator"),
    Bad("row-ragged-nesting", lambda: ids.sentence_bleu([[[2], [3, 4]]], [[1]]), TypeError,
        "hyps[0] must be a flat sequence of token IDs"),
    Bad("row-None-ID", lambda: ids.sentence_bleu([[1, None]], [[1]]), TypeError,
        "hyps[0] must hold integer token IDs; element 1 is NoneType None"),
    Bad("row-NaN-ID", lambda: ids.sentence_bleu([[1, float("nan")]], [[1]]), TypeError,
        "hyps[0] must hold integer token IDs, got dtype float64"),
    Bad("row-huge-ID", lambda: ids.sentence_bleu([[1, 2**70]], [[1]]), ValueError,
        "hyps[0] holds a token ID outside 0..2**32-1 (1180591620717411303424)"),
    Bad("row-uint64-beyond-int64", lambda: ids.sentence_bleu(
        [np.array([2**63 + 5], dtype=np.uint64), np.array([1], dtype=np.int8)], [[1], [1]]),
        ValueError, "hyps[0] holds a token ID above 2**32-1 (9223372036854775813)"),
    Bad("negative-ID", lambda: ids.sentence_bleu([[1, -2]], [[1]]), ValueError,
        "hyps holds a negative token ID (-2) that is not a trimmed pad_id/eos_id"),
    Bad("ID-above-uint32", lambda: ids.sentence_bleu([[2**32]], [[1]]), ValueError,
        "hyps holds a token ID above 2**32-1 (4294967296)"),
    Bad("ref-ID-above-uint32", lambda: ids.sentence_bleu([[1]], np.array([[2**40]])),
        ValueError, "refs holds a token ID above 2**32-1"),
    Bad("float-array", lambda: ids.sentence_bleu(np.ones((2, 3)), [[1], [1]]), TypeError,
        "hyps must hold integer token IDs, got dtype float64"),
    Bad("bool-array", lambda: ids.sentence_bleu(np.ones((1, 2), dtype=bool), [[1]]), TypeError,
        "got dtype bool"),
    Bad("complex-array", lambda: ids.sentence_bleu(np.ones((1, 2), dtype=complex), [[1]]),
        TypeError, "got dtype complex128"),
    Bad("string-array", lambda: ids.sentence_bleu(np.array([["a", "b"]]), [[1]]), TypeError,
        "got dtype <U1"),
    Bad("object-array-of-str", lambda: ids.sentence_bleu(np.array(["a b", "c"], dtype=object),
                                                         [[1], [1]]),
        TypeError, "hyps[0] must be a sequence of token IDs, got str 'a b'"),

    # references nested too deep or too shallow, counts that do not match
    Bad("refs-nested-too-deep", lambda: ids.sentence_bleu([[1]], [[[[1, 2]]]]), ValueError,
        "refs[0][0] must be 1-D, got 2 dimensions"),
    Bad("refs-item-None", lambda: ids.sentence_bleu([[1], [2]], [[[1]], None]), TypeError,
        "refs[1] must be a list of reference ID sequences or a 2-D array"),
    Bad("refs-count", lambda: ids.sentence_bleu([[1], [2]], [[1]]), ValueError,
        "2 hypotheses but references for 1"),
    Bad("refs-nested-count", lambda: ids.sentence_bleu([[1], [2]], [[[1]]]), ValueError,
        "2 hypotheses but references for 1"),
    Bad("refs-none-for-a-hypothesis", lambda: ids.sentence_bleu([[1], [2]], [[[1]], []]),
        ValueError, "segment 1 has a non-empty hypothesis but no reference"),
    Bad("text-nested-too-deep", lambda: cybleu.corpus_bleu(["a"], [[["a"]]]), TypeError,
        "reference 0 of stream 0 is a list of 1 strings, not str (it looks like a list of tokens: "
        "pass each line as one string, e.g. ' '.join(tokens))"),
    Bad("text-refs-not-nested", lambda: cybleu.corpus_bleu(["a"], ["a"]), ValueError,
        "pass [refs], not refs"),
    Bad("text-generator", lambda: cybleu.corpus_bleu(_generator(["a"]), [["a"]]), TypeError,
        "not generator"),
    Bad("text-generator-stream", lambda: cybleu.corpus_bleu(["a"], [_generator(["a"])]),
        TypeError, "reference stream 0 is generator"),
    Bad("text-smooth-value-nan", lambda: cybleu.corpus_bleu(["a"], [["a"]], smooth_method="floor",
                                                          smooth_value=float("nan")),
        ValueError, "smooth_value for 'floor' must be a finite number >= 0"),
    Bad("text-smooth-value-negative", lambda: cybleu.BLEU(smooth_method="add-k", smooth_value=-1),
        ValueError, "smooth_value for 'add-k' must be a finite number >= 0"),
    # 10. text metrics called as older tutorials do: the message names the fix
    Bad("text-two-strings", lambda: cybleu.corpus_bleu("a hypothesis", "a reference"),
        TypeError, "not a single str. For one sentence use sentence_bleu(hyp, [ref]); for a "
        "corpus of one sentence, corpus_bleu([hyp], [[ref]])"),
    Bad("text-token-lists", lambda: cybleu.corpus_bleu([["a", "b"]], [[["a", "b"]]]),
        TypeError, "hypothesis 0 is a list of 2 strings, not str (it looks like a list of tokens: "
        "pass each line as one string, e.g. ' '.join(tokens))"),

    # bad Ragged layouts
    Bad("Ragged-offsets-not-from-0", lambda: ids.sentence_bleu(ids.Ragged([1, 2], [1, 2]),
                                                               [[1]]),
        ValueError, "hyps.offsets must rise from 0 to len(flat) (2)"),
    Bad("Ragged-offsets-short", lambda: ids.sentence_bleu(ids.Ragged([1, 2], [0, 1]), [[1]]),
        ValueError, "hyps.offsets must rise from 0 to len(flat) (2)"),
    Bad("Ragged-offsets-decreasing", lambda: ids.sentence_bleu(
        ids.Ragged([1, 2], [0, 2, 1, 2]), [[1], [1], [1]]), ValueError,
        "hyps.offsets must rise from 0 to len(flat)"),
    Bad("Ragged-offsets-negative", lambda: ids.sentence_bleu(ids.Ragged([1, 2], [0, -1, 2]),
                                                             [[1], [1]]),
        ValueError, "hyps.offsets must rise from 0 to len(flat)"),
    Bad("Ragged-offsets-float", lambda: ids.sentence_bleu(ids.Ragged([1, 2], [0.0, 2.0]),
                                                          [[1]]),
        TypeError, "hyps.offsets must hold integers, got dtype float64"),
    Bad("Ragged-offsets-2-D", lambda: ids.sentence_bleu(ids.Ragged([1, 2], [[0, 2]]), [[1]]),
        ValueError, "hyps.offsets must be a 1-D integer sequence with at least one entry"),
    Bad("Ragged-offsets-empty", lambda: ids.sentence_bleu(ids.Ragged([1, 2], []), [[1]]),
        ValueError, "hyps.offsets must be a 1-D integer sequence with at least one entry"),
    Bad("Ragged-offsets-uint64-max", lambda: ids.sentence_bleu(
        ids.Ragged([1], np.array([0, 2**64 - 1], dtype=np.uint64)), [[1]]), ValueError,
        "hyps.offsets must rise from 0 to len(flat) (1)"),
    Bad("Ragged-flat-None", lambda: ids.sentence_bleu(ids.Ragged(None, [0]), []), TypeError,
        "hyps.flat must be a 1-D sequence of token IDs, got NoneType None"),
    Bad("Ragged-flat-float", lambda: ids.sentence_bleu(ids.Ragged([1.5], [0, 1]), [[1]]),
        TypeError, "hyps.flat must hold integer token IDs, got dtype float64"),
    Bad("Ragged-groups", lambda: ids.sentence_bleu([[1]], ids.Ragged([1, 2], [0, 1, 2], [0, 3])),
        ValueError, "refs.groups must rise from 0 to the number of reference rows (2)"),
    Bad("core-offsets-past-end", lambda: ids.core.ids_segment_stats([1], [0, 2], [1], [0, 1],
                                                                    [0, 1]),
        ValueError, "hyp_offsets must stay within 0..1"),

    # bad weights
    Bad("weights-length", lambda: ids.sentence_bleu([[1]], [[1]], weights=[1, 2]), ValueError,
        "weights must have max_order (4) entries, got 2"),
    Bad("weights-negative", lambda: ids.sentence_bleu([[1]], [[1]], weights=[1, 1, 1, -1]),
        ValueError, "weights must be finite and positive"),
    Bad("weights-NaN", lambda: ids.sentence_bleu([[1]], [[1]],
                                                 weights=[1, 1, 1, float("nan")]),
        ValueError, "weights must be finite and positive"),
    Bad("weights-inf", lambda: ids.sentence_bleu([[1]], [[1]],
                                                 weights=[1, 1, 1, float("inf")]),
        ValueError, "weights must be finite and positive"),
    Bad("weights-str", lambda: ids.sentence_bleu([[1]], [[1]], weights="abcd"), TypeError,
        "weights must be a sequence of 4 numbers, got str 'abcd'"),
    Bad("weights-number", lambda: ids.sentence_bleu([[1]], [[1]], weights=5), TypeError,
        "weights must be a sequence of 4 numbers, got int 5"),

    # bad smoothing
    Bad("ids-smooth-method", lambda: ids.sentence_bleu([[1]], [[1]], smooth_method="bogus"),
        ValueError, "Unknown smooth_method 'bogus'"),
    Bad("ids-floor-negative", lambda: ids.sentence_bleu([[1]], [[1]], smooth_value=-1, **FLOOR),
        ValueError, "smooth_value for 'floor' must be a finite number >= 0"),
    Bad("ids-add-k-NaN", lambda: ids.corpus_bleu([[1]], [[1]], smooth_value=float("nan"),
                                                 **ADDK),
        ValueError, "smooth_value for 'add-k' must be a finite number >= 0"),
    Bad("ids-add-k-inf", lambda: ids.pairwise_bleu([[1]], smooth_value=float("inf"), **ADDK),
        ValueError, "smooth_value for 'add-k' must be a finite number >= 0"),
    Bad("ids-floor-str", lambda: ids.sentence_bleu([[1]], [[1]], smooth_value="0.1", **FLOOR),
        ValueError, "smooth_value for 'floor' must be a finite number >= 0"),
    Bad("ids-floor-bool", lambda: ids.sentence_bleu([[1]], [[1]], smooth_value=True, **FLOOR),
        ValueError, "got True"),
    Bad("ids-stats-score-smoothing", lambda: ids.BLEUStats([1, 1, 1, 1]).score(
        "floor", -0.5), ValueError, "smooth_value for 'floor' must be a finite number >= 0"),
    Bad("ids-accumulator-smoothing", lambda: ids.BLEUAccumulator(smooth_method="add-k",
                                                                 smooth_value=-1),
        ValueError, "smooth_value for 'add-k'"),
    Bad("text-smooth-method", lambda: cybleu.corpus_bleu(["a"], [["a"]], smooth_method="x"),
        ValueError, "Unknown smooth_method 'x'"),

    # empty corpora
    Bad("text-empty", lambda: cybleu.corpus_bleu([], [[]]), ValueError, "the corpus is empty"),
    Bad("text-no-streams", lambda: cybleu.corpus_bleu(["a"], []), ValueError,
        "`refs` holds no reference stream"),
    Bad("sentence-no-references", lambda: cybleu.sentence_bleu("a", []), ValueError,
        "`refs` is empty"),
    Bad("hf-empty", lambda: hf.bleu([], []), ValueError, "no predictions: the corpus is empty"),
    Bad("hf-count-mismatch", lambda: hf.bleu(["a", "b"], ["a"]), ValueError,
        "2 predictions but 1 references"),
    Bad("hf-str", lambda: hf.bleu("a b", "a b"), TypeError, "predictions must be a list"),
    # nltk's own exception for an empty corpus, as nltk raises it
    Bad("nltk-empty", lambda: cy_nltk.corpus_bleu([], []), ZeroDivisionError, "Fraction(0, 0)"),

    # issue 19: masked arrays, whose masks numpy.asarray dropped (scored as if unmasked)
    Bad("masked-hyps", lambda: ids.sentence_bleu(MASKED, [[1, 2]]), TypeError,
        "hyps is a numpy masked array, and its mask has no one meaning for token IDs; fill the "
        "masked entries with a pad ID and trim it (`x.filled(pad)` with pad_id=pad)"),
    Bad("masked-refs", lambda: ids.sentence_bleu([[1, 2]], MASKED), TypeError,
        "refs is a numpy masked array"),
    Bad("masked-3-D-refs", lambda: ids.corpus_bleu([[1, 2]], MASKED[None]), TypeError,
        "refs is a numpy masked array"),
    Bad("masked-row", lambda: ids.sentence_bleu([[1], MASKED[0]], [[1], [2]]), TypeError,
        "hyps[1] is a numpy masked array"),
    Bad("masked-row-threads", lambda: ids.segment_stats([[1], MASKED[0]], [[1], [2]],
                                                        n_threads=2), TypeError,
        "hyps[1] is a numpy masked array"),
    Bad("masked-reference-row", lambda: ids.sentence_bleu([[1]], [[[1], MASKED[0]]]), TypeError,
        "refs[0][1] is a numpy masked array"),
    Bad("masked-nested-references", lambda: ids.sentence_bleu([[1]], [MASKED]), TypeError,
        "refs[0] is a numpy masked array"),
    Bad("masked-Ragged-flat", lambda: ids.sentence_bleu(ids.Ragged(MASKED[0], [0, 3]), [[1]]),
        TypeError, "hyps.flat is a numpy masked array"),
    Bad("masked-Ragged-offsets", lambda: ids.sentence_bleu(
        ids.Ragged([1, 2, 3], np.ma.array([0, 3], mask=[0, 1])), [[1]]), TypeError,
        "hyps.offsets is a numpy masked array"),
    Bad("masked-Ragged-groups", lambda: ids.sentence_bleu([[1]], ids.Ragged(
        [1, 2], [0, 1, 2], np.ma.array([0, 2], mask=[0, 1]))), TypeError,
        "refs.groups is a numpy masked array"),
    Bad("masked-pairwise", lambda: ids.pairwise_bleu(MASKED), TypeError,
        "hyps is a numpy masked array"),
    Bad("masked-self-bleu", lambda: ids.self_bleu(MASKED), TypeError,
        "sentences is a numpy masked array"),
    Bad("masked-core-flat", lambda: ids.core.ids_segment_stats(MASKED[0], [0, 3], [1], [0, 1],
                                                               [0, 1]),
        TypeError, "hyp_flat is a numpy masked array"),
    Bad("masked-core-offsets", lambda: ids.core.ids_segment_stats(
        [1], np.ma.array([0, 1], mask=[0, 1]), [1], [0, 1], [0, 1]), TypeError,
        "hyp_offsets is a numpy masked array"),
    Bad("masked-statistics", lambda: ids.BLEUStats(np.ma.array([1, 1, 1, 1], mask=[0, 0, 0, 1])),
        TypeError, "BLEU statistics is a numpy masked array"),
    Bad("masked-weights", lambda: ids.sentence_bleu([[1]], [[1]], weights=np.ma.array(
        [1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])), TypeError, "weights is a numpy masked array"),
    # issue 19: ints numpy reads as float64 (both signs beyond int64): the real problem named
    Bad("row-ints-beyond-int64-of-both-signs", lambda: ids.sentence_bleu([[-1, 2**63]], [[1]]),
        ValueError, "hyps[0] holds a token ID outside 0..2**32-1 (9223372036854775808)"),
    Bad("reference-ints-beyond-int64-of-both-signs", lambda: ids.sentence_bleu(
        [[1]], [[[1], [2**64 - 1, -5]]]), ValueError,
        "refs[0][1] holds a token ID outside 0..2**32-1 (18446744073709551615)"),
    Bad("row-float-among-ints", lambda: ids.sentence_bleu([[1, 2, 2.5]], [[1]]), TypeError,
        "hyps[0] must hold integer token IDs, got dtype float64 (element 2 is float 2.5)"),
    # big-endian arrays: range errors name the values, not their swapped bytes
    Bad("big-endian-negative-ID", lambda: ids.sentence_bleu(np.array([[1, -2]], dtype=">i4"),
                                                            [[1]]),
        ValueError, "hyps holds a negative token ID (-2) that is not a trimmed pad_id/eos_id"),
    Bad("big-endian-ID-above-uint32", lambda: ids.sentence_bleu(
        np.array([[1, 2**32]], dtype=">i8"), [[1]]), ValueError,
        "hyps holds a token ID above 2**32-1 (4294967296)"),
    Bad("big-endian-kept-pad-negative", lambda: ids.sentence_bleu(
        np.array([[1, -100, 2]], dtype=">i2"), [[1]], pad_id=-100), ValueError,
        "hyps holds a negative token ID (-100) that is not a trimmed pad_id/eos_id"),
]


@pytest.mark.parametrize("case", BAD, ids=[case.name for case in BAD])
def test_bad_input_raises_a_clear_error(backend, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # e.g. the text API's warnings on the way to the error
        with pytest.raises(case.error) as info:
            case.call()
    assert case.fragment in str(info.value)


def test_catalogue_names_are_unique():
    assert len({case.name for case in BAD}) == len(BAD)


def test_the_backend_fixture_swaps_every_core(backend):
    assert ids.core.__name__.endswith("_py") == (backend == "python")
    assert cy_nltk._core.__name__.endswith("_py") == (backend == "python")
    assert hf._counts.__name__.endswith("_py") == (backend == "python")


# -- inputs that look wrong but must be scored ----------------------------------------------------

def _sacre_sentence(hyps, refs):
    bleu = sacrebleu.BLEU(tokenize="none", effective_order=True)
    return [bleu.sentence_score(h, r).score for h, r in zip(hyps, refs)]


def _sacre_corpus(hyps, streams):
    return sacrebleu.corpus_bleu(hyps, streams, tokenize="none")


def _accumulated(hyps, refs, **kwargs):
    acc = ids.BLEUAccumulator(**kwargs)
    acc.update(hyps, refs)
    return acc.compute()


def _scores(score):
    return (score.score, score.counts, score.totals, score.sys_len, score.ref_len)


class Good(NamedTuple):
    name: str
    call: Callable[[], Any]
    want: Callable[[], Any]


GOOD = [
    # 3. a batch of empty generations: every ID is pad_id, or every row starts with eos
    Good("all-pad-sentence", lambda: ids.sentence_bleu(PAD_BATCH, PAD_BATCH, pad_id=0).tolist(),
         lambda: _sacre_sentence(["", ""], [[""], [""]])),
    Good("all-pad-corpus", lambda: _scores(ids.corpus_bleu(PAD_BATCH, PAD_BATCH, pad_id=0)),
         lambda: _scores(_sacre_corpus(["", ""], [["", ""]]))),
    Good("all-pad-accumulator", lambda: _scores(_accumulated(PAD_BATCH, PAD_BATCH, pad_id=0)),
         lambda: _scores(_sacre_corpus(["", ""], [["", ""]]))),
    Good("all-pad-pairwise", lambda: ids.pairwise_bleu(PAD_BATCH, pad_id=0).tolist(),
         lambda: [_sacre_sentence(["", ""], [[""], [""]])] * 2),
    Good("all-pad-hypotheses-only", lambda: ids.sentence_bleu(
        PAD_BATCH, [[5, 6], [7]], pad_id=0).tolist(),
         lambda: _sacre_sentence(["", ""], [["5 6"], ["7"]])),
    Good("all-eos", lambda: ids.sentence_bleu(np.full((2, 3), 2), [[5], [2]], eos_id=2,
                                              pad_id=0).tolist(),
         lambda: _sacre_sentence(["", ""], [["5"], [""]])),
    Good("pad-and-eos-at-once", lambda: ids.sentence_bleu(
        np.array([[0, 0, 2, 5], [0, 0, 0, 0]]), [[0, 2], [0]], pad_id=0, eos_id=2).tolist(),
         lambda: _sacre_sentence(["", ""], [[""], [""]])),
    # 10. rows of int8 and uint64 (numpy would promote them to float64)
    Good("mixed-int8-uint64-rows", lambda: ids.sentence_bleu(
        [np.array([1, 2], dtype=np.int8), np.array([3, 2**32 - 1], dtype=np.uint64)],
        [[1, 2], [3, 2**32 - 1]]).tolist(),
         lambda: _sacre_sentence(["1 2", f"3 {2**32 - 1}"], [["1 2"], [f"3 {2**32 - 1}"]])),
    Good("object-array-of-rows", lambda: ids.sentence_bleu(
        np.array([[1, 2, 3], [4, 5]], dtype=object), [[1, 2], [4, 5]]).tolist(),
         lambda: _sacre_sentence(["1 2 3", "4 5"], [["1 2"], ["4 5"]])),
    # 5. a thread count far above the work: capped, same numbers
    Good("n_threads-10**6", lambda: ids.sentence_bleu([[1, 2, 3]] * 50, [[1, 2]] * 50,
                                                      n_threads=10**6).tolist(),
         lambda: _sacre_sentence(["1 2 3"] * 50, [["1 2"]] * 50)),
    # an empty batch of IDs is an empty result (an evaluation loop may see one)
    Good("ids-empty-sentence", lambda: ids.sentence_bleu([], []).tolist(), lambda: []),
    Good("ids-empty-corpus", lambda: _scores(ids.corpus_bleu([], [])),
         lambda: (0.0, [0, 0, 0, 0], [0, 0, 0, 0], 0, 0)),
    # a negative pad (labels' -100) trimmed away
    Good("pad-minus-100", lambda: ids.sentence_bleu(np.array([[5, 6, -100]]), [[5, 6]],
                                                    pad_id=-100).tolist(),
         lambda: _sacre_sentence(["5 6"], [["5 6"]])),
    # a segment with neither reference nor hypothesis counts -1 in ref_len, as in sacreBLEU
    Good("no-reference-and-empty-hypothesis", lambda: ids.corpus_stats(
        [[], [1, 2]], [[], [[1, 2]]]).vector.tolist()[:2],
         lambda: [2, 1]),
    # issue 19: big-endian arrays read by value at every array entry point (they were viewed as
    # uint32: byte-swapped IDs, silently wrong scores)
    Good("big-endian-int32-hyps", lambda: ids.sentence_bleu(BE_HYPS, [[1, 2, 3, 5, 4],
                                                                      [9, 8, 7]]).tolist(),
         lambda: _sacre_sentence(["1 2 3 4 5", "7 8 9 10 11"], [["1 2 3 5 4"], ["9 8 7"]])),
    Good("big-endian-uint32-refs", lambda: ids.sentence_bleu(
        [[1, 2, 3, 5, 4], [9, 8, 7]], BE_HYPS.astype(">u4")).tolist(),
         lambda: _sacre_sentence(["1 2 3 5 4", "9 8 7"], [["1 2 3 4 5"], ["7 8 9 10 11"]])),
    Good("big-endian-3-D-refs", lambda: _scores(ids.corpus_bleu(
        [[1, 2, 3, 5, 4], [9, 8, 7]], BE_HYPS[:, None, :])),
         lambda: _scores(_sacre_corpus(["1 2 3 5 4", "9 8 7"],
                                       [["1 2 3 4 5", "7 8 9 10 11"]]))),
    Good("big-endian-rows-in-a-list", lambda: ids.sentence_bleu(list(BE_HYPS),
                                                                [[1, 2, 3], [7, 8]]).tolist(),
         lambda: _sacre_sentence(["1 2 3 4 5", "7 8 9 10 11"], [["1 2 3"], ["7 8"]])),
    Good("big-endian-Ragged-flat", lambda: ids.sentence_bleu(
        ids.Ragged(np.array([1, 2, 3, 4, 7, 8], dtype=">u4"), [0, 4, 6]),
        [[1, 2, 3], [7, 8]]).tolist(),
         lambda: _sacre_sentence(["1 2 3 4", "7 8"], [["1 2 3"], ["7 8"]])),
    Good("big-endian-Ragged-references", lambda: ids.sentence_bleu(
        [[1, 2, 3, 4], [7, 8]], ids.Ragged(np.array([1, 2, 3, 7, 8, 9], dtype=">i8"),
                                           np.array([0, 3, 4, 6], dtype=">i4"),
                                           np.array([0, 1, 3], dtype=">i2"))).tolist(),
         lambda: _sacre_sentence(["1 2 3 4", "7 8"], [["1 2 3"], ["7", "8 9"]])),
    Good("big-endian-pad-and-eos", lambda: ids.sentence_bleu(
        np.array([[0, 1, 2, 3, 4, 2, 6], [7, 8, 0, 0, 0, 0, 0]], dtype=">i4"),
        [[1, 2, 3], [7, 8]], pad_id=0, eos_id=2).tolist(),
         lambda: _sacre_sentence(["1", "7 8"], [["1"], ["7 8"]])),   # refs trimmed too
    Good("big-endian-pad-minus-100", lambda: ids.sentence_bleu(
        np.array([[5, 6, 4, -100, -100]], dtype=">i4"), [[5, 6]], pad_id=-100).tolist(),
         lambda: _sacre_sentence(["5 6 4"], [["5 6"]])),
    Good("big-endian-pairwise", lambda: ids.pairwise_bleu(
        BE_HYPS, [[1, 2, 3, 4, 5], [7, 8, 9, 10, 11]]).tolist(),
         lambda: [_sacre_sentence(["1 2 3 4 5"] * 2, [["1 2 3 4 5"], ["7 8 9 10 11"]]),
                  _sacre_sentence(["7 8 9 10 11"] * 2, [["1 2 3 4 5"], ["7 8 9 10 11"]])]),
    Good("big-endian-core-layout", lambda: ids.core.ids_segment_stats(
        np.array([1, 2, 3, 4], dtype=">u4"), [0, 4], np.array([1, 2, 3], dtype="<i4"),
        np.array([0, 3], dtype=">i8"), [0, 1]).tolist(),
         lambda: sacrebleu.BLEU(tokenize="none")._extract_corpus_statistics(["1 2 3 4"],
                                                                            [["1 2 3"]])),
    # issue 19: int64 and uint64 scalars in one row (numpy promotes them to float64)
    Good("int64-and-uint64-scalars-in-a-row", lambda: ids.sentence_bleu(
        [[np.int64(1), np.uint64(2), np.int64(3)]], [[1, 2, 3]]).tolist(),
         lambda: _sacre_sentence(["1 2 3"], [["1 2 3"]])),
    Good("uint64-scalar-and-negative-pad", lambda: ids.sentence_bleu(
        [[np.int64(-100), np.uint64(2), np.int64(3), np.int64(-100)]], [[2, 3]],
        pad_id=-100).tolist(),
         lambda: _sacre_sentence(["2 3"], [["2 3"]])),
    # 2. a token whose __hash__ grows the list being interned: the tokens it had
    Good("nltk-token-growing-its-list", lambda: cy_nltk.sentence_bleu(
        [["a", "b"]], _growing_hypothesis(), weights=(0.5, 0.5)),
         lambda: cy_nltk.sentence_bleu([["a", "b"]], [object(), "a", "b"], weights=(0.5, 0.5))),
]


@pytest.mark.parametrize("case", GOOD, ids=[case.name for case in GOOD])
def test_odd_but_valid_input_is_scored_as_the_oracle_scores_it(backend, case):
    assert case.call() == case.want()


# -- pandas Series (if pandas is installed) -------------------------------------------------------

def test_pandas_series(backend):
    pd = pytest.importorskip("pandas", reason="pandas is not installed")
    hyps = pd.Series([[1, 2, 3], [4, 5]])
    assert ids.sentence_bleu(hyps, pd.Series([[1, 2], [4, 5]])).tolist() \
        == _sacre_sentence(["1 2 3", "4 5"], [["1 2"], ["4 5"]])
    with pytest.raises(TypeError, match=r"hyps\[0\] must be a sequence of token IDs, got str"):
        ids.sentence_bleu(pd.Series(["1 2", "3"]), [[1], [3]])
    # the text API, as sacreBLEU's, takes lists (today's messages name the Series)
    texts = pd.Series(["a b c d", "c"])
    with pytest.raises(TypeError, match="`hyps` should be a sequence of strings, not Series"):
        cybleu.corpus_bleu(texts, [list(texts)])
    with pytest.raises(TypeError, match="reference stream 0 is Series"):
        cybleu.corpus_bleu(list(texts), [texts])
    with pytest.raises(TypeError, match="hf.bleu: predictions must be a list, got Series"):
        hf.bleu(texts, list(texts))


# -- the command line -----------------------------------------------------------------------------

def test_cli_names_a_missing_file(backend, tmp_path, capsys):
    from cybleu.cli import main
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b\n", encoding="utf-8")
    code = main([str(tmp_path / "missing-ref.txt"), "-i", str(hyp)])
    err = capsys.readouterr().err
    assert code != 0
    assert "missing-ref.txt" in err and "Traceback" not in err


# -- drop-in misuse: the error names the problem (and the fix) -----------------------------------

def _tm(name):
    """cybleu.torchmetrics' `name`, or a skip when torch/torchmetrics are absent."""
    pytest.importorskip("torchmetrics", reason="torchmetrics is not installed (pip install "
                        "'cybleu[torchmetrics]')")
    import cybleu.torchmetrics as ctm
    return getattr(ctm, name)


_H3 = ["a b c", "d e f", "g h"]
_PER_HYP = [["a b c", "a b d"], ["d e f", "d"], ["g h", "g i"]]   # per hypothesis, not streams

BAD_DROPIN = [
    # 12. chrF orders past a C int: an OverflowError naming no argument before
    Bad("CHRF-char-order-2**31", lambda: cybleu.CHRF(char_order=2**31), ValueError,
        "CHRF: char_order must be an int >= 0 (at most 256), not 2147483648"),
    Bad("CHRF-word-order-2**31", lambda: cybleu.corpus_chrf(["a"], [["a"]], word_order=2**31),
        ValueError, "CHRF: word_order must be an int >= 0 (at most 256)"),
    Bad("hf-max-order-0", lambda: hf.bleu(["a b"], ["a b"], max_order=0), ValueError,
        "hf: max_order must be at least 1"),
    Bad("ids-self-bleu-one-sentence", lambda: ids.self_bleu([[1, 2, 3]]), ValueError,
        "self-BLEU needs at least two sentences"),
    # 6. a float32 smoothing value the compiled pairwise path cannot compute as sacreBLEU does
    Bad("ids-pairwise-float32-smoothing", lambda: ids.pairwise_bleu(
        [[1, 2]], smooth_method="floor", smooth_value=np.float32(0.1)), TypeError,
        "pairwise_bleu takes smooth_value as a Python int or float"),
    # one list of references per hypothesis where sacreBLEU takes streams: the fix named
    Bad("corpus-bleu-per-hypothesis-refs", lambda: cybleu.corpus_bleu(_H3, _PER_HYP), ValueError,
        "`refs` looks like one list of references per hypothesis: pass `list(zip(*refs))`"),
    Bad("corpus-chrf-per-hypothesis-refs", lambda: cybleu.corpus_chrf(_H3, _PER_HYP), ValueError,
        "pass `list(zip(*refs))`"),
    Bad("corpus-ter-per-hypothesis-refs", lambda: cybleu.corpus_ter(_H3, _PER_HYP), ValueError,
        "pass `list(zip(*refs))`"),
    Bad("batch-bleu-per-hypothesis-refs", lambda: cybleu.batch_sentence_bleu(_H3, _PER_HYP),
        ValueError, "pass `list(zip(*refs))`"),
    Bad("batch-chrf-ragged-per-hypothesis-refs", lambda: cybleu.batch_sentence_chrf(
        _H3, [["a"], ["b", "c"], ["d"]]), ValueError,
        "pass `list(itertools.zip_longest(*refs))`"),
    Bad("hf-streams-as-references", lambda: hf.bleu(_H3, [_H3, _H3]), ValueError,
        "pass references=list(zip(*references))"),
    Bad("torchmetrics-streams-as-target", lambda: _tm("SacreBLEUScore")().update(
        ["a", "b"], [["a", "b"], ["a", "c"], ["x", "y"]]), ValueError,
        "wrap the `target` argument as target=list(zip(*target))"),
    Bad("torchmetrics-chrf-streams-as-target", lambda: _tm("chrf_score")(
        ["a", "b"], [["a", "b"], ["a", "c"], ["x", "y"]]), ValueError,
        "target=list(zip(*target))"),
    # 2. torchmetrics' weights: not normalized, so validated
    Bad("torchmetrics-negative-weights", lambda: _tm("BLEUScore")(weights=[-1] * 4), ValueError,
        "weights must be finite and >= 0"),
    Bad("torchmetrics-nan-weights", lambda: _tm("bleu_score")(["a"], [["a"]],
                                                              weights=[float("nan")] * 4),
        ValueError, "weights must be finite and >= 0"),
    Bad("torchmetrics-zero-weights", lambda: _tm("BLEUScore")(weights=[0] * 4), ValueError,
        "not all 0"),
    Bad("torchmetrics-chrf-order", lambda: _tm("CHRFScore")(n_char_order=2**31), ValueError,
        "`n_char_order` to be an integer greater than or equal to 1 (at most 256)"),
    # 15. test-set and language-pair names checked before they become paths
    Bad("dataset-langpair-climbs-out", lambda: cybleu.get_source_file("wmt17", "../../x#"),
        TestSetError, "No such language pair wmt17/../../x#"),
    Bad("dataset-unknown-test-set", lambda: cybleu.get_reference_files("../wmt17", "en-de"),
        TestSetError, "No such test set '../wmt17'"),
]


@pytest.mark.parametrize("case", BAD_DROPIN, ids=[case.name for case in BAD_DROPIN])
def test_dropin_bad_input_raises_a_clear_error(backend, case):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(case.error) as info:
            case.call()
    assert case.fragment in str(info.value)


def test_dropin_catalogue_names_are_unique():
    names = [case.name for case in BAD + BAD_DROPIN]
    assert len(set(names)) == len(names)


GOOD_DROPIN = [
    # 11. any Sequence of hypotheses
    Good("deque-of-hypotheses", lambda: _scores(cybleu.corpus_bleu(
        __import__("collections").deque(_H3), [["a b c", "d e", "g h i"]])),
         lambda: _scores(sacrebleu.corpus_bleu(_H3, [["a b c", "d e", "g h i"]]))),
    # 13. numpy integer orders
    Good("numpy-int64-bleu-order", lambda: _scores(BLEU(max_ngram_order=np.int64(3)).corpus_score(
        _H3, [["a b c", "d e", "g h i"]])),
         lambda: _scores(sacrebleu.BLEU(max_ngram_order=np.int64(3)).corpus_score(
             _H3, [["a b c", "d e", "g h i"]]))),
    Good("numpy-int64-chrf-order", lambda: cybleu.CHRF(char_order=np.int64(6)).corpus_score(
        _H3, [["a b c", "d e", "g h i"]]).score,
         lambda: sacrebleu.CHRF(char_order=np.int64(6)).corpus_score(
             _H3, [["a b c", "d e", "g h i"]]).score),
]


@pytest.mark.parametrize("case", GOOD_DROPIN, ids=[case.name for case in GOOD_DROPIN])
def test_dropin_odd_but_valid_input_is_scored_as_the_oracle_scores_it(backend, case):
    assert case.call() == case.want()
