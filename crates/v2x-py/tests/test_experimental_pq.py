"""The EXPERIMENTAL post-quantum designs from Python: every design round trips, the
receiver's design is its policy (another design and a standard 1609.2 message are
``downgrade-refused``), tampering, replays and staleness are rejected by reason and step,
and the designs are rows of the overhead report."""

import time

import pytest

import v2xsec

# A roadworks DENM (EN 302 637-3, UPER; as in test_security.py): receivers decode a DENM to check
# the ticket's DENM SSP, and refuse one that is not a DENM ("ssp-unverifiable").
ROADWORKS_DENM = bytes.fromhex(
    "02010000002ac780000015000080000000000000000000052506340722494c01f4190384249f066000f03e705100600000"
)


@pytest.fixture
def pki(tmp_path):
    return v2xsec.Pki.init(tmp_path / "pki", station="alice")


def test_every_design_round_trips_cam_certificate_then_digest(pki):
    assert len(v2xsec.PQ_DESIGNS) == 5
    assert all(d.startswith("experimental-") for d in v2xsec.PQ_DESIGNS)
    for design in v2xsec.PQ_DESIGNS:
        pq = pki.experimental_pq(design)
        assert pq.design == design and set(pq.authorities()) == {"root", "aa"}
        alice = pq.sender("alice")
        rx = pq.receiver()
        t0 = time.time()
        first = alice.encap(b"pq cam", at=t0)
        second = alice.encap(b"pq cam 2", at=t0 + 0.1)
        assert first[0] == 0xE1 and len(first) > len(second), design  # certificate, then digest
        d = rx.decap(first, at=t0 + 0.001)
        assert (d.payload, d.psid, d.design, d.signer) == (b"pq cam", 36, design, alice.certificate_id)
        assert rx.decap(second, at=t0 + 0.101).payload == b"pq cam 2"
        # A second receiver never saw the ticket: the digest names an unknown signer.
        with pytest.raises(v2xsec.Rejected) as e:
            pq.receiver().decap(second, at=t0 + 0.101)
        assert (e.value.reason, e.value.step) == ("signer-certificate-not-found", "signer")


def test_the_receivers_design_is_its_policy(pki):
    composite = pki.experimental_pq("experimental-composite-ml-dsa-44")
    hybrid = pki.experimental_pq("experimental-partially-hybrid-ndss2024")
    msg = hybrid.sender("alice").encap(b"x")
    with pytest.raises(v2xsec.Rejected) as e:
        composite.receiver().decap(msg)
    assert (e.value.reason, e.value.step) == ("downgrade-refused", "content")
    standard = pki.sender("alice").encap(b"x")
    with pytest.raises(v2xsec.Rejected) as e:
        composite.receiver().decap(standard)
    assert e.value.reason == "downgrade-refused" and "standard IEEE 1609.2" in e.value.detail
    # And the standard receiver refuses the experimental format.
    with pytest.raises(v2xsec.Rejected):
        pki.receiver().decap(msg)


def test_tampered_replayed_and_stale_messages_are_rejected(pki):
    pq = pki.experimental_pq("experimental-composite-fn-dsa-512")
    tx, rx = pq.sender("alice"), pq.receiver()
    t0 = time.time()
    good = tx.encap(b"cam", at=t0)
    bad = bytearray(good)
    bad[-300] ^= 0x01  # inside the FN-DSA-512 part of the composite signature
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(bytes(bad), at=t0)
    assert e.value.reason == "false-signature" and "post-quantum part" in e.value.detail
    assert rx.decap(good, at=t0).payload == b"cam"
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(good, at=t0)
    assert e.value.reason == "duplicate-message"
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(tx.encap(b"later", at=t0 + 0.2), at=t0 + 10)
    assert e.value.reason == "stale-message"


def test_tickets_are_kept_on_disk_and_names_are_checked(pki, tmp_path):
    design = "experimental-pq-only-fn-dsa-512"
    first = pki.experimental_pq(design).sender("alice").certificate_id
    again = v2xsec.Pki(tmp_path / "pki").experimental_pq(design)
    assert again.sender("alice").certificate_id == first
    with pytest.raises(ValueError) as e:
        pki.experimental_pq("pq-only")
    assert all(d in str(e.value) for d in v2xsec.PQ_DESIGNS)
    with pytest.raises(v2xsec.EncapError):
        again.sender("alice").encap(b"x", profile="generic", psid=140)
    denm = again.sender("alice").encap(ROADWORKS_DENM, profile="denm", location=(48.1, 11.5))
    assert again.receiver().decap(denm).psid == 37


def test_every_design_has_digest_and_certificate_overhead_rows():
    rows = v2xsec.overhead()
    for design in v2xsec.PQ_DESIGNS:
        mine = rows[rows["protocol"] == design]
        assert sorted(v.split("/")[1] for v in mine["variant"]) == ["certificate", "digest"], design
        for _, r in mine.iterrows():
            assert sum(f["bytes"] for f in r["fields"]) == r["total_bytes"]
