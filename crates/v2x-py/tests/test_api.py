"""Round trips of the v2xsec API: sim from a dict, TOML text and a path; overhead; inspect;
bench; typed exceptions; the GIL released during a run."""

import threading
import time

import pandas as pd
import pytest

import v2xsec


def test_sim_dict_gives_tidy_rows_per_variant_replication_metric(tiny):
    r = v2xsec.sim(tiny)
    t = r.table
    assert list(t.columns) == ["replication", "variant", "protocol", "metric", "distance_from_m", "distance_to_m", "value"]
    assert set(t["variant"]) == {"plain", "ecdsa"}
    assert set(t["replication"]) == {0, 1}
    m = r.metrics
    pdr = m[(m.metric == "pdr_application_ratio")]
    assert len(pdr) == 4 and pdr["value"].between(0, 1).all()
    # The summary is the summary.json document and agrees with the rows.
    s = {v["name"]: v for v in r.summary["variants"]}
    mean = pdr[pdr.variant == "ecdsa"]["value"].mean()
    assert s["ecdsa"]["pdr_application"]["mean"] == pytest.approx(mean, rel=1e-9)
    # No security means no crypto loss; a slow verifier loses some.
    clr = m[m.metric == "crypto_loss_ratio"].groupby("variant")["value"].mean()
    assert clr["ecdsa"] > 0 and not (clr.get("plain", 0) > 0)
    # Distance bins: attempts add up per replication, edges carry units.
    b = r.bins
    assert (b["distance_to_m"] > b["distance_from_m"]).all()
    w = r.wide()
    assert {"pdr_network_ratio", "e2e_delay_mean_ms"} <= set(w.columns)


def test_sim_toml_text_and_path_give_the_same_rows(tiny, tmp_path):
    toml_text = """
name = "tiny"
duration_s = 1.0
warmup_s = 0.2
seed = 3
replications = 2
[mobility]
kind = "highway"
length_m = 400.0
lanes_per_direction = 1
density_veh_per_km_lane = 30.0
[[variant]]
name = "plain"
protocol = "none"
[[variant]]
name = "ecdsa"
protocol = "ieee1609.2"
verify_cost_us = 2000.0
sign_cost_us = 500.0
"""
    a = v2xsec.sim(tiny).table
    b = v2xsec.sim(toml_text).table
    p = tmp_path / "tiny.toml"
    p.write_text(toml_text)
    c = v2xsec.sim(p, out=tmp_path / "res").table
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_frame_equal(a, c)
    assert (tmp_path / "res" / "summary.json").is_file()


def test_results_folder_tables_load_into_pandas_from_parquet(tiny, tmp_path):
    r = v2xsec.sim(tiny, out=tmp_path / "res")
    res = tmp_path / "res"
    # The tidy per-replication table of the folder is the table the API returns.
    tidy = pd.read_parquet(res / "results.parquet")
    pd.testing.assert_frame_equal(tidy, r.table, check_dtype=False)
    # Every CSV of the folder has its typed Parquet twin with the same rows.
    for name in ("results", "runs", "pdr_vs_distance", "delay_distributions"):
        p = pd.read_parquet(res / f"{name}.parquet")
        c = pd.read_csv(res / f"{name}.csv")
        pd.testing.assert_frame_equal(p, c, check_dtype=False)
    runs = pd.read_parquet(res / "runs.parquet")
    assert runs["replication"].dtype.kind == "i" and runs["pdr_network"].dtype.kind == "f"
    assert len(runs) == 4  # 2 variants x 2 replications


def test_errors_are_typed_exceptions(tiny, tmp_path):
    bad = dict(tiny, duration_s=-1.0)
    with pytest.raises(v2xsec.ScenarioError, match="duration_s"):
        v2xsec.sim(bad)
    with pytest.raises(v2xsec.ScenarioError, match="bogus"):
        v2xsec.sim(dict(tiny, bogus=1))
    with pytest.raises(v2xsec.ScenarioError, match=r"<scenario>:\d+:\d+"):
        v2xsec.sim("duration_s = [\n")
    unknown_profile = dict(tiny, variant=[{"name": "x", "protocol": "ieee1609.2", "profile": "no-such-cpu"}])
    with pytest.raises(v2xsec.V2xError, match="no-such-cpu"):
        v2xsec.sim(unknown_profile)
    with pytest.raises(v2xsec.DecodeError):
        v2xsec.inspect(b"\x00\x01garbage")
    with pytest.raises(v2xsec.BenchError, match="suite"):
        v2xsec.bench("nonsense")
    with pytest.raises(v2xsec.SweepError):
        v2xsec.sweep({"axes": {"cam.rate_hz": [1.0]}}, tmp_path / "s")
    with pytest.raises(v2xsec.V2xError, match="cannot read"):
        v2xsec.sim(tmp_path / "missing.toml")
    assert issubclass(v2xsec.SweepError, v2xsec.V2xError) and issubclass(v2xsec.V2xError, Exception)


def test_overhead_rows():
    o = v2xsec.overhead()
    assert {"protocol", "message", "total_bytes", "fields"} <= set(o.columns)
    assert len(o) > 10
    # Every total is the sum of its fields unless the row says otherwise: at least check positivity.
    assert (o["total_bytes"] > 0).all()


def test_inspect_a_real_trust_list(repo):
    data = (repo / "vectors" / "eu-ectl-CE4CF6C19BFED720.oer").read_bytes()
    i = v2xsec.inspect(data)
    assert i.format and i.tree["children"]
    assert str(i).startswith(i.tree["label"]) or i.tree["label"] in str(i)
    # Hex text decodes the same.
    assert v2xsec.inspect(data.hex()).tree == i.tree


def test_bench_raw_quick_measures():
    doc = v2xsec.bench("raw", quick=True, threads=1, trials=1)
    m = doc["measurements"]
    assert len(m) > 0 and isinstance(m, pd.DataFrame)


def test_gil_is_released_during_a_run(tiny):
    tiny["duration_s"] = 4.0
    tiny["replications"] = 1
    ticks = []
    done = threading.Event()

    def ticker():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    t = threading.Thread(target=ticker)
    t.start()
    start = time.perf_counter()
    v2xsec.sim(tiny, threads=1)
    elapsed = time.perf_counter() - start
    done.set()
    t.join()
    during = [x for x in ticks if start < x < start + elapsed]
    # With the GIL held the ticker would not run at all during the simulation.
    assert elapsed > 0.05 and len(during) >= 3, (elapsed, len(during))
