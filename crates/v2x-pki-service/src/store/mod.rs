//! The service's state behind one interface, [`Store`]: the EA's registry of ITS-S canonical
//! keys and the ECs it issued, the AA's issued tickets, each role's replay memory, the EA's
//! per-EC validation counters and the root's revoked CAs. Two implementations:
//! [`sqlite::SqliteStore`] (embedded, the default) and [`postgres::PgStore`] (several service
//! instances share one database). Both run the same versioned migrations (sqlx's migrator,
//! `migrations/{sqlite,postgres}/`) and the same SQL, but for the writes: PostgreSQL runs each
//! `WritePlan` as one statement (`postgres::apply`), a round trip per write rather than per
//! step.
//!
//! Writes that issue something go through [`Store::commit`]: one transaction for a batch of
//! [`Write`]s (the service groups concurrent requests so that one fsync covers many). A request
//! seen before (same replay key) is refused by the database's unique constraint, not by a
//! read-then-write, so two instances — or a retried request racing its first copy — can never
//! both issue. A failed transaction writes nothing; its requests are answered with an error and
//! no certificate leaves the service that is not stored.

pub mod postgres;
pub mod sqlite;

use std::future::Future;
use v2x_crypto::{Curve, HashedId8, PublicKey};
use v2x_security::certificate::AppPermission;
use v2x_security::ItsAid;

/// Why the store could not answer. Every variant is an error of the store, never of the request.
#[derive(Debug, Clone, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached or refuses to work (down, disk full, read-only): the
    /// request is answered with 503 and nothing was written.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// A stored row does not decode (damaged or written by something else).
    #[error("stored data is damaged: {0}")]
    Damaged(String),
    /// A schema migration failed or the schema is newer than this program.
    #[error("database schema: {0}")]
    Migration(String),
    /// An unknown store URL.
    #[error("{0}")]
    Url(String),
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        match e {
            sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) | sqlx::Error::ColumnNotFound(_) => {
                StoreError::Damaged(e.to_string())
            }
            other => StoreError::Unavailable(other.to_string()),
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::FromSqlConversionFailure(..)
            | rusqlite::Error::InvalidColumnType(..)
            | rusqlite::Error::InvalidColumnIndex(_)
            | rusqlite::Error::IntegralValueOutOfRange(..) => StoreError::Damaged(e.to_string()),
            other => StoreError::Unavailable(other.to_string()),
        }
    }
}

impl From<sqlx::migrate::MigrateError> for StoreError {
    fn from(e: sqlx::migrate::MigrateError) -> Self {
        StoreError::Migration(e.to_string())
    }
}

/// An ITS-S in the EA's registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StationRow {
    pub its_id: Vec<u8>,
    pub canonical_key: PublicKey,
    pub revoked: bool,
    /// What its authorization tickets may permit.
    pub at_permissions: Vec<AppPermission>,
}

/// An EC the EA issued, with what its station's record says.
#[derive(Debug, Clone)]
pub struct EcRow {
    pub ec_id: HashedId8,
    pub its_id: Vec<u8>,
    pub certificate: Vec<u8>,
    /// The EC or its station is revoked.
    pub revoked: bool,
    pub at_permissions: Vec<AppPermission>,
}

/// One write of a batch.
#[derive(Debug, Clone)]
pub enum Write {
    /// The EA issued `certificate` (an EC) to `its_id` for the request `replay_key`.
    Enrolment {
        replay_key: [u8; 32],
        its_id: Vec<u8>,
        ec_id: HashedId8,
        certificate: Vec<u8>,
        not_after: i64,
        at: i64,
    },
    /// The EA validated an authorization for EC `ec_id` (EC signature `replay_key`); at most
    /// `limit.0` per EC in any `limit.1` seconds window when a limit is set.
    Validation {
        replay_key: [u8; 32],
        ec_id: HashedId8,
        at: i64,
        limit: Option<(i64, i64)>,
    },
    /// The AA issued `certificate` (an AT) for the request `replay_key`.
    Authorization {
        replay_key: [u8; 32],
        at_id: HashedId8,
        certificate: Vec<u8>,
        not_after: i64,
        request_hash: [u8; 16],
        at: i64,
    },
}

/// What became of one write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// The replay key was already stored: nothing written for this one.
    Replay,
    /// The EC's validation limit is reached: nothing written for this one.
    TooMany,
}

/// Whose replay memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Ea,
    Aa,
}

