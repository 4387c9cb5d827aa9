use super::deployment::HashChainDeployment;
use super::station::HashChainStation;
use super::wire::PID_LEN;
use super::{decode_revocation_list, encode_revocation_list, encode_v2v, HashChainConfig};
use crate::authenticator::{data_packet, Authenticator, DecapOutcome, PacketKind, SenderId, StationId, Timestamp};
use crate::setup::Role;
use crate::RejectReason;

fn setup() -> (HashChainDeployment, HashChainStation, HashChainStation) {
    let config = HashChainConfig {
        rng_seed: Some(7),
        ..HashChainConfig::default()
    };
    let mut dep = HashChainDeployment::new(&config).unwrap();
    let a = dep.station(StationId(1), Role::Vehicle).unwrap();
    let b = dep.station(StationId(2), Role::Vehicle).unwrap();
    (dep, a, b)
}

fn send(s: &mut HashChainStation, payload: &[u8], now: Timestamp) -> Vec<u8> {
    data_packet(&s.encap(payload, now).unwrap()).unwrap().bytes.clone()
}

#[test]
fn v2v_round_trip_has_40_byte_header() {
    let (_dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(1_000_000);
    let pkt = send(&mut a, b"bsm", now);
    assert_eq!(pkt.len(), 40 + 3);
    match b.decap(&pkt, now.plus_micros(2_000)).outcome {
        DecapOutcome::Accepted(d) => {
            assert_eq!(d.payload, b"bsm");
            assert_eq!(d.sender, SenderId::Pseudonym(a.current_pseudonym().to_vec()));
            assert_eq!(d.generated, Some(now));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn tampered_payload_pid_index_are_rejected() {
    let (_dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(5_000);
    let pkt = send(&mut a, b"payload", now);
    for (pos, reason) in [
        (pkt.len() - 1, RejectReason::FalseMac),
        (10, RejectReason::FalseMac),
        (30, RejectReason::FalseMac),
    ] {
        let mut bad = pkt.clone();
        bad[pos] ^= 0x01;
        assert_eq!(b.decap(&bad, now).outcome.reason(), Some(reason), "byte {pos}");
    }
    // An index outside the table is a missing key.
    let mut bad = pkt.clone();
    bad[1] = 0x7f;
    assert_eq!(b.decap(&bad, now).outcome.reason(), Some(RejectReason::UnknownKey));
    assert!(b.decap(&pkt, now).outcome.is_accepted());
}

#[test]
fn replayed_stale_and_future_messages_are_rejected() {
    let (_dep, mut a, mut b) = setup();
    let now = Timestamp::from_millis(5_000);
    let pkt = send(&mut a, b"x", now);
    assert!(b.decap(&pkt, now).outcome.is_accepted());
    assert_eq!(
        b.decap(&pkt, now.plus_micros(1_000)).outcome.reason(),
        Some(RejectReason::DuplicateMessage)
    );
    assert_eq!(
        b.decap(&pkt, now.plus_micros(501_000)).outcome.reason(),
        Some(RejectReason::StaleMessage)
    );
    let early = send(&mut a, b"y", now.plus_micros(200_000));
    assert_eq!(b.decap(&early, now).outcome.reason(), Some(RejectReason::FutureMessage));
}

#[test]
fn station_of_another_ca_has_the_wrong_keys() {
    let (_dep, _a, mut b) = setup();
    let (_dep2, mut outsider, _) = setup();
    let now = Timestamp::from_millis(5_000);
    let pkt = send(&mut outsider, b"x", now);
    assert_eq!(b.decap(&pkt, now).outcome.reason(), Some(RejectReason::FalseMac));
}

#[test]
fn insider_can_impersonate_another_pseudonym() {
    // The documented trust assumption: all registered vehicles share the table, so a
    // registered insider (a) forges a message under victim (c)'s PID and it verifies.
    let (mut dep, a, mut b) = setup();
    let c = dep.station(StationId(3), Role::Vehicle).unwrap();
    let victim = c.current_pseudonym();
    let now = Timestamp::from_millis(9_000);
    let forged = encode_v2v(a.key_store(), 17, &victim, b"brake!", now).unwrap();
    match b.decap(&forged, now).outcome {
        DecapOutcome::Accepted(d) => assert_eq!(d.sender, SenderId::Pseudonym(victim.to_vec())),
        other => panic!("{other:?}"),
    }
    // The CA would trace the forgery to the victim, not to the insider.
    let ca = dep.ca();
    assert_eq!(ca.lock().unwrap().trace(&victim), Some(3));
}

#[test]
fn v2i_is_201_bytes_and_revocation_reaches_vehicles() {
    let (mut dep, mut a, mut b) = setup();
    let mut rsu = dep.station(StationId(100), Role::RoadsideUnit).unwrap();
    let now = Timestamp::from_millis(20_000);
    let pkt = send(&mut rsu, b"spat", now);
    assert_eq!(pkt.len(), 201 + 4);
    match b.decap(&pkt, now).outcome {
        DecapOutcome::Accepted(d) => assert!(matches!(d.sender, SenderId::Certificate(_))),
        other => panic!("{other:?}"),
    }
    // A tampered RSU signature fails even though the MAC is fine.
    let mut bad = send(&mut rsu, b"spat", now);
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert_eq!(b.decap(&bad, now).outcome.reason(), Some(RejectReason::FalseSignature));

    // The CA revokes a's current pseudonym; the RSU announces it on poll.
    let pid = a.current_pseudonym();
    dep.ca().lock().unwrap().revoke_pseudonym(pid);
    let polled = rsu.poll(now);
    assert_eq!(polled.send.len(), 1);
    assert_eq!(
        b.decap(&polled.send[0].bytes, now).outcome,
        DecapOutcome::Control(PacketKind::Revocation)
    );
    assert!(b.knows_revoked(&pid));
    assert!(rsu.poll(now).send.is_empty(), "announced once");
    let msg = send(&mut a, b"still me", now.plus_micros(1_000));
    assert_eq!(
        b.decap(&msg, now.plus_micros(1_000)).outcome.reason(),
        Some(RejectReason::RevokedIdentity)
    );
}

#[test]
fn rsu_certificate_from_another_ca_is_untrusted() {
    let (_dep, _a, mut b) = setup();
    let (mut dep2, _, _) = setup();
    let mut rogue = dep2.station(StationId(100), Role::RoadsideUnit).unwrap();
    let now = Timestamp::from_millis(20_000);
    let pkt = send(&mut rogue, b"x", now);
    assert_eq!(b.decap(&pkt, now).outcome.reason(), Some(RejectReason::UntrustedRoot));
}

#[test]
fn pseudonyms_rotate_after_their_lifetime() {
    let (_dep, mut a, _b) = setup();
    let t0 = Timestamp::from_millis(0);
    send(&mut a, b"x", t0);
    let first = a.current_pseudonym();
    send(&mut a, b"x", t0.plus_micros(59_000_000));
    assert_eq!(a.current_pseudonym(), first);
    send(&mut a, b"x", t0.plus_micros(60_000_000));
    assert_ne!(a.current_pseudonym(), first);
}

#[test]
fn revocation_list_codec_round_trips_and_rejects_garbage() {
    let pids = [[1u8; PID_LEN], [2u8; PID_LEN]];
    assert_eq!(
        decode_revocation_list(&encode_revocation_list(&pids)).unwrap(),
        pids.to_vec()
    );
    assert!(decode_revocation_list(&[0, 5, 1]).is_err());
    assert!(decode_revocation_list(&[0]).is_err());
}

#[test]
fn decode_errors_name_the_field_and_its_offset_in_the_packet() {
    let (mut dep, _a, _b) = setup();
    let mut rsu = dep.station(StationId(100), Role::RoadsideUnit).unwrap();
    let pkt = send(&mut rsu, b"x", Timestamp::from_millis(20_000));
    // Cut inside the RSU certificate (index 4, Ts 4, then subject, issuer and validity:
    // its public key starts at byte 28).
    let e = super::parse(&pkt[..30], v2x_crypto::Curve::NistP256).unwrap_err();
    assert_eq!((e.field(), e.offset()), ("certificate public key", 28));
    let e = super::parse(&pkt[..pkt.len() - 60], v2x_crypto::Curve::NistP256).unwrap_err();
    assert_eq!(e.field(), "signature");
}
