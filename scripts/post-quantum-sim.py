#!/usr/bin/env python3
"""The simulator's table of docs/post-quantum.md: the experimental post-quantum designs
against IEEE 1609.2 P-256 on the city and highway examples, on 802.11p and on the LTE-V2X
sidelink (scenarios/post-quantum-*.toml).

    python3 scripts/post-quantum-sim.py --v2x target/release/v2x --reps 3 --duration 6 \
        --out out/post-quantum-sim [--json docs/data/post-quantum-sim.json] [--access LTE-V2X]

Each scenario runs once with `--replications R` (seeds seed..seed+R-1); every figure is
the mean over the replications with the half-width of its 95 % Student-t interval. PDR
within 100 m and 300 m: CAMs decoded (radio) and verified over the CAMs sent to receivers
within that distance, from the 25 m bins of results.csv; a CAM refused as oversize is
never sent, so it is outside the PDR and counted in "refused". Bytes: the CAM of the
scenario's payload with the digest and with the certificate (the encoder's, summary.json).
"n/a": nothing to measure it on (no CAM sent). Both radios verify what they decode (the
sidelink through the engine's security processing). `--access` runs one radio's scenarios only.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import time

SCENARIOS = [
    ("city", "802.11p", "post-quantum-city.toml"),
    ("highway", "802.11p", "post-quantum-highway.toml"),
    ("city", "LTE-V2X", "post-quantum-city-lte-v2x.toml"),
    ("highway", "LTE-V2X", "post-quantum-highway-lte-v2x.toml"),
]

# Two-sided 95 % Student-t quantiles by degrees of freedom.
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


def mean_ci(xs):
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    return m, T95.get(len(xs) - 1, 1.96) * sd / math.sqrt(len(xs))


def fmt(m, h, digits=3):
    if m is None:
        return "n/a"
    if h is None:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} ± {h:.{digits}f}"


def per_replication(results_csv):
    """(variant, replication) -> metrics, with PDR within 100 / 300 m from the bins."""
    rows = {}
    with open(results_csv) as f:
        for r in csv.DictReader(f):
            key = (r["variant"], int(r["replication"]))
            d = rows.setdefault(key, {"bins": {}})
            v = float(r["value"]) if r["value"] else None
            if r["distance_to_m"]:
                b = d["bins"].setdefault(float(r["distance_to_m"]), {})
                b[r["metric"]] = v
            else:
                d[r["metric"]] = v
    out = {}
    for key, d in rows.items():
        m = dict(d)
        for reach in (100, 300):
            att = rec = ver = 0.0
            for to, b in d["bins"].items():
                if to <= reach + 1e-9 and b.get("bin_attempts_count"):
                    a = b["bin_attempts_count"]
                    att += a
                    rec += a * (b.get("bin_pdr_network_ratio") or 0.0)
                    ver += a * (b.get("bin_pdr_application_ratio") or 0.0)
            m[f"pdr_radio_{reach}"] = rec / att if att else None
            m[f"pdr_verified_{reach}"] = ver / att if att else None
        out[key] = m
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--v2x", default="target/release/v2x")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=float, default=6.0)
    ap.add_argument("--out", default="out/post-quantum-sim")
    ap.add_argument("--json")
    ap.add_argument("--access", choices=sorted({s[1] for s in SCENARIOS}), help="run only this radio's scenarios")
    a = ap.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    table = []
    for place, access, name in SCENARIOS:
        if a.access and access != a.access:
            continue
        out = os.path.join(a.out, name.removesuffix(".toml"))
        load = open("/proc/loadavg").read().split()[:3]
        started = time.time()
        cmd = [a.v2x, "sim", os.path.join(root, "scenarios", name), "--quiet", "--replications", str(a.reps),
               "--duration", str(a.duration), "--out", out]
        print(" ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, check=True)
        wall = time.time() - started
        summary = json.load(open(os.path.join(out, "summary.json")))
        reps = per_replication(os.path.join(out, "results.csv"))
        payload = 100
        for v in summary["variants"]:
            runs = [reps[(v["name"], r)] for r in range(a.reps)]
            col = lambda k: mean_ci([x.get(k) for x in runs])
            sizes = v["security"]["sizes"]
            table.append({
                "scenario": place, "access": access, "variant": v["name"], "protocol": v["protocol"],
                "digest_cam_bytes": payload + sizes["overhead_bytes"],
                "certificate_cam_bytes": payload + sizes["overhead_with_certificate_bytes"],
                "sizes_source": sizes["source"],
                "refused": col("cams_refused_oversize_ratio"),
                "pdr_radio_100": col("pdr_radio_100"), "pdr_radio_300": col("pdr_radio_300"),
                "pdr_verified_100": col("pdr_verified_100"),
                "pdr_verified_300": col("pdr_verified_300"),
                "awareness": col("awareness_ratio"), "crypto_loss": col("crypto_loss_ratio"),
                "load_average_before": load, "wall_s": round(wall, 1),
            })
    print("| scenario | access | design | CAM B digest / cert | refused | PDR radio 100 m | PDR radio 300 m "
          "| PDR verified 100 m | PDR verified 300 m | awareness | crypto loss |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for t in table:
        print(f"| {t['scenario']} | {t['access']} | {t['variant']} | {t['digest_cam_bytes']} / "
              f"{t['certificate_cam_bytes']} | {fmt(*t['refused'])} | {fmt(*t['pdr_radio_100'])} | "
              f"{fmt(*t['pdr_radio_300'])} | {fmt(*t['pdr_verified_100'])} | {fmt(*t['pdr_verified_300'])} | "
              f"{fmt(*t['awareness'])} | {fmt(*t['crypto_loss'], digits=4)} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"command": " ".join(sys.argv), "reps": a.reps, "duration_s": a.duration, "rows": table}, f,
                      indent=1)


if __name__ == "__main__":
    main()
