//! ETSI EN 302 636-4-1 GeoNetworking headers and EN 302 636-5-1 BTP-B, smoltcp style:
//! each header has a plain-data `Repr` with `parse` (from bytes, never panics) and `emit`.
//!
//! A GeoNetworking packet is a 4-byte basic header, then either the common header,
//! extended header, BTP header and payload ("network part"), or — when the basic header's
//! next header says "secured packet" — a secured message (IEEE 1609.2 / TS 103 097) whose
//! signed payload holds that network part. Only the single-hop broadcast (SHB) extended
//! header is modelled, which is what CAMs and one-hop DENMs use; other header types parse
//! up to the common header and are reported as unsupported.
//!
//! Version: EN 302 636-4-1 v1.3.1 and later put 1 in the basic header (Wireshark accepts 0
//! and 1 and flags anything else as bogus); we emit 1 and accept 0 or 1.

use crate::cursor::{CursorError, Reader, Writer};
use thiserror::Error;

/// Ethertype of GeoNetworking over Ethernet / ITS-G5.
pub const ETHERTYPE_GEONETWORKING: u16 = 0x8947;
/// GeoNetworking protocol version we emit (EN 302 636-4-1 v1.3.1+).
pub const GN_VERSION: u8 = 1;
/// BTP-B well-known port of the cooperative awareness basic service (CAM).
pub const BTP_PORT_CAM: u16 = 2001;
/// BTP-B well-known port of the DEN basic service (DENM).
pub const BTP_PORT_DENM: u16 = 2002;

pub const BASIC_HEADER_LEN: usize = 4;
pub const COMMON_HEADER_LEN: usize = 8;
pub const LONG_POSITION_VECTOR_LEN: usize = 24;
pub const SHB_HEADER_LEN: usize = LONG_POSITION_VECTOR_LEN + 4;
pub const BTP_HEADER_LEN: usize = 4;

/// Why bytes are not a GeoNetworking packet we understand.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GeonetError {
    /// Fewer bytes than a header needs (the field and its absolute offset are in the cause).
    #[error(transparent)]
    Truncated(#[from] CursorError),
    #[error("GeoNetworking version {0} is not supported (expected 0 or 1)")]
    UnsupportedVersion(u8),
    #[error("basic header next header {0} is not a common header (1) or a secured packet (2)")]
    UnsupportedBasicNextHeader(u8),
    #[error("common header next header {0} is not BTP-B (2)")]
    UnsupportedCommonNextHeader(u8),
    #[error("header type/subtype 0x{0:02x} is not single-hop broadcast (0x50)")]
    UnsupportedHeaderType(u8),
    #[error("common header declares a payload of {declared} bytes but {available} follow the headers")]
    PayloadLength { declared: usize, available: usize },
    #[error("payload of {0} bytes does not fit the 16-bit payload length field")]
    PayloadTooLong(usize),
    #[error("position vector field out of range: {0}")]
    OutOfRange(&'static str),
}

/// `parse(bytes)` of a header in terms of its `read` from a cursor: the header and the bytes
/// after it.
fn parse_with<'a, T>(
    bytes: &'a [u8],
    read: impl FnOnce(&mut Reader<'a>) -> Result<T, GeonetError>,
) -> Result<(T, &'a [u8]), GeonetError> {
    let mut r = Reader::new(bytes);
    let value = read(&mut r)?;
    Ok((value, r.rest()))
}

/// Next header of the basic header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BasicNextHeader {
    Any,
    CommonHeader,
    SecuredPacket,
    Unknown(u8),
}

impl BasicNextHeader {
    pub fn from_u4(v: u8) -> BasicNextHeader {
        match v {
            0 => BasicNextHeader::Any,
            1 => BasicNextHeader::CommonHeader,
            2 => BasicNextHeader::SecuredPacket,
            other => BasicNextHeader::Unknown(other),
        }
    }

    pub fn to_u4(self) -> u8 {
        match self {
            BasicNextHeader::Any => 0,
            BasicNextHeader::CommonHeader => 1,
            BasicNextHeader::SecuredPacket => 2,
            BasicNextHeader::Unknown(v) => v & 0x0f,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            BasicNextHeader::Any => "Any",
            BasicNextHeader::CommonHeader => "Common Header",
            BasicNextHeader::SecuredPacket => "Secured Packet",
            BasicNextHeader::Unknown(_) => "Unknown",
        }
    }
}

