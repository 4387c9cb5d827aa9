//! The embedded store: one SQLite file in WAL mode with `synchronous = FULL` (a committed
//! certificate survives a killed process and a power cut). sqlx creates and migrates it and
//! runs the administration and audit queries; the hot path calls SQLite directly (rusqlite, on
//! the same bundled library), because sqlx runs every statement on a worker thread and the
//! hand-off to it and back cost more CPU than the statement: lookups run on the calling thread
//! (WAL readers never wait for the writer), and batches are committed by one writer thread.

use super::{sql, store_impl, Arg, EcRow, Embedded, Outcome, Role, StationRow, Stmt, StoreError, Write};
use crate::cpu::CpuCounter;
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::{mpsc, Mutex};
use std::time::Duration;
use tokio::sync::oneshot;
use v2x_crypto::HashedId8;

const MIGRATIONS: &[(i64, &str, &str)] = &[(1, "init", include_str!("../../migrations/sqlite/0001_init.sql"))];

/// How long a statement waits for a lock another connection holds.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

type Batch = (Vec<Write>, oneshot::Sender<Result<Vec<Outcome>, StoreError>>);

/// A SQLite file.
pub struct SqliteStore {
    pub(crate) pool: SqlitePool,
    path: PathBuf,
    /// Idle connections for the lookups (one per thread that looks up at once).
    readers: Mutex<Vec<Connection>>,
    writer: mpsc::Sender<Batch>,
    lookups: CpuCounter,
}

/// A connection of the hot path; the file's journal mode (WAL) was set by sqlx at creation.
fn connect(path: &Path) -> Result<Connection, StoreError> {
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    c.busy_timeout(BUSY_TIMEOUT)?;
    c.pragma_update(None, "synchronous", "FULL")?;
    c.pragma_update(None, "foreign_keys", true)?;
    Ok(c)
}

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match *self {
            Arg::Bytes(b) => ToSqlOutput::Borrowed(ValueRef::Blob(b)),
            Arg::Int(i) => ToSqlOutput::Borrowed(ValueRef::Integer(i)),
        })
    }
}

/// One batch in one transaction on `conn`.
fn commit_on(conn: &mut Connection, writes: &[Write]) -> Result<Vec<Outcome>, StoreError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let out = super::apply_plans(writes, |s: &Stmt<'_>| {
        tx.prepare_cached(s.sql)?
            .execute(rusqlite::params_from_iter(s.args.iter()))
            .map(|n| n as u64)
    })?;
    tx.commit()?;
    Ok(out)
}

