//! Reading a command's input file, or stdin for `-`, at most
//! [`v2x_security::bounded_read::MAX_INPUT_BYTES`] (64 MiB).

use anyhow::Context;
use std::path::Path;
use v2x_security::bounded_read::{read_bounded, read_file_bounded};

pub fn read_input(path: &Path) -> anyhow::Result<Vec<u8>> {
    if path.as_os_str() == "-" {
        return read_bounded(std::io::stdin().lock()).context("reading stdin");
    }
    read_file(path)
}

/// A file the command reads (a certificate, a key, a capture), capped like every input.
pub fn read_file(path: &Path) -> anyhow::Result<Vec<u8>> {
    read_file_bounded(path).with_context(|| format!("reading {}", path.display()))
}
