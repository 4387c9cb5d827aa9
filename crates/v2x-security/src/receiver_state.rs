//! A receiver's state kept between runs (`v2x decap --state DIR`): the certificates learnt
//! from earlier messages, so that digest-signed messages verify, and the replay window, so
//! that a copy received in a later run is still caught.
//!
//! The state is one JSON file, `DIR/receiver-state.json`, replaced atomically and durably
//! ([`crate::durable::replace`]) under the directory lock: a killed run or a full disk
//! leaves the previous state whole. Nothing in it is trusted: every learnt chain is
//! validated again against the current trust store when loaded (a chain whose root is no
//! longer trusted, or that was revoked since, is dropped and named), and every replay entry
//! keeps its own expiry (entries expired at load time are forgotten). The CA certificates of
//! the validated chains (e.g. an AA answered by P2PCD) are available again for building the
//! chains of other tickets.
//!
//! A signature-only run (`--signature-only`, INSECURE) keeps apart the certificates whose
//! message signatures it verified, so digest-signed messages of later signature-only runs
//! resolve; they are never loaded into a strict run.
//!
//! Revocation cannot be rolled back across runs: the state remembers the newest CRL seen from
//! each issuer (format, series, issue time, serial) and the newest trust list from each
//! signer (nextUpdate, sequence). A trust configuration holding an older one is refused
//! ([`StateError::Rollback`]); one holding no CRL from an issuer the state has seen makes that
//! issuer's CRL expected again, so chains under it are rejected `revocation-status-unknown`
//! (unless the caller allows a missing CRL, an insecure lab option).
//!
//! The v1.2.1 receiver ([`V1Entity`]) keeps the same in its own section of the file: the CA
//! certificates and tickets it learnt (validated again at load), its replay window (the
//! identity of each message with the time it goes stale), the newest v1.2.1 CRL seen from
//! each root and its signature-only certificates. A run that has only one of the two
//! receivers leaves the other's section as it was.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use crate::certificate::Certificate;
use crate::chain::validated;
use crate::durable::{self, Access, DirLock, LockError};
use crate::entity::{DecapMode, SecurityEntity};
use crate::replay::ReplayKey;
use crate::revocation::CrlFormat;
use crate::time::TaiTime;
use crate::trust_store::TrustListVersion;
use crate::v1_2_1::V1Entity;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use v2x_crypto::HashedId8;

pub const STATE_FILE: &str = "receiver-state.json";
const FORMAT: &str = "v2x-receiver-state/1";

#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: not a receiver state ({detail}); the file is left as it is", path.display())]
    Corrupt { path: PathBuf, detail: String },
    /// The trust configuration holds revocation information older than this state has seen.
    #[error("{}: {detail}: refused, it would undo revocations", path.display())]
    Rollback { path: PathBuf, detail: String },
}

#[derive(Serialize, Deserialize, Clone)]
struct StateFile {
    format: String,
    /// Learnt chains, hex C-OER, leaf first and trust anchor last.
    known_certificates: Vec<Vec<String>>,
    replay_window: Vec<ReplayEntry>,
    /// The newest CRL seen from each (issuer, format, series).
    #[serde(default)]
    newest_crls: Vec<CrlSeen>,
    /// The newest trust list seen from each signer.
    #[serde(default)]
    newest_trust_lists: Vec<TrustListSeen>,
    /// Certificates whose message signature a signature-only run verified (hex C-OER; NOT
    /// validated): restored for signature-only runs only.
    #[serde(default)]
    signature_only_certificates: Vec<String>,
    /// The v1.2.1 receiver's part.
    #[serde(default, rename = "v1.2.1")]
    v1_2_1: V1Section,
}

/// What a v1.2.1 receiver keeps between runs (certificates in hex of their v1.2.1 encoding).
#[derive(Serialize, Deserialize, Clone, Default)]
struct V1Section {
    /// CA certificates (configured or learnt from certificate chains), validated at load.
    authorities: Vec<String>,
    /// Tickets learnt from verified messages, validated at load.
    tickets: Vec<String>,
    replay_window: Vec<V1ReplayEntry>,
    /// The newest CRL seen from each root.
    newest_crls: Vec<CrlSeen>,
    /// Certificates whose message signature a signature-only run verified (NOT validated).
    signature_only_certificates: Vec<String>,
}

