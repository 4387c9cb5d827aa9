//! Reading untrusted files with a size cap: every input a receiver or the CLI reads (a
//! message, a capture, a certificate, a trust list, a CRL, a key) is at most
//! [`MAX_INPUT_BYTES`], so a huge or endless file (`/dev/zero`) is refused instead of growing
//! the process until memory runs out.

// On the decap path (issue 29): a typed rejection, never a panic, outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

use std::io::Read;
use std::path::Path;

/// 64 MiB: far above any secured message, certificate, trust list or CRL (the EU ECTL is
/// about 100 KB), and room for a `--batch` capture of some 100,000 frames.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Reads all of `reader`, refusing more than [`MAX_INPUT_BYTES`] (an `InvalidData` error
/// that says so); never holds more than the cap plus one byte.
pub fn read_bounded(reader: impl Read) -> std::io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut buf)?;
    if buf.len() as u64 > MAX_INPUT_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {MAX_INPUT_BYTES} bytes (the input size cap): refused"),
        ));
    }
    Ok(buf)
}

/// [`read_bounded`] of the file at `path`.
pub fn read_file_bounded(path: &Path) -> std::io::Result<Vec<u8>> {
    read_bounded(std::fs::File::open(path)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 27, item 7: on 726a8c9 `--in /dev/zero` grew to ~1 GB before failing.
    #[test]
    fn an_endless_input_is_refused_at_the_cap() {
        let e = read_bounded(std::io::repeat(0)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(read_bounded(&b"small"[..]).unwrap(), b"small");
    }
}
