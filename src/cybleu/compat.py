"""sacreBLEU's function API (`corpus_bleu`, `sentence_bleu`, `raw_corpus_bleu`, `corpus_chrf`,
`sentence_chrf`, `corpus_ter`, `sentence_ter`), same defaults: effective order is on only in
`sentence_bleu` and `raw_corpus_bleu`. Plus cybleu's batch functions (`batch_sentence_bleu`,
`batch_sentence_chrf`, `pairwise_chrf`, `batch_sentence_ter`)."""
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
    """Corpus BLEU of hypotheses against reference streams ([[ref of each hyp], ...])."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Refs,
                    smooth_value: Optional[float] = BLEU.SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """Corpus BLEU without tokenization, floor smoothing and effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[Optional[str]],
                  smooth_method: str = "exp", smooth_value: Optional[float] = None,
                  lowercase: bool = False, tokenize: str = BLEU.TOKENIZER_DEFAULT,
                  use_effective_order: bool = True) -> BLEUScore:
    """BLEU of one hypothesis against its references (a list of strings)."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_bleu(hypotheses: Sequence[str], references: Refs, smooth_method: str = "exp",
                        smooth_value: Optional[float] = None, lowercase: bool = False,
                        tokenize: str = BLEU.TOKENIZER_DEFAULT,
                        use_effective_order: bool = True, n_threads: int = 1) -> Any:
    """Sentence BLEU of every hypothesis in one call: a float64 numpy array, element i equal bit
    for bit to `sentence_bleu(hypotheses[i], [stream[i] for stream in references]).score`.

    `references` are streams, as for `corpus_bleu`. n_threads: score on that many threads
    (same results).
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=True,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_scores(hypotheses, references, n_threads=n_threads)


def corpus_chrf(hypotheses: Sequence[str], references: Refs, char_order: int = CHRF.CHAR_ORDER,
                word_order: int = CHRF.WORD_ORDER, beta: int = CHRF.BETA,
                remove_whitespace: bool = True, eps_smoothing: bool = False) -> CHRFScore:
    """Corpus chrF (chrF++ with word_order=2) of hypotheses against reference streams."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[Optional[str]],
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False) -> CHRFScore:
    """chrF of one hypothesis against its references (a list of strings)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_chrf(hypotheses: Sequence[str], references: Refs,
                        char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                        beta: int = CHRF.BETA, remove_whitespace: bool = True,
                        eps_smoothing: bool = False, lowercase: bool = False) -> Any:
    """Sentence chrF of every hypothesis in one call: a float64 numpy array, element i equal bit
    for bit to `sentence_chrf(hypotheses[i], [stream[i] for stream in references]).score`.

    `references` are streams, as for `corpus_chrf`.
    """
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.sentence_scores(hypotheses, references)


def pairwise_chrf(hypotheses: Sequence[str], references: Optional[Sequence[str]] = None,
                  char_order: int = CHRF.CHAR_ORDER, word_order: int = CHRF.WORD_ORDER,
                  beta: int = CHRF.BETA, remove_whitespace: bool = True,
                  eps_smoothing: bool = False, lowercase: bool = False) -> Any:
    """float64 matrix (len(hypotheses), len(references)) for MBR decoding: element [i, j] is the
    sentence chrF of hypotheses[i] against references[j] alone, bit for bit
    `sentence_chrf(hypotheses[i], [references[j]]).score`. `references` is a flat list of
    sentences (None: the hypotheses against each other)."""
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                  whitespace=not remove_whitespace, eps_smoothing=eps_smoothing)
    return metric.pairwise_scores(hypotheses, references)


def corpus_ter(hypotheses: Sequence[str], references: Refs, normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False,
               case_sensitive: bool = False) -> TERScore:
    """Corpus TER of hypotheses against reference streams ([[ref of each hyp], ...])."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[Optional[str]], normalized: bool = False,
                 no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False) -> TERScore:
    """TER of one hypothesis against its references (a list of strings)."""
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_ter(hypotheses: Sequence[str], references: Refs, normalized: bool = False,
                       no_punct: bool = False, asian_support: bool = False,
                       case_sensitive: bool = False) -> Any:
    """Sentence TER of every hypothesis in one call: a float64 numpy array, element i equal bit
    for bit to `sentence_ter(hypotheses[i], [stream[i] for stream in references]).score`.

    `references` are streams, as for `corpus_ter`.
    """
    metric = TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                 case_sensitive=case_sensitive)
    return metric.sentence_scores(hypotheses, references)
