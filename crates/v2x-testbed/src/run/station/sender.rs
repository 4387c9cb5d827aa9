//! A sending station without its sockets: at each step it says which datagrams to send
//! now, from which of its source sockets, and what to log — benign CAMs, a functional
//! case's messages, or an attack case's packets as its [`Tactic`] describes them. The
//! socket loop (`super::send`) sleeps until [`Sender::next_due_us`], calls
//! [`Sender::step`] and sends.

use super::forge::{self, Forger};
use super::{StationConfig, StationError};
use crate::case::attack::{Content, Tactic};
use crate::log::{digest, digest_hex, Event, PacketName, TxRecord};
use crate::payload::{MessageKind, Payload};
use crate::scenario::{Attack, Case, Role};
use std::collections::VecDeque;
use v2x_protocols::{Authenticator, PacketKind, Timestamp};

/// One datagram to send now.
#[derive(Debug)]
pub struct Datagram {
    pub bytes: Vec<u8>,
    /// Index of the source socket it leaves from.
    pub socket: usize,
    /// Its row of `tx.csv` (`copies` and `sent_us` filled in once sent); none for the
    /// protocol's timer-driven packets.
    pub record: Option<TxRecord>,
}

/// What one step produced.
#[derive(Debug, Default)]
pub struct Step {
    pub datagrams: Vec<Datagram>,
    pub events: Vec<(Event, String)>,
}

/// A copy waiting to be sent again (A-SIG-05).
struct Copy {
    due_us: u64,
    bytes: Vec<u8>,
    counter: u64,
    kind: MessageKind,
}

/// The authenticators a sender secures with: its own, and for a functional case that
/// alternates CAMs and DENMs, one with the DENM profile.
pub struct Securing {
    pub main: Box<dyn Authenticator>,
    pub denm: Option<Box<dyn Authenticator>>,
}

/// A sending station's state.
pub struct Sender {
    name: String,
    origin: u32,
    role: Role,
    case: Case,
    tactic: Option<Tactic>,
    /// A functional case's refusals are its outcome, not an error.
    refusals_expected: bool,
    /// Odd counters are DENMs (F-SIG-03).
    alternates_denms: bool,
    payload_len: usize,
    period_us: u64,
    next_us: u64,
    end_us: u64,
    counter: u64,
    copies: VecDeque<Copy>,
    sockets: usize,
    turn: usize,
    forger: Option<Forger>,
}

impl Sender {
    /// A sender as `cfg` describes it, sending from `sockets` sockets, starting at
    /// `start_us` (TAI µs).
    pub fn new(
        cfg: &StationConfig,
        sockets: usize,
        start_us: u64,
        forger: Option<Forger>,
    ) -> Result<Sender, StationError> {
        if !(cfg.rate_hz > 0.0 && cfg.rate_hz.is_finite()) {
            return Err(StationError::Invalid {
                field: "rate_hz",
                message: format!("must be > 0, got {}", cfg.rate_hz),
            });
        }
        let period_us = ((1e6 / cfg.rate_hz) as u64).max(1);
        // Each station starts at its own phase inside the period (as unsynchronised OBUs do).
        let phase = (u64::from(cfg.number) * 7919) % period_us;
        let case = match (cfg.attack, cfg.functional) {
            (Some(a), _) => Case::Attack(a),
            (None, Some(f)) => Case::Functional(f),
            (None, None) => Case::Benign,
        };
        Ok(Sender {
            name: cfg.name.clone(),
            origin: cfg.number,
            role: cfg.role,
            case,
            tactic: cfg.attack.map(Attack::tactic),
            refusals_expected: cfg.functional.is_some(),
            alternates_denms: cfg.functional.is_some_and(|f| f.sends_denms()),
            payload_len: cfg.payload_len,
            period_us,
            next_us: start_us + phase,
            end_us: start_us + (cfg.duration_s * 1e6) as u64,
            counter: 0,
            copies: VecDeque::new(),
            sockets: sockets.max(1),
            turn: 0,
            forger,
        })
    }

    /// When the next step is due (TAI µs); `None` once everything is sent.
    pub fn next_due_us(&self) -> Option<u64> {
        let copy = self.copies.front().map(|c| c.due_us);
        if self.next_us < self.end_us {
            Some(copy.map_or(self.next_us, |c| c.min(self.next_us)))
        } else {
            copy
        }
    }

