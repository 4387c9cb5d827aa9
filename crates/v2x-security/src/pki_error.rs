//! Why a PKI directory or trust directory operation failed (shared by [`crate::pki_store`]
//! and [`crate::trust_dir`]).

use crate::certificate::CertificateError;
use crate::crl::CrlError;
use crate::issue::IssueError;
use crate::reason::Rejection;
use crate::trust_list::TrustListError;
use crate::trust_store::AnchorError;
use std::path::PathBuf;
use v2x_crypto::CryptoError;

/// Why a PKI directory operation failed.
#[derive(Debug, thiserror::Error)]
pub enum PkiError {
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a usable certificate", path.display())]
    Certificate {
        path: PathBuf,
        #[source]
        source: CertificateError,
    },
    #[error("{}: not a usable private key", path.display())]
    Key {
        path: PathBuf,
        #[source]
        source: CryptoError,
    },
    #[error("{}: the private key does not belong to the certificate", path.display())]
    KeyMismatch { path: PathBuf },
    #[error("{}: invalid configuration", path.display())]
    Config {
        path: PathBuf,
        #[source]
        source: toml::de::Error,
    },
    #[error("writing the configuration")]
    ConfigWrite(#[from] toml::ser::Error),
    #[error("{} already holds a PKI", .0.display())]
    Exists(PathBuf),
    #[error("{} is not empty ({}) but has no pki.toml: refusing to create a PKI over it (nothing there is overwritten; `v2x pki check` names what is damaged)", path.display(), found.join(", "))]
    NotEmpty { path: PathBuf, found: Vec<String> },
    #[error("{} exists: refusing to overwrite it (a key or certificate is never replaced; an interrupted earlier run may have left it, see `v2x pki check`)", path.display())]
    WouldOverwrite { path: PathBuf },
    #[error("the PKI directory is in use")]
    Locked(#[from] crate::durable::LockError),
    #[error("ticket numbers are exhausted for this station")]
    TicketNumbersExhausted,
    #[error("invalid station name {0:?} (use letters, digits, '-', '_', '.')")]
    StationName(String),
    #[error("station {0} has no tickets")]
    NoTickets(String),
    #[error("the AA certificate does not chain to the root (aa/cert.oer, root/cert.oer): {detail}; no ticket is issued under it")]
    AaNotChained { detail: String },
    #[error("the ticket validity ends after the AA certificate (AA valid until TAI {aa_end} s)")]
    OutlivesAa { aa_end: u64 },
    #[error("the ticket would be valid from {start} to {end} (TAI s) and is over at {now}: refused (the insecure option allows it)")]
    TicketAlreadyExpired { start: u64, end: u64, now: u64 },
    #[error("{}: the CRL is missing (every PKI directory has one; refusing to trust without it unless the insecure option allows it)", path.display())]
    MissingCrl { path: PathBuf },
    #[error("{}: CRL serial {found} is older than serial {expected}, the last this PKI issued: refused (a rolled-back CRL undoes revocations)", path.display())]
    CrlRollback { path: PathBuf, found: u32, expected: u32 },
    #[error("{}: CRL", path.display())]
    Crl {
        path: PathBuf,
        #[source]
        source: CrlError,
    },
    #[error("{}: trust list", path.display())]
    TrustList {
        path: PathBuf,
        #[source]
        source: TrustListError,
    },
    #[error("{}: not a usable trust anchor", path.display())]
    Anchor {
        path: PathBuf,
        #[source]
        source: AnchorError,
    },
    #[error("{}: neither a certificate, a CRL nor a trust list", path.display())]
    UnknownFile { path: PathBuf },
    #[error("the AA may not issue this ticket")]
    NotPermittedByAa(#[source] Rejection),
    #[error("issuing a certificate")]
    Issue(#[from] IssueError),
    #[error("key generation")]
    Crypto(#[from] CryptoError),
}
