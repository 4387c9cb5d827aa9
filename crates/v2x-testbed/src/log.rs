//! The station log: one CSV row per packet sent (`tx.csv`), per packet received and
//! decided (`rx.csv`), per station event (`events.csv`) and the process's resource use
//! at its end (`usage.csv`), written by a logger thread
//! so that no sending or verifying thread waits on the disk. Rows are flushed every
//! 100 ms: a station that crashes loses at most that much of its log, and the analysis
//! reads a truncated last line as the end of the file.
//!
//! Packets are matched across processes by the first 8 bytes of the SHA-256 of the
//! datagram ([`digest`]) — that identifies attack packets too, whose payload a
//! receiver never trusts — and benign packets also by the (origin, counter) their
//! payload carries, PRESERVE's method (paper 002 §2.2.2).
//!
//! Every column is typed (roles, cases, stages, verdicts and reasons are enums); the CSV
//! text is their serde names, the codes the analysis and pandas users read.

use crate::case::{Case, Role};
use crate::payload::MessageKind;
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::fs::File;
use std::io::BufWriter;
use std::net::SocketAddr;
use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use v2x_protocols::{PacketKind, RejectReason};

/// First 8 bytes of SHA-256 of a datagram, as a number.
pub fn digest(bytes: &[u8]) -> u64 {
    let h = Sha256::digest(bytes);
    u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]])
}

/// A digest as it appears in the logs (16 hex digits).
pub fn digest_hex(d: u64) -> String {
    format!("{d:016x}")
}

/// One packet a station put on the medium.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TxRecord {
    /// Station name (its PKI name).
    pub station: String,
    /// Station number (the payload's origin).
    pub origin: u32,
    /// `sender`, `attacker` or `receiver` (a receiver that also sends).
    pub role: Role,
    /// `benign`, the attack case code (`A-SIG-01`, ...) or the functional case code.
    pub case: Case,
    /// `cam` / `denm` for data packets, empty for control packets.
    pub kind: Option<MessageKind>,
    /// What the protocol made of it: `data`, `key-disclosure`, `commitment`, ...
    pub packet: PacketName,
    /// The payload counter (data packets).
    pub counter: Option<u64>,
    /// [`digest`] of the datagram, hex.
    pub digest: String,
    /// When the payload was generated (before SN-ENCAP), TAI µs.
    pub generated_us: u64,
    /// When the last copy left the socket, TAI µs.
    pub sent_us: u64,
    /// Time spent in encap for this payload, ns.
    pub encap_ns: u64,
    /// Datagram length.
    pub bytes: usize,
    /// The signer the packet names (certificate HashedId8, pseudonym), hex; empty if none.
    pub signer: String,
    /// Datagrams sent for it (one per destination without a broadcast medium).
    pub copies: u32,
}

/// Where a received datagram was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// On the socket thread, by a defence (rate limit, precheck), before any queue slot.
    Precheck,
    /// In the verifier queue (overflow, deadline).
    Queue,
    /// By a verifier thread's decap.
    Verify,
    /// A pending packet decided by a later one (TESLA).
    Release,
}

/// What became of a received datagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Accepted,
    Rejected,
    /// Not verified: dropped by the receiver ([`DropReason`]).
    Dropped,
    /// Held by the protocol until a later packet decides it.
    Pending,
    /// A valid control packet (no payload of its own).
    Control,
}

/// Why a receiver dropped a datagram without verifying it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropReason {
    /// The verifier queue was full (or the datagram was evicted for a higher-priority one).
    QueueOverflow,
    /// It waited in the queue longer than the deadline.
    DeadlineExpired,
    /// A rate limit of the receiver's defences.
    RateLimited,
}

impl DropReason {
    pub fn code(self) -> &'static str {
        match self {
            DropReason::QueueOverflow => "queue-overflow",
            DropReason::DeadlineExpired => "deadline-expired",
            DropReason::RateLimited => "rate-limited",
        }
    }
}

