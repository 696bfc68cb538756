"""groups "ids-lists-256x1024", "patched-evaluate-sacrebleu" and "sentence-batch-threads": the paths
training code takes (issue 13).

- ids-lists-256x1024: sentence BLEU of 256 hypotheses of ~1,024 Zipf-distributed token IDs (960-1088
  per row, vocabulary 32,000, exponent 1.1; each reference its hypothesis with 30% of positions
  redrawn), given as Python lists of ints, as tokenizers and vLLM return them; uint32 arrays of the
  same rows beside them; baseline: nltk `sentence_bleu` (method1) in a loop, timed on 64 rows and
  scaled. cybleu must equal sacrebleu (tokenize='none' on the joined IDs) on a sample of rows.
- patched-evaluate-sacrebleu: Hugging Face evaluate's `sacrebleu` metric script (from the
  folder CYBLEU_EVALUATE_METRICS names: third-party code, not kept in the repository), `compute()` on each of the 8 WMT22 en-de systems vs
  reference A, unpatched (baseline) and inside `cybleu.patched()`; the results must be identical.
- sentence-batch-threads: `cybleu.batch_sentence_bleu` of 2 WMT22 en-de systems vs reference A
  with n_threads=1 (baseline) and 2.
"""
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run

VOCAB, ZIPF_A = 32000, 1.1
LIST_BATCH, NLTK_SLICE, CHECKED_ROWS = 256, 64, 6
# evaluate's sacrebleu metric script (third-party, not kept here): its folder, e.g. from a checkout
# of huggingface/evaluate's metrics/
EVALUATE_METRICS = os.environ.get("CYBLEU_EVALUATE_METRICS", "")


def zipf_ids(rng, size):
    ids = rng.zipf(ZIPF_A, size)
    while (ids > VOCAB).any():                   # redraw the tail beyond the vocabulary
        over = ids > VOCAB
        ids[over] = rng.zipf(ZIPF_A, int(over.sum()))
    return ids - 1


@pytest.fixture(scope="module")
def zipf_lists():
    rng = np.random.default_rng(13)
    hyps, refs = [], []
    for _ in range(LIST_BATCH):
        hyp = zipf_ids(rng, int(rng.integers(960, 1089)))
        ref = hyp.copy()
        mask = rng.random(ref.size) < 0.3
        ref[mask] = zipf_ids(rng, int(mask.sum()))
        hyps.append(hyp.tolist())
        refs.append(ref.tolist())
    return hyps, refs


def _sacre_scores(hyps, refs):
    from sacrebleu.metrics import BLEU
    bleu = BLEU(tokenize="none", effective_order=True)
    return np.array([bleu.sentence_score(" ".join(map(str, h)), [" ".join(map(str, r))]).score
                     for h, r in zip(hyps, refs)])


@pytest.mark.parametrize("form", ["lists", "uint32 arrays"])
@pytest.mark.parametrize("n_threads", [1, 2])
def bench_ids_lists_cybleu(benchmark, zipf_lists, n_threads, form):
    from cybleu import BACKEND, ids
    benchmark.group = "ids-lists-256x1024"
    hyps, refs = zipf_lists
    if form != "lists":
        hyps = [np.asarray(h, dtype=np.uint32) for h in hyps]
        refs = [np.asarray(r, dtype=np.uint32) for r in refs]
    label(benchmark, "cybleu" if form == "lists" else "cybleu-arrays",
          f"cybleu.ids.sentence_bleu, n_threads={n_threads} ({BACKEND} core, {form})",
          full_pairs=LIST_BATCH)
    got = run(benchmark, lambda: ids.sentence_bleu(hyps, refs, n_threads=n_threads), FAST_ROUNDS)
    want = _sacre_scores(zipf_lists[0][:CHECKED_ROWS], zipf_lists[1][:CHECKED_ROWS])
    assert got[:CHECKED_ROWS].tobytes() == want.tobytes()


def bench_ids_lists_nltk(benchmark, zipf_lists):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    benchmark.group = "ids-lists-256x1024"
    hyps, refs = zipf_lists[0][:NLTK_SLICE], zipf_lists[1][:NLTK_SLICE]
    label(benchmark, "nltk", "nltk sentence_bleu loop, method1 (int lists)", baseline=True,
          pairs=NLTK_SLICE, full_pairs=LIST_BATCH)
    smooth = SmoothingFunction().method1
    run(benchmark, lambda: [sentence_bleu([r], h, smoothing_function=smooth)
                            for h, r in zip(hyps, refs)], SLOW_ROUNDS)


@pytest.fixture(scope="module")
def evaluate_sacrebleu():
    for name in ("HF_HUB_OFFLINE", "HF_EVALUATE_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ.setdefault(name, "1")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluate = pytest.importorskip("evaluate", reason="evaluate is not installed "
                                       "(pip install evaluate datasets)")
        script = Path(EVALUATE_METRICS) / "sacrebleu"
        if not EVALUATE_METRICS or not (script / "sacrebleu.py").exists():
            pytest.skip("set CYBLEU_EVALUATE_METRICS to a folder holding evaluate's "
                        "metrics/sacrebleu/sacrebleu.py")
        return evaluate.load(str(script))


@pytest.mark.parametrize("patched", [False, True], ids=["unpatched", "patched"])
def bench_evaluate_sacrebleu(benchmark, wmt22, evaluate_sacrebleu, patched):
    import cybleu
    benchmark.group = "patched-evaluate-sacrebleu"
    references = [[r] for r in wmt22["ref"]]
    systems = list(wmt22["systems"].values())
    if patched:
        label(benchmark, "cybleu", "evaluate.load('sacrebleu').compute inside cybleu.patched()",
              segments=sum(map(len, systems)))
    else:
        label(benchmark, "sacrebleu", "evaluate.load('sacrebleu').compute (sacreBLEU unpatched)",
              baseline=True, segments=sum(map(len, systems)))

    def score_all():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [evaluate_sacrebleu.compute(predictions=hyps, references=references)
                    for hyps in systems]

    if patched:
        with cybleu.patched():
            got = run(benchmark, score_all, FAST_ROUNDS)
        assert got == score_all()
    else:
        run(benchmark, score_all, SLOW_ROUNDS)


@pytest.mark.parametrize("n_threads", [1, 2])
def bench_sentence_batch_threads(benchmark, wmt22, n_threads):
    import inspect

    import cybleu
    if "n_threads" not in inspect.signature(cybleu.batch_sentence_bleu).parameters:
        pytest.skip("batch_sentence_bleu has no n_threads in this version")
    benchmark.group = "sentence-batch-threads"
    names = list(wmt22["systems"])[:2]
    hyps = [h for name in names for h in wmt22["systems"][name]]
    refs = [wmt22["ref"] * len(names)]
    label(benchmark, "cybleu" if n_threads > 1 else "cybleu-1-thread",
          f"cybleu.batch_sentence_bleu, n_threads={n_threads}", baseline=n_threads == 1,
          full_pairs=len(hyps))
    got = run(benchmark, lambda: cybleu.batch_sentence_bleu(hyps, refs, n_threads=n_threads),
              FAST_ROUNDS)
    assert got.tobytes() == cybleu.batch_sentence_bleu(hyps, refs).tobytes()
