//! The session-key schemes paper 003 evaluates: Raya & Hubaux (2007) and Wang et al.
//! (2008), each with a pairwise handshake and a group key distribution, and the four
//! message-protection modes.
//!
//! Pairwise, Raya–Hubaux (RH): `A→B: M1, Sig_A[M1|T], Cert_A`; `B→A: M2, Sig_B[M2|T],
//! Cert_B`; `A→B: {B|SK|T}_PuKB, Sig_A[B|SK|T]`. Wang et al.: `A→B: M1(g, p, Y_A),
//! Sig_A[M1|T], Cert_A`; `B→A: M2(Y_B), Sig_B[M2|T], Cert_B, HMAC_SK(M2)`; `A→B: M3,
//! HMAC_SK(M3)` with `SK` from finite-field Diffie–Hellman. Group: the leader L sends each
//! member `H_i, {SK}_PuKi, Sig_L[...]` (RH, one message per member, also for a member that
//! joins later) or one message with every member's `H_i, {SK}_PuKi` (Wang).
//!
//! Message protection (any mode with either scheme; paper 003 pairs RH with `hmac` and
//! Wang with the three others):
//!
//! | mode | body after the data header |
//! |---|---|
//! | `hmac` | m ‖ HMAC-SHA1_SK(header ‖ m) (20) |
//! | `encrypt` | E_SK(m) |
//! | `encrypt-signed-mac` | E_SK(m ‖ Sig_A[HMAC_SK(m)]) (signature of the algorithm's fixed length) |
//! | `encrypt-then-sign-mac` | var16 E_SK(m) ‖ var16 Sig_A[HMAC_SK(E_SK(m))] |
//!
//! Wire formats (big-endian; `var16` = 2-byte length + bytes; T = µs, 8 bytes):
//!
//! | message | fields |
//! |---|---|
//! | handshake 1 | 0x11 ‖ from 4 ‖ to 4 ‖ session 8 ‖ T ‖ [Wang: var16 p ‖ var16 g ‖ var16 Y_A] ‖ var16 Cert_A ‖ var16 Sig_A |
//! | handshake 2 | 0x12 ‖ from ‖ to ‖ session ‖ T ‖ [Wang: var16 Y_B] ‖ var16 Cert_B ‖ var16 Sig_B ‖ [Wang: HMAC 20] |
//! | handshake 3 (RH) | 0x13 ‖ from ‖ to ‖ session ‖ var16 {B‖SK‖T}_PuKB ‖ var16 Sig_A[B‖SK‖T] |
//! | handshake 3 (Wang) | 0x13 ‖ from ‖ to ‖ session ‖ T ‖ HMAC 20 |
//! | group key | 0x21 ‖ leader 4 ‖ group 8 ‖ T ‖ count 2 ‖ count × (H_i 8 ‖ var16 {SK}_PuKi) ‖ var16 Sig_L |
//! | data | 0x31 ‖ session or group 8 ‖ sequence 4 ‖ body |
//!
//! Choices where the paper is silent: `E` is AES-128-CCM (authenticated; 16-byte tag, the
//! nonce derived from session, direction and sequence number, not sent); HMAC is
//! HMAC-SHA1 as in paper 003; `SK` from DH is SHA-256(shared secret) truncated to 16
//! bytes; the DH group is RFC 5114 2048/256 and a receiver rejects any other group
//! (`incompatible-protocol`) rather than trusting peer-chosen parameters; handshake and
//! group messages must be within `handshake_window_ms`; data carries a sequence number
//! (replays rejected) and sessions end after `session_lifetime_ms`; certificates
//! (`crypto::SessionCert`) certify a signing and an encryption key; H_i is 8 bytes.
//! Certified public keys are "exchanged periodically" in the paper; here a shared
//! directory stands for that exchange, and a leader keys every member listed in it.

pub mod crypto;

use crate::authenticator::{
    Authenticator, DecapOutcome, Decapsulated, Delivery, Destination, EncapError, OutgoingPacket, PacketKind, SenderId,
    StationId, Timestamp,
};
use crate::describe::{CryptoOp, CurveName, MessageDescription, OpCount, ProtocolDescription, Schedule};
use crate::factory::{Role, SetupError};
use crate::wire::{put_var16, Reader, WireError};
use crate::{RejectReason, Rejection};
use crypto::{DecryptKey, DsaParams, EncryptionAlg, SessionCa, SessionCert, SignatureAlg, SigningKey};
use openssl::bn::BigNum;
use openssl::dh::Dh;
use openssl::pkey::Private;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex};
use v2x_crypto::hmac_sha1;

const H1: u8 = 0x11;
const H2: u8 = 0x12;
const H3: u8 = 0x13;
const GROUP: u8 = 0x21;
const DATA: u8 = 0x31;
const HMAC_LEN: usize = 20;

/// Which scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    #[default]
    RayaHubaux,
    Wang,
}

/// Pairwise sessions or a group led by one station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Topology {
    #[default]
    Pairwise,
    Group,
}

/// Message-protection mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protection {
    /// m, HMAC_SK(m).
    #[default]
    Hmac,
    /// E_SK(m).
    Encrypt,
    /// E_SK(m ‖ Sig_A[HMAC_SK(m)]).
    EncryptSignedMac,
    /// E_SK(m), Sig_A[HMAC_SK(E_SK(m))].
    EncryptThenSignMac,
}

/// Parameters of a session-key deployment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SessionConfig {
    pub scheme: Scheme,
    pub topology: Topology,
    pub protection: Protection,
    pub signature: SignatureAlg,
    /// Session-key transport (RH step 3 and group keys); Wang pairwise needs none.
    pub encryption: EncryptionAlg,
    /// RSA modulus bits (paper 003: 1024).
    pub rsa_bits: u32,
    /// DSA modulus bits (paper 003: 1024, 160-bit subgroup).
    pub dsa_bits: u32,
    pub handshake_window_ms: u64,
    pub session_lifetime_ms: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            scheme: Scheme::RayaHubaux,
            topology: Topology::Pairwise,
            protection: Protection::Hmac,
            signature: SignatureAlg::Ecdsa,
            encryption: EncryptionAlg::Ecies,
            rsa_bits: 1024,
            dsa_bits: 1024,
            handshake_window_ms: 1_000,
            session_lifetime_ms: 600_000,
        }
    }
}

