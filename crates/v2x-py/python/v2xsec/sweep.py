"""Parameter sweeps: serial (in this process, on Rust threads) or on a Dask cluster (one
task per run). Both write the same folder: ``runs/<id>/`` per run, ``runs.csv``,
``results.parquet`` and ``results.csv``; the table is rebuilt from the finished runs, so a
sweep can be resumed, or run piecewise, and gives the same table whichever way it ran."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Optional, Union

import pandas as pd

from . import _native

Spec = Union[Mapping[str, Any], str, os.PathLike]


def _spec(spec: Spec) -> tuple[str, str, str]:
    from . import _source

    return _source(spec, "sweep spec")


@dataclass
class SweepResult:
    """What a sweep did and its table (``results.parquet``, one row per run x variant x
    metric or distance bin, with run_id, point, replication, seed and a column per axis)."""

    out: Path
    ran: int
    reused: int
    missing: int
    table: pd.DataFrame

    @property
    def runs(self) -> pd.DataFrame:
        return pd.read_csv(self.out / "runs.csv")


def sweep_runs(spec: Spec) -> pd.DataFrame:
    """The runs of a spec: run_id, point, replication, seed and the axis values."""
    text, fmt, base = _spec(spec)
    rows = []
    for rid, point, rep, seed, params in _native.sweep_runs(text, fmt, base):
        rows.append({"run_id": rid, "point": point, "replication": rep, "seed": seed, **json.loads(params)})
    return pd.DataFrame(rows)


def _run_task(text: str, fmt: str, base: str, run_id: str, threads: int) -> str:
    # A Dask task: imports v2xsec on the worker, simulates one run, returns its record.
    from v2xsec import _native as native

    return native.sweep_run_one(text, fmt, base, run_id, threads)


def sweep(
    spec: Spec,
    out: os.PathLike,
    client: Optional[Any] = None,
    threads: int = 0,
    runs: Optional[list[str]] = None,
    threads_per_task: int = 1,
) -> SweepResult:
    """Runs a sweep spec (dict, TOML text or path) into the folder ``out``.

    Without ``client``: in this process, ``threads`` cores at most (0: all). With a
    ``dask.distributed.Client``: one task per unfinished run (each on ``threads_per_task``
    threads), records gathered here as they finish and stored, then the table is merged.
    Finished runs are never redone; ``runs`` restricts the sweep to these run ids. Relative
    paths in the spec (base scenario, traces, profiles) must be readable by the workers.
    """
    text, fmt, base = _spec(spec)
    out = Path(out)
    only = list(runs or [])
    if client is None:
        ran, reused, missing, _ = _native.sweep(text, fmt, base, str(out), threads, only)
    else:
        ran, reused, missing = _dask_sweep(client, text, fmt, base, out, only, threads_per_task)
    table = pd.read_parquet(out / "results.parquet")
    return SweepResult(out=out, ran=ran, reused=reused, missing=missing, table=table)


def _dask_sweep(client, text, fmt, base, out: Path, only, threads_per_task) -> tuple[int, int, int]:
    from dask.distributed import as_completed

    ids = [r[0] for r in _native.sweep_runs(text, fmt, base)]
    if only:
        unknown = sorted(set(only) - set(ids))
        if unknown:
            raise _native.SweepError(f"no run {unknown[0]} in this sweep")
        ids = [i for i in ids if i in set(only)]
    todo = [i for i in ids if not _native.sweep_is_done(str(out), i)]
    out.mkdir(parents=True, exist_ok=True)
    futures = [
        client.submit(_run_task, text, fmt, base, rid, threads_per_task, key=f"v2xsec-run-{rid}", pure=False)
        for rid in todo
    ]
    error = None
    for fut in as_completed(futures):
        try:
            _native.sweep_store(str(out), fut.result())
        except Exception as e:  # keep storing the others: nothing finished is lost
            error = error or e
    _, missing = _native.sweep_merge(text, fmt, base, str(out))
    if error is not None:
        raise error
    return len(todo), len(ids) - len(todo), missing
