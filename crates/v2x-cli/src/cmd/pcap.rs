//! `v2x pcap --pki DIR --out FILE.pcap [--count N] [--rate HZ] [--stations K]
//! [--denm-every M] [--format v2|v1.2.1]`: a capture of secured CAMs and DENMs from K
//! simulated vehicles, framed in GeoNetworking (SHB) / BTP-B over Ethernet, that Wireshark
//! decodes.
//!
//! Each vehicle drives east at 50 km/h (a vehicle whose ticket is restricted to a region
//! drives back and forth inside it, so that its DENMs' generation location passes its own
//! PKI's `outside-region` check); it sends CAMs at `rate` Hz (ETSI CAM UPER
//! encoding, low-frequency container every 500 ms) and every M-th message a DENM
//! (roadworks). Every message is secured by SN-ENCAP with the vehicle's authorization
//! ticket from the PKI directory: CAMs carry the signer digest and the full certificate
//! at least once per second (so the capture shows both); DENMs always the certificate and
//! the generation location. The secured message's payload is the GeoNetworking common
//! header, SHB header, BTP-B header and the CAM/DENM, as EN 302 636-4-1 requires.
//!
//! Stations: the PKI's stations are used in name order; when it has fewer than K,
//! stations `pcap-N` are enrolled and given a ticket in the PKI directory (printed).
//!
//! `--format v1.2.1` secures the same network part with the legacy TS 103 097 v1.2.1
//! security entity (CAM: digest with the certificate once per second; DENM: certificate
//! and generation location) and sets the GeoNetworking version to 0 (EN 302 636-4-1
//! v1.2.1, the GeoNetworking of that era). Its certificates live beside the v2 PKI in
//! `DIR/v1.2.1/`: `root` and `aa` (created on first use with the PKI's curve, valid as
//! long as the v2 CA certificates), and one authorization ticket per station in
//! `DIR/v1.2.1/stations/NAME/at` (issued on first use, valid as the PKI's tickets).

use anyhow::{bail, Context};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use v2x_security::pki_store::Pki;
use v2x_security::v1_2_1::{V1EncapRequest, V1Entity, V1Profile};
use v2x_security::TicketSpec;
use v2x_security::{EncapRequest, GeoPoint, ItsAid, Location, Region, SecurityEntity, TaiTime};
use v2x_wire::facilities::{encode_cam, encode_denm, hazard_denm, passenger_car_cam, VehicleState};
use v2x_wire::geonet::{gn_timestamp_from_tai_micros, BasicHeader, GnAddress, LongPositionVector, NetworkPart};
use v2x_wire::geonet::{BTP_PORT_CAM, BTP_PORT_DENM};
use v2x_wire::pcap::{geonet_frame, PcapWriter};

pub use super::legacy::WireFormat;

#[derive(clap::Args)]
pub struct Args {
    /// PKI directory made by `v2x pki init`.
    #[arg(long)]
    pub pki: PathBuf,
    /// Output capture file.
    #[arg(long)]
    pub out: PathBuf,
    /// Number of packets in total.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Messages per second per station.
    #[arg(long, default_value_t = 10.0)]
    pub rate: f64,
    /// Number of sending stations (vehicles).
    #[arg(long, default_value_t = 2)]
    pub stations: usize,
    /// Every M-th message of a station is a DENM (0: CAMs only).
    #[arg(long, default_value_t = 10)]
    pub denm_every: usize,
    /// Security format.
    #[arg(long, value_enum, default_value = "v2")]
    pub format: WireFormat,
}

/// Counts of what was written.
#[derive(Debug, Default, Clone, Copy)]
pub struct Written {
    pub cams_with_certificate: usize,
    pub cams_with_digest: usize,
    pub denms: usize,
}

/// The security entity of a vehicle, in the chosen format.
enum Signer {
    V2(Box<SecurityEntity>),
    V1(Box<V1Entity>),
}

/// One simulated vehicle.
struct Station {
    name: String,
    signer: Signer,
    mac: [u8; 6],
    station_id: u32,
    track: Track,
    /// The region of the ticket it signs with, where its ticket has one.
    region: Option<Region>,
}

/// Where a vehicle drives: from a start point east, and back when `half_m` bounds it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Track {
    lat: f64,
    lon: f64,
    /// Drive back and forth within this many metres of the start (inside a ticket's
    /// region); None: straight on.
    half_m: Option<f64>,
}

