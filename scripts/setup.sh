#!/usr/bin/env bash
# Installs the system packages v2xsec needs: OpenSSL headers and pkg-config (openssl
# crate), tshark (interop tests decode our pcaps with Wireshark's dissectors), a C++
# compiler (libFuzzer, built by the fuzz targets' libfuzzer-sys).
set -euo pipefail
need=()
pkg-config --exists openssl 2>/dev/null || need+=(libssl-dev pkg-config)
command -v tshark >/dev/null 2>&1 || need+=(tshark)
command -v c++ >/dev/null 2>&1 || need+=(g++)
if [ ${#need[@]} -eq 0 ]; then
  echo "setup: system packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${need[@]}"
