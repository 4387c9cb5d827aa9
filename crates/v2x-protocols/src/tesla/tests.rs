use super::config::{Bootstrap, KeyDisclosure, TeslaConfig};
use super::deployment::{measured_commitment_len, TeslaDeployment};
use super::station::TeslaStation;
use super::wire::{PAPER004_BSM_LEN, PAPER004_LINK_FRAMING};
use super::TeslaSigner;
use crate::authenticator::{
    data_packet, Authenticator, DecapOutcome, OutgoingPacket, PacketKind, Released, SenderId, StationId, Timestamp,
};
use crate::loopback::Link;
use crate::setup::Role;
use crate::RejectReason;

const T: u64 = 100_000;

fn pair(config: TeslaConfig) -> (TeslaStation, TeslaStation) {
    let mut dep = TeslaDeployment::new(&config).unwrap();
    (
        dep.station(StationId(1), Role::Vehicle).unwrap(),
        dep.station(StationId(2), Role::Vehicle).unwrap(),
    )
}

/// Delivers every packet in order over the loopback link; returns the outcome of the
/// data packet and all releases. Control packets must be accepted as control.
fn deliver(rx: &mut TeslaStation, packets: &[OutgoingPacket], now: Timestamp) -> (Option<DecapOutcome>, Vec<Released>) {
    let x = Link::new().inject(&mut [rx], packets.to_vec(), now);
    for d in x.deliveries.iter().filter(|d| d.kind != PacketKind::Data) {
        assert!(
            matches!(d.outcome, DecapOutcome::Control(_)),
            "{:?}: {:?}",
            d.kind,
            d.outcome
        );
    }
    (x.outcome_of(PacketKind::Data).cloned(), x.released())
}

fn accepted(r: &[Released]) -> Vec<Vec<u8>> {
    r.iter()
        .filter_map(|r| r.result.as_ref().ok().map(|d| d.payload.clone()))
        .collect()
}

#[test]
fn paper004_sizes_are_82_92_43() {
    for (disclosure, data_len) in [(KeyDisclosure::Separate, 82), (KeyDisclosure::Attached, 92)] {
        let (mut a, _) = pair(TeslaConfig::paper004(disclosure));
        let out = a.encap(&[0u8; PAPER004_BSM_LEN], Timestamp(1_000)).unwrap();
        assert_eq!(data_packet(&out).unwrap().bytes.len() + PAPER004_LINK_FRAMING, data_len);
    }
    let (mut a, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    a.encap(b"x", Timestamp(1_000)).unwrap();
    let keys = a.poll(Timestamp(1_000 + T)).send;
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].bytes.len() + PAPER004_LINK_FRAMING, 43);
}

#[test]
fn paper001_overhead_is_142() {
    let (mut a, mut b) = pair(TeslaConfig::paper001());
    let out = a.encap(b"bsm!", Timestamp(1_000)).unwrap();
    assert_eq!(data_packet(&out).unwrap().bytes.len(), 142 + 4);
    let (data, _) = deliver(&mut b, &out, Timestamp(2_000));
    assert!(matches!(data, Some(DecapOutcome::Pending(_))));
}

#[test]
fn separate_keys_release_pending_packets() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let t0 = Timestamp(10_000_000);
    let out = a.encap(b"one", t0).unwrap();
    assert_eq!(out[0].kind, PacketKind::Commitment);
    let (data, rel) = deliver(&mut b, &out, t0.plus_micros(1_000));
    let Some(DecapOutcome::Pending(id)) = data else {
        panic!("{data:?}")
    };
    assert!(rel.is_empty());
    assert_eq!(b.pending_count(), 1);
    // Not yet due.
    assert!(a.poll(t0.plus_micros(T - 1)).send.is_empty());
    assert_eq!(a.next_poll(), Some(t0.plus_micros(T)));
    let keys = a.poll(t0.plus_micros(T)).send;
    let d = b.decap(&keys[0].bytes, t0.plus_micros(T + 1_000));
    assert_eq!(d.outcome, DecapOutcome::Control(PacketKind::KeyDisclosure));
    assert_eq!(d.released.len(), 1);
    assert_eq!(d.released[0].id, id);
    let delivery = d.released[0].result.clone().unwrap();
    assert_eq!(delivery.payload, b"one");
    assert!(matches!(delivery.sender, SenderId::Address(ref a) if a.len() == 6));
    assert_eq!(b.pending_count(), 0);
}

