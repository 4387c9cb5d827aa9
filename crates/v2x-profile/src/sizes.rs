//! What a protocol puts on the air: security bytes per data packet (with a certificate
//! digest and with the full certificate), how often the certificate rides along, and TESLA's
//! key disclosure. The bench writes these from each protocol's `describe()` (real
//! encodings); shipped paper profiles carry the papers' sizes, marked as such.

use crate::variant::Variant;
use crate::vocab::ProtocolId;
use serde::{Deserialize, Serialize};

/// When a signed data packet carries the full certificate instead of its digest.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "policy", rename_all = "kebab-case", deny_unknown_fields)]
pub enum CertificatePolicy {
    /// Every n-th message (1609.2 BSM: every 5th, paper 001).
    EveryNth {
        n: u32,
    },
    /// Once per interval (ETSI CAM: once per second).
    Interval {
        interval_s: f64,
    },
    Always,
    Never,
    /// The first message, then only when due: asked for it through peer-to-peer certificate
    /// distribution (IEEE 1609.2 P2PCD), or a new station was heard (the simulator's
    /// `p2pcd` and `certificate_on_new_station`). Never on a timer.
    OnRequest,
}

/// How a TESLA receiver gets the key that verifies a packet.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyDisclosure {
    /// Time from a packet to the disclosure of its key (key interval x disclosure delay).
    pub delay_s: f64,
    /// Separate key packets: bytes of the key packet above the MAC (the simulator adds its
    /// MAC/LLC overhead), as measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_packet_bytes: Option<u32>,
    /// Separate key packets: bytes of the whole MAC frame, as a paper counts it (used as is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_frame_bytes: Option<u32>,
    /// Attached keys: bytes the key adds to the next data packet (0 when `overhead_bytes`
    /// already includes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attached_key_bytes: Option<u32>,
}

/// Where sizes come from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SizesSource {
    /// From `describe()` of the protocol implementation (real encodings) on this host.
    Measured,
    /// Published in a paper, transcribed.
    Paper { paper: String, table: String },
    /// Fixed by what the protocol is (no security: no bytes; raw ECDSA: the signature).
    Definition { note: String },
}

impl std::fmt::Display for SizesSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SizesSource::Measured => f.write_str("measured"),
            SizesSource::Paper { paper, table } => write!(f, "paper {paper} {table}"),
            SizesSource::Definition { note } => write!(f, "by definition: {note}"),
        }
    }
}

/// Sizes that cannot be right.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SizesError {
    #[error("overhead above 65535 bytes")]
    Overhead,
    #[error("the certificate policy needs n >= 1 or a positive interval")]
    Certificate,
    #[error("the key disclosure delay must be positive")]
    KeyDelay,
    #[error("a key disclosure needs exactly one of key_packet_bytes, key_frame_bytes, attached_key_bytes")]
    KeyForm,
}

/// Packet sizes and schedules of one protocol configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacketSizes {
    pub protocol: ProtocolId,
    /// The configuration the sizes belong to (layout, curve, message), e.g. `paper004`.
    #[serde(default, skip_serializing_if = "Variant::is_empty")]
    pub variant: Variant,
    pub source: SizesSource,
    /// Security bytes on a data packet (with a certificate digest where there is a choice).
    pub overhead_bytes: u32,
    /// Security bytes on a data packet carrying the full certificate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overhead_with_certificate_bytes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<CertificatePolicy>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_disclosure: Option<KeyDisclosure>,
}

impl PacketSizes {
    fn paper(protocol: ProtocolId, paper: &str, table: &str, overhead: u32) -> PacketSizes {
        PacketSizes {
            protocol,
            variant: Variant::default(),
            source: SizesSource::Paper {
                paper: paper.into(),
                table: table.into(),
            },
            overhead_bytes: overhead,
            overhead_with_certificate_bytes: None,
            certificate: None,
            key_disclosure: None,
        }
    }

    /// Checks that the sizes are plausible and the key disclosure complete.
    pub fn check(&self) -> Result<(), SizesError> {
        let big = |b: u32| b > 65_535;
        if big(self.overhead_bytes) || self.overhead_with_certificate_bytes.is_some_and(big) {
            return Err(SizesError::Overhead);
        }
        match self.certificate {
            Some(CertificatePolicy::EveryNth { n: 0 }) => return Err(SizesError::Certificate),
            Some(CertificatePolicy::Interval { interval_s }) if !(interval_s.is_finite() && interval_s > 0.0) => {
                return Err(SizesError::Certificate)
            }
            _ => {}
        }
        if let Some(k) = &self.key_disclosure {
            if !(k.delay_s.is_finite() && k.delay_s > 0.0) {
                return Err(SizesError::KeyDelay);
            }
            let forms = [k.key_packet_bytes, k.key_frame_bytes, k.attached_key_bytes]
                .iter()
                .filter(|x| x.is_some())
                .count();
            if forms != 1 {
                return Err(SizesError::KeyForm);
            }
        }
        Ok(())
    }

