#!/usr/bin/env python
"""Differential fuzzing of the compiled cores against their pure-Python twins (issue 10).

Hypothesis draws inputs aimed at the edges (13a's entities and rules, Unicode classes, whitespace
of every kind, NUL, lone surrogates, astral characters; IDs at the ends of uint32; empty
hypotheses and references; ragged and offset layouts, some of them invalid) and every call must
give the same result in both backends, or the same exception type and message:

    text   cybleu._kernels.core vs core_py: tokenize, tokenize_13a, segment_stats, corpus_stats,
           sentence_scores (13a, intl, zh, char, none; lowercase; orders 1-6; every smoothing)
    ids    ids_segment_stats, ids_pairwise_scores, ids_self_stats, bleu_scores_from_stats
    arrays read_batch, read_references, ids_batch_stats on arrays of every integer dtype in both
           byte orders, strided, as Ragged flats and as list rows, with pad_id/eos_id, and masked
           arrays (refused): a big-endian array must read as its native twin does
    nltk   cybleu._kernels.nltk_counts vs nltk_counts_py: corpus_counts, hf_counts, sentence_score
    chunk  a few corpora of 520-1,500 lines, so the compiled core's chunked loops turn over

Usage: python tools/fuzz_core.py [--examples 20000] [--seed 0]   (run with src on sys.path or
cybleu installed; the compiled modules must be built). Exit status 0 when every example agreed
and at least --examples were run (text, ids and nltk share them 2:2:1; chunk and arrays come on
top), 1 on the first difference (Hypothesis prints the shrunk input), 2 when too few examples ran.
"""
import argparse
import math
import struct
import sys
import time
from array import array

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from cybleu._kernels import core_py as _core_py, nltk_counts_py as _nltk_core_py
from cybleu.ids import Ragged
from cybleu.nltk import _c_parameter, _c_weights

try:
    from cybleu._kernels import core as _core_c
    from cybleu._kernels import nltk_counts as _nltk_core_c
except ImportError as err:
    sys.exit(f"fuzz_core: the compiled modules are not built ({err})")

# -- comparing results ----------------------------------------------------------------------------


def _plain(value):
    """A value both backends' results can be compared in exactly (floats by their bits)."""
    if isinstance(value, np.ndarray):
        return ("ndarray", str(value.dtype), value.shape, value.tobytes())
    if isinstance(value, array):
        return ("array", value.typecode, value.tobytes())
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(_plain(v) for v in value))
    return value


def _outcome(call):
    try:
        return ("ok", _plain(call()))
    except Exception as err:  # noqa: BLE001 - the comparison is the point
        return ("error", type(err).__name__, str(err))


def same(label, call):
    """call(compiled) and call(twin) agree; AssertionError naming the call otherwise."""
    compiled, twin = _outcome(lambda: call("c")), _outcome(lambda: call("py"))
    assert compiled == twin, f"{label}: compiled {compiled!r:.600} != twin {twin!r:.600}"


CORES = {"c": _core_c, "py": _core_py}
NLTK_CORES = {"c": _nltk_core_c, "py": _nltk_core_py}
COUNTS = {}

# -- text -----------------------------------------------------------------------------------------

# what 13a, intl and zh react to, and what tends to break code point loops
PIECES = [
    "a", "B", "z", "0", "7", ".", ",", "-", "'", '"', "&", ";", "<", ">", "/", "(", "$", "%",
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp", "<skipped>", "-\n", "\n", " ", "  ", "\t", "\r",
    "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "\u200b", "\x00", "\ufeff",
    "中", "文", "。", "，", "—", "“", "…", "→", "\u2001", "\u2f81", "\U00020000", "\U0002f800",
    "ア", "가", "é", "e\u0301", "ß", "İ", "Σ", "ﬁ", "١", "٫", "\u05d0", "\u0627", "\U0001f600",
    "\U00010940", "\ud800", "\udfff", "\uffff", "\U0010ffff", "½", "²", "€", "©", "+", "^",
]


