//! The sending half of a TESLA station: its key chain (a new one, with a new
//! commitment, after `N` intervals), the signed commitment repeated every
//! `commitment_period_us`, MACed data packets and the disclosure of keys (attached to
//! the next data packet, or in separate key packets when due).

use super::bootstrap::TeslaSigner;
use super::chain::{ChainParams, KeyChain};
use super::config::{Format, TeslaConfig, TeslaLayout};
use super::wire;
use crate::authenticator::{EncapError, OutgoingPacket, PacketKind, Timestamp};
use std::collections::VecDeque;

/// The chain in use and what is still owed on it.
struct ActiveChain {
    keys: KeyChain,
    /// Intervals in which data was sent and whose key is not yet disclosed (separate mode).
    undisclosed: VecDeque<u64>,
    last_commitment: Option<Timestamp>,
}

/// A station's own chain and packet production.
pub struct TeslaSender {
    format: Format,
    interval_us: u64,
    disclosure_delay: u32,
    chain_length: u32,
    commitment_period_us: u64,
    /// What packets carry as sender: the signing certificate's digest (its first 6
    /// bytes for paper 004).
    sender_field: Vec<u8>,
    chain: Option<ActiveChain>,
}

impl TeslaSender {
    pub fn new(config: &TeslaConfig, certificate_digest: [u8; 8]) -> TeslaSender {
        let format = config.format();
        TeslaSender {
            format,
            interval_us: config.interval_us,
            disclosure_delay: config.disclosure_delay,
            chain_length: config.chain_length,
            commitment_period_us: config.commitment_period_us,
            sender_field: certificate_digest[..format.sender_len()].to_vec(),
            chain: None,
        }
    }

    /// The sender time packets carry: paper 001's timestamp has millisecond resolution,
    /// so intervals are computed from the truncated time on both sides.
    fn effective_time(&self, now: Timestamp) -> Timestamp {
        match self.format.layout {
            TeslaLayout::Paper004 => now,
            TeslaLayout::Paper001 => Timestamp::from_millis(now.as_millis()),
        }
    }

    fn new_chain(&self, now: Timestamp) -> ActiveChain {
        let params = ChainParams {
            t0_us: self.effective_time(now).as_micros(),
            interval_us: self.interval_us,
            disclosure_delay: self.disclosure_delay,
            chain_length: self.chain_length,
        };
        ActiveChain {
            keys: KeyChain::generate(&self.format, params),
            undisclosed: VecDeque::new(),
            last_commitment: None,
        }
    }

    fn key_packet(&self, chain: &KeyChain, j: u64) -> Option<OutgoingPacket> {
        let key = chain.key(j)?;
        let j = u32::try_from(j).ok()?;
        Some(OutgoingPacket::broadcast(
            PacketKind::KeyDisclosure,
            wire::encode_key_packet(&self.format, &self.sender_field, j, key),
        ))
    }

    /// Separate-mode key packets due at `now`.
    pub fn due_keys(&mut self, now: Timestamp) -> Vec<OutgoingPacket> {
        let Some(active) = &mut self.chain else {
            return Vec::new();
        };
        let current = active.keys.params.interval_of(now);
        let d = u64::from(active.keys.params.disclosure_delay);
        let mut due = Vec::new();
        while let Some(&j) = active.undisclosed.front() {
            if j + d > current {
                break;
            }
            due.push(j);
            active.undisclosed.pop_front();
        }
        match &self.chain {
            Some(active) => due
                .into_iter()
                .filter_map(|j| self.key_packet(&active.keys, j))
                .collect(),
            None => Vec::new(),
        }
    }

    /// When the next separate key packet is due, if one is owed.
    pub fn next_key_due(&self) -> Option<Timestamp> {
        let active = self.chain.as_ref()?;
        let j = *active.undisclosed.front()?;
        let params = &active.keys.params;
        Some(params.interval_start(j + u64::from(params.disclosure_delay)))
    }

    fn commitment_packet(
        &self,
        signer: &mut TeslaSigner,
        chain: &KeyChain,
        now: Timestamp,
    ) -> Result<OutgoingPacket, EncapError> {
        let body = wire::encode_commitment_body(&self.sender_field, &chain.params, chain.commitment())?;
        let bytes = signer.sign_commitment(wire::commitment_lead(&self.format), &body, now)?;
        Ok(OutgoingPacket::broadcast(PacketKind::Commitment, bytes))
    }

    fn data_packet(
        &self,
        signer: &TeslaSigner,
        chain: &KeyChain,
        i: u64,
        payload: &[u8],
        now: Timestamp,
    ) -> Result<Vec<u8>, EncapError> {
        let f = &self.format;
        let time = match f.layout {
            TeslaLayout::Paper004 => i,
            TeslaLayout::Paper001 => now.as_millis(),
        };
        let disclosed = f.attached.then(|| {
            let j = i.saturating_sub(u64::from(chain.params.disclosure_delay));
            chain.key(j).unwrap_or_default()
        });
        let head = wire::data_head(f, &self.sender_field, time, disclosed);
        let key = chain
            .key(i)
            .ok_or_else(|| EncapError::KeysExhausted(format!("interval {i}")))?;
        let mac = f.mac(&f.mac_key(key), &wire::mac_input(&head, payload));
        let signature = if f.signature_len() > 0 {
            Some(signer.sign(&wire::signed_input(&head, &mac, payload))?)
        } else {
            None
        };
        Ok(wire::encode_data(&head, &mac, signature.as_deref(), payload))
    }

    /// Every packet to send for `payload` at `now`: due keys, keys still owed on a chain
    /// that ran out, a commitment when due, and the data packet.
    pub fn encap(
        &mut self,
        signer: &mut TeslaSigner,
        payload: &[u8],
        now: Timestamp,
    ) -> Result<Vec<OutgoingPacket>, EncapError> {
        let mut out = self.due_keys(now);
        let exhausted = match &self.chain {
            Some(c) => {
                let p = &c.keys.params;
                p.interval_of(now) > u64::from(p.chain_length) || now.as_micros() < p.t0_us
            }
            None => true,
        };
        if exhausted {
            // Keys of the old chain still owed are disclosed before it is dropped.
            if let Some(old) = self.chain.take() {
                out.extend(old.undisclosed.iter().filter_map(|&j| self.key_packet(&old.keys, j)));
            }
            self.chain = Some(self.new_chain(now));
        }
        let Some(mut active) = self.chain.take() else {
            return Err(EncapError::NotReady("no key chain".into()));
        };
        let result = self.encap_on(&mut active, signer, payload, now, &mut out);
        self.chain = Some(active);
        result.map(|()| out)
    }

    fn encap_on(
        &self,
        active: &mut ActiveChain,
        signer: &mut TeslaSigner,
        payload: &[u8],
        now: Timestamp,
        out: &mut Vec<OutgoingPacket>,
    ) -> Result<(), EncapError> {
        let commitment_due = match active.last_commitment {
            None => true,
            Some(t) => now.as_micros().saturating_sub(t.as_micros()) >= self.commitment_period_us,
        };
        if commitment_due {
            out.push(self.commitment_packet(signer, &active.keys, now)?);
            active.last_commitment = Some(now);
        }
        let i = active.keys.params.interval_of(self.effective_time(now));
        out.push(OutgoingPacket::broadcast(
            PacketKind::Data,
            self.data_packet(signer, &active.keys, i, payload, now)?,
        ));
        if !self.format.attached && active.undisclosed.back() != Some(&i) {
            active.undisclosed.push_back(i);
        }
        Ok(())
    }
}
