#!/bin/sh
# EXPERIMENTAL post-quantum V2X (issue 32): no standard defines these designs yet (IEEE 1609.2
# and TS 103 097 have no post-quantum types). The composite design (ECDSA P-256 + ML-DSA-44 on
# every certificate and message) and NDSS 2024's partially hybrid design (ECDSA P-256 messages,
# ECDSA P-256 + FN-DSA-512 certificates), made with `v2x encap --experimental-pq` and judged by
# `v2x decap --experimental-pq`, whose DESIGN is the receiver's policy. Run from the repository
# root after `cargo build`:
#     sh scenarios/post-quantum.sh [path/to/v2x]
# The same cases are the CLI tests in crates/v2x-cli/tests/cli_experimental_pq.rs.
set -eu
V2X=${1:-${CARGO_TARGET_DIR:-target}/debug/v2x}
LAB=$(mktemp -d)
trap 'rm -rf "$LAB"' EXIT
PKI=$LAB/pki
COMPOSITE=experimental-composite-ml-dsa-44
HYBRID=experimental-partially-hybrid-ndss2024
# A standard PKI with the two designs' roots, AAs and station-1's tickets beside it
# (PKI/experimental-pq/DESIGN/).
"$V2X" pki init --dir "$PKI" --experimental-pq $COMPOSITE --experimental-pq $HYBRID >/dev/null
# A DENM (EN 302 637-3, UPER; the one of scripts/demo.sh): station 42, stationary vehicle,
# lane 1. Receivers decode it to check the ticket's DENM SSP: a payload that is not a DENM is
# refused (ssp-not-permitted), whatever the signature.
printf '\002\001\000\000\000\052\247\200\000\000\025\000\000\224\137\150\013\000\005\027\332\002\300\005\045\140\307\207\043\001\141\001\364\031\003\204\045\034\006\140\000\360\076\160\121\013\300\110\010' >"$LAB/denm.bin"
# DENMs (fresh for 60 s, with a generation location); CAMs work alike (fresh for 2 s).
DENM="--profile denm --location 48.137,11.575"
encap() { design=$1; out=$2; "$V2X" encap --pki "$PKI" --experimental-pq "$design" $DENM --in "$LAB/denm.bin" --out "$LAB/$out"; }
decap() { design=$1; m=$2; shift 2; "$V2X" decap --trust "$PKI" --experimental-pq "$design" --json --in "$LAB/$m" "$@" | tr -s "\n " " "; echo; }

echo "== 1. a composite DENM (ECDSA P-256 + ML-DSA-44) at a composite receiver (accepted)"
encap $COMPOSITE composite.msg
decap $COMPOSITE composite.msg || true

echo "== 2. the same message twice to one receiver (accepted, then duplicate-message)"
for i in 1 2; do od -An -tx1 -v "$LAB/composite.msg" | tr -d ' \n'; echo; done >"$LAB/twice.txt"
"$V2X" decap --trust "$PKI" --experimental-pq $COMPOSITE --json --batch --in "$LAB/twice.txt" || true

echo "== 3. a partially hybrid DENM at the composite receiver (rejected: downgrade-refused)"
encap $HYBRID hybrid.msg
decap $COMPOSITE hybrid.msg || true

echo "== 4. a standard IEEE 1609.2 DENM at the composite receiver (rejected: downgrade-refused)"
"$V2X" encap --pki "$PKI" $DENM --in "$LAB/denm.bin" --out "$LAB/standard.oer"
decap $COMPOSITE standard.oer || true

echo "== 5. the partially hybrid DENM under its own policy (accepted)"
decap $HYBRID hybrid.msg || true

echo "== 6. bytes on air: the composite CAM, digest and certificate forms, field by field"
"$V2X" overhead --protocol $COMPOSITE

echo "== 7. the composite DENM decoded (v2x inspect)"
"$V2X" inspect "$LAB/composite.msg"
