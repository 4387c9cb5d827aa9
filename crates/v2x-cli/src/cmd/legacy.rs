//! The TS 103 097 v1.2.1 side of a PKI directory, shared by `encap`, `decap` and `pcap`.
//!
//! A v2 PKI (`v2x pki init`) carries its legacy credentials in `DIR/v1.2.1/`: `root` and
//! `aa` (created on first use with the PKI's curve and the v2 root's validity), the root's
//! CRL `root.crl` (see `v2x_security::v1_2_1::crl`) and one ticket per station in
//! `DIR/v1.2.1/stations/NAME/at` (issued on first use, valid as long as the PKI's v2
//! tickets).

use anyhow::Context;
use std::path::Path;
use v2x_security::v1_2_1::{load_v1_trust_dir, Credential, V1Entity, V1PkiDir};
use v2x_security::Pki;

/// The message format a command reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum WireFormat {
    /// IEEE 1609.2 / ETSI TS 103 097 v2 (C-OER).
    V2,
    /// Legacy ETSI TS 103 097 v1.2.1.
    #[value(name = "v1.2.1")]
    V1_2_1,
}

/// Opens (creating on first use) the v1.2.1 root, AA and CRL beside the v2 PKI.
pub fn v1_pki_dir(pki: &Pki) -> anyhow::Result<V1PkiDir> {
    V1PkiDir::beside(pki).with_context(|| {
        format!(
            "opening the v1.2.1 credentials in {}",
            pki.dir().join(v2x_security::v1_2_1::pki_dir::SUBDIR).display()
        )
    })
}

/// The v1.2.1 security entity of station `name`, with its ticket (issued on first use).
pub fn v1_entity(pki: &Pki, v1: &V1PkiDir, name: &str) -> anyhow::Result<V1Entity> {
    let ticket_days = u32::try_from(pki.config().ticket_validity_secs / 86_400)
        .unwrap_or(u32::MAX)
        .max(1);
    let ticket = v1
        .ticket_beside(pki, name, ticket_days)
        .with_context(|| format!("the v1.2.1 ticket of station {name}"))?;
    Ok(v1.entity(ticket)?)
}

/// A v1.2.1 receiving entity trusting `dir` ([`load_v1_trust_dir`]: the v1.2.1 root, AA and
/// CRL of a PKI directory, or the `*.cert` and `*.crl` files of a directory), holding the
/// ticket of `station`, to decrypt, when given. Read only; prints the trust warnings.
pub fn v1_receiver(dir: &Path, station: Option<&str>, allow_missing_crl: bool) -> anyhow::Result<V1Entity> {
    let sub = dir.join(v2x_security::v1_2_1::pki_dir::SUBDIR);
    if station.is_some() && !sub.is_dir() {
        anyhow::bail!("--station needs a PKI directory with v1.2.1 credentials as --trust");
    }
    let loaded = load_v1_trust_dir(dir, allow_missing_crl)
        .with_context(|| format!("loading the v1.2.1 trust configuration of {}", dir.display()))?;
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let authorities: Vec<_> = loaded.store.authorities().cloned().collect();
    let ticket = match station {
        Some(name) => {
            let sdir = sub.join("stations").join(name);
            Some(
                Credential::load(&sdir, "at")
                    .with_context(|| format!("loading the v1.2.1 ticket in {}", sdir.display()))?,
            )
        }
        None => None,
    };
    Ok(V1Entity::new(ticket, authorities, loaded.store))
}

/// Finds the secured message in `bytes` and its format
/// ([`v2x_wire::format::locate_secured_message`]).
pub fn locate_secured_message(bytes: &[u8]) -> (WireFormat, &[u8]) {
    let (format, message) = v2x_wire::format::locate_secured_message(bytes);
    let format = match format {
        v2x_wire::format::MessageFormat::V2 => WireFormat::V2,
        v2x_wire::format::MessageFormat::V1_2_1 => WireFormat::V1_2_1,
    };
    (format, message)
}
