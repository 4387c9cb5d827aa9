//! Which configuration of an operation a cost belongs to: curve (and hash), message type
//! or layout, security level, signer form, payload size, implementation build and method
//! (crypto backend or verification strategy).
//!
//! Written as `/`-separated parts in a fixed order, e.g. `p256/cam/sign/digest/100`,
//! `p224-sha224/sign/digest`, `paper004/100`, `p256/vsskit2-32bit`. Every part is
//! optional; a part name that is not in its set is an error listing every valid part.

use crate::named_enum;
use crate::names::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

named_enum! {
    /// Elliptic curve.
    pub enum CurveId ("curve") {
        P192 = "p192",
        P224 = "p224",
        P256 = "p256",
        P384 = "p384",
        Bp256 = "bp256",
        Bp384 = "bp384",
    }
}

named_enum! {
    /// Hash function, when a cost names it beside the curve (`p256-sha256`).
    pub enum HashId ("hash") {
        Sha224 = "sha224",
        Sha256 = "sha256",
        Sha384 = "sha384",
    }
}

named_enum! {
    /// Message type (CAM, DENM, J2735 BSM, RSA, ...) or protocol layout / link (`v2v`,
    /// `paper004`, `pairwise-hmac`, ...).
    pub enum MessageId ("message") {
        Cam = "cam",
        Denm = "denm",
        Bsm = "bsm",
        Generic = "generic",
        /// SAE J2735 Roadside Alert.
        Rsa = "rsa",
        /// WAVE Service Advertisement.
        Wsa = "wsa",
        /// Traveler Information Message.
        Tim = "tim",
        Spat = "spat",
        Ivi = "ivi",
        Map = "map",
        V2v = "v2v",
        V2i = "v2i",
        Paper004 = "paper004",
        Paper001 = "paper001",
        PairwiseHmac = "pairwise-hmac",
        PairwiseEncryptThenSignMac = "pairwise-encrypt-then-sign-mac",
        GroupHmac = "group-hmac",
    }
}

named_enum! {
    /// Security level of an ENCAP / DECAP.
    pub enum Level ("security level") {
        Sign = "sign",
        Encrypt = "encrypt",
        SignEncrypt = "sign+encrypt",
    }
}

named_enum! {
    /// How a signed message identifies its signer.
    pub enum SignerKind ("signer") {
        Digest = "digest",
        Certificate = "certificate",
        /// Not signed (encryption only).
        None = "none",
    }
}

named_enum! {
    /// Implementation build a published figure belongs to (paper 002 Table 3.2).
    pub enum BuildId ("build") {
        Bit32 = "32bit",
        Bit64 = "64bit",
        Vsskit2Bit32 = "vsskit2-32bit",
        Vsskit2Bit64 = "vsskit2-64bit",
    }
}

named_enum! {
    /// How a signature operation is carried out: the crypto backend that ran it, or the
    /// verification strategy of the receiver (docs/verification-strategies.md).
    pub enum Method ("method") {
        /// OpenSSL, called directly (the reference of every verify and sign ratio).
        Openssl = "openssl",
        AwsLc = "aws-lc",
        RustCrypto = "rustcrypto",
        /// v2xsec's own verify-only arithmetic.
        V2x = "v2x",
        /// The fastest backend for the curve and operation.
        Fastest = "fastest",
        /// Per-signer precomputed tables, 100 signers round-robin.
        PrecomputedTable100 = "precomputed-table-100",
        /// Batch verification of 8 compressed-R signatures from 8 signers.
        Batch8CompressedR = "batch8-compressed-r",
        /// Strict DECAP, 100 stations round-robin, precomputed strategy.
        Repeat100Precomputed = "repeat100-precomputed",
        /// As `repeat100-precomputed`, senders sign with compressed R.
        Repeat100PrecomputedCompressedR = "repeat100-precomputed-compressed-r",
        /// Strict DECAP, 100 stations round-robin, plain strategy.
        Repeat100Plain = "repeat100-plain",
        /// ENCAP signing with R compressed.
        CompressedR = "compressed-r",
    }
}

