//! SecuredMessage (§5): header fields, payload, trailer fields, recipient info.

use super::certificate::{HashedId3, HashedId8, SignerInfo};
use super::codec::{put_opaque_var, put_var, put_vec, read_opaque_var, read_var, read_vector};
use super::types::{
    read_alg_body, write_alg_body, EccPoint, EncryptionParameters, PublicKeyAlgorithm, Signature, SymmetricAlgorithm,
    ThreeDLocation, Time64WithStandardDeviation,
};
use super::V1Error;
use crate::cursor::{Reader, Writer};

/// The protocol version of v1.2.1 SecuredMessages.
pub const PROTOCOL_VERSION: u8 = 2;

/// HeaderFieldType values (§5.5).
pub mod header_type {
    pub const GENERATION_TIME: u8 = 0;
    pub const GENERATION_TIME_STANDARD_DEVIATION: u8 = 1;
    pub const EXPIRATION: u8 = 2;
    pub const GENERATION_LOCATION: u8 = 3;
    pub const REQUEST_UNRECOGNIZED_CERTIFICATE: u8 = 4;
    pub const ITS_AID: u8 = 5;
    pub const SIGNER_INFO: u8 = 128;
    pub const ENCRYPTION_PARAMETERS: u8 = 129;
    pub const RECIPIENT_INFO: u8 = 130;
}

/// EciesEncryptedKey (§5.9): ephemeral key V, wrapped symmetric key c, tag t.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EciesEncryptedKey {
    pub v: EccPoint,
    /// `c[symm_key_len]`: 16 bytes for aes_128_ccm, 32 for the aes_256_ccm extension.
    pub c: Vec<u8>,
    pub t: [u8; 16],
}

/// The encrypted key of a RecipientInfo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncryptedKey {
    Ecies(EciesEncryptedKey),
    Other(Vec<u8>),
}

/// RecipientInfo (§5.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipientInfo {
    /// HashedId8 of the recipient's certificate.
    pub cert_id: HashedId8,
    pub pk_encryption: PublicKeyAlgorithm,
    pub enc_key: EncryptedKey,
}

impl RecipientInfo {
    fn decode(r: &mut Reader<'_>, symm_key_len: usize) -> Result<RecipientInfo, V1Error> {
        let cert_id = r.array("RecipientInfo.cert_id")?;
        let pk_encryption = PublicKeyAlgorithm(r.u8("RecipientInfo.pk_encryption")?);
        let enc_key = match pk_encryption.field_size() {
            Some(fs) if pk_encryption.is_ecies() => {
                let ext = pk_encryption.is_extension();
                read_alg_body(r, ext, "RecipientInfo.enc_key", |r| {
                    let v = EccPoint::decode(r, fs)?;
                    // Inside the extension wrapper the key length follows from the
                    // wrapper's length; in the standard case from EncryptionParameters.
                    let c_len = if ext {
                        r.remaining().saturating_sub(16)
                    } else {
                        symm_key_len
                    };
                    let c = r.take(c_len, "EciesEncryptedKey.c")?.to_vec();
                    let t = r.array("EciesEncryptedKey.t")?;
                    Ok(EncryptedKey::Ecies(EciesEncryptedKey { v, c, t }))
                })?
            }
            _ => EncryptedKey::Other(read_opaque_var(r, "RecipientInfo.enc_key")?),
        };
        Ok(RecipientInfo {
            cert_id,
            pk_encryption,
            enc_key,
        })
    }

    fn encode(&self, w: &mut Writer) {
        w.bytes(&self.cert_id);
        w.u8(self.pk_encryption.0);
        match &self.enc_key {
            EncryptedKey::Ecies(k) => write_alg_body(w, self.pk_encryption.is_extension(), |o| {
                k.v.encode(o);
                o.bytes(&k.c);
                o.bytes(&k.t);
            }),
            EncryptedKey::Other(data) => put_opaque_var(w, data),
        }
    }
}

