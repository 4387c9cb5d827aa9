//! `v2x encap`: SN-ENCAP of a payload file with a station's ticket from a PKI.

use super::legacy::WireFormat;
use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use v2x_security::v1_2_1::{V1EncapRequest, V1Profile, V1Protection};
use v2x_security::{
    Credentials, EncapRequest, GeoPoint, ItsAid, Location, Pki, ProfileKind, PseudonymPool, Recipient, SecurityEntity,
    TaiTime,
};

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
    /// Output file for the secured message ('-' for stdout).
    #[arg(long)]
    out: PathBuf,
    /// Sign, then encrypt to this recipient certificate (.oer with an encryption key).
    #[arg(long)]
    encrypt_to: Option<PathBuf>,
    /// Station whose ticket signs (required when the PKI has more than one station).
    #[arg(long)]
    station: Option<String>,
    /// PSID, a number or a name (default: the profile's, 36 for cam/generic, 37 for denm).
    #[arg(long, value_parser = super::its_aid_arg::parse_its_aid)]
    psid: Option<ItsAid>,
    /// Generation location LAT,LON in degrees (required by the denm profile).
    #[arg(long, allow_hyphen_values = true)]
    location: Option<String>,
    /// Message format: v2 (IEEE 1609.2 / TS 103 097 v2, C-OER) or the legacy v1.2.1
    /// (its credentials live in PKI/v1.2.1/, created on first use; --encrypt-to then
    /// takes a v1.2.1 certificate).
    #[arg(long, value_enum, default_value = "v2")]
    format: WireFormat,
    /// Sign with the station's ticket at this position (0-based, in ticket-number order)
    /// instead of its active pseudonym.
    #[arg(long, conflicts_with_all = ["change_pseudonym", "sign_with_enrolment_credential"])]
    pseudonym: Option<usize>,
    /// Change the station's pseudonym now: the next valid ticket becomes the active one
    /// (kept in PKI/stations/NAME/active-pseudonym for later runs) and signs this message
    /// with its full certificate.
    #[arg(long, conflicts_with = "sign_with_enrolment_credential")]
    change_pseudonym: bool,
    /// PRESERVE lab case: sign with the station's enrolment credential instead of a ticket
    /// (it permits only PSID 623, so a CAM also needs --insecure-sign-outside-permissions).
    #[arg(long)]
    sign_with_enrolment_credential: bool,
    /// INSECURE lab option: produce an unsigned (unsecured) message.
    #[arg(long, conflicts_with = "encrypt_to")]
    insecure_unsigned: bool,
    /// INSECURE lab option: sign for a PSID the signing certificate does not permit (a
    /// validly signed, not permitted message; receivers reject it as psid-not-permitted).
    #[arg(long)]
    insecure_sign_outside_permissions: bool,
    /// INSECURE lab option: sign even with a ticket that is expired, not yet valid or
    /// revoked (refused by default).
    #[arg(long)]
    insecure_sign_with_invalid_ticket: bool,
    /// INSECURE lab option: encrypt even to a certificate whose chain does not validate
    /// against the PKI, or which is expired or revoked (refused by default).
    #[arg(long)]
    insecure_encrypt_to_unvalidated: bool,
    /// EXPERIMENTAL (no standard): sign with the post-quantum design DESIGN instead, with the
    /// station's ticket of the design (its PKI in PKI/experimental-pq/DESIGN/, created on first
    /// use): experimental-pq-only-ml-dsa-44, experimental-pq-only-fn-dsa-512,
    /// experimental-composite-ml-dsa-44, experimental-composite-fn-dsa-512,
    /// experimental-partially-hybrid-ndss2024. The message carries the whole ticket.
    #[arg(long, value_name = "DESIGN", value_parser = super::experimental_pq::parse_design,
          conflicts_with_all = ["encrypt_to", "pseudonym", "change_pseudonym", "sign_with_enrolment_credential",
                                "insecure_unsigned", "insecure_sign_outside_permissions",
                                "insecure_sign_with_invalid_ticket", "insecure_encrypt_to_unvalidated"])]
    experimental_pq: Option<v2x_security::pq::PqDesign>,
}

use v2x_security::pki_store::ACTIVE_PSEUDONYM;

