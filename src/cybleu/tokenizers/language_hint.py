"""Is this text written without spaces between words (Chinese, Japanese, Thai, ...)?

BLEU's default tokenizers (`13a`, `intl`) split on spaces and punctuation, so on such text a whole
clause is one "word": BLEU, TER and their rankings of systems come out meaningless (on WMT22
en-zh, 13a ranks DLUT above GTCOM with p = 0.04; the `zh` tokenizer the other way with p = 0.001).
sacreBLEU picks the right tokenizer only when told the target language (`-l en-zh`).

`guess(lines)` looks at the letters of a sample of the lines and names the language when most of
them (`THRESHOLD`) belong to a script written without spaces, or to Korean (written with spaces
between phrases, but scored with `ko-mecab` by sacreBLEU). The report, the scoring command and the
notebook display ask this one function and word their advice from its answer.

>>> guess(["很抱歉，您点的餐可能会晚到一会。", "最新消息是，现在有一名骑手确认他已经到达餐厅。"])
ScriptHint(language='zh', name='Chinese', share=1.0, tokenizer='zh')
>>> guess(["The cat sat on the mat.", "Die Katze saß auf der Matte."]) is None
True
"""
import re
from collections import namedtuple

from .registry import BY_LANGUAGE

__all__ = ["ScriptHint", "guess", "problem", "fix", "advice", "THRESHOLD", "DEFAULT_TOKENIZERS"]

#: the share of a sample's letters in scripts without spaces from which the text counts as written
#: in them. Chinese and Japanese references with English names, numbers and brands in them stay
#: above 0.9 (WMT22 en-zh 0.93, en-ja 0.98, FLORES en-ko 0.96); English, German and Hebrew are at
#: 0.0. Half leaves room for
#: mixed text either way and never fires on text that is mostly in a spaced script.
THRESHOLD = 0.5
#: the tokenizers that split on spaces and punctuation only
DEFAULT_TOKENIZERS = ("13a", "intl")
#: below this many letters in the sample nothing is said (too little to tell)
MIN_LETTERS = 10
#: at most this many characters are looked at (spread over the lines)
SAMPLE_CHARS = 50_000

# scripts written without spaces between words (and Hangul), by Unicode block
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_KANA = "\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"
_HANGUL = "\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
_SCRIPTS = {  # name -> (letters of the script, language code, language name)
    "Han": (_HAN, "zh", "Chinese"),
    "Kana": (_KANA, "ja", "Japanese"),
    "Hangul": (_HANGUL, "ko", "Korean"),
    "Thai": ("\u0e00-\u0e7f", "th", "Thai"),
    "Lao": ("\u0e80-\u0eff", "lo", "Lao"),
    "Khmer": ("\u1780-\u17ff\u19e0-\u19ff", "km", "Khmer"),
    "Myanmar": ("\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f", "my", "Burmese"),
    "Tibetan": ("\u0f00-\u0fff", "bo", "Tibetan"),
}
_PATTERNS = {name: re.compile(f"[{chars}]") for name, (chars, _, _) in _SCRIPTS.items()}
_UNSPACED = re.compile("[" + "".join(chars for chars, _, _ in _SCRIPTS.values()) + "]")
_LETTER = re.compile(r"[^\W\d_]")
# Japanese mixes kana with Han characters; Chinese has no kana at all. From this share of kana
# among the two, the text is Japanese (Japanese prose runs at 30-60%).
_KANA_SHARE_JA = 0.1


# (typing is not imported: the scoring command asks this on every run, and starts fast)
ScriptHint = namedtuple("ScriptHint", "language name share tokenizer")
ScriptHint.__doc__ = """What `guess` found: the language code and name (str), the share of the
sample's letters in the scripts without spaces (float), and the tokenizer sacreBLEU picks for
the language (None when sacreBLEU has none of its own: Thai, Khmer, ...)."""


def _sample(lines, limit):
    """Lines spread over the whole sequence (every k-th), joined, about `limit` characters."""
    present = [line for line in lines if line]
    if not present:
        return ""
    total = sum(len(line) for line in present[:1000]) / min(len(present), 1000)
    want = max(1, int(limit / max(total, 1.0)))
    step = max(1, len(present) // want)
    return "\n".join(present[::step])[:limit]


def guess(lines, sample_chars=SAMPLE_CHARS):
    """The language of `lines` (a list of str; None entries are skipped) when most of their
    letters are in a script written without spaces (or in Hangul), else None.

    :param lines: the text, typically the references.
    :param sample_chars: how many characters to look at, taken from lines spread over the list.
    :returns: a ScriptHint, or None (a spaced script, or fewer than MIN_LETTERS letters)."""
    text = _sample(lines, sample_chars)
    unspaced = len(_UNSPACED.findall(text))
    if not unspaced:         # the common case, a spaced script: one scan, nothing to count
        return None
    letters = len(_LETTER.findall(text))
    if letters < MIN_LETTERS:
        return None
    share = unspaced / letters
    if share < THRESHOLD:
        return None
    counts = {name: len(pattern.findall(text)) for name, pattern in _PATTERNS.items()}
    han, kana = counts["Han"], counts["Kana"]
    if kana and kana >= _KANA_SHARE_JA * (han + kana):
        script = "Kana"
    else:
        script = max(counts, key=counts.__getitem__)
    _, language, name = _SCRIPTS[script]
    return ScriptHint(language, name, round(min(share, 1.0), 3), BY_LANGUAGE.get(language))


def problem(hint, tokenize):
    """What goes wrong with `tokenize` on text like `hint`'s (one clause, no final stop)."""
    share = f"{hint.share:.0%}"
    if hint.language == "ko":
        return (f"the references look {hint.name} ({share} of their letters are Hangul) but BLEU "
                f"uses the {tokenize!r} tokenizer, which splits only at spaces and punctuation, "
                "not into the morphemes sacreBLEU scores Korean on")
    return (f"the references look {hint.name} ({share} of their letters are in a script written "
            f"without spaces) but BLEU uses the {tokenize!r} tokenizer, which splits only at "
            "spaces and punctuation: whole clauses count as single words, and the scores and "
            "their ranking mean little")


def fix(hint, where="cli"):
    """The option that fixes it: on the command line (`where="cli"`), in Python (`"python"`), or
    for a report, which is built either way (`"report"`)."""
    lang = hint.language
    if hint.tokenizer is None:
        options = {"cli": "-tok flores200",
                   "python": 'BLEU(tokenize="flores200")',
                   "report": '-tok flores200 (cybleu report) or metrics=[cybleu.BLEU('
                             'tokenize="flores200"), ...] (cybleu.report)'}[where]
        return (f"sacreBLEU has no tokenizer of its own for {hint.name}: use a SentencePiece "
                f"one, {options}")
    why = f"the {hint.tokenizer!r} tokenizer, as sacreBLEU picks for {hint.name}"
    if where == "cli":
        return f"give the language pair, -l SRC-{lang} ({why}), or -tok {hint.tokenizer}"
    if where == "python":
        return f"give BLEU(trg_lang={lang!r}) ({why})"
    return (f"give the language pair, -l SRC-{lang} (cybleu report) or "
            f"language_pair=\"SRC-{lang}\" (cybleu.report): {why}")


def advice(hint, tokenize, where="cli"):
    """One sentence: the problem and the option that fixes it (see `fix`)."""
    text = f"{problem(hint, tokenize)}; {fix(hint, where)}."
    return text[0].upper() + text[1:]
