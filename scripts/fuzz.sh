#!/usr/bin/env bash
# Fuzzing of every decoder (fuzz/fuzz_targets/*) with cargo-fuzz / libFuzzer, on stable Rust.
#
#   scripts/fuzz.sh build                       build every target
#   scripts/fuzz.sh smoke [SECONDS]             build, then per target (SECONDS, 20, in all) a
#                                               reproducible part and a random part — CI
#   scripts/fuzz.sh campaign [SECONDS] [T...]   run targets longer (600 s each, all if none
#                                               named), FUZZ_JOBS (2) at a time
#   scripts/fuzz.sh list                        the targets
#
# Stable Rust is enough: `--sanitizer none` makes cargo-fuzz use only stable compiler flags
# (SanitizerCoverage through -Cpasses / -Cllvm-args); libFuzzer itself is C++ built by
# libfuzzer-sys (needs a C++ compiler, which scripts/setup.sh installs). cargo-fuzz is
# installed with `cargo install` when missing.
#
# smoke never reads fuzz/corpus: each target starts from a fresh copy of the committed
# fuzz/seeds/TARGET (symlinks followed: the crash inputs of fixed defects are there) and runs
#   1. every seed once, then FUZZ_SMOKE_RUNS (20000) mutations from libFuzzer seed 1: the same
#      inputs on every machine and every run (reproducible: a failure here is a failure of the
#      code, not of luck);
#   2. the rest of SECONDS with a fresh random seed (FUZZ_SEED overrides), printed before the
#      run and beside any failure with the command that replays it.
# campaign keeps its corpus in fuzz/corpus/TARGET (git-ignored), seeded from fuzz/seeds/TARGET.
# A crash, timeout or out-of-memory input is saved to fuzz/artifacts/TARGET and makes the script
# exit 1.
# A summary line per target (executions, coverage, corpus) ends every run; full logs are in
# $CARGO_TARGET_DIR/fuzz/logs.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
target_dir="${CARGO_TARGET_DIR:-$PWD/target}/fuzz"
jobs="${FUZZ_JOBS:-2}"
logs="$target_dir/logs"
host="$(rustc -vV | sed -n 's/^host: //p')"

ensure_cargo_fuzz() {
  if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
    cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
  fi
}

targets() {
  cargo fuzz list --fuzz-dir fuzz
}

build() {
  ensure_cargo_fuzz
  echo "fuzz: building every target (sanitizer none, stable) into $target_dir"
  cargo fuzz build --fuzz-dir fuzz --sanitizer none --target-dir "$target_dir"
}

# run_target TARGET SECONDS: fuzz one target; writes $logs/TARGET.{log,status}.
run_target() {
  local t=$1 secs=$2
  local corpus="fuzz/corpus/$t" artifacts="fuzz/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  if [ -d "fuzz/seeds/$t" ]; then
    find -L "fuzz/seeds/$t" -type f -exec cp -f {} "$corpus/" \;
  fi
  local status=0
  "$target_dir/$host/release/$t" "$corpus" \
    -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" >"$logs/$t.log" 2>&1 || status=$?
  echo "$status" >"$logs/$t.status"
}

# smoke_target TARGET SECONDS: the reproducible part, then the random one, on a fresh corpus;
# writes $logs/TARGET.{log,status,seed}.
smoke_target() {
  local t=$1 secs=$2
  local corpus artifacts="fuzz/artifacts/$t" bin="$target_dir/$host/release/$t"
  corpus=$(mktemp -d)
  mkdir -p "$artifacts"
  if [ -d "fuzz/seeds/$t" ]; then
    find -L "fuzz/seeds/$t" -type f -exec cp -f {} "$corpus/" \;
  fi
  local opts=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/")
  local status=0
  "$bin" "$corpus" -seed=1 -runs="${FUZZ_SMOKE_RUNS:-20000}" "${opts[@]}" >"$logs/$t.log" 2>&1 || status=$?
  local seed="${FUZZ_SEED:-$(( (RANDOM << 15 | RANDOM) + 1 ))}"
  echo "$seed" >"$logs/$t.seed"
  if [ "$status" = 0 ]; then
    echo "fuzz: $t: seeds and 1 reproducible run passed; random part with libFuzzer seed $seed"
    local left=$((secs - 5))
    [ "$left" -ge 1 ] || left=1
    "$bin" "$corpus" -seed="$seed" -max_total_time="$left" "${opts[@]}" >>"$logs/$t.log" 2>&1 || status=$?
  else
    echo "reproducible part failed (seed 1)" >>"$logs/$t.log"
    echo 1 >"$logs/$t.seed"
  fi
  rm -rf "$corpus"
  echo "$status" >"$logs/$t.status"
}

# summary TARGET: one line from the libFuzzer log.
summary() {
  local t=$1 log="$logs/$1.log"
  local status execs rate cov ft corp
  status=$(cat "$logs/$t.status")
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corp=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  local verdict=ok
  if [ "$status" != 0 ] || [ -n "$(ls -A "fuzz/artifacts/$t" 2>/dev/null)" ]; then
    verdict="FAILED (status $status, artifacts in fuzz/artifacts/$t)"
    if [ -f "$logs/$t.seed" ]; then
      verdict="$verdict; libFuzzer seed $(cat "$logs/$t.seed"): FUZZ_SEED=$(cat "$logs/$t.seed") scripts/fuzz.sh smoke ${smoke_secs:-20} (target $t)"
    fi
  fi
  printf '%-26s execs %10s  exec/s %7s  cov %6s  ft %6s  corpus %5s  %s\n' \
    "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$verdict"
}

run_all() {
  local runner=$1 secs=$2
  shift 2
  local list=("$@")
  [ ${#list[@]} -gt 0 ] || mapfile -t list < <(targets)
  mkdir -p "$logs"
  echo "fuzz: ${#list[@]} target(s), ${secs} s each, $jobs at a time ($runner)"
  local started=$SECONDS
  for t in "${list[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    "$runner" "$t" "$secs" &
  done
  wait
  echo "fuzz: done in $((SECONDS - started)) s"
  local failed=0
  for t in "${list[@]}"; do
    line=$(summary "$t")
    echo "$line"
    case "$line" in *FAILED*) failed=1 ;; esac
  done
  if [ "$failed" != 0 ]; then
    echo "fuzz: a target failed; reproduce with $target_dir/$host/release/TARGET fuzz/artifacts/TARGET/<file>" >&2
    return 1
  fi
}

mode="${1:-smoke}"
case "$mode" in
  list) targets ;;
  build) build ;;
  smoke)
    smoke_secs="${2:-20}"
    build && run_all smoke_target "$smoke_secs"
    ;;
  campaign)
    shift
    secs="${1:-600}"
    [ $# -gt 0 ] && shift
    build && run_all run_target "$secs" "$@"
    ;;
  *)
    echo "usage: scripts/fuzz.sh build | smoke [SECONDS] | campaign [SECONDS] [TARGET...] | list" >&2
    exit 2
    ;;
esac
