//! The one byte cursor of every hand-written codec (TS 103 097 v1.2.1, GeoNetworking/BTP,
//! pcap, and the lightweight protocols' packet layouts), in the manner of rustls'
//! `msgs/codec.rs`: a [`Reader`] over untrusted bytes whose every read is bounds-checked
//! and names the field it was reading (with its absolute offset), and a [`Writer`] that
//! appends big-endian fields and length-prefixed vectors.
//!
//! Codec-specific encodings (v1.2.1's variable-length `IntX`, C-OER lengths) are built on
//! top of these two types in their own modules.

use thiserror::Error;

/// Bytes that do not decode: which field, where, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CursorError {
    #[error("truncated at byte {offset}: {field} needs {needed} bytes, {available} left")]
    Truncated {
        field: &'static str,
        offset: usize,
        needed: usize,
        available: usize,
    },
    #[error("unknown {field} value {value} at byte {offset}")]
    UnknownValue {
        field: &'static str,
        offset: usize,
        value: u64,
    },
    #[error("{field} at byte {offset}: {message}")]
    Invalid {
        field: &'static str,
        offset: usize,
        message: String,
    },
    #[error("{count} trailing bytes after {field} at byte {offset}")]
    Trailing {
        field: &'static str,
        offset: usize,
        count: usize,
    },
}

impl CursorError {
    /// The field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            CursorError::Truncated { field, .. }
            | CursorError::UnknownValue { field, .. }
            | CursorError::Invalid { field, .. }
            | CursorError::Trailing { field, .. } => field,
        }
    }

    /// Absolute offset (in the outermost input) where the error was found.
    pub fn offset(&self) -> usize {
        match self {
            CursorError::Truncated { offset, .. }
            | CursorError::UnknownValue { offset, .. }
            | CursorError::Invalid { offset, .. }
            | CursorError::Trailing { offset, .. } => *offset,
        }
    }
}

