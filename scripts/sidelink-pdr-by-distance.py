#!/usr/bin/env python3
"""PDR vs distance of sidelink runs side by side (issue 31): for each results folder of
`v2x sim ... --replications R` (R >= 2), per variant and 50 m bin, the PDR's mean over the
replications with the half-width of its 95 % Student-t interval, and the share of the
attempts lost to each cause (half duplex, sensing, propagation, collision; means).

    v2x sim scenarios/cv2x-highway.toml --out out/lte --replications 3
    v2x sim scenarios/cv2x-nr-highway.toml --out out/nr --replications 3
    python3 scripts/sidelink-pdr-by-distance.py out/lte out/nr [--json out/pdr.json]
"""

import argparse
import csv
import json
import math
from pathlib import Path

# Student t quantile 0.975 by degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
CAUSES = ("half_duplex", "sensing", "propagation", "collision")


def table(folder: Path, bin_m: float, max_m: float):
    rows = [r for r in csv.DictReader(open(folder / "sidelink_losses.csv")) if r["replication"] != "pooled"]
    edges = [(lo * bin_m, (lo + 1) * bin_m) for lo in range(int(max_m / bin_m))]
    out = {}
    for v in dict.fromkeys(r["variant"] for r in rows):
        reps = sorted({r["replication"] for r in rows if r["variant"] == v})
        if len(reps) < 2:
            raise SystemExit(f"{folder}: {v} has {len(reps)} replication(s); an interval needs 2 or more")
        bins = []
        for lo, hi in edges:
            pdr, causes = [], {k: [] for k in CAUSES}
            for rep in reps:
                sel = [
                    r
                    for r in rows
                    if r["variant"] == v and r["replication"] == rep
                    and lo <= float(r["distance_from_m"]) and float(r["distance_to_m"]) <= hi
                ]
                attempts = sum(int(r["attempts"]) for r in sel)
                pdr.append(sum(int(r["received"]) for r in sel) / attempts)
                for k in CAUSES:
                    causes[k].append(sum(int(r[k]) for r in sel) / attempts)
            n = len(pdr)
            mean = sum(pdr) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in pdr) / (n - 1))
            bins.append({
                "from_m": lo, "to_m": hi, "pdr": mean, "ci95": T975.get(n - 1, 1.96) * sd / math.sqrt(n),
                "losses": {k: sum(c) / n for k, c in causes.items()},
            })
        out[v] = {"replications": len(reps), "bins": bins}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--bin-m", type=float, default=50.0)
    ap.add_argument("--max-m", type=float, default=500.0)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    res = {str(f): table(f, a.bin_m, a.max_m) for f in a.folders}
    variants = dict.fromkeys(v for r in res.values() for v in r)
    for v in variants:
        have = [f for f in res if v in res[f]]
        print(f"\nvariant {v} (mean ± 95 % half-width; losses in % of attempts: half duplex / sensing / propagation / collision)")
        print("| distance (m) | " + " | ".join(f"{Path(f).name} PDR" for f in have) + " | "
              + " | ".join(f"{Path(f).name} losses" for f in have) + " |")
        print("|---|" + "---|" * (2 * len(have)))
        for i, b in enumerate(res[have[0]][v]["bins"]):
            pdr = [f"{res[f][v]['bins'][i]['pdr']:.3f} ± {res[f][v]['bins'][i]['ci95']:.3f}" for f in have]
            loss = [" / ".join(f"{100 * res[f][v]['bins'][i]['losses'][k]:.1f}" for k in CAUSES) for f in have]
            print(f"| {b['from_m']:.0f}-{b['to_m']:.0f} | " + " | ".join(pdr + loss) + " |")
    if a.json:
        a.json.write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
