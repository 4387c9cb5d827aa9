"""The per-attack table of docs/misbehaviour-detection.md from `evaluate.sh score`'s JSON:
F1 with its 95 % vehicle-bootstrap interval for our full detector, our plausibility checks,
our CaTCh checks and VeReMi NextGen's own CaTCh checks on the same files, and NextGen's
published CaTCh F1 (Documentation/Evaluation/Results/README.md of
VeReMi-dataset/VeReMi-NextGen: InTAS urban and highway, 2 AM = low density, 7 AM = high
density).

    python3 table.py EVAL_DIR SCENARIO...
"""
import json
import os
import sys

ORDER = ["timeDelayAttack", "constantPositionOffset", "randomPositionOffset", "positionMirroring",
         "constantSpeedOffset", "randomSpeedOffset", "zeroSpeedReport", "suddenStop", "suddenConstantSpeed",
         "reversedHeading", "feignedBraking", "accelerationMultiplication", "dosAttack",
         "trafficCongestionSybil", "dataReplay"]
PUBLISHED = {  # F1 per attack in ORDER
    "city-low": [.062, .846, .940, .192, .637, .808, .907, .029, .284, .593, .027, .050, .353, .259, .273],
    "city-high": [.024, .560, .962, .114, .458, .767, .851, .018, .424, .578, .031, .062, .206, .135, .342],
    "highway-low": [.126, .646, .790, .186, .545, .665, .770, .177, .295, .509, .067, .116, .502, .366, .279],
    "highway-high": [.060, .613, .916, .089, .375, .739, .628, .161, .324, .579, .045, .079, .232, .241, .385],
}


def cell(path, extra=False):
    if not os.path.exists(path):
        return "—"
    with open(path) as fh:
        s = json.load(fh)
    f = s["f1"]
    out = f"{f['value']:.3f} [{f['lo']:.3f}, {f['hi']:.3f}]"
    if extra:
        out += f" (P {s['precision']['value']:.2f}, R {s['recall']['value']:.2f})"
    return out


def main(folder, *scenarios):
    print("| scenario | attack | ours: full detector | ours: plausibility | ours: CaTCh checks "
          "| NextGen's CaTCh checks, our traces | NextGen published |")
    print("|---|---|---|---|---|---|---:|")
    for s in scenarios:
        for i, a in enumerate(ORDER):
            d = os.path.join(folder, s)
            if not os.path.exists(os.path.join(d, f"{a}.ours-full.json")):
                continue
            print(f"| {s} | {a} | {cell(os.path.join(d, a + '.ours-full.json'), True)} | "
                  f"{cell(os.path.join(d, a + '.ours-plausibility.json'))} | "
                  f"{cell(os.path.join(d, a + '.ours-catch.json'))} | {cell(os.path.join(d, a + '.theirs.json'))} | "
                  f"{PUBLISHED[s][i]:.3f} |")


if __name__ == "__main__":
    main(*sys.argv[1:])