/// Packet lifetime: a 6-bit multiplier of a 2-bit base (50 ms, 1 s, 10 s, 100 s).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lifetime(pub u8);

impl Lifetime {
    pub const ONE_SECOND: Lifetime = Lifetime((1 << 2) | 1);
    pub const SIXTY_SECONDS: Lifetime = Lifetime((6 << 2) | 2);

    pub fn multiplier(self) -> u8 {
        self.0 >> 2
    }

    pub fn base_ms(self) -> u64 {
        match self.0 & 0x03 {
            0 => 50,
            1 => 1_000,
            2 => 10_000,
            _ => 100_000,
        }
    }

    pub fn millis(self) -> u64 {
        u64::from(self.multiplier()) * self.base_ms()
    }
}

/// Basic header (EN 302 636-4-1 §9.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BasicHeader {
    pub version: u8,
    pub next_header: BasicNextHeader,
    pub lifetime: Lifetime,
    pub remaining_hop_limit: u8,
}

impl BasicHeader {
    /// Basic header of a single-hop broadcast: RHL 1 as the standard requires for SHB.
    pub fn shb(secured: bool) -> BasicHeader {
        BasicHeader {
            version: GN_VERSION,
            next_header: if secured {
                BasicNextHeader::SecuredPacket
            } else {
                BasicNextHeader::CommonHeader
            },
            lifetime: Lifetime::ONE_SECOND,
            remaining_hop_limit: 1,
        }
    }

    pub fn parse(bytes: &[u8]) -> Result<(BasicHeader, &[u8]), GeonetError> {
        parse_with(bytes, Self::read)
    }

    pub fn read(r: &mut Reader<'_>) -> Result<BasicHeader, GeonetError> {
        let mut h = r.sub(BASIC_HEADER_LEN, "basic header")?;
        let version_next = h.u8("basic header")?;
        let version = version_next >> 4;
        if version > 1 {
            return Err(GeonetError::UnsupportedVersion(version));
        }
        h.u8("reserved")?;
        Ok(BasicHeader {
            version,
            next_header: BasicNextHeader::from_u4(version_next & 0x0f),
            lifetime: Lifetime(h.u8("lifetime")?),
            remaining_hop_limit: h.u8("remaining hop limit")?,
        })
    }

    pub fn emit(&self, w: &mut Writer) {
        w.u8((self.version << 4) | self.next_header.to_u4())
            .u8(0) // reserved
            .u8(self.lifetime.0)
            .u8(self.remaining_hop_limit);
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(BASIC_HEADER_LEN);
        self.emit(&mut w);
        w.into_vec()
    }
}

/// Next header of the common header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommonNextHeader {
    Any,
    BtpA,
    BtpB,
    Ipv6,
    Unknown(u8),
}

impl CommonNextHeader {
    pub fn from_u4(v: u8) -> CommonNextHeader {
        match v {
            0 => CommonNextHeader::Any,
            1 => CommonNextHeader::BtpA,
            2 => CommonNextHeader::BtpB,
            3 => CommonNextHeader::Ipv6,
            other => CommonNextHeader::Unknown(other),
        }
    }

    pub fn to_u4(self) -> u8 {
        match self {
            CommonNextHeader::Any => 0,
            CommonNextHeader::BtpA => 1,
            CommonNextHeader::BtpB => 2,
            CommonNextHeader::Ipv6 => 3,
            CommonNextHeader::Unknown(v) => v & 0x0f,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            CommonNextHeader::Any => "Any",
            CommonNextHeader::BtpA => "BTP-A",
            CommonNextHeader::BtpB => "BTP-B",
            CommonNextHeader::Ipv6 => "IPv6",
            CommonNextHeader::Unknown(_) => "Unknown",
        }
    }
}

/// Header type and subtype (HT << 4 | HST).
pub const HT_TSB_SINGLE_HOP: u8 = 0x50;

