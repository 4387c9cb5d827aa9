//! The lightweight protocols (and the baseline) through the `Authenticator` interface,
//! exactly as the simulator and testbed drive them.
//!
//! A protocol is named by its `ProtocolConfig` (serde form), so protocols that a build
//! does not have are reported as not measured instead of failing the run.
//!
//! Time is simulated: the sender emits one payload every [`STEP_US`] (100 Hz, so a TESLA
//! receiver never holds more packets than its buffers allow) and the receiver processes
//! each packet [`RX_DELAY_US`] later. One timed ENCAP is one `encap` call plus any
//! timer packets due (`poll`, e.g. separate TESLA keys); one timed DECAP processes every
//! packet that payload produced (data, key, commitment), so control traffic is charged
//! to the messages it serves, amortised. DECAP replays a pool of distinct packets made at
//! set-up (replay detection forbids reuse); when the pool is used up a new receiver
//! station joins (inside the timed loop, amortised over the pool).

use crate::pool::WorkerOp;
use crate::task::{Label, Prepared, Setup, Task};
use crate::{BenchError, Suite};
use serde_json::json;
use std::hint::black_box;
use v2x_profile::{
    CertificatePolicy, KeyDisclosure, MessageId, Operation, PacketSizes, ProtocolId, SizesSource, Variant,
};
use v2x_protocols::{
    build_pair, pair_sender_role, Authenticator, DecapOutcome, Deployment, PacketKind, ProtocolConfig,
    ProtocolDescription, Role, Schedule, StationId, Timestamp,
};

/// Simulated time between two payloads of the sender.
pub const STEP_US: u64 = 10_000;
/// Simulated delay between sending and processing.
pub const RX_DELAY_US: u64 = 1_000;
const T0_US: u64 = 1_000_000;

/// One protocol configuration to measure.
#[derive(Debug, Clone)]
pub struct Spec {
    /// Profile protocol identifier (what `Authenticator::name` reports).
    pub protocol: ProtocolId,
    /// Message / layout label: `v2v`, `v2i`, `paper004`, `paper001`, `cam`.
    pub message: MessageId,
    pub config: serde_json::Value,
    pub note: &'static str,
    /// Two-way set-up (pairwise handshake, group key): sender and receiver must talk
    /// before data flows, so DECAP uses one receiver and a capped pool.
    pub handshake: bool,
}

pub fn specs() -> Vec<Spec> {
    vec![
        Spec {
            protocol: ProtocolId::None,
            message: MessageId::V2v,
            config: json!({"protocol": "none"}),
            note: "no security (baseline)",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::HashChain,
            message: MessageId::V2v,
            config: json!({"protocol": "hash-chain"}),
            note: "paper 001 Algorithm 1: HMAC-SHA256/96 with a pre-shared hash-chain key table",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::HashChain,
            message: MessageId::V2i,
            config: json!({"protocol": "hash-chain", "pair_link": "v2i"}),
            note: "paper 001 V2I variant: RSU authenticates with an ECDSA certificate",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::Tesla,
            message: MessageId::Paper004,
            config: json!({"protocol": "tesla", "layout": "paper004", "key_disclosure": "separate"}),
            note: "paper 004 layout, separate key packets (HMAC-SHA1, 10-byte MAC)",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::TeslaAttached,
            message: MessageId::Paper004,
            config: json!({"protocol": "tesla", "layout": "paper004", "key_disclosure": "attached"}),
            note: "paper 004 layout, key attached to the next beacon",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::TeslaAttached,
            message: MessageId::Paper001,
            config: json!({"protocol": "tesla", "layout": "paper001", "key_disclosure": "attached"}),
            note: "paper 001 layout: certificate digest and ECDSA signature on every packet",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::TwoFlip,
            message: MessageId::V2v,
            config: json!({"protocol": "2flip"}),
            note: "paper 001 §8 characterisation",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::Ieee16092,
            message: MessageId::Cam,
            config: json!({"protocol": "ieee1609.2"}),
            note: "the standard stack behind the same interface",
            handshake: false,
        },
        Spec {
            protocol: ProtocolId::EtsiV121,
            message: MessageId::Cam,
            config: json!({"protocol": "etsi-v1.2.1"}),
            note: "the legacy TS 103 097 v1.2.1 stack behind the same interface",
            handshake: false,
        },
        session(
            ProtocolId::RayaHubaux,
            MessageId::PairwiseHmac,
            "raya-hubaux",
            "pairwise",
            "hmac",
            "paper 003: m, HMAC_SK(m)",
        ),
        session(
            ProtocolId::Wang,
            MessageId::PairwiseHmac,
            "wang",
            "pairwise",
            "hmac",
            "paper 003: m, HMAC_SK(m)",
        ),
        session(
            ProtocolId::RayaHubaux,
            MessageId::PairwiseEncryptThenSignMac,
            "raya-hubaux",
            "pairwise",
            "encrypt-then-sign-mac",
            "paper 003: E_SK(m), Sig[HMAC_SK(E_SK(m))]",
        ),
        session(
            ProtocolId::RayaHubaux,
            MessageId::GroupHmac,
            "raya-hubaux",
            "group",
            "hmac",
            "paper 003: group key from the leader",
        ),
    ]
}

