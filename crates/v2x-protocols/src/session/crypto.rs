//! The algorithm choices paper 003 evaluates, behind small key types: signatures (ECDSA
//! P-256, RSA, DSA), asymmetric encryption (ECIES, RSA-OAEP), the certificate format
//! `Cert_V = PuK_V ‖ Sig_CA[PuK_V ‖ ID_CA]`, and AES-128-CCM for session traffic.

use crate::setup::SetupError;
use crate::{RejectReason, Rejection};
use openssl::bn::BigNum;
use openssl::dsa::{Dsa, DsaSig};
use openssl::hash::MessageDigest;
use openssl::pkey::{PKey, Params, Private, Public};
use openssl::rsa::{Padding, Rsa};
use openssl::sign::{Signer, Verifier};
use serde::{Deserialize, Serialize};
use v2x_crypto::{CryptoError, Curve, EciesWrapped, PrivateKey, PublicKey};
use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Signature algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SignatureAlg {
    /// ECDSA P-256 with SHA-256, r ‖ s (64 bytes).
    #[default]
    Ecdsa,
    /// RSA PKCS#1 v1.5 with SHA-256 (signature = modulus length).
    Rsa,
    /// DSA with SHA-256, r ‖ s fixed to the subgroup length (40 bytes for 1024/160).
    Dsa,
}

/// Asymmetric encryption algorithm (session key transport).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncryptionAlg {
    /// IEEE 1609.2 ECIES key wrap (P-256) of a fresh AES key + AES-128-CCM of the data.
    #[default]
    Ecies,
    /// RSA-OAEP (SHA-1), one block.
    Rsa,
}

fn crypto(e: openssl::error::ErrorStack) -> CryptoError {
    CryptoError::Backend(e.to_string())
}

/// A private signing key.
pub enum SigningKey {
    Ecdsa(PrivateKey),
    Rsa(PKey<Private>),
    Dsa(PKey<Private>, usize),
}

/// A public verification key.
#[derive(Clone)]
pub enum VerifyKey {
    Ecdsa(PublicKey),
    Rsa(PKey<Public>),
    Dsa(PKey<Public>, usize),
}

impl std::fmt::Debug for VerifyKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "VerifyKey({:?}, {})", self.alg(), hex::encode(self.to_bytes()))
    }
}

/// DSA domain parameters (public; FIPS 186 lets any number of keys share them).
/// Generating them is slow, so they are made once per size per process and reused.
#[derive(Clone)]
pub struct DsaParams {
    p: Vec<u8>,
    q: Vec<u8>,
    g: Vec<u8>,
}

impl DsaParams {
    /// Fresh parameters of `bits`.
    pub fn generate(bits: u32) -> Result<DsaParams, CryptoError> {
        let params: Dsa<Params> = Dsa::generate_params(bits).map_err(crypto)?;
        Ok(DsaParams {
            p: params.p().to_vec(),
            q: params.q().to_vec(),
            g: params.g().to_vec(),
        })
    }

    /// Fixed 1024-bit parameters with a 160-bit subgroup (paper 003's DSA size: 40-byte
    /// signatures), generated once for this project with `openssl genpkey -genparam
    /// -algorithm DSA -pkeyopt dsa_paramgen_bits:1024 -pkeyopt dsa_paramgen_q_bits:160`.
    /// Shipping them saves the slow generation in every run; they are public values.
    pub fn fixed_1024_160() -> DsaParams {
        const P: &str = "eb5830d588baa649d4d0a0286591448ef957cbddd47058ec7713cc614158a45d9f5759792ea3b0af0899c7ef068910d9250d4e64e1394774a27a090d6cb3681ca67f50eab8d9be68f0894017067b5701e0f67fbb7a08fc7905a3fc6c9174297c620ff29aeac8872723069e6e8b217000f99cdf748f2e77ae00dab949c0a2a485";
        const Q: &str = "a34f4d207d9baa71a3f0d09f8a1dcb3e06b4121f";
        const G: &str = "0bb9b5d8dd075c15d4395a8f07170c4067edcaf7955c7b9fabf73d3797787e150f01abdb1d60deb4c07cbce9000c925ea787c0cca69c4dd1ebe7052baec9fa8cf3ddbc65d68f7fba0057ea4ac3da48ed6a88da78eb109d8349a730b3920e185a74f093cca322279d7194678a15d634d4a36ae118cc03b3c7abce7e77a52db8d4";
        let h = |x: &str| hex::decode(x).unwrap_or_default();
        DsaParams {
            p: h(P),
            q: h(Q),
            g: h(G),
        }
    }

