#!/usr/bin/env bash
# The misbehaviour-detection evaluation (docs/misbehaviour-detection.md), in two phases.
#
#   scripts/mbd/evaluate.sh reference WORK NEXTGEN [SCENARIOS] [ATTACKS]
#     per scenario: per-receiver traces from SUMO's FCD (scripts/mbd/sumo-scenarios.sh)
#     through v2x-sim's mobility and channel (`v2x-mbd export`); per attack: VeReMi NextGen's
#     own generator, the distance to the road edge added from the SUMO network, NextGen's
#     own CaTCh checks -> WORK/eval/<scenario>/<attack>.theirs.csv. Slow (their pandas code);
#     resumable: finished steps are skipped. NEXTGEN_CHECKS=skip runs their generator only
#     (their column of the table is then empty).
#   scripts/mbd/evaluate.sh score WORK [SCENARIOS] [ATTACKS]
#     scores their predictions and our detectors on the same files (test half of the
#     vehicles, bootstrap by vehicle) -> <attack>.{theirs,ours-catch,ours-plausibility,ours-full}.json,
#     and prints the table.
#
# NEXTGEN is a checkout of VeReMi NextGen's Generator/ (attackGenerator/, MBD_systems/).
# Python: $PYTHON (default target/mbd-venv/bin/python, made by scripts/mbd/venv.sh).
set -euo pipefail
PHASE=${1:?reference|score}; WORK=${2:?work folder (holds sumo/)}
HERE=$(cd "$(dirname "$0")" && pwd)
BIN=${V2X_MBD:-target/release/v2x-mbd}
PY=${PYTHON:-target/mbd-venv/bin/python}
PATH="$(dirname "$PY"):$PATH"   # SUMO for the generator's positionMirroring (traci)
RECEIVERS=${RECEIVERS:-3}; START=${START:-60}; END=${END:-90}
ALL="dataReplay dosAttack trafficCongestionSybil randomPositionOffset constantPositionOffset zeroSpeedReport \
constantSpeedOffset randomSpeedOffset suddenStop suddenConstantSpeed reversedHeading feignedBraking \
accelerationMultiplication timeDelayAttack positionMirroring"
case $PHASE in
reference)
  NG=${3:?NextGen Generator/ checkout}
  SCENARIOS=${4:-"city-high city-low highway-high highway-low"}; ATTACKS=${5:-$ALL}
  for a in $ATTACKS; do for s in $SCENARIOS; do
    d=$WORK/eval/$s; mkdir -p "$d"
    [ -d "$d/base" ] || "$BIN" export --fcd "$WORK/sumo/$s/fcd.xml" --out "$d/base" \
      --receivers "$RECEIVERS" --start "$START" --end "$END"
    [ -f "$d/$a.theirs.csv" ] && continue
    t0=$(date +%s)
    if [ ! -f "$d/base_$a.enriched" ]; then
      rm -rf "$d/base_$a"
      "$PY" "$HERE/nextgen_reference.py" attack "$NG" "$d/base" "$a" "$WORK/sumo/$s/run.sumocfg" 1 >/dev/null 2>"$d/$a.generator.log"
      "$PY" "$HERE/nextgen_reference.py" enrich "$WORK/sumo/$s/net.net.xml" "$d/base_$a"
      touch "$d/base_$a.enriched"
    fi
    if [ "${NEXTGEN_CHECKS:-run}" = skip ]; then echo "$s $a: generator $(( $(date +%s) - t0 )) s"; continue; fi
    "$PY" "$HERE/nextgen_reference.py" checks "$NG" "$d/base_$a" "$d/$a.theirs.csv.part" 2>"$d/$a.checks.log"
    mv "$d/$a.theirs.csv.part" "$d/$a.theirs.csv"
    echo "$s $a: $(( $(date +%s) - t0 )) s"
  done; done
  ;;
score)
  SCENARIOS=${3:-"city-high city-low highway-high highway-low"}; ATTACKS=${4:-$ALL}
  for s in $SCENARIOS; do for a in $ATTACKS; do
    d=$WORK/eval/$s; [ -d "$d/base_$a" ] || continue
    [ ! -f "$d/$a.theirs.csv" ] || "$BIN" score --in "$d/base_$a" --detector catch-reference --predictions "$d/$a.theirs.csv" --json "$d/$a.theirs.json" 2>/dev/null
    "$BIN" score --in "$d/base_$a" --detector catch-reference --json "$d/$a.ours-catch.json" 2>/dev/null
    "$BIN" score --in "$d/base_$a" --detector plausibility --json "$d/$a.ours-plausibility.json" 2>/dev/null
    "$BIN" score --in "$d/base_$a" --detector full --json "$d/$a.ours-full.json" 2>/dev/null
  done; done
  python3 "$HERE/table.py" "$WORK/eval" $SCENARIOS
  ;;
*) echo "unknown phase $PHASE; valid: reference, score" >&2; exit 2 ;;
esac
