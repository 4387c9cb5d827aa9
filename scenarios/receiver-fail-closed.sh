#!/bin/sh
# What a strict receiver refuses since issue 27, and the named lab options that relax it.
# Run from the repository root after `cargo build`:
#     sh scenarios/receiver-fail-closed.sh [path/to/v2x]
# Each step prints the receiver's verdict (the CLI tests cli_revocation_rollback.rs,
# cli_security.rs, cli_receiver_state.rs and cli_interop_options.rs check the same).
set -eu
V2X=${1:-${CARGO_TARGET_DIR:-target}/debug/v2x}
LAB=$(mktemp -d)
trap 'rm -rf "$LAB"' EXIT
PKI=$LAB/pki
"$V2X" pki init --dir "$PKI" >/dev/null
decap() { "$V2X" decap --json "$@" | tr -s "\n " " "; echo; }
# A roadworks DENM (EN 302 637-3 v1.3.1, UPER), cause 3.
printf '\002\001\000\000\000\052\307\200\000\000\025\000\000\200\000\000\000\000\000\000\000\000\000\005\045\006\064\007\042\111\114\001\364\031\003\204\044\237\006\140\000\360\076\160\121\000\140\000\000' >"$LAB/denm.uper"
printf 'not a DENM' >"$LAB/text"
for i in 1 2 3 4; do
  "$V2X" encap --pki "$PKI" --profile denm --location 48.1,11.5 --in "$LAB/denm.uper" --out "$LAB/denm-$i.oer"
done

echo "== 1. a DENM whose payload is not a DENM (rejected: ssp-unverifiable)"
"$V2X" encap --pki "$PKI" --profile denm --location 48.1,11.5 --in "$LAB/text" --out "$LAB/text.oer"
decap --trust "$PKI" --in "$LAB/text.oer" || true

echo "== 2. a directory of certificates (root, AA) without the root's CRL (rejected: revocation-status-unknown)"
mkdir "$LAB/trust"
cp "$PKI/root/cert.oer" "$LAB/trust/root.oer"
cp "$PKI/aa/cert.oer" "$LAB/trust/aa.oer"
decap --trust "$LAB/trust" --in "$LAB/denm-1.oer" || true
echo "   ... unless named insecure (accepted, with a warning)"
decap --trust "$LAB/trust" --in "$LAB/denm-1.oer" --insecure-allow-missing-crl

echo "== 3. a CRL rolled back under --state (refused: exit 2)"
cp "$PKI/crl.oer" "$LAB/crl-1.oer"
cp "$PKI/crl.oer" "$LAB/trust/crl.oer"
"$V2X" pki refresh-crl --dir "$PKI" >/dev/null         # the root issues serial 2
cp "$PKI/crl.oer" "$LAB/trust/crl.oer"
decap --trust "$LAB/trust" --state "$LAB/rx" --in "$LAB/denm-2.oer"
cp "$LAB/crl-1.oer" "$LAB/trust/crl.oer"
decap --trust "$LAB/trust" --state "$LAB/rx" --in "$LAB/denm-3.oer" || echo "   exit $?"

echo "== 4. a ticket whose AA the receiver lacks (rejected: issuer-certificate-not-found)"
rm "$LAB/trust/aa.oer"
cp "$PKI/crl.oer" "$LAB/trust/crl.oer"
decap --trust "$LAB/trust" --in "$LAB/denm-4.oer" || true

echo "== 5. INSECURE lab options for captures of test PKIs"
echo "   --signature-only --batch learns the certificates it verified (digest-signed CAMs resolve);"
echo "   --insecure-lenient-chain-length accepts roots at the chain-length defaults (Vanetza's)."
decap --trust "$PKI" --in "$LAB/denm-4.oer" --insecure-lenient-chain-length

echo "== 6. v1.2.1: a revoked ticket (rejected: revoked-certificate), its CRL rolled back under --state (refused: exit 2)"
printf 'legacy denm' >"$LAB/v1.payload"
v1denm() { "$V2X" encap --pki "$PKI" --format v1.2.1 --profile denm --location 48.1,11.5 --in "$LAB/v1.payload" --out "$LAB/v1.msg" 2>/dev/null; }
mkdir "$LAB/trust-v1"
v1denm    # the first v1.2.1 use creates the v1.2.1 root, AA and CRL beside the PKI
cp "$PKI/v1.2.1/root.cert" "$PKI/v1.2.1/aa.cert" "$PKI/v1.2.1/root.crl" "$LAB/trust-v1/"
cp "$PKI/v1.2.1/root.crl" "$LAB/v1-crl-1.crl"
decap --trust "$LAB/trust-v1" --state "$LAB/rx-v1" --in "$LAB/v1.msg"
"$V2X" pki revoke --dir "$PKI" --cert "$PKI/v1.2.1/stations/station-1/at.cert"
cp "$PKI/v1.2.1/root.crl" "$LAB/trust-v1/root.crl"
v1denm; decap --trust "$LAB/trust-v1" --state "$LAB/rx-v1" --in "$LAB/v1.msg" || true
cp "$LAB/v1-crl-1.crl" "$LAB/trust-v1/root.crl"
v1denm; decap --trust "$LAB/trust-v1" --state "$LAB/rx-v1" --in "$LAB/v1.msg" || echo "   exit $?"