    /// The process-wide parameters of `bits`: the fixed set for 1024, otherwise generated
    /// on first use.
    pub fn shared(bits: u32) -> Result<DsaParams, CryptoError> {
        if bits == 1024 {
            return Ok(DsaParams::fixed_1024_160());
        }
        static CACHE: std::sync::Mutex<Vec<(u32, DsaParams)>> = std::sync::Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, p)) = cache.iter().find(|(b, _)| *b == bits) {
            return Ok(p.clone());
        }
        let p = DsaParams::generate(bits)?;
        cache.push((bits, p.clone()));
        Ok(p)
    }

    fn q_len(&self) -> usize {
        self.q.len()
    }
}

impl SigningKey {
    /// A new key of `alg`.
    pub fn generate(alg: SignatureAlg, rsa_bits: u32, dsa: Option<&DsaParams>) -> Result<SigningKey, CryptoError> {
        match alg {
            SignatureAlg::Ecdsa => Ok(SigningKey::Ecdsa(PrivateKey::generate(Curve::NistP256)?)),
            SignatureAlg::Rsa => {
                let rsa = Rsa::generate(rsa_bits).map_err(crypto)?;
                Ok(SigningKey::Rsa(PKey::from_rsa(rsa).map_err(crypto)?))
            }
            SignatureAlg::Dsa => {
                let params = dsa.ok_or_else(|| CryptoError::Backend("DSA parameters missing".into()))?;
                let bn = |b: &[u8]| BigNum::from_slice(b).map_err(crypto);
                let pqg = Dsa::from_pqg(bn(&params.p)?, bn(&params.q)?, bn(&params.g)?).map_err(crypto)?;
                let key = pqg.generate_key().map_err(crypto)?;
                let qlen = params.q_len();
                Ok(SigningKey::Dsa(PKey::from_dsa(key).map_err(crypto)?, qlen))
            }
        }
    }

    pub fn public(&self) -> Result<VerifyKey, CryptoError> {
        Ok(match self {
            SigningKey::Ecdsa(k) => VerifyKey::Ecdsa(k.public_key().clone()),
            SigningKey::Rsa(k) => {
                VerifyKey::Rsa(PKey::public_key_from_der(&k.public_key_to_der().map_err(crypto)?).map_err(crypto)?)
            }
            SigningKey::Dsa(k, q) => VerifyKey::Dsa(
                PKey::public_key_from_der(&k.public_key_to_der().map_err(crypto)?).map_err(crypto)?,
                *q,
            ),
        })
    }

    pub fn sign(&self, data: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match self {
            SigningKey::Ecdsa(k) => crate::cert::sign(k, data),
            SigningKey::Rsa(k) => {
                let mut s = Signer::new(MessageDigest::sha256(), k).map_err(crypto)?;
                s.update(data).map_err(crypto)?;
                s.sign_to_vec().map_err(crypto)
            }
            SigningKey::Dsa(k, q) => {
                let mut s = Signer::new(MessageDigest::sha256(), k).map_err(crypto)?;
                s.update(data).map_err(crypto)?;
                let der = s.sign_to_vec().map_err(crypto)?;
                let sig = DsaSig::from_der(&der).map_err(crypto)?;
                let mut out = sig.r().to_vec_padded(*q as i32).map_err(crypto)?;
                out.extend_from_slice(&sig.s().to_vec_padded(*q as i32).map_err(crypto)?);
                Ok(out)
            }
        }
    }
}

