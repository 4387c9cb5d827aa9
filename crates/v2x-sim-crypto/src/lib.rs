//! Real cryptography in the simulator's loop (`[[variant]] mode = "real-crypto"`).
//!
//! Every simulated station runs its real [`Authenticator`] from `v2x-protocols`: CAMs are
//! really secured (their real encodings set the bytes on the air and when the certificate
//! rides along), every verification the simulator schedules is a real `decap` with the
//! receiver's real state (learnt certificates, replay windows), and A-SIG-01 attack frames
//! are real secured CAMs whose signature (or MAC) was corrupted, rejected by the real
//! verification with its reason. Service times are still charged in simulated time from
//! the variant's profile (its measured costs), so a real-crypto run and a cost-model run of
//! the same scenario differ only in what the protocol logic decides.
//!
//! The simulator (`v2x-sim`) depends on profiles only; this crate is the bridge between it
//! and the security stack, and [`run`] is what `v2x sim` calls.
//!
//! TESLA runs with real key chains: a CAM waits in the real receiver's buffer until the
//! real key packet (or the next packet's attached key) releases it, and the simulator
//! charges its verification then. Signed commitments (TESLA's bootstrap) are delivered out
//! of band, as if received before the first CAM, and their ECDSA checks are not charged.
//!
//! Scope: [`REAL_CRYPTO_PROTOCOLS`], and the attacks of [`REAL_CRYPTO_ATTACKS`] (not with
//! TESLA, whose forged packets would wait for a key).
//! Real cryptography costs real CPU time: meant for small scenarios (tens of stations,
//! seconds of simulated time).

use std::collections::{HashMap, VecDeque};
use v2x_profile::ProtocolId;
use v2x_protocols::{
    data_packet, Authenticator, DecapOutcome, Decapsulated, Deployment, PacketKind, PendingId, ProtocolConfig,
    RejectReason, Role, StationId, Timestamp,
};
use v2x_sim::node_id::NodeId;
use v2x_sim::scenario::{AttackKind, CertificatePolicy, SecurityMode};
use v2x_sim::security::{EncodedSizes, SecurityModel};
use v2x_sim::station_crypto::{Decided, FrameRef, Secured, StationCrypto, Verdict};
use v2x_sim::{CostsError, Scenario, SimError, SimResults};

/// Protocols whose stations run in the loop.
pub const REAL_CRYPTO_PROTOCOLS: &[ProtocolId] = &[
    ProtocolId::None,
    ProtocolId::Ieee16092,
    ProtocolId::EtsiV121,
    ProtocolId::Tesla,
    ProtocolId::TeslaAttached,
    ProtocolId::HashChain,
    ProtocolId::TwoFlip,
];

/// Attacks real stations forge in the loop.
pub const REAL_CRYPTO_ATTACKS: &[AttackKind] = &[AttackKind::InvalidSignature, AttackKind::Flood];

/// Runs a scenario: cost-model variants as `v2x_sim::run` does, real-crypto variants with
/// [`RealStations`], the experimental designs with sizes from [`RealEncoder`].
pub fn run(sc: &Scenario, progress: &dyn v2x_report::Progress) -> Result<SimResults, SimError> {
    run_watched(sc, progress, None).map(|(r, _)| r)
}

/// [`run`], with the model `watcher` builds watching every run (`v2x_sim::run_watched`).
pub fn run_watched(
    sc: &Scenario,
    progress: &dyn v2x_report::Progress,
    watcher: Option<&v2x_sim::WatcherFactory>,
) -> Result<(SimResults, Vec<Vec<serde_json::Value>>), SimError> {
    for v in sc.variants.iter().filter(|v| v.mode == SecurityMode::RealCrypto) {
        check(sc, &v.name, v.protocol)?;
    }
    let make = |model: &SecurityModel, _seed: u64, stations: usize| -> Result<Box<dyn StationCrypto>, SimError> {
        let s = RealStations::new(model, sc.cam.payload_bytes as usize, stations)?;
        Ok(Box::new(s))
    };
    v2x_sim::run_watched(sc, progress, Some(&make), Some(&RealEncoder), watcher)
}

