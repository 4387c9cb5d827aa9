//! The service on a real PostgreSQL server (a throwaway cluster from the installed binaries):
//! two instances sharing one database — one EA + AA + DC, one AA alone that validates with the
//! first over HTTP — issuing to the same stations; the same request sent to both at once is
//! issued once; a dead database gives 503 and nothing half-written, and the service recovers
//! when it comes back. PostgreSQL missing makes these tests FAIL, unless V2X_SKIP_POSTGRES=1.

mod common;

use common::{http, skip_without, TestService};
use v2x_pki_service::client::HttpError;
use v2x_pki_service::its_station::{ItsError, PoolPlan};
use v2x_pki_service::pg_cluster::{PgCluster, PgError};
use v2x_pki_service::store::{AnyStore, Store};
use v2x_security::certificate::AppPermission;
use v2x_security::ts102941::attributes::attributes;
use v2x_security::ts102941::station::{self, AuthorizationOptions, AuthorizationOutcome};
use v2x_security::{ItsAid, TaiTime};

fn cluster() -> Option<PgCluster> {
    match PgCluster::start() {
        Ok(c) => Some(c),
        Err(PgError::NotInstalled) => {
            assert!(skip_without(
                &PgError::NotInstalled.to_string(),
                "apt-get install postgresql",
                "V2X_SKIP_POSTGRES"
            ));
            None
        }
        Err(e) => panic!("PostgreSQL is installed but did not start: {e}"),
    }
}

fn tickets_stored(svc: &TestService) -> i64 {
    let url = svc.store.clone();
    svc.rt.block_on(async move {
        let AnyStore::Postgres(s) = AnyStore::open(&url).await.unwrap() else {
            unreachable!()
        };
        s.counts().await.unwrap().authorization_tickets
    })
}

#[test]
fn two_instances_share_one_database_and_never_issue_twice() {
    let Some(pg) = cluster() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let a = TestService::start(&tmp.path().join("svc"), Some(pg.url.clone()), |_| {});
    let ea_url = a.url.clone();
    // The second instance: AA only, same authorities, same database, the first one's EA.
    let b = TestService::start(&tmp.path().join("svc"), Some(pg.url.clone()), |c| {
        c.roles = v2x_pki_service::config::Roles::parse("aa").unwrap();
        c.ea_url = Some(ea_url.clone());
    });
    let car = a.station(&tmp.path().join("car"), "car");
    let mut auth = a.authorities(&car);
    let ec = car.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    car.obtain(&http(), &auth, 3, &PoolPlan::new(3, 3)).unwrap();
    auth.aa_url = format!("{}/aa/authorization", b.url);
    car.obtain(&http(), &auth, 3, &PoolPlan::new(3, 3)).unwrap();
    assert_eq!(tickets_stored(&a), 6);
    // One request, eight copies to each instance at once: one ticket.
    let requested = attributes(&[AppPermission::new(ItsAid::CAM, None)], None, None);
    let req = station::authorization_request(
        &ec,
        &auth.ea,
        &auth.aa,
        &requested,
        AuthorizationOptions::default(),
        TaiTime::now(),
    )
    .unwrap();
    let urls = [
        format!("{}/aa/authorization", a.url),
        format!("{}/aa/authorization", b.url),
    ];
    let answers: Vec<Vec<u8>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..16)
            .map(|i| {
                let (url, m) = (&urls[i % 2], &req.message);
                s.spawn(move || http().post(url, m).unwrap())
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let ok = answers
        .iter()
        .filter(|r| {
            matches!(
                station::read_authorization_response(r, req.clone(), &auth.aa).unwrap(),
                AuthorizationOutcome::Authorized(_)
            )
        })
        .count();
    assert_eq!(ok, 1);
    assert_eq!(tickets_stored(&a), 7);
    b.stop();
    a.stop();
}

#[test]
fn a_dead_database_gives_503_writes_nothing_and_the_service_recovers() {
    let Some(pg) = cluster() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), Some(pg.url.clone()), |_| {});
    let car = svc.station(&tmp.path().join("car"), "car");
    let auth = svc.authorities(&car);
    car.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
    car.obtain(&http(), &auth, 2, &PoolPlan::new(2, 2)).unwrap();
    pg.kill().unwrap();
    match car.obtain(&http(), &auth, 1, &PoolPlan::new(1, 1)) {
        Err(ItsError::Http(HttpError::Status { status, reason, .. })) => {
            assert_eq!(status, 503);
            assert!(reason.contains("database unavailable"), "{reason}");
        }
        other => panic!("{:?}", other.map(|v| v.len())),
    }
    pg.pg_ctl_start().unwrap();
    // The pool reconnects; the failed request left nothing behind.
    let mut tries = 0;
    loop {
        match car.obtain(&http(), &auth, 1, &PoolPlan::new(1, 1)) {
            Ok(_) => break,
            Err(ItsError::Http(e)) if e.is_transient() && tries < 20 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(250));
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(tickets_stored(&svc), 3);
    assert_eq!(car.tickets(TaiTime::now(), std::time::Duration::ZERO).unwrap().len(), 3);
    svc.stop();
}