impl VerifyKey {
    pub fn alg(&self) -> SignatureAlg {
        match self {
            VerifyKey::Ecdsa(_) => SignatureAlg::Ecdsa,
            VerifyKey::Rsa(_) => SignatureAlg::Rsa,
            VerifyKey::Dsa(..) => SignatureAlg::Dsa,
        }
    }

    /// Length of this key's signatures (ECDSA 64, RSA modulus, DSA twice the subgroup).
    pub fn signature_len(&self) -> usize {
        match self {
            VerifyKey::Ecdsa(_) => 64,
            VerifyKey::Rsa(k) => k.size(),
            VerifyKey::Dsa(_, q) => 2 * q,
        }
    }

    /// Wire form: ECDSA compressed point; RSA and DSA DER SubjectPublicKeyInfo.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            VerifyKey::Ecdsa(k) => k.to_sec1(true),
            VerifyKey::Rsa(k) | VerifyKey::Dsa(k, _) => k.public_key_to_der().unwrap_or_default(),
        }
    }

    pub fn from_bytes(alg: SignatureAlg, bytes: &[u8]) -> Result<VerifyKey, CursorError> {
        let bad = |e: String| Reader::invalid_at("verification key", 0, e);
        match alg {
            SignatureAlg::Ecdsa => PublicKey::from_sec1(Curve::NistP256, bytes)
                .map(VerifyKey::Ecdsa)
                .map_err(|e| bad(e.to_string())),
            SignatureAlg::Rsa => {
                let k = PKey::public_key_from_der(bytes).map_err(|e| bad(e.to_string()))?;
                k.rsa().map_err(|e| bad(e.to_string()))?;
                Ok(VerifyKey::Rsa(k))
            }
            SignatureAlg::Dsa => {
                let k = PKey::public_key_from_der(bytes).map_err(|e| bad(e.to_string()))?;
                let q = k.dsa().map_err(|e| bad(e.to_string()))?.q().num_bytes() as usize;
                Ok(VerifyKey::Dsa(k, q))
            }
        }
    }

    /// True when `sig` is a valid signature on `data`; malformed signatures are false.
    pub fn verify(&self, data: &[u8], sig: &[u8]) -> bool {
        match self {
            VerifyKey::Ecdsa(k) => crate::cert::verify(k, data, sig),
            VerifyKey::Rsa(k) => Verifier::new(MessageDigest::sha256(), k)
                .and_then(|mut v| v.update(data).and_then(|()| v.verify(sig)))
                .unwrap_or(false),
            VerifyKey::Dsa(k, q) => {
                if sig.len() != 2 * q {
                    return false;
                }
                let (r, s) = sig.split_at(*q);
                let der = BigNum::from_slice(r)
                    .and_then(|r| BigNum::from_slice(s).map(|s| (r, s)))
                    .and_then(|(r, s)| DsaSig::from_private_components(r, s))
                    .and_then(|sig| sig.to_der());
                match der {
                    Ok(der) => Verifier::new(MessageDigest::sha256(), k)
                        .and_then(|mut v| v.update(data).and_then(|()| v.verify(&der)))
                        .unwrap_or(false),
                    Err(_) => false,
                }
            }
        }
    }
}

/// A private decryption key.
pub enum DecryptKey {
    Ecies(PrivateKey),
    Rsa(Rsa<Private>),
}

/// A public encryption key.
#[derive(Clone)]
pub enum EncryptKey {
    Ecies(PublicKey),
    Rsa(Rsa<Public>),
}

impl std::fmt::Debug for EncryptKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EncryptKey({})", hex::encode(self.to_bytes()))
    }
}

impl DecryptKey {
    pub fn generate(alg: EncryptionAlg, rsa_bits: u32) -> Result<DecryptKey, CryptoError> {
        Ok(match alg {
            EncryptionAlg::Ecies => DecryptKey::Ecies(PrivateKey::generate(Curve::NistP256)?),
            EncryptionAlg::Rsa => DecryptKey::Rsa(Rsa::generate(rsa_bits).map_err(crypto)?),
        })
    }

