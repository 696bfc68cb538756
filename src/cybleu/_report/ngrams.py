"""BLEU's n-grams for the report: which hypothesis tokens match the references, which n-grams
each system matches how often, and word F-measure by reference frequency.

Tokens are BLEU's (the metric's `_preprocess_segment`: lowercasing and tokenizer as configured);
clipping is BLEU's (a hypothesis n-gram matches at most as often as it occurs in the reference
of the segment that has most of it). Everything is counted with numpy over the whole corpus at
once, and `check_against_bleu` holds the per-segment sums to BLEU's own segment statistics, so
these views cannot disagree with the scores.

How n-grams are named without hashing: an n-gram is (its (n-1)-gram prefix, its last token). Only
n-grams that occur in a reference can match, and every prefix of a reference n-gram is itself a
reference (n-1)-gram, so an n-gram is keyed as `index of its prefix among the reference
(n-1)-grams * vocabulary size + last token`: exact, and small.
"""
from itertools import repeat

from .. import _backend

__all__ = ["analyse", "check_against_bleu", "pair_tables", "word_f_buckets", "TOP_K"]

#: n-grams listed per pair of systems, order and direction
TOP_K = 20
#: the smoothing of the ranking's ratio (compare-mt's default: Laplace)
ALPHA = 1.0
#: whose tokens the n-gram views show when no metric of the report offers its own
DEFAULT_LABEL = "BLEU"


class ReportDataError(RuntimeError):
    """The n-gram counts disagree with BLEU's statistics (a bug, never bad input)."""


