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
use v2x_security::receiver_state::ReceiverState;
use v2x_security::{
    load_trust_dir_with, Certificate, DecapMode, Decapped, Pki, Rejection, SecurityEntity, SignatureForm, TaiTime,
    TrustListPolicy, TrustOptions, TrustStore,
};

#[derive(clap::Args)]
pub struct Args {
    /// A PKI directory, or a directory of root certificates (.oer), ECTLs and CRLs.
    #[arg(long)]
    trust: Option<PathBuf>,
    /// The secured message ('-' for stdin); with --batch, a pcap capture or a text stream
    /// of hex messages, one per line.
    #[arg(long = "in")]
    input: PathBuf,
    /// Receiver state kept between runs in this directory (created if missing): the
    /// certificates learnt from earlier messages, so digest-signed messages verify, and
    /// the replay window, so a copy received in a later run is rejected as a duplicate.
    #[arg(long)]
    state: Option<PathBuf>,
    /// Process every message of --in in order, as a receiver sees them: a pcap (each
    /// record at its capture time unless --at) or hex lines (blank lines and lines
    /// starting with '#' skipped). One verdict line per message; exit 1 if any is rejected.
    #[arg(long)]
    batch: bool,
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
    /// A CA certificate (C-OER file) to build chains with, e.g. the AA of a foreign root
    /// whose messages carry only the ticket (repeatable). Nothing is trusted by this: the
    /// chain must still end at a root of --trust.
    #[arg(long = "issuer-cert")]
    issuer_certs: Vec<PathBuf>,
    /// Decrypt with this recipient private key (PEM), the key of --decrypt-cert.
    #[arg(long, requires = "decrypt_cert")]
    decrypt_key: Option<PathBuf>,
    /// The certificate (C-OER) whose encryption key --decrypt-key is.
    #[arg(long, requires = "decrypt_key")]
    decrypt_cert: Option<PathBuf>,
    /// Tolerate senders whose clock omits the leap seconds since 2004 (e.g. Vanetza): their
    /// generation times run 5 s behind TAI and every message would look 5 s old. Named
    /// and opt-in: it widens the freshness window by 5 s for every sender.
    #[arg(long)]
    sender_clock_omits_leap_seconds: bool,
    /// INSECURE lab option: trust a PKI directory whose CRL is missing (with a warning).
    #[arg(long)]
    insecure_allow_missing_crl: bool,
    /// INSECURE lab option: accept chains whose root's CRL is past its nextUpdate (its
    /// entries still apply).
    #[arg(long)]
    insecure_accept_stale_crl: bool,
    /// EXPERIMENTAL (no standard): receive the post-quantum design DESIGN and nothing else
    /// (a message lacking a signature part DESIGN has, post-quantum or classical, is refused as
    /// downgrade-refused; other designs as incompatible-protocol), trusting the design's PKI in TRUST/experimental-pq/DESIGN/:
    /// experimental-pq-only-ml-dsa-44, experimental-pq-only-fn-dsa-512,
    /// experimental-composite-ml-dsa-44, experimental-composite-fn-dsa-512,
    /// experimental-partially-hybrid-ndss2024.
    #[arg(long, value_name = "DESIGN", value_parser = super::experimental_pq::parse_design, requires = "trust",
          conflicts_with_all = ["state", "signature_only", "issuer_certs", "decrypt_key", "station", "require_low_s",
                                "require_x_only_r", "sender_clock_omits_leap_seconds", "insecure_allow_missing_crl",
                                "insecure_accept_stale_crl", "insecure_accept_expired_trust_list"])]
    experimental_pq: Option<v2x_security::pq::PqDesign>,
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

pub fn parse_time(s: &str) -> anyhow::Result<TaiTime> {
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
    let input = super::input::read_input(&args.input)?;
    let now = match &args.at {
        Some(s) => parse_time(s)?,
        None => TaiTime::now(),
    };
    if let (Some(design), Some(trust)) = (args.experimental_pq, &args.trust) {
        let messages = if args.batch {
            let at = args.at.as_deref().map(parse_time).transpose()?;
            batch_messages(&input, at, now)?
                .into_iter()
                .map(|m| (m.label, m.at, m.bytes))
                .collect()
        } else {
            vec![("message".to_string(), now, input)]
        };
        return super::experimental_pq::decap(trust, design, &messages, args.json, args.batch);
    }
    if args.batch {
        return run_batch(&args, &input, now);
    }
    let (format, bytes) = super::legacy::locate_secured_message(&input);
    if format == WireFormat::V1_2_1 {
        if args.state.is_some() {
            bail!("--state is available for v2 messages only");
        }
        return decap_v1_2_1(&args, bytes, now);
    }
    let mut receiver = Receiver::open(&args, now)?;
    let result = receiver.entity.decap_at(bytes, now);
    receiver.save()?;
    let mut out = std::io::stdout();
    match result {
        Ok(d) => {
            if args.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&accepted_json(&d))?)?;
            } else {
                out.write_all(&d.payload)?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(r) => {
            if super::experimental_pq::looks_experimental(bytes) {
                eprintln!("note: this is an EXPERIMENTAL post-quantum message (0xE1): receive it with --experimental-pq DESIGN");
            }
            report_rejection(&args, &r)
        }
    }
}

