"""The security stack from Python: a PKI directory, SN-ENCAP and SN-DECAP.

>>> pki = Pki.init("/tmp/pki", station="alice")
>>> alice = pki.sender("alice")
>>> msg = alice.encap(b"cam payload")                  # bytes: an Ieee1609Dot2Data
>>> rx = pki.receiver()
>>> rx.decap(msg).payload                              # raises Rejected(reason, detail)
b'cam payload'

A ``Sender`` and a ``Receiver`` keep state between calls as real stations do: a CAM carries
the full certificate once per second (a digest otherwise), the receiver learns certificates
from the messages it verifies and keeps a replay window.

EXPERIMENTAL post-quantum designs (no standard): ``pki.experimental_pq(design)`` gives that
design's PKI, with ``PqSender.encap`` and ``PqReceiver.decap`` (``PQ_DESIGNS`` lists them).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable, Optional, Sequence, Tuple, Union

import pandas as pd

from . import _native
from ._native import V2xError

Time = Union[datetime, float, int, None]
Psid = Union[int, str, None]


class Rejected(V2xError):
    """SN-DECAP rejected a message. ``reason`` is the reason code (e.g. ``"stale-message"``,
    ``"false-signature"``, ``"duplicate-message"``, ``"downgrade-refused"``; the table is in
    the README), ``detail`` says what was found; ``step`` names the SN-DECAP step that refused
    (given by the experimental post-quantum receiver)."""

    def __init__(self, reason: str, detail: str, step: Optional[str] = None):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.step = step


def _seconds(at: Time) -> Optional[float]:
    """Unix seconds of a datetime (naive means UTC) or a number; None stays None (now)."""
    if at is None:
        return None
    if isinstance(at, datetime):
        if at.tzinfo is None:
            at = at.replace(tzinfo=timezone.utc)
        return at.timestamp()
    if isinstance(at, (int, float)) and not isinstance(at, bool):
        return float(at)
    raise TypeError(f"a time must be a datetime or Unix seconds, not {type(at).__name__}")


def _bytes(value, what: str) -> bytes:
    """``value`` as bytes when it is bytes-like; anything else (an int would make ``bytes(n)``
    a buffer of n zero bytes) is a TypeError."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise TypeError(f"{what} must be bytes, bytearray or memoryview, not {type(value).__name__}")


def _psid(psid: Psid) -> Optional[str]:
    return None if psid is None else str(psid)


@dataclass
class Decapped:
    """An accepted message: its payload and what SN-DECAP verified."""

    payload: bytes
    signed: bool
    encrypted: bool
    psid: Optional[int]
    generation_time: Optional[datetime]
    generation_location: Optional[Tuple[float, float]]
    signer: Optional[str]
    """HashedId8 (hex) of the signing certificate."""
    ssp: Optional[bytes]
    mode: str
    """``"strict"``, or ``"signature-only"`` (the insecure lab mode)."""
    region_checked: bool = field(default=True)
    format: str = field(default="v2")
    """``"v2"`` (IEEE 1609.2 / TS 103 097 v2) or ``"v1.2.1"`` (the legacy format)."""


def _decapped(d: dict) -> Decapped:
    t = d["generation_time"]
    return Decapped(
        payload=d["payload"],
        signed=d["signed"],
        encrypted=d["encrypted"],
        psid=d["psid"],
        generation_time=None if t is None else datetime.fromtimestamp(t, tz=timezone.utc),
        generation_location=d["generation_location"],
        signer=d["signer"],
        ssp=d["ssp"],
        mode=d["mode"],
        region_checked=d["region_checked"],
        format=d["format"],
    )


class Sender:
    """SN-ENCAP with one station's pseudonym tickets (from ``Pki.sender``)."""

    def __init__(self, native: "_native.Sender"):
        self._native = native

    @property
    def station(self) -> str:
        return self._native.station

    @property
    def certificate(self) -> bytes:
        """The signing ticket's certificate (C-OER), e.g. to encrypt to this station."""
        return self._native.certificate()[1]

    @property
    def certificate_id(self) -> str:
        """The signing ticket's HashedId8 (hex)."""
        return self._native.certificate()[0]

    def encap(
        self,
        payload: bytes,
        profile: str = "cam",
        psid: Psid = None,
        location: Optional[Tuple[float, float]] = None,
        encrypt_to: Optional[bytes] = None,
        at: Time = None,
        *,
        insecure_unsigned: bool = False,
        insecure_sign_outside_permissions: bool = False,
        insecure_sign_with_invalid_ticket: bool = False,
    ) -> bytes:
        """Signs ``payload`` with the ``cam``, ``denm`` (needs ``location=(lat, lon)``) or
        ``generic`` profile, optionally encrypting it to a recipient certificate; returns the
        message. Raises ``EncapError`` when the sender's own checks refuse (expired or
        revoked ticket, PSID not permitted); the ``insecure_*`` options turn them off for
        lab cases."""
        msg, _ = self._native.encap(
            _bytes(payload, "payload"),
            profile,
            _psid(psid),
            location,
            None if encrypt_to is None else _bytes(encrypt_to, "encrypt_to"),
            _seconds(at),
            insecure_unsigned,
            insecure_sign_outside_permissions,
            insecure_sign_with_invalid_ticket,
        )
        return msg

    def change_pseudonym(self, at: Time = None) -> str:
        """Moves to the next valid ticket; returns its HashedId8 (hex)."""
        return self._native.change_pseudonym(_seconds(at))


