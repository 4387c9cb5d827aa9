//! The receiving half of a TESLA station: one authenticated chain per sender (from its
//! commitment), the safe-packet test, the bounded buffer of packets waiting for their
//! keys, and key disclosure (a key is authenticated by hashing it back to the latest
//! known one, then verifies every waiting packet of its interval or earlier).

use super::bootstrap::{CommitmentSigner, TeslaSigner};
use super::chain::ChainParams;
use super::config::{Format, TeslaConfig, TeslaLayout};
use super::wire::{parse, parse_commitment_body_exact, Commitment, DataPacket, TeslaPacket};
use crate::authenticator::{
    malformed, DecapOutcome, Decapsulated, Delivery, PacketKind, PendingId, Released, SenderId, Timestamp,
};
use crate::cert;
use crate::{RejectReason, Rejection};
use std::collections::{HashMap, VecDeque};
use v2x_crypto::ct_eq;

struct PendingPacket {
    id: PendingId,
    interval: u64,
    received_at: Timestamp,
    mac_input: Vec<u8>,
    mac: Vec<u8>,
    payload: Vec<u8>,
    generated: Timestamp,
}

/// What a receiver knows about one sender.
struct Peer {
    params: ChainParams,
    sender_id: SenderId,
    public: v2x_crypto::PublicKey,
    /// Latest authenticated key (interval, key).
    latest: (u64, Vec<u8>),
    pending: VecDeque<PendingPacket>,
}

/// The chains of every sender heard from and the packets waiting for their keys.
pub struct TeslaReceiver {
    format: Format,
    max_clock_offset_us: u64,
    max_hold_us: u64,
    max_pending_per_sender: usize,
    max_pending_total: usize,
    /// By sender field.
    peers: HashMap<Vec<u8>, Peer>,
    pending_total: usize,
    next_pending: u64,
}

impl TeslaReceiver {
    pub fn new(config: &TeslaConfig) -> TeslaReceiver {
        TeslaReceiver {
            format: config.format(),
            max_clock_offset_us: config.max_clock_offset_us,
            max_hold_us: config.max_hold_us,
            max_pending_per_sender: config.max_pending_per_sender,
            max_pending_total: config.max_pending_total,
            peers: HashMap::new(),
            pending_total: 0,
            next_pending: 0,
        }
    }

    /// Packets currently buffered, all senders.
    pub fn pending_count(&self) -> usize {
        self.pending_total
    }

    /// When the first buffered packet expires, if any waits.
    pub fn next_expiry(&self) -> Option<Timestamp> {
        let hold = self.max_hold_us;
        self.peers
            .values()
            .filter_map(|p| p.pending.iter().map(|q| q.received_at.plus_micros(hold + 1)).min())
            .min()
    }

    /// Processes one received packet (after dropping expired ones, which it reports).
    pub fn decap(&mut self, signer: &mut TeslaSigner, packet: &[u8], now: Timestamp) -> Decapsulated {
        let mut released = self.expire(now);
        let outcome = match parse(&self.format, packet) {
            Err(e) => Err(malformed(e)),
            Ok(TeslaPacket::Commitment(c)) => self.on_commitment(signer, c, now, &mut released),
            Ok(TeslaPacket::SignedCommitment(b)) => self.on_signed_commitment(signer, b, now, &mut released),
            Ok(TeslaPacket::Key(k)) => self
                .on_key(k.sender, u64::from(k.interval), k.key, now, &mut released)
                .map(|()| DecapOutcome::Control(PacketKind::KeyDisclosure)),
            Ok(TeslaPacket::Data(d)) => self.on_data(d, now, &mut released),
        };
        Decapsulated {
            outcome: outcome.unwrap_or_else(DecapOutcome::Rejected),
            released,
            send: Vec::new(),
        }
    }

    fn next_id(&mut self) -> PendingId {
        self.next_pending += 1;
        PendingId(self.next_pending)
    }

