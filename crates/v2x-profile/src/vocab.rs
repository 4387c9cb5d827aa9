//! The vocabulary bench, profiles and simulator share: which protocol, which operation,
//! and the [`CostKey`] that names one measured or published cost.

use crate::named_enum;
use crate::names::UnknownName;
use crate::variant::{Variant, VariantError};
use serde::{Deserialize, Serialize};
use std::fmt;

named_enum! {
    /// A security protocol (or `raw` for primitives measured without framing).
    pub enum ProtocolId ("protocol") {
        /// No security (baseline).
        None = "none",
        /// Primitives straight on OpenSSL / v2x-crypto (ECDSA, ECDH, ECIES, AES-CCM, HMAC, SHA).
        Raw = "raw",
        /// IEEE 1609.2 / ETSI TS 103 097 v2 (C-OER).
        Ieee16092 = "ieee1609.2",
        /// ETSI TS 103 097 v1.2.1.
        EtsiV121 = "etsi-v1.2.1",
        /// TESLA with separate key packets.
        Tesla = "tesla",
        /// TESLA with the key attached to the next data packet.
        TeslaAttached = "tesla-attached",
        /// Hash-chain HMAC with pseudo-identities (paper 001).
        HashChain = "hash-chain",
        /// 2FLIP (Wang et al., as characterised in paper 001).
        TwoFlip = "2flip",
        /// Raya–Hubaux session keys (paper 003).
        RayaHubaux = "raya-hubaux",
        /// Wang et al. session keys (paper 003).
        Wang = "wang",
        /// EXPERIMENTAL, no standard: ML-DSA-44 alone signs certificates and messages.
        ExperimentalPqOnlyMlDsa44 = "experimental-pq-only-ml-dsa-44",
        /// EXPERIMENTAL, no standard: FN-DSA-512 alone signs certificates and messages.
        ExperimentalPqOnlyFnDsa512 = "experimental-pq-only-fn-dsa-512",
        /// EXPERIMENTAL, no standard: composite ECDSA P-256 + ML-DSA-44 everywhere.
        ExperimentalCompositeMlDsa44 = "experimental-composite-ml-dsa-44",
        /// EXPERIMENTAL, no standard: composite ECDSA P-256 + FN-DSA-512 everywhere.
        ExperimentalCompositeFnDsa512 = "experimental-composite-fn-dsa-512",
        /// EXPERIMENTAL, no standard: NDSS 2024 Partially Hybrid as v2xsec reads it (ECDSA
        /// P-256 message signatures, ECDSA P-256 + FN-DSA-512 certificate signatures).
        ExperimentalPartiallyHybridNdss2024 = "experimental-partially-hybrid-ndss2024",
    }
}

impl ProtocolId {
    /// Whether messages carry a certificate or its digest (the standard formats).
    pub fn uses_certificates(self) -> bool {
        matches!(self, ProtocolId::Ieee16092 | ProtocolId::EtsiV121)
    }

    /// TESLA in either key-disclosure mode.
    pub fn is_tesla(self) -> bool {
        matches!(self, ProtocolId::Tesla | ProtocolId::TeslaAttached)
    }

    /// One of the experimental post-quantum designs (`experimental-…`; no standard defines
    /// them, see `v2x_security::pq`).
    pub fn is_experimental_pq(self) -> bool {
        matches!(
            self,
            ProtocolId::ExperimentalPqOnlyMlDsa44
                | ProtocolId::ExperimentalPqOnlyFnDsa512
                | ProtocolId::ExperimentalCompositeMlDsa44
                | ProtocolId::ExperimentalCompositeFnDsa512
                | ProtocolId::ExperimentalPartiallyHybridNdss2024
        )
    }
}