    pub fn public(&self) -> Result<EncryptKey, CryptoError> {
        Ok(match self {
            DecryptKey::Ecies(k) => EncryptKey::Ecies(k.public_key().clone()),
            DecryptKey::Rsa(k) => EncryptKey::Rsa(
                Rsa::from_public_components(k.n().to_owned().map_err(crypto)?, k.e().to_owned().map_err(crypto)?)
                    .map_err(crypto)?,
            ),
        })
    }

    /// Decrypts what [`EncryptKey::encrypt`] produced.
    pub fn decrypt(&self, ct: &[u8]) -> Result<Vec<u8>, Rejection> {
        let fail = |m: &str| Rejection::new(RejectReason::DecryptionFailed, m.to_string());
        match self {
            DecryptKey::Ecies(k) => {
                let mut r = Reader::new(ct);
                let eph = r.take(33, "ephemeral key").map_err(|e| fail(&e.to_string()))?;
                let c = r.array::<16>("wrapped key").map_err(|e| fail(&e.to_string()))?;
                let t = r.array::<16>("wrap tag").map_err(|e| fail(&e.to_string()))?;
                let ephemeral = PublicKey::from_sec1(Curve::NistP256, eph).map_err(|e| fail(&e.to_string()))?;
                let aes = v2x_crypto::ecies_unwrap(k, &EciesWrapped { ephemeral, c, t }, &[])
                    .map_err(|e| fail(&e.to_string()))?;
                v2x_crypto::aes128_ccm_decrypt(&aes, &[0u8; 12], r.rest()).map_err(|e| fail(&e.to_string()))
            }
            DecryptKey::Rsa(k) => {
                let mut out = vec![0u8; k.size() as usize];
                let n = k
                    .private_decrypt(ct, &mut out, Padding::PKCS1_OAEP)
                    .map_err(|e| fail(&e.to_string()))?;
                out.truncate(n);
                Ok(out)
            }
        }
    }
}

impl EncryptKey {
    pub fn alg(&self) -> EncryptionAlg {
        match self {
            EncryptKey::Ecies(_) => EncryptionAlg::Ecies,
            EncryptKey::Rsa(_) => EncryptionAlg::Rsa,
        }
    }

    /// ECIES: V (33, compressed) ‖ wrapped AES key (16) ‖ tag (16) ‖ AES-CCM(data) with a
    /// zero nonce (the AES key is fresh per message). RSA: OAEP block.
    pub fn encrypt(&self, data: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match self {
            EncryptKey::Ecies(k) => {
                let mut aes = [0u8; 16];
                aes.copy_from_slice(&v2x_crypto::random_bytes(16));
                let w = v2x_crypto::ecies_wrap(k, &aes, &[])?;
                let mut out = w.ephemeral.to_sec1(true);
                out.extend_from_slice(&w.c);
                out.extend_from_slice(&w.t);
                out.extend_from_slice(&v2x_crypto::aes128_ccm_encrypt(&aes, &[0u8; 12], data)?);
                Ok(out)
            }
            EncryptKey::Rsa(k) => {
                let mut out = vec![0u8; k.size() as usize];
                let n = k.public_encrypt(data, &mut out, Padding::PKCS1_OAEP).map_err(crypto)?;
                out.truncate(n);
                Ok(out)
            }
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            EncryptKey::Ecies(k) => k.to_sec1(true),
            EncryptKey::Rsa(k) => k.public_key_to_der().unwrap_or_default(),
        }
    }

    pub fn from_bytes(alg: EncryptionAlg, bytes: &[u8]) -> Result<EncryptKey, CursorError> {
        let bad = |e: String| Reader::invalid_at("encryption key", 0, e);
        match alg {
            EncryptionAlg::Ecies => PublicKey::from_sec1(Curve::NistP256, bytes)
                .map(EncryptKey::Ecies)
                .map_err(|e| bad(e.to_string())),
            EncryptionAlg::Rsa => Rsa::public_key_from_der(bytes)
                .map(EncryptKey::Rsa)
                .map_err(|e| bad(e.to_string())),
        }
    }
}

