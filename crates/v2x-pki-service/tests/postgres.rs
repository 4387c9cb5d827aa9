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

/// The PostgreSQL store's own commit path (one statement per write, batches in flight on
/// several connections at once): the validation limit refuses and gives the replay key back,
/// as on SQLite; batches that count the same ECs in opposite orders, committed at once, neither
/// deadlock nor lose a count; one replay key in two concurrent batches is taken once.
#[test]
fn concurrent_batches_count_every_validation_and_take_each_replay_key_once() {
    use v2x_crypto::HashedId8;
    use v2x_pki_service::store::{Outcome, Write};
    let Some(pg) = cluster() else { return };
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async move {
        let AnyStore::Postgres(s) = AnyStore::open(&pg.url).await.unwrap() else {
            unreachable!()
        };
        assert!(s.concurrent_commits() > 1);
        let v = |k: u8, ec: u8, at: i64, limit| Write::Validation {
            replay_key: [k; 32],
            ec_id: HashedId8([ec; 8]),
            at,
            limit,
        };
        let limited = Some((2, 100));
        let out = s
            .commit(&[
                v(1, 7, 1000, limited),
                v(2, 7, 1001, limited),
                v(3, 7, 1002, limited),
                v(1, 7, 1003, limited),
            ])
            .await
            .unwrap();
        assert_eq!(out, [Outcome::Done, Outcome::Done, Outcome::TooMany, Outcome::Replay]);
        assert!(s.seen(v2x_pki_service::store::Role::Ea, &[2; 32]).await.unwrap());
        assert!(!s.seen(v2x_pki_service::store::Role::Ea, &[3; 32]).await.unwrap());
        assert_eq!(s.commit(&[v(3, 7, 1200, limited)]).await.unwrap(), [Outcome::Done]);

        // 16 batches at once, each counting ECs 20..=27 (half in ascending, half in
        // descending order), keys unique but for key 99, in every batch.
        let batches: Vec<Vec<Write>> = (0..16u8)
            .map(|b| {
                let mut ecs: Vec<u8> = (20..28).collect();
                if b % 2 == 1 {
                    ecs.reverse();
                }
                let mut w: Vec<Write> = ecs
                    .iter()
                    .map(|&ec| v(100 + b * 8 + (ec - 20), ec, 5000, None))
                    .collect();
                w.push(v(99, 30, 5000, None));
                w
            })
            .collect();
        let outs = futures_join(&s, &batches).await;
        let mut taken = 0;
        for out in &outs {
            assert!(out[..8].iter().all(|o| *o == Outcome::Done), "{out:?}");
            taken += usize::from(out[8] == Outcome::Done);
        }
        assert_eq!(taken, 1, "key 99 taken once");
        for ec in 20..28u8 {
            let n: i64 = sqlx::query_scalar("SELECT validations FROM ea_ec_usage WHERE ec_id = $1")
                .bind(&[ec; 8][..])
                .fetch_one(s.pool())
                .await
                .unwrap();
            assert_eq!(n, 16, "EC {ec}");
        }
    });
}

async fn futures_join(
    s: &v2x_pki_service::store::postgres::PgStore,
    batches: &[Vec<v2x_pki_service::store::Write>],
) -> Vec<Vec<v2x_pki_service::store::Outcome>> {
    let mut set = tokio::task::JoinSet::new();
    for (i, b) in batches.iter().enumerate() {
        let (s, b) = (s.clone(), b.clone());
        set.spawn(async move { (i, s.commit(&b).await.unwrap()) });
    }
    let mut out = vec![Vec::new(); batches.len()];
    while let Some(r) = set.join_next().await {
        let (i, o) = r.unwrap();
        out[i] = o;
    }
    out
}
