#!/usr/bin/env bash
# `make test`: every test, on a fresh machine too.
#
# 1. scripts/setup.sh installs the system packages the tests need (apt-get, with sudo when
#    not root): OpenSSL headers, compilers, tshark, Chromium, fonts, Python 3 with venv.
# 2. Every Rust test binary runs (`cargo test --no-fail-fast`): one failing binary does not
#    stop the others.
# 3. The Python package's tests run (scripts/test-python.sh: wheel, pytest, the notebook),
#    whatever the Rust tests gave.
# The exit status is non-zero when anything failed, with a summary of what did.
set -uo pipefail
cd "$(dirname "$0")/.."
CARGO=${CARGO:-cargo}
failed=()

if ! scripts/setup.sh; then
  echo "test: scripts/setup.sh failed (see above); running the tests anyway" >&2
  failed+=("setup")
fi
# With Chromium present the browser test of the reports must run, not skip.
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
  export V2X_REQUIRE_BROWSER=1
else
  echo "test: no Chromium on this machine: the browser test of the reports will be skipped" >&2
fi

if ! $CARGO test --workspace --all-targets --no-fail-fast; then
  failed+=("cargo test (see the failures listed above)")
fi
if ! scripts/test-python.sh; then
  failed+=("Python package (scripts/test-python.sh)")
fi

if [ ${#failed[@]} -gt 0 ]; then
  printf 'test: FAILED: %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "test: every test passed (Rust and Python)"
