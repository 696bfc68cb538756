"""ROUGE where every metric goes, through the metric protocol: the scoring command line (one line
per type, its flags and signature, sentence level, intervals, paired tests), cybleu.significance,
best_of and `cybleu best-of`, and the report. Every number is rouge-score 0.1.2's: a segment's F
(x 100) bit for bit, a corpus mean math.fsum(F) / n, and a resample's mean math.fsum over the
same indices as sacreBLEU's draws (a plain-numpy reference written here)."""
import json
import math
import statistics
import subprocess
import sys

import numpy as np
import pytest

from conftest import bits
from rouge_data import english_lines

import cybleu
import cybleu.metrics
from cybleu import significance

theirs = pytest.importorskip("rouge_score.rouge_scorer", reason="rouge-score (the oracle) is not "
                             "installed: pip install rouge-score==0.1.2")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
N = 240


@pytest.fixture(scope="module")
def corpus():
    ref, hyp, other = english_lines()
    refs, base, system = ref[:N], hyp[:N], other[:N]
    base[5] = ""                                   # an empty hypothesis scores 0
    system[7] = "Das ist ein Satz über Straße."   # text rouge-score drops but for ASCII words
    return refs, base, system


def type_name(t):
    return {"rouge2": "ROUGE-2", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum"}[t]


def oracle(hyps, refs, rouge_type, **kw):
    """rouge-score's (precision, recall, F) of each segment."""
    scorer = theirs.RougeScorer([rouge_type], **kw)
    return [tuple(scorer.score(r, h)[rouge_type]) for h, r in zip(hyps, refs)]


def f_of(hyps, refs, rouge_type, **kw):
    return [s[2] for s in oracle(hyps, refs, rouge_type, **kw)]


def mean_score(values):
    """The corpus score of a segment mean: 100 x math.fsum(values) / n."""
    return 100 * (math.fsum(values) / len(values))


def numpy_bootstrap(base, system, n_samples, seed):
    """Paired bootstrap of ROUGE's means, the plain way: sacreBLEU's draws, each resample's score
    100 x math.fsum / n, sacreBLEU's statistic with ties counted (segment means), its interval."""
    base, system = np.asarray(base), np.asarray(system)
    n = len(base)
    idx = np.random.default_rng(seed).choice(n, size=(n_samples, n), replace=True)
    bl = np.array([mean_score(base[i]) for i in idx])
    sy = np.array([mean_score(system[i]) for i in idx])
    observed = abs(mean_score(base) - mean_score(system))
    diffs = np.abs(sy - bl)
    count = int(np.sum(diffs - diffs.mean() >= observed))
    data = np.sort(sy)
    lower = n_samples // 40
    return ((count + 1) / (n_samples + 1), data.mean(),
            0.5 * (data[n_samples - lower - 1] - data[lower]))


def numpy_randomization(base, system, n_trials, seed):
    base, system = np.asarray(base), np.asarray(system)
    swap = np.random.default_rng(seed).integers(2, size=(n_trials, len(base)), dtype=bool)
    observed = abs(mean_score(base) - mean_score(system))
    count = sum(1 for s in swap if abs(mean_score(np.where(s, base, system))
                                       - mean_score(np.where(s, system, base))) >= observed)
    return (count + 1) / (n_trials + 1)


def _write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def _cli(args, cwd):
    done = subprocess.run([sys.executable, "-m", "cybleu", *args], capture_output=True,
                          text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def files(corpus, tmp_path_factory):
    root = tmp_path_factory.mktemp("rouge_cli")
    refs, base, system = corpus
    return (root, _write(root / "ref.txt", refs), _write(root / "base.txt", base),
            _write(root / "system.txt", system))


# -- the registry and the metric ------------------------------------------------------------------

def test_each_type_is_a_registered_name():
    for t in ("rouge1", "rouge9", "rougeL", "rougeLsum"):
        metric = cybleu.metrics.make(t)
        assert metric.rouge_types == [t] and metric.aggregation == "mean"
        assert t in cybleu.metrics.choices()
    assert cybleu.metrics.make("rougeL", use_stemmer=True).use_stemmer


@pytest.mark.parametrize("rouge_type", TYPES)
@pytest.mark.parametrize("stem", [False, True])
def test_segment_and_corpus_scores_are_rouge_scores(corpus, rouge_type, stem):
    refs, base, _ = corpus
    want = oracle(base, refs, rouge_type, use_stemmer=stem)
    metric = cybleu.metrics.make(rouge_type, use_stemmer=stem)
    got = metric.sentence_scores(base, [refs]).tolist()
    assert [bits(g) for g in got] == [bits(100 * w[2]) for w in want]
    score = metric.corpus_score(base, [refs])
    p, r, f = score.types[rouge_type]
    assert (bits(p), bits(r), bits(f)) == tuple(
        bits(math.fsum(w[k] for w in want) / N) for k in range(3))
    assert bits(score.score) == bits(mean_score([w[2] for w in want]))
    assert score.name == {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L",
                          "rougeLsum": "ROUGE-Lsum"}[rouge_type]


def test_the_unicode_tokenizer_keeps_other_scripts():
    metric = cybleu.metrics.make("rouge1", tokenizer="unicode")
    hyp, ref = "Crème brûlée", "crème fraîche"
    assert metric.sentence_score(hyp, [ref]).types["rouge1"] == (0.5, 0.5, 0.5)
    ascii_only = cybleu.metrics.make("rouge1").sentence_score(hyp, [ref]).types["rouge1"]
    assert ascii_only == tuple(theirs.RougeScorer(["rouge1"]).score(ref, hyp)["rouge1"])
    assert ascii_only != (0.5, 0.5, 0.5)
    with pytest.raises(ValueError, match="unknown tokenizer 'spaces'"):
        cybleu.metrics.make("rouge1", tokenizer="spaces")


# -- the scoring command line ---------------------------------------------------------------------

def test_command_line_prints_a_line_per_type(corpus, files):
    refs, base, _ = corpus
    root, ref, hyp, _ = files
    out = _cli([ref, "-i", hyp, "-m", *TYPES, "-f", "text", "-w", "17", "--rouge-stemmer"],
               root).splitlines()
    assert len(out) == len(TYPES)
    for line, t in zip(out, TYPES):
        want = oracle(base, refs, t, use_stemmer=True)
        name, rest = line.strip().split("|", 1)
        signature, value = rest.split(" = ", 1)
        assert name == cybleu.metrics.make(t).corpus_score(["a"], [["a"]]).name
        assert signature == f"nrefs:1|types:{t}|stem:yes|split:lines|tok:rouge-score|" \
                            f"version:cybleu-{cybleu.__version__}"
        f = mean_score([w[2] for w in want])
        p, r = (100 * (math.fsum(w[k] for w in want) / N) for k in (0, 1))
        assert value == f"{f:.17f} (P = {p:.2f} R = {r:.2f})"
    doc = json.loads(_cli([ref, "-i", hyp, "-m", "rougeL", "-w", "17"], root))
    want = oracle(base, refs, "rougeL")
    assert doc["name"] == "ROUGE-L" and doc["stem"] == "no" and doc["tok"] == "rouge-score"
    assert doc["score"] == float(f"{mean_score([w[2] for w in want]):.17f}")
    assert doc["precision"] == float(f"{100 * (math.fsum(w[0] for w in want) / N):.17f}")


def test_command_line_sentence_level_and_interval(corpus, files):
    refs, base, _ = corpus
    root, ref, hyp, _ = files
    out = _cli([ref, "-i", hyp, "-m", "rouge2", "-sl", "-b", "-w", "17"], root).splitlines()
    assert out == [f"{100 * f:.17f}" for f in f_of(base, refs, "rouge2")]
    doc = json.loads(_cli([ref, "-i", hyp, "-m", "rouge1", "-ci", "-cin", "200", "-w", "17"],
                          root))
    metric = cybleu.metrics.make("rouge1")
    values = f_of(base, refs, "rouge1")
    idx = np.random.default_rng(12345).choice(N, size=(200, N), replace=True)
    data = np.sort([mean_score(np.asarray(values)[i]) for i in idx])
    assert doc["confidence_mean"] == float(f"{statistics.mean(data.tolist()):.17f}")
    assert doc["confidence_var"] == float(f"{0.5 * (data[200 - 5 - 1] - data[5]):.17f}")
    assert doc["signature"].startswith("nrefs:1|bs:200|seed:12345|types:rouge1|")
    assert doc["score"] == float(f"{metric.corpus_score(base, [refs]).score:.17f}")


@pytest.mark.parametrize("test", ["-pbs", "-par"])
def test_command_line_paired_tests(corpus, files, test):
    refs, base, system = corpus
    root, ref, hyp, other = files
    n = "-pbsn" if test == "-pbs" else "-parn"
    got = json.loads(_cli([ref, "-i", hyp, other, "-m", "rougeL", test, n, "150"], root))
    b, s = f_of(base, refs, "rougeL"), f_of(system, refs, "rougeL")
    want = numpy_bootstrap(b, s, 150, 12345)[0] if test == "-pbs" \
        else numpy_randomization(b, s, 150, 12345)
    assert got[0]["ROUGE-L"]["score"] == mean_score(b)
    assert got[1]["ROUGE-L"]["score"] == mean_score(s)
    assert got[1]["ROUGE-L"]["p_value"] == want


def _refused(args, cwd):
    done = subprocess.run([sys.executable, "-m", "cybleu", *args], capture_output=True,
                          text=True, cwd=cwd)
    assert done.returncode != 0 and not done.stdout, (done.stdout, done.stderr)
    return done.stderr


ROUGE_NAMES = "rouge, rouge1, rouge2, rouge3, rouge4, rouge5, rouge6, rouge7, rouge8, rouge9, " \
    "rougeL, rougeLsum"


@pytest.mark.parametrize("flag", [["--rouge-stemmer"], ["--rouge-split-summaries"],
                                  ["--rouge-tokenize", "rouge-score"],
                                  ["--rouge-tokenize=unicode"]])
def test_rouge_options_without_a_rouge_metric_are_refused_by_name(files, flag):
    root, ref, hyp, _ = files
    err = _refused([ref, "-i", hyp, "-m", "bleu", "chrf", *flag], root)
    assert f"{flag[0].split('=')[0]} is ROUGE's option: name a ROUGE metric with -m " \
           f"({ROUGE_NAMES})" in err
    for command in (["best-of", "-k", "1"], ["filter", "--min", "0", "--scores", "s.txt"]):
        err = _refused([*command, "-r", ref, "-i", hyp, *flag], root)
        assert f"{flag[0].split('=')[0]} is ROUGE's option (-m {ROUGE_NAMES}), not bleu's" in err
        assert not (root / "s.txt").exists()


@pytest.mark.parametrize("metrics, flag, owner, takers", [
    (["bleu"], ["--rouge-stemmer"], "ROUGE", ROUGE_NAMES),
    (["chrf"], ["-tok", "zh"], "BLEU", "bleu"),
    (["bleu", "chrf"], ["--ter-case-sensitive"], "TER", "ter")])
def test_report_refuses_an_option_of_a_metric_it_does_not_compute(files, metrics, flag, owner,
                                                                    takers):
    root, ref, hyp, other = files
    err = _refused(["report", ref, "-i", hyp, other, "-m", *metrics, *flag, "-o", "r.html"], root)
    assert f"is {owner}'s option (-m {takers}), and the report computes " \
           f"{', '.join(metrics)}" in err
    assert not (root / "r.html").exists()


def test_rouge_options_reach_the_multi_type_metric(corpus, files):
    # `-m rouge`: the name is also the prefix of --rouge-stemmer, which is ROUGE's own option
    refs, base, _ = corpus
    root, ref, hyp, _ = files
    doc = json.loads(_cli([ref, "-i", hyp, "-m", "rouge", "--rouge-stemmer", "-w", "17"], root))
    assert doc["stem"] == "yes"
    assert doc["score"] == float(f"{mean_score(f_of(base, refs, 'rouge1', use_stemmer=True)):.17f}")


def test_metric_choices_are_spelled_as_registered(files):
    root, ref, hyp, _ = files
    for command in ([], ["best-of"], ["filter"], ["report"]):
        done = subprocess.run([sys.executable, "-m", "cybleu", *command, "--help"],
                              capture_output=True, text=True, cwd=root)
        assert done.returncode == 0, done.stderr
        assert ",rougeL,rougeLsum}" in done.stdout and "rougel" not in done.stdout
    # other tests may have registered names of their own: look for these, not at the end
    names = cybleu.metrics.names()
    assert "rougeL" in names and "rougeLsum" in names and "rougel" not in names
    assert "ROUGEL" in cybleu.metrics.choices() and "rougelsum" in cybleu.metrics.choices()
    line, = _cli([ref, "-i", hyp, "-m", "ROUGEL", "-f", "text"], root).splitlines()
    assert line.startswith("ROUGE-L|")


# -- the library's significance tests ----------------------------------------------------------

@pytest.mark.parametrize("rouge_type", ["rouge2", "rougeLsum"])
def test_paired_bootstrap_and_randomization_equal_numpy(corpus, rouge_type):
    refs, base, system = corpus
    metric = cybleu.metrics.make(rouge_type, use_stemmer=True, references=[refs])
    b = f_of(base, refs, rouge_type, use_stemmer=True)
    s = f_of(system, refs, rouge_type, use_stemmer=True)
    result, = significance.paired_bootstrap(metric, base, [system], n_samples=300)
    p, mean, ci = numpy_bootstrap(b, s, 300, 12345)
    assert (bits(result.score), bits(result.p_value), bits(result.mean), bits(result.ci)) == \
        (bits(mean_score(s)), bits(p), bits(mean), bits(ci))
    ar, = significance.paired_randomization(metric, base, [system], n_trials=300)
    assert bits(ar.p_value) == bits(numpy_randomization(b, s, 300, 12345))
    same, = significance.paired_bootstrap(metric, base, [base], n_samples=100)
    assert same.p_value == 1.0


def test_bootstrap_interval_equals_numpy(corpus):
    refs, base, _ = corpus
    values = np.asarray(f_of(base, refs, "rouge1"))
    score = cybleu.metrics.make("rouge1").corpus_score(base, [refs], n_bootstrap=300)
    idx = np.random.default_rng(12345).choice(N, size=(300, N), replace=True)
    data = np.sort([mean_score(values[i]) for i in idx])
    # sacreBLEU's Score.estimate_ci: statistics.mean of the resamples' scores
    assert (bits(score._mean), bits(score._ci)) == \
        (bits(statistics.mean(data.tolist())), bits(0.5 * (data[300 - 7 - 1] - data[7])))


# -- best_of and the commands that select by a metric -------------------------------------------

def test_best_of_by_rouge_picks_rouge_scores_best(corpus):
    refs, base, system = corpus
    cands = [[a, b, a + " " + b] for a, b in zip(base[:60], system[:60])]
    for t in ("rouge1", "rougeL"):
        got = cybleu.best_of(cands, [refs[:60]], 3, metric=t)
        scorer = theirs.RougeScorer([t])
        for i, (cand, r) in enumerate(zip(cands, refs)):
            fs = [scorer.score(r, c)[t].fmeasure for c in cand]
            k = fs.index(max(fs))
            assert got.index[i] == k and bits(got.score[i]) == bits(100 * fs[k])


def test_best_of_and_filter_commands_by_rouge(corpus, tmp_path):
    refs, base, system = corpus
    refs, base, system = refs[:50], base[:50], system[:50]
    nbest = _write(tmp_path / "nbest.txt", [c for pair in zip(base, system) for c in pair])
    ref = _write(tmp_path / "ref.txt", refs)
    scores = tmp_path / "scores.tsv"
    out = _cli(["best-of", "-k", "2", "-r", ref, "-i", nbest, "-m", "rougeL", "--rouge-stemmer",
                "--scores", str(scores), "-q"], tmp_path).splitlines()
    scorer = theirs.RougeScorer(["rougeL"], use_stemmer=True)
    want, lines = [], []
    for pair, r in zip(zip(base, system), refs):
        fs = [scorer.score(r, c)["rougeL"].fmeasure for c in pair]
        k = fs.index(max(fs))
        want.append(f"{k}\t{100 * fs[k]!r}")
        lines.append(pair[k])
    assert out == lines
    assert [line.split("\t")[0] + "\t" + repr(float(line.split("\t")[1]))
            for line in scores.read_text().splitlines()] == want
    kept = tmp_path / "kept"
    _cli(["filter", "-i", _write(tmp_path / "hyp.txt", base), "-r", ref, "-m", "rouge2",
          "--min", "30", "--kept", str(kept), "-q"], tmp_path)
    assert (kept / "hyp.txt").read_text().splitlines() == [
        h for h, f in zip(base, f_of(base, refs, "rouge2")) if 100 * f >= 30]


# -- the report ------------------------------------------------------------------------------------

def test_report_prf_view_and_segment_detail_are_rouge_scores(corpus):
    refs, base, system = corpus
    n = 80
    systems = {"base": base[:n], "<b>sys</b>": system[:n]}
    rep = cybleu.report(refs[:n], systems, metrics=["rougeL", "rouge"], n_samples=50)
    ts = rep.data["sets"][0]
    by_name = {m["name"]: m for m in ts["metrics"]}
    rouge_l = by_name["ROUGE-L"]
    assert rouge_l["views"] == ["prf"] and rouge_l["aggregation"] == "mean"
    assert rouge_l["prf"]["parts"] == ["ROUGE-L"]
    width = 4
    for k, name in enumerate(ts["systems"]):
        want = oracle(systems[name], refs[:n], "rougeL")
        means = [math.fsum(w[j] for w in want) / n for j in range(3)]
        assert rouge_l["prf"]["values"][k] == [[100 * v for v in means]]
        assert bits(rouge_l["corpus"][k]["score"]) == bits(100 * means[2])
        rows = rep.arrays[rouge_l["stats_array"]].reshape(len(ts["systems"]), n, width)[k]
        assert rows[:, :3].tolist() == [[100 * w[2], 100 * w[0], 100 * w[1]] for w in want]
    assert rouge_l["detail"]["table"]["head"] == ["ROUGE", "L P", "L R", "L F"]
    assert by_name["ROUGE-1/2/L/Lsum"]["prf"]["parts"] == ["ROUGE-1", "ROUGE-2", "ROUGE-L",
                                                         "ROUGE-Lsum"]


def test_the_multi_type_metric_and_a_type_are_columns_of_their_own(corpus, files):
    refs, base, system = corpus
    n = 40
    rep = cybleu.report(refs[:n], {"a": base[:n], "b": system[:n]}, metrics=["rouge", "rouge1"],
                        n_samples=20)
    cols = rep.data["sets"][0]["metrics"]
    assert [m["name"] for m in cols] == ["ROUGE-1/2/L/Lsum", "ROUGE-1"]
    want = mean_score(f_of(base[:n], refs[:n], "rouge1"))
    assert bits(cols[0]["corpus"][0]["score"]) == bits(cols[1]["corpus"][0]["score"]) == bits(want)
    # the same column twice is refused, whatever spells it
    with pytest.raises(cybleu.ReportInputError, match="both shown as ROUGE-1: leave one out"):
        cybleu.report(refs[:n], {"a": base[:n]}, n_samples=20,
                      metrics=[("rouge1", {"use_stemmer": True}),
                               ("rouge", {"rouge_types": ["rouge1"]})])
    root, ref, hyp, other = files
    lines = _cli([ref, "-i", hyp, "-m", "rouge", "rouge1", "-f", "text", "-w", "17"],
                 root).splitlines()
    assert [line.strip().split("|")[0] for line in lines] == ["ROUGE-1/2/L/Lsum", "ROUGE-1"]
    f = mean_score(f_of(base, refs, "rouge1"))
    assert [line.split(" = ")[1].split(" (")[0] for line in lines] == [f"{f:.17f}"] * 2
    parts = lines[0].split(" | ")[1:]
    for part, t in zip(parts, ["rouge2", "rougeL", "rougeLsum"]):
        want = oracle(base, refs, t)
        p, r, f = (100 * (math.fsum(w[k] for w in want) / N) for k in range(3))
        assert part == f"{type_name(t)} = {f:.2f} (P = {p:.2f} R = {r:.2f})"
    # several systems: JSON keyed by the names, one entry each
    doc = json.loads(_cli([ref, "-i", hyp, other, "-m", "rouge", "rouge1", "-w", "17"], root))
    f = mean_score(f_of(system, refs, "rouge1"))
    assert doc[1] == {"system": other, "ROUGE-1/2/L/Lsum": f"{f:.17f}", "ROUGE-1": f"{f:.17f}"}


def oracle_lcs_pairs(ref_tokens, hyp_tokens):
    """(reference position, hypothesis position) of each LCS token, as rouge-score's
    _backtrack_norec walks its _lcs_table (its moves, recording the column too)."""
    table = theirs._lcs_table(ref_tokens, hyp_tokens)
    i, j, out = len(ref_tokens), len(hyp_tokens), []
    while i > 0 and j > 0:
        if ref_tokens[i - 1] == hyp_tokens[j - 1]:
            out.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    out.reverse()
    assert [r for r, _ in out] == theirs._backtrack_norec(table, ref_tokens, hyp_tokens)
    return out


def tie_corpus(n, seed):
    """Segments of few distinct words (so LCS ties repeat), two references, some equal."""
    rng = np.random.default_rng(seed)
    words = ["a", "b", "c", "d", "Cats", "running"]

    def line():
        return " ".join(rng.choice(words, rng.integers(0, 12)))
    hyps = [line() for _ in range(n)]
    refs = [[line() for _ in range(n)], [line() for _ in range(n)]]
    for i in range(0, n, 5):
        refs[1][i] = refs[0][i]          # equal F: the first reference
    return hyps, refs


@pytest.mark.parametrize("stem", [False, True])
def test_report_lcs_alignment_is_rouge_scores_lcs(corpus, stem):
    from report_helpers import seg_alignments
    from rouge_score import tokenizers
    refs, base, system = corpus
    n = 60
    hyps, ties = tie_corpus(n, 7)
    cases = [([refs[:n]], {"base": base[:n], "system": system[:n]}), (ties, {"x": hyps})]
    tokenize = tokenizers.DefaultTokenizer(use_stemmer=stem).tokenize
    chosen, ties_seen = set(), 0
    for streams, systems in cases:
        rep = cybleu.report(streams, systems, metrics=[("rougeL", {"use_stemmer": stem}),
                                                       "rouge1"], n_samples=10)
        ts = rep.data["sets"][0]
        key = ts["metrics"][0]["key"]
        assert ts["text_layout"]["extras"] == [key]          # rouge1 alone draws none
        assert ts["metrics"][0]["alignment"]["title"] == "ROUGE-L: longest common subsequence"
        scorer = theirs.RougeScorer(["rougeL"], use_stemmer=stem)
        for i in range(n):
            got = seg_alignments(ts, i)[key]
            for s, name in enumerate(ts["systems"]):
                hyp = systems[name][i]
                seg_refs = [stream[i] for stream in streams]
                fs = [scorer.score(r, hyp)["rougeL"].fmeasure for r in seg_refs]
                best = int(np.argmax(fs))            # rouge-score's score_multi
                chosen.add(best)
                h, r = tokenize(hyp), tokenize(seg_refs[best])
                pairs = oracle_lcs_pairs(r, h)
                # an LCS the tie rule decides: another of the same length exists
                ties_seen += [p for p, _ in pairs] != lcs_other_way(r, h)
                assert got[s] == {"h": h, "r": r, "ref": best, "rm": [p for p, _ in pairs],
                                  "hm": [q for _, q in pairs]}, (i, name)
    assert chosen == {0, 1} and ties_seen > 10


def lcs_other_way(ref_tokens, hyp_tokens):
    """The reference positions of the LCS read with the other tie rule (up before left)."""
    table = theirs._lcs_table(ref_tokens, hyp_tokens)
    i, j, out = len(ref_tokens), len(hyp_tokens), []
    while i > 0 and j > 0:
        if ref_tokens[i - 1] == hyp_tokens[j - 1]:
            out.append(i - 1)
            i, j = i - 1, j - 1
        elif table[i - 1][j] > table[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]