impl SessionConfig {
    /// Profile name: `raya-hubaux` or `wang`.
    pub fn protocol_name(&self) -> &'static str {
        match self.scheme {
            Scheme::RayaHubaux => "raya-hubaux",
            Scheme::Wang => "wang",
        }
    }

    pub fn variant(&self) -> String {
        let s = |v: &dyn erased::Name| v.name();
        format!(
            "{}/{}+{}/{}",
            s(&self.topology),
            s(&self.signature),
            s(&self.encryption),
            s(&self.protection)
        )
    }
}

mod erased {
    pub trait Name {
        fn name(&self) -> String;
    }
    impl<T: serde::Serialize> Name for T {
        fn name(&self) -> String {
            serde_json::to_value(self)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        }
    }
}

/// The DH group: RFC 5114 2048-bit MODP with a 256-bit subgroup.
fn dh_group() -> Result<Dh<openssl::pkey::Params>, EncapError> {
    Dh::get_2048_256().map_err(|e| EncapError::Crypto(e.to_string()))
}

fn session_key_from(secret: &[u8]) -> [u8; 16] {
    let mut k = [0u8; 16];
    k.copy_from_slice(&v2x_crypto::sha256(secret)[..16]);
    k
}

fn reject(reason: RejectReason, detail: impl Into<String>) -> Rejection {
    Rejection::new(reason, detail)
}

fn wire_reject(e: WireError) -> Rejection {
    Rejection::new(RejectReason::InvalidEncoding, e.to_string())
}

fn ts_bytes(now: Timestamp) -> [u8; 8] {
    now.as_micros().to_be_bytes()
}

/// Certificates of the deployment's stations ("periodic exchange of certified keys").
#[derive(Default)]
pub struct Directory {
    certs: BTreeMap<u32, SessionCert>,
}

impl Directory {
    pub fn get(&self, id: u32) -> Option<&SessionCert> {
        self.certs.get(&id)
    }
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

/// A group this station leads or belongs to.
struct Group {
    leader: u32,
    sk: [u8; 16],
    started: Timestamp,
    send_seq: u32,
    recv_seq: Option<u32>,
    keyed: HashSet<u32>,
}

/// A station of a session-key scheme.
pub struct SessionStation {
    id: StationId,
    role: Role,
    config: SessionConfig,
    sign_key: SigningKey,
    decrypt_key: DecryptKey,
    cert: SessionCert,
    ca: Arc<SessionCa>,
    directory: Arc<Mutex<Directory>>,
    peer: Option<StationId>,
    sessions: HashMap<[u8; 8], Session>,
    outbound: HashMap<u32, [u8; 8]>,
    groups: HashMap<[u8; 8], Group>,
    my_group: Option<[u8; 8]>,
    verified_certs: HashSet<Vec<u8>>,
}

impl SessionStation {
    /// Sets the station pairwise traffic goes to.
    pub fn connect(&mut self, peer: StationId) {
        self.peer = Some(peer);
    }

    pub fn certificate(&self) -> &SessionCert {
        &self.cert
    }

    /// True once a session with `peer` is ready for data.
    pub fn has_session_with(&self, peer: StationId) -> bool {
        self.outbound
            .get(&peer.0)
            .and_then(|s| self.sessions.get(s))
            .is_some_and(|s| s.established)
    }

    fn check_cert(&mut self, cert: &SessionCert) -> Result<(), Rejection> {
        if self.verified_certs.contains(cert.encoded()) {
            return Ok(());
        }
        cert.verify_with(&self.ca)?;
        self.verified_certs.insert(cert.encoded().to_vec());
        Ok(())
    }

    fn check_time(&self, t: u64, now: Timestamp) -> Result<(), Rejection> {
        let window = self.config.handshake_window_ms * 1000;
        if t.saturating_add(window) < now.as_micros() {
            return Err(reject(
                RejectReason::StaleMessage,
                "handshake timestamp outside the window",
            ));
        }
        if t > now.as_micros().saturating_add(window) {
            return Err(reject(RejectReason::FutureMessage, "handshake timestamp in the future"));
        }
        Ok(())
    }

    /// Authenticates a handshake step: the sender's certificate (exactly the field, and
    /// issued to `from`), the timestamp window, the certificate's CA signature and the
    /// step's own signature over `signed`.
    fn authenticate_handshake(
        &mut self,
        cert_bytes: &[u8],
        from: u32,
        t: u64,
        now: Timestamp,
        signed: &[u8],
        sig: &[u8],
    ) -> Result<SessionCert, Rejection> {
        let (cert, rest) =
            SessionCert::decode(self.config.signature, self.config.encryption, cert_bytes).map_err(wire_reject)?;
        if !rest.is_empty() || cert.id != from {
            return Err(reject(
                RejectReason::InvalidCertificate,
                "certificate does not belong to the sender",
            ));
        }
        self.check_time(t, now)?;
        self.check_cert(&cert)?;
        if !cert.verify.verify(signed, sig) {
            return Err(reject(
                RejectReason::FalseSignature,
                "handshake signature does not verify",
            ));
        }
        Ok(cert)
    }

    fn nonce(id: &[u8; 8], direction: u8, seq: u32) -> [u8; 12] {
        let mut n = [0u8; 12];
        n[..7].copy_from_slice(&id[..7]);
        n[7] = direction;
        n[8..].copy_from_slice(&seq.to_be_bytes());
        n
    }

