//! Every protocol through the same interface: `build_pair`, then deliver whatever the
//! stations emit (data, keys, handshakes, polls) until the payloads come out.

use v2x_protocols::experimental_pq::ExperimentalPqConfig;
use v2x_protocols::loopback::Link;
use v2x_protocols::session::{Scheme, SessionConfig, Topology};
use v2x_protocols::tesla::{KeyDisclosure, TeslaConfig};
use v2x_protocols::{build_pair, build_stations, Authenticator, ProtocolConfig, Timestamp};
use v2x_security::pq::PqDesign;

fn configs() -> Vec<ProtocolConfig> {
    vec![
        ProtocolConfig::None(Default::default()),
        ProtocolConfig::HashChain(Default::default()),
        ProtocolConfig::Tesla(TeslaConfig::paper004(KeyDisclosure::Separate)),
        ProtocolConfig::Tesla(TeslaConfig::paper004(KeyDisclosure::Attached)),
        ProtocolConfig::Tesla(TeslaConfig::paper001()),
        ProtocolConfig::TwoFlip(Default::default()),
        ProtocolConfig::Session(SessionConfig::default()),
        ProtocolConfig::Session(SessionConfig {
            scheme: Scheme::Wang,
            topology: Topology::Group,
            ..Default::default()
        }),
        ProtocolConfig::Ieee1609Dot2(Default::default()),
        ProtocolConfig::EtsiV121(Default::default()),
    ]
    .into_iter()
    .chain(
        PqDesign::ALL
            .into_iter()
            .map(|d| ProtocolConfig::ExperimentalPq(ExperimentalPqConfig::new(d))),
    )
    .collect()
}

#[test]
fn every_protocol_delivers_through_the_trait() {
    for config in configs() {
        let (mut a, mut b) = build_pair(&config).unwrap();
        assert_eq!(a.describe().protocol, a.name(), "{config:?}");
        let mut got: Vec<Vec<u8>> = Vec::new();
        let t0 = Timestamp(1_000_000);
        let link = Link::with_delay(500);
        for k in 0..4u64 {
            let now = t0.plus_micros(k * 100_000);
            let stations: &mut [&mut dyn Authenticator] = &mut [&mut *a, &mut *b];
            let mut x = link.poll(stations, 0, now);
            x.extend(link.send(stations, 0, format!("payload {k}").as_bytes(), now).unwrap());
            if let Some(r) = x.rejections().first() {
                panic!("{config:?}: genuine packet rejected: {r}");
            }
            got.extend(x.payloads());
        }
        assert!(got.len() >= 3, "{config:?}: {got:?}");
        assert_eq!(got[0], b"payload 0", "{config:?}");
    }
}

#[test]
fn config_round_trips_through_json_and_toml() {
    for config in configs() {
        let json = serde_json::to_string(&config).unwrap();
        let back: ProtocolConfig = serde_json::from_str(&json).unwrap();
        assert_eq!(back, config);
    }
    let c: ProtocolConfig =
        toml::from_str("protocol = \"tesla\"\nkey_disclosure = \"attached\"\nlayout = \"paper004\"").unwrap();
    assert_eq!(c, ProtocolConfig::Tesla(TeslaConfig::paper004(KeyDisclosure::Attached)));
    let c: ProtocolConfig = toml::from_str("protocol = \"2flip\"").unwrap();
    assert!(matches!(c, ProtocolConfig::TwoFlip(_)));
    let c: ProtocolConfig = toml::from_str("protocol = \"ieee1609.2\"\nprofile = \"denm\"").unwrap();
    assert!(matches!(c, ProtocolConfig::Ieee1609Dot2(_)));
    assert!(toml::from_str::<ProtocolConfig>("protocol = \"hash-chain\"\nno_such_field = 1").is_err());
}

#[test]
fn stations_of_one_deployment_all_trust_each_other() {
    let mut stations = build_stations(&ProtocolConfig::HashChain(Default::default()), 4).unwrap();
    let now = Timestamp(9_000_000);
    let pkt = stations[0].encap(b"hi", now).unwrap().remove(0);
    for rx in stations.iter_mut().skip(1) {
        assert!(rx.decap(&pkt.bytes, now).outcome.is_accepted());
    }
}
