//! The two worker kinds behind every request: a pool of named crypto threads (`pki-crypto-N`:
//! decryption, signatures, issuance never block the HTTP runtime, and their CPU time can be
//! told apart) and the committer, one task that gathers the writes of concurrent requests into
//! one transaction (one fsync for many certificates: group commit).

use crate::store::{Outcome, Store, StoreError, Write};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// Crypto threads.
pub struct CryptoPool {
    pool: rayon::ThreadPool,
}

/// A crypto job that panicked (a bug; the request gets a 500).
#[derive(Debug, thiserror::Error)]
#[error("a crypto job failed")]
pub struct JobFailed;

impl CryptoPool {
    pub fn new(threads: usize) -> CryptoPool {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(|i| format!("pki-crypto-{i}"))
            .build()
            .expect("crypto threads start");
        CryptoPool { pool }
    }

    /// Runs `f` on a crypto thread and waits for it without blocking the runtime.
    pub async fn run<R: Send + 'static>(&self, f: impl FnOnce() -> R + Send + 'static) -> Result<R, JobFailed> {
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            let _ = tx.send(f());
        });
        rx.await.map_err(|_| JobFailed)
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
    /// Starts the committer task on the current runtime.
    pub fn start<S: Store>(store: Arc<S>) -> Committer {
        let (tx, mut rx) = mpsc::channel::<Job>(4 * MAX_BATCH);
        tokio::spawn(async move {
            let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
            while let Some(first) = rx.recv().await {
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(j) => batch.push(j),
                        Err(_) => break,
                    }
                }
                let writes: Vec<Write> = batch.iter().map(|(w, _)| w.clone()).collect();
                let result = store.commit(&writes).await;
                if let Err(e) = &result {
                    tracing::warn!(writes = writes.len(), error = %e, "commit failed: nothing written");
                }
                for (i, (_, reply)) in batch.drain(..).enumerate() {
                    let r = match &result {
                        Ok(outcomes) => Ok(outcomes[i]),
                        Err(e) => Err(e.clone()),
                    };
                    let _ = reply.send(r);
                }
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
