//! One ITS station as an OS process (`v2x station --config FILE`): it loads its own
//! credentials from the PKI directory, sends secured CAMs/DENMs over UDP at a set rate
//! (benign, or one of the attack cases), and — as a receiver — verifies every datagram
//! with a pool of verifier threads, logging each packet (see [`crate::log`]).
//!
//! Receiver pipeline: one socket thread reads datagrams, stamps them and routes them to
//! a verifier thread by source address (so that one sender's packets meet one replay
//! window, in order). Each verifier owns its own [`Authenticator`] and a bounded queue
//! (FIFO, or known signers first: [`crate::defence`]); a full queue drops the datagram
//! (`queue-overflow`), and a packet that waited longer than the deadline is dropped
//! unverified (`deadline-expired`) — the two kinds of security-layer loss PRESERVE's
//! stack showed under flooding (paper 002 §4.2). The socket thread applies the enabled
//! defences (rate limit, `precheck`) before a packet takes a queue slot.

use crate::credentials::{BuildOptions, CredentialError, StationCredentials, Trust};
use crate::defence::{Buckets, Header, HeaderReader, KnownSigners, Precheck, Pushed, SignerKey, WorkQueue};
use crate::functional::FunctionalCase;
use crate::log::{
    digest, digest_hex, EventRecord, Log, Logger, RxRecord, TxRecord, EVENT_LISTENING, EVENT_PEERS, EVENT_REFUSED,
};
use crate::payload::{MessageKind, Payload, DEFAULT_PAYLOAD_LEN};
use serde::{Deserialize, Serialize};
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use v2x_protocols::dot2::Dot2Profile;
use v2x_protocols::{Authenticator, DecapOutcome, PacketKind, ProtocolConfig, SenderId, Timestamp};

/// What a station does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Sends benign messages.
    Sender,
    /// Receives and verifies; sends nothing.
    Receiver,
    /// Sends attack packets of its `attack` case.
    Attacker,
}

/// The attack cases of paper 002 (§2.2.3) a station can mount.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attack {
    /// A-SIG-01: CAMs whose signature (authenticator) does not verify.
    #[serde(rename = "A-SIG-01")]
    InvalidSignature,
    /// A-SIG-02: DENMs whose signature does not verify.
    #[serde(rename = "A-SIG-02")]
    InvalidSignatureDenm,
    /// A-SIG-03: CAMs sent without any security (the bare application payload).
    #[serde(rename = "A-SIG-03")]
    Unsigned,
    /// A-SIG-04: a flood of invalid-signature CAMs at the attacker's (high) rate.
    #[serde(rename = "A-SIG-04")]
    Flood,
    /// A-SIG-05: every validly secured CAM is sent again after 100 ms (the copy is a replay).
    #[serde(rename = "A-SIG-05")]
    Replay,
    /// A-SIG-06: validly signed CAMs whose generation time is [`OLD_TIMESTAMP`] in the past.
    #[serde(rename = "A-SIG-06")]
    OldTimestamp,
    /// A-CER-03: validly signed CAMs from a ticket that expired before the run (the
    /// orchestrator issues such tickets to this case).
    #[serde(rename = "A-CER-03")]
    ExpiredCertificate,
    /// A-CON-01: validly signed DENMs from a ticket that only permits CAMs (content outside
    /// its permissions; the orchestrator issues CAM-only tickets to this case).
    #[serde(rename = "A-CON-01")]
    OutsidePermissions,
}

/// How old the generation time of an A-SIG-06 packet is: far beyond any freshness window
/// (1609.2 CAM receivers accept seconds, not a minute).
pub const OLD_TIMESTAMP: Duration = Duration::from_secs(60);

