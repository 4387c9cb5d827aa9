//! Byte reading and writing shared by the protocol decoders: every read is bounds
//! checked and names the field it was reading, so untrusted packets give typed errors.

/// A packet that does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("truncated: {field} needs {needed} bytes, {available} left")]
    Truncated {
        field: &'static str,
        needed: usize,
        available: usize,
    },
    #[error("unknown {field} value {value}")]
    UnknownValue { field: &'static str, value: u64 },
    #[error("{field}: {message}")]
    Invalid { field: &'static str, message: String },
    #[error("{0} trailing bytes")]
    Trailing(usize),
}

/// Cursor over untrusted bytes.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub fn remaining(&self) -> usize {
        self.bytes.len()
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize, field: &'static str) -> Result<&'a [u8], WireError> {
        if self.bytes.len() < n {
            return Err(WireError::Truncated {
                field,
                needed: n,
                available: self.bytes.len(),
            });
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    pub fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], WireError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N, field)?);
        Ok(out)
    }

    pub fn u8(&mut self, field: &'static str) -> Result<u8, WireError> {
        Ok(self.array::<1>(field)?[0])
    }

    pub fn u16(&mut self, field: &'static str) -> Result<u16, WireError> {
        Ok(u16::from_be_bytes(self.array(field)?))
    }

    pub fn u32(&mut self, field: &'static str) -> Result<u32, WireError> {
        Ok(u32::from_be_bytes(self.array(field)?))
    }

    pub fn u64(&mut self, field: &'static str) -> Result<u64, WireError> {
        Ok(u64::from_be_bytes(self.array(field)?))
    }

    /// A big-endian unsigned integer of `n` <= 8 bytes.
    pub fn uint(&mut self, n: usize, field: &'static str) -> Result<u64, WireError> {
        if n > 8 {
            return Err(WireError::Invalid {
                field,
                message: format!("{n}-byte integer"),
            });
        }
        Ok(self
            .take(n, field)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }

    /// A 2-byte length followed by that many bytes.
    pub fn var16(&mut self, field: &'static str) -> Result<&'a [u8], WireError> {
        let n = self.u16(field)? as usize;
        self.take(n, field)
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.bytes)
    }

    /// Errors when bytes are left over.
    pub fn finish(&self) -> Result<(), WireError> {
        if self.bytes.is_empty() {
            Ok(())
        } else {
            Err(WireError::Trailing(self.bytes.len()))
        }
    }
}

/// Appends the low `n` bytes of `v`, big-endian.
pub fn put_uint(out: &mut Vec<u8>, v: u64, n: usize) {
    for i in (0..n).rev() {
        out.push((v >> (8 * i)) as u8);
    }
}

/// Appends a 2-byte length and the bytes; errors when longer than 65535.
pub fn put_var16(out: &mut Vec<u8>, bytes: &[u8], field: &'static str) -> Result<(), WireError> {
    let n = u16::try_from(bytes.len()).map_err(|_| WireError::Invalid {
        field,
        message: format!("{} bytes exceed 65535", bytes.len()),
    })?;
    out.extend_from_slice(&n.to_be_bytes());
    out.extend_from_slice(bytes);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounds_checked() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u16("a").unwrap(), 0x0102);
        assert!(matches!(
            r.u16("b"),
            Err(WireError::Truncated {
                field: "b",
                needed: 2,
                available: 1
            })
        ));
        assert_eq!(r.uint(1, "c").unwrap(), 3);
        assert!(r.finish().is_ok());
        assert!(Reader::new(&[0; 9]).uint(9, "x").is_err());
    }

    #[test]
    fn put_uint_and_var16_round_trip() {
        let mut out = Vec::new();
        put_uint(&mut out, 0x0102_0304_0506, 6);
        put_var16(&mut out, b"xy", "v").unwrap();
        let mut r = Reader::new(&out);
        assert_eq!(r.uint(6, "t").unwrap(), 0x0102_0304_0506);
        assert_eq!(r.var16("v").unwrap(), b"xy");
        r.finish().unwrap();
    }
}
