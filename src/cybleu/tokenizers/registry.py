"""The one registry of tokenizer names: sacreBLEU 2.6.0's names, the class each one names under
cybleu.tokenizers, and whether the compiled core runs it itself (the others segment in Python and
hand the core their output under 'none'). The metrics, the CLI and the tests read it from here."""

# name -> ("module.Class" under cybleu.tokenizers, tokenized inside the core)
TOKENIZERS = {
    "none": ("tokenizer_none.NoneTokenizer", True),
    "zh": ("tokenizer_zh.TokenizerZh", True),
    "13a": ("tokenizer_13a.Tokenizer13a", True),
    "intl": ("tokenizer_intl.TokenizerV14International", True),
    "char": ("tokenizer_char.TokenizerChar", True),
    "ja-mecab": ("tokenizer_ja_mecab.TokenizerJaMecab", False),
    "ko-mecab": ("tokenizer_ko_mecab.TokenizerKoMecab", False),
    "spm": ("tokenizer_spm.TokenizerSPM", False),
    "flores101": ("tokenizer_spm.Flores101Tokenizer", False),
    "flores200": ("tokenizer_spm.Flores200Tokenizer", False),
    "spBLEU-1K": ("tokenizer_spm.spBLEU1KTokenizer", False),
}

NAMES = tuple(TOKENIZERS)
CORE_NAMES = tuple(name for name, (_, in_core) in TOKENIZERS.items() if in_core)
DEFAULT = "13a"
# trg_lang -> the tokenizer sacreBLEU picks for it when none is given
BY_LANGUAGE = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


class UnknownTokenizerError(KeyError, ValueError):
    """A tokenizer name that is not in the registry.

    A KeyError, as sacreBLEU raises (its table is a dict), and a ValueError (a bad argument
    value), so handlers written for either catch it. Its str() is the message itself, not
    KeyError's quoted repr of it.
    """

    def __str__(self):
        return Exception.__str__(self)


def target_language(language_pair):
    """The target language of a source-target pair as sacreBLEU's `-l` reads it ('en-zh' ->
    'zh'): BLEU's `trg_lang`, which picks the tokenizer through BY_LANGUAGE. ValueError for a
    pair without '-'."""
    parts = str(language_pair).split("-")
    if len(parts) < 2:
        raise ValueError(f"A language pair looks like en-de (source-target), not "
                         f"{language_pair!r}.")
    return parts[1]


def class_path(name):
    """'module.Class' of tokenizer `name` (KeyError for an unknown name)."""
    return TOKENIZERS[name][0]