def _unique(a):
    """The sorted distinct values of an int64 array (np.sort and a mask: numpy 2.4's np.unique
    hashes first, and takes seconds where sorting takes milliseconds)."""
    import numpy as np
    s = np.sort(a)
    if s.size < 2:
        return s
    keep = np.empty(s.size, dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def _tokens(metric, lines):
    """BLEU's tokens of each line, joined by single spaces (None lines: empty)."""
    from ..metrics.bleu import BLEU, _core_mode
    mode = _core_mode(metric.tokenizer)
    if mode is not None and type(metric)._preprocess_segment is BLEU._preprocess_segment \
            and "_preprocess_segment" not in metric.__dict__:
        # what the core counts: its tokenizer on the lowercased, right-stripped line
        tokenize = _backend.core.tokenize
        if metric.lowercase:
            return [tokenize(line.lower().rstrip(), mode) if line is not None else ""
                    for line in lines]
        return [tokenize(line.rstrip(), mode) if line is not None else "" for line in lines]
    pre = metric._preprocess_segment
    # tokenizers outside the core may leave runs of whitespace; BLEU splits on any
    return [" ".join(pre(line).split()) if line is not None else "" for line in lines]


def analyse(references, hyps, metric=None):
    """Token marks, n-gram match counts and reference lengths for the systems `hyps` (lists of
    lines) against `references` (streams). `metric` is the report's BLEU (its tokenization),
    or None for BLEU's defaults."""
    import numpy as np
    if metric is None:
        from ..metrics import BLEU
        metric = BLEU()
    max_order = metric.max_ngram_order
    n_seg = len(references[0])
    n_refs = len(references)
    n_sys = len(hyps)
    ref_tok = [_tokens(metric, stream) for stream in references]
    hyp_tok = [_tokens(metric, h) for h in hyps]
    docs = ref_tok + hyp_tok                      # doc d: refs 0..n_refs-1, then systems
    n_docs = len(docs)
    flat_lines = [t for doc in docs for t in doc]
    spaces = np.fromiter(map(str.count, flat_lines, repeat(" ")), dtype=np.int64,
                         count=len(flat_lines))
    lens = spaces + np.fromiter(map(bool, flat_lines), dtype=np.int64, count=len(flat_lines))
    n_ref_lines = n_refs * n_seg
    ref_words = " ".join(t for t in flat_lines[:n_ref_lines] if t).split(" ") \
        if lens[:n_ref_lines].sum() else []
    # only words of the references can match: the others are -1
    vocab_list = list(dict.fromkeys(ref_words))
    vocab = {w: i for i, w in enumerate(vocab_list)}
    n_ref_tokens = len(ref_words)
    hyp_words = " ".join(t for t in flat_lines[n_ref_lines:] if t).split(" ") \
        if lens[n_ref_lines:].sum() else []
    ids = np.empty(n_ref_tokens + len(hyp_words), dtype=np.int64)
    ids[:n_ref_tokens] = np.fromiter(map(vocab.__getitem__, ref_words), dtype=np.int64,
                                     count=n_ref_tokens)
    ids[n_ref_tokens:] = np.fromiter(map(vocab.get, hyp_words, repeat(-1)), dtype=np.int64,
                                     count=len(hyp_words))
    del ref_words, hyp_words
    V = max(len(vocab_list), 1)
    L = ids.size
    # per token: its line (doc * n_seg + segment), segment and document, repeated per line
    line_of = np.repeat(np.arange(lens.size, dtype=np.int32), lens)
    seg_of = np.repeat(np.tile(np.arange(n_seg, dtype=np.int64), n_docs), lens)
    doc_of = np.repeat(np.repeat(np.arange(n_docs, dtype=np.int32), n_seg), lens)
    is_ref = np.zeros(L, dtype=bool)
    is_ref[:n_ref_tokens] = True                  # the references' tokens come first
    sys_of = doc_of - n_refs                      # system index of hypothesis tokens

    # the first reference's length (tokens) of each segment (the first present reference)
    ref_len = np.zeros(n_seg, dtype=np.int64)
    have = np.zeros(n_seg, dtype=bool)
    for k in range(n_refs):
        seg_lens = lens[k * n_seg:(k + 1) * n_seg]
        present = np.array([line is not None for line in references[k]], dtype=bool)
        take = present & ~have
        ref_len[take] = seg_lens[take]
        have |= present

    marks = np.zeros(L, dtype=np.int8)
    word_present = np.zeros(L, dtype=bool)        # the token is a word of its segment's refs
    orders = []
    seg_clipped = np.zeros((max_order, n_sys, n_seg), dtype=np.int64)
    prefix = None            # per position: index of its (n-1)-gram among the segment grams
    prefix_ok = None
    seg_of_gram = gid_prev = None
    for n in range(1, max_order + 1):
        if n == 1:
            pos = np.flatnonzero(ids >= 0)
            keys = seg_of[pos] * V + ids[pos]
        else:
            valid = np.zeros(L, dtype=bool)
            if L >= n:
                valid[:L - n + 1] = (prefix_ok[:L - n + 1] & word_present[n - 1:]
                                     & (line_of[:L - n + 1] == line_of[n - 1:]))
            pos = np.flatnonzero(valid)
            keys = prefix[pos] * V + ids[pos + n - 1]
        ref_pos = is_ref[pos]
        # (segment, n-gram) pairs of the references: an n-gram of a segment matches only these
        seg_grams = _unique(keys[ref_pos])
        S = seg_grams.size
        if S:
            r = np.searchsorted(seg_grams, keys)
            r[r >= S] = 0
            present = seg_grams[r] == keys
        else:
            r = np.zeros(keys.size, dtype=np.int64)
            present = np.zeros(keys.size, dtype=bool)
        pos, r = pos[present], r[present]
        prefix = np.zeros(L, dtype=np.int64)
        prefix[pos] = r
        prefix_ok = np.zeros(L, dtype=bool)
        prefix_ok[pos] = True
        if n == 1:
            word_present = prefix_ok.copy()
            seg_of_gram = seg_grams // V
            gram_keys = seg_grams % V              # the word
        else:
            seg_of_gram = seg_of_gram[seg_grams // V]
            gram_keys = gid_prev[seg_grams // V] * V + seg_grams % V
        # the n-grams across the corpus: (global id of the prefix, last word) -> dense id
        grams = _unique(gram_keys)
        gid = np.searchsorted(grams, gram_keys)
        G = grams.size
        # clipping ceiling of each (segment, n-gram): its largest count in one reference
        ref_sel = is_ref[pos]
        per_stream = np.bincount(doc_of[pos[ref_sel]].astype(np.int64) * S + r[ref_sel],
                                 minlength=n_refs * S).reshape(n_refs, S)
        ceiling = per_stream.max(axis=0) if S else np.zeros(0, dtype=np.int64)
        hyp_pos, hyp_r = pos[~ref_sel], r[~ref_sel]
        counts = np.bincount(sys_of[hyp_pos].astype(np.int64) * S + hyp_r,
                             minlength=n_sys * S).reshape(n_sys, S)
        clipped = np.minimum(counts, ceiling)
        # the longest reference n-gram a token is part of
        mark = np.zeros(L, dtype=np.int8)
        mark[hyp_pos] = n
        for j in range(n):
            np.maximum(marks[j:], mark[:L - j], out=marks[j:])
        matches = np.zeros((n_sys, G), dtype=np.int64)
        for s_ in range(n_sys):
            seg_clipped[n - 1][s_] = np.bincount(seg_of_gram, weights=clipped[s_],
                                                 minlength=n_seg)
            matches[s_] = np.bincount(gid, weights=clipped[s_], minlength=G)
        ref_total = np.bincount(gid, weights=ceiling, minlength=G).astype(np.int64)
        # per (segment, n-gram) of the references: its segment, its n-gram and each system's
        # clipped matches there (which segments make two systems' matches of an n-gram differ)
        orders.append({"grams": grams, "matches": matches, "ref_total": ref_total,
                       "pair_segment": seg_of_gram, "pair_gram": gid,
                       "pair_clipped": clipped.astype(np.int32)})
        gid_prev = gid

    # per system, the tokens of each segment and a digit (0-max_order) per token
    tokens, mark_strings = [], []
    hyp_line_lens = lens[n_refs * n_seg:].reshape(n_sys, n_seg) if n_sys else lens[:0]
    start = int(lens[:n_refs * n_seg].sum())
    for s in range(n_sys):
        seg_lens = hyp_line_lens[s]
        end = start + int(seg_lens.sum())
        digits = (marks[start:end] + 48).astype(np.uint8).tobytes().decode("ascii")
        offsets = np.concatenate(([0], np.cumsum(seg_lens))).tolist()
        mark_strings.append([digits[offsets[i]:offsets[i + 1]] for i in range(n_seg)])
        tokens.append(hyp_tok[s])
        start = end

    # unigram frequencies for the word F-measure buckets (index V: words not in the references)
    ref_freq = np.bincount(ids[:n_ref_tokens], minlength=V)
    hyp_ids = np.where(ids[n_ref_tokens:] >= 0, ids[n_ref_tokens:], V)
    hyp_sys_tok = sys_of[n_ref_tokens:].astype(np.int64)
    hyp_words = np.bincount(hyp_sys_tok * (V + 1) + hyp_ids,
                            minlength=n_sys * (V + 1)).reshape(n_sys, V + 1)
    return {"max_order": max_order, "n_seg": n_seg, "vocab": vocab_list, "V": V,
            "orders": orders, "seg_clipped": seg_clipped, "hyp_lens": hyp_line_lens,
            "tokens": tokens, "marks": mark_strings, "ref_len": ref_len,
            "ref_freq": ref_freq, "hyp_words": hyp_words, "n_docs": n_docs}


def check_against_bleu(grams, bleu_rows):
    """Raise ReportDataError unless, for every system and segment, the clipped matches and the
    n-gram totals counted here are BLEU's own statistics (rows [hyp_len, ref_len, correct_1..N,
    total_1..N])."""
    import numpy as np
    N = grams["max_order"]
    for s, rows in enumerate(bleu_rows):
        if rows.shape[1] != 2 + 2 * N:
            return
        if not np.array_equal(rows[:, 0], grams["hyp_lens"][s]):
            raise ReportDataError(f"system {s}: token counts differ from BLEU's hyp_len")
        for n in range(1, N + 1):
            if not np.array_equal(rows[:, 1 + n], grams["seg_clipped"][n - 1][s]):
                raise ReportDataError(f"system {s}: clipped {n}-gram matches differ from BLEU's")
            totals = np.maximum(grams["hyp_lens"][s] - n + 1, 0)
            if not np.array_equal(rows[:, 1 + N + n], totals):
                raise ReportDataError(f"system {s}: {n}-gram totals differ from BLEU's")


def _gram_text(grams, order, index):
    """The tokens of reference n-gram `index` of `order` (1-based), joined by spaces."""
    V = grams["V"]
    parts = []
    while order >= 1:
        key = int(grams["orders"][order - 1]["grams"][index])
        if order == 1:
            parts.append(grams["vocab"][key])
            break
        parts.append(grams["vocab"][key % V])
        index = key // V
        order -= 1
    return " ".join(reversed(parts))


def _ranked(sel, num, ma, mb, alpha):
    """The positions `sel` ordered as compare-mt ranks salient n-grams: by the smoothed ratio
    (num + alpha) / (ma + mb + 2 alpha), highest first; then the larger change; then `sel`'s
    own order. Returns (order into sel, scores)."""
    import numpy as np
    score = (num[sel] + alpha) / (ma[sel] + mb[sel] + 2 * alpha)
    change = np.abs(mb[sel] - ma[sel])
    return np.lexsort((sel, -change, -score)), score


def pair_tables(grams, names, top_k=TOP_K, alpha=ALPHA):
    """For every pair of systems (a < b), the reference n-grams B matches more often than A
    ("improved") and less often ("worsened"), ranked as compare-mt's n-gram difference analysis
    ranks them: by the smoothed ratio (m_B + alpha) / (m_A + m_B + 2 alpha) (for "worsened",
    m_A's), m being an n-gram's clipped matches over the corpus; then by the larger change;
    then in the order of the n-grams' keys. The top `top_k` of all orders together, then of each
    order.

    Returns {"grams": [[text, order, reference count], ...], "pairs": {"a,b": [[improved,
    worsened] for all orders, then order 1..N]}, "segments": uint array, "top_k", "alpha"}, an
    entry being [gram index, clipped matches of a, of b, offset, count]: `segments[offset:
    offset + count]` are the segments (ascending) where a's and b's clipped matches of the
    n-gram differ. The reference count is the sum over segments of the n-gram's clipping
    ceiling (its largest count in one reference)."""
    import numpy as np
    table, where = [], {}
    n_sys = len(names)
    seg_chunks, seg_where = [], {}
    n_segs_total = [0]
    pairs = {}

    def gram_index(order, r):
        key = (order, r)
        if key not in where:
            where[key] = len(table)
            table.append([_gram_text(grams, order, r), order,
                          int(grams["orders"][order - 1]["ref_total"][r])])
        return where[key]

    # per order: the (segment, n-gram) pairs of each n-gram, found by sorting once
    by_gram = []
    for o in grams["orders"]:
        index = np.argsort(o["pair_gram"], kind="stable")
        starts = np.searchsorted(o["pair_gram"][index], np.arange(o["grams"].size + 1))
        by_gram.append((index, starts))

    def segments(a, b, order, r):
        key = (a, b, order, r)
        if key not in seg_where:
            o = grams["orders"][order - 1]
            index, starts = by_gram[order - 1]
            at = index[starts[r]:starts[r + 1]]
            clipped = o["pair_clipped"]
            segs = o["pair_segment"][at][clipped[a, at] != clipped[b, at]]
            seg_where[key] = (n_segs_total[0], int(segs.size))
            seg_chunks.append(segs)
            n_segs_total[0] += int(segs.size)
        return seg_where[key]

    for a in range(n_sys):
        for b in range(a + 1, n_sys):
            lists = []
            merged = [[], []]          # candidates of all orders: (score, change, n, r, ma, mb)
            for n, o in enumerate(grams["orders"], start=1):
                m = o["matches"]
                ma, mb = m[a], m[b]
                per_dir = []
                for d, num in enumerate((mb, ma)):
                    sel = np.flatnonzero(mb > ma) if d == 0 else np.flatnonzero(ma > mb)
                    rank, score = _ranked(sel, num, ma, mb, alpha)
                    top = rank[:top_k]
                    chosen = sel[top].tolist()
                    per_dir.append([(float(score[t]), n, r, int(ma[r]), int(mb[r]))
                                    for t, r in zip(top.tolist(), chosen)])
                    merged[d] += per_dir[-1]
                lists.append(per_dir)
            out = []
            for d in range(2):
                # all orders: the same ranking over the orders' own top lists (a top entry of
                # all orders is a top entry of its order)
                merged[d].sort(key=lambda e: (-e[0], -abs(e[4] - e[3]), e[1], e[2]))
            for per_dir in [merged] + lists:
                out.append([[[gram_index(n, r), ma, mb, *segments(a, b, n, r)]
                             for _, n, r, ma, mb in entries[:top_k]] for entries in per_dir])
            pairs[f"{a},{b}"] = out
    seg_all = np.concatenate(seg_chunks) if seg_chunks else np.zeros(0, dtype=np.int64)
    n_seg = grams["n_seg"]
    seg_all = seg_all.astype(np.uint16 if n_seg <= 65536 else np.uint32)
    return {"grams": table, "pairs": pairs, "segments": seg_all, "top_k": top_k,
            "alpha": alpha}


def word_f_buckets(grams, names, edges):
    """compare-mt's word accuracy by frequency: words bucketed by their count in the references
    (edges as numpy.searchsorted's right side: 0, 1, 2, 3, 4, 5-9, 10-99, 100-999, 1000+);
    per system and bucket the hypothesis words, reference words (clipping ceilings), clipped
    matches, precision, recall and F-measure (in %)."""
    import numpy as np
    uni = grams["orders"][0]
    ref_words = uni["grams"]                       # word ids present in the references
    freq = np.append(grams["ref_freq"], 0)        # the last: words not in the references
    n_buckets = len(edges) + 1
    word_bucket = np.searchsorted(np.asarray(edges), freq, side="right")  # per word id
    ref_bucket = word_bucket[ref_words] if ref_words.size else np.zeros(0, dtype=np.int64)
    ref_count = np.bincount(ref_bucket, weights=uni["ref_total"], minlength=n_buckets)
    out = []
    for s in range(len(names)):
        hyp = np.bincount(word_bucket, weights=grams["hyp_words"][s], minlength=n_buckets)
        match = np.bincount(ref_bucket, weights=uni["matches"][s], minlength=n_buckets)
        rows = []
        for b in range(n_buckets):
            h, r, m = int(hyp[b]), int(ref_count[b]), int(match[b])
            p = 100.0 * m / h if h else None
            rc = 100.0 * m / r if r else None
            f = None
            if p is not None and rc is not None:
                f = 2 * p * rc / (p + rc) if p + rc else 0.0
            rows.append({"hyp": h, "ref": r, "match": m, "precision": p, "recall": rc, "f": f})
        out.append(rows)
    labels = []
    lo = 0
    for e in edges:
        labels.append(str(lo) if e == lo + 1 else f"{lo}\u2013{e - 1}")
        lo = e
    labels.append(f"\u2265{lo}")
    return {"labels": labels, "systems": out}