/// HeaderField (§5.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderField {
    /// Time64: microseconds since 2004-01-01 00:00:00 UTC.
    GenerationTime(u64),
    GenerationTimeWithStandardDeviation(Time64WithStandardDeviation),
    /// Time32: seconds since 2004-01-01 00:00:00 UTC.
    Expiration(u32),
    GenerationLocation(ThreeDLocation),
    /// `HashedId3 digests<var>`: certificates the sender asks its neighbours to send.
    RequestUnrecognizedCertificate(Vec<HashedId3>),
    /// IntX ITS-AID (36 = CAM, 37 = DENM).
    ItsAid(u64),
    SignerInfo(SignerInfo),
    EncryptionParameters(EncryptionParameters),
    RecipientInfo(Vec<RecipientInfo>),
    Other {
        field_type: u8,
        data: Vec<u8>,
    },
}

impl HeaderField {
    pub fn type_value(&self) -> u8 {
        use header_type::*;
        match self {
            HeaderField::GenerationTime(_) => GENERATION_TIME,
            HeaderField::GenerationTimeWithStandardDeviation(_) => GENERATION_TIME_STANDARD_DEVIATION,
            HeaderField::Expiration(_) => EXPIRATION,
            HeaderField::GenerationLocation(_) => GENERATION_LOCATION,
            HeaderField::RequestUnrecognizedCertificate(_) => REQUEST_UNRECOGNIZED_CERTIFICATE,
            HeaderField::ItsAid(_) => ITS_AID,
            HeaderField::SignerInfo(_) => SIGNER_INFO,
            HeaderField::EncryptionParameters(_) => ENCRYPTION_PARAMETERS,
            HeaderField::RecipientInfo(_) => RECIPIENT_INFO,
            HeaderField::Other { field_type, .. } => *field_type,
        }
    }

    pub fn type_name(&self) -> String {
        match self.type_value() {
            0 => "generation_time".into(),
            1 => "generation_time_standard_deviation".into(),
            2 => "expiration".into(),
            3 => "generation_location".into(),
            4 => "request_unrecognized_certificate".into(),
            5 => "its_aid".into(),
            128 => "signer_info".into(),
            129 => "encryption_parameters".into(),
            130 => "recipient_info".into(),
            v => format!("unknown({v})"),
        }
    }

