//! Security overhead accounting: the bytes each protocol adds, field by field.
//!
//! Every row is computed from a real encoded message (total = encoded size minus the
//! payload), and its fields must add up to that total; where a paper publishes a figure
//! for the same combination, the row carries it with an explanation of any difference.
//!
//! [`row`] holds the report's types; [`protocols`] measures the lightweight protocols,
//! [`etsi_v1_2_1`] and [`etsi_v2`] the two standard formats ([`standard`] is what those
//! two share), [`experimental_pq`] the experimental post-quantum designs.

pub mod etsi_v1_2_1;
pub mod etsi_v2;
pub mod experimental_pq;
pub mod protocols;
pub mod row;
pub mod standard;

pub use row::{OverheadField, OverheadReport, OverheadRow, PaperFigure};
pub use standard::EtsiOverheadError;

use crate::setup::SetupError;

/// Why the report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum OverheadError {
    /// A lightweight protocol's stations could not be set up or could not encode.
    #[error("lightweight protocols: {0}")]
    Protocols(#[from] SetupError),
    /// A standard-format message could not be made.
    #[error("standard formats: {0}")]
    Standard(#[from] EtsiOverheadError),
    /// An experimental post-quantum message could not be made.
    #[error("experimental post-quantum designs: {0}")]
    ExperimentalPq(#[source] SetupError),
}

/// Rows of every protocol: the lightweight protocols (measured on packets they encode),
/// the two standard formats and the experimental post-quantum designs.
pub fn try_report() -> Result<OverheadReport, OverheadError> {
    let mut rows = protocols::rows()?;
    rows.extend(etsi_v1_2_1::v1_rows()?);
    rows.extend(etsi_v2::v2_rows()?);
    rows.extend(experimental_pq::rows().map_err(OverheadError::ExperimentalPq)?);
    Ok(OverheadReport { rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_rows_are_consistent_and_match_the_papers_layouts() {
        // The lightweight protocols' rows (overhead_etsi tests its own rows).
        let report = OverheadReport {
            rows: protocols::rows().unwrap(),
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
