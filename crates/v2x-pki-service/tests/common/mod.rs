//! A service in the test process (own runtime, port chosen by the system) and stations that
//! talk to it over HTTP.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_pki_service::client::HttpClient;
use v2x_pki_service::config::ServiceConfig;
use v2x_pki_service::its_station::{Authorities, ItsStation};
use v2x_pki_service::server::{self, Started};
use v2x_pki_service::store::{AnyStore, StationRow, Store};
use v2x_security::certificate::AppPermission;
use v2x_security::ItsAid;

pub struct TestService {
    pub url: String,
    pub store: String,
    pub dir: PathBuf,
    pub rt: tokio::runtime::Runtime,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    done: Option<tokio::task::JoinHandle<Result<(), server::ServeError>>>,
}

impl TestService {
    /// A service with every role, its authorities in `dir/authorities`, on `store`
    /// (default: SQLite in `dir`).
    pub fn start(dir: &Path, store: Option<String>, tweak: impl FnOnce(&mut ServiceConfig)) -> TestService {
        let store = store.unwrap_or_else(|| format!("sqlite:{}", dir.join("pki.db").display()));
        let mut config = ServiceConfig::new(dir.join("authorities"), store.clone(), "127.0.0.1:0".parse().unwrap());
        tweak(&mut config);
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Started>();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let done = rt.spawn(server::run(
            config,
            move |s| {
                let _ = ready_tx.send(s.clone());
            },
            async {
                let _ = stopped.await;
            },
        ));
        let started = match ready_rx.recv_timeout(Duration::from_secs(120)) {
            Ok(s) => s,
            Err(_) => {
                let r = rt.block_on(done);
                panic!("the service did not start: {r:?}");
            }
        };
        TestService {
            url: started.public_url,
            store,
            dir: dir.to_path_buf(),
            rt,
            stop: Some(stop),
            done: Some(done),
        }
    }

    pub fn tlm(&self) -> Vec<u8> {
        std::fs::read(self.dir.join("authorities").join("tlm").join("cert.oer")).unwrap()
    }

    /// Registers a new station (CAM and DENM tickets) and provisions its trust anchor.
    pub fn station(&self, dir: &Path, its_id: &str) -> ItsStation {
        let st = ItsStation::create(dir, its_id, Curve::NistP256).unwrap();
        self.register(&st, false);
        st.install_trust_anchor(&self.tlm()).unwrap();
        st
    }

    pub fn register(&self, st: &ItsStation, revoked: bool) {
        let row = StationRow {
            its_id: st.its_id.as_bytes().to_vec(),
            canonical_key: st.canonical_public_key().clone(),
            revoked,
            at_permissions: vec![
                AppPermission::new(ItsAid::CAM, None),
                AppPermission::new(ItsAid::DENM, None),
            ],
        };
        let url = self.store.clone();
        self.rt.block_on(async move {
            match AnyStore::open(&url).await.unwrap() {
                AnyStore::Sqlite(s) => s.register_station(&row, 0).await.unwrap(),
                AnyStore::Postgres(s) => s.register_station(&row, 0).await.unwrap(),
            }
        });
    }

    pub fn authorities(&self, st: &ItsStation) -> Authorities {
        st.refresh_trust(&http(), &self.url).unwrap()
    }

    pub fn stop(mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(d) = self.done.take() {
            let _ = self.rt.block_on(d);
        }
    }
}

impl Drop for TestService {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

pub fn http() -> HttpClient {
    HttpClient::new(Duration::from_secs(30))
}

/// What a test does when a tool it needs is not installed: it FAILS, naming the package
/// that brings it (`make setup` installs them all), unless `skip_var=1` asks to skip it, as
/// `V2X_SKIP_TSHARK` does for the Wireshark tests. Returns whether to skip.
pub fn skip_without(missing: &str, install: &str, skip_var: &str) -> bool {
    if std::env::var(skip_var).as_deref() == Ok("1") {
        eprintln!("SKIPPED because {skip_var}=1: {missing}");
        return true;
    }
    panic!("{missing}: `make setup` installs it ({install}), or set {skip_var}=1 to skip this test");
}
