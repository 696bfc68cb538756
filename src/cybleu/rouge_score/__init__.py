"""rouge-score 0.1.2, computed by cybleu: the same module paths, classes and numbers::

    from cybleu.rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], use_stemmer=True)
    scorer.score("The quick brown fox jumps over the lazy dog",
                 "The quick brown dog jumps on the log.")

`rouge_scorer.RougeScorer` (`score`, `score_multi`), `scoring.Score`, `AggregateScore`,
`BootstrapAggregator` (with `seed=` for numbers that do not change from run to run),
`tokenize.tokenize` and `tokenizers.DefaultTokenizer` behave as rouge-score's, bit for bit:
rouge1-rouge9, rougeL and rougeLsum, with and without nltk's Porter stemmer, on the compiled
core. To make code that imports `rouge_score` itself use it, call `cybleu.patch_rouge_score()`.
"""
