//! The consistency check of a PKI directory (`v2x pki check`): it reads everything and names
//! each piece of damage with its file, whatever caused it (a crash, a full disk, a copy gone
//! wrong, a hand edit):
//!
//! * `pki.toml` missing or unreadable; its counters behind the files (the last CRL serial
//!   below the CRL's, a station's next ticket number at or below a ticket on disk);
//! * a certificate or key missing, unreadable, or not a pair; a key left without its
//!   certificate; an encryption key that is not the certificate's;
//! * a certificate not issued by its CA (signature, or 1609.2 consistency of validity and
//!   permissions), a root that is not validly self-signed, an expired CA;
//! * the CRL missing, not signed by the root, rolled back below the last serial issued, or
//!   past its nextUpdate;
//! * a private key readable by anyone but its owner (mode not 0600);
//! * a certificate on another curve than `pki.toml` names;
//! * a station's `tickets` that is not a directory, and an `active-pseudonym` that does not
//!   name one of the station's tickets;
//! * temporary files left by an interrupted write, anywhere in the tree;
//! * the same for the v1.2.1 credentials in `DIR/v1.2.1/` (pairs and permissions).

use crate::certificate::{CertRef, Certificate};
use crate::crl::verify_crl;
use crate::durable::is_temporary;
use crate::permissions::issuance::check_issued_by;
use crate::pki_error::PkiError;
use crate::pki_store::{ticket_index, ticket_stem, PkiConfig, ACTIVE_PSEUDONYM};
use crate::time::TaiTime;
use crate::trust_store::TrustStore;
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use v2x_crypto::PrivateKey;

/// What is wrong with one file of a PKI directory.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "problem", rename_all = "kebab-case")]
pub enum Problem {
    /// A file the PKI needs is not there (`what`: "pki.toml", "certificate", "private key",
    /// "CRL").
    Missing { what: String },
    /// The file is there but cannot be read as what it should be.
    Unreadable { detail: String },
    /// The private key does not belong to the certificate beside it.
    KeyMismatch,
    /// A key without its certificate (an interrupted issue; the ticket was never usable).
    KeyWithoutCertificate,
    /// The certificate was not issued by the CA it names, or claims more than that CA may
    /// grant.
    NotIssuedBy { issuer: String, detail: String },
    /// The root certificate is not self-signed, or its self-signature does not verify.
    BadRoot { detail: String },
    /// A CA certificate is past its validity.
    Expired { end: u64 },
    /// The CRL does not verify with the root.
    CrlNotVerified { detail: String },
    /// The CRL is older than the last one this PKI issued (revocations undone).
    CrlRolledBack { found: u32, expected: u32 },
    /// The CRL is past its nextUpdate: receivers reject the PKI's chains
    /// (`v2x pki refresh-crl`).
    CrlExpired { next_update: u32 },
    /// A counter in `pki.toml` is behind the files (`counter`: "last_crl_serial" or
    /// "next_ticket.STATION").
    CounterBehind { counter: String, value: u32, files: u32 },
    /// A private key others may read.
    KeyPermissions { mode: String },
    /// A temporary file left by an interrupted write (safe to delete).
    TemporaryFile,
    /// The certificate's key is on another curve than `pki.toml` says (keys would be read
    /// on the wrong curve, tickets issued on the wrong one).
    CurveMismatch { configured: String, certificate: String },
    /// A path that must be a directory is not.
    NotADirectory,
    /// `active-pseudonym` does not name one of the station's tickets (`detail` says why).
    BadActivePseudonym { detail: String },
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Missing { what } => write!(f, "{what} missing"),
            Problem::Unreadable { detail } => write!(f, "unreadable: {detail}"),
            Problem::KeyMismatch => write!(f, "the private key does not belong to the certificate"),
            Problem::KeyWithoutCertificate => write!(
                f,
                "a private key without its certificate (left by an interrupted issue; never a usable ticket)"
            ),
            Problem::NotIssuedBy { issuer, detail } => write!(f, "not issued by {issuer}: {detail}"),
            Problem::BadRoot { detail } => write!(f, "not a valid root: {detail}"),
            Problem::Expired { end } => write!(f, "expired at {end} (TAI s)"),
            Problem::CrlNotVerified { detail } => write!(f, "the CRL does not verify with the root: {detail}"),
            Problem::CrlRolledBack { found, expected } => write!(
                f,
                "CRL serial {found} is older than serial {expected}, the last this PKI issued (revocations undone)"
            ),
            Problem::CrlExpired { next_update } => write!(
                f,
                "the CRL was due to be replaced at {next_update} (TAI s); receivers reject the chains (`v2x pki refresh-crl`)"
            ),
            Problem::CounterBehind { counter, value, files } => write!(
                f,
                "pki.toml {counter} = {value} is behind the files ({files}): the configuration was restored or an update interrupted"
            ),
            Problem::KeyPermissions { mode } => {
                write!(f, "private key with mode {mode}: readable by others (should be 0600)")
            }
            Problem::TemporaryFile => write!(f, "temporary file left by an interrupted write (safe to delete)"),
            Problem::CurveMismatch {
                configured,
                certificate,
            } => write!(f, "a {certificate} certificate in a PKI whose pki.toml says {configured}"),
            Problem::NotADirectory => write!(f, "not a directory"),
            Problem::BadActivePseudonym { detail } => write!(f, "active pseudonym: {detail}"),
        }
    }
}