/// How many rows of each kind (for `v2x pki serve --json` status and the tests).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub stations: i64,
    pub enrolment_credentials: i64,
    pub authorization_tickets: i64,
    pub ea_requests: i64,
    pub aa_requests: i64,
}

/// The store interface (see the module documentation).
pub trait Store: Send + Sync + 'static {
    /// A registered ITS-S by canonical id.
    fn station(&self, its_id: &[u8]) -> impl Future<Output = Result<Option<StationRow>, StoreError>> + Send;
    /// An EC by HashedId8, with its station's status and permissions.
    fn enrolment_credential(&self, id: HashedId8) -> impl Future<Output = Result<Option<EcRow>, StoreError>> + Send;
    /// Whether `role` has stored this replay key (a cheap early refusal; [`Store::commit`] is
    /// the authority).
    fn seen(&self, role: Role, replay_key: &[u8; 32]) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Applies a batch in one transaction: all written, or nothing and an error.
    fn commit(&self, writes: &[Write]) -> impl Future<Output = Result<Vec<Outcome>, StoreError>> + Send;
    /// Registers (or re-registers) an ITS-S.
    fn register_station(&self, row: &StationRow, at: i64) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// Sets an ITS-S's revocation status; `false` when it is unknown.
    fn set_station_revoked(
        &self,
        its_id: &[u8],
        revoked: bool,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Sets an EC's revocation status; `false` when it is unknown.
    fn set_ec_revoked(&self, id: HashedId8, revoked: bool) -> impl Future<Output = Result<bool, StoreError>> + Send;
    /// Adds a CA certificate to the root's revocation list.
    fn revoke_ca(&self, id: HashedId8, at: i64) -> impl Future<Output = Result<(), StoreError>> + Send;
    /// The revoked CA certificates (the CRL's entries).
    fn revoked_cas(&self) -> impl Future<Output = Result<Vec<HashedId8>, StoreError>> + Send;
    /// Forgets replay keys received before `before` (Unix seconds): older requests are
    /// refused as stale anyway. Returns how many.
    fn prune_replay(&self, before: i64) -> impl Future<Output = Result<u64, StoreError>> + Send;
    /// Every authorization ticket the AA issued (HashedId8, certificate), for audit.
    fn issued_tickets(&self) -> impl Future<Output = Result<Vec<(HashedId8, Vec<u8>)>, StoreError>> + Send;
    /// Row counts.
    fn counts(&self) -> impl Future<Output = Result<Counts, StoreError>> + Send;
    /// CPU time the store spent on its callers' threads (SQLite's lookups run there;
    /// PostgreSQL's work is done by its server): the benchmark counts it as database time.
    fn caller_cpu(&self) -> std::time::Duration;
    /// How many [`Store::commit`]s the committer may run at once: 1 for SQLite (one writer),
    /// several for PostgreSQL (one connection each, so that their fsyncs are shared).
    fn concurrent_commits(&self) -> usize;
}

/// Either store, chosen by URL (`sqlite:PATH` or `postgres://...`).
pub enum AnyStore {
    Sqlite(sqlite::SqliteStore),
    Postgres(postgres::PgStore),
}

impl AnyStore {
    /// Opens (and migrates) the store at `url`: `sqlite:PATH` (created when missing) or
    /// `postgres://USER@HOST/DB` / `postgresql://...`.
    pub async fn open(url: &str) -> Result<AnyStore, StoreError> {
        if let Some(path) = url.strip_prefix("sqlite:") {
            Ok(AnyStore::Sqlite(
                sqlite::SqliteStore::open(std::path::Path::new(path)).await?,
            ))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(AnyStore::Postgres(postgres::PgStore::open(url).await?))
        } else {
            Err(StoreError::Url(format!(
                "unknown store {url:?}: give sqlite:PATH or postgres://USER@HOST[:PORT]/DB"
            )))
        }
    }
}

/// A permission list as stored (JSON: PSID and SSP hex).
pub(crate) fn permissions_to_json(p: &[AppPermission]) -> String {
    let list: Vec<serde_json::Value> = p
        .iter()
        .map(|a| serde_json::json!({ "psid": a.psid.0, "ssp": a.ssp.as_ref().map(hex::encode) }))
        .collect();
    serde_json::Value::Array(list).to_string()
}

