#!/bin/sh
# The testbed's misbehaviour closed loop (docs/misbehaviour-detection.md) for several attacks:
# scenarios/testbed/misbehaviour-closed-loop.toml with `attack` and `runs` replaced, one
# `v2x testbed` run each, results under OUT/ATTACK/ (report.md, summary.json,
# misbehaviour/runs.json). Usage: scripts/mbd/closed-loop.sh OUT RUNS [RATE_HZ] ATTACK...
set -eu
out=$1 runs=$2
shift 2
rate=2.0
case ${1:-} in [0-9]*) rate=$1; shift ;; esac
V2X=${V2X:-target/debug/v2x}
base=scenarios/testbed/misbehaviour-closed-loop.toml
mkdir -p "$out"
echo "load before: $(cat /proc/loadavg)"
for attack in "$@"; do
    sc="$out/$attack-$rate.toml"
    sed -e "s/^attack = .*/attack = \"$attack\"/" -e "s/^runs = .*/runs = $runs/" \
        -e "s/^rate_hz = .*/rate_hz = $rate/" "$base" > "$sc"
    "$V2X" testbed "$sc" --out "$out/$attack-$rate" | sed -n '/^## Misbehaviour closed loop/,$p'
    echo "load after $attack: $(cat /proc/loadavg)"
done
