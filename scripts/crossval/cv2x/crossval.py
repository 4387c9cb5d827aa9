#!/usr/bin/env python3
"""LTE-V2X Mode 4 in `v2x sim` beside the analytical model of Gonzalez-Martin et al.
(IEEE TVT 2019) and beside the authors' own Veins simulations stored with it.

For each density (veh/m) and rate (Hz) it writes the scenario the model describes (a
5 km ring highway, 2 lanes per direction, 20 dBm, 5.91 GHz, 9 dB noise figure, WINNER+
B1 with 3 dB shadowing, 190-byte packets, 4 sub-channels of 12 PRBs at MCS 9, sensing
threshold -90.5 dBm), runs `v2x sim` with R replications, reads `sidelink_losses.csv`
(5 m bins, two per model distance: [d - 5, d + 5)) and compares PDR and the four error
components (half duplex, sensing, propagation, collision) with
`results/model-b<beta>-l<lambda>.csv` (from `model_points.m` in GNU Octave) and
`results/veins-v<veh/km>-p<period>.csv` (from `sim_points.m`): mean absolute deviation
over the 21 distances 0..500 m in percentage points, per replication, reported as the
mean over replications with its 95 % Student-t interval.

    python3 scripts/crossval/cv2x/crossval.py --v2x target/release/v2x --reps 5 \
        --duration 12 --out out/cv2x-crossval
"""

import argparse
import csv
import json
import math
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DISTANCES = list(range(0, 501, 25))
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086]
PARTS = ["pdr", "half_duplex", "sensing", "propagation", "collision"]


def scenario(beta, rate, duration, seed, payload=190):
    rri = int(1000 / rate)
    counter = [5, 15] if rri >= 100 else [10, 30] if rri == 50 else [25, 75]
    lanes = 2
    return f"""
name = "cv2x-model-b{beta}-l{rate}"
description = "the analytical model's highway: {beta} veh/m, {rate} Hz, {payload} B, 4 sub-channels, 20 dBm"
duration_s = {duration}
warmup_s = 2.0
seed = {seed}
[access]
kind = "lte-v2x-mode4"
[sidelink]
bandwidth_mhz = 10
subchannel_size_prb = 12
mcs = 9
rri_ms = {rri}
selection_window_ms = [1, {rri}]
reselection_counter = {counter}
prob_resource_keep = 0.0
rsrp_threshold_dbm = -90.5
sensing_threshold_dbm = -90.5
shadowing_sd_db = 3.0
[mobility]
kind = "highway"
length_m = 5000.0
lanes_per_direction = {lanes}
density_veh_per_km_lane = {beta * 1000 / (2 * lanes)}
speed_mps = 19.4
speed_sd_mps = 2.0
[radio]
tx_power_dbm = 20.0
frequency_hz = 5.91e9
noise_figure_db = 9.0
[radio.path_loss]
model = "winner-b1"
antenna_height_m = 1.5
[radio.fading]
model = "none"
[cam]
rate_hz = {rate}
payload_bytes = {payload}
[metrics]
distance_bin_m = 5.0
max_distance_m = 505.0
headline_range_m = 300.0
[[variant]]
name = "none"
protocol = "none"
"""


