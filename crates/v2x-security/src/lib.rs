//! IEEE 1609.2 / ETSI TS 103 097 v2 security: certificates, PKI, trust store,
//! validation, pseudonym pools and the security entity (SN-ENCAP / SN-DECAP).
//!
//! # Quick start
//! ```no_run
//! use v2x_security::{EncapRequest, Pki, PkiConfig, TaiTime};
//! let pki = Pki::init(std::path::Path::new("/tmp/pki"), PkiConfig::default(), "station-1").unwrap();
//! let mut sender = pki.entity("station-1").unwrap();        // signs with station-1's tickets
//! let mut receiver = v2x_security::SecurityEntity::new(pki.trust_store().unwrap());
//! let msg = sender.encap(&EncapRequest::cam(b"cam payload")).unwrap();
//! let ok = receiver.decap(&msg.bytes).unwrap();             // Err(Rejection) names the reason
//! assert_eq!(ok.payload, b"cam payload");
//! # let _ = TaiTime::now();
//! ```
//!
//! # Main types
//! * [`Certificate`] / [`CertRef`]: an explicit certificate with its received encoding,
//!   HashedId8, cached OpenSSL verification key and decoded permissions/validity/region.
//! * [`issue_certificate`] with a [`CertificateSpec`]: root (self-signed), EA, AA, EC, AT.
//! * [`Pki`]: a PKI directory (root/ea/aa/stations/crl, `pki.toml`); [`InMemoryPki`]: the
//!   same profiles in memory (tests, benchmarks); [`load_trust_dir`] ([`trust_dir`]).
//! * [`TrustStore`]: anchors, CA certificates, validated-chain cache ([`chain`],
//!   [`ValidatedChain`]), revocation ([`revocation`]: CRLs of [`crl`] in both formats,
//!   freshness), trust lists ([`trust_list`]: ECTL, root-CA CTLs).
//! * [`SecurityEntity`]: `encap(&EncapRequest)` -> [`Encapsulated`];
//!   `decap(bytes)` / `decap_at(bytes, TaiTime)` -> [`Decapped`] or [`Rejection`]
//!   (see [`entity::decap`] for the steps and their order). [`DecapMode::SignatureOnly`] is
//!   the explicitly named insecure lab mode.
//! * [`Profile`]s: CAM (PSID 36, digest signer with the certificate at least once per
//!   second, on new neighbours and on P2PCD requests), DENM (PSID 37, certificate
//!   signer, generation location), generic; [`permissions`]: 1609.2 chain consistency
//!   and the ETSI CAM/DENM SSP tables.
//! * [`message_signature`]: the one place a message signature is verified.
//! * Encryption: [`Recipient::Certificate`] (ECIES certRecipInfo + AES-128-CCM) or
//!   [`Recipient::Symmetric`] (symmRecipInfo with a key established by an earlier
//!   exchange; see [`encryption`]).
//! * Time: [`TaiTime`] is 1609.2 Time64 (TAI microseconds since 2004-01-01).

pub mod authority;
pub mod bounded_read;
pub mod certificate;
pub mod chain;
pub mod convert;
pub mod crl;
pub mod durable;
pub mod encryption;
pub mod entity;
pub mod issue;
pub mod memory_pki;
pub mod message_signature;
pub mod p2pcd;
pub mod permissions;
pub mod pki_check;
pub mod pki_error;
pub mod pki_store;
pub mod pq;
pub mod profile;
pub mod pseudonym;
pub mod reason;
pub mod receiver_state;
pub mod region;
pub mod replay;
pub mod revocation;
pub mod signed;
pub mod time;
pub mod trust_dir;
pub mod trust_list;
pub mod trust_store;
pub mod ts102941;
pub mod v1_2_1;
pub mod validated;
pub mod verification;

pub use authority::{Authority, TicketSpec};
pub use certificate::{AppPermission, CertRef, Certificate, CertificateError, Issuer, Validity};
pub use encryption::Recipient;
pub use entity::{
    DecapMode, DecapPolicy, DecapStep, Decapped, EncapError, EncapPolicy, EncapRequest, Encapsulated, Location,
    Precheck, SecurityEntity, LEAP_SECONDS_SINCE_2004,
};
pub use issue::{issue_certificate, CertificateSpec, IssuePermissions, IssuerKey, PsidGroup, SspRangeSpec};
pub use memory_pki::InMemoryPki;
pub use message_signature::SignatureForm;
pub use permissions::{SspRequirement, SspRule};
pub use pki_store::{load_trust_dir, load_trust_dir_with, Pki, PkiConfig, PkiError};
pub use profile::{Profile, ProfileKind, SignerPolicy};
pub use pseudonym::{Credentials, PseudonymPool};
pub use reason::{RejectReason, Rejection};
pub use region::{GeoPoint, Region};
pub use revocation::RevocationPolicy;
pub use time::TaiTime;
pub use trust_dir::{LoadedTrust, TrustOptions};
pub use trust_list::TrustListPolicy;
pub use trust_store::{TrustStore, TrustWarning};
pub use v2x_wire::ItsAid;
pub use validated::ValidatedChain;
pub use verification::SignatureVerifier;
