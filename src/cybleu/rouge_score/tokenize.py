"""rouge-score's tokenizer, `tokenize(text, stemmer)`: lowercase, every run of characters outside
[a-z0-9] a separator, tokens longer than 3 characters stemmed. With no stemmer or the default
Porter stemmer it runs in cybleu's compiled core; any other stemmer object is called as
rouge-score calls it."""
import re

from .._backend import module
from ._porter import PorterStemmer

__all__ = ["tokenize", "NON_ALPHANUM_PATTERN", "NON_ALPHANUM_RE", "SPACES_PATTERN", "SPACES_RE",
           "VALID_TOKEN_PATTERN", "VALID_TOKEN_RE"]

# rouge-score's module constants, kept for code that reads them
NON_ALPHANUM_PATTERN = r"[^a-z0-9]+"
NON_ALPHANUM_RE = re.compile(NON_ALPHANUM_PATTERN)
SPACES_PATTERN = r"\s+"
SPACES_RE = re.compile(SPACES_PATTERN)
VALID_TOKEN_PATTERN = r"^[a-z0-9]+$"
VALID_TOKEN_RE = re.compile(VALID_TOKEN_PATTERN)

_kernel = module("rouge")


def _ensure_str(value):
    """six.ensure_str: bytes decoded as UTF-8, str as it is, anything else a TypeError."""
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    raise TypeError(f"not expecting type '{type(value)}'")


def _default_stemmer(stemmer):
    """True for no stemmer, False for the default Porter stemmer (cybleu's, or nltk's in the
    mode rouge-score makes it), None for a stemmer of another kind."""
    if stemmer is None:
        return False
    if type(stemmer) is PorterStemmer:
        return True
    if type(stemmer).__module__ == "nltk.stem.porter" and type(stemmer).__name__ == "PorterStemmer" \
            and getattr(stemmer, "mode", None) == "NLTK_EXTENSIONS" \
            and "stem" not in vars(stemmer):
        return True
    return None


def tokenize(text, stemmer):
    """Tokenize input text into a list of tokens, as rouge-score does (its `tokenize.tokenize`).

    :param text: The text (a str; bytes are decoded as UTF-8 after lowercasing, as rouge-score
        does).
    :param stemmer: None, or an object with `stem(word)`, applied to tokens longer than 3
        characters (nltk's `PorterStemmer()` and cybleu's `tokenizers.PorterStemmer()` run in
        the compiled core).
    :returns: A list of str tokens, each of ASCII letters and digits.

    >>> from cybleu.rouge_score import tokenize
    >>> tokenize.tokenize("The friends had a meeting!", None)
    ['the', 'friends', 'had', 'a', 'meeting']
    """
    kind = _default_stemmer(stemmer)
    if kind is not None and isinstance(text, str):
        return _kernel.tokenize(text, kind)
    # rouge-score's steps, for bytes and for stemmers of other kinds
    text = _ensure_str(text.lower())
    tokens = SPACES_RE.split(NON_ALPHANUM_RE.sub(" ", text))
    if stemmer:
        tokens = [_ensure_str(stemmer.stem(x)) if len(x) > 3 else x for x in tokens]
    return [x for x in tokens if VALID_TOKEN_RE.match(x)]
