#!/usr/bin/env bash
# The simulator's own speed suite (issue 13): runs the city-scale scaling table
# (scenarios/bench-city/*.toml and scenarios/bench-city-10k.toml, a 200 veh/km^2 Manhattan
# grid torus with ECDSA CAMs at 10 Hz) and prints, per N, the engine seconds per simulated
# second, ns per signal, receptions per wall-second and peak RSS (/usr/bin/time -v).
#
#   scripts/bench-city.sh                    # N = 300 1000 2500 5000 10000, 60 s simulated
#   DURATION=5 SIZES="1000 10000" scripts/bench-city.sh
#   REPEAT=3 scripts/bench-city.sh           # medians over 3 runs per N
#   THREADS=2 scripts/bench-city.sh          # v2x sim --threads 2 (results identical to 1)
#   WEAK=per-receiver scripts/bench-city.sh  # [radio] weak_interference = "per-receiver" (or "aggregate")
#
# Needs a release build (`cargo build --release -p v2x-cli`); V2X names another binary.
# The figures are wall-clock: say how loaded the machine was (the load average is printed).
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"300 1000 2500 5000 10000"}
DURATION=${DURATION:-60}
REPEAT=${REPEAT:-1}
THREADS=${THREADS:-}
threads=()
[ -n "$THREADS" ] && threads=(--threads "$THREADS")
WEAK=${WEAK:-}
V2X=${V2X:-${CARGO_TARGET_DIR:-target}/release/v2x}
[ -x "$V2X" ] || { echo "no release binary at $V2X: cargo build --release -p v2x-cli" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

scenario() {
    case $1 in
    300) echo scenarios/bench-city/bench-city-300.toml ;;
    1000) echo scenarios/bench-city/bench-city-1k.toml ;;
    2500) echo scenarios/bench-city/bench-city-2500.toml ;;
    5000) echo scenarios/bench-city/bench-city-5k.toml ;;
    10000) echo scenarios/bench-city-10k.toml ;;
    *) echo "unknown size $1 (valid: 300 1000 2500 5000 10000)" >&2; exit 2 ;;
    esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), ${DURATION} s simulated, ${REPEAT} run(s) per N (median), ${THREADS:-default} thread(s), weak interference ${WEAK:-default}"
printf '%7s %10s %12s %14s %13s %14s %10s\n' N wall_s engine_s/s ns/signal rx/wall_s signals RSS_MiB
for n in $SIZES; do
    sc=$(scenario "$n")
    if [ -n "$WEAK" ]; then
        # The bench scenarios have no [radio] section: append one.
        cp "$sc" "$work/scenario-$n.toml"
        printf '\n[radio]\nweak_interference = "%s"\n' "$WEAK" >> "$work/scenario-$n.toml"
        sc="$work/scenario-$n.toml"
    fi
    for r in $(seq 1 "$REPEAT"); do
        /usr/bin/time -v -o "$work/time-$n-$r" "$V2X" sim "$sc" --quiet --duration "$DURATION" "${threads[@]}" --out "$work/out-$n-$r"
    done
    python3 - "$work" "$n" "$REPEAT" "$DURATION" <<'EOF'
import json, re, statistics, sys
work, n, repeat, duration = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
rows = []
for r in range(1, repeat + 1):
    s = json.load(open(f"{work}/out-{n}-{r}/summary.json"))
    perf = s["variants"][0]["performance"]
    text = open(f"{work}/time-{n}-{r}").read()
    rss_kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    wall = perf["run_wall_s"]
    rows.append((wall, wall / duration, wall * 1e9 / max(perf["signals"], 1),
                 perf["receptions"] / wall, perf["signals"], rss_kib / 1024))
med = [statistics.median(c) for c in zip(*rows)]
print(f"{n:>7} {med[0]:>10.1f} {med[1]:>12.3f} {med[2]:>14.1f} {med[3]:>13.0f} {med[4]:>14.0f} {med[5]:>10.0f}")
EOF
done