/// Human name of a header type/subtype byte.
pub fn header_type_name(ht: u8) -> &'static str {
    match ht {
        0x00 => "Any",
        0x10 => "Beacon",
        0x20 => "GeoUnicast",
        0x30 => "GeoAnycast (circle)",
        0x31 => "GeoAnycast (rectangle)",
        0x32 => "GeoAnycast (ellipse)",
        0x40 => "GeoBroadcast (circle)",
        0x41 => "GeoBroadcast (rectangle)",
        0x42 => "GeoBroadcast (ellipse)",
        0x50 => "Topologically-scoped broadcast (single-hop, SHB)",
        0x51 => "Topologically-scoped broadcast (multi-hop)",
        0x60 => "Location service request",
        0x61 => "Location service reply",
        _ => "Unknown",
    }
}

/// Common header (EN 302 636-4-1 §9.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommonHeader {
    pub next_header: CommonNextHeader,
    /// HT in the high nibble, HST in the low nibble.
    pub header_type: u8,
    /// Store-carry-forward (bit 7), channel offload (bit 6), DCC profile id (bits 0-5).
    pub traffic_class: u8,
    /// Flag itsGnIsMobile.
    pub mobile: bool,
    /// Bytes following the GeoNetworking headers (BTP header + application payload).
    pub payload_length: u16,
    pub max_hop_limit: u8,
}

impl CommonHeader {
    pub fn parse(bytes: &[u8]) -> Result<(CommonHeader, &[u8]), GeonetError> {
        parse_with(bytes, Self::read)
    }

    pub fn read(r: &mut Reader<'_>) -> Result<CommonHeader, GeonetError> {
        let mut h = r.sub(COMMON_HEADER_LEN, "common header")?;
        Ok(CommonHeader {
            next_header: CommonNextHeader::from_u4(h.u8("next header")? >> 4),
            header_type: h.u8("header type")?,
            traffic_class: h.u8("traffic class")?,
            mobile: h.u8("flags")? & 0x80 != 0,
            payload_length: h.u16("payload length")?,
            max_hop_limit: h.u8("maximum hop limit")?,
        })
    }

    pub fn emit(&self, w: &mut Writer) {
        w.u8(self.next_header.to_u4() << 4)
            .u8(self.header_type)
            .u8(self.traffic_class)
            .u8(if self.mobile { 0x80 } else { 0 })
            .u16(self.payload_length)
            .u8(self.max_hop_limit)
            .u8(0); // reserved
    }
}

/// GeoNetworking address: M (manual), ST (ITS station type), 10 reserved bits, 48-bit MID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GnAddress(pub [u8; 8]);

impl GnAddress {
    /// Automatically configured address of a station type (5 = passenger car) and link-layer id.
    pub fn new(station_type: u8, mid: [u8; 6]) -> GnAddress {
        let mut a = [0u8; 8];
        a[0] = (station_type & 0x1f) << 2;
        a[2..].copy_from_slice(&mid);
        GnAddress(a)
    }

    pub fn manual(&self) -> bool {
        self.0[0] & 0x80 != 0
    }

    pub fn station_type(&self) -> u8 {
        (self.0[0] >> 2) & 0x1f
    }

    pub fn mid(&self) -> [u8; 6] {
        [self.0[2], self.0[3], self.0[4], self.0[5], self.0[6], self.0[7]]
    }
}

/// Long position vector (EN 302 636-4-1 §9.5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LongPositionVector {
    pub address: GnAddress,
    /// Milliseconds since 2004-01-01T00:00:00 TAI, modulo 2^32.
    pub timestamp: u32,
    /// 1/10 micro-degree, -900000000..=900000000.
    pub latitude: i32,
    /// 1/10 micro-degree, -1800000000..=1800000000.
    pub longitude: i32,
    /// Position accuracy indicator.
    pub accurate: bool,
    /// 0.01 m/s, 15-bit signed.
    pub speed: i16,
    /// 0.1 degree from north, 0..=3600.
    pub heading: u16,
}

impl LongPositionVector {
    pub fn parse(bytes: &[u8]) -> Result<(LongPositionVector, &[u8]), GeonetError> {
        parse_with(bytes, Self::read)
    }

