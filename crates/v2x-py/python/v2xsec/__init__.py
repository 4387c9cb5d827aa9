"""v2xsec: V2X security from Python.

- ``sim(scenario)``: run a simulation scenario (a dict, TOML text or a path) and get tidy
  pandas DataFrames;
- ``sweep(spec, out, client=None)``: a parameter sweep, in this process or on a Dask
  cluster (one task per run), written as per-run folders and one tidy Parquet table;
- ``bench(...)``, ``overhead()``, ``inspect(data)``: the benchmark, the overhead report and
  the decoder, as Python objects;
- ``Pki``, ``Sender.encap``, ``Receiver.decap`` (and one-shot ``encap``/``decap``): the
  1609.2 / TS 103 097 security stack on bytes, with ``Rejected`` naming the reason;
- ``PkiStation(dir)``: an ITS-S that enrols with a TS 102 941 PKI service (``v2x pki serve``)
  and keeps a pool of authorization tickets from its AA over HTTP.
  ``Pki.experimental_pq(design)``: the EXPERIMENTAL post-quantum designs (``PQ_DESIGNS``);
- ``mbd.Trace``: misbehaviour detection on VeReMi / VeReMi NextGen traces — per-message
  features for learned detectors, our built-in detectors, and the evaluation (F1 with
  vehicle-bootstrap intervals) for both.

Errors raise subclasses of ``V2xError``. The native code releases the GIL while it works.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Union

import pandas as pd

from . import _native, mbd
from ._native import (
    BenchError,
    DatasetError,
    DecodeError,
    EncapError,
    PkiError,
    PkiStation,
    ScenarioError,
    SimulationError,
    SweepError,
    V2xError,
)
from .security import (
    PQ_DESIGNS,
    Decapped,
    Pki,
    PqDecapped,
    PqPki,
    PqReceiver,
    PqSender,
    Receiver,
    Rejected,
    Sender,
    decap,
    encap,
)
from .sweep import SweepResult, sweep, sweep_runs

__all__ = [
    "sim",
    "SimResult",
    "sweep",
    "sweep_runs",
    "SweepResult",
    "bench",
    "overhead",
    "inspect",
    "Inspected",
    "Pki",
    "PkiStation",
    "Sender",
    "Receiver",
    "Decapped",
    "PQ_DESIGNS",
    "PqPki",
    "PqSender",
    "PqReceiver",
    "PqDecapped",
    "encap",
    "decap",
    "V2xError",
    "DatasetError",
    "mbd",
    "Rejected",
    "PkiError",
    "EncapError",
    "ScenarioError",
    "SimulationError",
    "SweepError",
    "DecodeError",
    "BenchError",
]

Source = Union[Mapping[str, Any], str, os.PathLike]


def _source(obj: Source, what: str) -> tuple[str, str, str]:
    """(text, format, base directory) of a dict, a path or TOML text."""
    if isinstance(obj, Mapping):
        return json.dumps(obj), "json", os.getcwd()
    if isinstance(obj, os.PathLike) or (isinstance(obj, str) and "\n" not in obj and obj.endswith(".toml")):
        p = Path(obj)
        try:
            text = p.read_text()
        except OSError as e:
            raise V2xError(f"cannot read {what} {p}: {e}") from e
        return text, "toml", str(p.resolve().parent)
    if isinstance(obj, str):
        return obj, "toml", os.getcwd()
    raise TypeError(f"{what} must be a dict, TOML text or a path, not {type(obj).__name__}")


@dataclass
class SimResult:
    """A simulation's results: ``summary`` (the ``summary.json`` document as a dict),
    ``table`` (tidy rows: variant x replication x metric or distance bin, the unit in the
    metric name), and ``metrics``/``bins`` views of it."""

    summary: dict
    table: pd.DataFrame
    wall_s: float

    @property
    def metrics(self) -> pd.DataFrame:
        """Whole-run metrics: variant, replication, metric, value."""
        t = self.table[self.table["distance_from_m"].isna()]
        return t.drop(columns=["distance_from_m", "distance_to_m"]).reset_index(drop=True)

    @property
    def bins(self) -> pd.DataFrame:
        """Per-distance rows: variant, replication, distance_from_m, distance_to_m, metric, value."""
        return self.table[self.table["distance_from_m"].notna()].reset_index(drop=True)

    def wide(self) -> pd.DataFrame:
        """Whole-run metrics, one row per variant x replication, one column per metric."""
        return self.metrics.pivot_table(
            index=["variant", "protocol", "replication"], columns="metric", values="value", dropna=False
        ).reset_index()


def sim(scenario: Source, out: Optional[os.PathLike] = None, threads: int = 0) -> SimResult:
    """Runs a scenario (dict, TOML text or path to a .toml file). ``out``: also write the
    results folder of ``v2x sim``; ``threads``: cores used at most (0: all)."""
    text, fmt, base = _source(scenario, "scenario")
    r = _native.sim(text, fmt, base, None if out is None else str(out), threads)
    table = pd.DataFrame(r["rows"])
    table["value"] = table["value"].astype("float64")
    for c in ("distance_from_m", "distance_to_m"):
        table[c] = table[c].astype("float64")
    return SimResult(summary=json.loads(r["summary"]), table=table, wall_s=r["wall_s"])


def overhead() -> pd.DataFrame:
    """The security overhead of every protocol and message type (bytes), one row per
    packet kind, with its field breakdown and the papers' figures as lists of dicts."""
    rows = json.loads(_native.overhead())["rows"]
    return pd.DataFrame(rows)


def bench(suites: str = "raw", quick: bool = True, threads: Optional[int] = None, trials: Optional[int] = None) -> dict:
    """Runs benchmark suites (comma separated: raw, stack, protocols, scaling, breakdown,
    verify, pq, or all); returns the result document with ``measurements`` as a DataFrame
    (the ``pq`` suite's paired ratios to P-256 are in ``doc["pq"]``)."""
    doc = json.loads(_native.bench(suites, quick, threads, trials))
    doc["measurements"] = pd.json_normalize(doc.get("measurements", []))
    return doc


@dataclass
class Inspected:
    """A decoded input: its format name, its tree (nested dicts: label, value, span,
    children) and the text rendering of ``v2x inspect``."""

    format: str
    tree: dict
    text: str = field(repr=False)

    def __str__(self) -> str:
        return self.text


def inspect(data: Union[bytes, bytearray, str]) -> Inspected:
    """Decodes a secured message, certificate, trust list, GeoNetworking packet, Ethernet
    frame or pcap (bytes, or hex text)."""
    if isinstance(data, str):
        data = data.encode()
    fmt, tree, text = _native.inspect(bytes(data))
    return Inspected(format=fmt, tree=json.loads(tree)["tree"], text=text)
