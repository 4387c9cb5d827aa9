#!/usr/bin/env bash
# Installs the system packages v2xsec needs: OpenSSL headers and pkg-config (openssl
# crate), a C compiler (aws-lc-sys builds aws-lc from source with it; no cmake needed),
# a C++ compiler (libFuzzer, built by the fuzz targets' libfuzzer-sys), tshark (interop
# tests decode our pcaps with Wireshark's dissectors), Python 3 with venv and headers (the
# v2xsec wheel is built with maturin and tested in a fresh venv; its Python dependencies come
# from PyPI in scripts/test-python.sh).
# The TS 102 941 PKI service's tests also need PostgreSQL's server binaries (a throwaway
# cluster is started by the tests themselves, crates/v2x-pki-service/src/pg_cluster.rs) and
# Bouncy Castle's ITS classes with a JDK (the interop test compiles a small Java harness).
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
if [ ${#need[@]} -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${need[@]}"