impl Attack {
    pub fn code(self) -> &'static str {
        match self {
            Attack::InvalidSignature => "A-SIG-01",
            Attack::InvalidSignatureDenm => "A-SIG-02",
            Attack::Unsigned => "A-SIG-03",
            Attack::Flood => "A-SIG-04",
            Attack::Replay => "A-SIG-05",
            Attack::OldTimestamp => "A-SIG-06",
            Attack::ExpiredCertificate => "A-CER-03",
            Attack::OutsidePermissions => "A-CON-01",
        }
    }

    /// Every case, in the order of the paper's code numbers.
    pub const ALL: [Attack; 8] = [
        Attack::InvalidSignature,
        Attack::InvalidSignatureDenm,
        Attack::Unsigned,
        Attack::Flood,
        Attack::Replay,
        Attack::OldTimestamp,
        Attack::ExpiredCertificate,
        Attack::OutsidePermissions,
    ];

    /// Whether this case needs the 1609.2 protocol (it rests on 1609.2 permissions).
    pub fn needs_ieee1609_2(self) -> bool {
        self == Attack::OutsidePermissions
    }

    fn kind(self) -> MessageKind {
        match self {
            Attack::InvalidSignatureDenm | Attack::OutsidePermissions => MessageKind::Denm,
            _ => MessageKind::Cam,
        }
    }

    /// Whether packets are corrupted after securing (the signature or tag no longer verifies).
    fn corrupts(self) -> bool {
        matches!(
            self,
            Attack::InvalidSignature | Attack::InvalidSignatureDenm | Attack::Flood
        )
    }
}

/// Everything a station process is told by the orchestrator (a TOML file).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StationConfig {
    /// PKI name of the station.
    pub name: String,
    /// Station number (payload origin, protocol station id).
    pub number: u32,
    pub role: Role,
    #[serde(default)]
    pub attack: Option<Attack>,
    pub protocol: ProtocolConfig,
    pub pki_dir: PathBuf,
    pub log_dir: PathBuf,
    /// Address to receive on (receivers); senders bind it when given (the channel
    /// emulator identifies them by it; in a namespace it is the namespace's address), else
    /// an ephemeral port on loopback.
    #[serde(default)]
    pub bind: Option<SocketAddr>,
    /// Where sent datagrams go (every receiver: loopback has no broadcast medium).
    #[serde(default)]
    pub peers: Vec<SocketAddr>,
    /// Messages per second (senders and attackers).
    #[serde(default)]
    pub rate_hz: f64,
    /// Sending time, seconds; receivers run `duration_s + linger_s`.
    pub duration_s: f64,
    #[serde(default = "default_linger")]
    pub linger_s: f64,
    /// Start sending at this TAI µs (all senders share it); 0 = at once.
    #[serde(default)]
    pub start_at_us: u64,
    #[serde(default = "default_payload_len")]
    pub payload_len: usize,
    /// The receiver's verifier pool and defences (receivers).
    #[serde(default)]
    pub receiver: ReceiverOptions,
    /// F-PSN-01: change to the next pseudonym (1609.2 ticket) this often, s (0 = never).
    #[serde(default)]
    pub pseudonym_change_s: f64,
    /// Exit when this process is gone (the orchestrator): no orphans.
    #[serde(default)]
    pub parent_pid: Option<u32>,
    /// A sender of one of paper 002's functional cases ([`crate::functional`]).
    #[serde(default)]
    pub functional: Option<FunctionalCase>,
    /// Whose certificates the station trusts (F-CER-02's receiver lacks the AA).
    #[serde(default)]
    pub trust: Trust,
    /// Receivers: each verifier thread also sends its own CAMs (at most [`BEACON_PERIOD`]
    /// apart) to the sources it verified packets from — on loopback, the stand-in for the
    /// station's broadcast CAMs, which carry its P2PCD requests (F-CER-02).
    #[serde(default)]
    pub beacon: bool,
}

/// Shortest time between two CAMs of a beaconing receiver's verifier thread (10 Hz).
pub const BEACON_PERIOD: Duration = Duration::from_millis(100);

fn default_linger() -> f64 {
    1.0
}
fn default_payload_len() -> usize {
    DEFAULT_PAYLOAD_LEN
}
fn default_verifiers() -> u32 {
    2
}
fn default_queue() -> usize {
    1024
}
fn default_deadline() -> u64 {
    100
}