fn session(
    protocol: ProtocolId,
    message: MessageId,
    scheme: &str,
    topology: &str,
    protection: &str,
    note: &'static str,
) -> Spec {
    Spec {
        protocol,
        message,
        config: json!({"protocol": "session", "scheme": scheme, "topology": topology, "protection": protection,
                       "session_lifetime_ms": 1_000_000_000u64}),
        note,
        handshake: true,
    }
}

fn config_of(spec: &Spec) -> Result<ProtocolConfig, BenchError> {
    serde_json::from_value(spec.config.clone()).map_err(BenchError::ProtocolConfig)
}

fn setup_err<E: std::error::Error + Send + Sync + 'static>(e: E) -> BenchError {
    BenchError::SetupFailed {
        what: "protocol set-up".into(),
        source: Box::new(e),
    }
}

fn rejected(what: &str, r: &v2x_protocols::Rejection) -> BenchError {
    BenchError::Rejected(format!("{what}: {:?} {}", r.reason, r.detail))
}

/// The data packet's size in a steady-state `encap` output.
fn data_len(packets: &[v2x_protocols::OutgoingPacket]) -> Option<usize> {
    packets
        .iter()
        .find(|p| p.kind == PacketKind::Data)
        .map(|p| p.bytes.len())
}

/// Gives every payload its own content (a counter in its first bytes), as successive
/// beacons have: identical packets would be duplicates.
fn vary(payload: &mut [u8], seq: u64) {
    for (b, s) in payload.iter_mut().zip(seq.to_be_bytes()) {
        *b = s;
    }
}

/// Everything the sender transmits for one payload at `now` (encap output, then due timers).
fn send_unit(tx: &mut dyn Authenticator, payload: &mut [u8], now: Timestamp) -> Result<Vec<Vec<u8>>, BenchError> {
    vary(payload, now.0);
    let payload: &[u8] = payload;
    let mut out: Vec<Vec<u8>> = tx
        .encap(payload, now)
        .map_err(setup_err)?
        .into_iter()
        .map(|p| p.bytes)
        .collect();
    if tx.next_poll().is_some_and(|t| t <= now) {
        out.extend(tx.poll(now).send.into_iter().map(|p| p.bytes));
    }
    Ok(out)
}

/// Receives one unit; returns the number of payloads accepted (now or released).
fn receive_unit(rx: &mut dyn Authenticator, unit: &[Vec<u8>], now: Timestamp) -> Result<usize, BenchError> {
    let mut accepted = 0;
    for packet in unit {
        let d = rx.decap(packet, now);
        match &d.outcome {
            DecapOutcome::Accepted(_) => accepted += 1,
            DecapOutcome::Rejected(r) => return Err(rejected("packet", r)),
            DecapOutcome::Pending(_) | DecapOutcome::Control(_) => {}
        }
        for rel in &d.released {
            match &rel.result {
                Ok(_) => accepted += 1,
                Err(r) => return Err(rejected("released packet", r)),
            }
        }
    }
    Ok(accepted)
}

/// Runs the two-way set-up: delivers the sender's packets to the receiver and the
/// receiver's replies back, until a payload is accepted.
fn establish(
    tx: &mut dyn Authenticator,
    rx: &mut dyn Authenticator,
    payload: &mut [u8],
    t: &mut u64,
) -> Result<(), BenchError> {
    for _ in 0..20 {
        *t += STEP_US;
        let now = Timestamp(*t);
        vary(payload, *t);
        let mut to_rx: Vec<Vec<u8>> = tx
            .encap(payload, now)
            .map_err(setup_err)?
            .into_iter()
            .map(|p| p.bytes)
            .collect();
        let mut delivered = false;
        for _ in 0..8 {
            let mut to_tx = Vec::new();
            for p in to_rx.drain(..) {
                let d = rx.decap(&p, now);
                if let DecapOutcome::Rejected(r) = &d.outcome {
                    return Err(rejected("set-up", r));
                }
                delivered |= d.outcome.is_accepted() || d.released.iter().any(|r| r.result.is_ok());
                to_tx.extend(d.send.into_iter().map(|p| p.bytes));
            }
            if to_tx.is_empty() {
                break;
            }
            for p in to_tx {
                let d = tx.decap(&p, now);
                if let DecapOutcome::Rejected(r) = &d.outcome {
                    return Err(rejected("set-up reply", r));
                }
                to_rx.extend(d.send.into_iter().map(|p| p.bytes));
            }
        }
        if delivered {
            return Ok(());
        }
    }
    Err(BenchError::Setup("the two-way set-up did not complete".into()))
}

