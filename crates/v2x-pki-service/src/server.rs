//! Starting a service process: authorities (created on first start), store (migrated), the
//! listener, the replay-memory pruning, and the HTTP server until `shutdown` resolves.

use crate::config::ServiceConfig;
use crate::http::router;
use crate::service::Service;
use crate::store::{AnyStore, Store, StoreError};
use axum::serve::ListenerExt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use v2x_security::ts102941::authorities::{Authorities, AuthoritiesError};

/// Why the service could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("authorities: {0}")]
    Authorities(#[from] AuthoritiesError),
    #[error("store: {0}")]
    Store(#[from] StoreError),
    #[error("listening on {addr}: {source}")]
    Listen {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },
    #[error("serving: {0}")]
    Serve(std::io::Error),
}

/// What a started service tells its caller.
#[derive(Debug, Clone)]
pub struct Started {
    /// The address bound (the port is chosen by the system when the configuration says 0).
    pub addr: SocketAddr,
    /// The base URL the trust lists name.
    pub public_url: String,
    /// Whether the authorities were created by this start.
    pub created_authorities: bool,
}

/// Runs a service with `config` until `shutdown` resolves; `started` is called once it
/// accepts requests.
pub async fn run(
    config: ServiceConfig,
    started: impl FnOnce(&Started),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    let (dir, curve) = (config.authorities.clone(), config.curve);
    let (authorities, created) = tokio::task::spawn_blocking(move || Authorities::open_or_create(&dir, curve))
        .await
        .map_err(|e| ServeError::Serve(std::io::Error::other(e)))??;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|source| ServeError::Listen {
            addr: config.listen,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServeError::Serve)?;
    let info = Started {
        addr,
        public_url: config.public_url.clone().unwrap_or_else(|| format!("http://{addr}")),
        created_authorities: created,
    };
    match AnyStore::open(&config.store).await? {
        AnyStore::Sqlite(s) => serve(Arc::new(s), config, &authorities, listener, info, started, shutdown).await,
        AnyStore::Postgres(s) => serve(Arc::new(s), config, &authorities, listener, info, started, shutdown).await,
    }
}

async fn serve<S: Store>(
    store: Arc<S>,
    config: ServiceConfig,
    authorities: &Authorities,
    listener: tokio::net::TcpListener,
    info: Started,
    started: impl FnOnce(&Started),
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServeError> {
    // Replay keys are kept twice as long as a request stays fresh, then forgotten.
    let keep = (config.freshness.max_age + config.freshness.max_ahead) * 2;
    let service = Arc::new(Service::new(config, authorities, store.clone(), &info.public_url));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            let before = std::time::SystemTime::now()
                .checked_sub(keep)
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0);
            if let Err(e) = store.prune_replay(before).await {
                tracing::warn!(error = %e, "pruning the replay memory failed");
            }
        }
    });
    started(&info);
    // Answers go out at once, not held back to fill a segment (Nagle).
    let listener = listener.tap_io(|tcp| {
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "TCP_NODELAY");
        }
    });
    axum::serve(listener, router(service))
        .with_graceful_shutdown(shutdown)
        .await
        .map_err(ServeError::Serve)
}