#[test]
fn attached_keys_verify_on_the_next_beacon_and_a_later_key_makes_up_a_loss() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Attached));
    let t0 = Timestamp(50_000_000);
    let p1 = a.encap(b"b1", t0).unwrap();
    let p2 = a.encap(b"b2", t0.plus_micros(T)).unwrap();
    let p3 = a.encap(b"b3", t0.plus_micros(2 * T)).unwrap();
    let p4 = a.encap(b"b4", t0.plus_micros(3 * T)).unwrap();
    let (_, rel) = deliver(&mut b, &p1, t0.plus_micros(500));
    assert!(rel.is_empty());
    let (_, rel) = deliver(&mut b, &p2, t0.plus_micros(T + 500));
    assert_eq!(accepted(&rel), vec![b"b1".to_vec()]);
    // p3 is lost; p4 carries K_3, which also derives K_2 for b2.
    let _ = p3;
    let (_, rel) = deliver(&mut b, &p4, t0.plus_micros(3 * T + 500));
    assert_eq!(accepted(&rel), vec![b"b2".to_vec()]);
}

#[test]
fn lost_key_packet_is_made_up_by_a_later_key() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let t0 = Timestamp(1_000_000);
    let p1 = a.encap(b"first", t0).unwrap();
    deliver(&mut b, &p1, t0.plus_micros(100));
    let lost = a.encap(b"second", t0.plus_micros(T + 10)).unwrap();
    // lost[0] is the key packet of interval 1 (flushed by encap), never delivered.
    assert_eq!(lost[0].kind, PacketKind::KeyDisclosure);
    let (data, _) = deliver(&mut b, &lost[1..], t0.plus_micros(T + 100));
    assert!(matches!(data, Some(DecapOutcome::Pending(_))));
    let later = a.poll(t0.plus_micros(2 * T)).send;
    let d = b.decap(&later[0].bytes, t0.plus_micros(2 * T + 100));
    assert_eq!(accepted(&d.released), vec![b"first".to_vec(), b"second".to_vec()]);
}

