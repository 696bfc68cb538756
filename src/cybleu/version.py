__version__ = "0.1.0"
# the sacreBLEU release whose behaviour cybleu reproduces
SACREBLEU_VERSION = "2.6.0"
