"""Metrics under sacreBLEU's module paths."""
from .base import Score, Signature
from .bleu import BLEU, BLEUScore, BLEUSignature

METRICS = {"BLEU": BLEU}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "Score", "Signature", "METRICS"]
