"""sacreBLEU's function API (`corpus_bleu`, `sentence_bleu`, `raw_corpus_bleu`, `corpus_chrf`,
`sentence_chrf`, `corpus_ter`, `sentence_ter`), same defaults: effective order is on only in
`sentence_bleu` and `raw_corpus_bleu`. Plus cybleu's batch functions (`batch_sentence_bleu`,
`batch_sentence_chrf`, `pairwise_chrf`, `batch_sentence_ter`).

Every name here is also a top-level name of `cybleu` (`cybleu.corpus_bleu`, ...), where the API
reference documents it.
"""
from typing import Any, Optional, Sequence

from .metrics import BLEU, CHRF, TER, BLEUScore, CHRFScore, TERScore

__all__ = ["corpus_bleu", "raw_corpus_bleu", "sentence_bleu", "batch_sentence_bleu",
           "corpus_chrf", "sentence_chrf", "batch_sentence_chrf", "pairwise_chrf", "corpus_ter",
           "sentence_ter", "batch_sentence_ter"]

Refs = Sequence[Sequence[Optional[str]]]


def corpus_bleu(hypotheses: Sequence[str], references: Refs, smooth_method: str = "exp",
                smooth_value: Optional[float] = None, force: bool = False,
                lowercase: bool = False, tokenize: str = BLEU.TOKENIZER_DEFAULT,
                use_effective_order: bool = False) -> BLEUScore:
    """Corpus BLEU of a system's hypotheses against one or more reference streams, as
    `sacrebleu.corpus_bleu` computes it (the same number, bit for bit).

    The n-gram matches and counts of every segment are added up over the corpus first, then the
    precisions, the brevity penalty and the score are taken once: corpus BLEU is not the mean of
    sentence BLEU scores.

    :param hypotheses: The system's output, one string per segment.
    :param references: Reference *streams*: a list holding, for each reference set, one string
        per segment, so `references[k][i]` is the k-th reference of segment i (one reference per
        segment is `[refs]`). `None` in a stream means that segment has no reference in that set.
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` (default 0.1) or `'add-k'` (default 1).
    :param force: Do not warn when the hypotheses look tokenized already.
    :param lowercase: Lowercase hypotheses and references before tokenizing.
    :param tokenize: The tokenizer: `'13a'` (default), `'none'`, `'intl'`, `'zh'`, `'char'`,
        `'ja-mecab'`, `'ko-mecab'`, `'flores101'`, `'flores200'`, `'spBLEU-1K'`.
    :param use_effective_order: Leave out the n-gram orders no hypothesis reaches (sacreBLEU's
        default for corpus BLEU is False).
    :returns: A :class:`~cybleu.metrics.BLEUScore`: `score` (0-100), `counts`, `totals`,
        `precisions`, `bp`, `sys_len`, `ref_len`; `str()` gives sacreBLEU's one-line form.
    :raises TypeError: A string passed where a list is expected, or a line that is not a string
        (the message names it and the fix).
    :raises ValueError: An empty corpus, streams of different lengths or of another length than
        the hypotheses, an unknown tokenizer or smoothing method.

    >>> import cybleu
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = [["The cat is on the mat.", "Hello world!"]]      # one reference stream
    >>> print(cybleu.corpus_bleu(hyps, refs))
    BLEU = 40.15 81.8/55.6/28.6/20.0 (BP = 1.000 ratio = 1.100 hyp_len = 11 ref_len = 10)
    >>> cybleu.corpus_bleu(hyps, refs + [["The cat sat on a mat.", None]]).score   # two streams
    63.40466277046863
    """
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Refs,
                    smooth_value: Optional[float] = BLEU.SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """`sacrebleu.raw_corpus_bleu`: corpus BLEU on whitespace-split lines (`tokenize='none'`),
    floor smoothing and effective order, without the tokenized-input warning.

    :param hypotheses: The system's output, one string per segment.
    :param references: Reference streams, as for :func:`corpus_bleu`.
    :param smooth_value: The floor for zero precisions (default 0.1).
    :returns: A :class:`~cybleu.metrics.BLEUScore`.
    :raises TypeError: As :func:`corpus_bleu`.
    :raises ValueError: As :func:`corpus_bleu`.

    >>> import cybleu
    >>> print(cybleu.raw_corpus_bleu(["The cat sat on the mat.", "Hello, world!"],
    ...                              [["The cat is on the mat.", "Hello world!"]]))
    BLEU = 23.64 75.0/50.0/25.0/3.3 (BP = 1.000 ratio = 1.000 hyp_len = 8 ref_len = 8)
    """
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[Optional[str]],
                  smooth_method: str = "exp", smooth_value: Optional[float] = None,
                  lowercase: bool = False, tokenize: str = BLEU.TOKENIZER_DEFAULT,
                  use_effective_order: bool = True) -> BLEUScore:
    """Sentence BLEU of one hypothesis against its references, as `sacrebleu.sentence_bleu`
    computes it (the same number, bit for bit).

    BLEU of a single sentence is BLEU of a corpus of one segment, with smoothing (`'exp'`) and
    effective order on by default so that a short sentence without 4-gram matches does not score
    0. To score many sentences at once, :func:`batch_sentence_bleu` is much faster than a loop.

    :param hypothesis: One hypothesis string.
    :param references: Its references: a list of strings (not streams), e.g. `[ref]`; `None`
        entries are skipped.
    :param smooth_method: `'exp'` (default), `'floor'`, `'add-k'` or `'none'`.
    :param smooth_value: The value of `'floor'` (default 0.1) or `'add-k'` (default 1).
    :param lowercase: Lowercase before tokenizing.
    :param tokenize: The tokenizer, as for :func:`corpus_bleu` (default `'13a'`).
    :param use_effective_order: Leave out n-gram orders the hypothesis has no n-grams of
        (default True, as sacreBLEU).
    :returns: A :class:`~cybleu.metrics.BLEUScore`; ``.score`` is the number (0-100).
    :raises TypeError: `hypothesis` is not a string (a list of hypotheses belongs in
        :func:`corpus_bleu` or :func:`batch_sentence_bleu`), or `references` is a single string
        (pass `[ref]`).
    :raises ValueError: No reference, an unknown tokenizer or smoothing method.

    >>> import cybleu
    >>> print(cybleu.sentence_bleu("The cat sat on the mat.", ["The cat is on the mat."]))
    BLEU = 48.89 85.7/66.7/40.0/25.0 (BP = 1.000 ratio = 1.000 hyp_len = 7 ref_len = 7)
    >>> cybleu.sentence_bleu("The cat sat on the mat.",
    ...                      ["The cat is on the mat.", "A cat sat on the mat."]).score
    88.01117367933934
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_bleu(hypotheses: Sequence[str], references: Refs, smooth_method: str = "exp",
                        smooth_value: Optional[float] = None, lowercase: bool = False,
                        tokenize: str = BLEU.TOKENIZER_DEFAULT,
                        use_effective_order: bool = True, n_threads: int = 1) -> Any:
    """Sentence BLEU of every hypothesis in one call: element i equals, bit for bit,
    `sentence_bleu(hypotheses[i], [stream[i] for stream in references]).score`.

    The whole batch is tokenized, counted and scored in the compiled core without the GIL.

    :param hypotheses: One string per segment.
    :param references: Reference streams, as for :func:`corpus_bleu`.
    :param smooth_method: As :func:`sentence_bleu` (default `'exp'`).
    :param smooth_value: As :func:`sentence_bleu`.
    :param lowercase: Lowercase before tokenizing.
    :param tokenize: The tokenizer (default `'13a'`).
    :param use_effective_order: As :func:`sentence_bleu` (default True).
    :param n_threads: Share the batch out among this many threads (the scores do not depend on
        it).
    :returns: A float64 numpy array of `len(hypotheses)` scores (0-100).
    :raises TypeError: As :func:`corpus_bleu`.
    :raises ValueError: As :func:`corpus_bleu`, or `n_threads` below 1.

    >>> import cybleu
    >>> cybleu.batch_sentence_bleu(["The cat sat on the mat.", "Hello, world!"],
    ...                            [["The cat is on the mat.", "Hello world!"]]).tolist()
    [48.892302243490086, 35.35533905932737]
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=True,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_scores(hypotheses, references, n_threads=n_threads)


