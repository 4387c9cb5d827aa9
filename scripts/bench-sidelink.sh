#!/usr/bin/env bash
# The sidelink's speed suite (issue 31): LTE-V2X Mode 4 on the ring highway of
# scenarios/cv2x-highway.toml at 0.1 veh/m (scenarios/bench-sidelink/*.toml, IEEE 1609.2
# sizes); prints, per N and thread count, the wall seconds, the engine seconds per simulated
# second, receptions per wall-second, peak RSS (/usr/bin/time -v) and the load average
# before the row, as medians over REPEAT runs.
#
#   scripts/bench-sidelink.sh                       # N = 1000 5000 10000, 10 s simulated, threads 1 and 2
#   DURATION=60 SIZES=10000 THREADS=2 scripts/bench-sidelink.sh   # the issue's 10,000 x 60 s
#   REPEAT=3 scripts/bench-sidelink.sh              # medians over 3 runs per row
#   BASELINE=/tmp/v2x-main scripts/bench-sidelink.sh  # also runs another build, interleaved
#                                                   # run by run, and prints the speed ratio
#
# Every row also prints the run's receptions: the same for every thread count and for a
# baseline that models the same (a differing count is flagged). Needs a release build
# (`cargo build --release -p v2x-cli`); V2X names another binary. The figures are
# wall-clock: say how loaded the machine was.
set -euo pipefail
cd "$(dirname "$0")/.."

SIZES=${SIZES:-"1000 5000 10000"}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-1}
THREADS=${THREADS:-"1 2"}
BASELINE=${BASELINE:-}
V2X=${V2X:-${CARGO_TARGET_DIR:-target}/release/v2x}
[ -x "$V2X" ] || { echo "no release binary at $V2X: cargo build --release -p v2x-cli" >&2; exit 2; }
[ -z "$BASELINE" ] || [ -x "$BASELINE" ] || { echo "no baseline binary at $BASELINE" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install time)" >&2; exit 2; }

scenario() {
    case $1 in
    1000) echo scenarios/bench-sidelink/bench-sidelink-1k.toml ;;
    5000) echo scenarios/bench-sidelink/bench-sidelink-5k.toml ;;
    10000) echo scenarios/bench-sidelink/bench-sidelink-10k.toml ;;
    *) echo "unknown size $1 (valid: 1000 5000 10000)" >&2; exit 2 ;;
    esac
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%FT%TZ) $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg), ${DURATION} s simulated, ${REPEAT} run(s) per row (median)"
echo "# build: $V2X${BASELINE:+, baseline: $BASELINE}"
printf '%6s %4s %6s %9s %11s %12s %12s %8s' N thr load wall_s engine_s/s rx/wall_s receptions RSS_MiB
[ -n "$BASELINE" ] && printf ' %12s %12s %7s' base_wall_s base_rx/wall base/new
printf '\n'
for n in $SIZES; do
    sc=$(scenario "$n")
    for t in $THREADS; do
        load=$(cut -d' ' -f1 /proc/loadavg)
        for r in $(seq 1 "$REPEAT"); do
            for which in new ${BASELINE:+base}; do
                bin=$V2X
                [ "$which" = base ] && bin=$BASELINE
                # The scenario's notes (the profile's substituted costs) only when it fails.
                /usr/bin/time -v -o "$work/time-$which-$r" "$bin" sim "$sc" --quiet --duration "$DURATION" \
                    --threads "$t" --out "$work/out-$which-$r" 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
            done
        done
        python3 - "$work" "$n" "$t" "$load" "$REPEAT" "$DURATION" "${BASELINE:+base}" <<'EOF'
import json, re, statistics, sys
work, n, t, load, repeat, duration, base = sys.argv[1:8]
repeat, duration = int(repeat), float(duration)

def rows(which):
    out = []
    for r in range(1, repeat + 1):
        perf = json.load(open(f"{work}/out-{which}-{r}/summary.json"))["variants"][0]["performance"]
        text = open(f"{work}/time-{which}-{r}").read()
        rss_kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
        wall = perf["run_wall_s"]
        out.append((wall, perf["receptions"] / wall, perf["receptions"], rss_kib / 1024))
    return out

new = rows("new")
med = [statistics.median(c) for c in zip(*new)]
line = f"{n:>6} {t:>4} {load:>6} {med[0]:>9.1f} {med[0] / duration:>11.3f} {med[1]:>12.0f} {med[2]:>12.0f} {med[3]:>8.0f}"
flag = ""
if base:
    old = rows("base")
    bmed = [statistics.median(c) for c in zip(*old)]
    line += f" {bmed[0]:>12.1f} {bmed[1]:>12.0f} {bmed[0] / med[0]:>7.2f}"
    if {r[2] for r in old} != {r[2] for r in new}:
        flag = "  # receptions differ from the baseline"
if len({r[2] for r in new}) > 1:
    flag += "  # receptions differ between repeats"
print(line + flag)
EOF
    done
done
