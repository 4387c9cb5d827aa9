//! `v2x decap`: SN-DECAP of a secured message against a trust directory.
//!
//! Exit 0 with the payload on stdout when accepted; exit 1 with the reason code when
//! rejected; exit 2 on errors (unreadable files, bad arguments, and input that is not a
//! secured message at all: see [`malformed`]).

use super::legacy::WireFormat;
use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};
use v2x_security::receiver_state::{Loaded, ReceiverState};
use v2x_security::v1_2_1::{V1Accepted, V1Entity, V1TrustStore};
use v2x_security::{
    load_trust_dir_with, Certificate, DecapMode, Decapped, Pki, Rejection, RevocationPolicy, SecurityEntity,
    SignatureForm, TaiTime, TrustListPolicy, TrustOptions, TrustStore,
};

#[derive(clap::Args)]
pub struct Args {
    /// A PKI directory, or a directory of root certificates (.oer), ECTLs and CRLs.
    #[arg(long)]
    trust: Option<PathBuf>,
    /// The secured message ('-' for stdin), binary or hex text (as `inspect` reads it);
    /// with --batch, a pcap capture or a text stream of hex messages, one per line.
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
    /// INSECURE lab option: trust a PKI directory whose CRL is missing, the roots of a
    /// certificate directory without their CRL, or a CRL issuer --state has seen and --trust
    /// lacks (with a warning).
    #[arg(long)]
    insecure_allow_missing_crl: bool,
    /// INSECURE lab option: accept chains whose root's CRL is past its nextUpdate (its
    /// entries still apply).
    #[arg(long)]
    insecure_accept_stale_crl: bool,
    /// INSECURE lab option: do not check chain lengths (minChainLength, chainLengthRange) —
    /// for test PKIs whose root keeps the defaults (1, 0) and so may not have an AA below it
    /// (Vanetza's test chain). PSID/SSP ranges and eeType are still checked.
    #[arg(long)]
    insecure_lenient_chain_length: bool,
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
    let input = v2x_wire::inspect::decode_input(&input);
    let (format, bytes) = super::legacy::locate_secured_message(&input);
    // An experimental post-quantum message is well formed in its own format: SN-DECAP refuses
    // it (incompatible-protocol, exit 1) and the note below says how to read it.
    if format == WireFormat::V2 && !super::experimental_pq::looks_experimental(bytes) {
        if let Some(why) = malformed(bytes) {
            bail!(
                "{}: malformed input, not a secured message (IEEE 1609.2 / TS 103 097 v2 or v1.2.1, bare or in \
                 GeoNetworking): {why}",
                args.input.display()
            );
        }
    }
    let mut receiver = Receiver::open(&args, now, &[format])?;
    let result = receiver.decap(format, bytes, now);
    receiver.save()?;
    let mut out = std::io::stdout();
    match result {
        Ok(d) => {
            if args.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&d.json())?)?;
            } else {
                out.write_all(d.payload())?;
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

/// Why `bytes` do not decode as an `Ieee1609Dot2Data` whatever its protocol version: such
/// input is malformed (exit 2, as an unreadable file). A well-formed message of another
/// protocol version is not malformed: SN-DECAP rejects it (`incompatible-protocol`, exit 1).
fn malformed(bytes: &[u8]) -> Option<String> {
    let mut as_v3 = bytes.to_vec();
    match as_v3.first_mut() {
        None => return Some("empty input".into()),
        Some(version) => *version = 3,
    }
    v2x_wire::ieee1609dot2::parse_data(&as_v3)
        .err()
        .map(|e| format!("invalid-encoding: {e}"))
}

/// What SN-DECAP accepted, in either format.
enum Accepted {
    V2(Decapped),
    V1 { accepted: V1Accepted, mode: &'static str },
}

impl Accepted {
    fn payload(&self) -> &[u8] {
        match self {
            Accepted::V2(d) => &d.payload,
            Accepted::V1 { accepted, .. } => &accepted.payload,
        }
    }

    fn json(&self) -> serde_json::Value {
        match self {
            Accepted::V2(d) => serde_json::json!({
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
            }),
            Accepted::V1 { accepted: d, mode } => serde_json::json!({
                "accepted": true,
                "format": "v1.2.1",
                "mode": mode,
                "payload_hex": hex::encode(&d.payload),
                "payload_type": d.payload_type.name(),
                "its_aid": d.its_aid,
                "generation_time_us": d.generation_time.map(|t| t.0),
                "signer": d.signer.map(hex::encode),
            }),
        }
    }

    /// One line of a batch: the PSID / ITS-AID, the signer and the payload.
    fn summary(&self) -> String {
        let (psid, signer) = match self {
            Accepted::V2(d) => (
                d.psid.map(|p| p.value()),
                d.signer.as_ref().map(|c| c.hashed_id8().to_string()),
            ),
            Accepted::V1 { accepted: d, .. } => (d.its_aid, d.signer.map(hex::encode)),
        };
        format!(
            "psid={} signer={} payload={}",
            psid.map(|p| p.to_string()).unwrap_or_else(|| "-".into()),
            signer.unwrap_or_else(|| "-".into()),
            hex::encode(self.payload())
        )
    }
}

/// The receiver of one run: an SN-DECAP entity per format it has messages of and, with
/// --state, the state both are restored from and saved to.
struct Receiver {
    v2: Option<SecurityEntity>,
    v1: Option<V1Entity>,
    state: Option<ReceiverState>,
    signature_only: bool,
    /// How far v1.2.1 senders' clocks lag TAI (--sender-clock-omits-leap-seconds): their
    /// messages are judged that much earlier.
    v1_lag: Duration,
}

impl Receiver {
    fn open(args: &Args, now: TaiTime, formats: &[WireFormat]) -> anyhow::Result<Receiver> {
        if args.signature_only {
            eprintln!("warning: --signature-only: only the message signature is checked (no chain, validity, permissions, freshness, replay)");
        }
        let v1_lag = if args.sender_clock_omits_leap_seconds {
            eprintln!("warning: --sender-clock-omits-leap-seconds: generation times are read 5 s later (freshness window widened by 5 s)");
            v2x_security::LEAP_SECONDS_SINCE_2004
        } else {
            Duration::ZERO
        };
        let mut state = match &args.state {
            Some(dir) => Some(
                ReceiverState::open(dir, Duration::from_secs(10))
                    .with_context(|| format!("--state {}", dir.display()))?,
            ),
            None => None,
        };
        let v2 = match formats.contains(&WireFormat::V2) {
            true => {
                let mut entity = v2_entity(args, now)?;
                if let Some(state) = &mut state {
                    let loaded = state.load_into(&mut entity, now, args.insecure_allow_missing_crl)?;
                    report_loaded(args, &loaded, "");
                }
                Some(entity)
            }
            false => None,
        };
        let v1 = match formats.contains(&WireFormat::V1_2_1) {
            true => {
                let mut entity = v1_entity(args)?;
                if let Some(state) = &mut state {
                    let loaded = state.load_v1_into(
                        &mut entity,
                        now.saturating_sub(v1_lag),
                        args.insecure_allow_missing_crl,
                        args.signature_only,
                    )?;
                    report_loaded(args, &loaded, "v1.2.1 ");
                }
                Some(entity)
            }
            false => None,
        };
        Ok(Receiver {
            v2,
            v1,
            state,
            signature_only: args.signature_only,
            v1_lag,
        })
    }

    /// SN-DECAP of one message of `format` received at `at`.
    fn decap(&mut self, format: WireFormat, bytes: &[u8], at: TaiTime) -> Result<Accepted, Rejection> {
        let missing = || {
            Rejection::new(
                v2x_security::RejectReason::IncompatibleProtocol,
                "no receiver for this format was opened",
            )
        };
        match format {
            WireFormat::V2 => Ok(Accepted::V2(self.v2.as_mut().ok_or_else(missing)?.decap_at(bytes, at)?)),
            WireFormat::V1_2_1 => {
                let entity = self.v1.as_mut().ok_or_else(missing)?;
                if self.signature_only {
                    let accepted = entity.decap_signature_only(bytes)?;
                    Ok(Accepted::V1 {
                        accepted,
                        mode: "signature-only",
                    })
                } else {
                    let accepted = entity.decap(bytes, at.saturating_sub(self.v1_lag))?;
                    Ok(Accepted::V1 {
                        accepted,
                        mode: "strict",
                    })
                }
            }
        }
    }

    fn save(&self) -> anyhow::Result<()> {
        if let Some(s) = &self.state {
            s.save(self.v2.as_ref(), self.v1.as_ref())?;
        }
        Ok(())
    }
}

/// Prints what loading --state found that the user should know.
fn report_loaded(args: &Args, loaded: &Loaded, format: &str) {
    for d in &loaded.dropped {
        eprintln!("warning: --state: learnt {format}certificate no longer valid, dropped: {d}");
    }
    for issuer in &loaded.missing_crls {
        if args.insecure_allow_missing_crl {
            eprintln!("warning: --state has seen a {format}CRL of {issuer} that --trust lacks; trusting its chains without it (--insecure-allow-missing-crl)");
        } else {
            eprintln!("warning: --state has seen a {format}CRL of {issuer} that --trust lacks: chains under it are refused (revocation-status-unknown)");
        }
    }
    tracing::debug!(
        certificates = loaded.certificates,
        replay_entries = loaded.replay_entries,
        "{format}receiver state loaded"
    );
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
    if args.insecure_lenient_chain_length {
        eprintln!("warning: --insecure-lenient-chain-length: chain lengths are not checked (lab data only)");
        entity
            .trust_store_mut()
            .set_chain_length(v2x_security::permissions::issuance::ChainLength::InsecureLenient);
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
        let bytes = super::input::read_file(path).with_context(|| format!("--issuer-cert {}", path.display()))?;
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
        let c = super::input::read_file(cert).with_context(|| format!("--decrypt-cert {}", cert.display()))?;
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
        let pem = super::input::read_file(key).with_context(|| format!("--decrypt-key {}", key.display()))?;
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
        entity.policy_mut().sender_clock_lag = v2x_security::LEAP_SECONDS_SINCE_2004;
    }
    if args.signature_only {
        entity.set_decap_mode(DecapMode::SignatureOnly);
    }
    Ok(entity)
}

/// The v1.2.1 SN-DECAP entity the command line describes.
fn v1_entity(args: &Args) -> anyhow::Result<V1Entity> {
    if args.signature_only {
        return Ok(V1Entity::new(None, Vec::new(), V1TrustStore::new()));
    }
    if !args.issuer_certs.is_empty() || args.decrypt_key.is_some() {
        bail!("--issuer-cert and --decrypt-key are available for v2 messages; for v1.2.1 put the CA certificates (*.cert) in the --trust directory");
    }
    let dir = args.trust.as_ref().ok_or_else(|| {
        anyhow!("--trust DIR (a PKI directory with v1.2.1 credentials, or a directory of v1.2.1 root and AA *.cert files and their *.crl) is required")
    })?;
    let mut entity = super::legacy::v1_receiver(dir, args.station.as_deref(), args.insecure_allow_missing_crl)?;
    entity.policy.signature_form = args.signature_form();
    entity.store.set_revocation_policy(RevocationPolicy {
        insecure_accept_stale_crl: args.insecure_accept_stale_crl,
        ..RevocationPolicy::default()
    });
    Ok(entity)
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
    let mut formats: Vec<WireFormat> = Vec::new();
    for m in &messages {
        let (format, _) = super::legacy::locate_secured_message(&m.bytes);
        if !formats.contains(&format) {
            formats.push(format);
        }
    }
    let mut receiver = Receiver::open(args, now, &formats)?;
    let mut out = std::io::stdout();
    let mut rejected = 0usize;
    for m in &messages {
        let (format, bytes) = super::legacy::locate_secured_message(&m.bytes);
        match receiver.decap(format, bytes, m.at) {
            Ok(d) => {
                if args.json {
                    let mut v = d.json();
                    v["message"] = m.label.clone().into();
                    writeln!(out, "{}", serde_json::to_string(&v)?)?;
                } else {
                    writeln!(out, "{}: accepted {}", m.label, d.summary())?;
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
