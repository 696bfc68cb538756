"""cybleu's compiled Porter stemmer in nltk's shape (its own module: `tokenize` and
`tokenizers` both use it, and `tokenizers` imports `tokenize`)."""
from .._backend import module

__all__ = ["PorterStemmer"]


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
        """The stem of a word, as nltk's.

        :param word: The word (a str).
        :param to_lowercase: Lowercase it first (nltk's default).
        :returns: Its stem.
        """
        return module("porter").stem(word, to_lowercase)

    def __repr__(self):
        return "<PorterStemmer>"
