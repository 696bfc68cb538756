from typing import Any

from ._mecab import MecabTokenizer


class TokenizerJaMecab(MecabTokenizer):
    """sacreBLEU's `ja-mecab`: MeCab with the IPA dictionary (`pip install cybleu[ja]`)."""

    _extra, _language, _dic_name, _suffix, _dic_size = "ja", "Japanese", "IPA", "IPA", 392126

    def _make_tagger(self) -> Any:
        try:
            import MeCab  # type: ignore[import-untyped, unused-ignore]
            import ipadic  # type: ignore[import-untyped, unused-ignore]
        except ImportError as err:
            raise self._missing(err) from None
        return MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
