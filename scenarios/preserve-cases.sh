#!/bin/sh
# The PRESERVE attack and privacy cases, produced with `v2x encap` and judged by `v2x decap`
# (issue 11). Run from the repository root after `cargo build`:
#     sh scenarios/preserve-cases.sh [path/to/v2x]
# Each step prints the receiver's verdict. Every option that makes a message a strict
# receiver must reject is named --insecure-* (lab use only). The same cases are the CLI
# tests in crates/v2x-cli/tests/cli_preserve_cases.rs.
set -eu
V2X=${1:-${CARGO_TARGET_DIR:-target}/debug/v2x}
LAB=$(mktemp -d)
trap 'rm -rf "$LAB"' EXIT
PKI=$LAB/pki
"$V2X" pki init --dir "$PKI" >/dev/null
"$V2X" pki issue --dir "$PKI" --count 2 >/dev/null   # three pseudonyms for station-1
printf 'cam' >"$LAB/cam.bin"
encap() { out=$1; shift; "$V2X" encap --pki "$PKI" --in "$LAB/cam.bin" --out "$LAB/$out" "$@"; }
decap() { m=$1; shift; "$V2X" decap --trust "$PKI" --json --in "$LAB/$m" "$@" | tr -s "\n " " "; echo; }

echo "== 1. an unsigned CAM (rejected: unsigned-message)"
encap unsigned.oer --insecure-unsigned
decap unsigned.oer

echo "== 2. a validly signed CAM for a PSID the ticket does not permit (rejected: psid-not-permitted)"
encap outside.oer --profile generic --psid 140 --insecure-sign-outside-permissions
decap outside.oer
decap outside.oer --signature-only   # the signature itself verifies

echo "== 3a. signing with a chosen pseudonym (ticket 2)"
encap chosen.oer --pseudonym 2
decap chosen.oer

echo "== 3b. signing with the enrolment credential (rejected: psid-not-permitted)"
encap ec.oer --sign-with-enrolment-credential --insecure-sign-outside-permissions
decap ec.oer

echo "== 4. an on-demand pseudonym change (the signer differs from here on)"
encap before.oer
encap after.oer --change-pseudonym
encap later.oer
decap before.oer
decap after.oer
decap later.oer

echo "== 5. a replay detected across runs (second run: duplicate-message)"
decap before.oer --state "$LAB/receiver"
decap before.oer --state "$LAB/receiver"
