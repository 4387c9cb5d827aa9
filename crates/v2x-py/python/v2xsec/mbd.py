"""Misbehaviour detection from Python (``v2x-mbd``, docs/misbehaviour-detection.md).

A :class:`Trace` holds received CAMs with ground truth, one log per receiver (VeReMi NextGen
files, VeReMi / VeReMi Extension logs, or one of these with our attacks injected). From it:

- ``trace.features()``: per-message feature vectors, the inputs our detectors fuse — every
  check's score in [0, 1] (1 = plausible; the receiver-evidence flags ``content-replay``,
  ``duplicate-content``, ``co-located-pseudonyms`` are 0 or 1) and the sender's declared
  confidences — as a numpy matrix with its column names (:data:`FEATURE_NAMES` order);
- ``trace.evaluate(detector)``: precision, recall, F1 and accuracy with 95 % bootstrap
  intervals over sending vehicles, on one half of the vehicles (``half="test"``: the half the
  project's figures use; ``"tune"``: the other, to fit on; ``"all"``). ``detector`` is a
  built-in name (``"full"``, ``"plausibility"``, ``"catch-reference"``), an object with
  ``predict(X)`` (a scikit-learn classifier) or a callable ``f(X)``, returning one truthy
  value per row of ``features()``; its exceptions propagate unchanged;
- ``trace.in_half("tune")``: the rows of the vehicles to train on.

Scores are the same code as ``v2x-mbd score``: a learned detector and ours are scored alike.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from os import PathLike
from typing import Any, Callable, Iterable, Optional, Union

import numpy as np
import pandas as pd

from . import _native

Detector = Union[str, Callable[[np.ndarray], Any], Any]

#: Feature columns: one per check (``CheckId`` order, the last three the receiver evidence),
#: then the declared position, speed, heading and acceleration confidences.
FEATURE_NAMES: tuple = tuple(_native.mbd_feature_names())
#: The built-in detectors (``v2x-mbd score --detector``).
DETECTORS = ("catch-reference", "plausibility", "full")


@dataclass(frozen=True)
class Interval:
    """A metric and its 95 % bootstrap interval over sending vehicles."""

    value: float
    lo: float
    hi: float


@dataclass(frozen=True)
class Score:
    """A detector's score on one half of a trace's vehicles."""

    tp: int
    tn: int
    fp: int
    fn: int
    precision: Interval
    recall: Interval
    f1: Interval
    accuracy: Interval

    @classmethod
    def _from_json(cls, text: str) -> "Score":
        s = json.loads(text)
        c = s["counts"]
        return cls(
            tp=c["tp"],
            tn=c["tn"],
            fp=c["fp"],
            fn=c["fn_"],
            **{k: Interval(**s[k]) for k in ("precision", "recall", "f1", "accuracy")},
        )

    def __str__(self) -> str:
        f = self.f1
        return (
            f"F1 {f.value:.3f} [{f.lo:.3f}, {f.hi:.3f}]  P {self.precision.value:.3f}  "
            f"R {self.recall.value:.3f}  acc {self.accuracy.value:.3f}"
        )


@dataclass(frozen=True)
class Features:
    """Per-message features: ``X[i]`` is row ``i`` of the trace (``Trace.meta`` order)."""

    names: tuple
    X: np.ndarray

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(self.X, columns=list(self.names))


class Trace:
    """Received CAMs with ground truth, one log per receiver, each in reception order."""

    def __init__(self, native: "_native.MbdTrace"):
        self._t = native
        self._meta: Optional[pd.DataFrame] = None
        self._features: dict = {}

    @classmethod
    def nextgen(cls, path: Union[str, PathLike]) -> "Trace":
        """A VeReMi NextGen file (one receiver) or a folder of them."""
        return cls(_native.MbdTrace.read_nextgen(str(path)))

    @classmethod
    def veremi(cls, logs: Iterable[Union[str, PathLike]], ground_truth: Union[str, PathLike]) -> "Trace":
        """VeReMi / VeReMi Extension receiver logs, labelled by the ground-truth log."""
        return cls(_native.MbdTrace.read_veremi([str(p) for p in logs], str(ground_truth)))

    def attack(self, name: str, ratio: float = 0.2, seed: int = 1) -> "Trace":
        """This trace with our implementation of ``name`` injected (``v2x-mbd attack``): a
        ``ratio`` share of the vehicles attack. An unknown name lists the valid ones."""
        return Trace(self._t.attack(name, float(ratio), int(seed)))

    def __len__(self) -> int:
        return len(self._t)

    @property
    def meta(self) -> pd.DataFrame:
        """One row per message: ``log``, ``message_id``, ``sender_id`` (the true vehicle),
        ``sender_alias`` (the pseudonym), ``rcv_time_s``, ``attacker`` (ground truth)."""
        if self._meta is None:
            self._meta = pd.DataFrame(self._t.meta())
        return self._meta

    def features(self, family: str = "catch") -> Features:
        """The feature matrix: checks of ``family`` (``catch`` or ``legacy``)."""
        if family not in self._features:
            names, raw, rows = self._t.features(family)
            X = np.frombuffer(raw, dtype=np.float64).reshape(rows, len(names))
            X.setflags(write=False)
            self._features[family] = Features(tuple(names), X)
        return self._features[family]

    def in_half(self, half: str = "tune", test_share: float = 0.5) -> np.ndarray:
        """Whether each row's sending vehicle is in ``half`` (``test``, ``tune``, ``all``):
        the evaluation's seeded split by vehicle, so no vehicle is on both sides."""
        return np.asarray(self._t.in_half(half, float(test_share)), dtype=bool)

    def predict(self, detector: Detector, family: str = "catch") -> np.ndarray:
        """Per-row predictions (bool) of a built-in detector (by name) or of ``detector``
        called on ``features(family).X``."""
        if isinstance(detector, str):
            return np.asarray(self._t.predict(detector, family), dtype=bool)
        X = self.features(family).X
        if hasattr(detector, "predict"):
            out = detector.predict(X)
        elif callable(detector):
            out = detector(X)
        else:
            raise TypeError(
                f"a detector is a built-in name, an object with predict(X) or a callable, not {type(detector).__name__}"
            )
        return _as_flags(out, len(self))

    def score(
        self, predictions: Any, half: str = "test", test_share: float = 0.5, reps: int = 1000
    ) -> Score:
        """Scores per-row predictions as ``v2x-mbd score`` does."""
        flags = _as_flags(predictions, len(self))
        return Score._from_json(self._t.score(flags.tolist(), half, float(test_share), int(reps)))

    def evaluate(
        self,
        detector: Detector,
        half: str = "test",
        test_share: float = 0.5,
        reps: int = 1000,
        family: str = "catch",
    ) -> Score:
        """``score(predict(detector))``: a built-in or learned detector on ``half``."""
        return self.score(self.predict(detector, family), half, test_share, reps)


def _as_flags(predictions: Any, rows: int) -> np.ndarray:
    p = np.asarray(predictions)
    if p.ndim != 1 and not (p.ndim == 2 and p.shape[1] == 1):
        raise ValueError(f"predictions must be one value per row, got shape {p.shape}")
    p = p.reshape(-1)
    if len(p) != rows:
        raise ValueError(f"{len(p)} predictions for {rows} messages (one per row of features())")
    if p.dtype == bool:
        return p
    if not np.issubdtype(p.dtype, np.number):
        raise ValueError(f"predictions must be booleans or numbers, got dtype {p.dtype}")
    if np.isnan(p.astype(np.float64)).any():
        raise ValueError("predictions contain NaN")
    return p != 0
