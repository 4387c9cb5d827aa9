//! The PSID / ITS-AID argument every command that names one takes.

use anyhow::anyhow;
use v2x_wire::ItsAid;

/// Parses a PSID / ITS-AID: a number, 0x-hex, or a name.
pub fn parse_its_aid(s: &str) -> anyhow::Result<ItsAid> {
    ItsAid::parse(s).ok_or_else(|| {
        let names: Vec<&str> = ItsAid::NAMED.iter().filter_map(|a| a.name()).collect();
        anyhow!(
            "unknown PSID {s:?}: give a number (e.g. 36 or 0x24) or one of {}",
            names.join(", ")
        )
    })
}
