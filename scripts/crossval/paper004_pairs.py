#!/usr/bin/env python3
"""Paper 004's cross-validation method (Haas, Hu, Laberteaux, Sec. III), with ns-3 3.44 in
place of NS-2: per vehicle-direction pair, the mean number of safety messages received at
the application layer over 10 simulations in each simulator, with 95 % confidence
intervals; then the share of pairs whose intervals overlap ("within error bars", the
paper's Fig. 1), the mean absolute percent difference over pairs (paper: 3.53 %) and the
mean percent difference (paper: -1.52 %, its simulator receiving 1.52 % more).

The paper's set-up, and what stands in for what it does not give:
- the first 50 vehicles entering the I-80 4:00 pm area, a ~503 m section: here 50 vehicles
  at seeded uniform positions on 503 m of 6 lanes, parked (the recorded trajectories are not
  shipped; both simulators get the same positions and start times);
- a safety message every 0.1 s, 142 bytes including MAC and PHY headers: here a 78-byte UDP
  payload + 64 bytes of UDP/IPv4/LLC/MAC/FCS = 142 bytes (the PHY preamble is air time, not
  bytes);
- the deterministic two-ray ground model: ns-3's TwoRayGroundPropagationLossModel at
  5.9 GHz with antennas 1.5 m up, `v2x sim`'s `two-ray-ground` with the same height;
- not given, chosen: 20 dBm, 6 Mbit/s, legacy DCF; v2x with `[radio] preset = "ns-3.44"`.

Each ns-3 replication runs in its own process (ns3_broadcast.py) and is cached in
OUT/ns3/; v2x runs each replication alone (seed 1 + r) to get per-replication counts.
Not run in CI.

Usage:
  cargo build --release -p v2x-cli
  python3 scripts/crossval/paper004_pairs.py [--reps 10] [--jobs 2] [--out out/paper004-pairs]
"""
import argparse
import concurrent.futures
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import crossval  # noqa: E402  (the venv, layout and ns-3 runner of the load sweep)

# Student t, two-sided 95 %, by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
       10: 2.228, 14: 2.145, 19: 2.093, 29: 2.045}


def t95(df):
    return T95.get(df) or T95[max(k for k in T95 if k <= df)] if df >= 1 else float("nan")


def scenario_toml(args, positions, offsets, seed):
    radio = f"""preset = "ns-3.44"
tx_power_dbm = {args.tx_power}
frequency_hz = 5.9e9
data_rate_mbps = 6.0
[radio.path_loss]
model = "two-ray-ground"
antenna_height_m = {args.antenna_height}
[radio.fading]
model = "none"
"""
    return crossval.broadcast_scenario(
        header="scripts/crossval/paper004_pairs.py: paper 004's cross-validation set-up.",
        name="paper004-pairs", duration=args.duration, seed=seed, replications=1,
        positions=positions, offsets=offsets, radio=radio, mac="",
        payload=args.payload, road_m=args.road_m)


def run_ours(args, positions, offsets):
    """Per replication: {(sender, receiver): received}."""
    reps, walls = [], []
    for r in range(args.reps):
        d = os.path.join(args.out, "v2x", f"rep{r}")
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, "paper004-pairs.toml")
        with open(path, "w") as f:
            f.write(scenario_toml(args, positions, offsets, 1 + r))
        res = os.path.join(d, "results")
        t = time.perf_counter()
        subprocess.run([args.v2x, "sim", path, "--out", res, "--quiet"], check=True)
        walls.append(time.perf_counter() - t)
        reps.append(crossval.read_per_pair_counts(res)[0])
    return reps, walls


def run_theirs(args, py, positions, offsets, pool):
    os.makedirs(os.path.join(args.out, "ns3"), exist_ok=True)
    futures = []
    for rep in range(args.reps):
        job = {
            "positions": positions,
            "offsets": offsets,
            "payload_bytes": args.payload,
            "duration_s": args.duration,
            "tx_power_dbm": args.tx_power,
            "run": rep + 1,
            "channel": "two-ray-ground",
            "antenna_height_m": args.antenna_height,
        }
        key = hashlib.sha256(json.dumps(job, sort_keys=True).encode()).hexdigest()[:16]
        cache = os.path.join(args.out, "ns3", f"rep{rep}-{key}.json")
        futures.append(pool.submit(crossval.run_ns3_rep, py, job, cache))
    reps, walls = [], []
    for fut in futures:
        r = fut.result()
        walls.append(r["run_s"])
        reps.append({tuple(map(int, k.split(","))): float(v) for k, v in r["counts"].items()})
    return reps, walls


