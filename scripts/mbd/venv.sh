#!/usr/bin/env bash
# The Python environment of the misbehaviour-detection evaluation (outside CI): Eclipse SUMO
# (netgenerate, randomTrips, sumo, traci, sumolib) and what VeReMi NextGen's generator and
# checks import.  scripts/mbd/venv.sh [DIR]   (default target/mbd-venv)
set -euo pipefail
DIR=${1:-target/mbd-venv}
python3 -m venv "$DIR"
"$DIR/bin/pip" install --quiet eclipse-sumo==1.28.0 pandas==3.1.1 numpy==2.4.6 shapely==2.2.0
echo "$DIR ready"
