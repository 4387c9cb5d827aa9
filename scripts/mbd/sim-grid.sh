#!/bin/sh
# The simulator's misbehaviour model per attack (docs/misbehaviour-detection.md):
# scenarios/misbehaviour-sim-highway.toml with each ATTACK, REPLICATIONS seeds, then one
# table (intervals over seeds; latencies over attackers).
#   scripts/mbd/sim-grid.sh OUT REPLICATIONS ATTACK...
# V2X: the binary (default target/debug/v2x).
set -eu
[ $# -ge 3 ] || { echo "usage: $0 OUT REPLICATIONS ATTACK..." >&2; exit 2; }
out=$1; reps=$2; shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
v2x=${V2X:-$here/target/debug/v2x}
mkdir -p "$out"
for attack in "$@"; do
  sed "s/^attack = \"[A-Za-z]*\"/attack = \"$attack\"/" "$here/scenarios/misbehaviour-sim-highway.toml" > "$out/$attack.toml"
  "$v2x" sim "$out/$attack.toml" --out "$out/$attack" --replications "$reps" --quiet
done
python3 - "$out" "$@" <<'PY'
import json, sys
out, attacks = sys.argv[1], sys.argv[2:]
def e(x, d=3):
    if x["mean"] is None: return "-"
    h = x["half_width"]
    return f'{x["mean"]:.{d}f} ± {h:.{d}f}' if h is not None else f'{x["mean"]:.{d}f}'
print("| attack | F1 per message | precision | recall | F1 per sender | attackers revoked | first lie → detection s | → revocation s | → CRL s | accepted after revocation / attacker | benign reported / run | benign revoked / run |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for a in attacks:
    s = json.load(open(f"{out}/{a}/summary.json"))["misbehaviour"]["variants"][0]
    m, p = s["per_message"], s["per_sender"]
    print(f'| {a} | {e(m["f1"])} | {e(m["precision"])} | {e(m["recall"])} | {e(p["f1"])} | {s["attackers_revoked"]}/{s["attackers"]} | '
          f'{e(s["first_lie_to_detection_s"])} | {e(s["first_lie_to_revocation_s"],2)} | {e(s["first_lie_to_crl_s"],2)} | '
          f'{e(s["insider_accepted_after_revocation"],1)} | {e(s["benign_reported"],2)} | {e(s["benign_revoked"],2)} |')
PY
