"""Wall time of a 100-run sweep: serial (one process, --threads N) vs a Dask LocalCluster
(N worker processes, one thread each), and the Dask overhead per task.

    python examples/measure_sweep_dask.py [--workers 2] [--out /tmp/v2xsec-measure]

Overhead per task = (Dask wall x workers - sum of the runs' own simulation wall times) / runs:
the time a worker spends per task on anything but simulating (scheduling, serialising the
spec and the record, the gather and the store on the client)."""

import argparse
import json
import pathlib
import shutil
import time

import pandas as pd

import v2xsec

SPEC = {
    "name": "measure-100",
    "replications": 10,
    "seed": 1,
    "scenario": {
        "duration_s": 1.0,
        "warmup_s": 0.2,
        "mobility": {"kind": "highway", "length_m": 500.0, "lanes_per_direction": 1},
        "variant": [{"name": "ecdsa", "protocol": "ieee1609.2", "verify_cost_us": 1500.0, "sign_cost_us": 500.0}],
    },
    "axes": {"mobility.density_veh_per_km_lane": [10.0, 20.0, 30.0, 40.0, 50.0], "variant.0.cores": [1, 2]},
}


def run_walls(out):
    return sum(json.loads(p.read_text())["wall_s"] for p in pathlib.Path(out).glob("runs/*/record.json"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="/tmp/v2xsec-measure")
    a = ap.parse_args()
    out = pathlib.Path(a.out)
    shutil.rmtree(out, ignore_errors=True)
    n = len(v2xsec.sweep_runs(SPEC))
    t0 = time.perf_counter()
    serial = v2xsec.sweep(SPEC, out / "serial", threads=a.workers)
    t_serial = time.perf_counter() - t0
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=a.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.run(lambda: __import__("v2xsec"))  # workers import the package before timing
            t0 = time.perf_counter()
            dask = v2xsec.sweep(SPEC, out / "dask", client=client)
            t_dask = time.perf_counter() - t0
    pd.testing.assert_frame_equal(serial.table, dask.table)
    sim_serial, sim_dask = run_walls(out / "serial"), run_walls(out / "dask")
    print(f"runs: {n}; workers/threads: {a.workers}")
    print(f"serial (Rust pool, {a.workers} threads): {t_serial:.2f} s wall; sum of run walls {sim_serial:.2f} s")
    print(f"dask LocalCluster ({a.workers} workers): {t_dask:.2f} s wall; sum of run walls {sim_dask:.2f} s")
    print(f"dask / serial: {t_dask / t_serial:.2f}")
    print(f"overhead per task: {(t_dask * a.workers - sim_dask) / n * 1000:.1f} ms "
          f"(serial: {(t_serial * a.workers - sim_serial) / n * 1000:.1f} ms)")
    print("tables equal: yes")
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