    /// Builds a data packet under `sk`.
    fn protect(&self, id: &[u8; 8], direction: u8, seq: u32, sk: &[u8; 16], m: &[u8]) -> Result<Vec<u8>, EncapError> {
        let mut out = Vec::with_capacity(13 + m.len() + 200);
        out.push(DATA);
        out.extend_from_slice(id);
        out.extend_from_slice(&seq.to_be_bytes());
        let nonce = Self::nonce(id, direction, seq);
        let e = |x: WireError| EncapError::Crypto(x.to_string());
        match self.config.protection {
            Protection::Hmac => {
                let mut data = out.clone();
                data.extend_from_slice(m);
                out.extend_from_slice(m);
                out.extend_from_slice(&hmac_sha1(sk, &data));
            }
            Protection::Encrypt => out.extend_from_slice(&v2x_crypto::aes128_ccm_encrypt(sk, &nonce, m)?),
            Protection::EncryptSignedMac => {
                // The signature has the fixed length of the signer's algorithm.
                let sig = self.sign_key.sign(&hmac_sha1(sk, m))?;
                let mut pt = m.to_vec();
                pt.extend_from_slice(&sig);
                out.extend_from_slice(&v2x_crypto::aes128_ccm_encrypt(sk, &nonce, &pt)?);
            }
            Protection::EncryptThenSignMac => {
                let ct = v2x_crypto::aes128_ccm_encrypt(sk, &nonce, m)?;
                let sig = self.sign_key.sign(&hmac_sha1(sk, &ct))?;
                put_var16(&mut out, &ct, "ciphertext").map_err(e)?;
                put_var16(&mut out, &sig, "signature").map_err(e)?;
            }
        }
        Ok(out)
    }

    /// Checks a data packet under `sk` from a sender with `signer` (for signed modes).
    fn unprotect(
        &self,
        packet: &[u8],
        id: &[u8; 8],
        direction: u8,
        seq: u32,
        sk: &[u8; 16],
        signer: Option<&SessionCert>,
    ) -> Result<Vec<u8>, Rejection> {
        let body = packet.get(13..).unwrap_or_default();
        let nonce = Self::nonce(id, direction, seq);
        let decrypt = |ct: &[u8]| {
            v2x_crypto::aes128_ccm_decrypt(sk, &nonce, ct)
                .map_err(|_| reject(RejectReason::DecryptionFailed, "AES-CCM authentication failed"))
        };
        let check_sig = |mac: &[u8], sig: &[u8]| match signer {
            Some(c) if c.verify.verify(mac, sig) => Ok(()),
            Some(_) => Err(reject(
                RejectReason::FalseSignature,
                "signature on the HMAC does not verify",
            )),
            None => Err(reject(
                RejectReason::SignerCertificateNotFound,
                "no certificate for the sender",
            )),
        };
        match self.config.protection {
            Protection::Hmac => {
                let split = body
                    .len()
                    .checked_sub(HMAC_LEN)
                    .ok_or_else(|| reject(RejectReason::InvalidEncoding, "data shorter than its HMAC"))?;
                let (m, tag) = body.split_at(split);
                let covered = packet.get(..packet.len() - HMAC_LEN).unwrap_or_default();
                if !openssl::memcmp::eq(&hmac_sha1(sk, covered), tag) {
                    return Err(reject(RejectReason::FalseMac, "HMAC does not verify"));
                }
                Ok(m.to_vec())
            }
            Protection::Encrypt => decrypt(body),
            Protection::EncryptSignedMac => {
                let pt = decrypt(body)?;
                let sig_len = signer
                    .map(|c| c.verify.signature_len())
                    .ok_or_else(|| reject(RejectReason::SignerCertificateNotFound, "no certificate for the sender"))?;
                let m_len = pt
                    .len()
                    .checked_sub(sig_len)
                    .ok_or_else(|| reject(RejectReason::InvalidEncoding, "plaintext shorter than the signature"))?;
                let (m, sig) = pt.split_at(m_len);
                check_sig(&hmac_sha1(sk, m), sig)?;
                Ok(m.to_vec())
            }
            Protection::EncryptThenSignMac => {
                let mut r = Reader::new(body);
                let ct = r.var16("ciphertext").map_err(wire_reject)?;
                let sig = r.var16("signature").map_err(wire_reject)?;
                r.finish().map_err(wire_reject)?;
                check_sig(&hmac_sha1(sk, ct), sig)?;
                decrypt(ct)
            }
        }
    }

    fn hello(&mut self, peer: u32, now: Timestamp) -> Result<OutgoingPacket, EncapError> {
        let mut sid = [0u8; 8];
        sid.copy_from_slice(&v2x_crypto::random_bytes(8));
        let mut out = vec![H1];
        out.extend_from_slice(&self.id.0.to_be_bytes());
        out.extend_from_slice(&peer.to_be_bytes());
        out.extend_from_slice(&sid);
        out.extend_from_slice(&ts_bytes(now));
        let e = |x: WireError| EncapError::Crypto(x.to_string());
        let mut dh = None;
        if self.config.scheme == Scheme::Wang {
            let key = dh_group()?
                .generate_key()
                .map_err(|e| EncapError::Crypto(e.to_string()))?;
            put_var16(&mut out, &key.prime_p().to_vec(), "p").map_err(e)?;
            put_var16(&mut out, &key.generator().to_vec(), "g").map_err(e)?;
            put_var16(&mut out, &key.public_key().to_vec(), "Y_A").map_err(e)?;
            dh = Some(key);
        }
        put_var16(&mut out, self.cert.encoded(), "certificate").map_err(e)?;
        let sig = self.sign_key.sign(&out)?;
        put_var16(&mut out, &sig, "signature").map_err(e)?;
        self.sessions.insert(
            sid,
            Session {
                peer,
                initiator: true,
                sk: None,
                dh,
                established: false,
                started: now,
                send_seq: 0,
                recv_seq: None,
                peer_cert: None,
                queued: Vec::new(),
            },
        );
        self.outbound.insert(peer, sid);
        Ok(OutgoingPacket {
            bytes: out,
            kind: PacketKind::Handshake(1),
            destination: Destination::Unicast(StationId(peer)),
        })
    }

    fn group_key_message(
        &self,
        gid: &[u8; 8],
        sk: &[u8; 16],
        members: &[SessionCert],
        now: Timestamp,
    ) -> Result<Vec<u8>, EncapError> {
        let e = |x: WireError| EncapError::Crypto(x.to_string());
        let mut out = vec![GROUP];
        out.extend_from_slice(&self.id.0.to_be_bytes());
        out.extend_from_slice(gid);
        out.extend_from_slice(&ts_bytes(now));
        out.extend_from_slice(&(members.len().min(u16::MAX as usize) as u16).to_be_bytes());
        for m in members.iter().take(u16::MAX as usize) {
            out.extend_from_slice(&m.key_hash());
            put_var16(&mut out, &m.encrypt.encrypt(sk)?, "wrapped key").map_err(e)?;
        }
        let sig = self.sign_key.sign(&out)?;
        put_var16(&mut out, &sig, "signature").map_err(e)?;
        Ok(out)
    }