/// The receiver's verifier pool and DoS defences.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReceiverOptions {
    #[serde(default = "default_verifiers")]
    pub verifier_threads: u32,
    #[serde(default = "default_queue")]
    pub queue_capacity: usize,
    #[serde(default = "default_deadline")]
    pub deadline_ms: u64,
    /// Defence: Hz per source address (0 = off); see [`crate::defence`].
    #[serde(default)]
    pub rate_limit_per_source_hz: f64,
    /// Defence: cheap 1609.2 header checks before a packet is queued (ieee1609.2 only).
    #[serde(default)]
    pub precheck: bool,
    /// Defence: packets of already verified signers are verified first.
    #[serde(default)]
    pub known_signers_first: bool,
    /// Cap of each known signer's priority share, Hz (0 = no cap).
    #[serde(default)]
    pub known_signer_rate_hz: f64,
    /// Lab setting: sleep this long after every decap that reached the signature check,
    /// emulating a slower processor (0 = off).
    #[serde(default)]
    pub emulated_verify_cost_us: u64,
    /// `[receiver.verifier]`: `strategy = "plain"` (default) or `"precomputed"` (opt-in
    /// per-signer tables, with `build_after`, `max_bytes`, `window`, `max_tracked`).
    #[serde(default)]
    pub verifier: v2x_crypto::VerifyStrategy,
}

impl Default for ReceiverOptions {
    fn default() -> Self {
        ReceiverOptions {
            verifier_threads: default_verifiers(),
            queue_capacity: default_queue(),
            deadline_ms: default_deadline(),
            rate_limit_per_source_hz: 0.0,
            precheck: false,
            known_signers_first: false,
            known_signer_rate_hz: 0.0,
            emulated_verify_cost_us: 0,
            verifier: v2x_crypto::VerifyStrategy::Plain,
        }
    }
}

impl ReceiverOptions {
    /// The defences switched on, by option name.
    pub fn defences(&self) -> Vec<String> {
        let mut d = Vec::new();
        if self.rate_limit_per_source_hz > 0.0 {
            d.push(format!("rate_limit_per_source_hz = {}", self.rate_limit_per_source_hz));
        }
        if self.precheck {
            d.push("precheck".into());
        }
        if self.known_signers_first {
            d.push("known_signers_first".into());
        }
        d
    }

    /// The same receiver with every defence off.
    pub fn undefended(&self) -> ReceiverOptions {
        ReceiverOptions {
            rate_limit_per_source_hz: 0.0,
            precheck: false,
            known_signers_first: false,
            known_signer_rate_hz: 0.0,
            ..self.clone()
        }
    }
}

/// Why a station could not run.
#[derive(Debug, thiserror::Error)]
pub enum StationError {
    #[error("station config {path}: {msg}")]
    Config { path: PathBuf, msg: String },
    #[error(transparent)]
    Credentials(#[from] CredentialError),
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("securing a message: {0}")]
    Encap(String),
}

impl StationConfig {
    pub fn load(path: &Path) -> Result<StationConfig, StationError> {
        let text = std::fs::read_to_string(path).map_err(|e| StationError::Config {
            path: path.into(),
            msg: e.to_string(),
        })?;
        toml::from_str(&text).map_err(|e| StationError::Config {
            path: path.into(),
            msg: e.to_string(),
        })
    }
}

fn event(log: &Log, name: &str, ev: &str, detail: String) {
    log.event(EventRecord {
        station: name.to_string(),
        time_us: crate::clock::now_us(),
        event: ev.to_string(),
        detail,
    });
}

/// Runs a station to its end; the log directory then holds its complete log.
pub fn run(cfg: &StationConfig) -> Result<(), StationError> {
    let creds = StationCredentials::open(
        &cfg.pki_dir,
        &cfg.name,
        cfg.number,
        &cfg.protocol,
        BuildOptions {
            // Attack packets carry the full certificate: the receiver must verify each.
            always_certificate: cfg.role == Role::Attacker
                || cfg.functional.is_some_and(FunctionalCase::always_certificate),
            trust: cfg.trust,
            verifier: cfg.receiver.verifier,
            insecure_sign_with_invalid_certificate: cfg.attack == Some(Attack::ExpiredCertificate),
            insecure_sign_outside_permissions: cfg.attack == Some(Attack::OutsidePermissions),
            pseudonym_change: (cfg.pseudonym_change_s > 0.0).then(|| Duration::from_secs_f64(cfg.pseudonym_change_s)),
            // DENM cases are secured with the DENM profile (PSID 37, certificate signer, location).
            profile: (cfg.attack.map(Attack::kind) == Some(MessageKind::Denm)).then_some(Dot2Profile::Denm),
        },
    )?;
    let logger = Logger::start(&cfg.log_dir)?;
    let log = logger.log();
    event(
        &log,
        &cfg.name,
        "start",
        format!("{:?} pid {}", cfg.role, std::process::id()),
    );
    let stop = Arc::new(AtomicBool::new(false));
    crate::process::stop_on_signal_or_orphaned(cfg.parent_pid, stop.clone());
    let result = match cfg.role {
        Role::Receiver => receive(cfg, &creds, &log, &stop),
        Role::Sender | Role::Attacker => send(cfg, &creds, &log, &stop),
    };
    if let Err(e) = &result {
        event(&log, &cfg.name, "error", e.to_string());
    }
    event(&log, &cfg.name, "usage", crate::process::usage());
    event(&log, &cfg.name, "stop", String::new());
    drop(log);
    logger.finish()?;
    result
}