    /// The step due at `now_us`: copies due, then the next message if its time has come.
    pub fn step(&mut self, now_us: u64, securing: &mut Securing) -> Result<Step, StationError> {
        let mut step = Step::default();
        while self.copies.front().is_some_and(|c| c.due_us <= now_us) {
            if let Some(c) = self.copies.pop_front() {
                let socket = self.copy_socket();
                let record = self.record(
                    Case::Attack(Attack::Replay),
                    PacketName::Replay,
                    Some(c.kind),
                    Some(c.counter),
                    &c.bytes,
                    now_us,
                    0,
                );
                step.datagrams.push(Datagram {
                    bytes: c.bytes,
                    socket,
                    record: Some(record),
                });
            }
        }
        if now_us >= self.next_us && self.next_us < self.end_us {
            self.message(now_us, securing, &mut step)?;
            for p in securing.main.poll(Timestamp(now_us)).send {
                step.datagrams.push(Datagram {
                    bytes: p.bytes,
                    socket: 0,
                    record: None,
                });
            }
            self.counter += 1;
            self.next_us += self.period_us;
            if self.next_us < now_us.saturating_sub(self.period_us * 10) {
                // Far behind (an overloaded machine): skip the backlog instead of bursting.
                step.events.push((Event::Behind, format!("counter {}", self.counter)));
                self.next_us = now_us;
            }
        }
        Ok(step)
    }

    /// The message of this period: secured (or left bare, or forged) as the case says.
    fn message(&mut self, now_us: u64, securing: &mut Securing, step: &mut Step) -> Result<(), StationError> {
        let tactic = self.tactic;
        let denm = self.alternates_denms && self.counter % 2 == 1;
        let kind = match (denm, tactic) {
            (true, _) => MessageKind::Denm,
            (false, Some(t)) => t.kind,
            (false, None) => MessageKind::Cam,
        };
        let payload = Payload {
            kind,
            origin: self.origin,
            counter: self.counter,
            generated_us: now_us,
        }
        .encode(self.payload_len);
        let generated = now_us.saturating_sub(tactic.map_or(0, |t| t.backdate.as_micros() as u64));
        let t0 = std::time::Instant::now();
        let packets = match (tactic.map(|t| t.content), self.forger.as_mut()) {
            (Some(Content::ForgedWithCopiedCertificate), Some(f)) => {
                vec![(PacketKind::Data, f.forge(&payload, generated)?)]
            }
            (Some(Content::ForgedWithCopiedCertificate), None) => return Err(forge::ForgeError::NoCertificate.into()),
            _ => {
                let auth = match (denm, securing.denm.as_mut()) {
                    (true, Some(d)) => d,
                    _ => &mut securing.main,
                };
                match auth.encap(&payload, Timestamp(generated)) {
                    Ok(p) => p.into_iter().map(|p| (p.kind, p.bytes)).collect(),
                    // A functional case's refusal is its outcome (F-SIG-06): logged, nothing sent.
                    Err(e) if self.refusals_expected => {
                        step.events.push((Event::EncapRefused, format!("{}: {e}", self.case)));
                        return Ok(());
                    }
                    Err(e) => return Err(e.into()),
                }
            }
        };
        let encap_ns = t0.elapsed().as_nanos() as u64;
        for (packet, mut bytes) in packets {
            let is_data = packet == PacketKind::Data;
            if tactic.is_some_and(|t| t.content == Content::Bare) {
                if !is_data {
                    continue; // an unsecured sender has no keys to disclose or commit
                }
                bytes = payload.clone();
            }
            if is_data && tactic.is_some_and(|t| t.corrupt) {
                // Flip the last byte: the signature's s (1609.2, v1.2.1) or the MAC/tag.
                if let Some(b) = bytes.last_mut() {
                    *b ^= 0x01;
                }
            }
            let (case, delay) = match tactic.and_then(|t| t.replay_after).filter(|_| is_data) {
                // The validly secured originals a replay attacker copies are their own case.
                Some(d) => (Case::ReplaySource, Some(d)),
                None => (self.case, None),
            };
            let counter = is_data.then_some(self.counter);
            let kind = is_data.then_some(kind);
            let record = self.record(
                case,
                PacketName::Protocol(packet),
                kind,
                counter,
                &bytes,
                now_us,
                encap_ns,
            );
            if let Some(d) = delay {
                self.copies.push_back(Copy {
                    due_us: now_us + d.as_micros() as u64,
                    bytes: forge::reencoded(&bytes).unwrap_or_else(|| bytes.clone()),
                    counter: self.counter,
                    kind: kind.unwrap_or(MessageKind::Cam),
                });
            }
            let socket = self.original_socket();
            step.datagrams.push(Datagram {
                bytes,
                socket,
                record: Some(record),
            });
        }
        Ok(())
    }

    /// The socket of an original: the first for a replayer (its copies leave from the
    /// others), else each in turn.
    fn original_socket(&mut self) -> usize {
        if self.tactic.is_some_and(|t| t.replay_after.is_some()) {
            return 0;
        }
        self.turn += 1;
        (self.turn - 1) % self.sockets
    }

