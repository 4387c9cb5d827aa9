//! Differential property (issue 29, one SN-DECAP): `SecurityEntity::precheck` — the
//! read-only steps before the message signature — never rejects a message that DECAP
//! accepts on the same receiver state, and where both reject, they name the same step and
//! reason. The one exception is the precheck's documented look-ahead of step 10 (the
//! signer certificate's validity): there DECAP may name a fault only a verification finds
//! (step 8 or 9) first, and names the same reason when it gets to step 10. The precheck
//! also changes nothing: run twice, it answers the same, and it queues no P2PCD request.
//!
//! Messages: genuine CAMs and DENMs (certificate and digest signer), an encrypted message,
//! an unsigned one, CAMs from an expired ticket and from a foreign PKI, each mutated at
//! random (or not), received at a random moment (stale, future, fresh), by a receiver that
//! has seen nothing or has already accepted some of them (known signers, replays).

use proptest::prelude::*;
use std::sync::OnceLock;
use std::time::Duration;
use v2x_security::*;

struct Samples {
    fx: InMemoryPki,
    /// Messages the "experienced" receiver accepts first.
    setup: Vec<Vec<u8>>,
    /// Messages the property is checked on (before mutation).
    messages: Vec<Vec<u8>>,
    /// Certificate and key of the receiver (for the encrypted message).
    receiver_ticket: Credentials,
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn samples() -> &'static Samples {
    static S: OnceLock<Samples> = OnceLock::new();
    S.get_or_init(|| {
        let fx = InMemoryPki::builder().build().unwrap();
        let at = |n: u64| fx.now.saturating_add(ms(n));
        let mut alice = fx.sender(fx.ticket().unwrap());
        let mut bob = fx.sender(fx.ticket().unwrap());
        let receiver_ticket = fx.ticket().unwrap();
        let cam = |s: &mut SecurityEntity, p: &[u8], t| s.encap(&EncapRequest::cam(p).at(t)).unwrap().bytes;
        // Alice: a certificate CAM, then digest CAMs (known to the experienced receiver).
        let a0 = cam(&mut alice, b"a0", at(0));
        let a1 = cam(&mut alice, b"a1", at(100));
        let a2 = cam(&mut alice, b"a2", at(200));
        // Bob: never seen before by either receiver; his digest CAM names an unknown signer.
        let b0 = cam(&mut bob, b"b0", at(0));
        let b1 = cam(&mut bob, b"b1", at(100));
        let loc = Location {
            point: GeoPoint::from_degrees(48.1, 11.5),
            elevation: 0,
        };
        let denm = alice.encap(&EncapRequest::denm(b"denm", loc).at(at(50))).unwrap().bytes;
        let denm_without_location = alice
            .encap(
                &EncapRequest::new(ProfileKind::Generic, b"d")
                    .with_psid(ItsAid::DENM)
                    .at(at(60)),
            )
            .unwrap()
            .bytes;
        let encrypted = alice
            .encap(
                &EncapRequest::new(ProfileKind::Generic, b"secret")
                    .at(at(70))
                    .encrypted_to(Recipient::Certificate(receiver_ticket.certificate.clone())),
            )
            .unwrap()
            .bytes;
        let unsigned = alice
            .encap(&EncapRequest::new(ProfileKind::Generic, b"plain").at(at(80)).unsigned())
            .unwrap()
            .bytes;
        let expired = {
            let t = fx
                .ticket_with(
                    &[AppPermission::new(ItsAid::CAM, Some(vec![1, 0xff, 0xfc]))],
                    fx.now.saturating_sub(Duration::from_secs(7200)),
                    Duration::from_secs(3600),
                    None,
                )
                .unwrap();
            let mut s = fx.sender(t);
            s.encap_policy_mut().insecure_sign_with_invalid_certificate = true;
            cam(&mut s, b"expired", at(0))
        };
        let foreign = {
            let other = InMemoryPki::builder().build().unwrap();
            let mut s = other.sender(other.ticket().unwrap());
            cam(&mut s, b"foreign", at(0))
        };
        Samples {
            setup: vec![a0.clone(), a1.clone(), expired.clone()],
            messages: vec![
                a0,
                a1,
                a2,
                b0,
                b1,
                denm,
                denm_without_location,
                encrypted,
                unsigned,
                expired,
                foreign,
            ],
            fx,
            receiver_ticket,
        }
    })
}

/// A receiver that has seen nothing, or one that accepted the setup messages (and
/// validated the expired ticket's chain before rejecting it).
fn receiver(s: &Samples, experienced: bool) -> SecurityEntity {
    let mut r = s.fx.receiver();
    let key = s
        .receiver_ticket
        .encryption_key
        .clone()
        .expect("tickets carry an encryption key");
    r.add_decryption_key(s.receiver_ticket.certificate.clone(), key);
    if experienced {
        for m in &s.setup {
            let _ = r.decap_at(m, s.fx.now.saturating_add(ms(150)));
        }
    }
    r
}

fn mutate(m: &[u8], flips: &[(usize, u8)]) -> Vec<u8> {
    let mut m = m.to_vec();
    for (pos, x) in flips {
        let n = m.len();
        m[pos % n] ^= x;
    }
    m
}

