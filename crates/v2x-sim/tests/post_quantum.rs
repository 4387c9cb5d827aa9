//! The EXPERIMENTAL post-quantum designs in the simulator: their sizes come only from an
//! encoder (`SizeEncoder`; the real one is `v2x-sim-crypto`'s, tested there and end to end
//! in `v2x-cli`), their costs from a profile or fixed costs (refused otherwise), and a
//! message larger than the access layer carries is refused and counted on 802.11p and on
//! the LTE-V2X sidelink.

use v2x_profile::ProtocolId;
use v2x_sim::access::{fits_one_msdu, MAX_MSDU_BYTES};
use v2x_sim::scenario::{AccessKind, CertificatePolicy, MobilityConfig, VariantConfig};
use v2x_sim::security::{EncodedSizes, SizeEncoder};
use v2x_sim::{RunMetrics, Scenario};

/// Sizes the test names, standing in for the real encoder (the simulator only reads them),
/// and the calls it got.
struct Named {
    digest: u32,
    certificate: u32,
    calls: std::sync::Mutex<Vec<(ProtocolId, u32)>>,
}

impl Named {
    fn new(digest: u32, certificate: u32) -> Named {
        Named {
            digest,
            certificate,
            calls: Default::default(),
        }
    }
}

impl SizeEncoder for Named {
    fn encode(&self, kind: ProtocolId, payload_bytes: u32) -> Result<EncodedSizes, String> {
        self.calls.lock().unwrap().push((kind, payload_bytes));
        Ok(EncodedSizes {
            digest_bytes: self.digest,
            certificate_bytes: self.certificate,
            encoder: "test".into(),
        })
    }
}

const DESIGN: ProtocolId = ProtocolId::ExperimentalPqOnlyFnDsa512;

/// 12 static stations within 22 m (nothing lost to distance), one variant of `DESIGN` with
/// fixed costs; 802.11p unless `sidelink`.
fn cluster(sidelink: bool) -> Scenario {
    let access = if sidelink {
        "[access]\nkind = \"lte-v2x-mode4\"\n[radio.path_loss]\nmodel = \"winner-b1\"\n[sidelink]\nshadowing_sd_db = 0.0\n"
    } else {
        ""
    };
    let mut s = Scenario::parse(
        &format!(
            "duration_s = 3.0\nwarmup_s = 1.0\n{access}[radio]\ntx_power_dbm = 23.0\n[radio.fading]\nmodel = \"none\"\n\
             [metrics]\ndistance_bin_m = 10.0\nmax_distance_m = 100.0\n\
             [[variant]]\nname = \"pq\"\nprotocol = \"{}\"\nsign_cost_us = 250.0\nverify_cost_us = 30.0\n",
            DESIGN.name()
        ),
        "pq-cluster",
    )
    .unwrap();
    s.mobility = MobilityConfig::Static {
        positions_m: (0..12).map(|i| [2.0 * i as f64, 0.0]).collect(),
    };
    assert_eq!(s.access.kind == AccessKind::LteV2xMode4, sidelink);
    s.validate().unwrap();
    s
}

fn run(s: &Scenario, encoder: &Named) -> RunMetrics {
    let r = v2x_sim::run_with(s, &v2x_report::Silent, None, Some(encoder)).unwrap();
    r.variants[0].pooled.clone()
}

#[test]
fn the_msdu_limit_is_2304_bytes_beyond_the_mac_header_and_fcs() {
    assert_eq!(MAX_MSDU_BYTES, 2304);
    // 36 B of overhead: MAC header 24 + FCS 4 outside the MSDU, LLC/SNAP 8 inside it.
    assert!(fits_one_msdu(2304 + 28, 36));
    assert!(!fits_one_msdu(2304 + 29, 36));
    // Without headers counted, the frame is the MSDU.
    assert!(fits_one_msdu(2304, 0) && !fits_one_msdu(2305, 0));
}