fn send(cfg: &StationConfig, creds: &StationCredentials, log: &Log, stop: &AtomicBool) -> Result<(), StationError> {
    let mut auth = creds.authenticator()?;
    // F-SIG-03 alternates CAMs and DENMs: the DENMs are secured with the DENM profile.
    let mut denm_auth = match cfg.functional {
        Some(f) if f.sends_denms() => Some(creds.authenticator_with(Some(Dot2Profile::Denm))?),
        _ => None,
    };
    // Through the channel emulator or in a network namespace a sender binds its assigned
    // address (how the emulator knows who transmits; its namespace's); else any port.
    let sock = match cfg.bind {
        Some(addr) => UdpSocket::bind(addr)?,
        None => UdpSocket::bind("127.0.0.1:0")?,
    };
    let listens = cfg.functional.is_some_and(FunctionalCase::listens);
    if listens {
        sock.set_nonblocking(true)?;
    }
    let peers: Vec<String> = cfg.peers.iter().map(|p| p.to_string()).collect();
    event(log, &cfg.name, EVENT_PEERS, peers.join(" "));
    let case = match (cfg.attack, cfg.functional) {
        (Some(a), _) => a.code().to_string(),
        (None, Some(f)) => f.code().to_string(),
        (None, None) => "benign".into(),
    };
    let role = if cfg.role == Role::Attacker {
        "attacker"
    } else {
        "sender"
    };
    if cfg.rate_hz <= 0.0 {
        return Err(StationError::Encap(format!("rate_hz must be > 0, got {}", cfg.rate_hz)));
    }
    let period_us = (1e6 / cfg.rate_hz) as u64;
    let start = if cfg.start_at_us > 0 {
        cfg.start_at_us
    } else {
        crate::clock::now_us()
    };
    let end = start + (cfg.duration_s * 1e6) as u64;
    // Each station starts at its own phase inside the period (as unsynchronised OBUs do).
    let phase = (u64::from(cfg.number) * 7919) % period_us.max(1);
    let mut replays: std::collections::VecDeque<(u64, Vec<u8>, u64)> = Default::default();
    let mut buf = vec![0u8; 65_536];
    let kind = cfg.attack.map(Attack::kind).unwrap_or(MessageKind::Cam);
    let mut counter = 0u64;
    let mut next = start + phase;
    while !stop.load(Ordering::Relaxed) {
        crate::clock::sleep_until(next);
        let now = crate::clock::now_us();
        // Replays due now.
        while replays.front().is_some_and(|r| r.0 <= now) {
            let (_, bytes, c) = replays.pop_front().expect("checked");
            let sent = transmit(&sock, &cfg.peers, &bytes);
            log.tx(TxRecord {
                station: cfg.name.clone(),
                origin: cfg.number,
                role: role.into(),
                case: case.clone(),
                kind: kind.name().into(),
                packet: "replay".into(),
                counter: Some(c),
                digest: digest_hex(digest(&bytes)),
                generated_us: now,
                sent_us: crate::clock::now_us(),
                encap_ns: 0,
                bytes: bytes.len(),
                signer: String::new(),
                copies: sent,
            });
        }
        if now >= end {
            if replays.is_empty() {
                break;
            }
            next = replays.front().map(|r| r.0).unwrap_or(now);
            continue;
        }
        if listens {
            hear(&sock, auth.as_mut(), &mut buf, log, &cfg.name);
        }
        let (kind, auth) = match denm_auth.as_mut() {
            Some(denm) if counter % 2 == 1 => (MessageKind::Denm, denm),
            _ => (kind, &mut auth),
        };
        let payload = Payload {
            kind,
            origin: cfg.number,
            counter,
            generated_us: now,
        }
        .encode(cfg.payload_len);
        let generated = if cfg.attack == Some(Attack::OldTimestamp) {
            Timestamp(crate::clock::now_us().saturating_sub(OLD_TIMESTAMP.as_micros() as u64))
        } else {
            crate::clock::now()
        };
        let t0 = std::time::Instant::now();
        let packets = match auth.encap(&payload, generated) {
            Ok(p) => p,
            // A functional case's refusal is its outcome (F-SIG-06): logged, nothing sent.
            Err(e) if cfg.functional.is_some() => {
                event(log, &cfg.name, EVENT_REFUSED, format!("{case}: {e}"));
                counter += 1;
                next += period_us;
                continue;
            }
            Err(e) => return Err(StationError::Encap(e.to_string())),
        };
        let encap_ns = t0.elapsed().as_nanos() as u64;
        for p in packets {
            let mut bytes = p.bytes;
            let is_data = p.kind == PacketKind::Data;
            if cfg.attack == Some(Attack::Unsigned) {
                if !is_data {
                    continue; // an unsigned sender has no keys to disclose or commit
                }
                bytes = payload.clone();
            }
            if is_data && cfg.attack.is_some_and(Attack::corrupts) {
                // Flip the last byte: the signature's s (1609.2, v1.2.1) or the MAC/tag.
                if let Some(b) = bytes.last_mut() {
                    *b ^= 0x01;
                }
            }
            let sent = transmit(&sock, &cfg.peers, &bytes);
            log.tx(TxRecord {
                station: cfg.name.clone(),
                origin: cfg.number,
                role: role.into(),
                // The validly secured originals a replay attacker copies are their own case.
                case: if cfg.attack == Some(Attack::Replay) {
                    format!("{case}-source")
                } else {
                    case.clone()
                },
                kind: if is_data { kind.name().into() } else { String::new() },
                packet: packet_name(p.kind),
                counter: is_data.then_some(counter),
                digest: digest_hex(digest(&bytes)),
                generated_us: now,
                sent_us: crate::clock::now_us(),
                encap_ns,
                bytes: bytes.len(),
                signer: String::new(),
                copies: sent,
            });
            if is_data && cfg.attack == Some(Attack::Replay) {
                replays.push_back((now + 100_000, bytes, counter));
            }
        }
        for p in auth.poll(crate::clock::now()).send {
            transmit(&sock, &cfg.peers, &p.bytes);
        }
        counter += 1;
        next += period_us;
        if next < crate::clock::now_us().saturating_sub(period_us * 10) {
            // Far behind (an overloaded machine): skip the backlog instead of bursting.
            event(log, &cfg.name, "behind", format!("counter {counter}"));
            next = crate::clock::now_us();
        }
    }
    Ok(())
}

