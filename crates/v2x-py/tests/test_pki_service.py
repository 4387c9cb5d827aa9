"""The ITS-S side of the TS 102 941 PKI service from Python: a station registered with a
`v2x pki serve` process enrols, obtains tickets, refills its pool, and a refusal raises
PkiError naming the standard's code. Needs the `v2x` binary of the Rust build (`make test`
builds it first); skipped, saying so, without it."""

import os
import pathlib
import subprocess
import time

import pytest

import v2xsec

REPO = pathlib.Path(__file__).resolve().parents[3]


def v2x_binary():
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    for profile in ("debug", "release"):
        exe = target / profile / "v2x"
        if exe.exists():
            return exe
    return None


@pytest.fixture
def service(tmp_path):
    exe = v2x_binary()
    if exe is None:
        pytest.skip("no v2x binary: run `cargo build -p v2x-cli` (make test does) first")
    ready = tmp_path / "ready"
    proc = subprocess.Popen(
        [str(exe), "pki", "serve", "--dir", str(tmp_path / "svc"), "--listen", "127.0.0.1:0", "--ready-file", str(ready)],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            if ready.exists() and ready.read_text().strip():
                break
            assert proc.poll() is None, "v2x pki serve exited"
            time.sleep(0.1)
        yield exe, tmp_path / "svc", ready.read_text().strip()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def register(exe, svc, station):
    subprocess.run([str(exe), "pki", "register", "--dir", str(svc), "--station", str(station)], check=True, capture_output=True)


def test_a_station_enrols_and_keeps_a_pool_of_tickets(service, tmp_path):
    exe, svc, url = service
    register(exe, svc, tmp_path / "car")
    st = v2xsec.PkiStation(tmp_path / "car")
    assert st.its_id == "car"
    ec = st.enrol(url)
    assert len(ec) == 16
    got = st.authorise(url, count=3)
    assert len(got) == 3 and len(set(got)) == 3
    assert [t[0] for t in st.tickets()] == sorted(got, key=[t[0] for t in st.tickets()].index)
    # Pool mode: full enough, nothing obtained; asked for more, topped up.
    assert st.authorise(url, count=5, refill_below=2) == []
    assert len(st.authorise(url, count=5, refill_below=4)) == 2
    assert len(st.tickets()) == 5
    # Each ticket is a certificate the decoder reads.
    assert "certificate" in v2xsec.inspect(st.tickets()[0][1]).format.lower()
    # Re-enrolment gives a new EC.
    assert st.enrol(url) != ec


def test_an_unregistered_station_is_refused_with_the_standards_code(service, tmp_path):
    exe, svc, url = service
    register(exe, svc, tmp_path / "car")
    subprocess.run([str(exe), "pki", "revoke-station", "--dir", str(svc), "--its-id", "car"], check=True, capture_output=True)
    with pytest.raises(v2xsec.PkiError, match="baditsstatus"):
        v2xsec.PkiStation(tmp_path / "car").enrol(url)