    fn encap_group(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        if self.role != Role::GroupLeader {
            return Err(EncapError::NotReady("only the group leader sends in group mode".into()));
        }
        let lifetime = self.config.session_lifetime_ms * 1000;
        let expired = self
            .my_group
            .and_then(|g| self.groups.get(&g))
            .is_none_or(|g| g.started.plus_micros(lifetime) <= now);
        if expired {
            let mut gid = [0u8; 8];
            gid.copy_from_slice(&v2x_crypto::random_bytes(8));
            let mut sk = [0u8; 16];
            sk.copy_from_slice(&v2x_crypto::random_bytes(16));
            self.groups.insert(
                gid,
                Group {
                    leader: self.id.0,
                    sk,
                    started: now,
                    send_seq: 0,
                    recv_seq: None,
                    keyed: HashSet::new(),
                },
            );
            self.my_group = Some(gid);
        }
        let gid = self.my_group.ok_or_else(|| EncapError::NotReady("no group".into()))?;
        let (sk, keyed) = match self.groups.get(&gid) {
            Some(g) => (g.sk, g.keyed.clone()),
            None => return Err(EncapError::NotReady("no group".into())),
        };
        let new_members: Vec<SessionCert> = {
            let dir = self.directory.lock().unwrap_or_else(|e| e.into_inner());
            dir.certs
                .values()
                .filter(|c| c.id != self.id.0 && !keyed.contains(&c.id))
                .cloned()
                .collect()
        };
        let mut out = Vec::new();
        if !new_members.is_empty() {
            match self.config.scheme {
                Scheme::Wang => out.push(OutgoingPacket::broadcast(
                    PacketKind::GroupKey,
                    self.group_key_message(&gid, &sk, &new_members, now)?,
                )),
                Scheme::RayaHubaux => {
                    for m in &new_members {
                        out.push(OutgoingPacket {
                            bytes: self.group_key_message(&gid, &sk, std::slice::from_ref(m), now)?,
                            kind: PacketKind::GroupKey,
                            destination: Destination::Unicast(StationId(m.id)),
                        });
                    }
                }
            }
        }
        let seq = match self.groups.get_mut(&gid) {
            Some(g) => {
                g.keyed.extend(new_members.iter().map(|m| m.id));
                g.send_seq = g.send_seq.wrapping_add(1);
                g.send_seq
            }
            None => 0,
        };
        out.push(OutgoingPacket::broadcast(
            PacketKind::Data,
            self.protect(&gid, 2, seq, &sk, payload)?,
        ));
        Ok(out)
    }

