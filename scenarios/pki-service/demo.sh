#!/usr/bin/env bash
# The TS 102 941 PKI service end to end, in seconds (issue 34's one-liner; `make demo` runs it):
#
#   scenarios/pki-service/demo.sh [OUT]        (default out/pki-service-demo; V2X=path/to/v2x)
#
# starts `v2x pki serve` on its embedded database (SQLite, OUT/svc/pki.db; EA, AA and the
# distribution of the CRL, CTL and ECTL in one process), registers two stations with the EA (as a
# manufacturer would: canonical key in the EA's registry, the TLM certificate as trust anchor),
# enrols car-1, obtains 20 authorization tickets over HTTP (privacy and proof of possession on),
# signs a CAM with one, and car-2 — enrolled too, with the trust lists it downloaded — verifies it
# with `v2x decap`. The service is stopped at the end (also on error).
set -euo pipefail
OUT=${1:-out/pki-service-demo}
V2X=${V2X:-${CARGO_TARGET_DIR:-target}/release/v2x}
rm -rf "$OUT"
mkdir -p "$OUT"
"$V2X" pki serve --dir "$OUT/svc" --listen 127.0.0.1:0 --ready-file "$OUT/url" 2>"$OUT/service.log" &
svc=$!
trap 'kill $svc 2>/dev/null; wait $svc 2>/dev/null || true' EXIT
for _ in $(seq 600); do [ -s "$OUT/url" ] && break; kill -0 $svc; sleep 0.1; done
URL=$(cat "$OUT/url")
echo "service: $URL (store $OUT/svc/pki.db)"
"$V2X" pki register --dir "$OUT/svc" --station "$OUT/car-1"
"$V2X" pki register --dir "$OUT/svc" --station "$OUT/car-2"
"$V2X" pki enrol --ea "$URL" --station "$OUT/car-1"
"$V2X" pki authorise --aa "$URL" --station "$OUT/car-1" --count 20 | tail -n 1
"$V2X" pki enrol --ea "$URL" --station "$OUT/car-2"
"$V2X" pki cam --station "$OUT/car-1" --out "$OUT/cam.oer"
"$V2X" decap --trust "$OUT/car-2/trust" --in "$OUT/cam.oer" --json
echo
curl -s "$URL/status" 2>/dev/null || true
echo