    fn decode(r: &mut Reader<'_>, symm: &mut Option<SymmetricAlgorithm>) -> Result<HeaderField, V1Error> {
        use header_type::*;
        let at = r.offset();
        let t = r.u8("HeaderField.type")?;
        Ok(match t {
            GENERATION_TIME => HeaderField::GenerationTime(r.u64("generation_time")?),
            GENERATION_TIME_STANDARD_DEVIATION => {
                HeaderField::GenerationTimeWithStandardDeviation(Time64WithStandardDeviation {
                    time: r.u64("generation_time")?,
                    log_std_dev: r.u8("log_std_dev")?,
                })
            }
            EXPIRATION => HeaderField::Expiration(r.u32("expiry_time")?),
            GENERATION_LOCATION => HeaderField::GenerationLocation(ThreeDLocation {
                latitude: r.i32("latitude")?,
                longitude: r.i32("longitude")?,
                elevation: r.array("elevation")?,
            }),
            REQUEST_UNRECOGNIZED_CERTIFICATE => {
                let mut sub = read_vector(r, "digests<var>")?;
                if sub.remaining() % 3 != 0 {
                    return Err(V1Error::Invalid {
                        what: "request_unrecognized_certificate",
                        offset: at,
                        detail: format!("{} bytes is not a list of HashedId3", sub.remaining()),
                    });
                }
                HeaderField::RequestUnrecognizedCertificate(sub.many(|r| r.array("HashedId3"))?)
            }
            ITS_AID => HeaderField::ItsAid(read_var(r, "its_aid")?),
            SIGNER_INFO => HeaderField::SignerInfo(SignerInfo::decode(r)?),
            ENCRYPTION_PARAMETERS => {
                let p = EncryptionParameters::decode(r)?;
                *symm = Some(p.algorithm());
                HeaderField::EncryptionParameters(p)
            }
            RECIPIENT_INFO => {
                let key_len = match symm {
                    None => 16,
                    Some(s) => s.key_len().ok_or_else(|| V1Error::Invalid {
                        what: "recipient_info",
                        offset: at,
                        detail: format!("key length unknown for symmetric algorithm {}", s.0),
                    })?,
                };
                let mut sub = read_vector(r, "recipients<var>")?;
                HeaderField::RecipientInfo(sub.many(|r| RecipientInfo::decode(r, key_len))?)
            }
            field_type => HeaderField::Other {
                field_type,
                data: read_opaque_var(r, "HeaderField.other_header")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            HeaderField::GenerationTime(t) => {
                w.bytes(&t.to_be_bytes());
            }
            HeaderField::GenerationTimeWithStandardDeviation(t) => {
                w.bytes(&t.time.to_be_bytes());
                w.u8(t.log_std_dev);
            }
            HeaderField::Expiration(t) => {
                w.bytes(&t.to_be_bytes());
            }
            HeaderField::GenerationLocation(l) => {
                w.bytes(&l.latitude.to_be_bytes());
                w.bytes(&l.longitude.to_be_bytes());
                w.bytes(&l.elevation);
            }
            HeaderField::RequestUnrecognizedCertificate(ids) => put_vec(w, ids, |id, o| {
                o.bytes(id);
            }),
            HeaderField::ItsAid(aid) => put_var(w, *aid),
            HeaderField::SignerInfo(s) => s.encode(w),
            HeaderField::EncryptionParameters(p) => p.encode(w),
            HeaderField::RecipientInfo(list) => put_vec(w, list, |ri, o| ri.encode(o)),
            HeaderField::Other { data, .. } => put_opaque_var(w, data),
        }
    }

    pub fn encoded_len(&self) -> usize {
        let mut w = Writer::new();
        self.encode(&mut w);
        w.len()
    }
}

/// PayloadType (§5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PayloadType(pub u8);

impl PayloadType {
    pub const UNSECURED: Self = Self(0);
    pub const SIGNED: Self = Self(1);
    pub const ENCRYPTED: Self = Self(2);
    pub const SIGNED_EXTERNAL: Self = Self(3);
    pub const SIGNED_AND_ENCRYPTED: Self = Self(4);

    pub fn name(self) -> String {
        match self.0 {
            0 => "unsecured".into(),
            1 => "signed".into(),
            2 => "encrypted".into(),
            3 => "signed_external".into(),
            4 => "signed_and_encrypted".into(),
            v => format!("unknown({v})"),
        }
    }
}

/// Payload (§5.2): a type and `opaque data<var>` (no data for `signed_external`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    pub payload_type: PayloadType,
    pub data: Vec<u8>,
}

impl Payload {
    pub fn decode(r: &mut Reader<'_>) -> Result<Payload, V1Error> {
        let payload_type = PayloadType(r.u8("Payload.type")?);
        let data = if payload_type == PayloadType::SIGNED_EXTERNAL {
            Vec::new()
        } else {
            read_opaque_var(r, "Payload.data")?
        };
        Ok(Payload { payload_type, data })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.payload_type.0);
        if self.payload_type != PayloadType::SIGNED_EXTERNAL {
            put_opaque_var(w, &self.data);
        }
    }
}

/// TrailerField (§5.6); type 1 = signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrailerField {
    Signature(Signature),
    Other { field_type: u8, data: Vec<u8> },
}

impl TrailerField {
    pub const SIGNATURE: u8 = 1;

    pub fn type_value(&self) -> u8 {
        match self {
            TrailerField::Signature(_) => Self::SIGNATURE,
            TrailerField::Other { field_type, .. } => *field_type,
        }
    }

    fn decode(r: &mut Reader<'_>) -> Result<TrailerField, V1Error> {
        let t = r.u8("TrailerField.type")?;
        Ok(match t {
            Self::SIGNATURE => TrailerField::Signature(Signature::decode(r)?),
            field_type => TrailerField::Other {
                field_type,
                data: read_opaque_var(r, "TrailerField.security_field")?,
            },
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(self.type_value());
        match self {
            TrailerField::Signature(s) => s.encode(w),
            TrailerField::Other { data, .. } => put_opaque_var(w, data),
        }
    }
}

/// SecuredMessage (§5.1) with `protocol_version` 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecuredMessage {
    pub header_fields: Vec<HeaderField>,
    pub payload: Payload,
    pub trailer_fields: Vec<TrailerField>,
}

impl SecuredMessage {
    /// Decodes exactly one message; trailing bytes are an error.
    pub fn from_bytes(bytes: &[u8]) -> Result<SecuredMessage, V1Error> {
        let mut r = Reader::new(bytes);
        let m = SecuredMessage::decode(&mut r)?;
        r.finish("SecuredMessage")?;
        Ok(m)
    }