    fn on_hello(&mut self, packet: &[u8], now: Timestamp) -> Result<Decapsulated, Rejection> {
        let mut r = Reader::new(packet);
        r.u8("type").map_err(wire_reject)?;
        let from = r.u32("from").map_err(wire_reject)?;
        let to = r.u32("to").map_err(wire_reject)?;
        let sid = r.array::<8>("session").map_err(wire_reject)?;
        let t = r.u64("T").map_err(wire_reject)?;
        let mut y_a = None;
        if self.config.scheme == Scheme::Wang {
            let p = r.var16("p").map_err(wire_reject)?;
            let g = r.var16("g").map_err(wire_reject)?;
            let y = r.var16("Y_A").map_err(wire_reject)?;
            let group = dh_group().map_err(|e| reject(RejectReason::InvalidEncoding, e.to_string()))?;
            if p != group.prime_p().to_vec().as_slice() || g != group.generator().to_vec().as_slice() {
                return Err(reject(
                    RejectReason::IncompatibleProtocol,
                    "Diffie-Hellman group is not the configured one",
                ));
            }
            y_a = Some(y.to_vec());
        }
        let cert_bytes = r.var16("certificate").map_err(wire_reject)?;
        let signed_len = packet.len() - r.remaining();
        let sig = r.var16("signature").map_err(wire_reject)?;
        r.finish().map_err(wire_reject)?;
        if to != self.id.0 {
            return Err(reject(
                RejectReason::NotForThisRecipient,
                format!("handshake for station {to}"),
            ));
        }
        let cert = self.authenticate_handshake(cert_bytes, from, t, now, &packet[..signed_len], sig)?;
        if self.sessions.contains_key(&sid) {
            return Err(reject(RejectReason::DuplicateMessage, "session already exists"));
        }
        // Reply M2.
        let e = |x: WireError| reject(RejectReason::InvalidEncoding, x.to_string());
        let mut out = vec![H2];
        out.extend_from_slice(&self.id.0.to_be_bytes());
        out.extend_from_slice(&from.to_be_bytes());
        out.extend_from_slice(&sid);
        out.extend_from_slice(&ts_bytes(now));
        let mut sk = None;
        if let Some(y_a) = y_a {
            let ours = dh_group()
                .and_then(|g| g.generate_key().map_err(|e| EncapError::Crypto(e.to_string())))
                .map_err(|e| reject(RejectReason::InvalidEncoding, e.to_string()))?;
            let peer = BigNum::from_slice(&y_a).map_err(|e| reject(RejectReason::InvalidEncoding, e.to_string()))?;
            let secret = ours
                .compute_key(&peer)
                .map_err(|_| reject(RejectReason::InvalidEncoding, "invalid Diffie-Hellman public value"))?;
            sk = Some(session_key_from(&secret));
            put_var16(&mut out, &ours.public_key().to_vec(), "Y_B").map_err(e)?;
        }
        put_var16(&mut out, self.cert.encoded(), "certificate").map_err(e)?;
        let sig = self
            .sign_key
            .sign(&out)
            .map_err(|x| reject(RejectReason::InvalidEncoding, x.to_string()))?;
        put_var16(&mut out, &sig, "signature").map_err(e)?;
        if let Some(sk) = &sk {
            let mac = hmac_sha1(sk, &out);
            out.extend_from_slice(&mac);
        }
        self.sessions.insert(
            sid,
            Session {
                peer: from,
                initiator: false,
                sk,
                dh: None,
                established: false,
                started: now,
                send_seq: 0,
                recv_seq: None,
                peer_cert: Some(cert),
                queued: Vec::new(),
            },
        );
        let mut d = Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(1)));
        d.send.push(OutgoingPacket {
            bytes: out,
            kind: PacketKind::Handshake(2),
            destination: Destination::Unicast(StationId(from)),
        });
        Ok(d)
    }

    fn on_reply(&mut self, packet: &[u8], now: Timestamp) -> Result<Decapsulated, Rejection> {
        let mut r = Reader::new(packet);
        r.u8("type").map_err(wire_reject)?;
        let from = r.u32("from").map_err(wire_reject)?;
        let to = r.u32("to").map_err(wire_reject)?;
        let sid = r.array::<8>("session").map_err(wire_reject)?;
        let t = r.u64("T").map_err(wire_reject)?;
        let y_b = if self.config.scheme == Scheme::Wang {
            Some(r.var16("Y_B").map_err(wire_reject)?)
        } else {
            None
        };
        let cert_bytes = r.var16("certificate").map_err(wire_reject)?;
        let signed_len = packet.len() - r.remaining();
        let sig = r.var16("signature").map_err(wire_reject)?;
        let mac_covered = packet.len() - r.remaining();
        let mac = if y_b.is_some() {
            Some(r.take(HMAC_LEN, "HMAC").map_err(wire_reject)?)
        } else {
            None
        };
        r.finish().map_err(wire_reject)?;
        if to != self.id.0 {
            return Err(reject(
                RejectReason::NotForThisRecipient,
                format!("handshake for station {to}"),
            ));
        }
        let in_progress = self
            .sessions
            .get(&sid)
            .is_some_and(|s| s.initiator && s.peer == from && !s.established);
        if !in_progress {
            return Err(reject(
                RejectReason::UnknownSender,
                "no handshake in progress with this sender",
            ));
        }
        let cert = self.authenticate_handshake(cert_bytes, from, t, now, &packet[..signed_len], sig)?;
        let e = |x: WireError| reject(RejectReason::InvalidEncoding, x.to_string());
        let mut m3 = vec![H3];
        m3.extend_from_slice(&self.id.0.to_be_bytes());
        m3.extend_from_slice(&from.to_be_bytes());
        m3.extend_from_slice(&sid);
        let sk = match (y_b, mac) {
            (Some(y_b), Some(mac)) => {
                let dh = self
                    .sessions
                    .get_mut(&sid)
                    .and_then(|s| s.dh.take())
                    .ok_or_else(|| reject(RejectReason::UnknownKey, "no Diffie-Hellman key for this session"))?;
                let peer = BigNum::from_slice(y_b).map_err(|x| reject(RejectReason::InvalidEncoding, x.to_string()))?;
                let secret = dh
                    .compute_key(&peer)
                    .map_err(|_| reject(RejectReason::InvalidEncoding, "invalid Diffie-Hellman public value"))?;
                let sk = session_key_from(&secret);
                if !openssl::memcmp::eq(&hmac_sha1(&sk, &packet[..mac_covered]), mac) {
                    return Err(reject(RejectReason::FalseMac, "HMAC_SK(M2) does not verify"));
                }
                m3.extend_from_slice(&ts_bytes(now));
                let tag = hmac_sha1(&sk, &m3);
                m3.extend_from_slice(&tag);
                sk
            }
            _ => {
                // Raya–Hubaux: A picks SK and sends {B|SK|T}_PuKB, Sig_A[B|SK|T].
                let mut sk = [0u8; 16];
                sk.copy_from_slice(&v2x_crypto::random_bytes(16));
                let mut inner = from.to_be_bytes().to_vec();
                inner.extend_from_slice(&sk);
                inner.extend_from_slice(&ts_bytes(now));
                let ct = cert
                    .encrypt
                    .encrypt(&inner)
                    .map_err(|x| reject(RejectReason::InvalidEncoding, x.to_string()))?;
                let sig = self
                    .sign_key
                    .sign(&inner)
                    .map_err(|x| reject(RejectReason::InvalidEncoding, x.to_string()))?;
                put_var16(&mut m3, &ct, "ciphertext").map_err(e)?;
                put_var16(&mut m3, &sig, "signature").map_err(e)?;
                sk
            }
        };
        let mut d = Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(2)));
        d.send.push(OutgoingPacket {
            bytes: m3,
            kind: PacketKind::Handshake(3),
            destination: Destination::Unicast(StationId(from)),
        });
        let queued = match self.sessions.get_mut(&sid) {
            Some(s) => {
                s.sk = Some(sk);
                s.established = true;
                s.peer_cert = Some(cert);
                std::mem::take(&mut s.queued)
            }
            None => Vec::new(),
        };
        for m in queued {
            match self.data_for_session(&sid, &m) {
                Ok(p) => d.send.push(p),
                Err(x) => return Err(reject(RejectReason::InvalidEncoding, x.to_string())),
            }
        }
        Ok(d)
    }

    fn on_confirm(&mut self, packet: &[u8], now: Timestamp) -> Result<Decapsulated, Rejection> {
        let mut r = Reader::new(packet);
        r.u8("type").map_err(wire_reject)?;
        let from = r.u32("from").map_err(wire_reject)?;
        let to = r.u32("to").map_err(wire_reject)?;
        let sid = r.array::<8>("session").map_err(wire_reject)?;
        if to != self.id.0 {
            return Err(reject(
                RejectReason::NotForThisRecipient,
                format!("handshake for station {to}"),
            ));
        }
        let scheme = self.config.scheme;
        let mut sk_rh = None;
        {
            let session = self
                .sessions
                .get(&sid)
                .filter(|s| !s.initiator && s.peer == from && !s.established)
                .ok_or_else(|| reject(RejectReason::UnknownSender, "no handshake in progress with this sender"))?;
            match scheme {
                Scheme::Wang => {
                    let t = r.u64("T").map_err(wire_reject)?;
                    let covered = packet.len() - r.remaining();
                    let mac = r.take(HMAC_LEN, "HMAC").map_err(wire_reject)?;
                    r.finish().map_err(wire_reject)?;
                    self.check_time(t, now)?;
                    let sk = session
                        .sk
                        .ok_or_else(|| reject(RejectReason::UnknownKey, "no session key"))?;
                    if !openssl::memcmp::eq(&hmac_sha1(&sk, &packet[..covered]), mac) {
                        return Err(reject(RejectReason::FalseMac, "HMAC_SK(M3) does not verify"));
                    }
                }
                Scheme::RayaHubaux => {
                    let ct = r.var16("ciphertext").map_err(wire_reject)?;
                    let sig = r.var16("signature").map_err(wire_reject)?;
                    r.finish().map_err(wire_reject)?;
                    let inner = self.decrypt_key.decrypt(ct)?;
                    let cert = session.peer_cert.as_ref().ok_or_else(|| {
                        reject(RejectReason::SignerCertificateNotFound, "no certificate for the peer")
                    })?;
                    if !cert.verify.verify(&inner, sig) {
                        return Err(reject(RejectReason::FalseSignature, "Sig_A[B|SK|T] does not verify"));
                    }
                    let mut ir = Reader::new(&inner);
                    let b = ir.u32("B").map_err(wire_reject)?;
                    let sk = ir.array::<16>("SK").map_err(wire_reject)?;
                    let t = ir.u64("T").map_err(wire_reject)?;
                    ir.finish().map_err(wire_reject)?;
                    if b != self.id.0 {
                        return Err(reject(
                            RejectReason::NotForThisRecipient,
                            "session key meant for another station",
                        ));
                    }
                    self.check_time(t, now)?;
                    sk_rh = Some(sk);
                }
            }
        }
        if let Some(s) = self.sessions.get_mut(&sid) {
            if let Some(sk) = sk_rh {
                s.sk = Some(sk);
            }
            s.established = true;
        }
        Ok(Decapsulated::outcome(DecapOutcome::Control(PacketKind::Handshake(3))))
    }

    fn on_group_key(&mut self, packet: &[u8], now: Timestamp) -> Result<Decapsulated, Rejection> {
        let mut r = Reader::new(packet);
        r.u8("type").map_err(wire_reject)?;
        let leader = r.u32("leader").map_err(wire_reject)?;
        let gid = r.array::<8>("group").map_err(wire_reject)?;
        let t = r.u64("T").map_err(wire_reject)?;
        let count = r.u16("count").map_err(wire_reject)?;
        let me = self.cert.key_hash();
        let mut mine = None;
        for _ in 0..count {
            let h = r.array::<8>("H_i").map_err(wire_reject)?;
            let wrapped = r.var16("wrapped key").map_err(wire_reject)?;
            if h == me {
                mine = Some(wrapped);
            }
        }
        let signed_len = packet.len() - r.remaining();
        let sig = r.var16("signature").map_err(wire_reject)?;
        r.finish().map_err(wire_reject)?;
        let wrapped = mine.ok_or_else(|| reject(RejectReason::NotForThisRecipient, "no key for this station"))?;
        self.check_time(t, now)?;
        let cert = self
            .directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(leader)
            .cloned()
            .ok_or_else(|| reject(RejectReason::SignerCertificateNotFound, "leader certificate unknown"))?;
        self.check_cert(&cert)?;
        if !cert.verify.verify(&packet[..signed_len], sig) {
            return Err(reject(
                RejectReason::FalseSignature,
                "group key signature does not verify",
            ));
        }
        let sk_bytes = self.decrypt_key.decrypt(wrapped)?;
        let sk = <[u8; 16]>::try_from(sk_bytes.as_slice())
            .map_err(|_| reject(RejectReason::DecryptionFailed, "group key is not 16 bytes"))?;
        self.groups.entry(gid).or_insert(Group {
            leader,
            sk,
            started: now,
            send_seq: 0,
            recv_seq: None,
            keyed: HashSet::new(),
        });
        Ok(Decapsulated::outcome(DecapOutcome::Control(PacketKind::GroupKey)))
    }

    fn on_data(&mut self, packet: &[u8], now: Timestamp) -> Result<Delivery, Rejection> {
        let mut r = Reader::new(packet);
        r.u8("type").map_err(wire_reject)?;
        let id = r.array::<8>("session").map_err(wire_reject)?;
        let seq = r.u32("sequence").map_err(wire_reject)?;
        let lifetime = self.config.session_lifetime_ms * 1000;
        if let Some(g) = self.groups.get(&id) {
            if g.leader == self.id.0 {
                return Err(reject(RejectReason::DuplicateMessage, "own group traffic"));
            }
            if g.started.plus_micros(lifetime) < now {
                return Err(reject(RejectReason::StaleMessage, "group key expired"));
            }
            if g.recv_seq.is_some_and(|last| seq <= last) {
                return Err(reject(
                    RejectReason::DuplicateMessage,
                    format!("sequence {seq} already seen"),
                ));
            }
            let (sk, leader) = (g.sk, g.leader);
            let cert = self
                .directory
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get(leader)
                .cloned();
            let m = self.unprotect(packet, &id, 2, seq, &sk, cert.as_ref())?;
            if let Some(g) = self.groups.get_mut(&id) {
                g.recv_seq = Some(seq);
            }
            return Ok(Delivery {
                payload: m,
                // The group key came signed by the leader's certified key.
                sender: match &cert {
                    Some(c) => SenderId::Certificate(c.digest()),
                    None => SenderId::Claimed(StationId(leader)),
                },
                generated: None,
            });
        }
        let s = self
            .sessions
            .get(&id)
            .ok_or_else(|| reject(RejectReason::UnknownKey, "no session key for this session"))?;
        if !s.established {
            return Err(reject(RejectReason::UnknownKey, "session not established"));
        }
        if s.started.plus_micros(lifetime) < now {
            return Err(reject(RejectReason::StaleMessage, "session expired"));
        }
        if s.recv_seq.is_some_and(|last| seq <= last) {
            return Err(reject(
                RejectReason::DuplicateMessage,
                format!("sequence {seq} already seen"),
            ));
        }
        let sk = s.sk.ok_or_else(|| reject(RejectReason::UnknownKey, "no session key"))?;
        let direction = if s.initiator { 1 } else { 0 };
        let sender = match &s.peer_cert {
            Some(c) => SenderId::Certificate(c.digest()),
            None => SenderId::Claimed(StationId(s.peer)),
        };
        let m = self.unprotect(packet, &id, direction, seq, &sk, s.peer_cert.as_ref())?;
        if let Some(s) = self.sessions.get_mut(&id) {
            s.recv_seq = Some(seq);
        }
        Ok(Delivery {
            payload: m,
            sender,
            generated: None,
        })
    }

    fn data_for_session(&mut self, sid: &[u8; 8], m: &[u8]) -> Result<OutgoingPacket, EncapError> {
        let (seq, sk, initiator, peer) = match self.sessions.get_mut(sid) {
            Some(s) => {
                s.send_seq = s.send_seq.wrapping_add(1);
                (s.send_seq, s.sk, s.initiator, s.peer)
            }
            None => return Err(EncapError::NotReady("no session".into())),
        };
        let sk = sk.ok_or_else(|| EncapError::NotReady("no session key".into()))?;
        let bytes = self.protect(sid, if initiator { 0 } else { 1 }, seq, &sk, m)?;
        Ok(OutgoingPacket {
            bytes,
            kind: PacketKind::Data,
            destination: Destination::Unicast(StationId(peer)),
        })
    }
}