/// The v2 receiver of one run: its entity and, with --state, the state it is saved to.
struct Receiver {
    entity: SecurityEntity,
    state: Option<ReceiverState>,
}

impl Receiver {
    fn open(args: &Args, now: TaiTime) -> anyhow::Result<Receiver> {
        let mut entity = v2_entity(args, now)?;
        let state = match &args.state {
            Some(dir) => {
                let state = ReceiverState::open(dir, Duration::from_secs(10))
                    .with_context(|| format!("--state {}", dir.display()))?;
                let loaded = state.load_into(&mut entity, now)?;
                for d in &loaded.dropped {
                    eprintln!("warning: --state: learnt certificate no longer valid, dropped: {d}");
                }
                tracing::debug!(
                    certificates = loaded.certificates,
                    replay_entries = loaded.replay_entries,
                    "receiver state loaded"
                );
                Some(state)
            }
            None => None,
        };
        Ok(Receiver { entity, state })
    }

    fn save(&self) -> anyhow::Result<()> {
        if let Some(s) = &self.state {
            s.save(&self.entity)?;
        }
        Ok(())
    }
}

/// The v2 SN-DECAP entity the command line describes.
fn v2_entity(args: &Args, now: TaiTime) -> anyhow::Result<SecurityEntity> {
    let store = match &args.trust {
        Some(dir) => load_trust(args, dir, now)?,
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
    for path in &args.issuer_certs {
        let bytes = std::fs::read(path).with_context(|| format!("--issuer-cert {}", path.display()))?;
        let cert = Certificate::from_bytes(&bytes).with_context(|| format!("--issuer-cert {}", path.display()))?;
        if !cert.is_ca() {
            bail!(
                "--issuer-cert {}: not a CA certificate (it has no certIssuePermissions)",
                path.display()
            );
        }
        entity.trust_store_mut().add_ca_certificate(std::sync::Arc::new(cert));
    }
    if let (Some(key), Some(cert)) = (&args.decrypt_key, &args.decrypt_cert) {
        let c = std::fs::read(cert).with_context(|| format!("--decrypt-cert {}", cert.display()))?;
        let c = Certificate::from_bytes(&c).with_context(|| format!("--decrypt-cert {}", cert.display()))?;
        let curve = c
            .encryption_key()
            .ok_or_else(|| {
                anyhow!(
                    "--decrypt-cert {}: the certificate has no encryption key",
                    cert.display()
                )
            })?
            .curve();
        let pem = std::fs::read(key).with_context(|| format!("--decrypt-key {}", key.display()))?;
        let k = v2x_crypto::PrivateKey::from_pem(curve, &pem)
            .with_context(|| format!("--decrypt-key {}: not a {curve:?} private key in PEM", key.display()))?;
        if c.encryption_key() != Some(k.public_key()) {
            bail!(
                "--decrypt-key {} is not the key of --decrypt-cert {}",
                key.display(),
                cert.display()
            );
        }
        entity.add_decryption_key(std::sync::Arc::new(c), k);
    }
    if args.sender_clock_omits_leap_seconds {
        eprintln!("warning: --sender-clock-omits-leap-seconds: generation times are read 5 s later (freshness window widened by 5 s)");
        entity.policy_mut().sender_clock_lag = v2x_security::LEAP_SECONDS_SINCE_2004;
    }
    if args.signature_only {
        eprintln!("warning: --signature-only: only the message signature is checked (no chain, validity, permissions, freshness, replay)");
        entity.set_decap_mode(DecapMode::SignatureOnly);
    }
    Ok(entity)
}

fn accepted_json(d: &Decapped) -> serde_json::Value {
    serde_json::json!({
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
    })
}

/// One message of a batch: where it came from, when it was received, its bytes.
struct Received {
    label: String,
    at: TaiTime,
    bytes: Vec<u8>,
}

/// The messages of a batch input, in order.
fn batch_messages(input: &[u8], at: Option<TaiTime>, now: TaiTime) -> anyhow::Result<Vec<Received>> {
    if v2x_wire::pcap::looks_like_pcap(input) {
        let records = v2x_wire::pcap::read_pcap(input).context("reading the pcap")?;
        let mut out = Vec::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            let frame =
                v2x_wire::pcap::EthernetFrame::parse(r.data).with_context(|| format!("pcap record {}", i + 1))?;
            let captured = TaiTime::from_system_time(UNIX_EPOCH + Duration::from_micros(r.unix_micros));
            out.push(Received {
                label: format!("record {}", i + 1),
                at: at.unwrap_or(captured),
                bytes: frame.payload.to_vec(),
            });
        }
        return Ok(out);
    }
    let text = std::str::from_utf8(input)
        .map_err(|_| anyhow!("--batch input is neither a pcap capture nor text (hex messages, one per line)"))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bytes = hex::decode(line.replace([' ', ':'], ""))
            .with_context(|| format!("--batch input line {}: not a hex message", i + 1))?;
        out.push(Received {
            label: format!("line {}", i + 1),
            at: at.unwrap_or(now),
            bytes,
        });
    }
    Ok(out)
}

