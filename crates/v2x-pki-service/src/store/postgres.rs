//! The shared store: PostgreSQL, so that several service instances (EA, AA or both, on one
//! machine or several) work on one state. Unique constraints and single-statement upserts make
//! concurrent instances safe without application locks; sqlx's migrator takes an advisory lock
//! so instances starting together migrate once.

use super::{store_impl, Embedded, StoreError};
use sqlx::postgres::PgPoolOptions;
use sqlx::PgPool;
use std::time::Duration;

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

store_impl!(PgStore, sqlx::Postgres);