const START_LAT: f64 = 48.7758;
const START_LON: f64 = 9.1829;
const SPEED_MPS: f64 = 13.89;
const ELEVATION_M: f64 = 250.0;

/// The track of vehicle `index` of `k`: lanes 50 m apart driving east from the default start,
/// or, for a ticket restricted to a region, within that region around its middle (so that its
/// DENMs' generation location is one its own PKI accepts).
fn track(index: usize, k: usize, region: Option<&Region>) -> Track {
    let metres_per_degree_lat = 111_320.0;
    let Some((centre, extent_m)) = region.and_then(region_middle) else {
        return Track {
            lat: START_LAT + index as f64 * 0.00045,
            lon: START_LON,
            half_m: None,
        };
    };
    // Lanes spread over a quarter of the extent, driving over another quarter of it.
    let lane_m = (extent_m / 4.0 / k as f64).min(50.0);
    let offset_m = (index as f64 - (k as f64 - 1.0) / 2.0) * lane_m;
    Track {
        lat: f64::from(centre.lat) / 1e7 + offset_m / metres_per_degree_lat,
        lon: f64::from(centre.lon) / 1e7,
        half_m: Some(extent_m / 4.0),
    }
}

/// A point inside a region and the size of the region around it (m); None for regions
/// with no geometry to check against (countries).
fn region_middle(r: &Region) -> Option<(GeoPoint, f64)> {
    match r {
        Region::Circle { center, radius_m } => Some((*center, f64::from(*radius_m))),
        Region::Rectangles(rs) => rs.first().map(|(nw, se)| {
            let centre = GeoPoint {
                lat: ((i64::from(nw.lat) + i64::from(se.lat)) / 2) as i32,
                lon: ((i64::from(nw.lon) + i64::from(se.lon)) / 2) as i32,
            };
            let corner_ne = GeoPoint {
                lat: nw.lat,
                lon: se.lon,
            };
            (centre, nw.distance_m(corner_ne).min(corner_ne.distance_m(*se)) / 2.0)
        }),
        Region::Polygon(ps) if !ps.is_empty() => {
            let n = ps.len() as i64;
            let centre = GeoPoint {
                lat: (ps.iter().map(|p| i64::from(p.lat)).sum::<i64>() / n) as i32,
                lon: (ps.iter().map(|p| i64::from(p.lon)).sum::<i64>() / n) as i32,
            };
            let nearest = ps.iter().map(|p| centre.distance_m(*p)).fold(f64::INFINITY, f64::min);
            Some((centre, nearest))
        }
        _ => None,
    }
}

/// Position on `track` after `secs` seconds.
fn position(track: &Track, secs: f64) -> (f64, f64) {
    let metres_per_degree_lon = 111_320.0 * track.lat.to_radians().cos();
    let driven = SPEED_MPS * secs;
    let east_m = match track.half_m {
        // A triangle wave between -half and +half: there and back again.
        Some(h) if h > 0.0 => ((driven + h).rem_euclid(4.0 * h) - 2.0 * h).abs() - h,
        Some(_) => 0.0,
        None => driven,
    };
    (track.lat, track.lon + east_m / metres_per_degree_lon)
}

fn validate(args: &Args) -> anyhow::Result<()> {
    if args.count == 0 || args.count > 1_000_000 {
        bail!("--count must be between 1 and 1000000 (got {})", args.count);
    }
    if !(args.rate.is_finite() && (0.01..=1000.0).contains(&args.rate)) {
        bail!(
            "--rate must be between 0.01 and 1000 messages per second (got {})",
            args.rate
        );
    }
    if args.stations == 0 || args.stations > 250 {
        bail!("--stations must be between 1 and 250 (got {})", args.stations);
    }
    Ok(())
}

/// The PKI's station names, enrolling `pcap-N` stations when there are fewer than `k`.
fn station_names(pki: &Pki, k: usize) -> anyhow::Result<Vec<String>> {
    let mut names = pki.stations();
    let mut next = 1;
    while names.len() < k {
        let name = format!("pcap-{next}");
        next += 1;
        if names.contains(&name) {
            continue;
        }
        let cfg = pki.config();
        let spec = TicketSpec::new(&cfg.psids, Duration::from_secs(cfg.ticket_validity_secs));
        pki.issue_tickets(&name, 1, &spec)
            .with_context(|| format!("enrolling station {name}"))?;
        eprintln!(
            "enrolled station {name} with one authorization ticket in {}",
            pki.dir().display()
        );
        names.push(name);
    }
    names.truncate(k);
    Ok(names)
}

