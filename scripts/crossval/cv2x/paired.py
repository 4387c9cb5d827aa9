#!/usr/bin/env python3
"""The effect of one change on the PDR's mean absolute deviation from the model and from
the authors' Veins runs, paired by replication (same seeds) against a baseline run of
crossval.py: mean +- 95 % Student-t half-width of (changed - baseline) over the pairs.

    python3 scripts/crossval/cv2x/paired.py --beta 0.3 --rate 20 \
        out/exp/base/b0.3-l20 out/exp/no_step5/b0.3-l20 out/exp/no_steps/b0.3-l20
"""

import argparse
from pathlib import Path

import crossval as c


def per_replication(run_dir, refs):
    ours = c.ours_by_replication(Path(run_dir) / "sidelink_losses.csv")
    return {k: [c.mad(ours[r], ref, "pdr") for r in sorted(ours)] for k, ref in refs.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--beta", type=float, required=True)
    ap.add_argument("--rate", type=int, required=True)
    ap.add_argument("baseline")
    ap.add_argument("changed", nargs="+")
    a = ap.parse_args()
    results = c.HERE / "results"
    refs = {"model": c.reference(results / f"model-b{a.beta}-l{a.rate}.csv"),
            "veins": c.reference(results / f"veins-v{int(round(a.beta * 1000))}-p{1 / a.rate:g}.csv")}
    base = per_replication(a.baseline, refs)
    for run_dir in a.changed:
        x = per_replication(run_dir, refs)
        parts = []
        for k in refs:
            if len(x[k]) != len(base[k]):
                raise SystemExit(f"{run_dir}: {len(x[k])} replications, the baseline has {len(base[k])}")
            m, ci = c.mean_ci([p - q for p, q in zip(x[k], base[k])])
            parts.append(f"vs {k} {m:+.2f} ± {ci:.2f}")
        print(run_dir, "  ".join(parts))


if __name__ == "__main__":
    main()