def _line(blob):
    """A line from bytes (one Hypothesis draw per line keeps generation fast): a byte below
    len(PIECES) is that piece; any other byte and the two after it are a code point."""
    out, i = [], 0
    while i < len(blob):
        b = blob[i]
        if b < len(PIECES):
            out.append(PIECES[b])
            i += 1
        else:
            out.append(chr(int.from_bytes(blob[i:i + 3].ljust(3, b"\0"), "big") % 0x110000))
            i += 3
    return "".join(out)


LINE = st.binary(max_size=32).map(_line)
TOKENIZERS = st.sampled_from(["13a", "intl", "zh", "char", "none"])
SMOOTHING = st.sampled_from([("exp", None), ("none", None), ("floor", None), ("floor", 0.3),
                             ("add-k", None), ("add-k", 2), ("add-k", 0.5), ("floor", 1e-3)])


@st.composite
def text_corpus(draw):
    n = draw(st.integers(0, 5))
    hyps = draw(st.lists(LINE, min_size=n, max_size=n))
    refs = draw(st.lists(st.lists(LINE, max_size=3), min_size=n, max_size=n))
    return hyps, refs


@given(text_corpus(), TOKENIZERS, st.booleans(), st.integers(1, 6), SMOOTHING, st.booleans())
def fuzz_text(corpus, tokenize, lowercase, max_order, smoothing, effective):
    COUNTS["text"] = COUNTS.get("text", 0) + 1
    hyps, refs = corpus
    for line in hyps + [r for seg in refs for r in seg]:
        same("tokenize", lambda k: CORES[k].tokenize(line, tokenize))
        same("tokenize_13a", lambda k: CORES[k].tokenize_13a(line))
    args = (hyps, refs, tokenize, lowercase, max_order)
    same("segment_stats", lambda k: CORES[k].segment_stats(*args))
    same("corpus_stats", lambda k: CORES[k].corpus_stats(*args))
    same("sentence_scores", lambda k: CORES[k].sentence_scores(*args, *smoothing, effective))
    # best-of-n: each segment's references tabled once, its candidates looked up there
    for group in (1, 2):
        cands = [c for i, h in enumerate(hyps) for c in [h, hyps[-1 - i]][:group]]
        same(f"grouped_sentence_scores k={group}", lambda k: CORES[k].RefSet(
            refs, tokenize, lowercase, max_order).grouped_sentence_scores(
                cands, group, *smoothing, effective))


@given(st.integers(520, 1500), st.integers(0, 2**32 - 1), TOKENIZERS, st.integers(1, 5))
def fuzz_chunks(n, salt, tokenize, max_order):
    COUNTS["chunk"] = COUNTS.get("chunk", 0) + 1
    rng = np.random.default_rng(salt)
    pieces = np.array(PIECES, dtype=object)
    lines = ["".join(rng.choice(pieces, rng.integers(0, 12))) for _ in range(2 * n)]
    hyps, refs = lines[:n], [[r] if i % 7 else [] for i, r in enumerate(lines[n:])]
    refs[0] = [lines[n]]
    # a hypothesis without a reference is an error in both; keep the corpus scorable mostly
    hyps = [h if refs[i] else "" for i, h in enumerate(hyps)]
    same("chunked segment_stats",
         lambda k: CORES[k].segment_stats(hyps, refs, tokenize, bool(salt & 1), max_order))
    # 3 candidates per segment, a segment's candidates cut across chunks, on 1 and 2 threads
    cands = [c for i, h in enumerate(hyps) for c in (h, hyps[i - 1] if refs[i] else "", "")]
    for threads in (1, 2):
        same(f"chunked grouped_sentence_scores on {threads}", lambda k: CORES[k].RefSet(
            refs, tokenize, bool(salt & 1), max_order).grouped_sentence_scores(
                cands, 3, "exp", None, True, threads))


# -- token IDs ------------------------------------------------------------------------------------

IDS = [0, 1, 2, 3, 7, 2**31 - 1, 2**31, 2**32 - 2, 2**32 - 1]
SEQ = st.binary(max_size=10).map(lambda blob: [IDS[b % len(IDS)] for b in blob])


def layout(segments):
    hyp_flat, hyp_off, ref_flat, ref_off, seg_off = [], [0], [], [0], [0]
    for hyp, refs in segments:
        hyp_flat += hyp
        hyp_off.append(len(hyp_flat))
        for ref in refs:
            ref_flat += ref
            ref_off.append(len(ref_flat))
        seg_off.append(len(ref_off) - 1)
    return [np.array(hyp_flat, dtype=np.uint32), hyp_off, np.array(ref_flat, dtype=np.uint32),
            ref_off, seg_off]


