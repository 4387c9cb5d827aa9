use super::crypto::{EncryptionAlg, SignatureAlg};
use super::wire::DATA;
use super::{measure_steps, Protection, Scheme, SessionConfig, SessionDeployment, SessionStation, Topology};
use crate::authenticator::{Authenticator, DecapOutcome, OutgoingPacket, PacketKind, SenderId, StationId, Timestamp};
use crate::loopback::Link;
use crate::setup::Role;
use crate::{RejectReason, Rejection};

/// Delivers `packets` (from `a`) and every reply until quiet; returns the payloads
/// either side accepted and every rejection.
fn exchange(
    a: &mut SessionStation,
    b: &mut SessionStation,
    packets: Vec<OutgoingPacket>,
    now: Timestamp,
) -> (Vec<Vec<u8>>, Vec<Rejection>) {
    let x = Link::new().deliver(&mut [a, b], 0, packets, now);
    (x.payloads(), x.rejections().into_iter().cloned().collect())
}

fn pair(config: &SessionConfig) -> (SessionDeployment, SessionStation, SessionStation) {
    let mut dep = SessionDeployment::new(config).unwrap();
    let role = if config.topology == Topology::Group {
        Role::GroupLeader
    } else {
        Role::Vehicle
    };
    let mut a = dep.station(StationId(1), role).unwrap();
    let b = dep.station(StationId(2), Role::Vehicle).unwrap();
    a.connect(StationId(2));
    (dep, a, b)
}

fn cfg(scheme: Scheme, protection: Protection, signature: SignatureAlg, encryption: EncryptionAlg) -> SessionConfig {
    SessionConfig {
        scheme,
        protection,
        signature,
        encryption,
        ..SessionConfig::default()
    }
}

const T0: Timestamp = Timestamp(5_000_000);

#[test]
fn pairwise_round_trip_every_mode_both_schemes() {
    for scheme in [Scheme::RayaHubaux, Scheme::Wang] {
        for protection in [
            Protection::Hmac,
            Protection::Encrypt,
            Protection::EncryptSignedMac,
            Protection::EncryptThenSignMac,
        ] {
            let (_d, mut a, mut b) = pair(&cfg(scheme, protection, SignatureAlg::Ecdsa, EncryptionAlg::Ecies));
            let first = a.encap(b"hello", T0).unwrap();
            assert_eq!(first.len(), 1, "handshake 1 only, payload queued");
            assert_eq!(first[0].kind, PacketKind::Handshake(1));
            let (got, rej) = exchange(&mut a, &mut b, first, T0);
            assert!(rej.is_empty(), "{scheme:?} {protection:?}: {rej:?}");
            assert_eq!(got, vec![b"hello".to_vec()], "{scheme:?} {protection:?}");
            let again = a.encap(b"who", T0.plus_micros(5)).unwrap().remove(0);
            match b.decap(&again.bytes, T0.plus_micros(6)).outcome {
                DecapOutcome::Accepted(d) => assert_eq!(d.sender, SenderId::Certificate(a.certificate().digest())),
                other => panic!("{other:?}"),
            }
            assert!(a.has_session_with(StationId(2)));
            // Established: the next payload is a single data packet.
            let next = a.encap(b"again", T0.plus_micros(10)).unwrap();
            assert_eq!(next.len(), 1);
            assert_eq!(next[0].kind, PacketKind::Data);
            let (got, rej) = exchange(&mut a, &mut b, next.clone(), T0.plus_micros(20));
            assert!(rej.is_empty());
            assert_eq!(got, vec![b"again".to_vec()]);
            // Replay of the same data packet.
            let (_, rej) = exchange(&mut a, &mut b, next, T0.plus_micros(30));
            assert_eq!(rej[0].reason, RejectReason::DuplicateMessage);
        }
    }
}

#[test]
fn paper003_algorithm_combinations_work() {
    let combos = [
        (
            Scheme::RayaHubaux,
            SignatureAlg::Rsa,
            EncryptionAlg::Rsa,
            Protection::Hmac,
        ),
        (
            Scheme::RayaHubaux,
            SignatureAlg::Rsa,
            EncryptionAlg::Ecies,
            Protection::Hmac,
        ),
        (
            Scheme::RayaHubaux,
            SignatureAlg::Dsa,
            EncryptionAlg::Rsa,
            Protection::Hmac,
        ),
        (
            Scheme::RayaHubaux,
            SignatureAlg::Dsa,
            EncryptionAlg::Ecies,
            Protection::Hmac,
        ),
        (
            Scheme::Wang,
            SignatureAlg::Rsa,
            EncryptionAlg::Ecies,
            Protection::EncryptThenSignMac,
        ),
        (
            Scheme::Wang,
            SignatureAlg::Dsa,
            EncryptionAlg::Ecies,
            Protection::EncryptThenSignMac,
        ),
    ];
    for (scheme, sig, enc, prot) in combos {
        let (_d, mut a, mut b) = pair(&cfg(scheme, prot, sig, enc));
        let first = a.encap(b"m", T0).unwrap();
        let (got, rej) = exchange(&mut a, &mut b, first, T0);
        assert!(rej.is_empty(), "{scheme:?} {sig:?} {enc:?}: {rej:?}");
        assert_eq!(got, vec![b"m".to_vec()]);
    }
}