fn v2_signer(pki: &Pki, name: &str) -> anyhow::Result<Signer> {
    let entity = pki.entity(name).with_context(|| format!("loading station {name}"))?;
    Ok(Signer::V2(Box::new(entity)))
}

/// The v1.2.1 entities of the stations (credentials beside the v2 PKI, see [`super::legacy`]).
fn v1_signers(pki: &Pki, names: &[String]) -> anyhow::Result<Vec<Signer>> {
    let v1 = super::legacy::v1_pki_dir(pki)?;
    names
        .iter()
        .map(|name| Ok(Signer::V1(Box::new(super::legacy::v1_entity(pki, &v1, name)?))))
        .collect()
}

fn open_stations(pki: &Pki, k: usize, format: WireFormat) -> anyhow::Result<Vec<Station>> {
    let names = station_names(pki, k)?;
    let signers = match format {
        WireFormat::V2 => names
            .iter()
            .map(|n| v2_signer(pki, n))
            .collect::<anyhow::Result<Vec<_>>>()?,
        WireFormat::V1_2_1 => v1_signers(pki, &names)?,
    };
    let k = names.len();
    names
        .into_iter()
        .zip(signers)
        .enumerate()
        .map(|(i, (name, signer))| {
            // The v2 ticket the station signs with (the pool's first) may bound where it is.
            let region = match format {
                WireFormat::V2 => pki
                    .pseudonyms(&name)
                    .with_context(|| format!("loading station {name}"))?
                    .active()
                    .certificate
                    .region()
                    .and_then(Region::from_wire),
                WireFormat::V1_2_1 => None,
            };
            Ok(Station {
                track: track(i, k, region.as_ref()),
                region,
                name,
                signer,
                mac: [0x02, 0x00, 0x5e, 0x10, 0x00, (i + 1) as u8],
                station_id: 1001 + i as u32,
            })
        })
        .collect()
}