    /// The socket of a replayed copy: another than the originals' where there is one.
    fn copy_socket(&mut self) -> usize {
        if self.sockets < 2 {
            return 0;
        }
        self.turn += 1;
        1 + (self.turn - 1) % (self.sockets - 1)
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &self,
        case: Case,
        packet: PacketName,
        kind: Option<MessageKind>,
        counter: Option<u64>,
        bytes: &[u8],
        generated_us: u64,
        encap_ns: u64,
    ) -> TxRecord {
        TxRecord {
            station: self.name.clone(),
            origin: self.origin,
            role: self.role,
            case,
            kind,
            packet,
            counter,
            digest: digest_hex(digest(bytes)),
            generated_us,
            sent_us: 0,
            encap_ns,
            bytes: bytes.len(),
            signer: String::new(),
            copies: 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::credentials::Trust;
    use crate::scenario::ReceiverOptions;
    use v2x_protocols::none::NoneStation;
    use v2x_protocols::{ProtocolConfig, StationId};

    fn config(attack: Option<Attack>) -> StationConfig {
        StationConfig {
            name: "a".into(),
            number: 3,
            role: Role::Attacker,
            attack,
            protocol: toml::from_str("protocol = \"none\"").unwrap(),
            pki_dir: "pki".into(),
            log_dir: "log".into(),
            bind: Vec::new(),
            peers: Vec::new(),
            rate_hz: 10.0,
            duration_s: 1.0,
            linger_s: 1.0,
            start_at_us: 0,
            payload_len: 40,
            receiver: ReceiverOptions::default(),
            pseudonym_change_s: 0.0,
            parent_pid: None,
            functional: None,
            trust: Trust::Full,
            beacon: false,
            copies_certificates_of: Vec::new(),
        }
    }

    fn securing() -> Securing {
        let ProtocolConfig::None(c) = toml::from_str("protocol = \"none\"").unwrap() else {
            unreachable!()
        };
        Securing {
            main: Box::new(NoneStation::new(StationId(3), c)),
            denm: None,
        }
    }

    /// Every datagram of a whole run, with the time it was due.
    fn run(attack: Option<Attack>, sockets: usize) -> Vec<(u64, Datagram)> {
        let mut s = Sender::new(&config(attack), sockets, 1_000_000, None).unwrap();
        let mut sec = securing();
        let mut out = Vec::new();
        while let Some(t) = s.next_due_us() {
            out.extend(s.step(t, &mut sec).unwrap().datagrams.into_iter().map(|d| (t, d)));
        }
        out
    }

    #[test]
    fn a_sender_sends_at_its_rate_and_phase_then_stops() {
        let d = run(None, 1);
        assert_eq!(d.len(), 10);
        let phase = 3 * 7919; // station 3, 7919 µs per station number into the 100 ms period
        assert_eq!(d[0].0, 1_000_000 + phase);
        assert!(d.windows(2).all(|w| w[1].0 - w[0].0 == 100_000));
        let r = d[4].1.record.as_ref().unwrap();
        assert_eq!(
            (r.case, r.counter, r.kind),
            (Case::Benign, Some(4), Some(MessageKind::Cam))
        );
    }

    #[test]
    fn a_replayer_sends_each_copy_later_from_its_other_address() {
        let d = run(Some(Attack::Replay), 2);
        assert_eq!(d.len(), 20, "10 originals, 10 copies");
        let (originals, copies): (Vec<_>, Vec<_>) = d
            .iter()
            .partition(|(_, x)| x.record.as_ref().unwrap().case == Case::ReplaySource);
        assert!(originals.iter().all(|(_, x)| x.socket == 0));
        assert!(copies.iter().all(|(_, x)| x.socket == 1));
        for ((t0, o), (t1, c)) in originals.iter().zip(&copies) {
            assert_eq!(t1 - t0, 100_000);
            assert_eq!(o.record.as_ref().unwrap().counter, c.record.as_ref().unwrap().counter);
            assert_eq!(c.record.as_ref().unwrap().case, Case::Attack(Attack::Replay));
        }
        // `none` has no signature to re-encode: the copy is the same datagram.
        assert_eq!(originals[0].1.bytes, copies[0].1.bytes);
    }

    #[test]
    fn a_flood_from_several_addresses_uses_each_in_turn_and_corrupts_every_packet() {
        let d = run(Some(Attack::Flood), 3);
        let sockets: Vec<usize> = d.iter().map(|(_, x)| x.socket).collect();
        assert_eq!(&sockets[..4], [0, 1, 2, 0]);
        let clean = run(None, 1);
        assert_ne!(d[0].1.bytes.last(), clean[0].1.bytes.last());
        let bare = run(Some(Attack::Unsigned), 1);
        assert!(
            Payload::decode(&bare[0].1.bytes).is_ok(),
            "A-SIG-03 sends the bare payload"
        );
        let old = run(Some(Attack::OldTimestamp), 1);
        assert_eq!(old.len(), 10);
    }
}
