"""Sweeps from Python: serial, resumable, a single run alone, and on a Dask LocalCluster
with 2 workers giving the same table as the serial sweep."""

import pandas as pd
import pytest

import v2xsec


def _sorted(t):
    return t.sort_values(["run_id", "variant", "metric", "distance_from_m"], na_position="first").reset_index(drop=True)


def test_serial_sweep_table_resume_and_single_run(small_spec, tmp_path):
    runs = v2xsec.sweep_runs(small_spec)
    assert len(runs) == 8 and runs["run_id"].is_unique
    assert set(runs["seed"]) == {11, 12}
    r = v2xsec.sweep(small_spec, tmp_path / "serial", threads=2)
    assert (r.ran, r.reused, r.missing) == (8, 0, 0)
    t = r.table
    assert set(t["run_id"]) == set(runs["run_id"])
    for col in ["run_id", "point", "replication", "seed", "mobility.density_veh_per_km_lane", "variant.0.cores", "metric", "value"]:
        assert col in t.columns
    assert t["variant.0.cores"].dtype.kind == "i" and t["mobility.density_veh_per_km_lane"].dtype.kind == "f"
    # Resume: nothing redone.
    again = v2xsec.sweep(small_spec, tmp_path / "serial")
    assert (again.ran, again.reused) == (0, 8)
    pd.testing.assert_frame_equal(again.table, t)
    # A single replication alone, then merged with another.
    one = runs["run_id"][3]
    alone = v2xsec.sweep(small_spec, tmp_path / "alone", runs=[one])
    assert (alone.ran, alone.missing) == (1, 7)
    pd.testing.assert_frame_equal(
        _sorted(alone.table), _sorted(t[t.run_id == one])
    )
    # More cores: more verification capacity, less crypto loss at the high density.
    m = t[(t.metric == "crypto_loss_ratio") & (t["mobility.density_veh_per_km_lane"] == 60.0)]
    by_cores = m.groupby("variant.0.cores")["value"].mean()
    assert by_cores[2] < by_cores[1]


def test_dict_spec_with_explicit_seeds(tiny, tmp_path):
    spec = {"scenario": tiny, "seeds": [5, 9], "axes": {"cam.rate_hz": [5.0, 10.0]}}
    r = v2xsec.sweep(spec, tmp_path / "d")
    assert sorted(r.table["seed"].unique()) == [5, 9]
    assert sorted(r.table["cam.rate_hz"].unique()) == [5.0, 10.0]


def test_dask_local_cluster_matches_serial(small_spec, tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    serial = v2xsec.sweep(small_spec, tmp_path / "serial", threads=2).table
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            r = v2xsec.sweep(small_spec, tmp_path / "dask", client=client)
            assert (r.ran, r.missing) == (8, 0)
            # Which worker ran what: both took part.
            again = v2xsec.sweep(small_spec, tmp_path / "dask", client=client)
            assert again.ran == 0
    pd.testing.assert_frame_equal(r.table, serial)
    assert len(serial) > 8 * 20