#[test]
fn paper001_round_trip_and_bad_signature() {
    let (mut a, mut b) = pair(TeslaConfig::paper001());
    let t0 = Timestamp(7_000_000);
    let p1 = a.encap(b"m1", t0).unwrap();
    let mut p2 = a.encap(b"m2", t0.plus_micros(T)).unwrap();
    deliver(&mut b, &p1, t0.plus_micros(100));
    let sig_byte = 8 + 6 + 32 + 32 + 3;
    p2[0].bytes[sig_byte] ^= 1;
    let d = b.decap(&p2[0].bytes, t0.plus_micros(T + 100));
    // The attached key is genuine, so m1 is released, but m2's signature is false.
    assert_eq!(d.outcome.reason(), Some(RejectReason::FalseSignature));
    assert_eq!(accepted(&d.released), vec![b"m1".to_vec()]);
    match &d.released[0].result {
        Ok(del) => assert!(matches!(del.sender, SenderId::Certificate(_))),
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn unsafe_replayed_tampered_and_unknown_are_rejected() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let t0 = Timestamp(3_000_000);
    let out = a.encap(b"data", t0).unwrap();
    // No commitment yet: unknown sender.
    let data = data_packet(&out).unwrap().bytes.clone();
    assert_eq!(b.decap(&data, t0).outcome.reason(), Some(RejectReason::UnknownSender));
    b.decap(&out[0].bytes, t0);
    // Received after the sender may have disclosed its key: fails the safe-packet test.
    let late = t0.plus_micros(T);
    assert_eq!(
        b.decap(&data, late).outcome.reason(),
        Some(RejectReason::KeyAlreadyDisclosed)
    );
    // Within the clock bound of the disclosure: also unsafe.
    let edge = t0.plus_micros(T - 4_000);
    assert_eq!(
        b.decap(&data, edge).outcome.reason(),
        Some(RejectReason::KeyAlreadyDisclosed)
    );
    // In time: pending; a duplicate is rejected.
    assert!(matches!(
        b.decap(&data, t0.plus_micros(10)).outcome,
        DecapOutcome::Pending(_)
    ));
    assert_eq!(
        b.decap(&data, t0.plus_micros(20)).outcome.reason(),
        Some(RejectReason::DuplicateMessage)
    );
    // A tampered copy waits too but fails when the key arrives.
    let mut tampered = data.clone();
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    assert!(matches!(
        b.decap(&tampered, t0.plus_micros(30)).outcome,
        DecapOutcome::Pending(_)
    ));
    let keys = a.poll(t0.plus_micros(T)).send;
    let d = b.decap(&keys[0].bytes, t0.plus_micros(T + 10));
    let reasons: Vec<_> = d
        .released
        .iter()
        .map(|r| r.result.as_ref().err().map(|e| e.reason))
        .collect();
    assert_eq!(reasons, vec![None, Some(RejectReason::FalseMac)]);
    // Replay after disclosure: rejected by the safe-packet test.
    assert_eq!(
        b.decap(&data, t0.plus_micros(T + 20)).outcome.reason(),
        Some(RejectReason::KeyAlreadyDisclosed)
    );
}

#[test]
fn forged_key_and_foreign_commitment_are_rejected() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let t0 = Timestamp(3_000_000);
    let out = a.encap(b"data", t0).unwrap();
    deliver(&mut b, &out, t0);
    let mut key = a.poll(t0.plus_micros(T)).send.remove(0);
    let last = key.bytes.len() - 1;
    key.bytes[last] ^= 1;
    assert_eq!(
        b.decap(&key.bytes, t0.plus_micros(T)).outcome.reason(),
        Some(RejectReason::InvalidKey)
    );
    // A station certified by another CA cannot bootstrap (its AA is unknown here).
    let (mut x, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let out = x.encap(b"evil", t0).unwrap();
    assert_eq!(
        b.decap(&out[0].bytes, t0).outcome.reason(),
        Some(RejectReason::IssuerCertificateNotFound)
    );
    // A tampered commitment (different K0) fails its signature.
    let (mut y, _) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let mut c = y.encap(b"x", t0).unwrap().remove(0);
    c.bytes[30] ^= 1;
    assert!(b.decap(&c.bytes, t0).outcome.reason().is_some());
}

#[test]
fn pending_buffer_is_bounded_and_expires() {
    let cfg = TeslaConfig {
        max_pending_per_sender: 2,
        ..TeslaConfig::paper004(KeyDisclosure::Separate)
    };
    let (mut a, mut b) = pair(cfg);
    let t0 = Timestamp(3_000_000);
    let out = a.encap(b"1", t0).unwrap();
    deliver(&mut b, &out, t0);
    for (k, p) in [b"2", b"3"].iter().enumerate() {
        let out = a.encap(*p, t0.plus_micros(k as u64 + 1)).unwrap();
        let r = b.decap(&data_packet(&out).unwrap().bytes, t0.plus_micros(10));
        if k == 0 {
            assert!(matches!(r.outcome, DecapOutcome::Pending(_)));
        } else {
            assert_eq!(r.outcome.reason(), Some(RejectReason::PendingBufferFull));
        }
    }
    assert_eq!(
        b.next_poll(),
        Some(t0.plus_micros(1_000_000 + 1)),
        "first pending packet expires first"
    );
    // The key never comes: both expire after max_hold.
    let polled = b.poll(t0.plus_micros(1_000_011));
    assert_eq!(polled.released.len(), 2);
    assert!(polled
        .released
        .iter()
        .all(|r| r.result.as_ref().err().map(|e| e.reason) == Some(RejectReason::PendingExpired)));
    assert_eq!(b.pending_count(), 0);
}

#[test]
fn chain_rolls_over_with_a_new_commitment() {
    let cfg = TeslaConfig {
        chain_length: 3,
        ..TeslaConfig::paper004(KeyDisclosure::Attached)
    };
    let (mut a, mut b) = pair(cfg);
    let t0 = Timestamp(1_000_000);
    let mut got = Vec::new();
    for k in 0..8u64 {
        let now = t0.plus_micros(k * T);
        let out = a.encap(&[k as u8], now).unwrap();
        let (_, rel) = deliver(&mut b, &out, now.plus_micros(100));
        got.extend(accepted(&rel));
    }
    // Packets 0,1 (chain 1, intervals 1,2) and 3..6 of the second chain verify; the
    // last packet of each chain has no successor carrying its key.
    assert!(got.len() >= 5, "{got:?}");
}

#[test]
fn compact_bootstrap_round_trip_and_foreign_ca() {
    for layout in [TeslaConfig::paper004(KeyDisclosure::Attached), TeslaConfig::paper001()] {
        let cfg = TeslaConfig {
            bootstrap: Bootstrap::Compact,
            ..layout
        };
        let (mut a, mut b) = pair(cfg.clone());
        let t0 = Timestamp(2_000_000);
        let p1 = a.encap(b"c1", t0).unwrap();
        assert_eq!(p1[0].bytes.len(), cfg.format().commitment_len());
        deliver(&mut b, &p1, t0.plus_micros(10));
        let p2 = a.encap(b"c2", t0.plus_micros(T)).unwrap();
        let (_, rel) = deliver(&mut b, &p2, t0.plus_micros(T + 10));
        assert_eq!(accepted(&rel), vec![b"c1".to_vec()]);
        let (mut x, _) = pair(cfg);
        let foreign = x.encap(b"x", t0).unwrap();
        assert_eq!(
            b.decap(&foreign[0].bytes, t0).outcome.reason(),
            Some(RejectReason::UntrustedRoot)
        );
    }
}

#[test]
fn dot2_commitment_is_a_1609_2_message_and_tampering_is_caught() {
    let (mut a, mut b) = pair(TeslaConfig::paper004(KeyDisclosure::Separate));
    let out = a.encap(b"x", Timestamp(1_000)).unwrap();
    let c = &out[0];
    assert_eq!(c.kind, PacketKind::Commitment);
    // After the type byte: an Ieee1609Dot2Data, protocol version 3.
    assert_eq!(c.bytes[1], 3);
    let mut bad = c.bytes.clone();
    bad[12] ^= 1;
    assert!(b.decap(&bad, Timestamp(1_000)).outcome.reason().is_some());
    assert_eq!(
        b.decap(&c.bytes, Timestamp(1_000)).outcome,
        DecapOutcome::Control(PacketKind::Commitment)
    );
    assert!(measured_commitment_len(&TeslaConfig::default()).unwrap() > 100);
}

#[test]
fn revoked_commitment_signer_and_stale_paper001_packets_are_rejected() {
    let (mut a, mut b) = pair(TeslaConfig::paper001());
    let t0 = Timestamp(4_000_000);
    let out = a.encap(b"m", t0).unwrap();
    // Stale: the 6-byte timestamp is older than the hold limit.
    deliver(&mut b, &out[..1], t0);
    let late = t0.plus_micros(1_000_001);
    assert_eq!(
        b.decap(&out[1].bytes, late).outcome.reason(),
        Some(RejectReason::StaleMessage)
    );
    // The CA revoked the sender's certificate: its commitments are refused.
    let (mut c, mut d) = pair(TeslaConfig::paper004(KeyDisclosure::Attached));
    let TeslaSigner::Ieee1609Dot2 { ticket, .. } = &c.signer else {
        panic!("1609.2 bootstrap expected")
    };
    let cert = ticket.certificate.clone();
    let TeslaSigner::Ieee1609Dot2 { entity, .. } = &mut d.signer else {
        panic!()
    };
    entity.trust_store_mut().revoke(&cert);
    let out = c.encap(b"x", t0).unwrap();
    assert_eq!(
        d.decap(&out[0].bytes, t0).outcome.reason(),
        Some(RejectReason::RevokedCertificate)
    );
    assert_eq!(
        d.decap(&out[1].bytes, t0).outcome.reason(),
        Some(RejectReason::UnknownSender)
    );
}

#[test]
fn config_validation() {
    assert!(TeslaConfig {
        key_disclosure: KeyDisclosure::Separate,
        ..TeslaConfig::paper001()
    }
    .validate()
    .is_err());
    assert!(TeslaConfig {
        mac_len: Some(21),
        ..TeslaConfig::default()
    }
    .validate()
    .is_err());
    assert!(TeslaConfig::default().validate().is_ok());
}
