#!/usr/bin/env python3
"""What security's message sizes do to LTE-V2X Mode 4 (issue 31): the example highway
(`scenarios/cv2x-highway.toml`) with IEEE 1609.2 CAMs of constant size (a digest in every
message: 100 + 93 B), a certificate every 5th message (180 B) and a certificate once per
second, under the three reservation policies, at the given densities. Each replication
is its own `v2x sim` run (seed = 1 + r), so every figure comes with a 95 % Student-t
interval over replications: PRR at 0-100 m and 0-300 m, the 99th percentile of the
inter-packet gap (pairs within 300 m), CBR, mean sub-channels per transmission.

    python3 scripts/sidelink-security-sizes.py --v2x target/release/v2x --reps 3 \
        --duration 8 --densities 25,50 --out out/sidelink-security-sizes

A fourth variant sends certificates only on a P2PCD request (`policy = "on-request"`,
`p2pcd = true`; its CAMs carry the requests too), reporting also the share of CAMs lost to an
unknown certificate. With --its-g5 the same highway also runs on 802.11p (`[access] kind =
"its-g5"`, the same power, path loss and CAMs; no [sidelink] keys, so no shadowing), beside
each density's sidelink rows. On both radios the three size variants verify without needing
the certificate (`require_known_certificate = false`: the comparison is about sizes on the
channel); the P2PCD variant needs it.
"""

import argparse
import csv
import json
import math
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228]
POLICIES = ["reselect-on-size-change", "reserve-largest", "one-shot-oversize"]
VARIANTS = """
[[variant]]
name = "constant"
protocol = "ieee1609.2"
sign_cost_us = 1.0
verify_cost_us = 1.0
certificate = { policy = "never" }

[[variant]]
name = "cert-every-5th"
protocol = "ieee1609.2"
sign_cost_us = 1.0
verify_cost_us = 1.0
certificate = { policy = "every-nth", n = 5 }

[[variant]]
name = "cert-1s"
protocol = "ieee1609.2"
sign_cost_us = 1.0
verify_cost_us = 1.0
certificate = { policy = "interval", interval_s = 1.0 }

[[variant]]
name = "p2pcd"
protocol = "ieee1609.2"
sign_cost_us = 1.0
verify_cost_us = 1.0
certificate = { policy = "on-request" }
p2pcd = true
"""


# What runs on both radios: the size variants do not need the certificate to verify.
RUN_VARIANTS = VARIANTS.replace(
    'certificate = { policy = "never" }', 'certificate = { policy = "never" }\nrequire_known_certificate = false'
).replace(
    'certificate = { policy = "every-nth", n = 5 }', 'certificate = { policy = "every-nth", n = 5 }\nrequire_known_certificate = false'
).replace(
    'certificate = { policy = "interval", interval_s = 1.0 }',
    'certificate = { policy = "interval", interval_s = 1.0 }\nrequire_known_certificate = false',
)


def its_g5_scenario(sidelink_text):
    """The sidelink highway on 802.11p: the [sidelink] table dropped, the access kind set."""
    head, rest = sidelink_text.split("\n[sidelink]\n", 1)
    rest = rest[rest.index("\n[mobility]\n"):]
    return head.replace('kind = "lte-v2x-mode4"', 'kind = "its-g5"') + rest


def mean_ci(xs):
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    n = len(xs)
    if n == 0:
        return float("nan"), float("nan")
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, T95[min(n - 1, len(T95)) - 1] * sd / math.sqrt(n)


def prr(rows, variant, up_to):
    sel = [r for r in rows if r["variant"] == variant and float(r["distance_to_m"]) <= up_to]
    att = sum(int(r["attempts"]) for r in sel)
    return sum(int(r["received"]) for r in sel) / att if att else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--v2x", default="target/release/v2x")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--duration", type=float, default=8.0)
    ap.add_argument("--densities", default="25,50", help="vehicles per km per lane (4 lanes)")
    ap.add_argument("--out", default="out/sidelink-security-sizes")
    ap.add_argument("--its-g5", action="store_true", help="also run each density on 802.11p")
    ap.add_argument("--policies", default=",".join(POLICIES), help="sidelink reservation policies, comma separated")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    base = (ROOT / "scenarios" / "cv2x-highway.toml").read_text()
    base = base[: base.index("[[variant]]")]
    table = []
    for density in [float(x) for x in a.densities.split(",")]:
        for policy in a.policies.split(",") + (["its-g5"] if a.its_g5 else []):
            text = base.replace('reservation_policy = "reselect-on-size-change"', f'reservation_policy = "{policy}"')
            text = text.replace("density_veh_per_km_lane = 25.0", f"density_veh_per_km_lane = {density}")
            sc = out / f"d{density:g}-{policy}.toml"
            if policy == "its-g5":
                sc.write_text(its_g5_scenario(text) + RUN_VARIANTS)
            else:
                sc.write_text(text + RUN_VARIANTS)
            per = {}
            for r in range(a.reps):
                run = out / f"d{density:g}-{policy}-r{r}"
                subprocess.run([a.v2x, "sim", str(sc), "--out", str(run), "--seed", str(1 + r),
                                "--duration", str(a.duration), "--quiet"], check=True)
                if policy == "its-g5":
                    rows = list(csv.DictReader(open(run / "pdr_vs_distance.csv")))
                else:
                    rows = [x for x in csv.DictReader(open(run / "sidelink_losses.csv")) if x["replication"] == "pooled"]
                for v in json.loads((run / "summary.json").read_text())["variants"]:
                    entry = {
                        "prr_100m": prr(rows, v["name"], 100.0),
                        "prr_300m": prr(rows, v["name"], 300.0),
                        "ipg_p99_ms": v["inter_arrival_ms"]["p99"],
                        "awareness": v.get("awareness", {}).get("mean") if isinstance(v.get("awareness"), dict) else v.get("awareness"),
                    }
                    entry["certificate_share"] = v["certificates"]["share_of_cams"]["mean"]
                    if policy == "its-g5":
                        entry["cbr"] = v["channel_busy_ratio"]["mean"]
                        entry["crypto_loss"] = v["crypto_loss_ratio"]["mean"] if isinstance(v["crypto_loss_ratio"], dict) else v["crypto_loss_ratio"]
                    else:
                        entry["crypto_loss"] = v["crypto_loss_ratio"]["mean"] if isinstance(v["crypto_loss_ratio"], dict) else v["crypto_loss_ratio"]
                        s = v["sidelink"]
                        entry["cbr"] = s["cbr"]["mean"]
                        entry["subchannels"] = s["mean_subchannels"]
                        entry["size_reselections_per_tx"] = s["selections"]["size"] / max(s["transmissions"], 1)
                    per.setdefault(v["name"], []).append(entry)
            for name, runs in per.items():
                entry = {"density_veh_per_km_lane": density, "policy": policy, "variant": name, "replications": len(runs)}
                for k in runs[0]:
                    m, ci = mean_ci([x[k] for x in runs])
                    entry[k] = [round(m, 4), round(ci, 4)]
                table.append(entry)
                print(json.dumps(entry), flush=True)
    (out / "security-sizes.json").write_text(json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
