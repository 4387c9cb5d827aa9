//! The shared store: PostgreSQL, so that several service instances (EA, AA or both, on one
//! machine or several) work on one state. Unique constraints and single-statement upserts make
//! concurrent instances safe without application locks; sqlx's migrator takes an advisory lock
//! so instances starting together migrate once.

use super::{sql, store_impl, EcRow, Embedded, Outcome, Role, StationRow, StoreError, Write};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use std::time::Duration;
use v2x_crypto::HashedId8;

/// Concurrent batches of the committer (see [`PgStore::commit_slots`]): 2 overlaps one
/// batch's statements with the other's fsync; more only waited on the EC counter rows that
/// the batches share (1, 2 and 4 measured, docs/pki-service.md).
const COMMIT_SLOTS: usize = 2;
/// Connections per instance: the committer's batches and the look-ups of the requests in
/// flight (the benchmark's 32 connections); PostgreSQL's default `max_connections` is 100.
const POOL_CONNECTIONS: u32 = 16;
/// Runs of a batch that PostgreSQL aborted as a deadlock victim or serialization failure.
const RETRIES: usize = 3;

const MIGRATIONS: &[(i64, &str, &str)] = &[(1, "init", include_str!("../../migrations/postgres/0001_init.sql"))];

/// A PostgreSQL database.
#[derive(Clone)]
pub struct PgStore {
    pub(crate) pool: PgPool,
}

impl PgStore {
    /// Connects to `url` and migrates the database.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(POOL_CONNECTIONS)
            .acquire_timeout(Duration::from_secs(5))
            .connect(url)
            .await?;
        let migrator = sqlx::migrate::Migrator::new(Embedded(MIGRATIONS)).await?;
        migrator.run(&pool).await?;
        Ok(PgStore { pool })
    }

    /// The connection pool (tests inspect what each role stored).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

/// The hot path: every statement a round trip to the server.
impl PgStore {
    async fn station_row(&self, its_id: &[u8]) -> Result<Option<StationRow>, StoreError> {
        use sqlx::Row;
        let row = sqlx::query(sql::STATION)
            .bind(its_id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(StationRow {
                its_id: its_id.to_vec(),
                canonical_key: super::key_from_row(r.try_get::<&str, _>(0)?, r.try_get::<&[u8], _>(1)?)?,
                revoked: r.try_get(2)?,
                at_permissions: super::permissions_from_json(r.try_get::<&str, _>(3)?)?,
            })
        })
        .transpose()
    }

    async fn ec_row(&self, id: HashedId8) -> Result<Option<EcRow>, StoreError> {
        use sqlx::Row;
        let row = sqlx::query(sql::ENROLMENT_CREDENTIAL)
            .bind(&id.0[..])
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| {
            Ok(EcRow {
                ec_id: id,
                its_id: r.try_get(0)?,
                certificate: r.try_get(1)?,
                revoked: r.try_get(2)?,
                at_permissions: super::permissions_from_json(r.try_get::<&str, _>(3)?)?,
            })
        })
        .transpose()
    }

    async fn replay_seen(&self, role: Role, key: &[u8; 32]) -> Result<bool, StoreError> {
        let sql = match role {
            Role::Ea => sql::SEEN_EA,
            Role::Aa => sql::SEEN_AA,
        };
        Ok(sqlx::query(sql)
            .bind(&key[..])
            .fetch_optional(&self.pool)
            .await?
            .is_some())
    }

    /// The batch in one transaction, one statement (one round trip) per write: the same
    /// control flow as [`super::WritePlan`] (claim the replay key, count against the limit,
    /// store what was issued), written as data-modifying CTEs so that PostgreSQL runs it
    /// without a round trip per step. Several batches may be in flight at once
    /// ([`PgStore::commit_slots`]); one that PostgreSQL aborts to break a deadlock between
    /// them wrote nothing and is run again.
    async fn commit_batch(&self, writes: &[Write]) -> Result<Vec<Outcome>, StoreError> {
        let mut attempt = 0;
        loop {
            match self.try_commit(writes).await {
                Err(e) if attempt < RETRIES && retryable(&e) => {
                    attempt += 1;
                    tracing::debug!(attempt, error = %e, "batch aborted by PostgreSQL; retrying");
                }
                r => return Ok(r?),
            }
        }
    }

    async fn try_commit(&self, writes: &[Write]) -> Result<Vec<Outcome>, sqlx::Error> {
        use sqlx::Connection;
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        // The EC counters are the rows that concurrent batches share: every batch locks them
        // in the same order (by EC), so that two never wait for each other in a cycle.
        let mut order: Vec<usize> = (0..writes.len()).collect();
        order.sort_by_key(|&i| match &writes[i] {
            Write::Validation { ec_id, .. } => Some(ec_id.0),
            _ => None,
        });
        let mut out = vec![Outcome::Done; writes.len()];
        for i in order {
            out[i] = apply(&mut tx, &writes[i]).await?;
        }
        tx.commit().await?;
        Ok(out)
    }

    /// How many batches the committer may have in flight: each on its own connection, so
    /// that PostgreSQL's WAL flush covers the commits that arrive together (its group
    /// commit) and one batch's round trips overlap another's fsync.
    fn commit_slots(&self) -> usize {
        COMMIT_SLOTS
    }

    fn lookups_cpu(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// A deadlock victim (40P01) or a serialization failure (40001): the transaction wrote
/// nothing and may run again.
fn retryable(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if matches!(d.code().as_deref(), Some("40P01" | "40001")))
}

