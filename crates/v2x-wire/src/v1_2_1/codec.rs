//! The presentation-language primitives of TS 103 097 v1.2.1 §4.1–4.2: big-endian fixed
//! integers, opaque arrays, and the variable-length encoding shared by `IntX` and the
//! length prefix of `<var>` vectors (the number of leading 1-bits of the first byte is
//! the number of extra bytes, the remaining bits are the big-endian value).

use super::V1Error;

/// Largest value the encoding carries: 8 bytes, first byte `0xfe` (7 prefix 1-bits and
/// the terminating 0), then 56 value bits.
pub const VAR_MAX: u64 = (1u64 << 56) - 1;

/// Number of bytes the variable-length encoding of `v` takes (minimal form).
pub fn var_len_size(v: u64) -> usize {
    // n bytes carry 7*n value bits (n-1 prefix ones + 1 zero bit consume n bits).
    let mut n = 1;
    while n < 8 && v >= (1u64 << (7 * n)) {
        n += 1;
    }
    n
}

/// Appends the minimal variable-length encoding of `v`.
pub fn put_var(out: &mut Vec<u8>, v: u64) {
    let v = v.min(VAR_MAX);
    let n = var_len_size(v);
    let prefix: u8 = if n == 1 { 0 } else { !(0xffu8 >> (n - 1)) };
    let bytes = v.to_be_bytes();
    let mut encoded = [0u8; 8];
    encoded[8 - n..].copy_from_slice(&bytes[8 - n..]);
    encoded[8 - n] |= prefix;
    out.extend_from_slice(&encoded[8 - n..]);
}

/// Appends a `<var>` vector: its byte length then its content.
pub fn put_opaque_var(out: &mut Vec<u8>, data: &[u8]) {
    put_var(out, data.len() as u64);
    out.extend_from_slice(data);
}

/// A cursor over untrusted bytes; every read is bounds-checked and errors carry the
/// absolute offset of the field that failed.
#[derive(Clone, Copy)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// Offset of `buf[0]` in the outermost input, for error messages.
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

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    fn truncated(&self, what: &'static str, need: usize) -> V1Error {
        V1Error::Truncated {
            what,
            offset: self.offset(),
            need,
            have: self.remaining(),
        }
    }

    pub fn bytes(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], V1Error> {
        if self.remaining() < n {
            return Err(self.truncated(what, n));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], V1Error> {
        let s = self.bytes(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub fn u8(&mut self, what: &'static str) -> Result<u8, V1Error> {
        Ok(self.array::<1>(what)?[0])
    }

    pub fn u16(&mut self, what: &'static str) -> Result<u16, V1Error> {
        Ok(u16::from_be_bytes(self.array(what)?))
    }

    pub fn u32(&mut self, what: &'static str) -> Result<u32, V1Error> {
        Ok(u32::from_be_bytes(self.array(what)?))
    }

    pub fn i32(&mut self, what: &'static str) -> Result<i32, V1Error> {
        Ok(i32::from_be_bytes(self.array(what)?))
    }

    pub fn u64(&mut self, what: &'static str) -> Result<u64, V1Error> {
        Ok(u64::from_be_bytes(self.array(what)?))
    }

    /// IntX / vector length (§4.1, §4.2.1). Non-minimal encodings are rejected so that
    /// decode→encode is the identity and hashes of re-encodings equal hashes of what was
    /// received.
    pub fn var(&mut self, what: &'static str) -> Result<u64, V1Error> {
        let start = self.offset();
        let first = self.u8(what)?;
        let extra = first.leading_ones() as usize;
        if extra >= 8 {
            return Err(V1Error::Invalid {
                what,
                offset: start,
                detail: "length prefix with 8 leading 1-bits".into(),
            });
        }
        let mut v = u64::from(first & (0xffu8 >> (extra + 1).min(7)));
        if extra == 7 {
            v = 0;
        }
        for _ in 0..extra {
            v = (v << 8) | u64::from(self.u8(what)?);
        }
        if var_len_size(v) != extra + 1 {
            return Err(V1Error::Invalid {
                what,
                offset: start,
                detail: format!("non-minimal encoding of {v}"),
            });
        }
        Ok(v)
    }

    /// Reads a `<var>` length and returns a sub-reader over exactly that many bytes.
    pub fn sub_var(&mut self, what: &'static str) -> Result<Reader<'a>, V1Error> {
        let len = self.var(what)?;
        let len = usize::try_from(len).map_err(|_| self.truncated(what, usize::MAX))?;
        let base = self.offset();
        let s = self.bytes(len, what)?;
        Ok(Reader { buf: s, pos: 0, base })
    }

    pub fn opaque_var(&mut self, what: &'static str) -> Result<Vec<u8>, V1Error> {
        let mut sub = self.sub_var(what)?;
        let n = sub.remaining();
        Ok(sub.bytes(n, what)?.to_vec())
    }

    /// Fails when bytes are left over (inside a vector or after a whole structure).
    pub fn finish(&self, what: &'static str) -> Result<(), V1Error> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(V1Error::TrailingBytes {
                what,
                offset: self.offset(),
                count: self.remaining(),
            })
        }
    }

    /// Parses elements until the reader is exhausted.
    pub fn many<T>(&mut self, mut f: impl FnMut(&mut Reader<'a>) -> Result<T, V1Error>) -> Result<Vec<T>, V1Error> {
        let mut out = Vec::new();
        while !self.is_empty() {
            out.push(f(self)?);
        }
        Ok(out)
    }
}

/// Encodes items into a `<var>` vector.
pub fn put_vec<T>(out: &mut Vec<u8>, items: &[T], mut f: impl FnMut(&T, &mut Vec<u8>)) {
    let mut body = Vec::new();
    for it in items {
        f(it, &mut body);
    }
    put_opaque_var(out, &body);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u64) -> Vec<u8> {
        let mut o = Vec::new();
        put_var(&mut o, v);
        o
    }

    #[test]
    fn var_encoding_matches_spec_examples() {
        assert_eq!(enc(0), [0x00]);
        assert_eq!(enc(127), [0x7f]);
        assert_eq!(enc(128), [0x80, 0x80]);
        assert_eq!(enc(0x3fff), [0xbf, 0xff]);
        assert_eq!(enc(0x4000), [0xc0, 0x40, 0x00]);
        assert_eq!(enc(36), [36]);
        for v in [
            0,
            1,
            127,
            128,
            300,
            0x3fff,
            0x4000,
            0x1f_ffff,
            0x20_0000,
            1 << 40,
            VAR_MAX,
        ] {
            let e = enc(v);
            let mut r = Reader::new(&e);
            assert_eq!(r.var("v").unwrap(), v, "{v}");
            assert!(r.is_empty());
        }
    }

    #[test]
    fn rejects_non_minimal_and_truncated() {
        assert!(Reader::new(&[0x80, 0x05]).var("v").is_err());
        assert!(Reader::new(&[0x80]).var("v").is_err());
        assert!(Reader::new(&[0xff]).var("v").is_err());
        let err = Reader::new(&[0x05, 1, 2]).sub_var("vec").err().unwrap();
        assert!(matches!(err, V1Error::Truncated { offset: 1, .. }), "{err:?}");
    }
}
