#!/usr/bin/env python3
"""NR-V2X Mode 2 in `v2x sim` beside WiLabV2Xsim (Todisco et al., IEEE Access 9, 2021).

The reference is WiLabV2Xsim's own output, not ours: its packet reception ratio by
distance (`packet_reception_ratio_1_5G.xls`, one file per seed) for the configuration of
the paper's Fig. 9 (`codeForPaper/Vittorio2021Performance/fig9_simulation.m`: 350 B at
10 Hz, MCS 4, 15 kHz, 10 MHz, 10-PRB sub-channels, 100 veh/km on a 2 km highway with 3
lanes per direction, 70 +- 7 km/h, RSRP threshold -126 dBm per resource element, keep
probability 0.4, one transmission per packet), run in GNU Octave from the repository's
Octave-version branch (results/README.md has the commit, the command and the licence
note). The stored files are `results/wilab-<tech>-<case>-s<seed>.csv`; `--tech lte` compares
our LTE-V2X Mode 4 with WiLab's LTE run of the same configuration.

This script writes our scenario with every parameter matched where a key allows it
(docs/crossval.md lists each one), runs `v2x sim` once per replication and compares PRR by
distance in WiLab's 10 m bins ([d - 10, d)): the mean absolute deviation in percentage
points over the bins both have with at least --min-attempts attempts, per replication,
reported as mean +- 95 % Student-t half-width over the replications, against the mean of
WiLab's seeds (and the same measure between WiLab's own seeds, their noise floor).

Mobility: WiLab's highway is a straight 2 km road whose vehicles re-enter at the other end
but whose distances are straight-line (no wrap), so vehicles near the ends have fewer
interferers. `--mobility linear` (default) reproduces that geometry as a trajectory table
for our NGSIM reader (one new vehicle id when a vehicle re-enters); `--mobility ring`
uses our ring highway instead (distances wrap), as a sensitivity.

    python3 scripts/crossval/nr/crossval.py --v2x target/release/v2x --reps 10 \
        --duration 4 --out out/nr-crossval                       # NR, linear highway
    python3 scripts/crossval/nr/crossval.py --v2x target/release/v2x --reps 10 \
        --duration 5 --tech lte --out out/nr-crossval             # LTE beside it
    # --mobility ring: our ring highway instead; --compare-only: reuse the runs in --out
"""

import argparse
import csv
import json
import math
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
BIN_M = 10

# The reference configuration (WiLabV2Xsim, fig9_simulation.m / fig9_config.cfg and the
# Octave-version defaults it leaves in place).
ROAD_M = 2000.0
LANES_PER_DIRECTION = 3
LANE_WIDTH_M = 4.0
DENSITY_VEH_PER_KM = 100.0      # all lanes together
SPEED_KMH, SPEED_SD_KMH = 70.0, 7.0
EIRP_PLUS_RX_GAIN_DBM = 23.0 + 3.0 + 3.0   # Ptx + Gt + Gr: the whole channel (5 of 5 sub-channels)
WILAB_NOISE_FIGURE_DB = 6.0
WILAB_PRB_HZ = 180e3            # 12 x 15 kHz
# Per technology: the PRBs WiLab spreads power and noise over (RBsBeacon: the fewest PRBs
# whose TBS carries 350 B at MCS 4; both use all 5 sub-channels), ours (five 10-PRB
# sub-channels; LTE less its 2 SCI PRBs), our PRB width (channel / PRBs), and WiLab's SINR
# threshold (findRBsBeaconSINRmin[_5G], printed by Octave).
LINK = {
    "nr": {"wilab_prbs": 44, "our_prbs": 50, "our_prb_hz": 10e6 / 52, "wilab_sinr_min_db": 2.110},
    "lte": {"wilab_prbs": 40, "our_prbs": 48, "our_prb_hz": 10e6 / 50, "wilab_sinr_min_db": 3.673},
}
# Our NR BLER model's 50 % point at MCS 4 on 50 PRBs (TBS 3368 + 16 CRC bits on 5520 REs)
# with no implementation loss: n C(g) = k - log2(n) / 2.
OUR_NR_TBS_BITS, OUR_NR_N_RE = 3368 + 16, 5520


def db(x):
    return 10 * math.log10(x)


