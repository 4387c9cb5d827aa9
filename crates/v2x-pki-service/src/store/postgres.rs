//! The shared store: PostgreSQL, so that several service instances (EA, AA or both, on one
//! machine or several) work on one state. Unique constraints and single-statement upserts make
//! concurrent instances safe without application locks; sqlx's migrator takes an advisory lock
//! so instances starting together migrate once.

use super::{sql, store_impl, Arg, EcRow, Embedded, Outcome, Role, StationRow, Stmt, StoreError, Write};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use std::time::Duration;
use v2x_crypto::HashedId8;

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
            .max_connections(8)
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

fn query<'q>(stmt: &'q Stmt<'q>) -> sqlx::query::Query<'q, sqlx::Postgres, sqlx::postgres::PgArguments> {
    stmt.args.iter().fold(sqlx::query(stmt.sql), |q, a| match *a {
        Arg::Bytes(b) => q.bind(b),
        Arg::Int(i) => q.bind(i),
    })
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

    /// The batch in one transaction ([`super::WritePlan`]'s control flow, as
    /// [`super::apply_plans`] runs it for SQLite).
    async fn commit_batch(&self, writes: &[Write]) -> Result<Vec<Outcome>, StoreError> {
        use sqlx::Connection;
        let mut conn = self.pool.acquire().await?;
        let mut tx = conn.begin().await?;
        let mut out = Vec::with_capacity(writes.len());
        for w in writes {
            let plan = w.plan();
            let outcome = if query(&plan.claim).execute(&mut *tx).await?.rows_affected() == 0 {
                Outcome::Replay
            } else {
                let mut outcome = Outcome::Done;
                if let Some((count, undo)) = &plan.limit {
                    if query(count).execute(&mut *tx).await?.rows_affected() == 0 {
                        query(undo).execute(&mut *tx).await?;
                        outcome = Outcome::TooMany;
                    }
                }
                if let (Outcome::Done, Some(store)) = (outcome, &plan.store) {
                    query(store).execute(&mut *tx).await?;
                }
                outcome
            };
            out.push(outcome);
        }
        tx.commit().await?;
        Ok(out)
    }

    fn lookups_cpu(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

store_impl!(PgStore);