pub(crate) fn permissions_from_json(s: &str) -> Result<Vec<AppPermission>, StoreError> {
    let damaged = |what: &str| StoreError::Damaged(format!("at_permissions: {what}"));
    let v: serde_json::Value = serde_json::from_str(s).map_err(|e| damaged(&e.to_string()))?;
    v.as_array()
        .ok_or_else(|| damaged("not a list"))?
        .iter()
        .map(|e| {
            let psid = e["psid"].as_u64().ok_or_else(|| damaged("psid"))?;
            let ssp = match &e["ssp"] {
                serde_json::Value::Null => None,
                serde_json::Value::String(h) => Some(hex::decode(h).map_err(|_| damaged("ssp"))?),
                _ => return Err(damaged("ssp")),
            };
            Ok(AppPermission::new(ItsAid(psid), ssp))
        })
        .collect()
}

pub(crate) fn key_to_row(k: &PublicKey) -> (String, Vec<u8>) {
    (k.curve().short_name().to_string(), k.to_sec1(true))
}

pub(crate) fn key_from_row(curve: &str, sec1: &[u8]) -> Result<PublicKey, StoreError> {
    let c = Curve::from_short_name(curve).ok_or_else(|| StoreError::Damaged(format!("curve {curve:?}")))?;
    PublicKey::from_sec1(c, sec1).map_err(|e| StoreError::Damaged(format!("canonical key: {e}")))
}

pub(crate) fn id8(bytes: &[u8]) -> Result<HashedId8, StoreError> {
    let a: [u8; 8] = bytes
        .try_into()
        .map_err(|_| StoreError::Damaged(format!("HashedId8 of {} bytes", bytes.len())))?;
    Ok(HashedId8(a))
}

/// The hot path's SQL, run by both stores (SQLite accepts PostgreSQL's `$n` parameters).
pub(crate) mod sql {
    pub const STATION: &str =
        "SELECT canonical_curve, canonical_key, revoked, at_permissions FROM ea_stations WHERE its_id = $1";
    pub const ENROLMENT_CREDENTIAL: &str = "SELECT e.its_id, e.certificate, e.revoked OR s.revoked, s.at_permissions \
         FROM ea_enrolment_credentials e JOIN ea_stations s ON s.its_id = e.its_id WHERE e.ec_id = $1";
    pub const SEEN_EA: &str = "SELECT 1 FROM ea_requests WHERE replay_key = $1";
    pub const SEEN_AA: &str = "SELECT 1 FROM aa_requests WHERE replay_key = $1";
}

/// One SQL argument of a write.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    Bytes(&'a [u8]),
    Int(i64),
}

/// A statement and its arguments.
#[derive(Debug)]
pub(crate) struct Stmt<'a> {
    pub sql: &'static str,
    pub args: Vec<Arg<'a>>,
}

/// How one [`Write`] is applied inside a batch's transaction (statement by statement on
/// SQLite; `postgres::apply` runs the same steps as one statement and must stay in step):
/// `claim` stores the replay key (no row: the key was taken, [`Outcome::Replay`], nothing
/// else runs); `limit` counts one use against a limit (no row: [`Outcome::TooMany`], and its
/// undo statement gives the key back); `store` keeps what was issued.
#[derive(Debug)]
pub(crate) struct WritePlan<'a> {
    pub claim: Stmt<'a>,
    pub limit: Option<(Stmt<'a>, Stmt<'a>)>,
    pub store: Option<Stmt<'a>>,
}

