"""Makes crates/v2x-mbd/tests/fixtures/nextgen/: a small trace and what VeReMi NextGen's own
attack generator makes of it, for the agreement test (tests/nextgen_agreement.rs), so that
CI needs no Python.

    python nextgen_fixture.py NEXTGEN_DIR INPUT_DIR SUMOCFG OUT_DIR [SEED]

INPUT_DIR is a `v2x-mbd export` (the committed one: city-low, 2 receivers, 60-70 s). Per
attack, the generator (Generator/attackGenerator/attackGenerator.py, unmodified) runs as its
own __main__ on a copy of INPUT_DIR with Python's and NumPy's generators seeded; OUT_DIR/
<attack>.json keeps its attackers, their drawn parameters (`misbehavior_config`) and, per
receiver file, every message of its output that is not in the input unchanged.
"""
import json
import os
import random
import runpy
import shutil
import sys
import tempfile

ATTACKS = [
    "timeDelayAttack", "constantPositionOffset", "randomPositionOffset", "positionMirroring",
    "constantSpeedOffset", "randomSpeedOffset", "zeroSpeedReport", "suddenStop",
    "suddenConstantSpeed", "reversedHeading", "feignedBraking", "accelerationMultiplication",
    "dosAttack", "trafficCongestionSybil", "dataReplay",
]


def plain(v):
    """misbehavior_config values as JSON (numpy scalars to Python; a saved message dropped)."""
    if hasattr(v, "item") and getattr(v, "ndim", 0) == 0:
        return v.item()
    if isinstance(v, (int, float, str)) or v is None:
        return v
    return None


def normal(m):
    """A message with its "x,y,z" strings as numbers (the generator writes 0.0 for 0)."""
    if m is None:
        return None
    side = lambda k: {f: tuple(float(x) for x in v.split(",")) if f in ("pos", "pos_noise") else v
                      for f, v in m[k].items()}
    return dict(m, receiver=side("receiver"), sender=side("sender"))


def load(folder):
    out = {}
    for f in sorted(os.listdir(folder)):
        if f.endswith(".json"):
            with open(os.path.join(folder, f)) as fh:
                out[f[:-5]] = json.load(fh)
    return out


def main(nextgen, input_dir, sumocfg, out_dir, seed="1"):
    import sumo
    sys.path.insert(0, os.path.join(os.path.dirname(sumo.__file__), "tools"))
    import numpy as np
    os.makedirs(out_dir, exist_ok=True)
    base = load(input_dir)
    for attack in ATTACKS:
        tmp = tempfile.mkdtemp()
        shutil.copytree(input_dir, os.path.join(tmp, "base"))
        random.seed(int(seed))
        np.random.seed(int(seed))
        sys.argv = ["attackGenerator.py", os.path.join(tmp, "base"), attack, os.path.abspath(sumocfg)]
        g = runpy.run_path(os.path.join(nextgen, "attackGenerator", "attackGenerator.py"), run_name="__main__")
        result = load(os.path.join(tmp, "base_" + attack))
        changed = {}
        for name, msgs in result.items():
            before = {m["messageID"]: m for m in base[name]}
            assert len(msgs) >= len(before), f"{attack}/{name}: messages lost"
            changed[name] = [m for m in msgs if normal(before.get(m["messageID"])) != normal(m)]
        config = {a: {k: plain(v) for k, v in g["misbehavior_config"][a].items() if plain(v) is not None}
                  for a in g["attackerIDs"]}
        with open(os.path.join(out_dir, attack + ".json"), "w") as fh:
            json.dump({"attack": attack, "seed": int(seed), "attackers": config, "changed": changed}, fh,
                      separators=(",", ":"))
        shutil.rmtree(tmp)
        print(attack, sum(len(v) for v in changed.values()), "changed or added", file=sys.stderr)


if __name__ == "__main__":
    main(*sys.argv[1:])