/// Deliveries name the sender by the digest of the certificate authenticated in the
/// handshake (pairwise) or of the group leader's certificate (group).
impl Authenticator for SessionStation {
    fn name(&self) -> &str {
        self.config.protocol_name()
    }

    fn station_id(&self) -> StationId {
        self.id
    }

    fn encap(&mut self, payload: &[u8], now: Timestamp) -> Result<Vec<OutgoingPacket>, EncapError> {
        if self.config.topology == Topology::Group {
            return self.encap_group(payload, now);
        }
        let peer = self
            .peer
            .ok_or_else(|| EncapError::NotReady("no peer: call connect() first".into()))?
            .0;
        let lifetime = self.config.session_lifetime_ms * 1000;
        if let Some(sid) = self.outbound.get(&peer).copied() {
            if let Some(s) = self.sessions.get_mut(&sid) {
                if s.started.plus_micros(lifetime) > now {
                    if !s.established {
                        s.queued.push(payload.to_vec());
                        return Ok(Vec::new());
                    }
                    return Ok(vec![self.data_for_session(&sid, payload)?]);
                }
                self.sessions.remove(&sid);
            }
        }
        let hello = self.hello(peer, now)?;
        if let Some(s) = self.outbound.get(&peer).and_then(|sid| self.sessions.get_mut(sid)) {
            s.queued.push(payload.to_vec());
        }
        Ok(vec![hello])
    }

