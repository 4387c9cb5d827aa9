//! Why SN-DECAP rejected a message.
//!
//! The vocabulary follows the SN-DECAP report values of ETSI TS 102 723-8 and the
//! verification results of IEEE 1609.2 (§5.2, §6.4); where those lump several causes
//! together (e.g. "invalid certificate") we keep the causes apart so a test or a user
//! can see exactly which check failed. `code()` gives a stable kebab-case name for
//! exit reports and JSON.

use serde::{Deserialize, Serialize};

/// A typed rejection reason. Every check in validation maps to exactly one variant.
/// Serialised (and read back, e.g. from a log) as its [`RejectReason::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RejectReason {
    /// The bytes do not decode (or carry trailing bytes / non-canonical encoding).
    InvalidEncoding,
    /// Protocol version other than the one this decoder implements.
    IncompatibleProtocol,
    /// The profile requires a signature and the message is unsigned.
    UnsignedMessage,
    /// The profile requires encryption and the message is not encrypted.
    UnencryptedMessage,
    /// The signer is a digest that matches no known certificate (a P2PCD request follows).
    SignerCertificateNotFound,
    /// Signer identifier type not allowed by the profile (e.g. `self` for a CAM).
    UnsupportedSignerIdentifierType,
    /// The message's own signature does not verify.
    FalseSignature,
    /// A certificate in the chain is malformed or uses unsupported options.
    InvalidCertificate,
    /// An issuer's signature on a certificate in the chain does not verify.
    InvalidChainSignature,
    /// The chain does not end at a configured trust anchor.
    UntrustedRoot,
    /// A CA certificate of the chain (e.g. the AA of a ticket) is neither in the trust store
    /// nor in the message: the chain cannot be built (a P2PCD request follows for an AA).
    IssuerCertificateNotFound,
    /// The message generation time is outside a certificate's validity period.
    CertificateExpired,
    /// The message generation time is before a certificate's validity start.
    CertificateNotYetValid,
    /// A certificate's validity or region is not within its issuer's.
    InconsistentChain,
    /// A certificate in the chain is on a revocation list.
    RevokedCertificate,
    /// A CRL is expected from the chain's root but none is held, or the one held is past
    /// its nextUpdate: whether a certificate is revoked cannot be told.
    RevocationStatusUnknown,
    /// The generation location is outside the certificate's region.
    OutsideRegion,
    /// The certificate does not permit the message's PSID / ITS-AID.
    PsidNotPermitted,
    /// The certificate permits the PSID but not the SSP the message needs.
    SspNotPermitted,
    /// The SSP restricts what a CAM/DENM may say, and the payload does not decode as a
    /// CAM/DENM this receiver reads: whether the SSP allows it cannot be told (fails closed).
    SspUnverifiable,
    /// The generation time is older than the profile's freshness limit.
    StaleMessage,
    /// The generation time is further in the future than the allowed clock skew.
    FutureMessage,
    /// The message was already received (replay / duplicate).
    DuplicateMessage,
    /// Required header field missing (e.g. generation location in a DENM).
    MissingHeaderField,
    /// No recipient info matches a key this station holds.
    NotForThisRecipient,
    /// Key unwrap or AES-CCM authentication failed.
    DecryptionFailed,
    /// A weaker security design than the receiver's policy requires: an experimental
    /// post-quantum message or certificate with its post-quantum part stripped, classical
    /// where the policy requires hybrid, or of a weaker design (`v2x_security::pq`).
    DowngradeRefused,
    // --- lightweight protocols (v2x-protocols) ---
    /// A message authentication code (HMAC) does not verify.
    FalseMac,
    /// The key needed to verify is not held: key index outside the table, no session
    /// key for this peer, TESLA key for the interval not (yet) disclosed.
    UnknownKey,
    /// A disclosed TESLA key does not hash back to the sender's authenticated chain.
    InvalidKey,
    /// TESLA safe-packet test failed: the sender may already have disclosed the key of
    /// the packet's interval, so anyone could have forged it.
    KeyAlreadyDisclosed,
    /// The sender's pseudo-identity has been revoked by the CA.
    RevokedIdentity,
    /// No commitment, registration or session exists for the claimed sender.
    UnknownSender,
    /// The bounded buffer of packets waiting for a key is full.
    PendingBufferFull,
    /// A packet waited for its key longer than allowed and was dropped.
    PendingExpired,
}