/// Resolves every variant of `sc` as [`run`] does (the experimental designs' sizes from
/// [`RealEncoder`]): the costs, sizes and notes, before anything runs.
pub fn resolve_variants(sc: &Scenario) -> Result<Vec<SecurityModel>, SimError> {
    v2x_sim::resolve_variants_with(sc, Some(&RealEncoder))
}

/// The sizes of the experimental post-quantum designs from their real encoder: one
/// deployment of the design (`experimental-pq` of `v2x-protocols`, root, AA and a ticket),
/// whose first station secures two CAMs of the scenario's payload 100 ms apart under the
/// once-per-second rule: the first carries the certificate, the second its digest.
pub struct RealEncoder;

impl v2x_sim::security::SizeEncoder for RealEncoder {
    fn encode(&self, kind: ProtocolId, payload_bytes: u32) -> Result<EncodedSizes, String> {
        if !kind.is_experimental_pq() {
            return Err(format!("{kind} is not an experimental design"));
        }
        let config: ProtocolConfig = toml::from_str(&format!(
            "protocol = \"experimental-pq\"\ndesign = \"{}\"\ncertificate = \"once-per-second\"\n",
            kind.name()
        ))
        .map_err(|e| format!("{kind}: {e}"))?;
        let mut deployment = Deployment::new(&config).map_err(|e| format!("{kind}: {e}"))?;
        let mut station = deployment
            .station(StationId(1), Role::Vehicle)
            .map_err(|e| format!("{kind}: {e}"))?;
        let payload = vec![0u8; payload_bytes as usize];
        let mut secured_len = |at_us: u64| -> Result<usize, String> {
            let packets = station
                .encap(&payload, Timestamp::from_micros(at_us))
                .map_err(|e| format!("{kind}: {e}"))?;
            data_packet(&packets)
                .map(|p| p.bytes.len())
                .ok_or_else(|| format!("{kind}: no data packet"))
        };
        let (with_certificate, with_digest) = (secured_len(0)?, secured_len(100_000)?);
        if with_certificate <= with_digest {
            return Err(format!(
                "{kind}: the first CAM ({with_certificate} B) should carry the certificate and the second \
                 ({with_digest} B) its digest"
            ));
        }
        let security = |len: usize| {
            len.checked_sub(payload.len())
                .and_then(|b| u32::try_from(b).ok())
                .ok_or_else(|| format!("{kind}: a secured CAM of {len} B for a {payload_bytes}-byte payload"))
        };
        Ok(EncodedSizes {
            digest_bytes: security(with_digest)?,
            certificate_bytes: security(with_certificate)?,
            encoder: format!("v2x-protocols experimental-pq {kind}"),
        })
    }
}

fn costs_err(variant: &str, message: String) -> SimError {
    SimError::Costs {
        variant: variant.into(),
        source: CostsError::Missing(message),
    }
}