/// Sizes come from the encoder, for the scenario's payload; without one, or with sizes
/// in the scenario, the variant is refused; without a profile or fixed costs too.
#[test]
fn sizes_come_from_the_encoder_alone_and_costs_are_never_guessed() {
    let s = cluster(false);
    let encoder = Named::new(697, 2298);
    let m = v2x_sim::resolve_variants_with(&s, Some(&encoder)).unwrap().remove(0);
    assert_eq!((m.overhead_digest, m.overhead_certificate), (697, 2298));
    assert_eq!(*encoder.calls.lock().unwrap(), vec![(DESIGN, s.cam.payload_bytes)]);
    assert!(m.sizes.source.starts_with("real encoder: test"), "{}", m.sizes.source);
    assert_eq!(m.certificate, CertificatePolicy::Interval { interval_s: 1.0 });
    let schedule = m.settings.iter().find(|x| x.name == "certificate").unwrap();
    assert!(schedule.from.starts_with("default"), "{schedule:?}");
    assert!(
        m.require_known_certificate,
        "the designs carry certificates and digests"
    );

    let e = v2x_sim::resolve_variants(&s).unwrap_err().to_string();
    assert!(e.contains("real encoder") && e.contains("v2x sim"), "{e}");

    let mut given = s.clone();
    given.variants[0].overhead_bytes = Some(100);
    let e = given.validate().unwrap_err().to_string();
    assert!(e.contains("overhead_bytes") && e.contains("real encoder"), "{e}");

    let mut free = s.clone();
    free.variants[0] = VariantConfig {
        name: "pq".into(),
        protocol: DESIGN,
        ..VariantConfig::default()
    };
    let e = v2x_sim::resolve_variants_with(&free, Some(&encoder))
        .unwrap_err()
        .to_string();
    assert!(e.contains("set `profile` or `verify_cost_us`"), "{e}");
}

/// 802.11p: certificate CAMs of 2,434 B MSDU are refused (2,298 + 100 + 8 > 2,304), so
/// receivers never learn a certificate and every digest CAM is lost to it; when both forms
/// fit, nothing is refused and CAMs are verified.
#[test]
fn oversize_frames_are_refused_on_80211p_and_counted() {
    let s = cluster(false);
    let m = run(&s, &Named::new(697, 2298));
    assert!(m.cams_generated > 200, "{}", m.cams_generated);
    // Once per second per station: 12 stations x 2 s measured, and the first CAMs.
    assert!(
        (24..=40).contains(&m.cams_refused_oversize),
        "{}",
        m.cams_refused_oversize
    );
    assert_eq!(m.frames_refused_oversize, m.cams_refused_oversize);
    assert_eq!(m.frames_sent + m.cams_refused_oversize, m.cams_generated);
    assert_eq!(m.headline_verified, 0, "no certificate ever reached a receiver");
    assert_eq!(m.crypto_lost_unknown_certificate, m.security_arrivals);
    assert!(m.security_arrivals > 1000);

    let fits = run(&s, &Named::new(697, 2000));
    assert_eq!(fits.cams_refused_oversize, 0);
    assert!(
        fits.headline_verified > 1000 && fits.awareness() > 0.9,
        "{}",
        fits.awareness()
    );

    // A digest form above the limit: nothing goes on the air.
    let none = run(&s, &Named::new(2451, 6221));
    assert_eq!(none.cams_refused_oversize, none.cams_generated);
    assert_eq!((none.frames_sent, none.security_arrivals), (0, 0));
    assert_eq!(none.awareness(), 0.0);
}

/// The sidelink: a CAM above the whole pool's transport block (4 sub-channels at MCS 9:
/// 871 B) is refused by the MAC and counted, the others are sent.
#[test]
fn oversize_packets_are_refused_on_the_sidelink_and_counted() {
    let s = cluster(true);
    let pool = v2x_sim::sidelink::pool::ResourcePool::new(&s.sidelink);
    assert_eq!(pool.capacity_bytes(pool.subchannels), 871);
    // Digest CAMs of 797 B fit, certificate CAMs of 2,398 B do not.
    let m = run(&s, &Named::new(697, 2298));
    let st = m.sidelink.as_ref().unwrap();
    assert!(
        (24..=40).contains(&m.cams_refused_oversize),
        "{}",
        m.cams_refused_oversize
    );
    assert!(st.oversize >= m.cams_refused_oversize, "the MAC dropped them");
    // Every other CAM is sent, but one per station still waiting for its resource at the end.
    let unsent = m.cams_generated - st.transmissions - m.cams_refused_oversize;
    assert!(unsent <= 12, "{unsent}");
    assert!(m.headline_received > 1000);
    // Digest CAMs of 872 B: one byte above the pool, nothing sent.
    let none = run(&s, &Named::new(772, 2298));
    assert_eq!(none.cams_refused_oversize, none.cams_generated);
    assert_eq!(none.sidelink.as_ref().unwrap().transmissions, 0);
}
