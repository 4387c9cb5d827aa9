//! Privacy by what each side stores (TS 102 941 §6.2.3.3: the AA must not learn the ITS-S's
//! identity, the EA must not learn its tickets). Two stations enrol and obtain tickets, with and
//! without the encrypted EC signature; then every value of every EA table is searched for each
//! ticket's public key, certificate and HashedId8, and every value of every AA table for each
//! station's canonical id and key and each EC's certificate and HashedId8. The search is shown to
//! work by finding what each side must store.

mod common;

use common::{http, TestService};
use sqlx::{Column, Row, TypeInfo};
use std::time::Duration;
use v2x_pki_service::its_station::PoolPlan;
use v2x_pki_service::store::AnyStore;
use v2x_security::ts102941::station::AuthorizationOptions;
use v2x_security::TaiTime;

/// Every value (as bytes) of every table whose name starts with `prefix`.
fn values(svc: &TestService, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let url = svc.store.clone();
    let prefix = prefix.to_string();
    svc.rt.block_on(async move {
        let AnyStore::Sqlite(s) = AnyStore::open(&url).await.unwrap() else {
            unreachable!()
        };
        let tables: Vec<String> = sqlx::query("SELECT name FROM sqlite_master WHERE type = 'table'")
            .fetch_all(s.pool())
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<String, _>(0))
            .filter(|n| n.starts_with(&prefix))
            .collect();
        let mut out = Vec::new();
        for t in tables {
            for row in sqlx::query(&format!("SELECT * FROM {t}"))
                .fetch_all(s.pool())
                .await
                .unwrap()
            {
                for (i, c) in row.columns().iter().enumerate() {
                    let v: Vec<u8> = match c.type_info().name() {
                        "BLOB" => row.get::<Vec<u8>, _>(i),
                        "TEXT" => row.get::<String, _>(i).into_bytes(),
                        _ => row.get::<i64, _>(i).to_be_bytes().to_vec(),
                    };
                    out.push((format!("{t}.{}", c.name()), v));
                }
            }
        }
        out
    })
}

fn holds(values: &[(String, Vec<u8>)], needle: &[u8]) -> Option<String> {
    values
        .iter()
        .find(|(_, v)| v.windows(needle.len()).any(|w| w == needle))
        .map(|(c, _)| c.clone())
}

#[test]
fn the_ea_stores_no_ticket_and_the_aa_no_identity() {
    let tmp = tempfile::tempdir().unwrap();
    let svc = TestService::start(&tmp.path().join("svc"), None, |_| {});
    let mut tickets = Vec::new();
    let mut identities = Vec::new();
    for (i, privacy) in [(0, true), (1, false)] {
        let st = svc.station(&tmp.path().join(format!("car-{i}")), &format!("car-{i}"));
        let auth = svc.authorities(&st);
        let ec = st.enrol(&http(), &auth.ea, &auth.ea_url).unwrap();
        let mut plan = PoolPlan::new(3, 3);
        plan.options = AuthorizationOptions {
            privacy,
            ..AuthorizationOptions::default()
        };
        st.obtain(&http(), &auth, 3, &plan).unwrap();
        tickets.extend(st.tickets(TaiTime::now(), Duration::ZERO).unwrap());
        identities.push((st.its_id.clone(), st.canonical_public_key().to_sec1(true), ec));
    }
    let ea = values(&svc, "ea_");
    let aa = values(&svc, "aa_");
    assert_eq!(tickets.len(), 6);
    for t in &tickets {
        let key = t.certificate.verification_key().to_sec1(true);
        // The x coordinate: the key in any encoding.
        let x = &key[1..];
        assert_eq!(holds(&ea, x), None, "the EA stores an AT public key");
        assert_eq!(
            holds(&ea, &t.certificate.hashed_id8().0),
            None,
            "the EA stores an AT HashedId8"
        );
        assert_eq!(holds(&ea, t.certificate.encoded()), None);
        if let Some(enc) = t.certificate.encryption_key() {
            assert_eq!(
                holds(&ea, &enc.to_sec1(true)[1..]),
                None,
                "the EA stores an AT encryption key"
            );
        }
        // The AA must hold it (the search works).
        assert!(holds(&aa, &t.certificate.hashed_id8().0).is_some());
        assert!(holds(&aa, t.certificate.encoded()).is_some());
    }
    for (its_id, canonical, ec) in &identities {
        assert_eq!(holds(&aa, its_id.as_bytes()), None, "the AA stores a canonical id");
        assert_eq!(holds(&aa, &canonical[1..]), None, "the AA stores a canonical key");
        assert_eq!(
            holds(&aa, &ec.certificate.hashed_id8().0),
            None,
            "the AA stores an EC id"
        );
        assert_eq!(
            holds(&aa, &ec.key.public_key().to_sec1(true)[1..]),
            None,
            "the AA stores an EC key"
        );
        assert!(holds(&ea, &ec.certificate.hashed_id8().0).is_some());
        assert!(holds(&ea, its_id.as_bytes()).is_some());
    }
    svc.stop();
}
