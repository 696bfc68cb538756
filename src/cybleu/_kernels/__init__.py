"""The data path, one step per module: text -> tokens -> IDs -> n-gram counts -> integer statistics.

Each compiled step (`<step>.pyx`, its C interface in `<step>.pxd`, its Python signatures in
`<step>.pyi`) has its pure-Python twin beside it, `<step>_py.py`: the readable specification,
with the same public names and the same results (the tests compare them on every input they
have). `cybleu._backend` picks one side for the whole process; nothing else imports a step
directly.

Floors (a module cimports only from the floors below it):

    0  defs.pxd        shared C types, constants and error codes
       buffers.pxd     growable buffers
       hashing.pxd     hash mixing and table slots
       workspace       per-thread scratch space; jobs that run without the GIL and stop on Ctrl-C
    1  tokenize        text -> tokens: none, 13a, intl, zh, char       (twin: tokenize_py)
       intern          tokens -> dense integer IDs                     (twin: Counter keys in corpus_py)
       ngrams          IDs -> n-gram counts, keyed on the exact n-gram (twin: Counter of tuples)
    2  bleu            BLEU statistics -> sentence scores, in bulk     (twin: bleu_py)
       corpus          lines -> BLEU statistics per segment or summed  (twin: corpus_py)
       idrows          token-ID batches -> flat IDs and offsets        (twin: idrows_py)
       chrf            lines -> chrF/chrF++ statistics                 (twin: chrf_py)
       ter             lines -> TER edit statistics                    (twin: ter_py)
       nltk_counts     token lists -> NLTK's and HF's counts           (twin: nltk_counts_py)
    3  ids             token-ID batches -> BLEU statistics             (twin: ids_py)
       resample        bootstrap / randomization sums of statistics    (twin: resample_py)

`core` gathers the BLEU steps into the one face `_backend.core` (its twin: `core_py`). `ragged`
(argument checks both sides share, so they raise the same errors), `threads`, `unicode_classes`
(intl's classes, read off the installed `regex`) and `unicode_tables` (zh's table, and intl's
frozen fallback) are plain Python used by both.
Turning statistics into scores is `cybleu._scoring`'s job.
"""
