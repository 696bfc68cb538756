"""Metrics under sacreBLEU's module paths, and `METRICS`: the one registry of metric names (name ->
class), read by the API, the command line and the tests."""
from typing import Dict

from .base import Metric, Score, Signature
from .bleu import BLEU, BLEUScore, BLEUSignature
from .chrf import CHRF, CHRFScore, CHRFSignature
from .ter import TER, TERScore, TERSignature

METRICS: Dict[str, type] = {"BLEU": BLEU, "CHRF": CHRF, "TER": TER}

__all__ = ["BLEU", "BLEUScore", "BLEUSignature", "CHRF", "CHRFScore", "CHRFSignature", "TER",
           "TERScore", "TERSignature", "Metric", "Score", "Signature", "METRICS"]
