"""The security stack from Python: PKI, SN-ENCAP, SN-DECAP with a receiver's state,
encryption, the lab options, and every failure as a typed exception or a named rejection."""

import time
from datetime import datetime, timedelta, timezone

import pytest

import v2xsec


@pytest.fixture
def pki(tmp_path):
    p = v2xsec.Pki.init(tmp_path / "pki", station="alice")
    p.issue("alice", count=2)  # alice now has 3 tickets
    p.issue("bob")
    return p


def test_pki_init_open_and_issue(pki, tmp_path):
    assert pki.stations == ["alice", "bob"]
    a = pki.authorities()
    assert set(a) == {"root", "ea", "aa"} and all(len(h) == 16 for h in a.values())
    t = pki.tickets("alice")
    assert list(t.columns) == ["id", "certificate"] and len(t) == 3
    # Re-opened from disk: the same PKI.
    again = v2xsec.Pki(tmp_path / "pki")
    assert again.authorities() == a and list(again.tickets("alice")["id"]) == list(t["id"])
    # The ticket decodes as a 1609.2 certificate.
    assert "certificate" in v2xsec.inspect(t["certificate"][0]).format.lower()


def test_cam_round_trip_then_replay_and_tamper_are_rejected_by_reason(pki):
    alice = pki.sender("alice")
    msg = alice.encap(b"cam payload")
    rx = pki.receiver()
    d = rx.decap(msg)
    assert d.payload == b"cam payload" and d.signed and not d.encrypted
    assert d.psid == 36 and d.mode == "strict"
    assert d.signer == alice.certificate_id
    assert abs((d.generation_time - datetime.now(timezone.utc)).total_seconds()) < 30
    # The receiver keeps a replay window: the same bytes again are a duplicate.
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(msg)
    assert e.value.reason == "duplicate-message"
    # One flipped bit in the signature's s (a digest-signed CAM: rx knows alice by now).
    bad = bytearray(alice.encap(b"cam payload"))
    bad[-1] ^= 0x01
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(bytes(bad))
    assert e.value.reason == "false-signature"
    # Garbage is a rejection too (never a crash).
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(b"\x03\x81\xff\xff")
    assert e.value.reason == "invalid-encoding"


def test_digest_signed_cam_verifies_only_at_a_receiver_that_saw_the_certificate(pki):
    alice = pki.sender("alice")
    t0 = time.time()
    first = alice.encap(b"1", at=t0)           # carries the full certificate
    second = alice.encap(b"2", at=t0 + 0.1)   # within a second: the digest only
    assert len(second) < len(first)
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver().decap(second, at=t0 + 0.2)
    assert e.value.reason == "signer-certificate-not-found"
    rx = pki.receiver()
    assert rx.known_signers == 0
    rx.decap(first, at=t0 + 0.2)
    assert rx.known_signers == 1
    assert rx.decap(second, at=t0 + 0.2).payload == b"2"
    # In order, as a receiver sees them: a table of verdicts.
    t = pki.receiver().decap_many([second, first, second, first], at=t0 + 0.2)
    assert list(t["accepted"]) == [False, True, True, False]
    assert list(t["reason"].fillna("")) == ["signer-certificate-not-found", "", "", "duplicate-message"]


def test_freshness_uses_the_given_time(pki):
    msg = pki.sender("alice").encap(b"x")
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver().decap(msg, at=datetime.now(timezone.utc) + timedelta(seconds=60))
    assert e.value.reason == "stale-message"


def test_encrypted_to_a_station_decrypts_only_with_its_keys(pki):
    bob = pki.sender("bob")
    msg = pki.sender("alice").encap(b"secret", profile="generic", encrypt_to=bob.certificate)
    assert b"secret" not in msg
    d = pki.receiver(station="bob").decap(msg)
    assert d.payload == b"secret" and d.encrypted and d.signed
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver(station="alice").decap(msg)
    assert e.value.reason == "not-for-this-recipient"


# A roadworks DENM (EN 302 637-3, UPER): the DENM SSP check reads the payload, and a payload
# that is not a DENM is refused "ssp-unverifiable".
ROADWORKS_DENM = bytes.fromhex(
    "02010000002ac780000015000080000000000000000000052506340722494c01f4190384249f066000f03e705100600000"
)


def test_denm_carries_its_location(pki):
    msg = pki.sender("alice").encap(ROADWORKS_DENM, profile="denm", location=(48.1, 11.5))
    d = pki.receiver().decap(msg)
    assert d.psid == 37
    assert d.generation_location == pytest.approx((48.1, 11.5), abs=1e-6)