/// A station's certificate: `id ‖ PuK_sig ‖ PuK_enc ‖ Sig_CA[id ‖ PuK_sig ‖ PuK_enc ‖ ID_CA]`
/// — paper 003's `Cert_V[PuK_V] = PuK_V | Sig_CA[PuK_V | ID_CA]`, with both keys because a
/// DSA key cannot encrypt. Keys and signature are 2-byte-length prefixed.
#[derive(Debug, Clone)]
pub struct SessionCert {
    pub id: u32,
    pub verify: VerifyKey,
    pub encrypt: EncryptKey,
    encoded: Vec<u8>,
}

impl SessionCert {
    pub fn encoded(&self) -> &[u8] {
        &self.encoded
    }

    /// HashedId8-style digest of the certificate (SHA-256 of its encoding, low 8 bytes),
    /// what deliveries name as the authenticated sender.
    pub fn digest(&self) -> [u8; 8] {
        v2x_crypto::hashed_id8(v2x_crypto::HashAlg::Sha256, &self.encoded).0
    }

    /// H_i: the hash of the holder's public key (8 bytes of SHA-256) used in group messages.
    pub fn key_hash(&self) -> [u8; 8] {
        let mut out = [0u8; 8];
        out.copy_from_slice(&v2x_crypto::sha256(&self.encrypt.to_bytes())[..8]);
        out
    }

    pub fn decode(sig: SignatureAlg, enc: EncryptionAlg, bytes: &[u8]) -> Result<(SessionCert, &[u8]), CursorError> {
        let mut r = Reader::new(bytes);
        let id = r.u32("certificate id")?;
        let at = r.offset() + 2;
        let verify = VerifyKey::from_bytes(sig, r.var16("certificate verification key")?).map_err(|e| moved(e, at))?;
        let at = r.offset() + 2;
        let encrypt = EncryptKey::from_bytes(enc, r.var16("certificate encryption key")?).map_err(|e| moved(e, at))?;
        r.var16("certificate signature")?;
        let used = r.offset();
        Ok((
            SessionCert {
                id,
                verify,
                encrypt,
                encoded: bytes[..used].to_vec(),
            },
            r.rest(),
        ))
    }

    /// Checks the CA's signature.
    pub fn verify_with(&self, ca: &SessionCa) -> Result<(), Rejection> {
        let (tbs, sig) = split_cert(&self.encoded)
            .ok_or_else(|| Rejection::new(RejectReason::InvalidCertificate, "certificate does not split"))?;
        let mut signed = tbs.to_vec();
        signed.extend_from_slice(&ca.id);
        if ca.verify_key.verify(&signed, sig) {
            Ok(())
        } else if ca.verify_key.alg() != self.verify.alg() {
            Err(Rejection::new(
                RejectReason::InvalidCertificate,
                "certificate algorithm differs from the CA's",
            ))
        } else {
            Err(Rejection::new(
                RejectReason::UntrustedRoot,
                "certificate not signed by the trusted CA",
            ))
        }
    }
}

fn split_cert(encoded: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut r = Reader::new(encoded);
    r.u32("id").ok()?;
    r.var16("k1").ok()?;
    r.var16("k2").ok()?;
    let tbs_len = r.offset();
    let sig = r.var16("sig").ok()?;
    Some((&encoded[..tbs_len], sig))
}

/// `e`, found decoding a field on its own, with its offset moved to where the field
/// starts in the enclosing input.
fn moved(e: CursorError, at: usize) -> CursorError {
    match e {
        CursorError::Invalid { field, offset, message } => CursorError::Invalid {
            field,
            offset: at + offset,
            message,
        },
        other => other,
    }
}