impl RejectReason {
    pub fn code(self) -> &'static str {
        match self {
            RejectReason::InvalidEncoding => "invalid-encoding",
            RejectReason::IncompatibleProtocol => "incompatible-protocol",
            RejectReason::UnsignedMessage => "unsigned-message",
            RejectReason::UnencryptedMessage => "unencrypted-message",
            RejectReason::SignerCertificateNotFound => "signer-certificate-not-found",
            RejectReason::UnsupportedSignerIdentifierType => "unsupported-signer-identifier-type",
            RejectReason::FalseSignature => "false-signature",
            RejectReason::InvalidCertificate => "invalid-certificate",
            RejectReason::InvalidChainSignature => "invalid-chain-signature",
            RejectReason::UntrustedRoot => "untrusted-root",
            RejectReason::IssuerCertificateNotFound => "issuer-certificate-not-found",
            RejectReason::CertificateExpired => "certificate-expired",
            RejectReason::CertificateNotYetValid => "certificate-not-yet-valid",
            RejectReason::InconsistentChain => "inconsistent-chain",
            RejectReason::RevokedCertificate => "revoked-certificate",
            RejectReason::RevocationStatusUnknown => "revocation-status-unknown",
            RejectReason::OutsideRegion => "outside-region",
            RejectReason::PsidNotPermitted => "psid-not-permitted",
            RejectReason::SspNotPermitted => "ssp-not-permitted",
            RejectReason::SspUnverifiable => "ssp-unverifiable",
            RejectReason::StaleMessage => "stale-message",
            RejectReason::FutureMessage => "future-message",
            RejectReason::DuplicateMessage => "duplicate-message",
            RejectReason::MissingHeaderField => "missing-header-field",
            RejectReason::NotForThisRecipient => "not-for-this-recipient",
            RejectReason::DecryptionFailed => "decryption-failed",
            RejectReason::DowngradeRefused => "downgrade-refused",
            RejectReason::FalseMac => "false-mac",
            RejectReason::UnknownKey => "unknown-key",
            RejectReason::InvalidKey => "invalid-key",
            RejectReason::KeyAlreadyDisclosed => "key-already-disclosed",
            RejectReason::RevokedIdentity => "revoked-identity",
            RejectReason::UnknownSender => "unknown-sender",
            RejectReason::PendingBufferFull => "pending-buffer-full",
            RejectReason::PendingExpired => "pending-expired",
        }
    }
}

impl std::fmt::Display for RejectReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// One step of SN-DECAP, in the order SN-DECAP runs them (what each checks:
/// [`crate::entity::decap`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecapStep {
    Decode,
    Decrypt,
    Content,
    HeaderFields,
    Freshness,
    Signer,
    ReplayLookup,
    MessageSignature,
    Chain,
    CertificateValidity,
    Revocation,
    Region,
    Permissions,
}

impl DecapStep {
    /// Every step, in the order SN-DECAP runs them.
    pub const ORDER: [DecapStep; 13] = [
        DecapStep::Decode,
        DecapStep::Decrypt,
        DecapStep::Content,
        DecapStep::HeaderFields,
        DecapStep::Freshness,
        DecapStep::Signer,
        DecapStep::ReplayLookup,
        DecapStep::MessageSignature,
        DecapStep::Chain,
        DecapStep::CertificateValidity,
        DecapStep::Revocation,
        DecapStep::Region,
        DecapStep::Permissions,
    ];