/// Refuses what the bridge does not run, listing what it does.
fn check(sc: &Scenario, variant: &str, protocol: ProtocolId) -> Result<(), SimError> {
    if !REAL_CRYPTO_PROTOCOLS.contains(&protocol) {
        let names: Vec<&str> = REAL_CRYPTO_PROTOCOLS.iter().map(|p| p.name()).collect();
        return Err(costs_err(
            variant,
            format!("mode = \"real-crypto\" runs {} (not {protocol})", names.join(", ")),
        ));
    }
    for a in &sc.attackers {
        if protocol.is_tesla() {
            return Err(costs_err(
                variant,
                "mode = \"real-crypto\": attackers with TESLA are not bridged (a forged packet waits for a key)".into(),
            ));
        }
        if !REAL_CRYPTO_ATTACKS.contains(&a.kind) {
            let names: Vec<&str> = REAL_CRYPTO_ATTACKS.iter().map(|k| k.name()).collect();
            return Err(costs_err(
                variant,
                format!(
                    "mode = \"real-crypto\": attack `{}` is not forged by real stations (supported: {})",
                    a.kind.name(),
                    names.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// A secured packet kept until no receiver can still verify it.
enum Key {
    Cam(NodeId, u32),
    Attack(NodeId, u64),
    Keys(NodeId, u32),
}

/// The real stations of one run.
pub struct RealStations {
    stations: Vec<Box<dyn Authenticator>>,
    payload_len: usize,
    cams: HashMap<(NodeId, u32), Vec<u8>>,
    attacks: HashMap<(NodeId, u64), Vec<u8>>,
    /// Generation order, to forget packets older than `keep_ns`.
    order: VecDeque<(u64, Key)>,
    keep_ns: u64,
    /// Security bytes of the protocol's data packet with the full certificate and with its
    /// digest (from `describe()`), where it has both forms.
    forms: Option<(u32, u32)>,
    /// TESLA: commitments each sender has sent, and how many of each sender's every
    /// receiver has taken in (out of band).
    commitments: Vec<Vec<Vec<u8>>>,
    bootstrapped: HashMap<(NodeId, NodeId), usize>,
    /// TESLA: key packets a sender disclosed after its CAM `seq`, and those its `encap`
    /// emitted (due at a CAM's generation) not yet sent in a key frame.
    keys: HashMap<(NodeId, u32), Vec<Vec<u8>>>,
    owed_keys: Vec<Vec<Vec<u8>>>,
    /// TESLA: which CAM a receiver's pending packet is, and the verdicts keys decided.
    pending: HashMap<(NodeId, PendingId), (NodeId, u32)>,
    decided: HashMap<(NodeId, NodeId, u32), Verdict>,
}

/// The deployment configuration of a variant: the protocol's defaults (TESLA: 100 ms
/// intervals, keys disclosed one interval later, the simulator's default disclosure delay),
/// with the full certificate on every 1609.2 CAM when the variant's certificate policy is
/// `always`.
fn config_of(model: &SecurityModel) -> Result<ProtocolConfig, String> {
    let mut text = match model.kind {
        ProtocolId::TeslaAttached => "protocol = \"tesla\"\nkey_disclosure = \"attached\"\n".to_string(),
        kind => format!("protocol = \"{}\"\n", kind.name()),
    };
    if model.kind == ProtocolId::Ieee16092 && model.certificate == CertificatePolicy::Always {
        text.push_str("always_certificate = true\n");
    }
    toml::from_str(&text).map_err(|e| format!("{}: {e}", model.kind))
}

fn now_ts(ns: u64) -> Timestamp {
    Timestamp::from_micros(ns / 1000)
}

impl RealStations {
    /// One deployment of the variant's protocol with `stations` vehicles (station number
    /// = node + 1) that all trust each other, securing payloads of `payload_len` bytes.
    pub fn new(model: &SecurityModel, payload_len: usize, stations: usize) -> Result<RealStations, SimError> {
        let err = |m: String| costs_err(&model.name, m);
        let config = config_of(model).map_err(err)?;
        let mut deployment = Deployment::new(&config).map_err(|e| err(format!("{}: {e}", model.kind)))?;
        let stations = (0..stations)
            .map(|i| {
                let id = StationId(u32::try_from(i + 1).unwrap_or(u32::MAX));
                deployment
                    .station(id, Role::Vehicle)
                    .map_err(|e| err(format!("station {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let forms = stations.first().and_then(|s| {
            let d = s.describe();
            let bytes = |name: &str| {
                d.messages
                    .iter()
                    .find(|m| m.message == name)
                    .map(|m| u32::try_from(m.overhead_bytes).unwrap_or(u32::MAX))
            };
            // Certificate-only protocols (no digest form) say so with a digest of 0 bytes.
            Some((bytes("data-certificate")?, bytes("data-digest").unwrap_or(0)))
        });
        Ok(RealStations {
            forms,
            commitments: vec![Vec::new(); stations.len()],
            bootstrapped: HashMap::new(),
            keys: HashMap::new(),
            owed_keys: vec![Vec::new(); stations.len()],
            pending: HashMap::new(),
            decided: HashMap::new(),
            stations,
            payload_len,
            cams: HashMap::new(),
            attacks: HashMap::new(),
            order: VecDeque::new(),
            // A receiver verifies a packet by its deadline after reception; the MAC holds a
            // frame far less than a second.
            keep_ns: model.deadline_ns.saturating_add(2_000_000_000),
        })
    }

    /// Secures a CAM payload naming its sender and number (so no two are alike).
    fn encap(&mut self, node: NodeId, seq: u32, now_ns: u64) -> Result<Vec<u8>, String> {
        let mut payload = vec![0u8; self.payload_len.max(8)];
        payload[..4].copy_from_slice(&node.0.to_be_bytes());
        payload[4..8].copy_from_slice(&seq.to_be_bytes());
        let station = self
            .stations
            .get_mut(node.index())
            .ok_or_else(|| format!("no station {node}"))?;
        let packets = station.encap(&payload, now_ts(now_ns)).map_err(|e| e.to_string())?;
        let of = |kind: PacketKind| packets.iter().filter(move |p| p.kind == kind).map(|p| p.bytes.clone());
        if let Some(c) = self.commitments.get_mut(node.index()) {
            c.extend(of(PacketKind::Commitment));
        }
        if let Some(k) = self.owed_keys.get_mut(node.index()) {
            k.extend(of(PacketKind::KeyDisclosure));
        }
        data_packet(&packets)
            .map(|p| p.bytes.clone())
            .ok_or_else(|| "no data packet".into())
    }

    /// Hands `node` the commitments of `src` it has not taken in yet (out of band).
    fn bootstrap(&mut self, node: NodeId, src: NodeId, now_ns: u64) {
        let (Some(sent), Some(station)) = (self.commitments.get(src.index()), self.stations.get_mut(node.index()))
        else {
            return;
        };
        let done = self.bootstrapped.entry((node, src)).or_default();
        for c in sent.iter().skip(*done) {
            station.decap(c, now_ts(now_ns));
        }
        *done = sent.len();
    }

    /// Records what a TESLA decap decided: the packet itself (`this`) and released ones.
    fn settle(&mut self, node: NodeId, this: Option<(NodeId, u32)>, d: Decapsulated) -> Vec<Decided> {
        let mut out = Vec::new();
        match (this, d.outcome) {
            (Some(cam), DecapOutcome::Pending(id)) => {
                self.pending.insert((node, id), cam);
            }
            (Some((src, seq)), outcome) => out.push(Decided {
                src,
                seq,
                verdict: verdict(outcome),
            }),
            (None, _) => {}
        }
        for r in d.released {
            if let Some((src, seq)) = self.pending.remove(&(node, r.id)) {
                let verdict = match r.result {
                    Ok(_) => Verdict::Accepted,
                    Err(e) => rejected(e.reason),
                };
                out.push(Decided { src, seq, verdict });
            }
        }
        for d in &out {
            self.decided.insert((node, d.src, d.seq), d.verdict);
        }
        out
    }

    fn security_bytes(&self, packet: &[u8]) -> u32 {
        u32::try_from(packet.len().saturating_sub(self.payload_len.max(8))).unwrap_or(u32::MAX)
    }

    fn forget_before(&mut self, now_ns: u64) {
        while let Some((t, _)) = self.order.front() {
            if now_ns.saturating_sub(*t) <= self.keep_ns {
                break;
            }
            match self.order.pop_front().map(|o| o.1) {
                Some(Key::Cam(n, s)) => {
                    self.cams.remove(&(n, s));
                }
                Some(Key::Attack(n, t)) => {
                    self.attacks.remove(&(n, t));
                }
                Some(Key::Keys(n, s)) => {
                    self.keys.remove(&(n, s));
                }
                None => {}
            }
        }
    }
}

/// A rejection as the simulator counts it: reasons that mean "signer not known yet" are
/// its unknown-certificate loss.
fn rejected(r: RejectReason) -> Verdict {
    Verdict::Rejected {
        reason: r.code(),
        unknown_signer: matches!(
            r,
            RejectReason::SignerCertificateNotFound | RejectReason::UnknownSender | RejectReason::UnknownKey
        ),
    }
}

fn verdict(outcome: DecapOutcome) -> Verdict {
    match outcome {
        DecapOutcome::Accepted(_) => Verdict::Accepted,
        DecapOutcome::Rejected(r) => rejected(r.reason),
        DecapOutcome::Pending(_) => Verdict::Rejected {
            reason: "still-pending",
            unknown_signer: false,
        },
        DecapOutcome::Control(_) => Verdict::Rejected {
            reason: "control-packet",
            unknown_signer: false,
        },
    }
}

impl StationCrypto for RealStations {
    fn secure_cam(&mut self, node: NodeId, seq: u32, now_ns: u64) -> Result<Secured, String> {
        self.forget_before(now_ns);
        let packet = self.encap(node, seq, now_ns)?;
        let security_bytes = self.security_bytes(&packet);
        // Which form the real station chose: the nearer of its two described sizes.
        let certificate = self
            .forms
            .is_some_and(|(c, d)| security_bytes.abs_diff(c) < security_bytes.abs_diff(d));
        self.cams.insert((node, seq), packet);
        self.order.push_back((now_ns, Key::Cam(node, seq)));
        Ok(Secured {
            security_bytes,
            certificate,
        })
    }

    fn forge(&mut self, node: NodeId, kind: AttackKind, now_ns: u64) -> Result<u32, String> {
        if !REAL_CRYPTO_ATTACKS.contains(&kind) {
            return Err(format!("attack {} is not forged by real stations", kind.name()));
        }
        // A-SIG-01 as the testbed forges it: a genuinely secured CAM with the last byte
        // flipped (the signature's s for 1609.2 / v1.2.1, the MAC or tag otherwise).
        let mut packet = self.encap(node, u32::MAX, now_ns)?;
        if let Some(b) = packet.last_mut() {
            *b ^= 0x01;
        }
        let bytes = self.security_bytes(&packet);
        self.attacks.insert((node, now_ns), packet);
        self.order.push_back((now_ns, Key::Attack(node, now_ns)));
        Ok(bytes)
    }

    fn verify(&mut self, node: NodeId, frame: FrameRef, now_ns: u64) -> Verdict {
        if let FrameRef::Cam { src, seq } = frame {
            // A TESLA CAM: what its key decided.
            if let Some(v) = self.decided.remove(&(node, src, seq)) {
                return v;
            }
        }
        let packet = match frame {
            FrameRef::Cam { src, seq } => self.cams.get(&(src, seq)),
            FrameRef::Attack { src, gen_ns } => self.attacks.get(&(src, gen_ns)),
        };
        let (Some(packet), Some(station)) = (packet, self.stations.get_mut(node.index())) else {
            return Verdict::Rejected {
                reason: "forgotten-by-simulator",
                unknown_signer: false,
            };
        };
        verdict(station.decap(packet, now_ts(now_ns)).outcome)
    }

    fn receive_delayed(&mut self, node: NodeId, src: NodeId, seq: u32, now_ns: u64) -> Vec<Decided> {
        self.bootstrap(node, src, now_ns);
        let (Some(packet), Some(station)) = (self.cams.get(&(src, seq)), self.stations.get_mut(node.index())) else {
            return Vec::new();
        };
        let d = station.decap(packet, now_ts(now_ns));
        self.settle(node, Some((src, seq)), d)
    }

    fn disclose_key(&mut self, node: NodeId, seq: u32, now_ns: u64) -> Option<u32> {
        let station = self.stations.get_mut(node.index())?;
        let mut keys = std::mem::take(self.owed_keys.get_mut(node.index())?);
        keys.extend(
            station
                .poll(now_ts(now_ns))
                .send
                .into_iter()
                .filter(|p| p.kind == PacketKind::KeyDisclosure)
                .map(|p| p.bytes),
        );
        let bytes = keys.iter().map(Vec::len).sum::<usize>();
        if keys.is_empty() {
            return None;
        }
        self.keys.insert((node, seq), keys);
        self.order.push_back((now_ns, Key::Keys(node, seq)));
        u32::try_from(bytes).ok()
    }

    fn receive_key(&mut self, node: NodeId, src: NodeId, seq: u32, now_ns: u64) -> Vec<Decided> {
        self.bootstrap(node, src, now_ns);
        let Some(keys) = self.keys.get(&(src, seq)).cloned() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for k in keys {
            let Some(station) = self.stations.get_mut(node.index()) else {
                break;
            };
            let d = station.decap(&k, now_ts(now_ns));
            out.extend(self.settle(node, None, d));
        }
        out
    }
}
