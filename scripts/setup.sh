#!/usr/bin/env bash
# Installs the system packages v2xsec needs on Debian/Ubuntu (`make setup`; `make test` runs it
# first), with apt-get, through sudo when not root. Only what is missing is installed:
#
# - libssl-dev, pkg-config: the openssl crate;
# - gcc, libc6-dev: aws-lc-sys builds aws-lc from source with a C compiler (no cmake needed);
# - g++: libFuzzer, built by the fuzz targets' libfuzzer-sys;
# - tshark: the interop tests decode our pcaps with Wireshark's dissectors;
# - python3, python3-venv, python3-dev: the v2xsec wheel is built with maturin and tested in a
#   fresh venv (its Python dependencies come from PyPI in scripts/test-python.sh);
# - fonts-dejavu-core: the text of the reports' PNG figures;
# - chromium: the browser test of the reports (tests/report_in_browser.rs). Optional: where
#   it cannot be installed that test says so and is skipped.
# - postgresql (server binaries), libbcutil-java + libbcprov-java, default-jdk-headless: the
#   TS 102 941 PKI service's tests start a throwaway PostgreSQL cluster
#   (crates/v2x-pki-service/src/pg_cluster.rs) and decode every message with Bouncy Castle's
#   ITS classes (the interop test compiles a small Java harness).
set -euo pipefail
need=()
pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev pkg-config)
command -v cc >/dev/null 2>&1 || need+=(gcc libc6-dev)
command -v tshark >/dev/null 2>&1 || need+=(tshark)
command -v c++ >/dev/null 2>&1 || need+=(g++)
python3 -c 'import venv, ensurepip, sysconfig, os; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' \
  >/dev/null 2>&1 || need+=(python3 python3-venv python3-dev)
# PKI service (issue 34): PostgreSQL server, Bouncy Castle, a JDK.
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -e /usr/share/java/bcutil.jar ] && [ -e /usr/share/java/bcprov.jar ] || need+=(libbcutil-java libbcprov-java)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
want_browser=0
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || want_browser=1
if [ ${#need[@]} -eq 0 ] && [ $want_browser -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: no apt-get on this machine; install by hand: ${need[*]} chromium" >&2
  exit 1
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  $SUDO apt-get install -y -qq "${need[@]}"
fi
if [ $want_browser -eq 1 ]; then
  # Debian names it chromium (Ubuntu's chromium-browser is a snap, not installable here).
  echo "setup: installing chromium (for the browser test of the reports)"
  $SUDO apt-get install -y -qq chromium \
    || echo "setup: chromium could not be installed: the browser test of the reports will be skipped" >&2
fi