def matched_keys(tech, threshold_dbm_per_re=-126.0):
    """The derived keys that put our link budget on WiLab's (docs/crossval.md)."""
    link = LINK[tech]
    wilab_hz = link["wilab_prbs"] * WILAB_PRB_HZ
    # Same SNR for the same received power: our noise over our data PRBs equals WiLab's
    # over its PRBs at NF 6 dB.
    nf = WILAB_NOISE_FIGURE_DB - db(link["our_prbs"] * link["our_prb_hz"] / wilab_hz)
    noise_dbm = -173.975 + db(wilab_hz) + WILAB_NOISE_FIGURE_DB
    # WiLab decodes an SCI at SINR > 0 dB (minSCIsinr): our detection threshold is the
    # received power at SNR 0 dB (no interference term: ours detects by power).
    keys = {"noise_figure_db": round(nf, 3), "sensing_threshold_dbm": round(noise_dbm, 2),
            # WiLab's RSRP is per resource element (power per MHz x 0.015); ours is the
            # transmission's power over its PRBs: + 10 log10(12 REs x its PRBs).
            "rsrp_threshold_dbm": round(threshold_dbm_per_re + db(12 * link["wilab_prbs"]), 2)}
    if tech == "nr":
        # WiLab's step at SINR_min; our curve's 50 % point moved there by the loss key.
        c = (OUR_NR_TBS_BITS - 0.5 * math.log2(OUR_NR_N_RE)) / OUR_NR_N_RE
        keys["implementation_loss_db"] = round(link["wilab_sinr_min_db"] - db(2 ** c - 1), 2)
    return keys


def linear_trace(seed, duration_s, path):
    """WiLab's ETSI highway as trajectories: uniform positions on the road, lanes filled in
    turn (then shuffled), 4 m apart, one direction per 3 lanes, speed |N(70, 7)| km/h kept
    for the run, positions updated every 0.1 s and taken modulo the road length. A vehicle
    that re-enters gets a new id (our NGSIM reader interpolates within a track only)."""
    rng = random.Random(seed)
    n = round(DENSITY_VEH_PER_KM / 1000 * ROAD_M)
    lanes = [(i % (2 * LANES_PER_DIRECTION)) + 1 for i in range(n)]
    rng.shuffle(lanes)
    rows = []
    for v in range(n):
        x = rng.uniform(0, ROAD_M)
        y = lanes[v] * LANE_WIDTH_M
        sign = 1 if lanes[v] <= LANES_PER_DIRECTION else -1
        speed = abs(rng.gauss(SPEED_KMH, SPEED_SD_KMH)) / 3.6
        track = 0
        for frame in range(int(round(duration_s / 0.1)) + 2):
            rows.append((f"{v}.{track}", frame, round(x, 3), y))
            nx = x + sign * speed * 0.1
            if nx >= ROAD_M or nx < 0:
                track += 1
            x = nx % ROAD_M
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["vehicle_id", "frame_id", "local_x", "local_y"])
        w.writerows(rows)


NR_KEYS = """[access]
kind = "nr-v2x-mode2"
[sidelink]
l2_overhead_bytes = 0
reselection_counter = [5, 15]
prob_resource_keep = 0.4
rsrp_threshold_dbm = {rsrp_threshold_dbm}
sensing_threshold_dbm = {sensing_threshold_dbm}
shadowing_sd_db = 3.0
cbr_threshold_dbm = -94.0
[sidelink.nr]
numerology = 0
bandwidth_mhz = 10
subchannel_size_prb = 10
mcs_table = "qam64"
mcs = 4
pscch_symbols = 3
pscch_prbs = 10
dmrs_symbols = 4
psfch_period_slots = 0
x_overhead = 0
sci2_beta_offset = 1.125
sci2_alpha = 0.5
sensing_window_ms = 100
t1_slots = 1
t2_ms = 100
t2min_ms = 20
packet_delay_budget_ms = 100
reservation_periods_ms = [100]
rri_ms = 100
min_candidate_share = 0.2
re_evaluation = false
pre_emption = "disabled"
blind_retransmissions = 0
implementation_loss_db = {implementation_loss_db}"""

# LTE: no implementation-loss key; the BLER is R1-160284's QPSK rate-0.5 curve (the only
# other curve we have: 50 % at 3.0 dB against WiLab's step at 3.67 dB).
LTE_KEYS = """[access]
kind = "lte-v2x-mode4"
[sidelink]
bandwidth_mhz = 10
subchannel_size_prb = 10
mcs = 4
bler_curve = "r1-160284-qpsk-r0.5"
l2_overhead_bytes = 0
rri_ms = 100
selection_window_ms = [1, 100]
reselection_counter = [5, 15]
prob_resource_keep = 0.4
rsrp_threshold_dbm = {rsrp_threshold_dbm}
min_candidate_share = 0.2
sensing_threshold_dbm = {sensing_threshold_dbm}
shadowing_sd_db = 3.0
cbr_threshold_dbm = -94.0"""