/// The typed parts of a variant; unset parts are unspecified.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Variant {
    pub curve: Option<CurveId>,
    pub hash: Option<HashId>,
    pub message: Option<MessageId>,
    pub level: Option<Level>,
    pub signer: Option<SignerKind>,
    pub payload_bytes: Option<u32>,
    pub build: Option<BuildId>,
    pub method: Option<Method>,
}

/// A variant string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("variant `{variant}`: part `{part}` is not a curve[-hash], message, level, signer, payload size, build or method (curves: {curves}; hashes: {hashes}; messages: {messages}; levels: {levels}; signers: {signers}; builds: {builds}; methods: {methods}; payload: a number of bytes, e.g. 100)",
        curves = CurveId::NAMES.join(", "), hashes = HashId::NAMES.join(", "), messages = MessageId::NAMES.join(", "),
        levels = Level::NAMES.join(", "), signers = SignerKind::NAMES.join(", "), builds = BuildId::NAMES.join(", "),
        methods = Method::NAMES.join(", "))]
    UnknownPart { variant: String, part: String },
    #[error("variant `{variant}`: {name} given twice")]
    Repeated { variant: String, name: &'static str },
    #[error("variant `{variant}`: {source}")]
    Name {
        variant: String,
        #[source]
        source: UnknownName,
    },
}

impl Variant {
    /// Only the payload size set.
    pub fn payload(bytes: u32) -> Variant {
        Variant {
            payload_bytes: Some(bytes),
            ..Variant::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Variant::default()
    }

    /// True when every part set in `wanted` is equal here or unspecified here (a cost that
    /// does not name a part applies to every value of it).
    pub fn satisfies(&self, wanted: &Variant) -> bool {
        fn part<T: PartialEq>(have: &Option<T>, want: &Option<T>) -> bool {
            match (have, want) {
                (Some(h), Some(w)) => h == w,
                _ => true,
            }
        }
        part(&self.curve, &wanted.curve)
            && part(&self.hash, &wanted.hash)
            && part(&self.message, &wanted.message)
            && part(&self.level, &wanted.level)
            && part(&self.signer, &wanted.signer)
            && part(&self.payload_bytes, &wanted.payload_bytes)
            && part(&self.build, &wanted.build)
            && part(&self.method, &wanted.method)
    }

    /// `self` with every part `other` sets taken from `other`.
    pub fn with(mut self, other: &Variant) -> Variant {
        self.curve = other.curve.or(self.curve);
        self.hash = other.hash.or(self.hash);
        self.message = other.message.or(self.message);
        self.level = other.level.or(self.level);
        self.signer = other.signer.or(self.signer);
        self.payload_bytes = other.payload_bytes.or(self.payload_bytes);
        self.build = other.build.or(self.build);
        self.method = other.method.or(self.method);
        self
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        match (self.curve, self.hash) {
            (Some(c), Some(h)) => parts.push(format!("{c}-{h}")),
            (Some(c), None) => parts.push(c.to_string()),
            (None, Some(h)) => parts.push(h.to_string()),
            (None, None) => {}
        }
        parts.extend(self.message.map(|m| m.to_string()));
        parts.extend(self.level.map(|m| m.to_string()));
        parts.extend(self.signer.map(|m| m.to_string()));
        parts.extend(self.payload_bytes.map(|m| m.to_string()));
        parts.extend(self.build.map(|m| m.to_string()));
        parts.extend(self.method.map(|m| m.to_string()));
        f.write_str(&parts.join("/"))
    }
}

impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Variant, VariantError> {
        let mut v = Variant::default();
        let variant = || s.to_string();
        fn set<T>(slot: &mut Option<T>, value: T, name: &'static str, s: &str) -> Result<(), VariantError> {
            if slot.is_some() {
                return Err(VariantError::Repeated {
                    variant: s.into(),
                    name,
                });
            }
            *slot = Some(value);
            Ok(())
        }
        for part in s.split('/').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some((c, h)) = part.split_once('-').filter(|(c, _)| c.parse::<CurveId>().is_ok()) {
                let curve = c.parse::<CurveId>().map_err(|source| VariantError::Name {
                    variant: variant(),
                    source,
                })?;
                let hash = h.parse::<HashId>().map_err(|source| VariantError::Name {
                    variant: variant(),
                    source,
                })?;
                set(&mut v.curve, curve, "curve", s)?;
                set(&mut v.hash, hash, "hash", s)?;
            } else if let Ok(c) = part.parse::<CurveId>() {
                set(&mut v.curve, c, "curve", s)?;
            } else if let Ok(h) = part.parse::<HashId>() {
                set(&mut v.hash, h, "hash", s)?;
            } else if let Ok(m) = part.parse::<MessageId>() {
                set(&mut v.message, m, "message", s)?;
            } else if let Ok(l) = part.parse::<Level>() {
                set(&mut v.level, l, "level", s)?;
            } else if let Ok(k) = part.parse::<SignerKind>() {
                set(&mut v.signer, k, "signer", s)?;
            } else if let Ok(b) = part.parse::<BuildId>() {
                set(&mut v.build, b, "build", s)?;
            } else if let Ok(m) = part.parse::<Method>() {
                set(&mut v.method, m, "method", s)?;
            } else if let Ok(n) = part.strip_suffix('B').unwrap_or(part).parse::<u32>() {
                set(&mut v.payload_bytes, n, "payload size", s)?;
            } else {
                return Err(VariantError::UnknownPart {
                    variant: variant(),
                    part: part.into(),
                });
            }
        }
        Ok(v)
    }
}

