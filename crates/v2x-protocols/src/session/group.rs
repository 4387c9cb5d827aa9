//! Group keys: a leader picks `SK` and sends each directory member `H_i, {SK}_PuKi`
//! signed (Raya–Hubaux: one message per member, also for a member that joins later;
//! Wang: one message with every new member's entry); members decrypt their entry and
//! accept the leader's data under `SK`.

use super::config::{Scheme, SessionConfig};
use super::credentials::{Identity, Trust};
use super::crypto::SessionCert;
use super::protection::{check_key_use, protect, unprotect, DataKey, Direction};
use super::wire::{DataHeader, GroupKey};
use crate::authenticator::{
    malformed, DecapOutcome, Decapsulated, Delivery, Destination, EncapError, OutgoingPacket, PacketKind, SenderId,
    StationId, Timestamp,
};
use crate::{RejectReason, Rejection};
use std::collections::{HashMap, HashSet};

/// A group this station leads or belongs to.
struct Group {
    leader: u32,
    sk: [u8; 16],
    started: Timestamp,
    send_seq: u32,
    recv_seq: Option<u32>,
    /// Members that received the key (leader only).
    keyed: HashSet<u32>,
}

impl Group {
    fn new(leader: u32, sk: [u8; 16], now: Timestamp) -> Group {
        Group {
            leader,
            sk,
            started: now,
            send_seq: 0,
            recv_seq: None,
            keyed: HashSet::new(),
        }
    }
}

/// The groups a station knows, by group id.
pub struct Groups {
    config: SessionConfig,
    table: HashMap<[u8; 8], Group>,
    /// The group this station leads.
    mine: Option<[u8; 8]>,
}

impl Groups {
    pub fn new(config: &SessionConfig) -> Groups {
        Groups {
            config: config.clone(),
            table: HashMap::new(),
            mine: None,
        }
    }

    fn lifetime_us(&self) -> u64 {
        self.config.session_lifetime_ms * 1000
    }

    pub fn contains(&self, id: &[u8; 8]) -> bool {
        self.table.contains_key(id)
    }

    /// The leader's packets for `payload`: key messages for members not keyed yet (a
    /// new group when the old one expired), then the data packet.
    pub fn send(
        &mut self,
        me: &Identity,
        trust: &Trust,
        payload: &[u8],
        now: Timestamp,
    ) -> Result<Vec<OutgoingPacket>, EncapError> {
        let lifetime = self.lifetime_us();
        let expired = self
            .mine
            .and_then(|g| self.table.get(&g))
            .is_none_or(|g| g.started.plus_micros(lifetime) <= now);
        if expired {
            let mut gid = [0u8; 8];
            gid.copy_from_slice(&v2x_crypto::random_bytes(8));
            let mut sk = [0u8; 16];
            sk.copy_from_slice(&v2x_crypto::random_bytes(16));
            self.table.insert(gid, Group::new(me.id, sk, now));
            self.mine = Some(gid);
        }
        let Some((gid, group)) = self.mine.and_then(|g| self.table.get(&g).map(|group| (g, group))) else {
            return Err(EncapError::NotReady("no group".into()));
        };
        let sk = group.sk;
        let new_members = trust.members(me.id, &group.keyed);
        let mut out = Vec::new();
        if !new_members.is_empty() {
            match self.config.scheme {
                Scheme::Wang => out.push(OutgoingPacket::broadcast(
                    PacketKind::GroupKey,
                    key_message(me, &gid, &sk, &new_members, now)?,
                )),
                Scheme::RayaHubaux => {
                    for m in &new_members {
                        out.push(OutgoingPacket {
                            bytes: key_message(me, &gid, &sk, std::slice::from_ref(m), now)?,
                            kind: PacketKind::GroupKey,
                            destination: Destination::Unicast(StationId(m.id)),
                        });
                    }
                }
            }
        }
        let seq = match self.table.get_mut(&gid) {
            Some(g) => {
                g.keyed.extend(new_members.iter().map(|m| m.id));
                g.send_seq = g.send_seq.wrapping_add(1);
                g.send_seq
            }
            None => 0,
        };
        let key = DataKey {
            id: &gid,
            direction: Direction::FromLeader,
            sequence: seq,
            sk: &sk,
        };
        out.push(OutgoingPacket::broadcast(
            PacketKind::Data,
            protect(self.config.protection, &me.sign_key, &key, payload)?,
        ));
        Ok(out)
    }