pub(crate) fn encap_setup(spec: Spec, payload_len: usize) -> Setup {
    Box::new(move || {
        let config = config_of(&spec)?;
        let (mut tx, mut rx) = build_pair(&config).map_err(setup_err)?;
        let mut payload = v2x_crypto::random_bytes(payload_len);
        let mut t = T0_US;
        if spec.handshake {
            establish(tx.as_mut(), rx.as_mut(), &mut payload, &mut t)?;
        }
        // Steady state: the first call may carry a commitment or a handshake.
        let mut size = None;
        for _ in 0..3 {
            t += STEP_US;
            vary(&mut payload, t);
            size = data_len(&tx.encap(&payload, Timestamp(t)).map_err(setup_err)?).or(size);
        }
        let op: WorkerOp = Box::new(move || {
            t += STEP_US;
            black_box(send_unit(tx.as_mut(), &mut payload, Timestamp(t))?);
            Ok(())
        });
        Ok(match size {
            Some(s) => Prepared::with_packet(op, s),
            None => Prepared::new(op),
        })
    })
}

fn pool_units(quick: bool) -> (usize, std::time::Duration) {
    if quick {
        (1024, std::time::Duration::from_millis(30))
    } else {
        (32_768, std::time::Duration::from_millis(300))
    }
}

/// Receiver side for two-way protocols: one established pair, a capped pool.
fn decap_setup_established(spec: Spec, payload_len: usize, quick: bool) -> Result<Prepared, BenchError> {
    let config = config_of(&spec)?;
    let (mut tx, mut rx) = build_pair(&config).map_err(setup_err)?;
    let mut payload = v2x_crypto::random_bytes(payload_len);
    let mut t = T0_US;
    establish(tx.as_mut(), rx.as_mut(), &mut payload, &mut t)?;
    let (max_units, budget) = pool_units(quick);
    let started = std::time::Instant::now();
    let mut units = Vec::with_capacity(max_units);
    while units.len() < max_units && (units.len() < 256 || started.elapsed() < budget) {
        t += STEP_US;
        units.push((
            Timestamp(t + RX_DELAY_US),
            send_unit(tx.as_mut(), &mut payload, Timestamp(t))?,
        ));
    }
    let size = units.iter().rev().find_map(|(_, u)| u.iter().map(Vec::len).max());
    let cap = units.len() as u64;
    let mut i = 0usize;
    let op: WorkerOp = Box::new(move || {
        let (now, unit) = units
            .get(i)
            .ok_or_else(|| BenchError::Setup("input pool exhausted".into()))?;
        black_box(receive_unit(rx.as_mut(), unit, *now)?);
        i += 1;
        Ok(())
    });
    Ok(Prepared {
        op,
        packet_bytes: size,
        max_calls: Some(cap),
    })
}

/// Receiver side: a pool of units and receivers that join the deployment as needed.
pub fn decap_setup(spec: Spec, payload_len: usize, quick: bool) -> Setup {
    Box::new(move || {
        if spec.handshake {
            return decap_setup_established(spec, payload_len, quick);
        }
        let config = config_of(&spec)?;
        let mut dep = Deployment::new(&config).map_err(setup_err)?;
        let mut tx = dep
            .station(StationId(1), pair_sender_role(&config))
            .map_err(setup_err)?;
        let mut payload = v2x_crypto::random_bytes(payload_len);
        // Up to `pool_units` units, within a set-up time budget for slow protocols.
        let (max_units, budget) = pool_units(quick);
        let started = std::time::Instant::now();
        let mut units = Vec::with_capacity(max_units);
        let mut i = 0u64;
        while units.len() < max_units && (units.len() < 256 || started.elapsed() < budget) {
            let t = Timestamp(T0_US + i * STEP_US);
            units.push((Timestamp(t.0 + RX_DELAY_US), send_unit(tx.as_mut(), &mut payload, t)?));
            i += 1;
        }
        let n = units.len();
        let size = units.iter().rev().find_map(|(_, u)| u.iter().map(Vec::len).max());
        // Check the pool once: every payload is accepted but the last few still waiting
        // for their keys.
        let mut next_id = 2u32;
        let mut check = dep.station(StationId(next_id), Role::Vehicle).map_err(setup_err)?;
        next_id += 1;
        let mut accepted = 0;
        for (now, unit) in &units {
            accepted += receive_unit(check.as_mut(), unit, *now)?;
        }
        if accepted + 64 < n {
            return Err(BenchError::Rejected(format!(
                "only {accepted} of {n} payloads accepted"
            )));
        }
        let mut rx = dep.station(StationId(next_id), Role::Vehicle).map_err(setup_err)?;
        next_id += 1;
        let mut i = 0usize;
        let op: WorkerOp = Box::new(move || {
            if i == units.len() {
                rx = dep.station(StationId(next_id), Role::Vehicle).map_err(setup_err)?;
                next_id = next_id.wrapping_add(1);
                i = 0;
            }
            let (now, unit) = &units[i];
            black_box(receive_unit(rx.as_mut(), unit, *now)?);
            i += 1;
            Ok(())
        });
        Ok(match size {
            Some(s) => Prepared::with_packet(op, s),
            None => Prepared::new(op),
        })
    })
}

