use openssl::nid::Nid;
use serde::{Deserialize, Serialize};

/// The elliptic curves of IEEE 1609.2 / ETSI TS 103 097.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Curve {
    /// NIST P-256 (secp256r1), used with SHA-256.
    #[serde(rename = "p256")]
    NistP256,
    /// NIST P-384 (secp384r1), used with SHA-384.
    #[serde(rename = "p384")]
    NistP384,
    /// brainpoolP256r1, used with SHA-256.
    #[serde(rename = "bp256")]
    BrainpoolP256r1,
    /// brainpoolP384r1, used with SHA-384.
    #[serde(rename = "bp384")]
    BrainpoolP384r1,
}

/// Hash algorithms used by the curves above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HashAlg {
    Sha256,
    Sha384,
}

impl HashAlg {
    pub const fn output_len(self) -> usize {
        match self {
            HashAlg::Sha256 => 32,
            HashAlg::Sha384 => 48,
        }
    }
}

impl Curve {
    pub const ALL: [Curve; 4] = [
        Curve::NistP256,
        Curve::NistP384,
        Curve::BrainpoolP256r1,
        Curve::BrainpoolP384r1,
    ];

    /// Length in bytes of a field element / scalar.
    pub const fn field_len(self) -> usize {
        match self {
            Curve::NistP256 | Curve::BrainpoolP256r1 => 32,
            Curve::NistP384 | Curve::BrainpoolP384r1 => 48,
        }
    }

    /// The hash 1609.2 pairs with the curve (also the hash used for HashedId8 of
    /// certificates whose issuer signed with this curve).
    pub const fn hash_alg(self) -> HashAlg {
        match self {
            Curve::NistP256 | Curve::BrainpoolP256r1 => HashAlg::Sha256,
            Curve::NistP384 | Curve::BrainpoolP384r1 => HashAlg::Sha384,
        }
    }

    pub(crate) fn nid(self) -> Nid {
        match self {
            Curve::NistP256 => Nid::X9_62_PRIME256V1,
            Curve::NistP384 => Nid::SECP384R1,
            Curve::BrainpoolP256r1 => Nid::BRAINPOOL_P256R1,
            Curve::BrainpoolP384r1 => Nid::BRAINPOOL_P384R1,
        }
    }

    /// Short name as used on the command line (`p256`, `p384`, `bp256`, `bp384`).
    pub const fn short_name(self) -> &'static str {
        match self {
            Curve::NistP256 => "p256",
            Curve::NistP384 => "p384",
            Curve::BrainpoolP256r1 => "bp256",
            Curve::BrainpoolP384r1 => "bp384",
        }
    }

    pub fn from_short_name(s: &str) -> Option<Curve> {
        Curve::ALL.into_iter().find(|c| c.short_name().eq_ignore_ascii_case(s))
    }
}

impl std::fmt::Display for Curve {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.short_name())
    }
}
