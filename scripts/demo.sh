#!/usr/bin/env bash
# `make demo`: the main job on built-in defaults, end to end, in a few tens of seconds.
set -euo pipefail
OUT=${OUT:-out/demo}
# The binary `make build` produced, wherever CARGO_TARGET_DIR puts it.
V2X=${V2X:-${CARGO_TARGET_DIR:-target}/release/v2x}
rm -rf "$OUT"
mkdir -p "$OUT"
step() { printf '\n== %s\n' "$*"; }

step "PKI: root CA, enrolment and authorization authorities, a station with 10 pseudonym tickets (P-256)"
"$V2X" pki init --dir "$OUT/pki"
"$V2X" pki issue --dir "$OUT/pki" --count 10

step "SN-ENCAP: a CAM (digest or certificate signer) and a DENM (certificate, location)"
printf 'demo CAM: station 42, 13.9 m/s, heading 90.0' > "$OUT/cam.payload"
# A DENM (EN 302 637-3, UPER): station 42, stationary vehicle (cause 94, sub-cause 2), lane 1.
# The receiver decodes it to check the signer's DENM SSP (a payload that is not a DENM is
# refused ssp-unverifiable).
printf '\x02\x01\x00\x00\x00\x2a\xa7\x80\x00\x00\x15\x00\x00\x94\x5f\x68\x0b\x00\x05\x17\xda\x02\xc0\x05\x25\x60\xc7\x87\x23\x01\x61\x01\xf4\x19\x03\x84\x25\x1c\x06\x60\x00\xf0\x3e\x70\x51\x0b\xc0\x48\x08' > "$OUT/denm.payload"
"$V2X" encap --pki "$OUT/pki" --profile cam --in "$OUT/cam.payload" --out "$OUT/cam.oer"
"$V2X" encap --pki "$OUT/pki" --profile denm --location 48.1371,11.5754 --in "$OUT/denm.payload" --out "$OUT/denm.oer"

step "SN-DECAP: strict validation up to the root CA"
"$V2X" decap --trust "$OUT/pki" --in "$OUT/denm.oer"
echo

step "SN-DECAP of a tampered copy: rejected with its reason"
cp "$OUT/denm.oer" "$OUT/denm-tampered.oer"
size=$(stat -c %s "$OUT/denm-tampered.oer")
printf '\x5a' | dd of="$OUT/denm-tampered.oer" bs=1 seek=$((size - 3)) conv=notrunc status=none
if "$V2X" decap --trust "$OUT/pki" --in "$OUT/denm-tampered.oer"; then
  echo "demo: tampered message was accepted" >&2
  exit 1
fi

step "PKI service (TS 102 941): enrol over HTTP, 20 tickets from the AA, a CAM another station verifies"
V2X="$V2X" scenarios/pki-service/demo.sh "$OUT/pki-service"

step "inspect: the DENM as a decoded tree"
"$V2X" inspect "$OUT/denm.oer"

step "pcap: secured CAMs and DENMs in GeoNetworking/BTP ($OUT/capture.pcap)"
"$V2X" pcap --pki "$OUT/pki" --out "$OUT/capture.pcap" --count 40
if command -v tshark >/dev/null 2>&1; then
  tshark -r "$OUT/capture.pcap" | head -n 5
fi

step "Legacy TS 103 097 v1.2.1: the same CAM secured in the older format, recognised by decap"
"$V2X" encap --format v1.2.1 --pki "$OUT/pki" --station station-1 --profile cam --in "$OUT/cam.payload" --out "$OUT/cam.v1"
"$V2X" decap --trust "$OUT/pki" --in "$OUT/cam.v1" --json

step "Overhead: security bytes per protocol, field by field, beside the papers (summary)"
"$V2X" overhead > "$OUT/overhead.txt"
head -n 25 "$OUT/overhead.txt"

step "Benchmark (quick mode: shapes, not figures) -> $OUT/bench"
"$V2X" bench --quick --out "$OUT/bench" --json "$OUT/bench/headline.json" --no-progress
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["headline"], indent=1))' "$OUT/bench/headline.json" 2>/dev/null || true

step "Simulator: dense urban grid, ECDSA on two processors -> $OUT/sim-urban"
"$V2X" sim scenarios/demo-urban-grid.toml --out "$OUT/sim-urban"

step "Simulator: highway, ECDSA vs TESLA vs TESLA attached -> $OUT/sim-highway"
"$V2X" sim scenarios/demo-highway-tesla.toml --out "$OUT/sim-highway"

echo
echo "demo: done; results in $OUT (open $OUT/bench/report.html, $OUT/sim-urban/report.html, $OUT/sim-highway/report.html)"
