//! The walk: one value of a [`Ty`] at a time over a [`Reader`], allocating nothing.
//!
//! It follows `rasn` 0.30's C-OER decoder wherever the two could disagree about where a field
//! starts, because a disagreement lets bytes the walk skipped reach `rasn` as structure:
//!
//! * extension presence bitmaps: `rasn` reads the bits of the additions it models without
//!   masking the bitmap's "unused" bits, so the unused bits must be zero here;
//! * extension additions `rasn` does not model: it neither reads their open types nor (when a
//!   type models none) the bitmap, and decodes those bytes as the fields that follow. Such
//!   additions are refused ([`WireError::Unsupported`]) instead of skipped;
//! * open types (extension additions and alternatives): `rasn` decodes their content with a
//!   fresh decoder, so the walk descends into the same bytes, and the content must fill its
//!   open type exactly (X.696 §30: no octet of an open type is left over; DECAP step 1 is
//!   exact C-OER).

use crate::cursor::Reader;
use crate::ieee1609dot2::{oer, WireError};
use std::ops::Range;

/// A type's C-OER shape, as far as the walk needs it.
pub(crate) enum Ty {
    /// A fixed number of octets (constrained integers, fixed-size strings, BOOLEAN, ...).
    Fixed(usize),
    /// A length determinant then that many octets (OCTET STRING / UTF8String / IA5String without
    /// a fixed size, unconstrained or semi-constrained INTEGER, open types).
    Len,
    /// ENUMERATED: one octet below 128, or 0x80|n then n octets.
    Enum,
    /// SEQUENCE: `ext` = has an extension marker; fields are (optional-or-default, type);
    /// `additions` are ALL the extension additions `rasn-its` decodes, in order (walked inside
    /// their open type, since `rasn` decodes them too). Any other addition is refused.
    Seq {
        ext: bool,
        fields: &'static [(bool, &'static Ty)],
        additions: &'static [&'static Ty],
    },
    /// An `Extension { id, content }` whose content type depends on the id octet (as
    /// `rasn-its` decodes the ETSI header-info extensions: inline, no open type).
    ById(&'static [(u8, &'static Ty)]),
    /// CHOICE: the root alternatives in tag order (context tags 0, 1, ...); `None` marks a root
    /// alternative this crate does not decode. `ext_alts` are the extension alternatives that
    /// `rasn-its` decodes and that contain a SEQUENCE OF (walked inside their open type); other
    /// extension alternatives are skipped by length (their content is decoded by `rasn` from the
    /// open type alone, and unknown ones are errors there).
    Choice {
        ext: bool,
        alts: &'static [Option<&'static Ty>],
        ext_alts: &'static [&'static Ty],
    },
    /// SEQUENCE OF: quantity then elements.
    SeqOf(&'static Ty),
}

use Ty::*;

/// Deeper than any valid 1609.2 / TS 102 941 structure (nested signed data is the deep case).
const MAX_DEPTH: usize = 48;

/// Walks one value of type `ty` at the reader's position.
pub(crate) fn walk(ty: &Ty, r: &mut Reader<'_>, depth: usize) -> Result<(), WireError> {
    if depth > MAX_DEPTH {
        return Err(r.invalid("structure", "nested too deeply").into());
    }
    match ty {
        Fixed(n) => {
            r.take(*n, "fixed-size field")?;
        }
        Len => {
            oer::read_length_prefixed(r, "length-prefixed field")?;
        }
        Enum => {
            let first = r.u8("ENUMERATED")?;
            if first >= 0x80 {
                r.take(usize::from(first & 0x7f), "ENUMERATED")?;
            }
        }
        ById(table) => {
            let at = r.offset();
            let id = r.u8("extension id")?;
            let (_, ty) = table
                .iter()
                .find(|(k, _)| *k == id)
                .ok_or_else(|| Reader::unknown_at("extension id", at, u64::from(id)))?;
            walk(ty, r, depth + 1)?;
        }
        Seq { ext, fields, additions } => sequence(*ext, fields, additions, r, depth, None)?,
        Choice { ext, alts, ext_alts } => choice(*ext, alts, ext_alts, r, depth)?,
        SeqOf(elem) => {
            let at = r.offset();
            let count = oer::read_quantity(r, "SEQUENCE OF quantity")?;
            // Every element of every SEQUENCE OF in these schemas takes at least one octet.
            if count > r.remaining() as u64 {
                return Err(Reader::invalid_at(
                    "SEQUENCE OF quantity",
                    at,
                    format!("{count} elements announced, {} bytes left", r.remaining()),
                )
                .into());
            }
            for _ in 0..count {
                walk(elem, r, depth + 1)?;
            }
        }
    }
    Ok(())
}

