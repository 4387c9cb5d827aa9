//! Classic libpcap capture files (microsecond timestamps, little-endian) with link type
//! Ethernet, carrying GeoNetworking frames (ethertype 0x8947) — what Wireshark and tshark
//! open directly. A reader is included for tests and for `v2x inspect` on captures.

use crate::geonet::ETHERTYPE_GEONETWORKING;
use std::io::{self, Write};
use thiserror::Error;

pub const PCAP_MAGIC_MICROS: u32 = 0xa1b2_c3d4;
pub const PCAP_MAGIC_NANOS: u32 = 0xa1b2_3c4d;
pub const LINKTYPE_ETHERNET: u32 = 1;
pub const ETHERNET_HEADER_LEN: usize = 14;
pub const BROADCAST_MAC: [u8; 6] = [0xff; 6];
/// Largest frame we write or accept.
pub const SNAPLEN: u32 = 65_535;

#[derive(Debug, Error)]
pub enum PcapError {
    #[error("I/O: {0}")]
    Io(#[from] io::Error),
    #[error("not a pcap file (magic 0x{0:08x})")]
    BadMagic(u32),
    #[error("truncated pcap: {0}")]
    Truncated(&'static str),
    #[error("link type {0} is not Ethernet (1)")]
    LinkType(u32),
    #[error("record of {0} bytes exceeds the snap length")]
    RecordTooLong(usize),
    #[error("frame of {0} bytes is shorter than an Ethernet header")]
    ShortFrame(usize),
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
        match bytes {
            [d0, d1, d2, d3, d4, d5, s0, s1, s2, s3, s4, s5, t0, t1, payload @ ..] => Ok(EthernetFrame {
                destination: [*d0, *d1, *d2, *d3, *d4, *d5],
                source: [*s0, *s1, *s2, *s3, *s4, *s5],
                ethertype: u16::from_be_bytes([*t0, *t1]),
                payload,
            }),
            _ => Err(PcapError::ShortFrame(bytes.len())),
        }
    }

    pub fn emit(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.destination);
        out.extend_from_slice(&self.source);
        out.extend_from_slice(&self.ethertype.to_be_bytes());
        out.extend_from_slice(self.payload);
    }
}

/// A broadcast GeoNetworking frame from `source`.
pub fn geonet_frame(source: [u8; 6], gn_packet: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(ETHERNET_HEADER_LEN + gn_packet.len());
    EthernetFrame {
        destination: BROADCAST_MAC,
        source,
        ethertype: ETHERTYPE_GEONETWORKING,
        payload: gn_packet,
    }
    .emit(&mut out);
    out
}

/// Writes a classic pcap stream.
pub struct PcapWriter<W: Write> {
    out: W,
}

impl<W: Write> PcapWriter<W> {
    /// Writes the global header (version 2.4, Ethernet link type).
    pub fn new(mut out: W) -> Result<PcapWriter<W>, PcapError> {
        let mut h = Vec::with_capacity(24);
        h.extend_from_slice(&PCAP_MAGIC_MICROS.to_le_bytes());
        h.extend_from_slice(&2u16.to_le_bytes());
        h.extend_from_slice(&4u16.to_le_bytes());
        h.extend_from_slice(&0i32.to_le_bytes()); // thiszone
        h.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
        h.extend_from_slice(&SNAPLEN.to_le_bytes());
        h.extend_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
        out.write_all(&h)?;
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
        let mut h = Vec::with_capacity(16);
        h.extend_from_slice(&secs.to_le_bytes());
        h.extend_from_slice(&micros.to_le_bytes());
        h.extend_from_slice(&len.to_le_bytes());
        h.extend_from_slice(&len.to_le_bytes());
        self.out.write_all(&h)?;
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
    let header = bytes.get(..24).ok_or(PcapError::Truncated("global header"))?;
    let magic_le = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
    let (big_endian, nanos) = match magic_le {
        PCAP_MAGIC_MICROS => (false, false),
        PCAP_MAGIC_NANOS => (false, true),
        m if m.swap_bytes() == PCAP_MAGIC_MICROS => (true, false),
        m if m.swap_bytes() == PCAP_MAGIC_NANOS => (true, true),
        m => return Err(PcapError::BadMagic(m)),
    };
    let u32_at = |b: &[u8], at: usize| -> u32 {
        let w = [b[at], b[at + 1], b[at + 2], b[at + 3]];
        if big_endian {
            u32::from_be_bytes(w)
        } else {
            u32::from_le_bytes(w)
        }
    };
    let link = u32_at(header, 20);
    if link != LINKTYPE_ETHERNET {
        return Err(PcapError::LinkType(link));
    }
    let mut records = Vec::new();
    let mut rest = &bytes[24..];
    while !rest.is_empty() {
        let rh = rest.get(..16).ok_or(PcapError::Truncated("record header"))?;
        let secs = u64::from(u32_at(rh, 0));
        let frac = u64::from(u32_at(rh, 4));
        let incl = u32_at(rh, 8) as usize;
        let original_len = u32_at(rh, 12);
        if incl > SNAPLEN as usize {
            return Err(PcapError::RecordTooLong(incl));
        }
        let data = rest.get(16..16 + incl).ok_or(PcapError::Truncated("record data"))?;
        let unix_micros = secs * 1_000_000 + if nanos { frac / 1_000 } else { frac };
        records.push(PcapRecord {
            unix_micros,
            original_len,
            data,
        });
        rest = &rest[16 + incl..];
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
