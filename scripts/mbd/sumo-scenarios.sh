#!/usr/bin/env bash
# SUMO city and highway scenarios at two densities for the misbehaviour-detection evaluation
# (docs/misbehaviour-detection.md). Needs Eclipse SUMO (`pip install eclipse-sumo`; the
# evaluation's venv is made by scripts/mbd/venv.sh). Writes OUT/<name>/{net.net.xml,
# routes.rou.xml, run.sumocfg, fcd.xml}: SUMO's own car-following, lane changes (over 3 s) and
# traffic lights, 0.1 s steps, FCD with positions (read by v2x-sim's mobility module).
#
#   scripts/mbd/sumo-scenarios.sh OUT [DURATION_S]
#   ONLY="city-low" scripts/mbd/sumo-scenarios.sh OUT 400   # some of the four, a longer run
set -euo pipefail
OUT=${1:?usage: sumo-scenarios.sh OUT [DURATION_S]}
DURATION=${2:-160}
BIN=${SUMO_BIN:-$(dirname "$(command -v sumo)")}
TOOLS=${SUMO_TOOLS:-$("$BIN/python" -c 'import sumo, os; print(os.path.join(os.path.dirname(sumo.__file__), "tools"))' 2>/dev/null || echo "$SUMO_HOME/tools")}
SEED=${SEED:-7}
mkdir -p "$OUT"

scenario() { # name netgenerate-args period-seconds fringe
  local name=$1 netargs=$2 period=$3 fringe=$4 d="$OUT/$1"
  [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $name "* ]] || return 0
  mkdir -p "$d"
  "$BIN/netgenerate" $netargs --seed "$SEED" -o "$d/net.net.xml" >/dev/null
  "$BIN/python" "$TOOLS/randomTrips.py" -n "$d/net.net.xml" -o "$d/trips.trips.xml" \
    -r "$d/routes.rou.xml" -b 0 -e "$DURATION" -p "$period" --fringe-factor "$fringe" \
    --seed "$SEED" --validate --allow-fringe --trip-attributes 'departLane="best" departSpeed="max"' >/dev/null
  cat > "$d/run.sumocfg" <<CFG
<configuration>
  <input><net-file value="net.net.xml"/><route-files value="routes.rou.xml"/></input>
  <time><begin value="0"/><end value="$DURATION"/><step-length value="0.1"/></time>
  <processing><time-to-teleport value="-1"/></processing>
  <random_number><seed value="$SEED"/></random_number>
</configuration>
CFG
  "$BIN/sumo" -c "$d/run.sumocfg" --fcd-output "$d/fcd.xml" --fcd-output.acceleration \
    --lanechange.duration 3 --no-step-log --no-warnings >/dev/null
  echo "$name: $(grep -c '<vehicle ' "$d/fcd.xml") samples"
}

# City: 6 x 6 intersections 200 m apart, two lanes each way, traffic lights.
CITY="--grid --grid.number 6 --grid.length 200 --default.lanenumber 2 --default.speed 13.89 --tls.guess"
# Highway: a 4 km carriageway pair (two 2 km segments), three lanes each way, 33.3 m/s.
HIGHWAY="--grid --grid.x-number 3 --grid.y-number 1 --grid.length 2000 --default.lanenumber 3 --default.speed 33.33"

scenario city-low     "$CITY"    "${CITY_LOW_PERIOD:-1.2}"  10
scenario city-high    "$CITY"    "${CITY_HIGH_PERIOD:-0.4}" 10
scenario highway-low  "$HIGHWAY" "${HW_LOW_PERIOD:-1.5}"  100
scenario highway-high "$HIGHWAY" "${HW_HIGH_PERIOD:-0.5}" 100
