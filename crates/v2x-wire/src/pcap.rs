//! Classic libpcap capture files (microsecond timestamps, little-endian) with link type
//! Ethernet, carrying GeoNetworking frames (ethertype 0x8947) — what Wireshark and tshark
//! open directly. A reader is included for tests and for `v2x inspect` on captures.

use crate::cursor::{CursorError, Reader, Writer};
use crate::geonet::ETHERTYPE_GEONETWORKING;
use crate::shared::Shared;
use std::io::{self, Write};
use thiserror::Error;

pub const PCAP_MAGIC_MICROS: u32 = 0xa1b2_c3d4;
pub const PCAP_MAGIC_NANOS: u32 = 0xa1b2_3c4d;
pub const LINKTYPE_ETHERNET: u32 = 1;
pub const ETHERNET_HEADER_LEN: usize = 14;
pub const BROADCAST_MAC: [u8; 6] = [0xff; 6];
/// Largest frame we write or accept.
pub const SNAPLEN: u32 = 65_535;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PcapError {
    #[error("I/O: {0}")]
    Io(Shared<io::Error>),
    #[error("not a pcap file (magic 0x{0:08x})")]
    BadMagic(u32),
    /// The file ends inside a header or record (the cause names which, and where).
    #[error("truncated pcap: {0}")]
    Truncated(CursorError),
    #[error("link type {0} is not Ethernet (1)")]
    LinkType(u32),
    #[error("record of {0} bytes exceeds the snap length")]
    RecordTooLong(usize),
    #[error("frame of {0} bytes is shorter than an Ethernet header")]
    ShortFrame(usize),
}

impl From<io::Error> for PcapError {
    fn from(e: io::Error) -> Self {
        PcapError::Io(Shared::new(e))
    }
}

/// An Ethernet II frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EthernetFrame<'a> {
    pub destination: [u8; 6],
    pub source: [u8; 6],
    pub ethertype: u16,
    pub payload: &'a [u8],
}

impl<'a> EthernetFrame<'a> {
    pub fn parse(bytes: &'a [u8]) -> Result<EthernetFrame<'a>, PcapError> {
        let short = |_| PcapError::ShortFrame(bytes.len());
        let mut r = Reader::new(bytes);
        Ok(EthernetFrame {
            destination: r.array("destination").map_err(short)?,
            source: r.array("source").map_err(short)?,
            ethertype: r.u16("ethertype").map_err(short)?,
            payload: r.rest(),
        })
    }

    pub fn emit(&self, w: &mut Writer) {
        w.bytes(&self.destination)
            .bytes(&self.source)
            .u16(self.ethertype)
            .bytes(self.payload);
    }
}

/// A broadcast GeoNetworking frame from `source`.
pub fn geonet_frame(source: [u8; 6], gn_packet: &[u8]) -> Vec<u8> {
    let mut w = Writer::with_capacity(ETHERNET_HEADER_LEN + gn_packet.len());
    EthernetFrame {
        destination: BROADCAST_MAC,
        source,
        ethertype: ETHERTYPE_GEONETWORKING,
        payload: gn_packet,
    }
    .emit(&mut w);
    w.into_vec()
}

/// Writes a classic pcap stream.
pub struct PcapWriter<W: Write> {
    out: W,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the global header (version 2.4, Ethernet link type).
    pub fn new(mut out: W) -> Result<PcapWriter<W>, PcapError> {
        let mut h = Writer::with_capacity(24);
        h.u32_le(PCAP_MAGIC_MICROS)
            .u16_le(2)
            .u16_le(4)
            .u32_le(0) // thiszone
            .u32_le(0) // sigfigs
            .u32_le(SNAPLEN)
            .u32_le(LINKTYPE_ETHERNET);
        out.write_all(h.as_slice())?;
        Ok(PcapWriter { out })
    }

    /// One record; `unix_micros` is the capture time in microseconds since the Unix epoch.
    pub fn write_frame(&mut self, unix_micros: u64, frame: &[u8]) -> Result<(), PcapError> {
        let len = u32::try_from(frame.len())
            .ok()
            .filter(|l| *l <= SNAPLEN)
            .ok_or(PcapError::RecordTooLong(frame.len()))?;
        let secs = u32::try_from(unix_micros / 1_000_000).unwrap_or(u32::MAX);
        let micros = (unix_micros % 1_000_000) as u32;
        let mut h = Writer::with_capacity(16);
        h.u32_le(secs).u32_le(micros).u32_le(len).u32_le(len);
        self.out.write_all(h.as_slice())?;
        self.out.write_all(frame)?;
        Ok(())
    }

