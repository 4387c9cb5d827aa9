//! The C-OER primitives that v2xsec writes or walks by hand (ITU-T X.696): length
//! determinants and the length-prefixed unsigned integers of unconstrained INTEGERs such as
//! the PSID. `rasn` does everything else; hand-assembled encodings (hot paths, and the types
//! `rasn` 0.30 mis-encodes) and the structural pre-scan use these.

use crate::cursor::{CursorError, Reader};

/// Appends a length determinant (X.696 §8.6): short form below 128, else `0x80 | n` and
/// the length in `n` big-endian octets (minimal).
pub fn put_length(out: &mut Vec<u8>, len: usize) {
    if len < 128 {
        out.push(len as u8);
    } else {
        let bytes = (len as u64).to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(bytes.get(skip..).unwrap_or_default());
    }
}

/// Appends an open type or OCTET STRING of unconstrained size: its length then the bytes.
pub fn put_length_prefixed(out: &mut Vec<u8>, bytes: &[u8]) {
    put_length(out, bytes.len());
    out.extend_from_slice(bytes);
}

/// Appends an unconstrained non-negative INTEGER (X.696 §10.4: length then the minimal
/// big-endian octets; zero takes one octet), as used for `Psid`.
pub fn put_unsigned(out: &mut Vec<u8>, v: u64) {
    let bytes = v.to_be_bytes();
    let skip = bytes.iter().take_while(|&&b| b == 0).count().min(7);
    out.push((bytes.len() - skip) as u8);
    out.extend_from_slice(bytes.get(skip..).unwrap_or_default());
}

/// Reads a length determinant. Long forms must use 1..=8 octets and the value must fit in
/// `usize`; the length is NOT checked against what remains (callers `take` it next).
pub fn read_length(r: &mut Reader<'_>, field: &'static str) -> Result<usize, CursorError> {
    let start = r.offset();
    let first = r.u8(field)?;
    if first < 0x80 {
        return Ok(usize::from(first));
    }
    let n = usize::from(first & 0x7f);
    if n == 0 || n > 8 {
        return Err(Reader::invalid_at(field, start, format!("length of length {n}")));
    }
    let len = r.uint(n, field)?;
    usize::try_from(len).map_err(|_| Reader::invalid_at(field, start, format!("length {len} too large")))
}

/// Reads the quantity of a SEQUENCE OF / SET OF (X.696 §20.6: a length determinant, then the
/// count as a minimal unsigned integer of 1 to 8 octets). The count is NOT checked against
/// what remains: callers bound it before sizing anything by it.
pub fn read_quantity(r: &mut Reader<'_>, field: &'static str) -> Result<u64, CursorError> {
    let start = r.offset();
    let n = read_length(r, field)?;
    if !(1..=8).contains(&n) {
        return Err(Reader::invalid_at(field, start, format!("quantity of {n} octets")));
    }
    let digits = r.take(n, field)?;
    if n > 1 && digits.first() == Some(&0) {
        return Err(Reader::invalid_at(field, start, "quantity with a leading zero octet"));
    }
    Ok(digits.iter().fold(0u64, |acc, &d| (acc << 8) | u64::from(d)))
}

/// Reads a length determinant and returns the bytes it covers.
pub fn read_length_prefixed<'a>(r: &mut Reader<'a>, field: &'static str) -> Result<&'a [u8], CursorError> {
    let n = read_length(r, field)?;
    r.take(n, field)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_round_trip_in_short_and_long_form() {
        for len in [0usize, 1, 127, 128, 255, 256, 65535, 65536, 1 << 24] {
            let mut out = Vec::new();
            put_length(&mut out, len);
            let expect = if len < 128 {
                1
            } else {
                1 + (usize::BITS - len.leading_zeros()).div_ceil(8) as usize
            };
            assert_eq!(out.len(), expect, "{len}");
            let mut r = Reader::new(&out);
            assert_eq!(read_length(&mut r, "len").unwrap(), len);
            r.finish("len").unwrap();
        }
        assert_eq!(
            {
                let mut o = Vec::new();
                put_length(&mut o, 200);
                o
            },
            [0x81, 200]
        );
    }

    #[test]
    fn malformed_lengths_are_errors() {
        assert!(read_length(&mut Reader::new(&[0x80]), "l").is_err());
        assert!(read_length(&mut Reader::new(&[0x89, 0, 0, 0, 0, 0, 0, 0, 0, 1]), "l").is_err());
        assert!(read_length(&mut Reader::new(&[0x82, 1]), "l").is_err());
        assert!(read_length_prefixed(&mut Reader::new(&[3, 1, 2]), "l").is_err());
    }

    #[test]
    fn quantities_are_minimal_and_bounded_in_size() {
        assert_eq!(read_quantity(&mut Reader::new(&[1, 5]), "q"), Ok(5));
        assert_eq!(read_quantity(&mut Reader::new(&[2, 1, 0]), "q"), Ok(256));
        assert!(read_quantity(&mut Reader::new(&[0]), "q").is_err());
        assert!(read_quantity(&mut Reader::new(&[2, 0, 5]), "q").is_err());
        assert!(read_quantity(&mut Reader::new(&[9, 1, 0, 0, 0, 0, 0, 0, 0, 0]), "q").is_err());
        assert!(read_quantity(&mut Reader::new(&[2, 1]), "q").is_err());
    }

    #[test]
    fn unsigned_integers_are_minimal() {
        let enc = |v| {
            let mut o = Vec::new();
            put_unsigned(&mut o, v);
            o
        };
        assert_eq!(enc(0), [1, 0]);
        assert_eq!(enc(36), [1, 36]);
        assert_eq!(enc(622), [2, 0x02, 0x6e]);
        assert_eq!(enc(u64::MAX), [8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    }
}