/// Why a datagram was not accepted: the protocol's rejection reason (SN-DECAP's
/// vocabulary), or the receiver's drop reason. Logged as its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Reason {
    Rejected(RejectReason),
    Dropped(DropReason),
}

impl Reason {
    pub fn code(self) -> &'static str {
        match self {
            Reason::Rejected(r) => r.code(),
            Reason::Dropped(d) => d.code(),
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// What a sent datagram is, as logged: a protocol packet (`data`, `key-disclosure`,
/// `commitment`, `handshake-N`, `group-key`, `revocation`) or an attacker's `replay` copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PacketName {
    Protocol(PacketKind),
    Replay,
}

impl std::fmt::Display for PacketName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PacketName::Replay => f.write_str("replay"),
            PacketName::Protocol(k) => match k {
                PacketKind::Data => f.write_str("data"),
                PacketKind::KeyDisclosure => f.write_str("key-disclosure"),
                PacketKind::Commitment => f.write_str("commitment"),
                PacketKind::Handshake(n) => write!(f, "handshake-{n}"),
                PacketKind::GroupKey => f.write_str("group-key"),
                PacketKind::Revocation => f.write_str("revocation"),
            },
        }
    }
}

/// A logged name that is not one of its column's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {column} `{name}`")]
pub struct UnknownName {
    pub column: &'static str,
    pub name: String,
}

impl std::str::FromStr for PacketName {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<PacketName, UnknownName> {
        let kind = match s {
            "replay" => return Ok(PacketName::Replay),
            "data" => PacketKind::Data,
            "key-disclosure" => PacketKind::KeyDisclosure,
            "commitment" => PacketKind::Commitment,
            "group-key" => PacketKind::GroupKey,
            "revocation" => PacketKind::Revocation,
            _ => match s.strip_prefix("handshake-").and_then(|n| n.parse().ok()) {
                Some(n) => PacketKind::Handshake(n),
                None => {
                    return Err(UnknownName {
                        column: "packet kind",
                        name: s.to_string(),
                    })
                }
            },
        };
        Ok(PacketName::Protocol(kind))
    }
}

/// What a received packet turned out to be: an accepted payload's message kind, or a
/// control packet's kind. Logged as `cam`, `denm` or the [`PacketName`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Content {
    Message(MessageKind),
    Control(PacketKind),
}

impl std::fmt::Display for Content {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Content::Message(k) => f.write_str(k.name()),
            Content::Control(k) => PacketName::Protocol(*k).fmt(f),
        }
    }
}

impl std::str::FromStr for Content {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Content, UnknownName> {
        match s {
            "cam" => Ok(Content::Message(MessageKind::Cam)),
            "denm" => Ok(Content::Message(MessageKind::Denm)),
            _ => match s.parse::<PacketName>()? {
                PacketName::Protocol(k) => Ok(Content::Control(k)),
                PacketName::Replay => Err(UnknownName {
                    column: "received content",
                    name: s.to_string(),
                }),
            },
        }
    }
}

/// Serde through `Display` / `FromStr` (the log's text form).
macro_rules! serde_as_text {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(self)
            }
        }
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<$t, D::Error> {
                String::deserialize(d)?.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
serde_as_text!(PacketName);
serde_as_text!(Content);

/// One datagram a station received and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RxRecord {
    pub station: String,
    /// Source address of the datagram.
    pub src: SocketAddr,
    pub digest: String,
    pub bytes: usize,
    /// When the receive thread read it from the socket, TAI µs.
    pub received_us: u64,
    /// Verifier thread that decided it.
    pub worker: Option<u32>,
    /// Packets waiting in the verifier queue when it was queued.
    pub queue_len: Option<u32>,
    /// The decap call (absent when dropped before verification).
    pub verify_start_us: Option<u64>,
    pub verify_end_us: Option<u64>,
    pub stage: Stage,
    pub verdict: Verdict,
    /// Reject or drop reason; empty when accepted.
    pub reason: Option<Reason>,
    /// Who the protocol says sent it (accepted), hex; else empty.
    pub sender: String,
    /// From the payload of an accepted packet.
    pub origin: Option<u32>,
    pub counter: Option<u64>,
    pub generated_us: Option<u64>,
    pub kind: Option<Content>,
}

