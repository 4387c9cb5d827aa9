//! The multi-hop forwarding application (`[relay]`): delays of an idle chain against the
//! arithmetic of its parts, re-signing, duplicates, queueing, and scenario errors.

use v2x_sim::scenario::MobilityConfig;
use v2x_sim::{RunMetrics, Scenario};

const CHAIN: &str = include_str!("../../../scenarios/papers/003-relay-chain.toml");

/// The shipped chain, shortened to `hops` hops and `messages` messages.
fn chain(hops: u32, messages: u32) -> Scenario {
    let mut s = Scenario::parse(CHAIN, "003-relay-chain.toml").unwrap();
    s.mobility = MobilityConfig::Static {
        positions_m: (0..=hops).map(|i| [f64::from(i) * 250.0, 0.0]).collect(),
    };
    s.relay.max_hops = hops;
    s.relay.messages = messages;
    s.duration_s = s.relay.start_s + f64::from(messages) * s.relay.interval_s + 1.0;
    s.validate().unwrap();
    s
}

fn run(s: &Scenario) -> RunMetrics {
    v2x_sim::run(s, &v2x_report::Silent).unwrap().variants[0].pooled.clone()
}

/// Air time of the chain's frame (2088 B message + 38 B MAC framing at 12 Mbit/s), ms.
fn air_ms() -> f64 {
    v2x_sim::phy::airtime_ns(1024 + 1064 + 38, 12.0) as f64 / 1e6
}

const SIGN_MS: f64 = 11.88676;
const VERIFY_MS: f64 = 8.096;

#[test]
fn idle_chain_delay_is_signing_plus_air_time_and_verification_per_hop() {
    let m = run(&chain(5, 4));
    let r = &m.relay;
    assert_eq!(r.generated, 4);
    assert_eq!(r.hops.len(), 5, "max_hops ends the chain");
    assert_eq!(r.lost_deadline, 0);
    for (i, h) in r.hops.iter().enumerate() {
        let k = (i + 1) as f64;
        assert_eq!(h.e2e.count, 4, "hop {k}: every message verified");
        // 802.11 sends at once on a medium idle for AIFS: the verification (8 ms) is longer,
        // so no access delay at all; no propagation delay in delivery.
        let want = SIGN_MS + k * (air_ms() + VERIFY_MS);
        assert!(
            (h.e2e.mean_ms() - want).abs() < 1e-3,
            "hop {k}: {} vs {want}",
            h.e2e.mean_ms()
        );
        let last = if i == 0 { SIGN_MS } else { 0.0 } + air_ms() + VERIFY_MS;
        assert!(
            (h.per_hop.mean_ms() - last).abs() < 1e-3,
            "hop {k}: {}",
            h.per_hop.mean_ms()
        );
        assert!(
            (h.at_receiver.mean_ms() - VERIFY_MS).abs() < 1e-3,
            "no queue on an idle chain"
        );
    }
    // Every relay hears its successor's forward once more and ignores it (the last does not
    // forward): 4 messages x 4 relays.
    assert_eq!(r.duplicates, 4 * 4);
}

#[test]
fn relays_that_resign_add_a_signature_per_hop() {
    let mut s = chain(3, 2);
    s.relay.resign_at_relays = true;
    let r = run(&s).relay;
    for (i, h) in r.hops.iter().enumerate() {
        let k = (i + 1) as f64;
        let want = k * (SIGN_MS + air_ms() + VERIFY_MS);
        assert!(
            (h.e2e.mean_ms() - want).abs() < 1e-3,
            "hop {k}: {} vs {want}",
            h.e2e.mean_ms()
        );
    }
}

#[test]
fn messages_faster_than_verification_queue_at_the_relays() {
    // A message every 5 ms against 8.1 ms of verification (signing cut to 1 ms so that the
    // source keeps up): the relays' queues grow, so the later messages wait and the mean
    // delay exceeds the idle chain's.
    let mut s = chain(3, 20);
    s.relay.interval_s = 0.005;
    s.variants[0].sign_cost_us = 1000.0;
    s.duration_s = 3.0;
    let r = run(&s).relay;
    // Overlapping messages also collide (the source and the relay two hops on are hidden
    // from each other), so not every message gets through.
    let h = &r.hops[2];
    assert!(h.e2e.count > 5, "{}", h.e2e.count);
    let idle = 1.0 + 3.0 * (air_ms() + VERIFY_MS);
    assert!(h.e2e.mean_ms() > idle + 5.0, "{} vs {idle}", h.e2e.mean_ms());
    // The wait is in the first relay's verification queue (it then forwards one message per
    // verification, 8.1 ms apart, which the next relays keep up with).
    let first = &r.hops[0].at_receiver;
    assert!(first.mean_ms() > VERIFY_MS + 5.0, "{}", first.mean_ms());
    assert!(first.max_ns as f64 / 1e6 > 2.0 * VERIFY_MS);
}

#[test]
fn a_deadline_shorter_than_the_queue_loses_relayed_messages() {
    let mut s = chain(2, 20);
    s.relay.interval_s = 0.005;
    s.variants[0].sign_cost_us = 1000.0;
    s.duration_s = 3.0;
    s.variants[0].deadline_ms = Some(30.0);
    let r = run(&s).relay;
    assert!(r.lost_deadline > 0);
    assert!(r.hops[0].e2e.count < 20);
}

#[test]
fn relay_scenario_errors_name_the_field_and_the_valid_names() {
    let bad_key = CHAIN.replace("max_hops = 10", "hop_limit = 10");
    let e = Scenario::parse(&bad_key, "x.toml").unwrap_err().to_string();
    assert!(
        e.contains("hop_limit") && e.contains("max_hops") && e.contains("resign_at_relays"),
        "{e}"
    );
    let bad_ac = CHAIN.replace("\"best-effort\"", "\"urgent\"");
    let e = Scenario::parse(&bad_ac, "x.toml").unwrap_err().to_string();
    assert!(
        e.contains("urgent") && e.contains("voice") && e.contains("best-effort"),
        "{e}"
    );
    let bad_source = CHAIN.replace("source = 0", "source = 11");
    let e = Scenario::parse(&bad_source, "x.toml").unwrap_err().to_string();
    assert!(e.contains("relay.source") && e.contains("11 nodes"), "{e}");
    let tesla = CHAIN.replace("protocol = \"raw\"", "protocol = \"tesla\"");
    let e = Scenario::parse(&tesla, "x.toml").unwrap_err().to_string();
    assert!(e.contains("variant[0].protocol") && e.contains("ieee1609.2"), "{e}");
    let real = CHAIN.replace("protocol = \"raw\"", "protocol = \"raw\"\nmode = \"real-crypto\"");
    let e = Scenario::parse(&real, "x.toml").unwrap_err().to_string();
    assert!(e.contains("variant[0].mode") && e.contains("cost-model"), "{e}");
    let zero = CHAIN.replace("max_hops = 10", "max_hops = 0");
    let e = Scenario::parse(&zero, "x.toml").unwrap_err().to_string();
    assert!(e.contains("relay.max_hops"), "{e}");
}

#[test]
fn without_relay_no_relay_statistics() {
    let mut s = chain(2, 1);
    s.relay.enabled = false;
    let m = run(&s);
    assert_eq!(m.relay, Default::default());
}
