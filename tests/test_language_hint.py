"""The check for text written without spaces (cybleu.tokenizers.language_hint): it names Chinese,
Japanese and Korean references of real test sets, never English, German or Hebrew ones, and sits at
a threshold mixed text cannot cross by accident."""
import doctest

import pytest

from cybleu.tokenizers import language_hint
from cybleu.tokenizers.language_hint import THRESHOLD, guess

from conftest import data_path, read_lines


@pytest.mark.parametrize("parts, language, tokenizer", [
    (("wmt", "wmt22", "en-zh", "ref.A.txt"), "zh", "zh"),
    (("wmt", "wmt22", "en-zh", "sys", "GTCOM.txt"), "zh", "zh"),
    (("wmt", "wmt22", "en-ja", "ref.A.txt"), "ja", "ja-mecab"),
    (("sacrebleu-fixtures", "en-ja-kyoto-test", "kyoto-test.ref.ja"), "ja", "ja-mecab"),
    (("sacrebleu-fixtures", "en-ko-flores101", "flores101.devtest.en-ko.ref.ko"), "ko",
     "ko-mecab"),
])
def test_cjk_references_are_named(parts, language, tokenizer):
    hint = guess(read_lines(data_path(*parts)))
    assert hint is not None
    assert (hint.language, hint.tokenizer) == (language, tokenizer)
    # far from the threshold: names, numbers and brands in Latin letters do not bring it close
    assert hint.share > 0.9


@pytest.mark.parametrize("parts", [
    ("wmt", "wmt22", "zh-en", "ref.A.txt"),
    ("wmt", "wmt22", "en-de", "ref.A.txt"),
    ("wmt", "wmt22", "en-zh", "src.txt"),
    ("wmt", "wmt23", "en-he", "ref.A.txt"),
    ("sacrebleu-fixtures", "wmt17-en-de", "ref.txt"),
])
def test_spaced_scripts_are_not(parts):
    assert guess(read_lines(data_path(*parts))) is None


def test_the_threshold_on_mixed_text():
    zh = "我已经问过了目前您所在地区的订单量很大"            # 19 Han characters
    en = "the order volume in your area is very high"      # 34 letters
    # below half of the letters in Han: not Chinese, however many lines
    mostly_en = [f"{zh[:10]} {en}"] * 50                    # 10 of 44 letters
    assert guess(mostly_en) is None
    half = [f"{zh[:17]} {en}"] * 50                         # 17 of 51 letters: a third
    assert guess(half) is None
    mostly_zh = [f"{zh} {en[:12]}"] * 50                    # 19 of 29 letters
    hint = guess(mostly_zh)
    assert hint is not None and hint.language == "zh" and hint.share >= THRESHOLD


def test_japanese_needs_kana_and_thai_has_no_sacrebleu_tokenizer():
    assert guess(["東京都の人口は増えています。"] * 3).language == "ja"
    assert guess(["中华人民共和国的首都是北京。"] * 3).language == "zh"
    thai = guess(["ภาษาไทยเขียนโดยไม่เว้นวรรคระหว่างคำ"] * 3)
    assert thai.language == "th" and thai.tokenizer is None
    assert "-tok flores200" in language_hint.advice(thai, "13a")
    assert 'BLEU(tokenize="flores200")' in language_hint.advice(thai, "13a", "python")


def test_too_little_text_and_empty_lines():
    assert guess([]) is None
    assert guess(["", None, ""]) is None
    assert guess(["中文"]) is None                # 2 letters: too little to tell
    assert guess(["", None] * 100 + ["中文的句子没有空格也能读"] * 3).language == "zh"


def test_advice_names_the_flag_that_fixes_it():
    hint = guess(["很抱歉，您点的餐可能会晚到一会。"] * 3)
    cli = language_hint.advice(hint, "13a")
    assert "-l SRC-zh" in cli and "-tok zh" in cli and "'13a'" in cli
    py = language_hint.advice(hint, "intl", "python")
    assert "BLEU(trg_lang='zh')" in py and "'intl'" in py
    both = language_hint.advice(hint, "13a", "report")
    assert "-l SRC-zh (cybleu report)" in both and 'language_pair="SRC-zh"' in both


def test_module_examples():
    assert doctest.testmod(language_hint).failed == 0