/// SN-ENCAP of the network part; returns the secured bytes and whether the signer was a
/// full certificate.
fn secure(
    st: &mut Station,
    network: &[u8],
    is_denm: bool,
    lat: i32,
    lon: i32,
    t: TaiTime,
) -> anyhow::Result<(Vec<u8>, bool)> {
    match &mut st.signer {
        Signer::V2(entity) => {
            let req = if is_denm {
                let location = Location {
                    point: GeoPoint { lat, lon },
                    elevation: v2x_wire::ieee1609dot2::elevation_from_metres(ELEVATION_M).0,
                };
                EncapRequest::denm(network, location).at(t)
            } else {
                EncapRequest::cam(network).at(t)
            };
            let out = entity
                .encap(&req)
                .with_context(|| format!("SN-ENCAP for station {}", st.name))?;
            Ok((out.bytes, out.signer_was_certificate))
        }
        Signer::V1(entity) => {
            let profile = if is_denm { V1Profile::Denm } else { V1Profile::Cam };
            let mut req = V1EncapRequest::new(profile, network, t);
            if is_denm {
                // v1.2.1 elevation: decimetres, big-endian (positive range).
                let dm = (ELEVATION_M * 10.0).round() as u16;
                req.location = Some(v2x_wire::v1_2_1::ThreeDLocation {
                    latitude: lat,
                    longitude: lon,
                    elevation: dm.to_be_bytes(),
                });
            }
            let msg = entity
                .encap_message(&req)
                .with_context(|| format!("v1.2.1 SN-ENCAP for station {}", st.name))?;
            let full = msg.header_fields.iter().any(|h| {
                matches!(
                    h,
                    v2x_wire::v1_2_1::HeaderField::SignerInfo(
                        v2x_wire::v1_2_1::SignerInfo::Certificate(_)
                            | v2x_wire::v1_2_1::SignerInfo::CertificateChain(_)
                    )
                )
            });
            Ok((msg.to_bytes(), full))
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    validate(&args)?;
    let pki = Pki::open(&args.pki).with_context(|| format!("opening PKI {}", args.pki.display()))?;
    for psid in [ItsAid::CAM, ItsAid::DENM] {
        if !pki.config().psids.contains(&psid) && (psid == ItsAid::CAM || args.denm_every > 0) {
            bail!(
                "the PKI in {} does not grant PSID {psid}; re-create it with `v2x pki init`",
                args.pki.display()
            );
        }
    }
    let mut stations = open_stations(&pki, args.stations, args.format)?;
    // GeoNetworking version of the era of each security format.
    let basic = BasicHeader {
        version: if args.format == WireFormat::V1_2_1 { 0 } else { 1 },
        ..BasicHeader::shb(true)
    };
    let file = std::fs::File::create(&args.out).with_context(|| format!("creating {}", args.out.display()))?;
    let mut pcap = PcapWriter::new(std::io::BufWriter::new(file))?;
    let start = TaiTime::now();
    let k = stations.len();
    let mut written = Written::default();
    for n in 0..args.count {
        let index = n % k;
        let round = n / k;
        // Stations interleave evenly within each period.
        let secs = (round as f64 + index as f64 / k as f64) / args.rate;
        let t = start.saturating_add(Duration::from_secs_f64(secs));
        let st = &mut stations[index];
        let (lat, lon) = position(&st.track, secs);
        if let Some(r) = &st.region {
            if r.contains(GeoPoint::from_degrees(lat, lon)) == Some(false) {
                bail!(
                    "station {}: its ticket's region is too small to place a vehicle in ({lat:.5}, {lon:.5} is outside)",
                    st.name
                );
            }
        }
        let vehicle = VehicleState {
            station_id: st.station_id,
            latitude: (lat * 1e7).round() as i32,
            longitude: (lon * 1e7).round() as i32,
            speed: (SPEED_MPS * 100.0).round() as u16,
            heading: 900,
            altitude_cm: (ELEVATION_M * 100.0) as i32,
        };
        let pv = LongPositionVector {
            address: GnAddress::new(5, st.mac),
            timestamp: gn_timestamp_from_tai_micros(t.0),
            latitude: vehicle.latitude,
            longitude: vehicle.longitude,
            accurate: true,
            speed: vehicle.speed as i16,
            heading: vehicle.heading,
        };
        let tai_ms = t.0 / 1000;
        let is_denm = args.denm_every > 0 && (round + 1) % args.denm_every == 0;
        let (port, app) = if is_denm {
            (
                BTP_PORT_DENM,
                encode_denm(&hazard_denm(&vehicle, round as u16, tai_ms, 3, 0))?,
            )
        } else {
            // Low-frequency container at most every 500 ms.
            let lf_every = ((args.rate * 0.5).ceil() as usize).max(1);
            (
                BTP_PORT_CAM,
                encode_cam(&passenger_car_cam(
                    &vehicle,
                    (tai_ms % 65_536) as u16,
                    round % lf_every == 0,
                ))?,
            )
        };
        let network = NetworkPart::shb(pv, port, &app).to_bytes()?;
        let (secured, with_certificate) = secure(st, &network, is_denm, vehicle.latitude, vehicle.longitude, t)?;
        match (is_denm, with_certificate) {
            (true, _) => written.denms += 1,
            (false, true) => written.cams_with_certificate += 1,
            (false, false) => written.cams_with_digest += 1,
        }
        let mut gn = basic.to_bytes();
        gn.extend_from_slice(&secured);
        let frame = geonet_frame(st.mac, &gn);
        let unix_micros = t
            .to_system_time()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_micros() as u64)?;
        pcap.write_frame(unix_micros, &frame)?;
    }
    pcap.into_inner()?;
    println!(
        "wrote {} packets from {} station(s) to {}: {} CAMs with the signer certificate, {} CAMs with its digest, {} DENMs",
        args.count,
        k,
        args.out.display(),
        written.cams_with_certificate,
        written.cams_with_digest,
        written.denms
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vehicle_with_a_regional_ticket_stays_in_its_region() {
        let centre = GeoPoint::from_degrees(52.52, 13.405);
        let region = Region::Circle {
            center: centre,
            radius_m: 300,
        };
        for i in 0..3 {
            let t = track(i, 3, Some(&region));
            for step in 0..2000 {
                let (lat, lon) = position(&t, f64::from(step) * 0.1);
                assert_eq!(
                    region.contains(GeoPoint::from_degrees(lat, lon)),
                    Some(true),
                    "{i} {step}"
                );
            }
        }
        // Without a region: east from the default start, as before.
        let free = track(1, 3, None);
        assert_eq!(position(&free, 0.0), (START_LAT + 0.00045, START_LON));
        assert!(position(&free, 10.0).1 > START_LON);
    }
}
