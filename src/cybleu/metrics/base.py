"""Score and Signature: how a result is reported, in sacreBLEU's formats."""
from __future__ import annotations

import json
import statistics
from collections.abc import Iterable
from typing import Any

from ..version import __version__

VERSION_STRING = f"cybleu-{__version__}"


class Score:
    """A metric's result; `format()` gives sacreBLEU's text and JSON forms."""

    def __init__(self, name: str, score: float) -> None:
        self.name = name
        self.score = score
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = ""

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        sc = f"{self.score:.{width}f}"
        d: dict[str, Any] = {"name": self.name, "score": float(sc), "signature": signature}
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            confidence = f"μ = {mean} ± {ci}"
            sc += f" ({confidence})"
            if is_json:
                d["confidence_mean"] = float(mean)
                d["confidence_var"] = float(ci)
                d["confidence"] = confidence
        full = f"{self.name}|{signature}" if signature else self.name
        full = f"{full} = {sc}"
        if self._verbose:
            full += f" {self._verbose}"
            d["verbose_score"] = self._verbose
        if score_only:
            return sc
        if is_json:
            for pair in signature.split("|"):
                key, value = pair.split(":")
                d[key] = value
            return json.dumps(d, indent=1, ensure_ascii=False)
        return full

    def estimate_ci(self, scores: Iterable[Score]) -> None:
        """Mean and half-width of the 95% interval of bootstrap `scores`."""
        raw = sorted(s.score for s in scores)
        lower = len(raw) // 40
        upper = len(raw) - lower - 1
        self._ci = 0.5 * (raw[upper] - raw[lower])
        self._mean = statistics.mean(raw)

    def __repr__(self) -> str:
        return self.format()


class Signature:
    """`key:value` pairs joined by `|`, version last; `format(short=True)` abbreviates the keys."""

    def __init__(self, args: dict[str, Any]) -> None:
        self._abbr = {"version": "v", "nrefs": "#", "test": "t", "lang": "l", "subset": "S",
                      "origlang": "o", "bs": "bs", "ar": "ar", "seed": "rs"}
        if "num_refs" not in args:
            raise ValueError("Number of references unknown, please evaluate the metric first.")
        num_refs = args["num_refs"]
        self.info: dict[str, Any] = {
            "version": VERSION_STRING,
            "nrefs": "var" if num_refs == -1 else num_refs,
            "bs": args.get("n_bootstrap", None),
            "ar": None,
            "seed": args.get("seed", None),
            "test": args.get("test_set", None),
            "lang": args.get("langpair", None),
            "origlang": args.get("origlang", None),
            "subset": args.get("subset", None),
        }

    def format(self, short: bool = False) -> str:
        keys = [k for k in self.info if k != "version"] + ["version"]
        pairs = []
        for key in keys:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            pairs.append(f"{self._abbr[key] if short else key}:{value}")
        return "|".join(pairs)

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()