impl Write {
    pub(crate) fn plan(&self) -> WritePlan<'_> {
        use Arg::{Bytes, Int};
        let stmt = |sql, args| Stmt { sql, args };
        match self {
            Write::Enrolment {
                replay_key,
                its_id,
                ec_id,
                certificate,
                not_after,
                at,
            } => WritePlan {
                claim: stmt(
                    "INSERT INTO ea_requests (replay_key, kind, received_at) VALUES ($1, 1, $2) \
                     ON CONFLICT (replay_key) DO NOTHING",
                    vec![Bytes(replay_key), Int(*at)],
                ),
                limit: None,
                store: Some(stmt(
                    "INSERT INTO ea_enrolment_credentials \
                     (ec_id, its_id, certificate, not_after, issued_at) VALUES ($1, $2, $3, $4, $5)",
                    vec![
                        Bytes(&ec_id.0),
                        Bytes(its_id),
                        Bytes(certificate),
                        Int(*not_after),
                        Int(*at),
                    ],
                )),
            },
            Write::Validation {
                replay_key,
                ec_id,
                at,
                limit,
            } => {
                // One more validation in the EC's current window, unless the limit is reached
                // (then no row comes back and nothing changes).
                let (max, window) = limit.unwrap_or((i64::MAX, i64::MAX / 4));
                WritePlan {
                    claim: stmt(
                        "INSERT INTO ea_requests (replay_key, kind, received_at) VALUES ($1, 2, $2) \
                         ON CONFLICT (replay_key) DO NOTHING",
                        vec![Bytes(replay_key), Int(*at)],
                    ),
                    limit: Some((
                        stmt(
                            "INSERT INTO ea_ec_usage (ec_id, window_start, validations) VALUES ($1, $2, 1) \
                             ON CONFLICT (ec_id) DO UPDATE SET \
                               window_start = CASE WHEN ea_ec_usage.window_start <= $3 THEN $2 ELSE ea_ec_usage.window_start END, \
                               validations = CASE WHEN ea_ec_usage.window_start <= $3 THEN 1 ELSE ea_ec_usage.validations + 1 END \
                             WHERE ea_ec_usage.window_start <= $3 OR ea_ec_usage.validations < $4",
                            vec![Bytes(&ec_id.0), Int(*at), Int(at.saturating_sub(window)), Int(max)],
                        ),
                        stmt("DELETE FROM ea_requests WHERE replay_key = $1", vec![Bytes(replay_key)]),
                    )),
                    store: None,
                }
            }
            Write::Authorization {
                replay_key,
                at_id,
                certificate,
                not_after,
                request_hash,
                at,
            } => WritePlan {
                claim: stmt(
                    "INSERT INTO aa_requests (replay_key, received_at) VALUES ($1, $2) \
                     ON CONFLICT (replay_key) DO NOTHING",
                    vec![Bytes(replay_key), Int(*at)],
                ),
                limit: None,
                store: Some(stmt(
                    "INSERT INTO aa_authorization_tickets \
                     (at_id, certificate, not_after, request_hash, issued_at) VALUES ($1, $2, $3, $4, $5)",
                    vec![
                        Bytes(&at_id.0),
                        Bytes(certificate),
                        Int(*not_after),
                        Bytes(request_hash),
                        Int(*at),
                    ],
                )),
            },
        }
    }
}

