//! NR-V2X Mode 2 end to end (`[access] kind = "nr-v2x-mode2"`).

use v2x_sim::scenario::AccessKind;
use v2x_sim::Scenario;

mod common;
use common::{ring, run, stats};

/// A small NR scenario end to end (200 vehicles on a 2 km ring of 4 lanes, 1 s measured):
/// every attempt has a cause, each cause occurs, the re-evaluation runs, and any thread
/// count gives the same results.
#[test]
fn nr_mode2_runs_end_to_end_with_its_loss_causes() {
    let s = ring(
        "nr-v2x-mode2",
        "[sidelink.nr]\nnumerology = 1\nbandwidth_mhz = 10\nsubchannel_size_prb = 12\nmcs = 16",
    );
    assert_eq!(s.access.kind, AccessKind::NrV2xMode2);
    let one = run(&s, 1);
    let st = stats(&one);
    let lost = |f: fn(&v2x_sim::sidelink::LossBin) -> u64| st.losses.iter().map(f).sum::<u64>();
    let attempts: u64 = one.bins.iter().map(|b| b.attempts).sum();
    let received: u64 = one.bins.iter().map(|b| b.received).sum();
    let causes = [
        ("half duplex", lost(|b| b.half_duplex)),
        ("sensing", lost(|b| b.sensing)),
        ("propagation", lost(|b| b.propagation)),
        ("collision", lost(|b| b.collision)),
    ];
    assert_eq!(
        received + causes.iter().map(|c| c.1).sum::<u64>(),
        attempts,
        "every attempt has a cause"
    );
    for (cause, n) in causes {
        assert!(n > 0, "no {cause} loss");
    }
    assert!(one.receptions > 10_000, "{}", one.receptions);
    // 10 MHz at 30 kHz: 24 PRBs, two 12-PRB sub-channels; a CAM takes one. MCS 16 (TBS
    // 3368 on 1284 REs) needs 8.7 dB for 50 % BLER with the default 1.5 dB loss where a
    // detected packet (-90.5 dBm) has 7.5 dB over the noise of its 12 PRBs (-98 dBm):
    // some are lost without interference (propagation).
    assert_eq!(st.subchannels_used, st.transmissions);
    assert!(st.reevaluations > 0, "re-evaluation before each new reservation");
    assert!(st.reevaluation_moves <= st.reevaluations);
    // Close pairs receive nearly everything, far ones less.
    let pdr = |lo: usize, hi: usize| {
        let (a, r) = one.bins[lo..hi]
            .iter()
            .fold((0, 0), |(a, r), b| (a + b.attempts, r + b.received));
        r as f64 / a as f64
    };
    assert!(
        pdr(0, 10) > 0.85 && pdr(40, 50) < pdr(0, 10),
        "{} {}",
        pdr(0, 10),
        pdr(40, 50)
    );
    assert_eq!(run(&s, 2), one);
    assert_eq!(run(&s, 3), one);
}

/// The keys of the other sidelink are refused rather than ignored.
#[test]
fn lte_keys_are_refused_on_nr_and_nr_keys_on_lte() {
    let e = Scenario::parse(
        "[access]\nkind = \"nr-v2x-mode2\"\n[sidelink]\nbandwidth_mhz = 20\n",
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("sidelink.bandwidth_mhz") && e.contains("sidelink.nr"), "{e}");
    let e = Scenario::parse(
        "[access]\nkind = \"lte-v2x-mode4\"\n[sidelink.nr]\nnumerology = 2\n",
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("sidelink.nr"), "{e}");
    let e = Scenario::parse(
        "[access]\nkind = \"nr-v2x-mode2\"\n[sidelink.nr]\nnumerology = 3\n",
        "x",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("sidelink.nr.numerology"), "{e}");
    let mut s = ring("nr-v2x-mode2", "");
    s.query.enabled = true;
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("not simulated on the NR-V2X sidelink"), "{e}");
}

/// The run advances in the numerology's slots: 4 stations that never move are monitored
/// (on every sub-channel, in every slot they do not send in) for 2^µ x 1000 slots per
/// second after the warm-up, on the sub-channels 10 MHz has at that spacing.
#[test]
fn the_run_advances_in_slots_of_the_numerology() {
    for (mu, subchannels) in [(0u64, 5u64), (1, 2), (2, 1)] {
        let mut s = Scenario::parse(
            &format!(
                "duration_s = 1.5\nwarmup_s = 0.5\n[access]\nkind = \"nr-v2x-mode2\"\n\
                 [sidelink.nr]\nnumerology = {mu}\nbandwidth_mhz = 10\n\
                 [radio.path_loss]\nmodel = \"winner-b1\"\n[radio.fading]\nmodel = \"none\"\n"
            ),
            "slots",
        )
        .unwrap();
        s.mobility = v2x_sim::scenario::MobilityConfig::Static {
            positions_m: (0..4).map(|i| [i as f64 * 10.0, 0.0]).collect(),
        };
        s.validate().unwrap();
        let m = run(&s, 1);
        let st = stats(&m);
        let slots = 1000 << mu;
        // Transmissions counted are those of CAMs generated after the warm-up; at most one
        // per station was generated before it and sent after.
        let lo = (4 * slots - st.transmissions - 4) * subchannels;
        let hi = (4 * slots - st.transmissions + 4) * subchannels;
        assert!(
            (lo..=hi).contains(&st.cbr_monitored),
            "µ = {mu}: {} not in {lo}..={hi}",
            st.cbr_monitored
        );
        assert!(
            st.transmissions >= 36 && st.transmissions <= 44,
            "µ = {mu}: {}",
            st.transmissions
        );
        // The CBR's station time is 4 stations x 1 s, less the slots they sent in.
        let slot_s = 1e-3 / (1u64 << mu) as f64;
        let expected = 4.0 - st.transmissions as f64 * slot_s;
        assert!(
            (m.presence_ns / 1e9 - expected).abs() <= 4.0 * slot_s + 1e-9,
            "µ = {mu}: {} against {expected}",
            m.presence_ns / 1e9
        );
    }
}