#[test]
fn tampered_data_is_rejected_per_mode() {
    let expect = [
        (Protection::Hmac, RejectReason::FalseMac),
        (Protection::Encrypt, RejectReason::DecryptionFailed),
        (Protection::EncryptSignedMac, RejectReason::DecryptionFailed),
        (Protection::EncryptThenSignMac, RejectReason::FalseSignature),
    ];
    for (protection, reason) in expect {
        let (_d, mut a, mut b) = pair(&cfg(
            Scheme::Wang,
            protection,
            SignatureAlg::Ecdsa,
            EncryptionAlg::Ecies,
        ));
        let first = a.encap(b"setup", T0).unwrap();
        exchange(&mut a, &mut b, first, T0);
        let mut p = a.encap(b"payload!", T0.plus_micros(1)).unwrap().remove(0);
        // Flip a bit in the middle of the body (payload or ciphertext).
        let pos = 13 + 3;
        p.bytes[pos] ^= 0x10;
        assert_eq!(
            b.decap(&p.bytes, T0.plus_micros(2)).outcome.reason(),
            Some(reason),
            "{protection:?}"
        );
        // A changed sequence number breaks the MAC / the CCM nonce.
        let mut q = a.encap(b"payload!", T0.plus_micros(3)).unwrap().remove(0);
        q.bytes[12] ^= 0x40;
        assert!(
            b.decap(&q.bytes, T0.plus_micros(4)).outcome.reason().is_some(),
            "{protection:?}"
        );
    }
}

#[test]
fn handshake_rejections() {
    let config = cfg(
        Scheme::RayaHubaux,
        Protection::Hmac,
        SignatureAlg::Ecdsa,
        EncryptionAlg::Ecies,
    );
    let (mut dep, mut a, mut b) = pair(&config);
    let h1 = a.encap(b"x", T0).unwrap().remove(0);
    // Addressed to station 2: station 3 refuses it.
    let mut c = dep.station(StationId(3), Role::Vehicle).unwrap();
    assert_eq!(
        c.decap(&h1.bytes, T0).outcome.reason(),
        Some(RejectReason::NotForThisRecipient)
    );
    // Stale and tampered.
    assert_eq!(
        b.decap(&h1.bytes, T0.plus_micros(2_000_000)).outcome.reason(),
        Some(RejectReason::StaleMessage)
    );
    let mut bad = h1.bytes.clone();
    bad[24] ^= 1; // last byte of T: still fresh, signature breaks
    assert_eq!(b.decap(&bad, T0).outcome.reason(), Some(RejectReason::FalseSignature));
    // A station of another CA.
    let (_d2, mut x, _) = pair(&config);
    let foreign = x.encap(b"x", T0).unwrap().remove(0);
    assert_eq!(
        b.decap(&foreign.bytes, T0).outcome.reason(),
        Some(RejectReason::UntrustedRoot)
    );
    // The genuine one is accepted once; a replay of it is a duplicate session.
    assert_eq!(
        b.decap(&h1.bytes, T0).outcome,
        DecapOutcome::Control(PacketKind::Handshake(1))
    );
    assert_eq!(
        b.decap(&h1.bytes, T0).outcome.reason(),
        Some(RejectReason::DuplicateMessage)
    );
    // Data for a session nobody set up: no key.
    let mut data = vec![DATA];
    data.extend_from_slice(&[9u8; 12]);
    data.extend_from_slice(&[0u8; 30]);
    assert_eq!(b.decap(&data, T0).outcome.reason(), Some(RejectReason::UnknownKey));
}

