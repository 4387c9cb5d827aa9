use super::{DriverFactors, TwoFlipConfig, TwoFlipDeployment, TwoFlipStation, PID_LEN};
use crate::authenticator::{data_packet, Authenticator, DecapOutcome, EncapError, SenderId, StationId, Timestamp};
use crate::freshness;
use crate::setup::Role;
use crate::RejectReason;

fn setup() -> (TwoFlipDeployment, TwoFlipStation, TwoFlipStation) {
    let mut dep = TwoFlipDeployment::new(&TwoFlipConfig::default());
    let a = dep.station(StationId(1), Role::Vehicle).unwrap();
    let b = dep.station(StationId(2), Role::Vehicle).unwrap();
    (dep, a, b)
}

fn send(s: &mut TwoFlipStation, m: &[u8], now: Timestamp) -> Vec<u8> {
    data_packet(&s.encap(m, now).unwrap()).unwrap().bytes.clone()
}

#[test]
fn round_trip_47_bytes_and_traceable_to_the_driver() {
    let (dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(123_456);
    let pkt = send(&mut a, b"cam", now);
    assert_eq!(pkt.len(), 47 + 3);
    let d = match b.decap(&pkt, now).outcome {
        DecapOutcome::Accepted(d) => d,
        other => panic!("{other:?}"),
    };
    assert_eq!(d.payload, b"cam");
    let SenderId::Pseudonym(pid) = d.sender else { panic!() };
    assert_eq!(
        dep.authority().lock().unwrap().trace(&pid, freshness::ts32(now)),
        Some((1, 0))
    );
    // PIDs are unlinkable: a second message has another PID.
    let pkt2 = send(&mut a, b"cam", now.plus_micros(100_000));
    assert_ne!(pkt2[..PID_LEN], pkt[..PID_LEN]);
}

#[test]
fn tampering_replay_staleness_are_rejected() {
    let (_dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(50_000);
    let pkt = send(&mut a, b"payload", now);
    for pos in [5, 30, pkt.len() - 1] {
        let mut bad = pkt.clone();
        bad[pos] ^= 1;
        assert_eq!(
            b.decap(&bad, now).outcome.reason(),
            Some(RejectReason::FalseMac),
            "byte {pos}"
        );
    }
    let mut bad_epoch = pkt.clone();
    bad_epoch[2] ^= 1;
    assert_eq!(
        b.decap(&bad_epoch, now).outcome.reason(),
        Some(RejectReason::UnknownKey)
    );
    assert!(b.decap(&pkt, now).outcome.is_accepted());
    assert_eq!(
        b.decap(&pkt, now).outcome.reason(),
        Some(RejectReason::DuplicateMessage)
    );
    assert_eq!(
        b.decap(&pkt, now.plus_micros(600_000)).outcome.reason(),
        Some(RejectReason::StaleMessage)
    );
    assert_eq!(
        b.decap(&pkt[..40], now).outcome.reason(),
        Some(RejectReason::InvalidEncoding)
    );
}

#[test]
fn wrong_factor_and_outsider_fail() {
    let (_dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(50_000);
    let good = a.driver().clone();
    a.login(DriverFactors {
        password: b"guess".to_vec(),
        ..good.clone()
    });
    assert!(matches!(a.encap(b"x", now), Err(EncapError::NotReady(_))));
    a.login(good);
    assert!(a.encap(b"x", now).is_ok());
    let (_dep2, mut outsider, _) = setup();
    let pkt = send(&mut outsider, b"x", now);
    assert_eq!(b.decap(&pkt, now).outcome.reason(), Some(RejectReason::FalseMac));
}

#[test]
fn revoked_driver_cannot_sign_and_old_epoch_is_rejected() {
    let (dep, mut a, mut b) = setup();
    let mut c = {
        let mut dep = dep;
        let c = dep.station(StationId(3), Role::Vehicle).unwrap();
        (c, dep)
    };
    let now = Timestamp::from_millis(70_000);
    let before = send(&mut a, b"old epoch", now);
    c.1.authority().lock().unwrap().revoke_driver(1, 0, now);
    assert!(matches!(a.encap(b"x", now), Err(EncapError::NotReady(_))));
    // A message signed before the revocation (old epoch) is no longer accepted.
    assert_eq!(
        b.decap(&before, now.plus_micros(1)).outcome.reason(),
        Some(RejectReason::UnknownKey)
    );
    // Unrevoked vehicles move to the new epoch and keep working.
    let pkt = send(&mut c.0, b"new epoch", now.plus_micros(10));
    assert!(b.decap(&pkt, now.plus_micros(20)).outcome.is_accepted());
}
