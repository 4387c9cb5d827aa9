//! Paper 003's closed form against the simulated relay chain: on an idle chain the two
//! differ by terms computed here from first principles (the frame's air time over
//! bytes * 8 / rate, the propagation the simulator does not add, the rest of AIFS a fast
//! relay waits), and both grow linearly with the hops.

use v2x_model::relay::{compare, reproduce_setups, ChainComparison};

fn run(label: &str) -> ChainComparison {
    let (setup, on_paper_costs) = reproduce_setups(true)
        .into_iter()
        .find(|(s, _)| s.label == label)
        .unwrap();
    let set = if on_paper_costs {
        v2x_model::Paper003::load().unwrap().inputs
    } else {
        v2x_model::today::reference_costs().unwrap()
    };
    compare(&set, &setup).unwrap()
}

/// 802.11p at 10 MHz: 40 µs preamble and SIGNAL, 16 service + 6 tail bits, 8 µs symbols
/// of 24 data bits per 3 Mbit/s of rate (written out, not taken from the simulator).
fn air_ms(bytes: u64, rate_mbps: f64) -> f64 {
    let bits_per_symbol = (rate_mbps / 3.0 * 24.0) as u64;
    let symbols = (22 + 8 * bytes).div_ceil(bits_per_symbol);
    (40.0 + 8.0 * symbols as f64) / 1e3
}

fn check_idle_chain(c: &ChainComparison, aifs_ms: f64) {
    let t = &c.terms;
    let rate = c.setup.rate_mbps;
    assert_eq!(t.bytes, 1024 + (t.bytes - 1024), "message + signature + certificate");
    let air = air_ms(t.bytes + 38, rate);
    assert!((t.air_time_ms - air).abs() < 1e-9, "{} vs {air}", t.air_time_ms);
    let tx = t.bytes as f64 * 8.0 / (rate * 1e3);
    let prop = 250.0 / 3e8 * 1e3;
    let wait = (aifs_ms - t.verify_ms).max(0.0);
    for r in &c.rows {
        let k = f64::from(r.hops);
        assert_eq!(r.verified, r.generated, "hop {k}: an idle chain loses nothing");
        // The paper's closed form, recomputed by hand.
        let closed = t.sign_ms + k * (tx + prop + t.verify_ms);
        assert!((r.closed_form_ms - closed).abs() < 1e-9);
        // The derived difference: air time beyond bytes * 8 / rate, no propagation delay,
        // the rest of AIFS at every relay; tolerance: ns rounding of each service and air
        // time (below 1 µs per hop).
        let expected = k * (air - tx - prop) + (k - 1.0) * wait;
        let tolerance = k * 1e-3;
        assert!(
            (r.difference_ms - expected).abs() <= tolerance,
            "hop {k}: simulated {} closed {} difference {} expected {expected}",
            r.simulated_ms,
            r.closed_form_ms,
            r.difference_ms
        );
        assert!(r.queueing_part_ms.abs() <= tolerance && r.access_part_ms.abs() <= tolerance);
    }
    // Linear in the hop count, with the slope of its per-hop terms.
    let (slope, _, worst) = c.fit;
    assert!((slope - (air + t.verify_ms + wait)).abs() < 1e-3, "slope {slope}");
    assert!(worst < 1e-3 + wait, "largest distance from the line {worst}");
}

#[test]
fn idle_chain_with_the_papers_costs_matches_the_closed_form_within_the_derived_terms() {
    let c = run("paper DSA idle");
    assert_eq!((c.terms.sign_ms, c.terms.verify_ms), (11.88676, 8.096));
    assert_eq!(
        c.terms.bytes, 2088,
        "M1 1024 + DSA signature 40 + certificate 1024 (Table 2)"
    );
    // Verification (8 ms) is far longer than AIFS: no access delay at all.
    check_idle_chain(&c, 0.110);
    // Within 1 % of the closed form at every hop count: the model holds.
    for r in &c.rows {
        assert!(r.difference_ms / r.closed_form_ms < 0.01, "{r:?}");
    }
}

#[test]
fn idle_chain_with_todays_costs_waits_out_aifs_at_every_relay() {
    let c = run("today ECDSA-P256 idle");
    // A P-256 verification (~60 µs) ends before the medium has been idle for AIFS of
    // AC_BE (32 + 6 x 13 = 110 µs): every relay but the source waits the rest.
    assert!(c.terms.verify_ms < 0.110);
    check_idle_chain(&c, 0.110);
    assert!(c.rows[1].aifs_part_ms > 0.0 && c.rows[0].aifs_part_ms == 0.0);
    let last = c.rows.last().unwrap();
    assert!(last.reason.contains("AIFS"), "{}", last.reason);
}