def corpus_chrf(hypotheses: Sequence[str], references: Refs, char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA,
                remove_whitespace: bool = True, eps_smoothing: bool = False) -> CHRFScore:
    """Corpus chrF (chrF++ with `word_order=2`) against reference streams, as
    `sacrebleu.corpus_chrf` computes it (bit for bit).

    :param hypotheses: One string per segment.
    :param references: Reference streams, as for :func:`corpus_bleu`.
    :param char_order: Character n-gram order (default 6).
    :param word_order: Word n-gram order (default 0; 2 gives chrF++).
    :param beta: Weight of recall against precision (default 2).
    :param remove_whitespace: Leave whitespace out of the character n-grams (default True).
    :param eps_smoothing: chrF++.py's epsilon smoothing instead of sacreBLEU's effective order.
    :returns: A :class:`~cybleu.metrics.CHRFScore` (`score` 0-100).
    :raises TypeError: As :func:`corpus_bleu`, or a `beta` that is not a number.
    :raises ValueError: As :func:`corpus_bleu`; both orders 0; a segment whose references are
        all None.

    >>> import cybleu
    >>> hyps = ["The cat sat on the mat.", "Hello, world!"]
    >>> refs = [["The cat is on the mat.", "Hello world!"]]
    >>> print(cybleu.corpus_chrf(hyps, refs), cybleu.corpus_chrf(hyps, refs, word_order=2))
    chrF2 = 66.05 chrF2++ = 68.19
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[Optional[str]],
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """chrF of one hypothesis against its references (a list of strings), as
    `sacrebleu.sentence_chrf`: against several references, the best one counts.

    :param hypothesis: One hypothesis string.
    :param references: Its references, a list of strings (`None` entries are skipped).
    :param char_order: Character n-gram order (default 6).
    :param word_order: Word n-gram order (default 0; 2 gives chrF++).
    :param beta: Weight of recall against precision (default 2).
    :param remove_whitespace: Leave whitespace out of the character n-grams (default True).
    :param eps_smoothing: chrF++.py's epsilon smoothing instead of effective order.
    :returns: A :class:`~cybleu.metrics.CHRFScore`.
    :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
    :raises ValueError: No reference; both orders 0.

    >>> import cybleu
    >>> print(cybleu.sentence_chrf("The cat sat on the mat.", ["The cat is on the mat."]))
    chrF2 = 67.17
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_chrf(hypotheses: Sequence[str], references: Refs,
                        char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                        beta: int = CHRF.BETA, remove_whitespace: bool = True,
                        eps_smoothing: bool = False, lowercase: bool = False) -> Any:
    """Sentence chrF of every hypothesis in one call: element i equals, bit for bit,
    `sentence_chrf(hypotheses[i], [stream[i] for stream in references]).score`.

    :param hypotheses: One string per segment.
    :param references: Reference streams, as for :func:`corpus_chrf`.
    :param char_order: Character n-gram order (default 6).
    :param word_order: Word n-gram order (default 0; 2 gives chrF++).
    :param beta: Weight of recall against precision (default 2).
    :param remove_whitespace: Leave whitespace out of the character n-grams (default True).
    :param eps_smoothing: chrF++.py's epsilon smoothing instead of effective order.
    :param lowercase: Lowercase before counting.
    :returns: A float64 numpy array of `len(hypotheses)` scores (0-100).
    :raises TypeError: As :func:`corpus_chrf`.
    :raises ValueError: As :func:`corpus_chrf`.

    >>> import cybleu
    >>> cybleu.batch_sentence_chrf(["The cat sat on the mat.", "Hello, world!"],
    ...                            [["The cat is on the mat.", "Hello world!"]]).tolist()
    [67.17273492330233, 63.55479131750938]
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_scores(hypotheses, references)


def pairwise_chrf(hypotheses: Sequence[str], references: Optional[Sequence[str]] = None,
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False, lowercase: bool = False) -> Any:
    """Sentence chrF of each hypothesis against each reference alone, for MBR decoding: element
    `[i, j]` equals, bit for bit, `sentence_chrf(hypotheses[i], [references[j]]).score`.

    Every distinct n-gram of the batch is counted once, so a pair costs one array read per
    distinct hypothesis n-gram.

    :param hypotheses: A flat list of sentences.
    :param references: A flat list of sentences (not streams); None scores the hypotheses
        against each other.
    :param char_order: Character n-gram order (default 6).
    :param word_order: Word n-gram order (default 0; 2 gives chrF++).
    :param beta: Weight of recall against precision (default 2).
    :param remove_whitespace: Leave whitespace out of the character n-grams (default True).
    :param eps_smoothing: chrF++.py's epsilon smoothing instead of effective order.
    :param lowercase: Lowercase before counting.
    :returns: A float64 numpy array of shape `(len(hypotheses), len(references))`.
    :raises TypeError: A line that is not a string (a nested list says pairwise scoring takes a
        flat list).
    :raises ValueError: Both orders 0.

    >>> import cybleu
    >>> cybleu.pairwise_chrf(["The cat sat on the mat.", "Hello, world!"],
    ...                      ["The cat is on the mat.", "Hello!", "Hi"]).round(2).tolist()
    [[67.17, 3.97, 0.0], [2.08, 47.94, 12.5]]
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.pairwise_scores(hypotheses, references)


