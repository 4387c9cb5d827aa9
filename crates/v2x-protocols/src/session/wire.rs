//! The messages of the session-key schemes (big-endian; `var16` = 2-byte length + bytes; T = µs, 8 bytes):
//!
//! | message | fields |
//! |---|---|
//! | handshake 1 | 0x11 ‖ from 4 ‖ to 4 ‖ session 8 ‖ T ‖ [Wang: var16 p ‖ var16 g ‖ var16 Y_A] ‖ var16 Cert_A ‖ var16 Sig_A |
//! | handshake 2 | 0x12 ‖ from ‖ to ‖ session ‖ T ‖ [Wang: var16 Y_B] ‖ var16 Cert_B ‖ var16 Sig_B ‖ [Wang: HMAC 20] |
//! | handshake 3 (RH) | 0x13 ‖ from ‖ to ‖ session ‖ var16 {B‖SK‖T}_PuKB ‖ var16 Sig_A[B‖SK‖T] |
//! | handshake 3 (Wang) | 0x13 ‖ from ‖ to ‖ session ‖ T ‖ HMAC 20 |
//! | group key | 0x21 ‖ leader 4 ‖ group 8 ‖ T ‖ count 2 ‖ count × (H_i 8 ‖ var16 {SK}_PuKi) ‖ var16 Sig_L |
//! | data | 0x31 ‖ session or group 8 ‖ sequence 4 ‖ body |
//!
//!
//! Each message is parsed whole (the byte ranges its signature and HMAC cover kept) and
//! written with a [`Writer`]: the signed part first, so the signer can sign exactly
//! what was written, then the signature.

use v2x_wire::cursor::{CursorError, Reader, Writer};

/// Message types (the first byte).
pub const H1: u8 = 0x11;
pub const H2: u8 = 0x12;
pub const H3: u8 = 0x13;
pub const GROUP: u8 = 0x21;
pub const DATA: u8 = 0x31;
/// HMAC-SHA1 tags.
pub const HMAC_LEN: usize = 20;
/// type 1 ‖ session or group 8 ‖ sequence 4.
pub const DATA_HEADER_LEN: usize = 13;

/// Wang's Diffie–Hellman offer in step 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DhOffer<'a> {
    pub p: &'a [u8],
    pub g: &'a [u8],
    pub y: &'a [u8],
}

/// Handshake step 1: `M1, Sig_A[M1|T], Cert_A`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello<'a> {
    pub from: u32,
    pub to: u32,
    pub session: [u8; 8],
    pub t: u64,
    /// Wang only.
    pub dh: Option<DhOffer<'a>>,
    pub certificate: &'a [u8],
    /// What the signature covers: everything before it.
    pub signed: &'a [u8],
    pub signature: &'a [u8],
}

/// Handshake step 2: `M2, Sig_B[M2|T], Cert_B` (Wang: `, HMAC_SK(M2)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply<'a> {
    pub from: u32,
    pub to: u32,
    pub session: [u8; 8],
    pub t: u64,
    /// Wang only: Y_B.
    pub dh_public: Option<&'a [u8]>,
    pub certificate: &'a [u8],
    pub signed: &'a [u8],
    pub signature: &'a [u8],
    /// Wang only: the HMAC and what it covers (everything before it).
    pub mac: Option<(&'a [u8], &'a [u8])>,
}

/// The addressing fields every handshake step starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepHeader {
    pub from: u32,
    pub to: u32,
    pub session: [u8; 8],
}

/// The rest of handshake step 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfirmBody<'a> {
    /// Raya–Hubaux: `{B|SK|T}_PuKB, Sig_A[B|SK|T]`.
    KeyTransport { ciphertext: &'a [u8], signature: &'a [u8] },
    /// Wang: `T, HMAC_SK(M3)`; `covered` is what the HMAC covers.
    Mac { t: u64, covered: &'a [u8], mac: &'a [u8] },
}

