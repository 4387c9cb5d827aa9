//! v2xsec's EXPERIMENTAL post-quantum secured message and certificate: not IEEE 1609.2, not
//! ETSI TS 103 097 (neither defines post-quantum types yet). Codec only; what the fields mean
//! and how they are checked is `v2x_security::pq`.
//!
//! The message keeps the standard `ToBeSignedData` (C-OER, exactly as 1609.2 encodes it) so
//! that payload, PSID, generation time and location are the standard's; only the signer and
//! the signature are experimental. Its first octet, 0xE1, is no 1609.2 `protocolVersion` (3)
//! and no TS 103 097 v1.2.1 version (2), so a standard receiver refuses it as undecodable
//! rather than misreading it.
//!
//! | field | bytes |
//! |---|---|
//! | magic | `E1` |
//! | design | 1 (1 pq-only, 2 composite, 3 partially hybrid) |
//! | tbsData | 2-byte length + the 1609.2 `ToBeSignedData` |
//! | signer | 1 (0 digest, 1 certificate) + 8 (HashedId8) or 2-byte length + [`PqCertificate`] |
//! | signature | 1 (scheme id) + 2-byte length + bytes |
//!
//! [`PqCertificate`], every field in order:
//!
//! | field | bytes |
//! |---|---|
//! | magic | `E1` |
//! | kind | 1 (0 root, 1 authority, 2 end entity) |
//! | issuer | 8 (HashedId8 of the issuing certificate; zero for a self-signed root) |
//! | name | 1-byte length + UTF-8 |
//! | validity | 4 (start, Time32: TAI seconds since 2004) + 4 (duration in seconds) |
//! | permissions | 1-byte count + per PSID: 4 (PSID) + 1-byte length + SSP |
//! | max depth | 1 (authority levels allowed below; 0 for an end entity) |
//! | subject key | 1 (scheme id) + 2-byte length + key |
//! | signature | 1 (scheme id) + 2-byte length + the issuer's signature over every byte before it |

use crate::cursor::{CursorError, Reader, Writer};

/// The first octet of both structures.
pub const MAGIC: u8 = 0xE1;

/// Signature-scheme identifiers (private to v2xsec; not registered anywhere).
pub mod scheme_id {
    pub const ECDSA_P256: u8 = 0x00;
    pub const ECDSA_P384: u8 = 0x01;
    pub const ECDSA_BP256: u8 = 0x02;
    pub const ECDSA_BP384: u8 = 0x03;
    pub const ML_DSA_44: u8 = 0x10;
    pub const ML_DSA_65: u8 = 0x11;
    pub const ML_DSA_87: u8 = 0x12;
    pub const FN_DSA_512: u8 = 0x20;
    pub const FN_DSA_1024: u8 = 0x21;
    pub const SLH_DSA_SHA2_128S: u8 = 0x30;
    pub const SLH_DSA_SHAKE_128F: u8 = 0x31;
    pub const ECDSA_P256_ML_DSA_44: u8 = 0x40;
    pub const ECDSA_P256_FN_DSA_512: u8 = 0x41;
}

/// Certificate kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CertKind {
    Root,
    Authority,
    EndEntity,
}

impl CertKind {
    fn to_u8(self) -> u8 {
        match self {
            CertKind::Root => 0,
            CertKind::Authority => 1,
            CertKind::EndEntity => 2,
        }
    }
}

/// One PSID with its SSP.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsidSsp {
    pub psid: u32,
    pub ssp: Vec<u8>,
}

/// A key or signature with its scheme identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tagged {
    pub scheme: u8,
    pub bytes: Vec<u8>,
}

/// The experimental certificate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PqCertificate {
    pub kind: CertKind,
    pub issuer: [u8; 8],
    pub name: String,
    pub start: u32,
    pub duration: u32,
    pub permissions: Vec<PsidSsp>,
    pub max_depth: u8,
    pub key: Tagged,
    pub signature: Tagged,
}