/// One piece of damage.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Finding {
    pub path: PathBuf,
    #[serde(flatten)]
    pub problem: Problem,
}

/// What the check read and what it found.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct CheckReport {
    pub findings: Vec<Finding>,
    pub certificates: usize,
    pub private_keys: usize,
    pub stations: usize,
    pub tickets: usize,
}

impl CheckReport {
    pub fn is_clean(&self) -> bool {
        self.findings.is_empty()
    }

    fn found(&mut self, path: impl Into<PathBuf>, problem: Problem) {
        self.findings.push(Finding {
            path: path.into(),
            problem,
        });
    }
}

/// Checks the PKI directory `dir` as of `at`. Errors only when `dir` cannot be listed; all
/// else is a finding.
pub fn check_pki_dir(dir: &Path, at: TaiTime) -> Result<CheckReport, PkiError> {
    fs::read_dir(dir).map_err(|source| PkiError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut r = CheckReport::default();
    let config = check_config(dir, &mut r);
    let root = check_pair(&mut r, &dir.join("root/cert.oer"), &dir.join("root/key.pem"));
    if let Some(root) = &root {
        if !root.is_self_signed() || !root.verify_signature(None) {
            r.found(
                dir.join("root/cert.oer"),
                Problem::BadRoot {
                    detail: "not self-signed, or the self-signature does not verify".into(),
                },
            );
        }
        check_expiry(&mut r, &dir.join("root/cert.oer"), root, at);
    }
    let mut issuers = BTreeMap::new();
    for name in ["ea", "aa"] {
        let cert_path = dir.join(name).join("cert.oer");
        let cert = check_pair(&mut r, &cert_path, &dir.join(name).join("key.pem"));
        if let (Some(cert), Some(root)) = (&cert, &root) {
            check_issued(&mut r, &cert_path, cert, root, "the root CA");
            check_expiry(&mut r, &cert_path, cert, at);
        }
        issuers.insert(name, cert);
    }
    if let Some(config) = &config {
        let named = [
            ("root", root.as_ref()),
            ("ea", issuers.get("ea").and_then(|c| c.as_ref())),
            ("aa", issuers.get("aa").and_then(|c| c.as_ref())),
        ];
        for (name, cert) in named {
            if let Some(cert) = cert {
                check_curve(&mut r, &dir.join(name).join("cert.oer"), cert, config.curve);
            }
        }
    }
    if let Some(root) = &root {
        check_crl(dir, root, config.as_ref(), at, &mut r);
    }
    check_stations(
        dir,
        config.as_ref(),
        issuers.get("ea").cloned().flatten(),
        issuers.get("aa").cloned().flatten(),
        &mut r,
    );
    check_v1_2_1(&dir.join("v1.2.1"), &mut r);
    walk(dir, &mut r);
    Ok(r)
}

fn check_config(dir: &Path, r: &mut CheckReport) -> Option<PkiConfig> {
    let path = dir.join("pki.toml");
    match fs::read_to_string(&path) {
        Err(_) => {
            r.found(
                &path,
                Problem::Missing {
                    what: "pki.toml".into(),
                },
            );
            None
        }
        Ok(text) => match toml::from_str::<PkiConfig>(&text) {
            Ok(c) => Some(c),
            Err(e) => {
                r.found(
                    &path,
                    Problem::Unreadable {
                        detail: e.message().to_owned(),
                    },
                );
                None
            }
        },
    }
}

fn read_certificate(r: &mut CheckReport, path: &Path) -> Option<CertRef> {
    match fs::read(path) {
        Err(_) => {
            r.found(
                path,
                Problem::Missing {
                    what: "certificate".into(),
                },
            );
            None
        }
        Ok(bytes) => match Certificate::from_bytes(&bytes) {
            Ok(c) => {
                r.certificates += 1;
                Some(Arc::new(c))
            }
            Err(e) => {
                r.found(path, Problem::Unreadable { detail: e.to_string() });
                None
            }
        },
    }
}

/// Reads a private key on `curve` (its permissions are checked by the walk).
fn read_key(r: &mut CheckReport, path: &Path, curve: v2x_crypto::Curve) -> Option<PrivateKey> {
    match fs::read(path) {
        Err(_) => {
            r.found(
                path,
                Problem::Missing {
                    what: "private key".into(),
                },
            );
            None
        }
        Ok(pem) => match PrivateKey::from_pem(curve, &pem) {
            Ok(k) => {
                r.private_keys += 1;
                Some(k)
            }
            Err(e) => {
                r.found(path, Problem::Unreadable { detail: e.to_string() });
                None
            }
        },
    }
}

/// The certificate's key is on the PKI's curve.
fn check_curve(r: &mut CheckReport, path: &Path, cert: &Certificate, configured: v2x_crypto::Curve) {
    if cert.curve() != configured {
        r.found(
            path,
            Problem::CurveMismatch {
                configured: configured.to_string(),
                certificate: cert.curve().to_string(),
            },
        );
    }
}

/// A certificate and its signing key: both readable, and a pair.
fn check_pair(r: &mut CheckReport, cert_path: &Path, key_path: &Path) -> Option<CertRef> {
    let cert = read_certificate(r, cert_path);
    let curve = cert.as_ref().map(|c| c.curve()).unwrap_or(v2x_crypto::Curve::NistP256);
    if let (Some(key), Some(c)) = (read_key(r, key_path, curve), &cert) {
        if key.public_key() != c.verification_key() {
            r.found(key_path, Problem::KeyMismatch);
        }
    }
    cert
}

fn check_issued(r: &mut CheckReport, path: &Path, cert: &Certificate, issuer: &Certificate, issuer_name: &str) {
    let detail = if !cert.verify_signature(Some(issuer)) {
        Some("its signature does not verify with the CA's key".to_owned())
    } else if !cert.validity().within(&issuer.validity()) {
        Some("its validity is not within the CA's".to_owned())
    } else {
        check_issued_by(cert, issuer).err().map(|e| e.to_string())
    };
    if let Some(detail) = detail {
        r.found(
            path,
            Problem::NotIssuedBy {
                issuer: format!("{issuer_name} {}", issuer.hashed_id8()),
                detail,
            },
        );
    }
}

fn check_expiry(r: &mut CheckReport, path: &Path, cert: &Certificate, at: TaiTime) {
    let end = cert.validity().end;
    if at.seconds() > end {
        r.found(path, Problem::Expired { end });
    }
}

fn check_crl(dir: &Path, root: &CertRef, config: Option<&PkiConfig>, at: TaiTime, r: &mut CheckReport) {
    let path = dir.join("crl.oer");
    let Ok(bytes) = fs::read(&path) else {
        r.found(&path, Problem::Missing { what: "CRL".into() });
        return;
    };
    let mut store = TrustStore::new();
    if store.add_trust_anchor(root.clone()).is_err() {
        return; // already named as a bad root
    }
    let crl = match verify_crl(&bytes, &store) {
        Ok(c) => c,
        Err(e) => {
            r.found(&path, Problem::CrlNotVerified { detail: e.to_string() });
            return;
        }
    };
    if let Some(last) = config.and_then(|c| c.last_crl_serial) {
        if crl.serial < last {
            r.found(
                &path,
                Problem::CrlRolledBack {
                    found: crl.serial,
                    expected: last,
                },
            );
        } else if crl.serial > last {
            r.found(
                dir.join("pki.toml"),
                Problem::CounterBehind {
                    counter: "last_crl_serial".into(),
                    value: last,
                    files: crl.serial,
                },
            );
        }
    }
    if at.to_time32() > crl.next_update {
        r.found(
            &path,
            Problem::CrlExpired {
                next_update: crl.next_update,
            },
        );
    }
}

fn check_stations(
    dir: &Path,
    config: Option<&PkiConfig>,
    ea: Option<CertRef>,
    aa: Option<CertRef>,
    r: &mut CheckReport,
) {
    let Ok(rd) = fs::read_dir(dir.join("stations")) else {
        return;
    };
    let mut stations: Vec<(String, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|e| Some((e.file_name().into_string().ok()?, e.path())))
        .collect();
    stations.sort();
    for (name, sdir) in stations {
        r.stations += 1;
        let ec_path = sdir.join("ec.oer");
        let ec = check_pair(r, &ec_path, &sdir.join("ec.pem"));
        if let (Some(ec), Some(ea)) = (&ec, &ea) {
            check_issued(r, &ec_path, ec, ea, "the EA");
        }
        let tdir = sdir.join("tickets");
        if tdir.exists() && !tdir.is_dir() {
            r.found(&tdir, Problem::NotADirectory);
            continue;
        }
        let Ok(rd) = fs::read_dir(&tdir) else { continue };
        let mut by_index: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for n in rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
        {
            if let Some(i) = ticket_index(&n) {
                by_index.entry(i).or_default().push(n);
            }
        }
        let mut ids = Vec::new();
        for (&i, names) in &by_index {
            if let Some(cert) = check_ticket(r, &tdir, i, names, aa.as_ref()) {
                if let Some(config) = config {
                    check_curve(r, &tdir.join(format!("{}.oer", ticket_stem(i))), &cert, config.curve);
                }
                ids.push(cert.hashed_id8().to_string());
            }
        }
        check_active_pseudonym(r, &sdir.join(ACTIVE_PSEUDONYM), &ids);
        let (Some(highest), Some(counter)) = (
            by_index.keys().next_back(),
            config.and_then(|c| c.next_ticket.get(&name)),
        ) else {
            continue;
        };
        if *counter <= *highest {
            r.found(
                dir.join("pki.toml"),
                Problem::CounterBehind {
                    counter: format!("next_ticket.{name}"),
                    value: *counter,
                    files: highest + 1,
                },
            );
        }
    }
}

/// One ticket's files: certificate, signing key, encryption key (when the certificate has
/// an encryption key), issued by the AA.
fn check_ticket(r: &mut CheckReport, tdir: &Path, i: u32, names: &[String], aa: Option<&CertRef>) -> Option<CertRef> {
    let stem = ticket_stem(i);
    let has = |suffix: &str| names.iter().any(|n| *n == format!("{stem}.{suffix}"));
    let cert_path = tdir.join(format!("{stem}.oer"));
    let key_path = tdir.join(format!("{stem}.pem"));
    let enc_path = tdir.join(format!("{stem}.enc.pem"));
    if !has("oer") {
        for suffix in ["pem", "enc.pem"] {
            if has(suffix) {
                r.found(tdir.join(format!("{stem}.{suffix}")), Problem::KeyWithoutCertificate);
            }
        }
        return None;
    }
    r.tickets += 1;
    let cert = check_pair(r, &cert_path, &key_path)?;
    if let Some(aa) = aa {
        check_issued(r, &cert_path, &cert, aa, "the AA");
    }
    match (cert.encryption_key(), has("enc.pem")) {
        (Some(public), true) => {
            if let Some(k) = read_key(r, &enc_path, public.curve()) {
                if k.public_key() != public {
                    r.found(&enc_path, Problem::KeyMismatch);
                }
            }
        }
        (Some(_), false) => r.found(
            &enc_path,
            Problem::Missing {
                what: "private encryption key".into(),
            },
        ),
        (None, true) => r.found(&enc_path, Problem::KeyMismatch),
        (None, false) => {}
    }
    Some(cert)
}

/// `active-pseudonym`, when there, is the HashedId8 (hex) of one of the station's tickets.
fn check_active_pseudonym(r: &mut CheckReport, path: &Path, ticket_ids: &[String]) {
    let Ok(bytes) = fs::read(path) else { return };
    let detail = match std::str::from_utf8(&bytes).map(str::trim) {
        Err(_) => "not text".to_owned(),
        Ok(id) if id.len() != 16 || !id.bytes().all(|b| b.is_ascii_hexdigit()) => {
            format!(
                "{:?} is not a HashedId8 (16 hex digits)",
                id.chars().take(40).collect::<String>()
            )
        }
        Ok(id) if !ticket_ids.iter().any(|t| t.eq_ignore_ascii_case(id)) => {
            format!("{id} names none of the station's tickets")
        }
        Ok(_) => return,
    };
    r.found(path, Problem::BadActivePseudonym { detail });
}

/// The v1.2.1 credentials: every `NAME.cert` with its `NAME.key` (a pair).
fn check_v1_2_1(dir: &Path, r: &mut CheckReport) {
    let mut dirs = vec![dir.to_path_buf()];
    if let Ok(rd) = fs::read_dir(dir.join("stations")) {
        dirs.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()));
    }
    for d in dirs {
        let Ok(rd) = fs::read_dir(&d) else { continue };
        let mut names: Vec<String> = rd
            .filter_map(|e| e.ok())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect();
        names.sort();
        for n in &names {
            let Some(stem) = n.strip_suffix(".cert") else { continue };
            match crate::v1_2_1::Credential::load(&d, stem) {
                Ok(c) => {
                    r.certificates += 1;
                    r.private_keys += 1 + usize::from(c.encryption_key.is_some());
                    let matches = c
                        .certificate
                        .verification_key()
                        .and_then(|k| crate::v1_2_1::crypto::verification_key(k).ok())
                        .is_some_and(|k| k == *c.signing_key.public_key());
                    if !matches {
                        r.found(d.join(format!("{stem}.key")), Problem::KeyMismatch);
                    }
                }
                Err(e) => r.found(d.join(n), Problem::Unreadable { detail: e.to_string() }),
            }
        }
        for n in &names {
            if let Some(stem) = n.strip_suffix(".key").and_then(|s| s.strip_suffix(".enc").or(Some(s))) {
                if !names.iter().any(|c| *c == format!("{stem}.cert")) {
                    r.found(d.join(n), Problem::KeyWithoutCertificate);
                }
            }
        }
    }
}

/// Every file of the tree: temporary files, and the permissions of private keys.
fn walk(dir: &Path, r: &mut CheckReport) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let Some(name) = e.file_name().into_string().ok() else {
            continue;
        };
        if is_temporary(&name) {
            r.found(&path, Problem::TemporaryFile);
            continue;
        }
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&path, r);
            continue;
        }
        let is_key = name.ends_with(".pem") || name.ends_with(".key");
        if is_key {
            if let Ok(m) = e.metadata() {
                let mode = m.permissions().mode() & 0o777;
                if mode & 0o077 != 0 {
                    r.found(
                        &path,
                        Problem::KeyPermissions {
                            mode: format!("{mode:04o}"),
                        },
                    );
                }
            }
        }
    }
}
