//! What a variant puts on the air: security bytes per message (with a digest, with the
//! certificate), when the certificate rides along, and TESLA's key frames. From the
//! profile's sizes for the protocol (the configuration the verify cost names), else the
//! papers'; scenario keys override both.

use super::SizesUse;
use crate::error::CostsError;
use crate::scenario::{CertificatePolicy, VariantConfig};
use v2x_profile::{PacketSizes, ProcessorProfile, ProfileSource, ProtocolId, SizesSource, Variant};

/// A variant's sizes, resolved.
pub(super) struct Sizes {
    pub overhead_digest: u32,
    pub overhead_certificate: u32,
    pub certificate: CertificatePolicy,
    pub tesla_disclosure_s: f64,
    pub tesla_key_frame_bytes: u32,
    pub tesla_attached_key_bytes: u32,
    pub used: SizesUse,
}

/// Resolves the sizes of `v` (protocol `kind`) against `profile`; `verify_variant` is the
/// verify row's variant (its message selects the profile's sizes); `mac_overhead_bytes`
/// turns a measured TESLA key packet into a whole frame.
pub(super) fn resolve(
    v: &VariantConfig,
    kind: ProtocolId,
    profile: Option<&ProcessorProfile>,
    verify_variant: &Variant,
    mac_overhead_bytes: u32,
) -> Result<Sizes, CostsError> {
    let size_key = Variant {
        message: verify_variant.message,
        ..Variant::default()
    };
    let from_profile = profile.and_then(|p| {
        p.sizes_for(kind, &size_key)
            .map(|s| (s.clone(), format!("profile {} ({})", p.name, s.source)))
    });
    let measured = profile.is_some_and(|p| matches!(p.source, ProfileSource::Measured { .. }));
    let overridden = v.overhead_bytes.is_some();
    let (sizes, mut source) = match from_profile {
        Some(s) => s,
        None => {
            let s = PacketSizes::paper_default(kind).ok_or_else(|| {
                CostsError::Missing(format!("no packet sizes for {kind} in the profile or the papers"))
            })?;
            // A measured profile's costs never meet a paper's sizes unannounced.
            if measured && !overridden && matches!(s.source, SizesSource::Paper { .. }) {
                return Err(CostsError::Missing(format!(
                    "the measured profile has no packet sizes for {kind}: measure them with \
                     `v2x bench --suite protocols` or set `overhead_bytes`"
                )));
            }
            let origin = format!("default: {}", s.source);
            (s, origin)
        }
    };
    if v.overhead_bytes.is_some() || v.overhead_with_certificate_bytes.is_some() {
        source = format!("scenario (overhead_bytes); otherwise {source}");
    }
    let key = sizes.key_disclosure;
    let overhead_digest = v.overhead_bytes.unwrap_or(sizes.overhead_bytes);
    let overhead_certificate = v
        .overhead_with_certificate_bytes
        .or(v.overhead_bytes)
        .unwrap_or(sizes.overhead_with_certificate_bytes.unwrap_or(sizes.overhead_bytes));
    let certificate = v.certificate.or(sizes.certificate).unwrap_or(CertificatePolicy::Never);
    let disclosure_s = v.tesla_disclosure_delay_s.or(key.map(|k| k.delay_s)).unwrap_or(0.1);
    let key_frame = v
        .tesla_key_frame_bytes
        .or(key.and_then(|k| k.key_frame_bytes))
        .or(key.and_then(|k| k.key_packet_bytes).map(|b| b + mac_overhead_bytes))
        .unwrap_or(43);
    let attached = v
        .tesla_attached_key_bytes
        .or(key.and_then(|k| k.attached_key_bytes))
        .unwrap_or(10);
    Ok(Sizes {
        overhead_digest,
        overhead_certificate,
        certificate,
        tesla_disclosure_s: disclosure_s,
        tesla_key_frame_bytes: key_frame,
        tesla_attached_key_bytes: attached,
        used: SizesUse {
            source,
            overhead_bytes: overhead_digest,
            overhead_with_certificate_bytes: overhead_certificate,
            certificate,
            tesla_key_frame_bytes: (kind == ProtocolId::Tesla).then_some(key_frame),
            tesla_attached_key_bytes: (kind == ProtocolId::TeslaAttached).then_some(attached),
            tesla_disclosure_delay_s: (kind == ProtocolId::Tesla).then_some(disclosure_s),
        },
    })
}
