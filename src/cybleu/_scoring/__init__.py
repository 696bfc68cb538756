"""Integer statistics -> scores: the float paths, one per family of metrics.

    bleu    sacreBLEU's BLEU from (correct, total, sys_len, ref_len), smoothing, argument checks
    chrf    sacreBLEU's chrF/chrF++ F-score from character and word n-gram statistics
    nltk    NLTK's smoothing methods and brevity penalty for cybleu.nltk / cybleu.hf

Each is the single Python place where a metric's floats are computed, shared by both backends'
twins and by every public face (metrics, significance, ids, nltk, hf), so scores agree bit for
bit by construction. These modules import only the standard library.
"""
