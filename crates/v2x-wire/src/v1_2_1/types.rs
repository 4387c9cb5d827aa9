//! Basic elements of TS 103 097 v1.2.1 §4.2: algorithms, ECC points, keys, signatures,
//! times, locations and regions.
//!
//! # Non-standard extension for other curves and AES-256
//!
//! v1.2.1 defines only NIST P-256 (`ecdsa_nistp256_with_sha256` = 0, `ecies_nistp256` = 1)
//! and AES-128-CCM (`aes_128_ccm` = 0). Paper 000 also measured P-384 and AES-256-CCM, and
//! v2 of the standard adds brainpool curves, so this codec carries them as a **non-standard
//! extension** in the value range 240..=255 that v1.2.1 reserves for testing:
//!
//! | value | PublicKeyAlgorithm                    | field size |
//! |-------|---------------------------------------|------------|
//! | 240   | ecdsa_brainpoolp256r1_with_sha256     | 32         |
//! | 241   | ecdsa_nistp384_with_sha384            | 48         |
//! | 242   | ecdsa_brainpoolp384r1_with_sha384     | 48         |
//! | 243   | ecies_brainpoolp256r1                 | 32         |
//! | 244   | ecies_nistp384                        | 48         |
//! | 245   | ecies_brainpoolp384r1                 | 48         |
//!
//! and `SymmetricAlgorithm` 240 = aes_256_ccm (32-byte key, 12-byte nonce). Because a
//! standard decoder treats an unknown algorithm as `unknown: opaque<var>`, the extension
//! bodies are wrapped in exactly that: a length prefix, then the body the standard case
//! would carry (e.g. an `EccPoint` with the curve's field size). Standard decoders
//! (Wireshark included) therefore skip them cleanly; the price is one length byte per
//! extension element, which the overhead report shows.

use super::codec::{put_opaque_var, put_var, put_vec, read_opaque_var, read_var, read_vector};
use super::V1Error;
use crate::cursor::{Reader, Writer};

/// The curves this codec knows (P-256 standard, the others the extension above).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum V1Curve {
    NistP256,
    NistP384,
    BrainpoolP256r1,
    BrainpoolP384r1,
}

impl V1Curve {
    pub const ALL: [V1Curve; 4] = [
        V1Curve::NistP256,
        V1Curve::NistP384,
        V1Curve::BrainpoolP256r1,
        V1Curve::BrainpoolP384r1,
    ];

    pub const fn field_size(self) -> usize {
        match self {
            V1Curve::NistP256 | V1Curve::BrainpoolP256r1 => 32,
            V1Curve::NistP384 | V1Curve::BrainpoolP384r1 => 48,
        }
    }
}

/// PublicKeyAlgorithm (§4.2.2); unknown values are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PublicKeyAlgorithm(pub u8);

impl PublicKeyAlgorithm {
    pub const ECDSA_NISTP256_WITH_SHA256: Self = Self(0);
    pub const ECIES_NISTP256: Self = Self(1);
    /// Extension (see module docs).
    pub const ECDSA_BRAINPOOLP256R1_WITH_SHA256: Self = Self(240);
    pub const ECDSA_NISTP384_WITH_SHA384: Self = Self(241);
    pub const ECDSA_BRAINPOOLP384R1_WITH_SHA384: Self = Self(242);
    pub const ECIES_BRAINPOOLP256R1: Self = Self(243);
    pub const ECIES_NISTP384: Self = Self(244);
    pub const ECIES_BRAINPOOLP384R1: Self = Self(245);

    pub fn ecdsa(curve: V1Curve) -> Self {
        match curve {
            V1Curve::NistP256 => Self::ECDSA_NISTP256_WITH_SHA256,
            V1Curve::BrainpoolP256r1 => Self::ECDSA_BRAINPOOLP256R1_WITH_SHA256,
            V1Curve::NistP384 => Self::ECDSA_NISTP384_WITH_SHA384,
            V1Curve::BrainpoolP384r1 => Self::ECDSA_BRAINPOOLP384R1_WITH_SHA384,
        }
    }

    pub fn ecies(curve: V1Curve) -> Self {
        match curve {
            V1Curve::NistP256 => Self::ECIES_NISTP256,
            V1Curve::BrainpoolP256r1 => Self::ECIES_BRAINPOOLP256R1,
            V1Curve::NistP384 => Self::ECIES_NISTP384,
            V1Curve::BrainpoolP384r1 => Self::ECIES_BRAINPOOLP384R1,
        }
    }