def mean_ci(values):
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def compare(n, theirs, ours):
    rows = []
    for s in range(n):
        for r in range(n):
            if s == r:
                continue  # a vehicle never receives itself (the paper's zero pairs)
            a = [rep.get((s, r), 0.0) for rep in theirs]
            b = [rep.get((s, r), 0.0) for rep in ours]
            (ma, ca), (mb, cb) = mean_ci(a), mean_ci(b)
            rows.append({"sender": s, "receiver": r, "ns3": ma, "ns3_ci95": ca, "v2x": mb, "v2x_ci95": cb})
    heard = [x for x in rows if x["ns3"] > 0]
    overlap = [x for x in rows if abs(x["v2x"] - x["ns3"]) <= x["ns3_ci95"] + x["v2x_ci95"]]
    # Pairs that neither simulator ever delivers (out of range) overlap trivially: counted
    # apart so that they do not inflate the share.
    both_zero = [x for x in rows if x["ns3"] == 0 and x["v2x"] == 0]
    in_range = [x for x in rows if not (x["ns3"] == 0 and x["v2x"] == 0)]
    overlap_in_range = [x for x in overlap if not (x["ns3"] == 0 and x["v2x"] == 0)]
    pct = [(x["v2x"] - x["ns3"]) / x["ns3"] * 100.0 for x in heard]
    return rows, {
        "pairs": len(rows),
        "pairs_heard_by_ns3": len(heard),
        "pairs_never_received_in_either": len(both_zero),
        "pairs_ci_overlap_share": len(overlap) / len(rows),
        "pairs_in_range_ci_overlap_share": len(overlap_in_range) / len(in_range) if in_range else None,
        "mean_abs_percent_difference": statistics.fmean(abs(p) for p in pct) if pct else None,
        "mean_percent_difference_v2x_minus_ns3": statistics.fmean(pct) if pct else None,
        "total_ns3": sum(x["ns3"] for x in rows),
        "total_v2x": sum(x["v2x"] for x in rows),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vehicles", type=int, default=50)
    ap.add_argument("--road-m", type=float, default=503.0)
    ap.add_argument("--lanes", type=int, default=6)
    ap.add_argument("--lane-width-m", type=float, default=3.7)
    ap.add_argument("--payload", type=int, default=142 - crossval.MAC_OVERHEAD_BYTES, help="UDP payload bytes")
    ap.add_argument("--tx-power", type=float, default=20.0, help="dBm")
    ap.add_argument("--antenna-height", type=float, default=1.5, help="m")
    ap.add_argument("--duration", type=float, default=10.0)
    ap.add_argument("--reps", type=int, default=10, help="replications in each simulator (paper: 10)")
    ap.add_argument("--seed", type=int, default=4)
    ap.add_argument("--jobs", type=int, default=1, help="ns-3 replications run in parallel")
    ap.add_argument("--v2x", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "v2x"))
    ap.add_argument("--out", default="out/paper004-pairs")
    ap.add_argument("--venv", default=None, help="virtual environment for ns-3 (default OUT/venv)")
    ap.add_argument("--find-links", default=None, help="extra local wheel directory for pip")
    args = ap.parse_args()
    args.venv = args.venv or os.path.join(args.out, "venv")
    os.makedirs(args.out, exist_ok=True)
    py = crossval.ensure_venv(args)
    positions, offsets = crossval.layout(args, args.vehicles)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        ours, our_walls = run_ours(args, positions, offsets)
        theirs, their_walls = run_theirs(args, py, positions, offsets, pool)
    rows, summary = compare(args.vehicles, theirs, ours)
    summary["ns3_run_wall_s_median"] = statistics.median(their_walls)
    summary["v2x_wall_s_median"] = statistics.median(our_walls)
    with open(os.path.join(args.out, "pairs.csv"), "w") as f:
        f.write("sender,receiver,distance_m,ns3_mean,ns3_ci95,v2x_mean,v2x_ci95\n")
        for x in rows:
            (xs, ys), (xr, yr) = positions[x["sender"]], positions[x["receiver"]]
            f.write(
                f"{x['sender']},{x['receiver']},{math.hypot(xs - xr, ys - yr):.1f},"
                f"{x['ns3']:.3f},{x['ns3_ci95']:.3f},{x['v2x']:.3f},{x['v2x_ci95']:.3f}\n"
            )
    result = {"scenario": {k: v for k, v in vars(args).items() if k not in ("venv", "find_links")}, "summary": summary}
    with open(os.path.join(args.out, "paper004-pairs.json"), "w") as f:
        json.dump(result, f, indent=2)
    s = summary
    print("| measure | ns-3 vs v2x (this run) | paper 004 (NS-2 vs its simulator) |")
    print("|---|---:|---:|")
    print(f"| vehicle-direction pairs | {s['pairs']} | 2450 |")
    print(f"| pairs whose 95 % CIs overlap | {100 * s['pairs_ci_overlap_share']:.1f} % | \"almost every\" (Fig. 1) |")
    print(f"| of the pairs with a reception in either | {100 * s['pairs_in_range_ci_overlap_share']:.1f} % | — |")
    print(f"| mean absolute percent difference | {s['mean_abs_percent_difference']:.2f} % | 3.53 % |")
    print(f"| mean percent difference (v2x - ns-3) | {s['mean_percent_difference_v2x_minus_ns3']:+.2f} % | +1.52 % (its simulator more) |")
    print(f"| total received (ns-3 / v2x) | {s['total_ns3']:.0f} / {s['total_v2x']:.0f} | — |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
