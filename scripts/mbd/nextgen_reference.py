"""Drives VeReMi NextGen's own code (attack generator, CaTCh checks) on our files, unmodified.

    python nextgen_reference.py attack NEXTGEN_DIR INPUT_DIR ATTACK SUMOCFG SEED
    python nextgen_reference.py enrich NET_XML DIR
    python nextgen_reference.py checks NEXTGEN_DIR DIR OUT_CSV

`attack` runs Generator/attackGenerator/attackGenerator.py as its own __main__ (output in
INPUT_DIR's sibling INPUT_DIR_ATTACK, as the generator writes it) with Python's `random`
seeded. `enrich` adds `sender.distance_to_road_edge` (NextGen's data-enrichment step, whose
script is not in the repository: here the distance of the reported position inside the
nearest lane of the SUMO network, half its width minus the distance to its centre line,
negative off the road). `checks` runs Generator/MBD_systems' CaTCh checks
(`data_processing.perform_catch_checks`) per file and writes each message's prediction.
"""
import json
import os
import random
import runpy
import sys


def attack(nextgen, input_dir, name, sumocfg, seed):
    import sumo  # noqa: F401  (eclipse-sumo: puts traci on the path below)
    sys.path.insert(0, os.path.join(os.path.dirname(sumo.__file__), "tools"))
    random.seed(int(seed))
    import numpy as np
    np.random.seed(int(seed))
    sys.argv = ["attackGenerator.py", input_dir, name, sumocfg]
    runpy.run_path(os.path.join(nextgen, "attackGenerator", "attackGenerator.py"), run_name="__main__")


def enrich(net_xml, folder):
    import sumo
    sys.path.insert(0, os.path.join(os.path.dirname(sumo.__file__), "tools"))
    import sumolib
    from shapely.geometry import LineString, Point
    from shapely.strtree import STRtree
    net = sumolib.net.readNet(net_xml, withInternal=True)
    lanes = [(LineString(l.getShape()), l.getWidth()) for e in net.getEdges(withInternal=True) for l in e.getLanes()]
    tree = STRtree([g for g, _ in lanes])
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".json"):
            continue
        path = os.path.join(folder, f)
        with open(path) as fh:
            data = json.load(fh)
        for m in data:
            pos = m["sender"]["pos"]
            x, y = (float(v) for v in (pos.split(",")[:2] if isinstance(pos, str) else pos[:2]))
            p = Point(x, y)
            best = -50.0
            for i in tree.query(p.buffer(60.0)):
                g, w = lanes[int(i)]
                best = max(best, w / 2.0 - g.distance(p))
            m["sender"]["distance_to_road_edge"] = best
        with open(path, "w") as fh:
            json.dump(data, fh)


def checks(nextgen, folder, out_csv):
    sys.path.insert(0, os.path.join(nextgen, "MBD_systems"))
    import pandas as pd
    import data_processing as dp
    from catch_checks import CatchChecks
    from data_structures import Parameters
    rows = []
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".json"):
            continue
        with open(os.path.join(folder, f)) as fh:
            data = json.load(fh)
        if not data:
            continue
        df = pd.json_normalize(data, sep="_")
        # data_processing.process's own column preparation, then its CaTCh pass.
        for c in ["rcvTime", "sendTime", "sender_alias", "messageID", "attacker"]:
            df[c] = df[c].astype(int)
        df["sender_id"] = df["sender_id"].astype(str)
        for side in ["receiver", "sender"]:
            for c in ["spd", "spd_noise", "acl", "acl_noise", "hed", "hed_noise"]:
                df[f"{side}_{c}"] = df[f"{side}_{c}"].astype(float)
            for c, cols in [("pos", ["lat", "lon", "alt"]), ("pos_noise", ["lat_noise", "lon_noise", "alt_noise"])]:
                parts = df[f"{side}_{c}"].str.split(",", expand=True).astype(float)
                for k, col in enumerate(cols):
                    df[f"{side}_pos_{col}"] = parts[k]
        df["sender_distance_to_road_edge"] = df["sender_distance_to_road_edge"].astype(float)
        df["prediction"] = 0
        res = dp.perform_catch_checks(df, CatchChecks(Parameters()))
        stem = f[:-5]
        rows.extend(f"{stem},{mid},{int(p)}" for mid, p in zip(res["messageID"], res["prediction"]))
        print(f"{f}: {len(df)} messages", file=sys.stderr)
    with open(out_csv, "w") as fh:
        fh.write("file,messageID,prediction\n" + "\n".join(rows) + "\n")


if __name__ == "__main__":
    cmd, *rest = sys.argv[1:]
    {"attack": attack, "enrich": enrich, "checks": checks}[cmd](*rest)