/// The step a rejection names (every SN-DECAP rejection names one).
fn step(r: &Rejection) -> DecapStep {
    r.step
        .unwrap_or_else(|| panic!("an SN-DECAP rejection without its step: {r}"))
}

fn check(r: &mut SecurityEntity, m: &[u8], now: TaiTime) -> Result<(), TestCaseError> {
    let wanted = r.pending_p2pcd_requests();
    let p = r.precheck(m, now);
    prop_assert_eq!(&p, &r.precheck(m, now), "the precheck answers the same twice");
    prop_assert_eq!(
        wanted,
        r.pending_p2pcd_requests(),
        "the precheck queued a P2PCD request"
    );
    let d = r.decap_at(m, now);
    match (&p.verdict, &d) {
        (Err(pre), Ok(_)) => prop_assert!(false, "precheck rejected what DECAP accepted: {}", pre),
        (Ok(()), Ok(_)) => {}
        (Ok(()), Err(dec)) => prop_assert!(
            step(dec) >= DecapStep::MessageSignature,
            "DECAP rejected before the signature ({:?}: {}) what the precheck passed",
            step(dec),
            dec
        ),
        (Err(pre), Err(dec)) if step(pre) < DecapStep::MessageSignature => {
            prop_assert_eq!((step(pre), pre.reason), (step(dec), dec.reason))
        }
        (Err(pre), Err(dec)) => {
            prop_assert_eq!(step(pre), DecapStep::CertificateValidity, "{}", pre);
            prop_assert!(
                (DecapStep::MessageSignature..=DecapStep::CertificateValidity).contains(&step(dec)),
                "precheck {}: DECAP named {:?} {}",
                pre,
                step(dec),
                dec
            );
            if step(dec) == DecapStep::CertificateValidity {
                prop_assert_eq!(pre.reason, dec.reason);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    #[test]
    fn the_precheck_agrees_with_decap(
        which in 0usize..11,
        experienced in any::<bool>(),
        mutated in any::<bool>(),
        flips in proptest::collection::vec((any::<usize>(), 1u8..=255), 1..3),
        offset_ms in prop_oneof![0i64..400, -3000i64..0, 1000i64..70_000],
    ) {
        let s = samples();
        let m = &s.messages[which];
        let m = if mutated { mutate(m, &flips) } else { m.clone() };
        let now = if offset_ms >= 0 {
            s.fx.now.saturating_add(ms(offset_ms as u64))
        } else {
            s.fx.now.saturating_sub(ms(offset_ms.unsigned_abs()))
        };
        let mut r = receiver(s, experienced);
        check(&mut r, &m, now)?;
        // The same message again: a replay now if it was accepted.
        check(&mut r, &m, now)?;
    }
}

/// The outcomes the property must cover really occur: acceptance, a rejection at each
/// precheck step the samples reach, the look-ahead, and a signature DECAP refuses after
/// the precheck passed.
#[test]
fn the_samples_reach_every_kind_of_outcome() {
    let s = samples();
    let now = s.fx.now.saturating_add(ms(150));
    let fresh = receiver(s, false);
    let known = receiver(s, true);
    let reason =
        |r: &SecurityEntity, i: usize, at: TaiTime| r.precheck(&s.messages[i], at).verdict.err().map(|e| e.reason);
    assert_eq!(reason(&fresh, 0, now), None, "a fresh certificate CAM passes");
    assert_eq!(reason(&fresh, 1, now), Some(RejectReason::SignerCertificateNotFound));
    assert_eq!(reason(&known, 1, now), Some(RejectReason::DuplicateMessage));
    assert_eq!(reason(&known, 2, now), None, "a digest CAM of a known signer passes");
    assert!(known.precheck(&s.messages[2], now).signer_known);
    assert_eq!(reason(&fresh, 6, now), Some(RejectReason::MissingHeaderField));
    assert_eq!(reason(&fresh, 8, now), Some(RejectReason::UnsignedMessage));
    assert_eq!(reason(&fresh, 9, now), Some(RejectReason::CertificateExpired));
    assert_eq!(
        reason(&fresh, 0, s.fx.now.saturating_add(ms(5000))),
        Some(RejectReason::StaleMessage)
    );
    assert_eq!(
        reason(&fresh, 10, now),
        None,
        "a foreign root is found by the chain, after the signature"
    );
    let p = fresh.precheck(&s.messages[4], now);
    assert_eq!(
        (p.verdict.unwrap_err().step, p.signer.is_some()),
        (Some(DecapStep::Signer), true),
        "an unknown digest is named"
    );
    let mut bad = s.messages[0].clone();
    let n = bad.len();
    bad[n - 3] ^= 1;
    let mut r = receiver(s, false);
    assert!(r.precheck(&bad, now).verdict.is_ok());
    let e = r.decap_at(&bad, now).unwrap_err();
    assert_eq!(
        (e.reason, e.step),
        (RejectReason::FalseSignature, Some(DecapStep::MessageSignature))
    );
    assert_eq!(e.after_signature_check(), Some(true));
    assert!(
        receiver(s, false).decap_at(&s.messages[7], now).is_ok(),
        "the encrypted sample decrypts"
    );
}
