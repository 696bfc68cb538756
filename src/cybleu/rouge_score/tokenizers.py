"""rouge-score's tokenizer classes: `Tokenizer` (the abstract base of a tokenizer object with
`tokenize(text)`) and `DefaultTokenizer(use_stemmer)`, plus `PorterStemmer`, nltk 3.10.4's
Porter stemmer as rouge-score constructs it (NLTK_EXTENSIONS), compiled."""
import abc

from . import tokenize
from ._porter import PorterStemmer

__all__ = ["Tokenizer", "DefaultTokenizer", "PorterStemmer"]


class Tokenizer(abc.ABC):
    """Abstract base class for a tokenizer.

    Subclasses of Tokenizer must implement the tokenize() method; RougeScorer takes any object
    that has one.

    >>> from cybleu.rouge_score import rouge_scorer, tokenizers
    >>> class Characters(tokenizers.Tokenizer):
    ...     def tokenize(self, text):
    ...         return [c for c in text if not c.isspace()]
    >>> scorer = rouge_scorer.RougeScorer(["rouge1"], tokenizer=Characters())
    >>> scorer.score("猫坐在垫子上", "猫坐在地上")["rouge1"].fmeasure
    0.7272727272727272
    """

    @abc.abstractmethod
    def tokenize(self, text):
        """The tokens of a text.

        :param text: The text.
        :returns: A list of tokens (any hashable objects).
        """
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
        """rouge-score's tokens of a text.

        :param text: The text.
        :returns: A list of str tokens (ASCII letters and digits).
        """
        return tokenize.tokenize(text, self._stemmer)
