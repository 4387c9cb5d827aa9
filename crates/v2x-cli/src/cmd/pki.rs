//! `v2x pki`: create a PKI directory and issue authorization tickets.

use anyhow::{anyhow, bail, Context};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use v2x_crypto::Curve;
use v2x_security::v1_2_1::V1PkiDir;
use v2x_security::{GeoPoint, ItsAid, Pki, PkiConfig, Region, TicketSpec};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PkiCommand,
}

#[derive(clap::Subcommand)]
enum PkiCommand {
    /// Create root CA, enrolment authority, authorization authority and one station.
    Init {
        #[arg(long)]
        dir: PathBuf,
        /// Signing curve: p256, p384, bp256 or bp384.
        #[arg(long, default_value = "p256")]
        curve: String,
        /// Name of the first station.
        #[arg(long, default_value = "station-1")]
        station: String,
        /// EXPERIMENTAL (no standard): also create the post-quantum design DESIGN's root, AA
        /// and a ticket for the station in DIR/experimental-pq/DESIGN/ (repeatable).
        #[arg(long, value_name = "DESIGN", value_parser = super::experimental_pq::parse_design)]
        experimental_pq: Vec<v2x_security::pq::PqDesign>,
    },
    /// Issue authorization tickets (pseudonyms) for a station.
    Issue {
        #[arg(long)]
        dir: PathBuf,
        #[arg(long, default_value_t = 1)]
        count: usize,
        /// PSIDs, comma separated, as numbers (0x.. for hex) or names (cam, denm, bsm, ...);
        /// CAM (36) and DENM (37) get the ETSI default SSPs.
        #[arg(long, value_delimiter = ',', value_parser = super::its_aid_arg::parse_its_aid)]
        psid: Vec<ItsAid>,
        /// Validity: a number with unit s, m, h, d, w or y (e.g. 1w, 12h).
        #[arg(long, default_value = "1w")]
        validity: String,
        #[arg(long, default_value = "station-1")]
        station: String,
        /// Issue tickets without an encryption key.
        #[arg(long)]
        no_encryption_key: bool,
        /// Restrict the tickets to a region: circle:LAT,LON,RADIUS_M |
        /// rect:NW_LAT,NW_LON,SE_LAT,SE_LON | country:CODE[,CODE...] (UN M.49).
        #[arg(long, allow_hyphen_values = true)]
        region: Option<String>,
    },
    /// Revoke a certificate: the root re-issues the CRL in the PKI directory (for a v1.2.1
    /// certificate, the v1.2.1 root re-issues v1.2.1/root.crl).
    Revoke {
        #[arg(long)]
        dir: PathBuf,
        /// The certificate file to revoke: v2 (.oer) or v1.2.1 (.cert, e.g.
        /// v1.2.1/stations/NAME/at.cert).
        #[arg(long)]
        cert: PathBuf,
    },
    /// Re-issue the CRL with a fresh nextUpdate (one week), and the v1.2.1 CRL when the PKI
    /// has v1.2.1 credentials: receivers reject the PKI's chains once the CRL they hold is
    /// past its nextUpdate.
    RefreshCrl {
        #[arg(long)]
        dir: PathBuf,
    },
    /// Check the directory for damage: missing or mismatched keys and certificates,
    /// certificates not issued by their CA, a missing, rolled-back or expired CRL, counters
    /// behind the files, private keys readable by others, temporary files left by an
    /// interrupted write. Exit 0 when clean, 1 when anything is damaged.
    Check {
        #[arg(long)]
        dir: PathBuf,
        /// Print the findings as JSON.
        #[arg(long)]
        json: bool,
        /// Check validity and CRL freshness as of this time (RFC 3339) instead of now.
        #[arg(long)]
        at: Option<String>,
    },
    // The TS 102 941 PKI service and its ITS-S side (cmd/pki_service.rs).
    #[command(flatten)]
    Service(super::pki_service::Command),
}

/// Parses "90s", "30m", "12h", "7d", "1w", "1y".
pub fn parse_validity(s: &str) -> anyhow::Result<Duration> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| anyhow!("validity {s:?} needs a unit (s, m, h, d, w, y)"))?;
    let (num, unit) = s.split_at(split);
    let n: u64 = num.parse().with_context(|| format!("validity {s:?}"))?;
    let mult = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        "y" => 31_556_952,
        _ => bail!("unknown validity unit {unit:?} (use s, m, h, d, w, y)"),
    };
    if n == 0 {
        bail!("validity must be positive");
    }
    Ok(Duration::from_secs(
        n.checked_mul(mult).ok_or_else(|| anyhow!("validity too large"))?,
    ))
}