def scenario(tech, seed, duration_s, mobility, trace_name, threshold_dbm_per_re=-126.0):
    k = matched_keys(tech, threshold_dbm_per_re)
    if mobility == "linear":
        mob = f"""[mobility]
kind = "ngsim"
path = "{trace_name}"
time_unit_s = 0.1
update_interval_s = 0.1"""
    else:
        mob = f"""[mobility]
kind = "highway"
length_m = {ROAD_M}
lanes_per_direction = {LANES_PER_DIRECTION}
lane_width_m = {LANE_WIDTH_M}
density_veh_per_km_lane = {DENSITY_VEH_PER_KM / (2 * LANES_PER_DIRECTION)}
speed_mps = {SPEED_KMH / 3.6}
speed_sd_mps = {SPEED_SD_KMH / 3.6}"""
    access = (NR_KEYS if tech == "nr" else LTE_KEYS).format(**k)
    return f"""# Written by scripts/crossval/nr/crossval.py: WiLabV2Xsim's Fig. 9 configuration
# (350 B, MCS 4, 10 MHz, {threshold_dbm_per_re:g} dBm per RE) on {tech.upper()}; docs/crossval.md lists each key.
name = "{tech}-wilab-{mobility}-s{seed}"
description = "WiLabV2Xsim IEEE Access 2021 Fig. 9 configuration, {tech.upper()}, {mobility} highway"
duration_s = {duration_s}
warmup_s = 0.0
seed = {seed}
{access}
{mob}
[radio]
tx_power_dbm = {EIRP_PLUS_RX_GAIN_DBM}
frequency_hz = 5.9e9
noise_figure_db = {k["noise_figure_db"]}
[radio.path_loss]
model = "winner-b1"
antenna_height_m = 0.5
[radio.fading]
model = "none"
[cam]
rate_hz = 10.0
payload_bytes = 350
[metrics]
distance_bin_m = {BIN_M}.0
max_distance_m = 620.0
headline_range_m = 150.0
[[variant]]
name = "none"
protocol = "none"
"""


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def curve_from_losses(path):
    """{bin upper edge (m): (received, attempts)} from our sidelink_losses.csv."""
    out = {}
    for r in read_csv(path):
        if r["replication"] == "pooled":
            continue
        d = int(round(float(r["distance_to_m"])))
        rec, att = out.get(d, (0, 0))
        out[d] = (rec + int(r["received"]), att + int(r["attempts"]))
    return out


def import_wilab(xls, dest):
    """WiLab's packet_reception_ratio_*.xls (tab-separated: bin upper edge, correct,
    errors, blocked, total, PRR) -> our CSV with named columns."""
    with open(xls) as f, open(dest, "w", newline="") as g:
        w = csv.writer(g)
        w.writerow(["distance_from_m", "distance_to_m", "received", "errors", "blocked", "attempts", "prr"])
        for line in f:
            d, ok, err, blk, tot, p = line.split()
            w.writerow([int(d) - BIN_M, int(d), int(ok), int(err), int(blk), int(tot), p])


def curve_from_reference(path):
    return {int(r["distance_to_m"]): (int(r["received"]), int(r["attempts"])) for r in read_csv(path)}


def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, T95[min(n - 1, len(T95)) - 1] * sd / math.sqrt(n)


def prr(c):
    return c[0] / c[1]


def mad_points(a, b, dmax, min_att):
    ds = [d for d in a if d in b and d <= dmax and a[d][1] >= min_att and b[d][1] >= min_att]
    return 100 * sum(abs(prr(a[d]) - prr(b[d])) for d in ds) / len(ds), len(ds)


def signed_points(a, b, dmax, min_att):
    """Mean of (a - b) in percentage points over the same bins as mad_points."""
    ds = [d for d in a if d in b and d <= dmax and a[d][1] >= min_att and b[d][1] >= min_att]
    return 100 * sum(prr(a[d]) - prr(b[d]) for d in ds) / len(ds)


def pooled(curves):
    out = {}
    for c in curves:
        for d, (r, a) in c.items():
            pr, pa = out.get(d, (0, 0))
            out[d] = (pr + r, pa + a)
    return out