/// One write inside the batch's transaction, in one statement (the undo of a refused
/// validation, rare, in a second).
async fn apply(tx: &mut sqlx::PgConnection, w: &Write) -> Result<Outcome, sqlx::Error> {
    let done = |stored: u64| if stored == 0 { Outcome::Replay } else { Outcome::Done };
    match w {
        Write::Enrolment {
            replay_key,
            its_id,
            ec_id,
            certificate,
            not_after,
            at,
        } => sqlx::query(
            "WITH claim AS (INSERT INTO ea_requests (replay_key, kind, received_at) VALUES ($1, 1, $2) \
               ON CONFLICT (replay_key) DO NOTHING RETURNING 1) \
             INSERT INTO ea_enrolment_credentials (ec_id, its_id, certificate, not_after, issued_at) \
             SELECT $3, $4, $5, $6, $2 FROM claim",
        )
        .bind(&replay_key[..])
        .bind(*at)
        .bind(&ec_id.0[..])
        .bind(&its_id[..])
        .bind(&certificate[..])
        .bind(*not_after)
        .execute(&mut *tx)
        .await
        .map(|r| done(r.rows_affected())),
        Write::Validation {
            replay_key,
            ec_id,
            at,
            limit,
        } => {
            // As `Write::plan`: one more validation in the EC's current window unless the
            // limit is reached.
            let (max, window) = limit.unwrap_or((i64::MAX, i64::MAX / 4));
            let (claimed, counted): (bool, bool) = sqlx::query_as(
                "WITH claim AS (INSERT INTO ea_requests (replay_key, kind, received_at) VALUES ($1, 2, $2) \
                   ON CONFLICT (replay_key) DO NOTHING RETURNING 1), \
                 counted AS (INSERT INTO ea_ec_usage (ec_id, window_start, validations) SELECT $3, $2, 1 FROM claim \
                   ON CONFLICT (ec_id) DO UPDATE SET \
                     window_start = CASE WHEN ea_ec_usage.window_start <= $4 THEN $2 ELSE ea_ec_usage.window_start END, \
                     validations = CASE WHEN ea_ec_usage.window_start <= $4 THEN 1 ELSE ea_ec_usage.validations + 1 END \
                   WHERE ea_ec_usage.window_start <= $4 OR ea_ec_usage.validations < $5 \
                   RETURNING 1) \
                 SELECT EXISTS (SELECT 1 FROM claim), EXISTS (SELECT 1 FROM counted)",
            )
            .bind(&replay_key[..])
            .bind(*at)
            .bind(&ec_id.0[..])
            .bind(at.saturating_sub(window))
            .bind(max)
            .fetch_one(&mut *tx)
            .await?;
            match (claimed, counted) {
                (false, _) => Ok(Outcome::Replay),
                (true, true) => Ok(Outcome::Done),
                (true, false) => {
                    // The limit is reached: give the replay key back (a statement of its own:
                    // the claim's row is not visible inside the statement that wrote it).
                    sqlx::query("DELETE FROM ea_requests WHERE replay_key = $1")
                        .bind(&replay_key[..])
                        .execute(&mut *tx)
                        .await?;
                    Ok(Outcome::TooMany)
                }
            }
        }
        Write::Authorization {
            replay_key,
            at_id,
            certificate,
            not_after,
            request_hash,
            at,
        } => sqlx::query(
            "WITH claim AS (INSERT INTO aa_requests (replay_key, received_at) VALUES ($1, $2) \
               ON CONFLICT (replay_key) DO NOTHING RETURNING 1) \
             INSERT INTO aa_authorization_tickets (at_id, certificate, not_after, request_hash, issued_at) \
             SELECT $3, $4, $5, $6, $2 FROM claim",
        )
        .bind(&replay_key[..])
        .bind(*at)
        .bind(&at_id.0[..])
        .bind(&certificate[..])
        .bind(*not_after)
        .bind(&request_hash[..])
        .execute(&mut *tx)
        .await
        .map(|r| done(r.rows_affected())),
    }
}

store_impl!(PgStore);