    /// Drops the pending packets that waited longer than `max_hold_us`.
    pub fn expire(&mut self, now: Timestamp) -> Vec<Released> {
        let hold = self.max_hold_us;
        let mut released = Vec::new();
        for peer in self.peers.values_mut() {
            peer.pending.retain(|p| {
                if p.received_at.plus_micros(hold) < now {
                    released.push(Released {
                        id: p.id,
                        received_at: p.received_at,
                        result: Err(Rejection::new(
                            RejectReason::PendingExpired,
                            format!("no key for interval {}", p.interval),
                        )),
                    });
                    false
                } else {
                    true
                }
            });
        }
        self.pending_total -= released.len().min(self.pending_total);
        released
    }

    fn on_commitment(
        &mut self,
        signer: &TeslaSigner,
        c: Commitment<'_>,
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let who = signer.verify_compact(&c, now)?;
        self.install_peer(c.sender, c.params, c.k0, who, released)
    }

    fn on_signed_commitment(
        &mut self,
        signer: &mut TeslaSigner,
        bytes: &[u8],
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let (body, who) = signer.open_signed(bytes, now)?;
        let (sender, params, k0) = parse_commitment_body_exact(&self.format, &body).map_err(malformed)?;
        self.install_peer(sender, params, k0, who, released)
    }

    /// Records (or replaces) `sender`'s chain after its commitment was authenticated by
    /// `signer`.
    fn install_peer(
        &mut self,
        sender: &[u8],
        params: ChainParams,
        k0: &[u8],
        signer: CommitmentSigner,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let CommitmentSigner { digest, public } = signer;
        // Public identifiers: an ordinary comparison is fine.
        if sender != &digest[..sender.len().min(8)] {
            return Err(Rejection::new(
                RejectReason::InvalidCertificate,
                "sender field does not match the certificate",
            ));
        }
        if k0.len() != self.format.key_len {
            return Err(Rejection::new(RejectReason::InvalidEncoding, "K0 length"));
        }
        let sender_id = match self.format.layout {
            TeslaLayout::Paper004 => SenderId::Address(sender.to_vec()),
            TeslaLayout::Paper001 => SenderId::Certificate(digest),
        };
        match self.peers.get(sender) {
            Some(p) if p.params.t0_us > params.t0_us => {
                return Err(Rejection::new(
                    RejectReason::StaleMessage,
                    "commitment older than the chain in use",
                ))
            }
            Some(p) if p.params == params && p.public == public => {
                return Ok(DecapOutcome::Control(PacketKind::Commitment))
            }
            _ => {}
        }
        // A new chain replaces the old one; packets still waiting for old keys never verify.
        if let Some(old) = self.peers.get_mut(sender) {
            let n = old.pending.len();
            released.extend(old.pending.drain(..).map(|p| Released {
                id: p.id,
                received_at: p.received_at,
                result: Err(Rejection::new(
                    RejectReason::PendingExpired,
                    "sender started a new key chain",
                )),
            }));
            self.pending_total -= n.min(self.pending_total);
        }
        self.peers.insert(
            sender.to_vec(),
            Peer {
                params,
                sender_id,
                public,
                latest: (0, k0.to_vec()),
                pending: VecDeque::new(),
            },
        );
        Ok(DecapOutcome::Control(PacketKind::Commitment))
    }

