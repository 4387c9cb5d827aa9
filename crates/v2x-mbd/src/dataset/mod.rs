//! Datasets: VeReMi (2018), VeReMi Extension (2020) and VeReMi NextGen (2026) readers into
//! [`crate::Message`], and a NextGen writer (one JSON array per receiver, as NextGen ships).

pub mod nextgen;
pub mod veremi;

/// Why a dataset file does not read.
#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: line {line}: {message}")]
    Format { path: String, line: usize, message: String },
}
