//! Raw primitives: what the standard stack is built from, measured without any framing.
//!
//! ECDSA is measured straight on OpenSSL (`ECDSA_do_sign` / `ECDSA_do_verify` over a
//! precomputed digest, as `openssl speed` does): this is the "raw OpenSSL" reference of
//! the headline ratios and of paper 002 Table 3.2. P-192 and P-224 are measured only here,
//! for papers 000 and 004 (the stack does not sign with them). ECDH, ECIES, AES-CCM, HMAC
//! and SHA go through `v2x-crypto`, the code the stack uses.

use crate::pool::WorkerOp;
use crate::task::{Factory, Label, Prepared, ScalingTask, Task};
use crate::{BenchError, Suite};
use openssl::ec::{EcGroup, EcKey};
use openssl::ecdsa::EcdsaSig;
use openssl::nid::Nid;
use openssl::pkey::{Private, Public};
use std::hint::black_box;
use v2x_crypto::{Curve, HashAlg, PrivateKey};
use v2x_profile::{CostKey, CurveId, Operation, ProtocolId, Variant};

/// Payload sizes for the symmetric primitives (paper 000 uses 100 bytes; CAMs and DENMs
/// are a few hundred).
pub const PAYLOADS: [usize; 3] = [100, 300, 500];

/// A curve for raw ECDSA: the four of 1609.2 plus P-192 / P-224 of papers 000 and 004.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EcdsaCurve {
    pub id: CurveId,
    nid: Nid,
    /// Digest length fed to ECDSA (SHA-256 or SHA-384 output).
    digest_len: usize,
}

pub const ECDSA_CURVES: [EcdsaCurve; 6] = [
    EcdsaCurve {
        id: CurveId::P256,
        nid: Nid::X9_62_PRIME256V1,
        digest_len: 32,
    },
    EcdsaCurve {
        id: CurveId::P384,
        nid: Nid::SECP384R1,
        digest_len: 48,
    },
    EcdsaCurve {
        id: CurveId::Bp256,
        nid: Nid::BRAINPOOL_P256R1,
        digest_len: 32,
    },
    EcdsaCurve {
        id: CurveId::Bp384,
        nid: Nid::BRAINPOOL_P384R1,
        digest_len: 48,
    },
    EcdsaCurve {
        id: CurveId::P224,
        nid: Nid::SECP224R1,
        digest_len: 32,
    },
    EcdsaCurve {
        id: CurveId::P192,
        nid: Nid::X9_62_PRIME192V1,
        digest_len: 32,
    },
];

pub fn ecdsa_curve(id: CurveId) -> Option<EcdsaCurve> {
    ECDSA_CURVES.into_iter().find(|c| c.id == id)
}

/// The profile vocabulary's name of a v2x-crypto curve.
pub fn curve_id(c: Curve) -> CurveId {
    match c {
        Curve::NistP256 => CurveId::P256,
        Curve::NistP384 => CurveId::P384,
        Curve::BrainpoolP256r1 => CurveId::Bp256,
        Curve::BrainpoolP384r1 => CurveId::Bp384,
    }
}

fn curve(id: CurveId) -> Variant {
    Variant {
        curve: Some(id),
        ..Variant::default()
    }
}

fn raw(op: Operation, variant: Variant) -> Label {
    Label::new(Suite::Raw, ProtocolId::Raw, op, variant)
}

/// An OpenSSL key pair, a digest and a signature over it.
pub struct RawEcdsa {
    key: EcKey<Private>,
    public: EcKey<Public>,
    digest: Vec<u8>,
    sig: EcdsaSig,
}

impl RawEcdsa {
    pub fn new(curve: EcdsaCurve) -> Result<RawEcdsa, BenchError> {
        let group = EcGroup::from_curve_name(curve.nid)?;
        let key = EcKey::generate(&group)?;
        let public = EcKey::from_public_key(&group, key.public_key())?;
        let message = v2x_crypto::random_bytes(100);
        let digest = match curve.digest_len {
            48 => v2x_crypto::sha384(&message).to_vec(),
            _ => v2x_crypto::sha256(&message).to_vec(),
        };
        let sig = EcdsaSig::sign(&digest, &key)?;
        if !sig.verify(&digest, &public)? {
            return Err(BenchError::Setup(format!(
                "{}: OpenSSL rejected its own signature",
                curve.id
            )));
        }
        Ok(RawEcdsa {
            key,
            public,
            digest,
            sig,
        })
    }

    pub fn sign_op(self) -> WorkerOp {
        Box::new(move || {
            black_box(EcdsaSig::sign(&self.digest, &self.key)?);
            Ok(())
        })
    }

    pub fn verify_op(self) -> WorkerOp {
        Box::new(move || {
            if !self.sig.verify(&self.digest, &self.public)? {
                return Err(BenchError::Setup("valid signature rejected".into()));
            }
            Ok(())
        })
    }
}

/// Raw ECDSA sign or verify as a per-worker factory (for the scaling suite).
pub fn ecdsa_factory(curve: EcdsaCurve, verify: bool) -> Factory {
    Box::new(move || {
        let r = RawEcdsa::new(curve)?;
        Ok(if verify { r.verify_op() } else { r.sign_op() })
    })
}