    pub fn into_inner(mut self) -> Result<W, PcapError> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// One captured record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PcapRecord<'a> {
    pub unix_micros: u64,
    /// Length on the wire (may exceed the captured data).
    pub original_len: u32,
    pub data: &'a [u8],
}

/// True when `bytes` opens with a pcap magic number (either byte order).
pub fn looks_like_pcap(bytes: &[u8]) -> bool {
    match bytes {
        [a, b, c, d, ..] => {
            let le = u32::from_le_bytes([*a, *b, *c, *d]);
            let be = u32::from_be_bytes([*a, *b, *c, *d]);
            [PCAP_MAGIC_MICROS, PCAP_MAGIC_NANOS].contains(&le) || [PCAP_MAGIC_MICROS, PCAP_MAGIC_NANOS].contains(&be)
        }
        _ => false,
    }
}

/// Reads every record of an Ethernet pcap held in memory.
pub fn read_pcap(bytes: &[u8]) -> Result<Vec<PcapRecord<'_>>, PcapError> {
    let mut r = Reader::new(bytes);
    let mut header = r.sub(24, "global header").map_err(PcapError::Truncated)?;
    let magic_le = header.u32_le("magic").map_err(PcapError::Truncated)?;
    let (big_endian, nanos) = match magic_le {
        PCAP_MAGIC_MICROS => (false, false),
        PCAP_MAGIC_NANOS => (false, true),
        m if m.swap_bytes() == PCAP_MAGIC_MICROS => (true, false),
        m if m.swap_bytes() == PCAP_MAGIC_NANOS => (true, true),
        m => return Err(PcapError::BadMagic(m)),
    };
    // Every field of the file is in the byte order of its magic number.
    let u32_of = |r: &mut Reader<'_>, field| -> Result<u32, PcapError> {
        let v = if big_endian { r.u32(field) } else { r.u32_le(field) };
        v.map_err(PcapError::Truncated)
    };
    header
        .take(16, "version, thiszone, sigfigs, snaplen")
        .map_err(PcapError::Truncated)?;
    let link = u32_of(&mut header, "link type")?;
    if link != LINKTYPE_ETHERNET {
        return Err(PcapError::LinkType(link));
    }
    let mut records = Vec::new();
    while !r.is_empty() {
        let mut rh = r.sub(16, "record header").map_err(PcapError::Truncated)?;
        let secs = u64::from(u32_of(&mut rh, "timestamp seconds")?);
        let frac = u64::from(u32_of(&mut rh, "timestamp fraction")?);
        let incl = u32_of(&mut rh, "captured length")? as usize;
        let original_len = u32_of(&mut rh, "original length")?;
        if incl > SNAPLEN as usize {
            return Err(PcapError::RecordTooLong(incl));
        }
        let data = r.take(incl, "record data").map_err(PcapError::Truncated)?;
        let unix_micros = secs * 1_000_000 + if nanos { frac / 1_000 } else { frac };
        records.push(PcapRecord {
            unix_micros,
            original_len,
            data,
        });
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        let f1 = geonet_frame([2, 0, 0, 0, 0, 1], &[0x11, 0, 5, 1]);
        let f2 = geonet_frame([2, 0, 0, 0, 0, 2], &[0x12, 0, 5, 1, 3]);
        w.write_frame(1_700_000_000_123_456, &f1).unwrap();
        w.write_frame(1_700_000_000_223_456, &f2).unwrap();
        let bytes = w.into_inner().unwrap();
        assert_eq!(&bytes[..4], &[0xd4, 0xc3, 0xb2, 0xa1]);
        assert!(looks_like_pcap(&bytes));
        let recs = read_pcap(&bytes).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].unix_micros, 1_700_000_000_123_456);
        assert_eq!(recs[1].data, &f2[..]);
        let eth = EthernetFrame::parse(recs[0].data).unwrap();
        assert_eq!(eth.destination, BROADCAST_MAC);
        assert_eq!(eth.ethertype, 0x8947);
        assert_eq!(eth.payload, &[0x11, 0, 5, 1]);
    }

    #[test]
    fn truncation_is_an_error() {
        let mut w = PcapWriter::new(Vec::new()).unwrap();
        w.write_frame(0, &[0u8; 20]).unwrap();
        let bytes = w.into_inner().unwrap();
        for cut in 0..bytes.len() {
            if cut == 24 {
                assert!(read_pcap(&bytes[..cut]).unwrap().is_empty());
            } else {
                assert!(read_pcap(&bytes[..cut]).is_err(), "cut {cut}");
            }
        }
        assert!(matches!(read_pcap(&[0u8; 24]), Err(PcapError::BadMagic(0))));
    }
}