    pub fn read(r: &mut Reader<'_>) -> Result<LongPositionVector, GeonetError> {
        let mut h = r.sub(LONG_POSITION_VECTOR_LEN, "long position vector")?;
        let address = GnAddress(h.array("GN address")?);
        let timestamp = h.u32("timestamp")?;
        let latitude = h.i32("latitude")?;
        let longitude = h.i32("longitude")?;
        let speed_raw = h.u16("speed")?;
        Ok(LongPositionVector {
            address,
            timestamp,
            latitude,
            longitude,
            accurate: speed_raw & 0x8000 != 0,
            // Sign-extend the 15-bit speed.
            speed: ((speed_raw << 1) as i16) >> 1,
            heading: h.u16("heading")?,
        })
    }

    /// Range checks the dissector also makes (it flags violations as expert warnings).
    pub fn check(&self) -> Result<(), GeonetError> {
        if !(-900_000_000..=900_000_000).contains(&self.latitude) {
            return Err(GeonetError::OutOfRange("latitude"));
        }
        if !(-1_800_000_000..=1_800_000_000).contains(&self.longitude) {
            return Err(GeonetError::OutOfRange("longitude"));
        }
        if self.heading > 3600 {
            return Err(GeonetError::OutOfRange("heading"));
        }
        if !(-16384..=16383).contains(&self.speed) {
            return Err(GeonetError::OutOfRange("speed"));
        }
        Ok(())
    }

    pub fn emit(&self, w: &mut Writer) {
        let speed = (self.speed as u16) & 0x7fff;
        let pai = if self.accurate { 0x8000 } else { 0 };
        w.bytes(&self.address.0)
            .u32(self.timestamp)
            .i32(self.latitude)
            .i32(self.longitude)
            .u16(pai | speed)
            .u16(self.heading);
    }
}

/// Single-hop broadcast extended header: source position vector and 4 bytes of
/// media-dependent data (DCC information for ITS-G5, EN 302 636-4-2; zero when unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShbHeader {
    pub source: LongPositionVector,
    pub media_dependent: [u8; 4],
}

impl ShbHeader {
    pub fn parse(bytes: &[u8]) -> Result<(ShbHeader, &[u8]), GeonetError> {
        parse_with(bytes, Self::read)
    }

    pub fn read(r: &mut Reader<'_>) -> Result<ShbHeader, GeonetError> {
        Ok(ShbHeader {
            source: LongPositionVector::read(r)?,
            media_dependent: r.array("SHB media-dependent data")?,
        })
    }

    pub fn emit(&self, w: &mut Writer) {
        self.source.emit(w);
        w.bytes(&self.media_dependent);
    }
}

/// BTP-B header (EN 302 636-5-1 §7.3): destination port and destination port info.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BtpBHeader {
    pub destination_port: u16,
    pub destination_port_info: u16,
}

impl BtpBHeader {
    pub fn parse(bytes: &[u8]) -> Result<(BtpBHeader, &[u8]), GeonetError> {
        parse_with(bytes, Self::read)
    }

    pub fn read(r: &mut Reader<'_>) -> Result<BtpBHeader, GeonetError> {
        let mut h = r.sub(BTP_HEADER_LEN, "BTP-B header")?;
        Ok(BtpBHeader {
            destination_port: h.u16("destination port")?,
            destination_port_info: h.u16("destination port info")?,
        })
    }

    pub fn emit(&self, w: &mut Writer) {
        w.u16(self.destination_port).u16(self.destination_port_info);
    }

    pub fn port_name(port: u16) -> &'static str {
        match port {
            2001 => "CAM",
            2002 => "DENM",
            2003 => "MAPEM",
            2004 => "SPATEM",
            2006 => "IVIM",
            2009 => "CPM",
            _ => "unknown",
        }
    }
}

/// What follows the basic header in an unsecured packet, and what a secured packet's
/// signed payload holds: common header, SHB header, BTP-B header and the application payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkPart<'a> {
    pub common: CommonHeader,
    pub shb: ShbHeader,
    pub btp: BtpBHeader,
    pub payload: &'a [u8],
}