impl Serialize for Variant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Variant {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str> as Deserialize>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_every_shipped_form() {
        for s in [
            "p256/cam/sign/digest/100",
            "p224-sha224/sign/digest",
            "p256-sha256/encrypt",
            "paper004/100",
            "p256/vsskit2-32bit",
            "p256/bsm/certificate",
            "bsm",
            "p256/generic/encrypt/none/100",
            "pairwise-encrypt-then-sign-mac/300",
            "p256/cam/sign/digest/100/repeat100-precomputed",
            "p384/aws-lc",
            "",
        ] {
            let v: Variant = s.parse().unwrap();
            assert_eq!(v.to_string(), s);
        }
        let v: Variant = "100B".parse().unwrap();
        assert_eq!(v, Variant::payload(100));
        let v: Variant = "p384-sha384/certificate".parse().unwrap();
        assert_eq!(v.curve, Some(CurveId::P384));
        assert_eq!(v.hash, Some(HashId::Sha384));
        assert_eq!(v.signer, Some(SignerKind::Certificate));
    }

    #[test]
    fn unknown_parts_list_the_valid_ones() {
        let e = "p256/cma".parse::<Variant>().unwrap_err().to_string();
        assert!(
            e.contains("`cma`") && e.contains("cam, denm, bsm") && e.contains("p256"),
            "{e}"
        );
        let e = "p256-sha999".parse::<Variant>().unwrap_err().to_string();
        assert!(e.contains("unknown hash `sha999`") && e.contains("sha384"), "{e}");
        assert!("p256/p384".parse::<Variant>().is_err());
    }

    #[test]
    fn unspecified_parts_match_anything() {
        let row: Variant = "p256-sha256/sign".parse().unwrap();
        let want: Variant = "p256-sha256".parse().unwrap();
        assert!(row.satisfies(&want));
        assert!(row.satisfies(&want.with(&"sign/digest".parse().unwrap())));
        assert!(!row.satisfies(&"encrypt".parse().unwrap()));
        assert!(!row.satisfies(&"p384".parse().unwrap()));
    }
}
