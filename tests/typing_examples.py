# pyright: strict
"""A user's script over cybleu's public API, written as a strictly typed program would be.

tests/test_packaging.py type-checks this file with `mypy --strict` (and pyright in strict mode,
when it is installed) and expects no error: every name used here must carry types precise enough
for that. It also runs it, so the types describe code that works. Not collected by pytest itself.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

import cybleu
from cybleu import hf, ids, nltk
from cybleu.metrics import BLEU, BLEUScore
from cybleu.metrics.bleu import BLEUSignature
from cybleu.tokenizers.tokenizer_13a import Tokenizer13a

HYPS: list[str] = ["The cat sat on the mat.", "Hello, world!"]
REFS: list[list[str]] = [["The cat is on the mat.", "Hello world!"]]


def corpus_report(hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> dict[str, float]:
    score: BLEUScore = cybleu.corpus_bleu(hyps, refs)
    counts: list[int] = score.counts
    totals: list[int] = score.totals
    precisions: list[float] = score.precisions
    return {"score": score.score, "bp": score.bp, "ratio": score.ratio,
            "sys_len": float(score.sys_len), "ref_len": float(score.ref_len),
            "matches": float(sum(counts)), "ngrams": float(sum(totals)),
            "p1": precisions[0]}


def sentence_scores(hyps: list[str], refs: list[list[str]]) -> list[float]:
    one: float = cybleu.sentence_bleu(hyps[0], [stream[0] for stream in refs]).score
    batch: npt.NDArray[np.float64] = cybleu.batch_sentence_bleu(hyps, refs)
    raw: float = cybleu.raw_corpus_bleu(hyps, refs).score
    return [one, raw] + [float(x) for x in batch]


def metric_object() -> tuple[str, str, float]:
    metric = BLEU(tokenize="13a", smooth_method="floor", smooth_value=0.1, effective_order=True)
    corpus: BLEUScore = metric.corpus_score(HYPS, REFS)
    sentence: BLEUScore = metric.sentence_score(HYPS[1], ["Hello world!", None])
    signature: BLEUSignature = metric.get_signature()
    cached = BLEU(references=REFS)
    rescored: float = cached.corpus_score(HYPS, None).score
    many: npt.NDArray[np.float64] = cached.sentence_scores(HYPS)
    text: str = corpus.format(width=2, signature=signature.format(short=True))
    return text, str(sentence), rescored + float(many.sum())


def token_ids() -> tuple[float, float, int]:
    hyps = np.array([[5, 6, 7, 8, 0], [9, 10, 11, 0, 0]], dtype=np.int64)
    refs = [[5, 6, 7, 8], [9, 10, 12]]
    rewards: npt.NDArray[np.float64] = ids.sentence_bleu(hyps, refs, pad_id=0)
    corpus: float = ids.corpus_bleu(hyps, refs, pad_id=0).score
    accumulator = ids.BLEUAccumulator(max_order=4)
    batch: ids.BLEUStats = accumulator.update(hyps, refs)
    accumulator.update(ids.Ragged([1, 2, 3], [0, 3]), [[1, 2, 3]])
    total: ids.BLEUStats = sum([batch, ids.corpus_stats([[1, 2]], [[1, 2]])], ids.BLEUStats(
        np.zeros(10, dtype=np.int64)))
    matrix: npt.NDArray[np.float64] = ids.pairwise_bleu([[1, 2, 3], [1, 2, 4]])
    rows: npt.NDArray[np.int64] = ids.segment_stats(hyps, refs, pad_id=0)
    return (float(rewards.sum()) + corpus + accumulator.compute().score + total.score().score
            + float(matrix.sum()), float(ids.self_bleu([[1, 2, 3], [1, 2, 4]]).sum()),
            int(rows.sum()) + total.max_order)


def nltk_mode() -> tuple[float, list[float], float]:
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    hyp = ["the", "cat", "sat", "on", "the", "mat"]
    smoothing = nltk.SmoothingFunction(epsilon=0.1)
    single: float = nltk.sentence_bleu(refs, hyp, smoothing_function=smoothing.method1)
    several: list[float] = nltk.corpus_bleu([refs], [hyp], weights=[(0.5, 0.5), (1.0,)])
    bp: float = nltk.brevity_penalty(nltk.closest_ref_length(refs, len(hyp)), len(hyp))
    return single, several, bp + float(nltk.modified_precision(refs, hyp, 2))


def hf_mode() -> tuple[float, int]:
    result = hf.bleu(HYPS, [["The cat is on the mat."], ["Hello world!"]])
    bleu, _precisions, _bp, _ratio, hyp_len, _ref_len = hf.compute_bleu(
        [[["a", "b", "c"]]], [["a", "b", "c"]], max_order=2)
    computed = hf.Bleu().compute(predictions=HYPS, references=["The cat is on the mat.",
                                                                   "Hello world!"])
    return float(result["bleu"]) + float(computed["bleu"]) + bleu, hyp_len


def tokens() -> str:
    return Tokenizer13a()("Hello, world!") + " " + " ".join(hf.tokenizer_13a("a, b"))


def main() -> None:
    print(cybleu.__version__, cybleu.BACKEND)
    print(corpus_report(HYPS, REFS))
    print(sentence_scores(HYPS, REFS))
    print(metric_object())
    print(token_ids())
    print(nltk_mode())
    print(hf_mode())
    print(tokens())


if __name__ == "__main__":
    main()