impl<'a> NetworkPart<'a> {
    /// Parse; bytes beyond the declared payload length (Ethernet padding) are ignored,
    /// fewer bytes than declared are an error.
    pub fn parse(bytes: &'a [u8]) -> Result<NetworkPart<'a>, GeonetError> {
        Self::read(&mut Reader::new(bytes))
    }

    /// Reads the network part at the reader's position; the reader ends after the declared
    /// payload (any padding stays unread).
    pub fn read(r: &mut Reader<'a>) -> Result<NetworkPart<'a>, GeonetError> {
        let common = CommonHeader::read(r)?;
        if common.header_type != HT_TSB_SINGLE_HOP {
            return Err(GeonetError::UnsupportedHeaderType(common.header_type));
        }
        let shb = ShbHeader::read(r)?;
        let declared = usize::from(common.payload_length);
        if r.remaining() < declared {
            return Err(GeonetError::PayloadLength {
                declared,
                available: r.remaining(),
            });
        }
        let mut body = r.sub(declared, "GeoNetworking payload")?;
        if common.next_header != CommonNextHeader::BtpB {
            return Err(GeonetError::UnsupportedCommonNextHeader(common.next_header.to_u4()));
        }
        let btp = BtpBHeader::read(&mut body)?;
        Ok(NetworkPart {
            common,
            shb,
            btp,
            payload: body.rest(),
        })
    }

    /// Emit; the payload length field is computed from the payload.
    pub fn emit(&self, w: &mut Writer) -> Result<(), GeonetError> {
        let pl = BTP_HEADER_LEN + self.payload.len();
        let pl16 = u16::try_from(pl).map_err(|_| GeonetError::PayloadTooLong(pl))?;
        let common = CommonHeader {
            payload_length: pl16,
            ..self.common
        };
        common.emit(w);
        self.shb.emit(w);
        self.btp.emit(w);
        w.bytes(self.payload);
        Ok(())
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>, GeonetError> {
        let mut w = Writer::with_capacity(COMMON_HEADER_LEN + SHB_HEADER_LEN + BTP_HEADER_LEN + self.payload.len());
        self.emit(&mut w)?;
        Ok(w.into_vec())
    }

    /// A single-hop broadcast of `payload` to BTP-B `port` from `source`.
    pub fn shb(source: LongPositionVector, port: u16, payload: &'a [u8]) -> NetworkPart<'a> {
        NetworkPart {
            common: CommonHeader {
                next_header: CommonNextHeader::BtpB,
                header_type: HT_TSB_SINGLE_HOP,
                // DCC profile DP2 for CAMs (TS 102 724); SCF and offload off.
                traffic_class: 0x02,
                mobile: true,
                payload_length: 0,
                max_hop_limit: 1,
            },
            shb: ShbHeader {
                source,
                media_dependent: [0; 4],
            },
            btp: BtpBHeader {
                destination_port: port,
                destination_port_info: 0,
            },
            payload,
        }
    }
}

/// A GeoNetworking packet as received: the basic header and what follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GnPacket<'a> {
    /// Basic header NH = common header: the network part is in clear.
    Unsecured {
        basic: BasicHeader,
        network: NetworkPart<'a>,
    },
    /// Basic header NH = secured packet: the rest is a secured message (1609.2 / TS 103 097
    /// v2 if its first byte is 3, TS 103 097 v1.2.1 if it is 2) whose payload is the
    /// network part; decoding it is the job of the security codecs.
    Secured { basic: BasicHeader, secured: &'a [u8] },
}

impl<'a> GnPacket<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<GnPacket<'a>, GeonetError> {
        let mut r = Reader::new(bytes);
        let basic = BasicHeader::read(&mut r)?;
        match basic.next_header {
            BasicNextHeader::CommonHeader => Ok(GnPacket::Unsecured {
                basic,
                network: NetworkPart::read(&mut r)?,
            }),
            BasicNextHeader::SecuredPacket => {
                r.peek_u8("secured packet")?;
                Ok(GnPacket::Secured {
                    basic,
                    secured: r.rest(),
                })
            }
            other => Err(GeonetError::UnsupportedBasicNextHeader(other.to_u4())),
        }
    }

    pub fn basic(&self) -> &BasicHeader {
        match self {
            GnPacket::Unsecured { basic, .. } | GnPacket::Secured { basic, .. } => basic,
        }
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>, GeonetError> {
        let mut w = Writer::new();
        self.basic().emit(&mut w);
        match self {
            GnPacket::Unsecured { network, .. } => network.emit(&mut w)?,
            GnPacket::Secured { secured, .. } => {
                w.bytes(secured);
            }
        }
        Ok(w.into_vec())
    }
}

/// Basic header for a secured packet followed by the secured message bytes.
pub fn secured_packet(secured_message: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(BASIC_HEADER_LEN + secured_message.len());
    BasicHeader::shb(true).emit(&mut w);
    w.bytes(secured_message);
    w.into_vec()
}

/// GeoNetworking timestamp of a 1609.2 Time64 (TAI microseconds since 2004-01-01):
/// TAI milliseconds since 2004-01-01 modulo 2^32 (EN 302 636-4-1 §9.5.2).
pub fn gn_timestamp_from_tai_micros(tai_micros: u64) -> u32 {
    (tai_micros / 1000) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pv() -> LongPositionVector {
        LongPositionVector {
            address: GnAddress::new(5, [0x02, 0x11, 0x22, 0x33, 0x44, 0x55]),
            timestamp: 0xdead_beef,
            latitude: 487_654_321,
            longitude: -23_456_789,
            accurate: true,
            speed: -1234,
            heading: 3599,
        }
    }

    #[test]
    fn shb_round_trip() {
        let payload = [1u8, 2, 3, 4, 5];
        let net = NetworkPart::shb(pv(), BTP_PORT_CAM, &payload);
        let mut w = Writer::new();
        BasicHeader::shb(false).emit(&mut w);
        net.emit(&mut w).unwrap();
        let bytes = w.into_vec();
        assert_eq!(
            bytes.len(),
            BASIC_HEADER_LEN + COMMON_HEADER_LEN + SHB_HEADER_LEN + BTP_HEADER_LEN + 5
        );
        assert_eq!(bytes[0], 0x11);
        let parsed = GnPacket::parse(&bytes).unwrap();
        match &parsed {
            GnPacket::Unsecured { basic, network } => {
                assert_eq!(basic.remaining_hop_limit, 1);
                assert_eq!(network.payload, &payload);
                assert_eq!(network.shb.source, pv());
                assert_eq!(network.btp.destination_port, 2001);
                assert_eq!(usize::from(network.common.payload_length), 9);
            }
            other => panic!("expected unsecured, got {other:?}"),
        }
        assert_eq!(parsed.to_bytes().unwrap(), bytes);
    }

    #[test]
    fn secured_packet_keeps_the_rest() {
        let bytes = secured_packet(&[3, 0x81, 0]);
        assert_eq!(bytes[0], 0x12);
        match GnPacket::parse(&bytes).unwrap() {
            GnPacket::Secured { secured, .. } => assert_eq!(secured, &[3, 0x81, 0]),
            other => panic!("expected secured, got {other:?}"),
        }
    }

    #[test]
    fn errors_are_typed() {
        assert!(matches!(
            GnPacket::parse(&[0x11, 0]),
            Err(GeonetError::Truncated { .. })
        ));
        assert_eq!(
            GnPacket::parse(&[0x21, 0, 0, 1]),
            Err(GeonetError::UnsupportedVersion(2))
        );
        assert_eq!(
            GnPacket::parse(&[0x13, 0, 0, 1]),
            Err(GeonetError::UnsupportedBasicNextHeader(3))
        );
        let mut bytes = BasicHeader::shb(false).to_bytes();
        bytes.extend(NetworkPart::shb(pv(), 2001, &[9; 10]).to_bytes().unwrap());
        bytes.truncate(bytes.len() - 1);
        assert!(matches!(
            GnPacket::parse(&bytes),
            Err(GeonetError::PayloadLength {
                declared: 14,
                available: 13
            })
        ));
    }

    #[test]
    fn negative_speed_sign_extends() {
        let mut w = Writer::new();
        pv().emit(&mut w);
        let (back, _) = LongPositionVector::parse(w.as_slice()).unwrap();
        assert_eq!(back.speed, -1234);
        assert!(back.accurate);
    }

    #[test]
    fn lifetime_decodes() {
        assert_eq!(Lifetime::ONE_SECOND.millis(), 1000);
        assert_eq!(Lifetime::SIXTY_SECONDS.millis(), 60_000);
    }
}
