"""groups "ids-sentence-256x1024", "ids-sentence-1024x128" and "ids-pairwise-128x128": token-ID BLEU
for training loops (cybleu.ids) against the peers a training loop would otherwise use.

Workloads (synthetic, seeded; no shared data needed): a batch of random IDs below 32,000, each
reference a copy of its hypothesis with 30% of positions replaced (so every order has matches).
- sentence BLEU of 256 hypotheses x 1024 IDs, and of 1024 x 128, one reference each;
  baseline: nltk `sentence_bleu` (method1) in a loop;
- pairwise BLEU of 128 x 128 sentences of 64 IDs; baseline: a loop of sacrebleu `sentence_score`.
Slow peers are timed on a slice of the batch and scaled to the full batch ("extrapolated").

cybleu must equal sacrebleu bit for bit (checked on a sample of rows, sacrebleu being slow); the
TensorBLEU-style torch baseline must give cybleu's integer statistics exactly and its score to
1e-9 (float order of operations differs).
"""
import numpy as np
import pytest

from conftest import FAST_ROUNDS, SLOW_ROUNDS, label, run

VOCAB = 32000
CHECKED_ROWS = 6


def make_batch(batch, length, seed):
    rng = np.random.default_rng(seed)
    hyps = rng.integers(0, VOCAB, (batch, length), dtype=np.int64).astype(np.uint32)
    refs = hyps.copy()
    mask = rng.random((batch, length)) < 0.3
    refs[mask] = rng.integers(0, VOCAB, int(mask.sum()))
    return hyps, refs


WORKLOADS = {"256x1024": (256, 1024, 64), "1024x128": (1024, 128, 256)}   # slice for nltk


@pytest.fixture(scope="module", params=list(WORKLOADS))
def workload(request):
    batch, length, nltk_slice = WORKLOADS[request.param]
    hyps, refs = make_batch(batch, length, seed=batch)
    return {"name": request.param, "hyps": hyps, "refs": refs, "nltk_slice": nltk_slice,
            "hyp_lists": hyps.tolist(), "ref_lists": refs.tolist()}


def _group(benchmark, workload):
    benchmark.group = f"ids-sentence-{workload['name']}"


def _sacre_scores(hyps, refs):
    from sacrebleu.metrics import BLEU
    bleu = BLEU(tokenize="none", effective_order=True)
    return np.array([bleu.sentence_score(" ".join(map(str, h)), [" ".join(map(str, r))]).score
                     for h, r in zip(hyps, refs)])


@pytest.mark.parametrize("n_threads", [1, 2])
def bench_ids_sentence_cybleu(benchmark, workload, n_threads):
    from cybleu import BACKEND, ids
    _group(benchmark, workload)
    hyps, refs = workload["hyps"], workload["refs"]
    label(benchmark, "cybleu", f"cybleu.ids.sentence_bleu, n_threads={n_threads} "
          f"({BACKEND} core, uint32 arrays)", full_pairs=len(hyps))
    got = run(benchmark, lambda: ids.sentence_bleu(hyps, refs, n_threads=n_threads), FAST_ROUNDS)
    sample = _sacre_scores(workload["hyp_lists"][:CHECKED_ROWS], workload["ref_lists"][:CHECKED_ROWS])
    assert got[:CHECKED_ROWS].tobytes() == sample.tobytes()


def bench_ids_sentence_nltk(benchmark, workload):
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    _group(benchmark, workload)
    n = workload["nltk_slice"]
    hyps, refs = workload["hyp_lists"][:n], workload["ref_lists"][:n]
    label(benchmark, "nltk", "nltk sentence_bleu loop, method1 (int lists)", baseline=True,
          pairs=n, full_pairs=len(workload["hyp_lists"]))
    smooth = SmoothingFunction().method1
    run(benchmark, lambda: [sentence_bleu([r], h, smoothing_function=smooth)
                            for h, r in zip(hyps, refs)], SLOW_ROUNDS)


def bench_ids_sentence_fastbleu(benchmark, workload):
    fast_bleu = pytest.importorskip("fast_bleu")
    _group(benchmark, workload)
    n = 16
    hyps, refs = workload["hyp_lists"][:n], workload["ref_lists"][:n]
    label(benchmark, "fast-bleu", "fast-bleu BLEU([ref]).get_score([hyp]) per pair (method1)",
          pairs=n, full_pairs=len(workload["hyp_lists"]))
    run(benchmark, lambda: [fast_bleu.BLEU([r]).get_score([h]) for h, r in zip(hyps, refs)],
        SLOW_ROUNDS)


def bench_ids_sentence_torchmetrics(benchmark, workload):
    pytest.importorskip("torch")
    tm = pytest.importorskip("torchmetrics.functional.text")
    _group(benchmark, workload)
    n = 16
    hyps = [" ".join(map(str, h)) for h in workload["hyp_lists"][:n]]
    refs = [" ".join(map(str, r)) for r in workload["ref_lists"][:n]]
    label(benchmark, "torchmetrics", "torchmetrics bleu_score per pair (joined IDs)",
          pairs=n, full_pairs=len(workload["hyp_lists"]))
    run(benchmark, lambda: [tm.bleu_score([h], [[r]]) for h, r in zip(hyps, refs)], SLOW_ROUNDS)


