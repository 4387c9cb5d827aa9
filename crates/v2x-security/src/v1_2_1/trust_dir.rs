//! A v1.2.1 receiver's trust configuration from a directory: a v2 PKI directory with its
//! v1.2.1 credentials (`DIR/v1.2.1/`: root, AA and the root's CRL), or a directory of v1.2.1
//! certificates (`*.cert`: root CAs become trust anchors, the others authorities) and CRLs
//! (`*.crl`, [`super::crl`]) — a foreign PKI, or a `v1.2.1/` directory itself.
//!
//! Revocation fails closed as in v2 ([`crate::trust_dir`]): a PKI directory without its v1.2.1
//! CRL, or with one older than the last it issued, is an error; every root of a certificate
//! directory is expected to have its CRL there, and chains under a root without one are
//! rejected `revocation-status-unknown`. `allow_missing_crl` (INSECURE, a lab option) trusts
//! them anyway and says so in the warnings.

use super::crl::V1CrlError;
use super::pki::V1PkiError;
use super::pki_dir::{CRL_FILE, SUBDIR};
use super::validate::V1TrustStore;
use crate::revocation::VerifiedCrl;
use std::path::{Path, PathBuf};
use v2x_wire::v1_2_1::{Certificate, SubjectType};

/// A v1.2.1 trust store and what the caller should tell the user about it.
#[derive(Debug)]
pub struct V1LoadedTrust {
    pub store: V1TrustStore,
    pub warnings: Vec<String>,
}

/// Loads the v1.2.1 trust configuration of `dir` (see the module documentation).
pub fn load_v1_trust_dir(dir: &Path, allow_missing_crl: bool) -> Result<V1LoadedTrust, V1PkiError> {
    let sub = dir.join(SUBDIR);
    if sub.is_dir() {
        load_pki_dir(dir, &sub, allow_missing_crl)
    } else {
        load_certificate_dir(dir, allow_missing_crl)
    }
}

fn read(path: &Path) -> Result<Vec<u8>, V1PkiError> {
    crate::bounded_read::read_file_bounded(path).map_err(|source| V1PkiError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn certificate(path: &Path) -> Result<Certificate, V1PkiError> {
    Certificate::from_bytes(&read(path)?).map_err(|source| V1PkiError::Certificate {
        path: path.to_path_buf(),
        source,
    })
}

fn crl_error(path: &Path) -> impl FnOnce(V1CrlError) -> V1PkiError + '_ {
    move |source| V1PkiError::Crl {
        path: path.to_path_buf(),
        source,
    }
}

/// The v1.2.1 credentials of a v2 PKI directory: root, AA and the root's CRL, no older than
/// the one `pki.toml` records.
fn load_pki_dir(dir: &Path, sub: &Path, allow_missing_crl: bool) -> Result<V1LoadedTrust, V1PkiError> {
    let mut store = V1TrustStore::new();
    let root = store.add_anchor(certificate(&sub.join("root.cert"))?);
    store.add_authority(certificate(&sub.join("aa.cert"))?);
    let mut warnings = Vec::new();
    let crl_path = sub.join(CRL_FILE);
    let last = crate::pki_store::read_config(dir).map_err(Box::new)?.last_v1_crl_issued;
    if crl_path.exists() {
        store.expect_crl_from(root);
        let bytes = read(&crl_path)?;
        let crl = super::crl::verify_v1_crl(&bytes, &store).map_err(crl_error(&crl_path))?;
        if let Some(expected) = last.filter(|last| crl.issued < *last) {
            return Err(V1PkiError::CrlRollback {
                path: crl_path,
                found: crl.issued,
                expected,
            });
        }
        store
            .revocation_mut()
            .install(crl)
            .map_err(|e| crl_error(&crl_path)(e.into()))?;
    } else if allow_missing_crl {
        warnings.push(format!(
            "{}: no v1.2.1 CRL; trusting the v1.2.1 root without revocation information (--insecure-allow-missing-crl)",
            crl_path.display()
        ));
    } else if last.is_none() {
        return Err(V1PkiError::CrlNotIssued { path: crl_path });
    } else {
        return Err(V1PkiError::MissingCrl { path: crl_path });
    }
    Ok(V1LoadedTrust { store, warnings })
}

/// A directory of v1.2.1 certificates (`*.cert`) and CRLs (`*.crl`).
fn load_certificate_dir(dir: &Path, allow_missing_crl: bool) -> Result<V1LoadedTrust, V1PkiError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| V1PkiError::Io {
            path: dir.to_path_buf(),
            source,
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let has_ext = |p: &Path, ext: &str| p.extension().is_some_and(|x| x == ext);
    let mut store = V1TrustStore::new();
    for path in files.iter().filter(|p| has_ext(p, "cert")) {
        let cert = certificate(path)?;
        if cert.subject_info.subject_type == SubjectType::ROOT_CA {
            store.add_anchor(cert);
        } else {
            store.add_authority(cert);
        }
    }
    if store.anchor_digests().next().is_none() {
        return Err(V1PkiError::NoRoot {
            path: dir.to_path_buf(),
        });
    }
    // CRLs oldest first, so that an older one here is superseded rather than refused.
    let mut crls: Vec<(&PathBuf, VerifiedCrl)> = Vec::new();
    for path in files.iter().filter(|p| has_ext(p, "crl")) {
        let crl = super::crl::verify_v1_crl(&read(path)?, &store).map_err(crl_error(path))?;
        crls.push((path, crl));
    }
    crls.sort_by_key(|(_, c)| c.issued);
    for (path, crl) in crls {
        store
            .revocation_mut()
            .install(crl)
            .map_err(|e| crl_error(path)(e.into()))?;
    }
    let mut warnings = Vec::new();
    let roots: Vec<_> = store.anchor_digests().copied().collect();
    for root in roots {
        if store.revocation().crls().any(|c| c.issuer.0 == root) {
            continue;
        }
        if allow_missing_crl {
            warnings.push(format!(
                "v1.2.1 root {} has no CRL in {}; trusting its chains without revocation information (--insecure-allow-missing-crl)",
                hex::encode(root),
                dir.display()
            ));
        } else {
            store.expect_crl_from(root);
        }
    }
    Ok(V1LoadedTrust { store, warnings })
}