/// Raya–Hubaux's step-3 plaintext `B ‖ SK ‖ T`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyTransport {
    pub to: u32,
    pub sk: [u8; 16],
    pub t: u64,
}

/// A group key message: one `H_i, {SK}_PuKi` per member, signed by the leader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupKey<'a> {
    pub leader: u32,
    pub group: [u8; 8],
    pub t: u64,
    pub entries: Vec<([u8; 8], &'a [u8])>,
    pub signed: &'a [u8],
    pub signature: &'a [u8],
}

/// The header of a data packet; `body` is what the protection mode made of the payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataHeader<'a> {
    pub id: [u8; 8],
    pub sequence: u32,
    pub body: &'a [u8],
}

fn step_header(r: &mut Reader<'_>, expected_type: u8) -> Result<StepHeader, CursorError> {
    let at = r.offset();
    let t = r.u8("type")?;
    if t != expected_type {
        return Err(Reader::unknown_at("type", at, u64::from(t)));
    }
    Ok(StepHeader {
        from: r.u32("from")?,
        to: r.u32("to")?,
        session: r.array::<8>("session")?,
    })
}

fn write_step_header(w: &mut Writer, step: u8, h: &StepHeader) {
    w.u8(step).u32(h.from).u32(h.to).bytes(&h.session);
}

impl<'a> Hello<'a> {
    pub fn parse(bytes: &'a [u8], wang: bool) -> Result<Hello<'a>, CursorError> {
        let mut r = Reader::new(bytes);
        let h = step_header(&mut r, H1)?;
        let t = r.u64("T")?;
        let dh = if wang {
            Some(DhOffer {
                p: r.var16("p")?,
                g: r.var16("g")?,
                y: r.var16("Y_A")?,
            })
        } else {
            None
        };
        let certificate = r.var16("certificate")?;
        let signed = &bytes[..r.offset()];
        let signature = r.var16("signature")?;
        r.finish("handshake 1")?;
        Ok(Hello {
            from: h.from,
            to: h.to,
            session: h.session,
            t,
            dh,
            certificate,
            signed,
            signature,
        })
    }

    /// Step 1 up to its signature.
    pub fn write_signed(
        h: &StepHeader,
        t: u64,
        dh: Option<DhOffer<'_>>,
        certificate: &[u8],
    ) -> Result<Writer, CursorError> {
        let mut w = Writer::new();
        write_step_header(&mut w, H1, h);
        w.u64(t);
        if let Some(dh) = dh {
            w.var16(dh.p, "p")?.var16(dh.g, "g")?.var16(dh.y, "Y_A")?;
        }
        w.var16(certificate, "certificate")?;
        Ok(w)
    }
}

impl<'a> Reply<'a> {
    pub fn parse(bytes: &'a [u8], wang: bool) -> Result<Reply<'a>, CursorError> {
        let mut r = Reader::new(bytes);
        let h = step_header(&mut r, H2)?;
        let t = r.u64("T")?;
        let dh_public = if wang { Some(r.var16("Y_B")?) } else { None };
        let certificate = r.var16("certificate")?;
        let signed = &bytes[..r.offset()];
        let signature = r.var16("signature")?;
        let covered = &bytes[..r.offset()];
        let mac = if wang {
            Some((r.take(HMAC_LEN, "HMAC")?, covered))
        } else {
            None
        };
        r.finish("handshake 2")?;
        Ok(Reply {
            from: h.from,
            to: h.to,
            session: h.session,
            t,
            dh_public,
            certificate,
            signed,
            signature,
            mac,
        })
    }

    /// Step 2 up to its signature.
    pub fn write_signed(
        h: &StepHeader,
        t: u64,
        dh_public: Option<&[u8]>,
        certificate: &[u8],
    ) -> Result<Writer, CursorError> {
        let mut w = Writer::new();
        write_step_header(&mut w, H2, h);
        w.u64(t);
        if let Some(y) = dh_public {
            w.var16(y, "Y_B")?;
        }
        w.var16(certificate, "certificate")?;
        Ok(w)
    }
}

/// Step 3's addressing, read before deciding how to read the rest.
pub fn read_confirm_header(r: &mut Reader<'_>) -> Result<StepHeader, CursorError> {
    step_header(r, H3)
}

impl<'a> ConfirmBody<'a> {
    /// The rest of step 3 (`r` after [`read_confirm_header`], over `bytes`).
    pub fn read(r: &mut Reader<'a>, bytes: &'a [u8], wang: bool) -> Result<ConfirmBody<'a>, CursorError> {
        let body = if wang {
            let t = r.u64("T")?;
            let covered = &bytes[..r.offset()];
            ConfirmBody::Mac {
                t,
                covered,
                mac: r.take(HMAC_LEN, "HMAC")?,
            }
        } else {
            ConfirmBody::KeyTransport {
                ciphertext: r.var16("ciphertext")?,
                signature: r.var16("signature")?,
            }
        };
        r.finish("handshake 3")?;
        Ok(body)
    }
}

/// Step 3 header; the caller appends the body.
pub fn write_confirm_header(h: &StepHeader) -> Writer {
    let mut w = Writer::new();
    write_step_header(&mut w, H3, h);
    w
}

impl KeyTransport {
    pub fn parse(bytes: &[u8]) -> Result<KeyTransport, CursorError> {
        let mut r = Reader::new(bytes);
        let kt = KeyTransport {
            to: r.u32("B")?,
            sk: r.array::<16>("SK")?,
            t: r.u64("T")?,
        };
        r.finish("key transport")?;
        Ok(kt)
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(28);
        w.u32(self.to).bytes(&self.sk).u64(self.t);
        w.into_vec()
    }
}

impl<'a> GroupKey<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<GroupKey<'a>, CursorError> {
        let mut r = Reader::new(bytes);
        let at = r.offset();
        let t = r.u8("type")?;
        if t != GROUP {
            return Err(Reader::unknown_at("type", at, u64::from(t)));
        }
        let leader = r.u32("leader")?;
        let group = r.array::<8>("group")?;
        let t = r.u64("T")?;
        let count = r.u16("count")?;
        let mut entries = Vec::new();
        for _ in 0..count {
            entries.push((r.array::<8>("H_i")?, r.var16("wrapped key")?));
        }
        let signed = &bytes[..r.offset()];
        let signature = r.var16("signature")?;
        r.finish("group key")?;
        Ok(GroupKey {
            leader,
            group,
            t,
            entries,
            signed,
            signature,
        })
    }

