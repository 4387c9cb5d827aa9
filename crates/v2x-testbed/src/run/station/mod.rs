//! One ITS station as an OS process (`v2x station --config FILE`): it loads its own
//! credentials from the PKI directory and either sends (benign, a functional case, or an
//! attack case: [`sender`]) or receives and verifies ([`receiver`]), logging each packet
//! ([`crate::log`]). This module holds the station's configuration and its thin socket
//! loops; the decisions are in [`sender`] and [`receiver`], which do no I/O.
//!
//! Receiver pipeline: one socket thread reads datagrams, stamps them, applies the enabled
//! defences ([`defence`]) and queues them ([`queue`]); `verifier_threads` threads take
//! from the queue and verify with the receiver's one SN-DECAP state. A full queue drops
//! (`queue-overflow`), and a packet that waited longer than the deadline is dropped
//! unverified (`deadline-expired`) — the two kinds of security-layer loss PRESERVE's
//! stack showed under flooding (paper 002 §4.2).

pub mod defence;
pub mod forge;
pub mod queue;
pub mod receiver;
pub mod sender;

use crate::case::attack::Content;
use crate::log::{Event, EventRecord, Log, Logger};
use crate::run::credentials::{BuildOptions, CredentialError, StationCredentials, Trust};
use crate::scenario::{FunctionalCase, ReceiverOptions};
// The paths callers used when these lived here.
pub use crate::scenario::{Attack, Role};
use defence::Standing;
use queue::{Pushed, WorkQueue};
use receiver::{Admission, Beacon, Limits, Security};
use sender::{Securing, Sender};
use serde::{Deserialize, Serialize};
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use v2x_protocols::dot2::Dot2Profile;
use v2x_protocols::{Authenticator, DecapOutcome, ProtocolConfig};

pub use crate::case::attack::OLD_TIMESTAMP;

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
    /// A receiver: the one address it listens on. A sender: the addresses of its source
    /// sockets (the channel emulator identifies senders by them; in a namespace they are
    /// the namespace's); none: one ephemeral port on 127.0.0.1.
    #[serde(default)]
    pub bind: Vec<SocketAddr>,
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
    /// A sender of one of paper 002's functional cases.
    #[serde(default)]
    pub functional: Option<FunctionalCase>,
    /// Whose certificates the station trusts (F-CER-02's receiver lacks the AA).
    #[serde(default)]
    pub trust: Trust,
    /// Receivers: also send own CAMs (at most [`receiver::BEACON_PERIOD`] apart) to the
    /// sources verified — on loopback, the stand-in for the station's broadcast CAMs,
    /// which carry its P2PCD requests (F-CER-02).
    #[serde(default)]
    pub beacon: bool,
    /// The forger (`copied-certificates`): the stations of the PKI whose certificates it
    /// copies.
    #[serde(default)]
    pub copies_certificates_of: Vec<String>,
}

fn default_linger() -> f64 {
    1.0
}
fn default_payload_len() -> usize {
    crate::payload::DEFAULT_PAYLOAD_LEN
}

