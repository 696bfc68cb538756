"""rouge-score's tokenizer classes: `Tokenizer` (the abstract base of a tokenizer object with
`tokenize(text)`) and `DefaultTokenizer(use_stemmer)`, plus `PorterStemmer`, nltk 3.10.4's
Porter stemmer as rouge-score constructs it (NLTK_EXTENSIONS), compiled."""
import abc

from .._backend import module
from . import tokenize

__all__ = ["Tokenizer", "DefaultTokenizer", "PorterStemmer"]


class PorterStemmer:
    """nltk's `nltk.stem.porter.PorterStemmer()` (the default mode, NLTK_EXTENSIONS), which
    rouge-score's DefaultTokenizer uses: the same stems, from cybleu's compiled stemmer.

    >>> from cybleu.rouge_score.tokenizers import PorterStemmer
    >>> PorterStemmer().stem("meetings")
    'meet'
    """

    NLTK_EXTENSIONS = "NLTK_EXTENSIONS"
    mode = NLTK_EXTENSIONS

    def stem(self, word, to_lowercase=True):
        """The stem of `word` (lowercased first unless `to_lowercase` is False), as nltk's."""
        return module("porter").stem(word, to_lowercase)

    def __repr__(self):
        return "<PorterStemmer>"


class Tokenizer(abc.ABC):
    """Abstract base class for a tokenizer.

    Subclasses of Tokenizer must implement the tokenize() method.
    """

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer: lowercase ASCII letters and digits, optionally Porter
    stemmed (tokens longer than 3 characters).

    :param use_stemmer: Stem with nltk's Porter stemmer (cybleu's compiled copy).

    Text outside ASCII is dropped, as rouge-score drops it: pass a tokenizer of your own to
    `RougeScorer(tokenizer=...)` for other scripts.

    >>> from cybleu.rouge_score import tokenizers
    >>> tokenizers.DefaultTokenizer(use_stemmer=True).tokenize("the friends had a meeting")
    ['the', 'friend', 'had', 'a', 'meet']
    """

    def __init__(self, use_stemmer=False):
        self._stemmer = PorterStemmer() if use_stemmer else None

    def tokenize(self, text):
        return tokenize.tokenize(text, self._stemmer)