named_enum! {
    /// What was measured or published.
    ///
    /// `encap` / `decap` are the security service (SN-ENCAP / SN-DECAP or a protocol's
    /// `Authenticator::encap` / `decap`) at any security level; the variant's `level`
    /// (sign, encrypt, sign+encrypt) says which. `sign` / `verify` are raw ECDSA. The
    /// `raw-*`, `crypto-*`, `*-unsigned` and `decap-signature-only` operations are the parts
    /// of the bench's breakdown suite.
    pub enum Operation ("operation") {
        Encap = "encap",
        Decap = "decap",
        Sign = "sign",
        Verify = "verify",
        Ecdh = "ecdh",
        EciesWrap = "ecies-wrap",
        EciesUnwrap = "ecies-unwrap",
        Aes128CcmEncrypt = "aes128-ccm-encrypt",
        Aes128CcmDecrypt = "aes128-ccm-decrypt",
        HmacSha256 = "hmac-sha256",
        HmacSha1 = "hmac-sha1",
        Sha256 = "sha256",
        RawSign = "raw-sign",
        RawVerify = "raw-verify",
        CryptoSign = "crypto-sign",
        CryptoVerify = "crypto-verify",
        EncapUnsigned = "encap-unsigned",
        DecapUnsigned = "decap-unsigned",
        DecapSignatureOnly = "decap-signature-only",
    }
}

/// One cost: protocol, operation and variant, written `protocol/operation/variant`
/// (e.g. `ieee1609.2/decap/p256/cam/sign/digest/100`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CostKey {
    pub protocol: ProtocolId,
    pub operation: Operation,
    pub variant: Variant,
}

/// A cost key that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CostKeyError {
    #[error("cost key `{0}`: expected protocol/operation[/variant]")]
    Shape(String),
    #[error(transparent)]
    Name(#[from] UnknownName),
    #[error(transparent)]
    Variant(#[from] VariantError),
}

impl std::str::FromStr for CostKey {
    type Err = CostKeyError;
    fn from_str(s: &str) -> Result<CostKey, CostKeyError> {
        let mut parts = s.splitn(3, '/');
        let (Some(p), Some(o)) = (parts.next(), parts.next()) else {
            return Err(CostKeyError::Shape(s.into()));
        };
        Ok(CostKey::new(
            p.parse()?,
            o.parse()?,
            parts.next().unwrap_or("").parse()?,
        ))
    }
}

impl Serialize for CostKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CostKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str> as Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl CostKey {
    pub fn new(protocol: ProtocolId, operation: Operation, variant: Variant) -> CostKey {
        CostKey {
            protocol,
            operation,
            variant,
        }
    }
}

impl fmt::Display for CostKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.protocol, self.operation, self.variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_lists_valid() {
        for p in ProtocolId::ALL {
            assert_eq!(p.name().parse::<ProtocolId>().unwrap(), *p);
        }
        for o in Operation::ALL {
            assert_eq!(o.name().parse::<Operation>().unwrap(), *o);
        }
        let e = "tesal".parse::<ProtocolId>().unwrap_err();
        let msg = e.to_string();
        assert!(msg.contains("unknown protocol `tesal`"), "{msg}");
        assert!(msg.contains("tesla-attached") && msg.contains("2flip"), "{msg}");
        let json: ProtocolId = serde_json::from_str("\"ieee1609.2\"").unwrap();
        assert_eq!(json, ProtocolId::Ieee16092);
        assert_eq!(
            serde_json::to_string(&Operation::Aes128CcmEncrypt).unwrap(),
            "\"aes128-ccm-encrypt\""
        );
        let key: CostKey = "ieee1609.2/decap/p256/cam/sign/digest/100".parse().unwrap();
        assert_eq!(key.variant.to_string(), "p256/cam/sign/digest/100");
        assert_eq!(key.to_string(), "ieee1609.2/decap/p256/cam/sign/digest/100");
        assert_eq!(
            serde_json::to_string(&key).unwrap(),
            "\"ieee1609.2/decap/p256/cam/sign/digest/100\""
        );
        assert!("raw".parse::<CostKey>().is_err());
        let bad = serde_json::from_str::<Operation>("\"verfy\"").unwrap_err().to_string();
        assert!(bad.contains("valid: encap, decap, sign, verify"), "{bad}");
    }
}
