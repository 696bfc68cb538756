from typing import Any

from ._mecab import MecabTokenizer


class TokenizerJaMecab(MecabTokenizer):
    """sacreBLEU's `ja-mecab`: MeCab with the IPA dictionary (`pip install cybleu[ja]`). The
    signature names MeCab's and the dictionary's versions.

    :raises RuntimeError: MeCab or the dictionary is not installed (the message says what to
        install), or another dictionary is loaded.

    >>> import MeCab
    >>> from cybleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab
    >>> tokenizer = TokenizerJaMecab()
    >>> tokenizer("猫が好きです。"), tokenizer.signature()
    ('猫 が 好き です 。', 'ja-mecab-0.996-IPA')
    """

    _extra, _language, _dic_name, _suffix, _dic_size = "ja", "Japanese", "IPA", "IPA", 392126

    def _make_tagger(self) -> Any:
        try:
            import MeCab  # type: ignore[import-untyped, unused-ignore]
            import ipadic  # type: ignore[import-untyped, unused-ignore]
        except ImportError as err:
            raise self._missing(err) from None
        return MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