    fn decap(&mut self, packet: &[u8], now: Timestamp) -> Decapsulated {
        let result = match packet.first() {
            Some(&H1) => self.on_hello(packet, now),
            Some(&H2) => self.on_reply(packet, now),
            Some(&H3) => self.on_confirm(packet, now),
            Some(&GROUP) => self.on_group_key(packet, now),
            Some(&DATA) => self.on_data(packet, now).map(Decapsulated::accepted),
            Some(t) => Err(reject(
                RejectReason::InvalidEncoding,
                format!("unknown message type {t:#04x}"),
            )),
            None => Err(reject(RejectReason::InvalidEncoding, "empty packet")),
        };
        result.unwrap_or_else(Decapsulated::from)
    }

    fn describe(&self) -> ProtocolDescription {
        describe(&self.config)
    }
}

fn sig_ops(alg: SignatureAlg, verify: bool) -> CryptoOp {
    match (alg, verify) {
        (SignatureAlg::Ecdsa, false) => CryptoOp::EcdsaSign(CurveName::P256),
        (SignatureAlg::Ecdsa, true) => CryptoOp::EcdsaVerify(CurveName::P256),
        (SignatureAlg::Rsa, false) => CryptoOp::RsaSign,
        (SignatureAlg::Rsa, true) => CryptoOp::RsaVerify,
        (SignatureAlg::Dsa, false) => CryptoOp::DsaSign,
        (SignatureAlg::Dsa, true) => CryptoOp::DsaVerify,
    }
}

fn enc_ops(alg: EncryptionAlg, decrypt: bool) -> CryptoOp {
    match (alg, decrypt) {
        (EncryptionAlg::Ecies, false) => CryptoOp::EciesEncrypt(CurveName::P256),
        (EncryptionAlg::Ecies, true) => CryptoOp::EciesDecrypt(CurveName::P256),
        (EncryptionAlg::Rsa, false) => CryptoOp::RsaEncrypt,
        (EncryptionAlg::Rsa, true) => CryptoOp::RsaDecrypt,
    }
}

/// Operation counts per message (sizes come from [`measure_steps`], which encodes real
/// messages).
pub fn describe(config: &SessionConfig) -> ProtocolDescription {
    let sign = OpCount::new(sig_ops(config.signature, false), 1);
    let verify = OpCount::new(sig_ops(config.signature, true), 1);
    let cert_verify = OpCount::new(sig_ops(config.signature, true), 1);
    let hmac = OpCount::new(CryptoOp::HmacSha1, 1);
    let wang = config.scheme == Scheme::Wang;
    let dh = [OpCount::new(CryptoOp::DhKeygen, 1), OpCount::new(CryptoOp::DhDerive, 1)];
    let (data_send, data_recv) = match config.protection {
        Protection::Hmac => (vec![hmac], vec![hmac]),
        Protection::Encrypt => (
            vec![OpCount::new(CryptoOp::AesEncrypt, 1)],
            vec![OpCount::new(CryptoOp::AesDecrypt, 1)],
        ),
        _ => (
            vec![OpCount::new(CryptoOp::AesEncrypt, 1), hmac, sign],
            vec![OpCount::new(CryptoOp::AesDecrypt, 1), hmac, verify],
        ),
    };
    let sizes = measure_steps(config).unwrap_or_default();
    let size = |name: &str| {
        sizes
            .iter()
            .find(|s| s.message == name)
            .map(|s| (s.overhead, s.total))
            .unwrap_or((0, 0))
    };
    let msg = |name: &str, schedule, sender_ops: Vec<OpCount>, receiver_ops: Vec<OpCount>, depends| {
        let (overhead, total) = size(name);
        MessageDescription {
            message: name.into(),
            overhead_bytes: overhead,
            packet_bytes: total,
            overhead_depends_on_payload: depends,
            schedule,
            sender_ops,
            receiver_ops,
        }
    };
    let mut messages = Vec::new();
    match config.topology {
        Topology::Pairwise => {
            let mut s1 = vec![sign];
            let mut r1 = vec![cert_verify, verify];
            let mut s2 = vec![sign];
            let mut r2 = vec![cert_verify, verify];
            if wang {
                s1.extend(dh.iter().take(1));
                r1.extend(dh);
                s2.push(hmac);
                r2.extend([dh[1], hmac]);
            }
            messages.push(msg("handshake-1", Schedule::Once, s1, r1, false));
            messages.push(msg("handshake-2", Schedule::Once, s2, r2, false));
            let (s3, r3) = if wang {
                (vec![hmac], vec![hmac])
            } else {
                (
                    vec![OpCount::new(enc_ops(config.encryption, false), 1), sign],
                    vec![OpCount::new(enc_ops(config.encryption, true), 1), verify],
                )
            };
            messages.push(msg("handshake-3", Schedule::Once, s3, r3, false));
        }
        Topology::Group => {
            messages.push(msg(
                "group-key",
                Schedule::Once,
                vec![OpCount::new(enc_ops(config.encryption, false), 1), sign],
                vec![cert_verify, verify, OpCount::new(enc_ops(config.encryption, true), 1)],
                false,
            ));
        }
    }
    messages.push(msg(
        "data",
        Schedule::EveryPayload,
        data_send,
        data_recv,
        config.protection != Protection::Hmac,
    ));
    ProtocolDescription {
        protocol: config.protocol_name().into(),
        variant: config.variant(),
        reference_payload_len: crate::describe::REFERENCE_PAYLOAD_LEN,
        messages,
        delayed_verification: None,
        notes: vec![
            "handshake receivers verify the peer certificate once (cached by encoding)".into(),
            "group-key sizes are for one member; a Wang group message grows by one entry per member".into(),
        ],
    }
}

