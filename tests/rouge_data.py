"""Text for the ROUGE tests: English lines of the shared WMT data (the zh-en references and a
system, the en-de sources), or, without that data, the English-free demo sample cybleu ships (the
tests then still run, on German). Documents are a few lines joined by newlines, as rougeLsum
expects them."""
import functools
from pathlib import Path

from conftest import SHARED_DATA, read_lines

PACKAGED = Path(__file__).resolve().parents[1] / "src" / "cybleu" / "data"


@functools.lru_cache(maxsize=None)
def english_lines():
    """(references, a system's outputs, other English sentences): three lists of lines."""
    zh_en = SHARED_DATA / "wmt" / "wmt22" / "zh-en"
    en_de = SHARED_DATA / "wmt" / "wmt22" / "en-de"
    if zh_en.exists() and en_de.exists():
        return (read_lines(zh_en / "ref.A.txt"), read_lines(zh_en / "sys" / "Online-B.txt"),
                read_lines(en_de / "src.txt"))
    ref = read_lines(PACKAGED / "wmt17-en-de.ref.txt")
    return ref, read_lines(PACKAGED / "wmt17-en-de.online-B.txt"), \
        read_lines(PACKAGED / "wmt17-en-de.uedin-nmt.txt")


@functools.lru_cache(maxsize=None)
def non_english_lines():
    """Lines in other scripts (Chinese sources, German references), for the ASCII-only rule."""
    zh_en = SHARED_DATA / "wmt" / "wmt22" / "zh-en"
    en_de = SHARED_DATA / "wmt" / "wmt22" / "en-de"
    if zh_en.exists() and en_de.exists():
        return read_lines(zh_en / "src.txt")[:400] + read_lines(en_de / "ref.A.txt")[:400]
    return read_lines(PACKAGED / "wmt17-en-de.ref.txt")[:400]


def documents(lines, size, count, start=0):
    """`count` documents of `size` consecutive lines each, joined by newlines."""
    return ["\n".join(lines[start + i * size: start + (i + 1) * size]) for i in range(count)]


def build_upstream_testdata(folder):
    """Files in the layout of rouge-score's testdata/ (which its sdist leaves out), made of the
    lines above: target/prediction (2 records), *_large (100 records), delimited.txt and
    pyrouge_files/{target,prediction}_multi.{0..249}.txt (3 lines each)."""
    ref, hyp, _ = english_lines()
    folder = Path(folder)
    (folder / "pyrouge_files").mkdir(parents=True, exist_ok=True)
    (folder / "target.txt").write_text("".join(line + "\n" for line in ref[:2]), "utf-8")
    (folder / "prediction.txt").write_text("".join(line + "\n" for line in hyp[:2]), "utf-8")
    (folder / "target_large.txt").write_text("".join(line + "\n" for line in ref[:100]), "utf-8")
    (folder / "prediction_large.txt").write_text("".join(line + "\n" for line in hyp[:100]),
                                                 "utf-8")
    (folder / "delimited.txt").write_text("one:two:three:four:", "utf-8")
    for i in range(250):
        (folder / "pyrouge_files" / f"target_multi.{i}.txt").write_text(
            "\n".join(ref[3 * i: 3 * i + 3]) + "\n", "utf-8")
        (folder / "pyrouge_files" / f"prediction_multi.{i}.txt").write_text(
            "\n".join(hyp[3 * i: 3 * i + 3]) + "\n", "utf-8")
    return folder


def build_punkt_model(folder):
    """An English Punkt model for nltk's sent_tokenize (split_summaries=True), trained here on
    the English lines above and written in nltk's punkt_tab layout under `folder` (put it on
    nltk.data.path or NLTK_DATA). nltk's own punkt_tab data cannot be downloaded on this
    machine, and no package registry ships it; a model made here exercises the same code."""
    from nltk.tabdata import TabEncoder
    from nltk.tokenize.punkt import PunktTrainer
    ref, hyp, other = english_lines()
    trainer = PunktTrainer()
    trainer.train("\n".join(other + ref))
    params = trainer.get_params()
    target = Path(folder) / "tokenizers" / "punkt_tab" / "english"
    target.mkdir(parents=True, exist_ok=True)
    enc = TabEncoder()
    for name, text in (("collocations.tab", enc.tups2tab(params.collocations)),
                       ("sent_starters.txt", enc.set2txt(params.sent_starters)),
                       ("abbrev_types.txt", enc.set2txt(params.abbrev_types)),
                       ("ortho_context.tab", enc.ivdict2tab(params.ortho_context))):
        with open(target / name, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    return Path(folder)


def engine_corpus(n=400):
    """(hypotheses, [references, second references]) of English lines, for the engines' tests."""
    ref, hyp, other = english_lines()
    return hyp[:n], [ref[:n], other[:n]]


def rouge_means(hyps, ref_streams, types, use_stemmer=False):
    """{type: (precision, recall, F)}: rouge-score 0.1.2's per-segment values (score_multi over
    a segment's references), each mean math.fsum(values) / n: the oracle of a corpus ROUGE."""
    import math

    from rouge_score import rouge_scorer
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=use_stemmer)
    rows = [scorer.score_multi(list(refs), hyp) for hyp, *refs in zip(hyps, *ref_streams)]
    return {t: tuple(math.fsum(row[t][k] for row in rows) / len(rows) for k in range(3))
            for t in types}