/// A cursor over untrusted bytes.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf[0]` in the outermost input, so that errors inside a sub-reader
    /// point into the whole packet.
    base: usize,
}

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Reader<'a> {
        Reader { buf, pos: 0, base: 0 }
    }

    /// Absolute offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The unread bytes, without consuming them.
    pub fn peek_rest(&self) -> &'a [u8] {
        self.buf.get(self.pos..).unwrap_or_default()
    }

    /// The next byte, without consuming it.
    pub fn peek_u8(&self, field: &'static str) -> Result<u8, CursorError> {
        self.peek_rest()
            .first()
            .copied()
            .ok_or_else(|| self.truncated(field, 1))
    }

    /// A truncation error at the current offset.
    pub fn truncated(&self, field: &'static str, needed: usize) -> CursorError {
        CursorError::Truncated {
            field,
            offset: self.offset(),
            needed,
            available: self.remaining(),
        }
    }

    /// An "invalid value" error at `offset` (usually a field's start, from [`offset`](Self::offset)).
    pub fn invalid_at(field: &'static str, offset: usize, message: impl Into<String>) -> CursorError {
        CursorError::Invalid {
            field,
            offset,
            message: message.into(),
        }
    }

    /// An "invalid value" error at the current offset.
    pub fn invalid(&self, field: &'static str, message: impl Into<String>) -> CursorError {
        Self::invalid_at(field, self.offset(), message)
    }

    /// An "unknown value" error for a field that started at `offset`.
    pub fn unknown_at(field: &'static str, offset: usize, value: u64) -> CursorError {
        CursorError::UnknownValue { field, offset, value }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], CursorError> {
        let s = self
            .buf
            .get(self.pos..self.pos.saturating_add(n))
            .ok_or_else(|| self.truncated(field, n))?;
        self.pos += n;
        Ok(s)
    }

    /// A sub-reader over exactly the next `n` bytes (errors inside it keep absolute offsets).
    pub fn sub(&mut self, n: usize, field: &'static str) -> Result<Reader<'a>, CursorError> {
        let base = self.offset();
        let buf = self.take(n, field)?;
        Ok(Reader { buf, pos: 0, base })
    }

    pub fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], CursorError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }

    pub fn u8(&mut self, field: &'static str) -> Result<u8, CursorError> {
        Ok(self.array::<1>(field)?[0])
    }

    pub fn u16(&mut self, field: &'static str) -> Result<u16, CursorError> {
        Ok(u16::from_be_bytes(self.array(field)?))
    }

    pub fn u32(&mut self, field: &'static str) -> Result<u32, CursorError> {
        Ok(u32::from_be_bytes(self.array(field)?))
    }

    pub fn i32(&mut self, field: &'static str) -> Result<i32, CursorError> {
        Ok(i32::from_be_bytes(self.array(field)?))
    }

    pub fn u64(&mut self, field: &'static str) -> Result<u64, CursorError> {
        Ok(u64::from_be_bytes(self.array(field)?))
    }

    /// A little-endian u16 (for the few little-endian formats, e.g. pcap headers).
    pub fn u16_le(&mut self, field: &'static str) -> Result<u16, CursorError> {
        Ok(u16::from_le_bytes(self.array(field)?))
    }

    /// A little-endian u32.
    pub fn u32_le(&mut self, field: &'static str) -> Result<u32, CursorError> {
        Ok(u32::from_le_bytes(self.array(field)?))
    }

    /// A big-endian unsigned integer of `n` <= 8 bytes.
    pub fn uint(&mut self, n: usize, field: &'static str) -> Result<u64, CursorError> {
        if n > 8 {
            return Err(self.invalid(field, format!("{n}-byte integer does not fit in 64 bits")));
        }
        Ok(self
            .take(n, field)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    /// A 1-byte length followed by that many bytes.
    pub fn var8(&mut self, field: &'static str) -> Result<&'a [u8], CursorError> {
        let n = self.u8(field)? as usize;
        self.take(n, field)
    }

    /// A 2-byte big-endian length followed by that many bytes.
    pub fn var16(&mut self, field: &'static str) -> Result<&'a [u8], CursorError> {
        let n = self.u16(field)? as usize;
        self.take(n, field)
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        let s = self.buf.get(self.pos..).unwrap_or_default();
        self.pos = self.buf.len();
        s
    }

    /// Errors when bytes are left over after `field` (a whole structure or a vector).
    pub fn finish(&self, field: &'static str) -> Result<(), CursorError> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(CursorError::Trailing {
                field,
                offset: self.offset(),
                count: self.remaining(),
            })
        }
    }

    /// Parses elements until the reader is exhausted (each call of `f` must consume bytes).
    pub fn many<T, E>(&mut self, mut f: impl FnMut(&mut Reader<'a>) -> Result<T, E>) -> Result<Vec<T>, E> {
        let mut out = Vec::new();
        while !self.is_empty() {
            out.push(f(self)?);
        }
        Ok(out)
    }
}

/// Appends big-endian fields and length-prefixed vectors to a buffer.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    pub fn with_capacity(n: usize) -> Writer {
        Writer {
            buf: Vec::with_capacity(n),
        }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    pub fn into_vec(self) -> Vec<u8> {
        self.buf
    }

    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_be_bytes())
    }

    /// A little-endian u16.
    pub fn u16_le(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// A little-endian u32.
    pub fn u32_le(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// The low `n` (<= 8) bytes of `v`, big-endian.
    pub fn uint(&mut self, v: u64, n: usize) -> &mut Self {
        let n = n.min(8);
        self.bytes(v.to_be_bytes().get(8 - n..).unwrap_or_default())
    }

    /// A 1-byte length and the bytes; errors when longer than 255.
    pub fn var8(&mut self, b: &[u8], field: &'static str) -> Result<&mut Self, CursorError> {
        let n = u8::try_from(b.len()).map_err(|_| too_long(field, self.len(), b.len(), 255))?;
        Ok(self.u8(n).bytes(b))
    }

    /// A 2-byte length and the bytes; errors when longer than 65535.
    pub fn var16(&mut self, b: &[u8], field: &'static str) -> Result<&mut Self, CursorError> {
        let n = u16::try_from(b.len()).map_err(|_| too_long(field, self.len(), b.len(), 65535))?;
        Ok(self.u16(n).bytes(b))
    }
}

impl From<Writer> for Vec<u8> {
    fn from(w: Writer) -> Vec<u8> {
        w.buf
    }
}

impl AsRef<[u8]> for Writer {
    fn as_ref(&self) -> &[u8] {
        &self.buf
    }
}

fn too_long(field: &'static str, offset: usize, len: usize, max: usize) -> CursorError {
    CursorError::Invalid {
        field,
        offset,
        message: format!("{len} bytes exceed the {max}-byte length prefix"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked_and_name_the_field() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u16("a").unwrap(), 0x0102);
        assert_eq!(
            r.u16("b"),
            Err(CursorError::Truncated {
                field: "b",
                offset: 2,
                needed: 2,
                available: 1
            })
        );
        assert_eq!(r.uint(1, "c").unwrap(), 3);
        r.finish("all").unwrap();
        assert!(Reader::new(&[0; 9]).uint(9, "x").is_err());
    }

    #[test]
    fn sub_readers_report_absolute_offsets() {
        let bytes = [9, 9, 3, 1, 2];
        let mut r = Reader::new(&bytes);
        r.take(2, "head").unwrap();
        let mut sub = r.sub(3, "body").unwrap();
        sub.u16("x").unwrap();
        let e = sub.u16("y").unwrap_err();
        assert_eq!(e.offset(), 4);
        assert_eq!(e.field(), "y");
        assert!(r.is_empty());
    }

    #[test]
    fn trailing_bytes_are_an_error() {
        let mut r = Reader::new(&[1, 2]);
        r.u8("a").unwrap();
        assert_eq!(
            r.finish("msg"),
            Err(CursorError::Trailing {
                field: "msg",
                offset: 1,
                count: 1
            })
        );
    }

    #[test]
    fn writer_round_trips_through_reader() {
        let mut w = Writer::new();
        w.uint(0x0102_0304_0506, 6)
            .u8(7)
            .i32(-2)
            .u16_le(0x0102)
            .u32_le(0x0304_0506);
        w.var16(b"xy", "v").unwrap().var8(b"z", "w").unwrap();
        let out = w.into_vec();
        let mut r = Reader::new(&out);
        assert_eq!(r.uint(6, "t").unwrap(), 0x0102_0304_0506);
        assert_eq!(r.u8("u").unwrap(), 7);
        assert_eq!(r.i32("i").unwrap(), -2);
        assert_eq!(r.take(6, "le").unwrap(), [2, 1, 6, 5, 4, 3]);
        assert_eq!(r.var16("v").unwrap(), b"xy");
        assert_eq!(r.var8("w").unwrap(), b"z");
        r.finish("all").unwrap();
    }

    #[test]
    fn over_long_vectors_are_refused() {
        let mut w = Writer::new();
        assert!(w.var8(&[0; 256], "v").is_err());
        assert!(w.var16(&vec![0; 65536], "v").is_err());
        assert!(w.is_empty());
    }
}
