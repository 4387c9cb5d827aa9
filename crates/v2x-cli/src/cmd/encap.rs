//! `v2x encap`: SN-ENCAP of a payload file with a station's ticket from a PKI.

use anyhow::{anyhow, bail, Context};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use v2x_security::{EncapRequest, GeoPoint, Location, Pki, ProfileKind, Recipient};

#[derive(clap::Args)]
pub struct Args {
    /// PKI directory (from `v2x pki init`).
    #[arg(long)]
    pki: PathBuf,
    /// Security profile: cam, denm or generic.
    #[arg(long, default_value = "cam")]
    profile: String,
    /// Payload file ('-' for stdin).
    #[arg(long = "in")]
    input: PathBuf,
    /// Output file for the Ieee1609Dot2Data ('-' for stdout).
    #[arg(long)]
    out: PathBuf,
    /// Sign, then encrypt to this recipient certificate (.oer with an encryption key).
    #[arg(long)]
    encrypt_to: Option<PathBuf>,
    /// Station whose ticket signs (default: the first station).
    #[arg(long)]
    station: Option<String>,
    /// PSID (default: the profile's, 36 for cam/generic, 37 for denm).
    #[arg(long)]
    psid: Option<u64>,
    /// Generation location LAT,LON in degrees (required by the denm profile).
    #[arg(long, allow_hyphen_values = true)]
    location: Option<String>,
}

pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf).context("reading stdin")?;
        return Ok(buf);
    }
    std::fs::read(path).with_context(|| format!("reading {}", path.display()))
}

fn parse_location(s: &str) -> anyhow::Result<Location> {
    let (lat, lon) = s.split_once(',').ok_or_else(|| anyhow!("--location must be LAT,LON"))?;
    let lat: f64 = lat.trim().parse().context("latitude")?;
    let lon: f64 = lon.trim().parse().context("longitude")?;
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lon) {
        bail!("location {lat},{lon} out of range");
    }
    Ok(Location {
        point: GeoPoint::from_degrees(lat, lon),
        elevation: 0,
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kind = ProfileKind::from_name(&args.profile)
        .ok_or_else(|| anyhow!("unknown profile {:?} (cam, denm, generic)", args.profile))?;
    let pki = Pki::open(&args.pki).with_context(|| format!("opening PKI {}", args.pki.display()))?;
    let station = match args.station {
        Some(s) => s,
        None => pki
            .stations()
            .into_iter()
            .next()
            .ok_or_else(|| anyhow!("the PKI has no station"))?,
    };
    let mut entity = pki.entity(&station)?;
    let payload = read_input(&args.input)?;
    let mut req = EncapRequest::new(kind, &payload);
    req.psid = args.psid;
    if let Some(l) = &args.location {
        req.location = Some(parse_location(l)?);
    } else if kind == ProfileKind::Denm {
        bail!("the denm profile needs --location LAT,LON (the generation location)");
    }
    if let Some(path) = &args.encrypt_to {
        let cert = v2x_security::pki_store::read_certificate(path)?;
        if cert.encryption_key().is_none() {
            bail!("{} has no encryption key", path.display());
        }
        req.encrypt_to = Some(Recipient::Certificate(cert));
    }
    let out = entity.encap(&req)?;
    if args.out.as_os_str() == "-" {
        std::io::stdout().write_all(&out.bytes).context("writing stdout")?;
    } else {
        std::fs::write(&args.out, &out.bytes).with_context(|| format!("writing {}", args.out.display()))?;
        eprintln!(
            "{} bytes -> {} ({:?}, signer {})",
            out.bytes.len(),
            args.out.display(),
            kind,
            if out.signer_was_certificate {
                "certificate"
            } else {
                "digest"
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