def tensorbleu_counts(torch, hyp, ref, max_order=4):
    """TensorBLEU's counting on CPU tensors (B, L) without padding: per order, one compact
    dictionary of the batch's n-grams (torch.unique), then per-sentence counts keyed on
    (sentence, n-gram) and clipped with minimum. TensorBLEU's dense offset bincount builds
    (B, unique n-grams) matrices: over 3 GB at 256 x 1024, so the counts here are sparse
    (unique keys + searchsorted), the same arithmetic in O(B * L) memory; and n-grams are packed
    into one int64 each (IDs below 2**15), because torch.unique(dim=0) is very slow on CPU. Returns int64
    (B, max_order) correct and total counts."""
    batch = hyp.shape[0]
    correct = torch.zeros((batch, max_order), dtype=torch.int64)
    total = torch.zeros((batch, max_order), dtype=torch.int64)
    for n in range(1, max_order + 1):
        h = hyp.unfold(1, n, 1)
        r = ref.unfold(1, n, 1)
        lh, lr = h.shape[1], r.shape[1]
        # torch.unique(dim=0) on CPU takes ~20 s here; IDs below 2**15 pack 4 to an int64
        grams = torch.cat([h.reshape(-1, n), r.reshape(-1, n)])
        packed = (grams << (15 * torch.arange(n))).sum(1)
        uniq, inv = torch.unique(packed, return_inverse=True)
        size = uniq.shape[0]
        hkeys = inv[:batch * lh].view(batch, lh) + torch.arange(batch).unsqueeze(1) * size
        rkeys = inv[batch * lh:].view(batch, lr) + torch.arange(batch).unsqueeze(1) * size
        hk, hc = torch.unique(hkeys.flatten(), return_counts=True)
        rk, rc = torch.unique(rkeys.flatten(), return_counts=True)
        at = torch.searchsorted(rk, hk).clamp(max=rk.shape[0] - 1)
        clipped = torch.where(rk[at] == hk, torch.minimum(hc, rc[at]), torch.zeros_like(hc))
        correct[:, n - 1] = torch.bincount(hk // size, weights=clipped.double(),
                                           minlength=batch).long()
        total[:, n - 1] = lh
    return correct, total


def tensorbleu_scores(torch, hyp, ref, max_order=4):
    """Sentence BLEU with sacrebleu's exp smoothing, vectorized in float64."""
    assert int(hyp.max()) < 2**15 and int(ref.max()) < 2**15
    correct, total = tensorbleu_counts(torch, hyp, ref, max_order)
    c, t = correct.double(), total.double()
    zeros = torch.cumsum((correct == 0).long(), dim=1)
    prec = torch.where(correct > 0, 100.0 * c / t, 100.0 / (2.0 ** zeros * t))
    hyp_len, ref_len = hyp.shape[1], ref.shape[1]
    bp = 1.0 if hyp_len >= ref_len else float(np.exp(1 - ref_len / hyp_len))
    return bp * torch.exp(torch.log(prec).mean(1)), correct, total


def bench_ids_sentence_tensorbleu_cpu(benchmark, workload):
    torch = pytest.importorskip("torch")
    from cybleu import ids
    _group(benchmark, workload)
    hyp = torch.from_numpy(workload["hyps"].astype(np.int64))
    ref = torch.from_numpy(workload["refs"].astype(np.int64))
    label(benchmark, "tensorbleu-cpu", f"TensorBLEU-style vectorized torch on CPU "
          f"(unique + bincount, {torch.get_num_threads()} torch threads)",
          full_pairs=hyp.shape[0])
    scores, correct, total = run(benchmark, lambda: tensorbleu_scores(torch, hyp, ref), SLOW_ROUNDS)
    stats = ids.segment_stats(workload["hyps"], workload["refs"])
    assert np.array_equal(correct.numpy(), stats[:, 2:6])
    assert np.array_equal(total.numpy(), stats[:, 6:10])
    assert np.allclose(scores.numpy(), ids.sentence_bleu(workload["hyps"], workload["refs"]),
                       rtol=0, atol=1e-9)


PAIR_N, PAIR_LEN, PAIR_SLICE = 128, 64, 8


@pytest.fixture(scope="module")
def pair_batch():
    hyps, refs = make_batch(PAIR_N, PAIR_LEN, seed=11)
    return hyps, refs


@pytest.mark.parametrize("n_threads", [1, 2])
def bench_ids_pairwise_cybleu(benchmark, pair_batch, n_threads):
    from cybleu import BACKEND, ids
    benchmark.group = "ids-pairwise-128x128"
    hyps, refs = pair_batch
    label(benchmark, "cybleu", f"cybleu.ids.pairwise_bleu, n_threads={n_threads} ({BACKEND} core)",
          full_pairs=PAIR_N * PAIR_N)
    got = run(benchmark, lambda: ids.pairwise_bleu(hyps, refs, n_threads=n_threads), FAST_ROUNDS)
    want = _sacre_scores([hyps[0].tolist()] * PAIR_N, refs.tolist())
    assert got[0].tobytes() == want.tobytes()


def bench_ids_pairwise_sacrebleu(benchmark, pair_batch):
    from sacrebleu.metrics import BLEU
    benchmark.group = "ids-pairwise-128x128"
    hyps, refs = pair_batch
    hyp_str = [" ".join(map(str, h)) for h in hyps[:PAIR_SLICE].tolist()]
    ref_str = [" ".join(map(str, r)) for r in refs.tolist()]
    bleu = BLEU(tokenize="none", effective_order=True)
    label(benchmark, "sacrebleu", "sacrebleu BLEU(tokenize='none').sentence_score loop",
          baseline=True, pairs=PAIR_SLICE * PAIR_N, full_pairs=PAIR_N * PAIR_N)
    run(benchmark, lambda: [[bleu.sentence_score(h, [r]).score for r in ref_str]
                            for h in hyp_str], SLOW_ROUNDS)
