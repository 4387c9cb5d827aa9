#!/usr/bin/env bash
# Benign goodput against the certificate-copying forger (scenarios/testbed/forger.toml) and
# the 200-address flood (scenarios/testbed/flood-many-addresses.toml), each run REPS times
# as shipped (defended), with every defence off (undefended), and defended with the attack
# starting together with the benign senders (start_s = 0); then one table of the benign
# goodput per configuration: mean with its 95 % Student-t interval over the repetitions
# (cut at 0 and 100 %),
# min and max, the forgeries / flood packets accepted, and the machine's load average
# (1 min, read before and after each run). The figures of docs/testbed.md, "DoS defences".
#
# Usage: scripts/testbed-dos.sh [REPS] [OUT]    (default 5, out/testbed-dos)
# V2X=path/to/v2x picks the binary (default: target/debug/v2x, or $CARGO_TARGET_DIR's).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5}
out=${2:-out/testbed-dos}
v2x=${V2X:-${CARGO_TARGET_DIR:-target}/debug/v2x}
[ -x "$v2x" ] || { echo "no $v2x: cargo build -p v2x-cli (or set V2X)" >&2; exit 2; }
mkdir -p "$out/scenarios"
results="$out/runs.csv"
echo "scenario,config,rep,benign_sent,benign_accepted,attack_sent,attack_accepted,load_before,load_after" >"$results"

undefended() {
  sed -e 's/^precheck = true/precheck = false/' -e 's/^known_signers_first = true/known_signers_first = false/' \
    -e 's/^\(known_signer_rate_hz\|rate_limit_per_source_hz\|rate_limit_per_signer_hz\) = .*/\1 = 0.0/' "$1"
}

for scenario in forger flood-many-addresses; do
  src=scenarios/testbed/$scenario.toml
  cp "$src" "$out/scenarios/$scenario-defended.toml"
  undefended "$src" >"$out/scenarios/$scenario-undefended.toml"
  sed 's/^start_s = .*/start_s = 0.0/' "$src" >"$out/scenarios/$scenario-defended-start0.toml"
  for config in defended undefended defended-start0; do
    for rep in $(seq 1 "$reps"); do
      run="$out/$scenario-$config-$rep"
      rm -rf "$run"
      before=$(cut -d' ' -f1 /proc/loadavg)
      "$v2x" testbed --quiet --out "$run" "$out/scenarios/$scenario-$config.toml"
      after=$(cut -d' ' -f1 /proc/loadavg)
      python3 - "$run/summary.json" "$scenario" "$config" "$rep" "$before" "$after" >>"$results" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
rx = s["receivers"]["rx0"]
attack = [c for k, c in rx.items() if k not in ("benign",)]
b = rx["benign"]
print(",".join(map(str, [sys.argv[2], sys.argv[3], sys.argv[4], b["sent"], b["accepted"],
                          sum(c["sent"] for c in attack), sum(c["accepted"] for c in attack),
                          sys.argv[5], sys.argv[6]])))
EOF
      # Keep the summaries; the packet tables of a flood run are tens of MB.
      rm -rf "$run/logs" "$run/pki" "$run"/{tx,rx,events,usage}.{csv,parquet}
    done
  done
done

python3 - "$results" <<'EOF'
import csv, statistics, sys
# Two-sided 95 % Student t (the table of v2x-report's stats, to 30 degrees of freedom).
T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
     2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
rows = list(csv.DictReader(open(sys.argv[1])))
print("| scenario | receiver | runs | benign goodput, mean [95 % CI] | min – max | attack packets sent / accepted | load average (1 min) |")
print("|---|---|---|---|---|---|---|")
for key in dict.fromkeys((r["scenario"], r["config"]) for r in rows):
    rs = [r for r in rows if (r["scenario"], r["config"]) == key]
    g = [100 * int(r["benign_accepted"]) / int(r["benign_sent"]) for r in rs]
    m = statistics.mean(g)
    h = T[min(len(g) - 1, 30) - 1] * statistics.stdev(g) / len(g) ** 0.5 if len(g) > 1 else float("nan")
    loads = [float(r[k]) for r in rs for k in ("load_before", "load_after")]
    sent = sum(int(r["attack_sent"]) for r in rs)
    acc = sum(int(r["attack_accepted"]) for r in rs)
    # A goodput is at most 100 %: the interval is cut there.
    print(f"| {key[0]} | {key[1]} | {len(g)} | {m:.1f} % [{max(m - h, 0):.1f}, {min(m + h, 100):.1f}] | {min(g):.1f} – {max(g):.1f} % "
          f"| {sent} / {acc} | {min(loads):.1f} – {max(loads):.1f} |")
EOF