#[derive(Serialize, Deserialize, Clone)]
struct V1ReplayEntry {
    /// SHA-256 of the signed bytes.
    identity: String,
    expires_us: u64,
}

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "kebab-case")]
enum CrlFormatName {
    Ieee1609dot2,
    Ts102941,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct CrlSeen {
    issuer: String,
    format: CrlFormatName,
    series: u16,
    /// issueDate / thisUpdate, Time32.
    issued: u32,
    serial: u32,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
struct TrustListSeen {
    signer: String,
    next_update: u32,
    sequence: u8,
}

impl CrlSeen {
    fn key(&self) -> (&str, CrlFormatName, u16) {
        (&self.issuer, self.format, self.series)
    }
    fn version(&self) -> (u32, u32) {
        (self.issued, self.serial)
    }
}

#[derive(Serialize, Deserialize, Clone)]
struct ReplayEntry {
    signer: String,
    generation_time_us: u64,
    tbs_hash: String,
    expires_us: u64,
}

/// What loading the state found.
#[derive(Debug, Default)]
pub struct Loaded {
    pub certificates: usize,
    pub replay_entries: usize,
    /// Learnt certificates dropped because they no longer validate (each named).
    pub dropped: Vec<String>,
    /// Issuers whose CRL the state has seen and the trust configuration lacks (each named):
    /// their CRL is expected again, unless a missing CRL was allowed.
    pub missing_crls: Vec<String>,
}

/// A state directory held (locked) for the duration of a run.
pub struct ReceiverState {
    file: PathBuf,
    _lock: DirLock,
    /// What the state file said when opened (its revocation records and signature-only
    /// certificates are merged with what is held on save; the section of a receiver this
    /// run does not have is written back as it was).
    previous: StateFile,
}

impl std::fmt::Debug for ReceiverState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiverState")
            .field("file", &self.file)
            .finish_non_exhaustive()
    }
}

impl Default for StateFile {
    fn default() -> Self {
        StateFile {
            format: FORMAT.into(),
            known_certificates: Vec::new(),
            replay_window: Vec::new(),
            newest_crls: Vec::new(),
            newest_trust_lists: Vec::new(),
            signature_only_certificates: Vec::new(),
            v1_2_1: V1Section::default(),
        }
    }
}