/// A duration in seconds as a reader says it: `7 days`, `36 hours`, `90 s`.
fn validity_text(secs: u64) -> String {
    match secs {
        s if s >= 86_400 && s % 86_400 == 0 => format!("{} day(s)", s / 86_400),
        s if s >= 3600 && s % 3600 == 0 => format!("{} hour(s)", s / 3600),
        s if s >= 60 && s % 60 == 0 => format!("{} minute(s)", s / 60),
        s => format!("{s} s"),
    }
}

/// Parses `circle:LAT,LON,RADIUS_M`, `rect:NW_LAT,NW_LON,SE_LAT,SE_LON` or
/// `country:CODE[,CODE...]`.
pub fn parse_region(s: &str) -> anyhow::Result<Region> {
    let (kind, rest) = s
        .split_once(':')
        .ok_or_else(|| anyhow!("region {s:?}: expected KIND:VALUES"))?;
    let nums = |n: usize| -> anyhow::Result<Vec<f64>> {
        let v: Vec<f64> = rest
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .with_context(|| format!("region {s:?}"))?;
        if v.len() != n {
            bail!("region {s:?}: expected {n} numbers");
        }
        Ok(v)
    };
    let point = |lat: f64, lon: f64| -> anyhow::Result<GeoPoint> {
        if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
            bail!("region {s:?}: coordinates out of range");
        }
        Ok(GeoPoint::from_degrees(lat, lon))
    };
    match kind {
        "circle" => {
            let v = nums(3)?;
            let radius = u16::try_from(v[2] as i64).map_err(|_| anyhow!("region radius must be 0..65535 m"))?;
            Ok(Region::Circle {
                center: point(v[0], v[1])?,
                radius_m: radius,
            })
        }
        "rect" => {
            let v = nums(4)?;
            Ok(Region::Rectangles(vec![(point(v[0], v[1])?, point(v[2], v[3])?)]))
        }
        "country" => {
            let codes: Vec<u16> = rest
                .split(',')
                .map(|x| x.trim().parse::<u16>())
                .collect::<Result<_, _>>()
                .with_context(|| format!("region {s:?}"))?;
            Ok(Region::Countries(codes))
        }
        _ => bail!("unknown region kind {kind:?} (circle, rect, country)"),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.command {
        PkiCommand::Service(command) => super::pki_service::run(command),
        PkiCommand::Init {
            dir,
            curve,
            station,
            experimental_pq,
        } => {
            let curve = Curve::from_short_name(&curve)
                .ok_or_else(|| anyhow!("unknown curve {curve:?} (p256, p384, bp256, bp384)"))?;
            let config = PkiConfig {
                curve,
                ..PkiConfig::default()
            };
            let pki =
                Pki::init(&dir, config, &station).with_context(|| format!("creating PKI in {}", dir.display()))?;
            println!("PKI created in {} ({curve})", dir.display());
            println!("  root CA  {}", pki.root().certificate.hashed_id8());
            println!("  EA       {}", pki.ea().certificate.hashed_id8());
            println!("  AA       {}", pki.aa().certificate.hashed_id8());
            for t in pki.tickets(&station)? {
                println!("  {station} ticket {}", t.certificate.hashed_id8());
            }
            for design in experimental_pq {
                super::experimental_pq::init(&pki, design, &station)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        PkiCommand::Issue {
            dir,
            count,
            psid,
            validity,
            station,
            no_encryption_key,
            region,
        } => {
            if count == 0 || count > 100_000 {
                bail!("--count must be between 1 and 100000");
            }
            let pki = Pki::open(&dir).with_context(|| format!("opening PKI {}", dir.display()))?;
            let validity = parse_validity(&validity)?;
            let psids = if psid.is_empty() {
                pki.config().psids.clone()
            } else {
                psid
            };
            let mut spec = TicketSpec::new(&psids, validity);
            spec.encryption_key = !no_encryption_key;
            spec.region = region.as_deref().map(parse_region).transpose()?;
            let issued = pki.issue_tickets(&station, count, &spec)?;
            let utc =
                |tai_s: u64| v2x_security::TaiTime::from_time32(u32::try_from(tai_s).unwrap_or(u32::MAX)).to_rfc3339();
            // One line per ticket (its HashedId8 first, for scripts), then what they allow.
            for t in &issued {
                let v = t.certificate.validity();
                println!(
                    "{}  valid {} to {}",
                    t.certificate.hashed_id8(),
                    utc(v.start),
                    utc(v.end)
                );
            }
            let c = &issued[0].certificate;
            let psids: Vec<String> = c.app_permissions().iter().map(|p| p.psid.to_string()).collect();
            eprintln!(
                "issued {} ticket(s) for {station} in {}: PSIDs {}; valid {} to {} ({}); {}; {}",
                issued.len(),
                dir.display(),
                psids.join(", "),
                utc(c.validity().start),
                utc(c.validity().end),
                validity_text(c.validity().end.saturating_sub(c.validity().start)),
                region
                    .as_deref()
                    .map_or("no region restriction".into(), |r| format!("region {r}")),
                if c.encryption_key().is_some() {
                    "with an encryption key"
                } else {
                    "no encryption key"
                },
            );
            Ok(ExitCode::SUCCESS)
        }
        PkiCommand::Revoke { dir, cert } => {
            let mut pki = Pki::open(&dir).with_context(|| format!("opening PKI {}", dir.display()))?;
            // A v1.2.1 certificate starts with its version, 2; a v2 one with its C-OER preamble.
            let bytes = super::input::read_file(&cert)?;
            if let Ok(v1) = v2x_wire::v1_2_1::Certificate::from_bytes(&bytes) {
                return revoke_v1_2_1(&pki, &v1);
            }
            let c = v2x_security::pki_store::read_certificate(&cert)?;
            let serial = pki.revoke(&c)?;
            println!("revoked {} (CRL serial {serial})", c.hashed_id8());
            Ok(ExitCode::SUCCESS)
        }
        PkiCommand::Check { dir, json, at } => {
            let at = match at {
                Some(s) => super::decap::parse_time(&s)?,
                None => v2x_security::TaiTime::now(),
            };
            let report = v2x_security::pki_check::check_pki_dir(&dir, at)
                .with_context(|| format!("checking PKI {}", dir.display()))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&report)?);
            } else {
                for f in &report.findings {
                    println!("damage: {}: {}", f.path.display(), f.problem);
                }
                println!(
                    "{}: {} certificates, {} private keys, {} stations, {} tickets checked; {}",
                    dir.display(),
                    report.certificates,
                    report.private_keys,
                    report.stations,
                    report.tickets,
                    match report.findings.len() {
                        0 => "no damage".to_owned(),
                        n => format!("{n} problem(s)"),
                    }
                );
            }
            Ok(if report.is_clean() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        PkiCommand::RefreshCrl { dir } => {
            let mut pki = Pki::open(&dir).with_context(|| format!("opening PKI {}", dir.display()))?;
            let serial = pki.refresh_crl()?;
            println!("CRL re-issued (serial {serial})");
            if dir.join(v2x_security::v1_2_1::pki_dir::SUBDIR).is_dir() {
                let lock = pki.lock()?;
                let v1 = V1PkiDir::beside_locked(&pki, &lock)?;
                let issued = v1.reissue_crl_beside(&pki, &lock, None)?;
                println!("v1.2.1 CRL re-issued (thisUpdate {issued})");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `pki revoke` of a v1.2.1 certificate: the v1.2.1 root re-issues its CRL with it listed.
fn revoke_v1_2_1(pki: &Pki, c: &v2x_wire::v1_2_1::Certificate) -> anyhow::Result<ExitCode> {
    let lock = pki.lock()?;
    let v1 = V1PkiDir::beside_locked(pki, &lock)?;
    let digest = v2x_security::v1_2_1::certificate_digest(c);
    let issued = v1.reissue_crl_beside(pki, &lock, Some(digest))?;
    println!(
        "revoked v1.2.1 certificate {} (v1.2.1 CRL thisUpdate {issued})",
        hex::encode(digest)
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validity_units() {
        assert_eq!(parse_validity("1w").unwrap(), Duration::from_secs(604_800));
        assert_eq!(parse_validity("90s").unwrap(), Duration::from_secs(90));
        assert!(parse_validity("5").is_err());
        assert!(parse_validity("0h").is_err());
        assert!(parse_validity("3x").is_err());
    }

    #[test]
    fn regions() {
        assert!(matches!(
            parse_region("circle:48.1,-11.5,5000").unwrap(),
            Region::Circle { radius_m: 5000, .. }
        ));
        assert!(matches!(parse_region("rect:49,10,47,12").unwrap(), Region::Rectangles(r) if r.len() == 1));
        assert_eq!(
            parse_region("country:276,250").unwrap(),
            Region::Countries(vec![276, 250])
        );
        assert!(parse_region("circle:100,0,5").is_err());
        assert!(parse_region("blob:1").is_err());
    }
}
