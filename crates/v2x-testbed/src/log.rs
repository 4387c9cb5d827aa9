//! The station log: one CSV row per packet sent (`tx.csv`), per packet received and
//! decided (`rx.csv`) and per station event (`events.csv`), written by a logger thread
//! so that no sending or verifying thread waits on the disk. Rows are flushed every
//! 100 ms: a station that crashes loses at most that much of its log, and the analysis
//! reads a truncated last line as the end of the file.
//!
//! Packets are matched across processes by the first 8 bytes of the SHA-256 of the
//! datagram ([`digest`]) — that identifies attack packets too, whose payload a
//! receiver never trusts — and benign packets also by the (origin, counter) their
//! payload carries, PRESERVE's method (paper 002 §2.2.2).

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
    pub role: String,
    /// `benign`, or the attack case code (`A-SIG-01`, ...).
    pub case: String,
    /// `cam` / `denm` for data packets, empty for control packets.
    pub kind: String,
    /// What the protocol made of it: `data`, `key-disclosure`, `commitment`, ...
    pub packet: String,
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

/// One datagram a station received and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RxRecord {
    pub station: String,
    /// Source address of the datagram.
    pub src: String,
    pub digest: String,
    pub bytes: usize,
    /// When the receive thread read it from the socket, TAI µs.
    pub received_us: u64,
    /// Verifier thread it was routed to.
    pub worker: Option<u32>,
    /// Packets waiting in that thread's queue when it was queued.
    pub queue_len: Option<u32>,
    /// The decap call (absent when dropped before verification).
    pub verify_start_us: Option<u64>,
    pub verify_end_us: Option<u64>,
    /// Where it was decided: `precheck`, `queue`, `verify`, `release` (a pending packet
    /// decided by a later one), `shutdown`.
    pub stage: String,
    /// `accepted`, `rejected`, `dropped`, `pending`, `control`.
    pub verdict: String,
    /// Reject reason code (SN-DECAP vocabulary) or drop reason (`queue-overflow`,
    /// `deadline-expired`, `rate-limited`, `shutdown`); empty when accepted.
    pub reason: String,
    /// Who the protocol says sent it (accepted), else who the packet claims.
    pub sender: String,
    /// From the payload of an accepted packet.
    pub origin: Option<u32>,
    pub counter: Option<u64>,
    pub generated_us: Option<u64>,
    pub kind: String,
}

/// Something that happened to a station (start, stop, pseudonym change, refusals).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EventRecord {
    pub station: String,
    pub time_us: u64,
    pub event: String,
    pub detail: String,
}

enum Entry {
    Tx(TxRecord),
    Rx(RxRecord),
    Event(EventRecord),
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
/// Event: SN-ENCAP refused to secure a message; detail `CASE: reason`.
pub const EVENT_REFUSED: &str = "encap-refused";
/// Event of a receiver: the address it listens on.
pub const EVENT_LISTENING: &str = "listening";
/// Event of a sender: the receiver addresses it sends to, space-separated.
pub const EVENT_PEERS: &str = "peers";

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
        // Headers even for empty logs, so every file loads into pandas.
        txw.write_record(header_of::<TxRecord>())?;
        rxw.write_record(header_of::<RxRecord>())?;
        evw.write_record(header_of::<EventRecord>())?;
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
                        },
                        Err(mpsc::RecvTimeoutError::Timeout) => {}
                        Err(mpsc::RecvTimeoutError::Disconnected) => break,
                    }
                    if last_flush.elapsed() >= flush_every {
                        txw.flush()?;
                        rxw.flush()?;
                        evw.flush()?;
                        last_flush = Instant::now();
                    }
                }
                txw.flush()?;
                rxw.flush()?;
                evw.flush()
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
            src: "127.0.0.1:1".into(),
            digest: digest_hex(d),
            bytes: 10,
            received_us: 5,
            worker: Some(0),
            queue_len: None,
            verify_start_us: Some(6),
            verify_end_us: Some(7),
            stage: "verify".into(),
            verdict: "accepted".into(),
            reason: String::new(),
            sender: "x".into(),
            origin: Some(1),
            counter: Some(2),
            generated_us: Some(3),
            kind: "cam".into(),
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
}