def corpus_ter(hypotheses: Sequence[str], references: Refs, normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERScore:
    """Corpus TER (translation edit rate) against reference streams, as `sacrebleu.corpus_ter`
    computes it (bit for bit): the edits that turn each hypothesis into its closest reference,
    summed, over the summed average reference lengths. Lower is better.

    :param hypotheses: One string per segment.
    :param references: Reference streams, as for :func:`corpus_bleu`.
    :param normalized: tercom's normalization (punctuation split off, XML escapes undone).
    :param no_punct: Remove punctuation.
    :param asian_support: The CJK parts of `normalized` and `no_punct`.
    :param case_sensitive: Do not lowercase.
    :returns: A :class:`~cybleu.metrics.TERScore`: `score` (0-100+), `num_edits`,
        `ref_length`.
    :raises TypeError: As :func:`corpus_bleu`.
    :raises ValueError: As :func:`corpus_bleu`; a segment whose references are all None.

    >>> import cybleu
    >>> print(cybleu.corpus_ter(["The cat sat on the mat.", "Hello, world!"],
    ...                         [["The cat is on the mat.", "Hello world!"]]))
    TER = 25.00
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[Optional[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERScore:
    """TER of one hypothesis against its references (a list of strings), as
    `sacrebleu.sentence_ter`: the fewest edits over the references, over their average length.

    :param hypothesis: One hypothesis string.
    :param references: Its references, a list of strings (`None` entries are skipped).
    :param normalized: tercom's normalization.
    :param no_punct: Remove punctuation.
    :param asian_support: The CJK parts of `normalized` and `no_punct`.
    :param case_sensitive: Do not lowercase.
    :returns: A :class:`~cybleu.metrics.TERScore`.
    :raises TypeError: `hypothesis` is not a string, or `references` is a single string.
    :raises ValueError: No reference.

    >>> import cybleu
    >>> score = cybleu.sentence_ter("The cat sat on the mat.", ["The cat is on the mat."])
    >>> score.score, score.num_edits, score.ref_length
    (16.666666666666664, 1, 6.0)
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_ter(hypotheses: Sequence[str], references: Refs, normalized: bool = False,
                       no_punct: bool = False, asian_support: bool = False,
                       case_sensitive: bool = False) -> Any:
    """Sentence TER of every hypothesis in one call: element i equals, bit for bit,
    `sentence_ter(hypotheses[i], [stream[i] for stream in references]).score`.

    :param hypotheses: One string per segment.
    :param references: Reference streams, as for :func:`corpus_ter`.
    :param normalized: tercom's normalization.
    :param no_punct: Remove punctuation.
    :param asian_support: The CJK parts of `normalized` and `no_punct`.
    :param case_sensitive: Do not lowercase.
    :returns: A float64 numpy array of `len(hypotheses)` scores.
    :raises TypeError: As :func:`corpus_ter`.
    :raises ValueError: As :func:`corpus_ter`.

    >>> import cybleu
    >>> cybleu.batch_sentence_ter(["The cat sat on the mat.", "Hello, world!"],
    ...                           [["The cat is on the mat.", "Hello world!"]]).tolist()
    [16.666666666666664, 50.0]
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_scores(hypotheses, references)