/// Reads what reached a sender's socket (non-blocking) and verifies it with the sender's
/// own authenticator: how it hears the P2PCD requests in its neighbours' CAMs (and
/// answers them in its next CAM).
fn hear(sock: &UdpSocket, auth: &mut dyn Authenticator, buf: &mut [u8], log: &Log, name: &str) {
    while let Ok((n, src)) = sock.recv_from(buf) {
        let out = auth.decap(&buf[..n], crate::clock::now());
        let verdict = match &out.outcome {
            DecapOutcome::Rejected(r) => format!("rejected {}", r.reason.code()),
            DecapOutcome::Accepted(_) => "accepted".into(),
            _ => "other".into(),
        };
        event(log, name, "heard", format!("{src}: {verdict}"));
    }
}

fn packet_name(k: PacketKind) -> String {
    match k {
        PacketKind::Data => "data".into(),
        PacketKind::KeyDisclosure => "key-disclosure".into(),
        PacketKind::Commitment => "commitment".into(),
        PacketKind::Handshake(n) => format!("handshake-{n}"),
        PacketKind::GroupKey => "group-key".into(),
        PacketKind::Revocation => "revocation".into(),
    }
}

/// Sends `bytes` to every peer; returns how many copies left.
fn transmit(sock: &UdpSocket, peers: &[SocketAddr], bytes: &[u8]) -> u32 {
    peers.iter().filter(|p| sock.send_to(bytes, p).is_ok()).count() as u32
}