def test_pseudonym_change_signs_with_the_next_ticket(pki):
    alice = pki.sender("alice")
    before = alice.certificate_id
    after = alice.change_pseudonym()
    assert after != before and alice.certificate_id == after
    d = pki.receiver().decap(alice.encap(b"x"))
    assert d.signer == after
    assert pki.sender("alice", pseudonym=2).certificate_id == pki.tickets("alice")["id"][2]


def test_lab_options_are_named_and_receivers_reject_what_they_make(pki):
    alice = pki.sender("alice")
    # The sender refuses a PSID its ticket does not permit ...
    with pytest.raises(v2xsec.EncapError, match="(?i)permi"):
        alice.encap(b"x", profile="generic", psid="spatem")
    # ... unless told so by the named insecure option; receivers then reject it.
    msg = alice.encap(b"x", profile="generic", psid="spatem", insecure_sign_outside_permissions=True)
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver().decap(msg)
    assert e.value.reason == "psid-not-permitted"
    # An unsigned CAM.
    unsigned = alice.encap(b"x", insecure_unsigned=True)
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver().decap(unsigned)
    assert e.value.reason == "unsigned-message"
    # The signature-only lab mode checks only the signature, and says so.
    d = pki.receiver(signature_only=True).decap(alice.encap(b"y"))
    assert d.mode == "signature-only"


def test_one_shot_calls_and_errors(pki, tmp_path):
    msg = v2xsec.encap(b"hello", pki.path, station="bob")
    assert v2xsec.decap(msg, pki).payload == b"hello"
    with pytest.raises(ValueError, match="2 stations"):
        v2xsec.encap(b"x", pki)
    with pytest.raises(ValueError, match="cam, denm, generic"):
        pki.sender("bob").encap(b"x", profile="cbr")
    with pytest.raises(ValueError, match="location"):
        pki.sender("bob").encap(b"x", profile="denm")
    with pytest.raises(ValueError, match="unknown PSID"):
        pki.sender("bob").encap(b"x", psid="nope")
    with pytest.raises(v2xsec.PkiError, match="opening PKI"):
        v2xsec.Pki(tmp_path / "missing")
    with pytest.raises(v2xsec.PkiError):
        v2xsec.Pki.init(pki.path)  # never overwrites an existing PKI
    with pytest.raises(v2xsec.PkiError):
        pki.sender("carol")
    with pytest.raises(v2xsec.DecodeError):
        pki.sender("bob").encap(b"x", encrypt_to=b"not a certificate")
    with pytest.raises(ValueError, match="curve"):
        v2xsec.Pki.init(tmp_path / "other", curve="p999")
    assert issubclass(v2xsec.Rejected, v2xsec.V2xError)


def test_a_v1_2_1_message_is_recognised_and_verified(pki):
    """The receiver recognises the format itself (one detection with ``v2x decap``)."""
    legacy = pki.sender("alice", format="v1.2.1")
    msg = legacy.encap(b"v1 cam")
    assert msg[0] == 2  # protocol version 2: the v1.2.1 format
    rx = pki.receiver()
    assert rx.verifies_v1_2_1
    d = rx.decap(msg)
    assert d.format == "v1.2.1" and d.payload == b"v1 cam" and d.psid == 36 and d.signed
    assert d.signer == legacy.certificate_id
    # Its replay window too.
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(msg)
    assert e.value.reason == "duplicate-message"
    bad = bytearray(legacy.encap(b"v1 cam 2"))
    bad[-1] ^= 0x01
    with pytest.raises(v2xsec.Rejected) as e:
        rx.decap(bytes(bad))
    assert e.value.reason == "false-signature"
    # A v2 message to the same receiver is still v2.
    assert rx.decap(pki.sender("alice").encap(b"v2 cam")).format == "v2"
    with pytest.raises(ValueError):
        pki.sender("alice", format="v3")


def test_a_denm_that_is_not_a_denm_is_refused_ssp_unverifiable(pki):
    msg = pki.sender("alice").encap(b"denm", profile="denm", location=(48.1, 11.5))
    with pytest.raises(v2xsec.Rejected) as e:
        pki.receiver().decap(msg)
    assert e.value.reason == "ssp-unverifiable"


def test_non_bytes_messages_and_out_of_range_times_are_refused(pki):
    """Issue 27, item 7: on 726a8c9 ``decap(5)`` verified five zero bytes and ``at=1e300``
    saturated to a far-future time without a word."""
    rx = pki.receiver()
    with pytest.raises(TypeError):
        rx.decap(5)
    with pytest.raises(TypeError):
        pki.sender("alice").encap(7)
    msg = pki.sender("alice").encap(b"cam")
    with pytest.raises(ValueError):
        rx.decap(msg, at=1e300)
    with pytest.raises(TypeError):
        rx.decap(msg, at=True)
