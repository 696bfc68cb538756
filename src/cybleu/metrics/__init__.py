"""Metrics under sacreBLEU's module paths, and `METRICS`: the one registry of metric names (name ->
class), read by the API, the command line and the tests."""
from .base import Metric, Score, Signature
from .bleu import BLEU, BLEUScore, BLEUSignature

METRICS = {"BLEU": BLEU}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "Metric", "Score", "Signature", "METRICS"]
