//! Security overhead accounting: the bytes each protocol adds, field by field.
//!
//! Every row is computed from a real encoded message (total = encoded size minus the
//! payload), and its fields must add up to that total; where a paper publishes a figure
//! for the same combination, the row carries it with an explanation of any difference.

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

/// Rows of every protocol: the lightweight protocols (measured on packets they encode)
/// and the two standard formats (`overhead_etsi`).
pub fn try_report() -> Result<OverheadReport, String> {
    let mut rows = crate::overhead_protocols::rows()?;
    rows.extend(crate::overhead_etsi::rows());
    Ok(OverheadReport { rows })
}

/// As [`try_report`]; if the crypto backend cannot produce the lightweight protocols'
/// packets (key generation failure), only the standard formats' rows are returned.
pub fn report() -> OverheadReport {
    try_report().unwrap_or_else(|_| OverheadReport {
        rows: crate::overhead_etsi::rows(),
    })
}

impl OverheadReport {
    /// The row for `protocol` / `message` / `variant`, if present.
    pub fn find(&self, protocol: &str, message: &str, variant: &str) -> Option<&OverheadRow> {
        self.rows
            .iter()
            .find(|r| r.protocol == protocol && r.message == message && r.variant == variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_rows_are_consistent_and_match_the_papers_layouts() {
        // The lightweight protocols' rows (overhead_etsi tests its own rows).
        let report = OverheadReport {
            rows: crate::overhead_protocols::rows().unwrap(),
        };
        for r in &report.rows {
            assert!(
                r.is_consistent(),
                "{} {} {}: fields {:?} total {}",
                r.protocol,
                r.message,
                r.variant,
                r.fields,
                r.total_bytes
            );
        }
        let total = |p: &str, m: &str, v: &str| report.find(p, m, v).map(|r| r.total_bytes);
        assert_eq!(total("hash-chain", "v2v", "hmac-sha256/12"), Some(40));
        assert_eq!(total("hash-chain", "v2i", "hmac-sha256/12+ecdsa-p256"), Some(201));
        assert_eq!(total("tesla", "data-frame", "paper004/separate"), Some(82));
        assert_eq!(total("tesla-attached", "data-frame", "paper004/attached"), Some(92));
        assert_eq!(total("tesla", "key-frame", "paper004/separate"), Some(43));
        assert_eq!(total("tesla-attached", "data", "paper001/attached/signed"), Some(142));
        assert_eq!(total("2flip", "data", "sha1"), Some(47));
        // Every paper figure we reproduce says so.
        for (p, m, v) in [
            ("hash-chain", "v2v", "hmac-sha256/12"),
            ("hash-chain", "v2i", "hmac-sha256/12+ecdsa-p256"),
            ("tesla", "data-frame", "paper004/separate"),
            ("tesla", "key-frame", "paper004/separate"),
            ("tesla-attached", "data-frame", "paper004/attached"),
            ("tesla-attached", "data", "paper001/attached/signed"),
            ("2flip", "data", "sha1"),
        ] {
            let row = report.find(p, m, v).unwrap();
            assert_eq!(row.paper.len(), 1);
            assert_eq!(row.paper[0].explanation, "matches", "{p} {m} {v}");
        }
        // Session schemes: every pairwise configuration reports three handshake steps and data.
        let wang_dsa: Vec<_> = report
            .rows
            .iter()
            .filter(|r| r.protocol == "wang" && r.variant.starts_with("pairwise/dsa"))
            .collect();
        let names: Vec<_> = wang_dsa.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(names, ["handshake-1", "handshake-2", "handshake-3", "data"]);
        assert_eq!(wang_dsa[3].total_bytes, 13 + 2 + 16 + 2 + 40);
        assert!(report
            .rows
            .iter()
            .any(|r| r.protocol == "raya-hubaux" && r.message == "group-key"));
    }
}