struct Received {
    bytes: Vec<u8>,
    src: SocketAddr,
    received_us: u64,
    queue_len: u32,
    /// Who it claims to come from (signer certificate, else source address).
    signer: SignerKey,
}

fn sender_name(s: &SenderId) -> String {
    match s {
        SenderId::Claimed(id) => format!("station-{}", id.0),
        SenderId::Pseudonym(b) | SenderId::Address(b) => hex::encode(b),
        SenderId::Certificate(h) => hex::encode(h),
    }
}

fn receive(cfg: &StationConfig, creds: &StationCredentials, log: &Log, stop: &AtomicBool) -> Result<(), StationError> {
    let bind = cfg.bind.ok_or_else(|| StationError::Config {
        path: cfg.log_dir.clone(),
        msg: "a receiver needs `bind`".into(),
    })?;
    let dot2 = matches!(cfg.protocol, ProtocolConfig::Ieee1609Dot2(_));
    let mut precheck = match (cfg.receiver.precheck, dot2) {
        (false, _) => None,
        (true, true) => Some(Precheck::new(creds.known_issuers()?)),
        (true, false) => {
            return Err(StationError::Config {
                path: cfg.log_dir.clone(),
                msg: "precheck needs protocol \"ieee1609.2\"".into(),
            })
        }
    };
    let sock = UdpSocket::bind(bind)?;
    event(log, &cfg.name, EVENT_LISTENING, bind.to_string());
    // A large receive buffer: the kernel, not our queue, should be the last resort.
    let _ = nix::sys::socket::setsockopt(&sock, nix::sys::socket::sockopt::RcvBuf, &(8 << 20));
    sock.set_read_timeout(Some(Duration::from_millis(50)))?;
    let k = cfg.receiver.verifier_threads.max(1) as usize;
    let known = Arc::new(KnownSigners::default());
    let mut queues: Vec<Arc<WorkQueue<Received>>> = Vec::with_capacity(k);
    let mut workers = Vec::with_capacity(k);
    for w in 0..k {
        let queue = Arc::new(WorkQueue::new(
            cfg.receiver.queue_capacity,
            cfg.receiver.known_signers_first,
        ));
        queues.push(queue.clone());
        let mut auth = creds.authenticator()?;
        let log = log.clone();
        let name = cfg.name.clone();
        let known = known.clone();
        let limits = Limits {
            deadline_us: cfg.receiver.deadline_ms * 1000,
            emulated_cost: Duration::from_micros(cfg.receiver.emulated_verify_cost_us),
        };
        let mut beacon = if cfg.beacon {
            Some(Beacon::new(sock.try_clone()?, cfg.number, cfg.payload_len))
        } else {
            None
        };
        workers.push(std::thread::spawn(move || {
            while let Some(r) = queue.pop() {
                let signer = r.signer.clone();
                let src = r.src;
                if verify(&name, w as u32, auth.as_mut(), r, limits, &log) {
                    known.insert(signer);
                }
                if let Some(b) = beacon.as_mut() {
                    b.heard(src);
                    b.maybe_send(auth.as_mut(), &log, &name);
                }
            }
        }));
    }
    let end = cfg.start_at_us.max(crate::clock::now_us()) + ((cfg.duration_s + cfg.linger_s) * 1e6) as u64;
    let mut buf = vec![0u8; 65_536];
    let mut per_source: Buckets<SocketAddr> = Buckets::default();
    let mut per_signer: Buckets<SignerKey> = Buckets::default();
    let mut headers = HeaderReader::default();
    let result = loop {
        if stop.load(Ordering::Relaxed) || crate::clock::now_us() >= end {
            break Ok(());
        }
        let (n, src) = match sock.recv_from(&mut buf) {
            Ok(x) => x,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => continue,
            Err(e) => break Err(e.into()),
        };
        let received_us = crate::clock::now_us();
        let bytes = buf[..n].to_vec();
        let w = (digest(src.to_string().as_bytes()) % k as u64) as usize;
        let unverified = |bytes: &[u8], stage: &str, verdict: &str, reason: &str, worker: Option<u32>| RxRecord {
            station: cfg.name.clone(),
            src: src.to_string(),
            digest: digest_hex(digest(bytes)),
            bytes: bytes.len(),
            received_us,
            worker,
            queue_len: None,
            verify_start_us: None,
            verify_end_us: None,
            stage: stage.into(),
            verdict: verdict.into(),
            reason: reason.into(),
            sender: String::new(),
            origin: None,
            counter: None,
            generated_us: None,
            kind: String::new(),
        };
        if cfg.receiver.rate_limit_per_source_hz > 0.0
            && !per_source.take(src, received_us, cfg.receiver.rate_limit_per_source_hz)
        {
            log.rx(unverified(&bytes, "precheck", "dropped", "rate-limited", None));
            continue;
        }
        let header = (dot2 && (precheck.is_some() || cfg.receiver.known_signers_first)).then(|| headers.peek(&bytes));
        if let Some(pre) = precheck.as_mut() {
            let verdict = match &header {
                Some(Ok(h)) => pre.check(&bytes, h, &known, received_us),
                Some(Err(reason)) => Err(*reason),
                None => Ok(()),
            };
            if let Err(reason) = verdict {
                log.rx(unverified(&bytes, "precheck", "rejected", reason, None));
                continue;
            }
        }
        let signer: SignerKey = match &header {
            Some(Ok(Header { signer: Some(id), .. })) => id.to_vec(),
            _ => src.to_string().into_bytes(),
        };
        let is_known = cfg.receiver.known_signers_first
            && known.contains(&signer)
            && (cfg.receiver.known_signer_rate_hz <= 0.0
                || per_signer.take(signer.clone(), received_us, cfg.receiver.known_signer_rate_hz));
        let item = Received {
            bytes,
            src,
            received_us,
            queue_len: queues[w].len() as u32,
            signer,
        };
        let overflow = |r: &Received| RxRecord {
            received_us: r.received_us,
            ..unverified(&r.bytes, "queue", "dropped", "queue-overflow", Some(w as u32))
        };
        match queues[w].push(item, src, is_known) {
            Pushed::Queued => {}
            Pushed::Evicted(old) => log.rx(overflow(&old)),
            Pushed::Full(r) => log.rx(overflow(&r)),
        }
    };
    for q in &queues {
        q.close();
    }
    for h in workers {
        let _ = h.join();
    }
    result
}

