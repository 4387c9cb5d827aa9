//! LTE-V2X Mode 4 runs end to end (`[access] kind = "lte-v2x-mode4"`): half duplex, the
//! security sizes in the reservations, the reservation policies, and the seed.

use v2x_sim::scenario::{AccessKind, FadingConfig, MobilityConfig, PathLossConfig, ReservationPolicy};
use v2x_sim::sidelink::SidelinkStats;
use v2x_sim::Scenario;

mod common;
use common::{ring, stats};

/// `n` stations within 19 m of each other: nothing is lost to distance, so every loss is
/// half duplex, a collision or the BLER curve's floor.
fn cluster(n: usize, duration_s: f64) -> Scenario {
    let mut s = Scenario::parse(
        r#"
        duration_s = 2.0
        warmup_s = 1.0
        [access]
        kind = "lte-v2x-mode4"
        [radio]
        tx_power_dbm = 23.0
        frequency_hz = 5.91e9
        noise_figure_db = 9.0
        [radio.path_loss]
        model = "winner-b1"
        [radio.fading]
        model = "none"
        [sidelink]
        shadowing_sd_db = 0.0
        [metrics]
        distance_bin_m = 10.0
        max_distance_m = 100.0
        "#,
        "cluster",
    )
    .unwrap();
    s.duration_s = duration_s;
    s.mobility = MobilityConfig::Static {
        positions_m: (0..n).map(|i| [i as f64, 0.0]).collect(),
    };
    assert_eq!(s.access.kind, AccessKind::LteV2xMode4);
    assert_eq!(s.radio.fading, FadingConfig::None);
    assert!(matches!(s.radio.path_loss, PathLossConfig::WinnerB1 { .. }));
    s.validate().unwrap();
    s
}

/// A station sending in a subframe hears nothing in it: with one CAM per 100 ms each
/// receiver is sending in 1 % of the subframes its neighbours send in (eq. (7) of the
/// analytical model: lambda / 1000), and nothing is lost to sensing or propagation.
#[test]
fn half_duplex_loses_one_packet_in_a_hundred() {
    let r = v2x_sim::run(&cluster(20, 21.0), &v2x_report::Silent).unwrap();
    let m = &r.variants[0].pooled;
    let s = stats(m);
    let attempts: u64 = m.bins.iter().map(|b| b.attempts).sum();
    let received: u64 = m.bins.iter().map(|b| b.received).sum();
    let hd: u64 = s.losses.iter().map(|b| b.half_duplex).sum();
    let col: u64 = s.losses.iter().map(|b| b.collision).sum();
    let pro: u64 = s.losses.iter().map(|b| b.propagation).sum();
    assert_eq!(s.losses.iter().map(|b| b.sensing).sum::<u64>(), 0);
    assert_eq!(received + hd + pro + col, attempts, "every attempt accounted for");
    // Only the curve's floor (BLER 1e-4 above 20 dB) at an SNR of 50 dB.
    assert!((pro as f64) < 3e-4 * attempts as f64, "{pro}");
    // 20 x 10 x 20 s x 19 receivers = 76,000 attempts; 1 % +- 4.6 sigma.
    assert!(attempts > 70_000, "{attempts}");
    let share = hd as f64 / attempts as f64;
    assert!((share - 0.01).abs() < 0.0017, "half-duplex share {share}");
    // 20 stations on 400 resources per 100 ms, sensing each other: few collisions.
    assert!((col as f64) < 0.01 * attempts as f64, "{col}");
    assert!(s.cbr() > 0.0 && s.cbr() < 0.2, "{}", s.cbr());
    // The CBR's denominator: 20 stations (none moving) on 4 sub-channels for the 20 s after
    // the warm-up, less the sub-channels of the subframes each one sent in.
    assert!(
        s.cbr_monitored <= 20 * 4 * 20_000 && s.cbr_monitored > 20 * 4 * 19_000,
        "{}",
        s.cbr_monitored
    );
}

#[test]
fn same_seed_same_results() {
    let s = cluster(10, 3.0);
    let a = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
    let b = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
    let (mut x, mut y) = (a.variants[0].pooled.clone(), b.variants[0].pooled.clone());
    x.wall_s = 0.0;
    y.wall_s = 0.0;
    assert_eq!(x, y);
}

/// The transmissions of a subframe shared among 1, 2 or 3 threads: identical results for
/// the seed, on a ring highway long enough for every cause of loss, with shadowing and
/// Nakagami fading (each of its three shapes) in the received power.
#[test]
fn any_thread_count_gives_the_same_results() {
    let s = ring("lte-v2x-mode4", "");
    let run = |threads: u32| common::run(&s, threads);
    let one = run(1);
    let lost = |f: fn(&v2x_sim::sidelink::LossBin) -> u64| stats(&one).losses.iter().map(f).sum::<u64>();
    assert!(one.receptions > 10_000, "{}", one.receptions);
    for (cause, n) in [
        ("half duplex", lost(|b| b.half_duplex)),
        ("sensing", lost(|b| b.sensing)),
        ("propagation", lost(|b| b.propagation)),
        ("collision", lost(|b| b.collision)),
    ] {
        assert!(n > 0, "no {cause} loss");
    }
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);
}