    /// Curve of a known algorithm.
    pub fn curve(self) -> Option<V1Curve> {
        match self.0 {
            0 | 1 => Some(V1Curve::NistP256),
            240 | 243 => Some(V1Curve::BrainpoolP256r1),
            241 | 244 => Some(V1Curve::NistP384),
            242 | 245 => Some(V1Curve::BrainpoolP384r1),
            _ => None,
        }
    }

    pub fn is_ecdsa(self) -> bool {
        matches!(self.0, 0 | 240 | 241 | 242)
    }

    pub fn is_ecies(self) -> bool {
        matches!(self.0, 1 | 243 | 244 | 245)
    }

    /// True for the non-standard values of the extension.
    pub fn is_extension(self) -> bool {
        (240..=245).contains(&self.0)
    }

    pub fn field_size(self) -> Option<usize> {
        self.curve().map(V1Curve::field_size)
    }

    pub fn name(self) -> String {
        match self.0 {
            0 => "ecdsa_nistp256_with_sha256".into(),
            1 => "ecies_nistp256".into(),
            240 => "ecdsa_brainpoolp256r1_with_sha256 (extension)".into(),
            241 => "ecdsa_nistp384_with_sha384 (extension)".into(),
            242 => "ecdsa_brainpoolp384r1_with_sha384 (extension)".into(),
            243 => "ecies_brainpoolp256r1 (extension)".into(),
            244 => "ecies_nistp384 (extension)".into(),
            245 => "ecies_brainpoolp384r1 (extension)".into(),
            v => format!("unknown({v})"),
        }
    }
}

/// SymmetricAlgorithm (§4.2.3); 240 = aes_256_ccm is the extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SymmetricAlgorithm(pub u8);

impl SymmetricAlgorithm {
    pub const AES_128_CCM: Self = Self(0);
    pub const AES_256_CCM: Self = Self(240);

    pub fn key_len(self) -> Option<usize> {
        match self.0 {
            0 => Some(16),
            240 => Some(32),
            _ => None,
        }
    }

    pub fn is_extension(self) -> bool {
        self.0 == 240
    }

    pub fn name(self) -> String {
        match self.0 {
            0 => "aes_128_ccm".into(),
            240 => "aes_256_ccm (extension)".into(),
            v => format!("unknown({v})"),
        }
    }
}

/// Runs `f` on the body of an algorithm-selected structure: in place for standard
/// algorithms, inside an `opaque<var>` for the extension values.
pub(crate) fn read_alg_body<'a, T>(
    r: &mut Reader<'a>,
    extension: bool,
    what: &'static str,
    f: impl FnOnce(&mut Reader<'a>) -> Result<T, V1Error>,
) -> Result<T, V1Error> {
    if extension {
        let mut sub = read_vector(r, what)?;
        let v = f(&mut sub)?;
        sub.finish(what)?;
        Ok(v)
    } else {
        f(r)
    }
}

pub(crate) fn write_alg_body(w: &mut Writer, extension: bool, f: impl FnOnce(&mut Writer)) {
    if extension {
        let mut body = Writer::new();
        f(&mut body);
        put_opaque_var(w, body.as_slice());
    } else {
        f(w);
    }
}

/// EccPoint (§4.2.5) with its type (§4.2.6). `x` (and `y`) have the field size of the
/// algorithm the point belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EccPoint {
    XCoordinateOnly(Vec<u8>),
    CompressedLsbY0(Vec<u8>),
    CompressedLsbY1(Vec<u8>),
    Uncompressed {
        x: Vec<u8>,
        y: Vec<u8>,
    },
    /// Unknown point type: `x[field_size]` then `opaque data<var>`.
    Other {
        point_type: u8,
        x: Vec<u8>,
        data: Vec<u8>,
    },
}

impl EccPoint {
    pub fn type_value(&self) -> u8 {
        match self {
            EccPoint::XCoordinateOnly(_) => 0,
            EccPoint::CompressedLsbY0(_) => 2,
            EccPoint::CompressedLsbY1(_) => 3,
            EccPoint::Uncompressed { .. } => 4,
            EccPoint::Other { point_type, .. } => *point_type,
        }
    }

    pub fn type_name(&self) -> String {
        match self.type_value() {
            0 => "x_coordinate_only".into(),
            2 => "compressed_lsb_y_0".into(),
            3 => "compressed_lsb_y_1".into(),
            4 => "uncompressed".into(),
            v => format!("unknown({v})"),
        }
    }

    pub fn x(&self) -> &[u8] {
        match self {
            EccPoint::XCoordinateOnly(x)
            | EccPoint::CompressedLsbY0(x)
            | EccPoint::CompressedLsbY1(x)
            | EccPoint::Uncompressed { x, .. }
            | EccPoint::Other { x, .. } => x,
        }
    }

