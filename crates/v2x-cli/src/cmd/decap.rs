//! `v2x decap`: SN-DECAP of a secured message against a trust directory.
//!
//! Exit 0 with the payload on stdout when accepted; exit 1 with the reason code when
//! rejected; exit 2 on errors (unreadable files, bad arguments).

use super::legacy::WireFormat;
use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};
use v2x_security::{
    load_trust_dir_with, DecapMode, Pki, Rejection, SecurityEntity, SignatureForm, TaiTime, TrustListPolicy,
    TrustOptions, TrustStore,
};

#[derive(clap::Args)]
pub struct Args {
    /// A PKI directory, or a directory of root certificates (.oer), ECTLs and CRLs.
    #[arg(long)]
    trust: Option<PathBuf>,
    /// The secured message ('-' for stdin).
    #[arg(long = "in")]
    input: PathBuf,
    /// Verify as of this time (RFC 3339, e.g. 2026-01-01T12:00:00Z) instead of now.
    #[arg(long)]
    at: Option<String>,
    /// INSECURE lab mode: check only the message signature with the certificate the
    /// message carries (no chain, validity, permission, freshness or replay checks).
    #[arg(long)]
    signature_only: bool,
    /// Print a JSON verdict instead of the raw payload.
    #[arg(long)]
    json: bool,
    /// With a PKI directory as --trust: use this station's ticket keys to decrypt.
    #[arg(long)]
    station: Option<String>,
    /// Reject signatures whose s is above n/2 (one encoding per signature).
    #[arg(long)]
    require_low_s: bool,
    /// Reject signatures whose r is a compressed point (accept x-only r only).
    #[arg(long)]
    require_x_only_r: bool,
    /// INSECURE lab option: load trust lists past their nextUpdate (with a warning).
    #[arg(long)]
    insecure_accept_expired_trust_list: bool,
    /// INSECURE lab option: trust a PKI directory whose CRL is missing (with a warning).
    #[arg(long)]
    insecure_allow_missing_crl: bool,
    /// INSECURE lab option: accept chains whose root's CRL is past its nextUpdate (its
    /// entries still apply).
    #[arg(long)]
    insecure_accept_stale_crl: bool,
}

impl Args {
    fn signature_form(&self) -> SignatureForm {
        SignatureForm {
            require_low_s: self.require_low_s,
            require_x_only_r: self.require_x_only_r,
        }
    }
}

/// Loads the trust directory with the options of the command line; prints the warnings.
fn load_trust(args: &Args, dir: &std::path::Path, now: TaiTime) -> anyhow::Result<TrustStore> {
    let options = TrustOptions {
        at: now,
        trust_lists: TrustListPolicy {
            insecure_accept_expired: args.insecure_accept_expired_trust_list,
        },
        insecure_allow_missing_crl: args.insecure_allow_missing_crl,
    };
    let loaded =
        load_trust_dir_with(dir, &options).with_context(|| format!("loading trust directory {}", dir.display()))?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    Ok(loaded.store)
}

fn parse_time(s: &str) -> anyhow::Result<TaiTime> {
    let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .with_context(|| format!("--at {s:?} is not an RFC 3339 time"))?;
    let nanos = t.unix_timestamp_nanos();
    if nanos < 0 {
        bail!("--at must be after 1970");
    }
    let nanos = u64::try_from(nanos).map_err(|_| anyhow!("--at out of range"))?;
    Ok(TaiTime::from_system_time(UNIX_EPOCH + Duration::from_nanos(nanos)))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let input = super::encap::read_input(&args.input)?;
    let now = match &args.at {
        Some(s) => parse_time(s)?,
        None => TaiTime::now(),
    };
    let (format, bytes) = super::legacy::locate_secured_message(&input);
    if format == WireFormat::V1_2_1 {
        return decap_v1_2_1(&args, bytes, now);
    }
    let store = match &args.trust {
        Some(dir) => load_trust(&args, dir, now)?,
        None if args.signature_only => TrustStore::new(),
        None => bail!("--trust DIR is required (unless --signature-only)"),
    };
    let mut entity = SecurityEntity::new(store);
    entity.policy_mut().signature_form = args.signature_form();
    entity.policy_mut().revocation.insecure_accept_stale_crl = args.insecure_accept_stale_crl;
    if args.insecure_accept_stale_crl {
        eprintln!("warning: --insecure-accept-stale-crl: chains are accepted without current revocation information");
    }
    if let (Some(station), Some(dir)) = (&args.station, &args.trust) {
        let pki =
            Pki::open(dir).with_context(|| format!("--station needs a PKI directory as --trust: {}", dir.display()))?;
        for t in pki.tickets(station)? {
            if let Some(k) = t.encryption_key {
                entity.add_decryption_key(t.certificate.clone(), k);
            }
        }
    }
    if args.signature_only {
        eprintln!("warning: --signature-only: only the message signature is checked (no chain, validity, permissions, freshness, replay)");
        entity.set_decap_mode(DecapMode::SignatureOnly);
    }
    let result = entity.decap_at(bytes, now);
    let mut out = std::io::stdout();
    match result {
        Ok(d) => {
            if args.json {
                let v = serde_json::json!({
                    "accepted": true,
                    "mode": match d.mode { DecapMode::Strict => "strict", DecapMode::SignatureOnly => "signature-only" },
                    "payload_hex": hex::encode(&d.payload),
                    "signed": d.signed,
                    "encrypted": d.encrypted,
                    "psid": d.psid.map(|p| p.value()),
                    "ssp_hex": d.ssp.as_ref().map(hex::encode),
                    "generation_time_us": d.generation_time.map(|t| t.0),
                    "signer": d.signer.as_ref().map(|c| c.hashed_id8().to_string()),
                    "region_checked": d.region_checked,
                });
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                out.write_all(&d.payload)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(r) => report_rejection(&args, &r),
    }
}

fn report_rejection(args: &Args, r: &Rejection) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout();
    if args.json {
        let v = serde_json::json!({ "accepted": false, "reason": r.reason.code(), "detail": r.detail });
        writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
    } else {
        writeln!(out, "rejected: {} ({})", r.reason.code(), r.detail)?;
    }
    Ok(ExitCode::from(1))
}

/// SN-DECAP of a legacy v1.2.1 message against the v1.2.1 credentials of a PKI directory.
fn decap_v1_2_1(args: &Args, bytes: &[u8], now: TaiTime) -> anyhow::Result<ExitCode> {
    if args.signature_only {
        bail!("--signature-only is available for v2 messages only; v1.2.1 messages are always checked strictly");
    }
    let dir = args
        .trust
        .as_ref()
        .ok_or_else(|| anyhow!("--trust DIR (a PKI directory with v1.2.1 credentials) is required"))?;
    let mut entity = super::legacy::v1_receiver(dir, args.station.as_deref())?;
    entity.policy.signature_form = args.signature_form();
    match entity.decap(bytes, now) {
        Ok(d) => {
            let mut out = std::io::stdout();
            if args.json {
                let v = serde_json::json!({
                    "accepted": true,
                    "format": "v1.2.1",
                    "mode": "strict",
                    "payload_hex": hex::encode(&d.payload),
                    "payload_type": d.payload_type.name(),
                    "its_aid": d.its_aid,
                    "generation_time_us": d.generation_time.map(|t| t.0),
                    "signer": d.signer.map(hex::encode),
                });
                writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
            } else {
                out.write_all(&d.payload)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(r) => report_rejection(args, &r),
    }
}
