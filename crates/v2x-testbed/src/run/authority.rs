//! The misbehaviour authority (MA) of the `[misbehaviour]` closed loop, as its own process
//! (`v2x mbd-authority --config FILE`, started by the orchestrator like a station): it
//! binds its socket on loopback, writes the address to `address_file` for the orchestrator,
//! receives TS 103 759 reports until `end_us`, revokes through the PKI directory's CRL,
//! pushes each new CRL to the receivers, and writes what it did to `records_file`.
//!
//! [`serve`] is the loop; the orchestrator runs it in this process when it has no `v2x`
//! binary to start (the crate's own tests).

use crate::misbehaviour_log::{ReportRecord, RevocationRecord};
use crate::run::credentials::CredentialError;
use crate::run::error::{io, TestbedError};
use serde::{Deserialize, Serialize};
use std::net::{SocketAddr, UdpSocket};
use std::path::{Path, PathBuf};
use std::time::Duration;
use v2x_mbd::report::authority::{Authority, Decision};
use v2x_security::{Pki, TaiTime};

/// The MA's PKI name (its ticket permitted for misbehaviour reports' recipient).
pub const MA: &str = "ma";

/// What the MA process is told (TOML written by the orchestrator).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AuthorityConfig {
    pub pki_dir: PathBuf,
    /// Distinct reporters before a revocation.
    pub min_reporters: usize,
    /// The receivers' infrastructure sockets, to which each new CRL goes.
    pub crl_peers: Vec<SocketAddr>,
    /// When to stop (TAI µs of the testbed clock).
    pub end_us: u64,
    /// Where the MA writes the address it listens on, once bound.
    pub address_file: PathBuf,
    /// Where it writes its reports and revocations (JSON) when it stops.
    pub records_file: PathBuf,
}

impl AuthorityConfig {
    pub fn load(path: &Path) -> Result<AuthorityConfig, TestbedError> {
        let text = std::fs::read_to_string(path).map_err(io(format!("reading {}", path.display())))?;
        toml::from_str(&text).map_err(|e| TestbedError::Io {
            context: format!("reading {}", path.display()),
            source: std::io::Error::other(e),
        })
    }

    /// Writes it for the MA process.
    pub fn save(&self, path: &Path) -> Result<(), TestbedError> {
        let text = toml::to_string(self).map_err(|e| TestbedError::Io {
            context: format!("writing {}", path.display()),
            source: std::io::Error::other(e),
        })?;
        std::fs::write(path, text).map_err(io(format!("writing {}", path.display())))
    }
}

/// What the MA did.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct AuthorityRecords {
    pub reports: Vec<ReportRecord>,
    pub revocations: Vec<RevocationRecord>,
}

/// The MA process: bind, announce, serve, record.
pub fn run(cfg: &AuthorityConfig) -> Result<(), TestbedError> {
    let sock = UdpSocket::bind("127.0.0.1:0").map_err(io("binding the MA socket"))?;
    let addr = sock.local_addr().map_err(io("the MA socket's address"))?;
    // Written then renamed: the orchestrator never reads half an address.
    let tmp = cfg.address_file.with_extension("tmp");
    std::fs::write(&tmp, addr.to_string()).map_err(io(format!("writing {}", tmp.display())))?;
    std::fs::rename(&tmp, &cfg.address_file).map_err(io(format!("writing {}", cfg.address_file.display())))?;
    let pki = Pki::open(&cfg.pki_dir).map_err(pki_error)?;
    let credentials = pki.tickets(MA).map_err(pki_error)?.remove(0);
    let records = serve(pki, credentials, cfg.min_reporters, sock, &cfg.crl_peers, cfg.end_us)?;
    let json = serde_json::to_vec_pretty(&records).map_err(|e| TestbedError::Io {
        context: "writing the MA's records".into(),
        source: std::io::Error::other(e),
    })?;
    std::fs::write(&cfg.records_file, json).map_err(io(format!("writing {}", cfg.records_file.display())))
}

/// Reads the address a started MA process announced, waiting up to `timeout`.
pub fn announced_address(address_file: &Path, timeout: Duration) -> Result<SocketAddr, TestbedError> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Ok(text) = std::fs::read_to_string(address_file) {
            return text.trim().parse().map_err(|e| TestbedError::Io {
                context: format!("the MA's address in {}", address_file.display()),
                source: std::io::Error::other(e),
            });
        }
        if std::time::Instant::now() > deadline {
            return Err(TestbedError::Io {
                context: format!(
                    "waiting for the MA process to announce its address ({})",
                    address_file.display()
                ),
                source: std::io::Error::from(std::io::ErrorKind::TimedOut),
            });
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn pki_error(e: v2x_security::PkiError) -> TestbedError {
    CredentialError::from(e).into()
}

/// The MA's loop: receives reports on `sock` until `end_us`, revokes, pushes each new CRL to
/// `crl_peers`.
pub fn serve(
    pki: Pki,
    credentials: v2x_security::Credentials,
    min_reporters: usize,
    sock: UdpSocket,
    crl_peers: &[SocketAddr],
    end_us: u64,
) -> Result<AuthorityRecords, TestbedError> {
    let mut ma = Authority::new(pki, credentials, min_reporters).map_err(|e| TestbedError::Io {
        context: "starting the misbehaviour authority".into(),
        source: std::io::Error::other(e),
    })?;
    sock.set_read_timeout(Some(Duration::from_millis(1)))
        .map_err(io("MA socket"))?;
    let mut records = AuthorityRecords::default();
    let mut buf = vec![0u8; 65_536];
    while crate::clock::now_us() < end_us {
        let Ok(n) = sock.recv(&mut buf) else { continue };
        let received_us = crate::clock::now_us();
        let result = ma.receive(&buf[..n], TaiTime(received_us));
        let decided_us = crate::clock::now_us();
        let (outcome, subject) = match &result {
            Ok(Decision::Recorded { subject, .. }) => ("recorded".to_string(), Some(*subject)),
            Ok(Decision::Revoked { subject, .. }) => ("revoked".to_string(), Some(*subject)),
            Ok(Decision::AlreadyRevoked { subject }) => ("already-revoked".to_string(), Some(*subject)),
            Err(e) => (e.code().to_string(), None),
        };
        records.reports.push(ReportRecord {
            received_us,
            decided_us,
            outcome,
            subject: subject.map(|s| hex::encode(s.0)),
            reporter: result.as_ref().ok().and(ma.last_reporter()).map(|r| hex::encode(r.0)),
        });
        if let Ok(Decision::Revoked { subject, crl }) = result {
            for p in crl_peers {
                let _ = sock.send_to(&crl, p);
            }
            records.revocations.push(RevocationRecord {
                subject: hex::encode(subject.0),
                report_received_us: received_us,
                decided_us,
                crl_sent_us: crate::clock::now_us(),
                crl_bytes: crl.len(),
            });
        }
    }
    Ok(records)
}
