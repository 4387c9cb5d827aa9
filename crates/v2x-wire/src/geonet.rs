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

pub mod its;

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
    #[error("{what}: needs {needed} bytes, only {available} left")]
    Truncated {
        what: &'static str,
        needed: usize,
        available: usize,
    },
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

fn take<'a>(bytes: &'a [u8], n: usize, what: &'static str) -> Result<(&'a [u8], &'a [u8]), GeonetError> {
    if bytes.len() < n {
        return Err(GeonetError::Truncated {
            what,
            needed: n,
            available: bytes.len(),
        });
    }
    Ok(bytes.split_at(n))
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
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
        let (h, rest) = take(bytes, BASIC_HEADER_LEN, "basic header")?;
        let version = h[0] >> 4;
        if version > 1 {
            return Err(GeonetError::UnsupportedVersion(version));
        }
        let header = BasicHeader {
            version,
            next_header: BasicNextHeader::from_u4(h[0] & 0x0f),
            lifetime: Lifetime(h[2]),
            remaining_hop_limit: h[3],
        };
        Ok((header, rest))
    }

    pub fn emit(&self, out: &mut Vec<u8>) {
        out.push((self.version << 4) | self.next_header.to_u4());
        out.push(0); // reserved
        out.push(self.lifetime.0);
        out.push(self.remaining_hop_limit);
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
        let (h, rest) = take(bytes, COMMON_HEADER_LEN, "common header")?;
        let header = CommonHeader {
            next_header: CommonNextHeader::from_u4(h[0] >> 4),
            header_type: h[1],
            traffic_class: h[2],
            mobile: h[3] & 0x80 != 0,
            payload_length: be16(h, 4),
            max_hop_limit: h[6],
        };
        Ok((header, rest))
    }

    pub fn emit(&self, out: &mut Vec<u8>) {
        out.push(self.next_header.to_u4() << 4);
        out.push(self.header_type);
        out.push(self.traffic_class);
        out.push(if self.mobile { 0x80 } else { 0 });
        out.extend_from_slice(&self.payload_length.to_be_bytes());
        out.push(self.max_hop_limit);
        out.push(0); // reserved
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
        let (h, rest) = take(bytes, LONG_POSITION_VECTOR_LEN, "long position vector")?;
        let mut address = [0u8; 8];
        address.copy_from_slice(&h[..8]);
        let speed_raw = be16(h, 20);
        // Sign-extend the 15-bit speed.
        let speed = ((speed_raw << 1) as i16) >> 1;
        let pv = LongPositionVector {
            address: GnAddress(address),
            timestamp: be32(h, 8),
            latitude: be32(h, 12) as i32,
            longitude: be32(h, 16) as i32,
            accurate: speed_raw & 0x8000 != 0,
            speed,
            heading: be16(h, 22),
        };
        Ok((pv, rest))
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

    pub fn emit(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.address.0);
        out.extend_from_slice(&self.timestamp.to_be_bytes());
        out.extend_from_slice(&self.latitude.to_be_bytes());
        out.extend_from_slice(&self.longitude.to_be_bytes());
        let speed = (self.speed as u16) & 0x7fff;
        let pai = if self.accurate { 0x8000 } else { 0 };
        out.extend_from_slice(&(pai | speed).to_be_bytes());
        out.extend_from_slice(&self.heading.to_be_bytes());
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
        let (source, rest) = LongPositionVector::parse(bytes)?;
        let (md, rest) = take(rest, 4, "SHB media-dependent data")?;
        Ok((
            ShbHeader {
                source,
                media_dependent: [md[0], md[1], md[2], md[3]],
            },
            rest,
        ))
    }

    pub fn emit(&self, out: &mut Vec<u8>) {
        self.source.emit(out);
        out.extend_from_slice(&self.media_dependent);
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
        let (h, rest) = take(bytes, BTP_HEADER_LEN, "BTP-B header")?;
        Ok((
            BtpBHeader {
                destination_port: be16(h, 0),
                destination_port_info: be16(h, 2),
            },
            rest,
        ))
    }

    pub fn emit(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.destination_port.to_be_bytes());
        out.extend_from_slice(&self.destination_port_info.to_be_bytes());
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
        let (common, rest) = CommonHeader::parse(bytes)?;
        if common.header_type != HT_TSB_SINGLE_HOP {
            return Err(GeonetError::UnsupportedHeaderType(common.header_type));
        }
        let (shb, rest) = ShbHeader::parse(rest)?;
        let declared = usize::from(common.payload_length);
        if rest.len() < declared {
            return Err(GeonetError::PayloadLength {
                declared,
                available: rest.len(),
            });
        }
        let rest = &rest[..declared];
        if common.next_header != CommonNextHeader::BtpB {
            return Err(GeonetError::UnsupportedCommonNextHeader(common.next_header.to_u4()));
        }
        let (btp, payload) = BtpBHeader::parse(rest)?;
        Ok(NetworkPart {
            common,
            shb,
            btp,
            payload,
        })
    }

    /// Emit; the payload length field is computed from the payload.
    pub fn emit(&self, out: &mut Vec<u8>) -> Result<(), GeonetError> {
        let pl = BTP_HEADER_LEN + self.payload.len();
        let pl16 = u16::try_from(pl).map_err(|_| GeonetError::PayloadTooLong(pl))?;
        let common = CommonHeader {
            payload_length: pl16,
            ..self.common
        };
        common.emit(out);
        self.shb.emit(out);
        self.btp.emit(out);
        out.extend_from_slice(self.payload);
        Ok(())
    }

    pub fn to_bytes(&self) -> Result<Vec<u8>, GeonetError> {
        let mut out = Vec::with_capacity(COMMON_HEADER_LEN + SHB_HEADER_LEN + BTP_HEADER_LEN + self.payload.len());
        self.emit(&mut out)?;
        Ok(out)
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
        let (basic, rest) = BasicHeader::parse(bytes)?;
        match basic.next_header {
            BasicNextHeader::CommonHeader => Ok(GnPacket::Unsecured {
                basic,
                network: NetworkPart::parse(rest)?,
            }),
            BasicNextHeader::SecuredPacket => {
                if rest.is_empty() {
                    return Err(GeonetError::Truncated {
                        what: "secured packet",
                        needed: 1,
                        available: 0,
                    });
                }
                Ok(GnPacket::Secured { basic, secured: rest })
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
        let mut out = Vec::new();
        self.basic().emit(&mut out);
        match self {
            GnPacket::Unsecured { network, .. } => network.emit(&mut out)?,
            GnPacket::Secured { secured, .. } => out.extend_from_slice(secured),
        }
        Ok(out)
    }
}

/// Basic header for a secured packet followed by the secured message bytes.
pub fn secured_packet(secured_message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(BASIC_HEADER_LEN + secured_message.len());
    BasicHeader::shb(true).emit(&mut out);
    out.extend_from_slice(secured_message);
    out
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
        let mut bytes = Vec::new();
        BasicHeader::shb(false).emit(&mut bytes);
        net.emit(&mut bytes).unwrap();
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
        let mut bytes = Vec::new();
        BasicHeader::shb(false).emit(&mut bytes);
        NetworkPart::shb(pv(), 2001, &[9; 10]).emit(&mut bytes).unwrap();
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
        let mut out = Vec::new();
        pv().emit(&mut out);
        let (back, _) = LongPositionVector::parse(&out).unwrap();
        assert_eq!(back.speed, -1234);
        assert!(back.accurate);
    }

    #[test]
    fn lifetime_decodes() {
        assert_eq!(Lifetime::ONE_SECOND.millis(), 1000);
        assert_eq!(Lifetime::SIXTY_SECONDS.millis(), 60_000);
    }
}