class Receiver:
    """SN-DECAP with a receiver's state (from ``Pki.receiver``)."""

    def __init__(self, native: "_native.Receiver"):
        self._native = native

    @property
    def known_signers(self) -> int:
        """Signers whose certificate chain this receiver has validated."""
        return self._native.known_signers

    @property
    def verifies_v1_2_1(self) -> bool:
        """Whether v1.2.1 messages verify here (the PKI has v1.2.1 credentials)."""
        return self._native.verifies_v1_2_1

    def decap(self, message: bytes, at: Time = None) -> Decapped:
        """Verifies a secured message — v2 or v1.2.1, bare or inside a GeoNetworking
        packet (the format is recognised, as ``v2x decap`` does) — as of ``at`` (default
        now). Raises ``Rejected`` with the reason code."""
        d = self._native.decap(_bytes(message, "message"), _seconds(at))
        if not d["accepted"]:
            raise Rejected(d["reason"], d["detail"])
        return _decapped(d)

    def decap_many(self, messages: Iterable[bytes], at: Time = None) -> pd.DataFrame:
        """Verifies messages in order, as a receiver sees them; one row per message:
        ``accepted``, ``reason``, ``detail``, ``psid``, ``signer``, ``payload``."""
        t = _seconds(at)
        rows = []
        for i, m in enumerate(messages):
            d = self._native.decap(_bytes(m, "message"), t)
            rows.append(
                {
                    "message": i,
                    "accepted": d["accepted"],
                    "reason": d.get("reason"),
                    "detail": d.get("detail"),
                    "psid": d.get("psid"),
                    "signer": d.get("signer"),
                    "payload": d.get("payload"),
                }
            )
        cols = ["message", "accepted", "reason", "detail", "psid", "signer", "payload"]
        return pd.DataFrame(rows, columns=cols)


class Pki:
    """A PKI directory (the one ``v2x pki`` manages): root CA, EA, AA, stations and their
    pseudonym tickets, CRL. ``Pki(path)`` opens one; ``Pki.init(path)`` creates one."""

    def __init__(self, path: Union[str, os.PathLike]):
        self._native = _native.Pki(os.fspath(path))

    @classmethod
    def init(cls, path: Union[str, os.PathLike], station: str = "station-1", curve: str = "p256") -> "Pki":
        """Creates a PKI in ``path`` with one station (curve: p256, p384, bp256, bp384)."""
        _native.Pki.init(os.fspath(path), station, curve)
        return cls(path)

    @property
    def path(self) -> str:
        return os.fspath(self._native.dir)

    @property
    def stations(self) -> list:
        return list(self._native.stations)

    def authorities(self) -> dict:
        """HashedId8 (hex) of the root CA, EA and AA."""
        return dict(self._native.authorities())

    def issue(
        self,
        station: str,
        count: int = 1,
        psids: Sequence[Psid] = (),
        validity_s: int = 7 * 24 * 3600,
        encryption_key: bool = True,
    ) -> list:
        """Issues tickets for ``station`` (enrolled on first use); returns their HashedId8s."""
        return self._native.issue(station, count, [str(p) for p in psids], validity_s, encryption_key)

    def tickets(self, station: str) -> pd.DataFrame:
        """The station's tickets: ``id`` (HashedId8 hex) and ``certificate`` (C-OER bytes)."""
        return pd.DataFrame(self._native.tickets(station), columns=["id", "certificate"])

    def revoke(self, certificate: bytes) -> int:
        """Revokes a certificate; returns the new CRL's serial."""
        return self._native.revoke(bytes(certificate))

    def sender(self, station: Optional[str] = None, pseudonym: Optional[int] = None, format: str = "v2") -> Sender:
        """A signing station (default: the PKI's only station). ``format="v1.2.1"`` signs
        legacy TS 103 097 v1.2.1 messages with the station's v1.2.1 ticket (the v1.2.1
        credentials beside the PKI are created on first use, as ``v2x encap --format
        v1.2.1`` does)."""
        if station is None:
            names = self.stations
            if len(names) != 1:
                raise ValueError(f"the PKI has {len(names)} stations ({', '.join(names)}): choose one")
            station = names[0]
        return Sender(self._native.sender(station, pseudonym, format))

    def receiver(
        self,
        station: Optional[str] = None,
        *,
        signature_only: bool = False,
        sender_clock_omits_leap_seconds: bool = False,
    ) -> Receiver:
        """A receiver trusting this PKI (with ``station``: decrypting with its ticket keys).
        ``signature_only`` is the insecure lab mode: only the message signature is checked."""
        return Receiver(self._native.receiver(station, signature_only, sender_clock_omits_leap_seconds))

    def experimental_pq(self, design: str) -> "PqPki":
        """The EXPERIMENTAL post-quantum design's PKI beside this one (created on first use);
        ``design`` is one of ``PQ_DESIGNS``."""
        return PqPki(self._native.experimental_pq(design))