/// The writer thread: batches in arrival order, each in one transaction. A connection whose
/// transaction failed (a full disk fails COMMIT) is closed, never reused: the next batch opens
/// a fresh one.
fn write_batches(path: PathBuf, batches: mpsc::Receiver<Batch>) {
    let mut conn: Option<Connection> = None;
    while let Ok((writes, reply)) = batches.recv() {
        let result = match conn.take().map_or_else(|| connect(&path), Ok) {
            Ok(mut c) => {
                let r = commit_on(&mut c, &writes);
                if r.is_ok() {
                    conn = Some(c);
                }
                r
            }
            Err(e) => Err(e),
        };
        let _ = reply.send(result);
    }
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
            .busy_timeout(BUSY_TIMEOUT);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(options)
            .await?;
        let migrator = sqlx::migrate::Migrator::new(Embedded(MIGRATIONS)).await?;
        migrator.run(&pool).await?;
        // The writer's first connection now: a file the hot path cannot open fails the start.
        let first = connect(path)?;
        let (writer, batches) = mpsc::channel::<Batch>();
        let writer_path = path.to_path_buf();
        std::thread::Builder::new()
            .name("pki-sqlite-w".into())
            .spawn(move || write_batches(writer_path, batches))
            .map_err(|e| StoreError::Unavailable(format!("starting the SQLite writer: {e}")))?;
        Ok(SqliteStore {
            pool,
            path: path.to_path_buf(),
            readers: Mutex::new(vec![first]),
            writer,
            lookups: CpuCounter::default(),
        })
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

    /// Runs a lookup on an idle connection (opened when none is), here, and counts its CPU.
    fn lookup<R>(&self, f: impl FnOnce(&Connection) -> Result<R, StoreError>) -> Result<R, StoreError> {
        self.lookups.time(|| {
            let idle = self.readers.lock().unwrap_or_else(|p| p.into_inner()).pop();
            let conn = match idle {
                Some(c) => c,
                None => connect(&self.path)?,
            };
            let r = f(&conn);
            if r.is_ok() {
                self.readers.lock().unwrap_or_else(|p| p.into_inner()).push(conn);
            }
            r
        })
    }

    async fn station_row(&self, its_id: &[u8]) -> Result<Option<StationRow>, StoreError> {
        let row = self.lookup(|c| {
            Ok(c.prepare_cached(sql::STATION)?
                .query_row([its_id], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, Vec<u8>>(1)?,
                        r.get::<_, bool>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })
                .optional()?)
        })?;
        row.map(|(curve, key, revoked, permissions)| {
            Ok(StationRow {
                its_id: its_id.to_vec(),
                canonical_key: super::key_from_row(&curve, &key)?,
                revoked,
                at_permissions: super::permissions_from_json(&permissions)?,
            })
        })
        .transpose()
    }

    async fn ec_row(&self, id: HashedId8) -> Result<Option<EcRow>, StoreError> {
        self.lookup(|c| {
            let row = c
                .prepare_cached(sql::ENROLMENT_CREDENTIAL)?
                .query_row([&id.0[..]], |r| {
                    Ok((
                        r.get::<_, Vec<u8>>(0)?,
                        r.get::<_, Vec<u8>>(1)?,
                        r.get::<_, bool>(2)?,
                        r.get::<_, String>(3)?,
                    ))
                })
                .optional()?;
            row.map(|(its_id, certificate, revoked, permissions)| {
                Ok(EcRow {
                    ec_id: id,
                    its_id,
                    certificate,
                    revoked,
                    at_permissions: super::permissions_from_json(&permissions)?,
                })
            })
            .transpose()
        })
    }

    async fn replay_seen(&self, role: Role, key: &[u8; 32]) -> Result<bool, StoreError> {
        let sql = match role {
            Role::Ea => sql::SEEN_EA,
            Role::Aa => sql::SEEN_AA,
        };
        self.lookup(|c| Ok(c.prepare_cached(sql)?.exists([&key[..]])?))
    }

    async fn commit_batch(&self, writes: &[Write]) -> Result<Vec<Outcome>, StoreError> {
        let (reply, result) = oneshot::channel();
        let gone = || StoreError::Unavailable("the SQLite writer has stopped".into());
        self.writer.send((writes.to_vec(), reply)).map_err(|_| gone())?;
        result.await.map_err(|_| gone())?
    }

    fn lookups_cpu(&self) -> Duration {
        self.lookups.total()
    }

    /// One writer thread: one batch at a time.
    fn commit_slots(&self) -> usize {
        1
    }
}

store_impl!(SqliteStore);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[tokio::test]
    async fn the_validation_limit_refuses_and_gives_the_replay_key_back() {
        let dir = tempfile::tempdir().unwrap();
        let s = SqliteStore::open(&dir.path().join("pki.db")).await.unwrap();
        let ec = HashedId8([7; 8]);
        let v = |k: u8, at: i64| Write::Validation {
            replay_key: [k; 32],
            ec_id: ec,
            at,
            limit: Some((2, 100)),
        };
        let out = s
            .commit(&[v(1, 1000), v(2, 1001), v(3, 1002), v(1, 1003)])
            .await
            .unwrap();
        assert_eq!(out, [Outcome::Done, Outcome::Done, Outcome::TooMany, Outcome::Replay]);
        // Seen by the look-ups (another connection) once committed; the refused request's key
        // was given back, so it may come again once the window has passed.
        assert!(s.seen(Role::Ea, &[2; 32]).await.unwrap());
        assert!(!s.seen(Role::Ea, &[3; 32]).await.unwrap());
        assert_eq!(s.commit(&[v(3, 1200)]).await.unwrap(), [Outcome::Done]);
        assert!(s.caller_cpu() > Duration::ZERO);
    }
}