/// The raw suite's single-core tasks.
pub fn tasks() -> Vec<Task> {
    let mut t = Vec::new();
    for c in ECDSA_CURVES {
        let extra = if matches!(c.id, CurveId::P224 | CurveId::P192) {
            "raw OpenSSL only (papers 000 and 004 use this curve; 1609.2 does not)"
        } else {
            "raw OpenSSL ECDSA over a precomputed digest"
        };
        for (op, verify) in [(Operation::Sign, false), (Operation::Verify, true)] {
            t.push(Task {
                label: raw(op, curve(c.id)).note(extra),
                setup: Box::new(move || {
                    let r = RawEcdsa::new(c)?;
                    Ok(Prepared::new(if verify { r.verify_op() } else { r.sign_op() }))
                }),
            });
        }
    }
    for curve in Curve::ALL {
        let id = curve_id(curve);
        t.push(Task {
            label: raw(Operation::Ecdh, self::curve(id)).note("v2x-crypto ECDH (x coordinate of the shared point)"),
            setup: Box::new(move || {
                let a = PrivateKey::generate(curve)?;
                let b = PrivateKey::generate(curve)?;
                let peer = b.public_key().clone();
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::ecdh_x(&a, &peer)?);
                    Ok(())
                })))
            }),
        });
    }
    for curve in [Curve::NistP256, Curve::BrainpoolP256r1] {
        let id = curve_id(curve);
        t.push(Task {
            label: raw(Operation::EciesWrap, self::curve(id))
                .note("1609.2 ECIES: ephemeral key generation, ECDH, KDF2, XOR wrap, HMAC tag"),
            setup: Box::new(move || {
                let recipient = PrivateKey::generate(curve)?.public_key().clone();
                let key = [7u8; 16];
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::ecies_wrap(&recipient, &key, b"")?);
                    Ok(())
                })))
            }),
        });
        t.push(Task {
            label: raw(Operation::EciesUnwrap, self::curve(id)).note("1609.2 ECIES: ECDH, KDF2, tag check"),
            setup: Box::new(move || {
                let recipient = PrivateKey::generate(curve)?;
                let wrapped = v2x_crypto::ecies_wrap(recipient.public_key(), &[7u8; 16], b"")?;
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::ecies_unwrap(&recipient, &wrapped, b"")?);
                    Ok(())
                })))
            }),
        });
    }
    for n in PAYLOADS {
        let variant = Variant::payload(n as u32);
        t.push(Task {
            label: raw(Operation::Aes128CcmEncrypt, variant),
            setup: Box::new(move || {
                let (key, nonce, data) = ([3u8; 16], [5u8; 12], v2x_crypto::random_bytes(n));
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::aes128_ccm_encrypt(&key, &nonce, &data)?);
                    Ok(())
                })))
            }),
        });
        t.push(Task {
            label: raw(Operation::Aes128CcmDecrypt, variant),
            setup: Box::new(move || {
                let (key, nonce) = ([3u8; 16], [5u8; 12]);
                let ct = v2x_crypto::aes128_ccm_encrypt(&key, &nonce, &v2x_crypto::random_bytes(n))?;
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::aes128_ccm_decrypt(&key, &nonce, &ct)?);
                    Ok(())
                })))
            }),
        });
        t.push(Task {
            label: raw(Operation::HmacSha256, variant),
            setup: Box::new(move || {
                let (key, data) = ([9u8; 32], v2x_crypto::random_bytes(n));
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::hmac_sha256(&key, &data));
                    Ok(())
                })))
            }),
        });
        t.push(Task {
            label: raw(Operation::HmacSha1, variant).note("TESLA's MAC in paper 004"),
            setup: Box::new(move || {
                let (key, data) = ([9u8; 20], v2x_crypto::random_bytes(n));
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::hmac_sha1(&key, &data));
                    Ok(())
                })))
            }),
        });
        t.push(Task {
            label: raw(Operation::Sha256, variant),
            setup: Box::new(move || {
                let data = v2x_crypto::random_bytes(n);
                Ok(Prepared::new(Box::new(move || {
                    black_box(v2x_crypto::hash(HashAlg::Sha256, &data));
                    Ok(())
                })))
            }),
        });
    }
    t
}

/// Raw ECDSA on one core vs all cores (paper 002 Table 3.2, "Raw OpenSSL").
pub fn scaling_tasks(curves: &[CurveId]) -> Vec<ScalingTask> {
    let mut out = Vec::new();
    for &id in curves {
        let Some(c) = ecdsa_curve(id) else { continue };
        for (op, verify) in [(Operation::Sign, false), (Operation::Verify, true)] {
            out.push(ScalingTask {
                kind: Suite::Raw,
                key: CostKey::new(ProtocolId::Raw, op, curve(id)),
                label: format!("raw OpenSSL ECDSA {op} {id}"),
                factory: ecdsa_factory(c, verify),
            });
        }
    }
    out
}