    pub fn name(self) -> &'static str {
        match self {
            DecapStep::Decode => "decode",
            DecapStep::Decrypt => "decrypt",
            DecapStep::Content => "content",
            DecapStep::HeaderFields => "header fields",
            DecapStep::Freshness => "freshness",
            DecapStep::Signer => "signer",
            DecapStep::ReplayLookup => "replay look-up",
            DecapStep::MessageSignature => "message signature",
            DecapStep::Chain => "chain",
            DecapStep::CertificateValidity => "certificate validity",
            DecapStep::Revocation => "revocation",
            DecapStep::Region => "region",
            DecapStep::Permissions => "permissions",
        }
    }

    /// The reasons this step rejects with (the step that first finds a fault names it).
    pub fn reasons(self) -> &'static [RejectReason] {
        use RejectReason as R;
        match self {
            DecapStep::Decode => &[R::InvalidEncoding, R::IncompatibleProtocol],
            DecapStep::Decrypt => &[R::NotForThisRecipient, R::DecryptionFailed],
            DecapStep::Content => &[R::UnsignedMessage, R::InvalidEncoding],
            DecapStep::HeaderFields => &[R::MissingHeaderField],
            DecapStep::Freshness => &[R::StaleMessage, R::FutureMessage],
            DecapStep::Signer => &[
                R::UnsupportedSignerIdentifierType,
                R::SignerCertificateNotFound,
                R::InvalidCertificate,
            ],
            DecapStep::ReplayLookup => &[R::DuplicateMessage],
            DecapStep::MessageSignature => &[R::FalseSignature],
            DecapStep::Chain => &[
                R::InvalidChainSignature,
                R::UntrustedRoot,
                R::IssuerCertificateNotFound,
                R::InvalidCertificate,
                R::InconsistentChain,
            ],
            DecapStep::CertificateValidity => &[R::CertificateNotYetValid, R::CertificateExpired],
            DecapStep::Revocation => &[R::RevokedCertificate, R::RevocationStatusUnknown],
            DecapStep::Region => &[R::OutsideRegion],
            DecapStep::Permissions => &[R::PsidNotPermitted, R::SspNotPermitted, R::SspUnverifiable],
        }
    }

    /// Whether [`crate::entity::DecapMode::SignatureOnly`] runs this step.
    pub fn runs_in_signature_only_mode(self) -> bool {
        matches!(
            self,
            DecapStep::Decode
                | DecapStep::Decrypt
                | DecapStep::Content
                | DecapStep::Signer
                | DecapStep::MessageSignature
        )
    }
}

/// A rejection: the reason code plus a human-readable detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{reason}: {detail}")]
pub struct Rejection {
    pub reason: RejectReason,
    pub detail: String,
    /// The SN-DECAP step that rejected (1609.2 / TS 103 097 v2 only; `None` from the other
    /// protocols). Steps are ordered, so "did this cost a message-signature verification?"
    /// is `step >= Some(DecapStep::MessageSignature)`.
    #[serde(skip)]
    pub step: Option<DecapStep>,
}

impl Rejection {
    pub fn new(reason: RejectReason, detail: impl Into<String>) -> Rejection {
        Rejection {
            reason,
            detail: detail.into(),
            step: None,
        }
    }

    /// The same rejection, named as found by SN-DECAP's `step`.
    pub fn at(mut self, step: DecapStep) -> Rejection {
        self.step = Some(step);
        self
    }

    /// Whether SN-DECAP verified the message signature (or more) before rejecting: false
    /// for a rejection by a step before it, `None` when the rejection names no step.
    pub fn after_signature_check(&self) -> Option<bool> {
        self.step.map(|s| s >= DecapStep::MessageSignature)
    }

    /// A rejection whose detail is `context` followed by `cause` and each of its sources.
    pub fn caused_by(reason: RejectReason, context: &str, cause: &dyn std::error::Error) -> Rejection {
        Rejection::new(reason, format!("{context}: {}", error_chain(cause)))
    }
}

/// An error and its sources, joined with ": " (the detail a user needs in one line).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        out.push_str(": ");
        out.push_str(&s.to_string());
        cur = s.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_compare_in_their_order_and_reasons_read_back_from_their_codes() {
        assert!(DecapStep::ORDER.windows(2).all(|w| w[0] < w[1]));
        let r = Rejection::new(RejectReason::StaleMessage, "old").at(DecapStep::Freshness);
        assert_eq!(r.after_signature_check(), Some(false));
        let r = Rejection::new(RejectReason::FalseSignature, "bad").at(DecapStep::MessageSignature);
        assert_eq!(r.after_signature_check(), Some(true));
        assert_eq!(
            Rejection::new(RejectReason::FalseMac, "mac").after_signature_check(),
            None
        );
        for reason in [
            RejectReason::SignerCertificateNotFound,
            RejectReason::FalseMac,
            RejectReason::IncompatibleProtocol,
            RejectReason::UnsupportedSignerIdentifierType,
        ] {
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.code()));
            assert_eq!(serde_json::from_str::<RejectReason>(&json).unwrap(), reason);
        }
    }
}
