//! Where a request's work runs. Crypto (decryption, signatures, issuance) runs inline on the
//! HTTP runtime's thread that serves the request: handing each step to a separate pool cost a
//! thread wake-up per step, as much CPU as a signature; overload is shed before a request
//! starts (see [`crate::http`]). Its CPU time is measured per step so that the benchmark can
//! still tell crypto apart. Writes go to the committer, one task that gathers the writes of
//! concurrent requests into one transaction (one fsync for many certificates: group commit),
//! with as many transactions in flight as the store allows (one for SQLite's single writer,
//! several on PostgreSQL, whose WAL flush then covers the commits that arrive together).

use crate::cpu::CpuCounter;
use crate::store::{Outcome, Store, StoreError, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, Semaphore};

/// Runs crypto steps on the calling thread and counts their CPU time.
#[derive(Debug, Default)]
pub struct Crypto {
    cpu: CpuCounter,
}

/// A crypto step that panicked (a bug; the request gets a 500, the service goes on).
#[derive(Debug, thiserror::Error)]
#[error("a crypto step failed")]
pub struct JobFailed;

impl Crypto {
    /// Runs `f` here, now.
    pub fn run<R>(&self, f: impl FnOnce() -> R) -> Result<R, JobFailed> {
        self.cpu
            .time(|| catch_unwind(AssertUnwindSafe(f)).map_err(|_| JobFailed))
    }

    /// The CPU time spent in crypto steps so far.
    pub fn cpu(&self) -> Duration {
        self.cpu.total()
    }
}

type Job = (Write, oneshot::Sender<Result<Outcome, StoreError>>);

/// The most writes in one transaction.
const MAX_BATCH: usize = 512;

/// The committer's handle.
#[derive(Clone)]
pub struct Committer {
    tx: mpsc::Sender<Job>,
}

impl Committer {
    /// Starts the committer task on the current runtime. Up to
    /// [`Store::concurrent_commits`] batches are in flight at once; while they are, the
    /// writes that arrive wait in the queue and form the next batch.
    pub fn start<S: Store>(store: Arc<S>) -> Committer {
        let (tx, mut rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
        let slots = Arc::new(Semaphore::new(store.concurrent_commits().max(1)));
        tokio::spawn(async move {
            loop {
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    return;
                };
                let Some(first) = rx.recv().await else { return };
                let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(j) => batch.push(j),
                        Err(_) => break,
                    }
                }
                let store = store.clone();
                tokio::spawn(async move {
                    let writes: Vec<Write> = batch.iter().map(|(w, _)| w.clone()).collect();
                    let result = store.commit(&writes).await;
                    drop(slot);
                    if let Err(e) = &result {
                        tracing::warn!(writes = writes.len(), error = %e, "commit failed: nothing written");
                    }
                    for (i, (_, reply)) in batch.into_iter().enumerate() {
                        let r = match &result {
                            Ok(outcomes) => Ok(outcomes[i]),
                            Err(e) => Err(e.clone()),
                        };
                        let _ = reply.send(r);
                    }
                });
            }
        });
        Committer { tx }
    }

    /// Commits one write (with whatever else is waiting) and returns its outcome.
    pub async fn commit(&self, write: Write) -> Result<Outcome, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send((write, tx))
            .await
            .map_err(|_| StoreError::Unavailable("the committer has stopped".into()))?;
        rx.await
            .map_err(|_| StoreError::Unavailable("the committer has stopped".into()))?
    }
}
