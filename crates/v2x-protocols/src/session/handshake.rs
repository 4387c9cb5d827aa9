//! Pairwise sessions: the three-step handshake of Raya–Hubaux (`SK` chosen by the
//! initiator and sent encrypted and signed) or Wang et al. (`SK` from Diffie–Hellman,
//! confirmed by HMACs), and the data packets of established sessions.

use super::config::{Scheme, SessionConfig};
use super::credentials::{Identity, Trust};
use super::crypto::SessionCert;
use super::protection::{check_key_use, protect, unprotect, DataKey, Direction};
use super::wire::{
    read_confirm_header, write_confirm_header, ConfirmBody, DataHeader, DhOffer, Hello, KeyTransport, Reply, StepHeader,
};
use crate::authenticator::{
    malformed, DecapOutcome, Decapsulated, Delivery, Destination, EncapError, OutgoingPacket, PacketKind, SenderId,
    StationId, Timestamp,
};
use crate::{RejectReason, Rejection};
use openssl::bn::BigNum;
use openssl::dh::Dh;
use openssl::pkey::{Params, Private};
use std::collections::HashMap;
use v2x_crypto::{ct_eq, hmac_sha1, CryptoError};
use v2x_wire::cursor::Reader;

/// The DH group: RFC 5114 2048-bit MODP with a 256-bit subgroup.
fn dh_group() -> Result<Dh<Params>, CryptoError> {
    Dh::get_2048_256().map_err(|e| CryptoError::Backend(e.to_string()))
}

fn dh_keypair() -> Result<Dh<Private>, CryptoError> {
    dh_group()?
        .generate_key()
        .map_err(|e| CryptoError::Backend(e.to_string()))
}

/// SK from a DH shared secret: SHA-256 truncated to 16 bytes.
fn session_key_from(secret: &[u8]) -> [u8; 16] {
    let mut k = [0u8; 16];
    k.copy_from_slice(&v2x_crypto::sha256(secret)[..16]);
    k
}

/// A step that cannot be answered: an invalid DH value, or a local failure while
/// building the answer (reported as the packet's fault, as the handshake cannot go on).
fn invalid(e: impl std::fmt::Display) -> Rejection {
    Rejection::new(RejectReason::InvalidEncoding, e.to_string())
}

fn not_for_me(to: u32) -> Rejection {
    Rejection::new(RejectReason::NotForThisRecipient, format!("handshake for station {to}"))
}

/// State of one pairwise session.
struct Session {
    peer: u32,
    initiator: bool,
    sk: Option<[u8; 16]>,
    dh: Option<Dh<Private>>,
    established: bool,
    started: Timestamp,
    send_seq: u32,
    recv_seq: Option<u32>,
    peer_cert: Option<SessionCert>,
    queued: Vec<Vec<u8>>,
}

impl Session {
    fn new(peer: u32, initiator: bool, now: Timestamp) -> Session {
        Session {
            peer,
            initiator,
            sk: None,
            dh: None,
            established: false,
            started: now,
            send_seq: 0,
            recv_seq: None,
            peer_cert: None,
            queued: Vec::new(),
        }
    }
}

/// A station's pairwise sessions, by session id.
pub struct Sessions {
    config: SessionConfig,
    table: HashMap<[u8; 8], Session>,
    /// The session this station started with each peer.
    outbound: HashMap<u32, [u8; 8]>,
}

impl Sessions {
    pub fn new(config: &SessionConfig) -> Sessions {
        Sessions {
            config: config.clone(),
            table: HashMap::new(),
            outbound: HashMap::new(),
        }
    }

    fn wang(&self) -> bool {
        self.config.scheme == Scheme::Wang
    }

    fn lifetime_us(&self) -> u64 {
        self.config.session_lifetime_ms * 1000
    }

    /// True once a session with `peer` is ready for data.
    pub fn has_session_with(&self, peer: u32) -> bool {
        self.outbound
            .get(&peer)
            .and_then(|s| self.table.get(s))
            .is_some_and(|s| s.established)
    }