/// Why a station could not run.
#[derive(Debug, thiserror::Error)]
pub enum StationError {
    #[error("station config {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("station config {path}: {source}")]
    Parse { path: PathBuf, source: toml::de::Error },
    #[error("station config: {field} {message}")]
    Invalid { field: &'static str, message: String },
    #[error(transparent)]
    Credentials(#[from] CredentialError),
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("securing a message: {0}")]
    Encap(#[from] v2x_protocols::EncapError),
    #[error(transparent)]
    Forge(#[from] forge::ForgeError),
}

impl StationConfig {
    pub fn load(path: &Path) -> Result<StationConfig, StationError> {
        let text = std::fs::read_to_string(path).map_err(|source| StationError::Read {
            path: path.into(),
            source,
        })?;
        toml::from_str(&text).map_err(|source| StationError::Parse {
            path: path.into(),
            source,
        })
    }

    /// When this station's run ends (receivers linger for the last packets).
    fn end_us(&self) -> u64 {
        self.start_at_us.max(crate::clock::now_us()) + ((self.duration_s + self.linger_s) * 1e6) as u64
    }
}

fn event(log: &Log, name: &str, event: Event, detail: String) {
    log.event(EventRecord {
        station: name.to_string(),
        time_us: crate::clock::now_us(),
        event,
        detail,
    });
}

/// Runs a station to its end; the log directory then holds its complete log.
pub fn run(cfg: &StationConfig) -> Result<(), StationError> {
    let tactic = cfg.attack.map(Attack::tactic);
    // A classical-downgrade attacker signs with its 1609.2 tickets, whatever the receivers require.
    let protocol = match tactic.map(|t| t.content) {
        Some(Content::SecuredClassically) => ProtocolConfig::Ieee1609Dot2(Default::default()),
        _ => cfg.protocol.clone(),
    };
    let creds = StationCredentials::open(
        &cfg.pki_dir,
        &cfg.name,
        cfg.number,
        &protocol,
        BuildOptions {
            // Attack packets carry the full certificate: the receiver must verify each.
            always_certificate: cfg.role == Role::Attacker
                || cfg.functional.is_some_and(FunctionalCase::always_certificate),
            trust: cfg.trust,
            verifier: cfg.receiver.verifier,
            insecure_sign_with_invalid_certificate: tactic.is_some_and(|t| t.insecure_sign_with_invalid_certificate),
            insecure_sign_outside_permissions: tactic.is_some_and(|t| t.insecure_sign_outside_permissions),
            pseudonym_change: (cfg.pseudonym_change_s > 0.0).then(|| Duration::from_secs_f64(cfg.pseudonym_change_s)),
            // DENM cases are secured with the DENM profile (PSID 37, certificate signer, location).
            profile: (tactic.map(|t| t.kind) == Some(crate::payload::MessageKind::Denm)).then_some(Dot2Profile::Denm),
        },
    )?;
    let logger = Logger::start(&cfg.log_dir)?;
    let log = logger.log();
    event(
        &log,
        &cfg.name,
        Event::Start,
        format!("{:?} pid {}", cfg.role, std::process::id()),
    );
    let stop = Arc::new(AtomicBool::new(false));
    crate::process::stop_on_signal_or_orphaned(cfg.parent_pid, stop.clone());
    let result = match cfg.role {
        Role::Receiver => receive(cfg, &creds, &log, &stop),
        Role::Sender | Role::Attacker => send(cfg, &creds, &log, &stop),
    };
    if let Err(e) = &result {
        event(&log, &cfg.name, Event::Error, e.to_string());
    }
    crate::process::log_usage(&log, &cfg.name);
    event(&log, &cfg.name, Event::Stop, String::new());
    drop(log);
    logger.finish()?;
    result
}

/// The sending loop: sockets, sleeping until the sender's next step, sending what it says.
fn send(cfg: &StationConfig, creds: &StationCredentials, log: &Log, stop: &AtomicBool) -> Result<(), StationError> {
    let mut securing = Securing {
        main: creds.authenticator()?,
        // F-SIG-03 alternates CAMs and DENMs: the DENMs are secured with the DENM profile.
        denm: match cfg.functional {
            Some(f) if f.sends_denms() => Some(creds.authenticator_with(Some(Dot2Profile::Denm))?),
            _ => None,
        },
    };
    let sockets: Vec<UdpSocket> = if cfg.bind.is_empty() {
        vec![UdpSocket::bind("127.0.0.1:0")?]
    } else {
        cfg.bind.iter().map(UdpSocket::bind).collect::<Result<_, _>>()?
    };
    let listens = cfg.functional.is_some_and(FunctionalCase::listens);
    if listens {
        sockets[0].set_nonblocking(true)?;
    }
    let peers: Vec<String> = cfg.peers.iter().map(|p| p.to_string()).collect();
    event(log, &cfg.name, Event::Peers, peers.join(" "));
    let forger = match cfg.attack {
        Some(Attack::CopiedCertificates) => {
            Some(forge::Forger::new(creds.certificates_of(&cfg.copies_certificates_of)?)?)
        }
        _ => None,
    };
    let start = if cfg.start_at_us > 0 {
        cfg.start_at_us
    } else {
        crate::clock::now_us()
    };
    let mut sender = Sender::new(cfg, sockets.len(), start, forger)?;
    let mut buf = vec![0u8; 65_536];
    while !stop.load(Ordering::Relaxed) {
        let Some(due) = sender.next_due_us() else { break };
        crate::clock::sleep_until(due);
        if listens {
            hear(&sockets[0], securing.main.as_mut(), &mut buf, log, &cfg.name);
        }
        let step = sender.step(crate::clock::now_us(), &mut securing)?;
        for d in step.datagrams {
            let copies = transmit(&sockets[d.socket.min(sockets.len() - 1)], &cfg.peers, &d.bytes);
            if let Some(mut r) = d.record {
                r.copies = copies;
                r.sent_us = crate::clock::now_us();
                log.tx(r);
            }
        }
        for (e, detail) in step.events {
            event(log, &cfg.name, e, detail);
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
        event(log, name, Event::Heard, format!("{src}: {verdict}"));
    }
}

/// Sends `bytes` to every peer; returns how many copies left.
fn transmit(sock: &UdpSocket, peers: &[SocketAddr], bytes: &[u8]) -> u32 {
    peers.iter().filter(|p| sock.send_to(bytes, p).is_ok()).count() as u32
}

/// The receiving loop: the socket, the verifier threads, admission and queueing.
fn receive(cfg: &StationConfig, creds: &StationCredentials, log: &Log, stop: &AtomicBool) -> Result<(), StationError> {
    let &[bind] = cfg.bind.as_slice() else {
        return Err(StationError::Invalid {
            field: "bind",
            message: format!("a receiver listens on one address, got {:?}", cfg.bind),
        });
    };
    let options = &cfg.receiver;
    let sock = UdpSocket::bind(bind)?;
    event(log, &cfg.name, Event::Listening, bind.to_string());
    // A large receive buffer: the kernel, not our queue, should be the last resort.
    let _ = nix::sys::socket::setsockopt(&sock, nix::sys::socket::sockopt::RcvBuf, &(8 << 20));
    sock.set_read_timeout(Some(Duration::from_millis(50)))?;
    let beacon = match cfg.beacon {
        true => Some(Beacon::new(
            sock.try_clone()?,
            cfg.number,
            cfg.payload_len,
            log.clone(),
            &cfg.name,
        )),
        false => None,
    };
    let security = Arc::new(Security::new(creds.authenticator()?, beacon));
    let standing = Arc::new(Standing::default());
    let queue = Arc::new(WorkQueue::new(options.queue_capacity, options.known_signers_first));
    let limits = Limits {
        deadline_us: options.deadline_ms * 1000,
        emulated_cost: Duration::from_micros(options.emulated_verify_cost_us),
    };
    let workers: Vec<_> = (0..options.verifier_threads.max(1))
        .map(|w| {
            let (queue, security, standing, log, name) = (
                queue.clone(),
                security.clone(),
                standing.clone(),
                log.clone(),
                cfg.name.clone(),
            );
            std::thread::spawn(move || {
                while queue.wait_ready() {
                    for row in receiver::verify_next(&queue, w, &security, &standing, limits, &name) {
                        log.rx(row);
                    }
                }
            })
        })
        .collect();
    let dot2 = matches!(cfg.protocol, ProtocolConfig::Ieee1609Dot2(_));
    let mut admission = Admission::new(options, dot2);
    let end = cfg.end_us();
    let mut buf = vec![0u8; 65_536];
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
        match admission.admit(buf[..n].to_vec(), src, received_us, &security, &standing) {
            Ok(p) => enqueue(p, &queue, &standing, log, &cfg.name),
            Err((bytes, refusal)) => log.rx(receiver::unverified_row(
                &cfg.name,
                &bytes,
                src,
                received_us,
                crate::log::Stage::Precheck,
                refusal,
            )),
        }
    };
    queue.close();
    for h in workers {
        let _ = h.join();
    }
    result
}

/// Queues an admitted packet; logs the one that found (or made) no room.
fn enqueue(mut p: receiver::Packet, queue: &WorkQueue<receiver::Packet>, standing: &Standing, log: &Log, name: &str) {
    p.queue_len = queue.len() as u32;
    standing.queued(p.carried_certificate, p.identity);
    let (ip, lane) = (p.src.ip(), p.lane);
    let dropped = match queue.push(p, ip, lane) {
        Pushed::Queued => return,
        Pushed::Evicted(old) | Pushed::Full(old) => old,
    };
    standing.decided(dropped.carried_certificate, dropped.identity);
    let mut row = receiver::unverified_row(
        name,
        &dropped.bytes,
        dropped.src,
        dropped.received_us,
        crate::log::Stage::Queue,
        receiver::Refusal {
            verdict: crate::log::Verdict::Dropped,
            reason: crate::log::Reason::Dropped(crate::log::DropReason::QueueOverflow),
        },
    );
    row.queue_len = Some(dropped.queue_len);
    log.rx(row);
}