    /// A group key message up to its signature: `entries` are (H_i, wrapped key).
    pub fn write_signed(
        leader: u32,
        group: &[u8; 8],
        t: u64,
        entries: &[([u8; 8], Vec<u8>)],
    ) -> Result<Writer, CursorError> {
        let mut w = Writer::new();
        w.u8(GROUP).u32(leader).bytes(group).u64(t);
        let count = u16::try_from(entries.len())
            .map_err(|_| Reader::invalid_at("count", w.len(), format!("{} members exceed 65535", entries.len())))?;
        w.u16(count);
        for (h, wrapped) in entries {
            w.bytes(h).var16(wrapped, "wrapped key")?;
        }
        Ok(w)
    }
}

impl<'a> DataHeader<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<DataHeader<'a>, CursorError> {
        let mut r = Reader::new(bytes);
        let at = r.offset();
        let t = r.u8("type")?;
        if t != DATA {
            return Err(Reader::unknown_at("type", at, u64::from(t)));
        }
        Ok(DataHeader {
            id: r.array::<8>("session")?,
            sequence: r.u32("sequence")?,
            body: r.rest(),
        })
    }

    /// The header of a data packet; the caller appends the protected body.
    pub fn write(id: &[u8; 8], sequence: u32) -> Writer {
        let mut w = Writer::with_capacity(DATA_HEADER_LEN);
        w.u8(DATA).bytes(id).u32(sequence);
        w
    }
}