    /// What to send for `payload` to `peer`: a data packet on an established session,
    /// nothing while the handshake runs (the payload waits), or handshake step 1 of a
    /// new session (also when the old one expired).
    pub fn send(
        &mut self,
        me: &Identity,
        peer: u32,
        payload: &[u8],
        now: Timestamp,
    ) -> Result<Vec<OutgoingPacket>, EncapError> {
        let lifetime = self.lifetime_us();
        if let Some(sid) = self.outbound.get(&peer).copied() {
            if let Some(s) = self.table.get_mut(&sid) {
                if s.started.plus_micros(lifetime) > now {
                    if !s.established {
                        s.queued.push(payload.to_vec());
                        return Ok(Vec::new());
                    }
                    return Ok(vec![self.data_for_session(me, &sid, payload)?]);
                }
                self.table.remove(&sid);
            }
        }
        let (sid, hello) = self.hello(me, peer, now)?;
        if let Some(s) = self.table.get_mut(&sid) {
            s.queued.push(payload.to_vec());
        }
        Ok(vec![hello])
    }

    /// Step 1 to `peer`, opening a new session.
    fn hello(&mut self, me: &Identity, peer: u32, now: Timestamp) -> Result<([u8; 8], OutgoingPacket), EncapError> {
        let mut sid = [0u8; 8];
        sid.copy_from_slice(&v2x_crypto::random_bytes(8));
        let header = StepHeader {
            from: me.id,
            to: peer,
            session: sid,
        };
        let dh = if self.wang() { Some(dh_keypair()?) } else { None };
        let offer = dh
            .as_ref()
            .map(|k| (k.prime_p().to_vec(), k.generator().to_vec(), k.public_key().to_vec()));
        let mut w = Hello::write_signed(
            &header,
            now.as_micros(),
            offer.as_ref().map(|(p, g, y)| DhOffer { p, g, y }),
            me.cert.encoded(),
        )?;
        let sig = me.sign_key.sign(w.as_slice())?;
        w.var16(&sig, "signature")?;
        let mut session = Session::new(peer, true, now);
        session.dh = dh;
        self.table.insert(sid, session);
        self.outbound.insert(peer, sid);
        Ok((
            sid,
            OutgoingPacket {
                bytes: w.into_vec(),
                kind: PacketKind::Handshake(1),
                destination: Destination::Unicast(StationId(peer)),
            },
        ))
    }