/// Walks a SEQUENCE; with `want = Some((i, out))`, sets `out` to the range (in the reader's
/// buffer) of the content of extension addition `i` (0-based) when present.
fn sequence(
    ext: bool,
    fields: &[(bool, &'static Ty)],
    additions: &[&'static Ty],
    r: &mut Reader<'_>,
    depth: usize,
    mut want: Option<(usize, &mut Option<Range<usize>>)>,
) -> Result<(), WireError> {
    let optional = fields.iter().filter(|f| f.0).count();
    let preamble = r.take((optional + usize::from(ext)).div_ceil(8), "SEQUENCE preamble")?;
    let bit = |i: usize| preamble.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0);
    let extended = ext && bit(0);
    let mut next_bit = usize::from(ext);
    for (optional, ty) in fields {
        let present = if *optional {
            next_bit += 1;
            bit(next_bit - 1)
        } else {
            true
        };
        if present {
            walk(ty, r, depth + 1)?;
        }
    }
    if !extended {
        return Ok(());
    }
    // Extension presence bitmap (a length-prefixed BIT STRING: unused-bits octet then the
    // bits), then one open type per bit set.
    let at = r.offset();
    let bitmap = oer::read_length_prefixed(r, "extension bitmap")?;
    let (&unused, bits) = bitmap
        .split_first()
        .ok_or_else(|| Reader::invalid_at("extension bitmap", at, "empty"))?;
    let last = bits.last().copied().unwrap_or(0);
    if unused > 7 || (bits.is_empty() && unused != 0) || last & ((1u8 << unused) - 1) != 0 {
        return Err(Reader::invalid_at("extension bitmap", at, format!("{unused} unused bits, not all zero")).into());
    }
    // X.696 (the SEQUENCE preamble): the extension bit is 1 exactly when an addition is present; a
    // set bit with an all-zero bitmap is a second encoding of the same value, which `rasn`
    // accepts and re-encodes without the bitmap (a certificate hashed over its received
    // bytes would then have two digests).
    if bits.iter().all(|b| *b == 0) {
        return Err(Reader::invalid_at("extension bitmap", at, "extension bit set but no addition present").into());
    }
    if additions.is_empty() {
        return Err(WireError::Unsupported(format!(
            "extension additions at byte {at} in a SEQUENCE whose decoder models none"
        )));
    }
    for i in (0..bits.len() * 8).filter(|i| bits.get(i / 8).is_some_and(|b| b & (0x80 >> (i % 8)) != 0)) {
        let ty = additions.get(i).ok_or_else(|| {
            WireError::Unsupported(format!(
                "extension addition {} at byte {at}: the decoder models {}",
                i + 1,
                additions.len()
            ))
        })?;
        let n = oer::read_length(r, "extension addition")?;
        let start = r.offset();
        let mut open = r.sub(n, "extension addition")?;
        walk(ty, &mut open, depth + 1)?;
        exactly_filled(&open, "extension addition")?;
        if let Some((_, out)) = want.as_mut().filter(|(w, _)| *w == i) {
            **out = Some(start..start + n);
        }
    }
    Ok(())
}

/// An open type's content must end where the open type ends.
fn exactly_filled(open: &Reader<'_>, what: &'static str) -> Result<(), WireError> {
    match open.remaining() {
        0 => Ok(()),
        n => Err(open
            .invalid(what, format!("{n} bytes after the value inside its open type"))
            .into()),
    }
}

fn choice(
    ext: bool,
    alts: &[Option<&'static Ty>],
    ext_alts: &[&'static Ty],
    r: &mut Reader<'_>,
    depth: usize,
) -> Result<(), WireError> {
    let at = r.offset();
    let tag = r.u8("CHOICE tag")?;
    let number = usize::from(tag & 0x3f);
    if tag >> 6 != 0b10 || number == 0x3f {
        // Only context tags below 63 occur in these schemas (root or extension).
        return Err(Reader::invalid_at("CHOICE tag", at, format!("0x{tag:02x} is not a context tag below 63")).into());
    }
    match alts.get(number) {
        Some(Some(ty)) => walk(ty, r, depth + 1),
        Some(None) => Err(WireError::Unsupported(format!(
            "choice alternative {number} at byte {at}"
        ))),
        None if ext => {
            let n = oer::read_length(r, "extension alternative")?;
            let mut open = r.sub(n, "extension alternative")?;
            match number.checked_sub(alts.len()).and_then(|i| ext_alts.get(i)) {
                Some(ty) => {
                    walk(ty, &mut open, depth + 1)?;
                    exactly_filled(&open, "extension alternative")
                }
                None => Ok(()),
            }
        }
        None => Err(Reader::unknown_at("CHOICE alternative", at, number as u64).into()),
    }
}

/// Walks one `ty` value at the reader's position (the reader ends after it).
pub(crate) fn skip(ty: &Ty, r: &mut Reader<'_>) -> Result<(), WireError> {
    walk(ty, r, 0)
}

/// Length of the `ty` value at the start of `bytes` (cheap: no allocation, no values built).
pub(crate) fn encoded_len(ty: &Ty, bytes: &[u8]) -> Result<usize, WireError> {
    let mut r = Reader::new(bytes);
    walk(ty, &mut r, 0)?;
    Ok(bytes.len() - r.remaining())
}

/// The range, within `bytes`, of the content of extension addition `index` (0-based) of the
/// SEQUENCE `ty` at the start of `bytes` (`None` when absent or `ty` is not a SEQUENCE).
pub(crate) fn addition_content(ty: &Ty, bytes: &[u8], index: usize) -> Result<Option<Range<usize>>, WireError> {
    let mut found = None;
    if let Seq { ext, fields, additions } = ty {
        sequence(
            *ext,
            fields,
            additions,
            &mut Reader::new(bytes),
            0,
            Some((index, &mut found)),
        )?;
    }
    Ok(found)
}

/// Checks that `bytes` starts with a well-formed `ty` under the walk's rules.
pub(crate) fn check(ty: &Ty, bytes: &[u8]) -> Result<(), WireError> {
    walk(ty, &mut Reader::new(bytes), 0)
}

/// Shorthand for the tests of the schemas: the bytes left after one `ty`.
#[cfg(test)]
pub(crate) fn rest_after(ty: &Ty, bytes: &[u8]) -> Result<usize, WireError> {
    encoded_len(ty, bytes).map(|n| bytes.len() - n)
}