/// What happened to a station.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// Detail: role and pid.
    Start,
    Stop,
    /// The run ended with this error.
    Error,
    /// A sender: the receiver addresses it sends to, space-separated.
    Peers,
    /// A receiver: the address it listens on.
    Listening,
    /// SN-ENCAP refused to secure a message; detail `CASE: reason`.
    EncapRefused,
    /// A listening sender verified what reached it; detail `SOURCE: verdict`.
    Heard,
    /// A sender fell more than ten periods behind and skipped its backlog.
    Behind,
    /// A beaconing receiver could not secure its beacon.
    BeaconRefused,
    /// Reading this process's resource usage failed.
    UsageUnavailable,
}

/// Something that happened to a station (start, stop, pseudonym change, refusals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    pub station: String,
    pub time_us: u64,
    pub event: Event,
    pub detail: String,
}

/// A process's resource use at its end (`usage.csv`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UsageRecord {
    pub station: String,
    /// CPU time, user and system, µs.
    pub cpu_us: u64,
    /// Peak resident set, KiB.
    pub max_rss_kib: u64,
}

enum Entry {
    Tx(TxRecord),
    Rx(RxRecord),
    Event(EventRecord),
    Usage(UsageRecord),
}

/// A handle to the logger thread (cheap to clone, one per thread).
#[derive(Clone)]
pub struct Log {
    tx: mpsc::Sender<Entry>,
}

impl Log {
    pub fn tx(&self, r: TxRecord) {
        // A closed logger only happens at shutdown; rows after it are not wanted.
        let _ = self.tx.send(Entry::Tx(r));
    }
    pub fn rx(&self, r: RxRecord) {
        let _ = self.tx.send(Entry::Rx(r));
    }
    pub fn event(&self, r: EventRecord) {
        let _ = self.tx.send(Entry::Event(r));
    }
    pub fn usage(&self, r: UsageRecord) {
        let _ = self.tx.send(Entry::Usage(r));
    }
}

/// The logger thread; [`Logger::finish`] flushes and closes the files.
pub struct Logger {
    handle: Option<JoinHandle<std::io::Result<()>>>,
    log: Option<Log>,
}

/// File names inside a station's log directory.
pub const TX_FILE: &str = "tx.csv";
pub const RX_FILE: &str = "rx.csv";
pub const EVENTS_FILE: &str = "events.csv";
pub const USAGE_FILE: &str = "usage.csv";

fn writer(dir: &Path, name: &str) -> std::io::Result<csv::Writer<BufWriter<File>>> {
    let f = File::create(dir.join(name))?;
    Ok(csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(BufWriter::with_capacity(1 << 16, f)))
}

fn csv_io(e: csv::Error) -> std::io::Error {
    std::io::Error::other(e)
}

