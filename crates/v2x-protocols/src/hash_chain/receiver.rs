//! The receiving half of a hash-chain station: freshness, replay window, revoked PIDs,
//! the MAC under the shared table, and for V2I the RSU certificate (checked once, then
//! cached) and signature.

use super::config::HashChainConfig;
use super::keys::KeyStore;
use super::wire::{decode_revocation_list, parse, HashChainPacket, V2iPacket, V2vPacket, MAC_LEN, PID_LEN};
use crate::authenticator::{malformed, DecapOutcome, Delivery, PacketKind, SenderId, Timestamp};
use crate::cert::{self, TrustAnchor};
use crate::freshness::{self, TagWindow};
use crate::{RejectReason, Rejection};
use std::collections::HashSet;
use v2x_crypto::{hashed_id8, Curve, HashAlg};

/// HashedId8 of a certificate encoding (what V2I deliveries name as sender).
pub fn certificate_digest(encoded: &[u8]) -> [u8; 8] {
    hashed_id8(HashAlg::Sha256, encoded).0
}

/// What a station knows to check received packets.
pub struct HashChainReceiver {
    anchor: TrustAnchor,
    rsu_curve: Curve,
    freshness_window_ms: u32,
    max_future_ms: u32,
    /// Digests of RSU certificates already verified.
    verified_rsus: HashSet<[u8; 8]>,
    revoked: HashSet<[u8; PID_LEN]>,
    /// MAC tags accepted inside the freshness window (None: replay detection off).
    replay: Option<TagWindow<MAC_LEN>>,
}

impl HashChainReceiver {
    pub fn new(config: &HashChainConfig, anchor: TrustAnchor) -> HashChainReceiver {
        HashChainReceiver {
            anchor,
            rsu_curve: config.rsu_curve,
            freshness_window_ms: config.freshness_window_ms,
            max_future_ms: config.max_future_ms,
            verified_rsus: HashSet::new(),
            revoked: HashSet::new(),
            replay: config.replay_detection.then(|| {
                TagWindow::new(
                    config.replay_cache_capacity,
                    config.freshness_window_ms,
                    config.max_future_ms,
                )
            }),
        }
    }

    /// Whether this station has learnt that `pid` is revoked.
    pub fn knows_revoked(&self, pid: &[u8; PID_LEN]) -> bool {
        self.revoked.contains(pid)
    }

    /// Checks one received packet.
    pub fn decap(&mut self, store: &KeyStore, packet: &[u8], now: Timestamp) -> DecapOutcome {
        let result = match parse(packet, self.rsu_curve) {
            Err(e) => Err(malformed(e)),
            Ok(HashChainPacket::V2v(p)) => self.v2v(store, p, now).map(DecapOutcome::Accepted),
            Ok(HashChainPacket::V2i(p)) => self.v2i(store, p, now),
        };
        result.unwrap_or_else(DecapOutcome::Rejected)
    }

    fn check_common(&self, ts: u32, mac: &[u8; MAC_LEN], now: Timestamp) -> Result<(), Rejection> {
        freshness::check_fresh(now, ts, self.freshness_window_ms, self.max_future_ms)?;
        if self.replay.as_ref().is_some_and(|w| w.contains(mac, now)) {
            return Err(Rejection::new(
                RejectReason::DuplicateMessage,
                "MAC tag seen inside the freshness window",
            ));
        }
        Ok(())
    }

    fn remember(&mut self, mac: [u8; MAC_LEN], now: Timestamp) {
        if let Some(w) = &mut self.replay {
            w.insert(mac, now);
        }
    }

    fn v2v(&mut self, store: &KeyStore, p: V2vPacket<'_>, now: Timestamp) -> Result<Delivery, Rejection> {
        self.check_common(p.ts, &p.mac, now)?;
        // PIDs are public identifiers: an ordinary set look-up is fine.
        if self.revoked.contains(&p.pid) {
            return Err(Rejection::new(
                RejectReason::RevokedIdentity,
                "pseudo-identity revoked by the CA",
            ));
        }
        if !store.verify(p.index, &p.pid, p.payload, p.ts, &p.mac)? {
            return Err(Rejection::new(RejectReason::FalseMac, "HMAC does not verify"));
        }
        self.remember(p.mac, now);
        Ok(Delivery {
            payload: p.payload.to_vec(),
            sender: SenderId::Pseudonym(p.pid.to_vec()),
            generated: Some(freshness::expand_ts32(now, p.ts)),
        })
    }

    fn v2i(&mut self, store: &KeyStore, p: V2iPacket<'_>, now: Timestamp) -> Result<DecapOutcome, Rejection> {
        self.check_common(p.ts, &p.mac, now)?;
        let digest = p.certificate.digest();
        if !self.verified_rsus.contains(&digest) {
            p.certificate.verify(&self.anchor, now)?;
            self.verified_rsus.insert(digest);
        }
        if !store.verify(p.index, &digest, p.payload, p.ts, &p.mac)? {
            return Err(Rejection::new(RejectReason::FalseMac, "HMAC does not verify"));
        }
        if !cert::verify(&p.certificate.public, p.signed, p.signature) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "RSU signature does not verify",
            ));
        }
        self.remember(p.mac, now);
        if p.revocation {
            let list = decode_revocation_list(p.payload).map_err(malformed)?;
            self.revoked.extend(list);
            return Ok(DecapOutcome::Control(PacketKind::Revocation));
        }
        Ok(DecapOutcome::Accepted(Delivery {
            payload: p.payload.to_vec(),
            sender: SenderId::Certificate(digest),
            generated: Some(freshness::expand_ts32(now, p.ts)),
        }))
    }
}