def with_sidelink_keys(text, lines):
    """The scenario with `key = value` lines in [sidelink]: a key the scenario already sets
    is replaced (TOML refuses a key given twice), a new one is added."""
    out = text.split("\n")
    start = out.index("[sidelink]")
    end = next(i for i in range(start + 1, len(out)) if out[i].startswith("["))
    for line in lines:
        key = line.split("=", 1)[0].strip()
        at = [i for i in range(start + 1, end) if out[i].split("=", 1)[0].strip() == key]
        if at:
            out[at[0]] = line
        else:
            out.insert(end, line)
            end += 1
    return "\n".join(out)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def ours_by_replication(losses_csv):
    """{replication: {distance: {part: value}}} at the model's distances."""
    rows = [r for r in read_csv(losses_csv) if r["replication"] != "pooled"]
    reps = {}
    for r in rows:
        reps.setdefault(r["replication"], []).append(r)
    out = {}
    for rep, rs in reps.items():
        curve = {}
        for d in DISTANCES:
            lo, hi = max(d - 5, 0), d + 5
            sel = [r for r in rs if lo <= float(r["distance_from_m"]) < hi]
            att = sum(int(r["attempts"]) for r in sel)
            if att == 0:
                continue
            c = {k: sum(int(r[k]) for r in sel) / att for k in PARTS[1:]}
            c["pdr"] = sum(int(r["received"]) for r in sel) / att
            c["attempts"] = att
            curve[d] = c
        out[rep] = curve
    return out


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, T95[min(n - 1, len(T95)) - 1] * sd / math.sqrt(n)


def mad(curve, ref, part):
    """Mean absolute deviation in percentage points over the distances both have."""
    ds = [d for d in DISTANCES if d in curve and d in ref]
    return 100 * sum(abs(curve[d][part] - ref[d][part]) for d in ds) / len(ds)


def reference(path):
    return {int(float(r["distance_m"])): {k: float(r[k]) for k in PARTS} for r in read_csv(path)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--v2x", default="target/release/v2x")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--duration", type=float, default=12.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--betas", default="0.1,0.2,0.3")
    ap.add_argument("--rates", default="10,20")
    ap.add_argument("--out", default="out/cv2x-crossval")
    ap.add_argument("--payload", type=int, default=190, help="bytes per packet (the references are for 190)")
    ap.add_argument("--set", action="append", default=[], help="a `key = value` line for [sidelink], replacing the scenario's own value of that key (repeatable)")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    report = []
    for rate in [int(x) for x in a.rates.split(",")]:
        for beta in [float(x) for x in a.betas.split(",")]:
            name = f"b{beta}-l{rate}" + ("" if a.payload == 190 else f"-{a.payload}B")
            text = scenario(beta, rate, a.duration, a.seed, a.payload)
            if a.set:
                text = with_sidelink_keys(text, a.set)
            sc = out / f"{name}.toml"
            sc.write_text(text)
            run_dir = out / name
            subprocess.run([a.v2x, "sim", str(sc), "--out", str(run_dir), "--replications", str(a.reps),
                            "--quiet"], check=True)
            ours = ours_by_replication(run_dir / "sidelink_losses.csv")
            summary = json.loads((run_dir / "summary.json").read_text())["variants"][0]
            entry = {"beta_veh_per_m": beta, "rate_hz": rate, "replications": a.reps,
                     "duration_s": a.duration, "cbr": summary["sidelink"]["cbr"],
                     "wall_s": summary["performance"]["run_wall_s"]}
            refs = {"model": HERE / "results" / f"model-b{beta}-l{rate}.csv",
                    "veins": HERE / "results" / f"veins-v{int(round(beta * 1000))}-p{1 / rate:g}.csv"}
            for ref_name, path in refs.items():
                if not path.exists() or a.payload != 190:
                    continue
                ref = reference(path)
                entry[ref_name] = {}
                for part in PARTS:
                    m, ci = mean_ci([mad(c, ref, part) for c in ours.values()])
                    entry[ref_name][part] = {"mad_points": round(m, 3), "ci95": round(ci, 3)}
                if ref_name == "model":
                    entry["model_cbr"] = float(read_csv(path)[0]["cbr"])
            # The mean curve at the model's distances, for the tables.
            entry["curve"] = {d: {p: round(sum(c[d][p] for c in ours.values()) / len(ours), 4) for p in PARTS}
                              for d in DISTANCES if all(d in c for c in ours.values())}
            report.append(entry)
            print(json.dumps({k: v for k, v in entry.items() if k != "curve"}), flush=True)
    (out / "crossval.json").write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    sys.exit(main())
