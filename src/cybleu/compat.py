"""sacreBLEU's function API (`corpus_bleu`, `sentence_bleu`, `raw_corpus_bleu`), same defaults:
effective order is on only in `sentence_bleu` and `raw_corpus_bleu`."""
from .metrics import BLEU


def corpus_bleu(hypotheses, references, smooth_method="exp", smooth_value=None, force=False,
                lowercase=False, tokenize=BLEU.TOKENIZER_DEFAULT, use_effective_order=False):
    """Corpus BLEU of hypotheses against reference streams ([[ref of each hyp], ...])."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses, references, smooth_value=BLEU.SMOOTH_DEFAULTS["floor"]):
    """Corpus BLEU without tokenization, floor smoothing and effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis, references, smooth_method="exp", smooth_value=None,
                  lowercase=False, tokenize=BLEU.TOKENIZER_DEFAULT, use_effective_order=True):
    """BLEU of one hypothesis against its references (a list of strings)."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_bleu(hypotheses, references, smooth_method="exp", smooth_value=None,
                        lowercase=False, tokenize=BLEU.TOKENIZER_DEFAULT,
                        use_effective_order=True):
    """Sentence BLEU of every hypothesis in one call: a float64 numpy array, element i equal bit
    for bit to `sentence_bleu(hypotheses[i], [stream[i] for stream in references]).score`.

    `references` are streams, as for `corpus_bleu`.
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=True,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_scores(hypotheses, references)
