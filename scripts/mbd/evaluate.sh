#!/usr/bin/env bash
# The misbehaviour-detection evaluation (docs/misbehaviour-detection.md): per scenario,
# per-receiver traces from SUMO (scripts/mbd/sumo-scenarios.sh) through v2x-sim's mobility
# and channel, attacks injected by VeReMi NextGen's own generator, the distance to the road
# edge added, then NextGen's CaTCh checks and ours scored on the same files (vehicle split,
# bootstrap by vehicle).
#
#   scripts/mbd/evaluate.sh WORK NEXTGEN_CHECKOUT "city-high highway-high" "dataReplay dosAttack ..."
set -euo pipefail
WORK=${1:?work folder (holds sumo/)}; NG=${2:?NextGen Generator/ checkout}
SCENARIOS=${3:-"city-high highway-high"}
ATTACKS=${4:-"dataReplay dosAttack trafficCongestionSybil"}
BIN=${V2X_MBD:-target/debug/v2x-mbd}
PY=${PYTHON:-python3}
RECEIVERS=${RECEIVERS:-10}; START=${START:-60}; END=${END:-120}
REF=$(dirname "$0")/nextgen_reference.py
for s in $SCENARIOS; do
  d=$WORK/eval/$s; rm -rf "$d"; mkdir -p "$d"
  "$BIN" export --fcd "$WORK/sumo/$s/fcd.xml" --out "$d/base" --receivers "$RECEIVERS" --start "$START" --end "$END"
  for a in $ATTACKS; do
    "$PY" "$REF" attack "$NG" "$d/base" "$a" "$WORK/sumo/$s/run.sumocfg" 1 >/dev/null
    "$PY" "$REF" enrich "$WORK/sumo/$s/net.net.xml" "$d/base_$a"
    "$PY" "$REF" checks "$NG" "$d/base_$a" "$d/$a.theirs.csv" 2>/dev/null
    "$BIN" score --in "$d/base_$a" --detector catch-reference --predictions "$d/$a.theirs.csv" --json "$d/$a.theirs.json"
    "$BIN" score --in "$d/base_$a" --detector catch-reference --json "$d/$a.ours-catch.json"
    "$BIN" score --in "$d/base_$a" --detector full --json "$d/$a.ours-full.json"
  done
done