/// `--batch`: every message in order through one receiver (and its --state).
fn run_batch(args: &Args, input: &[u8], now: TaiTime) -> anyhow::Result<ExitCode> {
    let at = args.at.as_deref().map(parse_time).transpose()?;
    let messages = batch_messages(input, at, now)?;
    let mut receiver = Receiver::open(args, now)?;
    let mut out = std::io::stdout();
    let mut rejected = 0usize;
    for m in &messages {
        let (format, bytes) = super::legacy::locate_secured_message(&m.bytes);
        let verdict = if format == WireFormat::V1_2_1 {
            Err(Rejection::new(
                v2x_security::RejectReason::IncompatibleProtocol,
                "v1.2.1 message: --batch takes v2 messages (decap v1.2.1 messages one by one)",
            ))
        } else {
            receiver.entity.decap_at(bytes, m.at)
        };
        match verdict {
            Ok(d) => {
                if args.json {
                    let mut v = accepted_json(&d);
                    v["message"] = m.label.clone().into();
                    writeln!(out, "{}", serde_json::to_string(&v)?)?;
                } else {
                    writeln!(
                        out,
                        "{}: accepted psid={} signer={} payload={}",
                        m.label,
                        d.psid.map(|p| p.value().to_string()).unwrap_or_else(|| "-".into()),
                        d.signer
                            .as_ref()
                            .map(|c| c.hashed_id8().to_string())
                            .unwrap_or_else(|| "-".into()),
                        hex::encode(&d.payload)
                    )?;
                }
            }
            Err(r) => {
                rejected += 1;
                if args.json {
                    let v = serde_json::json!({ "message": m.label, "accepted": false, "reason": r.reason.code(), "detail": r.detail });
                    writeln!(out, "{}", serde_json::to_string(&v)?)?;
                } else {
                    writeln!(out, "{}: rejected: {} ({})", m.label, r.reason.code(), r.detail)?;
                }
            }
        }
    }
    receiver.save()?;
    eprintln!(
        "{} messages: {} accepted, {} rejected",
        messages.len(),
        messages.len() - rejected,
        rejected
    );
    Ok(if rejected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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
        eprintln!("warning: --signature-only: only the message signature is checked (no chain, validity, permissions, freshness, replay)");
        let verdict = v2x_security::v1_2_1::decap_signature_only(bytes);
        return report_v1(args, verdict, "signature-only");
    }
    if !args.issuer_certs.is_empty() || args.decrypt_key.is_some() {
        bail!("--issuer-cert and --decrypt-key are available for v2 messages; for v1.2.1 put the CA certificates (*.cert) in the --trust directory");
    }
    let dir = args.trust.as_ref().ok_or_else(|| {
        anyhow!("--trust DIR (a PKI directory with v1.2.1 credentials, or a directory of v1.2.1 root and AA *.cert files) is required")
    })?;
    let mut entity = super::legacy::v1_receiver(dir, args.station.as_deref())?;
    entity.policy.signature_form = args.signature_form();
    // A sender clock lagging TAI makes messages look older: judge them at an earlier now.
    let now = if args.sender_clock_omits_leap_seconds {
        eprintln!("warning: --sender-clock-omits-leap-seconds: generation times are read 5 s later (freshness window widened by 5 s)");
        now.saturating_sub(v2x_security::LEAP_SECONDS_SINCE_2004)
    } else {
        now
    };
    report_v1(args, entity.decap(bytes, now), "strict")
}

fn report_v1(
    args: &Args,
    verdict: Result<v2x_security::v1_2_1::V1Accepted, Rejection>,
    mode: &str,
) -> anyhow::Result<ExitCode> {
    match verdict {
        Ok(d) => {
            let mut out = std::io::stdout();
            if args.json {
                let v = serde_json::json!({
                    "accepted": true,
                    "format": "v1.2.1",
                    "mode": mode,
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
