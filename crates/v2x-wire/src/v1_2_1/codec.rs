//! The presentation-language encodings of TS 103 097 v1.2.1 §4.1–4.2 that are specific to
//! v1.2.1, built on the crate's one byte cursor ([`Reader`] / [`Writer`]): the variable-length
//! encoding shared by `IntX` and the length prefix of `<var>` vectors (the number of leading
//! 1-bits of the first byte is the number of extra bytes, the remaining bits are the big-endian
//! value). Fixed-size integers and arrays are plain cursor reads.

use crate::cursor::{CursorError, Reader, Writer};

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

/// Appends the minimal variable-length encoding of `v` (IntX, or a `<var>` length).
pub fn put_var(w: &mut Writer, v: u64) {
    let v = v.min(VAR_MAX);
    let n = var_len_size(v);
    let prefix: u8 = if n == 1 { 0 } else { !(0xffu8 >> (n - 1)) };
    let mut encoded = v.to_be_bytes();
    let tail = encoded.get_mut(8 - n..).unwrap_or_default();
    if let Some(first) = tail.first_mut() {
        *first |= prefix;
    }
    w.bytes(tail);
}

/// Appends an `opaque<var>`: its byte length then its content.
pub fn put_opaque_var(w: &mut Writer, data: &[u8]) {
    put_var(w, data.len() as u64);
    w.bytes(data);
}

/// Appends a `<var>` vector of items, each written by `f`.
pub fn put_vec<T>(w: &mut Writer, items: &[T], mut f: impl FnMut(&T, &mut Writer)) {
    let mut body = Writer::new();
    for it in items {
        f(it, &mut body);
    }
    put_opaque_var(w, body.as_slice());
}

/// Reads an IntX / `<var>` length (§4.1, §4.2.1). Non-minimal encodings are rejected so that
/// decode→encode is the identity and hashes of re-encodings equal hashes of what was received.
pub fn read_var(r: &mut Reader<'_>, field: &'static str) -> Result<u64, CursorError> {
    let start = r.offset();
    let first = r.u8(field)?;
    let extra = first.leading_ones() as usize;
    if extra >= 8 {
        return Err(Reader::invalid_at(field, start, "length prefix with 8 leading 1-bits"));
    }
    let mut v = if extra == 7 {
        0
    } else {
        u64::from(first & (0xffu8 >> (extra + 1)))
    };
    for _ in 0..extra {
        v = (v << 8) | u64::from(r.u8(field)?);
    }
    if var_len_size(v) != extra + 1 {
        return Err(Reader::invalid_at(field, start, format!("non-minimal encoding of {v}")));
    }
    Ok(v)
}

/// Reads a `<var>` length and returns a reader over exactly that many bytes (its errors keep
/// absolute offsets).
pub fn read_vector<'a>(r: &mut Reader<'a>, field: &'static str) -> Result<Reader<'a>, CursorError> {
    let len = read_var(r, field)?;
    let len = usize::try_from(len).map_err(|_| r.truncated(field, usize::MAX))?;
    r.sub(len, field)
}

/// Reads an `opaque<var>`.
pub fn read_opaque_var(r: &mut Reader<'_>, field: &'static str) -> Result<Vec<u8>, CursorError> {
    Ok(read_vector(r, field)?.rest().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(v: u64) -> Vec<u8> {
        let mut w = Writer::new();
        put_var(&mut w, v);
        w.into_vec()
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
            assert_eq!(read_var(&mut r, "v").unwrap(), v, "{v}");
            assert!(r.is_empty());
        }
    }

    #[test]
    fn rejects_non_minimal_and_truncated() {
        assert!(read_var(&mut Reader::new(&[0x80, 0x05]), "v").is_err());
        assert!(read_var(&mut Reader::new(&[0x80]), "v").is_err());
        assert!(read_var(&mut Reader::new(&[0xff]), "v").is_err());
        let err = read_vector(&mut Reader::new(&[0x05, 1, 2]), "vec").err().unwrap();
        assert!(matches!(err, CursorError::Truncated { offset: 1, .. }), "{err:?}");
    }

    #[test]
    fn vectors_are_length_prefixed() {
        let mut w = Writer::new();
        put_vec(&mut w, &[1u64, 300], |v, w| put_var(w, *v));
        put_opaque_var(&mut w, b"ab");
        let bytes = w.into_vec();
        assert_eq!(bytes, [3, 1, 0x81, 0x2c, 2, b'a', b'b']);
        let mut r = Reader::new(&bytes);
        let mut v = read_vector(&mut r, "v").unwrap();
        assert_eq!(v.many(|r| read_var(r, "x")).unwrap(), [1, 300]);
        assert_eq!(read_opaque_var(&mut r, "o").unwrap(), b"ab");
        r.finish("all").unwrap();
    }
}
