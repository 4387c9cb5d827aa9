use crate::HashAlg;
use hmac::{Hmac, Mac};
use sha2::Digest as _;

/// A hash output of either supported length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Digest {
    Sha256([u8; 32]),
    Sha384([u8; 48]),
}

impl AsRef<[u8]> for Digest {
    fn as_ref(&self) -> &[u8] {
        match self {
            Digest::Sha256(d) => d,
            Digest::Sha384(d) => d,
        }
    }
}

pub fn sha256(data: &[u8]) -> [u8; 32] {
    sha2::Sha256::digest(data).into()
}

pub fn sha384(data: &[u8]) -> [u8; 48] {
    sha2::Sha384::digest(data).into()
}

pub fn hash(alg: HashAlg, data: &[u8]) -> Digest {
    match alg {
        HashAlg::Sha256 => Digest::Sha256(sha256(data)),
        HashAlg::Sha384 => Digest::Sha384(sha384(data)),
    }
}

/// HashedId8: the low-order eight bytes of the hash of an encoding (1609.2 §6.3.26).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HashedId8(pub [u8; 8]);

/// HashedId3: the low-order three bytes of the hash of an encoding (1609.2 §6.3.26).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HashedId3(pub [u8; 3]);

impl std::fmt::Debug for HashedId8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HashedId8({self})")
    }
}
impl std::fmt::Display for HashedId8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}
impl std::fmt::Debug for HashedId3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HashedId3(")?;
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))?;
        write!(f, ")")
    }
}

impl HashedId8 {
    /// HashedId3 of the same hash is its last three bytes.
    pub fn to_hashed_id3(self) -> HashedId3 {
        HashedId3([self.0[5], self.0[6], self.0[7]])
    }
}

pub fn hashed_id8(alg: HashAlg, encoding: &[u8]) -> HashedId8 {
    let d = hash(alg, encoding);
    let d = d.as_ref();
    let mut out = [0u8; 8];
    out.copy_from_slice(&d[d.len() - 8..]);
    HashedId8(out)
}

pub fn hashed_id3(alg: HashAlg, encoding: &[u8]) -> HashedId3 {
    hashed_id8(alg, encoding).to_hashed_id3()
}

pub fn hmac_sha256(key: &[u8], data: &[u8]) -> [u8; 32] {
    // HMAC accepts keys of any length, so construction cannot fail.
    let mut mac = <Hmac<sha2::Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data);
    mac.finalize().into_bytes().into()
}

pub fn hmac_sha1(key: &[u8], data: &[u8]) -> [u8; 20] {
    let mut mac = <Hmac<sha1::Sha1> as Mac>::new_from_slice(key).expect("HMAC takes any key length");
    mac.update(data);
    mac.finalize().into_bytes().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_empty_is_known() {
        assert_eq!(
            hex::encode(sha256(b"")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn hashed_id8_is_low_order_bytes() {
        let h = hashed_id8(HashAlg::Sha256, b"");
        assert_eq!(h.to_string(), "a495991b7852b855");
        assert_eq!(h.to_hashed_id3().0, [0x52, 0xb8, 0x55]);
    }

    #[test]
    fn hmac_rfc4231_case_2() {
        let t = hmac_sha256(b"Jefe", b"what do ya want for nothing?");
        assert_eq!(
            hex::encode(t),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