def compare(ours, refs, ranges, min_att):
    """MADs of our replications against WiLab's pooled seeds, and WiLab's seeds against
    each other (each against the pool of the others)."""
    ref = pooled(refs)
    res = {}
    for dmax in ranges:
        per_rep = [mad_points(c, ref, dmax, min_att)[0] for c in ours]
        m, ci = mean_ci(per_rep)
        floor = [mad_points(refs[i], pooled(refs[:i] + refs[i + 1:]), dmax, min_att)[0]
                 for i in range(len(refs))] if len(refs) > 1 else []
        fm, fci = mean_ci(floor) if len(floor) > 1 else (None, None)
        signed = [signed_points(c, ref, dmax, min_att) for c in ours]
        sm, sci = mean_ci(signed)
        res[f"0-{dmax}m"] = {"mad_points": round(m, 3), "ci95": round(ci, 3),
                             "per_replication": [round(x, 3) for x in per_rep],
                             "mean_signed_points": round(sm, 3), "mean_signed_ci95": round(sci, 3),
                             "pooled_mad_points": round(mad_points(pooled(ours), ref, dmax, min_att)[0], 3),
                             "bins": mad_points(pooled(ours), ref, dmax, min_att)[1],
                             "wilab_seed_vs_others": None if fm is None else
                             {"mad_points": round(fm, 3), "ci95": round(fci, 3)}}
    table = {}
    for d in (50, 100, 150, 200, 300, 400, 500):
        if d in ref and all(d in c for c in ours):
            m, ci = mean_ci([prr(c[d]) for c in ours])
            table[d] = {"ours": round(m, 4), "ours_ci95": round(ci, 4), "wilab": round(prr(ref[d]), 4),
                        "wilab_seeds": [round(prr(r[d]), 4) for r in refs if d in r]}
    return res, table


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--v2x", default="target/release/v2x")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--duration", type=float, default=4.0, help="seconds, as the reference runs (NR 4, LTE 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mobility", choices=["linear", "ring"], default="linear")
    ap.add_argument("--tech", choices=["nr", "lte"], default="nr")
    ap.add_argument("--threshold", type=float, default=-126.0,
                    help="WiLab's RSRP threshold per RE (dBm): -126 or the paper's other value -110")
    ap.add_argument("--case", help="reference files results/wilab-<tech>-<case>-s*.csv "
                    "(default fig9-350B-mcs4-thr<|threshold|>)")
    ap.add_argument("--min-attempts", type=int, default=200)
    ap.add_argument("--out", default="out/nr-crossval")
    ap.add_argument("--compare-only", action="store_true", help="reuse the runs already in --out")
    ap.add_argument("--import-wilab", nargs=2, metavar=("XLS", "CSV"),
                    help="convert one WiLab packet_reception_ratio file and exit")
    a = ap.parse_args()
    if a.import_wilab:
        return import_wilab(*a.import_wilab)
    a.case = a.case or f"fig9-350B-mcs4-thr{abs(a.threshold):g}"
    out = Path(a.out) / f"{a.tech}-{a.mobility}-{a.case}"
    out.mkdir(parents=True, exist_ok=True)
    refs = [curve_from_reference(p) for p in sorted(HERE.glob(f"results/wilab-{a.tech}-{a.case}-s*.csv"))]
    if not refs:
        sys.exit(f"no reference files results/wilab-{a.tech}-{a.case}-s*.csv")
    ours, walls = [], []
    for rep in range(a.reps):
        seed = a.seed + rep
        run_dir = out / f"s{seed}"
        if not a.compare_only:
            trace = f"trace-s{seed}.csv"
            if a.mobility == "linear":
                linear_trace(seed, a.duration, out / trace)
            sc = out / f"s{seed}.toml"
            sc.write_text(scenario(a.tech, seed, a.duration, a.mobility, trace, a.threshold))
            subprocess.run([a.v2x, "sim", str(sc), "--out", str(run_dir), "--quiet"], check=True)
        ours.append(curve_from_losses(run_dir / "sidelink_losses.csv"))
        summary = json.loads((run_dir / "summary.json").read_text())["variants"][0]
        walls.append(summary["performance"]["run_wall_s"])
    mads, table = compare(ours, refs, (300, 600), a.min_attempts)
    report = {"technology": a.tech, "case": a.case, "mobility": a.mobility, "replications": a.reps, "duration_s": a.duration,
              "wilab_seeds": len(refs), "matched_keys": matched_keys(a.tech, a.threshold), "wall_s": walls,
              "mad": mads, "prr": table}
    (out / "crossval.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    sys.exit(main())