/// Size of one message of a run, measured from its encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSize {
    pub message: String,
    /// Bytes other than the application payload.
    pub overhead: usize,
    pub total: usize,
}

/// Runs a real exchange for `config` with a `REFERENCE_PAYLOAD_LEN`-byte payload and
/// reports every message's size.
pub fn measure_steps(config: &SessionConfig) -> Result<Vec<StepSize>, SetupError> {
    measure_steps_with(config, crate::describe::REFERENCE_PAYLOAD_LEN)
}

/// As [`measure_steps`] with a `payload_len`-byte payload (paper 003 uses 1024).
pub fn measure_steps_with(config: &SessionConfig, payload_len: usize) -> Result<Vec<StepSize>, SetupError> {
    let payload = vec![0x42u8; payload_len];
    let mut dep = SessionDeployment::new(config)?;
    let sender_role = if config.topology == Topology::Group {
        Role::GroupLeader
    } else {
        Role::Vehicle
    };
    let mut a = dep.station(StationId(1), sender_role)?;
    let mut b = dep.station(StationId(2), Role::Vehicle)?;
    a.connect(StationId(2));
    let now = Timestamp::from_millis(1_000);
    let mut steps = Vec::new();
    let mut queue: Vec<(bool, OutgoingPacket)> = a
        .encap(&payload, now)
        .map_err(|e| SetupError::Crypto(e.to_string()))?
        .into_iter()
        .map(|p| (true, p))
        .collect();
    let mut guard = 0;
    while let Some((from_a, p)) = (!queue.is_empty()).then(|| queue.remove(0)) {
        guard += 1;
        if guard > 16 {
            break;
        }
        let name = match p.kind {
            PacketKind::Handshake(n) => format!("handshake-{n}"),
            PacketKind::GroupKey => "group-key".into(),
            _ => "data".into(),
        };
        let overhead = if p.kind == PacketKind::Data {
            p.bytes.len() - payload.len()
        } else {
            p.bytes.len()
        };
        steps.push(StepSize {
            message: name,
            overhead,
            total: p.bytes.len(),
        });
        let rx = if from_a { &mut b } else { &mut a };
        let d = rx.decap(&p.bytes, now);
        if let DecapOutcome::Rejected(r) = &d.outcome {
            return Err(SetupError::Crypto(format!("measurement exchange failed: {r}")));
        }
        queue.extend(d.send.into_iter().map(|q| (!from_a, q)));
    }
    Ok(steps)
}

/// Shared material of a session-key deployment: CA, DSA parameters, directory.
pub struct SessionDeployment {
    config: SessionConfig,
    ca: Arc<SessionCa>,
    dsa: Option<DsaParams>,
    directory: Arc<Mutex<Directory>>,
}

impl SessionDeployment {
    pub fn new(config: &SessionConfig) -> Result<SessionDeployment, SetupError> {
        if !(512..=4096).contains(&config.rsa_bits) {
            return Err(SetupError::InvalidConfig("rsa_bits must be in 512..=4096".into()));
        }
        let dsa = match config.signature {
            SignatureAlg::Dsa => Some(DsaParams::shared(config.dsa_bits)?),
            _ => None,
        };
        let ca_key = SigningKey::generate(config.signature, config.rsa_bits, dsa.as_ref())?;
        Ok(SessionDeployment {
            config: config.clone(),
            ca: Arc::new(SessionCa::new(ca_key)?),
            dsa,
            directory: Arc::new(Mutex::new(Directory::default())),
        })
    }

    pub fn directory(&self) -> Arc<Mutex<Directory>> {
        self.directory.clone()
    }

    pub fn station(&mut self, id: StationId, role: Role) -> Result<SessionStation, SetupError> {
        if role == Role::RoadsideUnit {
            return Err(SetupError::UnsupportedRole {
                protocol: self.config.protocol_name().into(),
                role,
            });
        }
        let sign_key = SigningKey::generate(self.config.signature, self.config.rsa_bits, self.dsa.as_ref())?;
        let decrypt_key = DecryptKey::generate(self.config.encryption, self.config.rsa_bits)?;
        let cert = self.ca.certify(id.0, &sign_key.public()?, &decrypt_key.public()?)?;
        self.directory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .certs
            .insert(id.0, cert.clone());
        Ok(SessionStation {
            id,
            role,
            config: self.config.clone(),
            sign_key,
            decrypt_key,
            cert,
            ca: self.ca.clone(),
            directory: self.directory.clone(),
            peer: None,
            sessions: HashMap::new(),
            outbound: HashMap::new(),
            groups: HashMap::new(),
            my_group: None,
            verified_certs: HashSet::new(),
        })
    }
}

#[cfg(test)]
mod tests;