    /// Authenticates `key` as K_j of `sender`'s chain and releases what it verifies.
    fn on_key(
        &mut self,
        sender: &[u8],
        j: u64,
        key: &[u8],
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<(), Rejection> {
        let f = self.format;
        let offset = self.max_clock_offset_us;
        let peer = self
            .peers
            .get_mut(sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "no commitment from this sender"))?;
        if j > u64::from(peer.params.chain_length) {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("interval {j} beyond the chain"),
            ));
        }
        // K_j is disclosed at the start of interval j + d: a key from the future is forged
        // (checked before hashing, so forged far-ahead keys cost nothing).
        let sender_now = peer.params.interval_of(now.plus_micros(offset));
        if j + u64::from(peer.params.disclosure_delay) > sender_now {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("key of interval {j} cannot be disclosed before interval {}", j + 1),
            ));
        }
        let (a, ref ka) = peer.latest;
        if j <= a {
            // Already known (or older): nothing new to authenticate or release.
            return Ok(());
        }
        let steps = (j - a) as u32;
        // Chain elements are compared in constant time.
        if !ct_eq(&f.f_n(key, steps), ka) {
            return Err(Rejection::new(
                RejectReason::InvalidKey,
                format!("K_{j} does not hash to K_{a}"),
            ));
        }
        peer.latest = (j, key.to_vec());
        let mut still = VecDeque::with_capacity(peer.pending.len());
        while let Some(p) = peer.pending.pop_front() {
            if p.interval > j {
                still.push_back(p);
                continue;
            }
            let ki = f.f_n(key, (j - p.interval) as u32);
            let expected = f.mac(&f.mac_key(&ki), &p.mac_input);
            let result = if ct_eq(&expected, &p.mac) {
                Ok(Delivery {
                    payload: p.payload,
                    sender: peer.sender_id.clone(),
                    generated: Some(p.generated),
                })
            } else {
                Err(Rejection::new(
                    RejectReason::FalseMac,
                    format!("MAC of interval {} does not verify", p.interval),
                ))
            };
            released.push(Released {
                id: p.id,
                received_at: p.received_at,
                result,
            });
        }
        peer.pending = still;
        self.pending_total -= released.len().min(self.pending_total);
        Ok(())
    }

    fn on_data(
        &mut self,
        p: DataPacket<'_>,
        now: Timestamp,
        released: &mut Vec<Released>,
    ) -> Result<DecapOutcome, Rejection> {
        let f = self.format;
        let offset = self.max_clock_offset_us;
        let hold = self.max_hold_us;
        let peer = self
            .peers
            .get(p.sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "no commitment from this sender"))?;
        let params = peer.params;
        let (interval, generated) = match f.layout {
            TeslaLayout::Paper004 => (p.time, params.interval_start(p.time)),
            TeslaLayout::Paper001 => {
                let ts = Timestamp::from_millis(p.time);
                if ts.plus_micros(hold) < now {
                    return Err(Rejection::new(
                        RejectReason::StaleMessage,
                        "timestamp older than the hold limit",
                    ));
                }
                if ts > now.plus_micros(offset) {
                    return Err(Rejection::new(
                        RejectReason::FutureMessage,
                        "timestamp ahead of the clock bound",
                    ));
                }
                (params.interval_of(ts), ts)
            }
        };
        if interval == 0 || interval > u64::from(params.chain_length) {
            return Err(Rejection::new(
                RejectReason::UnknownKey,
                format!("interval {interval} outside the chain"),
            ));
        }
        // Safe-packet test: could the sender already have disclosed K_interval?
        let sender_now = params.interval_of(now.plus_micros(offset));
        if sender_now >= interval + u64::from(params.disclosure_delay) || peer.latest.0 >= interval {
            return Err(Rejection::new(
                RejectReason::KeyAlreadyDisclosed,
                format!("packet of interval {interval}, sender may be in interval {sender_now}"),
            ));
        }
        if let Some(key) = p.disclosed_key {
            let j = interval.saturating_sub(u64::from(params.disclosure_delay));
            self.on_key(p.sender, j, key, now, released)?;
        }
        if let Some(sig) = p.signature {
            let peer = self
                .peers
                .get(p.sender)
                .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "gone"))?;
            if !cert::verify(&peer.public, &p.signed_input, sig) {
                return Err(Rejection::new(
                    RejectReason::FalseSignature,
                    "packet signature does not verify",
                ));
            }
        }
        let total_full = self.pending_total >= self.max_pending_total;
        let per_sender = self.max_pending_per_sender;
        let id = self.next_id();
        let peer = self
            .peers
            .get_mut(p.sender)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownSender, "gone"))?;
        // Both sides of this comparison are received bytes (public): no need for
        // constant time.
        if peer
            .pending
            .iter()
            .any(|q| q.mac == p.mac && q.mac_input == p.mac_input)
        {
            return Err(Rejection::new(
                RejectReason::DuplicateMessage,
                "same packet already waiting",
            ));
        }
        if total_full || peer.pending.len() >= per_sender {
            return Err(Rejection::new(RejectReason::PendingBufferFull, "pending buffer full"));
        }
        peer.pending.push_back(PendingPacket {
            id,
            interval,
            received_at: now,
            mac_input: p.mac_input,
            mac: p.mac.to_vec(),
            payload: p.payload.to_vec(),
            generated,
        });
        self.pending_total += 1;
        Ok(DecapOutcome::Pending(id))
    }
}