@given(st.lists(st.tuples(SEQ, st.lists(SEQ, max_size=3)), max_size=6), st.integers(1, 6),
       st.integers(1, 3), SMOOTHING, st.booleans(),
       st.one_of(st.none(), st.tuples(st.integers(0, 4), st.integers(-3, 12))))
def fuzz_ids(segments, max_order, n_threads, smoothing, effective, damage):
    COUNTS["ids"] = COUNTS.get("ids", 0) + 1
    args = layout(segments)
    if damage is not None:
        # an invalid (or unusual but valid) layout: both cores must say the same about it
        which, value = damage
        arrays = [np.asarray(a).tolist() for a in args]
        if arrays[which]:
            arrays[which][len(arrays[which]) // 2] = value
        args = arrays
    same("ids_segment_stats", lambda k: CORES[k].ids_segment_stats(*args, max_order, n_threads))
    hyps, refs = args[0], args[2]
    same("ids_pairwise_scores", lambda k: CORES[k].ids_pairwise_scores(
        hyps, args[1], refs, args[3], max_order, *smoothing, effective, n_threads))
    same("ids_self_stats", lambda k: CORES[k].ids_self_stats(hyps, args[1], max_order))
    rows = _outcome(lambda: _core_py.ids_segment_stats(*args, max_order, 1))
    if rows[0] == "ok":
        flat = _core_py.ids_segment_stats(*args, max_order, 1).reshape(-1)
        same("bleu_scores_from_stats", lambda k: CORES[k].bleu_scores_from_stats(
            flat, max_order, *smoothing, effective))


# -- arrays: dtypes, byte orders, strides, masks ---------------------------------------------------

DTYPES = ["u1", "i1", "u2", "i2", "u4", "i4", "u8", "i8"]
ARRAY_IDS = [0, 1, 2, 3, 5, 7, 100, 127, 200, 255, 65535, 2**31 - 1, 2**32 - 1, 2**32, 2**40,
             2**63 - 1, -1, -2, -100, -2**31]
ROWS = st.lists(st.lists(st.sampled_from(ARRAY_IDS), min_size=4, max_size=4), min_size=1,
                max_size=5)
TRIM = st.sampled_from([None, 0, 1, 2, -100, 255, 2**32 - 1])


def _typed(rows, dtype):
    """rows as a 2-D array of `dtype` (values that do not fit wrap, as numpy casts them), or
    None when numpy refuses the values outright."""
    try:
        return np.array(rows, dtype=object).astype(dtype)
    except (OverflowError, ValueError):
        return None


@given(ROWS, st.sampled_from(DTYPES), st.sampled_from(["=", ">", "<"]), TRIM, TRIM,
       st.sampled_from(["2d", "strided", "ragged", "list", "masked", "masked-row"]),
       st.integers(1, 4))
def fuzz_arrays(rows, dtype, order, pad_id, eos_id, form, max_order):
    COUNTS["arrays"] = COUNTS.get("arrays", 0) + 1
    native = _typed(rows, dtype)
    if native is None:
        return
    swapped = native.astype(native.dtype.newbyteorder(order))
    refs = [[1, 2, 3]] * len(rows)

    def batch(arr):
        if form == "strided":
            wide = np.zeros((arr.shape[0], arr.shape[1] * 2), dtype=arr.dtype)
            wide[:, ::2] = arr
            return wide[:, ::2]
        if form == "ragged":
            return Ragged(arr.reshape(-1), np.arange(arr.shape[0] + 1) * arr.shape[1])
        if form == "list":
            return list(arr)
        if form == "masked":
            return np.ma.masked_equal(arr, arr.reshape(-1)[0])
        if form == "masked-row":
            return [np.ma.masked_equal(row, row[0]) for row in arr]
        return arr

    for arr in (native, swapped):
        x = batch(arr)
        same("read_batch", lambda k: CORES[k].read_batch(x, "hyps", pad_id, eos_id))
        same("read_references", lambda k: CORES[k].read_references(x, len(rows), pad_id,
                                                                     eos_id))
        same("ids_batch_stats", lambda k: CORES[k].ids_batch_stats(x, refs, max_order, pad_id,
                                                                   eos_id, 2))
    # the bytes' order never changes what is read
    a = _outcome(lambda: _core_c.read_batch(batch(native), "hyps", pad_id, eos_id))
    b = _outcome(lambda: _core_c.read_batch(batch(swapped), "hyps", pad_id, eos_id))
    assert a == b, ("byte order", order, a, b)
    if form.startswith("masked"):
        assert a[0] == "error" and a[1] == "TypeError" and "masked array" in a[2], a


# -- nltk's counting ------------------------------------------------------------------------------

TOKENS = ["a", "b", "c", "the", 1, 2, 1.0, True, ("t",), "A", float("nan"), None, b"a"]
SENTENCE = st.binary(max_size=9).map(lambda blob: [TOKENS[b % len(TOKENS)] for b in blob])
WEIGHTS = st.sampled_from([(0.25,) * 4, (1.0,), (0.5, 0.5), (0.1, 0.2, 0.3, 0.4), (0.2,) * 5,
                           (0.5, 0.5, 0.0, 0.0), (1 / 3,) * 3, (0.01,) * 64, (-1.0, 2.0)])


@given(st.lists(st.tuples(st.lists(SENTENCE, max_size=3), SENTENCE), max_size=5),
       st.integers(0, 7), WEIGHTS, st.integers(0, 4), st.sampled_from([0.1, 1.0, 5.0, 0.0]),
       st.booleans())
def fuzz_nltk(corpus, max_order, weights, mode, param, reweigh):
    COUNTS["nltk"] = COUNTS.get("nltk", 0) + 1
    refs, hyps = [r for r, _ in corpus], [h for _, h in corpus]
    same("corpus_counts", lambda k: NLTK_CORES[k].corpus_counts(refs, hyps, max_order))
    same("hf_counts", lambda k: NLTK_CORES[k].hf_counts(refs, hyps, max_order))
    # the arguments cybleu.nltk passes: its checks keep the rest on nltk's own path
    param = _c_parameter(mode, param)
    if param is None or _c_weights(weights) is None:
        return
    for r, h in corpus:
        same("sentence_score", lambda k: NLTK_CORES[k].sentence_score(r, h, weights, mode,
                                                                      param, reweigh))


# -- running --------------------------------------------------------------------------------------

def run(target, examples, seed):
    configured = settings(max_examples=examples, deadline=None, database=None,
                          suppress_health_check=list(HealthCheck), print_blob=True,
                          phases=[Phase.generate, Phase.shrink])(target)
    hypothesis_seed(seed)(configured)()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=20_000,
                        help="examples over text, ids and nltk together (default 20000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    plan = [("text", fuzz_text, math.ceil(args.examples * 2 / 5)),
            ("ids", fuzz_ids, math.ceil(args.examples * 2 / 5)),
            ("nltk", fuzz_nltk, math.ceil(args.examples / 5)),
            ("chunk", fuzz_chunks, max(5, args.examples // 1000)),
            ("arrays", fuzz_arrays, max(50, args.examples // 10))]
    start = time.perf_counter()
    for name, target, examples in plan:
        began = time.perf_counter()
        try:
            run(target, examples, args.seed)
        except AssertionError as err:
            notes = "\n".join(getattr(err, "__notes__", []))
            print(f"fuzz_core: {name}: the compiled core and its twin differ\n{err}\n{notes}",
                  file=sys.stderr)
            return 1
        print(f"fuzz_core: {name}: {COUNTS.get(name, 0)} examples agree "
              f"({time.perf_counter() - began:.1f} s)")
    total = sum(COUNTS.get(name, 0) for name in ("text", "ids", "nltk"))
    print(f"fuzz_core: {total} examples (+{COUNTS.get('chunk', 0)} chunked corpora, "
          f"+{COUNTS.get('arrays', 0)} array layouts) in "
          f"{time.perf_counter() - start:.1f} s, seed {args.seed}")
    if total < args.examples:
        print(f"fuzz_core: only {total} of {args.examples} examples ran", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