PQ_DESIGNS: Tuple[str, ...] = tuple(_native.pq_designs())
"""The EXPERIMENTAL post-quantum designs (no standard defines them): one algorithm alone,
ECDSA P-256 composites, and NDSS 2024's partially hybrid design as v2xsec reads it."""


@dataclass
class PqDecapped:
    """An accepted experimental post-quantum message."""

    payload: bytes
    psid: int
    generation_time: Optional[datetime]
    signer: str
    """HashedId8 (hex) of the signing ticket."""
    ssp: Optional[bytes]
    design: str


class PqSender:
    """SN-ENCAP of an EXPERIMENTAL post-quantum design (from ``PqPki.sender``)."""

    def __init__(self, native: "_native.PqSender"):
        self._native = native

    @property
    def certificate(self) -> bytes:
        """The signing ticket (the experimental certificate format)."""
        return self._native.certificate()[1]

    @property
    def certificate_id(self) -> str:
        return self._native.certificate()[0]

    def encap(
        self,
        payload: bytes,
        profile: str = "cam",
        psid: Psid = None,
        location: Optional[Tuple[float, float]] = None,
        at: Time = None,
        with_certificate: Optional[bool] = None,
    ) -> bytes:
        """Signs ``payload`` (``cam``; ``denm`` needs ``location=(lat, lon)``; ``generic``
        with ``psid``). A CAM carries the whole ticket when none went out in the last second,
        a digest otherwise; ``with_certificate`` overrides."""
        msg, _ = self._native.encap(bytes(payload), profile, _psid(psid), location, _seconds(at), with_certificate)
        return msg


class PqReceiver:
    """SN-DECAP whose policy is one EXPERIMENTAL design (from ``PqPki.receiver``): a message
    lacking a signature part the design has (post-quantum, or the classical part of a hybrid),
    a standard 1609.2 message or a hybrid stripped of its post-quantum part raises
    ``Rejected("downgrade-refused", ...)``; another design ``"incompatible-protocol"``."""

    def __init__(self, native: "_native.PqReceiver"):
        self._native = native

    def decap(self, message: bytes, at: Time = None) -> PqDecapped:
        d = self._native.decap(bytes(message), _seconds(at))
        if not d["accepted"]:
            raise Rejected(d["reason"], d["detail"], d["step"])
        t = d["generation_time"]
        return PqDecapped(
            payload=d["payload"],
            psid=d["psid"],
            generation_time=None if t is None else datetime.fromtimestamp(t, tz=timezone.utc),
            signer=d["signer"],
            ssp=d["ssp"],
            design=d["design"],
        )


class PqPki:
    """One EXPERIMENTAL post-quantum design's PKI beside a ``Pki`` directory
    (``DIR/experimental-pq/DESIGN/``, created on first use; from ``Pki.experimental_pq``)."""

    def __init__(self, native: "_native.PqPki"):
        self._native = native

    @property
    def design(self) -> str:
        return self._native.design

    @property
    def path(self) -> str:
        return os.fspath(self._native.dir)

    def authorities(self) -> dict:
        """HashedId8 (hex) of the design's root and AA."""
        return dict(self._native.authorities())

    def sender(self, station: str = "station-1") -> PqSender:
        """``station``'s ticket of the design (issued and stored on first use)."""
        return PqSender(self._native.sender(station))

    def receiver(self) -> PqReceiver:
        return PqReceiver(self._native.receiver())


def _pki(pki: Union[Pki, str, os.PathLike]) -> Pki:
    return pki if isinstance(pki, Pki) else Pki(pki)


def encap(payload: bytes, pki: Union[Pki, str, os.PathLike], station: Optional[str] = None, **options) -> bytes:
    """One-shot SN-ENCAP with ``station``'s active ticket (``Sender.encap``'s options)."""
    return _pki(pki).sender(station).encap(payload, **options)


def decap(message: bytes, pki: Union[Pki, str, os.PathLike], at: Time = None, **options) -> Decapped:
    """One-shot SN-DECAP against a PKI directory (a fresh receiver: a digest-signed message
    needs a ``Receiver`` that saw the signer's certificate first)."""
    return _pki(pki).receiver(**options).decap(message, at)
