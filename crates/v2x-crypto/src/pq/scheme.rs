//! Signature schemes as data: every algorithm v2xsec signs with, its name and its sizes.

use crate::Curve;
use serde::{Deserialize, Serialize};

/// A post-quantum signature algorithm (FIPS 204, draft FIPS 206, FIPS 205).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PqAlgorithm {
    #[serde(rename = "ml-dsa-44")]
    MlDsa44,
    #[serde(rename = "ml-dsa-65")]
    MlDsa65,
    #[serde(rename = "ml-dsa-87")]
    MlDsa87,
    /// FN-DSA (Falcon) of degree 512, as fn-dsa 0.4 implements the unpublished draft.
    #[serde(rename = "fn-dsa-512")]
    FnDsa512,
    #[serde(rename = "fn-dsa-1024")]
    FnDsa1024,
    /// SLH-DSA-SHA2-128s (reference only: 7,856-byte signatures).
    #[serde(rename = "slh-dsa-sha2-128s")]
    SlhDsaSha2_128s,
    /// SLH-DSA-SHAKE-128f (reference only: 17,088-byte signatures).
    #[serde(rename = "slh-dsa-shake-128f")]
    SlhDsaShake128f,
}

impl PqAlgorithm {
    pub const ALL: [PqAlgorithm; 7] = [
        PqAlgorithm::MlDsa44,
        PqAlgorithm::MlDsa65,
        PqAlgorithm::MlDsa87,
        PqAlgorithm::FnDsa512,
        PqAlgorithm::FnDsa1024,
        PqAlgorithm::SlhDsaSha2_128s,
        PqAlgorithm::SlhDsaShake128f,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            PqAlgorithm::MlDsa44 => "ml-dsa-44",
            PqAlgorithm::MlDsa65 => "ml-dsa-65",
            PqAlgorithm::MlDsa87 => "ml-dsa-87",
            PqAlgorithm::FnDsa512 => "fn-dsa-512",
            PqAlgorithm::FnDsa1024 => "fn-dsa-1024",
            PqAlgorithm::SlhDsaSha2_128s => "slh-dsa-sha2-128s",
            PqAlgorithm::SlhDsaShake128f => "slh-dsa-shake-128f",
        }
    }

    /// Public (verifying) key bytes (FIPS 204 Table 2, FIPS 205 Table 2, fn-dsa's sizes).
    pub const fn public_key_len(self) -> usize {
        match self {
            PqAlgorithm::MlDsa44 => 1312,
            PqAlgorithm::MlDsa65 => 1952,
            PqAlgorithm::MlDsa87 => 2592,
            PqAlgorithm::FnDsa512 => 897,
            PqAlgorithm::FnDsa1024 => 1793,
            PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => 32,
        }
    }

    /// Signature bytes (fixed for every algorithm here: fn-dsa pads to a fixed length).
    pub const fn signature_len(self) -> usize {
        match self {
            PqAlgorithm::MlDsa44 => 2420,
            PqAlgorithm::MlDsa65 => 3309,
            PqAlgorithm::MlDsa87 => 4627,
            PqAlgorithm::FnDsa512 => 666,
            PqAlgorithm::FnDsa1024 => 1280,
            PqAlgorithm::SlhDsaSha2_128s => 7856,
            PqAlgorithm::SlhDsaShake128f => 17088,
        }
    }

    /// NIST security category.
    pub const fn nist_category(self) -> u8 {
        match self {
            PqAlgorithm::MlDsa44 => 2,
            PqAlgorithm::MlDsa65 => 3,
            PqAlgorithm::MlDsa87 | PqAlgorithm::FnDsa1024 => 5,
            PqAlgorithm::FnDsa512 | PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => 1,
        }
    }

    /// The published document the algorithm follows.
    pub const fn standard(self) -> &'static str {
        match self {
            PqAlgorithm::MlDsa44 | PqAlgorithm::MlDsa65 | PqAlgorithm::MlDsa87 => "FIPS 204",
            PqAlgorithm::FnDsa512 | PqAlgorithm::FnDsa1024 => {
                "draft FIPS 206 (not yet published; fn-dsa 0.4's reading)"
            }
            PqAlgorithm::SlhDsaSha2_128s | PqAlgorithm::SlhDsaShake128f => "FIPS 205",
        }
    }
}

/// Every signature scheme behind [`crate::pq::SigningKey`] / [`crate::pq::VerifyingKey`]:
/// classical ECDSA, a post-quantum algorithm alone, or an experimental composite of ECDSA
/// P-256 and a post-quantum algorithm (both components must verify).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignatureScheme {
    Ecdsa(Curve),
    Pq(PqAlgorithm),
    /// ECDSA P-256 + ML-DSA-44 or FN-DSA-512 (v2xsec's experimental composite, not a standard).
    Composite(PqAlgorithm),
}

impl SignatureScheme {
    /// The composites offered (the two; others are refused by name).
    pub const COMPOSITE_PQ: [PqAlgorithm; 2] = [PqAlgorithm::MlDsa44, PqAlgorithm::FnDsa512];

    /// Every scheme, in a stable order (classical first).
    pub fn all() -> Vec<SignatureScheme> {
        let mut v: Vec<SignatureScheme> = Curve::ALL.into_iter().map(SignatureScheme::Ecdsa).collect();
        v.extend(PqAlgorithm::ALL.into_iter().map(SignatureScheme::Pq));
        v.extend(Self::COMPOSITE_PQ.into_iter().map(SignatureScheme::Composite));
        v
    }

    pub fn name(self) -> String {
        match self {
            SignatureScheme::Ecdsa(c) => format!("ecdsa-{}", c.short_name()),
            SignatureScheme::Pq(a) => a.name().to_string(),
            SignatureScheme::Composite(a) => format!("ecdsa-p256+{}", a.name()),
        }
    }

    /// Parses a name of [`SignatureScheme::all`]; the error lists the valid names.
    pub fn from_name(name: &str) -> Result<SignatureScheme, String> {
        Self::all()
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                let names: Vec<String> = Self::all().into_iter().map(|s| s.name()).collect();
                format!("unknown signature scheme {name:?}; valid: {}", names.join(", "))
            })
    }

    /// Bytes of the public key as v2xsec encodes it (ECDSA: compressed point).
    pub const fn public_key_len(self) -> usize {
        match self {
            SignatureScheme::Ecdsa(c) => 1 + c.field_len(),
            SignatureScheme::Pq(a) => a.public_key_len(),
            SignatureScheme::Composite(a) => 33 + a.public_key_len(),
        }
    }

    /// Bytes of a signature (ECDSA: x-only r and s).
    pub const fn signature_len(self) -> usize {
        match self {
            SignatureScheme::Ecdsa(c) => 2 * c.field_len(),
            SignatureScheme::Pq(a) => a.signature_len(),
            SignatureScheme::Composite(a) => 64 + a.signature_len(),
        }
    }

    /// Whether forging needs more than breaking elliptic-curve discrete logs.
    pub const fn is_post_quantum(self) -> bool {
        !matches!(self, SignatureScheme::Ecdsa(_))
    }

    /// Whether the scheme has a classical (ECDSA) component.
    pub const fn has_classical(self) -> bool {
        !matches!(self, SignatureScheme::Pq(_))
    }
}

impl std::fmt::Display for SignatureScheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}