impl Logger {
    /// Creates `dir` and the three log files, and starts the thread.
    pub fn start(dir: &Path) -> std::io::Result<Logger> {
        std::fs::create_dir_all(dir)?;
        let mut txw = writer(dir, TX_FILE)?;
        let mut rxw = writer(dir, RX_FILE)?;
        let mut evw = writer(dir, EVENTS_FILE)?;
        let mut usw = writer(dir, USAGE_FILE)?;
        // Headers even for empty logs, so every file loads into pandas.
        txw.write_record(header_of::<TxRecord>())?;
        rxw.write_record(header_of::<RxRecord>())?;
        evw.write_record(header_of::<EventRecord>())?;
        usw.write_record(header_of::<UsageRecord>())?;
        let (tx, rx) = mpsc::channel::<Entry>();
        let handle = std::thread::Builder::new()
            .name("logger".into())
            .spawn(move || -> std::io::Result<()> {
                let mut last_flush = Instant::now();
                let flush_every = Duration::from_millis(100);
                loop {
                    match rx.recv_timeout(flush_every) {
                        Ok(e) => match e {
                            Entry::Tx(r) => txw.serialize(r).map_err(csv_io)?,
                            Entry::Rx(r) => rxw.serialize(r).map_err(csv_io)?,
                            Entry::Event(r) => evw.serialize(r).map_err(csv_io)?,
                            Entry::Usage(r) => usw.serialize(r).map_err(csv_io)?,
                        },
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                    if last_flush.elapsed() >= flush_every {
                        txw.flush()?;
                        rxw.flush()?;
                        evw.flush()?;
                        usw.flush()?;
                        last_flush = Instant::now();
                    }
                }
                txw.flush()?;
                rxw.flush()?;
                evw.flush()?;
                usw.flush()
            })?;
        Ok(Logger {
            handle: Some(handle),
            log: Some(Log { tx }),
        })
    }

    /// A handle for a thread.
    pub fn log(&self) -> Log {
        self.log.clone().expect("logger handle taken only by finish")
    }

    /// Waits for every row sent so far (all other handles must be dropped first) and
    /// closes the files.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.log.take();
        match self.handle.take() {
            Some(h) => h
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("logger thread panicked"))),
            None => Ok(()),
        }
    }
}

/// The CSV header of a record type (its field names, in order).
fn header_of<T: HeaderNames>() -> &'static [&'static str] {
    T::NAMES
}

/// Field names of a log record, for the header row of an empty file.
pub trait HeaderNames {
    const NAMES: &'static [&'static str];
}

impl HeaderNames for TxRecord {
    const NAMES: &'static [&'static str] = &[
        "station",
        "origin",
        "role",
        "case",
        "kind",
        "packet",
        "counter",
        "digest",
        "generated_us",
        "sent_us",
        "encap_ns",
        "bytes",
        "signer",
        "copies",
    ];
}

impl HeaderNames for RxRecord {
    const NAMES: &'static [&'static str] = &[
        "station",
        "src",
        "digest",
        "bytes",
        "received_us",
        "worker",
        "queue_len",
        "verify_start_us",
        "verify_end_us",
        "stage",
        "verdict",
        "reason",
        "sender",
        "origin",
        "counter",
        "generated_us",
        "kind",
    ];
}

impl HeaderNames for EventRecord {
    const NAMES: &'static [&'static str] = &["station", "time_us", "event", "detail"];
}

impl HeaderNames for UsageRecord {
    const NAMES: &'static [&'static str] = &["station", "cpu_us", "max_rss_kib"];
}