/// Applies `writes` in order with `execute` (a statement's affected rows), inside the caller's
/// transaction: the control flow of [`WritePlan`] for a synchronous backend.
pub(crate) fn apply_plans<E>(
    writes: &[Write],
    mut execute: impl FnMut(&Stmt<'_>) -> Result<u64, E>,
) -> Result<Vec<Outcome>, E> {
    writes
        .iter()
        .map(|w| {
            let plan = w.plan();
            if execute(&plan.claim)? == 0 {
                return Ok(Outcome::Replay);
            }
            if let Some((count, undo)) = &plan.limit {
                if execute(count)? == 0 {
                    execute(undo)?;
                    return Ok(Outcome::TooMany);
                }
            }
            if let Some(store) = &plan.store {
                execute(store)?;
            }
            Ok(Outcome::Done)
        })
        .collect()
}

/// The [`Store`] methods written once for both backends (sqlx; SQLite accepts PostgreSQL's
/// `$n` parameters). The hot path (`station`, `enrolment_credential`, `seen`, `commit`) is each
/// backend's own: `station_row`, `ec_row`, `replay_seen`, `commit_batch`, `lookups_cpu`, `commit_slots`.
macro_rules! store_impl {
    ($store:ty) => {
        impl $crate::store::Store for $store {
            async fn station(&self, its_id: &[u8]) -> Result<Option<$crate::store::StationRow>, $crate::store::StoreError> {
                self.station_row(its_id).await
            }

            async fn enrolment_credential(
                &self,
                id: v2x_crypto::HashedId8,
            ) -> Result<Option<$crate::store::EcRow>, $crate::store::StoreError> {
                self.ec_row(id).await
            }

            async fn seen(&self, role: $crate::store::Role, key: &[u8; 32]) -> Result<bool, $crate::store::StoreError> {
                self.replay_seen(role, key).await
            }

            async fn commit(
                &self,
                writes: &[$crate::store::Write],
            ) -> Result<Vec<$crate::store::Outcome>, $crate::store::StoreError> {
                self.commit_batch(writes).await
            }

            fn caller_cpu(&self) -> std::time::Duration {
                self.lookups_cpu()
            }

            fn concurrent_commits(&self) -> usize {
                self.commit_slots()
            }

            async fn register_station(
                &self,
                row: &$crate::store::StationRow,
                at: i64,
            ) -> Result<(), $crate::store::StoreError> {
                let (curve, key) = $crate::store::key_to_row(&row.canonical_key);
                sqlx::query(
                    "INSERT INTO ea_stations (its_id, canonical_curve, canonical_key, revoked, at_permissions, registered_at) \
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (its_id) DO UPDATE SET \
                     canonical_curve = $2, canonical_key = $3, revoked = $4, at_permissions = $5, registered_at = $6",
                )
                .bind(&row.its_id[..])
                .bind(curve)
                .bind(key)
                .bind(row.revoked)
                .bind($crate::store::permissions_to_json(&row.at_permissions))
                .bind(at)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn set_station_revoked(&self, its_id: &[u8], revoked: bool) -> Result<bool, $crate::store::StoreError> {
                Ok(sqlx::query("UPDATE ea_stations SET revoked = $1 WHERE its_id = $2")
                    .bind(revoked)
                    .bind(its_id)
                    .execute(&self.pool)
                    .await?
                    .rows_affected()
                    > 0)
            }

            async fn set_ec_revoked(&self, id: v2x_crypto::HashedId8, revoked: bool) -> Result<bool, $crate::store::StoreError> {
                Ok(sqlx::query("UPDATE ea_enrolment_credentials SET revoked = $1 WHERE ec_id = $2")
                    .bind(revoked)
                    .bind(&id.0[..])
                    .execute(&self.pool)
                    .await?
                    .rows_affected()
                    > 0)
            }

            async fn revoke_ca(&self, id: v2x_crypto::HashedId8, at: i64) -> Result<(), $crate::store::StoreError> {
                sqlx::query("INSERT INTO dc_revoked_cas (ca_id, revoked_at) VALUES ($1, $2) ON CONFLICT (ca_id) DO NOTHING")
                    .bind(&id.0[..])
                    .bind(at)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn revoked_cas(&self) -> Result<Vec<v2x_crypto::HashedId8>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query("SELECT ca_id FROM dc_revoked_cas ORDER BY ca_id")
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter()
                    .map(|r| $crate::store::id8(r.try_get::<&[u8], _>(0)?))
                    .collect()
            }

            async fn prune_replay(&self, before: i64) -> Result<u64, $crate::store::StoreError> {
                let a = sqlx::query("DELETE FROM ea_requests WHERE received_at < $1")
                    .bind(before)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                let b = sqlx::query("DELETE FROM aa_requests WHERE received_at < $1")
                    .bind(before)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                Ok(a + b)
            }

            async fn issued_tickets(&self) -> Result<Vec<(v2x_crypto::HashedId8, Vec<u8>)>, $crate::store::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query("SELECT at_id, certificate FROM aa_authorization_tickets ORDER BY at_id")
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter()
                    .map(|r| Ok(($crate::store::id8(r.try_get::<&[u8], _>(0)?)?, r.try_get::<Vec<u8>, _>(1)?)))
                    .collect()
            }

            async fn counts(&self) -> Result<$crate::store::Counts, $crate::store::StoreError> {
                use sqlx::Row;
                let r = sqlx::query(
                    "SELECT (SELECT COUNT(*) FROM ea_stations), (SELECT COUNT(*) FROM ea_enrolment_credentials), \
                     (SELECT COUNT(*) FROM aa_authorization_tickets), (SELECT COUNT(*) FROM ea_requests), \
                     (SELECT COUNT(*) FROM aa_requests)",
                )
                .fetch_one(&self.pool)
                .await?;
                Ok($crate::store::Counts {
                    stations: r.try_get(0)?,
                    enrolment_credentials: r.try_get(1)?,
                    authorization_tickets: r.try_get(2)?,
                    ea_requests: r.try_get(3)?,
                    aa_requests: r.try_get(4)?,
                })
            }
        }

    };
}
pub(crate) use store_impl;

/// The migrations of one backend, embedded in the binary (sqlx's migrator checks their
/// checksums against what the database has applied).
#[derive(Debug)]
pub(crate) struct Embedded(pub &'static [(i64, &'static str, &'static str)]);

impl<'s> sqlx::migrate::MigrationSource<'s> for Embedded {
    fn resolve(
        self,
    ) -> std::pin::Pin<
        Box<dyn Future<Output = Result<Vec<sqlx::migrate::Migration>, sqlx::error::BoxDynError>> + Send + 's>,
    > {
        Box::pin(async move {
            Ok(self
                .0
                .iter()
                .map(|(version, description, sql)| {
                    sqlx::migrate::Migration::new(
                        *version,
                        (*description).into(),
                        sqlx::migrate::MigrationType::Simple,
                        (*sql).into(),
                        false,
                    )
                })
                .collect())
        })
    }
}