/// The experimental secured message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PqSecuredMessage {
    pub design: u8,
    /// The 1609.2 `ToBeSignedData`, as received.
    pub tbs: Vec<u8>,
    pub signer: PqSigner,
    pub signature: Tagged,
}

/// Who signed a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PqSigner {
    Digest([u8; 8]),
    /// The certificate's exact bytes (its HashedId8 and the signature input use them).
    Certificate(Vec<u8>),
}

fn put_tagged(w: &mut Writer, t: &Tagged, field: &'static str) -> Result<(), CursorError> {
    w.u8(t.scheme);
    w.var16(&t.bytes, field)?;
    Ok(())
}

fn get_tagged(r: &mut Reader<'_>, field: &'static str) -> Result<Tagged, CursorError> {
    Ok(Tagged {
        scheme: r.u8(field)?,
        bytes: r.var16(field)?.to_vec(),
    })
}

fn magic(r: &mut Reader<'_>, field: &'static str) -> Result<(), CursorError> {
    let at = r.offset();
    match r.u8(field)? {
        MAGIC => Ok(()),
        other => Err(Reader::unknown_at(field, at, u64::from(other))),
    }
}

impl PqCertificate {
    /// Every byte the issuer's signature covers.
    pub fn to_be_signed(&self) -> Result<Vec<u8>, CursorError> {
        let mut w = Writer::with_capacity(64 + self.key.bytes.len());
        w.u8(MAGIC).u8(self.kind.to_u8()).bytes(&self.issuer);
        w.var8(self.name.as_bytes(), "certificate name")?;
        w.u32(self.start).u32(self.duration);
        let count = u8::try_from(self.permissions.len())
            .map_err(|_| Reader::invalid_at("certificate permissions", 0, "more than 255 PSIDs"))?;
        w.u8(count);
        for p in &self.permissions {
            w.u32(p.psid);
            w.var8(&p.ssp, "certificate SSP")?;
        }
        w.u8(self.max_depth);
        put_tagged(&mut w, &self.key, "certificate subject key")?;
        Ok(w.into_vec())
    }

    pub fn encode(&self) -> Result<Vec<u8>, CursorError> {
        let mut w = Writer::new();
        w.bytes(&self.to_be_signed()?);
        put_tagged(&mut w, &self.signature, "certificate signature")?;
        Ok(w.into_vec())
    }

    /// Decodes exactly one certificate (no trailing bytes); returns it with the length of
    /// the bytes its signature covers.
    pub fn decode(bytes: &[u8]) -> Result<(PqCertificate, usize), CursorError> {
        let mut r = Reader::new(bytes);
        magic(&mut r, "certificate magic")?;
        let at = r.offset();
        let kind = match r.u8("certificate kind")? {
            0 => CertKind::Root,
            1 => CertKind::Authority,
            2 => CertKind::EndEntity,
            other => return Err(Reader::unknown_at("certificate kind", at, u64::from(other))),
        };
        let issuer = r.array::<8>("certificate issuer")?;
        let name_at = r.offset();
        let name = std::str::from_utf8(r.var8("certificate name")?)
            .map_err(|_| Reader::invalid_at("certificate name", name_at, "not UTF-8"))?
            .to_string();
        let start = r.u32("certificate validity start")?;
        let duration = r.u32("certificate validity duration")?;
        let count = r.u8("certificate permissions")?;
        let mut permissions = Vec::with_capacity(usize::from(count));
        for _ in 0..count {
            permissions.push(PsidSsp {
                psid: r.u32("certificate PSID")?,
                ssp: r.var8("certificate SSP")?.to_vec(),
            });
        }
        let max_depth = r.u8("certificate max depth")?;
        let key = get_tagged(&mut r, "certificate subject key")?;
        let tbs_len = r.offset();
        let signature = get_tagged(&mut r, "certificate signature")?;
        r.finish("certificate")?;
        Ok((
            PqCertificate {
                kind,
                issuer,
                name,
                start,
                duration,
                permissions,
                max_depth,
                key,
                signature,
            },
            tbs_len,
        ))
    }
}