/// The own CAMs of a beaconing receiver's verifier thread ([`StationConfig::beacon`]),
/// secured with the thread's authenticator — the one whose SN-DECAP queued the P2PCD
/// requests they carry.
struct Beacon {
    sock: UdpSocket,
    heard: Vec<SocketAddr>,
    origin: u32,
    payload_len: usize,
    counter: u64,
    last: Option<std::time::Instant>,
}

impl Beacon {
    fn new(sock: UdpSocket, origin: u32, payload_len: usize) -> Beacon {
        Beacon {
            sock,
            heard: Vec::new(),
            origin,
            payload_len,
            counter: 0,
            last: None,
        }
    }

    fn heard(&mut self, src: SocketAddr) {
        if !self.heard.contains(&src) && self.heard.len() < 256 {
            self.heard.push(src);
        }
    }

    fn maybe_send(&mut self, auth: &mut dyn Authenticator, log: &Log, name: &str) {
        if self.last.is_some_and(|t| t.elapsed() < BEACON_PERIOD) {
            return;
        }
        self.last = Some(std::time::Instant::now());
        let now = crate::clock::now();
        let payload = Payload {
            kind: MessageKind::Cam,
            origin: self.origin,
            counter: self.counter,
            generated_us: now.as_micros(),
        }
        .encode(self.payload_len);
        self.counter += 1;
        match auth.encap(&payload, now) {
            Ok(packets) => {
                for p in packets {
                    transmit(&self.sock, &self.heard, &p.bytes);
                }
            }
            Err(e) => event(log, name, "beacon-refused", e.to_string()),
        }
    }
}

/// What a verifier thread enforces besides the protocol.
#[derive(Clone, Copy)]
struct Limits {
    /// Drop a packet that waited longer than this, µs (0 = no deadline).
    deadline_us: u64,
    /// Lab setting: sleep this long after each decap that reached the signature check.
    emulated_cost: Duration,
}