    pub fn decode(r: &mut Reader<'_>) -> Result<SecuredMessage, V1Error> {
        let at = r.offset();
        let version = r.u8("SecuredMessage.protocol_version")?;
        if version != PROTOCOL_VERSION {
            return Err(V1Error::UnsupportedVersion {
                what: "SecuredMessage.protocol_version",
                offset: at,
                version,
            });
        }
        let mut symm = None;
        let mut hdr = read_vector(r, "header_fields<var>")?;
        let header_fields = hdr.many(|r| HeaderField::decode(r, &mut symm))?;
        let payload = Payload::decode(r)?;
        let mut trl = read_vector(r, "trailer_fields<var>")?;
        let trailer_fields = trl.many(TrailerField::decode)?;
        Ok(SecuredMessage {
            header_fields,
            payload,
            trailer_fields,
        })
    }

    pub fn encode(&self, w: &mut Writer) {
        w.u8(PROTOCOL_VERSION);
        put_vec(w, &self.header_fields, |h, o| h.encode(o));
        self.payload.encode(w);
        put_vec(w, &self.trailer_fields, |t, o| t.encode(o));
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(256 + self.payload.data.len());
        self.encode(&mut w);
        w.into_vec()
    }

    /// The bytes covered by the signature (§5.6, §7.1): protocol_version, header_fields
    /// and payload_field with their lengths, the length of trailer_fields, the trailer
    /// fields before the signature, and the type byte of the signature trailer field.
    /// `None` when no trailer field is a signature. The signature's own encoded length
    /// enters through the trailer length, so a signer computes this over the message
    /// with a placeholder signature of the final length (ECDSA signatures with an
    /// x-only R have a fixed length per curve).
    pub fn to_be_signed(&self) -> Option<Vec<u8>> {
        let sig_index = self
            .trailer_fields
            .iter()
            .position(|t| matches!(t, TrailerField::Signature(_)))?;
        let mut w = Writer::with_capacity(128 + self.payload.data.len());
        w.u8(PROTOCOL_VERSION);
        put_vec(&mut w, &self.header_fields, |h, o| h.encode(o));
        self.payload.encode(&mut w);
        let mut trailer = Writer::new();
        for t in &self.trailer_fields {
            t.encode(&mut trailer);
        }
        put_var(&mut w, trailer.len() as u64);
        for t in self.trailer_fields.get(..sig_index).unwrap_or_default() {
            t.encode(&mut w);
        }
        w.u8(TrailerField::SIGNATURE);
        Some(w.into_vec())
    }

    pub fn header(&self, field_type: u8) -> Option<&HeaderField> {
        self.header_fields.iter().find(|h| h.type_value() == field_type)
    }

    pub fn signer_info(&self) -> Option<&SignerInfo> {
        self.header_fields.iter().find_map(|h| match h {
            HeaderField::SignerInfo(s) => Some(s),
            _ => None,
        })
    }

    pub fn generation_time(&self) -> Option<u64> {
        self.header_fields.iter().find_map(|h| match h {
            HeaderField::GenerationTime(t) => Some(*t),
            HeaderField::GenerationTimeWithStandardDeviation(t) => Some(t.time),
            _ => None,
        })
    }

    pub fn its_aid(&self) -> Option<u64> {
        self.header_fields.iter().find_map(|h| match h {
            HeaderField::ItsAid(a) => Some(*a),
            _ => None,
        })
    }

    pub fn signature(&self) -> Option<&Signature> {
        self.trailer_fields.iter().find_map(|t| match t {
            TrailerField::Signature(s) => Some(s),
            _ => None,
        })
    }

    /// §5.4: signer_info, when present, is the first header field and appears once;
    /// the other fields follow in strictly ascending order of their type (so none
    /// repeats). Policy enforces it; the codec keeps what it received.
    pub fn header_order_valid(&self) -> bool {
        let mut types = self.header_fields.iter().map(HeaderField::type_value).peekable();
        if types.peek() == Some(&header_type::SIGNER_INFO) {
            types.next();
        }
        let rest: Vec<u8> = types.collect();
        !rest.contains(&header_type::SIGNER_INFO) && rest.windows(2).all(|w| matches!(w, [a, b] if a < b))
    }
}