impl PqSecuredMessage {
    pub fn encode(&self) -> Result<Vec<u8>, CursorError> {
        let mut w = Writer::with_capacity(16 + self.tbs.len() + self.signature.bytes.len());
        w.u8(MAGIC).u8(self.design);
        w.var16(&self.tbs, "tbsData")?;
        match &self.signer {
            PqSigner::Digest(d) => {
                w.u8(0).bytes(d);
            }
            PqSigner::Certificate(c) => {
                w.u8(1);
                w.var16(c, "signer certificate")?;
            }
        }
        put_tagged(&mut w, &self.signature, "signature")?;
        Ok(w.into_vec())
    }

    /// Decodes exactly one message (no trailing bytes). The certificate is kept as bytes
    /// (decode it with [`PqCertificate::decode`]).
    pub fn decode(bytes: &[u8]) -> Result<PqSecuredMessage, CursorError> {
        let mut r = Reader::new(bytes);
        magic(&mut r, "message magic")?;
        let design = r.u8("design")?;
        let tbs = r.var16("tbsData")?.to_vec();
        let at = r.offset();
        let signer = match r.u8("signer")? {
            0 => PqSigner::Digest(r.array::<8>("signer digest")?),
            1 => PqSigner::Certificate(r.var16("signer certificate")?.to_vec()),
            other => return Err(Reader::unknown_at("signer", at, u64::from(other))),
        };
        let signature = get_tagged(&mut r, "signature")?;
        r.finish("message")?;
        Ok(PqSecuredMessage {
            design,
            tbs,
            signer,
            signature,
        })
    }
}

/// Whether `bytes` starts like an experimental post-quantum structure (the magic octet).
pub fn is_experimental_pq(bytes: &[u8]) -> bool {
    bytes.first() == Some(&MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cert() -> PqCertificate {
        PqCertificate {
            kind: CertKind::EndEntity,
            issuer: [7; 8],
            name: String::new(),
            start: 700_000_000,
            duration: 7 * 86_400,
            permissions: vec![PsidSsp {
                psid: 36,
                ssp: vec![1, 0, 0],
            }],
            max_depth: 0,
            key: Tagged {
                scheme: scheme_id::ML_DSA_44,
                bytes: vec![9; 1312],
            },
            signature: Tagged {
                scheme: scheme_id::ML_DSA_44,
                bytes: vec![5; 2420],
            },
        }
    }

    #[test]
    fn certificate_and_message_round_trip_and_refuse_trailing_bytes() {
        let c = cert();
        let bytes = c.encode().unwrap();
        let (back, tbs_len) = PqCertificate::decode(&bytes).unwrap();
        assert_eq!(back, c);
        assert_eq!(&bytes[..tbs_len], &c.to_be_signed().unwrap()[..]);
        let mut extra = bytes.clone();
        extra.push(0);
        assert!(PqCertificate::decode(&extra).is_err());
        let m = PqSecuredMessage {
            design: 2,
            tbs: vec![0x40, 3, 0x80, 1, 0xaa, 0x40, 36, 0, 0, 0, 0, 0, 0, 0, 1],
            signer: PqSigner::Certificate(bytes),
            signature: Tagged {
                scheme: scheme_id::ECDSA_P256_ML_DSA_44,
                bytes: vec![1; 64 + 2420],
            },
        };
        let enc = m.encode().unwrap();
        assert!(is_experimental_pq(&enc));
        assert_eq!(PqSecuredMessage::decode(&enc).unwrap(), m);
        for cut in 0..enc.len() {
            assert!(PqSecuredMessage::decode(&enc[..cut]).is_err(), "prefix {cut}");
        }
    }
}