/// Reject reasons SN-DECAP (and the lightweight schemes) give before any signature or MAC
/// work: a decap that ends with one of them cost no verification.
const BEFORE_VERIFICATION: [&str; 12] = [
    "invalid-encoding",
    "incompatible-protocol",
    "unsigned-message",
    "unencrypted-message",
    "missing-header-field",
    "stale-message",
    "future-message",
    "signer-certificate-not-found",
    "unsupported-signer-identifier-type",
    "duplicate-message",
    "invalid-certificate",
    "unknown-key",
];

/// Verifies one queued packet and logs it; true when it was accepted.
fn verify(name: &str, worker: u32, auth: &mut dyn Authenticator, r: Received, limits: Limits, log: &Log) -> bool {
    let mut row = RxRecord {
        station: name.to_string(),
        src: r.src.to_string(),
        digest: digest_hex(digest(&r.bytes)),
        bytes: r.bytes.len(),
        received_us: r.received_us,
        worker: Some(worker),
        queue_len: Some(r.queue_len),
        verify_start_us: None,
        verify_end_us: None,
        stage: "verify".into(),
        verdict: String::new(),
        reason: String::new(),
        sender: String::new(),
        origin: None,
        counter: None,
        generated_us: None,
        kind: String::new(),
    };
    let start = crate::clock::now_us();
    if limits.deadline_us > 0 && start.saturating_sub(r.received_us) > limits.deadline_us {
        row.stage = "queue".into();
        row.verdict = "dropped".into();
        row.reason = "deadline-expired".into();
        log.rx(row);
        return false;
    }
    row.verify_start_us = Some(start);
    let out = auth.decap(&r.bytes, crate::clock::now());
    let verified = match &out.outcome {
        DecapOutcome::Rejected(rej) => !BEFORE_VERIFICATION.contains(&rej.reason.code()),
        _ => true,
    };
    if verified && !limits.emulated_cost.is_zero() {
        std::thread::sleep(limits.emulated_cost);
    }
    // Authenticated: accepted data, a valid control packet, or a pending packet released.
    let mut authenticated = matches!(out.outcome, DecapOutcome::Accepted(_) | DecapOutcome::Control(_));
    row.verify_end_us = Some(crate::clock::now_us());
    match out.outcome {
        DecapOutcome::Accepted(d) => {
            row.verdict = "accepted".into();
            row.sender = sender_name(&d.sender);
            fill_payload(&mut row, &d.payload);
        }
        DecapOutcome::Rejected(rej) => {
            row.verdict = "rejected".into();
            row.reason = rej.reason.code().to_string();
        }
        DecapOutcome::Pending(_) => row.verdict = "pending".into(),
        DecapOutcome::Control(k) => {
            row.verdict = "control".into();
            row.kind = packet_name(k);
        }
    }
    log.rx(row.clone());
    for rel in out.released {
        let mut r2 = row.clone();
        r2.stage = "release".into();
        r2.received_us = rel.received_at.as_micros();
        match rel.result {
            Ok(d) => {
                authenticated = true;
                r2.verdict = "accepted".into();
                r2.reason.clear();
                r2.sender = sender_name(&d.sender);
                fill_payload(&mut r2, &d.payload);
            }
            Err(rej) => {
                r2.verdict = "rejected".into();
                r2.reason = rej.reason.code().to_string();
            }
        }
        log.rx(r2);
    }
    authenticated
}

fn fill_payload(row: &mut RxRecord, payload: &[u8]) {
    if let Ok(p) = Payload::decode(payload) {
        row.origin = Some(p.origin);
        row.counter = Some(p.counter);
        row.generated_us = Some(p.generated_us);
        row.kind = p.kind.name().into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn attack_cases_use_the_paper_codes() {
        for a in [
            Attack::InvalidSignature,
            Attack::InvalidSignatureDenm,
            Attack::Flood,
            Attack::Replay,
        ] {
            let parsed: Attack =
                toml::from_str::<HashMap<String, Attack>>(&format!("case = \"{}\"", a.code())).unwrap()["case"];
            assert_eq!(parsed, a);
        }
        assert!(toml::from_str::<HashMap<String, Attack>>("case = \"A-SIG-99\"").is_err());
    }
}
