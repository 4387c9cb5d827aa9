//! Certificate distribution on 802.11p: peer-to-peer certificate distribution (`p2pcd`),
//! certificates sent only when due (`policy = "never"`), and the redundancy count — a
//! certificate copy received by a station that already held it.

use v2x_sim::scenario::MobilityConfig;
use v2x_sim::{RunMetrics, Scenario};

/// 12 static stations within 22 m (nothing lost to distance), one IEEE 1609.2 variant with
/// fixed sizes and costs, its certificate rule in `rule` (TOML keys of the variant).
fn cluster(rule: &str) -> Scenario {
    let mut s = Scenario::parse(
        &format!(
            "duration_s = 3.0\nwarmup_s = 1.0\n[radio]\ntx_power_dbm = 23.0\n[radio.fading]\nmodel = \"none\"\n\
             [metrics]\ndistance_bin_m = 10.0\nmax_distance_m = 100.0\n\
             [[variant]]\nname = \"dot2\"\nprotocol = \"ieee1609.2\"\nsign_cost_us = 250.0\nverify_cost_us = 30.0\n\
             overhead_bytes = 93\noverhead_with_certificate_bytes = 180\n{rule}\n"
        ),
        "certificate-cluster",
    )
    .unwrap();
    s.mobility = MobilityConfig::Static {
        positions_m: (0..12).map(|i| [2.0 * i as f64, 0.0]).collect(),
    };
    s.validate().unwrap();
    s
}

fn run(s: &Scenario) -> RunMetrics {
    let r = v2x_sim::run_with(s, &v2x_report::Silent, None, None).unwrap();
    r.variants[0].pooled.clone()
}

#[test]
fn without_certificates_or_p2pcd_no_message_verifies() {
    let m = run(&cluster("certificate = { policy = \"never\" }"));
    assert!(m.security_arrivals > 500, "{}", m.security_arrivals);
    assert_eq!(m.crypto_lost_unknown_certificate, m.security_arrivals);
    assert_eq!((m.certificates_received, m.p2pcd_requests_sent), (0, 0));
}

#[test]
fn on_request_sends_each_first_certificate_and_then_nothing_in_a_static_cluster() {
    let m = run(&cluster("certificate = { policy = \"on-request\" }\np2pcd = true"));
    // Every station's first CAM (with its certificate) reached all the others during the
    // warm-up: from then on every digest-signed CAM verifies, no certificate or request goes out.
    assert!(m.security_arrivals > 500, "{}", m.security_arrivals);
    assert_eq!(m.crypto_lost_unknown_certificate, 0);
    assert_eq!(m.certificates_received, 0);
    assert_eq!(m.p2pcd_requests_sent, 0);
    assert_eq!(m.headline_verified, m.headline_received);
}

/// A highway (both directions, so stations keep meeting new ones) with `rule`.
fn highway(rule: &str) -> RunMetrics {
    let s = Scenario::parse(
        &format!(
            "duration_s = 6.0\nwarmup_s = 1.0\nseed = 3\n[mobility]\nkind = \"highway\"\nlength_m = 3000.0\n\
             density_veh_per_km_lane = 6.0\n[metrics]\ndistance_bin_m = 50.0\nmax_distance_m = 500.0\n\
             [[variant]]\nname = \"dot2\"\nprotocol = \"ieee1609.2\"\nsign_cost_us = 250.0\nverify_cost_us = 30.0\n\
             overhead_bytes = 93\noverhead_with_certificate_bytes = 180\n{rule}\n"
        ),
        "certificate-highway",
    )
    .unwrap();
    s.validate().unwrap();
    run(&s)
}

#[test]
fn p2pcd_answers_stations_that_missed_a_certificate() {
    let once = highway("certificate = { policy = \"interval\", interval_s = 1.0 }");
    let asked = highway("certificate = { policy = \"on-request\" }\np2pcd = true");
    let unasked = highway("certificate = { policy = \"on-request\" }\ncertificate_on_new_station = true");
    // Requests go out and are answered with certificates.
    assert!(asked.p2pcd_requests_sent > 1000, "{}", asked.p2pcd_requests_sent);
    assert!(asked.certificates_received > 1000, "{}", asked.certificates_received);
    assert_eq!((once.p2pcd_requests_sent, unasked.p2pcd_requests_sent), (0, 0));
    // Answering on request loses fewer CAMs to unknown certificates than a certificate once a
    // second, and far fewer than never answering: a station met after its first CAM stays
    // unknown there (no certificate ever reaches a newcomer, so no one is "heard new").
    assert!(
        asked.crypto_lost_unknown_certificate * 4 < once.crypto_lost_unknown_certificate * 3,
        "{} vs {}",
        asked.crypto_lost_unknown_certificate,
        once.crypto_lost_unknown_certificate
    );
    assert_eq!(unasked.certificates_received, 0);
    assert!(unasked.crypto_lost_unknown_certificate > once.crypto_lost_unknown_certificate);
    // Most certificate copies reach stations that hold them already (NDSS 2024's redundancy).
    assert!(once.certificate_redundancy() > 0.8, "{}", once.certificate_redundancy());
    assert!(
        asked.certificate_redundancy() > 0.8,
        "{}",
        asked.certificate_redundancy()
    );
}

#[test]
fn once_a_second_every_certificate_after_the_first_is_redundant_in_a_static_cluster() {
    let m = run(&cluster("certificate = { policy = \"interval\", interval_s = 1.0 }"));
    // Each station sends two certificates in the counted 2 s; all 11 neighbours hold it.
    assert!(m.certificates_received >= 12 * 11, "{}", m.certificates_received);
    assert_eq!(m.certificates_redundant, m.certificates_received);
    assert_eq!(m.certificate_redundancy(), 1.0);
    assert_eq!(m.crypto_lost_unknown_certificate, 0);
}

#[test]
fn p2pcd_is_refused_where_it_cannot_work() {
    let real = Scenario::parse(
        "duration_s = 2.0\n[[variant]]\nname = \"r\"\nprotocol = \"ieee1609.2\"\nmode = \"real-crypto\"\np2pcd = true\n",
        "p2pcd-real",
    )
    .and_then(|s| s.validate().map(|_| s));
    let e = real.unwrap_err().to_string();
    assert!(e.contains("p2pcd") && e.contains("real-crypto"), "{e}");

    // Nothing to answer with under "never"; "on-request" with nothing to request is refused.
    let refused = |rule: &str| {
        Scenario::parse(
            &format!("duration_s = 2.0\n[[variant]]\nname = \"x\"\nprotocol = \"ieee1609.2\"\n{rule}\n"),
            "rule",
        )
        .and_then(|s| s.validate().map(|_| s))
        .unwrap_err()
        .to_string()
    };
    let e = refused("certificate = { policy = \"never\" }\np2pcd = true");
    assert!(e.contains("on-request"), "{e}");
    let e = refused("certificate = { policy = \"on-request\" }");
    assert!(e.contains("p2pcd = true or certificate_on_new_station"), "{e}");
}