impl ReceiverState {
    /// Creates `dir` if needed, takes its lock (another receiver on the same state waits up
    /// to `patience`) and reads the state (a damaged one is refused and left as it is).
    pub fn open(dir: &Path, patience: std::time::Duration) -> Result<ReceiverState, StateError> {
        durable::create_dir_all(dir).map_err(|source| StateError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let lock = DirLock::acquire_within(dir, patience)?;
        let file = dir.join(STATE_FILE);
        let previous = match std::fs::read(&file) {
            Ok(bytes) => {
                let corrupt = |detail: String| StateError::Corrupt {
                    path: file.clone(),
                    detail,
                };
                let state: StateFile = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
                if state.format != FORMAT {
                    return Err(corrupt(format!("format {:?}, expected {FORMAT:?}", state.format)));
                }
                state
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => StateFile::default(),
            Err(source) => return Err(StateError::Io { path: file, source }),
        };
        Ok(ReceiverState {
            file,
            _lock: lock,
            previous,
        })
    }

    fn corrupt(&self, detail: String) -> StateError {
        StateError::Corrupt {
            path: self.file.clone(),
            detail,
        }
    }

    /// Restores the learnt certificates and the replay window into `entity`, after checking
    /// that its trust store holds no CRL or trust list older than the state has seen; an
    /// issuer's CRL the state has seen but the store lacks is expected again unless
    /// `allow_missing_crl` (INSECURE).
    pub fn load_into(
        &mut self,
        entity: &mut SecurityEntity,
        now: TaiTime,
        allow_missing_crl: bool,
    ) -> Result<Loaded, StateError> {
        let state = &self.previous;
        let corrupt = |detail: String| self.corrupt(detail);
        let mut loaded = Loaded::default();
        self.check_revocation(state, entity, allow_missing_crl, &mut loaded)?;
        if entity.policy().mode == DecapMode::SignatureOnly {
            for h in &state.signature_only_certificates {
                let b = hex::decode(h).map_err(|e| corrupt(format!("certificate hex: {e}")))?;
                let c = Certificate::from_bytes(&b).map_err(|e| corrupt(format!("certificate: {e}")))?;
                entity.learn_signature_only_certificate(Arc::new(c));
            }
        }
        for chain in &state.known_certificates {
            let mut certs = Vec::with_capacity(chain.len());
            for h in chain {
                let b = hex::decode(h).map_err(|e| corrupt(format!("certificate hex: {e}")))?;
                let c = Certificate::from_bytes(&b).map_err(|e| corrupt(format!("certificate: {e}")))?;
                certs.push(Arc::new(c));
            }
            let Some((leaf, extra)) = certs.split_first() else {
                return Err(corrupt("empty certificate chain".into()));
            };
            match validated(leaf, extra, entity.trust_store_mut()) {
                Ok(v) => {
                    loaded.certificates += 1;
                    // Its CAs (e.g. an AA learnt by P2PCD) build the chains of other tickets.
                    let chain = v.chain();
                    for ca in chain.iter().skip(1).take(chain.len().saturating_sub(2)) {
                        entity.trust_store_mut().add_ca_certificate(ca.clone());
                    }
                }
                Err(r) => loaded.dropped.push(format!("{}: {}", leaf.hashed_id8(), r)),
            }
        }
        for e in state.replay_window.iter().filter(|e| TaiTime(e.expires_us) >= now) {
            let signer: [u8; 8] = hex::decode(&e.signer)
                .ok()
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| corrupt(format!("replay signer {:?}", e.signer)))?;
            let tbs_hash: [u8; 16] = hex::decode(&e.tbs_hash)
                .ok()
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| corrupt(format!("replay hash {:?}", e.tbs_hash)))?;
            let key = ReplayKey {
                signer: HashedId8(signer),
                generation_time: e.generation_time_us,
                tbs_hash,
            };
            entity.replay_cache_mut().insert(key, TaiTime(e.expires_us), now);
        }
        loaded.replay_entries = entity.replay_cache().len();
        Ok(loaded)
    }

    /// Refuses a store holding a CRL or trust list older than `state` has seen; expects again
    /// the CRLs it has seen and the store lacks.
    fn check_revocation(
        &self,
        state: &StateFile,
        entity: &mut SecurityEntity,
        allow_missing_crl: bool,
        loaded: &mut Loaded,
    ) -> Result<(), StateError> {
        let held = held_crls(entity.trust_store().revocation());
        for issuer in self.missing_crls(&state.newest_crls, &held, loaded)? {
            if !allow_missing_crl {
                entity.trust_store_mut().revocation_mut().expect_crl_from(issuer);
            }
        }
        for seen in &state.newest_trust_lists {
            let signer = parse_id8(&seen.signer).ok_or_else(|| StateError::Corrupt {
                path: self.file.clone(),
                detail: format!("trust list signer {:?}", seen.signer),
            })?;
            if let Some(h) = entity.trust_store().trust_list_version(&signer) {
                let offered = TrustListVersion {
                    next_update: seen.next_update,
                    sequence: seen.sequence,
                };
                if h < offered {
                    return Err(StateError::Rollback {
                        path: self.file.clone(),
                        detail: format!(
                            "the trust list of {} loaded has nextUpdate {} (sequence {}); this state has seen nextUpdate {} (sequence {})",
                            seen.signer, h.next_update, h.sequence, seen.next_update, seen.sequence
                        ),
                    });
                }
            }
        }
        Ok(())
    }

