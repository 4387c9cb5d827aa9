//! The rows of the overhead report: one protocol / message / variant, its fields, and
//! the published figures it is compared with.

use serde::Serialize;

/// One field of the security overhead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OverheadField {
    pub name: String,
    pub bytes: usize,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A published figure to compare a row with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PaperFigure {
    /// e.g. "paper 000 Fig. 10" or "paper 001 Table 1".
    pub source: String,
    pub bytes: usize,
    /// Why our number differs (or "matches").
    pub explanation: String,
}

/// Overhead of one protocol / message type / variant combination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OverheadRow {
    /// e.g. "ieee1609.2", "etsi-v1.2.1", "tesla", "hash-chain".
    pub protocol: String,
    /// e.g. "cam", "denm", "generic", "v2v", "v2i", "key-packet".
    pub message: String,
    /// e.g. "sign/digest/p256", "sign+encrypt/certificate/bp384/aes128".
    pub variant: String,
    pub fields: Vec<OverheadField>,
    pub total_bytes: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paper: Vec<PaperFigure>,
}

impl OverheadRow {
    /// True when the fields add up to the total (checked by tests for every row).
    pub fn is_consistent(&self) -> bool {
        self.fields.iter().map(|f| f.bytes).sum::<usize>() == self.total_bytes
    }
}

/// The whole report, as printed by `v2x overhead`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OverheadReport {
    pub rows: Vec<OverheadRow>,
}

impl OverheadReport {
    /// The row for `protocol` / `message` / `variant`, if present.
    pub fn find(&self, protocol: &str, message: &str, variant: &str) -> Option<&OverheadRow> {
        self.rows
            .iter()
            .find(|r| r.protocol == protocol && r.message == message && r.variant == variant)
    }
}

/// A field with a note.
pub fn field(name: impl Into<String>, bytes: usize, note: impl Into<String>) -> OverheadField {
    OverheadField {
        name: name.into(),
        bytes,
        note: note.into(),
    }
}

/// How our size compares with a paper's, in words.
pub fn diff(ours: usize, theirs: usize) -> String {
    match ours.cmp(&theirs) {
        std::cmp::Ordering::Equal => "0 bytes difference (matches)".into(),
        std::cmp::Ordering::Less => format!("{} bytes fewer", theirs - ours),
        std::cmp::Ordering::Greater => format!("{} bytes more", ours - theirs),
    }
}