    /// A group key message: the key for this station, if it has an entry, once the
    /// leader's signature checks out.
    pub fn on_group_key(
        &mut self,
        me: &Identity,
        trust: &mut Trust,
        packet: &[u8],
        now: Timestamp,
    ) -> Result<Decapsulated, Rejection> {
        let g = GroupKey::parse(packet).map_err(malformed)?;
        let me_hash = me.cert.key_hash();
        // H_i are public key hashes: an ordinary comparison is fine.
        let wrapped = g
            .entries
            .iter()
            .rev()
            .find(|(h, _)| *h == me_hash)
            .map(|(_, w)| *w)
            .ok_or_else(|| Rejection::new(RejectReason::NotForThisRecipient, "no key for this station"))?;
        trust.check_time(g.t, now)?;
        let cert = trust
            .directory_cert(g.leader)
            .ok_or_else(|| Rejection::new(RejectReason::SignerCertificateNotFound, "leader certificate unknown"))?;
        trust.check_cert(&cert)?;
        if !cert.verify.verify(g.signed, g.signature) {
            return Err(Rejection::new(
                RejectReason::FalseSignature,
                "group key signature does not verify",
            ));
        }
        let sk_bytes = me.decrypt_key.decrypt(wrapped)?;
        let sk = <[u8; 16]>::try_from(sk_bytes.as_slice())
            .map_err(|_| Rejection::new(RejectReason::DecryptionFailed, "group key is not 16 bytes"))?;
        self.table.entry(g.group).or_insert(Group::new(g.leader, sk, now));
        Ok(Decapsulated::outcome(DecapOutcome::Control(PacketKind::GroupKey)))
    }

    /// A data packet of group `h.id` (which must be known): lifetime, sequence,
    /// protection (the signed modes with the leader's certificate).
    pub fn on_data(
        &mut self,
        me: &Identity,
        trust: &Trust,
        h: &DataHeader<'_>,
        packet: &[u8],
        now: Timestamp,
    ) -> Result<Delivery, Rejection> {
        let g = self
            .table
            .get(&h.id)
            .ok_or_else(|| Rejection::new(RejectReason::UnknownKey, "no key for this group"))?;
        if g.leader == me.id {
            return Err(Rejection::new(RejectReason::DuplicateMessage, "own group traffic"));
        }
        check_key_use(
            g.started,
            self.lifetime_us(),
            g.recv_seq,
            h.sequence,
            now,
            "group key expired",
        )?;
        let (sk, leader) = (g.sk, g.leader);
        let cert: Option<SessionCert> = trust.directory_cert(leader);
        let key = DataKey {
            id: &h.id,
            direction: Direction::FromLeader,
            sequence: h.sequence,
            sk: &sk,
        };
        let m = unprotect(self.config.protection, packet, &key, cert.as_ref())?;
        if let Some(g) = self.table.get_mut(&h.id) {
            g.recv_seq = Some(h.sequence);
        }
        Ok(Delivery {
            payload: m,
            // The group key came signed by the leader's certified key.
            sender: match &cert {
                Some(c) => SenderId::Certificate(c.digest()),
                None => SenderId::Claimed(StationId(leader)),
            },
            generated: None,
        })
    }
}

/// A signed key message for `members` (their entries in the order given).
fn key_message(
    me: &Identity,
    gid: &[u8; 8],
    sk: &[u8; 16],
    members: &[SessionCert],
    now: Timestamp,
) -> Result<Vec<u8>, EncapError> {
    let entries = members
        .iter()
        .map(|m| Ok((m.key_hash(), m.encrypt.encrypt(sk)?)))
        .collect::<Result<Vec<_>, EncapError>>()?;
    let mut w = GroupKey::write_signed(me.id, gid, now.as_micros(), &entries)?;
    let sig = me.sign_key.sign(w.as_slice())?;
    w.var16(&sig, "signature")?;
    Ok(w.into_vec())
}
