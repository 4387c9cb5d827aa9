//! Issue 33's closed loop, end to end on loopback: insiders with valid tickets lie in real
//! CAMs, the receivers' detectors flag them, TS 103 759 reports reach the misbehaviour
//! authority, which revokes through the PKI's CRL; every receiver installs the CRL and then
//! drops the insider's CAMs as `revoked-certificate`, while no benign sender is revoked.
//! Short runs of the example scenario (`scenarios/testbed/misbehaviour-closed-loop.toml`).

use v2x_testbed::analyse::misbehaviour::{analyse, ClosedLoop};
use v2x_testbed::scenario::Scenario;

fn closed_loop(attack: &str, runs: u32) -> ClosedLoop {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/testbed/misbehaviour-closed-loop.toml"
    );
    let mut sc = Scenario::load(std::path::Path::new(path)).unwrap();
    let m = sc.misbehaviour.as_mut().unwrap();
    m.attack = attack.into();
    m.runs = runs;
    m.duration_s = 4.0;
    m.start_s = 1.0;
    sc.check().unwrap();
    let m = sc.misbehaviour.clone().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let records = v2x_testbed::run::misbehaviour::run(&sc, &m, dir.path(), None).unwrap();
    analyse(&m, (sc.receivers, sc.senders, sc.rate_hz), &records)
}

fn assert_closed(c: &ClosedLoop) {
    let pairs = c.attackers * c.runs * c.receivers;
    assert_eq!(c.attackers_lying, c.attackers * c.runs, "every insider lied: {c:#?}");
    assert_eq!(
        c.attackers_revoked,
        c.attackers * c.runs,
        "every insider revoked: {c:#?}"
    );
    assert_eq!(
        c.drops_by_revocation, pairs,
        "every receiver drops every insider: {c:#?}"
    );
    assert_eq!(c.accepted_after_revocation, 0);
    assert_eq!(c.benign_revoked, 0, "no benign sender revoked");
    for t in &c.timelines {
        assert_eq!(t.drop_reason.as_deref(), Some("revoked-certificate"));
        let [detect, _, decide, crl, drop, e2e, to_crl] = t.steps_ms;
        let (detect, decide, crl, drop, e2e) = (
            detect.unwrap(),
            decide.unwrap(),
            crl.unwrap(),
            drop.unwrap(),
            e2e.unwrap(),
        );
        assert!(detect >= 0.0 && decide >= 0.0 && crl >= 0.0 && drop >= 0.0, "{t:?}");
        // The steps happen in order: this receiver detected before it dropped, and the end
        // to end covers the decision, the CRL's way and the drop.
        assert!(e2e >= detect && e2e >= decide + crl + drop, "{t:?}");
        assert!(
            to_crl.unwrap() + drop == e2e || (to_crl.unwrap() + drop - e2e).abs() < 1e-6,
            "{t:?}"
        );
    }
    for s in &c.steps {
        assert!(
            s.samples > 0 && s.median_ms.is_some() && s.p95_ms >= s.median_ms,
            "{s:?}"
        );
    }
}

#[test]
fn an_insider_is_reported_revoked_and_then_dropped_by_every_receiver() {
    let c = closed_loop("constantPositionOffset", 2);
    assert_closed(&c);
    assert!(
        c.steps.iter().all(|s| s.median_ci_ms.is_some()),
        "two runs give intervals"
    );
    let text = v2x_testbed::analyse::misbehaviour::table(&c);
    assert!(
        text.contains("first lie -> detection") && text.contains("false reports"),
        "{text}"
    );
}

#[test]
fn a_random_position_and_a_replay_close_the_loop_too() {
    for attack in ["RandomPos", "dataReplay"] {
        let c = closed_loop(attack, 1);
        assert_closed(&c);
    }
}