/// The signing station: the one named, or the PKI's only station. With several stations
/// and none named, refuse rather than pick one by name order.
fn signing_station(pki: &Pki, named: Option<&str>) -> anyhow::Result<String> {
    if let Some(s) = named {
        return Ok(s.to_owned());
    }
    let stations = pki.stations();
    match stations.as_slice() {
        [] => bail!("the PKI has no station (`v2x pki issue --station NAME` creates one)"),
        [only] => Ok(only.clone()),
        many => bail!(
            "the PKI has {} stations ({}): choose the signer with --station",
            many.len(),
            many.join(", ")
        ),
    }
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
    let station = signing_station(&pki, args.station.as_deref())?;
    let payload = super::input::read_input(&args.input)?;
    let location = match &args.location {
        Some(l) => Some(parse_location(l)?),
        None if kind == ProfileKind::Denm => {
            bail!("the denm profile needs --location LAT,LON (the generation location)")
        }
        None => None,
    };
    let (bytes, with_certificate) = match (args.experimental_pq, args.format) {
        (Some(design), WireFormat::V2) => (
            super::experimental_pq::encap(&pki, design, &station, kind, args.psid, &payload, location)?,
            true,
        ),
        (Some(_), WireFormat::V1_2_1) => bail!("--experimental-pq has its own format: leave out --format"),
        (None, WireFormat::V2) => encap_v2(&args, &pki, &station, kind, &payload, location)?,
        (None, WireFormat::V1_2_1) => encap_v1_2_1(&args, &pki, &station, kind, &payload, location)?,
    };
    if args.out.as_os_str() == "-" {
        std::io::stdout().write_all(&bytes).context("writing stdout")?;
    } else {
        std::fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out.display()))?;
        eprintln!(
            "{} bytes -> {} ({}, {:?}, {})",
            bytes.len(),
            args.out.display(),
            match args.experimental_pq {
                Some(d) => format!("EXPERIMENTAL {d}"),
                None => format!("{:?}", args.format),
            },
            kind,
            match (args.insecure_unsigned, with_certificate) {
                (true, _) => "unsigned",
                (false, true) => "signer certificate",
                (false, false) => "signer digest",
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// SN-ENCAP in the v2 format; returns the message and whether the full certificate signs.
fn encap_v2(
    args: &Args,
    pki: &Pki,
    station: &str,
    kind: ProfileKind,
    payload: &[u8],
    location: Option<Location>,
) -> anyhow::Result<(Vec<u8>, bool)> {
    let mut entity = signing_entity(args, pki, station)?;
    let policy = entity.encap_policy_mut();
    policy.insecure_sign_with_invalid_certificate = args.insecure_sign_with_invalid_ticket;
    policy.insecure_encrypt_to_unvalidated_recipient = args.insecure_encrypt_to_unvalidated;
    policy.insecure_sign_outside_permissions = args.insecure_sign_outside_permissions;
    if args.insecure_sign_with_invalid_ticket
        || args.insecure_encrypt_to_unvalidated
        || args.insecure_sign_outside_permissions
        || args.insecure_unsigned
    {
        eprintln!("warning: an --insecure-* option is set: the sender's own checks are off");
    }
    let mut req = EncapRequest::new(kind, payload);
    if args.insecure_unsigned {
        req = req.unsigned();
    }
    req.psid = args.psid;
    req.location = location;
    if let Some(path) = &args.encrypt_to {
        let cert = v2x_security::pki_store::read_certificate(path)?;
        if cert.encryption_key().is_none() {
            bail!("{} has no encryption key", path.display());
        }
        req.encrypt_to = Some(Recipient::Certificate(cert));
    }
    let out = entity.encap(&req)?;
    Ok((out.bytes, out.signer_was_certificate))
}

/// The v2 signer: the station's active pseudonym (or the one chosen, or the next one with
/// --change-pseudonym), or its enrolment credential.
fn signing_entity(args: &Args, pki: &Pki, station: &str) -> anyhow::Result<SecurityEntity> {
    let chain = |ca: &v2x_security::authority::Authority| vec![ca.certificate.clone(), pki.root().certificate.clone()];
    if args.sign_with_enrolment_credential {
        let ec = pki.enrol(station)?;
        eprintln!(
            "signing with the enrolment credential {} of {station}",
            ec.certificate.hashed_id8()
        );
        let credentials = Credentials {
            certificate: ec.certificate.clone(),
            signing_key: ec.key.clone(),
            encryption_key: None,
        };
        return Ok(SecurityEntity::with_credentials(
            pki.trust_store()?,
            credentials,
            chain(pki.ea()),
        ));
    }
    let mut pool = pki.pseudonyms(station)?;
    let active_file = pki.dir().join("stations").join(station).join(ACTIVE_PSEUDONYM);
    let position = |pool: &PseudonymPool, id: &str| {
        pool.tickets()
            .iter()
            .position(|t| t.certificate.hashed_id8().to_string() == id)
    };
    if let Some(i) = args.pseudonym {
        if pool.select(i).is_none() {
            bail!(
                "--pseudonym {i}: station {station} has {} tickets (0 to {})",
                pool.len(),
                pool.len() - 1
            );
        }
    } else if let Ok(id) = std::fs::read_to_string(&active_file) {
        // A ticket deleted since falls back to the first one.
        if let Some(i) = position(&pool, id.trim()) {
            pool.select(i);
        }
    }
    let mut entity = SecurityEntity::with_pseudonyms(pki.trust_store()?, pool, chain(pki.aa()));
    if args.change_pseudonym {
        let before = entity.signing_certificate().map(|c| c.hashed_id8());
        entity.rotate_pseudonym(TaiTime::now());
        let after = entity
            .signing_certificate()
            .map(|c| c.hashed_id8())
            .ok_or_else(|| anyhow!("station {station} has no ticket"))?;
        if Some(after) == before {
            bail!("--change-pseudonym: station {station} has no other valid ticket (`v2x pki issue` adds some)");
        }
        let _lock = pki.lock_within(std::time::Duration::from_secs(10))?;
        v2x_security::durable::replace(
            &active_file,
            after.to_string().as_bytes(),
            v2x_security::durable::Access::Public,
        )
        .with_context(|| format!("writing {}", active_file.display()))?;
        eprintln!(
            "pseudonym changed: {} -> {after}",
            before.map(|b| b.to_string()).unwrap_or_default()
        );
    }
    Ok(entity)
}

/// SN-ENCAP in the legacy v1.2.1 format.
fn encap_v1_2_1(
    args: &Args,
    pki: &Pki,
    station: &str,
    kind: ProfileKind,
    payload: &[u8],
    location: Option<Location>,
) -> anyhow::Result<(Vec<u8>, bool)> {
    if args.pseudonym.is_some()
        || args.change_pseudonym
        || args.sign_with_enrolment_credential
        || args.insecure_unsigned
        || args.insecure_sign_outside_permissions
    {
        bail!("--pseudonym, --change-pseudonym, --sign-with-enrolment-credential, --insecure-unsigned and --insecure-sign-outside-permissions are available for --format v2");
    }
    let v1 = super::legacy::v1_pki_dir(pki)?;
    let mut entity = super::legacy::v1_entity(pki, &v1, station)?;
    let profile = match kind {
        ProfileKind::Cam => V1Profile::Cam,
        ProfileKind::Denm => V1Profile::Denm,
        ProfileKind::Generic => V1Profile::Generic {
            its_aid: args.psid.unwrap_or(ItsAid::CAM).value(),
        },
    };
    let now = TaiTime::now();
    let recipients = match &args.encrypt_to {
        Some(path) => {
            let bytes = super::input::read_file(path).with_context(|| format!("reading {}", path.display()))?;
            let cert = v2x_wire::v1_2_1::Certificate::from_bytes(&bytes)
                .map_err(|e| anyhow!("{} is not a v1.2.1 certificate: {e}", path.display()))?;
            if !args.insecure_encrypt_to_unvalidated {
                // The recipient's chain must validate up to the PKI's v1.2.1 root, now.
                entity
                    .store
                    .validate_chain(&cert, &[], now.to_time32())
                    .map_err(|r| anyhow!("refusing to encrypt to {}: {r}", path.display()))?;
            }
            vec![cert]
        }
        None => Vec::new(),
    };
    let mut req = V1EncapRequest::new(profile, payload, now);
    if !recipients.is_empty() {
        req.protection = V1Protection::SignAndEncrypt;
        req.recipients = &recipients;
    }
    req.location = location.map(|l| v2x_wire::v1_2_1::ThreeDLocation {
        latitude: l.point.lat,
        longitude: l.point.lon,
        elevation: [0, 0],
    });
    let msg = entity.encap_message(&req).context("v1.2.1 SN-ENCAP")?;
    let with_certificate = msg.header_fields.iter().any(|h| {
        matches!(
            h,
            v2x_wire::v1_2_1::HeaderField::SignerInfo(
                v2x_wire::v1_2_1::SignerInfo::Certificate(_) | v2x_wire::v1_2_1::SignerInfo::CertificateChain(_)
            )
        )
    });
    Ok((msg.to_bytes(), with_certificate))
}