/// Reads every complete row of a log file; a torn last line (a crashed station) ends
/// the file instead of failing it.
pub fn read_rows<T: serde::de::DeserializeOwned>(path: &Path) -> std::io::Result<Vec<T>> {
    let f = File::open(path)?;
    let mut rd = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(std::io::BufReader::new(f));
    let mut out = Vec::new();
    for row in rd.deserialize::<T>() {
        match row {
            Ok(r) => out.push(r),
            Err(_) => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rx(d: u64) -> RxRecord {
        RxRecord {
            station: "r".into(),
            src: "127.0.0.1:1".parse().unwrap(),
            digest: digest_hex(d),
            bytes: 10,
            received_us: 5,
            worker: Some(0),
            queue_len: None,
            verify_start_us: Some(6),
            verify_end_us: Some(7),
            stage: Stage::Verify,
            verdict: Verdict::Accepted,
            reason: None,
            sender: "x".into(),
            origin: Some(1),
            counter: Some(2),
            generated_us: Some(3),
            kind: Some(Content::Message(MessageKind::Cam)),
        }
    }

    #[test]
    fn rows_round_trip_headers_match_and_torn_lines_end_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let logger = Logger::start(dir.path()).unwrap();
        let log = logger.log();
        log.rx(rx(1));
        log.rx(rx(2));
        drop(log);
        logger.finish().unwrap();
        let text = std::fs::read_to_string(dir.path().join(RX_FILE)).unwrap();
        assert_eq!(text.lines().next().unwrap(), RxRecord::NAMES.join(","));
        let rows: Vec<RxRecord> = read_rows(&dir.path().join(RX_FILE)).unwrap();
        assert_eq!(rows, vec![rx(1), rx(2)]);
        // A crash mid-row: the complete rows survive.
        std::fs::write(dir.path().join(RX_FILE), format!("{text}r,127.0.0.1:1,00")).unwrap();
        let rows: Vec<RxRecord> = read_rows(&dir.path().join(RX_FILE)).unwrap();
        assert_eq!(rows.len(), 2);
        // Empty logs still have their header.
        let tx = std::fs::read_to_string(dir.path().join(TX_FILE)).unwrap();
        assert_eq!(tx.trim(), TxRecord::NAMES.join(","));
        assert_eq!(digest_hex(digest(b"abc")), "ba7816bf8f01cfea");
    }

    fn csv_rows<T: Serialize>(rows: &[T]) -> String {
        let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
        for r in rows {
            w.serialize(r).unwrap();
        }
        String::from_utf8(w.into_inner().unwrap()).unwrap()
    }

    /// The typed columns write the same text the string columns did (and read it back).
    #[test]
    fn typed_rows_write_the_codes_of_the_string_logs() {
        let tx = vec![
            TxRecord {
                station: "a-sig-05-0".into(),
                origin: 5,
                role: Role::Attacker,
                case: Case::Attack(crate::case::Attack::Replay),
                kind: Some(MessageKind::Cam),
                packet: PacketName::Replay,
                counter: Some(3),
                digest: digest_hex(0xab),
                generated_us: 10,
                sent_us: 11,
                encap_ns: 0,
                bytes: 120,
                signer: String::new(),
                copies: 1,
            },
            TxRecord {
                station: "tx0".into(),
                origin: 2,
                role: Role::Sender,
                case: Case::ReplaySource,
                kind: None,
                packet: PacketName::Protocol(PacketKind::Handshake(2)),
                counter: None,
                digest: digest_hex(0xcd),
                generated_us: 10,
                sent_us: 11,
                encap_ns: 5,
                bytes: 40,
                signer: String::new(),
                copies: 1,
            },
        ];
        assert_eq!(
            csv_rows(&tx),
            "a-sig-05-0,5,attacker,A-SIG-05,cam,replay,3,00000000000000ab,10,11,0,120,,1\n\
             tx0,2,sender,A-SIG-05-source,,handshake-2,,00000000000000cd,10,11,5,40,,1\n"
        );
        let mut rejected = rx(3);
        rejected.stage = Stage::Precheck;
        rejected.verdict = Verdict::Rejected;
        rejected.reason = Some(Reason::Rejected(RejectReason::DuplicateMessage));
        rejected.sender.clear();
        rejected.kind = None;
        let mut dropped = rejected.clone();
        dropped.stage = Stage::Queue;
        dropped.verdict = Verdict::Dropped;
        dropped.reason = Some(Reason::Dropped(DropReason::DeadlineExpired));
        let mut control = rx(4);
        control.verdict = Verdict::Control;
        control.kind = Some(Content::Control(PacketKind::KeyDisclosure));
        let rows = vec![rx(2), rejected, dropped, control];
        let text = csv_rows(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].ends_with(",verify,accepted,,x,1,2,3,cam"), "{}", lines[0]);
        assert!(
            lines[1].ends_with(",precheck,rejected,duplicate-message,,1,2,3,"),
            "{}",
            lines[1]
        );
        assert!(
            lines[2].ends_with(",queue,dropped,deadline-expired,,1,2,3,"),
            "{}",
            lines[2]
        );
        assert!(
            lines[3].ends_with(",verify,control,,x,1,2,3,key-disclosure"),
            "{}",
            lines[3]
        );
        assert!(lines[0].starts_with("r,127.0.0.1:1,"), "{}", lines[0]);
        let back: Vec<RxRecord> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, rows);
        let back: Vec<TxRecord> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(csv_rows(&tx).as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, tx);
    }
}