fn label(spec: &Spec, op: Operation, payload: usize) -> Label {
    let variant = Variant {
        message: Some(spec.message),
        payload_bytes: Some(payload as u32),
        ..Variant::default()
    };
    Label::new(Suite::Protocols, spec.protocol, op, variant).note(spec.note)
}

pub fn tasks(quick: bool) -> Vec<Task> {
    let payloads: &[usize] = if quick { &[100] } else { &[100, 300] };
    let mut out = Vec::new();
    for spec in specs() {
        for &n in payloads {
            out.push(Task {
                label: label(&spec, Operation::Encap, n),
                setup: encap_setup(spec.clone(), n),
            });
            out.push(Task {
                label: label(&spec, Operation::Decap, n),
                setup: decap_setup(spec.clone(), n, quick),
            });
        }
    }
    out
}

/// Hash-chain V2V DECAP of a 100-byte payload (for the headline).
pub fn hash_chain_verify(quick: bool) -> Result<Setup, BenchError> {
    let spec = specs()
        .into_iter()
        .find(|s| s.protocol == ProtocolId::HashChain && s.message == MessageId::V2v)
        .ok_or_else(|| BenchError::Setup("no hash-chain spec".into()))?;
    config_of(&spec)?;
    Ok(decap_setup(spec, 100, quick))
}

/// Packet sizes and schedules of every broadcast protocol (not the two-way session
/// schemes), from `describe()` of a configured sender: what the simulator takes from the
/// profile. A protocol that cannot be described is reported in `skipped`.
pub fn packet_sizes(skipped: &mut Vec<String>) -> Vec<PacketSizes> {
    let mut out = Vec::new();
    for spec in specs().into_iter().filter(|s| !s.handshake) {
        let described = config_of(&spec).and_then(|c| build_pair(&c).map_err(setup_err));
        match described {
            Ok((tx, _)) => out.extend(sizes_of(&spec, &tx.describe())),
            Err(e) => skipped.push(format!("sizes of {} {}: {e}", spec.protocol, spec.message)),
        }
    }
    out
}

/// The simulator's view of a description: security bytes of the data packet (digest-signed
/// where there is a choice), with the full certificate, its schedule, TESLA key disclosure.
pub(crate) fn sizes_of(spec: &Spec, d: &ProtocolDescription) -> Option<PacketSizes> {
    let find = |name: &str| d.messages.iter().find(|m| m.message == name);
    let digest = find("data-digest");
    let certificate = find("data-certificate");
    let data = digest
        .or_else(|| find("data"))
        .or_else(|| find(spec.message.name()))
        .or(certificate)?;
    let policy = match (certificate, digest) {
        (Some(c), Some(_)) => Some(match c.schedule {
            Schedule::Periodic { every_us } => CertificatePolicy::Interval {
                interval_s: every_us as f64 / 1e6,
            },
            Schedule::EveryPayload => CertificatePolicy::Always,
            Schedule::Once | Schedule::OnEvent => CertificatePolicy::Never,
        }),
        (Some(_), None) => Some(CertificatePolicy::Always),
        (None, _) => Some(CertificatePolicy::Never),
    };
    let key_disclosure = d.delayed_verification.map(|dv| KeyDisclosure {
        delay_s: dv.interval_us as f64 * f64::from(dv.disclosure_delay_intervals) / 1e6,
        key_packet_bytes: if dv.key_attached {
            None
        } else {
            find("key-packet").map(|k| k.packet_bytes as u32)
        },
        key_frame_bytes: None,
        // Attached keys are part of the data packet's measured overhead.
        attached_key_bytes: dv.key_attached.then_some(0),
    });
    Some(PacketSizes {
        protocol: spec.protocol,
        variant: Variant {
            message: Some(spec.message),
            ..Variant::default()
        },
        source: SizesSource::Measured,
        overhead_bytes: data.overhead_bytes as u32,
        overhead_with_certificate_bytes: certificate.map(|c| c.overhead_bytes as u32),
        certificate: policy,
        key_disclosure,
    })
}
