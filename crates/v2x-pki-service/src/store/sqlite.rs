//! The embedded store: one SQLite file in WAL mode with `synchronous = FULL` (a committed
//! certificate survives a killed process and a power cut), written by one connection at a time
//! (the service batches its writes), read by several.

use super::{store_impl, Embedded, StoreError};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

const MIGRATIONS: &[(i64, &str, &str)] = &[(1, "init", include_str!("../../migrations/sqlite/0001_init.sql"))];

/// A SQLite file.
#[derive(Clone)]
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating when missing) and migrates the database at `path`.
    pub async fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let options = SqliteConnectOptions::from_str(&format!("sqlite://{}", path.display()))
            .map_err(|e| StoreError::Url(e.to_string()))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        let migrator = sqlx::migrate::Migrator::new(Embedded(MIGRATIONS)).await?;
        migrator.run(&pool).await?;
        Ok(SqliteStore { pool })
    }

    /// SQLite's own check of the file (`PRAGMA integrity_check`): `ok`, or what is damaged.
    pub async fn integrity_check(&self) -> Result<String, StoreError> {
        use sqlx::Row;
        let rows = sqlx::query("PRAGMA integrity_check").fetch_all(&self.pool).await?;
        Ok(rows
            .iter()
            .filter_map(|r| r.try_get::<String, _>(0).ok())
            .collect::<Vec<_>>()
            .join("; "))
    }

    /// The connection pool (tests inspect what each role stored).
    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }
}

store_impl!(SqliteStore, sqlx::Sqlite);
