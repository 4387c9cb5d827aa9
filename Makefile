# v2xsec — the two commands a newcomer needs: `make demo` and `make test`.
CARGO ?= cargo
OUT ?= out/demo

.PHONY: demo test lint fmt setup build fuzz-check fuzz-smoke fuzz-campaign clean-demo

## Runs the main job on built-in defaults (see scripts/demo.sh); results in out/demo/.
demo: build
	OUT=$(OUT) scripts/demo.sh

build:
	$(CARGO) build --release -p v2x-cli

## Installs what the tests need (scripts/setup.sh), runs every Rust test binary even when one
## fails (unit, integration, interop vectors, tshark, end-to-end CLI, reports in a browser),
## then the Python package's (wheel in a fresh venv, pytest, the example notebook); fails at
## the end if anything failed. See scripts/test.sh.
test:
	CARGO=$(CARGO) scripts/test.sh

## Formatting, lints (the workspace's [workspace.lints] and clippy's, warnings denied), docs,
## module cycles, module tables and dependency policy, as CI checks them.
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
	python3 scripts/check-module-cycles.py
	python3 scripts/check-module-tables.py
	scripts/deny.sh

fmt:
	$(CARGO) fmt --all

## Installs the system packages the project needs (Debian/Ubuntu; apt-get, with sudo when not root).
setup:
	scripts/setup.sh

## Builds every fuzz target (stable Rust; installs cargo-fuzz when missing). See scripts/fuzz.sh.
fuzz-check:
	scripts/fuzz.sh build

## Builds every fuzz target and runs each for 20 s, as CI does.
fuzz-smoke:
	scripts/fuzz.sh smoke 20

## A longer run of every target (SECONDS each, default 600), two at a time.
fuzz-campaign:
	scripts/fuzz.sh campaign $(or $(SECONDS),600)

clean-demo:
	rm -rf $(OUT)