/// Why a certificate could not be issued.
#[derive(Debug, thiserror::Error)]
pub enum CertifyError {
    #[error(transparent)]
    Crypto(#[from] CryptoError),
    /// A key longer than its 2-byte length prefix.
    #[error(transparent)]
    Encoding(#[from] CursorError),
}

impl From<CertifyError> for SetupError {
    fn from(e: CertifyError) -> SetupError {
        match e {
            CertifyError::Crypto(e) => SetupError::Crypto(e),
            CertifyError::Encoding(e) => SetupError::Encoding(e),
        }
    }
}

/// The CA of a session-key deployment (signs with the deployment's signature algorithm).
pub struct SessionCa {
    key: SigningKey,
    verify_key: VerifyKey,
    /// ID_CA: 8 bytes of SHA-256 of the CA's public key.
    pub id: [u8; 8],
}

impl SessionCa {
    pub fn new(key: SigningKey) -> Result<SessionCa, CryptoError> {
        let verify_key = key.public()?;
        let mut id = [0u8; 8];
        id.copy_from_slice(&v2x_crypto::sha256(&verify_key.to_bytes())[..8]);
        Ok(SessionCa { key, verify_key, id })
    }

    pub fn certify(&self, id: u32, verify: &VerifyKey, encrypt: &EncryptKey) -> Result<SessionCert, CertifyError> {
        let mut tbs = Writer::new();
        tbs.u32(id);
        tbs.var16(&verify.to_bytes(), "certificate verification key")?;
        tbs.var16(&encrypt.to_bytes(), "certificate encryption key")?;
        let signed = [tbs.as_slice(), &self.id].concat();
        let sig = self.key.sign(&signed)?;
        tbs.var16(&sig, "certificate signature")?;
        let tbs = tbs.into_vec();
        Ok(SessionCert {
            id,
            verify: verify.clone(),
            encrypt: encrypt.clone(),
            encoded: tbs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_dsa_parameters_are_valid() {
        let p = DsaParams::fixed_1024_160();
        assert_eq!((p.p.len(), p.q.len(), p.g.len()), (128, 20, 128));
        // q divides p - 1 and g has order q: g^q mod p == 1.
        let mut ctx = openssl::bn::BigNumContext::new().unwrap();
        let (bp, bq, bg) = (
            BigNum::from_slice(&p.p).unwrap(),
            BigNum::from_slice(&p.q).unwrap(),
            BigNum::from_slice(&p.g).unwrap(),
        );
        let mut pm1 = BigNum::new().unwrap();
        pm1.checked_sub(&bp, &BigNum::from_u32(1).unwrap()).unwrap();
        let mut rem = BigNum::new().unwrap();
        rem.nnmod(&pm1, &bq, &mut ctx).unwrap();
        assert_eq!(rem.num_bits(), 0);
        let mut gq = BigNum::new().unwrap();
        gq.mod_exp(&bg, &bq, &bp, &mut ctx).unwrap();
        assert_eq!(gq, BigNum::from_u32(1).unwrap());
        assert!(bp.is_prime(20, &mut ctx).unwrap() && bq.is_prime(20, &mut ctx).unwrap());
    }

    #[test]
    fn every_signature_algorithm_signs_and_verifies_with_paper_sizes() {
        let dsa = DsaParams::shared(1024).unwrap();
        for (alg, len) in [
            (SignatureAlg::Ecdsa, 64),
            (SignatureAlg::Rsa, 128),
            (SignatureAlg::Dsa, 40),
        ] {
            let k = SigningKey::generate(alg, 1024, Some(&dsa)).unwrap();
            let sig = k.sign(b"m").unwrap();
            assert_eq!(sig.len(), len, "{alg:?}");
            let pk = k.public().unwrap();
            assert!(pk.verify(b"m", &sig));
            assert!(!pk.verify(b"n", &sig));
            let again = VerifyKey::from_bytes(alg, &pk.to_bytes()).unwrap();
            assert!(again.verify(b"m", &sig));
            assert!(!again.verify(b"m", &sig[1..]));
        }
    }

    #[test]
    fn both_encryptions_round_trip_and_detect_tampering() {
        for alg in [EncryptionAlg::Ecies, EncryptionAlg::Rsa] {
            let k = DecryptKey::generate(alg, 1024).unwrap();
            let mut ct = k.public().unwrap().encrypt(b"session key material").unwrap();
            assert_eq!(k.decrypt(&ct).unwrap(), b"session key material");
            let last = ct.len() - 1;
            ct[last] ^= 1;
            assert_eq!(k.decrypt(&ct).unwrap_err().reason, RejectReason::DecryptionFailed);
        }
    }
}