    /// Step 1 received: authenticate the initiator, reply with step 2.
    pub fn on_hello(
        &mut self,
        me: &Identity,
        trust: &mut Trust,
        packet: &[u8],
        now: Timestamp,
    ) -> Result<Decapsulated, Rejection> {
        let h = Hello::parse(packet, self.wang()).map_err(malformed)?;
        if let Some(offer) = &h.dh {
            // Peers may not choose the group: anything but the configured one is refused
            // (public parameters, compared as such).
            let group = dh_group().map_err(invalid)?;
            if offer.p != group.prime_p().to_vec().as_slice() || offer.g != group.generator().to_vec().as_slice() {
                return Err(Rejection::new(
                    RejectReason::IncompatibleProtocol,
                    "Diffie-Hellman group is not the configured one",
                ));
            }
        }
        if h.to != me.id {
            return Err(not_for_me(h.to));
        }
        let cert = trust.authenticate_handshake(h.certificate, h.from, h.t, now, h.signed, h.signature)?;
        if self.table.contains_key(&h.session) {
            return Err(Rejection::new(RejectReason::DuplicateMessage, "session already exists"));
        }
        // Reply M2 (Wang: with Y_B and HMAC_SK(M2)).
        let header = StepHeader {
            from: me.id,
            to: h.from,
            session: h.session,
        };
        let mut sk = None;
        let mut y_b = None;
        if let Some(offer) = &h.dh {
            let ours = dh_keypair().map_err(invalid)?;
            let peer = BigNum::from_slice(offer.y).map_err(invalid)?;
            let secret = ours
                .compute_key(&peer)
                .map_err(|_| invalid("invalid Diffie-Hellman public value"))?;
            sk = Some(session_key_from(&secret));
            y_b = Some(ours.public_key().to_vec());
        }
        let mut w =
            Reply::write_signed(&header, now.as_micros(), y_b.as_deref(), me.cert.encoded()).map_err(invalid)?;
        let sig = me.sign_key.sign(w.as_slice()).map_err(invalid)?;
        w.var16(&sig, "signature").map_err(invalid)?;
        if let Some(sk) = &sk {
            let mac = hmac_sha1(sk, w.as_slice());
            w.bytes(&mac);
        }
        let mut session = Session::new(h.from, false, now);
        session.sk = sk;
        session.peer_cert = Some(cert);
        self.table.insert(h.session, session);
        let mut d = Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(1)));
        d.send.push(OutgoingPacket {
            bytes: w.into_vec(),
            kind: PacketKind::Handshake(2),
            destination: Destination::Unicast(StationId(h.from)),
        });
        Ok(d)
    }

    /// Step 2 received: authenticate the responder, derive or choose SK, confirm with
    /// step 3 and release the payloads that waited.
    pub fn on_reply(
        &mut self,
        me: &Identity,
        trust: &mut Trust,
        packet: &[u8],
        now: Timestamp,
    ) -> Result<Decapsulated, Rejection> {
        let r = Reply::parse(packet, self.wang()).map_err(malformed)?;
        if r.to != me.id {
            return Err(not_for_me(r.to));
        }
        let in_progress = self
            .table
            .get(&r.session)
            .is_some_and(|s| s.initiator && s.peer == r.from && !s.established);
        if !in_progress {
            return Err(Rejection::new(
                RejectReason::UnknownSender,
                "no handshake in progress with this sender",
            ));
        }
        let cert = trust.authenticate_handshake(r.certificate, r.from, r.t, now, r.signed, r.signature)?;
        let header = StepHeader {
            from: me.id,
            to: r.from,
            session: r.session,
        };
        let mut m3 = write_confirm_header(&header);
        let sk = match (r.dh_public, r.mac) {
            (Some(y_b), Some((mac, covered))) => {
                let dh = self
                    .table
                    .get_mut(&r.session)
                    .and_then(|s| s.dh.take())
                    .ok_or_else(|| {
                        Rejection::new(RejectReason::UnknownKey, "no Diffie-Hellman key for this session")
                    })?;
                let peer = BigNum::from_slice(y_b).map_err(invalid)?;
                let secret = dh
                    .compute_key(&peer)
                    .map_err(|_| invalid("invalid Diffie-Hellman public value"))?;
                let sk = session_key_from(&secret);
                if !ct_eq(&hmac_sha1(&sk, covered), mac) {
                    return Err(Rejection::new(RejectReason::FalseMac, "HMAC_SK(M2) does not verify"));
                }
                m3.u64(now.as_micros());
                let tag = hmac_sha1(&sk, m3.as_slice());
                m3.bytes(&tag);
                sk
            }
            _ => {
                // Raya–Hubaux: A picks SK and sends {B|SK|T}_PuKB, Sig_A[B|SK|T].
                let mut sk = [0u8; 16];
                sk.copy_from_slice(&v2x_crypto::random_bytes(16));
                let inner = KeyTransport {
                    to: r.from,
                    sk,
                    t: now.as_micros(),
                }
                .encode();
                let ct = cert.encrypt.encrypt(&inner).map_err(invalid)?;
                let sig = me.sign_key.sign(&inner).map_err(invalid)?;
                m3.var16(&ct, "ciphertext")
                    .and_then(|w| w.var16(&sig, "signature"))
                    .map_err(invalid)?;
                sk
            }
        };
        let mut d = Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(2)));
        d.send.push(OutgoingPacket {
            bytes: m3.into_vec(),
            kind: PacketKind::Handshake(3),
            destination: Destination::Unicast(StationId(r.from)),
        });
        let queued = match self.table.get_mut(&r.session) {
            Some(s) => {
                s.sk = Some(sk);
                s.established = true;
                s.peer_cert = Some(cert);
                std::mem::take(&mut s.queued)
            }
            None => Vec::new(),
        };
        for m in queued {
            d.send.push(self.data_for_session(me, &r.session, &m).map_err(invalid)?);
        }
        Ok(d)
    }

    /// Step 3 received: the responder learns or confirms SK; the session is ready.
    pub fn on_confirm(
        &mut self,
        me: &Identity,
        trust: &Trust,
        packet: &[u8],
        now: Timestamp,
    ) -> Result<Decapsulated, Rejection> {
        let mut r = Reader::new(packet);
        let h = read_confirm_header(&mut r).map_err(malformed)?;
        if h.to != me.id {
            return Err(not_for_me(h.to));
        }
        let session = self
            .table
            .get(&h.session)
            .filter(|s| !s.initiator && s.peer == h.from && !s.established)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "no handshake in progress with this sender"))?;
        let body = ConfirmBody::read(&mut r, packet, self.wang()).map_err(malformed)?;
        let sk = match body {
            ConfirmBody::Mac { t, covered, mac } => {
                trust.check_time(t, now)?;
                let sk = session
                    .sk
                    .ok_or_else(|| Rejection::new(RejectReason::UnknownKey, "no session key"))?;
                if !ct_eq(&hmac_sha1(&sk, covered), mac) {
                    return Err(Rejection::new(RejectReason::FalseMac, "HMAC_SK(M3) does not verify"));
                }
                sk
            }
            ConfirmBody::KeyTransport { ciphertext, signature } => {
                let inner = me.decrypt_key.decrypt(ciphertext)?;
                let cert = session.peer_cert.as_ref().ok_or_else(|| {
                    Rejection::new(RejectReason::SignerCertificateNotFound, "no certificate for the peer")
                })?;
                if !cert.verify.verify(&inner, signature) {
                    return Err(Rejection::new(
                        RejectReason::FalseSignature,
                        "Sig_A[B|SK|T] does not verify",
                    ));
                }
                let kt = KeyTransport::parse(&inner).map_err(malformed)?;
                if kt.to != me.id {
                    return Err(Rejection::new(
                        RejectReason::NotForThisRecipient,
                        "session key meant for another station",
                    ));
                }
                trust.check_time(kt.t, now)?;
                kt.sk
            }
        };
        if let Some(s) = self.table.get_mut(&h.session) {
            s.sk = Some(sk);
            s.established = true;
        }
        Ok(Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(3))))
    }

    fn data_for_session(&mut self, me: &Identity, sid: &[u8; 8], m: &[u8]) -> Result<OutgoingPacket, EncapError> {
        let (seq, sk, initiator, peer) = match self.table.get_mut(sid) {
            Some(s) => {
                s.send_seq = s.send_seq.wrapping_add(1);
                (s.send_seq, s.sk, s.initiator, s.peer)
            }
            None => return Err(EncapError::NotReady("no session".into())),
        };
        let sk = sk.ok_or_else(|| EncapError::NotReady("no session key".into()))?;
        let key = DataKey {
            id: sid,
            direction: if initiator {
                Direction::FromInitiator
            } else {
                Direction::FromResponder
            },
            sequence: seq,
            sk: &sk,
        };
        Ok(OutgoingPacket {
            bytes: protect(self.config.protection, &me.sign_key, &key, m)?,
            kind: PacketKind::Data,
            destination: Destination::Unicast(StationId(peer)),
        })
    }

    /// A data packet of session `h.id`: checks lifetime, sequence and protection.
    pub fn on_data(&mut self, h: &DataHeader<'_>, packet: &[u8], now: Timestamp) -> Result<Delivery, Rejection> {
        let s = self
            .table
            .get(&h.id)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownKey, "no session key for this session"))?;
        if !s.established {
            return Err(Rejection::new(RejectReason::UnknownKey, "session not established"));
        }
        check_key_use(
            s.started,
            self.lifetime_us(),
            s.recv_seq,
            h.sequence,
            now,
            "session expired",
        )?;
        let sk =
            s.sk.ok_or_else(|| Rejection::new(RejectReason::UnknownKey, "no session key"))?;
        let key = DataKey {
            id: &h.id,
            // The peer sent it: the other direction from ours.
            direction: if s.initiator {
                Direction::FromResponder
            } else {
                Direction::FromInitiator
            },
            sequence: h.sequence,
            sk: &sk,
        };
        let sender = match &s.peer_cert {
            Some(c) => SenderId::Certificate(c.digest()),
            None => SenderId::Claimed(StationId(s.peer)),
        };
        let m = unprotect(self.config.protection, packet, &key, s.peer_cert.as_ref())?;
        if let Some(s) = self.table.get_mut(&h.id) {
            s.recv_seq = Some(h.sequence);
        }
        Ok(Delivery {
            payload: m,
            sender,
            generated: None,
        })
    }
}