    /// The papers' sizes per protocol: what the simulator uses when a profile carries no
    /// sizes for a protocol (each marked with its source). `None` for the session-key
    /// schemes, whose paper gives no per-message sizes.
    pub fn paper_default(protocol: ProtocolId) -> Option<PacketSizes> {
        Some(match protocol {
            ProtocolId::None => PacketSizes {
                source: SizesSource::Definition {
                    note: "no security, no bytes".into(),
                },
                ..PacketSizes::paper(protocol, "", "", 0)
            },
            ProtocolId::Raw => PacketSizes {
                source: SizesSource::Definition {
                    note: "a raw ECDSA P-256 signature (r, s)".into(),
                },
                certificate: Some(CertificatePolicy::Never),
                ..PacketSizes::paper(protocol, "", "", 64)
            },
            ProtocolId::Ieee16092 => PacketSizes {
                overhead_with_certificate_bytes: Some(180),
                certificate: Some(CertificatePolicy::EveryNth { n: 5 }),
                ..PacketSizes::paper(
                    protocol,
                    "001",
                    "Table 1 (BSM: 93 B digest, 180 B certificate, every 5th)",
                    93,
                )
            },
            ProtocolId::EtsiV121 => PacketSizes {
                overhead_with_certificate_bytes: Some(288),
                certificate: Some(CertificatePolicy::Interval { interval_s: 1.0 }),
                ..PacketSizes::paper(
                    protocol,
                    "000",
                    "Table 6 / Fig. 10 (CAM: 106 B, + 182 B certificate once per second)",
                    106,
                )
            },
            ProtocolId::Tesla => PacketSizes {
                key_disclosure: Some(KeyDisclosure {
                    delay_s: 0.1,
                    key_packet_bytes: None,
                    key_frame_bytes: Some(43),
                    attached_key_bytes: None,
                }),
                ..PacketSizes::paper(protocol, "004", "§IV (10 B MAC + 4 B interval; 43 B key frames)", 14)
            },
            ProtocolId::TeslaAttached => PacketSizes {
                key_disclosure: Some(KeyDisclosure {
                    delay_s: 0.1,
                    key_packet_bytes: None,
                    key_frame_bytes: None,
                    attached_key_bytes: Some(10),
                }),
                ..PacketSizes::paper(
                    protocol,
                    "004",
                    "§IV (10 B MAC + 4 B interval; 10 B key on the next packet)",
                    14,
                )
            },
            ProtocolId::HashChain => PacketSizes::paper(
                protocol,
                "001",
                "Table 1 (20 B pseudo-ID + 12 B HMAC + 4 B key index + 4 B timestamp)",
                40,
            ),
            ProtocolId::TwoFlip => PacketSizes::paper(protocol, "001", "§8 (2FLIP: 47 B)", 47),
            ProtocolId::RayaHubaux | ProtocolId::Wang => return None,
            // No paper gives sizes for v2xsec's experimental formats: measured only.
            ProtocolId::ExperimentalPqOnlyMlDsa44
            | ProtocolId::ExperimentalPqOnlyFnDsa512
            | ProtocolId::ExperimentalCompositeMlDsa44
            | ProtocolId::ExperimentalCompositeFnDsa512
            | ProtocolId::ExperimentalPartiallyHybridNdss2024 => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_defaults_are_consistent() {
        for p in ProtocolId::ALL {
            let Some(s) = PacketSizes::paper_default(*p) else {
                continue;
            };
            assert_eq!(s.protocol, *p);
            s.check().unwrap();
            assert!(!matches!(s.source, SizesSource::Measured));
        }
        let s = PacketSizes::paper_default(ProtocolId::EtsiV121).unwrap();
        assert_eq!((s.overhead_bytes, s.overhead_with_certificate_bytes), (106, Some(288)));
    }

    #[test]
    fn check_rejects_ambiguous_key_disclosure() {
        let mut s = PacketSizes::paper_default(ProtocolId::Tesla).unwrap();
        if let Some(k) = s.key_disclosure.as_mut() {
            k.key_packet_bytes = Some(21);
        }
        assert!(s.check().is_err());
    }
}
