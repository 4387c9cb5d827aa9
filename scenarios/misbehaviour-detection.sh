#!/bin/sh
# Misbehaviour detection on VeReMi NextGen-format traces (docs/misbehaviour-detection.md):
# attack a small trace, score NextGen's CaTCh check set and our full detector on it.
# Run from the repository root after `cargo build -p v2x-mbd`:
#     sh scenarios/misbehaviour-detection.sh [path/to/v2x-mbd]
# The trace is the committed one (SUMO city, 2 receivers, 10 s); a new one comes from any
# SUMO FCD file with
#     v2x-mbd export --fcd fcd.xml --out DIR --receivers 3 --start 60 --end 90
# and the full evaluation (SUMO scenarios, NextGen's own generator and checks) is
# scripts/mbd/evaluate.sh. The same steps are the CLI tests in crates/v2x-mbd/tests/cli.rs.
set -eu
MBD=${1:-${CARGO_TARGET_DIR:-target}/debug/v2x-mbd}
TRACE=crates/v2x-mbd/tests/fixtures/nextgen/input
LAB=$(mktemp -d)
trap 'rm -rf "$LAB"' EXIT

echo "== attacks and their names (an unknown name lists them all)"
"$MBD" attack --in "$TRACE" --out "$LAB/x" --attack noSuchAttack 2>&1 || true

# This trace has no map (no distance_to_road_edge): a constant position offset then shows
# only as overlaps with other vehicles, which sender-level fusion does not hold against one
# sender (it cannot tell which of two overlapping senders lies); with a map it is caught off
# the road (docs/misbehaviour-detection.md).
for attack in dataReplay dosAttack trafficCongestionSybil constantPositionOffset; do
  echo "== $attack: 20 % of the vehicles attack (seed 1)"
  "$MBD" attack --in "$TRACE" --out "$LAB/$attack" --attack "$attack" --ratio 0.2 --seed 1
  printf '   NextGen CaTCh set, threshold fusion: '
  "$MBD" score --in "$LAB/$attack" --detector catch-reference --test-share 1 --reps 200 --json "$LAB/ref.json" 2>&1
  printf '   full detector (evidence, sender-level fusion): '
  "$MBD" score --in "$LAB/$attack" --detector full --test-share 1 --reps 200 --json "$LAB/full.json" 2>&1
done
