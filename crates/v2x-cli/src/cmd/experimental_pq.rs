//! `--experimental-pq DESIGN` of `pki init`, `encap` and `decap`: the EXPERIMENTAL
//! post-quantum designs of `v2x_security::pq` (no standard defines them). A design's PKI lives
//! beside the standard one in `PKI/experimental-pq/DESIGN/` (created on first use, under the
//! PKI's lock, as the v1.2.1 credentials are); each station gets a ticket of the design on
//! first use. A receiver names the design its policy requires: a message lacking a signature
//! part the design has (post-quantum, or the classical part of a hybrid) is refused as
//! `downgrade-refused`, another design as `incompatible-protocol`.

use anyhow::{anyhow, bail, Context};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use v2x_security::pq::store::PqPkiDir;
use v2x_security::pq::{PqDecapped, PqDesign, PqRejection};
use v2x_security::{ItsAid, Location, Pki, ProfileKind, TaiTime};
use v2x_wire::ieee1609dot2::assemble::GenerationLocation;

/// How long a command waits for another one holding the PKI's lock.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(10);

/// Parses a design name; the error lists the valid ones.
pub fn parse_design(s: &str) -> Result<PqDesign, String> {
    PqDesign::from_name(s)
}

/// The design's PKI under `pki`, created (root and AA) on first use.
pub fn open_or_create(pki: &Pki, design: PqDesign, now: TaiTime) -> anyhow::Result<PqPkiDir> {
    let _lock = pki.lock_within(LOCK_PATIENCE)?;
    PqPkiDir::open_or_create(pki.dir(), design, now)
        .with_context(|| format!("the experimental {design} PKI in {}", pki.dir().display()))
}

/// `pki init --experimental-pq`: the design's root, AA and a ticket for `station`.
pub fn init(pki: &Pki, design: PqDesign, station: &str) -> anyhow::Result<()> {
    let now = TaiTime::now();
    let d = open_or_create(pki, design, now)?;
    let _lock = pki.lock_within(LOCK_PATIENCE)?;
    let t = d.ticket(station, now)?;
    println!("EXPERIMENTAL {design} (no standard) in {}", d.dir().display());
    println!("  root     {}", d.pki().root().cert.id());
    println!("  AA       {}", d.pki().aa().cert.id());
    println!("  {station} ticket {}", t.cert.id());
    Ok(())
}

/// SN-ENCAP with `station`'s ticket of `design`; the message carries the whole ticket (each
/// run is a new sender, and the CAM rule sends the certificate when none went out in the
/// last second).
pub fn encap(
    pki: &Pki,
    design: PqDesign,
    station: &str,
    kind: ProfileKind,
    psid: Option<ItsAid>,
    payload: &[u8],
    location: Option<Location>,
) -> anyhow::Result<Vec<u8>> {
    let now = TaiTime::now();
    let d = open_or_create(pki, design, now)?;
    let ticket = {
        let _lock = pki.lock_within(LOCK_PATIENCE)?;
        d.ticket(station, now)?
    };
    let psid = match (kind, psid) {
        (_, Some(p)) => p,
        (ProfileKind::Denm, None) => ItsAid::DENM,
        _ => ItsAid::CAM,
    };
    if ticket.cert.permission_for(psid).is_none() {
        bail!("the experimental ticket of {station} does not permit PSID {psid} (it permits CAM and DENM)");
    }
    let location = location.map(|l| GenerationLocation {
        latitude: l.point.lat,
        longitude: l.point.lon,
        elevation: l.elevation,
    });
    let mut tx = d.pki().sender(ticket);
    tx.encap(payload, psid, location, now, true)
        .map_err(|e| anyhow!("experimental SN-ENCAP: {e}"))
}

fn accepted_json(design: PqDesign, d: &PqDecapped) -> serde_json::Value {
    serde_json::json!({
        "accepted": true,
        "format": "experimental-pq",
        "design": design.name(),
        "payload_hex": hex::encode(&d.payload),
        "psid": d.psid.value(),
        "ssp_hex": d.ssp.as_ref().map(hex::encode),
        "generation_time_us": d.generation_time.0,
        "signer": d.signer.to_string(),
    })
}

fn rejected_json(r: &PqRejection) -> serde_json::Value {
    serde_json::json!({
        "accepted": false,
        "reason": r.rejection.reason.code(),
        "detail": r.rejection.detail,
        "step": r.step.name(),
    })
}

/// SN-DECAP of `messages` (label, receive time, bytes) in order by one receiver of `design`
/// trusting the design's PKI under `trust`. Exit 1 when any is rejected.
pub fn decap(
    trust: &Path,
    design: PqDesign,
    messages: &[(String, TaiTime, Vec<u8>)],
    json: bool,
    batch: bool,
) -> anyhow::Result<ExitCode> {
    let d = PqPkiDir::open(trust, design, TaiTime::now())?;
    let mut rx = d.pki().receiver();
    let mut out = std::io::stdout();
    let mut rejected = 0usize;
    for (label, at, bytes) in messages {
        match rx.decap_at(bytes, *at) {
            Ok(m) => {
                let mut v = accepted_json(design, &m);
                match (json, batch) {
                    (true, true) => {
                        v["message"] = label.clone().into();
                        writeln!(out, "{}", serde_json::to_string(&v)?)?
                    }
                    (true, false) => writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?,
                    (false, true) => writeln!(
                        out,
                        "{label}: accepted psid={} signer={} payload={}",
                        m.psid.value(),
                        m.signer,
                        hex::encode(&m.payload)
                    )?,
                    (false, false) => out.write_all(&m.payload)?,
                }
            }
            Err(r) => {
                rejected += 1;
                let mut v = rejected_json(&r);
                match (json, batch) {
                    (true, true) => {
                        v["message"] = label.clone().into();
                        writeln!(out, "{}", serde_json::to_string(&v)?)?
                    }
                    (true, false) => writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?,
                    (false, true) => writeln!(
                        out,
                        "{label}: rejected: {} ({})",
                        r.rejection.reason.code(),
                        r.rejection.detail
                    )?,
                    (false, false) => {
                        writeln!(out, "rejected: {} ({})", r.rejection.reason.code(), r.rejection.detail)?
                    }
                }
            }
        }
    }
    if batch {
        eprintln!(
            "{} messages: {} accepted, {} rejected",
            messages.len(),
            messages.len() - rejected,
            rejected
        );
    }
    Ok(if rejected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Whether `bytes` look like an experimental message (its 0xE1 first octet).
pub fn looks_experimental(bytes: &[u8]) -> bool {
    bytes.first() == Some(&v2x_wire::experimental_pq::MAGIC)
}