    /// Refuses CRLs `held` older than the ones `seen`; returns the issuers of those seen and
    /// not held (each also named in `loaded`).
    fn missing_crls(
        &self,
        seen: &[CrlSeen],
        held: &[CrlSeen],
        loaded: &mut Loaded,
    ) -> Result<Vec<HashedId8>, StateError> {
        let mut missing = Vec::new();
        for seen in seen {
            let issuer =
                parse_id8(&seen.issuer).ok_or_else(|| self.corrupt(format!("CRL issuer {:?}", seen.issuer)))?;
            match held.iter().find(|h| h.key() == seen.key()) {
                Some(h) if h.version() < seen.version() => {
                    return Err(StateError::Rollback {
                        path: self.file.clone(),
                        detail: format!(
                            "the trust configuration's CRL of {} (series {}) was issued at {} (serial {}); this state has seen one issued at {} (serial {})",
                            seen.issuer, seen.series, h.issued, h.serial, seen.issued, seen.serial
                        ),
                    })
                }
                Some(_) => {}
                None => {
                    loaded.missing_crls.push(seen.issuer.clone());
                    missing.push(issuer);
                }
            }
        }
        Ok(missing)
    }

    /// Restores the v1.2.1 receiver's part into `entity`: refuses a trust store holding a CRL
    /// older than the state has seen (and expects again one it lacks, unless
    /// `allow_missing_crl`, INSECURE), validates the certificates again at `now` (dropping and
    /// naming those that no longer validate), and restores the replay window and, for a
    /// signature-only run, the signature-only certificates.
    pub fn load_v1_into(
        &mut self,
        entity: &mut V1Entity,
        now: TaiTime,
        allow_missing_crl: bool,
        signature_only: bool,
    ) -> Result<Loaded, StateError> {
        let section = self.previous.v1_2_1.clone();
        let mut loaded = Loaded::default();
        let held = held_crls(entity.store.revocation());
        for issuer in self.missing_crls(&section.newest_crls, &held, &mut loaded)? {
            if !allow_missing_crl {
                entity.store.expect_crl_from(issuer.0);
            }
        }
        let decode = |h: &String| -> Result<v2x_wire::v1_2_1::Certificate, StateError> {
            let b = hex::decode(h).map_err(|e| self.corrupt(format!("v1.2.1 certificate hex: {e}")))?;
            v2x_wire::v1_2_1::Certificate::from_bytes(&b).map_err(|e| self.corrupt(format!("v1.2.1 certificate: {e}")))
        };
        if signature_only {
            for h in &section.signature_only_certificates {
                entity.learn_signature_only_certificate(decode(h)?);
            }
        }
        let at = now.to_time32();
        // The CAs first: the tickets' chains are built through them.
        for h in &section.authorities {
            let ca = decode(h)?;
            match entity.store.validate_chain(&ca, &[], at) {
                Ok(_) => {
                    entity.store.learn_authority(ca);
                    loaded.certificates += 1;
                }
                Err(r) => loaded
                    .dropped
                    .push(format!("{}: {r}", hex::encode(crate::v1_2_1::certificate_digest(&ca)))),
            }
        }
        for h in &section.tickets {
            let ticket = decode(h)?;
            match entity.store.validate_chain(&ticket, &[], at) {
                Ok(_) => {
                    entity.store.learn_ticket(ticket);
                    loaded.certificates += 1;
                }
                Err(r) => loaded.dropped.push(format!(
                    "{}: {r}",
                    hex::encode(crate::v1_2_1::certificate_digest(&ticket))
                )),
            }
        }
        for e in &section.replay_window {
            let identity: [u8; 32] = hex::decode(&e.identity)
                .ok()
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| self.corrupt(format!("v1.2.1 replay identity {:?}", e.identity)))?;
            entity.restore_replay_entry(identity, TaiTime(e.expires_us), now);
        }
        loaded.replay_entries = entity.replay_entries().count();
        Ok(loaded)
    }

    /// Writes the state (atomically, durably): for each receiver of this run (`v2`, `v1`), its
    /// learnt certificates and replay window, and the newest CRLs and trust lists seen; the
    /// section of a receiver this run does not have stays as it was.
    pub fn save(&self, v2: Option<&SecurityEntity>, v1: Option<&V1Entity>) -> Result<(), StateError> {
        let mut state = match v2 {
            Some(entity) => self.v2_sections(entity),
            None => self.previous.clone(),
        };
        state.v1_2_1 = match v1 {
            Some(v1) => self.v1_section(v1),
            None => self.previous.v1_2_1.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&state).map_err(|e| StateError::Io {
            path: self.file.clone(),
            source: std::io::Error::other(e),
        })?;
        durable::replace(&self.file, &bytes, Access::OwnerOnly).map_err(|source| StateError::Io {
            path: self.file.clone(),
            source,
        })
    }

    fn v1_section(&self, v1: &V1Entity) -> V1Section {
        let p = &self.previous.v1_2_1;
        let hex_of = |c: &v2x_wire::v1_2_1::Certificate| hex::encode(c.to_bytes());
        let mut signature_only = p.signature_only_certificates.clone();
        for h in v1.signature_only_certificates().map(hex_of) {
            if !signature_only.contains(&h) {
                signature_only.push(h);
            }
        }
        V1Section {
            authorities: v1.store.authorities().map(hex_of).collect(),
            tickets: v1.store.tickets().map(hex_of).collect(),
            replay_window: v1
                .replay_entries()
                .map(|(id, expires)| V1ReplayEntry {
                    identity: hex::encode(id),
                    expires_us: expires.0,
                })
                .collect(),
            newest_crls: merge_newest(&p.newest_crls, held_crls(v1.store.revocation())),
            signature_only_certificates: signature_only,
        }
    }

    /// The v2 part of the state from `entity`.
    fn v2_sections(&self, entity: &SecurityEntity) -> StateFile {
        let crls = merge_newest(&self.previous.newest_crls, held_crls(entity.trust_store().revocation()));
        let mut lists = self.previous.newest_trust_lists.clone();
        for (signer, v) in entity.trust_store().trust_list_versions() {
            let h = TrustListSeen {
                signer: signer.to_string(),
                next_update: v.next_update,
                sequence: v.sequence,
            };
            match lists.iter_mut().find(|l| l.signer == h.signer) {
                Some(l) if (l.next_update, l.sequence) < (h.next_update, h.sequence) => *l = h,
                Some(_) => {}
                None => lists.push(h),
            }
        }
        let mut signature_only = self.previous.signature_only_certificates.clone();
        for c in entity.signature_only_certificates() {
            let h = hex::encode(c.encoded());
            if !signature_only.contains(&h) {
                signature_only.push(h);
            }
        }
        StateFile {
            format: FORMAT.into(),
            known_certificates: entity
                .trust_store()
                .known_chains()
                .iter()
                .map(|v| v.chain().iter().map(|c| hex::encode(c.encoded())).collect())
                .collect(),
            replay_window: entity
                .replay_cache()
                .entries()
                .map(|(k, expires)| ReplayEntry {
                    signer: hex::encode(k.signer.0),
                    generation_time_us: k.generation_time,
                    tbs_hash: hex::encode(k.tbs_hash),
                    expires_us: expires.0,
                })
                .collect(),
            newest_crls: crls,
            newest_trust_lists: lists,
            signature_only_certificates: signature_only,
            v1_2_1: V1Section::default(),
        }
    }
}

/// `seen` updated with `held`: per (issuer, format, series) the newer of the two.
fn merge_newest(seen: &[CrlSeen], held: Vec<CrlSeen>) -> Vec<CrlSeen> {
    let mut crls = seen.to_vec();
    for h in held {
        match crls.iter_mut().find(|c| c.key() == h.key()) {
            Some(c) if c.version() < h.version() => *c = h,
            Some(_) => {}
            None => crls.push(h),
        }
    }
    crls
}

/// The CRLs of a revocation set, as the state records them.
fn held_crls(revocation: &crate::revocation::RevocationSet) -> Vec<CrlSeen> {
    revocation
        .crls()
        .map(|c| CrlSeen {
            issuer: c.issuer.to_string(),
            format: match c.format {
                CrlFormat::Ieee1609Dot2 => CrlFormatName::Ieee1609dot2,
                CrlFormat::EtsiTs102941 => CrlFormatName::Ts102941,
            },
            series: c.series,
            issued: c.issued,
            serial: c.serial,
        })
        .collect()
}

fn parse_id8(hex_id: &str) -> Option<HashedId8> {
    let b: [u8; 8] = hex::decode(hex_id).ok()?.try_into().ok()?;
    Some(HashedId8(b))
}
