//! The experimental post-quantum designs: which scheme signs certificates, which key a ticket
//! holds and what signs each message. Named `experimental-…`: no standard defines them.

use v2x_crypto::pq::{PqAlgorithm, SignatureScheme};
use v2x_crypto::Curve;
use v2x_wire::experimental_pq::scheme_id;

/// One experimental design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PqDesign {
    /// Every certificate and every message signed with one post-quantum algorithm alone.
    PqOnly(PqAlgorithm),
    /// Every certificate and every message signed with the composite ECDSA P-256 + algorithm
    /// (both parts checked).
    Composite(PqAlgorithm),
    /// The NDSS 2024 "Partially Hybrid" design as far as could be read (Twardokus, Bindel,
    /// Rahbari, McCarthy, ePrint 2022/483; the authors' PQ-V2Verifier artifact): ECDSA P-256
    /// signs every message with the ticket's ECDSA key, while certificates are signed by their
    /// CA with both ECDSA P-256 and FN-DSA-512 (here: the composite of the two).
    PartiallyHybrid,
}

impl PqDesign {
    /// Every design offered, in a stable order.
    pub const ALL: [PqDesign; 5] = [
        PqDesign::PqOnly(PqAlgorithm::MlDsa44),
        PqDesign::PqOnly(PqAlgorithm::FnDsa512),
        PqDesign::Composite(PqAlgorithm::MlDsa44),
        PqDesign::Composite(PqAlgorithm::FnDsa512),
        PqDesign::PartiallyHybrid,
    ];

    pub fn name(self) -> String {
        match self {
            PqDesign::PqOnly(a) => format!("experimental-pq-only-{}", a.name()),
            PqDesign::Composite(a) => format!("experimental-composite-{}", a.name()),
            PqDesign::PartiallyHybrid => "experimental-partially-hybrid-ndss2024".into(),
        }
    }

    /// Parses a name of [`PqDesign::ALL`]; the error lists the valid names.
    pub fn from_name(name: &str) -> Result<PqDesign, String> {
        Self::ALL.into_iter().find(|d| d.name() == name).ok_or_else(|| {
            let names: Vec<String> = Self::ALL.into_iter().map(PqDesign::name).collect();
            format!("unknown post-quantum design {name:?}; valid: {}", names.join(", "))
        })
    }

    /// The design octet of the message.
    pub const fn wire_id(self) -> u8 {
        match self {
            PqDesign::PqOnly(_) => 1,
            PqDesign::Composite(_) => 2,
            PqDesign::PartiallyHybrid => 3,
        }
    }

    /// What signs certificates (root, authority, tickets).
    pub const fn certificate_scheme(self) -> SignatureScheme {
        match self {
            PqDesign::PqOnly(a) => SignatureScheme::Pq(a),
            PqDesign::Composite(a) => SignatureScheme::Composite(a),
            PqDesign::PartiallyHybrid => SignatureScheme::Composite(PqAlgorithm::FnDsa512),
        }
    }

    /// What signs messages (the ticket's key).
    pub const fn message_scheme(self) -> SignatureScheme {
        match self {
            PqDesign::PqOnly(a) => SignatureScheme::Pq(a),
            PqDesign::Composite(a) => SignatureScheme::Composite(a),
            PqDesign::PartiallyHybrid => SignatureScheme::Ecdsa(Curve::NistP256),
        }
    }
}

impl std::fmt::Display for PqDesign {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// The scheme identifier written for `scheme`.
pub const fn scheme_wire_id(scheme: SignatureScheme) -> u8 {
    match scheme {
        SignatureScheme::Ecdsa(Curve::NistP256) => scheme_id::ECDSA_P256,
        SignatureScheme::Ecdsa(Curve::NistP384) => scheme_id::ECDSA_P384,
        SignatureScheme::Ecdsa(Curve::BrainpoolP256r1) => scheme_id::ECDSA_BP256,
        SignatureScheme::Ecdsa(Curve::BrainpoolP384r1) => scheme_id::ECDSA_BP384,
        SignatureScheme::Pq(PqAlgorithm::MlDsa44) => scheme_id::ML_DSA_44,
        SignatureScheme::Pq(PqAlgorithm::MlDsa65) => scheme_id::ML_DSA_65,
        SignatureScheme::Pq(PqAlgorithm::MlDsa87) => scheme_id::ML_DSA_87,
        SignatureScheme::Pq(PqAlgorithm::FnDsa512) => scheme_id::FN_DSA_512,
        SignatureScheme::Pq(PqAlgorithm::FnDsa1024) => scheme_id::FN_DSA_1024,
        SignatureScheme::Pq(PqAlgorithm::SlhDsaSha2_128s) => scheme_id::SLH_DSA_SHA2_128S,
        SignatureScheme::Pq(PqAlgorithm::SlhDsaShake128f) => scheme_id::SLH_DSA_SHAKE_128F,
        SignatureScheme::Composite(PqAlgorithm::FnDsa512) => scheme_id::ECDSA_P256_FN_DSA_512,
        // The only other composite offered.
        SignatureScheme::Composite(_) => scheme_id::ECDSA_P256_ML_DSA_44,
    }
}

/// The scheme an identifier names (`None`: unknown identifier).
pub fn scheme_from_wire_id(id: u8) -> Option<SignatureScheme> {
    SignatureScheme::all().into_iter().find(|&s| scheme_wire_id(s) == id)
}
