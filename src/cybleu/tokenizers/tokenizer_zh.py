from .._backend import core
from .tokenizer_base import BaseTokenizer

# sacreBLEU's table, verbatim. Two entries are 6-character escapes read as 2-character strings
# ('\u20000' is '\u2000' + '0'), so comparing a character with them selects U+2001-U+2A6D and
# U+2F81-U+2FA1, not the astral ideographs meant (sacrebleu#298). cybleu reproduces what the
# comparisons do, quirks included, so scores match published ones.
_UCODE_RANGES = [
    (u'\u3400', u'\u4db5'),
    (u'\u4e00', u'\u9fa5'),
    (u'\u9fa6', u'\u9fbb'),
    (u'\uf900', u'\ufa2d'),
    (u'\ufa30', u'\ufa6a'),
    (u'\ufa70', u'\ufad9'),
    (u'\u20000', u'\u2a6d6'),
    (u'\u2f800', u'\u2fa1d'),
    (u'\uff00', u'\uffef'),
    (u'\u2e80', u'\u2eff'),
    (u'\u3000', u'\u303f'),
    (u'\u31c0', u'\u31ef'),
    (u'\u2f00', u'\u2fdf'),
    (u'\u2ff0', u'\u2fff'),
    (u'\u3100', u'\u312f'),
    (u'\u31a0', u'\u31bf'),
    (u'\ufe10', u'\ufe1f'),
    (u'\ufe30', u'\ufe4f'),
    (u'\u2600', u'\u26ff'),
    (u'\u2700', u'\u27bf'),
    (u'\u3200', u'\u32ff'),
    (u'\u3300', u'\u33ff'),
]


class TokenizerZh(BaseTokenizer):
    """sacreBLEU's `zh`: strip, a space either side of every 'Chinese' character (sacreBLEU's
    ranges as they behave, so general punctuation such as '—' counts too), then 13a's regular
    expressions. No cache.

    >>> from cybleu.tokenizers.tokenizer_zh import TokenizerZh
    >>> TokenizerZh()("我爱北京天安门。Hello, world!")
    '我 爱 北 京 天 安 门 。 Hello , world !'
    """

    def signature(self) -> str:
        return "zh"

    @staticmethod
    def _is_chinese_char(uchar: str) -> bool:
        """Whether sacreBLEU's range table counts `uchar` as Chinese.

        :param uchar: One character.
        :returns: True or False.
        """
        return any(start <= uchar <= end for start, end in _UCODE_RANGES)

    def __call__(self, line: str) -> str:
        self._check(line)
        return core.tokenize(line, "zh")
