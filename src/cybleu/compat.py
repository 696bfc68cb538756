"""sacreBLEU's function API (`corpus_bleu`, `sentence_bleu`, `raw_corpus_bleu`), same defaults:
effective order is on only in `sentence_bleu` and `raw_corpus_bleu`."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional

from .metrics import BLEU, BLEUScore

if TYPE_CHECKING:  # numpy is imported when an array is made, not with cybleu
    import numpy as np
    import numpy.typing as npt


def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]],
                smooth_method: str = "exp", smooth_value: Optional[float] = None,
                force: bool = False, lowercase: bool = False,
                tokenize: Optional[str] = BLEU.TOKENIZER_DEFAULT,
                use_effective_order: bool = False) -> BLEUScore:
    """Corpus BLEU of hypotheses against reference streams ([[ref of each hyp], ...])."""
    metric = BLEU(lowercase=lowercase, force=force, tokenize=tokenize,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.corpus_score(hypotheses, references)


def raw_corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]],
                    smooth_value: Optional[float] = BLEU.SMOOTH_DEFAULTS["floor"]) -> BLEUScore:
    """Corpus BLEU without tokenization, floor smoothing and effective order."""
    return corpus_bleu(hypotheses, references, smooth_method="floor", smooth_value=smooth_value,
                       force=True, tokenize="none", use_effective_order=True)


def sentence_bleu(hypothesis: str, references: Sequence[Optional[str]], smooth_method: str = "exp",
                  smooth_value: Optional[float] = None, lowercase: bool = False,
                  tokenize: Optional[str] = BLEU.TOKENIZER_DEFAULT,
                  use_effective_order: bool = True) -> BLEUScore:
    """BLEU of one hypothesis against its references (a list of strings)."""
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=False,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_score(hypothesis, references)


def batch_sentence_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]],
                        smooth_method: str = "exp", smooth_value: Optional[float] = None,
                        lowercase: bool = False, tokenize: Optional[str] = BLEU.TOKENIZER_DEFAULT,
                        use_effective_order: bool = True) -> npt.NDArray[np.float64]:
    """Sentence BLEU of every hypothesis in one call: a float64 numpy array, element i equal bit
    for bit to `sentence_bleu(hypotheses[i], [stream[i] for stream in references]).score`.

    `references` are streams, as for `corpus_bleu`.
    """
    metric = BLEU(lowercase=lowercase, tokenize=tokenize, force=True,
                  smooth_method=smooth_method, smooth_value=smooth_value,
                  effective_order=use_effective_order)
    return metric.sentence_scores(hypotheses, references)
