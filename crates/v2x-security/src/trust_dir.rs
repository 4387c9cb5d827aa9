//! A receiver's trust configuration from a directory of certificates (`*.oer`: self-signed
//! ones become trust anchors, others chain links), trust lists (an ECTL verified with a
//! self-signed certificate of the directory, e.g. the EU TLM; root-CA CTLs verified with an
//! anchor) and CRLs of either format. (A PKI directory is loaded by
//! [`crate::pki_store::load_trust_dir`], which comes here for any other directory.)
//!
//! Strict by default: a PKI directory without its CRL, a rolled-back CRL, a trust list past
//! its nextUpdate, or a file that is none of the above is an error, and every root of a
//! certificate directory is expected to have its CRL there: chains under a root without one
//! are rejected `revocation-status-unknown` (deleting the CRL must not un-revoke). The
//! insecure options of [`TrustOptions`] load such material anyway and say so in
//! [`LoadedTrust::warnings`].

use crate::certificate::Certificate;
use crate::crl::verify_crl;
use crate::pki_error::PkiError;
use crate::signed::SignedDataError;
use crate::time::TaiTime;
use crate::trust_list::{verify_trust_list, TrustListError, TrustListPolicy};
use crate::trust_store::{TrustStore, TrustWarning};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use v2x_wire::ieee1609dot2 as wire;
use v2x_wire::ItsAid;

/// How a trust directory is loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustOptions {
    /// The time trust lists' nextUpdate is checked against (default: now).
    pub at: TaiTime,
    /// Trust lists past their nextUpdate (default: refused).
    pub trust_lists: TrustListPolicy,
    /// INSECURE lab option: trust a PKI directory whose CRL is missing, or the roots of a
    /// certificate directory that has none of theirs (no revocation information at all).
    pub insecure_allow_missing_crl: bool,
}

impl Default for TrustOptions {
    fn default() -> Self {
        TrustOptions {
            at: TaiTime::now(),
            trust_lists: TrustListPolicy::default(),
            insecure_allow_missing_crl: false,
        }
    }
}

/// A trust store and what the caller should tell the user about it.
#[derive(Debug)]
pub struct LoadedTrust {
    pub store: TrustStore,
    pub warnings: Vec<TrustWarning>,
}

/// What a file of a trust directory holds.
enum TrustFile {
    Certificate(Box<Certificate>),
    TrustList,
    Crl,
    Unknown,
}

fn classify(bytes: &[u8]) -> TrustFile {
    if let Ok(c) = Certificate::from_bytes(bytes) {
        return TrustFile::Certificate(Box::new(c));
    }
    if v2x_wire::trust_list::parse_trust_list(bytes).is_ok() {
        return TrustFile::TrustList;
    }
    let crl_psid = wire::parse_data(bytes).ok().and_then(|(data, _)| {
        let signed = wire::signed_data(&data)?;
        crate::convert::psid_value(&signed.tbs_data.header_info.psid)
    });
    match crl_psid {
        Some(ItsAid::IEEE_CRL) | Some(ItsAid::ETSI_CRL) => TrustFile::Crl,
        _ => TrustFile::Unknown,
    }
}

/// Loads a trust store from a directory of certificates, trust lists and CRLs (see the
/// module documentation; a PKI directory is loaded by [`crate::pki_store::load_trust_dir`]).
pub fn load_certificate_dir(dir: &Path, options: &TrustOptions) -> Result<LoadedTrust, PkiError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| PkiError::Io { path, source }
    };
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    let mut store = TrustStore::new();
    let mut warnings = Vec::new();
    let mut self_signed = Vec::new();
    let mut lists = Vec::new();
    let mut crls = Vec::new();
    for f in files {
        let bytes = crate::bounded_read::read_file_bounded(&f).map_err(io(&f))?;
        match classify(&bytes) {
            TrustFile::Certificate(c) if c.is_self_signed() => {
                let c = Arc::new(*c);
                store.add_trust_anchor(c.clone()).map_err(|source| PkiError::Anchor {
                    path: f.clone(),
                    source,
                })?;
                self_signed.push(c);
            }
            TrustFile::Certificate(c) => store.add_ca_certificate(Arc::new(*c)),
            TrustFile::TrustList => lists.push((f, bytes)),
            TrustFile::Crl => crls.push((f, bytes)),
            TrustFile::Unknown => return Err(PkiError::UnknownFile { path: f }),
        }
    }
    // Trust lists after the certificates: an ECTL signed by one of the self-signed
    // certificates here, or a root CA's CTL signed by an anchor.
    for (f, bytes) in lists {
        let is_ectl = v2x_wire::trust_list::parse_trust_list(&bytes)
            .is_ok_and(|l| l.list.issuer == v2x_wire::trust_list::TrustListIssuer::Tlm);
        let loaded = if is_ectl {
            // The TLM is the self-signed certificate here whose signature the list carries.
            let tlm = self_signed
                .iter()
                .find(|tlm| verify_trust_list(&bytes, tlm).is_ok())
                .or_else(|| self_signed.first())
                .cloned();
            match tlm {
                Some(tlm) => store.load_ectl(&bytes, &tlm, options.at, options.trust_lists),
                None => Err(TrustListError::Signature(SignedDataError::UnsupportedSigner)),
            }
        } else {
            store.load_rca_ctl(&bytes, options.at, options.trust_lists)
        }
        .map_err(|source| PkiError::TrustList { path: f, source })?;
        warnings.extend(loaded.warnings);
    }
    // CRLs oldest first, so that an older CRL in the same directory is superseded rather
    // than refused as a rollback.
    let mut verified = Vec::new();
    for (f, bytes) in crls {
        let crl = verify_crl(&bytes, &store).map_err(|source| PkiError::Crl {
            path: f.clone(),
            source,
        })?;
        verified.push((f, crl));
    }
    verified.sort_by_key(|(_, c)| (c.issued, c.serial));
    for (f, crl) in verified {
        store.revocation_mut().install(crl).map_err(|e| PkiError::Crl {
            path: f,
            source: e.into(),
        })?;
    }
    // Every root (the ECTL's too) publishes a CRL: without it here, revocation cannot be told.
    let roots: Vec<_> = store.anchors().map(|a| a.hashed_id8()).collect();
    for root in roots {
        if store.revocation().crls().any(|c| c.issuer == root) {
            continue;
        }
        if options.insecure_allow_missing_crl {
            warnings.push(TrustWarning::RootWithoutCrl { root });
        } else {
            store.revocation_mut().expect_crl_from(root);
        }
    }
    Ok(LoadedTrust { store, warnings })
}
