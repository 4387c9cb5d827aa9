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

use crate::certificate::Certificate;
use crate::chain::validated;
use crate::durable::{self, Access, DirLock, LockError};
use crate::entity::SecurityEntity;
use crate::replay::ReplayKey;
use crate::time::TaiTime;
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
}

#[derive(Serialize, Deserialize)]
struct StateFile {
    format: String,
    /// Learnt chains, hex C-OER, leaf first and trust anchor last.
    known_certificates: Vec<Vec<String>>,
    replay_window: Vec<ReplayEntry>,
}

#[derive(Serialize, Deserialize)]
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
}

/// A state directory held (locked) for the duration of a run.
#[derive(Debug)]
pub struct ReceiverState {
    file: PathBuf,
    _lock: DirLock,
}

impl ReceiverState {
    /// Creates `dir` if needed and takes its lock (another receiver on the same state
    /// waits up to `patience`).
    pub fn open(dir: &Path, patience: std::time::Duration) -> Result<ReceiverState, StateError> {
        durable::create_dir_all(dir).map_err(|source| StateError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let lock = DirLock::acquire_within(dir, patience)?;
        Ok(ReceiverState {
            file: dir.join(STATE_FILE),
            _lock: lock,
        })
    }

    /// Restores the learnt certificates and the replay window into `entity`.
    pub fn load_into(&self, entity: &mut SecurityEntity, now: TaiTime) -> Result<Loaded, StateError> {
        let bytes = match std::fs::read(&self.file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
            Err(source) => {
                return Err(StateError::Io {
                    path: self.file.clone(),
                    source,
                })
            }
        };
        let corrupt = |detail: String| StateError::Corrupt {
            path: self.file.clone(),
            detail,
        };
        let state: StateFile = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
        if state.format != FORMAT {
            return Err(corrupt(format!("format {:?}, expected {FORMAT:?}", state.format)));
        }
        let mut loaded = Loaded::default();
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

    /// Writes `entity`'s learnt certificates and replay window (atomically, durably).
    pub fn save(&self, entity: &SecurityEntity) -> Result<(), StateError> {
        let state = StateFile {
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
}