/// 1609.2 sizes (100 B payload: 193 B with a digest, 280 B with the certificate every 5th)
/// against a 1-sub-channel reservation (193 B at MCS 9 on 10 PRBs): each policy's trace in
/// the scheduler's counters.
#[test]
fn certificate_sizes_drive_the_reservations() {
    let run = |policy: ReservationPolicy| {
        let mut s = cluster(10, 6.0);
        s.cam.payload_bytes = 100;
        s.warmup_s = 0.1;
        s.sidelink.reservation_policy = policy;
        s.variants = vec![toml::from_str(
            "name = \"1609\"\nprotocol = \"ieee1609.2\"\nsign_cost_us = 1.0\nverify_cost_us = 1.0",
        )
        .unwrap()];
        let r = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
        r.variants[0].pooled.clone()
    };
    let standard = run(ReservationPolicy::ReselectOnSizeChange);
    let s = stats(&standard);
    assert!(s.selections_size > 0, "a certificate does not fit a digest reservation");
    assert_eq!(s.one_shots, 0);
    let largest = run(ReservationPolicy::ReserveLargest);
    let l = stats(&largest);
    assert_eq!(l.selections_size, 0);
    assert_eq!(
        l.subchannels_used,
        2 * l.transmissions,
        "every reservation sized for 280 B"
    );
    let one_shot = run(ReservationPolicy::OneShotOversize);
    let o = stats(&one_shot);
    assert_eq!(o.selections_size, 0);
    assert!(o.one_shots > 0);
    // A fifth of the CAMs carry the certificate (counted after the warm-up).
    let share = o.one_shots as f64 / one_shot.cams_generated as f64;
    assert!((share - 0.2).abs() < 0.03, "{share}");
    let mean = |s: &SidelinkStats| s.subchannels_used as f64 / s.transmissions as f64;
    // The largest message of a variant that never sends its certificate is the digest's.
    let mut never = cluster(10, 3.0);
    never.cam.payload_bytes = 100;
    never.sidelink.reservation_policy = ReservationPolicy::ReserveLargest;
    never.variants = vec![toml::from_str("name = \"digest\"\nprotocol = \"ieee1609.2\"\nsign_cost_us = 1.0\nverify_cost_us = 1.0\ncertificate = { policy = \"never\" }").unwrap()];
    let r = v2x_sim::run(&never, &v2x_report::Silent).unwrap();
    let d = stats(&r.variants[0].pooled);
    assert_eq!(d.subchannels_used, d.transmissions, "193 B fit one sub-channel");
    assert!(
        mean(o) < mean(s) && mean(s) <= mean(l),
        "{} {} {}",
        mean(o),
        mean(s),
        mean(l)
    );
}

#[test]
fn what_the_sidelink_does_not_simulate_is_refused() {
    let mut s = cluster(4, 2.0);
    s.query.enabled = true;
    let e = s.validate().unwrap_err().to_string();
    assert!(
        e.contains("query.enabled") && e.contains("not simulated on the LTE-V2X sidelink"),
        "{e}"
    );
    let e = Scenario::parse("[access]\nkind = \"nr-v2x-mode1\"\n", "x")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("its-g5") && e.contains("lte-v2x-mode4") && e.contains("nr-v2x-mode2"),
        "{e}"
    );
}

/// P2PCD on the sidelink, on the ring (stations keep meeting new ones): certificates only on
/// request keep the CAMs lost to an unknown signer a small share and send far fewer
/// certificates than the ETSI rule (once a second and after a new station) or the adaptive
/// one (new station and requests), which lose fewer still. Without P2PCD (`interval`
/// alone) nothing is asked.
#[test]
fn p2pcd_on_the_sidelink_answers_the_stations_that_ask() {
    let variant = |name: &str, rule: &str| {
        format!(
            "[[variant]]\nname = \"{name}\"\nprotocol = \"ieee1609.2\"\nsign_cost_us = 1.0\nverify_cost_us = 1.0\n\
             overhead_bytes = 93\noverhead_with_certificate_bytes = 180\n{rule}\n"
        )
    };
    let s = ring(
        "lte-v2x-mode4",
        &[
            variant("once", "certificate = { policy = \"interval\", interval_s = 1.0 }"),
            variant("asked", "certificate = { policy = \"on-request\" }\np2pcd = true"),
            variant(
                "etsi",
                "certificate = { policy = \"interval\", interval_s = 1.0 }\ncertificate_on_new_station = true",
            ),
            variant(
                "adaptive",
                "certificate = { policy = \"on-request\" }\np2pcd = true\ncertificate_on_new_station = true",
            ),
        ]
        .concat(),
    );
    let r = v2x_sim::run(&s, &v2x_report::Silent).unwrap();
    let get = |name: &str| r.variants.iter().find(|v| v.name == name).unwrap().pooled.clone();
    let (once, asked, adaptive, etsi) = (get("once"), get("asked"), get("adaptive"), get("etsi"));
    assert_eq!(once.p2pcd_requests_sent, 0);
    assert!(once.security_arrivals > 10_000, "{}", once.security_arrivals);
    assert!(once.certificates_sent > 0);
    assert!(asked.p2pcd_requests_sent > 100, "{}", asked.p2pcd_requests_sent);
    assert!(asked.certificates_received > 0 && asked.security_arrivals > 10_000);
    // Every request is answered by a certificate the asker can use: losses stay a small share.
    let lost = |m: &v2x_sim::RunMetrics| m.crypto_lost_unknown_certificate as f64 / m.security_arrivals as f64;
    assert!(lost(&asked) < 0.05, "{}", lost(&asked));
    assert!(
        lost(&adaptive) <= lost(&asked),
        "{} vs {}",
        lost(&adaptive),
        lost(&asked)
    );
    assert!(lost(&etsi) <= lost(&asked), "{} vs {}", lost(&etsi), lost(&asked));
    assert!(
        2 * asked.certificates_sent < etsi.certificates_sent,
        "{} vs {}",
        asked.certificates_sent,
        etsi.certificates_sent
    );
    assert!(2 * asked.certificates_sent < adaptive.certificates_sent);
}
