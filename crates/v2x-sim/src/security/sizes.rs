//! What a variant puts on the air: security bytes per message (with a digest, with the
//! certificate), when the certificate rides along, and TESLA's key frames. From the
//! profile's sizes for the protocol (the configuration the verify cost names), else the
//! papers'; scenario keys override both. The experimental designs: from their real encoder
//! only ([`encoded`]).

use super::{Setting, SizeEncoder, SizesUse};
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
    /// The certificate schedule, where a default chose it.
    pub setting: Option<Setting>,
}

/// The certificate schedule of an experimental design the scenario leaves open: once per
/// second, the design's default (`v2x_protocols::experimental_pq`) and the 1609.2 CAM rule.
const PQ_DEFAULT_CERTIFICATE: CertificatePolicy = CertificatePolicy::Interval { interval_s: 1.0 };

/// The sizes of experimental design `kind`: a CAM of `payload_bytes` encoded by `encoder`
/// (the real one); refused without it.
pub(super) fn encoded(
    v: &VariantConfig,
    kind: ProtocolId,
    encoder: Option<&dyn SizeEncoder>,
    payload_bytes: u32,
) -> Result<Sizes, CostsError> {
    let encoder = encoder.ok_or_else(|| {
        CostsError::Missing(format!(
            "the sizes of {kind} come from its real encoder: run the scenario with `v2x sim` (crate v2x-sim-crypto)"
        ))
    })?;
    let e = encoder
        .encode(kind, payload_bytes)
        .map_err(|m| CostsError::Missing(format!("encoding a CAM of {kind}: {m}")))?;
    let (certificate, setting) = match v.certificate {
        Some(c) => (c, None),
        None => (
            PQ_DEFAULT_CERTIFICATE,
            Some(Setting {
                name: "certificate",
                value: "once per second".into(),
                from: "default: the experimental designs' schedule (once per second, the 1609.2 CAM rule)".into(),
            }),
        ),
    };
    Ok(Sizes {
        overhead_digest: e.digest_bytes,
        overhead_certificate: e.certificate_bytes,
        certificate,
        tesla_disclosure_s: 0.1,
        tesla_key_frame_bytes: 0,
        tesla_attached_key_bytes: 0,
        used: SizesUse {
            source: format!(
                "real encoder: {} (a CAM of {payload_bytes} B encoded at load)",
                e.encoder
            ),
            overhead_bytes: e.digest_bytes,
            overhead_with_certificate_bytes: e.certificate_bytes,
            certificate,
            tesla_key_frame_bytes: None,
            tesla_attached_key_bytes: None,
            tesla_disclosure_delay_s: None,
        },
        setting,
    })
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
        setting: None,
    })
}