    pub fn decode(r: &mut Reader<'_>, field_size: usize) -> Result<EccPoint, V1Error> {
        let t = r.u8("EccPoint.type")?;
        let x = r.take(field_size, "EccPoint.x")?.to_vec();
        Ok(match t {
            0 => EccPoint::XCoordinateOnly(x),
            2 => EccPoint::CompressedLsbY0(x),
            3 => EccPoint::CompressedLsbY1(x),
            4 => EccPoint::Uncompressed {
                x,
                y: r.take(field_size, "EccPoint.y")?.to_vec(),
            },
            point_type => EccPoint::Other {
                point_type,
                x,
                data: read_opaque_var(r, "EccPoint.data")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        w.bytes(self.x());
        match self {
            EccPoint::Uncompressed { y, .. } => {
                w.bytes(y);
            }
            EccPoint::Other { data, .. } => put_opaque_var(w, data),
            _ => {}
        }
    }
}

/// PublicKey (§4.2.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublicKey {
    /// A verification key (ECDSA algorithms).
    Ecdsa {
        algorithm: PublicKeyAlgorithm,
        key: EccPoint,
    },
    /// An encryption key (ECIES algorithms) with the symmetric algorithm it supports.
    Ecies {
        algorithm: PublicKeyAlgorithm,
        supported_symm_alg: SymmetricAlgorithm,
        key: EccPoint,
    },
    Other {
        algorithm: PublicKeyAlgorithm,
        data: Vec<u8>,
    },
}

impl PublicKey {
    pub fn algorithm(&self) -> PublicKeyAlgorithm {
        match self {
            PublicKey::Ecdsa { algorithm, .. }
            | PublicKey::Ecies { algorithm, .. }
            | PublicKey::Other { algorithm, .. } => *algorithm,
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<PublicKey, V1Error> {
        let algorithm = PublicKeyAlgorithm(r.u8("PublicKey.algorithm")?);
        match algorithm.field_size() {
            Some(fs) if algorithm.is_ecdsa() => read_alg_body(r, algorithm.is_extension(), "PublicKey", |r| {
                Ok(PublicKey::Ecdsa {
                    algorithm,
                    key: EccPoint::decode(r, fs)?,
                })
            }),
            Some(fs) => read_alg_body(r, algorithm.is_extension(), "PublicKey", |r| {
                let supported_symm_alg = SymmetricAlgorithm(r.u8("PublicKey.supported_symm_alg")?);
                Ok(PublicKey::Ecies {
                    algorithm,
                    supported_symm_alg,
                    key: EccPoint::decode(r, fs)?,
                })
            }),
            None => Ok(PublicKey::Other {
                algorithm,
                data: read_opaque_var(r, "PublicKey.other_key")?,
            }),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.encode(&mut w);
        w.into_vec()
    }

    pub fn encode(&self, w: &mut Writer) {
        let alg = self.algorithm();
        w.u8(alg.0);
        match self {
            PublicKey::Ecdsa { key, .. } => write_alg_body(w, alg.is_extension(), |o| key.encode(o)),
            PublicKey::Ecies {
                supported_symm_alg,
                key,
                ..
            } => write_alg_body(w, alg.is_extension(), |o| {
                o.u8(supported_symm_alg.0);
                key.encode(o);
            }),
            PublicKey::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

/// EncryptionParameters (§4.2.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncryptionParameters {
    /// AES-CCM (128, or 256 as the extension) with its 12-byte nonce.
    AesCcm {
        algorithm: SymmetricAlgorithm,
        nonce: [u8; 12],
    },
    Other {
        algorithm: SymmetricAlgorithm,
        params: Vec<u8>,
    },
}

impl EncryptionParameters {
    pub fn algorithm(&self) -> SymmetricAlgorithm {
        match self {
            EncryptionParameters::AesCcm { algorithm, .. } | EncryptionParameters::Other { algorithm, .. } => {
                *algorithm
            }
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<EncryptionParameters, V1Error> {
        let algorithm = SymmetricAlgorithm(r.u8("EncryptionParameters.symm_algorithm")?);
        if algorithm.key_len().is_some() {
            read_alg_body(r, algorithm.is_extension(), "EncryptionParameters", |r| {
                Ok(EncryptionParameters::AesCcm {
                    algorithm,
                    nonce: r.array("EncryptionParameters.nonce")?,
                })
            })
        } else {
            Ok(EncryptionParameters::Other {
                algorithm,
                params: read_opaque_var(r, "EncryptionParameters.params")?,
            })
        }
    }

    pub fn encode(&self, w: &mut Writer) {
        let alg = self.algorithm();
        w.u8(alg.0);
        match self {
            EncryptionParameters::AesCcm { nonce, .. } => write_alg_body(w, alg.is_extension(), |o| {
                o.bytes(nonce);
            }),
            EncryptionParameters::Other { params, .. } => put_opaque_var(w, params),
        }
    }
}

/// Signature (§4.2.8) with EcdsaSignature (§4.2.9): R as an EccPoint and s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Signature {
    Ecdsa {
        algorithm: PublicKeyAlgorithm,
        r: EccPoint,
        s: Vec<u8>,
    },
    Other {
        algorithm: PublicKeyAlgorithm,
        data: Vec<u8>,
    },
}

impl Signature {
    pub fn algorithm(&self) -> PublicKeyAlgorithm {
        match self {
            Signature::Ecdsa { algorithm, .. } | Signature::Other { algorithm, .. } => *algorithm,
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<Signature, V1Error> {
        let algorithm = PublicKeyAlgorithm(r.u8("Signature.algorithm")?);
        match algorithm.field_size() {
            Some(fs) if algorithm.is_ecdsa() => read_alg_body(r, algorithm.is_extension(), "Signature", |r| {
                let rp = EccPoint::decode(r, fs)?;
                let s = r.take(fs, "EcdsaSignature.s")?.to_vec();
                Ok(Signature::Ecdsa { algorithm, r: rp, s })
            }),
            _ => Ok(Signature::Other {
                algorithm,
                data: read_opaque_var(r, "Signature.signature")?,
            }),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::new();
        self.encode(&mut w);
        w.into_vec()
    }

    pub fn encode(&self, w: &mut Writer) {
        let alg = self.algorithm();
        w.u8(alg.0);
        match self {
            Signature::Ecdsa { r, s, .. } => write_alg_body(w, alg.is_extension(), |o| {
                r.encode(o);
                o.bytes(s);
            }),
            Signature::Other { data, .. } => put_opaque_var(w, data),
        }
    }

    /// The same signature with R reduced to `x_coordinate_only` — the canonical form
    /// §4.2.12 hashes when computing a certificate's HashedId8.
    pub fn canonical(&self) -> Signature {
        match self {
            Signature::Ecdsa { algorithm, r, s } => Signature::Ecdsa {
                algorithm: *algorithm,
                r: EccPoint::XCoordinateOnly(r.x().to_vec()),
                s: s.clone(),
            },
            other => other.clone(),
        }
    }
}

/// Time64WithStandardDeviation (§4.2.16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Time64WithStandardDeviation {
    /// Microseconds since 2004-01-01 00:00:00 UTC (TAI in the standard).
    pub time: u64,
    pub log_std_dev: u8,
}

/// Duration (§4.2.17): 3 bits of unit, 13 bits of value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Duration(pub u16);

impl Duration {
    pub const SECONDS: u8 = 0;
    pub const MINUTES: u8 = 1;
    pub const HOURS: u8 = 2;
    pub const SIXTY_HOUR_BLOCKS: u8 = 3;
    pub const YEARS: u8 = 4;

    /// Builds a duration; `None` when the value does not fit 13 bits or the unit is unknown.
    pub fn new(unit: u8, value: u16) -> Option<Duration> {
        (unit <= 4 && value < (1 << 13)).then(|| Duration((u16::from(unit) << 13) | value))
    }

    pub fn unit(self) -> u8 {
        (self.0 >> 13) as u8
    }

    pub fn value(self) -> u16 {
        self.0 & 0x1fff
    }

    /// Length in seconds (a year counts 31 556 925 s as in 1609.2); `None` for units 5–7.
    pub fn seconds(self) -> Option<u64> {
        let unit: u64 = match self.unit() {
            0 => 1,
            1 => 60,
            2 => 3600,
            3 => 216_000,
            4 => 31_556_925,
            _ => return None,
        };
        Some(unit * u64::from(self.value()))
    }
}

/// TwoDLocation (§4.2.18): latitude/longitude in 1/10 micro-degree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoDLocation {
    pub latitude: i32,
    pub longitude: i32,
}

impl TwoDLocation {
    pub fn decode(r: &mut Reader<'_>) -> Result<TwoDLocation, V1Error> {
        Ok(TwoDLocation {
            latitude: r.i32("latitude")?,
            longitude: r.i32("longitude")?,
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.bytes(&self.latitude.to_be_bytes());
        w.bytes(&self.longitude.to_be_bytes());
    }
}

/// ThreeDLocation (§4.2.19): elevation is two opaque bytes (0.1 m units, offset encoding).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreeDLocation {
    pub latitude: i32,
    pub longitude: i32,
    pub elevation: [u8; 2],
}

/// RectangularRegion (§4.2.22).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RectangularRegion {
    pub northwest: TwoDLocation,
    pub southeast: TwoDLocation,
}

/// GeographicRegion (§4.2.20) and its region types (§4.2.21).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeographicRegion {
    None,
    /// CircularRegion (§4.2.22): centre and radius in metres.
    Circle {
        center: TwoDLocation,
        radius: u16,
    },
    /// `RectangularRegion rectangular_region<var>`: a list of rectangles.
    Rectangle(Vec<RectangularRegion>),
    /// PolygonalRegion (§4.2.24): `TwoDLocation points<var>`.
    Polygon(Vec<TwoDLocation>),
    /// IdentifiedRegion (§4.2.25).
    Id {
        dictionary: u8,
        identifier: u16,
        local_region: u64,
    },
    Other {
        region_type: u8,
        data: Vec<u8>,
    },
}

impl GeographicRegion {
    pub fn type_value(&self) -> u8 {
        match self {
            GeographicRegion::None => 0,
            GeographicRegion::Circle { .. } => 1,
            GeographicRegion::Rectangle(_) => 2,
            GeographicRegion::Polygon(_) => 3,
            GeographicRegion::Id { .. } => 4,
            GeographicRegion::Other { region_type, .. } => *region_type,
        }
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<GeographicRegion, V1Error> {
        let t = r.u8("GeographicRegion.region_type")?;
        Ok(match t {
            0 => GeographicRegion::None,
            1 => GeographicRegion::Circle {
                center: TwoDLocation::decode(r)?,
                radius: r.u16("CircularRegion.radius")?,
            },
            2 => {
                let mut sub = read_vector(r, "RectangularRegion<var>")?;
                GeographicRegion::Rectangle(sub.many(|r| {
                    Ok::<_, V1Error>(RectangularRegion {
                        northwest: TwoDLocation::decode(r)?,
                        southeast: TwoDLocation::decode(r)?,
                    })
                })?)
            }
            3 => {
                let mut sub = read_vector(r, "PolygonalRegion<var>")?;
                GeographicRegion::Polygon(sub.many(TwoDLocation::decode)?)
            }
            4 => GeographicRegion::Id {
                dictionary: r.u8("IdentifiedRegion.region_dictionary")?,
                identifier: r.u16("IdentifiedRegion.region_identifier")?,
                local_region: read_var(r, "IdentifiedRegion.local_region")?,
            },
            region_type => GeographicRegion::Other {
                region_type,
                data: read_opaque_var(r, "GeographicRegion.other_region")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            GeographicRegion::None => {}
            GeographicRegion::Circle { center, radius } => {
                center.encode(w);
                w.bytes(&radius.to_be_bytes());
            }
            GeographicRegion::Rectangle(rects) => put_vec(w, rects, |rect, o| {
                rect.northwest.encode(o);
                rect.southeast.encode(o);
            }),
            GeographicRegion::Polygon(points) => put_vec(w, points, |p, o| p.encode(o)),
            GeographicRegion::Id {
                dictionary,
                identifier,
                local_region,
            } => {
                w.u8(*dictionary);
                w.bytes(&identifier.to_be_bytes());
                put_var(w, *local_region);
            }
            GeographicRegion::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_algorithms_are_wrapped_in_opaque_var() {
        let key = PublicKey::Ecdsa {
            algorithm: PublicKeyAlgorithm::ECDSA_NISTP384_WITH_SHA384,
            key: EccPoint::CompressedLsbY1(vec![7; 48]),
        };
        let out = key.to_bytes();
        // algorithm, length 49, point type, 48 bytes of x
        assert_eq!(out.len(), 1 + 1 + 1 + 48);
        assert_eq!(&out[..3], &[241, 49, 3]);
        assert_eq!(PublicKey::decode(&mut Reader::new(&out)).unwrap(), key);
        // A standard decoder sees `unknown: opaque<var>`.
        assert_eq!(
            PublicKey::decode(&mut Reader::new(&[7, 2, 0xaa, 0xbb])).unwrap(),
            PublicKey::Other {
                algorithm: PublicKeyAlgorithm(7),
                data: vec![0xaa, 0xbb]
            }
        );
    }

    #[test]
    fn duration_units() {
        let d = Duration::new(Duration::HOURS, 24).unwrap();
        assert_eq!(d.seconds(), Some(86_400));
        assert_eq!(Duration::new(5, 1), None);
        assert_eq!(Duration::new(0, 1 << 13), None);
    }
}