#[test]
fn wang_rejects_foreign_dh_group_and_sessions_expire() {
    let config = SessionConfig {
        session_lifetime_ms: 1_000,
        ..cfg(
            Scheme::Wang,
            Protection::Encrypt,
            SignatureAlg::Ecdsa,
            EncryptionAlg::Ecies,
        )
    };
    let (_d, mut a, mut b) = pair(&config);
    let first = a.encap(b"x", T0).unwrap();
    exchange(&mut a, &mut b, first, T0);
    let p = a.encap(b"late", T0.plus_micros(10)).unwrap().remove(0);
    assert_eq!(
        b.decap(&p.bytes, T0.plus_micros(1_000_001)).outcome.reason(),
        Some(RejectReason::StaleMessage)
    );
    // After expiry the sender starts a new handshake.
    let again = a.encap(b"new", T0.plus_micros(1_000_001)).unwrap();
    assert_eq!(again[0].kind, PacketKind::Handshake(1));

    // A handshake offering other DH parameters is refused.
    let (_d, mut a, mut b) = pair(&config);
    let mut h1 = a.encap(b"x", T0).unwrap().remove(0).bytes;
    // p starts after type, from, to, session, T and its length: flip a bit of p.
    h1[1 + 4 + 4 + 8 + 8 + 2 + 5] ^= 1;
    assert_eq!(
        b.decap(&h1, T0).outcome.reason(),
        Some(RejectReason::IncompatibleProtocol)
    );
}

#[test]
fn group_key_distribution_both_schemes_with_late_joiner() {
    for scheme in [Scheme::RayaHubaux, Scheme::Wang] {
        let config = SessionConfig {
            topology: Topology::Group,
            ..cfg(scheme, Protection::Hmac, SignatureAlg::Ecdsa, EncryptionAlg::Ecies)
        };
        let (mut dep, mut leader, mut m2) = pair(&config);
        let mut m3 = dep.station(StationId(3), Role::Vehicle).unwrap();
        let out = leader.encap(b"g1", T0).unwrap();
        let keys = out.iter().filter(|p| p.kind == PacketKind::GroupKey).count();
        assert_eq!(keys, if scheme == Scheme::Wang { 1 } else { 2 }, "{scheme:?}");
        let x = Link::new().deliver(&mut [&mut leader, &mut m2, &mut m3], 0, out.clone(), T0);
        for member in [StationId(2), StationId(3)] {
            let got = x.payloads_at(member);
            assert_eq!(got, vec![b"g1".to_vec()], "{scheme:?}");
        }
        // A member joining later gets its own key message with the next payload.
        let mut m4 = dep.station(StationId(4), Role::Vehicle).unwrap();
        let out = leader.encap(b"g2", T0.plus_micros(100)).unwrap();
        assert_eq!(out.iter().filter(|p| p.kind == PacketKind::GroupKey).count(), 1);
        let results: Vec<_> = out
            .iter()
            .map(|p| m4.decap(&p.bytes, T0.plus_micros(100)).outcome)
            .collect();
        assert!(matches!(results.last(), Some(DecapOutcome::Accepted(d)) if d.payload == b"g2"));
        // Someone outside the directory has no key.
        let (_d2, _, mut outsider) = pair(&config);
        assert_eq!(
            outsider.decap(&out[0].bytes, T0).outcome.reason(),
            Some(RejectReason::NotForThisRecipient)
        );
        let data = out.last().unwrap();
        assert_eq!(
            outsider.decap(&data.bytes, T0).outcome.reason(),
            Some(RejectReason::UnknownKey)
        );
        // Members cannot lead.
        assert!(m2.encap(b"x", T0).is_err());
    }
}

#[test]
fn measured_step_sizes_match_the_formats() {
    // Raya–Hubaux, ECDSA + ECIES, HMAC data.
    let steps = measure_steps(&cfg(
        Scheme::RayaHubaux,
        Protection::Hmac,
        SignatureAlg::Ecdsa,
        EncryptionAlg::Ecies,
    ))
    .unwrap();
    let names: Vec<_> = steps.iter().map(|s| s.message.as_str()).collect();
    assert_eq!(names, ["handshake-1", "handshake-2", "handshake-3", "data"]);
    // Certificate: 4 + (2+33) + (2+33) + (2+64) = 140; H1 = 1+4+4+8+8 + (2+140) + (2+64) = 233.
    assert_eq!(steps[0].total, 233);
    assert_eq!(steps[1].total, 233);
    // H3: 1+4+4+8 + 2 + ECIES(33+16+16 + 28+16) + 2 + 64 = 194.
    assert_eq!(steps[2].total, 194);
    // Data: 1 + 8 + 4 + HMAC 20 = 33 bytes of overhead.
    assert_eq!(steps[3].overhead, 33);
    // Wang, DSA: data in mode 3 carries var16 CCM(m) (+2+16) and var16 Sig (2+40).
    let steps = measure_steps(&cfg(
        Scheme::Wang,
        Protection::EncryptThenSignMac,
        SignatureAlg::Dsa,
        EncryptionAlg::Ecies,
    ))
    .unwrap();
    assert_eq!(steps.last().unwrap().overhead, 13 + 2 + 16 + 2 + 40);
}
